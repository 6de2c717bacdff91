//! Threads: any number of workers and any split give the single-threaded bits; worlds
//! share nothing; many threads may read one world between steps.

#![allow(clippy::disallowed_methods)] // measuring results in tests, not simulating

mod common;
#[path = "../../test/determinism/src/tasks.rs"]
mod tasks;

use common::*;
use maul3d::math::{DVec3, Quat, Vec3};
use maul3d::{BodyDef, BodyType, ShapeDef, World, WorldDef};
use std::sync::Arc;
use tasks::TestTasks;

fn build(def: WorldDef) -> World {
    let mut w = World::new(&WorldDef {
        body_capacity: 300,
        shape_capacity: 300,
        contact_capacity: 2000,
        pair_capacity: 2000,
        ..def
    })
    .unwrap();
    ground(&mut w, 0.6);
    pyramid(&mut w, 10, DVec3::new(-6.0, 0.0, 0.0));
    let hull = w
        .create_hull(&[
            Vec3::new(-0.4, -0.3, -0.4),
            Vec3::new(0.5, -0.3, -0.3),
            Vec3::new(0.0, -0.35, 0.5),
            Vec3::new(0.1, 0.5, 0.0),
        ])
        .unwrap();
    for i in 0..60 {
        let b = w
            .create_body(&BodyDef {
                body_type: BodyType::Dynamic,
                position: DVec3::new(
                    4.0 + (i % 4) as f64 * 0.9,
                    1.0 + (i / 4) as f64 * 0.8,
                    (i % 3) as f64 * 0.3,
                ),
                rotation: Quat::from_axis_angle(Vec3::new(0.2, 1.0, 0.3).normalize(), i as f32),
                ..Default::default()
            })
            .unwrap();
        if i % 2 == 0 {
            w.create_hull_shape(b, &ShapeDef::default(), hull).unwrap();
        } else {
            w.create_box_shape(b, &ShapeDef::default(), Vec3::new(0.35, 0.3, 0.25))
                .unwrap();
        }
    }
    w
}

/// The world's hash mixed with the last step's move events (bodies, poses, order),
/// which the workers write too.
fn step_hash(w: &World) -> u64 {
    let mut h = w.hash();
    for e in w.body_move_events() {
        for x in [
            u64::from(e.body.index),
            e.position.x.to_bits(),
            e.position.y.to_bits(),
            e.position.z.to_bits(),
            u64::from(e.rotation.w.to_bits()),
            u64::from(e.fell_asleep),
        ] {
            h = (h ^ x).wrapping_mul(0x0100_0000_01b3);
        }
    }
    h
}

fn hashes(mut w: World, steps: usize) -> Vec<u64> {
    (0..steps)
        .map(|_| {
            w.step(DT, SUBSTEPS).unwrap();
            step_hash(&w)
        })
        .collect()
}

/// Asserts that `build` stepped `steps` times on random task splits (each `(workers,
/// threaded)` of `splits`, seeded from `seed`) gives `reference`, the one-thread hashes.
fn assert_splits_give(
    build: fn(WorldDef) -> World,
    steps: usize,
    reference: &[u64],
    splits: &[(u32, bool)],
    seed: u64,
) {
    for &(workers, threaded) in splits {
        let pool = TestTasks::new(workers, threaded, seed + workers as u64);
        let w = build(WorldDef {
            task_hooks: Some(pool.hooks()),
            ..Default::default()
        });
        assert_eq!(
            hashes(w, steps),
            reference,
            "{workers} workers (threaded: {threaded})"
        );
    }
}

#[test]
fn every_worker_count_and_split_gives_the_single_threaded_hashes() {
    let reference = hashes(build(WorldDef::default()), 120);
    for (workers, threaded) in [
        (1, true),
        (2, true),
        (3, true),
        (4, true),
        (8, true),
        (4, false),
    ] {
        let pool = TestTasks::new(workers, threaded, 0x5eed + workers as u64);
        let w = build(WorldDef {
            task_hooks: Some(pool.hooks()),
            ..Default::default()
        });
        assert_eq!(
            hashes(w, 120),
            reference,
            "{workers} workers (threaded: {threaded})"
        );
    }
}

