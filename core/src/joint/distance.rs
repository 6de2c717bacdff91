//! Distance joint: the anchors' distance stays within `[min_length, max_length]` (one
//! rigid row for a rod, when they are equal; one-sided limits otherwise, so a rope goes
//! slack), and an optional spring pulls it towards `length`.
//!
//! Impulses: `axes[0]`: `lock` (rod), `spring`, `lower`, `upper`, along the line from A's
//! anchor to B's. Springs: `springs[0]`.

use super::MAX_JOINT_LENGTH;
use super::checks::{damping, hertz, range};
use super::rows::{Row, anchors, axis_total, separation, spring_soft};
use super::solver::{JointConstraint, Pass};
use super::{Joint, JointImpulses, JointKind};
use crate::codec::{Dec, Enc, Sink};
use crate::error::Result;
use crate::math::Vec3;
use crate::solver::BodyState;

/// A distance joint: the anchors' distance stays within `[min_length, max_length]` — a rod
/// when they are equal, a rope when `min_length` is 0 — and with the spring enabled it is
/// also pulled towards `length`. The bodies turn freely about the anchors.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DistanceJoint {
    /// Rest length of the spring, m.
    pub length: f32,
    /// Shortest distance, m.
    pub min_length: f32,
    /// Longest distance, m.
    pub max_length: f32,
    /// Whether a spring pulls the distance towards `length`.
    pub enable_spring: bool,
    /// Spring stiffness as a frequency, Hz (0: no spring force).
    pub hertz: f32,
    /// Spring damping ratio.
    pub damping_ratio: f32,
}

impl Default for DistanceJoint {
    /// A rod of 1 m.
    fn default() -> DistanceJoint {
        DistanceJoint {
            length: 1.0,
            min_length: 1.0,
            max_length: 1.0,
            enable_spring: false,
            hertz: 0.0,
            damping_ratio: 0.0,
        }
    }
}

impl DistanceJoint {
    /// Checks every setting.
    pub(super) fn check(&self) -> Result<()> {
        DistanceJoint::check_length(self.length)?;
        DistanceJoint::check_range(self.min_length, self.max_length)?;
        hertz("hertz", self.hertz)?;
        damping("damping_ratio", self.damping_ratio)
    }

    /// Checks a spring rest length.
    pub(super) fn check_length(length: f32) -> Result<()> {
        range("length", length, 0.0, MAX_JOINT_LENGTH, "within [0, 1e6] m")
    }

    /// Checks a range `[min, max]`.
    pub(super) fn check_range(min: f32, max: f32) -> Result<()> {
        let m = MAX_JOINT_LENGTH;
        range("min_length", min, 0.0, m, "within [0, 1e6] m")?;
        range("max_length", max, 0.0, m, "within [0, 1e6] m")?;
        range("max_length", max, min, m, "at least min_length")
    }

    pub(super) fn set_enable_spring(&mut self, enable: bool) {
        self.enable_spring = enable;
    }

    /// Sets the spring (checked by the caller).
    pub(super) fn set_spring(&mut self, hz: f32, damping_ratio: f32) {
        (self.hertz, self.damping_ratio) = (hz, damping_ratio);
    }

    /// Sets the spring rest length (checked by the caller with `check_length`).
    pub(super) fn set_length(&mut self, length: f32) {
        self.length = length;
    }

    /// Sets the range (checked by the caller with `check_range`).
    pub(super) fn set_range(&mut self, min_length: f32, max_length: f32) {
        (self.min_length, self.max_length) = (min_length, max_length);
    }

    pub(super) fn encode<S: Sink>(&self, e: &mut Enc<S>) {
        e.f32(self.length);
        e.f32(self.min_length);
        e.f32(self.max_length);
        e.bool(self.enable_spring);
        e.f32(self.hertz);
        e.f32(self.damping_ratio);
    }

    pub(super) fn decode(d: &mut Dec) -> Result<DistanceJoint> {
        Ok(DistanceJoint {
            length: d.f32()?,
            min_length: d.f32()?,
            max_length: d.f32()?,
            enable_spring: d.bool()?,
            hertz: d.f32()?,
            damping_ratio: d.f32()?,
        })
    }
}

fn spring_on(k: &DistanceJoint) -> bool {
    k.enable_spring && k.hertz > 0.0 && k.min_length < k.max_length
}

pub(super) fn prepare(c: &mut JointConstraint, j: &mut Joint, h: f32) {
    let JointKind::Distance(k) = j.kind else {
        return;
    };
    let ax = &mut j.impulses.axes[0];
    if spring_on(&k) {
        c.springs[0] = spring_soft(k.hertz, k.damping_ratio, h);
    } else {
        ax.spring = 0.0;
    }
    if k.min_length == k.max_length {
        ax.lower = 0.0;
        ax.upper = 0.0;
    } else {
        ax.lock = 0.0;
        if k.min_length <= 0.0 {
            ax.lower = 0.0;
        }
    }
}

/// The row along the anchors' line now (no direction when they coincide), and its
/// length.
fn line(c: &JointConstraint, a: &BodyState, b: &BodyState) -> (Row, f32, Vec3) {
    let (ra, rb) = anchors(c, a, b);
    let (n, len) = separation(c, a, b, ra, rb).normalize_and_length();
    (Row::linear(n, ra, rb), len, n)
}

pub(super) fn warm_start(
    c: &JointConstraint,
    i: &JointImpulses,
    a: &mut BodyState,
    b: &mut BodyState,
) {
    let (row, _, _) = line(c, a, b);
    row.apply(c, a, b, axis_total(&i.axes[0]));
}

pub(super) fn solve(
    c: &JointConstraint,
    k: &DistanceJoint,
    i: &mut JointImpulses,
    a: &mut BodyState,
    b: &mut BodyState,
    p: &Pass,
) {
    let (row, len, _) = line(c, a, b);
    let ax = &mut i.axes[0];
    if k.min_length == k.max_length {
        row.lock(c, a, b, len - k.min_length, p, &mut ax.lock);
        return;
    }
    if spring_on(k) {
        row.spring(c, a, b, len - k.length, &c.springs[0], &mut ax.spring);
    }
    if k.min_length > 0.0 {
        row.lower(c, a, b, len - k.min_length, p, &mut ax.lower);
    }
    row.upper(c, a, b, k.max_length - len, p, &mut ax.upper);
}

pub(super) fn reaction(
    c: &JointConstraint,
    i: &JointImpulses,
    a: &BodyState,
    b: &BodyState,
) -> (Vec3, Vec3) {
    let (_, _, n) = line(c, a, b);
    (n * axis_total(&i.axes[0]), Vec3::ZERO)
}
