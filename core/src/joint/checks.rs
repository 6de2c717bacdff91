//! The checks every joint kind builds its validation from: ranges of settings (errors
//! naming the value and the bound it broke), local frames, break thresholds, and the
//! format check of a decoded joint.

use super::{Joint, MAX_JOINT_LENGTH};
use crate::error::{Error, Result};
use crate::limits::{MAX_FORCE, MAX_SETTING, MAX_VELOCITY};
use crate::math::{PI, Transform};

pub(super) fn range(
    name: &'static str,
    v: f32,
    lo: f32,
    hi: f32,
    expected: &'static str,
) -> Result<()> {
    crate::error::check_range(name, v, lo, hi, expected)
}

pub(super) fn hertz(name: &'static str, v: f32) -> Result<()> {
    range(name, v, 0.0, MAX_SETTING, "within [0, 1e6] Hz")
}

pub(super) fn damping(name: &'static str, v: f32) -> Result<()> {
    range(name, v, 0.0, MAX_SETTING, "within [0, 1e6]")
}

pub(super) fn speed(name: &'static str, v: f32) -> Result<()> {
    range(name, v, -MAX_VELOCITY, MAX_VELOCITY, "within [-1e5, 1e5]")
}

pub(super) fn force(name: &'static str, v: f32) -> Result<()> {
    range(name, v, 0.0, MAX_FORCE, "within [0, 1e15]")
}

/// Angle limits: both within [-π, π], lower ≤ upper.
pub(super) fn angles(names: (&'static str, &'static str), lower: f32, upper: f32) -> Result<()> {
    range(names.0, lower, -PI, PI, "within [-π, π] radians")?;
    range(names.1, upper, -PI, PI, "within [-π, π] radians")?;
    range(names.1, upper, lower, PI, "at least the lower limit")
}

/// Translation limits: both within ±1e6 m, lower ≤ upper.
pub(super) fn translations(
    names: (&'static str, &'static str),
    lower: f32,
    upper: f32,
) -> Result<()> {
    let m = MAX_JOINT_LENGTH;
    range(names.0, lower, -m, m, "within [-1e6, 1e6] m")?;
    range(names.1, upper, -m, m, "within [-1e6, 1e6] m")?;
    range(names.1, upper, lower, m, "at least the lower limit")
}

pub(super) fn threshold(name: &'static str, v: f32) -> Result<()> {
    range(
        name,
        v,
        0.0,
        f32::MAX,
        "within [0, f32::MAX] (f32::MAX: unbreakable)",
    )
}

/// The refusal of a setting the joint's kind does not have.
pub(super) fn no_setting(what: &'static str) -> Error {
    Error::State(what)
}

/// What a refusal calls the parts of a local frame: its anchor, its rotation and the
/// rotation's norm².
pub(super) struct FrameNames {
    anchor: &'static str,
    rotation: &'static str,
    norm: &'static str,
}

pub(super) const FRAME_A: FrameNames = FrameNames {
    anchor: "local_frame_a anchor",
    rotation: "local_frame_a rotation",
    norm: "local_frame_a rotation norm²",
};
pub(super) const FRAME_B: FrameNames = FrameNames {
    anchor: "local_frame_b anchor",
    rotation: "local_frame_b rotation",
    norm: "local_frame_b rotation norm²",
};

/// Checks a frame and returns it with its rotation normalised.
pub(super) fn frame(names: &FrameNames, f: Transform) -> Result<Transform> {
    let m = MAX_JOINT_LENGTH;
    for i in 0..3 {
        range(
            names.anchor,
            f.p.get(i),
            -m,
            m,
            "finite and within ±1e6 m of the body origin (each component)",
        )?;
    }
    let q = crate::error::check_rotation(names.rotation, names.norm, f.q)?;
    Ok(Transform::new(f.p, q))
}

/// Checks a decoded joint's settings like `create_joint` does (a format error here).
pub(crate) fn check_decoded(j: &Joint) -> Result<()> {
    let bad = Error::Format("joint settings out of range");
    let frames_ok =
        |t: &Transform| frame(&FRAME_A, *t).is_ok() && t.q.is_normalized(1e-3) && t.p.is_valid();
    if !(frames_ok(&j.frame_a) && frames_ok(&j.frame_b)) {
        return Err(bad);
    }
    threshold("", j.break_force).map_err(|_| bad)?;
    threshold("", j.break_torque).map_err(|_| bad)?;
    if j.pivot_hertz != 0.0 {
        pivot_spring(&j.kind, j.pivot_hertz, j.pivot_damping_ratio).map_err(|_| bad)?;
    }
    j.kind.check().map_err(|_| bad)
}

/// An own pivot softness: a spherical or revolute joint's, hertz and damping ratio within
/// their ranges.
pub(super) fn pivot_spring(kind: &super::JointKind, hz: f32, damping_ratio: f32) -> Result<()> {
    hertz("hertz", hz)?;
    damping("damping_ratio", damping_ratio)?;
    match kind {
        super::JointKind::Spherical | super::JointKind::Revolute(_) => Ok(()),
        _ => Err(no_setting(
            "set_joint_pivot_spring needs a spherical or revolute joint",
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::super::axis_drive::Driven;
    use super::super::{PrismaticJoint, RevoluteJoint, WheelJoint};
    use crate::error::Error;

    fn refused(r: crate::error::Result<()>) -> &'static str {
        match r {
            Err(Error::Argument { name, .. }) => name,
            other => panic!("expected an argument error, got {other:?}"),
        }
    }

    /// A def with several bad settings is refused for the first in the kind's own order,
    /// by the kind's own name for the motor's bound.
    #[test]
    fn driven_joints_name_the_first_bad_setting_in_their_own_order() {
        let bad_r = RevoluteJoint {
            lower: 4.0,
            hertz: -1.0,
            ..Default::default()
        };
        assert_eq!(refused(bad_r.check()), "lower");
        let bad_w = WheelJoint {
            lower: 2.0e6,
            hertz: -1.0,
            ..Default::default()
        };
        assert_eq!(refused(bad_w.check()), "hertz");
        let torque = RevoluteJoint {
            max_motor_torque: -1.0,
            ..Default::default()
        };
        assert_eq!(refused(torque.check()), "max_motor_torque");
        let force = PrismaticJoint {
            max_motor_force: -1.0,
            ..Default::default()
        };
        assert_eq!(refused(force.check()), "max_motor_force");
        let wheel = WheelJoint {
            max_motor_torque: -1.0,
            ..Default::default()
        };
        assert_eq!(refused(wheel.check()), "max_motor_torque");
        // Angles for the hinge, metres for the slider and the suspension.
        let angle = RevoluteJoint {
            upper: 3.5,
            ..Default::default()
        };
        assert_eq!(refused(angle.check()), "upper");
        let metres = PrismaticJoint {
            upper: 3.5,
            ..Default::default()
        };
        assert!(metres.check().is_ok());
    }
}
