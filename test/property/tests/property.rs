//! The standing property test: the fixed seeds, every promise checked after every call
//! and every step (see `maul3d_property::exec`). Runs in `cargo test --workspace`, with
//! the test profile's debug assertions. A failure lists every seed that broke a promise,
//! by class, with the op and what was seen; minimise one with
//! `cargo run --release -p maul3d-property -- --minimise-seed SEED` and keep it in
//! `tests/regressions.rs`.

use maul3d_property::generate::{case, profile};
use maul3d_property::{FIXED_OPS, Failure, Options, SLOW_SEEDS, fixed_seeds, report, run_case};
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

#[test]
fn random_call_sequences_keep_every_promise() {
    eprintln!(
        "left out while their steps run for minutes (issue 12, class 7): seeds {SLOW_SEEDS:?}"
    );
    let seeds: Arc<Vec<u64>> = Arc::new(fixed_seeds());
    let next = Arc::new(AtomicUsize::new(0));
    type Found = Vec<(u64, Vec<Failure>)>;
    let found: Arc<Mutex<Found>> = Arc::new(Mutex::new(Vec::new()));
    let threads = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1)
        .clamp(1, 4);
    let workers: Vec<_> = (0..threads)
        .map(|_| {
            let (seeds, next, found) = (seeds.clone(), next.clone(), found.clone());
            std::thread::spawn(move || {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(&seed) = seeds.get(i) else {
                        break;
                    };
                    let c = case(seed, FIXED_OPS);
                    let out = run_case(
                        &c,
                        Options {
                            keep_going: true,
                            ..Options::default()
                        },
                    );
                    if !out.all.is_empty() {
                        found.lock().expect("found").push((seed, out.all));
                    }
                }
            })
        })
        .collect();
    for w in workers {
        w.join().expect("a worker thread");
    }
    let mut found = found.lock().expect("found").clone();
    found.sort_by_key(|f| f.0);
    if found.is_empty() {
        return;
    }
    // By class: the seeds, and the details of the first three.
    let mut by_class: BTreeMap<String, Vec<u64>> = BTreeMap::new();
    let mut text = String::new();
    for (seed, all) in &found {
        let c = case(*seed, FIXED_OPS);
        for f in all {
            let seeds = by_class.entry(f.class.name()).or_default();
            seeds.push(*seed);
            if seeds.len() <= 3 {
                text.push_str(&format!(
                    "seed {seed} ({:?}): {}",
                    profile(*seed),
                    report(&c, std::slice::from_ref(f))
                ));
            }
        }
    }
    let mut summary = String::new();
    for (k, v) in &by_class {
        summary.push_str(&format!("  {k}: {} seeds {v:?}\n", v.len()));
    }
    panic!(
        "{} of {} fixed seeds break a promise (minimise one with `cargo run --release -p maul3d-property -- --minimise-seed SEED --class CLASS`):\n{summary}\nthe first three of each class:\n{text}",
        found.len(),
        seeds.len()
    );
}
