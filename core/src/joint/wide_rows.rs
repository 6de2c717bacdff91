//! Cone-twist and revolute joints eight at a time (a ragdoll's shoulders, hips, elbows
//! and knees): each lane computes exactly what `cone_twist.rs` and `revolute.rs` compute
//! for its joint — the same operations in the same order, every branch a
//! compare-and-select, every part that is off in a lane masked there (its velocities and
//! impulses kept as they were, bit for bit) — so the lanes change speed only. The
//! arc tangents and the 2×2 solve are the scalar functions, called lane by lane.
//!
//! A group is refused (and solved one joint at a time, nothing written) when a lane needs
//! what the lanes do not compute: a point matrix needing the masked inverse, or a
//! cone-twist's half-turn swing (its axis is a perpendicular of A's). A revolute joint
//! with a spring or a soft limit is not put in lanes at all (`wide::class`).

use super::solver::{JointConstraint, Pass, States};
use super::wide::{
    Bodies, Group, GroupRef, IMPULSE, IMPULSE_ANGULAR, IMPULSE_AXIS0, IMPULSE_AXIS1, choose, clamp,
    clamp_v, each, finite, point, rotate, sel,
};
use super::{Joint, JointKind};
use crate::limits::{MAX_IMPULSE, MAX_VELOCITY};
use crate::math::Vec3;
use crate::solver::lanes::{Lanes, MAX_WIDTH, Q, V3};

#[inline(always)]
fn choose3<L: Lanes>(mask: L, x: V3<L>, y: V3<L>) -> V3<L> {
    V3::select_gt(mask, L::default(), x, y)
}

/// `-x` (multiplying by −1 is exact).
#[inline(always)]
fn neg<L: Lanes>(x: L) -> L {
    L::splat(-1.0) * x
}

/// `math::clamp(x, lo, hi)` lane by lane.
#[inline(always)]
fn clamp_to<L: Lanes>(x: L, lo: L, hi: L) -> L {
    sel(lo, x, lo, sel(x, hi, hi, x))
}

/// `math::min(a, b)` lane by lane.
#[inline(always)]
fn min<L: Lanes>(a: L, b: L) -> L {
    sel(b, a, a, b)
}

/// One where `f` holds for the lane, zero elsewhere.
#[inline(always)]
fn mask<L: Lanes>(mut f: impl FnMut(usize) -> bool) -> L {
    L::from_fn(|i| if f(i) { 1.0 } else { 0.0 })
}

/// A unit axis in every lane.
#[inline(always)]
fn axis<L: Lanes>(x: f32, y: f32, z: f32) -> V3<L> {
    V3 {
        x: L::splat(x),
        y: L::splat(y),
        z: L::splat(z),
    }
}

/// `Quat::mul`, term for term.
#[inline(always)]
fn qmul<L: Lanes>(a: &Q<L>, b: &Q<L>) -> Q<L> {
    let (ax, ay, az, aw) = (a.v.x, a.v.y, a.v.z, a.w);
    let (bx, by, bz, bw) = (b.v.x, b.v.y, b.v.z, b.w);
    Q {
        v: V3 {
            x: aw * bx + ax * bw + ay * bz - az * by,
            y: aw * by - ax * bz + ay * bw + az * bx,
            z: aw * bz + ax * by - ay * bx + az * bw,
        },
        w: aw * bw - ax * bx - ay * by - az * bz,
    }
}

/// `Quat::conjugate`.
#[inline(always)]
fn conjugate<L: Lanes>(q: &Q<L>) -> Q<L> {
    Q {
        v: V3 {
            x: neg(q.v.x),
            y: neg(q.v.y),
            z: neg(q.v.z),
        },
        w: q.w,
    }
}

/// `frames`: the joint frames' axes now.
#[inline(always)]
fn frames<L: Lanes>(g: &Group<L>, b: &Bodies<L>) -> (Q<L>, Q<L>) {
    (qmul(&b.dqa, &g.fqa()), qmul(&b.dqb, &g.fqb()))
}

