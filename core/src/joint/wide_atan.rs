//! The arc tangents of the joint lanes, computed in lanes: each lane gets exactly the
//! bits of `math::atan2` (the pure-Rust `libm`'s `atan2f`, FreeBSD's algorithm) for its
//! pair, so a group of eight costs a handful of lane operations and one division instead
//! of eight calls with their branches.
//!
//! `atan2f` reduces the argument by comparing bit patterns and then runs a fixed
//! polynomial. For finite, non-negative floats the bit patterns order as the values do,
//! so every comparison becomes a lane comparison, every branch a compare-and-select, and
//! each branch's arithmetic is the same operations in the same order (one division
//! serves all four reductions: each divides a numerator by a denominator computed as
//! there). The lanes compute only the ordinary inputs: both finite, `x` normal, `y` zero
//! only when `x` is positive, else normal. A lane with anything else — zero, a
//! subnormal, an infinity, a NaN, a zero `y` left of the origin, whose answers hang on
//! bits the lanes do not read — is handed to `math::atan2` itself.

use super::rows::twist_of;
use super::wide::{choose, finite, sel};
use crate::math::atan2;
use crate::solver::lanes::Lanes;

/// `atanf`'s reduction points and polynomial (`libm`'s `atanf.rs`), by their bits.
const ATAN_HI: [u32; 4] = [0x3eed_6338, 0x3f49_0fda, 0x3f7b_985e, 0x3fc9_0fda];
const ATAN_LO: [u32; 4] = [0x31ac_3769, 0x3322_2168, 0x3314_0fb4, 0x33a2_2168];
const A_T: [u32; 5] = [
    0x3eaa_aaa9,
    0xbe4c_ca98,
    0x3e11_f50d,
    0xbdda_1247,
    0x3d7c_ac25,
];
/// `atan2f`'s π split in two (`PI` is `f32::consts::PI`, 0x40490fdb).
const PI: f32 = core::f32::consts::PI;
const PI_LO: u32 = 0xb3bb_bd2e;

/// One of `v` by the interval `t` lies in: below `cut[0]`, `cut[1]`, `cut[2]`, or above.
/// (A function, not a closure: inlined into the caller, it takes the caller's target
/// features.)
#[inline(always)]
fn by_interval<L: Lanes>(t: L, cut: [L; 3], v: [L; 4]) -> L {
    sel(
        cut[0],
        t,
        v[0],
        sel(cut[1], t, v[1], sel(cut[2], t, v[2], v[3])),
    )
}

/// `atanf(t)` for `t` finite and not negative (any NaN-free, non-negative lanes).
#[inline(always)]
fn atan_nonneg<L: Lanes>(t: L) -> L {
    let c = L::splat;
    let b = |bits: u32| L::splat(f32::from_bits(bits));
    let one = c(1.0);
    // `|x| >= 2**26`: the constant `ATAN_HI[3] + 0x1p-120`, rounded as there.
    let huge = c(f32::from_bits(ATAN_HI[3]) + f32::from_bits(0x0380_0000));
    // The four reductions (7/16 ≤ t < 11/16, < 19/16, < 39/16, beyond), as
    // numerator and denominator.
    let (lt0, lt1, lt2) = (
        c(f32::from_bits(0x3f30_0000)),
        c(f32::from_bits(0x3f98_0000)),
        c(f32::from_bits(0x401c_0000)),
    );
    let cut = [lt0, lt1, lt2];
    let num = by_interval(t, cut, [c(2.0) * t - one, t - one, t - c(1.5), c(-1.0)]);
    let den = by_interval(t, cut, [c(2.0) + t, t + one, one + c(1.5) * t, t]);
    let hi = by_interval(
        t,
        cut,
        [b(ATAN_HI[0]), b(ATAN_HI[1]), b(ATAN_HI[2]), b(ATAN_HI[3])],
    );
    let lo = by_interval(
        t,
        cut,
        [b(ATAN_LO[0]), b(ATAN_LO[1]), b(ATAN_LO[2]), b(ATAN_LO[3])],
    );
    // Below 7/16 the polynomial runs on `t` itself.
    let near = c(f32::from_bits(0x3ee0_0000));
    let x = sel(near, t, t, num.div(den));
    let z = x * x;
    let w = z * z;
    let s1 = z * (b(A_T[0]) + w * (b(A_T[2]) + w * b(A_T[4])));
    let s2 = w * (b(A_T[1]) + w * b(A_T[3]));
    let small = x - x * (s1 + s2);
    let reduced = hi - ((x * (s1 + s2) - lo) - x);
    let tiny = c(f32::from_bits(0x3980_0000));
    let below = sel(tiny, t, t, small);
    let r = sel(near, t, below, reduced);
    sel(c(f32::from_bits(0x4c80_0000)), t, r, huge)
}

