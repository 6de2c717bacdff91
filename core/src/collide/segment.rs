//! Closest points between segments, shared by the capsule and hull manifolds.

use crate::math::{Vec3, clamp};

/// Below this squared length (1 µm squared) a segment is a point: dividing by its length
/// would blow up.
const POINT_LENGTH_SQ: f32 = 1.0e-12;

/// `|d1 × d2|² ≤ PARALLEL_SQ |d1|² |d2|²` (sine of the angle below 1e-4) counts as parallel:
/// the line-line solution there is rounding noise, so a fixed parameter is used instead.
const PARALLEL_SQ: f32 = 1.0e-8;

/// Parameter `t` in `[0, 1]` of the point `p + t d` closest to `q`.
#[inline]
pub(crate) fn closest_to_point(p: Vec3, d: Vec3, q: Vec3) -> f32 {
    let dd = d.dot(d);
    if dd <= POINT_LENGTH_SQ {
        return 0.0;
    }
    clamp((q - p).dot(d) / dd, 0.0, 1.0)
}

/// Parameters `(s, t)` in `[0, 1]` of the closest points `p1 + s d1` and `p2 + t d2` of two
/// segments (Ericson, Real-Time Collision Detection 5.1.9). Parallel segments take `s = 0`
/// before clamping, so the choice is fixed.
#[inline]
pub(crate) fn closest_between(p1: Vec3, d1: Vec3, p2: Vec3, d2: Vec3) -> (f32, f32) {
    let r = p1 - p2;
    let a = d1.dot(d1);
    let e = d2.dot(d2);
    let f = d2.dot(r);
    if a <= POINT_LENGTH_SQ && e <= POINT_LENGTH_SQ {
        return (0.0, 0.0);
    }
    if a <= POINT_LENGTH_SQ {
        return (0.0, clamp(f / e, 0.0, 1.0));
    }
    let c = d1.dot(r);
    if e <= POINT_LENGTH_SQ {
        return (clamp(-c / a, 0.0, 1.0), 0.0);
    }
    let b = d1.dot(d2);
    // |d1 × d2|² rather than a e − b², which cancels badly for near-parallel segments.
    let denom = d1.cross(d2).length_squared();
    let mut s = if denom > PARALLEL_SQ * a * e {
        clamp((b * f - c * e) / denom, 0.0, 1.0)
    } else {
        0.0
    };
    let mut t = (b * s + f) / e;
    if t < 0.0 {
        t = 0.0;
        s = clamp(-c / a, 0.0, 1.0);
    } else if t > 1.0 {
        t = 1.0;
        s = clamp((b - c) / a, 0.0, 1.0);
    }
    (s, t)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crossed_segments_meet_at_their_middles() {
        let (s, t) = closest_between(
            Vec3::new(-1.0, 0.0, 0.0),
            Vec3::new(2.0, 0.0, 0.0),
            Vec3::new(0.0, 1.0, -1.0),
            Vec3::new(0.0, 0.0, 2.0),
        );
        assert_eq!((s, t), (0.5, 0.5));
    }

    #[test]
    fn parallel_segments_end_to_end_pick_the_facing_ends() {
        let d = Vec3::new(1.0, 0.0, 0.0);
        let (s, t) = closest_between(Vec3::ZERO, d, Vec3::new(2.0, 0.5, 0.0), d);
        assert_eq!((s, t), (1.0, 0.0));
        let (s, t) = closest_between(Vec3::ZERO, d, Vec3::new(-3.0, 0.5, 0.0), d);
        assert_eq!((s, t), (0.0, 1.0));
    }

    #[test]
    fn point_segments_do_not_divide_by_zero() {
        let (s, t) = closest_between(Vec3::ZERO, Vec3::ZERO, Vec3::ONE, Vec3::ZERO);
        assert_eq!((s, t), (0.0, 0.0));
        let (s, t) = closest_between(Vec3::ZERO, Vec3::ZERO, Vec3::ONE, Vec3::X);
        assert_eq!((s, t), (0.0, 0.0));
        assert_eq!(closest_to_point(Vec3::ONE, Vec3::ZERO, Vec3::ZERO), 0.0);
    }
}
