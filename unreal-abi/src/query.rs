//! Queries (rays, overlaps, shape casts, the body motion test), explosions and areas.
//!
//! Queries read the world: any number of threads may run them at once between steps.
//! Results beyond 32 take scratch memory from the world's allocator.

use crate::boundary::{Entry, Refusal, api_on, read, with_scratch, write};
use crate::shape::{m3_boxShape, m3_capsuleShape, m3_cylinderShape, m3_hullShape, m3_sphereShape};
use crate::shape::{m3Box, m3Capsule, m3Cylinder, m3ShapeType, m3Sphere};
use crate::types::*;

/// Which shapes a query sees: those whose category is in `maskBits` and whose mask holds
/// one of `categoryBits`; sensors only if asked.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct m3QueryFilter {
    /// What the query is.
    pub categoryBits: u64,
    /// What it sees.
    pub maskBits: u64,
    /// Whether sensor shapes are seen.
    pub includeSensors: bool,
}

impl From<m3QueryFilter> for engine::QueryFilter {
    fn from(f: m3QueryFilter) -> engine::QueryFilter {
        engine::QueryFilter {
            category_bits: f.categoryBits,
            mask_bits: f.maskBits,
            include_sensors: f.includeSensors,
        }
    }
}

fn default_filter() -> m3QueryFilter {
    let f = engine::QueryFilter::default();
    m3QueryFilter {
        categoryBits: f.category_bits,
        maskBits: f.mask_bits,
        includeSensors: f.include_sensors,
    }
}

/// The default query filter: sees every category, no sensors.
#[unsafe(no_mangle)]
pub extern "C" fn m3DefaultQueryFilter() -> m3QueryFilter {
    crate::boundary::value("m3DefaultQueryFilter", default_filter(), default_filter)
}

/// A ray's hit.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct m3RayResult {
    /// Whether anything was hit (the closest cast only).
    pub hit: bool,
    /// The shape hit.
    pub shape: m3ShapeId,
    /// Its body.
    pub body: m3BodyId,
    /// Where the ray enters it, relative to the world origin.
    pub point: m3DVec3,
    /// The surface normal there.
    pub normal: m3Vec3,
    /// The fraction of the translation at the hit.
    pub fraction: f32,
}

fn ray(r: &engine::RayResult, e: &Entry) -> m3RayResult {
    m3RayResult {
        hit: true,
        shape: m3ShapeId::from_core(r.shape, e.id),
        body: m3BodyId::from_core(r.body, e.id),
        point: r.point.into(),
        normal: r.normal.into(),
        fraction: r.fraction,
    }
}

/// How a ray cast treats shapes it starts in and triangles it meets from behind (Godot's
/// `hit_from_inside` and `hit_back_faces`).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct m3RayOptions {
    /// A ray starting inside a solid shape hits it at the origin, fraction 0, with a zero
    /// normal; false: that shape is not hit.
    pub hitFromInside: bool,
    /// Mesh and height-field triangles met from behind are hit; false: passed through.
    pub hitBackFaces: bool,
}

impl From<m3RayOptions> for engine::RayOptions {
    fn from(o: m3RayOptions) -> engine::RayOptions {
        engine::RayOptions {
            hit_from_inside: o.hitFromInside,
            hit_back_faces: o.hitBackFaces,
        }
    }
}

fn default_ray_options() -> m3RayOptions {
    let o = engine::RayOptions::default();
    m3RayOptions {
        hitFromInside: o.hit_from_inside,
        hitBackFaces: o.hit_back_faces,
    }
}

/// The default ray options (those of `m3World_CastRayClosest` and `m3World_CastRay`):
/// shapes the ray starts in are not hit; back faces are.
#[unsafe(no_mangle)]
pub extern "C" fn m3DefaultRayOptions() -> m3RayOptions {
    crate::boundary::value(
        "m3DefaultRayOptions",
        default_ray_options(),
        default_ray_options,
    )
}

fn cast_closest(
    name: &'static str,
    worldId: m3WorldId,
    origin: m3DVec3,
    translation: m3Vec3,
    filter: m3QueryFilter,
    options: m3RayOptions,
    result: *mut m3RayResult,
) -> m3Result {
    api_on(name, worldId, || {
        let o = out("result", result)?;
        let r = read(worldId, |e| {
            let hit = e.world.cast_ray_closest_with(
                origin.into(),
                translation.into(),
                &filter.into(),
                &options.into(),
            )?;
            Ok(hit.map_or_else(m3RayResult::default, |h| ray(&h, e)))
        })?;
        // SAFETY: checked non-null.
        unsafe { put(o, r) };
        Ok(())
    })
}

/// The first shape the segment `origin + t·translation`, t in [0, 1], enters; `hit` is
/// false when none.
///
/// # Safety
/// `result` points to one writable `m3RayResult`, aligned for its type, for the
/// duration of the call (null is refused with `m3_errorArgument`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m3World_CastRayClosest(
    worldId: m3WorldId,
    origin: m3DVec3,
    translation: m3Vec3,
    filter: m3QueryFilter,
    result: *mut m3RayResult,
) -> m3Result {
    let options = default_ray_options();
    let name = "m3World_CastRayClosest";
    cast_closest(name, worldId, origin, translation, filter, options, result)
}

