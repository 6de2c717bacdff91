//! Bodies: create, destroy, getters, setters and commands.

use crate::boundary::{Refusal, api_on, non_null, read, write};
use crate::types::*;
use engine::{BodyId, World};

/// Body types: `m3_staticBody`, `m3_kinematicBody`, `m3_dynamicBody`.
pub type m3BodyType = i32;
/// Never moves; infinite mass.
pub const m3_staticBody: m3BodyType = 0;
/// Moves by its velocity; infinite mass.
pub const m3_kinematicBody: m3BodyType = 1;
/// Moves under forces and contacts.
pub const m3_dynamicBody: m3BodyType = 2;

fn body_type(t: m3BodyType) -> Result<engine::BodyType, Refusal> {
    Ok(match t {
        m3_staticBody => engine::BodyType::Static,
        m3_kinematicBody => engine::BodyType::Kinematic,
        m3_dynamicBody => engine::BodyType::Dynamic,
        _ => {
            return Err(crate::refuse!(
                m3_errorArgument,
                "body type = {t} must be within [0, 2] (m3_staticBody, m3_kinematicBody, m3_dynamicBody)"
            ));
        }
    })
}

pub(crate) fn c_body_type(t: engine::BodyType) -> m3BodyType {
    match t {
        engine::BodyType::Static => m3_staticBody,
        engine::BodyType::Kinematic => m3_kinematicBody,
        engine::BodyType::Dynamic => m3_dynamicBody,
    }
}

/// Motion lock bits: `m3_lockLinearX` … `m3_lockAngularZ`, in world axes.
pub type m3MotionLocks = u32;
/// Locks linear motion along x.
pub const m3_lockLinearX: m3MotionLocks = 1;
/// Locks linear motion along y.
pub const m3_lockLinearY: m3MotionLocks = 2;
/// Locks linear motion along z.
pub const m3_lockLinearZ: m3MotionLocks = 4;
/// Locks rotation about x.
pub const m3_lockAngularX: m3MotionLocks = 8;
/// Locks rotation about y.
pub const m3_lockAngularY: m3MotionLocks = 16;
/// Locks rotation about z.
pub const m3_lockAngularZ: m3MotionLocks = 32;

fn locks(bits: m3MotionLocks) -> Result<engine::MotionLocks, Refusal> {
    if bits > 63 {
        return Err(crate::refuse!(
            m3_errorArgument,
            "motion locks = {bits} must be within [0, 63] (m3_lock* bits)"
        ));
    }
    Ok(engine::MotionLocks::from_bits(bits as u8))
}

/// Everything needed to create a body. Start from `m3DefaultBodyDef()`.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct m3BodyDef {
    /// `m3_staticBody`, `m3_kinematicBody` or `m3_dynamicBody`.
    pub r#type: m3BodyType,
    /// Position of the body origin, relative to the world origin (each component below
    /// 2^21 in magnitude; rounded to the 2^-32 grid).
    pub position: m3DVec3,
    /// Rotation (normalised on create).
    pub rotation: m3Quat,
    /// Initial velocity of the centre of mass.
    pub linearVelocity: m3Vec3,
    /// Initial angular velocity.
    pub angularVelocity: m3Vec3,
    /// Linear damping, 1/s.
    pub linearDamping: f32,
    /// Angular damping, 1/s.
    pub angularDamping: f32,
    /// Multiplies gravity for this body.
    pub gravityScale: f32,
    /// Speed under which the body may sleep, m/s.
    pub sleepThreshold: f32,
    /// Whether the body may ever sleep.
    pub enableSleep: bool,
    /// Whether it starts awake.
    pub isAwake: bool,
    /// Continuous collision against everything.
    pub isBullet: bool,
    /// Disabled bodies take no part in the simulation.
    pub isEnabled: bool,
    /// The body skips gravity and damping.
    pub customIntegrator: bool,
    /// `m3_lock*` bits.
    pub motionLocks: m3MotionLocks,
    /// Host data: stored, never hashed.
    pub userData: u64,
}

