//! Rollback-aware journals: restoring a snapshot the running journal took rewinds its tape;
//! every other restore while a journal runs is refused with a state error naming the
//! journal.

#![allow(clippy::disallowed_methods)] // measuring results in tests, not simulating

mod common;
use common::*;
use maul3d::math::{DVec3, Quat, Vec3};
use maul3d::{
    BodyDef, BodyId, BodyType, Error, JointDef, JointKind, SNAPSHOT_JOURNAL_SIZE, ShapeDef, Sphere,
    TAPE_HEADER_SIZE, World, WorldDef, decode_replay, encode_replay, encoded_replay_size,
    snapshot_journal,
};

fn def() -> WorldDef {
    WorldDef {
        body_capacity: 96,
        shape_capacity: 96,
        contact_capacity: 1024,
        pair_capacity: 1024,
        joint_capacity: 32,
        ..Default::default()
    }
}

fn snapshot(w: &World) -> Vec<u8> {
    let mut buf = vec![0u8; w.snapshot_size()];
    let n = w.snapshot(&mut buf).unwrap();
    buf.truncate(n);
    buf
}

/// A ground and a small pile: the world every session here starts from.
fn scene() -> World {
    let mut w = World::new(&def()).unwrap();
    ground(&mut w, 0.6);
    for i in 0..6 {
        dynamic_box(
            &mut w,
            DVec3::new((i % 3) as f64 * 0.9 - 0.9, 0.5 + (i / 3) as f64, 0.0),
            Vec3::splat(0.4),
            &ShapeDef::default(),
        );
    }
    w
}

/// xorshift64: the tests' only source of variety, seeded.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    fn unit(&mut self) -> f32 {
        (self.next() >> 40) as f32 / (1u64 << 24) as f32 * 2.0 - 1.0
    }
}

/// One call a session makes, with its ids resolved, so another session can make it again.
#[derive(Clone, Copy, Debug)]
enum Call {
    Spawn {
        at: DVec3,
        half: f32,
        sphere: bool,
        velocity: Vec3,
    },
    Destroy(BodyId),
    Impulse(BodyId, Vec3),
    Velocity(BodyId, Vec3, Vec3),
    Teleport(BodyId, DVec3, Quat),
    Join(BodyId, BodyId),
    Gravity(Vec3),
    Step(u32),
}

fn make(w: &mut World, c: Call) {
    // Ids name slots and generations; in memory they also carry the tag of the world that
    // made them, so a call made again in another session takes that world's tag.
    let tag = w.body_ids().next().map_or(0, |g| g.world); // the ground, made first
    let own = |b: BodyId| BodyId { world: tag, ..b };
    let c = match c {
        Call::Destroy(b) => Call::Destroy(own(b)),
        Call::Impulse(b, i) => Call::Impulse(own(b), i),
        Call::Velocity(b, v, a) => Call::Velocity(own(b), v, a),
        Call::Teleport(b, p, q) => Call::Teleport(own(b), p, q),
        Call::Join(a, b) => Call::Join(own(a), own(b)),
        other => other,
    };
    // A refused call is part of the session too: neither session's tape records it.
    let _ = match c {
        Call::Spawn {
            at,
            half,
            sphere,
            velocity,
        } => w
            .create_body(&BodyDef {
                body_type: BodyType::Dynamic,
                position: at,
                linear_velocity: velocity,
                ..Default::default()
            })
            .and_then(|b| {
                if sphere {
                    let s = Sphere {
                        center: Vec3::ZERO,
                        radius: half,
                    };
                    w.create_sphere_shape(b, &ShapeDef::default(), &s)
                } else {
                    w.create_box_shape(b, &ShapeDef::default(), Vec3::splat(half))
                }
            })
            .map(|_| ()),
        Call::Destroy(b) => w.destroy_body(b),
        Call::Impulse(b, i) => w.apply_linear_impulse_to_center(b, i),
        Call::Velocity(b, v, a) => w.set_body_velocity(b, v, a),
        Call::Teleport(b, p, q) => w.set_body_transform(b, p, q),
        Call::Join(a, b) => w
            .create_joint(&JointDef {
                body_a: a,
                body_b: b,
                kind: JointKind::Spherical,
                ..Default::default()
            })
            .map(|_| ()),
        Call::Gravity(g) => w.set_gravity(g),
        Call::Step(n) => w.step(DT, n),
    };
}

