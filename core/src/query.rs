//! Scene queries: ray casts, overlaps and (with shape casts) the motion test's building
//! blocks. Read-only: any number of threads may query one world at once between steps.
//!
//! Results come in a fixed order whatever the trees look like: by fraction, then shape
//! slot, for casts; by shape slot for overlaps. When a caller's buffer is shorter than the
//! number of results, it holds the first results in that order and the call returns the
//! total.

use crate::body::Body;
use crate::broad_phase::{MOVABLE_TREE, STATIC_TREE};
use crate::collide::SatCache;
use crate::collide::cylinder_plane::{ray_cast_cylinder, ray_cast_plane};
use crate::collide::ray::{RayHit, RayInput, ray_cast_capsule, ray_cast_hull, ray_cast_sphere};
use crate::contact::collide_with_hulls;
use crate::error::{Error, Result};
use crate::geometry::cylinder::{cylinder_contains, plane_contains};
use crate::geometry::{Capsule, Cylinder, Sphere};
use crate::id::{BodyId, HullId, ShapeId};
use crate::math::{DAabb, DVec3, Quat, Transform, Vec3};
use crate::shape::{BoxShape, Shape, ShapeGeometry};
use crate::world::World;

/// Which shapes a query sees: those whose category is in `mask_bits` and whose mask
/// holds one of `category_bits` (Box2D's query filter); sensors only if asked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct QueryFilter {
    /// What the query is.
    pub category_bits: u64,
    /// What it sees.
    pub mask_bits: u64,
    /// Whether sensor shapes are seen.
    pub include_sensors: bool,
}

impl Default for QueryFilter {
    fn default() -> QueryFilter {
        QueryFilter {
            category_bits: 1,
            mask_bits: u64::MAX,
            include_sensors: false,
        }
    }
}

impl QueryFilter {
    pub(crate) fn accepts(&self, s: &Shape) -> bool {
        (s.filter.category_bits & self.mask_bits) != 0
            && (s.filter.mask_bits & self.category_bits) != 0
            && (self.include_sensors || !s.is_sensor)
            && !s.is_ray()
    }
}

/// How a ray cast treats shapes it starts in and triangles it meets from behind
/// (Godot's `hit_from_inside` and `hit_back_faces`; Jolt's `mTreatConvexAsSolid` and
/// back-face mode). The default is the plain casts' behaviour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RayOptions {
    /// A ray starting inside a solid shape (anything but a mesh, height field or voxel
    /// map) hits it at the origin, fraction 0, with a zero normal. Off: that shape is
    /// not hit at all (a ray finds where it enters a surface).
    pub hit_from_inside: bool,
    /// Mesh and height-field triangles met from behind are hit. Off: they are passed
    /// through, as are the faces of a one-sided mesh seen from its back.
    pub hit_back_faces: bool,
}

impl Default for RayOptions {
    fn default() -> RayOptions {
        RayOptions {
            hit_from_inside: false,
            hit_back_faces: true,
        }
    }
}

/// A ray cast's hit.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RayResult {
    /// The shape hit.
    pub shape: ShapeId,
    /// Its body.
    pub body: BodyId,
    /// Where the ray enters it, relative to the world origin.
    pub point: DVec3,
    /// The surface normal there (zero for a ray that started inside the shape and was
    /// cast with [`RayOptions::hit_from_inside`]).
    pub normal: Vec3,
    /// The fraction of the translation at the hit.
    pub fraction: f32,
}

/// A convex hull built for queries only: it lives with the caller, not in a world, so
/// making one changes no world state (no hull slot, nothing recorded or hashed). Build it
/// once and probe with it as often as needed ([`QueryShape::Convex`]).
#[derive(Clone, Debug)]
pub struct QueryHull {
    hull: crate::geometry::hull::Hull,
}

impl QueryHull {
    /// The hull of `points` (in the probe's frame), validated and built as
    /// [`World::create_hull`] does (at most 64 points; coplanar points make a thin hull).
    pub fn new(points: &[Vec3]) -> Result<QueryHull> {
        use crate::geometry::hull::MAX_HULL_POINTS;
        if points.len() > MAX_HULL_POINTS {
            return Err(Error::Argument {
                name: "query hull point count",
                value: points.len() as f64,
                expected: "at most 64",
            });
        }
        for p in points {
            crate::limits::check_vec_abs(
                "query hull point",
                *p,
                1.0e6,
                "finite and within ±1e6 (each component)",
            )?;
        }
        let mut hull = crate::geometry::hull::Hull::default();
        crate::geometry::quickhull::build_hull(points, &mut hull)?;
        Ok(QueryHull { hull })
    }

