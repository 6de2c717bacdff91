//! The joint calls on [`World`] that change a live joint: each validates (the kind's own
//! checks, through [`JointKind`]'s dispatch), applies, wakes both bodies and records
//! itself in the journal.

use super::checks;
use super::encoding::enc_joint;
use super::{JointKind, SixDofAxis};
use crate::codec::Enc;
use crate::error::Result;
use crate::id::JointId;
use crate::journal::kind as rec_kind;
use crate::world::World;

impl World {
    /// Changes a joint's kind settings through `f` (which validates before it writes),
    /// wakes both bodies and records the call.
    fn change_joint(
        &mut self,
        id: JointId,
        f: impl FnOnce(&mut JointKind) -> Result<()>,
        record: impl FnOnce(&mut Enc<crate::journal::RecordSink>),
        kind: u16,
    ) -> Result<()> {
        let slot = self.joint_slot(id)?;
        f(&mut self.joints[slot].kind)?;
        self.wake_joint_bodies(slot);
        self.rec(kind, |e| {
            enc_joint(e, id);
            record(e);
        });
        Ok(())
    }

    fn wake_joint_bodies(&mut self, slot: usize) {
        let (a, b) = (self.joints[slot].body_a, self.joints[slot].body_b);
        self.wake_body(a);
        self.wake_body(b);
    }

    /// Turns a revolute, prismatic or wheel joint's motor on or off.
    pub fn set_joint_enable_motor(&mut self, id: JointId, enable: bool) -> Result<()> {
        self.change_joint(
            id,
            |k| k.set_enable_motor(enable),
            |e| e.bool(enable),
            rec_kind::SET_JOINT_ENABLE_MOTOR,
        )
    }

    /// Sets a revolute, prismatic or wheel joint's motor speed (rad/s or m/s).
    pub fn set_joint_motor_speed(&mut self, id: JointId, motor_speed: f32) -> Result<()> {
        self.change_joint(
            id,
            |k| k.set_motor_speed(motor_speed),
            |e| e.f32(motor_speed),
            rec_kind::SET_JOINT_MOTOR_SPEED,
        )
    }

    /// Sets the largest motor torque (revolute, wheel), motor force (prismatic) or
    /// friction torque (cone-twist).
    pub fn set_joint_max_motor_force(&mut self, id: JointId, max: f32) -> Result<()> {
        self.change_joint(
            id,
            |k| k.set_max_motor_force(max),
            |e| e.f32(max),
            rec_kind::SET_JOINT_MAX_MOTOR_FORCE,
        )
    }

    /// Turns a revolute, prismatic or wheel joint's limit on or off.
    pub fn set_joint_enable_limit(&mut self, id: JointId, enable: bool) -> Result<()> {
        self.change_joint(
            id,
            |k| k.set_enable_limit(enable),
            |e| e.bool(enable),
            rec_kind::SET_JOINT_ENABLE_LIMIT,
        )
    }

    /// Sets the limits of a revolute (angle), prismatic (translation), wheel (suspension)
    /// or cone-twist (twist) joint.
    pub fn set_joint_limits(&mut self, id: JointId, lower: f32, upper: f32) -> Result<()> {
        self.change_joint(
            id,
            |k| k.set_limits(lower, upper),
            |e| {
                e.f32(lower);
                e.f32(upper);
            },
            rec_kind::SET_JOINT_LIMITS,
        )
    }

    /// Turns a revolute, prismatic, wheel or distance joint's spring on or off.
    pub fn set_joint_enable_spring(&mut self, id: JointId, enable: bool) -> Result<()> {
        self.change_joint(
            id,
            |k| k.set_enable_spring(enable),
            |e| e.bool(enable),
            rec_kind::SET_JOINT_ENABLE_SPRING,
        )
    }

    /// Sets the spring of a revolute, prismatic, wheel or distance joint: stiffness (Hz)
    /// and damping ratio.
    pub fn set_joint_spring(&mut self, id: JointId, hz: f32, damping_ratio: f32) -> Result<()> {
        self.change_joint(
            id,
            |k| k.set_spring(hz, damping_ratio),
            |e| {
                e.f32(hz);
                e.f32(damping_ratio);
            },
            rec_kind::SET_JOINT_SPRING,
        )
    }

