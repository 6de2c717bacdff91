//! Worlds: create (versioned), destroy, step, settings, hash, compare, snapshot and
//! restore, memory usage, counters, profile, origin shift, id lists and debug draw.

use crate::boundary::{self, Entry, Refusal, api, api_on, read, read2, write};
use crate::hooks::{
    Hooks, HostDraw, m3AllocFcn, m3DebugDraw, m3EnqueueTaskCallback, m3FinishTaskCallback,
    m3FreeFcn, m3PreSolveFcn,
};
use crate::types::*;
use core::ffi::c_void;
use engine::World;

/// Everything needed to create a world: settings, the capacities that fix its memory, and
/// the host hooks. Start from `m3DefaultWorldDef()` and change what you need.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct m3WorldDef {
    /// Gravity, m/s².
    pub gravity: m3Vec3,
    /// Approach speed above which restitution applies, m/s (default 1).
    pub restitutionThreshold: f32,
    /// Contact stiffness, Hz (default 30).
    pub contactHertz: f32,
    /// Contact damping ratio (default 10).
    pub contactDampingRatio: f32,
    /// Fastest speed at which overlapping shapes are pushed apart, m/s (default 3).
    pub contactPushMaxSpeed: f32,
    /// Damping ratio of rigid joint rows (default 2).
    pub jointDampingRatio: f32,
    /// Speed limit of any body, m/s (default 400).
    pub maxLinearSpeed: f32,
    /// Approach speed above which touching contacts report hits, m/s (default 1).
    pub hitEventThreshold: f32,
    /// Whether bodies may sleep.
    pub enableSleep: bool,
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
    /// Most triangle meshes and height fields alive at once.
    pub meshCapacity: i32,
    /// Content budget, bytes (within [0, 2^40]): what meshes and height fields may take
    /// together, from the allocator as they are created (default 64 MiB).
    pub contentCapacity: i64,
    /// Most joints alive at once.
    pub jointCapacity: i32,
    /// Most events of each kind kept per step.
    pub eventCapacity: i32,
    /// Most (sensor, shape) overlaps at once.
    pub sensorCapacity: i32,
    /// Most characters alive at once (0 to 2^16; default 16). Fixed at creation.
    pub characterCapacity: i32,
    /// Most vehicles alive at once (0 to 2^16; default 16). Fixed at creation.
    pub vehicleCapacity: i32,
    /// Most water volumes alive at once (0 to 2^16; default 16). Fixed at creation.
    pub waterCapacity: i32,
    /// Most soft bodies alive at once (0 to 2^16; default 16). Fixed at creation.
    pub softBodyCapacity: i32,
    /// Most soft-body particles (mesh vertices) alive at once, all soft bodies together
    /// (0 to 2^22; default 4096). Each reserves room for two triangles and three edges
    /// and bends (about 400 bytes in all). Fixed at creation.
    pub softParticleCapacity: i32,
    /// Host memory: both functions or neither (the library's heap then).
    pub allocFcn: m3AllocFcn,
    /// Frees what `allocFcn` gave.
    pub freeFcn: m3FreeFcn,
    /// Passed back to the allocator.
    pub allocContext: *mut c_void,
    /// Host task system: both hooks or neither (every stage on the stepping thread then).
    /// Only stages of more than `minRange` items reach it (64 for contacts and bodies, see
    /// `m3EnqueueTaskCallback`): a world of at most 32 contacts and 64 bodies never does.
    pub enqueueTask: m3EnqueueTaskCallback,
    /// Waits for a handle from `enqueueTask`.
    pub finishTask: m3FinishTaskCallback,
    /// Passed back to both task hooks.
    pub userTaskContext: *mut c_void,
    /// Worker indices the task system uses (1 to 1024; ignored without hooks).
    pub workerCount: i32,
    /// Asked about touching contacts of shapes with `enablePreSolve`; may be null.
    pub preSolveFcn: m3PreSolveFcn,
    /// Passed back to the pre-solve callback.
    pub preSolveContext: *mut c_void,
}

fn default_world_def() -> m3WorldDef {
    let d = engine::WorldDef::default();
    m3WorldDef {
        gravity: d.gravity.into(),
        restitutionThreshold: d.restitution_threshold,
        contactHertz: d.contact_hertz,
        contactDampingRatio: d.contact_damping_ratio,
        contactPushMaxSpeed: d.contact_push_max_speed,
        jointDampingRatio: d.joint_damping_ratio,
        maxLinearSpeed: d.max_linear_speed,
        hitEventThreshold: d.hit_event_threshold,
        enableSleep: d.enable_sleep,
        bodyCapacity: d.body_capacity as i32,
        shapeCapacity: d.shape_capacity as i32,
        contactCapacity: d.contact_capacity as i32,
        pairCapacity: d.pair_capacity as i32,
        hullCapacity: d.hull_capacity as i32,
        meshCapacity: d.mesh_capacity as i32,
        contentCapacity: d.content_capacity as i64,
        jointCapacity: d.joint_capacity as i32,
        eventCapacity: d.event_capacity as i32,
        sensorCapacity: d.sensor_capacity as i32,
        characterCapacity: d.character_capacity as i32,
        vehicleCapacity: d.vehicle_capacity as i32,
        waterCapacity: d.water_capacity as i32,
        softBodyCapacity: d.soft_body_capacity as i32,
        softParticleCapacity: d.soft_particle_capacity as i32,
        allocFcn: None,
        freeFcn: None,
        allocContext: core::ptr::null_mut(),
        enqueueTask: None,
        finishTask: None,
        userTaskContext: core::ptr::null_mut(),
        workerCount: 1,
        preSolveFcn: None,
        preSolveContext: core::ptr::null_mut(),
    }
}

