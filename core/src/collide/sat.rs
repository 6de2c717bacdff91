//! Separating-axis queries between convex hulls (Dirk Gregorius, "The Separating Axis
//! Test between Convex Polyhedra", GDC 2013): face normals of either hull, and the cross
//! products of edge pairs that form a face of the Minkowski difference.
//!
//! Measuring every axis costs faces × vertices plus edges × edges: for two 32-point hulls
//! (60 faces, 90 edges) the 8,100 edge pairs dominate, and tumbling hulls miss the cached
//! axis often. So past box sizes the test is pruned: a few points of each hull deepest
//! along a guessed normal bound every face's and every edge's separation from above, and
//! only what can still win is measured. The bounds are exact (faces) or carry a margin
//! (edges), so the answer is the full test's, bit for bit, wherever it is read.

use super::{LINEAR_SLOP, SatCache};
use crate::geometry::hull::{HullView, MAX_HULL_FACES, MAX_HULL_HALF_EDGES, Plane};
use crate::math::{Quat, Transform, Vec3, max, min, sqrt};

/// Edge pairs within this sine squared of parallel have no well-defined cross product.
pub(crate) const EDGE_PARALLEL_SIN_SQ: f32 = 0.005 * 0.005;
/// An edge axis wins only if it separates more than this fraction of the best face axis
/// plus `ABS_TOLERANCE`: face contacts give more points and are steadier.
pub(crate) const EDGE_REL_TOLERANCE: f32 = 0.90;
/// A face of B wins only if it separates more than this fraction of the best face of A
/// plus `ABS_TOLERANCE`, so two resting hulls keep one reference face.
pub(crate) const FACE_REL_TOLERANCE: f32 = 0.98;
/// Absolute part of the tolerances above.
pub(crate) const ABS_TOLERANCE: f32 = 0.5 * LINEAR_SLOP;

/// B edges handled per block of the edge query: the per-edge data stays in a small stack
/// buffer (about 1.2 KiB) however many edges the hull has.
const EDGE_BLOCK: usize = 32;

/// The face with the largest separation.
#[derive(Clone, Copy, Debug)]
pub(crate) struct FaceQuery {
    pub index: usize,
    pub separation: f32,
}

/// The edge pair with the largest separation.
#[derive(Clone, Copy, Debug)]
pub(crate) struct EdgeQuery {
    /// Even half-edge of A.
    pub index_a: usize,
    /// Even half-edge of B.
    pub index_b: usize,
    pub separation: f32,
    /// Unit axis in A's frame, pointing from A to B.
    pub normal: Vec3,
}

/// For each plane, the lowest of `points` above it; the plane where that is largest
/// (lowest index on ties). Stops at the first plane whose separation exceeds `limit`.
#[inline]
pub(crate) fn query_faces(planes: &[Plane], points: &[Vec3], limit: f32) -> FaceQuery {
    let mut best = FaceQuery {
        index: 0,
        separation: -f32::MAX,
    };
    for (i, plane) in planes.iter().enumerate() {
        let s = face_separation(plane, points);
        if s > best.separation {
            best = FaceQuery {
                index: i,
                separation: s,
            };
            if s > limit {
                break;
            }
        }
    }
    best
}

/// The lowest of `points` above `plane`. Every face query goes through here, so a face
/// measured by the full query and by the pruned one gives the same bits.
#[inline(always)]
fn face_separation(plane: &Plane, points: &[Vec3]) -> f32 {
    let n = plane.normal;
    // min(n·v) - d rounds the same as min(n·v - d): subtraction is monotonic.
    let mut lowest = f32::MAX;
    for &v in points {
        lowest = min(n.dot(v), lowest);
    }
    lowest - plane.offset
}

/// A block of B's edges in A's frame, as the Gauss map test reads them, one array per
/// component so the test runs branch-free over the block (and LLVM may vectorise it: each
/// lane computes exactly what the scalar code would, so the bits do not change).
struct EdgeBlock {
    /// Negated normals of each edge's two faces (B's Gauss map turned for A − B).
    c: [[f32; EDGE_BLOCK]; 3],
    d: [[f32; EDGE_BLOCK]; 3],
    /// `d × c`, which is along the negated edge direction.
    dxc: [[f32; EDGE_BLOCK]; 3],
    /// Which pairs with the current edge of A pass the test.
    pass: [bool; EDGE_BLOCK],
}

