//! The fuzz harness shared by the fuzz targets (`fuzz/fuzz_targets/*.rs`) and by the
//! regression test `core/tests/fuzz_regressions.rs`, which includes this file with
//! `#[path]` so a crash input is replayed through exactly the code that found it.
//!
//! Every format Maul3D reads carries a checksum (snapshot, tape records, replay
//! container), so random mutations almost never get past it. Each entry therefore runs
//! the input twice: as given (the checksum and header checks), and with its checksums,
//! lengths and header fields patched (`fix_*`), so the fuzzer reaches the decoders and the
//! calls behind them.
//!
//! Beyond "never panics", each entry holds the library to what SPEC.md promises:
//! a refused restore or replay leaves the world's hash as it was; an accepted snapshot
//! writes back byte for byte; an accepted state steps the same after a snapshot round
//! trip; an accepted container re-encodes to the same bytes.

use maul3d::math::{DVec3, Mat3, Quat, Vec3};
use maul3d::{
    AxisMode, BodyDef, BodyId, BodyType, Capsule, ConeTwistJoint, Cylinder, DistanceJoint, Filter,
    JointDef, JointId, JointKind, MassData, MotionLocks, PlaneShape, PrismaticJoint, RevoluteJoint,
    SNAPSHOT_HEADER_SIZE, SNAPSHOT_JOURNAL_SIZE, SNAPSHOT_REVISION, ShapeDef, SixDofAxis,
    SixDofJoint, Sphere, TAPE_HEADER_SIZE, TAPE_MAJOR, TAPE_MINOR, WeldJoint, WheelJoint, World,
    WorldDef, decode_replay, describe_journal, encode_replay, encoded_replay_size,
    journal_record_ends,
};

/// The fuzz targets, by name (also their corpus and regression folder names).
pub const TARGETS: [&str; 3] = ["decode_replay", "replay_journal", "restore"];

/// Largest capacity a def read from fuzzed bytes may ask for before we build a world
/// from it (keeps each run's memory small; bigger defs are only parsed).
const SANE_CAPACITY: u32 = 256;

const CONTAINER_HEADER: usize = 64;

// --------------------------------------------------------------------------------------
// The fixed world.

/// The small world every tape is replayed into and every snapshot restored into.
pub fn small_def() -> WorldDef {
    WorldDef {
        body_capacity: 16,
        shape_capacity: 16,
        contact_capacity: 64,
        pair_capacity: 64,
        hull_capacity: 4,
        event_capacity: 16,
        joint_capacity: 16,
        mesh_capacity: 4,
        content_capacity: 1 << 16,
        character_capacity: 2,
        vehicle_capacity: 2,
        water_capacity: 2,
        soft_body_capacity: 2,
        soft_particle_capacity: 32,
        ..Default::default()
    }
}

/// A world of `small_def()` with a static ground box (top face at y = 0).
pub fn fixture() -> World {
    let mut w = World::new(&small_def()).expect("the fixture def is valid");
    let g = w
        .create_body(&BodyDef {
            position: DVec3::new(0.0, -0.5, 0.0),
            ..Default::default()
        })
        .expect("ground body");
    w.create_box_shape(g, &ShapeDef::default(), Vec3::new(10.0, 0.5, 10.0))
        .expect("ground box");
    w
}

fn snapshot(w: &World) -> Vec<u8> {
    let mut buf = vec![0u8; w.snapshot_size()];
    let n = w
        .snapshot(&mut buf)
        .expect("snapshot into a buffer of snapshot_size()");
    assert_eq!(
        n,
        buf.len(),
        "snapshot wrote other than snapshot_size() bytes"
    );
    buf
}

fn sane(def: &WorldDef) -> bool {
    [
        def.body_capacity,
        def.shape_capacity,
        def.contact_capacity,
        def.pair_capacity,
        def.hull_capacity,
        def.event_capacity,
        def.joint_capacity,
        def.mesh_capacity,
        def.character_capacity,
        def.vehicle_capacity,
        def.water_capacity,
    ]
    .iter()
    .all(|&c| c <= SANE_CAPACITY)
}

// --------------------------------------------------------------------------------------
// Checksum patching.

/// FNV-1a 64 (SPEC's hash; the formats' checksums use it).
fn fnv(parts: &[&[u8]]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for p in parts {
        for &b in *p {
            h ^= b as u64;
            h = h.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
    h
}

fn put_u32(b: &mut [u8], at: usize, v: u32) {
    b[at..at + 4].copy_from_slice(&v.to_le_bytes());
}

fn put_u64(b: &mut [u8], at: usize, v: u64) {
    b[at..at + 8].copy_from_slice(&v.to_le_bytes());
}

fn get_u32(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]])
}

fn get_u64(b: &[u8], at: usize) -> u64 {
    let mut a = [0u8; 8];
    a.copy_from_slice(&b[at..at + 8]);
    u64::from_le_bytes(a)
}

/// Makes a snapshot's header agree with its bytes: magic, revision, sizes, checksum.
pub fn fix_snapshot(buf: &mut [u8]) {
    if buf.len() < SNAPSHOT_HEADER_SIZE {
        return;
    }
    buf[0..8].copy_from_slice(b"M3SNAPSH");
    put_u32(buf, 8, SNAPSHOT_REVISION);
    put_u32(buf, 12, SNAPSHOT_HEADER_SIZE as u32);
    let payload = (buf.len() - SNAPSHOT_HEADER_SIZE) as u64;
    put_u64(buf, 16, payload);
    let sum = fnv(&[&buf[SNAPSHOT_HEADER_SIZE..]]);
    put_u64(buf, 24, sum);
}

