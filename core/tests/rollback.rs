//! Snapshot, restore and rollback: a restored world continues bit for bit.

#![allow(clippy::disallowed_methods)] // measuring results in tests, not simulating

mod common;
use common::*;
use maul3d::math::{DVec3, Quat, Vec3};
use maul3d::{BodyDef, BodyId, BodyType, Error, ShapeDef, World, WorldDef};

fn def() -> WorldDef {
    WorldDef {
        body_capacity: 400,
        shape_capacity: 400,
        contact_capacity: 3000,
        pair_capacity: 3000,
        hull_capacity: 8,
        ..Default::default()
    }
}

/// What a scene does between steps, so a restored world can be driven the same way.
type Script = fn(&mut World, u64);

fn pyramid_scene() -> (World, Script) {
    let mut w = World::new(&WorldDef {
        enable_sleep: false,
        ..def()
    })
    .unwrap();
    ground(&mut w, 0.6);
    pyramid(&mut w, 12, DVec3::ZERO);
    (w, |_, _| {})
}

/// A pile that falls asleep, then is woken by a box dropped on it at step 150.
fn sleeping_pile() -> (World, Script) {
    let mut w = World::new(&def()).unwrap();
    ground(&mut w, 0.6);
    let hull = w
        .create_hull(&[
            Vec3::new(-0.4, -0.3, -0.4),
            Vec3::new(0.5, -0.3, -0.3),
            Vec3::new(0.0, -0.35, 0.5),
            Vec3::new(0.1, 0.5, 0.0),
            Vec3::new(0.3, 0.2, 0.3),
        ])
        .unwrap();
    for i in 0..30 {
        let b = w
            .create_body(&BodyDef {
                body_type: BodyType::Dynamic,
                position: DVec3::new((i % 3) as f64 * 0.8 - 0.8, 0.6 + (i / 3) as f64 * 0.9, 0.0),
                rotation: Quat::from_axis_angle(Vec3::Y, i as f32 * 0.3),
                ..Default::default()
            })
            .unwrap();
        match i % 3 {
            0 => w
                .create_box_shape(b, &ShapeDef::default(), Vec3::new(0.4, 0.3, 0.35))
                .map(|_| ()),
            1 => w
                .create_sphere_shape(
                    b,
                    &ShapeDef::default(),
                    &maul3d::Sphere {
                        center: Vec3::ZERO,
                        radius: 0.35,
                    },
                )
                .map(|_| ()),
            _ => w
                .create_hull_shape(b, &ShapeDef::default(), hull)
                .map(|_| ()),
        }
        .unwrap();
    }
    (w, |w, step| {
        if step == 150 {
            let b = w
                .create_body(&BodyDef {
                    body_type: BodyType::Dynamic,
                    position: DVec3::new(0.0, 12.0, 0.0),
                    ..Default::default()
                })
                .unwrap();
            w.create_box_shape(
                b,
                &ShapeDef {
                    density: 4000.0,
                    ..Default::default()
                },
                Vec3::splat(0.5),
            )
            .unwrap();
        }
    })
}

/// Bodies destroyed and created every few steps: id pools, free lists and contacts churn.
fn churn() -> (World, Script) {
    let mut w = World::new(&def()).unwrap();
    ground(&mut w, 0.6);
    for i in 0..40 {
        dynamic_box(
            &mut w,
            DVec3::new((i % 8) as f64 - 4.0, 0.5 + (i / 8) as f64, 0.0),
            Vec3::splat(0.45),
            &ShapeDef::default(),
        );
    }
    (w, |w, step| {
        if step % 7 == 3 {
            let ids: Vec<BodyId> = w.body_ids().collect();
            let victim = ids[1 + (step as usize * 13) % (ids.len() - 1)];
            w.destroy_body(victim).unwrap();
        }
        if step % 5 == 1 {
            let b = w
                .create_body(&BodyDef {
                    body_type: BodyType::Dynamic,
                    position: DVec3::new((step % 9) as f64 - 4.0, 8.0, 0.3),
                    angular_velocity: Vec3::new(1.0, 2.0, 0.5),
                    ..Default::default()
                })
                .unwrap();
            w.create_capsule_shape(
                b,
                &ShapeDef::default(),
                &maul3d::Capsule {
                    center1: Vec3::new(-0.3, 0.0, 0.0),
                    center2: Vec3::new(0.3, 0.0, 0.0),
                    radius: 0.25,
                },
            )
            .unwrap();
        }
        if step % 11 == 0 {
            let ids: Vec<BodyId> = w.body_ids().collect();
            w.apply_linear_impulse_to_center(ids[ids.len() / 2], Vec3::new(0.0, 4.0, 0.0))
                .unwrap();
        }
    })
}

