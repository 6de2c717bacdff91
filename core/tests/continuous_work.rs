//! Continuous collision does bounded work that follows the swept path: time-of-impact
//! counters per step stay under bounds set by the bodies and the candidates near their
//! paths, fast capsules still never tunnel through a height field, and the sweep's order
//! never comes from the broad-phase trees' history.

mod common;
use common::*;
use maul3d::collide::cast::{MAX_TOI_EVALUATIONS, MAX_TOI_ITERATIONS};
use maul3d::math::{DVec3, PI, Quat, Vec3, sin_cos};
use maul3d::{
    BodyDef, BodyId, BodyType, Capsule, Counters, HeightFieldDef, MAX_SWEEP_CANDIDATES, ShapeDef,
    Sphere, World, WorldDef,
};

/// Samples per side of the height fields below.
const SIDE: u32 = 64;

/// The terrain's height at sample `(x, z)` before the vertical scale: a gentle swell.
fn swell(x: f32, z: f32) -> f32 {
    let (sx, _) = sin_cos(x * 0.37);
    let (_, cz) = sin_cos(z * 0.29);
    0.5 * sx * cz
}

fn terrain_world(bodies: u32) -> World {
    World::new(&WorldDef {
        enable_sleep: false,
        body_capacity: bodies + 8,
        shape_capacity: bodies + 8,
        contact_capacity: 8192,
        pair_capacity: 4096,
        mesh_capacity: 2,
        content_capacity: 1 << 22,
        ..Default::default()
    })
    .unwrap()
}

/// A `side` × `side` height field of `cell` m cells centred on the origin (the swell
/// scaled by 2 m), returning the body.
fn height_field(w: &mut World, side: u32, cell: f32, height: impl Fn(f32, f32) -> f32) -> BodyId {
    let heights: Vec<f32> = (0..side * side)
        .map(|i| height((i % side) as f32, (i / side) as f32))
        .collect();
    let hf = w
        .create_height_field(&HeightFieldDef {
            count_x: side,
            count_z: side,
            heights: &heights,
            holes: &[],
            scale: Vec3::new(cell, 2.0, cell),
        })
        .unwrap();
    let half = 0.5 * (side - 1) as f64 * cell as f64;
    let g = w
        .create_body(&BodyDef {
            position: DVec3::new(-half, 0.0, -half),
            ..Default::default()
        })
        .unwrap();
    w.create_mesh_shape(g, &ShapeDef::default(), hf).unwrap();
    g
}

/// Twenty capsules (radius 0.1, 0.8 m long) fired at the terrain at 100 to 290 m/s
/// down and `side` times that sideways, from a ring; their start poses and velocities.
fn fire_capsules(w: &mut World, cell: f32, side: f32, bullet: bool) -> Vec<(BodyId, DVec3, Vec3)> {
    (0..20)
        .map(|i| {
            let (s, c) = sin_cos(i as f32 * 0.9);
            let speed = 100.0 + 10.0 * i as f32;
            let p = DVec3::new(
                (c * 15.0 * cell) as f64,
                5.0 + i as f64 * 0.5,
                (s * 15.0 * cell) as f64,
            );
            let v = Vec3::new(-s * speed * side, -speed, c * speed * side);
            let b = w
                .create_body(&BodyDef {
                    body_type: BodyType::Dynamic,
                    position: p,
                    linear_velocity: v,
                    is_bullet: bullet,
                    ..Default::default()
                })
                .unwrap();
            w.create_capsule_shape(
                b,
                &ShapeDef::default(),
                &Capsule {
                    center1: Vec3::new(0.0, -0.3, 0.0),
                    center2: Vec3::new(0.0, 0.3, 0.0),
                    radius: 0.1,
                },
            )
            .unwrap();
            (b, p, v)
        })
        .collect()
}

