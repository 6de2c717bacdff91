//! Scene builders shared by the behaviour tests.
#![allow(dead_code)]

use maul3d::math::{DVec3, Quat, Vec3};
use maul3d::{BodyDef, BodyId, BodyType, ShapeDef, World, WorldDef};

pub const DT: f32 = 1.0 / 60.0;
pub const SUBSTEPS: u32 = 4;

pub fn world(enable_sleep: bool) -> World {
    World::new(&WorldDef {
        enable_sleep,
        body_capacity: 512,
        shape_capacity: 512,
        contact_capacity: 4096,
        pair_capacity: 4096,
        ..Default::default()
    })
    .unwrap()
}

/// A static ground box whose top face is at y = 0.
pub fn ground(world: &mut World, friction: f32) -> BodyId {
    let g = world
        .create_body(&BodyDef {
            position: DVec3::new(0.0, -1.0, 0.0),
            ..Default::default()
        })
        .unwrap();
    world
        .create_box_shape(
            g,
            &ShapeDef {
                friction,
                ..Default::default()
            },
            Vec3::new(100.0, 1.0, 100.0),
        )
        .unwrap();
    g
}

pub fn dynamic_box(world: &mut World, position: DVec3, half: Vec3, def: &ShapeDef) -> BodyId {
    let b = world
        .create_body(&BodyDef {
            body_type: BodyType::Dynamic,
            position,
            ..Default::default()
        })
        .unwrap();
    world.create_box_shape(b, def, half).unwrap();
    b
}

/// Box2D's pyramid: `levels` rows of unit cubes, the bottom row resting on y = 0.
pub fn pyramid(world: &mut World, levels: usize, offset: DVec3) -> Vec<BodyId> {
    let h = 0.5f64;
    let mut ids = Vec::new();
    for i in 0..levels {
        let y = (2 * i + 1) as f64 * h;
        for j in i..levels {
            let x = (i + 1) as f64 * h + 2.0 * (j - i) as f64 * h - h * levels as f64;
            ids.push(dynamic_box(
                world,
                DVec3::new(x + offset.x, y + offset.y, offset.z),
                Vec3::new(0.5, 0.5, 0.5),
                &ShapeDef::default(),
            ));
        }
    }
    ids
}

pub fn step_n(world: &mut World, n: usize) {
    for _ in 0..n {
        world.step(DT, SUBSTEPS).unwrap();
    }
}

pub fn rot_about_z(angle: f32) -> Quat {
    Quat::from_axis_angle(Vec3::Z, angle)
}

pub fn horizontal_distance(a: DVec3, b: DVec3) -> f64 {
    let (dx, dz) = (a.x - b.x, a.z - b.z);
    (dx * dx + dz * dz).sqrt()
}
