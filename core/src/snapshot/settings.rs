//! The head of the state encoding: the world's capacities (in a snapshot, not in the
//! hash: they do not shape the future), its settings, the step count and the origin.

use crate::codec::{Dec, Enc, Sink};
use crate::def::WorldDef;
use crate::error::{Error, Result};
use crate::soft::SOFT_BODY_EXCEPTIONS;

/// The def's capacities: the head of a snapshot's payload, outside the hashed state. Ids
/// (each pool's slot count and free list) and results do not depend on them while no pool
/// overflows, so two worlds of different capacities given the same calls hash the same;
/// a snapshot keeps them so `def_from_snapshot` makes a world that holds it.
///
/// Revision 9 adds the character, vehicle and water capacities and a byte saying whether
/// the state holds their stores (`extras`: see `super::encode_state`); revision 10 the
/// soft body capacities before that byte, whose bit 1 says whether the soft body store
/// follows (bit 0: the character, vehicle and water stores); revision 11 the bound on the
/// bodies a soft body ignores (`SOFT_BODY_EXCEPTIONS`) before that byte, whose bit 2 says
/// whether the soft body store holds their lists (so a revision-11 head is not read as
/// a revision-10 one: a flipped revision bit is refused).
pub(super) fn encode_capacities<S: Sink>(e: &mut Enc<S>, d: &WorldDef, stores: Stores) {
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
    e.u32(d.character_capacity);
    e.u32(d.vehicle_capacity);
    e.u32(d.water_capacity);
    e.u32(d.soft_body_capacity);
    e.u32(d.soft_particle_capacity);
    e.u8(SOFT_BODY_EXCEPTIONS as u8);
    e.u8(stores.extras as u8 | (stores.soft as u8) << 1 | (stores.soft_exceptions as u8) << 2);
}

/// Which optional stores a state holds.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct Stores {
    /// The character, vehicle and water stores.
    pub(crate) extras: bool,
    /// The soft body store.
    pub(crate) soft: bool,
    /// The bodies each soft body ignores, in the soft body store.
    pub(crate) soft_exceptions: bool,
}

/// The def's settings (hooks and allocator are not state).
fn encode_def_settings<S: Sink>(e: &mut Enc<S>, d: &WorldDef) {
    e.vec3(d.gravity);
    e.f32(d.restitution_threshold);
    e.f32(d.contact_hertz);
    e.f32(d.contact_damping_ratio);
    e.f32(d.contact_push_max_speed);
    e.f32(d.max_linear_speed);
    e.f32(d.joint_damping_ratio);
    // Bit 0: sleep; bits 1–6: the combine rules (0 for the default ones, see
    // `combine::encode_rules`).
    e.u8(d.enable_sleep as u8
        | crate::combine::encode_rules(d.friction_combine, d.restitution_combine));
    e.f32(d.hit_event_threshold);
}

/// Reads what `encode_capacities` and then `encode_settings`' def part wrote (unchecked:
/// the caller checks), with whether the state holds the character, vehicle and water
/// stores. Before revision 9 there are no such capacities (the defaults stand) and no
/// such stores.
pub(super) fn decode_def(d: &mut Dec, revision: u32) -> Result<(WorldDef, Stores)> {
    let mut def = WorldDef {
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
        ..WorldDef::default()
    };
    let mut stores = Stores::default();
    if revision >= super::REVISION_EXTRAS {
        def.character_capacity = d.u32()?;
        def.vehicle_capacity = d.u32()?;
        def.water_capacity = d.u32()?;
        if revision >= super::REVISION_SOFT {
            def.soft_body_capacity = d.u32()?;
            def.soft_particle_capacity = d.u32()?;
            let known = if revision >= super::REVISION_SOFT_EXCEPTIONS {
                if d.u8()? as usize != SOFT_BODY_EXCEPTIONS {
                    return Err(Error::Format(
                        "the soft bodies' exception bound is not SOFT_BODY_EXCEPTIONS",
                    ));
                }
                7
            } else {
                3
            };
            let bits = d.u8()?;
            // The ignored bodies are part of the soft body store.
            if bits > known || bits & 6 == 4 {
                return Err(Error::Format("unknown store bits"));
            }
            stores = Stores {
                extras: bits & 1 == 1,
                soft: bits & 2 == 2,
                soft_exceptions: bits & 4 == 4,
            };
        } else {
            stores.extras = d.bool()?;
        }
    }
    let mut def = WorldDef {
        gravity: d.vec3()?,
        restitution_threshold: d.f32()?,
        contact_hertz: d.f32()?,
        contact_damping_ratio: d.f32()?,
        contact_push_max_speed: d.f32()?,
        max_linear_speed: d.f32()?,
        joint_damping_ratio: d.f32()?,
        ..def
    };
    let sleep = d.u8()?;
    let (friction, restitution) = crate::combine::decode_rules(sleep)
        .filter(|_| sleep & 0x80 == 0)
        .ok_or(Error::Format(
            "the sleep and combine-rule byte names no rules",
        ))?;
    def.enable_sleep = sleep & 1 == 1;
    def.friction_combine = friction;
    def.restitution_combine = restitution;
    def.hit_event_threshold = d.f32()?;
    Ok((def, stores))
}

/// The def's settings, the step count and the origin (the head of the hashed state).
pub(super) fn encode_settings<S: Sink>(
    e: &mut Enc<S>,
    def: &WorldDef,
    step_index: u64,
    origin: &[i64; 3],
) {
    encode_def_settings(e, def);
    e.u64(step_index);
    for &o in origin {
        e.i64(o);
    }
    // Revision 6 stored here the body whose bounds had left ±2^22, which blocked every
    // later step; the step now checks before it runs and nothing is stored (always 0).
    e.u8(0);
}

/// The head of a snapshot, checked against the world restoring it.
pub(super) struct Settings {
    pub def: WorldDef,
    /// Which optional stores the state holds.
    pub stores: Stores,
    pub step_index: u64,
    pub origin: [i64; 3],
    /// Revision 6's out-of-bounds body (see `encode_settings`): read, checked, dropped.
    pub out_of_bounds: Option<u32>,
}

/// Reads what `encode_capacities` and `encode_settings` wrote. The snapshot's capacities
/// are not checked here: each store's decoder checks that what it holds fits the
/// restoring world's pools (`Error::TooSmall` otherwise); the settings must be those
/// `World::new` accepts.
pub(super) fn decode_settings(d: &mut Dec, revision: u32) -> Result<Settings> {
    let (def, stores) = decode_def(d, revision)?;
    // The settings World::new accepts, and no others.
    crate::def::check_settings(&def).map_err(|_| Error::Format("world settings out of range"))?;
    let step_index = d.u64()?;
    let origin = [d.i64()?, d.i64()?, d.i64()?];
    let out_of_bounds = if d.bool()? {
        let (body, _bounds) = (d.u32()?, d.f64()?);
        Some(body)
    } else {
        None
    };
    Ok(Settings {
        def,
        stores,
        step_index,
        origin,
        out_of_bounds,
    })
}