fn default_body_def() -> m3BodyDef {
    let d = engine::BodyDef::default();
    m3BodyDef {
        r#type: c_body_type(d.body_type),
        position: d.position.into(),
        rotation: d.rotation.into(),
        linearVelocity: d.linear_velocity.into(),
        angularVelocity: d.angular_velocity.into(),
        linearDamping: d.linear_damping,
        angularDamping: d.angular_damping,
        gravityScale: d.gravity_scale,
        sleepThreshold: d.sleep_threshold,
        enableSleep: d.enable_sleep,
        isAwake: d.is_awake,
        isBullet: d.is_bullet,
        isEnabled: d.is_enabled,
        customIntegrator: d.custom_integrator,
        motionLocks: d.motion_locks.bits() as u32,
        userData: d.user_data,
    }
}

/// The default body def: a static body at the origin.
#[unsafe(no_mangle)]
pub extern "C" fn m3DefaultBodyDef() -> m3BodyDef {
    crate::boundary::value("m3DefaultBodyDef", default_body_def(), default_body_def)
}

/// Creates a body.
///
/// # Safety
/// - `def` points to one readable `m3BodyDef`, aligned for its type, for the duration
///   of the call (null is refused with `m3_errorArgument`).
/// - `bodyId` points to one writable `m3BodyId`, aligned for its type, for the duration
///   of the call (null is refused with `m3_errorArgument`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m3Body_Create(
    worldId: m3WorldId,
    def: *const m3BodyDef,
    bodyId: *mut m3BodyId,
) -> m3Result {
    api_on("m3Body_Create", worldId, || {
        let o = out("bodyId", bodyId)?;
        // SAFETY: the host passes a valid def or null.
        let d = unsafe { read_ptr("def", def) }?;
        let ed = engine::BodyDef {
            body_type: body_type(d.r#type)?,
            position: d.position.into(),
            rotation: d.rotation.into(),
            linear_velocity: d.linearVelocity.into(),
            angular_velocity: d.angularVelocity.into(),
            linear_damping: d.linearDamping,
            angular_damping: d.angularDamping,
            gravity_scale: d.gravityScale,
            sleep_threshold: d.sleepThreshold,
            enable_sleep: d.enableSleep,
            is_awake: d.isAwake,
            is_bullet: d.isBullet,
            is_enabled: d.isEnabled,
            motion_locks: locks(d.motionLocks)?,
            custom_integrator: d.customIntegrator,
            user_data: d.userData,
        };
        let id = write(worldId, |e| {
            let id = e.world.create_body(&ed)?;
            Ok(m3BodyId::from_core(id, e.id))
        })?;
        // SAFETY: checked non-null.
        unsafe { put(o, id) };
        Ok(())
    })
}

/// Runs a change of body `id`.
pub(crate) fn set(
    name: &'static str,
    id: m3BodyId,
    f: impl FnOnce(&mut World, BodyId) -> engine::Result<()>,
) -> m3Result {
    api_on(name, id.world, || {
        non_null("bodyId", id)?;
        write(id.world, |e| Ok(f(&mut e.world, id.to_core(e.tag))?))
    })
}

/// Reads a property of body `id` into `o`.
pub(crate) fn get<T, C: From<T>>(
    name: &'static str,
    id: m3BodyId,
    o: *mut C,
    f: impl FnOnce(&World, BodyId) -> engine::Result<T>,
) -> m3Result {
    api_on(name, id.world, || {
        let o = out("output", o)?;
        non_null("bodyId", id)?;
        let v = read(id.world, |e| Ok(f(&e.world, id.to_core(e.tag))?))?;
        // SAFETY: checked non-null.
        unsafe { put(o, C::from(v)) };
        Ok(())
    })
}

/// Destroys a body with its shapes and joints.
#[unsafe(no_mangle)]
pub extern "C" fn m3Body_Destroy(bodyId: m3BodyId) -> m3Result {
    set("m3Body_Destroy", bodyId, |w, b| w.destroy_body(b))
}

/// Whether a body id names a live body (false for any refusal).
#[unsafe(no_mangle)]
pub extern "C" fn m3Body_IsValid(bodyId: m3BodyId) -> bool {
    crate::boundary::value("m3Body_IsValid", false, || {
        read(bodyId.world, |e| {
            Ok(e.world.body_is_valid(bodyId.to_core(e.tag)))
        })
        .unwrap_or(false)
    })
}

/// The body's shapes, in shape slot order: up to `capacity` of them into `ids`, and how
/// many it has (which may exceed the capacity) into `count`. A capacity of 0 (and a null
/// `ids`) only counts them.
///
/// # Safety
/// - `ids` points to `capacity` writable `m3ShapeId` items, aligned, for the duration
///   of the call (they may be uninitialised; null only with `capacity` 0).
/// - `count` points to one writable `i32`, aligned for its type, for the duration of
///   the call (null is refused with `m3_errorArgument`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m3Body_GetShapes(
    bodyId: m3BodyId,
    ids: *mut m3ShapeId,
    capacity: i32,
    count: *mut i32,
) -> m3Result {
    api_on("m3Body_GetShapes", bodyId.world, || {
        let o = out("count", count)?;
        let arr = OutArray::new("ids", ids, capacity)?;
        non_null("bodyId", bodyId)?;
        let n = read(bodyId.world, |e| {
            let mut n = 0;
            for s in e.world.body_shapes(bodyId.to_core(e.tag))? {
                // SAFETY: within the host's capacity.
                unsafe { arr.set(n, m3ShapeId::from_core(s, e.id)) };
                n += 1;
            }
            Ok(n)
        })?;
        // SAFETY: checked non-null.
        unsafe { put(o, to_i32(n)) };
        Ok(())
    })
}

