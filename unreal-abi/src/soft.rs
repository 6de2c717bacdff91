//! Soft bodies: cloth and volumes made from a triangle mesh, one particle per vertex,
//! solved in substeps of their own after the rigid step. Create, destroy, change, pin,
//! move, push and attach particles, and read them back (one by one, or every position
//! into a host buffer for a renderer).
//!
//! A particle index is an `int32_t` within `[0, particle count)`; anything else is
//! `m3_errorArgument` naming the index and the count. The host's arrays are read in
//! place for the call (the engine copies what it keeps): `m3Vec3` is the engine's `Vec3`
//! and a triangle is three consecutive `uint32_t` indices, as for `m3World_CreateMesh`.

use crate::boundary::{Entry, Refusal, api_on, non_null, read, write};
use crate::shape::m3Filter;
use crate::types::*;
use engine::{SoftBodyId, World};

/// How a soft body behaves: its mass, stiffness, volume, damping and collision. Start
/// from `m3DefaultSoftBodySettings()`. Compliances are XPBD's: the inverse of stiffness,
/// 0 rigid.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct m3SoftBodySettings {
    /// Total mass, kg, spread evenly over the particles (in (0, 1e6]; default 1).
    pub mass: f32,
    /// Substeps per world step (1 to 64; default 8): the soft body's own
    /// `dt / substeps`.
    pub substeps: i32,
    /// Compliance of the edges, m/N (in [0, 1e6]; default 0).
    pub edgeCompliance: f32,
    /// Compliance of the dihedral bends across each inner edge, rad/(N·m) (in [0, 1e6];
    /// default 1; 1e6 is all but limp).
    pub bendCompliance: f32,
    /// Compliance of a closed mesh's volume constraint, m³/N (in [0, 1e6]; default 0).
    pub volumeCompliance: f32,
    /// The volume a closed mesh keeps, as a multiple of its rest volume (in [0, 10];
    /// default 0: no volume constraint).
    pub volumeScale: f32,
    /// Gas in a closed mesh, n·R·T in Pa·m³ (in [0, 1e9]; default 0): the pressure is
    /// this over the current volume, pushing each triangle along its outward normal.
    pub pressure: f32,
    /// Linear damping of the particles' velocities, 1/s (in [0, 1e3]; default 0.1).
    pub damping: f32,
    /// Aerodynamic drag per triangle, `drag · area · v_n` along its normal, N·s/m³ (in
    /// [0, 1e3]; default 0).
    pub drag: f32,
    /// Friction against rigid shapes (in [0, 1e3]; default 0.5).
    pub friction: f32,
    /// Radius of each particle's collision sphere, m (in [1e-4, 10]; default 0.02).
    pub particleRadius: f32,
    /// Gravity scale (within ±1e3; default 1).
    pub gravityScale: f32,
    /// How far a free particle may stretch from its nearest pinned particle, as a
    /// multiple of their rest distance (0: off, or in [1, 1e3]; default 1.1): keeps a
    /// hanging cloth from stretching under its own weight.
    pub longRangeStretch: f32,
    /// Whether particles collide with the other particles of the same soft body (those
    /// further apart at rest than four radii). Default false.
    pub selfCollision: bool,
}

impl From<engine::SoftBodySettings> for m3SoftBodySettings {
    fn from(s: engine::SoftBodySettings) -> m3SoftBodySettings {
        m3SoftBodySettings {
            mass: s.mass,
            substeps: to_i32(s.substeps as usize),
            edgeCompliance: s.edge_compliance,
            bendCompliance: s.bend_compliance,
            volumeCompliance: s.volume_compliance,
            volumeScale: s.volume_scale,
            pressure: s.pressure,
            damping: s.damping,
            drag: s.drag,
            friction: s.friction,
            particleRadius: s.particle_radius,
            gravityScale: s.gravity_scale,
            longRangeStretch: s.long_range_stretch,
            selfCollision: s.self_collision,
        }
    }
}

