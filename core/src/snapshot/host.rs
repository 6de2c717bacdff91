//! Host data: the user data of live bodies, shapes and joints. It follows the state in a
//! snapshot but is not hashed.

use crate::body::Body;
use crate::codec::{Enc, Sink};
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
