//! Solving joints: preparing them each step, the rows every kind is built from, the warm
//! start / solve / relax passes, and after the substeps reactions and breaking.
//!
//! As Box2D v3: each joint keeps its anchors relative to the centres of mass in world
//! orientation at the start of the step (`frame_a`, `frame_b`) and the difference of the
//! centres (`delta_center`); a substep measures the current error from each body's own
//! motion within the step (`dp`, `dq`), so large coordinates never cancel. Rigid rows are
//! soft with the world's joint softness in the solve pass and stiff, without bias, in the
//! relax pass; springs keep their own softness in both; a limit not yet reached is
//! speculative (it allows the motion that closes the gap in one substep, no more).
//! The point constraint's effective mass is computed for the current anchors in every
//! pass, and joints under tension add the implicit part of their geometric stiffness to
//! their bodies' inertia as the rows see it (`tension_inertia`), so a chain of light
//! links holding a heavy weight neither rings nor gains energy.
//!
//! Bounded by construction, whatever the input: every accumulated impulse stays within
//! `MAX_IMPULSE` and every velocity a row writes within `MAX_VELOCITY` (the ranges calls
//! and snapshots accept), and the inverses give zero rather than infinity, so even a joint
//! torn apart by absurd settings cannot overflow into NaN.
//!
//! Joints are solved one after another in joint slot order, before the contact colours,
//! on the stepping thread: there are far fewer joints than contacts, and colouring them
//! is future work. The order is a pure function of state, so any thread count gives the
//! same bits.

use super::{Joint, JointBreakEvent, JointImpulses, JointKind};
use crate::body::NONE;
use crate::limits::{MAX_IMPULSE, MAX_VELOCITY, clamp_abs};
use crate::math::{Mat3, Quat, Transform, Vec3, atan2, clamp, max, min};
use crate::solver::BodyState;
use crate::solver::contact_solver::Softness;
use crate::task::Slots;
use crate::world::World;

const SPHERICAL: u8 = 0;

/// Body states of the awake set, as the substep loop shares them.
pub(crate) type States<'a> = Slots<'a, BodyState>;

/// A body that does not move this step (static, asleep, disabled): it reads as still
/// and takes nothing.
const FIXED: BodyState = BodyState::new(Vec3::ZERO, Vec3::ZERO);

/// One joint prepared for the substeps (not state: rebuilt every step). What every kind
/// reads comes first, so a spherical joint's passes read only the first four cache lines;
/// the kind's own settings stay in the joint, its impulses in `SolverScratch::joint_impulses`.
#[derive(Clone, Copy, Debug, Default)]
#[repr(C)]
pub(crate) struct JointConstraint {
    /// Joint slot.
    pub slot: u32,
    /// Solver index of each body, `NONE` when it does not move this step.
    pub index_a: u32,
    pub index_b: u32,
    /// Whether the body takes impulses (dynamic and awake); kinematic bodies are read.
    pub write_a: bool,
    pub write_b: bool,
    /// The kind (`JointKind::tag`), so spherical joints never read their joint.
    pub kind: u8,
    /// Inverse masses per world axis (zero on a locked axis) and world inverse inertias.
    pub ma: Vec3,
    pub mb: Vec3,
    pub ia: Mat3,
    pub ib: Mat3,
    /// Each joint frame at the start of the step: the anchor relative to the body's
    /// centre of mass and the frame's axes, both in world orientation.
    pub frame_a: Transform,
    pub frame_b: Transform,
    /// Centre of mass of B minus that of A at the start of the step.
    pub delta_center: Vec3,
    /// The world's joint softness for rigid rows.
    pub soft: Softness,
    /// `(I_a⁻¹ + I_b⁻¹)⁻¹`, for kinds with a three-row angular block.
    pub angular_mass: Mat3,
    /// Spring softness per axis (the kind's file says which).
    pub springs: [Softness; 6],
}

