//! Unreal units and axes for the Unreal plugin's engine-free core (`Maul3DUnits.h`).
//!
//! Unreal is centimetres, Z up and left-handed (X forward, Y right, Z up); the engine is
//! metres, Y up and right-handed. The map is `engine = (x, z, y) / 100`: swapping Y and Z
//! is a reflection, so it also turns the left-handed frame right-handed, and Unreal's up
//! (+Z) becomes the engine's up (+Y).
//!
//! Unreal builds C++ with fast-math-like settings, so the plugin does no float arithmetic
//! that shapes simulation input: these exports do it here (f64, no fused operations), the
//! same bits on every platform. Under the reflection `P`, a rotation `R` becomes
//! `P R P` — the quaternion `(x, y, z, w)` becomes `(-x, -z, -y, w)` — and an axial
//! vector `ω` (angular velocity, torque) becomes `-P ω`.

use crate::boundary::api;
use crate::refuse;
use crate::shape::{m3Box, m3Capsule, m3Sphere};
use crate::types::*;

/// A vector in Unreal units and axes (as UE's `FVector`).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct m3UnrealVector {
    /// X (forward).
    pub x: f64,
    /// Y (right).
    pub y: f64,
    /// Z (up).
    pub z: f64,
}

/// A rotation in Unreal's axes (as UE's `FQuat`).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct m3UnrealQuat {
    /// X.
    pub x: f64,
    /// Y.
    pub y: f64,
    /// Z.
    pub z: f64,
    /// W (real part).
    pub w: f64,
}

/// A transform in Unreal units (as UE's `FTransform`: scale, rotation, then translation).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct m3UnrealTransform {
    /// Translation, cm.
    pub translation: m3UnrealVector,
    /// Rotation (normalised here; a zero or non-finite one is refused).
    pub rotation: m3UnrealQuat,
    /// Scale (each component's magnitude within [1e-6, 1e6]).
    pub scale: m3UnrealVector,
}

/// The engine's limit on a position component, m (the world's 2^21).
const MAX_POSITION_M: f64 = 2_097_152.0;
/// The largest local offset or size, m.
const MAX_LOCAL_M: f64 = 1.0e6;

type R<T> = Result<T, crate::boundary::Refusal>;

fn finite(name: &'static str, v: f64) -> R<f64> {
    if !v.is_finite() {
        return Err(refuse!(m3_errorArgument, "{name} = {v} must be finite"));
    }
    Ok(v)
}

fn vec(name: &'static str, v: m3UnrealVector) -> R<[f64; 3]> {
    Ok([finite(name, v.x)?, finite(name, v.y)?, finite(name, v.z)?])
}

/// Unreal (x, y, z) → engine axes (x, z, y).
fn swap(v: [f64; 3]) -> [f64; 3] {
    [v[0], v[2], v[1]]
}

fn cm_to_m(v: [f64; 3]) -> [f64; 3] {
    [v[0] / 100.0, v[1] / 100.0, v[2] / 100.0]
}

fn to_f32(name: &'static str, v: [f64; 3], bound: f64) -> R<m3Vec3> {
    for c in v {
        if c.abs() > bound {
            return Err(refuse!(
                m3_errorArgument,
                "{name} component {c} (engine units) must be within ±{bound}"
            ));
        }
    }
    Ok(m3Vec3 {
        x: v[0] as f32,
        y: v[1] as f32,
        z: v[2] as f32,
    })
}

fn from_f32(name: &'static str, v: m3Vec3) -> R<[f64; 3]> {
    Ok([
        finite(name, v.x as f64)?,
        finite(name, v.y as f64)?,
        finite(name, v.z as f64)?,
    ])
}

/// A unit quaternion in Unreal's axes, checked and normalised.
fn unit_quat(name: &'static str, q: m3UnrealQuat) -> R<[f64; 4]> {
    let c = [
        finite(name, q.x)?,
        finite(name, q.y)?,
        finite(name, q.z)?,
        finite(name, q.w)?,
    ];
    let n2 = c[0] * c[0] + c[1] * c[1] + c[2] * c[2] + c[3] * c[3];
    if n2 <= 1.0e-12 || !n2.is_finite() {
        return Err(refuse!(
            m3_errorArgument,
            "{name} has squared norm {n2}: it must be within (1e-12, inf)"
        ));
    }
    let n = n2.sqrt();
    Ok([c[0] / n, c[1] / n, c[2] / n, c[3] / n])
}

