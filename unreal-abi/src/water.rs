//! Water volumes: oriented boxes of fluid whose top face is the surface. Each step, every
//! volume pushes the awake dynamic bodies in it up by the weight of the fluid they
//! displace (at the centre of buoyancy) and drags them towards its current. Create,
//! destroy, change, read, and the buoyancy query.

use crate::boundary::{api_on, non_null, read, write};
use crate::shape::m3Filter;
use crate::types::*;
use engine::{WaterVolumeId, World};

/// A water volume: an oriented box of fluid. Start from `m3DefaultWaterVolumeDef()`.
///
/// Per body and step, with `f` the submerged fraction, `V` the submerged volume, `g` the
/// world's gravity, `m` the body's mass and `I` its world inertia: buoyancy
/// `−density · V · g` at the centre of buoyancy; linear drag
/// `−m · min(linearDrag · f, 1/dt) · (v − flow)`; angular drag
/// `−min(angularDrag · f, 1/dt) · I · ω`. Shapes whose centre is within the box's sides
/// and above its bottom count.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct m3WaterVolumeDef {
    /// Centre of the box, relative to the world origin.
    pub center: m3DVec3,
    /// Rotation of the box (normalised); the surface's normal is `rotation · +y`.
    pub rotation: m3Quat,
    /// Half-extents of the box (each in (0, 1e6]); the surface is `halfExtents.y` above
    /// the centre.
    pub halfExtents: m3Vec3,
    /// Fluid density, kg/m³ (in [0, 1e5]; default 1000, water).
    pub density: f32,
    /// Linear drag rate, 1/s (in [0, 1e6]; default 1).
    pub linearDrag: f32,
    /// Angular drag rate, 1/s (in [0, 1e6]; default 1).
    pub angularDrag: f32,
    /// The current, m/s (each component within ±1e5).
    pub flow: m3Vec3,
    /// Which shapes the water acts on: those whose filter collides with this one.
    pub filter: m3Filter,
}

fn c_filter(f: engine::Filter) -> m3Filter {
    m3Filter {
        categoryBits: f.category_bits,
        maskBits: f.mask_bits,
        groupIndex: f.group_index,
    }
}

fn c_water_def(d: &engine::WaterVolumeDef) -> m3WaterVolumeDef {
    m3WaterVolumeDef {
        center: d.center.into(),
        rotation: d.rotation.into(),
        halfExtents: d.half_extents.into(),
        density: d.density,
        linearDrag: d.linear_drag,
        angularDrag: d.angular_drag,
        flow: d.flow.into(),
        filter: c_filter(d.filter),
    }
}

impl From<m3WaterVolumeDef> for engine::WaterVolumeDef {
    fn from(d: m3WaterVolumeDef) -> engine::WaterVolumeDef {
        engine::WaterVolumeDef {
            center: d.center.into(),
            rotation: d.rotation.into(),
            half_extents: d.halfExtents.into(),
            density: d.density,
            linear_drag: d.linearDrag,
            angular_drag: d.angularDrag,
            flow: d.flow.into(),
            filter: d.filter.into(),
        }
    }
}

fn default_water_def() -> m3WaterVolumeDef {
    c_water_def(&engine::WaterVolumeDef::default())
}

/// The default water volume def: a 20 × 10 × 20 m box centred at the origin (surface at
/// y = 5), density 1000, drag 1/s, no current, the default filter.
#[unsafe(no_mangle)]
pub extern "C" fn m3DefaultWaterVolumeDef() -> m3WaterVolumeDef {
    crate::boundary::value(
        "m3DefaultWaterVolumeDef",
        default_water_def(),
        default_water_def,
    )
}

/// What a water volume does to one body where it is now (`m3WaterVolume_GetBuoyancy`).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct m3Buoyancy {
    /// Volume of the body's shapes below the surface, m³.
    pub submergedVolume: f32,
    /// Volume of the body's shapes the water acts on, m³.
    pub totalVolume: f32,
    /// Centroid of the submerged part, relative to the world origin (the body's centre of
    /// mass when nothing is submerged).
    pub centerOfBuoyancy: m3DVec3,
}

