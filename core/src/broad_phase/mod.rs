//! Broad phase: bounding-volume trees over the shapes' enlarged ("fat") bounds, a move
//! buffer, and the search for new pairs.
//!
//! As in Box2D v3, a pair begins when the fat bounds of two shapes first overlap and lives
//! (as a contact) until they stop overlapping. Fat bounds and the move buffer (the
//! `enlarged` flag of each shape) are state; the trees are not — after a restore they are
//! rebuilt with another shape — so every pair found is sorted by (lower shape, higher
//! shape) before use, and that order also decides which pairs survive `pair_capacity`.

pub(crate) mod pair_set;
pub mod tree;

use crate::alloc::{FixedVec, WorldAlloc};
use crate::body::{Body, BodyType};
use crate::error::Result;
use crate::math::DVec3;
use crate::shape::Shape;
use crate::world::World;
use pair_set::{PairSet, pair_key};
use tree::DynamicTree;

/// Tree of static shapes.
pub(crate) const STATIC_TREE: u8 = 0;
/// Tree of kinematic and dynamic shapes.
pub(crate) const MOVABLE_TREE: u8 = 1;

pub(crate) struct BroadPhase {
    pub(crate) statics: DynamicTree,
    pub(crate) movable: DynamicTree,
    /// Shapes whose fat bounds grew since the last pair search (deduplicated, sorted and
    /// filtered by the shapes' `enlarged` flags when used).
    pub(crate) moved: FixedVec<u32>,
    /// New pairs found in this step.
    pub(crate) pairs: FixedVec<u64>,
    /// Scratch pair keys: a restore's duplicate check of the snapshot's contacts, and the
    /// pairs the parallel search finds in any order (sorted after).
    pub(crate) restore_keys: FixedVec<u64>,
    /// What the shapes' filters could pair with (see [`FilterUnion`]).
    pub(crate) filters: FilterUnion,
    /// Shapes the last pair search found moved: about how many leaves the trees'
    /// rebuild takes (see `World::rebuild_trees`).
    pub(crate) moved_last: usize,
    /// The narrow phase left the trees' rebuild to the solver's set-up (which runs it
    /// beside the joints' reads, or on its own before the bodies move).
    pub(crate) rebuild_deferred: bool,
}

/// The union of the filters of every shape with a proxy (sensors aside) since the last
/// restore or clear, so a moved shape whose filter pairs with none of them skips its
/// queries: every pair they found would be filtered out (`Filter::should_collide`), so
/// the pairs that begin are the same. Grows with each filter noted and never shrinks
/// but at a restore (more bits only skip less), so it is derived, not state: a restored
/// world may skip fewer queries than the live one, never find other pairs.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct FilterUnion {
    categories: u64,
    masks: u64,
    /// Some shape has a positive group (whose members collide whatever their bits).
    positive_group: bool,
}

impl FilterUnion {
    /// Adds a shape's filter.
    pub(crate) fn note(&mut self, f: &crate::shape::Filter) {
        self.categories |= f.category_bits;
        self.masks |= f.mask_bits;
        self.positive_group |= f.group_index > 0;
    }

    /// Whether a shape with filter `f` could pair with any shape noted.
    #[inline]
    pub(crate) fn may_pair(&self, f: &crate::shape::Filter) -> bool {
        (f.group_index > 0 && self.positive_group)
            || (f.mask_bits & self.categories != 0 && f.category_bits & self.masks != 0)
    }
}

impl BroadPhase {
    pub(crate) fn new(
        shape_capacity: usize,
        pair_capacity: usize,
        contact_capacity: usize,
        alloc: WorldAlloc,
    ) -> Result<BroadPhase> {
        Ok(BroadPhase {
            statics: DynamicTree::new(shape_capacity, alloc)?,
            movable: DynamicTree::new(shape_capacity, alloc)?,
            // A shape can be listed twice (freed and reused in one step), hence 2×.
            moved: FixedVec::with_capacity(2 * shape_capacity, alloc, "shape_capacity")?,
            pairs: FixedVec::with_capacity(pair_capacity, alloc, "pair_capacity")?,
            restore_keys: FixedVec::with_capacity(contact_capacity, alloc, "contact_capacity")?,
            filters: FilterUnion::default(),
            moved_last: 0,
            rebuild_deferred: false,
        })
    }

