//! Events: sensors, contact begin/end balance, hits, body moves.

#![allow(clippy::disallowed_methods)] // measuring results in tests, not simulating

mod common;
use common::*;
use maul3d::math::{DVec3, Vec3};
use maul3d::{BodyDef, BodyType, ShapeDef, Sphere, World};

fn ball(w: &mut World, p: DVec3, def: &ShapeDef) -> maul3d::BodyId {
    let b = w
        .create_body(&BodyDef {
            body_type: BodyType::Dynamic,
            position: p,
            ..Default::default()
        })
        .unwrap();
    w.create_sphere_shape(
        b,
        def,
        &Sphere {
            center: Vec3::ZERO,
            radius: 0.25,
        },
    )
    .unwrap();
    b
}

#[test]
fn sensors_report_begin_and_end_once_per_overlap_and_never_collide() {
    let mut w = world(true);
    ground(&mut w, 0.6);
    // A sensor slab the balls fall through, and one at the ground they come to rest in.
    let sensor = ShapeDef {
        is_sensor: true,
        ..Default::default()
    };
    let s = w
        .create_body(&BodyDef {
            position: DVec3::new(0.0, 6.0, 0.0),
            ..Default::default()
        })
        .unwrap();
    let slab = w
        .create_box_shape(s, &sensor, Vec3::new(5.0, 0.5, 5.0))
        .unwrap();
    let r = w
        .create_body(&BodyDef {
            position: DVec3::new(0.0, 0.5, 0.0),
            ..Default::default()
        })
        .unwrap();
    let rest = w
        .create_box_shape(r, &sensor, Vec3::new(5.0, 0.5, 5.0))
        .unwrap();
    let balls: Vec<_> = (0..5)
        .map(|i| {
            ball(
                &mut w,
                DVec3::new(i as f64 - 2.0, 9.0 + i as f64, 0.0),
                &ShapeDef::default(),
            )
        })
        .collect();
    let mut begins = std::collections::BTreeMap::new();
    let mut ends = std::collections::BTreeMap::new();
    for _ in 0..300 {
        w.step(DT, SUBSTEPS).unwrap();
        for e in w.sensor_begin_events() {
            *begins.entry((e.sensor.index, e.visitor.index)).or_insert(0) += 1;
        }
        for e in w.sensor_end_events() {
            *ends.entry((e.sensor.index, e.visitor.index)).or_insert(0) += 1;
        }
    }
    // Every ball passed the slab (begin and end once) and rests in the lower sensor
    // (begin once, no end), on the ground: sensors never collide.
    let (mut through, mut resting) = (0, 0);
    for (&(sensor, _), &n) in &begins {
        assert_eq!(n, 1);
        if sensor == slab.index {
            through += 1;
        } else {
            assert_eq!(sensor, rest.index);
            resting += 1;
        }
    }
    assert_eq!((through, resting), (5, 5));
    assert_eq!(ends.len(), 5);
    for (&(sensor, _), &n) in &ends {
        assert_eq!((sensor, n), (slab.index, 1));
    }
    for b in &balls {
        let y = w.body_position(*b).unwrap().y;
        assert!((y - 0.25).abs() < 0.02, "the ball rests on the ground: {y}");
    }
    let mut out = [maul3d::ShapeId::NULL; 8];
    assert_eq!(w.sensor_overlaps(rest, &mut out).unwrap(), 5);
}

#[test]
fn contact_begin_and_end_events_balance_over_a_long_run() {
    let mut w = world(true);
    ground(&mut w, 0.6);
    let bouncy = ShapeDef {
        restitution: 0.5,
        ..Default::default()
    };
    let ids: Vec<_> = (0..30)
        .map(|i| {
            let p = DVec3::new(
                (i % 5) as f64 * 0.6 - 1.2,
                1.0 + i as f64 * 0.6,
                (i % 3) as f64 * 0.3,
            );
            ball(&mut w, p, &bouncy)
        })
        .collect();
    let mut open: i64 = 0;
    for s in 0..900 {
        if s % 200 == 100 {
            for b in ids.iter().step_by(3) {
                w.apply_linear_impulse_to_center(*b, Vec3::new(0.3, 2.0, 0.0))
                    .unwrap();
            }
        }
        w.step(DT, SUBSTEPS).unwrap();
        open += w.contact_begin_events().len() as i64;
        open -= w.contact_end_events().len() as i64;
        assert!(open >= 0);
    }
    assert_eq!(open, w.counters().touching_contact_count as i64);
}

