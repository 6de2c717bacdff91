//! Lane types for the contact solver: `F4` (four constraints at once, width fixed at 4 on
//! every target), `F4x2` (two `F4` groups side by side, what the colours are solved in) and
//! `F1` (one constraint, the reference path and the overflow colour).
//!
//! Every operation is an IEEE operation applied lane by lane, so `F4` computes in each
//! lane exactly what `F1` computes (a test holds the solver to it). On x86 and x86-64,
//! `F4` is an SSE register driven by SSE/SSE2 intrinsics: `addps`, `subps`, `mulps`,
//! `divps` and `sqrtps` round exactly like their scalar forms, `maxps(a, b)` is exactly
//! `if a > b { a } else { b }`, and selects are a compare and bit masks. Left to itself,
//! LLVM turned the lane-by-lane arrays into per-lane branches around scalar `sqrtss` and
//! shuffles between stack copies, at twice the time. Elsewhere `F4` is four `f32`s with
//! every operation written out lane by lane, which computes the same bits.

use crate::math::sqrt;
use core::ops::{Add, Mul, Sub};

/// The most lanes of any lane type.
pub(crate) const MAX_WIDTH: usize = 8;

/// What the solver needs of a lane type.
pub(crate) trait Lanes:
    Copy + Default + Add<Output = Self> + Sub<Output = Self> + Mul<Output = Self>
{
    /// Constraints solved at once.
    const WIDTH: usize;
    /// Every lane `v`.
    fn splat(v: f32) -> Self;
    /// Lane `i` is `f(i)`, for `i` below `WIDTH`.
    fn from_fn(f: impl FnMut(usize) -> f32) -> Self;
    /// Lane `i` is `a[i]`, for `i` below `WIDTH`: lanes kept side by side, loaded at once.
    #[inline(always)]
    fn load(a: &[f32; MAX_WIDTH]) -> Self {
        Self::from_fn(|i| a[i])
    }
    /// The lanes, zero past `WIDTH`.
    fn to_array(self) -> [f32; MAX_WIDTH];
    /// Lane-wise `if self > b { self } else { b }`.
    fn max(self, b: Self) -> Self;
    /// Lane-wise `x / y`.
    fn div(self, b: Self) -> Self;
    /// Lane-wise square root.
    fn sqrt(self) -> Self;
    /// Lane-wise `if a > b { x } else { y }`.
    fn select_gt(a: Self, b: Self, x: Self, y: Self) -> Self;
    /// Four-float records, one per lane (records past `WIDTH` unread), turned into
    /// their four columns: column `k` holds field `k` of every lane.
    fn transpose(rows: [[f32; 4]; MAX_WIDTH]) -> [Self; 4];
    /// The inverse of `transpose`: record `i` (for `i` below `WIDTH`) from lane `i`.
    fn untranspose(columns: [Self; 4]) -> [[f32; 4]; MAX_WIDTH];
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

impl Lanes for F1 {
    const WIDTH: usize = 1;
    #[inline(always)]
    fn splat(v: f32) -> F1 {
        F1(v)
    }
    #[inline(always)]
    fn from_fn(mut f: impl FnMut(usize) -> f32) -> F1 {
        F1(f(0))
    }
    #[inline(always)]
    fn to_array(self) -> [f32; MAX_WIDTH] {
        let mut a = [0.0; MAX_WIDTH];
        a[0] = self.0;
        a
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
    #[inline(always)]
    fn transpose(rows: [[f32; 4]; MAX_WIDTH]) -> [F1; 4] {
        let r = rows[0];
        [F1(r[0]), F1(r[1]), F1(r[2]), F1(r[3])]
    }
    #[inline(always)]
    fn untranspose(c: [F1; 4]) -> [[f32; 4]; MAX_WIDTH] {
        let mut r = [[0.0; 4]; MAX_WIDTH];
        r[0] = [c[0].0, c[1].0, c[2].0, c[3].0];
        r
    }
}

#[cfg(any(
    target_arch = "x86_64",
    all(target_arch = "x86", target_feature = "sse2")
))]
mod sse {
    //! `F4` in an SSE register.

    use super::{Lanes, MAX_WIDTH};
    #[cfg(target_arch = "x86")]
    use core::arch::x86::*;
    #[cfg(target_arch = "x86_64")]
    use core::arch::x86_64::*;
    use core::ops::{Add, Mul, Sub};

    /// Runs SSE/SSE2 intrinsics that take no pointers.
    macro_rules! sse {
        ($e:expr) => {
            // SAFETY: this module is compiled only where SSE and SSE2 are enabled for the
            // whole target (every x86-64 CPU; x86 builds with `sse2` on), so the
            // instructions exist, and these intrinsics read and write registers only.
            unsafe { $e }
        };
    }

    /// Four lanes.
    #[derive(Clone, Copy)]
    #[repr(transparent)]
    pub(crate) struct F4(pub __m128);

    impl Default for F4 {
        #[inline(always)]
        fn default() -> F4 {
            F4(sse!(_mm_setzero_ps()))
        }
    }

