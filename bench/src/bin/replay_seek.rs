//! `cargo run --release -p maul3d-bench --bin replay_seek [-- --bodies 200 --steps 36000 --seeks 200]`
//!
//! Issue 15's seek figures for the core's `ReplayPlayer`, one thread:
//!
//! - records a session: `--bodies` boxes and spheres dropped in rows into a walled pen,
//!   piling on its floor, with a few of them kicked up every two seconds so the pile never
//!   all sleeps; `--steps` steps at 60 Hz (36,000: ten minutes);
//! - opens it with `ReplayPlayer::open` (keyframe spacing chosen automatically) and times
//!   the first far seek (to the last step, no keyframes yet), a full `index` on a fresh
//!   player, then `--seeks` seeks to random steps (a fixed-seed order) on the indexed one:
//!   median and max milliseconds per seek, the spacing K and the keyframes' memory.
//!
//! Wall-clock figures to read, not to assert; what seeks return is checked by the core's
//! tests (`core/tests/replay_player.rs`).

use maul3d::math::{DVec3, Vec3};
use maul3d::{
    BodyDef, BodyId, BodyType, KEYFRAME_BUDGET, ReplayPlayer, ShapeDef, Sphere, World, WorldDef,
    encode_replay, encoded_replay_size,
};
use std::time::Instant;

fn arg(name: &str, default: usize) -> usize {
    let args: Vec<String> = std::env::args().collect();
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1))
        .map_or(default, |v| v.parse().expect("a count"))
}

/// SplitMix64: the kicks and the seek order are the same on every run.
struct Rng(u64);

impl Rng {
    fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n
    }
}

fn fixed(w: &mut World, position: DVec3, half: Vec3) {
    let b = w
        .create_body(&BodyDef {
            position,
            ..Default::default()
        })
        .expect("static body");
    w.create_box_shape(b, &ShapeDef::default(), half)
        .expect("static shape");
}

/// A floor and four walls around a 10 m square pen, and `n` bodies above it in rows of
/// ten (boxes and spheres in turn).
fn scene(w: &mut World, n: usize) -> Vec<BodyId> {
    fixed(w, DVec3::new(0.0, -0.5, 0.0), Vec3::new(6.0, 0.5, 6.0));
    for (x, z, hx, hz) in [(5.5, 0.0, 0.5, 6.0), (-5.5, 0.0, 0.5, 6.0)]
        .into_iter()
        .chain([(0.0, 5.5, 6.0, 0.5), (0.0, -5.5, 6.0, 0.5)])
    {
        fixed(w, DVec3::new(x, 2.0, z), Vec3::new(hx, 2.0, hz));
    }
    let shape = ShapeDef {
        density: 1.0,
        ..Default::default()
    };
    (0..n)
        .map(|i| {
            let (col, row, layer) = (i % 10, (i / 10) % 10, i / 100);
            let b = w
                .create_body(&BodyDef {
                    body_type: BodyType::Dynamic,
                    position: DVec3::new(
                        -4.05 + col as f64 * 0.9,
                        1.0 + layer as f64 * 1.5 + (row % 2) as f64 * 0.3,
                        -4.05 + row as f64 * 0.9,
                    ),
                    ..Default::default()
                })
                .expect("body fits");
            if i % 2 == 0 {
                w.create_box_shape(b, &shape, Vec3::splat(0.35))
                    .expect("shape fits");
            } else {
                let ball = Sphere {
                    center: Vec3::ZERO,
                    radius: 0.35,
                };
                w.create_sphere_shape(b, &shape, &ball).expect("shape fits");
            }
            b
        })
        .collect()
}

/// Records the session into a replay container.
fn record(bodies: usize, steps: usize) -> Vec<u8> {
    let mut w = World::new(&WorldDef::default()).expect("world");
    let cast = scene(&mut w, bodies);
    let mut start = vec![0u8; w.snapshot_size()];
    let n = w.snapshot(&mut start).expect("snapshot");
    start.truncate(n);
    // A step record is 18 bytes, a kick 30-odd: 64 a step leaves room.
    w.start_journal(64 * steps + (1 << 16)).expect("journal");
    let mut rng = Rng(15);
    for s in 0..steps {
        if s % 120 == 60 {
            for _ in 0..5 {
                let b = cast[rng.below(cast.len() as u64) as usize];
                let side = (rng.below(5) as f32 - 2.0) * 1.5;
                w.apply_linear_impulse_to_center(b, Vec3::new(side, 6.0, -side))
                    .expect("kick");
            }
        }
        w.step(1.0 / 60.0, 4).expect("step");
    }
    w.stop_journal().expect("stop");
    let tape = w.journal_tape().to_vec();
    let mut file = vec![0u8; encoded_replay_size(start.len(), tape.len())];
    encode_replay(&start, &tape, w.hash(), &mut file).expect("encode");
    file
}

fn ms(t: Instant) -> f64 {
    t.elapsed().as_secs_f64() * 1e3
}

#[allow(clippy::disallowed_methods)] // A benchmark reads the clock; the engine never does.
fn main() {
    let bodies = arg("--bodies", 200);
    let steps = arg("--steps", 36_000);
    let seeks = arg("--seeks", 200);

    let t = Instant::now();
    let file = record(bodies, steps);
    println!(
        "recorded {bodies} bodies, {steps} steps in {:.1} s: replay file {} bytes",
        t.elapsed().as_secs_f64(),
        file.len()
    );

    let t = Instant::now();
    let mut cold = ReplayPlayer::open(&file).expect("open");
    println!(
        "open {:.1} ms: keyframe every {} steps (budget {} MiB, starting snapshot {} bytes)",
        ms(t),
        cold.keyframe_every(),
        KEYFRAME_BUDGET >> 20,
        cold.start_snapshot().len()
    );
    let last = cold.step_count();
    let t = Instant::now();
    cold.seek(last).expect("far seek");
    println!(
        "first far seek (to step {last}, no keyframes yet) {:.1} ms, {:.3} ms per step walked",
        ms(t),
        ms(t) / last.max(1) as f64
    );
    let awake = cold
        .world()
        .body_ids()
        .filter(|&id| cold.world().body_is_awake(id).unwrap_or(false))
        .count();
    println!(
        "at the last step: {} bodies, {awake} awake",
        cold.world().body_count()
    );
    drop(cold);

    let mut p = ReplayPlayer::open(&file).expect("open");
    let t = Instant::now();
    p.index(|_| {}).expect("index");
    println!(
        "index (fresh player, whole session) {:.1} ms: keyframes {} bytes ({:.1} MiB)",
        ms(t),
        p.keyframe_bytes(),
        p.keyframe_bytes() as f64 / (1 << 20) as f64
    );

    let mut rng = Rng(0x5eed);
    let mut times: Vec<f64> = (0..seeks)
        .map(|_| {
            let step = rng.below(last + 1);
            let t = Instant::now();
            p.seek(step).expect("seek");
            ms(t)
        })
        .collect();
    times.sort_by(f64::total_cmp);
    let at = |q: f64| {
        times
            .get(((times.len() as f64 - 1.0) * q) as usize)
            .copied()
            .unwrap_or(0.0)
    };
    let (median, p95, max) = (at(0.5), at(0.95), at(1.0));
    println!(
        "{seeks} random seeks: median {median:.2} ms, p95 {p95:.2} ms, max {max:.2} ms (K = {}, keyframes {:.1} MiB)",
        p.keyframe_every(),
        p.keyframe_bytes() as f64 / (1 << 20) as f64
    );
}