/// The engine's settings from C settings; a negative substep count is refused here (the
/// engine checks every other field).
fn engine_settings(
    name: &'static str,
    s: &m3SoftBodySettings,
) -> Result<engine::SoftBodySettings, Refusal> {
    let max = engine::MAX_SOFT_SUBSTEPS as i32;
    if !(1..=max).contains(&s.substeps) {
        return Err(crate::refuse!(
            m3_errorArgument,
            "{name}.substeps = {} must be within [1, {max}]",
            s.substeps
        ));
    }
    Ok(engine::SoftBodySettings {
        mass: s.mass,
        substeps: s.substeps as u32,
        edge_compliance: s.edgeCompliance,
        bend_compliance: s.bendCompliance,
        volume_compliance: s.volumeCompliance,
        volume_scale: s.volumeScale,
        pressure: s.pressure,
        damping: s.damping,
        drag: s.drag,
        friction: s.friction,
        particle_radius: s.particleRadius,
        gravity_scale: s.gravityScale,
        long_range_stretch: s.longRangeStretch,
        self_collision: s.selfCollision,
    })
}

/// Everything needed to create a soft body. Start from `m3DefaultSoftBodyDef()` and set
/// the mesh.
///
/// Each vertex becomes a particle at `position + rotation · vertex`; each triangle edge a
/// distance constraint; each edge shared by two triangles a bend; a closed mesh (every
/// edge shared by exactly two triangles, wound consistently) may keep its volume
/// (`volumeScale`) and hold gas (`pressure`).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct m3SoftBodyDef {
    /// The rest shape's vertices in the soft body's frame, each component within ±1e5.
    pub vertices: *const m3Vec3,
    /// How many (at least 1; the particles of all soft bodies together within
    /// `softParticleCapacity`).
    pub vertexCount: i32,
    /// Three vertex indices per triangle (each below `vertexCount`, three different per
    /// triangle).
    pub indices: *const u32,
    /// How many triangles (at least 1; within twice `softParticleCapacity` for all soft
    /// bodies together).
    pub triangleCount: i32,
    /// Where the frame's origin is, relative to the world origin.
    pub position: m3DVec3,
    /// The frame's rotation.
    pub rotation: m3Quat,
    /// How it behaves.
    pub settings: m3SoftBodySettings,
    /// Which rigid shapes its particles collide with.
    pub filter: m3Filter,
}

fn c_filter(f: engine::Filter) -> m3Filter {
    m3Filter {
        categoryBits: f.category_bits,
        maskBits: f.mask_bits,
        groupIndex: f.group_index,
    }
}

fn default_settings() -> m3SoftBodySettings {
    engine::SoftBodySettings::default().into()
}

fn default_soft_body_def() -> m3SoftBodyDef {
    let d = engine::SoftBodyDef::default();
    m3SoftBodyDef {
        vertices: core::ptr::null(),
        vertexCount: 0,
        indices: core::ptr::null(),
        triangleCount: 0,
        position: d.position.into(),
        rotation: d.rotation.into(),
        settings: d.settings.into(),
        filter: c_filter(d.filter),
    }
}

/// The default soft body settings: 1 kg, 8 substeps, rigid edges, bend compliance 1, no
/// volume or pressure, damping 0.1/s, friction 0.5, particle radius 0.02 m, long-range
/// stretch 1.1, no self-collision.
#[unsafe(no_mangle)]
pub extern "C" fn m3DefaultSoftBodySettings() -> m3SoftBodySettings {
    crate::boundary::value(
        "m3DefaultSoftBodySettings",
        default_settings(),
        default_settings,
    )
}

/// The default soft body def: no mesh yet (null arrays, counts 0), at the origin, no
/// rotation, the default settings and filter.
#[unsafe(no_mangle)]
pub extern "C" fn m3DefaultSoftBodyDef() -> m3SoftBodyDef {
    crate::boundary::value(
        "m3DefaultSoftBodyDef",
        default_soft_body_def(),
        default_soft_body_def,
    )
}

