//! Rigid bodies: what the host describes (`BodyDef`) and what the world keeps (`Body`).

use crate::geometry::MassData;
use crate::math::{DVec3, Mat3, Quat, Vec3};

/// How a body moves.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum BodyType {
    /// Never moves; infinite mass.
    #[default]
    Static = 0,
    /// Moves by its velocity (or a target transform); infinite mass, pushes dynamics.
    Kinematic = 1,
    /// Moves under forces and contacts.
    Dynamic = 2,
}

/// Per-axis locks, in world axes: a locked linear axis keeps its velocity component at
/// zero and takes no impulse; a locked angular axis likewise.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct MotionLocks {
    /// Lock translation along x.
    pub linear_x: bool,
    /// Lock translation along y.
    pub linear_y: bool,
    /// Lock translation along z.
    pub linear_z: bool,
    /// Lock rotation about x.
    pub angular_x: bool,
    /// Lock rotation about y.
    pub angular_y: bool,
    /// Lock rotation about z.
    pub angular_z: bool,
}

impl MotionLocks {
    /// No rotation at all (Box2D's "fixed rotation").
    pub const FIXED_ROTATION: MotionLocks = MotionLocks {
        linear_x: false,
        linear_y: false,
        linear_z: false,
        angular_x: true,
        angular_y: true,
        angular_z: true,
    };

    /// Packed as bits 0..6: linear x, y, z, angular x, y, z.
    pub fn bits(self) -> u8 {
        (self.linear_x as u8)
            | (self.linear_y as u8) << 1
            | (self.linear_z as u8) << 2
            | (self.angular_x as u8) << 3
            | (self.angular_y as u8) << 4
            | (self.angular_z as u8) << 5
    }

    /// Unpacked from `bits`.
    pub fn from_bits(b: u8) -> MotionLocks {
        MotionLocks {
            linear_x: b & 1 != 0,
            linear_y: b & 2 != 0,
            linear_z: b & 4 != 0,
            angular_x: b & 8 != 0,
            angular_y: b & 16 != 0,
            angular_z: b & 32 != 0,
        }
    }

    /// 1 for a free axis and 0 for a locked one: linear.
    pub(crate) fn linear_mask(self) -> Vec3 {
        Vec3::new(
            if self.linear_x { 0.0 } else { 1.0 },
            if self.linear_y { 0.0 } else { 1.0 },
            if self.linear_z { 0.0 } else { 1.0 },
        )
    }

    /// 1 for a free axis and 0 for a locked one: angular.
    pub(crate) fn angular_mask(self) -> Vec3 {
        Vec3::new(
            if self.angular_x { 0.0 } else { 1.0 },
            if self.angular_y { 0.0 } else { 1.0 },
            if self.angular_z { 0.0 } else { 1.0 },
        )
    }
}

/// Everything needed to create a body. Change the fields you need and keep
/// `..Default::default()` for the rest.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BodyDef {
    /// Static, kinematic or dynamic.
    pub body_type: BodyType,
    /// Position of the body origin, relative to the world origin. Each component must be
    /// below 2^21 in magnitude; it is rounded to the 2^-32 grid.
    pub position: DVec3,
    /// Rotation (normalised on create).
    pub rotation: Quat,
    /// Initial velocity of the centre of mass.
    pub linear_velocity: Vec3,
    /// Initial angular velocity.
    pub angular_velocity: Vec3,
    /// Linear damping, 1/s, ≥ 0.
    pub linear_damping: f32,
    /// Angular damping, 1/s, ≥ 0.
    pub angular_damping: f32,
    /// Multiplies the world's gravity for this body.
    pub gravity_scale: f32,
    /// Speed under which the body may sleep, m/s (default 0.05).
    pub sleep_threshold: f32,
    /// Whether this body may ever sleep.
    pub enable_sleep: bool,
    /// Whether it starts awake.
    pub is_awake: bool,
    /// Bullets get continuous collision against everything (continuous collision comes
    /// with Core II; the flag is stored now).
    pub is_bullet: bool,
    /// Disabled bodies take no part in the simulation.
    pub is_enabled: bool,
    /// Axis locks.
    pub motion_locks: MotionLocks,
    /// The body skips gravity and damping: the host integrates them with its own forces
    /// (Godot's custom integrator).
    pub custom_integrator: bool,
    /// Host data: stored, never hashed.
    pub user_data: u64,
}

impl Default for BodyDef {
    fn default() -> BodyDef {
        BodyDef {
            body_type: BodyType::Static,
            position: DVec3::ZERO,
            rotation: Quat::IDENTITY,
            linear_velocity: Vec3::ZERO,
            angular_velocity: Vec3::ZERO,
            linear_damping: 0.0,
            angular_damping: 0.0,
            gravity_scale: 1.0,
            sleep_threshold: 0.05,
            enable_sleep: true,
            is_awake: true,
            is_bullet: false,
            is_enabled: true,
            motion_locks: MotionLocks::default(),
            custom_integrator: false,
            user_data: 0,
        }
    }
}

