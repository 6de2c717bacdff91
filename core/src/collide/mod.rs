//! Narrow phase: contact manifolds between pairs of shapes.
//!
//! Every pair function takes each shape in its own (body) frame with a transform into a
//! common frame near both bodies, and returns the manifold in that common frame: the
//! normal points from A to B, each point lies midway between the two surfaces, and only
//! points closer than the speculative distance are kept. The dispatcher orders the pair:
//! a hull is always A against a sphere or capsule, a capsule is A against a sphere.
//!
//! Everything here is deterministic: fixed loop orders, ties to the lowest index, only
//! `+ - * / sqrt`, stack buffers only, and no panic for finite input.

pub mod capsule;
pub mod cast;
mod clip;
pub mod cylinder_plane;
pub mod distance;
pub mod hull_capsule;
pub mod hull_sphere;
pub mod hulls;
pub mod manifold;
pub mod ray;
pub mod ray_shape;
mod sat;
mod segment;
pub mod sphere;
#[cfg(test)]
mod test_hulls;
pub mod triangle;

pub use capsule::{collide_capsule_and_sphere, collide_capsules};
pub use hull_capsule::collide_hull_and_capsule;
pub use hull_sphere::collide_hull_and_sphere;
pub use hulls::collide_hulls;
pub use sphere::collide_spheres;

use crate::geometry::hull::{HullView, MAX_HULL_FACES, MAX_HULL_HALF_EDGES, MAX_HULL_VERTICES};
use crate::math::{Transform, Vec3};

/// The engine's linear slop; callers pass 4× this as the speculative distance. Feature
/// choices (face or edge, which face) use tolerances that are fractions of it.
pub(crate) const LINEAR_SLOP: f32 = 0.005;

/// A contact point of a manifold.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ManifoldPoint {
    /// The point, midway between the two surfaces, in the common frame the shapes'
    /// transforms were given in.
    pub point: Vec3,
    /// Signed distance between the surfaces along the normal: negative when they overlap.
    pub separation: f32,
    /// Feature id: the same for the same pair of geometric features from step to step, so
    /// impulses carry over (warm starting).
    pub id: u32,
}

/// Up to four contact points sharing one normal.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Manifold {
    /// Unit normal pointing from shape A to shape B, in the common frame.
    pub normal: Vec3,
    /// The points; only the first `count` are used.
    pub points: [ManifoldPoint; 4],
    /// Number of points, 0 to 4.
    pub count: u32,
}

/// What separated or touched two hulls last time: lets the next step test that axis first.
/// It is simulation state (kept in the contact, hashed and snapshotted).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SatCache {
    /// 0: none, 1: face of A, 2: face of B, 3: edge pair.
    pub kind: u8,
    /// Face or half-edge index on A.
    pub index_a: u16,
    /// Face or half-edge index on B.
    pub index_b: u16,
    /// `f32::to_bits` of the separation along the axis when the full test last ran. While
    /// the cached axis stays within a linear slop of it, the contact is rebuilt on the
    /// cached features without the full test (bits keep the cache `Eq` and exact to hash).
    pub separation_bits: u32,
}

impl SatCache {
    /// No axis cached.
    pub const NONE: u8 = 0;
    /// `index_a` is a face of A.
    pub const FACE_A: u8 = 1;
    /// `index_b` is a face of B.
    pub const FACE_B: u8 = 2;
    /// `index_a` and `index_b` are (even) half-edges of A and B.
    pub const EDGES: u8 = 3;
}

impl Manifold {
    /// A manifold of one point, mapping `normal` and `point` from a shape frame to the
    /// common frame with `xf`.
    #[inline]
    pub(crate) fn single(
        xf: &Transform,
        normal: Vec3,
        point: Vec3,
        separation: f32,
        id: u32,
    ) -> Manifold {
        let mut m = Manifold {
            normal: xf.q.rotate(normal),
            ..Manifold::default()
        };
        m.points[0] = ManifoldPoint {
            point: xf.apply(point),
            separation,
            id,
        };
        m.count = 1;
        m
    }

    /// Appends a point given in a shape frame, mapped to the common frame with `xf`.
    #[inline]
    pub(crate) fn push(&mut self, xf: &Transform, point: Vec3, separation: f32, id: u32) {
        let i = self.count as usize;
        if i < self.points.len() {
            self.points[i] = ManifoldPoint {
                point: xf.apply(point),
                separation,
                id,
            };
            self.count += 1;
        }
    }
}

/// Whether a separation earns a point: below the speculative distance. False for NaN, so
/// a broken input keeps no point rather than a bad one.
#[inline(always)]
pub(crate) fn within_reach(separation: f32, speculative_distance: f32) -> bool {
    separation < speculative_distance
}

/// Whether a hull view is non-empty and within the fixed sizes the stack buffers hold. A
/// hull that fails collides with nothing rather than panicking.
#[inline]
pub(crate) fn hull_fits(h: &HullView) -> bool {
    !h.vertices.is_empty()
        && !h.planes.is_empty()
        && h.edges.len() >= 2
        && h.vertices.len() <= MAX_HULL_VERTICES
        && h.planes.len() <= MAX_HULL_FACES
        && h.face_edges.len() == h.planes.len()
        && h.edges.len() <= MAX_HULL_HALF_EDGES
}
