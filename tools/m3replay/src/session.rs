//! A replay file in memory, a world that walks it step by step, and the keyframes that
//! seeking restores.
//!
//! "The state at step S" is the world after the tape's S-th step record, before any call
//! that follows it; step 0 is the starting snapshot. Cutting the tape just past a record
//! leaves a whole tape, so the calls between two step ends, behind a copy of the tape's
//! header, are a tape of their own that replays into the world where the last one ended.

use maul3d::{Result, TAPE_HEADER_SIZE, World, WorldDef, decode_replay, journal_record_ends};

/// Keyframes are kept every this many steps.
pub const KEYFRAME_EVERY: u64 = 30;

/// A decoded replay file: its parts, checked, and where each step ends on the tape.
pub struct Replay {
    /// Bytes of the whole container.
    pub file_len: usize,
    /// The starting snapshot.
    pub snapshot: Vec<u8>,
    /// The tape, header included.
    pub tape: Vec<u8>,
    /// The recorder's hash after the last call.
    pub final_hash: u64,
    /// Records on the tape.
    pub records: u64,
    /// Offsets just past each step record: `step_ends[k]` ends step `k + 1`.
    pub step_ends: Vec<usize>,
}

impl Replay {
    /// Checks a container (`decode_replay`) and indexes its tape's steps.
    pub fn decode(bytes: &[u8]) -> Result<Replay> {
        let view = decode_replay(bytes)?;
        let mut step_ends = Vec::with_capacity(view.steps as usize);
        journal_record_ends(view.tape, |end, is_step| {
            if is_step {
                step_ends.push(end);
            }
        })?;
        Ok(Replay {
            file_len: bytes.len(),
            snapshot: view.snapshot.to_vec(),
            tape: view.tape.to_vec(),
            final_hash: view.final_hash,
            records: view.records,
            step_ends,
        })
    }

    /// Steps on the tape.
    pub fn steps(&self) -> u64 {
        self.step_ends.len() as u64
    }

    /// The def (capacities, settings) of the recorded world.
    pub fn def(&self) -> Result<WorldDef> {
        World::def_from_snapshot(&self.snapshot)
    }

    /// A new world in the starting state.
    pub fn start_world(&self) -> Result<World> {
        let mut w = World::new(&self.def()?)?;
        w.restore(&self.snapshot)?;
        Ok(w)
    }

    /// The tape cut just past step `step`: a whole tape of the session's first `step`
    /// steps (step 0: the header alone, an empty tape).
    pub fn prefix(&self, step: u64) -> &[u8] {
        let end = match step {
            0 => TAPE_HEADER_SIZE,
            s => self.step_ends[s as usize - 1],
        };
        &self.tape[..end]
    }

    /// Where the records of step `step` (1-based) start: just past the previous step.
    fn step_start(&self, step: u64) -> usize {
        match step {
            1 => TAPE_HEADER_SIZE,
            s => self.step_ends[s as usize - 2],
        }
    }
}

/// A world walking a replay forward one step at a time.
pub struct Player<'r> {
    replay: &'r Replay,
    /// The world, in the state at step `at`.
    pub world: World,
    at: u64,
    /// The tape header followed by one step's records, rebuilt for each step.
    segment: Vec<u8>,
}

impl<'r> Player<'r> {
    /// A player at step 0 (the starting snapshot restored).
    pub fn new(replay: &'r Replay) -> Result<Player<'r>> {
        Ok(Player {
            replay,
            world: replay.start_world()?,
            at: 0,
            segment: Vec::new(),
        })
    }

    /// The step whose state the world holds.
    pub fn at(&self) -> u64 {
        self.at
    }

    /// Replays the calls of the next step (the records after this step's end up to and
    /// including the next step record).
    pub fn advance(&mut self) -> Result<()> {
        let next = self.at + 1;
        debug_assert!(next <= self.replay.steps());
        let tape = &self.replay.tape;
        self.segment.clear();
        self.segment.extend_from_slice(&tape[..TAPE_HEADER_SIZE]);
        self.segment.extend_from_slice(
            &tape[self.replay.step_start(next)..self.replay.step_ends[next as usize - 1]],
        );
        self.world.replay_journal(&self.segment)?;
        self.at = next;
        Ok(())
    }

    /// Brings the world to step `step` with a keyframe: restores the nearest one at or
    /// before it and steps forward.
    pub fn seek(&mut self, keyframes: &Keyframes, step: u64) -> Result<()> {
        let k = step / KEYFRAME_EVERY;
        self.world.restore(&keyframes.snapshots[k as usize])?;
        self.at = k * KEYFRAME_EVERY;
        while self.at < step {
            self.advance()?;
        }
        Ok(())
    }
}

/// Snapshots of a session at steps 0, 30, 60, ... (each taken at a step boundary).
pub struct Keyframes {
    snapshots: Vec<Vec<u8>>,
}

impl Keyframes {
    /// Walks the whole session once, keeping a snapshot every `KEYFRAME_EVERY` steps;
    /// `on_step` sees each step as it is reached.
    pub fn build(replay: &Replay, mut on_step: impl FnMut(u64)) -> Result<Keyframes> {
        let mut player = Player::new(replay)?;
        let mut snapshots = vec![replay.snapshot.clone()];
        while player.at() < replay.steps() {
            player.advance()?;
            on_step(player.at());
            if player.at() % KEYFRAME_EVERY == 0 {
                let mut snap = vec![0u8; player.world.snapshot_size()];
                let n = player.world.snapshot(&mut snap)?;
                snap.truncate(n);
                snapshots.push(snap);
            }
        }
        Ok(Keyframes { snapshots })
    }
}
