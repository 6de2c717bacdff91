//! The replay player: a replay container in memory, a world that walks it step by step,
//! keyframes that make seeking fast, verification and the comparison of two recordings.
//! Written once here for every host: `m3replay`, the C ABI (`m3ReplayPlayer_*`, which the
//! Unreal plugin uses) and Godot's `Maul3DReplayPlayer` are thin layers over it.
//!
//! "The state at step S" is the world after the tape's S-th step record, before any call
//! that follows it; step 0 is the starting snapshot. Cutting the tape just past a record
//! leaves a whole tape, so the calls of one step, behind a copy of the tape's header, are
//! a tape of their own that replays into the world where the previous step ended.
//!
//! Keyframes are snapshots at steps 0, K, 2K, ... taken as the player passes them, so
//! opening a file replays nothing and a near seek only walks forward from the nearest
//! known point. K is chosen when the file opens so that keyframes of the whole session
//! would stay within [`KEYFRAME_BUDGET`] bytes if each were the starting snapshot's size,
//! and never below [`KEYFRAME_MIN_EVERY`]; [`ReplayPlayer::open_with`] picks it by hand.
//! Later snapshots are larger than the first (contacts, islands; about twice the size in
//! a 200-body pile), so the estimate alone does not bound memory: when the keyframes
//! taken pass the budget, K doubles and the keyframes off the new spacing are dropped
//! (they all sit on multiples of the old K, so every other one stays). Memory stays
//! within the budget and a seek replays at most K - 1 steps.
//! A player is a tool for hosts, outside the step: it allocates as it needs.

use super::container::decode_replay;
use super::{TAPE_HEADER_SIZE, journal_record_ends};
use crate::compare::BodyDiff;
use crate::def::WorldDef;
use crate::error::{Error, Result};
use crate::world::World;

/// The keyframes of a session are kept within about this many bytes.
pub const KEYFRAME_BUDGET: usize = 64 << 20;
/// Keyframes are never closer than this many steps.
pub const KEYFRAME_MIN_EVERY: u64 = 30;

/// What replaying a whole recording gave ([`ReplayPlayer::verify`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Verdict {
    /// The hash the recorder stored after its last call.
    pub recorded: u64,
    /// The hash here after replaying every call.
    pub replayed: u64,
}

impl Verdict {
    /// The replay ended on the recorded state.
    pub fn matches(&self) -> bool {
        self.recorded == self.replayed
    }
}

/// Where two recordings part ([`ReplayPlayer::diff`]).
#[derive(Clone, Debug, PartialEq)]
pub enum Parting {
    /// Same hash at every step both have, and the same number of steps.
    Agree {
        /// Steps of each recording.
        steps: u64,
        /// The hash at the last step.
        hash: u64,
    },
    /// Same hash at every step both have; one recording goes on longer.
    Length {
        /// Steps of the first recording.
        steps_a: u64,
        /// Steps of the second recording.
        steps_b: u64,
    },
    /// The first step whose states differ, and the bodies that differ there.
    At {
        /// The step.
        step: u64,
        /// The first recording's hash there.
        hash_a: u64,
        /// The second recording's hash there.
        hash_b: u64,
        /// How many body slots differ (rows may hold fewer).
        differing: usize,
        /// The worst differing bodies, worst first (`World::compare`).
        rows: Vec<BodyDiff>,
    },
}

/// A replay file opened for playing: the decoded parts, a world in the state of one step,
/// and the keyframes passed so far. The player's world is only changed by the player.
pub struct ReplayPlayer {
    snapshot: Vec<u8>,
    tape: Vec<u8>,
    final_hash: u64,
    records: u64,
    file_len: usize,
    /// Offsets just past each step record: `step_ends[k]` ends step `k + 1`.
    step_ends: Vec<usize>,
    world: World,
    at: u64,
    every: u64,
    /// `keyframes[k]`: the snapshot at step `k * every`, once the player has been there.
    keyframes: Vec<Option<Vec<u8>>>,
    /// Bytes the keyframes hold, and the most they may.
    keyframe_bytes: usize,
    budget: usize,
    /// The tape header followed by one step's records, rebuilt for each step.
    segment: Vec<u8>,
    /// The world that `index_ahead` walks, and the step it holds.
    indexer: Option<(World, u64)>,
}

/// Fills `segment` with a whole tape of step `next`'s calls: the tape's header, then the
/// records after the previous step record up to and including step `next`'s.
fn fill_segment(segment: &mut Vec<u8>, tape: &[u8], step_ends: &[usize], next: u64) {
    let start = match next {
        1 => TAPE_HEADER_SIZE,
        s => step_ends[s as usize - 2],
    };
    segment.clear();
    segment.extend_from_slice(&tape[..TAPE_HEADER_SIZE]);
    segment.extend_from_slice(&tape[start..step_ends[next as usize - 1]]);
}

