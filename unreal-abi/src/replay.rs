//! Replay players: a replay container opened for scrubbing, over the core's
//! `ReplayPlayer` (seek with keyframes, step forward and back, verify, diff), and read
//! access to the world at the current step (its bodies and debug draw).
//!
//! A player is an object of the library's heap that the host holds by pointer
//! (`m3ReplayPlayer*`): made by `m3ReplayPlayer_Open`, freed by `m3ReplayPlayer_Destroy`.
//! Its world is not in the table of worlds and has no `m3WorldId`: only the player changes
//! it, so no world call can reach it, and the reads a viewer needs are the player's own
//! calls. The ids it hands out (bodies, and shapes and joints in its debug draw) carry the
//! null world id (index 0): `m3ReplayPlayer_GetBody` takes them back, and `m3Body_*`
//! refuses them as naming no world.
//!
//! Each player has a state word as a world has: calls that move it (seek, steps, verify,
//! diff) or run host code on it (draw) take it as writer, reads as reader, and a call that
//! finds it taken (another thread, or a drawing function calling back) is `m3_errorBusy`
//! at once, never a wait. A panic inside a call poisons the player: every later call is
//! `m3_errorState`, and `m3ReplayPlayer_Destroy` still frees it.

use crate::body::{c_body_type, m3BodyType};
use crate::boundary::{Refusal, api};
use crate::hooks::{HostDraw, m3DebugDraw};
use crate::types::*;
use crate::world::m3BodyDiff;
use core::cell::UnsafeCell;
use core::sync::atomic::{AtomicU32, Ordering};
use engine::{Parting, ReplayPlayer, World};

/// A replay file opened for playing: the decoded recording, a world in the state of one
/// step, and the keyframes passed so far. Opaque; made by `m3ReplayPlayer_Open`, freed by
/// `m3ReplayPlayer_Destroy`. One thread may change it at a time (others are refused as
/// busy); any number may read it together.
pub struct m3ReplayPlayer {
    /// Idle, a count of readers, or one writer; and the poisoned bit.
    state: AtomicU32,
    player: UnsafeCell<ReplayPlayer>,
}

const WRITER: u32 = 1 << 31;
const POISONED: u32 = 1 << 30;
const READERS: u32 = POISONED - 1;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Access {
    Read,
    Write,
    /// Write, also on a poisoned player.
    Destroy,
}

/// Takes the player's state word for `access`, or refuses. `name` is the argument's.
fn acquire<'a>(
    name: &'static str,
    p: *const m3ReplayPlayer,
    access: Access,
) -> Result<&'a m3ReplayPlayer, Refusal> {
    if p.is_null() {
        return Err(crate::refuse!(
            m3_errorArgument,
            "{name} is a null pointer: it must be a player from m3ReplayPlayer_Open"
        ));
    }
    // SAFETY: the host promises a live player from m3ReplayPlayer_Open; only its atomic
    // state word is touched before the word is held.
    let pl = unsafe { &*p };
    let mut word = pl.state.load(Ordering::Acquire);
    loop {
        if word & POISONED != 0 && access != Access::Destroy {
            return Err(crate::refuse!(
                m3_errorState,
                "{name} is poisoned: an earlier call panicked inside the library; destroy it"
            ));
        }
        let busy = match access {
            Access::Read => word & WRITER != 0 || word & READERS == READERS,
            Access::Write | Access::Destroy => word & (WRITER | READERS) != 0,
        };
        if busy {
            let why = if word & WRITER != 0 {
                "it is running host code (a drawing function) or another thread is moving it"
            } else {
                "other threads are reading it"
            };
            return Err(crate::refuse!(m3_errorBusy, "{name} is busy: {why}"));
        }
        let next = match access {
            Access::Read => word + 1,
            Access::Write | Access::Destroy => word | WRITER,
        };
        match pl
            .state
            .compare_exchange_weak(word, next, Ordering::Acquire, Ordering::Acquire)
        {
            Ok(_) => return Ok(pl),
            Err(now) => word = now,
        }
    }
}

