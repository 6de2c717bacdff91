//! Journal and replay: recording into a host buffer, replaying a tape, the replay
//! container.
//!
//! The engine keeps a running journal's tape in memory of the world's own (taken from its
//! allocator when the journal starts, sized by the host's buffer). After every call that
//! changes the world, the boundary copies the new bytes, and the tape header (whose
//! overflow flag may change), into the host's buffer, so the host sees whole records
//! there at every moment between calls. A restore that rewinds the tape (a snapshot the
//! running journal took) shortens it; the bytes past the new end in the host's buffer are
//! then stale and the next records overwrite them.

use crate::boundary::{api, api_on, write};
use crate::types::*;

/// Where a running journal's tape is mirrored: the host's buffer.
pub(crate) struct Mirror {
    buf: *mut u8,
    capacity: usize,
    synced: usize,
}

impl Mirror {
    /// Copies what the engine's tape gained since the last sync, and its header.
    pub(crate) fn sync(&mut self, world: &engine::World) {
        let tape = world.journal_tape();
        let n = tape.len().min(self.capacity);
        let head = engine::TAPE_HEADER_SIZE.min(n);
        // SAFETY: the host promised `capacity` writable bytes at `buf` until the journal
        // stops; we write within `n <= capacity`.
        let dst = unsafe { core::slice::from_raw_parts_mut(self.buf, n) };
        dst[..head].copy_from_slice(&tape[..head]);
        let from = self.synced.clamp(head, n);
        dst[from..n].copy_from_slice(&tape[from..n]);
        self.synced = n;
    }
}

/// Starts recording every call that changes the world into `buffer` (at least 16 bytes:
/// the tape header is written now). The buffer must stay valid until
/// `m3World_StopJournal`. Refused with `m3_errorState` while a journal runs.
///
/// # Safety
/// `buffer` points to `capacity` writable bytes (any alignment) that stay valid, and
/// that nothing else writes, until `m3World_StopJournal` returns or the world is
/// destroyed: the library writes the tape into it after every call that changes the
/// world (null is refused with `m3_errorArgument`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m3World_StartJournal(
    worldId: m3WorldId,
    buffer: *mut u8,
    capacity: i64,
) -> m3Result {
    api_on("m3World_StartJournal", worldId, || {
        let cap = byte_len("capacity", capacity)?;
        let buf = out("buffer", buffer)?;
        write(worldId, |e| {
            e.world.start_journal(cap)?;
            e.journal = Some(Mirror {
                buf,
                capacity: cap,
                synced: 0,
            });
            Ok(())
        })
    })
}

/// Ends the recording and writes the tape's length to `bytesOut`. If the tape outgrew the
/// buffer, returns `m3_errorCapacity` (the tape ends at the last whole record, marked
/// overflowed, and `bytesOut` still gets its length). `m3_errorState` when none runs.
///
/// # Safety
/// `bytesOut` points to one writable `i64`, aligned for its type, for the duration of
/// the call (null is refused with `m3_errorArgument`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m3World_StopJournal(worldId: m3WorldId, bytesOut: *mut i64) -> m3Result {
    api_on("m3World_StopJournal", worldId, || {
        let o = out("bytesOut", bytesOut)?;
        write(worldId, |e| {
            let r = e.world.stop_journal();
            if let Some(mut m) = e.journal.take() {
                m.sync(&e.world);
            }
            let len = e.world.journal_tape().len();
            // SAFETY: checked non-null.
            unsafe { put(o, len as i64) };
            r?;
            Ok(())
        })
    })
}

/// Makes each recorded call of a tape again, checking that every create gets its
/// recorded id. All or nothing: on any refusal the world is as before. A damaged tape is
/// `m3_errorFormat`, another minor version's `m3_errorVersion`, too little memory to back
/// out `m3_errorCapacity` before any call runs. Not recorded.
///
/// # Safety
/// `tape` points to `length` readable bytes (any alignment) for the duration of the
/// call (null only with `length` 0).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m3World_ReplayJournal(
    worldId: m3WorldId,
    tape: *const u8,
    length: i64,
) -> m3Result {
    api_on("m3World_ReplayJournal", worldId, || {
        let n = byte_len("length", length)?;
        // SAFETY: the host promises `length` readable bytes.
        let t = unsafe { slice("tape", tape, n) }?;
        write(worldId, |e| Ok(e.world.replay_journal(t)?))
    })
}

/// What a tape holds.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct m3JournalInfo {
    /// Records on the tape.
    pub records: i64,
    /// Step records among them.
    pub steps: i64,
}

/// Counts a tape's records and steps without replaying it (checking its header and the
/// framing and checksum of every record).
///
/// # Safety
/// - `tape` points to `length` readable bytes (any alignment) for the duration of the
///   call (null only with `length` 0).
/// - `info` points to one writable `m3JournalInfo`, aligned for its type, for the
///   duration of the call (null is refused with `m3_errorArgument`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m3DescribeJournal(
    tape: *const u8,
    length: i64,
    info: *mut m3JournalInfo,
) -> m3Result {
    api("m3DescribeJournal", || {
        let o = out("info", info)?;
        let n = byte_len("length", length)?;
        // SAFETY: the host promises `length` readable bytes.
        let t = unsafe { slice("tape", tape, n) }?;
        let i = engine::describe_journal(t)?;
        // SAFETY: checked non-null.
        unsafe {
            put(
                o,
                m3JournalInfo {
                    records: i.records as i64,
                    steps: i.steps as i64,
                },
            )
        };
        Ok(())
    })
}

