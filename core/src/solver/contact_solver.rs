//! Soft contact constraints (Box2D v3's contact solver, in 3D), four at a time.
//!
//! Each contact has a normal row and two friction rows per manifold point, plus rolling
//! resistance. (Friction at the manifold's centroid with a twist row, as Bepu does, cut
//! the rows from 12 to 7 but let a ten-box tower rock itself over: per-point friction
//! damps the rocking that sequential normal rows start.)
//!
//! The constraints of one graph colour share no dynamic body, so they are solved four at
//! a time in `F4` lanes; the overflow colour, whose constraints may share bodies, is solved
//! one at a time in `F1` lanes. Both run the same generic code, so a lane computes
//! exactly what the one-at-a-time path computes (tested).
//!
//! Separation is tracked within the step from each body's own displacement of the anchor
//! (`dp + dq·r − r`), so a static or far-away body contributes exactly nothing and large
//! lever arms never cancel against each other.

use super::BodyState;
use super::lanes::{F1, F4, Lanes, Q, Sym3, V3};
use crate::body::NONE;
use crate::contact::{Contact, mix_friction, mix_restitution};
use crate::math::{Mat3, Vec3, max};
use crate::shape::Shape;

/// Soft-constraint coefficients (see `make_soft`).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Softness {
    pub bias_rate: f32,
    pub mass_scale: f32,
    pub impulse_scale: f32,
}

/// One manifold point of up to four contacts.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct WidePoint<L> {
    pub anchor_a: V3<L>,
    pub anchor_b: V3<L>,
    /// `r × n` for each body, and `I⁻¹ (r × n)`: the normal row's angular Jacobian and
    /// its response, fixed for the step.
    pub rn_a: V3<L>,
    pub rn_b: V3<L>,
    pub k_a: V3<L>,
    pub k_b: V3<L>,
    /// `r · n` for each body (for the exact rotated-anchor separation).
    pub r_dot_n_a: L,
    pub r_dot_n_b: L,
    pub separation: L,
    pub relative_velocity: L,
    pub normal_mass: L,
    pub normal_impulse: L,
    pub max_normal_impulse: L,
    pub tangent_mass1: L,
    pub tangent_mass2: L,
    pub tangent_impulse1: L,
    pub tangent_impulse2: L,
}

/// Up to `L::WIDTH` contacts prepared for the substeps.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct WideConstraint<L> {
    pub index_a: [u32; 4],
    pub index_b: [u32; 4],
    /// Contact slot of each lane (NONE for an empty lane).
    pub contact: [u32; 4],
    pub point_count: u32,
    pub has_rolling: bool,
    pub has_restitution: bool,
    pub inv_mass_a: V3<L>,
    pub inv_mass_b: V3<L>,
    /// `m⁻¹ ⊙ n`: the normal row's linear response.
    pub mn_a: V3<L>,
    pub mn_b: V3<L>,
    pub inv_i_a: Sym3<L>,
    pub inv_i_b: Sym3<L>,
    pub normal: V3<L>,
    pub tangent1: V3<L>,
    pub tangent2: V3<L>,
    pub friction: L,
    pub restitution: L,
    pub rolling_resistance: L,
    pub bias_rate: L,
    pub mass_scale: L,
    pub impulse_scale: L,
    pub points: [WidePoint<L>; 4],
    pub rolling_mass: Sym3<L>,
    pub rolling_impulse: V3<L>,
}

impl<L: Lanes> WideConstraint<L> {
    /// An empty constraint: every lane static, no points.
    pub(crate) fn empty() -> Self {
        WideConstraint {
            index_a: [NONE; 4],
            index_b: [NONE; 4],
            contact: [NONE; 4],
            ..Default::default()
        }
    }
}

/// What `prepare_lane` reads about a body.
#[derive(Clone, Copy)]
pub(crate) struct LaneBody {
    pub index: u32,
    pub inv_mass: Vec3,
    pub inv_inertia: Mat3,
    pub state: BodyState,
}

