//! Shape geometry: spheres, capsules, boxes, convex hulls, triangle meshes and height
//! fields, their mass properties and bounds. Everything here is in the shape's frame, which is the body frame.

pub mod bounds;
pub mod cylinder;
pub mod height_field;
pub mod hull;
pub mod mass;
pub mod mesh;
pub mod quickhull;
pub mod voxel;

pub use cylinder::{Cylinder, PlaneShape};

use crate::math::{Mat3, Vec3};

/// A sphere.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Sphere {
    /// Centre in the body frame.
    pub center: Vec3,
    /// Radius.
    pub radius: f32,
}

/// A capsule: the points within `radius` of the segment `center1`–`center2`.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Capsule {
    /// First end of the segment, in the body frame.
    pub center1: Vec3,
    /// Second end of the segment, in the body frame.
    pub center2: Vec3,
    /// Radius.
    pub radius: f32,
}

/// Mass, centre of mass and rotational inertia of a shape or body.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct MassData {
    /// Mass in kilograms.
    pub mass: f32,
    /// Centre of mass in the body frame.
    pub center: Vec3,
    /// Rotational inertia about the centre of mass, body axes.
    pub inertia: Mat3,
}