    impl core::fmt::Debug for F4 {
        fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
            self.to_array().fmt(f)
        }
    }

    impl PartialEq for F4 {
        fn eq(&self, b: &F4) -> bool {
            self.to_array() == b.to_array()
        }
    }

    impl Add for F4 {
        type Output = F4;
        #[inline(always)]
        fn add(self, b: F4) -> F4 {
            F4(sse!(_mm_add_ps(self.0, b.0)))
        }
    }
    impl Sub for F4 {
        type Output = F4;
        #[inline(always)]
        fn sub(self, b: F4) -> F4 {
            F4(sse!(_mm_sub_ps(self.0, b.0)))
        }
    }
    impl Mul for F4 {
        type Output = F4;
        #[inline(always)]
        fn mul(self, b: F4) -> F4 {
            F4(sse!(_mm_mul_ps(self.0, b.0)))
        }
    }

    impl Lanes for F4 {
        const WIDTH: usize = 4;
        #[inline(always)]
        fn splat(v: f32) -> F4 {
            F4(sse!(_mm_set1_ps(v)))
        }
        #[inline(always)]
        fn from_fn(mut f: impl FnMut(usize) -> f32) -> F4 {
            let (a, b, c, d) = (f(0), f(1), f(2), f(3));
            F4(sse!(_mm_setr_ps(a, b, c, d)))
        }
        #[inline(always)]
        fn to_array(self) -> [f32; MAX_WIDTH] {
            let v = self.0;
            sse!([
                _mm_cvtss_f32(v),
                _mm_cvtss_f32(_mm_shuffle_ps::<0x55>(v, v)),
                _mm_cvtss_f32(_mm_shuffle_ps::<0xaa>(v, v)),
                _mm_cvtss_f32(_mm_shuffle_ps::<0xff>(v, v)),
                0.0,
                0.0,
                0.0,
                0.0,
            ])
        }
        #[inline(always)]
        fn max(self, b: F4) -> F4 {
            // maxps returns its second operand unless the first is greater: exactly F1's
            // compare-and-select, for ±0 and NaN too.
            F4(sse!(_mm_max_ps(self.0, b.0)))
        }
        #[inline(always)]
        fn div(self, b: F4) -> F4 {
            F4(sse!(_mm_div_ps(self.0, b.0)))
        }
        #[inline(always)]
        fn sqrt(self) -> F4 {
            F4(sse!(_mm_sqrt_ps(self.0)))
        }
        #[inline(always)]
        fn select_gt(a: F4, b: F4, x: F4, y: F4) -> F4 {
            F4(sse!({
                let m = _mm_cmpgt_ps(a.0, b.0);
                _mm_or_ps(_mm_and_ps(m, x.0), _mm_andnot_ps(m, y.0))
            }))
        }
        #[inline(always)]
        fn transpose(r: [[f32; 4]; MAX_WIDTH]) -> [F4; 4] {
            sse!({
                let r0 = _mm_setr_ps(r[0][0], r[0][1], r[0][2], r[0][3]);
                let r1 = _mm_setr_ps(r[1][0], r[1][1], r[1][2], r[1][3]);
                let r2 = _mm_setr_ps(r[2][0], r[2][1], r[2][2], r[2][3]);
                let r3 = _mm_setr_ps(r[3][0], r[3][1], r[3][2], r[3][3]);
                let t0 = _mm_unpacklo_ps(r0, r1);
                let t1 = _mm_unpacklo_ps(r2, r3);
                let t2 = _mm_unpackhi_ps(r0, r1);
                let t3 = _mm_unpackhi_ps(r2, r3);
                [
                    F4(_mm_movelh_ps(t0, t1)),
                    F4(_mm_movehl_ps(t1, t0)),
                    F4(_mm_movelh_ps(t2, t3)),
                    F4(_mm_movehl_ps(t3, t2)),
                ]
            })
        }
        #[inline(always)]
        fn untranspose(c: [F4; 4]) -> [[f32; 4]; MAX_WIDTH] {
            let row = |v: F4| {
                let a = v.to_array();
                [a[0], a[1], a[2], a[3]]
            };
            let mut r = [[0.0; 4]; MAX_WIDTH];
            let [r0, r1, r2, r3] = sse!({
                let t0 = _mm_unpacklo_ps(c[0].0, c[1].0);
                let t1 = _mm_unpacklo_ps(c[2].0, c[3].0);
                let t2 = _mm_unpackhi_ps(c[0].0, c[1].0);
                let t3 = _mm_unpackhi_ps(c[2].0, c[3].0);
                [
                    F4(_mm_movelh_ps(t0, t1)),
                    F4(_mm_movehl_ps(t1, t0)),
                    F4(_mm_movelh_ps(t2, t3)),
                    F4(_mm_movehl_ps(t3, t2)),
                ]
            });
            r[0] = row(r0);
            r[1] = row(r1);
            r[2] = row(r2);
            r[3] = row(r3);
            r
        }
    }
}

#[cfg(target_arch = "aarch64")]
mod neon {
    //! `F4` in a NEON register (Advanced SIMD is part of every aarch64 target). `fadd`,
    //! `fsub`, `fmul`, `fdiv` and `fsqrt` on vectors round exactly like their scalar forms
    //! under the same FPCR (flush-to-zero applies to both alike); `fmax` differs from `F1`'s
    //! compare-and-select for NaN and ±0, so `max` is a compare and a bit select, as are
    //! the selects. No fused multiply-add is ever asked for.

