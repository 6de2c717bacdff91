//! Continuous collision: speculative contacts catch ordinary motion; a body that moved
//! farther in one step than half its thinnest shape (a "fast" body) is swept against
//! static geometry by time of impact, and a bullet against everything, after the step.
//! A body that would have passed through something is moved back to where it first
//! touched, keeping its velocity (the next step's contact does the rest), as Box2D does.
//!
//! Serial, in body slot order: fast bodies first, then bullets, which therefore see the
//! fast bodies where they stopped. Each sweep is relative to the body's own start
//! position, so the result does not depend on where in the world it happens.
//!
//! Work is bounded and follows the path, not the box around it:
//! - a shape's candidates lie in its swept bounds: the box around its bounds at the
//!   start and at the end of the step (Box3D's; a shape turning far within one step can
//!   meet something outside it mid-turn, which speculative contacts are left to catch).
//!   Every shape of a fast body also stays within a reach `R` of its body's centre of
//!   mass, which moves in a straight line: a capsule ("tube") around that segment. The
//!   tube is cut into at most [`MAX_SWEEP_PIECES`] boxes along the path, and static
//!   candidates (shapes, mesh and height-field triangles) are taken piece by piece
//!   (each piece's box within the swept bounds), each candidate in the first piece it
//!   meets. Once a hit is found before the next piece starts, later pieces hold nothing
//!   that could come first and are never gathered;
//! - a static candidate is skipped without a time of impact when its core lies farther
//!   than `R` (plus the contact gap) from the centre's segment up to the earliest hit
//!   found so far: no part of the shape can reach it before then;
//! - a triangle is skipped, as Box3D does, when the shape's centroid starts behind it
//!   (triangles are one-sided: their contacts never push back what comes from behind;
//!   a two-sided mesh's triangle is seen from the side the centroid starts on) or
//!   ends more than half the shape's thinnest extent in front after approaching by less
//!   than that (no faster than a body that is not fast; its speculative contact holds
//!   it). A shape sliding fast over a fine mesh so never pauses on the triangles under it;
//! - one body's sweep examines at most [`MAX_SWEEP_CANDIDATES`] candidates in a step, in
//!   a fixed order (the body's shapes in turn; for each, piece along the path, then shape
//!   slot, then triangle index in the content's order, and a bullet's movable candidates
//!   after all static ones, by slot); a
//!   sweep that reaches the limit leaves the rest unexamined and is counted in
//!   `Counters::dropped_ccd_sweeps`. Only a shape far larger than the triangles around
//!   its path (a thousand of them within reach) gets there;
//! - each time of impact is capped by `MAX_TOI_ITERATIONS` and `MAX_TOI_EVALUATIONS`, and
//!   one that runs out stops the body at the last time it proved safe.
//!
//! So a step's time-of-impact work is at most swept bodies × [`MAX_SWEEP_CANDIDATES`] ×
//! 2 queries (a query and its core-ball fallback) × the per-query caps, whatever the
//! world holds; `Counters::toi_queries`, `toi_iterations` and `toi_root_iterations` say
//! what a step used. The candidates' order comes from slots and content, never from the
//! trees' history, so a restored world sweeps exactly as the live one (the order matters:
//! each query searches only up to the earliest hit found before it).

use crate::alloc::FixedVec;
use crate::body::{BodyType, NONE};
use crate::broad_phase::{MOVABLE_TREE, STATIC_TREE};
use crate::collide::LINEAR_SLOP;
use crate::collide::cast::{Sweep, ToiOutput, ToiState, time_of_impact, time_of_impact_to};
use crate::collide::distance::{ShapeProxy, SimplexCache, core_distance};
use crate::content::{MeshData, mesh_data};
use crate::geometry::bounds::bounds_in_frame;
use crate::math::{
    Aabb, DAabb, DVec3, Quat, Transform, Vec3, acos, max, max_f64, min, min_f64, round_vec_to_grid,
    sqrt,
};
use crate::shape::{ShapeGeometry, local_aabb, shape_centroid, shape_min_extent, shape_proxy};
use crate::task::{Slots, Tasks};
use crate::world::World;

/// Most boxes a sweep's path is cut into for gathering static candidates: about one per
/// reach of travel, so each box stays within a few reaches across.
pub const MAX_SWEEP_PIECES: usize = 16;

