//! Convex hulls: a half-edge mesh with face planes.
//!
//! Conventions every user of a hull relies on:
//! - vertices, planes and half-edges are in the shape's frame (the body frame);
//! - the twin of half-edge `e` is `e ^ 1`, so `(0..edge_count).step_by(2)` visits each
//!   edge once;
//! - a face's half-edges run counter-clockwise seen from outside, following `next`;
//! - `planes[f]` is the face's outward unit normal `n` and offset `d`, with
//!   `n · x = d` on the face;
//! - coplanar triangles are merged, so a box has 6 quad faces, not 12 triangles.

use crate::math::{Quat, Vec3};

/// Most input points a hull accepts.
pub const MAX_HULL_POINTS: usize = 64;
/// Most vertices of a hull.
pub const MAX_HULL_VERTICES: usize = MAX_HULL_POINTS;
/// Most faces of a hull (a triangulated hull of V vertices has 2V − 4 faces).
pub const MAX_HULL_FACES: usize = 2 * MAX_HULL_VERTICES - 4;
/// Most half-edges of a hull (2 × (3V − 6)).
pub const MAX_HULL_HALF_EDGES: usize = 2 * (3 * MAX_HULL_VERTICES - 6);

/// A plane `normal · x = offset`.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Plane {
    /// Outward unit normal.
    pub normal: Vec3,
    /// Offset along the normal.
    pub offset: f32,
}

impl Plane {
    /// Signed distance of `p` above the plane.
    #[inline(always)]
    pub fn distance(&self, p: Vec3) -> f32 {
        self.normal.dot(p) - self.offset
    }
}

/// A half-edge: runs from vertex `origin` along face `face`; `next` follows it around
/// the face, and its twin is `index ^ 1`.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct HalfEdge {
    /// The next half-edge around the same face.
    pub next: u16,
    /// The twin half-edge (always `index ^ 1`; stored for readability).
    pub twin: u16,
    /// The vertex it starts at.
    pub origin: u8,
    /// The face on its left.
    pub face: u8,
}

/// A borrowed hull: what collision and mass code read.
#[derive(Clone, Copy, Debug)]
pub struct HullView<'a> {
    /// Vertex positions.
    pub vertices: &'a [Vec3],
    /// One plane per face.
    pub planes: &'a [Plane],
    /// One half-edge of each face.
    pub face_edges: &'a [u16],
    /// All half-edges, twins adjacent.
    pub edges: &'a [HalfEdge],
    /// The centroid of the solid.
    pub centroid: Vec3,
}

/// A hull with room for `MAX_HULL_VERTICES` vertices, stored inline so that a world can
/// hold a fixed number of them without allocating after create.
#[derive(Clone, Debug)]
pub struct Hull {
    /// Number of vertices in use.
    pub vertex_count: u16,
    /// Number of faces in use.
    pub face_count: u16,
    /// Number of half-edges in use.
    pub edge_count: u16,
    /// Vertex positions.
    pub vertices: [Vec3; MAX_HULL_VERTICES],
    /// Face planes.
    pub planes: [Plane; MAX_HULL_FACES],
    /// One half-edge of each face.
    pub face_edges: [u16; MAX_HULL_FACES],
    /// Half-edges, twins adjacent.
    pub edges: [HalfEdge; MAX_HULL_HALF_EDGES],
    /// Centroid of the solid.
    pub centroid: Vec3,
}

impl Default for Hull {
    fn default() -> Hull {
        Hull {
            vertex_count: 0,
            face_count: 0,
            edge_count: 0,
            vertices: [Vec3::ZERO; MAX_HULL_VERTICES],
            planes: [Plane::default(); MAX_HULL_FACES],
            face_edges: [0; MAX_HULL_FACES],
            edges: [HalfEdge::default(); MAX_HULL_HALF_EDGES],
            centroid: Vec3::ZERO,
        }
    }
}

impl Hull {
    /// The hull as a view.
    #[inline]
    pub fn view(&self) -> HullView<'_> {
        HullView {
            vertices: &self.vertices[..self.vertex_count as usize],
            planes: &self.planes[..self.face_count as usize],
            face_edges: &self.face_edges[..self.face_count as usize],
            edges: &self.edges[..self.edge_count as usize],
            centroid: self.centroid,
        }
    }
}

/// Corner `i` of a box: bit 0 picks +x, bit 1 +y, bit 2 +z... laid out so that the face
/// lists below run counter-clockwise from outside.
const BOX_CORNERS: [[f32; 3]; 8] = [
    [-1.0, -1.0, -1.0],
    [1.0, -1.0, -1.0],
    [1.0, 1.0, -1.0],
    [-1.0, 1.0, -1.0],
    [-1.0, -1.0, 1.0],
    [1.0, -1.0, 1.0],
    [1.0, 1.0, 1.0],
    [-1.0, 1.0, 1.0],
];

/// The faces of a box, counter-clockwise from outside: −z, +z, −y, +y, −x, +x.
const BOX_FACES: [[u8; 4]; 6] = [
    [0, 3, 2, 1],
    [4, 5, 6, 7],
    [0, 1, 5, 4],
    [3, 7, 6, 2],
    [0, 4, 7, 3],
    [1, 2, 6, 5],
];

