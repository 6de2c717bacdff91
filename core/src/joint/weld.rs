//! Weld joint: the frames are held together — rigidly (0 Hz: the world's joint softness,
//! in the solve pass only) or by a linear and an angular spring (in both passes).
//!
//! Impulses: `linear` the point constraint, `angular` the rotation lock (world vectors).
//! Springs: `springs[0]` linear, `springs[1]` angular. Angular rows first, as Box2D.

use super::blocks::{angular_mass, solve_angular_lock, solve_point, warm_point};
use super::checks::{damping, hertz};
use super::rows::{apply_angular, frames, spring_soft};
use super::solver::{JointConstraint, Pass};
use super::{Joint, JointImpulses, JointKind};
use crate::codec::{Dec, Enc, Sink};
use crate::error::Result;
use crate::math::Vec3;
use crate::solver::BodyState;

/// A weld joint: the frames are held together, rigidly (0 Hz: the world's joint softness)
/// or by springs.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WeldJoint {
    /// Linear stiffness, Hz; 0 is rigid.
    pub linear_hertz: f32,
    /// Angular stiffness, Hz; 0 is rigid.
    pub angular_hertz: f32,
    /// Damping ratio of both springs.
    pub damping_ratio: f32,
}

impl Default for WeldJoint {
    fn default() -> WeldJoint {
        WeldJoint {
            linear_hertz: 0.0,
            angular_hertz: 0.0,
            damping_ratio: 1.0,
        }
    }
}

impl WeldJoint {
    /// Checks every setting.
    pub(super) fn check(&self) -> Result<()> {
        WeldJoint::check_spring(self.linear_hertz, self.angular_hertz, self.damping_ratio)
    }

    /// Checks the springs' settings.
    pub(super) fn check_spring(
        linear_hertz: f32,
        angular_hertz: f32,
        damping_ratio: f32,
    ) -> Result<()> {
        hertz("linear_hertz", linear_hertz)?;
        hertz("angular_hertz", angular_hertz)?;
        damping("damping_ratio", damping_ratio)
    }

    /// Sets the springs (checked by the caller with `check_spring`).
    pub(super) fn set_spring(&mut self, linear_hertz: f32, angular_hertz: f32, damping_ratio: f32) {
        *self = WeldJoint {
            linear_hertz,
            angular_hertz,
            damping_ratio,
        };
    }

    pub(super) fn encode<S: Sink>(&self, e: &mut Enc<S>) {
        e.f32(self.linear_hertz);
        e.f32(self.angular_hertz);
        e.f32(self.damping_ratio);
    }

    pub(super) fn decode(d: &mut Dec) -> Result<WeldJoint> {
        Ok(WeldJoint {
            linear_hertz: d.f32()?,
            angular_hertz: d.f32()?,
            damping_ratio: d.f32()?,
        })
    }
}

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

pub(super) fn reaction(i: &JointImpulses) -> (Vec3, Vec3) {
    (i.linear, i.angular)
}
