//! Triangle meshes and height fields: creation and its refusals, the content budget,
//! contacts per triangle with smooth internal edges, queries, and the state they are.

#![allow(clippy::disallowed_methods)] // measuring results in tests, not simulating

mod common;

use common::*;
use maul3d::geometry::mesh::mesh_content_bytes;
use maul3d::math::{DVec3, Quat, Vec3};
use maul3d::{
    BodyDef, BodyId, BodyType, Capsule, Error, HeightFieldDef, MeshId, QueryFilter, QueryShape,
    ShapeDef, Sphere, World, WorldDef,
};

/// A flat grid of `n × n` square cells of side `cell`, two triangles each, at y = 0,
/// centred on the origin; `bump(x, z)` lifts its vertices.
fn grid(n: usize, cell: f32, bump: impl Fn(usize, usize) -> f32) -> (Vec<Vec3>, Vec<[u32; 3]>) {
    let half = n as f32 * cell * 0.5;
    let mut v = Vec::new();
    for z in 0..=n {
        for x in 0..=n {
            v.push(Vec3::new(
                x as f32 * cell - half,
                bump(x, z),
                z as f32 * cell - half,
            ));
        }
    }
    let w = (n + 1) as u32;
    let mut t = Vec::new();
    for z in 0..n as u32 {
        for x in 0..n as u32 {
            let (a, b, c, d) = (
                z * w + x,
                z * w + x + 1,
                (z + 1) * w + x,
                (z + 1) * w + x + 1,
            );
            t.push([a, c, d]);
            t.push([a, d, b]);
        }
    }
    (v, t)
}

fn mesh_world() -> World {
    World::new(&WorldDef {
        body_capacity: 1024,
        shape_capacity: 1024,
        contact_capacity: 16384,
        pair_capacity: 4096,
        ..Default::default()
    })
    .unwrap()
}

/// A static body at `at` with a shape of `mesh`.
fn static_mesh(w: &mut World, mesh: MeshId, at: DVec3, friction: f32) -> BodyId {
    let b = w
        .create_body(&BodyDef {
            position: at,
            ..Default::default()
        })
        .unwrap();
    w.create_mesh_shape(
        b,
        &ShapeDef {
            friction,
            ..Default::default()
        },
        mesh,
    )
    .unwrap();
    b
}

fn dynamic(w: &mut World, at: DVec3) -> BodyId {
    w.create_body(&BodyDef {
        body_type: BodyType::Dynamic,
        position: at,
        ..Default::default()
    })
    .unwrap()
}

