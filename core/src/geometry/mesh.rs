//! Triangle meshes: vertices and triangles (content), with a bounding-volume tree and
//! per-edge flags rebuilt from that content alone (derived, never state).
//!
//! The tree is a static bounding-volume hierarchy built top-down: each node's triangles
//! are sorted by their centroid along the longest axis of the centroids' bounds (ties by
//! triangle index) and split at the median, down to leaves of at most [`LEAF_SIZE`]
//! triangles. Only `f32` comparisons, exact `min`/`max` and sums in a fixed order go into
//! it, and every sort key is unique, so the same content gives the same node bytes on
//! every target (a test compares them across two worlds).
//!
//! Edge flags hold, for each triangle edge, whether it is *active*: an edge shared by two
//! triangles that are coplanar (within [`FLAT_EDGE_COS`]) or that meet in a valley is
//! inactive, and a contact normal coming from such an edge (or a vertex with no active
//! edge) is replaced by the triangle's face normal, so bodies slide across internal edges
//! without catching on them (as Jolt's active edges and Bullet's internal-edge utility).
//! Neighbours are found by shared vertex indices along consistently wound edges.

use crate::alloc::{FixedVec, WorldAlloc};
use crate::collide::ray::{RayHit, RayInput};
use crate::error::{Error, Result};
use crate::math::{Aabb, Vec3, max, min};

/// Most triangles in one mesh.
pub const MAX_MESH_TRIANGLES: usize = 1 << 24;
/// Most vertices in one mesh.
pub const MAX_MESH_VERTICES: usize = 1 << 24;
/// Most triangles in a tree leaf.
pub const LEAF_SIZE: usize = 4;
/// Farthest a mesh vertex (or height-field point) may be from its body origin.
pub const MAX_MESH_EXTENT: f32 = 1.0e6;
/// Two triangles whose normals are closer than this cosine (5°) meet at a flat edge.
pub const FLAT_EDGE_COS: f32 = 0.996_194_7;
/// A triangle is degenerate when twice its area is below this fraction of its longest
/// edge squared (its smallest height below about 1e-6 of its longest edge).
pub const DEGENERATE_RATIO: f32 = 1.0e-6;
/// Bytes of one tree node (fixed on every target).
pub const NODE_BYTES: u64 = 32;
/// Deepest tree for `MAX_MESH_TRIANGLES`: a query's stack holds this many entries.
const TREE_STACK: usize = 64;

/// One triangle of a mesh or height field, in the shape's frame: its vertices
/// (counter-clockwise seen from the front, where the face normal points) and which edges
/// are active (bit `k`: the edge from vertex `k` to vertex `k + 1 mod 3`).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Triangle {
    /// Vertices, counter-clockwise seen from the front.
    pub v: [Vec3; 3],
    /// Active edge bits.
    pub active: u8,
}

impl Triangle {
    /// The same triangle seen from behind (for a two-sided mesh): `v0, v2, v1`, so the
    /// front face is the old back face, with `back` the back face's active edge bits by
    /// the old edge order (bit `k`: old edge `k`), renumbered for the new order.
    #[inline]
    pub fn flipped(&self, back: u8) -> Triangle {
        // New edge 0 (v0→v2) is old edge 2, new 1 (v2→v1) old 1, new 2 (v1→v0) old 0.
        Triangle {
            v: [self.v[0], self.v[2], self.v[1]],
            active: ((back >> 2) & 1) | (back & 2) | ((back & 1) << 2),
        }
    }

    /// The front face's unit normal (`(v1 − v0) × (v2 − v0)`, normalised).
    #[inline]
    pub fn normal(&self) -> Vec3 {
        (self.v[1] - self.v[0])
            .cross(self.v[2] - self.v[0])
            .normalize()
    }

    /// Bounds of the three vertices.
    #[inline]
    pub fn aabb(&self) -> Aabb {
        Aabb::new(
            self.v[0].min(self.v[1]).min(self.v[2]),
            self.v[0].max(self.v[1]).max(self.v[2]),
        )
    }
}

