//! The soft body calls that change a world (validate → apply → record): soft bodies
//! created, destroyed and changed, their particles pinned, moved, pushed and attached.
//! Each applies through `soft/mod.rs`'s `*_unrecorded` function.

use crate::error::Result;
use crate::id::{BodyId, SoftBodyId};
use crate::math::{DVec3, Quat, Vec3};
use crate::shape::Filter;
use crate::soft::{SoftBodyDef, SoftBodySettings};
use crate::world::World;

impl World {
    /// Creates a soft body from a triangle mesh: one particle per vertex, placed at
    /// `position + rotation · vertex` at rest. Refused (nothing changed) for a bad value
    /// (see [`SoftBodyDef`], [`SoftBodySettings`]), a full pool (`soft_body_capacity`) or
    /// more particles, triangles or edges than `soft_particle_capacity` leaves room for.
    pub fn create_soft_body(&mut self, def: &SoftBodyDef) -> Result<SoftBodyId> {
        let id = self.create_soft_body_unrecorded(def)?;
        self.rec(|j| {
            j.create_soft_body(
                (def.vertices, def.triangles),
                def.position,
                def.rotation,
                &def.settings,
                def.filter,
                id,
            )
        });
        Ok(id)
    }

    /// Destroys a soft body.
    pub fn destroy_soft_body(&mut self, id: SoftBodyId) -> Result<()> {
        self.destroy_soft_body_unrecorded(id)?;
        self.rec(|j| j.destroy_soft_body(id));
        Ok(())
    }

    /// Replaces a soft body's settings (the particles stay where they are).
    pub fn set_soft_body_settings(
        &mut self,
        id: SoftBodyId,
        settings: &SoftBodySettings,
    ) -> Result<()> {
        self.set_soft_body_settings_unrecorded(id, settings)?;
        self.rec(|j| j.set_soft_body_settings(id, settings));
        Ok(())
    }

    /// Sets which rigid shapes a soft body's particles collide with.
    pub fn set_soft_body_filter(&mut self, id: SoftBodyId, filter: Filter) -> Result<()> {
        self.set_soft_body_filter_unrecorded(id, filter)?;
        self.rec(|j| j.set_soft_body_filter(id, filter));
        Ok(())
    }

    /// Makes a soft body's particles ignore a rigid body (`ignore` true: they pass through
    /// its shapes) or collide with it again (false). Each soft body ignores at most
    /// [`SOFT_BODY_EXCEPTIONS`](crate::soft::SOFT_BODY_EXCEPTIONS) bodies: one more is
    /// refused (`Error::Capacity`, nothing changed). Ignoring a body twice, or freeing one
    /// not ignored, changes nothing. Destroying the body takes it off the list (a body made
    /// later in its slot is not ignored). Attachments to the body are not affected.
    pub fn set_soft_body_ignores_body(
        &mut self,
        id: SoftBodyId,
        body: BodyId,
        ignore: bool,
    ) -> Result<()> {
        self.set_soft_body_ignores_body_unrecorded(id, body, ignore)?;
        self.rec(|j| j.set_soft_body_ignores_body(id, body, ignore));
        Ok(())
    }

    /// Pins a particle where it is (it stops, and moves only when set), or frees it.
    pub fn set_soft_particle_pinned(
        &mut self,
        id: SoftBodyId,
        index: u32,
        pinned: bool,
    ) -> Result<()> {
        self.set_soft_particle_pinned_unrecorded(id, index, pinned)?;
        self.rec(|j| j.set_soft_particle_pinned(id, index, pinned));
        Ok(())
    }

    /// Moves a particle (a pinned one too: Godot's `move_point`), relative to the world
    /// origin, within ±2^21.
    pub fn set_soft_particle_position(
        &mut self,
        id: SoftBodyId,
        index: u32,
        position: DVec3,
    ) -> Result<()> {
        self.set_soft_particle_position_unrecorded(id, index, position)?;
        self.rec(|j| j.set_soft_particle_position(id, index, position));
        Ok(())
    }

    /// Sets a free particle's velocity (a pinned one stays still).
    pub fn set_soft_particle_velocity(
        &mut self,
        id: SoftBodyId,
        index: u32,
        velocity: Vec3,
    ) -> Result<()> {
        self.set_soft_particle_velocity_unrecorded(id, index, velocity)?;
        self.rec(|j| j.set_soft_particle_velocity(id, index, velocity));
        Ok(())
    }

    /// Applies an impulse to one particle (N·s; nothing for a pinned one).
    pub fn apply_soft_particle_impulse(
        &mut self,
        id: SoftBodyId,
        index: u32,
        impulse: Vec3,
    ) -> Result<()> {
        self.apply_soft_particle_impulse_unrecorded(id, index, impulse)?;
        self.rec(|j| j.apply_soft_particle_impulse(id, index, impulse));
        Ok(())
    }

    /// Applies an impulse to the whole soft body, spread over its particles by mass.
    pub fn apply_soft_body_impulse(&mut self, id: SoftBodyId, impulse: Vec3) -> Result<()> {
        self.apply_soft_body_impulse_unrecorded(id, impulse)?;
        self.rec(|j| j.apply_soft_body_impulse(id, impulse));
        Ok(())
    }

    /// Puts every particle back at its rest place in a frame at `position`/`rotation`
    /// (velocities zero): a teleport, as Godot's `soft_body_set_transform`.
    pub fn set_soft_body_transform(
        &mut self,
        id: SoftBodyId,
        position: DVec3,
        rotation: Quat,
    ) -> Result<()> {
        self.set_soft_body_transform_unrecorded(id, position, rotation)?;
        self.rec(|j| j.set_soft_body_transform(id, position, rotation));
        Ok(())
    }

    /// Attaches a particle to a point of a body (`local_point` in the body's frame), or
    /// detaches it (`None`). The attachment pulls both ways: a dynamic body is pulled by
    /// the particle as the particle by the body. Destroying the body detaches it.
    pub fn attach_soft_particle(
        &mut self,
        id: SoftBodyId,
        index: u32,
        body: Option<BodyId>,
        local_point: Vec3,
    ) -> Result<()> {
        self.attach_soft_particle_unrecorded(id, index, body, local_point)?;
        let recorded = body.unwrap_or(BodyId::NULL);
        self.rec(|j| j.attach_soft_particle(id, index, recorded, local_point));
        Ok(())
    }
}
