//! Every fixed capacity: creates past it are refused with nothing changed, and every
//! per-step buffer keeps its lowest-index entries and counts the rest.

#![allow(clippy::disallowed_methods)] // measuring results in tests, not simulating

mod common;
use common::*;
use maul3d::math::{DVec3, Vec3};
use maul3d::{BodyDef, BodyType, Error, ShapeDef, World, WorldDef};

fn small(f: impl FnOnce(&mut WorldDef)) -> World {
    let mut def = WorldDef {
        body_capacity: 16,
        shape_capacity: 16,
        contact_capacity: 64,
        pair_capacity: 64,
        event_capacity: 64,
        hull_capacity: 4,
        ..Default::default()
    };
    f(&mut def);
    World::new(&def).unwrap()
}

/// Three boxes stacked with overlap on a ground: pairs (0,1) … in shape order.
fn stack(world: &mut World) {
    ground(world, 0.6);
    for i in 0..3 {
        dynamic_box(
            world,
            DVec3::new(0.0, 0.45 + i as f64 * 0.9, 0.0),
            Vec3::new(0.5, 0.5, 0.5),
            &ShapeDef::default(),
        );
    }
}

#[test]
fn creates_past_a_capacity_are_refused_and_change_nothing() {
    let mut w = small(|d| {
        d.body_capacity = 1;
        d.shape_capacity = 1;
        d.hull_capacity = 1;
    });
    let b = w.create_body(&BodyDef::default()).unwrap();
    let h0 = w.hash();
    assert!(matches!(
        w.create_body(&BodyDef::default()),
        Err(Error::Capacity {
            what: "body_capacity",
            capacity: 1
        })
    ));
    assert_eq!(w.body_count(), 1);
    w.create_box_shape(b, &ShapeDef::default(), Vec3::ONE)
        .unwrap();
    let err = w
        .create_box_shape(b, &ShapeDef::default(), Vec3::ONE)
        .unwrap_err();
    assert!(matches!(
        err,
        Error::Capacity {
            what: "shape_capacity",
            ..
        }
    ));
    assert!(err.to_string().contains("shape_capacity"));
    let pts = [Vec3::ZERO, Vec3::X, Vec3::Y, Vec3::Z];
    w.create_hull(&pts).unwrap();
    let h1 = w.hash();
    assert_ne!(h1, h0, "a shape and a hull are state");
    assert!(matches!(
        w.create_hull(&pts),
        Err(Error::Capacity {
            what: "hull_capacity",
            ..
        })
    ));
    assert!(w.create_body(&BodyDef::default()).is_err());
    assert!(
        w.create_box_shape(b, &ShapeDef::default(), Vec3::ONE)
            .is_err()
    );
    assert_eq!(w.hash(), h1, "refused creates changed the world");
    // Freed slots are reused.
    w.destroy_body(b).unwrap();
    let b2 = w.create_body(&BodyDef::default()).unwrap();
    assert_eq!(b2.index, b.index);
    assert_ne!(b2.generation, b.generation);
    assert!(w.body_position(b).is_err(), "the stale id must be refused");
}

#[test]
fn pair_capacity_one_keeps_the_pair_of_lowest_shape_indices() {
    let mut w = small(|d| d.pair_capacity = 1);
    stack(&mut w);
    w.step(DT, SUBSTEPS).unwrap();
    let c = w.counters();
    // Candidate pairs: (0,1) (1,2) (2,3): only (0,1) survives this step.
    assert_eq!(c.contact_count, 1);
    assert_eq!(c.dropped_pairs, 2);
    let ev = w.contact_begin_events();
    assert_eq!(ev.len(), 1);
    let mut shapes = [ev[0].shape_a.index, ev[0].shape_b.index];
    shapes.sort();
    assert_eq!(shapes, [1, 2]);
}

#[test]
fn contact_capacity_one_keeps_the_lowest_pair_and_counts_the_rest() {
    let mut w = small(|d| d.contact_capacity = 1);
    stack(&mut w);
    w.step(DT, SUBSTEPS).unwrap();
    let c = w.counters();
    assert_eq!(c.contact_count, 1);
    assert_eq!(c.dropped_contacts, 2);
    let ev = w.contact_begin_events();
    let mut shapes = [ev[0].shape_a.index, ev[0].shape_b.index];
    shapes.sort();
    assert_eq!(shapes, [1, 2]);
    // It keeps stepping whole.
    step_n(&mut w, 10);
}

#[test]
fn event_capacity_one_keeps_the_lowest_contact_and_counts_the_rest() {
    let mut w = small(|d| d.event_capacity = 1);
    stack(&mut w);
    w.step(DT, SUBSTEPS).unwrap();
    assert_eq!(w.contact_begin_events().len(), 1);
    assert_eq!(w.counters().dropped_begin_events, 2);
    let ev = w.contact_begin_events()[0];
    let mut shapes = [ev.shape_a.index, ev.shape_b.index];
    shapes.sort();
    assert_eq!(shapes, [1, 2]);
    // End events: throw the three boxes apart.
    let ids: Vec<_> = w.body_ids().collect();
    for (k, b) in ids.iter().enumerate().skip(1) {
        w.set_body_body_type_dynamic_velocity(*b, k);
    }
    let mut ends = 0;
    let mut dropped = 0;
    for _ in 0..30 {
        w.step(DT, SUBSTEPS).unwrap();
        ends += w.contact_end_events().len();
        dropped += w.counters().dropped_end_events;
        assert!(w.contact_end_events().len() <= 1);
    }
    assert!(ends >= 1 && dropped >= 1, "ends {ends} dropped {dropped}");
}

#[test]
fn event_capacity_one_keeps_the_lowest_joint_break_and_counts_the_rest() {
    let mut w = small(|d| d.event_capacity = 1);
    let post = w.create_body(&BodyDef::default()).unwrap();
    let mut joints = Vec::new();
    for i in 0..3 {
        let b = dynamic_box(
            &mut w,
            DVec3::new(i as f64, 2.0, 0.0),
            Vec3::splat(0.2),
            &ShapeDef::default(),
        );
        joints.push(joint_at(
            &mut w,
            post,
            b,
            DVec3::new(i as f64, 2.2, 0.0),
            maul3d::math::Quat::IDENTITY,
            maul3d::JointKind::Weld(Default::default()),
        ));
    }
    // Thresholds below the weights: all three break in the first step.
    for &j in &joints {
        w.set_joint_break_thresholds(j, 1.0, f32::MAX).unwrap();
    }
    w.step(DT, SUBSTEPS).unwrap();
    assert_eq!(w.joint_break_events().len(), 1);
    assert_eq!(w.joint_break_events()[0].joint, joints[0]);
    assert_eq!(w.counters().dropped_joint_break_events, 2);
    assert!(joints.iter().all(|&j| w.joint_is_broken(j).unwrap()));
    w.step(DT, SUBSTEPS).unwrap();
    assert!(w.joint_break_events().is_empty());
    assert_eq!(w.counters().dropped_joint_break_events, 0);
}

trait Kick {
    fn set_body_body_type_dynamic_velocity(&mut self, b: maul3d::BodyId, k: usize);
}

impl Kick for World {
    fn set_body_body_type_dynamic_velocity(&mut self, b: maul3d::BodyId, k: usize) {
        assert_eq!(self.body_type(b).unwrap(), BodyType::Dynamic);
        let dir = [
            Vec3::new(-20.0, 5.0, 0.0),
            Vec3::new(20.0, 10.0, 0.0),
            Vec3::new(0.0, 30.0, 20.0),
        ][k - 1];
        self.set_body_linear_velocity(b, dir).unwrap();
    }
}