/// Slot value for "no item" in intrusive lists and index maps.
pub(crate) const NONE: u32 = u32::MAX;

/// A body as the world keeps it. Fields marked "state" are simulation state; the rest
/// are recomputed from state and content (mass from shapes) or only observe.
///
/// Laid out by use: what the narrow phase and the joints read of a body for every pair
/// (its pose, centre of mass, extent and flags) is its first cache line (checked below),
/// what the solver reads once a step the next.
#[derive(Clone, Debug)]
#[repr(C, align(64))]
pub(crate) struct Body {
    /// State: origin of the body frame, on the 2^-32 grid, relative to the world origin.
    pub position: DVec3,
    pub rotation: Quat,
    /// Derived from shapes (or the override): the centre of mass in the body frame.
    pub local_center: Vec3,
    /// Derived: farthest shape point from the centre of mass (sleep speed, CCD).
    pub max_extent: f32,
    /// State: the body is alive when `alive`.
    pub alive: bool,
    pub body_type: BodyType,
    pub enabled: bool,
    /// State: false while its island sleeps.
    pub awake: bool,
    pub enable_sleep: bool,
    pub bullet: bool,
    /// State: skips gravity and damping.
    pub custom_integrator: bool,
    /// State: generation of the slot.
    pub generation: u32,
    pub locks: MotionLocks,
    /// State: velocity of the centre of mass.
    pub linear_velocity: Vec3,
    pub angular_velocity: Vec3,
    /// Derived from shapes (or the override): mass properties.
    pub mass: f32,
    pub inv_mass: f32,
    /// Derived: radius of the largest ball the thinnest shape surely contains.
    pub min_extent: f32,
    pub linear_damping: f32,
    pub angular_damping: f32,
    pub gravity_scale: f32,
    pub sleep_threshold: f32,
    /// State: how long the body has been slower than its threshold.
    pub sleep_time: f32,
    pub inv_inertia_local: Mat3,
    /// State: force and torque accumulated by the host for the next step.
    pub force: Vec3,
    pub torque: Vec3,
    /// Host data, not state.
    pub user_data: u64,
    /// State: the host's mass override, if any.
    pub mass_override: Option<MassData>,
    /// Shapes of this body in ascending slot order (derived from the shapes' `body`).
    pub shape_head: u32,
    pub shape_count: u32,
    /// Contacts touching this body, as contact keys `(contact << 1) | edge`. Not state:
    /// list order never shapes a result (it is only walked to find or wake neighbours).
    pub contact_head: u32,
    pub contact_count: u32,
    /// Joints of this body, as joint keys `(joint << 1) | edge`. Not state, like the
    /// contact list: walked to find or wake neighbours and to filter pairs, never in an
    /// order that shapes a result.
    pub joint_head: u32,
    pub joint_count: u32,
}

// What every pair reads of a body lies in its first cache line.
const _: () = {
    use core::mem::{align_of, offset_of, size_of};
    assert!(align_of::<Body>() == 64);
    assert!(offset_of!(Body, custom_integrator) + size_of::<bool>() <= 64);
};

impl Body {
    /// How far from the world origin (largest coordinate) the body's stored position and
    /// its shapes' bounds could reach before the body moves its centre of mass at all:
    /// the shapes lie within `max_extent` of the centre of mass, and the body origin
    /// within `|local_center|` of it on whatever side a turn leaves it — so a body
    /// whose origin sits far from its shapes (a shape offset 1e6 m) may swing its
    /// origin twice that far. Plus the bounds check's slack. The step's bounds check
    /// adds the centre of mass's travel.
    pub(crate) fn reach_at_rest(&self) -> f64 {
        let offset = self.local_center.length() as f64;
        self.position.max_abs()
            + offset
            + crate::math::max_f64(offset, self.max_extent as f64)
            + crate::world::BOUNDS_SLACK
    }

    pub(crate) fn from_def(def: &BodyDef, generation: u32) -> Body {
        Body {
            generation,
            alive: true,
            body_type: def.body_type,
            enabled: def.is_enabled,
            awake: def.is_awake || def.body_type == BodyType::Static,
            enable_sleep: def.enable_sleep,
            bullet: def.is_bullet,
            locks: def.motion_locks,
            custom_integrator: def.custom_integrator,
            position: def.position,
            rotation: def.rotation,
            linear_velocity: def.linear_velocity,
            angular_velocity: def.angular_velocity,
            force: Vec3::ZERO,
            torque: Vec3::ZERO,
            linear_damping: def.linear_damping,
            angular_damping: def.angular_damping,
            gravity_scale: def.gravity_scale,
            sleep_threshold: def.sleep_threshold,
            sleep_time: 0.0,
            user_data: def.user_data,
            mass_override: None,
            mass: 0.0,
            inv_mass: 0.0,
            local_center: Vec3::ZERO,
            inv_inertia_local: Mat3::ZERO,
            max_extent: 0.0,
            min_extent: 0.0,
            shape_head: NONE,
            shape_count: 0,
            contact_head: NONE,
            contact_count: 0,
            joint_head: NONE,
            joint_count: 0,
        }
    }

