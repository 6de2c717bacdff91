//! Issue "Trust": every state a world steps into restores and continues bit for bit, no
//! NaN from valid input, and a world never locks itself up. Each test here failed before
//! its fix; the snapshots in `tests/repro/` are worlds found by long random call
//! sequences (see `tests/repro/README.md`).

#![allow(clippy::disallowed_methods)] // measuring results in tests, not simulating

mod common;
use common::*;
use maul3d::math::{DVec3, Vec3};
use maul3d::{BodyDef, BodyType, ShapeDef, World};

/// Snapshot `w`, restore it into a fresh world made from the snapshot's own def.
fn restored(w: &World) -> World {
    let mut buf = vec![0u8; w.snapshot_size()];
    let n = w.snapshot(&mut buf).unwrap();
    let def = World::def_from_snapshot(&buf[..n]).unwrap();
    let mut fresh = World::new(&def).unwrap();
    fresh.restore(&buf[..n]).unwrap();
    assert_eq!(fresh.hash(), w.hash());
    fresh
}

/// Steps the live world and a restored twin `steps` times; their hashes must agree after
/// every step.
fn assert_restore_continues(w: &mut World, dt: f32, substeps: u32, steps: u32) {
    let mut twin = restored(w);
    for i in 0..steps {
        w.step(dt, substeps).unwrap();
        twin.step(dt, substeps).unwrap();
        assert_eq!(w.hash(), twin.hash(), "restored world diverged at step {i}");
    }
}

fn load_repro(name: &str) -> World {
    let path = format!("{}/tests/repro/{name}", env!("CARGO_MANIFEST_DIR"));
    let bytes = std::fs::read(&path).unwrap();
    let def = World::def_from_snapshot(&bytes).unwrap();
    let mut w = World::new(&def).unwrap();
    w.restore(&bytes).unwrap();
    w
}

/// Root cause of `journal_step_seed11_op17556`: changing the type of a disabled body gave
/// its shapes broad-phase proxies (restore gives proxies to enabled bodies only), so the
/// live world paired a disabled body's shape with a passing body and a restored one did
/// not.
#[test]
fn a_disabled_body_whose_type_changes_stays_out_of_the_broad_phase() {
    let mut w = world(false);
    ground(&mut w, 0.6);
    let disabled = w
        .create_body(&BodyDef {
            position: DVec3::new(0.0, 3.0, 0.0),
            is_enabled: false,
            ..Default::default()
        })
        .unwrap();
    w.create_box_shape(disabled, &ShapeDef::default(), Vec3::new(1.0, 0.2, 1.0))
        .unwrap();
    w.set_body_type(disabled, BodyType::Kinematic).unwrap();
    w.set_body_type(disabled, BodyType::Static).unwrap();
    let falling = dynamic_box(
        &mut w,
        DVec3::new(0.0, 5.0, 0.0),
        Vec3::new(0.3, 0.3, 0.3),
        &ShapeDef::default(),
    );
    assert_restore_continues(&mut w, DT, SUBSTEPS, 90);
    // The falling box passed through the disabled body and rests on the ground.
    let y = w.body_position(falling).unwrap().y;
    assert!((y - 0.3).abs() < 0.02, "box at y = {y}");
    assert_eq!(w.counters().contact_count, 1);
}

/// Every live body's state is finite and a dynamic body moves within the caps.
fn assert_sane(w: &World, what: &str) {
    let max_speed = w.def().max_linear_speed;
    for slot in 0..w.def().body_capacity {
        let Some(b) = w.body_id_at(slot) else {
            continue;
        };
        let p = w.body_position(b).unwrap();
        let q = w.body_rotation(b).unwrap();
        let v = w.body_linear_velocity(b).unwrap();
        let a = w.body_angular_velocity(b).unwrap();
        let finite = [p.x, p.y, p.z].iter().all(|x| x.is_finite())
            && [q.x, q.y, q.z, q.w, v.x, v.y, v.z, a.x, a.y, a.z]
                .iter()
                .all(|x| x.is_finite());
        assert!(
            finite,
            "{what}: body slot {slot} not finite: {p:?} {q:?} {v:?} {a:?}"
        );
        if w.body_type(b).unwrap() == BodyType::Dynamic {
            assert!(
                v.length() <= max_speed * 1.0001,
                "{what}: body slot {slot} at {} m/s, cap {max_speed}",
                v.length()
            );
            assert!(
                a.length() <= maul3d::limits::MAX_ANGULAR_SPEED * 1.0001,
                "{what}: body slot {slot} spins at {} rad/s",
                a.length()
            );
        }
    }
}

