//! Project settings: the `physics/maul3d/*` settings (capacities, substeps, the worker
//! pool), the world description of a new space made from them, and the defaults of
//! Godot's space parameters.

use godot::classes::ProjectSettings;
use godot::classes::physics_server_3d::SpaceParameter;
use godot::prelude::*;
use maul3d::math::Vec3;
use maul3d::{CombineRule, WorldDef};

/// Project settings read when a space is created: `physics/maul3d/<name>` and its default.
/// Defaults take about 10 MB per space (measured with `World::memory_usage`; every
/// World3D has a space, the editor makes several). `content_capacity` is a budget in
/// bytes, not memory taken up front: a mesh takes its bytes when it is made.
pub(crate) const CAPACITY_SETTINGS: [(&str, i64); 10] = [
    ("body_capacity", 1024),
    ("shape_capacity", 2048),
    ("contact_capacity", 4096),
    ("pair_capacity", 4096),
    ("hull_capacity", 256),
    ("joint_capacity", 512),
    ("event_capacity", 1024),
    ("sensor_capacity", 512),
    ("mesh_capacity", 1024),
    ("content_capacity", 256 << 20),
];

/// Project settings for the pools of Maul3D's own nodes (`Maul3DCharacterBody3D`,
/// `Maul3DVehicleBody3D`, `Maul3DWaterVolume3D`) and of `SoftBody3D`s (soft bodies, and
/// their particles — welded mesh vertices — all soft bodies together):
/// `physics/maul3d/<name>`, its default and its largest value. Unlike the capacities above
/// these are fixed when the space is created (the core's `World::grow` keeps them): a
/// space holds at most this many of each (0: none), and a node past it is refused with an
/// error.
pub(crate) const FIXED_CAPACITY_SETTINGS: [(&str, i64, i64); 5] = [
    ("character_capacity", 256, 1 << 16),
    ("vehicle_capacity", 64, 1 << 16),
    ("water_capacity", 64, 1 << 16),
    ("soft_body_capacity", 16, 1 << 16),
    ("soft_particle_capacity", 4096, 1 << 22),
];

pub(crate) fn setting_i64(name: &str, default: i64) -> i64 {
    let path = format!("physics/maul3d/{name}");
    let ps = ProjectSettings::singleton();
    if ps.has_setting(&path) {
        ps.get_setting(&path).try_to::<i64>().unwrap_or(default)
    } else {
        default
    }
}

/// Declares the `physics/maul3d/*` project settings with their defaults (so the editor
/// lists them); a project's own values are kept.
pub(crate) fn register_settings() {
    let mut ps = ProjectSettings::singleton();
    let mut declare = |name: &str, default: Variant| {
        let path = format!("physics/maul3d/{name}");
        if !ps.has_setting(&path) {
            ps.set_setting(&path, &default);
        }
        ps.set_initial_value(&path, &default);
    };
    for (name, default) in CAPACITY_SETTINGS {
        declare(name, default.to_variant());
    }
    for (name, default, _) in FIXED_CAPACITY_SETTINGS {
        declare(name, default.to_variant());
    }
    declare("substeps", 4.to_variant());
    declare("use_worker_thread_pool", true.to_variant());
    declare("worker_pool_min_items", 256.to_variant());
}

/// `physics/maul3d/<name>` as a bool.
pub(crate) fn setting_bool(name: &str, default: bool) -> bool {
    global_bool_or(&format!("physics/maul3d/{name}"), default)
}

/// A project setting as a bool (false when absent).
pub(crate) fn global_bool(path: &str) -> bool {
    global_bool_or(path, false)
}

fn global_bool_or(path: &str, default: bool) -> bool {
    let ps = ProjectSettings::singleton();
    if ps.has_setting(path) {
        ps.get_setting(path).try_to::<bool>().unwrap_or(default)
    } else {
        default
    }
}

/// The world description of a new space, capacities from project settings.
pub(crate) fn space_world_def() -> WorldDef {
    let cap = |name: &str, default: i64| setting_i64(name, default).clamp(1, 1 << 24) as u32;
    let c = CAPACITY_SETTINGS;
    let fixed = |i: usize| {
        let (name, default, most) = FIXED_CAPACITY_SETTINGS[i];
        setting_i64(name, default).clamp(0, most) as u32
    };
    WorldDef {
        gravity: Vec3::new(0.0, -9.8, 0.0),
        body_capacity: cap(c[0].0, c[0].1),
        shape_capacity: cap(c[1].0, c[1].1),
        contact_capacity: cap(c[2].0, c[2].1),
        pair_capacity: cap(c[3].0, c[3].1),
        hull_capacity: cap(c[4].0, c[4].1),
        joint_capacity: cap(c[5].0, c[5].1),
        event_capacity: cap(c[6].0, c[6].1),
        sensor_capacity: cap(c[7].0, c[7].1),
        mesh_capacity: cap(c[8].0, c[8].1),
        content_capacity: setting_i64(c[9].0, c[9].1).clamp(1, 1 << 40) as u64,
        character_capacity: fixed(0),
        vehicle_capacity: fixed(1),
        water_capacity: fixed(2),
        soft_body_capacity: fixed(3),
        soft_particle_capacity: fixed(4),
        task_hooks: crate::tasks::hooks(),
        // Godot Physics' body pair (and Jolt in Godot): friction the smaller of the two,
        // bounce the sum clamped to [0, 1]; `rough` and `absorbent` reach the shapes as
        // flags (see `records::shapes::material`).
        friction_combine: CombineRule::Min,
        restitution_combine: CombineRule::ClampedSum,
        ..WorldDef::default()
    }
}

/// Substeps per physics tick (`physics/maul3d/substeps`, default 4).
pub(crate) fn substeps() -> u32 {
    setting_i64("substeps", 4).clamp(1, 64) as u32
}

/// Space parameters Godot reads through `space_get_param` default to Godot's own.
pub(crate) fn default_space_param(param: SpaceParameter) -> f32 {
    match param {
        SpaceParameter::CONTACT_RECYCLE_RADIUS => 0.01,
        SpaceParameter::CONTACT_MAX_SEPARATION => 0.05,
        SpaceParameter::CONTACT_MAX_ALLOWED_PENETRATION => 0.01,
        SpaceParameter::CONTACT_DEFAULT_BIAS => 0.8,
        SpaceParameter::BODY_LINEAR_VELOCITY_SLEEP_THRESHOLD => 0.1,
        SpaceParameter::BODY_ANGULAR_VELOCITY_SLEEP_THRESHOLD => 8.0f32.to_radians(),
        SpaceParameter::BODY_TIME_TO_SLEEP => 0.5,
        SpaceParameter::SOLVER_ITERATIONS => 4.0,
        _ => 0.0,
    }
}
