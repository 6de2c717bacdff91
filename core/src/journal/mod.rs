//! The journal: every call that changes a world, in order, as a tape of bytes; replay; and
//! the replay container (starting snapshot + tape + final hash).
//!
//! Tape layout (little-endian, identical on every target):
//! - header, 16 bytes: magic `M3TP`, major u16, minor u16, flags u32 (bit 0: overflowed),
//!   reserved u32 (0). No record count, so every prefix cut at a record boundary is a
//!   whole tape.
//! - records: `len u32` (bytes of kind + payload), `kind u16`, payload, `check u32` (the
//!   low 32 bits of FNV-1a-64 over kind and payload).
//!
//! Rollback-aware: a snapshot taken while a journal runs carries, outside the hashed
//! state, the journal's identity — its serial in the world (1 for the first journal
//! started, counting up; a counter, not state, so it survives restores and is the same in
//! every run) and the world's hash when it started — plus the tape's length then and an
//! FNV-1a-64 checksum of the tape's records up to it. Restoring that snapshot while the
//! same journal runs truncates the tape back to that length (the tape then holds the
//! history the world lived, byte for byte the tape of a session that made only the
//! surviving calls). Restoring any other snapshot while a journal runs is a state error:
//! one taken with no journal running (so before this one started), one from another
//! journal (serial or start hash differ), or one from a branch the tape has been rewound
//! past (its offset is past the tape's end, or the records before it differ). A rewind
//! also clears a cut (overflowed) tape when it goes back before the cut. With no journal
//! running, restore ignores the section.
//!
//! A record is written after its call succeeded, so refused calls never reach the tape.
//! Calls that only forward to another recorded call (`set_body_linear_velocity`,
//! `apply_linear_impulse_to_center`, `create_box_shape`, `set_body_target_transform`, …)
//! are recorded as the call they make.

//!
//! Files: this one holds the journal itself (tape header, start and stop, the snapshot's
//! journal section and rollback marks, the replay loop); `ops.rs` the table of every
//! recorded call (kind, fields, replay), from which the writers and the replay dispatch
//! are generated; `container.rs` the tape checks and the replay container format.

mod container;
mod ops;
mod player;

pub use container::{
    CONTAINER_HEADER_SIZE, CONTAINER_REVISION, JournalInfo, ReplayView, decode_replay,
    describe_journal, encode_replay, encoded_replay_size, journal_record_ends, snapshot_journal,
};
use ops::kind;
pub use player::{KEYFRAME_BUDGET, KEYFRAME_MIN_EVERY, Parting, ReplayPlayer, Verdict};

use crate::alloc::FixedVec;
use crate::codec::{Dec, Enc, Fnv, Sink, check};
use crate::error::{Error, Result};
use crate::world::World;
use container::frame_at;

/// Bytes of a tape's header.
pub const TAPE_HEADER_SIZE: usize = 16;
const TAPE_MAGIC: [u8; 4] = *b"M3TP";
/// Tape format major version.
pub const TAPE_MAJOR: u16 = 0;
/// Tape format minor version: a tape of another minor version is refused (3: cylinder
/// and plane geometry in `CREATE_SHAPE`).
pub const TAPE_MINOR: u16 = 3;
const FLAG_OVERFLOWED: u32 = 1;

/// A running (or stopped) journal.
pub(crate) struct Journal {
    buf: FixedVec<u8>,
    running: bool,
    overflowed: bool,
    /// Which journal of its world this is: 1 for the first started, counting up. Not
    /// state (no hash, no snapshot state): restore leaves it alone, so it survives
    /// rollbacks, and it is the same number in every run of the same calls.
    serial: u64,
    /// The world's hash when this journal started.
    start_hash: u64,
    /// FNV-1a-64 over the tape's records so far (header left out): kept record by record
    /// so that a snapshot marks its tape position in O(1).
    sum: u64,
}

/// What a snapshot records of the journal that ran while it was taken (the last
/// `SNAPSHOT_JOURNAL_SIZE` bytes of a revision-7 payload; outside the hashed state). A
/// restore while that same journal runs rewinds its tape to `tape_offset`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SnapshotJournal {
    /// Which journal of its world took the snapshot (1 for the first started).
    pub journal: u64,
    /// The world's hash when that journal started.
    pub start_hash: u64,
    /// The tape's length when the snapshot was taken (a record boundary, header
    /// included).
    pub tape_offset: u64,
    /// FNV-1a-64 over the tape's records up to `tape_offset` (the 16-byte header left
    /// out): which branch of the session the snapshot belongs to.
    pub tape_checksum: u64,
    /// The tape had overflowed: the world had lived calls the tape no longer holds.
    pub tape_cut: bool,
}

