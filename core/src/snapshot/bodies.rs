//! The body pool's part of the state encoding.

use crate::body::Body;
use crate::codec::{Enc, Sink};

/// Every body slot (generation, alive; a live body's motion state and settings), then
/// the free list. Mass, inertia and the shape, contact and joint lists are derived.
pub(super) fn encode_bodies<S: Sink>(e: &mut Enc<S>, bodies: &[Body], free: &[u32]) {
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