/// Most candidates (static or movable shapes, triangles, voxel boxes) one body's sweep
/// examines in one step, over all its shapes. See the module notes for the order they
/// are taken in; the rest are dropped and the sweep counted in
/// `Counters::dropped_ccd_sweeps`.
pub const MAX_SWEEP_CANDIDATES: u32 = 1024;

/// Candidate shapes the trees give one sweep, held on the stack and sorted; past this
/// many, every shape slot is scanned instead (the same set in the same order).
const GATHER_CAPACITY: usize = 256;

/// A body's sweep over the step, in the frame of `origin` (a world position on the grid).
fn sweep_of(origin: DVec3, start: (DVec3, Quat), end: (DVec3, Quat), local_center: Vec3) -> Sweep {
    let c1 = (start.0 - origin).to_f32() + start.1.rotate(local_center);
    let c2 = (end.0 - origin).to_f32() + end.1.rotate(local_center);
    Sweep {
        local_center,
        c1,
        c2,
        q1: start.1,
        q2: end.1,
    }
}

/// Whether two shapes may collide at all (filters, sensors, same body).
fn may_collide(w: &World, a: u32, b: u32) -> bool {
    let (sa, sb) = (&w.shapes[a as usize], &w.shapes[b as usize]);
    sa.alive
        && sb.alive
        && !sa.is_sensor
        && !sb.is_sensor
        && !sa.is_ray()
        && !sb.is_ray()
        && sa.body != sb.body
        && sa.filter.should_collide(&sb.filter)
        && w.bodies_may_collide(sa.body, sb.body)
}

/// What one body's sweep did, for the counters and the candidate limit.
#[derive(Clone, Copy, Default, Debug)]
pub(crate) struct SweepWork {
    queries: u32,
    iterations: u32,
    root_iterations: u32,
    /// Candidates examined so far (against [`MAX_SWEEP_CANDIDATES`]).
    examined: u32,
    /// The limit was reached: nothing more is examined.
    cut_short: bool,
}

/// One body's sweep: its first time of touch (1 for none) and the work it took.
#[derive(Clone, Copy, Debug)]
pub(crate) struct SweepResult {
    pub t_min: f32,
    pub work: SweepWork,
}

impl Default for SweepResult {
    fn default() -> SweepResult {
        SweepResult {
            t_min: 1.0,
            work: SweepWork::default(),
        }
    }
}

impl SweepWork {
    fn add(&mut self, out: &ToiOutput) {
        self.queries = self.queries.saturating_add(1);
        self.iterations = self.iterations.saturating_add(out.iterations);
        self.root_iterations = self.root_iterations.saturating_add(out.root_iterations);
    }

    /// Takes one more candidate, or refuses (and stops the sweep) past the limit.
    fn take(&mut self) -> bool {
        if self.examined >= MAX_SWEEP_CANDIDATES {
            self.cut_short = true;
            return false;
        }
        self.examined += 1;
        true
    }
}

/// The candidate shapes of one tree under a box, in ascending slot order: gathered on
/// the stack and sorted, or (past [`GATHER_CAPACITY`]) found again by a scan of every
/// slot, which gives the same set in the same order.
struct Candidates {
    found: [u32; GATHER_CAPACITY],
    count: usize,
    overflow: bool,
    tree: u8,
}

impl Candidates {
    fn gather(w: &World, tree: u8, aabb: &DAabb) -> Candidates {
        let mut c = Candidates {
            found: [0; GATHER_CAPACITY],
            count: 0,
            overflow: false,
            tree,
        };
        let t = if tree == STATIC_TREE {
            &w.broad.statics
        } else {
            &w.broad.movable
        };
        t.query(aabb, |_proxy, slot| {
            if c.count < GATHER_CAPACITY {
                c.found[c.count] = slot;
                c.count += 1;
                true
            } else {
                c.overflow = true;
                false
            }
        });
        c.found[..c.count].sort_unstable();
        c
    }

    /// Calls `f(slot)` for each candidate whose fat bounds meet `aabb`, in slot order,
    /// until it returns false.
    fn for_each(&self, w: &World, aabb: &DAabb, mut f: impl FnMut(u32) -> bool) {
        if self.overflow {
            for (slot, s) in w.shapes.iter().enumerate() {
                if s.alive
                    && s.proxy != NONE
                    && s.tree == self.tree
                    && s.fat_aabb.overlaps(aabb)
                    && !f(slot as u32)
                {
                    return;
                }
            }
            return;
        }
        for &slot in &self.found[..self.count] {
            if w.shapes[slot as usize].fat_aabb.overlaps(aabb) && !f(slot) {
                return;
            }
        }
    }
}