/// `m3World_CastRayClosest` with `options`: whether shapes the ray starts in are hit (at
/// the origin, zero normal) and whether triangles met from behind are.
///
/// # Safety
/// As `m3World_CastRayClosest`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m3World_CastRayClosestEx(
    worldId: m3WorldId,
    origin: m3DVec3,
    translation: m3Vec3,
    filter: m3QueryFilter,
    options: m3RayOptions,
    result: *mut m3RayResult,
) -> m3Result {
    let name = "m3World_CastRayClosestEx";
    cast_closest(name, worldId, origin, translation, filter, options, result)
}

#[allow(clippy::too_many_arguments)]
fn cast_all(
    name: &'static str,
    worldId: m3WorldId,
    origin: m3DVec3,
    translation: m3Vec3,
    filter: m3QueryFilter,
    options: m3RayOptions,
    results: *mut m3RayResult,
    capacity: i32,
    count: *mut i32,
) -> m3Result {
    api_on(name, worldId, || {
        let o = out("count", count)?;
        let arr = OutArray::new("results", results, capacity)?;
        let n = read(worldId, |e| {
            let blank = engine::RayResult {
                shape: engine::ShapeId::NULL,
                body: engine::BodyId::NULL,
                point: engine::math::DVec3::ZERO,
                normal: engine::math::Vec3::ZERO,
                fraction: 0.0,
            };
            let n = with_scratch(e, arr.capacity(), blank, |buf| {
                let n = e.world.cast_ray_all_with(
                    origin.into(),
                    translation.into(),
                    &filter.into(),
                    &options.into(),
                    buf,
                )?;
                for (i, r) in buf.iter().enumerate().take(n.min(arr.capacity())) {
                    // SAFETY: within the host's capacity.
                    unsafe { arr.set(i, ray(r, e)) };
                }
                Ok::<usize, engine::Error>(n)
            })??;
            Ok(n)
        })?;
        // SAFETY: checked non-null.
        unsafe { put(o, to_i32(n)) };
        Ok(())
    })
}

/// Every shape the segment enters, by fraction then shape slot: up to `capacity` into
/// `results` and how many (which may exceed the capacity) into `count`.
///
/// # Safety
/// - `results` points to `capacity` writable `m3RayResult` items, aligned, for the
///   duration of the call (they may be uninitialised; null only with `capacity` 0).
/// - `count` points to one writable `i32`, aligned for its type, for the duration of
///   the call (null is refused with `m3_errorArgument`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m3World_CastRay(
    worldId: m3WorldId,
    origin: m3DVec3,
    translation: m3Vec3,
    filter: m3QueryFilter,
    results: *mut m3RayResult,
    capacity: i32,
    count: *mut i32,
) -> m3Result {
    let (name, options) = ("m3World_CastRay", default_ray_options());
    cast_all(
        name,
        worldId,
        origin,
        translation,
        filter,
        options,
        results,
        capacity,
        count,
    )
}

/// `m3World_CastRay` with `options` (see `m3World_CastRayClosestEx`).
///
/// # Safety
/// As `m3World_CastRay`.
#[allow(clippy::too_many_arguments)]
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m3World_CastRayEx(
    worldId: m3WorldId,
    origin: m3DVec3,
    translation: m3Vec3,
    filter: m3QueryFilter,
    options: m3RayOptions,
    results: *mut m3RayResult,
    capacity: i32,
    count: *mut i32,
) -> m3Result {
    let name = "m3World_CastRayEx";
    cast_all(
        name,
        worldId,
        origin,
        translation,
        filter,
        options,
        results,
        capacity,
        count,
    )
}

/// Refuses a point with a non-finite component, naming it (any finite point may be
/// queried: the broad phase takes far bounds).
fn finite(name: &'static str, p: engine::math::DVec3) -> engine::Result<()> {
    for i in 0..3 {
        if !p.get(i).is_finite() {
            return Err(engine::Error::Argument {
                name,
                value: p.get(i),
                expected: "finite",
            });
        }
    }
    Ok(())
}

/// Runs an overlap query that fills engine shape ids, and copies them out.
fn overlap(
    name: &'static str,
    worldId: m3WorldId,
    shapes: *mut m3ShapeId,
    capacity: i32,
    count: *mut i32,
    f: impl FnOnce(&engine::World, &mut [engine::ShapeId]) -> engine::Result<usize>,
) -> m3Result {
    api_on(name, worldId, || {
        let o = out("count", count)?;
        let arr = OutArray::new("shapes", shapes, capacity)?;
        let n = read(worldId, |e| {
            let n = with_scratch(e, arr.capacity(), engine::ShapeId::NULL, |buf| {
                let n = f(&e.world, buf)?;
                for (i, s) in buf.iter().enumerate().take(n.min(arr.capacity())) {
                    // SAFETY: within the host's capacity.
                    unsafe { arr.set(i, m3ShapeId::from_core(*s, e.id)) };
                }
                Ok::<usize, engine::Error>(n)
            })??;
            Ok(n)
        })?;
        // SAFETY: checked non-null.
        unsafe { put(o, to_i32(n)) };
        Ok(())
    })
}