/// Creates a soft body from `def`'s mesh (see `m3SoftBodyDef`). Refused, changing
/// nothing, with `m3_errorArgument` for a bad count, null array, vertex, index, triangle,
/// rotation or setting, `m3_errorOutOfBounds` for a finite position (of the frame or of a
/// particle) past the coordinate limits, `m3_errorCapacity` when the soft body pool
/// (`softBodyCapacity`) or the particle store (`softParticleCapacity`) is full.
///
/// # Safety
/// - `def` points to one readable `m3SoftBodyDef`, aligned for its type, for the
///   duration of the call (null is refused with `m3_errorArgument`).
/// - `def->vertices` points to `def->vertexCount` readable `m3Vec3` items and
///   `def->indices` to `3 · def->triangleCount` readable `u32` items, aligned, for the
///   duration of the call (either null only with its count 0, which is refused).
/// - `softBodyId` points to one writable `m3SoftBodyId`, aligned for its type, for the
///   duration of the call (null is refused with `m3_errorArgument`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m3World_CreateSoftBody(
    worldId: m3WorldId,
    def: *const m3SoftBodyDef,
    softBodyId: *mut m3SoftBodyId,
) -> m3Result {
    api_on("m3World_CreateSoftBody", worldId, || {
        let o = out("softBodyId", softBodyId)?;
        // SAFETY: the host passes a valid def or null.
        let d = unsafe { read_ptr("def", def) }?;
        let nv = count_arg("def.vertexCount", d.vertexCount)?;
        let nt = count_arg("def.triangleCount", d.triangleCount)?;
        if nv == 0 || nt == 0 {
            return Err(crate::refuse!(
                m3_errorArgument,
                "def.vertexCount = {nv} and def.triangleCount = {nt}: a soft body needs at least one vertex and one triangle"
            ));
        }
        // SAFETY: the host promises `vertexCount` vertices; `m3Vec3` and `Vec3` are both
        // three `f32`s, `#[repr(C)]`.
        let v = unsafe { slice("def.vertices", d.vertices as *const engine::math::Vec3, nv) }?;
        // SAFETY: the host promises `3 · triangleCount` indices; `[u32; 3]` is three
        // `u32`s with `u32`'s alignment and no padding.
        let t = unsafe { slice("def.indices", d.indices as *const [u32; 3], nt) }?;
        // Indices past the vertices are an argument error, as for meshes.
        for (k, tri) in t.iter().enumerate() {
            for &i in tri {
                if i as usize >= nv {
                    return Err(crate::refuse!(
                        m3_errorArgument,
                        "def.indices: triangle {k} has vertex index {i}, which must be below def.vertexCount = {nv}"
                    ));
                }
            }
        }
        let settings = engine_settings("def.settings", &d.settings)?;
        let ed = engine::SoftBodyDef {
            vertices: v,
            triangles: t,
            position: d.position.into(),
            rotation: d.rotation.into(),
            settings,
            filter: d.filter.into(),
        };
        let id = write(worldId, |e| {
            let s = e.world.create_soft_body(&ed)?;
            Ok(m3SoftBodyId::from_core(s, e.id))
        })?;
        // SAFETY: checked non-null.
        unsafe { put(o, id) };
        Ok(())
    })
}

/// A particle index from C: within `[0, count)` of the soft body, else
/// `m3_errorArgument` naming the index and the count. Checks the id too.
fn particle(e: &Entry, id: SoftBodyId, index: i32) -> Result<u32, Refusal> {
    let n = e.world.soft_body_particle_count(id)?;
    if index < 0 || index as u32 >= n {
        return Err(crate::refuse!(
            m3_errorArgument,
            "particle index = {index} must be within [0, {n}) (the soft body's particle count)"
        ));
    }
    Ok(index as u32)
}

/// Runs a change of soft body `id`.
fn set(
    name: &'static str,
    id: m3SoftBodyId,
    f: impl FnOnce(&mut World, SoftBodyId) -> engine::Result<()>,
) -> m3Result {
    api_on(name, id.world, || {
        non_null("softBodyId", id)?;
        write(id.world, |e| Ok(f(&mut e.world, id.to_core(e.tag))?))
    })
}

/// Runs a change of particle `index` of soft body `id`.
fn particle_set(
    name: &'static str,
    id: m3SoftBodyId,
    index: i32,
    f: impl FnOnce(&mut World, SoftBodyId, u32) -> engine::Result<()>,
) -> m3Result {
    api_on(name, id.world, || {
        non_null("softBodyId", id)?;
        write(id.world, |e| {
            let s = id.to_core(e.tag);
            let i = particle(e, s, index)?;
            Ok(f(&mut e.world, s, i)?)
        })
    })
}

/// Reads a property of soft body `id` into `o`.
fn get<T, C>(
    name: &'static str,
    id: m3SoftBodyId,
    o: *mut C,
    f: impl FnOnce(&World, SoftBodyId) -> engine::Result<T>,
    conv: impl FnOnce(T) -> C,
) -> m3Result {
    api_on(name, id.world, || {
        let o = out("output", o)?;
        non_null("softBodyId", id)?;
        let v = read(id.world, |e| Ok(f(&e.world, id.to_core(e.tag))?))?;
        // SAFETY: checked non-null.
        unsafe { put(o, conv(v)) };
        Ok(())
    })
}