/// The repro snapshots of NaN from huge valid shapes and of joint-driven speeds past the
/// cap: one step as found, then the world is finite, within its caps, its own snapshot
/// restores, and the restored world continues bit for bit.
#[test]
fn repro_worlds_step_into_states_their_snapshots_restore() {
    // The journal_step pair: the second was written by a live world that had given a
    // disabled body's shape a broad-phase proxy (see the first test), so no correct
    // engine reproduces it from the first; both still restore and continue.
    let cases: [(&str, f32, u32); 7] = [
        ("journal_step_seed11_op17556.bin", 0.09144498, 2),
        ("journal_step_seed11_op17556_after_live.bin", 0.09144498, 2),
        ("nan_snap_seed12_op32351.bin", 0.033333335, 4),
        ("deadcontact_snap_seed12_op20467.bin", 1.0 / 60.0, 4),
        ("nan_min.bin", 0.033333335, 4),
        ("min_snap.bin", 0.09177957, 4),
        ("vel_snap_seed3_op1715.bin", 1.0 / 30.0, 1),
    ];
    for (name, dt, substeps) in cases {
        let mut w = load_repro(name);
        w.step(dt, substeps).unwrap();
        assert_sane(&w, name);
        assert_restore_continues(&mut w, dt, substeps, 20);
        assert_sane(&w, name);
    }
}

/// A sphere of radius 168,384 m spinning at 2,546 rad/s on a ground box moved 3.57e6 m in
/// one step and reported no velocity. A body now travels at most the speed cap times the
/// step, and what it reports is what it did.
#[test]
fn a_huge_spinning_sphere_moves_no_faster_than_the_cap() {
    let mut w = world(false);
    ground(&mut w, 0.6);
    let r = 168_384.0f32;
    let b = w
        .create_body(&BodyDef {
            body_type: BodyType::Dynamic,
            position: DVec3::new(0.0, r as f64 - 0.01, 0.0),
            angular_velocity: Vec3::new(300.0, -1200.0, 2546.0),
            ..Default::default()
        })
        .unwrap();
    w.create_sphere_shape(
        b,
        &ShapeDef::default(),
        &maul3d::Sphere {
            center: Vec3::ZERO,
            radius: r,
        },
    )
    .unwrap();
    let cap = w.def().max_linear_speed as f64;
    for step in 0..30 {
        let p0 = w.body_position(b).unwrap();
        w.step(DT, SUBSTEPS).unwrap();
        assert_sane(&w, "spinning sphere");
        let d = w.body_position(b).unwrap() - p0;
        let moved = (d.x * d.x + d.y * d.y + d.z * d.z).sqrt();
        assert!(
            moved <= cap * DT as f64 * 1.001,
            "step {step}: moved {moved} m, cap {cap} m/s"
        );
    }
    assert_restore_continues(&mut w, DT, SUBSTEPS, 10);
}

/// A world with an ordinary box on the ground and a body racing towards +x at 1e5 m/s,
/// stepped at dt 10 s until the step that could carry it past 2^22 m is refused.
fn world_with_a_body_at_the_edge(body_type: BodyType) -> (World, maul3d::BodyId, maul3d::Error) {
    let mut w = World::new(&maul3d::WorldDef {
        max_linear_speed: 100_000.0,
        ..*world(false).def()
    })
    .unwrap();
    ground(&mut w, 0.6);
    dynamic_box(
        &mut w,
        DVec3::new(0.0, 0.5, 0.0),
        Vec3::splat(0.5),
        &ShapeDef::default(),
    );
    let b = w
        .create_body(&BodyDef {
            body_type,
            position: DVec3::new(2_097_150.0, 0.0, 0.0),
            linear_velocity: Vec3::new(100_000.0, 0.0, 0.0),
            gravity_scale: 0.0,
            ..Default::default()
        })
        .unwrap();
    w.create_box_shape(b, &ShapeDef::default(), Vec3::ONE)
        .unwrap();
    for _ in 0..5 {
        let h = w.hash();
        if let Err(e) = w.step(10.0, 1) {
            assert_eq!(w.hash(), h, "the refused step changed the world");
            return (w, b, e);
        }
        assert_sane(&w, "racing body");
    }
    panic!("no step was refused");
}