/// Shapes whose current bounds overlap `bounds`, by shape slot.
///
/// # Safety
/// - `shapes` points to `capacity` writable `m3ShapeId` items, aligned, for the
///   duration of the call (they may be uninitialised; null only with `capacity` 0).
/// - `count` points to one writable `i32`, aligned for its type, for the duration of
///   the call (null is refused with `m3_errorArgument`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m3World_OverlapAABB(
    worldId: m3WorldId,
    bounds: m3DAABB,
    filter: m3QueryFilter,
    shapes: *mut m3ShapeId,
    capacity: i32,
    count: *mut i32,
) -> m3Result {
    let b: engine::math::DAabb = bounds.into();
    overlap(
        "m3World_OverlapAABB",
        worldId,
        shapes,
        capacity,
        count,
        |w, buf| {
            finite("bounds.lower", b.lower)?;
            finite("bounds.upper", b.upper)?;
            Ok(w.overlap_aabb(&b, &filter.into(), buf))
        },
    )
}

/// Shapes that contain `point`, by shape slot.
///
/// # Safety
/// - `shapes` points to `capacity` writable `m3ShapeId` items, aligned, for the
///   duration of the call (they may be uninitialised; null only with `capacity` 0).
/// - `count` points to one writable `i32`, aligned for its type, for the duration of
///   the call (null is refused with `m3_errorArgument`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m3World_OverlapPoint(
    worldId: m3WorldId,
    point: m3DVec3,
    filter: m3QueryFilter,
    shapes: *mut m3ShapeId,
    capacity: i32,
    count: *mut i32,
) -> m3Result {
    overlap(
        "m3World_OverlapPoint",
        worldId,
        shapes,
        capacity,
        count,
        |w, buf| {
            let p: engine::math::DVec3 = point.into();
            finite("point", p)?;
            Ok(w.overlap_point(p, &filter.into(), buf))
        },
    )
}

/// The geometry of a shape query, in its own frame: `type` says which member is read.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct m3QueryShape {
    /// `m3_sphereShape`, `m3_capsuleShape`, `m3_boxShape`, `m3_hullShape` or
    /// `m3_cylinderShape` (a plane is no query shape).
    pub r#type: m3ShapeType,
    /// A sphere.
    pub sphere: m3Sphere,
    /// A capsule.
    pub capsule: m3Capsule,
    /// A box.
    pub r#box: m3Box,
    /// A hull of the queried world.
    pub hull: m3HullId,
    /// A cylinder.
    pub cylinder: m3Cylinder,
}

fn query_shape(s: &m3QueryShape, e: &Entry) -> Result<engine::QueryShape<'static>, Refusal> {
    Ok(match s.r#type {
        m3_sphereShape => engine::QueryShape::Sphere(engine::Sphere {
            center: s.sphere.center.into(),
            radius: s.sphere.radius,
        }),
        m3_capsuleShape => engine::QueryShape::Capsule(engine::Capsule {
            center1: s.capsule.center1.into(),
            center2: s.capsule.center2.into(),
            radius: s.capsule.radius,
        }),
        m3_boxShape => engine::QueryShape::Box(engine::BoxShape {
            half: s.r#box.halfExtents.into(),
            center: s.r#box.center.into(),
            rotation: engine::math::Quat::from(s.r#box.rotation),
        }),
        m3_hullShape => {
            e.owns("shape.hull", s.hull)?;
            engine::QueryShape::Hull(s.hull.to_core(e.tag))
        }
        m3_cylinderShape => engine::QueryShape::Cylinder(s.cylinder.into()),
        t => {
            return Err(crate::refuse!(
                m3_errorArgument,
                "query shape type = {t} must be within [0, 4] (m3_sphereShape … \
                 m3_cylinderShape)"
            ));
        }
    })
}

/// Shapes that overlap `shape` placed at `position`/`rotation`, by shape slot.
///
/// # Safety
/// - `shape` points to one readable `m3QueryShape`, aligned for its type, for the
///   duration of the call (null is refused with `m3_errorArgument`).
/// - `shapes` points to `capacity` writable `m3ShapeId` items, aligned, for the
///   duration of the call (they may be uninitialised; null only with `capacity` 0).
/// - `count` points to one writable `i32`, aligned for its type, for the duration of
///   the call (null is refused with `m3_errorArgument`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m3World_OverlapShape(
    worldId: m3WorldId,
    shape: *const m3QueryShape,
    position: m3DVec3,
    rotation: m3Quat,
    filter: m3QueryFilter,
    shapes: *mut m3ShapeId,
    capacity: i32,
    count: *mut i32,
) -> m3Result {
    api_on("m3World_OverlapShape", worldId, || {
        // SAFETY: the host passes a valid shape or null.
        let s = unsafe { read_ptr("shape", shape) }?;
        let o = out("count", count)?;
        let arr = OutArray::new("shapes", shapes, capacity)?;
        let n = read(worldId, |e| {
            let q = query_shape(&s, e)?;
            let n = with_scratch(e, arr.capacity(), engine::ShapeId::NULL, |buf| {
                let n = e.world.overlap_shape(
                    &q,
                    position.into(),
                    rotation.into(),
                    &filter.into(),
                    buf,
                )?;
                for (i, s) in buf.iter().enumerate().take(n.min(arr.capacity())) {
                    // SAFETY: within the host's capacity.
                    unsafe { arr.set(i, m3ShapeId::from_core(*s, e.id)) };
                }
                Ok::<usize, engine::Error>(n)
            })??;
            Ok(n)
        })?;
        // SAFETY: checked non-null.
        unsafe { put(o, to_i32(n)) };
        Ok(())
    })
}

