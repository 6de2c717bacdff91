//! Replays every input the fuzzers ever crashed on (`fuzz/regressions/<target>/`) and every
//! committed corpus file (`fuzz/corpus/<target>/`) through the fuzz harness itself
//! (`fuzz/src/lib.rs`, included here), so a fixed crash stays fixed under plain
//! `cargo test`. The corpus seeds named `seed-*` must also still be accepted.
//!
//! The seeds are written by `write_corpus_seeds` below:
//! `cargo test -p maul3d --test fuzz_regressions -- --ignored write_corpus_seeds`
//!
//! Inputs in `fuzz/open/<target>/` still crash (a known open class, see fuzz/README.md);
//! `open_crash_inputs` replays them and is ignored until that class is fixed.

#![allow(clippy::disallowed_methods)] // the harness measures, it does not simulate

#[allow(dead_code)]
#[path = "../../fuzz/src/lib.rs"]
mod harness;

use maul3d::math::{DVec3, Mat3, Quat, Vec3};
use maul3d::{BodyDef, BodyType, Error, MassData, ShapeDef, World, WorldDef, decode_replay};
use std::path::{Path, PathBuf};

fn fuzz_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../fuzz")
}

/// Files of a folder in name order (none if it does not exist).
fn files(dir: &Path) -> Vec<PathBuf> {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut v: Vec<PathBuf> = rd
        .map(|e| e.expect("read_dir entry").path())
        .filter(|p| p.is_file())
        .collect();
    v.sort();
    v
}

fn replay_all(kind: &str) -> usize {
    let mut n = 0;
    for target in harness::TARGETS {
        for f in files(&fuzz_dir().join(kind).join(target)) {
            let data = std::fs::read(&f).expect("read fuzz input");
            let r = std::panic::catch_unwind(|| harness::fuzz(target, &data));
            assert!(r.is_ok(), "{target}: {} panics", f.display());
            n += 1;
        }
    }
    n
}

#[test]
fn crash_inputs_found_by_the_fuzzers_no_longer_crash() {
    // Passes with an empty folder; each file there is a past crash, now fixed.
    replay_all("regressions");
}

#[test]
#[ignore = "known open: finite but extreme values overflow to NaN in the step (fuzz/README.md)"]
fn open_crash_inputs() {
    replay_all("open");
}

#[test]
fn corpus_inputs_run_clean_through_the_harness() {
    let n = replay_all("corpus");
    assert!(n >= 3 * 5, "the committed corpus is missing ({n} files)");
}

#[test]
fn corpus_seeds_are_still_accepted() {
    let regenerate = "the format changed: regenerate the seeds with `cargo test -p maul3d \
                      --test fuzz_regressions -- --ignored write_corpus_seeds`";
    for target in harness::TARGETS {
        let seeds: Vec<PathBuf> = files(&fuzz_dir().join("corpus").join(target))
            .into_iter()
            .filter(|p| {
                p.file_name()
                    .unwrap()
                    .to_string_lossy()
                    .starts_with("seed-")
            })
            .collect();
        assert!(seeds.len() >= 3, "{target}: too few seeds");
        for f in seeds {
            let data = std::fs::read(&f).unwrap();
            let ok = match target {
                "restore" => World::def_from_snapshot(&data)
                    .and_then(|def| World::new(&def))
                    .and_then(|mut w| w.restore(&data))
                    .is_ok(),
                "replay_journal" => harness::fixture().replay_journal(&data).is_ok(),
                _ => decode_replay(&data).is_ok(),
            };
            assert!(ok, "{}: {regenerate}", f.display());
        }
    }
}

#[test]
#[ignore = "writes fuzz/corpus/*/ seed files; run by hand after a format change"]
fn write_corpus_seeds() {
    for (target, name, bytes) in harness::corpus_seeds() {
        let dir = fuzz_dir().join("corpus").join(target);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join(name), bytes).unwrap();
    }
}

// --------------------------------------------------------------------------------------
// The bugs the fuzzers found, as plain calls (their inputs are in fuzz/regressions/).

fn dynamic_body(w: &mut World, y: f64) -> maul3d::BodyId {
    w.create_body(&BodyDef {
        body_type: BodyType::Dynamic,
        position: DVec3::new(0.0, y, 0.0),
        ..Default::default()
    })
    .unwrap()
}

