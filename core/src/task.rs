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
use core::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};

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
    /// A plan's block claims: the last stage (plus one) that claimed each block of the
    /// current stage, at most `4 × worker_count` blocks (see [`Stage::split`]).
    block_claims: Option<FixedVec<AtomicU32>>,
    /// The host's floating-point bits, restored around calls to the hooks (the C ABI's
    /// shims set it; Rust callers are in the default setting).
    pub host_fp: SavedFp,
}

struct Ctx<'a> {
    f: &'a (dyn Fn(usize, u32) + Sync),
    /// One claim for each `chunk` items.
    claims: &'a [AtomicU32],
    epoch: u32,
    count: u32,
    /// Items a claim covers: the caller's least block (at most `MAX_CHUNK`), so a piece
    /// pays one atomic exchange for that many items rather than one an item.
    chunk: u32,
    workers: u32,
    /// Items run so far by the host's pieces (each counted once, by the piece that
    /// claimed it).
    ran: AtomicU32,
    panicked: AtomicBool,
}

impl Ctx<'_> {
    /// The items of chunk `c`.
    fn items(&self, c: u32) -> core::ops::Range<usize> {
        let start = c * self.chunk;
        start as usize..(start + self.chunk).min(self.count) as usize
    }
}

/// The most items one claim covers.
const MAX_CHUNK: u32 = 64;

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
        let mut ran = 0;
        let run = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            // Every chunk the piece touches, whole: a piece whose ends fall inside chunks
            // runs their other items too, unless another piece claimed them first.
            for c in start / ctx.chunk..(end - 1) / ctx.chunk + 1 {
                if ctx.claims[c as usize].swap(ctx.epoch, Ordering::AcqRel) != ctx.epoch {
                    let items = ctx.items(c);
                    ran += items.len() as u32;
                    for i in items {
                        (ctx.f)(i, worker_index);
                    }
                }
            }
        }));
        ctx.ran.fetch_add(ran, Ordering::AcqRel);
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
        let blocks = hooks.map_or(0, |h| 4 * h.worker_count as usize);
        let mut block_claims = FixedVec::with_capacity(blocks, alloc, "task_hooks.worker_count")?;
        for _ in 0..blocks {
            let ok = block_claims.push(AtomicU32::new(0));
            debug_assert!(ok);
        }
        Ok(Tasks {
            hooks,
            claims,
            epoch: 0,
            block_claims: Some(block_claims),
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
            block_claims: None,
            host_fp: fp::library(),
        }
    }

    pub(crate) fn memory_usage(&self) -> usize {
        (self.claims.capacity() + self.block_claims.as_ref().map_or(0, |b| b.capacity())) * 4
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
        self.run_pieces(h, count, min_range, f);
    }

    /// [`Tasks::for_each`] with `side`, if any, run once as one more item (item 0 of the
    /// pass, whichever worker takes it) beside the `count` items `f` gets.
    pub(crate) fn for_each_beside(
        &mut self,
        count: usize,
        min_range: u32,
        side: Option<&(dyn Fn() + Sync)>,
        f: &(dyn Fn(usize, u32) + Sync),
    ) {
        let Some(side) = side else {
            return self.for_each(count, min_range, f);
        };
        self.for_each(count + 1, min_range, &|i, worker| match i {
            0 => side(),
            _ => f(i - 1, worker),
        });
    }

    /// As `for_each` with hooks, however few the items (one piece an item at least).
    fn for_each_always(&mut self, count: usize, f: &(dyn Fn(usize, u32) + Sync)) {
        match self.hooks {
            Some(h) if count <= self.claims.len() => self.run_pieces(h, count, 1, f),
            _ => {
                for i in 0..count {
                    f(i, 0);
                }
            }
        }
    }

    fn run_pieces(
        &mut self,
        h: TaskHooks,
        count: usize,
        min_range: u32,
        f: &(dyn Fn(usize, u32) + Sync),
    ) {
        self.epoch = self.epoch.wrapping_add(1);
        if self.epoch == 0 {
            for c in self.claims.iter() {
                c.store(0, Ordering::Relaxed);
            }
            self.epoch = 1;
        }
        let chunk = min_range.clamp(1, MAX_CHUNK);
        let ctx = Ctx {
            f,
            claims: &self.claims[..count.div_ceil(chunk as usize)],
            epoch: self.epoch,
            count: count as u32,
            chunk,
            workers: h.worker_count,
            ran: AtomicU32::new(0),
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
        // bits are those of a full run. When the pieces ran every item (the host kept the
        // contract) there is nothing to look for.
        if ctx.ran.load(Ordering::Acquire) != ctx.count {
            for (c, claim) in ctx.claims.iter().enumerate() {
                if claim.swap(ctx.epoch, Ordering::AcqRel) != ctx.epoch {
                    for i in ctx.items(c as u32) {
                        f(i, 0);
                    }
                }
            }
        }
        if ctx.panicked.load(Ordering::Acquire) {
            panic!("a step task panicked on a host thread");
        }
    }
}

