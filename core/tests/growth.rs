//! Capacities are not state: a world that grows as it fills gives the same ids, hashes and
//! bits as one created large; snapshots cross a growth both ways; a journal replays a
//! session that grew.

#![allow(clippy::disallowed_methods)] // measuring results in tests, not simulating

mod common;
use common::*;
use maul3d::math::{DVec3, Vec3};
use maul3d::{BodyDef, BodyType, Capacities, Error, ShapeDef, World, WorldDef};

fn small_def() -> WorldDef {
    WorldDef {
        body_capacity: 8,
        shape_capacity: 8,
        contact_capacity: 8,
        pair_capacity: 4,
        hull_capacity: 1,
        event_capacity: 4,
        sensor_capacity: 2,
        ..Default::default()
    }
}

fn large_def() -> WorldDef {
    WorldDef {
        body_capacity: 4096,
        shape_capacity: 4096,
        contact_capacity: 16384,
        pair_capacity: 16384,
        hull_capacity: 64,
        event_capacity: 4096,
        sensor_capacity: 1024,
        ..Default::default()
    }
}

/// Grows `w` to what `growth_needed` names, if anything; returns whether it grew.
fn grow_if_needed(w: &mut World) -> bool {
    match w.growth_needed() {
        Some(c) => {
            w.grow(&c).unwrap();
            true
        }
        None => false,
    }
}

/// Retries a create after doubling the capacity it filled, as a front end does.
fn create<T>(w: &mut World, mut f: impl FnMut(&mut World) -> maul3d::Result<T>) -> T {
    loop {
        match f(w) {
            Err(Error::Capacity { what, capacity }) => {
                let c = w.capacities();
                let doubled = (capacity as u32).saturating_mul(2);
                let c = match what {
                    "body_capacity" => Capacities {
                        body_capacity: doubled,
                        ..c
                    },
                    "shape_capacity" => Capacities {
                        shape_capacity: doubled,
                        ..c
                    },
                    "hull_capacity" => Capacities {
                        hull_capacity: doubled,
                        ..c
                    },
                    other => panic!("unexpected capacity {other}"),
                };
                w.grow(&c).unwrap();
            }
            r => return r.unwrap(),
        }
    }
}

/// Ground, then three boxes and a hull dropped every step for `steps` steps (growing
/// before each step when `grow` is set); the hash after every step.
fn rain(w: &mut World, steps: usize, grow: bool) -> (Vec<u64>, Vec<maul3d::BodyId>, u32) {
    let g = create(w, |w| {
        w.create_body(&BodyDef {
            position: DVec3::new(0.0, -1.0, 0.0),
            ..Default::default()
        })
    });
    create(w, |w| {
        w.create_box_shape(g, &ShapeDef::default(), Vec3::new(50.0, 1.0, 50.0))
    });
    let hull = create(w, |w| {
        w.create_hull(&[
            Vec3::new(-0.3, -0.3, -0.3),
            Vec3::new(0.3, -0.3, -0.3),
            Vec3::new(0.0, 0.3, -0.3),
            Vec3::new(0.0, 0.0, 0.35),
        ])
    });
    let mut hashes = Vec::new();
    let mut ids = vec![g];
    let mut growths = 0;
    for step in 0..steps {
        for k in 0..4 {
            let x = (k as f64 - 1.5) * 0.7 + (step % 3) as f64 * 0.05;
            let b = create(w, |w| {
                w.create_body(&BodyDef {
                    body_type: BodyType::Dynamic,
                    position: DVec3::new(x, 1.0 + (step % 5) as f64 * 0.4, 0.0),
                    ..Default::default()
                })
            });
            if k == 3 {
                create(w, |w| w.create_hull_shape(b, &ShapeDef::default(), hull));
            } else {
                create(w, |w| {
                    w.create_box_shape(b, &ShapeDef::default(), Vec3::new(0.3, 0.3, 0.3))
                });
            }
            ids.push(b);
        }
        if grow && grow_if_needed(w) {
            growths += 1;
        }
        w.step(DT, SUBSTEPS).unwrap();
        let c = w.counters();
        assert_eq!(
            (c.dropped_pairs, c.dropped_contacts),
            (0, 0),
            "step {step} dropped pairs or contacts"
        );
        hashes.push(w.hash());
    }
    (hashes, ids, growths)
}