    use super::{Lanes, MAX_WIDTH};
    use core::arch::aarch64::*;
    use core::ops::{Add, Mul, Sub};

    /// Runs NEON intrinsics.
    macro_rules! neon {
        ($e:expr) => {
            // SAFETY: NEON is enabled for the whole aarch64 target, and these intrinsics
            // touch registers only (the loads and stores below name their arrays).
            #[allow(unused_unsafe)]
            unsafe {
                $e
            }
        };
    }

    /// Four lanes.
    #[derive(Clone, Copy)]
    #[repr(transparent)]
    pub(crate) struct F4(pub float32x4_t);

    impl Default for F4 {
        #[inline(always)]
        fn default() -> F4 {
            F4(neon!(vdupq_n_f32(0.0)))
        }
    }

    impl core::fmt::Debug for F4 {
        fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
            self.to_array().fmt(f)
        }
    }

    impl PartialEq for F4 {
        fn eq(&self, b: &F4) -> bool {
            self.to_array() == b.to_array()
        }
    }

    impl Add for F4 {
        type Output = F4;
        #[inline(always)]
        fn add(self, b: F4) -> F4 {
            F4(neon!(vaddq_f32(self.0, b.0)))
        }
    }
    impl Sub for F4 {
        type Output = F4;
        #[inline(always)]
        fn sub(self, b: F4) -> F4 {
            F4(neon!(vsubq_f32(self.0, b.0)))
        }
    }
    impl Mul for F4 {
        type Output = F4;
        #[inline(always)]
        fn mul(self, b: F4) -> F4 {
            F4(neon!(vmulq_f32(self.0, b.0)))
        }
    }

    impl Lanes for F4 {
        const WIDTH: usize = 4;
        #[inline(always)]
        fn splat(v: f32) -> F4 {
            F4(neon!(vdupq_n_f32(v)))
        }
        #[inline(always)]
        fn from_fn(f: impl FnMut(usize) -> f32) -> F4 {
            let l: [f32; 4] = core::array::from_fn(f);
            F4(neon!(vld1q_f32(l.as_ptr())))
        }
        #[inline(always)]
        fn to_array(self) -> [f32; MAX_WIDTH] {
            let mut l = [0.0f32; 4];
            neon!(vst1q_f32(l.as_mut_ptr(), self.0));
            core::array::from_fn(|i| if i < 4 { l[i] } else { 0.0 })
        }
        #[inline(always)]
        fn max(self, b: F4) -> F4 {
            F4::select_gt(self, b, self, b)
        }
        #[inline(always)]
        fn div(self, b: F4) -> F4 {
            F4(neon!(vdivq_f32(self.0, b.0)))
        }
        #[inline(always)]
        fn sqrt(self) -> F4 {
            F4(neon!(vsqrtq_f32(self.0)))
        }
        #[inline(always)]
        fn select_gt(a: F4, b: F4, x: F4, y: F4) -> F4 {
            F4(neon!(vbslq_f32(vcgtq_f32(a.0, b.0), x.0, y.0)))
        }
        #[inline(always)]
        fn transpose(r: [[f32; 4]; MAX_WIDTH]) -> [F4; 4] {
            core::array::from_fn(|k| F4::from_fn(|i| r[i][k]))
        }
        #[inline(always)]
        fn untranspose(c: [F4; 4]) -> [[f32; 4]; MAX_WIDTH] {
            let c = c.map(|v| v.to_array());
            core::array::from_fn(|i| {
                if i < 4 {
                    [c[0][i], c[1][i], c[2][i], c[3][i]]
                } else {
                    [0.0; 4]
                }
            })
        }
    }
}

mod portable {
    //! `P4`: four `f32`s, every operation written lane by lane. The lanes of targets without
    //! SIMD lanes of their own (wasm32), and the forced scalar path everywhere.

    use super::{Lanes, MAX_WIDTH};
    use crate::math::sqrt;
    use core::ops::{Add, Mul, Sub};

    /// Four lanes, no intrinsics.
    #[derive(Clone, Copy, Debug, Default, PartialEq)]
    #[repr(C, align(16))]
    pub(crate) struct P4(pub [f32; 4]);

    macro_rules! lanewise {
        ($a:expr, $b:expr, $op:tt) => {
            P4([$a.0[0] $op $b.0[0], $a.0[1] $op $b.0[1], $a.0[2] $op $b.0[2], $a.0[3] $op $b.0[3]])
        };
    }

    impl Add for P4 {
        type Output = P4;
        #[inline(always)]
        fn add(self, b: P4) -> P4 {
            lanewise!(self, b, +)
        }
    }
    impl Sub for P4 {
        type Output = P4;
        #[inline(always)]
        fn sub(self, b: P4) -> P4 {
            lanewise!(self, b, -)
        }
    }
    impl Mul for P4 {
        type Output = P4;
        #[inline(always)]
        fn mul(self, b: P4) -> P4 {
            lanewise!(self, b, *)
        }
    }

