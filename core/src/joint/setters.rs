//! The work of the joint calls that change a live joint: each validates (the kind's own
//! checks, through [`JointKind`]'s dispatch), applies and wakes both bodies; the public
//! calls (`crate::api`) record them.

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

    /// [`World::set_joint_enable_motor`] without its record (the API layer, `crate::api`, records it).
    pub(crate) fn set_joint_enable_motor_unrecorded(
        &mut self,
        id: JointId,
        enable: bool,
    ) -> Result<()> {
        self.change_joint(id, |k| k.set_drive(EnableMotor(enable)))?;
        Ok(())
    }

    /// [`World::set_joint_motor_speed`] without its record (the API layer, `crate::api`, records it).
    pub(crate) fn set_joint_motor_speed_unrecorded(
        &mut self,
        id: JointId,
        motor_speed: f32,
    ) -> Result<()> {
        self.change_joint(id, |k| k.set_drive(MotorSpeed(motor_speed)))?;
        Ok(())
    }

    /// [`World::set_joint_max_motor_force`] without its record (the API layer, `crate::api`, records it).
    pub(crate) fn set_joint_max_motor_force_unrecorded(
        &mut self,
        id: JointId,
        max: f32,
    ) -> Result<()> {
        self.change_joint(id, |k| k.set_drive(MaxMotorForce(max)))?;
        Ok(())
    }

    /// [`World::set_joint_enable_limit`] without its record (the API layer, `crate::api`, records it).
    pub(crate) fn set_joint_enable_limit_unrecorded(
        &mut self,
        id: JointId,
        enable: bool,
    ) -> Result<()> {
        self.change_joint(id, |k| k.set_drive(EnableLimit(enable)))?;
        Ok(())
    }

    /// [`World::set_joint_limits`] without its record (the API layer, `crate::api`, records it).
    pub(crate) fn set_joint_limits_unrecorded(
        &mut self,
        id: JointId,
        lower: f32,
        upper: f32,
    ) -> Result<()> {
        self.change_joint(id, |k| k.set_drive(Limits(lower, upper)))?;
        Ok(())
    }

    /// [`World::set_joint_enable_spring`] without its record (the API layer, `crate::api`, records it).
    pub(crate) fn set_joint_enable_spring_unrecorded(
        &mut self,
        id: JointId,
        enable: bool,
    ) -> Result<()> {
        self.change_joint(id, |k| k.set_drive(EnableSpring(enable)))?;
        Ok(())
    }

    /// [`World::set_joint_spring`] without its record (the API layer, `crate::api`, records it).
    pub(crate) fn set_joint_spring_unrecorded(
        &mut self,
        id: JointId,
        hz: f32,
        damping_ratio: f32,
    ) -> Result<()> {
        self.change_joint(id, |k| k.set_drive(Spring(hz, damping_ratio)))?;
        Ok(())
    }

    /// [`World::set_joint_limit_spring`] without its record (the API layer, `crate::api`, records it).
    pub(crate) fn set_joint_limit_spring_unrecorded(
        &mut self,
        id: JointId,
        hz: f32,
        damping_ratio: f32,
    ) -> Result<()> {
        self.change_joint(id, |k| k.set_drive(LimitSpring(hz, damping_ratio)))?;
        Ok(())
    }

    /// [`World::set_weld_spring`] without its record (the API layer, `crate::api`, records it).
    pub(crate) fn set_weld_spring_unrecorded(
        &mut self,
        id: JointId,
        linear_hertz: f32,
        angular_hertz: f32,
        damping_ratio: f32,
    ) -> Result<()> {
        self.change_joint(id, |k| {
            k.set_weld_spring(linear_hertz, angular_hertz, damping_ratio)
        })?;
        Ok(())
    }

    /// [`World::set_distance_length`] without its record (the API layer, `crate::api`, records it).
    pub(crate) fn set_distance_length_unrecorded(
        &mut self,
        id: JointId,
        length: f32,
    ) -> Result<()> {
        self.change_joint(id, |k| k.set_distance_length(length))?;
        Ok(())
    }

    /// [`World::set_distance_range`] without its record (the API layer, `crate::api`, records it).
    pub(crate) fn set_distance_range_unrecorded(
        &mut self,
        id: JointId,
        min_length: f32,
        max_length: f32,
    ) -> Result<()> {
        self.change_joint(id, |k| k.set_distance_range(min_length, max_length))?;
        Ok(())
    }

    /// [`World::set_cone_swing_limit`] without its record (the API layer, `crate::api`, records it).
    pub(crate) fn set_cone_swing_limit_unrecorded(
        &mut self,
        id: JointId,
        swing_limit: f32,
    ) -> Result<()> {
        self.change_joint(id, |k| k.set_cone_swing_limit(swing_limit))?;
        Ok(())
    }

    /// [`World::set_six_dof_axis`] without its record (the API layer, `crate::api`, records it).
    pub(crate) fn set_six_dof_axis_unrecorded(
        &mut self,
        id: JointId,
        axis: u32,
        value: SixDofAxis,
    ) -> Result<()> {
        self.change_joint(id, |k| k.set_six_dof_axis(axis, value))?;
        Ok(())
    }

    /// [`World::set_joint_pivot_spring`] without its record (the API layer, `crate::api`, records it).
    pub(crate) fn set_joint_pivot_spring_unrecorded(
        &mut self,
        id: JointId,
        hz: f32,
        damping_ratio: f32,
    ) -> Result<()> {
        let slot = self.joint_slot(id)?;
        let j = &mut self.joints[slot];
        checks::pivot_spring(&j.kind, hz, damping_ratio)?;
        // 0 Hz: the world's softness; the ratio is then kept at its default so a joint
        // without its own softness has one state.
        (j.pivot_hertz, j.pivot_damping_ratio) = if hz > 0.0 {
            (hz, damping_ratio)
        } else {
            (0.0, 1.0)
        };
        self.wake_joint_bodies(slot);
        Ok(())
    }

    /// [`World::set_six_dof_limit_spring`] without its record (the API layer, `crate::api`, records it).
    pub(crate) fn set_six_dof_limit_spring_unrecorded(
        &mut self,
        id: JointId,
        axis: u32,
        hz: f32,
        damping_ratio: f32,
    ) -> Result<()> {
        self.change_joint(id, |k| k.set_six_dof_limit_spring(axis, hz, damping_ratio))?;
        Ok(())
    }

    /// [`World::set_joint_break_thresholds`] without its record (the API layer, `crate::api`, records it).
    pub(crate) fn set_joint_break_thresholds_unrecorded(
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
        Ok(())
    }

    /// [`World::set_joint_collide_connected`] without its record (the API layer, `crate::api`, records it).
    pub(crate) fn set_joint_collide_connected_unrecorded(
        &mut self,
        id: JointId,
        collide: bool,
    ) -> Result<()> {
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
        Ok(())
    }

    /// [`World::set_joint_user_data`] without its record (the API layer, `crate::api`, records it).
    pub(crate) fn set_joint_user_data_unrecorded(&mut self, id: JointId, data: u64) -> Result<()> {
        let slot = self.joint_slot(id)?;
        self.joints[slot].user_data = data;
        Ok(())
    }

    /// [`World::set_joint_damping_ratio`] without its record (the API layer, `crate::api`, records it).
    pub(crate) fn set_joint_damping_ratio_unrecorded(&mut self, ratio: f32) -> Result<()> {
        checks::damping("joint_damping_ratio", ratio)?;
        self.def.joint_damping_ratio = ratio;
        Ok(())
    }
}