/// `rigid_terms` of a row with value `pos`: `(bias, mass scale, impulse scale)`.
#[inline(always)]
fn rigid<L: Lanes>(g: &Group<L>, pos: L, use_bias: bool) -> (L, L, L) {
    if use_bias {
        (g.soft()[0] * pos, g.soft()[1], g.soft()[2])
    } else {
        (L::default(), L::splat(1.0), L::default())
    }
}

/// `Row`: the relative velocity it measures is `lin·(v_b − v_a) + ang_b·w_b − ang_a·w_a`.
struct Row<L> {
    lin: V3<L>,
    ang_a: V3<L>,
    ang_b: V3<L>,
}

/// A limit row's value from its bound (`pos`), the row's `mass` (the same for both
/// bounds of one row, so made once) and where it is on.
#[derive(Clone, Copy)]
struct Limit<L> {
    pos: L,
    mass: L,
    on: L,
}

/// A row's value between two bounds, with the row's `mass` and where the bounds are on.
#[derive(Clone, Copy)]
struct Bounds<L> {
    value: L,
    lower: L,
    upper: L,
    mass: L,
    on: L,
}

impl<L: Lanes> Row<L> {
    /// `Row::angular`.
    #[inline(always)]
    fn angular(axis: V3<L>) -> Row<L> {
        Row {
            lin: V3::default(),
            ang_a: axis,
            ang_b: axis,
        }
    }

    #[inline(always)]
    fn speed(&self, b: &Bodies<L>) -> L {
        self.lin.dot(b.vb.sub(b.va)) + self.ang_b.dot(b.wb) - self.ang_a.dot(b.wa)
    }

    #[inline(always)]
    fn k(&self, g: &Group<L>, o: &Row<L>) -> L {
        self.lin.dot(g.ma().add(g.mb()).mul_elements(o.lin))
            + self.ang_a.dot(g.ia().mul_vec(o.ang_a))
            + self.ang_b.dot(g.ib().mul_vec(o.ang_b))
    }

    /// `1 / k` where `k` is normal and finite, zero elsewhere.
    #[inline(always)]
    fn mass(&self, g: &Group<L>) -> L {
        let k = self.k(g, self);
        let zero = L::default();
        let inv = choose(finite(k), L::splat(1.0).div(k), zero);
        sel(L::splat(f32::MIN_POSITIVE), k, zero, inv)
    }

    /// `Row::apply` where `on` is one: impulse `l` along the row, B `+l`, A `−l`.
    #[inline(always)]
    fn apply(&self, g: &Group<L>, b: &mut Bodies<L>, l: L, on: L) {
        let p = self.lin.scale(l);
        let va = clamp_v(b.va.sub(g.ma().mul_elements(p)), MAX_VELOCITY);
        let wa = clamp_v(b.wa.sub(g.ia().mul_vec(self.ang_a.scale(l))), MAX_VELOCITY);
        let vb = clamp_v(b.vb.add(g.mb().mul_elements(p)), MAX_VELOCITY);
        let wb = clamp_v(b.wb.add(g.ib().mul_vec(self.ang_b.scale(l))), MAX_VELOCITY);
        set(b, on, [va, wa, vb, wb]);
    }

    /// `limit_terms` then the impulse of `Row::lower` (`upper`: of `Row::upper`), with
    /// the row's speed `cdot` (negated for `upper`).
    #[inline(always)]
    fn limit(&self, g: &Group<L>, mass: L, cdot: L, pos: L, p: &Pass, impulse: L) -> L {
        let zero = L::default();
        let (rb, rms, ris) = rigid(g, pos, p.use_bias);
        let bias = sel(pos, zero, pos * L::splat(p.inv_h), rb);
        let ms = sel(pos, zero, L::splat(1.0), rms);
        let is = sel(pos, zero, zero, ris);
        let l = neg(mass) * ms * (cdot + bias) - is * impulse;
        clamp_to(impulse + l, zero, L::splat(MAX_IMPULSE))
    }

