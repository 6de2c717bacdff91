//! GJK distance between convex shapes given as point sets with a radius.
//!
//! A [`ShapeProxy`] is the convex hull of up to [`MAX_HULL_VERTICES`] points, grown by a
//! radius (Box2D's `b2ShapeProxy`): a sphere is one point, a capsule two, a hull its
//! vertices with radius 0. [`distance`] runs GJK on the cores (the point sets) and then
//! takes the radii off.
//!
//! The simplex sub-algorithm is Johnson's, written as Voronoi-region tests with
//! barycentric weights (Box2D's `b2SolveSimplex2/3` carried to 3D), and made to survive
//! degenerate simplices: a flat triangle falls back to its edges, a flat tetrahedron to
//! its faces, so coincident, collinear and coplanar points never divide by zero.
//! Termination: a repeated support point, no progress on the squared distance (the
//! previous, better simplex is kept), a relative gap below `GAP_TOLERANCE`, or
//! `MAX_ITERATIONS` support points.
//!
//! Everything runs in A's frame with B's points mapped into it (in `f32`), in a fixed
//! order, with ties to the lowest index; the simplex itself is solved in `f64` (see
//! `V64` for why), and the output goes back to the common frame through `xf_a`. No heap,
//! a few hundred bytes of stack.
//!
//! Accuracy, measured against brute-force feature distances in `f64` on random hulls
//! from 1 cm to 10 m across: within about 1e-5 of the `f32` input's own answer.

use crate::geometry::hull::{HullView, MAX_HULL_VERTICES};
use crate::geometry::{Capsule, Sphere};
use crate::math::{Transform, Vec3};

/// A convex shape for the distance and cast queries: the convex hull of `points`, grown
/// by `radius`. Points are in the shape's (body) frame.
///
/// Only the first `count` points are used; a `count` of 0 acts as the single point
/// `points[0]` and one above [`MAX_HULL_VERTICES`] as [`MAX_HULL_VERTICES`], so no count
/// can index out of bounds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ShapeProxy {
    /// The core's points; only the first `count` are used.
    pub points: [Vec3; MAX_HULL_VERTICES],
    /// How many points are used.
    pub count: u32,
    /// The rounding radius around the core.
    pub radius: f32,
}

impl Default for ShapeProxy {
    /// A single point at the origin, no radius.
    fn default() -> ShapeProxy {
        ShapeProxy {
            points: [Vec3::ZERO; MAX_HULL_VERTICES],
            count: 1,
            radius: 0.0,
        }
    }
}

impl ShapeProxy {
    /// The hull of the first [`MAX_HULL_VERTICES`] of `points`, grown by `radius`.
    pub fn from_points(points: &[Vec3], radius: f32) -> ShapeProxy {
        let mut proxy = ShapeProxy {
            radius,
            count: 0,
            ..ShapeProxy::default()
        };
        for (dst, src) in proxy.points.iter_mut().zip(points.iter()) {
            *dst = *src;
            proxy.count += 1;
        }
        proxy
    }

    /// A sphere: its centre, grown by its radius.
    pub fn sphere(s: &Sphere) -> ShapeProxy {
        ShapeProxy::from_points(&[s.center], s.radius)
    }

    /// A capsule: its segment's two ends, grown by its radius.
    pub fn capsule(c: &Capsule) -> ShapeProxy {
        ShapeProxy::from_points(&[c.center1, c.center2], c.radius)
    }

    /// A convex hull (a box's [`BoxHull::view`](crate::geometry::hull::BoxHull::view)
    /// included): its vertices, no radius.
    pub fn hull(h: &HullView) -> ShapeProxy {
        ShapeProxy::from_points(h.vertices, 0.0)
    }

    /// The points in use: at least one, at most [`MAX_HULL_VERTICES`].
    #[inline]
    pub(crate) fn used(&self) -> &[Vec3] {
        let n = self.count as usize;
        let n = if n == 0 {
            1
        } else if n > MAX_HULL_VERTICES {
            MAX_HULL_VERTICES
        } else {
            n
        };
        &self.points[..n]
    }

    /// Index of the point furthest along `d`; ties go to the lowest index.
    #[inline]
    pub(crate) fn support(&self, d: Vec3) -> usize {
        let pts = self.used();
        let mut best = 0;
        let mut best_value = pts[0].dot(d);
        for (i, p) in pts.iter().enumerate().skip(1) {
            let value = p.dot(d);
            if value > best_value {
                best = i;
                best_value = value;
            }
        }
        best
    }

    /// The mean of the points in use.
    #[inline]
    pub(crate) fn center(&self) -> Vec3 {
        let pts = self.used();
        let mut sum = Vec3::ZERO;
        for &p in pts {
            sum += p;
        }
        sum * (1.0 / pts.len() as f32)
    }
}

/// The result of [`distance`].
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct DistanceOutput {
    /// Closest point on A's rounded surface, in the common frame.
    pub point_a: Vec3,
    /// Closest point on B's rounded surface, in the common frame.
    pub point_b: Vec3,
    /// Unit normal from A to B, in the common frame.
    pub normal: Vec3,
    /// Distance between the rounded surfaces; at or below 0 they overlap. When the cores
    /// themselves overlap GJK has no depth to give: the distance is then `-(ra + rb)`
    /// (continuous with cores just apart), both points are the same point in the
    /// overlap, and the normal is the best direction at hand (the last search direction,
    /// else from A's points' centre to B's, else +x).
    pub distance: f32,
    /// Support points GJK took.
    pub iterations: u32,
}

/// Most support points one query takes.
const MAX_ITERATIONS: u32 = 32;

/// Stop once the gap between the upper bound `|v|` and the lower bound `v·w / |v|` is
/// below this fraction of `|v|`: the distance is then exact to that relative amount,
/// far below what the `f32` output holds.
const GAP_TOLERANCE: f64 = 1.0e-9;

/// Below this squared length (`f32::EPSILON` squared, as Box2D) the closest point is the
/// origin: the cores touch or overlap, and the direction is below `f32` resolution.
const TOUCH_SQ: f64 = (f32::EPSILON as f64) * (f32::EPSILON as f64);

/// A 3-vector of `f64` for the simplex solver.
///
/// The Minkowski points are differences of `f32` points (exact in `f64`), but they lie
/// as far from the origin as the shapes are large while the distance sought may be a
/// hundred-thousandth of that. In `f32` the closest point of an edge or face 10 m out is
/// rounded by about a micrometre, which at a distance of 0.1 mm turns its direction by
/// 1e-2 radians: the next support point is then the wrong one and GJK stops a few tenths
/// of a millimetre short (measured on random hulls). In `f64` the same rounding is 1e-16
/// and the query is as exact as its `f32` input. Every operation is still a fixed
/// sequence of IEEE `+ - * /`, so the bits are the same on every target.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct V64 {
    x: f64,
    y: f64,
    z: f64,
}

impl V64 {
    const ZERO: V64 = V64 {
        x: 0.0,
        y: 0.0,
        z: 0.0,
    };

    #[inline(always)]
    fn dot(self, b: V64) -> f64 {
        self.x * b.x + self.y * b.y + self.z * b.z
    }

    #[inline(always)]
    fn cross(self, b: V64) -> V64 {
        V64 {
            x: self.y * b.z - self.z * b.y,
            y: self.z * b.x - self.x * b.z,
            z: self.x * b.y - self.y * b.x,
        }
    }

    #[inline(always)]
    fn length_squared(self) -> f64 {
        self.dot(self)
    }

    /// `self + s * b`, rounded twice.
    #[inline(always)]
    fn mul_add(self, s: f64, b: V64) -> V64 {
        V64 {
            x: self.x + s * b.x,
            y: self.y + s * b.y,
            z: self.z + s * b.z,
        }
    }

    /// Rounded to `f32`.
    #[inline(always)]
    fn to_f32(self) -> Vec3 {
        Vec3::new(self.x as f32, self.y as f32, self.z as f32)
    }
}

