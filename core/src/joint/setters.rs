//! The joint calls on [`World`] that change a live joint: each validates (the kind's own
//! checks, through [`JointKind`]'s dispatch), applies, wakes both bodies and records
//! itself (`World::rec`, the op table's writers).

use super::axis_drive::DriveSetting::*;
use super::checks;
use super::{JointKind, SixDofAxis};
use crate::error::Result;
use crate::id::JointId;
use crate::world::World;

impl World {
    /// Changes a joint's kind settings through `f` (which validates before it writes),
    /// and wakes both bodies; the caller records the call.
    fn change_joint(
        &mut self,
        id: JointId,
        f: impl FnOnce(&mut JointKind) -> Result<()>,
    ) -> Result<()> {
        let slot = self.joint_slot(id)?;
        f(&mut self.joints[slot].kind)?;
        self.wake_joint_bodies(slot);
        Ok(())
    }

    fn wake_joint_bodies(&mut self, slot: usize) {
        let (a, b) = (self.joints[slot].body_a, self.joints[slot].body_b);
        self.wake_body(a);
        self.wake_body(b);
    }

    /// Turns a revolute, prismatic or wheel joint's motor on or off.
    pub fn set_joint_enable_motor(&mut self, id: JointId, enable: bool) -> Result<()> {
        self.change_joint(id, |k| k.set_drive(EnableMotor(enable)))?;
        self.rec(|j| j.set_joint_enable_motor(id, enable));
        Ok(())
    }

    /// Sets a revolute, prismatic or wheel joint's motor speed (rad/s or m/s).
    pub fn set_joint_motor_speed(&mut self, id: JointId, motor_speed: f32) -> Result<()> {
        self.change_joint(id, |k| k.set_drive(MotorSpeed(motor_speed)))?;
        self.rec(|j| j.set_joint_motor_speed(id, motor_speed));
        Ok(())
    }

    /// Sets the largest motor torque (revolute, wheel), motor force (prismatic) or
    /// friction torque (cone-twist).
    pub fn set_joint_max_motor_force(&mut self, id: JointId, max: f32) -> Result<()> {
        self.change_joint(id, |k| k.set_drive(MaxMotorForce(max)))?;
        self.rec(|j| j.set_joint_max_motor_force(id, max));
        Ok(())
    }

    /// Turns a revolute, prismatic or wheel joint's limit on or off.
    pub fn set_joint_enable_limit(&mut self, id: JointId, enable: bool) -> Result<()> {
        self.change_joint(id, |k| k.set_drive(EnableLimit(enable)))?;
        self.rec(|j| j.set_joint_enable_limit(id, enable));
        Ok(())
    }

    /// Sets the limits of a revolute (angle), prismatic (translation), wheel (suspension)
    /// or cone-twist (twist) joint.
    pub fn set_joint_limits(&mut self, id: JointId, lower: f32, upper: f32) -> Result<()> {
        self.change_joint(id, |k| k.set_drive(Limits(lower, upper)))?;
        self.rec(|j| j.set_joint_limits(id, lower, upper));
        Ok(())
    }

    /// Turns a revolute, prismatic, wheel or distance joint's spring on or off.
    pub fn set_joint_enable_spring(&mut self, id: JointId, enable: bool) -> Result<()> {
        self.change_joint(id, |k| k.set_drive(EnableSpring(enable)))?;
        self.rec(|j| j.set_joint_enable_spring(id, enable));
        Ok(())
    }

    /// Sets the spring of a revolute, prismatic, wheel or distance joint: stiffness (Hz)
    /// and damping ratio.
    pub fn set_joint_spring(&mut self, id: JointId, hz: f32, damping_ratio: f32) -> Result<()> {
        self.change_joint(id, |k| k.set_drive(Spring(hz, damping_ratio)))?;
        self.rec(|j| j.set_joint_spring(id, hz, damping_ratio));
        Ok(())
    }

    /// Sets a weld joint's stiffness (0 Hz: rigid) and damping ratio.
    pub fn set_weld_spring(
        &mut self,
        id: JointId,
        linear_hertz: f32,
        angular_hertz: f32,
        damping_ratio: f32,
    ) -> Result<()> {
        self.change_joint(id, |k| {
            k.set_weld_spring(linear_hertz, angular_hertz, damping_ratio)
        })?;
        self.rec(|j| j.set_weld_spring(id, linear_hertz, angular_hertz, damping_ratio));
        Ok(())
    }

    /// Sets a distance joint's spring rest length, m.
    pub fn set_distance_length(&mut self, id: JointId, length: f32) -> Result<()> {
        self.change_joint(id, |k| k.set_distance_length(length))?;
        self.rec(|j| j.set_distance_length(id, length));
        Ok(())
    }

    /// Sets a distance joint's range `[min_length, max_length]`, m.
    pub fn set_distance_range(
        &mut self,
        id: JointId,
        min_length: f32,
        max_length: f32,
    ) -> Result<()> {
        self.change_joint(id, |k| k.set_distance_range(min_length, max_length))?;
        self.rec(|j| j.set_distance_range(id, min_length, max_length));
        Ok(())
    }

    /// Sets a cone-twist joint's swing limit (half-angle of the cone), radians.
    pub fn set_cone_swing_limit(&mut self, id: JointId, swing_limit: f32) -> Result<()> {
        self.change_joint(id, |k| k.set_cone_swing_limit(swing_limit))?;
        self.rec(|j| j.set_cone_swing_limit(id, swing_limit));
        Ok(())
    }

    /// Sets one axis of a six-DOF joint: 0..3 linear x, y, z; 3..6 angular x, y, z.
    pub fn set_six_dof_axis(&mut self, id: JointId, axis: u32, value: SixDofAxis) -> Result<()> {
        self.change_joint(id, |k| k.set_six_dof_axis(axis, value))?;
        self.rec(|j| j.set_six_dof_axis(id, axis, value));
        Ok(())
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
        self.rec(|j| j.set_joint_break_thresholds(id, break_force, break_torque));
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
        self.rec(|j| j.set_joint_collide_connected(id, collide));
        Ok(())
    }

    /// Sets the host's data of the joint (not state: never hashed).
    pub fn set_joint_user_data(&mut self, id: JointId, data: u64) -> Result<()> {
        let slot = self.joint_slot(id)?;
        self.joints[slot].user_data = data;
        self.rec(|j| j.set_joint_user_data(id, data));
        Ok(())
    }

    /// Sets the world's joint damping ratio (the softness of rigid joint rows).
    pub fn set_joint_damping_ratio(&mut self, ratio: f32) -> Result<()> {
        checks::damping("joint_damping_ratio", ratio)?;
        self.def.joint_damping_ratio = ratio;
        self.rec(|j| j.set_joint_damping_ratio(ratio));
        Ok(())
    }
}
