//! Host data: the user data of live bodies, shapes and joints. It follows the state in a
//! snapshot but is not hashed.

use crate::body::Body;
use crate::codec::{Dec, Enc, Sink};
use crate::error::Result;
use crate::joint::Joint;
use crate::shape::Shape;

/// User data of live bodies, then of live shapes, then of live joints, in slot order.
pub(super) fn encode_host_data<S: Sink>(
    e: &mut Enc<S>,
    bodies: &[Body],
    shapes: &[Shape],
    joints: &[Joint],
) {
    for b in bodies.iter().filter(|b| b.alive) {
        e.u64(b.user_data);
    }
    for s in shapes.iter().filter(|s| s.alive) {
        e.u64(s.user_data);
    }
    for j in joints.iter().filter(|j| j.alive) {
        e.u64(j.user_data);
    }
}

/// Reads what `encode_host_data` wrote into the pools (on commit, which hold the decoded
/// slots by then); `*_live` are the pools' slot words (bit 0: live).
pub(super) fn decode_host_data(
    d: &mut Dec,
    commit: bool,
    (bodies, body_live): (&mut [Body], &[u64]),
    (shapes, shape_live): (&mut [Shape], &[u64]),
    (joints, joint_live): (&mut [Joint], &[u64]),
) -> Result<()> {
    for (i, w) in body_live.iter().enumerate() {
        if w & 1 == 1 {
            let v = d.u64()?;
            if commit {
                bodies[i].user_data = v;
            }
        }
    }
    for (i, w) in shape_live.iter().enumerate() {
        if w & 1 == 1 {
            let v = d.u64()?;
            if commit {
                shapes[i].user_data = v;
            }
        }
    }
    for (i, w) in joint_live.iter().enumerate() {
        if w & 1 == 1 {
            let v = d.u64()?;
            if commit {
                joints[i].user_data = v;
            }
        }
    }
    Ok(())
}
