//! Friction and restitution combine rules (`WorldDef::friction_combine`,
//! `restitution_combine`, `World::set_combine_rules`) and the rough and absorbent shape
//! flags, against closed forms: a box launched down a ramp stops after
//! v²/(2g(μ cosθ − sinθ)); a box released on a ramp sticks when μ ≥ tanθ and otherwise
//! slides ½ g (sinθ − μ cosθ) t²; a ball dropped from h rebounds to e² h.

#![allow(clippy::disallowed_methods)] // measuring results in tests, not simulating

mod common;
use common::*;
use maul3d::geometry::Sphere;
use maul3d::math::{DVec3, Vec3};
use maul3d::{BodyDef, BodyId, BodyType, CombineRule, ShapeDef, World, WorldDef};

const G: f64 = 10.0;

fn rel(a: f64, b: f64) -> f64 {
    ((a - b) / b).abs()
}

fn dvec(v: Vec3) -> DVec3 {
    DVec3::new(v.x as f64, v.y as f64, v.z as f64)
}

fn world_with(friction: CombineRule, restitution: CombineRule) -> World {
    World::new(&WorldDef {
        friction_combine: friction,
        restitution_combine: restitution,
        enable_sleep: false,
        ..Default::default()
    })
    .unwrap()
}

/// A ramp tilted by `theta` (falling towards +x) whose surface passes through the origin,
/// with friction `mu`, and a unit box resting on it 30 m uphill with `def`. Returns the
/// box and the downhill direction.
fn box_on_ramp(world: &mut World, theta: f32, mu: f32, def: &ShapeDef) -> (BodyId, Vec3) {
    let rotation = rot_about_z(-theta);
    let ramp = world
        .create_body(&BodyDef {
            rotation,
            position: dvec(rotation.rotate(Vec3::new(0.0, -1.0, 0.0))),
            ..Default::default()
        })
        .unwrap();
    let ramp_def = ShapeDef {
        friction: mu,
        ..Default::default()
    };
    world
        .create_box_shape(ramp, &ramp_def, Vec3::new(100.0, 1.0, 10.0))
        .unwrap();
    let n = rotation.rotate(Vec3::Y);
    let down = rotation.rotate(Vec3::X);
    let start = n * 0.5 - down * 30.0;
    let b = world
        .create_body(&BodyDef {
            body_type: BodyType::Dynamic,
            position: dvec(start),
            rotation,
            ..Default::default()
        })
        .unwrap();
    world
        .create_box_shape(b, def, Vec3::new(0.5, 0.5, 0.5))
        .unwrap();
    (b, down)
}

/// How far the box moved downhill since `p0`.
fn along(world: &World, b: BodyId, p0: DVec3, down: Vec3) -> f64 {
    let p = world.body_position(b).unwrap();
    (p.x - p0.x) * down.x as f64 + (p.y - p0.y) * down.y as f64 + (p.z - p0.z) * down.z as f64
}

/// Launches the box downhill at `v0` and returns how far it slid before it stopped.
fn stopping_distance(world: &mut World, b: BodyId, down: Vec3, v0: f32) -> f64 {
    step_n(world, 20); // settle the contact
    let p0 = world.body_position(b).unwrap();
    world.set_body_linear_velocity(b, down * v0).unwrap();
    for _ in 0..1200 {
        world.step(DT, SUBSTEPS).unwrap();
        if world.body_linear_velocity(b).unwrap().dot(down) < 1e-3 {
            break;
        }
    }
    along(world, b, p0, down)
}

#[test]
fn each_friction_rule_stops_a_box_on_a_ramp_where_the_closed_form_says() {
    let theta = 10.0f32.to_radians();
    let (ramp_mu, box_mu) = (0.4f32, 0.9f32);
    let v0 = 5.0f32;
    for (rule, mu) in [
        (CombineRule::Average, 0.65f64),
        (CombineRule::Min, 0.4),
        (CombineRule::Multiply, 0.36),
        (CombineRule::Max, 0.9),
        (CombineRule::ClampedSum, 1.0),
        (CombineRule::Geometric, (0.36f64).sqrt()),
    ] {
        let mut world = world_with(rule, CombineRule::Max);
        let def = ShapeDef {
            friction: box_mu,
            ..Default::default()
        };
        let (b, down) = box_on_ramp(&mut world, theta, ramp_mu, &def);
        let d = stopping_distance(&mut world, b, down, v0);
        let t = theta as f64;
        let expected = (v0 as f64).powi(2) / (2.0 * G * (mu * t.cos() - t.sin()));
        assert!(
            rel(d, expected) < 0.03,
            "{rule:?} (μ {mu}): slid {d} m, closed form {expected} m"
        );
    }
}

