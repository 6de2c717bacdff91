//! Deterministic convex hull builder: fills a [`Hull`] from at most
//! [`MAX_HULL_POINTS`] points.
//!
//! How it stays robust:
//! 1. Points closer than twice the build tolerance are welded (the earlier one stays).
//!    The tolerance is relative to the cloud's largest extent, plus a few `f32` ulps of
//!    its largest coordinate, since coordinates far from the origin are only that precise.
//! 2. The topology comes from an exact incremental (beneath-beyond) hull: coordinates are
//!    scaled by a power of two (exact, so collinear and coplanar inputs stay exactly so)
//!    and rounded to integers below 2^36, and orientation tests run in `i128`. Exact tests
//!    never see a self-crossing horizon, so the triangle mesh is always a valid convex
//!    polyhedron; floating-point quickhulls need face merging *during* the build to get
//!    the same guarantee.
//! 3. Adjacent faces within the tolerance of one plane are merged, flattest pair first,
//!    in `f64` on the original points. A merge is kept only if every point stays within
//!    the tolerance of the merged plane and the merged face stays convex. A vertex the
//!    merge leaves between just two faces is settled at once: the other face is absorbed
//!    when flat with this one (a vertex inside a facet), or else the vertex lies on their
//!    common straight edge and is removed.
//!
//! Everything lives in fixed-size stack arrays (about 24 KiB at peak, optimised), and the
//! result depends on nothing but the input values and their order: ties go to the lowest
//! index.

// Index loops mirror the mesh tables (edge e, face f, vertex v) and read better here than
// zipped iterators.
#![allow(clippy::needless_range_loop)]

use super::hull::{
    HalfEdge, Hull, HullView, MAX_HULL_FACES, MAX_HULL_HALF_EDGES, MAX_HULL_POINTS, Plane,
};
use super::mass::hull_volume_and_centroid;
use crate::error::Error;
use crate::math::{DVec3, Vec3};

/// Build tolerance relative to the cloud's largest extent (box side, not radius).
const RELATIVE_TOLERANCE: f64 = 1.0e-5;
/// How far (as a fraction of the tolerance) a merged face's corner may turn the wrong
/// way: only rounding, so that merges never leave reflex corners behind.
const REFLEX_SLACK: f64 = 1.0e-3;
/// `f32` ulps of the largest coordinate added to the tolerance.
const COORDINATE_ULPS: f64 = 4.0;
/// The snapping grid: the largest coordinate maps to at most 2^36. Orientation
/// determinants of 37-bit differences stay below 2^114, inside `i128`.
const GRID_LIMIT: f64 = 68_719_476_736.0;
/// Triangle slots of the exact hull: a triangulated hull of V vertices has 2V − 4 faces.
const MAX_TRIS: usize = MAX_HULL_FACES;
/// Half-edge slots: three per triangle slot.
const MAX_EDGES: usize = MAX_HULL_HALF_EDGES;
/// No triangle / no horizon edge.
const NONE8: u8 = u8::MAX;
/// The least half-thickness of a flat hull (m): a flat cloud's outline corners are
/// moved this far (or 4 build tolerances, if more) to each side of its plane. Half the
/// contact slop: thick enough that two flat hulls resting on each other keep a face
/// axis, thin enough that a box rests on a flat floor within 2.5 mm of the plane.
pub const FLAT_HULL_HALF_THICKNESS: f32 = 0.0025;
/// Most outline corners of a flat hull: each becomes two points of its thin hull.
pub const MAX_FLAT_HULL_CORNERS: usize = MAX_HULL_POINTS / 2;

/// The build tolerance of a cloud with largest extent `extent` and largest absolute
/// coordinate `max_abs`.
fn tolerance(extent: f64, max_abs: f64) -> f64 {
    RELATIVE_TOLERANCE * extent + COORDINATE_ULPS * (f32::EPSILON as f64) * max_abs
}

#[inline(always)]
fn dot(a: DVec3, b: DVec3) -> f64 {
    a.x * b.x + a.y * b.y + a.z * b.z
}

#[inline(always)]
fn cross(a: DVec3, b: DVec3) -> DVec3 {
    DVec3::new(
        a.y * b.z - a.z * b.y,
        a.z * b.x - a.x * b.z,
        a.x * b.y - a.y * b.x,
    )
}

#[inline(always)]
fn scale(a: DVec3, s: f64) -> DVec3 {
    DVec3::new(a.x * s, a.y * s, a.z * s)
}

/// Newell's normal of the polygon through `pts[verts[0]], pts[verts[1]], ...` (twice
/// the area times the unit normal). Measured from the first vertex to keep the numbers
/// small.
fn newell(pts: &[DVec3; MAX_HULL_POINTS], verts: &[u8]) -> DVec3 {
    let mut n = DVec3::ZERO;
    let Some(&first) = verts.first() else {
        return n;
    };
    let o = pts[first as usize];
    for i in 0..verts.len() {
        let a = pts[verts[i] as usize] - o;
        let b = pts[verts[if i + 1 == verts.len() { 0 } else { i + 1 }] as usize] - o;
        n.x += (a.y - b.y) * (a.z + b.z);
        n.y += (a.z - b.z) * (a.x + b.x);
        n.z += (a.x - b.x) * (a.y + b.y);
    }
    n
}

/// Signed distance of `v` outward from the chord `p`–`q` of a polygon with unit normal
/// `n` (counter-clockwise about `n`): positive where the corner at `v` is convex. `None`
/// when `p` and `q` coincide.
fn corner_height(p: DVec3, v: DVec3, q: DVec3, n: DVec3) -> Option<f64> {
    let chord = q - p;
    let len = dot(chord, chord).sqrt();
    if len.is_nan() || len <= 0.0 {
        return None;
    }
    Some(dot(cross(v - p, q - v), n) / len)
}

/// The cloud's bounds, largest extent and largest absolute coordinate, all in `f64` so
/// that clouds spanning the whole `f32` range do not overflow.
struct Cloud {
    center: DVec3,
    extent: f64,
    max_abs: f64,
}

fn measure_cloud(points: &[Vec3]) -> Cloud {
    let mut lo = points[0].to_f64();
    let mut hi = lo;
    let mut max_abs = 0.0f64;
    for p in points {
        let d = p.to_f64();
        for (l, h, c) in [
            (&mut lo.x, &mut hi.x, d.x),
            (&mut lo.y, &mut hi.y, d.y),
            (&mut lo.z, &mut hi.z, d.z),
        ] {
            if c < *l {
                *l = c;
            }
            if c > *h {
                *h = c;
            }
            let a = c.abs();
            if a > max_abs {
                max_abs = a;
            }
        }
    }
    let size = hi - lo;
    let mut extent = size.x;
    if size.y > extent {
        extent = size.y;
    }
    if size.z > extent {
        extent = size.z;
    }
    Cloud {
        center: scale(lo + hi, 0.5),
        extent,
        max_abs,
    }
}

/// The power of two that scales `max_abs` (positive) into `(2^35, 2^36]`: exact in
/// `f64` for any `f32` input, found by halving and doubling so no platform `log2` is used.
fn grid_scale(max_abs: f64) -> f64 {
    let mut s = 1.0f64;
    while max_abs * s > GRID_LIMIT {
        s *= 0.5;
    }
    while max_abs * s * 2.0 <= GRID_LIMIT {
        s *= 2.0;
    }
    s
}

fn degenerate(name: &'static str, value: f64, expected: &'static str) -> Error {
    Error::Argument {
        name,
        value,
        expected,
    }
}

/// An invariant of the exact hull broke: cannot happen with exact orientation tests, but
/// a refusal beats a panic or a broken hull.
fn internal() -> Error {
    Error::State("convex hull builder met an inconsistent mesh")
}

/// A triangle of the exact hull: vertices counter-clockwise from outside, `n[i]` the
/// triangle across the edge `v[i]` → `v[i + 1]`.
#[derive(Clone, Copy)]
struct Tri {
    v: [u8; 3],
    n: [u8; 3],
    alive: bool,
}

const DEAD_TRI: Tri = Tri {
    v: [0; 3],
    n: [NONE8; 3],
    alive: false,
};

/// Sign source of the exact orientation test: > 0 when `d` is above the plane of the
/// counter-clockwise triangle `a b c` (outside), < 0 below, 0 on it.
fn orient(q: &[[i64; 3]], a: u8, b: u8, c: u8, d: u8) -> i128 {
    let (a, b, c, d) = (q[a as usize], q[b as usize], q[c as usize], q[d as usize]);
    let ab = [
        (b[0] - a[0]) as i128,
        (b[1] - a[1]) as i128,
        (b[2] - a[2]) as i128,
    ];
    let ac = [
        (c[0] - a[0]) as i128,
        (c[1] - a[1]) as i128,
        (c[2] - a[2]) as i128,
    ];
    let ad = [
        (d[0] - a[0]) as i128,
        (d[1] - a[1]) as i128,
        (d[2] - a[2]) as i128,
    ];
    let nx = ab[1] * ac[2] - ab[2] * ac[1];
    let ny = ab[2] * ac[0] - ab[0] * ac[2];
    let nz = ab[0] * ac[1] - ab[1] * ac[0];
    nx * ad[0] + ny * ad[1] + nz * ad[2]
}

/// Index `j` of the edge `from` → `to` in triangle `t`.
fn edge_in(t: &Tri, from: u8, to: u8) -> Option<usize> {
    (0..3).find(|&j| t.v[j] == from && t.v[(j + 1) % 3] == to)
}

/// The exact triangulated hull of the snapped points, built point by point.
struct ExactHull {
    tris: [Tri; MAX_TRIS],
}

impl ExactHull {
    fn new(q: &[[i64; 3]], simplex: [u8; 4]) -> Result<ExactHull, Error> {
        let [i0, mut i1, mut i2, i3] = simplex;
        let o = orient(q, i0, i1, i2, i3);
        if o == 0 {
            return Err(internal());
        }
        if o > 0 {
            // i3 must lie below the first face.
            core::mem::swap(&mut i1, &mut i2);
        }
        let mut h = ExactHull {
            tris: [DEAD_TRI; MAX_TRIS],
        };
        let faces = [[i0, i1, i2], [i0, i3, i1], [i1, i3, i2], [i2, i3, i0]];
        for (t, v) in faces.iter().enumerate() {
            h.tris[t] = Tri {
                v: *v,
                n: [NONE8; 3],
                alive: true,
            };
        }
        for t in 0..4 {
            for i in 0..3 {
                let (a, b) = (h.tris[t].v[i], h.tris[t].v[(i + 1) % 3]);
                let s = (0..4)
                    .find(|&s| s != t && edge_in(&h.tris[s], b, a).is_some())
                    .ok_or_else(internal)?;
                h.tris[t].n[i] = s as u8;
            }
        }
        Ok(h)
    }

