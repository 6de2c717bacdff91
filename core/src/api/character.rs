//! The character calls that change a world (validate → apply → record): characters created
//! and destroyed, moved, placed, and their settings. Each checks and applies through
//! `character/`'s `*_unrecorded` or slot functions, then records itself.

use crate::character::{CharacterDef, CharacterSettings, GroundState, check_settings};
use crate::error::Result;
use crate::id::CharacterId;
use crate::math::{DVec3, Vec3};
use crate::world::World;

impl World {
    /// Creates a character and its inner kinematic body (a capsule along `up`, centred at
    /// `position`). Refused (nothing changed) for bad values or a full character or body
    /// pool.
    pub fn create_character(&mut self, def: &CharacterDef) -> Result<CharacterId> {
        let id = self.create_character_unrecorded(def)?;
        self.rec(|j| j.create_character(def, id));
        Ok(id)
    }

    /// Destroys a character and its inner body.
    pub fn destroy_character(&mut self, id: CharacterId) -> Result<()> {
        self.destroy_character_unrecorded(id)?;
        self.rec(|j| j.destroy_character(id));
        Ok(())
    }

    /// Moves a character by `velocity · dt`: out of anything it starts in, then sliding
    /// along what it meets, up steps no higher than `step_height`, back down to walkable
    /// ground within `snap_to_ground` when it was grounded and does not move up, never up
    /// ground steeper than `max_slope_angle`; the dynamic bodies it walks into are pushed
    /// with at most `max_strength · dt`. Velocity within ±1e4 m/s, dt within [0, 10] s.
    pub fn move_character(&mut self, id: CharacterId, velocity: Vec3, dt: f32) -> Result<()> {
        let slot = self.character_slot(id)?;
        crate::limits::check_vec_abs(
            "character velocity",
            velocity,
            1.0e4,
            "finite and within ±1e4 m/s (each component)",
        )?;
        crate::error::check_range("dt", dt, 0.0, 10.0, "within [0, 10] s")?;
        self.check_character_reach(slot, velocity, dt)?;
        self.move_character_slot(slot, velocity, dt);
        self.rec(|j| j.move_character(id, velocity, dt));
        Ok(())
    }

    /// Refuses a move that could carry the character's capsule (and so its inner body)
    /// to ±2^22, where no position may go: its centre, plus the move's distance (the
    /// velocity and the ground's, times `dt`), its length twice over (a push out of an
    /// overlap), a step up or a snap down, its skin and the bounds' slack. A move can
    /// otherwise take a character shifted near the limit past it, and the world's own
    /// snapshot would then be refused.
    fn check_character_reach(&self, slot: usize, velocity: Vec3, dt: f32) -> Result<()> {
        let c = &self.characters[slot];
        let speed = velocity.length() as f64 + c.ground_velocity.length() as f64;
        let settings = &c.settings;
        let size = 2.0 * (c.radius as f64 + c.half_height as f64)
            + settings.step_height as f64
            + settings.snap_to_ground as f64
            + settings.skin as f64;
        let far = c.position.max_abs() + speed * dt as f64 + size + crate::world::BOUNDS_SLACK;
        if far >= crate::math::POSITION_LIMIT {
            return Err(crate::error::Error::OutOfBounds {
                name: "character reach after the move",
                value: far,
                bound: crate::math::POSITION_LIMIT,
            });
        }
        Ok(())
    }

    /// Places a character (no collision on the way; the next move resolves any overlap);
    /// it is in the air until its next move finds ground.
    pub fn set_character_position(&mut self, id: CharacterId, position: DVec3) -> Result<()> {
        let slot = self.character_slot(id)?;
        let position = crate::body::check_position("character position", position)?;
        let c = &mut self.characters[slot];
        c.position = position;
        c.velocity = Vec3::ZERO;
        c.ground = GroundState::InAir;
        c.ground_normal = Vec3::ZERO;
        c.ground_body = crate::body::NONE;
        c.ground_local = Vec3::ZERO;
        c.ground_velocity = Vec3::ZERO;
        self.place_character_body(slot);
        self.rec(|j| j.set_character_position(id, position));
        Ok(())
    }

    /// Changes a character's settings (slope limit, step height, skin, strength, snap
    /// distance, mass).
    pub fn set_character_settings(
        &mut self,
        id: CharacterId,
        settings: &CharacterSettings,
    ) -> Result<()> {
        let slot = self.character_slot(id)?;
        check_settings(settings, self.characters[slot].radius)?;
        self.characters[slot].settings = *settings;
        self.rec(|j| j.set_character_settings(id, settings));
        Ok(())
    }
}
