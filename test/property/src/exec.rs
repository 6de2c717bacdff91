//! The interpreter: runs a case's ops on a world through the public API and checks the
//! invariant after every call and every step.
//!
//! After every call: a refused call left the hash as it was; no body holds a non-finite
//! position, rotation or velocity. A query never changes the hash and returns finite
//! results. Around every step:
//! - the world's snapshot restores into a fresh world (made from `def_from_snapshot`) to
//!   the same hash and writes back the same bytes, and that twin, stepped with the same
//!   arguments, lands on the same hash as the live world (or both refuse);
//! - after the step, every dynamic body the step moved is no faster than
//!   `max_linear_speed` (and spins no faster than `limits::MAX_ANGULAR_SPEED`), and its
//!   centre of mass moved no farther than that speed allows in `dt`;
//! - the stepped world's own snapshot restores (every stored quantity is within the ranges
//!   restore accepts);
//! - a step refused as out of bounds names a moving body that could reach ±2^22 in it;
//! - continuous collision's time-of-impact work stays within its caps.
//!
//! A journal's tape, when stopped, replays from the snapshot taken at its start to the
//! live world's hash. A snapshot restored into the live world gives back the hash it was
//! taken at; a damaged one is refused.

use crate::ops::*;
use core::ffi::c_void;
use maul3d::math::{DAabb, DVec3, Mat3, Quat, Transform, Vec3, cos, max_f64, min_f64, sin, sqrt};
use maul3d::{
    AntiRollBar, CharacterDef, CharacterId, CharacterSettings, EngineDef, SlipCurve, SoftBodyDef,
    SoftBodyId, SoftBodySettings, SuspensionSpring, TransmissionDef, VehicleDef, VehicleId,
    VehicleInput, WaterVolumeDef, WaterVolumeId, WheelCast, WheelDef,
};
use maul3d::{
    AreaGravity, AreaMode, AreaSettings, AxisMode, BodyDef, BodyId, BodyType, Capsule,
    ConeTwistJoint, Cylinder, DebugDraw, DebugDrawOptions, DebugGeometry, DistanceJoint, Error,
    ExplosionDef, Filter, HeightFieldDef, HullId, JointDef, JointId, JointKind, MassData, MeshId,
    MotionLocks, MotionTest, PlaneShape, PreSolve, PreSolveContact, PrismaticJoint, QueryFilter,
    QueryShape, RevoluteJoint, ShapeDef, ShapeId, SixDofAxis, SixDofJoint, Sphere, TaskFn,
    TaskHooks, VoxelGridDef, WeldJoint, WheelJoint, World, WorldDef,
};
use std::cell::RefCell;
use std::fmt;
use std::time::Instant;

/// What kind of promise broke. Minimising keeps a case failing with the same class.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Class {
    /// A panic (a debug assertion, an overflow, an index out of bounds) with its message
    /// and location.
    Panic(String),
    /// A body's position, rotation or velocity, or a query result, is NaN or infinite.
    NonFinite,
    /// A dynamic body the step moved is faster than `max_linear_speed`, or spins faster
    /// than `limits::MAX_ANGULAR_SPEED`.
    SpeedLimit,
    /// A dynamic body's centre of mass moved farther in one step than
    /// `max_linear_speed × dt`.
    Displacement,
    /// The world's own snapshot is refused by `restore`.
    OwnSnapshotRefused,
    /// A restored world's hash, or its snapshot bytes, differ from the snapshot's world.
    RestoreNotExact,
    /// A restored twin stepped with the same arguments lands on another hash (or one
    /// refuses the step and the other does not).
    TwinDiverged,
    /// Stepping through task hooks (pieces run in another order) gave other bits than
    /// one thread.
    ThreadsChangedBits,
    /// Solving one constraint at a time (`set_solve_one_at_a_time`) or in forced lanes
    /// (`set_solver_lanes`) gave other bits than the dispatched lanes.
    LanesChangedBits,
    /// A refused call changed the hash.
    RefusalChangedState,
    /// A query changed the hash.
    QueryChangedState,
    /// A step was refused as out of bounds though no moving body's bounds are beyond ±2^22.
    SpuriousOutOfBounds,
    /// A journal's tape does not replay from its start snapshot to the live world.
    JournalDiverged,
    /// A restore to a snapshot taken outside the running journal was accepted (the spec:
    /// refused with a state error naming the journal).
    JournalRestoreAccepted,
    /// A damaged snapshot was accepted.
    DamagedAccepted,
    /// A chain gained energy.
    EnergyGrowth,
    /// Continuous collision did more time-of-impact work than its per-query and per-body
    /// caps allow.
    UnboundedWork,
    /// An object outlived what it needs: a vehicle its chassis, a character its inner
    /// body (or the inner body its character).
    DanglingObject,
}

impl Class {
    /// A short stable name.
    pub fn name(&self) -> String {
        match self {
            Class::Panic(m) => format!("panic: {m}"),
            other => format!("{other:?}"),
        }
    }
}

/// A broken promise: which op, what class, and the details.
#[derive(Clone, Debug)]
pub struct Failure {
    /// Index of the op during which it broke.
    pub op: usize,
    /// Its class.
    pub class: Class,
    /// What was seen.
    pub detail: String,
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "op {}: {}: {}", self.op, self.class.name(), self.detail)
    }
}

/// What a case did.
#[derive(Clone, Debug, Default)]
pub struct Stats {
    /// Ops run.
    pub ops: usize,
    /// Calls accepted.
    pub accepted: u64,
    /// Calls refused.
    pub refused: u64,
    /// Steps taken.
    pub steps: u64,
    /// Most bodies alive at once.
    pub max_bodies: u32,
    /// The slowest step, seconds (wall clock; reported, never asserted).
    pub slowest_step: f64,
    /// The op of the slowest step.
    pub slowest_op: usize,
    /// Per call name: accepted, refused.
    pub calls: std::collections::BTreeMap<String, (u64, u64)>,
}

/// The result of running a case.
#[derive(Clone, Debug)]
pub struct Outcome {
    /// The first broken promise, if any.
    pub failure: Option<Failure>,
    /// Every class broken (with `keep_going`; else the first), in order of first breaking.
    pub all: Vec<Failure>,
    /// What it did (up to the failure).
    pub stats: Stats,
}

/// How often the twin check runs: every step when `twin_every` is 1.
#[derive(Clone, Copy, Debug)]
pub struct Options {
    /// Run the snapshot/restore/twin-step check every this many steps (1: every step).
    pub twin_every: u64,
    /// Record a broken promise (once per class) and go on, instead of stopping the case
    /// at the first: finds every class a case breaks. A panic still stops it.
    pub keep_going: bool,
    /// Print each op to stderr before it runs (finding the op a case hangs in).
    pub trace: bool,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            twin_every: 1,
            keep_going: false,
            trace: false,
        }
    }
}

type R<T = ()> = Result<T, Failure>;

// --------------------------------------------------------------------------------------
// Panics: caught per case, their message and location kept.

thread_local! {
    static QUIET: RefCell<bool> = const { RefCell::new(false) };
    static LAST_PANIC: RefCell<Option<String>> = const { RefCell::new(None) };
}

fn install_hook() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if QUIET.with(|q| *q.borrow()) {
                let msg = if let Some(s) = info.payload().downcast_ref::<&str>() {
                    s.to_string()
                } else if let Some(s) = info.payload().downcast_ref::<String>() {
                    s.clone()
                } else {
                    "(no message)".to_string()
                };
                let at = info
                    .location()
                    .map(|l| format!("{}:{}", l.file(), l.line()))
                    .unwrap_or_default();
                LAST_PANIC.with(|p| *p.borrow_mut() = Some(format!("{msg} at {at}")));
            } else {
                previous(info);
            }
        }));
    });
}

/// A panic's message with digits dropped, so one assertion keeps one class.
fn panic_class(msg: &str) -> String {
    let first = msg.lines().next().unwrap_or("");
    // Keep the location (file:line), drop numbers from the message part.
    let (text, at) = match first.rfind(" at ") {
        Some(i) => (&first[..i], &first[i..]),
        None => (first, ""),
    };
    let text: String = text
        .chars()
        .map(|c| if c.is_ascii_digit() { '#' } else { c })
        .collect();
    let mut t = text;
    if t.len() > 120 {
        t.truncate(120);
    }
    format!("{t}{at}")
}

/// Runs a case, catching panics.
pub fn run_case(case: &Case, options: Options) -> Outcome {
    install_hook();
    let progress = std::sync::Arc::new(std::sync::Mutex::new((0usize, Stats::default())));
    let found = std::sync::Arc::new(std::sync::Mutex::new(Vec::<Failure>::new()));
    let (p2, f2) = (progress.clone(), found.clone());
    QUIET.with(|q| *q.borrow_mut() = true);
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        let mut run = Run::new(&case.config, options, p2)?;
        let mut r = Ok(());
        for (i, op) in case.ops.iter().enumerate() {
            run.op_index = i;
            run.publish();
            if options.trace {
                let mut t = format!("{op:?}");
                t.truncate(300);
                eprintln!("op {i}: {t}");
            }
            r = run.exec(op);
            *f2.lock().expect("found") = run.found.borrow().clone();
            if r.is_err() {
                break;
            }
        }
        if r.is_ok() {
            run.op_index = case.ops.len();
            run.publish();
            r = run.finish();
            *f2.lock().expect("found") = run.found.borrow().clone();
        }
        r.map(|()| run.stats.clone())
    }));
    QUIET.with(|q| *q.borrow_mut() = false);
    let mut all = found.lock().map(|f| f.clone()).unwrap_or_default();
    let outcome = |all: Vec<Failure>, stats: Stats| Outcome {
        failure: all.first().cloned(),
        all,
        stats,
    };
    match result {
        Ok(Ok(stats)) => outcome(all, stats),
        Ok(Err(f)) => {
            let stats = progress.lock().map(|p| p.1.clone()).unwrap_or_default();
            all.push(f);
            outcome(all, stats)
        }
        Err(_) => {
            let (op, stats) = progress
                .lock()
                .map(|p| (p.0, p.1.clone()))
                .unwrap_or_default();
            let msg = LAST_PANIC
                .with(|p| p.borrow_mut().take())
                .unwrap_or_else(|| "(unknown panic)".into());
            all.push(Failure {
                op,
                class: Class::Panic(panic_class(&msg)),
                detail: msg,
            });
            outcome(all, stats)
        }
    }
}

// --------------------------------------------------------------------------------------
// Task hooks that run every piece inline, last piece first.

unsafe extern "C" fn enqueue_reversed(
    task: TaskFn,
    item_count: u32,
    min_range: u32,
    task_context: *mut c_void,
    user_context: *mut c_void,
) -> *mut c_void {
    let workers = (user_context as usize as u32).max(1);
    let piece = min_range.max(1);
    if item_count == 0 {
        return core::ptr::null_mut();
    }
    let mut start = ((item_count - 1) / piece) * piece;
    loop {
        let end = (start + piece).min(item_count);
        // SAFETY: the library handed us this task and context for exactly this range.
        unsafe { task(start, end, (start / piece) % workers, task_context) };
        if start == 0 {
            break;
        }
        start -= piece;
    }
    core::ptr::null_mut()
}

unsafe extern "C" fn finish_nothing(_handle: *mut c_void, _user_context: *mut c_void) {}

// --------------------------------------------------------------------------------------
// The pre-solve callback: a fixed rule on the shapes' indices.

unsafe extern "C" fn pre_solve_rule(contact: *const PreSolveContact, _ctx: *mut c_void) -> bool {
    // SAFETY: the library passes a valid contact for the duration of the call.
    let c = unsafe { &*contact };
    (c.shape_a.index.wrapping_mul(31) ^ c.shape_b.index) % 4 != 0
}

fn pre_solve() -> PreSolve {
    PreSolve {
        callback: pre_solve_rule,
        context: core::ptr::null_mut(),
    }
}

// --------------------------------------------------------------------------------------
// Conversions.

fn v3(v: V3) -> Vec3 {
    Vec3::new(v[0].0, v[1].0, v[2].0)
}
fn dv3(v: DV3) -> DVec3 {
    DVec3::new(v[0].0, v[1].0, v[2].0)
}
fn quat(q: Q) -> Quat {
    Quat::new(q[0].0, q[1].0, q[2].0, q[3].0)
}

/// The world def of a config.
pub fn world_def(c: &WorldConfig) -> WorldDef {
    let [b, s, ct, p, h, j, m, e, sn] = c.capacities;
    WorldDef {
        gravity: v3(c.gravity),
        restitution_threshold: c.restitution_threshold.0,
        contact_hertz: c.contact_hertz.0,
        contact_damping_ratio: c.contact_damping_ratio.0,
        contact_push_max_speed: c.contact_push_max_speed.0,
        joint_damping_ratio: c.joint_damping_ratio.0,
        max_linear_speed: c.max_linear_speed.0,
        enable_sleep: c.enable_sleep,
        body_capacity: b,
        shape_capacity: s,
        contact_capacity: ct,
        pair_capacity: p,
        hull_capacity: h,
        joint_capacity: j,
        mesh_capacity: m,
        content_capacity: c.content_capacity,
        event_capacity: e,
        sensor_capacity: sn,
        character_capacity: c.more_capacities[0],
        vehicle_capacity: c.more_capacities[1],
        water_capacity: c.more_capacities[2],
        // Soft bodies: as many as water volumes (the config predates them, and its
        // printed form is what regression tests hold), 256 particles each.
        soft_body_capacity: c.more_capacities[2],
        soft_particle_capacity: 256 * c.more_capacities[2],
        hit_event_threshold: c.hit_event_threshold.0,
        // Not generated yet: the default rules.
        friction_combine: WorldDef::default().friction_combine,
        restitution_combine: WorldDef::default().restitution_combine,
        allocator: None,
        task_hooks: if c.task_workers > 0 {
            Some(TaskHooks {
                enqueue_task: enqueue_reversed,
                finish_task: finish_nothing,
                user_context: c.task_workers as usize as *mut c_void,
                worker_count: c.task_workers,
            })
        } else {
            None
        },
    }
}

fn char_settings(s: &CharSetD) -> CharacterSettings {
    CharacterSettings {
        max_slope_angle: s.max_slope_angle.0,
        step_height: s.step_height.0,
        skin: s.skin.0,
        max_strength: s.max_strength.0,
        snap_to_ground: s.snap_to_ground.0,
        mass: s.mass.0,
    }
}