/// Boxes raining on the ground in a grid, their shapes mixed as users mix them: some
/// bodies carry a sensor beside their box, some boxes collide with nothing (mask 0), so
/// the pair search passes over shapes that cannot pair between ones that can.
fn build_mixed(def: WorldDef) -> World {
    let mut w = World::new(&WorldDef {
        body_capacity: 400,
        shape_capacity: 600,
        contact_capacity: 4000,
        pair_capacity: 4000,
        ..def
    })
    .unwrap();
    ground(&mut w, 0.6);
    for i in 0..300 {
        let b = w
            .create_body(&BodyDef {
                body_type: BodyType::Dynamic,
                position: DVec3::new(
                    (i % 10) as f64 * 0.9 - 4.5,
                    1.0 + (i / 100) as f64 * 0.9,
                    ((i / 10) % 10) as f64 * 0.9 - 4.5,
                ),
                linear_velocity: Vec3::new(0.0, -2.0, 0.0),
                ..Default::default()
            })
            .unwrap();
        let mut def = ShapeDef::default();
        if i % 4 == 1 {
            def.filter.mask_bits = 0;
        }
        w.create_box_shape(b, &def, Vec3::splat(0.4)).unwrap();
        if i % 3 == 0 {
            let sensor = ShapeDef {
                is_sensor: true,
                ..Default::default()
            };
            let ball = maul3d::Sphere {
                center: Vec3::ZERO,
                radius: 0.6,
            };
            w.create_sphere_shape(b, &sensor, &ball).unwrap();
        }
    }
    w
}

#[test]
fn a_pair_search_past_shapes_that_cannot_pair_gives_the_single_threaded_hashes() {
    let reference = hashes(build_mixed(WorldDef::default()), 60);
    assert_splits_give(
        build_mixed,
        60,
        &reference,
        &[(2, true), (4, true), (3, false)],
        0x9a1c,
    );
}

/// Ragdolls falling on a pyramid next to a swinging chain: joints and contacts in one
/// step.
fn build_jointed(def: WorldDef) -> World {
    let mut w = World::new(&WorldDef {
        body_capacity: 300,
        shape_capacity: 300,
        contact_capacity: 2000,
        pair_capacity: 2000,
        ..def
    })
    .unwrap();
    ground(&mut w, 0.6);
    pyramid(&mut w, 6, DVec3::new(0.0, 0.0, 0.0));
    for k in 0..4 {
        ragdoll(
            &mut w,
            DVec3::new(-2.0 + 1.3 * k as f64, 6.5 + 0.7 * k as f64, 0.2 * k as f64),
            k + 1,
        );
    }
    let (_, links) = hanging_chain(&mut w, DVec3::new(-6.0, 9.0, 0.0), 16);
    w.apply_linear_impulse_to_center(links[15], Vec3::new(20.0, 0.0, 5.0))
        .unwrap();
    w
}

#[test]
fn joints_under_random_task_splits_give_the_single_threaded_hashes() {
    let reference = hashes(build_jointed(WorldDef::default()), 150);
    assert_splits_give(
        build_jointed,
        150,
        &reference,
        &[(2, true), (4, true), (3, false)],
        0x7013,
    );
}

/// Small fast bodies fired at a thin static wall, a few of them bullets: continuous
/// collision's parallel pass (the fast bodies that are not bullets, against the statics)
/// and its serial one (the bullets) in one step.
fn build_fast(def: WorldDef) -> World {
    build_fast_bodies(def, 90)
}

/// `count` small fast boxes (every seventh a bullet) fired at a thin wall.
fn build_fast_bodies(def: WorldDef, count: u32) -> World {
    let mut w = World::new(&WorldDef {
        body_capacity: 200,
        shape_capacity: 200,
        contact_capacity: 2000,
        pair_capacity: 2000,
        ..def
    })
    .unwrap();
    ground(&mut w, 0.6);
    let wall = w
        .create_body(&BodyDef {
            position: DVec3::new(0.0, 3.0, 0.0),
            ..Default::default()
        })
        .unwrap();
    w.create_box_shape(wall, &ShapeDef::default(), Vec3::new(0.05, 3.0, 6.0))
        .unwrap();
    for i in 0..count {
        let b = w
            .create_body(&BodyDef {
                body_type: BodyType::Dynamic,
                position: DVec3::new(
                    -4.0 - (i % 3) as f64,
                    0.5 + (i / 10) as f64 * 0.6,
                    -4.5 + (i % 10) as f64,
                ),
                linear_velocity: Vec3::new(150.0 + 7.0 * (i % 5) as f32, 1.0, 0.0),
                is_bullet: i % 7 == 0,
                ..Default::default()
            })
            .unwrap();
        w.create_box_shape(b, &ShapeDef::default(), Vec3::new(0.1, 0.1, 0.1))
            .unwrap();
    }
    w
}

