//! A convex shape against one triangle of a mesh or height field, with smooth contacts
//! across internal edges.
//!
//! The triangle collides as a thin prism: the triangle on top, the same triangle
//! [`TRIANGLE_DEPTH`] below it, three side walls. A flat triangle has no Gauss-map arcs for
//! its edges (its two faces are antipodal), so the separating-axis test of hulls cannot
//! tell which side an edge axis points to; the prism gives every edge two distinct faces,
//! and the ordinary hull, hull–capsule and hull–sphere manifolds apply unchanged — to
//! every convex shape, present (sphere, capsule, box, hull) and hull-backed ones to come.
//! A triangle pushes bodies out through its front face (counter-clockwise side); a body
//! that reaches it from behind passes through (ray casts see both sides), unless its
//! mesh shape is two-sided: then the triangle is flipped towards a shape whose centroid
//! lies behind it (`MeshData::facing`), and pushes it out through its back face.
//!
//! Smooth internal edges, after Jolt's active edges and Bullet's internal-edge utility:
//! each triangle edge is *active* or not (see `geometry::mesh`: flat and valley edges
//! shared with a neighbour are inactive). When the manifold's normal leans away from the
//! face normal only towards inactive edges (a box sliding over a floor meets the next
//! triangle's wall or edge), the contact is rebuilt with the face normal: the convex shape
//! against the triangle's front face, clipped to the triangle. So a body crossing an
//! internal edge never sees the edge, and no vertical jump comes from it.

use super::clip::face_contact;
use super::sat::to_frame;
use super::{Manifold, SatCache, collide_hull_and_capsule, collide_hull_and_sphere, collide_hulls};
use crate::geometry::hull::{HalfEdge, HullView, MAX_HULL_VERTICES, Plane};
use crate::geometry::mesh::Triangle;
use crate::geometry::{Capsule, Sphere};
use crate::math::{Transform, Vec3};

/// How deep below its face a triangle's prism reaches, metres: a body sunk deeper than
/// this into a surface is no longer pushed out (continuous collision keeps fast bodies
/// from getting there).
pub const TRIANGLE_DEPTH: f32 = 0.5;

/// A normal within this cosine of the face normal is the face normal (about 0.8°).
const FACE_COS: f32 = 0.9999;

/// A normal leans towards an edge when its in-plane part has at least this component
/// along the edge's outward direction.
const LEAN: f32 = 1.0e-3;

/// Points this far outside a triangle's edge still count as over it.
const INSIDE_TOLERANCE: f32 = 1.0e-4;

/// The prism's half-edges: vertices 0–2 are the triangle, 3–5 the same points below.
/// Edges (pairs 2i, 2i+1): 0-1, 1-2, 2-0 (top), 3-4, 4-5, 5-3 (bottom), 0-3, 1-4, 2-5.
/// Faces: 0 top (0,1,2), 1 bottom (3,5,4), 2 + k the wall under top edge k.
const PRISM_EDGES: [HalfEdge; 18] = prism_edges();
const PRISM_FACE_EDGES: [u16; 5] = [0, 11, 1, 3, 5];

const fn prism_edges() -> [HalfEdge; 18] {
    // Each face as its loop of half-edges.
    const LOOPS: [&[u16]; 5] = [
        &[0, 2, 4],
        &[11, 9, 7],
        &[1, 12, 6, 15],
        &[3, 14, 8, 17],
        &[5, 16, 10, 13],
    ];
    const ENDS: [(u8, u8); 9] = [
        (0, 1),
        (1, 2),
        (2, 0),
        (3, 4),
        (4, 5),
        (5, 3),
        (0, 3),
        (1, 4),
        (2, 5),
    ];
    let mut edges = [HalfEdge {
        next: 0,
        twin: 0,
        origin: 0,
        face: 0,
    }; 18];
    let mut f = 0;
    while f < 5 {
        let l = LOOPS[f];
        let mut i = 0;
        while i < l.len() {
            let h = l[i] as usize;
            let (a, b) = ENDS[h / 2];
            edges[h] = HalfEdge {
                next: l[(i + 1) % l.len()],
                twin: (h ^ 1) as u16,
                origin: if h % 2 == 0 { a } else { b },
                face: f as u8,
            };
            i += 1;
        }
        f += 1;
    }
    edges
}

