//! Lane types for the contact solver: `F4` (four constraints at once, width fixed at 4 on
//! every target) and `F1` (one constraint, the reference path).
//!
//! `F4` is four `f32`s with every operation written lane by lane: exactly the IEEE
//! operations `F1` performs, so the two paths give the same bits by construction (and a
//! test holds them to it). LLVM turns the lane-by-lane code into SSE/NEON instructions
//! where the target has them; it never reassociates, never fuses a multiply and an add,
//! and keeps `max` as the compare-and-select written here (SSE's `minps` has exactly
//! these semantics; NEON gets a compare and a select). No intrinsics, no `unsafe`.

use crate::math::sqrt;
use core::ops::{Add, Mul, Neg, Sub};

/// What the solver needs of a lane type.
pub(crate) trait Lanes:
    Copy + Default + Add<Output = Self> + Sub<Output = Self> + Mul<Output = Self> + Neg<Output = Self>
{
    /// Constraints solved at once.
    const WIDTH: usize;
    /// Every lane `v`.
    fn splat(v: f32) -> Self;
    /// Lane `i`.
    fn lane(&self, i: usize) -> f32;
    /// Sets lane `i`.
    fn set_lane(&mut self, i: usize, v: f32);
    /// Lane-wise `if self > b { self } else { b }`.
    fn max(self, b: Self) -> Self;
    /// Lane-wise `x / y`.
    fn div(self, b: Self) -> Self;
    /// Lane-wise square root.
    fn sqrt(self) -> Self;
    /// Lane-wise `if a > b { x } else { y }`.
    fn select_gt(a: Self, b: Self, x: Self, y: Self) -> Self;
}

/// One lane.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct F1(pub f32);

impl Add for F1 {
    type Output = F1;
    #[inline(always)]
    fn add(self, b: F1) -> F1 {
        F1(self.0 + b.0)
    }
}
impl Sub for F1 {
    type Output = F1;
    #[inline(always)]
    fn sub(self, b: F1) -> F1 {
        F1(self.0 - b.0)
    }
}
impl Mul for F1 {
    type Output = F1;
    #[inline(always)]
    fn mul(self, b: F1) -> F1 {
        F1(self.0 * b.0)
    }
}
impl Neg for F1 {
    type Output = F1;
    #[inline(always)]
    fn neg(self) -> F1 {
        F1(-self.0)
    }
}

impl Lanes for F1 {
    const WIDTH: usize = 1;
    #[inline(always)]
    fn splat(v: f32) -> F1 {
        F1(v)
    }
    #[inline(always)]
    fn lane(&self, _i: usize) -> f32 {
        self.0
    }
    #[inline(always)]
    fn set_lane(&mut self, _i: usize, v: f32) {
        self.0 = v;
    }
    #[inline(always)]
    fn max(self, b: F1) -> F1 {
        F1(if self.0 > b.0 { self.0 } else { b.0 })
    }
    #[inline(always)]
    fn div(self, b: F1) -> F1 {
        F1(self.0 / b.0)
    }
    #[inline(always)]
    fn sqrt(self) -> F1 {
        F1(sqrt(self.0))
    }
    #[inline(always)]
    fn select_gt(a: F1, b: F1, x: F1, y: F1) -> F1 {
        if a.0 > b.0 { x } else { y }
    }
}

/// Four lanes.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[repr(C, align(16))]
pub(crate) struct F4(pub [f32; 4]);

macro_rules! lanewise {
    ($a:expr, $b:expr, $op:tt) => {
        F4([$a.0[0] $op $b.0[0], $a.0[1] $op $b.0[1], $a.0[2] $op $b.0[2], $a.0[3] $op $b.0[3]])
    };
}

impl Add for F4 {
    type Output = F4;
    #[inline(always)]
    fn add(self, b: F4) -> F4 {
        lanewise!(self, b, +)
    }
}
impl Sub for F4 {
    type Output = F4;
    #[inline(always)]
    fn sub(self, b: F4) -> F4 {
        lanewise!(self, b, -)
    }
}
impl Mul for F4 {
    type Output = F4;
    #[inline(always)]
    fn mul(self, b: F4) -> F4 {
        lanewise!(self, b, *)
    }
}
impl Neg for F4 {
    type Output = F4;
    #[inline(always)]
    fn neg(self) -> F4 {
        F4([-self.0[0], -self.0[1], -self.0[2], -self.0[3]])
    }
}

impl Lanes for F4 {
    const WIDTH: usize = 4;
    #[inline(always)]
    fn splat(v: f32) -> F4 {
        F4([v; 4])
    }
    #[inline(always)]
    fn lane(&self, i: usize) -> f32 {
        self.0[i]
    }
    #[inline(always)]
    fn set_lane(&mut self, i: usize, v: f32) {
        self.0[i] = v;
    }
    #[inline(always)]
    fn max(self, b: F4) -> F4 {
        let m = |x: f32, y: f32| if x > y { x } else { y };
        F4([
            m(self.0[0], b.0[0]),
            m(self.0[1], b.0[1]),
            m(self.0[2], b.0[2]),
            m(self.0[3], b.0[3]),
        ])
    }
    #[inline(always)]
    fn div(self, b: F4) -> F4 {
        lanewise!(self, b, /)
    }
    #[inline(always)]
    fn sqrt(self) -> F4 {
        F4([
            sqrt(self.0[0]),
            sqrt(self.0[1]),
            sqrt(self.0[2]),
            sqrt(self.0[3]),
        ])
    }
    #[inline(always)]
    fn select_gt(a: F4, b: F4, x: F4, y: F4) -> F4 {
        let s = |i: usize| if a.0[i] > b.0[i] { x.0[i] } else { y.0[i] };
        F4([s(0), s(1), s(2), s(3)])
    }
}

