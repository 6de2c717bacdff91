//! A pile of 500 hulls on a 100k-triangle mesh terrain settles and sleeps.

#![allow(clippy::disallowed_methods)] // building test terrain, not simulating

mod common;

use common::*;
use maul3d::math::{DVec3, Quat, Vec3};
use maul3d::{BodyDef, BodyType, ShapeDef, World, WorldDef};

#[test]
fn a_pile_of_500_hulls_on_a_100k_triangle_terrain_settles_and_sleeps() {
    let mut w = World::new(&WorldDef {
        body_capacity: 600,
        shape_capacity: 600,
        contact_capacity: 40_000,
        pair_capacity: 8_000,
        ..Default::default()
    })
    .unwrap();
    // 224 × 224 cells of 0.5 m, two triangles each: 100,352 triangles, gently rolling
    // (±0.25 m over about 9 m).
    let n = 224u32;
    let wave = |i: u32| {
        let x = i as f32 * 0.7;
        // A triangle wave: no transcendental needed to shape test ground.
        let f = x - (x / 4.0).floor() * 4.0;
        if f < 2.0 { f - 1.0 } else { 3.0 - f }
    };
    let mut v = Vec::new();
    for z in 0..=n {
        for x in 0..=n {
            let y = 0.125 * (wave(x / 3) + wave(z / 3 + 1));
            v.push(Vec3::new(x as f32 * 0.5 - 56.0, y, z as f32 * 0.5 - 56.0));
        }
    }
    let mut t = Vec::new();
    for z in 0..n {
        for x in 0..n {
            let (a, b) = (z * (n + 1) + x, z * (n + 1) + x + 1);
            t.push([a, a + n + 1, b + n + 1]);
            t.push([a, b + n + 1, b]);
        }
    }
    assert!(t.len() > 100_000);
    let mesh = w.create_mesh(&v, &t).unwrap();
    let ground = w.create_body(&BodyDef::default()).unwrap();
    w.create_mesh_shape(ground, &ShapeDef::default(), mesh)
        .unwrap();
    let hull = w
        .create_hull(&[
            Vec3::new(-0.4, -0.3, -0.4),
            Vec3::new(0.45, -0.3, -0.35),
            Vec3::new(0.0, -0.35, 0.45),
            Vec3::new(-0.35, 0.3, 0.3),
            Vec3::new(0.35, 0.25, 0.3),
            Vec3::new(0.05, 0.4, -0.3),
        ])
        .unwrap();
    let mut bodies = Vec::new();
    for i in 0..500 {
        let (layer, k) = (i / 100, i % 100);
        let b = w
            .create_body(&BodyDef {
                body_type: BodyType::Dynamic,
                position: DVec3::new(
                    (k % 10) as f64 * 1.1 - 5.0,
                    1.5 + layer as f64 * 1.1,
                    (k / 10) as f64 * 1.1 - 5.0,
                ),
                rotation: Quat::from_axis_angle(Vec3::new(0.3, 1.0, 0.2).normalize(), i as f32),
                ..Default::default()
            })
            .unwrap();
        w.create_hull_shape(b, &ShapeDef::default(), hull).unwrap();
        bodies.push(b);
    }
    let mut steps = 0;
    while steps < 1800 && bodies.iter().any(|&b| w.body_is_awake(b).unwrap()) {
        w.step(DT, SUBSTEPS).unwrap();
        steps += 1;
    }
    assert!(
        bodies.iter().all(|&b| !w.body_is_awake(b).unwrap()),
        "still awake after {steps} steps"
    );
    assert_eq!(w.counters().dropped_contacts, 0);
    for &b in &bodies {
        // On the terrain (its lowest point is at −0.25), not through it.
        assert!(w.body_position(b).unwrap().y > -0.25);
    }
}
