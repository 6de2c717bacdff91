//! Events a step reports, readable until the next step (not state).

use crate::id::{BodyId, ShapeId};
use crate::math::{DVec3, Quat, Vec3};

/// A touching contact whose shapes approached faster than the world's
/// `hit_event_threshold` when it began touching.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ContactHitEvent {
    /// Shape A of the contact.
    pub shape_a: ShapeId,
    /// Shape B of the contact.
    pub shape_b: ShapeId,
    /// The point that approached fastest, relative to the world origin.
    pub point: DVec3,
    /// The contact normal, from A to B.
    pub normal: Vec3,
    /// How fast the shapes approached along the normal, m/s.
    pub approach_speed: f32,
}

/// A body whose transform the step changed.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BodyMoveEvent {
    /// The body.
    pub body: BodyId,
    /// Its new position.
    pub position: DVec3,
    /// Its new rotation.
    pub rotation: Quat,
    /// Whether it fell asleep in this step.
    pub fell_asleep: bool,
}
/// A contact between two shapes began (they touch) or ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ContactEvent {
    /// Shape A of the contact.
    pub shape_a: ShapeId,
    /// Shape B of the contact.
    pub shape_b: ShapeId,
}
