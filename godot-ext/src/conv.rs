//! Conversions between Godot's math types (f32 `real`) and `maul3d`'s.

use godot::prelude::*;
use maul3d::math::max;
use maul3d::math::{DVec3, Quat, Vec3};

pub fn v3(v: Vector3) -> Vec3 {
    Vec3::new(v.x, v.y, v.z)
}

pub fn gv(v: Vec3) -> Vector3 {
    Vector3::new(v.x, v.y, v.z)
}

pub fn dv(v: Vector3) -> DVec3 {
    DVec3::new(f64::from(v.x), f64::from(v.y), f64::from(v.z))
}

pub fn gdv(v: DVec3) -> Vector3 {
    Vector3::new(v.x as f32, v.y as f32, v.z as f32)
}

/// The rotation of a basis, scale removed.
pub fn quat(b: Basis) -> Quat {
    let q = b.orthonormalized().get_quaternion();
    let n = q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w;
    if n > 0.0 && n.is_finite() {
        Quat::new(q.x, q.y, q.z, q.w).normalize()
    } else {
        Quat::IDENTITY
    }
}

/// A basis as Maul3D's bodies take it: the rotation (Godot's `orthonormalized`; a mirror is
/// taken out by flipping all three axes first) and what is left of the basis in that
/// rotated frame, `rotation⁻¹ · basis` (scale, a mirror, a shear). The rest is exactly the
/// identity when the basis is a rotation (within [`SCALE_TOLERANCE`]), so an unscaled
/// body's shapes are made from their own transforms, bit for bit.
pub fn split_basis(b: Basis) -> (Quat, Basis) {
    let r = if b.determinant() < 0.0 {
        let [x, y, z] = b.to_cols();
        quat(Basis::from_cols(-x, -y, -z))
    } else {
        quat(b)
    };
    let rest = gbasis(r).transposed() * b;
    if basis_near(rest, Basis::IDENTITY) {
        (r, Basis::IDENTITY)
    } else {
        (r, rest)
    }
}

/// Relative tolerance under which two scales (the rests of [`split_basis`]) are the same:
/// float noise of transforms Godot composes, not a change of size.
pub const SCALE_TOLERANCE: f32 = 1e-4;

/// Whether two bases are equal within [`SCALE_TOLERANCE`] of their largest element.
pub fn basis_near(a: Basis, b: Basis) -> bool {
    let (ca, cb) = (a.to_cols(), b.to_cols());
    let mut size: f32 = 1.0;
    let mut diff: f32 = 0.0;
    for (u, v) in ca.iter().zip(cb.iter()) {
        for (x, y) in [(u.x, v.x), (u.y, v.y), (u.z, v.z)] {
            size = max(size, max(x.abs(), y.abs()));
            diff = max(diff, (x - y).abs());
        }
    }
    diff <= SCALE_TOLERANCE * size
}

pub fn gbasis(q: Quat) -> Basis {
    Basis::from_quaternion(Quaternion::new(q.x, q.y, q.z, q.w))
}

pub fn gtransform(p: DVec3, q: Quat) -> Transform3D {
    Transform3D::new(gbasis(q), gdv(p))
}

/// A float or integer Variant as an `f32`.
pub(crate) fn var_f32(v: &Variant) -> Option<f32> {
    v.try_to::<f64>()
        .ok()
        .or_else(|| v.try_to::<i64>().ok().map(|i| i as f64))
        .map(|x| x as f32)
}
