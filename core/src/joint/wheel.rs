//! Wheel joint: frame B slides along frame A's y axis (the suspension: a spring towards
//! translation 0 and optional limits) and spins about the frames' z axis (the axle, with
//! a motor); sliding along x and z and turning about x and y are locked.
//!
//! Impulses: `axes[0]` spring, lower and upper along the suspension; `axes[1].motor` the
//! spin motor; `linear.x`, `linear.y` the rows along A's x and z; `angular.x`,
//! `angular.y` the hinge lock. Springs: `springs[0]`.

use super::solver::{
    JointConstraint, Pass, Row, anchors, apply_angular, axis_total, frames, hinge_torque,
    separation, solve_hinge_lock, solve_pair, spring_soft,
};
use super::{Joint, JointImpulses, JointKind, WheelJoint};
use crate::math::Vec3;
use crate::solver::BodyState;

pub(super) fn prepare(c: &mut JointConstraint, j: &mut Joint, h: f32) {
    let JointKind::Wheel(k) = j.kind else {
        return;
    };
    let i = &mut j.impulses;
    if k.enable_spring && k.hertz > 0.0 {
        c.springs[0] = spring_soft(k.hertz, k.damping_ratio, h);
    } else {
        i.axes[0].spring = 0.0;
    }
    if !k.enable_limit {
        i.axes[0].lower = 0.0;
        i.axes[0].upper = 0.0;
    }
    if !k.enable_motor {
        i.axes[1].motor = 0.0;
    }
}

/// Rows along A's y (suspension), x and z, their values, and A's axes.
fn rows(c: &JointConstraint, a: &BodyState, b: &BodyState) -> ([Row; 3], [f32; 3], [Vec3; 3]) {
    let (qa, _) = frames(c, a, b);
    let (ra, rb) = anchors(c, a, b);
    let d = separation(c, a, b, ra, rb);
    let axes = [qa.rotate(Vec3::Y), qa.rotate(Vec3::X), qa.rotate(Vec3::Z)];
    (
        axes.map(|n| Row::linear(n, d + ra, rb)),
        axes.map(|n| n.dot(d)),
        axes,
    )
}

pub(super) fn warm_start(
    c: &JointConstraint,
    i: &JointImpulses,
    a: &mut BodyState,
    b: &mut BodyState,
) {
    let (rows, _, axes) = rows(c, a, b);
    rows[0].apply(c, a, b, axis_total(&i.axes[0]));
    rows[1].apply(c, a, b, i.linear.x);
    rows[2].apply(c, a, b, i.linear.y);
    let (qa, _) = frames(c, a, b);
    apply_angular(
        c,
        a,
        b,
        hinge_torque(qa, i.angular) + axes[2] * i.axes[1].motor,
    );
}

pub(super) fn solve(
    c: &JointConstraint,
    k: &WheelJoint,
    i: &mut JointImpulses,
    a: &mut BodyState,
    b: &mut BodyState,
    p: &Pass,
) {
    let (rows, values, axes) = rows(c, a, b);
    let ax = &mut i.axes[0];
    if k.enable_spring && k.hertz > 0.0 {
        rows[0].spring(c, a, b, values[0], &c.springs[0], &mut ax.spring);
    }
    if k.enable_limit {
        rows[0].lower(c, a, b, values[0] - k.lower, p, &mut ax.lower);
        rows[0].upper(c, a, b, k.upper - values[0], p, &mut ax.upper);
    }
    if k.enable_motor {
        let max = k.max_motor_torque * p.h;
        let spin = Row::angular(axes[2]);
        spin.motor(c, a, b, k.motor_speed, max, &mut i.axes[1].motor);
    }
    let (qa, qb) = frames(c, a, b);
    solve_hinge_lock(c, a, b, qa, qb, p, &mut i.angular);
    let pos = (values[1], values[2]);
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
    let (qa, _) = frames(c, a, b);
    let f = axes[0] * axis_total(&i.axes[0]) + axes[1] * i.linear.x + axes[2] * i.linear.y;
    (f, hinge_torque(qa, i.angular) + axes[2] * i.axes[1].motor)
}