#[test]
fn damaged_mesh_content_is_refused_and_changes_nothing() {
    let mut w = mesh_world();
    let (v, t) = grid(3, 1.0, |_, _| 0.0);
    let before = w.hash();
    let mut nan = v.clone();
    nan[5].y = f32::NAN;
    let mut far = v.clone();
    far[2].x = 2.0e6;
    let mut bad_index = t.clone();
    bad_index[4][1] = v.len() as u32;
    let mut degenerate = t.clone();
    degenerate[0] = [0, 1, 2]; // three vertices on one row: collinear
    let mut repeated = t.clone();
    repeated[3] = [7, 7, 8];
    for (what, vs, ts) in [
        ("mesh vertex (its index)", &nan, &t),
        ("mesh vertex (its index)", &far, &t),
        ("mesh vertex index", &v, &bad_index),
        ("degenerate mesh triangle (its index)", &v, &degenerate),
        ("degenerate mesh triangle (its index)", &v, &repeated),
        ("mesh triangle count", &v, &vec![]),
        ("mesh vertex count", &v[..2].to_vec(), &vec![]),
    ] {
        match w.create_mesh(vs, ts) {
            Err(Error::Argument { name, .. }) => assert_eq!(name, what),
            other => panic!("{what}: {other:?}"),
        }
    }
    // One triangle past 2^24 (zeroed pages the check never reads).
    let too_many = vec![[0u32; 3]; (1 << 24) + 1];
    match w.create_mesh(&v, &too_many) {
        Err(Error::Argument { name, value, .. }) => {
            assert_eq!(name, "mesh triangle count");
            assert_eq!(value, ((1u64 << 24) + 1) as f64);
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(w.hash(), before);
    assert_eq!(w.content_usage(), 0);
    assert!(w.create_mesh(&v, &t).is_ok());
}

#[test]
fn content_draws_from_a_fixed_budget_and_is_given_back() {
    let (v, t) = grid(10, 1.0, |_, _| 0.0);
    let bytes = mesh_content_bytes(v.len() as u64, t.len() as u64);
    let mut w = World::new(&WorldDef {
        content_capacity: 2 * bytes + bytes / 2,
        ..Default::default()
    })
    .unwrap();
    let a = w.create_mesh(&v, &t).unwrap();
    assert_eq!(w.content_usage(), bytes);
    let b = w.create_mesh(&v, &t).unwrap();
    assert_eq!(w.content_usage(), 2 * bytes);
    let before = w.hash();
    let memory = w.memory_usage();
    match w.create_mesh(&v, &t) {
        Err(Error::Capacity { what, capacity }) => {
            assert_eq!(what, "content_capacity");
            assert_eq!(capacity, 2 * bytes + bytes / 2);
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(w.hash(), before);
    assert_eq!(w.memory_usage(), memory);
    w.destroy_mesh(a).unwrap();
    assert_eq!(w.content_usage(), bytes);
    assert!(w.memory_usage() < memory);
    let c = w.create_mesh(&v, &t).unwrap();
    assert_ne!(a, c);
    // A mesh in use stays.
    let body = w.create_body(&BodyDef::default()).unwrap();
    w.create_mesh_shape(body, &ShapeDef::default(), b).unwrap();
    assert!(matches!(w.destroy_mesh(b), Err(Error::State(_))));
    let hf_heights = vec![0.0f32; 64 * 64];
    let hf = HeightFieldDef {
        count_x: 64,
        count_z: 64,
        heights: &hf_heights,
        holes: &[],
        scale: Vec3::ONE,
    };
    // 64 × 64 samples: 16 KiB of heights and 8 KiB of edge flags, beyond what is left.
    assert!(matches!(
        w.create_height_field(&hf),
        Err(Error::Capacity {
            what: "content_capacity",
            ..
        })
    ));
}

#[test]
fn mesh_shapes_go_on_static_and_kinematic_bodies_only() {
    let mut w = mesh_world();
    let (v, t) = grid(2, 1.0, |_, _| 0.0);
    let mesh = w.create_mesh(&v, &t).unwrap();
    let d = dynamic(&mut w, DVec3::ZERO);
    assert!(matches!(
        w.create_mesh_shape(d, &ShapeDef::default(), mesh),
        Err(Error::Argument { .. })
    ));
    let k = w
        .create_body(&BodyDef {
            body_type: BodyType::Kinematic,
            ..Default::default()
        })
        .unwrap();
    w.create_mesh_shape(k, &ShapeDef::default(), mesh).unwrap();
    let before = w.hash();
    assert!(matches!(
        w.set_body_type(k, BodyType::Dynamic),
        Err(Error::Argument { .. })
    ));
    assert_eq!(w.hash(), before);
    w.set_body_type(k, BodyType::Static).unwrap();
}

/// Rests `shape` (made by `make`) on a mesh floor and returns its height after 2 s.
fn rest_height(make: impl Fn(&mut World, BodyId)) -> f64 {
    let mut w = mesh_world();
    let (v, t) = grid(8, 1.0, |_, _| 0.0);
    let mesh = w.create_mesh(&v, &t).unwrap();
    static_mesh(&mut w, mesh, DVec3::ZERO, 0.6);
    let b = dynamic(&mut w, DVec3::new(0.3, 1.5, 0.2));
    make(&mut w, b);
    step_n(&mut w, 120);
    w.body_position(b).unwrap().y
}

#[test]
fn spheres_capsules_boxes_and_hulls_rest_on_a_mesh_floor() {
    let sphere = rest_height(|w, b| {
        w.create_sphere_shape(
            b,
            &ShapeDef::default(),
            &Sphere {
                center: Vec3::ZERO,
                radius: 0.4,
            },
        )
        .unwrap();
    });
    assert!((sphere - 0.4).abs() < 0.01, "sphere at {sphere}");
    let capsule = rest_height(|w, b| {
        w.create_capsule_shape(
            b,
            &ShapeDef::default(),
            &Capsule {
                center1: Vec3::new(-0.5, 0.0, 0.0),
                center2: Vec3::new(0.5, 0.0, 0.0),
                radius: 0.3,
            },
        )
        .unwrap();
    });
    assert!((capsule - 0.3).abs() < 0.01, "capsule at {capsule}");
    let cube = rest_height(|w, b| {
        w.create_box_shape(b, &ShapeDef::default(), Vec3::new(0.5, 0.25, 0.5))
            .unwrap();
    });
    assert!((cube - 0.25).abs() < 0.01, "box at {cube}");
    let hull = rest_height(|w, b| {
        let h = w
            .create_hull(&[
                Vec3::new(-0.5, -0.2, -0.5),
                Vec3::new(0.5, -0.2, -0.5),
                Vec3::new(0.5, -0.2, 0.5),
                Vec3::new(-0.5, -0.2, 0.5),
                Vec3::new(0.0, 0.6, 0.0),
            ])
            .unwrap();
        w.create_hull_shape(b, &ShapeDef::default(), h).unwrap();
    });
    assert!((hull - 0.2).abs() < 0.01, "hull at {hull}");
    // Standing on a cap, and lying on its side (the 32-sided prism's flat is
    // r·cos(5.625°) below the axis).
    let standing = rest_height(|w, b| {
        w.create_cylinder_shape(
            b,
            &ShapeDef::default(),
            &maul3d::Cylinder {
                half_height: 0.3,
                radius: 0.4,
                ..Default::default()
            },
        )
        .unwrap();
    });
    assert!((standing - 0.3).abs() < 0.01, "cylinder at {standing}");
    let lying = rest_height(|w, b| {
        w.create_cylinder_shape(
            b,
            &ShapeDef::default(),
            &maul3d::Cylinder {
                half_height: 0.5,
                radius: 0.3,
                rotation: Quat::from_axis_angle(Vec3::X, core::f32::consts::FRAC_PI_2),
                ..Default::default()
            },
        )
        .unwrap();
    });
    assert!((lying - 0.3).abs() < 0.01, "lying cylinder at {lying}");
}

/// Slides a box at 6 m/s without friction across `floor` (built into the world) and
/// returns the largest vertical departure from its resting height, and how far it went.
fn slide(build: impl Fn(&mut World)) -> (f64, f64) {
    let mut w = World::new(&WorldDef {
        enable_sleep: false,
        contact_capacity: 16384,
        ..Default::default()
    })
    .unwrap();
    build(&mut w);
    let b = dynamic(&mut w, DVec3::new(-15.0, 0.25, -4.0));
    w.create_box_shape(
        b,
        &ShapeDef {
            friction: 0.0,
            ..Default::default()
        },
        Vec3::new(0.5, 0.25, 0.5),
    )
    .unwrap();
    step_n(&mut w, 30);
    let rest = w.body_position(b).unwrap().y;
    let start = w.body_position(b).unwrap();
    w.set_body_linear_velocity(b, Vec3::new(6.0, 0.0, 1.7))
        .unwrap();
    let mut worst = 0.0f64;
    for _ in 0..250 {
        w.step(DT, SUBSTEPS).unwrap();
        let y = w.body_position(b).unwrap().y;
        worst = worst.max((y - rest).abs());
    }
    let end = w.body_position(b).unwrap();
    (worst, horizontal_distance(start, end))
}

#[test]
fn a_box_slides_across_a_flat_mesh_of_many_triangles_without_jumping() {
    let (worst, travelled) = slide(|w| {
        // 40 m × 40 m of 0.5 m cells: 12,800 triangles.
        let (v, t) = grid(80, 0.5, |_, _| 0.0);
        let mesh = w.create_mesh(&v, &t).unwrap();
        static_mesh(w, mesh, DVec3::ZERO, 0.0);
    });
    assert!(travelled > 20.0, "travelled {travelled} m");
    assert!(worst < 1.0e-3, "vertical departure {worst} m");
}

#[test]
fn a_box_slides_across_a_flat_height_field_without_jumping() {
    let (worst, travelled) = slide(|w| {
        let heights = vec![0.25f32; 81 * 81];
        let hf = w
            .create_height_field(&HeightFieldDef {
                count_x: 81,
                count_z: 81,
                heights: &heights,
                holes: &[],
                scale: Vec3::new(0.5, 4.0, 0.5),
            })
            .unwrap();
        // Heights 0.25 × 4 = 1 m above the body at y = −1: the surface at y = 0.
        static_mesh(w, hf, DVec3::new(-20.0, -1.0, -20.0), 0.0);
    });
    assert!(travelled > 20.0, "travelled {travelled} m");
    assert!(worst < 1.0e-3, "vertical departure {worst} m");
}

#[test]
fn rays_pass_triangles_met_from_behind_only_without_hit_back_faces() {
    let mut w = mesh_world();
    let (v, t) = grid(10, 1.0, |_, _| 0.0);
    let mesh = w.create_mesh(&v, &t).unwrap();
    static_mesh(&mut w, mesh, DVec3::new(100.0, 0.0, 0.0), 0.6);
    let heights = vec![0.0f32; 25];
    let holes = vec![false; 16];
    let hf = w
        .create_height_field(&HeightFieldDef {
            count_x: 5,
            count_z: 5,
            heights: &heights,
            holes: &holes,
            scale: Vec3::new(2.0, 1.0, 2.0),
        })
        .unwrap();
    static_mesh(&mut w, hf, DVec3::new(-50.0, 0.0, -50.0), 0.6);
    let f = QueryFilter::default();
    let front_only = maul3d::RayOptions {
        hit_back_faces: false,
        ..Default::default()
    };
    for at in [DVec3::new(101.3, 0.0, 0.7), DVec3::new(-45.0, 0.0, -43.0)] {
        let above = at + DVec3::new(0.0, 2.0, 0.0);
        let below = at - DVec3::new(0.0, 2.0, 0.0);
        let (down, up) = (Vec3::new(0.0, -4.0, 0.0), Vec3::new(0.0, 4.0, 0.0));
        // From in front (above): hit either way, at the surface, normal up.
        for o in [Default::default(), front_only] {
            let hit = w
                .cast_ray_closest_with(above, down, &f, &o)
                .unwrap()
                .unwrap();
            assert!((hit.fraction - 0.5).abs() < 1e-6);
            assert!((hit.normal - Vec3::Y).length() < 1e-6, "{:?}", hit.normal);
        }
        // From behind (below): hit with back faces (the default), passed through without.
        let back = w.cast_ray_closest(below, up, &f).unwrap().unwrap();
        assert!((back.fraction - 0.5).abs() < 1e-6);
        assert!((back.normal + Vec3::Y).length() < 1e-6, "{:?}", back.normal);
        assert_eq!(
            w.cast_ray_closest_with(below, up, &f, &front_only).unwrap(),
            None
        );
    }
}

#[test]
fn rays_meet_meshes_and_height_fields_where_the_closed_form_says() {
    let mut w = mesh_world();
    // A slope: y = 0.5·x over the grid.
    let (v, t) = grid(10, 1.0, |x, _| 0.5 * (x as f32 - 5.0));
    let mesh = w.create_mesh(&v, &t).unwrap();
    let body = static_mesh(&mut w, mesh, DVec3::new(100.0, 0.0, 0.0), 0.6);
    // Straight down at x = 101.3 (local 1.3): the surface at y = 0.65.
    let hit = w
        .cast_ray_closest(
            DVec3::new(101.3, 10.0, 0.7),
            Vec3::new(0.0, -20.0, 0.0),
            &QueryFilter::default(),
        )
        .unwrap()
        .unwrap();
    assert_eq!(hit.body, body);
    assert!((hit.fraction - (10.0 - 0.65) / 20.0).abs() < 1e-5);
    assert!((hit.point.y - 0.65).abs() < 1e-5);
    let n = Vec3::new(-0.5, 1.0, 0.0).normalize();
    assert!((hit.normal - n).length() < 1e-5, "{:?}", hit.normal);

    // A height field with a hole: the ray through the hole goes on to the floor below.
    let heights: Vec<f32> = (0..25).map(|i| (i % 5) as f32 * 0.1).collect();
    let mut holes = vec![false; 16];
    holes[5] = true; // cell (1, 1)
    let hf = w
        .create_height_field(&HeightFieldDef {
            count_x: 5,
            count_z: 5,
            heights: &heights,
            holes: &holes,
            scale: Vec3::new(2.0, 1.0, 2.0),
        })
        .unwrap();
    static_mesh(&mut w, hf, DVec3::new(-50.0, 0.0, -50.0), 0.6);
    // Sample x → height 0.1·(x/2) along x: at local x = 5.0 the surface is at 0.25.
    let down = Vec3::new(0.0, -10.0, 0.0);
    let hit = w
        .cast_ray_closest(DVec3::new(-45.0, 5.0, -43.0), down, &QueryFilter::default())
        .unwrap()
        .unwrap();
    assert!((hit.point.y - 0.25).abs() < 1e-5, "{}", hit.point.y);
    assert!((hit.fraction - 0.475).abs() < 1e-5);
    // Through the hole (local x, z in (2, 4)): nothing there.
    let miss = w
        .cast_ray_closest(DVec3::new(-47.0, 5.0, -47.0), down, &QueryFilter::default())
        .unwrap();
    assert!(miss.is_none());
    // A ball of radius 0.2 over local x = 5 (surface 0.25): touching from 0.45 down.
    let ball = QueryShape::Sphere(Sphere {
        center: Vec3::ZERO,
        radius: 0.2,
    });
    let mut out = [maul3d::ShapeId::default(); 2];
    let f = QueryFilter::default();
    for (y, n) in [(0.44, 1), (0.46, 0)] {
        let at = DVec3::new(-45.0, y, -43.0);
        assert_eq!(
            w.overlap_shape(&ball, at, Quat::IDENTITY, &f, &mut out)
                .unwrap(),
            n,
            "{y}"
        );
    }
    // Cast down from 5: it meets the surface after 5 − 0.45 m.
    let cast = w
        .cast_shape(
            &ball,
            DVec3::new(-45.0, 5.0, -43.0),
            Quat::IDENTITY,
            down,
            &f,
        )
        .unwrap()
        .unwrap();
    assert!((cast.fraction - 0.455).abs() < 2e-4, "{}", cast.fraction);
}

#[test]
fn debug_draw_describes_a_mesh_triangle_by_triangle() {
    struct Count(usize);
    impl maul3d::DebugDraw for Count {
        fn shape(
            &mut self,
            _: maul3d::ShapeId,
            _: BodyId,
            _: DVec3,
            _: Quat,
            geometry: &maul3d::DebugGeometry,
            _: bool,
        ) {
            if let maul3d::DebugGeometry::Triangle(v) = geometry {
                assert!((v[1] - v[0]).cross(v[2] - v[0]).y > 0.0);
                self.0 += 1;
            }
        }
    }
    let mut w = mesh_world();
    let (v, t) = grid(5, 1.0, |_, _| 0.0);
    let mesh = w.create_mesh(&v, &t).unwrap();
    static_mesh(&mut w, mesh, DVec3::ZERO, 0.6);
    let heights = vec![0.0f32; 16];
    let mut holes = vec![false; 9];
    holes[4] = true;
    let hf = w
        .create_height_field(&HeightFieldDef {
            count_x: 4,
            count_z: 4,
            heights: &heights,
            holes: &holes,
            scale: Vec3::ONE,
        })
        .unwrap();
    static_mesh(&mut w, hf, DVec3::new(10.0, 0.0, 0.0), 0.6);
    let mut count = Count(0);
    w.debug_draw(&maul3d::DebugDrawOptions::default(), &mut count);
    // 50 mesh triangles, and 18 − 2 of the height field (one cell is a hole).
    assert_eq!(count.0, 50 + 16);
}

#[test]
fn overlap_and_shape_cast_queries_see_mesh_triangles() {
    let mut w = mesh_world();
    let (v, t) = grid(6, 1.0, |_, _| 0.0);
    let mesh = w.create_mesh(&v, &t).unwrap();
    static_mesh(&mut w, mesh, DVec3::ZERO, 0.6);
    let ball = |r| {
        QueryShape::Sphere(Sphere {
            center: Vec3::ZERO,
            radius: r,
        })
    };
    let mut out = [maul3d::ShapeId::default(); 4];
    let f = QueryFilter::default();
    let hits = |w: &World, y: f64, out: &mut [maul3d::ShapeId]| {
        w.overlap_shape(&ball(0.5), DVec3::new(0.2, y, 0.4), Quat::IDENTITY, &f, out)
            .unwrap()
    };
    assert_eq!(hits(&w, 0.49, &mut out), 1);
    assert_eq!(hits(&w, 0.51, &mut out), 0);
    assert_eq!(hits(&w, -0.2, &mut out), 1);
    // A box dropped from 3 m meets the floor after 3 − 0.25 m.
    let cast = w
        .cast_shape(
            &QueryShape::Box(maul3d::BoxShape {
                half: Vec3::new(0.5, 0.25, 0.5),
                center: Vec3::ZERO,
                rotation: Quat::IDENTITY,
            }),
            DVec3::new(0.7, 3.0, -0.3),
            Quat::IDENTITY,
            Vec3::new(0.0, -10.0, 0.0),
            &f,
        )
        .unwrap()
        .unwrap();
    assert!((cast.fraction - 0.275).abs() < 2e-4, "{}", cast.fraction);
}

#[test]
fn a_pair_begins_once_and_ends_once_whatever_its_triangles_do() {
    let mut w = mesh_world();
    let (v, t) = grid(20, 0.25, |_, _| 0.0);
    let mesh = w.create_mesh(&v, &t).unwrap();
    let floor = w.create_body(&BodyDef::default()).unwrap();
    let floor_shape = w
        .create_mesh_shape(
            floor,
            &ShapeDef {
                enable_contact_events: true,
                ..Default::default()
            },
            mesh,
        )
        .unwrap();
    let b = dynamic(&mut w, DVec3::new(0.1, 1.0, 0.1));
    w.create_box_shape(b, &ShapeDef::default(), Vec3::new(0.6, 0.25, 0.6))
        .unwrap();
    let (mut begins, mut ends) = (0, 0);
    for _ in 0..90 {
        w.step(DT, SUBSTEPS).unwrap();
        begins += w.contact_begin_events().len();
        ends += w.contact_end_events().len();
    }
    assert_eq!((begins, ends), (1, 0));
    let ev_shape = floor_shape;
    // Thrown up and away: one end.
    w.set_body_linear_velocity(b, Vec3::new(0.0, 12.0, 0.0))
        .unwrap();
    for _ in 0..30 {
        w.step(DT, SUBSTEPS).unwrap();
        begins += w.contact_begin_events().len();
        for e in w.contact_end_events() {
            assert!(e.shape_a == ev_shape || e.shape_b == ev_shape);
            ends += 1;
        }
    }
    assert_eq!((begins, ends), (1, 1));
}

#[test]
fn a_fast_sphere_does_not_pass_through_a_mesh() {
    let mut w = mesh_world();
    let (v, t) = grid(8, 1.0, |_, _| 0.0);
    let mesh = w.create_mesh(&v, &t).unwrap();
    static_mesh(&mut w, mesh, DVec3::ZERO, 0.6);
    let b = dynamic(&mut w, DVec3::new(0.2, 3.0, 0.3));
    w.create_sphere_shape(
        b,
        &ShapeDef::default(),
        &Sphere {
            center: Vec3::ZERO,
            radius: 0.1,
        },
    )
    .unwrap();
    // 300 m/s: 5 m a step, far more than the prism's depth.
    w.set_body_linear_velocity(b, Vec3::new(0.0, -300.0, 0.0))
        .unwrap();
    for _ in 0..30 {
        w.step(DT, SUBSTEPS).unwrap();
        assert!(w.body_position(b).unwrap().y > 0.0);
    }
    assert!((w.body_position(b).unwrap().y - 0.1).abs() < 0.02);
}

fn terrain_world() -> (World, Vec<BodyId>) {
    let mut w = mesh_world();
    let (v, t) = grid(24, 1.0, |x, z| {
        0.4 * ((x as f32 * 0.7).sin_approx() + (z as f32 * 0.5).sin_approx())
    });
    let mesh = w.create_mesh(&v, &t).unwrap();
    static_mesh(&mut w, mesh, DVec3::ZERO, 0.6);
    let heights: Vec<f32> = (0..17 * 17).map(|i| ((i * 7) % 5) as f32 * 0.05).collect();
    let hf = w
        .create_height_field(&HeightFieldDef {
            count_x: 17,
            count_z: 17,
            heights: &heights,
            holes: &[],
            scale: Vec3::new(0.75, 1.0, 0.75),
        })
        .unwrap();
    static_mesh(&mut w, hf, DVec3::new(12.0, -0.5, -6.0), 0.6);
    // 24 points on a sphere of radius 0.4 (a Fibonacci spiral): enough half-edges that
    // the pruned separating-axis test runs against the triangles' prisms.
    let ball_points: Vec<Vec3> = (0..24)
        .map(|i| {
            let y = 1.0 - (2 * i + 1) as f32 / 24.0;
            let r = (1.0 - y * y).max(0.0).sqrt();
            let (s, c) = maul3d::math::sin_cos(i as f32 * 2.399_963);
            Vec3::new(r * c, y, r * s) * 0.4
        })
        .collect();
    let hull = w.create_hull(&ball_points).unwrap();
    // Balls on a wavy floor would roll for ever without rolling resistance.
    let rolling = ShapeDef {
        rolling_resistance: 0.2,
        ..Default::default()
    };
    let mut bodies = Vec::new();
    for i in 0..40 {
        let b = w
            .create_body(&BodyDef {
                body_type: BodyType::Dynamic,
                position: DVec3::new(
                    -6.0 + (i % 8) as f64 * 3.0,
                    2.5 + (i / 8) as f64 * 1.2,
                    -3.0 + (i % 5) as f64 * 1.4,
                ),
                rotation: Quat::from_axis_angle(Vec3::new(0.3, 1.0, 0.2).normalize(), i as f32),
                ..Default::default()
            })
            .unwrap();
        match i % 4 {
            0 => w.create_hull_shape(b, &ShapeDef::default(), hull),
            1 => w.create_box_shape(b, &ShapeDef::default(), Vec3::new(0.4, 0.3, 0.35)),
            2 => w.create_sphere_shape(
                b,
                &rolling,
                &Sphere {
                    center: Vec3::ZERO,
                    radius: 0.35,
                },
            ),
            _ => w.create_capsule_shape(
                b,
                &rolling,
                &Capsule {
                    center1: Vec3::new(0.0, -0.3, 0.0),
                    center2: Vec3::new(0.0, 0.3, 0.0),
                    radius: 0.25,
                },
            ),
        }
        .unwrap();
        bodies.push(b);
    }
    (w, bodies)
}

/// A small deterministic sine for building test terrain (not simulation).
trait SinApprox {
    fn sin_approx(self) -> f32;
}

impl SinApprox for f32 {
    fn sin_approx(self) -> f32 {
        // Bhaskara's approximation, folded into [0, 2π).
        let tau = core::f32::consts::TAU;
        let x = self - (self / tau).floor() * tau;
        let (x, sign) = if x > core::f32::consts::PI {
            (x - core::f32::consts::PI, -1.0)
        } else {
            (x, 1.0)
        };
        let p = core::f32::consts::PI;
        sign * 16.0 * x * (p - x) / (5.0 * p * p - 4.0 * x * (p - x))
    }
}

#[test]
fn bodies_settle_on_bumpy_meshes_and_height_fields() {
    let (mut w, bodies) = terrain_world();
    step_n(&mut w, 400);
    for (i, &b) in bodies.iter().enumerate() {
        let p = w.body_position(b).unwrap();
        assert!(p.y > -1.0, "body {i} fell through at {p:?}");
        let v = w.body_linear_velocity(b).unwrap();
        assert!(v.length() < 0.2, "body {i} at {p:?} moves at {v:?}");
    }
    step_n(&mut w, 200);
    for (i, &b) in bodies.iter().enumerate() {
        assert!(!w.body_is_awake(b).unwrap(), "body {i} is awake");
    }
}

#[test]
fn a_restored_world_with_meshes_continues_bit_for_bit() {
    let (mut w, _) = terrain_world();
    step_n(&mut w, 40);
    let mut snap = vec![0u8; w.snapshot_size()];
    let n = w.snapshot(&mut snap).unwrap();
    snap.truncate(n);
    let mut reference = Vec::new();
    for _ in 0..60 {
        w.step(DT, SUBSTEPS).unwrap();
        reference.push(w.hash());
    }
    // Into a fresh world (trees rebuilt from content) and back into the same world (kept).
    let mut fresh = World::new(&World::def_from_snapshot(&snap).unwrap()).unwrap();
    fresh.restore(&snap).unwrap();
    w.restore(&snap).unwrap();
    for other in [&mut fresh, &mut w] {
        let got: Vec<u64> = (0..60)
            .map(|_| {
                other.step(DT, SUBSTEPS).unwrap();
                other.hash()
            })
            .collect();
        assert_eq!(got, reference);
    }
}

#[test]
fn the_tree_is_built_from_content_alone_and_is_not_state() {
    let (v, t) = grid(30, 0.7, |x, z| ((x * 13 + z * 7) % 5) as f32 * 0.1);
    let mut a = mesh_world();
    let mut b = mesh_world();
    // A different history before: b creates and destroys a mesh first.
    let (v2, t2) = grid(3, 1.0, |_, _| 0.0);
    let tmp = b.create_mesh(&v2, &t2).unwrap();
    b.destroy_mesh(tmp).unwrap();
    let ma = a.create_mesh(&v, &t).unwrap();
    let mb = b.create_mesh(&v, &t).unwrap();
    let bytes = a.mesh_tree_bytes(ma).unwrap();
    assert!(bytes.len() > 32 * 100);
    assert_eq!(bytes, b.mesh_tree_bytes(mb).unwrap());
    // Restored from a snapshot, the rebuilt tree is the same bytes and the hash with it.
    let mut snap = vec![0u8; a.snapshot_size()];
    let n = a.snapshot(&mut snap).unwrap();
    let mut c = mesh_world();
    c.restore(&snap[..n]).unwrap();
    assert_eq!(
        c.mesh_tree_bytes(c.mesh_ids().next().unwrap()).unwrap(),
        bytes
    );
    assert_eq!(c.hash(), a.hash());
    // The content is state: one vertex moved by a millimetre moves the hash.
    let mut moved = v.clone();
    moved[17].y += 0.001;
    let mut d = mesh_world();
    d.create_mesh(&moved, &t).unwrap();
    assert_ne!(d.hash(), a.hash());
}

#[test]
fn a_journal_with_meshes_replays_to_the_same_hash() {
    let mut w = mesh_world();
    w.start_journal(1 << 22).unwrap();
    let (v, t) = grid(6, 1.0, |x, _| x as f32 * 0.1);
    let mesh = w.create_mesh(&v, &t).unwrap();
    static_mesh(&mut w, mesh, DVec3::ZERO, 0.6);
    let heights = vec![0.0f32; 9];
    let hf = w
        .create_height_field(&HeightFieldDef {
            count_x: 3,
            count_z: 3,
            heights: &heights,
            holes: &[false, true, false, false],
            scale: Vec3::new(1.0, 1.0, 1.0),
        })
        .unwrap();
    static_mesh(&mut w, hf, DVec3::new(10.0, 0.0, 0.0), 0.6);
    let extra = w.create_mesh(&v, &t).unwrap();
    w.destroy_mesh(extra).unwrap();
    let b = dynamic(&mut w, DVec3::new(0.5, 2.0, 0.5));
    w.create_box_shape(b, &ShapeDef::default(), Vec3::splat(0.3))
        .unwrap();
    step_n(&mut w, 30);
    w.stop_journal().unwrap();
    let tape = w.journal_tape().to_vec();
    let mut again = mesh_world();
    again.replay_journal(&tape).unwrap();
    assert_eq!(again.hash(), w.hash());
}

#[test]
fn a_kinematic_mesh_platform_carries_a_box_and_finds_new_triangles_as_it_moves() {
    let mut w = mesh_world();
    // A 3 m × 3 m plate of 0.5 m cells moving along x at 1 m/s under a resting box.
    let (v, t) = grid(6, 0.5, |_, _| 0.0);
    let mesh = w.create_mesh(&v, &t).unwrap();
    let plate = w
        .create_body(&BodyDef {
            body_type: BodyType::Kinematic,
            position: DVec3::new(0.0, 1.0, 0.0),
            linear_velocity: Vec3::new(1.0, 0.0, 0.0),
            ..Default::default()
        })
        .unwrap();
    w.create_mesh_shape(plate, &ShapeDef::default(), mesh)
        .unwrap();
    let b = dynamic(&mut w, DVec3::new(0.0, 1.2, 0.0));
    w.create_box_shape(b, &ShapeDef::default(), Vec3::new(0.3, 0.2, 0.3))
        .unwrap();
    step_n(&mut w, 90);
    let (p, q) = (w.body_position(b).unwrap(), w.body_position(plate).unwrap());
    // Carried along by friction after slipping v² / (2·μ·g) = 1 / 12 m behind.
    let slip = q.x - p.x;
    assert!((slip - 1.0 / 12.0).abs() < 0.01, "slipped {slip} m");
    assert!((p.y - (q.y + 0.2)).abs() < 0.01, "box {p:?}, plate {q:?}");
    assert!((w.body_linear_velocity(b).unwrap().x - 1.0).abs() < 0.02);
}

#[test]
fn child_contacts_past_the_contact_capacity_are_counted_not_fatal() {
    let mut w = World::new(&WorldDef {
        contact_capacity: 8,
        ..Default::default()
    })
    .unwrap();
    let (v, t) = grid(10, 0.25, |_, _| 0.0);
    let mesh = w.create_mesh(&v, &t).unwrap();
    static_mesh(&mut w, mesh, DVec3::ZERO, 0.6);
    let b = dynamic(&mut w, DVec3::new(0.0, 0.3, 0.0));
    // A 1 m box over 0.25 m cells: more triangles under it than the capacity holds.
    w.create_box_shape(b, &ShapeDef::default(), Vec3::new(0.5, 0.25, 0.5))
        .unwrap();
    w.step(DT, SUBSTEPS).unwrap();
    assert!(w.counters().dropped_contacts > 0);
    assert_eq!(w.counters().contact_count, 8);
    step_n(&mut w, 30);
    assert!(w.body_position(b).unwrap().y.is_finite());
}
