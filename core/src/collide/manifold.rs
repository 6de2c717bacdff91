//! STUB
#![allow(missing_docs, unused_variables)]
use super::{Manifold, SatCache};
use crate::geometry::{Capsule, Sphere, hull::HullView};
use crate::math::Transform;
pub fn collide_spheres(a: &Sphere, xa: &Transform, b: &Sphere, xb: &Transform, s: f32) -> Manifold {
    Manifold::default()
}
pub fn collide_capsule_and_sphere(
    a: &Capsule,
    xa: &Transform,
    b: &Sphere,
    xb: &Transform,
    s: f32,
) -> Manifold {
    Manifold::default()
}
pub fn collide_capsules(
    a: &Capsule,
    xa: &Transform,
    b: &Capsule,
    xb: &Transform,
    s: f32,
) -> Manifold {
    Manifold::default()
}
pub fn collide_hull_and_sphere(
    a: &HullView,
    xa: &Transform,
    b: &Sphere,
    xb: &Transform,
    s: f32,
) -> Manifold {
    Manifold::default()
}
pub fn collide_hull_and_capsule(
    a: &HullView,
    xa: &Transform,
    b: &Capsule,
    xb: &Transform,
    s: f32,
) -> Manifold {
    Manifold::default()
}
pub fn collide_hulls(
    a: &HullView,
    xa: &Transform,
    b: &HullView,
    xb: &Transform,
    s: f32,
    c: &mut SatCache,
) -> Manifold {
    Manifold::default()
}