    impl Lanes for P4 {
        const WIDTH: usize = 4;
        #[inline(always)]
        fn splat(v: f32) -> P4 {
            P4([v; 4])
        }
        #[inline(always)]
        fn from_fn(f: impl FnMut(usize) -> f32) -> P4 {
            P4(core::array::from_fn(f))
        }
        #[inline(always)]
        fn to_array(self) -> [f32; MAX_WIDTH] {
            core::array::from_fn(|i| if i < 4 { self.0[i] } else { 0.0 })
        }
        #[inline(always)]
        fn max(self, b: P4) -> P4 {
            P4::select_gt(self, b, self, b)
        }
        #[inline(always)]
        fn div(self, b: P4) -> P4 {
            lanewise!(self, b, /)
        }
        #[inline(always)]
        fn sqrt(self) -> P4 {
            P4(self.0.map(sqrt))
        }
        #[inline(always)]
        fn select_gt(a: P4, b: P4, x: P4, y: P4) -> P4 {
            // Bit masks rather than branches, so the compiler can keep it vectorised.
            P4(core::array::from_fn(|i| {
                let m = if a.0[i] > b.0[i] { u32::MAX } else { 0 };
                f32::from_bits((x.0[i].to_bits() & m) | (y.0[i].to_bits() & !m))
            }))
        }
        #[inline(always)]
        fn transpose(r: [[f32; 4]; MAX_WIDTH]) -> [P4; 4] {
            core::array::from_fn(|k| P4([r[0][k], r[1][k], r[2][k], r[3][k]]))
        }
        #[inline(always)]
        fn untranspose(c: [P4; 4]) -> [[f32; 4]; MAX_WIDTH] {
            core::array::from_fn(|i| {
                if i < 4 {
                    [c[0].0[i], c[1].0[i], c[2].0[i], c[3].0[i]]
                } else {
                    [0.0; 4]
                }
            })
        }
    }
}

#[cfg(target_arch = "aarch64")]
pub(crate) use neon::F4;
#[cfg(not(any(
    target_arch = "x86_64",
    all(target_arch = "x86", target_feature = "sse2"),
    target_arch = "aarch64"
)))]
pub(crate) use portable::P4 as F4;
pub(crate) use portable::P4;
#[cfg(any(
    target_arch = "x86_64",
    all(target_arch = "x86", target_feature = "sse2")
))]
pub(crate) use sse::F4;

/// Eight lanes: two groups of four side by side, every operation done on both.
///
/// A row's arithmetic is one long chain (read the velocities, compute the impulse, clamp,
/// update the velocities, next row), so four lanes leave the FP units waiting on latency,
/// mostly the friction cone's square root and division. Two independent groups of four
/// interleave two chains. Lane by lane this computes exactly what `F1` computes.
///
/// Laid out as eight `f32`s in lane order, 32-byte aligned: the layout of every eight-lane
/// type (`Wide8`), so one batch of constraints can be solved in any of them.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[repr(C, align(32))]
pub(crate) struct Pair<A> {
    lo: A,
    hi: A,
}

/// `F4` pairs: SSE on x86, NEON on aarch64, the portable lanes elsewhere.
pub(crate) type F4x2 = Pair<F4>;
/// Portable pairs: the scalar path, no intrinsics on any target.
pub(crate) type P4x2 = Pair<P4>;

impl<A: Lanes> Add for Pair<A> {
    type Output = Pair<A>;
    #[inline(always)]
    fn add(self, b: Pair<A>) -> Pair<A> {
        Pair {
            lo: self.lo + b.lo,
            hi: self.hi + b.hi,
        }
    }
}
impl<A: Lanes> Sub for Pair<A> {
    type Output = Pair<A>;
    #[inline(always)]
    fn sub(self, b: Pair<A>) -> Pair<A> {
        Pair {
            lo: self.lo - b.lo,
            hi: self.hi - b.hi,
        }
    }
}
impl<A: Lanes> Mul for Pair<A> {
    type Output = Pair<A>;
    #[inline(always)]
    fn mul(self, b: Pair<A>) -> Pair<A> {
        Pair {
            lo: self.lo * b.lo,
            hi: self.hi * b.hi,
        }
    }
}

impl<A: Lanes> Lanes for Pair<A> {
    const WIDTH: usize = {
        assert!(A::WIDTH == 4);
        8
    };
    #[inline(always)]
    fn splat(v: f32) -> Pair<A> {
        Pair {
            lo: A::splat(v),
            hi: A::splat(v),
        }
    }
    #[inline(always)]
    fn from_fn(mut f: impl FnMut(usize) -> f32) -> Pair<A> {
        let lo = A::from_fn(&mut f);
        let hi = A::from_fn(|i| f(i + 4));
        Pair { lo, hi }
    }
    #[inline(always)]
    fn to_array(self) -> [f32; MAX_WIDTH] {
        let (lo, hi) = (self.lo.to_array(), self.hi.to_array());
        core::array::from_fn(|i| if i < 4 { lo[i] } else { hi[i - 4] })
    }
    #[inline(always)]
    fn max(self, b: Pair<A>) -> Pair<A> {
        Pair {
            lo: self.lo.max(b.lo),
            hi: self.hi.max(b.hi),
        }
    }
    #[inline(always)]
    fn div(self, b: Pair<A>) -> Pair<A> {
        Pair {
            lo: self.lo.div(b.lo),
            hi: self.hi.div(b.hi),
        }
    }
    #[inline(always)]
    fn sqrt(self) -> Pair<A> {
        Pair {
            lo: self.lo.sqrt(),
            hi: self.hi.sqrt(),
        }
    }
    #[inline(always)]
    fn select_gt(a: Pair<A>, b: Pair<A>, x: Pair<A>, y: Pair<A>) -> Pair<A> {
        Pair {
            lo: A::select_gt(a.lo, b.lo, x.lo, y.lo),
            hi: A::select_gt(a.hi, b.hi, x.hi, y.hi),
        }
    }
    #[inline(always)]
    fn transpose(rows: [[f32; 4]; MAX_WIDTH]) -> [Pair<A>; 4] {
        let lo = A::transpose(rows);
        let hi = A::transpose(core::array::from_fn(|i| rows[(i + 4) % MAX_WIDTH]));
        core::array::from_fn(|k| Pair {
            lo: lo[k],
            hi: hi[k],
        })
    }
    #[inline(always)]
    fn untranspose(c: [Pair<A>; 4]) -> [[f32; 4]; MAX_WIDTH] {
        let lo = A::untranspose(c.map(|v| v.lo));
        let hi = A::untranspose(c.map(|v| v.hi));
        core::array::from_fn(|i| if i < 4 { lo[i] } else { hi[i - 4] })
    }
}

