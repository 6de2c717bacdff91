//! Water volumes: floating depths against closed forms, terminal speed under drag, a boat
//! righting itself, a current carrying a body; snapshot, journal, refusals, no allocation.

mod common;

use common::{DT, SUBSTEPS};
use maul3d::math::{DVec3, PI, Quat, Vec3};
use maul3d::{
    BodyDef, BodyId, BodyType, ShapeDef, Sphere, WaterVolumeDef, WaterVolumeId, World, WorldDef,
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
        enable_sleep: false,
        body_capacity: 64,
        shape_capacity: 64,
        contact_capacity: 256,
        pair_capacity: 256,
        ..Default::default()
    }
}

/// Water whose surface is y = 0, 40 m deep and 400 m wide.
fn water(linear_drag: f32, angular_drag: f32, flow: Vec3) -> WaterVolumeDef {
    WaterVolumeDef {
        center: DVec3::new(0.0, -20.0, 0.0),
        half_extents: Vec3::new(200.0, 20.0, 200.0),
        linear_drag,
        angular_drag,
        flow,
        ..Default::default()
    }
}

fn body(w: &mut World, position: DVec3, rotation: Quat) -> BodyId {
    w.create_body(&BodyDef {
        body_type: BodyType::Dynamic,
        position,
        rotation,
        ..Default::default()
    })
    .unwrap()
}

fn density(d: f32) -> ShapeDef {
    ShapeDef {
        density: d,
        ..Default::default()
    }
}

fn steps(w: &mut World, n: usize) {
    for _ in 0..n {
        w.step(DT, SUBSTEPS).unwrap();
    }
}

#[test]
fn a_box_half_as_dense_as_water_floats_at_half_its_height() {
    let mut w = World::new(&def()).unwrap();
    w.create_water_volume(&water(4.0, 4.0, Vec3::ZERO)).unwrap();
    let b = body(&mut w, DVec3::new(0.0, 0.3, 0.0), Quat::IDENTITY);
    w.create_box_shape(b, &density(500.0), Vec3::new(0.5, 0.5, 0.5))
        .unwrap();
    steps(&mut w, 600);
    let y = w.body_position(b).unwrap().y as f32;
    let depth = 0.5 - y;
    println!("box of density 500: submerged depth {depth} of 1 m (expected 0.5)");
    assert!((depth - 0.5).abs() <= 0.005, "depth {depth}");
}

