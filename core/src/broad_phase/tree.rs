//! A dynamic bounding-volume tree: Box2D v3's `b2DynamicTree` in 3D, over `f64` boxes.
//!
//! Leaves hold the bounds of proxies; each internal node holds the union of its two
//! children. A new leaf goes next to the sibling that the surface-area heuristic picks
//! (a greedy branch-and-bound descent, as `b2FindBestSibling`), and every ancestor on the
//! way back up is offered the one rotation that most lowers the tree's total area (as
//! `b2RotateNodes`). That keeps the tree shallow without a height-balance rule.
//!
//! A step moves its proxies as Box2D v3 does: finalize enlarges each moved leaf in place
//! (its ancestors grow and are marked), and the next pair search rebuilds the marked
//! nodes over the untouched subtrees below them, splitting at the middle of the centres
//! (`enlarge_proxy`, `rebuild_enlarged`) — cheaper than one removal and insertion per
//! moved proxy, for as good a tree.
//!
//! Memory: all node storage is reserved by [`DynamicTree::new`] for a fixed number of
//! proxies (2·capacity − 1 nodes, which is exactly what a full binary tree over that many
//! leaves needs); nothing is allocated afterwards, queries included.
//!
//! Determinism: no randomness, no hashing, no pointer order, and only `min_f64`/`max_f64`
//! for bounds, so the same sequence of calls gives a bit-identical node array (the free
//! list included). The shape still depends on history, which is why the broad phase sorts
//! the pairs it finds before using them.

use crate::alloc::{FixedVec, WorldAlloc};
use crate::error::{Error, Result};
use crate::math::{DAabb, DVec3, max_f64, min_f64};
use core::mem::MaybeUninit;

/// The null node index: no parent, no child, end of the free list.
pub const NULL_NODE: u32 = u32::MAX;

/// The largest proxy capacity: node indices (2·capacity − 1 of them) must stay below
/// [`NULL_NODE`].
pub const MAX_PROXY_CAPACITY: usize = 1 << 31;

/// Entries of the fixed stack a query walks with. A depth-first walk that pushes both
/// children needs at most height + 1 entries, so this covers any tree of height < 255;
/// a deeper subtree is walked through parent links instead (see [`DynamicTree::query`]).
const QUERY_STACK: usize = 256;

/// Bins of the binned surface-area split in [`DynamicTree::rebuild`].
const BIN_COUNT: usize = 32;

/// Set on nodes that are in the tree (leaf or internal); clear on free nodes.
const ALLOCATED: u16 = 1;

/// Set on internal nodes above a proxy that [`DynamicTree::enlarge_proxy`] grew, until
/// [`DynamicTree::rebuild_enlarged`] rebuilds them.
const ENLARGED: u16 = 2;

/// One tree node, one 64-byte cache line: a query tests `aabb` and reads the children
/// from the same line.
#[derive(Clone, Copy, Debug)]
#[repr(C, align(64))]
struct Node {
    /// Internal: union of the children's boxes. Leaf: the proxy's box.
    aabb: DAabb,
    /// Internal: first child. Leaf: the user value (a leaf has no children, so the user
    /// value shares this slot and the node stays one cache line).
    child1: u32,
    /// Internal: second child. Leaf: [`NULL_NODE`].
    child2: u32,
    /// Allocated: parent, [`NULL_NODE`] at the root. Free: next free node.
    parent: u32,
    /// 0 for a leaf, 1 + the larger child height otherwise (saturating; only reported,
    /// never used to decide anything).
    height: u16,
    /// [`ALLOCATED`].
    flags: u16,
}

const _: () = assert!(core::mem::size_of::<Node>() == 64);

impl Node {
    /// A free node with every field defined, so free nodes compare equal bit for bit.
    const FREE: Node = Node {
        aabb: DAabb::new(DVec3::ZERO, DVec3::ZERO),
        child1: NULL_NODE,
        child2: NULL_NODE,
        parent: NULL_NODE,
        height: 0,
        flags: 0,
    };

    #[inline(always)]
    fn is_leaf(&self) -> bool {
        self.height == 0
    }

    #[inline(always)]
    fn is_allocated(&self) -> bool {
        self.flags & ALLOCATED != 0
    }

    #[inline(always)]
    fn child(&self, slot: usize) -> u32 {
        if slot == 0 { self.child1 } else { self.child2 }
    }

    #[inline(always)]
    fn set_child(&mut self, slot: usize, child: u32) {
        if slot == 0 {
            self.child1 = child;
        } else {
            self.child2 = child;
        }
    }
}

/// What a query did: for profiling and for tests that the tree prunes well.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct QueryStats {
    /// Nodes whose box was tested against the query box.
    pub node_visits: u32,
    /// Leaves handed to the callback.
    pub leaf_visits: u32,
}

/// One leaf of a rebuild (a proxy, or a subtree a partial rebuild keeps) with its box,
/// kept side by side so the partition reads them in order.
#[derive(Clone, Copy)]
struct BuildItem {
    aabb: DAabb,
    index: u32,
}

/// A pending range of leaves in a rebuild: build a subtree over `leaves[begin..end]`
/// (at least two) under `parent` (whose child link at this subtree is already set), its
/// internal nodes `order[offset..offset + end − begin − 1]`, its own first.
#[derive(Clone, Copy)]
struct BuildTask {
    begin: u32,
    end: u32,
    parent: u32,
    offset: u32,
}

/// A bounding-volume tree of proxies (boxes with a `u32` user value) with a fixed
/// capacity. Proxy ids are node indices and stay valid until the proxy is destroyed
/// (moves and rebuilds keep them).
///
/// ```
/// use maul3d::alloc::WorldAlloc;
/// use maul3d::broad_phase::tree::DynamicTree;
/// use maul3d::math::{DAabb, DVec3};
///
/// let mut tree = DynamicTree::new(4, WorldAlloc::Global).unwrap();
/// let unit = |x: f64| DAabb::new(DVec3::new(x, 0.0, 0.0), DVec3::new(x + 1.0, 1.0, 1.0));
/// let a = tree.create_proxy(unit(0.0), 10).unwrap();
/// tree.create_proxy(unit(5.0), 11).unwrap();
///
/// let mut found = Vec::new();
/// tree.query(&unit(0.5), |id, user| {
///     found.push((id, user));
///     true
/// });
/// assert_eq!(found, [(a, 10)]);
/// ```
pub struct DynamicTree {
    /// 2·capacity − 1 nodes, allocated or on the free list.
    nodes: FixedVec<Node>,
    /// Scratch for [`DynamicTree::rebuild`]: one slot per proxy, reserved at `new`.
    leaves: FixedVec<BuildItem>,
    /// Scratch for the rebuilds: the internal nodes a rebuild takes, in the order the
    /// build uses them (depth first, the smaller half first: parents first). One slot
    /// per proxy.
    order: FixedVec<u32>,
    /// Scratch for the partial rebuild's walk: its stack. One slot per proxy.
    stack: FixedVec<u32>,
    /// Whether a proxy was enlarged since the last rebuild (some nodes are `ENLARGED`).
    pending: bool,
    root: u32,
    free_list: u32,
    proxy_count: u32,
    proxy_capacity: u32,
}

impl DynamicTree {
    /// A tree for up to `proxy_capacity` proxies, taking all its memory from `alloc` now:
    /// 2·capacity − 1 nodes of 64 bytes and 64 bytes per proxy of rebuild scratch.
    /// Refuses a capacity above [`MAX_PROXY_CAPACITY`], or one the allocator refuses.
    pub fn new(proxy_capacity: usize, alloc: WorldAlloc) -> Result<DynamicTree> {
        if proxy_capacity > MAX_PROXY_CAPACITY {
            return Err(Error::Argument {
                name: "proxy_capacity",
                value: proxy_capacity as f64,
                expected: "at most 2^31",
            });
        }
        // Checked: on 32-bit targets twice the largest capacity does not fit a usize.
        let node_capacity = match proxy_capacity.checked_mul(2) {
            Some(n) => n.saturating_sub(1),
            None => {
                return Err(Error::Capacity {
                    what: "proxy_capacity",
                    capacity: proxy_capacity as u64,
                });
            }
        };
        let nodes = FixedVec::filled(node_capacity, Node::FREE, alloc, "proxy_capacity")?;
        let item = BuildItem {
            aabb: Node::FREE.aabb,
            index: NULL_NODE,
        };
        let leaves = FixedVec::filled(proxy_capacity, item, alloc, "proxy_capacity")?;
        let order = FixedVec::filled(proxy_capacity, 0u32, alloc, "proxy_capacity")?;
        let stack = FixedVec::filled(proxy_capacity, 0u32, alloc, "proxy_capacity")?;
        let mut tree = DynamicTree {
            nodes,
            leaves,
            order,
            stack,
            pending: false,
            root: NULL_NODE,
            free_list: NULL_NODE,
            proxy_count: 0,
            proxy_capacity: proxy_capacity as u32,
        };
        tree.clear();
        Ok(tree)
    }

    /// Bytes this tree took from its allocator.
    pub fn memory_usage(&self) -> usize {
        self.nodes.capacity() * core::mem::size_of::<Node>()
            + self.leaves.capacity() * core::mem::size_of::<BuildItem>()
            + self.order.capacity() * 4
            + self.stack.capacity() * 4
    }