/// The edge pair of A and B whose axis separates most (ties to the lowest pair of
/// indices), among pairs whose arcs cross on the Gauss map. `vb` holds B's vertices in
/// A's frame and `q` turns B's frame into A's. Stops at the first pair beyond `limit`.
#[inline(never)]
pub(crate) fn query_edges(
    a: &HullView,
    b: &HullView,
    vb: &[Vec3],
    q: Quat,
    limit: f32,
) -> EdgeQuery {
    let mut best = EdgeQuery {
        index_a: 0,
        index_b: 0,
        separation: -f32::MAX,
        normal: Vec3::ZERO,
    };
    let count_a = a.edges.len() / 2;
    let count_b = b.edges.len() / 2;
    let mut block = EdgeBlock {
        c: [[0.0; EDGE_BLOCK]; 3],
        d: [[0.0; EDGE_BLOCK]; 3],
        dxc: [[0.0; EDGE_BLOCK]; 3],
        pass: [false; EDGE_BLOCK],
    };
    let mut first = 0;
    while first < count_b {
        let len = Ord::min(EDGE_BLOCK, count_b - first);
        for k in 0..len {
            let j = 2 * (first + k);
            let (e, twin) = (b.edges[j], b.edges[j + 1]);
            let c = -q.rotate(b.planes[e.face as usize].normal);
            let d = -q.rotate(b.planes[twin.face as usize].normal);
            let dxc = vb[e.origin as usize] - vb[twin.origin as usize];
            for (column, value) in [(&mut block.c, c), (&mut block.d, d), (&mut block.dxc, dxc)] {
                column[0][k] = value.x;
                column[1][k] = value.y;
                column[2][k] = value.z;
            }
        }
        for i in 0..count_a {
            let (e, twin) = (a.edges[2 * i], a.edges[2 * i + 1]);
            let pa = a.vertices[e.origin as usize];
            let ea = a.vertices[twin.origin as usize] - pa;
            let u = a.planes[e.face as usize].normal;
            let v = a.planes[twin.face as usize].normal;
            // v × u is along −ea for counter-clockwise faces.
            let bxa = -ea;
            // Arcs u→v and c→d cross (Gregorius' IsMinkowskiFace), written out as dot
            // products in Vec3::dot's order.
            let [cx, cy, cz] = &block.c;
            let [dx, dy, dz] = &block.d;
            let [ex, ey, ez] = &block.dxc;
            for k in 0..len {
                let cba = cx[k] * bxa.x + cy[k] * bxa.y + cz[k] * bxa.z;
                let dba = dx[k] * bxa.x + dy[k] * bxa.y + dz[k] * bxa.z;
                let adc = u.x * ex[k] + u.y * ey[k] + u.z * ez[k];
                let bdc = v.x * ex[k] + v.y * ey[k] + v.z * ez[k];
                block.pass[k] = (cba * dba < 0.0) & (adc * bdc < 0.0) & (cba * bdc > 0.0);
            }
            let ea2 = ea.dot(ea);
            for k in 0..len {
                if !block.pass[k] {
                    continue;
                }
                let j = first + k;
                let eb = Vec3::new(-block.dxc[0][k], -block.dxc[1][k], -block.dxc[2][k]);
                let pb = vb[b.edges[2 * j].origin as usize];
                let Some((n, s)) = edge_axis(pa, ea, ea2, u + v, pb, eb) else {
                    continue;
                };
                if s > best.separation
                    || (s == best.separation && (2 * i, 2 * j) < (best.index_a, best.index_b))
                {
                    best = EdgeQuery {
                        index_a: 2 * i,
                        index_b: 2 * j,
                        separation: s,
                        normal: n,
                    };
                    if s > limit {
                        return best;
                    }
                }
            }
        }
        first += len;
    }
    best
}

/// The axis of an edge pair that passed the Gauss map test, out of A (`out` is the sum
/// of the normals of the A edge's faces), and the separation along it; `None` for
/// near-parallel edges. Shared by the full query and the cached pair so both give the
/// same bits.
#[inline(always)]
fn edge_axis(pa: Vec3, ea: Vec3, ea2: f32, out: Vec3, pb: Vec3, eb: Vec3) -> Option<(Vec3, f32)> {
    let n = ea.cross(eb);
    let l2 = n.length_squared();
    if l2 < EDGE_PARALLEL_SIN_SQ * ea2 * eb.dot(eb) || l2 == 0.0 {
        return None;
    }
    let mut n = n * (1.0 / sqrt(l2));
    // The crossing lies on the short arc between the A edge's face normals: out of A.
    if n.dot(out) < 0.0 {
        n = -n;
    }
    Some((n, n.dot(pb - pa)))
}

/// The edge query of the single pair (`i`, `j`), half-edges of A and B: `None` unless their
/// arcs still cross on the Gauss map and the edges are not near parallel. `vb` holds B's
/// vertices in A's frame and `q` turns B's frame into A's.
pub(crate) fn edge_pair_query(
    a: &HullView,
    b: &HullView,
    vb: &[Vec3],
    q: Quat,
    i: usize,
    j: usize,
) -> Option<EdgeQuery> {
    let (i, j) = (i & !1, j & !1);
    if i + 1 >= a.edges.len() || j + 1 >= b.edges.len() {
        return None;
    }
    let (e, twin) = (a.edges[i], a.edges[i + 1]);
    let pa = a.vertices[e.origin as usize];
    let ea = a.vertices[twin.origin as usize] - pa;
    let u = a.planes[e.face as usize].normal;
    let v = a.planes[twin.face as usize].normal;
    let (f, g) = (b.edges[j], b.edges[j + 1]);
    let c = -q.rotate(b.planes[f.face as usize].normal);
    let d = -q.rotate(b.planes[g.face as usize].normal);
    let pb = vb[f.origin as usize];
    let dxc = pb - vb[g.origin as usize];
    // The same products, in the same order, as the block test in `query_edges`.
    let bxa = -ea;
    let (cba, dba) = (c.dot(bxa), d.dot(bxa));
    let (adc, bdc) = (u.dot(dxc), v.dot(dxc));
    if !(cba * dba < 0.0 && adc * bdc < 0.0 && cba * bdc > 0.0) {
        return None;
    }
    let (normal, separation) = edge_axis(pa, ea, ea.dot(ea), u + v, pb, -dxc)?;
    Some(EdgeQuery {
        index_a: i,
        index_b: j,
        separation,
        normal,
    })
}