/// Makes a tape's header whole and the check of every framed record right.
pub fn fix_tape(buf: &mut [u8]) {
    if buf.len() < TAPE_HEADER_SIZE {
        return;
    }
    buf[0..4].copy_from_slice(b"M3TP");
    buf[4..6].copy_from_slice(&TAPE_MAJOR.to_le_bytes());
    buf[6..8].copy_from_slice(&TAPE_MINOR.to_le_bytes());
    put_u32(buf, 8, 0);
    put_u32(buf, 12, 0);
    let mut pos = TAPE_HEADER_SIZE;
    while pos + 4 <= buf.len() {
        let len = get_u32(buf, pos) as usize;
        let body = pos + 4;
        if len < 2 || len > buf.len() - body || buf.len() - body - len < 4 {
            return;
        }
        let sum = fnv(&[&buf[body..body + len]]) as u32;
        put_u32(buf, body + len, sum);
        pos = body + len + 4;
    }
}

/// Makes a container's header agree with its bytes: the split between snapshot and tape
/// is kept where it fits, both parts are patched, then counts and checksum.
pub fn fix_replay(buf: &mut [u8]) {
    if buf.len() < CONTAINER_HEADER {
        return;
    }
    let body = buf.len() - CONTAINER_HEADER;
    let snap_len = (get_u64(buf, 16) as usize).min(body);
    buf[0..8].copy_from_slice(b"M3REPLAY");
    put_u32(buf, 8, ((TAPE_MAJOR as u32) << 16) | TAPE_MINOR as u32);
    put_u32(buf, 12, CONTAINER_HEADER as u32);
    put_u64(buf, 16, snap_len as u64);
    put_u64(buf, 24, (body - snap_len) as u64);
    let (snap, tape) = buf[CONTAINER_HEADER..].split_at_mut(snap_len);
    fix_snapshot(snap);
    fix_tape(tape);
    if let Ok(info) = describe_journal(tape) {
        put_u64(buf, 40, info.records);
        put_u64(buf, 48, info.steps);
    }
    let sum = fnv(&[&buf[..56], &buf[CONTAINER_HEADER..]]);
    put_u64(buf, 56, sum);
}

/// Runs `f` on the input as given, then on a patched copy if patching changed it.
fn as_given_and_patched(data: &[u8], fix: fn(&mut [u8]), f: fn(&[u8])) {
    f(data);
    let mut patched = data.to_vec();
    fix(&mut patched);
    if patched != data {
        f(&patched);
    }
}

// --------------------------------------------------------------------------------------
// The properties.

/// After a successful restore or replay: the state writes back and reads back to the
/// same bits, and two steps of it record and replay to the same hash.
fn check_accepted_state(w: &mut World) {
    let snap = snapshot(w);
    let def = World::def_from_snapshot(&snap).expect("a world's own snapshot has a def");
    let mut twin = World::new(&def).expect("a world's own def builds a world");
    twin.restore(&snap)
        .expect("a world's own snapshot restores");
    assert_eq!(
        twin.hash(),
        w.hash(),
        "restore of a snapshot changed the hash"
    );
    assert_eq!(
        snapshot(&twin),
        snap,
        "snapshot of a restored world differs"
    );

    let mut recorded = World::new(&def).expect("a world's own def builds a world");
    recorded
        .restore(&snap)
        .expect("a world's own snapshot restores");
    recorded.start_journal(1 << 12).expect("journal start");
    for _ in 0..2 {
        let before = recorded.hash();
        if recorded.step(1.0 / 60.0, 4).is_err() {
            assert_eq!(recorded.hash(), before, "a refused step changed the world");
        }
    }
    recorded.stop_journal().expect("two steps fit the journal");
    twin.replay_journal(recorded.journal_tape())
        .expect("a tape replays on the snapshot it was recorded from");
    assert_eq!(
        twin.hash(),
        recorded.hash(),
        "replay from a snapshot diverged"
    );
}

/// Bytes of the capacities at the head of a snapshot's payload (nine u32, a u64, five
/// u32, the soft body exception bound and the byte saying which of the
/// character/vehicle/water and soft body stores follow the state): a restoring world
/// keeps its own, so they write back as the world's.
const CAPACITIES_SIZE: usize = 66;
/// The same in revision 10: nine u32, a u64, five u32 and the byte.
const CAPACITIES_SIZE_10: usize = 65;
/// The same in revision 9: nine u32, a u64, three u32 and the byte.
const CAPACITIES_SIZE_9: usize = 57;
/// The same before revision 9: nine u32 and a u64.
const CAPACITIES_SIZE_8: usize = 44;

/// What an accepted snapshot writes back as in a world with no journal running: the same
/// state at the current revision, with `w`'s capacities and an empty journal section
/// (restore ignores the section then; a revision-6 snapshot has none).
fn written_back(snap: &[u8], w: &World) -> Vec<u8> {
    let mut b = snap.to_vec();
    let old = match get_u32(snap, 8) {
        11.. => CAPACITIES_SIZE,
        10 => CAPACITIES_SIZE_10,
        9 => CAPACITIES_SIZE_9,
        _ => CAPACITIES_SIZE_8,
    };
    let head = SNAPSHOT_HEADER_SIZE..SNAPSHOT_HEADER_SIZE + CAPACITIES_SIZE;
    b.splice(
        SNAPSHOT_HEADER_SIZE..SNAPSHOT_HEADER_SIZE + old,
        snapshot(w)[head].iter().copied(),
    );
    if get_u32(snap, 8) == 6 {
        b.extend_from_slice(&[0; SNAPSHOT_JOURNAL_SIZE]);
    } else {
        let at = b.len() - SNAPSHOT_JOURNAL_SIZE;
        b[at..].fill(0);
    }
    fix_snapshot(&mut b);
    b
}