    /// Moves every box by `-offset` (a shift of the world origin). Exact for boxes and
    /// offsets on the 2^-32 grid, so the tree keeps its shape and stays consistent.
    pub fn shift(&mut self, offset: DVec3) {
        for node in self.nodes.iter_mut() {
            if node.flags & ALLOCATED != 0 {
                node.aabb = node.aabb.shifted(offset);
            }
        }
    }

    /// Removes every proxy. The tree is then bit-identical to a new one.
    pub fn clear(&mut self) {
        let n = self.nodes.len();
        for (i, node) in self.nodes.iter_mut().enumerate() {
            *node = Node::FREE;
            node.parent = if i + 1 < n { (i + 1) as u32 } else { NULL_NODE };
        }
        self.free_list = if n > 0 { 0 } else { NULL_NODE };
        self.root = NULL_NODE;
        self.proxy_count = 0;
        self.pending = false;
    }

    /// The number of proxies in the tree.
    #[inline]
    pub fn proxy_count(&self) -> usize {
        self.proxy_count as usize
    }

    /// The most proxies the tree holds (fixed at [`DynamicTree::new`]).
    #[inline]
    pub fn proxy_capacity(&self) -> usize {
        self.proxy_capacity as usize
    }

    /// The height of the tree: 0 when empty or a single leaf, else the longest root-to-leaf
    /// path in edges.
    #[inline]
    pub fn height(&self) -> u32 {
        if self.root == NULL_NODE {
            0
        } else {
            u32::from(self.nodes[self.root as usize].height)
        }
    }

    /// Adds a proxy with box `aabb` (lower ≤ upper, finite) and a user value, and returns
    /// its id. When the tree already holds `proxy_capacity` proxies the call is refused
    /// with [`Error::Capacity`] and nothing changes.
    pub fn create_proxy(&mut self, aabb: DAabb, user: u32) -> Result<u32> {
        if self.proxy_count >= self.proxy_capacity {
            return Err(Error::Capacity {
                what: "proxy_capacity",
                capacity: u64::from(self.proxy_capacity),
            });
        }
        debug_assert!(is_valid_box(&aabb), "bad proxy box {aabb:?}");
        self.rebuild_enlarged();
        let leaf = self.allocate_node();
        let node = &mut self.nodes[leaf as usize];
        node.aabb = aabb;
        node.child1 = user;
        node.child2 = NULL_NODE;
        node.height = 0;
        self.insert_leaf(leaf);
        self.proxy_count += 1;
        Ok(leaf)
    }

    /// Removes a proxy; its id may be handed out again. A stale or unknown id is refused
    /// with [`Error::InvalidId`] and nothing changes.
    pub fn destroy_proxy(&mut self, id: u32) -> Result<()> {
        self.check_proxy(id)?;
        self.rebuild_enlarged();
        self.remove_leaf(id);
        self.free_node(id);
        self.proxy_count -= 1;
        Ok(())
    }

    /// Gives a proxy a new box: it is taken out and inserted again (with rotations), and
    /// keeps its id and user value. A stale or unknown id is refused with
    /// [`Error::InvalidId`] and nothing changes.
    pub fn move_proxy(&mut self, id: u32, aabb: DAabb) -> Result<()> {
        self.check_proxy(id)?;
        debug_assert!(is_valid_box(&aabb), "bad proxy box {aabb:?}");
        self.rebuild_enlarged();
        self.remove_leaf(id);
        self.nodes[id as usize].aabb = aabb;
        self.insert_leaf(id);
        Ok(())
    }

    /// Gives a proxy a new box without restructuring the tree, as Box2D v3's
    /// `b2DynamicTree_EnlargeProxy`: the leaf takes the box, every ancestor grows to hold
    /// it and is marked for [`DynamicTree::rebuild_enlarged`]. Queries stay exact in the
    /// meantime (boxes only hold more); the tree's other calls rebuild first. Cheaper
    /// than [`DynamicTree::move_proxy`] when many proxies move in one step, and the
    /// rebuild that follows gives a better tree than one insertion at a time. A stale or
    /// unknown id is refused with [`Error::InvalidId`] and nothing changes.
    pub fn enlarge_proxy(&mut self, id: u32, aabb: DAabb) -> Result<()> {
        self.check_proxy(id)?;
        debug_assert!(is_valid_box(&aabb), "bad proxy box {aabb:?}");
        self.nodes[id as usize].aabb = aabb;
        let mut index = self.nodes[id as usize].parent;
        // Grow the ancestors until one already holds the box...
        while index != NULL_NODE {
            let node = &mut self.nodes[index as usize];
            node.flags |= ENLARGED;
            index = node.parent;
            if node.aabb.contains(&aabb) {
                break;
            }
            node.aabb = node.aabb.union(&aabb);
        }
        // ...and mark the rest up to the first already marked, whose ancestors are.
        while index != NULL_NODE {
            let node = &mut self.nodes[index as usize];
            if node.flags & ENLARGED != 0 {
                break;
            }
            node.flags |= ENLARGED;
            index = node.parent;
        }
        self.pending = true;
        Ok(())
    }

    /// Starts fetching the ancestor `up` levels above node `id` (1: its parent), reading
    /// the nodes below it (best fetched first, one level at a time; a hint, any id).
    #[inline]
    pub(crate) fn prefetch_ancestor(&self, id: u32, up: u32) {
        let mut index = id;
        for _ in 0..up {
            match self.nodes.get(index as usize) {
                Some(node) => index = node.parent,
                None => return,
            }
        }
        if let Some(node) = self.nodes.get(index as usize) {
            crate::solver::lanes::prefetch(node);
        }
    }

    /// Whether `id` names a proxy in the tree.
    #[inline]
    pub fn is_proxy(&self, id: u32) -> bool {
        match self.nodes.get(id as usize) {
            Some(node) => node.is_allocated() && node.is_leaf(),
            None => false,
        }
    }

    /// The box of proxy `id`. `id` must name a proxy (debug-checked; an index past the
    /// node array panics).
    #[inline]
    pub fn aabb(&self, id: u32) -> DAabb {
        debug_assert!(self.is_proxy(id), "not a proxy: {id}");
        self.nodes[id as usize].aabb
    }

    /// The user value of proxy `id`. `id` must name a proxy (debug-checked; an index past
    /// the node array panics).
    #[inline]
    pub fn user(&self, id: u32) -> u32 {
        debug_assert!(self.is_proxy(id), "not a proxy: {id}");
        self.nodes[id as usize].child1
    }

    /// Calls `f(proxy id, user value)` for every proxy whose box overlaps (or touches)
    /// `aabb`, until `f` returns false. The order follows the tree's shape, so callers
    /// that need an order sort what they gather.
    ///
    /// Allocates nothing: it walks with a fixed stack on the call stack, enough for any
    /// tree of height below 255. Should a subtree be deeper than that, the walk goes on
    /// through that subtree's parent links without a stack, so no leaf is ever skipped.
    /// Reads only, so many threads may query one tree at once.
    pub fn query(&self, aabb: &DAabb, f: impl FnMut(u32, u32) -> bool) -> QueryStats {
        self.query_with_stack::<QUERY_STACK>(&|b: &DAabb| b.overlaps(aabb), f)
    }

    /// Visits every leaf whose box passes `test`, where `test` is true for every node
    /// whose subtree may hold such a leaf (a ray's slab test, a swept box, …).
    pub fn query_by(
        &self,
        test: &impl Fn(&DAabb) -> bool,
        f: impl FnMut(u32, u32) -> bool,
    ) -> QueryStats {
        self.query_with_stack::<QUERY_STACK>(test, f)
    }

    /// [`DynamicTree::query`] with a stack of `N` entries (tests use a tiny one to
    /// exercise the stackless fallback).
    fn query_with_stack<const N: usize>(
        &self,
        aabb: &impl Fn(&DAabb) -> bool,
        mut f: impl FnMut(u32, u32) -> bool,
    ) -> QueryStats {
        let mut stats = QueryStats::default();
        if self.root == NULL_NODE {
            return stats;
        }
        if N == 0 {
            self.walk_stackless(self.root, aabb, &mut f, &mut stats);
            return stats;
        }
        // Left unset: filling 256 entries took more than many a whole query. Only the
        // entries below `count` are read, and each was written first.
        let mut stack = [const { MaybeUninit::<u32>::uninit() }; N];
        stack[0].write(self.root);
        let mut count = 1;
        while count > 0 {
            count -= 1;
            // SAFETY: entries below `count` were written (the root, then children).
            let id = unsafe { stack[count].assume_init() };
            let node = &self.nodes[id as usize];
            stats.node_visits += 1;
            if !aabb(&node.aabb) {
                continue;
            }
            if node.is_leaf() {
                stats.leaf_visits += 1;
                if !f(id, node.child1) {
                    return stats;
                }
            } else if count + 2 <= N {
                // Both children's boxes are read soon (child2's next): ask for them now,
                // so the walk waits on neither load alone. Hints only.
                let nodes = self.nodes.as_ptr();
                crate::solver::lanes::prefetch(nodes.wrapping_add(node.child1 as usize));
                crate::solver::lanes::prefetch(nodes.wrapping_add(node.child2 as usize));
                stack[count].write(node.child1);
                stack[count + 1].write(node.child2);
                count += 2;
            } else {
                // Out of stack: this subtree is deeper than the stack allows. Walk it
                // through parent links rather than skip anything.
                for child in [node.child1, node.child2] {
                    if !self.walk_stackless(child, aabb, &mut f, &mut stats) {
                        return stats;
                    }
                }
            }
        }
        stats
    }