/// `v` rotated by the unit quaternion `q` (both in Unreal's axes, as FQuat rotates).
fn rotate(q: [f64; 4], v: [f64; 3]) -> [f64; 3] {
    let (x, y, z, w) = (q[0], q[1], q[2], q[3]);
    // t = 2 (u × v); v' = v + w t + u × t.
    let t = [
        2.0 * (y * v[2] - z * v[1]),
        2.0 * (z * v[0] - x * v[2]),
        2.0 * (x * v[1] - y * v[0]),
    ];
    [
        v[0] + w * t[0] + (y * t[2] - z * t[1]),
        v[1] + w * t[1] + (z * t[0] - x * t[2]),
        v[2] + w * t[2] + (x * t[1] - y * t[0]),
    ]
}

fn quat_to_engine(q: [f64; 4]) -> m3Quat {
    m3Quat {
        x: -q[0] as f32,
        y: -q[2] as f32,
        z: -q[1] as f32,
        w: q[3] as f32,
    }
}

/// A local transform checked: translation (cm), unit rotation, scale magnitudes.
struct Local {
    t: [f64; 3],
    q: [f64; 4],
    s: [f64; 3],
}

fn local(t: m3UnrealTransform) -> R<Local> {
    let s = vec("transform scale", t.scale)?;
    let s = [s[0].abs(), s[1].abs(), s[2].abs()];
    for c in s {
        if !(1.0e-6..=1.0e6).contains(&c) {
            return Err(refuse!(
                m3_errorArgument,
                "transform scale magnitude {c} must be within [1e-6, 1e6]"
            ));
        }
    }
    Ok(Local {
        t: vec("transform translation", t.translation)?,
        q: unit_quat("transform rotation", t.rotation)?,
        s,
    })
}

fn positive(name: &'static str, v: f64) -> R<f64> {
    if v <= 0.0 || !v.is_finite() {
        return Err(refuse!(
            m3_errorArgument,
            "{name} = {v} must be > 0 and finite"
        ));
    }
    Ok(v)
}

fn min2(a: f64, b: f64) -> f64 {
    if a < b { a } else { b }
}

/// The centimetres of a position component `m` (metres) that convert back to exactly `m`
/// (`c / 100 == m`): a whole number of centimetres when one does (so whole-centimetre
/// positions survive a round trip), else `m * 100` or its neighbour that does. The
/// rounded product alone comes back exactly only about two times in three.
fn cm_of(m: f64) -> f64 {
    let c = m * 100.0;
    if c.abs() < 4.0e15 {
        let whole = c.round();
        if whole / 100.0 == m {
            return whole;
        }
    }
    if c / 100.0 == m {
        return c;
    }
    if c == 0.0 || !c.is_finite() {
        return c;
    }
    // The two neighbours of `c` (one bit pattern further from and nearer to zero).
    let bits = c.to_bits();
    for n in [f64::from_bits(bits + 1), f64::from_bits(bits - 1)] {
        if n / 100.0 == m {
            return n;
        }
    }
    c
}

/// An Unreal position (cm) as an engine position (m, relative to the world origin).
///
/// # Safety
/// `out` points to one writable `m3DVec3`, aligned for its type, for the duration of the
/// call (null is refused with `m3_errorArgument`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m3Unreal_PositionToEngine(
    cm: m3UnrealVector,
    out: *mut m3DVec3,
) -> m3Result {
    api("m3Unreal_PositionToEngine", || {
        let o = crate::types::out("out", out)?;
        let m = cm_to_m(swap(vec("position", cm)?));
        for c in m {
            if c.abs() >= MAX_POSITION_M {
                return Err(refuse!(
                    m3_errorArgument,
                    "position component {c} m must be within ±{MAX_POSITION_M} m"
                ));
            }
        }
        // SAFETY: checked non-null.
        unsafe {
            put(
                o,
                m3DVec3 {
                    x: m[0],
                    y: m[1],
                    z: m[2],
                },
            )
        };
        Ok(())
    })
}

