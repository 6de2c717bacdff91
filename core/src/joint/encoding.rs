//! Joint encoding shared by the journal's fields (defs as given) and the snapshot (settings and
//! impulses as kept): field by field, little-endian. Each kind encodes its own settings
//! (its file's `encode` / `decode`); this file writes the kind's tag and the parts every
//! joint has.

use super::axis_drive::Driven;
use super::{
    AxisImpulse, ConeTwistJoint, DistanceJoint, JointDef, JointImpulses, JointKind, PrismaticJoint,
    RevoluteJoint, SixDofAxis, SixDofJoint, WeldJoint, WheelJoint,
};
use crate::codec::{Dec, Enc, Sink, check};
use crate::error::{Error, Result};
use crate::field::{Field, enc_body};
use crate::id::BodyId;
use crate::id::JointId;
use crate::limits::MAX_IMPULSE;
use crate::math::{Transform, Vec3};

/// Writes a kind's tag and settings.
pub(crate) fn encode_kind<S: Sink>(e: &mut Enc<S>, k: &JointKind) {
    e.u8(k.tag());
    match k {
        JointKind::Spherical => {}
        JointKind::Revolute(r) => r.encode(e),
        JointKind::Prismatic(p) => p.encode(e),
        JointKind::Weld(w) => w.encode(e),
        JointKind::Distance(d) => d.encode(e),
        JointKind::ConeTwist(c) => c.encode(e),
        JointKind::SixDof(s) => s.encode(e),
        JointKind::Wheel(w) => w.encode(e),
    }
}

/// Reads what `encode_kind` wrote (format checks only; ranges are checked by the caller).
pub(crate) fn decode_kind(d: &mut Dec) -> Result<JointKind> {
    Ok(match d.u8()? {
        0 => JointKind::Spherical,
        1 => JointKind::Revolute(RevoluteJoint::decode(d)?),
        2 => JointKind::Prismatic(PrismaticJoint::decode(d)?),
        3 => JointKind::Weld(WeldJoint::decode(d)?),
        4 => JointKind::Distance(DistanceJoint::decode(d)?),
        5 => JointKind::ConeTwist(ConeTwistJoint::decode(d)?),
        6 => JointKind::SixDof(SixDofJoint::decode(d)?),
        7 => JointKind::Wheel(WheelJoint::decode(d)?),
        _ => return Err(Error::Format("unknown joint kind")),
    })
}

pub(crate) fn encode_transform<S: Sink>(e: &mut Enc<S>, t: &Transform) {
    e.vec3(t.p);
    e.quat(t.q);
}

pub(crate) fn decode_transform(d: &mut Dec) -> Result<Transform> {
    Ok(Transform::new(d.vec3()?, d.quat()?))
}

/// A joint def field by field (bodies as index and generation).
fn encode_joint_def<S: Sink>(e: &mut Enc<S>, def: &JointDef) {
    enc_body(e, def.body_a);
    enc_body(e, def.body_b);
    encode_transform(e, &def.local_frame_a);
    encode_transform(e, &def.local_frame_b);
    e.bool(def.collide_connected);
    e.f32(def.break_force);
    e.f32(def.break_torque);
    e.u64(def.user_data);
    encode_kind(e, &def.kind);
}

/// Reads what `encode_joint_def` wrote (bodies get the reading world's tag).
fn decode_joint_def(d: &mut Dec, tag: u32) -> Result<JointDef> {
    Ok(JointDef {
        body_a: BodyId::get(d, tag)?,
        body_b: BodyId::get(d, tag)?,
        local_frame_a: decode_transform(d)?,
        local_frame_b: decode_transform(d)?,
        collide_connected: d.bool()?,
        break_force: d.f32()?,
        break_torque: d.f32()?,
        user_data: d.u64()?,
        kind: decode_kind(d)?,
    })
}

impl Field for JointId {
    type In<'a> = JointId;
    fn put<S: Sink>(id: JointId, e: &mut Enc<S>) {
        e.u32(id.index);
        e.u32(id.generation);
    }
    fn get(d: &mut Dec, tag: u32) -> Result<JointId> {
        Ok(JointId {
            index: d.u32()?,
            generation: d.u32()?,
            world: tag,
        })
    }
}

impl Field for JointDef {
    type In<'a> = &'a JointDef;
    fn put<S: Sink>(def: &JointDef, e: &mut Enc<S>) {
        encode_joint_def(e, def);
    }
    fn get(d: &mut Dec, tag: u32) -> Result<JointDef> {
        decode_joint_def(d, tag)
    }
}

