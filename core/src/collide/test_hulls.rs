//! Test-only hulls built from hand-written face tables: tetrahedra, prisms and the like.

use crate::geometry::hull::{HalfEdge, HullView, Plane};
use crate::math::{Vec3, cos, sin};

/// A hull owning its tables, for tests.
pub(crate) struct TestHull {
    pub vertices: Vec<Vec3>,
    pub planes: Vec<Plane>,
    pub face_edges: Vec<u16>,
    pub edges: Vec<HalfEdge>,
    pub centroid: Vec3,
}

impl TestHull {
    /// A hull from vertices and faces listed counter-clockwise from outside; half-edges
    /// numbered in order of first appearance, twins adjacent.
    pub fn from_faces(vertices: Vec<Vec3>, faces: &[&[u8]]) -> TestHull {
        let mut ends: Vec<(u8, u8)> = Vec::new();
        let mut ids: Vec<Vec<u16>> = Vec::new();
        for f in faces {
            let mut row = Vec::new();
            for c in 0..f.len() {
                let (a, b) = (f[c], f[(c + 1) % f.len()]);
                if let Some(k) = ends.iter().position(|&(x, y)| x == b && y == a) {
                    row.push((2 * k + 1) as u16);
                } else {
                    ends.push((a, b));
                    row.push((2 * (ends.len() - 1)) as u16);
                }
            }
            ids.push(row);
        }
        let mut edges = vec![HalfEdge::default(); 2 * ends.len()];
        let mut face_edges = Vec::new();
        let mut planes = Vec::new();
        for (fi, f) in faces.iter().enumerate() {
            for c in 0..f.len() {
                let e = ids[fi][c] as usize;
                edges[e] = HalfEdge {
                    next: ids[fi][(c + 1) % f.len()],
                    twin: (e ^ 1) as u16,
                    origin: f[c],
                    face: fi as u8,
                };
            }
            face_edges.push(ids[fi][0]);
            // Newell's normal: robust for any planar polygon.
            let mut n = Vec3::ZERO;
            for c in 0..f.len() {
                let p = vertices[f[c] as usize];
                let q = vertices[f[(c + 1) % f.len()] as usize];
                n += Vec3::new(
                    (p.y - q.y) * (p.z + q.z),
                    (p.z - q.z) * (p.x + q.x),
                    (p.x - q.x) * (p.y + q.y),
                );
            }
            let n = n.normalize();
            let mut offset = 0.0;
            for &v in f.iter() {
                offset += n.dot(vertices[v as usize]);
            }
            planes.push(Plane {
                normal: n,
                offset: offset / f.len() as f32,
            });
        }
        let mut centroid = Vec3::ZERO;
        for &v in &vertices {
            centroid += v;
        }
        centroid *= 1.0 / vertices.len() as f32;
        TestHull {
            vertices,
            planes,
            face_edges,
            edges,
            centroid,
        }
    }

    /// A regular tetrahedron of circumradius `r` about the origin, a face down (−y).
    pub fn tetrahedron(r: f32) -> TestHull {
        let h = r / 3.0;
        let s = r * 0.942_809_04; // √8 / 3
        let v = vec![
            Vec3::new(0.0, r, 0.0),
            Vec3::new(s, -h, 0.0),
            Vec3::new(-0.5 * s, -h, 0.866_025_4 * s),
            Vec3::new(-0.5 * s, -h, -0.866_025_4 * s),
        ];
        TestHull::from_faces(v, &[&[1, 2, 3], &[0, 2, 1], &[0, 3, 2], &[0, 1, 3]])
    }

    /// A prism over a regular `sides`-gon of circumradius `r` in the xz-plane, between
    /// y = −`half` and y = +`half`: 2 × `sides` vertices.
    pub fn prism(sides: usize, r: f32, half: f32) -> TestHull {
        let mut v = Vec::new();
        for k in 0..sides {
            let t = 2.0 * core::f32::consts::PI * k as f32 / sides as f32;
            let (x, z) = (r * cos(t), r * sin(t));
            v.push(Vec3::new(x, -half, z));
            v.push(Vec3::new(x, half, z));
        }
        // Seen from below (−y) the bottom runs clockwise in xz: x → z is counter-clockwise
        // seen from +y.
        let bottom: Vec<u8> = (0..sides).map(|k| (2 * k) as u8).collect();
        let top: Vec<u8> = (0..sides).rev().map(|k| (2 * k + 1) as u8).collect();
        let mut faces: Vec<Vec<u8>> = vec![bottom, top];
        for k in 0..sides {
            let j = (k + 1) % sides;
            faces.push(vec![
                (2 * k) as u8,
                (2 * k + 1) as u8,
                (2 * j + 1) as u8,
                (2 * j) as u8,
            ]);
        }
        let refs: Vec<&[u8]> = faces.iter().map(|f| f.as_slice()).collect();
        TestHull::from_faces(v, &refs)
    }

    pub fn view(&self) -> HullView<'_> {
        HullView {
            vertices: &self.vertices,
            planes: &self.planes,
            face_edges: &self.face_edges,
            edges: &self.edges,
            centroid: self.centroid,
        }
    }
}

/// Checks the conventions the manifolds rely on: faces counter-clockwise from outside
/// with `face` on the left, so `n(face(e)) × n(face(twin))` runs along `e`.
pub(crate) fn check_conventions(h: &HullView) {
    for (i, e) in h.edges.iter().enumerate() {
        assert_eq!(e.twin as usize, i ^ 1);
        let t = h.edges[i ^ 1];
        assert_eq!(t.origin, h.edges[e.next as usize].origin);
        let dir = h.vertices[t.origin as usize] - h.vertices[e.origin as usize];
        let u = h.planes[e.face as usize].normal;
        let v = h.planes[t.face as usize].normal;
        assert!(
            u.cross(v).dot(dir) > 0.0,
            "half-edge {i} runs against its faces"
        );
    }
    for (f, plane) in h.planes.iter().enumerate() {
        for v in h.vertices {
            assert!(
                plane.distance(*v) < 1e-4,
                "face {f} is not a supporting plane"
            );
        }
    }
}
