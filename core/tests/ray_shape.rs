//! Ray shapes (Godot's `SeparationRayShape3D`): a body with a downward ray of length 1
//! hovers 1 m above whatever is under it (every kind of shape), slides down a slope only
//! with `slide_on_slope`, adds no mass, is invisible to queries and to other rays; bad
//! input is refused by name; journals and snapshots reproduce the same bits.

#![allow(clippy::disallowed_methods)] // measuring results in tests, not simulating

mod common;

use common::*;
use maul3d::math::{DVec3, Quat, Vec3};
use maul3d::{
    BodyDef, BodyId, BodyType, Capsule, Cylinder, Error, MotionLocks, PlaneShape, QueryFilter,
    RayShape, ShapeDef, Sphere, World, WorldDef,
};

/// A downward ray of length `length` from the body origin.
fn down(length: f32, slide_on_slope: bool) -> RayShape {
    RayShape {
        origin: Vec3::ZERO,
        direction: Vec3::new(0.0, -1.0, 0.0),
        length,
        slide_on_slope,
    }
}

fn body(w: &mut World, body_type: BodyType, p: DVec3, q: Quat, locks: MotionLocks) -> BodyId {
    w.create_body(&BodyDef {
        body_type,
        position: p,
        rotation: q,
        motion_locks: locks,
        ..Default::default()
    })
    .unwrap()
}

/// A dynamic box of half-extent 0.5 at `p` with a downward ray of length 1 from its
/// bottom face's centre.
fn hovering_box(w: &mut World, p: DVec3, slide_on_slope: bool, locks: MotionLocks) -> BodyId {
    let b = body(w, BodyType::Dynamic, p, Quat::IDENTITY, locks);
    w.create_box_shape(b, &ShapeDef::default(), Vec3::splat(0.5))
        .unwrap();
    let ray = RayShape {
        origin: Vec3::new(0.0, -0.5, 0.0),
        ..down(1.0, slide_on_slope)
    };
    w.create_ray_shape(b, &ShapeDef::default(), &ray).unwrap();
    b
}

fn y(w: &World, b: BodyId) -> f64 {
    w.body_position(b).unwrap().y
}

#[test]
fn a_box_with_a_downward_ray_of_length_one_rests_one_metre_above_the_ground() {
    let mut w = world(false);
    ground(&mut w, 0.6);
    let b = hovering_box(
        &mut w,
        DVec3::new(0.0, 3.0, 0.0),
        false,
        MotionLocks::default(),
    );
    step_n(&mut w, 240);
    // Bottom face 1 m up: the centre at 1.5, within the contact slop.
    let h = y(&w, b);
    assert!((h - 1.5).abs() < 0.01, "centre at {h}");
    assert!(w.body_linear_velocity(b).unwrap().length() < 1e-2);
    // Without the ray the same box lies on the ground.
    let mut w = world(false);
    ground(&mut w, 0.6);
    let plain = dynamic_box(
        &mut w,
        DVec3::new(0.0, 3.0, 0.0),
        Vec3::splat(0.5),
        &ShapeDef::default(),
    );
    step_n(&mut w, 240);
    assert!((y(&w, plain) - 0.5).abs() < 0.01);
}

