//! Every public entry refuses bad input with a clear error, and nothing changes.

#![allow(clippy::disallowed_methods)] // measuring results in tests, not simulating

mod common;
use common::*;
use maul3d::math::{DVec3, Quat, Vec3};
use maul3d::{BodyDef, BodyType, Error, ShapeDef, Sphere, World, WorldDef};

fn scene() -> (World, maul3d::BodyId) {
    let mut w = world(true);
    ground(&mut w, 0.6);
    let b = dynamic_box(
        &mut w,
        DVec3::new(0.0, 0.5, 0.0),
        Vec3::new(0.5, 0.5, 0.5),
        &ShapeDef::default(),
    );
    step_n(&mut w, 5);
    (w, b)
}

#[test]
fn step_refuses_dt_and_substeps_out_of_range() {
    let (mut w, _) = scene();
    let h = w.hash();
    for dt in [0.0, 5e-5, 10.5, f32::NAN, f32::INFINITY, -1.0] {
        let e = w.step(dt, 4).unwrap_err();
        assert!(matches!(e, Error::Argument { name: "dt", .. }), "{e}");
        assert!(e.to_string().contains("[1e-4, 10]"), "{e}");
    }
    for n in [0, 257, 1000] {
        let e = w.step(1.0 / 60.0, n).unwrap_err();
        assert!(e.to_string().contains("substeps"), "{e}");
    }
    assert_eq!(w.hash(), h);
    w.step(1e-4, 1).unwrap();
    w.step(10.0, 256).unwrap();
}

#[test]
fn positions_beyond_two_to_the_21_are_refused_naming_value_and_bound() {
    let mut w = world(true);
    let e = w
        .create_body(&BodyDef {
            position: DVec3::new(0.0, 2_097_152.0, 0.0),
            ..Default::default()
        })
        .unwrap_err();
    let msg = e.to_string();
    assert!(msg.contains("2097152"), "{msg}");
    assert!(matches!(e, Error::OutOfBounds { bound, .. } if bound == 2_097_152.0));
    assert!(
        w.create_body(&BodyDef {
            position: DVec3::new(0.0, 2_097_151.5, 0.0),
            ..Default::default()
        })
        .is_ok()
    );
    assert_eq!(w.body_count(), 1);
}

#[test]
fn non_finite_and_out_of_range_values_are_refused_everywhere() {
    let (mut w, b) = scene();
    let h = w.hash();
    let nan = f32::NAN;
    assert!(
        w.create_body(&BodyDef {
            position: DVec3::new(f64::NAN, 0.0, 0.0),
            ..Default::default()
        })
        .is_err()
    );
    assert!(
        w.create_body(&BodyDef {
            rotation: Quat::new(0.0, 0.0, 0.0, 0.0),
            ..Default::default()
        })
        .is_err()
    );
    assert!(
        w.create_body(&BodyDef {
            linear_velocity: Vec3::new(nan, 0.0, 0.0),
            ..Default::default()
        })
        .is_err()
    );
    assert!(
        w.create_body(&BodyDef {
            linear_damping: -1.0,
            ..Default::default()
        })
        .is_err()
    );
    assert!(
        w.set_body_linear_velocity(b, Vec3::new(0.0, f32::INFINITY, 0.0))
            .is_err()
    );
    assert!(
        w.set_body_transform(b, DVec3::new(0.0, 3e6, 0.0), Quat::IDENTITY)
            .is_err()
    );
    assert!(
        w.apply_force_to_center(b, Vec3::new(nan, 0.0, 0.0))
            .is_err()
    );
    assert!(w.set_body_damping(b, -0.1, 0.0).is_err());
    assert!(w.set_body_gravity_scale(b, nan).is_err());
    assert!(
        w.create_box_shape(b, &ShapeDef::default(), Vec3::new(0.0, 1.0, 1.0))
            .is_err()
    );
    assert!(
        w.create_box_shape(
            b,
            &ShapeDef {
                density: -1.0,
                ..Default::default()
            },
            Vec3::ONE
        )
        .is_err()
    );
    assert!(
        w.create_box_shape(
            b,
            &ShapeDef {
                friction: nan,
                ..Default::default()
            },
            Vec3::ONE
        )
        .is_err()
    );
    assert!(
        w.create_sphere_shape(
            b,
            &ShapeDef::default(),
            &Sphere {
                center: Vec3::ZERO,
                radius: -1.0
            }
        )
        .is_err()
    );
    assert!(w.create_hull(&[Vec3::ZERO, Vec3::X]).is_err());
    // Coplanar points build a thin hull (flat hulls, issue 14); collinear ones do not.
    assert!(
        w.create_hull(&[Vec3::ZERO, Vec3::X, Vec3::X * 2.0, Vec3::X * 3.0])
            .is_err(),
        "collinear"
    );
    assert!(
        w.create_hull(&[Vec3::ZERO, Vec3::X, Vec3::Y, Vec3::new(nan, 0.0, 1.0)])
            .is_err()
    );
    assert!(w.create_hull(&vec![Vec3::ZERO; 65]).is_err());
    let e = w
        .set_shape_friction(maul3d::ShapeId::NULL, 0.5)
        .unwrap_err();
    assert!(matches!(e, Error::InvalidId { what: "shape", .. }));
    assert!(w.set_gravity(Vec3::new(nan, 0.0, 0.0)).is_err());
    assert_eq!(w.hash(), h, "a refused call changed the world");
}