fn char_def(d: &CharD) -> CharacterDef {
    CharacterDef {
        position: dv3(d.position),
        up: v3(d.up),
        radius: d.radius.0,
        half_height: d.half_height.0,
        filter: Filter {
            category_bits: d.filter.0,
            mask_bits: d.filter.1,
            group_index: 0,
        },
        settings: char_settings(&d.settings),
    }
}

/// A vehicle def on `chassis`: `wheels` wheels in pairs at ±`spread` (front first), the
/// front pair steering, the driven ones per `drive`.
pub fn vehicle_def(d: &VehicleD, chassis: BodyId) -> VehicleDef {
    let w = &d.wheel;
    let c = w.curve;
    let curve = SlipCurve {
        peak_slip: c[0].0,
        peak: c[1].0,
        sliding_slip: c[2].0,
        sliding: c[3].0,
    };
    let mut def = VehicleDef {
        chassis,
        up: v3(d.axes.0),
        forward: v3(d.axes.1),
        wheel_count: d.wheels,
        engine: EngineDef {
            max_torque: d.engine[0].0,
            min_rpm: d.engine[1].0,
            max_rpm: d.engine[2].0,
            ..EngineDef::default()
        },
        transmission: TransmissionDef {
            gear_count: d.gears.0,
            automatic: d.automatic,
            ..TransmissionDef::default()
        },
        anti_roll_bar_count: d.anti_roll.0,
        ..VehicleDef::default()
    };
    def.transmission.gears[0] = d.gears.1.0;
    let n = (d.wheels as usize).min(maul3d::MAX_WHEELS);
    let rows = n.div_ceil(2).max(1);
    for (i, wheel) in def.wheels.iter_mut().enumerate().take(n) {
        let (side, row) = (if i % 2 == 0 { 1.0 } else { -1.0 }, i / 2);
        let z = if rows == 1 {
            0.0
        } else {
            w.spread[1].0 * (1.0 - 2.0 * row as f32 / (rows - 1) as f32)
        };
        let front = row == 0;
        let driven = match d.drive % 3 {
            0 => row + 1 == rows,
            1 => front,
            _ => true,
        };
        *wheel = WheelDef {
            position: Vec3::new(side * w.spread[0].0, w.height.0, z),
            suspension_direction: v3(w.direction),
            min_length: w.lengths[0].0,
            max_length: w.lengths[1].0,
            rest_length: w.lengths[2].0,
            spring: if w.frequency {
                SuspensionSpring::Frequency {
                    hertz: w.spring[0].0,
                    damping_ratio: w.spring[1].0,
                }
            } else {
                SuspensionSpring::Stiffness {
                    stiffness: w.spring[0].0,
                    damping: w.spring[1].0,
                }
            },
            radius: w.radius.0,
            width: w.width.0,
            inertia: w.inertia.0,
            max_steer_angle: if front { w.steer.0 } else { 0.0 },
            brake_torque: w.brakes[0].0,
            handbrake_torque: if front { 0.0 } else { w.brakes[1].0 },
            driven,
            longitudinal: curve,
            lateral: curve,
            cast: match w.cast % 3 {
                0 => WheelCast::Ray,
                1 => WheelCast::Sphere,
                _ => WheelCast::Cylinder,
            },
        };
    }
    let nb = (d.anti_roll.0 as usize).min(maul3d::MAX_ANTI_ROLL_BARS);
    for (k, bar) in def.anti_roll_bars.iter_mut().enumerate().take(nb) {
        let left = 2 * k as u32;
        *bar = AntiRollBar {
            left,
            right: left + d.anti_roll.2,
            stiffness: d.anti_roll.1.0,
        };
    }
    def
}

/// A soft body's mesh: a cloth, a closed ball, or random (maybe bad) triangles.
fn soft_mesh(d: &SoftD) -> (Vec<Vec3>, Vec<[u32; 3]>) {
    let size = d.size.0;
    match d.kind {
        0 => {
            let n = d.n.max(2) as usize;
            let step = size / (n - 1) as f32;
            let mut v = Vec::new();
            for j in 0..n {
                for i in 0..n {
                    v.push(Vec3::new(i as f32 * step, 0.0, j as f32 * step));
                }
            }
            let mut t = Vec::new();
            for j in 0..n - 1 {
                for i in 0..n - 1 {
                    let a = (i + n * j) as u32;
                    let (b, c, e) = (a + 1, a + n as u32, a + n as u32 + 1);
                    t.push([a, c, b]);
                    t.push([b, c, e]);
                }
            }
            (v, t)
        }
        1 => {
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
            for _ in 0..d.n.min(2) {
                let mut mids = std::collections::BTreeMap::new();
                let mut next = Vec::new();
                for [a, b, c] in t {
                    let mut mid = |x: u32, y: u32| -> u32 {
                        *mids.entry((x.min(y), x.max(y))).or_insert_with(|| {
                            v.push(((v[x as usize] + v[y as usize]) * 0.5).normalize());
                            (v.len() - 1) as u32
                        })
                    };
                    let (ab, bc, ca) = (mid(a, b), mid(b, c), mid(c, a));
                    next.extend([[a, ab, ca], [ab, b, bc], [ca, bc, c], [ab, bc, ca]]);
                }
                t = next;
            }
            (v.into_iter().map(|p| p * (0.5 * size)).collect(), t)
        }
        _ => {
            let n = d.n as usize + 2;
            let v = (0..n)
                .map(|i| Vec3::new((i % 3) as f32 * size, (i / 3) as f32 * size, (i % 2) as f32))
                .collect();
            // Indices from the bits of the mask: some repeated, some past the end.
            let t = (0..d.n)
                .map(|k| {
                    let b = d.mask.rotate_left(7 * k);
                    [(b & 7) as u32, ((b >> 3) & 7) as u32, ((b >> 6) & 7) as u32]
                })
                .collect();
            (v, t)
        }
    }
}

fn soft_settings(d: &SoftD) -> SoftBodySettings {
    let s = d.settings.map(|f| f.0);
    SoftBodySettings {
        mass: s[0],
        substeps: d.substeps,
        edge_compliance: s[1],
        bend_compliance: s[2],
        volume_compliance: s[3],
        volume_scale: s[4],
        pressure: s[5],
        damping: s[6],
        drag: s[7],
        friction: s[8],
        particle_radius: s[9],
        gravity_scale: s[10],
        long_range_stretch: s[11],
        self_collision: d.self_collision,
    }
}

fn water_def(d: &WaterD) -> WaterVolumeDef {
    WaterVolumeDef {
        center: dv3(d.center),
        rotation: quat(d.rotation),
        half_extents: v3(d.half),
        density: d.density.0,
        linear_drag: d.drag[0].0,
        angular_drag: d.drag[1].0,
        flow: v3(d.flow),
        filter: Filter {
            category_bits: 1,
            mask_bits: d.mask,
            group_index: 0,
        },
    }
}

fn body_def(d: &BodyD) -> BodyDef {
    BodyDef {
        body_type: match d.ty % 3 {
            0 => BodyType::Static,
            1 => BodyType::Kinematic,
            _ => BodyType::Dynamic,
        },
        position: dv3(d.position),
        rotation: quat(d.rotation),
        linear_velocity: v3(d.linear),
        angular_velocity: v3(d.angular),
        linear_damping: d.linear_damping.0,
        angular_damping: d.angular_damping.0,
        gravity_scale: d.gravity_scale.0,
        sleep_threshold: d.sleep_threshold.0,
        enable_sleep: d.flags & 1 != 0,
        is_awake: d.flags & 2 != 0,
        is_bullet: d.flags & 4 != 0,
        is_enabled: d.flags & 8 != 0,
        motion_locks: MotionLocks::from_bits(d.locks),
        custom_integrator: d.flags & 16 != 0,
        user_data: 7,
    }
}

fn shape_def(d: &ShapeD) -> ShapeDef {
    ShapeDef {
        density: d.density.0,
        friction: d.friction.0,
        restitution: d.restitution.0,
        // Not generated yet.
        rough: false,
        absorbent: false,
        two_sided: false,
        rolling_resistance: d.rolling.0,
        filter: Filter {
            category_bits: d.category,
            mask_bits: d.mask,
            group_index: d.group,
        },
        enable_contact_events: d.flags & 1 != 0,
        is_sensor: d.flags & 2 != 0,
        enable_sensor_events: d.flags & 4 != 0,
        enable_hit_events: d.flags & 8 != 0,
        enable_pre_solve: d.flags & 16 != 0,
        user_data: 3,
    }
}

fn area_mode(m: u8) -> AreaMode {
    match m % 5 {
        0 => AreaMode::Disabled,
        1 => AreaMode::Combine,
        2 => AreaMode::CombineReplace,
        3 => AreaMode::Replace,
        _ => AreaMode::ReplaceCombine,
    }
}

fn area(a: &AreaD) -> AreaSettings {
    AreaSettings {
        priority: a.priority,
        gravity_mode: area_mode(a.gravity_mode),
        gravity: if a.point {
            AreaGravity::Point {
                center: v3(a.gravity),
                strength: a.strength.0,
                unit_distance: a.unit_distance.0,
            }
        } else {
            AreaGravity::Directional(v3(a.gravity))
        },
        linear_damping_mode: area_mode(a.linear_mode),
        linear_damping: a.linear_damping.0,
        angular_damping_mode: area_mode(a.angular_mode),
        angular_damping: a.angular_damping.0,
    }
}

fn axis(a: &AxisD) -> SixDofAxis {
    SixDofAxis {
        mode: match a.mode % 3 {
            0 => AxisMode::Free,
            1 => AxisMode::Limited {
                lower: a.lower.0,
                upper: a.upper.0,
            },
            _ => AxisMode::Locked,
        },
        spring_hertz: a.hertz.0,
        spring_damping_ratio: a.damping.0,
        motor_speed: a.speed.0,
        max_motor_force: a.force.0,
        ..SixDofAxis::FREE
    }
}

fn joint_kind(k: &JointD) -> JointKind {
    match *k {
        JointD::Spherical => JointKind::Spherical,
        JointD::Revolute {
            limit,
            lower,
            upper,
            motor,
            speed,
            torque,
            spring,
            hertz,
            damping,
        } => JointKind::Revolute(RevoluteJoint {
            enable_limit: limit,
            lower: lower.0,
            upper: upper.0,
            enable_motor: motor,
            motor_speed: speed.0,
            max_motor_torque: torque.0,
            enable_spring: spring,
            hertz: hertz.0,
            damping_ratio: damping.0,
            ..Default::default()
        }),
        JointD::Prismatic {
            limit,
            lower,
            upper,
            motor,
            speed,
            force,
            spring,
            hertz,
            damping,
        } => JointKind::Prismatic(PrismaticJoint {
            enable_limit: limit,
            lower: lower.0,
            upper: upper.0,
            enable_motor: motor,
            motor_speed: speed.0,
            max_motor_force: force.0,
            enable_spring: spring,
            hertz: hertz.0,
            damping_ratio: damping.0,
            ..Default::default()
        }),
        JointD::Weld {
            linear_hertz,
            angular_hertz,
            damping,
        } => JointKind::Weld(WeldJoint {
            linear_hertz: linear_hertz.0,
            angular_hertz: angular_hertz.0,
            damping_ratio: damping.0,
        }),
        JointD::Distance {
            length,
            min,
            max,
            spring,
            hertz,
            damping,
        } => JointKind::Distance(DistanceJoint {
            length: length.0,
            min_length: min.0,
            max_length: max.0,
            enable_spring: spring,
            hertz: hertz.0,
            damping_ratio: damping.0,
        }),
        JointD::ConeTwist {
            swing,
            twist_lower,
            twist_upper,
            friction,
        } => JointKind::ConeTwist(ConeTwistJoint {
            swing_limit: swing.0,
            twist_lower: twist_lower.0,
            twist_upper: twist_upper.0,
            max_friction_torque: friction.0,
        }),
        JointD::SixDof { axes } => JointKind::SixDof(SixDofJoint {
            axes: [
                axis(&axes[0]),
                axis(&axes[1]),
                axis(&axes[2]),
                axis(&axes[3]),
                axis(&axes[4]),
                axis(&axes[5]),
            ],
        }),
        JointD::Wheel {
            spring,
            hertz,
            damping,
            limit,
            lower,
            upper,
            motor,
            speed,
            torque,
        } => JointKind::Wheel(WheelJoint {
            enable_spring: spring,
            hertz: hertz.0,
            damping_ratio: damping.0,
            enable_limit: limit,
            lower: lower.0,
            upper: upper.0,
            enable_motor: motor,
            motor_speed: speed.0,
            max_motor_torque: torque.0,
        }),
    }
}

/// A small deterministic hash of integers, for generated content.
fn mix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

fn unit(x: u64) -> f32 {
    (mix(x) >> 40) as f32 / (1u64 << 24) as f32
}

/// A hull's points: on a unit sphere (golden-angle spiral) with jitter, scaled.
pub fn hull_points(s: &HullSpec) -> Vec<Vec3> {
    let n = match s.bad {
        3 => 65,
        _ => s.n.clamp(1, 64),
    } as usize;
    let sc = v3(s.scale);
    let mut out = Vec::with_capacity(n);
    for i in 0..n {
        let t = (i as f32 + 0.5) / n as f32;
        let y = 1.0 - 2.0 * t;
        let r = sqrt(maul3d::math::max(1.0 - y * y, 0.0));
        let a = 2.399_963 * i as f32;
        let j = 0.1 * unit(s.seed as u64 * 131 + i as u64);
        let p = Vec3::new(r * cos(a), y, r * sin(a)) * (1.0 + j);
        out.push(Vec3::new(p.x * sc.x, p.y * sc.y, p.z * sc.z));
    }
    match s.bad {
        1 => out.iter_mut().for_each(|p| p.y = 0.0),
        2 => out[n / 2].x = f32::NAN,
        4 => out.iter_mut().for_each(|p| *p = Vec3::new(0.5, 0.5, 0.5)),
        5 => out[0].x = 2.0e6,
        _ => {}
    }
    out
}

