//! Same calls, same bits: in one process, and under a shift of the origin.

#![allow(clippy::disallowed_methods)] // measuring results in tests, not simulating

mod common;
use common::*;
use maul3d::math::{DVec3, Quat, Vec3};
use maul3d::{BodyDef, BodyType, ShapeDef, SolverLanes, World};

/// A busy scene: a pyramid, a tumbling pile of boxes, spheres and capsules, a hull.
fn busy(world: &mut World, offset: DVec3) -> Vec<maul3d::BodyId> {
    let g = world
        .create_body(&BodyDef {
            position: DVec3::new(offset.x, offset.y - 1.0, offset.z),
            ..Default::default()
        })
        .unwrap();
    world
        .create_box_shape(g, &ShapeDef::default(), Vec3::new(40.0, 1.0, 40.0))
        .unwrap();
    let mut ids = pyramid(world, 8, offset);
    let hull = world
        .create_hull(&[
            Vec3::new(-0.5, -0.3, -0.4),
            Vec3::new(0.6, -0.3, -0.4),
            Vec3::new(0.0, -0.3, 0.7),
            Vec3::new(0.1, 0.6, 0.0),
            Vec3::new(0.3, 0.2, 0.3),
            Vec3::new(-0.2, 0.1, -0.5),
        ])
        .unwrap();
    for i in 0..24 {
        // Local positions on the 2^-32 grid first, so adding the offset is exact.
        let g = maul3d::math::round_to_grid;
        let p = DVec3::new(
            offset.x + g((i % 4) as f64 * 0.9 - 1.5),
            offset.y + g(10.0 + i as f64 * 1.1),
            offset.z + g(((i / 4) % 3) as f64 * 0.9 - 0.9),
        );
        let b = world
            .create_body(&BodyDef {
                body_type: BodyType::Dynamic,
                position: p,
                rotation: Quat::from_axis_angle(
                    Vec3::new(1.0, 0.5, 0.2).normalize(),
                    i as f32 * 0.37,
                ),
                angular_velocity: Vec3::new(0.3 * i as f32, -0.2, 0.1),
                ..Default::default()
            })
            .unwrap();
        match i % 4 {
            0 => {
                world
                    .create_box_shape(b, &ShapeDef::default(), Vec3::new(0.4, 0.3, 0.2))
                    .unwrap();
            }
            1 => {
                world
                    .create_sphere_shape(
                        b,
                        &ShapeDef {
                            restitution: 0.3,
                            ..Default::default()
                        },
                        &maul3d::Sphere {
                            center: Vec3::ZERO,
                            radius: 0.35,
                        },
                    )
                    .unwrap();
            }
            2 => {
                world
                    .create_capsule_shape(
                        b,
                        &ShapeDef::default(),
                        &maul3d::Capsule {
                            center1: Vec3::new(-0.3, 0.0, 0.0),
                            center2: Vec3::new(0.3, 0.0, 0.0),
                            radius: 0.2,
                        },
                    )
                    .unwrap();
            }
            _ => {
                world
                    .create_hull_shape(b, &ShapeDef::default(), hull)
                    .unwrap();
            }
        }
        ids.push(b);
    }
    ids
}

#[test]
fn the_same_calls_twice_give_the_same_hash_at_every_step() {
    let run = || {
        let mut w = world(true);
        busy(&mut w, DVec3::ZERO);
        let mut hashes = Vec::new();
        for _ in 0..240 {
            w.step(DT, SUBSTEPS).unwrap();
            hashes.push(w.hash());
        }
        hashes
    };
    let a = run();
    let b = run();
    assert_eq!(a, b);
    // The hash does change as the scene moves.
    assert_ne!(a[0], a[100]);
}

/// How a test world solves its contacts: one constraint at a time (`F1`, the reference),
/// or the colours' groups of eight in each lane type.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Path {
    OneAtATime,
    Lanes(SolverLanes),
}