/// A 3-vector of lanes.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct V3<L> {
    pub x: L,
    pub y: L,
    pub z: L,
}

impl<L: Lanes> V3<L> {
    #[inline(always)]
    pub fn dot(self, b: V3<L>) -> L {
        self.x * b.x + self.y * b.y + self.z * b.z
    }
    #[inline(always)]
    pub fn cross(self, b: V3<L>) -> V3<L> {
        V3 {
            x: self.y * b.z - self.z * b.y,
            y: self.z * b.x - self.x * b.z,
            z: self.x * b.y - self.y * b.x,
        }
    }
    #[inline(always)]
    pub fn add(self, b: V3<L>) -> V3<L> {
        V3 {
            x: self.x + b.x,
            y: self.y + b.y,
            z: self.z + b.z,
        }
    }
    #[inline(always)]
    pub fn sub(self, b: V3<L>) -> V3<L> {
        V3 {
            x: self.x - b.x,
            y: self.y - b.y,
            z: self.z - b.z,
        }
    }
    #[inline(always)]
    pub fn scale(self, s: L) -> V3<L> {
        V3 {
            x: self.x * s,
            y: self.y * s,
            z: self.z * s,
        }
    }
    #[inline(always)]
    pub fn mul_elements(self, b: V3<L>) -> V3<L> {
        V3 {
            x: self.x * b.x,
            y: self.y * b.y,
            z: self.z * b.z,
        }
    }
    #[inline(always)]
    pub fn set_lane(&mut self, i: usize, v: crate::math::Vec3) {
        self.x.set_lane(i, v.x);
        self.y.set_lane(i, v.y);
        self.z.set_lane(i, v.z);
    }
    #[inline(always)]
    pub fn lane(&self, i: usize) -> crate::math::Vec3 {
        crate::math::Vec3::new(self.x.lane(i), self.y.lane(i), self.z.lane(i))
    }
}

/// A symmetric 3×3 matrix of lanes (inverse inertia): xx, yy, zz, xy, xz, yz.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct Sym3<L> {
    pub xx: L,
    pub yy: L,
    pub zz: L,
    pub xy: L,
    pub xz: L,
    pub yz: L,
}

impl<L: Lanes> Sym3<L> {
    #[inline(always)]
    pub fn mul_vec(&self, v: V3<L>) -> V3<L> {
        V3 {
            x: self.xx * v.x + self.xy * v.y + self.xz * v.z,
            y: self.xy * v.x + self.yy * v.y + self.yz * v.z,
            z: self.xz * v.x + self.yz * v.y + self.zz * v.z,
        }
    }
    #[inline(always)]
    pub fn set_lane(&mut self, i: usize, m: &crate::math::Mat3) {
        // Symmetric by construction (R I⁻¹ Rᵀ); average the off-diagonal pairs so the
        // stored matrix is exactly symmetric whatever the rounding.
        self.xx.set_lane(i, m.cx.x);
        self.yy.set_lane(i, m.cy.y);
        self.zz.set_lane(i, m.cz.z);
        self.xy.set_lane(i, 0.5 * (m.cy.x + m.cx.y));
        self.xz.set_lane(i, 0.5 * (m.cz.x + m.cx.z));
        self.yz.set_lane(i, 0.5 * (m.cz.y + m.cy.z));
    }
}

/// A quaternion of lanes.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct Q<L> {
    pub v: V3<L>,
    pub w: L,
}

impl<L: Lanes> Q<L> {
    /// Rotates `r`, as `Quat::rotate`: `r + 2w (q × r) + q × (2 q × r)`.
    #[cfg(test)]
    pub fn rotate(&self, r: V3<L>) -> V3<L> {
        let two = L::splat(2.0);
        let t = self.v.cross(r).scale(two);
        r.add(t.scale(self.w)).add(self.v.cross(t))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::{Quat, Vec3};

    #[test]
    fn four_lanes_compute_what_one_lane_computes() {
        let q = Quat::from_axis_angle(Vec3::new(0.3, -0.8, 0.5).normalize(), 0.77);
        let r = Vec3::new(0.25, -1.5, 3.0);
        let mut q4 = Q::<F4>::default();
        let mut r4 = V3::<F4>::default();
        for i in 0..4 {
            q4.v.set_lane(i, q.v());
            q4.w.set_lane(i, q.w);
            r4.set_lane(i, r * (i as f32 + 1.0));
        }
        let out4 = q4.rotate(r4);
        for i in 0..4 {
            let q1 = Q::<F1> {
                v: V3 {
                    x: F1(q.x),
                    y: F1(q.y),
                    z: F1(q.z),
                },
                w: F1(q.w),
            };
            let ri = r * (i as f32 + 1.0);
            let out1 = q1.rotate(V3 {
                x: F1(ri.x),
                y: F1(ri.y),
                z: F1(ri.z),
            });
            assert_eq!(out4.lane(i), out1.lane(0));
            // And the same bits as the scalar math module.
            assert_eq!(out1.lane(0), q.rotate(ri));
        }
        let a = F4([1.0, -0.0, 0.0, f32::NAN]);
        let b = F4([2.0, 0.0, -0.0, 1.0]);
        for i in 0..4 {
            assert_eq!(
                a.max(b).0[i].to_bits(),
                F1(a.0[i]).max(F1(b.0[i])).0.to_bits()
            );
        }
    }
}