#[test]
fn stale_and_foreign_ids_are_refused() {
    let (mut w, b) = scene();
    let (other, ob) = scene();
    assert!(
        matches!(w.body_position(ob), Err(Error::InvalidId { .. })),
        "foreign id"
    );
    w.destroy_body(b).unwrap();
    assert!(matches!(w.body_position(b), Err(Error::InvalidId { .. })));
    assert!(w.destroy_body(b).is_err());
    assert!(
        w.create_box_shape(b, &ShapeDef::default(), Vec3::ONE)
            .is_err()
    );
    assert!(w.body_position(maul3d::BodyId::NULL).is_err());
    // Meshes: a destroyed one, another world's, the null id.
    let tri = [Vec3::ZERO, Vec3::Z, Vec3::X];
    let mesh = w.create_mesh(&tri, &[[0, 1, 2]]).unwrap();
    let mut o = other;
    let foreign = o.create_mesh(&tri, &[[0, 1, 2]]).unwrap();
    w.destroy_mesh(mesh).unwrap();
    let ground = w.create_body(&maul3d::BodyDef::default()).unwrap();
    for id in [mesh, foreign, maul3d::MeshId::NULL] {
        assert!(matches!(
            w.create_mesh_shape(ground, &ShapeDef::default(), id),
            Err(Error::InvalidId { what: "mesh", .. })
        ));
        assert!(w.destroy_mesh(id).is_err());
        assert!(w.mesh_triangle_count(id).is_err());
    }
}

#[test]
fn mesh_and_content_capacities_out_of_range_are_refused() {
    for def in [
        WorldDef {
            mesh_capacity: 0,
            ..Default::default()
        },
        WorldDef {
            content_capacity: (1 << 40) + 1,
            ..Default::default()
        },
    ] {
        assert!(matches!(World::new(&def), Err(Error::Argument { .. })));
    }
    // A world with one mesh slot refuses a second mesh, naming mesh_capacity.
    let mut w = World::new(&WorldDef {
        mesh_capacity: 1,
        ..Default::default()
    })
    .unwrap();
    let tri = [Vec3::ZERO, Vec3::Z, Vec3::X];
    w.create_mesh(&tri, &[[0, 1, 2]]).unwrap();
    assert!(matches!(
        w.create_mesh(&tri, &[[0, 1, 2]]),
        Err(Error::Capacity {
            what: "mesh_capacity",
            capacity: 1
        })
    ));
}

