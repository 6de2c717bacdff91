//! Hull probes (`QueryShape::Convex`): a convex hull of the caller's answers overlaps,
//! contact points, rest info and casts as the same solid as a box probe does, against
//! every shape kind, and making or using one changes no world state.

#![allow(clippy::disallowed_methods)] // measuring results in tests, not simulating

mod common;
use common::*;
use maul3d::math::{DVec3, Quat, Vec3};
use maul3d::{
    BodyDef, BodyType, BoxShape, Capsule, ContactPointPair, Cylinder, PlaneShape, QueryFilter,
    QueryHull, QueryShape, ShapeDef, ShapeId, Sphere, World,
};

fn cube_points(h: f32) -> Vec<Vec3> {
    (0..8)
        .map(|i| {
            Vec3::new(
                if i & 1 == 0 { -h } else { h },
                if i & 2 == 0 { -h } else { h },
                if i & 4 == 0 { -h } else { h },
            )
        })
        .collect()
}

/// A plane floor at y = 0, a static mesh ramp, and a sphere, capsule, box, hull and
/// cylinder standing apart along x.
fn scene() -> World {
    let mut w = world(false);
    let d = ShapeDef::default();
    let fixed = |w: &mut World, x: f64, y: f64| {
        w.create_body(&BodyDef {
            body_type: BodyType::Static,
            position: DVec3::new(x, y, 0.0),
            ..Default::default()
        })
        .unwrap()
    };
    let b = fixed(&mut w, 0.0, 0.0);
    w.create_plane_shape(
        b,
        &d,
        &PlaneShape {
            normal: Vec3::Y,
            offset: 0.0,
        },
    )
    .unwrap();
    let b = fixed(&mut w, 0.0, 1.0);
    w.create_sphere_shape(
        b,
        &d,
        &Sphere {
            center: Vec3::ZERO,
            radius: 1.0,
        },
    )
    .unwrap();
    let b = fixed(&mut w, 5.0, 1.0);
    w.create_capsule_shape(
        b,
        &d,
        &Capsule {
            center1: Vec3::new(0.0, 0.0, -1.0),
            center2: Vec3::new(0.0, 0.0, 1.0),
            radius: 1.0,
        },
    )
    .unwrap();
    let b = fixed(&mut w, 10.0, 1.0);
    w.create_box_shape(b, &d, Vec3::new(1.0, 1.0, 1.0)).unwrap();
    let b = fixed(&mut w, 15.0, 1.0);
    let h = w.create_hull(&cube_points(1.0)).unwrap();
    w.create_hull_shape(b, &d, h).unwrap();
    let b = fixed(&mut w, 20.0, 1.0);
    w.create_cylinder_shape(
        b,
        &d,
        &Cylinder {
            center: Vec3::ZERO,
            rotation: Quat::IDENTITY,
            half_height: 1.0,
            radius: 1.0,
        },
    )
    .unwrap();
    // A mesh: one big triangle pair, a table top at y = 1 around x = 25.
    let b = fixed(&mut w, 25.0, 1.0);
    let m = w
        .create_mesh(
            &[
                Vec3::new(-2.0, 0.0, -2.0),
                Vec3::new(2.0, 0.0, -2.0),
                Vec3::new(2.0, 0.0, 2.0),
                Vec3::new(-2.0, 0.0, 2.0),
            ],
            &[[0, 2, 1], [0, 3, 2]],
        )
        .unwrap();
    w.create_mesh_shape(b, &d, m).unwrap();
    w
}

fn box_probe() -> QueryShape<'static> {
    QueryShape::Box(BoxShape {
        half: Vec3::new(0.5, 0.5, 0.5),
        center: Vec3::ZERO,
        rotation: Quat::IDENTITY,
    })
}

const EMPTY: ContactPointPair = ContactPointPair {
    point_on_query: DVec3::ZERO,
    point_on_other: DVec3::ZERO,
    normal: Vec3::ZERO,
    depth: 0.0,
    shape: ShapeId::NULL,
    body: maul3d::BodyId::NULL,
    velocity: Vec3::ZERO,
};