/// A node of a mesh tree: 32 bytes. Nodes are in depth-first order, so an internal node's
/// first child is the next node; `index` is its second child. A leaf (`count > 0`) holds
/// triangles `order[index..index + count]`.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[repr(C)]
pub(crate) struct MeshNode {
    pub lower: Vec3,
    pub upper: Vec3,
    pub index: u32,
    pub count: u32,
}

const _: () = assert!(core::mem::size_of::<MeshNode>() as u64 == NODE_BYTES);

/// Whether the edge from `a` of a triangle with unit normal `n` is active, given the unit
/// normal `m` of the triangle across it and that triangle's vertex `c` off the edge.
/// Flat (within 5°) and concave edges are inactive.
#[inline]
pub(crate) fn edge_is_active(n: Vec3, m: Vec3, a: Vec3, c: Vec3) -> bool {
    if n.dot(m) >= FLAT_EDGE_COS {
        return false;
    }
    // The neighbour rises above this triangle's plane: a valley, covered by the neighbour.
    n.dot(c - a) < 0.0
}

/// [`edge_is_active`] for the back face (normals `−n`, `−m`): flat edges stay inactive,
/// and a valley seen from the front is a ridge seen from behind.
#[inline]
pub(crate) fn back_edge_is_active(n: Vec3, m: Vec3, a: Vec3, c: Vec3) -> bool {
    if n.dot(m) >= FLAT_EDGE_COS {
        return false;
    }
    n.dot(c - a) > 0.0
}

/// Refuses a point that is not finite or is too far from the body origin.
pub(crate) fn check_mesh_point(name: &'static str, index: usize, p: Vec3) -> Result<()> {
    for i in 0..3 {
        let c = p.get(i);
        if !c.is_finite() || c.abs() > MAX_MESH_EXTENT {
            return Err(Error::Argument {
                name,
                value: index as f64,
                expected: "finite and within ±1e6 of the body origin in every coordinate",
            });
        }
    }
    Ok(())
}

/// Whether three points make a triangle `create_mesh` refuses (see [`DEGENERATE_RATIO`]):
/// front ends drop such triangles from imported meshes with this test.
#[inline]
pub fn is_degenerate(a: Vec3, b: Vec3, c: Vec3) -> bool {
    let (e0, e1, e2) = (b - a, c - b, a - c);
    let longest = max(
        e0.length_squared(),
        max(e1.length_squared(), e2.length_squared()),
    );
    let twice_area = e0.cross(c - a).length();
    !(longest > 0.0 && twice_area > DEGENERATE_RATIO * longest)
}

/// Checks mesh content as `create_mesh` takes it: 1 to 2^24 triangles over at most 2^24
/// vertices, every vertex finite within ±1e6, every index below the vertex count, no
/// degenerate triangle.
pub(crate) fn validate_mesh(vertices: &[Vec3], triangles: &[[u32; 3]]) -> Result<()> {
    if vertices.len() < 3 || vertices.len() > MAX_MESH_VERTICES {
        return Err(Error::Argument {
            name: "mesh vertex count",
            value: vertices.len() as f64,
            expected: "within [3, 2^24]",
        });
    }
    if triangles.is_empty() || triangles.len() > MAX_MESH_TRIANGLES {
        return Err(Error::Argument {
            name: "mesh triangle count",
            value: triangles.len() as f64,
            expected: "within [1, 2^24]",
        });
    }
    for (i, &v) in vertices.iter().enumerate() {
        check_mesh_point("mesh vertex (its index)", i, v)?;
    }
    for (t, tri) in triangles.iter().enumerate() {
        for &i in tri {
            if i as usize >= vertices.len() {
                return Err(Error::Argument {
                    name: "mesh vertex index",
                    value: i as f64,
                    expected: "below the vertex count",
                });
            }
        }
        let [a, b, c] = tri.map(|i| vertices[i as usize]);
        if is_degenerate(a, b, c) {
            return Err(Error::Argument {
                name: "degenerate mesh triangle (its index)",
                value: t as f64,
                expected: "a triangle whose smallest height is above 1e-6 of its longest edge",
            });
        }
    }
    Ok(())
}