/// Restores `snap` into `w` (no journal running); on refusal the hash must be unchanged,
/// on success the snapshot must write back byte for byte (but for its journal section).
fn restore_into(w: &mut World, snap: &[u8]) -> bool {
    let before = w.hash();
    match w.restore(snap) {
        Ok(()) => {
            assert_eq!(
                snapshot(w),
                written_back(snap, w),
                "an accepted snapshot did not write back the same"
            );
            check_accepted_state(w);
            true
        }
        Err(_) => {
            assert_eq!(w.hash(), before, "a refused restore changed the world");
            false
        }
    }
}

/// Replays `tape` into `w`; on refusal the hash must be unchanged.
fn replay_into(w: &mut World, tape: &[u8]) -> bool {
    let before = w.hash();
    match w.replay_journal(tape) {
        Ok(()) => {
            describe_journal(tape).expect("a replayed tape describes");
            check_accepted_state(w);
            true
        }
        Err(_) => {
            assert_eq!(w.hash(), before, "a refused replay changed the world");
            false
        }
    }
}

fn restore_one(data: &[u8]) {
    let def = World::def_from_snapshot(data);
    let mut w = fixture();
    let ok = restore_into(&mut w, data);
    if ok {
        assert!(def.is_ok(), "restore accepted a snapshot without a def");
    }
    let Ok(def) = def else {
        return;
    };
    if !sane(&def) {
        return;
    }
    if let Ok(mut w) = World::new(&def) {
        let ok2 = restore_into(&mut w, data);
        if ok {
            assert!(
                ok2,
                "restored into the fixture but not into its own def's world"
            );
        }
    }
}

fn replay_one(data: &[u8]) {
    let info = describe_journal(data);
    let mut ends = Vec::new();
    let walked = journal_record_ends(data, |end, _| ends.push(end));
    assert_eq!(
        info.is_ok(),
        walked.is_ok(),
        "describe and record_ends disagree"
    );
    let mut last = TAPE_HEADER_SIZE;
    for &end in &ends {
        assert!(end > last && end <= data.len(), "record ends out of order");
        last = end;
    }
    if let Ok(info) = info {
        assert_eq!(ends.len() as u64, info.records, "record count disagrees");
    }
    let mut w = fixture();
    let ok = replay_into(&mut w, data);
    if ok {
        assert!(info.is_ok(), "replay accepted a tape describe refused");
    }
}

fn decode_one(data: &[u8]) {
    let Ok(view) = decode_replay(data) else {
        return;
    };
    // Accepted: it re-encodes to the same bytes and its parts check on their own.
    let mut out = vec![0u8; encoded_replay_size(view.snapshot.len(), view.tape.len())];
    let n = encode_replay(view.snapshot, view.tape, view.final_hash, &mut out)
        .expect("an accepted container's parts encode");
    assert_eq!(
        &out[..n],
        data,
        "an accepted container re-encodes differently"
    );
    let info = describe_journal(view.tape).expect("an accepted container's tape describes");
    assert_eq!((info.records, info.steps), (view.records, view.steps));
    // What a verifier does with it: build the snapshot's world, restore, replay.
    let def = World::def_from_snapshot(view.snapshot).expect("an accepted snapshot has a def");
    if !sane(&def) {
        return;
    }
    let Ok(mut w) = World::new(&def) else {
        return;
    };
    if restore_into(&mut w, view.snapshot) {
        replay_into(&mut w, view.tape);
    }
}

/// Fuzz entry: bytes as a replay container.
pub fn fuzz_decode_replay(data: &[u8]) {
    as_given_and_patched(data, fix_replay, decode_one);
}

/// Fuzz entry: bytes as a tape, replayed into `fixture()`.
pub fn fuzz_replay_journal(data: &[u8]) {
    as_given_and_patched(data, fix_tape, replay_one);
}

/// Fuzz entry: bytes as a snapshot, restored into `fixture()` and into its own def's world.
pub fn fuzz_restore(data: &[u8]) {
    as_given_and_patched(data, fix_snapshot, restore_one);
}

/// Runs the entry of the target named `target` (one of `TARGETS`).
pub fn fuzz(target: &str, data: &[u8]) {
    match target {
        "decode_replay" => fuzz_decode_replay(data),
        "replay_journal" => fuzz_replay_journal(data),
        "restore" => fuzz_restore(data),
        _ => panic!("unknown fuzz target {target}"),
    }
}

// --------------------------------------------------------------------------------------
// Corpus seeds.

/// A deterministic xorshift for seed variety.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn small(&mut self, n: u64) -> f32 {
        (self.next() % n) as f32
    }
}