/// Reads a property of particle `index` of soft body `id` into `o`.
fn particle_get<T, C>(
    name: &'static str,
    id: m3SoftBodyId,
    index: i32,
    o: *mut C,
    f: impl FnOnce(&World, SoftBodyId, u32) -> engine::Result<T>,
    conv: impl FnOnce(T) -> C,
) -> m3Result {
    api_on(name, id.world, || {
        let o = out("output", o)?;
        non_null("softBodyId", id)?;
        let v = read(id.world, |e| {
            let s = id.to_core(e.tag);
            let i = particle(e, s, index)?;
            Ok(f(&e.world, s, i)?)
        })?;
        // SAFETY: checked non-null.
        unsafe { put(o, conv(v)) };
        Ok(())
    })
}

/// Destroys a soft body (the particles of the others keep their places and state).
#[unsafe(no_mangle)]
pub extern "C" fn m3SoftBody_Destroy(softBodyId: m3SoftBodyId) -> m3Result {
    set("m3SoftBody_Destroy", softBodyId, |w, s| {
        w.destroy_soft_body(s)
    })
}

/// Replaces a soft body's settings (every field checked as on create); the particles
/// stay where they are.
#[unsafe(no_mangle)]
pub extern "C" fn m3SoftBody_SetSettings(
    softBodyId: m3SoftBodyId,
    settings: m3SoftBodySettings,
) -> m3Result {
    api_on("m3SoftBody_SetSettings", softBodyId.world, || {
        let s = engine_settings("settings", &settings)?;
        non_null("softBodyId", softBodyId)?;
        write(softBodyId.world, |e| {
            Ok(e.world
                .set_soft_body_settings(softBodyId.to_core(e.tag), &s)?)
        })
    })
}

/// A soft body's settings.
///
/// # Safety
/// `settings` points to one writable `m3SoftBodySettings`, aligned for its type, for the
/// duration of the call (null is refused with `m3_errorArgument`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m3SoftBody_GetSettings(
    softBodyId: m3SoftBodyId,
    settings: *mut m3SoftBodySettings,
) -> m3Result {
    get(
        "m3SoftBody_GetSettings",
        softBodyId,
        settings,
        |w, s| w.soft_body_settings(s),
        m3SoftBodySettings::from,
    )
}

/// Sets which rigid shapes a soft body's particles collide with.
#[unsafe(no_mangle)]
pub extern "C" fn m3SoftBody_SetFilter(softBodyId: m3SoftBodyId, filter: m3Filter) -> m3Result {
    set("m3SoftBody_SetFilter", softBodyId, |w, s| {
        w.set_soft_body_filter(s, filter.into())
    })
}

/// A soft body's collision filter.
///
/// # Safety
/// `filter` points to one writable `m3Filter`, aligned for its type, for the duration of
/// the call (null is refused with `m3_errorArgument`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m3SoftBody_GetFilter(
    softBodyId: m3SoftBodyId,
    filter: *mut m3Filter,
) -> m3Result {
    get(
        "m3SoftBody_GetFilter",
        softBodyId,
        filter,
        |w, s| w.soft_body_filter(s),
        c_filter,
    )
}

/// Pins a particle where it is (it stops, and moves only when set), or frees it.
#[unsafe(no_mangle)]
pub extern "C" fn m3SoftBody_SetParticlePinned(
    softBodyId: m3SoftBodyId,
    index: i32,
    pinned: bool,
) -> m3Result {
    particle_set(
        "m3SoftBody_SetParticlePinned",
        softBodyId,
        index,
        |w, s, i| w.set_soft_particle_pinned(s, i, pinned),
    )
}

/// Whether a particle is pinned.
///
/// # Safety
/// `pinned` points to one writable `bool`, aligned for its type, for the duration of the
/// call (null is refused with `m3_errorArgument`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m3SoftBody_IsParticlePinned(
    softBodyId: m3SoftBodyId,
    index: i32,
    pinned: *mut bool,
) -> m3Result {
    particle_get(
        "m3SoftBody_IsParticlePinned",
        softBodyId,
        index,
        pinned,
        |w, s, i| w.soft_particle_pinned(s, i),
        |p| p,
    )
}