/// Releases the box at rest and returns how far it moved downhill in `seconds`.
fn slide_from_rest(world: &mut World, b: BodyId, down: Vec3, seconds: f64) -> f64 {
    step_n(world, 1);
    let p0 = world.body_position(b).unwrap();
    let v0 = world.body_linear_velocity(b).unwrap().dot(down) as f64;
    let steps = (seconds * 60.0).round() as usize;
    step_n(world, steps);
    along(world, b, p0, down) - v0 * seconds
}

/// The scene: a μ 0.5 box on a μ 1 ramp at 30° (tan 30° ≈ 0.577) sticks with
/// the default rule (√0.5 ≈ 0.71) and slides ½ g (sinθ − 0.5 cosθ) t² with Godot's
/// (the smaller: 0.5).
#[test]
fn a_half_friction_box_on_a_unit_friction_ramp_sticks_by_default_and_slides_by_min() {
    let theta = 30.0f32.to_radians();
    let def = ShapeDef {
        friction: 0.5,
        ..Default::default()
    };
    let mut world = World::new(&WorldDef {
        enable_sleep: false,
        ..Default::default()
    })
    .unwrap();
    let (b, down) = box_on_ramp(&mut world, theta, 1.0, &def);
    let stuck = slide_from_rest(&mut world, b, down, 2.0);
    assert!(stuck.abs() < 0.01, "default rule: moved {stuck} m");

    let mut world = world_with(CombineRule::Min, CombineRule::Max);
    let (b, down) = box_on_ramp(&mut world, theta, 1.0, &def);
    let t = 2.0;
    let s = slide_from_rest(&mut world, b, down, t);
    let th = theta as f64;
    let expected = 0.5 * G * (th.sin() - 0.5 * th.cos()) * t * t;
    assert!(
        rel(s, expected) < 0.03,
        "min rule: slid {s} m, closed form {expected} m"
    );
}

/// Godot's `rough`: under the min rule a rough μ 0.9 box on a μ 0.3 ramp at 30° keeps its
/// own friction and sticks; the same box not rough slides at μ 0.3.
#[test]
fn a_rough_shape_keeps_its_own_friction_under_the_min_rule() {
    let theta = 30.0f32.to_radians();
    for rough in [true, false] {
        let mut world = world_with(CombineRule::Min, CombineRule::ClampedSum);
        let def = ShapeDef {
            friction: 0.9,
            rough,
            ..Default::default()
        };
        let (b, down) = box_on_ramp(&mut world, theta, 0.3, &def);
        let t = 1.5;
        let s = slide_from_rest(&mut world, b, down, t);
        if rough {
            assert!(s.abs() < 0.01, "rough: moved {s} m");
        } else {
            let th = theta as f64;
            let expected = 0.5 * G * (th.sin() - 0.3 * th.cos()) * t * t;
            assert!(
                rel(s, expected) < 0.03,
                "slid {s} m, closed form {expected} m"
            );
        }
    }
    // Set after creation, it acts from the next step.
    let mut world = world_with(CombineRule::Min, CombineRule::ClampedSum);
    let def = ShapeDef {
        friction: 0.9,
        ..Default::default()
    };
    let (b, down) = box_on_ramp(&mut world, theta, 0.3, &def);
    let shape = first_shape(&world, b);
    world.set_shape_rough(shape, true).unwrap();
    assert!(world.shape_rough(shape).unwrap());
    let s = slide_from_rest(&mut world, b, down, 1.5);
    assert!(s.abs() < 0.01, "rough set later: moved {s} m");
}

fn first_shape(world: &World, b: BodyId) -> maul3d::ShapeId {
    world.body_shapes(b).unwrap().next().unwrap()
}

/// Drops a ball of restitution `e_ball` from `h` onto ground of restitution `e_ground`
/// and returns the height of its first rebound.
fn rebound(world: &mut World, e_ground: f32, absorbent: bool, e_ball: f32, h: f64) -> f64 {
    let g = world
        .create_body(&BodyDef {
            position: DVec3::new(0.0, -1.0, 0.0),
            ..Default::default()
        })
        .unwrap();
    let ground_def = ShapeDef {
        restitution: e_ground,
        absorbent,
        ..Default::default()
    };
    world
        .create_box_shape(g, &ground_def, Vec3::new(50.0, 1.0, 50.0))
        .unwrap();
    let r = 0.5f32;
    let ball = world
        .create_body(&BodyDef {
            body_type: BodyType::Dynamic,
            position: DVec3::new(0.0, h + r as f64, 0.0),
            ..Default::default()
        })
        .unwrap();
    let ball_def = ShapeDef {
        restitution: e_ball,
        ..Default::default()
    };
    let sphere = Sphere {
        center: Vec3::ZERO,
        radius: r,
    };
    world.create_sphere_shape(ball, &ball_def, &sphere).unwrap();
    let (mut bounced, mut apex) = (false, 0.0f64);
    for _ in 0..600 {
        world.step(DT, SUBSTEPS).unwrap();
        let v = world.body_linear_velocity(ball).unwrap().y;
        let y = world.body_position(ball).unwrap().y - r as f64;
        bounced |= v > 0.0;
        if bounced {
            apex = apex.max(y);
            if v < 0.0 {
                break;
            }
        }
    }
    assert!(bounced);
    apex
}