/// The default world def: gravity −10 on y, sleep on, capacities for about a thousand
/// bodies, no hooks.
#[unsafe(no_mangle)]
pub extern "C" fn m3DefaultWorldDef() -> m3WorldDef {
    boundary::value("m3DefaultWorldDef", default_world_def(), default_world_def)
}

fn capacity(name: &'static str, v: i32) -> Result<u32, Refusal> {
    if v <= 0 {
        return Err(crate::refuse!(
            m3_errorArgument,
            "{name} = {v} must be within [1, 2^24]"
        ));
    }
    Ok(v as u32)
}

/// A capacity that may be 0 (no characters, vehicles, water volumes or soft bodies).
fn optional_capacity(name: &'static str, v: i32) -> Result<u32, Refusal> {
    if !(0..=1 << 16).contains(&v) {
        return Err(crate::refuse!(
            m3_errorArgument,
            "{name} = {v} must be within [0, 2^16]"
        ));
    }
    Ok(v as u32)
}

/// The soft particle capacity: 0 (no soft bodies) to 2^22.
fn soft_particle_capacity(v: i32) -> Result<u32, Refusal> {
    if !(0..=1 << 22).contains(&v) {
        return Err(crate::refuse!(
            m3_errorArgument,
            "softParticleCapacity = {v} must be within [0, 2^22]"
        ));
    }
    Ok(v as u32)
}

/// A content budget from C: bytes, non-negative (the engine bounds it at 2^40 too).
fn content_capacity(v: i64) -> Result<u64, Refusal> {
    if !(0..=1 << 40).contains(&v) {
        return Err(crate::refuse!(
            m3_errorArgument,
            "contentCapacity = {v} must be within [0, 2^40] bytes"
        ));
    }
    Ok(v as u64)
}

/// The engine's def (without hooks) from a C def, refusing what a C def can hold and the
/// engine's cannot (negative capacities, half of a hook pair).
fn engine_def(d: &m3WorldDef) -> Result<engine::WorldDef, Refusal> {
    if d.allocFcn.is_some() != d.freeFcn.is_some() {
        return Err(crate::refuse!(
            m3_errorArgument,
            "allocFcn and freeFcn: give both or neither (allocFcn {}, freeFcn {})",
            if d.allocFcn.is_some() { "set" } else { "null" },
            if d.freeFcn.is_some() { "set" } else { "null" }
        ));
    }
    if d.enqueueTask.is_some() != d.finishTask.is_some() {
        return Err(crate::refuse!(
            m3_errorArgument,
            "enqueueTask and finishTask: give both or neither (enqueueTask {}, finishTask {})",
            if d.enqueueTask.is_some() {
                "set"
            } else {
                "null"
            },
            if d.finishTask.is_some() {
                "set"
            } else {
                "null"
            }
        ));
    }
    Ok(engine::WorldDef {
        gravity: d.gravity.into(),
        restitution_threshold: d.restitutionThreshold,
        contact_hertz: d.contactHertz,
        contact_damping_ratio: d.contactDampingRatio,
        contact_push_max_speed: d.contactPushMaxSpeed,
        joint_damping_ratio: d.jointDampingRatio,
        max_linear_speed: d.maxLinearSpeed,
        enable_sleep: d.enableSleep,
        body_capacity: capacity("bodyCapacity", d.bodyCapacity)?,
        shape_capacity: capacity("shapeCapacity", d.shapeCapacity)?,
        contact_capacity: capacity("contactCapacity", d.contactCapacity)?,
        pair_capacity: capacity("pairCapacity", d.pairCapacity)?,
        hull_capacity: capacity("hullCapacity", d.hullCapacity)?,
        joint_capacity: capacity("jointCapacity", d.jointCapacity)?,
        event_capacity: capacity("eventCapacity", d.eventCapacity)?,
        sensor_capacity: capacity("sensorCapacity", d.sensorCapacity)?,
        hit_event_threshold: d.hitEventThreshold,
        // Set after creation (`m3World_SetCombineRules`), so the C def's layout stays.
        friction_combine: engine::WorldDef::default().friction_combine,
        restitution_combine: engine::WorldDef::default().restitution_combine,
        mesh_capacity: capacity("meshCapacity", d.meshCapacity)?,
        content_capacity: content_capacity(d.contentCapacity)?,
        character_capacity: optional_capacity("characterCapacity", d.characterCapacity)?,
        vehicle_capacity: optional_capacity("vehicleCapacity", d.vehicleCapacity)?,
        water_capacity: optional_capacity("waterCapacity", d.waterCapacity)?,
        soft_body_capacity: optional_capacity("softBodyCapacity", d.softBodyCapacity)?,
        soft_particle_capacity: soft_particle_capacity(d.softParticleCapacity)?,
        allocator: None,
        task_hooks: None,
    })
}

