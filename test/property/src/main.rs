//! The property test's long mode.
//!
//! ```text
//! cargo run --release -p maul3d-property -- [--seeds A..B | A..] [--ops N] [--minutes M]
//!     [--jobs J] [--keep-going] [--isolate [--limit SECONDS]] [--twin-every K]
//!     [--minimise] [--slow SECONDS] [--verbose] [--calls]
//! cargo run --release -p maul3d-property -- --minimise-seed SEED [--class CLASS] [--ops N]
//! cargo run --release -p maul3d-property -- --minimise-slow SEED [--limit SECONDS]
//! cargo run --release -p maul3d-property -- --print SEED [--ops N] [--trace]
//! ```
//!
//! Runs the seeds (or, with `--minutes`, seeds from A on until the time is up), prints
//! each failing seed with its class, op and details, then a summary by class. With
//! `--keep-going` a case goes on after a broken promise and reports every class it
//! breaks; `--isolate` runs each case in a child process killed after `--limit` seconds
//! (reported as `Timeout`: a call that runs that long). With `--minimise`, the first
//! seed of each class is cut down and printed as a Rust test for `tests/regressions.rs`;
//! `--minimise-seed` does that for one seed (and `--class`, a class name prefix);
//! `--minimise-slow` cuts a seed down to the ops that still make one call run past
//! `--limit`. Steps slower than `--slow` seconds (default 1) are listed (wall clock:
//! reported, never a failure). `--calls` prints, per public call, how often the cases'
//! calls were accepted and refused.

use maul3d_property::generate::{case, profile};
use maul3d_property::shrink::minimise;
use maul3d_property::{Class, Options, run_case, to_rust};
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

struct Args {
    seeds: (u64, u64),
    ops: usize,
    minutes: Option<f64>,
    jobs: usize,
    twin_every: u64,
    minimise: bool,
    minimise_seed: Option<u64>,
    print: Option<u64>,
    slow: f64,
    keep_going: bool,
    verbose: bool,
    trace: bool,
    keep: Option<Vec<usize>>,
    minimise_slow: Option<u64>,
    limit: f64,
    isolate: bool,
    child: bool,
    class: Option<String>,
    calls: bool,
}

fn parse() -> Args {
    let mut a = Args {
        seeds: (0, 64),
        ops: maul3d_property::FIXED_OPS,
        minutes: None,
        jobs: 1,
        twin_every: 1,
        minimise: false,
        minimise_seed: None,
        print: None,
        slow: 1.0,
        keep_going: false,
        verbose: false,
        trace: false,
        keep: None,
        minimise_slow: None,
        limit: 10.0,
        isolate: false,
        child: false,
        class: None,
        calls: false,
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let mut val = || it.next().unwrap_or_else(|| panic!("{flag} needs a value"));
        match flag.as_str() {
            "--seeds" => {
                let v = val();
                let (lo, hi) = v.split_once("..").expect("--seeds A..B");
                let hi = if hi.is_empty() {
                    u64::MAX
                } else {
                    hi.parse().expect("seed")
                };
                a.seeds = (lo.parse().expect("seed"), hi);
            }
            "--ops" => a.ops = val().parse().expect("--ops N"),
            "--minutes" => a.minutes = Some(val().parse().expect("--minutes M")),
            "--jobs" => a.jobs = val().parse().expect("--jobs J"),
            "--twin-every" => a.twin_every = val().parse().expect("--twin-every K"),
            "--slow" => a.slow = val().parse().expect("--slow SECONDS"),
            "--minimise" => a.minimise = true,
            "--keep-going" => a.keep_going = true,
            "--verbose" => a.verbose = true,
            "--calls" => a.calls = true,
            "--trace" => a.trace = true,
            "--keep" => a.keep = Some(parse_keep(&val())),
            "--minimise-slow" => a.minimise_slow = Some(val().parse().expect("seed")),
            "--limit" => a.limit = val().parse().expect("--limit SECONDS"),
            "--isolate" => a.isolate = true,
            "--child" => a.child = true,
            "--class" => a.class = Some(val()),
            "--minimise-seed" => a.minimise_seed = Some(val().parse().expect("seed")),
            "--print" => a.print = Some(val().parse().expect("seed")),
            "--help" | "-h" => {
                println!(
                    "maul3d-property [--seeds A..B] [--ops N] [--minutes M] [--jobs J] [--twin-every K] [--minimise] [--slow S]\n\
                     maul3d-property --minimise-seed SEED [--ops N]\n\
                     maul3d-property --print SEED [--ops N]"
                );
                std::process::exit(0);
            }
            other => panic!("unknown flag {other} (see --help)"),
        }
    }
    a
}

