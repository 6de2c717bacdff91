//! Characters: kinematic capsule movers walked at 60 Hz with gravity added to the velocity
//! as a game does, measured and printed (as Jolt's CharacterVirtualTests).

#![allow(clippy::disallowed_methods)] // measuring results in tests, not simulating

use maul3d::math::{DVec3, Quat, Vec3};
use maul3d::{
    BodyDef, BodyId, BodyType, Capsule, CharacterDef, CharacterId, CharacterSettings, Cylinder,
    Error, GroundState, HeightFieldDef, PlaneShape, ShapeDef, Sphere, World, WorldDef,
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
const G: f32 = 9.81;

fn def() -> WorldDef {
    WorldDef {
        body_capacity: 256,
        shape_capacity: 256,
        contact_capacity: 2048,
        pair_capacity: 2048,
        hull_capacity: 8,
        mesh_capacity: 8,
        character_capacity: 8,
        ..Default::default()
    }
}

fn fixed(w: &mut World, position: DVec3, rotation: Quat) -> BodyId {
    w.create_body(&BodyDef {
        position,
        rotation,
        ..Default::default()
    })
    .unwrap()
}

fn ground(w: &mut World) -> BodyId {
    let g = fixed(w, DVec3::new(0.0, -1.0, 0.0), Quat::IDENTITY);
    w.create_box_shape(g, &ShapeDef::default(), Vec3::new(50.0, 1.0, 50.0))
        .unwrap();
    g
}

fn character(w: &mut World, x: f64, y: f64, z: f64) -> CharacterId {
    w.create_character(&CharacterDef {
        position: DVec3::new(x, y, z),
        ..Default::default()
    })
    .unwrap()
}

/// A game's frame: vertical velocity kept while airborne with gravity added, zeroed on
/// the ground; the wanted level velocity; then the move and the step.
fn frame(w: &mut World, c: CharacterId, vy: &mut f32, level: Vec3) {
    if w.character_ground(c).unwrap().state == GroundState::OnGround {
        *vy = 0.0;
    }
    *vy -= G * DT;
    w.move_character(c, Vec3::new(level.x, *vy, level.z), DT)
        .unwrap();
    w.step(DT, 4).unwrap();
}

fn pos(w: &World, c: CharacterId) -> DVec3 {
    w.character_position(c).unwrap()
}

fn settle(w: &mut World, c: CharacterId, frames: usize) {
    let mut vy = 0.0;
    for _ in 0..frames {
        frame(w, c, &mut vy, Vec3::ZERO);
    }
}

#[test]
fn a_character_settles_on_the_floor_a_skin_above_it() {
    let mut w = World::new(&def()).unwrap();
    ground(&mut w);
    let c = character(&mut w, 0.0, 2.0, 0.0);
    settle(&mut w, c, 120);
    let p = pos(&w, c);
    let bottom = p.y - 0.9;
    println!("rests with its bottom {bottom:.4} m above the floor");
    assert_eq!(w.character_ground(c).unwrap().state, GroundState::OnGround);
    assert!((0.0..0.04).contains(&bottom), "bottom at {bottom}");
}

#[test]
fn walking_down_a_30_degree_slope_the_character_sticks_to_it() {
    let mut w = World::new(&def()).unwrap();
    let angle = 30f32.to_radians();
    // A ramp falling towards +x: its top surface through the origin.
    let q = Quat::from_axis_angle(Vec3::new(0.0, 0.0, 1.0), -angle);
    let ramp = fixed(&mut w, DVec3::ZERO, q);
    w.create_offset_box_shape(
        ramp,
        &ShapeDef::default(),
        Vec3::new(40.0, 0.5, 5.0),
        Vec3::new(0.0, -0.5, 0.0),
        Quat::IDENTITY,
    )
    .unwrap();
    let c = character(&mut w, -10.0, 10.0 * angle.tan() as f64 + 1.0, 0.0);
    settle(&mut w, c, 60);
    assert_eq!(w.character_ground(c).unwrap().state, GroundState::OnGround);
    let start = pos(&w, c);
    let mut vy = 0.0;
    let mut air = 0;
    for _ in 0..180 {
        frame(&mut w, c, &mut vy, Vec3::new(4.0, 0.0, 0.0));
        if w.character_ground(c).unwrap().state != GroundState::OnGround {
            air += 1;
        }
    }
    let end = pos(&w, c);
    let n = w.character_ground(c).unwrap().normal;
    println!(
        "down the 30° slope: {:.2} m level, {:.2} m down, frames off the ground {air}, normal {:?}",
        end.x - start.x,
        start.y - end.y,
        n
    );
    assert_eq!(air, 0);
    assert!(end.x - start.x > 10.0);
    assert!((n.y - angle.cos()).abs() < 1e-3);
}

/// A flight of stairs rising along +x from x = 1, each step `rise` high and 0.5 m deep.
fn stairs(w: &mut World, rise: f32) {
    let b = fixed(w, DVec3::ZERO, Quat::IDENTITY);
    for i in 0..6 {
        let top = rise * (i + 1) as f32;
        w.create_offset_box_shape(
            b,
            &ShapeDef::default(),
            Vec3::new(0.25, top / 2.0, 3.0),
            Vec3::new(1.25 + 0.5 * i as f32, top / 2.0, 0.0),
            Quat::IDENTITY,
        )
        .unwrap();
    }
}

fn climb(rise: f32) -> f64 {
    let mut w = World::new(&def()).unwrap();
    ground(&mut w);
    stairs(&mut w, rise);
    let c = w
        .create_character(&CharacterDef {
            position: DVec3::new(0.0, 1.0, 0.0),
            settings: CharacterSettings {
                step_height: 0.4,
                ..Default::default()
            },
            ..Default::default()
        })
        .unwrap();
    settle(&mut w, c, 30);
    let mut vy = 0.0;
    let mut top = f64::MIN;
    for _ in 0..120 {
        frame(&mut w, c, &mut vy, Vec3::new(2.0, 0.0, 0.0));
        top = top.max(pos(&w, c).y - 0.9);
    }
    let p = pos(&w, c);
    println!(
        "stairs of {rise} m at step_height 0.4: highest bottom {top:.3} m, ends at x {:.2}",
        p.x
    );
    top
}

#[test]
fn stairs_of_0_3_m_are_climbed_and_of_0_5_m_are_not_at_step_height_0_4() {
    let low = climb(0.3);
    assert!(low > 1.7, "climbed to {low}");
    let high = climb(0.5);
    assert!(high < 0.1, "climbed to {high}");
}

#[test]
fn a_character_rides_a_rotating_platform_and_one_moving_up() {
    let mut w = World::new(&def()).unwrap();
    ground(&mut w);
    let p = w
        .create_body(&BodyDef {
            body_type: BodyType::Kinematic,
            position: DVec3::new(0.0, 0.25, 0.0),
            angular_velocity: Vec3::new(0.0, 1.0, 0.0),
            ..Default::default()
        })
        .unwrap();
    w.create_box_shape(p, &ShapeDef::default(), Vec3::new(5.0, 0.25, 5.0))
        .unwrap();
    let c = character(&mut w, 3.0, 1.6, 0.0);
    settle(&mut w, c, 30);
    let local = |w: &World| {
        let q = w.body_rotation(p).unwrap();
        q.inv_rotate((pos(w, c) - w.body_position(p).unwrap()).to_f32())
    };
    let l0 = local(&w);
    let mut worst = 0.0f32;
    for _ in 0..600 {
        settle(&mut w, c, 1);
        worst = worst.max((local(&w) - l0).length());
    }
    let turned = pos(&w, c);
    println!(
        "rotating platform, 10 s at 1 rad/s: drift from its spot {:.5} m, at ({:.3}, {:.3})",
        worst, turned.x, turned.z
    );
    assert!(worst < 0.01);
    assert_eq!(w.character_ground(c).unwrap().body, p);

    // An elevator.
    w.set_body_velocity(p, Vec3::new(0.0, 1.0, 0.0), Vec3::ZERO)
        .unwrap();
    let y0 = pos(&w, c).y;
    let b0 = w.body_position(p).unwrap().y;
    for _ in 0..120 {
        settle(&mut w, c, 1);
    }
    let rise = pos(&w, c).y - y0;
    let lift = w.body_position(p).unwrap().y - b0;
    println!("elevator: platform rose {lift:.3} m, character {rise:.3} m");
    assert!((rise - lift).abs() < 0.02);
    assert_eq!(w.character_ground(c).unwrap().state, GroundState::OnGround);
}

#[test]
fn two_characters_walking_into_each_other_do_not_pass() {
    let mut w = World::new(&def()).unwrap();
    ground(&mut w);
    let a = character(&mut w, -2.0, 1.0, 0.0);
    let b = character(&mut w, 2.0, 1.0, 0.0);
    let (mut va, mut vb) = (0.0, 0.0);
    let mut closest = f64::MAX;
    for _ in 0..180 {
        frame(&mut w, a, &mut va, Vec3::new(3.0, 0.0, 0.0));
        frame(&mut w, b, &mut vb, Vec3::new(-3.0, 0.0, 0.0));
        closest = closest.min(pos(&w, b).x - pos(&w, a).x);
    }
    println!("two characters: closest centre distance {closest:.4} m (radii sum 0.6)");
    assert!(closest > 0.59);
}

#[test]
fn a_character_started_inside_a_box_is_out_within_a_few_moves() {
    let mut w = World::new(&def()).unwrap();
    ground(&mut w);
    let b = fixed(&mut w, DVec3::new(0.0, 1.0, 0.0), Quat::IDENTITY);
    w.create_box_shape(b, &ShapeDef::default(), Vec3::new(0.5, 1.0, 0.5))
        .unwrap();
    let c = character(&mut w, 0.65, 0.95, 0.0);
    let mut moves = 0;
    let mut vy = 0.0;
    while moves < 20 {
        frame(&mut w, c, &mut vy, Vec3::ZERO);
        moves += 1;
        if pos(&w, c).x >= 0.5 + 0.3 + 0.005 {
            break;
        }
    }
    println!(
        "started 0.15 m into a box: out after {moves} moves, x {:.4}",
        pos(&w, c).x
    );
    assert!(moves <= 3);
}

fn push(mass: f32) -> f64 {
    let mut w = World::new(&def()).unwrap();
    ground(&mut w);
    let box_body = w
        .create_body(&BodyDef {
            body_type: BodyType::Dynamic,
            position: DVec3::new(1.5, 0.5, 0.0),
            ..Default::default()
        })
        .unwrap();
    w.create_box_shape(
        box_body,
        &ShapeDef {
            density: mass,
            friction: 0.6,
            ..Default::default()
        },
        Vec3::new(0.5, 0.5, 0.5),
    )
    .unwrap();
    let c = w
        .create_character(&CharacterDef {
            position: DVec3::new(0.0, 0.95, 0.0),
            settings: CharacterSettings {
                max_strength: 500.0,
                ..Default::default()
            },
            ..Default::default()
        })
        .unwrap();
    settle(&mut w, c, 30);
    let x0 = w.body_position(box_body).unwrap().x;
    let mut vy = 0.0;
    for _ in 0..120 {
        frame(&mut w, c, &mut vy, Vec3::new(2.0, 0.0, 0.0));
    }
    let moved = w.body_position(box_body).unwrap().x - x0;
    println!("push at 500 N: a {mass} kg box moved {moved:.4} m in 2 s");
    moved
}

#[test]
fn a_character_pushes_a_10_kg_box_but_not_a_10_tonne_one() {
    assert!(push(10.0) > 0.5);
    assert!(push(10_000.0).abs() < 0.01);
}

#[test]
fn a_character_does_not_pass_through_any_shape_kind() {
    let kinds = [
        "sphere",
        "box",
        "capsule",
        "cylinder",
        "hull",
        "mesh",
        "height field",
        "plane",
    ];
    for kind in kinds {
        let mut w = World::new(&def()).unwrap();
        // Height fields and planes are their own floor; the rest stand on a box floor
        // with the obstacle at x = 2 as a wall of it.
        let wall_x = 2.0f32;
        match kind {
            "height field" | "plane" => {}
            _ => {
                ground(&mut w);
            }
        }
        let b = fixed(&mut w, DVec3::new(wall_x as f64, 0.0, 0.0), Quat::IDENTITY);
        let sd = ShapeDef::default();
        match kind {
            "sphere" => {
                w.create_sphere_shape(
                    b,
                    &sd,
                    &Sphere {
                        center: Vec3::new(1.0, 1.0, 0.0),
                        radius: 1.0,
                    },
                )
                .unwrap();
            }
            "box" => {
                w.create_box_shape(b, &sd, Vec3::new(0.25, 2.0, 3.0))
                    .unwrap();
            }
            "capsule" => {
                w.create_capsule_shape(
                    b,
                    &sd,
                    &Capsule {
                        center1: Vec3::new(0.5, 0.0, 0.0),
                        center2: Vec3::new(0.5, 3.0, 0.0),
                        radius: 0.5,
                    },
                )
                .unwrap();
            }
            "cylinder" => {
                w.create_cylinder_shape(
                    b,
                    &sd,
                    &Cylinder {
                        center: Vec3::new(0.5, 1.0, 0.0),
                        rotation: Quat::IDENTITY,
                        half_height: 1.5,
                        radius: 0.5,
                    },
                )
                .unwrap();
            }
            "hull" => {
                let h = w
                    .create_hull(&[
                        Vec3::new(0.0, 0.0, -1.0),
                        Vec3::new(0.0, 0.0, 1.0),
                        Vec3::new(0.0, 3.0, 0.0),
                        Vec3::new(1.0, 0.0, 0.0),
                        Vec3::new(1.0, 3.0, 0.5),
                    ])
                    .unwrap();
                w.create_hull_shape(b, &sd, h).unwrap();
            }
            "mesh" => {
                // A vertical wall of two triangles facing −x.
                let m = w
                    .create_mesh(
                        &[
                            Vec3::new(0.0, 0.0, -3.0),
                            Vec3::new(0.0, 0.0, 3.0),
                            Vec3::new(0.0, 3.0, 3.0),
                            Vec3::new(0.0, 3.0, -3.0),
                        ],
                        &[[0, 1, 2], [0, 2, 3]],
                    )
                    .unwrap();
                w.create_mesh_shape(b, &sd, m).unwrap();
            }
            "height field" => {
                // 8 × 8 samples 1 m apart from x = −6 (relative to the wall body): flat,
                // then a ridge 3 m high from x = 0 on.
                let mut heights = vec![0.0f32; 64];
                for z in 0..8 {
                    for x in 6..8 {
                        heights[z * 8 + x] = 3.0;
                    }
                }
                let m = w
                    .create_height_field(&HeightFieldDef {
                        count_x: 8,
                        count_z: 8,
                        heights: &heights,
                        holes: &[],
                        scale: Vec3::new(1.0, 1.0, 1.0),
                    })
                    .unwrap();
                let hb = fixed(&mut w, DVec3::new(-4.0, 0.0, -3.5), Quat::IDENTITY);
                w.create_mesh_shape(hb, &sd, m).unwrap();
            }
            "plane" => {
                w.create_plane_shape(
                    b,
                    &sd,
                    &PlaneShape {
                        normal: Vec3::new(1.0, 0.0, 0.0),
                        offset: 0.0,
                    },
                )
                .unwrap();
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
        let c = match kind {
            // The wall plane's solid side is x ≤ 2: stand on the other side, walk −x.
            "plane" => character(&mut w, 4.0, 1.0, 0.0),
            _ => character(&mut w, 0.0, 1.0, 0.0),
        };
        let dir = if kind == "plane" { -1.0 } else { 1.0 };
        let mut vy = 0.0;
        let mut furthest = f64::MIN;
        for _ in 0..120 {
            frame(&mut w, c, &mut vy, Vec3::new(3.0 * dir, 0.0, 0.0));
            furthest = furthest.max(dir as f64 * pos(&w, c).x);
        }
        let reach = if kind == "plane" {
            -(wall_x as f64 + 0.3)
        } else if kind == "height field" {
            // The ridge rises from x = 1 (world) to 3 m at x = 2 (71.6°, too steep to
            // climb): the lower cap's centre, 0.32 m up, meets it 0.32 m off at x 0.769.
            0.769
        } else {
            wall_x as f64 - 0.3
        };
        println!(
            "{kind}: furthest centre {:.4} along the walk, wall reached at {reach:.2}",
            furthest
        );
        assert!(furthest <= reach + 0.05, "{kind}: {furthest}");
        assert!(pos(&w, c).y < 1.5, "{kind}: climbed to {}", pos(&w, c).y);
    }
}

#[test]
fn a_snapshot_mid_walk_restores_to_the_same_hash_and_continuation() {
    let mut w = World::new(&def()).unwrap();
    ground(&mut w);
    stairs(&mut w, 0.25);
    let c = character(&mut w, 0.0, 1.0, 0.0);
    let mut vy = 0.0;
    for _ in 0..40 {
        frame(&mut w, c, &mut vy, Vec3::new(2.0, 0.0, 0.5));
    }
    let mut buf = vec![0u8; w.snapshot_size()];
    w.snapshot(&mut buf).unwrap();
    let mut t = World::new(&World::def_from_snapshot(&buf).unwrap()).unwrap();
    t.restore(&buf).unwrap();
    assert_eq!(t.hash(), w.hash());
    let mut vt = vy;
    let ct = t.character_ids().next().unwrap();
    for _ in 0..60 {
        frame(&mut w, c, &mut vy, Vec3::new(2.0, 0.0, 0.5));
        frame(&mut t, ct, &mut vt, Vec3::new(2.0, 0.0, 0.5));
        assert_eq!(t.hash(), w.hash());
    }
    assert_eq!(pos(&t, ct), pos(&w, c));
    println!("continued 60 frames bit for bit, at {:?}", pos(&w, c));
    // A damaged character (skin beyond the radius) is refused.
    let mut bad = buf.clone();
    let n = bad.len();
    bad[n - 8] ^= 0xff;
    let mut u = World::new(&World::def_from_snapshot(&buf).unwrap()).unwrap();
    assert!(u.restore(&bad).is_err(), "a damaged snapshot restored");
}

#[test]
fn a_recorded_session_replays_to_the_same_hash() {
    let mut w = World::new(&def()).unwrap();
    let mut start = vec![0u8; w.snapshot_size()];
    w.snapshot(&mut start).unwrap();
    w.start_journal(1 << 22).unwrap();
    ground(&mut w);
    let c = character(&mut w, 0.0, 1.0, 0.0);
    let d = character(&mut w, 3.0, 1.0, 0.0);
    let box_body = w
        .create_body(&BodyDef {
            body_type: BodyType::Dynamic,
            position: DVec3::new(1.5, 0.5, 2.0),
            ..Default::default()
        })
        .unwrap();
    w.create_box_shape(box_body, &ShapeDef::default(), Vec3::new(0.5, 0.5, 0.5))
        .unwrap();
    let (mut vy, mut vd) = (0.0, 0.0);
    for i in 0..90 {
        frame(&mut w, c, &mut vy, Vec3::new(1.0, 0.0, 1.0));
        frame(&mut w, d, &mut vd, Vec3::new(-1.0, 0.0, 0.0));
        if i == 30 {
            w.set_character_settings(
                c,
                &CharacterSettings {
                    max_strength: 400.0,
                    ..Default::default()
                },
            )
            .unwrap();
        }
        if i == 60 {
            w.set_character_position(d, DVec3::new(-3.0, 1.5, 0.0))
                .unwrap();
        }
    }
    w.destroy_character(d).unwrap();
    w.step(DT, 4).unwrap();
    w.stop_journal().unwrap();
    let tape = w.journal_tape().to_vec();
    let mut t = World::new(&World::def_from_snapshot(&start).unwrap()).unwrap();
    t.restore(&start).unwrap();
    t.replay_journal(&tape).unwrap();
    println!(
        "replayed {} bytes of tape: hash {:016x}",
        tape.len(),
        t.hash()
    );
    assert_eq!(t.hash(), w.hash());
}

#[test]
fn bad_input_is_refused_and_changes_nothing() {
    let mut w = World::new(&def()).unwrap();
    ground(&mut w);
    let c = character(&mut w, 0.0, 1.0, 0.0);
    let h = w.hash();
    let bad_defs = [
        CharacterDef {
            radius: 0.0,
            ..Default::default()
        },
        CharacterDef {
            half_height: f32::NAN,
            ..Default::default()
        },
        CharacterDef {
            up: Vec3::ZERO,
            ..Default::default()
        },
        CharacterDef {
            position: DVec3::new(f64::INFINITY, 0.0, 0.0),
            ..Default::default()
        },
        CharacterDef {
            settings: CharacterSettings {
                max_slope_angle: 2.0,
                ..Default::default()
            },
            ..Default::default()
        },
        CharacterDef {
            settings: CharacterSettings {
                skin: 0.5,
                ..Default::default()
            },
            ..Default::default()
        },
        CharacterDef {
            settings: CharacterSettings {
                mass: -1.0,
                ..Default::default()
            },
            ..Default::default()
        },
        CharacterDef {
            settings: CharacterSettings {
                max_strength: f32::INFINITY,
                ..Default::default()
            },
            ..Default::default()
        },
    ];
    for d in &bad_defs {
        let e = w.create_character(d).unwrap_err();
        assert!(matches!(e, Error::Argument { .. }), "{e:?}");
    }
    assert!(
        w.move_character(c, Vec3::new(f32::NAN, 0.0, 0.0), DT)
            .is_err()
    );
    assert!(w.move_character(c, Vec3::ZERO, -1.0).is_err());
    assert!(
        w.set_character_position(c, DVec3::new(f64::NAN, 0.0, 0.0))
            .is_err()
    );
    let body = w.character_body(c).unwrap();
    let e = w.destroy_body(body).unwrap_err();
    println!("destroy_body on a character's body: {e}");
    assert!(matches!(e, Error::State(_)));
    assert!(w.set_body_type(body, BodyType::Dynamic).is_err());
    assert_eq!(w.hash(), h);
    w.destroy_character(c).unwrap();
    assert!(!w.body_is_valid(body));
    assert!(w.move_character(c, Vec3::ZERO, DT).is_err());
    assert!(w.destroy_character(c).is_err());
}

#[test]
fn moves_and_steps_with_characters_allocate_nothing() {
    let mut w = World::new(&def()).unwrap();
    ground(&mut w);
    stairs(&mut w, 0.25);
    let p = w
        .create_body(&BodyDef {
            body_type: BodyType::Kinematic,
            position: DVec3::new(-3.0, 0.1, 0.0),
            angular_velocity: Vec3::new(0.0, 0.5, 0.0),
            ..Default::default()
        })
        .unwrap();
    w.create_box_shape(p, &ShapeDef::default(), Vec3::new(1.5, 0.1, 1.5))
        .unwrap();
    let box_body = w
        .create_body(&BodyDef {
            body_type: BodyType::Dynamic,
            position: DVec3::new(0.0, 0.5, 2.0),
            ..Default::default()
        })
        .unwrap();
    w.create_box_shape(box_body, &ShapeDef::default(), Vec3::new(0.5, 0.5, 0.5))
        .unwrap();
    let a = character(&mut w, 0.0, 1.0, 0.0);
    let b = character(&mut w, -3.0, 1.3, 0.5);
    let (mut va, mut vb) = (0.0, 0.0);
    for _ in 0..10 {
        frame(&mut w, a, &mut va, Vec3::new(2.0, 0.0, 0.0));
        frame(&mut w, b, &mut vb, Vec3::ZERO);
    }
    ALLOCS.with(|n| n.set(0));
    COUNTING.with(|c| c.set(true));
    for _ in 0..60 {
        frame(&mut w, a, &mut va, Vec3::new(2.0, 0.0, 1.0));
        frame(&mut w, b, &mut vb, Vec3::new(0.0, 0.0, 0.0));
    }
    COUNTING.with(|c| c.set(false));
    let n = ALLOCS.with(|n| n.get());
    println!("allocations in 120 moves and steps: {n}");
    assert_eq!(n, 0);
}

/// Shifting the origin mid-walk moves the character with the bodies: the same walk goes
/// on exactly, its position smaller by the offset.
#[test]
fn shift_origin_mid_walk_moves_the_character_with_the_world() {
    let shift = DVec3::new(65_536.5, -1024.25, 3.0 + 1.0 / 4_294_967_296.0);
    let run = |shift_at: Option<usize>| {
        let mut w = World::new(&def()).unwrap();
        ground(&mut w);
        stairs(&mut w, 0.25);
        let c = character(&mut w, 0.0, 1.0, 0.0);
        let mut vy = 0.0;
        for i in 0..120 {
            if shift_at == Some(i) {
                w.shift_origin(shift).unwrap();
            }
            frame(&mut w, c, &mut vy, Vec3::new(2.0, 0.0, 0.5));
        }
        (
            pos(&w, c),
            w.character_ground(c).unwrap(),
            w.character_velocity(c).unwrap(),
        )
    };
    let (pa, ga, va) = run(None);
    let (pb, gb, vb) = run(Some(40));
    println!("walked to {pa:?}; shifted run at {pb:?}");
    assert_eq!(pb + shift, pa);
    assert_eq!(gb.state, ga.state);
    assert_eq!(gb.normal, ga.normal);
    assert_eq!(vb, va);
    assert!(pa.x > 4.0, "the walk went on: {pa:?}");
}

/// A move that could carry a character to the coordinate limit is refused, naming the
/// reach and the bound, and changes nothing; a smaller one there goes through.
#[test]
fn a_move_past_the_coordinate_limit_is_refused_and_changes_nothing() {
    let mut w = World::new(&def()).unwrap();
    let c = character(&mut w, 0.0, 10.0, 0.0);
    // The character 2^22 − 1 m below the new origin (about 12 m from the limit).
    w.shift_origin(DVec3::new(0.0, 4_194_303.0, 0.0)).unwrap();
    let before = w.hash();
    let at = pos(&w, c);
    match w.move_character(c, Vec3::new(0.0, -1000.0, 0.0), 1.0) {
        Err(maul3d::Error::OutOfBounds { name, value, bound }) => {
            assert_eq!(name, "character reach after the move");
            assert!(value >= bound && bound == 4_194_304.0, "{value} {bound}");
        }
        other => panic!("expected a refusal, got {other:?}"),
    }
    assert_eq!(w.hash(), before);
    assert_eq!(pos(&w, c), at);
    // Sideways a metre stays well inside: allowed.
    w.move_character(c, Vec3::new(1.0, 0.0, 0.0), 1.0).unwrap();
    assert!(pos(&w, c).x > at.x);
}
