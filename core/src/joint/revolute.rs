//! Revolute (hinge) joint: the anchors coincide and frame B turns only about frame A's z
//! axis, with an optional spring (towards angle 0), motor and angle limits.
//!
//! Impulses: `linear` the point constraint; `angular.x`, `angular.y` the hinge lock about
//! A's x and y axes; `axes[0]` spring, motor, lower and upper about the hinge.
//! Springs: `springs[0]`.
//!
//! Rows in order, as Box2D's revolute joint: spring, motor, limits, then the hinge lock
//! and the point, so the rigid rows have the last word.

use super::blocks::{solve_hinge_lock, solve_point, warm_point};
use super::checks::{angles, damping, force, hertz, speed};
use super::rows::{Row, apply_angular, axis_total, frames, hinge_torque, spring_soft, twist_angle};
use super::solver::{JointConstraint, Pass};
use super::{Joint, JointImpulses, JointKind};
use crate::codec::{Dec, Enc, Sink};
use crate::error::Result;
use crate::math::{Quat, Vec3};
use crate::solver::BodyState;

/// A revolute (hinge) joint: the anchors coincide and the frames turn only about their
/// common z axis. The angle is that of frame B about frame A's z axis, in `[-π, π]`.
#[derive(Clone, Copy, Debug, PartialEq)]
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
}

impl Default for RevoluteJoint {
    fn default() -> RevoluteJoint {
        RevoluteJoint {
            enable_limit: false,
            lower: 0.0,
            upper: 0.0,
            enable_motor: false,
            motor_speed: 0.0,
            max_motor_torque: 0.0,
            enable_spring: false,
            hertz: 0.0,
            damping_ratio: 0.0,
        }
    }
}

impl RevoluteJoint {
    /// Checks every setting.
    pub(super) fn check(&self) -> Result<()> {
        angles(("lower", "upper"), self.lower, self.upper)?;
        speed("motor_speed", self.motor_speed)?;
        force("max_motor_torque", self.max_motor_torque)?;
        hertz("hertz", self.hertz)?;
        damping("damping_ratio", self.damping_ratio)
    }

    pub(super) fn set_enable_motor(&mut self, enable: bool) {
        self.enable_motor = enable;
    }

    /// Sets the motor speed (checked by the caller).
    pub(super) fn set_motor_speed(&mut self, motor_speed: f32) {
        self.motor_speed = motor_speed;
    }

    /// Sets the motor's largest torque (checked by the caller).
    pub(super) fn set_max_motor_force(&mut self, max: f32) {
        self.max_motor_torque = max;
    }

    pub(super) fn set_enable_limit(&mut self, enable: bool) {
        self.enable_limit = enable;
    }

    /// Sets the angle limits, checked here: radians within `[-π, π]`.
    pub(super) fn set_limits(&mut self, lower: f32, upper: f32) -> Result<()> {
        angles(("lower", "upper"), lower, upper)?;
        (self.lower, self.upper) = (lower, upper);
        Ok(())
    }

    pub(super) fn set_enable_spring(&mut self, enable: bool) {
        self.enable_spring = enable;
    }

    /// Sets the spring (checked by the caller).
    pub(super) fn set_spring(&mut self, hz: f32, damping_ratio: f32) {
        (self.hertz, self.damping_ratio) = (hz, damping_ratio);
    }

    pub(super) fn encode<S: Sink>(&self, e: &mut Enc<S>) {
        e.bool(self.enable_limit);
        e.f32(self.lower);
        e.f32(self.upper);
        e.bool(self.enable_motor);
        e.f32(self.motor_speed);
        e.f32(self.max_motor_torque);
        e.bool(self.enable_spring);
        e.f32(self.hertz);
        e.f32(self.damping_ratio);
    }

    pub(super) fn decode(d: &mut Dec) -> Result<RevoluteJoint> {
        Ok(RevoluteJoint {
            enable_limit: d.bool()?,
            lower: d.f32()?,
            upper: d.f32()?,
            enable_motor: d.bool()?,
            motor_speed: d.f32()?,
            max_motor_torque: d.f32()?,
            enable_spring: d.bool()?,
            hertz: d.f32()?,
            damping_ratio: d.f32()?,
        })
    }
}

/// The hinge angle: frame B about frame A's z axis, radians in `[-π, π]`.
#[inline]
pub(super) fn angle(qa: Quat, qb: Quat) -> f32 {
    twist_angle(qa, qb, 2)
}

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
    let angle = angle(qa, qb);
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