impl From<Vec3> for V64 {
    #[inline(always)]
    fn from(v: Vec3) -> V64 {
        V64 {
            x: v.x as f64,
            y: v.y as f64,
            z: v.z as f64,
        }
    }
}

impl core::ops::Add for V64 {
    type Output = V64;
    #[inline(always)]
    fn add(self, b: V64) -> V64 {
        V64 {
            x: self.x + b.x,
            y: self.y + b.y,
            z: self.z + b.z,
        }
    }
}

impl core::ops::Sub for V64 {
    type Output = V64;
    #[inline(always)]
    fn sub(self, b: V64) -> V64 {
        V64 {
            x: self.x - b.x,
            y: self.y - b.y,
            z: self.z - b.z,
        }
    }
}

impl core::ops::Neg for V64 {
    type Output = V64;
    #[inline(always)]
    fn neg(self) -> V64 {
        V64 {
            x: -self.x,
            y: -self.y,
            z: -self.z,
        }
    }
}

impl core::ops::Mul<f64> for V64 {
    type Output = V64;
    #[inline(always)]
    fn mul(self, s: f64) -> V64 {
        V64 {
            x: self.x * s,
            y: self.y * s,
            z: self.z * s,
        }
    }
}

/// A triangle whose squared normal is below this fraction of the product of its two
/// shorter edges squared (the sine of its largest angle below 1e-9) is flat: its area
/// weights are noise.
const FLAT_TRIANGLE: f64 = 1.0e-18;

/// A tetrahedron with a vertex within this squared sine (1e-9) of the plane of the
/// opposite face is flat: which side of its faces the origin lies on is noise.
const FLAT_TETRAHEDRON: f64 = 1.0e-18;

/// A vertex of the simplex: a point of each core (both in A's frame) and their
/// difference, a point of the Minkowski difference B − A.
#[derive(Clone, Copy, Debug, Default)]
struct SimplexVertex {
    wa: Vec3,
    wb: Vec3,
    w: V64,
    index_a: u8,
    index_b: u8,
}

/// Up to four vertices and the barycentric weights of the closest point.
#[derive(Clone, Copy, Debug, Default)]
struct Simplex {
    v: [SimplexVertex; 4],
    weight: [f64; 4],
    count: usize,
}

/// A simplex by its vertices' point indices and its weights.
#[derive(Clone, Copy)]
struct BestSimplex {
    index: [(u8, u8); 4],
    weight: [f64; 4],
    count: usize,
}

impl BestSimplex {
    #[inline(always)]
    fn of(s: &Simplex) -> BestSimplex {
        let mut index = [(0, 0); 4];
        for (i, v) in index.iter_mut().zip(&s.v[..s.count]) {
            *i = (v.index_a, v.index_b);
        }
        BestSimplex {
            index,
            weight: s.weight,
            count: s.count,
        }
    }

    /// The simplex again, each vertex made by `pair.vertex` from its indices (as it was).
    fn simplex(&self, pair: &Pair) -> Simplex {
        let mut s = Simplex {
            weight: self.weight,
            count: self.count,
            ..Simplex::default()
        };
        for (v, &(ia, ib)) in s.v.iter_mut().zip(&self.index[..self.count]) {
            *v = pair.vertex(usize::from(ia), usize::from(ib));
        }
        s
    }
}

/// The vertex indices (into a simplex) that support the closest point, their weights,
/// and the closest point itself.
#[derive(Clone, Copy, Debug, Default)]
struct Reduced {
    index: [usize; 4],
    weight: [f64; 4],
    count: usize,
    /// The closest point. Not always the weighted sum of the vertices: on a face it is
    /// the origin projected onto the face's plane, whose direction stays exact when the
    /// vertices lie far from the origin compared with the distance (a weighted sum of
    /// points 10 m out, rounded, points anywhere within a micrometre of the answer).
    point: V64,
}

impl Reduced {
    #[inline]
    fn one(w: &[V64; 4], i: usize) -> Reduced {
        Reduced {
            index: [i, 0, 0, 0],
            weight: [1.0, 0.0, 0.0, 0.0],
            count: 1,
            point: w[i],
        }
    }

    /// An edge with weights `wi`, `wj` (summing to 1). The point is measured from the
    /// end nearer the origin, whose coordinates carry the smaller rounding.
    #[inline]
    fn two(w: &[V64; 4], i: usize, j: usize, wi: f64, wj: f64) -> Reduced {
        let point = if w[i].length_squared() <= w[j].length_squared() {
            w[i].mul_add(wj, w[j] - w[i])
        } else {
            w[j].mul_add(wi, w[i] - w[j])
        };
        Reduced {
            index: [i, j, 0, 0],
            weight: [wi, wj, 0.0, 0.0],
            count: 2,
            point,
        }
    }
}

/// The closest point of segment `w[i]`–`w[j]` to the origin.
fn solve_segment(w: &[V64; 4], i: usize, j: usize) -> Reduced {
    let e = w[j] - w[i];
    // Weights of i and j before normalising; both positive inside the segment.
    let di = w[j].dot(e);
    let dj = -w[i].dot(e);
    if dj <= 0.0 {
        return Reduced::one(w, i);
    }
    if di <= 0.0 {
        return Reduced::one(w, j);
    }
    let inv = 1.0 / (di + dj);
    Reduced::two(w, i, j, di * inv, dj * inv)
}

/// The closest of the three edges of a triangle: for flat triangles, whose area weights
/// cannot be trusted. Ties go to the first edge.
fn solve_triangle_edges(w: &[V64; 4], i: usize, j: usize, k: usize) -> Reduced {
    let mut best = solve_segment(w, i, j);
    let mut best_sq = best.point.length_squared();
    for (a, b) in [(i, k), (j, k)] {
        let r = solve_segment(w, a, b);
        let sq = r.point.length_squared();
        if sq < best_sq {
            best = r;
            best_sq = sq;
        }
    }
    best
}

/// The normal `(w2 − w1) × (w3 − w1)` of a triangle, taken as the cross product of the
/// two shorter edges (at the corner opposite the longest), which rounds least for
/// slivers, with the squared lengths of those two edges.
#[inline]
fn stable_normal(w1: V64, w2: V64, w3: V64) -> (V64, f64, f64) {
    let e12 = w2 - w1;
    let e13 = w3 - w1;
    let e23 = w3 - w2;
    let (l12, l13, l23) = (
        e12.length_squared(),
        e13.length_squared(),
        e23.length_squared(),
    );
    // e12 × e13 = e12 × e23 = e13 × e23.
    if l23 >= l12 && l23 >= l13 {
        (e12.cross(e13), l12, l13)
    } else if l13 >= l12 {
        (e12.cross(e23), l12, l23)
    } else {
        (e13.cross(e23), l13, l23)
    }
}

/// Of `candidates`, the one nearest `target`; ties to the first.
#[inline]
fn nearest_of(candidates: [V64; 3], target: V64) -> V64 {
    let mut best = candidates[0];
    let mut best_sq = (best - target).length_squared();
    for &c in &candidates[1..] {
        let sq = (c - target).length_squared();
        if sq < best_sq {
            best = c;
            best_sq = sq;
        }
    }
    best
}