/// An engine position (m) as an Unreal position (cm) that converts back to exactly the
/// same engine position (whole centimetres when they do).
///
/// # Safety
/// `out` points to one writable `m3UnrealVector`, aligned for its type, for the duration
/// of the call (null is refused with `m3_errorArgument`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m3Unreal_PositionToUnreal(
    m: m3DVec3,
    out: *mut m3UnrealVector,
) -> m3Result {
    api("m3Unreal_PositionToUnreal", || {
        let o = crate::types::out("out", out)?;
        let v = [
            finite("position", m.x)?,
            finite("position", m.y)?,
            finite("position", m.z)?,
        ];
        // SAFETY: checked non-null.
        unsafe {
            put(
                o,
                m3UnrealVector {
                    x: cm_of(v[0]),
                    y: cm_of(v[2]),
                    z: cm_of(v[1]),
                },
            )
        };
        Ok(())
    })
}

/// A linear vector in cm-based units (offset, velocity, acceleration, gravity, force,
/// impulse) as the engine's m-based one.
///
/// # Safety
/// `out` points to one writable `m3Vec3`, aligned for its type, for the duration of the
/// call (null is refused with `m3_errorArgument`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m3Unreal_VectorToEngine(v: m3UnrealVector, out: *mut m3Vec3) -> m3Result {
    api("m3Unreal_VectorToEngine", || {
        let o = crate::types::out("out", out)?;
        let r = to_f32("vector", cm_to_m(swap(vec("vector", v)?)), f32::MAX as f64)?;
        // SAFETY: checked non-null.
        unsafe { put(o, r) };
        Ok(())
    })
}

/// An engine linear vector (m-based) as Unreal's (cm-based). Exact: a float times 100
/// fits a double.
///
/// # Safety
/// `out` points to one writable `m3UnrealVector`, aligned for its type, for the duration
/// of the call (null is refused with `m3_errorArgument`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m3Unreal_VectorToUnreal(v: m3Vec3, out: *mut m3UnrealVector) -> m3Result {
    api("m3Unreal_VectorToUnreal", || {
        let o = crate::types::out("out", out)?;
        let c = from_f32("vector", v)?;
        // SAFETY: checked non-null.
        unsafe {
            put(
                o,
                m3UnrealVector {
                    x: c[0] * 100.0,
                    y: c[2] * 100.0,
                    z: c[1] * 100.0,
                },
            )
        };
        Ok(())
    })
}

/// An angular velocity (rad/s, Unreal's axes) in the engine's axes (`-P ω`).
///
/// # Safety
/// `out` points to one writable `m3Vec3`, aligned for its type, for the duration of the
/// call (null is refused with `m3_errorArgument`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m3Unreal_AngularVelocityToEngine(
    w: m3UnrealVector,
    out: *mut m3Vec3,
) -> m3Result {
    api("m3Unreal_AngularVelocityToEngine", || {
        let o = crate::types::out("out", out)?;
        let s = swap(vec("angular velocity", w)?);
        let r = to_f32("angular velocity", [-s[0], -s[1], -s[2]], f32::MAX as f64)?;
        // SAFETY: checked non-null.
        unsafe { put(o, r) };
        Ok(())
    })
}

/// An engine angular velocity (rad/s) in Unreal's axes.
///
/// # Safety
/// `out` points to one writable `m3UnrealVector`, aligned for its type, for the duration
/// of the call (null is refused with `m3_errorArgument`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m3Unreal_AngularVelocityToUnreal(
    w: m3Vec3,
    out: *mut m3UnrealVector,
) -> m3Result {
    api("m3Unreal_AngularVelocityToUnreal", || {
        let o = crate::types::out("out", out)?;
        let c = from_f32("angular velocity", w)?;
        // SAFETY: checked non-null.
        unsafe {
            put(
                o,
                m3UnrealVector {
                    x: -c[0],
                    y: -c[2],
                    z: -c[1],
                },
            )
        };
        Ok(())
    })
}