fn poison(name: &'static str, pl: &m3ReplayPlayer) -> Refusal {
    pl.state.fetch_or(POISONED, Ordering::AcqRel);
    crate::refuse!(
        m3_errorState,
        "internal error: the library panicked; {name} is poisoned and every later call on it is refused"
    )
}

/// Runs `f` on the player as a reader.
fn read<T>(
    name: &'static str,
    p: *const m3ReplayPlayer,
    f: impl FnOnce(&ReplayPlayer) -> Result<T, Refusal>,
) -> Result<T, Refusal> {
    let pl = acquire(name, p, Access::Read)?;
    let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        // SAFETY: held as a reader: nobody changes the player meanwhile.
        f(unsafe { &*pl.player.get() })
    }));
    let r = r.unwrap_or_else(|_| Err(poison(name, pl)));
    pl.state.fetch_sub(1, Ordering::Release);
    r
}

/// Runs `f` on the player as its one writer.
fn write<T>(
    name: &'static str,
    p: *mut m3ReplayPlayer,
    f: impl FnOnce(&mut ReplayPlayer) -> Result<T, Refusal>,
) -> Result<T, Refusal> {
    let pl = acquire(name, p, Access::Write)?;
    let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        // SAFETY: held as the writer: nobody else uses the player meanwhile.
        f(unsafe { &mut *pl.player.get() })
    }));
    let (r, keep) = match r {
        Ok(r) => (r, 0),
        Err(_) => (Err(poison(name, pl)), POISONED),
    };
    pl.state.store(keep, Ordering::Release);
    r
}

/// Opens a player over `length` bytes (copied) with the core's keyframe choice or `every`.
///
/// # Safety
/// As `m3ReplayPlayer_OpenWith`'s.
unsafe fn open(
    bytes: *const u8,
    length: i64,
    every: Option<u64>,
    player: *mut *mut m3ReplayPlayer,
) -> Result<(), Refusal> {
    let o = out("player", player)?;
    let n = byte_len("length", length)?;
    // SAFETY: the host promises `length` readable bytes.
    let b = unsafe { slice("bytes", bytes, n) }?;
    let p = match every {
        None => ReplayPlayer::open(b)?,
        Some(0) => {
            return Err(crate::refuse!(
                m3_errorArgument,
                "keyframeEvery = 0 must be at least 1 step"
            ));
        }
        Some(k) => ReplayPlayer::open_with(b, k)?,
    };
    let made = Box::into_raw(Box::new(m3ReplayPlayer {
        state: AtomicU32::new(0),
        player: UnsafeCell::new(p),
    }));
    // SAFETY: checked non-null.
    unsafe { put(o, made) };
    Ok(())
}

/// Opens a replay container (`m3EncodeReplay`'s format; the bytes are copied, so the
/// buffer may go once this returns) at step 0, with keyframes spaced so those of the whole
/// recording stay within about 64 MiB (never closer than 30 steps). Opening replays
/// nothing. A damaged container is `m3_errorFormat`, one of another format version
/// `m3_errorVersion`; then nothing is made and `*player` is left as it was. The player's
/// memory comes from the library's heap (not a world's allocator).
///
/// # Safety
/// - `bytes` points to `length` readable bytes (any alignment) for the duration of the
///   call (null only with `length` 0).
/// - `player` points to one writable `m3ReplayPlayer*`, aligned for its type, for the
///   duration of the call (null is refused with `m3_errorArgument`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m3ReplayPlayer_Open(
    bytes: *const u8,
    length: i64,
    player: *mut *mut m3ReplayPlayer,
) -> m3Result {
    // SAFETY: the host's promises are this function's.
    api("m3ReplayPlayer_Open", || unsafe {
        open(bytes, length, None, player)
    })
}