#[test]
fn the_hash_leaves_the_capacities_out() {
    let a = World::new(&small_def()).unwrap();
    let b = World::new(&large_def()).unwrap();
    assert_eq!(a.hash(), b.hash());
}

#[test]
fn a_world_grown_as_it_fills_matches_one_created_large_step_by_step() {
    let mut small = World::new(&small_def()).unwrap();
    let mut large = World::new(&large_def()).unwrap();
    let (hs, ids_small, growths) = rain(&mut small, 60, true);
    let (hl, ids_large, large_growths) = rain(&mut large, 60, true);
    assert!(growths >= 3, "the small world grew {growths} times");
    assert_eq!(large_growths, 0, "the large world had room");
    assert!(small.capacities().body_capacity >= 241);
    assert_eq!(hs, hl, "same calls, same hashes, whatever the capacities");
    let parts = |ids: &[maul3d::BodyId]| -> Vec<(u32, u32)> {
        ids.iter().map(|b| (b.index, b.generation)).collect()
    };
    assert_eq!(parts(&ids_small), parts(&ids_large), "same ids");
    // Something happened: boxes came to rest on the ground and on each other.
    assert!(small.counters().contact_count > 100);
    for (&a, &b) in ids_small.iter().zip(&ids_large) {
        assert_eq!(
            small.body_position(a).unwrap(),
            large.body_position(b).unwrap()
        );
    }
}

#[test]
fn growth_keeps_ids_user_data_events_and_the_hash() {
    let mut w = World::new(&small_def()).unwrap();
    ground(&mut w, 0.6);
    let b = dynamic_box(
        &mut w,
        DVec3::new(0.0, 0.29, 0.0),
        Vec3::new(0.3, 0.3, 0.3),
        &ShapeDef {
            enable_contact_events: true,
            ..Default::default()
        },
    );
    w.set_body_user_data(b, 77).unwrap();
    w.step(DT, SUBSTEPS).unwrap();
    let begins = w.contact_begin_events().len();
    assert!(begins > 0);
    let (hash, mem) = (w.hash(), w.memory_usage());
    let c = w.capacities();
    w.grow(&Capacities {
        body_capacity: 100,
        contact_capacity: 100,
        ..c
    })
    .unwrap();
    assert_eq!(w.hash(), hash);
    assert!(w.memory_usage() > mem);
    assert_eq!(w.body_user_data(b).unwrap(), 77);
    assert_eq!(w.contact_begin_events().len(), begins);
    assert_eq!(w.capacities().body_capacity, 100);
    // Equal capacities change nothing.
    w.grow(&w.capacities()).unwrap();
    assert_eq!(w.hash(), hash);
}

#[test]
fn growth_refuses_a_smaller_capacity_and_changes_nothing() {
    let mut w = World::new(&small_def()).unwrap();
    dynamic_box(&mut w, DVec3::ZERO, Vec3::ONE, &ShapeDef::default());
    let (hash, c) = (w.hash(), w.capacities());
    let err = w
        .grow(&Capacities {
            body_capacity: 4,
            shape_capacity: 64,
            ..c
        })
        .unwrap_err();
    assert!(
        matches!(
            err,
            Error::Argument {
                name: "body_capacity",
                value: 4.0,
                ..
            }
        ),
        "{err}"
    );
    let err = w
        .grow(&Capacities {
            body_capacity: (1 << 24) + 1,
            ..c
        })
        .unwrap_err();
    assert!(matches!(
        err,
        Error::Argument {
            name: "body_capacity",
            ..
        }
    ));
    assert_eq!((w.hash(), w.capacities()), (hash, c));
}

