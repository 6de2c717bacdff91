//! The joint pool's part of the state encoding.

use crate::codec::{Enc, Sink};
use crate::joint::{Joint, encode_impulses, encode_kind, encode_transform};

/// Every joint slot (generation, alive; a live joint's bodies, frames, settings, kind,
/// broken flag, impulses and last reactions), then the free list. Edges are derived.
pub(super) fn encode_joints<S: Sink>(e: &mut Enc<S>, joints: &[Joint], free: &[u32]) {
    e.u32(joints.len() as u32);
    for j in joints.iter() {
        e.u32(j.generation);
        e.bool(j.alive);
        if !j.alive {
            continue;
        }
        e.u32(j.body_a);
        e.u32(j.body_b);
        encode_transform(e, &j.frame_a);
        encode_transform(e, &j.frame_b);
        e.bool(j.collide_connected);
        e.f32(j.break_force);
        e.f32(j.break_torque);
        encode_kind(e, &j.kind);
        e.bool(j.broken);
        encode_impulses(e, &j.kind, &j.impulses);
        e.vec3(j.reaction_force);
        e.vec3(j.reaction_torque);
    }
    e.free_list(free);
}
