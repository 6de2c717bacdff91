//! The body pool's part of the state encoding: encode, decode, and the body data rebuilt
//! after a restore (lists, mass).

use crate::alloc::FixedVec;
use crate::body::{Body, BodyDef, BodyType, MotionLocks, NONE};
use crate::codec::{Dec, Enc, Sink, check, decode_free_list, put_slot};
use crate::error::{Error, Result};
use crate::geometry::MassData;
use crate::limits::{
    MAX_FORCE, MAX_GRAVITY, MAX_SETTING, MAX_VELOCITY, check_abs, check_nonneg, check_vec_abs,
};
use crate::math::{POSITION_LIMIT, Vec3};
use crate::world::World;

/// Every body slot (generation, alive; a live body's motion state and settings), then
/// the free list. Mass, inertia and the shape, contact and joint lists are derived.
pub(crate) fn encode_bodies<S: Sink>(e: &mut Enc<S>, bodies: &[Body], free: &[u32]) {
    e.u32(bodies.len() as u32);
    for b in bodies.iter() {
        e.u32(b.generation);
        e.bool(b.alive);
        if !b.alive {
            continue;
        }
        e.u8(b.body_type as u8);
        e.bool(b.enabled);
        e.bool(b.awake);
        e.bool(b.enable_sleep);
        e.bool(b.bullet);
        e.u8(b.locks.bits());
        e.bool(b.custom_integrator);
        e.dvec3(b.position);
        e.quat(b.rotation);
        e.vec3(b.linear_velocity);
        e.vec3(b.angular_velocity);
        e.vec3(b.force);
        e.vec3(b.torque);
        e.f32(b.linear_damping);
        e.f32(b.angular_damping);
        e.f32(b.gravity_scale);
        e.f32(b.sleep_threshold);
        e.f32(b.sleep_time);
        match &b.mass_override {
            Some(m) => {
                e.u8(1);
                e.f32(m.mass);
                e.vec3(m.center);
                e.mat3(&m.inertia);
            }
            None => e.u8(0),
        }
    }
    e.free_list(free);
}

/// Reads what `encode_bodies` wrote, checked as the calls check their input, into the
/// pool (on commit); returns the slot count. Leaves in `info` per slot: bit 0 live, bit 1
/// static (a plane shape needs it).
pub(crate) fn decode_bodies(
    d: &mut Dec,
    commit: bool,
    bodies: &mut FixedVec<Body>,
    free: &mut FixedVec<u32>,
    info: &mut [u64],
) -> Result<usize> {
    let len = d.u32()? as usize;
    crate::error::check_fits("body_capacity", len as u64, info.len() as u64)?;
    for (i, word) in info[..len].iter_mut().enumerate() {
        let generation = d.u32()?;
        let alive = d.bool()?;
        let mut b = Body::from_def(&BodyDef::default(), generation);
        b.alive = alive;
        if alive {
            decode_body(d, &mut b)?;
            *word = if b.body_type == BodyType::Static {
                3
            } else {
                1
            };
        }
        if commit {
            put_slot(bodies, i, b);
        }
    }
    decode_free_list(d, &mut info[..len], commit, free)?;
    if commit {
        bodies.truncate(len);
    }
    Ok(len)
}

/// A live body's fields.
fn decode_body(d: &mut Dec, b: &mut Body) -> Result<()> {
    b.body_type = match d.u8()? {
        0 => BodyType::Static,
        1 => BodyType::Kinematic,
        2 => BodyType::Dynamic,
        _ => return Err(Error::Format("unknown body type")),
    };
    b.enabled = d.bool()?;
    b.awake = d.bool()?;
    b.enable_sleep = d.bool()?;
    b.bullet = d.bool()?;
    let locks = d.u8()?;
    check(locks < 64, "unknown motion lock bits")?;
    b.locks = MotionLocks::from_bits(locks);
    b.custom_integrator = d.bool()?;
    b.position = d.dvec3()?;
    check(
        b.position.max_abs() < POSITION_LIMIT,
        "body position beyond 2^22",
    )?;
    b.rotation = d.quat()?;
    check(
        b.rotation.is_normalized(1e-3),
        "body rotation is not a unit quaternion",
    )?;
    b.linear_velocity = d.vec3()?;
    b.angular_velocity = d.vec3()?;
    b.force = d.vec3()?;
    b.torque = d.vec3()?;
    b.linear_damping = d.f32()?;
    b.angular_damping = d.f32()?;
    b.gravity_scale = d.f32()?;
    b.sleep_threshold = d.f32()?;
    b.sleep_time = d.f32()?;
    // The ranges the calls accept (crate::limits), so a restored state steps without
    // overflow like any other.
    let in_range = |v: Vec3, bound: f32| check_vec_abs("", v, bound, "").is_ok();
    check(
        in_range(b.linear_velocity, MAX_VELOCITY)
            && in_range(b.angular_velocity, MAX_VELOCITY)
            && in_range(b.force, MAX_FORCE)
            && in_range(b.torque, MAX_FORCE)
            && check_nonneg("", b.linear_damping, MAX_SETTING, "").is_ok()
            && check_nonneg("", b.angular_damping, MAX_SETTING, "").is_ok()
            && check_abs("", b.gravity_scale, MAX_GRAVITY, "").is_ok()
            && check_nonneg("", b.sleep_threshold, MAX_SETTING, "").is_ok()
            && b.sleep_time >= 0.0,
        "body velocity, force, damping or threshold out of range",
    )?;
    b.mass_override = if d.bool()? {
        let m = MassData {
            mass: d.f32()?,
            center: d.vec3()?,
            inertia: d.mat3()?,
        };
        crate::limits::check_mass_data(&m).map_err(|_| Error::Format("mass override invalid"))?;
        Some(m)
    } else {
        None
    };
    Ok(())
}

/// First of the rebuild: every body's shape, contact and joint list empty, for the other
/// stores to link themselves in.
pub(crate) fn clear_body_lists(bodies: &mut [Body]) {
    for b in bodies.iter_mut() {
        b.shape_head = NONE;
        b.shape_count = 0;
        b.contact_head = NONE;
        b.contact_count = 0;
        b.joint_head = NONE;
        b.joint_count = 0;
    }
}

/// After the shapes are linked: each live body's mass, centre, inertia and extents.
/// Returns how many bodies live.
pub(crate) fn rebuild_bodies(w: &mut World) -> u32 {
    let mut count = 0;
    for b in 0..w.bodies.len() {
        if w.bodies[b].alive {
            count += 1;
            w.compute_body_mass(b as u32);
        }
    }
    count
}
