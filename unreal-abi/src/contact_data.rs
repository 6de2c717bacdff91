//! Per-body contact data: a body's or shape's touching contacts as the last step's solver
//! left them (manifold points, separations, impulses), Box2D v3's
//! `b2Body_GetContactData` over `maul3d::World::body_contact_data`.

use crate::boundary::{Entry, Refusal, api_on, non_null, read, with_scratch};
use crate::types::*;
use engine::{ContactData, World};

/// The `child` of a contact between two whole shapes.
pub const M3_NO_CHILD: u32 = 0xFFFF_FFFF;

/// One point of a contact manifold, as the solver left it after the last step.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct m3ContactManifoldPoint {
    /// The point, relative to the world origin: where the step's narrow phase put it
    /// (midway between the surfaces), carried along with body A's centre of mass since.
    pub point: m3DVec3,
    /// The point relative to body A's centre of mass, world orientation.
    pub anchorA: m3Vec3,
    /// The point relative to body B's centre of mass, world orientation.
    pub anchorB: m3Vec3,
    /// Separation along the normal when the manifold was computed (negative: overlap).
    pub separation: f32,
    /// The accumulated normal impulse (N·s) of one substep, applied to B along the normal
    /// (its opposite to A): over a step of n substeps a steady contact pushes with n
    /// times this.
    pub normalImpulse: f32,
    /// The accumulated friction impulse of one substep, a world vector in the tangent
    /// plane, applied to B (its opposite to A).
    pub tangentImpulse: m3Vec3,
    /// The largest normal impulse one solver iteration applied in the last step (above
    /// zero for a speculative point that acted).
    pub maxNormalImpulse: f32,
    /// Feature id: the same for the same pair of features from step to step.
    pub id: u32,
}

/// A contact manifold: up to four points sharing one normal.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct m3ContactManifold {
    /// Unit normal from shape A to shape B, world orientation.
    pub normal: m3Vec3,
    /// The accumulated rolling-resistance impulse (zero without rolling resistance).
    pub rollingImpulse: m3Vec3,
    /// The points; only the first `pointCount` are used.
    pub points: [m3ContactManifoldPoint; 4],
    /// Number of points, 1 to 4.
    pub pointCount: i32,
}

/// A touching contact of two shapes and its manifold. A pair with a mesh, height field
/// or voxel grid (always shape A) touches through one contact per triangle or merged
/// voxel box: each is its own `m3ContactData`, `child` naming the triangle or box.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct m3ContactData {
    /// Shape A (mesh > hull/box > capsule > sphere; the lower slot of equal kinds).
    pub shapeA: m3ShapeId,
    /// Shape B.
    pub shapeB: m3ShapeId,
    /// The triangle or voxel box of shape A; `M3_NO_CHILD` for two whole shapes.
    pub child: u32,
    /// The manifold the solver used, with its impulses.
    pub manifold: m3ContactManifold,
}

fn convert(c: &ContactData, e: &Entry) -> m3ContactData {
    let m = &c.manifold;
    let mut points = [m3ContactManifoldPoint::default(); 4];
    for (out, p) in points.iter_mut().zip(m.points()) {
        *out = m3ContactManifoldPoint {
            point: p.point.into(),
            anchorA: p.anchor_a.into(),
            anchorB: p.anchor_b.into(),
            separation: p.separation,
            normalImpulse: p.normal_impulse,
            tangentImpulse: p.tangent_impulse.into(),
            maxNormalImpulse: p.max_normal_impulse,
            id: p.id,
        };
    }
    m3ContactData {
        shapeA: m3ShapeId::from_core(c.shape_a, e.id),
        shapeB: m3ShapeId::from_core(c.shape_b, e.id),
        child: c.child,
        manifold: m3ContactManifold {
            normal: m.normal.into(),
            rollingImpulse: m.rolling_impulse.into(),
            points,
            pointCount: m.points().len() as i32,
        },
    }
}

/// Copies a body's or shape's contact data into the host's array: `bound` is how many
/// contacts there can be at most (the scratch never needs more), `fill` the core call.
fn copy(
    e: &Entry,
    arr: &OutArray<m3ContactData>,
    bound: usize,
    fill: impl FnOnce(&World, &mut [ContactData]) -> engine::Result<usize>,
) -> Result<usize, Refusal> {
    let n = arr.capacity().min(bound);
    let r = with_scratch(e, n, ContactData::default(), |buf| {
        let total = fill(&e.world, buf)?;
        for (i, c) in buf.iter().enumerate().take(total.min(n)) {
            // SAFETY: within the host's capacity.
            unsafe { arr.set(i, convert(c, e)) };
        }
        Ok::<usize, engine::Error>(total)
    })?;
    Ok(r?)
}

/// How many contacts the body has, touching or not: room enough for
/// `m3Body_GetContactData`.
///
/// # Safety
/// `capacity` points to one writable `i32`, aligned for its type, for the duration of
/// the call (null is refused with `m3_errorArgument`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m3Body_GetContactCapacity(
    bodyId: m3BodyId,
    capacity: *mut i32,
) -> m3Result {
    api_on("m3Body_GetContactCapacity", bodyId.world, || {
        let o = out("capacity", capacity)?;
        non_null("bodyId", bodyId)?;
        let n = read(bodyId.world, |e| {
            Ok(e.world.body_contact_capacity(bodyId.to_core(e.tag))?)
        })?;
        // SAFETY: checked non-null.
        unsafe { put(o, to_i32(n)) };
        Ok(())
    })
}