fn assert_steps_finite(w: &mut World, body: maul3d::BodyId) {
    for _ in 0..30 {
        w.step(1.0 / 60.0, 4).unwrap();
    }
    let p = w.body_position(body).unwrap();
    assert!(
        p.x.is_finite() && p.y.is_finite() && p.z.is_finite(),
        "{p:?}"
    );
    let mut snap = vec![0u8; w.snapshot_size()];
    w.snapshot(&mut snap).unwrap();
    let mut twin = World::new(&World::def_from_snapshot(&snap).unwrap()).unwrap();
    twin.restore(&snap).unwrap();
}

/// A force or impulse at a point far beyond f32 range (a finite f64) made the lever arm
/// infinite and the torque NaN: the next step panicked in the broad phase.
#[test]
fn a_force_point_beyond_the_coordinate_limit_is_refused() {
    let mut w = harness::fixture();
    let b = dynamic_body(&mut w, 2.0);
    w.create_box_shape(b, &ShapeDef::default(), Vec3::splat(0.3))
        .unwrap();
    let far = DVec3::new(-2.2e43, 2.0, 0.0);
    let before = w.hash();
    let f = Vec3::new(0.0, 40.0, 0.0);
    assert!(matches!(
        w.apply_force(b, f, far),
        Err(Error::OutOfBounds { .. })
    ));
    assert!(matches!(
        w.apply_linear_impulse(b, f, far),
        Err(Error::OutOfBounds { .. })
    ));
    assert_eq!(w.hash(), before);
    w.apply_force(b, f, DVec3::new(1.0, 2.0, 0.0)).unwrap();
    assert_steps_finite(&mut w, b);
}

/// A shape whose mass is subnormal (a tiny density or extent) gave 1/mass = inf: the
/// centre of mass became 0 * inf = NaN. Such a mass now counts as no mass.
#[test]
fn a_subnormal_mass_does_not_make_nan() {
    let mut w = harness::fixture();
    let b = dynamic_body(&mut w, 3.0);
    w.create_box_shape(b, &ShapeDef::default(), Vec3::new(0.3, 0.3, 1.5e-42))
        .unwrap();
    let c = dynamic_body(&mut w, 1.0);
    let light = ShapeDef {
        density: 1.4e-38,
        ..Default::default()
    };
    w.create_box_shape(c, &light, Vec3::splat(0.2)).unwrap();
    for id in [b, c] {
        let m = w.body_mass_data(id).unwrap();
        assert!(m.mass.is_finite() && m.center.is_valid(), "{m:?}");
    }
    assert_steps_finite(&mut w, b);
    assert!(w.body_position(c).unwrap().y.is_finite());
    // An override that small is refused outright.
    let tiny = MassData {
        mass: 1e-39,
        center: Vec3::ZERO,
        inertia: Mat3::diagonal(Vec3::splat(1.0)),
    };
    assert!(matches!(
        w.set_body_mass_data(b, Some(tiny)),
        Err(Error::Argument { .. })
    ));
}

/// A rotation with an infinite norm² (components near f32::MAX) normalized to the zero
/// quaternion: the world's own snapshot and tape were then refused on restore and replay.
#[test]
fn a_rotation_of_infinite_norm_is_refused() {
    let mut w = harness::fixture();
    let huge = Quat::new(0.0, 0.125, 0.0, 4.26e37);
    let def = BodyDef {
        body_type: BodyType::Dynamic,
        position: DVec3::new(0.0, 0.6, 0.0),
        rotation: huge,
        ..Default::default()
    };
    assert!(matches!(w.create_body(&def), Err(Error::Argument { .. })));
    let b = dynamic_body(&mut w, 0.6);
    assert!(matches!(
        w.set_body_transform(b, DVec3::new(0.0, 1.0, 0.0), huge),
        Err(Error::Argument { .. })
    ));
    assert!(matches!(
        w.create_offset_box_shape(b, &ShapeDef::default(), Vec3::splat(0.2), Vec3::ZERO, huge),
        Err(Error::Argument { .. })
    ));
    w.create_sphere_shape(
        b,
        &ShapeDef::default(),
        &maul3d::Sphere {
            center: Vec3::ZERO,
            radius: 0.3,
        },
    )
    .unwrap();
    assert_steps_finite(&mut w, b);
}

