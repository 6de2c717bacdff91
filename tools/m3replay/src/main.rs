//! `m3replay`: record, inspect, verify, scrub and compare Maul3D replay files.
//!
//! A replay file is `maul3d::encode_replay`'s container: the starting snapshot, the
//! journal tape of every call that changed the world, and the recorder's final hash.
//!
//! ```sh
//! m3replay demo                          # record the built-in demo, verify it, summarise
//! m3replay record --out s.m3replay       # write the demo session (--steps N, --seed S)
//! m3replay info s.m3replay               # sizes, bodies at start, records, steps, hash
//! m3replay verify s.m3replay             # replay it here and compare the final hash
//! m3replay seek s.m3replay 95            # every body at step 95 (from a keyframe)
//! m3replay play s.m3replay --from 10 --to 20
//! m3replay diff a.m3replay b.m3replay    # first step where two sessions part
//! m3replay hashes s.m3replay --out h.txt # "STEP HASH" per step, same bytes everywhere
//! ```
//!
//! Exit codes: 0 success (verified, sessions agree); 1 hash mismatch (`verify`) or
//! sessions that part (`diff`); 2 damaged file; 3 file of another format version; 4 any
//! other error (unreadable file, a step out of range, ...).
//!
//! The committed `test/demo.m3replay` is checked by this crate's tests; when a change to
//! the engine moves results, regenerate it from the repository root with
//! `cargo run --release -p m3replay -- record --out test/demo.m3replay`.

mod clock;
mod demo;
mod progress;
mod report;
mod session;

use std::fmt;
use std::fs;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use maul3d::{BodyDiff, CONTAINER_HEADER_SIZE, World, decode_replay};

use crate::clock::timed;
use crate::progress::steps_bar;
use crate::session::{KEYFRAME_EVERY, Keyframes, Player, Replay};

#[derive(Parser)]
#[command(
    name = "m3replay",
    version,
    about = "Record, inspect, verify, scrub and compare Maul3D replay files"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Record the built-in demo session into a replay file.
    Record {
        /// Where to write the replay.
        #[arg(long, default_value = "demo.m3replay")]
        out: PathBuf,
        /// Steps to record (60 per simulated second).
        #[arg(long, default_value_t = 300)]
        steps: u32,
        /// Seed of the session's projectile aim and kicks (the scene stays the same).
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
    /// Describe a replay file: sizes, bodies at start, records, steps, final hash.
    Info {
        /// The replay file.
        file: PathBuf,
    },
    /// Replay a file here and compare the final hash with the recorded one.
    Verify {
        /// The replay file.
        file: PathBuf,
    },
    /// Print every body's state at one step.
    Seek {
        /// The replay file.
        file: PathBuf,
        /// The step (0 is the starting snapshot).
        step: u64,
        /// Replay the tape cut at the step from the start instead of using keyframes.
        #[arg(long)]
        direct: bool,
    },
    /// Print every body's state at each step of a range.
    Play {
        /// The replay file.
        file: PathBuf,
        /// First step printed.
        #[arg(long, default_value_t = 0)]
        from: u64,
        /// Last step printed (default: the last step).
        #[arg(long)]
        to: Option<u64>,
    },
    /// Find the first step where two sessions part, and the bodies that differ there.
    Diff {
        /// The first replay file (A).
        a: PathBuf,
        /// The second replay file (B).
        b: PathBuf,
    },
    /// Print one line per step: the step and the world's hash (16 hex digits).
    Hashes {
        /// The replay file.
        file: PathBuf,
        /// Write the lines to this file instead of stdout.
        #[arg(long)]
        out: Option<PathBuf>,
    },
    /// Record the demo, verify it and print a short summary.
    Demo {
        /// Steps to record.
        #[arg(long, default_value_t = 300)]
        steps: u32,
        /// Also keep the replay file here.
        #[arg(long)]
        out: Option<PathBuf>,
    },
}

/// Why a command failed; its exit code follows from the kind.
enum Failure {
    /// The engine refused something while working on `context` (a file, a step).
    Engine(String, maul3d::Error),
    /// Reading or writing a file failed.
    Io(PathBuf, io::Error),
    /// Anything else (a step out of range, files that cannot be compared).
    Other(String),
}

