//! Ray shapes (Godot's `SeparationRayShape3D`, Jolt's custom ray shape): a segment from an
//! origin along a direction, on a body, that pushes its body out of what it pierces only
//! along its own direction (or along the hit surface's normal with `slide_on_slope`). A
//! box body with a downward ray of length 1 hovers 1 m above the floor: a cheap
//! suspension.
//!
//! The contact, as Godot Physics' `solve_separation_ray` and Jolt's
//! `collide_ray_vs_shape` make it: the ray is cast against the other shape from its origin
//! for its length plus the speculative distance; only an entry through a surface facing
//! the ray counts (a ray starting inside a solid, or meeting a triangle's back, gives
//! nothing). One point, midway between the ray's tip and the hit point, separation = hit
//! distance − length (negative: the tip is past the surface by that much), normal (ray to
//! other) the ray direction, or with `slide_on_slope` the surface normal turned to face
//! into the other shape (the depth stays the distance along the ray, as both engines
//! have it). Ray against ray: nothing.

use crate::collide::ray::{RayHit, RayInput};
use crate::collide::{Manifold, ManifoldPoint};
use crate::math::{Transform, Vec3};

/// A ray shape, in the body frame.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RayShape {
    /// Where the ray starts, body frame (within ±1e6).
    pub origin: Vec3,
    /// Its direction, body frame: any length in [1e-3, 1e6], normalised at create.
    pub direction: Vec3,
    /// Its length, m, in [0, 1e6].
    pub length: f32,
    /// Separate along the hit surface's normal rather than the ray (Godot's
    /// `slide_on_slope`): the body slides down a slope it stands on.
    pub slide_on_slope: bool,
}

impl Default for RayShape {
    fn default() -> RayShape {
        RayShape {
            origin: Vec3::ZERO,
            direction: Vec3::new(0.0, -1.0, 0.0),
            length: 1.0,
            slide_on_slope: false,
        }
    }
}

impl RayShape {
    /// The ray's tip, body frame.
    #[inline]
    pub fn tip(&self) -> Vec3 {
        self.origin.mul_add(self.length, self.direction)
    }
}

/// The manifold of ray A (placed by `xf_a`) against whatever `cast` casts rays at (in the
/// common frame): `cast` answers the first entry of a ray given in the common frame.
pub(crate) fn collide_ray(
    ray: &RayShape,
    xf_a: &Transform,
    speculative: f32,
    cast: impl FnOnce(&RayInput) -> Option<RayHit>,
) -> Manifold {
    let origin = xf_a.apply(ray.origin);
    let dir = xf_a.q.rotate(ray.direction);
    let total = ray.length + speculative;
    if total.is_nan() || total <= 0.0 {
        return Manifold::default();
    }
    let input = RayInput {
        origin,
        translation: dir * total,
        max_fraction: 1.0,
    };
    let Some(hit) = cast(&input) else {
        return Manifold::default();
    };
    // Only surfaces facing the ray (the normal against it), as Godot discards the rest.
    let facing = hit.normal.dot(dir);
    if facing.is_nan() || facing >= 0.0 {
        return Manifold::default();
    }
    let distance = hit.fraction * total;
    let separation = distance - ray.length;
    if separation.is_nan() || separation > speculative {
        return Manifold::default();
    }
    let normal = if ray.slide_on_slope { -hit.normal } else { dir };
    let tip = origin.mul_add(ray.length, dir);
    let mut m = Manifold {
        normal,
        count: 1,
        ..Manifold::default()
    };
    m.points[0] = ManifoldPoint {
        point: tip.mul_add(0.5 * separation, normal),
        separation,
        id: 0,
    };
    m
}

/// `m` with A and B swapped (a ray that is shape B: its contact's normal turned).
#[inline]
pub(crate) fn flipped(mut m: Manifold) -> Manifold {
    m.normal = -m.normal;
    m
}
