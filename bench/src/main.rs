//! `cargo run --release -p maul3d-bench [-- --scene NAME --steps N --engine maul3d|rapier|both
//! --threads N]`
//!
//! Builds each of Box3D's benchmark scenes in Maul3D and in Rapier, steps them one after
//! the other on this one thread, and prints per scene:
//!
//! ```text
//! large_pyramid maul3d=X ms/step rapier=Y ms/step ratio=X/Y
//! large_pyramid bodies maul3d=N rapier=N checksum maul3d=C rapier=C
//! ```
//!
//! Times are the mean over every step but the first, Box3D's convention (the first step
//! pays for creating every pair, which is not steady-state work). With `--threads N`,
//! Maul3D runs again on a persistent pool of N threads (`pool.rs`) and a line gives its
//! time, its speed-up over one thread and whether the checksum is bit-equal:
//!
//! ```text
//! large_pyramid maul3d threads=2 X ms/step speedup=S (1 thread Y) checksum equal
//! ```
//!
//! With `--runs N` each engine and thread count runs the scene N times, one thread and
//! N threads alternately, and the fastest run of each counts (Box3D's `benchmark` keeps
//! the fastest of its runs the same way, four by default): a run during which the host
//! lent the second core to someone else no longer decides the speed-up.

use clap::{Parser, ValueEnum};
use maul3d_bench::Engine;
use maul3d_bench::pool::Pool;
use maul3d_bench::rapier::RapierEngine;
use maul3d_bench::scenes::{Scene, SceneName};
use std::process::ExitCode;
use std::time::{Duration, Instant};

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum EngineChoice {
    Maul3d,
    Rapier,
    Both,
}

/// Maul3D and Rapier side by side on Box3D's benchmark scenes.
#[derive(Parser, Debug)]
#[command(version, about)]
struct Args {
    /// One scene (large_pyramid, many_pyramids, joint_grid, convex_pile, washer, rain,
    /// convex_vs_mesh, voxels, fast_capsules, sleeping_crowd, vehicles, characters); all of
    /// them when left out.
    #[arg(long, value_parser = parse_scene)]
    scene: Option<SceneName>,
    /// Steps to run instead of the scene's own count (at least 2: the first is not timed).
    #[arg(long, value_parser = clap::value_parser!(u64).range(2..))]
    steps: Option<u64>,
    /// Sleeping cubes in `sleeping_crowd` (default 10,000).
    #[arg(long)]
    sleepers: Option<usize>,
    /// Which engine to run.
    #[arg(long, value_enum, default_value_t = EngineChoice::Both)]
    engine: EngineChoice,
    /// Also run Maul3D on this many threads (a persistent pool behind the task hooks, as
    /// a host would give) and print its time and its speed-up over one thread.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=64))]
    threads: Option<u32>,
    /// Runs of each engine and thread count, alternately; the fastest of each counts.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=100))]
    runs: u32,
    /// The contact solver's lanes: auto (the widest this CPU runs), scalar, 4 or 8. Every
    /// choice gives the same bits; the first line printed names the one in use.
    #[arg(long, value_parser = parse_lanes, default_value = "auto")]
    lanes: maul3d::SolverLanes,
}

fn parse_lanes(name: &str) -> Result<maul3d::SolverLanes, String> {
    match name {
        "auto" => Ok(maul3d::SolverLanes::Auto),
        "scalar" | "1" => Ok(maul3d::SolverLanes::Scalar),
        "4" => Ok(maul3d::SolverLanes::Four),
        "8" => Ok(maul3d::SolverLanes::Eight),
        _ => Err(format!("unknown lanes '{name}': auto, scalar, 4 or 8")),
    }
}

fn parse_scene(name: &str) -> Result<SceneName, String> {
    SceneName::from_name(name).ok_or_else(|| {
        let names: Vec<_> = SceneName::ALL.iter().map(|s| s.as_str()).collect();
        format!("unknown scene '{name}': one of {}", names.join(", "))
    })
}

/// What one engine did on one scene.
struct Run {
    profile: Option<String>,
    report: Option<String>,
    ms_per_step: f64,
    bodies: usize,
    checksum: f64,
}

/// Steps `engine` `warmup` times untimed, then `steps` times; returns the mean wall time
/// in ms of all those steps but the first.
#[allow(clippy::disallowed_methods)] // A benchmark must read the clock; the ban keeps it out of the engine.
fn time_steps<E: Engine>(engine: &mut E, warmup: usize, steps: usize) -> f64 {
    for _ in 0..warmup {
        engine.step();
    }
    engine.step();
    let mut total = Duration::ZERO;
    for _ in 1..steps {
        let start = Instant::now();
        engine.step();
        total += start.elapsed();
    }
    total.as_secs_f64() * 1000.0 / (steps - 1) as f64
}

fn run<E: Engine>(scene: &Scene, steps: usize) -> Run {
    let mut engine = E::build(scene);
    let ms_per_step = time_steps(&mut engine, scene.warmup, steps);
    Run {
        profile: engine.profile_summary(),
        report: engine.report(),
        ms_per_step,
        bodies: engine.body_count(),
        checksum: engine.checksum(),
    }
}

/// Maul3D on `pool`'s threads, or on the calling thread alone.
#[cfg(feature = "maul3d-side")]
fn run_maul3d(scene: &Scene, steps: usize, pool: Option<&Pool>) -> Option<Run> {
    use maul3d_bench::maul3d_side::{Maul3dEngine, set_task_hooks};
    set_task_hooks(pool.map(Pool::hooks));
    let run = run::<Maul3dEngine>(scene, steps);
    set_task_hooks(None);
    Some(run)
}