/// The fast-body scene built by `build` sweeps (at least `min_queries` time-of-impact
/// queries in 60 steps), nothing tunnels through its wall, and every split in `splits`
/// gives its single-threaded hashes.
fn assert_fast_bodies_split(
    build: fn(WorldDef) -> World,
    min_queries: u32,
    splits: &[(u32, bool)],
    seed: u64,
) {
    let mut w = build(WorldDef::default());
    let mut reference = Vec::new();
    let mut queries = 0;
    for _ in 0..60 {
        w.step(DT, SUBSTEPS).unwrap();
        reference.push(step_hash(&w));
        queries += w.counters().toi_queries;
    }
    assert!(
        queries > min_queries,
        "the scene sweeps: {queries} time-of-impact queries"
    );
    for b in w.body_ids() {
        assert!(
            w.body_position(b).unwrap().x < 0.2,
            "nothing tunnels through the wall"
        );
    }
    assert_splits_give(build, 60, &reference, splits, seed);
}

#[test]
fn fast_bodies_under_random_task_splits_give_the_single_threaded_hashes() {
    assert_fast_bodies_split(build_fast, 50, &[(2, true), (4, true), (3, false)], 0xfa57);
}

#[test]
fn a_few_fast_bodies_swept_a_body_a_block_give_the_single_threaded_hashes() {
    // 30 moving bodies: continuous collision splits its sweeps a body a block (a world of
    // 64 or fewer with one to sweep), where larger worlds take blocks of 64.
    assert_fast_bodies_split(
        |def| build_fast_bodies(def, 30),
        20,
        &[(2, true), (4, true), (3, false), (2, false)],
        0x5fa57,
    );
}

#[test]
fn two_worlds_on_two_threads_equal_the_two_stepped_in_turn() {
    let a = hashes(build(WorldDef::default()), 90);
    let b = hashes(
        build(WorldDef {
            enable_sleep: false,
            ..Default::default()
        }),
        90,
    );
    let (ta, tb) = std::thread::scope(|s| {
        let ha = s.spawn(|| hashes(build(WorldDef::default()), 90));
        let hb = s.spawn(|| {
            hashes(
                build(WorldDef {
                    enable_sleep: false,
                    ..Default::default()
                }),
                90,
            )
        });
        (ha.join().unwrap(), hb.join().unwrap())
    });
    assert_eq!(ta, a);
    assert_eq!(tb, b);
}

#[test]
fn many_threads_read_one_world_between_steps() {
    fn assert_sync<T: Sync + Send>() {}
    assert_sync::<World>();
    let mut w = build(WorldDef::default());
    step_n(&mut w, 40);
    let h = w.hash();
    let size = w.snapshot_size();
    let mut reference = vec![0u8; size];
    w.snapshot(&mut reference).unwrap();
    let ids: Vec<_> = w.body_ids().collect();
    let world = Arc::new(w);
    std::thread::scope(|s| {
        for t in 0..4 {
            let world = world.clone();
            let ids = &ids;
            let reference = &reference;
            s.spawn(move || {
                for k in 0..20 {
                    assert_eq!(world.hash(), h);
                    let mut buf = vec![0u8; size];
                    world.snapshot(&mut buf).unwrap();
                    assert_eq!(&buf, reference);
                    let id = ids[(t * 7 + k) % ids.len()];
                    assert!(world.body_position(id).unwrap().is_valid());
                    let _ = world.body_linear_velocity(id).unwrap();
                }
            });
        }
    });
}

