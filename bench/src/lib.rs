//! Maul3D and Rapier side by side on Box3D's benchmark scenes.
//!
//! [`scenes`] describes each scene once; [`rapier`] and `maul3d_side` (feature
//! `maul3d-side`) build that description into their engine and step it. The binary times
//! them; `benches/scenes.rs` runs the same under criterion.

pub mod pool;
pub mod rapier;
pub mod scenes;

#[cfg(feature = "maul3d-side")]
pub mod maul3d_side;

use scenes::Scene;

/// One physics engine running one scene.
pub trait Engine {
    /// Creates every body and shape of `scene`, in its order.
    fn build(scene: &Scene) -> Self;
    /// Advances one step of `scene.dt` with `scene.substeps` substeps.
    fn step(&mut self);
    /// Bodies in the world, static ones included.
    fn body_count(&self) -> usize;
    /// Sum of every body's height, in creation order: two engines simulating the same
    /// scene should land near each other, and a value that explodes shows a broken side.
    fn checksum(&self) -> f64;
    /// Scene-specific sanity figures (vehicles' speed, characters' height), where the
    /// scene has any.
    fn report(&self) -> Option<String> {
        None
    }
    /// Mean time per stage over the steps so far, for engines that report one.
    fn profile_summary(&self) -> Option<String> {
        None
    }
}