/// One stage of a [`StagePlan`]: `items` items run in blocks of `block` (the last may be
/// shorter); a stage of no items is skipped.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Stage {
    pub items: u32,
    pub block: u32,
}

impl Stage {
    /// `items` in blocks of at least `min_block`, about four blocks a worker: enough to
    /// even out the workers, few enough that claiming a block costs little.
    pub(crate) fn split(items: usize, min_block: u32, workers: u32) -> Stage {
        let per = (items as u32).div_ceil(4 * workers.max(1));
        Stage {
            items: items as u32,
            block: per.max(min_block).max(1),
        }
    }

    fn blocks(&self) -> u32 {
        self.items.div_ceil(self.block.max(1))
    }
}

/// Which stage a block belongs to: stage `index` of the repeated list in repetition
/// `repeat`, or of the tail (`repeat == TAIL`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct StageRef {
    pub repeat: u32,
    pub index: usize,
}

impl StageRef {
    pub(crate) const TAIL: u32 = u32::MAX;
}

/// Stages run in order, each a parallel-for whose blocks may run on any thread: a list
/// repeated `repeats` times (the substeps), then a tail. At most `MAX_PLAN` of each.
pub(crate) struct StagePlan<'a> {
    pub body: &'a [Stage],
    pub repeats: u32,
    pub tail: &'a [Stage],
}

/// The most stages in a plan's repeated list, and in its tail.
pub(crate) const MAX_PLAN: usize = 160;

/// Cumulative block counts of a list of stages, and their sum.
fn block_ends(stages: &[Stage]) -> ([u32; MAX_PLAN], u32) {
    assert!(stages.len() <= MAX_PLAN);
    let mut ends = [0; MAX_PLAN];
    let mut sum = 0u32;
    for (e, s) in ends.iter_mut().zip(stages) {
        sum += s.blocks();
        *e = sum;
    }
    (ends, sum)
}

/// The shared progress of a plan run on several threads.
struct Progress<'a> {
    plan: &'a StagePlan<'a>,
    body_ends: [u32; MAX_PLAN],
    body_blocks: u32,
    tail_ends: [u32; MAX_PLAN],
    stage_count: u32,
    /// The current stage (high half; the low half stays zero).
    word: AtomicU64,
    /// Blocks finished since the start, over all stages.
    done: AtomicU64,
    /// For each block of the current stage, the last stage that claimed it, plus one
    /// (zero at the start): a block of stage `s` is claimed by raising its entry to
    /// `s + 1`, which only one piece can do, and which a piece that read an older stage
    /// cannot undo.
    claims: &'a [AtomicU32],
    workers: u32,
    f: &'a (dyn Fn(StageRef, core::ops::Range<usize>) + Sync),
    panicked: AtomicBool,
}