/// A shape cast's hit.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct m3ShapeCastResult {
    /// Whether anything was hit.
    pub hit: bool,
    /// The shape hit.
    pub shape: m3ShapeId,
    /// Its body.
    pub body: m3BodyId,
    /// The hit point, relative to the world origin.
    pub point: m3DVec3,
    /// The shape's normal there, towards the cast shape.
    pub normal: m3Vec3,
    /// Fraction of the translation at the hit.
    pub fraction: f32,
}

/// The first shape that `shape`, placed at `position`/`rotation` and moved by
/// `translation`, meets; `hit` is false when none.
///
/// # Safety
/// - `shape` points to one readable `m3QueryShape`, aligned for its type, for the
///   duration of the call (null is refused with `m3_errorArgument`).
/// - `result` points to one writable `m3ShapeCastResult`, aligned for its type, for the
///   duration of the call (null is refused with `m3_errorArgument`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m3World_CastShape(
    worldId: m3WorldId,
    shape: *const m3QueryShape,
    position: m3DVec3,
    rotation: m3Quat,
    translation: m3Vec3,
    filter: m3QueryFilter,
    result: *mut m3ShapeCastResult,
) -> m3Result {
    api_on("m3World_CastShape", worldId, || {
        // SAFETY: the host passes a valid shape or null.
        let s = unsafe { read_ptr("shape", shape) }?;
        let o = out("result", result)?;
        let r = read(worldId, |e| {
            let q = query_shape(&s, e)?;
            let hit = e.world.cast_shape(
                &q,
                position.into(),
                rotation.into(),
                translation.into(),
                &filter.into(),
            )?;
            Ok(
                hit.map_or_else(m3ShapeCastResult::default, |h| m3ShapeCastResult {
                    hit: true,
                    shape: m3ShapeId::from_core(h.shape, e.id),
                    body: m3BodyId::from_core(h.body, e.id),
                    point: h.point.into(),
                    normal: h.normal.into(),
                    fraction: h.fraction,
                }),
            )
        })?;
        // SAFETY: checked non-null.
        unsafe { put(o, r) };
        Ok(())
    })
}

/// A body's shapes moved from `position`/`rotation` by `motion`, as Godot's
/// `body_test_motion`.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct m3MotionTest {
    /// The body whose shapes move (it is not hit by itself).
    pub body: m3BodyId,
    /// Start position, relative to the world origin.
    pub position: m3DVec3,
    /// Start rotation.
    pub rotation: m3Quat,
    /// The motion, m.
    pub motion: m3Vec3,
    /// Contacts closer than this count as collisions.
    pub margin: f32,
    /// What the motion collides with.
    pub filter: m3QueryFilter,
}

/// A contact found by the motion test.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct m3MotionCollision {
    /// The point on the moving body's shape.
    pub pointOnQuery: m3DVec3,
    /// The point on the other shape.
    pub pointOnOther: m3DVec3,
    /// The normal, from the other shape towards the moving one.
    pub normal: m3Vec3,
    /// Penetration depth.
    pub depth: f32,
    /// The other shape.
    pub shape: m3ShapeId,
    /// Its body.
    pub body: m3BodyId,
    /// The other body's velocity at the point.
    pub velocity: m3Vec3,
    /// The moving body's shape that collided.
    pub localShape: m3ShapeId,
}

/// What the motion test found.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct m3MotionResult {
    /// The motion that can be made safely.
    pub travel: m3Vec3,
    /// The rest of the motion.
    pub remainder: m3Vec3,
    /// Fraction of the motion that is safe.
    pub safeFraction: f32,
    /// Fraction at which the shapes touch.
    pub unsafeFraction: f32,
    /// Collisions found (may exceed the capacity).
    pub collisionCount: i32,
}

/// Tests moving a body's shapes: how far they can go and what they touch there.
///
/// # Safety
/// - `test` points to one readable `m3MotionTest`, aligned for its type, for the
///   duration of the call (null is refused with `m3_errorArgument`).
/// - `collisions` points to `capacity` writable `m3MotionCollision` items, aligned, for
///   the duration of the call (they may be uninitialised; null only with `capacity` 0).
/// - `result` points to one writable `m3MotionResult`, aligned for its type, for the
///   duration of the call (null is refused with `m3_errorArgument`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m3Body_TestMotion(
    test: *const m3MotionTest,
    collisions: *mut m3MotionCollision,
    capacity: i32,
    result: *mut m3MotionResult,
) -> m3Result {
    // SAFETY: the caller's contract is this function's.
    unsafe {
        test_motion(
            "m3Body_TestMotion",
            test,
            collisions,
            capacity,
            result,
            false,
            None,
        )
    }
}

