//! The rows every joint kind is built from: a scalar row (spring, motor, limits, lock),
//! two rows solved together, the softness terms, and the measures of the joint frames
//! now (anchors, separation, axes, twist).
//!
//! Every accumulated impulse a row keeps stays within `MAX_IMPULSE` and every velocity it
//! writes within `MAX_VELOCITY` (see `solver.rs`).

use super::AxisImpulse;
use super::solver::{JointConstraint, Pass};
use crate::limits::{MAX_IMPULSE, MAX_VELOCITY, clamp_abs};
use crate::math::{Quat, Vec3, atan2, clamp, max, min};
use crate::solver::BodyState;
use crate::solver::contact_solver::Softness;

/// An accumulated impulse held within `±MAX_IMPULSE`.
#[inline(always)]
fn bound(x: f32) -> f32 {
    clamp(x, -MAX_IMPULSE, MAX_IMPULSE)
}

/// A body's velocities held within `±MAX_VELOCITY` after an impulse.
#[inline(always)]
fn bound_velocity(st: &mut BodyState) {
    st.v = clamp_abs(st.v, MAX_VELOCITY);
    st.w = clamp_abs(st.w, MAX_VELOCITY);
}

/// Box2D's soft coefficients for a spring (see `crate::solver::make_soft`).
pub(super) fn spring_soft(hertz: f32, zeta: f32, h: f32) -> Softness {
    crate::solver::make_soft(hertz, zeta, h)
}

/// `(bias, mass scale, impulse scale)` of a rigid row with position error `pos`.
#[inline]
fn rigid_terms(soft: &Softness, pos: f32, use_bias: bool) -> (f32, f32, f32) {
    if use_bias {
        (soft.bias_rate * pos, soft.mass_scale, soft.impulse_scale)
    } else {
        (0.0, 1.0, 0.0)
    }
}

/// `(bias, mass scale, impulse scale)` of a one-sided limit with gap `pos` (≥ 0 while the
/// limit is not reached: then speculative, allowing only the motion that closes the gap).
#[inline]
fn limit_terms(soft: &Softness, pos: f32, p: &Pass) -> (f32, f32, f32) {
    if pos > 0.0 {
        (pos * p.inv_h, 1.0, 0.0)
    } else {
        rigid_terms(soft, pos, p.use_bias)
    }
}

/// One scalar row: the relative velocity it measures is
/// `lin·(v_b − v_a) + ang_b·w_b − ang_a·w_a`.
#[derive(Clone, Copy, Debug)]
pub(super) struct Row {
    lin: Vec3,
    ang_a: Vec3,
    ang_b: Vec3,
}

impl Row {
    /// A row about an angular axis.
    #[inline]
    pub(super) fn angular(axis: Vec3) -> Row {
        Row {
            lin: Vec3::ZERO,
            ang_a: axis,
            ang_b: axis,
        }
    }

    /// A row along a linear axis with lever arms from each centre of mass: for an axis
    /// fixed in A measuring `axis·d`, A's lever is `d + r_a` (Box2D's prismatic).
    #[inline]
    pub(super) fn linear(axis: Vec3, lever_a: Vec3, lever_b: Vec3) -> Row {
        Row {
            lin: axis,
            ang_a: lever_a.cross(axis),
            ang_b: lever_b.cross(axis),
        }
    }

    #[inline]
    fn speed(&self, a: &BodyState, b: &BodyState) -> f32 {
        self.lin.dot(b.v - a.v) + self.ang_b.dot(b.w) - self.ang_a.dot(a.w)
    }

    /// `J M⁻¹ Kᵀ` between this row and `o`.
    #[inline]
    fn k(&self, c: &JointConstraint, o: &Row) -> f32 {
        self.lin.dot((c.ma + c.mb).mul_elements(o.lin))
            + self.ang_a.dot(c.ia.mul_vec(o.ang_a))
            + self.ang_b.dot(c.ib.mul_vec(o.ang_b))
    }

    #[inline]
    fn mass(&self, c: &JointConstraint) -> f32 {
        let k = self.k(c, self);
        // A normal k keeps 1 / k finite.
        if k >= f32::MIN_POSITIVE && k.is_finite() {
            1.0 / k
        } else {
            0.0
        }
    }

