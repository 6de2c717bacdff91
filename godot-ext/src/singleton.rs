//! The `Maul3D` engine singleton: what GDScript needs beyond the server interface.

use std::sync::atomic::{AtomicBool, Ordering};

use godot::classes::file_access::ModeFlags;
use godot::classes::{FileAccess, PhysicsServer3D};
use godot::prelude::*;

use crate::Maul3DPhysicsServer;
use crate::records::Records;

static SERVER_ACTIVE: AtomicBool = AtomicBool::new(false);

/// Set by the server when Godot initialises it (and cleared when Godot finishes it).
pub(crate) fn set_server_active(active: bool) {
    SERVER_ACTIVE.store(active, Ordering::SeqCst);
}

/// The running Maul3D server, if Maul3D is Godot's physics server.
pub(crate) fn server() -> Option<Gd<Maul3DPhysicsServer>> {
    if !SERVER_ACTIVE.load(Ordering::SeqCst) {
        return None;
    }
    PhysicsServer3D::singleton()
        .try_cast::<Maul3DPhysicsServer>()
        .ok()
}

/// What GDScript needs of Maul3D beyond Godot's physics server interface: whether Maul3D
/// runs, the state hash of a space, snapshots and restores, journals saved as replay files,
/// stepping a space now (rollback netcode) and comparing two spaces.
///
/// A space is a `World3D.space` RID. The state hash and snapshots are the same on every
/// machine for the same inputs: compare hashes between peers to find a desync, restore a
/// snapshot to roll back. See also `Maul3DRollback`, `Maul3DRecorder` and
/// `Maul3DReplayPlayer`.
#[derive(GodotClass)]
#[class(init, singleton, base = Object)]
pub struct Maul3D {
    base: Base<Object>,
}

#[godot_api]
impl Maul3D {
    /// Whether Maul3D is the physics server Godot is running.
    #[func]
    pub fn is_active(&self) -> bool {
        server().is_some()
    }

    /// The state hash (FNV-1a-64 over the canonical snapshot encoding) of a space's
    /// world, as a signed 64-bit integer; 0 when the RID is no Maul3D space.
    #[func]
    pub fn space_hash(&self, space: Rid) -> i64 {
        let Some(server) = server() else {
            godot_error!("Maul3D.space_hash: Maul3D is not the running physics server");
            return 0;
        };
        let s = server.bind();
        match s.st.spaces.get(&space.to_u64()) {
            Some(sp) => sp.world.hash() as i64,
            None => {
                godot_error!("Maul3D.space_hash: {space} is not a Maul3D space");
                0
            }
        }
    }

    /// The number of steps a space's world has taken (0 for an unknown RID).
    #[func]
    pub fn space_step_count(&self, space: Rid) -> i64 {
        with_state(|st| {
            st.space(space.to_u64())
                .map(|s| s.world.step_count() as i64)
        })
        .unwrap_or(0)
    }

    /// How many stages Maul3D has handed to Godot's WorkerThreadPool as group tasks
    /// (spaces created with `physics/maul3d/use_worker_thread_pool`, the default).
    #[func]
    pub fn worker_pool_group_count(&self) -> i64 {
        crate::tasks::group_count() as i64
    }

    /// One step of a space's world by `delta` seconds, now, whatever Godot's own step
    /// does: then the space's flush runs at once, as Godot's `flush_queries` would after
    /// its step — state-sync callbacks (rigid body nodes move), force-integration
    /// callbacks (`_integrate_forces`), and the areas' monitor callbacks (`Area3D`
    /// overlaps and signals) — with signals blocked if the space blocks them
    /// (`set_space_block_signals`). This is how rollback netcode resimulates ticks inside
    /// one frame; a space in manual step mode (`set_space_manual_step`) is stepped only
    /// so. Runs while Godot's physics is paused too. False (with an error, nothing
    /// stepped) for an unknown space, a `delta` that is not finite or not in (0, 1], or
    /// a call from inside a physics callback of a flush.
    #[func]
    pub fn step_space(&self, space: Rid, delta: f64) -> bool {
        step_space(space, delta)
    }

