//! Revolute (hinge) joint: the anchors coincide and frame B turns only about frame A's z
//! axis, with an optional spring (towards angle 0), motor and angle limits.
//!
//! Impulses: `linear` the point constraint; `angular.x`, `angular.y` the hinge lock about
//! A's x and y axes; `axes[0]` spring, motor, lower and upper about the hinge.
//! Springs: `springs[0]`.
//!
//! Rows in order, as Box2D's revolute joint: spring, motor, limits, then the hinge lock
//! and the point, so the rigid rows have the last word.

use super::solver::{
    JointConstraint, Pass, Row, apply_angular, axis_total, frames, hinge_torque, solve_hinge_lock,
    solve_point, spring_soft, twist_angle, warm_point,
};
use super::{Joint, JointImpulses, JointKind, RevoluteJoint};
use crate::math::Vec3;
use crate::solver::BodyState;

pub(super) fn prepare(c: &mut JointConstraint, j: &mut Joint, h: f32) {
    let JointKind::Revolute(r) = j.kind else {
        return;
    };
    let ax = &mut j.impulses.axes[0];
    if r.enable_spring && r.hertz > 0.0 {
        c.springs[0] = spring_soft(r.hertz, r.damping_ratio, h);
    } else {
        ax.spring = 0.0;
    }
    if !r.enable_motor {
        ax.motor = 0.0;
    }
    if !r.enable_limit {
        ax.lower = 0.0;
        ax.upper = 0.0;
    }
}

pub(super) fn warm_start(
    c: &JointConstraint,
    i: &JointImpulses,
    a: &mut BodyState,
    b: &mut BodyState,
) {
    let (qa, _) = frames(c, a, b);
    let t = hinge_torque(qa, i.angular) + qa.rotate(Vec3::Z) * axis_total(&i.axes[0]);
    apply_angular(c, a, b, t);
    warm_point(c, a, b, i.linear);
}

pub(super) fn solve(
    c: &JointConstraint,
    r: &RevoluteJoint,
    i: &mut JointImpulses,
    a: &mut BodyState,
    b: &mut BodyState,
    p: &Pass,
) {
    let (qa, qb) = frames(c, a, b);
    let row = Row::angular(qa.rotate(Vec3::Z));
    let angle = twist_angle(qa, qb, 2);
    let ax = &mut i.axes[0];
    if r.enable_spring && r.hertz > 0.0 {
        row.spring(c, a, b, angle, &c.springs[0], &mut ax.spring);
    }
    if r.enable_motor {
        let max = r.max_motor_torque * p.h;
        row.motor(c, a, b, r.motor_speed, max, &mut ax.motor);
    }
    if r.enable_limit {
        row.lower(c, a, b, angle - r.lower, p, &mut ax.lower);
        row.upper(c, a, b, r.upper - angle, p, &mut ax.upper);
    }
    solve_hinge_lock(c, a, b, qa, qb, p, &mut i.angular);
    solve_point(c, a, b, &c.soft, p.use_bias, &mut i.linear);
}

pub(super) fn reaction(
    c: &JointConstraint,
    i: &JointImpulses,
    a: &BodyState,
    b: &BodyState,
) -> (Vec3, Vec3) {
    let (qa, _) = frames(c, a, b);
    let t = hinge_torque(qa, i.angular) + qa.rotate(Vec3::Z) * axis_total(&i.axes[0]);
    (i.linear, t)
}