/// The body's type.
///
/// # Safety
/// `type` points to one writable `m3BodyType`, aligned for its type, for the duration
/// of the call (null is refused with `m3_errorArgument`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m3Body_GetType(bodyId: m3BodyId, r#type: *mut m3BodyType) -> m3Result {
    get("m3Body_GetType", bodyId, r#type, |w, b| {
        w.body_type(b).map(c_body_type)
    })
}

/// The body origin's position, relative to the world origin.
///
/// # Safety
/// `position` points to one writable `m3DVec3`, aligned for its type, for the duration
/// of the call (null is refused with `m3_errorArgument`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m3Body_GetPosition(bodyId: m3BodyId, position: *mut m3DVec3) -> m3Result {
    get("m3Body_GetPosition", bodyId, position, |w, b| {
        w.body_position(b)
    })
}

/// The body's rotation.
///
/// # Safety
/// `rotation` points to one writable `m3Quat`, aligned for its type, for the duration
/// of the call (null is refused with `m3_errorArgument`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m3Body_GetRotation(bodyId: m3BodyId, rotation: *mut m3Quat) -> m3Result {
    get("m3Body_GetRotation", bodyId, rotation, |w, b| {
        w.body_rotation(b)
    })
}

/// The centre of mass, relative to the world origin.
///
/// # Safety
/// `center` points to one writable `m3DVec3`, aligned for its type, for the duration of
/// the call (null is refused with `m3_errorArgument`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m3Body_GetWorldCenterOfMass(
    bodyId: m3BodyId,
    center: *mut m3DVec3,
) -> m3Result {
    get("m3Body_GetWorldCenterOfMass", bodyId, center, |w, b| {
        w.body_center_of_mass(b)
    })
}

/// The velocity of the centre of mass.
///
/// # Safety
/// `velocity` points to one writable `m3Vec3`, aligned for its type, for the duration
/// of the call (null is refused with `m3_errorArgument`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m3Body_GetLinearVelocity(
    bodyId: m3BodyId,
    velocity: *mut m3Vec3,
) -> m3Result {
    get("m3Body_GetLinearVelocity", bodyId, velocity, |w, b| {
        w.body_linear_velocity(b)
    })
}

