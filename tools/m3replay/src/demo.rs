//! The built-in demo session: a scene with every kind of body, recorded call by call.
//!
//! The scene is built, then snapshotted, then the journal starts: everything after the
//! snapshot (the paddle's moves, bodies created and destroyed, impulses, every step) is on
//! the tape. The seed only changes the journaled calls (the projectile's aim and the
//! kicks), so two seeds share a starting snapshot and part at the projectile's step.

use std::time::Duration;

use indicatif::ProgressBar;
use maul3d::math::{DVec3, Quat, Vec3, sin};
use maul3d::{
    BodyDef, BodyId, BodyType, Capsule, HullId, Result, ShapeDef, Sphere, World, WorldDef,
    encode_replay, encoded_replay_size,
};

use crate::clock::timed;

/// Time step of the demo (60 Hz) and its substeps.
pub const DT: f32 = 1.0 / 60.0;
const SUBSTEPS: u32 = 4;

/// Journal bytes reserved per step: a step record is 18 bytes and the paddle's velocity
/// record 46; creates and kicks on a few steps fit easily in the rest.
const TAPE_BYTES_PER_STEP: usize = 256;
const TAPE_BYTES_BASE: usize = 16 * 1024;

/// A recorded demo session, packed as a replay container.
pub struct Recording {
    /// The replay container (snapshot, tape, final hash).
    pub bytes: Vec<u8>,
    /// Bytes of the starting snapshot.
    pub snapshot_len: usize,
    /// Bytes of the tape.
    pub tape_len: usize,
    /// Bodies alive when the snapshot was taken.
    pub bodies_at_start: u32,
    /// Bodies alive after the last step.
    pub bodies_at_end: u32,
    /// Steps recorded.
    pub steps: u32,
    /// The world's hash after the last call.
    pub final_hash: u64,
    /// Wall time spent inside `World::step` while recording.
    pub step_time: Duration,
}

/// The demo world's capacities: small, so the snapshot (and the committed file) is small.
pub fn world_def() -> WorldDef {
    WorldDef {
        body_capacity: 128,
        shape_capacity: 128,
        contact_capacity: 1024,
        pair_capacity: 1024,
        hull_capacity: 4,
        event_capacity: 128,
        ..Default::default()
    }
}

/// SplitMix64: a few lines of integer arithmetic, the same on every machine, so a seed
/// names one session everywhere.
struct Rng(u64);

impl Rng {
    fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform in [-1, 1): 24 random bits converted exactly.
    fn signed(&mut self) -> f32 {
        let bits = (self.next_u64() >> 40) as f32;
        bits * (2.0 / 16_777_216.0) - 1.0
    }
}

/// A wedge: the convex hull of its six corners (plus an interior point the builder drops).
const WEDGE: [Vec3; 7] = [
    Vec3::new(-0.5, -0.3, -0.4),
    Vec3::new(0.5, -0.3, -0.4),
    Vec3::new(-0.5, -0.3, 0.4),
    Vec3::new(0.5, -0.3, 0.4),
    Vec3::new(-0.5, 0.3, 0.0),
    Vec3::new(0.5, 0.3, 0.0),
    Vec3::new(0.0, 0.0, 0.0),
];

/// A rock: an irregular octahedron-like hull, created during the session.
const ROCK: [Vec3; 8] = [
    Vec3::new(0.45, 0.05, 0.0),
    Vec3::new(-0.4, 0.0, 0.1),
    Vec3::new(0.0, 0.5, -0.05),
    Vec3::new(0.05, -0.35, 0.0),
    Vec3::new(0.0, 0.1, 0.42),
    Vec3::new(-0.1, 0.0, -0.38),
    Vec3::new(0.25, 0.25, 0.2),
    Vec3::new(-0.2, -0.2, -0.2),
];

fn dynamic(position: DVec3) -> BodyDef {
    BodyDef {
        body_type: BodyType::Dynamic,
        position,
        ..Default::default()
    }
}

fn sphere(radius: f32) -> Sphere {
    Sphere {
        center: Vec3::ZERO,
        radius,
    }
}