    /// Adds point `p` if it is strictly outside; points on or inside the hull are dropped.
    fn insert(&mut self, q: &[[i64; 3]], p: u8) -> Result<(), Error> {
        let mut visible = [false; MAX_TRIS];
        let mut any = false;
        for (t, tri) in self.tris.iter().enumerate() {
            if tri.alive && orient(q, tri.v[0], tri.v[1], tri.v[2], p) > 0 {
                visible[t] = true;
                any = true;
            }
        }
        if !any {
            return Ok(());
        }

        // The horizon: edges of visible triangles whose neighbour is hidden. Exact tests
        // make it one simple loop, so each vertex starts and ends exactly one edge.
        let mut h_from = [0u8; MAX_HULL_POINTS];
        let mut h_to = [0u8; MAX_HULL_POINTS];
        let mut h_out = [0u8; MAX_HULL_POINTS];
        let mut h_out_edge = [0u8; MAX_HULL_POINTS];
        let mut starts_at = [NONE8; MAX_HULL_POINTS];
        let mut ends_at = [NONE8; MAX_HULL_POINTS];
        let mut count = 0usize;
        for t in 0..MAX_TRIS {
            if !visible[t] {
                continue;
            }
            for i in 0..3 {
                let nb = self.tris[t].n[i] as usize;
                if nb >= MAX_TRIS || !self.tris[nb].alive {
                    return Err(internal());
                }
                if visible[nb] {
                    continue;
                }
                let (a, b) = (self.tris[t].v[i], self.tris[t].v[(i + 1) % 3]);
                let j = edge_in(&self.tris[nb], b, a).ok_or_else(internal)?;
                if count >= MAX_HULL_POINTS
                    || starts_at[a as usize] != NONE8
                    || ends_at[b as usize] != NONE8
                {
                    return Err(internal());
                }
                h_from[count] = a;
                h_to[count] = b;
                h_out[count] = nb as u8;
                h_out_edge[count] = j as u8;
                starts_at[a as usize] = count as u8;
                ends_at[b as usize] = count as u8;
                count += 1;
            }
        }
        if count < 3 {
            return Err(internal());
        }

        for t in 0..MAX_TRIS {
            if visible[t] {
                self.tris[t].alive = false;
            }
        }
        // Lowest free slots first, in horizon order.
        let mut slot = [0u8; MAX_HULL_POINTS];
        let mut next_free = 0usize;
        for s in slot.iter_mut().take(count) {
            while next_free < MAX_TRIS && self.tris[next_free].alive {
                next_free += 1;
            }
            if next_free >= MAX_TRIS {
                return Err(internal());
            }
            *s = next_free as u8;
            // Claim it so the next search moves on.
            self.tris[next_free].alive = true;
        }
        for k in 0..count {
            let (a, b) = (h_from[k], h_to[k]);
            let after = starts_at[b as usize];
            let before = ends_at[a as usize];
            if after == NONE8 || before == NONE8 {
                return Err(internal());
            }
            let t = slot[k] as usize;
            self.tris[t] = Tri {
                v: [a, b, p],
                n: [h_out[k], slot[after as usize], slot[before as usize]],
                alive: true,
            };
            self.tris[h_out[k] as usize].n[h_out_edge[k] as usize] = t as u8;
        }
        Ok(())
    }
}

/// The faces one merge changed, each with the vertices it must stay flat over (its own
/// and those of the faces and vertices it absorbed).
#[derive(Default)]
struct Changed {
    faces: [usize; 16],
    masks: [u64; 16],
    count: usize,
}

impl Changed {
    fn find(&self, f: usize) -> Option<usize> {
        self.faces[..self.count].iter().position(|&x| x == f)
    }

    /// Adds `mask` to face `f`'s entry; `None` when the list is full.
    fn add(&mut self, f: usize, mask: u64) -> Option<()> {
        if let Some(k) = self.find(f) {
            self.masks[k] |= mask;
        } else {
            if self.count == self.faces.len() {
                return None;
            }
            self.faces[self.count] = f;
            self.masks[self.count] = mask;
            self.count += 1;
        }
        Some(())
    }

    /// Removes face `f`'s entry (it was absorbed), returning its mask.
    fn take(&mut self, f: usize) -> u64 {
        let Some(k) = self.find(f) else { return 0 };
        let mask = self.masks[k];
        self.count -= 1;
        self.faces[k] = self.faces[self.count];
        self.masks[k] = self.masks[self.count];
        mask
    }
}

/// A polygon mesh in half-edge form, merged in place. Slots stay put (no compaction)
/// until the hull is written out, so indices are stable through every merge.
#[derive(Clone)]
struct Mesh {
    next: [u16; MAX_EDGES],
    prev: [u16; MAX_EDGES],
    twin: [u16; MAX_EDGES],
    origin: [u8; MAX_EDGES],
    face: [u8; MAX_EDGES],
    edge_alive: [bool; MAX_EDGES],
    face_edge: [u16; MAX_TRIS],
    face_alive: [bool; MAX_TRIS],
}

impl Mesh {
    fn from_tris(h: &ExactHull) -> Result<Mesh, Error> {
        let mut m = Mesh {
            next: [0; MAX_EDGES],
            prev: [0; MAX_EDGES],
            twin: [0; MAX_EDGES],
            origin: [0; MAX_EDGES],
            face: [0; MAX_EDGES],
            edge_alive: [false; MAX_EDGES],
            face_edge: [0; MAX_TRIS],
            face_alive: [false; MAX_TRIS],
        };
        for (t, tri) in h.tris.iter().enumerate() {
            if !tri.alive {
                continue;
            }
            for i in 0..3 {
                let e = 3 * t + i;
                let nb = tri.n[i] as usize;
                if nb >= MAX_TRIS || !h.tris[nb].alive {
                    return Err(internal());
                }
                let j = edge_in(&h.tris[nb], tri.v[(i + 1) % 3], tri.v[i]).ok_or_else(internal)?;
                m.next[e] = (3 * t + (i + 1) % 3) as u16;
                m.prev[e] = (3 * t + (i + 2) % 3) as u16;
                m.twin[e] = (3 * nb + j) as u16;
                m.origin[e] = tri.v[i];
                m.face[e] = t as u8;
                m.edge_alive[e] = true;
            }
            m.face_edge[t] = (3 * t) as u16;
            m.face_alive[t] = true;
        }
        Ok(m)
    }

    /// The vertices of face `f` in order, into `out`; their count, or 0 for a broken loop.
    fn face_vertices(&self, f: usize, out: &mut [u8; MAX_HULL_POINTS]) -> usize {
        let start = self.face_edge[f] as usize;
        let mut e = start;
        let mut count = 0;
        loop {
            if count >= MAX_HULL_POINTS || !self.edge_alive[e] || self.face[e] as usize != f {
                return 0;
            }
            out[count] = self.origin[e];
            count += 1;
            e = self.next[e] as usize;
            if e == start {
                return count;
            }
        }
    }

    /// Bit mask of the vertices of face `f` (vertex indices are below 64).
    fn vertex_mask(&self, f: usize) -> u64 {
        let mut verts = [0u8; MAX_HULL_POINTS];
        let count = self.face_vertices(f, &mut verts);
        let mut mask = 0u64;
        for &v in &verts[..count] {
            mask |= 1u64 << v;
        }
        mask
    }

    /// Number of edges leaving vertex `v`.
    fn degree(&self, v: u8) -> usize {
        (0..MAX_EDGES)
            .filter(|&e| self.edge_alive[e] && self.origin[e] == v)
            .count()
    }

    /// Newell's normal of face `f` (zero for a broken loop).
    fn face_normal(&self, f: usize, pts: &[DVec3; MAX_HULL_POINTS]) -> DVec3 {
        let mut verts = [0u8; MAX_HULL_POINTS];
        let count = self.face_vertices(f, &mut verts);
        newell(pts, &verts[..count])
    }

    /// The shared chain of edges through `e` (first and last edge of it, in `e`'s face),
    /// if merging the two faces across it leaves one simple polygon: the faces differ,
    /// share only that one chain, and touch at no vertex off it.
    fn merge_plan(&self, e: usize) -> Option<(usize, usize)> {
        let a = self.face[e] as usize;
        let b = self.face[self.twin[e] as usize] as usize;
        if a == b {
            return None;
        }
        let mut verts = [0u8; MAX_HULL_POINTS];
        let len_a = self.face_vertices(a, &mut verts);
        let len_b = self.face_vertices(b, &mut verts);
        if len_a == 0 || len_b == 0 {
            return None;
        }
        let shares_b = |x: usize| self.face[self.twin[x] as usize] as usize == b;
        let mut shared = 0;
        let mut x = e;
        for _ in 0..len_a {
            if shares_b(x) {
                shared += 1;
            }
            x = self.next[x] as usize;
        }
        if shared >= len_a || shared >= len_b || len_a + len_b - 2 * shared < 3 {
            return None;
        }
        let mut first = e;
        while shares_b(self.prev[first] as usize) {
            first = self.prev[first] as usize;
        }
        let mut last = e;
        while shares_b(self.next[last] as usize) {
            last = self.next[last] as usize;
        }
        // Count the chain and its vertices from its first edge.
        let mut chain = 0;
        let mut chain_mask = 0u64;
        let mut c = first;
        loop {
            chain += 1;
            chain_mask |= 1u64 << self.origin[c];
            c = self.next[c] as usize;
            if c == self.next[last] as usize {
                chain_mask |= 1u64 << self.origin[c];
                break;
            }
        }
        if chain != shared || self.vertex_mask(a) & self.vertex_mask(b) != chain_mask {
            return None;
        }
        Some((first, last))
    }

    /// Whether the faces across `e` can merge into one simple polygon.
    fn can_merge(&self, e: usize) -> bool {
        self.merge_plan(e).is_some()
    }

    /// Merges the face behind `e`'s twin into `e`'s face, removing their shared chain of
    /// edges (and the vertices inside it). Returns the merged face and the chain's end
    /// vertices, or `None`, changing nothing, when [`Mesh::merge_plan`] refuses.
    fn merge(&mut self, e: usize) -> Option<(usize, u8, u8)> {
        let (first, last) = self.merge_plan(e)?;
        let a = self.face[e] as usize;
        let b = self.face[self.twin[e] as usize] as usize;
        let x = self.prev[first] as usize;
        let y = self.next[last] as usize;
        let p = self.prev[self.twin[last] as usize] as usize;
        let q = self.next[self.twin[first] as usize] as usize;
        let mut c = first;
        loop {
            self.edge_alive[c] = false;
            self.edge_alive[self.twin[c] as usize] = false;
            if c == last {
                break;
            }
            c = self.next[c] as usize;
        }
        self.next[x] = q as u16;
        self.prev[q] = x as u16;
        self.next[p] = y as u16;
        self.prev[y] = p as u16;
        let mut c = q;
        loop {
            self.face[c] = a as u8;
            if c == p {
                break;
            }
            c = self.next[c] as usize;
        }
        self.face_edge[a] = x as u16;
        self.face_alive[b] = false;
        Some((a, self.origin[first], self.origin[y]))
    }

