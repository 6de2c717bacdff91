//! The seed's falling box, in Rust: a static ground and a box dropped onto it.
//!
//! `cargo run --release -p maul3d --example hello`

use maul3d::math::{DVec3, Vec3};
use maul3d::{BodyDef, BodyType, ShapeDef, World, WorldDef};

fn main() -> Result<(), maul3d::Error> {
    let mut world = World::new(&WorldDef {
        gravity: Vec3::new(0.0, -10.0, 0.0),
        ..Default::default()
    })?;

    // Static ground.
    let ground = world.create_body(&BodyDef {
        position: DVec3::new(0.0, -10.0, 0.0),
        ..Default::default()
    })?;
    world.create_box_shape(ground, &ShapeDef::default(), Vec3::new(50.0, 10.0, 50.0))?;

    // A falling box.
    let body = world.create_body(&BodyDef {
        body_type: BodyType::Dynamic,
        position: DVec3::new(0.0, 8.0, 0.0),
        ..Default::default()
    })?;
    world.create_box_shape(
        body,
        &ShapeDef {
            density: 1.0,
            ..Default::default()
        },
        Vec3::new(0.5, 0.5, 0.5),
    )?;

    for i in 0..90 {
        world.step(1.0 / 60.0, 4)?;
        let p = world.body_position(body)?;
        if i % 10 == 9 {
            println!(
                "step {:3}: y = {:.4}  awake = {}",
                i + 1,
                p.y,
                world.body_is_awake(body)?
            );
        }
    }
    println!("hash = {:#018x}", world.hash());
    Ok(())
}