impl Progress<'_> {
    fn stage(&self, s: u32) -> (StageRef, Stage) {
        let n = self.plan.body.len() as u32;
        if s < n * self.plan.repeats {
            let index = (s % n) as usize;
            (
                StageRef {
                    repeat: s / n,
                    index,
                },
                self.plan.body[index],
            )
        } else {
            let index = (s - n * self.plan.repeats) as usize;
            (
                StageRef {
                    repeat: StageRef::TAIL,
                    index,
                },
                self.plan.tail[index],
            )
        }
    }

    /// Blocks in every stage up to and including `s`.
    fn end_of(&self, s: u32) -> u64 {
        let n = self.plan.body.len() as u32;
        if s < n * self.plan.repeats {
            (s / n) as u64 * self.body_blocks as u64 + self.body_ends[(s % n) as usize] as u64
        } else {
            self.plan.repeats as u64 * self.body_blocks as u64
                + self.tail_ends[(s - n * self.plan.repeats) as usize] as u64
        }
    }

    /// The first stage from `s` on that has a block (or `stage_count`).
    fn nonempty_from(&self, mut s: u32) -> u32 {
        while s < self.stage_count && self.stage(s).1.items == 0 {
            s += 1;
        }
        s
    }

    /// Claims block `b` for stage `s`; false when another piece has (for this stage or,
    /// when `s` is stale, a later one).
    fn claim(&self, b: u32, s: u32) -> bool {
        let claim = &self.claims[b as usize];
        claim.load(Ordering::Relaxed) <= s && claim.fetch_max(s + 1, Ordering::AcqRel) <= s
    }

    /// What a piece does, as Box3D's workers do a solver stage: from its own first block
    /// (worker `w` of `n` starts `w/n` of the way through the stage, so a worker meets the
    /// same blocks, and their data in its cache, stage after stage and substep after
    /// substep) it claims and runs blocks forward until it meets a claimed one, then
    /// backward from its first block, taking the blocks its neighbour would have run last.
    /// Then it waits for the stage's running blocks (claimed, so started) to finish; the
    /// piece that finishes the last opens the next stage. A piece alone claims every block
    /// (its forward walk goes round the whole stage), so it never waits for a piece that
    /// has not started.
    fn work(&self, worker: u32) {
        use Ordering::{AcqRel, Acquire, Release};
        let mut spins = 0u32;
        let mut seen = u32::MAX;
        loop {
            let s = (self.word.load(Acquire) >> 32) as u32;
            if s >= self.stage_count {
                return;
            }
            if s == seen {
                // Every block is claimed: wait for the pieces running them.
                spins += 1;
                if spins < 64 {
                    core::hint::spin_loop();
                } else {
                    std::thread::yield_now();
                }
                continue;
            }
            seen = s;
            spins = 0;
            let (which, stage) = self.stage(s);
            let blocks = stage.blocks();
            let first = (u64::from(worker % self.workers) * u64::from(blocks)
                / u64::from(self.workers)) as u32;
            let mut ran = 0u64;
            let mut run = |b: u32| {
                let start = (b * stage.block) as usize;
                let end = (start + stage.block as usize).min(stage.items as usize);
                let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    (self.f)(which, start..end)
                }));
                if result.is_err() {
                    // Counted as done all the same, so no piece waits for ever; the step
                    // panics once the plan is through.
                    self.panicked.store(true, Release);
                }
                ran += 1;
            };
            let mut b = first;
            while self.claim(b, s) {
                run(b);
                b = if b + 1 == blocks { 0 } else { b + 1 };
            }
            let mut b = first;
            loop {
                b = if b == 0 { blocks - 1 } else { b - 1 };
                if !self.claim(b, s) {
                    break;
                }
                run(b);
            }
            if ran > 0 {
                let done = self.done.fetch_add(ran, AcqRel) + ran;
                if done == self.end_of(s) {
                    let open = self.nonempty_from(s + 1);
                    self.word.store((open as u64) << 32, Release);
                }
            }
        }
    }
}

