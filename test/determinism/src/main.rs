//! `maul3d-hashes`: the determinism program of the hash matrix.
//!
//! Steps every scene of `maul3d_determinism::SCENES` on one thread, then again through a
//! task system that splits ranges at random sizes (on 4 real threads, or in random order on
//! one thread where there are none), checks both agree at every step, and prints the
//! per-step hashes (`scene step hash`). With `--check FILE` it compares them with a
//! committed file and exits non-zero on any difference; `--write FILE` regenerates it;
//! `--fp-modes` runs the C harness (thread in flush-to-zero and every rounding mode).
//! Each scene also runs in a world that starts as small as it can and grows before each
//! step as `World::growth_needed` asks: it must hash as the large world at every step.
//! Each scene runs on a thread with a small stack: 48 KiB in release, 64 KiB in debug.
//! `--lanes 1|4|8` forces the contact solver's lanes in every world (first line printed:
//! `lanes NAME`, the path the worlds solve in).

use maul3d_determinism::{Driver, SCENES, STEPS, format_lines, tasks::TestTasks};
use std::process::ExitCode;

#[cfg(fp_harness)]
unsafe extern "C" {
    fn m3test_fp_modes(scenes: i32, steps: i32) -> i32;
}

/// C harness entry: builds a scene (in the caller's environment, which is the default).
#[cfg(fp_harness)]
#[unsafe(no_mangle)]
pub extern "C" fn m3test_build(scene: i32) -> *mut maul3d::World {
    maul3d::fp::with_library_fp(|| {
        let (w, _) = Driver::build(scene as usize % SCENES.len(), None);
        Box::into_raw(Box::new(w))
    })
}

/// C harness entry: steps a scene's world through the library's FP shim; returns the hash.
///
/// # Safety
/// `world` must come from `m3test_build`, not yet freed, used by one thread.
#[cfg(fp_harness)]
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m3test_step_hash(world: *mut maul3d::World, steps: i32) -> u64 {
    maul3d::fp::with_library_fp(|| {
        // SAFETY: `world` came from m3test_build and is used by one thread.
        let w = unsafe { &mut *world };
        for _ in 0..steps {
            w.step(1.0 / 60.0, 4).unwrap();
        }
        w.hash()
    })
}

/// C harness entry: frees a world from m3test_build.
///
/// # Safety
/// `world` must come from `m3test_build` and be freed once.
#[cfg(fp_harness)]
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m3test_free(world: *mut maul3d::World) {
    // SAFETY: `world` came from m3test_build and is freed once.
    drop(unsafe { Box::from_raw(world) });
}

fn run_scene(scene: usize, threaded: bool) -> Result<Vec<u64>, String> {
    let (mut w, mut d) = Driver::build(scene, None);
    let single = with_small_stack_stepper(|step| d.run(&mut w, STEPS, step));
    let pool = TestTasks::new(4, threaded, 0xC0FFEE + scene as u64);
    let (mut w, mut d) = Driver::build(scene, Some(pool.hooks()));
    let split = with_small_stack_stepper(|step| d.run(&mut w, STEPS, step));
    drop(w);
    drop(pool);
    if let Some(step) = single.iter().zip(split.iter()).position(|(a, b)| a != b) {
        return Err(format!(
            "{}: random task splits differ from one thread at step {}",
            SCENES[scene],
            step + 1
        ));
    }
    Ok(single)
}