/// The unit axis of edge pair (`i`, `j`), half-edges of A and B, in A's frame and out of
/// A; `None` for near-parallel edges. `xf` maps B's frame into A's.
#[inline]
pub(crate) fn edge_pair_axis(
    a: &HullView,
    b: &HullView,
    xf: &Transform,
    i: usize,
    j: usize,
) -> Option<Vec3> {
    let (e, twin) = (a.edges[i], a.edges[i ^ 1]);
    let pa = a.vertices[e.origin as usize];
    let ea = a.vertices[twin.origin as usize] - pa;
    let eb = xf.q.rotate(
        b.vertices[b.edges[j ^ 1].origin as usize] - b.vertices[b.edges[j].origin as usize],
    );
    let n = ea.cross(eb);
    let l2 = n.length_squared();
    if l2 < EDGE_PARALLEL_SIN_SQ * ea.dot(ea) * eb.dot(eb) || l2 == 0.0 {
        return None;
    }
    let n = n * (1.0 / sqrt(l2));
    let out = a.planes[e.face as usize].normal + a.planes[twin.face as usize].normal;
    Some(if n.dot(out) < 0.0 { -n } else { n })
}

/// Separation along the cached axis, measured over both whole hulls (so it is a true
/// separating distance whatever has moved), or `None` if the cache holds no usable axis.
/// `xf` maps B's frame into A's.
pub(crate) fn cached_separation(
    cache: &SatCache,
    a: &HullView,
    b: &HullView,
    xf: &Transform,
) -> Option<f32> {
    match cache.kind {
        SatCache::FACE_A => {
            let plane = *a.planes.get(cache.index_a as usize)?;
            // The plane in B's frame: n·(R v + p) − d = (Rᵀn)·v − (d − n·p).
            let n = xf.q.inv_rotate(plane.normal);
            let offset = plane.offset - plane.normal.dot(xf.p);
            let mut lowest = f32::MAX;
            for &v in b.vertices {
                lowest = min(n.dot(v), lowest);
            }
            Some(lowest - offset)
        }
        SatCache::FACE_B => {
            let plane = *b.planes.get(cache.index_b as usize)?;
            let n = xf.q.rotate(plane.normal);
            let offset = plane.offset + n.dot(xf.p);
            let mut lowest = f32::MAX;
            for &v in a.vertices {
                lowest = min(n.dot(v), lowest);
            }
            Some(lowest - offset)
        }
        SatCache::EDGES => {
            let (i, j) = (cache.index_a as usize, cache.index_b as usize);
            if (i | 1) >= a.edges.len() || (j | 1) >= b.edges.len() {
                return None;
            }
            let n = edge_pair_axis(a, b, xf, i, j)?;
            let nb = xf.q.inv_rotate(n);
            let mut lowest_b = f32::MAX;
            for &v in b.vertices {
                lowest_b = min(nb.dot(v), lowest_b);
            }
            let mut highest_a = -f32::MAX;
            for &v in a.vertices {
                highest_a = max(n.dot(v), highest_a);
            }
            Some(lowest_b + n.dot(xf.p) - highest_a)
        }
        _ => None,
    }
}

/// How many points of the other hull bound each face in the pruned queries.
pub(crate) const WITNESSES: usize = 4;

/// Relative size (of the largest coordinate involved) of the margin added to the edge
/// bounds: it covers how far a hull's vertices may sit off their face planes (quickhull
/// merges faces within 1e-5 of the hull's extent) and the rounding of the products.
const EDGE_BOUND_MARGIN: f32 = 1.0e-4;

/// The heights of the witness points above every face of one hull: their minimum bounds
/// that face's separation, and through its two faces each edge's (see
/// [`query_edges_pruned`]).
pub(crate) type WitnessHeights = [[f32; WITNESSES]; MAX_HULL_FACES];