    /// Removes a vertex lying between exactly two faces, joining its two edges in each.
    /// Returns both faces, or `None` if a face would fall below three edges or the joined
    /// edge would duplicate an existing one.
    fn remove_vertex(&mut self, v: u8) -> Option<(usize, usize)> {
        let out = (0..MAX_EDGES).find(|&e| self.edge_alive[e] && self.origin[e] == v)?;
        let inn = self.prev[out] as usize;
        let g_out = self.twin[inn] as usize;
        let g_in = self.twin[out] as usize;
        if self.next[g_in] as usize != g_out {
            return None;
        }
        let (fm, fg) = (self.face[out] as usize, self.face[g_in] as usize);
        let mut verts = [0u8; MAX_HULL_POINTS];
        if self.face_vertices(fm, &mut verts) < 4 || self.face_vertices(fg, &mut verts) < 4 {
            return None;
        }
        let u = self.origin[inn];
        let w = self.origin[self.next[out] as usize];
        let dup = (0..MAX_EDGES).any(|e| {
            self.edge_alive[e] && self.origin[e] == u && self.origin[self.next[e] as usize] == w
        });
        if dup {
            return None;
        }
        // In M: u→v→w becomes u→w, kept in `inn`.
        let after = self.next[out] as usize;
        self.next[inn] = after as u16;
        self.prev[after] = inn as u16;
        // In G: w→v→u becomes w→u, kept in `g_out`.
        let before = self.prev[g_in] as usize;
        self.origin[g_out] = w;
        self.next[before] = g_out as u16;
        self.prev[g_out] = before as u16;
        self.edge_alive[out] = false;
        self.edge_alive[g_in] = false;
        self.face_edge[fm] = inn as u16;
        self.face_edge[fg] = g_out as u16;
        Some((fm, fg))
    }

    /// Whether face `f` is flat within `tol` over the vertices in `mask`, no point of the
    /// cloud sticks out of its plane by more than `tol`, and no corner turns the wrong way
    /// beyond rounding (straight corners pass: a later merge or removal clears them).
    fn face_within_tolerance(
        &self,
        f: usize,
        mask: u64,
        pts: &[DVec3; MAX_HULL_POINTS],
        point_count: usize,
        tol: f64,
    ) -> bool {
        let n = self.face_normal(f, pts);
        let len = dot(n, n).sqrt();
        if len.is_nan() || len <= 0.0 {
            return false;
        }
        let n = scale(n, 1.0 / len);
        let mut lo = f64::INFINITY;
        let mut hi = f64::NEG_INFINITY;
        for v in 0..MAX_HULL_POINTS {
            if mask & (1u64 << v) != 0 {
                let d = dot(n, pts[v]);
                if d < lo {
                    lo = d;
                }
                if d > hi {
                    hi = d;
                }
            }
        }
        if (hi - lo).is_nan() || hi - lo > tol {
            return false;
        }
        if pts[..point_count].iter().any(|&p| dot(n, p) > hi + tol) {
            return false;
        }
        let mut verts = [0u8; MAX_HULL_POINTS];
        let count = self.face_vertices(f, &mut verts);
        for i in 0..count {
            let p = pts[verts[if i == 0 { count - 1 } else { i - 1 }] as usize];
            let v = pts[verts[i] as usize];
            let q = pts[verts[if i + 1 == count { 0 } else { i + 1 }] as usize];
            match corner_height(p, v, q, n) {
                Some(h) if h >= -REFLEX_SLACK * tol => {}
                _ => return false,
            }
        }
        true
    }

    /// How far the vertices of faces `a` and `b` spread along their merged normal
    /// (`na + nb`: Newell normals are area-weighted, so their sum is the merged face's).
    /// Infinite when the normals cancel.
    fn pair_thickness(
        &self,
        a: usize,
        b: usize,
        na: DVec3,
        nb: DVec3,
        pts: &[DVec3; MAX_HULL_POINTS],
    ) -> f64 {
        let n = na + nb;
        let len = dot(n, n).sqrt();
        if len.is_nan() || len <= 0.0 {
            return f64::INFINITY;
        }
        let n = scale(n, 1.0 / len);
        let mut lo = f64::INFINITY;
        let mut hi = f64::NEG_INFINITY;
        let mut verts = [0u8; MAX_HULL_POINTS];
        for f in [a, b] {
            let count = self.face_vertices(f, &mut verts);
            for &v in &verts[..count] {
                let d = dot(n, pts[v as usize]);
                if d < lo {
                    lo = d;
                }
                if d > hi {
                    hi = d;
                }
            }
        }
        hi - lo
    }

    /// Tries the merge across `e` on a copy, then settles every vertex the merge left
    /// between only two faces: when those faces are flat together the other one is
    /// absorbed too (a vertex inside a facet of three triangles), otherwise the vertex
    /// sits on their common straight edge and is removed. Works in `m`, a scratch copy
    /// (one reused buffer keeps the stack small); returns the faces it changed if every
    /// changed face stays within tolerance.
    fn try_merge(
        &self,
        m: &mut Mesh,
        e: usize,
        pts: &[DVec3; MAX_HULL_POINTS],
        point_count: usize,
        tol: f64,
    ) -> Option<Changed> {
        let a = self.face[e] as usize;
        let b = self.face[self.twin[e] as usize] as usize;
        let mut changed = Changed::default();
        changed.add(a, self.vertex_mask(a) | self.vertex_mask(b))?;
        m.clone_from(self);
        let (_, s, t) = m.merge(e)?;
        let mut work = [0u8; MAX_HULL_POINTS];
        work[0] = s;
        work[1] = t;
        let mut todo = 2;
        while todo > 0 {
            todo -= 1;
            let v = work[todo];
            if m.degree(v) != 2 {
                continue;
            }
            let out = (0..MAX_EDGES).find(|&x| m.edge_alive[x] && m.origin[x] == v)?;
            let (f1, f2) = (m.face[out] as usize, m.face[m.twin[out] as usize] as usize);
            // Keep the face already changed, so the other one is the one to settle.
            let (keep, other, edge) = if changed.find(f2).is_some() && changed.find(f1).is_none() {
                (f2, f1, m.twin[out] as usize)
            } else {
                (f1, f2, out)
            };
            let (nk, no) = (m.face_normal(keep, pts), m.face_normal(other, pts));
            if m.pair_thickness(keep, other, nk, no, pts) <= tol {
                // Flat together: absorb the other face. The merge is refused while the two
                // still share a second chain around faces between them; the main loop
                // absorbs it once those have joined.
                if !m.can_merge(edge) {
                    continue;
                }
                let masks = m.vertex_mask(keep) | m.vertex_mask(other) | changed.take(other);
                let (_, s2, t2) = m.merge(edge)?;
                changed.add(keep, masks)?;
                if todo + 2 > MAX_HULL_POINTS {
                    return None;
                }
                work[todo] = s2;
                work[todo + 1] = t2;
                todo += 2;
            } else {
                // A corner between two faces at an angle lies on their common straight
                // edge. Left for the final pass if it cannot go yet.
                let other_mask = m.vertex_mask(other);
                let keep_mask = m.vertex_mask(keep);
                if m.remove_vertex(v).is_some() {
                    changed.add(keep, keep_mask)?;
                    changed.add(other, other_mask)?;
                }
            }
        }
        for k in 0..changed.count {
            let (f, mask) = (changed.faces[k], changed.masks[k]);
            if !m.face_within_tolerance(f, mask, pts, point_count, tol) {
                return None;
            }
        }
        Some(changed)
    }

    /// Removes the vertices still left between only two faces (on their common straight
    /// edge), in index order, where both faces stay within tolerance.
    fn remove_straight_vertices(
        &mut self,
        m: &mut Mesh,
        pts: &[DVec3; MAX_HULL_POINTS],
        point_count: usize,
        tol: f64,
    ) {
        for v in 0..point_count as u8 {
            if self.degree(v) != 2 {
                continue;
            }
            let Some(out) = (0..MAX_EDGES).find(|&x| self.edge_alive[x] && self.origin[x] == v)
            else {
                continue;
            };
            let f1 = self.face[out] as usize;
            let f2 = self.face[self.twin[out] as usize] as usize;
            let (m1, m2) = (self.vertex_mask(f1), self.vertex_mask(f2));
            m.clone_from(self);
            if m.remove_vertex(v).is_some()
                && m.face_within_tolerance(f1, m1, pts, point_count, tol)
                && m.face_within_tolerance(f2, m2, pts, point_count, tol)
            {
                core::mem::swap(self, m);
            }
        }
    }

    /// Merges near-coplanar neighbours, flattest pair first, until no pair qualifies.
    /// `scratch` is working space for trial merges.
    fn merge_coplanar(
        &mut self,
        scratch: &mut Mesh,
        pts: &[DVec3; MAX_HULL_POINTS],
        point_count: usize,
        tol: f64,
    ) {
        let mut rejected = [false; MAX_EDGES];
        loop {
            let mut best = usize::MAX;
            let mut best_thickness = f64::INFINITY;
            for e in 0..MAX_EDGES {
                let t = self.twin[e] as usize;
                if !self.edge_alive[e] || t < e || rejected[e] {
                    continue;
                }
                let (a, b) = (self.face[e] as usize, self.face[t] as usize);
                let (na, nb) = (self.face_normal(a, pts), self.face_normal(b, pts));
                let thickness = self.pair_thickness(a, b, na, nb, pts);
                if thickness <= tol && thickness < best_thickness {
                    best_thickness = thickness;
                    best = e;
                }
            }
            if best == usize::MAX {
                self.remove_straight_vertices(scratch, pts, point_count, tol);
                return;
            }
            match self.try_merge(scratch, best, pts, point_count, tol) {
                Some(changed) => {
                    core::mem::swap(self, scratch);
                    // Pairs around the changed faces get another chance.
                    for e in 0..MAX_EDGES {
                        if self.edge_alive[e] {
                            let (a, b) = (self.face[e], self.face[self.twin[e] as usize]);
                            if changed.find(a as usize).is_some()
                                || changed.find(b as usize).is_some()
                            {
                                rejected[e] = false;
                            }
                        }
                    }
                }
                None => rejected[best] = true,
            }
        }
    }
}