fn take_snapshot(world: &World) -> Result<Vec<u8>> {
    let mut snap = vec![0u8; world.snapshot_size()];
    let n = world.snapshot(&mut snap)?;
    snap.truncate(n);
    Ok(snap)
}

impl ReplayPlayer {
    /// Opens a replay container (checked by `decode_replay`: damaged files and files of
    /// another format version are refused) at step 0, with keyframes chosen for its size.
    pub fn open(bytes: &[u8]) -> Result<ReplayPlayer> {
        let view = decode_replay(bytes)?;
        let per_keyframe = view.snapshot.len().max(1) as u64;
        let kept = (KEYFRAME_BUDGET as u64 / per_keyframe).max(1);
        let every = view.steps.div_ceil(kept).max(KEYFRAME_MIN_EVERY);
        ReplayPlayer::open_with(bytes, every)
    }

    /// Opens a replay container keeping a keyframe every `keyframe_every` steps (at
    /// least 1).
    pub fn open_with(bytes: &[u8], keyframe_every: u64) -> Result<ReplayPlayer> {
        if keyframe_every == 0 {
            return Err(Error::Argument {
                name: "keyframe_every",
                value: 0.0,
                expected: "at least 1 step",
            });
        }
        let view = decode_replay(bytes)?;
        let mut step_ends = Vec::with_capacity(view.steps as usize);
        journal_record_ends(view.tape, |end, is_step| {
            if is_step {
                step_ends.push(end);
            }
        })?;
        let def = World::def_from_snapshot(view.snapshot)?;
        let mut world = World::new(&def)?;
        world.restore(view.snapshot)?;
        let slots = (step_ends.len() as u64 / keyframe_every + 1) as usize;
        let mut keyframes = vec![None; slots];
        keyframes[0] = Some(view.snapshot.to_vec());
        Ok(ReplayPlayer {
            keyframe_bytes: view.snapshot.len(),
            budget: KEYFRAME_BUDGET,
            snapshot: view.snapshot.to_vec(),
            tape: view.tape.to_vec(),
            final_hash: view.final_hash,
            records: view.records,
            file_len: bytes.len(),
            step_ends,
            world,
            at: 0,
            every: keyframe_every,
            keyframes,
            segment: Vec::new(),
            indexer: None,
        })
    }

    /// Steps on the tape: the player's steps are `0..=step_count()`.
    pub fn step_count(&self) -> u64 {
        self.step_ends.len() as u64
    }

    /// The step whose state the world holds.
    pub fn current_step(&self) -> u64 {
        self.at
    }

    /// The world in the state of the current step (read it; the player owns it).
    pub fn world(&self) -> &World {
        &self.world
    }

    /// The world's hash at the current step.
    pub fn hash_at_current(&self) -> u64 {
        self.world.hash()
    }

    /// The hash the recorder stored after its last call.
    pub fn recorded_final_hash(&self) -> u64 {
        self.final_hash
    }

    /// Records on the tape.
    pub fn record_count(&self) -> u64 {
        self.records
    }

    /// Bytes of the container.
    pub fn file_len(&self) -> usize {
        self.file_len
    }

    /// The starting snapshot.
    pub fn start_snapshot(&self) -> &[u8] {
        &self.snapshot
    }

    /// The tape, header included.
    pub fn tape(&self) -> &[u8] {
        &self.tape
    }

    /// The def (capacities, settings) of the recorded world.
    pub fn def(&self) -> Result<WorldDef> {
        World::def_from_snapshot(&self.snapshot)
    }

    /// Keyframes are kept every this many steps.
    pub fn keyframe_every(&self) -> u64 {
        self.every
    }

    /// Bytes the keyframes taken so far hold.
    pub fn keyframe_bytes(&self) -> usize {
        self.keyframe_bytes
    }

    /// Keeps the keyframes within `bytes` from now on (default [`KEYFRAME_BUDGET`]), for a
    /// host with less memory to spare: past it the spacing doubles. The starting
    /// snapshot is always kept, whatever its size.
    pub fn set_keyframe_budget(&mut self, bytes: usize) {
        self.budget = bytes;
        self.thin_to_budget();
    }

    /// Doubles the spacing, keeping the keyframes on the new one, until the keyframes fit
    /// the budget or only step 0's is left.
    fn thin_to_budget(&mut self) {
        while self.keyframe_bytes > self.budget && self.keyframes.len() > 1 {
            self.every *= 2;
            let kept: Vec<Option<Vec<u8>>> = self
                .keyframes
                .iter_mut()
                .step_by(2)
                .map(Option::take)
                .collect();
            self.keyframes = kept;
            self.keyframes
                .resize((self.step_count() / self.every + 1) as usize, None);
            self.keyframe_bytes = self.keyframes.iter().flatten().map(Vec::len).sum();
        }
    }