/// A torque or angular impulse (kg·cm²/s², kg·cm²/s; Unreal's axes) as the engine's
/// (kg·m²…; its axes).
///
/// # Safety
/// `out` points to one writable `m3Vec3`, aligned for its type, for the duration of the
/// call (null is refused with `m3_errorArgument`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m3Unreal_TorqueToEngine(t: m3UnrealVector, out: *mut m3Vec3) -> m3Result {
    api("m3Unreal_TorqueToEngine", || {
        let o = crate::types::out("out", out)?;
        let s = swap(vec("torque", t)?);
        let r = to_f32(
            "torque",
            [-s[0] / 10_000.0, -s[1] / 10_000.0, -s[2] / 10_000.0],
            f32::MAX as f64,
        )?;
        // SAFETY: checked non-null.
        unsafe { put(o, r) };
        Ok(())
    })
}

/// A rotation in Unreal's axes as the engine's (`P R P`: `(-x, -z, -y, w)`), not
/// normalised (the engine normalises on use) so that a round trip is exact; a zero or
/// non-finite quaternion is refused.
///
/// # Safety
/// `out` points to one writable `m3Quat`, aligned for its type, for the duration of the
/// call (null is refused with `m3_errorArgument`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m3Unreal_QuatToEngine(q: m3UnrealQuat, out: *mut m3Quat) -> m3Result {
    api("m3Unreal_QuatToEngine", || {
        let o = crate::types::out("out", out)?;
        unit_quat("rotation", q)?;
        // SAFETY: checked non-null.
        unsafe { put(o, quat_to_engine([q.x, q.y, q.z, q.w])) };
        Ok(())
    })
}

/// An engine rotation in Unreal's axes.
///
/// # Safety
/// `out` points to one writable `m3UnrealQuat`, aligned for its type, for the duration of
/// the call (null is refused with `m3_errorArgument`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m3Unreal_QuatToUnreal(q: m3Quat, out: *mut m3UnrealQuat) -> m3Result {
    api("m3Unreal_QuatToUnreal", || {
        let o = crate::types::out("out", out)?;
        let w = finite("rotation", q.w as f64)?;
        let c = from_f32(
            "rotation",
            m3Vec3 {
                x: q.x,
                y: q.y,
                z: q.z,
            },
        )?;
        // SAFETY: checked non-null.
        unsafe {
            put(
                o,
                m3UnrealQuat {
                    x: -c[0],
                    y: -c[2],
                    z: -c[1],
                    w,
                },
            )
        };
        Ok(())
    })
}

/// A length in cm as m (non-negative, finite, at most 1e6 m).
///
/// # Safety
/// `out` points to one writable `float`, aligned for its type, for the duration of the
/// call (null is refused with `m3_errorArgument`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m3Unreal_LengthToEngine(cm: f64, out: *mut f32) -> m3Result {
    api("m3Unreal_LengthToEngine", || {
        let o = crate::types::out("out", out)?;
        let m = finite("length", cm)? / 100.0;
        if !(0.0..=MAX_LOCAL_M).contains(&m) {
            return Err(refuse!(
                m3_errorArgument,
                "length {cm} cm must be within [0, {MAX_LOCAL_M}] m"
            ));
        }
        // SAFETY: checked non-null.
        unsafe { put(o, m as f32) };
        Ok(())
    })
}

/// A length in m as cm (exact).
///
/// # Safety
/// `out` points to one writable `double`, aligned for its type, for the duration of the
/// call (null is refused with `m3_errorArgument`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m3Unreal_LengthToUnreal(m: f32, out: *mut f64) -> m3Result {
    api("m3Unreal_LengthToUnreal", || {
        let o = crate::types::out("out", out)?;
        let c = finite("length", m as f64)? * 100.0;
        // SAFETY: checked non-null.
        unsafe { put(o, c) };
        Ok(())
    })
}

