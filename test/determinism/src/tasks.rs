//! A test task system: splits every range into pieces of random sizes (at least
//! `min_range`), shuffles them, and runs them on real threads of a small pool — or, where
//! there are no threads (wasm32), on the calling thread in random order. What the step
//! computes must not depend on any of it.

use maul3d::{TaskFn, TaskHooks};
use std::ffi::c_void;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex};

struct Piece {
    task: TaskFn,
    start: u32,
    end: u32,
    context: usize,
    job: Arc<Job>,
}

struct Job {
    remaining: AtomicUsize,
    done: Mutex<bool>,
    cv: Condvar,
}

struct Queue {
    pieces: Vec<Piece>,
    shutdown: bool,
}

/// The pool; hand `hooks()` to a world def.
pub struct TestTasks {
    workers: u32,
    threaded: bool,
    seed: AtomicU64,
    queue: Arc<(Mutex<Queue>, Condvar)>,
    threads: Mutex<Vec<std::thread::JoinHandle<()>>>,
}

fn next(seed: &AtomicU64) -> u64 {
    // splitmix64 over an atomic counter: a fixed sequence per pool.
    let mut z = seed
        .fetch_add(0x9e37_79b9_7f4a_7c15, Ordering::Relaxed)
        .wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

impl TestTasks {
    /// A pool of `workers` threads (or none when `threaded` is false), splitting with `seed`.
    pub fn new(workers: u32, threaded: bool, seed: u64) -> Arc<TestTasks> {
        let pool = Arc::new(TestTasks {
            workers,
            threaded,
            seed: AtomicU64::new(seed),
            queue: Arc::new((
                Mutex::new(Queue {
                    pieces: Vec::new(),
                    shutdown: false,
                }),
                Condvar::new(),
            )),
            threads: Mutex::new(Vec::new()),
        });
        if threaded {
            let mut threads = pool.threads.lock().unwrap();
            for w in 0..workers {
                let q = pool.queue.clone();
                threads.push(
                    std::thread::Builder::new()
                        // Pieces must fit the stack SPEC.md promises hosts need: 48 KiB optimised,
                        // 64 KiB with debug assertions.
                        .stack_size(if cfg!(debug_assertions) {
                            64 * 1024
                        } else {
                            48 * 1024
                        })
                        .spawn(move || worker(w, q))
                        .unwrap(),
                );
            }
        }
        pool
    }

    /// The hooks for a world def; the pool must outlive the world.
    pub fn hooks(self: &Arc<TestTasks>) -> TaskHooks {
        TaskHooks {
            enqueue_task: enqueue,
            finish_task: finish,
            user_context: Arc::as_ptr(self) as *mut c_void,
            worker_count: self.workers,
        }
    }
}

impl Drop for TestTasks {
    fn drop(&mut self) {
        {
            let mut q = self.queue.0.lock().unwrap();
            q.shutdown = true;
        }
        self.queue.1.notify_all();
        for t in self.threads.lock().unwrap().drain(..) {
            let _ = t.join();
        }
    }
}

fn worker(index: u32, q: Arc<(Mutex<Queue>, Condvar)>) {
    loop {
        let piece = {
            let mut g = q.0.lock().unwrap();
            loop {
                if let Some(p) = g.pieces.pop() {
                    break p;
                }
                if g.shutdown {
                    return;
                }
                g = q.1.wait(g).unwrap();
            }
        };
        // SAFETY: the task and context come from the world's enqueue call, which waits in
        // finish for every piece before its context goes away.
        unsafe { (piece.task)(piece.start, piece.end, index, piece.context as *mut c_void) };
        if piece.job.remaining.fetch_sub(1, Ordering::AcqRel) == 1 {
            *piece.job.done.lock().unwrap() = true;
            piece.job.cv.notify_all();
        }
    }
}

/// Random pieces of at least `min_range` items covering `[0, count)`, shuffled.
fn split(pool: &TestTasks, count: u32, min_range: u32) -> Vec<(u32, u32)> {
    let mut pieces = Vec::new();
    let mut s = 0;
    while s < count {
        let extra = (next(&pool.seed) % (3 * min_range as u64 + 1)) as u32;
        let mut e = (s + min_range + extra).min(count);
        if count - e < min_range {
            e = count;
        }
        pieces.push((s, e));
        s = e;
    }
    for i in (1..pieces.len()).rev() {
        let j = (next(&pool.seed) % (i as u64 + 1)) as usize;
        pieces.swap(i, j);
    }
    pieces
}

unsafe extern "C" fn enqueue(
    task: TaskFn,
    item_count: u32,
    min_range: u32,
    task_context: *mut c_void,
    user_context: *mut c_void,
) -> *mut c_void {
    // SAFETY: user_context is the pool `hooks()` pointed at; it outlives the world.
    let pool = unsafe { &*(user_context as *const TestTasks) };
    let pieces = split(pool, item_count, min_range.max(1));
    if !pool.threaded {
        for (k, (s, e)) in pieces.iter().enumerate() {
            // SAFETY: as in `worker`; run inline with varying worker indices.
            unsafe { task(*s, *e, (k as u32) % pool.workers, task_context) };
        }
        return std::ptr::null_mut();
    }
    let job = Arc::new(Job {
        remaining: AtomicUsize::new(pieces.len()),
        done: Mutex::new(pieces.is_empty()),
        cv: Condvar::new(),
    });
    {
        let mut q = pool.queue.0.lock().unwrap();
        for (s, e) in pieces {
            q.pieces.push(Piece {
                task,
                start: s,
                end: e,
                context: task_context as usize,
                job: job.clone(),
            });
        }
    }
    pool.queue.1.notify_all();
    Arc::into_raw(job) as *mut c_void
}

unsafe extern "C" fn finish(handle: *mut c_void, _user_context: *mut c_void) {
    // SAFETY: the handle is the Arc<Job> enqueue leaked; taken back once.
    let job = unsafe { Arc::from_raw(handle as *const Job) };
    let mut done = job.done.lock().unwrap();
    while !*done {
        done = job.cv.wait(done).unwrap();
    }
}
