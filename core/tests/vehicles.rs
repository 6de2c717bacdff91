//! Vehicles: a four-wheel car on ray-cast wheels at 60 Hz — its rest compression, a
//! straight run, a steady circle, a locked-wheel stop, a bumpy height field — and its
//! state: rollback mid-drive, journal replay, refused input, steps without allocation.

#![allow(clippy::disallowed_methods)] // measuring results in tests, not simulating

use maul3d::math::{DVec3, Mat3, Quat, Vec3};
use maul3d::{
    BodyDef, BodyId, BodyType, Error, HeightFieldDef, MassData, ShapeDef, SlipCurve,
    SuspensionSpring, VehicleDef, VehicleId, VehicleInput, WheelCast, WheelDef, World, WorldDef,
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
        let _ = COUNTING.try_with(|c| {
            if c.get() {
                ALLOCS.with(|n| n.set(n.get() + 1));
            }
        });
        // SAFETY: same layout contract as the caller's.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: the block came from System.alloc with this layout.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: CountingGlobal = CountingGlobal;

const DT: f32 = 1.0 / 60.0;
const SUBSTEPS: u32 = 4;
const MASS: f32 = 1200.0;
const K: f32 = 40_000.0;
const WHEELBASE: f32 = 2.6;
const HALF: Vec3 = Vec3::new(0.9, 0.3, 2.0);

fn world() -> World {
    World::new(&WorldDef {
        body_capacity: 16,
        shape_capacity: 16,
        contact_capacity: 256,
        pair_capacity: 256,
        vehicle_capacity: 4,
        ..Default::default()
    })
    .unwrap()
}

/// A static ground box, top face at y = 0, 1000 m square, friction 1.
fn ground(w: &mut World) -> BodyId {
    let g = w
        .create_body(&BodyDef {
            position: DVec3::new(0.0, -1.0, 0.0),
            ..Default::default()
        })
        .unwrap();
    let def = ShapeDef {
        friction: 1.0,
        ..Default::default()
    };
    w.create_box_shape(g, &def, Vec3::new(500.0, 1.0, 500.0))
        .unwrap();
    g
}

fn car_def(chassis: BodyId, max_steer: f32) -> VehicleDef {
    let mut def = VehicleDef {
        chassis,
        ..Default::default()
    };
    def.transmission.automatic = true;
    for (x, z) in [(-0.8, 1.3), (0.8, 1.3), (-0.8, -1.3), (0.8, -1.3)] {
        let front = z > 0.0;
        def.add_wheel(WheelDef {
            position: Vec3::new(x, -0.1, z),
            min_length: 0.05,
            max_length: 0.5,
            rest_length: 0.5,
            spring: SuspensionSpring::Stiffness {
                stiffness: K,
                damping: 4000.0,
            },
            radius: 0.35,
            max_steer_angle: if front { max_steer } else { 0.0 },
            brake_torque: 5000.0,
            handbrake_torque: if front { 0.0 } else { 4000.0 },
            driven: !front,
            longitudinal: SlipCurve {
                peak_slip: 0.06,
                peak: 1.2,
                sliding_slip: 0.2,
                sliding: 1.0,
            },
            ..Default::default()
        });
    }
    def
}

/// A 1200 kg box chassis (centre of mass at its origin) at `(x, y, z)` on four wheels.
fn car(w: &mut World, at: DVec3, max_steer: f32) -> (BodyId, VehicleId) {
    let c = w
        .create_body(&BodyDef {
            position: at,
            body_type: BodyType::Dynamic,
            ..Default::default()
        })
        .unwrap();
    let volume = 8.0 * HALF.x * HALF.y * HALF.z;
    let def = ShapeDef {
        density: MASS / volume,
        ..Default::default()
    };
    w.create_box_shape(c, &def, HALF).unwrap();
    let v = w.create_vehicle(&car_def(c, max_steer)).unwrap();
    (c, v)
}

fn drive(w: &mut World, v: VehicleId, throttle: f32, steering: f32, brake: f32) {
    w.set_vehicle_input(
        v,
        VehicleInput {
            throttle,
            steering,
            brake,
            handbrake: 0.0,
        },
    )
    .unwrap();
}

fn steps(w: &mut World, n: usize) {
    for _ in 0..n {
        w.step(DT, SUBSTEPS).unwrap();
    }
}

/// Holds a forward speed with a proportional throttle (and the brake above it).
fn cruise(w: &mut World, v: VehicleId, target: f32, steering: f32) {
    let speed = w.vehicle_forward_speed(v).unwrap();
    let e = target - speed;
    let throttle = (e * 0.5).clamp(0.0, 1.0);
    let brake = (-e * 0.5).clamp(0.0, 1.0);
    drive(w, v, throttle, steering, brake);
}

#[test]
fn car_at_rest_sinks_to_its_spring_compression() {
    let mut w = world();
    ground(&mut w);
    let (c, v) = car(&mut w, DVec3::new(0.0, 0.9, 0.0), 0.0);
    steps(&mut w, 600);
    // At rest the chassis sleeps; input wakes it.
    assert!(!w.body_is_awake(c).unwrap());
    let g = -w.gravity().y;
    let m = w.body_mass_data(c).unwrap().mass;
    let expected = m * g / (4.0 * K);
    println!("chassis mass {m:.2} kg, g {g}");
    for i in 0..4 {
        let len = w.wheel_suspension_length(v, i).unwrap();
        let compression = 0.5 - len;
        println!("wheel {i}: compression {compression:.5} m, expected {expected:.5} m");
        assert!(w.wheel_contact(v, i).unwrap().in_contact);
        assert!(
            (compression - expected).abs() < 0.01 * expected,
            "wheel {i}: {compression} vs {expected}"
        );
    }
    let p = w.body_position(c).unwrap();
    println!("chassis at rest at y = {:.4}", p.y);
    assert!(w.body_linear_velocity(c).unwrap().length() < 1e-3);
    drive(&mut w, v, 0.5, 0.0, 0.0);
    assert!(w.body_is_awake(c).unwrap());
}

#[test]
fn car_drives_straight_without_drifting() {
    let mut w = world();
    ground(&mut w);
    let (c, v) = car(&mut w, DVec3::new(0.0, 0.9, -200.0), 0.0);
    steps(&mut w, 60);
    let start = w.body_position(c).unwrap();
    drive(&mut w, v, 0.5, 0.0, 0.0);
    let mut n = 0;
    while w.body_position(c).unwrap().z - start.z < 100.0 {
        steps(&mut w, 1);
        n += 1;
        assert!(n < 60 * 60, "the car did not cover 100 m in a minute");
    }
    let p = w.body_position(c).unwrap();
    let drift = (p.x - start.x).abs();
    let speed = w.vehicle_forward_speed(v).unwrap();
    println!(
        "100 m in {:.2} s, speed {speed:.2} m/s, gear {}, rpm {:.0}, sideways drift {drift:.2e} m",
        n as f32 * DT,
        w.vehicle_gear(v).unwrap(),
        w.vehicle_engine_rpm(v).unwrap()
    );
    assert!(drift < 0.01, "drifted {drift} m");
    assert!(speed > 5.0);
}

#[test]
fn car_turns_on_the_circle_its_steering_sets() {
    let steer: f32 = 0.15;
    let mut w = world();
    ground(&mut w);
    let (c, v) = car(&mut w, DVec3::new(0.0, 0.9, 0.0), steer);
    steps(&mut w, 60);
    for _ in 0..(60 * 20) {
        cruise(&mut w, v, 2.0, 1.0);
        steps(&mut w, 1);
    }
    // The rear axle's midpoint turns about the centre on the rear axle line.
    let q: Quat = w.body_rotation(c).unwrap();
    let lin = w.body_linear_velocity(c).unwrap();
    let ang = w.body_angular_velocity(c).unwrap();
    let rear = q.rotate(Vec3::new(0.0, 0.0, -1.3));
    let v_rear = lin + ang.cross(rear);
    let radius = v_rear.length() / ang.y.abs();
    let expected = WHEELBASE / steer.tan();
    println!(
        "speed {:.3} m/s, yaw rate {:.4} rad/s, radius {radius:.3} m, expected {expected:.3} m",
        v_rear.length(),
        ang.y
    );
    assert!(
        (radius - expected).abs() < 0.05 * expected,
        "{radius} vs {expected}"
    );
}

#[test]
fn braking_from_20_m_s_stops_in_the_friction_distance() {
    let mut w = world();
    ground(&mut w);
    let (c, v) = car(&mut w, DVec3::new(0.0, 0.9, -200.0), 0.0);
    steps(&mut w, 120);
    let q = w.body_rotation(c).unwrap();
    w.set_body_velocity(c, q.rotate(Vec3::new(0.0, 0.0, 20.0)), Vec3::ZERO)
        .unwrap();
    let start = w.body_position(c).unwrap();
    drive(&mut w, v, 0.0, 0.0, 1.0);
    let mut n = 0;
    while w.vehicle_forward_speed(v).unwrap() > 0.01 {
        steps(&mut w, 1);
        n += 1;
        assert!(n < 600);
    }
    let d = (w.body_position(c).unwrap().z - start.z) as f32;
    let g = -w.gravity().y;
    let expected = 20.0 * 20.0 / (2.0 * 1.0 * g);
    println!(
        "stopped in {d:.3} m after {:.2} s, expected {expected:.3} m",
        n as f32 * DT
    );
    assert!((d - expected).abs() < 0.1 * expected, "{d} vs {expected}");
}

#[test]
fn car_crosses_bumpy_height_field_upright() {
    let mut w = world();
    let (nx, nz) = (33u32, 129u32);
    let mut heights = vec![0.0f32; (nx * nz) as usize];
    for z in 0..nz {
        for x in 0..nx {
            let bump = (z as f32 * 1.0 * std::f32::consts::PI / 3.0).sin();
            heights[(z * nx + x) as usize] = 0.12 * bump * bump + 0.02 * ((x % 3) as f32);
        }
    }
    let mesh = w
        .create_height_field(&HeightFieldDef {
            count_x: nx,
            count_z: nz,
            heights: &heights,
            holes: &[],
            scale: Vec3::new(1.0, 1.0, 1.0),
        })
        .unwrap();
    let g = w
        .create_body(&BodyDef {
            position: DVec3::new(-16.0, 0.0, -4.0),
            ..Default::default()
        })
        .unwrap();
    let sd = ShapeDef {
        friction: 1.0,
        ..Default::default()
    };
    w.create_mesh_shape(g, &sd, mesh).unwrap();
    let (c, v) = car(&mut w, DVec3::new(0.0, 1.1, 0.0), 0.3);
    steps(&mut w, 60);
    let mut lowest_up = 1.0f32;
    for _ in 0..(60 * 12) {
        cruise(&mut w, v, 8.0, 0.0);
        steps(&mut w, 1);
        let up = w.body_rotation(c).unwrap().rotate(Vec3::Y).y;
        lowest_up = lowest_up.min(up);
    }
    let p = w.body_position(c).unwrap();
    println!(
        "over the bumps: reached z = {:.1} m, lowest up·y {lowest_up:.4}",
        p.z
    );
    assert!(lowest_up > 0.9, "nearly flipped: {lowest_up}");
    assert!(p.z > 60.0, "did not get across: {}", p.z);
}

fn snapshot(w: &World) -> Vec<u8> {
    let mut buf = vec![0u8; w.snapshot_size()];
    w.snapshot(&mut buf).unwrap();
    buf
}

/// A car driving a curve; returns the world at step `n`.
fn driving(n: usize) -> (World, VehicleId) {
    let mut w = world();
    ground(&mut w);
    let (_, v) = car(&mut w, DVec3::new(0.0, 0.9, 0.0), 0.4);
    for i in 0..n {
        let s = if i % 120 < 60 { 0.6 } else { -0.3 };
        drive(&mut w, v, 0.7, s, 0.0);
        steps(&mut w, 1);
    }
    (w, v)
}

fn continue_hashes(w: &mut World, v: VehicleId, n: usize) -> Vec<u64> {
    (0..n)
        .map(|i| {
            drive(w, v, 0.4, if i % 30 < 15 { 1.0 } else { -1.0 }, 0.1);
            steps(w, 1);
            w.hash()
        })
        .collect()
}

#[test]
fn restored_mid_drive_continues_bit_for_bit() {
    let (mut w, v) = driving(150);
    let snap = snapshot(&w);
    let h0 = w.hash();
    let wheel = w.wheel_angular_velocity(v, 2).unwrap();
    let gear = w.vehicle_gear(v).unwrap();
    let first = continue_hashes(&mut w, v, 120);
    // Roll the same world back, and a twin from the bytes.
    w.restore(&snap).unwrap();
    assert_eq!(w.hash(), h0);
    assert_eq!(w.wheel_angular_velocity(v, 2).unwrap(), wheel);
    assert_eq!(w.vehicle_gear(v).unwrap(), gear);
    let again = continue_hashes(&mut w, v, 120);
    assert_eq!(first, again);
    let mut t = World::new(&World::def_from_snapshot(&snap).unwrap()).unwrap();
    t.restore(&snap).unwrap();
    assert_eq!(t.hash(), h0);
    let tv = t.vehicle_ids().next().unwrap();
    let twin = continue_hashes(&mut t, tv, 120);
    assert_eq!(first, twin);
    println!("rolled back at step 150 (wheel 2 at {wheel:.3} rad/s, gear {gear}): 120 steps equal");
}

#[test]
fn journal_replays_a_drive_to_the_same_hash() {
    let mut w = world();
    ground(&mut w);
    let snap = snapshot(&w);
    w.start_journal(1 << 20).unwrap();
    let (c, v) = car(&mut w, DVec3::new(0.0, 0.9, 0.0), 0.4);
    for i in 0..200 {
        drive(&mut w, v, 0.8, if i < 100 { 0.5 } else { -0.5 }, 0.0);
        if i == 150 {
            w.set_vehicle_gear(v, 2).unwrap();
        }
        steps(&mut w, 1);
    }
    let second = w.create_vehicle(&car_def(c, 0.1)).unwrap();
    w.destroy_vehicle(second).unwrap();
    steps(&mut w, 10);
    w.stop_journal().unwrap();
    let tape = w.journal_tape().to_vec();
    let mut t = World::new(&World::def_from_snapshot(&snap).unwrap()).unwrap();
    t.restore(&snap).unwrap();
    t.replay_journal(&tape).unwrap();
    println!(
        "tape of {} bytes replayed to hash {:016x}",
        tape.len(),
        t.hash()
    );
    assert_eq!(t.hash(), w.hash());
    let tc = t.body_ids().nth(1).unwrap();
    assert_eq!(t.body_position(tc).unwrap(), w.body_position(c).unwrap());
}

/// The far end of what a wheel accepts: a chassis of 1e23 kg whose inertia is past turning
/// (1e30 kg·m² on each axis: its inverse is zero) spinning at 1e4 rad/s, its wheels 1e6 m
/// out along its length, landing on blocks there. Each wheel
/// closes at 1e10 m/s, so the bump stop's impulse and its lever arm would overflow to
/// infinity unbounded; the step keeps them within the limits and everything stays finite
/// (the world's own snapshot restores).
#[test]
fn wheels_a_million_metres_out_on_a_heavy_spinning_chassis_stay_finite() {
    let mut w = world();
    const OUT: f32 = 1.0e6;
    for z in [-OUT, OUT] {
        let g = w
            .create_body(&BodyDef {
                position: DVec3::new(0.0, -1.0, f64::from(z)),
                ..Default::default()
            })
            .unwrap();
        w.create_box_shape(g, &ShapeDef::default(), Vec3::new(10.0, 1.0, 10.0))
            .unwrap();
    }
    let c = w
        .create_body(&BodyDef {
            position: DVec3::new(0.0, 0.2, 0.0),
            body_type: BodyType::Dynamic,
            angular_velocity: Vec3::new(1.0e4, 0.0, 0.0),
            ..Default::default()
        })
        .unwrap();
    w.create_box_shape(c, &ShapeDef::default(), HALF).unwrap();
    let inertia = Mat3::from_cols(
        Vec3::new(1.0e30, 0.0, 0.0),
        Vec3::new(0.0, 1.0e30, 0.0),
        Vec3::new(0.0, 0.0, 1.0e30),
    );
    w.set_body_mass_data(
        c,
        Some(MassData {
            mass: 1.0e23,
            center: Vec3::ZERO,
            inertia,
        }),
    )
    .unwrap();
    let mut def = car_def(c, 0.5);
    for (i, wheel) in def.wheels[..4].iter_mut().enumerate() {
        let z = if i < 2 { OUT } else { -OUT };
        wheel.position = Vec3::new(wheel.position.x, 0.0, z);
    }
    let v = w.create_vehicle(&def).unwrap();
    let mut hit = false;
    for i in 0..30 {
        drive(&mut w, v, 1.0, if i % 2 == 0 { 1.0 } else { -1.0 }, 0.0);
        steps(&mut w, 1);
        let finite3 = |x: Vec3| x.x.is_finite() && x.y.is_finite() && x.z.is_finite();
        assert!(finite3(w.body_linear_velocity(c).unwrap()), "step {i}");
        assert!(finite3(w.body_angular_velocity(c).unwrap()), "step {i}");
        assert!(w.vehicle_engine_rpm(v).unwrap().is_finite(), "step {i}");
        for wheel in 0..4 {
            assert!(w.wheel_angular_velocity(v, wheel).unwrap().is_finite());
            assert!(w.wheel_rotation_angle(v, wheel).unwrap().is_finite());
            hit |= w.wheel_contact(v, wheel).unwrap().in_contact;
        }
        let snap = snapshot(&w);
        let mut again = world();
        again.restore(&snap).unwrap();
        assert_eq!(again.hash(), w.hash(), "step {i}");
    }
    assert!(hit, "no wheel ever reached the blocks 1e6 m out");
}

#[test]
fn bad_vehicle_input_is_refused_and_changes_nothing() {
    let mut w = world();
    let ground = ground(&mut w);
    let (c, v) = car(&mut w, DVec3::new(0.0, 0.9, 0.0), 0.4);
    steps(&mut w, 10);
    let h = w.hash();
    let bad_inputs = [
        VehicleInput {
            throttle: f32::NAN,
            ..Default::default()
        },
        VehicleInput {
            steering: 1.5,
            ..Default::default()
        },
        VehicleInput {
            brake: -0.1,
            ..Default::default()
        },
        VehicleInput {
            handbrake: f32::INFINITY,
            ..Default::default()
        },
    ];
    for input in bad_inputs {
        let e = w.set_vehicle_input(v, input).unwrap_err();
        println!("{e}");
        assert!(matches!(e, Error::Argument { .. }));
    }
    let mut defs = Vec::new();
    defs.push(car_def(ground, 0.1)); // a static chassis
    defs.push(car_def(BodyId::NULL, 0.1));
    let mut d = car_def(c, 0.1);
    d.wheel_count = 0;
    defs.push(d);
    let mut d = car_def(c, 0.1);
    d.wheels[1].radius = -1.0;
    defs.push(d);
    let mut d = car_def(c, 0.1);
    d.wheels[0].max_length = 0.01;
    defs.push(d);
    let mut d = car_def(c, 0.1);
    d.wheels[3].lateral.sliding_slip = 0.01;
    defs.push(d);
    let mut d = car_def(c, 0.1);
    d.forward = d.up;
    defs.push(d);
    let mut d = car_def(c, 0.1);
    d.engine.max_torque = f32::NAN;
    defs.push(d);
    let mut d = car_def(c, 0.1);
    d.transmission.gear_count = 9;
    defs.push(d);
    let mut d = car_def(c, 0.1);
    d.add_anti_roll_bar(maul3d::AntiRollBar {
        left: 0,
        right: 7,
        stiffness: 100.0,
    });
    defs.push(d);
    let mut d = car_def(c, 0.1);
    d.wheels[2].spring = SuspensionSpring::Frequency {
        hertz: 0.0,
        damping_ratio: 0.5,
    };
    defs.push(d);
    for d in &defs {
        let e = w.create_vehicle(d).unwrap_err();
        println!("{e}");
    }
    assert!(w.set_vehicle_gear(v, 9).is_err());
    assert!(w.wheel_suspension_length(v, 4).is_err());
    assert_eq!(w.hash(), h);
    // Destroying the chassis destroys the vehicle.
    w.destroy_body(c).unwrap();
    assert!(!w.vehicle_is_valid(v));
    assert!(matches!(
        w.set_vehicle_input(v, VehicleInput::default()),
        Err(Error::InvalidId { .. })
    ));
    assert_eq!(w.vehicle_count(), 0);
}

#[test]
fn vehicle_steps_allocate_nothing() {
    let mut w = world();
    ground(&mut w);
    let (_, v) = car(&mut w, DVec3::new(0.0, 0.9, 0.0), 0.4);
    let (c2, v2) = car(&mut w, DVec3::new(-30.0, 0.9, 0.0), 0.4);
    let mut d = car_def(c2, 0.4);
    d.wheels[0].cast = WheelCast::Sphere;
    d.wheels[1].cast = WheelCast::Cylinder;
    w.destroy_vehicle(v2).unwrap();
    let v2 = w.create_vehicle(&d).unwrap();
    ALLOCS.with(|n| n.set(0));
    for i in 0..300 {
        drive(&mut w, v, 0.6, 0.5, 0.0);
        drive(&mut w, v2, 0.6, -0.5, if i > 200 { 1.0 } else { 0.0 });
        COUNTING.with(|x| x.set(true));
        w.step(DT, SUBSTEPS).unwrap();
        COUNTING.with(|x| x.set(false));
    }
    let n = ALLOCS.with(|n| n.get());
    println!(
        "300 steps of two cars: {n} allocations; shape-cast wheels in contact: {} {}",
        w.wheel_contact(v2, 0).unwrap().in_contact,
        w.wheel_contact(v2, 1).unwrap().in_contact
    );
    assert!(w.wheel_contact(v2, 0).unwrap().in_contact);
    assert!(w.wheel_contact(v2, 1).unwrap().in_contact);
    assert_eq!(n, 0);
}

#[test]
fn cars_with_ray_sphere_and_cylinder_wheels_step_on_a_48_kib_stack() {
    // The step's deepest call keeps under 48 KiB (see stack.rs); the vehicle stage holds a
    // group of cars set up side by side, and a shape-cast wheel's query runs under it.
    let mut w = world();
    ground(&mut w);
    let mut cars = Vec::new();
    for k in 0..4 {
        let (c, v) = car(&mut w, DVec3::new(6.0 * k as f64, 0.9, 0.0), 0.4);
        let mut d = car_def(c, 0.4);
        d.wheels[0].cast = WheelCast::Sphere;
        d.wheels[1].cast = WheelCast::Cylinder;
        w.destroy_vehicle(v).unwrap();
        cars.push(w.create_vehicle(&d).unwrap());
    }
    let w = Box::new(w);
    let w = std::thread::Builder::new()
        .stack_size(48 * 1024)
        .spawn(move || {
            let mut w: Box<World> = w;
            for i in 0..120 {
                for &v in &cars {
                    drive(&mut w, v, 0.6, if i < 60 { 0.2 } else { 0.0 }, 0.0);
                }
                w.step(DT, SUBSTEPS).unwrap();
            }
            (w, cars)
        })
        .unwrap()
        .join()
        .expect("the step overflowed a 48 KiB stack or panicked");
    let (w, cars) = w;
    for v in cars {
        assert!(w.wheel_contact(v, 0).unwrap().in_contact);
        assert!(w.wheel_contact(v, 1).unwrap().in_contact);
    }
}
