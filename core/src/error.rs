//! The crate's one error type. Every refusal names the offending value and the bound it
//! broke; none allocates, so a refused call inside a hot loop stays cheap.

use core::fmt;

/// Why a call was refused. Nothing in the world changed.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Error {
    /// An argument is not a finite number or outside its range.
    Argument {
        /// Which argument.
        name: &'static str,
        /// The value given (NaN and infinities included).
        value: f64,
        /// The rule it broke, e.g. "within [1e-4, 10]".
        expected: &'static str,
    },
    /// A fixed capacity is full.
    Capacity {
        /// Which capacity (the world def's field).
        what: &'static str,
        /// Its value.
        capacity: u64,
    },
    /// A stale, null or foreign id.
    InvalidId {
        /// What kind of object.
        what: &'static str,
        /// The id's index.
        index: u32,
        /// The id's generation.
        generation: u32,
    },
    /// The call is not valid in the object's current state.
    State(&'static str),
    /// A position, shift or moving body's bounds beyond the coordinate limits.
    OutOfBounds {
        /// Which value.
        name: &'static str,
        /// The value given.
        value: f64,
        /// The bound it reached.
        bound: f64,
    },
    /// A step refused because a body could leave the coordinate limits during it: the
    /// body, how far out its bounds could reach, and the bound. Move, slow, disable or
    /// destroy the body (or make it static) and the world steps again.
    BodyOutOfBounds {
        /// The body.
        body: crate::id::BodyId,
        /// How far from the origin (largest component) its bounds could reach, m.
        value: f64,
        /// The bound (2^22 m).
        bound: f64,
    },
    /// Damaged data (snapshot, tape, container).
    Format(&'static str),
    /// Data from another format revision.
    Version {
        /// The revision found.
        found: u32,
        /// The revision this build reads.
        expected: u32,
    },
    /// A call from host code the world is running (a task, a callback, the allocator).
    Busy,
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Error::Argument {
                name,
                value,
                expected,
            } => write!(f, "{name} = {value} must be {expected}"),
            Error::Capacity { what, capacity } => {
                write!(
                    f,
                    "{what} is full: capacity {capacity} (raise it in the world def)"
                )
            }
            Error::InvalidId {
                what,
                index,
                generation,
            } => write!(
                f,
                "{what} id (index {index}, generation {generation}) is null, stale or foreign"
            ),
            Error::State(why) => write!(f, "invalid state: {why}"),
            Error::OutOfBounds { name, value, bound } => {
                write!(
                    f,
                    "{name} = {value} is out of bounds: magnitude must stay below {bound}"
                )
            }
            Error::BodyOutOfBounds { body, value, bound } => write!(
                f,
                "body (index {}, generation {}) could reach {value} m from the origin in \
                 this step, past the coordinate bound {bound} m: move, slow, disable or \
                 destroy it",
                body.index, body.generation
            ),
            Error::Format(why) => write!(f, "damaged data: {why}"),
            Error::Version { found, expected } => {
                write!(
                    f,
                    "format revision {found} cannot be read: this build reads {expected}"
                )
            }
            Error::Busy => write!(
                f,
                "the world is busy: called from a task or callback it is running"
            ),
        }
    }
}

impl std::error::Error for Error {}

/// Shorthand for results of this crate.
pub type Result<T> = core::result::Result<T, Error>;

/// Refuses a non-finite or out-of-range `f32` argument.
#[inline]
pub(crate) fn check_range(
    name: &'static str,
    v: f32,
    lo: f32,
    hi: f32,
    expected: &'static str,
) -> Result<()> {
    if v.is_finite() && v >= lo && v <= hi {
        Ok(())
    } else {
        Err(Error::Argument {
            name,
            value: v as f64,
            expected,
        })
    }
}