/// Every path this CPU runs: one at a time, scalar and 4-wide everywhere, 8-wide where the
/// CPU has AVX2 (there `Auto` must resolve to it; elsewhere forcing it must be refused).
fn paths() -> Vec<Path> {
    let mut paths = vec![
        Path::OneAtATime,
        Path::Lanes(SolverLanes::Scalar),
        Path::Lanes(SolverLanes::Four),
    ];
    let mut w = world(true);
    let before = w.hash();
    if SolverLanes::eight_available() {
        assert_eq!(
            w.solver_lanes(),
            SolverLanes::Eight,
            "Auto takes the widest lanes"
        );
        paths.push(Path::Lanes(SolverLanes::Eight));
    } else {
        assert_eq!(w.solver_lanes(), SolverLanes::Four);
        let e = w.set_solver_lanes(SolverLanes::Eight).unwrap_err();
        assert!(e.to_string().contains("AVX2"), "{e}");
        assert_eq!(w.solver_lanes(), SolverLanes::Four);
        assert_eq!(w.hash(), before);
    }
    paths
}

fn set_path(w: &mut World, path: Path) {
    match path {
        Path::OneAtATime => w.set_solve_one_at_a_time(true),
        Path::Lanes(lanes) => {
            w.set_solver_lanes(lanes).unwrap();
            assert_eq!(w.solver_lanes(), lanes);
        }
    }
}

#[test]
fn every_lane_path_gives_the_bits_of_one_at_a_time() {
    let run = |path: Path| {
        let mut w = world(true);
        set_path(&mut w, path);
        busy(&mut w, DVec3::ZERO);
        let mut hashes = Vec::new();
        for _ in 0..240 {
            w.step(DT, SUBSTEPS).unwrap();
            hashes.push(w.hash());
        }
        (hashes, w.counters().color_count)
    };
    let (reference, colors) = run(Path::OneAtATime);
    assert!(colors > 2, "the scene must use several colours");
    for path in paths() {
        assert_eq!(run(path).0, reference, "{path:?}");
    }
}

/// Found by the property test: in a group of four contacts where only some roll, the
/// rolling rows ran on every lane, and adding or storing a zero turned -0 into +0 for the
/// lanes that do not roll; one at a time those lanes have no rolling row at all. The
/// scene also bounces (restitution on some shapes), carries a kinematic platform (lanes
/// that read a body they must not write) and runs through task hooks on two workers.
#[test]
fn a_pile_with_rolling_bouncing_and_kinematic_lanes_solves_alike_on_every_path() {
    let run = |path: Path, hooks: bool| {
        let mut w = World::new(&maul3d::WorldDef {
            task_hooks: hooks.then(reversed_inline_hooks),
            enable_sleep: true,
            body_capacity: 512,
            shape_capacity: 512,
            contact_capacity: 4096,
            pair_capacity: 4096,
            ..Default::default()
        })
        .unwrap();
        set_path(&mut w, path);
        ground(&mut w, 0.6);
        for i in 0..60 {
            let (x, z) = ((i % 8) as f64 * 1.2 - 4.8, (i / 8) as f64 * 1.2 - 4.8);
            dynamic_box(
                &mut w,
                DVec3::new(x, 0.4 + (i % 3) as f64 * 0.9, z),
                Vec3::splat(0.4),
                &ShapeDef {
                    restitution: if i % 5 == 0 { 0.6 } else { 0.0 },
                    ..Default::default()
                },
            );
        }
        let ball = w
            .create_body(&BodyDef {
                body_type: BodyType::Dynamic,
                position: DVec3::new(0.3, 3.0, 0.2),
                ..Default::default()
            })
            .unwrap();
        w.create_sphere_shape(
            ball,
            &ShapeDef {
                rolling_resistance: 0.1,
                ..Default::default()
            },
            &maul3d::Sphere {
                center: Vec3::ZERO,
                radius: 0.95,
            },
        )
        .unwrap();
        let platform = w
            .create_body(&BodyDef {
                body_type: BodyType::Kinematic,
                position: DVec3::new(8.0, 0.2, 0.0),
                linear_velocity: Vec3::new(0.0, 0.0, 0.5),
                angular_velocity: Vec3::new(0.0, 0.3, 0.0),
                ..Default::default()
            })
            .unwrap();
        w.create_box_shape(platform, &ShapeDef::default(), Vec3::new(1.5, 0.2, 1.5))
            .unwrap();
        for k in 0..6 {
            dynamic_box(
                &mut w,
                DVec3::new(7.0 + (k % 3) as f64 * 0.9, 0.8, (k / 3) as f64 * 0.9 - 0.45),
                Vec3::splat(0.3),
                &ShapeDef::default(),
            );
        }
        (0..120)
            .map(|_| {
                w.step(DT, 8).unwrap();
                w.hash()
            })
            .collect::<Vec<_>>()
    };
    let reference = run(Path::OneAtATime, false);
    for path in paths() {
        assert_eq!(run(path, false), reference, "{path:?}");
        assert_eq!(run(path, true), reference, "{path:?} on two workers");
    }
}