/// The angular velocity.
///
/// # Safety
/// `velocity` points to one writable `m3Vec3`, aligned for its type, for the duration
/// of the call (null is refused with `m3_errorArgument`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m3Body_GetAngularVelocity(
    bodyId: m3BodyId,
    velocity: *mut m3Vec3,
) -> m3Result {
    get("m3Body_GetAngularVelocity", bodyId, velocity, |w, b| {
        w.body_angular_velocity(b)
    })
}

/// Mass, centre of mass (body frame) and inertia about it.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct m3MassData {
    /// Mass, kg.
    pub mass: f32,
    /// Centre of mass in the body frame.
    pub center: m3Vec3,
    /// Rotational inertia about the centre of mass, body axes.
    pub inertia: m3Mat3,
}

impl From<engine::MassData> for m3MassData {
    fn from(m: engine::MassData) -> m3MassData {
        m3MassData {
            mass: m.mass,
            center: m.center.into(),
            inertia: m.inertia.into(),
        }
    }
}

/// The body's mass data.
///
/// # Safety
/// `massData` points to one writable `m3MassData`, aligned for its type, for the
/// duration of the call (null is refused with `m3_errorArgument`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m3Body_GetMassData(
    bodyId: m3BodyId,
    massData: *mut m3MassData,
) -> m3Result {
    get("m3Body_GetMassData", bodyId, massData, |w, b| {
        w.body_mass_data(b)
    })
}

/// Overrides mass, centre of mass and inertia; a null `massData` goes back to the
/// shapes' mass.
///
/// # Safety
/// `massData` is null (back to the shapes' mass) or points to one readable
/// `m3MassData`, aligned for its type, for the duration of the call.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m3Body_SetMassData(
    bodyId: m3BodyId,
    massData: *const m3MassData,
) -> m3Result {
    let data = if massData.is_null() {
        None
    } else {
        // SAFETY: non-null; the host promises a valid value.
        let m = unsafe { massData.read() };
        Some(engine::MassData {
            mass: m.mass,
            center: m.center.into(),
            inertia: m.inertia.into(),
        })
    };
    set("m3Body_SetMassData", bodyId, |w, b| {
        w.set_body_mass_data(b, data)
    })
}

/// Whether the body is awake.
///
/// # Safety
/// `awake` points to one writable `bool`, aligned for its type, for the duration of the
/// call (null is refused with `m3_errorArgument`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m3Body_IsAwake(bodyId: m3BodyId, awake: *mut bool) -> m3Result {
    get("m3Body_IsAwake", bodyId, awake, |w, b| w.body_is_awake(b))
}

/// Whether the body is enabled.
///
/// # Safety
/// `enabled` points to one writable `bool`, aligned for its type, for the duration of
/// the call (null is refused with `m3_errorArgument`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m3Body_IsEnabled(bodyId: m3BodyId, enabled: *mut bool) -> m3Result {
    get("m3Body_IsEnabled", bodyId, enabled, |w, b| {
        w.body_is_enabled(b)
    })
}

/// The body's host data.
///
/// # Safety
/// `userData` points to one writable `u64`, aligned for its type, for the duration of
/// the call (null is refused with `m3_errorArgument`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m3Body_GetUserData(bodyId: m3BodyId, userData: *mut u64) -> m3Result {
    get("m3Body_GetUserData", bodyId, userData, |w, b| {
        w.body_user_data(b)
    })
}

/// Sets the body's host data (not state: never hashed).
#[unsafe(no_mangle)]
pub extern "C" fn m3Body_SetUserData(bodyId: m3BodyId, userData: u64) -> m3Result {
    set("m3Body_SetUserData", bodyId, |w, b| {
        w.set_body_user_data(b, userData)
    })
}

/// Teleports the body.
#[unsafe(no_mangle)]
pub extern "C" fn m3Body_SetTransform(
    bodyId: m3BodyId,
    position: m3DVec3,
    rotation: m3Quat,
) -> m3Result {
    set("m3Body_SetTransform", bodyId, |w, b| {
        w.set_body_transform(b, position.into(), rotation.into())
    })
}

