//! How the tool prints a world: a one-line summary per step and a body table for people,
//! CSV rows and JSON objects for tools, and the differences between two worlds.
//!
//! Text rounds to millimetres and thousandths; CSV and JSON print every number in full
//! (Rust's shortest form that reads back to the same bits), so the same state prints the
//! same text on every machine.

use std::fmt::Write;

use clap::ValueEnum;
use maul3d::math::{DVec3, Quat, Vec3};
use maul3d::{BodyDiff, BodyType, World};

/// How `seek` and `play` print.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// A summary line per step and a table of bodies, for people.
    Text,
    /// One row per body per step, with a header row.
    Csv,
    /// One object per step (`seek`), an array of them (`play`).
    Json,
}

fn type_name(t: BodyType) -> &'static str {
    match t {
        BodyType::Static => "static",
        BodyType::Kinematic => "kinematic",
        BodyType::Dynamic => "dynamic",
    }
}

/// One live body's state.
pub struct BodyRow {
    slot: u32,
    kind: BodyType,
    position: DVec3,
    rotation: Quat,
    linear: Vec3,
    angular: Vec3,
    awake: bool,
}

/// A vector's length, in f64 (printed, never fed back to a world).
fn length(v: Vec3) -> f64 {
    let (x, y, z) = (v.x as f64, v.y as f64, v.z as f64);
    (x * x + y * y + z * z).sqrt()
}

impl BodyRow {
    fn speed(&self) -> f64 {
        length(self.linear)
    }
}

/// The body in slot `slot`, if one is alive there.
pub fn body(world: &World, slot: u32) -> Option<BodyRow> {
    let id = world.body_id_at(slot)?;
    // The id comes from the world itself, so every getter succeeds.
    Some(BodyRow {
        slot,
        kind: world.body_type(id).ok()?,
        position: world.body_position(id).ok()?,
        rotation: world.body_rotation(id).ok()?,
        linear: world.body_linear_velocity(id).ok()?,
        angular: world.body_angular_velocity(id).ok()?,
        awake: world.body_is_awake(id).ok()?,
    })
}

/// Every live body, in slot order.
pub fn bodies(world: &World) -> Vec<BodyRow> {
    world
        .body_ids()
        .filter_map(|id| body(world, id.index - 1))
        .collect()
}

/// The bodies a view shows: all of them, or the one in `--body`'s slot (if alive).
pub fn shown(world: &World, only: Option<u32>) -> Vec<BodyRow> {
    match only {
        Some(slot) => body(world, slot).into_iter().collect(),
        None => bodies(world),
    }
}

/// The line that sums up a step: its hash, how many bodies are alive and awake, and the
/// fastest moving body.
pub fn summary_line(world: &World, step: u64) -> String {
    let all = bodies(world);
    let awake = all.iter().filter(|b| b.awake).count();
    // Ties go to the lower slot: the first of equals is kept.
    let fastest = all.iter().fold(None::<&BodyRow>, |best, b| match best {
        Some(f) if f.speed() >= b.speed() => Some(f),
        _ => Some(b),
    });
    let fastest = match fastest {
        Some(f) if f.speed() > 0.0 => {
            format!("slot {} {} {:.3} m/s", f.slot, type_name(f.kind), f.speed())
        }
        _ => "none moving".to_string(),
    };
    format!(
        "step {step}  hash {:016x}  bodies {}  awake {awake}  fastest {fastest}",
        world.hash(),
        all.len()
    )
}

/// The header of [`table_row`]'s table.
pub fn table_header() -> String {
    format!(
        "{:>4}  {:<9}  {:^29}  {:^27}  {:^26}  {:>7}  {:>7}  awake",
        "slot", "type", "position (m)", "rotation (x y z w)", "velocity (m/s)", "speed", "spin"
    )
}

/// One body as a row of the table: millimetres, thousandths, speeds in m/s and rad/s.
pub fn table_row(b: &BodyRow) -> String {
    let (p, q, v, w) = (b.position, b.rotation, b.linear, b.angular);
    let spin = length(w);
    format!(
        "{:>4}  {:<9}  {:>9.3} {:>9.3} {:>9.3}  {:>6.3} {:>6.3} {:>6.3} {:>6.3}  {:>8.3} {:>8.3} {:>8.3}  {:>7.3}  {:>7.3}  {}",
        b.slot,
        type_name(b.kind),
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
        b.speed(),
        spin,
        if b.awake { "yes" } else { "no" }
    )
}

/// The header row of the CSV views.
pub const CSV_HEADER: &str = "step,hash,slot,type,px,py,pz,qx,qy,qz,qw,vx,vy,vz,wx,wy,wz,awake";

/// One body at one step as a CSV row.
pub fn csv_row(step: u64, hash: u64, b: &BodyRow) -> String {
    let (p, q, v, w) = (b.position, b.rotation, b.linear, b.angular);
    format!(
        "{step},{hash:016x},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}",
        b.slot,
        type_name(b.kind),
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
        b.awake
    )
}

/// A number as JSON: in full, or `null` where JSON has no number (NaN, infinities).
fn json_num(out: &mut String, x: f64, shortest: impl std::fmt::Display) {
    if x.is_finite() {
        let _ = write!(out, "{shortest}");
    } else {
        out.push_str("null");
    }
}

fn json_f32s(out: &mut String, xs: &[f32]) {
    out.push('[');
    for (i, &x) in xs.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        json_num(out, x as f64, x);
    }
    out.push(']');
}

/// One step as a JSON object: step, hash (16 hex digits, a string: JSON numbers are
/// doubles), the counts of live and awake bodies, and `bodies`, the bodies shown.
pub fn json_step(world: &World, step: u64, shown: &[BodyRow]) -> String {
    let all = bodies(world);
    let mut out = format!(
        "{{\"step\":{step},\"hash\":\"{:016x}\",\"body_count\":{},\"awake_count\":{},\"bodies\":[",
        world.hash(),
        all.len(),
        all.iter().filter(|b| b.awake).count()
    );
    for (i, b) in shown.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        let (p, q, v, w) = (b.position, b.rotation, b.linear, b.angular);
        let _ = write!(
            out,
            "{{\"slot\":{},\"type\":\"{}\",\"position\":[",
            b.slot,
            type_name(b.kind)
        );
        for (k, x) in [p.x, p.y, p.z].into_iter().enumerate() {
            if k > 0 {
                out.push(',');
            }
            json_num(&mut out, x, x);
        }
        out.push_str("],\"rotation\":");
        json_f32s(&mut out, &[q.x, q.y, q.z, q.w]);
        out.push_str(",\"linear_velocity\":");
        json_f32s(&mut out, &[v.x, v.y, v.z]);
        out.push_str(",\"angular_velocity\":");
        json_f32s(&mut out, &[w.x, w.y, w.z]);
        let _ = write!(out, ",\"awake\":{}}}", b.awake);
    }
    out.push_str("]}");
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
