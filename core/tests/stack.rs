//! The step's deepest call keeps under 48 KiB of stack: every narrow-phase pair kind runs
//! on a 48 KiB thread (tests build optimised; the hash matrix's debug cell runs its scenes
//! on 64 KiB).

mod common;
use common::*;
use maul3d::math::{DVec3, Quat, Vec3};
use maul3d::{BodyDef, BodyType, Capsule, Cylinder, PlaneShape, ShapeDef, Sphere, World};

#[test]
fn every_pair_kind_steps_on_a_48_kib_stack() {
    let mut w = world(false);
    ground(&mut w, 0.6);
    let hull = w
        .create_hull(&[
            Vec3::new(-0.5, -0.4, -0.5),
            Vec3::new(0.5, -0.4, -0.4),
            Vec3::new(0.0, -0.45, 0.55),
            Vec3::new(0.1, 0.5, 0.0),
            Vec3::new(0.35, 0.25, 0.35),
            Vec3::new(-0.3, 0.2, -0.3),
        ])
        .unwrap();
    // A plane just under the ground's top, so every kind meets it too.
    let floor = w.create_body(&BodyDef::default()).unwrap();
    w.create_plane_shape(
        floor,
        &ShapeDef::default(),
        &PlaneShape {
            normal: Vec3::Y,
            offset: -0.001,
        },
    )
    .unwrap();
    // Bodies of every kind packed tightly so every kind meets every other kind.
    for i in 0..60 {
        let b = w
            .create_body(&BodyDef {
                body_type: BodyType::Dynamic,
                position: DVec3::new(
                    (i % 4) as f64 * 0.7,
                    0.5 + (i / 4) as f64 * 0.7,
                    ((i / 2) % 2) as f64 * 0.5,
                ),
                rotation: Quat::from_axis_angle(
                    Vec3::new(1.0, 0.4, 0.2).normalize(),
                    i as f32 * 0.9,
                ),
                ..Default::default()
            })
            .unwrap();
        let d = ShapeDef::default();
        match i % 5 {
            0 => w
                .create_sphere_shape(
                    b,
                    &d,
                    &Sphere {
                        center: Vec3::ZERO,
                        radius: 0.35,
                    },
                )
                .map(|_| ()),
            1 => w
                .create_capsule_shape(
                    b,
                    &d,
                    &Capsule {
                        center1: Vec3::new(0.0, -0.25, 0.0),
                        center2: Vec3::new(0.0, 0.25, 0.0),
                        radius: 0.25,
                    },
                )
                .map(|_| ()),
            2 => w
                .create_box_shape(b, &d, Vec3::new(0.3, 0.3, 0.3))
                .map(|_| ()),
            3 => w.create_hull_shape(b, &d, hull).map(|_| ()),
            _ => w
                .create_cylinder_shape(
                    b,
                    &d,
                    &Cylinder {
                        center: Vec3::ZERO,
                        rotation: Quat::IDENTITY,
                        half_height: 0.3,
                        radius: 0.3,
                    },
                )
                .map(|_| ()),
        }
        .unwrap();
    }
    // Boxed: the step's own stack is measured, not the `World` value's (5 KiB, which an
    // optimised build copied twice onto the thread's stack on the way in; a host keeps it
    // where it likes, the C ABI's is on the heap).
    let w = Box::new(w);
    let handle = std::thread::Builder::new()
        .stack_size(48 * 1024)
        .spawn(move || {
            let mut w: Box<World> = w;
            for _ in 0..240 {
                w.step(DT, SUBSTEPS).unwrap();
            }
            w.counters().touching_contact_count
        })
        .unwrap();
    let touching = handle
        .join()
        .expect("the step overflowed a 48 KiB stack or panicked");
    assert!(
        touching > 60,
        "the pile should touch everywhere: {touching}"
    );
}