impl Failure {
    fn exit_code(&self) -> u8 {
        match self {
            Failure::Engine(_, maul3d::Error::Format(_)) => 2,
            Failure::Engine(_, maul3d::Error::Version { .. }) => 3,
            _ => 4,
        }
    }
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Failure::Engine(context, e) => write!(f, "{context}: {e}"),
            Failure::Io(path, e) => write!(f, "{}: {e}", path.display()),
            Failure::Other(why) => f.write_str(why),
        }
    }
}

/// Attaches a context (usually the file) to engine errors.
trait Context<T> {
    fn context(self, what: impl fmt::Display) -> Result<T, Failure>;
}

impl<T> Context<T> for maul3d::Result<T> {
    fn context(self, what: impl fmt::Display) -> Result<T, Failure> {
        self.map_err(|e| Failure::Engine(what.to_string(), e))
    }
}

/// A command's outcome when it ran to the end: 0, or 1 for a mismatch it reports.
type Outcome = Result<u8, Failure>;

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Record { out, steps, seed } => record(&out, steps, seed),
        Command::Info { file } => info(&file),
        Command::Verify { file } => verify(&file),
        Command::Seek { file, step, direct } => seek(&file, step, direct),
        Command::Play { file, from, to } => play(&file, from, to),
        Command::Diff { a, b } => diff(&a, &b),
        Command::Hashes { file, out } => hashes(&file, out.as_deref()),
        Command::Demo { steps, out } => run_demo(steps, out.as_deref()),
    };
    match result {
        Ok(code) => ExitCode::from(code),
        Err(e) => {
            eprintln!("m3replay: {e}");
            ExitCode::from(e.exit_code())
        }
    }
}

fn read(path: &Path) -> Result<Vec<u8>, Failure> {
    fs::read(path).map_err(|e| Failure::Io(path.to_path_buf(), e))
}

fn write(path: &Path, bytes: &[u8]) -> Result<(), Failure> {
    fs::write(path, bytes).map_err(|e| Failure::Io(path.to_path_buf(), e))
}

fn load(path: &Path) -> Result<Replay, Failure> {
    Replay::decode(&read(path)?).context(path.display())
}

fn check_step(replay: &Replay, path: &Path, step: u64, what: &str) -> Result<(), Failure> {
    if step > replay.steps() {
        return Err(Failure::Other(format!(
            "{}: {what} step {step} is past the last step {}",
            path.display(),
            replay.steps()
        )));
    }
    Ok(())
}

fn record(out: &Path, steps: u32, seed: u64) -> Outcome {
    let bar = steps_bar(steps as u64, "recording");
    let rec = demo::record(steps, seed, &bar).context("recording the demo")?;
    bar.finish_and_clear();
    write(out, &rec.bytes)?;
    println!(
        "recorded {} steps, {} bodies at start, into {} ({} bytes: snapshot {}, tape {})",
        rec.steps,
        rec.bodies_at_start,
        out.display(),
        rec.bytes.len(),
        rec.snapshot_len,
        rec.tape_len
    );
    println!("final hash {:016x}", rec.final_hash);
    Ok(0)
}

fn info(path: &Path) -> Outcome {
    let replay = load(path)?;
    let def = replay.def().context(path.display())?;
    let world = replay.start_world().context(path.display())?;
    println!(
        "file         {} ({} bytes)",
        path.display(),
        replay.file_len
    );
    println!(
        "format       container header {CONTAINER_HEADER_SIZE} bytes, tape {}.{}",
        maul3d::TAPE_MAJOR,
        maul3d::TAPE_MINOR
    );
    println!("snapshot     {} bytes", replay.snapshot.len());
    println!("tape         {} bytes", replay.tape.len());
    println!(
        "bodies       {} at start (capacity {}; shapes {}, hulls {})",
        world.body_count(),
        def.body_capacity,
        def.shape_capacity,
        def.hull_capacity
    );
    println!("records      {}", replay.records);
    println!("steps        {}", replay.steps());
    println!("final hash   {:016x}", replay.final_hash);
    Ok(0)
}

/// What replaying a container here gave.
struct Verdict {
    recorded: u64,
    replayed: u64,
    steps: u64,
    records: u64,
}