/// A mesh's vertices and triangles: a wavy grid.
pub fn mesh_content(s: &MeshSpec) -> (Vec<Vec3>, Vec<[u32; 3]>) {
    let (nx, nz) = (s.nx.clamp(2, 256), s.nz.clamp(2, 256));
    let o = v3(s.offset);
    let mut v = Vec::with_capacity((nx * nz) as usize);
    for z in 0..nz {
        for x in 0..nx {
            let h = s.amp.0 * sin(0.7 * x as f32) * cos(0.5 * z as f32);
            v.push(Vec3::new(
                o.x + x as f32 * s.cell.0,
                o.y + h,
                o.z + z as f32 * s.cell.0,
            ));
        }
    }
    let mut t = Vec::new();
    for z in 0..nz - 1 {
        for x in 0..nx - 1 {
            let i = z * nx + x;
            t.push([i, i + nx, i + 1]);
            t.push([i + 1, i + nx, i + nx + 1]);
        }
    }
    match s.bad {
        1 => t[0] = [0, 0, 1],
        2 => t[0][2] = nx * nz,
        3 => v[1].y = f32::NAN,
        4 => t.clear(),
        5 => v[0].x = 3.0e6,
        _ => {}
    }
    (v, t)
}

/// A height field's samples and holes.
pub fn height_content(s: &HeightD) -> (Vec<f32>, Vec<bool>) {
    let (nx, nz) = (s.nx.clamp(2, 4096), s.nz.clamp(2, 4096));
    let mut h = Vec::with_capacity((nx * nz) as usize);
    for z in 0..nz {
        for x in 0..nx {
            h.push(s.amp.0 * sin(0.6 * x as f32) * cos(0.4 * z as f32));
        }
    }
    let cells = ((nx - 1) * (nz - 1)) as usize;
    let mut holes = if s.holes > 0 {
        (0..cells).map(|i| i % s.holes as usize == 1).collect()
    } else {
        Vec::new()
    };
    match s.bad {
        1 => {
            h.pop();
        }
        2 => h[0] = f32::NAN,
        3 => holes = vec![false; cells + 1],
        _ => {}
    }
    (h, holes)
}

/// A voxel grid's 4096 materials.
pub fn voxel_data(pattern: u8) -> Vec<u8> {
    (0..4096usize)
        .map(|i| {
            let (x, y, z) = (i % 16, (i / 16) % 16, i / 256);
            match pattern % 5 {
                0 => (y == 0) as u8,
                1 => (y < 3) as u8 * 2,
                2 => ((x + y + z) % 3 == 0) as u8,
                3 => (mix(i as u64) % 5 == 0) as u8 * 3,
                _ => 0,
            }
        })
        .collect()
}

fn snapshot(w: &World) -> R<Vec<u8>> {
    let mut buf = vec![0u8; w.snapshot_size()];
    match w.snapshot(&mut buf) {
        Ok(n) if n == buf.len() => Ok(buf),
        Ok(n) => Err(Failure {
            op: 0,
            class: Class::RestoreNotExact,
            detail: format!("snapshot wrote {n} bytes, snapshot_size said {}", buf.len()),
        }),
        Err(e) => Err(Failure {
            op: 0,
            class: Class::RestoreNotExact,
            detail: format!("snapshot refused its own size: {e}"),
        }),
    }
}

/// Two snapshots hold the same world: equal bytes but for the header's checksum and the
/// journal section (a snapshot taken while a journal runs carries the journal's place in
/// it; a fresh world restored from it runs no journal, so its own snapshot has none).
fn same_state_bytes(a: &[u8], b: &[u8]) -> bool {
    let (h, j) = (maul3d::SNAPSHOT_HEADER_SIZE, maul3d::SNAPSHOT_JOURNAL_SIZE);
    a.len() == b.len()
        && a.len() >= h + j
        && a[..24] == b[..24]
        && a[h..a.len() - j] == b[h..b.len() - j]
}

fn finite3(v: Vec3) -> bool {
    v.x.is_finite() && v.y.is_finite() && v.z.is_finite()
}
fn finite_d3(v: DVec3) -> bool {
    v.x.is_finite() && v.y.is_finite() && v.z.is_finite()
}

/// Counts what debug draw hands out and checks it is finite.
struct Drawn {
    bad: u32,
}

impl DebugDraw for Drawn {
    fn shape(
        &mut self,
        _shape: ShapeId,
        _body: BodyId,
        position: DVec3,
        rotation: Quat,
        _geometry: &DebugGeometry<'_>,
        _awake: bool,
    ) {
        if !finite_d3(position) || !rotation.is_valid() {
            self.bad += 1;
        }
    }
    fn contact(&mut self, point: DVec3, normal: Vec3, separation: f32, normal_impulse: f32) {
        if !finite_d3(point) || !finite3(normal) || !separation.is_finite() {
            self.bad += 1;
        }
        if !normal_impulse.is_finite() {
            self.bad += 1;
        }
    }
    fn bounds(&mut self, _shape: ShapeId, aabb: &DAabb) {
        if !finite_d3(aabb.lower) || !finite_d3(aabb.upper) {
            self.bad += 1;
        }
    }
    fn joint(
        &mut self,
        _joint: JointId,
        frame_a: (DVec3, Quat),
        frame_b: (DVec3, Quat),
        _broken: bool,
    ) {
        if !finite_d3(frame_a.0)
            || !finite_d3(frame_b.0)
            || !frame_a.1.is_valid()
            || !frame_b.1.is_valid()
        {
            self.bad += 1;
        }
    }
}

// --------------------------------------------------------------------------------------
// The run.

struct Run {
    w: World,
    options: Options,
    bodies: Vec<BodyId>,
    shapes: Vec<ShapeId>,
    hulls: Vec<HullId>,
    meshes: Vec<MeshId>,
    joints: Vec<JointId>,
    characters: Vec<CharacterId>,
    vehicles: Vec<VehicleId>,
    waters: Vec<WaterVolumeId>,
    softs: Vec<SoftBodyId>,
    /// Saved snapshots: bytes, hash, and the journal they were taken during (if any).
    saved: [Option<Saved>; 4],
    /// Counts started journals; the running one's number.
    journal_epoch: u64,
    /// A restore the journal could not account for was accepted: its tape is not checked.
    journal_poisoned: bool,
    found: RefCell<Vec<Failure>>,
    journal_start: Option<Vec<u8>>,
    last_tape: Option<Vec<u8>>,
    pre_solve_on: bool,
    /// The live world solves one constraint at a time (not state).
    one_at_a_time: bool,
    /// The lanes the live world is forced to (`Auto`: as dispatched, what twins run).
    lanes: maul3d::SolverLanes,
    /// The live world runs through task hooks.
    hooks: bool,
    op_index: usize,
    steps_seen: u64,
    stats: Stats,
    progress: std::sync::Arc<std::sync::Mutex<(usize, Stats)>>,
}

/// A snapshot the case saved: bytes, hash, and the journal it was taken during.
type Saved = (Vec<u8>, u64, Option<u64>);

/// Which pool a pick names.
#[derive(Clone, Copy, PartialEq)]
enum Pool {
    Body,
    Shape,
    Hull,
    Mesh,
    Voxel,
    Joint,
    Character,
    Vehicle,
    Water,
    Soft,
}

impl Run {
    fn new(
        c: &WorldConfig,
        options: Options,
        progress: std::sync::Arc<std::sync::Mutex<(usize, Stats)>>,
    ) -> R<Run> {
        let w = World::new(&world_def(c)).map_err(|e| Failure {
            op: 0,
            class: Class::RefusalChangedState,
            detail: format!("the case's world def was refused: {e}"),
        })?;
        Ok(Run {
            w,
            options,
            bodies: Vec::new(),
            shapes: Vec::new(),
            hulls: Vec::new(),
            meshes: Vec::new(),
            joints: Vec::new(),
            characters: Vec::new(),
            vehicles: Vec::new(),
            waters: Vec::new(),
            softs: Vec::new(),
            saved: [None, None, None, None],
            journal_epoch: 0,
            journal_poisoned: false,
            found: RefCell::new(Vec::new()),
            journal_start: None,
            last_tape: None,
            pre_solve_on: false,
            one_at_a_time: false,
            lanes: maul3d::SolverLanes::Auto,
            hooks: c.task_workers > 0,
            op_index: 0,
            steps_seen: 0,
            stats: Stats::default(),
            progress,
        })
    }

    /// The live world's snapshot.
    fn snap(&self) -> R<Vec<u8>> {
        snapshot(&self.w).map_err(|mut f| {
            f.op = self.op_index;
            f
        })
    }

    fn publish(&self) {
        if let Ok(mut p) = self.progress.lock() {
            *p = (self.op_index, self.stats.clone());
        }
    }

    /// A broken promise. Stops the case, or with `keep_going` records it (once per
    /// class) and lets the case go on (the caller skips the rest of its checks).
    fn fail<T: Default>(&self, class: Class, detail: impl Into<String>) -> R<T> {
        let f = Failure {
            op: self.op_index,
            class,
            detail: detail.into(),
        };
        if !self.options.keep_going {
            return Err(f);
        }
        let mut found = self.found.borrow_mut();
        if !found.iter().any(|g| g.class == f.class) {
            found.push(f);
        }
        Ok(T::default())
    }

    fn live(&self, pool: Pool, i: usize) -> bool {
        let w = &self.w;
        match pool {
            Pool::Body => w.body_is_valid(self.bodies[i]),
            Pool::Shape => w.shape_body(self.shapes[i]).is_ok(),
            Pool::Hull => w.hull_points(self.hulls[i]).is_ok(),
            Pool::Mesh => w.mesh_triangle_count(self.meshes[i]).is_ok(),
            Pool::Voxel => w.voxel_boxes(self.meshes[i]).is_ok(),
            Pool::Joint => w.joint_is_valid(self.joints[i]),
            Pool::Character => w.character_position(self.characters[i]).is_ok(),
            Pool::Vehicle => w.vehicle_is_valid(self.vehicles[i]),
            Pool::Water => w.water_volume(self.waters[i]).is_ok(),
            Pool::Soft => w.soft_body_particle_count(self.softs[i]).is_ok(),
        }
    }

    fn len(&self, pool: Pool) -> usize {
        match pool {
            Pool::Body => self.bodies.len(),
            Pool::Shape => self.shapes.len(),
            Pool::Hull => self.hulls.len(),
            Pool::Mesh | Pool::Voxel => self.meshes.len(),
            Pool::Joint => self.joints.len(),
            Pool::Character => self.characters.len(),
            Pool::Vehicle => self.vehicles.len(),
            Pool::Water => self.waters.len(),
            Pool::Soft => self.softs.len(),
        }
    }

    /// The index into the pool's list a pick names, or `None` for null / foreign.
    fn resolve(&self, pool: Pool, pick: Pick) -> Result<usize, bool> {
        if pick == NULL_PICK {
            return Err(false);
        }
        if pick == FOREIGN_PICK {
            return Err(true);
        }
        let n = self.len(pool);
        if n == 0 {
            return Err(false);
        }
        if pick == LAST_PICK {
            return Ok(n - 1);
        }
        if pick & ANY_PICK != 0 {
            return Ok((pick & !ANY_PICK) as usize % n);
        }
        let live: Vec<usize> = (0..n).filter(|&i| self.live(pool, i)).collect();
        if live.is_empty() {
            return Ok(pick as usize % n);
        }
        Ok(live[pick as usize % live.len()])
    }

    fn foreign_tag(&self) -> u32 {
        self.w.id_tag().wrapping_add(0x4000_0000)
    }

    fn body(&self, pick: Pick) -> BodyId {
        match self.resolve(Pool::Body, pick) {
            Ok(i) => self.bodies[i],
            Err(false) => BodyId::NULL,
            Err(true) => BodyId {
                index: 1,
                generation: 1,
                world: self.foreign_tag(),
            },
        }
    }
    fn shape(&self, pick: Pick) -> ShapeId {
        match self.resolve(Pool::Shape, pick) {
            Ok(i) => self.shapes[i],
            Err(false) => ShapeId::NULL,
            Err(true) => ShapeId {
                index: 1,
                generation: 1,
                world: self.foreign_tag(),
            },
        }
    }
    fn hull(&self, pick: Pick) -> HullId {
        match self.resolve(Pool::Hull, pick) {
            Ok(i) => self.hulls[i],
            Err(false) => HullId::NULL,
            Err(true) => HullId {
                index: 1,
                generation: 1,
                world: self.foreign_tag(),
            },
        }
    }
    fn mesh(&self, pick: Pick, voxel: bool) -> MeshId {
        let pool = if voxel { Pool::Voxel } else { Pool::Mesh };
        match self.resolve(pool, pick) {
            Ok(i) => self.meshes[i],
            Err(false) => MeshId::NULL,
            Err(true) => MeshId {
                index: 1,
                generation: 1,
                world: self.foreign_tag(),
            },
        }
    }
    fn joint(&self, pick: Pick) -> JointId {
        match self.resolve(Pool::Joint, pick) {
            Ok(i) => self.joints[i],
            Err(false) => JointId::NULL,
            Err(true) => JointId {
                index: 1,
                generation: 1,
                world: self.foreign_tag(),
            },
        }
    }

    fn character(&self, pick: Pick) -> CharacterId {
        match self.resolve(Pool::Character, pick) {
            Ok(i) => self.characters[i],
            Err(false) => CharacterId::NULL,
            Err(true) => CharacterId {
                index: 1,
                generation: 1,
                world: self.foreign_tag(),
            },
        }
    }
    fn vehicle(&self, pick: Pick) -> VehicleId {
        match self.resolve(Pool::Vehicle, pick) {
            Ok(i) => self.vehicles[i],
            Err(false) => VehicleId::NULL,
            Err(true) => VehicleId {
                index: 1,
                generation: 1,
                world: self.foreign_tag(),
            },
        }
    }
    fn water(&self, pick: Pick) -> WaterVolumeId {
        match self.resolve(Pool::Water, pick) {
            Ok(i) => self.waters[i],
            Err(false) => WaterVolumeId::NULL,
            Err(true) => WaterVolumeId {
                index: 1,
                generation: 1,
                world: self.foreign_tag(),
            },
        }
    }

    fn soft(&self, pick: Pick) -> SoftBodyId {
        match self.resolve(Pool::Soft, pick) {
            Ok(i) => self.softs[i],
            Err(false) => SoftBodyId::NULL,
            Err(true) => SoftBodyId {
                index: 1,
                generation: 1,
                world: self.foreign_tag(),
            },
        }
    }

