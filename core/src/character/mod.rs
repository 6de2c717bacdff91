//! Characters: kinematic capsule movers (Jolt's `CharacterVirtual`, Box3D's mover). A
//! character owns an inner kinematic body carrying its capsule, so rigid bodies, rays and
//! other characters see it; `move_character` moves and slides the capsule against the
//! world (`mover.rs`), and the step carries each grounded character with the body under
//! it (`ride_characters`).
//!
//! The inner body is moved by teleport and keeps a zero velocity: it never pushes dynamic
//! bodies with infinite mass. What a character pushes it pushes through the mover's
//! impulse, limited by `max_strength · dt`.

pub(crate) mod encoding;
mod mover;

use crate::body::{BodyDef, BodyType, NONE};
use crate::error::{Error, Result};
use crate::geometry::Capsule;
use crate::id::{BodyId, CharacterId};
use crate::limits::check_vec_abs;
use crate::math::{DVec3, Quat, Vec3};
use crate::shape::{Filter, ShapeDef};
use crate::world::World;

/// What a character may change after creation: how it moves, steps and pushes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CharacterSettings {
    /// Steepest walkable slope, radians in [0, π/2] (default 50°). Steeper ground is
    /// steep ground: the character slides on it and cannot climb it.
    pub max_slope_angle: f32,
    /// Highest step the character walks up, m in [0, 1e3] (default 0.3).
    pub step_height: f32,
    /// Gap kept between the capsule and what it touches, m in [1e-4, 1] (default 0.02).
    pub skin: f32,
    /// Largest force the character pushes dynamic bodies with, N in [0, 1e9]
    /// (default 100).
    pub max_strength: f32,
    /// How far down a grounded character that walks off a ledge or down a slope is pulled
    /// back to the ground, m in [0, 1e3] (default 0.5, Jolt's stick-to-floor).
    pub snap_to_ground: f32,
    /// The character's mass for pushing, kg in [1e-3, 1e9] (default 70).
    pub mass: f32,
}

impl Default for CharacterSettings {
    fn default() -> CharacterSettings {
        CharacterSettings {
            max_slope_angle: 50.0 * core::f32::consts::PI / 180.0,
            step_height: 0.3,
            skin: 0.02,
            max_strength: 100.0,
            snap_to_ground: 0.5,
            mass: 70.0,
        }
    }
}

/// A character to create.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CharacterDef {
    /// The capsule's centre, relative to the world origin (within ±2^21; rounded to the
    /// 2^-32 grid, as bodies' positions are).
    pub position: DVec3,
    /// The character's up (any nonzero finite vector; normalised). Default +Y.
    pub up: Vec3,
    /// Capsule radius, m in (0, 1e3] (default 0.3).
    pub radius: f32,
    /// Half the height of the capsule's cylinder part, m in [0, 1e3] (default 0.6).
    pub half_height: f32,
    /// What the capsule collides with (and how others see its inner body).
    pub filter: Filter,
    /// How it moves.
    pub settings: CharacterSettings,
}

impl Default for CharacterDef {
    fn default() -> CharacterDef {
        CharacterDef {
            position: DVec3::ZERO,
            up: Vec3::Y,
            radius: 0.3,
            half_height: 0.6,
            filter: Filter::default(),
            settings: CharacterSettings::default(),
        }
    }
}

/// What a character stands on.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum GroundState {
    /// On walkable ground (no steeper than `max_slope_angle`).
    OnGround,
    /// Touching ground too steep to stand on: it slides.
    OnSteepGround,
    /// Touching no ground.
    #[default]
    InAir,
}

/// A character's ground after its last move.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CharacterGround {
    /// On ground, steep ground or in the air.
    pub state: GroundState,
    /// The ground's normal (zero in the air).
    pub normal: Vec3,
    /// The ground's body ([`BodyId::NULL`] in the air).
    pub body: BodyId,
    /// The ground body's velocity at the character's contact point.
    pub velocity: Vec3,
}

/// One character slot.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Character {
    pub(crate) alive: bool,
    pub(crate) generation: u32,
    /// State: the inner kinematic body's slot.
    pub(crate) body: u32,
    pub(crate) up: Vec3,
    pub(crate) radius: f32,
    pub(crate) half_height: f32,
    pub(crate) filter: Filter,
    pub(crate) settings: CharacterSettings,
    /// State: the capsule centre.
    pub(crate) position: DVec3,
    /// State: the velocity of the last move (displacement / dt).
    pub(crate) velocity: Vec3,
    pub(crate) ground: GroundState,
    pub(crate) ground_normal: Vec3,
    /// State: the ground body's slot, or `NONE`. Cleared when that body is destroyed.
    pub(crate) ground_body: u32,
    /// State: the character's centre in the ground body's frame (what riding keeps).
    pub(crate) ground_local: Vec3,
    pub(crate) ground_velocity: Vec3,
}

