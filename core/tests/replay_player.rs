//! The replay player: seeking agrees with replaying the cut tape from the start, in any
//! order; keyframes stay within their spacing; verify, damage, diff.

mod common;
use common::*;
use maul3d::math::{DVec3, Vec3};
use maul3d::{
    Error, Parting, ReplayPlayer, ShapeDef, World, encode_replay, encoded_replay_size,
    snapshot_journal,
};

/// A recorded session: a pyramid, a box dropped on it, a kick at `kick_step`, and a call
/// after the last step (so the final hash is not the last step's).
fn record(steps: usize, kick_step: usize, kick: f32) -> Vec<u8> {
    let mut w = world(true);
    ground(&mut w, 0.6);
    pyramid(&mut w, 4, DVec3::ZERO);
    let start = {
        let mut b = vec![0u8; w.snapshot_size()];
        let n = w.snapshot(&mut b).unwrap();
        b.truncate(n);
        b
    };
    assert!(snapshot_journal(&start).unwrap().is_none());
    w.start_journal(1 << 20).unwrap();
    let dropped = dynamic_box(
        &mut w,
        DVec3::new(0.3, 6.0, 0.0),
        Vec3::splat(0.4),
        &ShapeDef::default(),
    );
    for s in 0..steps {
        if s == kick_step {
            w.apply_linear_impulse_to_center(dropped, Vec3::new(kick, 0.0, 0.0))
                .unwrap();
        }
        step_n(&mut w, 1);
    }
    w.set_body_linear_velocity(dropped, Vec3::new(0.0, 1.0, 0.0))
        .unwrap();
    w.stop_journal().unwrap();
    let tape = w.journal_tape().to_vec();
    let mut buf = vec![0u8; encoded_replay_size(start.len(), tape.len())];
    encode_replay(&start, &tape, w.hash(), &mut buf).unwrap();
    buf
}

/// The hash at every step, by replaying the tape cut at each step from the start.
fn direct_hashes(file: &[u8]) -> Vec<u64> {
    let p = ReplayPlayer::open(file).unwrap();
    (0..=p.step_count())
        .map(|s| {
            let mut w = World::new(&p.def().unwrap()).unwrap();
            w.restore(p.start_snapshot()).unwrap();
            w.replay_journal(p.tape_prefix(s).unwrap()).unwrap();
            w.hash()
        })
        .collect()
}

#[test]
fn seeks_in_any_order_agree_with_replaying_from_the_start() {
    let file = record(70, 25, 3.0);
    let want = direct_hashes(&file);
    assert_eq!(want.len(), 71);
    let mut p = ReplayPlayer::open_with(&file, 8).unwrap();
    assert_eq!(p.step_count(), 70);
    // Forward, step by step.
    for (s, h) in want.iter().enumerate() {
        assert_eq!(p.current_step(), s as u64);
        assert_eq!(p.hash_at_current(), *h, "forward at {s}");
        p.step_forward().unwrap();
    }
    assert!(!p.step_forward().unwrap(), "past the end");
    // A scrambled order (a fixed permutation), fresh player and used one.
    let order: Vec<u64> = (0..=70u64).map(|i| (i * 37 + 11) % 71).collect();
    let mut fresh = ReplayPlayer::open_with(&file, 8).unwrap();
    for &s in &order {
        p.seek(s).unwrap();
        fresh.seek(s).unwrap();
        assert_eq!(p.hash_at_current(), want[s as usize], "seek {s}");
        assert_eq!(fresh.hash_at_current(), want[s as usize], "fresh seek {s}");
    }
    // Backwards.
    p.seek(70).unwrap();
    for s in (0..70).rev() {
        assert!(p.step_back().unwrap());
        assert_eq!(p.hash_at_current(), want[s], "back to {s}");
    }
    assert!(!p.step_back().unwrap());
}

#[test]
fn keyframes_are_taken_as_passed_and_bound_each_seek() {
    let file = record(64, 10, 2.0);
    let mut p = ReplayPlayer::open_with(&file, 16).unwrap();
    let start_bytes = p.keyframe_bytes();
    assert_eq!(start_bytes, p.start_snapshot().len(), "only step 0 at open");
    p.seek(20).unwrap();
    let one = p.keyframe_bytes();
    assert!(one > start_bytes, "step 16 kept on the way");
    p.index(|_| {}).unwrap();
    assert_eq!(p.current_step(), 64);
    // Steps 0, 16, 32, 48, 64 are all kept now: five snapshots.
    assert!(p.keyframe_bytes() > 4 * start_bytes);
    // The automatic spacing: at least the minimum, and within the budget.
    let auto = ReplayPlayer::open(&file).unwrap();
    assert_eq!(auto.keyframe_every(), maul3d::KEYFRAME_MIN_EVERY);
    assert!(matches!(
        ReplayPlayer::open_with(&file, 0),
        Err(Error::Argument {
            name: "keyframe_every",
            ..
        })
    ));
}

