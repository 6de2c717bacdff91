//! Soft bodies: a cloth pinned at two corners hangs within its sag bound and loses
//! energy once settled; a volume ball keeps its volume under its own weight; cloth drapes
//! over a sphere without passing through it; a soft body presses a dynamic box down and
//! pulls an attached body; a cloth passes through a body it ignores; snapshot, journal,
//! shift, refusals, no allocation.

#![allow(clippy::disallowed_methods)] // measuring results in tests, not simulating

mod common;
#[path = "../../test/determinism/src/tasks.rs"]
mod tasks;

use common::{DT, SUBSTEPS};
use maul3d::math::{DVec3, Quat, Vec3};
use maul3d::{
    BodyDef, BodyId, BodyType, Error, SOFT_BODY_EXCEPTIONS, ShapeDef, SoftBodyDef, SoftBodyId,
    SoftBodySettings, Sphere, World, WorldDef,
};
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

struct CountingGlobal;

thread_local! {
    static COUNTING: Cell<bool> = const { Cell::new(false) };
    static ALLOCS: Cell<usize> = const { Cell::new(0) };
}

// SAFETY: forwards to the system allocator; the counters are thread-local cells.
unsafe impl GlobalAlloc for CountingGlobal {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if COUNTING.with(|c| c.get()) {
            ALLOCS.with(|a| a.set(a.get() + 1));
        }
        // SAFETY: same contract as GlobalAlloc::alloc.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: the block came from System.alloc with this layout.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if COUNTING.with(|c| c.get()) {
            ALLOCS.with(|a| a.set(a.get() + 1));
        }
        // SAFETY: same contract as GlobalAlloc::realloc.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: CountingGlobal = CountingGlobal;

fn def() -> WorldDef {
    WorldDef {
        body_capacity: 64,
        shape_capacity: 64,
        contact_capacity: 256,
        pair_capacity: 256,
        soft_particle_capacity: 8192,
        ..Default::default()
    }
}