/// What the summary keeps of a case.
struct Row {
    steps: u64,
    calls: u64,
    slowest: f64,
    slowest_op: usize,
    bodies: u32,
    calls_by_name: BTreeMap<String, (u64, u64)>,
}

/// Runs `seed` in a child process killed after `limit` seconds: its failures (class
/// name, text), a `Timeout` one when killed, and its stats.
fn run_in_child(seed: u64, ops: usize, limit: f64) -> (Vec<(String, String)>, Row) {
    use std::io::Read;
    let exe = std::env::current_exe().expect("own path");
    let mut child = std::process::Command::new(exe)
        .args([
            "--seeds",
            &format!("{seed}..{}", seed + 1),
            "--ops",
            &ops.to_string(),
            "--keep",
            "0-999999",
            "--keep-going",
            "--child",
            "--trace",
        ])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("spawn a child run");
    let (mut out, mut err) = (
        child.stdout.take().expect("piped"),
        child.stderr.take().expect("piped"),
    );
    let out_reader = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = out.read_to_string(&mut s);
        s
    });
    let err_reader = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = err.read_to_string(&mut s);
        s
    });
    #[allow(clippy::disallowed_methods)]
    let t0 = Instant::now();
    let mut killed = false;
    loop {
        if child.try_wait().expect("wait").is_some() {
            break;
        }
        #[allow(clippy::disallowed_methods)]
        if t0.elapsed().as_secs_f64() > limit {
            let _ = child.kill();
            let _ = child.wait();
            killed = true;
            break;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let text = out_reader.join().unwrap_or_default();
    let trace = err_reader.join().unwrap_or_default();
    let mut all = Vec::new();
    let mut row = Row {
        steps: 0,
        calls: 0,
        slowest: 0.0,
        slowest_op: 0,
        bodies: 0,
        calls_by_name: BTreeMap::new(),
    };
    for line in text.lines() {
        let parts: Vec<&str> = line.split('\t').collect();
        match parts.first() {
            Some(&"CLASS") if parts.len() >= 3 => {
                all.push((parts[1].to_string(), parts[2..].join("\t")))
            }
            Some(&"STATS") if parts.len() >= 6 => {
                row = Row {
                    steps: parts[1].parse().unwrap_or(0),
                    calls: parts[2].parse().unwrap_or(0),
                    slowest: parts[3].parse().unwrap_or(0.0),
                    slowest_op: parts[4].parse().unwrap_or(0),
                    bodies: parts[5].parse().unwrap_or(0),
                    calls_by_name: BTreeMap::new(),
                }
            }
            _ => {}
        }
    }
    if killed {
        let (at, op) = trace
            .lines()
            .rev()
            .find_map(|l| {
                let rest = l.strip_prefix("op ")?;
                let (n, op) = rest.split_once(": ")?;
                Some((n.parse::<usize>().ok()?, op.to_string()))
            })
            .unwrap_or((0, String::new()));
        let mut op = op;
        op.truncate(160);
        all.push((
            "Timeout".to_string(),
            format!("op {at}: Timeout: still running after {limit} s, in {op}"),
        ));
        row.slowest = limit;
        row.slowest_op = at;
    }
    (all, row)
}

/// "0-5,7" → [0, 1, 2, 3, 4, 5, 7].
fn parse_keep(s: &str) -> Vec<usize> {
    let mut out = Vec::new();
    for part in s.split(',').filter(|p| !p.is_empty()) {
        match part.split_once('-') {
            Some((a, b)) => {
                out.extend(a.parse::<usize>().expect("index")..=b.parse().expect("index"))
            }
            None => out.push(part.parse().expect("index")),
        }
    }
    out
}

fn format_keep(keep: &[usize]) -> String {
    let mut parts = Vec::new();
    let mut i = 0;
    while i < keep.len() {
        let mut j = i;
        while j + 1 < keep.len() && keep[j + 1] == keep[j] + 1 {
            j += 1;
        }
        parts.push(if i == j {
            format!("{}", keep[i])
        } else {
            format!("{}-{}", keep[i], keep[j])
        });
        i = j + 1;
    }
    parts.join(",")
}

/// Runs ops `keep` of `seed`'s case in a child process; `Some(last op started)` when it
/// is still running after `limit` seconds (then killed), `None` when it finished.
fn slow_in_child(seed: u64, ops: usize, keep: &[usize], limit: f64) -> Option<usize> {
    use std::io::Read;
    let exe = std::env::current_exe().expect("own path");
    let mut child = std::process::Command::new(exe)
        .args([
            "--seeds",
            &format!("{seed}..{}", seed + 1),
            "--ops",
            &ops.to_string(),
            "--keep",
            &format_keep(keep),
            "--trace",
            "--keep-going",
        ])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("spawn a child run");
    let mut stderr = child.stderr.take().expect("piped");
    let reader = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = stderr.read_to_string(&mut s);
        s
    });
    #[allow(clippy::disallowed_methods)]
    let t0 = Instant::now();
    loop {
        if child.try_wait().expect("wait").is_some() {
            let _ = reader.join();
            return None;
        }
        #[allow(clippy::disallowed_methods)]
        if t0.elapsed().as_secs_f64() > limit {
            let _ = child.kill();
            let _ = child.wait();
            let text = reader.join().unwrap_or_default();
            let last = text
                .lines()
                .rev()
                .find_map(|l| l.strip_prefix("op ")?.split(':').next()?.parse().ok())
                .unwrap_or(keep.len().saturating_sub(1));
            return Some(last);
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Cuts `seed`'s case down to the ops that still make one call run past `limit` seconds
/// (delta debugging in child processes, each killed at the limit) and prints it.
fn minimise_slow(seed: u64, ops: usize, limit: f64) {
    let full = case(seed, ops);
    let mut keep: Vec<usize> = (0..full.ops.len()).collect();
    let Some(at) = slow_in_child(seed, ops, &keep, limit) else {
        println!("seed {seed}: no call runs past {limit} s");
        return;
    };
    keep.truncate(at + 1);
    eprintln!("seed {seed}: op {at} runs past {limit} s; minimising...");
    let mut n = 2usize;
    while keep.len() >= 2 {
        let len = keep.len();
        let chunk = len.div_ceil(n);
        let mut reduced = false;
        let mut start = 0;
        while start < len {
            let end = (start + chunk).min(len);
            let mut trial = keep.clone();
            trial.drain(start..end);
            if let Some(at) = slow_in_child(seed, ops, &trial, limit) {
                trial.truncate(at + 1);
                eprintln!("  {} ops", trial.len());
                keep = trial;
                reduced = true;
                break;
            }
            start = end;
        }
        if reduced {
            n = (n - 1).max(2);
        } else if n >= len {
            break;
        } else {
            n = (2 * n).min(len);
        }
    }
    let small = maul3d_property::Case {
        config: full.config.clone(),
        ops: keep.iter().map(|&i| full.ops[i].clone()).collect(),
    };
    println!(
        "// seed {seed}, ops {}: the last op runs past {limit} s\n{}",
        format_keep(&keep),
        to_rust(&small, &format!("seed_{seed}_slow_step"), "")
    );
}

/// Minimises `seed`'s failure of `class` (or its first) and prints it as a Rust test.
fn minimise_and_print(seed: u64, ops: usize, options: Options, class: Option<&Class>) {
    let options = Options {
        keep_going: true,
        ..options
    };
    let c = case(seed, ops);
    let out = run_case(&c, options);
    let f = match class {
        Some(k) => out.all.iter().find(|f| &f.class == k).cloned(),
        None => out.failure.clone(),
    };
    let Some(f) = f else {
        println!("seed {seed}: passes");
        return;
    };
    eprintln!("seed {seed}: {f}\n  minimising {} ops...", c.ops.len());
    let small = minimise(&c, options, &f.class, 4000);
    let again = run_case(&small, options).all;
    let detail: Vec<String> = again.iter().map(|f| f.to_string()).collect();
    let detail = detail.join("\n");
    let name = format!("seed_{seed}_{}", class_slug(&f.class));
    println!(
        "{}",
        to_rust(
            &small,
            &name,
            &format!(
                "Seed {seed} ({:?}, {ops} ops), minimised to {} ops.\n{detail}",
                profile(seed),
                small.ops.len()
            )
        )
    );
}

fn class_slug(c: &Class) -> String {
    let s = match c {
        Class::Panic(_) => "panics".to_string(),
        other => format!("{other:?}"),
    };
    let mut out = String::new();
    for (i, ch) in s.chars().enumerate() {
        if ch.is_ascii_uppercase() && i > 0 {
            out.push('_');
        }
        out.push(ch.to_ascii_lowercase());
    }
    out
}

fn main() {
    let a = parse();
    let options = Options {
        twin_every: a.twin_every,
        keep_going: a.keep_going,
        trace: a.trace,
    };
    if let Some(seed) = a.print {
        println!(
            "{}",
            to_rust(&case(seed, a.ops), &format!("seed_{seed}"), "")
        );
        return;
    }
    if let Some(seed) = a.minimise_slow {
        minimise_slow(seed, a.ops, a.limit);
        return;
    }
    if let Some(keep) = &a.keep {
        let full = case(a.seeds.0, a.ops);
        let c = maul3d_property::Case {
            config: full.config.clone(),
            ops: keep
                .iter()
                .filter_map(|&i| full.ops.get(i).cloned())
                .collect(),
        };
        let out = run_case(&c, options);
        for f in &out.all {
            if a.child {
                println!("CLASS\t{}\t{f}", f.class.name());
            } else {
                println!("{f}");
            }
        }
        if a.child {
            let st = &out.stats;
            println!(
                "STATS\t{}\t{}\t{}\t{}\t{}",
                st.steps,
                st.accepted + st.refused,
                st.slowest_step,
                st.slowest_op,
                st.max_bodies
            );
        }
        return;
    }
    if let Some(seed) = a.minimise_seed {
        let class = a.class.as_ref().and_then(|k| {
            let out = run_case(
                &case(seed, a.ops),
                Options {
                    keep_going: true,
                    ..options
                },
            );
            out.all
                .iter()
                .find(|f| f.class.name().starts_with(k.as_str()))
                .map(|f| f.class.clone())
        });
        minimise_and_print(seed, a.ops, options, class.as_ref());
        return;
    }
    let next = Arc::new(AtomicU64::new(a.seeds.0));
    let stop = Arc::new(AtomicBool::new(false));
    type Result = (u64, Vec<(String, String)>, Row);
    let results: Arc<Mutex<Vec<Result>>> = Arc::new(Mutex::new(Vec::new()));
    // The clock bounds the run and reports slow steps; it never enters a world.
    #[allow(clippy::disallowed_methods)]
    let t0 = Instant::now();
    let deadline = a.minutes.map(|m| t0 + Duration::from_secs_f64(m * 60.0));
    let end = if a.minutes.is_some() {
        u64::MAX
    } else {
        a.seeds.1
    };
    let mut handles = Vec::new();
    for _ in 0..a.jobs.max(1) {
        let (next, stop, results) = (next.clone(), stop.clone(), results.clone());
        let (ops, slow, verbose, isolate, limit) = (a.ops, a.slow, a.verbose, a.isolate, a.limit);
        handles.push(std::thread::spawn(move || {
            loop {
                if stop.load(Ordering::Relaxed) {
                    break;
                }
                #[allow(clippy::disallowed_methods)]
                if deadline.is_some_and(|d| Instant::now() >= d) {
                    break;
                }
                let seed = next.fetch_add(1, Ordering::Relaxed);
                if seed >= end {
                    break;
                }
                #[allow(clippy::disallowed_methods)]
                let t = Instant::now();
                let (all, st) = if isolate {
                    run_in_child(seed, ops, limit)
                } else {
                    let out = run_case(&case(seed, ops), options);
                    let all = out
                        .all
                        .iter()
                        .map(|f| (f.class.name(), f.to_string()))
                        .collect();
                    let st = Row {
                        steps: out.stats.steps,
                        calls: out.stats.accepted + out.stats.refused,
                        slowest: out.stats.slowest_step,
                        slowest_op: out.stats.slowest_op,
                        bodies: out.stats.max_bodies,
                        calls_by_name: out.stats.calls.clone(),
                    };
                    (all, st)
                };
                if verbose {
                    #[allow(clippy::disallowed_methods)]
                    let took = t.elapsed().as_secs_f64();
                    println!(
                        "seed {seed} ({:?}): {took:.2} s, {} steps, {} bodies at most, {} failures",
                        profile(seed),
                        st.steps,
                        st.bodies,
                        all.len()
                    );
                }
                for (_, f) in &all {
                    println!("FAIL seed {seed} ({:?}): {f}", profile(seed));
                }
                if st.slowest > slow {
                    println!(
                        "SLOW seed {seed} ({:?}): a step took {:.2} s (op {})",
                        profile(seed),
                        st.slowest,
                        st.slowest_op
                    );
                }
                results.lock().expect("results").push((seed, all, st));
            }
        }));
    }
    for h in handles {
        h.join().expect("worker");
    }
    let results = results.lock().expect("results");
    let mut by_class: BTreeMap<String, Vec<u64>> = BTreeMap::new();
    let (mut steps, mut calls) = (0u64, 0u64);
    let mut failing = 0;
    for (seed, all, st) in results.iter() {
        steps += st.steps;
        calls += st.calls;
        failing += !all.is_empty() as usize;
        for (k, _) in all {
            by_class.entry(k.clone()).or_default().push(*seed);
        }
    }
    #[allow(clippy::disallowed_methods)]
    let took = t0.elapsed().as_secs_f64();
    println!(
        "\n{} cases, {} failing, {steps} steps, {calls} calls, {took:.1} s",
        results.len(),
        failing
    );
    if a.calls {
        let mut total: BTreeMap<&str, (u64, u64)> = BTreeMap::new();
        for (_, _, st) in results.iter() {
            for (k, (ok, no)) in &st.calls_by_name {
                let e = total.entry(k.as_str()).or_default();
                e.0 += ok;
                e.1 += no;
            }
        }
        for (k, (ok, no)) in &total {
            println!("  {k}: {ok} accepted, {no} refused");
        }
    }
    for (k, seeds) in &by_class {
        let mut s = seeds.clone();
        s.sort_unstable();
        println!("  {k}: {} seeds: {:?}", s.len(), &s[..s.len().min(20)]);
    }
    if a.minimise {
        for seeds in by_class.values() {
            let seed = *seeds.iter().min().expect("a seed");
            let c = case(seed, a.ops);
            let out = run_case(
                &c,
                Options {
                    keep_going: true,
                    ..options
                },
            );
            let name = by_class
                .iter()
                .find(|(_, v)| *v == seeds)
                .map(|(k, _)| k.clone());
            if let Some(f) = out.all.iter().find(|f| Some(f.class.name()) == name) {
                minimise_and_print(seed, a.ops, options, Some(&f.class));
            }
        }
    }
    if !by_class.is_empty() {
        std::process::exit(1);
    }
}