#[test]
fn a_fast_touch_reports_a_hit_with_its_approach_speed() {
    let mut w = world(false);
    ground(&mut w, 0.6);
    let hits_on = ShapeDef {
        enable_hit_events: true,
        ..Default::default()
    };
    let b = ball(&mut w, DVec3::new(0.0, 5.25, 0.0), &hits_on);
    // A ball placed on the ground touches slowly: no hit.
    ball(&mut w, DVec3::new(3.0, 0.26, 0.0), &hits_on);
    let mut hits = Vec::new();
    for _ in 0..120 {
        w.step(DT, SUBSTEPS).unwrap();
        hits.extend_from_slice(w.contact_hit_events());
    }
    assert_eq!(hits.len(), 1, "{hits:?}");
    let expected = (2.0f32 * 10.0 * 5.0).sqrt();
    let speed = hits[0].approach_speed;
    assert!((speed - expected).abs() / expected < 0.03, "{speed}");
    assert!(hits[0].normal.y.abs() > 0.99);
    assert_eq!(w.shape_body(hits[0].shape_b).unwrap(), b);
}

#[test]
fn moving_bodies_report_moves_until_they_fall_asleep() {
    let mut w = world(true);
    ground(&mut w, 0.6);
    let b = dynamic_box(
        &mut w,
        DVec3::new(0.0, 2.0, 0.0),
        Vec3::splat(0.5),
        &ShapeDef::default(),
    );
    let (mut moves, mut fell_asleep) = (0, 0);
    for _ in 0..240 {
        w.step(DT, SUBSTEPS).unwrap();
        for e in w.body_move_events() {
            assert_eq!(e.body, b);
            assert_eq!(e.position, w.body_position(b).unwrap());
            moves += 1;
            fell_asleep += e.fell_asleep as u32;
        }
    }
    assert_eq!(fell_asleep, 1);
    assert!(moves > 30 && moves < 240, "{moves}");
    assert!(!w.body_is_awake(b).unwrap());
}

#[test]
fn areas_replace_and_combine_gravity_and_damping_for_bodies_inside() {
    use maul3d::{AreaGravity, AreaMode, AreaSettings};
    let mut w = world(false);
    // A zero-gravity area, and inside it a higher-priority area that adds 3 m/s² up and
    // stops (CombineReplace): the zero-g area and the world's gravity never join.
    let a = w.create_body(&BodyDef::default()).unwrap();
    let sensor = ShapeDef {
        is_sensor: true,
        ..Default::default()
    };
    let zero_g = w
        .create_box_shape(a, &sensor, Vec3::new(10.0, 10.0, 10.0))
        .unwrap();
    w.set_shape_area(
        zero_g,
        Some(AreaSettings {
            priority: 0,
            gravity_mode: AreaMode::Replace,
            gravity: AreaGravity::Directional(Vec3::ZERO),
            ..Default::default()
        }),
    )
    .unwrap();
    let lift = w
        .create_offset_box_shape(
            a,
            &sensor,
            Vec3::new(2.0, 10.0, 2.0),
            Vec3::new(5.0, 0.0, 0.0),
            maul3d::math::Quat::IDENTITY,
        )
        .unwrap();
    w.set_shape_area(
        lift,
        Some(AreaSettings {
            priority: 1,
            gravity_mode: AreaMode::CombineReplace,
            gravity: AreaGravity::Directional(Vec3::new(0.0, 3.0, 0.0)),
            linear_damping_mode: AreaMode::Replace,
            linear_damping: 0.0,
            ..Default::default()
        }),
    )
    .unwrap();
    let floating = ball(&mut w, DVec3::new(-5.0, 0.0, 0.0), &ShapeDef::default());
    let lifted = ball(&mut w, DVec3::new(5.0, 0.0, 0.0), &ShapeDef::default());
    let outside = ball(&mut w, DVec3::new(30.0, 0.0, 0.0), &ShapeDef::default());
    let custom = w
        .create_body(&BodyDef {
            body_type: BodyType::Dynamic,
            position: DVec3::new(60.0, 0.0, 0.0),
            custom_integrator: true,
            linear_damping: 5.0,
            linear_velocity: Vec3::new(1.0, 0.0, 0.0),
            ..Default::default()
        })
        .unwrap();
    w.create_sphere_shape(
        custom,
        &ShapeDef::default(),
        &Sphere {
            center: Vec3::ZERO,
            radius: 0.25,
        },
    )
    .unwrap();
    w.step(DT, SUBSTEPS).unwrap(); // the sensors see the bodies at the end of this step
    let v0 = |w: &World, b| w.body_linear_velocity(b).unwrap().y;
    let (f0, l0, o0) = (v0(&w, floating), v0(&w, lifted), v0(&w, outside));
    step_n(&mut w, 30);
    let t = 30.0 * DT;
    assert!(
        (v0(&w, floating) - f0).abs() < 1e-6,
        "no gravity in the zero-g area"
    );
    // +3 up, and the fold stopped there.
    assert!(
        ((v0(&w, lifted) - l0) - 3.0 * t).abs() < 1e-3,
        "{}",
        v0(&w, lifted) - l0
    );
    assert!(((v0(&w, outside) - o0) + 10.0 * t).abs() < 1e-3);
    // The custom integrator skips gravity and damping.
    let v = w.body_linear_velocity(custom).unwrap();
    assert_eq!(v, Vec3::new(1.0, 0.0, 0.0));
}