/// The indices of the `WITNESSES` points lowest along `dir`, lowest first, ties to the
/// lowest index; padded with the lowest when there are fewer points. `points` is not
/// empty.
pub(crate) fn lowest_along(points: &[Vec3], dir: Vec3) -> [usize; WITNESSES] {
    let mut index = [0usize; WITNESSES];
    let mut height = [f32::MAX; WITNESSES];
    let mut count = 0;
    for (i, &p) in points.iter().enumerate() {
        let h = dir.dot(p);
        // Insertion into the sorted few: strict `<` keeps the lower index first on ties.
        let mut k = count;
        while k > 0 && h < height[k - 1] {
            if k < WITNESSES {
                height[k] = height[k - 1];
                index[k] = index[k - 1];
            }
            k -= 1;
        }
        if k < WITNESSES {
            height[k] = h;
            index[k] = i;
            count = Ord::min(count + 1, WITNESSES);
        }
    }
    for k in count..WITNESSES {
        index[k] = index[0];
    }
    index
}

/// The same answer as [`query_faces`], bit for bit, measuring only the faces that can
/// win. A face's separation is the lowest of `points` above it, so the lowest of the
/// `witnesses` (indices into `points`) above it bounds it from above, exactly in floating
/// point too (the same products, and `min` and `- offset` are monotonic). The face with
/// the highest bound is measured first; a face whose bound is below the best separation
/// found cannot win and is skipped. Witnesses near the contact make nearly every bound
/// fall below the best. The witnesses' heights above every face go to `heights`.
pub(crate) fn query_faces_pruned(
    planes: &[Plane],
    points: &[Vec3],
    witnesses: &[usize; WITNESSES],
    limit: f32,
    heights: &mut WitnessHeights,
) -> FaceQuery {
    let w = witnesses.map(|i| points[i]);
    let mut bound = [0.0f32; MAX_HULL_FACES];
    let mut top = 0;
    for (f, plane) in planes.iter().enumerate() {
        let row = &mut heights[f];
        let mut lowest = f32::MAX;
        for k in 0..WITNESSES {
            row[k] = plane.normal.dot(w[k]) - plane.offset;
            lowest = min(row[k], lowest);
        }
        bound[f] = lowest;
        if lowest > bound[top] {
            top = f;
        }
    }
    let planes_bound = &bound[..planes.len()];
    let first = FaceQuery {
        index: top,
        separation: face_separation(&planes[top], points),
    };
    if first.separation > limit {
        // The full query stops at the first face beyond the limit: one of those before
        // `top` may be, and only if its bound is beyond the limit.
        for f in 0..top {
            if planes_bound[f] > limit {
                let s = face_separation(&planes[f], points);
                if s > limit {
                    return FaceQuery {
                        index: f,
                        separation: s,
                    };
                }
            }
        }
        return first;
    }
    let mut best = first;
    for (f, &b) in planes_bound.iter().enumerate() {
        if f == top || b < best.separation {
            continue;
        }
        let s = face_separation(&planes[f], points);
        // The full query keeps the first of equal faces: the lowest index.
        if s > best.separation || (s == best.separation && f < best.index) {
            best = FaceQuery {
                index: f,
                separation: s,
            };
            // Every face before this one is at or below `best` and so within the limit.
            if s > limit {
                return best;
            }
        }
    }
    best
}

/// Which edges of a hull can still belong to an edge pair separating by more than `cut`
/// (plus the margin folded into it): an edge whose two faces both keep some witness of
/// the other hull at or below `cut` cannot. The edge indices (half-edge / 2) go to
/// `out`, in order; returns how many.
fn edges_beyond(
    h: &HullView,
    heights: &WitnessHeights,
    cut: f32,
    out: &mut [u8; MAX_HULL_HALF_EDGES / 2],
) -> usize {
    let mut count = 0;
    for (i, pair) in h.edges.chunks_exact(2).enumerate() {
        let (u, v) = (pair[0].face as usize, pair[1].face as usize);
        if u >= h.planes.len() || v >= h.planes.len() {
            continue;
        }
        let (hu, hv) = (&heights[u], &heights[v]);
        let mut bound = f32::MAX;
        for k in 0..WITNESSES {
            bound = min(max(hu[k], hv[k]), bound);
        }
        // An edge with a NaN bound is kept.
        let pruned = bound <= cut;
        if !pruned && count < out.len() {
            out[count] = i as u8;
            count += 1;
        }
    }
    count
}

