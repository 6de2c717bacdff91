//! What game engines build characters and triggers on: contact-point queries ("rest
//! info") and the motion test (Godot's `body_test_motion`, the core of `move_and_slide`).
//! Read-only.

use crate::collide::{Manifold, SatCache};
use crate::contact::collide;
use crate::error::Result;
use crate::id::{BodyId, ShapeId};
use crate::math::{DAabb, DVec3, Quat, Transform, Vec3};
use crate::query::{QueryFilter, QueryShape};
use crate::shape::Shape;
use crate::world::World;

/// A contact between a query shape and a shape of the world.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ContactPointPair {
    /// The point on the query shape's surface, relative to the world origin.
    pub point_on_query: DVec3,
    /// The point on the other shape's surface.
    pub point_on_other: DVec3,
    /// Unit normal pointing from the other shape towards the query shape.
    pub normal: Vec3,
    /// Penetration depth (positive when overlapping).
    pub depth: f32,
    /// The other shape.
    pub shape: ShapeId,
    /// Its body.
    pub body: BodyId,
    /// The other body's velocity at the point.
    pub velocity: Vec3,
}

/// The manifold of a probe against shape `slot`, with the normal turned to point from the
/// other shape towards the probe, in the frame of the probe's position.
pub(crate) fn probe_manifold(
    w: &World,
    probe: &Shape,
    position: DVec3,
    rotation: Quat,
    slot: u32,
    margin: f32,
) -> Manifold {
    let other = &w.shapes[slot as usize];
    let b = &w.bodies[other.body as usize];
    let xf_p = Transform::new(Vec3::ZERO, rotation);
    let xf_o = Transform::new((b.position - position).to_f32(), b.rotation);
    let mut cache = SatCache::default();
    if probe.geometry.kind() >= other.geometry.kind() {
        // Normal from the probe to the other: turn it around.
        let mut m = collide(probe, &xf_p, other, &xf_o, &w.hulls, margin, &mut cache);
        m.normal = -m.normal;
        m
    } else {
        collide(other, &xf_o, probe, &xf_p, &w.hulls, margin, &mut cache)
    }
}

impl World {
    /// Every contact point of `shape` placed at `position`/`rotation` with the shapes of
    /// the world within `margin` (depth > −margin), by shape slot then point; fills `out`
    /// and returns how many there are.
    #[allow(clippy::too_many_arguments)]
    pub fn contact_points(
        &self,
        shape: &QueryShape,
        position: DVec3,
        rotation: Quat,
        margin: f32,
        filter: &QueryFilter,
        exclude: Option<BodyId>,
        out: &mut [ContactPointPair],
    ) -> Result<usize> {
        crate::limits::check_nonneg("margin", margin, 1.0e3, "within [0, 1e3]")?;
        let rotation = rotation.normalize();
        let probe = self.query_probe(shape, position, rotation)?;
        let local = crate::shape::local_aabb(&probe, &self.hulls, rotation).inflate(margin);
        let aabb = DAabb::from_local(position, &local);
        let excluded = exclude
            .and_then(|b| self.body_slot(b).ok())
            .map(|s| s as u32);
        // Candidate slots in ascending order: gather into `out`'s worth of slot keys by
        // walking every shape slot whose bounds overlap (slot order is the output order).
        let mut n = 0usize;
        self.for_each_shape_in_slot_order(&aabb, |slot| {
            let s = &self.shapes[slot as usize];
            if !filter.accepts(s) || Some(s.body) == excluded {
                return;
            }
            let m = probe_manifold(self, &probe, position, rotation, slot, margin);
            let b = &self.bodies[s.body as usize];
            for p in &m.points[..m.count as usize] {
                let depth = -p.separation;
                if depth <= -margin {
                    continue;
                }
                // Manifold points sit midway between the surfaces.
                let half = m.normal * (0.5 * p.separation);
                let on_query = p.point + half;
                let on_other = p.point - half;
                let r = (position - b.position).to_f32() + on_other - b.center_offset();
                let velocity = b.linear_velocity + b.angular_velocity.cross(r);
                if n < out.len() {
                    out[n] = ContactPointPair {
                        point_on_query: position + on_query.to_f64(),
                        point_on_other: position + on_other.to_f64(),
                        normal: m.normal,
                        depth,
                        shape: self.shape_id(slot),
                        body: self.body_id(s.body),
                        velocity,
                    };
                }
                n += 1;
            }
        });
        Ok(n)
    }

    /// The deepest contact of `shape` at `position`/`rotation` within `margin` (ties: the
    /// lower shape slot, then the first point): Godot's "rest info".
    pub fn rest_info(
        &self,
        shape: &QueryShape,
        position: DVec3,
        rotation: Quat,
        margin: f32,
        filter: &QueryFilter,
        exclude: Option<BodyId>,
    ) -> Result<Option<ContactPointPair>> {
        let mut all = [ContactPointPair {
            point_on_query: DVec3::ZERO,
            point_on_other: DVec3::ZERO,
            normal: Vec3::ZERO,
            depth: 0.0,
            shape: ShapeId::NULL,
            body: BodyId::NULL,
            velocity: Vec3::ZERO,
        }; 64];
        let n =
            self.contact_points(shape, position, rotation, margin, filter, exclude, &mut all)?;
        let mut best: Option<ContactPointPair> = None;
        for c in &all[..n.min(all.len())] {
            if best.is_none_or(|b| c.depth > b.depth) {
                best = Some(*c);
            }
        }
        Ok(best)
    }

    /// Calls `f` for every live shape of an enabled body whose fat bounds overlap `aabb`,
    /// in ascending slot order (the trees' order never shows).
    pub(crate) fn for_each_shape_in_slot_order(&self, aabb: &DAabb, mut f: impl FnMut(u32)) {
        // Up to 256 candidates gathered from the trees and sorted on the stack; beyond
        // that, a scan of every slot gives the same set in the same order.
        let mut found = [0u32; 256];
        let mut n = 0usize;
        let mut overflow = false;
        let mut visit = |_proxy: u32, slot: u32| {
            if n < found.len() {
                found[n] = slot;
                n += 1;
                true
            } else {
                overflow = true;
                false
            }
        };
        self.broad.statics.query(aabb, &mut visit);
        self.broad.movable.query(aabb, &mut visit);
        if overflow {
            for (slot, s) in self.shapes.iter().enumerate() {
                if s.alive && s.proxy != crate::body::NONE && s.fat_aabb.overlaps(aabb) {
                    f(slot as u32);
                }
            }
            return;
        }
        let found = &mut found[..n];
        found.sort_unstable();
        for &slot in found.iter() {
            let s = &self.shapes[slot as usize];
            if s.alive && self.bodies[s.body as usize].enabled {
                f(slot);
            }
        }
    }
}
