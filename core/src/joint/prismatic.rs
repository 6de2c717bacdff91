//! Prismatic (slider) joint: frame B slides along frame A's x axis and keeps its
//! orientation, with an optional spring (towards translation 0), motor and limits.
//!
//! Impulses: `axes[0]` spring, motor, lower and upper along the axis; `linear.x`,
//! `linear.y` the two perpendicular rows (A's y and z); `angular` the rotation lock.
//! Springs: `springs[0]`.
//! The limit, motor and spring are an axis drive (`axis_drive.rs`).

use super::axis_drive::{Driven, driven};
use super::blocks::{Slide, angular_mass, solve_angular_lock};
use super::checks::translations;
use super::rows::{apply_angular, frames};
use super::solver::{JointConstraint, Pass};
use super::{Joint, JointImpulses, JointKind};
use crate::math::Vec3;
use crate::solver::BodyState;

/// A prismatic (slider) joint: frame B slides along frame A's x axis and does not turn.
/// The translation is the anchors' offset along that axis.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
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
    /// A soft limit: its stiffness, Hz (0: a rigid limit, with the joint softness).
    /// Once reached, the limit gives like a spring of this frequency and pushes back.
    pub limit_hertz: f32,
    /// The soft limit's damping ratio (1: critical).
    pub limit_damping_ratio: f32,
}

driven!(PrismaticJoint, max_motor_force, limits: translations, order: [Limit, Motor, Spring], soft_limit);

pub(super) fn prepare(c: &mut JointConstraint, j: &mut Joint, h: f32) {
    if let JointKind::Prismatic(k) = j.kind {
        c.angular_mass = angular_mass(c);
        k.drive().prepare(c, &mut j.impulses.axes, 0, h);
    }
}

/// Frame A's axes of the slide: along x, locked along y and z.
const SLIDE: [Vec3; 3] = [Vec3::X, Vec3::Y, Vec3::Z];

pub(super) fn warm_start(
    c: &JointConstraint,
    i: &JointImpulses,
    a: &mut BodyState,
    b: &mut BodyState,
) {
    Slide::new(c, a, b, SLIDE).warm_start(c, i, a, b);
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
    let slide = Slide::new(c, a, b, SLIDE);
    k.drive().solve(slide.driven(), c, a, b, p, &mut i.axes[0]);
    let (qa, qb) = frames(c, a, b);
    solve_angular_lock(c, a, b, qa, qb, &c.soft, p.use_bias, &mut i.angular);
    slide.solve_across(c, i, a, b, p);
}

pub(super) fn reaction(
    c: &JointConstraint,
    i: &JointImpulses,
    a: &BodyState,
    b: &BodyState,
) -> (Vec3, Vec3) {
    (Slide::new(c, a, b, SLIDE).force(i), i.angular)
}