/// The C def of an engine def (hooks null): what `m3DefFromSnapshot` gives.
fn c_def(d: &engine::WorldDef) -> m3WorldDef {
    m3WorldDef {
        gravity: d.gravity.into(),
        restitutionThreshold: d.restitution_threshold,
        contactHertz: d.contact_hertz,
        contactDampingRatio: d.contact_damping_ratio,
        contactPushMaxSpeed: d.contact_push_max_speed,
        jointDampingRatio: d.joint_damping_ratio,
        maxLinearSpeed: d.max_linear_speed,
        hitEventThreshold: d.hit_event_threshold,
        enableSleep: d.enable_sleep,
        bodyCapacity: to_i32(d.body_capacity as usize),
        shapeCapacity: to_i32(d.shape_capacity as usize),
        contactCapacity: to_i32(d.contact_capacity as usize),
        pairCapacity: to_i32(d.pair_capacity as usize),
        hullCapacity: to_i32(d.hull_capacity as usize),
        meshCapacity: to_i32(d.mesh_capacity as usize),
        contentCapacity: d.content_capacity as i64,
        jointCapacity: to_i32(d.joint_capacity as usize),
        eventCapacity: to_i32(d.event_capacity as usize),
        sensorCapacity: to_i32(d.sensor_capacity as usize),
        characterCapacity: to_i32(d.character_capacity as usize),
        vehicleCapacity: to_i32(d.vehicle_capacity as usize),
        waterCapacity: to_i32(d.water_capacity as usize),
        softBodyCapacity: to_i32(d.soft_body_capacity as usize),
        softParticleCapacity: to_i32(d.soft_particle_capacity as usize),
        ..default_world_def()
    }
}

/// Creates a world from `def`, checking that the caller's header is this library's ABI
/// version. Called through the header's inline `m3World_Create`, which passes
/// `M3_ABI_VERSION`; a header of another version is refused with `m3_errorVersion`. The
/// world's memory comes from the def's allocator now; a refusal is `m3_errorCapacity`.
///
/// # Safety
/// - `def` points to one readable `m3WorldDef`, aligned for its type, for the duration
///   of the call (null is refused with `m3_errorArgument`).
/// - `worldId` points to one writable `m3WorldId`, aligned for its type, for the
///   duration of the call (null is refused with `m3_errorArgument`).
/// - The hooks in `*def` (allocator, task hooks, pre-solve callback: each null or
///   callable with its signature) and their contexts stay valid until `m3World_Destroy`
///   returns for this world; the library calls them from the threads that call into the
///   world and from the host's task system.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m3World_CreateVersioned(
    def: *const m3WorldDef,
    abiVersion: u32,
    worldId: *mut m3WorldId,
) -> m3Result {
    api("m3World_CreateVersioned", || {
        let out_id = out("worldId", worldId)?;
        if abiVersion != crate::M3_ABI_VERSION {
            return Err(crate::refuse!(
                m3_errorVersion,
                "the header's ABI version {}.{} is not the library's {}.{}: rebuild against this library's maul3d.h",
                abiVersion >> 16,
                abiVersion & 0xffff,
                crate::M3_ABI_VERSION >> 16,
                crate::M3_ABI_VERSION & 0xffff
            ));
        }
        // SAFETY: the host passes a valid def or null.
        let d = unsafe { read_ptr("def", def) }?;
        let mut ed = engine_def(&d)?;
        if d.enqueueTask.is_some() && !(1..=1024).contains(&d.workerCount) {
            return Err(crate::refuse!(
                m3_errorArgument,
                "workerCount = {} must be within [1, 1024]",
                d.workerCount
            ));
        }
        let raw_alloc = match (d.allocFcn, d.freeFcn) {
            (Some(a), Some(f)) => Some((a, f, d.allocContext)),
            _ => None,
        };
        let id = boundary::claim()?;
        let hooks = Hooks {
            world: id,
            allocator: raw_alloc,
            tasks: match (d.enqueueTask, d.finishTask) {
                (Some(e), Some(f)) => Some((e, f, d.userTaskContext)),
                _ => None,
            },
            pre_solve: d.preSolveFcn.map(|f| (f, d.preSolveContext)),
        };
        let made = (|| {
            let Some(hooks) = crate::hooks::host_new(raw_alloc, hooks) else {
                return Err(crate::refuse!(
                    m3_errorCapacity,
                    "the allocator refused {} bytes for the world's hooks",
                    core::mem::size_of::<Hooks>()
                ));
            };
            // SAFETY: just made; lives until the entry is destroyed.
            let h = unsafe { &*hooks };
            if let engine::alloc::WorldAlloc::Host(a) = h.world_alloc() {
                ed.allocator = Some(a);
            }
            ed.task_hooks = h.task_hooks(d.workerCount.max(1) as u32);
            let world = match World::new(&ed) {
                Ok(w) => w,
                Err(e) => {
                    // SAFETY: made above by host_new with this allocator.
                    unsafe { crate::hooks::host_delete(raw_alloc, hooks) };
                    return Err(Refusal::from(e));
                }
            };
            let tag = world.id_tag();
            let mut entry = Entry {
                world,
                id,
                tag,
                hooks,
                journal: None,
            };
            entry.world.set_pre_solve(h.engine_pre_solve());
            match crate::hooks::host_new(raw_alloc, entry) {
                Some(p) => Ok(p),
                None => Err(crate::refuse!(
                    m3_errorCapacity,
                    "the allocator refused {} bytes for the world's entry",
                    core::mem::size_of::<Entry>()
                )),
            }
        })();
        match made {
            Ok(p) => {
                boundary::publish(id, p);
                // SAFETY: checked non-null by `out`.
                unsafe { put(out_id, id) };
                Ok(())
            }
            Err(r) => {
                boundary::unclaim(id);
                Err(r)
            }
        }
    })
}

