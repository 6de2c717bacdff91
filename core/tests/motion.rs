//! The motion test (Godot's body_test_motion) against closed forms.

mod common;
use common::*;
use maul3d::math::{DVec3, Quat, Vec3};
use maul3d::{
    BodyDef, BodyType, Capsule, MotionCollision, MotionTest, QueryFilter, ShapeDef, World,
};

/// A wall whose face is the plane x = 4.9, a floor at y = 0, and a kinematic capsule
/// (radius 0.5, standing: segment y ∈ [0.5, 1.5] in its frame) at the origin.
fn scene() -> (World, maul3d::BodyId) {
    let mut w = world(false);
    ground(&mut w, 0.6);
    let wall = w
        .create_body(&BodyDef {
            position: DVec3::new(5.0, 2.0, 0.0),
            ..Default::default()
        })
        .unwrap();
    w.create_box_shape(wall, &ShapeDef::default(), Vec3::new(0.1, 2.0, 10.0))
        .unwrap();
    let c = w
        .create_body(&BodyDef {
            body_type: BodyType::Kinematic,
            position: DVec3::new(0.0, 0.0, 0.0),
            ..Default::default()
        })
        .unwrap();
    w.create_capsule_shape(
        c,
        &ShapeDef::default(),
        &Capsule {
            center1: Vec3::new(0.0, 0.5, 0.0),
            center2: Vec3::new(0.0, 1.5, 0.0),
            radius: 0.5,
        },
    )
    .unwrap();
    (w, c)
}

fn empty() -> [MotionCollision; 8] {
    [MotionCollision {
        contact: maul3d::ContactPointPair {
            point_on_query: DVec3::ZERO,
            point_on_other: DVec3::ZERO,
            normal: Vec3::ZERO,
            depth: 0.0,
            shape: Default::default(),
            body: Default::default(),
            velocity: Vec3::ZERO,
        },
        local_shape: Default::default(),
    }; 8]
}

#[test]
fn a_capsule_moved_into_a_wall_stops_at_the_wall_minus_the_margin_and_slides_along_it() {
    let (w, c) = scene();
    let margin = 0.01;
    let mut out = empty();
    // Resting on the floor (touching), moving straight at the wall.
    let start = DVec3::new(0.0, 0.0005, 0.0);
    let r = w
        .test_body_motion(
            &MotionTest {
                body: c,
                position: start,
                rotation: Quat::IDENTITY,
                motion: Vec3::new(10.0, 0.0, 0.0),
                margin,
                filter: QueryFilter::default(),
            },
            &mut out,
        )
        .unwrap();
    // Surface stops `margin` (plus the cast's 1.25–1.6 mm gap) short of x = 4.9.
    let expected = 4.9 - 0.5 - margin;
    assert!(
        (r.travel.x - expected).abs() < 0.003,
        "travel {:?}",
        r.travel
    );
    assert!(
        r.travel.y.abs() < 1e-4 && r.safe_fraction < r.unsafe_fraction && r.unsafe_fraction < 1.0
    );
    assert!(r.collision_count >= 1);
    let wall_hit = out[..r.collision_count.min(8)]
        .iter()
        .find(|m| m.contact.normal.x < -0.99)
        .expect("the wall is reported");
    assert!((wall_hit.contact.point_on_other.x - 4.9).abs() < 1e-3);
    // Slide: the remainder minus its part into the wall, moving along z.
    let n = wall_hit.contact.normal;
    let slide = r.remainder - n * r.remainder.dot(n) + Vec3::new(0.0, 0.0, 3.0);
    let at = start + r.travel.to_f64();
    let r2 = w
        .test_body_motion(
            &MotionTest {
                body: c,
                position: at,
                rotation: Quat::IDENTITY,
                motion: slide,
                margin,
                filter: QueryFilter::default(),
            },
            &mut out,
        )
        .unwrap();
    assert_eq!(
        r2.safe_fraction, 1.0,
        "sliding along the wall and floor is free"
    );
    assert!((r2.travel.z - 3.0).abs() < 1e-5 && r2.travel.x.abs() < 1e-4);
}

