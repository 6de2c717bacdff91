//! Conversions between Godot's math types (f32 `real`) and `maul3d`'s.

use godot::prelude::*;
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