/// The fast shape as continuous collision sweeps it.
struct Swept {
    shape: u32,
    proxy: ShapeProxy,
    /// The core ball the fallback sweeps when the shape starts touching.
    core: ShapeProxy,
    /// How far from the body's centre of mass any part of the shape (or its core ball)
    /// can come within a contact gap of something: the tube's radius.
    reach: f32,
    /// The shape's swept bounds: its bounds at the start and at the end of the step, and
    /// the box around both (Box3D's; see the module notes).
    bounds: DAabb,
    /// The shape's centroid (body frame).
    centroid: Vec3,
    /// Half the shape's thinnest extent (at least a linear slop): the motion towards a
    /// triangle's plane that counts as fast (Box3D's fallback radius for meshes).
    fast_approach: f32,
}

impl World {
    /// Whether contacts between two bodies are allowed (joints that forbid them).
    pub(crate) fn bodies_may_collide(&self, a: u32, b: u32) -> bool {
        !crate::edge::kept_apart(&self.joints, &self.bodies, a, b)
    }

    /// Sweeps fast bodies and bullets after the step.
    ///
    /// First the fast bodies that are not bullets, against the static world alone: no
    /// sweep of theirs reads what another one moves, so they run through the task hooks
    /// and are applied after, in body order (Box3D sweeps them in its finalize tasks).
    /// Then the bullets, one after another in body order, against the moved bodies too.
    pub(crate) fn solve_continuous(&mut self) {
        self.counters.toi_queries = 0;
        self.counters.toi_iterations = 0;
        self.counters.toi_root_iterations = 0;
        self.counters.dropped_ccd_sweeps = 0;
        let n = self.solver.params.len();
        let mut results = core::mem::replace(&mut self.solver.sweeps, FixedVec::empty(self.alloc));
        let mut tasks = core::mem::replace(&mut self.tasks, Tasks::placeholder(self.alloc));
        results.resize(n, SweepResult::default());
        // Blocks of 64 bodies, where a block is mostly bodies that are not swept; in a
        // world of 64 bodies or fewer with one to sweep, a body a block: a sweep costs
        // microseconds, and one block would leave the other workers idle.
        let small_with_sweeps = n <= 64 && self.solver.fast[..n].contains(&SWEPT);
        let min_block = if small_with_sweeps { 1 } else { 64 };
        {
            let w: &World = self;
            let out = Slots::new(&mut results[..n]);
            tasks.for_blocks(n, min_block, &|range| {
                for k in range {
                    if let Some((bi, start)) = w.sweeps_in_pass(k, false) {
                        // SAFETY: each index is in one block.
                        *unsafe { out.get(k) } = w.sweep(bi, start, false);
                    }
                }
            });
        }
        self.tasks = tasks;
        for k in 0..n {
            if let Some((bi, start)) = self.sweeps_in_pass(k, false) {
                self.apply_sweep(bi, start, results[k]);
            }
        }
        self.solver.sweeps = results;
        for k in 0..n {
            if let Some((bi, start)) = self.sweeps_in_pass(k, true) {
                let result = self.sweep(bi, start, true);
                self.apply_sweep(bi, start, result);
            }
        }
    }

    /// Solver body `k`'s body slot and start pose when it is swept in the pass of
    /// bullets (`bullets`) or of the others: finalize chose the bodies to sweep
    /// (`moved_far`, bullets).
    fn sweeps_in_pass(&self, k: usize, bullets: bool) -> Option<(u32, (DVec3, Quat))> {
        let pass = if bullets { SWEPT_BULLET } else { SWEPT };
        (self.solver.fast[k] == pass)
            .then(|| (self.solver.params[k].body, self.solver.ccd_start[k]))
    }