/// Moves a particle, a pinned one too (relative to the world origin; a finite position
/// past ±2^21 is `m3_errorOutOfBounds`).
#[unsafe(no_mangle)]
pub extern "C" fn m3SoftBody_SetParticlePosition(
    softBodyId: m3SoftBodyId,
    index: i32,
    position: m3DVec3,
) -> m3Result {
    particle_set(
        "m3SoftBody_SetParticlePosition",
        softBodyId,
        index,
        |w, s, i| w.set_soft_particle_position(s, i, position.into()),
    )
}

/// A particle's position, relative to the world origin.
///
/// # Safety
/// `position` points to one writable `m3DVec3`, aligned for its type, for the duration of
/// the call (null is refused with `m3_errorArgument`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m3SoftBody_GetParticlePosition(
    softBodyId: m3SoftBodyId,
    index: i32,
    position: *mut m3DVec3,
) -> m3Result {
    particle_get(
        "m3SoftBody_GetParticlePosition",
        softBodyId,
        index,
        position,
        |w, s, i| w.soft_particle_position(s, i),
        m3DVec3::from,
    )
}

/// Sets a free particle's velocity, m/s (each component within ±1e5); a pinned one stays
/// still.
#[unsafe(no_mangle)]
pub extern "C" fn m3SoftBody_SetParticleVelocity(
    softBodyId: m3SoftBodyId,
    index: i32,
    velocity: m3Vec3,
) -> m3Result {
    particle_set(
        "m3SoftBody_SetParticleVelocity",
        softBodyId,
        index,
        |w, s, i| w.set_soft_particle_velocity(s, i, velocity.into()),
    )
}

/// A particle's velocity, m/s.
///
/// # Safety
/// `velocity` points to one writable `m3Vec3`, aligned for its type, for the duration of
/// the call (null is refused with `m3_errorArgument`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m3SoftBody_GetParticleVelocity(
    softBodyId: m3SoftBodyId,
    index: i32,
    velocity: *mut m3Vec3,
) -> m3Result {
    particle_get(
        "m3SoftBody_GetParticleVelocity",
        softBodyId,
        index,
        velocity,
        |w, s, i| w.soft_particle_velocity(s, i),
        m3Vec3::from,
    )
}

/// Applies an impulse to one particle, N·s (each component within ±1e12; nothing for a
/// pinned particle).
#[unsafe(no_mangle)]
pub extern "C" fn m3SoftBody_ApplyParticleImpulse(
    softBodyId: m3SoftBodyId,
    index: i32,
    impulse: m3Vec3,
) -> m3Result {
    particle_set(
        "m3SoftBody_ApplyParticleImpulse",
        softBodyId,
        index,
        |w, s, i| w.apply_soft_particle_impulse(s, i, impulse.into()),
    )
}

/// Applies an impulse to the whole soft body, N·s (each component within ±1e12), spread
/// over its free particles by mass.
#[unsafe(no_mangle)]
pub extern "C" fn m3SoftBody_ApplyImpulse(softBodyId: m3SoftBodyId, impulse: m3Vec3) -> m3Result {
    set("m3SoftBody_ApplyImpulse", softBodyId, |w, s| {
        w.apply_soft_body_impulse(s, impulse.into())
    })
}

/// Puts every particle back at its rest place in a frame at `position` / `rotation`,
/// velocities zero: a teleport (Godot's `soft_body_set_transform`).
#[unsafe(no_mangle)]
pub extern "C" fn m3SoftBody_SetTransform(
    softBodyId: m3SoftBodyId,
    position: m3DVec3,
    rotation: m3Quat,
) -> m3Result {
    set("m3SoftBody_SetTransform", softBodyId, |w, s| {
        w.set_soft_body_transform(s, position.into(), rotation.into())
    })
}

/// Attaches a particle to the point `localPoint` (each component within ±1e6) of body
/// `bodyId`'s frame, or detaches it when `bodyId` is the null id (all zero). The
/// attachment pulls both ways: a dynamic body is pulled by the particle as the particle
/// by the body. Destroying the body detaches it. The body must be of the soft body's
/// world (`m3_errorInvalidId` otherwise).
#[unsafe(no_mangle)]
pub extern "C" fn m3SoftBody_AttachParticle(
    softBodyId: m3SoftBodyId,
    index: i32,
    bodyId: m3BodyId,
    localPoint: m3Vec3,
) -> m3Result {
    api_on("m3SoftBody_AttachParticle", softBodyId.world, || {
        non_null("softBodyId", softBodyId)?;
        write(softBodyId.world, |e| {
            let s = softBodyId.to_core(e.tag);
            let i = particle(e, s, index)?;
            let body = if bodyId.is_null() {
                None
            } else {
                e.owns("bodyId", bodyId)?;
                Some(bodyId.to_core(e.tag))
            };
            Ok(e.world
                .attach_soft_particle(s, i, body, localPoint.into())?)
        })
    })
}