/// A session on `fixture()` touching every recorded call kind.
fn every_call(w: &mut World) {
    // A small mesh floor beside the ground, a height field with a hole, one destroyed.
    let mesh = w
        .create_mesh(
            &[
                Vec3::new(12.0, 0.0, -2.0),
                Vec3::new(16.0, 0.0, -2.0),
                Vec3::new(16.0, 0.0, 2.0),
                Vec3::new(12.0, 0.0, 2.0),
                Vec3::new(14.0, 0.3, 0.0),
            ],
            &[[0, 4, 1], [1, 4, 2], [2, 4, 3], [3, 4, 0]],
        )
        .expect("mesh");
    let heights = [0.0f32, 0.1, 0.0, 0.2, 0.1, 0.0, 0.0, 0.1, 0.3];
    let field = w
        .create_height_field(&maul3d::HeightFieldDef {
            count_x: 3,
            count_z: 3,
            heights: &heights,
            holes: &[false, false, true, false],
            scale: Vec3::new(1.0, 1.0, 1.0),
        })
        .expect("height field");
    let spare = w
        .create_mesh(&[Vec3::ZERO, Vec3::X, Vec3::Z], &[[0, 2, 1]])
        .expect("mesh");
    w.destroy_mesh(spare).expect("destroy mesh");
    for (m, x) in [(mesh, 0.0), (field, -16.0)] {
        let b = w
            .create_body(&BodyDef {
                position: DVec3::new(x, 0.0, 0.0),
                ..Default::default()
            })
            .expect("mesh body");
        w.create_mesh_shape(b, &ShapeDef::default(), m)
            .expect("mesh shape");
    }
    // A voxel grid with a floor layer, on its own body, edited three ways.
    let voxels: Vec<u8> = (0..4096).map(|i| ((i / 16) % 16 == 0) as u8).collect();
    let grid = w
        .create_voxel_grid(&maul3d::VoxelGridDef {
            voxel_size: 0.25,
            data: &voxels,
            origin: Vec3::new(-2.0, -0.25, 6.0),
        })
        .expect("voxel grid");
    let vb = w.create_body(&BodyDef::default()).expect("voxel body");
    w.create_voxel_shape(vb, &ShapeDef::default(), grid)
        .expect("voxel shape");
    w.set_voxel(grid, [3, 1, 3], 2).expect("set voxel");
    w.clear_voxel(grid, [0, 0, 0]).expect("clear voxel");
    w.fill_voxels(grid, [8, 0, 8], [11, 0, 11], 0)
        .expect("fill voxels");
    let hull = w
        .create_hull(&[
            Vec3::new(-0.4, 0.0, -0.4),
            Vec3::new(0.4, 0.0, -0.4),
            Vec3::new(0.0, 0.0, 0.5),
            Vec3::new(0.0, 0.6, 0.0),
        ])
        .expect("hull");
    let mut bodies: Vec<BodyId> = Vec::new();
    for i in 0..6 {
        let b = w
            .create_body(&BodyDef {
                body_type: BodyType::Dynamic,
                position: DVec3::new((i % 3) as f64 - 1.0, 0.6 + (i / 3) as f64, 0.0),
                rotation: Quat::from_axis_angle(Vec3::Y, 0.25 * i as f32),
                user_data: i as u64,
                ..Default::default()
            })
            .expect("body");
        let def = ShapeDef::default();
        let s = match i % 4 {
            0 if i == 4 => w.create_cylinder_shape(
                b,
                &def,
                &Cylinder {
                    center: Vec3::ZERO,
                    rotation: Quat::from_axis_angle(Vec3::X, 0.5),
                    half_height: 0.25,
                    radius: 0.3,
                },
            ),
            0 => w.create_box_shape(b, &def, Vec3::splat(0.3)),
            1 => w.create_sphere_shape(
                b,
                &def,
                &Sphere {
                    center: Vec3::ZERO,
                    radius: 0.3,
                },
            ),
            2 => w.create_capsule_shape(
                b,
                &def,
                &Capsule {
                    center1: Vec3::new(0.0, -0.2, 0.0),
                    center2: Vec3::new(0.0, 0.2, 0.0),
                    radius: 0.25,
                },
            ),
            _ => w.create_hull_shape(b, &def, hull),
        }
        .expect("shape");
        if i == 1 {
            w.set_shape_friction(s, 0.2).expect("friction");
            w.set_shape_restitution(s, 0.4).expect("restitution");
            w.set_shape_rolling_resistance(s, 0.05).expect("rolling");
            w.set_shape_density(s, 500.0).expect("density");
            w.set_shape_filter(
                s,
                Filter {
                    group_index: -1,
                    ..Default::default()
                },
            )
            .expect("filter");
        }
        bodies.push(b);
    }
    let floor = w.create_body(&BodyDef::default()).expect("floor body");
    w.create_plane_shape(
        floor,
        &ShapeDef::default(),
        &PlaneShape {
            normal: Vec3::new(0.1, 1.0, 0.0),
            offset: 0.0,
        },
    )
    .expect("plane");
    let joints = every_joint(w, &bodies);
    let extras = every_extra(w);
    let dt = 1.0 / 60.0;
    for step in 0..24 {
        let b = bodies[step % bodies.len()];
        let _ = match step {
            1 => w.set_body_velocity(b, Vec3::new(1.0, 2.0, 0.0), Vec3::new(0.0, 1.0, 0.0)),
            2 => w.apply_force_to_center(b, Vec3::new(50.0, 0.0, 0.0)),
            3 => w.apply_force(b, Vec3::new(0.0, 40.0, 0.0), DVec3::new(1.0, 2.0, 0.0)),
            4 => w.apply_torque(b, Vec3::new(0.0, 3.0, 0.0)),
            5 => w.apply_linear_impulse_to_center(b, Vec3::new(0.0, 5.0, 0.0)),
            6 => w.apply_angular_impulse(b, Vec3::new(0.3, 0.0, 0.0)),
            7 => w.set_body_transform(
                b,
                DVec3::new(3.0, 2.0, 0.0),
                Quat::from_axis_angle(Vec3::X, 0.3),
            ),
            8 => w.set_body_damping(b, 0.5, 0.5),
            9 => w.set_body_gravity_scale(b, 0.5),
            10 => w.set_body_motion_locks(b, MotionLocks::FIXED_ROTATION),
            11 => w.set_body_sleep_threshold(b, 0.1),
            12 => w.set_body_bullet(b, true),
            13 => w.set_body_type(b, BodyType::Kinematic),
            14 => w.set_body_enabled(b, false),
            15 => w.set_body_enabled(b, true),
            16 => w.set_gravity(Vec3::new(0.0, -9.0, 0.5)),
            17 => w.set_body_user_data(b, 99),
            18 => w.set_body_mass_data(
                b,
                Some(MassData {
                    mass: 3.0,
                    center: Vec3::ZERO,
                    inertia: Mat3::diagonal(Vec3::splat(0.5)),
                }),
            ),
            19 => w.shift_origin(DVec3::new(2.0, 0.0, -1.0)),
            20 => w.set_body_awake(b, false),
            21 => w.set_body_sleep_enabled(b, false),
            22 => {
                w.enable_sleep(false);
                Ok(())
            }
            23 => w.destroy_body(b),
            _ => Ok(()),
        };
        joint_call(w, &joints, step);
        extra_call(w, &extras, step);
        if step == 12 {
            let s = w.create_box_shape(b, &ShapeDef::default(), Vec3::splat(0.2));
            if let Ok(s) = s {
                let _ = w.destroy_shape(s);
            }
            if let Ok(h) = w.create_hull(&[
                Vec3::new(0.0, 0.0, 0.0),
                Vec3::new(0.3, 0.0, 0.0),
                Vec3::new(0.0, 0.3, 0.0),
                Vec3::new(0.0, 0.0, 0.3),
            ]) {
                let _ = w.destroy_hull(h);
            }
        }
        w.step(dt, 4).expect("step");
    }
}