    /// The hull's vertices (after welding and removing interior points).
    pub fn vertices(&self) -> &[Vec3] {
        self.hull.view().vertices
    }

    pub(crate) fn view(&self) -> crate::geometry::hull::HullView<'_> {
        self.hull.view()
    }
}

impl PartialEq for QueryHull {
    fn eq(&self, other: &QueryHull) -> bool {
        self.vertices() == other.vertices()
    }
}

/// The geometry of a shape query, in its own frame.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum QueryShape<'a> {
    /// A sphere.
    Sphere(Sphere),
    /// A capsule.
    Capsule(Capsule),
    /// A box.
    Box(BoxShape),
    /// A hull of this world.
    Hull(HullId),
    /// A cylinder (dimensions within (0, 1e6]).
    Cylinder(Cylinder),
    /// A convex hull of the caller's (Godot's `ConvexPolygonShape3D` as a probe).
    Convex(&'a QueryHull),
    /// The union of convex pieces of the caller's (1 to 65,536): a concave probe, such as
    /// Godot's `ConcavePolygonShape3D` with each triangle a flat hull. It finds what any
    /// piece finds: overlaps once per shape, contact points of every piece, the earliest
    /// cast hit of any piece.
    Pieces(&'a [QueryHull]),
}

/// A query's temporary shape: the shape, or the hulls that stand in for it when they live
/// outside the world (`pieces` non-empty).
pub(crate) struct Probe<'a> {
    pub shape: Shape,
    pub pieces: &'a [QueryHull],
}

impl Probe<'_> {
    /// Each piece's hull, or one `None` for the shape itself.
    pub(crate) fn each(&self, mut f: impl FnMut(Option<crate::geometry::hull::HullView>)) {
        if self.pieces.is_empty() {
            f(None);
        }
        for h in self.pieces {
            f(Some(h.view()));
        }
    }

    /// Bounds relative to the probe's position, rotated by `q`.
    pub(crate) fn local_aabb(&self, w: &World, q: Quat) -> crate::math::Aabb {
        let xf = Transform::new(Vec3::ZERO, q);
        let mut out: Option<crate::math::Aabb> = None;
        self.each(|h| {
            let b = match h {
                Some(h) => crate::geometry::bounds::hull_aabb(&h, &xf),
                None => crate::shape::local_aabb(&self.shape, &w.content.hulls, q),
            };
            out = Some(match out {
                Some(o) => o.union(&b),
                None => b,
            });
        });
        out.unwrap_or(crate::math::Aabb::new(Vec3::ZERO, Vec3::ZERO))
    }
}

/// Whether a ray's segment `[0, max]·translation` from `origin` can touch box `b`
/// (slab test in f64; conservative: never rejects a box the segment touches).
/// Most tree leaves [`World::ray_candidates`] keeps (past them, each ray descends the trees
/// itself).
pub(crate) const RAY_CANDIDATES: usize = 32;

/// How far (m) a region for [`World::ray_candidates`] must reach past the segments it
/// holds: further than [`ray_touches`] widens a box for rounding anywhere in the world
/// (1e-9 of the ray parameter, at most ~0.02 m for boxes within 2^23 m).
pub(crate) const RAY_REGION_MARGIN: f64 = 0.05;

/// Tree leaves gathered once for several rays: (tree, proxy, shape slot).
pub(crate) struct RayCandidates {
    leaves: [(u8, u32, u32); RAY_CANDIDATES],
    count: usize,
    complete: bool,
}

fn ray_touches(origin: DVec3, translation: Vec3, max: f32, b: &DAabb) -> bool {
    let (mut lo, mut hi) = (0.0f64, max as f64);
    for i in 0..3 {
        let o = origin.get(i);
        let d = translation.get(i) as f64;
        let (l, u) = (b.lower.get(i), b.upper.get(i));
        if d == 0.0 {
            if o < l || o > u {
                return false;
            }
            continue;
        }
        let inv = 1.0 / d;
        let (mut t1, mut t2) = ((l - o) * inv, (u - o) * inv);
        if t1 > t2 {
            core::mem::swap(&mut t1, &mut t2);
        }
        // Widen by a relative epsilon so rounding never cuts a grazing hit.
        let eps = 1e-9 * (1.0 + crate::math::max_f64(t1.abs(), t2.abs()));
        if t1 - eps > lo {
            lo = t1 - eps;
        }
        if t2 + eps < hi {
            hi = t2 + eps;
        }
        if lo > hi {
            return false;
        }
    }
    true
}