/// Nodes of the tree over `n` triangles (leaves of at most `LEAF_SIZE`, median splits).
pub(crate) fn tree_node_count(n: u64) -> u64 {
    // Every level's ranges have at most two sizes, s and s + 1: count them per level.
    let mut total = 0u64;
    let mut sizes = [(n, 1u64), (0, 0)];
    loop {
        let mut next: [(u64, u64); 2] = [(0, 0), (0, 0)];
        let mut any = false;
        for &(s, count) in &sizes {
            if count == 0 {
                continue;
            }
            total += count;
            if s as usize <= LEAF_SIZE {
                continue;
            }
            any = true;
            for half in [s / 2, s - s / 2] {
                if let Some(slot) = next.iter_mut().find(|e| e.1 > 0 && e.0 == half) {
                    slot.1 += count;
                } else if let Some(slot) = next.iter_mut().find(|e| e.1 == 0) {
                    *slot = (half, count);
                }
            }
        }
        if !any {
            return total;
        }
        sizes = next;
    }
}

/// Content bytes a mesh of `v` vertices and `t` triangles takes from the world's content
/// budget: vertices and triangles (12 bytes each), and what is rebuilt from them — the
/// tree (32 bytes a node), its triangle order (4 a triangle) and edge flags (1 a triangle).
pub fn mesh_content_bytes(v: u64, t: u64) -> u64 {
    12 * v + 12 * t + 4 * t + t + NODE_BYTES * tree_node_count(t)
}

/// A triangle mesh: content and what is rebuilt from it.
pub(crate) struct TriMesh {
    /// Content: vertex positions in the shape's frame.
    pub vertices: FixedVec<Vec3>,
    /// Content: vertex indices, counter-clockwise seen from the front.
    pub triangles: FixedVec<[u32; 3]>,
    /// Derived: active edge bits per triangle, front face in bits 0–2 and back face (for
    /// two-sided shapes) in bits 3–5.
    pub edge_flags: FixedVec<u8>,
    /// Derived: triangle indices in tree-leaf order.
    pub order: FixedVec<u32>,
    /// Derived: the tree, depth-first.
    pub nodes: FixedVec<MeshNode>,
    /// Derived: bounds of every vertex used.
    pub bounds: Aabb,
}

impl TriMesh {
    /// Builds a mesh from validated content, taking memory from `alloc`.
    pub(crate) fn build(
        vertices: &[Vec3],
        triangles: &[[u32; 3]],
        alloc: WorldAlloc,
    ) -> Result<TriMesh> {
        let t = triangles.len();
        let what = "content_capacity";
        let mut vs = FixedVec::with_capacity(vertices.len(), alloc, what)?;
        for &v in vertices {
            let ok = vs.push(v);
            debug_assert!(ok);
        }
        let mut ts = FixedVec::with_capacity(t, alloc, what)?;
        for &tri in triangles {
            let ok = ts.push(tri);
            debug_assert!(ok);
        }
        let edge_flags = build_edge_flags(vertices, triangles, alloc)?;
        let node_count = tree_node_count(t as u64) as usize;
        let mut order = FixedVec::with_capacity(t, alloc, what)?;
        let mut nodes = FixedVec::with_capacity(node_count, alloc, what)?;
        build_tree(vertices, triangles, &mut order, &mut nodes, alloc)?;
        debug_assert_eq!(nodes.len(), node_count);
        let bounds = nodes[0].bounds();
        Ok(TriMesh {
            vertices: vs,
            triangles: ts,
            edge_flags,
            order,
            nodes,
            bounds,
        })
    }

