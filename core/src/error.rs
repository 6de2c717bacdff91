//! The crate's one error type. Every refusal names the offending value and the bound it
//! broke; none allocates, so a refused call inside a hot loop stays cheap.

use core::fmt;

/// Why a call was refused. Nothing in the world changed.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Error {
    /// An argument is not a finite number or outside its range. Non-finite input (NaN,
    /// ±infinity) is always this error, also for positions: [`Error::OutOfBounds`] is only
    /// for finite positions past the coordinate limits.
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
    /// A world too small for what it is given: a snapshot whose pools (slot counts, content
    /// bytes, sensor overlaps) do not fit the restoring world's capacities. Grow the world
    /// (`World::grow`) or make one with `World::def_from_snapshot`.
    TooSmall {
        /// Which capacity (the world def's field).
        what: &'static str,
        /// What is needed.
        needed: u64,
        /// The world's capacity.
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
    /// A finite position, shift or moving body's bounds beyond the coordinate limits (a
    /// non-finite one is an [`Error::Argument`]).
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
            } => write!(f, "{name} = {} must be {expected}", Short(value)),
            Error::Capacity { what, capacity } => {
                write!(f, "{what} is full: capacity {capacity}")?;
                // A world def field can be raised; a fixed bound (a constant, a journal's
                // size, a tree's depth) cannot.
                if what.contains("_capacity") {
                    write!(f, " (raise it in the world def)")?;
                }
                Ok(())
            }
            Error::TooSmall {
                what,
                needed,
                capacity,
            } => write!(
                f,
                "{what} = {capacity} is too small: {needed} needed (grow the world first)"
            ),
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
                    "{name} = {} is out of bounds: its magnitude must stay below {}",
                    Short(value),
                    Short(bound)
                )
            }
            Error::BodyOutOfBounds { body, value, bound } => write!(
                f,
                "body (index {}, generation {}) could reach {} m from the origin in \
                 this step, past the coordinate bound {} m: move, slow, disable or \
                 destroy it",
                body.index,
                body.generation,
                Short(value),
                Short(bound)
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

/// `needed` within `capacity`, else [`Error::TooSmall`] naming `what`.
pub(crate) fn check_fits(what: &'static str, needed: u64, capacity: u64) -> Result<()> {
    if needed > capacity {
        return Err(Error::TooSmall {
            what,
            needed,
            capacity,
        });
    }
    Ok(())
}

/// A number as a message shows it: the shortest decimal that reads back to the same value
/// (read as an `f32` when it is one, as most arguments are), with an exponent when its
/// magnitude is 1e9 or more or below 1e-4, so `1e300` prints as `1e300`, not 301 digits.
#[derive(Clone, Copy, Debug)]
pub struct Short(pub f64);

impl fmt::Display for Short {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let v = self.0;
        let a = v.abs();
        let exponent = v.is_finite() && a != 0.0 && !(1.0e-4..1.0e9).contains(&a);
        let single = v as f32;
        if !v.is_finite() || single as f64 != v {
            if exponent {
                write!(f, "{v:e}")
            } else {
                write!(f, "{v}")
            }
        } else if exponent {
            write!(f, "{single:e}")
        } else {
            write!(f, "{single}")
        }
    }
}

/// Shorthand for results of this crate.
pub type Result<T> = core::result::Result<T, Error>;

/// Refuses a rotation quaternion with a non-finite component (named `name`) or a norm²
/// that is not finite and above 1e-6 (named `norm_name`): a tiny one has no direction and
/// an infinite one (components near `f32::MAX`) would normalize to the zero quaternion.
/// Returns it normalized.
pub(crate) fn check_rotation(
    name: &'static str,
    norm_name: &'static str,
    q: crate::math::Quat,
) -> Result<crate::math::Quat> {
    if let Some(c) = [q.x, q.y, q.z, q.w].into_iter().find(|c| !c.is_finite()) {
        return Err(Error::Argument {
            name,
            value: c as f64,
            expected: "finite (each component)",
        });
    }
    let n2 = q.length_squared();
    if !(n2 > 1e-6 && n2.is_finite()) {
        return Err(Error::Argument {
            name: norm_name,
            value: n2 as f64,
            expected: "finite and above 1e-6 (a rotation quaternion)",
        });
    }
    Ok(q.normalize())
}

/// Refuses a non-finite world position (an argument error) or a finite one whose
/// magnitude reaches `bound` (out of bounds), naming the offending component.
pub(crate) fn check_world_point(
    name: &'static str,
    p: crate::math::DVec3,
    bound: f64,
) -> Result<()> {
    for i in 0..3 {
        let v = p.get(i);
        if !v.is_finite() {
            return Err(Error::Argument {
                name,
                value: v,
                expected: "finite",
            });
        }
    }
    for i in 0..3 {
        let v = p.get(i);
        if v.abs() >= bound {
            return Err(Error::OutOfBounds {
                name,
                value: v,
                bound,
            });
        }
    }
    Ok(())
}

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

#[cfg(test)]
mod tests {
    use super::*;

    fn arg(name: &'static str, value: f64, expected: &'static str) -> String {
        Error::Argument {
            name,
            value,
            expected,
        }
        .to_string()
    }

    #[test]
    fn messages_print_large_and_tiny_numbers_in_short_forms() {
        assert_eq!(
            arg("dt", 1e300, "finite and within [1e-4, 10] seconds"),
            "dt = 1e300 must be finite and within [1e-4, 10] seconds"
        );
        assert_eq!(
            arg("x", -2.5e-30, "positive"),
            "x = -2.5e-30 must be positive"
        );
        // An f32 argument prints as the f32 it was, not as its f64 expansion.
        assert_eq!(
            arg("friction", 0.1f32 as f64, "small"),
            "friction = 0.1 must be small"
        );
        assert_eq!(
            arg("break_force", f32::MAX as f64, "finite"),
            "break_force = 3.4028235e38 must be finite"
        );
        // A double that is no f32 keeps its own shortest form.
        assert_eq!(arg("x", 0.1, "small"), "x = 0.1 must be small");
        assert_eq!(
            arg("x", 1.0 / 3.0, "small"),
            "x = 0.3333333333333333 must be small"
        );
        assert_eq!(arg("x", f64::NAN, "finite"), "x = NaN must be finite");
        assert_eq!(
            arg("x", f64::NEG_INFINITY, "finite"),
            "x = -inf must be finite"
        );
        assert_eq!(arg("count", 4095.0, "4096"), "count = 4095 must be 4096");
        let e = Error::OutOfBounds {
            name: "ray origin",
            value: -1e300,
            bound: 4_194_304.0,
        };
        assert_eq!(
            e.to_string(),
            "ray origin = -1e300 is out of bounds: its magnitude must stay below 4194304"
        );
        assert!(e.to_string().len() < 100);
    }
}