/// `math::atan2(y, x)` in the lanes it computes (see the module notes), and one in
/// those lanes, zero in the others (whose result is not the function's).
#[inline(always)]
fn atan2_computed<L: Lanes>(y: L, x: L) -> (L, L) {
    let c = L::splat;
    let (zero, one) = (L::default(), c(1.0));
    let neg = |v: L| c(-1.0) * v;
    let ax = sel(zero, x, neg(x), x);
    let ay = sel(zero, y, neg(y), y);
    // The lanes computed: both finite, `x` normal, `y` normal or zero with `x` positive.
    let normal = c(f32::MIN_POSITIVE);
    let y_zero = sel(ay, zero, zero, one);
    let x_ok = choose(finite(x), sel(normal, ax, zero, one), zero);
    let y_ok = choose(
        finite(y),
        choose(y_zero, sel(x, zero, one, zero), sel(normal, ay, zero, one)),
        zero,
    );
    let ok = choose(x_ok, y_ok, zero);
    // `x == 1`: `atanf(y)`, without the steep-ratio shortcut.
    let x_one = sel(x, one, zero, sel(one, x, zero, one));
    // `|y/x| > 2^26` (`ix + (26 << 23) < iy`: for normal `x` the sum is `|x|·2^26`'s
    // bits, or past every finite float's when that overflows, as the product does).
    let scale = c(f32::from_bits(0x4c80_0000));
    let steep = choose(x_one, zero, sel(ay, ax * scale, one, zero));
    let x_neg = sel(zero, x, one, zero);
    // `|y/x| < 2^-26` left of the origin: `z` is zero there.
    let flat_left = choose(x_neg, sel(ax, ay * scale, one, zero), zero);
    // `fabsf(y / x)` is `|y| / |x|`: division rounds the magnitude alike for any signs.
    let z = choose(flat_left, zero, atan_nonneg(ay.div(ax)));
    let y_neg = sel(zero, y, one, zero);
    let pi_lo = c(f32::from_bits(PI_LO));
    let right = choose(y_neg, neg(z), z);
    let left = choose(y_neg, (z - pi_lo) - c(PI), c(PI) - (z - pi_lo));
    let half = choose(y_neg, c(-PI / 2.0), c(PI / 2.0));
    let r = choose(y_zero, y, choose(steep, half, choose(x_neg, left, right)));
    (r, ok)
}

/// `math::atan2(y, x)` in every lane, bit for bit.
#[inline(always)]
pub(super) fn atan2_lanes<L: Lanes>(y: L, x: L) -> L {
    let (r, ok) = atan2_computed(y, x);
    let ok = ok.to_array();
    if ok[..L::WIDTH].iter().all(|&k| k != 0.0) {
        return r;
    }
    let (r, y, x) = (r.to_array(), y.to_array(), x.to_array());
    L::from_fn(|i| {
        if ok[i] != 0.0 {
            r[i]
        } else {
            atan2(y[i], x[i])
        }
    })
}

