//! The three-row blocks several kinds share: the point constraint (the anchors coincide,
//! Box3D's spherical rows with the effective mass of the anchors now), the angular lock
//! (the frames keep their relative rotation) and the hinge lock (B's z axis along A's),
//! and the guarded inverses of their effective masses; and the slide (three linear rows:
//! one driven axis, two locked across it) of the prismatic and wheel joints.

use super::JointImpulses;
use super::rows::{
    Row, anchors, apply_angular, apply_point, axis_total, frames, rotation_error, separation,
    solve_pair,
};
use super::solver::{JointConstraint, Pass};
use crate::limits::{MAX_IMPULSE, clamp_abs};
use crate::math::{Mat3, Quat, Vec3, max};
use crate::solver::BodyState;
use crate::solver::contact_solver::Softness;

/// The inverse of a symmetric positive semi-definite 3×3 matrix whose zero-diagonal axes
/// (locked in both bodies: their rows and columns are zero) are left out: those axes get
/// no impulse. A singular remainder gives zero.
pub(super) fn inverse_masked(k: &Mat3) -> Mat3 {
    let free = [k.cx.x > 0.0, k.cy.y > 0.0, k.cz.z > 0.0];
    if free == [true; 3] {
        return inverse_scaled(k);
    }
    let one = |f: bool| if f { 1.0 } else { 0.0 };
    let mask = Vec3::new(one(free[0]), one(free[1]), one(free[2]));
    // The locked axes' rows and columns become the identity's, the rest stays.
    let pick = |f: bool, c: Vec3, e: Vec3| if f { c.mul_elements(mask) } else { e };
    let m = Mat3::from_cols(
        pick(free[0], k.cx, Vec3::X),
        pick(free[1], k.cy, Vec3::Y),
        pick(free[2], k.cz, Vec3::Z),
    );
    let inv = inverse_scaled(&m);
    Mat3::from_cols(
        inv.cx.mul_elements(mask) * mask.x,
        inv.cy.mul_elements(mask) * mask.y,
        inv.cz.mul_elements(mask) * mask.z,
    )
}

/// The inverse of `k`, computed on `k` scaled by its largest entry so the determinant
/// neither overflows nor becomes subnormal for very heavy or light bodies; zero when that
/// is singular or the result is not finite.
fn inverse_scaled(k: &Mat3) -> Mat3 {
    let s = max(
        k.cx.abs().max_element(),
        max(k.cy.abs().max_element(), k.cz.abs().max_element()),
    );
    if !(s >= f32::MIN_POSITIVE && s.is_finite()) {
        return Mat3::ZERO;
    }
    let inv_s = 1.0 / s;
    let inv = k.scale(inv_s).inverse().scale(inv_s);
    if inv.is_valid() { inv } else { Mat3::ZERO }
}

/// `(I_a⁻¹ + I_b⁻¹)⁻¹` for the three-row angular blocks.
pub(super) fn angular_mass(c: &JointConstraint) -> Mat3 {
    inverse_masked(&(c.ia + c.ib))
}

/// The point constraint: the anchors coincide (three rows solved as one block).
#[inline(always)]
pub(super) fn solve_point(
    c: &JointConstraint,
    a: &mut BodyState,
    b: &mut BodyState,
    soft: &Softness,
    apply_bias: bool,
    impulse: &mut Vec3,
) {
    let (ra, rb) = anchors(c, a, b);
    let cdot = b.v + b.w.cross(rb) - a.v - a.w.cross(ra);
    let (bias, ms, is) = if apply_bias {
        let sep = separation(c, a, b, ra, rb);
        (sep * soft.bias_rate, soft.mass_scale, soft.impulse_scale)
    } else {
        (Vec3::ZERO, 1.0, 0.0)
    };
    let x = point_solve(c, ra, rb, cdot + bias);
    let old = *impulse;
    *impulse = clamp_abs(old - x * ms - old * is, MAX_IMPULSE);
    apply_point(c, a, b, ra, rb, *impulse - old);
}

/// The point constraint of a spherical or revolute joint: with the world's softness
/// (rigid in the relax pass), or with the joint's own pivot softness in both passes.
#[inline(always)]
pub(super) fn solve_pivot(
    c: &JointConstraint,
    a: &mut BodyState,
    b: &mut BodyState,
    p: &Pass,
    impulse: &mut Vec3,
) {
    solve_point(c, a, b, &c.pivot, p.use_bias || c.own_pivot, impulse);
}

/// Warm-starts the point constraint.
#[inline(always)]
pub(super) fn warm_point(c: &JointConstraint, a: &mut BodyState, b: &mut BodyState, l: Vec3) {
    let (ra, rb) = anchors(c, a, b);
    apply_point(c, a, b, ra, rb, l);
}

