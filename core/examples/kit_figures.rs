//! Figures for the determinism kit: the cost of the floating-point environment switch
//! (per entry and per step), snapshot size per body, and hash/snapshot/restore times.
//!
//! `cargo run --release -p maul3d --example kit_figures`

use maul3d::math::{DVec3, Vec3};
use maul3d::{BodyDef, BodyType, ShapeDef, World, WorldDef};
use std::hint::black_box;

#[allow(clippy::disallowed_methods)] // timing the demo, not the simulation
fn now() -> std::time::Instant {
    std::time::Instant::now()
}

fn pyramid(levels: usize) -> World {
    let n = levels * (levels + 1) / 2 + 1;
    let mut w = World::new(&WorldDef {
        enable_sleep: false,
        body_capacity: n as u32,
        shape_capacity: n as u32,
        contact_capacity: 8 * n as u32,
        pair_capacity: 8 * n as u32,
        ..Default::default()
    })
    .unwrap();
    let g = w
        .create_body(&BodyDef {
            position: DVec3::new(0.0, -1.0, 0.0),
            ..Default::default()
        })
        .unwrap();
    w.create_box_shape(g, &ShapeDef::default(), Vec3::new(200.0, 1.0, 200.0))
        .unwrap();
    for i in 0..levels {
        for j in i..levels {
            let x = (i + 1) as f64 * 0.5 + (j - i) as f64 - 0.5 * levels as f64;
            let b = w
                .create_body(&BodyDef {
                    body_type: BodyType::Dynamic,
                    position: DVec3::new(x, 0.5 + i as f64, 0.0),
                    ..Default::default()
                })
                .unwrap();
            w.create_box_shape(b, &ShapeDef::default(), Vec3::splat(0.5))
                .unwrap();
        }
    }
    w
}

fn main() {
    // The shim alone: save, set, restore around an empty call.
    let n = 10_000_000u32;
    let t = now();
    let mut acc = 0u32;
    for i in 0..n {
        acc = acc.wrapping_add(maul3d::fp::with_library_fp(|| black_box(i)));
    }
    let per_call = t.elapsed().as_secs_f64() * 1e9 / n as f64;
    black_box(acc);
    println!("fp shim: {per_call:.2} ns per entry (save MXCSR/FPCR, set, restore)");

    // A step through the shim with a host in an odd mode would pay the switch once per
    // entry plus once per task piece; here: steps with and without the shim.
    let mut a = pyramid(20);
    let mut b = pyramid(20);
    for _ in 0..30 {
        a.step(1.0 / 60.0, 4).unwrap();
        b.step(1.0 / 60.0, 4).unwrap();
    }
    let steps = 300;
    let t = now();
    for _ in 0..steps {
        a.step(1.0 / 60.0, 4).unwrap();
    }
    let direct = t.elapsed().as_secs_f64() * 1e6 / steps as f64;
    let t = now();
    for _ in 0..steps {
        maul3d::fp::with_library_fp(|| b.step(1.0 / 60.0, 4)).unwrap();
    }
    let shimmed = t.elapsed().as_secs_f64() * 1e6 / steps as f64;
    println!("step of a 210-box pyramid: {direct:.1} µs direct, {shimmed:.1} µs through the shim");

    for levels in [20usize, 100] {
        let mut w = pyramid(levels);
        for _ in 0..60 {
            w.step(1.0 / 60.0, 4).unwrap();
        }
        let bodies = w.body_count();
        let size = w.snapshot_size();
        let mut buf = vec![0u8; size];
        let t = now();
        w.snapshot(&mut buf).unwrap();
        let snap_ms = t.elapsed().as_secs_f64() * 1e3;
        let t = now();
        let h = w.hash();
        let hash_ms = t.elapsed().as_secs_f64() * 1e3;
        let mut r = World::new(&World::def_from_snapshot(&buf).unwrap()).unwrap();
        let t = now();
        r.restore(&buf).unwrap();
        let restore_ms = t.elapsed().as_secs_f64() * 1e3;
        assert_eq!(r.hash(), h);
        println!(
            "{bodies} bodies, {} contacts: snapshot {size} bytes ({:.0} bytes/body incl. contacts), snapshot {snap_ms:.2} ms, hash {hash_ms:.2} ms, restore {restore_ms:.2} ms",
            w.counters().contact_count,
            size as f64 / bodies as f64
        );
    }
}
