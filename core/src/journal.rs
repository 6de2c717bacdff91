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

use crate::alloc::FixedVec;
use crate::body::{BodyDef, BodyType, MotionLocks};
use crate::codec::{Dec, Enc, Fnv, Sink, check};
use crate::error::{Error, Result};
use crate::geometry::MassData;
use crate::geometry::height_field::HeightFieldDef;
use crate::geometry::hull::MAX_HULL_POINTS;
use crate::id::{BodyId, HullId, MeshId, ShapeId};
use crate::math::Vec3;
use crate::shape::{BoxShape, Filter, ShapeDef, ShapeGeometry};
use crate::snapshot::{decode_geometry, encode_geometry};
use crate::world::World;

/// Bytes of a tape's header.
pub const TAPE_HEADER_SIZE: usize = 16;
const TAPE_MAGIC: [u8; 4] = *b"M3TP";
/// Tape format major version.
pub const TAPE_MAJOR: u16 = 0;
/// Tape format minor version: a tape of another minor version is refused (3: cylinder
/// and plane geometry in `CREATE_SHAPE`).
pub const TAPE_MINOR: u16 = 3;
const FLAG_OVERFLOWED: u32 = 1;

pub(crate) mod kind {
    pub const CREATE_BODY: u16 = 1;
    pub const DESTROY_BODY: u16 = 2;
    pub const SET_BODY_TRANSFORM: u16 = 3;
    pub const SET_BODY_VELOCITY: u16 = 4;
    pub const APPLY_FORCE_TO_CENTER: u16 = 5;
    pub const APPLY_FORCE: u16 = 6;
    pub const APPLY_TORQUE: u16 = 7;
    pub const APPLY_LINEAR_IMPULSE: u16 = 8;
    pub const APPLY_ANGULAR_IMPULSE: u16 = 9;
    pub const SET_BODY_TYPE: u16 = 10;
    pub const SET_BODY_ENABLED: u16 = 11;
    pub const SET_BODY_AWAKE: u16 = 12;
    pub const SET_BODY_SLEEP_ENABLED: u16 = 13;
    pub const SET_BODY_SLEEP_THRESHOLD: u16 = 14;
    pub const SET_BODY_DAMPING: u16 = 15;
    pub const SET_BODY_GRAVITY_SCALE: u16 = 16;
    pub const SET_BODY_MOTION_LOCKS: u16 = 17;
    pub const SET_BODY_BULLET: u16 = 18;
    pub const SET_BODY_MASS_DATA: u16 = 19;
    pub const SET_BODY_USER_DATA: u16 = 20;
    /// Every shape kind: body, def, geometry (tags 0 sphere, 1 capsule, 2 box, 3 hull by
    /// id, 4 cylinder, 5 plane; cylinders and planes came with tape minor 3), shape id.
    pub const CREATE_SHAPE: u16 = 30;
    pub const DESTROY_SHAPE: u16 = 31;
    pub const CREATE_HULL: u16 = 32;
    pub const DESTROY_HULL: u16 = 33;
    pub const SET_SHAPE_FRICTION: u16 = 34;
    pub const SET_SHAPE_RESTITUTION: u16 = 35;
    pub const SET_SHAPE_ROLLING_RESISTANCE: u16 = 36;
    pub const SET_SHAPE_DENSITY: u16 = 37;
    pub const SET_SHAPE_FILTER: u16 = 38;
    pub const SET_SHAPE_AREA: u16 = 80;
    pub const SET_BODY_CUSTOM_INTEGRATOR: u16 = 81;
    pub const EXPLODE: u16 = 82;
    pub const CREATE_MESH: u16 = 83;
    pub const DESTROY_MESH: u16 = 84;
    pub const CREATE_HEIGHT_FIELD: u16 = 85;
    pub const CREATE_VOXEL_GRID: u16 = 86;
    pub const SET_VOXEL: u16 = 87;
    pub const FILL_VOXELS: u16 = 88;
    pub const STEP: u16 = 50;
    pub const SHIFT_ORIGIN: u16 = 51;
    pub const SET_GRAVITY: u16 = 52;
    pub const ENABLE_SLEEP: u16 = 53;
    // Joints: 60–79 (`crate::joint`; replayed by `World::replay_joint`).
    pub const CREATE_JOINT: u16 = 60;
    pub const DESTROY_JOINT: u16 = 61;
    pub const SET_JOINT_MOTOR_SPEED: u16 = 62;
    pub const SET_JOINT_MAX_MOTOR_FORCE: u16 = 63;
    pub const SET_JOINT_ENABLE_MOTOR: u16 = 64;
    pub const SET_JOINT_ENABLE_LIMIT: u16 = 65;
    pub const SET_JOINT_LIMITS: u16 = 66;
    pub const SET_JOINT_ENABLE_SPRING: u16 = 67;
    pub const SET_JOINT_SPRING: u16 = 68;
    pub const SET_DISTANCE_LENGTH: u16 = 69;
    pub const SET_DISTANCE_RANGE: u16 = 70;
    pub const SET_JOINT_BREAK_THRESHOLDS: u16 = 71;
    pub const SET_JOINT_COLLIDE_CONNECTED: u16 = 72;
    pub const SET_JOINT_USER_DATA: u16 = 73;
    pub const SET_CONE_SWING_LIMIT: u16 = 74;
    pub const SET_WELD_SPRING: u16 = 75;
    pub const SET_SIX_DOF_AXIS: u16 = 76;
    pub const SET_JOINT_DAMPING_RATIO: u16 = 77;
}

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
    /// Appends one record if the journal runs.
    pub(crate) fn record(&mut self, kind: u16, payload: impl FnOnce(&mut Enc<RecordSink>)) {
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
pub(crate) struct RecordSink<'a> {
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

fn id_parts(index: u32, generation: u32) -> (u32, u32) {
    (index, generation)
}

/// The journal section of a snapshot (after checking the snapshot's header and checksum):
/// which journal was running when it was taken and where its tape stood, or `None` when
/// none ran (and for revision-6 snapshots, which have no section).
pub fn snapshot_journal(snapshot: &[u8]) -> Result<Option<SnapshotJournal>> {
    let (_, mark) = crate::snapshot::split_snapshot(snapshot)?;
    Ok(mark)
}

/// What `describe_journal` finds in a tape.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct JournalInfo {
    /// Records on the tape.
    pub records: u64,
    /// Step records among them.
    pub steps: u64,
}