/// Eight-lane types that share one memory layout: eight `f32`s in lane order, 32-byte
/// aligned, so that a constraint batch written in one (`F4x2`, what `prepare` writes) is
/// solved in any of them.
///
/// # Safety
/// Implement only for types with that layout (checked at compile time below).
pub(crate) unsafe trait Wide8: Lanes {}

// SAFETY: `Pair` is `repr(C, align(32))` over two four-lane types of 16 bytes each
// (asserted below for every instance in use).
unsafe impl<A: Lanes> Wide8 for Pair<A> {}

const _: () = {
    use core::mem::{align_of, size_of};
    assert!(size_of::<F4>() == 16 && size_of::<P4>() == 16);
    assert!(size_of::<F4x2>() == 32 && align_of::<F4x2>() == 32);
    assert!(size_of::<P4x2>() == 32 && align_of::<P4x2>() == 32);
};

/// Which lanes solve the colours: a speed choice that never changes a result.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SolverLanes {
    /// The widest this CPU runs (`Eight` where it has AVX2, else `Four`); the default.
    Auto,
    /// Eight lanes as plain `f32` operations, no SIMD intrinsics on any target.
    Scalar,
    /// Two groups of four SIMD lanes: SSE on x86, NEON on aarch64 (the scalar lanes on
    /// targets without either, such as wasm32).
    Four,
    /// One group of eight AVX lanes (x86 and x86-64 CPUs with AVX2 only).
    Eight,
}

impl SolverLanes {
    /// Whether this CPU runs the `Eight` path.
    pub fn eight_available() -> bool {
        #[cfg(any(
            target_arch = "x86_64",
            all(target_arch = "x86", target_feature = "sse2")
        ))]
        {
            std::arch::is_x86_feature_detected!("avx2")
        }
        #[cfg(not(any(
            target_arch = "x86_64",
            all(target_arch = "x86", target_feature = "sse2")
        )))]
        {
            false
        }
    }

    /// The path `Auto` stands for on this CPU; any other value itself.
    pub fn resolve(self) -> SolverLanes {
        match self {
            SolverLanes::Auto if SolverLanes::eight_available() => SolverLanes::Eight,
            SolverLanes::Auto => SolverLanes::Four,
            other => other,
        }
    }

    /// The path's name as the determinism tool and the bench print it.
    pub fn name(self) -> &'static str {
        match self {
            SolverLanes::Auto => "auto",
            SolverLanes::Scalar => "scalar",
            SolverLanes::Four => "4-wide",
            SolverLanes::Eight => "8-wide",
        }
    }
}

#[cfg(any(
    target_arch = "x86_64",
    all(target_arch = "x86", target_feature = "sse2")
))]
mod avx {
    //! `F8`: eight lanes in one AVX register. Only ever run inside functions compiled with
    //! AVX enabled (`#[target_feature]`, entered after `is_x86_feature_detected!`), where
    //! the `#[inline(always)]` operations below inline into AVX code. `vaddps`, `vsubps`,
    //! `vmulps`, `vdivps`, `vsqrtps` round exactly like their scalar forms, `vmaxps(a, b)` is
    //! `if a > b { a } else { b }` (the second operand for NaN and ±0, as `maxps`), and a
    //! select is a compare and bit masks: lane by lane the bits of `F1`. No FMA is enabled.

    use super::{F4, Lanes, MAX_WIDTH, Wide8};
    #[cfg(target_arch = "x86")]
    use core::arch::x86::*;
    #[cfg(target_arch = "x86_64")]
    use core::arch::x86_64::*;
    use core::ops::{Add, Mul, Sub};

    /// Runs AVX intrinsics that take no pointers.
    macro_rules! avx {
        ($e:expr) => {
            // SAFETY: `F8` values exist only inside the AVX entry points of the contact
            // solver, which run after `is_x86_feature_detected!("avx2")` said yes (see
            // `SolverLanes::resolve`), and these intrinsics touch registers only.
            unsafe { $e }
        };
    }