#[test]
fn keyframes_past_the_budget_double_the_spacing_and_seeks_still_agree() {
    let file = record(70, 25, 3.0);
    let want = direct_hashes(&file);
    let mut p = ReplayPlayer::open_with(&file, 2).unwrap();
    let start = p.start_snapshot().len();
    // Room for about six snapshots: far fewer than the 36 that spacing 2 would keep.
    let budget = 6 * start;
    p.set_keyframe_budget(budget);
    p.index(|_| {}).unwrap();
    assert!(
        p.keyframe_bytes() <= budget,
        "{} > {budget}",
        p.keyframe_bytes()
    );
    assert!(p.keyframe_bytes() > start, "more than step 0 is kept");
    let every = p.keyframe_every();
    assert!(
        every > 2 && every.is_power_of_two(),
        "doubled from 2: {every}"
    );
    let order: Vec<u64> = (0..=70u64).map(|i| (i * 29 + 5) % 71).collect();
    for &s in &order {
        p.seek(s).unwrap();
        assert_eq!(p.hash_at_current(), want[s as usize], "seek {s}");
    }
    assert!(p.keyframe_bytes() <= budget);
    // A budget below the starting snapshot keeps step 0 alone; seeks still agree.
    p.set_keyframe_budget(0);
    assert_eq!(p.keyframe_bytes(), start);
    assert!(p.keyframe_every() > 70);
    for &s in &order[..10] {
        p.seek(s).unwrap();
        assert_eq!(
            p.hash_at_current(),
            want[s as usize],
            "seek {s} from step 0"
        );
    }
    assert_eq!(p.keyframe_bytes(), start);
}

#[test]
fn verify_replays_the_calls_after_the_last_step_and_keeps_the_last_step() {
    let file = record(40, 5, 1.0);
    let mut p = ReplayPlayer::open(&file).unwrap();
    let want = direct_hashes(&file);
    let v = p.verify().unwrap();
    assert!(v.matches(), "{v:?}");
    assert_eq!(v.recorded, p.recorded_final_hash());
    // The final call (a velocity set after the last step) moved the hash ...
    assert_ne!(v.replayed, want[40]);
    // ... and the player still shows the last step.
    assert_eq!(p.current_step(), 40);
    assert_eq!(p.hash_at_current(), want[40]);
    // The container's checksum covers the stored hash: changing it is damage.
    let mut forged = file.clone();
    let at = maul3d::CONTAINER_HEADER_SIZE - 32; // the final hash field (bytes 32..40)
    forged[at] ^= 1;
    assert!(matches!(ReplayPlayer::open(&forged), Err(Error::Format(_))));
}

#[test]
fn damaged_files_and_bad_steps_are_refused() {
    let file = record(10, 2, 1.0);
    for cut in [0, 10, 63, 64, file.len() - 1] {
        assert!(
            matches!(ReplayPlayer::open(&file[..cut]), Err(Error::Format(_))),
            "cut at {cut}"
        );
    }
    let mut bad = file.clone();
    let mid = bad.len() / 2;
    bad[mid] ^= 0x40;
    assert!(matches!(ReplayPlayer::open(&bad), Err(Error::Format(_))));
    let mut p = ReplayPlayer::open(&file).unwrap();
    p.seek(4).unwrap();
    let h = p.hash_at_current();
    let e = p.seek(11).unwrap_err();
    assert!(e.to_string().contains("seek step"), "{e}");
    assert_eq!(p.current_step(), 4, "a refused seek changes nothing");
    assert_eq!(p.hash_at_current(), h);
    assert!(p.tape_prefix(11).is_err());
}

/// A snapshot of a world, as bytes.
fn snapshot_of(w: &World) -> Vec<u8> {
    let mut b = vec![0u8; w.snapshot_size()];
    let n = w.snapshot(&mut b).unwrap();
    b.truncate(n);
    b
}

#[test]
fn a_step_the_world_refuses_leaves_the_player_on_the_step_before() {
    // The tape destroys a box before step 11; the file's starting snapshot is a world
    // where that box was already destroyed, so step 11's call is refused on replay.
    let build = || {
        let mut w = world(true);
        ground(&mut w, 0.6);
        let boxes = pyramid(&mut w, 3, DVec3::ZERO);
        let doomed = dynamic_box(
            &mut w,
            DVec3::new(3.0, 0.5, 0.0),
            Vec3::splat(0.4),
            &ShapeDef::default(),
        );
        (w, boxes[0], doomed)
    };
    let (mut w, pushed, doomed) = build();
    let (mut other, _, gone) = build();
    other.destroy_body(gone).unwrap();
    w.start_journal(1 << 20).unwrap();
    step_n(&mut w, 10);
    // A call that replays, then the one that is refused: the step is undone as a whole.
    w.apply_linear_impulse_to_center(pushed, Vec3::new(0.0, 5.0, 0.0))
        .unwrap();
    w.destroy_body(doomed).unwrap();
    step_n(&mut w, 5);
    w.stop_journal().unwrap();
    let start = snapshot_of(&other);
    let tape = w.journal_tape().to_vec();
    let mut file = vec![0u8; encoded_replay_size(start.len(), tape.len())];
    encode_replay(&start, &tape, w.hash(), &mut file).unwrap();

    let mut p = ReplayPlayer::open_with(&file, 4).unwrap();
    p.seek(10).unwrap();
    let at_10 = p.hash_at_current();
    assert!(matches!(p.step_forward(), Err(Error::Format(_))));
    assert_eq!(p.current_step(), 10);
    assert_eq!(p.hash_at_current(), at_10, "back on step 10's state");
    // A seek past it stops there too, from a fresh player and from one further back.
    let mut fresh = ReplayPlayer::open_with(&file, 4).unwrap();
    assert!(fresh.seek(13).is_err());
    assert_eq!(fresh.current_step(), 10);
    assert_eq!(fresh.hash_at_current(), at_10);
    p.seek(3).unwrap();
    assert!(p.seek(12).is_err());
    assert_eq!(p.hash_at_current(), at_10);
    // Step 10 is the tape cut there, replayed into the file's start.
    let mut direct = World::new(&p.def().unwrap()).unwrap();
    direct.restore(&start).unwrap();
    direct.replay_journal(p.tape_prefix(10).unwrap()).unwrap();
    assert_eq!(direct.hash(), at_10);
}