    /// The tape cut just past step `step`: a whole tape of the session's first `step`
    /// steps (step 0: the header alone).
    pub fn tape_prefix(&self, step: u64) -> Result<&[u8]> {
        self.check_step(step, "step")?;
        let end = match step {
            0 => TAPE_HEADER_SIZE,
            s => self.step_ends[s as usize - 1],
        };
        Ok(&self.tape[..end])
    }

    fn check_step(&self, step: u64, name: &'static str) -> Result<()> {
        if step > self.step_count() {
            return Err(Error::Argument {
                name,
                value: step as f64,
                expected: "at most the recording's step count",
            });
        }
        Ok(())
    }

    /// Replays the calls of the next step; returns false (and changes nothing) at the last
    /// step.
    pub fn step_forward(&mut self) -> Result<bool> {
        if self.at == self.step_count() {
            return Ok(false);
        }
        let next = self.at + 1;
        fill_segment(&mut self.segment, &self.tape, &self.step_ends, next);
        if let Err(e) = self.world.replay_journal_unguarded(&self.segment) {
            // The world stopped part way through the step: put it back on the step it was
            // at, from a keyframe (the steps up to it replayed before, so they replay again).
            let at = self.at;
            self.restore_keyframe_before(at)?;
            self.seek(at)?;
            return Err(e);
        }
        self.at = next;
        if self.wants_keyframe(next) {
            let snap = take_snapshot(&self.world)?;
            self.keep_keyframe(next, snap);
        }
        Ok(true)
    }

    /// Whether `step` sits on the keyframe spacing and its keyframe is not taken yet.
    fn wants_keyframe(&self, step: u64) -> bool {
        step % self.every == 0 && self.keyframes[(step / self.every) as usize].is_none()
    }

    fn keep_keyframe(&mut self, step: u64, snap: Vec<u8>) {
        self.keyframe_bytes += snap.len();
        self.keyframes[(step / self.every) as usize] = Some(snap);
        self.thin_to_budget();
    }

    /// Takes keyframes ahead of the player without moving it: a second world walks on
    /// from the furthest keyframe, at most `max_steps` steps per call, keeping keyframes
    /// as it passes their steps. Returns true once every keyframe exists (then seeks
    /// anywhere replay at most `keyframe_every() - 1` steps). For a viewer that indexes a
    /// long recording a little every frame instead of all at once; the shown step, its
    /// world and hash stay as they are.
    pub fn index_ahead(&mut self, max_steps: u64) -> Result<bool> {
        let furthest = self.keyframe_before(self.step_count()).1;
        let (mut world, mut at) = match self.indexer.take() {
            // Still ahead of every keyframe the player took meanwhile: go on from there.
            Some((world, at)) if at >= furthest => (world, at),
            other => {
                let mut world = match other {
                    Some((world, _)) => world,
                    None => World::new(&self.def()?)?,
                };
                let (k, from) = self.keyframe_before(self.step_count());
                world.restore(self.keyframes[k].as_ref().unwrap_or(&self.snapshot))?;
                (world, from)
            }
        };
        let mut walked = 0;
        while at < self.step_count() && walked < max_steps {
            let next = at + 1;
            fill_segment(&mut self.segment, &self.tape, &self.step_ends, next);
            // A refusal drops the indexer: the next call starts again from a keyframe.
            world.replay_journal_unguarded(&self.segment)?;
            at = next;
            walked += 1;
            if self.wants_keyframe(at) {
                self.keep_keyframe(at, take_snapshot(&world)?);
            }
        }
        let done = self.indexed_through() == self.step_count();
        if !done {
            self.indexer = Some((world, at));
        }
        Ok(done)
    }

    /// The step up to which keyframes are complete: a seek to any step up to it replays
    /// at most `keyframe_every() - 1` steps (`step_count()` once indexed).
    pub fn indexed_through(&self) -> u64 {
        match self.keyframes.iter().position(Option::is_none) {
            Some(k) => (k as u64 * self.every)
                .saturating_sub(1)
                .min(self.step_count()),
            None => self.step_count(),
        }
    }

    /// Goes back one step (a seek); returns false at step 0.
    pub fn step_back(&mut self) -> Result<bool> {
        if self.at == 0 {
            return Ok(false);
        }
        self.seek(self.at - 1)?;
        Ok(true)
    }

