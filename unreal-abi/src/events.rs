//! The last step's events: contact begin, end and hit; sensor begin and end; body moves;
//! joint breaks; and a sensor's current overlaps. Each call copies up to `capacity` events
//! into the host's array and writes how many there are (which may exceed the capacity).

use crate::boundary::{Entry, api_on, read};
use crate::types::*;

/// A contact between two shapes began (they touch) or ended.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct m3ContactEvent {
    /// Shape A.
    pub shapeA: m3ShapeId,
    /// Shape B.
    pub shapeB: m3ShapeId,
}

/// Two shapes with hit events approached faster than the world's threshold.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct m3ContactHitEvent {
    /// Shape A.
    pub shapeA: m3ShapeId,
    /// Shape B.
    pub shapeB: m3ShapeId,
    /// The point that approached fastest, relative to the world origin.
    pub point: m3DVec3,
    /// The normal, from A to B.
    pub normal: m3Vec3,
    /// Approach speed along the normal, m/s.
    pub approachSpeed: f32,
}

/// A sensor began or stopped overlapping a shape.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct m3SensorEvent {
    /// The sensor shape.
    pub sensorShape: m3ShapeId,
    /// The shape that entered or left it.
    pub visitorShape: m3ShapeId,
}

/// A body moved in the last step.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct m3BodyMoveEvent {
    /// The body.
    pub body: m3BodyId,
    /// Its new position, relative to the world origin.
    pub position: m3DVec3,
    /// Its new rotation.
    pub rotation: m3Quat,
    /// Whether it fell asleep in this step.
    pub fellAsleep: bool,
}

/// A joint broke in the last step.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct m3JointBreakEvent {
    /// The joint.
    pub joint: m3JointId,
}

/// Copies the events `pick` selects, converted by `conv`, into the host's array.
fn copy<E: Copy, C>(
    name: &'static str,
    worldId: m3WorldId,
    events: *mut C,
    capacity: i32,
    count: *mut i32,
    pick: impl FnOnce(&engine::World) -> &[E],
    conv: impl Fn(&E, &Entry) -> C,
) -> m3Result {
    api_on(name, worldId, || {
        let o = out("count", count)?;
        let arr = OutArray::new("events", events, capacity)?;
        let n = read(worldId, |e| {
            let list = pick(&e.world);
            for (i, ev) in list.iter().enumerate().take(arr.capacity()) {
                // SAFETY: within the host's capacity.
                unsafe { arr.set(i, conv(ev, e)) };
            }
            Ok(list.len())
        })?;
        // SAFETY: checked non-null.
        unsafe { put(o, to_i32(n)) };
        Ok(())
    })
}

fn contact(ev: &engine::ContactEvent, e: &Entry) -> m3ContactEvent {
    m3ContactEvent {
        shapeA: m3ShapeId::from_core(ev.shape_a, e.id),
        shapeB: m3ShapeId::from_core(ev.shape_b, e.id),
    }
}

fn sensor(ev: &engine::SensorEvent, e: &Entry) -> m3SensorEvent {
    m3SensorEvent {
        sensorShape: m3ShapeId::from_core(ev.sensor, e.id),
        visitorShape: m3ShapeId::from_core(ev.visitor, e.id),
    }
}

/// Contacts that began touching in the last step.
///
/// # Safety
/// - `events` points to `capacity` writable `m3ContactEvent` items, aligned, for the
///   duration of the call (they may be uninitialised; null only with `capacity` 0).
/// - `count` points to one writable `i32`, aligned for its type, for the duration of
///   the call (null is refused with `m3_errorArgument`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m3World_GetContactBeginEvents(
    worldId: m3WorldId,
    events: *mut m3ContactEvent,
    capacity: i32,
    count: *mut i32,
) -> m3Result {
    copy(
        "m3World_GetContactBeginEvents",
        worldId,
        events,
        capacity,
        count,
        |w| w.contact_begin_events(),
        contact,
    )
}

/// Contacts that stopped touching in the last step.
///
/// # Safety
/// - `events` points to `capacity` writable `m3ContactEvent` items, aligned, for the
///   duration of the call (they may be uninitialised; null only with `capacity` 0).
/// - `count` points to one writable `i32`, aligned for its type, for the duration of
///   the call (null is refused with `m3_errorArgument`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m3World_GetContactEndEvents(
    worldId: m3WorldId,
    events: *mut m3ContactEvent,
    capacity: i32,
    count: *mut i32,
) -> m3Result {
    copy(
        "m3World_GetContactEndEvents",
        worldId,
        events,
        capacity,
        count,
        |w| w.contact_end_events(),
        contact,
    )
}

/// Hits of the last step.
///
/// # Safety
/// - `events` points to `capacity` writable `m3ContactHitEvent` items, aligned, for the
///   duration of the call (they may be uninitialised; null only with `capacity` 0).
/// - `count` points to one writable `i32`, aligned for its type, for the duration of
///   the call (null is refused with `m3_errorArgument`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m3World_GetContactHitEvents(
    worldId: m3WorldId,
    events: *mut m3ContactHitEvent,
    capacity: i32,
    count: *mut i32,
) -> m3Result {
    copy(
        "m3World_GetContactHitEvents",
        worldId,
        events,
        capacity,
        count,
        |w| w.contact_hit_events(),
        |ev, e| m3ContactHitEvent {
            shapeA: m3ShapeId::from_core(ev.shape_a, e.id),
            shapeB: m3ShapeId::from_core(ev.shape_b, e.id),
            point: ev.point.into(),
            normal: ev.normal.into(),
            approachSpeed: ev.approach_speed,
        },
    )
}

