//! The public API in one layer: every public call that changes a world's state is here,
//! as validate → apply → record.
//!
//! Each call hands its arguments to its subsystem's crate-private `*_unrecorded` function
//! (in `body.rs`, `shape.rs`, `content.rs`, `explosion.rs`, `joint/`, `world.rs`), which
//! validates them (refusing bad input with an error, nothing changed) and applies them;
//! once that succeeded, the call records itself on the journal's tape through one of the
//! op table's typed writers (`crate::journal`, `ops.rs`). Subsystem code never names the
//! journal: only this layer records (`rec` is private to it), and only it and
//! `crate::journal` name the journal (the test in `tests.rs` keeps it so). A replay
//! (`journal/ops.rs`) calls these same public methods, so it validates and records
//! exactly as the original calls did.
//!
//! A record is written after its call succeeded, so refused calls never reach the tape;
//! an accepted call that changes nothing (a velocity for a static body, a type the body
//! already has) is still recorded. Calls that only forward to another public call
//! (`set_body_linear_velocity`, `apply_linear_impulse_to_center`, `create_box_shape`,
//! `clear_voxel`, …) are recorded as the call they make.
//!
//! | file | calls |
//! |------|-------|
//! | `body.rs` | bodies: create, destroy, pose, velocity, forces and impulses, type, sleep, settings |

mod body;
mod content;
mod joint;
mod shape;
mod snapshot;
mod world;

use crate::journal::Journal;
use crate::world::World;

/// What a world records with (its `recorder`): the journal, if one was started (not
/// state).
pub(crate) type Recorder = Option<Journal>;

impl World {
    /// Records a call that succeeded, through one of the op table's typed writers
    /// (`journal/ops.rs`), if a journal runs: `self.rec(|j| j.destroy_body(id))`. Private
    /// to the API layer.
    fn rec(&mut self, write: impl FnOnce(&mut Journal)) {
        if let Some(j) = self.recorder.as_mut() {
            write(j);
        }
    }
}

#[cfg(test)]
mod tests;