/// The same answer as [`query_edges`] wherever it matters: the same edge pair, bit for
/// bit, whenever the best pair separates by more than `threshold` (at most `limit`);
/// below that only the fact that no pair gets there. Only pairs of edges that can still
/// get beyond `threshold` are tested.
///
/// Why the bound holds: an edge pair's axis `n` (out of A) lies on the Gauss-map arc
/// between the normals `u`, `v` of the A edge's faces, `n = (αu + βv) / |αu + βv|` with
/// α, β ≥ 0, and the pair's separation is `n · (pb − pa)` with `pb` lowest of B along
/// `n`. So for any witness `w` of B it is at most `n · (w − pa)`, and where `u · (w −
/// pa)` and `v · (w − pa)` — the heights of `w` above the two faces, as `pa` lies on both
/// — are both at most `m ≤ 0`, `n · (w − pa) ≤ (α + β) m / |αu + βv| ≤ m`, since
/// `|αu + βv| ≤ α + β`. The same holds from B's side with A's witnesses above B's faces.
/// The margin covers vertices a little off their faces' planes and rounding.
///
/// `heights_a` holds B's witnesses above A's faces, `heights_b` A's witnesses above B's
/// faces, from [`query_faces_pruned`]; `vb` holds B's vertices in A's frame and `q` turns
/// B's frame into A's.
#[allow(clippy::too_many_arguments)]
#[inline(never)]
pub(crate) fn query_edges_pruned(
    a: &HullView,
    b: &HullView,
    vb: &[Vec3],
    q: Quat,
    limit: f32,
    threshold: f32,
    heights_a: &WitnessHeights,
    heights_b: &WitnessHeights,
    scale: f32,
) -> EdgeQuery {
    let mut best = EdgeQuery {
        index_a: 0,
        index_b: 0,
        separation: -f32::MAX,
        normal: Vec3::ZERO,
    };
    // The bounds are proven only where they are at most 0.
    let cut = min(threshold, 0.0) - EDGE_BOUND_MARGIN * scale;
    let mut list_a = [0u8; MAX_HULL_HALF_EDGES / 2];
    let mut list_b = [0u8; MAX_HULL_HALF_EDGES / 2];
    let count_a = edges_beyond(a, heights_a, cut, &mut list_a);
    if count_a == 0 {
        return best;
    }
    let count_b = edges_beyond(b, heights_b, cut, &mut list_b);
    let (list_a, list_b) = (&list_a[..count_a], &list_b[..count_b]);

    // B's edges in the blocks of the full query, so that its first pair beyond the limit
    // is found first here too.
    let mut start = 0;
    while start < count_b {
        let block = list_b[start] as usize / EDGE_BLOCK;
        let mut end = start;
        let mut c = [Vec3::ZERO; EDGE_BLOCK];
        let mut d = [Vec3::ZERO; EDGE_BLOCK];
        let mut dxc = [Vec3::ZERO; EDGE_BLOCK];
        while end < count_b && list_b[end] as usize / EDGE_BLOCK == block {
            let j = 2 * list_b[end] as usize;
            let (e, twin) = (b.edges[j], b.edges[j + 1]);
            let k = end - start;
            c[k] = -q.rotate(b.planes[e.face as usize].normal);
            d[k] = -q.rotate(b.planes[twin.face as usize].normal);
            dxc[k] = vb[e.origin as usize] - vb[twin.origin as usize];
            end += 1;
        }
        for &i in list_a {
            let i = 2 * i as usize;
            let (e, twin) = (a.edges[i], a.edges[i + 1]);
            let pa = a.vertices[e.origin as usize];
            let ea = a.vertices[twin.origin as usize] - pa;
            let u = a.planes[e.face as usize].normal;
            let v = a.planes[twin.face as usize].normal;
            let bxa = -ea;
            let ea2 = ea.dot(ea);
            for k in 0..end - start {
                // The products of the full query's block test, in its order.
                let (cba, dba) = (c[k].dot(bxa), d[k].dot(bxa));
                let (adc, bdc) = (u.dot(dxc[k]), v.dot(dxc[k]));
                if !((cba * dba < 0.0) & (adc * bdc < 0.0) & (cba * bdc > 0.0)) {
                    continue;
                }
                let j = 2 * list_b[start + k] as usize;
                let pb = vb[b.edges[j].origin as usize];
                let Some((n, s)) = edge_axis(pa, ea, ea2, u + v, pb, -dxc[k]) else {
                    continue;
                };
                if s > best.separation
                    || (s == best.separation && (i, j) < (best.index_a, best.index_b))
                {
                    best = EdgeQuery {
                        index_a: i,
                        index_b: j,
                        separation: s,
                        normal: n,
                    };
                    if s > limit {
                        return best;
                    }
                }
            }
        }
        start = end;
    }
    best
}

/// `vertices` mapped by `xf` into the front of `buffer` (at least as long).
#[inline]
pub(crate) fn to_frame<'a>(
    xf: &Transform,
    vertices: &[Vec3],
    buffer: &'a mut [Vec3],
) -> &'a [Vec3] {
    for (dst, &v) in buffer.iter_mut().zip(vertices) {
        *dst = xf.apply(v);
    }
    &buffer[..vertices.len()]
}

/// What the full separating-axis test found. A stage after one that separates by more
/// than the limit is not run (`None`).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Axes {
    pub face_a: FaceQuery,
    pub face_b: Option<FaceQuery>,
    pub edge: Option<EdgeQuery>,
}

