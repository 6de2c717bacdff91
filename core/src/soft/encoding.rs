//! A soft body's settings, field by field (little-endian): the journal's argument of the
//! create and set calls, and part of each live slot of the store's snapshot encoding.

use super::SoftBodySettings;
use crate::codec::{Dec, Enc, Sink};
use crate::error::Result;
use crate::field::Field;

impl Field for SoftBodySettings {
    type In<'a> = &'a SoftBodySettings;
    fn put<S: Sink>(s: &SoftBodySettings, e: &mut Enc<S>) {
        e.f32(s.mass);
        e.u32(s.substeps);
        e.f32(s.edge_compliance);
        e.f32(s.bend_compliance);
        e.f32(s.volume_compliance);
        e.f32(s.volume_scale);
        e.f32(s.pressure);
        e.f32(s.damping);
        e.f32(s.drag);
        e.f32(s.friction);
        e.f32(s.particle_radius);
        e.f32(s.gravity_scale);
        e.f32(s.long_range_stretch);
        e.bool(s.self_collision);
    }
    fn get(d: &mut Dec, _: u32) -> Result<SoftBodySettings> {
        Ok(SoftBodySettings {
            mass: d.f32()?,
            substeps: d.u32()?,
            edge_compliance: d.f32()?,
            bend_compliance: d.f32()?,
            volume_compliance: d.f32()?,
            volume_scale: d.f32()?,
            pressure: d.f32()?,
            damping: d.f32()?,
            drag: d.f32()?,
            friction: d.f32()?,
            particle_radius: d.f32()?,
            gravity_scale: d.f32()?,
            long_range_stretch: d.f32()?,
            self_collision: d.bool()?,
        })
    }
}
