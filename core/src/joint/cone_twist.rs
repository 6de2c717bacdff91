//! Cone-twist joint (a ragdoll's shoulder, hip or neck): the anchors coincide, frame B's
//! x axis stays within a cone of half-angle `swing_limit` around frame A's x axis, and
//! the twist of B about x (the twist of a swing-twist decomposition) stays within
//! `[twist_lower, twist_upper]`. An optional friction resists any relative turning.
//!
//! Impulses: `linear` the point constraint; `angular` the friction (world vector);
//! `axes[0].upper` the swing limit, along the axis that widens the swing; `axes[1].lower`
//! and `.upper` the twist limits.

use super::blocks::{angular_mass, solve_point, warm_point};
use super::checks::{angles, force, range};
use super::rows::{Row, apply_angular, frames, twist_angle};
use super::solver::{JointConstraint, Pass};
use super::{Joint, JointImpulses, JointKind};
use crate::codec::{Dec, Enc, Sink};
use crate::error::Result;
use crate::math::{PI, Quat, Vec3, atan2};
use crate::solver::BodyState;

/// A cone-twist joint (a ragdoll's shoulder or hip): the anchors coincide, frame B's x
/// axis stays within a cone of half-angle `swing_limit` around frame A's x axis, and the
/// twist about x stays within `[twist_lower, twist_upper]`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ConeTwistJoint {
    /// Half-angle of the cone, radians, within `[0, π]` (π: no swing limit).
    pub swing_limit: f32,
    /// Lowest twist, radians, within `[-π, twist_upper]`.
    pub twist_lower: f32,
    /// Highest twist, radians, within `[twist_lower, π]`.
    pub twist_upper: f32,
    /// Friction: the largest torque, N·m, that resists any relative turning (0: none).
    pub max_friction_torque: f32,
}

impl Default for ConeTwistJoint {
    fn default() -> ConeTwistJoint {
        ConeTwistJoint {
            swing_limit: 0.25 * PI,
            twist_lower: -0.25 * PI,
            twist_upper: 0.25 * PI,
            max_friction_torque: 0.0,
        }
    }
}

impl ConeTwistJoint {
    /// Checks every setting.
    pub(super) fn check(&self) -> Result<()> {
        ConeTwistJoint::check_swing_limit(self.swing_limit)?;
        angles(
            ("twist_lower", "twist_upper"),
            self.twist_lower,
            self.twist_upper,
        )?;
        force("max_friction_torque", self.max_friction_torque)
    }

    /// Checks a swing limit: radians within `[0, π]`.
    pub(super) fn check_swing_limit(swing_limit: f32) -> Result<()> {
        range("swing_limit", swing_limit, 0.0, PI, "within [0, π] radians")
    }

    /// Sets the swing limit (checked by the caller with `check_swing_limit`).
    pub(super) fn set_swing_limit(&mut self, swing_limit: f32) {
        self.swing_limit = swing_limit;
    }

    /// Sets the friction torque (the joint's "motor force"; checked by the caller).
    pub(super) fn set_max_motor_force(&mut self, max: f32) {
        self.max_friction_torque = max;
    }

    /// Sets the twist limits, checked here: radians within `[-π, π]`.
    pub(super) fn set_limits(&mut self, lower: f32, upper: f32) -> Result<()> {
        angles(("twist_lower", "twist_upper"), lower, upper)?;
        (self.twist_lower, self.twist_upper) = (lower, upper);
        Ok(())
    }

    pub(super) fn encode<S: Sink>(&self, e: &mut Enc<S>) {
        e.f32(self.swing_limit);
        e.f32(self.twist_lower);
        e.f32(self.twist_upper);
        e.f32(self.max_friction_torque);
    }

    pub(super) fn decode(d: &mut Dec) -> Result<ConeTwistJoint> {
        Ok(ConeTwistJoint {
            swing_limit: d.f32()?,
            twist_lower: d.f32()?,
            twist_upper: d.f32()?,
            max_friction_torque: d.f32()?,
        })
    }
}

pub(super) fn prepare(c: &mut JointConstraint, j: &mut Joint, _h: f32) {
    let JointKind::ConeTwist(k) = j.kind else {
        return;
    };
    if k.max_friction_torque > 0.0 {
        c.angular_mass = angular_mass(c);
    } else {
        j.impulses.angular = Vec3::ZERO;
    }
    if !swing_limited(&k) {
        j.impulses.axes[0].upper = 0.0;
    }
    if !twist_limited(&k) {
        j.impulses.axes[1].lower = 0.0;
        j.impulses.axes[1].upper = 0.0;
    }
}

