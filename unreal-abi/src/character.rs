//! Characters: kinematic capsule movers. Create, destroy, move, place, settings and the
//! state the last move left (position, velocity, ground, inner body).
//!
//! A character owns an inner kinematic body carrying its capsule, so rigid bodies, rays
//! and other characters see it; `m3Character_Move` moves and slides the capsule, and each
//! step carries a grounded character with the body under it.

use crate::boundary::{api_on, non_null, read, write};
use crate::shape::m3Filter;
use crate::types::*;
use engine::{CharacterId, GroundState, World};

/// What a character may change after creation: how it moves, steps and pushes.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct m3CharacterSettings {
    /// Steepest walkable slope, radians in [0, π/2] (default 50°). Steeper ground is
    /// steep ground: the character slides on it and cannot climb it.
    pub maxSlopeAngle: f32,
    /// Highest step the character walks up, m in [0, 1e3] (default 0.3).
    pub stepHeight: f32,
    /// Gap kept between the capsule and what it touches, m in [1e-4, 1] (default 0.02).
    pub skin: f32,
    /// Largest force the character pushes dynamic bodies with, N in [0, 1e9] (default
    /// 100).
    pub maxStrength: f32,
    /// How far down a grounded character that walks off a ledge or down a slope is pulled
    /// back to the ground, m in [0, 1e3] (default 0.5).
    pub snapToGround: f32,
    /// The character's mass for pushing, kg in [1e-3, 1e9] (default 70).
    pub mass: f32,
}

impl From<m3CharacterSettings> for engine::CharacterSettings {
    fn from(s: m3CharacterSettings) -> engine::CharacterSettings {
        engine::CharacterSettings {
            max_slope_angle: s.maxSlopeAngle,
            step_height: s.stepHeight,
            skin: s.skin,
            max_strength: s.maxStrength,
            snap_to_ground: s.snapToGround,
            mass: s.mass,
        }
    }
}

impl From<engine::CharacterSettings> for m3CharacterSettings {
    fn from(s: engine::CharacterSettings) -> m3CharacterSettings {
        m3CharacterSettings {
            maxSlopeAngle: s.max_slope_angle,
            stepHeight: s.step_height,
            skin: s.skin,
            maxStrength: s.max_strength,
            snapToGround: s.snap_to_ground,
            mass: s.mass,
        }
    }
}

/// Everything needed to create a character. Start from `m3DefaultCharacterDef()`.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct m3CharacterDef {
    /// The capsule's centre, relative to the world origin.
    pub position: m3DVec3,
    /// The character's up (any nonzero finite vector; normalised). Default +Y.
    pub up: m3Vec3,
    /// Capsule radius, m in (0, 1e3] (default 0.3).
    pub radius: f32,
    /// Half the height of the capsule's cylinder part, m in [0, 1e3] (default 0.6).
    pub halfHeight: f32,
    /// What the capsule collides with (and how others see its inner body).
    pub filter: m3Filter,
    /// How it moves.
    pub settings: m3CharacterSettings,
}

fn default_character_def() -> m3CharacterDef {
    let d = engine::CharacterDef::default();
    m3CharacterDef {
        position: d.position.into(),
        up: d.up.into(),
        radius: d.radius,
        halfHeight: d.half_height,
        filter: m3Filter {
            categoryBits: d.filter.category_bits,
            maskBits: d.filter.mask_bits,
            groupIndex: d.filter.group_index,
        },
        settings: d.settings.into(),
    }
}

/// The default character def: a capsule of radius 0.3 and half-height 0.6 (1.8 m tall)
/// at the origin, up +Y, the default filter and settings.
#[unsafe(no_mangle)]
pub extern "C" fn m3DefaultCharacterDef() -> m3CharacterDef {
    crate::boundary::value(
        "m3DefaultCharacterDef",
        default_character_def(),
        default_character_def,
    )
}

/// What a character stands on (`m3CharacterGround.state`).
pub type m3GroundState = i32;
/// On walkable ground (no steeper than `maxSlopeAngle`).
pub const m3_onGround: m3GroundState = 0;
/// Touching ground too steep to stand on: it slides.
pub const m3_onSteepGround: m3GroundState = 1;
/// Touching no ground.
pub const m3_inAir: m3GroundState = 2;