#[test]
fn world_defs_out_of_range_are_refused() {
    for def in [
        WorldDef {
            body_capacity: 0,
            ..Default::default()
        },
        WorldDef {
            gravity: Vec3::new(f32::NAN, 0.0, 0.0),
            ..Default::default()
        },
        WorldDef {
            contact_hertz: -1.0,
            ..Default::default()
        },
        WorldDef {
            event_capacity: 0,
            ..Default::default()
        },
    ] {
        assert!(World::new(&def).is_err());
    }
}

#[test]
fn shift_origin_refuses_off_grid_or_too_large_offsets_and_changes_nothing() {
    let (mut w, b) = scene();
    let h = w.hash();
    let p = w.body_position(b).unwrap();
    let e = w.shift_origin(DVec3::new(1e-10, 0.0, 0.0)).unwrap_err();
    assert!(e.to_string().contains("2^-32"), "{e}");
    let e = w
        .shift_origin(DVec3::new(0.0, 4_194_304.0, 0.0))
        .unwrap_err();
    assert!(matches!(e, Error::OutOfBounds { .. }), "{e}");
    // A shift that would move a stored position past ±2^22.
    let e = w
        .shift_origin(DVec3::new(-4_194_303.0, 0.0, 0.0))
        .unwrap_err();
    assert!(matches!(e, Error::OutOfBounds { .. }), "{e}");
    assert!(w.shift_origin(DVec3::new(f64::NAN, 0.0, 0.0)).is_err());
    assert_eq!(w.hash(), h);
    assert_eq!(w.body_position(b).unwrap(), p);
}

#[test]
fn a_step_that_could_carry_a_body_past_two_to_the_22_is_refused_before_it_runs() {
    let mut w = world(false);
    let b = w
        .create_body(&BodyDef {
            body_type: BodyType::Dynamic,
            position: DVec3::new(2_097_151.0, 0.0, 0.0),
            linear_velocity: Vec3::new(300.0, 0.0, 0.0),
            gravity_scale: 0.0,
            ..Default::default()
        })
        .unwrap();
    w.create_box_shape(b, &ShapeDef::default(), Vec3::ONE)
        .unwrap();
    // 2^21 more metres at 300 m/s take about 7,000 s: step with large dt.
    let mut refused = None;
    for i in 0..2000 {
        let h = w.hash();
        match w.step(10.0, 1) {
            Ok(()) => {
                // Every step the world took keeps its bounds inside: its snapshot restores.
                let x = w.body_position(b).unwrap().x;
                assert!(x + 1.0 < 4_194_304.0, "step {i} carried the body to {x}");
            }
            Err(e) => {
                assert_eq!(w.hash(), h, "a refused step changed the world");
                refused = Some((i, e));
                break;
            }
        }
    }
    let (_, e) = refused.expect("the step must refuse before bounds pass 2^22");
    assert!(
        matches!(e, Error::BodyOutOfBounds { body, bound, .. } if body == b && bound == 4_194_304.0),
        "{e}"
    );
    let mut snap = vec![0u8; w.snapshot_size()];
    w.snapshot(&mut snap).unwrap();
    World::new(&World::def_from_snapshot(&snap).unwrap())
        .unwrap()
        .restore(&snap)
        .unwrap();
}