    /// Visits the overlapping leaves of the subtree at `top` depth-first, finding the way
    /// back up through parent links. Returns false when `f` asked to stop.
    fn walk_stackless(
        &self,
        top: u32,
        aabb: &impl Fn(&DAabb) -> bool,
        f: &mut impl FnMut(u32, u32) -> bool,
        stats: &mut QueryStats,
    ) -> bool {
        let mut id = top;
        loop {
            let node = &self.nodes[id as usize];
            stats.node_visits += 1;
            if aabb(&node.aabb) {
                if !node.is_leaf() {
                    id = node.child1;
                    continue;
                }
                stats.leaf_visits += 1;
                if !f(id, node.child1) {
                    return false;
                }
            }
            // Climb until we leave a first child, then go to its sibling.
            loop {
                if id == top {
                    return true;
                }
                let parent_id = self.nodes[id as usize].parent;
                let parent = &self.nodes[parent_id as usize];
                if parent.child1 == id {
                    id = parent.child2;
                    break;
                }
                id = parent_id;
            }
        }
    }

    /// Rebuilds every internal node top-down with a binned surface-area split, which
    /// gives a better tree than incremental insertion (use it after a restore or a bulk
    /// load). Proxy ids, boxes and user values are kept; the free list is renumbered.
    /// Allocates nothing.
    pub fn rebuild(&mut self) {
        self.pending = false;
        let leaf_count = self.proxy_count as usize;
        if leaf_count < 3 {
            // One shape only. Two: the root's box may still be grown by an enlargement.
            if leaf_count == 2 {
                self.refit(self.root);
                self.nodes[self.root as usize].flags &= !ENLARGED;
            }
            return;
        }

        // Gather the leaves in index order and free every internal node, refilling the
        // free list in ascending order; the build takes the first n − 1 of it.
        let mut n = 0;
        for (i, node) in self.nodes.iter().enumerate() {
            if node.is_allocated() && node.is_leaf() {
                self.leaves[n] = BuildItem {
                    aabb: node.aabb,
                    index: i as u32,
                };
                n += 1;
            }
        }
        debug_assert_eq!(n, leaf_count);
        self.free_list = NULL_NODE;
        for i in (0..self.nodes.len()).rev() {
            let node = &mut self.nodes[i];
            if !(node.is_allocated() && node.is_leaf()) {
                *node = Node::FREE;
                node.parent = self.free_list;
                self.free_list = i as u32;
            }
        }
        for k in 0..n - 1 {
            let index = self.free_list;
            self.order[k] = index;
            self.free_list = self.nodes[index as usize].parent;
        }
        self.build(n, true, None);
    }

    /// Rebuilds the internal nodes that [`DynamicTree::enlarge_proxy`] marked, as Box2D
    /// v3's partial `b2DynamicTree_Rebuild`: the subtrees below them that no enlargement
    /// touched and the enlarged proxies are the leaves of a binned surface-area build,
    /// which replaces the marked nodes. It splits at the middle of the centres' longest
    /// axis, as Box3D's per-step rebuild does: a tree nearly as good for a fraction of the
    /// surface-area split's cost, which this pays every step. Does nothing when no proxy
    /// was enlarged since the last rebuild. Proxy ids, boxes and user values are kept.
    /// Allocates nothing.
    pub fn rebuild_enlarged(&mut self) {
        self.rebuild_enlarged_in(None);
    }

    /// [`DynamicTree::rebuild_enlarged`], the build's subtrees spread over the task
    /// hooks (when there are any and the rebuild is large): the same tree, node for node,
    /// at any worker count.
    pub(crate) fn rebuild_enlarged_in(&mut self, tasks: Option<&mut crate::task::Tasks>) {
        if !self.pending {
            return;
        }
        self.pending = false;
        if self.root == NULL_NODE || self.nodes[self.root as usize].is_leaf() {
            return;
        }
        // Depth first from the root (the marked nodes are a subtree that holds it),
        // taking the marked nodes. The stack's entries are roots of disjoint subtrees,
        // each holding a proxy, so it never outgrows the proxy count. A binary tree over
        // n leaves has n − 1 internal nodes: the marked ones are exactly what the build
        // needs, and it takes them in the reverse of this order — the order in which a
        // free list they were pushed onto would give them back.
        let (mut n, mut m) = (0, 0);
        let mut top = 1;
        self.stack[0] = self.root;
        while top > 0 {
            top -= 1;
            let index = self.stack[top];
            let node = self.nodes[index as usize];
            if node.is_leaf() || node.flags & ENLARGED == 0 {
                self.leaves[n] = BuildItem {
                    aabb: node.aabb,
                    index,
                };
                n += 1;
            } else {
                self.order[m] = index;
                m += 1;
                self.stack[top] = node.child2;
                self.stack[top + 1] = node.child1;
                top += 2;
            }
        }
        debug_assert_eq!(m + 1, n);
        self.order[..m].reverse();
        self.build(n, false, tasks);
    }

    /// Builds internal nodes over the subtrees rooted at `leaves[..n]` (their parent
    /// links free to overwrite) and makes the result the tree, the nodes taken from
    /// `order[..n − 1]` in order: split by surface area with `sah`, else at the middle.
    /// With `tasks` (hooks, and many leaves) the top few splits are made here and the
    /// subtrees below them built through the hooks; each subtree's nodes are the ones a
    /// build in one go would give it (depth first, the smaller half first, so a subtree
    /// of k leaves takes the k − 1 entries of `order` after its parent's share), so the
    /// tree is the same.
    fn build(&mut self, n: usize, sah: bool, tasks: Option<&mut crate::task::Tasks>) {
        if n == 1 {
            let index = self.leaves[0].index;
            self.root = index;
            self.nodes[index as usize].parent = NULL_NODE;
            return;
        }
        let whole = BuildTask {
            begin: 0,
            end: n as u32,
            parent: NULL_NODE,
            offset: 0,
        };
        let b = Builder {
            nodes: self.nodes.as_mut_ptr(),
            leaves: self.leaves.as_mut_ptr(),
            order: self.order.as_ptr(),
            sah,
        };
        self.root = self.order[0];
        let workers = tasks
            .as_ref()
            .and_then(|t| t.hooks)
            .map_or(1, |h| h.worker_count);
        let tasks = tasks.filter(|_| workers > 1 && n >= PARALLEL_BUILD);
        let Some(tasks) = tasks else {
            // SAFETY: `b` views this tree's arrays, borrowed mutably here, whole.
            unsafe { b.subtree(whole) };
            return;
        };
        // The top splits, largest range first, until there are a few subtrees for each
        // worker (a small one is not worth a task).
        let mut top = [0u32; BUILD_TASKS];
        let mut made = 0;
        let mut pending = [whole; BUILD_TASKS];
        let mut count = 1;
        while count + 1 < BUILD_TASKS && count < 4 * workers as usize {
            let (k, size) = (0..count)
                .map(|k| (k, pending[k].end - pending[k].begin))
                .fold((0, 0), |best, c| if c.1 > best.1 { c } else { best });
            if (size as usize) < PARALLEL_BUILD / 4 {
                break;
            }
            // SAFETY: the arrays are this tree's, borrowed mutably here; nothing else
            // runs.
            let (index, halves) = unsafe { b.split(pending[k]) };
            top[made] = index;
            made += 1;
            count -= 1;
            pending[k] = pending[count];
            for half in halves.into_iter().flatten() {
                pending[count] = half;
                count += 1;
            }
        }
        let pending = &pending[..count];
        tasks.for_each(count, 1, &|k, _| {
            // SAFETY: the subtrees are disjoint: each builds over its own range of
            // `leaves` and its own share of `order`'s nodes, and writes only those nodes
            // and its leaves' parent links (its root's parent link to it was set above).
            unsafe { b.subtree(pending[k]) };
        });
        // The top nodes last, children before parents (each was split before its halves).
        for k in (0..made).rev() {
            self.refit(top[k]);
        }
    }
    /// Hangs `child` under `parent` at `slot`.
    #[inline]
    fn link(&mut self, parent: u32, slot: usize, child: u32) {
        self.nodes[parent as usize].set_child(slot, child);
        self.nodes[child as usize].parent = parent;
    }

    /// Recomputes an internal node's box and height from its children.
    #[inline]
    fn refit(&mut self, index: u32) {
        let node = self.nodes[index as usize];
        let c1 = &self.nodes[node.child1 as usize];
        let c2 = &self.nodes[node.child2 as usize];
        let aabb = c1.aabb.union(&c2.aabb);
        let height = c1.height.max(c2.height).saturating_add(1);
        let node = &mut self.nodes[index as usize];
        node.aabb = aabb;
        node.height = height;
    }

    fn check_proxy(&self, id: u32) -> Result<()> {
        if self.is_proxy(id) {
            Ok(())
        } else {
            Err(Error::InvalidId {
                what: "tree proxy",
                index: id,
                generation: 0,
            })
        }
    }