/// Task hooks of two workers that run every piece inline, last piece first (the step's
/// parallel stages then run in another order than on one thread).
fn reversed_inline_hooks() -> maul3d::TaskHooks {
    use std::ffi::c_void;
    unsafe extern "C" fn enqueue(
        task: maul3d::TaskFn,
        count: u32,
        min_range: u32,
        context: *mut c_void,
        _user: *mut c_void,
    ) -> *mut c_void {
        let step = min_range.max(1);
        let starts: Vec<u32> = (0..count).step_by(step as usize).collect();
        for (k, &s) in starts.iter().enumerate().rev() {
            // SAFETY: the world's task and context, run before enqueue returns.
            unsafe { task(s, (s + step).min(count), k as u32 % 2, context) };
        }
        core::ptr::null_mut()
    }
    unsafe extern "C" fn finish(_handle: *mut c_void, _user: *mut c_void) {}
    maul3d::TaskHooks {
        enqueue_task: enqueue,
        finish_task: finish,
        user_context: core::ptr::null_mut(),
        worker_count: 2,
    }
}

/// A world for the joint lane tests on `path`, the host's two workers (reversed inline)
/// when `hooks`, with sleep off and a ground.
fn joint_world(path: Path, hooks: bool) -> World {
    let mut w = World::new(&maul3d::WorldDef {
        task_hooks: hooks.then(reversed_inline_hooks),
        enable_sleep: false,
        body_capacity: 512,
        shape_capacity: 512,
        contact_capacity: 4096,
        pair_capacity: 4096,
        joint_capacity: 1024,
        ..Default::default()
    })
    .unwrap();
    set_path(&mut w, path);
    ground(&mut w, 0.6);
    w
}

/// The hash after each of `steps` steps.
fn hashes(w: &mut World, steps: usize) -> Vec<u64> {
    (0..steps)
        .map(|_| {
            w.step(DT, 4).unwrap();
            w.hash()
        })
        .collect()
}

/// `run(path, two_workers)` gives one at a time's hashes on every path, on one thread
/// and on two workers.
fn every_path_alike(run: impl Fn(Path, bool) -> Vec<u64>) {
    let reference = run(Path::OneAtATime, false);
    for path in paths() {
        assert_eq!(run(path, false), reference, "{path:?}");
        assert_eq!(run(path, true), reference, "{path:?} on two workers");
    }
}