/// `restore` took any positive `max_linear_speed` while `World::new` wants at least 1e-3:
/// a world restored from such a snapshot wrote a snapshot whose def built no world.
#[test]
fn restore_refuses_settings_that_world_new_refuses() {
    let w = harness::fixture();
    let mut snap = vec![0u8; w.snapshot_size()];
    w.snapshot(&mut snap).unwrap();
    // Payload: nine u32 capacities, the content capacity (u64), five more capacities, the
    // soft body exception bound and the stores byte, gravity, four settings, then
    // max_linear_speed.
    let at = maul3d::SNAPSHOT_HEADER_SIZE + 9 * 4 + 8 + 5 * 4 + 2 + 3 * 4 + 4 * 4;
    assert_eq!(snap[at..at + 4], 400.0f32.to_le_bytes());
    snap[at..at + 4].copy_from_slice(&1.16e-40f32.to_le_bytes());
    harness::fix_snapshot(&mut snap);
    let mut t = harness::fixture();
    let before = t.hash();
    assert!(matches!(t.restore(&snap), Err(Error::Format(_))));
    assert_eq!(t.hash(), before);
    let def = World::def_from_snapshot(&snap).unwrap();
    assert!(World::new(&def).is_err());
}

/// A joint spring of subnormal stiffness and no damping: h·ω underflowed to 0 in the soft
/// coefficients and ω / 0 made the step NaN (found by `replay_journal`).
#[test]
fn a_subnormal_spring_stiffness_does_not_make_nan() {
    use maul3d::{JointDef, JointKind, SixDofAxis, SixDofJoint};
    let mut w = harness::fixture();
    let b = dynamic_body(&mut w, 0.6);
    let ground = w.body_ids().next().unwrap();
    let mut axes = [SixDofAxis::default(); 6];
    axes[2].spring_hertz = 1.1e-44;
    axes[0] = SixDofAxis {
        spring_hertz: 1.1e-44,
        ..SixDofAxis::FREE
    };
    w.create_joint(&JointDef {
        body_a: ground,
        body_b: b,
        kind: JointKind::SixDof(SixDofJoint { axes }),
        ..Default::default()
    })
    .unwrap();
    assert_steps_finite(&mut w, b);
}

/// A restored step count of u64::MAX overflowed on the next step (found by
/// `decode_replay`): it wraps.
#[test]
fn the_step_count_wraps_instead_of_overflowing() {
    let w = harness::fixture();
    let mut snap = vec![0u8; w.snapshot_size()];
    w.snapshot(&mut snap).unwrap();
    // Payload: nine u32 capacities, the content capacity (u64), five more capacities, the
    // soft body exception bound and the stores byte, gravity, six settings, the sleep
    // flag, the hit event threshold, the step count.
    let at = maul3d::SNAPSHOT_HEADER_SIZE + 9 * 4 + 8 + 5 * 4 + 2 + 3 * 4 + 6 * 4 + 1 + 4;
    assert_eq!(snap[at..at + 8], 0u64.to_le_bytes());
    snap[at..at + 8].copy_from_slice(&u64::MAX.to_le_bytes());
    harness::fix_snapshot(&mut snap);
    let mut t = harness::fixture();
    t.restore(&snap).unwrap();
    assert_eq!(t.step_count(), u64::MAX);
    t.step(1.0 / 60.0, 4).unwrap();
    assert_eq!(t.step_count(), 0);
}

