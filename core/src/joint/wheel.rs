//! Wheel joint: frame B slides along frame A's y axis (the suspension: a spring towards
//! translation 0 and optional limits) and spins about the frames' z axis (the axle, with
//! a motor); sliding along x and z and turning about x and y are locked.
//!
//! Impulses: `axes[0]` spring, lower and upper along the suspension; `axes[1].motor` the
//! spin motor; `linear.x`, `linear.y` the rows along A's x and z; `angular.x`,
//! `angular.y` the hinge lock. Springs: `springs[0]`.

use super::blocks::solve_hinge_lock;
use super::checks::{damping, force, hertz, speed, translations};
use super::rows::{
    Row, anchors, apply_angular, axis_total, frames, hinge_torque, separation, solve_pair,
    spring_soft,
};
use super::solver::{JointConstraint, Pass};
use super::{Joint, JointImpulses, JointKind};
use crate::codec::{Dec, Enc, Sink};
use crate::error::Result;
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

impl WheelJoint {
    /// Checks every setting.
    pub(super) fn check(&self) -> Result<()> {
        hertz("hertz", self.hertz)?;
        damping("damping_ratio", self.damping_ratio)?;
        translations(("lower", "upper"), self.lower, self.upper)?;
        speed("motor_speed", self.motor_speed)?;
        force("max_motor_torque", self.max_motor_torque)
    }

    pub(super) fn set_enable_motor(&mut self, enable: bool) {
        self.enable_motor = enable;
    }

    /// Sets the spin motor's speed (checked by the caller).
    pub(super) fn set_motor_speed(&mut self, motor_speed: f32) {
        self.motor_speed = motor_speed;
    }

    /// Sets the spin motor's largest torque (checked by the caller).
    pub(super) fn set_max_motor_force(&mut self, max: f32) {
        self.max_motor_torque = max;
    }

    pub(super) fn set_enable_limit(&mut self, enable: bool) {
        self.enable_limit = enable;
    }

    /// Sets the suspension limits, checked here: within ±1e6 m.
    pub(super) fn set_limits(&mut self, lower: f32, upper: f32) -> Result<()> {
        translations(("lower", "upper"), lower, upper)?;
        (self.lower, self.upper) = (lower, upper);
        Ok(())
    }

    pub(super) fn set_enable_spring(&mut self, enable: bool) {
        self.enable_spring = enable;
    }

    /// Sets the suspension spring (checked by the caller).
    pub(super) fn set_spring(&mut self, hz: f32, damping_ratio: f32) {
        (self.hertz, self.damping_ratio) = (hz, damping_ratio);
    }

    pub(super) fn encode<S: Sink>(&self, e: &mut Enc<S>) {
        e.bool(self.enable_spring);
        e.f32(self.hertz);
        e.f32(self.damping_ratio);
        e.bool(self.enable_limit);
        e.f32(self.lower);
        e.f32(self.upper);
        e.bool(self.enable_motor);
        e.f32(self.motor_speed);
        e.f32(self.max_motor_torque);
    }

    pub(super) fn decode(d: &mut Dec) -> Result<WheelJoint> {
        Ok(WheelJoint {
            enable_spring: d.bool()?,
            hertz: d.f32()?,
            damping_ratio: d.f32()?,
            enable_limit: d.bool()?,
            lower: d.f32()?,
            upper: d.f32()?,
            enable_motor: d.bool()?,
            motor_speed: d.f32()?,
            max_motor_torque: d.f32()?,
        })
    }
}

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