    /// Applies impulse `l` along the row: B gets `+l`, A `−l`.
    #[inline(always)]
    pub(super) fn apply(&self, c: &JointConstraint, a: &mut BodyState, b: &mut BodyState, l: f32) {
        let p = self.lin * l;
        a.v -= c.ma.mul_elements(p);
        a.w -= c.ia.mul_vec(self.ang_a * l);
        b.v += c.mb.mul_elements(p);
        b.w += c.ib.mul_vec(self.ang_b * l);
        bound_velocity(a);
        bound_velocity(b);
    }

    /// A spring towards `pos` = 0, soft in both passes.
    pub(super) fn spring(
        &self,
        c: &JointConstraint,
        a: &mut BodyState,
        b: &mut BodyState,
        pos: f32,
        soft: &Softness,
        impulse: &mut f32,
    ) {
        let cdot = self.speed(a, b);
        let bias = soft.bias_rate * pos;
        let l = -soft.mass_scale * self.mass(c) * (cdot + bias) - soft.impulse_scale * *impulse;
        let old = *impulse;
        *impulse = bound(old + l);
        self.apply(c, a, b, *impulse - old);
    }

    /// A spring of stiffness `k` and damping `damp` (force units: N/m and N·s/m, or
    /// N·m/rad and N·m·s/rad) towards `pos` = 0, soft in both passes: Catto's soft
    /// constraint in `k` and `c` directly, `g = h (c + h k)`, bias rate `k / (c + h k)`,
    /// `λ = −(g (ċ + bias) + λ_acc) / (1 + g K)` with `K` the row's inverse mass — the
    /// same force on any mass (Jolt's `StiffnessAndDamping` spring).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn force_spring(
        &self,
        c: &JointConstraint,
        a: &mut BodyState,
        b: &mut BodyState,
        pos: f32,
        k: f32,
        damp: f32,
        h: f32,
        impulse: &mut f32,
    ) {
        let d = damp + h * k;
        let g = h * d;
        if !(g > 0.0 && g.is_finite()) {
            return;
        }
        let cdot = self.speed(a, b);
        let bias = k / d * pos;
        let l = -(g * (cdot + bias) + *impulse) / (1.0 + g * self.k(c, self));
        let old = *impulse;
        *impulse = bound(old + l);
        self.apply(c, a, b, *impulse - old);
    }

    /// A velocity motor towards `target`, its accumulated impulse within `±max_impulse`.
    pub(super) fn motor(
        &self,
        c: &JointConstraint,
        a: &mut BodyState,
        b: &mut BodyState,
        target: f32,
        max_impulse: f32,
        impulse: &mut f32,
    ) {
        let cdot = self.speed(a, b) - target;
        let l = -self.mass(c) * cdot;
        let old = *impulse;
        let max = min(max_impulse, MAX_IMPULSE);
        *impulse = clamp(old + l, -max, max);
        self.apply(c, a, b, *impulse - old);
    }

    /// Keeps the row's value at or above its lower limit; `pos` = value − lower.
    #[inline(always)]
    pub(super) fn lower(
        &self,
        c: &JointConstraint,
        a: &mut BodyState,
        b: &mut BodyState,
        pos: f32,
        p: &Pass,
        impulse: &mut f32,
    ) {
        let (bias, ms, is) = limit_terms(&c.soft, pos, p);
        let cdot = self.speed(a, b);
        let l = -self.mass(c) * ms * (cdot + bias) - is * *impulse;
        let new = clamp(*impulse + l, 0.0, MAX_IMPULSE);
        let l = new - *impulse;
        *impulse = new;
        self.apply(c, a, b, l);
    }

    /// Keeps the row's value at or below its upper limit; `pos` = upper − value. The
    /// accumulated impulse is ≥ 0 and pushes the value down.
    #[inline(always)]
    pub(super) fn upper(
        &self,
        c: &JointConstraint,
        a: &mut BodyState,
        b: &mut BodyState,
        pos: f32,
        p: &Pass,
        impulse: &mut f32,
    ) {
        let (bias, ms, is) = limit_terms(&c.soft, pos, p);
        let cdot = -self.speed(a, b);
        let l = -self.mass(c) * ms * (cdot + bias) - is * *impulse;
        let new = clamp(*impulse + l, 0.0, MAX_IMPULSE);
        let l = new - *impulse;
        *impulse = new;
        self.apply(c, a, b, -l);
    }

    /// A soft lower limit: nothing while not reached (`pos` > 0: the kept impulse let go),
    /// then a one-sided spring of softness `soft` in both passes, so the limit gives and
    /// pushes back.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn soft_lower(
        &self,
        c: &JointConstraint,
        a: &mut BodyState,
        b: &mut BodyState,
        pos: f32,
        soft: &Softness,
        impulse: &mut f32,
    ) {
        // Not reached: no push (a soft limit is not speculative, the body may cross it
        // within a substep and the spring takes it from there).
        if pos > 0.0 {
            let l = -*impulse;
            *impulse = 0.0;
            self.apply(c, a, b, l);
            return;
        }
        let cdot = self.speed(a, b);
        let bias = soft.bias_rate * pos;
        let l = -self.mass(c) * soft.mass_scale * (cdot + bias) - soft.impulse_scale * *impulse;
        let new = clamp(*impulse + l, 0.0, MAX_IMPULSE);
        let l = new - *impulse;
        *impulse = new;
        self.apply(c, a, b, l);
    }

    /// A soft upper limit (see [`Row::soft_lower`]); `pos` = upper − value.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn soft_upper(
        &self,
        c: &JointConstraint,
        a: &mut BodyState,
        b: &mut BodyState,
        pos: f32,
        soft: &Softness,
        impulse: &mut f32,
    ) {
        // Not reached: no push (a soft limit is not speculative, the body may cross it
        // within a substep and the spring takes it from there).
        if pos > 0.0 {
            let l = -*impulse;
            *impulse = 0.0;
            self.apply(c, a, b, -l);
            return;
        }
        let cdot = -self.speed(a, b);
        let bias = soft.bias_rate * pos;
        let l = -self.mass(c) * soft.mass_scale * (cdot + bias) - soft.impulse_scale * *impulse;
        let new = clamp(*impulse + l, 0.0, MAX_IMPULSE);
        let l = new - *impulse;
        *impulse = new;
        self.apply(c, a, b, -l);
    }

    /// Holds the row's value at 0; `pos` is the value.
    #[inline(always)]
    pub(super) fn lock(
        &self,
        c: &JointConstraint,
        a: &mut BodyState,
        b: &mut BodyState,
        pos: f32,
        p: &Pass,
        impulse: &mut f32,
    ) {
        let (bias, ms, is) = rigid_terms(&c.soft, pos, p.use_bias);
        let cdot = self.speed(a, b);
        let l = -self.mass(c) * ms * (cdot + bias) - is * *impulse;
        let old = *impulse;
        *impulse = bound(old + l);
        self.apply(c, a, b, *impulse - old);
    }
}