/// Outward normals of `BOX_FACES`.
const BOX_NORMALS: [[f32; 3]; 6] = [
    [0.0, 0.0, -1.0],
    [0.0, 0.0, 1.0],
    [0.0, -1.0, 0.0],
    [0.0, 1.0, 0.0],
    [-1.0, 0.0, 0.0],
    [1.0, 0.0, 0.0],
];

/// The half-edge tables of a box, built at compile time with twins adjacent.
const fn box_topology() -> ([HalfEdge; 24], [u16; 6]) {
    // Unique edges in order of first appearance; edge k owns half-edges 2k and 2k+1.
    let mut ends = [[0u8; 2]; 12];
    let mut count = 0;
    // Half-edge id of (face f, corner c).
    let mut id = [[0u16; 4]; 6];
    let mut f = 0;
    while f < 6 {
        let mut c = 0;
        while c < 4 {
            let a = BOX_FACES[f][c];
            let b = BOX_FACES[f][(c + 1) % 4];
            let mut found = usize::MAX;
            let mut k = 0;
            while k < count {
                if ends[k][0] == b && ends[k][1] == a {
                    found = k;
                }
                k += 1;
            }
            if found == usize::MAX {
                ends[count] = [a, b];
                id[f][c] = (2 * count) as u16;
                count += 1;
            } else {
                id[f][c] = (2 * found + 1) as u16;
            }
            c += 1;
        }
        f += 1;
    }
    let mut edges = [HalfEdge {
        next: 0,
        twin: 0,
        origin: 0,
        face: 0,
    }; 24];
    let mut face_edges = [0u16; 6];
    let mut f = 0;
    while f < 6 {
        let mut c = 0;
        while c < 4 {
            let e = id[f][c] as usize;
            edges[e] = HalfEdge {
                next: id[f][(c + 1) % 4],
                twin: (e ^ 1) as u16,
                origin: BOX_FACES[f][c],
                face: f as u8,
            };
            c += 1;
        }
        face_edges[f] = id[f][0];
        f += 1;
    }
    (edges, face_edges)
}

const BOX_TOPOLOGY: ([HalfEdge; 24], [u16; 6]) = box_topology();

/// A box as a hull, small enough to keep in a shape and build on the stack.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct BoxHull {
    /// The 8 corners in the body frame.
    pub vertices: [Vec3; 8],
    /// The 6 face planes in the body frame.
    pub planes: [Plane; 6],
    /// The centre in the body frame.
    pub center: Vec3,
}

impl BoxHull {
    /// A box of half-extents `half`, centred at `center` and rotated by `rotation`,
    /// all in the body frame.
    pub fn new(half: Vec3, center: Vec3, rotation: Quat) -> BoxHull {
        let mut vertices = [Vec3::ZERO; 8];
        for (v, c) in vertices.iter_mut().zip(BOX_CORNERS.iter()) {
            let local = Vec3::new(c[0] * half.x, c[1] * half.y, c[2] * half.z);
            *v = rotation.rotate(local) + center;
        }
        let mut planes = [Plane::default(); 6];
        for (i, p) in planes.iter_mut().enumerate() {
            let n = Vec3::new(BOX_NORMALS[i][0], BOX_NORMALS[i][1], BOX_NORMALS[i][2]);
            let extent = n.x.abs() * half.x + n.y.abs() * half.y + n.z.abs() * half.z;
            let normal = rotation.rotate(n);
            *p = Plane {
                normal,
                offset: normal.dot(center) + extent,
            };
        }
        BoxHull {
            vertices,
            planes,
            center,
        }
    }

    /// The box as a hull view.
    #[inline]
    pub fn view(&self) -> HullView<'_> {
        HullView {
            vertices: &self.vertices,
            planes: &self.planes,
            face_edges: &BOX_TOPOLOGY.1,
            edges: &BOX_TOPOLOGY.0,
            centroid: self.center,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn box_topology_is_a_closed_half_edge_mesh() {
        let b = BoxHull::new(Vec3::new(1.0, 2.0, 3.0), Vec3::ZERO, Quat::IDENTITY);
        let h = b.view();
        assert_eq!(h.edges.len(), 24);
        for (i, e) in h.edges.iter().enumerate() {
            assert_eq!(e.twin as usize, i ^ 1);
            let t = h.edges[i ^ 1];
            // The twin starts where this edge ends.
            assert_eq!(t.origin, h.edges[e.next as usize].origin);
            assert_ne!(t.face, e.face);
        }
        for (f, &start) in h.face_edges.iter().enumerate() {
            let mut e = start as usize;
            for _ in 0..4 {
                assert_eq!(h.edges[e].face as usize, f);
                let v = h.vertices[h.edges[e].origin as usize];
                assert!(h.planes[f].distance(v).abs() < 1e-6);
                e = h.edges[e].next as usize;
            }
            assert_eq!(e, start as usize);
        }
    }
}