    pub(crate) fn tree(&self, which: u8) -> &DynamicTree {
        if which == STATIC_TREE {
            &self.statics
        } else {
            &self.movable
        }
    }

    pub(crate) fn tree_mut(&mut self, which: u8) -> &mut DynamicTree {
        if which == STATIC_TREE {
            &mut self.statics
        } else {
            &mut self.movable
        }
    }

    pub(crate) fn memory_usage(&self) -> usize {
        self.statics.memory_usage()
            + self.movable.memory_usage()
            + self.moved.capacity() * 4
            + self.pairs.capacity() * 8
            + self.restore_keys.capacity() * 8
    }

    pub(crate) fn shift(&mut self, offset: DVec3) {
        self.statics.shift(offset);
        self.movable.shift(offset);
    }
}

/// Tree a body's shapes live in.
pub(crate) fn tree_for(body_type: BodyType) -> u8 {
    if body_type == BodyType::Static {
        STATIC_TREE
    } else {
        MOVABLE_TREE
    }
}

/// Adds `key` to `keys`; once full, keeps the smallest keys whatever order they come in
/// (the buffer becomes a max-heap, `heaped`). Returns false when a key was dropped.
pub(crate) fn push_keep_lowest(keys: &mut FixedVec<u64>, key: u64, heaped: &mut bool) -> bool {
    if !keys.is_full() {
        let ok = keys.push(key);
        debug_assert!(ok);
        return true;
    }
    if keys.is_empty() {
        return false;
    }
    if !*heaped {
        let n = keys.len();
        for i in (0..n / 2).rev() {
            sift_down(keys, i);
        }
        *heaped = true;
    }
    if key < keys[0] {
        keys[0] = key;
        sift_down(keys, 0);
    }
    false
}

/// Restores the max-heap below `i`.
fn sift_down(heap: &mut [u64], mut i: usize) {
    let n = heap.len();
    loop {
        let l = 2 * i + 1;
        let r = l + 1;
        let mut m = i;
        if l < n && heap[l] > heap[m] {
            m = l;
        }
        if r < n && heap[r] > heap[m] {
            m = r;
        }
        if m == i {
            return;
        }
        heap.swap(i, m);
        i = m;
    }
}

impl BroadPhase {
    /// Finds the pairs that begin this step among the shapes in the move buffer: sorted,
    /// filtered (sensors, same body, static or kinematic pairs, filters, bodies
    /// `kept_apart` (joints without collide_connected), pairs that already have a contact) and capped at
    /// `pair_capacity`, lowest keys kept. Returns how many were dropped for the cap.
    fn find_new_pairs(
        &mut self,
        shapes: &[Shape],
        bodies: &[Body],
        pair_set: &PairSet,
        kept_apart: impl Fn(u32, u32) -> bool,
    ) -> u32 {
        self.moved.sort_unstable();
        self.pairs.clear();
        let mut heaped = false;
        let mut dropped = 0u32;
        {
            let moved = &self.moved;
            let pairs = &mut self.pairs;
            let mut last = u32::MAX;
            for &s in moved.iter() {
                if s == last {
                    continue;
                }
                last = s;
                let shape = &shapes[s as usize];
                if !shape.alive
                    || !shape.enlarged
                    || shape.is_sensor
                    || !self.filters.may_pair(&shape.filter)
                {
                    continue;
                }
                let body = &bodies[shape.body as usize];
                let fat = shape.fat_aabb;
                let mut overlaps = Overlaps::new(s, shapes, pair_set);
                let mut check = |t: u32| {
                    if let Some(key) = new_pair(shapes, bodies, pair_set, &kept_apart, s, t)
                        && !push_keep_lowest(pairs, key, &mut heaped)
                    {
                        dropped += 1;
                    }
                };
                let mut visit = |_proxy: u32, t: u32| -> bool {
                    overlaps.add(t, &mut check);
                    true
                };
                if body.body_type == BodyType::Dynamic {
                    self.statics.query(&fat, &mut visit);
                }
                self.movable.query(&fat, &mut visit);
                overlaps.flush(&mut check);
            }
        }
        dropped
    }
}