/// Creates a water volume and wakes the dynamic bodies in its box. Refused (nothing
/// changed) for a bad value (`m3_errorArgument`; a centre past the limits is
/// `m3_errorOutOfBounds`) or a full pool (`m3_errorCapacity`; see `waterCapacity`).
///
/// # Safety
/// - `def` points to one readable `m3WaterVolumeDef`, aligned for its type, for the
///   duration of the call (null is refused with `m3_errorArgument`).
/// - `waterId` points to one writable `m3WaterVolumeId`, aligned for its type, for the
///   duration of the call (null is refused with `m3_errorArgument`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m3World_CreateWaterVolume(
    worldId: m3WorldId,
    def: *const m3WaterVolumeDef,
    waterId: *mut m3WaterVolumeId,
) -> m3Result {
    api_on("m3World_CreateWaterVolume", worldId, || {
        let o = out("waterId", waterId)?;
        // SAFETY: the host passes a valid def or null.
        let d = unsafe { read_ptr("def", def) }?;
        let id = write(worldId, |e| {
            let w = e.world.create_water_volume(&d.into())?;
            Ok(m3WaterVolumeId::from_core(w, e.id))
        })?;
        // SAFETY: checked non-null.
        unsafe { put(o, id) };
        Ok(())
    })
}

/// Runs a change of water volume `id`.
fn set(
    name: &'static str,
    id: m3WaterVolumeId,
    f: impl FnOnce(&mut World, WaterVolumeId) -> engine::Result<()>,
) -> m3Result {
    api_on(name, id.world, || {
        non_null("waterId", id)?;
        write(id.world, |e| Ok(f(&mut e.world, id.to_core(e.tag))?))
    })
}

/// Destroys a water volume and wakes the dynamic bodies that were in it.
#[unsafe(no_mangle)]
pub extern "C" fn m3WaterVolume_Destroy(waterId: m3WaterVolumeId) -> m3Result {
    set("m3WaterVolume_Destroy", waterId, |w, v| {
        w.destroy_water_volume(v)
    })
}

/// Replaces a water volume's settings (every field checked as on create); wakes the
/// bodies in its old and new box.
///
/// # Safety
/// `def` points to one readable `m3WaterVolumeDef`, aligned for its type, for the
/// duration of the call (null is refused with `m3_errorArgument`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m3WaterVolume_SetDef(
    waterId: m3WaterVolumeId,
    def: *const m3WaterVolumeDef,
) -> m3Result {
    api_on("m3WaterVolume_SetDef", waterId.world, || {
        // SAFETY: the host passes a valid def or null.
        let d = unsafe { read_ptr("def", def) }?;
        non_null("waterId", waterId)?;
        write(waterId.world, |e| {
            Ok(e.world
                .set_water_volume(waterId.to_core(e.tag), &d.into())?)
        })
    })
}

/// Sets a water volume's fluid density, kg/m³ (in [0, 1e5]).
#[unsafe(no_mangle)]
pub extern "C" fn m3WaterVolume_SetDensity(waterId: m3WaterVolumeId, density: f32) -> m3Result {
    set("m3WaterVolume_SetDensity", waterId, |w, v| {
        w.set_water_density(v, density)
    })
}

/// Sets a water volume's linear and angular drag rates, 1/s (each in [0, 1e6]).
#[unsafe(no_mangle)]
pub extern "C" fn m3WaterVolume_SetDrag(
    waterId: m3WaterVolumeId,
    linearDrag: f32,
    angularDrag: f32,
) -> m3Result {
    set("m3WaterVolume_SetDrag", waterId, |w, v| {
        w.set_water_drag(v, linearDrag, angularDrag)
    })
}

