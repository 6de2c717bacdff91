//! Soft contact constraints (Box2D v3's contact solver in 3D): a normal row and two
//! friction rows per point, plus rolling resistance per manifold.
//!
//! Separation is tracked within the step from each body's own displacement of the anchor
//! (`dp + dq·r − r`), so a static or far-away body contributes exactly nothing and large
//! lever arms never cancel against each other.

use super::BodyState;
use crate::body::NONE;
use crate::contact::{mix_friction, mix_restitution};
use crate::math::{Mat3, Vec3, max, sqrt};
use crate::world::World;

/// Soft-constraint coefficients (see `make_soft`).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Softness {
    pub bias_rate: f32,
    pub mass_scale: f32,
    pub impulse_scale: f32,
}

/// One point of a contact constraint.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct ConstraintPoint {
    pub anchor_a: Vec3,
    pub anchor_b: Vec3,
    pub separation: f32,
    pub relative_velocity: f32,
    pub normal_mass: f32,
    pub tangent_mass1: f32,
    pub tangent_mass2: f32,
    pub normal_impulse: f32,
    pub tangent_impulse1: f32,
    pub tangent_impulse2: f32,
    pub max_normal_impulse: f32,
}

/// A contact prepared for the substeps.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct ContactConstraint {
    pub index_a: u32,
    pub index_b: u32,
    pub inv_mass_a: Vec3,
    pub inv_mass_b: Vec3,
    pub inv_i_a: Mat3,
    pub inv_i_b: Mat3,
    pub normal: Vec3,
    pub tangent1: Vec3,
    pub tangent2: Vec3,
    pub friction: f32,
    pub restitution: f32,
    pub rolling_resistance: f32,
    pub rolling_impulse: Vec3,
    pub rolling_mass: Mat3,
    pub softness: Softness,
    pub point_count: u32,
    pub points: [ConstraintPoint; 4],
}

const STATIC_STATE: BodyState = BodyState {
    v: Vec3::ZERO,
    w: Vec3::ZERO,
    dp: Vec3::ZERO,
    dq: crate::math::Quat::IDENTITY,
};

#[inline(always)]
fn load(states: &[BodyState], i: u32) -> BodyState {
    if i == NONE {
        STATIC_STATE
    } else {
        states[i as usize]
    }
}

/// Effective mass of a row with direction `d` and lever arms `ra`, `rb`.
#[inline(always)]
fn row_mass(c: &ContactConstraint, d: Vec3, ra: Vec3, rb: Vec3) -> f32 {
    let rna = ra.cross(d);
    let rnb = rb.cross(d);
    let k = d.dot(c.inv_mass_a.mul_elements(d))
        + d.dot(c.inv_mass_b.mul_elements(d))
        + rna.dot(c.inv_i_a.mul_vec(rna))
        + rnb.dot(c.inv_i_b.mul_vec(rnb));
    if k > 0.0 { 1.0 / k } else { 0.0 }
}