    /// The world-space centre of mass relative to the body origin.
    #[inline(always)]
    pub(crate) fn center_offset(&self) -> Vec3 {
        self.rotation.rotate(self.local_center)
    }

    /// Whether the body moves during a step (kinematic or dynamic, enabled, awake).
    #[inline(always)]
    pub(crate) fn is_moving(&self) -> bool {
        self.alive && self.enabled && self.awake && self.body_type != BodyType::Static
    }
}

use crate::error::{Error, Result};
use crate::id::BodyId;
use crate::limits::{
    MAX_FORCE, MAX_GRAVITY, MAX_IMPULSE, MAX_SETTING, MAX_VELOCITY, MIN_MASS, check_abs,
    check_mass_data, check_nonneg, check_vec_abs, clamp_abs,
};
use crate::math::{POSITION_EXACT_BOUND, round_to_grid};
use crate::world::World;

/// A position for a new or moved thing: finite, within ±2^21 (where the 2^-32 grid is
/// exact in f64), rounded to the grid so that a shift of the origin moves it exactly.
pub(crate) fn check_position(name: &'static str, p: DVec3) -> Result<DVec3> {
    let mut out = [0.0; 3];
    for (i, o) in out.iter_mut().enumerate() {
        let v = p.get(i);
        if !v.is_finite() {
            return Err(Error::Argument {
                name,
                value: v,
                expected: "finite",
            });
        }
        if v.abs() >= POSITION_EXACT_BOUND {
            return Err(Error::OutOfBounds {
                name,
                value: v,
                bound: POSITION_EXACT_BOUND,
            });
        }
        *o = round_to_grid(v);
    }
    Ok(DVec3::new(out[0], out[1], out[2]))
}

/// A world point a force or impulse acts at: finite and within the coordinate limit, so
/// its lever arm fits an f32.
fn check_point(p: DVec3) -> Result<()> {
    crate::error::check_world_point("point", p, crate::math::POSITION_LIMIT)
}

fn check_rotation(q: Quat) -> Result<Quat> {
    crate::error::check_rotation("rotation", "rotation norm²", q)
}

fn check_velocities(linear: Vec3, angular: Vec3) -> Result<()> {
    let e = "finite and within ±1e5 (each component)";
    check_vec_abs("linear_velocity", linear, MAX_VELOCITY, e)?;
    check_vec_abs("angular_velocity", angular, MAX_VELOCITY, e)
}

fn check_damping(linear: f32, angular: f32) -> Result<()> {
    check_nonneg("linear_damping", linear, MAX_SETTING, "within [0, 1e6]")?;
    check_nonneg("angular_damping", angular, MAX_SETTING, "within [0, 1e6]")
}

impl World {
    /// [`World::create_body`] without its record (the API layer, `crate::api`, records it).
    pub(crate) fn create_body_unrecorded(&mut self, def: &BodyDef) -> Result<BodyId> {
        let position = check_position("position", def.position)?;
        let rotation = check_rotation(def.rotation)?;
        check_velocities(def.linear_velocity, def.angular_velocity)?;
        check_damping(def.linear_damping, def.angular_damping)?;
        check_abs(
            "gravity_scale",
            def.gravity_scale,
            MAX_GRAVITY,
            "finite and within ±1e5",
        )?;
        check_nonneg(
            "sleep_threshold",
            def.sleep_threshold,
            MAX_SETTING,
            "within [0, 1e6]",
        )?;
        let mut d = *def;
        d.position = position;
        d.rotation = rotation;
        if d.body_type == BodyType::Static {
            d.linear_velocity = Vec3::ZERO;
            d.angular_velocity = Vec3::ZERO;
        }
        let slot = self
            .bodies
            .take(
                |b| b.generation,
                |g| Body::from_def(&d, g.wrapping_add(1).max(1)),
            )
            .ok_or(Error::Capacity {
                what: "body_capacity",
                capacity: self.def.body_capacity as u64,
            })?;
        self.bodies.count += 1;
        self.update_body_mass(slot);
        self.sync_awake(slot);
        let id = self.body_id(slot);
        Ok(id)
    }

