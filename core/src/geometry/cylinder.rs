//! Cylinders and planes (half-spaces): their geometry, exact mass, bounds, point tests and
//! ray casts, and the 32-sided prism a cylinder collides as where no exact contact applies.
//!
//! A cylinder is exact in its mass and inertia, bounds, ray casts, point test, explosion
//! area, its contact with a plane, and its contact with any face (of a box, a hull, or
//! another cylinder's prism) that carries it alone (see
//! `collide::cylinder_plane::refine_cylinder_on_hull_face`). Elsewhere (edges, vertices,
//! spheres, capsules, distance, casts, time of impact) it is the prism inscribed in it with
//! [`CYLINDER_SIDES`] sides (vertices on the true surface), rebuilt from the dimensions
//! whenever it is needed: content, never state.

use super::MassData;
use super::hull::{HalfEdge, HullView, Plane};
use crate::math::{Aabb, Mat3, PI, Quat, Transform, Vec3, abs, max, min, sqrt};

/// A solid cylinder: the points within `radius` of its axis and within `half_height` of
/// its centre along the axis. The axis is the y axis of `rotation` (as Godot's
/// CylinderShape3D), all in the body frame.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Cylinder {
    /// Centre in the body frame.
    pub center: Vec3,
    /// Rotation in the body frame; the axis is `rotation · y`.
    pub rotation: Quat,
    /// Half the length along the axis (> 0).
    pub half_height: f32,
    /// Radius (> 0).
    pub radius: f32,
}

impl Default for Cylinder {
    fn default() -> Cylinder {
        Cylinder {
            center: Vec3::ZERO,
            rotation: Quat::IDENTITY,
            half_height: 0.5,
            radius: 0.5,
        }
    }
}

/// A plane bounding a half-space: the points `x` of the body frame with
/// `normal · x <= offset` are solid. Only static bodies take one.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PlaneShape {
    /// Outward unit normal in the body frame (a non-unit one is normalised at create).
    pub normal: Vec3,
    /// Offset of the surface along the normal from the body origin.
    pub offset: f32,
}

impl Default for PlaneShape {
    fn default() -> PlaneShape {
        PlaneShape {
            normal: Vec3::Y,
            offset: 0.0,
        }
    }
}

/// Sides of the prism a cylinder collides as against non-plane shapes.
pub const CYLINDER_SIDES: usize = 32;
const N: usize = CYLINDER_SIDES;

/// How far from its body's origin a plane's bounds reach (2^20 m): the half-space clipped
/// to this cube keeps the broad phase finite and leaves room under `POSITION_LIMIT`.
pub const PLANE_EXTENT: f32 = 1_048_576.0;

/// cos(k · 11.25°) for k = 0..=8, the ring's angles in the first quadrant.
const RING_COS: [f32; 9] = [
    1.0,
    0.980_785_3,
    0.923_879_5,
    0.831_469_6,
    0.707_106_77,
    0.555_570_24,
    0.382_683_43,
    0.195_090_32,
    0.0,
];

/// cos((2j + 1) · 5.625°) for j = 0..8: the side normals' angles in the first quadrant.
pub(crate) const MID_COS: [f32; 8] = [
    0.995_184_7,
    0.956_940_35,
    0.881_921_3,
    0.773_010_43,
    0.634_393_3,
    0.471_396_74,
    0.290_284_66,
    0.098_017_14,
];

/// Rotates (c, s) by `q` quarter turns.
#[inline]
fn quarter(c: f32, s: f32, q: usize) -> (f32, f32) {
    match q & 3 {
        0 => (c, s),
        1 => (-s, c),
        2 => (-c, -s),
        _ => (s, -c),
    }
}

/// (cos, sin) of ring vertex `k`'s angle 2πk/N.
#[inline]
pub(crate) fn ring(k: usize) -> (f32, f32) {
    let k = k % N;
    let m = k % 8;
    quarter(RING_COS[m], RING_COS[8 - m], k / 8)
}

/// (cos, sin) of side `k`'s normal angle 2π(k + ½)/N.
#[inline]
fn mid(k: usize) -> (f32, f32) {
    let k = k % N;
    let m = k % 8;
    quarter(MID_COS[m], MID_COS[7 - m], k / 8)
}

