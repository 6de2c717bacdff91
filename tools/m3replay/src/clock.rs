//! The tool's one clock: wall time for the user's summary, never fed to a world.

use std::time::{Duration, Instant};

/// Runs `f` and returns its result with the wall time it took.
#[allow(clippy::disallowed_methods)] // reports time to the user; no world ever reads it
pub fn timed<T>(f: impl FnOnce() -> T) -> (T, Duration) {
    let start = Instant::now();
    let r = f();
    (r, start.elapsed())
}
