//! Capacities and growth: read a world's capacities, ask whether it should grow before
//! its next step, and grow it (between steps; journaled).

use crate::boundary::{api_on, read, write};
use crate::types::*;

/// A world's capacities (the capacity fields of `m3WorldDef`).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct m3Capacities {
    /// Most bodies alive at once (1 to 2^24).
    pub bodyCapacity: i32,
    /// Most shapes alive at once.
    pub shapeCapacity: i32,
    /// Most contacts at once.
    pub contactCapacity: i32,
    /// Most new broad-phase pairs kept in one step.
    pub pairCapacity: i32,
    /// Most convex hulls alive at once.
    pub hullCapacity: i32,
    /// Most triangle meshes, height fields and voxel grids alive at once.
    pub meshCapacity: i32,
    /// Content budget, bytes (within [0, 2^40]).
    pub contentCapacity: i64,
    /// Most joints alive at once.
    pub jointCapacity: i32,
    /// Most events of each kind kept per step.
    pub eventCapacity: i32,
    /// Most (sensor, shape) overlaps at once.
    pub sensorCapacity: i32,
}

fn c_capacities(c: &engine::Capacities) -> m3Capacities {
    let i = |v: u32| to_i32(v as usize);
    m3Capacities {
        bodyCapacity: i(c.body_capacity),
        shapeCapacity: i(c.shape_capacity),
        contactCapacity: i(c.contact_capacity),
        pairCapacity: i(c.pair_capacity),
        hullCapacity: i(c.hull_capacity),
        meshCapacity: i(c.mesh_capacity),
        contentCapacity: c.content_capacity as i64,
        jointCapacity: i(c.joint_capacity),
        eventCapacity: i(c.event_capacity),
        sensorCapacity: i(c.sensor_capacity),
    }
}

fn capacity(name: &'static str, v: i32) -> Result<u32, crate::boundary::Refusal> {
    if v <= 0 {
        return Err(crate::refuse!(
            m3_errorArgument,
            "{name} = {v} must be within [1, 2^24]"
        ));
    }
    Ok(v as u32)
}

fn engine_capacities(c: &m3Capacities) -> Result<engine::Capacities, crate::boundary::Refusal> {
    if !(0..=1 << 40).contains(&c.contentCapacity) {
        return Err(crate::refuse!(
            m3_errorArgument,
            "contentCapacity = {} must be within [0, 2^40] bytes",
            c.contentCapacity
        ));
    }
    Ok(engine::Capacities {
        body_capacity: capacity("bodyCapacity", c.bodyCapacity)?,
        shape_capacity: capacity("shapeCapacity", c.shapeCapacity)?,
        contact_capacity: capacity("contactCapacity", c.contactCapacity)?,
        pair_capacity: capacity("pairCapacity", c.pairCapacity)?,
        hull_capacity: capacity("hullCapacity", c.hullCapacity)?,
        joint_capacity: capacity("jointCapacity", c.jointCapacity)?,
        mesh_capacity: capacity("meshCapacity", c.meshCapacity)?,
        content_capacity: c.contentCapacity as u64,
        event_capacity: capacity("eventCapacity", c.eventCapacity)?,
        sensor_capacity: capacity("sensorCapacity", c.sensorCapacity)?,
    })
}

/// The world's capacities now (as created, or as grown since).
///
/// # Safety
/// `capacities` points to one writable `m3Capacities`, aligned for its type, for the
/// duration of the call (null is refused with `m3_errorArgument`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m3World_GetCapacities(
    worldId: m3WorldId,
    capacities: *mut m3Capacities,
) -> m3Result {
    api_on("m3World_GetCapacities", worldId, || {
        let o = out("capacities", capacities)?;
        let c = read(worldId, |e| Ok(e.world.capacities()))?;
        // SAFETY: checked non-null.
        unsafe { put(o, c_capacities(&c)) };
        Ok(())
    })
}

/// Whether the world should grow before its next step, and to what: each pool's live
/// count (for contacts, the live ones plus the pairs the next step begins; for pairs,
/// those) must stay within three quarters of its capacity; each that does not is
/// doubled. `*needed` is set, and `capacities` gets what to pass to `m3World_Grow` (the
/// current capacities when nothing is needed). Reads only.
///
/// # Safety
/// `capacities` points to one writable `m3Capacities` and `needed` to one writable
/// `bool`, each aligned for its type, for the duration of the call (null is refused with
/// `m3_errorArgument`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m3World_GrowthNeeded(
    worldId: m3WorldId,
    capacities: *mut m3Capacities,
    needed: *mut bool,
) -> m3Result {
    api_on("m3World_GrowthNeeded", worldId, || {
        let o = out("capacities", capacities)?;
        let n = out("needed", needed)?;
        let (want, now) = read(worldId, |e| {
            Ok((e.world.growth_needed(), e.world.capacities()))
        })?;
        // SAFETY: checked non-null.
        unsafe {
            put(o, c_capacities(&want.unwrap_or(now)));
            put(n, want.is_some());
        }
        Ok(())
    })
}

/// Enlarges the world's capacities, between steps (the one call after creation that
/// takes memory from the world's allocator). State, ids, hash, user data and the journal
/// stay; the world steps on as one created this large would. Recorded in the journal. A
/// capacity below the world's own or past 2^24 is refused with `m3_errorArgument`, a
/// refused allocation with `m3_errorCapacity`; either way nothing changes.
///
/// # Safety
/// `capacities` points to one readable `m3Capacities`, aligned for its type, for the
/// duration of the call (null is refused with `m3_errorArgument`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m3World_Grow(
    worldId: m3WorldId,
    capacities: *const m3Capacities,
) -> m3Result {
    api_on("m3World_Grow", worldId, || {
        // SAFETY: the host passes a valid struct or null.
        let c = unsafe { read_ptr("capacities", capacities) }?;
        let c = engine_capacities(&c)?;
        write(worldId, |e| Ok(e.world.grow(&c)?))
    })
}