fn swing_limited(k: &ConeTwistJoint) -> bool {
    k.swing_limit < PI
}

fn twist_limited(k: &ConeTwistJoint) -> bool {
    k.twist_lower > -PI || k.twist_upper < PI
}

/// The axis along which the swing widens, and the swing angle (between the frames' x
/// axes). Anti-parallel axes swing about a fixed perpendicular of A's.
#[inline(always)]
fn swing(qa: Quat, qb: Quat) -> (Vec3, f32) {
    let (xa, xb) = (qa.rotate(Vec3::X), qb.rotate(Vec3::X));
    let (n, s) = xa.cross(xb).normalize_and_length();
    let cos = xa.dot(xb);
    if s > 0.0 {
        (n, atan2(s, cos))
    } else if cos < 0.0 {
        (xa.perpendicular(), PI)
    } else {
        (Vec3::ZERO, 0.0)
    }
}

/// The twist row's axis: with `q = swing · twist`, the twist angle's rate is
/// `ω·(x_a + x_b) / (1 + x_a·x_b)` (the bisector of the frames' x axes, scaled so swing
/// rates drop out). Zero near a half-turn swing, where the twist is undefined.
#[inline(always)]
fn twist_axis(qa: Quat, qb: Quat) -> Vec3 {
    let (xa, xb) = (qa.rotate(Vec3::X), qb.rotate(Vec3::X));
    let den = 1.0 + xa.dot(xb);
    if den > 1.0e-3 {
        (xa + xb) * (1.0 / den)
    } else {
        Vec3::ZERO
    }
}

/// The limits' and the friction's angular impulse on B.
fn limit_torque(i: &JointImpulses, qa: Quat, qb: Quat) -> Vec3 {
    let (n, _) = swing(qa, qb);
    let tw = &i.axes[1];
    i.angular - n * i.axes[0].upper + twist_axis(qa, qb) * (tw.lower - tw.upper)
}

#[inline(always)]
pub(super) fn warm_start(
    c: &JointConstraint,
    i: &JointImpulses,
    a: &mut BodyState,
    b: &mut BodyState,
) {
    let (qa, qb) = frames(c, a, b);
    apply_angular(c, a, b, limit_torque(i, qa, qb));
    warm_point(c, a, b, i.linear);
}

#[inline(always)]
pub(super) fn solve(
    c: &JointConstraint,
    k: &ConeTwistJoint,
    i: &mut JointImpulses,
    a: &mut BodyState,
    b: &mut BodyState,
    p: &Pass,
) {
    let (qa, qb) = frames(c, a, b);
    if k.max_friction_torque > 0.0 {
        let x = c.angular_mass.mul_vec(b.w - a.w);
        let old = i.angular;
        let mut new = old - x;
        let max = crate::math::min(k.max_friction_torque * p.h, crate::limits::MAX_IMPULSE);
        let len = new.length();
        if len > max {
            new *= max / len;
        }
        // Scaling onto the bound can round a component a step past it.
        let new = crate::limits::clamp_abs(new, crate::limits::MAX_IMPULSE);
        i.angular = new;
        apply_angular(c, a, b, new - old);
    }
    if swing_limited(k) {
        let (n, angle) = swing(qa, qb);
        if n == Vec3::ZERO {
            i.axes[0].upper = 0.0;
        } else {
            let gap = k.swing_limit - angle;
            Row::angular(n).upper(c, a, b, gap, p, &mut i.axes[0].upper);
        }
    }
    let axis = twist_axis(qa, qb);
    if twist_limited(k) && axis != Vec3::ZERO {
        let row = Row::angular(axis);
        let twist = twist_angle(qa, qb, 0);
        let tw = &mut i.axes[1];
        row.lower(c, a, b, twist - k.twist_lower, p, &mut tw.lower);
        row.upper(c, a, b, k.twist_upper - twist, p, &mut tw.upper);
    }
    solve_point(c, a, b, &c.soft, p.use_bias, &mut i.linear);
}

pub(super) fn reaction(
    c: &JointConstraint,
    i: &JointImpulses,
    a: &BodyState,
    b: &BodyState,
) -> (Vec3, Vec3) {
    let (qa, qb) = frames(c, a, b);
    (i.linear, limit_torque(i, qa, qb))
}