/// The calls of one frame: up to three random calls, then a step.
fn frame(w: &World, rng: &mut Rng) -> Vec<Call> {
    let bodies: Vec<BodyId> = w.body_ids().skip(1).collect(); // not the ground
    let pick = |rng: &mut Rng| {
        if bodies.is_empty() {
            BodyId::NULL
        } else {
            bodies[rng.below(bodies.len() as u64) as usize]
        }
    };
    let mut calls = Vec::new();
    for _ in 0..rng.below(4) {
        let c = match rng.below(8) {
            0 => Call::Spawn {
                at: DVec3::new(rng.unit() as f64 * 3.0, 2.0 + rng.below(3) as f64, 0.0),
                half: 0.25 + rng.below(3) as f32 * 0.1,
                sphere: rng.below(2) == 0,
                velocity: Vec3::new(rng.unit(), 0.0, rng.unit()),
            },
            1 => Call::Destroy(pick(rng)),
            2 => Call::Impulse(pick(rng), Vec3::new(rng.unit(), 3.0, rng.unit())),
            3 => Call::Velocity(pick(rng), Vec3::new(rng.unit() * 2.0, 1.0, 0.0), Vec3::ZERO),
            4 => Call::Teleport(
                pick(rng),
                DVec3::new(rng.unit() as f64, 4.0, rng.unit() as f64),
                Quat::from_axis_angle(Vec3::Y, rng.unit()),
            ),
            5 => Call::Join(pick(rng), pick(rng)),
            6 => Call::Gravity(Vec3::new(rng.unit(), -9.81, 0.0)),
            _ => Call::Impulse(pick(rng), Vec3::new(0.0, 1.0, 0.0)),
        };
        calls.push(c);
    }
    calls.push(Call::Step(1 + rng.below(4) as u32));
    calls
}

fn is_journal_refusal(e: Error) -> bool {
    matches!(e, Error::State(why) if why.contains("journal"))
}

/// A restore that must be refused: a state error naming the journal, and nothing changed
/// (world and tape).
fn assert_refused(w: &mut World, snap: &[u8], what: &str) {
    let (hash, tape) = (w.hash(), w.journal_tape().to_vec());
    let e = w.restore(snap).expect_err(what);
    assert!(is_journal_refusal(e), "{what}: {e}");
    assert_eq!(
        w.hash(),
        hash,
        "{what}: the refused restore changed the world"
    );
    assert_eq!(w.journal_tape(), &tape[..], "{what}: it changed the tape");
}