/// Damaged mesh content inside a snapshot whose checksum was patched to match: a NaN
/// vertex, an index past the vertex count and a collapsed (degenerate) triangle are each
/// refused as a format error, and the world restored into is left as it was.
#[test]
fn a_snapshot_with_damaged_mesh_content_is_refused_and_changes_nothing() {
    let mut w = harness::fixture();
    // Vertices with marker coordinates, so the test can find their bytes.
    let v = [
        Vec3::new(123.25, 0.0, 0.0),
        Vec3::new(124.25, 0.0, 0.0),
        Vec3::new(123.25, 0.0, 1.0),
    ];
    w.create_mesh(&v, &[[0, 2, 1]]).unwrap();
    let mut snap = vec![0u8; w.snapshot_size()];
    w.snapshot(&mut snap).unwrap();
    let find = |bytes: &[u8], pat: &[u8]| bytes.windows(pat.len()).position(|x| x == pat).unwrap();
    let marker = 123.25f32.to_le_bytes();
    let first = find(&snap, &marker);
    // The triangle's indices follow the three vertices and the triangle count.
    let tri = first + 3 * 12 + 4;
    assert_eq!(snap[tri..tri + 12], [0, 0, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0]);
    let mut cases = Vec::new();
    let mut nan = snap.clone();
    nan[first..first + 4].copy_from_slice(&f32::NAN.to_le_bytes());
    cases.push(nan);
    let mut index = snap.clone();
    index[tri..tri + 4].copy_from_slice(&3u32.to_le_bytes());
    cases.push(index);
    let mut collapsed = snap.clone();
    // The second vertex onto the first: two equal corners.
    collapsed[first + 12..first + 16].copy_from_slice(&marker);
    cases.push(collapsed);
    for mut bad in cases {
        harness::fix_snapshot(&mut bad);
        let mut t = harness::fixture();
        t.create_mesh(&v, &[[0, 2, 1]]).unwrap();
        let before = t.hash();
        assert!(matches!(t.restore(&bad), Err(Error::Format(_))));
        assert_eq!(t.hash(), before);
    }
    // The undamaged snapshot restores.
    let mut t = harness::fixture();
    t.restore(&snap).unwrap();
    assert_eq!(t.hash(), w.hash());
}

/// Found by the property test (seed 67, Medium): a character created with an up of
/// (1000, -0.259, -0.152) stores `up.normalize()`, whose own normalisation differs in the
/// last bit, and restore demanded the stored up equal its normalisation: the world's own
/// snapshot was refused ("a character's up is not unit length").
#[test]
fn a_character_with_an_up_normalised_off_by_a_bit_restores() {
    let up = Vec3::new(1000.0, -0.259_035_56, -0.151_837_59);
    let mut w = harness::fixture();
    let c = w
        .create_character(&maul3d::CharacterDef {
            position: DVec3::new(2.0, 3.0, -1.0),
            up,
            ..Default::default()
        })
        .unwrap();
    w.move_character(c, Vec3::new(0.5, 0.0, 0.0), 1.0 / 60.0)
        .unwrap();
    let mut snap = vec![0u8; w.snapshot_size()];
    w.snapshot(&mut snap).unwrap();
    let mut t = World::new(&World::def_from_snapshot(&snap).unwrap()).unwrap();
    t.restore(&snap).unwrap();
    assert_eq!(t.hash(), w.hash());
    w.step(1.0 / 60.0, 4).unwrap();
    t.step(1.0 / 60.0, 4).unwrap();
    assert_eq!(t.hash(), w.hash());
}

/// Found by the property test (seed 121, Small): `create_character` with the shape pool
/// full made its inner body, failed on the capsule and destroyed the body again; the
/// refusal left the body slot's generation moved, so the hash changed.
#[test]
fn a_character_refused_for_a_full_shape_pool_changes_nothing() {
    let mut w = World::new(&WorldDef {
        body_capacity: 4,
        shape_capacity: 1,
        ..harness::small_def()
    })
    .unwrap();
    let b = w.create_body(&BodyDef::default()).unwrap();
    w.create_box_shape(b, &ShapeDef::default(), Vec3::splat(1.0))
        .unwrap();
    let before = w.hash();
    let r = w.create_character(&maul3d::CharacterDef {
        position: DVec3::new(0.0, 3.0, 0.0),
        ..Default::default()
    });
    assert!(
        matches!(
            r,
            Err(Error::Capacity {
                what: "shape_capacity",
                ..
            })
        ),
        "{r:?}"
    );
    assert_eq!(w.hash(), before);
    assert_eq!(w.body_count(), 1);
}

