//! Physics against closed forms.

#![allow(clippy::disallowed_methods)] // measuring results in tests, not simulating

mod common;
use common::*;
use maul3d::geometry::{Capsule, Sphere};
use maul3d::math::{DVec3, Mat3, Quat, Vec3};
use maul3d::{BodyDef, BodyType, ShapeDef};

fn rel(a: f64, b: f64) -> f64 {
    ((a - b) / b).abs()
}

#[test]
fn a_free_body_falls_as_half_g_t_squared() {
    let mut world = world(false);
    let b = dynamic_box(
        &mut world,
        DVec3::new(0.0, 100.0, 0.0),
        Vec3::new(0.5, 0.5, 0.5),
        &ShapeDef::default(),
    );
    step_n(&mut world, 60);
    let t = 1.0f64;
    let y = world.body_position(b).unwrap().y;
    let fall = 100.0 - y;
    // Semi-implicit Euler over 240 substeps falls g h² n(n+1)/2.
    let h = 1.0 / 240.0;
    let n = 240.0;
    let discrete = 10.0 * h * h * n * (n + 1.0) / 2.0;
    assert!(
        (fall - discrete).abs() < 1e-4,
        "fell {fall}, discrete scheme says {discrete}"
    );
    assert!(rel(fall, 0.5 * 10.0 * t * t) < 0.005, "fell {fall}");
    let v = world.body_linear_velocity(b).unwrap();
    assert!((v.y + 10.0).abs() < 1e-3, "v = {v:?}");
}

#[test]
fn a_sliding_box_stops_within_two_percent_of_v2_over_2_mu_g() {
    for (mu_a, mu_b) in [(0.4f32, 0.4f32), (0.3, 0.75), (0.6, 0.6)] {
        let mut world = world(false);
        ground(&mut world, mu_a);
        let b = dynamic_box(
            &mut world,
            DVec3::new(0.0, 0.5, 0.0),
            Vec3::new(0.5, 0.5, 0.5),
            &ShapeDef {
                friction: mu_b,
                ..Default::default()
            },
        );
        step_n(&mut world, 30); // settle
        let x0 = world.body_position(b).unwrap().x;
        let v0 = 5.0f32;
        world
            .set_body_linear_velocity(b, Vec3::new(v0, 0.0, 0.0))
            .unwrap();
        for _ in 0..600 {
            world.step(DT, SUBSTEPS).unwrap();
            if world.body_linear_velocity(b).unwrap().x.abs() < 1e-4 {
                break;
            }
        }
        let d = world.body_position(b).unwrap().x - x0;
        let mu = (mu_a as f64 * mu_b as f64).sqrt();
        let expected = (v0 as f64).powi(2) / (2.0 * mu * 10.0);
        assert!(
            rel(d, expected) < 0.02,
            "mu {mu}: slid {d}, expected {expected}"
        );
    }
}

#[test]
fn a_sphere_rolls_down_a_slope_at_five_sevenths_g_sin_theta() {
    let theta = 20.0f32.to_radians();
    let mut world = world(false);
    let slope = world
        .create_body(&BodyDef {
            rotation: rot_about_z(-theta),
            ..Default::default()
        })
        .unwrap();
    world
        .create_box_shape(slope, &ShapeDef::default(), Vec3::new(100.0, 1.0, 10.0))
        .unwrap();
    // Slope surface passes through the origin's top face: normal n = R(-θ)·y.
    let n = rot_about_z(-theta).rotate(Vec3::Y);
    let down = rot_about_z(-theta).rotate(Vec3::X); // points downhill (x grows, y falls)
    let r = 0.5f32;
    let start = n * (1.0 + r) - down * 20.0;
    let ball = world
        .create_body(&BodyDef {
            body_type: BodyType::Dynamic,
            position: DVec3::new(start.x as f64, start.y as f64, 0.0),
            ..Default::default()
        })
        .unwrap();
    world
        .create_sphere_shape(
            ball,
            &ShapeDef::default(),
            &Sphere {
                center: Vec3::ZERO,
                radius: r,
            },
        )
        .unwrap();
    step_n(&mut world, 6); // settle the contact
    let p0 = world.body_position(ball).unwrap();
    let v0 = world.body_linear_velocity(ball).unwrap().dot(down) as f64;
    let steps = 90;
    step_n(&mut world, steps);
    let p1 = world.body_position(ball).unwrap();
    let t = steps as f64 / 60.0;
    let s = (p1.x - p0.x) * down.x as f64 + (p1.y - p0.y) * down.y as f64;
    let a = 2.0 * (s - v0 * t) / (t * t);
    let expected = 5.0 / 7.0 * 10.0 * (theta as f64).sin();
    assert!(rel(a, expected) < 0.02, "a = {a}, expected {expected}");
    // It rolls: ω r matches v.
    let v = world.body_linear_velocity(ball).unwrap().length();
    let w = world.body_angular_velocity(ball).unwrap().length();
    assert!(((w * r - v) / v).abs() < 0.02, "v {v} w r {}", w * r);
}