#[test]
fn fifty_random_rollbacks_leave_the_tape_of_the_surviving_calls() {
    for seed in [0x5eed_u64, 0xdead_beef, 0x1234_5678_9abc] {
        let mut rng = Rng(seed);
        let mut w = scene();
        let start = snapshot(&w);
        w.start_journal(1 << 22).unwrap();
        // Per frame on the current branch: the snapshot at its start and how many of the
        // surviving calls came before it.
        let mut history: Vec<(Vec<u8>, usize)> = Vec::new();
        let mut surviving: Vec<Call> = Vec::new();
        let (mut rollbacks, mut frames, mut stale_refused) = (0, 0, 0);
        while rollbacks < 50 {
            if history.len() >= 8 && rng.below(10) == 0 {
                let back = 1 + rng.below(8) as usize; // 1–8 steps
                let to = history.len() - back;
                let (snap, calls_before) = history[to].clone();
                // The snapshots after it, and one taken now, lie on the branch about to
                // be rewound past.
                let mut abandoned = history[to + 1..].to_vec();
                abandoned.push((snapshot(&w), surviving.len()));
                w.restore(&snap).unwrap();
                surviving.truncate(calls_before);
                history.truncate(to);
                rollbacks += 1;
                // The tape ends where the snapshot was taken.
                let mark = snapshot_journal(&snap).unwrap().unwrap();
                assert_eq!(w.journal_tape().len() as u64, mark.tape_offset);
                let (stale, _) = &abandoned[rng.below(abandoned.len() as u64) as usize];
                assert_refused(&mut w, stale, "a snapshot from a rewound branch");
                stale_refused += 1;
            }
            history.push((snapshot(&w), surviving.len()));
            for c in frame(&w, &mut rng) {
                make(&mut w, c);
                surviving.push(c);
            }
            frames += 1;
        }
        let len = w.stop_journal().unwrap();
        let tape = w.journal_tape()[..len].to_vec();
        assert!(
            // Enough history survives for the comparison to mean something.
            history.len() >= 100 && frames > history.len() + 100 && stale_refused == 50,
            "{frames} frames made, {} survive, {stale_refused} refusals",
            history.len()
        );

        // A session that made only the surviving calls records the same bytes.
        let mut straight = scene();
        straight.start_journal(1 << 22).unwrap();
        for &c in &surviving {
            make(&mut straight, c);
        }
        straight.stop_journal().unwrap();
        assert_eq!(
            straight.journal_tape(),
            &tape[..],
            "seed {seed:#x}: tapes differ"
        );
        assert_eq!(straight.hash(), w.hash(), "seed {seed:#x}");

        // And the tape replays from the start to the world's hash, in a container too.
        let mut out = vec![0u8; encoded_replay_size(start.len(), tape.len())];
        let n = encode_replay(&start, &tape, w.hash(), &mut out).unwrap();
        let view = decode_replay(&out[..n]).unwrap();
        let mut verifier = World::new(&World::def_from_snapshot(view.snapshot).unwrap()).unwrap();
        verifier.restore(view.snapshot).unwrap();
        verifier.replay_journal(view.tape).unwrap();
        assert_eq!(
            verifier.hash(),
            view.final_hash,
            "seed {seed:#x}: replay mismatch"
        );
        println!(
            "seed {seed:#x}: {frames} frames made, 50 rollbacks, {} frames and {} calls \
             survive; tape of {} bytes",
            history.len(),
            surviving.len(),
            tape.len()
        );
    }
}

#[test]
fn a_snapshot_taken_with_no_journal_running_is_refused_while_one_runs() {
    let mut w = scene();
    let before = snapshot(&w);
    assert_eq!(snapshot_journal(&before).unwrap(), None);
    w.start_journal(1 << 16).unwrap();
    w.step(DT, SUBSTEPS).unwrap();
    assert_refused(
        &mut w,
        &before,
        "a snapshot from before the journal started",
    );
    // Once the journal stops, the same snapshot restores.
    w.stop_journal().unwrap();
    let tape = w.journal_tape().to_vec();
    w.restore(&before).unwrap();
    assert_eq!(w.hash(), scene().hash());
    assert_eq!(
        w.journal_tape(),
        &tape[..],
        "a stopped journal's tape stays"
    );
}

#[test]
fn a_snapshot_from_another_journal_is_refused() {
    let mut w = scene();
    let start = snapshot(&w);
    w.start_journal(1 << 16).unwrap();
    let first = snapshot(&w);
    w.step(DT, SUBSTEPS).unwrap();
    w.stop_journal().unwrap();
    w.restore(&start).unwrap();
    // The same world, the same (empty) tape so far: only the journal differs.
    w.start_journal(1 << 16).unwrap();
    let m1 = snapshot_journal(&first).unwrap().unwrap();
    let m2 = snapshot_journal(&snapshot(&w)).unwrap().unwrap();
    assert_eq!((m1.journal, m2.journal), (1, 2));
    assert_eq!(
        (m1.start_hash, m1.tape_offset),
        (m2.start_hash, m2.tape_offset)
    );
    assert_refused(&mut w, &first, "a snapshot of the world's first journal");

    // A journal of another world, started on another state, at the same offset.
    let mut other = World::new(&def()).unwrap();
    ground(&mut other, 0.6);
    other.start_journal(1 << 16).unwrap();
    let foreign = snapshot(&other);
    let mut fresh = scene();
    fresh.start_journal(1 << 16).unwrap();
    assert_eq!(snapshot_journal(&foreign).unwrap().unwrap().journal, 1);
    assert_refused(
        &mut fresh,
        &foreign,
        "a snapshot of another world's journal",
    );
}

