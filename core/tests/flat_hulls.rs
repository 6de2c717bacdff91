//! Flat hulls: coplanar points (an imported quad, a floor tile, three points) build a
//! thin hull, as Godot and Jolt accept them: the outline's corners moved
//! `FLAT_HULL_HALF_THICKNESS` to each side of the plane. Boxes, spheres and capsules rest
//! on a flat static hull; a flat dynamic hull lands and lies flat on a floor, on a mesh
//! and on another flat hull; rays hit its face; collinear and coincident points are still
//! refused, naming why; snapshots reproduce the same bits.

#![allow(clippy::disallowed_methods)] // measuring results in tests, not simulating

mod common;

use common::*;
use maul3d::geometry::quickhull::FLAT_HULL_HALF_THICKNESS;
use maul3d::math::{DVec3, Quat, Vec3};
use maul3d::{
    BodyDef, BodyId, BodyType, Capsule, Error, HullId, QueryFilter, ShapeDef, Sphere, World,
};

const H: f64 = FLAT_HULL_HALF_THICKNESS as f64;

/// `n` × `n` coplanar points spanning `size` × `size` on the plane y = 0.
fn flat_grid(size: f32, n: usize) -> Vec<Vec3> {
    let mut pts = Vec::new();
    for i in 0..n {
        for k in 0..n {
            let u = (i as f32 / (n - 1) as f32 - 0.5) * size;
            let w = (k as f32 / (n - 1) as f32 - 0.5) * size;
            pts.push(Vec3::new(u, 0.0, w));
        }
    }
    pts
}

fn body(w: &mut World, body_type: BodyType, p: DVec3, q: Quat) -> BodyId {
    w.create_body(&BodyDef {
        body_type,
        position: p,
        rotation: q,
        ..Default::default()
    })
    .unwrap()
}

/// A body of `body_type` at `p`, rotated by `q`, with a hull of `points`.
fn hull_body(w: &mut World, body_type: BodyType, p: DVec3, q: Quat, points: &[Vec3]) -> BodyId {
    let b = body(w, body_type, p, q);
    let h = w.create_hull(points).unwrap();
    w.create_hull_shape(b, &ShapeDef::default(), h).unwrap();
    b
}

fn up_of(w: &World, b: BodyId) -> Vec3 {
    w.body_rotation(b).unwrap().rotate(Vec3::Y)
}

fn tilted() -> Quat {
    Quat::from_axis_angle(Vec3::new(1.0, 0.0, 1.0).normalize(), 0.26)
}

#[test]
fn a_flat_square_builds_a_hull_whose_face_a_ray_hits_half_a_thickness_above_its_plane() {
    let mut w = world(false);
    let square = [
        Vec3::new(-2.0, 0.0, -2.0),
        Vec3::new(2.0, 0.0, -2.0),
        Vec3::new(2.0, 0.0, 2.0),
        Vec3::new(-2.0, 0.0, 2.0),
    ];
    hull_body(
        &mut w,
        BodyType::Static,
        DVec3::new(0.0, 1.0, 0.0),
        Quat::IDENTITY,
        &square,
    );
    let down = w
        .cast_ray_closest(
            DVec3::new(0.3, 3.0, 0.2),
            Vec3::new(0.0, -4.0, 0.0),
            &QueryFilter::default(),
        )
        .unwrap()
        .expect("the ray hits the flat hull");
    assert!((down.point.y - (1.0 + H)).abs() < 1e-5, "{:?}", down.point);
    assert!(down.normal.y > 0.9999, "{:?}", down.normal);
    let up = w
        .cast_ray_closest(
            DVec3::new(0.3, -1.0, 0.2),
            Vec3::new(0.0, 4.0, 0.0),
            &QueryFilter::default(),
        )
        .unwrap()
        .expect("a ray from below hits its underside");
    assert!((up.point.y - (1.0 - H)).abs() < 1e-5, "{:?}", up.point);
    assert!(up.normal.y < -0.9999, "{:?}", up.normal);
}

#[test]
fn boxes_spheres_and_capsules_rest_on_a_flat_static_hull() {
    let mut w = world(true);
    hull_body(
        &mut w,
        BodyType::Static,
        DVec3::ZERO,
        Quat::IDENTITY,
        &flat_grid(20.0, 5),
    );
    let cube = dynamic_box(
        &mut w,
        DVec3::new(0.3, 2.0, -0.2),
        Vec3::splat(0.5),
        &ShapeDef::default(),
    );
    let ball = body(
        &mut w,
        BodyType::Dynamic,
        DVec3::new(-4.0, 1.5, 3.0),
        Quat::IDENTITY,
    );
    w.create_sphere_shape(
        ball,
        &ShapeDef::default(),
        &Sphere {
            center: Vec3::ZERO,
            radius: 0.4,
        },
    )
    .unwrap();
    let pill = body(
        &mut w,
        BodyType::Dynamic,
        DVec3::new(4.0, 1.5, -3.0),
        Quat::IDENTITY,
    );
    w.create_capsule_shape(
        pill,
        &ShapeDef::default(),
        &Capsule {
            center1: Vec3::new(-0.5, 0.0, 0.0),
            center2: Vec3::new(0.5, 0.0, 0.0),
            radius: 0.3,
        },
    )
    .unwrap();
    step_n(&mut w, 240);
    for (b, rest, what) in [
        (cube, 0.5, "box"),
        (ball, 0.4, "sphere"),
        (pill, 0.3, "capsule"),
    ] {
        let y = w.body_position(b).unwrap().y;
        assert!(
            (y - (rest + H)).abs() < 0.005,
            "the {what} rests on the flat hull's face: y = {y}"
        );
        assert!(w.body_linear_velocity(b).unwrap().length() < 0.01, "{what}");
    }
    assert!(
        !w.body_is_awake(cube).unwrap(),
        "the box falls asleep on it"
    );
}