/// `m3ReplayPlayer_Open` keeping a keyframe every `keyframeEvery` steps (at least 1):
/// memory for speed, a seek replays at most `keyframeEvery - 1` steps once the keyframes
/// before it exist.
///
/// # Safety
/// - `bytes` points to `length` readable bytes (any alignment) for the duration of the
///   call (null only with `length` 0).
/// - `player` points to one writable `m3ReplayPlayer*`, aligned for its type, for the
///   duration of the call (null is refused with `m3_errorArgument`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m3ReplayPlayer_OpenWith(
    bytes: *const u8,
    length: i64,
    keyframeEvery: u64,
    player: *mut *mut m3ReplayPlayer,
) -> m3Result {
    // SAFETY: the host's promises are this function's.
    api("m3ReplayPlayer_OpenWith", || unsafe {
        open(bytes, length, Some(keyframeEvery), player)
    })
}

/// Frees a player and all its memory (also a poisoned one). Refused with `m3_errorBusy`
/// while another call uses it (from its drawing functions, or another thread).
///
/// # Safety
/// `player` is null (refused with `m3_errorArgument`) or a player from
/// `m3ReplayPlayer_Open` not yet destroyed; after `m3_success` it must not be used again.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m3ReplayPlayer_Destroy(player: *mut m3ReplayPlayer) -> m3Result {
    api("m3ReplayPlayer_Destroy", || {
        acquire("player", player, Access::Destroy)?;
        // A panic while dropping leaks what is left; the host gave the pointer up anyway.
        let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            // SAFETY: made by Box::into_raw in `open`; held as writer, freed once here.
            drop(unsafe { Box::from_raw(player) });
        }));
        Ok(())
    })
}

/// Reads one `u64` of the player into `o`.
fn read_u64(
    player: *const m3ReplayPlayer,
    name: &'static str,
    o: *mut u64,
    f: impl FnOnce(&ReplayPlayer) -> u64,
) -> Result<(), Refusal> {
    let o = out(name, o)?;
    let v = read("player", player, |p| Ok(f(p)))?;
    // SAFETY: checked non-null.
    unsafe { put(o, v) };
    Ok(())
}

/// Steps on the recording's tape: the player's steps are 0 (the starting snapshot) to
/// this, inclusive.
///
/// # Safety
/// - `player` is a live player from `m3ReplayPlayer_Open` (null is refused with
///   `m3_errorArgument`).
/// - `steps` points to one writable `u64`, aligned for its type, for the duration of the
///   call (null is refused with `m3_errorArgument`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m3ReplayPlayer_GetStepCount(
    player: *const m3ReplayPlayer,
    steps: *mut u64,
) -> m3Result {
    api("m3ReplayPlayer_GetStepCount", || {
        read_u64(player, "steps", steps, ReplayPlayer::step_count)
    })
}

/// The step whose state the player's world holds (the world after the tape's step-th
/// step, before any call that follows it).
///
/// # Safety
/// - `player` is a live player from `m3ReplayPlayer_Open` (null is refused with
///   `m3_errorArgument`).
/// - `step` points to one writable `u64`, aligned for its type, for the duration of the
///   call (null is refused with `m3_errorArgument`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m3ReplayPlayer_GetCurrentStep(
    player: *const m3ReplayPlayer,
    step: *mut u64,
) -> m3Result {
    api("m3ReplayPlayer_GetCurrentStep", || {
        read_u64(player, "step", step, ReplayPlayer::current_step)
    })
}

/// The hash of the player's world at the current step (as `m3World_GetHash`).
///
/// # Safety
/// - `player` is a live player from `m3ReplayPlayer_Open` (null is refused with
///   `m3_errorArgument`).
/// - `hash` points to one writable `u64`, aligned for its type, for the duration of the
///   call (null is refused with `m3_errorArgument`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m3ReplayPlayer_GetHash(
    player: *const m3ReplayPlayer,
    hash: *mut u64,
) -> m3Result {
    api("m3ReplayPlayer_GetHash", || {
        read_u64(player, "hash", hash, ReplayPlayer::hash_at_current)
    })
}

/// The hash the recorder stored after its last call.
///
/// # Safety
/// - `player` is a live player from `m3ReplayPlayer_Open` (null is refused with
///   `m3_errorArgument`).
/// - `hash` points to one writable `u64`, aligned for its type, for the duration of the
///   call (null is refused with `m3_errorArgument`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m3ReplayPlayer_GetRecordedFinalHash(
    player: *const m3ReplayPlayer,
    hash: *mut u64,
) -> m3Result {
    api("m3ReplayPlayer_GetRecordedFinalHash", || {
        read_u64(player, "hash", hash, ReplayPlayer::recorded_final_hash)
    })
}