#[test]
fn a_ball_with_restitution_half_rebounds_to_a_quarter_of_its_drop() {
    for drop in [5.0f64, 8.0] {
        let mut world = world(false);
        ground(&mut world, 0.6);
        let r = 0.5f32;
        let ball = world
            .create_body(&BodyDef {
                body_type: BodyType::Dynamic,
                position: DVec3::new(0.0, drop + r as f64, 0.0),
                ..Default::default()
            })
            .unwrap();
        world
            .create_sphere_shape(
                ball,
                &ShapeDef {
                    restitution: 0.5,
                    ..Default::default()
                },
                &Sphere {
                    center: Vec3::ZERO,
                    radius: r,
                },
            )
            .unwrap();
        let mut bounced = false;
        let mut apex = 0.0f64;
        for _ in 0..600 {
            world.step(DT, SUBSTEPS).unwrap();
            let v = world.body_linear_velocity(ball).unwrap().y;
            let y = world.body_position(ball).unwrap().y - r as f64;
            if !bounced && v > 0.0 {
                bounced = true;
            }
            if bounced {
                if y > apex {
                    apex = y;
                }
                if v < 0.0 {
                    break;
                }
            }
        }
        assert!(bounced);
        let expected = 0.25 * drop;
        assert!(
            rel(apex, expected) < 0.05,
            "drop {drop}: apex {apex}, expected {expected}"
        );
    }
}

fn assert_mat_close(a: Mat3, b: Mat3, scale: f32, what: &str) {
    for (x, y) in [(a.cx, b.cx), (a.cy, b.cy), (a.cz, b.cz)] {
        assert!((x - y).length() <= 1e-5 * scale, "{what}: {a:?} vs {b:?}");
    }
}

#[test]
fn mass_and_inertia_of_every_shape_match_closed_forms() {
    let mut world = world(false);
    let density = 7.0f32;
    let def = ShapeDef {
        density,
        ..Default::default()
    };
    let pi = std::f32::consts::PI;
    let mk = |world: &mut maul3d::World| {
        world
            .create_body(&BodyDef {
                body_type: BodyType::Dynamic,
                ..Default::default()
            })
            .unwrap()
    };

    // Sphere.
    let b = mk(&mut world);
    let r = 0.7f32;
    world
        .create_sphere_shape(
            b,
            &def,
            &Sphere {
                center: Vec3::ZERO,
                radius: r,
            },
        )
        .unwrap();
    let m = world.body_mass_data(b).unwrap();
    let mass = density * 4.0 / 3.0 * pi * r * r * r;
    assert!((m.mass - mass).abs() <= 1e-5 * mass);
    assert_mat_close(
        m.inertia,
        Mat3::diagonal(Vec3::splat(0.4 * mass * r * r)),
        mass * r * r,
        "sphere",
    );

    // Box.
    let b = mk(&mut world);
    let (x, y, z) = (0.5f32, 1.5, 0.25);
    world.create_box_shape(b, &def, Vec3::new(x, y, z)).unwrap();
    let m = world.body_mass_data(b).unwrap();
    let mass = density * 8.0 * x * y * z;
    assert!((m.mass - mass).abs() <= 1e-5 * mass);
    let (a, bb, c) = (2.0 * x, 2.0 * y, 2.0 * z);
    let expected = Mat3::diagonal(Vec3::new(
        mass / 12.0 * (bb * bb + c * c),
        mass / 12.0 * (a * a + c * c),
        mass / 12.0 * (a * a + bb * bb),
    ));
    assert_mat_close(m.inertia, expected, mass * 4.0, "box");

    // Capsule along y: cylinder of height 2h plus two hemispheres.
    let b = mk(&mut world);
    let (h, r) = (0.8f32, 0.3f32);
    world
        .create_capsule_shape(
            b,
            &def,
            &Capsule {
                center1: Vec3::new(0.0, -h, 0.0),
                center2: Vec3::new(0.0, h, 0.0),
                radius: r,
            },
        )
        .unwrap();
    let m = world.body_mass_data(b).unwrap();
    let mc = density * pi * r * r * 2.0 * h;
    let ms = density * 4.0 / 3.0 * pi * r * r * r;
    assert!((m.mass - (mc + ms)).abs() <= 1e-5 * (mc + ms));
    let iy = mc * r * r / 2.0 + ms * 2.0 / 5.0 * r * r;
    let hh = 2.0 * h;
    let ix = mc * (hh * hh / 12.0 + r * r / 4.0)
        + ms * (2.0 * r * r / 5.0 + hh * hh / 4.0 + 3.0 * hh * r / 8.0);
    assert_mat_close(
        m.inertia,
        Mat3::diagonal(Vec3::new(ix, iy, ix)),
        (mc + ms) * 4.0,
        "capsule",
    );

    // Hull of a box's corners, offset from the body origin.
    let b = mk(&mut world);
    let mut pts = Vec::new();
    for i in 0..8 {
        let s = |bit: i32| if i & bit != 0 { 1.0f32 } else { -1.0 };
        pts.push(Vec3::new(s(1) * x + 2.0, s(2) * y, s(4) * z - 1.0));
    }
    let hull = world.create_hull(&pts).unwrap();
    world.create_hull_shape(b, &def, hull).unwrap();
    let m = world.body_mass_data(b).unwrap();
    assert!(
        (m.mass - mass).abs() <= 1e-5 * mass,
        "hull mass {} vs {mass}",
        m.mass
    );
    assert!((m.center - Vec3::new(2.0, 0.0, -1.0)).length() < 1e-5);
    assert_mat_close(m.inertia, expected, mass * 4.0, "hull");

    // Rotated box equals the box's tensor rotated.
    let b = mk(&mut world);
    let q = Quat::from_axis_angle(Vec3::new(1.0, 2.0, 3.0).normalize(), 0.9);
    world
        .create_offset_box_shape(b, &def, Vec3::new(x, y, z), Vec3::ZERO, q)
        .unwrap();
    let m = world.body_mass_data(b).unwrap();
    assert_mat_close(
        m.inertia,
        expected.rotate_tensor(q),
        mass * 4.0,
        "rotated box",
    );
}

