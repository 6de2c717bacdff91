//! # Maul3D
//!
//! A deterministic 3D physics engine: the same calls with the same arguments in the same
//! order give the same bits on every platform, with any number of threads, whatever
//! floating-point mode the host runs in.
//!
//! Callers of the Rust API are in Rust's default floating-point environment (round to
//! nearest, subnormals kept); the C ABI and Godot entries switch to it in their shims.

#![warn(missing_docs)]

pub mod alloc;
pub mod broad_phase;
pub mod collide;
pub mod error;
pub mod geometry;
pub mod math;

pub use error::{Error, Result};