/// The keyframe spacing in steps.
///
/// # Safety
/// - `player` is a live player from `m3ReplayPlayer_Open` (null is refused with
///   `m3_errorArgument`).
/// - `keyframeEvery` points to one writable `u64`, aligned for its type, for the
///   duration of the call (null is refused with `m3_errorArgument`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m3ReplayPlayer_GetKeyframeEvery(
    player: *const m3ReplayPlayer,
    keyframeEvery: *mut u64,
) -> m3Result {
    api("m3ReplayPlayer_GetKeyframeEvery", || {
        read_u64(
            player,
            "keyframeEvery",
            keyframeEvery,
            ReplayPlayer::keyframe_every,
        )
    })
}

/// The step up to which the player's keyframes are complete (the step count once
/// indexed).
///
/// # Safety
/// - `player` is a live player from `m3ReplayPlayer_Open` (null is refused with
///   `m3_errorArgument`).
/// - `step` points to one writable `u64`, aligned for its type, for the duration of the
///   call (null is refused with `m3_errorArgument`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m3ReplayPlayer_GetIndexedThrough(
    player: *const m3ReplayPlayer,
    step: *mut u64,
) -> m3Result {
    api("m3ReplayPlayer_GetIndexedThrough", || {
        read_u64(player, "step", step, ReplayPlayer::indexed_through)
    })
}

/// Takes keyframes ahead without moving the current step: a second world walks at most
/// `maxSteps` steps on from the furthest keyframe. `done` is true once every keyframe
/// exists (then any seek replays at most the keyframe spacing minus one steps). A viewer
/// calls it a little every frame so that scrubbing never waits on a long replay.
///
/// # Safety
/// - `player` is a live player from `m3ReplayPlayer_Open` (null is refused with
///   `m3_errorArgument`).
/// - `done` points to one writable `bool`, aligned for its type, for the duration of the
///   call (null is refused with `m3_errorArgument`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m3ReplayPlayer_IndexAhead(
    player: *mut m3ReplayPlayer,
    maxSteps: u64,
    done: *mut bool,
) -> m3Result {
    api("m3ReplayPlayer_IndexAhead", || {
        let o = out("done", done)?;
        let d = write("player", player, |p| {
            if maxSteps == 0 {
                return Err(crate::refuse!(
                    m3_errorArgument,
                    "maxSteps = 0 must be at least 1"
                ));
            }
            Ok(p.index_ahead(maxSteps)?)
        })?;
        // SAFETY: checked non-null.
        unsafe { put(o, d) };
        Ok(())
    })
}

/// Brings the player's world to step `step` (0 to the step count), from the current step
/// or the nearest keyframe before it. A step past the end is `m3_errorArgument` and
/// leaves the player where it was.
///
/// # Safety
/// `player` is a live player from `m3ReplayPlayer_Open` (null is refused with
/// `m3_errorArgument`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m3ReplayPlayer_Seek(player: *mut m3ReplayPlayer, step: u64) -> m3Result {
    api("m3ReplayPlayer_Seek", || {
        write("player", player, |p| {
            if step > p.step_count() {
                return Err(crate::refuse!(
                    m3_errorArgument,
                    "step = {step} must be within [0, {}] (the recording's steps)",
                    p.step_count()
                ));
            }
            Ok(p.seek(step)?)
        })
    })
}

/// Replays the calls of the next step; `moved` is false (and nothing changes) at the
/// last step.
///
/// # Safety
/// - `player` is a live player from `m3ReplayPlayer_Open` (null is refused with
///   `m3_errorArgument`).
/// - `moved` points to one writable `bool`, aligned for its type, for the duration of
///   the call (null is refused with `m3_errorArgument`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m3ReplayPlayer_StepForward(
    player: *mut m3ReplayPlayer,
    moved: *mut bool,
) -> m3Result {
    api("m3ReplayPlayer_StepForward", || {
        let o = out("moved", moved)?;
        let m = write("player", player, |p| Ok(p.step_forward()?))?;
        // SAFETY: checked non-null.
        unsafe { put(o, m) };
        Ok(())
    })
}

