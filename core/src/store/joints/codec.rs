//! The joint pool's part of the state encoding: encode, decode, and the body edges
//! rebuilt after a restore.

use crate::alloc::FixedVec;
use crate::codec::{Dec, Enc, Sink, check, decode_free_list, put_slot};
use crate::error::Result;
use crate::joint::{
    Joint, decode_impulses, decode_kind, decode_transform, encode_impulses, encode_kind,
    encode_transform,
};
use crate::snapshot::is_live;
use crate::world::World;

/// Every joint slot (generation, alive; a live joint's bodies, frames, settings, kind, own
/// pivot softness,
/// broken flag, impulses and last reactions), then the free list. Edges are derived.
pub(crate) fn encode_joints<S: Sink>(e: &mut Enc<S>, joints: &[Joint], free: &[u32]) {
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
        // Bit 0: collide connected; bit 1: an own pivot softness, its numbers after the
        // kind (a byte that was a plain flag before, so worlds without one encode as then).
        let pivot = j.pivot_hertz > 0.0;
        e.u8(j.collide_connected as u8 | (pivot as u8) << 1);
        e.f32(j.break_force);
        e.f32(j.break_torque);
        encode_kind(e, &j.kind);
        if pivot {
            e.f32(j.pivot_hertz);
            e.f32(j.pivot_damping_ratio);
        }
        e.bool(j.broken);
        encode_impulses(e, &j.kind, &j.impulses);
        e.vec3(j.reaction_force);
        e.vec3(j.reaction_torque);
    }
    e.free_list(free);
}

/// Reads what `encode_joints` wrote, checked as the joint calls check their input, into
/// the pool (on commit); returns the slot count. `bodies`: the bodies' slot words (see
/// `decode_bodies`). Leaves in `info` bit 0 for live slots.
pub(crate) fn decode_joints(
    d: &mut Dec,
    commit: bool,
    joints: &mut FixedVec<Joint>,
    free: &mut FixedVec<u32>,
    info: &mut [u64],
    bodies: &[u64],
) -> Result<usize> {
    let len = d.u32()? as usize;
    crate::error::check_fits("joint_capacity", len as u64, info.len() as u64)?;
    for (i, word) in info[..len].iter_mut().enumerate() {
        let generation = d.u32()?;
        let alive = d.bool()?;
        let mut j = Joint::dead(generation);
        if alive {
            j.alive = true;
            j.body_a = d.u32()?;
            j.body_b = d.u32()?;
            check(
                is_live(bodies, j.body_a) && is_live(bodies, j.body_b) && j.body_a != j.body_b,
                "joint on a missing body, or on one body twice",
            )?;
            j.frame_a = decode_transform(d)?;
            j.frame_b = decode_transform(d)?;
            let flags = d.u8()?;
            check(flags <= 3, "a joint's flags byte has unknown bits")?;
            j.collide_connected = flags & 1 != 0;
            j.break_force = d.f32()?;
            j.break_torque = d.f32()?;
            j.kind = decode_kind(d)?;
            if flags & 2 != 0 {
                j.pivot_hertz = d.f32()?;
                j.pivot_damping_ratio = d.f32()?;
                check(j.pivot_hertz > 0.0, "a joint's own pivot softness of 0 Hz")?;
            }
            j.broken = d.bool()?;
            j.impulses = decode_impulses(d, &j.kind)?;
            j.reaction_force = d.vec3()?;
            j.reaction_torque = d.vec3()?;
            crate::joint::check_decoded(&j)?;
            *word = 1;
        }
        if commit {
            put_slot(joints, i, j);
        }
    }
    decode_free_list(d, &mut info[..len], commit, free)?;
    if commit {
        joints.truncate(len);
    }
    Ok(len)
}

/// After the bodies' lists are cleared: each live joint's body edges. Returns how many
/// joints live.
pub(crate) fn rebuild_joints(w: &mut World) -> u32 {
    let mut count = 0;
    for j in 0..w.joints.len() {
        if w.joints[j].alive {
            count += 1;
            w.link_joint(j as u32);
        }
    }
    count
}
