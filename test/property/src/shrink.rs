//! Minimising a failing case: delta debugging (Zeller's ddmin) over its op list, keeping
//! every cut that still fails with the same class, then single ops, until no op can go.

use crate::exec::{Class, Options, run_case};
use crate::ops::Case;

/// Whether `case` fails with `class`, and the op it fails at.
fn fails(case: &Case, options: Options, class: &Class) -> Option<usize> {
    run_case(case, options)
        .all
        .iter()
        .find(|f| &f.class == class)
        .map(|f| f.op)
}

/// The smallest case found (within `max_runs` runs) that still fails with `class`.
pub fn minimise(case: &Case, options: Options, class: &Class, max_runs: usize) -> Case {
    let mut runs = 0usize;
    let mut best = case.clone();
    let Some(at) = fails(&best, options, class) else {
        return best;
    };
    best.ops.truncate(at + 1);
    let mut n = 2usize;
    while best.ops.len() >= 2 && runs < max_runs {
        let len = best.ops.len();
        let chunk = len.div_ceil(n);
        let mut reduced = false;
        let mut start = 0;
        while start < len && runs < max_runs {
            let end = (start + chunk).min(len);
            let mut trial = best.clone();
            trial.ops.drain(start..end);
            runs += 1;
            if let Some(at) = fails(&trial, options, class) {
                trial.ops.truncate(at + 1);
                best = trial;
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
    best
}