/// Goes back one step (a seek); `moved` is false (and nothing changes) at step 0.
///
/// # Safety
/// - `player` is a live player from `m3ReplayPlayer_Open` (null is refused with
///   `m3_errorArgument`).
/// - `moved` points to one writable `bool`, aligned for its type, for the duration of
///   the call (null is refused with `m3_errorArgument`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m3ReplayPlayer_StepBack(
    player: *mut m3ReplayPlayer,
    moved: *mut bool,
) -> m3Result {
    api("m3ReplayPlayer_StepBack", || {
        let o = out("moved", moved)?;
        let m = write("player", player, |p| Ok(p.step_back()?))?;
        // SAFETY: checked non-null.
        unsafe { put(o, m) };
        Ok(())
    })
}

/// Replays the whole recording (every step, then any calls after the last step) and
/// writes the hash the recorder stored and the one replaying gave: equal means the
/// recording replays here bit for bit (`m3_success` either way). Leaves the player at the
/// last step, with every keyframe taken.
///
/// # Safety
/// - `player` is a live player from `m3ReplayPlayer_Open` (null is refused with
///   `m3_errorArgument`).
/// - `recorded` and `replayed` each point to one writable `u64`, aligned for its type,
///   for the duration of the call (null is refused with `m3_errorArgument`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m3ReplayPlayer_Verify(
    player: *mut m3ReplayPlayer,
    recorded: *mut u64,
    replayed: *mut u64,
) -> m3Result {
    api("m3ReplayPlayer_Verify", || {
        let (or, op) = (out("recorded", recorded)?, out("replayed", replayed)?);
        let v = write("player", player, |p| Ok(p.verify()?))?;
        // SAFETY: checked non-null.
        unsafe {
            put(or, v.recorded);
            put(op, v.replayed);
        }
        Ok(())
    })
}

/// How two recordings compare (`m3ReplayParting.kind`): `m3_replaysAgree`,
/// `m3_replaysDifferInLength`, `m3_replaysPart`.
pub type m3ReplayPartingKind = i32;
/// The same hash at every step, and the same number of steps.
pub const m3_replaysAgree: m3ReplayPartingKind = 0;
/// The same hash at every step both have; one recording goes on longer.
pub const m3_replaysDifferInLength: m3ReplayPartingKind = 1;
/// The states differ first at `step`.
pub const m3_replaysPart: m3ReplayPartingKind = 2;

/// Where two recordings part (`m3ReplayPlayer_Diff`).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct m3ReplayParting {
    /// `m3_replaysAgree`, `m3_replaysDifferInLength` or `m3_replaysPart`.
    pub kind: m3ReplayPartingKind,
    /// The first step whose states differ (`m3_replaysPart`), else the last step both
    /// recordings have.
    pub step: u64,
    /// The first recording's hash at `step`.
    pub hashA: u64,
    /// The second recording's hash at `step`.
    pub hashB: u64,
    /// Steps of the first recording.
    pub stepsA: u64,
    /// Steps of the second recording.
    pub stepsB: u64,
    /// Body slots that differ at `step` (0 unless `m3_replaysPart`; 0 there too when
    /// only shapes, contacts or settings differ).
    pub differing: i32,
    /// Rows written to `rows`: the worst `min(differing, capacity)`.
    pub rowCount: i32,
}