fn capsule(half_length: f32, radius: f32) -> Capsule {
    Capsule {
        center1: Vec3::new(-half_length, 0.0, 0.0),
        center2: Vec3::new(half_length, 0.0, 0.0),
        radius,
    }
}

/// Bodies the session touches after the snapshot.
struct Cast {
    paddle: BodyId,
    balls: Vec<BodyId>,
    wedge: HullId,
}

/// The scene before the snapshot: ground, a pyramid, spheres, capsules, wedges (a hull
/// shape) and a kinematic paddle.
fn build_scene(w: &mut World) -> Result<Cast> {
    let shape = ShapeDef::default();
    let ground = w.create_body(&BodyDef {
        position: DVec3::new(0.0, -0.5, 0.0),
        ..Default::default()
    })?;
    w.create_box_shape(ground, &shape, Vec3::new(20.0, 0.5, 20.0))?;

    // A four-row box pyramid along x.
    for row in 0..4u32 {
        for i in 0..(4 - row) {
            let x = -1.5 + row as f64 * 0.5 + i as f64;
            let b = w.create_body(&dynamic(DVec3::new(x, 0.5 + row as f64, 0.0)))?;
            w.create_box_shape(b, &shape, Vec3::splat(0.5))?;
        }
    }

    // Spheres and capsules dropped in the paddle's lane, the capsules tumbling.
    let mut balls = Vec::new();
    for i in 0..5 {
        let b = w.create_body(&dynamic(DVec3::new(-4.0 + 2.0 * i as f64, 1.0, 3.0)))?;
        w.create_sphere_shape(b, &shape, &sphere(0.3 + 0.05 * i as f32))?;
        balls.push(b);
    }
    for i in 0..3 {
        let b = w.create_body(&BodyDef {
            rotation: Quat::from_axis_angle(Vec3::Y, 0.7 * i as f32),
            angular_velocity: Vec3::new(0.0, 0.0, 2.0),
            ..dynamic(DVec3::new(-3.0 + 3.0 * i as f64, 2.5, 3.5))
        })?;
        w.create_capsule_shape(b, &shape, &capsule(0.4, 0.25))?;
    }

    let wedge = w.create_hull(&WEDGE)?;
    for i in 0..2 {
        let b = w.create_body(&BodyDef {
            rotation: Quat::from_axis_angle(Vec3::X, 0.3),
            ..dynamic(DVec3::new(3.0 + 1.5 * i as f64, 1.5, -2.0))
        })?;
        w.create_hull_shape(b, &shape, wedge)?;
    }

    let paddle = w.create_body(&BodyDef {
        body_type: BodyType::Kinematic,
        position: DVec3::new(0.0, 0.4, 3.0),
        ..Default::default()
    })?;
    w.create_box_shape(paddle, &shape, Vec3::new(1.5, 0.3, 0.2))?;
    Ok(Cast {
        paddle,
        balls,
        wedge,
    })
}

/// Bodies created during the session, destroyed later.
#[derive(Default)]
struct Extras {
    projectile: Option<BodyId>,
    rock_body: Option<BodyId>,
    rock: Option<HullId>,
}