/// Effective mass of a row with direction `d` and lever arms `ra`, `rb`.
#[inline(always)]
fn row_mass(a: &LaneBody, b: &LaneBody, d: Vec3, ra: Vec3, rb: Vec3) -> f32 {
    let rna = ra.cross(d);
    let rnb = rb.cross(d);
    let k = d.dot(a.inv_mass.mul_elements(d))
        + d.dot(b.inv_mass.mul_elements(d))
        + rna.dot(a.inv_inertia.mul_vec(rna))
        + rnb.dot(b.inv_inertia.mul_vec(rnb));
    if k > 0.0 { 1.0 / k } else { 0.0 }
}

/// Fills lane `i` of `c` from a contact.
#[allow(clippy::too_many_arguments)]
pub(crate) fn prepare_lane<L: Lanes>(
    c: &mut WideConstraint<L>,
    i: usize,
    slot: u32,
    contact: &Contact,
    shape_a: &Shape,
    shape_b: &Shape,
    a: &LaneBody,
    b: &LaneBody,
    soft: Softness,
    static_soft: Softness,
) {
    c.index_a[i] = a.index;
    c.index_b[i] = b.index;
    c.contact[i] = slot;
    let n = contact.normal;
    let t1 = n.perpendicular();
    let t2 = n.cross(t1);
    c.inv_mass_a.set_lane(i, a.inv_mass);
    c.inv_mass_b.set_lane(i, b.inv_mass);
    c.mn_a.set_lane(i, a.inv_mass.mul_elements(n));
    c.mn_b.set_lane(i, b.inv_mass.mul_elements(n));
    c.inv_i_a.set_lane(i, &a.inv_inertia);
    c.inv_i_b.set_lane(i, &b.inv_inertia);
    c.normal.set_lane(i, n);
    c.tangent1.set_lane(i, t1);
    c.tangent2.set_lane(i, t2);
    let friction = mix_friction(shape_a.friction, shape_b.friction);
    let restitution = mix_restitution(shape_a.restitution, shape_b.restitution);
    let rolling = max(shape_a.rolling_resistance, shape_b.rolling_resistance);
    c.friction.set_lane(i, friction);
    c.restitution.set_lane(i, restitution);
    c.rolling_resistance.set_lane(i, rolling);
    c.has_restitution |= restitution > 0.0;
    let s = if a.inv_mass == Vec3::ZERO || b.inv_mass == Vec3::ZERO {
        static_soft
    } else {
        soft
    };
    c.bias_rate.set_lane(i, s.bias_rate);
    c.mass_scale.set_lane(i, s.mass_scale);
    c.impulse_scale.set_lane(i, s.impulse_scale);

    let count = contact.point_count as usize;
    if count as u32 > c.point_count {
        c.point_count = count as u32;
    }
    let (va, wa, vb, wb) = (a.state.v, a.state.w, b.state.v, b.state.w);
    for j in 0..count {
        let cp = &contact.points[j];
        let (ra, rb) = (cp.anchor_a, cp.anchor_b);
        let dv = (vb + wb.cross(rb)) - (va + wa.cross(ra));
        let p = &mut c.points[j];
        p.anchor_a.set_lane(i, ra);
        p.anchor_b.set_lane(i, rb);
        let (rna, rnb) = (ra.cross(n), rb.cross(n));
        p.rn_a.set_lane(i, rna);
        p.rn_b.set_lane(i, rnb);
        p.k_a.set_lane(i, a.inv_inertia.mul_vec(rna));
        p.k_b.set_lane(i, b.inv_inertia.mul_vec(rnb));
        p.r_dot_n_a.set_lane(i, ra.dot(n));
        p.r_dot_n_b.set_lane(i, rb.dot(n));
        p.separation.set_lane(i, cp.separation);
        p.relative_velocity.set_lane(i, n.dot(dv));
        p.normal_mass.set_lane(i, row_mass(a, b, n, ra, rb));
        p.normal_impulse.set_lane(i, cp.normal_impulse);
        p.max_normal_impulse.set_lane(i, 0.0);
        p.tangent_mass1.set_lane(i, row_mass(a, b, t1, ra, rb));
        p.tangent_mass2.set_lane(i, row_mass(a, b, t2, ra, rb));
        p.tangent_impulse1.set_lane(i, cp.tangent_impulse.dot(t1));
        p.tangent_impulse2.set_lane(i, cp.tangent_impulse.dot(t2));
    }
    if rolling > 0.0 {
        c.has_rolling = true;
        c.rolling_mass
            .set_lane(i, &(a.inv_inertia + b.inv_inertia).inverse());
        c.rolling_impulse.set_lane(i, contact.rolling_impulse);
    } else {
        c.rolling_mass.set_lane(i, &Mat3::ZERO);
        c.rolling_impulse.set_lane(i, Vec3::ZERO);
    }
}