/// The closest point of triangle `w[i]`, `w[j]`, `w[k]` to the origin.
fn solve_triangle(w: &[V64; 4], i: usize, j: usize, k: usize) -> Reduced {
    let (w1, w2, w3) = (w[i], w[j], w[k]);
    let e12 = w2 - w1;
    let e13 = w3 - w1;
    let e23 = w3 - w2;
    let (n, short1, short2) = stable_normal(w1, w2, w3);
    let nn = n.length_squared();
    if nn <= FLAT_TRIANGLE * short1 * short2 {
        return solve_triangle_edges(w, i, j, k);
    }

    let d12_1 = w2.dot(e12);
    let d12_2 = -w1.dot(e12);
    let d13_1 = w3.dot(e13);
    let d13_2 = -w1.dot(e13);
    let d23_1 = w3.dot(e23);
    let d23_2 = -w2.dot(e23);
    // Signed areas (times |n|) of the triangles the origin's projection makes with each
    // edge: the face weights, and which side of each edge the projection lies on.
    let d123_1 = n.dot(w2.cross(w3));
    let d123_2 = n.dot(w3.cross(w1));
    let d123_3 = n.dot(w1.cross(w2));

    if d12_2 <= 0.0 && d13_2 <= 0.0 {
        return Reduced::one(w, i);
    }
    if d12_1 > 0.0 && d12_2 > 0.0 && d123_3 <= 0.0 {
        let inv = 1.0 / (d12_1 + d12_2);
        return Reduced::two(w, i, j, d12_1 * inv, d12_2 * inv);
    }
    if d13_1 > 0.0 && d13_2 > 0.0 && d123_2 <= 0.0 {
        let inv = 1.0 / (d13_1 + d13_2);
        return Reduced::two(w, i, k, d13_1 * inv, d13_2 * inv);
    }
    if d12_1 <= 0.0 && d23_2 <= 0.0 {
        return Reduced::one(w, j);
    }
    if d13_1 <= 0.0 && d23_1 <= 0.0 {
        return Reduced::one(w, k);
    }
    if d23_1 > 0.0 && d23_2 > 0.0 && d123_1 <= 0.0 {
        let inv = 1.0 / (d23_1 + d23_2);
        return Reduced::two(w, j, k, d23_1 * inv, d23_2 * inv);
    }
    // The face. In exact arithmetic every weight is positive here; rounding that says
    // otherwise means the origin sits on an edge, which the edges answer as well.
    let sum = d123_1 + d123_2 + d123_3;
    if !(d123_1 >= 0.0 && d123_2 >= 0.0 && d123_3 >= 0.0 && sum > 0.0) {
        return solve_triangle_edges(w, i, j, k);
    }
    let inv = 1.0 / sum;
    // The origin projected onto the plane, measured from the vertex nearest the origin.
    let nearest = nearest_of([w1, w2, w3], V64::ZERO);
    Reduced {
        index: [i, j, k, 0],
        weight: [d123_1 * inv, d123_2 * inv, d123_3 * inv, 0.0],
        count: 3,
        point: n * (n.dot(nearest) / nn),
    }
}

/// The faces of a tetrahedron and the vertex opposite each, faces in increasing index
/// order so ties between them go to the lower indices.
const TETRA_FACES: [(usize, usize, usize, usize); 4] =
    [(0, 1, 2, 3), (0, 1, 3, 2), (0, 2, 3, 1), (1, 2, 3, 0)];

/// The closest point of tetrahedron `w[0..4]` to the origin: all four vertices when it
/// holds the origin, else the nearest face the origin lies outside of.
fn solve_tetrahedron(w: &[V64; 4]) -> Reduced {
    // Per face: which side of it the origin and the opposite vertex lie on. Each side is
    // measured from the face vertex nearest to what is measured, along a normal from the
    // face's two shorter edges, so a sliver (three close points and a far one) keeps its
    // signs. A face the opposite vertex lies within a sine of 1e-5 of makes the whole
    // tetrahedron flat: its sides are noise, and only its faces are tried.
    let mut origin_side = [0.0f64; 4];
    let mut vertex_side = [0.0f64; 4];
    let mut flat = false;
    for (f, &(i, j, k, opposite)) in TETRA_FACES.iter().enumerate() {
        let face = [w[i], w[j], w[k]];
        let (n, _, _) = stable_normal(w[i], w[j], w[k]);
        let e = w[opposite] - nearest_of(face, w[opposite]);
        vertex_side[f] = e.dot(n);
        origin_side[f] = -nearest_of(face, V64::ZERO).dot(n);
        if vertex_side[f] * vertex_side[f]
            <= FLAT_TETRAHEDRON * n.length_squared() * e.length_squared()
        {
            flat = true;
        }
    }

    let mut best = Reduced::default();
    let mut best_sq = f64::MAX;
    // The barycentric weights of the origin, while it lies inside every face.
    let mut weight = [0.0f64; 4];
    let mut inside = !flat;
    for (f, &(i, j, k, opposite)) in TETRA_FACES.iter().enumerate() {
        let (os, vs) = (origin_side[f], vertex_side[f]);
        let outside = flat || (os < 0.0 && vs > 0.0) || (os > 0.0 && vs < 0.0);
        if outside {
            inside = false;
            let r = solve_triangle(w, i, j, k);
            let sq = r.point.length_squared();
            if sq < best_sq {
                best = r;
                best_sq = sq;
            }
        } else if inside {
            // Not flat, so vs is far from zero: the volume of the tetrahedron with the
            // opposite vertex moved to the origin, over the whole.
            weight[opposite] = os / vs;
        }
    }
    if inside {
        let sum = weight[0] + weight[1] + weight[2] + weight[3];
        let inv = if sum > 0.0 { 1.0 / sum } else { 0.25 };
        return Reduced {
            index: [0, 1, 2, 3],
            weight: [
                weight[0] * inv,
                weight[1] * inv,
                weight[2] * inv,
                weight[3] * inv,
            ],
            count: 4,
            point: V64::ZERO,
        };
    }
    if best.count == 0 {
        // Only NaN from an overflowing input gets here: keep the first vertex.
        return Reduced::one(w, 0);
    }
    best
}

impl Simplex {
    /// Moves the simplex to the sub-simplex that supports the closest point to the
    /// origin and returns that point.
    fn solve(&mut self) -> V64 {
        let mut w = [V64::ZERO; 4];
        for (dst, src) in w.iter_mut().zip(self.v.iter()).take(self.count) {
            *dst = src.w;
        }
        let r = match self.count {
            0 | 1 => Reduced::one(&w, 0),
            2 => solve_segment(&w, 0, 1),
            3 => solve_triangle(&w, 0, 1, 2),
            _ => solve_tetrahedron(&w),
        };
        let old = self.v;
        for k in 0..r.count {
            self.v[k] = old[r.index[k]];
            self.weight[k] = r.weight[k];
        }
        self.count = r.count;
        r.point
    }

    /// The closest points of the two cores, in A's frame.
    fn witness_points(&self) -> (V64, V64) {
        let mut pa = V64::ZERO;
        let mut pb = V64::ZERO;
        for k in 0..self.count {
            pa = pa.mul_add(self.weight[k], V64::from(self.v[k].wa));
            pb = pb.mul_add(self.weight[k], V64::from(self.v[k].wb));
        }
        (pa, pb)
    }
}

/// The support points a query ended on, to start the next query on the same pair from
/// (conservative advancement calls distance over and over on nearly the same poses).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct SimplexCache {
    /// 0 for an empty cache.
    pub count: u8,
    /// Point indices on A.
    pub index_a: [u8; 4],
    /// Point indices on B.
    pub index_b: [u8; 4],
}

/// The pair's core geometry in A's frame: B's points go through `xf` on demand.
struct Pair<'a> {
    a: &'a ShapeProxy,
    b: &'a ShapeProxy,
    /// B's frame in A's frame.
    xf: Transform,
}

impl Pair<'_> {
    #[inline]
    fn vertex(&self, index_a: usize, index_b: usize) -> SimplexVertex {
        let wa = self.a.used()[index_a];
        let wb = self.xf.apply(self.b.used()[index_b]);
        SimplexVertex {
            wa,
            wb,
            w: V64::from(wb) - V64::from(wa),
            index_a: index_a as u8,
            index_b: index_b as u8,
        }
    }

    /// The vertex of B − A furthest along `d`: A's point furthest along −d, B's along d.
    #[inline]
    fn support(&self, d: Vec3) -> SimplexVertex {
        let index_a = self.a.support(-d);
        let index_b = self.b.support(self.xf.q.inv_rotate(d));
        self.vertex(index_a, index_b)
    }
}

