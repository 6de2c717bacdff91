//! `m3replay`: record, inspect, verify, scrub and compare Maul3D replay files.
//!
//! A replay file is `maul3d::encode_replay`'s container: the starting snapshot, the
//! journal tape of every call that changed the world, and the recorder's final hash. Every
//! command that walks a file does it with the core's `maul3d::ReplayPlayer`, the same
//! player the C ABI and the Godot class use.
//!
//! ```sh
//! m3replay demo                          # record the built-in demo, verify it, summarise
//! m3replay record --out s.m3replay       # write the demo session (--steps N, --seed S)
//! m3replay info s.m3replay               # sizes, bodies at start, records, steps, hash
//! m3replay verify s.m3replay             # replay it here and compare the final hash
//! m3replay seek s.m3replay 95            # a summary line and every body at step 95
//! m3replay play s.m3replay --from 10 --to 20        # a summary line per step
//! m3replay play s.m3replay --body 7 --format csv    # one body, every step, for tools
//! m3replay diff a.m3replay b.m3replay    # first step where two sessions part
//! m3replay hashes s.m3replay --out h.txt # "STEP HASH" per step from 0, same bytes everywhere
//! ```
//!
//! Exit codes: see [`EXIT_CODES`].
//!
//! The committed `test/demo.m3replay` is checked by this crate's tests; when a change to
//! the engine moves results, regenerate it from the repository root with
//! `cargo run --release -p m3replay -- record --out test/demo.m3replay --force`.

mod clock;
mod demo;
mod progress;
mod report;

use std::fmt;
use std::fs;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use maul3d::{BodyDiff, CONTAINER_HEADER_SIZE, Parting, ReplayPlayer, Verdict, World};

use crate::clock::timed;
use crate::progress::steps_bar;
use crate::report::Format;

/// The exit codes, as `--help` and the README give them.
const EXIT_CODES: &str = "\
Exit codes:
  0   success (verified; the sessions agree)
  1   a hash mismatch (verify) or sessions that part (diff)
  2   a damaged replay file
  3   a replay file of another format version
  4   any other error (a file that cannot be read or written, sessions of different
      capacities, ...)
  64  a usage error: an unknown command or flag, a missing or malformed argument, a step
      or body slot out of range, `record` over an existing file without --force";

/// Exit code of a usage error (BSD's EX_USAGE); clap's own 2 would read as a damaged file.
const EXIT_USAGE: u8 = 64;

#[derive(Parser)]
#[command(
    name = "m3replay",
    version,
    about = "Record, inspect, verify, scrub and compare Maul3D replay files",
    after_help = EXIT_CODES
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
        /// Overwrite the output file if it exists.
        #[arg(long)]
        force: bool,
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
    /// Print the world at one step: a summary line and a table of its bodies.
    Seek {
        /// The replay file.
        file: PathBuf,
        /// The step (0 is the starting snapshot).
        step: u64,
        /// Show only the body in this slot.
        #[arg(long, value_name = "SLOT")]
        body: Option<u32>,
        /// text for people; csv (with a header row) or json for tools.
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
        /// Replay the tape cut at the step from the start instead of playing it.
        #[arg(long)]
        direct: bool,
    },
    /// Print each step of a range: a summary line per step, or one body's row per step.
    Play {
        /// The replay file.
        file: PathBuf,
        /// First step printed.
        #[arg(long, default_value_t = 0)]
        from: u64,
        /// Last step printed (default: the last step).
        #[arg(long)]
        to: Option<u64>,
        /// Follow the body in this slot: its row at each step.
        #[arg(long, value_name = "SLOT")]
        body: Option<u32>,
        /// text for people; csv (every body, or --body's, per step) or json for tools.
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
    },
    /// Find the first step where two sessions part, and the bodies that differ there.
    Diff {
        /// The first replay file (A).
        a: PathBuf,
        /// The second replay file (B).
        b: PathBuf,
    },
    /// Print one line per step from step 0: the step and the world's hash (16 hex digits).
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
        /// Overwrite --out if it exists.
        #[arg(long)]
        force: bool,
    },
}

/// Why a command failed; its exit code follows from the kind.
enum Failure {
    /// The engine refused something while working on `context` (a file, a step).
    Engine(String, maul3d::Error),
    /// Reading or writing a file failed.
    Io(PathBuf, io::Error),
    /// The command line asks for something the file cannot give (a step past the end).
    Usage(String),
}