    /// Content bytes (see [`mesh_content_bytes`]).
    pub(crate) fn content_bytes(&self) -> u64 {
        mesh_content_bytes(self.vertices.len() as u64, self.triangles.len() as u64)
    }

    /// Triangle `i`, or `None` past the end.
    #[inline]
    pub(crate) fn triangle(&self, i: u32) -> Option<Triangle> {
        let tri = self.triangles.get(i as usize)?;
        let v = |k: usize| self.vertices.get(tri[k] as usize).copied();
        Some(Triangle {
            v: [v(0)?, v(1)?, v(2)?],
            active: *self.edge_flags.get(i as usize)? & 0b111,
        })
    }

    /// Triangle `i`'s back-face active edge bits (by its own edge order), or `None` past
    /// the end.
    #[inline]
    pub(crate) fn back_active(&self, i: u32) -> Option<u8> {
        Some(*self.edge_flags.get(i as usize)? >> 3)
    }

    /// Calls `f(triangle index)` for every triangle whose bounds overlap `aabb` (in the
    /// shape's frame), in the tree's order (the same everywhere, as the tree is), until
    /// `f` returns false.
    pub(crate) fn query(&self, aabb: &Aabb, mut f: impl FnMut(u32) -> bool) {
        let mut stack = [0u32; TREE_STACK];
        let mut top = 1usize;
        while top > 0 {
            top -= 1;
            let mut n = stack[top] as usize;
            while let Some(node) = self.nodes.get(n) {
                if !node.bounds().overlaps(aabb) {
                    break;
                }
                if node.count > 0 {
                    let (a, b) = (node.index as usize, (node.index + node.count) as usize);
                    for &tri in self.order.get(a..b).unwrap_or(&[]) {
                        let Some(t) = self.triangle(tri) else {
                            continue;
                        };
                        if t.aabb().overlaps(aabb) && !f(tri) {
                            return;
                        }
                    }
                    break;
                }
                if top < TREE_STACK {
                    stack[top] = node.index;
                    top += 1;
                }
                n += 1;
            }
        }
    }

    /// The closest triangle the ray enters (ties: the lower triangle index), in the shape's
    /// frame, with the triangle's index.
    #[cfg(test)]
    pub(crate) fn ray_cast(&self, input: &RayInput) -> Option<(RayHit, u32)> {
        self.ray_cast_sided(input, false)
    }

    /// As [`Self::ray_cast`]; with `front_only`, triangles the ray meets from behind are
    /// passed through.
    pub(crate) fn ray_cast_sided(
        &self,
        input: &RayInput,
        front_only: bool,
    ) -> Option<(RayHit, u32)> {
        let d = input.translation;
        let inv = Vec3::new(inverse(d.x), inverse(d.y), inverse(d.z));
        let mut best: Option<(RayHit, u32)> = None;
        let mut stack = [0u32; TREE_STACK];
        let mut top = 1usize;
        while top > 0 {
            top -= 1;
            let mut n = stack[top] as usize;
            while let Some(node) = self.nodes.get(n) {
                let limit = best.map_or(input.max_fraction, |b| b.0.fraction);
                if !ray_touches_box(input.origin, d, inv, limit, &node.bounds()) {
                    break;
                }
                if node.count > 0 {
                    let (a, b) = (node.index as usize, (node.index + node.count) as usize);
                    for &tri in self.order.get(a..b).unwrap_or(&[]) {
                        let Some(t) = self.triangle(tri) else {
                            continue;
                        };
                        let Some(hit) = ray_triangle_sided(&t, input, front_only) else {
                            continue;
                        };
                        let better = match best {
                            None => true,
                            Some((h, i)) => {
                                hit.fraction < h.fraction || (hit.fraction == h.fraction && tri < i)
                            }
                        };
                        if better {
                            best = Some((hit, tri));
                        }
                    }
                    break;
                }
                if top < TREE_STACK {
                    stack[top] = node.index;
                    top += 1;
                }
                n += 1;
            }
        }
        best
    }