    /// Eight lanes.
    #[derive(Clone, Copy)]
    #[repr(transparent)]
    pub(crate) struct F8(pub __m256);

    // SAFETY: `__m256` is eight `f32`s in lane order, 32 bytes, 32-byte aligned.
    unsafe impl Wide8 for F8 {}
    const _: () = assert!(core::mem::size_of::<F8>() == 32 && core::mem::align_of::<F8>() == 32);

    impl Default for F8 {
        #[inline(always)]
        fn default() -> F8 {
            F8(avx!(_mm256_setzero_ps()))
        }
    }

    impl Add for F8 {
        type Output = F8;
        #[inline(always)]
        fn add(self, b: F8) -> F8 {
            F8(avx!(_mm256_add_ps(self.0, b.0)))
        }
    }
    impl Sub for F8 {
        type Output = F8;
        #[inline(always)]
        fn sub(self, b: F8) -> F8 {
            F8(avx!(_mm256_sub_ps(self.0, b.0)))
        }
    }
    impl Mul for F8 {
        type Output = F8;
        #[inline(always)]
        fn mul(self, b: F8) -> F8 {
            F8(avx!(_mm256_mul_ps(self.0, b.0)))
        }
    }

    impl Lanes for F8 {
        const WIDTH: usize = 8;
        #[inline(always)]
        fn splat(v: f32) -> F8 {
            F8(avx!(_mm256_set1_ps(v)))
        }
        #[inline(always)]
        fn from_fn(mut f: impl FnMut(usize) -> f32) -> F8 {
            let (a, b, c, d) = (f(0), f(1), f(2), f(3));
            let (e, g, h, i) = (f(4), f(5), f(6), f(7));
            F8(avx!(_mm256_setr_ps(a, b, c, d, e, g, h, i)))
        }
        #[inline(always)]
        fn load(a: &[f32; MAX_WIDTH]) -> F8 {
            // SAFETY: `a` holds eight floats; an unaligned load.
            F8(unsafe { _mm256_loadu_ps(a.as_ptr()) })
        }
        #[inline(always)]
        fn to_array(self) -> [f32; MAX_WIDTH] {
            let mut out = [0.0f32; MAX_WIDTH];
            // SAFETY: `out` holds eight floats; an unaligned store.
            unsafe { _mm256_storeu_ps(out.as_mut_ptr(), self.0) };
            out
        }
        #[inline(always)]
        fn max(self, b: F8) -> F8 {
            F8(avx!(_mm256_max_ps(self.0, b.0)))
        }
        #[inline(always)]
        fn div(self, b: F8) -> F8 {
            F8(avx!(_mm256_div_ps(self.0, b.0)))
        }
        #[inline(always)]
        fn sqrt(self) -> F8 {
            F8(avx!(_mm256_sqrt_ps(self.0)))
        }
        #[inline(always)]
        fn select_gt(a: F8, b: F8, x: F8, y: F8) -> F8 {
            F8(avx!({
                let m = _mm256_cmp_ps::<_CMP_GT_OQ>(a.0, b.0);
                _mm256_or_ps(_mm256_and_ps(m, x.0), _mm256_andnot_ps(m, y.0))
            }))
        }
        #[inline(always)]
        fn transpose(rows: [[f32; 4]; MAX_WIDTH]) -> [F8; 4] {
            let lo = F4::transpose(rows);
            let hi = F4::transpose(core::array::from_fn(|i| rows[(i + 4) % MAX_WIDTH]));
            core::array::from_fn(|k| F8(avx!(_mm256_set_m128(hi[k].0, lo[k].0))))
        }
        #[inline(always)]
        fn untranspose(c: [F8; 4]) -> [[f32; 4]; MAX_WIDTH] {
            let lo = F4::untranspose(c.map(|v| F4(avx!(_mm256_castps256_ps128(v.0)))));
            let hi = F4::untranspose(c.map(|v| F4(avx!(_mm256_extractf128_ps::<1>(v.0)))));
            core::array::from_fn(|i| if i < 4 { lo[i] } else { hi[i - 4] })
        }
    }
}
#[cfg(any(
    target_arch = "x86_64",
    all(target_arch = "x86", target_feature = "sse2")
))]
pub(crate) use avx::F8;

/// Asks the cache for the memory of `x` ahead of its use: a hint that no result depends
/// on. Storing impulses visits contacts in colour order, a stride through the contact
/// array that the hardware prefetcher does not follow.
#[inline(always)]
pub(crate) fn prefetch<T>(x: *const T) {
    #[cfg(any(
        target_arch = "x86_64",
        all(target_arch = "x86", target_feature = "sse")
    ))]
    {
        #[cfg(target_arch = "x86")]
        use core::arch::x86::{_MM_HINT_T0, _mm_prefetch};
        #[cfg(target_arch = "x86_64")]
        use core::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        let p = x.cast::<i8>();
        let mut offset = 0;
        while offset < core::mem::size_of::<T>() {
            // SAFETY: a prefetch never faults and writes nothing, whatever the address,
            // and `wrapping_add` keeps the pointer arithmetic defined.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(p.wrapping_add(offset)) };
            offset += 64;
        }
    }
    #[cfg(not(any(
        target_arch = "x86_64",
        all(target_arch = "x86", target_feature = "sse")
    )))]
    {
        let _ = x;
    }
}