/// A hanging chain, a ragdoll that falls asleep, and a weld that breaks when the script
/// pulls on it at step 100; the chain loses a link at step 80 and the sleeping ragdoll is
/// tied to a post at step 160 (which wakes it).
fn jointed() -> (World, Script) {
    let mut w = World::new(&WorldDef {
        joint_capacity: 64,
        ..def()
    })
    .unwrap();
    ground(&mut w, 0.6);
    hanging_chain(&mut w, DVec3::new(-4.0, 8.0, 0.0), 10);
    ragdoll(&mut w, DVec3::new(2.0, 0.5, 0.0), 1);
    let post = w
        .create_body(&BodyDef {
            position: DVec3::new(0.0, 4.0, 3.0),
            ..Default::default()
        })
        .unwrap();
    let b = dynamic_box(
        &mut w,
        DVec3::new(0.4, 3.5, 3.0),
        Vec3::splat(0.25),
        &ShapeDef::default(),
    );
    let weight = w.body_mass_data(b).unwrap().mass * 10.0;
    let (fa, fb) = w
        .joint_frames_at(post, b, DVec3::new(0.0, 3.75, 3.0), Quat::IDENTITY)
        .unwrap();
    w.create_joint(&maul3d::JointDef {
        body_a: post,
        body_b: b,
        local_frame_a: fa,
        local_frame_b: fb,
        break_force: 3.0 * weight,
        kind: maul3d::JointKind::Weld(Default::default()),
        ..Default::default()
    })
    .unwrap();
    (w, |w, step| {
        let ids: Vec<BodyId> = w.body_ids().collect();
        if step == 80 {
            // The fifth chain link (body 6: ground, chain anchor, then links).
            w.destroy_body(ids[6]).unwrap();
        }
        if step == 100 {
            let b = *ids.last().unwrap();
            let m = w.body_mass_data(b).unwrap().mass;
            w.apply_force_to_center(b, Vec3::new(0.0, -60.0 * m, 0.0))
                .unwrap();
        }
        if step == 160 {
            let post = ids[ids.len() - 2];
            let bone = ids
                .iter()
                .copied()
                .find(|&b| w.body_position(b).unwrap().x > 1.0)
                .unwrap();
            let (fa, fb) = w
                .joint_frames_at(post, bone, DVec3::new(0.0, 4.0, 3.0), Quat::IDENTITY)
                .unwrap();
            w.create_joint(&maul3d::JointDef {
                body_a: post,
                body_b: bone,
                local_frame_a: fa,
                local_frame_b: fb,
                kind: maul3d::JointKind::Distance(maul3d::DistanceJoint {
                    min_length: 0.0,
                    max_length: 2.0,
                    ..Default::default()
                }),
                ..Default::default()
            })
            .unwrap();
        }
    })
}

fn drive(w: &mut World, script: Script, from: u64, steps: u64) -> Vec<u64> {
    let mut hashes = Vec::new();
    for s in from..from + steps {
        script(w, s);
        w.step(DT, SUBSTEPS).unwrap();
        hashes.push(w.hash());
    }
    hashes
}

fn snapshot(w: &World) -> Vec<u8> {
    let mut buf = vec![0u8; w.snapshot_size()];
    let n = w.snapshot(&mut buf).unwrap();
    assert_eq!(n, buf.len());
    buf
}