impl Failure {
    fn exit_code(&self) -> u8 {
        match self {
            Failure::Engine(_, maul3d::Error::Format(_)) => 2,
            Failure::Engine(_, maul3d::Error::Version { .. }) => 3,
            Failure::Usage(_) => EXIT_USAGE,
            _ => 4,
        }
    }
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Failure::Engine(context, e) => write!(f, "{context}: {e}"),
            Failure::Io(path, e) => write!(f, "{}: {e}", path.display()),
            Failure::Usage(why) => f.write_str(why),
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
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            // --help and --version print to stdout and succeed; every other parse error
            // is a usage error.
            let _ = e.print();
            return ExitCode::from(if e.use_stderr() { EXIT_USAGE } else { 0 });
        }
    };
    let result = match cli.command {
        Command::Record {
            out,
            steps,
            seed,
            force,
        } => record(&out, steps, seed, force),
        Command::Info { file } => info(&file),
        Command::Verify { file } => verify(&file),
        Command::Seek {
            file,
            step,
            body,
            format,
            direct,
        } => seek(&file, step, body, format, direct),
        Command::Play {
            file,
            from,
            to,
            body,
            format,
        } => play(&file, from, to, body, format),
        Command::Diff { a, b } => diff(&a, &b),
        Command::Hashes { file, out } => hashes(&file, out.as_deref()),
        Command::Demo { steps, out, force } => run_demo(steps, out.as_deref(), force),
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

/// Writes a new file; an existing one only with `force`.
fn write_new(path: &Path, bytes: &[u8], force: bool) -> Result<(), Failure> {
    if !force && path.exists() {
        return Err(Failure::Usage(format!(
            "{} already exists; pass --force to overwrite it",
            path.display()
        )));
    }
    fs::write(path, bytes).map_err(|e| Failure::Io(path.to_path_buf(), e))
}

/// A player on a file, at step 0 (opening replays nothing).
fn open(path: &Path) -> Result<ReplayPlayer, Failure> {
    ReplayPlayer::open(&read(path)?).context(path.display())
}

fn check_step(p: &ReplayPlayer, path: &Path, step: u64, what: &str) -> Result<(), Failure> {
    if step > p.step_count() {
        return Err(Failure::Usage(format!(
            "{}: {what} step {step} is past the last step {}",
            path.display(),
            p.step_count()
        )));
    }
    Ok(())
}

fn check_slot(p: &ReplayPlayer, path: &Path, slot: Option<u32>) -> Result<(), Failure> {
    let Some(slot) = slot else { return Ok(()) };
    let capacity = p.def().context(path.display())?.body_capacity;
    if slot >= capacity {
        return Err(Failure::Usage(format!(
            "{}: --body {slot} is not a body slot: the world holds slots 0 to {}",
            path.display(),
            capacity - 1
        )));
    }
    Ok(())
}

/// Seeks with a progress bar: in stretches, so a far seek shows how far it got.
fn seek_to(p: &mut ReplayPlayer, path: &Path, step: u64) -> Result<(), Failure> {
    const STRETCH: u64 = 256;
    let at = |s: u64| format!("{} at step {s}", path.display());
    if step <= p.current_step() || step - p.current_step() <= STRETCH {
        return p.seek(step).context(at(step));
    }
    let bar = steps_bar(step, "seeking");
    while p.current_step() < step {
        let next = (p.current_step() + STRETCH).min(step);
        p.seek(next).context(at(next))?;
        bar.set_position(next);
    }
    bar.finish_and_clear();
    Ok(())
}

fn stdout_failure(e: io::Error) -> Failure {
    Failure::Io(PathBuf::from("stdout"), e)
}

fn record(out: &Path, steps: u32, seed: u64, force: bool) -> Outcome {
    if !force && out.exists() {
        // Refuse before recording, not after.
        return Err(Failure::Usage(format!(
            "{} already exists; pass --force to overwrite it",
            out.display()
        )));
    }
    let bar = steps_bar(steps as u64, "recording");
    let rec = demo::record(steps, seed, &bar).context("recording the demo")?;
    bar.finish_and_clear();
    write_new(out, &rec.bytes, force)?;
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
    let p = open(path)?;
    let def = p.def().context(path.display())?;
    println!("file         {} ({} bytes)", path.display(), p.file_len());
    println!(
        "format       container header {CONTAINER_HEADER_SIZE} bytes, tape {}.{}",
        maul3d::TAPE_MAJOR,
        maul3d::TAPE_MINOR
    );
    println!("snapshot     {} bytes", p.start_snapshot().len());
    println!("tape         {} bytes", p.tape().len());
    println!(
        "bodies       {} at start (capacity {}; shapes {}, hulls {})",
        p.world().body_count(),
        def.body_capacity,
        def.shape_capacity,
        def.hull_capacity
    );
    println!("records      {}", p.record_count());
    println!("steps        {}", p.step_count());
    println!("keyframes    every {} steps", p.keyframe_every());
    println!("final hash   {:016x}", p.recorded_final_hash());
    Ok(0)
}

fn print_verdict(v: &Verdict, steps: u64, records: u64) -> u8 {
    if v.matches() {
        println!(
            "verified: final hash {:016x} matches ({steps} steps, {records} records)",
            v.replayed
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
    let mut p = open(path)?;
    let bar = steps_bar(p.step_count(), "verifying");
    let verdict = p
        .verify_with(|s| bar.set_position(s))
        .context(path.display())?;
    bar.finish_and_clear();
    Ok(print_verdict(&verdict, p.step_count(), p.record_count()))
}

/// Prints one step in a format; `text` shows the summary line and the body table.
fn print_step(
    out: &mut impl Write,
    world: &World,
    step: u64,
    body: Option<u32>,
    format: Format,
) -> io::Result<()> {
    let shown = report::shown(world, body);
    match format {
        Format::Text => {
            writeln!(out, "{}", report::summary_line(world, step))?;
            if let (Some(slot), true) = (body, shown.is_empty()) {
                return writeln!(out, "slot {slot} holds no body at step {step}");
            }
            writeln!(out, "{}", report::table_header())?;
            for b in &shown {
                writeln!(out, "{}", report::table_row(b))?;
            }
            Ok(())
        }
        Format::Csv => {
            for b in &shown {
                writeln!(out, "{}", report::csv_row(step, world.hash(), b))?;
            }
            Ok(())
        }
        Format::Json => write!(out, "{}", report::json_step(world, step, &shown)),
    }
}

fn seek(path: &Path, step: u64, body: Option<u32>, format: Format, direct: bool) -> Outcome {
    let mut p = open(path)?;
    check_step(&p, path, step, "seek")?;
    check_slot(&p, path, body)?;
    let at = format!("{} at step {step}", path.display());
    let direct_world;
    let world = if direct {
        // From the start, the tape cut just past the step: a whole tape of its own. A
        // cross-check of the player, which the tests compare with it.
        let mut w = World::new(&p.def().context(&at)?).context(&at)?;
        w.restore(p.start_snapshot()).context(&at)?;
        w.replay_journal(p.tape_prefix(step).context(&at)?)
            .context(&at)?;
        direct_world = w;
        &direct_world
    } else {
        seek_to(&mut p, path, step)?;
        p.world()
    };
    let mut out = BufWriter::new(io::stdout().lock());
    if format == Format::Csv {
        writeln!(out, "{}", report::CSV_HEADER).map_err(stdout_failure)?;
    }
    print_step(&mut out, world, step, body, format).map_err(stdout_failure)?;
    if format == Format::Json {
        writeln!(out).map_err(stdout_failure)?;
    }
    out.flush().map_err(stdout_failure)?;
    Ok(0)
}

fn play(path: &Path, from: u64, to: Option<u64>, body: Option<u32>, format: Format) -> Outcome {
    let mut p = open(path)?;
    let to = to.unwrap_or(p.step_count());
    check_step(&p, path, from, "--from")?;
    check_step(&p, path, to, "--to")?;
    check_slot(&p, path, body)?;
    if from > to {
        return Err(Failure::Usage(format!("--from {from} is after --to {to}")));
    }
    seek_to(&mut p, path, from)?;
    let mut out = BufWriter::new(io::stdout().lock());
    let text_follow = format == Format::Text && body.is_some();
    match format {
        Format::Csv => writeln!(out, "{}", report::CSV_HEADER),
        Format::Json => write!(out, "["),
        Format::Text if text_follow => writeln!(out, "{:>6}  {}", "step", report::table_header()),
        Format::Text => Ok(()),
    }
    .map_err(stdout_failure)?;
    loop {
        let (world, step) = (p.world(), p.current_step());
        match format {
            Format::Text if text_follow => {
                let slot = body.unwrap_or_default();
                match report::body(world, slot) {
                    Some(b) => writeln!(out, "{step:>6}  {}", report::table_row(&b)),
                    None => writeln!(out, "{step:>6}  slot {slot} holds no body"),
                }
            }
            Format::Text => writeln!(out, "{}", report::summary_line(world, step)),
            Format::Csv => print_step(&mut out, world, step, body, format),
            Format::Json => {
                let sep = if step == from { "\n" } else { ",\n" };
                write!(out, "{sep}").and_then(|()| print_step(&mut out, world, step, body, format))
            }
        }
        .map_err(stdout_failure)?;
        if step == to {
            break;
        }
        p.step_forward()
            .context(format!("{} at step {}", path.display(), step + 1))?;
    }
    if format == Format::Json {
        writeln!(out, "\n]").map_err(stdout_failure)?;
    }
    out.flush().map_err(stdout_failure)?;
    Ok(0)
}

fn diff(path_a: &Path, path_b: &Path) -> Outcome {
    const SHOWN: usize = 12;
    let (mut a, mut b) = (open(path_a)?, open(path_b)?);
    let parting = ReplayPlayer::diff(&mut a, &mut b, SHOWN).context(format!(
        "comparing {} with {}",
        path_a.display(),
        path_b.display()
    ))?;
    match parting {
        Parting::Agree { steps, hash } => {
            println!(
                "the sessions agree: same hash at each of their {steps} steps ({hash:016x} at the end)"
            );
            Ok(0)
        }
        Parting::Length { steps_a, steps_b } => {
            println!(
                "the sessions agree on all {} steps they share, then part: A has {steps_a} steps, B has {steps_b}",
                steps_a.min(steps_b)
            );
            Ok(1)
        }
        Parting::At {
            step,
            hash_a,
            hash_b,
            differing,
            rows,
        } => {
            report_parting(&a, &b, step, hash_a, hash_b, differing, &rows);
            Ok(1)
        }
    }
}

/// Prints where two sessions part and their differing bodies, worst first.
fn report_parting(
    a: &ReplayPlayer,
    b: &ReplayPlayer,
    step: u64,
    hash_a: u64,
    hash_b: u64,
    count: usize,
    rows: &[BodyDiff],
) {
    println!("the sessions part at step {step}: hash A {hash_a:016x}, hash B {hash_b:016x}");
    if count == 0 {
        // Equal bodies, different hashes: the difference is in shapes, contacts or settings.
        println!("every body agrees; the worlds differ in shapes, contacts or settings");
        return;
    }
    println!(
        "{count} {}{}, worst first:",
        if count == 1 {
            "body differs"
        } else {
            "bodies differ"
        },
        if count > rows.len() {
            format!(" (the worst {} shown)", rows.len())
        } else {
            String::new()
        }
    );
    print!("{}", report::diff_rows(a.world(), b.world(), rows));
}

fn hashes(path: &Path, out: Option<&Path>) -> Outcome {
    let mut p = open(path)?;
    let mut text = String::with_capacity((p.step_count() as usize + 1) * 24);
    let bar = steps_bar(p.step_count(), "hashing");
    loop {
        // Plain "\n" and fixed-width hex: the same bytes on every machine.
        text.push_str(&format!(
            "{} {:016x}\n",
            p.current_step(),
            p.hash_at_current()
        ));
        bar.set_position(p.current_step());
        let at = format!("{} at step {}", path.display(), p.current_step() + 1);
        if !p.step_forward().context(at)? {
            break;
        }
    }
    bar.finish_and_clear();
    match out {
        Some(out) => fs::write(out, text.as_bytes()).map_err(|e| Failure::Io(out.into(), e))?,
        None => {
            let mut stdout = io::stdout().lock();
            stdout
                .write_all(text.as_bytes())
                .and_then(|_| stdout.flush())
                .map_err(stdout_failure)?;
        }
    }
    Ok(0)
}

fn run_demo(steps: u32, out: Option<&Path>, force: bool) -> Outcome {
    if let Some(out) = out.filter(|o| !force && o.exists()) {
        return Err(Failure::Usage(format!(
            "{} already exists; pass --force to overwrite it",
            out.display()
        )));
    }
    let bar = steps_bar(steps as u64, "recording");
    let rec = demo::record(steps, 1, &bar).context("recording the demo")?;
    bar.finish_and_clear();
    if let Some(out) = out {
        write_new(out, &rec.bytes, force)?;
    }
    let (verdict, replay_time) = timed(|| {
        let mut p = ReplayPlayer::open(&rec.bytes)?;
        Ok::<_, maul3d::Error>((p.verify()?, p.record_count()))
    });
    let (verdict, records) = verdict.context("verifying the demo")?;
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
    Ok(print_verdict(&verdict, rec.steps as u64, records))
}
