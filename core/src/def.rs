//! The world's def: its settings and the capacities that fix its memory, with their
//! checks.

use crate::alloc::HostAllocator;
use crate::combine::CombineRule;
use crate::error::{Error, Result};
use crate::limits::{MAX_GRAVITY, MAX_SETTING, check_nonneg, check_vec_abs};
use crate::math::Vec3;
use crate::task::TaskHooks;

/// Everything needed to create a world: settings and the capacities that fix its memory.
/// Change the fields you need and keep `..Default::default()` for the rest.
#[derive(Clone, Copy, Debug)]
pub struct WorldDef {
    /// Gravity, m/s².
    pub gravity: Vec3,
    /// Approach speed above which restitution applies, m/s (default 1).
    pub restitution_threshold: f32,
    /// Contact stiffness, Hz (default 30; capped at a quarter of the substep rate).
    pub contact_hertz: f32,
    /// Contact damping ratio (default 10).
    pub contact_damping_ratio: f32,
    /// Fastest speed at which overlapping shapes are pushed apart, m/s (default 3).
    pub contact_push_max_speed: f32,
    /// Damping ratio of rigid joint rows (default 2); their stiffness is twice the contact
    /// hertz, as Box2D v3's joint softness.
    pub joint_damping_ratio: f32,
    /// Speed limit of any body, m/s (default 400).
    pub max_linear_speed: f32,
    /// Whether bodies may sleep.
    pub enable_sleep: bool,
    /// How a contact combines its shapes' friction (default √(μa·μb)).
    pub friction_combine: CombineRule,
    /// How a contact combines its shapes' restitution (default the larger).
    pub restitution_combine: CombineRule,
    /// Most bodies alive at once.
    pub body_capacity: u32,
    /// Most shapes alive at once.
    pub shape_capacity: u32,
    /// Most contacts (shape pairs with overlapping enlarged bounds) at once.
    pub contact_capacity: u32,
    /// Most new pairs the broad phase keeps in one step (lowest shape indices win).
    pub pair_capacity: u32,
    /// Most convex hulls alive at once.
    pub hull_capacity: u32,
    /// Most joints alive at once.
    pub joint_capacity: u32,
    /// Most triangle meshes and height fields alive at once.
    pub mesh_capacity: u32,
    /// Content budget in bytes: what meshes and height fields may take together (their
    /// content and what is rebuilt from it; see `geometry::mesh::mesh_content_bytes` and
    /// `geometry::height_field::height_field_content_bytes`). Taken from the allocator
    /// as content is created, never more than this; `content_usage()` reports it.
    pub content_capacity: u64,
    /// Most contact begin (and, separately, end, hit, sensor begin, sensor end and joint
    /// break) events kept per step.
    pub event_capacity: u32,
    /// Most (sensor, shape) overlaps at once.
    pub sensor_capacity: u32,
    /// Most characters alive at once (0: none; default 16). Fixed at creation: `grow`
    /// keeps it.
    pub character_capacity: u32,
    /// Most vehicles alive at once (0: none; default 16). Fixed at creation.
    pub vehicle_capacity: u32,
    /// Most water volumes alive at once (0: none; default 16). Fixed at creation.
    pub water_capacity: u32,
    /// Most soft bodies alive at once (0: none; default 16). Fixed at creation.
    pub soft_body_capacity: u32,
    /// Most soft-body particles (mesh vertices) alive at once, all soft bodies together
    /// (0: none; default 4096; at most 2^22). Each particle reserves room for two
    /// triangles and three edges and bends (about 400 bytes in all). Fixed at creation.
    pub soft_particle_capacity: u32,
    /// Approach speed above which touching contacts of shapes with hit events report a
    /// hit, m/s (default 1).
    pub hit_event_threshold: f32,
    /// Host memory hooks; `None` uses Rust's global allocator.
    pub allocator: Option<HostAllocator>,
    /// Host task system; `None` runs every stage on the calling thread.
    pub task_hooks: Option<TaskHooks>,
}