/// Builds the convex hull of `points` into `out`, following the conventions in
/// [`super::hull`]: only the hull's vertices (in input order), one outward unit plane per
/// face, coplanar faces merged into convex polygons, twins adjacent, and the centroid of
/// the solid.
///
/// Points closer than twice the build tolerance (1e-5 of the cloud's largest extent,
/// plus 4 `f32` ulps of its largest coordinate) are welded, the earlier one kept;
/// points on or inside the hull are dropped. The result is the same, bit for bit, for
/// the same input values in the same order.
///
/// A flat cloud (all points within twice the tolerance of one plane: an imported quad,
/// a floor tile, three points) becomes a thin hull, as Godot and Jolt accept it: each
/// corner of its outline is moved [`flat_half_thickness`] to either side of the plane,
/// and the hull of those points is built. Its vertices are then those moved corners.
///
/// # Errors
/// [`Error::Argument`] for fewer than 3 or more than [`MAX_HULL_POINTS`] points, a
/// non-finite coordinate (the value is the point's index), points that are coincident
/// or collinear within the tolerance, or a flat cloud whose outline has more than
/// [`MAX_FLAT_HULL_CORNERS`] corners. On error `out` is unchanged.
///
/// ```
/// use maul3d::geometry::hull::Hull;
/// use maul3d::geometry::quickhull::build_hull;
/// use maul3d::math::Vec3;
/// let mut corners = [Vec3::ZERO; 8];
/// for (i, c) in corners.iter_mut().enumerate() {
///     let s = |bit: usize| if i & bit != 0 { 1.0 } else { -1.0 };
///     *c = Vec3::new(s(1), s(2), s(4));
/// }
/// let mut hull = Hull::default();
/// build_hull(&corners, &mut hull).unwrap();
/// assert_eq!((hull.vertex_count, hull.face_count, hull.edge_count), (8, 6, 24));
///
/// // A flat square: a slab of 8 corners, its faces 2 squares and 4 thin sides.
/// let square = [
///     Vec3::new(-1.0, 0.0, -1.0),
///     Vec3::new(1.0, 0.0, -1.0),
///     Vec3::new(1.0, 0.0, 1.0),
///     Vec3::new(-1.0, 0.0, 1.0),
/// ];
/// build_hull(&square, &mut hull).unwrap();
/// assert_eq!((hull.vertex_count, hull.face_count), (8, 6));
/// ```
pub fn build_hull(points: &[Vec3], out: &mut Hull) -> Result<(), Error> {
    build(points, out, true)
}

/// The half-thickness a flat cloud of build tolerance `tol` gets: at least
/// [`FLAT_HULL_HALF_THICKNESS`], and at least 4 tolerances, so that the thickened cloud
/// is solid for the builder (which calls clouds within 2 tolerances of a plane flat).
pub fn flat_half_thickness(tol: f64) -> f64 {
    let t = 4.0 * tol;
    if t > FLAT_HULL_HALF_THICKNESS as f64 {
        t
    } else {
        FLAT_HULL_HALF_THICKNESS as f64
    }
}

/// [`build_hull`]; a flat cloud is thickened only when `allow_flat` (the thickened cloud
/// is built once more with it false, so a cloud can never be thickened twice).
fn build(points: &[Vec3], out: &mut Hull, allow_flat: bool) -> Result<(), Error> {
    let n = points.len();
    if n < 3 {
        return Err(degenerate("points.len()", n as f64, "at least 3"));
    }
    if n > MAX_HULL_POINTS {
        return Err(degenerate("points.len()", n as f64, "at most 64"));
    }
    if let Some(i) = points.iter().position(|p| !p.is_valid()) {
        return Err(degenerate(
            "hull point (its index)",
            i as f64,
            "finite in every coordinate",
        ));
    }

    let cloud = measure_cloud(points);
    let tol = tolerance(cloud.extent, cloud.max_abs);

    // Weld: a point within the weld distance of an earlier kept point is dropped.
    let weld = 2.0 * tol;
    let weld_sq = weld * weld;
    let mut kept = [0u8; MAX_HULL_POINTS];
    let mut pts = [DVec3::ZERO; MAX_HULL_POINTS];
    let mut count = 0usize;
    for (i, p) in points.iter().enumerate() {
        let d = p.to_f64() - cloud.center;
        let near = pts[..count].iter().any(|&k| {
            let g = k - d;
            dot(g, g) <= weld_sq
        });
        if !near {
            kept[count] = i as u8;
            pts[count] = d;
            count += 1;
        }
    }

    let simplex = match initial_simplex(&pts, count, tol, cloud.extent)? {
        Start::Solid(simplex) => simplex,
        Start::Flat { normal, flatness } => {
            if !allow_flat {
                return Err(degenerate(
                    "points distance from a plane (coplanar)",
                    flatness,
                    "above twice the weld tolerance once thickened",
                ));
            }
            return build_flat(points, &kept, &pts, count, normal, tol, out);
        }
    };

    build_solid(points, &kept, &pts, count, simplex, cloud.max_abs, tol, out)
}

/// The hull of a solid cloud (its welded points `pts[..count]`, at `kept` in `points`,
/// spanning `simplex`). In a frame of its own, so that a flat cloud's second build
/// holds one set of the large working arrays, not two.
#[inline(never)]
#[allow(clippy::too_many_arguments)]
fn build_solid(
    points: &[Vec3],
    kept: &[u8; MAX_HULL_POINTS],
    pts: &[DVec3; MAX_HULL_POINTS],
    count: usize,
    simplex: [u8; 4],
    max_abs: f64,
    tol: f64,
    out: &mut Hull,
) -> Result<(), Error> {
    // The exact hull's working arrays live in its own frame, gone before the merging.
    let mut mesh = exact_mesh(points, kept, count, simplex, max_abs)?;
    let mut scratch = mesh.clone();
    mesh.merge_coplanar(&mut scratch, pts, count, tol);

    let mut hull = Hull::default();
    write_hull(&mesh, points, kept, pts, count, &mut hull)?;
    if check_hull(&hull.view()).is_err() {
        return Err(degenerate(
            "points.len()",
            points.len() as f64,
            "enough for a hull valid within tolerance (these points are too thin or too irregular)",
        ));
    }
    *out = hull;
    Ok(())
}

/// A flat cloud as a thin hull: the corners of its outline (the 2D hull in the plane of
/// unit `normal`, corners within the tolerance of a straight edge dropped), each moved
/// [`flat_half_thickness`] along `+normal` and `-normal`, in input order, then built.
#[inline(never)]
fn build_flat(
    points: &[Vec3],
    kept: &[u8; MAX_HULL_POINTS],
    pts: &[DVec3; MAX_HULL_POINTS],
    count: usize,
    normal: DVec3,
    tol: f64,
    out: &mut Hull,
) -> Result<(), Error> {
    let mut corner = [false; MAX_HULL_POINTS];
    let corners = flat_outline(pts, count, normal, tol, &mut corner);
    if corners > MAX_FLAT_HULL_CORNERS {
        return Err(degenerate(
            "flat hull outline corners",
            corners as f64,
            "at most 32 (each corner of a flat hull becomes two points of its thin hull)",
        ));
    }
    let h = flat_half_thickness(tol);
    let offset = scale(normal, h);
    let mut thick = [Vec3::ZERO; MAX_HULL_POINTS];
    let mut m = 0usize;
    for k in 0..count {
        if corner[k] {
            let p = points[kept[k] as usize].to_f64();
            for q in [p + offset, p - offset] {
                thick[m] = Vec3::new(q.x as f32, q.y as f32, q.z as f32);
                m += 1;
            }
        }
    }
    build(&thick[..m], out, false)
}

/// Marks in `corner` the corners of the outline of the flat cloud `pts[..count]` (the
/// 2D convex hull of the points projected on the plane of unit `normal`) and returns how
/// many. Andrew's monotone chain, sorted by the first plane axis then the second then
/// the index; a point within `tol` of the chord of its neighbours is no corner.
fn flat_outline(
    pts: &[DVec3; MAX_HULL_POINTS],
    count: usize,
    normal: DVec3,
    tol: f64,
    corner: &mut [bool; MAX_HULL_POINTS],
) -> usize {
    // A plane basis: u along the first point's offset from the farthest point from it
    // would do as well; any fixed unit vector not along the normal is simplest.
    let seed = if normal.x.abs() <= normal.y.abs() && normal.x.abs() <= normal.z.abs() {
        DVec3::new(1.0, 0.0, 0.0)
    } else if normal.y.abs() <= normal.z.abs() {
        DVec3::new(0.0, 1.0, 0.0)
    } else {
        DVec3::new(0.0, 0.0, 1.0)
    };
    let u = cross(normal, seed);
    let u = scale(u, 1.0 / dot(u, u).sqrt());
    let v = cross(normal, u);
    let mut xy = [(0.0f64, 0.0f64); MAX_HULL_POINTS];
    for k in 0..count {
        xy[k] = (dot(pts[k], u), dot(pts[k], v));
    }
    // Insertion sort of the indices (at most 64): deterministic, no allocation.
    let mut order = [0u8; MAX_HULL_POINTS];
    for k in 0..count {
        order[k] = k as u8;
    }
    let before = |a: u8, b: u8| {
        let (pa, pb) = (xy[a as usize], xy[b as usize]);
        pa.0 < pb.0 || (pa.0 == pb.0 && (pa.1 < pb.1 || (pa.1 == pb.1 && a < b)))
    };
    for i in 1..count {
        let mut j = i;
        while j > 0 && before(order[j], order[j - 1]) {
            order.swap(j, j - 1);
            j -= 1;
        }
    }
    // Keeps `b` between `a` and `c` only when it turns left by more than `tol`.
    let turns_left = |a: u8, b: u8, c: u8| {
        let (pa, pb, pc) = (xy[a as usize], xy[b as usize], xy[c as usize]);
        let (cx, cy) = (pc.0 - pa.0, pc.1 - pa.1);
        let turn = (pb.0 - pa.0) * cy - (pb.1 - pa.1) * cx;
        // `turn` is twice the triangle's area: the height of b over the chord a–c
        // times the chord's length, positive for a left (counter-clockwise) turn.
        turn > tol * (cx * cx + cy * cy).sqrt()
    };
    let mut chain = [0u8; 2 * MAX_HULL_POINTS];
    let mut len = 0usize;
    // Lower chain, then upper chain: each point of the sorted order, then back.
    for pass in 0..2 {
        let start = len;
        for i in 0..count {
            let k = if pass == 0 {
                order[i]
            } else {
                order[count - 1 - i]
            };
            while len >= start + 2 && !turns_left(chain[len - 2], chain[len - 1], k) {
                len -= 1;
            }
            chain[len] = k;
            len += 1;
        }
        // The last point of each chain starts the other.
        len -= 1;
    }
    let mut corners = 0usize;
    for &k in &chain[..len] {
        if !corner[k as usize] {
            corner[k as usize] = true;
            corners += 1;
        }
    }
    corners
}