    /// `Row::lower` where `lim.on` is one; `lim.pos` = value − lower.
    #[inline(always)]
    fn lower(&self, g: &Group<L>, b: &mut Bodies<L>, lim: Limit<L>, p: &Pass, impulse: &mut L) {
        let new = self.limit(g, lim.mass, self.speed(b), lim.pos, p, *impulse);
        let on = lim.on;
        let l = new - *impulse;
        *impulse = choose(on, new, *impulse);
        self.apply(g, b, l, on);
    }

    /// `Row::lower` then `Row::upper` where `lim.on` is one, impulses `lo` and `up`.
    #[inline(always)]
    fn bounds(
        &self,
        g: &Group<L>,
        b: &mut Bodies<L>,
        lim: Bounds<L>,
        p: &Pass,
        lo: &mut L,
        up: &mut L,
    ) {
        let Bounds {
            value,
            lower,
            upper,
            mass,
            on,
        } = lim;
        let below = Limit {
            pos: value - lower,
            mass,
            on,
        };
        self.lower(g, b, below, p, lo);
        let above = Limit {
            pos: upper - value,
            mass,
            on,
        };
        self.upper(g, b, above, p, up);
    }

    /// `Row::upper` where `lim.on` is one; `lim.pos` = upper − value.
    #[inline(always)]
    fn upper(&self, g: &Group<L>, b: &mut Bodies<L>, lim: Limit<L>, p: &Pass, impulse: &mut L) {
        let new = self.limit(g, lim.mass, neg(self.speed(b)), lim.pos, p, *impulse);
        let on = lim.on;
        let l = new - *impulse;
        *impulse = choose(on, new, *impulse);
        self.apply(g, b, neg(l), on);
    }

    /// `Row::motor` where `on` is one (`mass`: the row's `mass`).
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn motor(
        &self,
        g: &Group<L>,
        b: &mut Bodies<L>,
        mass: L,
        target: L,
        max_impulse: L,
        impulse: &mut L,
        on: L,
    ) {
        let cdot = self.speed(b) - target;
        let l = neg(mass) * cdot;
        let old = *impulse;
        let max = min(max_impulse, L::splat(MAX_IMPULSE));
        let new = clamp_to(old + l, neg(max), max);
        *impulse = choose(on, new, old);
        self.apply(g, b, new - old, on);
    }
}

/// The velocities `[va, wa, vb, wb]` where `on` is one.
#[inline(always)]
fn set<L: Lanes>(b: &mut Bodies<L>, on: L, [va, wa, vb, wb]: [V3<L>; 4]) {
    b.va = choose3(on, va, b.va);
    b.wa = choose3(on, wa, b.wa);
    b.vb = choose3(on, vb, b.vb);
    b.wb = choose3(on, wb, b.wb);
}

/// `apply_angular` where `on` is one: angular impulse `t`, B `+t`.
#[inline(always)]
fn apply_angular<L: Lanes>(g: &Group<L>, b: &mut Bodies<L>, t: V3<L>, on: L) {
    let va = clamp_v(b.va, MAX_VELOCITY);
    let wa = clamp_v(b.wa.sub(g.ia().mul_vec(t)), MAX_VELOCITY);
    let vb = clamp_v(b.vb, MAX_VELOCITY);
    let wb = clamp_v(b.wb.add(g.ib().mul_vec(t)), MAX_VELOCITY);
    set(b, on, [va, wa, vb, wb]);
}

/// The twist angle about frame A's `axis` (0 x, 2 z) lane by lane (`twist_angle`).
#[inline(always)]
fn twist<L: Lanes>(qa: &Q<L>, qb: &Q<L>, axis: usize) -> L {
    let r = qmul(&conjugate(qa), qb);
    super::wide_atan::twist_lanes(if axis == 0 { r.v.x } else { r.v.z }, r.w)
}

/// The impulse rows of the axes' parts the lanes solve (`wide::impulse_numbers`).
const MOTOR0: usize = IMPULSE_AXIS0 + 1;
const LOWER0: usize = IMPULSE_AXIS0 + 2;
const UPPER0: usize = IMPULSE_AXIS0 + 3;
const LOWER1: usize = IMPULSE_AXIS1;
const UPPER1: usize = IMPULSE_AXIS1 + 1;