/// Joints in lanes (spherical joints are solved eight at a time per colour, every other
/// kind one at a time beside them): a grid of spherical joints hanging from static and
/// kinematic anchors, some with their own pivot springs, mixed in its colours with
/// revolute and weld joints, a group whose bodies lock the same axis (the point matrix's
/// zero diagonal: that group is solved one at a time), all swinging into the pile on the
/// ground. Every path gives the bits of one at a time, on one thread and on two workers.
#[test]
fn joints_in_lanes_solve_alike_on_every_path() {
    use maul3d::{JointKind, MotionLocks, RevoluteJoint, WeldJoint};
    let run = |path: Path, hooks: bool| {
        let mut w = joint_world(path, hooks);
        let anchor = |w: &mut World, x: f64, kinematic: bool| {
            w.create_body(&BodyDef {
                body_type: if kinematic {
                    BodyType::Kinematic
                } else {
                    BodyType::Static
                },
                position: DVec3::new(x, 8.0, 0.0),
                linear_velocity: if kinematic {
                    Vec3::new(0.0, 0.0, 0.4)
                } else {
                    Vec3::ZERO
                },
                ..Default::default()
            })
            .unwrap()
        };
        let mut joints = Vec::new();
        let (cols, rows) = (9usize, 7usize);
        let mut grid = vec![vec![]; cols];
        for (k, col) in grid.iter_mut().enumerate() {
            let x = k as f64 * 0.8 - 3.2;
            let top = anchor(&mut w, x, k % 3 == 1);
            let mut prev = top;
            for i in 0..rows {
                let p = DVec3::new(x, 7.4 - i as f64 * 0.6, 0.0);
                let b = w
                    .create_body(&BodyDef {
                        body_type: BodyType::Dynamic,
                        position: p,
                        linear_velocity: Vec3::new(0.5 * (k as f32 - 4.0), 0.0, 1.5),
                        // The last column's links keep their y translation locked: with
                        // the anchors' too, the point matrix has a zero diagonal there.
                        motion_locks: if k == cols - 1 {
                            MotionLocks {
                                linear_y: true,
                                ..Default::default()
                            }
                        } else {
                            MotionLocks::default()
                        },
                        ..Default::default()
                    })
                    .unwrap();
                w.create_sphere_shape(
                    b,
                    &ShapeDef::default(),
                    &maul3d::Sphere {
                        center: Vec3::ZERO,
                        radius: 0.2,
                    },
                )
                .unwrap();
                let at = DVec3::new(p.x, p.y + 0.3, p.z);
                let kind = match (k + i) % 7 {
                    3 => JointKind::Revolute(RevoluteJoint::default()),
                    5 => JointKind::Weld(WeldJoint::default()),
                    _ => JointKind::Spherical,
                };
                let j = joint_at(&mut w, prev, b, at, Quat::IDENTITY, kind);
                if (k + i) % 4 == 2 && (k + i) % 7 != 3 && (k + i) % 7 != 5 {
                    w.set_joint_pivot_spring(j, 6.0, 0.4).unwrap();
                }
                joints.push(j);
                col.push(b);
                prev = b;
            }
        }
        // Sideways links between neighbouring columns: more joints per body, more colours.
        for k in 1..cols - 1 {
            for i in (0..rows).step_by(2) {
                let (a, b) = (grid[k - 1][i], grid[k][i]);
                let (pa, pb) = (w.body_position(a).unwrap(), w.body_position(b).unwrap());
                let at = DVec3::new(
                    0.5 * (pa.x + pb.x),
                    0.5 * (pa.y + pb.y),
                    0.5 * (pa.z + pb.z),
                );
                joints.push(joint_at(
                    &mut w,
                    a,
                    b,
                    at,
                    Quat::IDENTITY,
                    JointKind::Spherical,
                ));
            }
        }
        for i in 0..20 {
            dynamic_box(
                &mut w,
                DVec3::new((i % 5) as f64 * 0.9 - 1.8, 0.4 + (i / 5) as f64 * 0.8, 1.5),
                Vec3::splat(0.35),
                &ShapeDef::default(),
            );
        }
        hashes(&mut w, 150)
    };
    every_path_alike(run);
}