    /// [`World::destroy_body`] without its record (the API layer, `crate::api`, records it).
    pub(crate) fn destroy_body_unrecorded(&mut self, id: BodyId) -> Result<()> {
        let slot = self.body_slot(id)? as u32;
        if self.body_is_character(slot) {
            // A character's own destroy frees its slot first, so only a stray call lands here.
            return Err(Error::State(
                "the body is a character's inner body: destroy_character removes it",
            ));
        }
        self.forget_character_ground(slot);
        self.destroy_body_vehicles(slot);
        self.detach_soft_particles_from(slot);
        self.forget_soft_ignored_body(slot);
        self.destroy_body_joints(slot);
        self.destroy_body_contacts(slot, None, true);
        let mut s = self.bodies[slot as usize].shape_head;
        while s != NONE {
            let next = self.shapes[s as usize].next_in_body;
            self.free_shape(s);
            s = next;
        }
        let generation = self.bodies[slot as usize].generation;
        let mut dead = Body::from_def(&BodyDef::default(), generation);
        dead.alive = false;
        self.bodies[slot as usize] = dead;
        self.sync_awake(slot);
        let ok = self.bodies.free.push(slot);
        debug_assert!(ok);
        self.bodies.count -= 1;
        Ok(())
    }

    /// Number of live bodies.
    pub fn body_count(&self) -> u32 {
        self.bodies.count
    }

    /// Whether `id` names a live body of this world.
    pub fn body_is_valid(&self, id: BodyId) -> bool {
        self.body_slot(id).is_ok()
    }

    fn body(&self, id: BodyId) -> Result<&Body> {
        Ok(&self.bodies[self.body_slot(id)?])
    }

    /// The body's type.
    pub fn body_type(&self, id: BodyId) -> Result<BodyType> {
        Ok(self.body(id)?.body_type)
    }

    /// Position of the body origin relative to the world origin.
    pub fn body_position(&self, id: BodyId) -> Result<DVec3> {
        Ok(self.body(id)?.position)
    }

    /// Rotation of the body.
    pub fn body_rotation(&self, id: BodyId) -> Result<Quat> {
        Ok(self.body(id)?.rotation)
    }

    /// Position of the centre of mass relative to the world origin.
    pub fn body_center_of_mass(&self, id: BodyId) -> Result<DVec3> {
        let b = self.body(id)?;
        Ok(b.position + b.center_offset().to_f64())
    }

    /// Velocity of the centre of mass.
    pub fn body_linear_velocity(&self, id: BodyId) -> Result<Vec3> {
        Ok(self.body(id)?.linear_velocity)
    }

    /// Angular velocity.
    pub fn body_angular_velocity(&self, id: BodyId) -> Result<Vec3> {
        Ok(self.body(id)?.angular_velocity)
    }

    /// Mass, centre of mass (body frame) and inertia about it.
    pub fn body_mass_data(&self, id: BodyId) -> Result<MassData> {
        let b = self.body(id)?;
        Ok(MassData {
            mass: b.mass,
            center: b.local_center,
            inertia: b.inv_inertia_local.inverse(),
        })
    }

    /// The body's linear and angular damping.
    pub fn body_damping(&self, id: BodyId) -> Result<(f32, f32)> {
        let b = self.body(id)?;
        Ok((b.linear_damping, b.angular_damping))
    }

    /// The body's gravity scale.
    pub fn body_gravity_scale(&self, id: BodyId) -> Result<f32> {
        Ok(self.body(id)?.gravity_scale)
    }

    /// Whether the body may fall asleep.
    pub fn body_sleep_enabled(&self, id: BodyId) -> Result<bool> {
        Ok(self.body(id)?.enable_sleep)
    }

    /// Whether the body is a bullet (continuous collision against dynamic bodies too).
    pub fn body_is_bullet(&self, id: BodyId) -> Result<bool> {
        Ok(self.body(id)?.bullet)
    }

    /// The body's motion locks.
    pub fn body_motion_locks(&self, id: BodyId) -> Result<MotionLocks> {
        Ok(self.body(id)?.locks)
    }

    /// Whether the body skips gravity and damping (a custom integrator).
    pub fn body_custom_integrator(&self, id: BodyId) -> Result<bool> {
        Ok(self.body(id)?.custom_integrator)
    }

    /// Whether the body is awake.
    pub fn body_is_awake(&self, id: BodyId) -> Result<bool> {
        Ok(self.body(id)?.awake)
    }

    /// Whether the body takes part in the simulation.
    pub fn body_is_enabled(&self, id: BodyId) -> Result<bool> {
        Ok(self.body(id)?.enabled)
    }

    /// The host's data.
    pub fn body_user_data(&self, id: BodyId) -> Result<u64> {
        Ok(self.body(id)?.user_data)
    }

    /// [`World::set_body_user_data`] without its record (the API layer, `crate::api`, records it).
    pub(crate) fn set_body_user_data_unrecorded(&mut self, id: BodyId, data: u64) -> Result<()> {
        let slot = self.body_slot(id)?;
        self.bodies[slot].user_data = data;
        Ok(())
    }