/// Tests moving a body's shapes as `m3Body_TestMotion`, reporting only what the motion
/// runs into, as Godot's `body_test_motion`: with a non-zero motion, only the contacts
/// facing against it (normal · direction < −0.001), most opposed first (ties: deeper
/// first, then found first); `collisionCount` counts those. With a zero motion, every
/// contact, deepest first.
///
/// # Safety
/// - `test` points to one readable `m3MotionTest`, aligned for its type, for the
///   duration of the call (null is refused with `m3_errorArgument`).
/// - `collisions` points to `capacity` writable `m3MotionCollision` items, aligned, for
///   the duration of the call (they may be uninitialised; null only with `capacity` 0).
/// - `result` points to one writable `m3MotionResult`, aligned for its type, for the
///   duration of the call (null is refused with `m3_errorArgument`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m3Body_TestMotionAgainst(
    test: *const m3MotionTest,
    collisions: *mut m3MotionCollision,
    capacity: i32,
    result: *mut m3MotionResult,
) -> m3Result {
    // SAFETY: the caller's contract is this function's.
    unsafe {
        test_motion(
            "m3Body_TestMotionAgainst",
            test,
            collisions,
            capacity,
            result,
            true,
            None,
        )
    }
}

/// A separation ray of the moving body (Godot's `SeparationRayShape3D`): a segment from
/// `origin` along `direction` of `length`, body frame, that separates the body only along
/// its own direction.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct m3SeparationRay {
    /// Where the ray starts, body frame.
    pub origin: m3Vec3,
    /// Its direction, body frame (nonzero; normalised).
    pub direction: m3Vec3,
    /// Its length, m, in [0, 1e3].
    pub length: f32,
    /// Separate along the surface normal (Godot's `slide_on_slope`); such a ray also stops
    /// the cast.
    pub slideOnSlope: bool,
}

/// At most this many excluded bodies and this many separation rays in `m3MotionOptions`.
pub const M3_MAX_MOTION_EXCLUDES: i32 = 64;
/// At most this many separation rays in `m3MotionOptions`.
pub const M3_MAX_SEPARATION_RAYS: i32 = 16;

/// What `m3Body_TestMotionAgainstEx` takes besides the test: bodies left out and the
/// moving body's separation rays (zeroed: none).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct m3MotionOptions {
    /// `excludeCount` bodies the test ignores (null only with a count of 0).
    pub exclude: *const m3BodyId,
    /// How many, 0 to `M3_MAX_MOTION_EXCLUDES`.
    pub excludeCount: i32,
    /// `rayCount` separation rays (null only with a count of 0).
    pub separationRays: *const m3SeparationRay,
    /// How many, 0 to `M3_MAX_SEPARATION_RAYS`.
    pub rayCount: i32,
    /// Whether separation rays also stop the cast (snapping to the floor).
    pub collideSeparationRays: bool,
}

/// `m3Body_TestMotionAgainst` with `m3MotionOptions`: bodies left out (Godot's
/// `exclude_bodies`) and separation rays (reported with a null `localShape`). Refused
/// when an excluded id is no live body of the world or a ray is not finite, has a zero
/// direction or a length outside [0, 1e3].
///
/// # Safety
/// - `test` points to one readable `m3MotionTest`, aligned for its type, for the
///   duration of the call (null is refused with `m3_errorArgument`).
/// - `options` points to one readable `m3MotionOptions` whose arrays hold their counts of
///   readable, aligned items, for the duration of the call (null is refused).
/// - `collisions` points to `capacity` writable `m3MotionCollision` items, aligned, for
///   the duration of the call (they may be uninitialised; null only with `capacity` 0).
/// - `result` points to one writable `m3MotionResult`, aligned for its type, for the
///   duration of the call (null is refused with `m3_errorArgument`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m3Body_TestMotionAgainstEx(
    test: *const m3MotionTest,
    options: *const m3MotionOptions,
    collisions: *mut m3MotionCollision,
    capacity: i32,
    result: *mut m3MotionResult,
) -> m3Result {
    const CALL: &str = "m3Body_TestMotionAgainstEx";
    // SAFETY: the host passes a valid options struct or null.
    let Some(opt) = (unsafe { options.as_ref() }) else {
        return crate::boundary::api(CALL, || {
            Err(crate::refuse!(
                m3_errorArgument,
                "options is a null pointer: it must point to a value"
            ))
        });
    };
    let bad_count = |n: i32, max: i32, null: bool| n < 0 || n > max || (null && n > 0);
    if bad_count(
        opt.excludeCount,
        M3_MAX_MOTION_EXCLUDES,
        opt.exclude.is_null(),
    ) || bad_count(
        opt.rayCount,
        M3_MAX_SEPARATION_RAYS,
        opt.separationRays.is_null(),
    ) {
        return crate::boundary::api(CALL, || {
            Err(crate::refuse!(
                m3_errorArgument,
                "options: excludeCount within [0, 64] and rayCount within [0, 16], with non-null arrays"
            ))
        });
    }
    // SAFETY: the caller's contract is this function's; counts checked above.
    unsafe { test_motion(CALL, test, collisions, capacity, result, true, Some(opt)) }
}