#[test]
fn a_ray_holds_its_body_its_length_above_every_kind_of_shape() {
    let flat = [
        Vec3::new(-5.0, 0.0, -5.0),
        Vec3::new(5.0, 0.0, -5.0),
        Vec3::new(5.0, 0.0, 5.0),
        Vec3::new(-5.0, 0.0, 5.0),
    ];
    for kind in 0..7 {
        let mut w = world(false);
        let g = body(
            &mut w,
            BodyType::Static,
            DVec3::ZERO,
            Quat::IDENTITY,
            MotionLocks::default(),
        );
        let def = ShapeDef::default();
        // Each with its top at y = 0 under the ray.
        match kind {
            0 => w.create_sphere_shape(
                g,
                &def,
                &Sphere {
                    center: Vec3::new(0.0, -2.0, 0.0),
                    radius: 2.0,
                },
            ),
            1 => w.create_capsule_shape(
                g,
                &def,
                &Capsule {
                    center1: Vec3::new(-1.0, -1.0, 0.0),
                    center2: Vec3::new(1.0, -1.0, 0.0),
                    radius: 1.0,
                },
            ),
            2 => w.create_offset_box_shape(
                g,
                &def,
                Vec3::new(3.0, 1.0, 3.0),
                Vec3::new(0.0, -1.0, 0.0),
                Quat::IDENTITY,
            ),
            3 => {
                let mut p = Vec::new();
                for i in 0..8 {
                    p.push(Vec3::new(
                        if i & 1 == 0 { -3.0 } else { 3.0 },
                        if i & 2 == 0 { -2.0 } else { 0.0 },
                        if i & 4 == 0 { -3.0 } else { 3.0 },
                    ));
                }
                let h = w.create_hull(&p).unwrap();
                w.create_hull_shape(g, &def, h)
            }
            4 => w.create_cylinder_shape(
                g,
                &def,
                &Cylinder {
                    center: Vec3::new(0.0, -1.0, 0.0),
                    rotation: Quat::IDENTITY,
                    half_height: 1.0,
                    radius: 3.0,
                },
            ),
            5 => w.create_plane_shape(
                g,
                &def,
                &PlaneShape {
                    normal: Vec3::Y,
                    offset: 0.0,
                },
            ),
            _ => {
                let m = w.create_mesh(&flat, &[[0, 3, 2], [0, 2, 1]]).unwrap();
                w.create_mesh_shape(g, &def, m)
            }
        }
        .unwrap();
        // A ball on a ray of length 1 from its centre, rotation locked.
        let locks = MotionLocks {
            angular_x: true,
            angular_y: true,
            angular_z: true,
            ..Default::default()
        };
        let b = body(
            &mut w,
            BodyType::Dynamic,
            DVec3::new(0.0, 2.0, 0.0),
            Quat::IDENTITY,
            locks,
        );
        w.create_sphere_shape(
            b,
            &def,
            &Sphere {
                center: Vec3::ZERO,
                radius: 0.25,
            },
        )
        .unwrap();
        w.create_ray_shape(b, &def, &down(1.0, false)).unwrap();
        step_n(&mut w, 180);
        let h = y(&w, b);
        assert!((h - 1.0).abs() < 0.01, "kind {kind}: centre at {h}");
    }
}

#[test]
fn a_ray_slides_down_a_frictionless_slope_only_with_slide_on_slope() {
    let run = |slide: bool| {
        let mut w = world(false);
        let angle = 0.35f32; // 20°
        let ramp = body(
            &mut w,
            BodyType::Static,
            DVec3::ZERO,
            Quat::from_axis_angle(Vec3::Z, angle),
            MotionLocks::default(),
        );
        w.create_offset_box_shape(
            ramp,
            &ShapeDef {
                friction: 0.0,
                ..Default::default()
            },
            Vec3::new(20.0, 0.5, 5.0),
            Vec3::new(0.0, -0.5, 0.0),
            Quat::IDENTITY,
        )
        .unwrap();
        let locks = MotionLocks {
            angular_x: true,
            angular_y: true,
            angular_z: true,
            ..Default::default()
        };
        let b = hovering_box(&mut w, DVec3::new(0.0, 2.0, 0.0), slide, locks);
        step_n(&mut w, 60);
        let x0 = w.body_position(b).unwrap().x;
        step_n(&mut w, 60);
        w.body_position(b).unwrap().x - x0
    };
    let still = run(false);
    let slid = run(true);
    assert!(
        still.abs() < 1e-3,
        "without slide_on_slope it moved {still}"
    );
    // Down the slope (towards -x for a ramp turned about +z), metres in a second.
    assert!(slid < -0.5, "with slide_on_slope it moved {slid}");
}

#[test]
fn a_ray_adds_no_mass_and_rays_pass_through_rays() {
    let mut w = world(false);
    let a = dynamic_box(
        &mut w,
        DVec3::new(0.0, 5.0, 0.0),
        Vec3::splat(0.5),
        &ShapeDef::default(),
    );
    let before = w.body_mass_data(a).unwrap();
    w.create_ray_shape(a, &ShapeDef::default(), &down(2.0, false))
        .unwrap();
    assert_eq!(w.body_mass_data(a).unwrap(), before);
    // A body of rays only, falling onto a static body of rays only: nothing stops it.
    let mut w = world(false);
    let s = body(
        &mut w,
        BodyType::Static,
        DVec3::ZERO,
        Quat::IDENTITY,
        MotionLocks::default(),
    );
    let up = RayShape {
        direction: Vec3::Y,
        ..down(2.0, false)
    };
    w.create_ray_shape(s, &ShapeDef::default(), &up).unwrap();
    let f = body(
        &mut w,
        BodyType::Dynamic,
        DVec3::new(0.0, 3.0, 0.0),
        Quat::IDENTITY,
        MotionLocks::default(),
    );
    w.create_ray_shape(f, &ShapeDef::default(), &down(1.0, false))
        .unwrap();
    step_n(&mut w, 90);
    assert!(y(&w, f) < -1.0, "{}", y(&w, f));
}