/// Issue 12, item 4: a world whose body had left ±2^22 refused every later step, even
/// with that body destroyed. Now the step that could carry it past is refused before it
/// runs, naming the body, and the world steps again as soon as the body is dealt with.
#[test]
fn a_world_steps_again_once_the_body_at_the_edge_is_destroyed_moved_or_slowed() {
    use maul3d::Error;
    for body_type in [BodyType::Dynamic, BodyType::Kinematic] {
        for remedy in 0..5 {
            let (mut w, b, e) = world_with_a_body_at_the_edge(body_type);
            assert!(
                matches!(e, Error::BodyOutOfBounds { body, bound, .. } if body == b && bound == 4_194_304.0),
                "{e}"
            );
            assert!(e.to_string().contains("could reach"), "{e}");
            // The world it stopped in restores (nothing past the bound was stored).
            let _ = restored(&w);
            match remedy {
                0 => w.destroy_body(b).unwrap(),
                1 => w
                    .set_body_transform(
                        b,
                        DVec3::new(10.0, 50.0, 0.0),
                        maul3d::math::Quat::IDENTITY,
                    )
                    .unwrap(),
                2 => w.set_body_enabled(b, false).unwrap(),
                3 => w.set_body_type(b, BodyType::Static).unwrap(),
                // Slowing works for a kinematic body (it keeps its velocity); a dynamic
                // body's reach is the world's speed cap, so lower the step instead.
                _ if body_type == BodyType::Kinematic => {
                    w.set_body_linear_velocity(b, Vec3::ZERO).unwrap()
                }
                _ => {
                    w.step(DT, SUBSTEPS).unwrap();
                }
            }
            for _ in 0..10 {
                w.step(DT, SUBSTEPS).unwrap();
            }
            assert_sane(&w, "after the remedy");
            assert_restore_continues(&mut w, DT, SUBSTEPS, 5);
        }
    }
}

/// Property seed 277687: a body whose only shape sits 1e6 m from the body's origin turns
/// about its centre of mass, so its origin — the stored position — swings up to twice
/// that offset while the shape stays put. The step's bounds check counted the offset once
/// and let a step carry the origin past 2^22; the world's own snapshot was then refused.
/// Now a step that could swing the origin out is refused, naming the body, and one that
/// cannot runs and still restores.
#[test]
fn a_body_whose_origin_lies_far_from_its_shape_cannot_swing_it_past_the_bound() {
    use maul3d::Error;
    use maul3d::math::Quat;
    let turning = |origin_y: f64| {
        let mut w = World::new(&maul3d::WorldDef {
            gravity: Vec3::ZERO,
            ..*world(false).def()
        })
        .unwrap();
        let b = w
            .create_body(&BodyDef {
                body_type: BodyType::Dynamic,
                position: DVec3::new(0.0, origin_y - 2.0e6, 0.0),
                // Half a turn a second about z, through the centre of mass.
                angular_velocity: Vec3::new(0.0, 0.0, std::f32::consts::PI),
                ..Default::default()
            })
            .unwrap();
        w.create_offset_box_shape(
            b,
            &ShapeDef::default(),
            Vec3::splat(0.5),
            Vec3::new(0.0, 1.0e6, 0.0),
            Quat::IDENTITY,
        )
        .unwrap();
        // Bodies are created within 2^21; the origin shift carries this one out.
        w.shift_origin(DVec3::new(0.0, -2.0e6, 0.0)).unwrap();
        assert_eq!(w.body_position(b).unwrap().y, origin_y);
        (w, b)
    };
    // The origin 2.2e6 m up and the shape 1e6 m above it: half a turn would leave the
    // origin 4.2e6 m up, past 2^22 (4,194,304).
    let (mut w, b) = turning(2.2e6);
    let h = w.hash();
    let e = w.step(1.0, 8).unwrap_err();
    assert!(
        matches!(e, Error::BodyOutOfBounds { body, value, .. } if body == b && value >= 4.2e6),
        "{e}"
    );
    assert_eq!(w.hash(), h, "the refused step changed the world");
    // The same turn from 2.0e6 m runs: the origin really swings to about 4.0e6 m.
    let (mut w, b) = turning(2.0e6);
    w.step(1.0, 8).unwrap();
    let y = w.body_position(b).unwrap().y;
    assert!((3.99e6..4.01e6).contains(&y), "origin at y = {y}");
    assert_sane(&w, "after half a turn");
    // Its own snapshot restores; another turn could swing the origin out, so the next
    // step is refused until the body is dealt with.
    let _ = restored(&w);
    assert!(matches!(w.step(DT, SUBSTEPS), Err(Error::BodyOutOfBounds { body, .. }) if body == b));
    w.destroy_body(b).unwrap();
    w.step(DT, SUBSTEPS).unwrap();
}