#[test]
fn a_capsule_started_overlapping_is_pushed_out() {
    let (w, c) = scene();
    let mut out = empty();
    // 0.2 m into the wall, and 0.05 m into the floor.
    let r = w
        .test_body_motion(
            &MotionTest {
                body: c,
                position: DVec3::new(4.6, -0.05, 0.0),
                rotation: Quat::IDENTITY,
                motion: Vec3::ZERO,
                margin: 0.01,
                filter: QueryFilter::default(),
            },
            &mut out,
        )
        .unwrap();
    assert!((r.travel.x + 0.2).abs() < 1e-3, "{:?}", r.travel);
    assert!((r.travel.y - 0.05).abs() < 1e-3, "{:?}", r.travel);
}

#[test]
fn motion_tests_from_four_threads_equal_the_single_threaded_ones() {
    let (w, c) = scene();
    let run = |w: &World| {
        let mut res = Vec::new();
        for k in 0..40 {
            let mut out = empty();
            let motion = Vec3::new(8.0 - k as f32 * 0.1, -0.2, 0.05 * k as f32);
            let r = w
                .test_body_motion(
                    &MotionTest {
                        body: c,
                        position: DVec3::new(0.1 * k as f64, 0.02, 0.0),
                        rotation: Quat::IDENTITY,
                        motion,
                        margin: 0.02,
                        filter: QueryFilter::default(),
                    },
                    &mut out,
                )
                .unwrap();
            res.push((r.travel, r.safe_fraction.to_bits(), r.collision_count));
        }
        res
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
fn a_capsule_touching_a_ramp_moves_freely_along_the_ramp_surface() {
    // A 20° ramp whose top face is the plane through the origin with normal
    // n = (-sin 20°, cos 20°, 0), and the capsule's lower sphere 0.7 mm above it (within
    // the touching distance). `move_and_slide` projects a motion onto the surface it
    // touches; that projection's dot product with the normal is ±1e-8, never exactly 0,
    // and must not count as moving into the ramp.
    let mut w = world(false);
    let (s, c) = maul3d::math::sin_cos(20.0f32.to_radians());
    let n = Vec3::new(-s, c, 0.0);
    let ramp = w
        .create_body(&BodyDef {
            position: (n * -0.5).to_f64(),
            rotation: Quat::new(
                0.0,
                0.0,
                maul3d::math::sin(10.0f32.to_radians()),
                maul3d::math::cos(10.0f32.to_radians()),
            ),
            ..Default::default()
        })
        .unwrap();
    w.create_box_shape(ramp, &ShapeDef::default(), Vec3::new(4.0, 0.5, 3.0))
        .unwrap();
    let body = w
        .create_body(&BodyDef {
            body_type: BodyType::Kinematic,
            ..Default::default()
        })
        .unwrap();
    w.create_capsule_shape(
        body,
        &ShapeDef::default(),
        &Capsule {
            center1: Vec3::new(0.0, 0.5, 0.0),
            center2: Vec3::new(0.0, 1.5, 0.0),
            radius: 0.5,
        },
    )
    .unwrap();
    let start = (n * 0.5007 - Vec3::new(0.0, 0.5, 0.0)).to_f64();
    let mut out = empty();
    let test = |motion: Vec3, out: &mut [MotionCollision; 8]| {
        w.test_body_motion(
            &MotionTest {
                body,
                position: start,
                rotation: Quat::IDENTITY,
                motion,
                margin: 0.0001,
                filter: QueryFilter::default(),
            },
            out,
        )
        .unwrap()
    };
    // Pressing into the ramp reports its normal.
    let into = test(n * -0.05, &mut out);
    assert!(
        into.collision_count >= 1 && into.safe_fraction < 0.1,
        "{into:?}"
    );
    let normal = out[0].contact.normal;
    assert!((normal - n).length() < 1e-3, "normal {normal:?}");
    // Every motion projected onto the reported surface moves all the way.
    for i in 0..16 {
        let (sa, ca) = maul3d::math::sin_cos(i as f32 * core::f32::consts::PI / 8.0);
        let m = Vec3::new(0.05 * ca, 0.0, 0.05 * sa);
        let slide = m - normal * m.dot(normal);
        let r = test(slide, &mut out);
        assert_eq!(
            r.safe_fraction, 1.0,
            "direction {i}: slide {slide:?} gave {r:?}"
        );
    }
}

/// The capsule of `scene` resting on the floor (0.5 mm above it) 1 cm from the wall.
fn corner_test(motion: Vec3) -> MotionTest {
    MotionTest {
        body: maul3d::BodyId::NULL,
        position: DVec3::new(4.39, 0.0005, 0.0),
        rotation: Quat::IDENTITY,
        motion,
        margin: 0.02,
        filter: QueryFilter::default(),
    }
}

#[test]
fn the_motion_test_against_the_motion_reports_the_wall_walked_into_and_not_the_floor_stood_on() {
    let (w, c) = scene();
    let t = MotionTest {
        body: c,
        ..corner_test(Vec3::new(1.0, 0.0, 0.0))
    };
    let mut all = empty();
    let plain = w.test_body_motion(&t, &mut all).unwrap();
    assert!(
        all[..plain.collision_count]
            .iter()
            .any(|m| m.contact.normal.y > 0.99),
        "the plain test reports the floor: {:?}",
        &all[..plain.collision_count]
    );
    let mut out = empty();
    let r = w.test_body_motion_against(&t, &mut out).unwrap();
    assert_eq!(
        (r.travel, r.safe_fraction),
        (plain.travel, plain.safe_fraction)
    );
    assert!(r.collision_count >= 1 && r.collision_count < plain.collision_count);
    for m in &out[..r.collision_count] {
        assert!(m.contact.normal.x < -0.99, "only the wall: {m:?}");
    }
}

#[test]
fn the_motion_test_against_the_motion_puts_the_most_opposed_contact_first_even_when_shallower() {
    let (w, c) = scene();
    // Down, into the wall and sideways: both the floor and the wall face against it; the
    // floor is the deeper (0.5 mm away against 1 cm), the wall the more opposed.
    let t = MotionTest {
        body: c,
        ..corner_test(Vec3::new(1.0, -0.2, 0.3))
    };
    let mut all = empty();
    let plain = w.test_body_motion(&t, &mut all).unwrap();
    assert!(all[0].contact.normal.y > 0.99, "deepest first: the floor");
    let mut out = empty();
    let r = w.test_body_motion_against(&t, &mut out).unwrap();
    assert_eq!(
        r.collision_count, plain.collision_count,
        "all face against it"
    );
    assert!(
        out[0].contact.normal.x < -0.99,
        "the wall first: {:?}",
        out[0]
    );
    assert!(out[r.collision_count - 1].contact.normal.y > 0.99);
    // A buffer of one keeps the most opposed of them all, and counts them all.
    let mut one = [out[0]; 1];
    let r1 = w.test_body_motion_against(&t, &mut one).unwrap();
    assert_eq!((r1.collision_count, one[0]), (r.collision_count, out[0]));
}

#[test]
fn the_motion_test_against_the_motion_equals_the_plain_one_filtered_and_stably_sorted() {
    let (w, c) = scene();
    let mut checked = 0;
    for k in 0..64 {
        let a = k as f32 * 0.37;
        let (s, co) = maul3d::math::sin_cos(a);
        let motion = Vec3::new(co, -0.3 + 0.01 * k as f32, s) * (0.05 + 0.02 * k as f32);
        let t = MotionTest {
            body: c,
            ..corner_test(motion)
        };
        let mut all = empty();
        let plain = w.test_body_motion(&t, &mut all).unwrap();
        assert!(plain.collision_count <= all.len());
        // What the Godot layer did: drop the contacts not facing against the motion, then
        // a stable sort on how much each faces against it.
        let dir = motion.normalize();
        let mut expected: Vec<MotionCollision> = all[..plain.collision_count]
            .iter()
            .copied()
            .filter(|m| dir.dot(m.contact.normal) < -1.0e-3)
            .collect();
        expected.sort_by(|a, b| {
            dir.dot(a.contact.normal)
                .partial_cmp(&dir.dot(b.contact.normal))
                .unwrap()
        });
        let mut out = empty();
        let r = w.test_body_motion_against(&t, &mut out).unwrap();
        assert_eq!(
            &out[..r.collision_count],
            &expected[..],
            "motion {motion:?}"
        );
        assert_eq!((r.travel, r.remainder), (plain.travel, plain.remainder));
        checked += usize::from(expected.len() >= 2);
    }
    assert!(checked > 4, "ordering seen only {checked} times");
}

#[test]
fn the_motion_test_against_a_zero_motion_reports_every_contact_deepest_first() {
    let (w, c) = scene();
    let t = MotionTest {
        body: c,
        ..corner_test(Vec3::ZERO)
    };
    let (mut a, mut b) = (empty(), empty());
    let plain = w.test_body_motion(&t, &mut a).unwrap();
    let r = w.test_body_motion_against(&t, &mut b).unwrap();
    assert!(plain.collision_count >= 2);
    assert_eq!((r, b), (plain, a));
}

/// A kinematic platform (a 3 × 0.4 × 3 m box, top at y = 1.2) moved by target transform
/// 0.1 m along x and turned 0.05 rad about y in one 1/60 s step: it keeps the velocity
/// the move implied after the step (6 m/s, 3 rad/s), and a motion test from a capsule
/// standing on it reports at the contact the platform's velocity there, linear + angular
/// × (point − centre of mass), the velocity `move_and_slide` rides a platform with.
#[test]
fn a_motion_test_reports_the_velocity_of_a_kinematic_platform_at_the_contact() {
    let mut w = world(false);
    let platform = w
        .create_body(&BodyDef {
            body_type: BodyType::Kinematic,
            position: DVec3::new(0.0, 1.0, 0.0),
            ..Default::default()
        })
        .unwrap();
    w.create_box_shape(platform, &ShapeDef::default(), Vec3::new(1.5, 0.2, 1.5))
        .unwrap();
    let c = w
        .create_body(&BodyDef {
            body_type: BodyType::Kinematic,
            position: DVec3::new(0.7, 1.2, 0.0),
            ..Default::default()
        })
        .unwrap();
    w.create_capsule_shape(
        c,
        &ShapeDef::default(),
        &Capsule {
            center1: Vec3::new(0.0, 0.5, 0.0),
            center2: Vec3::new(0.0, 1.5, 0.0),
            radius: 0.5,
        },
    )
    .unwrap();
    let turn = Quat::from_axis_angle(Vec3::Y, 0.05);
    w.set_body_target_transform(platform, DVec3::new(0.1, 1.0, 0.0), turn, DT)
        .unwrap();
    w.step(DT, SUBSTEPS).unwrap();
    let at = w.body_position(platform).unwrap();
    assert!(
        (at - DVec3::new(0.1, 1.0, 0.0)).to_f32().length() < 1e-4,
        "the platform reached its target ({at:?})"
    );
    let v = w.body_linear_velocity(platform).unwrap();
    let spin = w.body_angular_velocity(platform).unwrap();
    assert!(
        (v - Vec3::new(6.0, 0.0, 0.0)).length() < 1e-3,
        "after the step it keeps the velocity of its move ({v:?})"
    );
    assert!(
        (spin - Vec3::new(0.0, 3.0, 0.0)).length() < 1e-3,
        "and the angular velocity of its turn ({spin:?})"
    );
    // The capsule stands on the platform's top, 0.6 m off its axis (+x).
    let mut out = empty();
    let r = w
        .test_body_motion(
            &MotionTest {
                body: c,
                position: DVec3::new(0.7, 1.2005, 0.0),
                rotation: Quat::IDENTITY,
                motion: Vec3::new(0.0, -0.05, 0.0),
                margin: 0.01,
                filter: QueryFilter::default(),
            },
            &mut out,
        )
        .unwrap();
    assert!(r.collision_count >= 1, "the platform is reported");
    let com = w.body_center_of_mass(platform).unwrap();
    for hit in &out[..r.collision_count.min(out.len())] {
        assert_eq!(hit.contact.body, platform);
        let arm = (hit.contact.point_on_other - com).to_f32();
        let expected = v + spin.cross(arm);
        assert!(
            (hit.contact.velocity - expected).length() < 1e-4,
            "velocity at {:?}: {:?}, expected {expected:?}",
            hit.contact.point_on_other,
            hit.contact.velocity
        );
        // Closed form: 3 rad/s about y at 0.6 m along +x is 1.8 m/s along −z.
        assert!(
            (hit.contact.velocity - Vec3::new(6.0, 0.0, -1.8)).length() < 0.01,
            "{:?}",
            hit.contact.velocity
        );
    }
}

fn toward_wall(c: maul3d::BodyId) -> MotionTest {
    MotionTest {
        body: c,
        position: DVec3::new(0.0, 0.0005, 0.0),
        rotation: Quat::IDENTITY,
        motion: Vec3::new(10.0, 0.0, 0.0),
        margin: 0.01,
        filter: QueryFilter::default(),
    }
}

#[test]
fn a_motion_test_passes_through_an_excluded_wall_and_stops_at_one_not_excluded() {
    let (w, c) = scene();
    let mut out = empty();
    let plain = w
        .test_body_motion_against_with(&toward_wall(c), &maul3d::MotionOptions::default(), &mut out)
        .unwrap();
    assert!(
        plain.safe_fraction < 0.5 && plain.collision_count >= 1,
        "{plain:?}"
    );
    assert!(
        out[0].contact.normal.x < -0.99,
        "the wall faces the motion: {:?}",
        out[0]
    );
    let wall = out[0].contact.body;
    for options in [
        maul3d::MotionOptions {
            exclude: &[wall],
            ..Default::default()
        },
        maul3d::MotionOptions {
            exclude_where: Some(&|b| b == wall),
            ..Default::default()
        },
    ] {
        let r = w
            .test_body_motion_against_with(&toward_wall(c), &options, &mut out)
            .unwrap();
        assert_eq!(
            r.safe_fraction, 1.0,
            "the excluded wall does not stop the motion"
        );
        assert_eq!(r.collision_count, 0);
    }
    // An id that is no live body is refused.
    let err = w.test_body_motion_against_with(
        &toward_wall(c),
        &maul3d::MotionOptions {
            exclude: &[maul3d::BodyId::default()],
            ..Default::default()
        },
        &mut out,
    );
    assert!(err.is_err());
}

#[test]
fn a_separation_ray_holds_a_body_its_length_above_the_floor() {
    let mut w = world(false);
    ground(&mut w, 0.6);
    let c = w
        .create_body(&BodyDef {
            body_type: BodyType::Kinematic,
            ..Default::default()
        })
        .unwrap();
    w.create_sphere_shape(
        c,
        &ShapeDef::default(),
        &maul3d::Sphere {
            center: Vec3::ZERO,
            radius: 0.25,
        },
    )
    .unwrap();
    // Pointing down, 1 m long; the body starts 0.9 m above the floor (the ray 0.1 m in).
    let ray = maul3d::SeparationRay {
        origin: Vec3::ZERO,
        direction: Vec3::new(0.0, -1.0, 0.0),
        length: 1.0,
        slide_on_slope: false,
    };
    let options = maul3d::MotionOptions {
        separation_rays: &[ray],
        ..Default::default()
    };
    let mut out = empty();
    let t = MotionTest {
        body: c,
        position: DVec3::new(0.0, 0.9, 0.0),
        rotation: Quat::IDENTITY,
        motion: Vec3::new(0.0, -0.05, 0.0),
        margin: 0.001,
        filter: QueryFilter::default(),
    };
    let r = w
        .test_body_motion_against_with(&t, &options, &mut out)
        .unwrap();
    // Recovered 0.1 m up, then moved down freely (the ray does not stop the cast).
    assert!((r.travel.y - 0.05).abs() < 1e-4, "{:?}", r.travel);
    assert_eq!(r.collision_count, 1, "the floor under the ray is reported");
    let hit = out[0].contact;
    assert!(
        (hit.normal.y - 1.0).abs() < 1e-5 && (hit.depth - 0.05).abs() < 1e-4,
        "{hit:?}"
    );
    assert_eq!(out[0].local_shape, maul3d::ShapeId::NULL);
    // Snapping (collide_separation_rays): the ray's tip stops the cast at the floor.
    let snap = maul3d::MotionOptions {
        collide_separation_rays: true,
        ..options
    };
    let t = MotionTest {
        position: DVec3::new(0.0, 1.5, 0.0),
        motion: Vec3::new(0.0, -1.0, 0.0),
        ..t
    };
    let r = w
        .test_body_motion_against_with(&t, &snap, &mut out)
        .unwrap();
    assert!(
        (r.travel.y + 0.5).abs() < 0.01,
        "snaps down to 1 m above the floor: {:?}",
        r.travel
    );
    let r = w
        .test_body_motion_against_with(&t, &options, &mut out)
        .unwrap();
    assert!(
        (r.travel.y + 1.0).abs() < 1e-4,
        "without snapping the ray does not stop it: {:?}",
        r.travel
    );
    // A zero direction is refused.
    let bad = maul3d::SeparationRay {
        direction: Vec3::ZERO,
        ..ray
    };
    let bad = maul3d::MotionOptions {
        separation_rays: &[bad],
        ..Default::default()
    };
    assert!(w.test_body_motion_against_with(&t, &bad, &mut out).is_err());
}
