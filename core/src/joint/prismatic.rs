//! Prismatic (slider) joint: frame B slides along frame A's x axis and keeps its
//! orientation, with an optional spring (towards translation 0), motor and limits.
//!
//! Impulses: `axes[0]` spring, motor, lower and upper along the axis; `linear.x`,
//! `linear.y` the two perpendicular rows (A's y and z); `angular` the rotation lock.
//! Springs: `springs[0]`.
//! The limit, motor and spring are an axis drive (`axis_drive.rs`).

use super::axis_drive::{Driven, driven};
use super::blocks::{angular_mass, solve_angular_lock};
use super::checks::translations;
use super::rows::{Row, anchors, apply_angular, axis_total, frames, separation, solve_pair};
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
}

driven!(PrismaticJoint, max_motor_force, limits: translations, order: [Limit, Motor, Spring]);

pub(super) fn prepare(c: &mut JointConstraint, j: &mut Joint, h: f32) {
    if let JointKind::Prismatic(k) = j.kind {
        c.angular_mass = angular_mass(c);
        k.drive().prepare(c, &mut j.impulses.axes, 0, h);
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
    let axis = (&rows[0], translation);
    k.drive().solve(axis, c, a, b, p, &mut i.axes[0]);
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