/// The scene again in a world that starts as small as its first snapshot allows and grows
/// before each step as `growth_needed` asks (what the Godot server does): every step must
/// hash as in the world made large from the start, since capacities are not state (issue
/// 14). Returns the steps before which the world grew (0: right after the restore).
fn run_grown(scene: usize, reference: &[u64]) -> Result<Vec<u32>, String> {
    let (big, mut d) = Driver::build(scene, None);
    let mut snap = vec![0u8; big.snapshot_size()];
    big.snapshot(&mut snap).map_err(|e| e.to_string())?;
    drop(big);
    let mut def = maul3d::World::def_from_snapshot(&snap).map_err(|e| e.to_string())?;
    let c = maul3d::Capacities {
        body_capacity: 1,
        shape_capacity: 1,
        contact_capacity: 1,
        pair_capacity: 1,
        hull_capacity: 1,
        joint_capacity: 1,
        mesh_capacity: 1,
        content_capacity: 1,
        event_capacity: 1,
        sensor_capacity: 1,
    };
    set_capacities(&mut def, &c);
    // Each refusal names the capacity to raise and what it needs.
    let mut w = loop {
        let mut w = maul3d::World::new(&def).map_err(|e| e.to_string())?;
        maul3d_determinism::apply_lanes(&mut w);
        match w.restore(&snap) {
            Ok(()) => break w,
            Err(maul3d::Error::TooSmall { what, needed, .. }) => {
                let mut c = def.capacities();
                let n = needed as u32;
                match what {
                    "body_capacity" => c.body_capacity = n,
                    "shape_capacity" => c.shape_capacity = n,
                    "contact_capacity" => c.contact_capacity = n,
                    "pair_capacity" => c.pair_capacity = n,
                    "hull_capacity" => c.hull_capacity = n,
                    "joint_capacity" => c.joint_capacity = n,
                    "mesh_capacity" => c.mesh_capacity = n,
                    "content_capacity" => c.content_capacity = needed,
                    "event_capacity" => c.event_capacity = n,
                    "sensor_capacity" => c.sensor_capacity = n,
                    _ => return Err(format!("{}: restore names {what}", SCENES[scene])),
                }
                set_capacities(&mut def, &c);
            }
            Err(e) => return Err(format!("{}: small restore: {e}", SCENES[scene])),
        }
    };
    let mut grew = Vec::new();
    let mut k = 0u32;
    let mut grow = |w: &mut maul3d::World, k: u32| -> Result<(), String> {
        if let Some(c) = w.growth_needed() {
            w.grow(&c).map_err(|e| e.to_string())?;
            grew.push(k);
        }
        Ok(())
    };
    grow(&mut w, 0)?;
    let mut failed = None;
    let hashes = with_small_stack_stepper(|step| {
        d.run(&mut w, STEPS, &mut |w: &mut maul3d::World| {
            if let Err(e) = grow(w, k) {
                failed.get_or_insert(e);
            }
            k += 1;
            step(w);
        })
    });
    if let Some(e) = failed {
        return Err(format!("{}: growth refused: {e}", SCENES[scene]));
    }
    if let Some(step) = hashes.iter().zip(reference).position(|(a, b)| a != b) {
        return Err(format!(
            "{}: a world grown as it fills differs from one made large at step {}",
            SCENES[scene],
            step + 1
        ));
    }
    Ok(grew)
}

fn set_capacities(def: &mut maul3d::WorldDef, c: &maul3d::Capacities) {
    def.body_capacity = c.body_capacity;
    def.shape_capacity = c.shape_capacity;
    def.contact_capacity = c.contact_capacity;
    def.pair_capacity = c.pair_capacity;
    def.hull_capacity = c.hull_capacity;
    def.joint_capacity = c.joint_capacity;
    def.mesh_capacity = c.mesh_capacity;
    def.content_capacity = c.content_capacity;
    def.event_capacity = c.event_capacity;
    def.sensor_capacity = c.sensor_capacity;
}

/// Gives `f` a step function that runs each step on one thread whose stack is 48 KiB
/// optimised and 64 KiB in debug: the narrow phase and the solver must fit (the calls
/// between steps run on the calling thread).
fn with_small_stack_stepper<R>(f: impl FnOnce(&mut dyn FnMut(&mut maul3d::World)) -> R) -> R {
    if cfg!(target_family = "wasm") {
        return f(&mut |w: &mut maul3d::World| Driver::step(w));
    }
    let stack = if cfg!(debug_assertions) {
        64 * 1024
    } else {
        48 * 1024
    };
    let (to_stepper, jobs) = std::sync::mpsc::channel::<usize>();
    let (to_caller, done) = std::sync::mpsc::channel::<()>();
    std::thread::scope(|s| {
        std::thread::Builder::new()
            .stack_size(stack)
            .spawn_scoped(s, move || {
                for ptr in jobs {
                    // SAFETY: the caller sent a pointer to a world it does not touch until
                    // we answer on `to_caller`.
                    let w = unsafe { &mut *(ptr as *mut maul3d::World) };
                    Driver::step(w);
                    to_caller.send(()).expect("caller waits");
                }
            })
            .expect("spawn the stepping thread");
        let r = f(&mut |w: &mut maul3d::World| {
            to_stepper
                .send(w as *mut maul3d::World as usize)
                .expect("stepper alive");
            done.recv().expect("the step panicked");
        });
        drop(to_stepper);
        r
    })
}

