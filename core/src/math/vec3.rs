//! 3-vectors: `Vec3` (f32, for everything relative) and `DVec3` (f64, for positions).
//!
//! Every operation is written out component by component, so the order of operations is
//! visible and fixed: no SIMD reassociation, no fused multiply-add.

use super::scalar::{max, min, sqrt};
use core::ops::{Add, AddAssign, Mul, MulAssign, Neg, Sub, SubAssign};

/// A 3-vector of `f32`.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[repr(C)]
pub struct Vec3 {
    /// x component.
    pub x: f32,
    /// y component.
    pub y: f32,
    /// z component.
    pub z: f32,
}

impl Vec3 {
    /// (0, 0, 0).
    pub const ZERO: Vec3 = Vec3::new(0.0, 0.0, 0.0);
    /// (1, 1, 1).
    pub const ONE: Vec3 = Vec3::new(1.0, 1.0, 1.0);
    /// (1, 0, 0).
    pub const X: Vec3 = Vec3::new(1.0, 0.0, 0.0);
    /// (0, 1, 0).
    pub const Y: Vec3 = Vec3::new(0.0, 1.0, 0.0);
    /// (0, 0, 1).
    pub const Z: Vec3 = Vec3::new(0.0, 0.0, 1.0);

    /// A vector from its components.
    #[inline(always)]
    pub const fn new(x: f32, y: f32, z: f32) -> Vec3 {
        Vec3 { x, y, z }
    }

    /// All three components set to `v`.
    #[inline(always)]
    pub const fn splat(v: f32) -> Vec3 {
        Vec3 { x: v, y: v, z: v }
    }

    /// Dot product, summed x + y + z in that order.
    #[inline(always)]
    pub fn dot(self, b: Vec3) -> f32 {
        self.x * b.x + self.y * b.y + self.z * b.z
    }

    /// Cross product.
    #[inline(always)]
    pub fn cross(self, b: Vec3) -> Vec3 {
        Vec3::new(
            self.y * b.z - self.z * b.y,
            self.z * b.x - self.x * b.z,
            self.x * b.y - self.y * b.x,
        )
    }

    /// Squared length.
    #[inline(always)]
    pub fn length_squared(self) -> f32 {
        self.dot(self)
    }

    /// Length.
    #[inline(always)]
    pub fn length(self) -> f32 {
        sqrt(self.dot(self))
    }

    /// Unit vector and the original length; zero vector and 0 when too short to normalise.
    #[inline]
    pub fn normalize_and_length(self) -> (Vec3, f32) {
        let len = self.length();
        if len < f32::EPSILON {
            return (Vec3::ZERO, 0.0);
        }
        let inv = 1.0 / len;
        (self * inv, len)
    }

    /// Unit vector; the zero vector when too short to normalise.
    #[inline]
    pub fn normalize(self) -> Vec3 {
        self.normalize_and_length().0
    }

    /// Component-wise product.
    #[inline(always)]
    pub fn mul_elements(self, b: Vec3) -> Vec3 {
        Vec3::new(self.x * b.x, self.y * b.y, self.z * b.z)
    }

    /// Component-wise minimum (compare-and-select).
    #[inline(always)]
    pub fn min(self, b: Vec3) -> Vec3 {
        Vec3::new(min(self.x, b.x), min(self.y, b.y), min(self.z, b.z))
    }

    /// Component-wise maximum (compare-and-select).
    #[inline(always)]
    pub fn max(self, b: Vec3) -> Vec3 {
        Vec3::new(max(self.x, b.x), max(self.y, b.y), max(self.z, b.z))
    }

    /// Component-wise absolute value.
    #[inline(always)]
    pub fn abs(self) -> Vec3 {
        Vec3::new(self.x.abs(), self.y.abs(), self.z.abs())
    }

    /// `self + s * b`, multiply then add, rounded twice (never fused).
    #[inline(always)]
    pub fn mul_add(self, s: f32, b: Vec3) -> Vec3 {
        Vec3::new(self.x + s * b.x, self.y + s * b.y, self.z + s * b.z)
    }

    /// `self - s * b`, rounded twice.
    #[inline(always)]
    pub fn mul_sub(self, s: f32, b: Vec3) -> Vec3 {
        Vec3::new(self.x - s * b.x, self.y - s * b.y, self.z - s * b.z)
    }

    /// Linear interpolation `(1 - t) a + t b`.
    #[inline(always)]
    pub fn lerp(self, b: Vec3, t: f32) -> Vec3 {
        let s = 1.0 - t;
        Vec3::new(
            s * self.x + t * b.x,
            s * self.y + t * b.y,
            s * self.z + t * b.z,
        )
    }

    /// Whether every component is finite.
    #[inline(always)]
    pub fn is_valid(self) -> bool {
        self.x.is_finite() && self.y.is_finite() && self.z.is_finite()
    }

