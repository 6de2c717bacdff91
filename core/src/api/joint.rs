//! The joint calls that change a world: joints created and destroyed, and every setter of
//! a live joint (motor, limits, spring, the kinds' own settings, break thresholds,
//! collide-connected, user data) and the world's joint damping ratio. Each checks and
//! applies through `joint/lifecycle.rs` or `joint/setters.rs`'s `*_unrecorded` function (which
//! wakes both bodies), then records itself.

use crate::error::Result;
use crate::id::JointId;
use crate::joint::{JointDef, SixDofAxis};
use crate::world::World;

impl World {
    /// Creates a joint between two distinct live bodies and wakes them. Unless
    /// `collide_connected`, contacts between the two bodies end now and no new ones begin.
    /// A joint between two bodies that cannot move (static or kinematic) is accepted and
    /// inert until one of them becomes dynamic. Refused (nothing changed) for bad values
    /// or a full pool.
    pub fn create_joint(&mut self, def: &JointDef) -> Result<JointId> {
        let id = self.create_joint_unrecorded(def)?;
        self.rec(|j| j.create_joint(def, id));
        Ok(id)
    }

    /// Destroys a joint and wakes its bodies. If the bodies did not collide because of it,
    /// they may collide again from the next step.
    pub fn destroy_joint(&mut self, id: JointId) -> Result<()> {
        self.destroy_joint_unrecorded(id)?;
        self.rec(|j| j.destroy_joint(id));
        Ok(())
    }

    /// Turns a revolute, prismatic or wheel joint's motor on or off.
    pub fn set_joint_enable_motor(&mut self, id: JointId, enable: bool) -> Result<()> {
        self.set_joint_enable_motor_unrecorded(id, enable)?;
        self.rec(|j| j.set_joint_enable_motor(id, enable));
        Ok(())
    }

    /// Sets a revolute, prismatic or wheel joint's motor speed (rad/s or m/s).
    pub fn set_joint_motor_speed(&mut self, id: JointId, motor_speed: f32) -> Result<()> {
        self.set_joint_motor_speed_unrecorded(id, motor_speed)?;
        self.rec(|j| j.set_joint_motor_speed(id, motor_speed));
        Ok(())
    }

    /// Sets the largest motor torque (revolute, wheel), motor force (prismatic) or
    /// friction torque (cone-twist).
    pub fn set_joint_max_motor_force(&mut self, id: JointId, max: f32) -> Result<()> {
        self.set_joint_max_motor_force_unrecorded(id, max)?;
        self.rec(|j| j.set_joint_max_motor_force(id, max));
        Ok(())
    }

    /// Turns a revolute, prismatic or wheel joint's limit on or off.
    pub fn set_joint_enable_limit(&mut self, id: JointId, enable: bool) -> Result<()> {
        self.set_joint_enable_limit_unrecorded(id, enable)?;
        self.rec(|j| j.set_joint_enable_limit(id, enable));
        Ok(())
    }

    /// Sets the limits of a revolute (angle), prismatic (translation), wheel (suspension)
    /// or cone-twist (twist) joint.
    pub fn set_joint_limits(&mut self, id: JointId, lower: f32, upper: f32) -> Result<()> {
        self.set_joint_limits_unrecorded(id, lower, upper)?;
        self.rec(|j| j.set_joint_limits(id, lower, upper));
        Ok(())
    }

    /// Turns a revolute, prismatic, wheel or distance joint's spring on or off.
    pub fn set_joint_enable_spring(&mut self, id: JointId, enable: bool) -> Result<()> {
        self.set_joint_enable_spring_unrecorded(id, enable)?;
        self.rec(|j| j.set_joint_enable_spring(id, enable));
        Ok(())
    }

    /// Sets the spring of a revolute, prismatic, wheel or distance joint: stiffness (Hz)
    /// and damping ratio.
    pub fn set_joint_spring(&mut self, id: JointId, hz: f32, damping_ratio: f32) -> Result<()> {
        self.set_joint_spring_unrecorded(id, hz, damping_ratio)?;
        self.rec(|j| j.set_joint_spring(id, hz, damping_ratio));
        Ok(())
    }

    /// Makes a revolute or prismatic joint's limits soft: once reached, a limit gives like
    /// a spring of `hz` (Hz) and `damping_ratio` and pushes back; 0 Hz: rigid (the
    /// default, with the joint softness).
    pub fn set_joint_limit_spring(
        &mut self,
        id: JointId,
        hz: f32,
        damping_ratio: f32,
    ) -> Result<()> {
        self.set_joint_limit_spring_unrecorded(id, hz, damping_ratio)?;
        self.rec(|j| j.set_joint_limit_spring(id, hz, damping_ratio));
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
        self.set_weld_spring_unrecorded(id, linear_hertz, angular_hertz, damping_ratio)?;
        self.rec(|j| j.set_weld_spring(id, linear_hertz, angular_hertz, damping_ratio));
        Ok(())
    }