/// A character, two vehicles (one loses its chassis later) and two water volumes (one
/// destroyed later), so the seeds reach their ops and stores.
struct Extras {
    character: maul3d::CharacterId,
    spare_character: maul3d::CharacterId,
    car: maul3d::VehicleId,
    doomed_chassis: BodyId,
    pool: maul3d::WaterVolumeId,
    spare_pool: maul3d::WaterVolumeId,
    cloth: maul3d::SoftBodyId,
    ball: maul3d::SoftBodyId,
    chassis: BodyId,
}

fn every_extra(w: &mut World) -> Extras {
    use maul3d::{CharacterDef, VehicleDef, WaterVolumeDef, WheelCast, WheelDef};
    let character = w
        .create_character(&CharacterDef {
            position: DVec3::new(-4.0, 1.0, -4.0),
            ..Default::default()
        })
        .expect("character");
    let spare_character = w
        .create_character(&CharacterDef {
            position: DVec3::new(4.0, 1.0, -4.0),
            up: Vec3::new(0.1, 1.0, 0.0),
            ..Default::default()
        })
        .expect("character");
    let mut chassis = [BodyId::NULL; 2];
    let mut cars = [maul3d::VehicleId::NULL; 2];
    for (k, x) in [(0usize, -5.0f64), (1, 5.0)] {
        let b = w
            .create_body(&BodyDef {
                body_type: BodyType::Dynamic,
                position: DVec3::new(x, 1.0, 4.0),
                ..Default::default()
            })
            .expect("chassis");
        w.create_box_shape(b, &ShapeDef::default(), Vec3::new(0.8, 0.25, 1.6))
            .expect("chassis box");
        let mut def = VehicleDef {
            chassis: b,
            ..Default::default()
        };
        for (i, (sx, sz)) in [(1.0, 1.2), (-1.0, 1.2), (1.0, -1.2), (-1.0, -1.2)]
            .into_iter()
            .enumerate()
        {
            def.add_wheel(WheelDef {
                position: Vec3::new(0.8 * sx, -0.2, sz),
                max_steer_angle: if i < 2 { 0.5 } else { 0.0 },
                driven: i >= 2,
                cast: [WheelCast::Ray, WheelCast::Sphere, WheelCast::Cylinder][(i + k) % 3],
                ..Default::default()
            });
        }
        def.add_anti_roll_bar(maul3d::AntiRollBar {
            left: 0,
            right: 1,
            stiffness: 2000.0,
        });
        chassis[k] = b;
        cars[k] = w.create_vehicle(&def).expect("vehicle");
    }
    let pool = w
        .create_water_volume(&WaterVolumeDef {
            center: DVec3::new(0.0, -0.5, 0.0),
            half_extents: Vec3::new(3.0, 1.0, 3.0),
            flow: Vec3::new(0.5, 0.0, 0.0),
            ..Default::default()
        })
        .expect("water");
    let spare_pool = w
        .create_water_volume(&WaterVolumeDef {
            center: DVec3::new(5.0, 0.0, 4.0),
            half_extents: Vec3::new(2.0, 0.6, 2.0),
            density: 500.0,
            ..Default::default()
        })
        .expect("water");
    // A 4 × 4 cloth pinned at a corner, and a closed octahedron holding gas.
    let mut v = Vec::new();
    for j in 0..4 {
        for i in 0..4 {
            v.push(Vec3::new(i as f32 * 0.3, 0.0, j as f32 * 0.3));
        }
    }
    let mut t = Vec::new();
    for j in 0..3u32 {
        for i in 0..3u32 {
            let a = i + 4 * j;
            t.push([a, a + 4, a + 1]);
            t.push([a + 1, a + 4, a + 5]);
        }
    }
    let cloth = w
        .create_soft_body(&maul3d::SoftBodyDef {
            vertices: &v,
            triangles: &t,
            position: DVec3::new(-1.0, 2.0, 0.0),
            ..Default::default()
        })
        .expect("cloth");
    w.set_soft_particle_pinned(cloth, 0, true).expect("pin");
    let o = [
        Vec3::new(0.3, 0.0, 0.0),
        Vec3::new(-0.3, 0.0, 0.0),
        Vec3::new(0.0, 0.3, 0.0),
        Vec3::new(0.0, -0.3, 0.0),
        Vec3::new(0.0, 0.0, 0.3),
        Vec3::new(0.0, 0.0, -0.3),
    ];
    let ot = [
        [0, 2, 4],
        [2, 1, 4],
        [1, 3, 4],
        [3, 0, 4],
        [2, 0, 5],
        [1, 2, 5],
        [3, 1, 5],
        [0, 3, 5],
    ];
    let ball = w
        .create_soft_body(&maul3d::SoftBodyDef {
            vertices: &o,
            triangles: &ot,
            position: DVec3::new(1.5, 1.0, -1.5),
            settings: maul3d::SoftBodySettings {
                pressure: 50.0,
                volume_scale: 1.0,
                self_collision: true,
                ..Default::default()
            },
            ..Default::default()
        })
        .expect("ball");
    Extras {
        character,
        spare_character,
        car: cars[0],
        doomed_chassis: chassis[1],
        pool,
        spare_pool,
        cloth,
        ball,
        chassis: chassis[0],
    }
}

