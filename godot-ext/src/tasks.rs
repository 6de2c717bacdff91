//! `maul3d`'s task hooks on Godot's `WorkerThreadPool`.
//!
//! `enqueue_task` splits a stage's items into at most `worker_count` pieces of at least
//! `min_range` items and hands them to the pool as one group task (one element per
//! piece); `finish_task` waits for the group. Stages of fewer than
//! `physics/maul3d/worker_pool_min_items` items (default 256) run inline: a group task
//! costs more than a small stage (measured: a 210-box pyramid took 4.2 ms per tick with
//! every stage pooled on 2 cores, 1.1 ms on one thread). Each piece claims a worker index from one
//! atomic bitmask (lowest free bit, compare-and-swap) for the time it runs and releases it
//! after, so no index is used by two pieces at once; the core's parallel-for writes item
//! *i* only to slot *i* and claims items atomically, so results equal one thread's
//! whatever the pool's scheduling.
//!
//! What this relies on: the pool runs every element exactly once and
//! `wait_for_group_task_completion` returns only after all have run (Godot's documented
//! contract); the stepping thread is not a pool thread (physics runs on the main thread
//! unless `physics/3d/run_on_separate_thread` is set, in which case the hooks are off).

use std::ffi::c_void;
use std::sync::atomic::{AtomicU64, Ordering};

use godot::classes::{Os, WorkerThreadPool};
use godot::prelude::*;
use maul3d::{TaskFn, TaskHooks};

/// Worker indices in use, one bit each.
static CLAIMED: AtomicU64 = AtomicU64::new(0);

/// Group tasks handed to the pool so far (for tests and the curious).
static GROUPS: AtomicU64 = AtomicU64::new(0);

pub(crate) fn group_count() -> u64 {
    GROUPS.load(Ordering::Relaxed)
}

/// One enqueued stage, alive until `finish_task`.
struct Job {
    task: TaskFn,
    task_context: *mut c_void,
    item_count: u32,
    pieces: u32,
    group: i64,
}

fn claim(worker_count: u32) -> u32 {
    loop {
        let cur = CLAIMED.load(Ordering::Acquire);
        let free = !cur & mask(worker_count);
        if free == 0 {
            std::thread::yield_now();
            continue;
        }
        let bit = free.trailing_zeros();
        if CLAIMED
            .compare_exchange(cur, cur | (1 << bit), Ordering::AcqRel, Ordering::Acquire)
            .is_ok()
        {
            return bit;
        }
    }
}

fn release(index: u32) {
    CLAIMED.fetch_and(!(1u64 << index), Ordering::AcqRel);
}

/// The hooks' user context: worker count in the low 8 bits, the smallest stage handed to
/// the pool above them.
fn pack(worker_count: u32, min_items: u32) -> *mut c_void {
    ((min_items as usize) << 8 | worker_count as usize) as *mut c_void
}

fn unpack(user_context: *mut c_void) -> (u32, u32) {
    let v = user_context as usize;
    ((v & 0xff) as u32, (v >> 8) as u32)
}

fn mask(worker_count: u32) -> u64 {
    if worker_count >= 64 {
        u64::MAX
    } else {
        (1u64 << worker_count) - 1
    }
}

/// Runs piece `i` of a job.
///
/// # Safety
/// `job` points to a live `Job` (kept until the group completes).
unsafe fn run_piece(job: *const Job, i: u32, worker_count: u32) {
    // SAFETY: the caller guarantees the job outlives the group's elements.
    let job = unsafe { &*job };
    let start = (u64::from(job.item_count) * u64::from(i) / u64::from(job.pieces)) as u32;
    let end = (u64::from(job.item_count) * u64::from(i + 1) / u64::from(job.pieces)) as u32;
    if start < end {
        let worker = claim(worker_count);
        // SAFETY: the core's task function with the context it gave for this stage.
        unsafe { (job.task)(start, end, worker, job.task_context) };
        release(worker);
    }
}

unsafe extern "C" fn enqueue_task(
    task: TaskFn,
    item_count: u32,
    min_range: u32,
    task_context: *mut c_void,
    user_context: *mut c_void,
) -> *mut c_void {
    let (worker_count, min_items) = unpack(user_context);
    let pieces = (item_count / min_range.max(1)).clamp(1, worker_count);
    if pieces <= 1 || item_count < min_items {
        // SAFETY: the core's task over the whole range, on this thread, as worker 0
        // (claimed like any other piece).
        let worker = claim(worker_count);
        unsafe { task(0, item_count, worker, task_context) };
        release(worker);
        return std::ptr::null_mut();
    }
    let job = Box::into_raw(Box::new(Job {
        task,
        task_context,
        item_count,
        pieces,
        group: 0,
    }));
    let job_addr = job as usize;
    let piece = Callable::from_sync_fn("maul3d_task_piece", move |args: &[&Variant]| {
        let i = args
            .first()
            .and_then(|v| v.try_to::<i64>().ok())
            .unwrap_or(0) as u32;
        // SAFETY: `finish_task` frees the job only after the group completed.
        unsafe { run_piece(job_addr as *const Job, i, worker_count) };
    });
    let group = WorkerThreadPool::singleton()
        .add_group_task_ex(&piece, pieces as i32)
        .tasks_needed(pieces as i32)
        .high_priority(true)
        .done();
    GROUPS.fetch_add(1, Ordering::Relaxed);
    // SAFETY: the job is ours until finish_task.
    unsafe { (*job).group = group };
    job.cast()
}

unsafe extern "C" fn finish_task(handle: *mut c_void, _user_context: *mut c_void) {
    if handle.is_null() {
        return;
    }
    // SAFETY: a handle from enqueue_task, finished once.
    let job = unsafe { Box::from_raw(handle.cast::<Job>()) };
    WorkerThreadPool::singleton().wait_for_group_task_completion(job.group);
}

/// Hooks for a new space's world, or none when the pool is off
/// (`physics/maul3d/use_worker_thread_pool`) or physics runs on its own thread.
pub(crate) fn hooks() -> Option<TaskHooks> {
    if !crate::settings::setting_bool("use_worker_thread_pool", true)
        || crate::settings::global_bool("physics/3d/run_on_separate_thread")
    {
        return None;
    }
    let workers = Os::singleton().get_processor_count().clamp(1, 64) as u32;
    let min_items =
        crate::settings::setting_i64("worker_pool_min_items", 256).clamp(1, 1 << 20) as u32;
    if workers <= 1 {
        return None;
    }
    Some(TaskHooks {
        enqueue_task,
        finish_task,
        user_context: pack(workers, min_items),
        worker_count: workers,
    })
}