const STATIC_STATE: BodyState = BodyState {
    v: Vec3::ZERO,
    w: Vec3::ZERO,
    dp: Vec3::ZERO,
    dq: crate::math::Quat::IDENTITY,
};

/// Velocities and motion of the bodies of every lane.
struct Gathered<L> {
    v: V3<L>,
    w: V3<L>,
    dp: V3<L>,
    dq: Q<L>,
}

#[inline(always)]
fn gather<L: Lanes>(states: &[BodyState], index: &[u32; 4]) -> Gathered<L> {
    let mut g = Gathered::<L> {
        v: V3::default(),
        w: V3::default(),
        dp: V3::default(),
        dq: Q::default(),
    };
    for (i, &k) in index.iter().enumerate().take(L::WIDTH) {
        let s = if k == NONE {
            &STATIC_STATE
        } else {
            &states[k as usize]
        };
        g.v.set_lane(i, s.v);
        g.w.set_lane(i, s.w);
        g.dp.set_lane(i, s.dp);
        g.dq.v.set_lane(i, s.dq.v());
        g.dq.w.set_lane(i, s.dq.w);
    }
    g
}

#[inline(always)]
fn gather_velocity<L: Lanes>(states: &[BodyState], index: &[u32; 4]) -> (V3<L>, V3<L>) {
    let mut v = V3::default();
    let mut w = V3::default();
    for (i, &k) in index.iter().enumerate().take(L::WIDTH) {
        let s = if k == NONE {
            &STATIC_STATE
        } else {
            &states[k as usize]
        };
        v.set_lane(i, s.v);
        w.set_lane(i, s.w);
    }
    (v, w)
}

#[inline(always)]
fn scatter<L: Lanes>(states: &mut [BodyState], index: &[u32; 4], v: &V3<L>, w: &V3<L>) {
    for (i, &k) in index.iter().enumerate().take(L::WIDTH) {
        if k != NONE {
            let s = &mut states[k as usize];
            s.v = v.lane(i);
            s.w = w.lane(i);
        }
    }
}

/// Applies impulse `p` at `ra`/`rb`.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn apply<L: Lanes>(
    c: &WideConstraint<L>,
    va: &mut V3<L>,
    wa: &mut V3<L>,
    vb: &mut V3<L>,
    wb: &mut V3<L>,
    ra: V3<L>,
    rb: V3<L>,
    p: V3<L>,
) {
    *va = va.sub(c.inv_mass_a.mul_elements(p));
    *wa = wa.sub(c.inv_i_a.mul_vec(ra.cross(p)));
    *vb = vb.add(c.inv_mass_b.mul_elements(p));
    *wb = wb.add(c.inv_i_b.mul_vec(rb.cross(p)));
}

/// Applies the impulses kept from the last step.
pub(crate) fn warm_start<L: Lanes>(states: &mut [BodyState], constraints: &[WideConstraint<L>]) {
    for c in constraints {
        let (mut va, mut wa) = gather_velocity::<L>(states, &c.index_a);
        let (mut vb, mut wb) = gather_velocity::<L>(states, &c.index_b);
        for p in &c.points[..c.point_count as usize] {
            let imp = c
                .normal
                .scale(p.normal_impulse)
                .add(c.tangent1.scale(p.tangent_impulse1))
                .add(c.tangent2.scale(p.tangent_impulse2));
            apply(
                c, &mut va, &mut wa, &mut vb, &mut wb, p.anchor_a, p.anchor_b, imp,
            );
        }
        if c.has_rolling {
            wa = wa.sub(c.inv_i_a.mul_vec(c.rolling_impulse));
            wb = wb.add(c.inv_i_b.mul_vec(c.rolling_impulse));
        }
        scatter(states, &c.index_a, &va, &wa);
        scatter(states, &c.index_b, &vb, &wb);
    }
}