    /// Sweeps body `bi` from `start` to where it is now (a bullet against the moving
    /// bodies too): the first time of touch and the work it took. Reads only.
    fn sweep(&self, bi: u32, start: (DVec3, Quat), bullet: bool) -> SweepResult {
        let origin = start.0;
        let b = &self.bodies[bi as usize];
        let end = (b.position, b.rotation);
        let mut sweep = None;
        let mut t_min = 1.0f32;
        let mut work = SweepWork::default();
        let mut s = b.shape_head;
        while s != NONE && !work.cut_short {
            let shape = &self.shapes[s as usize];
            let next = shape.next_in_body;
            // A shape whose swept bounds meet no static shape has nothing to sweep
            // against, unless it is a bullet's (which meets the moving ones too): the
            // static sweep would gather no candidate and change nothing.
            if !shape.is_sensor
                && !shape.is_ray()
                && (bullet || self.statics_under(&self.swept_bounds(s, start, end)))
            {
                let sweep =
                    sweep.get_or_insert_with(|| sweep_of(origin, start, end, b.local_center));
                let swept = self.swept_shape(s, sweep, start, end);
                self.sweep_statics(&swept, sweep, origin, &mut t_min, &mut work);
                if bullet && !work.cut_short {
                    self.sweep_movables(&swept, sweep, origin, &mut t_min, &mut work);
                }
            }
            s = next;
        }
        SweepResult { t_min, work }
    }

    /// Counts a sweep's work and moves body `bi` back to its pose of first touch, if any.
    fn apply_sweep(&mut self, bi: u32, start: (DVec3, Quat), result: SweepResult) {
        let SweepResult { t_min, work } = result;
        let c = &mut self.counters;
        c.toi_queries = c.toi_queries.saturating_add(work.queries);
        c.toi_iterations = c.toi_iterations.saturating_add(work.iterations);
        c.toi_root_iterations = c.toi_root_iterations.saturating_add(work.root_iterations);
        if work.cut_short {
            c.dropped_ccd_sweeps = c.dropped_ccd_sweeps.saturating_add(1);
        }
        if t_min >= 1.0 {
            return;
        }
        // Back to the pose of first touch, on the position grid (the sweep is rebuilt
        // from the same poses, so it is the one `sweep` used).
        let origin = start.0;
        let b = &self.bodies[bi as usize];
        let sweep = sweep_of(origin, start, (b.position, b.rotation), b.local_center);
        let xf = sweep.transform_at(t_min);
        let body = &mut self.bodies[bi as usize];
        body.position = origin + round_vec_to_grid(xf.p);
        body.rotation = xf.q;
        self.refresh_body_bounds(bi, false);
    }

    fn swept_shape(
        &self,
        s: u32,
        sweep: &Sweep,
        start: (DVec3, Quat),
        end: (DVec3, Quat),
    ) -> Swept {
        let shape = &self.shapes[s as usize];
        let proxy = shape_proxy(shape, &self.content.hulls);
        let min_extent = shape_min_extent(shape, &self.content.hulls);
        let core_radius = 0.25 * min_extent;
        let core =
            ShapeProxy::from_points(&[shape_centroid(shape, &self.content.hulls)], core_radius);
        // The core points' farthest distance from the centre of mass bounds the core
        // ball's centre too (the centroid lies in their hull). The time of impact stops
        // a core `radius + other radius + LINEAR_SLOP` short (within a quarter slop); two
        // slops more leave room for rounding.
        let mut r2 = 0.0f32;
        for &v in proxy.used() {
            r2 = max(r2, (v - sweep.local_center).length_squared());
        }
        let reach = sqrt(r2) + max(proxy.radius, core_radius) + 2.0 * LINEAR_SLOP;
        Swept {
            shape: s,
            proxy,
            core,
            reach,
            bounds: self.swept_bounds(s, start, end),
            centroid: shape_centroid(shape, &self.content.hulls),
            fast_approach: max(0.5 * min_extent, LINEAR_SLOP),
        }
    }

    /// Shape `s`'s bounds at the start and at the end of the step, and the box around
    /// both.
    fn swept_bounds(&self, s: u32, start: (DVec3, Quat), end: (DVec3, Quat)) -> DAabb {
        let shape = &self.shapes[s as usize];
        let a0 = DAabb::from_local(start.0, &local_aabb(shape, &self.content.hulls, start.1));
        let a1 = DAabb::from_local(end.0, &local_aabb(shape, &self.content.hulls, end.1));
        a0.union(&a1)
    }

    /// Whether any static shape's proxy meets `aabb` (what `Candidates::gather` would
    /// find in the static tree).
    fn statics_under(&self, aabb: &DAabb) -> bool {
        let mut any = false;
        self.broad.statics.query(aabb, |_, _| {
            any = true;
            false
        });
        any
    }

