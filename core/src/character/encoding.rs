//! Character encoding shared by the journal's fields (defs and settings as given) and the
//! snapshot (a live character's state), field by field, little-endian.

use super::{Character, CharacterDef, CharacterSettings, GroundState, check_settings, check_shape};
use crate::body::NONE;
use crate::codec::{Dec, Enc, Sink, check};
use crate::error::{Error, Result};
use crate::field::Field;
use crate::shape::Filter;

fn put_settings<S: Sink>(s: &CharacterSettings, e: &mut Enc<S>) {
    e.f32(s.max_slope_angle);
    e.f32(s.step_height);
    e.f32(s.skin);
    e.f32(s.max_strength);
    e.f32(s.snap_to_ground);
    e.f32(s.mass);
}

fn get_settings(d: &mut Dec) -> Result<CharacterSettings> {
    Ok(CharacterSettings {
        max_slope_angle: d.f32()?,
        step_height: d.f32()?,
        skin: d.f32()?,
        max_strength: d.f32()?,
        snap_to_ground: d.f32()?,
        mass: d.f32()?,
    })
}

impl Field for CharacterSettings {
    type In<'a> = &'a CharacterSettings;
    fn put<S: Sink>(s: &CharacterSettings, e: &mut Enc<S>) {
        put_settings(s, e);
    }
    fn get(d: &mut Dec, _: u32) -> Result<CharacterSettings> {
        get_settings(d)
    }
}

impl Field for CharacterDef {
    type In<'a> = &'a CharacterDef;
    fn put<S: Sink>(def: &CharacterDef, e: &mut Enc<S>) {
        e.dvec3(def.position);
        e.vec3(def.up);
        e.f32(def.radius);
        e.f32(def.half_height);
        Filter::put(def.filter, e);
        put_settings(&def.settings, e);
    }
    fn get(d: &mut Dec, tag: u32) -> Result<CharacterDef> {
        Ok(CharacterDef {
            position: d.dvec3()?,
            up: d.vec3()?,
            radius: d.f32()?,
            half_height: d.f32()?,
            filter: Filter::get(d, tag)?,
            settings: get_settings(d)?,
        })
    }
}

fn ground_tag(g: GroundState) -> u8 {
    match g {
        GroundState::OnGround => 0,
        GroundState::OnSteepGround => 1,
        GroundState::InAir => 2,
    }
}

/// A live character's state.
pub(crate) fn encode_character<S: Sink>(e: &mut Enc<S>, c: &Character) {
    e.u32(c.body);
    e.vec3(c.up);
    e.f32(c.radius);
    e.f32(c.half_height);
    Filter::put(c.filter, e);
    put_settings(&c.settings, e);
    e.dvec3(c.position);
    e.vec3(c.velocity);
    e.u8(ground_tag(c.ground));
    e.vec3(c.ground_normal);
    e.u32(c.ground_body);
    e.vec3(c.ground_local);
    e.vec3(c.ground_velocity);
}

/// Reads what `encode_character` wrote, checked as `create_character` checks its def;
/// `bodies`: the bodies' slot words (bit 0 live).
pub(crate) fn decode_character(d: &mut Dec, c: &mut Character, bodies: &[u64]) -> Result<()> {
    use crate::snapshot::is_live;
    let format = |_: Error| Error::Format("a character's settings are out of range");
    c.body = d.u32()?;
    check(is_live(bodies, c.body), "a character on a missing body")?;
    let up = d.vec3()?;
    c.radius = d.f32()?;
    c.half_height = d.f32()?;
    check_shape(up, c.radius, c.half_height).map_err(format)?;
    // What create stored: the def's up normalised once. Normalising is not idempotent
    // to the bit (normalize(normalize(v)) may differ in the last place), so the stored
    // up is held to unit length within rounding, not to its own normalisation.
    check(
        (up.length_squared() - 1.0).abs() <= 1.0e-5,
        "a character's up is not unit length",
    )?;
    c.up = up;
    c.filter = Filter::get(d, 0)?;
    c.settings = get_settings(d)?;
    check_settings(&c.settings, c.radius).map_err(format)?;
    c.position = d.dvec3()?;
    crate::error::check_world_point(
        "character position",
        c.position,
        crate::math::POSITION_LIMIT,
    )
    .map_err(|_| Error::Format("a character's position is out of range"))?;
    c.velocity = d.vec3()?;
    c.ground = match d.u8()? {
        0 => GroundState::OnGround,
        1 => GroundState::OnSteepGround,
        2 => GroundState::InAir,
        _ => return Err(Error::Format("unknown character ground state")),
    };
    c.ground_normal = d.vec3()?;
    c.ground_body = d.u32()?;
    check(
        c.ground_body == NONE || is_live(bodies, c.ground_body),
        "a character's ground is a missing body",
    )?;
    c.ground_local = d.vec3()?;
    c.ground_velocity = d.vec3()?;
    for v in [
        c.velocity,
        c.ground_normal,
        c.ground_local,
        c.ground_velocity,
    ] {
        check(
            v.is_valid() && v.abs().max_element() <= 1.0e9,
            "a character's vector is not finite or beyond ±1e9",
        )?;
    }
    Ok(())
}
