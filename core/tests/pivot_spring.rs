//! A spherical or revolute joint's own pivot softness (issue 14 item 9: Godot's hinge and
//! pin bias): `set_joint_pivot_spring(joint, hz, ζ)` makes the point rows a damped spring
//! of that frequency; 0 Hz keeps the world's joint softness.

#![allow(clippy::disallowed_methods)] // measuring results in tests, not simulating

mod common;
use common::*;
use maul3d::math::{DVec3, Mat3, Quat, Vec3};
use maul3d::{
    BodyDef, BodyId, BodyType, JointDef, JointId, JointKind, MassData, PrismaticJoint,
    RevoluteJoint, World, WorldDef,
};

fn no_gravity_world() -> World {
    World::new(&WorldDef {
        gravity: Vec3::ZERO,
        enable_sleep: false,
        ..Default::default()
    })
    .unwrap()
}

/// A static anchor and a 1 kg body joined at the origin, the body pulled 0.2 m away
/// along x and released.
fn pulled_apart(world: &mut World, kind: JointKind) -> (BodyId, JointId) {
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
    world
        .set_body_transform(b, DVec3::new(0.2, 0.0, 0.0), Quat::IDENTITY)
        .unwrap();
    (b, j)
}

fn hinge() -> JointKind {
    JointKind::Revolute(RevoluteJoint::default())
}

/// The gap after each of `n` steps.
fn gaps(world: &mut World, b: BodyId, n: usize) -> Vec<f64> {
    (0..n)
        .map(|_| {
            world.step(DT, SUBSTEPS).unwrap();
            world.body_position(b).unwrap().to_f32().length() as f64
        })
        .collect()
}

#[test]
fn a_soft_pivot_closes_a_gap_like_a_critically_damped_spring() {
    let mut world = no_gravity_world();
    let (b, j) = pulled_apart(&mut world, hinge());
    world.set_joint_pivot_spring(j, 2.0, 1.0).unwrap();
    let g = gaps(&mut world, b, 60);
    let omega = 2.0 * std::f64::consts::PI * 2.0;
    for (k, &gap) in g.iter().enumerate() {
        let t = (k + 1) as f64 * DT as f64;
        let want = 0.2 * (1.0 + omega * t) * (-omega * t).exp();
        println!("t {t:.3} gap {gap:.4} closed form {want:.4}");
        assert!(
            (gap - want).abs() <= 0.15 * want + 1e-3,
            "step {k}: gap {gap} vs closed form {want}"
        );
    }
    // About 1/ω in, the gap is still most of the way open; by 5/ω it has closed.
    assert!(g[4] > 0.1, "{}", g[4]);
    assert!(g[59] < 0.01, "{}", g[59]);
}

#[test]
fn the_default_pivot_closes_a_gap_within_a_few_steps() {
    for own in [false, true] {
        let mut world = no_gravity_world();
        let (b, j) = pulled_apart(&mut world, JointKind::Spherical);
        if own {
            // Back to the world's softness.
            world.set_joint_pivot_spring(j, 3.0, 0.5).unwrap();
            world.set_joint_pivot_spring(j, 0.0, 0.5).unwrap();
        }
        let g = gaps(&mut world, b, 5);
        assert!(g[4] < 0.01, "own {own}: {g:?}");
    }
}

#[test]
fn pivot_spring_settings_are_refused_out_of_range_and_on_other_kinds() {
    let mut world = no_gravity_world();
    let (_, j) = pulled_apart(&mut world, hinge());
    let before = world.hash();
    let e = world.set_joint_pivot_spring(j, -1.0, 1.0).unwrap_err();
    assert!(e.to_string().contains("hertz"), "{e}");
    let e = world.set_joint_pivot_spring(j, f32::NAN, 1.0).unwrap_err();
    assert!(e.to_string().contains("hertz"), "{e}");
    let e = world.set_joint_pivot_spring(j, 1.0, -0.5).unwrap_err();
    assert!(e.to_string().contains("damping_ratio"), "{e}");
    assert_eq!(world.hash(), before);
    let (_, s) = pulled_apart(&mut world, JointKind::Prismatic(PrismaticJoint::default()));
    let before = world.hash();
    let e = world.set_joint_pivot_spring(s, 1.0, 1.0).unwrap_err();
    assert!(e.to_string().contains("spherical or revolute"), "{e}");
    assert_eq!(world.hash(), before);
}

#[test]
fn a_soft_pivot_survives_snapshot_and_restore_and_the_default_hashes_as_before() {
    let mut world = no_gravity_world();
    let (_, j) = pulled_apart(&mut world, hinge());
    let plain = world.hash();
    world.set_joint_pivot_spring(j, 2.0, 0.4).unwrap();
    assert_ne!(world.hash(), plain);
    step_n(&mut world, 5);
    let mut buf = vec![0u8; world.snapshot_size()];
    let n = world.snapshot(&mut buf).unwrap();
    let mut copy = World::new(&World::def_from_snapshot(&buf[..n]).unwrap()).unwrap();
    copy.restore(&buf[..n]).unwrap();
    for _ in 0..30 {
        world.step(DT, SUBSTEPS).unwrap();
        copy.step(DT, SUBSTEPS).unwrap();
        assert_eq!(world.hash(), copy.hash());
    }
    // Back to 0 Hz: the bit and numbers are gone, the world hashes as one never set.
    let mut a = no_gravity_world();
    let (_, ja) = pulled_apart(&mut a, hinge());
    let h0 = a.hash();
    a.set_joint_pivot_spring(ja, 2.0, 0.4).unwrap();
    a.set_joint_pivot_spring(ja, 0.0, 0.4).unwrap();
    assert_eq!(a.hash(), h0);
}