/// `rows::twist_of(c, w)` in every lane, bit for bit: twice the angle of `(w, c)`, the
/// quaternion's sign first made to give `w ≥ 0`.
#[inline(always)]
pub(super) fn twist_lanes<L: Lanes>(c: L, w: L) -> L {
    let (zero, minus) = (L::default(), L::splat(-1.0));
    let flip = sel(zero, w, L::splat(1.0), zero);
    let (cc, ww) = (choose(flip, minus * c, c), choose(flip, minus * w, w));
    // Negating by −1 is exact for numbers; a NaN lane's sign is not, so NaN lanes (and
    // any the lanes do not compute) go to the scalar function with the inputs as given.
    let r = L::splat(2.0) * atan2_lanes(cc, ww);
    let (cf, wf) = (finite(c).to_array(), finite(w).to_array());
    if (0..L::WIDTH).all(|i| cf[i] != 0.0 && wf[i] != 0.0) {
        return r;
    }
    let (r, c, w) = (r.to_array(), c.to_array(), w.to_array());
    L::from_fn(|i| {
        if cf[i] != 0.0 && wf[i] != 0.0 {
            r[i]
        } else {
            twist_of(c[i], w[i])
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::lanes::{F1, F4, F4x2, MAX_WIDTH, P4x2, SolverLanes};

    /// Inputs that reach every branch of `atan2f` and `atanf`: the reduction points and
    /// their neighbours, zeros of both signs, subnormals, infinities, NaN, 1, and ratios
    /// past 2^26 either way; then random numbers over many magnitudes.
    fn inputs() -> Vec<f32> {
        let mut v = vec![
            0.0,
            -0.0,
            1.0,
            -1.0,
            f32::MIN_POSITIVE,
            -f32::MIN_POSITIVE,
            1e-40,
            -1e-40,
            f32::MAX,
            -f32::MAX,
            f32::INFINITY,
            f32::NEG_INFINITY,
            f32::NAN,
            1.5,
            2.0,
            0.5,
            3.0e-8,
            6.0e7,
        ];
        for bits in [
            0x3ee0_0000u32,
            0x3980_0000,
            0x3f30_0000,
            0x3f98_0000,
            0x401c_0000,
            0x4c80_0000,
            0x3f80_0000,
        ] {
            for d in [-2i32, -1, 0, 1, 2] {
                let b = (bits as i32 + d) as u32;
                v.push(f32::from_bits(b));
                v.push(-f32::from_bits(b));
            }
        }
        let mut s = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..4000 {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            let mantissa = (s >> 40) as f32 / (1u64 << 24) as f32;
            let exp = ((s >> 8) % 64) as i32 - 32;
            let sign = if s & 1 == 0 { 1.0 } else { -1.0 };
            v.push(sign * mantissa * f32::from_bits(((exp + 127) as u32) << 23));
        }
        v
    }

    fn check<L: Lanes>() {
        let v = inputs();
        let (mut k, mut computed) = (0usize, 0usize);
        // Pairs in runs of the lane width: every input against a stride of the others.
        for stride in [1usize, 7, 31, 257] {
            for start in (0..v.len()).step_by(L::WIDTH) {
                let ys: [f32; MAX_WIDTH] = core::array::from_fn(|i| v[(start + i) % v.len()]);
                let xs: [f32; MAX_WIDTH] =
                    core::array::from_fn(|i| v[(start + i + stride * (k % 5 + 1)) % v.len()]);
                k += 1;
                let got = atan2_lanes(L::from_fn(|i| ys[i]), L::from_fn(|i| xs[i])).to_array();
                let tw = twist_lanes(L::from_fn(|i| ys[i]), L::from_fn(|i| xs[i])).to_array();
                let (_, ok) = atan2_computed(L::from_fn(|i| ys[i]), L::from_fn(|i| xs[i]));
                computed += ok.to_array()[..L::WIDTH]
                    .iter()
                    .filter(|&&o| o != 0.0)
                    .count();
                for i in 0..L::WIDTH {
                    let want = atan2(ys[i], xs[i]);
                    assert_eq!(
                        got[i].to_bits(),
                        want.to_bits(),
                        "atan2({:e}, {:e}): {:e} vs {:e}",
                        ys[i],
                        xs[i],
                        got[i],
                        want
                    );
                    let want = twist_of(ys[i], xs[i]);
                    assert_eq!(
                        tw[i].to_bits(),
                        want.to_bits(),
                        "twist_of({:e}, {:e})",
                        ys[i],
                        xs[i]
                    );
                }
            }
        }
        // Most pairs are ordinary: the lanes, not the scalar fallback, were checked.
        assert!(
            computed * 10 > k * L::WIDTH * 9,
            "{computed} of {}",
            k * L::WIDTH
        );
    }

    #[test]
    fn the_lane_arc_tangents_give_libm_bits_in_every_lane_type() {
        check::<F1>();
        check::<F4>();
        check::<F4x2>();
        check::<P4x2>();
        #[cfg(any(
            target_arch = "x86_64",
            all(target_arch = "x86", target_feature = "sse2")
        ))]
        if SolverLanes::eight_available() {
            check::<crate::solver::lanes::F8>();
        }
    }

    #[test]
    fn ordinary_lanes_are_computed_in_lanes_not_handed_back() {
        // Every reduction interval and quadrant, and a zero `y` right of the origin: all
        // computed in lanes (the mask), with libm's bits.
        let ys = [0.3f32, -2.0, 5.0e-5, -0.9, 70.0, 1.0e-3, -1.2, 0.0];
        let xs = [1.0f32, 0.7, -3.0, -0.45, 2.0e-6, -1.0e5, 1.0, 2.5];
        let (got, ok) = atan2_computed(F4x2::from_fn(|i| ys[i]), F4x2::from_fn(|i| xs[i]));
        let (got, ok) = (got.to_array(), ok.to_array());
        for i in 0..8 {
            assert_eq!(ok[i], 1.0, "lane {i} handed back");
            assert_eq!(got[i].to_bits(), atan2(ys[i], xs[i]).to_bits(), "lane {i}");
        }
        // And the rest are handed back: zero or subnormal `x`, infinities, NaN, a zero
        // `y` left of the origin.
        let ys = [1.0f32, 1.0, f32::INFINITY, 1.0, f32::NAN, 0.0, -0.0, 1e-40];
        let xs = [0.0f32, 1e-40, 1.0, f32::NEG_INFINITY, 1.0, -1.0, -2.0, 1.0];
        let (_, ok) = atan2_computed(F4x2::from_fn(|i| ys[i]), F4x2::from_fn(|i| xs[i]));
        assert_eq!(ok.to_array(), [0.0; 8]);
    }
}