/// A spherical group the lanes refuse in every pass: eight pendulums on one static
/// anchor, the third of them a body whose y translation is locked, held at its centre of
/// mass (its point matrix's y diagonal is zero: no mass along y, no lever), so its group
/// is solved one joint at a time each pass, the group's impulses carried from its lanes to
/// the joints and back, and the second group (a lone pendulum) in lanes. Every path gives
/// the bits of one at a time, on one thread and on two workers.
#[test]
fn a_spherical_group_the_lanes_refuse_keeps_its_impulses() {
    use maul3d::{JointKind, MotionLocks};
    let run = |path: Path, hooks: bool| {
        let mut w = joint_world(path, hooks);
        let anchor = w
            .create_body(&BodyDef {
                position: DVec3::new(0.0, 6.0, 0.0),
                ..Default::default()
            })
            .unwrap();
        for i in 0..9 {
            let locked = i == 2;
            // Exact coordinates: the locked body's anchor lies exactly at its centre.
            let p = DVec3::new(i as f64 * 0.75 - 3.0, 5.0, 0.0);
            let b = w
                .create_body(&BodyDef {
                    body_type: BodyType::Dynamic,
                    position: p,
                    linear_velocity: Vec3::new(1.0 - 0.25 * i as f32, 0.0, 2.0),
                    motion_locks: MotionLocks {
                        linear_y: locked,
                        ..Default::default()
                    },
                    ..Default::default()
                })
                .unwrap();
            let ball = maul3d::Sphere {
                center: Vec3::ZERO,
                radius: 0.2,
            };
            w.create_sphere_shape(b, &ShapeDef::default(), &ball)
                .unwrap();
            let at = if locked { p } else { DVec3::new(p.x, 5.6, 0.0) };
            joint_at(&mut w, anchor, b, at, Quat::IDENTITY, JointKind::Spherical);
        }
        hashes(&mut w, 90)
    };
    every_path_alike(run);
}

