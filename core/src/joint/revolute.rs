//! Revolute (hinge) joint: the anchors coincide and frame B turns only about frame A's z
//! axis, with an optional spring (towards angle 0), motor and angle limits.
//!
//! Impulses: `linear` the point constraint; `angular.x`, `angular.y` the hinge lock about
//! A's x and y axes; `axes[0]` spring, motor, lower and upper about the hinge.
//! Springs: `springs[0]`.
//! The limit, motor and spring are an axis drive (`axis_drive.rs`).
//!
//! Rows in order, as Box2D's revolute joint: spring, motor, limits, then the hinge lock
//! and the point, so the rigid rows have the last word.

use super::axis_drive::{Driven, driven};
use super::blocks::{solve_hinge_lock, solve_pivot, warm_point};
use super::checks::angles;
use super::rows::{Row, apply_angular, axis_total, frames, hinge_torque, twist_angle};
use super::solver::{JointConstraint, Pass};
use super::{Joint, JointImpulses, JointKind};
use crate::math::{Quat, Vec3};
use crate::solver::BodyState;

/// A revolute (hinge) joint: the anchors coincide and the frames turn only about their
/// common z axis. The angle is that of frame B about frame A's z axis, in `[-π, π]`.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct RevoluteJoint {
    /// Whether the angle is held within `[lower, upper]`.
    pub enable_limit: bool,
    /// Lowest angle, radians, within `[-π, upper]`.
    pub lower: f32,
    /// Highest angle, radians, within `[lower, π]`.
    pub upper: f32,
    /// Whether the motor drives the angular speed towards `motor_speed`.
    pub enable_motor: bool,
    /// Target angular speed of B relative to A about the axis, rad/s.
    pub motor_speed: f32,
    /// Largest torque the motor applies, N·m (≥ 0).
    pub max_motor_torque: f32,
    /// Whether a spring pulls the angle towards 0.
    pub enable_spring: bool,
    /// Spring stiffness as a frequency, Hz (0: no spring force).
    pub hertz: f32,
    /// Spring damping ratio (1: critical).
    pub damping_ratio: f32,
    /// A soft limit: its stiffness, Hz (0: a rigid limit, with the joint softness).
    /// Once reached, the limit gives like a spring of this frequency and pushes back.
    pub limit_hertz: f32,
    /// The soft limit's damping ratio (1: critical).
    pub limit_damping_ratio: f32,
}

driven!(RevoluteJoint, max_motor_torque, limits: angles, order: [Limit, Motor, Spring], soft_limit);

/// The hinge angle: frame B about frame A's z axis, radians in `[-π, π]`.
#[inline]
pub(super) fn angle(qa: Quat, qb: Quat) -> f32 {
    twist_angle(qa, qb, 2)
}

pub(super) fn prepare(c: &mut JointConstraint, j: &mut Joint, h: f32) {
    if let JointKind::Revolute(r) = j.kind {
        r.drive().prepare(c, &mut j.impulses.axes, 0, h);
    }
}

#[inline(always)]
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

#[inline(always)]
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
    let angle = angle(qa, qb);
    r.drive().solve((&row, angle), c, a, b, p, &mut i.axes[0]);
    solve_hinge_lock(c, a, b, qa, qb, p, &mut i.angular);
    solve_pivot(c, a, b, p, &mut i.linear);
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