/// One rule for numbers: NaN and infinities are argument errors wherever they go, world
/// positions included; out of bounds is only a finite position past the coordinate
/// limits. Each refusal changes nothing.
#[test]
fn non_finite_input_is_an_argument_error_and_far_finite_positions_are_out_of_bounds() {
    use maul3d::{ExplosionDef, QueryFilter, QueryShape};
    let (mut w, b) = scene();
    let h = w.hash();
    let filter = QueryFilter::default();
    let ball = QueryShape::Sphere(Sphere {
        center: Vec3::ZERO,
        radius: 0.5,
    });
    let at = |v: f64| DVec3::new(0.0, v, 0.0);
    for v in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
        let calls: Vec<(&str, Result<(), Error>)> = vec![
            ("shift_origin", w.shift_origin(at(v))),
            (
                "explode",
                w.explode(&ExplosionDef {
                    position: at(v),
                    ..Default::default()
                }),
            ),
            (
                "cast_ray_closest",
                w.cast_ray_closest(at(v), Vec3::X, &filter).map(|_| ()),
            ),
            (
                "overlap_shape",
                w.overlap_shape(&ball, at(v), Quat::IDENTITY, &filter, &mut [])
                    .map(|_| ()),
            ),
            (
                "create_body",
                w.create_body(&BodyDef {
                    position: at(v),
                    ..Default::default()
                })
                .map(|_| ()),
            ),
            (
                "set_body_transform",
                w.set_body_transform(b, at(v), Quat::IDENTITY),
            ),
            ("apply_force", w.apply_force(b, Vec3::Y, at(v))),
            (
                "apply_linear_impulse",
                w.apply_linear_impulse(b, Vec3::Y, at(v)),
            ),
        ];
        for (what, r) in calls {
            let e = r.expect_err(what);
            assert!(
                matches!(e, Error::Argument { expected, .. } if expected.starts_with("finite")),
                "{what}({v}): {e:?}"
            );
        }
    }
    // Finite but past the limits: out of bounds, for the same calls.
    let far = 1.0e7;
    let calls: Vec<(&str, Result<(), Error>)> = vec![
        ("shift_origin", w.shift_origin(at(far))),
        (
            "explode",
            w.explode(&ExplosionDef {
                position: at(far),
                ..Default::default()
            }),
        ),
        (
            "cast_ray_closest",
            w.cast_ray_closest(at(far), Vec3::X, &filter).map(|_| ()),
        ),
        (
            "overlap_shape",
            w.overlap_shape(&ball, at(far), Quat::IDENTITY, &filter, &mut [])
                .map(|_| ()),
        ),
        (
            "create_body",
            w.create_body(&BodyDef {
                position: at(far),
                ..Default::default()
            })
            .map(|_| ()),
        ),
        ("apply_force", w.apply_force(b, Vec3::Y, at(far))),
    ];
    for (what, r) in calls {
        let e = r.expect_err(what);
        assert!(matches!(e, Error::OutOfBounds { .. }), "{what}: {e:?}");
    }
    assert_eq!(w.hash(), h);
}

/// A quaternion with finite components whose norm² overflows f32 would normalize to the
/// zero quaternion: every entry taking a rotation refuses it, naming the norm².
#[test]
fn rotations_whose_norm_overflows_are_refused_everywhere() {
    use maul3d::{QueryFilter, QueryShape};
    let (mut w, b) = scene();
    let h = w.hash();
    let huge = Quat::new(1e20, 1e20, 0.0, 0.0);
    let norm_error = |e: Error| match e {
        Error::Argument { name, .. } => assert!(name.ends_with("norm²"), "{name}"),
        other => panic!("{other:?}"),
    };
    norm_error(
        w.create_body(&BodyDef {
            rotation: huge,
            ..Default::default()
        })
        .unwrap_err(),
    );
    norm_error(
        w.set_body_transform(b, DVec3::new(0.0, 1.0, 0.0), huge)
            .unwrap_err(),
    );
    let sphere = QueryShape::Sphere(Sphere {
        center: Vec3::ZERO,
        radius: 0.5,
    });
    let f = QueryFilter::default();
    norm_error(
        w.overlap_shape(
            &sphere,
            DVec3::ZERO,
            huge,
            &f,
            &mut [maul3d::ShapeId::NULL; 4],
        )
        .unwrap_err(),
    );
    norm_error(
        w.cast_shape(&sphere, DVec3::ZERO, huge, Vec3::Y, &f)
            .unwrap_err(),
    );
    assert_eq!(w.hash(), h, "a refused call changed the world");
    let other = w.create_body(&BodyDef::default()).unwrap();
    norm_error(w.joint_frames_at(b, other, DVec3::ZERO, huge).unwrap_err());
    w.destroy_body(other).unwrap();
    assert_eq!(
        w.overlap_shape(
            &sphere,
            DVec3::new(0.0, 0.5, 0.0),
            Quat::IDENTITY,
            &f,
            &mut [maul3d::ShapeId::NULL; 4]
        )
        .map(|n| n > 0),
        Ok(true),
        "a good rotation still queries"
    );
}