#[test]
fn a_snapshot_taken_before_a_growth_restores_after_it_and_steps_to_the_same_hashes() {
    let mut w = World::new(&small_def()).unwrap();
    ground(&mut w, 0.6);
    for i in 0..3 {
        dynamic_box(
            &mut w,
            DVec3::new(i as f64 * 0.7, 0.5, 0.0),
            Vec3::new(0.3, 0.3, 0.3),
            &ShapeDef::default(),
        );
    }
    step_n(&mut w, 5);
    let mut buf = vec![0u8; w.snapshot_size()];
    let n = w.snapshot(&mut buf).unwrap();
    let snap = buf[..n].to_vec();
    // The original future, in a small twin.
    let mut twin = World::new(&World::def_from_snapshot(&snap).unwrap()).unwrap();
    twin.restore(&snap).unwrap();
    let mut expected = Vec::new();
    for _ in 0..30 {
        twin.step(DT, SUBSTEPS).unwrap();
        expected.push(twin.hash());
    }
    // Grow, fill the grown room, then roll back across the growth.
    let c = w.capacities();
    w.grow(&Capacities {
        body_capacity: 64,
        shape_capacity: 64,
        contact_capacity: 256,
        ..c
    })
    .unwrap();
    for i in 0..20 {
        dynamic_box(
            &mut w,
            DVec3::new(i as f64 * 0.7, 3.0, 2.0),
            Vec3::new(0.3, 0.3, 0.3),
            &ShapeDef::default(),
        );
    }
    step_n(&mut w, 10);
    w.restore(&snap).unwrap();
    assert_eq!(
        w.capacities().body_capacity,
        64,
        "a restore keeps the capacities"
    );
    let got: Vec<u64> = (0..30)
        .map(|_| {
            w.step(DT, SUBSTEPS).unwrap();
            w.hash()
        })
        .collect();
    assert_eq!(got, expected);
}

#[test]
fn a_restore_into_a_world_too_small_names_the_capacity_and_changes_nothing() {
    let mut big = World::new(&large_def()).unwrap();
    for i in 0..10 {
        dynamic_box(
            &mut big,
            DVec3::new(i as f64, 0.0, 0.0),
            Vec3::ONE,
            &ShapeDef::default(),
        );
    }
    let mut buf = vec![0u8; big.snapshot_size()];
    let n = big.snapshot(&mut buf).unwrap();
    let mut small = World::new(&small_def()).unwrap();
    let hash = small.hash();
    let err = small.restore(&buf[..n]).unwrap_err();
    assert_eq!(
        err,
        Error::TooSmall {
            what: "body_capacity",
            needed: 10,
            capacity: 8
        }
    );
    assert_eq!(
        err.to_string(),
        "body_capacity = 8 is too small: 10 needed (grow the world first)"
    );
    assert_eq!(small.hash(), hash);
    // Grown, it takes the snapshot.
    let c = small.capacities();
    small
        .grow(&Capacities {
            body_capacity: 10,
            shape_capacity: 10,
            ..c
        })
        .unwrap();
    small.restore(&buf[..n]).unwrap();
    assert_eq!(small.hash(), big.hash());
}

#[test]
fn a_journal_of_a_session_that_grew_and_rolled_back_across_the_growth_replays_and_verifies() {
    let mut w = World::new(&small_def()).unwrap();
    ground(&mut w, 0.6);
    let mut buf = vec![0u8; w.snapshot_size()];
    let n = w.snapshot(&mut buf).unwrap();
    let start = buf[..n].to_vec();
    w.start_journal(1 << 22).unwrap();
    let mut before_growth = Vec::new();
    for step in 0..40 {
        dynamic_box(
            &mut w,
            DVec3::new((step % 4) as f64 * 0.7, 1.0, 0.0),
            Vec3::new(0.3, 0.3, 0.3),
            &ShapeDef::default(),
        );
        if w.body_count() == 6 {
            let mut b = vec![0u8; w.snapshot_size()];
            let n = w.snapshot(&mut b).unwrap();
            before_growth = b[..n].to_vec();
        }
        let c = w.capacities();
        if w.body_count() + 1 >= c.body_capacity {
            w.grow(&Capacities {
                body_capacity: c.body_capacity * 2,
                shape_capacity: c.shape_capacity * 2,
                ..c
            })
            .unwrap();
        }
        if step == 20 {
            // A rollback across the growths.
            w.restore(&before_growth).unwrap();
        }
        grow_if_needed(&mut w);
        w.step(DT, SUBSTEPS).unwrap();
    }
    w.stop_journal().unwrap();
    let tape = w.journal_tape().to_vec();
    let mut replay = World::new(&World::def_from_snapshot(&start).unwrap()).unwrap();
    replay.restore(&start).unwrap();
    replay.replay_journal(&tape).unwrap();
    assert_eq!(replay.hash(), w.hash());
    assert_eq!(replay.capacities(), w.capacities());
}