#[test]
fn a_restored_world_continues_bit_for_bit() {
    for make in [
        pyramid_scene as fn() -> (World, Script),
        sleeping_pile,
        churn,
        jointed,
    ] {
        for n in [0u64, 1, 37, 80, 100, 101, 150, 151, 160, 220] {
            let (mut a, script) = make();
            drive(&mut a, script, 0, n);
            let snap = snapshot(&a);
            let expected = drive(&mut a, script, n, 60);

            let def = World::def_from_snapshot(&snap).unwrap();
            let mut b = World::new(&def).unwrap();
            b.restore(&snap).unwrap();
            assert_eq!(b.hash(), {
                let (mut c, script) = make();
                drive(&mut c, script, 0, n);
                c.hash()
            });
            let got = drive(&mut b, script, n, 60);
            assert_eq!(got, expected, "scene diverged after restoring at step {n}");

            // Restoring into the original world (a rollback) continues the same way.
            a.restore(&snap).unwrap();
            assert_eq!(drive(&mut a, script, n, 60), expected);
        }
    }
}

#[test]
fn the_jointed_scene_sleeps_breaks_and_wakes() {
    let (mut w, script) = jointed();
    let mut broke_at = None;
    let mut slept = false;
    for s in 0..240 {
        script(&mut w, s);
        w.step(DT, SUBSTEPS).unwrap();
        if !w.joint_break_events().is_empty() {
            assert!(broke_at.is_none(), "one break");
            broke_at = Some(s);
        }
        if s == 159 {
            slept = w.counters().awake_body_count < w.body_count() - 2;
        }
        if s == 160 {
            // Tying the sleeping ragdoll to the post woke all of it.
            assert!(w.counters().awake_body_count >= 14);
        }
    }
    assert_eq!(broke_at, Some(100));
    assert!(slept, "the ragdoll slept before step 160");
    // The same world restored in the middle: a joint pool with a free list and a
    // broken joint round-trips byte for byte.
    let s1 = snapshot(&w);
    let mut b = World::new(&World::def_from_snapshot(&s1).unwrap()).unwrap();
    b.restore(&s1).unwrap();
    assert_eq!(snapshot(&b), s1);
    assert_eq!(b.joint_count(), w.joint_count());
}

#[test]
fn snapshot_restore_snapshot_gives_identical_bytes() {
    let (mut a, script) = churn();
    drive(&mut a, script, 0, 90);
    let s1 = snapshot(&a);
    let mut b = World::new(&World::def_from_snapshot(&s1).unwrap()).unwrap();
    b.restore(&s1).unwrap();
    let s2 = snapshot(&b);
    assert_eq!(s1, s2);
    assert_eq!(a.hash(), b.hash());
    // User data travels in the snapshot but not in the hash.
    let id = a.body_ids().nth(3).unwrap();
    a.set_body_user_data(id, 0xfeed).unwrap();
    assert_eq!(a.hash(), b.hash());
    let s3 = snapshot(&a);
    b.restore(&s3).unwrap();
    assert_eq!(
        b.body_user_data(b.body_id_at(id.index - 1).unwrap())
            .unwrap(),
        0xfeed
    );
}

#[test]
fn the_hash_sees_state_and_ignores_observers() {
    let (mut a, script) = sleeping_pile();
    drive(&mut a, script, 0, 30);
    let h = a.hash();
    let _ = a.counters();
    let _ = a.contact_begin_events();
    assert_eq!(a.hash(), h);
    let id = a.body_ids().nth(5).unwrap();
    a.set_body_user_data(id, 42).unwrap();
    assert_eq!(a.hash(), h, "user data is not state");
    a.set_body_sleep_threshold(id, 0.06).unwrap();
    assert_ne!(a.hash(), h, "a setting is state");
}

