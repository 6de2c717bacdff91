//! `cargo run --release -p maul3d-bench --bin cloth [-- --cloths 16 --size 32 --steps 300
//! --substeps 8 --bends 1 --threads 1]`
//!
//! Issue 18's soft-body figure, on one thread (or `--threads` of a persistent pool behind
//! the task hooks, `maul3d_bench::pool`): `--cloths` cloths of `--size` × `--size`
//! particles (2 m square, default settings: 8 substeps, dihedral bends — `--bends 0` sets
//! `NO_BENDS`, as Godot's soft bodies on Maul3D and on Jolt have none —, long-range
//! anchors off as nothing is pinned) dropped from 0.3 m over one sphere each (radius 0.5)
//! on a floor, in a 4-wide grid 3 m apart; 60 steps of warm-up (the cloths land and
//! drape), then `--steps` steps timed at 60 Hz with 4 rigid substeps. Prints the mean
//! ms/step, particles per second, and where the cloths came to rest (lowest particle,
//! closest particle centre to its sphere's centre) so a fast but wrong run shows.
//!
//! Rapier has no soft bodies, so there is no Rapier side. Jolt's side is the same scene
//! in Godot 4.6 (whose built-in Jolt runs `SoftBody3D`): `bash bench/godot-cloth.sh` times
//! it under Jolt and under Maul3D's Godot server (`--substeps 5 --bends 0` here is that
//! configuration without Godot).
//!
//! Wall-clock figures to read, not to assert.

use maul3d::math::{DVec3, Vec3};
use maul3d::{BodyDef, ShapeDef, SoftBodyDef, SoftBodySettings, Sphere, World, WorldDef};
use std::time::Instant;

fn arg(name: &str, default: usize) -> usize {
    let args: Vec<String> = std::env::args().collect();
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1))
        .map_or(default, |v| v.parse().expect("a count"))
}

fn grid(n: usize, size: f32) -> (Vec<Vec3>, Vec<[u32; 3]>) {
    let step = size / (n - 1) as f32;
    let mut v = Vec::with_capacity(n * n);
    for j in 0..n {
        for i in 0..n {
            v.push(Vec3::new(
                i as f32 * step - 0.5 * size,
                0.0,
                j as f32 * step - 0.5 * size,
            ));
        }
    }
    let mut t = Vec::new();
    for j in 0..n - 1 {
        for i in 0..n - 1 {
            let a = (i + n * j) as u32;
            let (b, c, d) = (a + 1, a + n as u32, a + n as u32 + 1);
            t.push([a, c, b]);
            t.push([b, c, d]);
        }
    }
    (v, t)
}

#[allow(clippy::disallowed_methods)] // A benchmark reads the clock and measures in f64; the engine never does.
fn main() {
    let cloths = arg("--cloths", 16);
    let size = arg("--size", 32);
    let steps = arg("--steps", 300);
    let substeps = arg("--substeps", 8) as u32;
    let bends = arg("--bends", 1) != 0;
    let threads = arg("--threads", 1) as u32;
    let pool = (threads > 1).then(|| maul3d_bench::pool::Pool::new(threads));
    let mut w = World::new(&WorldDef {
        soft_body_capacity: cloths as u32,
        soft_particle_capacity: (cloths * size * size) as u32,
        task_hooks: pool.as_ref().map(|p| p.hooks()),
        ..Default::default()
    })
    .expect("world");
    let floor = w
        .create_body(&BodyDef {
            position: DVec3::new(0.0, -1.0, 0.0),
            ..Default::default()
        })
        .expect("floor");
    w.create_box_shape(floor, &ShapeDef::default(), Vec3::new(50.0, 1.0, 50.0))
        .expect("floor box");
    let (v, t) = grid(size, 2.0);
    let mut ids = Vec::new();
    let mut centres = Vec::new();
    for k in 0..cloths {
        let at = DVec3::new((k % 4) as f64 * 3.0, 1.0, (k / 4) as f64 * 3.0);
        let s = w
            .create_body(&BodyDef {
                position: at,
                ..Default::default()
            })
            .expect("sphere body");
        w.create_sphere_shape(
            s,
            &ShapeDef::default(),
            &Sphere {
                center: Vec3::ZERO,
                radius: 0.5,
            },
        )
        .expect("sphere");
        centres.push(at);
        ids.push(
            w.create_soft_body(&SoftBodyDef {
                vertices: &v,
                triangles: &t,
                position: at + DVec3::new(0.0, 0.8, 0.0),
                settings: SoftBodySettings {
                    substeps,
                    bend_compliance: if bends { 1.0 } else { maul3d::NO_BENDS },
                    ..Default::default()
                },
                ..Default::default()
            })
            .expect("cloth"),
        );
    }
    let dt = 1.0 / 60.0;
    for _ in 0..60 {
        w.step(dt, 4).expect("step");
    }
    let start = Instant::now();
    for _ in 0..steps {
        w.step(dt, 4).expect("step");
    }
    let ms = start.elapsed().as_secs_f64() * 1000.0 / steps as f64;
    let particles = cloths * size * size;
    let mut lowest = f64::MAX;
    let mut closest = f64::MAX;
    let mut buf = vec![DVec3::ZERO; size * size];
    for (id, c) in ids.iter().zip(&centres) {
        w.soft_body_positions(*id, &mut buf).expect("positions");
        for p in &buf {
            lowest = lowest.min(p.y);
            closest = closest.min((*p - *c).to_f32().length() as f64);
        }
    }
    println!(
        "cloth cloths={cloths} particles={particles} substeps={substeps} bends={bends} \
         threads={threads} \
         steps={steps} maul3d={ms:.3} ms/step \
         ({:.1} M particle-substeps/s) soft_stage={:.3} ms lowest={lowest:.3} m \
         closest_to_sphere_centre={closest:.4} m (radius 0.5 + particle 0.02)",
        particles as f64 * substeps as f64 / (ms * 1000.0),
        w.profile().soft
    );
}