    /// [`World::set_body_transform`] without its record (the API layer, `crate::api`, records it).
    pub(crate) fn set_body_transform_unrecorded(
        &mut self,
        id: BodyId,
        position: DVec3,
        rotation: Quat,
    ) -> Result<()> {
        let slot = self.body_slot(id)?;
        let position = check_position("position", position)?;
        let rotation = check_rotation(rotation)?;
        self.wake_touching(slot as u32);
        let b = &mut self.bodies[slot];
        b.position = position;
        b.rotation = rotation;
        self.wake_body(slot as u32);
        self.refresh_body_bounds(slot as u32, true);
        Ok(())
    }

    /// [`World::set_body_velocity`] without its record (the API layer, `crate::api`, records it).
    pub(crate) fn set_body_velocity_unrecorded(
        &mut self,
        id: BodyId,
        linear: Vec3,
        angular: Vec3,
    ) -> Result<()> {
        let slot = self.body_slot(id)?;
        check_velocities(linear, angular)?;
        // Accepted, so recorded, though a static body ignores it: every accepted call
        // is on the tape.
        let b = &mut self.bodies[slot];
        if b.body_type == BodyType::Static {
            return Ok(());
        }
        b.linear_velocity = linear.mul_elements(b.locks.linear_mask());
        b.angular_velocity = angular.mul_elements(b.locks.angular_mask());
        self.wake_body(slot as u32);
        Ok(())
    }

    /// The velocities that carry a kinematic body to `position`/`rotation` in
    /// `time_step` seconds, for [`World::set_body_target_transform`] (checks included).
    pub(crate) fn target_velocities(
        &self,
        id: BodyId,
        position: DVec3,
        rotation: Quat,
        time_step: f32,
    ) -> Result<(Vec3, Vec3)> {
        let slot = self.body_slot(id)?;
        let position = check_position("position", position)?;
        let rotation = check_rotation(rotation)?;
        crate::error::check_range(
            "time_step",
            time_step,
            1e-4,
            10.0,
            "finite and within [1e-4, 10]",
        )?;
        let b = &self.bodies[slot];
        if b.body_type != BodyType::Kinematic {
            return Err(Error::State(
                "set_body_target_transform needs a kinematic body",
            ));
        }
        let inv = 1.0 / time_step;
        let c0 = b.center_offset();
        let c1 = rotation.rotate(b.local_center);
        let dp = (position - b.position).to_f32() + (c1 - c0);
        let v = dp * inv;
        // Rotation q1 = dq q0: angle-axis of dq over the time step.
        let mut dq = rotation * b.rotation.conjugate();
        if dq.w < 0.0 {
            dq = crate::math::Quat::new(-dq.x, -dq.y, -dq.z, -dq.w);
        }
        let sin_half = dq.v().length();
        let angle = 2.0 * crate::math::atan2(sin_half, dq.w);
        let axis = if sin_half > 0.0 {
            dq.v() * (1.0 / sin_half)
        } else {
            Vec3::ZERO
        };
        let w = axis * (angle * inv);
        Ok((v, w))
    }

    /// [`World::apply_force_to_center`] without its record (the API layer, `crate::api`, records it).
    pub(crate) fn apply_force_to_center_unrecorded(
        &mut self,
        id: BodyId,
        force: Vec3,
    ) -> Result<()> {
        let slot = self.body_slot(id)?;
        check_vec_abs(
            "force",
            force,
            MAX_FORCE,
            "finite and within ±1e15 (each component)",
        )?;
        if self.bodies[slot].body_type != BodyType::Dynamic {
            return Ok(());
        }
        let b = &mut self.bodies[slot];
        // Forces add up until the step; the sum stays within the accepted range.
        b.force = clamp_abs(b.force + force, MAX_FORCE);
        self.wake_body(slot as u32);
        Ok(())
    }

    /// [`World::apply_force`] without its record (the API layer, `crate::api`, records it).
    pub(crate) fn apply_force_unrecorded(
        &mut self,
        id: BodyId,
        force: Vec3,
        point: DVec3,
    ) -> Result<()> {
        let slot = self.body_slot(id)?;
        check_vec_abs(
            "force",
            force,
            MAX_FORCE,
            "finite and within ±1e15 (each component)",
        )?;
        check_point(point)?;
        let b = &mut self.bodies[slot];
        if b.body_type != BodyType::Dynamic {
            return Ok(());
        }
        let r = (point - b.position).to_f32() - b.center_offset();
        b.force = clamp_abs(b.force + force, MAX_FORCE);
        b.torque = clamp_abs(b.torque + r.cross(force), MAX_FORCE);
        self.wake_body(slot as u32);
        Ok(())
    }

    /// [`World::apply_torque`] without its record (the API layer, `crate::api`, records it).
    pub(crate) fn apply_torque_unrecorded(&mut self, id: BodyId, torque: Vec3) -> Result<()> {
        let slot = self.body_slot(id)?;
        check_vec_abs(
            "torque",
            torque,
            MAX_FORCE,
            "finite and within ±1e15 (each component)",
        )?;
        if self.bodies[slot].body_type != BodyType::Dynamic {
            return Ok(());
        }
        let b = &mut self.bodies[slot];
        b.torque = clamp_abs(b.torque + torque, MAX_FORCE);
        self.wake_body(slot as u32);
        Ok(())
    }