/// The body's touching contacts (manifold point count above zero) as the last step's
/// solver left them, by (shape A, shape B, child) slot, the same order in a restored
/// world: up to `capacity` of them into `data`, and how many there are (which may exceed
/// the capacity) into `count`. A contact the pre-solve callback disabled in the last
/// step is left out (the solver did not use it). Changes nothing.
///
/// # Safety
/// - `data` points to `capacity` writable `m3ContactData` items, aligned, for the
///   duration of the call (they may be uninitialised; null only with `capacity` 0).
/// - `count` points to one writable `i32`, aligned for its type, for the duration of
///   the call (null is refused with `m3_errorArgument`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m3Body_GetContactData(
    bodyId: m3BodyId,
    data: *mut m3ContactData,
    capacity: i32,
    count: *mut i32,
) -> m3Result {
    api_on("m3Body_GetContactData", bodyId.world, || {
        let o = out("count", count)?;
        let arr = OutArray::new("data", data, capacity)?;
        non_null("bodyId", bodyId)?;
        let n = read(bodyId.world, |e| {
            let body = bodyId.to_core(e.tag);
            let bound = e.world.body_contact_capacity(body)?;
            copy(e, &arr, bound, |w, buf| w.body_contact_data(body, buf))
        })?;
        // SAFETY: checked non-null.
        unsafe { put(o, to_i32(n)) };
        Ok(())
    })
}

/// How many contacts the shape has, touching or not: room enough for
/// `m3Shape_GetContactData`.
///
/// # Safety
/// `capacity` points to one writable `i32`, aligned for its type, for the duration of
/// the call (null is refused with `m3_errorArgument`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m3Shape_GetContactCapacity(
    shapeId: m3ShapeId,
    capacity: *mut i32,
) -> m3Result {
    api_on("m3Shape_GetContactCapacity", shapeId.world, || {
        let o = out("capacity", capacity)?;
        non_null("shapeId", shapeId)?;
        let n = read(shapeId.world, |e| {
            Ok(e.world.shape_contact_capacity(shapeId.to_core(e.tag))?)
        })?;
        // SAFETY: checked non-null.
        unsafe { put(o, to_i32(n)) };
        Ok(())
    })
}

/// The shape's touching contacts, as `m3Body_GetContactData` gives its body's: up to
/// `capacity` into `data`, and how many there are into `count`.
///
/// # Safety
/// - `data` points to `capacity` writable `m3ContactData` items, aligned, for the
///   duration of the call (they may be uninitialised; null only with `capacity` 0).
/// - `count` points to one writable `i32`, aligned for its type, for the duration of
///   the call (null is refused with `m3_errorArgument`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m3Shape_GetContactData(
    shapeId: m3ShapeId,
    data: *mut m3ContactData,
    capacity: i32,
    count: *mut i32,
) -> m3Result {
    api_on("m3Shape_GetContactData", shapeId.world, || {
        let o = out("count", count)?;
        let arr = OutArray::new("data", data, capacity)?;
        non_null("shapeId", shapeId)?;
        let n = read(shapeId.world, |e| {
            let shape = shapeId.to_core(e.tag);
            let bound = e.world.shape_contact_capacity(shape)?;
            copy(e, &arr, bound, |w, buf| w.shape_contact_data(shape, buf))
        })?;
        // SAFETY: checked non-null.
        unsafe { put(o, to_i32(n)) };
        Ok(())
    })
}

/// How many contacts the world has, touching or not: room enough for
/// `m3World_GetContactData`.
///
/// # Safety
/// `capacity` points to one writable `i32`, aligned for its type, for the duration of
/// the call (null is refused with `m3_errorArgument`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m3World_GetContactCapacity(
    worldId: m3WorldId,
    capacity: *mut i32,
) -> m3Result {
    api_on("m3World_GetContactCapacity", worldId, || {
        let o = out("capacity", capacity)?;
        let n = read(worldId, |e| Ok(e.world.contact_data_capacity()))?;
        // SAFETY: checked non-null.
        unsafe { put(o, to_i32(n)) };
        Ok(())
    })
}

/// Every touching contact of the world, as `m3Body_GetContactData` gives one body's, by
/// (shape A, shape B, child) slot: up to `capacity` into `data`, and how many there are
/// into `count` (a debug view of contacts draws these). Changes nothing.
///
/// # Safety
/// - `data` points to `capacity` writable `m3ContactData` items, aligned, for the
///   duration of the call (they may be uninitialised; null only with `capacity` 0).
/// - `count` points to one writable `i32`, aligned for its type, for the duration of
///   the call (null is refused with `m3_errorArgument`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m3World_GetContactData(
    worldId: m3WorldId,
    data: *mut m3ContactData,
    capacity: i32,
    count: *mut i32,
) -> m3Result {
    api_on("m3World_GetContactData", worldId, || {
        let o = out("count", count)?;
        let arr = OutArray::new("data", data, capacity)?;
        let n = read(worldId, |e| {
            let bound = e.world.contact_data_capacity();
            copy(e, &arr, bound, |w, buf| Ok(w.contact_data(buf)))
        })?;
        // SAFETY: checked non-null.
        unsafe { put(o, to_i32(n)) };
        Ok(())
    })
}