/// Compares two recordings step by step from the start: where they first part, and the
/// bodies that differ there, worst first (position, then rotation, then velocity error,
/// as `m3World_Compare`), up to `capacity` rows. Both players are moved: they are left at
/// the parting step (or the last step both have). Recordings of worlds with different
/// capacities cannot be compared slot by slot: `m3_errorArgument`, as are `a` and `b`
/// the same player.
///
/// # Safety
/// - `a` and `b` are live players from `m3ReplayPlayer_Open` (null is refused with
///   `m3_errorArgument`).
/// - `rows` points to `capacity` writable `m3BodyDiff` items, aligned, for the duration
///   of the call (they may be uninitialised; null only with `capacity` 0).
/// - `parting` points to one writable `m3ReplayParting`, aligned for its type, for the
///   duration of the call (null is refused with `m3_errorArgument`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m3ReplayPlayer_Diff(
    a: *mut m3ReplayPlayer,
    b: *mut m3ReplayPlayer,
    rows: *mut m3BodyDiff,
    capacity: i32,
    parting: *mut m3ReplayParting,
) -> m3Result {
    api("m3ReplayPlayer_Diff", || {
        let o = out("parting", parting)?;
        let rows = OutArray::new("rows", rows, capacity)?;
        if !a.is_null() && a == b {
            return Err(crate::refuse!(
                m3_errorArgument,
                "a and b are the same player: open the second recording in a player of its own"
            ));
        }
        let r = write("a", a, |pa| {
            write("b", b, |pb| {
                // No more rows than body slots can differ.
                let max_rows = rows.capacity().min(pa.def()?.body_capacity as usize);
                let parting = ReplayPlayer::diff(pa, pb, max_rows)?;
                let (sa, sb) = (pa.step_count(), pb.step_count());
                let mut r = m3ReplayParting {
                    step: pa.current_step(),
                    hashA: pa.hash_at_current(),
                    hashB: pb.hash_at_current(),
                    stepsA: sa,
                    stepsB: sb,
                    ..Default::default()
                };
                match parting {
                    Parting::Agree { .. } => r.kind = m3_replaysAgree,
                    Parting::Length { .. } => r.kind = m3_replaysDifferInLength,
                    Parting::At {
                        step,
                        hash_a,
                        hash_b,
                        differing,
                        rows: found,
                    } => {
                        r.kind = m3_replaysPart;
                        (r.step, r.hashA, r.hashB) = (step, hash_a, hash_b);
                        r.differing = to_i32(differing);
                        r.rowCount = to_i32(found.len());
                        for (i, d) in found.into_iter().enumerate() {
                            // SAFETY: within the capacity the host gave.
                            unsafe { rows.set(i, d.into()) };
                        }
                    }
                }
                Ok(r)
            })
        })?;
        // SAFETY: checked non-null.
        unsafe { put(o, r) };
        Ok(())
    })
}

/// A body of the player's world at the current step.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct m3ReplayBody {
    /// Its id in the player's world (its `world` is the null id: for
    /// `m3ReplayPlayer_GetBody`, not for `m3Body_*`).
    pub id: m3BodyId,
    /// Static, kinematic or dynamic.
    pub r#type: m3BodyType,
    /// The body origin's position, relative to the world origin.
    pub position: m3DVec3,
    /// Its rotation.
    pub rotation: m3Quat,
    /// The velocity of the centre of mass.
    pub linearVelocity: m3Vec3,
    /// The angular velocity.
    pub angularVelocity: m3Vec3,
    /// Whether it is awake (false: sleeping).
    pub awake: bool,
    /// Whether it is enabled.
    pub enabled: bool,
}

fn body_row(w: &World, id: engine::BodyId) -> engine::Result<m3ReplayBody> {
    Ok(m3ReplayBody {
        id: m3BodyId::from_core(id, m3WorldId::default()),
        r#type: c_body_type(w.body_type(id)?),
        position: w.body_position(id)?.into(),
        rotation: w.body_rotation(id)?.into(),
        linearVelocity: w.body_linear_velocity(id)?.into(),
        angularVelocity: w.body_angular_velocity(id)?.into(),
        awake: w.body_is_awake(id)?,
        enabled: w.body_is_enabled(id)?,
    })
}