/// `[f(0), …, f(7)]`, written out: `core::array::from_fn` can be left as a call in the
/// AVX entry points, which then keep their lanes in memory.
#[inline(always)]
pub(crate) fn each<T>(mut f: impl FnMut(usize) -> T) -> [T; MAX_WIDTH] {
    const _: () = assert!(MAX_WIDTH == 8);
    [f(0), f(1), f(2), f(3), f(4), f(5), f(6), f(7)]
}

/// A 3-vector of lanes.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[repr(C)]
pub(crate) struct V3<L> {
    pub x: L,
    pub y: L,
    pub z: L,
}

impl<L: Lanes> V3<L> {
    /// Lane `i` is `f(i)`.
    #[inline(always)]
    pub fn from_fn(mut f: impl FnMut(usize) -> crate::math::Vec3) -> V3<L> {
        let v: [crate::math::Vec3; MAX_WIDTH] = each(|i| {
            if i < L::WIDTH {
                f(i)
            } else {
                crate::math::Vec3::ZERO
            }
        });
        V3 {
            x: L::from_fn(|i| v[i].x),
            y: L::from_fn(|i| v[i].y),
            z: L::from_fn(|i| v[i].z),
        }
    }
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
    /// Lane-wise `if a > b { x } else { y }`, for each component.
    #[inline(always)]
    pub fn select_gt(a: L, b: L, x: V3<L>, y: V3<L>) -> V3<L> {
        V3 {
            x: L::select_gt(a, b, x.x, y.x),
            y: L::select_gt(a, b, x.y, y.y),
            z: L::select_gt(a, b, x.z, y.z),
        }
    }
    /// Each component held within `[-bound, bound]` (see [`clamp_lanes`]).
    #[inline(always)]
    pub fn clamp(self, bound: f32) -> V3<L> {
        V3 {
            x: clamp_lanes(self.x, bound),
            y: clamp_lanes(self.y, bound),
            z: clamp_lanes(self.z, bound),
        }
    }
    /// Lane `i` as a vector.
    #[inline(always)]
    pub fn lanes(&self) -> [crate::math::Vec3; MAX_WIDTH] {
        let (x, y, z) = (self.x.to_array(), self.y.to_array(), self.z.to_array());
        core::array::from_fn(|i| crate::math::Vec3::new(x[i], y[i], z[i]))
    }
}

/// Each lane held within `[-bound, bound]`; a NaN lane becomes `-bound` (the
/// compare-and-select of `Lanes::max`), so nothing non-finite passes.
#[inline(always)]
pub(crate) fn clamp_lanes<L: Lanes>(x: L, bound: f32) -> L {
    let (hi, lo) = (L::splat(bound), L::splat(-bound));
    L::select_gt(x, hi, hi, x.max(lo))
}

/// A symmetric 3×3 matrix of lanes: xx, yy, zz, xy, xz, yz.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[repr(C)]
pub(crate) struct Sym3<L> {
    pub xx: L,
    pub yy: L,
    pub zz: L,
    pub xy: L,
    pub xz: L,
    pub yz: L,
}

impl<L: Lanes> Sym3<L> {
    /// Lane `i` is `f(i)`, given as `[xx, yy, zz, xy, xz, yz]`.
    #[inline(always)]
    pub fn from_fn(mut f: impl FnMut(usize) -> [f32; 6]) -> Sym3<L> {
        let m: [[f32; 6]; MAX_WIDTH] = each(|i| if i < L::WIDTH { f(i) } else { [0.0; 6] });
        Sym3 {
            xx: L::from_fn(|i| m[i][0]),
            yy: L::from_fn(|i| m[i][1]),
            zz: L::from_fn(|i| m[i][2]),
            xy: L::from_fn(|i| m[i][3]),
            xz: L::from_fn(|i| m[i][4]),
            yz: L::from_fn(|i| m[i][5]),
        }
    }
    #[inline(always)]
    pub fn mul_vec(&self, v: V3<L>) -> V3<L> {
        V3 {
            x: self.xx * v.x + self.xy * v.y + self.xz * v.z,
            y: self.xy * v.x + self.yy * v.y + self.yz * v.z,
            z: self.xz * v.x + self.yz * v.y + self.zz * v.z,
        }
    }
    /// `Rᵀ M R` for the frame `R = [e1 e2 e3]`: this matrix seen in that frame.
    #[inline(always)]
    pub fn in_frame(&self, e1: V3<L>, e2: V3<L>, e3: V3<L>) -> Sym3<L> {
        let (m1, m2, m3) = (self.mul_vec(e1), self.mul_vec(e2), self.mul_vec(e3));
        Sym3 {
            xx: e1.dot(m1),
            yy: e2.dot(m2),
            zz: e3.dot(m3),
            xy: e1.dot(m2),
            xz: e1.dot(m3),
            yz: e2.dot(m3),
        }
    }
}

