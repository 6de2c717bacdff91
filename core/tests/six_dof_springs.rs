//! Six-DOF springs given as stiffness and damping (N/m, N·s/m; N·m/rad, N·m·s/rad) with
//! an equilibrium point per axis (issue 14 item 9: Godot's Generic6DOFJoint3D springs).

#![allow(clippy::disallowed_methods)] // measuring results in tests, not simulating

mod common;
use common::*;
use maul3d::math::Vec3;
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

/// A static anchor and a dynamic 1 m box of `mass` (inertia `inertia` about each axis)
/// at the origin, joined by a six-DOF joint whose axes are `axes`.
fn rig(world: &mut World, mass: f32, inertia: f32, axes: [SixDofAxis; 6]) -> (BodyId, JointId) {
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
        .create_box_shape(b, &ShapeDef::default(), Vec3::new(0.5, 0.5, 0.5))
        .unwrap();
    world
        .set_body_mass_data(
            b,
            Some(MassData {
                mass,
                center: Vec3::ZERO,
                inertia: maul3d::math::Mat3::from_cols(
                    Vec3::X * inertia,
                    Vec3::Y * inertia,
                    Vec3::Z * inertia,
                ),
            }),
        )
        .unwrap();
    let j = world
        .create_joint(&JointDef {
            body_a: anchor,
            body_b: b,
            kind: JointKind::SixDof(SixDofJoint { axes }),
            ..Default::default()
        })
        .unwrap();
    (b, j)
}

fn spring(stiffness: f32, damping: f32, target: f32) -> SixDofAxis {
    SixDofAxis {
        spring_stiffness: stiffness,
        spring_damping: damping,
        spring_target: target,
        ..SixDofAxis::FREE
    }
}

/// Steps `n` times and returns the times (s) at which `value - target` crossed zero
/// upwards.
fn upward_crossings(
    world: &mut World,
    n: usize,
    target: f64,
    value: impl Fn(&World) -> f64,
) -> Vec<f64> {
    let mut out = Vec::new();
    let mut last = value(world) - target;
    for i in 1..=n {
        world.step(DT, SUBSTEPS).unwrap();
        let now = value(world) - target;
        if last < 0.0 && now >= 0.0 {
            // Linear interpolation within the step.
            let f = last / (last - now);
            out.push((i as f64 - 1.0 + f) * DT as f64);
        }
        last = now;
    }
    out
}

fn mean_period(crossings: &[f64]) -> f64 {
    assert!(crossings.len() >= 3, "too few oscillations: {crossings:?}");
    (crossings[crossings.len() - 1] - crossings[0]) / (crossings.len() - 1) as f64
}

#[test]
fn a_linear_stiffness_spring_oscillates_with_the_period_of_its_mass_and_stiffness() {
    for (mass, k) in [(1.0f32, 40.0f32), (4.0, 40.0), (2.0, 200.0)] {
        let mut world = no_gravity_world();
        let mut axes = [SixDofAxis::default(); 6];
        axes[0] = spring(k, 0.0, 0.5);
        let (b, _) = rig(&mut world, mass, 1.0, axes);
        let crossings = upward_crossings(&mut world, 600, 0.5, |w| w.body_position(b).unwrap().x);
        let period = mean_period(&crossings);
        let expected = 2.0 * std::f64::consts::PI * (mass as f64 / k as f64).sqrt();
        assert!(
            (period - expected).abs() < 0.02 * expected,
            "m {mass} kg, k {k} N/m: period {period} s, 2π√(m/k) = {expected} s"
        );
        // It oscillates about the equilibrium point 0.5 m: from 0 to about 1 m.
        let y = world.body_position(b).unwrap();
        assert!(
            y.y.abs() < 1e-3 && y.z.abs() < 1e-3,
            "the locked axes moved: {y:?}"
        );
    }
}

#[test]
fn an_angular_stiffness_spring_oscillates_with_the_period_of_its_inertia_and_stiffness() {
    let (inertia, k) = (0.5f32, 8.0f32);
    let mut world = no_gravity_world();
    let mut axes = [SixDofAxis::default(); 6];
    axes[5] = spring(k, 0.0, 0.3);
    let (b, _) = rig(&mut world, 1.0, inertia, axes);
    let angle = |w: &World| {
        let x = w.body_rotation(b).unwrap().rotate(Vec3::X);
        (x.y as f64).atan2(x.x as f64)
    };
    let crossings = upward_crossings(&mut world, 600, 0.3, angle);
    let period = mean_period(&crossings);
    let expected = 2.0 * std::f64::consts::PI * (inertia as f64 / k as f64).sqrt();
    assert!(
        (period - expected).abs() < 0.02 * expected,
        "period {period} s, 2π√(I/k) = {expected} s"
    );
}