/// The fixed step for a tick rate: `1 / hz` seconds as a float (hz within [1, 10000]).
///
/// # Safety
/// `out` points to one writable `float`, aligned for its type, for the duration of the
/// call (null is refused with `m3_errorArgument`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m3Unreal_TickSeconds(hz: u32, out: *mut f32) -> m3Result {
    api("m3Unreal_TickSeconds", || {
        let o = crate::types::out("out", out)?;
        if !(1..=10_000).contains(&hz) {
            return Err(refuse!(
                m3_errorArgument,
                "tick rate {hz} Hz must be within [1, 10000]"
            ));
        }
        // SAFETY: checked non-null.
        unsafe { put(o, 1.0f32 / hz as f32) };
        Ok(())
    })
}

/// A segment `start..end` (cm) as a cast's origin (m) and translation (m).
///
/// # Safety
/// - `origin` points to one writable `m3DVec3`, aligned for its type, for the duration
///   of the call (null is refused with `m3_errorArgument`).
/// - `translation` points to one writable `m3Vec3`, aligned for its type, for the
///   duration of the call (null is refused with `m3_errorArgument`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m3Unreal_SegmentToEngine(
    start: m3UnrealVector,
    end: m3UnrealVector,
    origin: *mut m3DVec3,
    translation: *mut m3Vec3,
) -> m3Result {
    api("m3Unreal_SegmentToEngine", || {
        let oo = crate::types::out("origin", origin)?;
        let ot = crate::types::out("translation", translation)?;
        let a = vec("segment start", start)?;
        let b = vec("segment end", end)?;
        let o = cm_to_m(swap(a));
        for c in o {
            if c.abs() >= MAX_POSITION_M {
                return Err(refuse!(
                    m3_errorArgument,
                    "segment start component {c} m must be within ±{MAX_POSITION_M} m"
                ));
            }
        }
        let d = cm_to_m(swap([b[0] - a[0], b[1] - a[1], b[2] - a[2]]));
        let t = to_f32("segment translation", d, 2.0 * MAX_POSITION_M)?;
        // SAFETY: both checked non-null.
        unsafe {
            put(
                oo,
                m3DVec3 {
                    x: o[0],
                    y: o[1],
                    z: o[2],
                },
            );
            put(ot, t);
        }
        Ok(())
    })
}

/// A point of an element's frame (cm) in the body frame, engine axes and metres.
fn local_point(l: &Local, p: [f64; 3]) -> [f64; 3] {
    let scaled = [p[0] * l.s[0], p[1] * l.s[1], p[2] * l.s[2]];
    let r = rotate(l.q, scaled);
    cm_to_m(swap([r[0] + l.t[0], r[1] + l.t[1], r[2] + l.t[2]]))
}

/// A sphere element (radius in cm, scaled by the smallest scale magnitude) of a body.
///
/// # Safety
/// `out` points to one writable `m3Sphere`, aligned for its type, for the duration of the
/// call (null is refused with `m3_errorArgument`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m3Unreal_SphereToEngine(
    local_transform: m3UnrealTransform,
    radius: f64,
    out: *mut m3Sphere,
) -> m3Result {
    api("m3Unreal_SphereToEngine", || {
        let o = crate::types::out("out", out)?;
        let l = local(local_transform)?;
        let r = positive("sphere radius", radius)? * min2(min2(l.s[0], l.s[1]), l.s[2]) / 100.0;
        let c = to_f32("sphere centre", local_point(&l, [0.0; 3]), MAX_LOCAL_M)?;
        let r = to_f32("sphere radius", [r, 0.0, 0.0], MAX_LOCAL_M)?.x;
        // SAFETY: checked non-null.
        unsafe {
            put(
                o,
                m3Sphere {
                    center: c,
                    radius: r,
                },
            )
        };
        Ok(())
    })
}

/// A box element (half extents in cm along its X, Y, Z, scaled) of a body.
///
/// # Safety
/// `out` points to one writable `m3Box`, aligned for its type, for the duration of the
/// call (null is refused with `m3_errorArgument`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m3Unreal_BoxToEngine(
    local_transform: m3UnrealTransform,
    half_extent: m3UnrealVector,
    out: *mut m3Box,
) -> m3Result {
    api("m3Unreal_BoxToEngine", || {
        let o = crate::types::out("out", out)?;
        let h = vec("box half extent", half_extent)?;
        let b = box_to_engine(local_transform, h)?;
        // SAFETY: checked non-null.
        unsafe { put(o, b) };
        Ok(())
    })
}

