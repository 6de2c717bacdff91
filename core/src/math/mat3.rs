//! 3×3 matrices, stored by column: inertia tensors and rotation matrices.

use super::quat::Quat;
use super::vec3::Vec3;
use core::ops::{Add, Mul, Sub};

/// A 3×3 matrix with columns `cx`, `cy`, `cz`.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[repr(C)]
pub struct Mat3 {
    /// First column.
    pub cx: Vec3,
    /// Second column.
    pub cy: Vec3,
    /// Third column.
    pub cz: Vec3,
}

impl Mat3 {
    /// All zeros.
    pub const ZERO: Mat3 = Mat3::from_cols(Vec3::ZERO, Vec3::ZERO, Vec3::ZERO);
    /// The identity.
    pub const IDENTITY: Mat3 = Mat3::from_cols(Vec3::X, Vec3::Y, Vec3::Z);

    /// A matrix from its columns.
    #[inline(always)]
    pub const fn from_cols(cx: Vec3, cy: Vec3, cz: Vec3) -> Mat3 {
        Mat3 { cx, cy, cz }
    }

    /// A diagonal matrix.
    #[inline(always)]
    pub const fn diagonal(d: Vec3) -> Mat3 {
        Mat3::from_cols(
            Vec3::new(d.x, 0.0, 0.0),
            Vec3::new(0.0, d.y, 0.0),
            Vec3::new(0.0, 0.0, d.z),
        )
    }

    /// The rotation matrix of a unit quaternion.
    #[inline]
    pub fn from_quat(q: Quat) -> Mat3 {
        let (x2, y2, z2) = (q.x + q.x, q.y + q.y, q.z + q.z);
        let (xx, xy, xz) = (q.x * x2, q.x * y2, q.x * z2);
        let (yy, yz, zz) = (q.y * y2, q.y * z2, q.z * z2);
        let (wx, wy, wz) = (q.w * x2, q.w * y2, q.w * z2);
        Mat3::from_cols(
            Vec3::new(1.0 - (yy + zz), xy + wz, xz - wy),
            Vec3::new(xy - wz, 1.0 - (xx + zz), yz + wx),
            Vec3::new(xz + wy, yz - wx, 1.0 - (xx + yy)),
        )
    }

    /// The cross-product matrix: `skew(a) * b == a × b`.
    #[inline]
    pub fn skew(a: Vec3) -> Mat3 {
        Mat3::from_cols(
            Vec3::new(0.0, a.z, -a.y),
            Vec3::new(-a.z, 0.0, a.x),
            Vec3::new(a.y, -a.x, 0.0),
        )
    }

    /// Matrix times vector: `cx v.x + cy v.y + cz v.z`.
    #[inline(always)]
    pub fn mul_vec(&self, v: Vec3) -> Vec3 {
        Vec3::new(
            self.cx.x * v.x + self.cy.x * v.y + self.cz.x * v.z,
            self.cx.y * v.x + self.cy.y * v.y + self.cz.y * v.z,
            self.cx.z * v.x + self.cy.z * v.y + self.cz.z * v.z,
        )
    }

    /// Transpose times vector.
    #[inline(always)]
    pub fn transpose_mul_vec(&self, v: Vec3) -> Vec3 {
        Vec3::new(self.cx.dot(v), self.cy.dot(v), self.cz.dot(v))
    }

    /// The transpose.
    #[inline]
    pub fn transpose(&self) -> Mat3 {
        Mat3::from_cols(
            Vec3::new(self.cx.x, self.cy.x, self.cz.x),
            Vec3::new(self.cx.y, self.cy.y, self.cz.y),
            Vec3::new(self.cx.z, self.cy.z, self.cz.z),
        )
    }

    /// Matrix product.
    #[inline]
    pub fn mul_mat(&self, b: &Mat3) -> Mat3 {
        Mat3::from_cols(self.mul_vec(b.cx), self.mul_vec(b.cy), self.mul_vec(b.cz))
    }

    /// Every entry times `s`.
    #[inline]
    pub fn scale(&self, s: f32) -> Mat3 {
        Mat3::from_cols(self.cx * s, self.cy * s, self.cz * s)
    }

    /// The determinant.
    #[inline]
    pub fn determinant(&self) -> f32 {
        self.cx.dot(self.cy.cross(self.cz))
    }

    /// The inverse; the zero matrix when singular.
    #[inline]
    pub fn inverse(&self) -> Mat3 {
        let det = self.determinant();
        if det == 0.0 || !det.is_finite() {
            return Mat3::ZERO;
        }
        let inv_det = 1.0 / det;
        let r0 = self.cy.cross(self.cz) * inv_det;
        let r1 = self.cz.cross(self.cx) * inv_det;
        let r2 = self.cx.cross(self.cy) * inv_det;
        // r0, r1, r2 are the rows of the inverse.
        Mat3::from_cols(r0, r1, r2).transpose()
    }

    /// `R M Rᵀ`: a body-frame tensor seen in the world frame.
    #[inline]
    pub fn rotate_tensor(&self, q: Quat) -> Mat3 {
        let r = Mat3::from_quat(q);
        r.mul_mat(self).mul_mat(&r.transpose())
    }

    /// Whether every entry is finite.
    pub fn is_valid(&self) -> bool {
        self.cx.is_valid() && self.cy.is_valid() && self.cz.is_valid()
    }
}

impl Add for Mat3 {
    type Output = Mat3;
    #[inline]
    fn add(self, b: Mat3) -> Mat3 {
        Mat3::from_cols(self.cx + b.cx, self.cy + b.cy, self.cz + b.cz)
    }
}

impl Sub for Mat3 {
    type Output = Mat3;
    #[inline]
    fn sub(self, b: Mat3) -> Mat3 {
        Mat3::from_cols(self.cx - b.cx, self.cy - b.cy, self.cz - b.cz)
    }
}

impl Mul<Vec3> for Mat3 {
    type Output = Vec3;
    #[inline(always)]
    fn mul(self, v: Vec3) -> Vec3 {
        self.mul_vec(v)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inverse_times_matrix_is_identity() {
        let m = Mat3::from_cols(
            Vec3::new(4.0, 1.0, 0.5),
            Vec3::new(1.0, 3.0, 0.2),
            Vec3::new(0.5, 0.2, 2.0),
        );
        let p = m.mul_mat(&m.inverse());
        for (c, e) in [(p.cx, Vec3::X), (p.cy, Vec3::Y), (p.cz, Vec3::Z)] {
            assert!((c - e).length() < 1e-5);
        }
    }

    #[test]
    fn quat_matrix_rotates_like_the_quat() {
        let q = Quat::from_axis_angle(Vec3::new(1.0, 2.0, 3.0).normalize(), 1.1);
        let v = Vec3::new(-0.4, 0.9, 2.5);
        assert!((Mat3::from_quat(q).mul_vec(v) - q.rotate(v)).length() < 1e-5);
        assert!((Mat3::skew(v).mul_vec(Vec3::X) - v.cross(Vec3::X)).length() < 1e-6);
    }
}