/// The live bodies of the player's world at the current step, in slot order: up to
/// `capacity` of them into `bodies`, and how many live (which may exceed the capacity)
/// into `count`. A capacity of 0 (and a null `bodies`) only counts them.
///
/// # Safety
/// - `player` is a live player from `m3ReplayPlayer_Open` (null is refused with
///   `m3_errorArgument`).
/// - `bodies` points to `capacity` writable `m3ReplayBody` items, aligned, for the
///   duration of the call (they may be uninitialised; null only with `capacity` 0).
/// - `count` points to one writable `i32`, aligned for its type, for the duration of
///   the call (null is refused with `m3_errorArgument`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m3ReplayPlayer_GetBodies(
    player: *const m3ReplayPlayer,
    bodies: *mut m3ReplayBody,
    capacity: i32,
    count: *mut i32,
) -> m3Result {
    api("m3ReplayPlayer_GetBodies", || {
        let o = out("count", count)?;
        let arr = OutArray::new("bodies", bodies, capacity)?;
        let n = read("player", player, |p| {
            let w = p.world();
            let mut n = 0;
            for id in w.body_ids() {
                if n < arr.capacity() {
                    // SAFETY: within the host's capacity.
                    unsafe { arr.set(n, body_row(w, id)?) };
                }
                n += 1;
            }
            Ok(n)
        })?;
        // SAFETY: checked non-null.
        unsafe { put(o, to_i32(n)) };
        Ok(())
    })
}

/// One body of the player's world at the current step, by an id the player gave
/// (`m3ReplayPlayer_GetBodies`, its debug draw). An id of a table world, or of a body
/// not alive at this step, is `m3_errorInvalidId`.
///
/// # Safety
/// - `player` is a live player from `m3ReplayPlayer_Open` (null is refused with
///   `m3_errorArgument`).
/// - `body` points to one writable `m3ReplayBody`, aligned for its type, for the
///   duration of the call (null is refused with `m3_errorArgument`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m3ReplayPlayer_GetBody(
    player: *const m3ReplayPlayer,
    bodyId: m3BodyId,
    body: *mut m3ReplayBody,
) -> m3Result {
    api("m3ReplayPlayer_GetBody", || {
        let o = out("body", body)?;
        if bodyId.index == 0 {
            return Err(crate::refuse!(
                m3_errorInvalidId,
                "bodyId has index 0 (the null id): it must be an id the player gave"
            ));
        }
        if bodyId.world != m3WorldId::default() {
            return Err(crate::refuse!(
                m3_errorInvalidId,
                "bodyId belongs to world (index {}, generation {}): the player's bodies carry the null world id",
                bodyId.world.index,
                bodyId.world.generation
            ));
        }
        let row = read("player", player, |p| {
            let w = p.world();
            Ok(body_row(w, bodyId.to_core(w.id_tag()))?)
        })?;
        // SAFETY: checked non-null.
        unsafe { put(o, row) };
        Ok(())
    })
}