    /// Takes a node off the free list. Never fails: the node array fits a full tree over
    /// `proxy_capacity` leaves and creation stops there.
    fn allocate_node(&mut self) -> u32 {
        let index = self.free_list;
        debug_assert!(index != NULL_NODE, "node pool exhausted");
        let node = &mut self.nodes[index as usize];
        self.free_list = node.parent;
        *node = Node::FREE;
        node.flags = ALLOCATED;
        index
    }

    /// Puts a node back on the free list, reset so free nodes hold no history.
    fn free_node(&mut self, index: u32) {
        let node = &mut self.nodes[index as usize];
        *node = Node::FREE;
        node.parent = self.free_list;
        self.free_list = index;
    }

    /// Inserts a detached leaf (box set, parent undefined).
    fn insert_leaf(&mut self, leaf: u32) {
        if self.root == NULL_NODE {
            self.root = leaf;
            self.nodes[leaf as usize].parent = NULL_NODE;
            return;
        }

        // Stage 1: the best sibling by the surface-area heuristic.
        let leaf_box = self.nodes[leaf as usize].aabb;
        let sibling = self.find_best_sibling(&leaf_box);

        // Stage 2: a new parent for the leaf and the sibling.
        let old_parent = self.nodes[sibling as usize].parent;
        let new_parent = self.allocate_node();
        let sibling_node = self.nodes[sibling as usize];
        {
            let node = &mut self.nodes[new_parent as usize];
            node.aabb = leaf_box.union(&sibling_node.aabb);
            node.child1 = sibling;
            node.child2 = leaf;
            node.parent = old_parent;
            node.height = sibling_node.height.saturating_add(1);
        }
        self.nodes[sibling as usize].parent = new_parent;
        self.nodes[leaf as usize].parent = new_parent;
        if old_parent == NULL_NODE {
            self.root = new_parent;
        } else {
            let p = &mut self.nodes[old_parent as usize];
            if p.child1 == sibling {
                p.child1 = new_parent;
            } else {
                p.child2 = new_parent;
            }
        }

        // Stage 3: walk back up refitting boxes and heights, rotating where it helps.
        let mut index = new_parent;
        while index != NULL_NODE {
            self.refit(index);
            self.rotate_nodes(index);
            index = self.nodes[index as usize].parent;
        }
    }

    /// Detaches a leaf (its node stays allocated) and frees its parent.
    fn remove_leaf(&mut self, leaf: u32) {
        if leaf == self.root {
            self.root = NULL_NODE;
            return;
        }
        let parent = self.nodes[leaf as usize].parent;
        let p = self.nodes[parent as usize];
        let grand_parent = p.parent;
        let sibling = if p.child1 == leaf { p.child2 } else { p.child1 };

        self.free_node(parent);
        self.nodes[sibling as usize].parent = grand_parent;
        if grand_parent == NULL_NODE {
            self.root = sibling;
            return;
        }
        let g = &mut self.nodes[grand_parent as usize];
        if g.child1 == parent {
            g.child1 = sibling;
        } else {
            g.child2 = sibling;
        }
        let mut index = grand_parent;
        while index != NULL_NODE {
            self.refit(index);
            index = self.nodes[index as usize].parent;
        }
    }

    /// Box2D v3's greedy branch-and-bound search for the sibling of a new leaf D.
    ///
    /// The cost of making node H the sibling is area(H ∪ D) plus the area every ancestor
    /// of H grows by ("inherited" cost). Below an internal node N no sibling can cost less
    /// than inherited + area(N ∪ D) − area(N) + area(D) (D's new parent holds at least D),
    /// nor than N itself as sibling; the descent follows the child with the lower bound
    /// and stops when neither bound can beat the best cost found.
    fn find_best_sibling(&self, box_d: &DAabb) -> u32 {
        let center_d = box_d.lower + box_d.upper;
        let area_d = box_d.perimeter();
        let nodes = &self.nodes[..];

        let mut index = self.root;
        let root_box = nodes[index as usize].aabb;
        // Area of the current node and of the current node grown by D.
        let mut area_base = root_box.perimeter();
        let mut direct_cost = root_box.union(box_d).perimeter();
        let mut inherited_cost = 0.0;

        let mut best_sibling = index;
        let mut best_cost = direct_cost;

        loop {
            let node = &nodes[index as usize];
            if node.is_leaf() {
                break;
            }
            // Cost of a new parent for this node and D.
            let cost = direct_cost + inherited_cost;
            if cost < best_cost {
                best_sibling = index;
                best_cost = cost;
            }
            // Growth of this node is inherited by everything below it.
            inherited_cost += direct_cost - area_base;

            let (i1, i2) = (node.child1, node.child2);
            let (n1, n2) = (&nodes[i1 as usize], &nodes[i2 as usize]);
            let (leaf1, leaf2) = (n1.is_leaf(), n2.is_leaf());

            let direct1 = n1.aabb.union(box_d).perimeter();
            let mut lower1 = f64::INFINITY;
            let mut area1 = 0.0;
            if leaf1 {
                let cost1 = direct1 + inherited_cost;
                if cost1 < best_cost {
                    best_sibling = i1;
                    best_cost = cost1;
                }
            } else {
                area1 = n1.aabb.perimeter();
                lower1 = inherited_cost + direct1 + min_f64(area_d - area1, 0.0);
            }

            let direct2 = n2.aabb.union(box_d).perimeter();
            let mut lower2 = f64::INFINITY;
            let mut area2 = 0.0;
            if leaf2 {
                let cost2 = direct2 + inherited_cost;
                if cost2 < best_cost {
                    best_sibling = i2;
                    best_cost = cost2;
                }
            } else {
                area2 = n2.aabb.perimeter();
                lower2 = inherited_cost + direct2 + min_f64(area_d - area2, 0.0);
            }

            if leaf1 && leaf2 {
                break;
            }
            // Can the cost still go down?
            if best_cost <= lower1 && best_cost <= lower2 {
                break;
            }

            // Descend into an internal child: the one with the lower bound; on a tie (both
            // contain D, typically) the one whose center is nearer D's.
            let go_first = if leaf2 {
                true
            } else if leaf1 {
                false
            } else if lower1 == lower2 {
                let d1 = n1.aabb.lower + n1.aabb.upper - center_d;
                let d2 = n2.aabb.lower + n2.aabb.upper - center_d;
                length_squared(d1) < length_squared(d2)
            } else {
                lower1 < lower2
            };
            if go_first {
                index = i1;
                area_base = area1;
                direct_cost = direct1;
            } else {
                index = i2;
                area_base = area2;
                direct_cost = direct2;
            }
        }
        best_sibling
    }

    /// Box2D v3's rotation at node A = (B, C): swap B with a child of C, or C with a child
    /// of B, whichever shrinks the area of the node that changes the most; nothing when no
    /// swap shrinks it strictly (so equal costs never flip back and forth).
    ///
    /// ```text
    ///        A                 A
    ///      /   \             /   \
    ///     B     C    →      F     C
    ///    / \   / \               / \
    ///   D   E F   G             B   G
    /// ```
    fn rotate_nodes(&mut self, ia: u32) {
        let a = self.nodes[ia as usize];
        if a.height < 2 {
            return;
        }
        let (b, c) = (self.nodes[a.child1 as usize], self.nodes[a.child2 as usize]);

        // (slot of A's child that moves down, slot of the grandchild that moves up)
        let mut best: Option<(usize, usize)> = None;
        let mut best_delta = 0.0;
        let mut consider = |down: usize, up: usize, moved: &Node, kept: &Node, old: &Node| {
            let delta = moved.aabb.union(&kept.aabb).perimeter() - old.aabb.perimeter();
            if delta < best_delta {
                best_delta = delta;
                best = Some((down, up));
            }
        };
        if !c.is_leaf() {
            let (f, g) = (
                &self.nodes[c.child1 as usize],
                &self.nodes[c.child2 as usize],
            );
            consider(0, 0, &b, g, &c); // B <-> F: C = (B, G)
            consider(0, 1, &b, f, &c); // B <-> G: C = (F, B)
        }
        if !b.is_leaf() {
            let (d, e) = (
                &self.nodes[b.child1 as usize],
                &self.nodes[b.child2 as usize],
            );
            consider(1, 0, &c, e, &b); // C <-> D: B = (C, E)
            consider(1, 1, &c, d, &b); // C <-> E: B = (D, C)
        }
        let Some((down, up)) = best else {
            return;
        };

        // A's box is unchanged (same leaves below); the sibling that took the lower node
        // is refitted, and A's height follows.
        let i_down = a.child(down);
        let i_other = a.child(1 - down);
        let i_up = self.nodes[i_other as usize].child(up);
        self.link(ia, down, i_up);
        self.link(i_other, up, i_down);
        self.refit(i_other);
        let h = self.nodes[i_other as usize]
            .height
            .max(self.nodes[i_up as usize].height);
        self.nodes[ia as usize].height = h.saturating_add(1);
    }
}

impl core::fmt::Debug for DynamicTree {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("DynamicTree")
            .field("proxy_count", &self.proxy_count)
            .field("proxy_capacity", &self.proxy_capacity)
            .field("height", &self.height())
            .finish_non_exhaustive()
    }
}