    /// The sweep of one shape against static geometry, piece by piece along its path.
    fn sweep_statics(
        &self,
        swept: &Swept,
        sweep: &Sweep,
        origin: DVec3,
        t_min: &mut f32,
        work: &mut SweepWork,
    ) {
        let travel = (sweep.c2 - sweep.c1).length();
        let pieces = if travel <= swept.reach {
            1
        } else {
            let n = travel / swept.reach;
            if n >= MAX_SWEEP_PIECES as f32 {
                MAX_SWEEP_PIECES
            } else {
                (n as usize + 1).min(MAX_SWEEP_PIECES)
            }
        };
        // Each piece: the swept bounds where the tube passes over that stretch of the
        // path (empty pieces meet nothing).
        let whole = swept.bounds;
        let mut boxes = [EMPTY; MAX_SWEEP_PIECES];
        for (j, b) in boxes.iter_mut().enumerate().take(pieces) {
            let (ta, tb) = (j as f32 / pieces as f32, (j + 1) as f32 / pieces as f32);
            *b = intersect(&tube_box(sweep, origin, swept.reach, ta, tb), &whole);
        }
        let candidates = Candidates::gather(self, STATIC_TREE, &whole);
        for j in 0..pieces {
            // Whatever first meets a later piece stays out of reach before it starts.
            if j as f32 / pieces as f32 >= *t_min || work.cut_short {
                return;
            }
            if boxes[j] == EMPTY {
                continue;
            }
            candidates.for_each(self, &boxes[j], |t| {
                if !may_collide(self, swept.shape, t) {
                    return true;
                }
                let other = &self.shapes[t as usize];
                let ob = &self.bodies[other.body as usize];
                let here = (ob.position, ob.rotation);
                let other_sweep = sweep_of(origin, here, here, ob.local_center);
                // The centre's path up to the earliest hit so far, in the other body's
                // frame, for the reach test.
                let to_local =
                    |p: Vec3| ob.rotation.inv_rotate(p - (ob.position - origin).to_f32());
                let ShapeGeometry::Mesh(m) = other.geometry else {
                    // Examined in the first piece it meets.
                    if boxes[..j].iter().any(|b| b.overlaps(&other.fat_aabb)) {
                        return true;
                    }
                    if !work.take() {
                        return false;
                    }
                    // A plane is the slab of it near the whole path.
                    let (near, extent) =
                        crate::shape::region_near(&whole, ob.position, ob.rotation);
                    let p =
                        crate::shape::shape_proxy_near(other, &self.content.hulls, near, extent);
                    let path = (
                        to_local(sweep.c1),
                        to_local(sweep.c1.lerp(sweep.c2, *t_min)),
                    );
                    if within_reach(&p, path, swept.reach) {
                        sweep_pair(swept, sweep, &p, &other_sweep, t_min, work);
                    }
                    return true;
                };
                let Some(data) = mesh_data(&self.content.meshes, m) else {
                    return true;
                };
                let local = |b: &DAabb| {
                    let rel = Aabb::new(
                        (b.lower - ob.position).to_f32(),
                        (b.upper - ob.position).to_f32(),
                    );
                    bounds_in_frame(&rel, ob.rotation)
                };
                // Triangles are examined in the first piece whose box (in the mesh's
                // frame, as the query saw it) they meet, among the pieces this mesh was
                // gathered in. A voxel grid's boxes, whose query rounds to its voxels,
                // are all examined in the first piece that meets the grid.
                let voxels = matches!(data, MeshData::Voxels(_));
                // A two-sided mesh's triangles stop what comes from either side.
                let two_sided = other.two_sided && matches!(data, MeshData::Mesh(_));
                let mut earlier = [Aabb::default(); MAX_SWEEP_PIECES];
                let mut n = 0;
                for b in boxes[..j].iter().filter(|b| b.overlaps(&other.fat_aabb)) {
                    earlier[n] = local(b);
                    n += 1;
                }
                if voxels && n > 0 {
                    return true;
                }
                let earlier = &earlier[..if voxels { 0 } else { n }];
                let region = local(if voxels { &whole } else { &boxes[j] });
                // The shape's centroid at both ends of the step, in the mesh's frame.
                let centroid_path = (
                    to_local(sweep.transform_at(0.0).apply(swept.centroid)),
                    to_local(sweep.transform_at(1.0).apply(swept.centroid)),
                );
                let mut going = true;
                data.query(&region, |i| {
                    let Some(c) = data.child(i) else {
                        return true;
                    };
                    let aabb = c.aabb();
                    if earlier.iter().any(|e| e.overlaps(&aabb)) {
                        return true;
                    }
                    if !work.take() {
                        going = false;
                        return false;
                    }
                    if let crate::content::Child::Triangle(tri) = c {
                        if !approaches(swept, &tri.v, centroid_path, two_sided) {
                            return true;
                        }
                    }
                    c.with_points(|points| {
                        let p = ShapeProxy::from_points(points, 0.0);
                        let path = (
                            to_local(sweep.c1),
                            to_local(sweep.c1.lerp(sweep.c2, *t_min)),
                        );
                        if within_reach(&p, path, swept.reach) {
                            sweep_pair(swept, sweep, &p, &other_sweep, t_min, work);
                        }
                    });
                    true
                });
                going
            });
        }
    }