/// Decodes `test/demo.m3replay` (compiled in), restores its snapshot, replays its tape and
/// compares the hash with the recorder's.
fn verify_committed_replay() -> Result<String, String> {
    static REPLAY: &[u8] = include_bytes!("../../demo.m3replay");
    let view = maul3d::decode_replay(REPLAY).map_err(|e| format!("demo.m3replay: {e}"))?;
    let def = maul3d::World::def_from_snapshot(view.snapshot).map_err(|e| e.to_string())?;
    let mut w = maul3d::World::new(&def).map_err(|e| e.to_string())?;
    maul3d_determinism::apply_lanes(&mut w);
    w.restore(view.snapshot).map_err(|e| e.to_string())?;
    w.replay_journal(view.tape)
        .map_err(|e| format!("demo.m3replay replay: {e}"))?;
    if w.hash() != view.final_hash {
        return Err(format!(
            "replay demo.m3replay: hash {:016x}, recorded {:016x}",
            w.hash(),
            view.final_hash
        ));
    }
    Ok(format!(
        "replay demo.m3replay {:016x} verified ({} steps)",
        view.final_hash, view.steps
    ))
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().collect();
    let flag = |name: &str| {
        args.iter()
            .position(|a| a == name)
            .and_then(|i| args.get(i + 1))
            .cloned()
    };
    let threaded = !cfg!(target_family = "wasm");
    // `--lanes 1|4|8` forces the contact solver's lanes (scalar, 4-wide, 8-wide) in every
    // world; without it each world runs what the CPU dispatches. Same bits either way.
    let lanes = match flag("--lanes") {
        Some(width) => match width.parse().map_err(|e| format!("--lanes {width}: {e}")) {
            Ok(width) => maul3d_determinism::force_lanes(width),
            Err(e) => Err(e),
        },
        None => Ok(maul3d::World::new(&maul3d_determinism::def(false))
            .map(|w| w.solver_lanes())
            .map_err(|e| e.to_string())
            .unwrap_or(maul3d::SolverLanes::Auto)),
    };
    match lanes {
        Ok(lanes) => println!("lanes {}", lanes.name()),
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::FAILURE;
        }
    }
    let mut out = String::new();
    for (scene, name) in SCENES.iter().enumerate() {
        let h = match run_scene(scene, threaded) {
            Ok(h) => h,
            Err(e) => {
                eprintln!("{e}");
                return ExitCode::FAILURE;
            }
        };
        match run_grown(scene, &h) {
            Ok(grew) => println!(
                "grown {name}: from its snapshot's size, grew before steps {grew:?}, every hash as made large"
            ),
            Err(e) => {
                eprintln!("{e}");
                return ExitCode::FAILURE;
            }
        }
        format_lines(scene, &h, &mut out);
    }
    // The committed replay file, recorded on x86_64: every target must replay it to the
    // recorder's final hash.
    match verify_committed_replay() {
        Ok(line) => println!("{line}"),
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::FAILURE;
        }
    }
    if args.iter().any(|a| a == "--fp-modes") {
        #[cfg(fp_harness)]
        {
            // SAFETY: the harness calls back into the entries above only.
            let failures = unsafe { m3test_fp_modes(SCENES.len() as i32, 60) };
            if failures != 0 {
                eprintln!("{failures} floating-point mode cases failed");
                return ExitCode::FAILURE;
            }
        }
        #[cfg(not(fp_harness))]
        println!("fp-mode (none: this target has no floating-point environment)");
    }
    if let Some(path) = flag("--write") {
        if let Err(e) = std::fs::write(&path, &out) {
            eprintln!("cannot write {path}: {e}");
            return ExitCode::FAILURE;
        }
        println!("wrote {} lines to {path}", out.lines().count());
        return ExitCode::SUCCESS;
    }
    if let Some(path) = flag("--check") {
        let expected = match std::fs::read_to_string(&path) {
            Ok(s) => s,
            Err(e) => {
                eprintln!("cannot read {path}: {e}");
                return ExitCode::FAILURE;
            }
        };
        for (k, (a, b)) in out.lines().zip(expected.lines()).enumerate() {
            if a != b {
                eprintln!("line {}: got `{a}`, expected `{b}`", k + 1);
                return ExitCode::FAILURE;
            }
        }
        if out.lines().count() != expected.lines().count() {
            eprintln!(
                "line counts differ: {} vs {}",
                out.lines().count(),
                expected.lines().count()
            );
            return ExitCode::FAILURE;
        }
        // One summary line per scene: its final hash.
        for (scene, name) in SCENES.iter().enumerate() {
            let last = out
                .lines()
                .rfind(|l| l.starts_with(&format!("{name} ")))
                .unwrap_or("");
            let _ = scene;
            println!("ok {last}");
        }
        return ExitCode::SUCCESS;
    }
    print!("{out}");
    ExitCode::SUCCESS
}