    /// [`World::apply_linear_impulse`] without its record (the API layer, `crate::api`, records it).
    pub(crate) fn apply_linear_impulse_unrecorded(
        &mut self,
        id: BodyId,
        impulse: Vec3,
        point: DVec3,
    ) -> Result<()> {
        let slot = self.body_slot(id)?;
        check_vec_abs(
            "impulse",
            impulse,
            MAX_IMPULSE,
            "finite and within ±1e12 (each component)",
        )?;
        check_point(point)?;
        if self.bodies[slot].body_type != BodyType::Dynamic {
            return Ok(());
        }
        self.apply_impulse_quietly(slot as u32, impulse, point);
        Ok(())
    }

    /// The impulse part of `apply_linear_impulse` for a dynamic body: no checks, no record.
    pub(crate) fn apply_impulse_quietly(&mut self, slot: u32, impulse: Vec3, point: DVec3) {
        let b = &mut self.bodies[slot as usize];
        let r = (point - b.position).to_f32() - b.center_offset();
        let ii = b.inv_inertia_local.rotate_tensor(b.rotation);
        // Velocities stay within the accepted range whatever impulses add up to.
        b.linear_velocity = clamp_abs(b.linear_velocity + impulse * b.inv_mass, MAX_VELOCITY)
            .mul_elements(b.locks.linear_mask());
        b.angular_velocity = clamp_abs(
            b.angular_velocity + ii.mul_vec(r.cross(impulse)),
            MAX_VELOCITY,
        )
        .mul_elements(b.locks.angular_mask());
        self.wake_body(slot);
    }

    /// [`World::apply_angular_impulse`] without its record (the API layer, `crate::api`, records it).
    pub(crate) fn apply_angular_impulse_unrecorded(
        &mut self,
        id: BodyId,
        impulse: Vec3,
    ) -> Result<()> {
        let slot = self.body_slot(id)?;
        check_vec_abs(
            "impulse",
            impulse,
            MAX_IMPULSE,
            "finite and within ±1e12 (each component)",
        )?;
        let b = &mut self.bodies[slot];
        if b.body_type != BodyType::Dynamic {
            return Ok(());
        }
        let ii = b.inv_inertia_local.rotate_tensor(b.rotation);
        b.angular_velocity = clamp_abs(b.angular_velocity + ii.mul_vec(impulse), MAX_VELOCITY)
            .mul_elements(b.locks.angular_mask());
        self.wake_body(slot as u32);
        Ok(())
    }

    /// [`World::set_body_type`] without its record (the API layer, `crate::api`, records it).
    pub(crate) fn set_body_type_unrecorded(
        &mut self,
        id: BodyId,
        body_type: BodyType,
    ) -> Result<()> {
        let slot = self.body_slot(id)? as u32;
        if self.body_is_character(slot) {
            return Err(Error::State("a character's inner body must stay kinematic"));
        }
        if self.bodies[slot as usize].body_type == body_type {
            // Accepted, so recorded, though it changes nothing.
            return Ok(());
        }
        if body_type != BodyType::Static && self.body_has_plane(slot) {
            return Err(Error::State("a body with a plane shape must stay static"));
        }
        if body_type == BodyType::Dynamic && self.body_has_mesh(slot) {
            return Err(Error::Argument {
                name: "body type of a body with a mesh or height-field shape",
                value: body_type as u8 as f64,
                expected: "static (0) or kinematic (1)",
            });
        }
        self.destroy_body_contacts(slot, None, true);
        self.remove_body_proxies(slot);
        let b = &mut self.bodies[slot as usize];
        b.body_type = body_type;
        if body_type == BodyType::Static {
            b.linear_velocity = Vec3::ZERO;
            b.angular_velocity = Vec3::ZERO;
            b.awake = true;
        }
        self.update_body_mass(slot);
        // A disabled body has no proxies (restore rebuilds them for enabled bodies only);
        // enabling it adds them.
        if self.bodies[slot as usize].enabled {
            self.add_body_proxies(slot);
        }
        self.wake_body(slot);
        Ok(())
    }

    /// [`World::set_body_enabled`] without its record (the API layer, `crate::api`, records it).
    pub(crate) fn set_body_enabled_unrecorded(&mut self, id: BodyId, enabled: bool) -> Result<()> {
        let slot = self.body_slot(id)? as u32;
        if self.bodies[slot as usize].enabled == enabled {
            return Ok(());
        }
        if enabled {
            self.bodies[slot as usize].enabled = true;
            self.add_body_proxies(slot);
            self.wake_body(slot);
        } else {
            self.destroy_body_contacts(slot, None, true);
            self.remove_body_proxies(slot);
            self.bodies[slot as usize].enabled = false;
            self.sync_awake(slot);
        }
        Ok(())
    }