/// The body a particle is attached to (the null id when it is free) and the point in
/// that body's frame (zero when free).
///
/// # Safety
/// `bodyId` points to one writable `m3BodyId` and `localPoint` to one writable `m3Vec3`,
/// each aligned for its type, for the duration of the call (null is refused with
/// `m3_errorArgument`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m3SoftBody_GetParticleAttachment(
    softBodyId: m3SoftBodyId,
    index: i32,
    bodyId: *mut m3BodyId,
    localPoint: *mut m3Vec3,
) -> m3Result {
    api_on("m3SoftBody_GetParticleAttachment", softBodyId.world, || {
        let ob = out("bodyId", bodyId)?;
        let op = out("localPoint", localPoint)?;
        non_null("softBodyId", softBodyId)?;
        let (b, p) = read(softBodyId.world, |e| {
            let s = softBodyId.to_core(e.tag);
            let i = particle(e, s, index)?;
            Ok(match e.world.soft_particle_attachment(s, i)? {
                Some((b, p)) => (m3BodyId::from_core(b, e.id), p.into()),
                None => (m3BodyId::default(), m3Vec3::default()),
            })
        })?;
        // SAFETY: checked non-null.
        unsafe {
            put(ob, b);
            put(op, p);
        }
        Ok(())
    })
}

/// Most rigid bodies one soft body ignores (`m3SoftBody_SetIgnoresBody`).
pub const M3_SOFT_BODY_EXCEPTIONS: i32 = 8;
const _: () = assert!(M3_SOFT_BODY_EXCEPTIONS as usize == engine::SOFT_BODY_EXCEPTIONS);

/// Makes a soft body's particles ignore a rigid body (`ignore` true: they pass through
/// its shapes) or collide with it again (false): Godot's and Jolt's collision exceptions.
/// A soft body ignores at most `M3_SOFT_BODY_EXCEPTIONS` bodies: one more is
/// `m3_errorCapacity` (nothing changed). Ignoring a body twice, or freeing one not
/// ignored, changes nothing. Destroying the body takes it off the list, so a body made
/// later in its slot is not ignored. The body must be of the soft body's world
/// (`m3_errorInvalidId` otherwise, as for a null or stale id).
#[unsafe(no_mangle)]
pub extern "C" fn m3SoftBody_SetIgnoresBody(
    softBodyId: m3SoftBodyId,
    bodyId: m3BodyId,
    ignore: bool,
) -> m3Result {
    api_on("m3SoftBody_SetIgnoresBody", softBodyId.world, || {
        non_null("softBodyId", softBodyId)?;
        write(softBodyId.world, |e| {
            let s = softBodyId.to_core(e.tag);
            e.owns("bodyId", bodyId)?;
            let b = bodyId.to_core(e.tag);
            Ok(e.world.set_soft_body_ignores_body(s, b, ignore)?)
        })
    })
}

/// The rigid bodies a soft body ignores, in slot order: up to `capacity` into `ids`, how
/// many it ignores (at most `M3_SOFT_BODY_EXCEPTIONS`) into `*count` (capacity 0 and null
/// ids: only count them).
///
/// # Safety
/// - `ids` points to `capacity` writable `m3BodyId` items, aligned, for the duration of
///   the call (they may be uninitialised; null only with `capacity` 0).
/// - `count` points to one writable `i32`, aligned for its type, for the duration of the
///   call (null is refused with `m3_errorArgument`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m3SoftBody_GetIgnoredBodies(
    softBodyId: m3SoftBodyId,
    ids: *mut m3BodyId,
    capacity: i32,
    count: *mut i32,
) -> m3Result {
    api_on("m3SoftBody_GetIgnoredBodies", softBodyId.world, || {
        let o = out("count", count)?;
        let arr = OutArray::new("ids", ids, capacity)?;
        non_null("softBodyId", softBodyId)?;
        let n = read(softBodyId.world, |e| {
            let s = softBodyId.to_core(e.tag);
            let mut list = [engine::BodyId::NULL; engine::SOFT_BODY_EXCEPTIONS];
            let n = e.world.soft_body_ignored_bodies(s, &mut list)? as usize;
            for (k, b) in list[..n].iter().enumerate() {
                // SAFETY: within the host's capacity (`set` skips past it).
                unsafe { arr.set(k, m3BodyId::from_core(*b, e.id)) };
            }
            Ok(n)
        })?;
        // SAFETY: checked non-null.
        unsafe { put(o, to_i32(n)) };
        Ok(())
    })
}