/// One Gauss-Seidel pass: with `use_bias` the soft push-out (solve), without it the relax
/// pass that removes the push-out's velocity.
pub(crate) fn solve<L: Lanes>(
    states: &mut [BodyState],
    constraints: &mut [WideConstraint<L>],
    inv_h: f32,
    push_max: f32,
    use_bias: bool,
) {
    let zero = L::splat(0.0);
    let one = L::splat(1.0);
    let inv_h = L::splat(inv_h);
    let neg_push = L::splat(-push_max);
    for c in constraints.iter_mut() {
        let ga = gather::<L>(states, &c.index_a);
        let gb = gather::<L>(states, &c.index_b);
        let (mut va, mut wa, mut vb, mut wb) = (ga.v, ga.w, gb.v, gb.w);
        let n = c.normal;
        let two = L::splat(2.0);
        // n · (dq r − r) = 2w (q · (r × n)) + 2 ((q · r)(q · n) − (r · n)(q · q)), exact in
        // real arithmetic: the rotated anchor's motion along n without rotating it.
        let (qa, qb) = (ga.dq, gb.dq);
        let (qn_a, qn_b) = (qa.v.dot(n), qb.v.dot(n));
        let (qq_a, qq_b) = (qa.v.dot(qa.v), qb.v.dot(qb.v));
        let dp = n.dot(gb.dp.sub(ga.dp));
        let mut total = zero;
        for j in 0..c.point_count as usize {
            let p = &mut c.points[j];
            let da = two
                * (qa.w * qa.v.dot(p.rn_a) + (qa.v.dot(p.anchor_a) * qn_a - p.r_dot_n_a * qq_a));
            let db = two
                * (qb.w * qb.v.dot(p.rn_b) + (qb.v.dot(p.anchor_b) * qn_b - p.r_dot_n_b * qq_b));
            // Current separation from each body's own motion of the anchor.
            let s = (dp + (db - da)) + p.separation;
            // Speculative (s > 0): allow the approach that closes the gap this substep.
            let speculative = s * inv_h;
            let (bias, mass_scale, impulse_scale) = if use_bias {
                let soft = (c.bias_rate * s).max(neg_push);
                (
                    L::select_gt(s, zero, speculative, soft),
                    L::select_gt(s, zero, one, c.mass_scale),
                    L::select_gt(s, zero, zero, c.impulse_scale),
                )
            } else {
                (L::select_gt(s, zero, speculative, zero), one, zero)
            };
            let vn = n.dot(vb.sub(va)) + (wb.dot(p.rn_b) - wa.dot(p.rn_a));
            let impulse =
                -p.normal_mass * mass_scale * (vn + bias) - impulse_scale * p.normal_impulse;
            let new_impulse = (p.normal_impulse + impulse).max(zero);
            let applied = new_impulse - p.normal_impulse;
            p.normal_impulse = new_impulse;
            p.max_normal_impulse = p.max_normal_impulse.max(applied);
            total = total + new_impulse;
            va = va.sub(c.mn_a.scale(applied));
            wa = wa.sub(p.k_a.scale(applied));
            vb = vb.add(c.mn_b.scale(applied));
            wb = wb.add(p.k_b.scale(applied));
        }

        // Coulomb friction per point: the impulse stays within the cone μ·λn.
        let (t1, t2, friction) = (c.tangent1, c.tangent2, c.friction);
        let (ma, mb, ia, ib) = (c.inv_mass_a, c.inv_mass_b, c.inv_i_a, c.inv_i_b);
        for j in 0..c.point_count as usize {
            let p = &mut c.points[j];
            let (ra, rb) = (p.anchor_a, p.anchor_b);
            let dv = vb.add(wb.cross(rb)).sub(va.add(wa.cross(ra)));
            let l1 = p.tangent_impulse1 - p.tangent_mass1 * dv.dot(t1);
            let l2 = p.tangent_impulse2 - p.tangent_mass2 * dv.dot(t2);
            let limit = friction * p.normal_impulse;
            let len2 = l1 * l1 + l2 * l2;
            let scale = L::select_gt(len2, limit * limit, limit.div(len2.sqrt()), one);
            let (l1, l2) = (l1 * scale, l2 * scale);
            let d1 = l1 - p.tangent_impulse1;
            let d2 = l2 - p.tangent_impulse2;
            p.tangent_impulse1 = l1;
            p.tangent_impulse2 = l2;
            let f = t1.scale(d1).add(t2.scale(d2));
            va = va.sub(ma.mul_elements(f));
            wa = wa.sub(ia.mul_vec(ra.cross(f)));
            vb = vb.add(mb.mul_elements(f));
            wb = wb.add(ib.mul_vec(rb.cross(f)));
        }

        if c.has_rolling {
            let dw = wb.sub(wa);
            let delta = c.rolling_mass.mul_vec(dw);
            let old = c.rolling_impulse;
            let acc = old.sub(delta);
            let limit = c.rolling_resistance * total;
            let len2 = acc.dot(acc);
            let scale = L::select_gt(len2, limit * limit, limit.div(len2.sqrt()), one);
            let acc = acc.scale(scale);
            let d = acc.sub(old);
            c.rolling_impulse = acc;
            wa = wa.sub(c.inv_i_a.mul_vec(d));
            wb = wb.add(c.inv_i_b.mul_vec(d));
        }
        scatter(states, &c.index_a, &va, &wa);
        scatter(states, &c.index_b, &vb, &wb);
    }
}