/// Found by the property test (seeds 99, 207, 219): a move of subnormal `dt` stored its
/// displacement / dt, an infinite velocity, and the world refused its own snapshot ("a
/// character's vector is not finite").
#[test]
fn a_character_moved_over_a_subnormal_dt_keeps_a_finite_velocity() {
    let mut w = harness::fixture();
    let c = w
        .create_character(&maul3d::CharacterDef {
            position: DVec3::new(2.0, 3.0, -1.0),
            ..Default::default()
        })
        .unwrap();
    for dt in [1.0e-40f32, 1.0e-30, 1.0e-12] {
        w.move_character(c, Vec3::new(1.0e4, -1.0e4, 0.0), dt)
            .unwrap();
        let v = w.character_velocity(c).unwrap();
        assert!(
            v.x.is_finite() && v.y.is_finite() && v.z.is_finite(),
            "{dt}: {v:?}"
        );
        let mut snap = vec![0u8; w.snapshot_size()];
        w.snapshot(&mut snap).unwrap();
        let mut t = World::new(&World::def_from_snapshot(&snap).unwrap()).unwrap();
        t.restore(&snap).unwrap();
        assert_eq!(t.hash(), w.hash());
    }
}

/// Found by the property test (seed 319): a body of subnormal volume (1e-45 m³) in water
/// had a centre of buoyancy of moment / volume = NaN.
#[test]
fn a_body_of_subnormal_volume_in_water_has_a_finite_centre_of_buoyancy() {
    let mut w = harness::fixture();
    let water = w
        .create_water_volume(&maul3d::WaterVolumeDef {
            center: DVec3::new(0.0, 5.0, 0.0),
            half_extents: Vec3::new(4.0, 2.0, 4.0),
            ..Default::default()
        })
        .unwrap();
    let b = w
        .create_body(&BodyDef {
            body_type: maul3d::BodyType::Dynamic,
            position: DVec3::new(0.0, 5.0, 0.0),
            ..Default::default()
        })
        .unwrap();
    w.create_box_shape(
        b,
        &ShapeDef::default(),
        Vec3::new(1.0e-15, 1.0e-15, 1.0e-15),
    )
    .unwrap();
    let buoyancy = w.water_buoyancy(water, b).unwrap();
    assert!(
        buoyancy.center_of_buoyancy.x.is_finite()
            && buoyancy.center_of_buoyancy.y.is_finite()
            && buoyancy.center_of_buoyancy.z.is_finite(),
        "{buoyancy:?}"
    );
    for _ in 0..10 {
        w.step(1.0 / 60.0, 4).unwrap();
    }
    assert!(w.body_position(b).unwrap().y.is_finite());
}

/// A snapshot whose recorded soft particle capacity is below what its soft bodies hold
/// restored into a larger world, though a world of its own def (`def_from_snapshot`)
/// could not hold it. Refused now, as every other store's count over its recorded
/// capacity is.
#[test]
fn a_snapshot_holding_more_particles_than_it_records_is_refused() {
    let mut w = harness::fixture();
    let v = [
        Vec3::new(0.0, 0.0, 0.0),
        Vec3::new(1.0, 0.0, 0.0),
        Vec3::new(1.0, 0.0, 1.0),
        Vec3::new(0.0, 0.0, 1.0),
    ];
    let t = [[0u32, 1, 2], [0, 2, 3]];
    w.create_soft_body(&maul3d::SoftBodyDef {
        vertices: &v,
        triangles: &t,
        position: DVec3::new(0.0, 2.0, 0.0),
        ..Default::default()
    })
    .unwrap();
    let mut snap = vec![0u8; w.snapshot_size()];
    w.snapshot(&mut snap).unwrap();
    // The recorded particle capacity: after nine u32 capacities, the content capacity
    // (u64), three u32 capacities and the soft body capacity.
    let at = maul3d::SNAPSHOT_HEADER_SIZE + 9 * 4 + 8 + 3 * 4 + 4;
    let field = |s: &[u8]| u32::from_le_bytes(s[at..at + 4].try_into().unwrap());
    assert_eq!(field(&snap), harness::small_def().soft_particle_capacity);
    let mut fresh = harness::fixture();
    fresh.restore(&snap).unwrap();
    snap[at..at + 4].copy_from_slice(&3u32.to_le_bytes());
    harness::fix_snapshot(&mut snap);
    let mut fixture = harness::fixture();
    let before = fixture.hash();
    let e = fixture.restore(&snap).unwrap_err();
    assert!(
        e.to_string()
            .contains("more than the capacities it records"),
        "{e}"
    );
    assert_eq!(fixture.hash(), before);
    let def = World::def_from_snapshot(&snap).unwrap();
    assert_eq!(def.soft_particle_capacity, 3);
    assert!(World::new(&def).unwrap().restore(&snap).is_err());
}
