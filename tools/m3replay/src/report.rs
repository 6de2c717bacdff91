//! How the tool prints a world's bodies and the differences between two worlds.

use std::fmt::Write;

use maul3d::{BodyDiff, BodyType, World};

fn type_name(t: BodyType) -> &'static str {
    match t {
        BodyType::Static => "static",
        BodyType::Kinematic => "kinematic",
        BodyType::Dynamic => "dynamic",
    }
}

/// One block per step: a heading with the step, hash and body count, then one line per
/// live body in slot order. Six decimals: same bits print the same text.
pub fn body_states(world: &World, step: u64) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "step {step}  hash {:016x}  bodies {}",
        world.hash(),
        world.body_count()
    );
    let _ = writeln!(
        out,
        "{:>4}  {:<9}  {:>34}  {:>39}  {:>31}  {:>31}  awake",
        "slot", "type", "position", "rotation (x y z w)", "linear velocity", "angular velocity"
    );
    for id in world.body_ids() {
        // The ids come from the world itself, so every getter succeeds.
        let (Ok(t), Ok(p), Ok(q), Ok(v), Ok(w), Ok(awake)) = (
            world.body_type(id),
            world.body_position(id),
            world.body_rotation(id),
            world.body_linear_velocity(id),
            world.body_angular_velocity(id),
            world.body_is_awake(id),
        ) else {
            continue;
        };
        let _ = writeln!(
            out,
            "{:>4}  {:<9}  {:>10.6} {:>11.6} {:>11.6}  {:>9.6} {:>9.6} {:>9.6} {:>9.6}  {:>9.6} {:>10.6} {:>10.6}  {:>9.6} {:>10.6} {:>10.6}  {}",
            id.index - 1,
            type_name(t),
            p.x,
            p.y,
            p.z,
            q.x,
            q.y,
            q.z,
            q.w,
            v.x,
            v.y,
            v.z,
            w.x,
            w.y,
            w.z,
            if awake { "yes" } else { "no" }
        );
    }
    out
}

fn describe(world: &World, slot: u32) -> &'static str {
    world
        .body_id_at(slot)
        .and_then(|id| world.body_type(id).ok())
        .map_or("-", type_name)
}

/// The rows of `World::compare`, worst first.
pub fn diff_rows(a: &World, b: &World, rows: &[BodyDiff]) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{:>4}  {:<9}  {:<9}  {:>14}  {:>14}  {:>14}",
        "slot", "in A", "in B", "position err", "rotation err", "velocity err"
    );
    for r in rows {
        let a_kind = if r.alive_in_a {
            describe(a, r.slot)
        } else {
            "-"
        };
        let b_kind = if r.alive_in_b {
            describe(b, r.slot)
        } else {
            "-"
        };
        let _ = writeln!(
            out,
            "{:>4}  {:<9}  {:<9}  {:>14.6e}  {:>14.6e}  {:>14.6e}",
            r.slot, a_kind, b_kind, r.position_error, r.rotation_error, r.velocity_error
        );
    }
    out
}