#[test]
fn restitution_rules_and_absorbent_set_the_rebound_height() {
    let h = 5.0;
    for (rule, absorbent, e) in [
        (CombineRule::Max, false, 0.5f64),
        (CombineRule::ClampedSum, false, 0.7),
        // Godot's absorbent: the ground's bounce is subtracted.
        (CombineRule::ClampedSum, true, 0.3),
        (CombineRule::Average, false, 0.35),
        (CombineRule::Max, true, 0.5),
    ] {
        let mut world = world_with(CombineRule::Geometric, rule);
        let apex = rebound(&mut world, 0.2, absorbent, 0.5, h);
        // The rebound's restitution, √(apex / h).
        let measured = (apex / h).sqrt();
        assert!(
            rel(measured, e) < 0.03,
            "{rule:?} absorbent {absorbent}: apex {apex} is e = {measured}, expected {e}"
        );
    }
    // Clamped at 1: 0.8 + 0.6 bounces as 1 (the ball comes back to its drop height).
    let mut world = world_with(CombineRule::Geometric, CombineRule::ClampedSum);
    let apex = rebound(&mut world, 0.6, false, 0.8, h);
    assert!(rel(apex, h) < 0.05, "apex {apex}");
    // Absorbent more than the ball's bounce: no bounce at all.
    let mut world = world_with(CombineRule::Geometric, CombineRule::ClampedSum);
    let mut stays = true;
    let g = world.create_body(&BodyDef::default()).unwrap();
    let absorbent = ShapeDef {
        restitution: 0.9,
        absorbent: true,
        ..Default::default()
    };
    world
        .create_box_shape(g, &absorbent, Vec3::new(50.0, 1.0, 50.0))
        .unwrap();
    let ball = dynamic_box(
        &mut world,
        DVec3::new(0.0, 6.5, 0.0),
        Vec3::splat(0.5),
        &ShapeDef {
            restitution: 0.5,
            ..Default::default()
        },
    );
    for _ in 0..120 {
        world.step(DT, SUBSTEPS).unwrap();
        stays &= world.body_linear_velocity(ball).unwrap().y < 0.5;
    }
    assert!(stays, "an absorbent ground bounced the box");
}

/// The rules and flags are state: a snapshot carries them (its def too), a restore brings
/// them back with the same hash, and a world with the default rules hashes as before the
/// rules existed (its sleep byte is a plain flag: `test/hashes.txt` pins that).
#[test]
fn combine_rules_and_material_flags_survive_snapshot_and_restore() {
    let mut world = world_with(CombineRule::Min, CombineRule::ClampedSum);
    let def = ShapeDef {
        friction: 0.5,
        restitution: 0.3,
        rough: true,
        absorbent: true,
        ..Default::default()
    };
    let (b, _) = box_on_ramp(&mut world, 0.3, 1.0, &def);
    step_n(&mut world, 10);
    let mut buf = vec![0u8; world.snapshot_size()];
    let n = world.snapshot(&mut buf).unwrap();
    buf.truncate(n);
    let hash = world.hash();

    let from = World::def_from_snapshot(&buf).unwrap();
    assert_eq!(from.friction_combine, CombineRule::Min);
    assert_eq!(from.restitution_combine, CombineRule::ClampedSum);
    assert!(!from.enable_sleep);

    let mut other = World::new(&WorldDef {
        enable_sleep: false,
        ..Default::default()
    })
    .unwrap();
    other.restore(&buf).unwrap();
    assert_eq!(other.hash(), hash);
    assert_eq!(
        other.combine_rules(),
        (CombineRule::Min, CombineRule::ClampedSum)
    );
    // Cleared in the world itself, a restore brings the flags and rules back.
    let shape = first_shape(&world, b);
    world.set_shape_rough(shape, false).unwrap();
    world.set_shape_absorbent(shape, false).unwrap();
    world.set_combine_rules(CombineRule::Average, CombineRule::Average);
    assert_ne!(world.hash(), hash);
    world.restore(&buf).unwrap();
    assert_eq!(world.hash(), hash);
    assert!(world.shape_rough(shape).unwrap());
    assert!(world.shape_absorbent(shape).unwrap());
    assert_eq!(
        world.combine_rules(),
        (CombineRule::Min, CombineRule::ClampedSum)
    );
    step_n(&mut world, 30);
    step_n(&mut other, 30);
    assert_eq!(other.hash(), world.hash());

    // Changing a rule changes the hash; changing it back restores it.
    let before = world.hash();
    world.set_combine_rules(CombineRule::Geometric, CombineRule::Max);
    assert_ne!(world.hash(), before);
    world.set_combine_rules(CombineRule::Min, CombineRule::ClampedSum);
    assert_eq!(world.hash(), before);
}
