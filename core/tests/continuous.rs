//! Continuous collision: fast bodies do not tunnel through static geometry, bullets not
//! through anything.

mod common;
use common::*;
use maul3d::math::{DVec3, Vec3};
use maul3d::{BodyDef, BodyType, ShapeDef, Sphere, World, WorldDef};

fn no_gravity() -> World {
    World::new(&WorldDef {
        gravity: Vec3::ZERO,
        enable_sleep: false,
        ..Default::default()
    })
    .unwrap()
}

#[test]
fn a_small_fast_sphere_does_not_pass_a_thin_static_wall() {
    let mut w = no_gravity();
    let wall = w
        .create_body(&BodyDef {
            position: DVec3::new(5.0, 0.0, 0.0),
            ..Default::default()
        })
        .unwrap();
    w.create_box_shape(wall, &ShapeDef::default(), Vec3::new(0.025, 2.0, 2.0))
        .unwrap();
    for (i, speed) in [300.0f32, 150.0, 77.0].iter().enumerate() {
        let b = w
            .create_body(&BodyDef {
                body_type: BodyType::Dynamic,
                position: DVec3::new(0.3, i as f64 * 0.5 - 0.5, 0.0),
                linear_velocity: Vec3::new(*speed, 0.0, 0.0),
                ..Default::default()
            })
            .unwrap();
        w.create_sphere_shape(
            b,
            &ShapeDef::default(),
            &Sphere {
                center: Vec3::ZERO,
                radius: 0.01,
            },
        )
        .unwrap();
    }
    for _ in 0..30 {
        w.step(DT, SUBSTEPS).unwrap();
        for b in w.body_ids().skip(1) {
            let x = w.body_position(b).unwrap().x;
            assert!(x < 4.975, "a sphere passed the wall: x = {x}");
        }
    }
}

#[test]
fn a_bullet_does_not_pass_a_thin_dynamic_plank() {
    let mut w = world(false);
    ground(&mut w, 0.6);
    let plank = w
        .create_body(&BodyDef {
            body_type: BodyType::Dynamic,
            position: DVec3::new(5.0, 1.0, 0.0),
            ..Default::default()
        })
        .unwrap();
    w.create_box_shape(plank, &ShapeDef::default(), Vec3::new(0.025, 1.0, 1.0))
        .unwrap();
    step_n(&mut w, 5);
    let bullet = w
        .create_body(&BodyDef {
            body_type: BodyType::Dynamic,
            // 5 m a step from x = 0.3: no step ends inside the plank at x = 5.
            position: DVec3::new(0.3, 1.0, 0.0),
            linear_velocity: Vec3::new(300.0, 0.0, 0.0),
            gravity_scale: 0.0,
            is_bullet: true,
            ..Default::default()
        })
        .unwrap();
    w.create_sphere_shape(
        bullet,
        &ShapeDef::default(),
        &Sphere {
            center: Vec3::ZERO,
            radius: 0.01,
        },
    )
    .unwrap();
    // The same shot without the bullet flag goes through (nothing static in the way).
    let ghost = w
        .create_body(&BodyDef {
            body_type: BodyType::Dynamic,
            position: DVec3::new(0.3, 1.5, 0.0),
            linear_velocity: Vec3::new(300.0, 0.0, 0.0),
            gravity_scale: 0.0,
            ..Default::default()
        })
        .unwrap();
    w.create_sphere_shape(
        ghost,
        &ShapeDef::default(),
        &Sphere {
            center: Vec3::ZERO,
            radius: 0.01,
        },
    )
    .unwrap();
    let mut went_through_without = false;
    for _ in 0..20 {
        w.step(DT, SUBSTEPS).unwrap();
        let plank_x = w.body_position(plank).unwrap().x;
        let x = w.body_position(bullet).unwrap().x;
        assert!(x < plank_x, "the bullet passed the plank: {x} vs {plank_x}");
        went_through_without |= w.body_position(ghost).unwrap().x > plank_x + 0.5;
    }
    assert!(
        went_through_without,
        "the test scene must be one that tunnels without the flag"
    );
}

#[test]
fn a_fast_sphere_stops_touching_the_wall_not_inside_it() {
    let mut w = no_gravity();
    let wall = w
        .create_body(&BodyDef {
            position: DVec3::new(5.0, 0.0, 0.0),
            ..Default::default()
        })
        .unwrap();
    w.create_box_shape(wall, &ShapeDef::default(), Vec3::new(0.025, 2.0, 2.0))
        .unwrap();
    let b = w
        .create_body(&BodyDef {
            body_type: BodyType::Dynamic,
            position: DVec3::new(0.3, 0.0, 0.0),
            linear_velocity: Vec3::new(77.0, 0.0, 0.0),
            ..Default::default()
        })
        .unwrap();
    w.create_sphere_shape(
        b,
        &ShapeDef::default(),
        &Sphere {
            center: Vec3::ZERO,
            radius: 0.01,
        },
    )
    .unwrap();
    step_n(&mut w, 10);
    // The wall's face is at 4.975: the sphere's centre rests one radius before it.
    let x = w.body_position(b).unwrap().x;
    assert!((x - 4.965).abs() < 1e-3, "rests at {x}");
    assert!(w.body_linear_velocity(b).unwrap().length() < 1e-3);
}

#[test]
fn a_fast_thin_rod_slides_along_the_ground_without_pausing() {
    // Thin enough to count as fast at 6 m/s, touching the ground all along: the sweep
    // starts touching, which must not stop the rod (it would stand still every step).
    let mut w = world(false);
    let g = w.create_body(&BodyDef::default()).unwrap();
    let slick = ShapeDef {
        friction: 0.0,
        ..Default::default()
    };
    w.create_box_shape(g, &slick, Vec3::new(100.0, 0.5, 100.0))
        .unwrap();
    let rod = w
        .create_body(&BodyDef {
            body_type: BodyType::Dynamic,
            position: DVec3::new(0.0, 0.51, 0.0),
            linear_velocity: Vec3::new(6.0, 0.0, 0.0),
            ..Default::default()
        })
        .unwrap();
    w.create_capsule_shape(
        rod,
        &slick,
        &maul3d::Capsule {
            center1: Vec3::new(0.0, 0.0, -0.5),
            center2: Vec3::new(0.0, 0.0, 0.5),
            radius: 0.01,
        },
    )
    .unwrap();
    step_n(&mut w, 60);
    let x = w.body_position(rod).unwrap().x;
    assert!((x - 6.0).abs() < 0.05, "slid to {x} in a second at 6 m/s");
}
