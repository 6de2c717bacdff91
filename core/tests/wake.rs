//! `wake_bodies_touching`: what a host calls when it moves a kinematic platform, so that
//! the sleeping boxes on it move with it.

mod common;
use common::*;
use maul3d::math::{DVec3, Vec3};
use maul3d::{BodyDef, BodyId, BodyType, ShapeDef, World};

/// A kinematic platform (top face y = 0) under a box, a box asleep on the ground far
/// away, both slept; returns the world, the platform, the box on it and the far box.
fn asleep_on_a_platform() -> (World, BodyId, BodyId, BodyId) {
    let mut w = world(true);
    let platform = w
        .create_body(&BodyDef {
            body_type: BodyType::Kinematic,
            position: DVec3::new(0.0, -0.25, 0.0),
            ..Default::default()
        })
        .unwrap();
    w.create_box_shape(platform, &ShapeDef::default(), Vec3::new(2.0, 0.25, 2.0))
        .unwrap();
    let floor = w
        .create_body(&BodyDef {
            position: DVec3::new(20.0, -0.25, 0.0),
            ..Default::default()
        })
        .unwrap();
    w.create_box_shape(floor, &ShapeDef::default(), Vec3::new(2.0, 0.25, 2.0))
        .unwrap();
    let half = Vec3::splat(0.25);
    let on = dynamic_box(
        &mut w,
        DVec3::new(0.0, 0.25, 0.0),
        half,
        &ShapeDef::default(),
    );
    let far = dynamic_box(
        &mut w,
        DVec3::new(20.0, 0.25, 0.0),
        half,
        &ShapeDef::default(),
    );
    for _ in 0..600 {
        if !w.body_is_awake(on).unwrap() && !w.body_is_awake(far).unwrap() {
            break;
        }
        w.step(DT, SUBSTEPS).unwrap();
    }
    assert!(!w.body_is_awake(on).unwrap() && !w.body_is_awake(far).unwrap());
    (w, platform, on, far)
}

#[test]
fn a_box_asleep_on_a_platform_given_a_velocity_wakes_when_the_platform_wakes_what_it_touches() {
    let (mut w, platform, on, far) = asleep_on_a_platform();
    // Setting the platform's velocity wakes the platform only (as in Box2D).
    w.set_body_velocity(platform, Vec3::new(1.0, 0.0, 0.0), Vec3::ZERO)
        .unwrap();
    assert!(!w.body_is_awake(on).unwrap());
    w.wake_bodies_touching(platform).unwrap();
    assert!(
        w.body_is_awake(on).unwrap(),
        "the box on the platform wakes"
    );
    assert!(
        !w.body_is_awake(far).unwrap(),
        "a box touching nothing of it sleeps on"
    );
    let x0 = w.body_position(on).unwrap().x;
    step_n(&mut w, 30);
    let x1 = w.body_position(on).unwrap().x;
    assert!(x1 - x0 > 0.3, "the box rides the platform: {x0} -> {x1}");
}

#[test]
fn a_box_left_asleep_on_a_moving_platform_stays_behind() {
    // What the call is for: without it the sleeping island does not feel the platform.
    let (mut w, platform, on, _) = asleep_on_a_platform();
    w.set_body_velocity(platform, Vec3::new(1.0, 0.0, 0.0), Vec3::ZERO)
        .unwrap();
    let x0 = w.body_position(on).unwrap().x;
    step_n(&mut w, 30);
    assert_eq!(w.body_position(on).unwrap().x, x0);
}

#[test]
fn waking_what_a_body_touches_is_journaled_and_replays_to_the_same_hash() {
    let (mut w, platform, on, _) = asleep_on_a_platform();
    let mut start = vec![0u8; w.snapshot_size()];
    w.snapshot(&mut start).unwrap();
    w.start_journal(1 << 16).unwrap();
    w.wake_bodies_touching(platform).unwrap();
    step_n(&mut w, 10);
    w.stop_journal().unwrap();
    assert!(w.body_is_awake(on).unwrap());
    let mut twin = World::new(&World::def_from_snapshot(&start).unwrap()).unwrap();
    twin.restore(&start).unwrap();
    twin.replay_journal(w.journal_tape()).unwrap();
    assert_eq!(twin.hash(), w.hash());
}

#[test]
fn waking_what_a_stale_body_touches_is_refused_and_changes_nothing() {
    let (mut w, _, on, _) = asleep_on_a_platform();
    let other = w
        .create_body(&BodyDef {
            position: DVec3::new(-20.0, 0.0, 0.0),
            ..Default::default()
        })
        .unwrap();
    w.destroy_body(other).unwrap();
    let before = w.hash();
    w.start_journal(1 << 10).unwrap();
    assert!(w.wake_bodies_touching(other).is_err());
    assert_eq!(w.stop_journal().unwrap(), maul3d::TAPE_HEADER_SIZE);
    assert_eq!(w.hash(), before);
    assert!(!w.body_is_awake(on).unwrap());
}
