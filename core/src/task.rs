//! Task hooks: how a host spreads a step over its own threads. The library never starts a
//! thread.
//!
//! A stage of the step is a parallel-for over items in which item `i` writes only slot
//! `i` (or, in the solver, only the bodies of its constraint, which no other constraint of
//! its colour touches). The host splits `[0, count)` into pieces of at least `min_range`
//! items and runs each piece once, on any thread, in any order, through the trampoline;
//! whatever the split, every item computes the same bits, so any number of threads gives
//! the single-threaded result.
//!
//! Each item is claimed with an atomic swap before it runs, so even a host that runs a
//! piece twice, or two overlapping pieces at once, cannot make two threads write one slot;
//! items a host never ran are run inline after `finish_task`, in order.

use crate::alloc::{FixedVec, WorldAlloc};
use crate::error::Result;
use crate::fp::{self, SavedFp};
use core::ffi::c_void;
use core::marker::PhantomData;
use core::sync::atomic::{AtomicBool, AtomicU32, Ordering};

/// A piece of work: run items `[start, end)` as worker `worker_index`.
pub type TaskFn =
    unsafe extern "C" fn(start: u32, end: u32, worker_index: u32, task_context: *mut c_void);

/// The host's task system, both hooks or neither.
#[derive(Clone, Copy, Debug)]
pub struct TaskHooks {
    /// Splits `[0, item_count)` into pieces of at least `min_range` items and runs each
    /// exactly once as `task(start, end, worker_index, task_context)`, with
    /// `worker_index < worker_count` and no index used by two pieces at once. Returns a
    /// handle for `finish_task`, or null when it ran everything inline.
    pub enqueue_task: unsafe extern "C" fn(
        task: TaskFn,
        item_count: u32,
        min_range: u32,
        task_context: *mut c_void,
        user_context: *mut c_void,
    ) -> *mut c_void,
    /// Returns when all the work of `handle` is done.
    pub finish_task: unsafe extern "C" fn(handle: *mut c_void, user_context: *mut c_void),
    /// Passed back to both hooks.
    pub user_context: *mut c_void,
    /// Number of worker indices the host uses (≥ 1).
    pub worker_count: u32,
}

// SAFETY: by passing hooks to a world the host promises they may be called from the thread
// that steps it; the library never dereferences `user_context`.
unsafe impl Send for TaskHooks {}
// SAFETY: as above.
unsafe impl Sync for TaskHooks {}

/// Running stages through the hooks.
pub(crate) struct Tasks {
    pub hooks: Option<TaskHooks>,
    claims: FixedVec<AtomicU32>,
    epoch: u32,
    /// The host's floating-point bits, restored around calls to the hooks (the C ABI's
    /// shims set it; Rust callers are in the default setting).
    pub host_fp: SavedFp,
}

struct Ctx<'a> {
    f: &'a (dyn Fn(usize, u32) + Sync),
    claims: &'a [AtomicU32],
    epoch: u32,
    count: u32,
    workers: u32,
    panicked: AtomicBool,
}

/// Runs a piece on whichever thread the host chose: switches that thread to the library's
/// floating-point setting for the piece and back after.
#[inline(never)]
unsafe extern "C" fn trampoline(
    start: u32,
    end: u32,
    worker_index: u32,
    task_context: *mut c_void,
) {
    let saved = fp::enter();
    let task_context = fp::fence(task_context);
    // SAFETY: `task_context` is the `Ctx` that `Tasks::for_each` passed to enqueue_task;
    // it lives until finish_task returns, and pieces only read it (the claims are atomic).
    let ctx = unsafe { &*(task_context as *const Ctx) };
    // A malformed piece is ignored; its items run inline after finish_task.
    if start < end && end <= ctx.count && worker_index < ctx.workers {
        let run = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            for i in start..end {
                if ctx.claims[i as usize].swap(ctx.epoch, Ordering::AcqRel) != ctx.epoch {
                    (ctx.f)(i as usize, worker_index);
                }
            }
        }));
        if run.is_err() {
            ctx.panicked.store(true, Ordering::Release);
        }
    }
    fp::leave(saved);
}

impl Tasks {
    pub(crate) fn new(
        hooks: Option<TaskHooks>,
        max_items: usize,
        alloc: WorldAlloc,
    ) -> Result<Tasks> {
        let mut claims = FixedVec::with_capacity(
            if hooks.is_some() { max_items } else { 0 },
            alloc,
            "contact_capacity",
        )?;
        if hooks.is_some() {
            for _ in 0..max_items {
                let ok = claims.push(AtomicU32::new(0));
                debug_assert!(ok);
            }
        }
        Ok(Tasks {
            hooks,
            claims,
            epoch: 0,
            host_fp: fp::library(),
        })
    }