    /// Sets a weld joint's stiffness (0 Hz: rigid) and damping ratio.
    pub fn set_weld_spring(
        &mut self,
        id: JointId,
        linear_hertz: f32,
        angular_hertz: f32,
        damping_ratio: f32,
    ) -> Result<()> {
        self.change_joint(
            id,
            |k| k.set_weld_spring(linear_hertz, angular_hertz, damping_ratio),
            |e| {
                e.f32(linear_hertz);
                e.f32(angular_hertz);
                e.f32(damping_ratio);
            },
            rec_kind::SET_WELD_SPRING,
        )
    }

    /// Sets a distance joint's spring rest length, m.
    pub fn set_distance_length(&mut self, id: JointId, length: f32) -> Result<()> {
        self.change_joint(
            id,
            |k| k.set_distance_length(length),
            |e| e.f32(length),
            rec_kind::SET_DISTANCE_LENGTH,
        )
    }

    /// Sets a distance joint's range `[min_length, max_length]`, m.
    pub fn set_distance_range(
        &mut self,
        id: JointId,
        min_length: f32,
        max_length: f32,
    ) -> Result<()> {
        self.change_joint(
            id,
            |k| k.set_distance_range(min_length, max_length),
            |e| {
                e.f32(min_length);
                e.f32(max_length);
            },
            rec_kind::SET_DISTANCE_RANGE,
        )
    }

    /// Sets a cone-twist joint's swing limit (half-angle of the cone), radians.
    pub fn set_cone_swing_limit(&mut self, id: JointId, swing_limit: f32) -> Result<()> {
        self.change_joint(
            id,
            |k| k.set_cone_swing_limit(swing_limit),
            |e| e.f32(swing_limit),
            rec_kind::SET_CONE_SWING_LIMIT,
        )
    }

    /// Sets one axis of a six-DOF joint: 0..3 linear x, y, z; 3..6 angular x, y, z.
    pub fn set_six_dof_axis(&mut self, id: JointId, axis: u32, value: SixDofAxis) -> Result<()> {
        self.change_joint(
            id,
            |k| k.set_six_dof_axis(axis, value),
            |e| {
                e.u32(axis);
                value.encode(e);
            },
            rec_kind::SET_SIX_DOF_AXIS,
        )
    }

    /// Sets the reaction force (N) and torque (N·m) above which the joint breaks.
    pub fn set_joint_break_thresholds(
        &mut self,
        id: JointId,
        break_force: f32,
        break_torque: f32,
    ) -> Result<()> {
        let slot = self.joint_slot(id)?;
        checks::threshold("break_force", break_force)?;
        checks::threshold("break_torque", break_torque)?;
        let j = &mut self.joints[slot];
        (j.break_force, j.break_torque) = (break_force, break_torque);
        self.wake_joint_bodies(slot);
        self.rec(rec_kind::SET_JOINT_BREAK_THRESHOLDS, |e| {
            enc_joint(e, id);
            e.f32(break_force);
            e.f32(break_torque);
        });
        Ok(())
    }

    /// Lets the joint's bodies collide with each other or not. Turned off, their contacts
    /// end now; turned on, the next step looks for their pairs.
    pub fn set_joint_collide_connected(&mut self, id: JointId, collide: bool) -> Result<()> {
        let slot = self.joint_slot(id)?;
        let j = &mut self.joints[slot];
        let (a, b) = (j.body_a, j.body_b);
        if j.collide_connected != collide {
            j.collide_connected = collide;
            if collide {
                self.refind_pairs(a, b);
            } else if self.joints[slot].acts() {
                self.destroy_contacts_between(a, b);
            }
        }
        self.wake_joint_bodies(slot);
        self.rec(rec_kind::SET_JOINT_COLLIDE_CONNECTED, |e| {
            enc_joint(e, id);
            e.bool(collide);
        });
        Ok(())
    }

    /// Sets the host's data of the joint (not state: never hashed).
    pub fn set_joint_user_data(&mut self, id: JointId, data: u64) -> Result<()> {
        let slot = self.joint_slot(id)?;
        self.joints[slot].user_data = data;
        self.rec(rec_kind::SET_JOINT_USER_DATA, |e| {
            enc_joint(e, id);
            e.u64(data);
        });
        Ok(())
    }

    /// Sets the world's joint damping ratio (the softness of rigid joint rows).
    pub fn set_joint_damping_ratio(&mut self, ratio: f32) -> Result<()> {
        checks::damping("joint_damping_ratio", ratio)?;
        self.def.joint_damping_ratio = ratio;
        self.rec(rec_kind::SET_JOINT_DAMPING_RATIO, |e| e.f32(ratio));
        Ok(())
    }
}