#[test]
fn mass_inertia_and_centre_overrides_drive_the_body_and_are_state() {
    let make = || {
        let mut w = maul3d::World::new(&maul3d::WorldDef {
            gravity: Vec3::ZERO,
            enable_sleep: false,
            ..Default::default()
        })
        .unwrap();
        let d = ShapeDef {
            density: 1.0,
            ..Default::default()
        };
        let b = dynamic_box(&mut w, DVec3::ZERO, Vec3::splat(0.5), &d);
        (w, b)
    };
    let (plain, _) = make();
    let (mut w, b) = make();
    assert!((w.body_mass_data(b).unwrap().mass - 1.0).abs() < 1e-6);
    let m = maul3d::MassData {
        mass: 2.0,
        center: Vec3::new(0.5, 0.0, 0.0),
        inertia: Mat3::diagonal(Vec3::new(1.0, 2.0, 4.0)),
    };
    w.set_body_mass_data(b, Some(m)).unwrap();
    assert_eq!(w.body_mass_data(b).unwrap(), m);
    assert_ne!(w.hash(), plain.hash(), "the override is state");

    // Through the centre: v = J / m, no turn.
    w.apply_linear_impulse_to_center(b, Vec3::new(2.0, 0.0, 0.0))
        .unwrap();
    assert!((w.body_linear_velocity(b).unwrap() - Vec3::new(1.0, 0.0, 0.0)).length() < 1e-6);
    assert_eq!(w.body_angular_velocity(b).unwrap(), Vec3::ZERO);
    // About z: ω = L / I_zz.
    w.apply_angular_impulse(b, Vec3::new(0.0, 0.0, 4.0))
        .unwrap();
    assert!((w.body_angular_velocity(b).unwrap().z - 1.0).abs() < 1e-6);
    // At the body origin, half a metre behind the centre: the lever turns it back.
    w.apply_linear_impulse(b, Vec3::new(0.0, 2.0, 0.0), DVec3::ZERO)
        .unwrap();
    let (v, om) = (
        w.body_linear_velocity(b).unwrap(),
        w.body_angular_velocity(b).unwrap(),
    );
    assert!((v.y - 1.0).abs() < 1e-6, "{v:?}");
    assert!((om.z - (1.0 - 0.25)).abs() < 1e-6, "{om:?}");

    // Kept by snapshot and restore; `None` goes back to the shapes' mass.
    let mut snap = vec![0u8; w.snapshot_size()];
    w.snapshot(&mut snap).unwrap();
    let (mut r, rb) = make();
    r.restore(&snap).unwrap();
    assert_eq!(r.body_mass_data(rb).unwrap(), m);
    assert_eq!(r.hash(), w.hash());
    w.set_body_mass_data(b, None).unwrap();
    assert!((w.body_mass_data(b).unwrap().mass - 1.0).abs() < 1e-6);
    // Refused: a negative mass, with nothing changed.
    let before = w.hash();
    let bad = maul3d::MassData { mass: -1.0, ..m };
    assert!(w.set_body_mass_data(b, Some(bad)).is_err());
    assert_eq!(w.hash(), before);
}
