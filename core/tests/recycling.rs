//! Contact recycling (Box3D's): two boxes or hulls keep their manifold while their bodies
//! move and turn little relative to each other, measuring only its separations again; a
//! body that moves farther, or whose mass properties change, gets fresh manifolds; a
//! snapshot carries what recycling needs, so a restored world steps to the same bits.

mod common;

use common::{DT, SUBSTEPS, dynamic_box, ground, world};
use maul3d::geometry::MassData;
use maul3d::math::{DVec3, Mat3, Vec3};
use maul3d::{BodyDef, BodyId, BodyType, ContactData, ShapeDef, World};

/// A unit cube with friction `friction`.
fn cube(w: &mut World, at: DVec3, friction: f32) -> BodyId {
    let def = ShapeDef {
        friction,
        ..Default::default()
    };
    dynamic_box(w, at, Vec3::splat(0.5), &def)
}

/// A stack of five unit cubes on the ground.
fn stack() -> (World, Vec<BodyId>) {
    let mut w = world(false);
    ground(&mut w, 0.6);
    let boxes = (0..5)
        .map(|i| cube(&mut w, DVec3::new(0.0, 0.5 + i as f64, 0.0), 0.6))
        .collect();
    (w, boxes)
}

#[test]
fn a_resting_stack_keeps_its_manifolds_and_stands() {
    let (mut w, boxes) = stack();
    let mut recycling_steps = 0;
    for step in 0..240 {
        w.step(DT, SUBSTEPS).unwrap();
        let c = w.counters();
        assert!(c.recycled_contacts <= c.contacts_visited);
        if step >= 60 && c.recycled_contacts == c.contacts_visited {
            recycling_steps += 1;
        }
    }
    // Settled, every contact keeps its manifold on (nearly) every step.
    assert!(
        recycling_steps > 170,
        "{recycling_steps} of 180 steps recycled all"
    );
    // And the stack stands where it should: each cube on the one below, not sunk.
    for (i, &b) in boxes.iter().enumerate() {
        let p = w.body_position(b).unwrap();
        assert!((p.y - (0.5 + i as f64)).abs() < 0.02, "cube {i} at {p:?}");
        assert!(p.x.abs() < 0.01 && p.z.abs() < 0.01, "cube {i} at {p:?}");
    }
}

#[test]
fn a_box_sliding_fast_gets_a_fresh_manifold_every_step() {
    let mut w = world(false);
    ground(&mut w, 0.0);
    let b = cube(&mut w, DVec3::new(-10.0, 0.5, 0.0), 0.0);
    w.set_body_linear_velocity(b, Vec3::new(6.0, 0.0, 0.0))
        .unwrap();
    for _ in 0..10 {
        w.step(DT, SUBSTEPS).unwrap();
    }
    for _ in 0..60 {
        // The narrow phase computes at the start of the step, before the box moves.
        let x = w.body_position(b).unwrap().x;
        w.step(DT, SUBSTEPS).unwrap();
        // 10 cm a step: farther than recycling allows.
        assert_eq!(w.counters().recycled_contacts, 0);
        let mut contacts = [ContactData::default(); 4];
        assert_eq!(w.body_contact_data(b, &mut contacts).unwrap(), 1);
        for p in contacts[0].manifold.points() {
            // The points are this step's: at the box's corners where the step began.
            assert!(((p.point.x - x).abs() - 0.5).abs() < 0.01, "{p:?} vs {x}");
        }
    }
}

#[test]
fn a_new_centre_of_mass_computes_the_manifolds_afresh() {
    let (mut w, boxes) = stack();
    for _ in 0..120 {
        w.step(DT, SUBSTEPS).unwrap();
    }
    assert_eq!(
        w.counters().recycled_contacts,
        w.counters().contacts_visited
    );
    let top = boxes[4];
    w.set_body_mass_data(
        top,
        Some(MassData {
            mass: 2.0,
            center: Vec3::new(0.1, 0.0, 0.0),
            inertia: Mat3::diagonal(Vec3::splat(0.4)),
        }),
    )
    .unwrap();
    w.step(DT, SUBSTEPS).unwrap();
    // The top cube's one contact (with the cube below) was computed afresh.
    let c = w.counters();
    assert_eq!(c.recycled_contacts + 1, c.contacts_visited);
}