/// The prism's half-edges (twins adjacent) and one half-edge per face, built at compile
/// time. Vertex `i` is bottom ring vertex `i`, vertex `N + i` top ring vertex `i`; face 0
/// is the bottom cap, face 1 the top cap, face `2 + i` the side from ring `i` to `i + 1`.
/// For each `i`: half-edges `6i`, `6i + 1` join bottom `i` and `i + 1`; `6i + 2`, `6i + 3`
/// top `i` and `i + 1`; `6i + 4`, `6i + 5` bottom `i` and top `i`.
const fn prism_topology() -> ([HalfEdge; 6 * N], [u16; N + 2]) {
    let mut e = [HalfEdge {
        next: 0,
        twin: 0,
        origin: 0,
        face: 0,
    }; 6 * N];
    let mut faces = [0u16; N + 2];
    let mut i = 0;
    while i < N {
        let j = (i + 1) % N;
        let p = (i + N - 1) % N;
        let b = 6 * i;
        let side = (2 + i) as u8;
        // Bottom cap: bottom i → bottom i + 1.
        e[b] = HalfEdge {
            next: (6 * j) as u16,
            twin: (b + 1) as u16,
            origin: i as u8,
            face: 0,
        };
        // Side i: bottom i + 1 → bottom i, then up the edge at i.
        e[b + 1] = HalfEdge {
            next: (b + 4) as u16,
            twin: b as u16,
            origin: j as u8,
            face: side,
        };
        // Side i: top i → top i + 1, then down the edge at i + 1.
        e[b + 2] = HalfEdge {
            next: (6 * j + 5) as u16,
            twin: (b + 3) as u16,
            origin: (N + i) as u8,
            face: side,
        };
        // Top cap: top i + 1 → top i.
        e[b + 3] = HalfEdge {
            next: (6 * p + 3) as u16,
            twin: (b + 2) as u16,
            origin: (N + j) as u8,
            face: 1,
        };
        // Side i: bottom i → top i.
        e[b + 4] = HalfEdge {
            next: (b + 2) as u16,
            twin: (b + 5) as u16,
            origin: i as u8,
            face: side,
        };
        // Side i − 1: top i → bottom i, then back along the bottom.
        e[b + 5] = HalfEdge {
            next: (6 * p + 1) as u16,
            twin: (b + 4) as u16,
            origin: (N + i) as u8,
            face: (2 + p) as u8,
        };
        faces[2 + i] = (b + 4) as u16;
        i += 1;
    }
    faces[0] = 0;
    faces[1] = 3;
    (e, faces)
}

const PRISM_TOPOLOGY: ([HalfEdge; 6 * N], [u16; N + 2]) = prism_topology();

/// A cylinder's collision prism, built on the stack from its dimensions.
#[derive(Clone, Copy, Debug)]
pub struct CylinderHull {
    /// Bottom ring then top ring, in the body frame.
    pub vertices: [Vec3; 2 * N],
    /// Bottom cap, top cap, then the sides.
    pub planes: [Plane; N + 2],
    /// The centre in the body frame.
    pub center: Vec3,
}

impl CylinderHull {
    /// The prism inscribed in `c`.
    pub fn new(c: &Cylinder) -> CylinderHull {
        let (r, h) = (c.radius, c.half_height);
        let q = c.rotation;
        let mut vertices = [Vec3::ZERO; 2 * N];
        for i in 0..N {
            let (cs, sn) = ring(i);
            vertices[i] = q.rotate(Vec3::new(r * cs, -h, r * sn)) + c.center;
            vertices[N + i] = q.rotate(Vec3::new(r * cs, h, r * sn)) + c.center;
        }
        let mut planes = [Plane::default(); N + 2];
        let axis = q.rotate(Vec3::Y);
        let along = axis.dot(c.center);
        planes[0] = Plane {
            normal: -axis,
            offset: h - along,
        };
        planes[1] = Plane {
            normal: axis,
            offset: h + along,
        };
        let apothem = r * MID_COS[0];
        for i in 0..N {
            let (cs, sn) = mid(i);
            let n = q.rotate(Vec3::new(cs, 0.0, sn));
            planes[2 + i] = Plane {
                normal: n,
                offset: apothem + n.dot(c.center),
            };
        }
        CylinderHull {
            vertices,
            planes,
            center: c.center,
        }
    }