/// Every character, vehicle, water and soft body call, a few per step.
fn extra_call(w: &mut World, e: &Extras, step: usize) {
    let _ = w.move_character(e.character, Vec3::new(1.0, 0.0, 0.5), 1.0 / 60.0);
    let _ = match step {
        // The ball ignores the chassis destroyed at step 10 (its list loses it), the cloth
        // the one it is attached to at step 14.
        0 => w
            .set_soft_body_ignores_body(e.ball, e.doomed_chassis, true)
            .and_then(|()| w.set_soft_body_ignores_body(e.cloth, e.chassis, true)),
        1 => w.set_vehicle_input(
            e.car,
            maul3d::VehicleInput {
                throttle: 0.8,
                steering: 0.3,
                ..Default::default()
            },
        ),
        2 => w.set_vehicle_gear(e.car, 2),
        3 => w.set_water_density(e.pool, 900.0),
        4 => w.set_water_drag(e.pool, 0.5, 0.7),
        5 => w.set_water_flow(e.pool, Vec3::new(0.0, 0.0, -0.3)),
        6 => w.set_water_region(
            e.pool,
            DVec3::new(0.5, -0.4, 0.0),
            Quat::from_axis_angle(Vec3::Y, 0.2),
            Vec3::new(3.0, 1.0, 3.5),
        ),
        7 => w.set_character_settings(
            e.character,
            &maul3d::CharacterSettings {
                step_height: 0.4,
                ..Default::default()
            },
        ),
        8 => w.set_character_position(e.spare_character, DVec3::new(3.0, 2.0, -3.0)),
        9 => w.destroy_character(e.spare_character),
        10 => w.destroy_body(e.doomed_chassis),
        11 => w.destroy_water_volume(e.spare_pool),
        12 => w.set_vehicle_input(
            e.car,
            maul3d::VehicleInput {
                brake: 1.0,
                handbrake: 0.5,
                ..Default::default()
            },
        ),
        13 => {
            let d = w.water_volume(e.pool).expect("live water");
            w.set_water_volume(
                e.pool,
                &maul3d::WaterVolumeDef {
                    linear_drag: 2.0,
                    ..d
                },
            )
        }
        14 => w.attach_soft_particle(e.cloth, 15, Some(e.chassis), Vec3::new(0.0, 0.3, 0.0)),
        15 => w.apply_soft_body_impulse(e.ball, Vec3::new(0.0, 1.0, 0.2)),
        16 => w.apply_soft_particle_impulse(e.cloth, 5, Vec3::new(0.1, 0.0, 0.0)),
        17 => w.set_soft_particle_position(e.cloth, 0, DVec3::new(-1.0, 2.2, 0.0)),
        18 => w.set_soft_particle_velocity(e.ball, 2, Vec3::new(0.0, 1.0, 0.0)),
        19 => w.set_soft_body_settings(
            e.cloth,
            &maul3d::SoftBodySettings {
                drag: 0.5,
                bend_compliance: 10.0,
                ..Default::default()
            },
        ),
        20 => w.set_soft_body_filter(e.ball, maul3d::Filter::default()),
        21 => w.set_soft_particle_pinned(e.cloth, 3, true),
        22 => w.set_soft_body_transform(e.ball, DVec3::new(1.5, 1.5, -1.5), Quat::IDENTITY),
        23 => w.attach_soft_particle(e.cloth, 15, None, Vec3::ZERO),
        _ => Ok(()),
    };
}

/// One joint of every kind between the bodies (and a static one), so the seeds reach every
/// joint's encoding.
fn every_joint(w: &mut World, bodies: &[BodyId]) -> Vec<JointId> {
    let ground = w.create_body(&BodyDef::default()).expect("static body");
    let mut axes = [SixDofAxis::default(); 6];
    axes[0] = SixDofAxis::FREE;
    axes[1].mode = AxisMode::Limited {
        lower: -0.1,
        upper: 0.2,
    };
    axes[3].spring_hertz = 2.0;
    axes[3].mode = AxisMode::Free;
    axes[5].max_motor_force = 3.0;
    axes[5].motor_speed = 0.5;
    let kinds = [
        JointKind::Spherical,
        JointKind::Revolute(RevoluteJoint {
            enable_limit: true,
            lower: -0.5,
            upper: 0.5,
            enable_motor: true,
            motor_speed: 1.0,
            max_motor_torque: 10.0,
            ..Default::default()
        }),
        JointKind::Prismatic(PrismaticJoint {
            enable_spring: true,
            hertz: 3.0,
            damping_ratio: 0.5,
            ..Default::default()
        }),
        JointKind::Weld(WeldJoint {
            angular_hertz: 5.0,
            ..Default::default()
        }),
        JointKind::Distance(DistanceJoint {
            min_length: 0.0,
            max_length: 2.0,
            ..Default::default()
        }),
        JointKind::ConeTwist(ConeTwistJoint::default()),
        JointKind::SixDof(SixDofJoint { axes }),
        JointKind::Wheel(WheelJoint::default()),
    ];
    let mut out = Vec::new();
    for (k, kind) in kinds.into_iter().enumerate() {
        let a = if k == 0 {
            ground
        } else {
            bodies[k % bodies.len()]
        };
        let b = bodies[(k + 1) % bodies.len()];
        let j = w.create_joint(&JointDef {
            body_a: a,
            body_b: b,
            local_frame_a: maul3d::math::Transform::new(
                Vec3::new(0.1, 0.2, 0.0),
                Quat::from_axis_angle(Vec3::Z, 0.3),
            ),
            collide_connected: k % 3 == 0,
            break_force: if k == 3 { 1.0e4 } else { f32::MAX },
            user_data: k as u64,
            kind,
            ..Default::default()
        });
        out.push(j.expect("joint"));
    }
    out
}