    /// Tasks that run everything inline, holding no memory: a placeholder while a stage
    /// that must read the whole world moves the real ones out to run through them.
    pub(crate) fn placeholder(alloc: WorldAlloc) -> Tasks {
        Tasks {
            hooks: None,
            claims: FixedVec::empty(alloc),
            epoch: 0,
            host_fp: fp::library(),
        }
    }

    pub(crate) fn memory_usage(&self) -> usize {
        self.claims.capacity() * 4
    }

    /// Runs `f(i, worker)` for every `i < count`, through the host's hooks when there are
    /// some and the work is worth splitting.
    pub(crate) fn for_each(
        &mut self,
        count: usize,
        min_range: u32,
        f: &(dyn Fn(usize, u32) + Sync),
    ) {
        let Some(h) = self.hooks else {
            for i in 0..count {
                f(i, 0);
            }
            return;
        };
        if count <= min_range as usize || count > self.claims.len() {
            for i in 0..count {
                f(i, 0);
            }
            return;
        }
        self.epoch = self.epoch.wrapping_add(1);
        if self.epoch == 0 {
            for c in self.claims.iter() {
                c.store(0, Ordering::Relaxed);
            }
            self.epoch = 1;
        }
        let ctx = Ctx {
            f,
            claims: &self.claims[..count],
            epoch: self.epoch,
            count: count as u32,
            workers: h.worker_count,
            panicked: AtomicBool::new(false),
        };
        let ptr = &ctx as *const Ctx as *mut c_void;
        // SAFETY: calling the host's hooks with the trampoline and a context that outlives
        // the work (we wait in finish_task before `ctx` goes out of scope).
        let handle = fp::call_host(self.host_fp, || unsafe {
            (h.enqueue_task)(
                trampoline,
                count as u32,
                min_range.max(1),
                ptr,
                h.user_context,
            )
        });
        if !handle.is_null() {
            // SAFETY: the handle the host's enqueue returned, given back once.
            fp::call_host(self.host_fp, || unsafe {
                (h.finish_task)(handle, h.user_context)
            });
        }
        // Items the host skipped run here, in order: each item's result is its own, so the
        // bits are those of a full run.
        for (i, c) in ctx.claims.iter().enumerate() {
            if c.swap(ctx.epoch, Ordering::AcqRel) != ctx.epoch {
                f(i, 0);
            }
        }
        if ctx.panicked.load(Ordering::Acquire) {
            panic!("a step task panicked on a host thread");
        }
    }
}

/// Slots that pieces running on several threads write, each item its own.
pub(crate) struct Slots<'a, T> {
    ptr: *mut T,
    len: usize,
    _life: PhantomData<&'a mut [T]>,
}

// SAFETY: a `Slots` hands out `&mut T` for distinct indices only (see `get`), so sharing it
// between threads is sharing disjoint `&mut T`s, which is sound for `T: Send`.
unsafe impl<T: Send> Sync for Slots<'_, T> {}
// SAFETY: as above.
unsafe impl<T: Send> Send for Slots<'_, T> {}

impl<'a, T> Slots<'a, T> {
    pub(crate) fn new(s: &'a mut [T]) -> Slots<'a, T> {
        Slots {
            ptr: s.as_mut_ptr(),
            len: s.len(),
            _life: PhantomData,
        }
    }

    /// The address of slot `i` (for prefetch hints; never dereferenced here), or null
    /// past the end.
    pub(crate) fn ptr(&self, i: usize) -> *const T {
        if i < self.len {
            self.ptr.wrapping_add(i)
        } else {
            core::ptr::null()
        }
    }

    /// Slot `i`.
    ///
    /// # Safety
    /// While this `Slots` lives, no two live references may be obtained for one index.
    /// `Tasks::for_each` guarantees that for items (each claimed once); the solver relies
    /// on its graph colouring for the bodies of a colour's constraints.
    #[inline(always)]
    #[allow(clippy::mut_from_ref)]
    pub(crate) unsafe fn get(&self, i: usize) -> &mut T {
        assert!(i < self.len);
        // SAFETY: in bounds (checked); uniqueness is the caller's contract above.
        unsafe { &mut *self.ptr.add(i) }
    }
}
