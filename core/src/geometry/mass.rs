//! STUB
#![allow(missing_docs, unused_variables)]
use super::{Capsule, MassData, Sphere, hull::HullView};
use crate::math::{Quat, Vec3};
pub fn sphere_mass(s: &Sphere, d: f32) -> MassData {
    MassData::default()
}
pub fn capsule_mass(s: &Capsule, d: f32) -> MassData {
    MassData::default()
}
pub fn box_mass(h: Vec3, c: Vec3, r: Quat, d: f32) -> MassData {
    MassData::default()
}
pub fn hull_mass(h: &HullView, d: f32) -> MassData {
    MassData::default()
}