/// A box element given by its full size in cm (as `FKBoxElem` keeps it: X, Y, Z lengths);
/// the halving happens here, not in the host's C++.
///
/// # Safety
/// `out` points to one writable `m3Box`, aligned for its type, for the duration of the
/// call (null is refused with `m3_errorArgument`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m3Unreal_BoxSizeToEngine(
    local_transform: m3UnrealTransform,
    size: m3UnrealVector,
    out: *mut m3Box,
) -> m3Result {
    api("m3Unreal_BoxSizeToEngine", || {
        let o = crate::types::out("out", out)?;
        let s = vec("box size", size)?;
        let b = box_to_engine(local_transform, [s[0] * 0.5, s[1] * 0.5, s[2] * 0.5])?;
        // SAFETY: checked non-null.
        unsafe { put(o, b) };
        Ok(())
    })
}

fn box_to_engine(local_transform: m3UnrealTransform, h: [f64; 3]) -> R<m3Box> {
    let l = local(local_transform)?;
    for c in h {
        positive("box half extent", c)?;
    }
    let h = cm_to_m(swap([h[0] * l.s[0], h[1] * l.s[1], h[2] * l.s[2]]));
    Ok(m3Box {
        halfExtents: to_f32("box half extent", h, MAX_LOCAL_M)?,
        center: to_f32("box centre", local_point(&l, [0.0; 3]), MAX_LOCAL_M)?,
        rotation: quat_to_engine(l.q),
    })
}

/// A capsule element along its Z (radius and half height in cm, the half height with the
/// caps, as UE's capsules) as the engine's segment and radius. The radius scales by the
/// smaller of the X and Y scale magnitudes, the half height by Z's; a half height at or
/// below the radius gives a zero-length segment (a sphere).
///
/// # Safety
/// `out` points to one writable `m3Capsule`, aligned for its type, for the duration of the
/// call (null is refused with `m3_errorArgument`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m3Unreal_CapsuleToEngine(
    local_transform: m3UnrealTransform,
    radius: f64,
    half_height: f64,
    out: *mut m3Capsule,
) -> m3Result {
    api("m3Unreal_CapsuleToEngine", || {
        let o = crate::types::out("out", out)?;
        let c = capsule_to_engine(local_transform, radius, half_height)?;
        // SAFETY: checked non-null.
        unsafe { put(o, c) };
        Ok(())
    })
}

/// A sphyl element (`FKSphylElem`: radius and the length of its cylinder part, in cm,
/// along its Z) as the engine's capsule: the half height with the caps,
/// `length / 2 + radius`, is computed here, not in the host's C++.
///
/// # Safety
/// `out` points to one writable `m3Capsule`, aligned for its type, for the duration of the
/// call (null is refused with `m3_errorArgument`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m3Unreal_SphylToEngine(
    local_transform: m3UnrealTransform,
    radius: f64,
    length: f64,
    out: *mut m3Capsule,
) -> m3Result {
    api("m3Unreal_SphylToEngine", || {
        let o = crate::types::out("out", out)?;
        if !(length.is_finite() && length >= 0.0) {
            return Err(refuse!(
                m3_errorArgument,
                "sphyl length = {length} must be finite and at least 0 cm"
            ));
        }
        let r = positive("capsule radius", radius)?;
        let c = capsule_to_engine(local_transform, r, length * 0.5 + r)?;
        // SAFETY: checked non-null.
        unsafe { put(o, c) };
        Ok(())
    })
}