/// The work a step may do at most: each swept body examines at most
/// `MAX_SWEEP_CANDIDATES` candidates, each costing a query and perhaps its core-ball
/// fallback, each query capped in iterations and evaluations.
fn assert_within_caps(c: &Counters, swept_bodies: u32, step: usize) {
    let queries = 2 * swept_bodies * MAX_SWEEP_CANDIDATES;
    assert!(
        c.toi_queries <= queries,
        "step {step}: {} queries for {swept_bodies} bodies",
        c.toi_queries
    );
    assert!(
        c.toi_iterations <= MAX_TOI_ITERATIONS * c.toi_queries,
        "step {step}: {c:?}"
    );
    assert!(
        c.toi_root_iterations <= MAX_TOI_EVALUATIONS * c.toi_queries,
        "step {step}: {c:?}"
    );
}

/// Runs the capsules over a terrain of `cell` m cells for `steps` steps, firing them
/// again every 30 steps; checks every step that none is below the surface and the caps
/// hold. Returns the largest queries and iterations one step took, and their totals.
fn run_capsules(cell: f32, side: f32, bullet: bool, steps: usize) -> (u32, u32, u64, u64) {
    let mut w = terrain_world(20);
    height_field(&mut w, SIDE, cell, swell);
    let caps = fire_capsules(&mut w, cell, side, bullet);
    let half = 0.5 * (SIDE - 1) as f32;
    let (mut max_q, mut max_it, mut total_q, mut total_it) = (0, 0, 0u64, 0u64);
    for step in 0..steps {
        if step > 0 && step % 30 == 0 {
            for &(b, p, v) in &caps {
                w.set_body_transform(b, p, Quat::IDENTITY).unwrap();
                w.set_body_velocity(b, v, Vec3::ZERO).unwrap();
            }
        }
        w.step(DT, SUBSTEPS).unwrap();
        let c = w.counters();
        assert_within_caps(&c, 20, step);
        assert_eq!(c.dropped_ccd_sweeps, 0, "step {step}");
        max_q = max_q.max(c.toi_queries);
        max_it = max_it.max(c.toi_iterations);
        total_q += c.toi_queries as u64;
        total_it += c.toi_iterations as u64;
        for &(b, _, _) in &caps {
            let p = w.body_position(b).unwrap();
            // Sample coordinates under the capsule; the surface there within a cell's
            // worth of swell (the triangles interpolate the samples).
            let (x, z) = (p.x as f32 / cell + half, p.z as f32 / cell + half);
            if x < 1.0 || z < 1.0 || x > (SIDE - 2) as f32 || z > (SIDE - 2) as f32 {
                continue;
            }
            let surface = 2.0 * swell(x, z);
            assert!(
                p.y as f32 > surface - 0.45,
                "step {step}: a capsule went through the terrain: {p:?}, surface {surface}"
            );
        }
    }
    (max_q, max_it, total_q, total_it)
}

#[test]
fn fast_capsules_never_tunnel_through_a_height_field_and_their_work_stays_bounded() {
    for (cell, side, bullet) in [(1.0, 0.5, false), (0.25, 0.3, false), (0.25, 0.3, true)] {
        let (max_q, max_it, total_q, total_it) = run_capsules(cell, side, bullet, 120);
        // Measured with 0.25 m cells: 93 queries and 455 iterations a step on average
        // (303 and 1,522 at most) for the 20 capsules; it was 340 and 1,416 when every
        // triangle under the swept box had its time of impact. The bound: 10 queries and
        // 50 iterations a capsule on average, 1,000 and 5,000 in the worst step.
        assert!(total_q <= 20 * 10 * 120, "cell {cell}: {total_q} queries");
        assert!(
            total_it <= 20 * 50 * 120,
            "cell {cell}: {total_it} iterations"
        );
        assert!(
            max_q <= 1000 && max_it <= 5000,
            "cell {cell}: {max_q}, {max_it}"
        );
    }
}