/// Solves `K x = r` for a symmetric positive semi-definite 2×2 `K`; an axis no body can
/// move along (zero diagonal) gets nothing.
#[inline]
pub(super) fn solve2(k11: f32, k12: f32, k22: f32, r1: f32, r2: f32) -> (f32, f32) {
    match (k11 > 0.0, k22 > 0.0) {
        (false, false) => (0.0, 0.0),
        (true, false) => (r1 / k11, 0.0),
        (false, true) => (0.0, r2 / k22),
        (true, true) => {
            // Scaled by the largest entry so the determinant neither overflows nor
            // vanishes for very heavy or very light bodies.
            let s = max(k11, k22);
            let inv_s = 1.0 / s;
            let (a, b, d) = (k11 * inv_s, k12 * inv_s, k22 * inv_s);
            let det = a * d - b * b;
            if det > 0.0 {
                let inv = inv_s / det;
                let x = (inv * (d * r1 - b * r2), inv * (a * r2 - b * r1));
                if x.0.is_finite() && x.1.is_finite() {
                    return x;
                }
            }
            (0.0, 0.0)
        }
    }
}

/// Two rows solved together (perpendicular axes of a slider, a hinge's two locked
/// rotations); `pos` are their values, held at 0 with the joint softness.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
pub(super) fn solve_pair(
    c: &JointConstraint,
    a: &mut BodyState,
    b: &mut BodyState,
    r1: &Row,
    r2: &Row,
    pos: (f32, f32),
    p: &Pass,
    impulse: (&mut f32, &mut f32),
) {
    let (bias1, ms, is) = rigid_terms(&c.soft, pos.0, p.use_bias);
    let (bias2, _, _) = rigid_terms(&c.soft, pos.1, p.use_bias);
    let cd1 = r1.speed(a, b) + bias1;
    let cd2 = r2.speed(a, b) + bias2;
    let (x1, x2) = solve2(r1.k(c, r1), r1.k(c, r2), r2.k(c, r2), cd1, cd2);
    let (old1, old2) = (*impulse.0, *impulse.1);
    *impulse.0 = bound(old1 - ms * x1 - is * old1);
    *impulse.1 = bound(old2 - ms * x2 - is * old2);
    r1.apply(c, a, b, *impulse.0 - old1);
    r2.apply(c, a, b, *impulse.1 - old2);
}

