//! Mass properties of shapes: closed forms for spheres, capsules and boxes, exact
//! polyhedron integrals for hulls. Inertia is about the centre of mass, in body axes.
//!
//! Hull integrals run in `f64` (only `+ - * /`, so still the same bits everywhere): the
//! second moments of a fan of tetrahedra cancel heavily when shifted to the centre of
//! mass, and `f32` would lose the 1e-5 accuracy on long or off-centre hulls.

use super::hull::HullView;
use super::{Capsule, MassData, Sphere};
use crate::math::{DVec3, Mat3, PI, Quat, Vec3};

/// Mass data of a solid sphere of the given density.
pub fn sphere_mass(s: &Sphere, density: f32) -> MassData {
    let r = s.radius;
    let r2 = r * r;
    let mass = density * (4.0 / 3.0) * PI * r2 * r;
    let i = 0.4 * mass * r2;
    MassData {
        mass,
        center: s.center,
        inertia: Mat3::diagonal(Vec3::splat(i)),
    }
}

/// Mass data of a solid capsule (a cylinder and two hemispherical caps) of the given
/// density, exact for any segment direction.
pub fn capsule_mass(c: &Capsule, density: f32) -> MassData {
    let r = c.radius;
    let r2 = r * r;
    let (axis, length) = (c.center2 - c.center1).normalize_and_length();
    let cylinder = density * PI * r2 * length;
    let ball = density * (4.0 / 3.0) * PI * r2 * r;
    // About the axis: a cylinder's m r²/2 and a ball's 2/5 m r².
    let axial = 0.5 * cylinder * r2 + 0.4 * ball * r2;
    // Across the axis: the cylinder's m (r²/4 + L²/12), and each hemisphere's own
    // 83/320 m r² moved by L/2 + 3r/8 to the centre, which sums to m (2/5 r² + L²/4 + 3/8 L r).
    let l2 = length * length;
    let across =
        cylinder * (0.25 * r2 + l2 / 12.0) + ball * (0.4 * r2 + 0.25 * l2 + 0.375 * length * r);
    // I = across · 1 + (axial − across) · a aᵀ; a zero axis (a sphere) leaves it isotropic.
    let k = axial - across;
    let a = axis;
    let inertia = Mat3::from_cols(
        Vec3::new(across + k * a.x * a.x, k * a.x * a.y, k * a.x * a.z),
        Vec3::new(k * a.y * a.x, across + k * a.y * a.y, k * a.y * a.z),
        Vec3::new(k * a.z * a.x, k * a.z * a.y, across + k * a.z * a.z),
    );
    MassData {
        mass: cylinder + ball,
        center: (c.center1 + c.center2) * 0.5,
        inertia,
    }
}

/// Mass data of a solid box of half-extents `half`, centred at `center` and rotated by
/// `rotation` in the body frame.
pub fn box_mass(half: Vec3, center: Vec3, rotation: Quat, density: f32) -> MassData {
    let mass = density * 8.0 * half.x * half.y * half.z;
    let (x2, y2, z2) = (half.x * half.x, half.y * half.y, half.z * half.z);
    let k = mass / 3.0;
    let local = Mat3::diagonal(Vec3::new(k * (y2 + z2), k * (x2 + z2), k * (x2 + y2)));
    MassData {
        mass,
        center,
        inertia: local.rotate_tensor(rotation),
    }
}

/// Volume, first moment and second moment (`∫ x xᵀ dV`, symmetric: xx, yy, zz, xy, xz,
/// yz) of a hull, all relative to `reference`.
struct Integrals {
    reference: DVec3,
    volume: f64,
    first: DVec3,
    second: [f64; 6],
}

/// Sums the tetrahedra from the vertex average to a fan of triangles over every face,
/// in face order then loop order. Stops at the first broken loop or bad index (never
/// panics on a malformed view), returning what it summed.
fn hull_integrals(h: &HullView) -> Integrals {
    let mut reference = DVec3::ZERO;
    for v in h.vertices {
        reference = reference + v.to_f64();
    }
    if !h.vertices.is_empty() {
        let inv = 1.0 / h.vertices.len() as f64;
        reference = DVec3::new(reference.x * inv, reference.y * inv, reference.z * inv);
    }
    let mut out = Integrals {
        reference,
        volume: 0.0,
        first: DVec3::ZERO,
        second: [0.0; 6],
    };
    let vertex = |e: usize| -> Option<DVec3> {
        let edge = h.edges.get(e)?;
        Some(h.vertices.get(edge.origin as usize)?.to_f64() - reference)
    };
    let next = |e: usize| -> Option<usize> { Some(h.edges.get(e)?.next as usize) };
    for &start in h.face_edges {
        let start = start as usize;
        let Some(a) = vertex(start) else { return out };
        let Some(mut e) = next(start) else { return out };
        let mut steps = 0;
        loop {
            let Some(e2) = next(e) else { return out };
            if e2 == start {
                break;
            }
            steps += 1;
            if steps > h.edges.len() {
                return out;
            }
            let (Some(b), Some(c)) = (vertex(e), vertex(e2)) else {
                return out;
            };
            add_tetrahedron(&mut out, a, b, c);
            e = e2;
        }
    }
    out
}