/// The check the journal spec describes: decode, restore the snapshot into a world of its
/// capacities, replay the whole tape, compare the hash.
fn verify_bytes(bytes: &[u8]) -> maul3d::Result<Verdict> {
    let view = decode_replay(bytes)?;
    let mut world = World::new(&World::def_from_snapshot(view.snapshot)?)?;
    world.restore(view.snapshot)?;
    world.replay_journal(view.tape)?;
    Ok(Verdict {
        recorded: view.final_hash,
        replayed: world.hash(),
        steps: view.steps,
        records: view.records,
    })
}

fn print_verdict(v: &Verdict) -> u8 {
    if v.recorded == v.replayed {
        println!(
            "verified: final hash {:016x} matches ({} steps, {} records)",
            v.replayed, v.steps, v.records
        );
        0
    } else {
        println!("MISMATCH: the replay ends on another state");
        println!("recorded hash {:016x}", v.recorded);
        println!("replayed hash {:016x}", v.replayed);
        1
    }
}

fn verify(path: &Path) -> Outcome {
    let bytes = read(path)?;
    let verdict = verify_bytes(&bytes).context(path.display())?;
    Ok(print_verdict(&verdict))
}

/// Keyframes for a whole session, with a bar while they are built.
fn index(replay: &Replay, path: &Path) -> Result<Keyframes, Failure> {
    let bar = steps_bar(replay.steps(), "indexing");
    let keyframes = Keyframes::build(replay, |_| bar.inc(1)).context(path.display())?;
    bar.finish_and_clear();
    Ok(keyframes)
}

fn seek(path: &Path, step: u64, direct: bool) -> Outcome {
    let replay = load(path)?;
    check_step(&replay, path, step, "seek")?;
    let at = format!("{} at step {step}", path.display());
    let world = if direct {
        // From the start, the tape cut just past the step: a whole tape of its own.
        let mut w = replay.start_world().context(&at)?;
        w.replay_journal(replay.prefix(step)).context(&at)?;
        w
    } else {
        let keyframes = index(&replay, path)?;
        let mut player = Player::new(&replay).context(&at)?;
        player.seek(&keyframes, step).context(&at)?;
        player.world
    };
    print!("{}", report::body_states(&world, step));
    Ok(0)
}

fn play(path: &Path, from: u64, to: Option<u64>) -> Outcome {
    let replay = load(path)?;
    let to = to.unwrap_or(replay.steps());
    check_step(&replay, path, from, "--from")?;
    check_step(&replay, path, to, "--to")?;
    if from > to {
        return Err(Failure::Other(format!("--from {from} is after --to {to}")));
    }
    let mut player = Player::new(&replay).context(path.display())?;
    // A long way in: find the nearest keyframe instead of printing from the start.
    if from >= KEYFRAME_EVERY {
        let keyframes = index(&replay, path)?;
        player
            .seek(&keyframes, from)
            .context(format!("{} at step {from}", path.display()))?;
    }
    while player.at() < from {
        player
            .advance()
            .context(format!("{} at step {}", path.display(), player.at() + 1))?;
    }
    let mut out = BufWriter::new(io::stdout().lock());
    let stdout = |e| Failure::Io(PathBuf::from("stdout"), e);
    loop {
        write!(out, "{}", report::body_states(&player.world, player.at())).map_err(stdout)?;
        if player.at() == to {
            break;
        }
        writeln!(out).map_err(stdout)?;
        player
            .advance()
            .context(format!("{} at step {}", path.display(), player.at() + 1))?;
    }
    out.flush().map_err(stdout)?;
    Ok(0)
}

