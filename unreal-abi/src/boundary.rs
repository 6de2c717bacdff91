//! The boundary every export goes through: the floating-point shim, the panic catch, the
//! per-thread error message, the table of worlds and its state words.
//!
//! **State word.** Each world slot has one atomic `u64`: the slot's generation (high 32
//! bits) and its state (low 32): vacant, poisoned, one writer, or a count of readers. A
//! call that changes a world swaps "idle" for "writer" and puts "idle" back when done; a
//! read adds a reader and takes it away. Anything else it finds — a writer (the world is
//! stepping and called a host hook that called us back, or another thread is changing
//! it), readers when it wants to write — is `m3_errorBusy` at once. Nothing waits, so a
//! call from inside a callback can never deadlock.
//!
//! **Poison.** A panic inside a world's call is caught where the guard runs it; the world
//! may be half changed, which breaks the promise that a refused call changes nothing, so
//! the poisoned bit is set and every later call on it is refused with `m3_errorState`.
//! `m3World_Destroy` still frees it.

use crate::hooks::{HOST_FP, Hooks};
use crate::types::{ObjectId, m3Result, m3WorldId};
use core::cell::{Cell, UnsafeCell};
use core::fmt::{self, Write};
use core::sync::atomic::{AtomicU64, Ordering};
use engine::fp;

/// Most worlds alive at once.
pub const M3_MAX_WORLDS: usize = 128;

const VACANT: u32 = 1 << 31;
const WRITER: u32 = 1 << 30;
const POISONED: u32 = 1 << 29;
const READERS: u32 = POISONED - 1;

fn pack(generation: u16, state: u32) -> u64 {
    ((generation as u64) << 32) | state as u64
}
fn generation_of(word: u64) -> u16 {
    (word >> 32) as u16
}
fn state_of(word: u64) -> u32 {
    word as u32
}

/// What the library keeps for one world.
pub(crate) struct Entry {
    /// The engine's world.
    pub world: engine::World,
    /// Its id in this table.
    pub id: m3WorldId,
    /// The engine's id tag of the world (ids are rebuilt with it).
    pub tag: u32,
    /// The host hooks, in an allocation of their own: its address is the context the
    /// engine hands back to our trampolines, so it must not move with the entry.
    pub hooks: *mut Hooks,
    /// Where a running journal's tape is mirrored: the host's buffer.
    pub journal: Option<crate::journal::Mirror>,
}

impl Entry {
    /// The engine's allocator of this world, for scratch memory of queries.
    pub(crate) fn alloc(&self) -> engine::alloc::WorldAlloc {
        // SAFETY: the hooks live as long as the entry.
        unsafe { (*self.hooks).world_alloc() }
    }

    /// Refuses a null id, or an id of another world than this one.
    pub(crate) fn owns(&self, what: &'static str, id: impl ObjectId) -> Result<(), Refusal> {
        non_null(what, id)?;
        let world = id.world();
        if world != self.id {
            return Err(crate::refuse!(
                m3_errorInvalidId,
                "{what} belongs to world (index {}, generation {}), not to this world (index {}, generation {})",
                world.index,
                world.generation,
                self.id.index,
                self.id.generation
            ));
        }
        Ok(())
    }
}

/// Refuses a null object id (all zero) as such, before its world (index 0) is looked up
/// and reported as a null world; an id with a slot but no world names no world.
pub(crate) fn non_null(what: &'static str, id: impl ObjectId) -> Result<(), Refusal> {
    if id.is_null() {
        return Err(crate::refuse!(
            m3_errorInvalidId,
            "{what} is a null id (all zero): it must be an id the library gave for a live object"
        ));
    }
    let (index, generation) = id.slot();
    if id.world().index == 0 {
        return Err(crate::refuse!(
            m3_errorInvalidId,
            "{what} (index {index}, generation {generation}) names no world (its world index is 0)"
        ));
    }
    Ok(())
}

struct Slot {
    word: AtomicU64,
    entry: UnsafeCell<*mut Entry>,
    misuse: AtomicU64,
}

// SAFETY: `entry` is written only by the thread holding the slot as writer (or creating
// it), and read only by threads holding it as reader or writer; the state word's
// acquire/release orders those accesses.
unsafe impl Sync for Slot {}

impl Slot {
    const fn new() -> Slot {
        Slot {
            word: AtomicU64::new(((1u64) << 32) | VACANT as u64),
            entry: UnsafeCell::new(core::ptr::null_mut()),
            misuse: AtomicU64::new(0),
        }
    }
}

