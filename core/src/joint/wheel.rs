//! Wheel joint: frame B slides along frame A's y axis (the suspension: a spring towards
//! translation 0 and optional limits) and spins about the frames' z axis (the axle, with
//! a motor); sliding along x and z and turning about x and y are locked.
//!
//! Impulses: `axes[0]` spring, lower and upper along the suspension; `axes[1].motor` the
//! spin motor; `linear.x`, `linear.y` the rows along A's x and z; `angular.x`,
//! `angular.y` the hinge lock. Springs: `springs[0]`.
//! The limit, motor and spring are an axis drive (`axis_drive.rs`).

use super::axis_drive::{Driven, driven};
use super::blocks::{Slide, solve_hinge_lock};
use super::checks::translations;
use super::rows::{Row, apply_angular, frames, hinge_torque};
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

/// Frame A's axes of the slide: the suspension along y, locked along x and z (the axle).
const SLIDE: [Vec3; 3] = [Vec3::Y, Vec3::X, Vec3::Z];

pub(super) fn warm_start(
    c: &JointConstraint,
    i: &JointImpulses,
    a: &mut BodyState,
    b: &mut BodyState,
) {
    let slide = Slide::new(c, a, b, SLIDE);
    slide.warm_start(c, i, a, b);
    let (qa, _) = frames(c, a, b);
    let spin = slide.axes[2] * i.axes[1].motor;
    apply_angular(c, a, b, hinge_torque(qa, i.angular) + spin);
}

pub(super) fn solve(
    c: &JointConstraint,
    k: &WheelJoint,
    i: &mut JointImpulses,
    a: &mut BodyState,
    b: &mut BodyState,
    p: &Pass,
) {
    let slide = Slide::new(c, a, b, SLIDE);
    let drive = k.drive();
    drive.spring(slide.driven(), c, a, b, &mut i.axes[0].spring);
    drive.limits(slide.driven(), c, a, b, p, &mut i.axes[0]);
    let spin = Row::angular(slide.axes[2]);
    drive.motor(&spin, c, a, b, p, &mut i.axes[1].motor);
    let (qa, qb) = frames(c, a, b);
    solve_hinge_lock(c, a, b, qa, qb, p, &mut i.angular);
    slide.solve_across(c, i, a, b, p);
}

pub(super) fn reaction(
    c: &JointConstraint,
    i: &JointImpulses,
    a: &BodyState,
    b: &BodyState,
) -> (Vec3, Vec3) {
    let slide = Slide::new(c, a, b, SLIDE);
    let (qa, _) = frames(c, a, b);
    let spin = slide.axes[2] * i.axes[1].motor;
    (slide.force(i), hinge_torque(qa, i.angular) + spin)
}