    /// Makes a world-changing call: a refusal must leave the hash as it was.
    fn call<T>(
        &mut self,
        name: &str,
        f: impl FnOnce(&mut World) -> maul3d::Result<T>,
    ) -> R<Option<T>> {
        let before = self.w.hash();
        match f(&mut self.w) {
            Ok(v) => {
                self.stats.accepted += 1;
                self.stats.calls.entry(name.to_string()).or_default().0 += 1;
                Ok(Some(v))
            }
            Err(e) => {
                self.stats.refused += 1;
                self.stats.calls.entry(name.to_string()).or_default().1 += 1;
                let after = self.w.hash();
                if after != before {
                    return self.fail(
                        Class::RefusalChangedState,
                        format!(
                            "{name} was refused ({e}) but the hash moved {before:#x} -> {after:#x}"
                        ),
                    );
                }
                Ok(None)
            }
        }
    }

    /// No body holds a non-finite or denormalised state.
    fn check_bodies(&self, when: &str) -> R {
        for id in self.w.body_ids() {
            let p = self.w.body_position(id).expect("live body");
            let q = self.w.body_rotation(id).expect("live body");
            let v = self.w.body_linear_velocity(id).expect("live body");
            let a = self.w.body_angular_velocity(id).expect("live body");
            let c = self.w.body_center_of_mass(id).expect("live body");
            let n2 = q.length_squared();
            if !finite_d3(p)
                || !finite_d3(c)
                || !q.is_valid()
                || !finite3(v)
                || !finite3(a)
                || (n2 - 1.0).abs() >= 1.0e-3
            {
                return self.fail(
                    Class::NonFinite,
                    format!(
                        "{when}: body {id:?} ({:?}) position {p:?} com {c:?} rotation {q:?} (|q|² {n2}) velocity {v:?} angular {a:?}",
                        self.w.body_type(id)
                    ),
                );
            }
        }
        Ok(())
    }

    /// Every character is finite and keeps a live kinematic inner body; every vehicle a
    /// live dynamic chassis and finite wheel state.
    fn check_characters(&self, when: &str) -> R {
        let w = &self.w;
        for c in w.character_ids() {
            let p = w.character_position(c).expect("live character");
            let v = w.character_velocity(c).expect("live character");
            let g = w.character_ground(c).expect("live character");
            if !finite_d3(p) || !finite3(v) || !finite3(g.normal) || !finite3(g.velocity) {
                return self.fail(
                    Class::NonFinite,
                    format!("{when}: character {c:?} at {p:?} velocity {v:?} ground {g:?}"),
                );
            }
            let b = w.character_body(c).expect("live character");
            if w.body_type(b) != Ok(BodyType::Kinematic) {
                return self.fail(
                    Class::DanglingObject,
                    format!(
                        "{when}: character {c:?}'s inner body {b:?} is {:?}",
                        w.body_type(b)
                    ),
                );
            }
        }
        for v in w.vehicle_ids() {
            let d = w.vehicle_def(v).expect("live vehicle");
            // The chassis may be made kinematic or static (the vehicle then idles) but
            // must be alive: destroying it destroys the vehicle.
            if w.body_type(d.chassis).is_err() {
                return self.fail(
                    Class::DanglingObject,
                    format!(
                        "{when}: vehicle {v:?}'s chassis {:?} is {:?}",
                        d.chassis,
                        w.body_type(d.chassis)
                    ),
                );
            }
            let rpm = w.vehicle_engine_rpm(v).expect("live vehicle");
            let speed = w.vehicle_forward_speed(v).expect("live vehicle");
            let mut ok = rpm.is_finite() && speed.is_finite();
            for i in 0..d.wheel_count {
                let wc = w.wheel_contact(v, i).expect("a wheel");
                ok &= w.wheel_suspension_length(v, i).is_ok_and(f32::is_finite)
                    && w.wheel_angular_velocity(v, i).is_ok_and(f32::is_finite)
                    && w.wheel_rotation_angle(v, i).is_ok_and(f32::is_finite)
                    && w.wheel_steer_angle(v, i).is_ok_and(f32::is_finite)
                    && finite_d3(wc.point)
                    && finite3(wc.normal)
                    && wc.longitudinal_slip.is_finite()
                    && wc.lateral_slip.is_finite();
            }
            if !ok {
                return self.fail(
                    Class::NonFinite,
                    format!("{when}: vehicle {v:?}: rpm {rpm}, forward speed {speed}, or a wheel's state is not finite"),
                );
            }
        }
        for h in w.water_volume_ids() {
            for b in w.body_ids().take(64) {
                if let Ok(by) = w.water_buoyancy(h, b) {
                    if !by.submerged_volume.is_finite()
                        || !by.total_volume.is_finite()
                        || !finite_d3(by.center_of_buoyancy)
                    {
                        return self.fail(
                            Class::NonFinite,
                            format!("{when}: water {h:?} on body {b:?}: {by:?}"),
                        );
                    }
                }
            }
        }
        Ok(())
    }

    /// A moving body has a shape whose bounds reach ±2^22.
    /// Whether `body` could reach ±2^22 in a step of `dt`: an enabled dynamic body moves
    /// at most `max_linear_speed`, a kinematic one at its own speed, and its shapes lie
    /// within its fat bounds (the world's own rule measures from the centre of mass, so
    /// allow the offset twice).
    fn could_leave_bounds(&self, body: BodyId, dt: f32) -> bool {
        let limit = maul3d::math::POSITION_LIMIT;
        let w = &self.w;
        let (Ok(ty), Ok(true)) = (w.body_type(body), w.body_is_enabled(body)) else {
            return false;
        };
        let speed = match ty {
            BodyType::Static => return false,
            BodyType::Dynamic => w.def().max_linear_speed as f64,
            BodyType::Kinematic => w
                .body_linear_velocity(body)
                .map_or(0.0, |v| v.length() as f64),
        };
        let (Ok(p), Ok(c)) = (w.body_position(body), w.body_center_of_mass(body)) else {
            return false;
        };
        let d = c - p;
        let offset = (d.x * d.x + d.y * d.y + d.z * d.z).sqrt();
        let mut corner = 0.0f64;
        // Every shape of the body, those the engine made too (a character's capsule).
        let shapes: Vec<_> = w.body_shapes(body).map(|i| i.collect()).unwrap_or_default();
        for s in shapes {
            if let Ok(a) = w.shape_fat_aabb(s) {
                for q in [a.lower, a.upper] {
                    let e = q - p;
                    corner = max_f64(corner, (e.x * e.x + e.y * e.y + e.z * e.z).sqrt());
                }
                let lo = a.lower - p;
                let hi = a.upper - p;
                let far = DVec3::new(
                    max_f64(lo.x.abs(), hi.x.abs()),
                    max_f64(lo.y.abs(), hi.y.abs()),
                    max_f64(lo.z.abs(), hi.z.abs()),
                );
                corner = max_f64(
                    corner,
                    (far.x * far.x + far.y * far.y + far.z * far.z).sqrt(),
                );
            }
        }
        p.max_abs() + speed * dt as f64 + 2.0 * offset + corner + 1.2 >= limit
    }

    /// A fresh world in the state of `snap`: it must restore, to the same hash and bytes.
    fn twin_of(&self, snap: &[u8], hash: u64, what: &str) -> R<Option<World>> {
        let def = match World::def_from_snapshot(snap) {
            Ok(d) => d,
            Err(e) => {
                return self.fail(
                    Class::OwnSnapshotRefused,
                    format!("{what}: def_from_snapshot refused the world's own snapshot: {e}"),
                );
            }
        };
        let mut twin = match World::new(&def) {
            Ok(t) => t,
            Err(e) => {
                return self.fail(
                    Class::OwnSnapshotRefused,
                    format!("{what}: the snapshot's def makes no world: {e}"),
                );
            }
        };
        if self.pre_solve_on {
            twin.set_pre_solve(Some(pre_solve()));
        }
        if let Err(e) = twin.restore(snap) {
            return self.fail(
                Class::OwnSnapshotRefused,
                format!(
                    "{what}: restore refused the world's own snapshot: {e}; {}",
                    self.describe_bodies()
                ),
            );
        }
        if twin.hash() != hash {
            return self.fail(
                Class::RestoreNotExact,
                format!(
                    "{what}: restored hash {:#x} != world's {hash:#x}",
                    twin.hash()
                ),
            );
        }
        let back = snapshot(&twin).map_err(|mut f| {
            f.op = self.op_index;
            f
        })?;
        if !same_state_bytes(&back, snap) {
            return self.fail(
                Class::RestoreNotExact,
                format!("{what}: the restored world's snapshot differs from the one restored"),
            );
        }
        Ok(Some(twin))
    }

    /// The fastest bodies, for failure reports.
    fn describe_bodies(&self) -> String {
        let mut rows: Vec<(f32, String)> = self
            .w
            .body_ids()
            .map(|id| {
                let v = self.w.body_linear_velocity(id).unwrap_or(Vec3::ZERO);
                let a = self.w.body_angular_velocity(id).unwrap_or(Vec3::ZERO);
                let m = maul3d::math::max(v.abs().max_element(), a.abs().max_element());
                (
                    if m.is_nan() { f32::INFINITY } else { m },
                    format!(
                        "{id:?} {:?} p {:?} v {v:?} w {a:?}",
                        self.w.body_type(id).ok(),
                        self.w.body_position(id).ok()
                    ),
                )
            })
            .collect();
        rows.sort_by(|a, b| b.0.total_cmp(&a.0));
        rows.truncate(2);
        let rows: Vec<String> = rows.into_iter().map(|r| r.1).collect();
        // And the farthest out, for position-bound failures.
        let far = self
            .w
            .body_ids()
            .filter_map(|id| self.w.body_position(id).ok().map(|p| (p.max_abs(), id)))
            .max_by(|a, b| a.0.total_cmp(&b.0));
        let far = match far {
            Some((_, id)) => format!(
                "{id:?} {:?} p {:?} v {:?}",
                self.w.body_type(id).ok(),
                self.w.body_position(id).ok(),
                self.w.body_linear_velocity(id).ok()
            ),
            None => "none".into(),
        };
        format!("fastest: {}; farthest: {far}", rows.join("; "))
    }

    fn step(&mut self, dt: f32, substeps: u32) -> R {
        self.steps_seen += 1;
        let twin_check = self.steps_seen % self.options.twin_every.max(1) == 0;
        let before = self.w.hash();
        let pre_snap = if twin_check { Some(self.snap()?) } else { None };
        let mut twin = match &pre_snap {
            Some(snap) => self.twin_of(snap, before, "before the step")?,
            None => None,
        };
        // Centres of mass of the bodies that may move.
        let starts: Vec<(BodyId, DVec3)> = self
            .w
            .body_ids()
            .filter(|&b| self.w.body_type(b) == Ok(BodyType::Dynamic))
            .filter_map(|b| self.w.body_center_of_mass(b).ok().map(|c| (b, c)))
            .collect();
        // The clock only measures the step for the report; it never enters a world.
        #[allow(clippy::disallowed_methods)]
        let t0 = Instant::now();
        let r = self.w.step(dt, substeps);
        let took = t0.elapsed().as_secs_f64();
        if took > self.stats.slowest_step {
            self.stats.slowest_step = took;
            self.stats.slowest_op = self.op_index;
        }
        let rt = twin.as_mut().map(|t| t.step(dt, substeps));
        match r {
            Err(e) => {
                self.stats.refused += 1;
                if self.w.hash() != before {
                    return self.fail(
                        Class::RefusalChangedState,
                        format!("step({dt}, {substeps}) refused ({e}) but the hash moved"),
                    );
                }
                if let Some(Ok(())) = rt {
                    return self.fail(
                        Class::TwinDiverged,
                        format!(
                            "step({dt}, {substeps}) refused ({e}) but the restored twin stepped"
                        ),
                    );
                }
                match e {
                    Error::BodyOutOfBounds { body, .. } if !self.could_leave_bounds(body, dt) => {
                        return self.fail(
                            Class::SpuriousOutOfBounds,
                            format!("step refused ({e}) but that body could not reach ±2^22 in it"),
                        );
                    }
                    Error::OutOfBounds { .. } => {
                        return self.fail(
                            Class::SpuriousOutOfBounds,
                            format!("step refused ({e}) without naming the body"),
                        );
                    }
                    _ => {}
                }
                return Ok(());
            }
            Ok(()) => {
                self.stats.accepted += 1;
                self.stats.steps += 1;
                // Continuous collision's work is bounded per query and per body (issue 12,
                // item 7): counted, never timed.
                let c = self.w.counters();
                let moving = self
                    .w
                    .body_ids()
                    .filter(|&b| self.w.body_type(b) != Ok(BodyType::Static))
                    .count() as u64;
                let q = c.toi_queries as u64;
                let bounded = (c.toi_iterations as u64)
                    <= q * maul3d::collide::cast::MAX_TOI_ITERATIONS as u64
                    && (c.toi_root_iterations as u64)
                        <= q * maul3d::collide::cast::MAX_TOI_EVALUATIONS as u64
                    && q <= 2 * moving * maul3d::MAX_SWEEP_CANDIDATES as u64;
                if !bounded {
                    return self.fail(
                        Class::UnboundedWork,
                        format!(
                            "step({dt}, {substeps}): {q} time-of-impact queries ({moving} moving bodies), {} iterations, {} evaluations",
                            c.toi_iterations, c.toi_root_iterations
                        ),
                    );
                }
            }
        }
        let after = self.w.hash();
        if let (Some(t), Some(rt)) = (twin.as_ref(), rt) {
            if let Err(e) = rt {
                return self.fail(
                    Class::TwinDiverged,
                    format!(
                        "step({dt}, {substeps}) accepted but the restored twin refused it: {e}"
                    ),
                );
            }
            if t.hash() != after {
                let mut rows = [maul3d::BodyDiff::default(); 3];
                let n = World::compare(&self.w, t, &mut rows);
                let (a, b) = (self.w.counters(), t.counters());
                // The twin steps on one thread with the wide solver. If the live world
                // uses task hooks or one-at-a-time solving, a twin with those settings
                // tells whether restore or the settings changed the bits.
                let forced = self.one_at_a_time || self.lanes != maul3d::SolverLanes::Auto;
                if self.hooks || forced {
                    if let Some(snap) = &pre_snap {
                        let stepped = |hooks: bool, one: bool| -> Option<u64> {
                            let mut def = World::def_from_snapshot(snap).ok()?;
                            if hooks {
                                def.task_hooks = self.w.def().task_hooks;
                            }
                            let mut w = World::new(&def).ok()?;
                            w.set_solve_one_at_a_time(one);
                            w.set_solver_lanes(self.lanes).ok()?;
                            if self.pre_solve_on {
                                w.set_pre_solve(Some(pre_solve()));
                            }
                            w.restore(snap).ok()?;
                            w.step(dt, substeps).ok()?;
                            Some(w.hash())
                        };
                        if stepped(self.hooks, self.one_at_a_time) == Some(after) {
                            let lanes = forced && stepped(false, self.one_at_a_time) == Some(after);
                            let (class, what) = if lanes {
                                (
                                    Class::LanesChangedBits,
                                    "solving one constraint at a time or in forced lanes gives other bits than the dispatched lanes",
                                )
                            } else {
                                (
                                    Class::ThreadsChangedBits,
                                    "stepping through task hooks (pieces run last first) gives other bits than one thread",
                                )
                            };
                            return self.fail(
                                class,
                                format!(
                                    "step({dt}, {substeps}): {what}: {after:#x} vs {:#x}; {n} bodies differ {:?}",
                                    t.hash(),
                                    &rows[..n.min(3)]
                                ),
                            );
                        }
                    }
                }
                return self.fail(
                    Class::TwinDiverged,
                    format!(
                        "step({dt}, {substeps}): live {after:#x} != restored twin {:#x}; {n} bodies differ {:?}; contacts {} vs {}, touching {} vs {}",
                        t.hash(),
                        &rows[..n.min(3)],
                        a.contact_count,
                        b.contact_count,
                        a.touching_contact_count,
                        b.touching_contact_count
                    ),
                );
            }
        }
        self.check_bodies(&format!("after step({dt}, {substeps})"))?;
        // Speeds and displacements of the dynamic bodies the step moved.
        let max_speed = self.w.def().max_linear_speed as f64;
        let moved: Vec<BodyId> = self.w.body_move_events().iter().map(|e| e.body).collect();
        for b in moved {
            if self.w.body_type(b) != Ok(BodyType::Dynamic) {
                continue;
            }
            let v = self.w.body_linear_velocity(b).expect("moved body is alive");
            let speed =
                (v.x as f64 * v.x as f64 + v.y as f64 * v.y as f64 + v.z as f64 * v.z as f64)
                    .sqrt();
            if speed > max_speed * (1.0 + 1.0e-4) + 1.0e-4 {
                return self.fail(
                    Class::SpeedLimit,
                    format!(
                        "after step({dt}, {substeps}) body {b:?} moves at {speed} m/s ({v:?}), max_linear_speed {max_speed}"
                    ),
                );
            }
            let w = self
                .w
                .body_angular_velocity(b)
                .expect("moved body is alive");
            let spin =
                (w.x as f64 * w.x as f64 + w.y as f64 * w.y as f64 + w.z as f64 * w.z as f64)
                    .sqrt();
            let max_spin = maul3d::limits::MAX_ANGULAR_SPEED as f64;
            if spin > max_spin * (1.0 + 1.0e-4) {
                return self.fail(
                    Class::SpeedLimit,
                    format!(
                        "after step({dt}, {substeps}) body {b:?} spins at {spin} rad/s ({w:?}), limits::MAX_ANGULAR_SPEED {max_spin}"
                    ),
                );
            }
            if let Some(&(_, c0)) = starts.iter().find(|(id, _)| *id == b) {
                let c1 = self.w.body_center_of_mass(b).expect("alive");
                let d = c1 - c0;
                let dist = (d.x * d.x + d.y * d.y + d.z * d.z).sqrt();
                // Every substep moves a body at its capped speed (the push-out of
                // contacts included), and continuous collision only moves it back. The
                // centre's offset from the body origin turns in f32: allow its rounding.
                let p1 = self.w.body_position(b).expect("alive");
                let o = c1 - p1;
                let offset = (o.x * o.x + o.y * o.y + o.z * o.z).sqrt();
                let allowed = max_speed * dt as f64 * (1.0 + 1.0e-4) + 1.0e-3 + 1.0e-6 * offset;
                if dist > allowed {
                    return self.fail(
                        Class::Displacement,
                        format!(
                            "step({dt}, {substeps}) moved body {b:?} {dist} m (from {c0:?} to {c1:?}), more than max_linear_speed {max_speed} × dt; velocity now {v:?}, angular {:?}",
                            self.w.body_angular_velocity(b).ok()
                        ),
                    );
                }
            }
        }
        // The stepped world's snapshot restores.
        if twin_check {
            let snap = self.snap()?;
            self.twin_of(&snap, after, "after the step")?;
        }
        Ok(())
    }