#[test]
fn a_damped_spring_under_gravity_settles_where_the_spring_holds_the_weight() {
    let mut world = World::new(&WorldDef {
        enable_sleep: false,
        ..Default::default()
    })
    .unwrap();
    let (mass, k, c) = (2.0f32, 100.0f32, 20.0f32);
    let mut axes = [SixDofAxis::default(); 6];
    axes[1] = spring(k, c, 1.0);
    let (b, _) = rig(&mut world, mass, 1.0, axes);
    step_n(&mut world, 600);
    let g = world.gravity().length() as f64;
    let expected = 1.0 - mass as f64 * g / k as f64;
    let y = world.body_position(b).unwrap().y;
    assert!(
        (y - expected).abs() < 0.005,
        "rests at {y} m, 1 − mg/k = {expected} m"
    );
    assert!(world.body_linear_velocity(b).unwrap().length() < 1e-3);
}

#[test]
fn damping_alone_slows_a_free_axis_as_a_dashpot() {
    // m v' = −c v: v(t) = v0 e^(−c t / m).
    let mut world = no_gravity_world();
    let (mass, c) = (2.0f32, 4.0f32);
    let mut axes = [SixDofAxis::default(); 6];
    axes[2] = spring(0.0, c, 0.0);
    let (b, _) = rig(&mut world, mass, 1.0, axes);
    world
        .set_body_velocity(b, Vec3::new(0.0, 0.0, 3.0), Vec3::ZERO)
        .unwrap();
    step_n(&mut world, 30);
    let v = world.body_linear_velocity(b).unwrap().z as f64;
    let expected = 3.0 * (-(c as f64) * 0.5 / mass as f64).exp();
    assert!(
        (v - expected).abs() < 0.03 * expected,
        "v {v} m/s, v0 e^(−ct/m) = {expected}"
    );
}

#[test]
fn a_stiffness_spring_and_a_hertz_spring_on_one_axis_are_refused_by_name() {
    let mut world = no_gravity_world();
    let (_, j) = rig(&mut world, 1.0, 1.0, [SixDofAxis::default(); 6]);
    let before = world.hash();
    let both = SixDofAxis {
        spring_hertz: 2.0,
        ..spring(10.0, 0.0, 0.0)
    };
    let e = world.set_six_dof_axis(j, 0, both).unwrap_err().to_string();
    assert!(e.contains("spring_stiffness"), "{e}");
    let e = world
        .set_six_dof_axis(j, 3, spring(1.0, 0.0, 4.0))
        .unwrap_err()
        .to_string();
    assert!(e.contains("spring_target"), "{e}");
    let e = world
        .set_six_dof_axis(j, 0, spring(-1.0, 0.0, 0.0))
        .unwrap_err()
        .to_string();
    assert!(e.contains("spring_stiffness"), "{e}");
    assert_eq!(world.hash(), before, "a refused setting changed the world");
}

#[test]
fn spring_settings_survive_snapshot_and_restore_and_the_futures_match() {
    let mut world = no_gravity_world();
    let mut axes = [SixDofAxis::default(); 6];
    axes[0] = spring(30.0, 1.0, 0.25);
    axes[4] = SixDofAxis {
        mode: AxisMode::Limited {
            lower: -0.5,
            upper: 0.5,
        },
        ..spring(5.0, 0.5, -0.2)
    };
    let (_, j) = rig(&mut world, 1.0, 0.3, axes);
    step_n(&mut world, 10);
    let mut buf = vec![0u8; world.snapshot_size()];
    let n = world.snapshot(&mut buf).unwrap();
    let mut copy = World::new(&World::def_from_snapshot(&buf[..n]).unwrap()).unwrap();
    copy.restore(&buf[..n]).unwrap();
    let cj = copy.joint_ids().next().unwrap();
    assert_eq!(copy.joint_kind(cj).unwrap(), world.joint_kind(j).unwrap());
    assert_eq!(copy.hash(), world.hash());
    for _ in 0..60 {
        world.step(DT, SUBSTEPS).unwrap();
        copy.step(DT, SUBSTEPS).unwrap();
        assert_eq!(world.hash(), copy.hash());
    }
}

#[test]
fn a_joint_without_the_new_settings_hashes_as_before_they_existed() {
    // The target and stiffness spring ride on spare bits of the axis mode byte: an axis
    // that leaves them 0 encodes to the old bytes, so its world's hash is unchanged. A
    // -0.0 target is 0 too.
    let make = |target: f32| {
        let mut world = no_gravity_world();
        let mut axes = [SixDofAxis::default(); 6];
        axes[0] = SixDofAxis {
            spring_hertz: 2.0,
            spring_target: target,
            ..SixDofAxis::FREE
        };
        rig(&mut world, 1.0, 1.0, axes);
        world.hash()
    };
    assert_eq!(make(0.0), make(-0.0));
    assert_ne!(make(0.0), make(0.1));
}
