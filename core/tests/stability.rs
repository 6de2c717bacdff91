//! Stacking stability (sleep off, so sleeping cannot hide drift) and sleep of whole islands.

#![allow(clippy::disallowed_methods)] // measuring results in tests, not simulating

mod common;
use common::*;
use maul3d::math::{DVec3, Vec3};
use maul3d::{BodyDef, ShapeDef};

#[test]
fn a_ten_box_tower_stands_for_ten_seconds() {
    let mut world = world(false);
    ground(&mut world, 0.6);
    let mut boxes = Vec::new();
    for i in 0..10 {
        boxes.push(dynamic_box(
            &mut world,
            DVec3::new(0.0, 0.5 + i as f64, 0.0),
            Vec3::new(0.5, 0.5, 0.5),
            &ShapeDef::default(),
        ));
    }
    step_n(&mut world, 600);
    for (i, b) in boxes.iter().enumerate() {
        let p = world.body_position(*b).unwrap();
        let start = DVec3::new(0.0, 0.5 + i as f64, 0.0);
        assert!(
            horizontal_distance(p, start) < 0.01,
            "box {i} moved to {p:?}"
        );
        assert!((p.y - start.y).abs() < 0.05, "box {i} sank to {}", p.y);
        let up = world.body_rotation(*b).unwrap().rotate(Vec3::Y);
        assert!(up.y > 0.999, "box {i} tilted: {up:?}");
    }
}

#[test]
fn a_twenty_level_pyramid_stands_and_its_top_drifts_under_a_centimetre() {
    let mut world = world(false);
    ground(&mut world, 0.6);
    let boxes = pyramid(&mut world, 20, DVec3::ZERO);
    assert_eq!(boxes.len(), 210);
    let top = *boxes.last().unwrap();
    step_n(&mut world, 30);
    let start = world.body_position(top).unwrap();
    step_n(&mut world, 600);
    let end = world.body_position(top).unwrap();
    let drift =
        ((end.x - start.x).powi(2) + (end.y - start.y).powi(2) + (end.z - start.z).powi(2)).sqrt();
    assert!(drift < 0.01, "top box drifted {drift} m");
    assert!(end.y > 19.0, "pyramid collapsed: top at {}", end.y);
}

#[test]
fn a_box_on_a_slope_steeper_friction_than_needed_does_not_creep() {
    let theta = 30.0f32.to_radians();
    let mu = 1.2 * theta.tan();
    let mut world = world(false);
    let slope = world
        .create_body(&BodyDef {
            rotation: rot_about_z(theta),
            ..Default::default()
        })
        .unwrap();
    world
        .create_box_shape(
            slope,
            &ShapeDef {
                friction: mu,
                ..Default::default()
            },
            Vec3::new(50.0, 1.0, 50.0),
        )
        .unwrap();
    let q = rot_about_z(theta);
    let n = q.rotate(Vec3::Y);
    let c = n * 1.5;
    let b = world
        .create_body(&BodyDef {
            body_type: maul3d::BodyType::Dynamic,
            position: DVec3::new(c.x as f64, c.y as f64, 0.0),
            rotation: q,
            ..Default::default()
        })
        .unwrap();
    world
        .create_box_shape(
            b,
            &ShapeDef {
                friction: mu,
                ..Default::default()
            },
            Vec3::new(0.5, 0.5, 0.5),
        )
        .unwrap();
    step_n(&mut world, 30);
    let p0 = world.body_position(b).unwrap();
    step_n(&mut world, 600);
    let p1 = world.body_position(b).unwrap();
    let moved = ((p1.x - p0.x).powi(2) + (p1.y - p0.y).powi(2) + (p1.z - p0.z).powi(2)).sqrt();
    assert!(moved < 0.001, "box crept {moved} m");
}

/// Steps until all `ids` sleep, checking every step that they sleep or wake together.
fn sleeps_whole(world: &mut maul3d::World, ids: &[maul3d::BodyId], max_steps: usize) -> usize {
    for s in 0..max_steps {
        world.step(DT, SUBSTEPS).unwrap();
        let awake = ids
            .iter()
            .filter(|b| world.body_is_awake(**b).unwrap())
            .count();
        assert!(
            awake == 0 || awake == ids.len(),
            "step {s}: {awake} of {} awake",
            ids.len()
        );
        if awake == 0 {
            return s;
        }
    }
    panic!("never fell asleep in {max_steps} steps");
}

#[test]
fn a_tower_and_a_pyramid_fall_asleep_as_whole_islands() {
    let mut world = world(true);
    ground(&mut world, 0.6);
    let mut tower = Vec::new();
    for i in 0..10 {
        tower.push(dynamic_box(
            &mut world,
            DVec3::new(40.0, 0.5 + i as f64, 0.0),
            Vec3::new(0.5, 0.5, 0.5),
            &ShapeDef::default(),
        ));
    }
    let pyr = pyramid(&mut world, 20, DVec3::new(-20.0, 0.0, 0.0));
    let mut both = tower.clone();
    both.extend_from_slice(&pyr);
    // Each island sleeps whole; check them separately, then that everything sleeps.
    let mut w2 = world;
    let t = sleeps_whole(&mut w2, &tower, 600);
    assert!(t > 25, "slept too soon: {t}");
    sleeps_whole(&mut w2, &pyr, 600);
    assert!(both.iter().all(|b| !w2.body_is_awake(*b).unwrap()));
    w2.step(DT, SUBSTEPS).unwrap();
    assert_eq!(
        w2.counters().awake_body_count,
        0,
        "a sleeping world steps nothing"
    );
    // A touch wakes the whole island: drop a box on the pyramid's top.
    let top = *pyr.last().unwrap();
    let p = w2.body_position(top).unwrap();
    let _dropped = dynamic_box(
        &mut w2,
        DVec3::new(p.x, p.y + 3.0, 0.0),
        Vec3::new(0.5, 0.5, 0.5),
        &ShapeDef::default(),
    );
    let mut woke = false;
    for _ in 0..60 {
        w2.step(DT, SUBSTEPS).unwrap();
        let awake = pyr
            .iter()
            .filter(|b| w2.body_is_awake(**b).unwrap())
            .count();
        assert!(
            awake == 0 || awake == pyr.len(),
            "{awake} of {} awake",
            pyr.len()
        );
        if awake == pyr.len() {
            woke = true;
            break;
        }
    }
    assert!(woke, "the pyramid never woke");
    // The tower, another island, slept on.
    assert!(tower.iter().all(|b| !w2.body_is_awake(*b).unwrap()));
}