    /// Takes a space out of Godot's automatic step (`manual` true) or puts it back
    /// (false). In manual step mode Godot's physics frames leave the space's world alone
    /// and only `step_space` steps it, so a netcode addon owns every step; queries, body
    /// calls and `move_and_slide` work as always. False (with an error) for an unknown
    /// space.
    #[func]
    pub fn set_space_manual_step(&self, space: Rid, manual: bool) -> bool {
        let r = with_state_mut(|st| {
            st.spaces
                .get_mut(&space.to_u64())
                .map(|s| s.manual_step = manual)
                .ok_or_else(|| format!("{space} is not a Maul3D space"))
        });
        report("set_space_manual_step", r).is_some()
    }

    /// Whether a space is in manual step mode (false for an unknown RID).
    #[func]
    pub fn is_space_manual_step(&self, space: Rid) -> bool {
        with_state(|st| st.space(space.to_u64()).map(|s| s.manual_step)).unwrap_or(false)
    }

    /// While `block` is true, every callback a flush of the space runs (after a step,
    /// `step_space` or `restore`) runs with its node's signals blocked: rigid bodies
    /// still move and keep their contact lists, areas still track what overlaps them,
    /// `_integrate_forces` still runs, but no `body_entered`, `body_exited`,
    /// `sleeping_state_changed`, ... is emitted. Rollback uses it so a resimulated tick
    /// does not fire signals a second time. False (with an error) for an unknown space.
    #[func]
    pub fn set_space_block_signals(&self, space: Rid, block: bool) -> bool {
        report("set_space_block_signals", set_block_signals(space, block)).is_some()
    }

    /// Whether a space blocks the signals of its flushes (false for an unknown RID).
    #[func]
    pub fn is_space_blocking_signals(&self, space: Rid) -> bool {
        with_state(|st| st.space(space.to_u64()).map(|s| s.block_signals)).unwrap_or(false)
    }

    /// A snapshot of a space's world (its whole simulation state); empty on error.
    #[func]
    pub fn snapshot(&self, space: Rid) -> PackedByteArray {
        with_state(|st| st.snapshot(space.to_u64()))
            .map(|v| PackedByteArray::from(v.as_slice()))
            .unwrap_or_default()
    }

    /// Restores a space's world from `snapshot` (of the same space, or one with the same
    /// capacities). Then every body's state-sync callback runs (rigid bodies' nodes move
    /// to the restored state), areas report exits and entries against what they last
    /// reported (signals blocked if the space blocks them: `set_space_block_signals`), objects created after the snapshot are inert (one warning) and bodies
    /// freed since are removed. False (with an error) when the snapshot is refused;
    /// nothing changes then. While a journal runs the restore is a rollback the journal
    /// keeps: a snapshot that journal took rewinds its tape to where it was taken (so
    /// `save_replay` then holds the history the world lived), and any other snapshot —
    /// from before the journal started, from another journal, or from a branch the tape
    /// was rewound past — is refused with an error naming the journal.
    #[func]
    pub fn restore(&self, space: Rid, snapshot: PackedByteArray) -> bool {
        restore(space, snapshot.as_slice())
    }

    /// Starts recording every call that changes a space's world into a journal of at most
    /// `capacity` bytes (with a snapshot of the world now, the replay's start).
    #[func]
    pub fn start_journal(&self, space: Rid, capacity: i64) -> bool {
        report("start_journal", start_journal(space, capacity)).is_some()
    }

    /// Stops the journal; its length in bytes, or -1 (with an error) if it overflowed.
    #[func]
    pub fn stop_journal(&self, space: Rid) -> i64 {
        report("stop_journal", stop_journal(space)).map_or(-1, |n| n as i64)
    }

    /// Saves the last journal as a replay file (starting snapshot, tape, final hash) that
    /// `m3replay verify` replays; `path` may be `user://...`.
    #[func]
    pub fn save_replay(&self, space: Rid, path: GString) -> bool {
        report("save_replay", save_replay(space, &path)).is_some()
    }

    /// The number of body slots whose state differs between two spaces' worlds (0: the
    /// same); -1 (with an error) for an unknown space.
    #[func]
    pub fn compare_spaces(&self, a: Rid, b: Rid) -> i64 {
        let r = with_state(|st| st.compare(a.to_u64(), b.to_u64()));
        report("compare_spaces", r).map_or(-1, |n| n as i64)
    }