/// Cone-twist and revolute joints in lanes: chains of capsules hung from static and
/// kinematic anchors, swung hard so every limit is reached, with every setting the lanes
/// mask lane by lane (friction on and off, a swing or a twist unlimited or limited on one
/// side, limits and motors on and off), the revolute settings the lanes leave to one at a
/// time (a spring, a soft limit) and own pivot springs mixed into the same colours, a
/// chain whose links lock the same axis as their anchor (the point matrix's zero
/// diagonal: those groups are refused and solved one at a time), a cone-twist joint
/// starting at a half-turn swing (refused), and joints to a static body B, all falling
/// into boxes on the ground. Every path gives the bits of one at a time, on one thread
/// and on two workers.
#[test]
fn ragdoll_joints_in_lanes_solve_alike_on_every_path() {
    use core::f32::consts::PI;
    use maul3d::{ConeTwistJoint, JointDef, JointKind, MotionLocks, RevoluteJoint};
    let cone = |swing: f32, lower: f32, upper: f32, friction: f32| {
        JointKind::ConeTwist(ConeTwistJoint {
            swing_limit: swing,
            twist_lower: lower,
            twist_upper: upper,
            max_friction_torque: friction,
        })
    };
    let hinge = |limit: Option<(f32, f32)>, motor: Option<(f32, f32)>| {
        JointKind::Revolute(RevoluteJoint {
            enable_limit: limit.is_some(),
            lower: limit.map_or(0.0, |l| l.0),
            upper: limit.map_or(0.0, |l| l.1),
            enable_motor: motor.is_some(),
            motor_speed: motor.map_or(0.0, |m| m.0),
            max_motor_torque: motor.map_or(0.0, |m| m.1),
            ..Default::default()
        })
    };
    let kinds = [
        cone(0.3, -0.2, 0.2, 0.5),
        hinge(Some((-0.3, 0.5)), Some((2.0, 1.0))),
        cone(PI, -PI, PI, 0.0),
        hinge(None, None),
        cone(0.8, -PI, 0.3, 2.0),
        hinge(Some((-0.1, 0.1)), None),
        cone(0.1, -0.05, 0.05, 0.0),
        hinge(None, Some((-3.0, 50.0))),
        JointKind::Spherical,
        cone(1.2, -0.4, PI, 0.1),
        hinge(Some((0.0, 2.2)), Some((0.0, 0.5))),
    ];
    let run = |path: Path, hooks: bool| {
        let mut w = joint_world(path, hooks);
        let (cols, rows) = (14usize, 8usize);
        let mut n = 0usize;
        for k in 0..cols {
            let x = k as f64 * 0.7 - 4.5;
            let kinematic = k % 4 == 1;
            let top = w
                .create_body(&BodyDef {
                    body_type: if kinematic {
                        BodyType::Kinematic
                    } else {
                        BodyType::Static
                    },
                    position: DVec3::new(x, 7.0, 0.0),
                    linear_velocity: Vec3::new(0.0, 0.0, if kinematic { 0.5 } else { 0.0 }),
                    angular_velocity: Vec3::new(0.0, if kinematic { 1.5 } else { 0.0 }, 0.0),
                    ..Default::default()
                })
                .unwrap();
            let locked = k == cols - 1;
            let mut prev = top;
            for i in 0..rows {
                let p = DVec3::new(x, 6.6 - i as f64 * 0.5, 0.0);
                let b = w
                    .create_body(&BodyDef {
                        body_type: BodyType::Dynamic,
                        position: p,
                        linear_velocity: Vec3::new(0.8 * (k as f32 - 6.0), 0.0, 2.5),
                        angular_velocity: Vec3::new(3.0 - i as f32, 2.0 * (k % 3) as f32, 4.0),
                        motion_locks: MotionLocks {
                            linear_y: locked,
                            ..Default::default()
                        },
                        ..Default::default()
                    })
                    .unwrap();
                w.create_capsule_shape(
                    b,
                    &ShapeDef {
                        filter: maul3d::Filter {
                            group_index: -1,
                            ..Default::default()
                        },
                        ..Default::default()
                    },
                    &maul3d::Capsule {
                        center1: Vec3::new(0.0, -0.15, 0.0),
                        center2: Vec3::new(0.0, 0.15, 0.0),
                        radius: 0.08,
                    },
                )
                .unwrap();
                let at = DVec3::new(p.x, p.y + 0.25, p.z);
                // Limbs along −y: the frames' x axis down, the hinges about world z or x.
                let rotation = if n % 2 == 0 {
                    Quat::from_axis_angle(Vec3::Z, -0.5 * PI)
                } else {
                    Quat::from_axis_angle(Vec3::Y, 0.5 * PI)
                };
                let kind = kinds[n % kinds.len()];
                let j = joint_at(&mut w, prev, b, at, rotation, kind);
                match n % 13 {
                    4 if matches!(kind, JointKind::Revolute(_)) => {
                        w.set_joint_enable_spring(j, true).unwrap();
                        w.set_joint_spring(j, 3.0, 0.5).unwrap();
                    }
                    6 if !matches!(kind, JointKind::ConeTwist(_)) => {
                        w.set_joint_pivot_spring(j, 8.0, 0.7).unwrap()
                    }
                    _ => {}
                }
                if n % 17 == 5 && matches!(kind, JointKind::Revolute(_)) {
                    w.set_joint_enable_limit(j, true).unwrap();
                    w.set_joint_limit_spring(j, 5.0, 0.3).unwrap();
                }
                n += 1;
                prev = b;
            }
            // Every third chain ends on a static body as joint body B.
            if k % 3 == 0 {
                let end = w
                    .create_body(&BodyDef {
                        position: DVec3::new(x + 0.5, 2.3, 0.0),
                        ..Default::default()
                    })
                    .unwrap();
                let kind = kinds[k % kinds.len()];
                joint_at(
                    &mut w,
                    prev,
                    end,
                    DVec3::new(x, 2.5, 0.0),
                    Quat::IDENTITY,
                    kind,
                );
            }
        }
        // A cone-twist joint whose frames start a half-turn apart: B's x axis is −A's.
        let (a, b) = (
            dynamic_box(
                &mut w,
                DVec3::new(6.0, 4.0, 0.0),
                Vec3::splat(0.2),
                &ShapeDef::default(),
            ),
            dynamic_box(
                &mut w,
                DVec3::new(6.0, 3.5, 0.0),
                Vec3::splat(0.2),
                &ShapeDef::default(),
            ),
        );
        w.create_joint(&JointDef {
            body_a: a,
            body_b: b,
            local_frame_a: maul3d::math::Transform::new(Vec3::new(0.0, -0.25, 0.0), Quat::IDENTITY),
            local_frame_b: maul3d::math::Transform::new(
                Vec3::new(0.0, 0.25, 0.0),
                Quat::new(0.0, 0.0, 1.0, 0.0),
            ),
            kind: cone(3.0, -1.0, 1.0, 0.2),
            ..Default::default()
        })
        .unwrap();
        for i in 0..24 {
            dynamic_box(
                &mut w,
                DVec3::new((i % 8) as f64 * 0.9 - 3.6, 0.4 + (i / 8) as f64 * 0.8, 1.5),
                Vec3::splat(0.35),
                &ShapeDef::default(),
            );
        }
        hashes(&mut w, 150)
    };
    every_path_alike(run);
}