/// A character's ground after its last move (or the step's ride).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct m3CharacterGround {
    /// `m3_onGround`, `m3_onSteepGround` or `m3_inAir`.
    pub state: m3GroundState,
    /// The ground's normal (zero in the air).
    pub normal: m3Vec3,
    /// The ground's body (null in the air).
    pub body: m3BodyId,
    /// The ground body's velocity at the character's contact point, m/s.
    pub velocity: m3Vec3,
}

/// Creates a character and its inner kinematic body. Refused (nothing changed) for a bad
/// value (`m3_errorArgument`, `m3_errorOutOfBounds` for a position past the limits) or a
/// full character or body pool (`m3_errorCapacity`; see `characterCapacity`).
///
/// # Safety
/// - `def` points to one readable `m3CharacterDef`, aligned for its type, for the
///   duration of the call (null is refused with `m3_errorArgument`).
/// - `characterId` points to one writable `m3CharacterId`, aligned for its type, for the
///   duration of the call (null is refused with `m3_errorArgument`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m3World_CreateCharacter(
    worldId: m3WorldId,
    def: *const m3CharacterDef,
    characterId: *mut m3CharacterId,
) -> m3Result {
    api_on("m3World_CreateCharacter", worldId, || {
        let o = out("characterId", characterId)?;
        // SAFETY: the host passes a valid def or null.
        let d = unsafe { read_ptr("def", def) }?;
        let ed = engine::CharacterDef {
            position: d.position.into(),
            up: d.up.into(),
            radius: d.radius,
            half_height: d.halfHeight,
            filter: d.filter.into(),
            settings: d.settings.into(),
        };
        let id = write(worldId, |e| {
            let c = e.world.create_character(&ed)?;
            Ok(m3CharacterId::from_core(c, e.id))
        })?;
        // SAFETY: checked non-null.
        unsafe { put(o, id) };
        Ok(())
    })
}

/// Runs a change of character `id`.
fn set(
    name: &'static str,
    id: m3CharacterId,
    f: impl FnOnce(&mut World, CharacterId) -> engine::Result<()>,
) -> m3Result {
    api_on(name, id.world, || {
        non_null("characterId", id)?;
        write(id.world, |e| Ok(f(&mut e.world, id.to_core(e.tag))?))
    })
}

/// Reads a property of character `id` into `o`.
fn get<T, C>(
    name: &'static str,
    id: m3CharacterId,
    o: *mut C,
    f: impl FnOnce(&World, CharacterId) -> engine::Result<T>,
    conv: impl FnOnce(T, m3WorldId) -> C,
) -> m3Result {
    api_on(name, id.world, || {
        let o = out("output", o)?;
        non_null("characterId", id)?;
        let v = read(id.world, |e| Ok(f(&e.world, id.to_core(e.tag))?))?;
        // SAFETY: checked non-null.
        unsafe { put(o, conv(v, id.world)) };
        Ok(())
    })
}

/// Destroys a character and its inner body.
#[unsafe(no_mangle)]
pub extern "C" fn m3Character_Destroy(characterId: m3CharacterId) -> m3Result {
    set("m3Character_Destroy", characterId, |w, c| {
        w.destroy_character(c)
    })
}

/// Moves a character by `velocity · dt`: out of anything it starts in, then sliding along
/// what it meets, up steps no higher than `stepHeight`, back down to walkable ground
/// within `snapToGround` when it was grounded and does not move up, never up ground
/// steeper than `maxSlopeAngle`; dynamic bodies it walks into are pushed with at most
/// `maxStrength · dt`. Gravity is the host's: add it to `velocity` while airborne.
/// `velocity` within ±1e4 m/s (each component), `dt` within [0, 10] s.
#[unsafe(no_mangle)]
pub extern "C" fn m3Character_Move(
    characterId: m3CharacterId,
    velocity: m3Vec3,
    dt: f32,
) -> m3Result {
    set("m3Character_Move", characterId, |w, c| {
        w.move_character(c, velocity.into(), dt)
    })
}

/// Places a character (no collision on the way; the next move resolves any overlap); it
/// is in the air until its next move finds ground.
#[unsafe(no_mangle)]
pub extern "C" fn m3Character_SetPosition(
    characterId: m3CharacterId,
    position: m3DVec3,
) -> m3Result {
    set("m3Character_SetPosition", characterId, |w, c| {
        w.set_character_position(c, position.into())
    })
}