    /// A bullet's sweep of one shape against kinematic and dynamic bodies (other bullets
    /// sweep themselves), each over its own motion this step.
    fn sweep_movables(
        &self,
        swept: &Swept,
        sweep: &Sweep,
        origin: DVec3,
        t_min: &mut f32,
        work: &mut SweepWork,
    ) {
        let whole = swept.bounds;
        let candidates = Candidates::gather(self, MOVABLE_TREE, &whole);
        candidates.for_each(self, &whole, |t| {
            if !may_collide(self, swept.shape, t) {
                return true;
            }
            let other = &self.shapes[t as usize];
            let ob_slot = other.body;
            let ob = &self.bodies[ob_slot as usize];
            if ob.body_type == BodyType::Static || ob.bullet {
                return true;
            }
            let j = self.solver.solver_index[ob_slot as usize];
            let from = if j == NONE {
                (ob.position, ob.rotation)
            } else {
                self.solver.ccd_start[j as usize]
            };
            let other_sweep = sweep_of(origin, from, (ob.position, ob.rotation), ob.local_center);
            let ShapeGeometry::Mesh(m) = other.geometry else {
                if !work.take() {
                    return false;
                }
                let (near, extent) = crate::shape::region_near(&whole, ob.position, ob.rotation);
                let p = crate::shape::shape_proxy_near(other, &self.content.hulls, near, extent);
                sweep_pair(swept, sweep, &p, &other_sweep, t_min, work);
                return true;
            };
            // A kinematic mesh: each triangle under the whole path.
            let Some(data) = mesh_data(&self.content.meshes, m) else {
                return true;
            };
            let rel = Aabb::new(
                (whole.lower - ob.position).to_f32(),
                (whole.upper - ob.position).to_f32(),
            );
            let mut going = true;
            data.query(&bounds_in_frame(&rel, ob.rotation), |i| {
                let Some(c) = data.child(i) else {
                    return true;
                };
                if !work.take() {
                    going = false;
                    return false;
                }
                c.with_points(|points| {
                    let p = ShapeProxy::from_points(points, 0.0);
                    sweep_pair(swept, sweep, &p, &other_sweep, t_min, work);
                });
                true
            });
            going
        });
    }
}

/// A box that meets no other (every overlap test against it fails).
const EMPTY: DAabb = DAabb::new(
    DVec3::new(f64::MAX, f64::MAX, f64::MAX),
    DVec3::new(f64::MIN, f64::MIN, f64::MIN),
);

/// The common part of two boxes, or [`EMPTY`].
fn intersect(a: &DAabb, b: &DAabb) -> DAabb {
    let lower = DVec3::new(
        max_f64(a.lower.x, b.lower.x),
        max_f64(a.lower.y, b.lower.y),
        max_f64(a.lower.z, b.lower.z),
    );
    let upper = DVec3::new(
        min_f64(a.upper.x, b.upper.x),
        min_f64(a.upper.y, b.upper.y),
        min_f64(a.upper.z, b.upper.z),
    );
    if lower.x > upper.x || lower.y > upper.y || lower.z > upper.z {
        EMPTY
    } else {
        DAabb::new(lower, upper)
    }
}

/// The world box around the tube over fractions `[ta, tb]` of the path.
fn tube_box(sweep: &Sweep, origin: DVec3, reach: f32, ta: f32, tb: f32) -> DAabb {
    let (a, b) = (sweep.c1.lerp(sweep.c2, ta), sweep.c1.lerp(sweep.c2, tb));
    let r = Vec3::splat(reach);
    DAabb::from_local(origin, &Aabb::new(a.min(b) - r, a.max(b) + r))
}