#[test]
fn every_joint_kind_steps_on_a_48_kib_stack() {
    use maul3d::{
        AxisMode, ConeTwistJoint, DistanceJoint, JointKind, PrismaticJoint, RevoluteJoint,
        SixDofAxis, SixDofJoint, WeldJoint, WheelJoint,
    };
    let mut w = world(false);
    ground(&mut w, 0.6);
    ragdoll(&mut w, DVec3::new(0.0, 1.0, 0.0), 1);
    let post = w
        .create_body(&BodyDef {
            position: DVec3::new(4.0, 4.0, 0.0),
            ..Default::default()
        })
        .unwrap();
    let mut axes = [SixDofAxis::default(); 6];
    axes[0].mode = AxisMode::Limited {
        lower: -0.1,
        upper: 0.1,
    };
    axes[4] = SixDofAxis {
        spring_hertz: 3.0,
        ..SixDofAxis::FREE
    };
    let kinds = [
        JointKind::Spherical,
        JointKind::Revolute(RevoluteJoint {
            enable_limit: true,
            lower: -0.5,
            upper: 0.5,
            enable_spring: true,
            hertz: 2.0,
            ..Default::default()
        }),
        JointKind::Prismatic(PrismaticJoint {
            enable_motor: true,
            motor_speed: 0.5,
            max_motor_force: 100.0,
            ..Default::default()
        }),
        JointKind::Weld(WeldJoint {
            linear_hertz: 5.0,
            ..Default::default()
        }),
        JointKind::Distance(DistanceJoint {
            min_length: 0.2,
            max_length: 1.0,
            enable_spring: true,
            hertz: 1.0,
            ..Default::default()
        }),
        JointKind::ConeTwist(ConeTwistJoint {
            max_friction_torque: 1.0,
            ..Default::default()
        }),
        JointKind::SixDof(SixDofJoint { axes }),
        JointKind::Wheel(WheelJoint {
            enable_limit: true,
            lower: -0.2,
            upper: 0.2,
            ..Default::default()
        }),
    ];
    for (k, kind) in kinds.into_iter().enumerate() {
        let x = 4.0 + k as f64;
        let b = dynamic_box(
            &mut w,
            DVec3::new(x, 3.5, 0.0),
            Vec3::splat(0.2),
            &ShapeDef::default(),
        );
        joint_at(
            &mut w,
            post,
            b,
            DVec3::new(x, 3.8, 0.0),
            Quat::IDENTITY,
            kind,
        );
    }
    // Boxed: the step's own stack is measured, not the `World` value's (5 KiB, which an
    // optimised build copied twice onto the thread's stack on the way in; a host keeps it
    // where it likes, the C ABI's is on the heap).
    let w = Box::new(w);
    let handle = std::thread::Builder::new()
        .stack_size(48 * 1024)
        .spawn(move || {
            let mut w: Box<World> = w;
            for _ in 0..120 {
                w.step(DT, SUBSTEPS).unwrap();
            }
            w.joint_count()
        })
        .unwrap();
    let joints = handle
        .join()
        .expect("the step overflowed a 48 KiB stack or panicked");
    assert_eq!(joints, 13 + 8);
}

#[test]
fn every_pair_kind_against_meshes_and_height_fields_steps_on_a_48_kib_stack() {
    use maul3d::HeightFieldDef;
    let mut w = world(false);
    // A bumpy mesh floor (x < 0) and a bumpy height field (x > 0).
    let n = 12u32;
    let mut v = Vec::new();
    for z in 0..=n {
        for x in 0..=n {
            let y = ((x * 5 + z * 3) % 4) as f32 * 0.08;
            v.push(Vec3::new(x as f32 * 0.5 - 6.0, y, z as f32 * 0.5 - 3.0));
        }
    }
    let mut t = Vec::new();
    for z in 0..n {
        for x in 0..n {
            let (a, b) = (z * (n + 1) + x, z * (n + 1) + x + 1);
            let (c, d) = (a + n + 1, b + n + 1);
            t.push([a, c, d]);
            t.push([a, d, b]);
        }
    }
    let mesh = w.create_mesh(&v, &t).unwrap();
    let heights: Vec<f32> = (0..13 * 13).map(|i| ((i * 7) % 4) as f32 * 0.08).collect();
    let hf = w
        .create_height_field(&HeightFieldDef {
            count_x: 13,
            count_z: 13,
            heights: &heights,
            holes: &[],
            scale: Vec3::new(0.5, 1.0, 0.5),
        })
        .unwrap();
    for (m, at) in [(mesh, DVec3::ZERO), (hf, DVec3::new(0.0, 0.0, -3.0))] {
        let b = w
            .create_body(&BodyDef {
                position: at,
                ..Default::default()
            })
            .unwrap();
        w.create_mesh_shape(b, &ShapeDef::default(), m).unwrap();
    }
    let hull = w
        .create_hull(&[
            Vec3::new(-0.3, -0.25, -0.3),
            Vec3::new(0.3, -0.25, -0.25),
            Vec3::new(0.0, -0.3, 0.35),
            Vec3::new(0.1, 0.35, 0.0),
        ])
        .unwrap();
    for i in 0..32 {
        let b = w
            .create_body(&BodyDef {
                body_type: BodyType::Dynamic,
                position: DVec3::new(
                    -5.0 + (i % 8) as f64 * 1.4,
                    1.0 + (i / 8) as f64 * 0.8,
                    -1.5 + (i % 3) as f64 * 1.2,
                ),
                rotation: Quat::from_axis_angle(Vec3::new(0.3, 1.0, 0.2).normalize(), i as f32),
                // Some fast: time of impact against the triangles.
                linear_velocity: Vec3::new(0.0, if i % 5 == 0 { -120.0 } else { 0.0 }, 0.0),
                ..Default::default()
            })
            .unwrap();
        let d = ShapeDef::default();
        match i % 4 {
            0 => w
                .create_sphere_shape(
                    b,
                    &d,
                    &Sphere {
                        center: Vec3::ZERO,
                        radius: 0.3,
                    },
                )
                .map(|_| ()),
            1 => w
                .create_capsule_shape(
                    b,
                    &d,
                    &Capsule {
                        center1: Vec3::new(0.0, -0.2, 0.0),
                        center2: Vec3::new(0.0, 0.2, 0.0),
                        radius: 0.2,
                    },
                )
                .map(|_| ()),
            2 => w
                .create_box_shape(b, &d, Vec3::new(0.3, 0.25, 0.3))
                .map(|_| ()),
            3 if i % 8 == 7 => w
                .create_cylinder_shape(
                    b,
                    &d,
                    &maul3d::Cylinder {
                        half_height: 0.25,
                        radius: 0.3,
                        ..Default::default()
                    },
                )
                .map(|_| ()),
            _ => w.create_hull_shape(b, &d, hull).map(|_| ()),
        }
        .unwrap();
    }
    // Boxed: the step's own stack is measured, not the `World` value's (5 KiB, which an
    // optimised build copied twice onto the thread's stack on the way in; a host keeps it
    // where it likes, the C ABI's is on the heap).
    let w = Box::new(w);
    let handle = std::thread::Builder::new()
        .stack_size(48 * 1024)
        .spawn(move || {
            let mut w: Box<World> = w;
            for _ in 0..180 {
                w.step(DT, SUBSTEPS).unwrap();
            }
            w.counters().touching_contact_count
        })
        .unwrap();
    let touching = handle
        .join()
        .expect("the step overflowed a 48 KiB stack or panicked");
    assert!(
        touching > 32,
        "every body should rest on a surface: {touching}"
    );
}