/// A triangle as a prism hull, in the triangle's (shape) frame.
pub(crate) struct Prism {
    pub vertices: [Vec3; 6],
    pub planes: [Plane; 5],
    pub centroid: Vec3,
    /// The face normal.
    pub normal: Vec3,
    /// Each top edge's outward direction in the face's plane.
    pub outward: [Vec3; 3],
}

impl Prism {
    pub(crate) fn new(t: &Triangle) -> Prism {
        let f = t.normal();
        let below = f * TRIANGLE_DEPTH;
        let v = t.v;
        let vertices = [v[0], v[1], v[2], v[0] - below, v[1] - below, v[2] - below];
        let mut outward = [Vec3::ZERO; 3];
        let mut planes = [Plane::default(); 5];
        planes[0] = Plane {
            normal: f,
            offset: f.dot(v[0]),
        };
        planes[1] = Plane {
            normal: -f,
            offset: -f.dot(vertices[3]),
        };
        for k in 0..3 {
            let e = (v[(k + 1) % 3] - v[k]).cross(f).normalize();
            outward[k] = e;
            planes[2 + k] = Plane {
                normal: e,
                offset: e.dot(v[k]),
            };
        }
        let third = 1.0 / 3.0;
        let centroid = (v[0] + v[1] + v[2]) * third - below * 0.5;
        Prism {
            vertices,
            planes,
            centroid,
            normal: f,
            outward,
        }
    }

    pub(crate) fn view(&self) -> HullView<'_> {
        HullView {
            vertices: &self.vertices,
            planes: &self.planes,
            face_edges: &PRISM_FACE_EDGES,
            edges: &PRISM_EDGES,
            centroid: self.centroid,
        }
    }
}

