//! Compound bodies (several shapes on one body) resting on the ground fall asleep as a
//! single box does (issue 14 item 8).

#![allow(clippy::disallowed_methods)] // measuring results in tests, not simulating

mod common;
use common::*;
use maul3d::math::{DVec3, Quat, Vec3};
use maul3d::{BodyDef, BodyId, BodyType, ShapeDef, World};

fn body(world: &mut World, at: DVec3) -> BodyId {
    world
        .create_body(&BodyDef {
            body_type: BodyType::Dynamic,
            position: at,
            ..Default::default()
        })
        .unwrap()
}

fn boxes(world: &mut World, b: BodyId, parts: &[(Vec3, Vec3)]) {
    for &(half, center) in parts {
        world
            .create_offset_box_shape(b, &ShapeDef::default(), half, center, Quat::IDENTITY)
            .unwrap();
    }
}

/// Steps until `b` sleeps; the step it fell asleep at, or None, and the largest speed
/// seen over the last second.
fn steps_to_sleep(world: &mut World, b: BodyId, limit: usize) -> (Option<usize>, f32) {
    let mut late = 0.0f32;
    for i in 0..limit {
        world.step(DT, SUBSTEPS).unwrap();
        if i + 60 >= limit {
            let v = world.body_linear_velocity(b).unwrap().length();
            let w = world.body_angular_velocity(b).unwrap().length();
            late = late.max(v).max(w);
        }
        if !world.body_is_awake(b).unwrap() {
            return (Some(i), late);
        }
    }
    (None, late)
}

#[test]
fn an_l_of_two_boxes_resting_on_the_ground_falls_asleep() {
    let mut world = world(true);
    ground(&mut world, 0.6);
    let b = body(&mut world, DVec3::new(0.0, 0.6, 0.0));
    boxes(
        &mut world,
        b,
        &[
            (Vec3::new(1.0, 0.25, 0.25), Vec3::new(0.0, -0.25, 0.0)),
            (Vec3::new(0.25, 0.75, 0.25), Vec3::new(-0.75, 0.75, 0.0)),
        ],
    );
    let (slept, late) = steps_to_sleep(&mut world, b, 600);
    assert!(
        slept.is_some(),
        "the L never slept; speed over the last second up to {late}"
    );
}

#[test]
fn a_table_of_five_boxes_resting_on_the_ground_falls_asleep() {
    let mut world = world(true);
    ground(&mut world, 0.6);
    let b = body(&mut world, DVec3::new(0.0, 1.1, 0.0));
    let mut parts = vec![(Vec3::new(1.0, 0.05, 0.6), Vec3::new(0.0, 0.0, 0.0))];
    for (x, z) in [(-0.9, -0.5), (0.9, -0.5), (-0.9, 0.5), (0.9, 0.5)] {
        parts.push((Vec3::new(0.05, 0.5, 0.05), Vec3::new(x, -0.55, z)));
    }
    boxes(&mut world, b, &parts);
    let (slept, late) = steps_to_sleep(&mut world, b, 600);
    assert!(
        slept.is_some(),
        "the table never slept; speed over the last second up to {late}"
    );
}

/// Islands are found to put them to sleep: three separate boxes on the ground are three
/// islands with sleep on; with sleep off none is looked for (the counter says 0) and the
/// boxes move exactly as with sleep on until the first would have slept.
#[test]
fn islands_are_counted_with_sleep_on_and_not_looked_for_with_sleep_off() {
    let run = |enable_sleep: bool| {
        let mut w = World::new(&maul3d::WorldDef {
            enable_sleep,
            ..Default::default()
        })
        .unwrap();
        let ground = w.create_body(&BodyDef::default()).unwrap();
        w.create_box_shape(ground, &ShapeDef::default(), Vec3::new(20.0, 0.5, 20.0))
            .unwrap();
        let ids: Vec<BodyId> = (0..3)
            .map(|k| {
                let b = body(&mut w, DVec3::new(k as f64 * 3.0, 1.5, 0.0));
                boxes(&mut w, b, &[(Vec3::splat(0.5), Vec3::ZERO)]);
                b
            })
            .collect();
        let mut islands = Vec::new();
        let mut heights = Vec::new();
        for _ in 0..20 {
            w.step(DT, SUBSTEPS).unwrap();
            islands.push(w.counters().island_count);
            heights.push(
                ids.iter()
                    .map(|&b| w.body_position(b).unwrap().y.to_bits())
                    .collect::<Vec<_>>(),
            );
        }
        (islands, heights)
    };
    let (on, moved_on) = run(true);
    let (off, moved_off) = run(false);
    assert!(on.iter().all(|&n| n == 3), "sleep on: {on:?}");
    assert!(off.iter().all(|&n| n == 0), "sleep off: {off:?}");
    assert_eq!(
        moved_on, moved_off,
        "the same motion before anything sleeps"
    );
}