    /// Component by index 0, 1, 2.
    #[inline(always)]
    pub fn get(self, i: usize) -> f32 {
        match i {
            0 => self.x,
            1 => self.y,
            _ => self.z,
        }
    }

    /// The largest component.
    #[inline(always)]
    pub fn max_element(self) -> f32 {
        max(self.x, max(self.y, self.z))
    }

    /// A unit vector perpendicular to this unit vector (deterministic choice).
    #[inline]
    pub fn perpendicular(self) -> Vec3 {
        // Pick the axis least aligned with self, as Box3D's b3Perp.
        let v = if self.x.abs() < 0.57735 {
            Vec3::new(0.0, self.z, -self.y)
        } else {
            Vec3::new(self.y, -self.x, 0.0)
        };
        v.normalize()
    }

    /// Widened to `f64`.
    #[inline(always)]
    pub fn to_f64(self) -> DVec3 {
        DVec3::new(self.x as f64, self.y as f64, self.z as f64)
    }

    /// The distance between two points.
    #[inline(always)]
    pub fn distance(self, b: Vec3) -> f32 {
        (b - self).length()
    }
}

impl Add for Vec3 {
    type Output = Vec3;
    #[inline(always)]
    fn add(self, b: Vec3) -> Vec3 {
        Vec3::new(self.x + b.x, self.y + b.y, self.z + b.z)
    }
}

impl Sub for Vec3 {
    type Output = Vec3;
    #[inline(always)]
    fn sub(self, b: Vec3) -> Vec3 {
        Vec3::new(self.x - b.x, self.y - b.y, self.z - b.z)
    }
}

impl Neg for Vec3 {
    type Output = Vec3;
    #[inline(always)]
    fn neg(self) -> Vec3 {
        Vec3::new(-self.x, -self.y, -self.z)
    }
}

impl Mul<f32> for Vec3 {
    type Output = Vec3;
    #[inline(always)]
    fn mul(self, s: f32) -> Vec3 {
        Vec3::new(self.x * s, self.y * s, self.z * s)
    }
}

impl Mul<Vec3> for f32 {
    type Output = Vec3;
    #[inline(always)]
    fn mul(self, v: Vec3) -> Vec3 {
        Vec3::new(self * v.x, self * v.y, self * v.z)
    }
}

impl AddAssign for Vec3 {
    #[inline(always)]
    fn add_assign(&mut self, b: Vec3) {
        *self = *self + b;
    }
}

impl SubAssign for Vec3 {
    #[inline(always)]
    fn sub_assign(&mut self, b: Vec3) {
        *self = *self - b;
    }
}

impl MulAssign<f32> for Vec3 {
    #[inline(always)]
    fn mul_assign(&mut self, s: f32) {
        *self = *self * s;
    }
}

/// A 3-vector of `f64`: positions relative to the world origin.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[repr(C)]
pub struct DVec3 {
    /// x component.
    pub x: f64,
    /// y component.
    pub y: f64,
    /// z component.
    pub z: f64,
}

impl DVec3 {
    /// (0, 0, 0).
    pub const ZERO: DVec3 = DVec3::new(0.0, 0.0, 0.0);

    /// A vector from its components.
    #[inline(always)]
    pub const fn new(x: f64, y: f64, z: f64) -> DVec3 {
        DVec3 { x, y, z }
    }

    /// Narrowed to `f32` (round to nearest). Use on differences of positions, which are
    /// exact in `f64`, so the result does not depend on where the pair sits.
    #[inline(always)]
    pub fn to_f32(self) -> Vec3 {
        Vec3::new(self.x as f32, self.y as f32, self.z as f32)
    }

    /// Whether every component is finite.
    #[inline(always)]
    pub fn is_valid(self) -> bool {
        self.x.is_finite() && self.y.is_finite() && self.z.is_finite()
    }

    /// The component of largest magnitude, as an absolute value.
    #[inline(always)]
    pub fn max_abs(self) -> f64 {
        let (x, y, z) = (self.x.abs(), self.y.abs(), self.z.abs());
        let m = if x > y { x } else { y };
        if m > z { m } else { z }
    }

    /// Component by index 0, 1, 2.
    #[inline(always)]
    pub fn get(self, i: usize) -> f64 {
        match i {
            0 => self.x,
            1 => self.y,
            _ => self.z,
        }
    }
}

impl Add for DVec3 {
    type Output = DVec3;
    #[inline(always)]
    fn add(self, b: DVec3) -> DVec3 {
        DVec3::new(self.x + b.x, self.y + b.y, self.z + b.z)
    }
}

impl Sub for DVec3 {
    type Output = DVec3;
    #[inline(always)]
    fn sub(self, b: DVec3) -> DVec3 {
        DVec3::new(self.x - b.x, self.y - b.y, self.z - b.z)
    }
}

impl Neg for DVec3 {
    type Output = DVec3;
    #[inline(always)]
    fn neg(self) -> DVec3 {
        DVec3::new(-self.x, -self.y, -self.z)
    }
}
