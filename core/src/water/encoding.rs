//! A water volume's settings, field by field (little-endian): the journal's argument of
//! the create and set calls, and each live slot of the store's snapshot encoding.

use super::WaterVolumeDef;
use crate::codec::{Dec, Enc, Sink};
use crate::error::{Error, Result};
use crate::field::Field;
use crate::shape::Filter;

impl Field for WaterVolumeDef {
    type In<'a> = &'a WaterVolumeDef;
    fn put<S: Sink>(def: &WaterVolumeDef, e: &mut Enc<S>) {
        e.dvec3(def.center);
        e.quat(def.rotation);
        e.vec3(def.half_extents);
        e.f32(def.density);
        e.f32(def.linear_drag);
        e.f32(def.angular_drag);
        e.vec3(def.flow);
        Filter::put(def.filter, e);
    }
    fn get(d: &mut Dec, tag: u32) -> Result<WaterVolumeDef> {
        Ok(WaterVolumeDef {
            center: d.dvec3()?,
            rotation: d.quat()?,
            half_extents: d.vec3()?,
            density: d.f32()?,
            linear_drag: d.f32()?,
            angular_drag: d.f32()?,
            flow: d.vec3()?,
            filter: Filter::get(d, tag)?,
        })
    }
}

/// A stored volume's settings, checked as a create checks them (and already normalized),
/// but for the centre: a shift of the origin may have carried it past the create bound
/// (±2^21), so it is held to the coordinate limit (±2^22) as bodies' positions are.
pub(crate) fn decode_stored(d: &mut Dec) -> Result<WaterVolumeDef> {
    let def = WaterVolumeDef::get(d, 0)?;
    crate::error::check_world_point("water center", def.center, crate::math::POSITION_LIMIT)
        .map_err(|_| Error::Format("water volume center out of range"))?;
    WaterVolumeDef {
        center: crate::math::DVec3::ZERO,
        ..def
    }
    .checked()
    .map_err(|_| Error::Format("water volume settings out of range"))?;
    if !def.rotation.is_normalized(1e-4) {
        return Err(Error::Format("water volume rotation not normalized"));
    }
    Ok(def)
}
