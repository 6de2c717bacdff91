//! Prismatic (slider) joint: frame B slides along frame A's x axis and keeps its
//! orientation, with an optional spring (towards translation 0), motor and limits.
//!
//! Impulses: `axes[0]` spring, motor, lower and upper along the axis; `linear.x`,
//! `linear.y` the two perpendicular rows (A's y and z); `angular` the rotation lock.
//! Springs: `springs[0]`.

use super::blocks::{angular_mass, solve_angular_lock};
use super::checks::{damping, force, hertz, speed, translations};
use super::rows::{
    Row, anchors, apply_angular, axis_total, frames, separation, solve_pair, spring_soft,
};
use super::solver::{JointConstraint, Pass};
use super::{Joint, JointImpulses, JointKind};
use crate::codec::{Dec, Enc, Sink};
use crate::error::Result;
use crate::math::Vec3;
use crate::solver::BodyState;

/// A prismatic (slider) joint: frame B slides along frame A's x axis and does not turn.
/// The translation is the anchors' offset along that axis.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PrismaticJoint {
    /// Whether the translation is held within `[lower, upper]`.
    pub enable_limit: bool,
    /// Lowest translation, m.
    pub lower: f32,
    /// Highest translation, m.
    pub upper: f32,
    /// Whether the motor drives the sliding speed towards `motor_speed`.
    pub enable_motor: bool,
    /// Target speed of B relative to A along the axis, m/s.
    pub motor_speed: f32,
    /// Largest force the motor applies, N (≥ 0).
    pub max_motor_force: f32,
    /// Whether a spring pulls the translation towards 0.
    pub enable_spring: bool,
    /// Spring stiffness as a frequency, Hz (0: no spring force).
    pub hertz: f32,
    /// Spring damping ratio.
    pub damping_ratio: f32,
}

impl Default for PrismaticJoint {
    fn default() -> PrismaticJoint {
        PrismaticJoint {
            enable_limit: false,
            lower: 0.0,
            upper: 0.0,
            enable_motor: false,
            motor_speed: 0.0,
            max_motor_force: 0.0,
            enable_spring: false,
            hertz: 0.0,
            damping_ratio: 0.0,
        }
    }
}

impl PrismaticJoint {
    /// Checks every setting.
    pub(super) fn check(&self) -> Result<()> {
        translations(("lower", "upper"), self.lower, self.upper)?;
        speed("motor_speed", self.motor_speed)?;
        force("max_motor_force", self.max_motor_force)?;
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

    /// Sets the motor's largest force (checked by the caller).
    pub(super) fn set_max_motor_force(&mut self, max: f32) {
        self.max_motor_force = max;
    }

    pub(super) fn set_enable_limit(&mut self, enable: bool) {
        self.enable_limit = enable;
    }

    /// Sets the translation limits, checked here: within ±1e6 m.
    pub(super) fn set_limits(&mut self, lower: f32, upper: f32) -> Result<()> {
        translations(("lower", "upper"), lower, upper)?;
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
        e.f32(self.max_motor_force);
        e.bool(self.enable_spring);
        e.f32(self.hertz);
        e.f32(self.damping_ratio);
    }

    pub(super) fn decode(d: &mut Dec) -> Result<PrismaticJoint> {
        Ok(PrismaticJoint {
            enable_limit: d.bool()?,
            lower: d.f32()?,
            upper: d.f32()?,
            enable_motor: d.bool()?,
            motor_speed: d.f32()?,
            max_motor_force: d.f32()?,
            enable_spring: d.bool()?,
            hertz: d.f32()?,
            damping_ratio: d.f32()?,
        })
    }
}

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