/// Bytes of a snapshot's journal section (format revision 7 on): flags u32 (bit 0: a
/// journal ran, bit 1: its tape was cut), journal u64, start hash u64, tape offset u64,
/// tape checksum u64; all zero when no journal ran.
pub const SNAPSHOT_JOURNAL_SIZE: usize = 36;
const MARK_PRESENT: u32 = 1;
const MARK_CUT: u32 = 2;

impl SnapshotJournal {
    /// Writes a snapshot's journal section.
    pub(crate) fn encode<S: Sink>(mark: Option<SnapshotJournal>, e: &mut Enc<S>) {
        let m = mark.unwrap_or_default();
        let flags = match mark {
            None => 0,
            Some(m) if m.tape_cut => MARK_PRESENT | MARK_CUT,
            Some(_) => MARK_PRESENT,
        };
        e.u32(flags);
        e.u64(m.journal);
        e.u64(m.start_hash);
        e.u64(m.tape_offset);
        e.u64(m.tape_checksum);
    }

    /// Reads a journal section (exactly `SNAPSHOT_JOURNAL_SIZE` bytes), validating it.
    pub(crate) fn decode(bytes: &[u8]) -> Result<Option<SnapshotJournal>> {
        let mut d = Dec { buf: bytes, pos: 0 };
        let flags = d.u32()?;
        let m = SnapshotJournal {
            journal: d.u64()?,
            start_hash: d.u64()?,
            tape_offset: d.u64()?,
            tape_checksum: d.u64()?,
            tape_cut: flags & MARK_CUT != 0,
        };
        let damaged = Error::Format("snapshot journal section is damaged");
        if flags == 0 {
            return if m == SnapshotJournal::default() {
                Ok(None)
            } else {
                Err(damaged)
            };
        }
        if flags & !(MARK_PRESENT | MARK_CUT) != 0
            || flags & MARK_PRESENT == 0
            || m.journal == 0
            || m.tape_offset < TAPE_HEADER_SIZE as u64
        {
            return Err(damaged);
        }
        Ok(Some(m))
    }
}

impl SnapshotJournal {
    /// A snapshot's journal section as bytes, for the mark of a snapshot taken now.
    pub(crate) fn section(mark: Option<SnapshotJournal>) -> [u8; SNAPSHOT_JOURNAL_SIZE] {
        let mut section = Section {
            bytes: [0; SNAPSHOT_JOURNAL_SIZE],
            pos: 0,
        };
        SnapshotJournal::encode(mark, &mut Enc(&mut section));
        debug_assert_eq!(section.pos, SNAPSHOT_JOURNAL_SIZE);
        section.bytes
    }
}

/// Writes a journal section.
struct Section {
    bytes: [u8; SNAPSHOT_JOURNAL_SIZE],
    pos: usize,
}

impl Sink for Section {
    fn put(&mut self, bytes: &[u8]) {
        self.bytes[self.pos..self.pos + bytes.len()].copy_from_slice(bytes);
        self.pos += bytes.len();
    }
}

/// Checks a snapshot's header and checksum and reads its journal section: the state (with
/// host data) and the mark (`None` when no journal ran, and for revision-6 snapshots,
/// which have no section).
pub(crate) fn split_snapshot(
    buf: &[u8],
) -> Result<(crate::snapshot::State<'_>, Option<SnapshotJournal>)> {
    let (state, section) = crate::snapshot::split_snapshot(buf, SNAPSHOT_JOURNAL_SIZE)?;
    let mark = match section {
        Some(section) => SnapshotJournal::decode(section)?,
        None => None,
    };
    Ok((state, mark))
}

const FNV_PRIME: u64 = 0x0000_0100_0000_01b3;

/// `sum` (an FNV-1a-64 state) with `bytes` hashed in.
fn rehash(mut sum: u64, bytes: &[u8]) -> u64 {
    for &b in bytes {
        sum = (sum ^ b as u64).wrapping_mul(FNV_PRIME);
    }
    sum
}

/// The inverse of FNV's prime modulo 2^64 (the prime is odd): un-hashes bytes off the end
/// of a running sum, so a rewind checks the dropped bytes only, not the whole prefix.
const FNV_PRIME_INVERSE: u64 = {
    let p = FNV_PRIME;
    // Newton's iteration doubles the correct low bits each round: 3, 6, 12, 24, 48, 96.
    let mut x = p;
    let mut i = 0;
    while i < 5 {
        x = x.wrapping_mul(2u64.wrapping_sub(p.wrapping_mul(x)));
        i += 1;
    }
    x
};

const _: () = assert!(FNV_PRIME.wrapping_mul(FNV_PRIME_INVERSE) == 1);