/// What a group's lanes keep of a joint of its kind besides the constraint's numbers
/// (`Group::kind`): a cone-twist's limits, friction and angular mass; a revolute
/// joint's limit and motor settings (each switch one or zero). Zeros for other kinds.
pub(super) fn kind_numbers(c: &JointConstraint, j: &Joint) -> [f32; super::wide::KIND_FLOATS] {
    let mut x = [0.0; super::wide::KIND_FLOATS];
    let flag = |b: bool| if b { 1.0 } else { 0.0 };
    match &j.kind {
        JointKind::ConeTwist(k) => {
            x[..4].copy_from_slice(&[
                k.swing_limit,
                k.twist_lower,
                k.twist_upper,
                k.max_friction_torque,
            ]);
            let m = &c.angular_mass;
            for (d, col) in x[4..].chunks_exact_mut(3).zip([m.cx, m.cy, m.cz]) {
                d.copy_from_slice(&[col.x, col.y, col.z]);
            }
        }
        JointKind::Revolute(r) => {
            x[..6].copy_from_slice(&[
                flag(r.enable_limit),
                r.lower,
                r.upper,
                flag(r.enable_motor),
                r.motor_speed,
                r.max_motor_torque,
            ]);
        }
        _ => {}
    }
    x
}

// ---- Cone-twist ----------------------------------------------------------------------

/// A cone-twist group's settings (`ConeTwistJoint`) and what it measures at the start of
/// the pass: the swing axis and angle, the twist axis.
struct Cone<L> {
    swing_limit: L,
    twist_lower: L,
    twist_upper: L,
    max_friction: L,
    /// Masks: friction on, swing limited, twist limited.
    friction: L,
    swing_limited: L,
    twist_limited: L,
    /// `swing`: the axis along which the swing widens (zero where `widens` is zero), the
    /// angle.
    n: V3<L>,
    widens: L,
    angle: L,
    /// `twist_axis`, and where it is not zero.
    twist_axis: V3<L>,
    twist_on: L,
}

impl<L: Lanes> Cone<L> {
    /// `None` when a lane of the first `g.n()` swings a half-turn (`swing`'s perpendicular).
    #[inline(always)]
    fn new(g: &Group<L>, qa: &Q<L>, qb: &Q<L>) -> Option<Cone<L>> {
        let n = g.n();
        let (swing_limit, twist_lower) = (g.kind(0), g.kind(1));
        let (twist_upper, max_friction) = (g.kind(2), g.kind(3));
        let zero = L::default();
        let one = L::splat(1.0);
        let pi = L::splat(crate::math::PI);
        let friction = sel(max_friction, zero, one, zero);
        let swing_limited = sel(pi, swing_limit, one, zero);
        let twist_limited = sel(twist_lower, neg(pi), one, sel(pi, twist_upper, one, zero));
        let x = axis(1.0, 0.0, 0.0);
        let (xa, xb) = (rotate(qa, x), rotate(qb, x));
        // `swing`: `normalize_and_length` of xa × xb, then the branches on its length.
        let cross = xa.cross(xb);
        let len = cross.dot(cross).sqrt();
        let eps = L::splat(f32::EPSILON);
        let unit = V3::select_gt(eps, len, V3::default(), cross.scale(one.div(len)));
        let s = sel(eps, len, zero, len);
        let cos = xa.dot(xb);
        let (sa, ca) = (s.to_array(), cos.to_array());
        // `swing`'s branches: a positive length widens; else a negative cosine is the
        // half-turn (NaN falls through both, as there).
        let positive: [bool; MAX_WIDTH] = each(|i| sa[i] > 0.0);
        if (0..n).any(|i| !positive[i] && ca[i] < 0.0) {
            return None;
        }
        let widens = sel(s, zero, one, zero);
        // `atan2(s, cos)` where the swing widens (elsewhere 1 and 1, never used).
        let angle = choose(
            widens,
            super::wide_atan::atan2_lanes(choose(widens, s, one), choose(widens, cos, one)),
            zero,
        );
        // `twist_axis`.
        let den = one + xa.dot(xb);
        let twist_axis = V3::select_gt(
            den,
            L::splat(1.0e-3),
            xa.add(xb).scale(one.div(den)),
            V3::default(),
        );
        let t = twist_axis.lanes();
        Some(Cone {
            swing_limit,
            twist_lower,
            twist_upper,
            max_friction,
            friction,
            swing_limited,
            twist_limited,
            n: choose3(widens, unit, V3::default()),
            widens,
            angle,
            twist_axis,
            twist_on: mask(|i| t[i] != Vec3::ZERO),
        })
    }
}