/// Destroys a world and gives back all its memory (also a poisoned world). Refused with
/// `m3_errorBusy` from inside the world's own hooks.
#[unsafe(no_mangle)]
pub extern "C" fn m3World_Destroy(worldId: m3WorldId) -> m3Result {
    api_on("m3World_Destroy", worldId, || {
        boundary::retire(worldId, |p| {
            // SAFETY: the entry and its hooks came from host_new with the hooks' allocator
            // and are freed once, here.
            unsafe {
                let hooks = (*p).hooks;
                let raw = (*hooks).allocator;
                crate::hooks::host_delete(raw, p);
                crate::hooks::host_delete(raw, hooks);
            }
        })
    })
}

/// Whether a world id names a live world.
#[unsafe(no_mangle)]
pub extern "C" fn m3World_IsValid(worldId: m3WorldId) -> bool {
    boundary::value("m3World_IsValid", false, || boundary::is_live(worldId))
}

/// Advances the world by `dt` seconds (1e-4 to 10) in `substeps` substeps (1 to 256).
/// Never allocates. Host hooks the step calls find the world busy.
#[unsafe(no_mangle)]
pub extern "C" fn m3World_Step(worldId: m3WorldId, dt: f32, substeps: i32) -> m3Result {
    api_on("m3World_Step", worldId, || {
        write(worldId, |e| {
            if !(1..=256).contains(&substeps) {
                return Err(crate::refuse!(
                    m3_errorArgument,
                    "substeps = {substeps} must be within [1, 256]"
                ));
            }
            e.world.step(dt, substeps as u32)?;
            Ok(())
        })
    })
}

/// The hash of the world's whole simulation state (FNV-1a-64 over its canonical
/// encoding): equal hashes mean equal worlds. 0 when refused (see
/// `m3GetLastErrorMessage`); 0 is also a possible hash, so code that must tell a refusal
/// from a world calls `m3World_GetHash`.
#[unsafe(no_mangle)]
pub extern "C" fn m3World_Hash(worldId: m3WorldId) -> u64 {
    boundary::value("m3World_Hash", 0, || {
        read(worldId, |e| Ok(e.world.hash())).unwrap_or_else(|r| {
            boundary::count_misuse(worldId, r.0);
            0
        })
    })
}

/// `m3World_Hash` with its refusal told apart: writes the hash to `hash` (any value, 0
/// included) and returns `m3_success`, or returns why not and leaves `hash` as it was.
///
/// # Safety
/// `hash` points to one writable `u64`, aligned for its type, for the duration of the
/// call (null is refused with `m3_errorArgument`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m3World_GetHash(worldId: m3WorldId, hash: *mut u64) -> m3Result {
    api_on("m3World_GetHash", worldId, || {
        let o = out("hash", hash)?;
        let h = read(worldId, |e| Ok(e.world.hash()))?;
        // SAFETY: checked non-null.
        unsafe { put(o, h) };
        Ok(())
    })
}

/// One body slot that differs between two worlds.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct m3BodyDiff {
    /// The body slot (the index of its id minus one).
    pub slot: u32,
    /// Whether a body lives in that slot in world A.
    pub aliveInA: bool,
    /// Whether one lives there in world B.
    pub aliveInB: bool,
    /// Distance between the positions, m (infinite when alive in one world only).
    pub positionError: f64,
    /// Angle between the rotations, radians.
    pub rotationError: f32,
    /// Largest difference of linear and angular velocity.
    pub velocityError: f32,
}

impl From<engine::BodyDiff> for m3BodyDiff {
    fn from(r: engine::BodyDiff) -> m3BodyDiff {
        m3BodyDiff {
            slot: r.slot,
            aliveInA: r.alive_in_a,
            aliveInB: r.alive_in_b,
            positionError: r.position_error,
            rotationError: r.rotation_error,
            velocityError: r.velocity_error,
        }
    }
}

/// Lists the body slots that differ between two worlds, worst first (position, then
/// rotation, then velocity error), including bodies alive in one of them only. Writes up
/// to `capacity` rows and the number of differing slots (which may exceed the capacity)
/// to `differing`. Both worlds are read, so they may be the same world.
///
/// # Safety
/// - `rows` points to `capacity` writable `m3BodyDiff` items, aligned, for the duration
///   of the call (they may be uninitialised; null only with `capacity` 0).
/// - `differing` points to one writable `i32`, aligned for its type, for the duration
///   of the call (null is refused with `m3_errorArgument`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m3World_Compare(
    worldA: m3WorldId,
    worldB: m3WorldId,
    rows: *mut m3BodyDiff,
    capacity: i32,
    differing: *mut i32,
) -> m3Result {
    api_on("m3World_Compare", worldA, || {
        let out_n = out("differing", differing)?;
        let rows = OutArray::new("rows", rows, capacity)?;
        read2(worldA, worldB, |a, b| {
            let n = rows.capacity();
            let total = boundary::with_scratch(a, n, engine::BodyDiff::default(), |buf| {
                let total = World::compare(&a.world, &b.world, buf);
                for (i, r) in buf.iter().enumerate().take(total.min(n)) {
                    // SAFETY: within the capacity the host gave.
                    unsafe { rows.set(i, (*r).into()) };
                }
                total
            })?;
            // SAFETY: checked non-null.
            unsafe { put(out_n, to_i32(total)) };
            Ok(())
        })
    })
}

