//! Spherical (ball-and-socket) joint: the anchors coincide; the bodies turn freely. It has
//! no settings of its own.
//!
//! Impulses: `linear`, the point constraint's (world vector on B).

use super::JointImpulses;
use super::blocks::{solve_pivot, warm_point};
use super::solver::{JointConstraint, Pass};
use crate::math::Vec3;
use crate::solver::BodyState;

pub(super) fn warm_start(
    c: &JointConstraint,
    i: &JointImpulses,
    a: &mut BodyState,
    b: &mut BodyState,
) {
    warm_point(c, a, b, i.linear);
}

pub(super) fn solve(
    c: &JointConstraint,
    i: &mut JointImpulses,
    a: &mut BodyState,
    b: &mut BodyState,
    p: &Pass,
) {
    solve_pivot(c, a, b, p, &mut i.linear);
}

pub(super) fn reaction(i: &JointImpulses) -> (Vec3, Vec3) {
    (i.linear, Vec3::ZERO)
}
