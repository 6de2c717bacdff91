//! Prismatic (slider) joint: frame B slides along frame A's x axis and keeps its
//! orientation, with an optional spring (towards translation 0), motor and limits.
//!
//! Impulses: `axes[0]` spring, motor, lower and upper along the axis; `linear.x`,
//! `linear.y` the two perpendicular rows (A's y and z); `angular` the rotation lock.
//! Springs: `springs[0]`.

use super::solver::{
    JointConstraint, Pass, Row, anchors, angular_mass, apply_angular, axis_total, frames,
    separation, solve_angular_lock, solve_pair, spring_soft,
};
use super::{Joint, JointImpulses, JointKind, PrismaticJoint};
use crate::math::Vec3;
use crate::solver::BodyState;

pub(super) fn prepare(c: &mut JointConstraint, j: &mut Joint, h: f32) {
    let JointKind::Prismatic(k) = j.kind else {
        return;
    };
    c.angular_mass = angular_mass(c);
    let ax = &mut j.impulses.axes[0];
    if k.enable_spring && k.hertz > 0.0 {
        c.springs[0] = spring_soft(k.hertz, k.damping_ratio, h);
    } else {
        ax.spring = 0.0;
    }
    if !k.enable_motor {
        ax.motor = 0.0;
    }
    if !k.enable_limit {
        ax.lower = 0.0;
        ax.upper = 0.0;
    }
}

/// The slide row and the two perpendicular rows now, and the anchors' offset.
fn rows(c: &JointConstraint, a: &BodyState, b: &BodyState) -> ([Row; 3], Vec3, [Vec3; 3]) {
    let (qa, _) = frames(c, a, b);
    let (ra, rb) = anchors(c, a, b);
    let d = separation(c, a, b, ra, rb);
    let lever = d + ra;
    let axes = [qa.rotate(Vec3::X), qa.rotate(Vec3::Y), qa.rotate(Vec3::Z)];
    let rows = axes.map(|n| Row::linear(n, lever, rb));
    (rows, d, axes)
}

pub(super) fn warm_start(
    c: &JointConstraint,
    i: &JointImpulses,
    a: &mut BodyState,
    b: &mut BodyState,
) {
    let (rows, _, _) = rows(c, a, b);
    rows[0].apply(c, a, b, axis_total(&i.axes[0]));
    rows[1].apply(c, a, b, i.linear.x);
    rows[2].apply(c, a, b, i.linear.y);
    apply_angular(c, a, b, i.angular);
}

pub(super) fn solve(
    c: &JointConstraint,
    k: &PrismaticJoint,
    i: &mut JointImpulses,
    a: &mut BodyState,
    b: &mut BodyState,
    p: &Pass,
) {
    let (rows, d, axes) = rows(c, a, b);
    let translation = axes[0].dot(d);
    let ax = &mut i.axes[0];
    if k.enable_spring && k.hertz > 0.0 {
        rows[0].spring(c, a, b, translation, &c.springs[0], &mut ax.spring);
    }
    if k.enable_motor {
        let max = k.max_motor_force * p.h;
        rows[0].motor(c, a, b, k.motor_speed, max, &mut ax.motor);
    }
    if k.enable_limit {
        rows[0].lower(c, a, b, translation - k.lower, p, &mut ax.lower);
        rows[0].upper(c, a, b, k.upper - translation, p, &mut ax.upper);
    }
    let (qa, qb) = frames(c, a, b);
    solve_angular_lock(c, a, b, qa, qb, &c.soft, p.use_bias, &mut i.angular);
    let pos = (axes[1].dot(d), axes[2].dot(d));
    let (lx, ly) = (&mut i.linear.x, &mut i.linear.y);
    solve_pair(c, a, b, &rows[1], &rows[2], pos, p, (lx, ly));
}

pub(super) fn reaction(
    c: &JointConstraint,
    i: &JointImpulses,
    a: &BodyState,
    b: &BodyState,
) -> (Vec3, Vec3) {
    let (_, _, axes) = rows(c, a, b);
    let f = axes[0] * axis_total(&i.axes[0]) + axes[1] * i.linear.x + axes[2] * i.linear.y;
    (f, i.angular)
}
