//! Soft six-DOF limits (issue 14 item 9: Godot's Generic6DOFJoint3D limit softness): once
//! reached, a limited axis with `limit_hertz` gives like a one-sided spring of that
//! frequency and pushes back, on the linear and the angular axes; 0 Hz keeps the rigid
//! limit, and worlds without soft limits keep their bytes.

#![allow(clippy::disallowed_methods)] // measuring results in tests, not simulating

mod common;
use common::*;
use maul3d::math::{Mat3, Vec3};
use maul3d::{
    AxisMode, BodyDef, BodyId, BodyType, JointDef, JointId, JointKind, MassData, ShapeDef,
    SixDofAxis, SixDofJoint, World, WorldDef,
};

fn no_gravity_world() -> World {
    World::new(&WorldDef {
        gravity: Vec3::ZERO,
        enable_sleep: false,
        ..Default::default()
    })
    .unwrap()
}

/// A unit-mass, unit-inertia body on a six-DOF joint to a static anchor at its centre.
fn rig(world: &mut World, joint: SixDofJoint) -> (BodyId, JointId) {
    let anchor = world.create_body(&BodyDef::default()).unwrap();
    let b = world
        .create_body(&BodyDef {
            body_type: BodyType::Dynamic,
            linear_damping: 0.0,
            angular_damping: 0.0,
            ..Default::default()
        })
        .unwrap();
    world
        .create_box_shape(b, &ShapeDef::default(), Vec3::new(0.2, 0.2, 0.2))
        .unwrap();
    world
        .set_body_mass_data(
            b,
            Some(MassData {
                mass: 1.0,
                center: Vec3::ZERO,
                inertia: Mat3::from_cols(Vec3::X, Vec3::Y, Vec3::Z),
            }),
        )
        .unwrap();
    let j = world
        .create_joint(&JointDef {
            body_a: anchor,
            body_b: b,
            kind: JointKind::SixDof(joint),
            ..Default::default()
        })
        .unwrap();
    (b, j)
}

/// Every axis locked but axis `n`, limited to [−0.5, 0.5] with the soft limit given.
fn one_limited_axis(n: usize, hz: f32, zeta: f32) -> SixDofJoint {
    let mut axes = [SixDofAxis::default(); 6];
    axes[n] = SixDofAxis {
        mode: AxisMode::Limited {
            lower: -0.5,
            upper: 0.5,
        },
        limit_hertz: hz,
        limit_damping_ratio: zeta,
        ..SixDofAxis::FREE
    };
    SixDofJoint { axes }
}

/// Sends the body at `v` along x (or spins it at `v` about z when `angular`) for a second;
/// its furthest x (or z angle) and its speed then.
fn run_into_the_upper_limit(world: &mut World, b: BodyId, v: f32, angular: bool) -> (f64, f32) {
    let (lin, ang) = if angular {
        (Vec3::ZERO, Vec3::new(0.0, 0.0, v))
    } else {
        (Vec3::new(v, 0.0, 0.0), Vec3::ZERO)
    };
    world.set_body_velocity(b, lin, ang).unwrap();
    let mut far = f64::MIN;
    for _ in 0..60 {
        world.step(DT, SUBSTEPS).unwrap();
        let value = if angular {
            let x = world.body_rotation(b).unwrap().rotate(Vec3::X);
            x.y.atan2(x.x) as f64
        } else {
            world.body_position(b).unwrap().x
        };
        far = far.max(value);
    }
    let speed = if angular {
        world.body_angular_velocity(b).unwrap().z
    } else {
        world.body_linear_velocity(b).unwrap().x
    };
    (far, speed)
}

#[test]
fn a_rigid_six_dof_limit_stops_the_body_at_the_limit() {
    for (n, angular) in [(0, false), (5, true)] {
        let mut world = no_gravity_world();
        let (b, _) = rig(&mut world, one_limited_axis(n, 0.0, 0.0));
        let (far, _) = run_into_the_upper_limit(&mut world, b, 2.0, angular);
        assert!((far - 0.5).abs() < 0.02, "axis {n}: went to {far} past 0.5");
    }
}

#[test]
fn a_soft_six_dof_limit_gives_by_speed_over_omega_on_linear_and_angular_axes() {
    // An undamped half-spring of ω = 2π·2 Hz: overshoot v/ω, rebound at nearly the speed.
    let (v, hz) = (2.0f32, 2.0f32);
    let omega = 2.0 * std::f64::consts::PI * hz as f64;
    let expected = 0.5 + v as f64 / omega;
    for (n, angular) in [(0, false), (5, true)] {
        let mut world = no_gravity_world();
        let (b, _) = rig(&mut world, one_limited_axis(n, hz, 0.0));
        let (far, back) = run_into_the_upper_limit(&mut world, b, v, angular);
        assert!(
            (far - expected).abs() < 0.1 * (expected - 0.5),
            "axis {n}: reached {far}, 0.5 + v/ω = {expected}"
        );
        assert!(back < -0.8 * v, "axis {n}: came back at {back}");
    }
}

