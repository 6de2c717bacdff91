//! The pair search finds every pair a moved shape overlaps, however many: a slab lying
//! on a grid of posts under a grid of boxes overlaps more shapes than one batch of its
//! checks holds, some moved (the boxes), some not (the posts), on one worker and on the
//! parallel search's two.

#![allow(clippy::disallowed_methods)] // measuring results in tests, not simulating

mod common;
#[path = "../../test/determinism/src/tasks.rs"]
mod tasks;

use common::*;
use maul3d::math::{DVec3, Vec3};
use maul3d::{BodyDef, BodyId, ShapeDef, World, WorldDef};
use tasks::TestTasks;

/// Posts and boxes per side of the grids.
const SIDE: usize = 9;

/// The slab (made first: the lowest slot), `SIDE²` static posts under it and `SIDE²`
/// dynamic boxes on it, each post and box touching the slab and nothing else.
fn build(def: WorldDef) -> (World, BodyId) {
    let mut w = World::new(&WorldDef {
        body_capacity: 400,
        shape_capacity: 400,
        contact_capacity: 1000,
        pair_capacity: 1000,
        enable_sleep: false,
        ..def
    })
    .unwrap();
    let half = SIDE as f32 * 0.5;
    let slab = dynamic_box(
        &mut w,
        DVec3::new(0.0, 0.5, 0.0),
        Vec3::new(half, 0.1, half),
        &ShapeDef::default(),
    );
    let at = |i: usize| (i as f64 - (SIDE as f64 - 1.0) * 0.5) * 1.0;
    for i in 0..SIDE * SIDE {
        let (x, z) = (at(i % SIDE), at(i / SIDE));
        let b = w
            .create_body(&BodyDef {
                position: DVec3::new(x, 0.2, z),
                ..Default::default()
            })
            .unwrap();
        w.create_box_shape(b, &ShapeDef::default(), Vec3::splat(0.2))
            .unwrap();
        dynamic_box(
            &mut w,
            DVec3::new(x, 0.8, z),
            Vec3::splat(0.2),
            &ShapeDef::default(),
        );
    }
    (w, slab)
}

#[test]
fn a_shape_overlapping_many_finds_every_pair() {
    let serial = build(WorldDef::default());
    let pool = TestTasks::new(2, true, 0x9a1);
    let parallel = build(WorldDef {
        task_hooks: Some(pool.hooks()),
        ..Default::default()
    });
    for (mut w, slab) in [serial, parallel] {
        w.step(1.0 / 60.0, 4).unwrap();
        // One contact with each post and each box; the posts and boxes touch nothing
        // else (each box's own contact is the slab's too).
        assert_eq!(w.body_contact_capacity(slab).unwrap(), 2 * SIDE * SIDE);
        assert_eq!(w.counters().contact_count as usize, 2 * SIDE * SIDE);
    }
}
