//! The `Maul3D` engine singleton: what GDScript needs beyond the server interface.

use std::sync::atomic::{AtomicBool, Ordering};

use godot::classes::PhysicsServer3D;
use godot::prelude::*;

use crate::Maul3DPhysicsServer;

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

/// `Maul3D` in GDScript.
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
        server()
            .and_then(|s| {
                s.bind()
                    .st
                    .spaces
                    .get(&space.to_u64())
                    .map(|sp| sp.world.step_count() as i64)
            })
            .unwrap_or(0)
    }
}