/// Leaves at least this many make a rebuild worth spreading over the task hooks.
const PARALLEL_BUILD: usize = 1024;
/// The most ranges a rebuild's top splits leave (and top nodes they make).
const BUILD_TASKS: usize = 32;

/// Raw views of a tree's nodes and rebuild scratch, for building disjoint subtrees at
/// once (see `DynamicTree::build`).
#[derive(Clone, Copy)]
struct Builder {
    nodes: *mut Node,
    leaves: *mut BuildItem,
    order: *const u32,
    sah: bool,
}

// SAFETY: builders on several threads build disjoint subtrees (`DynamicTree::build`):
// each touches only its own ranges of the arrays and its own nodes.
unsafe impl Send for Builder {}
// SAFETY: as above.
unsafe impl Sync for Builder {}

impl Builder {
    /// Node `i`.
    ///
    /// # Safety
    /// `i` is in bounds, and no other reference to the node lives.
    #[allow(clippy::mut_from_ref)]
    unsafe fn node(&self, i: u32) -> &mut Node {
        // SAFETY: the caller's contract.
        unsafe { &mut *self.nodes.add(i as usize) }
    }

    /// Makes `task`'s node (its entry of `order`): splits its leaves, hangs the halves
    /// of one leaf under it and links it to the nodes of the others, which it returns
    /// to build.
    ///
    /// # Safety
    /// The task's leaves, nodes and leaf nodes are no one else's while this runs.
    unsafe fn split(&self, task: BuildTask) -> (u32, [Option<BuildTask>; 2]) {
        let (begin, end) = (task.begin as usize, task.end as usize);
        // SAFETY: `offset` is within the `order` entries the build fills (the task's).
        let index = unsafe { *self.order.add(task.offset as usize) };
        {
            // SAFETY: the task's own node.
            let node = unsafe { self.node(index) };
            *node = Node::FREE;
            node.flags = ALLOCATED;
            // Internal from the start (height > 0); the refit sets the truth.
            node.height = 1;
            node.parent = task.parent;
        }
        // SAFETY: the task's own range of leaves.
        let items = unsafe { core::slice::from_raw_parts_mut(self.leaves.add(begin), end - begin) };
        let mid = begin
            + if self.sah {
                partition(items)
            } else {
                partition_mid(items)
            };
        let halves = [(begin, mid), (mid, end)];
        let small = if mid - begin <= end - mid { 0 } else { 1 };
        // The smaller half's nodes come right after this node's, the larger's after them.
        let small_size = (halves[small].1 - halves[small].0) as u32;
        let mut rest = [None; 2];
        for (slot, &(b, e)) in halves.iter().enumerate() {
            let child = if e - b == 1 {
                // SAFETY: within the task's leaves; the leaf node is the task's.
                let leaf = unsafe { (*self.leaves.add(b)).index };
                // SAFETY: as above.
                unsafe { self.node(leaf).parent = index };
                leaf
            } else {
                let offset = task.offset + if slot == small { 1 } else { small_size };
                rest[slot] = Some(BuildTask {
                    begin: b as u32,
                    end: e as u32,
                    parent: index,
                    offset,
                });
                // SAFETY: within the task's entries of `order`.
                unsafe { *self.order.add(offset as usize) }
            };
            // SAFETY: the task's own node.
            unsafe { self.node(index).set_child(slot, child) };
        }
        (index, rest)
    }

    /// Builds and refits the whole subtree of `task`.
    ///
    /// # Safety
    /// As [`Builder::split`].
    unsafe fn subtree(&self, task: BuildTask) {
        // Continue with the smaller half and push the larger, so the stack never holds
        // more than log2(leaf count) ≤ 31 tasks.
        let mut stack = [task; 64];
        let mut count = 0;
        let mut current = Some(task);
        loop {
            let t = match current.take() {
                Some(t) => t,
                None if count > 0 => {
                    count -= 1;
                    stack[count]
                }
                None => break,
            };
            // SAFETY: within the caller's subtree.
            let (_, halves) = unsafe { self.split(t) };
            let size = |h: &Option<BuildTask>| h.map_or(0, |h| h.end - h.begin);
            let (first, second) = if size(&halves[0]) <= size(&halves[1]) {
                (halves[0], halves[1])
            } else {
                (halves[1], halves[0])
            };
            for h in [second, first].into_iter().flatten() {
                if let Some(larger) = current.replace(h) {
                    stack[count] = larger;
                    count += 1;
                }
            }
        }
        // Bottom up: every node comes before its internal children in `order`.
        let internal = (task.end - task.begin - 1) as usize;
        for k in (0..internal).rev() {
            // SAFETY: the subtree's own entries and nodes.
            unsafe {
                let index = *self.order.add(task.offset as usize + k);
                let node = *self.node(index);
                let (c1, c2) = (*self.node(node.child1), *self.node(node.child2));
                let parent = self.node(index);
                parent.aabb = c1.aabb.union(&c2.aabb);
                parent.height = c1.height.max(c2.height).saturating_add(1);
            }
        }
    }
}

/// The bounds of twice the centres (lower + upper: only their order matters) of `items`
/// (at least one), and the axis along which they spread most.
fn center_bounds(items: &[BuildItem]) -> (DVec3, DVec3, usize) {
    let center = |item: &BuildItem| item.aabb.lower + item.aabb.upper;
    let first = center(&items[0]);
    let (mut cmin, mut cmax) = (first, first);
    for item in &items[1..] {
        let c = center(item);
        cmin = DVec3::new(
            min_f64(cmin.x, c.x),
            min_f64(cmin.y, c.y),
            min_f64(cmin.z, c.z),
        );
        cmax = DVec3::new(
            max_f64(cmax.x, c.x),
            max_f64(cmax.y, c.y),
            max_f64(cmax.z, c.z),
        );
    }
    let extent = cmax - cmin;
    let mut axis = 0;
    if extent.y > extent.get(axis) {
        axis = 1;
    }
    if extent.z > extent.get(axis) {
        axis = 2;
    }
    (cmin, cmax, axis)
}

/// Splits `items` (at least 2) in place at the returned index, both sides non-empty: the
/// centres below the middle of their bounds' longest axis, then the rest, or the middle
/// index when that leaves a side empty.
fn partition_mid(items: &mut [BuildItem]) -> usize {
    let (begin, end) = (0, items.len());
    let (cmin, cmax, axis) = center_bounds(items);
    let pivot = 0.5 * (cmin.get(axis) + cmax.get(axis));
    let key = |item: &BuildItem| item.aabb.lower.get(axis) + item.aabb.upper.get(axis);
    // Hoare's scheme: swap only the items on the wrong side.
    let (mut i, mut j) = (begin, end);
    while i < j {
        while i < j && key(&items[i]) < pivot {
            i += 1;
        }
        while i < j && key(&items[j - 1]) >= pivot {
            j -= 1;
        }
        if i < j {
            items.swap(i, j - 1);
            i += 1;
            j -= 1;
        }
    }
    if i == begin || i == end {
        begin + (end - begin) / 2
    } else {
        i
    }
}

/// Splits `items` (at least 2) in place at the returned index, both sides non-empty: the
/// lowest-cost plane among `BIN_COUNT` bins of leaf centers along the longest axis of
/// their bounds, or the middle when the centers coincide.
fn partition(items: &mut [BuildItem]) -> usize {
    let (begin, end) = (0, items.len());
    let median = begin + (end - begin) / 2;

    let center = |aabb: &DAabb| aabb.lower + aabb.upper;
    let (cmin, cmax, axis) = center_bounds(items);
    let extent = cmax - cmin;
    let lo = cmin.get(axis);
    let width = extent.get(axis);
    if !(width > 0.0 && width.is_finite()) {
        return median;
    }
    let scale = BIN_COUNT as f64 / width;
    let bin_of = |aabb: &DAabb| {
        // `as` saturates (NaN → 0), so this never indexes out of range.
        let b = ((center(aabb).get(axis) - lo) * scale) as usize;
        if b < BIN_COUNT { b } else { BIN_COUNT - 1 }
    };

    let empty = DAabb::new(
        DVec3::new(f64::INFINITY, f64::INFINITY, f64::INFINITY),
        DVec3::new(f64::NEG_INFINITY, f64::NEG_INFINITY, f64::NEG_INFINITY),
    );
    let mut bin_box = [empty; BIN_COUNT];
    let mut bin_count = [0u32; BIN_COUNT];
    for item in &items[begin..end] {
        let aabb = &item.aabb;
        let b = bin_of(aabb);
        bin_box[b] = bin_box[b].union(aabb);
        bin_count[b] += 1;
    }

    // Plane i splits bins 0..=i from bins i+1.. .
    let mut right_area = [0.0f64; BIN_COUNT];
    let mut right_count = [0u32; BIN_COUNT];
    let (mut acc, mut acc_count) = (empty, 0u32);
    for i in (1..BIN_COUNT).rev() {
        acc = acc.union(&bin_box[i]);
        acc_count += bin_count[i];
        right_area[i - 1] = acc.perimeter();
        right_count[i - 1] = acc_count;
    }
    let (mut acc, mut acc_count) = (empty, 0u32);
    let mut best_plane = BIN_COUNT;
    let mut best_cost = f64::INFINITY;
    for i in 0..BIN_COUNT - 1 {
        acc = acc.union(&bin_box[i]);
        acc_count += bin_count[i];
        if acc_count == 0 || right_count[i] == 0 {
            continue;
        }
        let cost =
            f64::from(acc_count) * acc.perimeter() + f64::from(right_count[i]) * right_area[i];
        if cost < best_cost || best_plane == BIN_COUNT {
            best_cost = cost;
            best_plane = i;
        }
    }
    if best_plane == BIN_COUNT {
        return median;
    }

    let (mut i, mut j) = (begin, end);
    while i < j {
        if bin_of(&items[i].aabb) <= best_plane {
            i += 1;
        } else {
            j -= 1;
            items.swap(i, j);
        }
    }
    if i == begin || i == end { median } else { i }
}