/// The ray against one shape, in the frame of the shape's body origin.
fn ray_shape(
    w: &World,
    s: &Shape,
    b: &Body,
    origin: DVec3,
    translation: Vec3,
    max: f32,
    options: &RayOptions,
) -> Option<RayHit> {
    if options.hit_from_inside && shape_contains(w, s, b, origin) {
        return Some(RayHit {
            fraction: 0.0,
            point: (origin - b.position).to_f32(),
            normal: Vec3::ZERO,
        });
    }
    let input = RayInput {
        origin: (origin - b.position).to_f32(),
        translation,
        max_fraction: max,
    };
    let xf = Transform::new(Vec3::ZERO, b.rotation);
    match &s.geometry {
        ShapeGeometry::Sphere(sp) => ray_cast_sphere(sp, &xf, &input),
        ShapeGeometry::Capsule(c) => ray_cast_capsule(c, &xf, &input),
        ShapeGeometry::Box(_) => ray_cast_hull(&s.box_hull.view(), &xf, &input),
        ShapeGeometry::Hull(h) => {
            ray_cast_hull(&w.content.hulls[*h as usize].hull.view(), &xf, &input)
        }
        ShapeGeometry::Mesh(m) => {
            // Into the shape's frame and back: meshes answer in their own frame.
            let data = crate::content::mesh_data(&w.content.meshes, *m)?;
            let local = RayInput {
                origin: b.rotation.inv_rotate(input.origin),
                translation: b.rotation.inv_rotate(input.translation),
                max_fraction: max,
            };
            let (hit, _) = data.ray_cast_sided(&local, !options.hit_back_faces)?;
            Some(RayHit {
                fraction: hit.fraction,
                point: b.rotation.rotate(hit.point),
                normal: b.rotation.rotate(hit.normal),
            })
        }
        ShapeGeometry::Cylinder(c) => ray_cast_cylinder(c, &xf, &input),
        ShapeGeometry::Plane(p) => ray_cast_plane(p, &xf, &input),
        // Infinitely thin: never hit (as Godot's separation ray shape).
        ShapeGeometry::Ray(_) => None,
    }
}

fn check_ray(origin: DVec3, translation: Vec3) -> Result<()> {
    crate::error::check_world_point("ray origin", origin, crate::math::POSITION_LIMIT)?;
    crate::limits::check_vec_abs(
        "ray translation",
        translation,
        1.0e7,
        "finite and within ±1e7 (each component)",
    )
}

impl World {
    fn for_each_ray_candidate(&self, origin: DVec3, translation: Vec3, mut f: impl FnMut(u32)) {
        let test = |b: &DAabb| ray_touches(origin, translation, 1.0, b);
        let mut visit = |_proxy: u32, s: u32| {
            f(s);
            true
        };
        self.broad.statics.query_by(&test, &mut visit);
        self.broad.movable.query_by(&test, &mut visit);
    }

    fn ray_result(&self, slot: u32, hit: &RayHit) -> RayResult {
        let s = &self.shapes[slot as usize];
        let b = &self.bodies[s.body as usize];
        RayResult {
            shape: self.shape_id(slot),
            body: self.body_id(s.body),
            point: b.position + hit.point.to_f64(),
            normal: hit.normal,
            fraction: hit.fraction,
        }
    }

    /// The first shape slot `accepts` takes that the segment `origin + t·translation`,
    /// t ∈ [0, 1], enters (ties: the lower slot), with the hit (its point relative to the
    /// hit shape's body origin). Unchecked input: for the motion test's separation rays.
    pub(crate) fn ray_closest_where(
        &self,
        origin: DVec3,
        translation: Vec3,
        accepts: &impl Fn(u32) -> bool,
    ) -> Option<(u32, RayHit)> {
        let mut best: Option<(u32, RayHit)> = None;
        self.for_each_ray_candidate(origin, translation, |slot| {
            self.closer_hit(&mut best, slot, origin, translation, accepts);
        });
        best
    }

    /// Whether shape `slot` is hit before `best` by the segment (ties: the lower slot), and
    /// if so the new best: the one comparison every closest-ray search shares, so that any
    /// order of candidates gives the same answer.
    #[inline]
    fn closer_hit(
        &self,
        best: &mut Option<(u32, RayHit)>,
        slot: u32,
        origin: DVec3,
        translation: Vec3,
        accepts: &impl Fn(u32) -> bool,
    ) {
        let s = &self.shapes[slot as usize];
        let b = &self.bodies[s.body as usize];
        if !s.alive || !b.enabled || !accepts(slot) {
            return;
        }
        let options = RayOptions::default();
        if let Some(hit) = ray_shape(self, s, b, origin, translation, 1.0, &options) {
            let better = match best {
                None => true,
                Some((k, h)) => {
                    hit.fraction < h.fraction || (hit.fraction == h.fraction && slot < *k)
                }
            };
            if better {
                *best = Some((slot, hit));
            }
        }
    }