fn capsule_to_engine(
    local_transform: m3UnrealTransform,
    radius: f64,
    half_height: f64,
) -> R<m3Capsule> {
    let l = local(local_transform)?;
    let r = positive("capsule radius", radius)? * min2(l.s[0], l.s[1]);
    let hh = positive("capsule half height", half_height)? * l.s[2];
    let a = if hh > r { hh - r } else { 0.0 };
    // The segment's ends in the element's frame, unscaled: the scale is in r and a.
    let end = |sign: f64| {
        let p = rotate(l.q, [0.0, 0.0, sign * a]);
        cm_to_m(swap([p[0] + l.t[0], p[1] + l.t[1], p[2] + l.t[2]]))
    };
    Ok(m3Capsule {
        center1: to_f32("capsule end", end(-1.0), MAX_LOCAL_M)?,
        center2: to_f32("capsule end", end(1.0), MAX_LOCAL_M)?,
        radius: to_f32("capsule radius", [r / 100.0, 0.0, 0.0], MAX_LOCAL_M)?.x,
    })
}

/// Points of an element (cm, in its frame: convex elements, mesh vertices) in the body
/// frame, engine axes and metres.
///
/// # Safety
/// - `points` points to `count` readable `m3UnrealVector` items, aligned, for the
///   duration of the call (null only with `count` 0).
/// - `out` points to `count` writable `m3Vec3` items, aligned, for the duration of the
///   call (null only with `count` 0).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m3Unreal_PointsToEngine(
    local_transform: m3UnrealTransform,
    points: *const m3UnrealVector,
    count: i32,
    out: *mut m3Vec3,
) -> m3Result {
    api("m3Unreal_PointsToEngine", || {
        let n = count_arg("count", count)?;
        let l = local(local_transform)?;
        // SAFETY: the host promises `count` readable items.
        let p = unsafe { slice("points", points, n) }?;
        let o = OutArray::new("out", out, count)?;
        for (i, &v) in p.iter().enumerate() {
            let r = to_f32("point", local_point(&l, vec("point", v)?), MAX_LOCAL_M)?;
            // SAFETY: i < count, the array's capacity.
            unsafe { o.set(i, r) };
        }
        Ok(())
    })
}

/// The transform of a component two or more levels below a body's root, as the product
/// UE's `FTransform` multiplication gives (`child * parent`: the child's transform, then
/// the parent's): rotation `parent ⊗ child`, scale `child × parent` per axis, translation
/// `parent.rotation (parent.scale × child.translation) + parent.translation`. Computed here
/// so that the host's C++ (fast-math in Unreal) does no arithmetic on what becomes
/// simulation input; walking a component's attach chain with it gives its transform in
/// the body.
///
/// # Safety
/// `out` points to one writable `m3UnrealTransform`, aligned for its type, for the duration
/// of the call (null is refused with `m3_errorArgument`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m3Unreal_ComposeTransforms(
    child: m3UnrealTransform,
    parent: m3UnrealTransform,
    out: *mut m3UnrealTransform,
) -> m3Result {
    api("m3Unreal_ComposeTransforms", || {
        let o = crate::types::out("out", out)?;
        let (c, p) = (signed(child)?, signed(parent)?);
        let q = quat_mul(p.q, c.q);
        let n = (q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]).sqrt();
        let st = [p.s[0] * c.t[0], p.s[1] * c.t[1], p.s[2] * c.t[2]];
        let r = rotate(p.q, st);
        let t = [r[0] + p.t[0], r[1] + p.t[1], r[2] + p.t[2]];
        let s = [c.s[0] * p.s[0], c.s[1] * p.s[1], c.s[2] * p.s[2]];
        for v in t.iter().chain(s.iter()) {
            finite("composed transform", *v)?;
        }
        let composed = m3UnrealTransform {
            translation: m3UnrealVector {
                x: t[0],
                y: t[1],
                z: t[2],
            },
            rotation: m3UnrealQuat {
                x: q[0] / n,
                y: q[1] / n,
                z: q[2] / n,
                w: q[3] / n,
            },
            scale: m3UnrealVector {
                x: s[0],
                y: s[1],
                z: s[2],
            },
        };
        // The product's scale must still be one a shape takes.
        local(composed)?;
        // SAFETY: checked non-null.
        unsafe { put(o, composed) };
        Ok(())
    })
}