    /// The prism as a hull view.
    #[inline]
    pub fn view(&self) -> HullView<'_> {
        HullView {
            vertices: &self.vertices,
            planes: &self.planes,
            face_edges: &PRISM_TOPOLOGY.1,
            edges: &PRISM_TOPOLOGY.0,
            centroid: self.center,
        }
    }
}

/// Exact mass data of a solid cylinder.
pub fn cylinder_mass(c: &Cylinder, density: f32) -> MassData {
    let r2 = c.radius * c.radius;
    let mass = density * PI * r2 * 2.0 * c.half_height;
    let axial = 0.5 * mass * r2;
    let length = 2.0 * c.half_height;
    let across = mass * (3.0 * r2 + length * length) / 12.0;
    let local = Mat3::diagonal(Vec3::new(across, axial, across));
    MassData {
        mass,
        center: c.center,
        inertia: local.rotate_tensor(c.rotation),
    }
}

/// Exact bounds of a cylinder placed by `xf`.
pub fn cylinder_aabb(c: &Cylinder, xf: &Transform) -> Aabb {
    let center = xf.apply(c.center);
    let axis = xf.q.rotate(c.rotation.rotate(Vec3::Y));
    let mut e = [0.0f32; 3];
    for (i, ei) in e.iter_mut().enumerate() {
        let a = axis.get(i);
        *ei = c.half_height * abs(a) + c.radius * sqrt(max(0.0, 1.0 - a * a));
    }
    let e = Vec3::new(e[0], e[1], e[2]);
    Aabb {
        lower: center - e,
        upper: center + e,
    }
}

/// Bounds of a plane's half-space within [`PLANE_EXTENT`] of its body origin, for a body
/// rotated by `q` (relative to the body origin).
pub fn plane_aabb(p: &PlaneShape, q: Quat) -> Aabb {
    let n = q.rotate(p.normal);
    let l = PLANE_EXTENT;
    let mut lower = [-l; 3];
    let mut upper = [l; 3];
    for i in 0..3 {
        let ni = n.get(i);
        let mut rest = 0.0;
        for j in 0..3 {
            if j != i {
                rest += abs(n.get(j));
            }
        }
        // n_i x_i <= offset − Σ n_j x_j, loosest over the cube: offset + L Σ|n_j|.
        let bound = p.offset + l * rest;
        if ni > 0.0 {
            upper[i] = max(-l, min(l, bound / ni));
        } else if ni < 0.0 {
            lower[i] = min(l, max(-l, bound / ni));
        }
    }
    Aabb {
        lower: Vec3::new(lower[0], lower[1], lower[2]),
        upper: Vec3::new(upper[0], upper[1], upper[2]),
    }
}

/// Farthest point of a cylinder from `p` (body frame).
pub fn cylinder_max_extent(c: &Cylinder, p: Vec3) -> f32 {
    let local = c.rotation.inv_rotate(p - c.center);
    let radial = sqrt(local.x * local.x + local.z * local.z);
    let dy = abs(local.y) + c.half_height;
    let dr = radial + c.radius;
    sqrt(dy * dy + dr * dr)
}

/// Whether `p` (body frame) is in the cylinder, surface included.
pub fn cylinder_contains(c: &Cylinder, p: Vec3) -> bool {
    let l = c.rotation.inv_rotate(p - c.center);
    abs(l.y) <= c.half_height && l.x * l.x + l.z * l.z <= c.radius * c.radius
}

/// Whether `p` (body frame) is in the half-space, surface included.
pub fn plane_contains(p: &PlaneShape, x: Vec3) -> bool {
    p.normal.dot(x) <= p.offset
}

/// The area a cylinder shows along unit direction `d` (body frame).
pub fn cylinder_projected_area(c: &Cylinder, d: Vec3) -> f32 {
    let a = abs(c.rotation.rotate(Vec3::Y).dot(d));
    let side = sqrt(max(0.0, 1.0 - a * a));
    PI * c.radius * c.radius * a + 4.0 * c.radius * c.half_height * side
}