    /// The tree leaves whose boxes overlap `region` (in the static tree's order, then the
    /// movable one's), for several short rays within it to share one descent of each tree
    /// ([`World::ray_closest_among`]). Incomplete past [`RAY_CANDIDATES`] leaves.
    pub(crate) fn ray_candidates(&self, region: &DAabb) -> RayCandidates {
        let mut c = RayCandidates {
            leaves: [(0, 0, 0); RAY_CANDIDATES],
            count: 0,
            complete: true,
        };
        for (which, tree) in [
            (STATIC_TREE, &self.broad.statics),
            (MOVABLE_TREE, &self.broad.movable),
        ] {
            tree.query(region, |proxy, slot| {
                if c.count == RAY_CANDIDATES {
                    c.complete = false;
                    return false;
                }
                c.leaves[c.count] = (which, proxy, slot);
                c.count += 1;
                true
            });
        }
        c
    }

    /// [`World::ray_closest_where`] for a segment within the region `candidates` were
    /// gathered for (its box grown by [`RAY_REGION_MARGIN`]): the same answer, since a
    /// tree reports exactly the leaves whose own boxes the segment touches (a box holding
    /// one it touches is touched too) and the comparison does not depend on their order.
    pub(crate) fn ray_closest_among(
        &self,
        candidates: &RayCandidates,
        origin: DVec3,
        translation: Vec3,
        accepts: &impl Fn(u32) -> bool,
    ) -> Option<(u32, RayHit)> {
        if !candidates.complete {
            return self.ray_closest_where(origin, translation, accepts);
        }
        let mut best: Option<(u32, RayHit)> = None;
        for &(which, proxy, slot) in &candidates.leaves[..candidates.count] {
            let tree = if which == STATIC_TREE {
                &self.broad.statics
            } else {
                &self.broad.movable
            };
            if ray_touches(origin, translation, 1.0, &tree.aabb(proxy)) {
                self.closer_hit(&mut best, slot, origin, translation, accepts);
            }
        }
        best
    }

    /// The first shape the segment `origin + t·translation`, t ∈ [0, 1], enters (ties: the
    /// lower shape slot). A ray starting inside a shape does not hit that shape.
    pub fn cast_ray_closest(
        &self,
        origin: DVec3,
        translation: Vec3,
        filter: &QueryFilter,
    ) -> Result<Option<RayResult>> {
        self.cast_ray_closest_with(origin, translation, filter, &RayOptions::default())
    }

    /// [`World::cast_ray_closest`] with [`RayOptions`]: whether shapes the ray starts in
    /// are hit (at the origin) and whether triangles met from behind are.
    pub fn cast_ray_closest_with(
        &self,
        origin: DVec3,
        translation: Vec3,
        filter: &QueryFilter,
        options: &RayOptions,
    ) -> Result<Option<RayResult>> {
        check_ray(origin, translation)?;
        let mut best: Option<(f32, u32, RayHit)> = None;
        self.for_each_ray_candidate(origin, translation, |slot| {
            let s = &self.shapes[slot as usize];
            let b = &self.bodies[s.body as usize];
            if !s.alive || !b.enabled || !filter.accepts(s) {
                return;
            }
            if let Some(hit) = ray_shape(self, s, b, origin, translation, 1.0, options) {
                let better = match &best {
                    None => true,
                    Some((f, k, _)) => hit.fraction < *f || (hit.fraction == *f && slot < *k),
                };
                if better {
                    best = Some((hit.fraction, slot, hit));
                }
            }
        });
        Ok(best.map(|(_, slot, hit)| self.ray_result(slot, &hit)))
    }

    /// Every shape the segment enters, by fraction then shape slot; fills `out` with the
    /// first ones and returns how many there are.
    pub fn cast_ray_all(
        &self,
        origin: DVec3,
        translation: Vec3,
        filter: &QueryFilter,
        out: &mut [RayResult],
    ) -> Result<usize> {
        self.cast_ray_all_with(origin, translation, filter, &RayOptions::default(), out)
    }