impl BroadPhase {
    /// How many pairs `find_new_pairs` would find now, before any cap: the same search,
    /// reading only (a shape listed twice in the move buffer counts twice, so this never
    /// undercounts). For [`World::growth_needed`].
    pub(crate) fn count_new_pairs(
        &self,
        shapes: &[Shape],
        bodies: &[Body],
        pair_set: &PairSet,
        kept_apart: impl Fn(u32, u32) -> bool,
    ) -> u32 {
        let mut found = 0u32;
        for &s in self.moved.iter() {
            let shape = &shapes[s as usize];
            if !shape.alive
                || !shape.enlarged
                || shape.is_sensor
                || !self.filters.may_pair(&shape.filter)
            {
                continue;
            }
            let fat = shape.fat_aabb;
            let mut visit = |_proxy: u32, t: u32| -> bool {
                if new_pair(shapes, bodies, pair_set, &kept_apart, s, t).is_some() {
                    found = found.saturating_add(1);
                }
                true
            };
            if bodies[shape.body as usize].body_type == BodyType::Dynamic {
                self.statics.query(&fat, &mut visit);
            }
            self.movable.query(&fat, &mut visit);
        }
        found
    }
}

/// The shapes a moved shape's queries overlap, checked a batch at a time: as each is
/// found, the lines its check reads first (its pair set slot, its shape) are asked for,
/// so the checks wait on those loads together rather than one by one. Which pairs begin
/// does not depend on the order they are checked in (the serial search keeps the lowest
/// keys, the parallel one sorts them).
struct Overlaps<'a> {
    s: u32,
    shapes: &'a [Shape],
    pair_set: &'a PairSet,
    batch: [u32; OVERLAP_BATCH],
    len: usize,
}

const OVERLAP_BATCH: usize = 16;

impl<'a> Overlaps<'a> {
    fn new(s: u32, shapes: &'a [Shape], pair_set: &'a PairSet) -> Overlaps<'a> {
        Overlaps {
            s,
            shapes,
            pair_set,
            batch: [0; OVERLAP_BATCH],
            len: 0,
        }
    }

    #[inline(always)]
    fn add(&mut self, t: u32, check: &mut impl FnMut(u32)) {
        if t == self.s {
            return;
        }
        self.pair_set.prefetch(pair_key(self.s, t));
        let at = self.shapes.as_ptr().wrapping_add(t as usize).cast::<u8>();
        crate::solver::lanes::prefetch(at.wrapping_add(core::mem::offset_of!(Shape, is_sensor)));
        self.batch[self.len] = t;
        self.len += 1;
        if self.len == OVERLAP_BATCH {
            self.flush(check);
        }
    }

    #[inline(always)]
    fn flush(&mut self, check: &mut impl FnMut(u32)) {
        for &t in &self.batch[..self.len] {
            check(t);
        }
        self.len = 0;
    }
}

/// The key of the pair moved shape `s` and shape `t` (whose bounds overlap) begin, or
/// `None` when they begin none: a sensor, the same shape or body, both moved and `t` the
/// lower (its own search finds the pair), no dynamic body, filtered out, kept apart by a
/// joint, or already a contact.
fn new_pair(
    shapes: &[Shape],
    bodies: &[Body],
    pair_set: &PairSet,
    kept_apart: &impl Fn(u32, u32) -> bool,
    s: u32,
    t: u32,
) -> Option<u64> {
    if t == s {
        return None;
    }
    let shape = &shapes[s as usize];
    let other = &shapes[t as usize];
    // Sensors never collide: their overlaps are found at the end of a step.
    if other.is_sensor {
        return None;
    }
    // Both moved: the lower slot's query finds the pair.
    if other.enlarged && t < s {
        return None;
    }
    // Most overlaps a moved shape finds already have their contact: ask the pair set
    // before reading the bodies (every test below only turns a pair away, so their
    // order never changes which pairs begin).
    let key = pair_key(s, t);
    if pair_set.contains(key) {
        return None;
    }
    if other.body == shape.body {
        return None;
    }
    let body = &bodies[shape.body as usize];
    let other_body = &bodies[other.body as usize];
    if body.body_type != BodyType::Dynamic && other_body.body_type != BodyType::Dynamic {
        return None;
    }
    if !shape.filter.should_collide(&other.filter) {
        return None;
    }
    // A joint with collide_connected off keeps its bodies apart.
    if kept_apart(shape.body, other.body) {
        return None;
    }
    Some(key)
}

