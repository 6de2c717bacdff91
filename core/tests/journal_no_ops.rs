//! Every accepted call is on the tape, also one that changes nothing (a body set to the
//! type it has, a force on a static body): a replay makes the same calls, and a host that
//! counts records finds one per accepted call.

#![allow(clippy::disallowed_methods)] // measuring results in tests, not simulating

mod common;
use common::*;
use maul3d::math::{DVec3, Vec3};
use maul3d::{BodyId, BodyType, ShapeDef, World, describe_journal};

/// A call on (the ground, the box, a point).
type Call = fn(&mut World, BodyId, BodyId, DVec3);

/// The tape of a journal that saw only `calls`, and its record count.
fn tape_of(w: &mut World, calls: impl FnOnce(&mut World)) -> (Vec<u8>, u64) {
    w.start_journal(1 << 16).unwrap();
    calls(w);
    let n = w.stop_journal().unwrap();
    let tape = w.journal_tape()[..n].to_vec();
    let records = describe_journal(&tape).unwrap().records;
    (tape, records)
}

#[test]
fn calls_that_change_nothing_are_still_recorded() {
    let mut w = world(true);
    let ground = ground(&mut w, 0.6);
    let b = dynamic_box(
        &mut w,
        DVec3::new(0.0, 2.0, 0.0),
        Vec3::splat(0.5),
        &ShapeDef::default(),
    );
    let h = w.hash();
    let p = DVec3::new(0.0, 1.0, 0.0);
    let calls: [(&str, Call); 8] = [
        ("set_body_type to its type", |w, _, b, _| {
            w.set_body_type(b, BodyType::Dynamic).unwrap()
        }),
        ("set_body_enabled to its state", |w, _, b, _| {
            w.set_body_enabled(b, true).unwrap()
        }),
        ("set_body_velocity on a static body", |w, g, _, _| {
            w.set_body_velocity(g, Vec3::Y, Vec3::ZERO).unwrap()
        }),
        ("apply_force_to_center on a static body", |w, g, _, _| {
            w.apply_force_to_center(g, Vec3::Y).unwrap()
        }),
        ("apply_force on a static body", |w, g, _, p| {
            w.apply_force(g, Vec3::Y, p).unwrap()
        }),
        ("apply_torque on a static body", |w, g, _, _| {
            w.apply_torque(g, Vec3::Y).unwrap()
        }),
        ("apply_linear_impulse on a static body", |w, g, _, p| {
            w.apply_linear_impulse(g, Vec3::Y, p).unwrap()
        }),
        ("apply_angular_impulse on a static body", |w, g, _, _| {
            w.apply_angular_impulse(g, Vec3::Y).unwrap()
        }),
    ];
    for (what, call) in calls {
        let (_, n) = tape_of(&mut w, |w| call(w, ground, b, p));
        assert_eq!(n, 1, "{what}: {n} records");
        assert_eq!(w.hash(), h, "{what} changed the world");
    }
    // A tape of all of them and a step replays onto a restored twin to the same world.
    let mut snapshot = vec![0; w.snapshot_size()];
    let len = w.snapshot(&mut snapshot).unwrap();
    let (tape, n) = tape_of(&mut w, |w| {
        for (_, call) in calls {
            call(w, ground, b, p);
        }
        w.step(1.0 / 60.0, 4).unwrap();
    });
    assert_eq!(n, 9);
    let mut twin = World::new(w.def()).unwrap();
    twin.restore(&snapshot[..len]).unwrap();
    twin.replay_journal(&tape).unwrap();
    assert_eq!(twin.hash(), w.hash());
}