#[test]
fn the_lanes_are_kept_by_grow_and_are_not_state() {
    let made = |lanes: SolverLanes| {
        let mut w = world(true);
        busy(&mut w, DVec3::ZERO);
        w.set_solver_lanes(lanes).unwrap();
        w
    };
    // Auto resolves to a concrete path; the hash and the snapshot ignore the choice.
    let (scalar, auto) = (made(SolverLanes::Scalar), made(SolverLanes::Auto));
    assert_ne!(auto.solver_lanes(), SolverLanes::Auto);
    assert_eq!(scalar.hash(), auto.hash());
    let snapshot = |w: &World| {
        let mut s = vec![0; w.snapshot_size()];
        w.snapshot(&mut s).unwrap();
        s
    };
    assert!(
        snapshot(&scalar) == snapshot(&auto),
        "the lanes must not be in snapshots"
    );
    let mut w = scalar;
    let mut bigger = w.capacities();
    bigger.body_capacity += 64;
    w.grow(&bigger).unwrap();
    assert_eq!(w.solver_lanes(), SolverLanes::Scalar);
}

#[test]
fn a_shifted_scene_steps_bit_identically_translated() {
    let shift = DVec3::new(1_048_576.0, -524_288.0, 262_144.0);
    let mut a = world(true);
    let mut b = world(true);
    let ia = busy(&mut a, DVec3::ZERO);
    let ib = busy(&mut b, shift);
    for step in 0..240 {
        a.step(DT, SUBSTEPS).unwrap();
        b.step(DT, SUBSTEPS).unwrap();
        for (x, y) in ia.iter().zip(ib.iter()) {
            let pa = a.body_position(*x).unwrap();
            let pb = b.body_position(*y).unwrap();
            assert_eq!(pb - shift, pa, "step {step}");
            assert_eq!(a.body_rotation(*x).unwrap(), b.body_rotation(*y).unwrap());
            assert_eq!(
                a.body_linear_velocity(*x).unwrap(),
                b.body_linear_velocity(*y).unwrap()
            );
            assert_eq!(
                a.body_angular_velocity(*x).unwrap(),
                b.body_angular_velocity(*y).unwrap()
            );
        }
    }
}

#[test]
fn shift_origin_mid_run_changes_nothing_but_positions() {
    let shift = DVec3::new(65_536.5, -1024.25, 3.0 + 1.0 / 4_294_967_296.0);
    let mut a = world(true);
    let mut b = world(true);
    let ia = busy(&mut a, DVec3::ZERO);
    let ib = busy(&mut b, DVec3::ZERO);
    step_n(&mut a, 60);
    step_n(&mut b, 60);
    b.shift_origin(shift).unwrap();
    assert_eq!(b.origin(), shift);
    for _ in 0..120 {
        a.step(DT, SUBSTEPS).unwrap();
        b.step(DT, SUBSTEPS).unwrap();
    }
    for (x, y) in ia.iter().zip(ib.iter()) {
        let pa = a.body_position(*x).unwrap();
        let pb = b.body_position(*y).unwrap();
        assert_eq!(pb + shift, pa);
        assert_eq!(
            a.body_linear_velocity(*x).unwrap(),
            b.body_linear_velocity(*y).unwrap()
        );
    }
    // A thousand shifts keep the origin exact.
    for _ in 0..1000 {
        b.shift_origin(DVec3::new(1.0 / 4_294_967_296.0, 0.0, 0.0))
            .unwrap();
    }
    assert_eq!(b.origin().x, shift.x + 1000.0 / 4_294_967_296.0);
}
