//! Scalar functions with fixed bits on every target.
//!
//! `f32::min`/`max` may return either zero for ±0 and differ on NaN between targets, and
//! `f32::sin` & co call the platform's libm. Everything here is a compare-and-select or
//! comes from the pure-Rust `libm` crate, so it gives the same bits everywhere.

/// π as an `f32`.
pub const PI: f32 = core::f32::consts::PI;

/// The smaller of `a` and `b`; `b` when they compare equal (so ±0 is decided by order).
#[inline(always)]
pub fn min(a: f32, b: f32) -> f32 {
    if a < b { a } else { b }
}

/// The larger of `a` and `b`; `b` when they compare equal.
#[inline(always)]
pub fn max(a: f32, b: f32) -> f32 {
    if a > b { a } else { b }
}

/// `x` limited to `[lo, hi]`.
#[inline(always)]
pub fn clamp(x: f32, lo: f32, hi: f32) -> f32 {
    if x < lo {
        lo
    } else if x > hi {
        hi
    } else {
        x
    }
}

/// The smaller of two `f64`s; `b` when equal.
#[inline(always)]
pub fn min_f64(a: f64, b: f64) -> f64 {
    if a < b { a } else { b }
}

/// The larger of two `f64`s; `b` when equal.
#[inline(always)]
pub fn max_f64(a: f64, b: f64) -> f64 {
    if a > b { a } else { b }
}

/// Absolute value (a bit operation: exact everywhere).
#[inline(always)]
pub fn abs(x: f32) -> f32 {
    x.abs()
}

/// Square root (IEEE 754 correctly rounded: exact everywhere).
#[inline(always)]
pub fn sqrt(x: f32) -> f32 {
    x.sqrt()
}

/// Sine, from the pure-Rust `libm`.
#[inline]
pub fn sin(x: f32) -> f32 {
    libm::sinf(x)
}

/// Cosine, from the pure-Rust `libm`.
#[inline]
pub fn cos(x: f32) -> f32 {
    libm::cosf(x)
}

/// Sine and cosine of `x`.
#[inline]
pub fn sin_cos(x: f32) -> (f32, f32) {
    (libm::sinf(x), libm::cosf(x))
}

/// Four-quadrant arc tangent of `y / x`.
#[inline]
pub fn atan2(y: f32, x: f32) -> f32 {
    libm::atan2f(y, x)
}

/// Arc cosine, with the argument clamped to `[-1, 1]`.
#[inline]
pub fn acos(x: f32) -> f32 {
    libm::acosf(clamp(x, -1.0, 1.0))
}

/// Whether `x` is neither NaN nor infinite.
#[inline(always)]
pub fn is_valid(x: f32) -> bool {
    x.is_finite()
}

/// Whether `x` is neither NaN nor infinite.
#[inline(always)]
pub fn is_valid_f64(x: f64) -> bool {
    x.is_finite()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn min_and_max_pick_by_order_for_signed_zeros() {
        assert_eq!(min(0.0, -0.0).to_bits(), (-0.0f32).to_bits());
        assert_eq!(min(-0.0, 0.0).to_bits(), 0.0f32.to_bits());
        assert_eq!(max(0.0, -0.0).to_bits(), (-0.0f32).to_bits());
        assert_eq!(min(1.0, 2.0), 1.0);
        assert_eq!(max(1.0, 2.0), 2.0);
        assert_eq!(clamp(5.0, 0.0, 1.0), 1.0);
        assert_eq!(clamp(-5.0, 0.0, 1.0), 0.0);
    }

    #[test]
    fn transcendentals_match_known_bits() {
        // libm is pure Rust; these bits are the same on every target.
        assert_eq!(sin(0.5).to_bits(), 0x3ef57744);
        assert_eq!(cos(0.5).to_bits(), 0x3f60a940);
        assert!((atan2(1.0, 1.0) - PI / 4.0).abs() < 1e-7);
    }
}