    /// The tree as bytes (little-endian, node by node, then the triangle order), for
    /// tests that two worlds built the same tree.
    pub(crate) fn tree_bytes(&self, out: &mut std::vec::Vec<u8>) {
        for n in self.nodes.iter() {
            for v in [n.lower, n.upper] {
                for i in 0..3 {
                    out.extend_from_slice(&v.get(i).to_bits().to_le_bytes());
                }
            }
            out.extend_from_slice(&n.index.to_le_bytes());
            out.extend_from_slice(&n.count.to_le_bytes());
        }
        for &o in self.order.iter() {
            out.extend_from_slice(&o.to_le_bytes());
        }
        out.extend_from_slice(&self.edge_flags);
    }
}

impl MeshNode {
    #[inline(always)]
    pub(crate) fn bounds(&self) -> Aabb {
        Aabb::new(self.lower, self.upper)
    }
}

/// `1 / x`, or an infinity of x's sign for a zero (the slab test's convention).
#[inline]
fn inverse(x: f32) -> f32 {
    if x == 0.0 {
        if x.is_sign_negative() {
            f32::NEG_INFINITY
        } else {
            f32::INFINITY
        }
    } else {
        1.0 / x
    }
}

/// Whether the segment `origin + t·d`, t in [0, limit], can touch `b` (slab test, widened
/// by a relative epsilon so rounding never cuts a grazing hit).
#[inline]
pub(crate) fn ray_touches_box(origin: Vec3, d: Vec3, inv: Vec3, limit: f32, b: &Aabb) -> bool {
    let (mut lo, mut hi) = (0.0f32, limit);
    for i in 0..3 {
        let (o, di, iv) = (origin.get(i), d.get(i), inv.get(i));
        let (l, u) = (b.lower.get(i), b.upper.get(i));
        if di == 0.0 {
            if o < l || o > u {
                return false;
            }
            continue;
        }
        let (mut t1, mut t2) = ((l - o) * iv, (u - o) * iv);
        if t1 > t2 {
            core::mem::swap(&mut t1, &mut t2);
        }
        let eps = 1.0e-5 * (1.0 + max(t1.abs(), t2.abs()));
        lo = max(lo, t1 - eps);
        hi = min(hi, t2 + eps);
        if lo.is_nan() || hi.is_nan() || lo > hi {
            return false;
        }
    }
    true
}

/// Where the ray enters a triangle (either side: meshes are two-sided), with the normal
/// facing the ray's origin. A ray parallel to the triangle's plane misses.
#[cfg(test)]
pub(crate) fn ray_triangle(t: &Triangle, input: &RayInput) -> Option<RayHit> {
    ray_triangle_sided(t, input, false)
}

/// As [`ray_triangle`]; with `front_only`, a ray meeting the triangle from behind (moving
/// along its counter-clockwise normal) misses.
pub(crate) fn ray_triangle_sided(
    t: &Triangle,
    input: &RayInput,
    front_only: bool,
) -> Option<RayHit> {
    let [a, b, c] = t.v;
    let n = (b - a).cross(c - a);
    let d = input.translation;
    let denom = n.dot(d);
    if denom == 0.0 || !denom.is_finite() || (front_only && denom > 0.0) {
        return None;
    }
    let fraction = n.dot(a - input.origin) / denom;
    if !(fraction >= 0.0 && fraction <= input.max_fraction) {
        return None;
    }
    let p = input.origin.mul_add(fraction, d);
    // Inside: on the inner side of every edge (boundaries included).
    for (p0, p1) in [(a, b), (b, c), (c, a)] {
        if (p1 - p0).cross(p - p0).dot(n) < 0.0 {
            return None;
        }
    }
    let unit = n.normalize();
    let normal = if denom > 0.0 { -unit } else { unit };
    let hit = RayHit {
        fraction,
        point: p,
        normal,
    };
    (hit.fraction.is_finite() && hit.point.is_valid() && hit.normal.is_valid()).then_some(hit)
}