#[test]
fn a_fast_capsule_sliding_on_a_fine_height_field_runs_no_time_of_impact_for_the_triangles_under_it()
{
    // 0.1 m cells under a capsule lying on its side and sliding at 20 m/s: every step it
    // touches dozens of triangles it is not approaching. Only motion towards a
    // triangle's plane by half the capsule's thickness or more is fast there.
    let mut w = terrain_world(1);
    height_field(&mut w, SIDE, 0.1, |_, _| 0.0);
    let slick = ShapeDef {
        friction: 0.0,
        ..Default::default()
    };
    let b = w
        .create_body(&BodyDef {
            body_type: BodyType::Dynamic,
            position: DVec3::new(-2.5, 0.1, 0.0),
            rotation: Quat::from_axis_angle(Vec3::Z, 0.5 * PI),
            linear_velocity: Vec3::new(20.0, 0.0, 0.0),
            ..Default::default()
        })
        .unwrap();
    w.create_capsule_shape(
        b,
        &slick,
        &Capsule {
            center1: Vec3::new(0.0, -0.3, 0.0),
            center2: Vec3::new(0.0, 0.3, 0.0),
            radius: 0.1,
        },
    )
    .unwrap();
    let mut queries = 0;
    for _ in 0..10 {
        w.step(DT, SUBSTEPS).unwrap();
        queries += w.counters().toi_queries;
    }
    let p = w.body_position(b).unwrap();
    assert!(p.x > 0.5, "the capsule slid on: {p:?}");
    assert!((p.y - 0.1).abs() < 0.01, "and stayed on the surface: {p:?}");
    assert_eq!(queries, 0);
}

#[test]
fn a_huge_fast_bullet_sunk_in_a_large_height_field_examines_a_bounded_number_of_triangles() {
    // 255 × 255 cells (130,050 triangles) under a 40 m ball sunk half a metre into the
    // swell and moving 5 m a step: thousands of triangles lie within its reach. One
    // sweep examines at most MAX_SWEEP_CANDIDATES of them and says so in the counters
    // (it took 13,694 time-of-impact queries in that step before the limit).
    let mut w = terrain_world(4);
    height_field(&mut w, 256, 0.5, swell);
    let ball = w
        .create_body(&BodyDef {
            body_type: BodyType::Dynamic,
            position: DVec3::new(0.0, 40.5, 0.0),
            linear_velocity: Vec3::new(300.0, 0.0, 0.0),
            gravity_scale: 0.0,
            is_bullet: true,
            ..Default::default()
        })
        .unwrap();
    w.create_sphere_shape(
        ball,
        &ShapeDef::default(),
        &Sphere {
            center: Vec3::ZERO,
            radius: 40.0,
        },
    )
    .unwrap();
    for step in 0..3 {
        w.step(DT, SUBSTEPS).unwrap();
        let c = w.counters();
        assert_within_caps(&c, 1, step);
        // Pushed out of the terrain by the first step's contact, it flies clear after.
        assert_eq!(
            c.dropped_ccd_sweeps,
            (step == 0) as u32,
            "step {step}: {c:?}"
        );
    }
}

/// A deterministic generator for the adversarial world.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> f32 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 40) as f32) / ((1u64 << 24) as f32)
    }

    fn range(&mut self, lo: f32, hi: f32) -> f32 {
        lo + (hi - lo) * self.next()
    }

    fn vec(&mut self, r: f32) -> Vec3 {
        Vec3::new(self.range(-r, r), self.range(-r, r), self.range(-r, r))
    }
}

