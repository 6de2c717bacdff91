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
    /// The point constraint's effective mass `K⁻¹` for the anchors at the start of the
    /// step (kinds with a point constraint).
    pub point_mass: Mat3,
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
    let x = c.point_mass.mul_vec(cdot + bias);
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

/// Whether a kind uses the point constraint (a six-DOF joint when all its linear axes are
/// locked).
fn has_point(kind: &JointKind) -> bool {
    match kind {
        JointKind::Spherical
        | JointKind::Revolute(_)
        | JointKind::Weld(_)
        | JointKind::ConeTwist(_) => true,
        JointKind::SixDof(s) => s.axes[..3]
            .iter()
            .all(|a| a.mode == super::AxisMode::Locked),
        _ => false,
    }
}

/// Builds this step's joint constraints in joint slot order: every acting joint with a
/// moving dynamic body, both bodies enabled. Zeroes the impulses of parts that are off.
pub(crate) fn prepare_joints(world: &mut World, h: f32, soft: Softness) {
    let s = &mut world.solver;
    s.joint_constraints.clear();
    s.joint_impulses.clear();
    let bodies = &world.bodies;
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
            (p.inv_mass, p.inv_inertia)
        } else {
            (Vec3::ZERO, Mat3::ZERO)
        };
        let (mb, ib) = if write_b {
            let p = &s.params[kb as usize];
            (p.inv_mass, p.inv_inertia)
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
            point_mass: Mat3::ZERO,
        };
        if has_point(&j.kind) {
            c.point_mass = point_mass(&c);
        }
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

/// The point constraint's `K⁻¹` for the anchors at the start of the step, with
/// `K = M_a⁻¹ + M_b⁻¹ + [r_a]ᵀ I_a⁻¹ [r_a] + [r_b]ᵀ I_b⁻¹ [r_b]`. Kept for the step, as
/// Box2D keeps a contact's masses: the rows themselves use the current anchors, so this
/// only sets how fast the substeps converge, not where to.
pub(super) fn point_mass(c: &JointConstraint) -> Mat3 {
    let (ra, rb) = (c.frame_a.p, c.frame_b.p);
    let sa = Mat3::skew(ra);
    let sb = Mat3::skew(rb);
    let k = Mat3::diagonal(c.ma + c.mb)
        + sa.transpose().mul_mat(&c.ia.mul_mat(&sa))
        + sb.transpose().mul_mat(&c.ib.mul_mat(&sb));
    inverse_masked(&k)
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