/// Describes the player's world at the current step to the host's drawing functions, as
/// `m3World_Draw` does a world's (the ids they get carry the null world id). They run in
/// the host's floating-point setting; a call on this player from them is refused as
/// busy.
///
/// # Safety
/// - `player` is a live player from `m3ReplayPlayer_Open` (null is refused with
///   `m3_errorArgument`).
/// - `draw` points to one readable `m3DebugDraw`, aligned for its type, for the
///   duration of the call (null is refused with `m3_errorArgument`).
/// - Each drawing function in `*draw` is null or callable with its signature for the
///   duration of the call; `draw->context` is passed to them as is.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m3ReplayPlayer_Draw(
    player: *mut m3ReplayPlayer,
    draw: *const m3DebugDraw,
) -> m3Result {
    api("m3ReplayPlayer_Draw", || {
        // SAFETY: the host passes a valid draw or null.
        let d = unsafe { read_ptr("draw", draw) }?;
        // As writer, so the drawing functions find the player busy rather than moving it
        // mid-draw.
        write("player", player, |p| {
            let mut host = HostDraw {
                draw: d,
                world: m3WorldId::default(),
            };
            p.world().debug_draw(&d.options(), &mut host);
            Ok(())
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::m3Result as R;

    fn demo() -> Vec<u8> {
        std::fs::read(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../test/demo.m3replay"
        ))
        .unwrap()
    }

    fn open_demo() -> *mut m3ReplayPlayer {
        let bytes = demo();
        let mut p = core::ptr::null_mut();
        // SAFETY: valid pointers.
        let r = unsafe { m3ReplayPlayer_OpenWith(bytes.as_ptr(), bytes.len() as i64, 16, &mut p) };
        assert_eq!(r, R::m3_success);
        p
    }

    #[test]
    fn seeks_agree_with_the_core_player_and_reads_see_the_step() {
        let bytes = demo();
        let mut core = ReplayPlayer::open(&bytes).unwrap();
        let p = open_demo();
        let mut steps = 0;
        // SAFETY: a live player and valid pointers throughout.
        unsafe {
            assert_eq!(m3ReplayPlayer_GetStepCount(p, &mut steps), R::m3_success);
            assert_eq!(steps, core.step_count());
            for s in [steps, 0, steps / 2, 17, steps / 2 + 1] {
                core.seek(s).unwrap();
                assert_eq!(m3ReplayPlayer_Seek(p, s), R::m3_success);
                let (mut h, mut at, mut n) = (0, 0, 0);
                assert_eq!(m3ReplayPlayer_GetHash(p, &mut h), R::m3_success);
                assert_eq!(m3ReplayPlayer_GetCurrentStep(p, &mut at), R::m3_success);
                assert_eq!((h, at), (core.hash_at_current(), s));
                assert_eq!(
                    m3ReplayPlayer_GetBodies(p, core::ptr::null_mut(), 0, &mut n),
                    R::m3_success
                );
                assert_eq!(n as usize, core.world().body_ids().count());
            }
            assert_eq!(m3ReplayPlayer_Destroy(p), R::m3_success);
        }
    }

    #[test]
    fn a_panic_inside_a_call_poisons_the_player_and_destroy_still_frees_it() {
        let p = open_demo();
        let r = api("test", || {
            write("player", p, |_| -> Result<(), Refusal> {
                panic!("injected")
            })
        });
        assert_eq!(r, R::m3_errorState);
        let mut h = 0;
        // SAFETY: a live (poisoned) player and valid pointers.
        unsafe {
            assert_eq!(m3ReplayPlayer_GetHash(p, &mut h), R::m3_errorState);
            assert_eq!(m3ReplayPlayer_Seek(p, 1), R::m3_errorState);
            assert_eq!(m3ReplayPlayer_Destroy(p), R::m3_success);
        }
    }

    #[test]
    fn a_drawing_function_calling_back_finds_the_player_busy() {
        unsafe extern "C" fn shape(
            _s: m3ShapeId,
            b: m3BodyId,
            _p: m3DVec3,
            _q: m3Quat,
            _g: *const crate::hooks::m3DebugShape,
            _awake: bool,
            ctx: *mut core::ffi::c_void,
        ) {
            // SAFETY: the test's context: the player and a result slot.
            unsafe {
                let (p, seen) = &mut *(ctx as *mut (*mut m3ReplayPlayer, Vec<(R, R)>));
                let mut row = core::mem::MaybeUninit::<m3ReplayBody>::uninit();
                seen.push((
                    m3ReplayPlayer_Seek(*p, 0),
                    m3ReplayPlayer_GetBody(*p, b, row.as_mut_ptr()),
                ));
            }
        }
        let p = open_demo();
        let mut ctx: (*mut m3ReplayPlayer, Vec<(R, R)>) = (p, Vec::new());
        let mut draw = crate::m3DefaultDebugDraw();
        draw.shapeFcn = Some(shape);
        draw.context = &mut ctx as *mut _ as *mut core::ffi::c_void;
        // SAFETY: a live player; the context outlives the call.
        unsafe {
            assert_eq!(m3ReplayPlayer_Seek(p, 40), R::m3_success);
            assert_eq!(m3ReplayPlayer_Draw(p, &draw), R::m3_success);
            assert!(!ctx.1.is_empty());
            assert!(
                ctx.1
                    .iter()
                    .all(|&r| r == (R::m3_errorBusy, R::m3_errorBusy))
            );
            // Released: calls go through again, and the player did not move.
            let mut at = 0;
            assert_eq!(m3ReplayPlayer_GetCurrentStep(p, &mut at), R::m3_success);
            assert_eq!(at, 40);
            assert_eq!(m3ReplayPlayer_Destroy(p), R::m3_success);
        }
    }
}