    /// [`World::cast_ray_all`] with [`RayOptions`].
    pub fn cast_ray_all_with(
        &self,
        origin: DVec3,
        translation: Vec3,
        filter: &QueryFilter,
        options: &RayOptions,
        out: &mut [RayResult],
    ) -> Result<usize> {
        check_ray(origin, translation)?;
        let mut count = 0usize;
        let mut filled = 0usize;
        self.for_each_ray_candidate(origin, translation, |slot| {
            let s = &self.shapes[slot as usize];
            let b = &self.bodies[s.body as usize];
            if !s.alive || !b.enabled || !filter.accepts(s) {
                return;
            }
            let Some(hit) = ray_shape(self, s, b, origin, translation, 1.0, options) else {
                return;
            };
            count += 1;
            let r = self.ray_result(slot, &hit);
            let before = |a: &RayResult, b: &RayResult| {
                a.fraction < b.fraction
                    || (a.fraction == b.fraction && a.shape.index < b.shape.index)
            };
            let mut i = filled;
            if filled < out.len() {
                filled += 1;
            } else if out.is_empty() || !before(&r, &out[out.len() - 1]) {
                return;
            } else {
                i = out.len() - 1;
            }
            while i > 0 && before(&r, &out[i - 1]) {
                out[i] = out[i - 1];
                i -= 1;
            }
            out[i] = r;
        });
        Ok(count)
    }

    /// Shapes whose current bounds overlap `aabb`, by shape slot.
    pub fn overlap_aabb(&self, aabb: &DAabb, filter: &QueryFilter, out: &mut [ShapeId]) -> usize {
        let mut n = 0;
        self.for_each_overlap_candidate(
            aabb,
            |slot| {
                let s = &self.shapes[slot as usize];
                let b = &self.bodies[s.body as usize];
                let local = crate::shape::local_aabb(s, &self.content.hulls, b.rotation);
                DAabb::from_local(b.position, &local).overlaps(aabb) && filter.accepts(s)
            },
            out,
            &mut n,
        );
        n
    }

    /// Shapes that contain `point`, by shape slot.
    pub fn overlap_point(&self, point: DVec3, filter: &QueryFilter, out: &mut [ShapeId]) -> usize {
        let aabb = DAabb::new(point, point);
        let mut n = 0;
        self.for_each_overlap_candidate(
            &aabb,
            |slot| {
                let s = &self.shapes[slot as usize];
                let b = &self.bodies[s.body as usize];
                filter.accepts(s) && shape_contains(self, s, b, point)
            },
            out,
            &mut n,
        );
        n
    }

    /// Shapes that overlap `shape` placed at `position`/`rotation`, by shape slot.
    pub fn overlap_shape(
        &self,
        shape: &QueryShape,
        position: DVec3,
        rotation: Quat,
        filter: &QueryFilter,
        out: &mut [ShapeId],
    ) -> Result<usize> {
        let rotation =
            crate::error::check_rotation("query rotation", "query rotation norm²", rotation)?;
        let probe = self.query_probe(shape, position, rotation)?;
        let local = probe.local_aabb(self, rotation);
        let aabb = DAabb::from_local(position, &local);
        let mut n = 0;
        self.for_each_overlap_candidate(
            &aabb,
            |slot| {
                let s = &self.shapes[slot as usize];
                filter.accepts(s) && self.probe_overlaps(&probe, position, rotation, slot)
            },
            out,
            &mut n,
        );
        Ok(n)
    }

    /// Candidate shapes in slot order: collected by the trees, then sorted by inserting
    /// into `out` (which only ever holds the lowest slots seen so far).
    fn for_each_overlap_candidate(
        &self,
        aabb: &DAabb,
        accept: impl Fn(u32) -> bool,
        out: &mut [ShapeId],
        count: &mut usize,
    ) {
        let mut filled = 0usize;
        let mut visit = |_proxy: u32, slot: u32| {
            let s = &self.shapes[slot as usize];
            if !s.alive || !self.bodies[s.body as usize].enabled || !accept(slot) {
                return true;
            }
            *count += 1;
            let id = self.shape_id(slot);
            let mut i = filled;
            if filled < out.len() {
                filled += 1;
            } else if out.is_empty() || id.index >= out[out.len() - 1].index {
                return true;
            } else {
                i = out.len() - 1;
            }
            while i > 0 && id.index < out[i - 1].index {
                out[i] = out[i - 1];
                i -= 1;
            }
            out[i] = id;
            true
        };
        self.broad.statics.query(aabb, &mut visit);
        self.broad.movable.query(aabb, &mut visit);
    }

