//! Soft joint limits (issue 14 item 9: Godot's slider and hinge limit softness): once
//! reached, a revolute or prismatic limit with `limit_hertz` gives like a spring of that
//! frequency and pushes back; 0 Hz keeps today's rigid limit.

#![allow(clippy::disallowed_methods)] // measuring results in tests, not simulating

mod common;
use common::*;
use maul3d::math::{Mat3, Vec3};
use maul3d::{
    BodyDef, BodyId, BodyType, JointDef, JointId, JointKind, MassData, PrismaticJoint,
    RevoluteJoint, ShapeDef, World, WorldDef,
};

fn no_gravity_world() -> World {
    World::new(&WorldDef {
        gravity: Vec3::ZERO,
        enable_sleep: false,
        ..Default::default()
    })
    .unwrap()
}

fn rig(world: &mut World, kind: JointKind) -> (BodyId, JointId) {
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
            kind,
            ..Default::default()
        })
        .unwrap();
    (b, j)
}

fn slider(limit_hertz: f32, limit_damping_ratio: f32) -> JointKind {
    JointKind::Prismatic(PrismaticJoint {
        enable_limit: true,
        lower: -0.5,
        upper: 0.5,
        limit_hertz,
        limit_damping_ratio,
        ..Default::default()
    })
}

/// Sends the body along x at `v` for half a second (it meets the upper limit, not the
/// lower) and returns its furthest x and its x velocity then.
fn run_into_the_upper_limit(world: &mut World, b: BodyId, v: f32) -> (f64, f32) {
    world
        .set_body_velocity(b, Vec3::new(v, 0.0, 0.0), Vec3::ZERO)
        .unwrap();
    let mut far = f64::MIN;
    for _ in 0..30 {
        world.step(DT, SUBSTEPS).unwrap();
        far = far.max(world.body_position(b).unwrap().x);
    }
    (far, world.body_linear_velocity(b).unwrap().x)
}

#[test]
fn a_rigid_slider_limit_stops_the_body_at_the_limit() {
    let mut world = no_gravity_world();
    let (b, _) = rig(&mut world, slider(0.0, 0.0));
    let (far, _) = run_into_the_upper_limit(&mut world, b, 2.0);
    assert!(
        (far - 0.5).abs() < 0.01,
        "went to {far} m past a 0.5 m limit"
    );
}

#[test]
fn a_soft_slider_limit_gives_by_speed_over_omega_and_throws_the_body_back() {
    // An undamped half-spring of ω = 2π·2 Hz: overshoot v/ω, rebound at nearly the same
    // speed.
    let (v, hz) = (2.0f32, 2.0f32);
    let mut world = no_gravity_world();
    let (b, _) = rig(&mut world, slider(hz, 0.0));
    let (far, back) = run_into_the_upper_limit(&mut world, b, v);
    let omega = 2.0 * std::f64::consts::PI * hz as f64;
    let expected = 0.5 + v as f64 / omega;
    assert!(
        (far - expected).abs() < 0.1 * (expected - 0.5),
        "reached {far} m, 0.5 + v/ω = {expected} m"
    );
    // The soft step keeps most of the energy of an undamped spring (some goes in the
    // implicit integration of the substeps).
    assert!(back < -0.8 * v, "came back at {back} m/s");
}

#[test]
fn damping_the_soft_limit_takes_the_rebound_out() {
    let mut world = no_gravity_world();
    let (b, _) = rig(&mut world, slider(2.0, 1.0));
    let (far, back) = run_into_the_upper_limit(&mut world, b, 2.0);
    assert!(far > 0.55, "a soft limit gives ({far} m)");
    assert!(
        back.abs() < 0.5,
        "a critically damped limit keeps little rebound: {back} m/s"
    );
}

#[test]
fn a_soft_hinge_limit_gives_and_a_setter_changes_it_as_the_def_does() {
    let mut a = no_gravity_world();
    let mut b = no_gravity_world();
    let hinge = |hz: f32| {
        JointKind::Revolute(RevoluteJoint {
            enable_limit: true,
            lower: -0.5,
            upper: 0.5,
            limit_hertz: hz,
            limit_damping_ratio: 0.2,
            ..Default::default()
        })
    };
    let (ba, _) = rig(&mut a, hinge(3.0));
    let (bb, jb) = rig(&mut b, hinge(0.0));
    b.set_joint_limit_spring(jb, 3.0, 0.2).unwrap();
    assert_eq!(a.hash(), b.hash());
    for (w, body) in [(&mut a, ba), (&mut b, bb)] {
        w.set_body_velocity(body, Vec3::ZERO, Vec3::new(0.0, 0.0, 4.0))
            .unwrap();
    }
    let mut widest: f32 = 0.0;
    for _ in 0..60 {
        a.step(DT, SUBSTEPS).unwrap();
        b.step(DT, SUBSTEPS).unwrap();
        assert_eq!(a.hash(), b.hash());
        let x = a.body_rotation(ba).unwrap().rotate(Vec3::X);
        widest = widest.max(x.y.atan2(x.x));
    }
    assert!(
        widest > 0.6,
        "the soft hinge limit gives past 0.5 rad ({widest})"
    );
}

#[test]
fn soft_limit_settings_are_refused_out_of_range_and_on_kinds_without_them() {
    let mut world = no_gravity_world();
    let (_, j) = rig(&mut world, slider(0.0, 0.0));
    let before = world.hash();
    let e = world.set_joint_limit_spring(j, -1.0, 0.0).unwrap_err();
    assert!(e.to_string().contains("limit_hertz"), "{e}");
    let e = world.set_joint_limit_spring(j, 1.0, f32::NAN).unwrap_err();
    assert!(e.to_string().contains("limit_damping_ratio"), "{e}");
    let (_, w) = rig(&mut world, JointKind::Wheel(Default::default()));
    let before_wheel = world.hash();
    assert!(world.set_joint_limit_spring(w, 1.0, 0.0).is_err());
    assert_eq!(world.hash(), before_wheel);
    let _ = before;
}

#[test]
fn a_soft_limit_survives_snapshot_and_restore_and_a_rigid_one_hashes_as_before() {
    let mut world = no_gravity_world();
    let (b, _) = rig(&mut world, slider(2.0, 0.1));
    world
        .set_body_velocity(b, Vec3::new(2.0, 0.0, 0.0), Vec3::ZERO)
        .unwrap();
    step_n(&mut world, 20);
    let mut buf = vec![0u8; world.snapshot_size()];
    let n = world.snapshot(&mut buf).unwrap();
    let mut copy = World::new(&World::def_from_snapshot(&buf[..n]).unwrap()).unwrap();
    copy.restore(&buf[..n]).unwrap();
    for _ in 0..60 {
        world.step(DT, SUBSTEPS).unwrap();
        copy.step(DT, SUBSTEPS).unwrap();
        assert_eq!(world.hash(), copy.hash());
    }
    // Rigid: the soft limit's bit and numbers are not written.
    let hash_of = |hz: f32, zeta: f32| {
        let mut w = no_gravity_world();
        rig(&mut w, slider(hz, zeta));
        w.hash()
    };
    assert_eq!(hash_of(0.0, 0.0), hash_of(-0.0, -0.0));
    assert_ne!(hash_of(0.0, 0.0), hash_of(1.0, 0.0));
}