/// Shapes that began overlapping a sensor in the last step.
///
/// # Safety
/// - `events` points to `capacity` writable `m3SensorEvent` items, aligned, for the
///   duration of the call (they may be uninitialised; null only with `capacity` 0).
/// - `count` points to one writable `i32`, aligned for its type, for the duration of
///   the call (null is refused with `m3_errorArgument`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m3World_GetSensorBeginEvents(
    worldId: m3WorldId,
    events: *mut m3SensorEvent,
    capacity: i32,
    count: *mut i32,
) -> m3Result {
    copy(
        "m3World_GetSensorBeginEvents",
        worldId,
        events,
        capacity,
        count,
        |w| w.sensor_begin_events(),
        sensor,
    )
}

/// Shapes that stopped overlapping a sensor in the last step.
///
/// # Safety
/// - `events` points to `capacity` writable `m3SensorEvent` items, aligned, for the
///   duration of the call (they may be uninitialised; null only with `capacity` 0).
/// - `count` points to one writable `i32`, aligned for its type, for the duration of
///   the call (null is refused with `m3_errorArgument`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m3World_GetSensorEndEvents(
    worldId: m3WorldId,
    events: *mut m3SensorEvent,
    capacity: i32,
    count: *mut i32,
) -> m3Result {
    copy(
        "m3World_GetSensorEndEvents",
        worldId,
        events,
        capacity,
        count,
        |w| w.sensor_end_events(),
        sensor,
    )
}

/// Bodies that moved in the last step, in body slot order.
///
/// # Safety
/// - `events` points to `capacity` writable `m3BodyMoveEvent` items, aligned, for the
///   duration of the call (they may be uninitialised; null only with `capacity` 0).
/// - `count` points to one writable `i32`, aligned for its type, for the duration of
///   the call (null is refused with `m3_errorArgument`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m3World_GetBodyMoveEvents(
    worldId: m3WorldId,
    events: *mut m3BodyMoveEvent,
    capacity: i32,
    count: *mut i32,
) -> m3Result {
    copy(
        "m3World_GetBodyMoveEvents",
        worldId,
        events,
        capacity,
        count,
        |w| w.body_move_events(),
        |ev, e| m3BodyMoveEvent {
            body: m3BodyId::from_core(ev.body, e.id),
            position: ev.position.into(),
            rotation: ev.rotation.into(),
            fellAsleep: ev.fell_asleep,
        },
    )
}

/// Joints that broke in the last step, in joint slot order.
///
/// # Safety
/// - `events` points to `capacity` writable `m3JointBreakEvent` items, aligned, for the
///   duration of the call (they may be uninitialised; null only with `capacity` 0).
/// - `count` points to one writable `i32`, aligned for its type, for the duration of
///   the call (null is refused with `m3_errorArgument`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m3World_GetJointBreakEvents(
    worldId: m3WorldId,
    events: *mut m3JointBreakEvent,
    capacity: i32,
    count: *mut i32,
) -> m3Result {
    copy(
        "m3World_GetJointBreakEvents",
        worldId,
        events,
        capacity,
        count,
        |w| w.joint_break_events(),
        |ev, e| m3JointBreakEvent {
            joint: m3JointId::from_core(ev.joint, e.id),
        },
    )
}

/// The shapes a sensor overlaps now, by shape slot: up to `capacity` into `shapes`, and
/// how many (which may exceed the capacity) into `count`.
///
/// # Safety
/// - `shapes` points to `capacity` writable `m3ShapeId` items, aligned, for the
///   duration of the call (they may be uninitialised; null only with `capacity` 0).
/// - `count` points to one writable `i32`, aligned for its type, for the duration of
///   the call (null is refused with `m3_errorArgument`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m3Shape_GetSensorOverlaps(
    sensorId: m3ShapeId,
    shapes: *mut m3ShapeId,
    capacity: i32,
    count: *mut i32,
) -> m3Result {
    api_on("m3Shape_GetSensorOverlaps", sensorId.world, || {
        let o = out("count", count)?;
        let arr = OutArray::new("shapes", shapes, capacity)?;
        let n = read(sensorId.world, |e| {
            let cap = arr.capacity();
            let r = crate::boundary::with_scratch(e, cap, engine::ShapeId::NULL, |buf| {
                let n = e.world.sensor_overlaps(sensorId.to_core(e.tag), buf)?;
                for (i, s) in buf.iter().enumerate().take(n.min(cap)) {
                    // SAFETY: within the host's capacity.
                    unsafe { arr.set(i, m3ShapeId::from_core(*s, e.id)) };
                }
                Ok::<usize, engine::Error>(n)
            })?;
            Ok(r?)
        })?;
        // SAFETY: checked non-null.
        unsafe { put(o, to_i32(n)) };
        Ok(())
    })
}