#[test]
fn a_snapshot_from_a_branch_the_tape_was_rewound_past_is_refused() {
    let mut w = scene();
    w.start_journal(1 << 16).unwrap();
    let early = snapshot(&w);
    w.step(DT, SUBSTEPS).unwrap();
    let late = snapshot(&w);
    w.restore(&early).unwrap();
    assert_eq!(w.journal_tape().len(), TAPE_HEADER_SIZE);
    // Past the tape's end.
    assert_refused(&mut w, &late, "a snapshot past the tape's end");
    // Within the tape again, but another history: the tape's records differ.
    w.step(DT, 2).unwrap();
    w.step(DT, 2).unwrap();
    assert!(w.journal_tape().len() as u64 > snapshot_journal(&late).unwrap().unwrap().tape_offset);
    assert_refused(
        &mut w,
        &late,
        "a snapshot whose records were rewound and rewritten",
    );
    // A branch that makes the very same calls again is the same history: its snapshot
    // restores (the tape replays to it).
    w.restore(&early).unwrap();
    w.step(DT, SUBSTEPS).unwrap();
    let hash = w.hash();
    w.step(DT, SUBSTEPS).unwrap();
    w.restore(&late).unwrap();
    assert_eq!(w.hash(), hash);
}

#[test]
fn with_no_journal_running_a_journal_snapshot_just_restores() {
    let mut w = scene();
    w.start_journal(1 << 16).unwrap();
    w.step(DT, SUBSTEPS).unwrap();
    let mid = snapshot(&w);
    let hash = w.hash();
    let mark = snapshot_journal(&mid).unwrap().unwrap();
    assert_eq!(mark.journal, 1);
    assert!(!mark.tape_cut);
    w.step(DT, SUBSTEPS).unwrap();
    let len = w.stop_journal().unwrap();
    w.restore(&mid).unwrap();
    assert_eq!(w.hash(), hash);
    assert_eq!(
        w.journal_tape().len(),
        len,
        "a stopped journal's tape is not rewound"
    );
    // In another world that never ran a journal, too.
    let mut t = World::new(&World::def_from_snapshot(&mid).unwrap()).unwrap();
    t.restore(&mid).unwrap();
    assert_eq!(t.hash(), hash);
}

#[test]
fn a_journal_changes_neither_the_hash_nor_the_state_part_of_a_snapshot() {
    let mut a = scene();
    let mut b = scene();
    b.start_journal(1 << 16).unwrap();
    for _ in 0..20 {
        a.step(DT, SUBSTEPS).unwrap();
        b.step(DT, SUBSTEPS).unwrap();
    }
    assert_eq!(a.hash(), b.hash());
    let (sa, sb) = (snapshot(&a), snapshot(&b));
    assert_eq!(sa.len(), sb.len());
    let state = 32..sa.len() - SNAPSHOT_JOURNAL_SIZE;
    assert_eq!(
        sa[state.clone()],
        sb[state],
        "only the journal section differs"
    );
    assert_ne!(sa, sb);
    // A snapshot restored while its journal runs writes back byte for byte.
    b.restore(&sb).unwrap();
    assert_eq!(snapshot(&b), sb);
}

#[test]
fn a_rollback_before_an_overflow_makes_the_tape_whole_again() {
    let mut w = scene();
    w.start_journal(TAPE_HEADER_SIZE + 200).unwrap();
    let early = snapshot(&w);
    for _ in 0..30 {
        w.step(DT, SUBSTEPS).unwrap();
    }
    let cut = snapshot(&w);
    let m = snapshot_journal(&cut).unwrap().unwrap();
    assert!(m.tape_cut, "the tape overflowed");
    // A snapshot taken after the cut restores while the tape is still cut there...
    w.step(DT, SUBSTEPS).unwrap();
    w.restore(&cut).unwrap();
    assert_eq!(w.journal_tape().len() as u64, m.tape_offset);
    // ...a rollback before the cut makes the tape whole again...
    w.restore(&early).unwrap();
    assert_eq!(w.journal_tape().len(), TAPE_HEADER_SIZE);
    // ...and the cut snapshot is then from a branch rewound past.
    w.step(DT, SUBSTEPS).unwrap();
    assert_refused(&mut w, &cut, "a snapshot taken after the tape was cut");
    let len = w.stop_journal().unwrap();
    let mut straight = scene();
    straight.start_journal(TAPE_HEADER_SIZE + 200).unwrap();
    straight.step(DT, SUBSTEPS).unwrap();
    straight.stop_journal().unwrap();
    assert_eq!(w.journal_tape()[..len], *straight.journal_tape());
}