#[test]
fn a_flat_dynamic_hull_falls_and_lands_flat_on_a_floor() {
    let mut w = world(true);
    ground(&mut w, 0.6);
    let tile = hull_body(
        &mut w,
        BodyType::Dynamic,
        DVec3::new(0.0, 1.5, 0.0),
        tilted(),
        &flat_grid(1.0, 3),
    );
    // Its mass is that of the thin slab it is: density × area × thickness.
    let m = w.body_mass_data(tile).unwrap();
    let slab = 1000.0 * 1.0 * 2.0 * FLAT_HULL_HALF_THICKNESS;
    assert!((m.mass - slab).abs() < 1e-3 * slab, "{m:?}");
    assert!(m.center.length() < 1e-5, "{m:?}");
    // A thin plate: I = m (a² + b²) / 12 about its normal, m a² / 12 in its plane.
    assert!(
        (m.inertia.cy.y - slab * 2.0 / 12.0).abs() < 1e-2 * slab,
        "{m:?}"
    );
    assert!((m.inertia.cx.x - slab / 12.0).abs() < 1e-2 * slab, "{m:?}");
    step_n(&mut w, 240);
    let y = w.body_position(tile).unwrap().y;
    assert!((y - H).abs() < 0.005, "the tile lies on the floor: y = {y}");
    assert!(
        up_of(&w, tile).y > 0.999,
        "it lies flat: {:?}",
        up_of(&w, tile)
    );
    assert!(w.body_linear_velocity(tile).unwrap().length() < 0.01);
}

#[test]
fn flat_tiles_stack_on_each_other_and_land_on_a_mesh() {
    let mut w = world(true);
    // A mesh floor of two triangles at y = 0.
    let m = w
        .create_mesh(
            &[
                Vec3::new(-10.0, 0.0, -10.0),
                Vec3::new(10.0, 0.0, -10.0),
                Vec3::new(10.0, 0.0, 10.0),
                Vec3::new(-10.0, 0.0, 10.0),
            ],
            &[[0, 2, 1], [0, 3, 2]],
        )
        .unwrap();
    let g = body(&mut w, BodyType::Static, DVec3::ZERO, Quat::IDENTITY);
    w.create_mesh_shape(g, &ShapeDef::default(), m).unwrap();
    let tiles: Vec<BodyId> = (0..3)
        .map(|i| {
            hull_body(
                &mut w,
                BodyType::Dynamic,
                DVec3::new(0.05 * i as f64, 0.3 + 0.3 * i as f64, 0.0),
                Quat::IDENTITY,
                &flat_grid(1.0, 2),
            )
        })
        .collect();
    step_n(&mut w, 240);
    for (i, &t) in tiles.iter().enumerate() {
        let y = w.body_position(t).unwrap().y;
        let want = (2 * i + 1) as f64 * H;
        assert!(
            (y - want).abs() < 0.004,
            "tile {i} rests at {want}: y = {y}"
        );
        assert!(up_of(&w, t).y > 0.999, "tile {i} lies flat");
    }
}

#[test]
fn collinear_and_coincident_points_are_refused_naming_why_and_change_nothing() {
    let mut w = world(false);
    let before = w.hash();
    let line: Vec<Vec3> = (0..5)
        .map(|i| Vec3::new(i as f32, 0.5 * i as f32, 0.0))
        .collect();
    let same = [Vec3::new(1.0, 2.0, 3.0); 5];
    for (pts, why) in [(&line[..], "collinear"), (&same[..], "coincident")] {
        match w.create_hull(pts) {
            Err(Error::Argument { name, .. }) => assert!(name.contains(why), "{name}"),
            r => panic!("{why}: {r:?}"),
        }
    }
    match w.create_hull(&line[..2]) {
        Err(Error::Argument { name, value, .. }) => {
            assert_eq!((name, value), ("points.len()", 2.0))
        }
        r => panic!("{r:?}"),
    }
    assert_eq!(w.hash(), before, "the refusals changed nothing");
}

#[test]
fn a_world_with_flat_hulls_restores_from_a_snapshot_to_the_same_bits() {
    let mut w = world(false);
    ground(&mut w, 0.6);
    let triangle = [
        Vec3::new(-0.5, 0.0, -0.5),
        Vec3::new(0.5, 0.0, -0.5),
        Vec3::new(0.0, 0.0, 0.7),
    ];
    hull_body(
        &mut w,
        BodyType::Dynamic,
        DVec3::new(0.0, 1.0, 0.0),
        tilted(),
        &triangle,
    );
    hull_body(
        &mut w,
        BodyType::Dynamic,
        DVec3::new(2.0, 1.0, 0.0),
        tilted(),
        &flat_grid(1.0, 4),
    );
    let shared: HullId = w.create_hull(&flat_grid(0.5, 2)).unwrap();
    let b = body(
        &mut w,
        BodyType::Dynamic,
        DVec3::new(-2.0, 1.0, 0.0),
        tilted(),
    );
    w.create_hull_shape(b, &ShapeDef::default(), shared)
        .unwrap();
    step_n(&mut w, 10);
    let mut buf = vec![0u8; w.snapshot_size()];
    w.snapshot(&mut buf).unwrap();
    step_n(&mut w, 90);
    let first = w.hash();
    w.restore(&buf).unwrap();
    step_n(&mut w, 90);
    assert_eq!(w.hash(), first, "the restored world steps to the same bits");
}