#[test]
fn damping_the_six_dof_soft_limit_takes_the_rebound_out() {
    for (n, angular) in [(1, false), (3, true)] {
        let mut world = no_gravity_world();
        let (b, _) = rig(&mut world, one_limited_axis(n, 2.0, 1.0));
        let v = 2.0;
        let (lin, ang) = if angular {
            (Vec3::ZERO, Vec3::new(v, 0.0, 0.0))
        } else {
            (Vec3::new(0.0, v, 0.0), Vec3::ZERO)
        };
        world.set_body_velocity(b, lin, ang).unwrap();
        let mut far: f32 = 0.0;
        for _ in 0..60 {
            world.step(DT, SUBSTEPS).unwrap();
            let value = if angular {
                let y = world.body_rotation(b).unwrap().rotate(Vec3::Y);
                y.z.atan2(y.y)
            } else {
                world.body_position(b).unwrap().y as f32
            };
            far = far.max(value);
        }
        let back = if angular {
            world.body_angular_velocity(b).unwrap().x
        } else {
            world.body_linear_velocity(b).unwrap().y
        };
        assert!(far > 0.55, "axis {n}: a soft limit gives ({far})");
        assert!(
            back.abs() < 0.5,
            "axis {n}: little rebound when damped ({back})"
        );
    }
}

#[test]
fn the_six_dof_limit_spring_setter_changes_the_axis_as_the_def_does() {
    let mut a = no_gravity_world();
    let mut b = no_gravity_world();
    let (ba, _) = rig(&mut a, one_limited_axis(5, 3.0, 0.2));
    let (bb, jb) = rig(&mut b, one_limited_axis(5, 0.0, 0.0));
    b.set_six_dof_limit_spring(jb, 5, 3.0, 0.2).unwrap();
    assert_eq!(a.hash(), b.hash());
    for (w, body) in [(&mut a, ba), (&mut b, bb)] {
        w.set_body_velocity(body, Vec3::ZERO, Vec3::new(0.0, 0.0, 4.0))
            .unwrap();
    }
    for _ in 0..30 {
        a.step(DT, SUBSTEPS).unwrap();
        b.step(DT, SUBSTEPS).unwrap();
        assert_eq!(a.hash(), b.hash());
    }
    // Rigid again: the same bytes as a joint that never had a soft limit.
    let mut c = no_gravity_world();
    let (_, jc) = rig(&mut c, one_limited_axis(5, 0.0, 0.0));
    let rigid = c.hash();
    c.set_six_dof_limit_spring(jc, 5, 3.0, 0.2).unwrap();
    assert_ne!(c.hash(), rigid);
    c.set_six_dof_limit_spring(jc, 5, 0.0, 0.0).unwrap();
    assert_eq!(c.hash(), rigid);
}

#[test]
fn six_dof_limit_spring_settings_are_refused_out_of_range_and_on_other_kinds() {
    let mut world = no_gravity_world();
    let (_, j) = rig(&mut world, one_limited_axis(0, 0.0, 0.0));
    let before = world.hash();
    let e = world.set_six_dof_limit_spring(j, 6, 1.0, 0.0).unwrap_err();
    assert!(e.to_string().contains("axis"), "{e}");
    let e = world.set_six_dof_limit_spring(j, 0, -1.0, 0.0).unwrap_err();
    assert!(e.to_string().contains("limit_hertz"), "{e}");
    let e = world
        .set_six_dof_limit_spring(j, 0, 1.0, f32::NAN)
        .unwrap_err();
    assert!(e.to_string().contains("limit_damping_ratio"), "{e}");
    let bad = SixDofAxis {
        limit_hertz: f32::INFINITY,
        ..SixDofAxis::FREE
    };
    let e = world.set_six_dof_axis(j, 0, bad).unwrap_err();
    assert!(e.to_string().contains("axes.limit_hertz"), "{e}");
    assert_eq!(world.hash(), before);
    let (_, w) = rig(&mut world, one_limited_axis(0, 0.0, 0.0));
    let _ = w;
    let anchor = world.create_body(&BodyDef::default()).unwrap();
    let other = world
        .create_body(&BodyDef {
            body_type: BodyType::Dynamic,
            ..Default::default()
        })
        .unwrap();
    let sph = world
        .create_joint(&JointDef {
            body_a: anchor,
            body_b: other,
            kind: JointKind::Spherical,
            ..Default::default()
        })
        .unwrap();
    let h = world.hash();
    assert!(world.set_six_dof_limit_spring(sph, 0, 1.0, 0.0).is_err());
    assert_eq!(world.hash(), h);
}