/// What the GJK loop ends with, in A's frame.
pub(crate) struct CoreDistance {
    /// Closest point of A's core.
    pub point_a: Vec3,
    /// Closest point of B's core.
    pub point_b: Vec3,
    /// Unit normal from A to B (best available when the cores overlap).
    pub normal: Vec3,
    /// Distance between the cores, 0 when they touch or overlap.
    pub distance: f32,
    /// Support points taken.
    pub iterations: u32,
}

/// GJK between the cores of `a` and `b` (radii ignored), in A's frame, starting from
/// `cache` and leaving the final simplex in it. Stops early, with an upper bound for the
/// distance, once the cores are proven further apart than `early_out`.
pub(crate) fn core_distance(
    a: &ShapeProxy,
    b: &ShapeProxy,
    xf: &Transform,
    cache: &mut SimplexCache,
    early_out: f32,
) -> CoreDistance {
    let pair = Pair { a, b, xf: *xf };
    let (na, nb) = (a.used().len(), b.used().len());

    let mut simplex = Simplex::default();
    let cached = (cache.count as usize).min(4);
    for k in 0..cached {
        let (ia, ib) = (cache.index_a[k] as usize, cache.index_b[k] as usize);
        if ia < na && ib < nb {
            simplex.v[simplex.count] = pair.vertex(ia, ib);
            simplex.count += 1;
        }
    }
    if simplex.count == 0 {
        simplex.v[0] = pair.vertex(0, 0);
        simplex.count = 1;
    }
    // Weights for the unsolved start, kept only if the first solve fails (NaN).
    simplex.weight[0] = 1.0;

    let mut iterations = 0u32;
    // The best simplex so far, kept by its vertices' indices and its weights (a copy of
    // the whole simplex, a few hundred bytes, every iteration cost more than the rare
    // restore, which makes each vertex again from its indices: the same bits).
    let mut best = BestSimplex::of(&simplex);
    let mut best_sq = f64::MAX;
    // The closest point of the best simplex while it was not noise: the normal, and for
    // overlapping cores the best direction at hand.
    let mut last_direction = V64::ZERO;
    let mut touching = false;
    let early_out_sq = (early_out as f64) * (early_out as f64);
    loop {
        // The vertices before solving, by index only (a copy of the whole simplex costs a
        // few hundred bytes every iteration).
        let saved_count = simplex.count;
        let mut saved = [(0u8, 0u8); 4];
        for (k, v) in simplex.v[..saved_count].iter().enumerate() {
            saved[k] = (v.index_a, v.index_b);
        }
        let v = simplex.solve();
        if simplex.count == 4 {
            touching = true;
            break;
        }
        let vv = v.length_squared();
        if vv >= best_sq || vv.is_nan() {
            // No progress: the previous simplex was at least as close.
            simplex = best.simplex(&pair);
            break;
        }
        best = BestSimplex::of(&simplex);
        best_sq = vv;
        if vv < TOUCH_SQ {
            touching = true;
            break;
        }
        last_direction = v;
        if iterations == MAX_ITERATIONS {
            break;
        }
        let vertex = pair.support((-v).to_f32());
        iterations += 1;
        let vw = v.dot(vertex.w);
        // Proven apart beyond the early-out distance: v·w / |v| is a lower bound.
        if vw > 0.0 && vw * vw > early_out_sq * vv {
            break;
        }
        // A support point already in the simplex: no further progress is possible.
        let repeated = saved[..saved_count]
            .iter()
            .any(|&(ia, ib)| ia == vertex.index_a && ib == vertex.index_b);
        if repeated || vv - vw <= GAP_TOLERANCE * vv {
            break;
        }
        simplex.v[simplex.count] = vertex;
        simplex.count += 1;
    }

    cache.count = simplex.count as u8;
    for k in 0..simplex.count {
        cache.index_a[k] = simplex.v[k].index_a;
        cache.index_b[k] = simplex.v[k].index_b;
    }

    let (pa, pb) = simplex.witness_points();
    let mid = (pa + pb) * 0.5;
    if touching {
        let mut normal = last_direction.to_f32().normalize();
        if normal == Vec3::ZERO {
            normal = (xf.apply(b.center()) - a.center()).normalize();
        }
        if normal == Vec3::ZERO {
            normal = Vec3::X;
        }
        let mid = mid.to_f32();
        return CoreDistance {
            point_a: mid,
            point_b: mid,
            normal,
            distance: 0.0,
            iterations,
        };
    }
    // The distance and normal come from the solver's closest point, exact in direction
    // (see `Reduced::point`); the weighted witness points fix only where the pair sits,
    // so they are centred on their midpoint and spread by the closest point.
    let v = last_direction;
    let length = v.length_squared().sqrt();
    let normal = if length > 0.0 {
        (v * (1.0 / length)).to_f32()
    } else {
        Vec3::X
    };
    CoreDistance {
        point_a: mid.mul_add(-0.5, v).to_f32(),
        point_b: mid.mul_add(0.5, v).to_f32(),
        normal,
        distance: length as f32,
        iterations,
    }
}

/// The rounded-surface result in the common frame from a core result in A's frame.
pub(crate) fn finish(
    core: &CoreDistance,
    xf_a: &Transform,
    radius_a: f32,
    radius_b: f32,
) -> DistanceOutput {
    let n = core.normal;
    let (pa, pb) = if core.distance > 0.0 {
        // Keep the points on the rounded surfaces even when those overlap, so they
        // move smoothly (as Box2D).
        (
            core.point_a.mul_add(radius_a, n),
            core.point_b.mul_sub(radius_b, n),
        )
    } else {
        (core.point_a, core.point_b)
    };
    let out = DistanceOutput {
        point_a: xf_a.apply(pa),
        point_b: xf_a.apply(pb),
        normal: xf_a.q.rotate(n),
        distance: core.distance - radius_a - radius_b,
        iterations: core.iterations,
    };
    if out.point_a.is_valid()
        && out.point_b.is_valid()
        && out.normal.is_valid()
        && out.distance.is_finite()
    {
        out
    } else {
        // Input so large that the arithmetic overflowed: report touching at A's origin
        // rather than NaN, so callers treat the pair as in contact.
        DistanceOutput {
            point_a: xf_a.p,
            point_b: xf_a.p,
            normal: Vec3::X,
            distance: 0.0,
            iterations: core.iterations,
        }
    }
}

/// The distance between the rounded surfaces of `a` placed by `xf_a` and `b` placed by
/// `xf_b`, with the closest points and the normal from A to B.
///
/// ```
/// use maul3d::collide::distance::{ShapeProxy, distance};
/// use maul3d::geometry::{Sphere, hull::BoxHull};
/// use maul3d::math::{Quat, Transform, Vec3};
///
/// let cube = BoxHull::new(Vec3::new(1.0, 1.0, 1.0), Vec3::ZERO, Quat::IDENTITY);
/// let ball = Sphere { center: Vec3::ZERO, radius: 0.5 };
/// let out = distance(
///     &ShapeProxy::hull(&cube.view()),
///     &Transform::IDENTITY,
///     &ShapeProxy::sphere(&ball),
///     &Transform::new(Vec3::new(0.0, 3.0, 0.0), Quat::IDENTITY),
/// );
/// assert_eq!(out.distance, 1.5);
/// assert_eq!(out.normal, Vec3::Y);
/// assert_eq!(out.point_b, Vec3::new(0.0, 2.5, 0.0));
/// ```
pub fn distance(
    a: &ShapeProxy,
    xf_a: &Transform,
    b: &ShapeProxy,
    xf_b: &Transform,
) -> DistanceOutput {
    let mut cache = SimplexCache::default();
    let core = core_distance(a, b, &xf_a.inv_mul(xf_b), &mut cache, f32::MAX);
    finish(&core, xf_a, a.radius, b.radius)
}

