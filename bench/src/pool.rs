//! A persistent thread pool behind Maul3D's task hooks, as a game host would give one:
//! `threads − 1` workers that stay alive for the whole run and spin for work, and the
//! stepping thread, which runs pieces too while it waits in `finish_task`. A worker that
//! found no work for about a millisecond sleeps until the next job (so an idle pool does
//! not spin beside a one-thread run, or beside Rapier's).
//!
//! `enqueue_task` cuts `[0, item_count)` into pieces of at least `min_range` items (at
//! most sixteen per thread, so the thread that finishes first never waits long for a slow
//! piece: with four, the stepping thread waited about 1 ms of the washer's 28 ms step in
//! `finish`) and publishes the job in one atomic word: generation, piece count and next
//! piece. Every thread claims pieces by compare-and-swap on that word, so a piece runs
//! exactly once, and a thread that read an older job's word cannot claim a piece of a
//! newer one. The job's task and context sit in one of two slots chosen by the
//! generation's parity; a slot is written again only two jobs later, after every piece of
//! its job finished. Worker indices: 0 for the stepping thread, 1.. for the workers, each
//! thread running its pieces one at a time.

use maul3d::{TaskFn, TaskHooks};
use std::ffi::c_void;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::thread::JoinHandle;

/// One job's task, context and item count.
#[derive(Default)]
struct Slot {
    task: AtomicUsize,
    context: AtomicUsize,
    count: AtomicU32,
    piece_len: AtomicU32,
}

struct Shared {
    /// Generation (high 32 bits), piece count (16), next piece to claim (16).
    state: AtomicU64,
    slots: [Slot; 2],
    done: AtomicU32,
    shutdown: AtomicBool,
    threads: u32,
    /// Pieces run so far by the worker threads (not the stepping thread).
    by_workers: AtomicU64,
    /// Workers asleep, or about to be, on `wake`; `enqueue` wakes them.
    sleepers: AtomicU32,
    asleep: Mutex<()>,
    wake: Condvar,
}

/// The pool; `hooks()` goes into a `WorldDef`, and the pool must outlive the world.
pub struct Pool {
    shared: Arc<Shared>,
    threads: u32,
    workers: Vec<JoinHandle<()>>,
}

fn pack(generation: u32, pieces: u32, next: u32) -> u64 {
    (u64::from(generation) << 32) | (u64::from(pieces) << 16) | u64::from(next)
}

fn unpack(s: u64) -> (u32, u32, u32) {
    (
        (s >> 32) as u32,
        ((s >> 16) & 0xffff) as u32,
        (s & 0xffff) as u32,
    )
}

impl Shared {
    /// Claims and runs pieces of the current job as `worker` until none is left; returns
    /// whether it ran any.
    fn help(&self, worker: u32) -> bool {
        let mut ran = false;
        loop {
            let s = self.state.load(Ordering::Acquire);
            let (generation, pieces, next) = unpack(s);
            if next >= pieces {
                return ran;
            }
            if self
                .state
                .compare_exchange_weak(
                    s,
                    pack(generation, pieces, next + 1),
                    Ordering::AcqRel,
                    Ordering::Acquire,
                )
                .is_err()
            {
                continue;
            }
            // The claim holds the job open, so its slot stays as published.
            let slot = &self.slots[(generation & 1) as usize];
            let count = slot.count.load(Ordering::Relaxed);
            let len = slot.piece_len.load(Ordering::Relaxed);
            let start = next * len;
            let end = if next + 1 == pieces {
                count
            } else {
                start + len
            };
            // SAFETY: `task` was stored from a `TaskFn` by `enqueue` for this generation.
            let task: TaskFn = unsafe { std::mem::transmute(slot.task.load(Ordering::Relaxed)) };
            let context = slot.context.load(Ordering::Relaxed) as *mut c_void;
            // SAFETY: the world that enqueued this job waits in `finish` until every piece
            // has run, so its context is alive.
            unsafe { task(start, end, worker, context) };
            if worker > 0 {
                self.by_workers.fetch_add(1, Ordering::Relaxed);
            }
            self.done.fetch_add(1, Ordering::AcqRel);
            ran = true;
        }
    }
}