/// `find_new_pairs` through the task hooks: each moved shape's queries on any worker, the
/// keys put where an atomic cursor says, so in any order (the caller sorts them). None
/// when they would not all fit `pair_capacity`: then the serial search, which keeps the
/// lowest keys, must run.
fn find_new_pairs_in_parallel(
    broad: &mut BroadPhase,
    tasks: &mut crate::task::Tasks,
    shapes: &[Shape],
    bodies: &[Body],
    pair_set: &PairSet,
    kept_apart: &(dyn Fn(u32, u32) -> bool + Sync),
) -> Option<()> {
    use core::sync::atomic::{AtomicUsize, Ordering};
    broad.moved.sort_unstable();
    broad.moved.dedup();
    let cap = broad.pairs.capacity().min(broad.restore_keys.capacity());
    if broad.restore_keys.len() < cap {
        broad.restore_keys.resize(cap, 0);
    }
    let found = crate::task::Slots::new(&mut broad.restore_keys[..cap]);
    let count = AtomicUsize::new(0);
    let (moved, statics, movable) = (&broad.moved[..], &broad.statics, &broad.movable);
    let filters = broad.filters;
    // By blocks of the moved shapes (ascending), each thread at its own share: the
    // shapes of the bodies it finalized, so their boxes are in its cache.
    tasks.for_blocks(moved.len(), 16, &|range| {
        for i in range {
            let s = moved[i];
            let shape = &shapes[s as usize];
            if !shape.alive
                || !shape.enlarged
                || shape.is_sensor
                || !filters.may_pair(&shape.filter)
            {
                continue;
            }
            let mut overlaps = Overlaps::new(s, shapes, pair_set);
            let mut check = |t: u32| {
                if let Some(key) = new_pair(shapes, bodies, pair_set, &kept_apart, s, t) {
                    let at = count.fetch_add(1, Ordering::Relaxed);
                    if at < cap {
                        // SAFETY: the cursor hands each index out once.
                        *unsafe { found.get(at) } = key;
                    }
                }
            };
            let mut visit = |_proxy: u32, t: u32| -> bool {
                overlaps.add(t, &mut check);
                true
            };
            if bodies[shape.body as usize].body_type == BodyType::Dynamic {
                statics.query(&shape.fat_aabb, &mut visit);
            }
            movable.query(&shape.fat_aabb, &mut visit);
            overlaps.flush(&mut check);
        }
    });
    let n = count.into_inner();
    if n > cap {
        return None;
    }
    broad.pairs.clear();
    for &key in &broad.restore_keys[..n] {
        let ok = broad.pairs.push(key);
        debug_assert!(ok);
    }
    Some(())
}

impl BroadPhase {
    /// Rebuilds both trees above the leaves that grew since the last rebuild, on this
    /// thread: the side job that runs beside a parallel pass of the step.
    pub(crate) fn rebuild_here(&mut self) {
        self.statics.rebuild_enlarged_in(None);
        self.movable.rebuild_enlarged_in(None);
    }
}