/// Whether the rounded shapes overlap or touch (their [`distance`] is at or below 0).
/// Stops as soon as a support point proves them apart.
pub fn overlaps(a: &ShapeProxy, xf_a: &Transform, b: &ShapeProxy, xf_b: &Transform) -> bool {
    let mut cache = SimplexCache::default();
    let radius = a.radius + b.radius;
    let core = core_distance(a, b, &xf_a.inv_mul(xf_b), &mut cache, radius);
    core.distance - radius <= 0.0
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::collide::test_hulls::TestHull;
    use crate::geometry::hull::{BoxHull, Hull};
    use crate::geometry::quickhull::build_hull;
    use crate::math::{Quat, max_f64, min_f64};

    /// A fixed linear congruential sequence in [-1, 1): the same numbers on every target.
    pub(crate) struct Lcg(pub u64);

    impl Lcg {
        pub fn next(&mut self) -> f32 {
            self.0 = self
                .0
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            ((self.0 >> 40) as f32 / (1u64 << 24) as f32) * 2.0 - 1.0
        }

        pub fn vec(&mut self, scale: f32) -> Vec3 {
            Vec3::new(self.next(), self.next(), self.next()) * scale
        }

        pub fn unit(&mut self) -> Vec3 {
            loop {
                let v = self.vec(1.0);
                let l = v.length();
                if l > 0.1 && l < 1.0 {
                    return v * (1.0 / l);
                }
            }
        }

        pub fn rotation(&mut self) -> Quat {
            Quat::new(self.next(), self.next(), self.next(), self.next()).normalize()
        }

        pub fn pose(&mut self, scale: f32) -> Transform {
            let q = self.rotation();
            Transform::new(self.vec(scale), q)
        }
    }

    /// Double-precision geometry for the brute-force references.
    pub(crate) type D = [f64; 3];

    pub(crate) fn d(v: Vec3) -> D {
        [v.x as f64, v.y as f64, v.z as f64]
    }
    fn sub(a: D, b: D) -> D {
        [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
    }
    fn add(a: D, b: D) -> D {
        [a[0] + b[0], a[1] + b[1], a[2] + b[2]]
    }
    fn scale(a: D, s: f64) -> D {
        [a[0] * s, a[1] * s, a[2] * s]
    }
    fn dot(a: D, b: D) -> f64 {
        a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
    }
    fn cross(a: D, b: D) -> D {
        [
            a[1] * b[2] - a[2] * b[1],
            a[2] * b[0] - a[0] * b[2],
            a[0] * b[1] - a[1] * b[0],
        ]
    }
    fn len(a: D) -> f64 {
        dot(a, a).sqrt()
    }
    fn clamp01(x: f64) -> f64 {
        max_f64(0.0, min_f64(x, 1.0))
    }

    /// Distance from `p` to segment `a`–`b`.
    fn point_segment(p: D, a: D, b: D) -> f64 {
        let e = sub(b, a);
        let ee = dot(e, e);
        let t = if ee > 0.0 {
            clamp01(dot(sub(p, a), e) / ee)
        } else {
            0.0
        };
        len(sub(p, add(a, scale(e, t))))
    }

    /// Distance between segments (Ericson 5.1.9 in f64).
    pub(crate) fn segment_segment(p1: D, q1: D, p2: D, q2: D) -> f64 {
        let d1 = sub(q1, p1);
        let d2 = sub(q2, p2);
        let r = sub(p1, p2);
        let (a, e, f) = (dot(d1, d1), dot(d2, d2), dot(d2, r));
        let (s, t);
        if a <= 1e-30 && e <= 1e-30 {
            return len(r);
        }
        if a <= 1e-30 {
            s = 0.0;
            t = clamp01(f / e);
        } else {
            let c = dot(d1, r);
            if e <= 1e-30 {
                t = 0.0;
                s = clamp01(-c / a);
            } else {
                let b = dot(d1, d2);
                let denom = a * e - b * b;
                let mut ss = if denom > 1e-18 * a * e {
                    clamp01((b * f - c * e) / denom)
                } else {
                    0.0
                };
                let mut tt = (b * ss + f) / e;
                if tt < 0.0 {
                    tt = 0.0;
                    ss = clamp01(-c / a);
                } else if tt > 1.0 {
                    tt = 1.0;
                    ss = clamp01((b - c) / a);
                }
                s = ss;
                t = tt;
            }
        }
        len(sub(add(p1, scale(d1, s)), add(p2, scale(d2, t))))
    }

    /// Distance from `p` to triangle `a`, `b`, `c` (Ericson 5.1.5 in f64).
    fn point_triangle(p: D, a: D, b: D, c: D) -> f64 {
        let ab = sub(b, a);
        let ac = sub(c, a);
        let n = cross(ab, ac);
        let nn = dot(n, n);
        if nn <= 1e-24 * dot(ab, ab) * dot(ac, ac) {
            let x = point_segment(p, a, b);
            let y = point_segment(p, a, c);
            let z = point_segment(p, b, c);
            return min_f64(min_f64(x, y), z);
        }
        // Inside the prism over the triangle: the plane distance.
        let ap = sub(p, a);
        let u = dot(cross(ap, ac), n) / nn;
        let v = dot(cross(ab, ap), n) / nn;
        if u >= 0.0 && v >= 0.0 && u + v <= 1.0 {
            return dot(ap, n).abs() / nn.sqrt();
        }
        let x = point_segment(p, a, b);
        let y = point_segment(p, a, c);
        let z = point_segment(p, b, c);
        min_f64(min_f64(x, y), z)
    }

    /// A shape's features in the common frame, in f64: vertices, edges, triangles.
    #[derive(Default)]
    pub(crate) struct Features {
        pub vertices: Vec<D>,
        pub edges: Vec<(D, D)>,
        pub triangles: Vec<(D, D, D)>,
        /// Face planes (unit normal, offset), for the separating-axis reference.
        pub planes: Vec<(D, f64)>,
        pub radius: f64,
    }

    pub(crate) fn hull_features(h: &HullView, xf: &Transform) -> Features {
        let mut f = Features::default();
        let p = |v: Vec3| d(xf.apply(v));
        for &v in h.vertices {
            f.vertices.push(p(v));
        }
        for e in (0..h.edges.len()).step_by(2) {
            let a = h.vertices[h.edges[e].origin as usize];
            let b = h.vertices[h.edges[e ^ 1].origin as usize];
            f.edges.push((p(a), p(b)));
        }
        for (fi, &start) in h.face_edges.iter().enumerate() {
            let first = h.vertices[h.edges[start as usize].origin as usize];
            let mut e = h.edges[start as usize].next as usize;
            loop {
                let next = h.edges[e].next as usize;
                if next == start as usize {
                    break;
                }
                let b = h.vertices[h.edges[e].origin as usize];
                let c = h.vertices[h.edges[next].origin as usize];
                f.triangles.push((p(first), p(b), p(c)));
                e = next;
            }
            let n = d(xf.q.rotate(h.planes[fi].normal));
            let n = scale(n, 1.0 / len(n));
            f.planes.push((n, dot(n, p(first))));
        }
        f
    }

    pub(crate) fn sphere_features(s: &Sphere, xf: &Transform) -> Features {
        Features {
            vertices: vec![d(xf.apply(s.center))],
            radius: s.radius as f64,
            ..Features::default()
        }
    }

    pub(crate) fn capsule_features(c: &Capsule, xf: &Transform) -> Features {
        let (a, b) = (d(xf.apply(c.center1)), d(xf.apply(c.center2)));
        Features {
            vertices: vec![a, b],
            edges: vec![(a, b)],
            radius: c.radius as f64,
            ..Features::default()
        }
    }

    /// The distance between the cores as the smallest distance between features, minus
    /// the radii. Exact for separated cores.
    pub(crate) fn brute_distance(a: &Features, b: &Features) -> f64 {
        let mut best = f64::MAX;
        for &p in &a.vertices {
            for &q in &b.vertices {
                best = min_f64(best, len(sub(p, q)));
            }
            for &(q0, q1) in &b.edges {
                best = min_f64(best, point_segment(p, q0, q1));
            }
            for &(q0, q1, q2) in &b.triangles {
                best = min_f64(best, point_triangle(p, q0, q1, q2));
            }
        }
        for &(p0, p1) in &a.edges {
            for &q in &b.vertices {
                best = min_f64(best, point_segment(q, p0, p1));
            }
            for &(q0, q1) in &b.edges {
                best = min_f64(best, segment_segment(p0, p1, q0, q1));
            }
        }
        for &(p0, p1, p2) in &a.triangles {
            for &q in &b.vertices {
                best = min_f64(best, point_triangle(q, p0, p1, p2));
            }
        }
        best - a.radius - b.radius
    }

    /// Whether two hulls overlap by the separating-axis test in f64: face normals of both
    /// and every edge pair's cross product.
    pub(crate) fn sat_overlap(a: &Features, b: &Features) -> bool {
        let project = |f: &Features, n: D| {
            let mut lo = f64::MAX;
            let mut hi = f64::MIN;
            for &v in &f.vertices {
                let x = dot(v, n);
                lo = min_f64(lo, x);
                hi = max_f64(hi, x);
            }
            (lo, hi)
        };
        let mut axes: Vec<D> = a
            .planes
            .iter()
            .chain(b.planes.iter())
            .map(|p| p.0)
            .collect();
        for &(p0, p1) in &a.edges {
            for &(q0, q1) in &b.edges {
                let c = cross(sub(p1, p0), sub(q1, q0));
                if len(c) > 1e-9 {
                    axes.push(scale(c, 1.0 / len(c)));
                }
            }
        }
        axes.iter().all(|&n| {
            let (alo, ahi) = project(a, n);
            let (blo, bhi) = project(b, n);
            !(blo > ahi || alo > bhi)
        })
    }

    pub(crate) fn random_hull(rng: &mut Lcg, n: usize, size: f32) -> Hull {
        let mut pts = [Vec3::ZERO; 64];
        for p in pts.iter_mut().take(n) {
            *p = rng.vec(size);
        }
        let mut hull = Hull::default();
        build_hull(&pts[..n], &mut hull).unwrap();
        hull
    }

    fn check_output(out: &DistanceOutput, what: &str) {
        assert!(
            out.point_a.is_valid()
                && out.point_b.is_valid()
                && out.normal.is_valid()
                && out.distance.is_finite(),
            "{what}: {out:?}"
        );
        assert!((out.normal.length() - 1.0).abs() < 1e-4, "{what}: {out:?}");
    }

    /// The output agrees with the reference distance, and its points and normal say the
    /// same: `point_b − point_a` is `distance` along the normal.
    fn check_against(out: &DistanceOutput, reference: f64, what: &str) {
        check_output(out, what);
        assert!(
            (out.distance as f64 - reference).abs() < 1e-4,
            "{what}: {} vs {reference}",
            out.distance
        );
        let gap = out.point_b - out.point_a;
        assert!(
            (gap - out.normal * out.distance).length() < 2e-4,
            "{what}: {out:?}"
        );
    }

    #[test]
    fn sphere_pairs_match_the_centre_distance_less_the_radii() {
        let mut rng = Lcg(1);
        for _ in 0..200 {
            let a = Sphere {
                center: rng.vec(0.5),
                radius: 0.1 + rng.next().abs(),
            };
            let b = Sphere {
                center: rng.vec(0.5),
                radius: 0.1 + rng.next().abs(),
            };
            let (xa, xb) = (rng.pose(3.0), rng.pose(3.0));
            let out = distance(&ShapeProxy::sphere(&a), &xa, &ShapeProxy::sphere(&b), &xb);
            let (ca, cb) = (d(xa.apply(a.center)), d(xb.apply(b.center)));
            let reference = len(sub(cb, ca)) - a.radius as f64 - b.radius as f64;
            check_against(&out, reference, "spheres");
            let features = brute_distance(&sphere_features(&a, &xa), &sphere_features(&b, &xb));
            assert!((features - reference).abs() < 1e-9);
        }
    }

    #[test]
    fn sphere_and_box_match_the_clamped_point_distance() {
        let mut rng = Lcg(2);
        let mut checked = 0;
        for _ in 0..300 {
            let half = Vec3::new(
                0.2 + rng.next().abs(),
                0.2 + rng.next().abs(),
                0.2 + rng.next().abs(),
            );
            let b = BoxHull::new(half, rng.vec(0.3), rng.rotation());
            let s = Sphere {
                center: rng.vec(0.3),
                radius: 0.05 + 0.5 * rng.next().abs(),
            };
            let (xa, xb) = (rng.pose(2.0), rng.pose(2.0));
            // The sphere's centre in the box's own axes, then clamped to the box.
            let local = Transform::new(b.center, Quat::IDENTITY);
            let rotation = {
                // BoxHull keeps the rotation only in its vertices: recover the axes.
                let ex = (b.vertices[1] - b.vertices[0]).normalize();
                let ey = (b.vertices[3] - b.vertices[0]).normalize();
                let ez = (b.vertices[4] - b.vertices[0]).normalize();
                (ex, ey, ez)
            };
            let c = xa.apply_inv(xb.apply(s.center)) - local.p;
            let (ex, ey, ez) = rotation;
            let q = [c.dot(ex) as f64, c.dot(ey) as f64, c.dot(ez) as f64];
            let h = d(half);
            let mut outside = [0.0f64; 3];
            let mut inside = true;
            for i in 0..3 {
                let clamped = min_f64(max_f64(q[i], -h[i]), h[i]);
                outside[i] = q[i] - clamped;
                if q[i].abs() > h[i] {
                    inside = false;
                }
            }
            let out = distance(
                &ShapeProxy::hull(&b.view()),
                &xa,
                &ShapeProxy::sphere(&s),
                &xb,
            );
            if inside {
                assert!(out.distance <= 0.0, "{out:?}");
                check_output(&out, "sphere inside box");
                continue;
            }
            let reference = len(outside) - s.radius as f64;
            check_against(&out, reference, "sphere and box");
            checked += 1;
        }
        assert!(checked > 200);
    }

    #[test]
    fn capsule_pairs_match_the_segment_distance_less_the_radii() {
        let mut rng = Lcg(3);
        for k in 0..300 {
            let mut a = Capsule {
                center1: rng.vec(1.0),
                center2: rng.vec(1.0),
                radius: 0.05 + 0.3 * rng.next().abs(),
            };
            let b = Capsule {
                center1: rng.vec(1.0),
                center2: rng.vec(1.0),
                radius: 0.05 + 0.3 * rng.next().abs(),
            };
            if k % 10 == 0 {
                a.center2 = a.center1;
            }
            let (xa, xb) = (rng.pose(3.0), rng.pose(3.0));
            let out = distance(&ShapeProxy::capsule(&a), &xa, &ShapeProxy::capsule(&b), &xb);
            let reference = brute_distance(&capsule_features(&a, &xa), &capsule_features(&b, &xb));
            let core = reference + a.radius as f64 + b.radius as f64;
            if core < 1e-3 {
                assert!(out.distance <= 1e-4, "{out:?}");
                check_output(&out, "crossing capsules");
                continue;
            }
            check_against(&out, reference, "capsules");
        }
    }

    #[test]
    fn capsule_and_box_match_the_brute_force_feature_distance() {
        let mut rng = Lcg(4);
        for _ in 0..300 {
            let half = Vec3::new(0.5, 0.3, 0.8);
            let b = BoxHull::new(half, Vec3::ZERO, Quat::IDENTITY);
            let c = Capsule {
                center1: rng.vec(0.8),
                center2: rng.vec(0.8),
                radius: 0.1,
            };
            let xa = rng.pose(1.0);
            // Place the capsule outside the box's bounding sphere, then a random gap.
            let reach = half.length() + 0.8 * 1.8 + 0.1;
            let xb = Transform::new(
                xa.p + rng.unit() * (reach + 0.5 * rng.next().abs()),
                rng.rotation(),
            );
            let out = distance(
                &ShapeProxy::hull(&b.view()),
                &xa,
                &ShapeProxy::capsule(&c),
                &xb,
            );
            let reference =
                brute_distance(&hull_features(&b.view(), &xa), &capsule_features(&c, &xb));
            check_against(&out, reference, "capsule and box");
        }
    }

    #[test]
    fn random_rotated_hulls_match_the_brute_force_feature_distance() {
        let mut rng = Lcg(5);
        let mut iterations = 0;
        for k in 0..300 {
            let ha = random_hull(&mut rng, 4 + k % 40, 1.0);
            let hb = random_hull(&mut rng, 4 + (k * 7) % 60, 0.6);
            let (va, vb) = (ha.view(), hb.view());
            let xa = rng.pose(2.0);
            let gap = 0.001 + 0.5 * rng.next().abs();
            let reach = crate::geometry::bounds::hull_max_extent(&va, Vec3::ZERO)
                + crate::geometry::bounds::hull_max_extent(&vb, Vec3::ZERO);
            let xb = Transform::new(xa.p + rng.unit() * (reach + gap), rng.rotation());
            let out = distance(&ShapeProxy::hull(&va), &xa, &ShapeProxy::hull(&vb), &xb);
            let reference = brute_distance(&hull_features(&va, &xa), &hull_features(&vb, &xb));
            check_against(&out, reference, &format!("hulls {k}"));
            iterations = iterations.max(out.iterations);
        }
        assert!(iterations < MAX_ITERATIONS, "{iterations}");
    }

    #[test]
    fn close_random_hulls_match_the_brute_force_distance_and_overlap_at_one_millimetre() {
        let mut rng = Lcg(6);
        let mut overlapping = 0;
        for k in 0..200 {
            let ha = random_hull(&mut rng, 6 + k % 30, 1.0);
            let hb = random_hull(&mut rng, 6 + (k * 5) % 30, 0.7);
            let (va, vb) = (ha.view(), hb.view());
            let (pa, pb) = (ShapeProxy::hull(&va), ShapeProxy::hull(&vb));
            let xa = rng.pose(2.0);
            let reach = crate::geometry::bounds::hull_max_extent(&va, Vec3::ZERO)
                + crate::geometry::bounds::hull_max_extent(&vb, Vec3::ZERO);
            let dir = rng.unit();
            let xb = Transform::new(xa.p + dir * (reach + 0.2), rng.rotation());
            let out = distance(&pa, &xa, &pb, &xb);
            // Slide B back along the normal until it stands 1 mm off A, then 1 mm into it.
            for (offset, apart) in [(0.001f32, true), (-0.001, false)] {
                let moved = Transform::new(xb.p - out.normal * (out.distance - offset), xb.q);
                let fa = hull_features(&va, &xa);
                let fb = hull_features(&vb, &moved);
                let got = overlaps(&pa, &xa, &pb, &moved);
                if apart {
                    let reference = brute_distance(&fa, &fb);
                    assert!((reference - 0.001).abs() < 1e-4, "{k}: {reference}");
                    let near = distance(&pa, &xa, &pb, &moved);
                    check_against(&near, reference, &format!("close hulls {k}"));
                    assert!(!got, "{k}: 1 mm apart");
                    assert!(!sat_overlap(&fa, &fb));
                } else {
                    // Pushed 1 mm past touching they overlap, unless B's feature slides
                    // off a sharp corner of A: the reference decides.
                    assert_eq!(got, sat_overlap(&fa, &fb), "{k}: 1 mm in");
                    overlapping += got as u32;
                }
            }
        }
        assert!(overlapping > 180, "{overlapping}");
    }

    #[test]
    fn overlap_flips_within_a_millimetre_for_spheres_boxes_and_capsules() {
        let cube = BoxHull::new(Vec3::new(0.5, 0.5, 0.5), Vec3::ZERO, Quat::IDENTITY);
        let ball = Sphere {
            center: Vec3::ZERO,
            radius: 0.25,
        };
        let pill = Capsule {
            center1: Vec3::new(-0.5, 0.0, 0.0),
            center2: Vec3::new(0.5, 0.0, 0.0),
            radius: 0.2,
        };
        let xa = Transform::new(
            Vec3::new(1.0, -2.0, 0.5),
            Quat::from_axis_angle(Vec3::new(1.0, 2.0, -1.0).normalize(), 0.8),
        );
        let up = xa.q.rotate(Vec3::Y);
        let proxies = [
            (ShapeProxy::sphere(&ball), 0.25f32),
            (ShapeProxy::capsule(&pill), 0.2),
            (ShapeProxy::hull(&cube.view()), 0.5),
        ];
        for (pa, top) in &proxies {
            for (pb, bottom) in &proxies {
                for (gap, expected) in [(0.001f32, false), (-0.001, true)] {
                    // B above A along A's y, its own y kept parallel.
                    let xb = Transform::new(xa.p + up * (top + bottom + gap), xa.q);
                    assert_eq!(overlaps(pa, &xa, pb, &xb), expected, "{gap}");
                    let out = distance(pa, &xa, pb, &xb);
                    if pa.radius + pb.radius + gap > 0.0 {
                        assert!((out.distance - gap).abs() < 1e-5, "{out:?}");
                        assert!((out.normal - up).length() < 1e-4, "{out:?}");
                    } else {
                        // Box into box: the cores overlap and GJK has no depth.
                        assert_eq!(out.distance, 0.0);
                    }
                }
            }
        }
    }

    #[test]
    fn coincident_and_nested_shapes_overlap_with_finite_output() {
        let cube = BoxHull::new(Vec3::new(0.5, 0.5, 0.5), Vec3::ZERO, Quat::IDENTITY);
        let p = ShapeProxy::hull(&cube.view());
        let xf = Transform::new(Vec3::new(1.0, 2.0, 3.0), Quat::IDENTITY);
        let out = distance(&p, &xf, &p, &xf);
        check_output(&out, "coincident");
        assert!(out.distance <= 0.0);
        assert!(overlaps(&p, &xf, &p, &xf));
        // A small tetrahedron deep inside the box.
        let t = TestHull::tetrahedron(0.1);
        let pt = ShapeProxy::hull(&t.view());
        let out = distance(&p, &xf, &pt, &xf);
        check_output(&out, "nested");
        assert!(out.distance <= 0.0);
        // Rounded shapes overlap by the radii when their cores coincide.
        let s = ShapeProxy::sphere(&Sphere {
            center: Vec3::ZERO,
            radius: 0.5,
        });
        let out = distance(&s, &xf, &s, &xf);
        check_output(&out, "coincident spheres");
        assert_eq!(out.distance, -1.0);
    }

    #[test]
    fn degenerate_point_sets_give_finite_distances() {
        let xf = Transform::IDENTITY;
        let square = ShapeProxy::from_points(
            &[
                Vec3::new(-1.0, 0.0, -1.0),
                Vec3::new(1.0, 0.0, -1.0),
                Vec3::new(1.0, 0.0, 1.0),
                Vec3::new(-1.0, 0.0, 1.0),
                Vec3::new(0.0, 0.0, 0.0),
            ],
            0.0,
        );
        let line = ShapeProxy::from_points(
            &[
                Vec3::new(-1.0, 0.0, 0.0),
                Vec3::new(0.0, 0.0, 0.0),
                Vec3::new(1.0, 0.0, 0.0),
                Vec3::new(1.0, 0.0, 0.0),
            ],
            0.0,
        );
        let same = ShapeProxy::from_points(&[Vec3::ONE; 5], 0.25);
        let empty = ShapeProxy {
            count: 0,
            ..ShapeProxy::default()
        };
        let too_many = ShapeProxy {
            count: 1000,
            ..ShapeProxy::default()
        };
        let shapes = [square, line, same, empty, too_many];
        let poses = [
            Transform::new(Vec3::new(0.2, 0.7, -0.1), Quat::IDENTITY),
            Transform::new(Vec3::new(0.0, 0.0, 0.0), Quat::IDENTITY),
            Transform::new(
                Vec3::new(0.3, -0.4, 0.2),
                Quat::from_axis_angle(Vec3::Z, core::f32::consts::FRAC_PI_2),
            ),
            Transform::new(Vec3::new(1.0, 1.0, 1.0), Quat::IDENTITY),
        ];
        for a in &shapes {
            for b in &shapes {
                for xb in &poses {
                    let out = distance(a, &xf, b, xb);
                    check_output(&out, "degenerate");
                    let _ = overlaps(a, &xf, b, xb);
                }
            }
        }
        // A point above the flat square's middle, and off its corner.
        let point = ShapeProxy::default();
        let out = distance(&square, &xf, &point, &poses[0]);
        assert!((out.distance - 0.7).abs() < 1e-6, "{out:?}");
        assert!((out.normal - Vec3::Y).length() < 1e-6);
        let corner = Transform::new(Vec3::new(2.0, 1.0, 2.0), Quat::IDENTITY);
        let out = distance(&square, &xf, &point, &corner);
        assert!((out.distance - 3.0f32.sqrt()).abs() < 1e-6, "{out:?}");
        // The line crossing the square: touching.
        let out = distance(&square, &xf, &line, &poses[1]);
        assert!(out.distance <= 0.0);
        // Huge but finite coordinates: no NaN.
        let far = Transform::new(Vec3::new(3e37, -3e37, 3e37), Quat::IDENTITY);
        let big = ShapeProxy::from_points(&[Vec3::splat(3e38), Vec3::splat(-3e38)], 1e38);
        check_output(&distance(&big, &xf, &big, &far), "huge");
    }

    #[test]
    fn the_same_query_gives_the_same_bits() {
        let mut rng = Lcg(9);
        for k in 0..50 {
            let ha = random_hull(&mut rng, 5 + k, 1.0);
            let hb = random_hull(&mut rng, 5 + (3 * k) % 50, 1.0);
            let (pa, pb) = (ShapeProxy::hull(&ha.view()), ShapeProxy::hull(&hb.view()));
            let (xa, xb) = (rng.pose(1.5), rng.pose(1.5));
            let o1 = distance(&pa, &xa, &pb, &xb);
            let o2 = distance(&pa, &xa, &pb, &xb);
            let bits = |o: &DistanceOutput| {
                [
                    o.point_a.x,
                    o.point_a.y,
                    o.point_a.z,
                    o.point_b.x,
                    o.point_b.y,
                    o.point_b.z,
                    o.normal.x,
                    o.normal.y,
                    o.normal.z,
                    o.distance,
                ]
                .map(f32::to_bits)
            };
            assert_eq!(bits(&o1), bits(&o2));
            assert_eq!(o1.iterations, o2.iterations);
        }
    }

    #[test]
    fn hulls_of_mixed_sizes_near_touching_match_the_brute_force_distance_and_overlap() {
        // Hulls from 1 cm to 10 m across, standing 0.1 mm to 1 cm apart or 0.1 to 1 mm
        // into each other: the distance within 1e-4 and the overlap as the separating-axis
        // test says, where f32 GJK on the differences of 10 m points loses its direction.
        let mut rng = Lcg(78);
        for k in 0..2000 {
            let sa = [0.01f32, 0.1, 1.0, 10.0][k % 4];
            let sb = [0.05f32, 1.0, 3.0][k % 3];
            let ha = random_hull(&mut rng, 4 + k % 60, sa);
            let hb = random_hull(&mut rng, 4 + (k * 7) % 60, sb);
            let (va, vb) = (ha.view(), hb.view());
            let (pa, pb) = (ShapeProxy::hull(&va), ShapeProxy::hull(&vb));
            let xa = rng.pose(5.0);
            let gap = [1e-4f32, 1e-3, -1e-3, -1e-4, 0.01][k % 5];
            let reach = crate::geometry::bounds::hull_max_extent(&va, Vec3::ZERO)
                + crate::geometry::bounds::hull_max_extent(&vb, Vec3::ZERO);
            let xb = Transform::new(xa.p + rng.unit() * (reach + 0.1), rng.rotation());
            let first = distance(&pa, &xa, &pb, &xb);
            let xb = Transform::new(xb.p - first.normal * (first.distance - gap), xb.q);
            let (fa, fb) = (hull_features(&va, &xa), hull_features(&vb, &xb));
            let out = distance(&pa, &xa, &pb, &xb);
            let overlapping = sat_overlap(&fa, &fb);
            assert_eq!(overlaps(&pa, &xa, &pb, &xb), overlapping, "{k}: {out:?}");
            if overlapping {
                assert!(out.distance <= 0.0, "{k}: {out:?}");
            } else {
                check_against(&out, brute_distance(&fa, &fb), &format!("{k}"));
            }
        }
    }

    fn flat_features(pts: &[Vec3], xf: &Transform) -> Features {
        let mut f = Features::default();
        let p: Vec<D> = pts.iter().map(|&v| d(xf.apply(v))).collect();
        f.vertices = p.clone();
        for i in 0..p.len() {
            for j in i + 1..p.len() {
                f.edges.push((p[i], p[j]));
                for k in j + 1..p.len() {
                    f.triangles.push((p[i], p[j], p[k]));
                    let n = cross(sub(p[j], p[i]), sub(p[k], p[i]));
                    if len(n) > 1e-12 {
                        f.planes.push((scale(n, 1.0 / len(n)), 0.0));
                    }
                }
            }
        }
        f
    }

    #[test]
    fn flat_collinear_and_nearly_flat_point_sets_match_the_brute_force_distance() {
        let mut rng = Lcg(5);
        let mut compared = 0;
        for k in 0..1500 {
            let n = 1 + k % 8;
            let mut pts = [Vec3::ZERO; 8];
            let scale = [0.1f32, 1.0, 10.0][(k / 27) % 3];
            for p in pts.iter_mut().take(n) {
                *p = match k % 3 {
                    0 => Vec3::new(rng.next(), 0.0, rng.next()),
                    1 => Vec3::new(rng.next(), 0.0, 0.0),
                    _ => Vec3::new(rng.next(), rng.next() * 1e-4, rng.next()),
                } * scale;
            }
            let radius = [0.0f32, 0.1, 0.5][(k / 3) % 3];
            let pa = ShapeProxy::from_points(&pts[..n], radius);
            let hb = random_hull(&mut rng, 4 + k % 20, [0.05f32, 1.0, 3.0][(k / 9) % 3]);
            let vb = hb.view();
            let pb = ShapeProxy::hull(&vb);
            let xa = rng.pose(3.0);
            let xb = Transform::new(xa.p + rng.unit() * (20.0 + radius), rng.rotation());
            let first = distance(&pa, &xa, &pb, &xb);
            let gap = [1e-4f32, 1e-3, 0.01, 1.0][k % 4];
            let xb = Transform::new(xb.p - first.normal * (first.distance - gap), xb.q);
            let out = distance(&pa, &xa, &pb, &xb);
            check_output(&out, "flat");
            let mut fa = flat_features(&pts[..n], &xa);
            fa.radius = radius as f64;
            let fb = hull_features(&vb, &xb);
            if sat_overlap(&fa, &fb) {
                // The cores overlap (the reference's planes are the cores').
                assert!(out.distance <= 1e-5 - radius, "{k}: {out:?}");
                continue;
            }
            check_against(&out, brute_distance(&fa, &fb), &format!("{k}"));
            compared += 1;
        }
        assert!(compared > 1400, "{compared}");
    }
}