#[test]
fn a_world_of_extreme_fast_bodies_does_bounded_time_of_impact_work_every_step() {
    // Eighty bodies of every size from 5 cm to 20 km, up to four shapes each, fast and
    // spinning, a third of them bullets, over a height field and forty static boxes:
    // the kind of world where one step took seconds (3,241,017 time-of-impact queries
    // in the first step; now at most 7,781 in a step, some sweeps cut short).
    let mut w = World::new(&WorldDef {
        enable_sleep: false,
        body_capacity: 200,
        shape_capacity: 600,
        contact_capacity: 20_000,
        pair_capacity: 20_000,
        mesh_capacity: 2,
        content_capacity: 1 << 22,
        ..Default::default()
    })
    .unwrap();
    height_field(&mut w, 128, 2.0, swell);
    let mut rng = Lcg(79);
    for _ in 0..40 {
        let s = w
            .create_body(&BodyDef {
                position: rng.vec(120.0).to_f64(),
                ..Default::default()
            })
            .unwrap();
        let half = Vec3::new(
            rng.range(0.02, 4.0),
            rng.range(0.02, 4.0),
            rng.range(0.02, 4.0),
        );
        w.create_box_shape(s, &ShapeDef::default(), half).unwrap();
    }
    let mut dynamic = 0u32;
    for i in 0..80 {
        let decade = [1.0, 10.0, 100.0, 1.0e3, 1.0e4, 1.0e5][i % 6];
        let size = 0.05 * decade * rng.range(1.0, 4.0);
        let b = w
            .create_body(&BodyDef {
                body_type: BodyType::Dynamic,
                position: (rng.vec(100.0) + Vec3::new(0.0, 60.0, 0.0)).to_f64(),
                rotation: Quat::from_axis_angle(rng.vec(1.0).normalize(), rng.range(0.0, 3.0)),
                linear_velocity: rng.vec(400.0),
                angular_velocity: rng.vec(150.0),
                is_bullet: i % 3 == 0,
                ..Default::default()
            })
            .unwrap();
        dynamic += 1;
        for k in 0..1 + i % 4 {
            let center = rng.vec(size);
            let r = size * rng.range(0.05, 1.0);
            if k % 2 == 0 {
                w.create_sphere_shape(b, &ShapeDef::default(), &Sphere { center, radius: r })
                    .unwrap();
            } else {
                let capsule = Capsule {
                    center1: center,
                    center2: center + rng.vec(size),
                    radius: 0.1 * r,
                };
                w.create_capsule_shape(b, &ShapeDef::default(), &capsule)
                    .unwrap();
            }
        }
    }
    for step in 0..20 {
        w.step(DT, SUBSTEPS).unwrap();
        let c = w.counters();
        assert_within_caps(&c, dynamic, step);
    }
}

/// Static walls at x = 2, 2.5, …, created in a scrambled order with slots freed and
/// reused, so the static tree's shape differs from a fresh insertion in slot order (as
/// a restore makes it); a fast bullet crosses all of them in one step.
fn walls_and_ball() -> World {
    let mut w = World::new(&WorldDef {
        gravity: Vec3::ZERO,
        enable_sleep: false,
        body_capacity: 64,
        shape_capacity: 64,
        contact_capacity: 1024,
        pair_capacity: 1024,
        ..Default::default()
    })
    .unwrap();
    let wall = |w: &mut World, k: usize| {
        let b = w
            .create_body(&BodyDef {
                position: DVec3::new(2.0 + 0.5 * k as f64, 0.0, 0.0),
                rotation: Quat::from_axis_angle(Vec3::Y, 0.1 * k as f32),
                ..Default::default()
            })
            .unwrap();
        w.create_box_shape(b, &ShapeDef::default(), Vec3::new(0.02, 2.0, 2.0))
            .unwrap();
        b
    };
    // (Found by a search over such orders: with the trees' query order, the live and the
    // restored world part at the first step in about one order in thirty.)
    let mut temporary = Vec::new();
    for (k, t) in [(3, 6), (1, 4), (7, 6)] {
        wall(&mut w, k);
        temporary.push(wall(&mut w, 20 + t));
    }
    for b in temporary {
        w.destroy_body(b).unwrap();
    }
    for k in [6, 0, 2] {
        wall(&mut w, k);
    }
    let ball = w
        .create_body(&BodyDef {
            body_type: BodyType::Dynamic,
            position: DVec3::new(0.0, 0.3, 0.2),
            linear_velocity: Vec3::new(480.0, 7.0, -3.0),
            is_bullet: true,
            ..Default::default()
        })
        .unwrap();
    w.create_sphere_shape(
        ball,
        &ShapeDef::default(),
        &Sphere {
            center: Vec3::ZERO,
            radius: 0.05,
        },
    )
    .unwrap();
    w
}

