//! Reading tapes without replaying them (header and record framing checks, record ends
//! for seeking) and the replay container: a starting snapshot, a tape and the final hash
//! in one checked file.

use super::{
    FLAG_OVERFLOWED, SnapshotJournal, TAPE_HEADER_SIZE, TAPE_MAGIC, TAPE_MAJOR, TAPE_MINOR, kind,
};
use crate::codec::{Fnv, Sink, check};
use crate::error::{Error, Result};
use crate::world::World;

/// The journal section of a snapshot (after checking the snapshot's header and checksum):
/// which journal was running when it was taken and where its tape stood, or `None` when
/// none ran (and for revision-6 snapshots, which have no section).
pub fn snapshot_journal(snapshot: &[u8]) -> Result<Option<SnapshotJournal>> {
    let (_, mark) = super::split_snapshot(snapshot)?;
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
pub(super) fn frame_at(tape: &[u8], pos: usize) -> Result<(u16, core::ops::Range<usize>, usize)> {
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
