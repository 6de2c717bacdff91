//! Scene queries: ray casts against every shape kind agree with closed forms; overlaps;
//! the same answers from many threads at once.

#![allow(clippy::disallowed_methods)] // measuring results in tests, not simulating

mod common;
use common::*;
use maul3d::math::{DAabb, DVec3, Quat, Vec3};
use maul3d::{
    BodyDef, BoxShape, Capsule, QueryFilter, QueryShape, RayResult, ShapeDef, ShapeId, Sphere,
    World,
};

fn scene() -> (World, [ShapeId; 4]) {
    let mut w = world(false);
    let at = |w: &mut World, p: DVec3, q: Quat| {
        w.create_body(&BodyDef {
            position: p,
            rotation: q,
            ..Default::default()
        })
        .unwrap()
    };
    let d = ShapeDef::default();
    let b = at(&mut w, DVec3::new(10.0, 2.0, 0.0), Quat::IDENTITY);
    let sphere = w
        .create_sphere_shape(
            b,
            &d,
            &Sphere {
                center: Vec3::ZERO,
                radius: 1.0,
            },
        )
        .unwrap();
    let b = at(
        &mut w,
        DVec3::new(0.0, 10.0, 0.0),
        Quat::from_axis_angle(Vec3::Z, 0.5),
    );
    let boxed = w.create_box_shape(b, &d, Vec3::new(1.0, 2.0, 3.0)).unwrap();
    // A capsule lying along z at x = -10.
    let b = at(&mut w, DVec3::new(-10.0, 0.0, 0.0), Quat::IDENTITY);
    let capsule = w
        .create_capsule_shape(
            b,
            &d,
            &Capsule {
                center1: Vec3::new(0.0, 0.0, -2.0),
                center2: Vec3::new(0.0, 0.0, 2.0),
                radius: 0.5,
            },
        )
        .unwrap();
    // A hull: the box (0.5, 0.5, 0.5) corners, at (0, -10, 0).
    let pts: Vec<Vec3> = (0..8)
        .map(|i| {
            Vec3::new(
                if i & 1 == 0 { -0.5 } else { 0.5 },
                if i & 2 == 0 { -0.5 } else { 0.5 },
                if i & 4 == 0 { -0.5 } else { 0.5 },
            )
        })
        .collect();
    let h = w.create_hull(&pts).unwrap();
    let b = at(&mut w, DVec3::new(0.0, -10.0, 0.0), Quat::IDENTITY);
    let hull = w.create_hull_shape(b, &d, h).unwrap();
    (w, [sphere, boxed, capsule, hull])
}

fn close(a: DVec3, b: DVec3) -> bool {
    (a - b).max_abs() < 1e-5
}

#[test]
fn ray_casts_against_every_shape_kind_agree_with_closed_forms() {
    let (w, [sphere, boxed, capsule, hull]) = scene();
    let f = QueryFilter::default();
    // Sphere: from (0, 2, 0) along +x: enters at x = 9.
    let r = w
        .cast_ray_closest(DVec3::new(0.0, 2.0, 0.0), Vec3::new(20.0, 0.0, 0.0), &f)
        .unwrap()
        .unwrap();
    assert_eq!(r.shape, sphere);
    assert!((r.fraction - 0.45).abs() < 1e-5 && close(r.point, DVec3::new(9.0, 2.0, 0.0)));
    assert!((r.normal - Vec3::new(-1.0, 0.0, 0.0)).length() < 1e-5);
    // Box turned 0.5 rad about z: from above along -y through its centre, the ray meets
    // the face local x = +1 (normal (cos .5, sin .5, 0)) first, at height h above the
    // centre with h sin .5 = 1 (the top face would need h cos .5 = 2, which lies beyond).
    let r = w
        .cast_ray_closest(DVec3::new(0.0, 20.0, 0.0), Vec3::new(0.0, -20.0, 0.0), &f)
        .unwrap()
        .unwrap();
    assert_eq!(r.shape, boxed);
    let h = 1.0 / (0.5f64).sin();
    assert!(
        close(r.point, DVec3::new(0.0, 10.0 + h, 0.0)),
        "{:?}",
        r.point
    );
    assert!((r.normal - Vec3::new((0.5f32).cos(), (0.5f32).sin(), 0.0)).length() < 1e-5);
    // Capsule: from (-10, 5, 1) straight down hits the cylinder's top at y = 0.5.
    let r = w
        .cast_ray_closest(DVec3::new(-10.0, 5.0, 1.0), Vec3::new(0.0, -10.0, 0.0), &f)
        .unwrap()
        .unwrap();
    assert_eq!(r.shape, capsule);
    assert!(close(r.point, DVec3::new(-10.0, 0.5, 1.0)) && (r.normal - Vec3::Y).length() < 1e-5);
    // Capsule cap: along the axis from z = 10 hits the cap at z = 2.5.
    let r = w
        .cast_ray_closest(DVec3::new(-10.0, 0.0, 10.0), Vec3::new(0.0, 0.0, -10.0), &f)
        .unwrap()
        .unwrap();
    assert!(close(r.point, DVec3::new(-10.0, 0.0, 2.5)) && (r.normal - Vec3::Z).length() < 1e-5);
    // Hull: from below along +y enters its bottom face at y = -10.5.
    let r = w
        .cast_ray_closest(DVec3::new(0.2, -20.0, 0.1), Vec3::new(0.0, 20.0, 0.0), &f)
        .unwrap()
        .unwrap();
    assert_eq!(r.shape, hull);
    assert!(close(r.point, DVec3::new(0.2, -10.5, 0.1)) && (r.normal + Vec3::Y).length() < 1e-5);
    // Misses, and a ray starting inside the sphere does not hit it.
    assert!(
        w.cast_ray_closest(DVec3::new(0.0, 30.0, 0.0), Vec3::new(5.0, 0.0, 0.0), &f)
            .unwrap()
            .is_none()
    );
    let r = w
        .cast_ray_closest(DVec3::new(10.0, 2.0, 0.0), Vec3::new(0.0, 3.0, 0.0), &f)
        .unwrap();
    assert!(r.is_none());
}