/// `K⁻¹ rhs` for the point constraint at the anchors `ra`, `rb` now, with
/// `K = M_a⁻¹ + M_b⁻¹ + [r_a]ᵀ I_a⁻¹ [r_a] + [r_b]ᵀ I_b⁻¹ [r_b]`, as Box2D's revolute
/// and Box3D's spherical joints compute it in every pass. A `K` kept from the start of
/// the step does not do: a light body turns far within a step, and the inverse for its
/// old anchor then overshoots along the new one up to 3.5 times (a sphere's anchor on its
/// surface), an over-relaxation past 2 that diverges: a 200-link chain of spheres gained
/// energy without bound even with equal masses.
///
/// Solved by cofactors of `K` scaled by its largest diagonal entry (the largest entry of
/// a positive semi-definite matrix), so the determinant neither overflows nor becomes
/// subnormal; an axis locked in both bodies (zero diagonal) goes through
/// `inverse_masked`, a singular or overflowing `K` gives zero.
#[inline(always)]
fn point_solve(c: &JointConstraint, ra: Vec3, rb: Vec3, rhs: Vec3) -> Vec3 {
    let m = c.ma + c.mb;
    let (sa, sb) = (lever_mass(&c.ia, ra), lever_mass(&c.ib, rb));
    let k = [
        m.x + sa[0] + sb[0],
        sa[1] + sb[1],
        sa[2] + sb[2],
        m.y + sa[3] + sb[3],
        sa[4] + sb[4],
        m.z + sa[5] + sb[5],
    ];
    if !(k[0] > 0.0 && k[3] > 0.0 && k[5] > 0.0) {
        let full = Mat3::from_cols(
            Vec3::new(k[0], k[1], k[2]),
            Vec3::new(k[1], k[3], k[4]),
            Vec3::new(k[2], k[4], k[5]),
        );
        return inverse_masked(&full).mul_vec(rhs);
    }
    let s = max(k[0], max(k[3], k[5]));
    if !s.is_finite() {
        return Vec3::ZERO;
    }
    let inv_s = 1.0 / s;
    let (a, b, cc, d, e, f) = (
        k[0] * inv_s,
        k[1] * inv_s,
        k[2] * inv_s,
        k[3] * inv_s,
        k[4] * inv_s,
        k[5] * inv_s,
    );
    // Cofactors of the symmetric [[a b c] [b d e] [c e f]].
    let c11 = d * f - e * e;
    let c12 = cc * e - b * f;
    let c13 = b * e - cc * d;
    let c22 = a * f - cc * cc;
    let c23 = b * cc - a * e;
    let c33 = a * d - b * b;
    let det = a * c11 + b * c12 + cc * c13;
    if det.is_nan() || det <= 0.0 {
        return Vec3::ZERO;
    }
    let inv = inv_s / det;
    let x = Vec3::new(
        (c11 * rhs.x + c12 * rhs.y + c13 * rhs.z) * inv,
        (c12 * rhs.x + c22 * rhs.y + c23 * rhs.z) * inv,
        (c13 * rhs.x + c23 * rhs.y + c33 * rhs.z) * inv,
    );
    if x.is_valid() { x } else { Vec3::ZERO }
}

/// `[r]ᵀ A [r]` for a symmetric `A` (a world inverse inertia), its upper triangle
/// `[xx, xy, xz, yy, yz, zz]`: entry `ij` is `(r × e_i)ᵀ A (r × e_j)`.
#[inline(always)]
fn lever_mass(a: &Mat3, r: Vec3) -> [f32; 6] {
    // r × e_x = (0, z, −y), r × e_y = (−z, 0, x), r × e_z = (y, −x, 0).
    let ax = a.cy * r.z - a.cz * r.y;
    let ay = a.cz * r.x - a.cx * r.z;
    let az = a.cx * r.y - a.cy * r.x;
    [
        r.z * ax.y - r.y * ax.z,
        r.z * ay.y - r.y * ay.z,
        r.z * az.y - r.y * az.z,
        r.x * ay.z - r.z * ay.x,
        r.x * az.z - r.z * az.x,
        r.y * az.x - r.x * az.y,
    ]
}

/// The three-row angular lock: the frames keep their relative rotation at identity.
#[allow(clippy::too_many_arguments)]
pub(super) fn solve_angular_lock(
    c: &JointConstraint,
    a: &mut BodyState,
    b: &mut BodyState,
    qa: Quat,
    qb: Quat,
    soft: &Softness,
    apply_bias: bool,
    impulse: &mut Vec3,
) {
    let cdot = b.w - a.w;
    let (bias, ms, is) = if apply_bias {
        (
            rotation_error(qa, qb) * soft.bias_rate,
            soft.mass_scale,
            soft.impulse_scale,
        )
    } else {
        (Vec3::ZERO, 1.0, 0.0)
    };
    let x = c.angular_mass.mul_vec(cdot + bias);
    let old = *impulse;
    *impulse = clamp_abs(old - x * ms - old * is, MAX_IMPULSE);
    apply_angular(c, a, b, *impulse - old);
}