#[test]
fn every_pair_kind_against_voxel_grids_steps_on_a_48_kib_stack() {
    let mut w = world(false);
    // A stepped voxel terrain of two chunks (0.25 m voxels) tiling one static body, its
    // columns 1 to 3 voxels high so boxes meet edges, faces and seams.
    let floor = w.create_body(&BodyDef::default()).unwrap();
    let data: Vec<u8> = (0..4096usize)
        .map(|i| {
            let (x, y, z) = (i % 16, (i / 16) % 16, i / 256);
            let height = 1 + (x * 5 + z * 3) % 3;
            if y < height { 1 + (x % 2) as u8 } else { 0 }
        })
        .collect();
    for k in 0..2 {
        let g = w
            .create_voxel_grid(&maul3d::VoxelGridDef {
                voxel_size: 0.25,
                data: &data,
                origin: Vec3::new(-6.0 + 4.0 * k as f32, -0.25, -2.0),
            })
            .unwrap();
        w.create_voxel_shape(floor, &ShapeDef::default(), g)
            .unwrap();
    }
    let hull = w
        .create_hull(&[
            Vec3::new(-0.3, -0.25, -0.3),
            Vec3::new(0.3, -0.25, -0.25),
            Vec3::new(0.0, -0.3, 0.35),
            Vec3::new(0.1, 0.35, 0.0),
        ])
        .unwrap();
    for i in 0..32 {
        let b = w
            .create_body(&BodyDef {
                body_type: BodyType::Dynamic,
                position: DVec3::new(
                    -5.5 + (i % 8) as f64 * 0.9,
                    1.0 + (i / 8) as f64 * 0.8,
                    -1.2 + (i % 3) as f64 * 1.0,
                ),
                rotation: Quat::from_axis_angle(Vec3::new(0.3, 1.0, 0.2).normalize(), i as f32),
                // Some fast: time of impact against the boxes.
                linear_velocity: Vec3::new(0.0, if i % 5 == 0 { -120.0 } else { 0.0 }, 0.0),
                ..Default::default()
            })
            .unwrap();
        let d = ShapeDef::default();
        match i % 4 {
            0 => w
                .create_sphere_shape(
                    b,
                    &d,
                    &Sphere {
                        center: Vec3::ZERO,
                        radius: 0.3,
                    },
                )
                .map(|_| ()),
            1 => w
                .create_capsule_shape(
                    b,
                    &d,
                    &Capsule {
                        center1: Vec3::new(0.0, -0.2, 0.0),
                        center2: Vec3::new(0.0, 0.2, 0.0),
                        radius: 0.2,
                    },
                )
                .map(|_| ()),
            2 => w
                .create_box_shape(b, &d, Vec3::new(0.3, 0.25, 0.3))
                .map(|_| ()),
            3 if i % 8 == 7 => w
                .create_cylinder_shape(
                    b,
                    &d,
                    &maul3d::Cylinder {
                        half_height: 0.25,
                        radius: 0.3,
                        ..Default::default()
                    },
                )
                .map(|_| ()),
            _ => w.create_hull_shape(b, &d, hull).map(|_| ()),
        }
        .unwrap();
    }
    // Boxed: the step's own stack is measured, not the `World` value's (5 KiB, which an
    // optimised build copied twice onto the thread's stack on the way in; a host keeps it
    // where it likes, the C ABI's is on the heap).
    let w = Box::new(w);
    let handle = std::thread::Builder::new()
        .stack_size(48 * 1024)
        .spawn(move || {
            let mut w: Box<World> = w;
            for _ in 0..180 {
                w.step(DT, SUBSTEPS).unwrap();
            }
            w.counters().touching_contact_count
        })
        .unwrap();
    let touching = handle
        .join()
        .expect("the step overflowed a 48 KiB stack or panicked");
    assert!(
        touching > 32,
        "every body should rest on a surface: {touching}"
    );
}