/// The FNV-1a-64 state before `bytes` were hashed into `sum`.
fn unhash(mut sum: u64, bytes: &[u8]) -> u64 {
    for &b in bytes.iter().rev() {
        sum = sum.wrapping_mul(FNV_PRIME_INVERSE) ^ b as u64;
    }
    sum
}

impl Journal {
    /// Appends one record if the journal runs. Private to the journal: only the op
    /// table's typed writers (`ops.rs`) call it, so nothing records a kind the replay
    /// does not know.
    fn record(&mut self, kind: u16, payload: impl FnOnce(&mut Enc<RecordSink>)) {
        let j = self;
        if !j.running || j.overflowed {
            return;
        }
        let start = j.buf.len();
        let ok = j.buf.push(0) && j.buf.push(0) && j.buf.push(0) && j.buf.push(0);
        let mut sink = RecordSink {
            buf: &mut j.buf,
            fnv: Fnv::new(),
            full: !ok,
        };
        Enc(&mut sink).u16(kind);
        payload(&mut Enc(&mut sink));
        let check = sink.fnv.finish() as u32;
        let full = sink.full;
        let body_len = j.buf.len().saturating_sub(start + 4);
        let ok = !full && j.buf.capacity() - j.buf.len() >= 4;
        if !ok {
            // Keep the tape at its last whole record and mark it cut.
            j.buf.truncate(start);
            j.overflowed = true;
            write_header(&mut j.buf, true);
            return;
        }
        j.buf[start..start + 4].copy_from_slice(&(body_len as u32).to_le_bytes());
        for b in check.to_le_bytes() {
            let pushed = j.buf.push(b);
            debug_assert!(pushed);
        }
        j.sum = rehash(j.sum, &j.buf[start..]);
    }
}

/// Appends into the journal buffer up to its capacity and hashes what it writes.
struct RecordSink<'a> {
    buf: &'a mut FixedVec<u8>,
    fnv: Fnv,
    full: bool,
}

impl Sink for RecordSink<'_> {
    fn put(&mut self, bytes: &[u8]) {
        self.fnv.put(bytes);
        for &b in bytes {
            if !self.buf.push(b) {
                self.full = true;
                return;
            }
        }
    }
}

fn write_header(buf: &mut [u8], overflowed: bool) {
    buf[0..4].copy_from_slice(&TAPE_MAGIC);
    buf[4..6].copy_from_slice(&TAPE_MAJOR.to_le_bytes());
    buf[6..8].copy_from_slice(&TAPE_MINOR.to_le_bytes());
    let flags = if overflowed { FLAG_OVERFLOWED } else { 0 };
    buf[8..12].copy_from_slice(&flags.to_le_bytes());
    buf[12..16].copy_from_slice(&0u32.to_le_bytes());
}

impl World {
    /// Starts recording every world-changing call into a tape of at most `capacity`
    /// bytes, taken from the world's allocator now (16 bytes or more). Refused with a
    /// state error while a journal runs.
    pub fn start_journal(&mut self, capacity: usize) -> Result<()> {
        if self.recorder.as_ref().is_some_and(|j| j.running) {
            return Err(Error::State("a journal is already running"));
        }
        if capacity < TAPE_HEADER_SIZE {
            return Err(Error::Argument {
                name: "journal capacity",
                value: capacity as f64,
                expected: "at least 16 bytes (the tape header)",
            });
        }
        let mut buf = FixedVec::with_capacity(capacity, self.alloc, "journal capacity")?;
        buf.resize(TAPE_HEADER_SIZE, 0);
        write_header(&mut buf, false);
        let serial = self.recorder.as_ref().map_or(0, |j| j.serial) + 1;
        let start_hash = self.hash();
        self.recorder = Some(Journal {
            buf,
            running: true,
            overflowed: false,
            serial,
            start_hash,
            sum: Fnv::new().finish(),
        });
        Ok(())
    }

    /// Stops recording and returns the tape's length. If the tape outgrew its capacity,
    /// returns a capacity error: the tape stops at the last whole record and its header is
    /// marked overflowed, so it can never pass for a whole tape. Refused with a state
    /// error when no journal runs.
    pub fn stop_journal(&mut self) -> Result<usize> {
        let Some(j) = self.recorder.as_mut().filter(|j| j.running) else {
            return Err(Error::State("no journal is running"));
        };
        j.running = false;
        if j.overflowed {
            return Err(Error::Capacity {
                what: "journal capacity",
                capacity: j.buf.capacity() as u64,
            });
        }
        Ok(j.buf.len())
    }

    /// The tape recorded so far (or by the last journal), header included.
    pub fn journal_tape(&self) -> &[u8] {
        self.recorder.as_ref().map_or(&[], |j| &j.buf[..])
    }

    /// Whether a journal is recording.
    pub fn journal_running(&self) -> bool {
        self.recorder.as_ref().is_some_and(|j| j.running)
    }