/// The two rows of a hinge about the frames' z axis: B's z axis stays along A's. The
/// impulses are the x and y of `impulse`, about A's x and y axes.
#[inline(always)]
pub(super) fn solve_hinge_lock(
    c: &JointConstraint,
    a: &mut BodyState,
    b: &mut BodyState,
    qa: Quat,
    qb: Quat,
    p: &Pass,
    impulse: &mut Vec3,
) {
    let (u1, u2) = (qa.rotate(Vec3::X), qa.rotate(Vec3::Y));
    let e = qa.rotate(Vec3::Z).cross(qb.rotate(Vec3::Z));
    let pos = (e.dot(u1), e.dot(u2));
    let (r1, r2) = (Row::angular(u1), Row::angular(u2));
    solve_pair(c, a, b, &r1, &r2, pos, p, (&mut impulse.x, &mut impulse.y));
}

/// A slide (prismatic, wheel): three linear rows along frame A's axes, the first the
/// driven axis, the other two locked across it (impulses `linear.x`, `linear.y`).
pub(super) struct Slide {
    pub rows: [Row; 3],
    /// The anchors' offset along each axis now.
    pub values: [f32; 3],
    /// The axes in world orientation.
    pub axes: [Vec3; 3],
}

impl Slide {
    /// The rows now along `local` (frame A's axes: the driven one first).
    pub(super) fn new(
        c: &JointConstraint,
        a: &BodyState,
        b: &BodyState,
        local: [Vec3; 3],
    ) -> Slide {
        let (qa, _) = frames(c, a, b);
        let (ra, rb) = anchors(c, a, b);
        let d = separation(c, a, b, ra, rb);
        let axes = local.map(|n| qa.rotate(n));
        Slide {
            rows: axes.map(|n| Row::linear(n, d + ra, rb)),
            values: axes.map(|n| n.dot(d)),
            axes,
        }
    }

    /// The driven row and its value.
    pub(super) fn driven(&self) -> (&Row, f32) {
        (&self.rows[0], self.values[0])
    }

    /// Applies the kept impulses: the total of `axes[0]` along the driven axis, `linear.x`
    /// and `linear.y` across it.
    pub(super) fn warm_start(
        &self,
        c: &JointConstraint,
        i: &JointImpulses,
        a: &mut BodyState,
        b: &mut BodyState,
    ) {
        self.rows[0].apply(c, a, b, axis_total(&i.axes[0]));
        self.rows[1].apply(c, a, b, i.linear.x);
        self.rows[2].apply(c, a, b, i.linear.y);
    }

    /// The two rows across the driven axis, held at 0 together.
    pub(super) fn solve_across(
        &self,
        c: &JointConstraint,
        i: &mut JointImpulses,
        a: &mut BodyState,
        b: &mut BodyState,
        p: &Pass,
    ) {
        let pos = (self.values[1], self.values[2]);
        let (lx, ly) = (&mut i.linear.x, &mut i.linear.y);
        solve_pair(c, a, b, &self.rows[1], &self.rows[2], pos, p, (lx, ly));
    }

    /// The force of the three rows' impulses.
    pub(super) fn force(&self, i: &JointImpulses) -> Vec3 {
        let axes = &self.axes;
        axes[0] * axis_total(&i.axes[0]) + axes[1] * i.linear.x + axes[2] * i.linear.y
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `point_solve` against `K` built from skew matrices and inverted whole.
    #[test]
    fn the_point_solve_matches_the_inverse_of_k_built_from_skew_matrices() {
        let inertia = |a: f32, b: f32, c: f32, q: Quat| {
            Mat3::diagonal(Vec3::new(1.0 / a, 1.0 / b, 1.0 / c)).rotate_tensor(q)
        };
        let cases = [
            (
                Vec3::splat(0.5),
                Vec3::splat(0.002),
                Vec3::new(0.1, 0.0, 0.0),
                Vec3::new(-0.1, 0.0, 0.0),
            ),
            (
                Vec3::new(1.0, 0.0, 1.0),
                Vec3::splat(0.01),
                Vec3::new(0.3, -0.7, 0.2),
                Vec3::new(-0.4, 0.1, 0.9),
            ),
            (
                Vec3::splat(1e-3),
                Vec3::splat(1.0),
                Vec3::new(2.0, 1.0, -3.0),
                Vec3::new(0.0, 0.5, 0.25),
            ),
        ];
        for (k, &(ma, mb, ra, rb)) in cases.iter().enumerate() {
            let q = Quat::from_axis_angle(Vec3::new(1.0, 2.0, 3.0).normalize(), 0.7 * k as f32);
            let c = JointConstraint {
                ma,
                mb,
                ia: inertia(0.2, 0.5, 0.9, q),
                ib: inertia(3.0, 1.0, 2.0, q.conjugate()),
                ..Default::default()
            };
            let (sa, sb) = (Mat3::skew(ra), Mat3::skew(rb));
            let kk = Mat3::diagonal(c.ma + c.mb)
                + sa.transpose().mul_mat(&c.ia.mul_mat(&sa))
                + sb.transpose().mul_mat(&c.ib.mul_mat(&sb));
            let rhs = Vec3::new(0.3, -1.2, 2.5);
            let want = kk.inverse().mul_vec(rhs);
            let got = point_solve(&c, ra, rb, rhs);
            let err = (got - want).length() / want.length();
            assert!(err < 1e-4, "case {k}: {got:?} vs {want:?}");
        }
    }
}