static SLOTS: [Slot; M3_MAX_WORLDS] = [const { Slot::new() }; M3_MAX_WORLDS];

/// A refused call: its result code. The message is already in the thread's buffer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Refusal(pub m3Result);

impl From<engine::Error> for Refusal {
    fn from(e: engine::Error) -> Refusal {
        use engine::Error as E;
        let code = match e {
            E::Argument { .. } => m3Result::m3_errorArgument,
            E::Capacity { .. } | E::TooSmall { .. } => m3Result::m3_errorCapacity,
            E::InvalidId { .. } => m3Result::m3_errorInvalidId,
            E::State(_) => m3Result::m3_errorState,
            E::OutOfBounds { .. } | E::BodyOutOfBounds { .. } => m3Result::m3_errorOutOfBounds,
            E::Format(_) => m3Result::m3_errorFormat,
            E::Version { .. } => m3Result::m3_errorVersion,
            E::Busy => m3Result::m3_errorBusy,
        };
        refuse(code, format_args!("{e}"))
    }
}

/// Refuses with `code` and a message naming the value and the bound.
#[macro_export]
#[doc(hidden)]
macro_rules! refuse {
    ($code:ident, $($arg:tt)*) => {
        $crate::boundary::refuse($crate::types::m3Result::$code, format_args!($($arg)*))
    };
}

/// Writes the message of a refusal and returns it.
pub(crate) fn refuse(code: m3Result, message: fmt::Arguments) -> Refusal {
    set_last_error(message);
    Refusal(code)
}

/// Whether a refusal counts as misuse: every one but damaged or foreign-version data.
fn is_misuse(code: m3Result) -> bool {
    !matches!(
        code,
        m3Result::m3_success | m3Result::m3_errorFormat | m3Result::m3_errorVersion
    )
}

// ---- the per-thread error message ----

const MESSAGE_CAPACITY: usize = 512;

thread_local! {
    /// The last refusal's message on this thread, NUL-terminated. Fixed size: writing it
    /// never allocates.
    static LAST_ERROR: UnsafeCell<[u8; MESSAGE_CAPACITY]> = const { UnsafeCell::new([0; MESSAGE_CAPACITY]) };
    /// The export running on this thread (innermost), to name it in messages.
    static CURRENT: Cell<&'static str> = const { Cell::new("") };
}

struct MessageWriter<'a> {
    buf: &'a mut [u8; MESSAGE_CAPACITY],
    len: usize,
}

impl Write for MessageWriter<'_> {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        // Keep one byte for the NUL; cut at a character boundary.
        for ch in s.chars() {
            let mut tmp = [0u8; 4];
            let bytes = ch.encode_utf8(&mut tmp).as_bytes();
            if self.len + bytes.len() >= MESSAGE_CAPACITY {
                return Ok(());
            }
            self.buf[self.len..self.len + bytes.len()].copy_from_slice(bytes);
            self.len += bytes.len();
        }
        Ok(())
    }
}

fn set_last_error(message: fmt::Arguments) {
    LAST_ERROR.with(|cell| {
        // SAFETY: the buffer belongs to this thread, and no reference into it is alive
        // here (the host only holds the raw pointer `m3GetLastErrorMessage` gave).
        let buf = unsafe { &mut *cell.get() };
        let mut w = MessageWriter { buf, len: 0 };
        let name = CURRENT.with(|c| c.get());
        if !name.is_empty() {
            let _ = write!(w, "{name}: ");
        }
        let _ = w.write_fmt(message);
        let end = w.len;
        w.buf[end] = 0;
    });
}

/// The message of the last refused call on the calling thread, naming the value and the
/// bound it broke ("" before any refusal). Valid until the next refused call on this
/// thread; never freed by the host.
#[unsafe(no_mangle)]
pub extern "C" fn m3GetLastErrorMessage() -> *const core::ffi::c_char {
    value("m3GetLastErrorMessage", core::ptr::null(), || {
        LAST_ERROR.with(|cell| cell.get() as *const core::ffi::c_char)
    })
}

// ---- the shim ----