/// Both masks one.
#[inline(always)]
fn both<L: Lanes>(a: L, b: L) -> L {
    super::wide::and(a, b)
}

/// The warm start of a group of cone-twist joints; false (nothing written) when the
/// group is refused.
#[inline(always)]
pub(super) fn cone_warm<L: Lanes>(states: &States, hd: GroupRef) -> bool {
    let g = Group::<L>::load(hd);
    let mut b = Bodies::new(states, &g);
    let (qa, qb) = frames(&g, &b);
    let Some(k) = Cone::new(&g, &qa, &qb) else {
        return false;
    };
    let angular = g.row3(IMPULSE_ANGULAR);
    let up0 = g.row(UPPER0);
    let (lo1, up1) = (g.row(LOWER1), g.row(UPPER1));
    let t = angular
        .sub(k.n.scale(up0))
        .add(k.twist_axis.scale(lo1 - up1));
    apply_angular(&g, &mut b, t, L::splat(1.0));
    b.apply(&g, g.row3(IMPULSE));
    b.store(states, &g);
    true
}

/// The solve or relax pass over a group of cone-twist joints; false (nothing written)
/// when the group is refused.
#[inline(always)]
pub(super) fn cone_solve<L: Lanes>(states: &States, hd: GroupRef, p: &Pass) -> bool {
    let g = Group::<L>::load(hd);
    let mut b = Bodies::new(states, &g);
    let (qa, qb) = frames(&g, &b);
    let Some(k) = Cone::new(&g, &qa, &qb) else {
        return false;
    };
    let zero = L::default();
    // Friction.
    let angular_mass = g.kind_m3(4);
    let old = g.row3(IMPULSE_ANGULAR);
    let new = old.sub(angular_mass.mul_vec(b.wb.sub(b.wa)));
    let max = min(k.max_friction * L::splat(p.h), L::splat(MAX_IMPULSE));
    let len = new.dot(new).sqrt();
    let new = V3::select_gt(len, max, new.scale(max.div(len)), new);
    // Scaling onto the bound can round a component a step past it (as one at a time).
    let new = clamp_v(new, MAX_IMPULSE);
    let angular = choose3(k.friction, new, old);
    apply_angular(&g, &mut b, new.sub(old), k.friction);
    // Swing limit: a half-turn-free swing with no axis drops its impulse.
    let mut up0 = g.row(UPPER0);
    let swing_on = both(k.swing_limited, k.widens);
    let mut pushed = up0;
    let swing = Row::angular(k.n);
    let lim = Limit {
        pos: k.swing_limit - k.angle,
        mass: swing.mass(&g),
        on: swing_on,
    };
    swing.upper(&g, &mut b, lim, p, &mut pushed);
    up0 = choose(k.swing_limited, choose(k.widens, pushed, zero), up0);
    // Twist limits.
    let twist_on = both(k.twist_limited, k.twist_on);
    let row = Row::angular(k.twist_axis);
    let tw = twist(&qa, &qb, 0);
    let (mut lo1, mut up1) = (g.row(LOWER1), g.row(UPPER1));
    let twist_bounds = Bounds {
        value: tw,
        lower: k.twist_lower,
        upper: k.twist_upper,
        mass: row.mass(&g),
        on: twist_on,
    };
    row.bounds(&g, &mut b, twist_bounds, p, &mut lo1, &mut up1);
    // The point, with the world's softness.
    let (rate, ms, is) = if p.use_bias {
        (g.soft()[0], g.soft()[1], g.soft()[2])
    } else {
        (g.soft()[0], L::splat(1.0), zero)
    };
    let apply = L::splat(if p.use_bias { 1.0 } else { 0.0 });
    let Some(linear) = point(&g, &mut b, [rate, ms, is], apply, g.row3(IMPULSE)) else {
        return false;
    };
    b.store(states, &g);
    hd.set3(IMPULSE_ANGULAR, angular);
    hd.set(UPPER0, up0);
    hd.set(LOWER1, lo1);
    hd.set(UPPER1, up1);
    hd.set3(IMPULSE, linear);
    true
}

