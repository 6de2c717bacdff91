//! Weld joint: the frames are held together — rigidly (0 Hz: the world's joint softness,
//! in the solve pass only) or by a linear and an angular spring (in both passes).
//!
//! Impulses: `linear` the point constraint, `angular` the rotation lock (world vectors).
//! Springs: `springs[0]` linear, `springs[1]` angular. Angular rows first, as Box2D.

use super::solver::{
    JointConstraint, Pass, angular_mass, apply_angular, frames, solve_angular_lock, solve_point,
    spring_soft, warm_point,
};
use super::{Joint, JointImpulses, JointKind, WeldJoint};
use crate::solver::BodyState;

pub(super) fn prepare(c: &mut JointConstraint, j: &mut Joint, h: f32) {
    let JointKind::Weld(w) = j.kind else {
        return;
    };
    c.angular_mass = angular_mass(c);
    if w.linear_hertz > 0.0 {
        c.springs[0] = spring_soft(w.linear_hertz, w.damping_ratio, h);
    }
    if w.angular_hertz > 0.0 {
        c.springs[1] = spring_soft(w.angular_hertz, w.damping_ratio, h);
    }
}

pub(super) fn warm_start(
    c: &JointConstraint,
    i: &JointImpulses,
    a: &mut BodyState,
    b: &mut BodyState,
) {
    apply_angular(c, a, b, i.angular);
    warm_point(c, a, b, i.linear);
}

pub(super) fn solve(
    c: &JointConstraint,
    w: &WeldJoint,
    i: &mut JointImpulses,
    a: &mut BodyState,
    b: &mut BodyState,
    p: &Pass,
) {
    let (qa, qb) = frames(c, a, b);
    let (soft, bias) = if w.angular_hertz > 0.0 {
        (c.springs[1], true)
    } else {
        (c.soft, p.use_bias)
    };
    solve_angular_lock(c, a, b, qa, qb, &soft, bias, &mut i.angular);
    let (soft, bias) = if w.linear_hertz > 0.0 {
        (c.springs[0], true)
    } else {
        (c.soft, p.use_bias)
    };
    solve_point(c, a, b, &soft, bias, &mut i.linear);
}
