//! The head of the state encoding: the world's settings and capacities (its def), the
//! step count and the origin.

use crate::codec::{Dec, Enc, Sink};
use crate::error::Result;
use crate::world::WorldDef;

/// The def's capacities and settings (hooks and allocator are not state).
pub(super) fn encode_def<S: Sink>(e: &mut Enc<S>, d: &WorldDef) {
    e.u32(d.body_capacity);
    e.u32(d.shape_capacity);
    e.u32(d.contact_capacity);
    e.u32(d.pair_capacity);
    e.u32(d.hull_capacity);
    e.u32(d.event_capacity);
    e.u32(d.sensor_capacity);
    e.u32(d.joint_capacity);
    e.u32(d.mesh_capacity);
    e.u64(d.content_capacity);
    e.vec3(d.gravity);
    e.f32(d.restitution_threshold);
    e.f32(d.contact_hertz);
    e.f32(d.contact_damping_ratio);
    e.f32(d.contact_push_max_speed);
    e.f32(d.max_linear_speed);
    e.f32(d.joint_damping_ratio);
    e.bool(d.enable_sleep);
    e.f32(d.hit_event_threshold);
}

/// Reads what `encode_def` wrote (unchecked: the caller checks).
pub(super) fn decode_def(d: &mut Dec) -> Result<WorldDef> {
    let def = WorldDef {
        body_capacity: d.u32()?,
        shape_capacity: d.u32()?,
        contact_capacity: d.u32()?,
        pair_capacity: d.u32()?,
        hull_capacity: d.u32()?,
        event_capacity: d.u32()?,
        sensor_capacity: d.u32()?,
        joint_capacity: d.u32()?,
        mesh_capacity: d.u32()?,
        content_capacity: d.u64()?,
        gravity: d.vec3()?,
        restitution_threshold: d.f32()?,
        contact_hertz: d.f32()?,
        contact_damping_ratio: d.f32()?,
        contact_push_max_speed: d.f32()?,
        max_linear_speed: d.f32()?,
        joint_damping_ratio: d.f32()?,
        enable_sleep: d.bool()?,
        hit_event_threshold: d.f32()?,
        ..WorldDef::default()
    };
    Ok(def)
}

/// The def, the step count and the origin.
pub(super) fn encode_settings<S: Sink>(
    e: &mut Enc<S>,
    def: &WorldDef,
    step_index: u64,
    origin: &[i64; 3],
) {
    encode_def(e, def);
    e.u64(step_index);
    for &o in origin {
        e.i64(o);
    }
    // Revision 6 stored here the body whose bounds had left ±2^22, which blocked every
    // later step; the step now checks before it runs and nothing is stored (always 0).
    e.u8(0);
}