    /// [`World::set_body_awake`] without its record (the API layer, `crate::api`, records it).
    pub(crate) fn set_body_awake_unrecorded(&mut self, id: BodyId, awake: bool) -> Result<()> {
        let slot = self.body_slot(id)? as u32;
        if awake {
            self.wake_island(slot);
        } else {
            self.sleep_island(slot);
        }
        Ok(())
    }

    /// [`World::set_body_sleep_enabled`] without its record (the API layer, `crate::api`, records it).
    pub(crate) fn set_body_sleep_enabled_unrecorded(
        &mut self,
        id: BodyId,
        enable: bool,
    ) -> Result<()> {
        let slot = self.body_slot(id)?;
        self.bodies[slot].enable_sleep = enable;
        if !enable {
            self.wake_island(slot as u32);
        }
        Ok(())
    }

    /// [`World::set_body_sleep_threshold`] without its record (the API layer, `crate::api`, records it).
    pub(crate) fn set_body_sleep_threshold_unrecorded(
        &mut self,
        id: BodyId,
        threshold: f32,
    ) -> Result<()> {
        let slot = self.body_slot(id)?;
        check_nonneg("sleep_threshold", threshold, MAX_SETTING, "within [0, 1e6]")?;
        self.bodies[slot].sleep_threshold = threshold;
        Ok(())
    }

    /// [`World::set_body_damping`] without its record (the API layer, `crate::api`, records it).
    pub(crate) fn set_body_damping_unrecorded(
        &mut self,
        id: BodyId,
        linear: f32,
        angular: f32,
    ) -> Result<()> {
        let slot = self.body_slot(id)?;
        check_damping(linear, angular)?;
        self.bodies[slot].linear_damping = linear;
        self.bodies[slot].angular_damping = angular;
        Ok(())
    }

    /// [`World::set_body_gravity_scale`] without its record (the API layer, `crate::api`, records it).
    pub(crate) fn set_body_gravity_scale_unrecorded(
        &mut self,
        id: BodyId,
        scale: f32,
    ) -> Result<()> {
        let slot = self.body_slot(id)?;
        check_abs(
            "gravity_scale",
            scale,
            MAX_GRAVITY,
            "finite and within ±1e5",
        )?;
        self.bodies[slot].gravity_scale = scale;
        self.wake_body(slot as u32);
        Ok(())
    }

    /// [`World::set_body_motion_locks`] without its record (the API layer, `crate::api`, records it).
    pub(crate) fn set_body_motion_locks_unrecorded(
        &mut self,
        id: BodyId,
        locks: MotionLocks,
    ) -> Result<()> {
        let slot = self.body_slot(id)?;
        let b = &mut self.bodies[slot];
        b.locks = locks;
        b.linear_velocity = b.linear_velocity.mul_elements(locks.linear_mask());
        b.angular_velocity = b.angular_velocity.mul_elements(locks.angular_mask());
        self.wake_body(slot as u32);
        Ok(())
    }

    /// [`World::set_body_custom_integrator`] without its record (the API layer, `crate::api`, records it).
    pub(crate) fn set_body_custom_integrator_unrecorded(
        &mut self,
        id: BodyId,
        custom: bool,
    ) -> Result<()> {
        let slot = self.body_slot(id)?;
        self.bodies[slot].custom_integrator = custom;
        self.wake_body(slot as u32);
        Ok(())
    }

    /// [`World::set_body_bullet`] without its record (the API layer, `crate::api`, records it).
    pub(crate) fn set_body_bullet_unrecorded(&mut self, id: BodyId, bullet: bool) -> Result<()> {
        let slot = self.body_slot(id)?;
        self.bodies[slot].bullet = bullet;
        Ok(())
    }

    /// [`World::set_body_mass_data`] without its record (the API layer, `crate::api`, records it).
    pub(crate) fn set_body_mass_data_unrecorded(
        &mut self,
        id: BodyId,
        data: Option<MassData>,
    ) -> Result<()> {
        let slot = self.body_slot(id)?;
        if let Some(m) = data {
            check_mass_data(&m)?;
        }
        self.bodies[slot].mass_override = data;
        self.update_body_mass(slot as u32);
        self.wake_body(slot as u32);
        Ok(())
    }

    /// Wakes one body's island (no-op for static or awake bodies, but resets the timer).
    pub(crate) fn wake_body(&mut self, slot: u32) {
        self.wake_island(slot);
        // Also for a body that stays at rest (a kinematic body asleep): the callers
        // changed it (type, pose, velocity, shapes).
        self.sync_awake(slot);
    }

    /// Wakes the dynamic bodies touching `slot` (for moves of static bodies).
    fn wake_touching(&mut self, slot: u32) {
        let mut key = crate::edge::first::<crate::contact::Contact>(&self.bodies, slot);
        while key != NONE {
            let n = crate::edge::step(&self.contacts, key);
            self.wake_island(n.other);
            key = n.next;
        }
    }

