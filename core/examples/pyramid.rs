//! The main job: builds a 20-level pyramid (210 boxes), steps it, prints each step's state
//! hash and time, then steps the same calls again in a second world and verifies that
//! every step's hash agrees, and prints a summary.
//!
//! `cargo run --release -p maul3d --example pyramid [-- --steps N]`

use maul3d::math::{DVec3, Vec3};
use maul3d::{BodyDef, BodyId, BodyType, ShapeDef, World, WorldDef};

const LEVELS: usize = 20;

fn build() -> Result<(World, BodyId), maul3d::Error> {
    let mut world = World::new(&WorldDef {
        body_capacity: 256,
        shape_capacity: 256,
        contact_capacity: 2048,
        pair_capacity: 2048,
        ..Default::default()
    })?;
    let ground = world.create_body(&BodyDef {
        position: DVec3::new(0.0, -1.0, 0.0),
        ..Default::default()
    })?;
    world.create_box_shape(ground, &ShapeDef::default(), Vec3::new(50.0, 1.0, 50.0))?;
    let h = 0.5f64;
    let mut top = BodyId::NULL;
    for i in 0..LEVELS {
        let y = (2 * i + 1) as f64 * h;
        for j in i..LEVELS {
            let x = (i + 1) as f64 * h + 2.0 * (j - i) as f64 * h - h * LEVELS as f64;
            let b = world.create_body(&BodyDef {
                body_type: BodyType::Dynamic,
                position: DVec3::new(x, y, 0.0),
                ..Default::default()
            })?;
            world.create_box_shape(b, &ShapeDef::default(), Vec3::new(0.5, 0.5, 0.5))?;
            top = b;
        }
    }
    Ok((world, top))
}

#[allow(clippy::disallowed_methods)] // the demo times its steps; the world never reads a clock
fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    let steps = match args.iter().position(|a| a == "--steps") {
        Some(i) => args.get(i + 1).ok_or("--steps needs a number")?.parse()?,
        None => 300usize,
    };
    let (mut world, top) = build()?;
    let start_top = world.body_position(top)?;
    let mut hashes = Vec::with_capacity(steps);
    let mut total_ms = 0.0;
    let mut slept_at = None;
    for i in 0..steps {
        let t = std::time::Instant::now();
        world.step(1.0 / 60.0, 4)?;
        let ms = t.elapsed().as_secs_f64() * 1000.0;
        total_ms += ms;
        let hash = world.hash();
        hashes.push(hash);
        let awake = world.counters().awake_body_count;
        if awake == 0 && slept_at.is_none() {
            slept_at = Some(i + 1);
        }
        println!(
            "step {:4}  hash {hash:#018x}  {ms:7.3} ms  awake {awake}",
            i + 1
        );
    }
    let end_top = world.body_position(top)?;

    // Verify: the same calls in a fresh world give the same hash at every step.
    let (mut twin, _) = build()?;
    let mut first_mismatch = None;
    for (i, h) in hashes.iter().enumerate() {
        twin.step(1.0 / 60.0, 4)?;
        if twin.hash() != *h && first_mismatch.is_none() {
            first_mismatch = Some(i + 1);
        }
    }

    let drift = ((end_top.x - start_top.x).powi(2) + (end_top.z - start_top.z).powi(2)).sqrt();
    println!("---");
    println!(
        "pyramid of {LEVELS} levels, {} boxes, {steps} steps",
        world.body_count() - 1
    );
    println!("mean step time      {:.3} ms", total_ms / steps as f64);
    println!(
        "final hash          {:#018x}",
        hashes.last().copied().unwrap_or(0)
    );
    println!(
        "top box             y {:.4} -> {:.4}, horizontal drift {:.2e} m",
        start_top.y, end_top.y, drift
    );
    match slept_at {
        Some(s) => println!("asleep              all bodies asleep from step {s}"),
        None => println!(
            "asleep              no (still {} awake)",
            world.counters().awake_body_count
        ),
    }
    match first_mismatch {
        None => println!("verified            a second world matched every step's hash"),
        Some(s) => {
            println!("verified            MISMATCH at step {s}");
            std::process::exit(1);
        }
    }
    Ok(())
}