/// Moves a kinematic body so that it reaches the target after `timeStep` seconds.
#[unsafe(no_mangle)]
pub extern "C" fn m3Body_SetTargetTransform(
    bodyId: m3BodyId,
    position: m3DVec3,
    rotation: m3Quat,
    timeStep: f32,
) -> m3Result {
    set("m3Body_SetTargetTransform", bodyId, |w, b| {
        w.set_body_target_transform(b, position.into(), rotation.into(), timeStep)
    })
}

/// Sets the linear velocity.
#[unsafe(no_mangle)]
pub extern "C" fn m3Body_SetLinearVelocity(bodyId: m3BodyId, velocity: m3Vec3) -> m3Result {
    set("m3Body_SetLinearVelocity", bodyId, |w, b| {
        w.set_body_linear_velocity(b, velocity.into())
    })
}

/// Sets the angular velocity.
#[unsafe(no_mangle)]
pub extern "C" fn m3Body_SetAngularVelocity(bodyId: m3BodyId, velocity: m3Vec3) -> m3Result {
    set("m3Body_SetAngularVelocity", bodyId, |w, b| {
        w.set_body_angular_velocity(b, velocity.into())
    })
}

/// Applies a force at the centre of mass until the next step ends.
#[unsafe(no_mangle)]
pub extern "C" fn m3Body_ApplyForceToCenter(bodyId: m3BodyId, force: m3Vec3) -> m3Result {
    set("m3Body_ApplyForceToCenter", bodyId, |w, b| {
        w.apply_force_to_center(b, force.into())
    })
}

/// Applies a force at a world point (relative to the world origin).
#[unsafe(no_mangle)]
pub extern "C" fn m3Body_ApplyForce(bodyId: m3BodyId, force: m3Vec3, point: m3DVec3) -> m3Result {
    set("m3Body_ApplyForce", bodyId, |w, b| {
        w.apply_force(b, force.into(), point.into())
    })
}

/// Applies a torque.
#[unsafe(no_mangle)]
pub extern "C" fn m3Body_ApplyTorque(bodyId: m3BodyId, torque: m3Vec3) -> m3Result {
    set("m3Body_ApplyTorque", bodyId, |w, b| {
        w.apply_torque(b, torque.into())
    })
}

/// Applies an impulse at a world point.
#[unsafe(no_mangle)]
pub extern "C" fn m3Body_ApplyLinearImpulse(
    bodyId: m3BodyId,
    impulse: m3Vec3,
    point: m3DVec3,
) -> m3Result {
    set("m3Body_ApplyLinearImpulse", bodyId, |w, b| {
        w.apply_linear_impulse(b, impulse.into(), point.into())
    })
}

/// Applies an impulse at the centre of mass.
#[unsafe(no_mangle)]
pub extern "C" fn m3Body_ApplyLinearImpulseToCenter(bodyId: m3BodyId, impulse: m3Vec3) -> m3Result {
    set("m3Body_ApplyLinearImpulseToCenter", bodyId, |w, b| {
        w.apply_linear_impulse_to_center(b, impulse.into())
    })
}

/// Applies an angular impulse.
#[unsafe(no_mangle)]
pub extern "C" fn m3Body_ApplyAngularImpulse(bodyId: m3BodyId, impulse: m3Vec3) -> m3Result {
    set("m3Body_ApplyAngularImpulse", bodyId, |w, b| {
        w.apply_angular_impulse(b, impulse.into())
    })
}

/// Changes the body's type.
#[unsafe(no_mangle)]
pub extern "C" fn m3Body_SetType(bodyId: m3BodyId, r#type: m3BodyType) -> m3Result {
    match body_type(r#type) {
        Ok(t) => set("m3Body_SetType", bodyId, |w, b| w.set_body_type(b, t)),
        Err(_) => set("m3Body_SetType", bodyId, |_, _| {
            Err(engine::Error::Argument {
                name: "body type",
                value: r#type as f64,
                expected: "within [0, 2] (m3_staticBody, m3_kinematicBody, m3_dynamicBody)",
            })
        }),
    }
}