/// Hulls and boxes falling on a bumpy triangle mesh and a height field: child contacts are
/// created and destroyed serially in slot order, so any split gives the same bits.
fn build_meshes(def: WorldDef) -> World {
    let mut w = World::new(&WorldDef {
        body_capacity: 300,
        shape_capacity: 300,
        contact_capacity: 8000,
        pair_capacity: 2000,
        ..def
    })
    .unwrap();
    let n = 16u32;
    let mut v = Vec::new();
    for z in 0..=n {
        for x in 0..=n {
            let y = ((x * 3 + z * 5) % 4) as f32 * 0.1;
            v.push(Vec3::new(x as f32 * 0.5 - 4.0, y, z as f32 * 0.5 - 4.0));
        }
    }
    let mut t = Vec::new();
    for z in 0..n {
        for x in 0..n {
            let (a, b) = (z * (n + 1) + x, z * (n + 1) + x + 1);
            t.push([a, a + n + 1, b + n + 1]);
            t.push([a, b + n + 1, b]);
        }
    }
    let mesh = w.create_mesh(&v, &t).unwrap();
    let heights: Vec<f32> = (0..81).map(|i| ((i * 5) % 3) as f32 * 0.1).collect();
    let hf = w
        .create_height_field(&maul3d::HeightFieldDef {
            count_x: 9,
            count_z: 9,
            heights: &heights,
            holes: &[],
            scale: Vec3::new(1.0, 1.0, 1.0),
        })
        .unwrap();
    for (m, at) in [(mesh, DVec3::ZERO), (hf, DVec3::new(4.0, 0.0, -4.0))] {
        let b = w
            .create_body(&BodyDef {
                position: at,
                ..Default::default()
            })
            .unwrap();
        w.create_mesh_shape(b, &ShapeDef::default(), m).unwrap();
    }
    let hull = w
        .create_hull(&[
            Vec3::new(-0.4, -0.3, -0.4),
            Vec3::new(0.5, -0.3, -0.3),
            Vec3::new(0.0, -0.35, 0.5),
            Vec3::new(0.1, 0.5, 0.0),
        ])
        .unwrap();
    for i in 0..60 {
        let b = w
            .create_body(&BodyDef {
                body_type: BodyType::Dynamic,
                position: DVec3::new(
                    -3.5 + (i % 10) as f64 * 1.1,
                    1.0 + (i / 10) as f64 * 0.9,
                    -2.0 + (i % 4) as f64 * 1.2,
                ),
                rotation: Quat::from_axis_angle(Vec3::new(0.2, 1.0, 0.3).normalize(), i as f32),
                ..Default::default()
            })
            .unwrap();
        if i % 2 == 0 {
            w.create_hull_shape(b, &ShapeDef::default(), hull).unwrap();
        } else {
            w.create_box_shape(b, &ShapeDef::default(), Vec3::new(0.35, 0.3, 0.25))
                .unwrap();
        }
    }
    w
}

#[test]
fn meshes_under_random_task_splits_give_the_single_threaded_hashes() {
    let reference = hashes(build_meshes(WorldDef::default()), 120);
    assert_splits_give(
        build_meshes,
        120,
        &reference,
        &[(1, true), (4, true), (3, false)],
        0x3e5,
    );
}

/// Hosts that behave as the contract allows but a thread pool would not: every piece
/// inline in order, inline in reverse order, all queued to one thread while the step's
/// thread waits, or none run at all (the library runs what is left after `finish_task`).
mod odd_hosts {
    use maul3d::{TaskFn, TaskHooks};
    use std::ffi::c_void;
    use std::sync::atomic::{AtomicU32, Ordering};
    use std::sync::mpsc;

    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub enum Kind {
        InlineInOrder,
        InlineReversed,
        OneThread,
        RunsNothing,
    }

    pub struct Host {
        pub kind: Kind,
        pub workers: u32,
        /// Calls of `enqueue_task` so far.
        pub enqueues: AtomicU32,
        sender: Option<mpsc::SyncSender<Job>>,
        thread: Option<std::thread::JoinHandle<()>>,
    }

    struct Job {
        task: TaskFn,
        start: u32,
        end: u32,
        worker: u32,
        context: usize,
        done: mpsc::SyncSender<()>,
    }

    impl Host {
        pub fn new(kind: Kind, workers: u32) -> Box<Host> {
            let (sender, thread) = if kind == Kind::OneThread {
                let (tx, rx) = mpsc::sync_channel::<Job>(1024);
                let t = std::thread::spawn(move || {
                    for j in rx {
                        // SAFETY: the world waits in finish_task for `done`.
                        unsafe { (j.task)(j.start, j.end, j.worker, j.context as *mut c_void) };
                        let _ = j.done.send(());
                    }
                });
                (Some(tx), Some(t))
            } else {
                (None, None)
            };
            Box::new(Host {
                kind,
                workers,
                enqueues: AtomicU32::new(0),
                sender,
                thread,
            })
        }

        pub fn hooks(&self) -> TaskHooks {
            TaskHooks {
                enqueue_task: enqueue,
                finish_task: finish,
                user_context: self as *const Host as *mut c_void,
                worker_count: self.workers,
            }
        }
    }

    impl Drop for Host {
        fn drop(&mut self) {
            self.sender = None;
            if let Some(t) = self.thread.take() {
                t.join().unwrap();
            }
        }
    }