/// Both motion tests, named `call`; `against`: only contacts facing against the motion;
/// `options`: checked counts (the Ex call).
///
/// # Safety
/// As `m3Body_TestMotion`, and `options`' arrays as `m3Body_TestMotionAgainstEx` says.
unsafe fn test_motion(
    call: &'static str,
    test: *const m3MotionTest,
    collisions: *mut m3MotionCollision,
    capacity: i32,
    result: *mut m3MotionResult,
    against: bool,
    options: Option<&m3MotionOptions>,
) -> m3Result {
    // SAFETY: the host passes a valid test or null.
    let t = match unsafe { test.as_ref() } {
        Some(t) => *t,
        None => {
            return crate::boundary::api(call, || {
                Err(crate::refuse!(
                    m3_errorArgument,
                    "test is a null pointer: it must point to a value"
                ))
            });
        }
    };
    api_on(call, t.body.world, || {
        let o = out("result", result)?;
        let arr = OutArray::new("collisions", collisions, capacity)?;
        let r = read(t.body.world, |e| {
            let et = engine::MotionTest {
                body: t.body.to_core(e.tag),
                position: t.position.into(),
                rotation: t.rotation.into(),
                motion: t.motion.into(),
                margin: t.margin,
                filter: t.filter.into(),
            };
            let blank = engine::MotionCollision {
                contact: engine::ContactPointPair {
                    point_on_query: engine::math::DVec3::ZERO,
                    point_on_other: engine::math::DVec3::ZERO,
                    normal: engine::math::Vec3::ZERO,
                    depth: 0.0,
                    shape: engine::ShapeId::NULL,
                    body: engine::BodyId::NULL,
                    velocity: engine::math::Vec3::ZERO,
                },
                local_shape: engine::ShapeId::NULL,
            };
            let mut exclude = [engine::BodyId::NULL; M3_MAX_MOTION_EXCLUDES as usize];
            let mut rays = [engine::SeparationRay {
                origin: engine::math::Vec3::ZERO,
                direction: engine::math::Vec3::ZERO,
                length: 0.0,
                slide_on_slope: false,
            }; M3_MAX_SEPARATION_RAYS as usize];
            let (mut ne, mut nr, mut collide) = (0usize, 0usize, false);
            if let Some(o) = options {
                ne = o.excludeCount as usize;
                nr = o.rayCount as usize;
                collide = o.collideSeparationRays;
                for (i, slot) in exclude.iter_mut().enumerate().take(ne) {
                    // SAFETY: the host's array holds `excludeCount` ids (checked count).
                    *slot = unsafe { *o.exclude.add(i) }.to_core(e.tag);
                }
                for (i, slot) in rays.iter_mut().enumerate().take(nr) {
                    // SAFETY: the host's array holds `rayCount` rays (checked count).
                    let r = unsafe { *o.separationRays.add(i) };
                    *slot = engine::SeparationRay {
                        origin: r.origin.into(),
                        direction: r.direction.into(),
                        length: r.length,
                        slide_on_slope: r.slideOnSlope,
                    };
                }
            }
            let mo = engine::MotionOptions {
                exclude: &exclude[..ne],
                exclude_where: None,
                separation_rays: &rays[..nr],
                collide_separation_rays: collide,
            };
            let r = with_scratch(e, arr.capacity(), blank, |buf| {
                let r = if options.is_some() {
                    e.world.test_body_motion_against_with(&et, &mo, buf)?
                } else if against {
                    e.world.test_body_motion_against(&et, buf)?
                } else {
                    e.world.test_body_motion(&et, buf)?
                };
                for (i, c) in buf
                    .iter()
                    .enumerate()
                    .take(r.collision_count.min(arr.capacity()))
                {
                    let m = m3MotionCollision {
                        pointOnQuery: c.contact.point_on_query.into(),
                        pointOnOther: c.contact.point_on_other.into(),
                        normal: c.contact.normal.into(),
                        depth: c.contact.depth,
                        shape: m3ShapeId::from_core(c.contact.shape, e.id),
                        body: m3BodyId::from_core(c.contact.body, e.id),
                        velocity: c.contact.velocity.into(),
                        localShape: m3ShapeId::from_core(c.local_shape, e.id),
                    };
                    // SAFETY: within the host's capacity.
                    unsafe { arr.set(i, m) };
                }
                Ok::<engine::MotionResult, engine::Error>(r)
            })??;
            Ok(m3MotionResult {
                travel: r.travel.into(),
                remainder: r.remainder.into(),
                safeFraction: r.safe_fraction,
                unsafeFraction: r.unsafe_fraction,
                collisionCount: to_i32(r.collision_count),
            })
        })?;
        // SAFETY: checked non-null.
        unsafe { put(o, r) };
        Ok(())
    })
}

/// An explosion: an impulse on every shape within `radius` of `position`, by exposed
/// area, falling off over `falloff` beyond it.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct m3ExplosionDef {
    /// Centre, relative to the world origin.
    pub position: m3DVec3,
    /// Radius of full strength, m.
    pub radius: f32,
    /// Distance over which the impulse falls to zero beyond the radius, m.
    pub falloff: f32,
    /// Impulse per unit of exposed area, N·s/m².
    pub impulsePerArea: f32,
    /// Categories of shapes affected.
    pub maskBits: u64,
}

fn default_explosion() -> m3ExplosionDef {
    let d = engine::ExplosionDef::default();
    m3ExplosionDef {
        position: d.position.into(),
        radius: d.radius,
        falloff: d.falloff,
        impulsePerArea: d.impulse_per_area,
        maskBits: d.mask_bits,
    }
}