#[test]
fn ray_cast_all_sorts_by_fraction_and_keeps_the_first_when_the_buffer_is_short() {
    let mut w = world(false);
    let d = ShapeDef::default();
    let mut ids = Vec::new();
    for i in 0..6 {
        // Created far to near, so slot order and distance order disagree.
        let b = w
            .create_body(&BodyDef {
                position: DVec3::new(10.0 - i as f64, 0.0, 0.0),
                ..Default::default()
            })
            .unwrap();
        ids.push(
            w.create_sphere_shape(
                b,
                &d,
                &Sphere {
                    center: Vec3::ZERO,
                    radius: 0.25,
                },
            )
            .unwrap(),
        );
    }
    let mut out = [RayResult {
        shape: ShapeId::NULL,
        body: Default::default(),
        point: DVec3::ZERO,
        normal: Vec3::ZERO,
        fraction: 0.0,
    }; 3];
    let n = w
        .cast_ray_all(
            DVec3::new(0.0, 0.0, 0.0),
            Vec3::new(20.0, 0.0, 0.0),
            &QueryFilter::default(),
            &mut out,
        )
        .unwrap();
    assert_eq!(n, 6);
    let got: Vec<_> = out.iter().map(|r| r.shape).collect();
    assert_eq!(got, vec![ids[5], ids[4], ids[3]]);
    assert!(out[0].fraction < out[1].fraction && out[1].fraction < out[2].fraction);
}

#[test]
fn overlap_queries_find_exactly_the_shapes_that_overlap() {
    let (w, [sphere, boxed, capsule, hull]) = scene();
    let f = QueryFilter::default();
    let mut out = [ShapeId::NULL; 8];
    assert_eq!(w.overlap_point(DVec3::new(10.5, 2.5, 0.0), &f, &mut out), 1);
    assert_eq!(out[0], sphere);
    assert_eq!(
        w.overlap_point(DVec3::new(10.8, 2.8, 0.0), &f, &mut out),
        0,
        "outside the sphere, inside its box"
    );
    assert_eq!(
        w.overlap_point(DVec3::new(-10.0, 0.4, 2.3), &f, &mut out),
        1
    );
    assert_eq!(out[0], capsule);
    let n = w.overlap_aabb(
        &DAabb::new(DVec3::new(-11.0, -11.0, -1.0), DVec3::new(11.0, 11.0, 1.0)),
        &f,
        &mut out,
    );
    assert_eq!(n, 4);
    assert_eq!(&out[..4], &[sphere, boxed, capsule, hull]);
    // A sphere probe touching the hull's top face from above by 1 mm overlaps it; 1 mm
    // clear does not.
    let probe = QueryShape::Sphere(Sphere {
        center: Vec3::ZERO,
        radius: 0.5,
    });
    assert_eq!(
        w.overlap_shape(
            &probe,
            DVec3::new(0.0, -9.001, 0.0),
            Quat::IDENTITY,
            &f,
            &mut out
        )
        .unwrap(),
        1
    );
    assert_eq!(out[0], hull);
    assert_eq!(
        w.overlap_shape(
            &probe,
            DVec3::new(0.0, -8.999, 0.0),
            Quat::IDENTITY,
            &f,
            &mut out
        )
        .unwrap(),
        0
    );
    let b = QueryShape::Box(BoxShape {
        half: Vec3::splat(1.0),
        center: Vec3::ZERO,
        rotation: Quat::IDENTITY,
    });
    assert_eq!(
        w.overlap_shape(&b, DVec3::new(8.5, 2.0, 0.0), Quat::IDENTITY, &f, &mut out)
            .unwrap(),
        1
    );
}