    fn verify_tape(&self, start: &[u8], tape: &[u8], whole: bool) -> R {
        let def = World::def_from_snapshot(start).map_err(|e| Failure {
            op: self.op_index,
            class: Class::OwnSnapshotRefused,
            detail: format!("journal start snapshot: {e}"),
        })?;
        let mut w = World::new(&def).map_err(|e| Failure {
            op: self.op_index,
            class: Class::OwnSnapshotRefused,
            detail: format!("journal start world: {e}"),
        })?;
        if let Err(e) = w.restore(start) {
            return self.fail(
                Class::OwnSnapshotRefused,
                format!("the journal's start snapshot is refused: {e}"),
            );
        }
        let before = w.hash();
        let r = w.replay_journal(tape);
        if !whole {
            if r.is_ok() {
                return self.fail(
                    Class::JournalDiverged,
                    "an overflowed tape replayed without error",
                );
            }
            if w.hash() != before {
                return self.fail(
                    Class::RefusalChangedState,
                    "a refused replay changed the world",
                );
            }
            return Ok(());
        }
        if let Err(e) = r {
            return self.fail(
                Class::JournalDiverged,
                format!(
                    "the tape ({} bytes) does not replay from its start: {e}",
                    tape.len()
                ),
            );
        }
        if w.hash() != self.w.hash() {
            return self.fail(
                Class::JournalDiverged,
                format!(
                    "the tape replays to {:#x}, the live world is at {:#x}",
                    w.hash(),
                    self.w.hash()
                ),
            );
        }
        Ok(())
    }

    fn stop_journal(&mut self) -> R {
        let running = self.w.journal_running();
        let r = self.call("stop_journal", |w| w.stop_journal())?;
        if !running {
            return Ok(());
        }
        let tape = self.w.journal_tape().to_vec();
        let start = self.journal_start.take();
        if let Some(start) = start {
            if !self.journal_poisoned {
                self.verify_tape(&start, &tape, r.is_some())?;
            }
        }
        if r.is_some() {
            self.last_tape = Some(tape);
        }
        Ok(())
    }

    fn finish(&mut self) -> R {
        self.stop_journal()?;
        self.check_bodies("at the end")?;
        let snap = self.snap()?;
        let h = self.w.hash();
        self.twin_of(&snap, h, "at the end")?;
        self.stats.ops = self.op_index;
        Ok(())
    }

    /// Mechanical energy of the dynamic bodies: kinetic plus potential in world gravity,
    /// and the scale a chain's energy is measured against.
    fn energy(&self) -> (f64, f64) {
        let g = self.w.gravity();
        let (gx, gy, gz) = (g.x as f64, g.y as f64, g.z as f64);
        let mut e = 0.0;
        let mut mass = 0.0;
        let mut lo = f64::INFINITY;
        let mut hi = f64::NEG_INFINITY;
        for b in self.w.body_ids() {
            if self.w.body_type(b) != Ok(BodyType::Dynamic) || self.w.body_is_enabled(b) != Ok(true)
            {
                continue;
            }
            let md = self.w.body_mass_data(b).expect("alive");
            let m = md.mass as f64;
            let v = self.w.body_linear_velocity(b).expect("alive");
            let w = self.w.body_angular_velocity(b).expect("alive");
            let q = self.w.body_rotation(b).expect("alive");
            let c = self.w.body_center_of_mass(b).expect("alive");
            let wl = q.inv_rotate(w);
            let i = md.inertia;
            let iw = Vec3::new(
                i.cx.x * wl.x + i.cy.x * wl.y + i.cz.x * wl.z,
                i.cx.y * wl.x + i.cy.y * wl.y + i.cz.y * wl.z,
                i.cx.z * wl.x + i.cy.z * wl.y + i.cz.z * wl.z,
            );
            let ke = 0.5
                * m
                * (v.x as f64 * v.x as f64 + v.y as f64 * v.y as f64 + v.z as f64 * v.z as f64)
                + 0.5
                    * (wl.x as f64 * iw.x as f64
                        + wl.y as f64 * iw.y as f64
                        + wl.z as f64 * iw.z as f64);
            let pe = -m * (gx * c.x + gy * c.y + gz * c.z);
            e += ke + pe;
            mass += m;
            for k in 0..3 {
                lo = min_f64(lo, c.get(k));
                hi = max_f64(hi, c.get(k));
            }
        }
        let glen = (gx * gx + gy * gy + gz * gz).sqrt();
        let span = if hi >= lo { hi - lo } else { 0.0 };
        (e, mass * max_f64(glen, 1.0) * (span + 1.0))
    }

    fn exec(&mut self, op: &Op) -> R {
        self.stats.ops = self.op_index + 1;
        let is_query = matches!(op, Op::Query { .. });
        self.exec_inner(op)?;
        if !is_query {
            self.check_bodies("after the call")?;
            self.check_characters("after the call")?;
        }
        self.stats.max_bodies = self.stats.max_bodies.max(self.w.body_count());
        Ok(())
    }

    fn create_shape(
        &mut self,
        name: &str,
        f: impl FnOnce(&mut World) -> maul3d::Result<ShapeId>,
    ) -> R {
        if let Some(s) = self.call(name, f)? {
            self.shapes.push(s);
        }
        Ok(())
    }

    fn create_body(&mut self, def: &BodyDef) -> R<Option<BodyId>> {
        let b = self.call("create_body", |w| w.create_body(def))?;
        if let Some(b) = b {
            self.bodies.push(b);
        }
        Ok(b)
    }

