//! Deterministic math: vectors, quaternions, 3×3 matrices, transforms and the position grid.
//!
//! Our own types rather than glam or nalgebra, so the order of every operation is fixed
//! and visible: no SIMD choice that differs between targets, no fused multiply-add, no
//! platform transcendentals. Hosts can use these same functions for game code.

mod mat3;
mod quat;
mod scalar;
mod transform;
mod vec3;

pub use mat3::Mat3;
pub use quat::Quat;
pub use scalar::*;
pub use transform::*;
pub use vec3::{DVec3, Vec3};