#[test]
fn queries_from_four_threads_equal_the_single_threaded_ones() {
    let (mut w, _) = scene();
    ground(&mut w, 0.6);
    for i in 0..40 {
        dynamic_box(
            &mut w,
            DVec3::new((i % 8) as f64 - 4.0, 1.0 + (i / 8) as f64, 0.0),
            Vec3::splat(0.4),
            &ShapeDef::default(),
        );
    }
    step_n(&mut w, 30);
    let run = |w: &World| {
        let mut all = Vec::new();
        for k in 0..50 {
            let o = DVec3::new(-8.0 + k as f64 * 0.3, 12.0, 0.1 * (k % 3) as f64);
            let r = w
                .cast_ray_closest(o, Vec3::new(0.5, -20.0, 0.0), &QueryFilter::default())
                .unwrap();
            all.push(r.map(|r| (r.shape, r.fraction.to_bits())));
            let mut out = [ShapeId::NULL; 16];
            let n = w
                .overlap_shape(
                    &QueryShape::Sphere(Sphere {
                        center: Vec3::ZERO,
                        radius: 1.0,
                    }),
                    o - DVec3::new(0.0, 11.0, 0.0),
                    Quat::IDENTITY,
                    &QueryFilter::default(),
                    &mut out,
                )
                .unwrap();
            all.push(Some((out[0], n as u32)));
        }
        all
    };
    let single = run(&w);
    std::thread::scope(|s| {
        let hs: Vec<_> = (0..4).map(|_| s.spawn(|| run(&w))).collect();
        for h in hs {
            assert_eq!(h.join().unwrap(), single);
        }
    });
}

#[test]
fn contact_points_and_rest_info_report_depth_normal_and_collider() {
    let mut w = world(false);
    let g = ground(&mut w, 0.6);
    let probe = QueryShape::Sphere(Sphere {
        center: Vec3::ZERO,
        radius: 0.5,
    });
    let f = QueryFilter::default();
    // 2 cm into the ground.
    let r = w
        .rest_info(
            &probe,
            DVec3::new(1.0, 0.48, 2.0),
            Quat::IDENTITY,
            0.0,
            &f,
            None,
        )
        .unwrap()
        .unwrap();
    assert!((r.depth - 0.02).abs() < 1e-5, "{}", r.depth);
    assert!((r.normal - Vec3::Y).length() < 1e-6);
    assert!((r.point_on_other.y).abs() < 1e-5 && (r.point_on_query.y - -0.02).abs() < 1e-5);
    assert_eq!(r.body, g);
    // 1 cm above: nothing without a margin, a contact of depth -0.01 with a 2 cm margin.
    assert!(
        w.rest_info(
            &probe,
            DVec3::new(1.0, 0.51, 2.0),
            Quat::IDENTITY,
            0.0,
            &f,
            None
        )
        .unwrap()
        .is_none()
    );
    let r = w
        .rest_info(
            &probe,
            DVec3::new(1.0, 0.51, 2.0),
            Quat::IDENTITY,
            0.02,
            &f,
            None,
        )
        .unwrap()
        .unwrap();
    assert!((r.depth + 0.01).abs() < 1e-5);
    // Excluding the ground's body leaves nothing.
    assert!(
        w.rest_info(
            &probe,
            DVec3::new(1.0, 0.48, 2.0),
            Quat::IDENTITY,
            0.0,
            &f,
            Some(g)
        )
        .unwrap()
        .is_none()
    );
}