impl Default for WorldDef {
    fn default() -> WorldDef {
        WorldDef {
            gravity: Vec3::new(0.0, -10.0, 0.0),
            restitution_threshold: 1.0,
            contact_hertz: 30.0,
            contact_damping_ratio: 10.0,
            contact_push_max_speed: 3.0,
            joint_damping_ratio: 2.0,
            max_linear_speed: 400.0,
            enable_sleep: true,
            friction_combine: crate::combine::DEFAULT_FRICTION_RULE,
            restitution_combine: crate::combine::DEFAULT_RESTITUTION_RULE,
            body_capacity: 1024,
            shape_capacity: 1024,
            contact_capacity: 4096,
            pair_capacity: 4096,
            hull_capacity: 32,
            joint_capacity: 1024,
            mesh_capacity: 16,
            content_capacity: 64 << 20,
            event_capacity: 1024,
            sensor_capacity: 1024,
            character_capacity: 16,
            vehicle_capacity: 16,
            water_capacity: 16,
            soft_body_capacity: 16,
            soft_particle_capacity: 4096,
            hit_event_threshold: 1.0,
            allocator: None,
            task_hooks: None,
        }
    }
}

/// The def's solver settings and gravity within `crate::limits`.
pub(crate) fn check_settings(def: &WorldDef) -> Result<()> {
    check_vec_abs(
        "gravity",
        def.gravity,
        MAX_GRAVITY,
        "finite and within ±1e5 (each component)",
    )?;
    let e = "within [0, 1e6]";
    check_nonneg(
        "restitution_threshold",
        def.restitution_threshold,
        MAX_SETTING,
        e,
    )?;
    check_nonneg("contact_hertz", def.contact_hertz, MAX_SETTING, e)?;
    check_nonneg(
        "contact_damping_ratio",
        def.contact_damping_ratio,
        MAX_SETTING,
        e,
    )?;
    check_nonneg(
        "contact_push_max_speed",
        def.contact_push_max_speed,
        MAX_SETTING,
        e,
    )?;
    check_nonneg(
        "hit_event_threshold",
        def.hit_event_threshold,
        MAX_SETTING,
        e,
    )?;
    check_nonneg(
        "joint_damping_ratio",
        def.joint_damping_ratio,
        MAX_SETTING,
        e,
    )?;
    crate::error::check_range(
        "max_linear_speed",
        def.max_linear_speed,
        1e-3,
        crate::limits::MAX_VELOCITY,
        "within [1e-3, 1e5]",
    )
}

fn check_capacity(name: &'static str, v: u32, max: u32) -> Result<()> {
    if v == 0 || v > max {
        return Err(Error::Argument {
            name,
            value: v as f64,
            expected: "within [1, 2^24]",
        });
    }
    Ok(())
}

/// A capacity that may be 0 (a world without characters, vehicles or water volumes).
fn check_optional_capacity(name: &'static str, v: u32) -> Result<()> {
    if v > 1 << 16 {
        return Err(Error::Argument {
            name,
            value: v as f64,
            expected: "within [0, 2^16]",
        });
    }
    Ok(())
}

/// The whole def within bounds: settings, capacities, the content budget and the task
/// hooks' worker count.
pub(crate) fn check_def(def: &WorldDef) -> Result<()> {
    const MAX: u32 = 1 << 24;
    check_settings(def)?;
    check_capacity("body_capacity", def.body_capacity, MAX)?;
    check_capacity("shape_capacity", def.shape_capacity, MAX)?;
    check_capacity("contact_capacity", def.contact_capacity, MAX)?;
    check_capacity("pair_capacity", def.pair_capacity, MAX)?;
    check_capacity("hull_capacity", def.hull_capacity, MAX)?;
    check_capacity("mesh_capacity", def.mesh_capacity, MAX)?;
    if def.content_capacity > 1 << 40 {
        return Err(Error::Argument {
            name: "content_capacity",
            value: def.content_capacity as f64,
            expected: "at most 2^40 bytes",
        });
    }
    check_capacity("joint_capacity", def.joint_capacity, MAX)?;
    check_capacity("event_capacity", def.event_capacity, MAX)?;
    check_capacity("sensor_capacity", def.sensor_capacity, MAX)?;
    check_optional_capacity("character_capacity", def.character_capacity)?;
    check_optional_capacity("vehicle_capacity", def.vehicle_capacity)?;
    check_optional_capacity("water_capacity", def.water_capacity)?;
    check_optional_capacity("soft_body_capacity", def.soft_body_capacity)?;
    if def.soft_particle_capacity > 1 << 22 {
        return Err(Error::Argument {
            name: "soft_particle_capacity",
            value: def.soft_particle_capacity as f64,
            expected: "within [0, 2^22]",
        });
    }
    if let Some(h) = def.task_hooks {
        check_capacity("task_hooks.worker_count", h.worker_count, 1024)?;
    }
    Ok(())
}
