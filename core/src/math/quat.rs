//! Unit quaternions for rotations.

use super::scalar::{sin_cos, sqrt};
use super::vec3::Vec3;
use core::ops::Mul;

/// A rotation as a unit quaternion `(v, s)`: `x i + y j + z k + w`.
#[derive(Clone, Copy, Debug, PartialEq)]
#[repr(C)]
pub struct Quat {
    /// i component.
    pub x: f32,
    /// j component.
    pub y: f32,
    /// k component.
    pub z: f32,
    /// Real component.
    pub w: f32,
}

impl Default for Quat {
    fn default() -> Quat {
        Quat::IDENTITY
    }
}

impl Quat {
    /// No rotation.
    pub const IDENTITY: Quat = Quat::new(0.0, 0.0, 0.0, 1.0);

    /// A quaternion from its components (not normalised).
    #[inline(always)]
    pub const fn new(x: f32, y: f32, z: f32, w: f32) -> Quat {
        Quat { x, y, z, w }
    }

    /// Rotation by `angle` radians about the unit vector `axis`.
    pub fn from_axis_angle(axis: Vec3, angle: f32) -> Quat {
        let (s, c) = sin_cos(0.5 * angle);
        Quat::new(axis.x * s, axis.y * s, axis.z * s, c)
    }

    /// The vector part.
    #[inline(always)]
    pub fn v(self) -> Vec3 {
        Vec3::new(self.x, self.y, self.z)
    }

    /// The inverse rotation (conjugate of a unit quaternion).
    #[inline(always)]
    pub fn conjugate(self) -> Quat {
        Quat::new(-self.x, -self.y, -self.z, self.w)
    }

    /// Squared norm.
    #[inline(always)]
    pub fn length_squared(self) -> f32 {
        self.x * self.x + self.y * self.y + self.z * self.z + self.w * self.w
    }

    /// The four-component dot product (cos of half the angle between unit rotations, up
    /// to sign), summed x, y, z, w in that order.
    #[inline(always)]
    pub fn dot(self, b: Quat) -> f32 {
        self.x * b.x + self.y * b.y + self.z * b.z + self.w * b.w
    }

    /// Scaled to unit length; identity when too short.
    #[inline]
    pub fn normalize(self) -> Quat {
        let len = sqrt(self.length_squared());
        if len < f32::EPSILON {
            return Quat::IDENTITY;
        }
        let inv = 1.0 / len;
        Quat::new(self.x * inv, self.y * inv, self.z * inv, self.w * inv)
    }

    /// Rotates `v`: `v + 2 w (q × v) + 2 q × (q × v)`.
    #[inline(always)]
    pub fn rotate(self, v: Vec3) -> Vec3 {
        let q = self.v();
        let t = q.cross(v) * 2.0;
        v + t * self.w + q.cross(t)
    }

    /// Rotates `v` by the inverse rotation.
    #[inline(always)]
    pub fn inv_rotate(self, v: Vec3) -> Vec3 {
        self.conjugate().rotate(v)
    }

    /// `self` conjugated times `b`: the rotation of `b` relative to `self`.
    #[inline(always)]
    pub fn inv_mul(self, b: Quat) -> Quat {
        self.conjugate() * b
    }

    /// Advances the rotation by angular velocity `w` over `h` seconds:
    /// `normalize(q + h/2 · (w, 0) q)`.
    #[inline(always)]
    pub fn integrate(self, w: Vec3, h: f32) -> Quat {
        let hw = w * (0.5 * h);
        let dq = Quat::new(hw.x, hw.y, hw.z, 0.0) * self;
        Quat::new(self.x + dq.x, self.y + dq.y, self.z + dq.z, self.w + dq.w).normalize()
    }

    /// Whether every component is finite.
    #[inline(always)]
    pub fn is_valid(self) -> bool {
        self.x.is_finite() && self.y.is_finite() && self.z.is_finite() && self.w.is_finite()
    }

    /// Whether the norm is 1 within `tol` (on the squared norm).
    #[inline]
    pub fn is_normalized(self, tol: f32) -> bool {
        (self.length_squared() - 1.0).abs() <= tol
    }

    /// The rotation's x axis.
    #[inline(always)]
    pub fn axis_x(self) -> Vec3 {
        self.rotate(Vec3::X)
    }

    /// The rotation's y axis.
    #[inline(always)]
    pub fn axis_y(self) -> Vec3 {
        self.rotate(Vec3::Y)
    }
}

impl Mul for Quat {
    type Output = Quat;
    /// Hamilton product: `(self * b).rotate(v) == self.rotate(b.rotate(v))`.
    #[inline(always)]
    fn mul(self, b: Quat) -> Quat {
        let a = self;
        Quat::new(
            a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y,
            a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
            a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w,
            a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn product_composes_rotations() {
        let a = Quat::from_axis_angle(Vec3::Z, 0.7);
        let b = Quat::from_axis_angle(Vec3::X, -0.3);
        let v = Vec3::new(0.3, -1.2, 2.0);
        let r1 = (a * b).rotate(v);
        let r2 = a.rotate(b.rotate(v));
        assert!((r1 - r2).length() < 1e-5);
        let back = a.inv_rotate(a.rotate(v));
        assert!((back - v).length() < 1e-5);
    }

    #[test]
    fn quarter_turn_about_z_maps_x_to_y() {
        let q = Quat::from_axis_angle(Vec3::Z, core::f32::consts::FRAC_PI_2);
        let r = q.rotate(Vec3::X);
        assert!((r - Vec3::Y).length() < 1e-6);
    }
}
