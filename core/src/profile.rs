//! Time per stage of the last step: the one output that differs between runs. It only
//! observes: nothing in the simulation reads it.

/// Milliseconds spent in each stage of the last step.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Profile {
    /// The whole step.
    pub step: f64,
    /// Broad phase: finding new pairs.
    pub pairs: f64,
    /// Narrow phase: manifolds of every contact, then begin/end bookkeeping.
    pub collide: f64,
    /// Solver set-up: awake set, graph colouring, constraint preparation.
    pub prepare: f64,
    /// Substeps: integrate, warm start, solve, relax.
    pub solve: f64,
    /// Restitution, storing contact impulses, and the joints' impulses, reactions and
    /// breaks.
    pub restitution: f64,
    /// Writing bodies back, bounds and the move buffer.
    pub finalize: f64,
    /// Islands and sleep.
    pub sleep: f64,
    /// Move events and sensors.
    pub sensors: f64,
    /// Soft bodies.
    pub soft: f64,
}

/// A stopwatch. Reads the clock only to fill `Profile`.
pub(crate) struct Timer {
    #[cfg(not(target_family = "wasm"))]
    start: std::time::Instant,
}

impl Timer {
    /// Starts timing.
    #[inline]
    #[allow(clippy::disallowed_methods)] // observes only: the profile never feeds the simulation
    pub(crate) fn start() -> Timer {
        Timer {
            #[cfg(not(target_family = "wasm"))]
            start: std::time::Instant::now(),
        }
    }

    /// Milliseconds since `start`.
    #[inline]
    pub(crate) fn elapsed_ms(&self) -> f64 {
        #[cfg(not(target_family = "wasm"))]
        {
            self.start.elapsed().as_secs_f64() * 1000.0
        }
        #[cfg(target_family = "wasm")]
        {
            0.0
        }
    }
}