#[test]
fn diff_finds_the_first_parting_step_and_the_worst_bodies() {
    let a = record(60, 30, 3.0);
    let b = record(60, 30, 3.5);
    let c = record(45, 30, 3.0);
    let mut pa = ReplayPlayer::open(&a).unwrap();
    let mut pb = ReplayPlayer::open(&b).unwrap();
    let ha = direct_hashes(&a);
    let hb = direct_hashes(&b);
    let first = (0..ha.len()).find(|&s| ha[s] != hb[s]).unwrap() as u64;
    // The kick is recorded before step 31's step record: step 31 is the first to differ.
    assert_eq!(first, 31);
    match ReplayPlayer::diff(&mut pa, &mut pb, 4).unwrap() {
        Parting::At {
            step,
            hash_a,
            hash_b,
            differing,
            rows,
        } => {
            assert_eq!(step, first);
            assert_eq!((hash_a, hash_b), (ha[31], hb[31]));
            assert!(differing >= 1);
            assert_eq!(rows.len(), differing.min(4));
            // Worst first, and the kicked box (the last body created) is among them.
            for pair in rows.windows(2) {
                assert!(pair[0].position_error >= pair[1].position_error);
            }
            assert!(rows[0].velocity_error > 0.0);
        }
        other => panic!("expected a parting step, got {other:?}"),
    }
    let mut pc = ReplayPlayer::open(&c).unwrap();
    let mut pa = ReplayPlayer::open(&a).unwrap();
    assert_eq!(
        ReplayPlayer::diff(&mut pa, &mut pc, 4).unwrap(),
        Parting::Length {
            steps_a: 60,
            steps_b: 45
        }
    );
    let mut pa2 = ReplayPlayer::open(&a).unwrap();
    assert_eq!(
        ReplayPlayer::diff(&mut pa, &mut pa2, 4).unwrap(),
        Parting::Agree {
            steps: 60,
            hash: ha[60]
        }
    );
}

#[test]
fn indexing_ahead_takes_every_keyframe_without_moving_the_player() {
    let file = record(70, 25, 3.0);
    let want = direct_hashes(&file);
    let mut p = ReplayPlayer::open_with(&file, 8).unwrap();
    p.seek(5).unwrap();
    assert_eq!(p.indexed_through(), 7);
    let mut calls = 0;
    let mut shown = 5;
    while !p.index_ahead(10).unwrap() {
        calls += 1;
        // The shown step stays where it was.
        assert_eq!(p.current_step(), shown);
        assert_eq!(p.hash_at_current(), want[shown as usize]);
        // The player may move meanwhile; the indexer goes on from the furthest keyframe.
        if calls == 2 {
            shown = 44;
            p.seek(shown).unwrap();
        }
    }
    assert_eq!(p.current_step(), shown);
    // 10 steps a call: to 10, to 20; the seek to 44 took keyframes up to 40, so the
    // indexer jumps there: to 50, to 60, and the fifth call ends at 70.
    assert_eq!(calls, 4);
    assert_eq!(p.indexed_through(), 70);
    // Every keyframe 0, 8, ..., 64 is there: nine snapshots.
    let with_all = p.keyframe_bytes();
    assert!(with_all > 8 * p.start_snapshot().len());
    assert!(p.index_ahead(10).unwrap(), "nothing left to do");
    assert_eq!(p.keyframe_bytes(), with_all);
    // Seeks use them and agree.
    for s in [69u64, 3, 40, 17, 70, 0] {
        p.seek(s).unwrap();
        assert_eq!(p.hash_at_current(), want[s as usize], "seek {s}");
    }
    // A fresh player's keyframes equal an indexed one's: the same snapshots.
    let mut q = ReplayPlayer::open_with(&file, 8).unwrap();
    q.index(|_| {}).unwrap();
    assert_eq!(q.keyframe_bytes(), with_all);
}