    /// The running journal's mark for a snapshot taken now (`None` when none runs).
    pub(crate) fn journal_mark(&self) -> Option<SnapshotJournal> {
        let j = self.recorder.as_ref().filter(|j| j.running)?;
        Some(SnapshotJournal {
            journal: j.serial,
            start_hash: j.start_hash,
            tape_offset: j.buf.len() as u64,
            tape_checksum: j.sum,
            tape_cut: j.overflowed,
        })
    }

    /// Whether a snapshot with this journal section may be restored now: always when no
    /// journal runs (the section is ignored); while one runs, only a snapshot it took on
    /// the branch its tape holds now. Returns the mark to rewind the tape to.
    pub(crate) fn check_journal_restore(
        &self,
        mark: Option<SnapshotJournal>,
    ) -> Result<Option<SnapshotJournal>> {
        let Some(j) = self.recorder.as_ref().filter(|j| j.running) else {
            return Ok(None);
        };
        let Some(m) = mark else {
            return Err(Error::State(
                "restore refused: a journal is running and this snapshot was taken with no \
                 journal running (before the running journal started); restore a snapshot \
                 the running journal took, or stop the journal first",
            ));
        };
        if m.journal != j.serial || m.start_hash != j.start_hash {
            return Err(Error::State(
                "restore refused: a journal is running and this snapshot was taken by \
                 another journal; restore a snapshot the running journal took, or stop the \
                 journal first",
            ));
        }
        let len = j.buf.len() as u64;
        // The tape's records up to the mark must be those the snapshot saw: un-hash what
        // came after it (O(rollback), not O(tape)).
        let same_branch = m.tape_offset <= len
            && unhash(j.sum, &j.buf[m.tape_offset as usize..]) == m.tape_checksum
            // A snapshot taken after the tape was cut lived calls the tape does not hold:
            // only while the tape is still cut at that same point.
            && (!m.tape_cut || (j.overflowed && m.tape_offset == len));
        if !same_branch {
            return Err(Error::State(
                "restore refused: a journal is running and this snapshot is from a branch \
                 its tape has been rewound past (the running journal no longer holds the \
                 calls that led to it)",
            ));
        }
        Ok(Some(m))
    }

    /// Rewinds the running journal's tape to a mark `check_journal_restore` accepted: the
    /// tape again holds the history the restored world lived.
    pub(crate) fn rewind_journal(&mut self, m: SnapshotJournal) {
        let Some(j) = self.recorder.as_mut().filter(|j| j.running) else {
            return;
        };
        j.buf.truncate(m.tape_offset as usize);
        j.sum = m.tape_checksum;
        j.overflowed = m.tape_cut;
        let overflowed = j.overflowed;
        write_header(&mut j.buf, overflowed);
    }

    /// Makes each recorded call again, checking that each create gets its recorded id.
    /// All or nothing: on any refusal the world is restored to its state before the
    /// replay. The memory to back out (a snapshot) is taken before the first call, or the
    /// replay is refused with a capacity error. Not recorded; refused while a journal runs.
    pub fn replay_journal(&mut self, tape: &[u8]) -> Result<()> {
        if self.journal_running() {
            return Err(Error::State("stop the journal before replaying a tape"));
        }
        describe_journal(tape)?;
        let size = self.snapshot_size();
        let mut backup = FixedVec::with_capacity(size, self.alloc, "replay backup")?;
        backup.resize(size, 0);
        self.snapshot(&mut backup)?;
        self.replay_journal_unguarded(tape).inspect_err(|_| {
            let restored = self.restore(&backup);
            debug_assert!(restored.is_ok());
        })
    }

    /// [`replay_journal`](Self::replay_journal) without the backup: on a refusal the world
    /// is left part way through the tape and the caller puts it back. For the replay
    /// player, which replays one step's tape at a time and keeps keyframes to go back to:
    /// the backup snapshot is as costly as the step itself in a 200-body pile.
    pub(crate) fn replay_journal_unguarded(&mut self, tape: &[u8]) -> Result<()> {
        if self.journal_running() {
            return Err(Error::State("stop the journal before replaying a tape"));
        }
        describe_journal(tape)?;
        let mut pos = TAPE_HEADER_SIZE;
        while pos < tape.len() {
            let (kind, payload, next) = frame_at(tape, pos)?;
            let mut d = Dec {
                buf: &tape[payload.clone()],
                pos: 0,
            };
            self.replay_one(kind, &mut d)
                .and_then(|_| check(d.pos == d.buf.len(), "record longer than its call"))
                .map_err(|e| match e {
                    Error::Format(_) | Error::Version { .. } => e,
                    _ => Error::Format(
                        "a recorded call was refused: the tape does not fit this world",
                    ),
                })?;
            pos = next;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests;
