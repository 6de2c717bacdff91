//! Rigid transforms, axis-aligned boxes and the 2^-32 position grid.

use super::quat::Quat;
use super::vec3::{DVec3, Vec3};

/// A rigid transform in `f32`: a rotation then a translation. Always relative to a
/// nearby frame (a body or a contact pair), never a large world position.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[repr(C)]
pub struct Transform {
    /// Translation.
    pub p: Vec3,
    /// Rotation.
    pub q: Quat,
}

impl Transform {
    /// No translation, no rotation.
    pub const IDENTITY: Transform = Transform {
        p: Vec3::ZERO,
        q: Quat::IDENTITY,
    };

    /// A transform from translation and rotation.
    #[inline(always)]
    pub const fn new(p: Vec3, q: Quat) -> Transform {
        Transform { p, q }
    }

    /// Maps a local point: `q v + p`.
    #[inline(always)]
    pub fn apply(&self, v: Vec3) -> Vec3 {
        self.q.rotate(v) + self.p
    }

    /// Maps a point back into local coordinates: `qᵀ (v − p)`.
    #[inline(always)]
    pub fn apply_inv(&self, v: Vec3) -> Vec3 {
        self.q.inv_rotate(v - self.p)
    }

    /// `self ∘ b`: first `b`, then `self`.
    #[inline]
    pub fn mul(&self, b: &Transform) -> Transform {
        Transform::new(self.q.rotate(b.p) + self.p, self.q * b.q)
    }

    /// `self⁻¹ ∘ b`: `b` expressed in the frame of `self`.
    #[inline]
    pub fn inv_mul(&self, b: &Transform) -> Transform {
        Transform::new(self.q.inv_rotate(b.p - self.p), self.q.inv_mul(b.q))
    }
}

/// An axis-aligned box in `f32`, relative to a nearby frame.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[repr(C)]
pub struct Aabb {
    /// Lower corner.
    pub lower: Vec3,
    /// Upper corner.
    pub upper: Vec3,
}

impl Aabb {
    /// A box from corners.
    #[inline(always)]
    pub const fn new(lower: Vec3, upper: Vec3) -> Aabb {
        Aabb { lower, upper }
    }

    /// The smallest box holding both.
    #[inline]
    pub fn union(&self, b: &Aabb) -> Aabb {
        Aabb::new(self.lower.min(b.lower), self.upper.max(b.upper))
    }

    /// Grown by `m` on every side.
    #[inline]
    pub fn inflate(&self, m: f32) -> Aabb {
        let d = Vec3::splat(m);
        Aabb::new(self.lower - d, self.upper + d)
    }

    /// Whether the boxes touch or overlap.
    #[inline]
    pub fn overlaps(&self, b: &Aabb) -> bool {
        !(b.lower.x > self.upper.x
            || b.lower.y > self.upper.y
            || b.lower.z > self.upper.z
            || self.lower.x > b.upper.x
            || self.lower.y > b.upper.y
            || self.lower.z > b.upper.z)
    }

    /// The centre.
    #[inline]
    pub fn center(&self) -> Vec3 {
        (self.lower + self.upper) * 0.5
    }

    /// Half the size.
    #[inline]
    pub fn extents(&self) -> Vec3 {
        (self.upper - self.lower) * 0.5
    }
}

/// The position grid: 2^32 steps per unit.
pub const GRID_SCALE: f64 = 4_294_967_296.0;
/// One grid step, 2^-32.
pub const GRID_STEP: f64 = 1.0 / GRID_SCALE;
/// Positions are exact on the grid within this bound, 2^21.
pub const POSITION_EXACT_BOUND: f64 = 2_097_152.0;
/// No position, bound or shift may reach this bound, 2^22.
pub const POSITION_LIMIT: f64 = 4_194_304.0;

/// Rounds `x` to the nearest multiple of 2^-32 (ties away from zero). Exact: the scale is
/// a power of two and rounding to an integer is exact in IEEE arithmetic.
#[inline(always)]
pub fn round_to_grid(x: f64) -> f64 {
    (x * GRID_SCALE).round() * GRID_STEP
}

/// Rounds `x` down to a multiple of 2^-32.
#[inline(always)]
pub fn floor_to_grid(x: f64) -> f64 {
    (x * GRID_SCALE).floor() * GRID_STEP
}

/// Rounds `x` up to a multiple of 2^-32.
#[inline(always)]
pub fn ceil_to_grid(x: f64) -> f64 {
    (x * GRID_SCALE).ceil() * GRID_STEP
}

/// Whether `x` is a multiple of 2^-32.
#[inline]
pub fn is_on_grid(x: f64) -> bool {
    let s = x * GRID_SCALE;
    s == s.round()
}

