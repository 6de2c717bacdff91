//! Manifold functions for every pair of convex shapes.
//!
//! Re-exported here so the narrow phase reads as one list; each lives in the file named
//! for its pair.

pub use super::capsule::{collide_capsule_and_sphere, collide_capsules};
pub use super::hull_capsule::collide_hull_and_capsule;
pub use super::hull_sphere::collide_hull_and_sphere;
pub use super::hulls::collide_hulls;
pub use super::sphere::collide_spheres;