impl Pool {
    /// A pool of `threads` threads in all (the stepping thread and `threads − 1` workers).
    pub fn new(threads: u32) -> Pool {
        let threads = threads.clamp(1, 64);
        let shared = Arc::new(Shared {
            state: AtomicU64::new(0),
            slots: [Slot::default(), Slot::default()],
            done: AtomicU32::new(0),
            shutdown: AtomicBool::new(false),
            threads,
            by_workers: AtomicU64::new(0),
            sleepers: AtomicU32::new(0),
            asleep: Mutex::new(()),
            wake: Condvar::new(),
        });
        let workers = (1..threads)
            .map(|w| {
                let shared = shared.clone();
                std::thread::Builder::new()
                    .name(format!("maul3d-bench-{w}"))
                    .spawn(move || worker(&shared, w))
                    .expect("a pool thread")
            })
            .collect();
        Pool {
            shared,
            threads,
            workers,
        }
    }

    /// Pieces the worker threads (not the stepping thread) have run so far.
    pub fn pieces_run_by_workers(&self) -> u64 {
        self.shared.by_workers.load(Ordering::Relaxed)
    }

    /// The task hooks over this pool.
    pub fn hooks(&self) -> TaskHooks {
        TaskHooks {
            enqueue_task: enqueue,
            finish_task: finish,
            user_context: Arc::as_ptr(&self.shared) as *mut c_void,
            worker_count: self.threads,
        }
    }
}

impl Drop for Pool {
    fn drop(&mut self) {
        self.shared.shutdown.store(true, Ordering::SeqCst);
        drop(self.shared.asleep.lock());
        self.shared.wake.notify_all();
        for w in self.workers.drain(..) {
            let _ = w.join();
        }
    }
}

fn worker(shared: &Shared, index: u32) {
    let mut idle = 0u32;
    while !shared.shutdown.load(Ordering::Acquire) {
        if shared.help(index) {
            idle = 0;
        } else if idle < 4096 {
            idle += 1;
            std::hint::spin_loop();
        } else if idle < 8192 {
            idle += 1;
            std::thread::yield_now();
        } else {
            // Asleep until a job other than the one last seen is published: counted among
            // the sleepers before looking, so `enqueue` (which publishes, then looks at
            // the count) either finds it counted or is seen here.
            let guard = shared.asleep.lock().unwrap_or_else(|e| e.into_inner());
            shared.sleepers.fetch_add(1, Ordering::SeqCst);
            let seen = shared.state.load(Ordering::SeqCst);
            let (_, pieces, next) = unpack(seen);
            let guard = if next >= pieces && !shared.shutdown.load(Ordering::SeqCst) {
                shared.wake.wait(guard).unwrap_or_else(|e| e.into_inner())
            } else {
                guard
            };
            shared.sleepers.fetch_sub(1, Ordering::SeqCst);
            drop(guard);
            idle = 0;
        }
    }
}

unsafe extern "C" fn enqueue(
    task: TaskFn,
    item_count: u32,
    min_range: u32,
    task_context: *mut c_void,
    user_context: *mut c_void,
) -> *mut c_void {
    // SAFETY: `user_context` is the `Shared` of a live pool (see `Pool::hooks`).
    let shared = unsafe { &*(user_context as *const Shared) };
    let most = item_count / min_range.max(1);
    let pieces = most.min(16 * shared.threads).min(0xffff);
    if pieces <= 1 {
        // SAFETY: running the core's trampoline inline, as the contract allows.
        unsafe { task(0, item_count, 0, task_context) };
        return std::ptr::null_mut();
    }
    let (generation, _, _) = unpack(shared.state.load(Ordering::Acquire));
    let generation = generation.wrapping_add(1);
    let slot = &shared.slots[(generation & 1) as usize];
    slot.task.store(task as usize, Ordering::Relaxed);
    slot.context.store(task_context as usize, Ordering::Relaxed);
    slot.count.store(item_count, Ordering::Relaxed);
    slot.piece_len.store(item_count / pieces, Ordering::Relaxed);
    shared.done.store(0, Ordering::Relaxed);
    shared
        .state
        .store(pack(generation, pieces, 0), Ordering::SeqCst);
    if shared.sleepers.load(Ordering::SeqCst) > 0 {
        drop(shared.asleep.lock());
        shared.wake.notify_all();
    }
    user_context
}

unsafe extern "C" fn finish(handle: *mut c_void, _user_context: *mut c_void) {
    if handle.is_null() {
        return;
    }
    // SAFETY: a non-null handle is the pool's `Shared` (see `enqueue`).
    let shared = unsafe { &*(handle as *const Shared) };
    shared.help(0);
    let (_, pieces, _) = unpack(shared.state.load(Ordering::Acquire));
    while shared.done.load(Ordering::Acquire) < pieces {
        std::hint::spin_loop();
    }
}