    /// Pieces of one item each: the solver's plan runs one long piece per worker.
    unsafe extern "C" fn enqueue(
        task: TaskFn,
        count: u32,
        min_range: u32,
        context: *mut c_void,
        user: *mut c_void,
    ) -> *mut c_void {
        // SAFETY: `user` is the Host `hooks()` pointed at; it outlives the world.
        let host = unsafe { &*(user as *const Host) };
        host.enqueues.fetch_add(1, Ordering::Relaxed);
        let step = min_range.max(1);
        let pieces: Vec<(u32, u32)> = (0..count)
            .step_by(step as usize)
            .map(|s| (s, (s + step).min(count)))
            .collect();
        match host.kind {
            Kind::InlineInOrder | Kind::InlineReversed => {
                let mut order: Vec<usize> = (0..pieces.len()).collect();
                if host.kind == Kind::InlineReversed {
                    order.reverse();
                }
                for k in order {
                    let (s, e) = pieces[k];
                    // SAFETY: the world's task and context, run before enqueue returns.
                    unsafe { task(s, e, k as u32 % host.workers, context) };
                }
                std::ptr::null_mut()
            }
            Kind::OneThread => {
                let (tx, rx) = mpsc::sync_channel(pieces.len());
                for (k, &(s, e)) in pieces.iter().enumerate() {
                    let job = Job {
                        task,
                        start: s,
                        end: e,
                        worker: k as u32 % host.workers,
                        context: context as usize,
                        done: tx.clone(),
                    };
                    host.sender.as_ref().unwrap().send(job).unwrap();
                }
                let wait = Box::new((rx, pieces.len()));
                Box::into_raw(wait) as *mut c_void
            }
            // A handle, and nothing run.
            Kind::RunsNothing => std::ptr::dangling_mut::<c_void>(),
        }
    }

    unsafe extern "C" fn finish(handle: *mut c_void, user: *mut c_void) {
        // SAFETY: as in enqueue.
        let host = unsafe { &*(user as *const Host) };
        if host.kind == Kind::OneThread {
            // SAFETY: the box enqueue leaked, taken back once.
            let wait = unsafe { Box::from_raw(handle as *mut (mpsc::Receiver<()>, usize)) };
            for _ in 0..wait.1 {
                wait.0.recv().unwrap();
            }
        }
    }
}

/// Runs `f` on its own thread and fails if it does not finish within a minute (a piece
/// that waited for one not yet started would hang).
fn within_a_minute<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(f());
    });
    rx.recv_timeout(std::time::Duration::from_secs(60))
        .expect("the step did not finish: a piece waits for one that has not started")
}

#[test]
fn hosts_that_run_pieces_inline_reversed_on_one_thread_or_not_at_all_give_the_same_bits() {
    use odd_hosts::{Host, Kind};
    let reference = hashes(build_jointed(WorldDef::default()), 100);
    let contacts_only = hashes(build(WorldDef::default()), 100);
    for kind in [
        Kind::InlineInOrder,
        Kind::InlineReversed,
        Kind::OneThread,
        Kind::RunsNothing,
    ] {
        for workers in [2u32, 4] {
            let (jointed, plain) = within_a_minute(move || {
                let host = Host::new(kind, workers);
                let def = || WorldDef {
                    task_hooks: Some(host.hooks()),
                    ..Default::default()
                };
                let jointed = hashes(build_jointed(def()), 100);
                let plain = hashes(build(def()), 100);
                (jointed, plain)
            });
            assert_eq!(jointed, reference, "{kind:?}, {workers} workers, joints");
            assert_eq!(plain, contacts_only, "{kind:?}, {workers} workers");
        }
    }
}

#[test]
fn the_solver_asks_the_host_once_per_phase_not_once_per_stage() {
    use odd_hosts::{Host, Kind};
    let host = Host::new(Kind::InlineInOrder, 4);
    let mut w = build(WorldDef {
        task_hooks: Some(host.hooks()),
        ..Default::default()
    });
    step_n(&mut w, 30);
    let before = host.enqueues.load(std::sync::atomic::Ordering::Relaxed);
    w.step(DT, SUBSTEPS).unwrap();
    let per_step = host.enqueues.load(std::sync::atomic::Ordering::Relaxed) - before;
    assert!(w.counters().color_count >= 2, "{:?}", w.counters());
    // The substeps and the restitution/store tail are one plan each; the rest of the
    // step (collide, finalize, …) a handful more. Stage by stage it was over 60.
    eprintln!("{per_step} enqueues in one step");
    assert!(per_step <= 12, "{per_step} enqueues in one step");
}