/// The full separating-axis test, every face and every edge pair: faces of A (against
/// `vb`, B's vertices in A's frame), faces of B (against A's vertices mapped into B's
/// frame by `xf_ba`, written to `va`), then edge pairs, stopping at the first stage that
/// separates by more than `limit`.
#[inline(never)]
pub(crate) fn query_axes(
    a: &HullView,
    b: &HullView,
    vb: &[Vec3],
    xf: &Transform,
    xf_ba: &Transform,
    va: &mut [Vec3],
    limit: f32,
) -> Axes {
    let face_a = query_faces(a.planes, vb, limit);
    if face_a.separation > limit {
        return Axes {
            face_a,
            face_b: None,
            edge: None,
        };
    }
    let va = to_frame(xf_ba, a.vertices, va);
    let face_b = query_faces(b.planes, va, limit);
    if face_b.separation > limit {
        return Axes {
            face_a,
            face_b: Some(face_b),
            edge: None,
        };
    }
    Axes {
        face_a,
        face_b: Some(face_b),
        edge: Some(query_edges(a, b, vb, xf.q, limit)),
    }
}

/// [`query_axes`] measuring only the axes that can win, with the same answer wherever
/// the caller reads it: the same faces bit for bit, and the same edge pair whenever it
/// separates by more than the limit or by more than `EDGE_REL_TOLERANCE` of the best
/// face plus `ABS_TOLERANCE` (the only cases where the caller uses it). `axis` (in A's
/// frame, from A to B) is a guess at the contact normal: the points of each hull deepest
/// along it bound the other hull's faces and edges (see [`query_faces_pruned`] and
/// [`query_edges_pruned`]). A good guess makes the test cheap; a bad one only slower.
#[allow(clippy::too_many_arguments)]
#[inline(never)]
pub(crate) fn query_axes_pruned(
    a: &HullView,
    b: &HullView,
    vb: &[Vec3],
    xf: &Transform,
    xf_ba: &Transform,
    va: &mut [Vec3],
    axis: Vec3,
    limit: f32,
) -> Axes {
    let mut heights_a: WitnessHeights = [[0.0; WITNESSES]; MAX_HULL_FACES];
    let witnesses_b = lowest_along(vb, axis);
    let face_a = query_faces_pruned(a.planes, vb, &witnesses_b, limit, &mut heights_a);
    if face_a.separation > limit {
        return Axes {
            face_a,
            face_b: None,
            edge: None,
        };
    }
    let mut heights_b: WitnessHeights = [[0.0; WITNESSES]; MAX_HULL_FACES];
    // A's deepest points towards B, ranked in A's frame, taken from B's.
    let witnesses_a = lowest_along(a.vertices, -axis);
    let va = to_frame(xf_ba, a.vertices, va);
    let face_b = query_faces_pruned(b.planes, va, &witnesses_a, limit, &mut heights_b);
    if face_b.separation > limit {
        return Axes {
            face_a,
            face_b: Some(face_b),
            edge: None,
        };
    }
    // The caller takes an edge pair only beyond the limit or beyond this.
    let best_face = max(face_a.separation, face_b.separation);
    let threshold = min(limit, EDGE_REL_TOLERANCE * best_face + ABS_TOLERANCE);
    // The largest coordinate the bounds involve, for their margin.
    let mut scale = 0.0f32;
    for &v in a.vertices.iter().chain(vb) {
        scale = max(v.abs().max_element(), scale);
    }
    let edge = query_edges_pruned(
        a, b, vb, xf.q, limit, threshold, &heights_a, &heights_b, scale,
    );
    Axes {
        face_a,
        face_b: Some(face_b),
        edge: Some(edge),
    }
}

