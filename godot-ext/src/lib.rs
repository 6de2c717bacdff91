//! Maul3D as a Godot 4.6 physics server.
//!
//! The extension registers the class `Maul3DPhysicsServer` (a `PhysicsServer3DExtension`)
//! with Godot's `PhysicsServer3DManager` under the name `Maul3D`, at the `Servers`
//! initialisation level, before Godot creates its physics server; a project selects it
//! with `physics/3d/physics_engine = "Maul3D"`. The `Maul3D` engine singleton gives
//! GDScript what the server interface has no place for (whether Maul3D runs, the state
//! hash of a space, snapshots, stepping a space now); the `Maul3DRollback` node keeps a
//! ring of snapshots for rollback netcode. `Maul3DCharacterBody3D` and
//! `Maul3DWaterVolume3D` are nodes for the core's characters and water volumes,
//! `Maul3DVehicleBody3D` with `Maul3DVehicleWheel3D` children for its vehicles. Godot's
//! own `SoftBody3D` runs on the core's soft bodies through the server (`soft.rs`).
//!
//! This layer translates between Godot's server calls and `maul3d`'s world API; it does
//! not simulate. Each Godot space is one `maul3d::World`.

use godot::classes::PhysicsServer3DManager;
use godot::prelude::*;

mod character;
mod conv;
mod direct;
mod errors;
mod mesh;
mod recorder;
mod records;
mod replay_player;
mod rollback;
mod server;
mod settings;
mod singleton;
mod soft;
mod tasks;
mod tracked;
mod vehicle;
mod water;

pub use character::Maul3DCharacterBody3D;
pub use recorder::Maul3DRecorder;
pub use replay_player::Maul3DReplayPlayer;
pub use rollback::Maul3DRollback;
pub use server::Maul3DPhysicsServer;
pub use singleton::Maul3D;
pub use vehicle::{Maul3DVehicleBody3D, Maul3DVehicleWheel3D};
pub use water::Maul3DWaterVolume3D;

/// The name under which the server is registered and selected in project settings.
pub const SERVER_NAME: &str = "Maul3D";

struct Maul3DExtension;

#[gdextension]
unsafe impl ExtensionLibrary for Maul3DExtension {
    fn min_level() -> InitLevel {
        InitLevel::Servers
    }

    fn on_stage_init(stage: InitStage) {
        if stage == InitStage::Servers {
            settings::register_settings();
            let create = Callable::from_fn("create_maul3d_server", |_args: &[&Variant]| {
                Maul3DPhysicsServer::new_alloc().to_variant()
            });
            PhysicsServer3DManager::singleton().register_server(SERVER_NAME, &create);
        }
    }
}
