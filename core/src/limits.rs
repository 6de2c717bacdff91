//! The ranges every input is held to, so that nothing a step computes can overflow to
//! infinity (and then NaN): each bound leaves orders of magnitude of headroom below
//! `f32::MAX` for the products a step forms (force × inverse mass × time, mass × speed,
//! inertia × lever arm²). Calls and restores refuse values outside them with an error
//! naming the value and the bound.

/// Largest velocity component a call accepts, m/s (linear) or rad/s (angular). A step
/// still caps speeds at the world's `max_linear_speed`.
pub const MAX_VELOCITY: f32 = 1.0e5;
/// Fastest a dynamic body rotates, rad/s: a step ends with every dynamic body's angular
/// speed at most this (and its linear speed at most the world's `max_linear_speed`).
pub const MAX_ANGULAR_SPEED: f32 = 1.0e5;
/// Largest force or torque component, N or N·m.
pub const MAX_FORCE: f32 = 1.0e15;
/// Largest linear or angular impulse component.
pub const MAX_IMPULSE: f32 = 1.0e12;
/// Largest gravity component, m/s², and largest gravity scale magnitude.
pub const MAX_GRAVITY: f32 = 1.0e5;
/// Largest damping, sleep threshold, and world solver setting.
pub const MAX_SETTING: f32 = 1.0e6;
/// Largest density, kg/m³ (osmium is 2.2e4).
pub const MAX_DENSITY: f32 = 1.0e5;
/// Largest friction, restitution or rolling resistance.
pub const MAX_MATERIAL: f32 = 1.0e3;
/// Lightest mass a dynamic body simulates with: lighter bodies weigh this much, so an
/// inverse mass never passes 1e6.
pub const MIN_MASS: f32 = 1.0e-6;
/// Heaviest mass override, kg.
pub const MAX_MASS: f32 = 1.0e24;
/// Largest entry of a rotational inertia override, kg·m².
pub const MAX_INERTIA: f32 = 1.0e30;

use crate::error::{Error, Result};
use crate::math::Vec3;

/// Each component limited to `[-bound, bound]` (infinities too; never NaN from finite or
/// infinite input).
pub(crate) fn clamp_abs(v: Vec3, bound: f32) -> Vec3 {
    let c = |x: f32| crate::math::clamp(x, -bound, bound);
    Vec3::new(c(v.x), c(v.y), c(v.z))
}

/// Refuses a value outside `[-bound, bound]` (or not finite).
pub(crate) fn check_abs(
    name: &'static str,
    v: f32,
    bound: f32,
    expected: &'static str,
) -> Result<()> {
    if v.is_finite() && v.abs() <= bound {
        Ok(())
    } else {
        Err(Error::Argument {
            name,
            value: v as f64,
            expected,
        })
    }
}

/// Refuses a vector with a component outside `[-bound, bound]`.
pub(crate) fn check_vec_abs(
    name: &'static str,
    v: Vec3,
    bound: f32,
    expected: &'static str,
) -> Result<()> {
    for i in 0..3 {
        check_abs(name, v.get(i), bound, expected)?;
    }
    Ok(())
}

/// Refuses a value outside `[0, bound]`.
pub(crate) fn check_nonneg(
    name: &'static str,
    v: f32,
    bound: f32,
    expected: &'static str,
) -> Result<()> {
    crate::error::check_range(name, v, 0.0, bound, expected)
}

/// Validates a mass override: mass within [MIN_MASS, MAX_MASS], centre within ±1e6,
/// inertia finite, entries within ±MAX_INERTIA, symmetric positive definite (leading
/// minors, computed in f64 so they cannot overflow).
pub(crate) fn check_mass_data(m: &crate::geometry::MassData) -> Result<()> {
    crate::error::check_range("mass", m.mass, MIN_MASS, MAX_MASS, "within [1e-6, 1e24] kg")?;
    check_vec_abs(
        "center",
        m.center,
        1.0e6,
        "finite and within ±1e6 of the body origin",
    )?;
    let i = &m.inertia;
    for c in [i.cx, i.cy, i.cz] {
        check_vec_abs("inertia entry", c, MAX_INERTIA, "finite and within ±1e30")?;
    }
    let a = |v: f32| v as f64;
    let (xx, xy, xz) = (a(i.cx.x), a(i.cy.x), a(i.cz.x));
    let (yy, yz, zz) = (a(i.cy.y), a(i.cz.y), a(i.cz.z));
    let m2 = xx * yy - xy * xy;
    let det = xx * (yy * zz - yz * yz) - xy * (xy * zz - yz * xz) + xz * (xy * yz - yy * xz);
    if !(xx > 0.0 && m2 > 0.0 && det > 0.0) {
        return Err(Error::Argument {
            name: "inertia",
            value: det,
            expected: "symmetric positive definite (leading minors > 0)",
        });
    }
    Ok(())
}