#[inline(always)]
fn length_squared(v: DVec3) -> f64 {
    v.x * v.x + v.y * v.y + v.z * v.z
}

/// Finite corners with lower ≤ upper.
fn is_valid_box(aabb: &DAabb) -> bool {
    aabb.lower.is_valid()
        && aabb.upper.is_valid()
        && aabb.lower.x <= aabb.upper.x
        && aabb.lower.y <= aabb.upper.y
        && aabb.lower.z <= aabb.upper.z
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A fixed-seed 64-bit LCG (Knuth's MMIX constants), top bits as output.
    struct Lcg(u64);

    impl Lcg {
        fn next_u32(&mut self) -> u32 {
            self.0 = self
                .0
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (self.0 >> 32) as u32
        }

        /// Uniform in [lo, hi), on a 2^-16 grid.
        fn range(&mut self, lo: f64, hi: f64) -> f64 {
            lo + (hi - lo) * f64::from(self.next_u32() >> 16) / 65536.0
        }

        fn below(&mut self, n: usize) -> usize {
            self.next_u32() as usize % n
        }

        fn aabb(&mut self, world: f64, max_half: f64) -> DAabb {
            let c = DVec3::new(
                self.range(-world, world),
                self.range(-world, world),
                self.range(-world, world),
            );
            let h = DVec3::new(
                self.range(0.0, max_half),
                self.range(0.0, max_half),
                self.range(0.0, max_half),
            );
            DAabb::new(c - h, c + h)
        }
    }

    fn cube(center: DVec3, half: f64) -> DAabb {
        let h = DVec3::new(half, half, half);
        DAabb::new(center - h, center + h)
    }

    /// Checks every structural invariant: links, boxes, heights, counts, free list.
    fn validate(tree: &DynamicTree) {
        let mut allocated = 0;
        let mut leaves = 0;
        for (i, node) in tree.nodes.iter().enumerate() {
            if !node.is_allocated() {
                continue;
            }
            allocated += 1;
            let i = i as u32;
            if node.parent == NULL_NODE {
                assert_eq!(tree.root, i, "only the root has no parent");
            } else {
                let p = &tree.nodes[node.parent as usize];
                assert!(p.is_allocated() && !p.is_leaf(), "parent of {i}: {p:?}");
                assert!(p.child1 == i || p.child2 == i, "parent link of {i}");
                assert!(p.aabb.contains(&node.aabb), "parent box holds child {i}");
            }
            if node.is_leaf() {
                leaves += 1;
                assert_eq!(node.child2, NULL_NODE);
            } else {
                let c1 = &tree.nodes[node.child1 as usize];
                let c2 = &tree.nodes[node.child2 as usize];
                assert_eq!(c1.parent, i);
                assert_eq!(c2.parent, i);
                assert_eq!(node.height, 1 + c1.height.max(c2.height));
                let u = c1.aabb.union(&c2.aabb);
                if tree.pending {
                    // Enlargements grow ancestors; the rebuild makes them exact again.
                    assert!(node.aabb.contains(&u), "box of {i} holds its children");
                    if c1.flags & ENLARGED != 0 || c2.flags & ENLARGED != 0 {
                        assert!(node.flags & ENLARGED != 0, "{i} above an enlarged node");
                    }
                } else {
                    assert_eq!(node.aabb, u, "box of {i} is the union of its children");
                    assert_eq!(node.flags & ENLARGED, 0, "{i} marked after a rebuild");
                }
            }
        }
        assert_eq!(leaves, tree.proxy_count());
        assert_eq!(allocated, if leaves == 0 { 0 } else { 2 * leaves - 1 });
        let mut free = 0;
        let mut f = tree.free_list;
        while f != NULL_NODE {
            assert!(!tree.nodes[f as usize].is_allocated());
            free += 1;
            f = tree.nodes[f as usize].parent;
        }
        assert_eq!(free + allocated, tree.nodes.len());
    }

    fn brute_force(live: &[Option<(DAabb, u32)>], q: &DAabb) -> Vec<(u32, u32)> {
        let mut v: Vec<(u32, u32)> = live
            .iter()
            .enumerate()
            .filter_map(|(id, p)| match p {
                Some((b, user)) if b.overlaps(q) => Some((id as u32, *user)),
                _ => None,
            })
            .collect();
        v.sort_unstable();
        v
    }

    fn found<const N: usize>(tree: &DynamicTree, q: &DAabb) -> Vec<(u32, u32)> {
        let mut v = Vec::new();
        tree.query_with_stack::<N>(&|b: &DAabb| b.overlaps(q), |id, user| {
            v.push((id, user));
            true
        });
        v.sort_unstable();
        v
    }

    /// Every node's bits, the root and the free list head.
    fn fingerprint(tree: &DynamicTree) -> Vec<u64> {
        let mut v = vec![u64::from(tree.root), u64::from(tree.free_list)];
        for n in tree.nodes.iter() {
            let b = &n.aabb;
            for x in [
                b.lower.x, b.lower.y, b.lower.z, b.upper.x, b.upper.y, b.upper.z,
            ] {
                v.push(x.to_bits());
            }
            v.push((u64::from(n.child1) << 32) | u64::from(n.child2));
            v.push((u64::from(n.parent) << 32) | (u64::from(n.height) << 16) | u64::from(n.flags));
        }
        v
    }

    /// Random creates, moves, enlargements (a step's finalize) and destroys, with a
    /// partial rebuild every third round (the pair search) and a full one every tenth;
    /// after each round the structure is valid and every query matches brute force.
    fn churn(seed: u64, capacity: usize, rounds: usize) -> DynamicTree {
        let mut rng = Lcg(seed);
        let mut tree = DynamicTree::new(capacity, WorldAlloc::Global).unwrap();
        let mut live: Vec<Option<(DAabb, u32)>> = vec![None; 2 * capacity];
        let mut ids: Vec<u32> = Vec::new();
        for round in 0..rounds {
            for _ in 0..40 {
                match rng.below(10) {
                    0..=4 if tree.proxy_count() < capacity => {
                        let b = rng.aabb(50.0, 4.0);
                        let user = rng.next_u32();
                        let id = tree.create_proxy(b, user).unwrap();
                        assert!(live[id as usize].is_none());
                        live[id as usize] = Some((b, user));
                        ids.push(id);
                    }
                    5..=7 if !ids.is_empty() => {
                        let id = ids[rng.below(ids.len())];
                        let b = rng.aabb(50.0, 4.0);
                        if rng.below(3) == 0 {
                            tree.move_proxy(id, b).unwrap();
                        } else {
                            tree.enlarge_proxy(id, b).unwrap();
                        }
                        live[id as usize].as_mut().unwrap().0 = b;
                    }
                    _ if !ids.is_empty() => {
                        let id = ids.swap_remove(rng.below(ids.len()));
                        tree.destroy_proxy(id).unwrap();
                        live[id as usize] = None;
                    }
                    _ => {}
                }
            }
            if round % 10 == 9 {
                tree.rebuild();
            } else if round % 3 == 2 {
                tree.rebuild_enlarged();
            }
            validate(&tree);
            for &id in &ids {
                let (b, user) = live[id as usize].unwrap();
                assert_eq!(tree.aabb(id), b);
                assert_eq!(tree.user(id), user);
            }
            for _ in 0..20 {
                let q = rng.aabb(55.0, 12.0);
                let expected = brute_force(&live, &q);
                assert_eq!(found::<QUERY_STACK>(&tree, &q), expected);
                assert_eq!(found::<3>(&tree, &q), expected, "tiny stack, round {round}");
            }
        }
        tree
    }

    #[test]
    fn query_returns_exactly_the_brute_force_overlaps_through_inserts_moves_and_destroys() {
        let tree = churn(0x5eed, 300, 200);
        assert!(tree.proxy_count() > 50, "the churn keeps a populated tree");
    }

    #[test]
    fn query_with_a_tiny_stack_walks_parent_links_and_skips_nothing() {
        let mut rng = Lcg(7);
        let mut tree = DynamicTree::new(500, WorldAlloc::Global).unwrap();
        let mut live = vec![None; 1000];
        for _ in 0..500 {
            let b = rng.aabb(30.0, 3.0);
            let id = tree.create_proxy(b, 9).unwrap();
            live[id as usize] = Some((b, 9));
        }
        assert!(tree.height() > 4, "deeper than the tiny stacks below");
        for _ in 0..100 {
            let q = rng.aabb(30.0, 10.0);
            let expected = brute_force(&live, &q);
            assert_eq!(found::<0>(&tree, &q), expected);
            assert_eq!(found::<1>(&tree, &q), expected);
            assert_eq!(found::<2>(&tree, &q), expected);
            assert_eq!(found::<5>(&tree, &q), expected);
        }
    }

    #[test]
    fn query_stops_when_the_callback_returns_false() {
        let mut tree = DynamicTree::new(64, WorldAlloc::Global).unwrap();
        for i in 0..64 {
            let c = DVec3::new(f64::from(i) * 0.1, 0.0, 0.0);
            tree.create_proxy(cube(c, 1.0), i).unwrap();
        }
        let mut calls = 0;
        let stats = tree.query(&cube(DVec3::ZERO, 100.0), |_, _| {
            calls += 1;
            calls < 5
        });
        assert_eq!(calls, 5);
        assert_eq!(stats.leaf_visits, 5);
        let mut calls = 0;
        tree.query_with_stack::<1>(
            &|b: &DAabb| b.overlaps(&cube(DVec3::ZERO, 100.0)),
            |_, _| {
                calls += 1;
                calls < 5
            },
        );
        assert_eq!(calls, 5, "the stackless walk stops too");
    }

    #[test]
    fn create_past_capacity_is_refused_with_a_capacity_error_and_changes_nothing() {
        let mut tree = DynamicTree::new(3, WorldAlloc::Global).unwrap();
        assert_eq!(tree.nodes.len(), 5, "2 * capacity - 1 nodes");
        let ids: Vec<u32> = (0..3)
            .map(|i| {
                let c = DVec3::new(f64::from(i), 0.0, 0.0);
                tree.create_proxy(cube(c, 0.5), i).unwrap()
            })
            .collect();
        let before = fingerprint(&tree);
        let err = tree.create_proxy(cube(DVec3::ZERO, 1.0), 99).unwrap_err();
        assert_eq!(
            err,
            Error::Capacity {
                what: "proxy_capacity",
                capacity: 3
            }
        );
        assert_eq!(fingerprint(&tree), before);
        assert_eq!(tree.proxy_count(), 3);

        // Freed room can be used again, over and over, without running out of nodes.
        for round in 0..50u32 {
            let id = ids[(round % 3) as usize];
            tree.destroy_proxy(id).unwrap();
            let c = DVec3::new(f64::from(round), 1.0, 0.0);
            let again = tree.create_proxy(cube(c, 0.5), round);
            assert_eq!(again, Ok(id), "the freed leaf node is reused");
            validate(&tree);
        }

        let mut empty = DynamicTree::new(0, WorldAlloc::Global).unwrap();
        assert!(empty.create_proxy(cube(DVec3::ZERO, 1.0), 0).is_err());
        let stats = empty.query(&cube(DVec3::ZERO, 1.0), |_, _| true);
        assert_eq!(stats.node_visits, 0);
        assert!(DynamicTree::new(MAX_PROXY_CAPACITY + 1, WorldAlloc::Global).is_err());
    }

    #[test]
    fn stale_and_unknown_ids_are_refused() {
        let mut tree = DynamicTree::new(4, WorldAlloc::Global).unwrap();
        let a = tree.create_proxy(cube(DVec3::ZERO, 1.0), 1).unwrap();
        let b = tree
            .create_proxy(cube(DVec3::new(5.0, 0.0, 0.0), 1.0), 2)
            .unwrap();
        let internal = tree.nodes[a as usize].parent;
        assert!(
            tree.destroy_proxy(internal).is_err(),
            "an internal node is no proxy"
        );
        assert!(tree.move_proxy(1000, cube(DVec3::ZERO, 1.0)).is_err());
        tree.destroy_proxy(b).unwrap();
        assert!(tree.destroy_proxy(b).is_err(), "destroyed twice");
        assert!(!tree.is_proxy(b));
        assert!(tree.is_proxy(a));
        validate(&tree);
    }

    #[test]
    fn clear_gives_a_tree_identical_to_a_new_one() {
        let mut tree = churn(3, 64, 10);
        tree.clear();
        let fresh = DynamicTree::new(64, WorldAlloc::Global).unwrap();
        assert_eq!(fingerprint(&tree), fingerprint(&fresh));
        validate(&tree);
    }

    #[test]
    fn the_same_calls_give_bit_identical_node_arrays() {
        let a = churn(0xfeed, 200, 60);
        let b = churn(0xfeed, 200, 60);
        assert_eq!(fingerprint(&a), fingerprint(&b));
        let c = churn(0xfeee, 200, 60);
        assert_ne!(
            fingerprint(&a),
            fingerprint(&c),
            "the fingerprint sees differences"
        );
    }

    /// 10,000 unit cubes in a 100 × 100 grid, enlarged by 0.1 as the broad phase would.
    fn grid_tree() -> DynamicTree {
        let mut tree = DynamicTree::new(10_000, WorldAlloc::Global).unwrap();
        for i in 0..100u32 {
            for j in 0..100u32 {
                let c = DVec3::new(f64::from(i), 0.5, f64::from(j));
                tree.create_proxy(cube(c, 0.6), i * 100 + j).unwrap();
            }
        }
        tree
    }

    #[test]
    fn tree_height_stays_logarithmic_for_ten_thousand_boxes_in_a_grid() {
        let mut tree = grid_tree();
        validate(&tree);
        assert!(
            tree.height() <= 40,
            "height {} after inserts",
            tree.height()
        );
        tree.rebuild();
        validate(&tree);
        assert!(
            tree.height() <= 30,
            "height {} after rebuild",
            tree.height()
        );
    }

    #[test]
    fn a_small_query_in_ten_thousand_proxies_visits_few_nodes() {
        let mut tree = grid_tree();
        let q = cube(DVec3::new(50.0, 0.5, 50.0), 0.5);
        let mut found = 0;
        let stats = tree.query(&q, |_, _| {
            found += 1;
            true
        });
        assert_eq!(found, 9, "the cube and its 8 neighbours");
        assert!(stats.node_visits < 200, "{stats:?}");
        tree.rebuild();
        let stats = tree.query(&q, |_, _| true);
        assert_eq!(stats.leaf_visits, 9);
        assert!(stats.node_visits < 200, "{stats:?} after rebuild");
    }

    /// Internal nodes as (index, children): what a partial rebuild kept.
    fn internal_links(tree: &DynamicTree) -> Vec<(usize, u32, u32)> {
        (tree.nodes.iter().enumerate())
            .filter(|(_, n)| n.is_allocated() && !n.is_leaf())
            .map(|(i, n)| (i, n.child1, n.child2))
            .collect()
    }

    #[test]
    fn a_partial_rebuild_replaces_only_the_nodes_above_enlarged_proxies() {
        let mut rng = Lcg(21);
        let mut tree = DynamicTree::new(1000, WorldAlloc::Global).unwrap();
        let mut live = vec![None; 2000];
        let mut ids = Vec::new();
        for k in 0..1000 {
            let b = rng.aabb(100.0, 2.0);
            let id = tree.create_proxy(b, k).unwrap();
            live[id as usize] = Some((b, k));
            ids.push(id);
        }
        tree.rebuild();
        let before = internal_links(&tree);
        let snapshot = fingerprint(&tree);
        tree.rebuild_enlarged();
        assert_eq!(
            fingerprint(&tree),
            snapshot,
            "nothing enlarged: nothing to do"
        );

        // Five proxies jump across the world: found at once, before any rebuild.
        let moved: Vec<u32> = (0..5).map(|k| ids[k * 97]).collect();
        for &id in &moved {
            let b = rng.aabb(100.0, 2.0);
            tree.enlarge_proxy(id, b).unwrap();
            live[id as usize].as_mut().unwrap().0 = b;
        }
        validate(&tree);
        for _ in 0..100 {
            let q = rng.aabb(100.0, 8.0);
            assert_eq!(found::<QUERY_STACK>(&tree, &q), brute_force(&live, &q));
        }
        let height = tree.height() as usize;
        tree.rebuild_enlarged();
        validate(&tree);
        for _ in 0..100 {
            let q = rng.aabb(100.0, 8.0);
            assert_eq!(found::<QUERY_STACK>(&tree, &q), brute_force(&live, &q));
        }
        // Only the paths from the root to the five were rebuilt.
        let after = internal_links(&tree);
        let kept = before.iter().filter(|l| after.contains(l)).count();
        assert!(
            kept + 5 * (height + 1) >= before.len(),
            "kept {kept} of {} internal nodes (height {height})",
            before.len()
        );
        assert!(kept < before.len(), "the paths were rebuilt");
        for &id in &moved {
            assert_eq!(tree.aabb(id), live[id as usize].unwrap().0);
        }
    }

    #[test]
    fn enlarging_and_rebuilding_every_step_keeps_queries_as_cheap_as_a_full_rebuild() {
        // A settling crowd: every step most proxies drift a little and are enlarged, then
        // the pair search's partial rebuild runs.
        let mut rng = Lcg(5);
        let n = 2000;
        let mut tree = DynamicTree::new(n, WorldAlloc::Global).unwrap();
        let mut boxes = Vec::new();
        for k in 0..n {
            let b = rng.aabb(60.0, 0.5);
            let id = tree.create_proxy(b, k as u32).unwrap();
            boxes.push((id, b));
        }
        for _ in 0..60 {
            for (id, b) in boxes.iter_mut() {
                if rng.below(4) != 0 {
                    let d = DVec3::new(
                        rng.range(-0.3, 0.3),
                        rng.range(-0.3, 0.3),
                        rng.range(-0.3, 0.3),
                    );
                    *b = DAabb::new(b.lower + d, b.upper + d);
                    tree.enlarge_proxy(*id, *b).unwrap();
                }
            }
            tree.rebuild_enlarged();
        }
        validate(&tree);
        let queries: Vec<DAabb> = (0..500).map(|_| rng.aabb(60.0, 1.0)).collect();
        let visits = |tree: &DynamicTree| -> u32 {
            let q = queries.iter().map(|q| tree.query(q, |_, _| true));
            q.map(|s| s.node_visits).sum()
        };
        let stepped = visits(&tree);
        tree.rebuild();
        let full = visits(&tree);
        // Measured: 1.03× the full rebuild's visits (without the partial rebuilds the
        // grown ancestors cost 1.44×).
        assert!(
            4 * stepped <= 5 * full,
            "{stepped} node visits after per-step rebuilds, {full} after a full one"
        );
    }

    #[test]
    fn rebuild_keeps_ids_boxes_and_users_and_is_deterministic() {
        let mut rng = Lcg(11);
        let mut tree = DynamicTree::new(1000, WorldAlloc::Global).unwrap();
        let mut live = vec![None; 2000];
        for k in 0..1000 {
            // Some coincident centers to exercise the median split.
            let b = if k % 7 == 0 {
                cube(DVec3::ZERO, 1.0)
            } else {
                rng.aabb(100.0, 2.0)
            };
            let id = tree.create_proxy(b, k).unwrap();
            live[id as usize] = Some((b, k));
        }
        tree.rebuild();
        validate(&tree);
        let snapshot = fingerprint(&tree);
        tree.rebuild();
        assert_eq!(
            fingerprint(&tree),
            snapshot,
            "rebuilding a rebuilt tree changes nothing"
        );
        for _ in 0..200 {
            let q = rng.aabb(100.0, 8.0);
            assert_eq!(found::<QUERY_STACK>(&tree, &q), brute_force(&live, &q));
        }
        // Destroying and creating after a rebuild still works.
        assert!(
            tree.create_proxy(cube(DVec3::ZERO, 1.0), 5).is_err(),
            "full at 1000"
        );
        let victim = tree.leaves[17].index;
        tree.destroy_proxy(victim).unwrap();
        let again = tree.create_proxy(cube(DVec3::new(3.0, 3.0, 3.0), 1.0), 5);
        assert_eq!(again, Ok(victim));
        validate(&tree);
    }

    #[test]
    fn the_tree_can_be_queried_from_many_threads() {
        fn assert_sync_send<T: Sync + Send>() {}
        assert_sync_send::<DynamicTree>();
        let tree = grid_tree();
        std::thread::scope(|s| {
            for t in 0..4 {
                let tree = &tree;
                s.spawn(move || {
                    let q = cube(DVec3::new(10.0 * f64::from(t + 1), 0.5, 20.0), 0.5);
                    assert_eq!(tree.query(&q, |_, _| true).leaf_visits, 9);
                });
            }
        });
    }

    /// The broad phase's load: a 10,011-cube pyramid wall (Box3D's large_pyramid with base
    /// 141), each cube queried, moved a little, queried again, then a rebuild. Timing only:
    /// `cargo test -p maul3d --release -- --ignored --nocapture pyramid`.
    #[test]
    #[ignore]
    #[allow(clippy::disallowed_methods)] // a clock, in a benchmark only
    fn pyramid_of_ten_thousand_moves_and_queries_quickly() {
        use std::time::Instant;
        let base = 141;
        let mut centers = Vec::new();
        for i in 0..base {
            let y = (2 * i + 1) as f64 * 0.5;
            for j in i..base {
                let x = (i + 1) as f64 * 0.5 + (j - i) as f64 - 0.5 * base as f64;
                centers.push(DVec3::new(x, y, 0.0));
            }
        }
        let n = centers.len();
        let mut tree = DynamicTree::new(n, WorldAlloc::Global).unwrap();
        let t = Instant::now();
        let ids: Vec<u32> = centers
            .iter()
            .enumerate()
            .map(|(k, &c)| tree.create_proxy(cube(c, 0.6), k as u32).unwrap())
            .collect();
        let build = t.elapsed();
        let height = tree.height();

        let run = |tree: &DynamicTree| {
            let t = Instant::now();
            let (mut visits, mut pairs) = (0u64, 0u64);
            for &id in &ids {
                let s = tree.query(&tree.aabb(id), |_, _| true);
                visits += u64::from(s.node_visits);
                pairs += u64::from(s.leaf_visits);
            }
            (
                t.elapsed(),
                visits as f64 / n as f64,
                pairs as f64 / n as f64,
            )
        };
        let (q1, v1, p1) = run(&tree);

        let t = Instant::now();
        for (k, &id) in ids.iter().enumerate() {
            let c = centers[k] + DVec3::new(0.01, -0.01, 0.005);
            tree.move_proxy(id, cube(c, 0.6)).unwrap();
        }
        let moves = t.elapsed();
        let (q2, v2, _) = run(&tree);

        let t = Instant::now();
        tree.rebuild();
        let rebuild = t.elapsed();
        let (q3, v3, _) = run(&tree);

        println!("pyramid: {n} proxies");
        println!("  insert all: {build:?}, height {height}");
        println!("  query each: {q1:?}, {v1:.1} nodes and {p1:.1} leaves per query");
        println!("  move each:  {moves:?}, height {}", tree.height());
        println!("  query each: {q2:?}, {v2:.1} nodes per query");
        println!("  rebuild:    {rebuild:?}, height {}", tree.height());
        println!("  query each: {q3:?}, {v3:.1} nodes per query");
    }

    /// Hosts for `rebuild_enlarged_in`: each runs every item as a piece of its own, on
    /// the calling thread in reverse order (`user_context` null) or on two threads taking
    /// items from a shared counter (`user_context` non-null), and returns when all ran.
    unsafe extern "C" fn enqueue(
        task: crate::task::TaskFn,
        count: u32,
        _min_range: u32,
        context: *mut core::ffi::c_void,
        user: *mut core::ffi::c_void,
    ) -> *mut core::ffi::c_void {
        ENQUEUED.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        if user.is_null() {
            for i in (0..count).rev() {
                // SAFETY: the hook's contract: each item once.
                unsafe { task(i, i + 1, 0, context) };
            }
        } else {
            let next = std::sync::atomic::AtomicU32::new(0);
            let context = context as usize;
            std::thread::scope(|scope| {
                for worker in 0..2 {
                    let next = &next;
                    scope.spawn(move || {
                        loop {
                            let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                            if i >= count {
                                break;
                            }
                            // SAFETY: as above; the library's task is callable from any
                            // thread while the call that enqueued it waits.
                            unsafe { task(i, i + 1, worker, context as *mut _) };
                        }
                    });
                }
            });
        }
        core::ptr::null_mut()
    }

    /// Calls of `enqueue` (only the test below enqueues through it).
    static ENQUEUED: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);

    unsafe extern "C" fn finish(_handle: *mut core::ffi::c_void, _user: *mut core::ffi::c_void) {}

    #[test]
    fn a_rebuild_spread_over_tasks_gives_the_tree_built_in_one_go() {
        // Thousands of proxies, most enlarged between rebuilds (a pile on the move): the
        // marked part is large enough to be split into tasks.
        let build = |tasks: Option<&mut crate::task::Tasks>| {
            let mut rng = Lcg(77);
            let mut tree = DynamicTree::new(5000, WorldAlloc::Global).unwrap();
            let mut live = Vec::new();
            for i in 0..4000 {
                let b = rng.aabb(60.0, 1.0);
                live.push((tree.create_proxy(b, i).unwrap(), b));
            }
            tree.rebuild();
            let mut prints = Vec::new();
            let mut tasks = tasks;
            for round in 0..5 {
                for (k, (id, b)) in live.iter_mut().enumerate() {
                    if (k + round) % 4 == 0 {
                        continue;
                    }
                    let d = DVec3::new(rng.range(-1.0, 1.0), rng.range(-1.0, 1.0), 0.5);
                    *b = DAabb::new(b.lower + d, b.upper + d);
                    tree.enlarge_proxy(*id, *b).unwrap();
                }
                tree.rebuild_enlarged_in(tasks.as_deref_mut());
                validate(&tree);
                prints.push(fingerprint(&tree));
            }
            prints
        };
        let serial = build(None);
        for threads in [false, true] {
            let user = if threads {
                core::ptr::NonNull::<u8>::dangling().as_ptr().cast()
            } else {
                core::ptr::null_mut()
            };
            let hooks = crate::task::TaskHooks {
                enqueue_task: enqueue,
                finish_task: finish,
                user_context: user,
                worker_count: 2,
            };
            let mut tasks = crate::task::Tasks::new(Some(hooks), 1000, WorldAlloc::Global).unwrap();
            let before = ENQUEUED.load(std::sync::atomic::Ordering::Relaxed);
            assert_eq!(build(Some(&mut tasks)), serial, "threads: {threads}");
            // Every rebuild went through the hooks.
            let after = ENQUEUED.load(std::sync::atomic::Ordering::Relaxed);
            assert_eq!(after - before, 5, "threads: {threads}");
        }
    }
}