    fn exec_inner(&mut self, op: &Op) -> R {
        match *op {
            Op::Step { dt, substeps } => self.step(dt.0, substeps)?,
            Op::SetGravity { g } => {
                self.call("set_gravity", |w| w.set_gravity(v3(g)))?;
            }
            Op::EnableSleep { on } => {
                self.w.enable_sleep(on);
            }
            Op::ShiftOrigin { offset } => {
                self.call("shift_origin", |w| w.shift_origin(dv3(offset)))?;
            }
            Op::SetJointDampingRatio { ratio } => {
                self.call("set_joint_damping_ratio", |w| {
                    w.set_joint_damping_ratio(ratio.0)
                })?;
            }
            Op::SolveOneAtATime { on } => {
                self.one_at_a_time = on;
                self.w.set_solve_one_at_a_time(on);
                // Turning it off forces a lane path the twins (dispatched lanes) do not
                // run: scalar or 4-wide by turns, so random worlds hold every path to
                // the dispatched one's bits. Neither is ever refused.
                let lanes = match (on, self.op_index % 2) {
                    (true, _) => maul3d::SolverLanes::Auto,
                    (false, 0) => maul3d::SolverLanes::Scalar,
                    (false, _) => maul3d::SolverLanes::Four,
                };
                self.w
                    .set_solver_lanes(lanes)
                    .expect("scalar and 4-wide run anywhere");
                self.lanes = lanes;
            }
            Op::SetPreSolve { on } => {
                self.pre_solve_on = on;
                self.w
                    .set_pre_solve(if on { Some(pre_solve()) } else { None });
            }
            Op::Explode {
                position,
                radius,
                falloff,
                impulse_per_area,
                mask,
            } => {
                let def = ExplosionDef {
                    position: dv3(position),
                    radius: radius.0,
                    falloff: falloff.0,
                    impulse_per_area: impulse_per_area.0,
                    mask_bits: mask,
                };
                self.call("explode", |w| w.explode(&def))?;
            }
            Op::Save { slot } => {
                let s = self.snap()?;
                let h = self.w.hash();
                let epoch = self.w.journal_running().then_some(self.journal_epoch);
                self.saved[slot as usize % 4] = Some((s, h, epoch));
            }
            Op::Restore { slot } => {
                let Some((snap, h, epoch)) = self.saved[slot as usize % 4].clone() else {
                    return Ok(());
                };
                let journal = self.w.journal_running();
                let r = self.call("restore", |w| w.restore(&snap))?;
                match r {
                    Some(()) => {
                        if self.w.hash() != h {
                            return self.fail(
                                Class::RestoreNotExact,
                                format!(
                                    "restore of a saved snapshot gives {:#x}, it was taken at {h:#x}",
                                    self.w.hash()
                                ),
                            );
                        }
                        if journal && !self.journal_poisoned {
                            if epoch == Some(self.journal_epoch) {
                                // Taken during this journal: the tape must have been
                                // rewound to where it was taken.
                                let tape = self.w.journal_tape().to_vec();
                                // Header flags (bytes 8..12): bit 0 marks a tape that
                                // overflowed, which must not replay.
                                let whole = tape.get(8) == Some(&0);
                                if let Some(start) = self.journal_start.clone() {
                                    self.verify_tape(&start, &tape, whole)?;
                                }
                            } else {
                                self.journal_poisoned = true;
                                return self.fail(
                                    Class::JournalRestoreAccepted,
                                    "restore of a snapshot taken outside the running journal was accepted (neither refused nor recorded: the tape no longer replays to the world)",
                                );
                            }
                        }
                    }
                    None if !journal => {
                        let e = self.w.restore(&snap).err();
                        return self.fail(
                            Class::OwnSnapshotRefused,
                            format!("restore refused a snapshot the world took earlier: {e:?}"),
                        );
                    }
                    None => {}
                }
            }
            Op::RestoreDamaged { slot, byte, bit } => {
                let Some((mut snap, _, _)) = self.saved[slot as usize % 4].clone() else {
                    return Ok(());
                };
                let i = byte as usize % snap.len();
                snap[i] ^= 1 << (bit % 8);
                if self
                    .call("restore (damaged)", |w| w.restore(&snap))?
                    .is_some()
                {
                    return self.fail(
                        Class::DamagedAccepted,
                        format!(
                            "a snapshot with bit {} of byte {i} flipped was accepted",
                            bit % 8
                        ),
                    );
                }
            }
            Op::StartJournal { capacity } => {
                let start = self.snap()?;
                if self
                    .call("start_journal", |w| w.start_journal(capacity as usize))?
                    .is_some()
                {
                    self.journal_start = Some(start);
                    self.journal_epoch += 1;
                    self.journal_poisoned = false;
                }
            }
            Op::StopJournal => self.stop_journal()?,
            Op::ReplayLastTape => {
                if let Some(tape) = self.last_tape.clone() {
                    self.call("replay_journal", |w| w.replay_journal(&tape))?;
                }
            }
            Op::CreateBody { def } => {
                self.create_body(&body_def(&def))?;
            }
            Op::DestroyBody { body } => {
                let b = self.body(body);
                self.call("destroy_body", |w| w.destroy_body(b))?;
            }
            Op::SetTransform {
                body,
                position,
                rotation,
            } => {
                let b = self.body(body);
                self.call("set_body_transform", |w| {
                    w.set_body_transform(b, dv3(position), quat(rotation))
                })?;
            }
            Op::SetVelocity {
                body,
                linear,
                angular,
            } => {
                let b = self.body(body);
                self.call("set_body_velocity", |w| {
                    w.set_body_velocity(b, v3(linear), v3(angular))
                })?;
            }
            Op::SetLinearVelocity { body, v } => {
                let b = self.body(body);
                self.call("set_body_linear_velocity", |w| {
                    w.set_body_linear_velocity(b, v3(v))
                })?;
            }
            Op::SetAngularVelocity { body, w: av } => {
                let b = self.body(body);
                self.call("set_body_angular_velocity", |w| {
                    w.set_body_angular_velocity(b, v3(av))
                })?;
            }
            Op::SetTargetTransform {
                body,
                position,
                rotation,
                time_step,
            } => {
                let b = self.body(body);
                self.call("set_body_target_transform", |w| {
                    w.set_body_target_transform(b, dv3(position), quat(rotation), time_step.0)
                })?;
            }
            Op::ApplyForceToCenter { body, force } => {
                let b = self.body(body);
                self.call("apply_force_to_center", |w| {
                    w.apply_force_to_center(b, v3(force))
                })?;
            }
            Op::ApplyForce { body, force, point } => {
                let b = self.body(body);
                self.call("apply_force", |w| w.apply_force(b, v3(force), dv3(point)))?;
            }
            Op::ApplyTorque { body, torque } => {
                let b = self.body(body);
                self.call("apply_torque", |w| w.apply_torque(b, v3(torque)))?;
            }
            Op::ApplyLinearImpulse {
                body,
                impulse,
                point,
            } => {
                let b = self.body(body);
                self.call("apply_linear_impulse", |w| {
                    w.apply_linear_impulse(b, v3(impulse), dv3(point))
                })?;
            }
            Op::ApplyLinearImpulseToCenter { body, impulse } => {
                let b = self.body(body);
                self.call("apply_linear_impulse_to_center", |w| {
                    w.apply_linear_impulse_to_center(b, v3(impulse))
                })?;
            }
            Op::ApplyAngularImpulse { body, impulse } => {
                let b = self.body(body);
                self.call("apply_angular_impulse", |w| {
                    w.apply_angular_impulse(b, v3(impulse))
                })?;
            }
            Op::SetBodyType { body, ty } => {
                let b = self.body(body);
                let t = match ty % 3 {
                    0 => BodyType::Static,
                    1 => BodyType::Kinematic,
                    _ => BodyType::Dynamic,
                };
                self.call("set_body_type", |w| w.set_body_type(b, t))?;
            }
            Op::SetBodyEnabled { body, on } => {
                let b = self.body(body);
                self.call("set_body_enabled", |w| w.set_body_enabled(b, on))?;
            }
            Op::SetBodyAwake { body, on } => {
                let b = self.body(body);
                self.call("set_body_awake", |w| w.set_body_awake(b, on))?;
            }
            Op::SetBodySleepEnabled { body, on } => {
                let b = self.body(body);
                self.call("set_body_sleep_enabled", |w| {
                    w.set_body_sleep_enabled(b, on)
                })?;
            }
            Op::SetBodySleepThreshold { body, v } => {
                let b = self.body(body);
                self.call("set_body_sleep_threshold", |w| {
                    w.set_body_sleep_threshold(b, v.0)
                })?;
            }
            Op::SetBodyDamping {
                body,
                linear,
                angular,
            } => {
                let b = self.body(body);
                self.call("set_body_damping", |w| {
                    w.set_body_damping(b, linear.0, angular.0)
                })?;
            }
            Op::SetBodyGravityScale { body, scale } => {
                let b = self.body(body);
                self.call("set_body_gravity_scale", |w| {
                    w.set_body_gravity_scale(b, scale.0)
                })?;
            }
            Op::SetBodyMotionLocks { body, bits } => {
                let b = self.body(body);
                self.call("set_body_motion_locks", |w| {
                    w.set_body_motion_locks(b, MotionLocks::from_bits(bits))
                })?;
            }
            Op::SetBodyCustomIntegrator { body, on } => {
                let b = self.body(body);
                self.call("set_body_custom_integrator", |w| {
                    w.set_body_custom_integrator(b, on)
                })?;
            }
            Op::SetBodyBullet { body, on } => {
                let b = self.body(body);
                self.call("set_body_bullet", |w| w.set_body_bullet(b, on))?;
            }
            Op::SetBodyMassData { body, data } => {
                let b = self.body(body);
                let md = data.map(|d| MassData {
                    mass: d.mass.0,
                    center: v3(d.center),
                    inertia: Mat3::from_cols(
                        Vec3::new(d.inertia[0].0, d.inertia[1].0, d.inertia[2].0),
                        Vec3::new(d.inertia[3].0, d.inertia[4].0, d.inertia[5].0),
                        Vec3::new(d.inertia[6].0, d.inertia[7].0, d.inertia[8].0),
                    ),
                });
                self.call("set_body_mass_data", |w| w.set_body_mass_data(b, md))?;
            }
            Op::SetBodyUserData { body, data } => {
                let b = self.body(body);
                self.call("set_body_user_data", |w| w.set_body_user_data(b, data))?;
            }
            Op::CreateSphere {
                body,
                def,
                center,
                radius,
            } => {
                let b = self.body(body);
                let s = Sphere {
                    center: v3(center),
                    radius: radius.0,
                };
                self.create_shape("create_sphere_shape", |w| {
                    w.create_sphere_shape(b, &shape_def(&def), &s)
                })?;
            }
            Op::CreateCapsule {
                body,
                def,
                c1,
                c2,
                radius,
            } => {
                let b = self.body(body);
                let c = Capsule {
                    center1: v3(c1),
                    center2: v3(c2),
                    radius: radius.0,
                };
                self.create_shape("create_capsule_shape", |w| {
                    w.create_capsule_shape(b, &shape_def(&def), &c)
                })?;
            }
            Op::CreateBox {
                body,
                def,
                half,
                center,
            } => {
                let b = self.body(body);
                match center {
                    None => self.create_shape("create_box_shape", |w| {
                        w.create_box_shape(b, &shape_def(&def), v3(half))
                    })?,
                    Some((c, q)) => self.create_shape("create_offset_box_shape", |w| {
                        w.create_offset_box_shape(b, &shape_def(&def), v3(half), v3(c), quat(q))
                    })?,
                }
            }
            Op::CreateCylinder {
                body,
                def,
                center,
                rotation,
                half_height,
                radius,
            } => {
                let b = self.body(body);
                let c = Cylinder {
                    center: v3(center),
                    rotation: quat(rotation),
                    half_height: half_height.0,
                    radius: radius.0,
                };
                self.create_shape("create_cylinder_shape", |w| {
                    w.create_cylinder_shape(b, &shape_def(&def), &c)
                })?;
            }
            Op::CreatePlane {
                body,
                def,
                normal,
                offset,
            } => {
                let b = self.body(body);
                let p = PlaneShape {
                    normal: v3(normal),
                    offset: offset.0,
                };
                self.create_shape("create_plane_shape", |w| {
                    w.create_plane_shape(b, &shape_def(&def), &p)
                })?;
            }
            Op::CreateHull { spec } => {
                let pts = hull_points(&spec);
                if let Some(h) = self.call("create_hull", |w| w.create_hull(&pts))? {
                    self.hulls.push(h);
                }
            }
            Op::CreateHullShape { body, def, hull } => {
                let b = self.body(body);
                let h = self.hull(hull);
                self.create_shape("create_hull_shape", |w| {
                    w.create_hull_shape(b, &shape_def(&def), h)
                })?;
            }
            Op::DestroyHull { hull } => {
                let h = self.hull(hull);
                self.call("destroy_hull", |w| w.destroy_hull(h))?;
            }
            Op::CreateMesh { spec } => {
                let (v, t) = mesh_content(&spec);
                if let Some(m) = self.call("create_mesh", |w| w.create_mesh(&v, &t))? {
                    self.meshes.push(m);
                }
            }
            Op::CreateHeightField { spec } => {
                let (h, holes) = height_content(&spec);
                let def = HeightFieldDef {
                    count_x: spec.nx.clamp(2, 4096),
                    count_z: spec.nz.clamp(2, 4096),
                    heights: &h,
                    holes: &holes,
                    scale: v3(spec.scale),
                };
                if let Some(m) =
                    self.call("create_height_field", |w| w.create_height_field(&def))?
                {
                    self.meshes.push(m);
                }
            }
            Op::CreateVoxelGrid {
                size,
                origin,
                pattern,
                bad_length,
            } => {
                let mut data = voxel_data(pattern);
                if bad_length {
                    data.pop();
                }
                let def = VoxelGridDef {
                    voxel_size: size.0,
                    data: &data,
                    origin: v3(origin),
                };
                if let Some(m) = self.call("create_voxel_grid", |w| w.create_voxel_grid(&def))? {
                    self.meshes.push(m);
                }
            }
            Op::CreateMeshShape {
                body,
                def,
                mesh,
                voxel,
            } => {
                let b = self.body(body);
                let m = self.mesh(mesh, voxel);
                if voxel {
                    self.create_shape("create_voxel_shape", |w| {
                        w.create_voxel_shape(b, &shape_def(&def), m)
                    })?;
                } else {
                    self.create_shape("create_mesh_shape", |w| {
                        w.create_mesh_shape(b, &shape_def(&def), m)
                    })?;
                }
            }
            Op::SetVoxel { grid, at, material } => {
                let g = self.mesh(grid, true);
                self.call("set_voxel", |w| w.set_voxel(g, at, material))?;
            }
            Op::FillVoxels {
                grid,
                min,
                max,
                material,
            } => {
                let g = self.mesh(grid, true);
                self.call("fill_voxels", |w| w.fill_voxels(g, min, max, material))?;
            }
            Op::ClearVoxel { grid, at } => {
                let g = self.mesh(grid, true);
                self.call("clear_voxel", |w| w.clear_voxel(g, at))?;
            }
            Op::DestroyMesh { mesh } => {
                let m = self.mesh(mesh, false);
                self.call("destroy_mesh", |w| w.destroy_mesh(m))?;
            }
            Op::DestroyShape { shape } => {
                let s = self.shape(shape);
                self.call("destroy_shape", |w| w.destroy_shape(s))?;
            }
            Op::SetShapeFriction { shape, v } => {
                let s = self.shape(shape);
                self.call("set_shape_friction", |w| w.set_shape_friction(s, v.0))?;
            }
            Op::SetShapeRestitution { shape, v } => {
                let s = self.shape(shape);
                self.call("set_shape_restitution", |w| w.set_shape_restitution(s, v.0))?;
            }
            Op::SetShapeRollingResistance { shape, v } => {
                let s = self.shape(shape);
                self.call("set_shape_rolling_resistance", |w| {
                    w.set_shape_rolling_resistance(s, v.0)
                })?;
            }
            Op::SetShapeDensity { shape, v } => {
                let s = self.shape(shape);
                self.call("set_shape_density", |w| w.set_shape_density(s, v.0))?;
            }
            Op::SetShapeFilter {
                shape,
                category,
                mask,
                group,
            } => {
                let s = self.shape(shape);
                let f = Filter {
                    category_bits: category,
                    mask_bits: mask,
                    group_index: group,
                };
                self.call("set_shape_filter", |w| w.set_shape_filter(s, f))?;
            }
            Op::SetShapeArea { shape, area: a } => {
                let s = self.shape(shape);
                let a = a.map(|a| area(&a));
                self.call("set_shape_area", |w| w.set_shape_area(s, a))?;
            }
            Op::CreateJoint { spec } => self.create_joint(&spec)?,
            Op::DestroyJoint { joint } => {
                let j = self.joint(joint);
                self.call("destroy_joint", |w| w.destroy_joint(j))?;
            }
            Op::SetJointEnableMotor { joint, on } => {
                let j = self.joint(joint);
                self.call("set_joint_enable_motor", |w| {
                    w.set_joint_enable_motor(j, on)
                })?;
            }
            Op::SetJointMotorSpeed { joint, v } => {
                let j = self.joint(joint);
                self.call("set_joint_motor_speed", |w| w.set_joint_motor_speed(j, v.0))?;
            }
            Op::SetJointMaxMotorForce { joint, v } => {
                let j = self.joint(joint);
                self.call("set_joint_max_motor_force", |w| {
                    w.set_joint_max_motor_force(j, v.0)
                })?;
            }
            Op::SetJointEnableLimit { joint, on } => {
                let j = self.joint(joint);
                self.call("set_joint_enable_limit", |w| {
                    w.set_joint_enable_limit(j, on)
                })?;
            }
            Op::SetJointLimits {
                joint,
                lower,
                upper,
            } => {
                let j = self.joint(joint);
                self.call("set_joint_limits", |w| {
                    w.set_joint_limits(j, lower.0, upper.0)
                })?;
            }
            Op::SetJointEnableSpring { joint, on } => {
                let j = self.joint(joint);
                self.call("set_joint_enable_spring", |w| {
                    w.set_joint_enable_spring(j, on)
                })?;
            }
            Op::SetJointSpring {
                joint,
                hertz,
                damping,
            } => {
                let j = self.joint(joint);
                self.call("set_joint_spring", |w| {
                    w.set_joint_spring(j, hertz.0, damping.0)
                })?;
            }
            Op::SetWeldSpring {
                joint,
                linear_hertz,
                angular_hertz,
                damping,
            } => {
                let j = self.joint(joint);
                self.call("set_weld_spring", |w| {
                    w.set_weld_spring(j, linear_hertz.0, angular_hertz.0, damping.0)
                })?;
            }
            Op::SetDistanceLength { joint, v } => {
                let j = self.joint(joint);
                self.call("set_distance_length", |w| w.set_distance_length(j, v.0))?;
            }
            Op::SetDistanceRange { joint, min, max } => {
                let j = self.joint(joint);
                self.call("set_distance_range", |w| {
                    w.set_distance_range(j, min.0, max.0)
                })?;
            }
            Op::SetConeSwingLimit { joint, v } => {
                let j = self.joint(joint);
                self.call("set_cone_swing_limit", |w| w.set_cone_swing_limit(j, v.0))?;
            }
            Op::SetSixDofAxis {
                joint,
                axis: i,
                value,
            } => {
                let j = self.joint(joint);
                let a = axis(&value);
                self.call("set_six_dof_axis", |w| w.set_six_dof_axis(j, i, a))?;
            }
            Op::SetJointBreakThresholds {
                joint,
                force,
                torque,
            } => {
                let j = self.joint(joint);
                self.call("set_joint_break_thresholds", |w| {
                    w.set_joint_break_thresholds(j, force.0, torque.0)
                })?;
            }
            Op::SetJointCollideConnected { joint, on } => {
                let j = self.joint(joint);
                self.call("set_joint_collide_connected", |w| {
                    w.set_joint_collide_connected(j, on)
                })?;
            }
            Op::SetJointUserData { joint, data } => {
                let j = self.joint(joint);
                self.call("set_joint_user_data", |w| w.set_joint_user_data(j, data))?;
            }
            Op::CreateCharacter { def } => {
                let d = char_def(&def);
                if let Some(c) = self.call("create_character", |w| w.create_character(&d))? {
                    self.characters.push(c);
                }
            }
            Op::DestroyCharacter { character } => {
                let c = self.character(character);
                self.call("destroy_character", |w| w.destroy_character(c))?;
            }
            Op::MoveCharacter {
                character,
                velocity,
                dt,
            } => {
                let c = self.character(character);
                self.call("move_character", |w| {
                    w.move_character(c, v3(velocity), dt.0)
                })?;
                self.check_characters("after move_character")?;
            }
            Op::SetCharacterPosition {
                character,
                position,
            } => {
                let c = self.character(character);
                self.call("set_character_position", |w| {
                    w.set_character_position(c, dv3(position))
                })?;
            }
            Op::SetCharacterSettings {
                character,
                settings,
            } => {
                let c = self.character(character);
                let s = char_settings(&settings);
                self.call("set_character_settings", |w| {
                    w.set_character_settings(c, &s)
                })?;
            }
            Op::PokeCharacterBody { character, kind } => {
                let c = self.character(character);
                let Ok(b) = self.w.character_body(c) else {
                    return Ok(());
                };
                match kind % 6 {
                    0 => {
                        self.call("destroy_body (a character's)", |w| w.destroy_body(b))?;
                    }
                    1 => {
                        self.call("set_body_type (a character's)", |w| {
                            w.set_body_type(b, BodyType::Dynamic)
                        })?;
                    }
                    2 => {
                        let s = Sphere {
                            center: Vec3::ZERO,
                            radius: 0.5,
                        };
                        self.call("create_sphere_shape (a character's)", |w| {
                            w.create_sphere_shape(b, &ShapeDef::default(), &s)
                        })?;
                    }
                    3 => {
                        self.call("set_body_transform (a character's)", |w| {
                            w.set_body_transform(b, DVec3::new(1.0, 5.0, 1.0), Quat::IDENTITY)
                        })?;
                    }
                    4 => {
                        self.call("set_body_velocity (a character's)", |w| {
                            w.set_body_velocity(b, Vec3::new(3.0, 0.0, 0.0), Vec3::ZERO)
                        })?;
                    }
                    _ => {
                        self.call("set_body_enabled (a character's)", |w| {
                            w.set_body_enabled(b, false)
                        })?;
                    }
                }
            }
            Op::CreateVehicle { def } => {
                let d = vehicle_def(&def, self.body(def.chassis));
                if let Some(v) = self.call("create_vehicle", |w| w.create_vehicle(&d))? {
                    self.vehicles.push(v);
                }
            }
            Op::DestroyVehicle { vehicle } => {
                let v = self.vehicle(vehicle);
                self.call("destroy_vehicle", |w| w.destroy_vehicle(v))?;
            }
            Op::SetVehicleInput {
                vehicle,
                throttle,
                steering,
                brake,
                handbrake,
            } => {
                let v = self.vehicle(vehicle);
                let input = VehicleInput {
                    throttle: throttle.0,
                    steering: steering.0,
                    brake: brake.0,
                    handbrake: handbrake.0,
                };
                self.call("set_vehicle_input", |w| w.set_vehicle_input(v, input))?;
            }
            Op::SetVehicleGear { vehicle, gear } => {
                let v = self.vehicle(vehicle);
                self.call("set_vehicle_gear", |w| w.set_vehicle_gear(v, gear))?;
            }
            Op::DestroyChassis { vehicle } => {
                let v = self.vehicle(vehicle);
                let chassis = self.w.vehicle_def(v).map(|d| d.chassis);
                if let Ok(b) = chassis {
                    if self
                        .call("destroy_body (a chassis)", |w| w.destroy_body(b))?
                        .is_some()
                        && self.w.vehicle_is_valid(v)
                    {
                        return self.fail(
                            Class::DanglingObject,
                            format!("vehicle {v:?} outlived its chassis {b:?}"),
                        );
                    }
                }
            }
            Op::CreateWater { def } => {
                let d = water_def(&def);
                if let Some(h) = self.call("create_water_volume", |w| w.create_water_volume(&d))? {
                    self.waters.push(h);
                }
            }
            Op::DestroyWater { water } => {
                let h = self.water(water);
                self.call("destroy_water_volume", |w| w.destroy_water_volume(h))?;
            }
            Op::SetWater { water, def } => {
                let h = self.water(water);
                let d = water_def(&def);
                self.call("set_water_volume", |w| w.set_water_volume(h, &d))?;
            }
            Op::SetWaterDensity { water, v } => {
                let h = self.water(water);
                self.call("set_water_density", |w| w.set_water_density(h, v.0))?;
            }
            Op::SetWaterDrag {
                water,
                linear,
                angular,
            } => {
                let h = self.water(water);
                self.call("set_water_drag", |w| {
                    w.set_water_drag(h, linear.0, angular.0)
                })?;
            }
            Op::SetWaterFlow { water, flow } => {
                let h = self.water(water);
                self.call("set_water_flow", |w| w.set_water_flow(h, v3(flow)))?;
            }
            Op::SetWaterRegion {
                water,
                center,
                rotation,
                half,
            } => {
                let h = self.water(water);
                self.call("set_water_region", |w| {
                    w.set_water_region(h, dv3(center), quat(rotation), v3(half))
                })?;
            }
            Op::CreateSoft { def } => {
                let (v, t) = soft_mesh(&def);
                let d = SoftBodyDef {
                    vertices: &v,
                    triangles: &t,
                    position: dv3(def.position),
                    rotation: quat(def.rotation),
                    settings: soft_settings(&def),
                    filter: Filter {
                        mask_bits: def.mask,
                        ..Default::default()
                    },
                };
                if let Some(h) = self.call("create_soft_body", |w| w.create_soft_body(&d))? {
                    self.softs.push(h);
                }
            }
            Op::DestroySoft { soft } => {
                let h = self.soft(soft);
                self.call("destroy_soft_body", |w| w.destroy_soft_body(h))?;
            }
            Op::SetSoftSettings { soft, def } => {
                let h = self.soft(soft);
                let s = soft_settings(&def);
                self.call("set_soft_body_settings", |w| {
                    w.set_soft_body_settings(h, &s)
                })?;
            }
            Op::SetSoftFilter { soft, mask } => {
                let h = self.soft(soft);
                let f = Filter {
                    mask_bits: mask,
                    ..Default::default()
                };
                self.call("set_soft_body_filter", |w| w.set_soft_body_filter(h, f))?;
            }
            Op::PinSoft {
                soft,
                index,
                pinned,
            } => {
                let h = self.soft(soft);
                self.call("set_soft_particle_pinned", |w| {
                    w.set_soft_particle_pinned(h, index, pinned)
                })?;
            }
            Op::MoveSoftPoint {
                soft,
                index,
                position,
            } => {
                let h = self.soft(soft);
                self.call("set_soft_particle_position", |w| {
                    w.set_soft_particle_position(h, index, dv3(position))
                })?;
            }
            Op::SoftImpulse {
                soft,
                index,
                impulse,
            } => {
                let h = self.soft(soft);
                if index == u32::MAX {
                    self.call("apply_soft_body_impulse", |w| {
                        w.apply_soft_body_impulse(h, v3(impulse))
                    })?;
                } else {
                    self.call("apply_soft_particle_impulse", |w| {
                        w.apply_soft_particle_impulse(h, index, v3(impulse))
                    })?;
                }
            }
            Op::SetSoftVelocity {
                soft,
                index,
                velocity,
            } => {
                let h = self.soft(soft);
                self.call("set_soft_particle_velocity", |w| {
                    w.set_soft_particle_velocity(h, index, v3(velocity))
                })?;
            }
            Op::AttachSoft {
                soft,
                index,
                body,
                local,
            } => {
                let h = self.soft(soft);
                let b = (body != NULL_PICK).then(|| self.body(body));
                self.call("attach_soft_particle", |w| {
                    w.attach_soft_particle(h, index, b, v3(local))
                })?;
            }
            Op::SetSoftTransform {
                soft,
                position,
                rotation,
            } => {
                let h = self.soft(soft);
                self.call("set_soft_body_transform", |w| {
                    w.set_soft_body_transform(h, dv3(position), quat(rotation))
                })?;
            }
            Op::SetSoftIgnoresBody { soft, body, ignore } => {
                let (h, b) = (self.soft(soft), self.body(body));
                self.call("set_soft_body_ignores_body", |w| {
                    w.set_soft_body_ignores_body(h, b, ignore)
                })?;
            }
            Op::Query {
                kind,
                at,
                dir,
                size,
                pick,
            } => {
                let before = self.w.hash();
                self.query(kind, dv3(at), v3(dir), size.0, pick)?;
                let after = self.w.hash();
                if after != before {
                    return self.fail(
                        Class::QueryChangedState,
                        format!("query {kind} moved the hash {before:#x} -> {after:#x}"),
                    );
                }
            }
            Op::Pile {
                n,
                kind,
                origin,
                spacing,
                size,
            } => self.pile(n, kind, dv3(origin), spacing.0, size.0)?,
            Op::Chain {
                n,
                ratio,
                link,
                origin,
            } => self.chain(n, ratio.0, link.0, dv3(origin))?,
            Op::Bullets { n, speed, origin } => self.bullets(n, speed.0, dv3(origin))?,
            Op::Ground { kind, origin, size } => self.ground(kind, dv3(origin), size.0)?,
            Op::CheckEnergy {
                steps,
                dt,
                substeps,
                slack,
            } => {
                let (e0, scale) = self.energy();
                for k in 0..steps {
                    self.step(dt.0, substeps)?;
                    let (e, _) = self.energy();
                    if e.is_nan() || e > e0 + slack.0 as f64 * scale {
                        return self.fail(
                            Class::EnergyGrowth,
                            format!(
                                "after {} steps of ({}, {substeps}) the energy is {e:.4e} J, it started at {e0:.4e} J (allowed {:.4e}); {}",
                                k + 1,
                                dt.0,
                                slack.0 as f64 * scale,
                                self.describe_bodies()
                            ),
                        );
                    }
                }
            }
        }
        Ok(())
    }