/// A point set standing in for a plane near `near` (body frame): a slab of half-size
/// `extent` along the surface and depth `extent` below it, centred under `near`, for
/// distance, cast and time of impact against shapes within `extent` of `near`.
pub fn plane_slab(p: &PlaneShape, near: Vec3, extent: f32) -> [Vec3; 8] {
    let n = p.normal;
    let foot = near - n * (n.dot(near) - p.offset);
    let t1 = n.perpendicular().normalize();
    let t2 = n.cross(t1);
    let mut out = [Vec3::ZERO; 8];
    for (k, o) in out.iter_mut().enumerate() {
        let s1 = if k & 1 == 0 { -extent } else { extent };
        let s2 = if k & 2 == 0 { -extent } else { extent };
        let down = if k & 4 == 0 { 0.0 } else { extent };
        *o = foot + t1 * s1 + t2 * s2 - n * down;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::{cos, sin};

    #[test]
    fn ring_and_side_tables_match_the_sine_and_cosine() {
        for k in 0..N {
            let a = 2.0 * PI * k as f32 / N as f32;
            let (c, s) = ring(k);
            assert!(
                (c - cos(a)).abs() < 1e-6 && (s - sin(a)).abs() < 1e-6,
                "ring {k}"
            );
            let a = 2.0 * PI * (k as f32 + 0.5) / N as f32;
            let (c, s) = mid(k);
            assert!(
                (c - cos(a)).abs() < 1e-6 && (s - sin(a)).abs() < 1e-6,
                "mid {k}"
            );
        }
    }

    #[test]
    fn prism_is_a_closed_counter_clockwise_half_edge_mesh() {
        let c = Cylinder {
            center: Vec3::new(0.5, -1.0, 2.0),
            rotation: Quat::from_axis_angle(Vec3::new(1.0, 2.0, 3.0).normalize(), 0.7),
            half_height: 0.8,
            radius: 0.4,
        };
        let hull = CylinderHull::new(&c);
        let h = hull.view();
        assert!(crate::collide::hull_fits(&h));
        for (i, e) in h.edges.iter().enumerate() {
            assert_eq!(e.twin as usize, i ^ 1);
            let t = h.edges[i ^ 1];
            assert_eq!(t.origin, h.edges[e.next as usize].origin, "edge {i}");
            assert_ne!(t.face, e.face);
        }
        for (f, &start) in h.face_edges.iter().enumerate() {
            let mut e = start as usize;
            let mut steps = 0;
            loop {
                assert_eq!(h.edges[e].face as usize, f);
                let v0 = h.vertices[h.edges[e].origin as usize];
                assert!(h.planes[f].distance(v0).abs() < 1e-5, "face {f}");
                let e1 = h.edges[e].next as usize;
                let e2 = h.edges[e1].next as usize;
                let v1 = h.vertices[h.edges[e1].origin as usize];
                let v2 = h.vertices[h.edges[e2].origin as usize];
                // Counter-clockwise seen from outside.
                assert!(
                    (v1 - v0).cross(v2 - v1).dot(h.planes[f].normal) > 0.0,
                    "face {f}"
                );
                e = e1;
                steps += 1;
                if e == start as usize {
                    break;
                }
            }
            assert_eq!(steps, if f < 2 { N } else { 4 });
        }
        // Every vertex is inside or on every plane.
        for v in h.vertices {
            for p in h.planes {
                assert!(p.distance(*v) < 1e-5);
            }
        }
    }

    #[test]
    fn cylinder_bounds_touch_the_prism_rim() {
        let c = Cylinder {
            rotation: Quat::from_axis_angle(Vec3::Z, 0.3),
            ..Cylinder::default()
        };
        let a = cylinder_aabb(&c, &Transform::IDENTITY);
        let hull = CylinderHull::new(&c);
        for v in hull.vertices {
            assert!(v.x <= a.upper.x + 1e-6 && v.x >= a.lower.x - 1e-6);
            assert!(v.y <= a.upper.y + 1e-6 && v.y >= a.lower.y - 1e-6);
        }
        // A ring vertex lies in the plane of the tilt, so the x bound is reached.
        let top = hull.vertices.iter().fold(f32::MIN, |m, v| max(m, v.y));
        assert!((top - a.upper.y).abs() < 1e-3);
    }
}