    /// Brings the world to step `step`: from the current step when it lies between the
    /// nearest keyframe and the target, else from the nearest keyframe at or before it.
    pub fn seek(&mut self, step: u64) -> Result<()> {
        self.check_step(step, "seek step")?;
        let from = self.keyframe_before(step).1;
        if !(self.at <= step && self.at >= from) {
            self.restore_keyframe_before(step)?;
        }
        while self.at < step {
            self.step_forward()?;
        }
        Ok(())
    }

    /// The nearest keyframe at or before `step`: its index and its step.
    fn keyframe_before(&self, step: u64) -> (usize, u64) {
        let k = (step / self.every) as usize;
        let known = (0..=k)
            .rev()
            .find(|&i| self.keyframes[i].is_some())
            .unwrap_or(0);
        (known, known as u64 * self.every)
    }

    /// Restores the nearest keyframe at or before `step`.
    fn restore_keyframe_before(&mut self, step: u64) -> Result<()> {
        let (known, from) = self.keyframe_before(step);
        let snap = self.keyframes[known].as_ref().unwrap_or(&self.snapshot);
        self.world.restore(snap)?;
        self.at = from;
        Ok(())
    }

    /// Walks the whole recording once so every keyframe exists (later seeks anywhere
    /// replay at most `keyframe_every() - 1` steps); `on_step` sees each step reached.
    /// Ends at the last step.
    pub fn index(&mut self, mut on_step: impl FnMut(u64)) -> Result<()> {
        let last_known = (0..self.keyframes.len())
            .rev()
            .find(|&i| self.keyframes[i].is_some())
            .unwrap_or(0) as u64
            * self.every;
        if self.at < last_known {
            self.seek(last_known)?;
        }
        while self.step_forward()? {
            on_step(self.at);
        }
        Ok(())
    }

    /// Replays the whole recording — every step, then any calls after the last step — and
    /// compares the hash with the one the recorder stored. Leaves the player at the last
    /// step.
    pub fn verify(&mut self) -> Result<Verdict> {
        self.verify_with(|_| {})
    }

    /// [`verify`](Self::verify), with `on_step` called at each step reached.
    pub fn verify_with(&mut self, on_step: impl FnMut(u64)) -> Result<Verdict> {
        self.index(on_step)?;
        let tail_start = self.step_ends.last().copied().unwrap_or(TAPE_HEADER_SIZE);
        if tail_start == self.tape.len() {
            return Ok(Verdict {
                recorded: self.final_hash,
                replayed: self.world.hash(),
            });
        }
        // Calls after the last step: replay them, then put the last step's state back.
        let here = take_snapshot(&self.world)?;
        self.segment.clear();
        self.segment
            .extend_from_slice(&self.tape[..TAPE_HEADER_SIZE]);
        self.segment.extend_from_slice(&self.tape[tail_start..]);
        let replayed = self
            .world
            .replay_journal(&self.segment)
            .map(|()| self.world.hash());
        self.world.restore(&here)?;
        Ok(Verdict {
            recorded: self.final_hash,
            replayed: replayed?,
        })
    }

    /// Compares two recordings step by step from the start: the first step where their
    /// hashes differ and the worst `max_rows` differing bodies there. Recordings of
    /// worlds with different capacities cannot be compared slot by slot and are refused.
    /// Both players are left at the parting step (or the last shared step).
    pub fn diff(a: &mut ReplayPlayer, b: &mut ReplayPlayer, max_rows: usize) -> Result<Parting> {
        let (da, db) = (a.def()?, b.def()?);
        let caps = |d: &WorldDef| {
            [
                d.body_capacity,
                d.shape_capacity,
                d.contact_capacity,
                d.pair_capacity,
                d.hull_capacity,
                d.event_capacity,
            ]
        };
        if caps(&da) != caps(&db) {
            return Err(Error::Argument {
                name: "second recording's capacities",
                value: db.body_capacity as f64,
                expected: "the same world capacities as the first recording (bodies, shapes, contacts, pairs, hulls, events)",
            });
        }
        a.seek(0)?;
        b.seek(0)?;
        let shared = a.step_count().min(b.step_count());
        loop {
            let (ha, hb) = (a.world.hash(), b.world.hash());
            if ha != hb {
                let mut rows = vec![BodyDiff::default(); max_rows];
                let differing = World::compare(&a.world, &b.world, &mut rows);
                rows.truncate(differing.min(max_rows));
                return Ok(Parting::At {
                    step: a.at,
                    hash_a: ha,
                    hash_b: hb,
                    differing,
                    rows,
                });
            }
            if a.at == shared {
                break;
            }
            a.step_forward()?;
            b.step_forward()?;
        }
        if a.step_count() != b.step_count() {
            return Ok(Parting::Length {
                steps_a: a.step_count(),
                steps_b: b.step_count(),
            });
        }
        Ok(Parting::Agree {
            steps: shared,
            hash: a.world.hash(),
        })
    }
}