/// A square cloth of `n` × `n` vertices, `size` wide, in its frame's xz plane (vertex
/// `i + n·j` at x = i, z = j), two triangles per cell.
fn grid(n: usize, size: f32) -> (Vec<Vec3>, Vec<[u32; 3]>) {
    let mut v = Vec::new();
    let step = size / (n - 1) as f32;
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

/// A closed sphere mesh (a subdivided octahedron pushed out to `radius`), outward wound.
fn ball(radius: f32, levels: usize) -> (Vec<Vec3>, Vec<[u32; 3]>) {
    let mut v = vec![
        Vec3::new(1.0, 0.0, 0.0),
        Vec3::new(-1.0, 0.0, 0.0),
        Vec3::new(0.0, 1.0, 0.0),
        Vec3::new(0.0, -1.0, 0.0),
        Vec3::new(0.0, 0.0, 1.0),
        Vec3::new(0.0, 0.0, -1.0),
    ];
    let mut t: Vec<[u32; 3]> = vec![
        [0, 2, 4],
        [2, 1, 4],
        [1, 3, 4],
        [3, 0, 4],
        [2, 0, 5],
        [1, 2, 5],
        [3, 1, 5],
        [0, 3, 5],
    ];
    for _ in 0..levels {
        let mut mids = std::collections::BTreeMap::new();
        let mut mid = |a: u32, b: u32, v: &mut Vec<Vec3>| -> u32 {
            *mids.entry((a.min(b), a.max(b))).or_insert_with(|| {
                v.push(((v[a as usize] + v[b as usize]) * 0.5).normalize());
                (v.len() - 1) as u32
            })
        };
        let mut next = Vec::new();
        for [a, b, c] in t {
            let (ab, bc, ca) = (mid(a, b, &mut v), mid(b, c, &mut v), mid(c, a, &mut v));
            next.extend([[a, ab, ca], [ab, b, bc], [ca, bc, c], [ab, bc, ca]]);
        }
        t = next;
    }
    (v.into_iter().map(|p| p * radius).collect(), t)
}

fn floor(w: &mut World) -> BodyId {
    let g = w
        .create_body(&BodyDef {
            position: DVec3::new(0.0, -1.0, 0.0),
            ..Default::default()
        })
        .unwrap();
    w.create_box_shape(g, &ShapeDef::default(), Vec3::new(20.0, 1.0, 20.0))
        .unwrap();
    g
}

fn positions(w: &World, id: SoftBodyId) -> Vec<DVec3> {
    let n = w.soft_body_particle_count(id).unwrap() as usize;
    let mut out = vec![DVec3::ZERO; n];
    w.soft_body_positions(id, &mut out).unwrap();
    out
}

/// Kinetic plus potential energy of a soft body's particles (each `mass / n`).
fn energy(w: &World, id: SoftBodyId) -> f64 {
    let s = w.soft_body_settings(id).unwrap();
    let n = w.soft_body_particle_count(id).unwrap();
    let m = (s.mass / n as f32) as f64;
    let g = -w.gravity().y as f64;
    (0..n)
        .map(|i| {
            let v = w.soft_particle_velocity(id, i).unwrap();
            let p = w.soft_particle_position(id, i).unwrap();
            0.5 * m * v.length_squared() as f64 + m * g * p.y
        })
        .sum()
}

fn cloth(w: &mut World, n: usize, size: f32, at: DVec3, settings: SoftBodySettings) -> SoftBodyId {
    let (v, t) = grid(n, size);
    w.create_soft_body(&SoftBodyDef {
        vertices: &v,
        triangles: &t,
        position: at,
        settings,
        ..Default::default()
    })
    .unwrap()
}

#[test]
fn a_cloth_pinned_at_two_corners_hangs_within_its_sag_bound_and_settles() {
    let mut w = World::new(&def()).unwrap();
    let n = 32;
    let size = 2.0;
    let settings = SoftBodySettings {
        damping: 1.0,
        ..Default::default()
    };
    let id = cloth(&mut w, n, size, DVec3::new(0.0, 3.0, 0.0), settings);
    let corners = [0u32, (n - 1) as u32];
    for c in corners {
        w.set_soft_particle_pinned(id, c, true).unwrap();
    }
    let rest: Vec<DVec3> = positions(&w, id);
    let mut energies = Vec::new();
    for _ in 0..900 {
        w.step(DT, SUBSTEPS).unwrap();
        energies.push(energy(&w, id));
    }
    let p = positions(&w, id);
    // Pins stay put.
    for c in corners {
        assert_eq!(p[c as usize], rest[c as usize]);
    }
    // No particle lower than its rest distance to the nearer pin (stretched by the
    // long-range limit, 1.1) below the pins.
    let mut lowest = f64::MAX;
    let mut worst = f64::MAX;
    for (i, q) in p.iter().enumerate() {
        let d = corners
            .iter()
            .map(|&c| (rest[c as usize] - rest[i]).to_f32().length() as f64)
            .fold(f64::MAX, f64::min);
        let bound = 3.0 - 1.1 * d;
        worst = worst.min(q.y - bound);
        lowest = lowest.min(q.y);
    }
    let speed = (0..n * n)
        .map(|i| w.soft_particle_velocity(id, i as u32).unwrap().length())
        .fold(0.0f32, f32::max);
    println!(
        "lowest particle {lowest:.4} m, closest to its bound by {worst:.4} m, fastest {speed:.5} m/s"
    );
    assert!(
        worst >= -1.0e-3,
        "a particle sagged past its bound by {worst}"
    );
    assert!(
        lowest < 3.0 - 0.5 * size as f64,
        "the cloth did not hang: lowest {lowest}"
    );
    assert!(speed < 0.05, "not at rest: {speed} m/s");
    // Energy never rises after settling (10 s).
    let mut rises = 0.0f64;
    for k in 601..energies.len() {
        rises = rises.max(energies[k] - energies[k - 1]);
    }
    println!(
        "largest energy rise after 10 s: {rises:.3e} J (energy {:.4} J)",
        energies.last().unwrap()
    );
    // At rest the projections jitter at the f32 noise floor: a rise of at most 1e-5 of
    // the energy (0.2 mJ here) counts as none.
    let floor = 1.0e-5 * energies.last().unwrap().abs();
    assert!(
        rises <= floor,
        "energy rose by {rises} (noise floor {floor})"
    );
}

fn ball_body(w: &mut World, at: DVec3, settings: SoftBodySettings) -> SoftBodyId {
    let (v, t) = ball(0.5, 3);
    w.create_soft_body(&SoftBodyDef {
        vertices: &v,
        triangles: &t,
        position: at,
        settings,
        ..Default::default()
    })
    .unwrap()
}

fn ball_settings() -> SoftBodySettings {
    SoftBodySettings {
        mass: 2.0,
        volume_scale: 1.0,
        edge_compliance: 1.0e-4,
        damping: 0.5,
        particle_radius: 0.02,
        ..Default::default()
    }
}

#[test]
fn a_volume_ball_keeps_its_volume_resting_on_the_floor() {
    let mut w = World::new(&def()).unwrap();
    floor(&mut w);
    let id = ball_body(&mut w, DVec3::new(0.0, 1.5, 0.0), ball_settings());
    let rest = w.soft_body_volume(id).unwrap();
    let mut lowest = f64::MAX;
    for _ in 0..300 {
        w.step(DT, SUBSTEPS).unwrap();
        for p in positions(&w, id) {
            lowest = lowest.min(p.y);
        }
    }
    let v = w.soft_body_volume(id).unwrap();
    let bottom = positions(&w, id)
        .iter()
        .map(|p| p.y)
        .fold(f64::MAX, f64::min);
    println!(
        "rest volume {rest:.5} m³, resting {v:.5} m³ ({:+.2} %), bottom {bottom:.4} m, lowest ever {lowest:.4} m",
        100.0 * (v - rest) / rest
    );
    assert!(
        ((v - rest) / rest).abs() <= 0.05,
        "volume {v} against {rest}"
    );
    assert!((0.0..0.05).contains(&bottom), "resting bottom at {bottom}");
    assert!(lowest >= -0.01, "sank into the floor to {lowest}");
}

#[test]
fn a_pressure_ball_bounces_and_keeps_its_volume() {
    let mut w = World::new(&def()).unwrap();
    floor(&mut w);
    let settings = SoftBodySettings {
        volume_scale: 0.0,
        pressure: 100.0,
        edge_compliance: 0.0,
        damping: 0.0,
        ..ball_settings()
    };
    let id = ball_body(&mut w, DVec3::new(0.0, 2.0, 0.0), settings);
    let rest = w.soft_body_volume(id).unwrap();
    let centre = |w: &World| positions(w, id).iter().map(|p| p.y).sum::<f64>() / 258.0;
    let mut hit = false;
    let mut top_after = f64::MIN;
    let mut smallest = f32::MAX;
    for _ in 0..180 {
        let before = centre(&w);
        w.step(DT, SUBSTEPS).unwrap();
        let c = centre(&w);
        smallest = smallest.min(w.soft_body_volume(id).unwrap());
        if c > before && c < 1.0 {
            hit = true;
        }
        if hit {
            top_after = top_after.max(c);
        }
    }
    let v = w.soft_body_volume(id).unwrap();
    println!(
        "bounced: {hit}, highest centre after 0.6 m {top_after:.3} m, smallest volume {smallest:.4} of {rest:.4} m³, now {v:.4}"
    );
    assert!(hit && top_after > 0.8, "no bounce: {top_after}");
    assert!(
        smallest > 0.7 * rest && (v - rest).abs() < 0.15 * rest,
        "volume {smallest}, {v} against {rest}"
    );
}

#[test]
fn cloth_over_a_sphere_drapes_without_passing_through() {
    let mut w = World::new(&def()).unwrap();
    floor(&mut w);
    let s = w
        .create_body(&BodyDef {
            position: DVec3::new(0.0, 1.0, 0.0),
            ..Default::default()
        })
        .unwrap();
    w.create_sphere_shape(
        s,
        &ShapeDef::default(),
        &Sphere {
            center: Vec3::ZERO,
            radius: 0.5,
        },
    )
    .unwrap();
    let settings = SoftBodySettings {
        damping: 0.5,
        particle_radius: 0.02,
        ..Default::default()
    };
    let id = cloth(&mut w, 32, 2.0, DVec3::new(0.0, 1.7, 0.0), settings);
    let mut deepest = f64::MAX;
    for _ in 0..300 {
        w.step(DT, SUBSTEPS).unwrap();
        for p in positions(&w, id) {
            let d = (p - DVec3::new(0.0, 1.0, 0.0)).to_f32().length() as f64;
            deepest = deepest.min(d);
        }
    }
    let p = positions(&w, id);
    let top = p.iter().map(|q| q.y).fold(f64::MIN, f64::max);
    let low = p.iter().map(|q| q.y).fold(f64::MAX, f64::min);
    println!(
        "closest particle centre to the sphere's: {deepest:.4} m (radius 0.5 + 0.02), top {top:.3}, lowest {low:.3}"
    );
    assert!(
        deepest >= 0.5 + 0.02 - 0.01,
        "a particle went into the sphere: {deepest}"
    );
    assert!(
        top > 1.5 && top < 1.56,
        "not resting on the sphere's top: {top}"
    );
    assert!(low < 1.0, "did not drape: lowest {low}");
}

#[test]
fn a_soft_body_presses_a_dynamic_box_down_and_pulls_an_attached_body() {
    let mut w = World::new(&def()).unwrap();
    // A box hanging on a soft spring... simpler: a box on a slider-free stack: a light box
    // floating in no gravity is pushed down by a ball falling on it.
    let b = w
        .create_body(&BodyDef {
            body_type: BodyType::Dynamic,
            position: DVec3::new(0.0, 0.5, 0.0),
            gravity_scale: 0.0,
            linear_damping: 0.0,
            ..Default::default()
        })
        .unwrap();
    w.create_box_shape(
        b,
        &ShapeDef {
            density: 50.0,
            ..Default::default()
        },
        Vec3::new(0.5, 0.1, 0.5),
    )
    .unwrap();
    let id = ball_body(&mut w, DVec3::new(0.0, 1.5, 0.0), ball_settings());
    let mut pushed = 0.0f32;
    for _ in 0..60 {
        w.step(DT, SUBSTEPS).unwrap();
        pushed = pushed.min(w.body_linear_velocity(b).unwrap().y);
    }
    // Momentum: all the system has is what gravity gave the ball in 1 s (2 kg · 10 m/s²
    // · 1 s), shared between the ball and the 10 kg box.
    let ball: f64 = (0..w.soft_body_particle_count(id).unwrap())
        .map(|i| w.soft_particle_velocity(id, i).unwrap().y as f64 * 2.0 / 258.0)
        .sum();
    let total = ball + 10.0 * w.body_linear_velocity(b).unwrap().y as f64;
    println!(
        "the box (10 kg, no gravity) moved down at up to {:.3} m/s under a 2 kg ball; momentum {total:.3} N·s (gravity gave -20)",
        -pushed
    );
    assert!(pushed < -0.05, "the box was not pushed: {pushed}");
    assert!(
        (total + 20.0).abs() < 2.0,
        "momentum {total} N·s against -20"
    );

    // A flag pulls its pole: a cloth attached by one edge to a dynamic body, gravity on.
    let mut w = World::new(&def()).unwrap();
    let pole = w
        .create_body(&BodyDef {
            body_type: BodyType::Dynamic,
            position: DVec3::new(0.0, 3.0, 0.0),
            gravity_scale: 0.0,
            ..Default::default()
        })
        .unwrap();
    w.create_box_shape(
        pole,
        &ShapeDef {
            density: 100.0,
            ..Default::default()
        },
        Vec3::new(0.05, 0.05, 1.0),
    )
    .unwrap();
    let n = 8;
    let flag = cloth(
        &mut w,
        n,
        2.0,
        DVec3::new(1.05, 3.0, 0.0),
        SoftBodySettings {
            mass: 2.0,
            ..Default::default()
        },
    );
    for j in 0..n {
        let i = (n * j) as u32;
        let at = w.soft_particle_position(flag, i).unwrap() - DVec3::new(0.0, 3.0, 0.0);
        w.attach_soft_particle(flag, i, Some(pole), at.to_f32())
            .unwrap();
    }
    for _ in 0..60 {
        w.step(DT, SUBSTEPS).unwrap();
    }
    let v = w.body_linear_velocity(pole).unwrap();
    let p = w.body_position(pole).unwrap();
    let edge = w.soft_particle_position(flag, 0).unwrap();
    println!("pole (gravity off) pulled to {p:?} at {v:?}; flag's attached corner at {edge:?}");
    assert!(p.y < 2.95, "the flag did not pull its pole down: {p:?}");
    assert!(
        p.x > 0.0,
        "the flag did not pull its pole towards it: {p:?}"
    );
    // Detached when the pole goes.
    w.destroy_body(pole).unwrap();
    assert_eq!(w.soft_particle_attachment(flag, 0).unwrap(), None);
    w.step(DT, SUBSTEPS).unwrap();
}

/// A scene with every soft body feature in use: a cloth pinned at a corner and attached
/// to a box, over a sphere; a pressure ball with self-collision; a volume ball; a floor.
fn busy(w: &mut World) -> [SoftBodyId; 3] {
    floor(w);
    let s = w
        .create_body(&BodyDef {
            position: DVec3::new(0.0, 1.0, 0.0),
            ..Default::default()
        })
        .unwrap();
    w.create_sphere_shape(
        s,
        &ShapeDef::default(),
        &Sphere {
            center: Vec3::ZERO,
            radius: 0.5,
        },
    )
    .unwrap();
    let b = w
        .create_body(&BodyDef {
            body_type: BodyType::Dynamic,
            position: DVec3::new(1.2, 2.0, 0.0),
            ..Default::default()
        })
        .unwrap();
    w.create_box_shape(b, &ShapeDef::default(), Vec3::new(0.2, 0.2, 0.2))
        .unwrap();
    let settings = SoftBodySettings {
        drag: 0.5,
        ..Default::default()
    };
    let c = cloth(w, 16, 2.0, DVec3::new(0.0, 1.8, 0.0), settings);
    w.set_soft_particle_pinned(c, 0, true).unwrap();
    w.attach_soft_particle(c, 15, Some(b), Vec3::new(-0.2, 0.0, 0.0))
        .unwrap();
    let p = ball_body(
        w,
        DVec3::new(3.0, 1.5, 0.0),
        SoftBodySettings {
            pressure: 100.0,
            self_collision: true,
            ..ball_settings()
        },
    );
    let v = ball_body(w, DVec3::new(-3.0, 1.0, 0.5), ball_settings());
    [c, p, v]
}

#[test]
fn a_snapshot_mid_run_restores_to_the_same_hash_and_continuation() {
    let mut w = World::new(&def()).unwrap();
    let ids = busy(&mut w);
    for _ in 0..40 {
        w.step(DT, SUBSTEPS).unwrap();
    }
    let mut buf = vec![0u8; w.snapshot_size()];
    w.snapshot(&mut buf).unwrap();
    let mut t = World::new(&World::def_from_snapshot(&buf).unwrap()).unwrap();
    t.restore(&buf).unwrap();
    assert_eq!(t.hash(), w.hash());
    for _ in 0..60 {
        w.step(DT, SUBSTEPS).unwrap();
        t.step(DT, SUBSTEPS).unwrap();
        assert_eq!(t.hash(), w.hash());
    }
    for (id, tid) in ids.iter().zip(t.soft_body_ids()) {
        assert_eq!(positions(&t, tid), positions(&w, *id));
    }
    // Restored into the world itself (rollback), then stepped again: the same bits.
    let after = w.hash();
    w.restore(&buf).unwrap();
    for _ in 0..60 {
        w.step(DT, SUBSTEPS).unwrap();
    }
    assert_eq!(w.hash(), after);
    // A world holding no soft bodies takes the snapshot too; one too small refuses it.
    let small = World::new(&WorldDef {
        soft_particle_capacity: 100,
        ..def()
    })
    .unwrap();
    let mut small = small;
    assert!(small.restore(&buf).is_err());
    // A damaged particle count is refused.
    let n = buf.len();
    let mut bad = buf.clone();
    bad[n - 9] ^= 0x7f;
    let mut u = World::new(&World::def_from_snapshot(&buf).unwrap()).unwrap();
    let h = u.hash();
    let _ = u
        .restore(&bad)
        .map(|_| panic!("a damaged snapshot restored"));
    assert_eq!(u.hash(), h);
}

#[test]
fn a_replayed_journal_of_soft_body_calls_ends_on_the_same_hash() {
    let mut a = World::new(&def()).unwrap();
    a.start_journal(1 << 22).unwrap();
    let [c, p, v] = busy(&mut a);
    for k in 0..90 {
        a.step(DT, SUBSTEPS).unwrap();
        match k {
            10 => a.set_soft_particle_pinned(c, 15, true).unwrap(),
            20 => a
                .set_soft_particle_position(c, 15, DVec3::new(1.5, 2.5, 0.0))
                .unwrap(),
            30 => a
                .apply_soft_body_impulse(p, Vec3::new(0.0, 5.0, 1.0))
                .unwrap(),
            40 => a
                .apply_soft_particle_impulse(v, 3, Vec3::new(0.1, 0.0, 0.0))
                .unwrap(),
            50 => a
                .set_soft_body_settings(
                    p,
                    &SoftBodySettings {
                        pressure: 300.0,
                        ..ball_settings()
                    },
                )
                .unwrap(),
            55 => a
                .set_soft_particle_velocity(v, 7, Vec3::new(0.0, 2.0, 0.0))
                .unwrap(),
            60 => a
                .set_soft_body_filter(
                    v,
                    maul3d::Filter {
                        mask_bits: 0,
                        ..Default::default()
                    },
                )
                .unwrap(),
            70 => a
                .set_soft_body_transform(
                    v,
                    DVec3::new(-3.0, 3.0, 0.0),
                    Quat::from_axis_angle(Vec3::Y, 0.5),
                )
                .unwrap(),
            80 => a.destroy_soft_body(p).unwrap(),
            85 => a.attach_soft_particle(c, 15, None, Vec3::ZERO).unwrap(),
            _ => {}
        }
    }
    a.stop_journal().unwrap();
    let tape = a.journal_tape().to_vec();
    let mut b = World::new(&def()).unwrap();
    b.replay_journal(&tape).unwrap();
    println!("replayed: {:016x} original {:016x}", b.hash(), a.hash());
    assert_eq!(a.hash(), b.hash());
}

#[test]
fn shift_origin_moves_the_soft_bodies_exactly() {
    let shift = DVec3::new(65_536.5, -1024.25, 3.0 + 1.0 / 4_294_967_296.0);
    let run = |shift_at: Option<usize>| {
        let mut w = World::new(&def()).unwrap();
        let ids = busy(&mut w);
        for i in 0..120 {
            if shift_at == Some(i) {
                w.shift_origin(shift).unwrap();
            }
            w.step(DT, SUBSTEPS).unwrap();
        }
        ids.map(|id| positions(&w, id))
    };
    let a = run(None);
    let b = run(Some(50));
    for (pa, pb) in a.iter().zip(&b) {
        for (x, y) in pa.iter().zip(pb) {
            assert_eq!(*y + shift, *x);
        }
    }
}

#[test]
fn bad_soft_body_input_is_refused_and_changes_nothing() {
    let mut w = World::new(&WorldDef {
        soft_particle_capacity: 600,
        soft_body_capacity: 2,
        ..def()
    })
    .unwrap();
    let [c] = busy_small(&mut w);
    let h = w.hash();
    let (v, t) = grid(4, 1.0);
    fn make<'a>(v: &'a [Vec3], t: &'a [[u32; 3]], s: SoftBodySettings) -> SoftBodyDef<'a> {
        SoftBodyDef {
            vertices: v,
            triangles: t,
            settings: s,
            ..Default::default()
        }
    }
    let good = SoftBodySettings::default();
    let bad_settings = [
        SoftBodySettings { mass: 0.0, ..good },
        SoftBodySettings {
            mass: f32::NAN,
            ..good
        },
        SoftBodySettings {
            substeps: 0,
            ..good
        },
        SoftBodySettings {
            substeps: 65,
            ..good
        },
        SoftBodySettings {
            edge_compliance: -1.0,
            ..good
        },
        SoftBodySettings {
            volume_scale: 11.0,
            ..good
        },
        SoftBodySettings {
            particle_radius: 0.0,
            ..good
        },
        SoftBodySettings {
            long_range_stretch: 0.5,
            ..good
        },
        SoftBodySettings {
            gravity_scale: f32::INFINITY,
            ..good
        },
    ];
    for s in &bad_settings {
        assert!(w.create_soft_body(&make(&v, &t, *s)).is_err(), "{s:?}");
        assert!(w.set_soft_body_settings(c, s).is_err(), "{s:?}");
    }
    assert!(w.create_soft_body(&make(&[], &t, good)).is_err());
    assert!(w.create_soft_body(&make(&v, &[], good)).is_err());
    assert!(w.create_soft_body(&make(&v, &[[0, 1, 99]], good)).is_err());
    assert!(w.create_soft_body(&make(&v, &[[0, 1, 1]], good)).is_err());
    assert!(
        w.create_soft_body(&make(
            &[Vec3::new(f32::NAN, 0.0, 0.0); 3],
            &[[0, 1, 2]],
            good
        ))
        .is_err()
    );
    assert!(
        w.create_soft_body(&SoftBodyDef {
            position: DVec3::new(3e6, 0.0, 0.0),
            ..make(&v, &t, good)
        })
        .is_err()
    );
    assert!(
        w.create_soft_body(&SoftBodyDef {
            rotation: Quat::new(1e20, 1e20, 0.0, 0.0),
            ..make(&v, &t, good)
        })
        .is_err()
    );
    // Too many particles for the capacity.
    let (big_v, big_t) = grid(30, 1.0);
    let e = w.create_soft_body(&make(&big_v, &big_t, good)).unwrap_err();
    assert!(
        matches!(
            e,
            maul3d::Error::Capacity {
                what: "soft_particle_capacity",
                ..
            }
        ),
        "{e:?}"
    );
    // An index past the particles is an argument error naming it (not a coordinate).
    let e = w.set_soft_particle_pinned(c, 10_000, true).unwrap_err();
    assert!(
        matches!(
            e,
            maul3d::Error::Argument {
                name: "particle index",
                ..
            }
        ),
        "{e:?}"
    );
    assert!(
        w.set_soft_particle_position(c, 0, DVec3::new(f64::NAN, 0.0, 0.0))
            .is_err()
    );
    assert!(
        w.set_soft_particle_velocity(c, 0, Vec3::new(0.0, 1e9, 0.0))
            .is_err()
    );
    assert!(
        w.apply_soft_particle_impulse(c, 0, Vec3::new(0.0, f32::NAN, 0.0))
            .is_err()
    );
    assert!(
        w.apply_soft_body_impulse(c, Vec3::new(0.0, 1e13, 0.0))
            .is_err()
    );
    assert!(
        w.set_soft_body_transform(c, DVec3::ZERO, Quat::new(0.0, 0.0, 0.0, 0.0))
            .is_err()
    );
    assert!(
        w.attach_soft_particle(c, 0, Some(BodyId::NULL), Vec3::ZERO)
            .is_err()
    );
    assert!(
        w.attach_soft_particle(c, 0, None, Vec3::new(f32::NAN, 0.0, 0.0))
            .is_err()
    );
    assert_eq!(w.hash(), h, "a refused call changed the world");
    // A full pool, and a stale id.
    let other = w.create_soft_body(&make(&v, &t, good)).unwrap();
    let e = w.create_soft_body(&make(&v, &t, good)).unwrap_err();
    assert!(
        matches!(
            e,
            maul3d::Error::Capacity {
                what: "soft_body_capacity",
                ..
            }
        ),
        "{e:?}"
    );
    w.destroy_soft_body(other).unwrap();
    let h = w.hash();
    assert!(w.destroy_soft_body(other).is_err());
    assert!(w.soft_particle_position(other, 0).is_err());
    assert_eq!(w.hash(), h);
}

/// A smaller busy scene: one cloth.
fn busy_small(w: &mut World) -> [SoftBodyId; 1] {
    floor(w);
    let c = cloth(
        w,
        16,
        2.0,
        DVec3::new(0.0, 1.8, 0.0),
        SoftBodySettings::default(),
    );
    w.set_soft_particle_pinned(c, 0, true).unwrap();
    [c]
}

#[test]
fn steps_with_soft_bodies_allocate_nothing() {
    let mut w = World::new(&def()).unwrap();
    let [c, p, _] = busy(&mut w);
    let sphere = w.body_ids().nth(1).unwrap();
    w.set_soft_body_ignores_body(c, sphere, true).unwrap();
    for _ in 0..2 {
        w.step(DT, SUBSTEPS).unwrap();
    }
    COUNTING.with(|c| c.set(true));
    for k in 0..120 {
        // The ignore lists change without allocating too.
        if k == 60 {
            w.set_soft_body_ignores_body(p, sphere, true).unwrap();
            w.set_soft_body_ignores_body(c, sphere, false).unwrap();
        }
        w.step(DT, SUBSTEPS).unwrap();
    }
    COUNTING.with(|c| c.set(false));
    let n = ALLOCS.with(|a| a.get());
    println!("allocations in 120 steps: {n}");
    assert_eq!(n, 0);
}

#[test]
fn a_world_that_never_held_a_soft_body_hashes_as_before() {
    // The soft store is encoded only once it has held one: the snapshot of a plain world
    // is as long as its state without the store, and its restore works.
    let mut w = World::new(&def()).unwrap();
    floor(&mut w);
    let h = w.hash();
    let id = cloth(
        &mut w,
        4,
        1.0,
        DVec3::new(0.0, 2.0, 0.0),
        SoftBodySettings::default(),
    );
    assert_ne!(w.hash(), h);
    w.destroy_soft_body(id).unwrap();
    // Held one: the store (an empty slot) stays in the state.
    assert_ne!(w.hash(), h);
}

/// Through the task hooks (colours of edges and bends, particles' contacts spread over
/// threads, in any split), any number of workers gives the single-threaded bits.
#[test]
fn every_worker_count_gives_the_single_threaded_hashes() {
    let run = |hooks: Option<maul3d::TaskHooks>| {
        let mut w = World::new(&WorldDef {
            task_hooks: hooks,
            ..def()
        })
        .unwrap();
        busy(&mut w);
        // A second, larger cloth so colours pass the split threshold.
        cloth(
            &mut w,
            40,
            3.0,
            DVec3::new(0.0, 2.5, 3.0),
            SoftBodySettings::default(),
        );
        (0..90)
            .map(|_| {
                w.step(DT, SUBSTEPS).unwrap();
                w.hash()
            })
            .collect::<Vec<u64>>()
    };
    let reference = run(None);
    for (workers, threaded) in [(1, true), (2, true), (4, true), (4, false), (8, true)] {
        let pool = tasks::TestTasks::new(workers, threaded, 0x50f7 + workers as u64);
        assert_eq!(
            run(Some(pool.hooks())),
            reference,
            "{workers} workers (threaded: {threaded})"
        );
    }
}

/// A soft body's reactions never carry a body past the world's speed caps, and its
/// particles keep within them too (found by the property test: a light body under a
/// fast soft body ended a step at 1e5 m/s against `max_linear_speed` 400).
#[test]
fn soft_bodies_keep_themselves_and_the_bodies_they_push_within_the_speed_caps() {
    let mut w = World::new(&WorldDef {
        max_linear_speed: 10.0,
        ..def()
    })
    .unwrap();
    let light = w
        .create_body(&BodyDef {
            body_type: BodyType::Dynamic,
            position: DVec3::new(0.0, 1.0, 0.0),
            gravity_scale: 0.0,
            ..Default::default()
        })
        .unwrap();
    w.create_box_shape(
        light,
        &ShapeDef {
            density: 0.01,
            ..Default::default()
        },
        Vec3::new(0.1, 0.1, 0.1),
    )
    .unwrap();
    let c = cloth(
        &mut w,
        4,
        1.0,
        DVec3::new(0.0, 1.2, 0.0),
        SoftBodySettings {
            mass: 50.0,
            ..Default::default()
        },
    );
    w.attach_soft_particle(c, 0, Some(light), Vec3::ZERO)
        .unwrap();
    for i in 0..16 {
        w.set_soft_particle_velocity(c, i, Vec3::new(0.0, 5.0e4, 3.0e4))
            .unwrap();
    }
    for _ in 0..10 {
        w.step(DT, SUBSTEPS).unwrap();
        let v = w.body_linear_velocity(light).unwrap().length();
        assert!(v <= 10.0 * (1.0 + 1e-5), "the body moves at {v} m/s");
        for i in 0..16 {
            let s = w.soft_particle_velocity(c, i).unwrap().length();
            assert!(s <= 10.0 * (1.0 + 1e-5), "particle {i} moves at {s} m/s");
        }
    }
}

/// A cloth dropped on every rigid shape kind comes to rest on it: no particle centre ends
/// inside a solid shape (a point query), nor below a terrain's surface (a ray from above).
#[test]
fn a_cloth_rests_on_every_shape_kind_without_passing_through() {
    use maul3d::{Capsule, Cylinder, HeightFieldDef, PlaneShape, QueryFilter, VoxelGridDef};
    for kind in [
        "sphere",
        "box",
        "capsule",
        "cylinder",
        "hull",
        "voxels",
        "mesh",
        "height field",
        "plane",
    ] {
        let mut w = World::new(&def()).unwrap();
        let terrain = matches!(kind, "mesh" | "height field" | "plane");
        if !terrain {
            floor(&mut w);
        }
        let b = w.create_body(&BodyDef::default()).unwrap();
        let sd = ShapeDef::default();
        match kind {
            "sphere" => {
                w.create_sphere_shape(
                    b,
                    &sd,
                    &Sphere {
                        center: Vec3::new(0.0, 0.5, 0.0),
                        radius: 0.5,
                    },
                )
                .unwrap();
            }
            "box" => {
                w.create_box_shape(b, &sd, Vec3::new(0.4, 0.5, 0.4))
                    .unwrap();
            }
            "capsule" => {
                w.create_capsule_shape(
                    b,
                    &sd,
                    &Capsule {
                        center1: Vec3::new(-0.5, 0.3, 0.0),
                        center2: Vec3::new(0.5, 0.3, 0.0),
                        radius: 0.3,
                    },
                )
                .unwrap();
            }
            "cylinder" => {
                w.create_cylinder_shape(
                    b,
                    &sd,
                    &Cylinder {
                        center: Vec3::new(0.0, 0.4, 0.0),
                        rotation: Quat::IDENTITY,
                        half_height: 0.4,
                        radius: 0.4,
                    },
                )
                .unwrap();
            }
            "hull" => {
                let h = w
                    .create_hull(&[
                        Vec3::new(-0.5, 0.0, -0.5),
                        Vec3::new(0.5, 0.0, -0.5),
                        Vec3::new(0.0, 0.0, 0.6),
                        Vec3::new(0.0, 0.8, 0.0),
                    ])
                    .unwrap();
                w.create_hull_shape(b, &sd, h).unwrap();
            }
            "voxels" => {
                let mut data = vec![0u8; 4096];
                for z in 6..10 {
                    for y in 0..3 {
                        for x in 6..10 {
                            data[x + 16 * y + 256 * z] = 1;
                        }
                    }
                }
                let g = w
                    .create_voxel_grid(&VoxelGridDef {
                        voxel_size: 0.2,
                        data: &data,
                        origin: Vec3::new(-1.6, 0.0, -1.6),
                    })
                    .unwrap();
                w.create_mesh_shape(b, &sd, g).unwrap();
            }
            "mesh" => {
                // A pyramid 0.6 m high on a 4 m square, as triangles.
                let m = w
                    .create_mesh(
                        &[
                            Vec3::new(-2.0, 0.0, -2.0),
                            Vec3::new(2.0, 0.0, -2.0),
                            Vec3::new(2.0, 0.0, 2.0),
                            Vec3::new(-2.0, 0.0, 2.0),
                            Vec3::new(0.0, 0.6, 0.0),
                        ],
                        &[[0, 4, 1], [1, 4, 2], [2, 4, 3], [3, 4, 0]],
                    )
                    .unwrap();
                w.create_mesh_shape(b, &sd, m).unwrap();
            }
            "height field" => {
                let mut heights = vec![0.0f32; 81];
                for z in 0..9 {
                    for x in 0..9 {
                        heights[z * 9 + x] = if (x + z) % 2 == 0 { 0.3 } else { 0.0 };
                    }
                }
                let m = w
                    .create_height_field(&HeightFieldDef {
                        count_x: 9,
                        count_z: 9,
                        heights: &heights,
                        holes: &[],
                        scale: Vec3::new(0.5, 1.0, 0.5),
                    })
                    .unwrap();
                let hb = w
                    .create_body(&BodyDef {
                        position: DVec3::new(-2.0, 0.0, -2.0),
                        ..Default::default()
                    })
                    .unwrap();
                w.create_mesh_shape(hb, &sd, m).unwrap();
            }
            "plane" => {
                w.create_plane_shape(
                    b,
                    &sd,
                    &PlaneShape {
                        normal: Vec3::new(0.0, 1.0, 0.0),
                        offset: 0.0,
                    },
                )
                .unwrap();
            }
            _ => unreachable!(),
        }
        let id = cloth(
            &mut w,
            12,
            1.6,
            DVec3::new(0.05, 1.2, -0.03),
            SoftBodySettings {
                damping: 0.5,
                particle_radius: 0.03,
                ..Default::default()
            },
        );
        for _ in 0..180 {
            w.step(DT, SUBSTEPS).unwrap();
        }
        let f = QueryFilter::default();
        let mut inside = 0;
        let mut below = 0.0f64;
        let mut lowest = f64::MAX;
        for p in positions(&w, id) {
            lowest = lowest.min(p.y);
            if terrain {
                let hit = w
                    .cast_ray_closest(DVec3::new(p.x, 5.0, p.z), Vec3::new(0.0, -10.0, 0.0), &f)
                    .unwrap()
                    .expect("the terrain is under every particle");
                below = below.max(hit.point.y - p.y);
            } else if w.overlap_point(p, &f, &mut [maul3d::ShapeId::NULL; 4]) > 0 {
                inside += 1;
            }
        }
        println!(
            "{kind}: lowest particle {lowest:.3} m, inside a shape {inside}, deepest below the terrain {below:.4} m"
        );
        assert_eq!(inside, 0, "{kind}: particles inside a shape");
        assert!(
            below <= 0.0,
            "{kind}: a particle {below} m below the surface"
        );
        assert!(lowest > -0.05, "{kind}: fell through to {lowest}");
    }
}

/// Property seed 302631: a cloth under a thousand times gravity, stepped half a second,
/// could fall 2,500 m in the step, and each particle's search for its contact plane took
/// every triangle of a long height field within 2,500 m — ten seconds for one step. It now
/// searches where the particles can move (a column under a falling cloth, tilted in the
/// height field's frame when the field is turned). The cloth must still land on the
/// field, turned or not, not fall through it.
#[test]
fn a_cloth_falling_hard_onto_a_long_height_field_lands_on_it() {
    use maul3d::{HeightFieldDef, QueryFilter};
    for tilt in [0.0f32, 0.35] {
        let mut w = World::new(&def()).unwrap();
        let (nx, nz) = (1024u32, 16u32);
        let heights: Vec<f32> = (0..nx * nz)
            .map(|i| 0.2 * ((i % nx) % 3) as f32 + 0.1 * ((i / nx) % 2) as f32)
            .collect();
        let m = w
            .create_height_field(&HeightFieldDef {
                count_x: nx,
                count_z: nz,
                heights: &heights,
                holes: &[],
                scale: Vec3::new(1.5, 1.0, 1.75),
            })
            .unwrap();
        // The field turned about z through its middle row; the cloth above its middle.
        let q = Quat::from_axis_angle(Vec3::Z, tilt);
        let middle = Vec3::new(
            0.5 * 1.5 * (nx - 1) as f32,
            0.0,
            0.5 * 1.75 * (nz - 1) as f32,
        );
        let hb = w
            .create_body(&BodyDef {
                position: (-q.rotate(middle)).to_f64(),
                rotation: q,
                ..Default::default()
            })
            .unwrap();
        w.create_mesh_shape(hb, &ShapeDef::default(), m).unwrap();
        let id = cloth(
            &mut w,
            11,
            0.7,
            DVec3::new(0.0, 3.0, 0.0),
            SoftBodySettings {
                gravity_scale: 1000.0,
                particle_radius: 0.01,
                ..Default::default()
            },
        );
        for _ in 0..2 {
            w.step(0.5, 2).unwrap();
        }
        let f = QueryFilter::default();
        for p in positions(&w, id) {
            let hit = w
                .cast_ray_closest(DVec3::new(p.x, 3.0e3, p.z), Vec3::new(0.0, -6.0e3, 0.0), &f)
                .unwrap()
                .expect("the field is under every particle");
            let above = p.y - hit.point.y;
            assert!(
                (-0.05..1.0).contains(&above),
                "tilt {tilt}: a particle {above} m above the field at {p:?}"
            );
        }
    }
}

/// `compare_soft_bodies` lists the soft bodies that differ between two worlds, with the
/// particle that moved apart most, and none for equal worlds.
#[test]
fn compare_lists_the_soft_bodies_that_differ() {
    let make = || {
        let mut w = World::new(&def()).unwrap();
        let ids = busy(&mut w);
        for _ in 0..20 {
            w.step(DT, SUBSTEPS).unwrap();
        }
        (w, ids)
    };
    let (mut a, ids) = make();
    let (b, _) = make();
    let mut rows = [maul3d::SoftBodyDiff::default(); 4];
    assert_eq!(World::compare_soft_bodies(&a, &b, &mut rows), 0);
    a.apply_soft_particle_impulse(ids[1], 7, Vec3::new(0.0, 0.01, 0.0))
        .unwrap();
    a.step(DT, SUBSTEPS).unwrap();
    let mut b = b;
    b.step(DT, SUBSTEPS).unwrap();
    let n = World::compare_soft_bodies(&a, &b, &mut rows);
    println!("{n} differ: {:?}", &rows[..n.min(4)]);
    assert!(n >= 1);
    assert!(
        rows[..n]
            .iter()
            .any(|r| r.slot == 1 && r.position_error > 0.0 && r.position_error.is_finite())
    );
    a.destroy_soft_body(ids[2]).unwrap();
    let n = World::compare_soft_bodies(&a, &b, &mut rows);
    assert!(
        rows[..n]
            .iter()
            .any(|r| r.slot == 2 && !r.alive_in_a && r.alive_in_b)
    );
}

/// A pressure ball resting on a floor with friction settles where it lands (the Godot
/// comparison's ball: a welded 16 × 8 UV sphere, pressure 20, friction 1, Jolt's stiffness
/// for k = 0.9). Without the damping of the edges' stretching it kept a vertical oscillation
/// and ratcheted sideways ever faster (5.8 m/s after 10 s): see the next test.
#[test]
fn a_pressure_ball_resting_on_a_floor_settles() {
    let (v, t) = uv_sphere(0.5, 16, 8);
    let mut w = World::new(&def()).unwrap();
    let g = w
        .create_body(&BodyDef {
            position: DVec3::new(0.0, -0.5, 0.0),
            ..Default::default()
        })
        .unwrap();
    w.create_box_shape(
        g,
        &ShapeDef {
            friction: 1.0,
            ..Default::default()
        },
        Vec3::new(50.0, 0.5, 50.0),
    )
    .unwrap();
    let id = w
        .create_soft_body(&SoftBodyDef {
            vertices: &v,
            triangles: &t,
            position: DVec3::new(0.0, 2.0, 0.0),
            settings: SoftBodySettings {
                substeps: 5,
                edge_compliance: 1.0 / (0.729 * 1.0e5),
                pressure: 20.0,
                damping: 1.0,
                friction: 1.0,
                particle_radius: 0.01,
                ..Default::default()
            },
            ..Default::default()
        })
        .unwrap();
    for _ in 0..600 {
        w.step(DT, SUBSTEPS).unwrap();
    }
    let p = positions(&w, id);
    let n = p.len() as f64;
    let (cx, cz) = (
        p.iter().map(|q| q.x).sum::<f64>() / n,
        p.iter().map(|q| q.z).sum::<f64>() / n,
    );
    let speed = (0..p.len() as u32)
        .map(|i| w.soft_particle_velocity(id, i).unwrap().length())
        .fold(0.0f32, f32::max);
    println!("after 10 s: centre ({cx:.3}, {cz:.3}), fastest particle {speed:.3} m/s");
    assert!(cx.abs() < 0.1 && cz.abs() < 0.1, "crept to ({cx}, {cz})");
    assert!(speed < 0.05, "still moving at {speed} m/s");
}

/// A UV sphere of `segs` segments and `rings` rings between its poles, wound outwards.
fn uv_sphere(r: f32, segs: usize, rings: usize) -> (Vec<Vec3>, Vec<[u32; 3]>) {
    let mut v = vec![Vec3::new(0.0, r, 0.0)];
    for j in 1..=rings {
        let t = maul3d::math::PI * j as f32 / (rings + 1) as f32;
        let (st, ct) = maul3d::math::sin_cos(t);
        for i in 0..segs {
            let (su, cu) = maul3d::math::sin_cos(2.0 * maul3d::math::PI * i as f32 / segs as f32);
            v.push(Vec3::new(su * r * st, r * ct, cu * r * st));
        }
    }
    v.push(Vec3::new(0.0, -r, 0.0));
    let ring = |j: usize, i: usize| (1 + (j - 1) * segs + i % segs) as u32;
    let south = (v.len() - 1) as u32;
    let mut t = Vec::new();
    for i in 0..segs {
        t.push([0, ring(1, i + 1), ring(1, i)]);
        for j in 1..rings {
            t.push([ring(j, i), ring(j, i + 1), ring(j + 1, i)]);
            t.push([ring(j, i + 1), ring(j + 1, i + 1), ring(j + 1, i)]);
        }
        t.push([ring(rings, i), ring(rings, i + 1), south]);
    }
    (v, t)
}

/// The same shell floating with gravity 0, no pressure and nothing touching stays still.
/// Without the damping of the edges' stretching it grew a vibration from round-off (stiff edges
/// plus dihedral bends at 5 substeps: fastest particle 2.8e-5 m/s at step 0, 0.72 at 90,
/// about 10 after 120).
#[test]
fn a_stiff_shell_with_bends_floating_stays_still() {
    let (v, t) = uv_sphere(0.5, 16, 8);
    let mut w = World::new(&def()).unwrap();
    let id = w
        .create_soft_body(&SoftBodyDef {
            vertices: &v,
            triangles: &t,
            position: DVec3::new(0.0, 2.0, 0.0),
            settings: SoftBodySettings {
                substeps: 5,
                edge_compliance: 1.0 / (0.729 * 1.0e5),
                gravity_scale: 0.0,
                damping: 0.0,
                ..Default::default()
            },
            ..Default::default()
        })
        .unwrap();
    let mut fastest = 0.0f32;
    for _ in 0..600 {
        w.step(DT, SUBSTEPS).unwrap();
        for i in 0..v.len() as u32 {
            let s = w.soft_particle_velocity(id, i).unwrap().length();
            if s > fastest {
                fastest = s;
            }
        }
    }
    println!("floating shell: fastest particle over 10 s {fastest:.2e} m/s");
    assert!(fastest < 1.0e-3, "vibrates at {fastest} m/s");
}

/// At `NO_BENDS` the bends are not solved: a cloth clamped along one edge hangs straight
/// down, where stiff bends hold it out nearly level.
#[test]
fn a_cloth_without_bends_hangs_where_stiff_bends_hold_it_out() {
    let lowest = |bend_compliance: f32| {
        let mut w = World::new(&def()).unwrap();
        let id = cloth(
            &mut w,
            9,
            1.0,
            DVec3::new(0.0, 2.0, 0.0),
            SoftBodySettings {
                bend_compliance,
                damping: 2.0,
                ..Default::default()
            },
        );
        // Two rows pinned: a clamped edge (one row would be a hinge).
        for i in 0..18 {
            w.set_soft_particle_pinned(id, i, true).unwrap();
        }
        for _ in 0..180 {
            w.step(DT, SUBSTEPS).unwrap();
        }
        positions(&w, id)
            .iter()
            .map(|p| p.y)
            .fold(f64::MAX, f64::min)
    };
    let (stiff, limp) = (lowest(0.0), lowest(maul3d::NO_BENDS));
    println!(
        "lowest point held along one edge at y 2: stiff bends {stiff:.3} m, no bends {limp:.3} m"
    );
    assert!(stiff > 1.6, "stiff bends let it droop to {stiff}");
    // Straight down: the free 7/8 m below the clamped rows, 1.125.
    assert!(limp < 1.15, "without bends it hangs only to {limp}");
}

/// A static box of half extents `half` whose top face is at `top`, centred at `x`.
fn static_box(w: &mut World, x: f64, top: f64, half: Vec3) -> BodyId {
    let b = w
        .create_body(&BodyDef {
            position: DVec3::new(x, top - half.y as f64, 0.0),
            ..Default::default()
        })
        .unwrap();
    w.create_box_shape(b, &ShapeDef::default(), half).unwrap();
    b
}

fn ignored(w: &World, id: SoftBodyId) -> Vec<BodyId> {
    let mut out = [BodyId::NULL; SOFT_BODY_EXCEPTIONS];
    let n = w.soft_body_ignored_bodies(id, &mut out).unwrap() as usize;
    out[..n].to_vec()
}

fn lowest_and_highest(w: &World, id: SoftBodyId) -> (f64, f64) {
    let p = positions(w, id);
    let low = p.iter().map(|q| q.y).fold(f64::MAX, f64::min);
    let high = p.iter().map(|q| q.y).fold(f64::MIN, f64::max);
    (low, high)
}

#[test]
fn a_cloth_passes_through_a_box_it_ignores_and_rests_on_one_it_does_not() {
    let mut w = World::new(&def()).unwrap();
    floor(&mut w);
    let half = Vec3::new(0.7, 0.5, 0.7);
    let a = static_box(&mut w, -2.0, 1.0, half);
    let b = static_box(&mut w, 2.0, 1.0, half);
    let s = SoftBodySettings::default();
    let through = cloth(&mut w, 10, 1.0, DVec3::new(-2.0, 1.4, 0.0), s);
    let resting = cloth(&mut w, 10, 1.0, DVec3::new(2.0, 1.4, 0.0), s);
    w.set_soft_body_ignores_body(through, a, true).unwrap();
    assert_eq!(ignored(&w, through), [a]);
    assert_eq!(ignored(&w, resting), []);
    let mut contacts = vec![None; 100];
    for _ in 0..150 {
        w.step(DT, SUBSTEPS).unwrap();
        // No particle of the ignoring cloth ever finds a plane on the box.
        w.soft_particle_contacts(through, &mut contacts).unwrap();
        assert!(contacts.iter().flatten().all(|(body, _)| *body != a));
    }
    let (low_t, high_t) = lowest_and_highest(&w, through);
    let (low_r, high_r) = lowest_and_highest(&w, resting);
    println!("ignoring: y in [{low_t:.3}, {high_t:.3}]; colliding: y in [{low_r:.3}, {high_r:.3}]");
    // Through the box onto the floor (top at 0, particle radius 0.02), inside the box.
    assert!(high_t < 0.1 && low_t > 0.0, "{low_t} {high_t}");
    // On the box's top face at 1.
    assert!(low_r > 1.0 && high_r < 1.1, "{low_r} {high_r}");
    // And the other way round: the one that went through still collides with the box
    // once it stops ignoring it (a particle inside is pushed out, not left there), and
    // the resting one falls once it ignores its box.
    w.set_soft_body_ignores_body(resting, b, true).unwrap();
    for _ in 0..150 {
        w.step(DT, SUBSTEPS).unwrap();
    }
    let (_, high_r) = lowest_and_highest(&w, resting);
    assert!(high_r < 0.1, "{high_r}");
}

#[test]
fn a_body_made_in_an_ignored_bodys_slot_is_not_ignored() {
    let mut w = World::new(&def()).unwrap();
    floor(&mut w);
    let half = Vec3::new(0.7, 0.5, 0.7);
    let a = static_box(&mut w, 0.0, 1.0, half);
    let c = cloth(
        &mut w,
        10,
        1.0,
        DVec3::new(0.0, 1.4, 0.0),
        SoftBodySettings::default(),
    );
    w.set_soft_body_ignores_body(c, a, true).unwrap();
    w.destroy_body(a).unwrap();
    // Off the list with the body.
    assert_eq!(ignored(&w, c), []);
    let again = static_box(&mut w, 0.0, 1.0, half);
    assert_eq!(again.index, a.index, "the new box takes the freed slot");
    assert_ne!(again.generation, a.generation);
    // The stale id is refused, the new body is not ignored.
    assert!(w.set_soft_body_ignores_body(c, a, true).is_err());
    for _ in 0..150 {
        w.step(DT, SUBSTEPS).unwrap();
    }
    let (low, high) = lowest_and_highest(&w, c);
    assert!(low > 1.0 && high < 1.1, "{low} {high}");
}

#[test]
fn a_ninth_ignored_body_and_bad_ids_are_refused_and_change_nothing() {
    let mut w = World::new(&def()).unwrap();
    let c = cloth(
        &mut w,
        4,
        1.0,
        DVec3::new(0.0, 2.0, 0.0),
        SoftBodySettings::default(),
    );
    let bodies: Vec<BodyId> = (0..SOFT_BODY_EXCEPTIONS + 1)
        .map(|k| static_box(&mut w, k as f64 * 3.0, 0.0, Vec3::splat(0.5)))
        .collect();
    let plain = w.hash();
    // Added out of order: kept in slot order, and the same set gives the same state
    // whatever order it was built in.
    for &k in &[5usize, 1, 7, 0, 3, 6, 2, 4] {
        w.set_soft_body_ignores_body(c, bodies[k], true).unwrap();
    }
    assert_eq!(ignored(&w, c), bodies[..8]);
    let full = w.hash();
    assert_ne!(full, plain);
    let mut v = World::new(&def()).unwrap();
    let cv = cloth(
        &mut v,
        4,
        1.0,
        DVec3::new(0.0, 2.0, 0.0),
        SoftBodySettings::default(),
    );
    let vb: Vec<BodyId> = (0..SOFT_BODY_EXCEPTIONS + 1)
        .map(|k| static_box(&mut v, k as f64 * 3.0, 0.0, Vec3::splat(0.5)))
        .collect();
    for &b in &vb[..8] {
        v.set_soft_body_ignores_body(cv, b, true).unwrap();
    }
    assert_eq!(v.hash(), full);
    // The ninth.
    let e = w
        .set_soft_body_ignores_body(c, bodies[8], true)
        .unwrap_err();
    assert!(matches!(e, Error::Capacity { capacity: 8, .. }), "{e}");
    println!("{e}");
    assert_eq!(w.hash(), full);
    // Twice, or freeing one not ignored: nothing changes.
    w.set_soft_body_ignores_body(c, bodies[3], true).unwrap();
    w.set_soft_body_ignores_body(c, bodies[8], false).unwrap();
    assert_eq!(w.hash(), full);
    // Bad ids.
    assert!(w.set_soft_body_ignores_body(c, BodyId::NULL, true).is_err());
    let gone = static_box(&mut w, -5.0, 0.0, Vec3::splat(0.5));
    w.destroy_body(gone).unwrap();
    let full = w.hash();
    assert!(w.set_soft_body_ignores_body(c, gone, false).is_err());
    let other = cloth(
        &mut w,
        4,
        1.0,
        DVec3::new(5.0, 2.0, 0.0),
        SoftBodySettings::default(),
    );
    w.destroy_soft_body(other).unwrap();
    let full = {
        let _ = full;
        w.hash()
    };
    assert!(
        w.set_soft_body_ignores_body(other, bodies[8], true)
            .is_err()
    );
    assert!(w.soft_body_ignored_bodies(other, &mut []).is_err());
    assert_eq!(w.hash(), full);
    // A short buffer takes what fits; the count is the whole.
    let mut two = [BodyId::NULL; 2];
    assert_eq!(w.soft_body_ignored_bodies(c, &mut two).unwrap(), 8);
    assert_eq!(two, bodies[..2]);
    // All freed: the state is that of a cloth that never ignored one.
    for &b in &bodies[..8] {
        w.set_soft_body_ignores_body(c, b, false).unwrap();
    }
    assert_eq!(ignored(&w, c), []);
    let mut u = World::new(&def()).unwrap();
    let cu = cloth(
        &mut u,
        4,
        1.0,
        DVec3::new(0.0, 2.0, 0.0),
        SoftBodySettings::default(),
    );
    for k in 0..SOFT_BODY_EXCEPTIONS + 1 {
        static_box(&mut u, k as f64 * 3.0, 0.0, Vec3::splat(0.5));
    }
    let g = static_box(&mut u, -5.0, 0.0, Vec3::splat(0.5));
    u.destroy_body(g).unwrap();
    let o = cloth(
        &mut u,
        4,
        1.0,
        DVec3::new(5.0, 2.0, 0.0),
        SoftBodySettings::default(),
    );
    u.destroy_soft_body(o).unwrap();
    assert_eq!(ignored(&u, cu), []);
    assert_eq!(w.hash(), u.hash());
}

/// `busy` with the cloth ignoring the sphere under it (it falls through) and the pressure
/// ball the dynamic box.
fn busy_ignoring(w: &mut World) -> ([SoftBodyId; 3], [BodyId; 2]) {
    let ids = busy(w);
    let b: Vec<BodyId> = w.body_ids().collect();
    let (sphere, boxed) = (b[1], b[2]);
    w.set_soft_body_ignores_body(ids[0], sphere, true).unwrap();
    w.set_soft_body_ignores_body(ids[1], boxed, true).unwrap();
    (ids, [sphere, boxed])
}

#[test]
fn ignored_bodies_survive_snapshot_restore_rollback_and_journal_replay() {
    let mut w = World::new(&def()).unwrap();
    w.start_journal(1 << 22).unwrap();
    let ([c, p, v], [sphere, boxed]) = busy_ignoring(&mut w);
    for _ in 0..40 {
        w.step(DT, SUBSTEPS).unwrap();
    }
    let mut buf = vec![0u8; w.snapshot_size()];
    w.snapshot(&mut buf).unwrap();
    let mut t = World::new(&World::def_from_snapshot(&buf).unwrap()).unwrap();
    t.restore(&buf).unwrap();
    assert_eq!(t.hash(), w.hash());
    // Ids name their world: the restored one's are its own.
    let ids = |w: &World| {
        let s: Vec<SoftBodyId> = w.soft_body_ids().collect();
        let b: Vec<BodyId> = w.body_ids().collect();
        ([s[0], s[1], s[2]], [b[0], b[1], b[2]])
    };
    let ([tc, tp, tv], [_, tsphere, tboxed]) = ids(&t);
    assert_eq!(ignored(&t, tc), [tsphere]);
    assert_eq!(ignored(&t, tp), [tboxed]);
    assert_eq!(ignored(&t, tv), []);
    assert_eq!(ignored(&w, c), [sphere]);
    assert_eq!(ignored(&w, p), [boxed]);
    // The lists change, a listed body goes; the hash after each step.
    let drive = |w: &mut World| -> Vec<u64> {
        let ([c, p, v], [floor, sphere, boxed]) = ids(w);
        (0..80)
            .map(|k| {
                match k {
                    20 => {
                        w.set_soft_body_ignores_body(v, floor, true).unwrap();
                        w.set_soft_body_ignores_body(c, sphere, false).unwrap();
                        w.set_soft_body_ignores_body(c, sphere, true).unwrap();
                    }
                    40 => {
                        w.destroy_body(boxed).unwrap();
                        assert_eq!(ignored(w, p), []);
                    }
                    _ => {}
                }
                w.step(DT, SUBSTEPS).unwrap();
                // The cloth finds no plane on the sphere it ignores.
                let mut contacts = [None; 256];
                w.soft_particle_contacts(c, &mut contacts).unwrap();
                assert!(contacts.iter().flatten().all(|(b, _)| *b != sphere));
                w.hash()
            })
            .collect()
    };
    let hashes = drive(&mut w);
    assert_eq!(drive(&mut t), hashes);
    // The volume ball went through the floor.
    let (_, high) = lowest_and_highest(&w, v);
    assert!(high < -0.5, "volume ball: {high}");
    w.stop_journal().unwrap();
    let tape = w.journal_tape().to_vec();
    // The journal replayed from the start ends on the same hash.
    let mut j = World::new(&def()).unwrap();
    j.replay_journal(&tape).unwrap();
    assert_eq!(j.hash(), w.hash());
    // Rolled back in place, then the same calls and steps again: the same bits.
    w.restore(&buf).unwrap();
    assert_eq!(ignored(&w, p), [boxed]);
    assert_eq!(ignored(&w, v), []);
    assert_eq!(drive(&mut w), hashes);
}

/// Restores `bad` (its length and checksum made to agree) into a fresh world of `good`'s
/// def: it must be refused, leaving the world as it was; returns the error.
fn refused(good: &[u8], bad: &[u8], what: &str) -> Error {
    let mut b = bad.to_vec();
    let payload = (b.len() - maul3d::SNAPSHOT_HEADER_SIZE) as u64;
    b[16..24].copy_from_slice(&payload.to_le_bytes());
    let sum = fnv(&b[maul3d::SNAPSHOT_HEADER_SIZE..]);
    b[24..32].copy_from_slice(&sum.to_le_bytes());
    let mut u = World::new(&World::def_from_snapshot(good).unwrap()).unwrap();
    let h = u.hash();
    let e = u.restore(&b).expect_err(what);
    assert_eq!(u.hash(), h, "{what}");
    e
}

/// The same, and it must be a format error.
fn assert_refused(good: &[u8], bad: &[u8], what: &str) {
    let e = refused(good, bad, what);
    assert!(matches!(e, Error::Format(_)), "{what}: {e:?}");
}

#[test]
fn a_snapshot_with_damaged_ignore_lists_is_refused() {
    let snapshot = |w: &World| {
        let mut buf = vec![0u8; w.snapshot_size()];
        w.snapshot(&mut buf).unwrap();
        buf
    };
    // The same world with and without the cloth ignoring the sphere: the snapshots differ
    // in the stores byte and in the lists, the cloth's (1, the sphere's slot) first.
    let mut a = World::new(&def()).unwrap();
    let [c, _, _] = busy(&mut a);
    let b_snap = snapshot(&a);
    let sphere = a.body_ids().nth(1).unwrap();
    a.set_soft_body_ignores_body(c, sphere, true).unwrap();
    let good = snapshot(&a);
    let stores = maul3d::SNAPSHOT_HEADER_SIZE + 9 * 4 + 8 + 5 * 4 + 1;
    assert_eq!((good[stores], b_snap[stores]), (2 | 4, 2));
    let at = (stores + 1..).find(|&i| good[i] != b_snap[i]).unwrap();
    let slot = sphere.index - 1;
    assert_eq!(good[at], 1);
    assert_eq!(good[at + 1..at + 5], slot.to_le_bytes());
    // The list bit cleared: the bytes no longer parse.
    let mut bad = good.clone();
    bad[stores] = 2;
    refused(&good, &bad, "lists present, bit cleared");
    // The bit set with every list empty: not a state any world writes.
    let mut bad = good.clone();
    bad.splice(at..at + 5, [0u8]);
    assert_refused(&good, &bad, "marked but empty");
    // More than the bound.
    let mut bad = good.clone();
    bad[at] = SOFT_BODY_EXCEPTIONS as u8 + 1;
    assert_refused(&good, &bad, "nine");
    // A body slot that holds no live body.
    let mut bad = good.clone();
    bad[at + 1..at + 5].copy_from_slice(&40u32.to_le_bytes());
    assert_refused(&good, &bad, "dead body");
    // The same body twice (not ascending).
    let mut bad = good.clone();
    bad[at] = 2;
    bad.splice(at + 5..at + 5, slot.to_le_bytes());
    assert_refused(&good, &bad, "twice");
    // Another bound in the head.
    let mut bad = good.clone();
    bad[stores - 1] = 9;
    assert_refused(&good, &bad, "bound");
    // And the good one restores.
    let mut u = World::new(&World::def_from_snapshot(&good).unwrap()).unwrap();
    u.restore(&good).unwrap();
    assert_eq!(u.hash(), a.hash());
}

/// FNV-1a-64, to make a snapshot's checksum agree with a hand-edited payload.
fn fnv(bytes: &[u8]) -> u64 {
    let mut h = 0xcbf2_9ce4_8422_2325u64;
    for &b in bytes {
        h = (h ^ b as u64).wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// `b` as a snapshot of revision `revision`: the header's revision, payload size and
/// checksum made to agree with its hand-edited payload.
fn reseal(mut b: Vec<u8>, revision: u32) -> Vec<u8> {
    b[8..12].copy_from_slice(&revision.to_le_bytes());
    let payload = (b.len() - maul3d::SNAPSHOT_HEADER_SIZE) as u64;
    b[16..24].copy_from_slice(&payload.to_le_bytes());
    let sum = fnv(&b[maul3d::SNAPSHOT_HEADER_SIZE..]);
    b[24..32].copy_from_slice(&sum.to_le_bytes());
    b
}

/// A world's snapshot.
fn snapshot_of(w: &World) -> Vec<u8> {
    let mut buf = vec![0u8; w.snapshot_size()];
    w.snapshot(&mut buf).unwrap();
    buf
}

/// A revision-10 snapshot (no ignore lists; no exception bound in the head) restores, as
/// having no body ignored; a revision-11 one with its revision set to 10 is refused.
#[test]
fn revision_10_snapshots_restore_with_nothing_ignored() {
    let to_10 = |snap: &[u8]| {
        let bound = maul3d::SNAPSHOT_HEADER_SIZE + 9 * 4 + 8 + 5 * 4;
        assert_eq!(snap[bound] as usize, SOFT_BODY_EXCEPTIONS);
        let mut b = snap.to_vec();
        b.remove(bound);
        reseal(b, 10)
    };
    let mut w = World::new(&def()).unwrap();
    busy(&mut w);
    for _ in 0..20 {
        w.step(DT, SUBSTEPS).unwrap();
    }
    let old = to_10(&snapshot_of(&w));
    let mut t = World::new(&World::def_from_snapshot(&old).unwrap()).unwrap();
    t.restore(&old).unwrap();
    assert_eq!(t.hash(), w.hash());
    for c in t.soft_body_ids() {
        assert_eq!(ignored(&t, c), []);
    }
    // Written back at revision 11, the same but for the bound.
    assert_eq!(to_10(&snapshot_of(&t)), old);
    // A revision-11 head read as revision 10 does not parse (a flipped revision bit).
    let mut flipped = snapshot_of(&w);
    flipped[8..12].copy_from_slice(&10u32.to_le_bytes());
    let h = t.hash();
    assert!(matches!(t.restore(&flipped), Err(Error::Format(_))));
    assert_eq!(t.hash(), h);
}

/// A revision-9 snapshot (no soft body capacities, no exception bound, no soft store)
/// restores with the default soft capacities and no soft body; written back at the
/// current revision it is the same but for those head fields.
#[test]
fn revision_9_snapshots_restore_with_no_soft_bodies() {
    let soft_caps = maul3d::SNAPSHOT_HEADER_SIZE + 9 * 4 + 8 + 3 * 4;
    let to_9 = |snap: &[u8]| {
        let mut b = snap.to_vec();
        // The two soft capacities and the exception bound.
        b.drain(soft_caps..soft_caps + 2 * 4 + 1);
        assert!(b[soft_caps] <= 1, "a stores byte with only the extras bit");
        reseal(b, 9)
    };
    let mut w = World::new(&def()).unwrap();
    floor(&mut w);
    for k in 0..5 {
        let b = w
            .create_body(&BodyDef {
                body_type: BodyType::Dynamic,
                position: DVec3::new(k as f64, 1.0 + k as f64, 0.0),
                ..Default::default()
            })
            .unwrap();
        w.create_box_shape(b, &ShapeDef::default(), Vec3::splat(0.3))
            .unwrap();
    }
    for _ in 0..20 {
        w.step(DT, SUBSTEPS).unwrap();
    }
    let old = to_9(&snapshot_of(&w));
    let d = World::def_from_snapshot(&old).unwrap();
    assert_eq!(d.soft_body_capacity, WorldDef::default().soft_body_capacity);
    let mut t = World::new(&d).unwrap();
    t.restore(&old).unwrap();
    assert_eq!(t.hash(), w.hash());
    assert_eq!(t.soft_body_ids().count(), 0);
    assert_eq!(to_9(&snapshot_of(&t)), old);
    for _ in 0..30 {
        w.step(DT, SUBSTEPS).unwrap();
        t.step(DT, SUBSTEPS).unwrap();
        assert_eq!(t.hash(), w.hash());
    }
}
