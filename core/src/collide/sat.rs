//! Separating-axis queries between convex hulls (Dirk Gregorius, "The Separating Axis
//! Test between Convex Polyhedra", GDC 2013): face normals of either hull, and the cross
//! products of edge pairs that form a face of the Minkowski difference.

use super::{LINEAR_SLOP, SatCache};
use crate::geometry::hull::{HullView, Plane};
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
        let n = plane.normal;
        // min(n·v) - d rounds the same as min(n·v - d): subtraction is monotonic.
        let mut lowest = f32::MAX;
        for &v in points {
            lowest = min(n.dot(v), lowest);
        }
        let s = lowest - plane.offset;
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