/// `rows::solve2` lane by lane: `K x = r` for a symmetric 2×2 `K`, each of its branches
/// computed and selected (a division a lane does not use is discarded).
#[inline(always)]
fn solve2<L: Lanes>(k11: L, k12: L, k22: L, r1: L, r2: L) -> (L, L) {
    let (zero, one) = (L::default(), L::splat(1.0));
    let (p1, p2) = (sel(k11, zero, one, zero), sel(k22, zero, one, zero));
    let s = k11.max(k22);
    let inv_s = one.div(s);
    let (a, b, d) = (k11 * inv_s, k12 * inv_s, k22 * inv_s);
    let det = a * d - b * b;
    let inv = inv_s.div(det);
    let (x1, x2) = (inv * (d * r1 - b * r2), inv * (a * r2 - b * r1));
    let solved = both(sel(det, zero, one, zero), both(finite(x1), finite(x2)));
    let (x1, x2) = (choose(solved, x1, zero), choose(solved, x2, zero));
    (
        choose(p1, choose(p2, x1, r1.div(k11)), zero),
        choose(p2, choose(p1, x2, r2.div(k22)), zero),
    )
}

// ---- Revolute ------------------------------------------------------------------------

/// A revolute group's settings (`RevoluteJoint`; no spring, a rigid limit if any).
struct Hinge<L> {
    limit: L,
    lower: L,
    upper: L,
    motor: L,
    motor_speed: L,
    max_torque: L,
}

impl<L: Lanes> Hinge<L> {
    #[inline(always)]
    fn new(g: &Group<L>) -> Hinge<L> {
        Hinge {
            limit: g.kind(0),
            lower: g.kind(1),
            upper: g.kind(2),
            motor: g.kind(3),
            motor_speed: g.kind(4),
            max_torque: g.kind(5),
        }
    }
}

/// The warm start of a group of revolute joints.
#[inline(always)]
pub(super) fn hinge_warm<L: Lanes>(states: &States, hd: GroupRef) {
    let g = Group::<L>::load(hd);
    let mut b = Bodies::new(states, &g);
    let (qa, _) = frames(&g, &b);
    let angular = g.row3(IMPULSE_ANGULAR);
    // `rows::axis_total`, term for term.
    let a = |k: usize| g.row(IMPULSE_AXIS0 + k);
    let total = a(0) + a(1) + a(2) - a(3) + a(4);
    let torque = rotate(&qa, axis(1.0, 0.0, 0.0))
        .scale(angular.x)
        .add(rotate(&qa, axis(0.0, 1.0, 0.0)).scale(angular.y));
    let t = torque.add(rotate(&qa, axis(0.0, 0.0, 1.0)).scale(total));
    apply_angular(&g, &mut b, t, L::splat(1.0));
    b.apply(&g, g.row3(IMPULSE));
    b.store(states, &g);
}