/// Bytes `m3World_Snapshot` needs now.
///
/// # Safety
/// `size` points to one writable `i64`, aligned for its type, for the duration of the
/// call (null is refused with `m3_errorArgument`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m3World_GetSnapshotSize(worldId: m3WorldId, size: *mut i64) -> m3Result {
    api_on("m3World_GetSnapshotSize", worldId, || {
        let o = out("size", size)?;
        let n = read(worldId, |e| Ok(e.world.snapshot_size()))?;
        // SAFETY: checked non-null.
        unsafe { put(o, n as i64) };
        Ok(())
    })
}

/// Writes the world's state into `buffer` (at least `m3World_GetSnapshotSize` bytes) and
/// its length to `written`. Taken while a journal runs, it also records that journal and
/// where its tape stands (not part of the hash), so restoring it rewinds the tape.
///
/// # Safety
/// - `buffer` points to `capacity` writable bytes (any alignment) for the duration of
///   the call (null is refused with `m3_errorArgument`).
/// - `written` points to one writable `i64`, aligned for its type, for the duration of
///   the call (null is refused with `m3_errorArgument`).
/// - `buffer` must not overlap `written`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m3World_Snapshot(
    worldId: m3WorldId,
    buffer: *mut u8,
    capacity: i64,
    written: *mut i64,
) -> m3Result {
    api_on("m3World_Snapshot", worldId, || {
        let o = out("written", written)?;
        let cap = byte_len("capacity", capacity)?;
        let buf = out("buffer", buffer)?;
        let n = read(worldId, |e| {
            let need = e.world.snapshot_size();
            if cap < need {
                return Err(crate::refuse!(
                    m3_errorCapacity,
                    "snapshot buffer capacity {cap} is below the {need} bytes the snapshot needs"
                ));
            }
            // SAFETY: the host promises `capacity` writable bytes.
            let s = unsafe { core::slice::from_raw_parts_mut(buf, cap) };
            Ok(e.world.snapshot(s)?)
        })?;
        // SAFETY: checked non-null.
        unsafe { put(o, n as i64) };
        Ok(())
    })
}

/// Brings a world to exactly a snapshot's state; the world keeps its own capacities,
/// which must hold the snapshot (`m3_errorCapacity` naming the first that does not: grow
/// it with `m3World_Grow`). A damaged snapshot is `m3_errorFormat`, one of another format
/// revision `m3_errorVersion`; a refused restore changes nothing. Not recorded by a running journal, but rollback-aware:
/// a snapshot that journal took rewinds its tape (and the host's buffer) to where the
/// snapshot was taken; any other snapshot while a journal runs (taken with no journal
/// running, by another journal, or on a branch the tape has been rewound past) is
/// `m3_errorState` naming the journal. With no journal running the journal part of a
/// snapshot is ignored.
///
/// # Safety
/// `snapshot` points to `length` readable bytes (any alignment) for the duration of the
/// call (null only with `length` 0).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m3World_Restore(
    worldId: m3WorldId,
    snapshot: *const u8,
    length: i64,
) -> m3Result {
    api_on("m3World_Restore", worldId, || {
        let n = byte_len("length", length)?;
        // SAFETY: the host promises `length` readable bytes.
        let s = unsafe { slice("snapshot", snapshot, n) }?;
        write(worldId, |e| Ok(e.world.restore(s)?))
    })
}

/// Reads the settings and capacities of the world a snapshot was taken from (hooks
/// null), so a verifier builds a world the snapshot restores into.
///
/// # Safety
/// - `snapshot` points to `length` readable bytes (any alignment) for the duration of
///   the call (null only with `length` 0).
/// - `def` points to one writable `m3WorldDef`, aligned for its type, for the duration
///   of the call (null is refused with `m3_errorArgument`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m3DefFromSnapshot(
    snapshot: *const u8,
    length: i64,
    def: *mut m3WorldDef,
) -> m3Result {
    api("m3DefFromSnapshot", || {
        let o = out("def", def)?;
        let n = byte_len("length", length)?;
        // SAFETY: the host promises `length` readable bytes.
        let s = unsafe { slice("snapshot", snapshot, n) }?;
        let d = World::def_from_snapshot(s)?;
        // SAFETY: checked non-null.
        unsafe { put(o, c_def(&d)) };
        Ok(())
    })
}

/// What a world holds in memory.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct m3MemoryUsage {
    /// Every byte the world took from its allocator (fixed at create, plus a running
    /// journal's tape).
    pub totalBytes: i64,
    /// Bytes of `contentCapacity` in use: mesh and height-field content and what is
    /// rebuilt from it (trees, edge flags); part of `totalBytes`.
    pub contentBytes: i64,
}

/// The world's memory.
///
/// # Safety
/// `usage` points to one writable `m3MemoryUsage`, aligned for its type, for the
/// duration of the call (null is refused with `m3_errorArgument`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m3World_GetMemoryUsage(
    worldId: m3WorldId,
    usage: *mut m3MemoryUsage,
) -> m3Result {
    api_on("m3World_GetMemoryUsage", worldId, || {
        let o = out("usage", usage)?;
        let u = read(worldId, |e| {
            Ok(m3MemoryUsage {
                totalBytes: e.world.memory_usage() as i64,
                contentBytes: e.world.content_usage() as i64,
            })
        })?;
        // SAFETY: checked non-null.
        unsafe { put(o, u) };
        Ok(())
    })
}