/// Every joint setter, one per step.
fn joint_call(w: &mut World, j: &[JointId], step: usize) {
    let _ = match step {
        1 => w.set_joint_motor_speed(j[1], -1.0),
        2 => w.set_joint_max_motor_force(j[1], 5.0),
        3 => w.set_joint_enable_motor(j[1], false),
        4 => w.set_joint_enable_limit(j[1], false),
        5 => w.set_joint_limits(j[2], -0.2, 0.3),
        6 => w.set_joint_enable_spring(j[2], false),
        7 => w.set_joint_spring(j[7], 2.0, 0.4),
        8 => w.set_distance_length(j[4], 0.5),
        9 => w.set_distance_range(j[4], 0.2, 1.5),
        10 => w.set_joint_break_thresholds(j[0], 1.0e5, 1.0e5),
        11 => w.set_joint_collide_connected(j[0], false),
        12 => w.set_joint_user_data(j[0], 7),
        13 => w.set_cone_swing_limit(j[5], 0.3),
        14 => w.set_weld_spring(j[3], 1.0, 0.0, 0.5),
        15 => w.set_six_dof_axis(j[6], 2, SixDofAxis::FREE),
        16 => w.set_joint_damping_ratio(3.0),
        17 => w.destroy_joint(j[2]),
        _ => Ok(()),
    };
}

/// Random creates, destroys and pushes with steps between (a seed for the random tapes).
fn random_calls(w: &mut World, seed: u64, calls: usize) {
    let mut r = Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1);
    let mut ids: Vec<BodyId> = Vec::new();
    for _ in 0..calls {
        let pick = |ids: &[BodyId], v: u64| {
            if ids.is_empty() {
                BodyId::NULL
            } else {
                ids[(v >> 8) as usize % ids.len()]
            }
        };
        let v = r.next();
        let _ = match v % 8 {
            0 | 1 => {
                let x = r.small(7) - 3.0;
                let y = 1.0 + r.small(4);
                let b = w.create_body(&BodyDef {
                    body_type: BodyType::Dynamic,
                    position: DVec3::new(x as f64, y as f64, 0.0),
                    ..Default::default()
                });
                if let Ok(b) = b {
                    let half = 0.2 + 0.1 * r.small(3);
                    let _ = w.create_box_shape(b, &ShapeDef::default(), Vec3::splat(half));
                    ids.push(b);
                }
                Ok(())
            }
            2 => {
                let b = pick(&ids, v);
                ids.retain(|x| *x != b);
                w.destroy_body(b)
            }
            3 => w.set_body_velocity(pick(&ids, v), Vec3::new(1.0, 0.5, 0.0), Vec3::ZERO),
            4 => w.apply_linear_impulse_to_center(pick(&ids, v), Vec3::new(0.0, 2.0, 0.0)),
            5 => w
                .create_joint(&JointDef {
                    body_a: pick(&ids, v),
                    body_b: pick(&ids, v >> 20),
                    local_frame_b: maul3d::math::Transform::new(
                        Vec3::new(0.3, 0.0, 0.0),
                        Quat::IDENTITY,
                    ),
                    kind: JointKind::Revolute(RevoluteJoint {
                        enable_limit: true,
                        lower: -0.3,
                        upper: 0.3,
                        ..Default::default()
                    }),
                    ..Default::default()
                })
                .map(|_| ()),
            _ => w.step(1.0 / 60.0, 1 + (v >> 12 & 3) as u32),
        };
    }
}

fn record(f: impl FnOnce(&mut World)) -> (Vec<u8>, Vec<u8>, World) {
    let mut w = fixture();
    let start = snapshot(&w);
    w.start_journal(1 << 16).expect("journal");
    f(&mut w);
    w.stop_journal().expect("tape fits");
    (start, w.journal_tape().to_vec(), w)
}

fn container(snap: &[u8], tape: &[u8], hash: u64) -> Vec<u8> {
    let mut out = vec![0u8; encoded_replay_size(snap.len(), tape.len())];
    let n = encode_replay(snap, tape, hash, &mut out).expect("container");
    out.truncate(n);
    out
}

/// Cuts a tape after its `n`th record (a whole tape).
fn tape_prefix(tape: &[u8], records: usize) -> Vec<u8> {
    let mut ends = Vec::new();
    journal_record_ends(tape, |end, _| ends.push(end)).expect("a whole tape");
    let end = if records == 0 {
        TAPE_HEADER_SIZE
    } else {
        ends[(records - 1).min(ends.len() - 1)]
    };
    tape[..end].to_vec()
}

fn flip(buf: &[u8], at: usize, bit: u8) -> Vec<u8> {
    let mut b = buf.to_vec();
    let at = at % b.len();
    b[at] ^= 1 << (bit % 8);
    b
}

fn patched(buf: Vec<u8>, fix: fn(&mut [u8])) -> Vec<u8> {
    let mut b = buf;
    fix(&mut b);
    b
}