impl Tasks {
    /// Runs `f` over `0..count` in blocks of at least `min_block` items, as a plan of one
    /// stage: each worker starts at its own share of the blocks (worker `w` of `n` at
    /// `w/n`), so a thread meets the same items here as in the solver's stages over the
    /// same indices (and their data in its cache). Inline for fewer than `min_block`.
    pub(crate) fn for_blocks(
        &mut self,
        count: usize,
        min_block: u32,
        f: &(dyn Fn(core::ops::Range<usize>) + Sync),
    ) {
        let workers = self.hooks.map_or(1, |h| h.worker_count);
        let stages = [Stage::split(count, min_block, workers)];
        let plan = StagePlan {
            body: &[],
            repeats: 0,
            tail: &stages,
        };
        self.run_plan(&plan, min_block as usize + 1, &|_, items| f(items));
    }

    /// Runs `plan`: every stage's blocks as `f(stage, items)`, a stage only once every block
    /// of the one before has finished. With hooks and more than one worker the host runs
    /// `worker_count` pieces once for the whole plan, each claiming blocks as they open
    /// (Box3D's solver stages); otherwise, or for little work, the blocks run here in
    /// order. A block's items write only what no other block of its stage touches, so
    /// the bits are the same either way.
    pub(crate) fn run_plan(
        &mut self,
        plan: &StagePlan,
        min_items: usize,
        f: &(dyn Fn(StageRef, core::ops::Range<usize>) + Sync),
    ) {
        let (body_ends, body_blocks) = block_ends(plan.body);
        let (tail_ends, _) = block_ends(plan.tail);
        let largest = plan.body.iter().chain(plan.tail).map(|s| s.items).max();
        let workers = self.hooks.map_or(1, |h| h.worker_count);
        let most_blocks = plan.body.iter().chain(plan.tail).map(Stage::blocks).max();
        let claimable = self.block_claims.as_ref().map_or(0, |c| c.len());
        if workers <= 1
            || (largest.unwrap_or(0) as usize) < min_items
            || most_blocks.unwrap_or(0) as usize > claimable
        {
            let run = |which: StageRef, stage: &Stage| {
                let b = stage.block.max(1) as usize;
                let mut start = 0;
                while start < stage.items as usize {
                    let end = (start + b).min(stage.items as usize);
                    f(which, start..end);
                    start = end;
                }
            };
            for repeat in 0..plan.repeats {
                for (index, stage) in plan.body.iter().enumerate() {
                    run(StageRef { repeat, index }, stage);
                }
            }
            for (index, stage) in plan.tail.iter().enumerate() {
                let repeat = StageRef::TAIL;
                run(StageRef { repeat, index }, stage);
            }
            return;
        }
        let claims = self
            .block_claims
            .take()
            .expect("a world's tasks own their claims");
        let mut progress = Progress {
            plan,
            body_ends,
            body_blocks,
            tail_ends,
            stage_count: plan.body.len() as u32 * plan.repeats + plan.tail.len() as u32,
            word: AtomicU64::new(0),
            done: AtomicU64::new(0),
            claims: &claims,
            workers,
            f,
            panicked: AtomicBool::new(false),
        };
        for c in claims.iter() {
            c.store(0, Ordering::Relaxed);
        }
        let first = progress.nonempty_from(0);
        *progress.word.get_mut() = (first as u64) << 32;
        // Each piece is one worker's long task; pieces the host runs late, or inline after
        // the others, find the plan done.
        self.for_each_always(workers as usize, &|_, worker| progress.work(worker));
        let panicked = progress.panicked.load(Ordering::Acquire);
        self.block_claims = Some(claims);
        if panicked {
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

    /// The same slots seen as `U`s.
    ///
    /// # Safety
    /// `U` must have `T`'s size and alignment, and every bit pattern of a `T` must be a
    /// valid `U` and back.
    pub(crate) unsafe fn cast<U>(&self) -> Slots<'a, U> {
        Slots {
            ptr: self.ptr.cast(),
            len: self.len,
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

    /// The address of slot `i`, to write parts of it through (`i` is checked).
    pub(crate) fn ptr_mut(&self, i: usize) -> *mut T {
        assert!(i < self.len);
        self.ptr.wrapping_add(i)
    }

    /// Slots `range` as one slice.
    ///
    /// # Safety
    /// As `get`: while the slice lives no other reference to its slots may be obtained
    /// (a plan's serial stage, one block, takes its slots whole).
    #[allow(clippy::mut_from_ref)]
    pub(crate) unsafe fn slice(&self, range: core::ops::Range<usize>) -> &mut [T] {
        assert!(range.start <= range.end && range.end <= self.len);
        // SAFETY: in bounds (checked); uniqueness is the caller's contract above.
        unsafe { core::slice::from_raw_parts_mut(self.ptr.add(range.start), range.len()) }
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

    /// Slot `i`, its bound checked in debug builds only: for the solver's passes, which
    /// read and write body states by the indices the solver itself made this step, a
    /// dozen times per constraint and pass.
    ///
    /// # Safety
    /// As `get`, and `i` is below the length.
    #[inline(always)]
    #[allow(clippy::mut_from_ref)]
    pub(crate) unsafe fn get_unchecked(&self, i: usize) -> &mut T {
        debug_assert!(i < self.len);
        // SAFETY: in bounds and unique: the caller's contract above.
        unsafe { &mut *self.ptr.add(i) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A host that runs pieces whose ends fall inside claims, overlap, repeat, and leave
    /// some items out: [0, 5), [3, 70), [70, 71), [3, 70) again, [60, 130), [140, 141),
    /// with worker indices 0 and 1.
    unsafe extern "C" fn ragged(
        task: TaskFn,
        count: u32,
        _min_range: u32,
        context: *mut c_void,
        _user: *mut c_void,
    ) -> *mut c_void {
        let pieces = [(0, 5), (3, 70), (70, 71), (3, 70), (60, 130), (140, 141)];
        for (k, &(s, e)) in pieces.iter().enumerate() {
            if e <= count {
                // SAFETY: the core's trampoline and context, run before enqueue returns.
                unsafe { task(s, e, k as u32 % 2, context) };
            }
        }
        core::ptr::null_mut()
    }

    unsafe extern "C" fn nothing(_handle: *mut c_void, _user: *mut c_void) {}

    /// Each item runs exactly once whatever pieces the host runs: a claim covers a
    /// block of items, so a piece ending inside one runs the block's rest, a piece run
    /// twice or overlapping another runs nothing twice, and the items no piece reached run
    /// after `finish_task`.
    #[test]
    fn every_item_runs_once_under_ragged_overlapping_pieces() {
        let hooks = TaskHooks {
            enqueue_task: ragged,
            finish_task: nothing,
            user_context: core::ptr::null_mut(),
            worker_count: 2,
        };
        let mut tasks = Tasks::new(Some(hooks), 200, WorldAlloc::Global).unwrap();
        for (count, min_range) in [(150, 16), (150, 64), (150, 1), (141, 7), (200, 100)] {
            let runs: Vec<AtomicU32> = (0..count).map(|_| AtomicU32::new(0)).collect();
            tasks.for_each(count, min_range, &|i, worker| {
                assert!(worker < 2);
                runs[i].fetch_add(1, Ordering::Relaxed);
            });
            for (i, r) in runs.iter().enumerate() {
                assert_eq!(
                    r.load(Ordering::Relaxed),
                    1,
                    "item {i} of {count} ({min_range})"
                );
            }
        }
    }

    /// Runs every piece inline before returning, in order or reversed (`user` non-null),
    /// each with its own worker index.
    unsafe extern "C" fn inline_pieces(
        task: TaskFn,
        count: u32,
        _min_range: u32,
        context: *mut c_void,
        user: *mut c_void,
    ) -> *mut c_void {
        let order: Vec<u32> = if user.is_null() {
            (0..count).collect()
        } else {
            (0..count).rev().collect()
        };
        for i in order {
            // SAFETY: the core's trampoline and context, run before enqueue returns.
            unsafe { task(i, i + 1, i, context) };
        }
        core::ptr::null_mut()
    }

    /// Runs every piece on its own thread, each with its own worker index.
    unsafe extern "C" fn threaded_pieces(
        task: TaskFn,
        count: u32,
        _min_range: u32,
        context: *mut c_void,
        _user: *mut c_void,
    ) -> *mut c_void {
        let context = context as usize;
        std::thread::scope(|scope| {
            for i in 0..count {
                // SAFETY: as above; the scope joins every thread before enqueue returns.
                scope.spawn(move || unsafe { task(i, i + 1, i, context as *mut c_void) });
            }
        });
        core::ptr::null_mut()
    }

    /// A plan's blocks each run exactly once, and a stage's only after every block of the
    /// stage before has finished, whatever host runs the workers' pieces: all inline in
    /// order, inline reversed (the last worker's piece first, which then runs the whole
    /// plan alone), or each on its own thread.
    #[test]
    fn plan_blocks_run_once_in_stage_order_on_every_host() {
        let body = [
            Stage::split(1000, 4, 3),
            Stage { items: 1, block: 1 },
            Stage::split(0, 4, 3),
            Stage::split(37, 1, 3),
            Stage::split(500, 64, 3),
        ];
        let tail = [Stage::split(90, 8, 3), Stage { items: 7, block: 7 }];
        let plan = StagePlan {
            body: &body,
            repeats: 4,
            tail: &tail,
        };
        // Every stage in the order the plan runs them.
        let order: Vec<(StageRef, Stage)> = (0..plan.repeats)
            .flat_map(|repeat| {
                body.iter()
                    .enumerate()
                    .map(move |(index, &st)| (StageRef { repeat, index }, st))
            })
            .chain(tail.iter().enumerate().map(|(index, &st)| {
                let repeat = StageRef::TAIL;
                (StageRef { repeat, index }, st)
            }))
            .collect();
        let hosts: [(_, *mut c_void); 3] = [
            (inline_pieces as _, core::ptr::null_mut()),
            (inline_pieces as _, core::ptr::dangling_mut::<c_void>()),
            (threaded_pieces as _, core::ptr::null_mut()),
        ];
        for (enqueue_task, user_context) in hosts {
            let hooks = TaskHooks {
                enqueue_task,
                finish_task: nothing,
                user_context,
                worker_count: 3,
            };
            let mut tasks = Tasks::new(Some(hooks), 200, WorldAlloc::Global).unwrap();
            for _ in 0..3 {
                let runs: Vec<Vec<AtomicU32>> = order
                    .iter()
                    .map(|(_, st)| (0..st.items).map(|_| AtomicU32::new(0)).collect())
                    .collect();
                let finished: Vec<AtomicU32> = order.iter().map(|_| AtomicU32::new(0)).collect();
                tasks.run_plan(&plan, 1, &|which, items| {
                    let k = order.iter().position(|(w, _)| *w == which).unwrap();
                    for j in 0..k {
                        let before = order[j].1.items;
                        assert_eq!(finished[j].load(Ordering::Acquire), before, "{which:?}");
                    }
                    for i in items.clone() {
                        runs[k][i].fetch_add(1, Ordering::Relaxed);
                    }
                    finished[k].fetch_add(items.len() as u32, Ordering::AcqRel);
                });
                for (k, stage_runs) in runs.iter().enumerate() {
                    for (i, r) in stage_runs.iter().enumerate() {
                        assert_eq!(r.load(Ordering::Relaxed), 1, "{:?} item {i}", order[k].0);
                    }
                }
            }
        }
    }
}