/// A static body holding a 4×4-cell floor as a triangle mesh (`height_field` false) or a
/// height field, with boxes resting across several of its triangles.
fn boxes_on_a_floor(height_field: bool) -> (World, maul3d::BodyId, Vec<maul3d::BodyId>) {
    let mut w = world(false);
    let floor = w
        .create_body(&BodyDef {
            position: DVec3::new(-4.0, 0.0, -4.0),
            ..Default::default()
        })
        .unwrap();
    let mesh = if height_field {
        let heights = [0.0f32; 25];
        w.create_height_field(&maul3d::HeightFieldDef {
            count_x: 5,
            count_z: 5,
            heights: &heights,
            holes: &[],
            scale: Vec3::new(2.0, 1.0, 2.0),
        })
        .unwrap()
    } else {
        let mut vertices = Vec::new();
        for z in 0..5 {
            for x in 0..5 {
                vertices.push(Vec3::new(x as f32 * 2.0, 0.0, z as f32 * 2.0));
            }
        }
        let mut triangles = Vec::new();
        for z in 0..4u32 {
            for x in 0..4u32 {
                let i = z * 5 + x;
                triangles.push([i, i + 5, i + 1]);
                triangles.push([i + 1, i + 5, i + 6]);
            }
        }
        w.create_mesh(&vertices, &triangles).unwrap()
    };
    w.create_mesh_shape(floor, &ShapeDef::default(), mesh)
        .unwrap();
    let boxes = (0..3)
        .map(|i| {
            dynamic_box(
                &mut w,
                DVec3::new(i as f64 * 2.0 - 2.0, 0.5, 0.0),
                Vec3::new(1.5, 0.5, 1.5),
                &ShapeDef::default(),
            )
        })
        .collect();
    for _ in 0..30 {
        w.step(DT, SUBSTEPS).unwrap();
    }
    (w, floor, boxes)
}

/// Issue 12, item 5: a joint (not colliding its bodies) between a body resting on a mesh
/// or height field and the mesh's own body tripped `contact.alive`: the pair's triangle
/// contacts, gone with their pair, were destroyed a second time.
#[test]
fn a_joint_to_the_mesh_a_body_rests_on_ends_their_contacts_once() {
    for height_field in [false, true] {
        let (mut w, floor, boxes) = boxes_on_a_floor(height_field);
        assert!(w.counters().touching_contact_count >= 3);
        let before = w.counters().contact_count;
        for &b in &boxes[..2] {
            w.create_joint(&maul3d::JointDef {
                body_a: floor,
                body_b: b,
                kind: maul3d::JointKind::Spherical,
                collide_connected: false,
                ..Default::default()
            })
            .unwrap();
        }
        assert!(w.counters().contact_count < before);
        assert_restore_continues(&mut w, DT, SUBSTEPS, 20);
        assert_sane(&w, "boxes jointed to their floor");
        // The third box still rests on the floor.
        let y = w.body_position(boxes[2]).unwrap().y;
        assert!((y - 0.5).abs() < 0.05, "free box at y = {y}");
    }
}