/// Bounces: for points that approached faster than the threshold, aim for `-e` times the
/// approach speed (Box2D's restitution pass, after the substeps).
pub(crate) fn apply_restitution<L: Lanes>(
    states: &mut [BodyState],
    constraints: &mut [WideConstraint<L>],
    threshold: f32,
) {
    let zero = L::splat(0.0);
    let neg_threshold = L::splat(-threshold);
    for c in constraints.iter_mut() {
        if !c.has_restitution {
            continue;
        }
        let (mut va, mut wa) = gather_velocity::<L>(states, &c.index_a);
        let (mut vb, mut wb) = gather_velocity::<L>(states, &c.index_b);
        let n = c.normal;
        for j in 0..c.point_count as usize {
            let p = &mut c.points[j];
            let vn = n.dot(vb.sub(va)) + (wb.dot(p.rn_b) - wa.dot(p.rn_a));
            let impulse = -p.normal_mass * (vn + c.restitution * p.relative_velocity);
            let new_impulse = (p.normal_impulse + impulse).max(zero);
            // Only lanes that approached fast, pushed this step and bounce.
            let fast = L::select_gt(neg_threshold, p.relative_velocity, L::splat(1.0), zero);
            let pushed = L::select_gt(p.max_normal_impulse, zero, fast, zero);
            let active = L::select_gt(c.restitution, zero, pushed, zero);
            let new_impulse = L::select_gt(active, zero, new_impulse, p.normal_impulse);
            let applied = new_impulse - p.normal_impulse;
            p.normal_impulse = new_impulse;
            p.max_normal_impulse = p.max_normal_impulse.max(applied);
            va = va.sub(c.mn_a.scale(applied));
            wa = wa.sub(p.k_a.scale(applied));
            vb = vb.add(c.mn_b.scale(applied));
            wb = wb.add(p.k_b.scale(applied));
        }
        scatter(states, &c.index_a, &va, &wa);
        scatter(states, &c.index_b, &vb, &wb);
    }
}

/// Keeps the step's impulses in the contacts for the next step's warm start.
pub(crate) fn store_impulses<L: Lanes>(
    contacts: &mut [Contact],
    constraints: &[WideConstraint<L>],
) {
    for c in constraints {
        for i in 0..L::WIDTH {
            let slot = c.contact[i];
            if slot == NONE {
                continue;
            }
            let contact = &mut contacts[slot as usize];
            for j in 0..contact.point_count as usize {
                let p = &c.points[j];
                let cp = &mut contact.points[j];
                cp.normal_impulse = p.normal_impulse.lane(i);
                cp.max_normal_impulse = p.max_normal_impulse.lane(i);
                cp.tangent_impulse = c.tangent1.lane(i) * p.tangent_impulse1.lane(i)
                    + c.tangent2.lane(i) * p.tangent_impulse2.lane(i);
            }
            contact.rolling_impulse = c.rolling_impulse.lane(i);
        }
    }
}

/// The two constraint arrays of a step: colours solved four at a time, and the overflow
/// (or every colour, when the world solves one at a time) solved one at a time.
pub(crate) struct Constraints {
    pub wide: crate::alloc::FixedVec<WideConstraint<F4>>,
    pub single: crate::alloc::FixedVec<WideConstraint<F1>>,
}