/// Enables or disables the body.
#[unsafe(no_mangle)]
pub extern "C" fn m3Body_SetEnabled(bodyId: m3BodyId, enabled: bool) -> m3Result {
    set("m3Body_SetEnabled", bodyId, |w, b| {
        w.set_body_enabled(b, enabled)
    })
}

/// Wakes the body (and its island) or puts it to sleep.
#[unsafe(no_mangle)]
pub extern "C" fn m3Body_SetAwake(bodyId: m3BodyId, awake: bool) -> m3Result {
    set("m3Body_SetAwake", bodyId, |w, b| w.set_body_awake(b, awake))
}

/// Wakes every sleeping dynamic body (and its island) that has a contact with the body
/// (its shapes' fat bounds overlap the body's as of the last step), as Box2D's
/// `b2Body_WakeTouching`: call it after giving a kinematic platform a velocity, so that
/// what sleeps on it moves with it (setting a velocity wakes that body only). Journaled.
#[unsafe(no_mangle)]
pub extern "C" fn m3Body_WakeTouching(bodyId: m3BodyId) -> m3Result {
    set("m3Body_WakeTouching", bodyId, |w, b| {
        w.wake_bodies_touching(b)
    })
}

/// Whether the body may sleep.
#[unsafe(no_mangle)]
pub extern "C" fn m3Body_EnableSleep(bodyId: m3BodyId, enable: bool) -> m3Result {
    set("m3Body_EnableSleep", bodyId, |w, b| {
        w.set_body_sleep_enabled(b, enable)
    })
}

/// Speed under which the body may sleep, m/s.
#[unsafe(no_mangle)]
pub extern "C" fn m3Body_SetSleepThreshold(bodyId: m3BodyId, threshold: f32) -> m3Result {
    set("m3Body_SetSleepThreshold", bodyId, |w, b| {
        w.set_body_sleep_threshold(b, threshold)
    })
}

/// Linear and angular damping, 1/s.
#[unsafe(no_mangle)]
pub extern "C" fn m3Body_SetDamping(bodyId: m3BodyId, linear: f32, angular: f32) -> m3Result {
    set("m3Body_SetDamping", bodyId, |w, b| {
        w.set_body_damping(b, linear, angular)
    })
}

/// Gravity scale.
#[unsafe(no_mangle)]
pub extern "C" fn m3Body_SetGravityScale(bodyId: m3BodyId, scale: f32) -> m3Result {
    set("m3Body_SetGravityScale", bodyId, |w, b| {
        w.set_body_gravity_scale(b, scale)
    })
}

/// Motion locks (`m3_lock*` bits).
#[unsafe(no_mangle)]
pub extern "C" fn m3Body_SetMotionLocks(bodyId: m3BodyId, motionLocks: m3MotionLocks) -> m3Result {
    let l = locks(motionLocks);
    set("m3Body_SetMotionLocks", bodyId, |w, b| match l {
        Ok(l) => w.set_body_motion_locks(b, l),
        Err(_) => Err(engine::Error::Argument {
            name: "motion locks",
            value: motionLocks as f64,
            expected: "within [0, 63] (m3_lock* bits)",
        }),
    })
}

/// Whether the body skips gravity and damping.
#[unsafe(no_mangle)]
pub extern "C" fn m3Body_SetCustomIntegrator(bodyId: m3BodyId, custom: bool) -> m3Result {
    set("m3Body_SetCustomIntegrator", bodyId, |w, b| {
        w.set_body_custom_integrator(b, custom)
    })
}

/// Continuous collision against everything.
#[unsafe(no_mangle)]
pub extern "C" fn m3Body_SetBullet(bodyId: m3BodyId, bullet: bool) -> m3Result {
    set("m3Body_SetBullet", bodyId, |w, b| {
        w.set_body_bullet(b, bullet)
    })
}