/// A convex shape as the triangle collider takes it.
#[derive(Clone, Copy)]
pub(crate) enum Convex<'a> {
    Sphere(&'a Sphere),
    Capsule(&'a Capsule),
    Hull(HullView<'a>),
}

impl Convex<'_> {
    /// The shape's centroid in its own frame (a hull's centroid, a capsule's midpoint).
    pub(crate) fn centroid(&self) -> Vec3 {
        match self {
            Convex::Sphere(s) => s.center,
            Convex::Capsule(c) => (c.center1 + c.center2) * 0.5,
            Convex::Hull(h) => h.centroid,
        }
    }
}

/// Whether a manifold normal (triangle frame, out of the triangle) should give way to the
/// face normal: it leans off the face, not backwards, and only towards inactive edges.
fn use_face_normal(prism: &Prism, active: u8, n: Vec3) -> bool {
    let f = prism.normal;
    let d = n.dot(f);
    if !(-0.5..FACE_COS).contains(&d) {
        return false;
    }
    let lean = n - f * d;
    for k in 0..3 {
        if active & (1 << k) != 0 && lean.dot(prism.outward[k]) > LEAN {
            return false;
        }
    }
    true
}

/// The manifold of a triangle (shape A, frame `xf_t`) and a convex shape (B, frame
/// `xf_c`), normal from the triangle to the shape, with smooth internal edges.
pub(crate) fn collide_triangle(
    tri: &Triangle,
    xf_t: &Transform,
    convex: &Convex,
    xf_c: &Transform,
    speculative_distance: f32,
    cache: &mut SatCache,
) -> Manifold {
    let prism = Prism::new(tri);
    let view = prism.view();
    let m = match convex {
        Convex::Hull(h) => collide_hulls(&view, xf_t, h, xf_c, speculative_distance, cache),
        Convex::Capsule(c) => collide_hull_and_capsule(&view, xf_t, c, xf_c, speculative_distance),
        Convex::Sphere(s) => collide_hull_and_sphere(&view, xf_t, s, xf_c, speculative_distance),
    };
    if m.count == 0 {
        return m;
    }
    let n = xf_t.q.inv_rotate(m.normal);
    if !use_face_normal(&prism, tri.active, n) {
        return m;
    }
    face_manifold(&prism, xf_t, convex, xf_c, speculative_distance)
}

/// The contact of a convex shape against the triangle's front face alone: normal `f`,
/// only what lies over the triangle.
fn face_manifold(
    prism: &Prism,
    xf_t: &Transform,
    convex: &Convex,
    xf_c: &Transform,
    spec: f32,
) -> Manifold {
    let xf = xf_t.inv_mul(xf_c);
    let f = prism.normal;
    let top = prism.vertices[0];
    let mut m = Manifold {
        normal: xf_t.q.rotate(f),
        ..Manifold::default()
    };
    match convex {
        Convex::Hull(h) => {
            let mut buffer = [Vec3::ZERO; MAX_HULL_VERTICES];
            if h.vertices.len() > MAX_HULL_VERTICES {
                return Manifold::default();
            }
            let vc = to_frame(&xf, h.vertices, &mut buffer);
            let view = prism.view();
            return face_contact(&view, 0, h, vc, xf.q, xf_t, false, spec).unwrap_or_default();
        }
        Convex::Sphere(s) => {
            let c = xf.apply(s.center);
            if !over_triangle(prism, c) {
                return Manifold::default();
            }
            let h = f.dot(c - top);
            let sep = h - s.radius;
            if sep < spec {
                m.push(xf_t, c - f * ((h + s.radius) * 0.5), sep, 0);
            }
        }
        Convex::Capsule(cap) => {
            let (mut p, mut q) = (xf.apply(cap.center1), xf.apply(cap.center2));
            // Clip the segment to the three walls.
            for k in 0..3 {
                let e = prism.outward[k];
                let v = prism.vertices[k];
                let (dp, dq) = (e.dot(p - v), e.dot(q - v));
                if dp > INSIDE_TOLERANCE && dq > INSIDE_TOLERANCE {
                    return Manifold::default();
                }
                if dp > INSIDE_TOLERANCE {
                    p = p + (q - p) * (dp / (dp - dq));
                } else if dq > INSIDE_TOLERANCE {
                    q = q + (p - q) * (dq / (dq - dp));
                }
            }
            for (i, x) in [p, q].into_iter().enumerate() {
                let h = f.dot(x - top);
                let sep = h - cap.radius;
                if sep < spec {
                    m.push(xf_t, x - f * ((h + cap.radius) * 0.5), sep, i as u32);
                }
            }
        }
    }
    m
}

/// Whether `p` lies over the triangle (inside its three walls, within a tolerance).
fn over_triangle(prism: &Prism, p: Vec3) -> bool {
    (0..3).all(|k| prism.outward[k].dot(p - prism.vertices[k]) <= INSIDE_TOLERANCE)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::hull::BoxHull;
    use crate::math::Quat;

    fn floor_triangle(active: u8) -> Triangle {
        Triangle {
            v: [
                Vec3::new(0.0, 0.0, 0.0),
                Vec3::new(0.0, 0.0, 1.0),
                Vec3::new(1.0, 0.0, 0.0),
            ],
            active,
        }
    }

    #[test]
    fn prism_is_a_closed_half_edge_mesh_with_outward_planes() {
        let p = Prism::new(&floor_triangle(7));
        let h = p.view();
        for (i, e) in h.edges.iter().enumerate() {
            assert_eq!(e.twin as usize, i ^ 1);
            assert_eq!(h.edges[i ^ 1].origin, h.edges[e.next as usize].origin);
            assert_ne!(h.edges[i ^ 1].face, e.face);
        }
        for (f, &start) in h.face_edges.iter().enumerate() {
            let mut e = start as usize;
            let mut n = 0;
            loop {
                assert_eq!(h.edges[e].face as usize, f);
                let v = h.vertices[h.edges[e].origin as usize];
                assert!(h.planes[f].distance(v).abs() < 1e-6);
                assert!(h.planes[f].distance(h.centroid) < 0.0);
                e = h.edges[e].next as usize;
                n += 1;
                if e == start as usize {
                    break;
                }
            }
            assert_eq!(n, if f < 2 { 3 } else { 4 });
        }
        assert_eq!(p.normal, Vec3::Y);
    }

    #[test]
    fn a_box_resting_on_a_triangle_gets_the_face_normal() {
        let tri = floor_triangle(7);
        let cube = BoxHull::new(Vec3::splat(0.1), Vec3::ZERO, Quat::IDENTITY);
        let xf_c = Transform::new(Vec3::new(0.3, 0.099, 0.3), Quat::IDENTITY);
        let mut cache = SatCache::default();
        let m = collide_triangle(
            &tri,
            &Transform::IDENTITY,
            &Convex::Hull(cube.view()),
            &xf_c,
            0.02,
            &mut cache,
        );
        assert_eq!(m.count, 4);
        assert!((m.normal - Vec3::Y).length() < 1e-6);
        for p in &m.points[..4] {
            assert!((p.separation + 0.001).abs() < 1e-5, "{}", p.separation);
        }
    }

    #[test]
    fn a_wall_contact_at_an_inactive_edge_becomes_a_face_contact() {
        // A box straddling the triangle's x = 0 edge, sunk 5 mm: the wall under that edge
        // would push it sideways (overlap 2 mm along x); inactive, it pushes up.
        let cube = BoxHull::new(Vec3::splat(0.1), Vec3::ZERO, Quat::IDENTITY);
        let xf_c = Transform::new(Vec3::new(-0.098, 0.095, 0.3), Quat::IDENTITY);
        for (active, up) in [(0u8, true), (7u8, false)] {
            let mut cache = SatCache::default();
            let m = collide_triangle(
                &floor_triangle(active),
                &Transform::IDENTITY,
                &Convex::Hull(cube.view()),
                &xf_c,
                0.02,
                &mut cache,
            );
            assert!(m.count > 0);
            assert_eq!((m.normal - Vec3::Y).length() < 1e-6, up, "{:?}", m.normal);
            if up {
                for p in &m.points[..m.count as usize] {
                    assert!((p.separation + 0.005).abs() < 1e-5);
                    assert!(p.point.x >= -1e-4);
                }
            }
        }
    }

    #[test]
    fn spheres_and_capsules_over_an_inactive_edge_are_pushed_up() {
        let s = Sphere {
            center: Vec3::ZERO,
            radius: 0.1,
        };
        let xf = Transform::new(Vec3::new(-0.05, 0.09, 0.3), Quat::IDENTITY);
        let mut cache = SatCache::default();
        let m = collide_triangle(
            &floor_triangle(0),
            &Transform::IDENTITY,
            &Convex::Sphere(&s),
            &xf,
            0.02,
            &mut cache,
        );
        // The centre is outside the triangle: its neighbour holds this contact.
        assert_eq!(m.count, 0);
        let xf = Transform::new(Vec3::new(0.01, 0.09, 0.3), Quat::IDENTITY);
        let m = collide_triangle(
            &floor_triangle(0),
            &Transform::IDENTITY,
            &Convex::Sphere(&s),
            &xf,
            0.02,
            &mut cache,
        );
        assert_eq!(m.count, 1);
        assert!((m.normal - Vec3::Y).length() < 1e-6);
        assert!((m.points[0].separation + 0.01).abs() < 1e-6);
        let c = Capsule {
            center1: Vec3::new(-0.3, 0.0, 0.0),
            center2: Vec3::new(0.3, 0.0, 0.0),
            radius: 0.1,
        };
        let xf = Transform::new(Vec3::new(0.0, 0.095, 0.3), Quat::IDENTITY);
        let m = collide_triangle(
            &floor_triangle(0),
            &Transform::IDENTITY,
            &Convex::Capsule(&c),
            &xf,
            0.02,
            &mut cache,
        );
        assert_eq!(m.count, 2);
        assert!((m.normal - Vec3::Y).length() < 1e-6);
        for p in &m.points[..2] {
            assert!((p.separation + 0.005).abs() < 1e-5);
            assert!(p.point.x >= -1e-4 && p.point.x <= 0.3 + 1e-4);
        }
    }
}