impl Character {
    /// A free slot of `generation`.
    pub(crate) fn dead(generation: u32) -> Character {
        Character {
            alive: false,
            generation,
            body: NONE,
            ground_body: NONE,
            ..Default::default()
        }
    }

    /// The capsule in the inner body's frame.
    pub(crate) fn capsule(&self) -> Capsule {
        Capsule {
            center1: self.up * -self.half_height,
            center2: self.up * self.half_height,
            radius: self.radius,
        }
    }
}

/// Checks settings as every entry does; `radius` bounds the skin.
pub(crate) fn check_settings(s: &CharacterSettings, radius: f32) -> Result<()> {
    use crate::error::check_range;
    check_range(
        "max_slope_angle",
        s.max_slope_angle,
        0.0,
        core::f32::consts::FRAC_PI_2,
        "within [0, π/2] radians",
    )?;
    check_range(
        "step_height",
        s.step_height,
        0.0,
        1.0e3,
        "within [0, 1e3] m",
    )?;
    check_range("skin", s.skin, 1.0e-4, 1.0, "within [1e-4, 1] m")?;
    if s.skin >= radius {
        return Err(Error::Argument {
            name: "skin",
            value: s.skin as f64,
            expected: "below the capsule radius",
        });
    }
    check_range(
        "max_strength",
        s.max_strength,
        0.0,
        1.0e9,
        "within [0, 1e9] N",
    )?;
    check_range(
        "snap_to_ground",
        s.snap_to_ground,
        0.0,
        1.0e3,
        "within [0, 1e3] m",
    )?;
    check_range("mass", s.mass, 1.0e-3, 1.0e9, "within [1e-3, 1e9] kg")
}

/// Checks a def's shape fields; returns the normalised up.
pub(crate) fn check_shape(up: Vec3, radius: f32, half_height: f32) -> Result<Vec3> {
    check_vec_abs("up", up, 1.0e6, "finite and within ±1e6")?;
    let (n, len) = up.normalize_and_length();
    if len <= 1.0e-6 {
        return Err(Error::Argument {
            name: "up",
            value: len as f64,
            expected: "a vector of nonzero length",
        });
    }
    crate::error::check_range("radius", radius, 1.0e-3, 1.0e3, "within [1e-3, 1e3] m")?;
    crate::error::check_range("half_height", half_height, 0.0, 1.0e3, "within [0, 1e3] m")?;
    Ok(n)
}

impl World {
    pub(crate) fn character_slot(&self, id: CharacterId) -> Result<usize> {
        self.characters
            .pool
            .live_slot("character", id.parts(), self.tag)
    }

    pub(crate) fn character_id(&self, slot: u32) -> CharacterId {
        CharacterId {
            index: slot + 1,
            generation: self.characters[slot as usize].generation,
            world: self.tag,
        }
    }

    /// Whether body `slot` is a live character's inner body (such a body cannot be
    /// destroyed or retyped on its own).
    pub(crate) fn body_is_character(&self, slot: u32) -> bool {
        self.characters.iter().any(|c| c.alive && c.body == slot)
    }

    /// Forgets body `slot` as any character's ground (it is being destroyed).
    pub(crate) fn forget_character_ground(&mut self, slot: u32) {
        for c in self.characters.iter_mut() {
            if c.alive && c.ground_body == slot {
                c.ground_body = NONE;
                c.ground = GroundState::InAir;
                c.ground_normal = Vec3::ZERO;
                c.ground_velocity = Vec3::ZERO;
            }
        }
    }

    /// [`World::create_character`] without its record.
    pub(crate) fn create_character_unrecorded(
        &mut self,
        def: &CharacterDef,
    ) -> Result<CharacterId> {
        let up = check_shape(def.up, def.radius, def.half_height)?;
        check_settings(&def.settings, def.radius)?;
        let position = crate::body::check_position("character position", def.position)?;
        if self.characters.free.is_empty()
            && self.characters.pool.len() >= self.def.character_capacity as usize
        {
            return Err(Error::Capacity {
                what: "character_capacity",
                capacity: self.def.character_capacity as u64,
            });
        }
        if self.bodies.free.is_empty() && self.bodies.pool.len() >= self.def.body_capacity as usize
        {
            return Err(Error::Capacity {
                what: "body_capacity",
                capacity: self.def.body_capacity as u64,
            });
        }
        // The capsule's slot too: a body made and then destroyed again would leave its
        // slot's generation moved (a refusal must change nothing).
        if self.shapes.free.is_empty() && self.shapes.is_full() {
            return Err(Error::Capacity {
                what: "shape_capacity",
                capacity: self.def.shape_capacity as u64,
            });
        }
        let mut c = Character::dead(0);
        c.up = up;
        c.radius = def.radius;
        c.half_height = def.half_height;
        c.filter = def.filter;
        c.settings = def.settings;
        c.position = position;
        let body = self.create_body_unrecorded(&BodyDef {
            body_type: BodyType::Kinematic,
            position,
            rotation: Quat::IDENTITY,
            ..Default::default()
        })?;
        let shape_def = ShapeDef {
            filter: def.filter,
            ..Default::default()
        };
        if let Err(e) = self.create_capsule_shape_unrecorded(body, &shape_def, &c.capsule()) {
            let _ = self.destroy_body_unrecorded(body);
            return Err(e);
        }
        c.body = self.body_slot(body)? as u32;
        let slot = self
            .characters
            .take(
                |x| x.generation,
                |g| Character {
                    alive: true,
                    generation: g.wrapping_add(1).max(1),
                    ..c
                },
            )
            .ok_or(Error::Capacity {
                what: "character_capacity",
                capacity: self.def.character_capacity as u64,
            })?;
        self.characters.count += 1;
        Ok(self.character_id(slot))
    }

