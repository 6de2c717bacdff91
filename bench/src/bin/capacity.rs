//! `cargo run --release -p maul3d-bench --bin capacity [-- --bodies 8000 --steps 200]`
//!
//! Issue 14's capacity figures for the core, one thread:
//!
//! - creation: `--bodies` boxes (body + box shape) created one by one in a world sized to
//!   hold them, printing the mean time per body over each stretch (to 1k, 4k, 8k), so a
//!   cost that grows with the bodies already alive shows as a rising figure;
//! - capacity: 500 boxes in ten piles on a floor stepped `--steps` times in a world of the
//!   default capacities and in one of 16× every capacity: the same live work, so the two
//!   figures should match (a step that walked capacity would grow 16×).
//!
//! Wall-clock figures to read, not to assert; the counters the step keeps are checked by
//! the core's tests.

use maul3d::math::{DVec3, Vec3};
use maul3d::{BodyDef, BodyType, ShapeDef, World, WorldDef};
use std::time::Instant;

fn arg(name: &str, default: usize) -> usize {
    let args: Vec<String> = std::env::args().collect();
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1))
        .map_or(default, |v| v.parse().expect("a count"))
}

fn scaled(def: &WorldDef, k: u32) -> WorldDef {
    WorldDef {
        body_capacity: def.body_capacity * k,
        shape_capacity: def.shape_capacity * k,
        contact_capacity: def.contact_capacity * k,
        pair_capacity: def.pair_capacity * k,
        hull_capacity: def.hull_capacity * k,
        joint_capacity: def.joint_capacity * k,
        mesh_capacity: def.mesh_capacity * k,
        event_capacity: def.event_capacity * k,
        sensor_capacity: def.sensor_capacity * k,
        content_capacity: def.content_capacity * k as u64,
        ..*def
    }
}

fn floor(world: &mut World) {
    let ground = world
        .create_body(&BodyDef {
            position: DVec3::new(0.0, -1.0, 0.0),
            ..Default::default()
        })
        .expect("floor");
    world
        .create_box_shape(ground, &ShapeDef::default(), Vec3::new(500.0, 1.0, 500.0))
        .expect("floor shape");
}

fn add_box(world: &mut World, p: DVec3, can_sleep: bool) {
    let b = world
        .create_body(&BodyDef {
            body_type: BodyType::Dynamic,
            position: p,
            enable_sleep: can_sleep,
            ..Default::default()
        })
        .expect("body fits");
    let def = ShapeDef {
        density: 1.0,
        ..Default::default()
    };
    world
        .create_box_shape(b, &def, Vec3::new(0.5, 0.5, 0.5))
        .expect("shape fits");
}

/// Grid position of box `i`: piles of 5 on a square grid 2 m apart.
fn grid(i: usize, per_row: usize) -> DVec3 {
    let pile = i / 5;
    let level = i % 5;
    DVec3::new(
        (pile % per_row) as f64 * 2.0,
        0.5 + level as f64 * 1.0,
        (pile / per_row) as f64 * 2.0,
    )
}

#[allow(clippy::disallowed_methods)] // A benchmark reads the clock; the engine never does.
fn creation(n: usize) {
    let base = WorldDef::default();
    let k = (n as u32 + 2).div_ceil(base.body_capacity).max(1);
    let mut world = World::new(&scaled(&base, k)).expect("world");
    floor(&mut world);
    let marks = [1000, 4000, 8000, n];
    let per_row = ((n / 5) as f64).sqrt().ceil() as usize + 1;
    let t0 = Instant::now();
    let mut last = (0, t0);
    for i in 0..n {
        add_box(&mut world, grid(i, per_row), true);
        let done = i + 1;
        if marks.contains(&done) && done > last.0 {
            let now = Instant::now();
            let ms = (now - last.1).as_secs_f64() * 1000.0 / (done - last.0) as f64;
            println!(
                "create boxes {:>5}..{:<5} {:.4} ms/body (capacity {}x default)",
                last.0, done, ms, k
            );
            last = (done, now);
        }
    }
    let total = t0.elapsed().as_secs_f64() * 1000.0;
    println!(
        "create {n} boxes total {total:.1} ms ({:.4} ms/body)",
        total / n as f64
    );
    let t = Instant::now();
    world.step(1.0 / 60.0, 4).expect("step");
    println!(
        "first step with {n} boxes {:.1} ms",
        t.elapsed().as_secs_f64() * 1000.0
    );
}

#[allow(clippy::disallowed_methods)] // A benchmark reads the clock; the engine never does.
fn capacity_step(base: &WorldDef, label: &str, k: u32, steps: usize) {
    let def = scaled(base, k);
    let mut world = World::new(&def).expect("world");
    floor(&mut world);
    for i in 0..500 {
        add_box(&mut world, grid(i, 10), false);
    }
    for _ in 0..10 {
        world.step(1.0 / 60.0, 4).expect("step");
    }
    let t = Instant::now();
    for _ in 0..steps {
        world.step(1.0 / 60.0, 4).expect("step");
    }
    let ms = t.elapsed().as_secs_f64() * 1000.0 / steps as f64;
    println!(
        "step 500 boxes, capacities {k:>2}x {label} (body_capacity {}): {ms:.3} ms/step",
        def.body_capacity
    );
}

fn main() {
    let n = arg("--bodies", 8000);
    let steps = arg("--steps", 200);
    creation(n);
    let core = WorldDef::default();
    capacity_step(&core, "the core's defaults", 1, steps);
    capacity_step(&core, "the core's defaults", 16, steps);
    // The Godot extension's `physics/maul3d/*` defaults (more hulls and meshes).
    let godot = WorldDef {
        shape_capacity: 2048,
        hull_capacity: 256,
        joint_capacity: 512,
        sensor_capacity: 512,
        mesh_capacity: 1024,
        content_capacity: 256 << 20,
        ..WorldDef::default()
    };
    capacity_step(&godot, "Godot's defaults", 1, steps);
    capacity_step(&godot, "Godot's defaults", 16, steps);
}
