//! The engine's deterministic math for hosts: the same bits on every target and compiler,
//! whatever the host's floating-point flags, so game code that feeds the simulation
//! (rotations of new bodies, angles) computes what the engine would.

use crate::boundary::value;
use crate::types::*;
use engine::math::{self, Quat, Vec3};

/// sin(x), the engine's own polynomial.
#[unsafe(no_mangle)]
pub extern "C" fn m3Sin(x: f32) -> f32 {
    value("m3Sin", 0.0, || math::sin(x))
}

/// cos(x).
#[unsafe(no_mangle)]
pub extern "C" fn m3Cos(x: f32) -> f32 {
    value("m3Cos", 0.0, || math::cos(x))
}

/// atan2(y, x).
#[unsafe(no_mangle)]
pub extern "C" fn m3Atan2(y: f32, x: f32) -> f32 {
    value("m3Atan2", 0.0, || math::atan2(y, x))
}

/// acos(x), x clamped to [-1, 1].
#[unsafe(no_mangle)]
pub extern "C" fn m3Acos(x: f32) -> f32 {
    value("m3Acos", 0.0, || math::acos(x))
}

/// The correctly rounded square root.
#[unsafe(no_mangle)]
pub extern "C" fn m3Sqrt(x: f32) -> f32 {
    value("m3Sqrt", 0.0, || math::sqrt(x))
}

/// `v` scaled to unit length; the zero vector when too short.
#[unsafe(no_mangle)]
pub extern "C" fn m3Normalize(v: m3Vec3) -> m3Vec3 {
    value("m3Normalize", m3Vec3::default(), || {
        Vec3::from(v).normalize().into()
    })
}

/// `q` scaled to unit length; identity when too short.
#[unsafe(no_mangle)]
pub extern "C" fn m3NormalizeQuat(q: m3Quat) -> m3Quat {
    value("m3NormalizeQuat", IDENTITY_QUAT, || {
        Quat::from(q).normalize().into()
    })
}

/// The rotation by `angle` radians about the unit vector `axis`.
#[unsafe(no_mangle)]
pub extern "C" fn m3MakeQuatFromAxisAngle(axis: m3Vec3, angle: f32) -> m3Quat {
    value("m3MakeQuatFromAxisAngle", IDENTITY_QUAT, || {
        Quat::from_axis_angle(axis.into(), angle).into()
    })
}

/// The rotation `a` after `b` (`a * b`).
#[unsafe(no_mangle)]
pub extern "C" fn m3MulQuat(a: m3Quat, b: m3Quat) -> m3Quat {
    value("m3MulQuat", IDENTITY_QUAT, || {
        (Quat::from(a) * Quat::from(b)).into()
    })
}

/// `v` rotated by `q`.
#[unsafe(no_mangle)]
pub extern "C" fn m3RotateVector(q: m3Quat, v: m3Vec3) -> m3Vec3 {
    value("m3RotateVector", m3Vec3::default(), || {
        Quat::from(q).rotate(v.into()).into()
    })
}

/// `v` rotated by the inverse of `q`.
#[unsafe(no_mangle)]
pub extern "C" fn m3InvRotateVector(q: m3Quat, v: m3Vec3) -> m3Vec3 {
    value("m3InvRotateVector", m3Vec3::default(), || {
        Quat::from(q).inv_rotate(v.into()).into()
    })
}