/// The anchors relative to each centre of mass now.
#[inline(always)]
pub(super) fn anchors(c: &JointConstraint, a: &BodyState, b: &BodyState) -> (Vec3, Vec3) {
    (a.dq.rotate(c.frame_a.p), b.dq.rotate(c.frame_b.p))
}

/// B's anchor minus A's anchor now.
#[inline(always)]
pub(super) fn separation(
    c: &JointConstraint,
    a: &BodyState,
    b: &BodyState,
    ra: Vec3,
    rb: Vec3,
) -> Vec3 {
    (b.dp - a.dp) + (rb - ra) + c.delta_center
}

/// The joint frames' axes now, in world orientation.
#[inline(always)]
pub(super) fn frames(c: &JointConstraint, a: &BodyState, b: &BodyState) -> (Quat, Quat) {
    (a.dq * c.frame_a.q, b.dq * c.frame_b.q)
}

/// Applies a point impulse `l` at the anchors (B gets `+l`).
#[inline(always)]
pub(super) fn apply_point(
    c: &JointConstraint,
    a: &mut BodyState,
    b: &mut BodyState,
    ra: Vec3,
    rb: Vec3,
    l: Vec3,
) {
    a.v -= c.ma.mul_elements(l);
    a.w -= c.ia.mul_vec(ra.cross(l));
    b.v += c.mb.mul_elements(l);
    b.w += c.ib.mul_vec(rb.cross(l));
    bound_velocity(a);
    bound_velocity(b);
}

/// Applies an angular impulse `t` (B gets `+t`).
#[inline(always)]
pub(super) fn apply_angular(c: &JointConstraint, a: &mut BodyState, b: &mut BodyState, t: Vec3) {
    a.w -= c.ia.mul_vec(t);
    b.w += c.ib.mul_vec(t);
    bound_velocity(a);
    bound_velocity(b);
}

/// The rotation taking frame A to frame B as a world vector (axis × angle for small
/// angles; `2 sin(θ/2)` along the axis in general).
#[inline]
pub(super) fn rotation_error(qa: Quat, qb: Quat) -> Vec3 {
    let r = qa.conjugate() * qb;
    let v = if r.w < 0.0 { -r.v() } else { r.v() };
    qa.rotate(v * 2.0)
}

/// The angular impulse of a hinge lock (x, y of `impulse` about A's x and y axes).
#[inline]
pub(super) fn hinge_torque(qa: Quat, impulse: Vec3) -> Vec3 {
    qa.rotate(Vec3::X) * impulse.x + qa.rotate(Vec3::Y) * impulse.y
}

/// The angle of frame B about frame A's axis `axis` (0 x, 1 y, 2 z), twist of a
/// swing-twist decomposition, in [-π, π].
pub(crate) fn twist_angle(qa: Quat, qb: Quat, axis: usize) -> f32 {
    let r = qa.conjugate() * qb;
    let (c, w) = match axis {
        0 => (r.x, r.w),
        1 => (r.y, r.w),
        _ => (r.z, r.w),
    };
    twist_of(c, w)
}

/// The twist angle of a relative rotation from its component `c` along the axis and
/// its `w`, in [-π, π].
#[inline(always)]
pub(super) fn twist_of(c: f32, w: f32) -> f32 {
    if w < 0.0 {
        2.0 * atan2(-c, -w)
    } else {
        2.0 * atan2(c, w)
    }
}

/// The sum of an axis's impulses as one impulse along it.
#[inline]
pub(super) fn axis_total(i: &AxisImpulse) -> f32 {
    i.spring + i.motor + i.lower - i.upper + i.lock
}