/// Each component rounded to the grid.
#[inline]
pub fn round_vec_to_grid(v: Vec3) -> DVec3 {
    DVec3::new(
        round_to_grid(v.x as f64),
        round_to_grid(v.y as f64),
        round_to_grid(v.z as f64),
    )
}

/// An axis-aligned box in `f64` world coordinates (relative to the world origin), with
/// corners on the 2^-32 grid so that it moves exactly with a shift of the origin.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[repr(C)]
pub struct DAabb {
    /// Lower corner.
    pub lower: DVec3,
    /// Upper corner.
    pub upper: DVec3,
}

impl DAabb {
    /// A box from corners.
    #[inline(always)]
    pub const fn new(lower: DVec3, upper: DVec3) -> DAabb {
        DAabb { lower, upper }
    }

    /// The world box of `local` (relative to `origin`), rounded outward to the grid:
    /// the result depends on `origin` only by translation.
    #[inline]
    pub fn from_local(origin: DVec3, local: &Aabb) -> DAabb {
        DAabb::new(
            DVec3::new(
                origin.x + floor_to_grid(local.lower.x as f64),
                origin.y + floor_to_grid(local.lower.y as f64),
                origin.z + floor_to_grid(local.lower.z as f64),
            ),
            DVec3::new(
                origin.x + ceil_to_grid(local.upper.x as f64),
                origin.y + ceil_to_grid(local.upper.y as f64),
                origin.z + ceil_to_grid(local.upper.z as f64),
            ),
        )
    }

    /// Whether the boxes touch or overlap.
    #[inline(always)]
    pub fn overlaps(&self, b: &DAabb) -> bool {
        !(b.lower.x > self.upper.x
            || b.lower.y > self.upper.y
            || b.lower.z > self.upper.z
            || self.lower.x > b.upper.x
            || self.lower.y > b.upper.y
            || self.lower.z > b.upper.z)
    }

    /// Whether `b` lies inside this box.
    #[inline(always)]
    pub fn contains(&self, b: &DAabb) -> bool {
        self.lower.x <= b.lower.x
            && self.lower.y <= b.lower.y
            && self.lower.z <= b.lower.z
            && b.upper.x <= self.upper.x
            && b.upper.y <= self.upper.y
            && b.upper.z <= self.upper.z
    }

    /// The smallest box holding both.
    #[inline]
    pub fn union(&self, b: &DAabb) -> DAabb {
        use super::scalar::{max_f64, min_f64};
        DAabb::new(
            DVec3::new(
                min_f64(self.lower.x, b.lower.x),
                min_f64(self.lower.y, b.lower.y),
                min_f64(self.lower.z, b.lower.z),
            ),
            DVec3::new(
                max_f64(self.upper.x, b.upper.x),
                max_f64(self.upper.y, b.upper.y),
                max_f64(self.upper.z, b.upper.z),
            ),
        )
    }

    /// Half the surface area (the tree's cost metric).
    #[inline]
    pub fn perimeter(&self) -> f64 {
        let dx = self.upper.x - self.lower.x;
        let dy = self.upper.y - self.lower.y;
        let dz = self.upper.z - self.lower.z;
        dx * dy + dy * dz + dz * dx
    }

    /// Translated by `-offset` (an exact shift on the grid).
    #[inline]
    pub fn shifted(&self, offset: DVec3) -> DAabb {
        DAabb::new(self.lower - offset, self.upper - offset)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grid_rounding_is_exact_and_translation_invariant() {
        let d = 0.123_456_789_f64;
        let g = round_to_grid(d);
        assert!(is_on_grid(g));
        for base in [0.0, 1_048_576.0, -524_288.0, 2_000_000.0] {
            let a = base + g;
            assert_eq!(a - base, g);
        }
        let local = Aabb::new(Vec3::new(-0.3, -0.5, -0.7), Vec3::new(0.31, 0.5, 0.7));
        let a = DAabb::from_local(DVec3::new(1.5, 2.0, -3.0), &local);
        let shift = DVec3::new(1_048_576.0, -524_288.0, 262_144.0);
        let b = DAabb::from_local(DVec3::new(1.5, 2.0, -3.0) + shift, &local);
        assert_eq!(b.lower - shift, a.lower);
        assert_eq!(b.upper - shift, a.upper);
    }

    #[test]
    fn transform_inverse_round_trips() {
        let t = Transform::new(
            Vec3::new(1.0, 2.0, 3.0),
            Quat::from_axis_angle(Vec3::Y, 0.4),
        );
        let v = Vec3::new(0.5, -0.5, 2.0);
        assert!((t.apply_inv(t.apply(v)) - v).length() < 1e-5);
        let u = Transform::new(
            Vec3::new(-1.0, 0.5, 0.0),
            Quat::from_axis_angle(Vec3::X, 1.0),
        );
        let r = t.inv_mul(&t.mul(&u));
        assert!((r.p - u.p).length() < 1e-5);
    }
}