/// Sets a water volume's current, m/s (each component within ±1e5).
#[unsafe(no_mangle)]
pub extern "C" fn m3WaterVolume_SetFlow(waterId: m3WaterVolumeId, flow: m3Vec3) -> m3Result {
    set("m3WaterVolume_SetFlow", waterId, |w, v| {
        w.set_water_flow(v, flow.into())
    })
}

/// Moves, turns or resizes a water volume's box (the surface is its top face).
#[unsafe(no_mangle)]
pub extern "C" fn m3WaterVolume_SetRegion(
    waterId: m3WaterVolumeId,
    center: m3DVec3,
    rotation: m3Quat,
    halfExtents: m3Vec3,
) -> m3Result {
    set("m3WaterVolume_SetRegion", waterId, |w, v| {
        w.set_water_region(v, center.into(), rotation.into(), halfExtents.into())
    })
}

/// A water volume's settings (its rotation normalised).
///
/// # Safety
/// `def` points to one writable `m3WaterVolumeDef`, aligned for its type, for the
/// duration of the call (null is refused with `m3_errorArgument`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m3WaterVolume_GetDef(
    waterId: m3WaterVolumeId,
    def: *mut m3WaterVolumeDef,
) -> m3Result {
    api_on("m3WaterVolume_GetDef", waterId.world, || {
        let o = out("def", def)?;
        non_null("waterId", waterId)?;
        let d = read(waterId.world, |e| {
            Ok(e.world.water_volume(waterId.to_core(e.tag))?)
        })?;
        // SAFETY: checked non-null.
        unsafe { put(o, c_water_def(&d)) };
        Ok(())
    })
}

/// What a water volume does to a body's shapes where they are now: the submerged volume,
/// the volume it acts on and the centre of buoyancy, as the step computes them (for any
/// body type). The body must be of the volume's world.
///
/// # Safety
/// `buoyancy` points to one writable `m3Buoyancy`, aligned for its type, for the duration
/// of the call (null is refused with `m3_errorArgument`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m3WaterVolume_GetBuoyancy(
    waterId: m3WaterVolumeId,
    bodyId: m3BodyId,
    buoyancy: *mut m3Buoyancy,
) -> m3Result {
    api_on("m3WaterVolume_GetBuoyancy", waterId.world, || {
        let o = out("buoyancy", buoyancy)?;
        non_null("waterId", waterId)?;
        let b = read(waterId.world, |e| {
            e.owns("bodyId", bodyId)?;
            Ok(e.world
                .water_buoyancy(waterId.to_core(e.tag), bodyId.to_core(e.tag))?)
        })?;
        // SAFETY: checked non-null.
        unsafe {
            put(
                o,
                m3Buoyancy {
                    submergedVolume: b.submerged_volume,
                    totalVolume: b.total_volume,
                    centerOfBuoyancy: b.center_of_buoyancy.into(),
                },
            )
        };
        Ok(())
    })
}

/// The ids of the live water volumes, in slot order, as `m3World_GetBodyIds`.
///
/// # Safety
/// - `ids` points to `capacity` writable `m3WaterVolumeId` items, aligned, for the
///   duration of the call (they may be uninitialised; null only with `capacity` 0).
/// - `count` points to one writable `i32`, aligned for its type, for the duration of the
///   call (null is refused with `m3_errorArgument`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m3World_GetWaterVolumeIds(
    worldId: m3WorldId,
    ids: *mut m3WaterVolumeId,
    capacity: i32,
    count: *mut i32,
) -> m3Result {
    api_on("m3World_GetWaterVolumeIds", worldId, || {
        let o = out("count", count)?;
        let arr = OutArray::new("ids", ids, capacity)?;
        let n = read(worldId, |e| {
            let mut n = 0;
            for id in e.world.water_volume_ids() {
                // SAFETY: within the host's capacity.
                unsafe { arr.set(n, m3WaterVolumeId::from_core(id, e.id)) };
                n += 1;
            }
            Ok(n)
        })?;
        // SAFETY: checked non-null.
        unsafe { put(o, to_i32(n)) };
        Ok(())
    })
}