/// Builds a constraint for every touching contact of the awake set, in colour order.
pub(crate) fn prepare_contacts(world: &mut World, soft: Softness, static_soft: Softness) {
    let s = &mut world.solver;
    s.constraints.clear();
    for k in 0..s.constraint_contact.len() {
        let contact = &world.contacts[s.constraint_contact[k] as usize];
        let ia = s.solver_index[contact.body_a as usize];
        let ib = s.solver_index[contact.body_b as usize];
        let (ma, iia) = if ia == NONE {
            (Vec3::ZERO, Mat3::ZERO)
        } else {
            let p = &s.params[ia as usize];
            (p.inv_mass, p.inv_inertia)
        };
        let (mb, iib) = if ib == NONE {
            (Vec3::ZERO, Mat3::ZERO)
        } else {
            let p = &s.params[ib as usize];
            (p.inv_mass, p.inv_inertia)
        };
        let sa = &world.shapes[contact.shape_a as usize];
        let sb = &world.shapes[contact.shape_b as usize];
        let normal = contact.normal;
        let tangent1 = normal.perpendicular();
        let tangent2 = normal.cross(tangent1);
        let a_static = ma == Vec3::ZERO;
        let b_static = mb == Vec3::ZERO;
        let mut c = ContactConstraint {
            index_a: ia,
            index_b: ib,
            inv_mass_a: ma,
            inv_mass_b: mb,
            inv_i_a: iia,
            inv_i_b: iib,
            normal,
            tangent1,
            tangent2,
            friction: mix_friction(sa.friction, sb.friction),
            restitution: mix_restitution(sa.restitution, sb.restitution),
            rolling_resistance: max(sa.rolling_resistance, sb.rolling_resistance),
            rolling_impulse: contact.rolling_impulse,
            rolling_mass: Mat3::ZERO,
            softness: if a_static || b_static {
                static_soft
            } else {
                soft
            },
            point_count: contact.point_count as u32,
            points: [ConstraintPoint::default(); 4],
        };
        if c.rolling_resistance > 0.0 {
            c.rolling_mass = (iia + iib).inverse();
        } else {
            c.rolling_impulse = Vec3::ZERO;
        }
        let sta = load(&s.states, ia);
        let stb = load(&s.states, ib);
        for j in 0..contact.point_count as usize {
            let cp = &contact.points[j];
            let ra = cp.anchor_a;
            let rb = cp.anchor_b;
            let dv = (stb.v + stb.w.cross(rb)) - (sta.v + sta.w.cross(ra));
            c.points[j] = ConstraintPoint {
                anchor_a: ra,
                anchor_b: rb,
                separation: cp.separation,
                relative_velocity: normal.dot(dv),
                normal_mass: row_mass(&c, normal, ra, rb),
                tangent_mass1: row_mass(&c, tangent1, ra, rb),
                tangent_mass2: row_mass(&c, tangent2, ra, rb),
                normal_impulse: cp.normal_impulse,
                tangent_impulse1: cp.tangent_impulse.dot(tangent1),
                tangent_impulse2: cp.tangent_impulse.dot(tangent2),
                max_normal_impulse: 0.0,
            };
        }
        let ok = s.constraints.push(c);
        debug_assert!(ok);
    }
}

#[inline(always)]
fn apply(a: &mut BodyState, b: &mut BodyState, c: &ContactConstraint, ra: Vec3, rb: Vec3, p: Vec3) {
    a.v -= c.inv_mass_a.mul_elements(p);
    a.w -= c.inv_i_a.mul_vec(ra.cross(p));
    b.v += c.inv_mass_b.mul_elements(p);
    b.w += c.inv_i_b.mul_vec(rb.cross(p));
}

#[inline(always)]
fn store(states: &mut [BodyState], i: u32, s: BodyState) {
    if i != NONE {
        states[i as usize] = s;
    }
}

/// Applies the impulses kept from the last step.
pub(crate) fn warm_start(states: &mut [BodyState], constraints: &[ContactConstraint]) {
    for c in constraints {
        let mut a = load(states, c.index_a);
        let mut b = load(states, c.index_b);
        for cp in &c.points[..c.point_count as usize] {
            let p = c.normal * cp.normal_impulse
                + c.tangent1 * cp.tangent_impulse1
                + c.tangent2 * cp.tangent_impulse2;
            apply(&mut a, &mut b, c, cp.anchor_a, cp.anchor_b, p);
        }
        a.w -= c.inv_i_a.mul_vec(c.rolling_impulse);
        b.w += c.inv_i_b.mul_vec(c.rolling_impulse);
        store(states, c.index_a, a);
        store(states, c.index_b, b);
    }
}