#[test]
fn point_gravity_pulls_towards_its_centre_with_inverse_square_falloff() {
    use maul3d::{AreaGravity, AreaMode, AreaSettings};
    let mut w = World::new(&maul3d::WorldDef {
        gravity: Vec3::ZERO,
        enable_sleep: false,
        ..Default::default()
    })
    .unwrap();
    let planet = w.create_body(&BodyDef::default()).unwrap();
    let field = w
        .create_sphere_shape(
            planet,
            &ShapeDef {
                is_sensor: true,
                ..Default::default()
            },
            &Sphere {
                center: Vec3::ZERO,
                radius: 50.0,
            },
        )
        .unwrap();
    w.set_shape_area(
        field,
        Some(AreaSettings {
            gravity_mode: AreaMode::Replace,
            gravity: AreaGravity::Point {
                center: Vec3::ZERO,
                strength: 10.0,
                unit_distance: 10.0,
            },
            ..Default::default()
        }),
    )
    .unwrap();
    let near = ball(&mut w, DVec3::new(10.0, 0.0, 0.0), &ShapeDef::default());
    let far = ball(&mut w, DVec3::new(0.0, 0.0, -20.0), &ShapeDef::default());
    w.step(DT, SUBSTEPS).unwrap();
    let (n0, f0) = (
        w.body_linear_velocity(near).unwrap(),
        w.body_linear_velocity(far).unwrap(),
    );
    w.step(DT, SUBSTEPS).unwrap();
    let dn = (w.body_linear_velocity(near).unwrap() - n0) * (1.0 / DT);
    let df = (w.body_linear_velocity(far).unwrap() - f0) * (1.0 / DT);
    assert!((dn.x + 10.0).abs() < 0.1 && dn.y.abs() < 1e-3, "{dn:?}");
    assert!(
        (df.z - 2.5).abs() < 0.05,
        "a quarter at twice the distance: {df:?}"
    );
}