/// What the last step did and dropped. Observes only: not state.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct m3Counters {
    /// Bodies alive.
    pub bodyCount: i32,
    /// Shapes alive.
    pub shapeCount: i32,
    /// Contacts alive.
    pub contactCount: i32,
    /// Contacts with at least one manifold point.
    pub touchingContactCount: i32,
    /// Bodies in the last step's solver.
    pub awakeBodyCount: i32,
    /// Islands among the last step's awake bodies.
    pub islandCount: i32,
    /// Graph colours in use.
    pub colorCount: i32,
    /// Constraints in the overflow colour.
    pub overflowConstraints: i32,
    /// Hulls alive.
    pub hullCount: i32,
    /// Meshes and height fields alive.
    pub meshCount: i32,
    /// Joints alive.
    pub jointCount: i32,
    /// Height of the movable-shape tree.
    pub treeHeight: i32,
    /// New pairs dropped for `pairCapacity`.
    pub droppedPairs: i32,
    /// New contacts dropped for `contactCapacity`.
    pub droppedContacts: i32,
    /// Contact begin events dropped.
    pub droppedBeginEvents: i32,
    /// Contact end events dropped.
    pub droppedEndEvents: i32,
    /// Contact hit events dropped.
    pub droppedHitEvents: i32,
    /// Sensor overlaps dropped for `sensorCapacity`.
    pub droppedSensorPairs: i32,
    /// Sensor begin events dropped.
    pub droppedSensorBeginEvents: i32,
    /// Sensor end events dropped.
    pub droppedSensorEndEvents: i32,
    /// Joint break events dropped.
    pub droppedJointBreakEvents: i32,
    /// How often a speed cap (`maxLinearSpeed`, the angular speed limit) bound a dynamic
    /// body in the last step; 0 in a scene that never reaches them.
    pub speedCaps: i32,
    /// How often the quarter-turn-per-substep rotation cap cut a body's spin.
    pub rotationClamps: i32,
    /// Time-of-impact queries continuous collision ran.
    pub toiQueries: i32,
    /// Their outer iterations (separating axes tried).
    pub toiIterations: i32,
    /// Their separation evaluations (pushes and root-finder steps).
    pub toiRootIterations: i32,
    /// Fast-body sweeps that reached the candidate limit (later candidates not examined).
    pub droppedCcdSweeps: i32,
    /// Rigid shapes near a soft body that its particles did not test in the last step
    /// (beyond 256 per soft body).
    pub droppedSoftShapes: i32,
}

/// The world's counters.
///
/// # Safety
/// `counters` points to one writable `m3Counters`, aligned for its type, for the
/// duration of the call (null is refused with `m3_errorArgument`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m3World_GetCounters(
    worldId: m3WorldId,
    counters: *mut m3Counters,
) -> m3Result {
    api_on("m3World_GetCounters", worldId, || {
        let o = out("counters", counters)?;
        let c = read(worldId, |e| Ok(e.world.counters()))?;
        let i = |v: u32| to_i32(v as usize);
        let r = m3Counters {
            bodyCount: i(c.body_count),
            shapeCount: i(c.shape_count),
            contactCount: i(c.contact_count),
            touchingContactCount: i(c.touching_contact_count),
            awakeBodyCount: i(c.awake_body_count),
            islandCount: i(c.island_count),
            colorCount: i(c.color_count),
            overflowConstraints: i(c.overflow_constraints),
            hullCount: i(c.hull_count),
            meshCount: i(c.mesh_count),
            jointCount: i(c.joint_count),
            treeHeight: i(c.tree_height),
            droppedPairs: i(c.dropped_pairs),
            droppedContacts: i(c.dropped_contacts),
            droppedBeginEvents: i(c.dropped_begin_events),
            droppedEndEvents: i(c.dropped_end_events),
            droppedHitEvents: i(c.dropped_hit_events),
            droppedSensorPairs: i(c.dropped_sensor_pairs),
            droppedSensorBeginEvents: i(c.dropped_sensor_begin_events),
            droppedSensorEndEvents: i(c.dropped_sensor_end_events),
            droppedJointBreakEvents: i(c.dropped_joint_break_events),
            speedCaps: i(c.speed_caps),
            rotationClamps: i(c.rotation_clamps),
            toiQueries: i(c.toi_queries),
            toiIterations: i(c.toi_iterations),
            toiRootIterations: i(c.toi_root_iterations),
            droppedCcdSweeps: i(c.dropped_ccd_sweeps),
            droppedSoftShapes: i(c.soft_shapes_dropped),
        };
        // SAFETY: checked non-null.
        unsafe { put(o, r) };
        Ok(())
    })
}

/// Milliseconds per stage of the last step: the one output that differs between runs.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct m3Profile {
    /// The whole step.
    pub step: f64,
    /// Broad phase.
    pub pairs: f64,
    /// Narrow phase.
    pub collide: f64,
    /// Solver set-up.
    pub prepare: f64,
    /// Substeps.
    pub solve: f64,
    /// Restitution and storing impulses.
    pub restitution: f64,
    /// Writing bodies back.
    pub finalize: f64,
    /// Islands and sleep.
    pub sleep: f64,
    /// Move events and sensors.
    pub sensors: f64,
    /// Soft bodies.
    pub soft: f64,
}