#[test]
fn queries_do_not_see_ray_shapes() {
    let mut w = world(false);
    let s = body(
        &mut w,
        BodyType::Static,
        DVec3::ZERO,
        Quat::IDENTITY,
        MotionLocks::default(),
    );
    w.create_ray_shape(s, &ShapeDef::default(), &down(2.0, false))
        .unwrap();
    // A ray crossing the segment (from y = 0 to -2) misses it.
    let hit = w
        .cast_ray_closest(
            DVec3::new(-1.0, -1.0, 0.0),
            Vec3::new(2.0, 0.0, 0.0),
            &QueryFilter::default(),
        )
        .unwrap();
    assert!(hit.is_none(), "{hit:?}");
    // A box added to the same body is hit.
    w.create_offset_box_shape(
        s,
        &ShapeDef::default(),
        Vec3::splat(0.25),
        Vec3::new(0.0, -1.0, 0.0),
        Quat::IDENTITY,
    )
    .unwrap();
    let hit = w
        .cast_ray_closest(
            DVec3::new(-1.0, -1.0, 0.0),
            Vec3::new(2.0, 0.0, 0.0),
            &QueryFilter::default(),
        )
        .unwrap()
        .unwrap();
    assert!((hit.point.x + 0.25).abs() < 1e-5);
}

#[test]
fn bad_ray_input_is_refused_by_name_and_changes_nothing() {
    let mut w = world(false);
    let b = dynamic_box(
        &mut w,
        DVec3::new(0.0, 5.0, 0.0),
        Vec3::splat(0.5),
        &ShapeDef::default(),
    );
    let hash = w.hash();
    let cases = [
        (
            RayShape {
                direction: Vec3::ZERO,
                ..down(1.0, false)
            },
            "ray.direction length",
        ),
        (
            RayShape {
                direction: Vec3::new(f32::NAN, 0.0, 0.0),
                ..down(1.0, false)
            },
            "ray.direction",
        ),
        (down(-0.5, false), "ray.length"),
        (down(f32::INFINITY, false), "ray.length"),
        (
            RayShape {
                origin: Vec3::new(0.0, 2e6, 0.0),
                ..down(1.0, false)
            },
            "ray.origin",
        ),
    ];
    for (ray, name) in cases {
        match w.create_ray_shape(b, &ShapeDef::default(), &ray) {
            Err(Error::Argument { name: n, .. }) => assert_eq!(n, name),
            other => panic!("{ray:?}: {other:?}"),
        }
        assert_eq!(w.hash(), hash);
    }
    // Length 0 is a ray that only touches at its origin: accepted.
    w.create_ray_shape(b, &ShapeDef::default(), &down(0.0, false))
        .unwrap();
}

fn snapshot(w: &World) -> Vec<u8> {
    let mut buf = vec![0u8; w.snapshot_size()];
    let n = w.snapshot(&mut buf).unwrap();
    buf.truncate(n);
    buf
}

#[test]
fn a_journal_with_ray_shapes_replays_and_a_snapshot_rolls_back_to_the_same_bits() {
    let mut w = World::new(&WorldDef {
        body_capacity: 64,
        shape_capacity: 64,
        contact_capacity: 512,
        pair_capacity: 512,
        ..Default::default()
    })
    .unwrap();
    let empty = snapshot(&w);
    w.start_journal(1 << 20).unwrap();
    ground(&mut w, 0.6);
    for k in 0..3 {
        hovering_box(
            &mut w,
            DVec3::new(1.5 * k as f64, 2.0 + k as f64, 0.0),
            k == 1,
            MotionLocks::default(),
        );
    }
    let mut hashes = Vec::new();
    let mut mid = Vec::new();
    for i in 0..90 {
        w.step(DT, SUBSTEPS).unwrap();
        hashes.push(w.hash());
        if i == 30 {
            mid = snapshot(&w);
        }
    }
    w.stop_journal().unwrap();
    let tape = w.journal_tape().to_vec();
    let mut t = World::new(&World::def_from_snapshot(&empty).unwrap()).unwrap();
    t.restore(&empty).unwrap();
    t.replay_journal(&tape).unwrap();
    assert_eq!(t.hash(), w.hash());
    let mut r = World::new(&World::def_from_snapshot(&mid).unwrap()).unwrap();
    r.restore(&mid).unwrap();
    assert_eq!(r.hash(), hashes[30]);
    for h in &hashes[31..] {
        r.step(DT, SUBSTEPS).unwrap();
        assert_eq!(r.hash(), *h);
    }
}
