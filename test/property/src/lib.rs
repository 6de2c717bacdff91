//! The standing property test of Maul3D (issue 12, "The invariant, as a standing test").
//!
//! A *case* is a world config and a list of ops (`ops`), made from a seed (`generate`): seeded
//! random call sequences over every object kind and call of the public Rust API, with
//! ordinary, extreme-but-valid and invalid values, small and large worlds, and the scenes
//! the issue names. The interpreter (`exec`) runs a case and checks, after every call and
//! every step, what the engine promises (see `exec`'s documentation): no NaN or infinity
//! anywhere, every stored quantity within what restore accepts, speeds within
//! `max_linear_speed`, snapshot → restore into a fresh world → the same next-step hash,
//! refusals change nothing, journals replay to the live world. A failing case is cut
//! down to the ops that still fail the same way (`shrink`) and printed as a Rust test
//! (`to_rust`) for `tests/regressions.rs`.
//!
//! `cargo test -p maul3d-property` runs the fixed seeds (`fixed_seeds()`); the binary
//! runs long searches and minimises (see `src/main.rs`).

pub mod exec;
pub mod generate;
pub mod ops;
pub mod shrink;

pub use exec::{Class, Failure, Options, Outcome, Stats, run_case};
pub use ops::*;

/// The seeds `cargo test` runs: every profile (small, medium, large, each scene,
/// extreme) many times over, but for `SLOW_SEEDS`.
pub const FIXED_SEEDS: core::ops::Range<u64> = 0..256;

/// Fixed seeds left out of `cargo test`. Empty: seeds 2, 15, 20, 89 and 176, left out
/// while one of their steps ran for minutes in continuous collision, run in seconds since
/// its work was bounded (issue 12, item 7). A seed goes here only with a reason.
pub const SLOW_SEEDS: &[u64] = &[];

/// `FIXED_SEEDS` but for `SLOW_SEEDS`.
pub fn fixed_seeds() -> Vec<u64> {
    FIXED_SEEDS.filter(|s| !SLOW_SEEDS.contains(s)).collect()
}

/// Random ops per fixed case.
pub const FIXED_OPS: usize = 300;

/// Runs a case and panics listing every promise it breaks, if any (the regression tests'
/// check).
pub fn check(case: &Case) {
    let out = run_case(
        case,
        Options {
            keep_going: true,
            ..Options::default()
        },
    );
    if !out.all.is_empty() {
        panic!("{}", report(case, &out.all));
    }
}

/// The failures of a case, each with the op it broke at.
pub fn report(case: &Case, all: &[Failure]) -> String {
    let mut s = String::new();
    for f in all {
        let op = case
            .ops
            .get(f.op)
            .map(|o| format!("{o:?}"))
            .unwrap_or_else(|| "(the end-of-case checks)".into());
        s.push_str(&format!("{f}\n    during {op}\n"));
    }
    s
}

/// The case as Rust source: a `#[test]` named `name` that checks it.
pub fn to_rust(case: &Case, name: &str, comment: &str) -> String {
    let mut s = String::new();
    for line in comment.lines() {
        s.push_str(&format!("/// {line}\n"));
    }
    s.push_str(&format!("#[test]\nfn {name}() {{\n    check(&Case {{\n"));
    s.push_str(&format!(
        "        config: {:?},\n        ops: vec![\n",
        case.config
    ));
    for op in &case.ops {
        s.push_str(&format!("            {op:?},\n"));
    }
    s.push_str("        ],\n    });\n}\n");
    s
}