#[test]
fn revision_6_snapshots_still_restore_and_carry_no_journal() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/repro");
    let mut read = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "bin") {
            continue;
        }
        let bytes = std::fs::read(&path).unwrap();
        assert_eq!(u32::from_le_bytes(bytes[8..12].try_into().unwrap()), 6);
        assert_eq!(snapshot_journal(&bytes).unwrap(), None, "{path:?}");
        let mut w = World::new(&World::def_from_snapshot(&bytes).unwrap()).unwrap();
        w.restore(&bytes).unwrap();
        let hash = w.hash();
        // Written back at the current revision: the same state, a journal section, and
        // (from revision 9) the character, vehicle and water capacities and (from 10) the
        // soft body capacities and (from 11) the bound on the bodies a soft body ignores,
        // with the byte saying their stores are absent, after the 44 bytes of the other
        // capacities.
        let again = snapshot(&w);
        let extra = 5 * 4 + 2;
        assert_eq!(again.len(), bytes.len() + extra + SNAPSHOT_JOURNAL_SIZE);
        assert_eq!(again[32..32 + 44], bytes[32..32 + 44], "{path:?}");
        assert_eq!(again[32 + 44 + extra - 1], 0, "{path:?}");
        assert_eq!(
            again[32 + 44 + extra..bytes.len() + extra],
            bytes[32 + 44..],
            "{path:?}"
        );
        let mut t = World::new(&World::def_from_snapshot(&again).unwrap()).unwrap();
        t.restore(&again).unwrap();
        assert_eq!(t.hash(), hash);
        // And like every snapshot without a journal, refused while one runs.
        w.start_journal(1 << 12).unwrap();
        assert_refused(&mut w, &bytes, "a revision-6 snapshot");
        read += 1;
    }
    assert!(read >= 5, "{read} files");
}

/// FNV-1a-64, to make a snapshot's checksum agree with a hand-edited payload.
fn fnv(bytes: &[u8]) -> u64 {
    let mut h = 0xcbf2_9ce4_8422_2325u64;
    for &b in bytes {
        h = (h ^ b as u64).wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

#[test]
fn a_damaged_journal_section_is_a_format_error() {
    let mut w = scene();
    w.start_journal(1 << 16).unwrap();
    w.step(DT, SUBSTEPS).unwrap();
    let good = snapshot(&w);
    let section = good.len() - SNAPSHOT_JOURNAL_SIZE;
    let reseal = |mut b: Vec<u8>| {
        let sum = fnv(&b[32..]);
        b[24..32].copy_from_slice(&sum.to_le_bytes());
        b
    };
    let hash = w.hash();
    type Edit = fn(&mut [u8]);
    let cases: [(&str, Edit); 4] = [
        ("unknown flag", |s| s[0] |= 4),
        ("journal 0", |s| s[4..12].fill(0)),
        ("offset inside the header", |s| {
            s[20..28].copy_from_slice(&3u64.to_le_bytes())
        }),
        ("no journal but fields set", |s| s[0] = 0),
    ];
    for (what, edit) in cases {
        let mut b = good.clone();
        edit(&mut b[section..]);
        let b = reseal(b);
        assert!(
            matches!(w.restore(&b), Err(Error::Format(_))),
            "{what}: {:?}",
            w.restore(&b)
        );
        assert!(
            matches!(snapshot_journal(&b), Err(Error::Format(_))),
            "{what}"
        );
        assert_eq!(w.hash(), hash);
    }
    // Every single-bit flip of the section fails the checksum.
    for byte in section..good.len() {
        for bit in 0..8 {
            let mut b = good.clone();
            b[byte] ^= 1 << bit;
            assert!(matches!(w.restore(&b), Err(Error::Format(_))));
        }
    }
    // A revision-7 snapshot relabelled 6 (its section read as state) is damaged.
    let mut six = good.clone();
    six[8..12].copy_from_slice(&6u32.to_le_bytes());
    assert!(matches!(w.restore(&six), Err(Error::Format(_))));
}