#[test]
fn a_restored_world_sweeps_a_fast_body_exactly_as_the_live_one() {
    let mut live = walls_and_ball();
    let mut buf = vec![0u8; live.snapshot_size()];
    let n = live.snapshot(&mut buf).unwrap();
    let mut restored = World::new(&World::def_from_snapshot(&buf[..n]).unwrap()).unwrap();
    restored.restore(&buf[..n]).unwrap();
    assert_eq!(live.hash(), restored.hash());
    for step in 0..8 {
        live.step(DT, SUBSTEPS).unwrap();
        restored.step(DT, SUBSTEPS).unwrap();
        assert!(live.counters().toi_queries > 0 || step > 0);
        assert_eq!(live.hash(), restored.hash(), "step {step}");
    }
}

#[test]
fn a_sweep_over_more_static_shapes_than_it_gathers_at_once_still_stops_at_the_first_wall() {
    // A fast ball on a diagonal (at the world's 400 m/s) through 600 small static balls
    // that lie in its swept bounds but off its path, and two thin walls across it: more
    // candidates than a sweep holds on the stack, so it scans the slots instead.
    let mut w = World::new(&WorldDef {
        gravity: Vec3::ZERO,
        enable_sleep: false,
        body_capacity: 700,
        shape_capacity: 700,
        contact_capacity: 4096,
        pair_capacity: 4096,
        ..Default::default()
    })
    .unwrap();
    let small = Sphere {
        center: Vec3::ZERO,
        radius: 0.05,
    };
    let mut rng = Lcg(600);
    let mut placed = 0;
    while placed < 400 {
        let p = Vec3::new(
            rng.range(0.0, 6.0),
            rng.range(0.0, 6.0),
            rng.range(-0.04, 0.04),
        );
        if (p.x - p.y).abs() < 0.5 {
            continue;
        }
        let b = w
            .create_body(&BodyDef {
                position: p.to_f64(),
                ..Default::default()
            })
            .unwrap();
        w.create_sphere_shape(b, &ShapeDef::default(), &small)
            .unwrap();
        placed += 1;
    }
    let diagonal = Quat::from_axis_angle(Vec3::Z, 0.25 * PI);
    for d in [4.0, 2.0] {
        let wall = w
            .create_body(&BodyDef {
                position: DVec3::new(d, d, 0.0),
                rotation: diagonal,
                ..Default::default()
            })
            .unwrap();
        w.create_box_shape(wall, &ShapeDef::default(), Vec3::new(0.02, 0.5, 0.5))
            .unwrap();
    }
    let ball = w
        .create_body(&BodyDef {
            body_type: BodyType::Dynamic,
            position: DVec3::new(0.2, 0.2, 0.0),
            linear_velocity: Vec3::new(340.0, 340.0, 0.0),
            ..Default::default()
        })
        .unwrap();
    w.create_sphere_shape(ball, &ShapeDef::default(), &small)
        .unwrap();
    w.step(DT, SUBSTEPS).unwrap();
    // The first wall's face lies 2√2 − 0.02 m along the diagonal: the ball stops a
    // radius and a slop short, at x = y = (2.828 − 0.02 − 0.055) / √2 = 1.947.
    let p = w.body_position(ball).unwrap();
    assert!(
        (p.x - 1.947).abs() < 0.01 && (p.y - p.x).abs() < 1e-4,
        "stopped at {p:?}"
    );
    assert_eq!(w.counters().dropped_ccd_sweeps, 0);
}

#[test]
fn sweeps_of_fast_capsules_and_bullets_over_a_height_field_step_on_a_48_kib_stack() {
    // The step's deepest call keeps under 48 KiB (see stack.rs): the sweep's gathered
    // candidates, piece boxes and proxies live on the stack.
    std::thread::Builder::new()
        .stack_size(48 * 1024)
        .spawn(|| {
            run_capsules(0.25, 0.3, false, 40);
            run_capsules(0.25, 0.3, true, 40);
        })
        .unwrap()
        .join()
        .expect("the step overflowed a 48 KiB stack or panicked");
}