/// The profile of the last step.
///
/// # Safety
/// `profile` points to one writable `m3Profile`, aligned for its type, for the duration
/// of the call (null is refused with `m3_errorArgument`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m3World_GetProfile(
    worldId: m3WorldId,
    profile: *mut m3Profile,
) -> m3Result {
    api_on("m3World_GetProfile", worldId, || {
        let o = out("profile", profile)?;
        let p = read(worldId, |e| Ok(e.world.profile()))?;
        let r = m3Profile {
            step: p.step,
            pairs: p.pairs,
            collide: p.collide,
            prepare: p.prepare,
            solve: p.solve,
            restitution: p.restitution,
            finalize: p.finalize,
            sleep: p.sleep,
            sensors: p.sensors,
            soft: p.soft,
        };
        // SAFETY: checked non-null.
        unsafe { put(o, r) };
        Ok(())
    })
}

/// Sets gravity, m/s².
#[unsafe(no_mangle)]
pub extern "C" fn m3World_SetGravity(worldId: m3WorldId, gravity: m3Vec3) -> m3Result {
    api_on("m3World_SetGravity", worldId, || {
        write(worldId, |e| Ok(e.world.set_gravity(gravity.into())?))
    })
}

/// Gravity, m/s².
///
/// # Safety
/// `gravity` points to one writable `m3Vec3`, aligned for its type, for the duration of
/// the call (null is refused with `m3_errorArgument`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m3World_GetGravity(worldId: m3WorldId, gravity: *mut m3Vec3) -> m3Result {
    api_on("m3World_GetGravity", worldId, || {
        let o = out("gravity", gravity)?;
        let g = read(worldId, |e| Ok(e.world.gravity()))?;
        // SAFETY: checked non-null.
        unsafe { put(o, g.into()) };
        Ok(())
    })
}

/// Combine rules: how a contact combines its two shapes' friction or restitution
/// (`m3World_SetCombineRules`). Values 0–4 are Rapier's `CoefficientCombineRule`.
pub type m3CombineRule = i32;
/// (a + b) / 2.
pub const m3_combineAverage: m3CombineRule = 0;
/// The smaller of the two (Godot's friction).
pub const m3_combineMin: m3CombineRule = 1;
/// a · b.
pub const m3_combineMultiply: m3CombineRule = 2;
/// The larger of the two (the default for restitution).
pub const m3_combineMax: m3CombineRule = 3;
/// a + b, at most 1 (Godot's bounce).
pub const m3_combineClampedSum: m3CombineRule = 4;
/// √(a · b) (the default for friction).
pub const m3_combineGeometric: m3CombineRule = 5;

fn combine_rule(name: &'static str, v: m3CombineRule) -> Result<engine::CombineRule, Refusal> {
    u8::try_from(v)
        .ok()
        .and_then(engine::CombineRule::from_u8)
        .ok_or_else(|| {
            crate::refuse!(
                m3_errorArgument,
                "{name} = {v} must be within [0, 5] (m3_combineAverage … m3_combineGeometric)"
            )
        })
}

/// Sets how contacts combine their shapes' friction and restitution (each an
/// `m3CombineRule`; defaults `m3_combineGeometric` and `m3_combineMax`), from the next
/// step on. Journaled; part of the state (snapshot and hash).
#[unsafe(no_mangle)]
pub extern "C" fn m3World_SetCombineRules(
    worldId: m3WorldId,
    friction: m3CombineRule,
    restitution: m3CombineRule,
) -> m3Result {
    api_on("m3World_SetCombineRules", worldId, || {
        let f = combine_rule("friction", friction)?;
        let r = combine_rule("restitution", restitution)?;
        write(worldId, |e| {
            e.world.set_combine_rules(f, r);
            Ok(())
        })
    })
}

/// The world's friction and restitution combine rules.
///
/// # Safety
/// `friction` and `restitution` each point to one writable `m3CombineRule`, aligned for
/// its type, for the duration of the call (null is refused with `m3_errorArgument`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m3World_GetCombineRules(
    worldId: m3WorldId,
    friction: *mut m3CombineRule,
    restitution: *mut m3CombineRule,
) -> m3Result {
    api_on("m3World_GetCombineRules", worldId, || {
        let of = out("friction", friction)?;
        let or = out("restitution", restitution)?;
        let (f, r) = read(worldId, |e| Ok(e.world.combine_rules()))?;
        // SAFETY: checked non-null.
        unsafe {
            put(of, f as m3CombineRule);
            put(or, r as m3CombineRule);
        }
        Ok(())
    })
}

/// Turns sleep on or off for the whole world.
#[unsafe(no_mangle)]
pub extern "C" fn m3World_EnableSleep(worldId: m3WorldId, enable: bool) -> m3Result {
    api_on("m3World_EnableSleep", worldId, || {
        write(worldId, |e| {
            e.world.enable_sleep(enable);
            Ok(())
        })
    })
}

/// Sets the damping ratio of rigid joint rows.
#[unsafe(no_mangle)]
pub extern "C" fn m3World_SetJointDampingRatio(worldId: m3WorldId, ratio: f32) -> m3Result {
    api_on("m3World_SetJointDampingRatio", worldId, || {
        write(worldId, |e| Ok(e.world.set_joint_damping_ratio(ratio)?))
    })
}

/// Sets or clears (null) the pre-solve callback.
///
/// # Safety
/// - `fcn` is null or a function of `m3PreSolveFcn`'s signature that stays callable
///   until the callback is replaced or the world is destroyed; it is called during steps
///   (see `m3PreSolveFcn`).
/// - `context` is not read by the library: it is passed to `fcn` as is, so what it
///   points to must stay valid as long as `fcn` may be called.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m3World_SetPreSolveCallback(
    worldId: m3WorldId,
    fcn: m3PreSolveFcn,
    context: *mut c_void,
) -> m3Result {
    api_on("m3World_SetPreSolveCallback", worldId, || {
        write(worldId, |e| {
            // SAFETY: we hold the world as writer; the hooks are its own block.
            let h = unsafe { &mut *e.hooks };
            h.pre_solve = fcn.map(|f| (f, context));
            e.world.set_pre_solve(h.engine_pre_solve());
            Ok(())
        })
    })
}