    /// Recomputes mass, centre and inertia from the shapes (or the override) after a call
    /// changed them, and computes the body's contact manifolds afresh at the next step:
    /// their anchors are relative to the centre of mass, which may have moved, so none is
    /// recycled (`crate::contact::Recycle`).
    pub(crate) fn update_body_mass(&mut self, slot: u32) {
        self.compute_body_mass(slot);
        let mut key = crate::edge::first::<crate::contact::Contact>(&self.bodies, slot);
        while key != NONE {
            let n = crate::edge::step(&self.contacts, key);
            self.contacts[n.slot as usize].flags &= !crate::contact::CONTACT_RECYCLABLE;
            key = n.next;
        }
    }

    /// Recomputes mass, centre and inertia from the shapes (or the override): derived
    /// values only (a restore makes them so).
    pub(crate) fn compute_body_mass(&mut self, slot: u32) {
        let b = &self.bodies[slot as usize];
        let mut max_extent = 0.0f32;
        let data = if let Some(m) = b.mass_override {
            m
        } else {
            // Sum in shape slot order: a fixed order, so the same shapes give the same bits.
            let mut mass = 0.0f32;
            let mut weighted = Vec3::ZERO;
            let mut s = b.shape_head;
            while s != NONE {
                let md = &self.shapes[s as usize].mass_data;
                mass += md.mass;
                weighted += md.center * md.mass;
                s = self.shapes[s as usize].next_in_body;
            }
            let center = if mass > 0.0 && (1.0 / mass).is_finite() {
                weighted * (1.0 / mass)
            } else {
                Vec3::ZERO
            };
            let mut inertia = Mat3::ZERO;
            let mut s = b.shape_head;
            while s != NONE {
                let md = &self.shapes[s as usize].mass_data;
                // Parallel axis: I + m (|d|² E − d dᵀ).
                let d = md.center - center;
                let dd = d.dot(d);
                let shift = Mat3::from_cols(
                    Vec3::new(dd - d.x * d.x, -d.y * d.x, -d.z * d.x),
                    Vec3::new(-d.x * d.y, dd - d.y * d.y, -d.z * d.y),
                    Vec3::new(-d.x * d.z, -d.y * d.z, dd - d.z * d.z),
                );
                inertia = inertia + md.inertia + shift.scale(md.mass);
                s = self.shapes[s as usize].next_in_body;
            }
            MassData {
                mass,
                center,
                inertia,
            }
        };
        let mut s = b.shape_head;
        while s != NONE {
            let shape = &self.shapes[s as usize];
            max_extent = crate::math::max(
                max_extent,
                crate::shape::shape_extent(shape, &self.content.hulls, data.center),
            );
            s = shape.next_in_body;
        }
        let mut min_extent = f32::MAX;
        let mut s = self.bodies[slot as usize].shape_head;
        while s != NONE {
            let shape = &self.shapes[s as usize];
            if !shape.is_sensor && !shape.is_ray() {
                min_extent = crate::math::min(
                    min_extent,
                    crate::shape::shape_min_extent(shape, &self.content.hulls),
                );
            }
            s = shape.next_in_body;
        }
        let b = &mut self.bodies[slot as usize];
        b.min_extent = if min_extent == f32::MAX {
            0.0
        } else {
            min_extent
        };
        b.max_extent = max_extent;
        b.local_center = data.center;
        if b.body_type != BodyType::Dynamic {
            b.mass = 0.0;
            b.inv_mass = 0.0;
            b.inv_inertia_local = Mat3::ZERO;
            return;
        }
        if data.mass > 0.0 {
            // Lighter than MIN_MASS weighs MIN_MASS, its inertia scaled alike: an inverse
            // mass never passes 1e6, so force × inverse mass × dt cannot overflow.
            let (mass, inertia) = if data.mass < MIN_MASS {
                (MIN_MASS, data.inertia.scale(MIN_MASS / data.mass))
            } else {
                (data.mass, data.inertia)
            };
            b.mass = mass;
            b.inv_mass = 1.0 / mass;
            let inv = inertia.inverse();
            // An inverse inertia past 1e18 (a body of vanishing size) would overflow
            // torque × inverse inertia: such a body does not rotate.
            let bounded = [inv.cx, inv.cy, inv.cz]
                .iter()
                .all(|c| c.abs().max_element() <= 1.0e18);
            b.inv_inertia_local = if inertia.determinant() > 0.0 && inv.is_valid() && bounded {
                inv
            } else {
                Mat3::ZERO
            };
        } else {
            // A dynamic body needs mass: 1 kg that does not rotate, as Box2D v2.
            b.mass = 1.0;
            b.inv_mass = 1.0;
            b.inv_inertia_local = Mat3::ZERO;
        }
    }
}