    /// Sets a distance joint's spring rest length, m.
    pub fn set_distance_length(&mut self, id: JointId, length: f32) -> Result<()> {
        self.set_distance_length_unrecorded(id, length)?;
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
        self.set_distance_range_unrecorded(id, min_length, max_length)?;
        self.rec(|j| j.set_distance_range(id, min_length, max_length));
        Ok(())
    }

    /// Sets a cone-twist joint's swing limit (half-angle of the cone), radians.
    pub fn set_cone_swing_limit(&mut self, id: JointId, swing_limit: f32) -> Result<()> {
        self.set_cone_swing_limit_unrecorded(id, swing_limit)?;
        self.rec(|j| j.set_cone_swing_limit(id, swing_limit));
        Ok(())
    }

    /// Sets one axis of a six-DOF joint: 0..3 linear x, y, z; 3..6 angular x, y, z.
    pub fn set_six_dof_axis(&mut self, id: JointId, axis: u32, value: SixDofAxis) -> Result<()> {
        self.set_six_dof_axis_unrecorded(id, axis, value)?;
        self.rec(|j| j.set_six_dof_axis(id, axis, value));
        Ok(())
    }

    /// Gives a spherical or revolute joint's pivot (its point rows) a softness of its own:
    /// stiffness `hz` (0: the world's joint softness, as at creation) and damping ratio
    /// (1: critical). A soft pivot pulls its anchors together like a damped spring of that
    /// frequency instead of within a few substeps. Refused for another kind or values out
    /// of range.
    pub fn set_joint_pivot_spring(
        &mut self,
        id: JointId,
        hz: f32,
        damping_ratio: f32,
    ) -> Result<()> {
        self.set_joint_pivot_spring_unrecorded(id, hz, damping_ratio)?;
        self.rec(|j| j.set_joint_pivot_spring(id, hz, damping_ratio));
        Ok(())
    }

    /// Makes a limited six-DOF axis's limits soft (0..3 linear x, y, z; 3..6 angular x, y,
    /// z): once reached, a limit gives like a spring of `hz` (Hz) and `damping_ratio` and
    /// pushes back; 0 Hz: rigid (the default, with the joint softness). The same as
    /// setting the axis's `limit_hertz` and `limit_damping_ratio` with
    /// [`World::set_six_dof_axis`], the rest of the axis kept.
    pub fn set_six_dof_limit_spring(
        &mut self,
        id: JointId,
        axis: u32,
        hz: f32,
        damping_ratio: f32,
    ) -> Result<()> {
        self.set_six_dof_limit_spring_unrecorded(id, axis, hz, damping_ratio)?;
        self.rec(|j| j.set_six_dof_limit_spring(id, axis, hz, damping_ratio));
        Ok(())
    }

    /// Sets the reaction force (N) and torque (N·m) above which the joint breaks.
    pub fn set_joint_break_thresholds(
        &mut self,
        id: JointId,
        break_force: f32,
        break_torque: f32,
    ) -> Result<()> {
        self.set_joint_break_thresholds_unrecorded(id, break_force, break_torque)?;
        self.rec(|j| j.set_joint_break_thresholds(id, break_force, break_torque));
        Ok(())
    }

    /// Lets the joint's bodies collide with each other or not. Turned off, their contacts
    /// end now; turned on, the next step looks for their pairs.
    pub fn set_joint_collide_connected(&mut self, id: JointId, collide: bool) -> Result<()> {
        self.set_joint_collide_connected_unrecorded(id, collide)?;
        self.rec(|j| j.set_joint_collide_connected(id, collide));
        Ok(())
    }

    /// Sets the host's data of the joint (not state: never hashed).
    pub fn set_joint_user_data(&mut self, id: JointId, data: u64) -> Result<()> {
        self.set_joint_user_data_unrecorded(id, data)?;
        self.rec(|j| j.set_joint_user_data(id, data));
        Ok(())
    }

    /// Sets the world's joint damping ratio (the softness of rigid joint rows).
    pub fn set_joint_damping_ratio(&mut self, ratio: f32) -> Result<()> {
        self.set_joint_damping_ratio_unrecorded(ratio)?;
        self.rec(|j| j.set_joint_damping_ratio(ratio));
        Ok(())
    }
}