/// Probe places: over each target, sunk 0.1 into its top (x = 0..25 by 5), and a
/// rotated one sunk 0.2.
fn places() -> Vec<(DVec3, Quat)> {
    let mut v = Vec::new();
    for i in 0..6 {
        // The mesh's top is at y = 1, the others' at y = 2.
        let y = if i == 5 { 1.4 } else { 2.4 };
        v.push((DVec3::new(5.0 * i as f64, y, 0.0), Quat::IDENTITY));
        v.push((
            DVec3::new(5.0 * i as f64 + 0.2, y - 0.1, 0.1),
            Quat::from_axis_angle(Vec3::Y, 0.3),
        ));
    }
    // Resting on the floor only, between targets.
    v.push((DVec3::new(2.5, 0.45, 3.0), Quat::IDENTITY));
    v
}

#[test]
fn a_hull_probe_overlaps_the_shapes_a_box_probe_of_the_same_solid_overlaps() {
    let w = scene();
    let cube = QueryHull::new(&cube_points(0.5)).unwrap();
    let f = QueryFilter::default();
    for (p, q) in places() {
        let (mut a, mut b) = ([ShapeId::NULL; 16], [ShapeId::NULL; 16]);
        let na = w
            .overlap_shape(&QueryShape::Convex(&cube), p, q, &f, &mut a)
            .unwrap();
        let nb = w.overlap_shape(&box_probe(), p, q, &f, &mut b).unwrap();
        assert!(na > 0, "the probe at {p:?} finds what it sinks into");
        assert_eq!(a[..na], b[..nb], "at {p:?}");
    }
}

#[test]
fn a_hull_probe_reports_the_contact_points_and_rest_info_of_the_same_box() {
    let w = scene();
    let cube = QueryHull::new(&cube_points(0.5)).unwrap();
    let f = QueryFilter::default();
    for (p, q) in places() {
        let (mut a, mut b) = ([EMPTY; 64], [EMPTY; 64]);
        let na = w
            .contact_points(&QueryShape::Convex(&cube), p, q, 0.0, &f, None, &mut a)
            .unwrap();
        let nb = w
            .contact_points(&box_probe(), p, q, 0.0, &f, None, &mut b)
            .unwrap();
        assert!(na > 0, "contacts at {p:?}");
        assert_eq!(na, nb, "contact count at {p:?}");
        let ra = w
            .rest_info(&QueryShape::Convex(&cube), p, q, 0.0, &f, None)
            .unwrap()
            .unwrap();
        let rb = w
            .rest_info(&box_probe(), p, q, 0.0, &f, None)
            .unwrap()
            .unwrap();
        assert_eq!(ra.shape, rb.shape, "rest shape at {p:?}");
        assert!((ra.depth - rb.depth).abs() < 1e-4, "{ra:?} vs {rb:?}");
        assert!((ra.normal - rb.normal).length() < 1e-4, "{ra:?} vs {rb:?}");
        assert!(
            ra.normal.y > 0.9,
            "the floor-like tops push the probe up: {ra:?}"
        );
    }
}

#[test]
fn a_hull_probe_cast_down_stops_where_the_box_probe_stops() {
    let w = scene();
    let cube = QueryHull::new(&cube_points(0.5)).unwrap();
    let f = QueryFilter::default();
    for i in 0..6 {
        let p = DVec3::new(5.0 * i as f64, 4.5, 0.0);
        let down = Vec3::new(0.0, -4.0, 0.0);
        let a = w
            .cast_shape(&QueryShape::Convex(&cube), p, Quat::IDENTITY, down, &f)
            .unwrap()
            .expect("the hull probe hits");
        let b = w
            .cast_shape(&box_probe(), p, Quat::IDENTITY, down, &f)
            .unwrap()
            .unwrap();
        assert_eq!(a.shape, b.shape);
        assert!((a.fraction - b.fraction).abs() < 1e-4, "{a:?} vs {b:?}");
        // Tops at y = 2 (y = 1 for the mesh), so the bottom at 4 meets them after 2 (3).
        let top = if i == 5 { 1.0 } else { 2.0 };
        let closed = (4.0 - top) / 4.0;
        assert!(
            (a.fraction - closed).abs() < 0.01,
            "{a:?}, closed form {closed}"
        );
    }
}