/// The exact triangulated hull of the kept points, as a half-edge mesh.
#[inline(never)]
fn exact_mesh(
    points: &[Vec3],
    kept: &[u8; MAX_HULL_POINTS],
    count: usize,
    simplex: [u8; 4],
    max_abs: f64,
) -> Result<Mesh, Error> {
    // Scaling by a power of two and rounding is exact for every coordinate within 12
    // binades of the largest, so the exact collinearities and coplanarities of the input
    // (grids, boxes) survive the snap.
    let snap = grid_scale(max_abs);
    let mut grid = [[0i64; 3]; MAX_HULL_POINTS];
    for k in 0..count {
        let p = points[kept[k] as usize].to_f64();
        grid[k] = [
            (p.x * snap).round() as i64,
            (p.y * snap).round() as i64,
            (p.z * snap).round() as i64,
        ];
    }
    let mut exact = ExactHull::new(&grid[..count], simplex)?;
    for k in 0..count as u8 {
        if !simplex.contains(&k) {
            exact.insert(&grid[..count], k)?;
        }
    }
    Mesh::from_tris(&exact)
}

/// How a cloud starts: four points spanning a solid, or flat (all points within twice
/// the tolerance of the plane of unit `normal`; `flatness` their largest distance).
enum Start {
    Solid([u8; 4]),
    Flat { normal: DVec3, flatness: f64 },
}

/// Four points spanning a solid: the extremes along the longest axis, the farthest from
/// their line, and the farthest from that plane. The first three must clear twice the
/// tolerance (else the cloud is refused); a fourth that does not makes the cloud flat.
fn initial_simplex(
    pts: &[DVec3; MAX_HULL_POINTS],
    count: usize,
    tol: f64,
    extent: f64,
) -> Result<Start, Error> {
    const EXPECTED: &str =
        "above twice the weld tolerance (points not all coincident or collinear)";
    let mut lo = DVec3::ZERO;
    let mut hi = DVec3::ZERO;
    for p in &pts[..count] {
        for (l, h, c) in [
            (&mut lo.x, &mut hi.x, p.x),
            (&mut lo.y, &mut hi.y, p.y),
            (&mut lo.z, &mut hi.z, p.z),
        ] {
            if c < *l {
                *l = c;
            }
            if c > *h {
                *h = c;
            }
        }
    }
    let size = hi - lo;
    let axis = if size.x >= size.y && size.x >= size.z {
        0
    } else if size.y >= size.z {
        1
    } else {
        2
    };
    let (mut i0, mut i1) = (0usize, 0usize);
    for k in 1..count {
        if pts[k].get(axis) < pts[i0].get(axis) {
            i0 = k;
        }
        if pts[k].get(axis) > pts[i1].get(axis) {
            i1 = k;
        }
    }
    let ab = pts[i1] - pts[i0];
    let ab_sq = dot(ab, ab);
    if count < 2 || ab_sq.sqrt() <= 2.0 * tol {
        return Err(degenerate(
            "points extent (all coincident)",
            extent,
            EXPECTED,
        ));
    }

    let mut i2 = usize::MAX;
    let mut best = 0.0;
    for k in 0..count {
        let c = cross(pts[k] - pts[i0], ab);
        let d_sq = dot(c, c) / ab_sq;
        if d_sq > best {
            best = d_sq;
            i2 = k;
        }
    }
    if i2 == usize::MAX || best.sqrt() <= 2.0 * tol {
        return Err(degenerate(
            "points distance from a line (collinear)",
            best.sqrt(),
            EXPECTED,
        ));
    }

    let normal = cross(ab, pts[i2] - pts[i0]);
    let normal = scale(normal, 1.0 / dot(normal, normal).sqrt());
    let mut i3 = usize::MAX;
    let mut best = 0.0;
    for k in 0..count {
        let d = dot(normal, pts[k] - pts[i0]).abs();
        if d > best {
            best = d;
            i3 = k;
        }
    }
    if i3 == usize::MAX || best <= 2.0 * tol {
        return Ok(Start::Flat {
            normal,
            flatness: best,
        });
    }
    Ok(Start::Solid([i0 as u8, i1 as u8, i2 as u8, i3 as u8]))
}

/// Writes the merged mesh as a compact hull: vertices in input order, faces in slot
/// order, each face's loop starting at its lowest vertex, twins paired as first met.
fn write_hull(
    mesh: &Mesh,
    points: &[Vec3],
    kept: &[u8; MAX_HULL_POINTS],
    pts: &[DVec3; MAX_HULL_POINTS],
    count: usize,
    hull: &mut Hull,
) -> Result<(), Error> {
    let mut used = [false; MAX_HULL_POINTS];
    for e in 0..MAX_EDGES {
        if mesh.edge_alive[e] {
            used[mesh.origin[e] as usize] = true;
        }
    }
    let mut vertex_id = [NONE8; MAX_HULL_POINTS];
    let mut nv = 0usize;
    for k in 0..count {
        if used[k] {
            vertex_id[k] = nv as u8;
            hull.vertices[nv] = points[kept[k] as usize];
            nv += 1;
        }
    }

    let mut face_id = [NONE8; MAX_TRIS];
    let mut nf = 0usize;
    for f in 0..MAX_TRIS {
        if mesh.face_alive[f] {
            face_id[f] = nf as u8;
            nf += 1;
        }
    }
    if nf > MAX_HULL_FACES {
        return Err(internal());
    }

    // New half-edge index of each mesh half-edge.
    let mut edge_id = [u16::MAX; MAX_EDGES];
    let mut ne = 0usize;
    let mut verts = [0u8; MAX_HULL_POINTS];
    for f in 0..MAX_TRIS {
        if !mesh.face_alive[f] {
            continue;
        }
        // Start at the edge leaving the lowest output vertex.
        let len = mesh.face_vertices(f, &mut verts);
        if len < 3 {
            return Err(internal());
        }
        let mut start = mesh.face_edge[f] as usize;
        let mut e = start;
        for _ in 0..len {
            if vertex_id[mesh.origin[e] as usize] < vertex_id[mesh.origin[start] as usize] {
                start = e;
            }
            e = mesh.next[e] as usize;
        }
        let mut e = start;
        for _ in 0..len {
            if edge_id[e] == u16::MAX {
                if ne + 2 > MAX_HULL_HALF_EDGES {
                    return Err(internal());
                }
                edge_id[e] = ne as u16;
                edge_id[mesh.twin[e] as usize] = (ne + 1) as u16;
                ne += 2;
            }
            e = mesh.next[e] as usize;
        }
        hull.face_edges[face_id[f] as usize] = edge_id[start];

        let n = mesh.face_normal(f, pts);
        let len_n = dot(n, n).sqrt();
        if len_n.is_nan() || len_n <= 0.0 {
            return Err(internal());
        }
        let n = scale(n, 1.0 / len_n);
        let normal = Vec3::new(n.x as f32, n.y as f32, n.z as f32);
        // Supporting plane of all hull vertices: every vertex on or inside.
        let nd = normal.to_f64();
        let mut offset = f64::NEG_INFINITY;
        for v in &hull.vertices[..nv] {
            let d = dot(nd, v.to_f64());
            if d > offset {
                offset = d;
            }
        }
        hull.planes[face_id[f] as usize] = Plane {
            normal,
            offset: offset as f32,
        };
    }
    for e in 0..MAX_EDGES {
        if !mesh.edge_alive[e] {
            continue;
        }
        let id = edge_id[e];
        let next = edge_id[mesh.next[e] as usize];
        let face = face_id[mesh.face[e] as usize];
        let origin = vertex_id[mesh.origin[e] as usize];
        if id == u16::MAX || next == u16::MAX || face == NONE8 || origin == NONE8 {
            return Err(internal());
        }
        hull.edges[id as usize] = HalfEdge {
            next,
            twin: id ^ 1,
            origin,
            face,
        };
    }
    hull.vertex_count = nv as u16;
    hull.face_count = nf as u16;
    hull.edge_count = ne as u16;
    hull.centroid = hull_volume_and_centroid(&hull.view()).1;
    Ok(())
}

/// Checks a hull's invariants: Euler's V − E + F = 2; every half-edge's twin is its
/// index ^ 1, starts where it ends and lies on another face; every face is a closed loop
/// of at least three half-edges, each used once; every vertex is used; planes are unit
/// length; every vertex is on or inside every plane, and each face's vertices on its
/// plane, within the build tolerance (scaled up for `f32` planes); faces are convex
/// within that tolerance and the centroid is inside. Never panics, whatever the view.
pub fn validate_hull(h: &HullView) -> bool {
    check_hull(h).is_ok()
}