/// Runs an export: in the library's floating-point setting (the caller's is saved for the
/// host hooks and restored on return), with panics caught. Not inlined, so the switch
/// brackets everything the call computes.
#[inline(never)]
pub(crate) fn value<R>(name: &'static str, on_panic: R, f: impl FnOnce() -> R) -> R {
    let saved = fp::enter();
    // Everything `f` computes stays between the switches (see `fp::fence`).
    let f = fp::fence(f);
    let previous_fp = HOST_FP.with(|h| h.replace(Some(saved)));
    let previous_name = CURRENT.with(|c| c.replace(name));
    let r = match std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)) {
        Ok(r) => r,
        Err(_) => {
            set_last_error(format_args!(
                "internal error: the library panicked (no world was being changed)"
            ));
            on_panic
        }
    };
    let r = fp::fence(r);
    CURRENT.with(|c| c.set(previous_name));
    HOST_FP.with(|h| h.set(previous_fp));
    fp::leave(saved);
    r
}

/// Runs an export on world `world` (of the object ids it takes) that returns an
/// `m3Result`; a refusal of programmer error counts as misuse on that world.
pub(crate) fn api_on(
    name: &'static str,
    world: m3WorldId,
    f: impl FnOnce() -> Result<(), Refusal>,
) -> m3Result {
    let r = api(name, f);
    // Integer work only, so outside the shim.
    count_misuse(world, r);
    r
}

/// Runs an export that returns an `m3Result`.
pub(crate) fn api(name: &'static str, f: impl FnOnce() -> Result<(), Refusal>) -> m3Result {
    value(name, m3Result::m3_errorState, || match f() {
        Ok(()) => m3Result::m3_success,
        Err(r) => r.0,
    })
}

// ---- the table of worlds ----

/// The slot of a live world, without writing any message.
fn live_slot(id: m3WorldId) -> Option<&'static Slot> {
    let i = id.index as usize;
    if i == 0 || i > M3_MAX_WORLDS {
        return None;
    }
    let slot = &SLOTS[i - 1];
    let word = slot.word.load(Ordering::Acquire);
    (generation_of(word) == id.generation && state_of(word) & VACANT == 0).then_some(slot)
}

fn slot_of(id: m3WorldId) -> Result<&'static Slot, Refusal> {
    let i = id.index as usize;
    if i == 0 || i > M3_MAX_WORLDS || id.generation == 0 {
        return Err(invalid_world(id));
    }
    Ok(&SLOTS[i - 1])
}

fn invalid_world(id: m3WorldId) -> Refusal {
    crate::refuse!(
        m3_errorInvalidId,
        "world id (index {}, generation {}) is null, stale or never made (index within [1, {M3_MAX_WORLDS}])",
        id.index,
        id.generation
    )
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Access {
    Read,
    Write,
    /// Write, also on a poisoned world (destroy).
    Destroy,
}

/// Counts a refusal of programmer error on the world `id` names, if it names a live one.
pub(crate) fn count_misuse(id: m3WorldId, r: m3Result) {
    if !is_misuse(r) {
        return;
    }
    // Not `slot_of`: that would write a message over the refusal's.
    if let Some(slot) = live_slot(id) {
        slot.misuse.fetch_add(1, Ordering::Relaxed);
    }
}

/// Takes the slot's state word for `access`, or refuses.
fn acquire(id: m3WorldId, access: Access) -> Result<&'static Slot, Refusal> {
    let slot = slot_of(id)?;
    let mut word = slot.word.load(Ordering::Acquire);
    loop {
        let state = state_of(word);
        if generation_of(word) != id.generation || state & VACANT != 0 {
            return Err(invalid_world(id));
        }
        if state & POISONED != 0 && access != Access::Destroy {
            return Err(crate::refuse!(
                m3_errorState,
                "the world is poisoned: an earlier call panicked inside the library; destroy it"
            ));
        }
        let busy = match access {
            Access::Read => state & WRITER != 0 || state & READERS == READERS,
            Access::Write | Access::Destroy => state & (WRITER | READERS) != 0,
        };
        if busy {
            let why = if state & WRITER != 0 {
                "the world is running host code (a task, callback or allocator) or another thread is changing it"
            } else {
                "other threads are reading the world"
            };
            return Err(crate::refuse!(m3_errorBusy, "{why}"));
        }
        let next = match access {
            Access::Read => word + 1,
            Access::Write | Access::Destroy => {
                pack(generation_of(word), WRITER | (state & POISONED))
            }
        };
        match slot
            .word
            .compare_exchange_weak(word, next, Ordering::Acquire, Ordering::Acquire)
        {
            Ok(_) => return Ok(slot),
            Err(now) => word = now,
        }
    }
}