/// A transform checked as `local` does, keeping the scale's signs (a product keeps
/// mirrored axes mirrored).
fn signed(t: m3UnrealTransform) -> R<Local> {
    let l = local(t)?;
    let s = vec("transform scale", t.scale)?;
    Ok(Local { s, ..l })
}

/// The Hamilton product `a ⊗ b` (x, y, z, w): rotating by `b`, then by `a`.
fn quat_mul(a: [f64; 4], b: [f64; 4]) -> [f64; 4] {
    [
        a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1],
        a[3] * b[1] - a[0] * b[2] + a[1] * b[3] + a[2] * b[0],
        a[3] * b[2] + a[0] * b[1] - a[1] * b[0] + a[2] * b[3],
        a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2],
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ident() -> m3UnrealTransform {
        m3UnrealTransform {
            translation: m3UnrealVector::default(),
            rotation: m3UnrealQuat {
                x: 0.0,
                y: 0.0,
                z: 0.0,
                w: 1.0,
            },
            scale: m3UnrealVector {
                x: 1.0,
                y: 1.0,
                z: 1.0,
            },
        }
    }

    #[test]
    fn unreal_up_is_the_engines_up_and_metres() {
        let mut p = m3DVec3::default();
        let r = unsafe {
            m3Unreal_PositionToEngine(
                m3UnrealVector {
                    x: 100.0,
                    y: 200.0,
                    z: 300.0,
                },
                &mut p,
            )
        };
        assert_eq!(r, m3Result::m3_success);
        assert_eq!((p.x, p.y, p.z), (1.0, 3.0, 2.0));
    }

    #[test]
    fn a_90_degree_turn_about_unreal_z_moves_points_alike_in_both_frames() {
        let h = std::f64::consts::FRAC_1_SQRT_2;
        let q = m3UnrealQuat {
            x: 0.0,
            y: 0.0,
            z: h,
            w: h,
        };
        let mut t = ident();
        t.rotation = q;
        // The point (100, 0, 0) cm turned by q in Unreal, then mapped...
        let mut a = [m3Vec3::default()];
        let p = [m3UnrealVector {
            x: 100.0,
            y: 0.0,
            z: 0.0,
        }];
        assert_eq!(
            unsafe { m3Unreal_PointsToEngine(t, p.as_ptr(), 1, a.as_mut_ptr()) },
            m3Result::m3_success
        );
        // ...equals the mapped point turned by the mapped rotation in the engine.
        let mut e = IDENTITY_QUAT;
        assert_eq!(
            unsafe { m3Unreal_QuatToEngine(q, &mut e) },
            m3Result::m3_success
        );
        let b = engine::math::Quat::from(e).rotate(engine::math::Vec3::new(1.0, 0.0, 0.0));
        assert!((a[0].x - b.x).abs() < 1e-6 && (a[0].y - b.y).abs() < 1e-6);
        assert!((a[0].z - b.z).abs() < 1e-6);
        // In Unreal, +Z 90° takes forward (X) to right (Y): the engine's +Z.
        assert!((a[0].z - 1.0).abs() < 1e-6, "{:?}", a[0]);
    }

    #[test]
    fn bad_input_is_refused_naming_the_value() {
        let mut f = 0.0f32;
        assert_eq!(
            unsafe { m3Unreal_TickSeconds(0, &mut f) },
            m3Result::m3_errorArgument
        );
        let mut q = IDENTITY_QUAT;
        let zero = m3UnrealQuat {
            x: 0.0,
            y: 0.0,
            z: 0.0,
            w: 0.0,
        };
        assert_eq!(
            unsafe { m3Unreal_QuatToEngine(zero, &mut q) },
            m3Result::m3_errorArgument
        );
        let mut p = m3DVec3::default();
        let far = m3UnrealVector {
            x: 1.0e9,
            y: 0.0,
            z: 0.0,
        };
        assert_eq!(
            unsafe { m3Unreal_PositionToEngine(far, &mut p) },
            m3Result::m3_errorArgument
        );
        let msg = unsafe { std::ffi::CStr::from_ptr(crate::m3GetLastErrorMessage()) };
        assert!(msg.to_str().unwrap().contains("2097152"), "{msg:?}");
    }
}