    /// A temporary shape for a query geometry.
    pub(crate) fn query_probe<'a>(
        &self,
        shape: &QueryShape<'a>,
        position: DVec3,
        rotation: Quat,
    ) -> Result<Probe<'a>> {
        crate::error::check_world_point("query position", position, crate::math::POSITION_LIMIT)?;
        crate::error::check_rotation("query rotation", "query rotation norm²", rotation)?;
        let mut pieces: &[QueryHull] = &[];
        let geometry = match *shape {
            QueryShape::Convex(h) => {
                pieces = core::slice::from_ref(h);
                // Never looked up: the pieces stand in for it.
                ShapeGeometry::Hull(u32::MAX)
            }
            QueryShape::Pieces(p) => {
                if p.is_empty() || p.len() > 65_536 {
                    return Err(Error::Argument {
                        name: "query piece count",
                        value: p.len() as f64,
                        expected: "within [1, 65536]",
                    });
                }
                pieces = p;
                ShapeGeometry::Hull(u32::MAX)
            }
            QueryShape::Sphere(s) => ShapeGeometry::Sphere(s),
            QueryShape::Capsule(c) => ShapeGeometry::Capsule(c),
            QueryShape::Box(b) => ShapeGeometry::Box(b),
            QueryShape::Hull(h) => ShapeGeometry::Hull(self.hull_slot(h)? as u32),
            QueryShape::Cylinder(c) => {
                for (name, v) in [
                    ("query cylinder.half_height", c.half_height),
                    ("query cylinder.radius", c.radius),
                ] {
                    if !(v.is_finite() && v > 0.0 && v <= 1.0e6) {
                        return Err(Error::Argument {
                            name,
                            value: v as f64,
                            expected: "finite and within (0, 1e6]",
                        });
                    }
                }
                crate::limits::check_vec_abs(
                    "query cylinder.center",
                    c.center,
                    f32::MAX,
                    "finite",
                )?;
                let rotation = crate::error::check_rotation(
                    "query cylinder.rotation",
                    "query cylinder.rotation norm²",
                    c.rotation,
                )?;
                ShapeGeometry::Cylinder(Cylinder { rotation, ..c })
            }
        };
        Ok(Probe {
            shape: crate::shape::probe_shape(geometry),
            pieces,
        })
    }

    /// Whether a probe at `position`/`rotation` overlaps shape `slot` (strictly).
    pub(crate) fn probe_overlaps(
        &self,
        probe: &Probe,
        position: DVec3,
        rotation: Quat,
        slot: u32,
    ) -> bool {
        let other = &self.shapes[slot as usize];
        let b = &self.bodies[other.body as usize];
        let xf_p = Transform::new(Vec3::ZERO, rotation.normalize());
        let xf_o = Transform::new((b.position - position).to_f32(), b.rotation);
        let mut overlaps = false;
        probe.each(|hull| {
            overlaps = overlaps || self.piece_overlaps(&probe.shape, hull, &xf_p, other, &xf_o);
        });
        overlaps
    }

    /// Whether one piece of a probe (or the probe shape itself) overlaps `other`.
    fn piece_overlaps(
        &self,
        probe: &Shape,
        hull: Option<crate::geometry::hull::HullView>,
        xf_p: &Transform,
        other: &Shape,
        xf_o: &Transform,
    ) -> bool {
        let (xf_p, xf_o) = (*xf_p, *xf_o);
        let mut cache = SatCache::default();
        // Higher kind first, as contacts order their shapes.
        let m = if probe.geometry.kind() >= other.geometry.kind() {
            collide_with_hulls(
                (probe, hull),
                &xf_p,
                (other, None),
                &xf_o,
                &self.content.hulls,
                &self.content.meshes,
                0.0,
                &mut cache,
            )
        } else {
            collide_with_hulls(
                (other, None),
                &xf_o,
                (probe, hull),
                &xf_p,
                &self.content.hulls,
                &self.content.meshes,
                0.0,
                &mut cache,
            )
        };
        m.points[..m.count as usize]
            .iter()
            .any(|p| p.separation < 0.0)
    }
}

/// Whether `point` lies inside shape `s` of body `b`.
fn shape_contains(w: &World, s: &Shape, b: &Body, point: DVec3) -> bool {
    let p = b.rotation.inv_rotate((point - b.position).to_f32());
    match &s.geometry {
        ShapeGeometry::Sphere(sp) => (p - sp.center).length_squared() <= sp.radius * sp.radius,
        ShapeGeometry::Capsule(c) => {
            let d = c.center2 - c.center1;
            let l2 = d.length_squared();
            let t = if l2 > 0.0 {
                crate::math::clamp((p - c.center1).dot(d) / l2, 0.0, 1.0)
            } else {
                0.0
            };
            (p - (c.center1 + d * t)).length_squared() <= c.radius * c.radius
        }
        ShapeGeometry::Box(_) => s
            .box_hull
            .view()
            .planes
            .iter()
            .all(|pl| pl.distance(p) <= 0.0),
        ShapeGeometry::Hull(h) => w.content.hulls[*h as usize]
            .hull
            .view()
            .planes
            .iter()
            .all(|pl| pl.distance(p) <= 0.0),
        // Surfaces enclose nothing.
        ShapeGeometry::Mesh(_) => false,
        ShapeGeometry::Cylinder(c) => cylinder_contains(c, p),
        ShapeGeometry::Plane(pl) => plane_contains(pl, p),
        ShapeGeometry::Ray(_) => false,
    }
}