/// Active edge bits of every triangle, from neighbours found through shared vertex indices.
fn build_edge_flags(
    vertices: &[Vec3],
    triangles: &[[u32; 3]],
    alloc: WorldAlloc,
) -> Result<FixedVec<u8>> {
    let t = triangles.len();
    let what = "content_capacity";
    // Every half-edge as (lower vertex, higher vertex, triangle, edge): sorted, the two
    // sides of an edge are neighbours (keys are unique, so any sort gives this order).
    let mut edges: FixedVec<(u64, u32, u8)> = FixedVec::with_capacity(3 * t, alloc, what)?;
    let mut normals: FixedVec<Vec3> = FixedVec::with_capacity(t, alloc, what)?;
    for (i, tri) in triangles.iter().enumerate() {
        let [a, b, c] = tri.map(|k| vertices[k as usize]);
        let ok = normals.push((b - a).cross(c - a).normalize());
        debug_assert!(ok);
        for k in 0..3 {
            let (p, q) = (tri[k], tri[(k + 1) % 3]);
            let key = ((min_u32(p, q) as u64) << 32) | max_u32(p, q) as u64;
            let ok = edges.push((key, i as u32, k as u8));
            debug_assert!(ok);
        }
    }
    edges.sort_unstable();
    let mut flags = FixedVec::filled(t, 0b111_111u8, alloc, what)?;
    let mut i = 0;
    while i < edges.len() {
        let mut j = i + 1;
        while j < edges.len() && edges[j].0 == edges[i].0 {
            j += 1;
        }
        // Exactly two sides, wound opposite ways: a manifold edge between two triangles.
        if j - i == 2 {
            let (_, t1, k1) = edges[i];
            let (_, t2, k2) = edges[i + 1];
            let (tri1, tri2) = (triangles[t1 as usize], triangles[t2 as usize]);
            let from1 = tri1[k1 as usize];
            let from2 = tri2[k2 as usize];
            if from1 != from2 && t1 != t2 {
                let (n1, n2) = (normals[t1 as usize], normals[t2 as usize]);
                let a = vertices[from1 as usize];
                let c1 = vertices[tri1[(k1 as usize + 2) % 3] as usize];
                let c2 = vertices[tri2[(k2 as usize + 2) % 3] as usize];
                if !edge_is_active(n1, n2, a, c2) {
                    flags[t1 as usize] &= !(1 << k1);
                }
                if !edge_is_active(n2, n1, vertices[from2 as usize], c1) {
                    flags[t2 as usize] &= !(1 << k2);
                }
                if !back_edge_is_active(n1, n2, a, c2) {
                    flags[t1 as usize] &= !(8 << k1);
                }
                if !back_edge_is_active(n2, n1, vertices[from2 as usize], c1) {
                    flags[t2 as usize] &= !(8 << k2);
                }
            }
        }
        i = j;
    }
    Ok(flags)
}

#[inline(always)]
fn min_u32(a: u32, b: u32) -> u32 {
    if a < b { a } else { b }
}

#[inline(always)]
fn max_u32(a: u32, b: u32) -> u32 {
    if a < b { b } else { a }
}

/// A pending range of the tree build: triangles `order[begin..end]` become the node
/// whose index is patched into `parent`'s second-child slot (unless it is the first child
/// or the root).
#[derive(Clone, Copy)]
struct Pending {
    begin: u32,
    end: u32,
    parent: u32,
}