#[test]
fn a_pair_search_past_pair_capacity_drops_the_same_pairs_on_any_worker_count() {
    // A pyramid of 105 boxes finds more new pairs in its first steps than 60 (the parallel
    // search then gives way to the serial one, which keeps the lowest keys).
    let run = |hooks: Option<maul3d::TaskHooks>| {
        let mut w = World::new(&WorldDef {
            body_capacity: 300,
            shape_capacity: 300,
            contact_capacity: 2000,
            pair_capacity: 60,
            task_hooks: hooks,
            ..Default::default()
        })
        .unwrap();
        ground(&mut w, 0.6);
        pyramid(&mut w, 14, DVec3::new(0.0, 0.0, 0.0));
        let mut out = Vec::new();
        for _ in 0..90 {
            w.step(DT, SUBSTEPS).unwrap();
            out.push((w.hash(), w.counters().dropped_pairs));
        }
        out
    };
    let reference = run(None);
    assert!(
        reference.iter().any(|&(_, d)| d > 0),
        "the scene must pass pair_capacity"
    );
    for workers in [2, 4] {
        let pool = TestTasks::new(workers, true, 0x9a1 + workers as u64);
        assert_eq!(run(Some(pool.hooks())), reference, "{workers} workers");
    }
}

/// The bounds check before a step looks at the moving bodies word by word of the awake
/// bits through the host's pieces: the step it refuses names the same body — the first
/// in slot order of those that could pass ±2^22 — on every host, and changes nothing.
#[test]
fn the_bounds_check_names_the_same_first_body_on_every_host() {
    use odd_hosts::{Host, Kind};
    let run = |hooks: Option<maul3d::TaskHooks>| {
        let mut w = World::new(&WorldDef {
            body_capacity: 3000,
            shape_capacity: 3000,
            gravity: Vec3::ZERO,
            task_hooks: hooks,
            ..Default::default()
        })
        .unwrap();
        let mut ids = Vec::new();
        for i in 0..3000 {
            // Two fast kinematic bodies, at slots 2100 and 2900 (the later one nearer the
            // edge); the rest dynamic, spaced out near the origin. All awake and moving.
            let (body_type, x, v) = match i {
                2100 => (BodyType::Kinematic, 2_000_000.0, 1e5),
                2900 => (BodyType::Kinematic, -2_090_000.0, -1e5),
                _ => (BodyType::Dynamic, i as f64 * 3.0, 0.0),
            };
            let b = w
                .create_body(&BodyDef {
                    body_type,
                    position: DVec3::new(x, 0.0, 0.0),
                    linear_velocity: Vec3::splat(v),
                    ..Default::default()
                })
                .unwrap();
            let ball = maul3d::Sphere {
                center: Vec3::ZERO,
                radius: 0.5,
            };
            w.create_sphere_shape(b, &ShapeDef::default(), &ball)
                .unwrap();
            ids.push(b);
        }
        // A 10 s step passes (2.09e6 + 1.73e6 at most)...
        w.step(10.0, SUBSTEPS).unwrap();
        // ...the next could carry both past: refused, naming slot 2100's body.
        let before = w.hash();
        let e = w.step(10.0, SUBSTEPS).unwrap_err();
        assert_eq!(w.hash(), before, "the refused step changed the world");
        (ids[2100], ids[2900], format!("{e}"), e)
    };
    let (first, _, text, e) = run(None);
    assert!(
        matches!(e, maul3d::Error::BodyOutOfBounds { body, .. } if body == first),
        "{text}"
    );
    for kind in [
        Kind::InlineInOrder,
        Kind::InlineReversed,
        Kind::OneThread,
        Kind::RunsNothing,
    ] {
        for workers in [2u32, 4] {
            let host = Host::new(kind, workers);
            let (first, _, got, e) = run(Some(host.hooks()));
            assert!(
                matches!(e, maul3d::Error::BodyOutOfBounds { body, .. } if body == first),
                "{kind:?}, {workers} workers: {got}"
            );
            assert_eq!(got, text, "{kind:?}, {workers} workers");
        }
    }
    let pool = TestTasks::new(2, true, 7);
    let (first, _, got, e) = run(Some(pool.hooks()));
    assert!(matches!(e, maul3d::Error::BodyOutOfBounds { body, .. } if body == first));
    assert_eq!(got, text);
}