#[test]
fn a_restored_world_recycles_as_the_live_one() {
    let (mut live, _) = stack();
    for _ in 0..90 {
        live.step(DT, SUBSTEPS).unwrap();
    }
    let mut buf = vec![0u8; live.snapshot_size()];
    let n = live.snapshot(&mut buf).unwrap();
    let mut twin = World::new(&World::def_from_snapshot(&buf[..n]).unwrap()).unwrap();
    twin.restore(&buf[..n]).unwrap();
    assert_eq!(twin.hash(), live.hash());
    for step in 0..60 {
        live.step(DT, SUBSTEPS).unwrap();
        twin.step(DT, SUBSTEPS).unwrap();
        assert_eq!(twin.hash(), live.hash(), "step {step}");
        let (a, b) = (live.counters(), twin.counters());
        assert_eq!(a.recycled_contacts, b.recycled_contacts, "step {step}");
        if step == 0 {
            // The first step after the restore already kept the manifolds: the poses
            // they were computed at came with the snapshot.
            assert_eq!(b.recycled_contacts, b.contacts_visited);
        }
    }
}

/// A ball's turn moves its contact point, so round shapes keep a manifold only while
/// they do not touch: a ball rolling on the ground computes its contact every step, two
/// capsules lying a few centimetres apart keep their empty one.
#[test]
fn round_shapes_recycle_only_while_apart() {
    use maul3d::geometry::{Capsule, Sphere};
    let mut w = world(false);
    ground(&mut w, 0.6);
    let ball = w
        .create_body(&BodyDef {
            body_type: BodyType::Dynamic,
            position: DVec3::new(-5.0, 0.5, 0.0),
            linear_velocity: Vec3::new(2.0, 0.0, 0.0),
            ..Default::default()
        })
        .unwrap();
    let sphere = Sphere {
        center: Vec3::ZERO,
        radius: 0.5,
    };
    w.create_sphere_shape(ball, &ShapeDef::default(), &sphere)
        .unwrap();
    for _ in 0..120 {
        w.step(DT, SUBSTEPS).unwrap();
        // The ball's one contact, touching, is never kept.
        assert_eq!(w.counters().contacts_visited, 1);
        assert_eq!(w.counters().recycled_contacts, 0);
    }
    assert!(
        w.body_angular_velocity(ball).unwrap().length() > 1.0,
        "it rolls"
    );

    // Two capsules held 4 cm apart above the ground (no gravity on them): their pair
    // exists (the fat bounds overlap) and does not touch, so it keeps its empty manifold.
    let mut w = world(false);
    let capsule = Capsule {
        center1: Vec3::new(-1.0, 0.0, 0.0),
        center2: Vec3::new(1.0, 0.0, 0.0),
        radius: 0.2,
    };
    for z in [0.0, 0.44] {
        let b = w
            .create_body(&BodyDef {
                body_type: BodyType::Dynamic,
                position: DVec3::new(0.0, 2.0, z),
                gravity_scale: 0.0,
                ..Default::default()
            })
            .unwrap();
        w.create_capsule_shape(b, &ShapeDef::default(), &capsule)
            .unwrap();
    }
    w.step(DT, SUBSTEPS).unwrap();
    for _ in 0..30 {
        w.step(DT, SUBSTEPS).unwrap();
        let c = w.counters();
        assert_eq!((c.contact_count, c.touching_contact_count), (1, 0));
        assert_eq!(c.recycled_contacts, 1);
    }
}