/// Changes a character's settings (every field checked; `skin` at most the radius).
#[unsafe(no_mangle)]
pub extern "C" fn m3Character_SetSettings(
    characterId: m3CharacterId,
    settings: m3CharacterSettings,
) -> m3Result {
    set("m3Character_SetSettings", characterId, |w, c| {
        w.set_character_settings(c, &settings.into())
    })
}

/// A character's settings.
///
/// # Safety
/// `settings` points to one writable `m3CharacterSettings`, aligned for its type, for the
/// duration of the call (null is refused with `m3_errorArgument`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m3Character_GetSettings(
    characterId: m3CharacterId,
    settings: *mut m3CharacterSettings,
) -> m3Result {
    get(
        "m3Character_GetSettings",
        characterId,
        settings,
        |w, c| w.character_settings(c),
        |s, _| s.into(),
    )
}

/// The capsule's centre, relative to the world origin.
///
/// # Safety
/// `position` points to one writable `m3DVec3`, aligned for its type, for the duration of
/// the call (null is refused with `m3_errorArgument`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m3Character_GetPosition(
    characterId: m3CharacterId,
    position: *mut m3DVec3,
) -> m3Result {
    get(
        "m3Character_GetPosition",
        characterId,
        position,
        |w, c| w.character_position(c),
        |p, _| p.into(),
    )
}

/// The velocity the last move made (its displacement over `dt`), m/s; riding the ground
/// is not included.
///
/// # Safety
/// `velocity` points to one writable `m3Vec3`, aligned for its type, for the duration of
/// the call (null is refused with `m3_errorArgument`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m3Character_GetVelocity(
    characterId: m3CharacterId,
    velocity: *mut m3Vec3,
) -> m3Result {
    get(
        "m3Character_GetVelocity",
        characterId,
        velocity,
        |w, c| w.character_velocity(c),
        |v, _| v.into(),
    )
}

/// The ground after the last move or ride: state, normal, body and its velocity.
///
/// # Safety
/// `ground` points to one writable `m3CharacterGround`, aligned for its type, for the
/// duration of the call (null is refused with `m3_errorArgument`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m3Character_GetGround(
    characterId: m3CharacterId,
    ground: *mut m3CharacterGround,
) -> m3Result {
    get(
        "m3Character_GetGround",
        characterId,
        ground,
        |w, c| w.character_ground(c),
        |g, world| m3CharacterGround {
            state: match g.state {
                GroundState::OnGround => m3_onGround,
                GroundState::OnSteepGround => m3_onSteepGround,
                GroundState::InAir => m3_inAir,
            },
            normal: g.normal.into(),
            body: m3BodyId::from_core(g.body, world),
            velocity: g.velocity.into(),
        },
    )
}

/// The character's inner kinematic body (its capsule is the body's only shape); the
/// library moves it, so leave its pose and velocity alone.
///
/// # Safety
/// `bodyId` points to one writable `m3BodyId`, aligned for its type, for the duration of
/// the call (null is refused with `m3_errorArgument`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m3Character_GetBody(
    characterId: m3CharacterId,
    bodyId: *mut m3BodyId,
) -> m3Result {
    get(
        "m3Character_GetBody",
        characterId,
        bodyId,
        |w, c| w.character_body(c),
        m3BodyId::from_core,
    )
}

/// The ids of the live characters, in slot order, as `m3World_GetBodyIds`.
///
/// # Safety
/// - `ids` points to `capacity` writable `m3CharacterId` items, aligned, for the duration
///   of the call (they may be uninitialised; null only with `capacity` 0).
/// - `count` points to one writable `i32`, aligned for its type, for the duration of the
///   call (null is refused with `m3_errorArgument`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m3World_GetCharacterIds(
    worldId: m3WorldId,
    ids: *mut m3CharacterId,
    capacity: i32,
    count: *mut i32,
) -> m3Result {
    api_on("m3World_GetCharacterIds", worldId, || {
        let o = out("count", count)?;
        let arr = OutArray::new("ids", ids, capacity)?;
        let n = read(worldId, |e| {
            let mut n = 0;
            for id in e.world.character_ids() {
                // SAFETY: within the host's capacity.
                unsafe { arr.set(n, m3CharacterId::from_core(id, e.id)) };
                n += 1;
            }
            Ok(n)
        })?;
        // SAFETY: checked non-null.
        unsafe { put(o, to_i32(n)) };
        Ok(())
    })
}