/// A shape cast's hit.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ShapeCastResult {
    /// The shape hit.
    pub shape: ShapeId,
    /// Its body.
    pub body: BodyId,
    /// The hit point on the shape's surface, relative to the world origin.
    pub point: DVec3,
    /// The shape's surface normal there, pointing towards the cast shape.
    pub normal: Vec3,
    /// Fraction of the translation at which the cast shape comes within about a
    /// millimetre of the shape (so it may be moved there without touching).
    pub fraction: f32,
}

impl World {
    /// The first shape that `shape`, placed at `position`/`rotation` and moved by
    /// `translation`, meets (ties: the lower shape slot). A cast that starts touching or
    /// overlapping a shape hits it at fraction 0.
    pub fn cast_shape(
        &self,
        shape: &QueryShape,
        position: DVec3,
        rotation: Quat,
        translation: Vec3,
        filter: &QueryFilter,
    ) -> Result<Option<ShapeCastResult>> {
        self.cast_shape_where(shape, position, rotation, translation, &|slot| {
            filter.accepts(&self.shapes[slot as usize])
        })
    }

    /// [`World::cast_shape`] seeing the shape slots `accepts` takes (the vehicles' wheels:
    /// every shape but the chassis').
    pub(crate) fn cast_shape_where(
        &self,
        shape: &QueryShape,
        position: DVec3,
        rotation: Quat,
        translation: Vec3,
        accepts: &impl Fn(u32) -> bool,
    ) -> Result<Option<ShapeCastResult>> {
        use crate::collide::cast::shape_cast;
        crate::limits::check_vec_abs(
            "cast translation",
            translation,
            1.0e6,
            "finite and within ±1e6 (each component)",
        )?;
        let rotation =
            crate::error::check_rotation("query rotation", "query rotation norm²", rotation)?;
        let probe = self.query_probe(shape, position, rotation)?;
        let local = probe.local_aabb(self, rotation);
        let swept = DAabb::from_local(position, &local)
            .union(&DAabb::from_local(position + translation.to_f64(), &local));
        let xf = Transform::new(Vec3::ZERO, rotation);
        let mut best: Option<(f32, u32, Vec3, Vec3)> = None;
        self.for_each_shape_in_slot_order(&swept, |slot| {
            let s = &self.shapes[slot as usize];
            if !accepts(slot) {
                return;
            }
            let b = &self.bodies[s.body as usize];
            let xf_o = Transform::new((b.position - position).to_f32(), b.rotation);
            // A mesh: each triangle under the swept bounds.
            probe.each(|hull| {
                let proxy = match hull {
                    Some(h) => crate::collide::distance::ShapeProxy::hull(&h),
                    None => crate::shape::shape_proxy(&probe.shape, &self.content.hulls),
                };
                self.for_each_proxy(s, &swept, |other| {
                    let max = best.map_or(1.0, |x| x.0);
                    let c = shape_cast(other, &xf_o, &proxy, &xf, translation, max);
                    if c.hit && best.is_none_or(|(f, _, _, _)| c.fraction < f) {
                        best = Some((c.fraction, slot, c.point, c.normal));
                    }
                });
            });
        });
        Ok(best.map(|(fraction, slot, point, normal)| ShapeCastResult {
            shape: self.shape_id(slot),
            body: self.body_id(self.shapes[slot as usize].body),
            point: position + point.to_f64(),
            normal,
            fraction,
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{BodyDef, BodyType, HeightFieldDef, ShapeDef, WorldDef};

    /// A world of a height field, spheres, capsules and boxes strewn over it (some
    /// dynamic, some static, some overlapping), for comparing ray searches.
    fn strewn(count: usize) -> World {
        let mut w = World::new(&WorldDef {
            body_capacity: 256,
            shape_capacity: 256,
            ..Default::default()
        })
        .unwrap();
        let n = 9u32;
        let heights: std::vec::Vec<f32> = (0..n * n).map(|i| ((i * 7) % 5) as f32 * 0.2).collect();
        let field = w
            .create_height_field(&HeightFieldDef {
                count_x: n,
                count_z: n,
                heights: &heights,
                holes: &[],
                scale: Vec3::new(2.0, 1.0, 2.0),
            })
            .unwrap();
        let ground = w
            .create_body(&BodyDef {
                position: DVec3::new(-8.0, 0.0, -8.0),
                ..Default::default()
            })
            .unwrap();
        w.create_mesh_shape(ground, &ShapeDef::default(), field)
            .unwrap();
        for i in 0..count {
            let (x, z) = ((i % 7) as f64 * 2.1 - 7.0, (i / 7 % 7) as f64 * 2.3 - 7.0);
            let y = 1.0 + (i % 3) as f64 * 0.7;
            let body = w
                .create_body(&BodyDef {
                    position: DVec3::new(x, y, z),
                    body_type: if i % 4 == 0 {
                        BodyType::Static
                    } else {
                        BodyType::Dynamic
                    },
                    ..Default::default()
                })
                .unwrap();
            let def = ShapeDef::default();
            match i % 3 {
                0 => {
                    w.create_box_shape(body, &def, Vec3::new(0.4, 0.3, 0.5))
                        .unwrap();
                }
                1 => {
                    let sphere = Sphere {
                        center: Vec3::ZERO,
                        radius: 0.45,
                    };
                    w.create_sphere_shape(body, &def, &sphere).unwrap();
                }
                _ => {
                    let capsule = Capsule {
                        center1: Vec3::new(0.0, -0.3, 0.0),
                        center2: Vec3::new(0.3, 0.3, 0.0),
                        radius: 0.25,
                    };
                    w.create_capsule_shape(body, &def, &capsule).unwrap();
                }
            }
        }
        w
    }

    /// Rays gathered in one region find what each ray's own descent of the trees finds:
    /// the same shape and the same hit bits, for short rays down, rays along the ground,
    /// rays starting in shapes and on box faces, and when the region holds more leaves
    /// than are kept (each ray then descends itself).
    #[test]
    fn rays_sharing_candidates_find_what_their_own_descents_find() {
        for count in [20, 60] {
            let w = strewn(count);
            let mut seed = 0x2545_f491_u32;
            let mut next = || {
                seed ^= seed << 13;
                seed ^= seed >> 17;
                seed ^= seed << 5;
                seed as f32 / u32::MAX as f32
            };
            let accepts_all = |_: u32| true;
            let accepts_some = |s: u32| s % 3 != 1;
            let (mut hits, mut incomplete) = (0, 0);
            for k in 0..600 {
                // Four rays near one another, as a vehicle's wheels cast.
                let base = DVec3::new(
                    (next() * 16.0 - 8.0) as f64,
                    (next() * 3.0) as f64,
                    (next() * 16.0 - 8.0) as f64,
                );
                let mut rays = [(DVec3::ZERO, Vec3::ZERO); 4];
                for r in &mut rays {
                    let origin = base
                        + DVec3::new(
                            (next() * 3.0 - 1.5) as f64,
                            (next() * 0.5) as f64,
                            (next() * 3.0 - 1.5) as f64,
                        );
                    let translation = match k % 3 {
                        0 => Vec3::new(0.0, -1.0 - next(), 0.0),
                        1 => Vec3::new(next() - 0.5, -next(), next() - 0.5) * 3.0,
                        _ => Vec3::new(2.0 * next() + 0.1, 0.0, 0.0),
                    };
                    *r = (origin, translation);
                }
                let mut region: Option<DAabb> = None;
                for &(o, t) in &rays {
                    let end = o + t.to_f64();
                    let ray = DAabb::new(o, o).union(&DAabb::new(end, end));
                    region = Some(region.map_or(ray, |r| r.union(&ray)));
                }
                let r = region.unwrap();
                let m = DVec3::new(RAY_REGION_MARGIN, RAY_REGION_MARGIN, RAY_REGION_MARGIN);
                // Now and then the whole world, past what the candidates keep.
                let region = if k % 10 == 0 {
                    let all = DVec3::new(50.0, 50.0, 50.0);
                    DAabb::new(-all, all)
                } else {
                    DAabb::new(r.lower - m, r.upper + m)
                };
                let candidates = w.ray_candidates(&region);
                incomplete += !candidates.complete as u32;
                for &(o, t) in &rays {
                    for accepts in [&accepts_all as &dyn Fn(u32) -> bool, &accepts_some] {
                        let own = w.ray_closest_where(o, t, &accepts);
                        let shared = w.ray_closest_among(&candidates, o, t, &accepts);
                        let bits = |h: Option<(u32, RayHit)>| {
                            h.map(|(s, h)| (s, h.fraction.to_bits(), h.point, h.normal))
                        };
                        assert_eq!(bits(own), bits(shared), "ray {k} from {o:?} along {t:?}");
                        hits += own.is_some() as u32;
                    }
                }
            }
            assert!(hits > 1000, "too few rays hit anything ({hits})");
            assert_eq!(incomplete > 0, count > RAY_CANDIDATES, "{incomplete}");
        }
    }
}