fn poison(slot: &Slot) -> Refusal {
    slot.word.fetch_or(POISONED as u64, Ordering::AcqRel);
    crate::refuse!(
        m3_errorState,
        "internal error: the library panicked; the world is poisoned and every later call on it is refused"
    )
}

/// Runs `f` on the world as a reader.
pub(crate) fn read<T>(
    id: m3WorldId,
    f: impl FnOnce(&Entry) -> Result<T, Refusal>,
) -> Result<T, Refusal> {
    let slot = acquire(id, Access::Read)?;
    // SAFETY: we hold the slot as a reader: the entry is alive and nobody writes it.
    let entry = unsafe { &**slot.entry.get() };
    let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| f(entry)));
    let r = match r {
        Ok(r) => r,
        Err(_) => Err(poison(slot)),
    };
    slot.word.fetch_sub(1, Ordering::Release);
    r
}

/// Runs `f` on two worlds as a reader of each (they may be the same world).
pub(crate) fn read2<T>(
    a: m3WorldId,
    b: m3WorldId,
    f: impl FnOnce(&Entry, &Entry) -> Result<T, Refusal>,
) -> Result<T, Refusal> {
    read(a, |ea| read(b, |eb| f(ea, eb)))
}

/// Runs `f` on the world as its one writer; mirrors a running journal's new records into
/// the host's buffer afterwards.
pub(crate) fn write<T>(
    id: m3WorldId,
    f: impl FnOnce(&mut Entry) -> Result<T, Refusal>,
) -> Result<T, Refusal> {
    let slot = acquire(id, Access::Write)?;
    // SAFETY: we hold the slot as its writer: the entry is alive and nobody else uses it.
    let entry = unsafe { &mut **slot.entry.get() };
    let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        let r = f(entry);
        if let Some(m) = entry.journal.as_mut() {
            m.sync(&entry.world);
        }
        r
    }));
    let (r, poisoned) = match r {
        Ok(r) => (r, false),
        Err(_) => (Err(poison(slot)), true),
    };
    let g = generation_of(slot.word.load(Ordering::Relaxed));
    let keep = if poisoned { POISONED } else { 0 };
    slot.word.store(pack(g, keep), Ordering::Release);
    r
}

/// Claims a vacant slot for a world being created: returns its id, held as writer.
pub(crate) fn claim() -> Result<m3WorldId, Refusal> {
    for (i, slot) in SLOTS.iter().enumerate() {
        let word = slot.word.load(Ordering::Acquire);
        if state_of(word) != VACANT {
            continue;
        }
        let g = generation_of(word);
        if slot
            .word
            .compare_exchange(word, pack(g, WRITER), Ordering::Acquire, Ordering::Relaxed)
            .is_ok()
        {
            slot.misuse.store(0, Ordering::Relaxed);
            return Ok(m3WorldId {
                index: (i + 1) as u16,
                generation: g,
            });
        }
    }
    Err(crate::refuse!(
        m3_errorCapacity,
        "worlds: at most {M3_MAX_WORLDS} may be alive at once"
    ))
}

/// Publishes a created world in a slot from `claim`.
pub(crate) fn publish(id: m3WorldId, entry: *mut Entry) {
    let slot = &SLOTS[id.index as usize - 1];
    // SAFETY: we hold the slot as writer since `claim`.
    unsafe { *slot.entry.get() = entry };
    slot.word.store(pack(id.generation, 0), Ordering::Release);
}

/// Gives back a slot from `claim` whose create failed (the id was never handed out).
pub(crate) fn unclaim(id: m3WorldId) {
    let slot = &SLOTS[id.index as usize - 1];
    slot.word
        .store(pack(id.generation, VACANT), Ordering::Release);
}

/// Takes a world out of the table (also a poisoned one) and frees the slot with a new
/// generation; `f` destroys the entry meanwhile.
pub(crate) fn retire(id: m3WorldId, f: impl FnOnce(*mut Entry)) -> Result<(), Refusal> {
    let slot = acquire(id, Access::Destroy)?;
    // SAFETY: we hold the slot as writer.
    let entry = unsafe { core::mem::replace(&mut *slot.entry.get(), core::ptr::null_mut()) };
    // A panic while dropping leaks what is left of the world; the slot is freed anyway.
    let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| f(entry)));
    let mut g = id.generation.wrapping_add(1);
    if g == 0 {
        g = 1;
    }
    slot.word.store(pack(g, VACANT), Ordering::Release);
    Ok(())
}