/// How many particles (vertices) a soft body has.
///
/// # Safety
/// `count` points to one writable `i32`, aligned for its type, for the duration of the
/// call (null is refused with `m3_errorArgument`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m3SoftBody_GetParticleCount(
    softBodyId: m3SoftBodyId,
    count: *mut i32,
) -> m3Result {
    get(
        "m3SoftBody_GetParticleCount",
        softBodyId,
        count,
        |w, s| w.soft_body_particle_count(s),
        |n| to_i32(n as usize),
    )
}

/// The positions of a soft body's particles relative to the world origin, in particle
/// order: up to `capacity` into `positions`, the particle count into `*count` (capacity 0
/// and null positions: only count them).
///
/// # Safety
/// - `positions` points to `capacity` writable `m3DVec3` items, aligned, for the duration
///   of the call (they may be uninitialised; null only with `capacity` 0).
/// - `count` points to one writable `i32`, aligned for its type, for the duration of the
///   call (null is refused with `m3_errorArgument`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m3SoftBody_GetPositions(
    softBodyId: m3SoftBodyId,
    positions: *mut m3DVec3,
    capacity: i32,
    count: *mut i32,
) -> m3Result {
    api_on("m3SoftBody_GetPositions", softBodyId.world, || {
        let o = out("count", count)?;
        let arr = OutArray::new("positions", positions, capacity)?;
        non_null("softBodyId", softBodyId)?;
        let n = read(softBodyId.world, |e| {
            let s = softBodyId.to_core(e.tag);
            let n = e.world.soft_body_particle_count(s)?;
            // SAFETY: within the host's capacity; `m3DVec3` and `DVec3` are both three
            // `f64`s, `#[repr(C)]`, and zero is a valid `f64`.
            let dst = unsafe { arr.zeroed_prefix::<engine::math::DVec3>(n as usize) };
            Ok(e.world.soft_body_positions(s, dst)?)
        })?;
        // SAFETY: checked non-null.
        unsafe { put(o, to_i32(n as usize)) };
        Ok(())
    })
}

/// The positions of a soft body's particles relative to `origin` (within ±2^22 m), as
/// floats, in particle order: up to `capacity` into `positions`, the particle count into
/// `*count` (capacity 0 and null positions: only count them). The form a renderer wants:
/// the mesh's vertices around its node's position.
///
/// # Safety
/// - `positions` points to `capacity` writable `m3Vec3` items, aligned, for the duration
///   of the call (they may be uninitialised; null only with `capacity` 0).
/// - `count` points to one writable `i32`, aligned for its type, for the duration of the
///   call (null is refused with `m3_errorArgument`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m3SoftBody_GetPositionsFrom(
    softBodyId: m3SoftBodyId,
    origin: m3DVec3,
    positions: *mut m3Vec3,
    capacity: i32,
    count: *mut i32,
) -> m3Result {
    api_on("m3SoftBody_GetPositionsFrom", softBodyId.world, || {
        let o = out("count", count)?;
        let arr = OutArray::new("positions", positions, capacity)?;
        non_null("softBodyId", softBodyId)?;
        let n = read(softBodyId.world, |e| {
            let s = softBodyId.to_core(e.tag);
            let n = e.world.soft_body_particle_count(s)?;
            // Checked before the host's buffer is written.
            let origin: engine::math::DVec3 = origin.into();
            e.world.soft_body_positions_from(s, origin, &mut [])?;
            // SAFETY: within the host's capacity; `m3Vec3` and `Vec3` are both three
            // `f32`s, `#[repr(C)]`, and zero is a valid `f32`.
            let dst = unsafe { arr.zeroed_prefix::<engine::math::Vec3>(n as usize) };
            Ok(e.world.soft_body_positions_from(s, origin, dst)?)
        })?;
        // SAFETY: checked non-null.
        unsafe { put(o, to_i32(n as usize)) };
        Ok(())
    })
}