    fn create_joint(&mut self, spec: &JointSpec) -> R {
        let (a, b) = (self.body(spec.a), self.body(spec.b));
        let (mut fa, mut fb) = (
            Transform::new(v3(spec.frame_a.0), quat(spec.frame_a.1)),
            Transform::new(v3(spec.frame_b.0), quat(spec.frame_b.1)),
        );
        if let Some(anchor) = spec.world_anchor {
            if let Ok((x, y)) = self
                .w
                .joint_frames_at(a, b, dv3(anchor), quat(spec.frame_a.1))
            {
                (fa, fb) = (x, y);
            }
        }
        let def = JointDef {
            body_a: a,
            body_b: b,
            local_frame_a: fa,
            local_frame_b: fb,
            collide_connected: spec.collide,
            break_force: spec.break_force.0,
            break_torque: spec.break_torque.0,
            user_data: 11,
            kind: joint_kind(&spec.kind),
        };
        if let Some(j) = self.call("create_joint", |w| w.create_joint(&def))? {
            self.joints.push(j);
        }
        Ok(())
    }

    fn finite_or_fail(&self, ok: bool, what: &str) -> R {
        if ok {
            Ok(())
        } else {
            self.fail(Class::NonFinite, format!("query result not finite: {what}"))
        }
    }