/// Whether `other` (its frame) may come within `reach` of the centre's path `(a, b)`
/// (same frame): the distance between the cores, less the other's radius, against the
/// reach, with room for rounding at the coordinates' size.
fn within_reach(other: &ShapeProxy, (a, b): (Vec3, Vec3), reach: f32) -> bool {
    let path = ShapeProxy::from_points(&[a, b], 0.0);
    let size = max(a.abs().max_element(), b.abs().max_element());
    let limit = reach + other.radius + 1.0e-5 * size;
    let d = core_distance(
        &path,
        other,
        &Transform::IDENTITY,
        &mut SimplexCache::default(),
        limit,
    );
    d.distance <= limit
}

/// Whether a fast shape's motion counts as fast towards a one-sided triangle `v` (the
/// mesh's frame), after Box3D's mesh early-outs on the shape's centroid `c1 → c2`: not
/// if it starts behind the triangle's plane (a triangle never stops what comes from
/// behind, as its contacts never push it out), nor if it ends more than `fast_approach`
/// in front and came closer by less than that (no faster than a body that is not fast:
/// the speculative contact takes it). A centroid that would pass through the surface
/// crosses some triangle from in front to behind, which both tests keep. A triangle of
/// a two-sided mesh is seen from the side the centroid starts on.
fn approaches(swept: &Swept, v: &[Vec3; 3], (c1, c2): (Vec3, Vec3), two_sided: bool) -> bool {
    let n = (v[1] - v[0]).cross(v[2] - v[0]).normalize();
    let (mut o1, mut o2) = (n.dot(c1 - v[0]), n.dot(c2 - v[0]));
    if o1 < 0.0 {
        if !two_sided {
            return false;
        }
        (o1, o2) = (-o1, -o2);
    }
    let r = swept.fast_approach;
    !(o1 - o2 < r && o2 > r)
}

/// Time of impact of a fast shape against one other proxy; lowers `t_min` on a hit.
fn sweep_pair(
    swept: &Swept,
    sweep: &Sweep,
    other: &ShapeProxy,
    other_sweep: &Sweep,
    t_min: &mut f32,
    work: &mut SweepWork,
) {
    // Stop a linear slop short of touching: the next step's speculative contact (rigid
    // while apart) then halts the body where it touches, where a pose already
    // overlapping would leave it to the soft contact, which lets a little of a fast
    // approach through.
    let gap = swept.proxy.radius + other.radius + LINEAR_SLOP;
    let mut out = time_of_impact_to(&swept.proxy, sweep, other, other_sweep, *t_min, gap);
    work.add(&out);
    let at_start =
        out.state == ToiState::Overlapped || (out.state == ToiState::Hit && out.fraction <= 0.0);
    if at_start {
        // Touching already: stopping here would pause the body (Box2D's observation; the
        // contact holds it). Box2D's fallback instead: a small ball at the shape's centre
        // must not pass through.
        out = time_of_impact(&swept.core, sweep, other, other_sweep, *t_min);
        work.add(&out);
    }
    // A query out of iterations still gives a time before any contact: stop there.
    let stops = out.state == ToiState::Hit || out.state == ToiState::Failed;
    if stops && 0.0 < out.fraction && out.fraction < *t_min {
        *t_min = min(out.fraction, *t_min);
    }
}

/// A body continuous collision sweeps in the pass of those that are not bullets
/// (`SolverScratch::fast`).
pub(crate) const SWEPT: u8 = 1;
/// A bullet, swept in the pass of bullets.
pub(crate) const SWEPT_BULLET: u8 = 2;

/// Whether a body that is not a bullet moved far enough from `start` this step to be
/// swept: its centre's travel plus its farthest point's turn past half its thinnest
/// shape. Each body's own test, so finalize runs it for every body in parallel; a sweep
/// moves only its own body, so the answer is the one the sweeps' loop would get.
pub(crate) fn moved_far(start: (crate::math::DVec3, Quat), b: &crate::body::Body) -> bool {
    let travel = (b.position - start.0).to_f32().length();
    let dq = start.1.conjugate() * b.rotation;
    let angle = 2.0 * acos(dq.w.abs());
    // Not `>`: a NaN travel sweeps, as it always did.
    #[allow(clippy::neg_cmp_op_on_partial_ord)]
    let far = !(travel + angle * b.max_extent <= 0.5 * b.min_extent);
    far
}