/// A guess at the contact normal (A's frame, from A to B) for the pruned test: the
/// cached axis if it is usable, else the line between the centroids.
pub(crate) fn guess_axis(cache: &SatCache, a: &HullView, b: &HullView, xf: &Transform) -> Vec3 {
    match cache.kind {
        SatCache::FACE_A => {
            if let Some(p) = a.planes.get(cache.index_a as usize) {
                return p.normal;
            }
        }
        SatCache::FACE_B => {
            if let Some(p) = b.planes.get(cache.index_b as usize) {
                return -xf.q.rotate(p.normal);
            }
        }
        SatCache::EDGES => {
            let (i, j) = (cache.index_a as usize, cache.index_b as usize);
            if (i | 1) < a.edges.len() && (j | 1) < b.edges.len() {
                if let Some(n) = edge_pair_axis(a, b, xf, i, j) {
                    return n;
                }
            }
        }
        _ => {}
    }
    xf.apply(b.centroid) - a.centroid
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::collide::test_hulls::TestHull;
    use crate::geometry::hull::{BoxHull, Hull, MAX_HULL_VERTICES};
    use crate::geometry::quickhull::build_hull;

    /// A fixed linear congruential sequence in [-1, 1): the same numbers on every target.
    struct Lcg(u64);

    impl Lcg {
        fn next(&mut self) -> f32 {
            self.0 = self
                .0
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            ((self.0 >> 40) as f32 / (1u64 << 24) as f32) * 2.0 - 1.0
        }

        fn vec(&mut self, scale: f32) -> Vec3 {
            Vec3::new(self.next(), self.next(), self.next()) * scale
        }

        fn rotation(&mut self) -> Quat {
            Quat::new(self.next(), self.next(), self.next(), self.next()).normalize()
        }

        /// A point on the sphere of radius `r` (rejection sampled in the cube).
        fn sphere_point(&mut self, r: f32) -> Vec3 {
            loop {
                let v = self.vec(1.0);
                let l = v.length();
                if l > 0.1 && l <= 1.0 {
                    return v * (r / l);
                }
            }
        }
    }

    fn hull_of(points: &[Vec3]) -> Hull {
        let mut h = Hull::default();
        build_hull(points, &mut h).unwrap();
        h
    }

    /// Hulls of every kind the pruning must get right: round (the convex pile's), with
    /// large merged faces off the grid, thin, boxes and prisms.
    fn hulls(rng: &mut Lcg) -> Vec<Hull> {
        let mut out = Vec::new();
        for n in [32, 64, 12] {
            let points: Vec<Vec3> = (0..n).map(|_| rng.sphere_point(2.0)).collect();
            out.push(hull_of(&points));
        }
        // Points snapped to a coarse grid: many coplanar points, merged faces.
        let points: Vec<Vec3> = (0..40)
            .map(|_| {
                let v = rng.vec(1.5);
                Vec3::new(
                    (v.x * 2.0).round() * 0.5,
                    (v.y * 2.0).round() * 0.5,
                    (v.z * 2.0).round() * 0.5,
                )
            })
            .collect();
        out.push(hull_of(&points));
        // A thin slab with a rounded rim.
        let points: Vec<Vec3> = (0..48)
            .map(|k| {
                let p = rng.sphere_point(3.0);
                Vec3::new(p.x, if k % 2 == 0 { 0.05 } else { -0.05 }, p.z)
            })
            .collect();
        out.push(hull_of(&points));
        out
    }

    /// Every stage the caller reads must agree; below the edge threshold, only that the
    /// pruned edge pair stays below it too.
    fn assert_same(full: &Axes, pruned: &Axes, limit: f32, what: &str) {
        assert_eq!(full.face_a.index, pruned.face_a.index, "{what}");
        assert_eq!(
            full.face_a.separation.to_bits(),
            pruned.face_a.separation.to_bits(),
            "{what}"
        );
        assert_eq!(full.face_b.is_some(), pruned.face_b.is_some(), "{what}");
        let (Some(fb), Some(pb)) = (full.face_b, pruned.face_b) else {
            return;
        };
        assert_eq!(fb.index, pb.index, "{what}");
        assert_eq!(fb.separation.to_bits(), pb.separation.to_bits(), "{what}");
        assert_eq!(full.edge.is_some(), pruned.edge.is_some(), "{what}");
        let (Some(fe), Some(pe)) = (full.edge, pruned.edge) else {
            return;
        };
        let best_face = max(full.face_a.separation, fb.separation);
        let threshold = min(limit, EDGE_REL_TOLERANCE * best_face + ABS_TOLERANCE);
        if fe.separation > threshold {
            assert_eq!((fe.index_a, fe.index_b), (pe.index_a, pe.index_b), "{what}");
            assert_eq!(fe.separation.to_bits(), pe.separation.to_bits(), "{what}");
            assert_eq!(fe.normal, pe.normal, "{what}");
        } else {
            assert!(pe.separation <= threshold, "{what}: {fe:?} {pe:?}");
        }
    }

    fn both(
        a: &HullView,
        b: &HullView,
        xf: &Transform,
        axis: Vec3,
        limit: f32,
        what: &str,
    ) -> Axes {
        // A's frame into B's: the inverse of `xf`.
        let xf_ba = xf.inv_mul(&Transform::new(Vec3::ZERO, Quat::IDENTITY));
        let mut vb_buffer = [Vec3::ZERO; MAX_HULL_VERTICES];
        let vb = to_frame(xf, b.vertices, &mut vb_buffer);
        let mut va1 = [Vec3::ZERO; MAX_HULL_VERTICES];
        let mut va2 = [Vec3::ZERO; MAX_HULL_VERTICES];
        let full = query_axes(a, b, vb, xf, &xf_ba, &mut va1, limit);
        let pruned = query_axes_pruned(a, b, vb, xf, &xf_ba, &mut va2, axis, limit);
        assert_same(&full, &pruned, limit, what);
        full
    }

    #[test]
    fn pruned_axes_match_the_full_test_for_any_guess() {
        let limit = 0.02;
        let (mut touching, mut edges_won) = (0, 0);
        // Pebbles to boulders: the edge bounds' margin scales with the coordinates.
        for (scale, seed) in [(1.0f32, 5), (0.05, 6), (50.0, 7)] {
            let mut rng = Lcg(seed);
            let owned: Vec<Hull> = hulls(&mut rng)
                .iter()
                .map(|h| {
                    let points: Vec<Vec3> = h.view().vertices.iter().map(|&v| v * scale).collect();
                    hull_of(&points)
                })
                .collect();
            let boxes = [
                BoxHull::new(Vec3::new(1.0, 0.5, 0.7) * scale, Vec3::ZERO, Quat::IDENTITY),
                BoxHull::new(
                    Vec3::new(3.0, 0.2, 3.0) * scale,
                    Vec3::new(0.5, 0.0, 0.0) * scale,
                    rng.rotation(),
                ),
                // Degenerate: a point and a flat square.
                BoxHull::new(Vec3::ZERO, Vec3::ZERO, Quat::IDENTITY),
                BoxHull::new(Vec3::new(1.0, 0.0, 1.0) * scale, Vec3::ZERO, rng.rotation()),
            ];
            let prism = TestHull::prism(16, 1.2 * scale, 0.6 * scale);
            let mut views: Vec<HullView> = owned.iter().map(|h| h.view()).collect();
            views.extend(boxes.iter().map(|b| b.view()));
            views.push(prism.view());
            for step in 0..3000 {
                let (ia, ib) = (step % views.len(), (step / views.len()) % views.len());
                let (a, b) = (&views[ia], &views[ib]);
                // B placed just about touching A along a random direction.
                let dir = rng.sphere_point(1.0);
                let mut reach_a = -f32::MAX;
                for &v in a.vertices {
                    reach_a = max(dir.dot(v), reach_a);
                }
                let q = rng.rotation();
                let mut reach_b = -f32::MAX;
                for &v in b.vertices {
                    reach_b = max(-dir.dot(q.rotate(v)), reach_b);
                }
                let gap = 0.04 * rng.next() - 0.03;
                let shift = rng.vec(0.01);
                let xf = Transform::new(dir * (reach_a + reach_b + gap) + shift, q);
                let what = format!("scale {scale} pair {ia} {ib} step {step}");
                // Guesses: near the truth, random, backwards, and none at all.
                let guesses = [dir + rng.vec(0.1), rng.sphere_point(1.0), -dir, Vec3::ZERO];
                for axis in guesses {
                    let full = both(a, b, &xf, axis, limit, &what);
                    if let (Some(fb), Some(e)) = (full.face_b, full.edge) {
                        touching += 1;
                        let best = max(full.face_a.separation, fb.separation);
                        edges_won +=
                            (e.separation > EDGE_REL_TOLERANCE * best + ABS_TOLERANCE) as u32;
                    }
                }
            }
        }
        // The poses reach every branch many times.
        assert!(
            touching > 3000 && edges_won > 2000,
            "{touching} {edges_won}"
        );
    }

    #[test]
    fn pruned_axes_match_the_full_test_for_identical_and_aligned_hulls() {
        // Equal hulls in equal or mirrored poses: faces parallel to faces, edges parallel
        // to edges, many exact ties.
        let mut rng = Lcg(9);
        let owned = hulls(&mut rng);
        let boxes = [BoxHull::new(
            Vec3::new(1.0, 0.5, 0.7),
            Vec3::ZERO,
            Quat::IDENTITY,
        )];
        let mut views: Vec<HullView> = owned.iter().map(|h| h.view()).collect();
        views.extend(boxes.iter().map(|b| b.view()));
        let turns = [
            Quat::IDENTITY,
            Quat::from_axis_angle(Vec3::X, core::f32::consts::PI),
            Quat::from_axis_angle(Vec3::Y, core::f32::consts::FRAC_PI_2),
        ];
        for (k, a) in views.iter().enumerate() {
            for (t, &q) in turns.iter().enumerate() {
                for step in 0..40 {
                    let offset = match step % 4 {
                        0 => Vec3::new(0.0, 1.0 + 0.1 * rng.next(), 0.0),
                        1 => rng.vec(0.5),
                        2 => Vec3::ZERO,
                        _ => {
                            let r = 2.0 + 0.5 * rng.next();
                            rng.sphere_point(r)
                        }
                    };
                    let xf = Transform::new(offset, q);
                    let what = format!("hull {k} turn {t} step {step}");
                    for axis in [offset, Vec3::Y, Vec3::ZERO] {
                        both(a, a, &xf, axis, 0.02, &what);
                    }
                }
            }
        }
    }

    #[test]
    fn witnesses_are_the_lowest_points_lowest_index_first() {
        let points = [
            Vec3::new(0.0, 1.0, 0.0),
            Vec3::new(0.0, -1.0, 0.0),
            Vec3::new(0.0, 0.5, 0.0),
            Vec3::new(0.0, -1.0, 0.0),
            Vec3::new(0.0, 0.0, 0.0),
            Vec3::new(0.0, 3.0, 0.0),
        ];
        assert_eq!(lowest_along(&points, Vec3::Y), [1, 3, 4, 2]);
        assert_eq!(lowest_along(&points, -Vec3::Y), [5, 0, 2, 4]);
        assert_eq!(lowest_along(&points[..2], Vec3::Y), [1, 0, 1, 1]);
        assert_eq!(lowest_along(&points, Vec3::ZERO), [0, 1, 2, 3]);
    }
}