/// The size of a replay container for a snapshot and a tape of these sizes (-1 for a
/// negative size).
#[unsafe(no_mangle)]
pub extern "C" fn m3GetEncodedReplaySize(snapshotSize: i64, tapeSize: i64) -> i64 {
    crate::boundary::value("m3GetEncodedReplaySize", -1, || {
        if snapshotSize < 0 || tapeSize < 0 {
            return -1;
        }
        let s = engine::encoded_replay_size(snapshotSize as usize, tapeSize as usize);
        i64::try_from(s).unwrap_or(-1)
    })
}

/// Writes a replay container (starting snapshot, tape, the recorder's final hash) into
/// `buffer` and its length to `written`. Checks both parts first: a damaged one is
/// `m3_errorFormat`, another version's `m3_errorVersion`.
///
/// # Safety
/// - `snapshot` points to `snapshotSize` readable bytes (any alignment) for the
///   duration of the call (null only with `snapshotSize` 0).
/// - `tape` points to `tapeSize` readable bytes (any alignment) for the duration of the
///   call (null only with `tapeSize` 0).
/// - `buffer` points to `capacity` writable bytes (any alignment) for the duration of
///   the call (null is refused with `m3_errorArgument`).
/// - `written` points to one writable `i64`, aligned for its type, for the duration of
///   the call (null is refused with `m3_errorArgument`).
/// - `buffer` must not overlap `snapshot`, `tape` or `written`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m3EncodeReplay(
    snapshot: *const u8,
    snapshotSize: i64,
    tape: *const u8,
    tapeSize: i64,
    finalHash: u64,
    buffer: *mut u8,
    capacity: i64,
    written: *mut i64,
) -> m3Result {
    api("m3EncodeReplay", || {
        let o = out("written", written)?;
        let (sn, tn, cap) = (
            byte_len("snapshotSize", snapshotSize)?,
            byte_len("tapeSize", tapeSize)?,
            byte_len("capacity", capacity)?,
        );
        // SAFETY: the host promises the sizes it gives.
        let s = unsafe { slice("snapshot", snapshot, sn) }?;
        // SAFETY: as above.
        let t = unsafe { slice("tape", tape, tn) }?;
        let need = engine::encoded_replay_size(sn, tn);
        if cap < need {
            return Err(crate::refuse!(
                m3_errorCapacity,
                "replay buffer capacity {cap} is below the {need} bytes the container needs"
            ));
        }
        let b = out("buffer", buffer)?;
        // SAFETY: the host promises `capacity` writable bytes, not overlapping the parts.
        let dst = unsafe { core::slice::from_raw_parts_mut(b, cap) };
        let n = engine::encode_replay(s, t, finalHash, dst)?;
        // SAFETY: checked non-null.
        unsafe { put(o, n as i64) };
        Ok(())
    })
}

/// A decoded replay container: views into the host's buffer.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct m3ReplayView {
    /// The starting snapshot.
    pub snapshot: *const u8,
    /// Its size.
    pub snapshotSize: i64,
    /// The tape.
    pub tape: *const u8,
    /// Its size.
    pub tapeSize: i64,
    /// The recorder's hash after the last record.
    pub finalHash: u64,
    /// Records on the tape.
    pub records: i64,
    /// Steps among them.
    pub steps: i64,
}

/// Checks a container (its header, the snapshot's and tape's headers, exact lengths, the
/// tape's framing, the counts) and gives views of its parts.
///
/// # Safety
/// - `buffer` points to `length` readable bytes (any alignment) for the duration of the
///   call (null only with `length` 0).
/// - `view` points to one writable `m3ReplayView`, aligned for its type, for the
///   duration of the call (null is refused with `m3_errorArgument`).
/// - The pointers written to `*view` point into `buffer`: they are valid as long as
///   `buffer` is, and only for reading.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m3DecodeReplay(
    buffer: *const u8,
    length: i64,
    view: *mut m3ReplayView,
) -> m3Result {
    api("m3DecodeReplay", || {
        let o = out("view", view)?;
        let n = byte_len("length", length)?;
        // SAFETY: the host promises `length` readable bytes.
        let b = unsafe { slice("buffer", buffer, n) }?;
        let v = engine::decode_replay(b)?;
        // SAFETY: checked non-null.
        unsafe {
            put(
                o,
                m3ReplayView {
                    snapshot: v.snapshot.as_ptr(),
                    snapshotSize: v.snapshot.len() as i64,
                    tape: v.tape.as_ptr(),
                    tapeSize: v.tape.len() as i64,
                    finalHash: v.final_hash,
                    records: v.records as i64,
                    steps: v.steps as i64,
                },
            )
        };
        Ok(())
    })
}