/// Checks a tape's header and framing (lengths and checks of every record) without
/// replaying it.
pub fn describe_journal(tape: &[u8]) -> Result<JournalInfo> {
    check(
        tape.len() >= TAPE_HEADER_SIZE,
        "tape shorter than its header",
    )?;
    check(tape[0..4] == TAPE_MAGIC, "not a Maul3D tape (bad magic)")?;
    let major = u16::from_le_bytes([tape[4], tape[5]]);
    let minor = u16::from_le_bytes([tape[6], tape[7]]);
    let flags = u32::from_le_bytes([tape[8], tape[9], tape[10], tape[11]]);
    let reserved = u32::from_le_bytes([tape[12], tape[13], tape[14], tape[15]]);
    if major != TAPE_MAJOR || minor != TAPE_MINOR {
        // A version we do not read — unless the rest of the header is damaged too.
        check(
            flags & !FLAG_OVERFLOWED == 0 && reserved == 0,
            "tape header is damaged",
        )?;
        return Err(Error::Version {
            found: ((major as u32) << 16) | minor as u32,
            expected: ((TAPE_MAJOR as u32) << 16) | TAPE_MINOR as u32,
        });
    }
    check(
        flags & !FLAG_OVERFLOWED == 0 && reserved == 0,
        "tape header is damaged",
    )?;
    check(
        flags & FLAG_OVERFLOWED == 0,
        "the tape overflowed while recording: it is cut, not whole",
    )?;
    let mut info = JournalInfo::default();
    let mut pos = TAPE_HEADER_SIZE;
    while pos < tape.len() {
        let (kind, _, next) = frame_at(tape, pos)?;
        info.records += 1;
        if kind == kind::STEP {
            info.steps += 1;
        }
        pos = next;
    }
    Ok(info)
}

/// Checks a tape like `describe_journal` and calls `f(end, is_step)` for each record with
/// the offset just past it: cutting the tape there gives a whole tape (a prefix of the
/// session), which is how tools seek.
pub fn journal_record_ends(tape: &[u8], mut f: impl FnMut(usize, bool)) -> Result<JournalInfo> {
    let info = describe_journal(tape)?;
    let mut pos = TAPE_HEADER_SIZE;
    while pos < tape.len() {
        let (kind, _, next) = frame_at(tape, pos)?;
        f(next, kind == kind::STEP);
        pos = next;
    }
    Ok(info)
}

/// The record at `pos`: its kind, payload range and the position after it.
fn frame_at(tape: &[u8], pos: usize) -> Result<(u16, core::ops::Range<usize>, usize)> {
    let cut = Error::Format("tape cut inside a record");
    let len_end = pos.checked_add(4).ok_or(cut)?;
    let lb = tape.get(pos..len_end).ok_or(cut)?;
    let len = u32::from_le_bytes([lb[0], lb[1], lb[2], lb[3]]) as usize;
    check(len >= 2, "record shorter than its kind")?;
    let body_end = len_end.checked_add(len).ok_or(cut)?;
    let end = body_end.checked_add(4).ok_or(cut)?;
    let body = tape.get(len_end..body_end).ok_or(cut)?;
    let cb = tape.get(body_end..end).ok_or(cut)?;
    let stored = u32::from_le_bytes([cb[0], cb[1], cb[2], cb[3]]);
    let mut f = Fnv::new();
    f.put(body);
    check(f.finish() as u32 == stored, "record check mismatch")?;
    let kind = u16::from_le_bytes([body[0], body[1]]);
    Ok((kind, len_end + 2..body_end, end))
}