#[test]
fn shape_casts_stop_where_closed_forms_say() {
    let (w, [sphere, _, _, hull]) = scene();
    let f = QueryFilter::default();
    // A ball of radius 0.5 from (0, 2, 0) along +x meets the sphere (radius 1 at x = 10)
    // when centres are 1.5 apart: x = 8.5, fraction 8.5 / 20 (less the ~1.3 mm gap).
    let ball = QueryShape::Sphere(Sphere {
        center: Vec3::ZERO,
        radius: 0.5,
    });
    let r = w
        .cast_shape(
            &ball,
            DVec3::new(0.0, 2.0, 0.0),
            Quat::IDENTITY,
            Vec3::new(20.0, 0.0, 0.0),
            &f,
        )
        .unwrap()
        .unwrap();
    assert_eq!(r.shape, sphere);
    assert!((r.fraction - 8.5 / 20.0).abs() < 2e-4, "{}", r.fraction);
    assert!((r.normal + Vec3::X).length() < 1e-4);
    // A box dropped onto the hull's top face (y = -9.5) from y = -5.
    let b = QueryShape::Box(BoxShape {
        half: Vec3::splat(0.25),
        center: Vec3::ZERO,
        rotation: Quat::IDENTITY,
    });
    let r = w
        .cast_shape(
            &b,
            DVec3::new(0.1, -5.0, 0.1),
            Quat::IDENTITY,
            Vec3::new(0.0, -10.0, 0.0),
            &f,
        )
        .unwrap()
        .unwrap();
    assert_eq!(r.shape, hull);
    assert!(
        (r.fraction - (4.5 - 0.25) / 10.0).abs() < 2e-4,
        "{}",
        r.fraction
    );
    assert!((r.normal - Vec3::Y).length() < 1e-4);
    assert!(
        w.cast_shape(
            &ball,
            DVec3::new(0.0, 30.0, 0.0),
            Quat::IDENTITY,
            Vec3::new(5.0, 0.0, 0.0),
            &f
        )
        .unwrap()
        .is_none()
    );
}

#[test]
fn rays_starting_inside_hit_at_their_origin_only_with_hit_from_inside() {
    let (mut w, shapes) = scene();
    let b = w
        .create_body(&BodyDef {
            position: DVec3::new(20.0, 0.0, 0.0),
            ..Default::default()
        })
        .unwrap();
    let cylinder = w
        .create_cylinder_shape(
            b,
            &ShapeDef::default(),
            &maul3d::Cylinder {
                half_height: 1.0,
                radius: 1.0,
                ..Default::default()
            },
        )
        .unwrap();
    let f = QueryFilter::default();
    let inside = maul3d::RayOptions {
        hit_from_inside: true,
        ..Default::default()
    };
    let centres = [
        DVec3::new(10.0, 2.0, 0.0),
        DVec3::new(0.0, 10.0, 0.0),
        DVec3::new(-10.0, 0.0, 0.0),
        DVec3::new(0.0, -10.0, 0.0),
        DVec3::new(20.0, 0.0, 0.0),
    ];
    let all = [shapes[0], shapes[1], shapes[2], shapes[3], cylinder];
    let dirs = [Vec3::X, -Vec3::X, Vec3::Y, -Vec3::Y, Vec3::Z, -Vec3::Z];
    let mut out = [RayResult {
        shape: ShapeId::default(),
        body: maul3d::BodyId::default(),
        point: DVec3::ZERO,
        normal: Vec3::ZERO,
        fraction: 0.0,
    }; 4];
    for (c, shape) in centres.iter().zip(all) {
        for off in [Vec3::ZERO, Vec3::new(0.1, 0.2, -0.1)] {
            for d in dirs {
                let o = *c + off.to_f64();
                let t = d * 3.0;
                // Plain casts, and the options' default: the shape the ray is in is not hit.
                assert_eq!(w.cast_ray_closest(o, t, &f).unwrap(), None, "{o:?} {d:?}");
                let plain = w
                    .cast_ray_closest_with(o, t, &f, &Default::default())
                    .unwrap();
                assert_eq!(plain, None);
                assert_eq!(w.cast_ray_all(o, t, &f, &mut out).unwrap(), 0);
                // With hit_from_inside: a hit at the origin, fraction 0, no normal.
                let hit = w.cast_ray_closest_with(o, t, &f, &inside).unwrap().unwrap();
                assert_eq!(hit.shape, shape);
                assert_eq!(hit.fraction, 0.0);
                assert_eq!(hit.normal, Vec3::ZERO);
                assert!(close(hit.point, o), "{:?} vs {o:?}", hit.point);
                assert_eq!(w.cast_ray_all_with(o, t, &f, &inside, &mut out).unwrap(), 1);
                assert_eq!(out[0], hit);
            }
        }
        // From outside, hit_from_inside changes nothing: the entry point, as before.
        let o = *c + DVec3::new(0.0, 0.0, -5.0);
        let t = Vec3::new(0.0, 0.0, 8.0);
        let entry = w.cast_ray_closest(o, t, &f).unwrap().unwrap();
        assert!(entry.fraction > 0.0);
        assert_eq!(
            w.cast_ray_closest_with(o, t, &f, &inside).unwrap(),
            Some(entry)
        );
    }
}