/// The default explosion def.
#[unsafe(no_mangle)]
pub extern "C" fn m3DefaultExplosionDef() -> m3ExplosionDef {
    crate::boundary::value(
        "m3DefaultExplosionDef",
        default_explosion(),
        default_explosion,
    )
}

/// Applies an explosion (recorded by a running journal).
///
/// # Safety
/// `def` points to one readable `m3ExplosionDef`, aligned for its type, for the
/// duration of the call (null is refused with `m3_errorArgument`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m3World_Explode(
    worldId: m3WorldId,
    def: *const m3ExplosionDef,
) -> m3Result {
    api_on("m3World_Explode", worldId, || {
        // SAFETY: the host passes a valid def or null.
        let d = unsafe { read_ptr("def", def) }?;
        let ed = engine::ExplosionDef {
            position: d.position.into(),
            radius: d.radius,
            falloff: d.falloff,
            impulse_per_area: d.impulsePerArea,
            mask_bits: d.maskBits,
        };
        write(worldId, |e| Ok(e.world.explode(&ed)?))
    })
}

/// How an area's value joins the others (Godot's space override modes).
pub type m3AreaMode = i32;
/// The area does not touch this quantity.
pub const m3_areaDisabled: m3AreaMode = 0;
/// Add, go on.
pub const m3_areaCombine: m3AreaMode = 1;
/// Add, stop.
pub const m3_areaCombineReplace: m3AreaMode = 2;
/// Replace, stop.
pub const m3_areaReplace: m3AreaMode = 3;
/// Replace, go on.
pub const m3_areaReplaceCombine: m3AreaMode = 4;

/// What a sensor area overrides for the bodies it overlaps.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct m3AreaSettings {
    /// Higher priorities are applied first.
    pub priority: i32,
    /// How the gravity joins.
    pub gravityMode: m3AreaMode,
    /// Point gravity (towards `gravityCenter`) instead of directional (`gravity`).
    pub gravityIsPoint: bool,
    /// Directional gravity, m/s².
    pub gravity: m3Vec3,
    /// Point gravity's centre, in the sensor body's frame.
    pub gravityCenter: m3Vec3,
    /// Point gravity's acceleration at `gravityUnitDistance`, m/s².
    pub gravityStrength: f32,
    /// Distance at which point gravity is `gravityStrength`; 0 for no falloff.
    pub gravityUnitDistance: f32,
    /// How the linear damping joins.
    pub linearDampingMode: m3AreaMode,
    /// Linear damping, 1/s.
    pub linearDamping: f32,
    /// How the angular damping joins.
    pub angularDampingMode: m3AreaMode,
    /// Angular damping, 1/s.
    pub angularDamping: f32,
}

fn area_mode(name: &'static str, m: m3AreaMode) -> Result<engine::AreaMode, Refusal> {
    Ok(match m {
        m3_areaDisabled => engine::AreaMode::Disabled,
        m3_areaCombine => engine::AreaMode::Combine,
        m3_areaCombineReplace => engine::AreaMode::CombineReplace,
        m3_areaReplace => engine::AreaMode::Replace,
        m3_areaReplaceCombine => engine::AreaMode::ReplaceCombine,
        _ => {
            return Err(crate::refuse!(
                m3_errorArgument,
                "{name} = {m} must be within [0, 4] (m3_area* modes)"
            ));
        }
    })
}

/// Makes a sensor shape an area overriding gravity and damping for the bodies it
/// overlaps; a null `settings` makes it a plain sensor again. Refused with
/// `m3_errorState` for a shape that is not a sensor.
///
/// # Safety
/// `settings` is null (a plain sensor again) or points to one readable
/// `m3AreaSettings`, aligned for its type, for the duration of the call.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m3Shape_SetArea(
    shapeId: m3ShapeId,
    settings: *const m3AreaSettings,
) -> m3Result {
    api_on("m3Shape_SetArea", shapeId.world, || {
        // SAFETY: the host passes valid settings or null.
        let area = match unsafe { settings.as_ref() } {
            None => None,
            Some(a) => Some(engine::AreaSettings {
                priority: a.priority,
                gravity_mode: area_mode("gravityMode", a.gravityMode)?,
                gravity: if a.gravityIsPoint {
                    engine::AreaGravity::Point {
                        center: a.gravityCenter.into(),
                        strength: a.gravityStrength,
                        unit_distance: a.gravityUnitDistance,
                    }
                } else {
                    engine::AreaGravity::Directional(a.gravity.into())
                },
                linear_damping_mode: area_mode("linearDampingMode", a.linearDampingMode)?,
                linear_damping: a.linearDamping,
                angular_damping_mode: area_mode("angularDampingMode", a.angularDampingMode)?,
                angular_damping: a.angularDamping,
            }),
        };
        write(shapeId.world, |e| {
            Ok(e.world.set_shape_area(shapeId.to_core(e.tag), area)?)
        })
    })
}

/// A contact point between a query shape and a shape of the world.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct m3ContactPoint {
    /// The point on the query shape, relative to the world origin.
    pub pointOnQuery: m3DVec3,
    /// The point on the other shape.
    pub pointOnOther: m3DVec3,
    /// The normal, from the other shape towards the query shape.
    pub normal: m3Vec3,
    /// Penetration depth (negative: apart by that much).
    pub depth: f32,
    /// The other shape.
    pub shape: m3ShapeId,
    /// Its body.
    pub body: m3BodyId,
    /// The other body's velocity at the point.
    pub velocity: m3Vec3,
}