/// One Gauss-Seidel pass: with `use_bias` the soft push-out (solve), without it the
/// relax pass that removes the push-out's velocity.
pub(crate) fn solve(
    states: &mut [BodyState],
    constraints: &mut [ContactConstraint],
    inv_h: f32,
    push_max: f32,
    use_bias: bool,
) {
    for c in constraints.iter_mut() {
        let mut a = load(states, c.index_a);
        let mut b = load(states, c.index_b);
        let n = c.normal;
        let mut total_normal = 0.0;
        let count = c.point_count as usize;
        for j in 0..count {
            let cp = c.points[j];
            let (ra, rb) = (cp.anchor_a, cp.anchor_b);
            // Current separation from each body's own motion of the anchor.
            let da = a.dp + (a.dq.rotate(ra) - ra);
            let db = b.dp + (b.dq.rotate(rb) - rb);
            let s = n.dot(db - da) + cp.separation;
            let (bias, mass_scale, impulse_scale) = if s > 0.0 {
                // Speculative: allow the approach that closes the gap this substep.
                (s * inv_h, 1.0, 0.0)
            } else if use_bias {
                let bias = max(c.softness.bias_rate * s, -push_max);
                (bias, c.softness.mass_scale, c.softness.impulse_scale)
            } else {
                (0.0, 1.0, 0.0)
            };
            let dv = (b.v + b.w.cross(rb)) - (a.v + a.w.cross(ra));
            let vn = dv.dot(n);
            let impulse =
                -cp.normal_mass * mass_scale * (vn + bias) - impulse_scale * cp.normal_impulse;
            let new_impulse = max(cp.normal_impulse + impulse, 0.0);
            let applied = new_impulse - cp.normal_impulse;
            let point = &mut c.points[j];
            point.normal_impulse = new_impulse;
            point.max_normal_impulse = max(point.max_normal_impulse, applied);
            total_normal += new_impulse;
            apply(&mut a, &mut b, c, ra, rb, n * applied);
        }
        let (t1, t2, friction) = (c.tangent1, c.tangent2, c.friction);
        for j in 0..count {
            let cp = c.points[j];
            let (ra, rb) = (cp.anchor_a, cp.anchor_b);
            let dv = (b.v + b.w.cross(rb)) - (a.v + a.w.cross(ra));
            let l1 = cp.tangent_impulse1 - cp.tangent_mass1 * dv.dot(t1);
            let l2 = cp.tangent_impulse2 - cp.tangent_mass2 * dv.dot(t2);
            // Coulomb: the friction impulse stays within the cone μ·λn.
            let limit = friction * cp.normal_impulse;
            let len2 = l1 * l1 + l2 * l2;
            let (l1, l2) = if len2 > limit * limit {
                let scale = limit / sqrt(len2);
                (l1 * scale, l2 * scale)
            } else {
                (l1, l2)
            };
            let d1 = l1 - cp.tangent_impulse1;
            let d2 = l2 - cp.tangent_impulse2;
            let point = &mut c.points[j];
            point.tangent_impulse1 = l1;
            point.tangent_impulse2 = l2;
            apply(&mut a, &mut b, c, ra, rb, t1 * d1 + t2 * d2);
        }
        if c.rolling_resistance > 0.0 {
            let dw = b.w - a.w;
            let delta = -c.rolling_mass.mul_vec(dw);
            let old = c.rolling_impulse;
            let mut acc = old + delta;
            let limit = c.rolling_resistance * total_normal;
            let len2 = acc.length_squared();
            if len2 > limit * limit {
                acc *= limit / sqrt(len2);
            }
            let d = acc - old;
            c.rolling_impulse = acc;
            a.w -= c.inv_i_a.mul_vec(d);
            b.w += c.inv_i_b.mul_vec(d);
        }
        store(states, c.index_a, a);
        store(states, c.index_b, b);
    }
}

/// Bounces: for points that approached faster than the threshold, aim for `-e` times the
/// approach speed (Box2D's restitution pass, after the substeps).
pub(crate) fn apply_restitution(
    states: &mut [BodyState],
    constraints: &mut [ContactConstraint],
    threshold: f32,
) {
    for c in constraints.iter_mut() {
        if c.restitution == 0.0 {
            continue;
        }
        let mut a = load(states, c.index_a);
        let mut b = load(states, c.index_b);
        let n = c.normal;
        for j in 0..c.point_count as usize {
            let cp = c.points[j];
            if cp.relative_velocity > -threshold || cp.max_normal_impulse == 0.0 {
                continue;
            }
            let (ra, rb) = (cp.anchor_a, cp.anchor_b);
            let dv = (b.v + b.w.cross(rb)) - (a.v + a.w.cross(ra));
            let vn = dv.dot(n);
            let impulse = -cp.normal_mass * (vn + c.restitution * cp.relative_velocity);
            let new_impulse = max(cp.normal_impulse + impulse, 0.0);
            let applied = new_impulse - cp.normal_impulse;
            let point = &mut c.points[j];
            point.normal_impulse = new_impulse;
            point.max_normal_impulse = max(point.max_normal_impulse, applied);
            apply(&mut a, &mut b, c, ra, rb, n * applied);
        }
        store(states, c.index_a, a);
        store(states, c.index_b, b);
    }
}

/// Keeps the step's impulses in the contacts for the next step's warm start.
pub(crate) fn store_impulses(world: &mut World) {
    let s = &world.solver;
    for (k, c) in s.constraints.iter().enumerate() {
        let contact = &mut world.contacts[s.constraint_contact[k] as usize];
        contact.rolling_impulse = c.rolling_impulse;
        for j in 0..c.point_count as usize {
            let cp = &c.points[j];
            let p = &mut contact.points[j];
            p.normal_impulse = cp.normal_impulse;
            p.tangent_impulse = c.tangent1 * cp.tangent_impulse1 + c.tangent2 * cp.tangent_impulse2;
            p.max_normal_impulse = cp.max_normal_impulse;
        }
    }
}
