//! The body calls that change a world: create and destroy, pose and velocity, forces and
//! impulses, type, sleep and settings. Each checks and applies through `body.rs`'s
//! `*_unrecorded` function, then records itself; calls that forward to another call
//! (`set_body_linear_velocity`, `set_body_target_transform`,
//! `apply_linear_impulse_to_center`) are recorded as the call they make.

use crate::body::{BodyDef, BodyType, MotionLocks};
use crate::error::Result;
use crate::geometry::MassData;
use crate::id::BodyId;
use crate::math::{DVec3, Quat, Vec3};
use crate::world::World;

impl World {
    /// Creates a body. Refused (nothing changed) for bad values or a full pool.
    pub fn create_body(&mut self, def: &BodyDef) -> Result<BodyId> {
        let id = self.create_body_unrecorded(def)?;
        self.rec(|j| j.create_body(def, id));
        Ok(id)
    }

    /// Destroys a body, its joints (in ascending joint slot order), shapes and contacts;
    /// bodies it touched or was joined to wake up.
    pub fn destroy_body(&mut self, id: BodyId) -> Result<()> {
        self.destroy_body_unrecorded(id)?;
        self.rec(|j| j.destroy_body(id));
        Ok(())
    }

    /// Sets the host's data (not state: never hashed).
    pub fn set_body_user_data(&mut self, id: BodyId, data: u64) -> Result<()> {
        self.set_body_user_data_unrecorded(id, data)?;
        self.rec(|j| j.set_body_user_data(id, data));
        Ok(())
    }

    /// Teleports the body. Wakes it and whatever it touched.
    pub fn set_body_transform(
        &mut self,
        id: BodyId,
        position: DVec3,
        rotation: Quat,
    ) -> Result<()> {
        self.set_body_transform_unrecorded(id, position, rotation)?;
        self.rec(|j| j.set_body_transform(id, position, rotation));
        Ok(())
    }

    /// Sets both velocities (ignored for static bodies). Wakes the body.
    pub fn set_body_velocity(&mut self, id: BodyId, linear: Vec3, angular: Vec3) -> Result<()> {
        self.set_body_velocity_unrecorded(id, linear, angular)?;
        self.rec(|j| j.set_body_velocity(id, linear, angular));
        Ok(())
    }

    /// Sets the linear velocity. Wakes the body.
    pub fn set_body_linear_velocity(&mut self, id: BodyId, v: Vec3) -> Result<()> {
        let w = self.body_angular_velocity(id)?;
        self.set_body_velocity(id, v, w)
    }

    /// Sets the angular velocity. Wakes the body.
    pub fn set_body_angular_velocity(&mut self, id: BodyId, w: Vec3) -> Result<()> {
        let v = self.body_linear_velocity(id)?;
        self.set_body_velocity(id, v, w)
    }

    /// Moves a kinematic body so that it reaches `position`/`rotation` after `time_step`
    /// seconds, by setting its velocities (Box3D's target transform).
    pub fn set_body_target_transform(
        &mut self,
        id: BodyId,
        position: DVec3,
        rotation: Quat,
        time_step: f32,
    ) -> Result<()> {
        let (v, w) = self.target_velocities(id, position, rotation, time_step)?;
        self.set_body_velocity(id, v, w)
    }

    /// Adds a force at the centre of mass for the next step. Wakes the body.
    pub fn apply_force_to_center(&mut self, id: BodyId, force: Vec3) -> Result<()> {
        self.apply_force_to_center_unrecorded(id, force)?;
        self.rec(|j| j.apply_force_to_center(id, force));
        Ok(())
    }

    /// Adds a force at a world point for the next step. Wakes the body.
    pub fn apply_force(&mut self, id: BodyId, force: Vec3, point: DVec3) -> Result<()> {
        self.apply_force_unrecorded(id, force, point)?;
        self.rec(|j| j.apply_force(id, force, point));
        Ok(())
    }

    /// Adds a torque for the next step. Wakes the body.
    pub fn apply_torque(&mut self, id: BodyId, torque: Vec3) -> Result<()> {
        self.apply_torque_unrecorded(id, torque)?;
        self.rec(|j| j.apply_torque(id, torque));
        Ok(())
    }

    /// Applies an impulse at a world point now. Wakes the body.
    pub fn apply_linear_impulse(&mut self, id: BodyId, impulse: Vec3, point: DVec3) -> Result<()> {
        self.apply_linear_impulse_unrecorded(id, impulse, point)?;
        self.rec(|j| j.apply_linear_impulse(id, impulse, point));
        Ok(())
    }

    /// Applies an impulse at the centre of mass now. Wakes the body.
    pub fn apply_linear_impulse_to_center(&mut self, id: BodyId, impulse: Vec3) -> Result<()> {
        let c = self.body_center_of_mass(id)?;
        self.apply_linear_impulse(id, impulse, c)
    }