#[test]
fn a_sphere_of_density_250_floats_at_the_cap_depth() {
    let r = 0.5f32;
    // The cap holding a quarter of the sphere: π h² (3r − h) / 3 = (4/3) π r³ / 4.
    let target = (4.0 / 3.0) * std::f64::consts::PI * (r as f64 * r as f64 * r as f64) * 0.25;
    let cap = |h: f64| std::f64::consts::PI * h * h * (3.0 * r as f64 - h) / 3.0;
    let (mut lo, mut hi) = (0.0f64, 2.0 * r as f64);
    for _ in 0..60 {
        let mid = 0.5 * (lo + hi);
        if cap(mid) < target {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let expected = 0.5 * (lo + hi);
    let mut w = World::new(&def()).unwrap();
    w.create_water_volume(&water(4.0, 4.0, Vec3::ZERO)).unwrap();
    let b = body(&mut w, DVec3::new(0.0, 0.2, 0.0), Quat::IDENTITY);
    w.create_sphere_shape(
        b,
        &density(250.0),
        &Sphere {
            center: Vec3::ZERO,
            radius: r,
        },
    )
    .unwrap();
    steps(&mut w, 600);
    let depth = r as f64 - w.body_position(b).unwrap().y;
    println!("sphere of density 250: depth {depth} (closed form {expected})");
    assert!((depth - expected).abs() <= 0.01 * expected);
}

#[test]
fn a_sinking_body_reaches_the_terminal_speed_of_linear_drag() {
    let mut w = World::new(&def()).unwrap();
    let drag = 2.0f32;
    w.create_water_volume(&water(drag, 1.0, Vec3::ZERO))
        .unwrap();
    let b = body(&mut w, DVec3::new(0.0, -3.0, 0.0), Quat::IDENTITY);
    w.create_box_shape(b, &density(2000.0), Vec3::new(0.5, 0.5, 0.5))
        .unwrap();
    steps(&mut w, 300);
    let v = -w.body_linear_velocity(b).unwrap().y;
    // m dv/dt = −m g + ρ V g − c m v  →  v = g (1 − ρ V / m) / c.
    let expected = 10.0 * (1.0 - 1000.0 / 2000.0) / drag;
    println!("terminal speed {v} m/s (closed form {expected})");
    assert!((v - expected).abs() <= 0.01 * expected);
}

#[test]
fn a_boat_with_a_low_centre_of_mass_rights_itself_from_30_degrees() {
    let mut w = World::new(&def()).unwrap();
    w.create_water_volume(&water(1.0, 3.0, Vec3::ZERO)).unwrap();
    // A wide flat hull, narrower at the keel, with ballast low inside.
    let pts = [
        Vec3::new(-2.0, 0.3, -1.0),
        Vec3::new(2.0, 0.3, -1.0),
        Vec3::new(-2.0, 0.3, 1.0),
        Vec3::new(2.0, 0.3, 1.0),
        Vec3::new(-1.6, -0.3, -0.6),
        Vec3::new(1.6, -0.3, -0.6),
        Vec3::new(-1.6, -0.3, 0.6),
        Vec3::new(1.6, -0.3, 0.6),
    ];
    let hull = w.create_hull(&pts).unwrap();
    let heel = Quat::from_axis_angle(Vec3::new(1.0, 0.0, 0.0), 30.0 * PI / 180.0);
    let b = body(&mut w, DVec3::new(0.0, 0.0, 0.0), heel);
    w.create_hull_shape(b, &density(200.0), hull).unwrap();
    w.create_offset_box_shape(
        b,
        &density(4000.0),
        Vec3::new(1.0, 0.05, 0.4),
        Vec3::new(0.0, -0.22, 0.0),
        Quat::IDENTITY,
    )
    .unwrap();
    let tilt = |w: &World| {
        let up = w.body_rotation(b).unwrap().rotate(Vec3::new(0.0, 1.0, 0.0));
        maul3d::math::acos(maul3d::math::clamp(up.y, -1.0, 1.0)) * 180.0 / PI
    };
    println!("heel at start {:.2}°", tilt(&w));
    steps(&mut w, 900);
    let end = tilt(&w);
    println!("heel after 15 s {end:.3}°");
    assert!(end < 1.0, "heel {end}");
}

#[test]
fn a_current_carries_a_floating_body_at_its_speed() {
    let mut w = World::new(&def()).unwrap();
    let flow = Vec3::new(1.5, 0.0, 0.0);
    w.create_water_volume(&water(2.0, 1.0, flow)).unwrap();
    let b = body(&mut w, DVec3::new(0.0, 0.0, 0.0), Quat::IDENTITY);
    w.create_box_shape(b, &density(500.0), Vec3::new(0.5, 0.5, 0.5))
        .unwrap();
    steps(&mut w, 600);
    let v = w.body_linear_velocity(b).unwrap();
    println!("carried at {:?} (flow {:?})", v, flow);
    assert!((v.x - flow.x).abs() <= 0.02 * flow.x);
}

/// A scene with a box, a sphere, a capsule and a cylinder in water, one of each kind.
fn pond(w: &mut World) -> WaterVolumeId {
    let id = w.create_water_volume(&water(1.0, 1.0, Vec3::new(0.3, 0.0, 0.1)));
    let b = body(w, DVec3::new(0.0, 0.4, 0.0), Quat::IDENTITY);
    w.create_box_shape(b, &density(600.0), Vec3::new(0.5, 0.3, 0.4))
        .unwrap();
    let s = body(w, DVec3::new(3.0, 1.0, 0.0), Quat::IDENTITY);
    w.create_sphere_shape(
        s,
        &density(400.0),
        &Sphere {
            center: Vec3::ZERO,
            radius: 0.4,
        },
    )
    .unwrap();
    let c = body(
        w,
        DVec3::new(-3.0, 0.5, 1.0),
        Quat::from_axis_angle(Vec3::new(0.0, 0.0, 1.0), 0.7),
    );
    w.create_capsule_shape(
        c,
        &density(700.0),
        &maul3d::Capsule {
            center1: Vec3::new(0.0, -0.4, 0.0),
            center2: Vec3::new(0.0, 0.4, 0.0),
            radius: 0.3,
        },
    )
    .unwrap();
    let y = body(
        w,
        DVec3::new(0.0, 0.5, 3.0),
        Quat::from_axis_angle(Vec3::new(1.0, 0.0, 0.0), 1.2),
    );
    w.create_cylinder_shape(
        y,
        &density(300.0),
        &maul3d::Cylinder {
            center: Vec3::ZERO,
            rotation: Quat::IDENTITY,
            half_height: 0.5,
            radius: 0.3,
        },
    )
    .unwrap();
    id.unwrap()
}

#[test]
fn a_restored_world_in_water_continues_bit_for_bit() {
    let mut a = World::new(&def()).unwrap();
    pond(&mut a);
    steps(&mut a, 45);
    let mut buf = vec![0u8; a.snapshot_size()];
    let n = a.snapshot(&mut buf).unwrap();
    steps(&mut a, 90);
    let mut b = World::new(&def()).unwrap();
    b.restore(&buf[..n]).unwrap();
    steps(&mut b, 90);
    println!(
        "hashes after 135 steps: {:016x} {:016x}",
        a.hash(),
        b.hash()
    );
    assert_eq!(a.hash(), b.hash());
}

#[test]
fn a_replayed_journal_of_water_calls_ends_on_the_same_hash() {
    let mut a = World::new(&def()).unwrap();
    a.start_journal(1 << 20).unwrap();
    let id = pond(&mut a);
    steps(&mut a, 30);
    a.set_water_flow(id, Vec3::new(-0.5, 0.0, 0.0)).unwrap();
    a.set_water_density(id, 1100.0).unwrap();
    a.set_water_drag(id, 2.0, 0.5).unwrap();
    steps(&mut a, 30);
    a.set_water_region(
        id,
        DVec3::new(0.0, -20.1, 0.0),
        Quat::from_axis_angle(Vec3::new(0.0, 0.0, 1.0), 0.05),
        Vec3::new(150.0, 20.0, 150.0),
    )
    .unwrap();
    steps(&mut a, 30);
    let second = a.create_water_volume(&water(0.5, 0.5, Vec3::ZERO)).unwrap();
    steps(&mut a, 10);
    a.destroy_water_volume(second).unwrap();
    steps(&mut a, 10);
    a.stop_journal().unwrap();
    let tape = a.journal_tape().to_vec();
    let mut b = World::new(&def()).unwrap();
    b.replay_journal(&tape).unwrap();
    println!("replayed: {:016x} original {:016x}", b.hash(), a.hash());
    assert_eq!(a.hash(), b.hash());
}

#[test]
fn bad_water_input_is_refused_and_changes_nothing() {
    let mut w = World::new(&def()).unwrap();
    let id = pond(&mut w);
    steps(&mut w, 5);
    let before = w.hash();
    let bad = [
        WaterVolumeDef {
            density: f32::NAN,
            ..water(1.0, 1.0, Vec3::ZERO)
        },
        WaterVolumeDef {
            density: -1.0,
            ..water(1.0, 1.0, Vec3::ZERO)
        },
        WaterVolumeDef {
            half_extents: Vec3::new(1.0, 0.0, 1.0),
            ..water(1.0, 1.0, Vec3::ZERO)
        },
        WaterVolumeDef {
            rotation: Quat::new(0.0, 0.0, 0.0, 0.0),
            ..water(1.0, 1.0, Vec3::ZERO)
        },
        // Finite components whose norm² overflows f32 (it would normalize to zero).
        WaterVolumeDef {
            rotation: Quat::new(1e20, 1e20, 0.0, 0.0),
            ..water(1.0, 1.0, Vec3::ZERO)
        },
        WaterVolumeDef {
            center: DVec3::new(f64::INFINITY, 0.0, 0.0),
            ..water(1.0, 1.0, Vec3::ZERO)
        },
        water(-1.0, 1.0, Vec3::ZERO),
        water(1.0, f32::INFINITY, Vec3::ZERO),
        water(1.0, 1.0, Vec3::new(0.0, 1e9, 0.0)),
    ];
    for d in &bad {
        assert!(w.create_water_volume(d).is_err(), "{d:?}");
        assert!(w.set_water_volume(id, d).is_err(), "{d:?}");
    }
    assert!(w.set_water_density(id, f32::NAN).is_err());
    assert!(w.set_water_drag(id, 1.0, -2.0).is_err());
    assert!(w.set_water_flow(id, Vec3::new(f32::NAN, 0.0, 0.0)).is_err());
    assert_eq!(w.hash(), before);
    // A stale id, and a full pool.
    let spare = w.create_water_volume(&water(1.0, 1.0, Vec3::ZERO)).unwrap();
    w.destroy_water_volume(spare).unwrap();
    let before = w.hash();
    assert!(w.destroy_water_volume(spare).is_err());
    assert!(w.set_water_flow(spare, Vec3::ZERO).is_err());
    assert!(w.water_volume(spare).is_err());
    assert_eq!(w.hash(), before);
    let mut full = World::new(&WorldDef {
        water_capacity: 1,
        ..def()
    })
    .unwrap();
    full.create_water_volume(&WaterVolumeDef::default())
        .unwrap();
    let h = full.hash();
    assert!(
        full.create_water_volume(&WaterVolumeDef::default())
            .is_err()
    );
    assert_eq!(full.hash(), h);
}

#[test]
fn steps_in_water_allocate_nothing() {
    let mut w = World::new(&def()).unwrap();
    pond(&mut w);
    steps(&mut w, 2);
    COUNTING.with(|c| c.set(true));
    for _ in 0..120 {
        w.step(DT, SUBSTEPS).unwrap();
    }
    COUNTING.with(|c| c.set(false));
    let n = ALLOCS.with(|a| a.get());
    println!("allocations in 120 steps: {n}");
    assert_eq!(n, 0);
}

/// The water made four times denser under a floating box (found in Godot, where the box
/// bobbed on): the box rises to its new depth, and its bob dies away rather than grows
/// (the buoyancy is taken at the pose the step predicts, not held from its start).
#[test]
fn a_floating_box_rises_to_its_new_depth_when_the_water_gets_denser() {
    let mut w = World::new(&def()).unwrap();
    let water = w.create_water_volume(&water(1.0, 1.0, Vec3::ZERO)).unwrap();
    let b = body(&mut w, DVec3::new(0.0, 0.0, 0.0), Quat::IDENTITY);
    w.create_box_shape(b, &density(500.0), Vec3::new(0.5, 0.5, 0.5))
        .unwrap();
    steps(&mut w, 600);
    w.set_water_density(water, 2000.0).unwrap();
    // The bob's range (highest minus lowest centre) over each second.
    let mut ranges = Vec::new();
    for _ in 0..20 {
        let (mut lo, mut hi) = (f64::MAX, f64::MIN);
        for _ in 0..60 {
            w.step(DT, SUBSTEPS).unwrap();
            let y = w.body_position(b).unwrap().y;
            lo = maul3d::math::min_f64(lo, y);
            hi = maul3d::math::max_f64(hi, y);
        }
        ranges.push(hi - lo);
    }
    let depth = 0.5 - w.body_position(b).unwrap().y as f32;
    println!(
        "density 500 in water of 2000: depth after 20 s {depth} (expected 0.25); bob range per second {ranges:.3?}"
    );
    assert!(
        ranges[19] < 0.01 * ranges[0],
        "the bob does not die away: {ranges:?}"
    );
    assert!((depth - 0.25).abs() <= 0.0025, "depth {depth}");
}

/// Shifting the origin moves the water with the bodies: every body in the pond goes on
/// floating exactly as it did, its position smaller by the offset; a shift that would
/// carry the water's centre past ±2^22 is refused with nothing changed.
#[test]
fn shift_origin_moves_the_water_with_the_bodies() {
    let shift = DVec3::new(65_536.5, -1024.25, 3.0 + 1.0 / 4_294_967_296.0);
    let run = |shift_at: Option<usize>| {
        let mut w = World::new(&def()).unwrap();
        let id = pond(&mut w);
        for i in 0..240 {
            if shift_at == Some(i) {
                w.shift_origin(shift).unwrap();
            }
            w.step(DT, SUBSTEPS).unwrap();
        }
        let ids: Vec<BodyId> = w.body_ids().collect();
        let state: Vec<_> = ids
            .iter()
            .map(|b| {
                (
                    w.body_position(*b).unwrap(),
                    w.body_linear_velocity(*b).unwrap(),
                )
            })
            .collect();
        (state, w.water_volume(id).unwrap().center)
    };
    let (a, ca) = run(None);
    let (b, cb) = run(Some(60));
    assert_eq!(cb + shift, ca);
    assert_eq!(a.len(), 4);
    for ((pa, va), (pb, vb)) in a.iter().zip(&b) {
        assert_eq!(*pb + shift, *pa);
        assert_eq!(vb, va);
    }
    println!("box floats at y {:.4} in both runs", a[0].0.y);
    // Water only (no bodies): its centre alone bounds the shift.
    let mut w = World::new(&def()).unwrap();
    let id = w
        .create_water_volume(&WaterVolumeDef {
            center: DVec3::new(2_000_000.0, 0.0, 0.0),
            ..water(1.0, 1.0, Vec3::ZERO)
        })
        .unwrap();
    let h = w.hash();
    let e = w
        .shift_origin(DVec3::new(-2_500_000.0, 0.0, 0.0))
        .unwrap_err();
    assert!(
        matches!(
            e,
            maul3d::Error::OutOfBounds {
                name: "shifted water center",
                ..
            }
        ),
        "{e:?}"
    );
    assert_eq!(w.hash(), h);
    // Past the create bound (2^21) but within the coordinate limit: kept, and the
    // world's snapshot restores.
    w.shift_origin(DVec3::new(-1_000_000.0, 0.0, 0.0)).unwrap();
    assert_eq!(w.water_volume(id).unwrap().center.x, 3_000_000.0);
    let mut buf = vec![0u8; w.snapshot_size()];
    w.snapshot(&mut buf).unwrap();
    let mut t = World::new(&World::def_from_snapshot(&buf).unwrap()).unwrap();
    t.restore(&buf).unwrap();
    assert_eq!(t.hash(), w.hash());
}
