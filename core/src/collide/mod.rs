//! Narrow phase: contact manifolds between pairs of shapes.

pub mod manifold;

use crate::math::Vec3;

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
}
