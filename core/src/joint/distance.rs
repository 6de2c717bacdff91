//! Distance joint: the anchors' distance stays within `[min_length, max_length]` (one
//! rigid row for a rod, when they are equal; one-sided limits otherwise, so a rope goes
//! slack), and an optional spring pulls it towards `length`.
//!
//! Impulses: `axes[0]`: `lock` (rod), `spring`, `lower`, `upper`, along the line from A's
//! anchor to B's. Springs: `springs[0]`.

use super::solver::{JointConstraint, Pass, Row, anchors, axis_total, separation, spring_soft};
use super::{DistanceJoint, Joint, JointImpulses, JointKind};
use crate::math::Vec3;
use crate::solver::BodyState;

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