/// [`validate_hull`] with the first broken rule.
fn check_hull(h: &HullView) -> Result<(), &'static str> {
    let nv = h.vertices.len();
    let nf = h.planes.len();
    let ne = h.edges.len();
    if !(4..=MAX_HULL_POINTS).contains(&nv)
        || !(4..=MAX_HULL_FACES).contains(&nf)
        || ne > MAX_HULL_HALF_EDGES
        || ne % 2 != 0
        || h.face_edges.len() != nf
    {
        return Err("counts out of range");
    }
    if nv as i64 - (ne / 2) as i64 + nf as i64 != 2 {
        return Err("Euler's formula");
    }
    for (i, e) in h.edges.iter().enumerate() {
        let next = e.next as usize;
        if e.twin as usize != (i ^ 1)
            || next >= ne
            || e.origin as usize >= nv
            || e.face as usize >= nf
            || h.edges[next].face != e.face
        {
            return Err("half-edge indices");
        }
        let twin = h.edges[i ^ 1];
        if twin.origin != h.edges[next].origin || twin.face == e.face || twin.origin == e.origin {
            return Err("twin does not start where the edge ends");
        }
    }
    let mut on_loop = [false; MAX_HULL_HALF_EDGES];
    let mut used = [false; MAX_HULL_POINTS];
    for (f, &start) in h.face_edges.iter().enumerate() {
        let start = start as usize;
        if start >= ne {
            return Err("face edge out of range");
        }
        let mut e = start;
        let mut len = 0;
        loop {
            if on_loop[e] || h.edges[e].face as usize != f {
                return Err("face loop broken");
            }
            on_loop[e] = true;
            used[h.edges[e].origin as usize] = true;
            len += 1;
            e = h.edges[e].next as usize;
            if e == start {
                break;
            }
        }
        if len < 3 {
            return Err("face with fewer than three edges");
        }
    }
    if on_loop[..ne].iter().any(|&x| !x) || used[..nv].iter().any(|&x| !x) {
        return Err("half-edge or vertex unused");
    }

    let cloud = measure_cloud(h.vertices);
    // Faces may bend by the tolerance and planes sit at the outermost vertex; f32 planes
    // add rounding on top.
    let tol = 4.0 * tolerance(cloud.extent, cloud.max_abs);
    for (f, plane) in h.planes.iter().enumerate() {
        let n = plane.normal.to_f64();
        let len_sq = dot(n, n);
        if len_sq.is_nan() || (len_sq - 1.0).abs() > 1.0e-5 || !plane.offset.is_finite() {
            return Err("plane not unit length");
        }
        let offset = plane.offset as f64;
        if h.vertices.iter().any(|v| {
            let d = dot(n, v.to_f64()) - offset;
            d.is_nan() || d > tol
        }) {
            return Err("vertex outside a plane");
        }
        let c = dot(n, h.centroid.to_f64()) - offset;
        if c.is_nan() || c >= 0.0 {
            return Err("centroid not inside");
        }
        let start = h.face_edges[f] as usize;
        let mut e = start;
        loop {
            let p = h.vertices[h.edges[e].origin as usize].to_f64();
            let next = h.edges[e].next as usize;
            let v = h.vertices[h.edges[next].origin as usize].to_f64();
            let q = h.vertices[h.edges[h.edges[next].next as usize].origin as usize].to_f64();
            let d = dot(n, v) - offset;
            if d.is_nan() || d < -tol {
                return Err("face vertex off its plane");
            }
            match corner_height(p, v, q, n) {
                Some(c) if c >= -tol => {}
                _ => return Err("reflex or degenerate corner"),
            }
            e = next;
            if e == start {
                break;
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::{Quat, cos, sin};

    /// Box3D's sample generator: `state = state * 2147001325 + 715136305`.
    struct Lcg(u32);

    impl Lcg {
        fn next(&mut self) -> u32 {
            self.0 = self.0.wrapping_mul(2147001325).wrapping_add(715136305);
            self.0
        }

        /// In [-0.5, 0.5].
        fn float(&mut self) -> f32 {
            (self.next() & 0xffff) as f32 / 65535.0 - 0.5
        }

        /// Uniform in the ball of radius 0.5, by rejection.
        fn in_ball(&mut self) -> Vec3 {
            loop {
                let x = self.float();
                let y = self.float();
                let z = self.float();
                if x * x + y * y + z * z <= 0.25 {
                    return Vec3::new(x, y, z);
                }
            }
        }
    }

    fn box_corners(half: Vec3, center: Vec3, q: Quat) -> [Vec3; 8] {
        let mut c = [Vec3::ZERO; 8];
        for (i, p) in c.iter_mut().enumerate() {
            let s = |bit: usize| if i & bit != 0 { 1.0 } else { -1.0 };
            *p = q.rotate(Vec3::new(s(1) * half.x, s(2) * half.y, s(4) * half.z)) + center;
        }
        c
    }

    fn build(points: &[Vec3]) -> Hull {
        let mut h = Hull::default();
        build_hull(points, &mut h).expect("hull builds");
        assert!(validate_hull(&h.view()));
        h
    }

    fn face_len(h: &Hull, f: usize) -> usize {
        let start = h.face_edges[f] as usize;
        let mut e = start;
        let mut n = 0;
        loop {
            n += 1;
            e = h.edges[e].next as usize;
            if e == start {
                return n;
            }
        }
    }

    /// Every corner turns left by more than `margin` (distance beyond the chord).
    fn assert_strictly_convex(h: &Hull, margin: f64) {
        for f in 0..h.face_count as usize {
            let n = h.planes[f].normal.to_f64();
            let start = h.face_edges[f] as usize;
            let mut e = start;
            loop {
                let next = h.edges[e].next as usize;
                let p = h.vertices[h.edges[e].origin as usize].to_f64();
                let v = h.vertices[h.edges[next].origin as usize].to_f64();
                let q = h.vertices[h.edges[h.edges[next].next as usize].origin as usize].to_f64();
                let c = corner_height(p, v, q, n).unwrap();
                assert!(c > margin, "face {f} corner height {c}");
                e = next;
                if e == start {
                    break;
                }
            }
        }
    }

    fn assert_points_inside(h: &Hull, points: &[Vec3], tol: f32) {
        for p in points {
            for plane in &h.planes[..h.face_count as usize] {
                assert!(
                    plane.distance(*p) <= tol,
                    "{p:?} is {} out",
                    plane.distance(*p)
                );
            }
        }
    }

    fn assert_box_shape(h: &Hull) {
        assert_eq!(h.vertex_count, 8);
        assert_eq!(h.face_count, 6);
        assert_eq!(h.edge_count, 24);
        for f in 0..6 {
            assert_eq!(face_len(h, f), 4);
        }
        assert_strictly_convex(h, 0.1);
    }

    fn assert_same_bits(a: &Hull, b: &Hull) {
        assert_eq!(
            (a.vertex_count, a.face_count, a.edge_count),
            (b.vertex_count, b.face_count, b.edge_count)
        );
        let bits = |v: Vec3| [v.x.to_bits(), v.y.to_bits(), v.z.to_bits()];
        for (x, y) in a.vertices.iter().zip(b.vertices.iter()) {
            assert_eq!(bits(*x), bits(*y));
        }
        for (x, y) in a.planes.iter().zip(b.planes.iter()) {
            assert_eq!(bits(x.normal), bits(y.normal));
            assert_eq!(x.offset.to_bits(), y.offset.to_bits());
        }
        assert_eq!(a.face_edges, b.face_edges);
        assert_eq!(a.edges, b.edges);
        assert_eq!(bits(a.centroid), bits(b.centroid));
    }

    #[test]
    fn box_corners_give_six_quads_and_twenty_four_half_edges() {
        let h = build(&box_corners(
            Vec3::new(1.0, 2.0, 3.0),
            Vec3::ZERO,
            Quat::IDENTITY,
        ));
        assert_box_shape(&h);
        assert!(h.centroid.length() < 1e-6);
        // Vertices keep the input order and bits.
        let c = box_corners(Vec3::new(1.0, 2.0, 3.0), Vec3::ZERO, Quat::IDENTITY);
        assert_eq!(&h.vertices[..8], &c);
    }

    #[test]
    fn rotated_offset_box_corners_still_merge_into_six_quads() {
        let q = Quat::from_axis_angle(Vec3::new(0.3, -1.0, 0.7).normalize(), 0.9);
        let c = box_corners(Vec3::new(0.5, 1.5, 0.25), Vec3::new(10.0, -3.0, 7.0), q);
        let h = build(&c);
        assert_box_shape(&h);
        assert!((h.centroid - Vec3::new(10.0, -3.0, 7.0)).length() < 1e-5);
    }

    #[test]
    fn cube_with_extra_points_on_faces_and_edges_gives_the_same_six_quads() {
        let corners = box_corners(Vec3::ONE, Vec3::ZERO, Quat::IDENTITY);
        let mut pts = [Vec3::ZERO; 64];
        let mut n = 0;
        // Some extras before the corners, so they enter the hull first and must be
        // merged away rather than skipped.
        let extras = [
            Vec3::new(1.0, 0.0, 0.0),
            Vec3::new(0.0, -1.0, 0.0),
            Vec3::new(1.0, 1.0, 0.0),
            Vec3::new(0.0, 1.0, -1.0),
            Vec3::new(0.25, 0.5, 1.0),
            Vec3::new(-1.0, -1.0, 0.5),
        ];
        for p in extras {
            pts[n] = p;
            n += 1;
        }
        for c in corners {
            pts[n] = c;
            n += 1;
        }
        // Every face centre and edge midpoint, and a point inside each face.
        for axis in 0..3 {
            for s in [-1.0f32, 1.0] {
                let mut v = [0.0f32; 3];
                v[axis] = s;
                pts[n] = Vec3::new(v[0], v[1], v[2]);
                n += 1;
                v[(axis + 1) % 3] = 0.5;
                v[(axis + 2) % 3] = -0.25;
                pts[n] = Vec3::new(v[0], v[1], v[2]);
                n += 1;
                for t in [-1.0f32, 1.0] {
                    let mut w = [0.0f32; 3];
                    w[axis] = s;
                    w[(axis + 1) % 3] = t;
                    pts[n] = Vec3::new(w[0], w[1], w[2]);
                    n += 1;
                }
            }
        }
        let h = build(&pts[..n]);
        assert_box_shape(&h);
        let mut sorted = [Vec3::ZERO; 8];
        sorted.copy_from_slice(&h.vertices[..8]);
        for c in corners {
            assert!(sorted.contains(&c));
        }
    }

    #[test]
    fn rotated_cube_surface_lattice_gives_six_quads() {
        // The 56 surface points of a 4×4×4 lattice, rotated: each face holds 16 points
        // coplanar only up to f32 rounding.
        let q = Quat::from_axis_angle(Vec3::new(1.0, -2.0, 0.5).normalize(), 2.1);
        let mut pts = [Vec3::ZERO; 56];
        let mut n = 0;
        let c = [-1.0f32, -1.0 / 3.0, 1.0 / 3.0, 1.0];
        for i in 0..64 {
            let (x, y, z) = (i % 4, (i / 4) % 4, i / 16);
            let on_surface = [x, y, z].iter().any(|&k| k == 0 || k == 3);
            if on_surface {
                pts[n] = q.rotate(Vec3::new(c[x], c[y], c[z])) + Vec3::new(0.5, 2.0, -1.0);
                n += 1;
            }
        }
        assert_eq!(n, 56);
        let h = build(&pts);
        assert_box_shape(&h);
        assert_points_inside(&h, &pts, 1e-5);
    }

    #[test]
    fn random_cloud_with_sphere_points_builds_a_valid_hull_holding_every_point() {
        let mut rng = Lcg(7);
        let mut pts = [Vec3::ZERO; 64];
        for p in pts.iter_mut().take(32) {
            *p = rng.in_ball() * 1.2;
        }
        for p in pts.iter_mut().skip(32) {
            *p = rng.in_ball().normalize();
        }
        let h = build(&pts);
        assert_points_inside(&h, &pts, 1e-5);
        // This sphere hull's inradius is 0.65, so none of the inner points (radius at most
        // 0.6) is a vertex, and every sphere point is.
        assert_eq!(h.vertex_count, 32);
        for v in &h.vertices[..h.vertex_count as usize] {
            assert!((v.length() - 1.0).abs() < 1e-6);
        }
    }

    #[test]
    fn same_input_twice_gives_identical_bits() {
        let mut rng = Lcg(1234);
        let mut pts = [Vec3::ZERO; 64];
        for p in pts.iter_mut() {
            *p = rng.in_ball() * 3.0 + Vec3::new(100.0, -50.0, 20.0);
        }
        let a = build(&pts);
        let mut b = build(&box_corners(Vec3::ONE, Vec3::ZERO, Quat::IDENTITY));
        build_hull(&pts, &mut b).unwrap();
        assert_same_bits(&a, &b);
        let c = build(&pts);
        assert_same_bits(&a, &c);
    }

    #[test]
    fn interior_points_are_dropped() {
        let corners = box_corners(Vec3::new(2.0, 1.0, 1.0), Vec3::ZERO, Quat::IDENTITY);
        let mut pts = [Vec3::ZERO; 40];
        let mut rng = Lcg(99);
        for p in pts.iter_mut().take(32) {
            *p = Vec3::new(3.0 * rng.float(), 1.5 * rng.float(), 1.5 * rng.float());
        }
        pts[32..].copy_from_slice(&corners);
        let h = build(&pts);
        assert_box_shape(&h);
        assert_eq!(&h.vertices[..8], &corners);
    }

    #[test]
    fn duplicate_points_are_welded() {
        let corners = box_corners(Vec3::ONE, Vec3::ZERO, Quat::IDENTITY);
        let mut pts = [Vec3::ZERO; 24];
        pts[..8].copy_from_slice(&corners);
        for i in 0..8 {
            pts[8 + i] = corners[i];
            pts[16 + i] = corners[i] + Vec3::new(1e-6, -1e-6, 1e-6);
        }
        let h = build(&pts);
        assert_box_shape(&h);
        // The first of each welded group is the one kept.
        assert_eq!(&h.vertices[..8], &corners);
    }

    #[test]
    fn far_from_origin_box_builds_within_coordinate_precision() {
        let c = box_corners(
            Vec3::new(0.5, 0.5, 0.5),
            Vec3::new(4000.0, 2500.0, -3000.0),
            Quat::from_axis_angle(Vec3::Z, 0.3),
        );
        let h = build(&c);
        assert_box_shape(&h);
    }

    #[test]
    fn convex_pile_hull_from_box3d_builds_and_validates() {
        let mut rng = Lcg(42);
        let mut pts = [Vec3::ZERO; 32];
        for p in pts.iter_mut() {
            *p = rng.in_ball().normalize() * 2.0;
        }
        let h = build(&pts);
        assert_points_inside(&h, &pts, 1e-5);
        // Points on a sphere are all extreme.
        assert_eq!(h.vertex_count, 32);
    }

    #[test]
    fn errors_name_the_count_and_the_bound() {
        let mut h = Hull::default();
        let pts = [Vec3::ZERO; 65];
        match build_hull(&pts[..2], &mut h) {
            Err(Error::Argument { name, value, .. }) => {
                assert_eq!(name, "points.len()");
                assert_eq!(value, 2.0);
            }
            r => panic!("{r:?}"),
        }
        match build_hull(&pts, &mut h) {
            Err(Error::Argument {
                name,
                value,
                expected,
            }) => {
                assert_eq!(name, "points.len()");
                assert_eq!(value, 65.0);
                assert!(expected.contains("64"));
            }
            r => panic!("{r:?}"),
        }
        assert_eq!(h.vertex_count, 0, "a refused call leaves the hull alone");
    }

    #[test]
    fn non_finite_coordinates_are_refused_with_their_index() {
        let mut pts = box_corners(Vec3::ONE, Vec3::ZERO, Quat::IDENTITY);
        for bad in [f32::NAN, f32::INFINITY, f32::NEG_INFINITY] {
            pts[5].y = bad;
            let mut h = Hull::default();
            match build_hull(&pts, &mut h) {
                Err(Error::Argument { value, .. }) => assert_eq!(value, 5.0),
                r => panic!("{r:?}"),
            }
        }
    }

    #[test]
    fn degenerate_clouds_are_refused() {
        let mut h = Hull::default();
        let same = [Vec3::new(1.0, 2.0, 3.0); 6];
        let line: [Vec3; 5] = core::array::from_fn(|i| Vec3::new(i as f32, 2.0 * i as f32, 1.0));
        let nearly_line: [Vec3; 4] = [
            Vec3::new(0.0, 0.0, 0.0),
            Vec3::new(1.0, 0.0, 0.0),
            Vec3::new(2.0, 1e-7, 0.0),
            Vec3::new(3.0, 0.0, 1e-7),
        ];
        for (pts, what) in [
            (&same[..], "coincident"),
            (&line[..], "collinear"),
            (&nearly_line[..], "collinear"),
            (&line[..2], "points.len()"),
        ] {
            match build_hull(pts, &mut h) {
                Err(Error::Argument { name, .. }) => assert!(name.contains(what), "{name}"),
                r => panic!("{what}: {r:?}"),
            }
        }
        // A cloud of only zeros has no scale at all.
        assert!(build_hull(&[Vec3::ZERO; 4], &mut h).is_err());
        assert_eq!(h.vertex_count, 0, "a refused call leaves the hull alone");
    }

    /// Asserts `h` is the thin hull of the flat `pts`: valid, every point inside, and
    /// two faces parallel to the points' plane (unit `n`) `2 × half` apart, the points
    /// midway.
    fn assert_thin_hull_of(h: &Hull, pts: &[Vec3], n: Vec3, half: f32) {
        assert_eq!(check_hull(&h.view()), Ok(()));
        assert_points_inside(h, pts, 1e-5);
        let planes = &h.planes[..h.face_count as usize];
        let top = planes
            .iter()
            .find(|p| p.normal.dot(n) > 0.9999)
            .expect("a top face");
        let bottom = planes
            .iter()
            .find(|p| p.normal.dot(n) < -0.9999)
            .expect("a bottom face");
        let on = n.dot(pts[0]);
        assert!((top.offset - (on + half)).abs() < 1e-5, "{top:?}");
        assert!((bottom.offset - (-on + half)).abs() < 1e-5, "{bottom:?}");
        for v in &h.vertices[..h.vertex_count as usize] {
            assert!(((v.dot(n) - on).abs() - half).abs() < 1e-5, "{v:?}");
        }
    }

    #[test]
    fn a_flat_grid_builds_a_thin_slab_of_its_outline_corners() {
        // A 3 × 3 grid on a tilted plane: the edge midpoints and the centre are no
        // corners, so the slab has 4 × 2 vertices and 6 faces.
        let plane: [Vec3; 9] = core::array::from_fn(|i| {
            let (x, y) = ((i % 3) as f32, (i / 3) as f32);
            Vec3::new(x, y, 0.5 * x - 0.25 * y + 1.0)
        });
        let n = Vec3::new(-0.5, 0.25, 1.0).normalize();
        let h = build(&plane);
        assert_eq!((h.vertex_count, h.face_count, h.edge_count), (8, 6, 24));
        assert_thin_hull_of(&h, &plane, n, FLAT_HULL_HALF_THICKNESS);
        // The vertices are the moved corners, in input order (corner 0 first).
        assert!((h.vertices[0] - plane[0]).length() < 0.003);
        assert!((h.vertices[7] - plane[8]).length() < 0.003);
    }

    #[test]
    fn three_points_and_nearly_flat_clouds_build_thin_hulls() {
        let tri = [
            Vec3::new(-6.0, 0.0, -6.0),
            Vec3::new(6.0, 0.0, -6.0),
            Vec3::new(0.0, 0.0, 8.0),
        ];
        let h = build(&tri);
        assert_eq!((h.vertex_count, h.face_count), (6, 5));
        assert_thin_hull_of(&h, &tri, Vec3::Y, FLAT_HULL_HALF_THICKNESS);

        let nearly_plane: [Vec3; 4] = [
            Vec3::new(0.0, 0.0, 0.0),
            Vec3::new(1.0, 0.0, 0.0),
            Vec3::new(0.0, 1.0, 0.0),
            Vec3::new(1.0, 1.0, 1e-7),
        ];
        let h = build(&nearly_plane);
        assert_eq!((h.vertex_count, h.face_count), (8, 6));
        assert_points_inside(&h, &nearly_plane, 1e-6);
    }

    #[test]
    fn a_wide_flat_cloud_is_thickened_by_four_tolerances() {
        // 2 km across: 4 tolerances (8 cm) exceed the 2.5 mm least half-thickness.
        let square = [
            Vec3::new(-1000.0, 3.0, -1000.0),
            Vec3::new(1000.0, 3.0, -1000.0),
            Vec3::new(1000.0, 3.0, 1000.0),
            Vec3::new(-1000.0, 3.0, 1000.0),
        ];
        let cloud = measure_cloud(&square);
        let half = flat_half_thickness(tolerance(cloud.extent, cloud.max_abs));
        assert!(half > 0.08 && half < 0.09, "{half}");
        let h = build(&square);
        let top = h.planes[..h.face_count as usize]
            .iter()
            .find(|p| p.normal.y > 0.9999)
            .unwrap();
        assert!((top.offset - (3.0 + half as f32)).abs() < 1e-3, "{top:?}");
    }

    #[test]
    fn a_flat_outline_of_at_most_32_corners_builds_and_more_is_refused() {
        // k points on a parabola: every one a corner of the flat outline.
        let ring = |k: usize| -> [Vec3; 64] {
            core::array::from_fn(|i| {
                let x = (i % k) as f32 - 0.5 * k as f32;
                Vec3::new(x, 0.0, x * x / 16.0)
            })
        };
        let mut h = Hull::default();
        let ok = ring(32);
        build_hull(&ok[..32], &mut h).unwrap();
        assert_eq!(h.vertex_count, 64);
        assert_thin_hull_of(&h, &ok[..32], Vec3::Y, FLAT_HULL_HALF_THICKNESS);
        let many = ring(33);
        match build_hull(&many[..33], &mut h) {
            Err(Error::Argument { name, value, .. }) => {
                assert_eq!((name, value), ("flat hull outline corners", 33.0));
            }
            r => panic!("{r:?}"),
        }
        assert_eq!(h.vertex_count, 64, "a refused call leaves the hull alone");
    }

    #[test]
    fn flat_clouds_build_the_same_bits_twice() {
        let plane: [Vec3; 16] = core::array::from_fn(|i| {
            let (x, y) = ((i % 4) as f32 * 0.7, (i / 4) as f32 * 1.3);
            Vec3::new(x, 0.2 * x + 0.1 * y, y)
        });
        let a = build(&plane);
        let b = build(&plane);
        assert_eq!(a.vertices, b.vertices);
        assert_eq!(a.edges, b.edges);
        assert_eq!(a.planes, b.planes);
    }

    #[test]
    fn huge_and_tiny_clouds_build() {
        for s in [1.0e-20f32, 1.0e-3, 1.0e3, 1.0e30] {
            let mut pts = [Vec3::ZERO; 40];
            let mut rng = Lcg(5);
            for p in pts.iter_mut() {
                *p = rng.in_ball() * s;
            }
            let h = build(&pts);
            assert_points_inside(&h, &pts, 1e-5 * s);
        }
    }

    #[test]
    fn cylinder_points_give_polygon_caps_and_quad_sides() {
        const N: usize = 24;
        let mut pts = [Vec3::ZERO; 2 * N];
        for i in 0..N {
            let a = 2.0 * crate::math::PI * i as f32 / N as f32;
            let (x, y) = (cos(a), sin(a));
            pts[2 * i] = Vec3::new(x, y, -1.0);
            pts[2 * i + 1] = Vec3::new(x, y, 1.0);
        }
        let h = build(&pts);
        assert_eq!(h.vertex_count as usize, 2 * N);
        assert_eq!(h.face_count as usize, N + 2);
        let mut caps = 0;
        for f in 0..h.face_count as usize {
            match face_len(&h, f) {
                4 => {}
                N => caps += 1,
                k => panic!("face with {k} edges"),
            }
        }
        assert_eq!(caps, 2);
        assert_strictly_convex(&h, 1e-3);
    }

    #[test]
    fn random_clouds_of_every_size_build_and_hold_their_points() {
        let mut rng = Lcg(2024);
        for n in 4..=MAX_HULL_POINTS {
            let mut pts = [Vec3::ZERO; MAX_HULL_POINTS];
            for p in pts.iter_mut().take(n) {
                *p = Vec3::new(rng.float(), 2.0 * rng.float(), 0.5 * rng.float());
            }
            let mut h = Hull::default();
            match build_hull(&pts[..n], &mut h) {
                Ok(()) => {
                    assert!(validate_hull(&h.view()));
                    assert_points_inside(&h, &pts[..n], 1e-5);
                }
                // Only a handful of random points may be too flat.
                Err(e) => assert!(n < 8, "{n} points: {e}"),
            }
        }
    }

    #[test]
    fn hull_builds_on_a_small_thread_stack() {
        // The builder keeps under 32 KiB (about 24 KiB measured at opt-level 2); the
        // thread also holds this closure's own 5 KiB hull and its start-up frames.
        let handle = std::thread::Builder::new()
            .stack_size(40 * 1024)
            .spawn(|| {
                let mut rng = Lcg(42);
                let mut pts = [Vec3::ZERO; 64];
                for p in pts.iter_mut() {
                    *p = rng.in_ball();
                }
                let mut h = Hull::default();
                let solid = build_hull(&pts, &mut h).is_ok();
                // A flat 8 × 8 grid takes the thin-hull path, which builds twice.
                for (i, p) in pts.iter_mut().enumerate() {
                    *p = Vec3::new((i % 8) as f32, 0.25 * (i / 8) as f32, (i / 8) as f32);
                }
                solid && build_hull(&pts, &mut h).is_ok() && h.vertex_count == 8
            })
            .unwrap();
        assert!(handle.join().unwrap());
    }

    #[test]
    fn validate_hull_catches_broken_hulls() {
        let h = build(&box_corners(Vec3::ONE, Vec3::ZERO, Quat::IDENTITY));
        assert!(validate_hull(&h.view()));

        let mut bad = h.clone();
        bad.planes[2].offset -= 0.5;
        assert!(!validate_hull(&bad.view()), "a plane cutting a vertex");

        let mut bad = h.clone();
        bad.planes[0].normal *= 1.01;
        assert!(!validate_hull(&bad.view()), "a plane not unit length");

        let mut bad = h.clone();
        bad.edges[3].twin = 7;
        assert!(!validate_hull(&bad.view()), "a twin not index ^ 1");

        let mut bad = h.clone();
        let e = bad.face_edges[1] as usize;
        bad.edges[e].next = e as u16;
        assert!(!validate_hull(&bad.view()), "a broken face loop");

        let mut bad = h.clone();
        bad.edges[0].origin = 200;
        assert!(!validate_hull(&bad.view()), "a vertex out of range");

        let mut bad = h.clone();
        bad.face_count = 5;
        assert!(!validate_hull(&bad.view()), "Euler");

        let mut bad = h.clone();
        bad.vertices[0].x = f32::NAN;
        assert!(!validate_hull(&bad.view()), "NaN vertex");

        // The box hull's fixed topology passes too.
        let b = crate::geometry::hull::BoxHull::new(Vec3::ONE, Vec3::ZERO, Quat::IDENTITY);
        assert!(validate_hull(&b.view()));
    }
}

#[cfg(test)]
mod stress {
    //! Thousands of hostile clouds: exact grids full of coplanar and collinear points,
    //! rotated grids and boxes coplanar only up to rounding, jittered boxes, thin slabs,
    //! duplicates, cylinders and near-tolerance clusters.
    use super::*;
    use crate::math::{PI, Quat, cos, sin};

    struct Lcg(u32);

    impl Lcg {
        fn next(&mut self) -> u32 {
            self.0 = self.0.wrapping_mul(2147001325).wrapping_add(715136305);
            self.0
        }

        fn float(&mut self) -> f32 {
            (self.next() & 0xffff) as f32 / 65535.0 - 0.5
        }
    }

    fn cloud(seed: u32, pts: &mut [Vec3; 64]) -> usize {
        let mut rng = Lcg(seed);
        let q = Quat::new(rng.float(), rng.float(), rng.float(), rng.float()).normalize();
        let n = 4 + (rng.next() % 61) as usize;
        for i in 0..n {
            let g = rng.next() as usize;
            pts[i] = match seed % 9 {
                0 => Vec3::new(rng.float(), rng.float(), rng.float()),
                1 => q.rotate(Vec3::new(
                    (g % 3) as f32,
                    ((g / 3) % 3) as f32,
                    ((g / 9) % 3) as f32,
                )),
                2 => Vec3::new((g % 4) as f32, ((g / 4) % 4) as f32, ((g / 16) % 4) as f32),
                3 => {
                    // Box corners, then points on its faces, jittered and rotated.
                    let b = i % 8;
                    let s = |bit: usize| if b & bit != 0 { 1.0 } else { -1.0 };
                    let mut v = [s(1), s(2), s(4)];
                    if i >= 8 {
                        let axis = g % 3;
                        for (k, c) in v.iter_mut().enumerate() {
                            if k != axis {
                                *c = 2.0 * rng.float();
                            }
                        }
                    }
                    let j = Vec3::splat(1e-6 * rng.float());
                    q.rotate(Vec3::new(v[0], v[1], v[2]) + j) + Vec3::splat(5.0)
                }
                4 => Vec3::new(rng.float(), rng.float(), 1e-3 * rng.float()),
                5 => {
                    if i > 0 && g % 4 == 0 {
                        pts[i - 1]
                    } else {
                        Vec3::new(rng.float(), rng.float(), rng.float()).normalize()
                    }
                }
                6 => {
                    let a = 2.0 * PI * (i / 2) as f32 / (n as f32 / 2.0 + 1.0);
                    let z = if i % 2 == 0 { -0.5 } else { 0.5 };
                    q.rotate(Vec3::new(cos(a), sin(a), z))
                }
                7 => {
                    // Grid points on the faces of a rotated cube.
                    let f = [
                        ((g % 5) as f32 - 2.0) * 0.5,
                        (((g / 5) % 5) as f32 - 2.0) * 0.5,
                        if (g / 25) % 2 == 0 { -1.0 } else { 1.0 },
                    ];
                    let r = (g / 50) % 3;
                    q.rotate(Vec3::new(f[r % 3], f[(r + 1) % 3], f[(r + 2) % 3]))
                }
                _ => {
                    // Clusters around lattice points with noise near the tolerance.
                    let c = Vec3::new(
                        (i % 5) as f32 - 2.0,
                        (i % 3) as f32 - 1.0,
                        (i % 7) as f32 - 3.0,
                    );
                    c + Vec3::new(rng.float(), rng.float(), rng.float()) * 1e-4
                }
            };
        }
        n
    }

    #[test]
    fn hostile_clouds_build_valid_strictly_convex_hulls_or_are_refused_as_degenerate() {
        let mut built = 0;
        for seed in 0..4500u32 {
            let mut pts = [Vec3::ZERO; 64];
            let n = cloud(seed, &mut pts);
            let pts = &pts[..n];
            let mut h = Hull::default();
            match build_hull(pts, &mut h) {
                Ok(()) => built += 1,
                Err(Error::Argument { name, .. }) => {
                    // Only tiny clouds, lines or flat clouds with too many corners.
                    assert!(
                        name.contains("collinear")
                            || name.contains("coincident")
                            || name.contains("outline"),
                        "seed {seed}: {name}"
                    );
                    continue;
                }
                Err(e) => panic!("seed {seed}: {e}"),
            }
            assert_eq!(check_hull(&h.view()), Ok(()), "seed {seed}");
            let cloud = measure_cloud(pts);
            let tol = 4.0 * tolerance(cloud.extent, cloud.max_abs);
            for p in pts {
                for plane in &h.planes[..h.face_count as usize] {
                    assert!(
                        plane.distance(*p) as f64 <= tol,
                        "seed {seed}: point outside"
                    );
                }
            }
            for f in 0..h.face_count as usize {
                let n = h.planes[f].normal.to_f64();
                let start = h.face_edges[f] as usize;
                let mut e = start;
                loop {
                    let next = h.edges[e].next as usize;
                    let p = h.vertices[h.edges[e].origin as usize].to_f64();
                    let v = h.vertices[h.edges[next].origin as usize].to_f64();
                    let after = h.edges[next].next as usize;
                    let q = h.vertices[h.edges[after].origin as usize].to_f64();
                    let c = corner_height(p, v, q, n).unwrap();
                    assert!(c > 0.0, "seed {seed}: face {f} corner {c}");
                    e = next;
                    if e == start {
                        break;
                    }
                }
            }
            let mut again = Hull::default();
            build_hull(pts, &mut again).unwrap();
            assert_eq!(h.edges, again.edges);
            assert_eq!(h.planes, again.planes);
        }
        assert!(built > 4000, "{built}");
    }
}
