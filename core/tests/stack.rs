//! The step's deepest call keeps under 48 KiB of stack: every narrow-phase pair kind runs
//! on a 48 KiB thread (tests build optimised; the hash matrix's debug cell runs its scenes
//! on 64 KiB).

mod common;
use common::*;
use maul3d::math::{DVec3, Quat, Vec3};
use maul3d::{BodyDef, BodyType, Capsule, ShapeDef, Sphere, World};

#[test]
fn every_pair_kind_steps_on_a_48_kib_stack() {
    let mut w = world(false);
    ground(&mut w, 0.6);
    let hull = w
        .create_hull(&[
            Vec3::new(-0.5, -0.4, -0.5),
            Vec3::new(0.5, -0.4, -0.4),
            Vec3::new(0.0, -0.45, 0.55),
            Vec3::new(0.1, 0.5, 0.0),
            Vec3::new(0.35, 0.25, 0.35),
            Vec3::new(-0.3, 0.2, -0.3),
        ])
        .unwrap();
    // Bodies of every kind packed tightly so every kind meets every other kind.
    for i in 0..48 {
        let b = w
            .create_body(&BodyDef {
                body_type: BodyType::Dynamic,
                position: DVec3::new(
                    (i % 4) as f64 * 0.7,
                    0.5 + (i / 4) as f64 * 0.7,
                    ((i / 2) % 2) as f64 * 0.5,
                ),
                rotation: Quat::from_axis_angle(
                    Vec3::new(1.0, 0.4, 0.2).normalize(),
                    i as f32 * 0.9,
                ),
                ..Default::default()
            })
            .unwrap();
        let d = ShapeDef::default();
        match i % 4 {
            0 => w
                .create_sphere_shape(
                    b,
                    &d,
                    &Sphere {
                        center: Vec3::ZERO,
                        radius: 0.35,
                    },
                )
                .map(|_| ()),
            1 => w
                .create_capsule_shape(
                    b,
                    &d,
                    &Capsule {
                        center1: Vec3::new(0.0, -0.25, 0.0),
                        center2: Vec3::new(0.0, 0.25, 0.0),
                        radius: 0.25,
                    },
                )
                .map(|_| ()),
            2 => w
                .create_box_shape(b, &d, Vec3::new(0.3, 0.3, 0.3))
                .map(|_| ()),
            _ => w.create_hull_shape(b, &d, hull).map(|_| ()),
        }
        .unwrap();
    }
    let handle = std::thread::Builder::new()
        .stack_size(48 * 1024)
        .spawn(move || {
            let mut w: World = w;
            for _ in 0..240 {
                w.step(DT, SUBSTEPS).unwrap();
            }
            w.counters().touching_contact_count
        })
        .unwrap();
    let touching = handle
        .join()
        .expect("the step overflowed a 48 KiB stack or panicked");
    assert!(
        touching > 60,
        "the pile should touch everywhere: {touching}"
    );
}