    /// What `PhysicsServer3D.space_get_contacts` gives Godot's debug view of a space
    /// (Godot binds it for engines only): both surface points of every touching contact
    /// point, at most as many as Godot asked for with `space_set_debug_contacts` (a
    /// viewport entering the tree with "Visible Collision Shapes" on); empty otherwise.
    #[func]
    pub fn space_debug_contacts(&self, space: Rid) -> PackedVector3Array {
        with_state(|st| {
            st.space(space.to_u64())
                .map(|s| s.debug_contact_points().into_iter().collect())
        })
        .unwrap_or_default()
    }
}

/// `Maul3D.start_journal` (also `Maul3DRecorder`'s start).
pub(crate) fn start_journal(space: Rid, capacity: i64) -> Result<(), String> {
    with_state_mut(|st| st.start_journal(space.to_u64(), capacity.max(0) as usize))
}

/// `Maul3D.stop_journal` (also `Maul3DRecorder`'s save).
pub(crate) fn stop_journal(space: Rid) -> Result<usize, String> {
    with_state_mut(|st| st.stop_journal(space.to_u64()))
}

/// `Maul3D.save_replay` (also `Maul3DRecorder`'s save).
pub(crate) fn save_replay(space: Rid, path: &GString) -> Result<(), String> {
    let bytes = with_state(|st| st.replay(space.to_u64()))?;
    let mut f = FileAccess::open(path, ModeFlags::WRITE)
        .ok_or_else(|| format!("cannot write {path} ({:?})", FileAccess::get_open_error()))?;
    f.store_buffer(&PackedByteArray::from(bytes.as_slice()));
    f.close();
    Ok(())
}

/// `Maul3D.step_space` (also `Maul3DRollback`'s step).
pub(crate) fn step_space(space: Rid, delta: f64) -> bool {
    let Some(mut server) = server_or_error("step_space") else {
        return false;
    };
    if !(delta.is_finite() && delta > 0.0 && delta <= 1.0) {
        godot_error!("Maul3D.step_space: delta {delta} is not in (0, 1] seconds");
        return false;
    }
    let mut s = server.bind_mut();
    if s.st.flushing {
        godot_error!(
            "Maul3D.step_space: called from a physics callback (a flush is running); step outside callbacks"
        );
        return false;
    }
    let id = space.to_u64();
    if !s.st.spaces.contains_key(&id) {
        godot_error!("Maul3D.step_space: {space} is not a Maul3D space");
        return false;
    }
    s.st.step_space(id, delta as f32);
    s.flush_spaces(&[id]);
    true
}

/// `Maul3D.restore` (also `Maul3DRollback.rollback_to`'s).
pub(crate) fn restore(space: Rid, snapshot: &[u8]) -> bool {
    let Some(mut server) = server_or_error("restore") else {
        return false;
    };
    let mut s = server.bind_mut();
    if s.st.flushing {
        godot_error!("Maul3D.restore: called from a physics callback (a flush is running)");
        return false;
    }
    match s.st.restore(space.to_u64(), snapshot) {
        Ok(()) => {
            s.flush();
            true
        }
        Err(e) => {
            godot_error!("Maul3D.restore: {e}");
            false
        }
    }
}

/// Sets a space's signal blocking; its previous setting.
pub(crate) fn set_block_signals(space: Rid, block: bool) -> Result<bool, String> {
    with_state_mut(|st| {
        let s = st
            .spaces
            .get_mut(&space.to_u64())
            .ok_or_else(|| format!("{space} is not a Maul3D space"))?;
        Ok(std::mem::replace(&mut s.block_signals, block))
    })
}

fn server_or_error(what: &str) -> Option<Gd<Maul3DPhysicsServer>> {
    let s = server();
    if s.is_none() {
        godot_error!("Maul3D.{what}: Maul3D is not the running physics server");
    }
    s
}

pub(crate) fn with_state<R>(f: impl FnOnce(&Records) -> Result<R, String>) -> Result<R, String> {
    let server = server().ok_or("Maul3D is not the running physics server")?;
    let s = server.bind();
    f(&s.st)
}

pub(crate) fn with_state_mut<R>(
    f: impl FnOnce(&mut Records) -> Result<R, String>,
) -> Result<R, String> {
    let mut server = server().ok_or("Maul3D is not the running physics server")?;
    let mut s = server.bind_mut();
    f(&mut s.st)
}

pub(crate) fn report<R>(what: &str, r: Result<R, String>) -> Option<R> {
    match r {
        Ok(v) => Some(v),
        Err(e) => {
            godot_error!("Maul3D.{what}: {e}");
            None
        }
    }
}