/// Adds the tetrahedron (reference, a, b, c), with `a b c` counter-clockwise from outside.
fn add_tetrahedron(out: &mut Integrals, a: DVec3, b: DVec3, c: DVec3) {
    // det = a · (b × c) = 6 × signed volume.
    let det = a.x * (b.y * c.z - b.z * c.y)
        + a.y * (b.z * c.x - b.x * c.z)
        + a.z * (b.x * c.y - b.y * c.x);
    let volume = det / 6.0;
    let s = a + b + c;
    out.volume += volume;
    let k1 = volume / 4.0;
    out.first = out.first + DVec3::new(s.x * k1, s.y * k1, s.z * k1);
    // ∫ x xᵀ over the tetrahedron = det/120 (a aᵀ + b bᵀ + c cᵀ + s sᵀ).
    let k2 = det / 120.0;
    let m = |i: usize, j: usize| -> f64 {
        a.get(i) * a.get(j) + b.get(i) * b.get(j) + c.get(i) * c.get(j) + s.get(i) * s.get(j)
    };
    out.second[0] += k2 * m(0, 0);
    out.second[1] += k2 * m(1, 1);
    out.second[2] += k2 * m(2, 2);
    out.second[3] += k2 * m(0, 1);
    out.second[4] += k2 * m(0, 2);
    out.second[5] += k2 * m(1, 2);
}

/// Volume and centroid of a hull's solid. A hull without positive volume gives zero and
/// the vertex average.
pub fn hull_volume_and_centroid(h: &HullView) -> (f32, Vec3) {
    let g = hull_integrals(h);
    if !(g.volume > 0.0 && g.volume.is_finite()) {
        return (0.0, g.reference.to_f32());
    }
    let inv = 1.0 / g.volume;
    let c = DVec3::new(g.first.x * inv, g.first.y * inv, g.first.z * inv);
    (g.volume as f32, (g.reference + c).to_f32())
}

/// Mass data of a solid hull of the given density, from exact polyhedron integrals
/// (the divergence theorem over a tetrahedral fan), shifted to the centre of mass by the
/// parallel-axis theorem. A hull without positive volume gets zero mass and inertia.
pub fn hull_mass(h: &HullView, density: f32) -> MassData {
    let g = hull_integrals(h);
    if !(g.volume > 0.0 && g.volume.is_finite()) {
        return MassData {
            mass: 0.0,
            center: g.reference.to_f32(),
            inertia: Mat3::ZERO,
        };
    }
    let inv = 1.0 / g.volume;
    let d = DVec3::new(g.first.x * inv, g.first.y * inv, g.first.z * inv);
    // Second moment about the centre of mass: C − V d dᵀ.
    let v = g.volume;
    let xx = g.second[0] - v * d.x * d.x;
    let yy = g.second[1] - v * d.y * d.y;
    let zz = g.second[2] - v * d.z * d.z;
    let xy = g.second[3] - v * d.x * d.y;
    let xz = g.second[4] - v * d.x * d.z;
    let yz = g.second[5] - v * d.y * d.z;
    // Inertia = ρ (tr(C) 1 − C).
    let rho = density as f64;
    let ixx = (rho * (yy + zz)) as f32;
    let iyy = (rho * (xx + zz)) as f32;
    let izz = (rho * (xx + yy)) as f32;
    let ixy = (-rho * xy) as f32;
    let ixz = (-rho * xz) as f32;
    let iyz = (-rho * yz) as f32;
    MassData {
        mass: (rho * v) as f32,
        center: (g.reference + d).to_f32(),
        inertia: Mat3::from_cols(
            Vec3::new(ixx, ixy, ixz),
            Vec3::new(ixy, iyy, iyz),
            Vec3::new(ixz, iyz, izz),
        ),
    }
}
