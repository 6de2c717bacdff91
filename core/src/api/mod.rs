//! The public API in one layer: every public call that changes a world is here, as
//! validate → apply → record.
//!
//! Each call hands its arguments to its subsystem's crate-private `*_unrecorded` function
//! (`body.rs`, `shape.rs`, `content.rs`, `explosion.rs`, `joint/lifecycle.rs`,
//! `joint/setters.rs`, `world.rs`), which validates them (bad input gets an error naming
//! the value and its bound, and changes nothing) and applies them; once that succeeded,
//! the call records itself on the journal's tape with one line,
//! `self.rec(|j| j.set_gravity(gravity))`, through the op table's typed writer
//! (`journal/ops.rs`). Subsystem code never names the journal: `rec` is private to this
//! layer, so the compiler refuses a record anywhere else, and `tests.rs` reads the core's
//! sources and fails if a file outside `api/` and `journal/` names the journal, or if a
//! public method taking `&mut World` lives outside `api/` without a reason on its list. A
//! replay (`journal/ops.rs`) calls these same public methods, so it validates and records
//! exactly as the original calls did.
//!
//! A record is written after its call succeeded, so refused calls never reach the tape;
//! an accepted call that changes nothing (a velocity for a static body, a type the body
//! already has) is still recorded. A record holds only the call's arguments and the ids
//! it handed out, and nothing in an apply reads the journal, so recording after the
//! apply writes the bytes recording before it did. Calls that only forward to another
//! public call (`set_body_linear_velocity`, `set_body_target_transform`,
//! `apply_linear_impulse_to_center`, `create_box_shape`, `create_voxel_shape`,
//! `clear_voxel`) are recorded as the call they make.
//!
//! Not recorded, and not here: starting, stopping and replaying a journal
//! (`journal/mod.rs`), the pre-solve callback (`presolve.rs`: host code, not state; a
//! step records what it decided) and the solver's one-at-a-time test switch
//! (`world.rs`: the same bits either way).
//!
//! | file | calls |
//! | --- | --- |
//! | `body.rs` | bodies: create and destroy, pose and velocities, forces and impulses, type, enabled, awake, sleep, damping, gravity scale, locks, custom integrator, bullet, mass, user data |
//! | `shape.rs` | shapes of every kind on a body (one `create_shape` record), convex hulls, material, density, filter, area |
//! | `content.rs` | triangle meshes, height fields and voxel grids, voxel edits, mesh and voxel shapes |
//! | `joint.rs` | joints created and destroyed, every joint setter, the world's joint damping ratio |
//! | `character.rs` | characters created and destroyed, moved, their settings |
//! | `vehicle.rs` | vehicles created and destroyed, their input and settings |
//! | `water.rs` | water volumes created and destroyed, their settings |
//! | `world.rs` | gravity, sleep, the step (with the contacts its pre-solve callback disabled), origin shift, explosions |
//! | `snapshot.rs` | snapshot and restore: a snapshot closes with the journal's section, a restore rewinds a running tape (not recorded) |
//! | `tests.rs` | the layer's rules, checked on the core's sources |

mod body;
mod character;
mod content;
mod joint;
mod shape;
mod snapshot;
mod soft;
mod vehicle;
mod water;
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