/// The committed corpus seeds: `(target, file name, bytes)`. Names starting `seed-` are
/// valid inputs the library must accept; `mut-` ones are damaged copies.
pub fn corpus_seeds() -> Vec<(&'static str, String, Vec<u8>)> {
    let mut out: Vec<(&'static str, String, Vec<u8>)> = Vec::new();
    let mut add = |t: &'static str, name: &str, b: Vec<u8>| out.push((t, name.to_string(), b));

    // Snapshots.
    let empty = World::new(&small_def()).expect("small world");
    let start = snapshot(&fixture());
    let (_, full_tape, full) = record(every_call);
    let mid = {
        let (_, _, w) = record(|w| random_calls(w, 3, 60));
        snapshot(&w)
    };
    let other_def = {
        let mut w = World::new(&WorldDef {
            body_capacity: 8,
            shape_capacity: 8,
            contact_capacity: 32,
            pair_capacity: 32,
            hull_capacity: 1,
            event_capacity: 4,
            ..Default::default()
        })
        .expect("other world");
        let b = w
            .create_body(&BodyDef {
                body_type: BodyType::Dynamic,
                position: DVec3::new(0.0, 0.25, 0.0),
                ..Default::default()
            })
            .expect("body");
        w.create_sphere_shape(
            b,
            &ShapeDef::default(),
            &Sphere {
                center: Vec3::ZERO,
                radius: 0.3,
            },
        )
        .expect("sphere");
        let g = w.create_body(&BodyDef::default()).expect("ground");
        w.create_box_shape(g, &ShapeDef::default(), Vec3::new(4.0, 0.1, 4.0))
            .expect("ground box");
        for _ in 0..10 {
            w.step(1.0 / 60.0, 4).expect("step");
        }
        snapshot(&w)
    };
    let scene = snapshot(&full);
    add("restore", "seed-empty", snapshot(&empty));
    add("restore", "seed-ground", start.clone());
    add("restore", "seed-every-call", scene.clone());
    add("restore", "seed-random", mid.clone());
    add("restore", "seed-other-def", other_def.clone());
    add("restore", "seed-journal", {
        // Taken while a journal runs: it carries a journal section.
        let mut w = fixture();
        w.start_journal(1 << 12).expect("journal");
        w.step(1.0 / 60.0, 4).expect("step");
        snapshot(&w)
    });
    add("restore", "mut-cut", scene[..scene.len() / 2].to_vec());
    add("restore", "mut-flip-raw", flip(&scene, 200, 3));
    add(
        "restore",
        "mut-flip-patched",
        patched(flip(&scene, 300, 0), fix_snapshot),
    );
    add(
        "restore",
        "mut-cut-patched",
        patched(mid[..mid.len() - 9].to_vec(), fix_snapshot),
    );
    // The character, vehicle and water stores come last in the state, before the
    // journal section: damage there, checksums patched.
    for back in [40usize, 300, 900] {
        let at = scene.len() - SNAPSHOT_JOURNAL_SIZE - back;
        add(
            "restore",
            &format!("mut-extras-{back}-patched"),
            patched(flip(&scene, at, (back % 7) as u8), fix_snapshot),
        );
    }
    add("restore", "mut-revision", {
        let mut b = start.clone();
        b[8] ^= 2;
        b
    });
    add(
        "restore",
        "mut-header-only",
        start[..SNAPSHOT_HEADER_SIZE].to_vec(),
    );

    // Tapes on the fixture.
    let (_, rand_a, _) = record(|w| random_calls(w, 1, 80));
    let (_, rand_b, _) = record(|w| random_calls(w, 7, 40));
    add("replay_journal", "seed-every-call", full_tape.clone());
    add("replay_journal", "seed-random-1", rand_a.clone());
    add("replay_journal", "seed-random-7", rand_b.clone());
    add(
        "replay_journal",
        "seed-prefix-8",
        tape_prefix(&full_tape, 8),
    );
    add(
        "replay_journal",
        "seed-prefix-20",
        tape_prefix(&full_tape, 20),
    );
    add(
        "replay_journal",
        "seed-header-only",
        tape_prefix(&full_tape, 0),
    );
    add(
        "replay_journal",
        "mut-cut",
        full_tape[..full_tape.len() - 3].to_vec(),
    );
    add("replay_journal", "mut-flip-raw", flip(&rand_a, 100, 5));
    add(
        "replay_journal",
        "mut-flip-patched",
        patched(flip(&full_tape, 41, 2), fix_tape),
    );
    add(
        "replay_journal",
        "mut-flip-late-patched",
        patched(flip(&rand_b, 400, 6), fix_tape),
    );
    add("replay_journal", "mut-overflowed", {
        let mut b = tape_prefix(&rand_b, 5);
        b[8] = 1;
        b
    });

    // Containers.
    add(
        "decode_replay",
        "seed-every-call",
        container(&start, &full_tape, full.hash()),
    );
    let (s_b, t_b, w_b) = record(|w| random_calls(w, 7, 40));
    add(
        "decode_replay",
        "seed-random-7",
        container(&s_b, &t_b, w_b.hash()),
    );
    let short = tape_prefix(&full_tape, 8);
    add(
        "decode_replay",
        "seed-prefix-8",
        container(&start, &short, 0),
    );
    add(
        "decode_replay",
        "seed-empty-tape",
        container(&mid, &tape_prefix(&rand_a, 0), 0),
    );
    let c = container(&start, &rand_a, 0);
    add("decode_replay", "mut-cut", c[..c.len() - 1].to_vec());
    add("decode_replay", "mut-flip-raw", flip(&c, 70, 1));
    add(
        "decode_replay",
        "mut-flip-patched",
        patched(flip(&c, 90, 4), fix_replay),
    );
    add(
        "decode_replay",
        "mut-tape-flip-patched",
        patched(flip(&c, c.len() - 30, 0), fix_replay),
    );
    add("decode_replay", "mut-counts", {
        let mut b = container(&start, &short, 0);
        b[40] ^= 1;
        b
    });
    out
}
