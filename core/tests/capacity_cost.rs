//! Issue 14 item 4 (cost): a step's work follows the live objects, not the capacities.
//! The same scene in a world of the default capacities and in one of 16× them visits the
//! same bodies, contacts and islands each step and moves every body to the same bits
//! (wall-clock figures: `cargo run --release -p maul3d-bench --bin capacity`).

use maul3d::math::{DVec3, Vec3};
use maul3d::{BodyDef, BodyId, BodyType, Counters, ShapeDef, World, WorldDef};

fn scaled(k: u32) -> WorldDef {
    let d = WorldDef::default();
    WorldDef {
        body_capacity: d.body_capacity * k,
        shape_capacity: d.shape_capacity * k,
        contact_capacity: d.contact_capacity * k,
        pair_capacity: d.pair_capacity * k,
        hull_capacity: d.hull_capacity * k,
        joint_capacity: d.joint_capacity * k,
        mesh_capacity: d.mesh_capacity * k,
        event_capacity: d.event_capacity * k,
        sensor_capacity: d.sensor_capacity * k,
        ..d
    }
}

/// 500 boxes in 100 piles of five on a floor.
fn piles(def: &WorldDef) -> (World, Vec<BodyId>) {
    let mut w = World::new(def).unwrap();
    let ground = w
        .create_body(&BodyDef {
            position: DVec3::new(0.0, -1.0, 0.0),
            ..Default::default()
        })
        .unwrap();
    w.create_box_shape(ground, &ShapeDef::default(), Vec3::new(50.0, 1.0, 50.0))
        .unwrap();
    let mut boxes = Vec::new();
    for pile in 0..100 {
        for level in 0..5 {
            let b = w
                .create_body(&BodyDef {
                    body_type: BodyType::Dynamic,
                    position: DVec3::new(
                        (pile % 10) as f64 * 3.0,
                        0.5 + level as f64,
                        (pile / 10) as f64 * 3.0,
                    ),
                    ..Default::default()
                })
                .unwrap();
            let def = ShapeDef {
                density: 1.0,
                ..Default::default()
            };
            w.create_box_shape(b, &def, Vec3::new(0.5, 0.5, 0.5))
                .unwrap();
            boxes.push(b);
        }
    }
    (w, boxes)
}

/// What a step visited (the counters of work, not of capacity).
fn work(c: &Counters) -> [u32; 8] {
    [
        c.body_count,
        c.contact_count,
        c.touching_contact_count,
        c.contacts_visited,
        c.joints_visited,
        c.awake_body_count,
        c.island_count,
        c.color_count,
    ]
}

#[test]
fn sixteen_times_the_capacities_leave_each_steps_work_and_results_unchanged() {
    let (mut small, a) = piles(&WorldDef::default());
    let (mut large, b) = piles(&scaled(16));
    for step in 0..60 {
        small.step(1.0 / 60.0, 4).unwrap();
        large.step(1.0 / 60.0, 4).unwrap();
        assert_eq!(
            work(&small.counters()),
            work(&large.counters()),
            "step {step}: the work differs with the capacities"
        );
        assert!(small.counters().awake_body_count <= 500);
    }
    for (x, y) in a.iter().zip(&b) {
        assert_eq!(
            small.body_position(*x).unwrap(),
            large.body_position(*y).unwrap()
        );
        assert_eq!(
            small.body_rotation(*x).unwrap(),
            large.body_rotation(*y).unwrap()
        );
    }
}