fn diff(path_a: &Path, path_b: &Path) -> Outcome {
    let (a, b) = (load(path_a)?, load(path_b)?);
    let (da, db) = (
        a.def().context(path_a.display())?,
        b.def().context(path_b.display())?,
    );
    let caps = |d: &maul3d::WorldDef| {
        [
            d.body_capacity,
            d.shape_capacity,
            d.contact_capacity,
            d.pair_capacity,
            d.hull_capacity,
            d.event_capacity,
        ]
    };
    if caps(&da) != caps(&db) {
        return Err(Failure::Other(format!(
            "{} and {} were recorded with different world capacities (bodies, shapes, contacts, pairs, hulls, events: {:?} and {:?}): their worlds cannot be compared slot by slot",
            path_a.display(),
            path_b.display(),
            caps(&da),
            caps(&db)
        )));
    }
    let mut pa = Player::new(&a).context(path_a.display())?;
    let mut pb = Player::new(&b).context(path_b.display())?;
    let shared = a.steps().min(b.steps());
    let bar = steps_bar(shared, "comparing");
    loop {
        if pa.world.hash() != pb.world.hash() {
            bar.finish_and_clear();
            return Ok(report_parting(&pa.world, &pb.world, pa.at()));
        }
        if pa.at() == shared {
            break;
        }
        pa.advance()
            .context(format!("{} at step {}", path_a.display(), pa.at() + 1))?;
        pb.advance()
            .context(format!("{} at step {}", path_b.display(), pb.at() + 1))?;
        bar.inc(1);
    }
    bar.finish_and_clear();
    if a.steps() != b.steps() {
        println!(
            "the sessions agree on all {shared} steps they share, then part: A has {} steps, B has {}",
            a.steps(),
            b.steps()
        );
        return Ok(1);
    }
    println!(
        "the sessions agree: same hash at each of their {shared} steps ({:016x} at the end)",
        pa.world.hash()
    );
    Ok(0)
}

/// Prints where two worlds part and their differing bodies, worst first.
fn report_parting(a: &World, b: &World, step: u64) -> u8 {
    const SHOWN: usize = 12;
    let mut rows = [BodyDiff::default(); SHOWN];
    let count = World::compare(a, b, &mut rows);
    println!(
        "the sessions part at step {step}: hash A {:016x}, hash B {:016x}",
        a.hash(),
        b.hash()
    );
    if count == 0 {
        // Equal bodies, different hashes: the difference is in shapes, contacts or settings.
        println!("every body agrees; the worlds differ in shapes, contacts or settings");
        return 1;
    }
    println!(
        "{count} {}{}, worst first:",
        if count == 1 {
            "body differs"
        } else {
            "bodies differ"
        },
        if count > SHOWN {
            format!(" (the worst {SHOWN} shown)")
        } else {
            String::new()
        }
    );
    print!("{}", report::diff_rows(a, b, &rows[..count.min(SHOWN)]));
    1
}

fn hashes(path: &Path, out: Option<&Path>) -> Outcome {
    let replay = load(path)?;
    let mut text = String::with_capacity(replay.steps() as usize * 24);
    let mut player = Player::new(&replay).context(path.display())?;
    let bar = steps_bar(replay.steps(), "hashing");
    while player.at() < replay.steps() {
        player
            .advance()
            .context(format!("{} at step {}", path.display(), player.at() + 1))?;
        // Plain "\n" and fixed-width hex: the same bytes on every machine.
        text.push_str(&format!("{} {:016x}\n", player.at(), player.world.hash()));
        bar.inc(1);
    }
    bar.finish_and_clear();
    match out {
        Some(out) => write(out, text.as_bytes())?,
        None => {
            let mut stdout = io::stdout().lock();
            stdout
                .write_all(text.as_bytes())
                .and_then(|_| stdout.flush())
                .map_err(|e| Failure::Io(PathBuf::from("stdout"), e))?;
        }
    }
    Ok(0)
}

fn run_demo(steps: u32, out: Option<&Path>) -> Outcome {
    let bar = steps_bar(steps as u64, "recording");
    let rec = demo::record(steps, 1, &bar).context("recording the demo")?;
    bar.finish_and_clear();
    if let Some(out) = out {
        write(out, &rec.bytes)?;
    }
    let (verdict, replay_time) = timed(|| verify_bytes(&rec.bytes));
    let verdict = verdict.context("verifying the demo")?;
    let per_step = |t: std::time::Duration| t.as_secs_f64() * 1e3 / steps.max(1) as f64;
    println!("m3replay demo: the built-in scene, recorded and replayed");
    println!(
        "bodies         {} at start, {} at the end",
        rec.bodies_at_start, rec.bodies_at_end
    );
    println!("steps          {}", rec.steps);
    println!(
        "tape bytes     {} (snapshot {}, replay file {})",
        rec.tape_len,
        rec.snapshot_len,
        rec.bytes.len()
    );
    println!("final hash     {:016x}", rec.final_hash);
    println!(
        "mean step time {:.3} ms recording; whole replay {:.3} ms per step",
        per_step(rec.step_time),
        per_step(replay_time)
    );
    if let Some(out) = out {
        println!("replay file    {}", out.display());
    }
    print!("verification   ");
    Ok(print_verdict(&verdict))
}