impl Field for SixDofAxis {
    type In<'a> = SixDofAxis;
    fn put<S: Sink>(value: SixDofAxis, e: &mut Enc<S>) {
        value.encode(e);
    }
    fn get(d: &mut Dec, _: u32) -> Result<SixDofAxis> {
        SixDofAxis::decode(d)
    }
}

/// Encodes the per-axis impulses a kind keeps.
pub(crate) fn encode_impulses<S: Sink>(e: &mut Enc<S>, kind: &JointKind, i: &JointImpulses) {
    e.vec3(i.linear);
    e.vec3(i.angular);
    for a in &i.axes[..kind.axis_count()] {
        e.f32(a.spring);
        e.f32(a.motor);
        e.f32(a.lower);
        e.f32(a.upper);
        e.f32(a.lock);
    }
}

/// Reads impulses, each within `MAX_IMPULSE` so warm starting cannot overflow.
pub(crate) fn decode_impulses(d: &mut Dec, kind: &JointKind) -> Result<JointImpulses> {
    let ok = |v: f32| v.abs() <= MAX_IMPULSE;
    let okv = |v: Vec3| ok(v.x) && ok(v.y) && ok(v.z);
    let mut i = JointImpulses {
        linear: d.vec3()?,
        angular: d.vec3()?,
        ..Default::default()
    };
    check(
        okv(i.linear) && okv(i.angular),
        "joint impulse out of range",
    )?;
    for a in &mut i.axes[..kind.axis_count()] {
        *a = AxisImpulse {
            spring: d.f32()?,
            motor: d.f32()?,
            lower: d.f32()?,
            upper: d.f32()?,
            lock: d.f32()?,
        };
        check(
            ok(a.spring) && ok(a.motor) && ok(a.lower) && ok(a.upper) && ok(a.lock),
            "joint impulse out of range",
        )?;
    }
    Ok(i)
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Bytes(Vec<u8>);

    impl Sink for Bytes {
        fn put(&mut self, bytes: &[u8]) {
            self.0.extend_from_slice(bytes);
        }
    }

    /// The wire bytes of a kind's tag and settings.
    fn wire(k: &JointKind) -> Vec<u8> {
        let mut out = Bytes(Vec::new());
        encode_kind(&mut Enc(&mut out), k);
        out.0
    }

    /// Flags and numbers as the codec writes them, in the order given.
    fn expected(tag: u8, parts: &[(bool, f32, f32)]) -> Vec<u8> {
        let mut v = vec![tag];
        for &(flag, x, y) in parts {
            v.push(flag as u8);
            v.extend_from_slice(&x.to_le_bytes());
            v.extend_from_slice(&y.to_le_bytes());
        }
        v
    }

    /// Snapshots and journals written before the axis drive was shared read the same: the
    /// revolute and prismatic joints write limit, motor, spring; the wheel spring, limit,
    /// motor.
    #[test]
    fn driven_joints_keep_their_wire_order_and_read_back() {
        let (limit, motor, spring) = ((true, -0.5, 0.75), (false, 2.0, 3.0), (true, 4.0, 0.25));
        let r = RevoluteJoint {
            enable_limit: true,
            lower: -0.5,
            upper: 0.75,
            enable_motor: false,
            motor_speed: 2.0,
            max_motor_torque: 3.0,
            enable_spring: true,
            hertz: 4.0,
            damping_ratio: 0.25,
            ..Default::default()
        };
        let p = PrismaticJoint {
            enable_limit: true,
            lower: -0.5,
            upper: 0.75,
            enable_motor: false,
            motor_speed: 2.0,
            max_motor_force: 3.0,
            enable_spring: true,
            hertz: 4.0,
            damping_ratio: 0.25,
            ..Default::default()
        };
        let w = WheelJoint {
            enable_spring: true,
            hertz: 4.0,
            damping_ratio: 0.25,
            enable_limit: true,
            lower: -0.5,
            upper: 0.75,
            enable_motor: false,
            motor_speed: 2.0,
            max_motor_torque: 3.0,
        };
        let cases = [
            (JointKind::Revolute(r), expected(1, &[limit, motor, spring])),
            (
                JointKind::Prismatic(p),
                expected(2, &[limit, motor, spring]),
            ),
            (JointKind::Wheel(w), expected(7, &[spring, limit, motor])),
        ];
        for (kind, bytes) in cases {
            assert_eq!(wire(&kind), bytes, "{kind:?}");
            let mut d = Dec {
                buf: &bytes,
                pos: 0,
            };
            assert_eq!(decode_kind(&mut d).unwrap(), kind);
            assert_eq!(d.pos, bytes.len());
        }
    }
}