/// What a pass does: the substep and whether rigid rows correct position error.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Pass {
    pub h: f32,
    pub inv_h: f32,
    pub use_bias: bool,
}

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
    #[inline]
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

    /// Holds the row's value at 0; `pos` is the value.
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
fn solve2(k11: f32, k12: f32, k22: f32, r1: f32, r2: f32) -> (f32, f32) {
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

/// Two rows solved together (perpendicular axes of a slider, a hinge's two locked
/// rotations); `pos` are their values, held at 0 with the joint softness.
#[allow(clippy::too_many_arguments)]
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

/// The point constraint: the anchors coincide (three rows solved as one block).
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

/// Warm-starts the point constraint.
pub(super) fn warm_point(c: &JointConstraint, a: &mut BodyState, b: &mut BodyState, l: Vec3) {
    let (ra, rb) = anchors(c, a, b);
    apply_point(c, a, b, ra, rb, l);
}

/// The rotation taking frame A to frame B as a world vector (axis × angle for small
/// angles; `2 sin(θ/2)` along the axis in general).
#[inline]
pub(super) fn rotation_error(qa: Quat, qb: Quat) -> Vec3 {
    let r = qa.conjugate() * qb;
    let v = if r.w < 0.0 { -r.v() } else { r.v() };
    qa.rotate(v * 2.0)
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
    if w < 0.0 {
        2.0 * atan2(-c, -w)
    } else {
        2.0 * atan2(c, w)
    }
}

/// The sum of an axis's impulses as one impulse along it.
#[inline]
pub(super) fn axis_total(i: &super::AxisImpulse) -> f32 {
    i.spring + i.motor + i.lower - i.upper + i.lock
}

// ---------------------------------------------------------------------------------------
// The passes.

#[inline(always)]
fn load(states: &States, k: u32) -> BodyState {
    if k == NONE {
        FIXED
    } else {
        // SAFETY: joint passes run on the stepping thread between the task stages, so no
        // other reference to a body state is live.
        *unsafe { states.get(k as usize) }
    }
}

#[inline(always)]
fn store(states: &States, k: u32, write: bool, st: &BodyState) {
    if write {
        // SAFETY: as in `load`.
        *unsafe { states.get(k as usize) } = *st;
    }
}

/// Builds this step's joint constraints in joint slot order: every acting joint with a
/// moving dynamic body, both bodies enabled. Zeroes the impulses of parts that are off.
pub(crate) fn prepare_joints(world: &mut World, h: f32, soft: Softness) {
    let s = &mut world.solver;
    s.joint_constraints.clear();
    s.joint_impulses.clear();
    let bodies = &world.bodies;
    tension_inertia(&world.joints[..], bodies, s, h);
    for (slot, j) in world.joints.iter_mut().enumerate() {
        if !j.acts() {
            continue;
        }
        let (ba, bb) = (&bodies[j.body_a as usize], &bodies[j.body_b as usize]);
        if !ba.enabled || !bb.enabled {
            continue;
        }
        let (ka, kb) = (
            s.solver_index[j.body_a as usize],
            s.solver_index[j.body_b as usize],
        );
        let write_a = ka != NONE && s.params[ka as usize].dynamic;
        let write_b = kb != NONE && s.params[kb as usize].dynamic;
        if !write_a && !write_b {
            continue;
        }
        let (ma, ia) = if write_a {
            let p = &s.params[ka as usize];
            (p.inv_mass, s.joint_inv_inertia[ka as usize])
        } else {
            (Vec3::ZERO, Mat3::ZERO)
        };
        let (mb, ib) = if write_b {
            let p = &s.params[kb as usize];
            (p.inv_mass, s.joint_inv_inertia[kb as usize])
        } else {
            (Vec3::ZERO, Mat3::ZERO)
        };
        let frame = |b: &crate::body::Body, f: &Transform| {
            Transform::new(b.rotation.rotate(f.p - b.local_center), b.rotation * f.q)
        };
        let mut c = JointConstraint {
            slot: slot as u32,
            index_a: ka,
            index_b: kb,
            write_a,
            write_b,
            kind: j.kind.tag(),
            ma,
            mb,
            ia,
            ib,
            frame_a: frame(ba, &j.frame_a),
            frame_b: frame(bb, &j.frame_b),
            delta_center: (bb.position - ba.position).to_f32() + bb.center_offset()
                - ba.center_offset(),
            soft,
            springs: [Softness::default(); 6],
            angular_mass: Mat3::ZERO,
        };
        match &j.kind {
            JointKind::Spherical => {}
            JointKind::Revolute(_) => super::revolute::prepare(&mut c, j, h),
            JointKind::Prismatic(_) => super::prismatic::prepare(&mut c, j, h),
            JointKind::Weld(_) => super::weld::prepare(&mut c, j, h),
            JointKind::Distance(_) => super::distance::prepare(&mut c, j, h),
            JointKind::ConeTwist(_) => super::cone_twist::prepare(&mut c, j, h),
            JointKind::SixDof(_) => super::six_dof::prepare(&mut c, j, h),
            JointKind::Wheel(_) => super::wheel::prepare(&mut c, j, h),
        }
        let ok = s.joint_constraints.push(c) && s.joint_impulses.push(j.impulses);
        debug_assert!(ok, "joint constraints hold joint_capacity");
    }
}

/// The geometric stiffness of joint tension, made implicit (after Andrews, Erleben and
/// Ferguson, "Geometric stiffness for real-time constrained multibody dynamics", 2017).
///
/// A joint pulling a body with force `f` at lever `r` from its centre of mass turns it
/// back towards the line of pull: about the axes across `r`, the torque `r × f` grows
/// with the angle at `f·r` N·m/rad. The rows apply that torque with the lever of the
/// substep's start, so the stiffness is explicit, and a light body on a lever under a
/// heavy load — a link of a chain holding a weight 100 or 1000 times its own — rings at
/// `ω = √(f·r / I)`, unstable once `ω h > 2`: each substep it gains energy (a 200-link
/// chain at 1000:1 and 4 substeps reached 13,000 m/s). Adding `h² (f·r)` to the body's
/// inertia across `r`, as the joints see it, is the implicit treatment: `ω h < 1`
/// whatever the load. It costs a little damping of the fast turning of loaded bodies,
/// nothing along the lever (spin about a rope's axis is free) and nothing when the
/// joint pushes rather than pulls or pulls across the lever (`f·r ≤ 0`: a spinning top's
/// precession is untouched). The force is the joint's last reaction (state), so a
/// restored world adds the same.
///
/// Fills `s.joint_inv_inertia` for the awake bodies: each one's world inverse inertia
/// with the sum over the acting joints, in joint slot order, of `h² (f·r) (E − r̂ r̂ᵀ)`
/// added to the inertia (nothing to do without joints).
fn tension_inertia(
    joints: &[Joint],
    bodies: &[crate::body::Body],
    s: &mut crate::solver::SolverScratch,
    h: f32,
) {
    if joints.is_empty() {
        return;
    }
    let n = s.states.len();
    let extra = &mut s.joint_inv_inertia[..n];
    extra.fill(Mat3::ZERO);
    for j in joints {
        if !j.acts() || j.reaction_force == Vec3::ZERO {
            continue;
        }
        // The force on B; A takes its opposite.
        let f = j.reaction_force;
        for (body, frame, sign) in [(j.body_a, &j.frame_a, -1.0), (j.body_b, &j.frame_b, 1.0)] {
            let k = s.solver_index[body as usize];
            if k == NONE || !s.params[k as usize].dynamic {
                continue;
            }
            let b = &bodies[body as usize];
            let r = b.rotation.rotate(frame.p - b.local_center);
            let pull = sign * f.dot(r);
            // Only a pull along the lever stiffens (an anchor at the centre of mass has
            // none); E − r̂ r̂ᵀ leaves spin about the lever free.
            let u = r.normalize();
            let stiffens = pull > 0.0 && u != Vec3::ZERO;
            if !stiffens {
                continue;
            }
            let c = h * h * pull;
            let g = Mat3::IDENTITY.scale(c) - Mat3::from_cols(u * u.x, u * u.y, u * u.z).scale(c);
            // A product too large for f32 adds nothing rather than infinity.
            if g.is_valid() {
                let e = &mut extra[k as usize];
                *e = *e + g;
            }
        }
    }
    for (e, p) in extra.iter_mut().zip(s.params.iter()) {
        *e = with_inertia(&p.inv_inertia, e);
    }
}

/// A world inverse inertia `A` with `G` (symmetric, positive semi-definite) added to the
/// inertia: `(A⁻¹ + G)⁻¹ = (E + A G)⁻¹ A`, which needs no inverse of `A` (singular on
/// locked axes). `E + A G` is invertible (its eigenvalues are at least 1); an inverse
/// that overflows gives zero (a body too loaded to turn).
fn with_inertia(inv_inertia: &Mat3, extra: &Mat3) -> Mat3 {
    if *extra == Mat3::ZERO {
        return *inv_inertia;
    }
    let m = Mat3::IDENTITY + inv_inertia.mul_mat(extra);
    let r = m.inverse().mul_mat(inv_inertia);
    // Symmetric in exact arithmetic; kept exactly so.
    let sym = (r + r.transpose()).scale(0.5);
    if sym.is_valid() { sym } else { Mat3::ZERO }
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

/// `(I_a⁻¹ + I_b⁻¹)⁻¹` for the three-row angular blocks.
pub(super) fn angular_mass(c: &JointConstraint) -> Mat3 {
    inverse_masked(&(c.ia + c.ib))
}

/// Applies every joint's kept impulses (serially, in joint slot order).
pub(crate) fn warm_start_joints(
    cs: &[JointConstraint],
    impulses: &[JointImpulses],
    joints: &[Joint],
    states: &States,
) {
    for (c, i) in cs.iter().zip(impulses) {
        let (mut a, mut b) = (load(states, c.index_a), load(states, c.index_b));
        if c.kind == SPHERICAL {
            super::spherical::warm_start(c, i, &mut a, &mut b);
        } else {
            match &joints[c.slot as usize].kind {
                JointKind::Spherical => super::spherical::warm_start(c, i, &mut a, &mut b),
                JointKind::Revolute(_) => super::revolute::warm_start(c, i, &mut a, &mut b),
                JointKind::Prismatic(_) => super::prismatic::warm_start(c, i, &mut a, &mut b),
                JointKind::Weld(_) => super::weld::warm_start(c, i, &mut a, &mut b),
                JointKind::Distance(_) => super::distance::warm_start(c, i, &mut a, &mut b),
                JointKind::ConeTwist(_) => super::cone_twist::warm_start(c, i, &mut a, &mut b),
                JointKind::SixDof(k) => super::six_dof::warm_start(c, k, i, &mut a, &mut b),
                JointKind::Wheel(_) => super::wheel::warm_start(c, i, &mut a, &mut b),
            }
        }
        store(states, c.index_a, c.write_a, &a);
        store(states, c.index_b, c.write_b, &b);
    }
}

/// The solve pass (`p.use_bias`) or the relax pass, serially in joint slot order.
pub(crate) fn solve_joints(
    cs: &[JointConstraint],
    impulses: &mut [JointImpulses],
    joints: &[Joint],
    states: &States,
    p: &Pass,
) {
    for (c, i) in cs.iter().zip(impulses.iter_mut()) {
        let (mut a, mut b) = (load(states, c.index_a), load(states, c.index_b));
        if c.kind == SPHERICAL {
            super::spherical::solve(c, i, &mut a, &mut b, p);
        } else {
            match &joints[c.slot as usize].kind {
                JointKind::Spherical => super::spherical::solve(c, i, &mut a, &mut b, p),
                JointKind::Revolute(k) => super::revolute::solve(c, k, i, &mut a, &mut b, p),
                JointKind::Prismatic(k) => super::prismatic::solve(c, k, i, &mut a, &mut b, p),
                JointKind::Weld(k) => super::weld::solve(c, k, i, &mut a, &mut b, p),
                JointKind::Distance(k) => super::distance::solve(c, k, i, &mut a, &mut b, p),
                JointKind::ConeTwist(k) => super::cone_twist::solve(c, k, i, &mut a, &mut b, p),
                JointKind::SixDof(k) => super::six_dof::solve(c, k, i, &mut a, &mut b, p),
                JointKind::Wheel(k) => super::wheel::solve(c, k, i, &mut a, &mut b, p),
            }
        }
        store(states, c.index_a, c.write_a, &a);
        store(states, c.index_b, c.write_b, &b);
    }
}

/// After the substeps, in joint slot order: each joint keeps its impulses (state), its
/// reaction (the impulses per substep over the substep), then breaking — a joint whose reaction passes its
/// threshold is marked broken, drops its impulses, lets its bodies collide again and
/// reports one event (up to `event_capacity`; the rest are counted).
pub(crate) fn finish_joints(world: &mut World, inv_h: f32) {
    for k in 0..world.solver.joint_constraints.len() {
        let c = &world.solver.joint_constraints[k];
        let states = &world.solver.states;
        let get = |i: u32| {
            if i == NONE { FIXED } else { states[i as usize] }
        };
        let (a, b) = (get(c.index_a), get(c.index_b));
        let slot = c.slot;
        let j = &mut world.joints[slot as usize];
        j.impulses = world.solver.joint_impulses[k];
        let i = &j.impulses;
        let (force, torque) = match &j.kind {
            JointKind::Spherical => (i.linear, Vec3::ZERO),
            JointKind::Revolute(_) => super::revolute::reaction(c, i, &a, &b),
            JointKind::Prismatic(_) => super::prismatic::reaction(c, i, &a, &b),
            JointKind::Weld(_) => (i.linear, i.angular),
            JointKind::Distance(_) => super::distance::reaction(c, i, &a, &b),
            JointKind::ConeTwist(_) => super::cone_twist::reaction(c, i, &a, &b),
            JointKind::SixDof(s) => super::six_dof::reaction(c, s, i, &a, &b),
            JointKind::Wheel(_) => super::wheel::reaction(c, i, &a, &b),
        };
        j.reaction_force = force * inv_h;
        j.reaction_torque = torque * inv_h;
        let over = |value: Vec3, threshold: f32| {
            // |value| scaled by its largest component first, so squaring cannot overflow.
            let m = value.abs().max_element();
            threshold < f32::MAX && m > 0.0 && m * (value * (1.0 / m)).length() > threshold
        };
        if !(over(j.reaction_force, j.break_force) || over(j.reaction_torque, j.break_torque)) {
            continue;
        }
        j.broken = true;
        j.impulses = Default::default();
        let (ba, bb, filtered) = (j.body_a, j.body_b, !j.collide_connected);
        let event = JointBreakEvent {
            joint: world.joint_id(slot),
        };
        if !world.joint_break_events.push(event) {
            world.counters.dropped_joint_break_events += 1;
        }
        if filtered {
            world.refind_pairs(ba, bb);
        }
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

    /// Added inertia across a lever slows turning across it and leaves the turning about
    /// it alone.
    #[test]
    fn tension_inertia_slows_turning_across_the_lever_only() {
        let a = Mat3::diagonal(Vec3::splat(4.0));
        let u = Vec3::X;
        let g = Mat3::IDENTITY.scale(0.75) - Mat3::from_cols(u * u.x, u * u.y, u * u.z).scale(0.75);
        let b = with_inertia(&a, &g);
        // About x: 1 / (1/4) = 4 unchanged; across: 1 / (1/4 + 3/4) = 1.
        assert!((b.mul_vec(Vec3::X) - Vec3::new(4.0, 0.0, 0.0)).length() < 1e-6);
        assert!((b.mul_vec(Vec3::Y) - Vec3::new(0.0, 1.0, 0.0)).length() < 1e-6);
        assert!((b.mul_vec(Vec3::Z) - Vec3::new(0.0, 0.0, 1.0)).length() < 1e-6);
        // A locked axis (zero inverse inertia) stays locked.
        let locked = Mat3::diagonal(Vec3::new(4.0, 0.0, 4.0));
        assert_eq!(with_inertia(&locked, &g).mul_vec(Vec3::Y), Vec3::ZERO);
    }
}