/// The journaled calls made before step `step` (1-based), then the step itself.
fn play_step(
    w: &mut World,
    cast: &Cast,
    extras: &mut Extras,
    rng: &mut Rng,
    step: u32,
) -> Result<()> {
    let shape = ShapeDef::default();
    // The paddle sweeps ±5 m along x and turns slowly, pushing the spheres and capsules.
    let t = step as f32 * DT;
    let target = DVec3::new(5.0 * sin(0.9 * t) as f64, 0.4, 3.0);
    let turn = Quat::from_axis_angle(Vec3::Y, 0.4 * sin(0.5 * t));
    w.set_body_target_transform(cast.paddle, target, turn, DT)?;

    match step {
        // A fast sphere at the pyramid, its aim seeded.
        31 => {
            let b = w.create_body(&BodyDef {
                linear_velocity: Vec3::new(18.0, 3.0 + rng.signed(), 0.5 * rng.signed()),
                is_bullet: true,
                ..dynamic(DVec3::new(-10.0, 1.5, 0.0))
            })?;
            // Dense enough (lead, roughly) to knock the pyramid down, not bounce off it.
            let heavy = ShapeDef {
                density: 11_000.0,
                ..shape
            };
            w.create_sphere_shape(b, &heavy, &sphere(0.35))?;
            extras.projectile = Some(b);
        }
        // Kicks to the spheres, seeded.
        61 | 121 | 181 => {
            for &b in &cast.balls {
                let j = Vec3::new(2.0 * rng.signed(), 3.0, 2.0 * rng.signed());
                w.apply_linear_impulse_to_center(b, j)?;
            }
        }
        // Wedges rain on the pyramid's ruins.
        91 => {
            for i in 0..3 {
                let b = w.create_body(&BodyDef {
                    rotation: Quat::from_axis_angle(Vec3::Z, 0.5 * i as f32),
                    ..dynamic(DVec3::new(-1.0 + i as f64, 4.0 + i as f64, 0.2))
                })?;
                w.create_hull_shape(b, &shape, cast.wedge)?;
            }
        }
        // A new hull, created and used during the session.
        101 => {
            let rock = w.create_hull(&ROCK)?;
            let b = w.create_body(&BodyDef {
                angular_velocity: Vec3::new(1.0, 0.0, 3.0),
                ..dynamic(DVec3::new(2.0, 5.0, 3.0))
            })?;
            w.create_hull_shape(b, &shape, rock)?;
            extras.rock = Some(rock);
            extras.rock_body = Some(b);
        }
        // The projectile leaves; its slot is reused by the next create.
        151 => {
            if let Some(b) = extras.projectile.take() {
                w.destroy_body(b)?;
            }
            let b = w.create_body(&BodyDef {
                rotation: Quat::from_axis_angle(Vec3::Y, 1.2),
                ..dynamic(DVec3::new(0.0, 3.0, -3.0))
            })?;
            w.create_capsule_shape(b, &shape, &capsule(0.6, 0.2))?;
        }
        // The rock and its hull go.
        241 => {
            if let Some(b) = extras.rock_body.take() {
                w.destroy_body(b)?;
            }
            if let Some(h) = extras.rock.take() {
                w.destroy_hull(h)?;
            }
        }
        _ => {}
    }
    Ok(())
}

/// Builds the scene, snapshots it, records `steps` steps of the session with the journal
/// running, and packs snapshot, tape and final hash into a replay container.
pub fn record(steps: u32, seed: u64, progress: &ProgressBar) -> Result<Recording> {
    let mut w = World::new(&world_def())?;
    let cast = build_scene(&mut w)?;
    let bodies_at_start = w.body_count();
    let mut snapshot = vec![0u8; w.snapshot_size()];
    let snapshot_len = w.snapshot(&mut snapshot)?;
    snapshot.truncate(snapshot_len);

    w.start_journal(TAPE_BYTES_BASE + TAPE_BYTES_PER_STEP * steps as usize)?;
    let mut rng = Rng(seed);
    let mut extras = Extras::default();
    let mut step_time = Duration::ZERO;
    for step in 1..=steps {
        play_step(&mut w, &cast, &mut extras, &mut rng, step)?;
        let (r, t) = timed(|| w.step(DT, SUBSTEPS));
        r?;
        step_time += t;
        progress.inc(1);
    }
    let tape_len = w.stop_journal()?;
    let final_hash = w.hash();
    let tape = &w.journal_tape()[..tape_len];

    let mut bytes = vec![0u8; encoded_replay_size(snapshot.len(), tape.len())];
    let n = encode_replay(&snapshot, tape, final_hash, &mut bytes)?;
    bytes.truncate(n);
    Ok(Recording {
        bytes,
        snapshot_len,
        tape_len,
        bodies_at_start,
        bodies_at_end: w.body_count(),
        steps,
        final_hash,
        step_time,
    })
}