    /// Applies an angular impulse now. Wakes the body.
    pub fn apply_angular_impulse(&mut self, id: BodyId, impulse: Vec3) -> Result<()> {
        self.apply_angular_impulse_unrecorded(id, impulse)?;
        self.rec(|j| j.apply_angular_impulse(id, impulse));
        Ok(())
    }

    /// Changes the body's type: contacts are rebuilt, mass recomputed, the body woken.
    pub fn set_body_type(&mut self, id: BodyId, body_type: BodyType) -> Result<()> {
        self.set_body_type_unrecorded(id, body_type)?;
        self.rec(|j| j.set_body_type(id, body_type));
        Ok(())
    }

    /// Enables or disables the body. A disabled body has no contacts and is not stepped.
    pub fn set_body_enabled(&mut self, id: BodyId, enabled: bool) -> Result<()> {
        self.set_body_enabled_unrecorded(id, enabled)?;
        self.rec(|j| j.set_body_enabled(id, enabled));
        Ok(())
    }

    /// Wakes the body's island, or puts it to sleep at once.
    pub fn set_body_awake(&mut self, id: BodyId, awake: bool) -> Result<()> {
        self.set_body_awake_unrecorded(id, awake)?;
        self.rec(|j| j.set_body_awake(id, awake));
        Ok(())
    }

    /// Wakes every sleeping dynamic body (and its island) that has a contact with `id`:
    /// every body whose shapes' fat bounds overlap the body's as of the last step, touching
    /// or not, in the order of the body's contact list (Box2D's `b2Body_WakeTouching`).
    /// Bodies already awake are left as they are (their sleep timers too). Works for every
    /// body type; recorded even when nothing sleeps.
    pub fn wake_bodies_touching(&mut self, id: BodyId) -> Result<()> {
        self.wake_bodies_touching_unrecorded(id)?;
        self.rec(|j| j.wake_bodies_touching(id));
        Ok(())
    }

    /// Lets this body sleep or keeps it always awake.
    pub fn set_body_sleep_enabled(&mut self, id: BodyId, enable: bool) -> Result<()> {
        self.set_body_sleep_enabled_unrecorded(id, enable)?;
        self.rec(|j| j.set_body_sleep_enabled(id, enable));
        Ok(())
    }

    /// Sets the speed under which the body may sleep, m/s.
    pub fn set_body_sleep_threshold(&mut self, id: BodyId, threshold: f32) -> Result<()> {
        self.set_body_sleep_threshold_unrecorded(id, threshold)?;
        self.rec(|j| j.set_body_sleep_threshold(id, threshold));
        Ok(())
    }

    /// Sets linear and angular damping (≥ 0).
    pub fn set_body_damping(&mut self, id: BodyId, linear: f32, angular: f32) -> Result<()> {
        self.set_body_damping_unrecorded(id, linear, angular)?;
        self.rec(|j| j.set_body_damping(id, linear, angular));
        Ok(())
    }

    /// Sets the gravity scale.
    pub fn set_body_gravity_scale(&mut self, id: BodyId, scale: f32) -> Result<()> {
        self.set_body_gravity_scale_unrecorded(id, scale)?;
        self.rec(|j| j.set_body_gravity_scale(id, scale));
        Ok(())
    }

    /// Sets the axis locks; locked velocity components are zeroed.
    pub fn set_body_motion_locks(&mut self, id: BodyId, locks: MotionLocks) -> Result<()> {
        self.set_body_motion_locks_unrecorded(id, locks)?;
        self.rec(|j| j.set_body_motion_locks(id, locks));
        Ok(())
    }

    /// Sets whether the body skips gravity and damping (the host applies its own forces).
    pub fn set_body_custom_integrator(&mut self, id: BodyId, custom: bool) -> Result<()> {
        self.set_body_custom_integrator_unrecorded(id, custom)?;
        self.rec(|j| j.set_body_custom_integrator(id, custom));
        Ok(())
    }

    /// Marks the body as a bullet (continuous collision against everything, Core II).
    pub fn set_body_bullet(&mut self, id: BodyId, bullet: bool) -> Result<()> {
        self.set_body_bullet_unrecorded(id, bullet)?;
        self.rec(|j| j.set_body_bullet(id, bullet));
        Ok(())
    }

    /// Overrides mass, centre of mass and inertia (state), or with `None` goes back to
    /// the shapes' mass.
    pub fn set_body_mass_data(&mut self, id: BodyId, data: Option<MassData>) -> Result<()> {
        self.set_body_mass_data_unrecorded(id, data)?;
        self.rec(|j| j.set_body_mass_data(id, data));
        Ok(())
    }
}