/// Moves the world origin by `offset` (a multiple of the position grid step, within the
/// coordinate limits): every position relative to the origin shifts by −offset, nothing
/// moves in the world. Out-of-range shifts are `m3_errorOutOfBounds`.
#[unsafe(no_mangle)]
pub extern "C" fn m3World_ShiftOrigin(worldId: m3WorldId, offset: m3DVec3) -> m3Result {
    api_on("m3World_ShiftOrigin", worldId, || {
        write(worldId, |e| Ok(e.world.shift_origin(offset.into())?))
    })
}

/// The world origin in absolute coordinates.
///
/// # Safety
/// `origin` points to one writable `m3DVec3`, aligned for its type, for the duration of
/// the call (null is refused with `m3_errorArgument`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m3World_GetOrigin(worldId: m3WorldId, origin: *mut m3DVec3) -> m3Result {
    api_on("m3World_GetOrigin", worldId, || {
        let o = out("origin", origin)?;
        let v = read(worldId, |e| Ok(e.world.origin()))?;
        // SAFETY: checked non-null.
        unsafe { put(o, v.into()) };
        Ok(())
    })
}

/// Steps taken so far.
///
/// # Safety
/// `steps` points to one writable `u64`, aligned for its type, for the duration of the
/// call (null is refused with `m3_errorArgument`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m3World_GetStepCount(worldId: m3WorldId, steps: *mut u64) -> m3Result {
    api_on("m3World_GetStepCount", worldId, || {
        let o = out("steps", steps)?;
        let v = read(worldId, |e| Ok(e.world.step_count()))?;
        // SAFETY: checked non-null.
        unsafe { put(o, v) };
        Ok(())
    })
}

/// The ids of the live bodies, in slot order: up to `capacity` of them into `ids`, and how
/// many live (which may exceed the capacity) into `count`. A capacity of 0 (and a null
/// `ids`) only counts them.
///
/// # Safety
/// - `ids` points to `capacity` writable `m3BodyId` items, aligned, for the duration of
///   the call (they may be uninitialised; null only with `capacity` 0).
/// - `count` points to one writable `i32`, aligned for its type, for the duration of
///   the call (null is refused with `m3_errorArgument`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m3World_GetBodyIds(
    worldId: m3WorldId,
    ids: *mut m3BodyId,
    capacity: i32,
    count: *mut i32,
) -> m3Result {
    api_on("m3World_GetBodyIds", worldId, || {
        let o = out("count", count)?;
        let arr = OutArray::new("ids", ids, capacity)?;
        let n = read(worldId, |e| {
            let mut n = 0;
            for id in e.world.body_ids() {
                // SAFETY: within the host's capacity.
                unsafe { arr.set(n, m3BodyId::from_core(id, e.id)) };
                n += 1;
            }
            Ok(n)
        })?;
        // SAFETY: checked non-null.
        unsafe { put(o, to_i32(n)) };
        Ok(())
    })
}

/// The ids of the live joints, in slot order, as `m3World_GetBodyIds`.
///
/// # Safety
/// - `ids` points to `capacity` writable `m3JointId` items, aligned, for the duration
///   of the call (they may be uninitialised; null only with `capacity` 0).
/// - `count` points to one writable `i32`, aligned for its type, for the duration of
///   the call (null is refused with `m3_errorArgument`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m3World_GetJointIds(
    worldId: m3WorldId,
    ids: *mut m3JointId,
    capacity: i32,
    count: *mut i32,
) -> m3Result {
    api_on("m3World_GetJointIds", worldId, || {
        let o = out("count", count)?;
        let arr = OutArray::new("ids", ids, capacity)?;
        let n = read(worldId, |e| {
            let mut n = 0;
            for id in e.world.joint_ids() {
                // SAFETY: within the host's capacity.
                unsafe { arr.set(n, m3JointId::from_core(id, e.id)) };
                n += 1;
            }
            Ok(n)
        })?;
        // SAFETY: checked non-null.
        unsafe { put(o, to_i32(n)) };
        Ok(())
    })
}

/// Describes the world to the host's drawing functions. They run in the host's
/// floating-point setting; a call into this world from them is refused as busy.
///
/// # Safety
/// - `draw` points to one readable `m3DebugDraw`, aligned for its type, for the
///   duration of the call (null is refused with `m3_errorArgument`).
/// - Each drawing function in `*draw` is null or callable with its signature for the
///   duration of the call; `draw->context` is passed to them as is.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m3World_Draw(worldId: m3WorldId, draw: *const m3DebugDraw) -> m3Result {
    api_on("m3World_Draw", worldId, || {
        // SAFETY: the host passes a valid draw or null.
        let d = unsafe { read_ptr("draw", draw) }?;
        // Drawing reads the world; taking it as writer makes calls from the drawing
        // functions busy rather than letting them change it mid-draw.
        write(worldId, |e| {
            let mut host = HostDraw {
                draw: d,
                world: e.id,
            };
            e.world.debug_draw(&d.options(), &mut host);
            Ok(())
        })
    })
}
