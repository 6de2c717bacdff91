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

pub fn load_repro(name: &str) -> World {
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