/// A quaternion of lanes.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[repr(C)]
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
        let q4 = Q::<F4> {
            v: V3::from_fn(|_| q.v()),
            w: F4::splat(q.w),
        };
        let r4 = V3::<F4>::from_fn(|i| r * (i as f32 + 1.0));
        let out4 = q4.rotate(r4).lanes();
        for (i, out4) in out4.iter().enumerate().take(4) {
            let q1 = Q::<F1> {
                v: V3::from_fn(|_| q.v()),
                w: F1(q.w),
            };
            let ri = r * (i as f32 + 1.0);
            let out1 = q1.rotate(V3::from_fn(|_| ri)).lanes()[0];
            assert_eq!(*out4, out1);
            // And the same bits as the scalar math module.
            assert_eq!(out1, q.rotate(ri));
        }
        let a = [1.0, -0.0, 0.0, f32::NAN];
        let b = [2.0, 0.0, -0.0, 1.0];
        let (a4, b4) = (F4::from_fn(|i| a[i]), F4::from_fn(|i| b[i]));
        let (x4, y4) = (F4::from_fn(|i| i as f32), F4::from_fn(|i| -(i as f32)));
        for i in 0..4 {
            let max1 = F1(a[i]).max(F1(b[i])).0;
            assert_eq!(a4.max(b4).to_array()[i].to_bits(), max1.to_bits());
            let sel1 = F1::select_gt(F1(a[i]), F1(b[i]), F1(i as f32), F1(-(i as f32))).0;
            let sel4 = F4::select_gt(a4, b4, x4, y4).to_array()[i];
            assert_eq!(sel4.to_bits(), sel1.to_bits());
        }
        let rows: [[f32; 4]; MAX_WIDTH] =
            core::array::from_fn(|i| core::array::from_fn(|k| (10 * i + k) as f32));
        let cols = F4::transpose(rows);
        assert_eq!(
            cols[1].to_array(),
            [1.0, 11.0, 21.0, 31.0, 0.0, 0.0, 0.0, 0.0]
        );
        assert_eq!(F4::untranspose(cols)[..4], rows[..4]);
        let cols = F4x2::transpose(rows);
        assert_eq!(
            cols[2].to_array(),
            [2.0, 12.0, 22.0, 32.0, 42.0, 52.0, 62.0, 72.0]
        );
        assert_eq!(F4x2::untranspose(cols), rows);
        let x = F4x2::from_fn(|i| i as f32 - 3.5);
        let y = F4x2::from_fn(|i| 1.0 / (i as f32 + 1.0));
        let z = F4x2::select_gt(x, y, x.div(y), x.sqrt()).to_array();
        for (i, z) in z.iter().enumerate() {
            let (x, y) = (F1(i as f32 - 3.5), F1(1.0 / (i as f32 + 1.0)));
            assert_eq!(
                z.to_bits(),
                F1::select_gt(x, y, x.div(y), x.sqrt()).0.to_bits()
            );
        }
    }

    /// Every eight-lane type against `F1`, lane by lane, on values that tell IEEE
    /// operations apart from shortcuts: ±0, NaN, infinities, subnormals, rounding ties.
    fn eight_lanes_match_one_lane<L: Lanes>() {
        let a = [1.0, -0.0, 0.0, f32::NAN, f32::INFINITY, 1e-40, 3.0, -7.5];
        let b = [2.0, 0.0, -0.0, 1.0, -1.0, -1e-40, f32::NAN, 0.1];
        let (al, bl) = (L::from_fn(|i| a[i]), L::from_fn(|i| b[i]));
        type Op<T> = fn(T, T) -> T;
        let ops: [(Op<F1>, Op<L>); 6] = [
            (|x, y| x + y, |x, y| x + y),
            (|x, y| x - y, |x, y| x - y),
            (|x, y| x * y, |x, y| x * y),
            (|x, y| x.div(y), |x, y| x.div(y)),
            (|x, y| x.max(y), |x, y| x.max(y)),
            (
                |x, y| F1::select_gt(x, y, x.sqrt(), y),
                |x, y| L::select_gt(x, y, x.sqrt(), y),
            ),
        ];
        for (k, (one, many)) in ops.iter().enumerate() {
            let got = many(al, bl).to_array();
            for i in 0..8 {
                let want = one(F1(a[i]), F1(b[i])).0;
                assert_eq!(got[i].to_bits(), want.to_bits(), "op {k} lane {i}");
            }
        }
        let rows: [[f32; 4]; MAX_WIDTH] =
            core::array::from_fn(|i| core::array::from_fn(|k| (10 * i + k) as f32));
        let cols = L::transpose(rows);
        assert_eq!(
            cols[3].to_array(),
            [3.0, 13.0, 23.0, 33.0, 43.0, 53.0, 63.0, 73.0]
        );
        assert_eq!(L::untranspose(cols), rows);
        assert_eq!(
            L::splat(-0.0).to_array().map(f32::to_bits),
            [(-0.0f32).to_bits(); 8]
        );
        assert_eq!(L::default().to_array(), [0.0; 8]);
    }

    #[test]
    fn every_eight_lane_type_computes_what_one_lane_computes() {
        eight_lanes_match_one_lane::<F4x2>();
        eight_lanes_match_one_lane::<P4x2>();
        #[cfg(any(
            target_arch = "x86_64",
            all(target_arch = "x86", target_feature = "sse2")
        ))]
        if SolverLanes::eight_available() {
            eight_lanes_match_one_lane::<F8>();
        }
    }
}