    fn query(&mut self, kind: u8, at: DVec3, dir: Vec3, size: f32, pick: Pick) -> R {
        let w = &self.w;
        let filter = QueryFilter {
            include_sensors: pick % 2 == 0,
            ..Default::default()
        };
        let probe = |k: u32| -> QueryShape<'static> {
            match k % 5 {
                0 => QueryShape::Sphere(Sphere {
                    center: Vec3::ZERO,
                    radius: size,
                }),
                1 => QueryShape::Capsule(Capsule {
                    center1: Vec3::new(0.0, -size, 0.0),
                    center2: Vec3::new(0.0, size, 0.0),
                    radius: 0.5 * size,
                }),
                2 => QueryShape::Box(maul3d::BoxShape {
                    half: Vec3::splat(size),
                    center: Vec3::ZERO,
                    rotation: Quat::IDENTITY,
                }),
                3 => QueryShape::Hull(self.hull(pick)),
                _ => QueryShape::Cylinder(Cylinder {
                    center: Vec3::ZERO,
                    rotation: Quat::IDENTITY,
                    half_height: size,
                    radius: size,
                }),
            }
        };
        let rot = Quat::from_axis_angle(Vec3::Y, 0.3);
        match kind % 14 {
            0 => {
                if let Ok(Some(r)) = w.cast_ray_closest(at, dir, &filter) {
                    self.finite_or_fail(
                        finite_d3(r.point) && finite3(r.normal) && r.fraction.is_finite(),
                        &format!("cast_ray_closest {r:?}"),
                    )?;
                }
            }
            1 => {
                let mut out = [maul3d::RayResult {
                    shape: ShapeId::NULL,
                    body: BodyId::NULL,
                    point: DVec3::ZERO,
                    normal: Vec3::ZERO,
                    fraction: 0.0,
                }; 4];
                if let Ok(n) = w.cast_ray_all(at, dir, &filter, &mut out) {
                    for r in &out[..n.min(4)] {
                        self.finite_or_fail(
                            finite_d3(r.point) && finite3(r.normal) && r.fraction.is_finite(),
                            &format!("cast_ray_all {r:?}"),
                        )?;
                    }
                }
            }
            2 => {
                let mut out = [ShapeId::NULL; 8];
                let d = dir.to_f64();
                let (a, b) = (at, at + d);
                let lo = DVec3::new(min_f64(a.x, b.x), min_f64(a.y, b.y), min_f64(a.z, b.z));
                let hi = DVec3::new(max_f64(a.x, b.x), max_f64(a.y, b.y), max_f64(a.z, b.z));
                w.overlap_aabb(&DAabb::new(lo, hi), &filter, &mut out);
            }
            3 => {
                let mut out = [ShapeId::NULL; 8];
                w.overlap_point(at, &filter, &mut out);
            }
            4 => {
                let mut out = [ShapeId::NULL; 8];
                let _ = w.overlap_shape(&probe(pick), at, rot, &filter, &mut out);
            }
            5 => {
                if let Ok(Some(r)) = w.cast_shape(&probe(pick), at, rot, dir, &filter) {
                    self.finite_or_fail(
                        finite_d3(r.point) && finite3(r.normal) && r.fraction.is_finite(),
                        &format!("cast_shape {r:?}"),
                    )?;
                }
            }
            6 => {
                let mut out = [maul3d::ContactPointPair {
                    point_on_query: DVec3::ZERO,
                    point_on_other: DVec3::ZERO,
                    normal: Vec3::ZERO,
                    depth: 0.0,
                    shape: ShapeId::NULL,
                    body: BodyId::NULL,
                    velocity: Vec3::ZERO,
                }; 8];
                let exclude = Some(self.body(pick));
                if let Ok(n) =
                    w.contact_points(&probe(pick), at, rot, 0.05, &filter, exclude, &mut out)
                {
                    for c in &out[..n.min(8)] {
                        self.finite_or_fail(
                            finite_d3(c.point_on_query)
                                && finite_d3(c.point_on_other)
                                && finite3(c.normal)
                                && c.depth.is_finite()
                                && finite3(c.velocity),
                            &format!("contact_points {c:?}"),
                        )?;
                    }
                }
            }
            7 => {
                if let Ok(Some(c)) = w.rest_info(&probe(pick), at, rot, 0.05, &filter, None) {
                    self.finite_or_fail(
                        finite_d3(c.point_on_query) && finite3(c.normal) && c.depth.is_finite(),
                        &format!("rest_info {c:?}"),
                    )?;
                }
            }
            8 => {
                let b = self.body(pick);
                let t = MotionTest {
                    body: b,
                    position: w.body_position(b).unwrap_or(at),
                    rotation: w.body_rotation(b).unwrap_or(rot),
                    motion: dir,
                    margin: 0.01,
                    filter,
                };
                let mut out = [maul3d::MotionCollision {
                    contact: maul3d::ContactPointPair {
                        point_on_query: DVec3::ZERO,
                        point_on_other: DVec3::ZERO,
                        normal: Vec3::ZERO,
                        depth: 0.0,
                        shape: ShapeId::NULL,
                        body: BodyId::NULL,
                        velocity: Vec3::ZERO,
                    },
                    local_shape: ShapeId::NULL,
                }; 4];
                if let Ok(r) = w.test_body_motion(&t, &mut out) {
                    self.finite_or_fail(
                        finite3(r.travel) && finite3(r.remainder),
                        &format!("test_body_motion {r:?}"),
                    )?;
                }
            }
            9 => {
                let s = self.shape(pick);
                let mut out = [ShapeId::NULL; 8];
                let _ = w.sensor_overlaps(s, &mut out);
                let _ = w.sensor_begin_events().len() + w.sensor_end_events().len();
            }
            10 => {
                let mut d = Drawn { bad: 0 };
                w.debug_draw(
                    &DebugDrawOptions {
                        shapes: true,
                        contacts: true,
                        bounds: true,
                        joints: true,
                    },
                    &mut d,
                );
                self.finite_or_fail(
                    d.bad == 0,
                    &format!("debug draw handed out {} non-finite items", d.bad),
                )?;
            }
            11 => self.getter_sweep()?,
            12 => {
                let mut rows = [maul3d::BodyDiff::default(); 4];
                let n = World::compare(w, w, &mut rows);
                if n != 0 {
                    return self.fail(
                        Class::NonFinite,
                        format!("compare(world, itself) lists {n} differing bodies"),
                    );
                }
            }
            _ => {
                let _ = (
                    w.memory_usage(),
                    w.content_usage(),
                    w.counters(),
                    w.profile(),
                );
                let _ = (
                    w.contact_begin_events().len(),
                    w.contact_end_events().len(),
                    w.contact_hit_events().len(),
                    w.joint_break_events().len(),
                    w.body_move_events().len(),
                    w.snapshot_size(),
                    w.origin(),
                    w.step_count(),
                    w.journal_tape().len(),
                );
            }
        }
        Ok(())
    }

    /// Every getter on every id the case knows; results must be finite.
    fn getter_sweep(&self) -> R {
        let w = &self.w;
        for &b in &self.bodies {
            if let Ok(m) = w.body_mass_data(b) {
                self.finite_or_fail(
                    m.mass.is_finite() && finite3(m.center),
                    &format!("body_mass_data {m:?}"),
                )?;
            }
            let _ = (
                w.body_type(b),
                w.body_is_awake(b),
                w.body_is_enabled(b),
                w.body_user_data(b),
            );
        }
        for &s in &self.shapes {
            let _ = (
                w.shape_body(s),
                w.shape_geometry(s),
                w.shape_user_data(s),
                w.shape_mesh(s),
            );
            if let Ok(a) = w.shape_fat_aabb(s) {
                self.finite_or_fail(
                    !a.lower.x.is_nan() && !a.upper.x.is_nan(),
                    &format!("shape_fat_aabb {a:?}"),
                )?;
            }
        }
        for &h in &self.hulls {
            let _ = (
                w.hull_points(h).map(|p| p.len()),
                w.hull_vertices(h).map(|p| p.len()),
            );
        }
        for &m in &self.meshes {
            let _ = (
                w.mesh_triangle_count(m),
                w.voxel(m, [1, 1, 1]),
                w.voxel_boxes(m).map(|b| b.len()),
            );
        }
        for &j in &self.joints {
            let _ = (
                w.joint_kind(j),
                w.joint_def(j),
                w.joint_bodies(j),
                w.joint_is_broken(j),
                w.joint_collide_connected(j),
                w.joint_user_data(j),
            );
            for v in [
                w.revolute_angle(j),
                w.prismatic_translation(j),
                w.distance_length(j),
            ]
            .into_iter()
            .flatten()
            {
                self.finite_or_fail(v.is_finite(), &format!("joint getter on {j:?}: {v}"))?;
            }
            for v in [w.joint_reaction_force(j), w.joint_reaction_torque(j)]
                .into_iter()
                .flatten()
            {
                self.finite_or_fail(finite3(v), &format!("joint reaction {j:?}: {v:?}"))?;
            }
        }
        let _ = w.mesh_ids().count() + w.joint_ids().count() + w.body_ids().count();
        Ok(())
    }

    fn pile(&mut self, n: u32, kind: u8, origin: DVec3, spacing: f32, size: f32) -> R {
        let mut side = 1u32;
        while side * side * side < n {
            side += 1;
        }
        let hull = if kind % 5 == 4 {
            let pts = hull_points(&HullSpec {
                n: 12,
                scale: [F(size), F(size), F(size)],
                seed: 5,
                bad: 0,
            });
            let h = self.call("create_hull", |w| w.create_hull(&pts))?;
            if let Some(h) = h {
                self.hulls.push(h);
            }
            h
        } else {
            None
        };
        for i in 0..n {
            let (x, y, z) = (i % side, i / (side * side), (i / side) % side);
            let p = origin
                + DVec3::new(
                    x as f64 * spacing as f64,
                    y as f64 * spacing as f64,
                    z as f64 * spacing as f64,
                );
            let Some(b) = self.create_body(&BodyDef {
                body_type: BodyType::Dynamic,
                position: p,
                rotation: Quat::from_axis_angle(Vec3::new(0.0, 0.6, 0.8), 0.1 * i as f32),
                ..Default::default()
            })?
            else {
                return Ok(());
            };
            let def = ShapeDef::default();
            let geometry = kind % 5;
            self.create_shape("pile shape", |w| match geometry {
                0 => w.create_sphere_shape(
                    b,
                    &def,
                    &Sphere {
                        center: Vec3::ZERO,
                        radius: size,
                    },
                ),
                1 => w.create_box_shape(b, &def, Vec3::splat(size)),
                2 => w.create_capsule_shape(
                    b,
                    &def,
                    &Capsule {
                        center1: Vec3::new(-size, 0.0, 0.0),
                        center2: Vec3::new(size, 0.0, 0.0),
                        radius: 0.5 * size,
                    },
                ),
                3 => w.create_cylinder_shape(
                    b,
                    &def,
                    &Cylinder {
                        center: Vec3::ZERO,
                        rotation: Quat::IDENTITY,
                        half_height: size,
                        radius: size,
                    },
                ),
                _ => w.create_hull_shape(b, &def, hull.unwrap_or(HullId::NULL)),
            })?;
        }
        Ok(())
    }

    fn chain(&mut self, n: u32, ratio: f32, link: f32, origin: DVec3) -> R {
        let Some(mut prev) = self.create_body(&BodyDef {
            position: origin,
            ..Default::default()
        })?
        else {
            return Ok(());
        };
        for i in 1..=n {
            let p = origin + DVec3::new(i as f64 * link as f64, 0.0, 0.0);
            let Some(b) = self.create_body(&BodyDef {
                body_type: BodyType::Dynamic,
                position: p,
                ..Default::default()
            })?
            else {
                return Ok(());
            };
            let density = if i == n { 1000.0 * ratio } else { 1000.0 };
            self.create_shape("chain link", |w| {
                w.create_sphere_shape(
                    b,
                    &ShapeDef {
                        density,
                        ..Default::default()
                    },
                    &Sphere {
                        center: Vec3::ZERO,
                        radius: 0.25 * link,
                    },
                )
            })?;
            let anchor = origin + DVec3::new((i as f64 - 0.5) * link as f64, 0.0, 0.0);
            let frames = self.w.joint_frames_at(prev, b, anchor, Quat::IDENTITY);
            if let Ok((fa, fb)) = frames {
                let def = JointDef {
                    body_a: prev,
                    body_b: b,
                    local_frame_a: fa,
                    local_frame_b: fb,
                    kind: JointKind::Spherical,
                    ..Default::default()
                };
                if let Some(j) = self.call("chain joint", |w| w.create_joint(&def))? {
                    self.joints.push(j);
                }
            }
            prev = b;
        }
        Ok(())
    }

    fn bullets(&mut self, n: u32, speed: f32, origin: DVec3) -> R {
        for i in 0..n {
            let p = origin
                + DVec3::new(
                    (i % 5) as f64 * 1.5,
                    (i / 25) as f64 * 2.0,
                    ((i / 5) % 5) as f64 * 1.5,
                );
            let v = Vec3::new(0.1 * speed * ((i % 3) as f32 - 1.0), -speed, 0.05 * speed);
            let Some(b) = self.create_body(&BodyDef {
                body_type: BodyType::Dynamic,
                position: p,
                rotation: Quat::from_axis_angle(Vec3::X, 0.4 * i as f32),
                linear_velocity: v,
                angular_velocity: Vec3::new(0.0, 0.0, 0.2 * speed),
                is_bullet: i % 2 == 0,
                ..Default::default()
            })?
            else {
                return Ok(());
            };
            self.create_shape("bullet", |w| {
                w.create_capsule_shape(
                    b,
                    &ShapeDef::default(),
                    &Capsule {
                        center1: Vec3::new(0.0, -0.3, 0.0),
                        center2: Vec3::new(0.0, 0.3, 0.0),
                        radius: 0.1,
                    },
                )
            })?;
        }
        Ok(())
    }

    fn ground(&mut self, kind: u8, origin: DVec3, size: f32) -> R {
        let Some(g) = self.create_body(&BodyDef {
            position: origin,
            ..Default::default()
        })?
        else {
            return Ok(());
        };
        let def = ShapeDef::default();
        match kind % 5 {
            0 => self.create_shape("ground box", |w| {
                w.create_offset_box_shape(
                    g,
                    &def,
                    Vec3::new(size, 1.0, size),
                    Vec3::new(0.0, -1.0, 0.0),
                    Quat::IDENTITY,
                )
            })?,
            1 => self.create_shape("ground plane", |w| {
                w.create_plane_shape(
                    g,
                    &def,
                    &PlaneShape {
                        normal: Vec3::Y,
                        offset: 0.0,
                    },
                )
            })?,
            2 => {
                let spec = MeshSpec {
                    nx: 17,
                    nz: 17,
                    cell: F(size / 8.0),
                    amp: F(0.3),
                    offset: [F(-size), F(0.0), F(-size)],
                    bad: 0,
                };
                let (v, t) = mesh_content(&spec);
                if let Some(m) = self.call("ground mesh", |w| w.create_mesh(&v, &t))? {
                    self.meshes.push(m);
                    self.create_shape("ground mesh shape", |w| w.create_mesh_shape(g, &def, m))?;
                }
            }
            3 => {
                let spec = HeightD {
                    nx: 65,
                    nz: 65,
                    scale: [F(size / 32.0), F(1.0), F(size / 32.0)],
                    amp: F(0.5),
                    holes: 0,
                    bad: 0,
                };
                let (h, holes) = height_content(&spec);
                let hf = HeightFieldDef {
                    count_x: 65,
                    count_z: 65,
                    heights: &h,
                    holes: &holes,
                    scale: v3(spec.scale),
                };
                if let Some(m) = self.call("ground height field", |w| w.create_height_field(&hf))? {
                    self.meshes.push(m);
                    self.create_shape("ground height field shape", |w| {
                        w.create_mesh_shape(g, &def, m)
                    })?;
                }
            }
            _ => {
                let data = voxel_data(1);
                let vd = VoxelGridDef {
                    voxel_size: size / 8.0,
                    data: &data,
                    origin: Vec3::new(-size, -3.0 * size / 8.0, -size),
                };
                if let Some(m) = self.call("ground voxels", |w| w.create_voxel_grid(&vd))? {
                    self.meshes.push(m);
                    self.create_shape("ground voxel shape", |w| w.create_voxel_shape(g, &def, m))?;
                }
            }
        }
        Ok(())
    }
}