fn contact_point(c: &engine::ContactPointPair, e: &Entry) -> m3ContactPoint {
    m3ContactPoint {
        pointOnQuery: c.point_on_query.into(),
        pointOnOther: c.point_on_other.into(),
        normal: c.normal.into(),
        depth: c.depth,
        shape: m3ShapeId::from_core(c.shape, e.id),
        body: m3BodyId::from_core(c.body, e.id),
        velocity: c.velocity.into(),
    }
}

fn blank_contact() -> engine::ContactPointPair {
    engine::ContactPointPair {
        point_on_query: engine::math::DVec3::ZERO,
        point_on_other: engine::math::DVec3::ZERO,
        normal: engine::math::Vec3::ZERO,
        depth: 0.0,
        shape: engine::ShapeId::NULL,
        body: engine::BodyId::NULL,
        velocity: engine::math::Vec3::ZERO,
    }
}

/// The body a query leaves out, if any (a null id: none).
fn exclude(e: &Entry, b: m3BodyId) -> Result<Option<engine::BodyId>, Refusal> {
    if b == m3BodyId::default() {
        return Ok(None);
    }
    e.owns("excludeBody", b)?;
    Ok(Some(b.to_core(e.tag)))
}

/// Every contact point of `shape` placed at `position`/`rotation` with the world's shapes
/// within `margin`, leaving out `excludeBody`'s shapes (null id: none), by shape slot then
/// point: up to `capacity` into `points` and how many into `count`.
///
/// # Safety
/// - `shape` points to one readable `m3QueryShape`, aligned for its type, for the
///   duration of the call (null is refused with `m3_errorArgument`).
/// - `points` points to `capacity` writable `m3ContactPoint` items, aligned, for the
///   duration of the call (they may be uninitialised; null only with `capacity` 0).
/// - `count` points to one writable `i32`, aligned for its type, for the duration of
///   the call (null is refused with `m3_errorArgument`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m3World_GetContactPoints(
    worldId: m3WorldId,
    shape: *const m3QueryShape,
    position: m3DVec3,
    rotation: m3Quat,
    margin: f32,
    filter: m3QueryFilter,
    excludeBody: m3BodyId,
    points: *mut m3ContactPoint,
    capacity: i32,
    count: *mut i32,
) -> m3Result {
    api_on("m3World_GetContactPoints", worldId, || {
        // SAFETY: the host passes a valid shape or null.
        let s = unsafe { read_ptr("shape", shape) }?;
        let o = out("count", count)?;
        let arr = OutArray::new("points", points, capacity)?;
        let n = read(worldId, |e| {
            let q = query_shape(&s, e)?;
            let ex = exclude(e, excludeBody)?;
            let n = with_scratch(e, arr.capacity(), blank_contact(), |buf| {
                let n = e.world.contact_points(
                    &q,
                    position.into(),
                    rotation.into(),
                    margin,
                    &filter.into(),
                    ex,
                    buf,
                )?;
                for (i, c) in buf.iter().enumerate().take(n.min(arr.capacity())) {
                    // SAFETY: within the host's capacity.
                    unsafe { arr.set(i, contact_point(c, e)) };
                }
                Ok::<usize, engine::Error>(n)
            })??;
            Ok(n)
        })?;
        // SAFETY: checked non-null.
        unsafe { put(o, to_i32(n)) };
        Ok(())
    })
}

/// The deepest contact of `shape` at `position`/`rotation` within `margin` (Godot's rest
/// info); `found` says whether there is one.
///
/// # Safety
/// - `shape` points to one readable `m3QueryShape`, aligned for its type, for the
///   duration of the call (null is refused with `m3_errorArgument`).
/// - `point` points to one writable `m3ContactPoint`, aligned for its type, for the
///   duration of the call (null is refused with `m3_errorArgument`).
/// - `found` points to one writable `bool`, aligned for its type, for the duration of
///   the call (null is refused with `m3_errorArgument`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m3World_GetRestInfo(
    worldId: m3WorldId,
    shape: *const m3QueryShape,
    position: m3DVec3,
    rotation: m3Quat,
    margin: f32,
    filter: m3QueryFilter,
    excludeBody: m3BodyId,
    point: *mut m3ContactPoint,
    found: *mut bool,
) -> m3Result {
    api_on("m3World_GetRestInfo", worldId, || {
        // SAFETY: the host passes a valid shape or null.
        let s = unsafe { read_ptr("shape", shape) }?;
        let op = out("point", point)?;
        let of = out("found", found)?;
        let r = read(worldId, |e| {
            let q = query_shape(&s, e)?;
            let ex = exclude(e, excludeBody)?;
            let r = e.world.rest_info(
                &q,
                position.into(),
                rotation.into(),
                margin,
                &filter.into(),
                ex,
            )?;
            Ok(r.map(|c| contact_point(&c, e)))
        })?;
        // SAFETY: both checked non-null.
        unsafe {
            put(of, r.is_some());
            put(op, r.unwrap_or_default());
        }
        Ok(())
    })
}