    /// [`World::destroy_character`] without its record.
    pub(crate) fn destroy_character_unrecorded(&mut self, id: CharacterId) -> Result<()> {
        let slot = self.character_slot(id)?;
        let body = self.characters[slot].body;
        let generation = self.characters[slot].generation;
        self.characters[slot] = Character::dead(generation);
        let ok = self.characters.free.push(slot as u32);
        debug_assert!(ok);
        self.characters.count -= 1;
        let body_id = self.body_id(body);
        self.destroy_body_unrecorded(body_id)
    }

    fn character(&self, id: CharacterId) -> Result<&Character> {
        Ok(&self.characters[self.character_slot(id)?])
    }

    /// All live characters, in slot order.
    pub fn character_ids(&self) -> impl Iterator<Item = CharacterId> + '_ {
        (0..self.characters.len() as u32)
            .filter(|&s| self.characters[s as usize].alive)
            .map(|s| self.character_id(s))
    }

    /// Number of live characters.
    pub fn character_count(&self) -> u32 {
        self.characters.count
    }

    /// The capsule centre, relative to the world origin.
    pub fn character_position(&self, id: CharacterId) -> Result<DVec3> {
        Ok(self.character(id)?.position)
    }

    /// The velocity the last move actually made (its displacement / dt); riding is not
    /// included.
    pub fn character_velocity(&self, id: CharacterId) -> Result<Vec3> {
        Ok(self.character(id)?.velocity)
    }

    /// The ground after the last move or ride.
    pub fn character_ground(&self, id: CharacterId) -> Result<CharacterGround> {
        let c = self.character(id)?;
        Ok(CharacterGround {
            state: c.ground,
            normal: c.ground_normal,
            body: if c.ground_body == NONE {
                BodyId::NULL
            } else {
                self.body_id(c.ground_body)
            },
            velocity: c.ground_velocity,
        })
    }

    /// The character's inner kinematic body (its capsule shape is the body's only shape).
    pub fn character_body(&self, id: CharacterId) -> Result<BodyId> {
        Ok(self.body_id(self.character(id)?.body))
    }

    /// The character's settings.
    pub fn character_settings(&self, id: CharacterId) -> Result<CharacterSettings> {
        Ok(self.character(id)?.settings)
    }

    /// The step's last stage but soft bodies: each grounded character is carried by the
    /// floor body that moved under it, the carried displacement itself moved and slid so
    /// it never pushes the character into a wall.
    pub(crate) fn ride_characters(&mut self, dt: f32) {
        for slot in 0..self.characters.len() {
            let c = self.characters[slot];
            if !c.alive || c.ground_body == NONE || c.ground == GroundState::InAir {
                continue;
            }
            let b = &self.bodies[c.ground_body as usize];
            if !b.alive || b.body_type == BodyType::Static {
                continue;
            }
            let target =
                b.position + crate::math::round_vec_to_grid(b.rotation.rotate(c.ground_local));
            let shift = (target - c.position).to_f32();
            if shift.length_squared() <= 1.0e-14 || !shift.is_valid() {
                continue;
            }
            let moved = self.slide(&c, c.position, shift, c.ground_body);
            let (position, rotation) = (b.position, b.rotation);
            let r = (moved - position).to_f32() - b.center_offset();
            // Within the world's speed bound (a fast spin far from the axis goes past it).
            let ground_velocity = crate::limits::clamp_abs(
                b.linear_velocity + b.angular_velocity.cross(r),
                crate::limits::MAX_VELOCITY,
            );
            let ch = &mut self.characters[slot];
            ch.position = moved;
            ch.ground_local = rotation.inv_rotate((moved - position).to_f32());
            ch.ground_velocity = if dt > 0.0 {
                ground_velocity
            } else {
                Vec3::ZERO
            };
            self.place_character_body(slot);
        }
    }

    /// Puts the inner body where the character is.
    pub(crate) fn place_character_body(&mut self, slot: usize) {
        let c = self.characters[slot];
        let b = &mut self.bodies[c.body as usize];
        b.position = c.position;
        b.rotation = Quat::IDENTITY;
        self.refresh_body_bounds(c.body, true);
    }
}