impl World {
    /// Starts recording every world-changing call into a tape of at most `capacity`
    /// bytes, taken from the world's allocator now (16 bytes or more). Refused with a
    /// state error while a journal runs.
    pub fn start_journal(&mut self, capacity: usize) -> Result<()> {
        if self.journal.as_ref().is_some_and(|j| j.running) {
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
        let serial = self.journal.as_ref().map_or(0, |j| j.serial) + 1;
        let start_hash = self.hash();
        self.journal = Some(Journal {
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
        let Some(j) = self.journal.as_mut().filter(|j| j.running) else {
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
        self.journal.as_ref().map_or(&[], |j| &j.buf[..])
    }

    /// Whether a journal is recording.
    pub fn journal_running(&self) -> bool {
        self.journal.as_ref().is_some_and(|j| j.running)
    }

    /// The running journal's mark for a snapshot taken now (`None` when none runs).
    pub(crate) fn journal_mark(&self) -> Option<SnapshotJournal> {
        let j = self.journal.as_ref().filter(|j| j.running)?;
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
        let Some(j) = self.journal.as_ref().filter(|j| j.running) else {
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
        let Some(j) = self.journal.as_mut().filter(|j| j.running) else {
            return;
        };
        j.buf.truncate(m.tape_offset as usize);
        j.sum = m.tape_checksum;
        j.overflowed = m.tape_cut;
        let overflowed = j.overflowed;
        write_header(&mut j.buf, overflowed);
    }

    /// Appends one record if a journal runs.
    pub(crate) fn rec(&mut self, kind: u16, payload: impl FnOnce(&mut Enc<RecordSink>)) {
        if let Some(j) = self.journal.as_mut() {
            j.record(kind, payload);
        }
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
        let mut pos = TAPE_HEADER_SIZE;
        while pos < tape.len() {
            let (kind, payload, next) = frame_at(tape, pos)?;
            let mut d = Dec {
                buf: &tape[payload.clone()],
                pos: 0,
            };
            let r = self
                .replay_one(kind, &mut d)
                .and_then(|_| check(d.pos == d.buf.len(), "record longer than its call"));
            if let Err(e) = r {
                let restored = self.restore(&backup);
                debug_assert!(restored.is_ok());
                return Err(match e {
                    Error::Format(_) | Error::Version { .. } => e,
                    _ => Error::Format(
                        "a recorded call was refused: the tape does not fit this world",
                    ),
                });
            }
            pos = next;
        }
        Ok(())
    }

    fn body_from(&self, d: &mut Dec) -> Result<BodyId> {
        let (index, generation) = id_parts(d.u32()?, d.u32()?);
        Ok(BodyId {
            index,
            generation,
            world: self.tag,
        })
    }

    fn shape_from(&self, d: &mut Dec) -> Result<ShapeId> {
        let (index, generation) = id_parts(d.u32()?, d.u32()?);
        Ok(ShapeId {
            index,
            generation,
            world: self.tag,
        })
    }

    fn mesh_from(&self, d: &mut Dec) -> Result<MeshId> {
        let (index, generation) = id_parts(d.u32()?, d.u32()?);
        Ok(MeshId {
            index,
            generation,
            world: self.tag,
        })
    }

    fn hull_from(&self, d: &mut Dec) -> Result<HullId> {
        let (index, generation) = id_parts(d.u32()?, d.u32()?);
        Ok(HullId {
            index,
            generation,
            world: self.tag,
        })
    }

    fn replay_one(&mut self, kind: u16, d: &mut Dec) -> Result<()> {
        use kind::*;
        let mismatch = Error::Format("a create did not get its recorded id");
        match kind {
            CREATE_BODY => {
                let def = decode_body_def(d)?;
                let expected = self.body_from(d)?;
                let got = self.create_body(&def)?;
                check(got == expected, "a create did not get its recorded id")
                    .map_err(|_| mismatch)?;
            }
            DESTROY_BODY => {
                let id = self.body_from(d)?;
                self.destroy_body(id)?;
            }
            SET_BODY_TRANSFORM => {
                let id = self.body_from(d)?;
                let (p, q) = (d.dvec3()?, d.quat()?);
                self.set_body_transform(id, p, q)?;
            }
            SET_BODY_VELOCITY => {
                let id = self.body_from(d)?;
                let (v, w) = (d.vec3()?, d.vec3()?);
                self.set_body_velocity(id, v, w)?;
            }
            APPLY_FORCE_TO_CENTER => {
                let id = self.body_from(d)?;
                let f = d.vec3()?;
                self.apply_force_to_center(id, f)?;
            }
            APPLY_FORCE => {
                let id = self.body_from(d)?;
                let (f, p) = (d.vec3()?, d.dvec3()?);
                self.apply_force(id, f, p)?;
            }
            APPLY_TORQUE => {
                let id = self.body_from(d)?;
                let t = d.vec3()?;
                self.apply_torque(id, t)?;
            }
            APPLY_LINEAR_IMPULSE => {
                let id = self.body_from(d)?;
                let (j, p) = (d.vec3()?, d.dvec3()?);
                self.apply_linear_impulse(id, j, p)?;
            }
            APPLY_ANGULAR_IMPULSE => {
                let id = self.body_from(d)?;
                let j = d.vec3()?;
                self.apply_angular_impulse(id, j)?;
            }
            SET_BODY_TYPE => {
                let id = self.body_from(d)?;
                let t = decode_body_type(d)?;
                self.set_body_type(id, t)?;
            }
            SET_BODY_ENABLED => {
                let id = self.body_from(d)?;
                let v = d.bool()?;
                self.set_body_enabled(id, v)?;
            }
            SET_BODY_AWAKE => {
                let id = self.body_from(d)?;
                let v = d.bool()?;
                self.set_body_awake(id, v)?;
            }
            SET_BODY_SLEEP_ENABLED => {
                let id = self.body_from(d)?;
                let v = d.bool()?;
                self.set_body_sleep_enabled(id, v)?;
            }
            SET_BODY_SLEEP_THRESHOLD => {
                let id = self.body_from(d)?;
                let v = d.f32()?;
                self.set_body_sleep_threshold(id, v)?;
            }
            SET_BODY_DAMPING => {
                let id = self.body_from(d)?;
                let (l, a) = (d.f32()?, d.f32()?);
                self.set_body_damping(id, l, a)?;
            }
            SET_BODY_GRAVITY_SCALE => {
                let id = self.body_from(d)?;
                let v = d.f32()?;
                self.set_body_gravity_scale(id, v)?;
            }
            SET_BODY_MOTION_LOCKS => {
                let id = self.body_from(d)?;
                let bits = d.u8()?;
                check(bits < 64, "unknown motion lock bits")?;
                self.set_body_motion_locks(id, MotionLocks::from_bits(bits))?;
            }
            SET_BODY_BULLET => {
                let id = self.body_from(d)?;
                let v = d.bool()?;
                self.set_body_bullet(id, v)?;
            }
            SET_BODY_MASS_DATA => {
                let id = self.body_from(d)?;
                let m = if d.bool()? {
                    Some(MassData {
                        mass: d.f32()?,
                        center: d.vec3()?,
                        inertia: d.mat3()?,
                    })
                } else {
                    None
                };
                self.set_body_mass_data(id, m)?;
            }
            SET_BODY_USER_DATA => {
                let id = self.body_from(d)?;
                let v = d.u64()?;
                self.set_body_user_data(id, v)?;
            }
            CREATE_SHAPE => {
                let body = self.body_from(d)?;
                let def = decode_shape_def(d)?;
                let tag = d.u8()?;
                check(tag <= 2, "unknown shape content tag")?;
                let geometry = if tag == 1 {
                    let hull = self.hull_from(d)?;
                    self.create_hull_shape(body, &def, hull)?
                } else if tag == 2 {
                    let mesh = self.mesh_from(d)?;
                    self.create_mesh_shape(body, &def, mesh)?
                } else {
                    let g = decode_geometry(d)?;
                    match g {
                        ShapeGeometry::Sphere(s) => self.create_sphere_shape(body, &def, &s)?,
                        ShapeGeometry::Capsule(c) => self.create_capsule_shape(body, &def, &c)?,
                        ShapeGeometry::Box(BoxShape {
                            half,
                            center,
                            rotation,
                        }) => self.create_offset_box_shape(body, &def, half, center, rotation)?,
                        ShapeGeometry::Hull(_) | ShapeGeometry::Mesh(_) => {
                            return Err(Error::Format("shared geometry without its id"));
                        }
                        ShapeGeometry::Cylinder(c) => self.create_cylinder_shape(body, &def, &c)?,
                        ShapeGeometry::Plane(p) => self.create_plane_shape(body, &def, &p)?,
                    }
                };
                let expected = self.shape_from(d)?;
                check(geometry == expected, "a create did not get its recorded id")
                    .map_err(|_| mismatch)?;
            }
            DESTROY_SHAPE => {
                let id = self.shape_from(d)?;
                self.destroy_shape(id)?;
            }
            CREATE_HULL => {
                let n = d.u32()? as usize;
                check(
                    (1..=MAX_HULL_POINTS).contains(&n),
                    "hull point count out of range",
                )?;
                let mut pts = [Vec3::ZERO; MAX_HULL_POINTS];
                for p in &mut pts[..n] {
                    *p = d.vec3()?;
                }
                let expected = self.hull_from(d)?;
                let got = self.create_hull(&pts[..n])?;
                check(got == expected, "a create did not get its recorded id")
                    .map_err(|_| mismatch)?;
            }
            DESTROY_HULL => {
                let id = self.hull_from(d)?;
                self.destroy_hull(id)?;
            }
            CREATE_MESH => {
                let (mut v, mut t) = (std::vec::Vec::new(), std::vec::Vec::new());
                decode_mesh(d, &mut v, &mut t)?;
                let expected = self.mesh_from(d)?;
                let got = self.create_mesh(&v, &t)?;
                check(got == expected, "a create did not get its recorded id")
                    .map_err(|_| mismatch)?;
            }
            CREATE_HEIGHT_FIELD => {
                let (mut h, mut holes) = (std::vec::Vec::new(), std::vec::Vec::new());
                let (count_x, count_z, scale) = decode_height_field(d, &mut h, &mut holes)?;
                let expected = self.mesh_from(d)?;
                let got = self.create_height_field(&HeightFieldDef {
                    count_x,
                    count_z,
                    heights: &h,
                    holes: &holes,
                    scale,
                })?;
                check(got == expected, "a create did not get its recorded id")
                    .map_err(|_| mismatch)?;
            }
            CREATE_VOXEL_GRID => {
                let voxel_size = d.f32()?;
                let origin = d.vec3()?;
                let data = d.take::<{ crate::geometry::voxel::CHUNK_VOXELS }>()?;
                let expected = self.mesh_from(d)?;
                let got = self.create_voxel_grid(&crate::content::VoxelGridDef {
                    voxel_size,
                    data: &data,
                    origin,
                })?;
                check(got == expected, "a create did not get its recorded id")
                    .map_err(|_| mismatch)?;
            }
            SET_VOXEL => {
                let id = self.mesh_from(d)?;
                let v = [d.i32()?, d.i32()?, d.i32()?];
                let m = d.u8()?;
                self.set_voxel(id, v, m)?;
            }
            FILL_VOXELS => {
                let id = self.mesh_from(d)?;
                let lo = [d.i32()?, d.i32()?, d.i32()?];
                let hi = [d.i32()?, d.i32()?, d.i32()?];
                let m = d.u8()?;
                self.fill_voxels(id, lo, hi, m)?;
            }
            DESTROY_MESH => {
                let id = self.mesh_from(d)?;
                self.destroy_mesh(id)?;
            }
            SET_SHAPE_FRICTION => {
                let id = self.shape_from(d)?;
                let v = d.f32()?;
                self.set_shape_friction(id, v)?;
            }
            SET_SHAPE_RESTITUTION => {
                let id = self.shape_from(d)?;
                let v = d.f32()?;
                self.set_shape_restitution(id, v)?;
            }
            SET_SHAPE_ROLLING_RESISTANCE => {
                let id = self.shape_from(d)?;
                let v = d.f32()?;
                self.set_shape_rolling_resistance(id, v)?;
            }
            SET_SHAPE_DENSITY => {
                let id = self.shape_from(d)?;
                let v = d.f32()?;
                self.set_shape_density(id, v)?;
            }
            SET_SHAPE_FILTER => {
                let id = self.shape_from(d)?;
                let f = Filter {
                    category_bits: d.u64()?,
                    mask_bits: d.u64()?,
                    group_index: d.i32()?,
                };
                self.set_shape_filter(id, f)?;
            }
            SET_SHAPE_AREA => {
                let id = self.shape_from(d)?;
                let area = decode_area(d)?;
                self.set_shape_area(id, area)?;
            }
            SET_BODY_CUSTOM_INTEGRATOR => {
                let id = self.body_from(d)?;
                let v = d.bool()?;
                self.set_body_custom_integrator(id, v)?;
            }
            EXPLODE => {
                let def = crate::explosion::ExplosionDef {
                    position: d.dvec3()?,
                    radius: d.f32()?,
                    falloff: d.f32()?,
                    impulse_per_area: d.f32()?,
                    mask_bits: d.u64()?,
                };
                self.explode(&def)?;
            }
            STEP => {
                let dt = d.f32()?;
                let n = d.u32()?;
                // The contacts the pre-solve callback disabled in this step, applied
                // instead of calling it.
                let count = d.u32()? as usize;
                check(
                    count <= self.presolve_replay.capacity(),
                    "more disabled contacts than the capacity",
                )?;
                self.presolve_replay.clear();
                let mut last = None;
                for _ in 0..count {
                    let key = d.u64()?;
                    check(
                        last.is_none_or(|l| key > l),
                        "disabled contacts out of order",
                    )?;
                    last = Some(key);
                    let ok = self.presolve_replay.push(key);
                    debug_assert!(ok);
                }
                self.presolve_replaying = true;
                let r = self.step(dt, n);
                self.presolve_replaying = false;
                r?;
            }
            SHIFT_ORIGIN => {
                let o = d.dvec3()?;
                self.shift_origin(o)?;
            }
            SET_GRAVITY => {
                let g = d.vec3()?;
                self.set_gravity(g)?;
            }
            ENABLE_SLEEP => {
                let v = d.bool()?;
                self.enable_sleep(v);
            }
            60..=79 => self.replay_joint(kind, d)?,
            _ => return Err(Error::Format("unknown record kind")),
        }
        Ok(())
    }
}

/// Writes an area's settings (or none), field by field.
pub(crate) fn encode_area<S: Sink>(e: &mut Enc<S>, a: &Option<crate::area::AreaSettings>) {
    use crate::area::AreaGravity;
    let Some(a) = a else {
        e.bool(false);
        return;
    };
    e.bool(true);
    e.i32(a.priority);
    e.u8(a.gravity_mode as u8);
    match a.gravity {
        AreaGravity::Directional(g) => {
            e.u8(0);
            e.vec3(g);
        }
        AreaGravity::Point {
            center,
            strength,
            unit_distance,
        } => {
            e.u8(1);
            e.vec3(center);
            e.f32(strength);
            e.f32(unit_distance);
        }
    }
    e.u8(a.linear_damping_mode as u8);
    e.f32(a.linear_damping);
    e.u8(a.angular_damping_mode as u8);
    e.f32(a.angular_damping);
}

/// Reads what `encode_area` wrote, validating it.
pub(crate) fn decode_area(d: &mut Dec) -> Result<Option<crate::area::AreaSettings>> {
    use crate::area::{AreaGravity, AreaMode, AreaSettings};
    if !d.bool()? {
        return Ok(None);
    }
    let mode = |v: u8| AreaMode::from_u8(v).ok_or(Error::Format("unknown area mode"));
    let priority = d.i32()?;
    let gravity_mode = mode(d.u8()?)?;
    let gravity = match d.u8()? {
        0 => AreaGravity::Directional(d.vec3()?),
        1 => AreaGravity::Point {
            center: d.vec3()?,
            strength: d.f32()?,
            unit_distance: d.f32()?,
        },
        _ => return Err(Error::Format("unknown area gravity kind")),
    };
    let a = AreaSettings {
        priority,
        gravity_mode,
        gravity,
        linear_damping_mode: mode(d.u8()?)?,
        linear_damping: d.f32()?,
        angular_damping_mode: mode(d.u8()?)?,
        angular_damping: d.f32()?,
    };
    crate::shape::check_area(&a).map_err(|_| Error::Format("area settings out of range"))?;
    Ok(Some(a))
}

pub(crate) fn encode_body_def<S: Sink>(e: &mut Enc<S>, d: &BodyDef) {
    e.u8(d.body_type as u8);
    e.dvec3(d.position);
    e.quat(d.rotation);
    e.vec3(d.linear_velocity);
    e.vec3(d.angular_velocity);
    e.f32(d.linear_damping);
    e.f32(d.angular_damping);
    e.f32(d.gravity_scale);
    e.f32(d.sleep_threshold);
    e.bool(d.enable_sleep);
    e.bool(d.is_awake);
    e.bool(d.is_bullet);
    e.bool(d.is_enabled);
    e.u8(d.motion_locks.bits());
    e.bool(d.custom_integrator);
    e.u64(d.user_data);
}

fn decode_body_type(d: &mut Dec) -> Result<BodyType> {
    Ok(match d.u8()? {
        0 => BodyType::Static,
        1 => BodyType::Kinematic,
        2 => BodyType::Dynamic,
        _ => return Err(Error::Format("unknown body type")),
    })
}

fn decode_body_def(d: &mut Dec) -> Result<BodyDef> {
    let body_type = decode_body_type(d)?;
    let def = BodyDef {
        body_type,
        position: d.dvec3()?,
        rotation: d.quat()?,
        linear_velocity: d.vec3()?,
        angular_velocity: d.vec3()?,
        linear_damping: d.f32()?,
        angular_damping: d.f32()?,
        gravity_scale: d.f32()?,
        sleep_threshold: d.f32()?,
        enable_sleep: d.bool()?,
        is_awake: d.bool()?,
        is_bullet: d.bool()?,
        is_enabled: d.bool()?,
        motion_locks: {
            let b = d.u8()?;
            check(b < 64, "unknown motion lock bits")?;
            MotionLocks::from_bits(b)
        },
        custom_integrator: d.bool()?,
        user_data: d.u64()?,
    };
    Ok(def)
}

pub(crate) fn encode_shape_def<S: Sink>(e: &mut Enc<S>, d: &ShapeDef) {
    e.f32(d.density);
    e.f32(d.friction);
    e.f32(d.restitution);
    e.f32(d.rolling_resistance);
    e.u64(d.filter.category_bits);
    e.u64(d.filter.mask_bits);
    e.i32(d.filter.group_index);
    e.bool(d.enable_contact_events);
    e.bool(d.is_sensor);
    e.bool(d.enable_sensor_events);
    e.bool(d.enable_hit_events);
    e.bool(d.enable_pre_solve);
    e.u64(d.user_data);
}

fn decode_shape_def(d: &mut Dec) -> Result<ShapeDef> {
    Ok(ShapeDef {
        density: d.f32()?,
        friction: d.f32()?,
        restitution: d.f32()?,
        rolling_resistance: d.f32()?,
        filter: Filter {
            category_bits: d.u64()?,
            mask_bits: d.u64()?,
            group_index: d.i32()?,
        },
        enable_contact_events: d.bool()?,
        is_sensor: d.bool()?,
        enable_sensor_events: d.bool()?,
        enable_hit_events: d.bool()?,
        enable_pre_solve: d.bool()?,
        user_data: d.u64()?,
    })
}

/// Writes a body id.
pub(crate) fn enc_body<S: Sink>(e: &mut Enc<S>, id: BodyId) {
    e.u32(id.index);
    e.u32(id.generation);
}

/// Writes a shape id.
pub(crate) fn enc_shape<S: Sink>(e: &mut Enc<S>, id: ShapeId) {
    e.u32(id.index);
    e.u32(id.generation);
}

/// Writes a hull id.
pub(crate) fn enc_hull<S: Sink>(e: &mut Enc<S>, id: HullId) {
    e.u32(id.index);
    e.u32(id.generation);
}

/// Writes a mesh id.
pub(crate) fn enc_mesh<S: Sink>(e: &mut Enc<S>, id: MeshId) {
    e.u32(id.index);
    e.u32(id.generation);
}

/// The shared content a shape's create record names by id.
#[derive(Clone, Copy)]
pub(crate) enum SharedContent {
    None,
    Hull(HullId),
    Mesh(MeshId),
}

/// Writes a shape's geometry for a create record: tag 0 and the geometry, 1 and a hull
/// id, 2 and a mesh id.
pub(crate) fn enc_shape_geometry<S: Sink>(e: &mut Enc<S>, g: &ShapeGeometry, c: SharedContent) {
    match (g, c) {
        (ShapeGeometry::Hull(_), SharedContent::Hull(h)) => {
            e.u8(1);
            enc_hull(e, h);
        }
        (ShapeGeometry::Mesh(_), SharedContent::Mesh(m)) => {
            e.u8(2);
            enc_mesh(e, m);
        }
        _ => {
            e.u8(0);
            encode_geometry(e, g);
        }
    }
}

/// Writes a height field's def (its content).
pub(crate) fn encode_height_field<S: Sink>(e: &mut Enc<S>, def: &HeightFieldDef) {
    e.u32(def.count_x);
    e.u32(def.count_z);
    e.vec3(def.scale);
    for &h in def.heights {
        e.f32(h);
    }
    e.bool(!def.holes.is_empty());
    for chunk in def.holes.chunks(8) {
        let mut b = 0u8;
        for (i, &h) in chunk.iter().enumerate() {
            b |= (h as u8) << i;
        }
        e.u8(b);
    }
}

/// Reads a height field's content into `heights` and `holes` (cleared first), returning
/// `(count_x, count_z, scale)`; the sizes are checked against the 4096-sample sides.
pub(crate) fn decode_height_field(
    d: &mut Dec,
    heights: &mut std::vec::Vec<f32>,
    holes: &mut std::vec::Vec<bool>,
) -> Result<(u32, u32, Vec3)> {
    use crate::geometry::height_field::MAX_HEIGHT_FIELD_SIDE;
    let (cx, cz) = (d.u32()?, d.u32()?);
    check(
        (2..=MAX_HEIGHT_FIELD_SIDE).contains(&cx) && (2..=MAX_HEIGHT_FIELD_SIDE).contains(&cz),
        "height field size out of range",
    )?;
    let scale = d.vec3()?;
    let n = cx as usize * cz as usize;
    check(
        d.buf.len() - d.pos >= 4 * n,
        "height field heights cut short",
    )?;
    heights.clear();
    for _ in 0..n {
        heights.push(d.f32()?);
    }
    holes.clear();
    if d.bool()? {
        let cells = (cx as usize - 1) * (cz as usize - 1);
        check(
            d.buf.len() - d.pos >= cells.div_ceil(8),
            "height field holes cut short",
        )?;
        for c in 0..cells.div_ceil(8) {
            let b = d.u8()?;
            for i in 0..8 {
                if 8 * c + i < cells {
                    holes.push(b & (1 << i) != 0);
                }
            }
        }
    }
    Ok((cx, cz, scale))
}

/// Reads a mesh's content (vertex and triangle counts first), checking the counts
/// against what the buffer holds before reserving anything.
pub(crate) fn decode_mesh(
    d: &mut Dec,
    vertices: &mut std::vec::Vec<Vec3>,
    triangles: &mut std::vec::Vec<[u32; 3]>,
) -> Result<()> {
    use crate::geometry::mesh::{MAX_MESH_TRIANGLES, MAX_MESH_VERTICES};
    let nv = d.u32()? as usize;
    check(
        nv <= MAX_MESH_VERTICES && d.buf.len() - d.pos >= 12 * nv,
        "mesh vertex count out of range",
    )?;
    vertices.clear();
    for _ in 0..nv {
        vertices.push(d.vec3()?);
    }
    let nt = d.u32()? as usize;
    check(
        nt <= MAX_MESH_TRIANGLES && d.buf.len() - d.pos >= 12 * nt,
        "mesh triangle count out of range",
    )?;
    triangles.clear();
    for _ in 0..nt {
        triangles.push([d.u32()?, d.u32()?, d.u32()?]);
    }
    Ok(())
}

// --------------------------------------------------------------------------------------
// The replay container.

const CONTAINER_MAGIC: [u8; 8] = *b"M3REPLAY";
/// Container format revision (read only by the same minor version).
pub const CONTAINER_REVISION: u32 = ((TAPE_MAJOR as u32) << 16) | TAPE_MINOR as u32;
/// Bytes of a container header.
pub const CONTAINER_HEADER_SIZE: usize = 64;

/// A decoded replay container: views into its buffer.
#[derive(Clone, Copy, Debug)]
pub struct ReplayView<'a> {
    /// The starting snapshot.
    pub snapshot: &'a [u8],
    /// The tape.
    pub tape: &'a [u8],
    /// The recorder's hash after the last call.
    pub final_hash: u64,
    /// Records on the tape.
    pub records: u64,
    /// Steps on the tape.
    pub steps: u64,
}

/// Size of a container for a snapshot and a tape of these sizes.
pub fn encoded_replay_size(snapshot_len: usize, tape_len: usize) -> usize {
    CONTAINER_HEADER_SIZE + snapshot_len + tape_len
}

/// Packs a starting snapshot, a tape and the final hash into `out`; checks both parts
/// first (damaged or foreign-version parts are refused). Returns the bytes written.
pub fn encode_replay(
    snapshot: &[u8],
    tape: &[u8],
    final_hash: u64,
    out: &mut [u8],
) -> Result<usize> {
    World::def_from_snapshot(snapshot)?;
    let info = describe_journal(tape)?;
    let size = encoded_replay_size(snapshot.len(), tape.len());
    if out.len() < size {
        return Err(Error::Argument {
            name: "replay buffer length",
            value: out.len() as f64,
            expected: "at least encoded_replay_size() bytes",
        });
    }
    let (head, rest) = out[..size].split_at_mut(CONTAINER_HEADER_SIZE);
    rest[..snapshot.len()].copy_from_slice(snapshot);
    rest[snapshot.len()..].copy_from_slice(tape);
    head.fill(0);
    head[0..8].copy_from_slice(&CONTAINER_MAGIC);
    head[8..12].copy_from_slice(&CONTAINER_REVISION.to_le_bytes());
    head[12..16].copy_from_slice(&(CONTAINER_HEADER_SIZE as u32).to_le_bytes());
    head[16..24].copy_from_slice(&(snapshot.len() as u64).to_le_bytes());
    head[24..32].copy_from_slice(&(tape.len() as u64).to_le_bytes());
    head[32..40].copy_from_slice(&final_hash.to_le_bytes());
    head[40..48].copy_from_slice(&info.records.to_le_bytes());
    head[48..56].copy_from_slice(&info.steps.to_le_bytes());
    // The checksum covers the header before it and the whole body.
    let mut f = Fnv::new();
    f.put(&head[..56]);
    f.put(rest);
    let checksum = f.finish();
    head[56..64].copy_from_slice(&checksum.to_le_bytes());
    Ok(size)
}

fn u64_at(b: &[u8], at: usize) -> u64 {
    let mut a = [0u8; 8];
    a.copy_from_slice(&b[at..at + 8]);
    u64::from_le_bytes(a)
}

/// Checks a container (its header, the snapshot's and tape's headers, exact lengths, the
/// tape's record framing, and that the header's counts match the tape) and returns views
/// of its parts.
pub fn decode_replay(buf: &[u8]) -> Result<ReplayView<'_>> {
    check(
        buf.len() >= CONTAINER_HEADER_SIZE,
        "replay shorter than its header",
    )?;
    check(
        buf[0..8] == CONTAINER_MAGIC,
        "not a Maul3D replay (bad magic)",
    )?;
    let rev = u32::from_le_bytes([buf[8], buf[9], buf[10], buf[11]]);
    let header_size = u32::from_le_bytes([buf[12], buf[13], buf[14], buf[15]]) as usize;
    let snap_len = u64_at(buf, 16);
    let tape_len = u64_at(buf, 24);
    let final_hash = u64_at(buf, 32);
    let records = u64_at(buf, 40);
    let steps = u64_at(buf, 48);
    let checksum = u64_at(buf, 56);
    let lengths_ok = header_size == CONTAINER_HEADER_SIZE
        && snap_len
            .checked_add(tape_len)
            .and_then(|n| n.checked_add(CONTAINER_HEADER_SIZE as u64))
            == Some(buf.len() as u64);
    let mut f = Fnv::new();
    f.put(&buf[..56]);
    f.put(&buf[CONTAINER_HEADER_SIZE..]);
    let sum_ok = f.finish() == checksum;
    if rev != CONTAINER_REVISION {
        if lengths_ok && sum_ok {
            return Err(Error::Version {
                found: rev,
                expected: CONTAINER_REVISION,
            });
        }
        return Err(Error::Format("replay header is damaged"));
    }
    check(lengths_ok, "replay length does not match its header")?;
    check(sum_ok, "replay checksum mismatch")?;
    let body = &buf[CONTAINER_HEADER_SIZE..];
    let (snapshot, tape) = body.split_at(snap_len as usize);
    World::def_from_snapshot(snapshot)?;
    let info = describe_journal(tape)?;
    check(
        info.records == records && info.steps == steps,
        "replay header counts do not match its tape",
    )?;
    Ok(ReplayView {
        snapshot,
        tape,
        final_hash,
        records,
        steps,
    })
}