impl World {
    /// Finds pairs that begin this step and creates their contacts, in pair order. The
    /// trees are searched as finalize left them — each moved leaf's ancestors grown
    /// around it in place, which a search walks as well as a rebuilt tree, if less
    /// quickly — and rebuilt above the moved leaves after, beside the narrow phase
    /// ([`World::rebuild_trees`]), as Box3D does. Which pairs a search finds does not
    /// depend on the tree's shape (they are sorted before use).
    pub(crate) fn update_pairs(&mut self) {
        self.counters.dropped_pairs = 0;
        self.counters.dropped_contacts = 0;
        self.broad.moved_last = self.broad.moved.len();
        let parallel = self.tasks.hooks.is_some_and(|h| h.worker_count > 1)
            && self.broad.moved.len() > 64
            && find_new_pairs_in_parallel(
                &mut self.broad,
                &mut self.tasks,
                &self.shapes,
                &self.bodies,
                &self.contacts.pair_set,
                &|a, b| crate::edge::kept_apart(&self.joints, &self.bodies, a, b),
            )
            .is_some();
        let dropped = if parallel {
            0
        } else {
            self.broad.find_new_pairs(
                &self.shapes,
                &self.bodies,
                &self.contacts.pair_set,
                |a, b| crate::edge::kept_apart(&self.joints, &self.bodies, a, b),
            )
        };
        self.counters.dropped_pairs = dropped;
        self.broad.pairs.sort_unstable();
        for i in 0..self.broad.pairs.len() {
            let key = self.broad.pairs[i];
            let (a, b) = ((key >> 32) as u32, key as u32);
            if self.create_contact(a, b).is_none() {
                self.counters.dropped_contacts += 1;
            }
        }
        self.find_children();
        for i in 0..self.broad.moved.len() {
            let s = self.broad.moved[i] as usize;
            if s < self.shapes.len() {
                self.shapes[s].enlarged = false;
            }
        }
        self.broad.moved.clear();
    }

    /// Rebuilds both trees above the leaves that grew since the last rebuild, with the
    /// subtrees spread over the task hooks (the narrow phase runs it beside its contacts
    /// instead when it has at least as many contacts as there were moved shapes, and the
    /// joints' colouring beside its reads when it has as many joints).
    pub(crate) fn rebuild_trees(&mut self) {
        self.broad.rebuild_deferred = false;
        self.broad
            .statics
            .rebuild_enlarged_in(Some(&mut self.tasks));
        self.broad
            .movable
            .rebuild_enlarged_in(Some(&mut self.tasks));
    }

    /// Puts a shape in the move buffer (once).
    pub(crate) fn mark_enlarged(&mut self, shape: u32) {
        let s = &mut self.shapes[shape as usize];
        if !s.enlarged {
            s.enlarged = true;
            let ok = self.broad.moved.push(shape);
            debug_assert!(ok, "move buffer holds 2 × shape capacity");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::FilterUnion;
    use crate::shape::Filter;

    fn filter(category_bits: u64, mask_bits: u64, group_index: i32) -> Filter {
        Filter {
            category_bits,
            mask_bits,
            group_index,
        }
    }

    /// `may_pair` is false only where `should_collide` is false against every shape
    /// noted: checked against each of them over bit patterns and groups.
    #[test]
    fn a_filter_skips_its_queries_only_when_nothing_noted_could_pair_with_it() {
        let patterns = [0u64, 1, 2, 3, 4, 6, !2, u64::MAX];
        let groups = [0, 1, -1, 2];
        let all: Vec<Filter> = patterns
            .iter()
            .flat_map(|&c| patterns.iter().map(move |&m| (c, m)))
            .flat_map(|(c, m)| groups.iter().map(move |&g| filter(c, m, g)))
            .collect();
        // Sets of noted filters: each single filter, and a few pairs.
        let mut skipped = 0;
        for (i, a) in all.iter().enumerate() {
            for b in all.iter().step_by(7).take(3).chain(core::iter::once(a)) {
                let noted = [*a, *b];
                let mut u = FilterUnion::default();
                for f in &noted {
                    u.note(f);
                }
                for f in all.iter().skip(i % 5).step_by(5) {
                    if !u.may_pair(f) {
                        skipped += 1;
                        for n in &noted {
                            assert!(!f.should_collide(n), "{f:?} skipped but pairs with {n:?}");
                        }
                    }
                }
            }
        }
        assert!(skipped > 1000, "{skipped}");
        // The joint grid's spheres: category 2, mask all but 2, alone in the world.
        let sphere = filter(2, !2, 0);
        let mut u = FilterUnion::default();
        u.note(&sphere);
        assert!(!u.may_pair(&sphere));
        // A default shape arrives: the spheres may pair with it.
        u.note(&Filter::default());
        assert!(u.may_pair(&sphere));
    }
}