/// Builds the tree: median splits along the longest axis of the centroids, depth-first.
fn build_tree(
    vertices: &[Vec3],
    triangles: &[[u32; 3]],
    order: &mut FixedVec<u32>,
    nodes: &mut FixedVec<MeshNode>,
    alloc: WorldAlloc,
) -> Result<()> {
    let t = triangles.len();
    let what = "content_capacity";
    // Three times the centroid (the sum of the vertices: no division to round), and each
    // triangle's bounds.
    let mut centroid: FixedVec<Vec3> = FixedVec::with_capacity(t, alloc, what)?;
    let mut bounds: FixedVec<Aabb> = FixedVec::with_capacity(t, alloc, what)?;
    for tri in triangles {
        let [a, b, c] = tri.map(|k| vertices[k as usize]);
        let ok =
            centroid.push(a + b + c) && bounds.push(Aabb::new(a.min(b).min(c), a.max(b).max(c)));
        debug_assert!(ok);
    }
    for i in 0..t as u32 {
        let ok = order.push(i);
        debug_assert!(ok);
    }
    let mut stack = [Pending {
        begin: 0,
        end: 0,
        parent: u32::MAX,
    }; TREE_STACK];
    stack[0] = Pending {
        begin: 0,
        end: t as u32,
        parent: u32::MAX,
    };
    let mut top = 1usize;
    while top > 0 {
        top -= 1;
        let p = stack[top];
        let index = nodes.len() as u32;
        if p.parent != u32::MAX {
            nodes[p.parent as usize].index = index;
        }
        let range = &mut order[p.begin as usize..p.end as usize];
        let mut b = bounds[range[0] as usize];
        let mut cl = centroid[range[0] as usize];
        let mut cu = cl;
        for &i in range.iter() {
            b = b.union(&bounds[i as usize]);
            cl = cl.min(centroid[i as usize]);
            cu = cu.max(centroid[i as usize]);
        }
        let count = range.len();
        if count <= LEAF_SIZE {
            let ok = nodes.push(MeshNode {
                lower: b.lower,
                upper: b.upper,
                index: p.begin,
                count: count as u32,
            });
            debug_assert!(ok);
            continue;
        }
        let ext = cu - cl;
        let axis = if ext.x >= ext.y && ext.x >= ext.z {
            0
        } else if ext.y >= ext.z {
            1
        } else {
            2
        };
        // Unique keys (centroid, then index): every sort gives the same order.
        range.sort_unstable_by(|&i, &j| {
            let (ci, cj) = (
                centroid[i as usize].get(axis),
                centroid[j as usize].get(axis),
            );
            ci.partial_cmp(&cj)
                .unwrap_or(core::cmp::Ordering::Equal)
                .then(i.cmp(&j))
        });
        let ok = nodes.push(MeshNode {
            lower: b.lower,
            upper: b.upper,
            index: 0,
            count: 0,
        });
        debug_assert!(ok);
        let mid = p.begin + (count / 2) as u32;
        // The second child waits on the stack below the first, which is built next (and
        // so lands at `index + 1`).
        if top + 2 > TREE_STACK {
            return Err(Error::Capacity {
                what: "mesh tree depth",
                capacity: TREE_STACK as u64,
            });
        }
        stack[top] = Pending {
            begin: mid,
            end: p.end,
            parent: index,
        };
        stack[top + 1] = Pending {
            begin: p.begin,
            end: mid,
            parent: u32::MAX,
        };
        top += 2;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn grid(n: usize, bump: f32) -> (std::vec::Vec<Vec3>, std::vec::Vec<[u32; 3]>) {
        let mut v = std::vec::Vec::new();
        for z in 0..=n {
            for x in 0..=n {
                let h = if (x + z) % 3 == 0 { bump } else { 0.0 };
                v.push(Vec3::new(x as f32, h, z as f32));
            }
        }
        let mut t = std::vec::Vec::new();
        let w = (n + 1) as u32;
        for z in 0..n as u32 {
            for x in 0..n as u32 {
                let (a, b, c, d) = (
                    z * w + x,
                    z * w + x + 1,
                    (z + 1) * w + x,
                    (z + 1) * w + x + 1,
                );
                t.push([a, c, d]);
                t.push([a, d, b]);
            }
        }
        (v, t)
    }

    #[test]
    fn node_count_formula_matches_the_build() {
        for n in [1usize, 4, 5, 9, 17, 100, 333] {
            let (v, t) = grid(20, 0.0);
            let t = &t[..n.min(t.len())];
            let m = TriMesh::build(&v, t, WorldAlloc::Global).unwrap();
            assert_eq!(m.nodes.len() as u64, tree_node_count(t.len() as u64), "{n}");
        }
    }

    #[test]
    fn flat_grid_edges_are_inactive_inside_and_active_on_the_border() {
        let (v, t) = grid(4, 0.0);
        let m = TriMesh::build(&v, &t, WorldAlloc::Global).unwrap();
        // The first triangle (a, c, d) of cell (0, 0): edge a→c lies on the x = 0 border.
        assert_eq!(m.edge_flags[0] & 1, 1);
        // Its diagonal c→d... edge 1 (c→d) is the cell's top, shared with cell (0, 1).
        assert_eq!(m.edge_flags[0] & 2, 0);
        // Edge 2 (d→a) is the diagonal, shared with the cell's other triangle.
        assert_eq!(m.edge_flags[0] & 4, 0);
        let inner = m.edge_flags.iter().filter(|&&f| f == 0).count();
        assert!(inner > 0);
    }

    #[test]
    fn every_triangle_is_in_exactly_one_leaf_and_inside_its_bounds() {
        let (v, t) = grid(12, 0.7);
        let m = TriMesh::build(&v, &t, WorldAlloc::Global).unwrap();
        let mut seen = vec![0u32; t.len()];
        for n in m.nodes.iter().filter(|n| n.count > 0) {
            for &i in &m.order[n.index as usize..(n.index + n.count) as usize] {
                seen[i as usize] += 1;
                let b = m.triangle(i).unwrap().aabb();
                assert!(n.bounds().union(&b) == n.bounds());
            }
        }
        assert!(seen.iter().all(|&s| s == 1));
    }

    #[test]
    fn queries_find_exactly_the_overlapping_triangles() {
        let (v, t) = grid(16, 0.5);
        let m = TriMesh::build(&v, &t, WorldAlloc::Global).unwrap();
        let q = Aabb::new(Vec3::new(3.2, -1.0, 5.5), Vec3::new(6.1, 0.2, 7.9));
        let mut found = std::vec::Vec::new();
        m.query(&q, |i| {
            found.push(i);
            true
        });
        found.sort_unstable();
        let brute: std::vec::Vec<u32> = (0..t.len() as u32)
            .filter(|&i| m.triangle(i).unwrap().aabb().overlaps(&q))
            .collect();
        assert_eq!(found, brute);
    }

    #[test]
    fn ray_hits_the_closest_triangle_at_the_closed_form_fraction() {
        let (v, t) = grid(10, 0.0);
        let m = TriMesh::build(&v, &t, WorldAlloc::Global).unwrap();
        let input = RayInput {
            origin: Vec3::new(2.3, 5.0, 7.1),
            translation: Vec3::new(1.0, -10.0, 0.5),
            max_fraction: 1.0,
        };
        let (hit, _) = m.ray_cast(&input).unwrap();
        assert!((hit.fraction - 0.5).abs() < 1e-6);
        assert!((hit.point - Vec3::new(2.8, 0.0, 7.35)).length() < 1e-5);
        assert_eq!(hit.normal, Vec3::Y);
    }

    #[test]
    fn damaged_content_is_refused() {
        let (v, t) = grid(2, 0.0);
        let mut bad = v.clone();
        bad[3].y = f32::NAN;
        assert!(validate_mesh(&bad, &t).is_err());
        let mut bad_t = t.clone();
        bad_t[1][2] = 99;
        assert!(validate_mesh(&v, &bad_t).is_err());
        let mut flat = t.clone();
        flat[0] = [0, 1, 2]; // three collinear vertices along x
        assert!(validate_mesh(&v, &flat).is_err());
        assert!(validate_mesh(&v, &[]).is_err());
        assert!(validate_mesh(&v, &t).is_ok());
    }
}