/// A soft body's rest shape as created: up to `vertexCapacity` vertices (in its frame)
/// into `vertices` and up to `triangleCapacity` triangles (three indices each) into
/// `indices`; the vertex and triangle counts into `*vertexCount` and `*triangleCount`
/// (capacities 0 and null arrays: only count them).
///
/// # Safety
/// - `vertices` points to `vertexCapacity` writable `m3Vec3` items and `indices` to
///   `3 · triangleCapacity` writable `u32` items, aligned, for the duration of the call
///   (they may be uninitialised; each null only with its capacity 0).
/// - `vertexCount` and `triangleCount` each point to one writable `i32`, aligned for its
///   type, for the duration of the call (null is refused with `m3_errorArgument`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m3SoftBody_GetMesh(
    softBodyId: m3SoftBodyId,
    vertices: *mut m3Vec3,
    vertexCapacity: i32,
    vertexCount: *mut i32,
    indices: *mut u32,
    triangleCapacity: i32,
    triangleCount: *mut i32,
) -> m3Result {
    api_on("m3SoftBody_GetMesh", softBodyId.world, || {
        let ov = out("vertexCount", vertexCount)?;
        let ot = out("triangleCount", triangleCount)?;
        let va = OutArray::new("vertices", vertices, vertexCapacity)?;
        let ta = OutArray::new("indices", indices as *mut [u32; 3], triangleCapacity)?;
        non_null("softBodyId", softBodyId)?;
        let (nv, nt) = read(softBodyId.world, |e| {
            let s = softBodyId.to_core(e.tag);
            let (nv, nt) = e.world.soft_body_mesh(s, &mut [], &mut [])?;
            // SAFETY: within the host's capacities; `m3Vec3` and `Vec3` are both three
            // `f32`s, `#[repr(C)]`; a triangle is three `u32`s; zero is valid for both.
            let (v, t) = unsafe {
                (
                    va.zeroed_prefix::<engine::math::Vec3>(nv as usize),
                    ta.zeroed_prefix::<[u32; 3]>(nt as usize),
                )
            };
            Ok(e.world.soft_body_mesh(s, v, t)?)
        })?;
        // SAFETY: checked non-null.
        unsafe {
            put(ov, to_i32(nv as usize));
            put(ot, to_i32(nt as usize));
        }
        Ok(())
    })
}

/// The box around a soft body's particles, grown by their radius (relative to the world
/// origin).
///
/// # Safety
/// `bounds` points to one writable `m3DAABB`, aligned for its type, for the duration of
/// the call (null is refused with `m3_errorArgument`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m3SoftBody_GetBounds(
    softBodyId: m3SoftBodyId,
    bounds: *mut m3DAABB,
) -> m3Result {
    get(
        "m3SoftBody_GetBounds",
        softBodyId,
        bounds,
        |w, s| w.soft_body_bounds(s),
        m3DAABB::from,
    )
}

/// The volume a soft body's closed mesh encloses now, m³ (0 for an open mesh such as a
/// cloth).
///
/// # Safety
/// `volume` points to one writable `f32`, aligned for its type, for the duration of the
/// call (null is refused with `m3_errorArgument`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m3SoftBody_GetVolume(
    softBodyId: m3SoftBodyId,
    volume: *mut f32,
) -> m3Result {
    get(
        "m3SoftBody_GetVolume",
        softBodyId,
        volume,
        |w, s| w.soft_body_volume(s),
        |v| v,
    )
}

/// The ids of the live soft bodies, in slot order, as `m3World_GetBodyIds`.
///
/// # Safety
/// - `ids` points to `capacity` writable `m3SoftBodyId` items, aligned, for the duration
///   of the call (they may be uninitialised; null only with `capacity` 0).
/// - `count` points to one writable `i32`, aligned for its type, for the duration of the
///   call (null is refused with `m3_errorArgument`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m3World_GetSoftBodyIds(
    worldId: m3WorldId,
    ids: *mut m3SoftBodyId,
    capacity: i32,
    count: *mut i32,
) -> m3Result {
    api_on("m3World_GetSoftBodyIds", worldId, || {
        let o = out("count", count)?;
        let arr = OutArray::new("ids", ids, capacity)?;
        let n = read(worldId, |e| {
            let mut n = 0;
            for id in e.world.soft_body_ids() {
                // SAFETY: within the host's capacity.
                unsafe { arr.set(n, m3SoftBodyId::from_core(id, e.id)) };
                n += 1;
            }
            Ok(n)
        })?;
        // SAFETY: checked non-null.
        unsafe { put(o, to_i32(n)) };
        Ok(())
    })
}
