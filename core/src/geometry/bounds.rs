//! STUB
#![allow(missing_docs, unused_variables)]
use super::{
    Capsule, Sphere,
    hull::{BoxHull, HullView},
};
use crate::math::{Aabb, Transform, Vec3};
pub fn sphere_aabb(s: &Sphere, x: &Transform) -> Aabb {
    Aabb::default()
}
pub fn capsule_aabb(s: &Capsule, x: &Transform) -> Aabb {
    Aabb::default()
}
pub fn hull_aabb(s: &HullView, x: &Transform) -> Aabb {
    Aabb::default()
}
pub fn box_aabb(s: &BoxHull, x: &Transform) -> Aabb {
    Aabb::default()
}
pub fn hull_max_extent(s: &HullView, c: Vec3) -> f32 {
    0.0
}