#[test]
fn damaged_snapshots_are_refused_and_change_nothing() {
    let mut w = World::new(&WorldDef {
        body_capacity: 4,
        shape_capacity: 4,
        contact_capacity: 8,
        pair_capacity: 8,
        hull_capacity: 1,
        event_capacity: 4,
        ..Default::default()
    })
    .unwrap();
    ground(&mut w, 0.6);
    dynamic_box(
        &mut w,
        DVec3::new(0.0, 0.5, 0.0),
        Vec3::splat(0.5),
        &ShapeDef::default(),
    );
    let h = w
        .create_hull(&[Vec3::ZERO, Vec3::X, Vec3::Y, Vec3::Z])
        .unwrap();
    let b = w
        .create_body(&BodyDef {
            body_type: BodyType::Dynamic,
            position: DVec3::new(2.0, 0.3, 0.0),
            ..Default::default()
        })
        .unwrap();
    w.create_hull_shape(b, &ShapeDef::default(), h).unwrap();
    step_n(&mut w, 20);
    let good = snapshot(&w);
    assert!(good.len() < 4096, "small snapshot: {} bytes", good.len());
    step_n(&mut w, 5);
    let before = w.hash();
    for len in 0..good.len() {
        let e = w.restore(&good[..len]).unwrap_err();
        assert!(matches!(e, Error::Format(_)), "truncated to {len}: {e}");
        assert_eq!(w.hash(), before);
    }
    let mut bad = good.clone();
    for byte in 0..good.len() {
        for bit in 0..8 {
            bad[byte] ^= 1 << bit;
            let e = w.restore(&bad).unwrap_err();
            assert!(
                matches!(e, Error::Format(_) | Error::Version { .. }),
                "flip {byte}.{bit}: {e}"
            );
            assert_eq!(w.hash(), before);
            bad[byte] ^= 1 << bit;
        }
    }
    // Another revision, otherwise whole: a version error.
    let mut other = good.clone();
    other[8] = other[8].wrapping_add(1);
    let rev = maul3d::SNAPSHOT_REVISION;
    assert!(matches!(
        w.restore(&other),
        Err(Error::Version { found, expected }) if found == rev + 1 && expected == rev
    ));
    // A world too small to hold the snapshot is refused, naming the capacity.
    let mut small = World::new(&WorldDef {
        body_capacity: 1,
        ..WorldDef::default()
    })
    .unwrap();
    assert!(matches!(
        small.restore(&good),
        Err(Error::TooSmall {
            what: "body_capacity",
            capacity: 1,
            ..
        })
    ));
    w.restore(&good).unwrap();
    assert_ne!(w.hash(), before);
}

#[test]
fn a_snapshot_buffer_too_small_is_refused() {
    let (w, _) = pyramid_scene();
    let mut buf = vec![0u8; w.snapshot_size() - 1];
    assert!(w.snapshot(&mut buf).is_err());
}

#[test]
fn compare_lists_differing_bodies_worst_first() {
    let (mut a, script) = churn();
    drive(&mut a, script, 0, 40);
    let snap = snapshot(&a);
    let mut b = World::new(&World::def_from_snapshot(&snap).unwrap()).unwrap();
    b.restore(&snap).unwrap();
    let mut rows = [maul3d::BodyDiff::default(); 4];
    assert_eq!(World::compare(&a, &b, &mut rows), 0);
    let ids: Vec<BodyId> = b.body_ids().collect();
    b.set_body_transform(ids[5], DVec3::new(30.0, 5.0, 0.0), Quat::IDENTITY)
        .unwrap();
    b.set_body_linear_velocity(ids[8], Vec3::new(0.0, 0.01, 0.0))
        .unwrap();
    b.destroy_body(ids[9]).unwrap();
    let n = World::compare(&a, &b, &mut rows);
    assert_eq!(n, 3);
    assert!(
        rows[0].alive_in_a && !rows[0].alive_in_b,
        "a body alive in one world is worst"
    );
    assert_eq!(rows[1].slot + 1, ids[5].index);
    assert!(rows[1].position_error > 20.0);
    assert_eq!(rows[2].slot + 1, ids[8].index);
    assert!(rows[2].velocity_error > 0.0 && rows[2].position_error == 0.0);
}