#[cfg(not(feature = "maul3d-side"))]
fn run_maul3d(_scene: &Scene, _steps: usize, _pool: Option<&Pool>) -> Option<Run> {
    None
}

/// Keeps the faster of `best` and `run`; runs of one scene end in the same state, so a
/// checksum that differs between them is kept (as NaN) for the report to show.
fn fastest(best: &mut Option<Run>, run: Option<Run>) {
    let Some(mut run) = run else { return };
    let Some(b) = best else {
        *best = Some(run);
        return;
    };
    if b.checksum.to_bits() != run.checksum.to_bits() {
        (b.checksum, run.checksum) = (f64::NAN, f64::NAN);
    }
    if run.ms_per_step < b.ms_per_step {
        *b = run;
    }
}

fn field<T>(run: &Option<Run>, f: impl Fn(&Run) -> T) -> String
where
    T: std::fmt::Display,
{
    run.as_ref().map_or("n/a".to_string(), |r| f(r).to_string())
}

fn main() -> ExitCode {
    let args = Args::parse();
    let maul3d_built = cfg!(feature = "maul3d-side");
    if args.engine == EngineChoice::Maul3d && !maul3d_built {
        eprintln!("the Maul3D side is not built: rebuild with `--features maul3d-side`");
        return ExitCode::FAILURE;
    }
    if args.engine == EngineChoice::Both && !maul3d_built {
        eprintln!("note: the Maul3D side is not built (feature maul3d-side): maul3d=n/a");
    }

    #[cfg(feature = "maul3d-side")]
    match maul3d_bench::maul3d_side::set_solver_lanes(args.lanes) {
        Ok(lanes) => println!("maul3d lanes: {}", lanes.name()),
        Err(e) => {
            eprintln!("--lanes: {e}");
            return ExitCode::FAILURE;
        }
    }

    // One pool for the whole run, as a game keeps its job system; started when the first
    // threaded run needs it, so its threads are not spinning beside the first one-thread
    // run (and a profile of one scene tells the runs apart by the workers' first sample).
    let threads = args.threads.filter(|&n| n > 1);
    let mut pool: Option<Pool> = None;
    let names: Vec<SceneName> = match args.scene {
        Some(name) => vec![name],
        None => SceneName::ALL.to_vec(),
    };
    for name in names {
        let built = match (name, args.sleepers) {
            (SceneName::SleepingCrowd, Some(n)) => Ok(maul3d_bench::scenes::sleeping_crowd(n)),
            _ => name.build(),
        };
        let scene = match built {
            Ok(scene) => scene,
            Err(missing) => {
                println!("{} skipped: needs {missing}", name.as_str());
                continue;
            }
        };
        let steps = args.steps.map_or(scene.steps, |s| s as usize);
        let maul3d_runs = match (args.engine, name.missing_feature()) {
            (EngineChoice::Rapier, _) => false,
            (_, Some(missing)) => {
                println!(
                    "{} maul3d not built: needs {missing} (Rapier side only)",
                    name.as_str()
                );
                false
            }
            (EngineChoice::Maul3d | EngineChoice::Both, None) => true,
        };
        let rapier_runs = matches!(args.engine, EngineChoice::Rapier | EngineChoice::Both);
        let (mut maul3d, mut threaded, mut rapier) = (None, None, None);
        for _ in 0..args.runs {
            if maul3d_runs {
                fastest(&mut maul3d, run_maul3d(&scene, steps, None));
                if let Some(n) = threads {
                    let pool = pool.get_or_insert_with(|| Pool::new(n));
                    fastest(&mut threaded, run_maul3d(&scene, steps, Some(pool)));
                }
            }
            if rapier_runs {
                fastest(&mut rapier, Some(run::<RapierEngine>(&scene, steps)));
            }
        }
        let ratio = match (&maul3d, &rapier) {
            (Some(m), Some(r)) => format!("{:.2}", m.ms_per_step / r.ms_per_step),
            _ => "n/a".to_string(),
        };
        println!(
            "{} maul3d={} ms/step rapier={} ms/step ratio={ratio}",
            name.as_str(),
            field(&maul3d, |r| format!("{:.2}", r.ms_per_step)),
            field(&rapier, |r| format!("{:.2}", r.ms_per_step)),
        );
        println!(
            "{} bodies maul3d={} rapier={} checksum maul3d={} rapier={} ({steps} steps)",
            name.as_str(),
            field(&maul3d, |r| r.bodies),
            field(&rapier, |r| r.bodies),
            field(&maul3d, |r| format!("{:.3}", r.checksum)),
            field(&rapier, |r| format!("{:.3}", r.checksum)),
        );
        if let Some(p) = maul3d.as_ref().and_then(|r| r.profile.as_ref()) {
            println!("{} maul3d profile: {p}", name.as_str());
        }
        if let (Some(one), Some(many), Some(n)) = (&maul3d, &threaded, args.threads) {
            println!(
                "{} maul3d threads={n} {:.2} ms/step speedup={:.2} (1 thread {:.2}) checksum {}",
                name.as_str(),
                many.ms_per_step,
                one.ms_per_step / many.ms_per_step,
                one.ms_per_step,
                if many.checksum.to_bits() == one.checksum.to_bits() {
                    "equal".to_string()
                } else {
                    format!("DIFFERS ({:.3} vs {:.3})", many.checksum, one.checksum)
                },
            );
            if let Some(p) = many.profile.as_ref() {
                println!("{} maul3d threads={n} profile: {p}", name.as_str());
            }
        }
        for (side, run) in [("maul3d", &maul3d), ("rapier", &rapier)] {
            if let Some(report) = run.as_ref().and_then(|r| r.report.as_ref()) {
                println!("{} {side} check: {report}", name.as_str());
            }
        }
    }
    ExitCode::SUCCESS
}