#[test]
fn debug_draw_describes_every_shape_contact_and_bound() {
    struct Count {
        shapes: usize,
        hull_faces: usize,
        contacts: usize,
        bounds: usize,
    }
    impl maul3d::DebugDraw for Count {
        fn shape(
            &mut self,
            _: maul3d::ShapeId,
            _: maul3d::BodyId,
            _: DVec3,
            _: maul3d::math::Quat,
            g: &maul3d::DebugGeometry,
            _: bool,
        ) {
            self.shapes += 1;
            if let maul3d::DebugGeometry::Hull {
                face_starts,
                face_vertices,
                ..
            } = g
            {
                self.hull_faces += face_starts.len() - 1;
                assert_eq!(*face_starts.last().unwrap() as usize, face_vertices.len());
            }
        }
        fn contact(&mut self, _: DVec3, n: Vec3, _: f32, _: f32) {
            assert!((n.length() - 1.0).abs() < 1e-5);
            self.contacts += 1;
        }
        fn bounds(&mut self, _: maul3d::ShapeId, a: &maul3d::math::DAabb) {
            assert!(a.lower.x <= a.upper.x);
            self.bounds += 1;
        }
    }
    let mut w = world(false);
    ground(&mut w, 0.6);
    dynamic_box(
        &mut w,
        DVec3::new(0.0, 0.5, 0.0),
        Vec3::splat(0.5),
        &ShapeDef::default(),
    );
    let h = w
        .create_hull(&[
            Vec3::new(-0.5, 0.0, -0.5),
            Vec3::new(0.5, 0.0, -0.5),
            Vec3::new(0.0, 0.0, 0.5),
            Vec3::new(0.0, 0.8, 0.0),
        ])
        .unwrap();
    let b = w
        .create_body(&BodyDef {
            body_type: BodyType::Dynamic,
            position: DVec3::new(3.0, 0.0, 0.0),
            ..Default::default()
        })
        .unwrap();
    w.create_hull_shape(b, &ShapeDef::default(), h).unwrap();
    step_n(&mut w, 10);
    let mut c = Count {
        shapes: 0,
        hull_faces: 0,
        contacts: 0,
        bounds: 0,
    };
    w.debug_draw(
        &maul3d::DebugDrawOptions {
            shapes: true,
            contacts: true,
            bounds: true,
            joints: true,
        },
        &mut c,
    );
    assert_eq!((c.shapes, c.bounds, c.hull_faces), (3, 3, 4));
    assert!(
        c.contacts >= 4 + 3,
        "box face and tetrahedron face on the ground: {}",
        c.contacts
    );
}

#[test]
fn explosions_push_shapes_outward_by_their_area_and_falloff() {
    let mut w = World::new(&maul3d::WorldDef {
        gravity: Vec3::ZERO,
        enable_sleep: false,
        ..Default::default()
    })
    .unwrap();
    let d = ShapeDef {
        density: 1.0,
        ..Default::default()
    };
    let near = dynamic_box(&mut w, DVec3::new(2.0, 0.0, 0.0), Vec3::splat(0.5), &d);
    let mid = dynamic_box(&mut w, DVec3::new(0.0, 0.0, -4.5), Vec3::splat(0.5), &d);
    let far = dynamic_box(&mut w, DVec3::new(-9.0, 0.0, 0.0), Vec3::splat(0.5), &d);
    let masked = w
        .create_body(&BodyDef {
            body_type: BodyType::Dynamic,
            position: DVec3::new(0.0, 2.0, 0.0),
            ..Default::default()
        })
        .unwrap();
    w.create_sphere_shape(
        masked,
        &ShapeDef {
            density: 1.0,
            filter: maul3d::Filter {
                category_bits: 4,
                ..Default::default()
            },
            ..Default::default()
        },
        &Sphere {
            center: Vec3::ZERO,
            radius: 0.5,
        },
    )
    .unwrap();
    w.explode(&maul3d::ExplosionDef {
        position: DVec3::ZERO,
        radius: 2.0,
        falloff: 4.0,
        impulse_per_area: 3.0,
        mask_bits: !4,
    })
    .unwrap();
    // A unit cube facing the blast square-on presents 1 m²: 3 N·s on 1 kg.
    let v_near = w.body_linear_velocity(near).unwrap();
    assert!(
        (v_near - Vec3::new(3.0, 0.0, 0.0)).length() < 1e-4,
        "{v_near:?}"
    );
    // Closest point 4 m away: 2 m into the 4 m falloff, half the impulse, outward along -z.
    let v_mid = w.body_linear_velocity(mid).unwrap();
    assert!(
        (v_mid - Vec3::new(0.0, 0.0, -1.5)).length() < 1e-4,
        "{v_mid:?}"
    );
    assert_eq!(w.body_linear_velocity(far).unwrap(), Vec3::ZERO);
    assert_eq!(w.body_linear_velocity(masked).unwrap(), Vec3::ZERO);
}