#[test]
fn a_flat_hull_probe_finds_the_floor_it_lies_on() {
    let w = scene();
    let flat = QueryHull::new(&[
        Vec3::new(-0.5, 0.0, -0.5),
        Vec3::new(0.5, 0.0, -0.5),
        Vec3::new(0.5, 0.0, 0.5),
        Vec3::new(-0.5, 0.0, 0.5),
    ])
    .unwrap();
    let r = w
        .rest_info(
            &QueryShape::Convex(&flat),
            DVec3::new(2.5, 0.0, 3.0),
            Quat::IDENTITY,
            0.05,
            &QueryFilter::default(),
            None,
        )
        .unwrap()
        .expect("the floor");
    assert!(r.normal.y > 0.99, "{r:?}");
}

#[test]
fn making_and_using_a_hull_probe_changes_no_world_state() {
    let mut w = scene();
    w.step(1.0 / 60.0, 4).unwrap();
    let before = w.hash();
    let cube = QueryHull::new(&cube_points(0.5)).unwrap();
    let mut out = [ShapeId::NULL; 16];
    let (p, q) = (DVec3::new(10.0, 2.4, 0.0), Quat::IDENTITY);
    w.overlap_shape(
        &QueryShape::Convex(&cube),
        p,
        q,
        &QueryFilter::default(),
        &mut out,
    )
    .unwrap();
    assert_eq!(w.hash(), before);
    assert!(
        QueryHull::new(&[Vec3::new(f32::NAN, 0.0, 0.0)]).is_err(),
        "a bad point is refused"
    );
    assert!(
        QueryHull::new(&vec![Vec3::ZERO; 65]).is_err(),
        "65 points are refused"
    );
}

/// A cube's surface as 12 flat triangle hulls: a concave probe.
fn cube_triangles(h: f32) -> Vec<QueryHull> {
    let c = cube_points(h);
    // Two triangles per face: corners of each face by the axis it is normal to.
    let mut out = Vec::new();
    for axis in 0..3 {
        for side in 0..2 {
            let face: Vec<Vec3> = c
                .iter()
                .copied()
                .filter(|p| (p.get(axis) > 0.0) == (side == 1))
                .collect();
            // face holds 4 corners in bit order: 0-1-3 and 0-3-2 cover it.
            out.push(QueryHull::new(&[face[0], face[1], face[3]]).unwrap());
            out.push(QueryHull::new(&[face[0], face[3], face[2]]).unwrap());
        }
    }
    out
}

#[test]
fn a_concave_probe_of_triangles_finds_what_the_solid_box_finds_at_its_surface() {
    let w = scene();
    let tris = cube_triangles(0.5);
    let probe = QueryShape::Pieces(&tris);
    let f = QueryFilter::default();
    for (p, q) in places() {
        let (mut a, mut b) = ([ShapeId::NULL; 16], [ShapeId::NULL; 16]);
        let na = w.overlap_shape(&probe, p, q, &f, &mut a).unwrap();
        let nb = w.overlap_shape(&box_probe(), p, q, &f, &mut b).unwrap();
        assert_eq!(a[..na], b[..nb], "each shape once, at {p:?}");
        let r = w.rest_info(&probe, p, q, 0.0, &f, None).unwrap().unwrap();
        let rb = w
            .rest_info(&box_probe(), p, q, 0.0, &f, None)
            .unwrap()
            .unwrap();
        assert_eq!(r.shape, rb.shape, "rest shape at {p:?}");
        assert!(r.normal.y > 0.9, "pushed up out of the tops: {r:?}");
    }
    for i in 0..6 {
        let p = DVec3::new(5.0 * i as f64, 4.5, 0.0);
        let down = Vec3::new(0.0, -4.0, 0.0);
        let a = w
            .cast_shape(&probe, p, Quat::IDENTITY, down, &f)
            .unwrap()
            .expect("the concave probe hits");
        let b = w
            .cast_shape(&box_probe(), p, Quat::IDENTITY, down, &f)
            .unwrap()
            .unwrap();
        assert_eq!(a.shape, b.shape);
        assert!((a.fraction - b.fraction).abs() < 0.01, "{a:?} vs {b:?}");
    }
    assert!(
        w.overlap_shape(
            &QueryShape::Pieces(&[]),
            DVec3::ZERO,
            Quat::IDENTITY,
            &f,
            &mut []
        )
        .is_err(),
        "no pieces is refused"
    );
}