/// How many calls on a world were refused as programmer error (argument, capacity,
/// state, busy, out-of-bounds and invalid-id refusals; damaged or foreign-version data
/// does not count). Not state: never hashed or saved. Readable at any time, also while
/// the world is busy; 0 for an invalid world id.
#[unsafe(no_mangle)]
pub extern "C" fn m3World_GetMisuseCount(worldId: m3WorldId) -> u64 {
    value("m3World_GetMisuseCount", 0, || {
        live_slot(worldId).map_or(0, |s| s.misuse.load(Ordering::Relaxed))
    })
}

/// Whether a world id names a live world (a poisoned one included).
pub(crate) fn is_live(id: m3WorldId) -> bool {
    live_slot(id).is_some()
}

/// Scratch memory of `n` items for a query's results: on the stack when small, else from
/// the world's allocator (a refusal is `m3_errorCapacity`).
pub(crate) fn with_scratch<T: Copy, R>(
    entry: &Entry,
    n: usize,
    fill: T,
    f: impl FnOnce(&mut [T]) -> R,
) -> Result<R, Refusal> {
    const STACK: usize = 32;
    if n <= STACK {
        let mut a = [fill; STACK];
        return Ok(f(&mut a[..n]));
    }
    let mut v = engine::alloc::FixedVec::filled(n, fill, entry.alloc(), "result capacity")?;
    Ok(f(&mut v))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_are_cut_at_the_buffer_and_stay_nul_terminated() {
        let long = "x".repeat(2000);
        set_last_error(format_args!("{long}"));
        // SAFETY: the pointer is this thread's buffer, NUL-terminated.
        let msg = unsafe { core::ffi::CStr::from_ptr(m3GetLastErrorMessage()) };
        assert_eq!(msg.to_bytes().len(), MESSAGE_CAPACITY - 1);
    }

    fn new_world() -> m3WorldId {
        let def = crate::m3DefaultWorldDef();
        let mut id = m3WorldId::default();
        // SAFETY: valid pointers.
        let r = unsafe { crate::m3World_CreateVersioned(&def, crate::M3_ABI_VERSION, &mut id) };
        assert_eq!(r, m3Result::m3_success);
        id
    }

    #[test]
    fn a_panic_inside_a_call_poisons_only_that_world_and_destroy_still_frees_it() {
        let (sick, well) = (new_world(), new_world());
        let r = api("test", || {
            write(sick, |_| -> Result<(), Refusal> { panic!("injected") })
        });
        assert_eq!(r, m3Result::m3_errorState);
        assert_eq!(
            crate::m3World_Step(sick, 1.0 / 60.0, 1),
            m3Result::m3_errorState
        );
        assert_eq!(crate::m3World_Hash(sick), 0);
        assert!(crate::m3World_GetMisuseCount(sick) >= 1);
        assert_eq!(
            crate::m3World_Step(well, 1.0 / 60.0, 1),
            m3Result::m3_success
        );
        assert_eq!(crate::m3World_Destroy(sick), m3Result::m3_success);
        assert!(!crate::m3World_IsValid(sick));
        assert_eq!(crate::m3World_Destroy(well), m3Result::m3_success);
    }

    #[test]
    fn readers_share_a_world_and_a_writer_finds_it_busy() {
        let w = new_world();
        let inner = read(w, |_| {
            // A second reader is let in; a writer is refused at once, never waits.
            assert!(read(w, |_| Ok(())).is_ok());
            Ok(write(w, |_| Ok(())).map_err(|r| r.0))
        });
        assert_eq!(inner, Ok(Err(m3Result::m3_errorBusy)));
        let inner = write(w, |_| Ok(read(w, |_| Ok(())).map_err(|r| r.0)));
        assert_eq!(inner, Ok(Err(m3Result::m3_errorBusy)));
        // Both released: a write goes through again.
        assert!(write(w, |_| Ok(())).is_ok());
        assert_eq!(crate::m3World_Destroy(w), m3Result::m3_success);
    }

    #[test]
    fn a_stale_world_id_is_refused_after_its_slot_is_reused() {
        let a = new_world();
        assert_eq!(crate::m3World_Destroy(a), m3Result::m3_success);
        let b = new_world();
        assert_eq!(
            crate::m3World_Step(a, 1.0 / 60.0, 1),
            m3Result::m3_errorInvalidId
        );
        assert_eq!(crate::m3World_Destroy(a), m3Result::m3_errorInvalidId);
        assert_eq!(crate::m3World_Destroy(b), m3Result::m3_success);
    }
}