/// The solve or relax pass over a group of revolute joints; false (nothing written) when
/// a lane's point matrix needs the masked inverse.
#[inline(always)]
pub(super) fn hinge_solve<L: Lanes>(states: &States, hd: GroupRef, p: &Pass) -> bool {
    let g = Group::<L>::load(hd);
    let mut b = Bodies::new(states, &g);
    let h = Hinge::<L>::new(&g);
    let (qa, qb) = frames(&g, &b);
    let one = L::splat(1.0);
    let (ex, ey, ez) = (
        axis(1.0, 0.0, 0.0),
        axis(0.0, 1.0, 0.0),
        axis(0.0, 0.0, 1.0),
    );
    let row = Row::angular(rotate(&qa, ez));
    let angle = twist(&qa, &qb, 2);
    // The drive: the motor, then the limits (no spring in lanes).
    let mut motor = g.row(MOTOR0);
    let mass = row.mass(&g);
    row.motor(
        &g,
        &mut b,
        mass,
        h.motor_speed,
        h.max_torque * L::splat(p.h),
        &mut motor,
        h.motor,
    );
    let (mut lower, mut upper) = (g.row(LOWER0), g.row(UPPER0));
    let limits = Bounds {
        value: angle,
        lower: h.lower,
        upper: h.upper,
        mass,
        on: h.limit,
    };
    row.bounds(&g, &mut b, limits, p, &mut lower, &mut upper);
    // The hinge lock (`solve_hinge_lock`, `solve_pair`).
    let (u1, u2) = (rotate(&qa, ex), rotate(&qa, ey));
    let e = rotate(&qa, ez).cross(rotate(&qb, ez));
    let (r1, r2) = (Row::angular(u1), Row::angular(u2));
    let (b1, ms, is) = rigid(&g, e.dot(u1), p.use_bias);
    let (b2, _, _) = rigid(&g, e.dot(u2), p.use_bias);
    let (x1, x2) = solve2(
        r1.k(&g, &r1),
        r1.k(&g, &r2),
        r2.k(&g, &r2),
        r1.speed(&b) + b1,
        r2.speed(&b) + b2,
    );
    let old = g.row3(IMPULSE_ANGULAR);
    let new1 = clamp(old.x - ms * x1 - is * old.x, MAX_IMPULSE);
    let new2 = clamp(old.y - ms * x2 - is * old.y, MAX_IMPULSE);
    r1.apply(&g, &mut b, new1 - old.x, one);
    r2.apply(&g, &mut b, new2 - old.y, one);
    // The pivot: the world's softness in the solve pass, or the joint's own in both.
    let (soft, apply) = super::wide::pivot_soft(&g, p);
    let Some(linear) = point(&g, &mut b, soft, apply, g.row3(IMPULSE)) else {
        return false;
    };
    b.store(states, &g);
    hd.set(MOTOR0, motor);
    hd.set(LOWER0, lower);
    hd.set(UPPER0, upper);
    hd.set(IMPULSE_ANGULAR, new1);
    hd.set(IMPULSE_ANGULAR + 1, new2);
    hd.set3(IMPULSE, linear);
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::lanes::F4x2;

    #[test]
    fn the_lanes_two_by_two_solve_gives_the_scalar_bits() {
        let special = [
            0.0f32,
            -0.0,
            1.0,
            -1.0,
            1e-30,
            1e30,
            f32::MIN_POSITIVE,
            1e-40,
            f32::INFINITY,
            f32::NAN,
            f32::MAX,
            0.5,
        ];
        let mut s = 0x2545_f491_4f6c_dd1du64;
        let mut next = || {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            if s % 5 == 0 {
                special[(s >> 8) as usize % special.len()]
            } else {
                let m = (s >> 40) as f32 / (1u64 << 24) as f32 - 0.3;
                m * f32::from_bits((((s >> 4) % 40) as u32 + 107) << 23)
            }
        };
        for _ in 0..20_000 {
            let v: [[f32; 8]; 5] = core::array::from_fn(|_| core::array::from_fn(|_| next()));
            let l = |k: usize| F4x2::from_fn(|i| v[k][i]);
            // Symmetric positive semi-definite in most lanes: k12 within the diagonals'.
            let (x1, x2) = solve2(l(0), l(1), l(2), l(3), l(4));
            let (x1, x2) = (x1.to_array(), x2.to_array());
            for i in 0..8 {
                let want = super::super::rows::solve2(v[0][i], v[1][i], v[2][i], v[3][i], v[4][i]);
                assert_eq!(
                    (x1[i].to_bits(), x2[i].to_bits()),
                    (want.0.to_bits(), want.1.to_bits()),
                    "lane {i}: {:?}",
                    [v[0][i], v[1][i], v[2][i], v[3][i], v[4][i]]
                );
            }
        }
    }
}
