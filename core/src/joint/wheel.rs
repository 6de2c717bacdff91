//! Wheel joint: frame B slides along frame A's y axis (the suspension: a spring towards
//! translation 0 and optional limits) and spins about the frames' z axis (the axle, with
//! a motor); sliding along x and z and turning about x and y are locked.
//!
//! Impulses: `axes[0]` spring, lower and upper along the suspension; `axes[1].motor` the
//! spin motor; `linear.x`, `linear.y` the rows along A's x and z; `angular.x`,
//! `angular.y` the hinge lock. Springs: `springs[0]`.
//! The limit, motor and spring are an axis drive (`axis_drive.rs`).

use super::axis_drive::{Driven, driven};
use super::blocks::solve_hinge_lock;
use super::checks::translations;
use super::rows::{
    Row, anchors, apply_angular, axis_total, frames, hinge_torque, separation, solve_pair,
};
use super::solver::{JointConstraint, Pass};
use super::{Joint, JointImpulses, JointKind};
use crate::math::Vec3;
use crate::solver::BodyState;

/// A wheel joint: frame B slides along frame A's y axis (the suspension, with a spring and
/// optional limits) and spins freely about the frames' z axis (the axle, with a motor);
/// every other motion is locked.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WheelJoint {
    /// Whether the suspension spring acts.
    pub enable_spring: bool,
    /// Suspension stiffness, Hz (0: no spring force).
    pub hertz: f32,
    /// Suspension damping ratio.
    pub damping_ratio: f32,
    /// Whether the suspension travel is held within `[lower, upper]`.
    pub enable_limit: bool,
    /// Lowest suspension translation, m.
    pub lower: f32,
    /// Highest suspension translation, m.
    pub upper: f32,
    /// Whether the motor drives the spin towards `motor_speed`.
    pub enable_motor: bool,
    /// Target spin of B relative to A about the axle, rad/s.
    pub motor_speed: f32,
    /// Largest torque the motor applies, N·m.
    pub max_motor_torque: f32,
}

impl Default for WheelJoint {
    fn default() -> WheelJoint {
        WheelJoint {
            enable_spring: true,
            hertz: 1.0,
            damping_ratio: 0.7,
            enable_limit: false,
            lower: 0.0,
            upper: 0.0,
            enable_motor: false,
            motor_speed: 0.0,
            max_motor_torque: 0.0,
        }
    }
}

driven!(WheelJoint, max_motor_torque, limits: translations, order: [Spring, Limit, Motor]);

pub(super) fn prepare(c: &mut JointConstraint, j: &mut Joint, h: f32) {
    if let JointKind::Wheel(k) = j.kind {
        k.drive().prepare(c, &mut j.impulses.axes, 1, h);
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
    let (drive, suspension) = (k.drive(), (&rows[0], values[0]));
    drive.spring(suspension, c, a, b, &mut i.axes[0].spring);
    drive.limits(suspension, c, a, b, p, &mut i.axes[0]);
    drive.motor(&Row::angular(axes[2]), c, a, b, p, &mut i.axes[1].motor);
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
