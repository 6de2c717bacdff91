//! Exact ray casts against cylinders and planes; the manifolds of a plane (always shape
//! A: it has the highest kind) against every convex shape; and the exact contact of a
//! cylinder resting on a face of a box, hull or other cylinder.
//!
//! A plane's manifold holds the points of the other shape nearest below or above the
//! surface, up to four, with feature ids that stay with the same vertex (hulls, boxes), end
//! (capsules) or rim point (cylinders) from step to step. The cylinder's is exact: the
//! lowest rim point of each cap, or four rim points of a cap lying flat. The same rim
//! points against a hull face replace the prism's manifold where that face alone carries
//! the cylinder, so a cylinder rolls on a box as smoothly as on a plane.

use super::ray::{RayHit, RayInput};
use super::{Manifold, ManifoldPoint, hull_fits, within_reach};
use crate::geometry::cylinder::{Cylinder, PlaneShape};
use crate::geometry::hull::HullView;
use crate::geometry::{Capsule, Sphere};
use crate::math::{Transform, Vec3, abs, sqrt};

fn checked(hit: RayHit) -> Option<RayHit> {
    if hit.fraction.is_finite() && hit.point.is_valid() && hit.normal.is_valid() {
        Some(hit)
    } else {
        None
    }
}

/// The first point where the ray enters the half-space `p` placed by `xf`. A ray that
/// starts in the half-space (surface included) has no entry, as for hulls.
pub fn ray_cast_plane(p: &PlaneShape, xf: &Transform, input: &RayInput) -> Option<RayHit> {
    let n = xf.q.rotate(p.normal);
    let above = n.dot(input.origin - xf.p) - p.offset;
    let rate = n.dot(input.translation);
    if above.is_nan() || rate.is_nan() || above <= 0.0 || rate >= 0.0 {
        return None;
    }
    let fraction = above / -rate;
    if fraction > input.max_fraction {
        return None;
    }
    checked(RayHit {
        fraction,
        point: input.origin.mul_add(fraction, input.translation),
        normal: n,
    })
}

/// The first point where the ray enters the cylinder `c` placed by `xf`: the ray is cut
/// by the slab between the caps and by the infinite round cylinder, and enters where the
/// later of the two entries lies. A ray starting inside has no entry.
pub fn ray_cast_cylinder(c: &Cylinder, xf: &Transform, input: &RayInput) -> Option<RayHit> {
    let (dir, length) = input.translation.normalize_and_length();
    if length == 0.0 {
        return None;
    }
    let q = xf.q * c.rotation;
    let center = xf.apply(c.center);
    let o = q.inv_rotate(input.origin - center);
    let d = q.inv_rotate(dir);
    let (h, r) = (c.half_height, c.radius);
    // Distances along the unit direction.
    let (mut lo, mut hi) = (f32::NEG_INFINITY, f32::INFINITY);
    let mut cap_entry = false;
    if d.y == 0.0 {
        if abs(o.y) > h {
            return None;
        }
    } else {
        let t1 = (-h - o.y) / d.y;
        let t2 = (h - o.y) / d.y;
        let (a, b) = if t1 < t2 { (t1, t2) } else { (t2, t1) };
        lo = a;
        hi = b;
        cap_entry = true;
    }
    let a = d.x * d.x + d.z * d.z;
    let b = o.x * d.x + o.z * d.z;
    let cc = o.x * o.x + o.z * o.z - r * r;
    if a == 0.0 {
        if cc > 0.0 {
            return None;
        }
    } else {
        let disc = b * b - a * cc;
        if disc < 0.0 {
            return None;
        }
        let s = sqrt(disc);
        // The root pair without cancellation.
        let (t1, t2) = if b <= 0.0 {
            (cc / (s - b), (s - b) / a)
        } else {
            ((-b - s) / a, cc / (-b - s))
        };
        let (t1, t2) = if t1 < t2 { (t1, t2) } else { (t2, t1) };
        if t1 > lo {
            lo = t1;
            cap_entry = false;
        }
        if t2 < hi {
            hi = t2;
        }
    }
    if lo > hi || lo < 0.0 || lo > input.max_fraction * length {
        return None;
    }
    let local_hit = o.mul_add(lo, d);
    let local_normal = if cap_entry {
        Vec3::new(0.0, if d.y > 0.0 { -1.0 } else { 1.0 }, 0.0)
    } else {
        Vec3::new(local_hit.x, 0.0, local_hit.z).normalize()
    };
    let fraction = lo / length;
    checked(RayHit {
        fraction,
        point: input.origin.mul_add(fraction, input.translation),
        normal: q.rotate(local_normal),
    })
}

/// A plane in the common frame: unit normal and offset.
#[derive(Clone, Copy)]
struct WorldPlane {
    n: Vec3,
    d: f32,
}

impl WorldPlane {
    fn new(p: &PlaneShape, xf: &Transform) -> WorldPlane {
        let n = xf.q.rotate(p.normal);
        WorldPlane {
            n,
            d: p.offset + n.dot(xf.p),
        }
    }

    #[inline]
    fn height(&self, x: Vec3) -> f32 {
        self.n.dot(x) - self.d
    }
}

/// Candidate points: (point on the other shape's surface in the common frame, separation,
/// id), kept in a fixed buffer.
struct Candidates {
    p: [(Vec3, f32, u32); 64],
    count: usize,
}

impl Candidates {
    fn new() -> Candidates {
        Candidates {
            p: [(Vec3::ZERO, 0.0, 0); 64],
            count: 0,
        }
    }

    fn push(&mut self, point: Vec3, separation: f32, id: u32, speculative: f32) {
        if within_reach(separation, speculative) && self.count < self.p.len() {
            self.p[self.count] = (point, separation, id);
            self.count += 1;
        }
    }

    /// At most four of the candidates: the deepest, the farthest from it, then the farthest
    /// on either side of the line through those two (ties: the earlier candidate). Points
    /// are moved to the midway between the surfaces.
    fn manifold(&self, w: &WorldPlane) -> Manifold {
        let mut m = Manifold {
            normal: w.n,
            ..Manifold::default()
        };
        let c = &self.p[..self.count];
        if c.is_empty() {
            return m;
        }
        let mut chosen = [usize::MAX; 4];
        let mut k = 0;
        for (i, x) in c.iter().enumerate() {
            if x.1 < c[k].1 {
                k = i;
            }
        }
        chosen[0] = k;
        if c.len() > 4 {
            let p0 = c[k].0;
            let mut best = (0.0, usize::MAX);
            for (i, x) in c.iter().enumerate() {
                let t = x.0 - p0 - w.n * w.n.dot(x.0 - p0);
                let d2 = t.dot(t);
                if d2 > best.0 {
                    best = (d2, i);
                }
            }
            chosen[1] = best.1;
            if best.1 != usize::MAX {
                let p1 = c[best.1].0;
                let e = p1 - p0;
                let (mut pos, mut neg) = ((0.0, usize::MAX), (0.0, usize::MAX));
                for (i, x) in c.iter().enumerate() {
                    let area = e.cross(x.0 - p0).dot(w.n);
                    if area > pos.0 {
                        pos = (area, i);
                    } else if -area > neg.0 {
                        neg = (-area, i);
                    }
                }
                chosen[2] = pos.1;
                chosen[3] = neg.1;
            }
        } else {
            for (j, slot) in chosen.iter_mut().enumerate().take(c.len()) {
                *slot = j;
            }
        }
        for &i in chosen.iter() {
            if i != usize::MAX {
                let (p, s, id) = c[i];
                let n = m.count as usize;
                m.points[n] = ManifoldPoint {
                    point: p - w.n * (0.5 * s),
                    separation: s,
                    id,
                };
                m.count += 1;
            }
        }
        m
    }
}

/// The manifold of a plane A and a sphere B: one point (id 0).
pub fn collide_plane_and_sphere(
    a: &PlaneShape,
    xf_a: &Transform,
    b: &Sphere,
    xf_b: &Transform,
    speculative: f32,
) -> Manifold {
    let w = WorldPlane::new(a, xf_a);
    let center = xf_b.apply(b.center);
    let mut c = Candidates::new();
    let lowest = center - w.n * b.radius;
    c.push(lowest, w.height(lowest), 0, speculative);
    c.manifold(&w)
}

/// The manifold of a plane A and a capsule B: one point per end (ids 0 and 1).
pub fn collide_plane_and_capsule(
    a: &PlaneShape,
    xf_a: &Transform,
    b: &Capsule,
    xf_b: &Transform,
    speculative: f32,
) -> Manifold {
    let w = WorldPlane::new(a, xf_a);
    let mut c = Candidates::new();
    for (id, end) in [b.center1, b.center2].into_iter().enumerate() {
        let lowest = xf_b.apply(end) - w.n * b.radius;
        c.push(lowest, w.height(lowest), id as u32, speculative);
    }
    c.manifold(&w)
}

/// The manifold of a plane A and a hull B (boxes and cylinder prisms included): the
/// vertices below the speculative distance, at most four (ids: vertex indices).
pub fn collide_plane_and_hull(
    a: &PlaneShape,
    xf_a: &Transform,
    b: &HullView,
    xf_b: &Transform,
    speculative: f32,
) -> Manifold {
    if !hull_fits(b) {
        return Manifold::default();
    }
    let w = WorldPlane::new(a, xf_a);
    let mut c = Candidates::new();
    for (i, v) in b.vertices.iter().enumerate() {
        let p = xf_b.apply(*v);
        c.push(p, w.height(p), i as u32, speculative);
    }
    c.manifold(&w)
}

/// Below this sine of the angle between a cylinder's cap and a plane, the cap lies flat:
/// its contact points are four fixed rim points rather than the lowest one and its
/// neighbours.
const FLAT_SINE: f32 = 0.01;

/// The manifold of a plane A and a cylinder B, exact: per cap, the rim point lowest along
/// the plane normal and the rim points a quarter and a half turn from it (ids: cap × 4 +
/// k), the deepest four of those below the speculative distance. A cap within
/// `FLAT_SINE` of flat uses its own x and z axes for the rim points, so a cylinder standing
/// on a cap keeps the same four points.
pub fn collide_plane_and_cylinder(
    a: &PlaneShape,
    xf_a: &Transform,
    b: &Cylinder,
    xf_b: &Transform,
    speculative: f32,
) -> Manifold {
    let w = WorldPlane::new(a, xf_a);
    let all = rim_points(&w, b, xf_b);
    let mut m = Manifold {
        normal: w.n,
        ..Manifold::default()
    };
    for &(p, s, id) in all.iter().take(4) {
        if within_reach(s, speculative) {
            let n = m.count as usize;
            m.points[n] = ManifoldPoint {
                point: p - w.n * (0.5 * s),
                separation: s,
                id,
            };
            m.count += 1;
        }
    }
    m
}

/// The eight rim points of `collide_plane_and_cylinder` for the cylinder `b` placed by
/// `xf_b` against plane `w`: (point, height above the plane, id), deepest first.
fn rim_points(w: &WorldPlane, b: &Cylinder, xf_b: &Transform) -> [(Vec3, f32, u32); 8] {
    let q = xf_b.q * b.rotation;
    let axis = q.rotate(Vec3::Y);
    let center = xf_b.apply(b.center);
    let tilt = w.n - axis * w.n.dot(axis);
    let (u, len) = tilt.normalize_and_length();
    let (u, v) = if len > FLAT_SINE {
        (u, axis.cross(u))
    } else {
        (q.rotate(Vec3::X), q.rotate(Vec3::Z))
    };
    let r = b.radius;
    let mut all = [(Vec3::ZERO, 0.0f32, 0u32); 8];
    for (cap, sign) in [-1.0f32, 1.0].into_iter().enumerate() {
        let cc = center + axis * (sign * b.half_height);
        let rim = [cc - u * r, cc + v * r, cc - v * r, cc + u * r];
        for (k, p) in rim.into_iter().enumerate() {
            all[cap * 4 + k] = (p, w.height(p), (cap * 4 + k) as u32);
        }
    }
    // Deepest first; ties keep the lower id (insertion sort is stable).
    for i in 1..all.len() {
        let mut j = i;
        while j > 0 && all[j].1 < all[j - 1].1 {
            all.swap(j, j - 1);
            j -= 1;
        }
    }
    all
}

/// How much lower than the round cylinder its prism can sit on a face: the gap between
/// the circle and the prism's flats, r (1 − cos(π/N)).
fn prism_gap(r: f32) -> f32 {
    r * (1.0 - crate::geometry::cylinder::MID_COS[0])
}

/// Refines the prism manifold `prism` of a cylinder A against a hull B (a box, hull or
/// another cylinder's prism) with the exact cylinder where a face of B carries it.
///
/// The face of B that separates it farthest from the round cylinder (exact support:
/// h |n · axis| + r √(1 − (n · axis)²)) is the reference when it is within the prism's
/// flat-to-circle gap (plus a tenth of the slop) of the prism's own deepest point: the
/// contact is then a face contact, and its points are the cylinder's rim points below
/// that face (as against a plane), ids `0x100 · (face + 1) + k`, provided every one of
/// them projects inside the face. Otherwise (edges, vertices, a cylinder overhanging the
/// face, a face smaller than a flat cap) the prism manifold stands. This is what lets a cylinder roll smoothly on a box or hull and stand on a cap
/// with four fixed points.
pub fn refine_cylinder_on_hull_face(
    a: &Cylinder,
    xf_a: &Transform,
    b: &HullView,
    xf_b: &Transform,
    prism: Manifold,
    speculative: f32,
) -> Manifold {
    exact_face_contact(a, xf_a, b, xf_b, &prism, speculative).unwrap_or(prism)
}

/// Two cylinders, each with its transform and prism: A's exact rim on a face of B's prism, else B's exact rim on a face of
/// A's prism (ids with bit 15 set), else the prisms' manifold. Either cylinder lying on
/// the other's cap rests on its round side.
pub fn refine_cylinders(
    (a, xf_a, ha): (&Cylinder, &Transform, &HullView),
    (b, xf_b, hb): (&Cylinder, &Transform, &HullView),
    prism: Manifold,
    speculative: f32,
) -> Manifold {
    if let Some(m) = exact_face_contact(a, xf_a, hb, xf_b, &prism, speculative) {
        return m;
    }
    let mut flipped = prism;
    flipped.normal = -prism.normal;
    if let Some(mut m) = exact_face_contact(b, xf_b, ha, xf_a, &flipped, speculative) {
        m.normal = -m.normal;
        for p in &mut m.points[..m.count as usize] {
            p.id |= 0x8000;
        }
        return m;
    }
    prism
}

fn exact_face_contact(
    a: &Cylinder,
    xf_a: &Transform,
    b: &HullView,
    xf_b: &Transform,
    prism: &Manifold,
    speculative: f32,
) -> Option<Manifold> {
    if prism.count == 0 || !hull_fits(b) {
        return None;
    }
    let mut prism_sep = f32::MAX;
    for p in &prism.points[..prism.count as usize] {
        if p.separation < prism_sep {
            prism_sep = p.separation;
        }
    }
    let axis = (xf_a.q * a.rotation).rotate(Vec3::Y);
    let center = xf_a.apply(a.center);
    let mut best = (f32::MIN, usize::MAX);
    for (f, pl) in b.planes.iter().enumerate() {
        let n = xf_b.q.rotate(pl.normal);
        let d = pl.offset + n.dot(xf_b.p);
        let na = n.dot(axis);
        let support =
            a.half_height * abs(na) + a.radius * sqrt(crate::math::max(0.0, 1.0 - na * na));
        let sep = n.dot(center) - d - support;
        if sep > best.0 {
            best = (sep, f);
        }
    }
    let (sep, f) = best;
    if f == usize::MAX || sep < prism_sep - prism_gap(a.radius) - 0.1 * super::LINEAR_SLOP {
        return None;
    }
    let pl = b.planes[f];
    let w = WorldPlane {
        n: xf_b.q.rotate(pl.normal),
        d: pl.offset + xf_b.q.rotate(pl.normal).dot(xf_b.p),
    };
    let mut m = Manifold {
        normal: -w.n,
        ..Manifold::default()
    };
    for &(p, s, id) in rim_points(&w, a, xf_a).iter().take(4) {
        if !within_reach(s, speculative) {
            continue;
        }
        // A rim point off the face: the face does not carry the cylinder alone (it
        // overhangs an edge, or the face is smaller than a flat cap), so the prism's
        // clipped manifold stands.
        let on_face = xf_b.apply_inv(p - w.n * s);
        if !super::hull_sphere::face_contains(b, f, on_face) {
            return None;
        }
        let n = m.count as usize;
        m.points[n] = ManifoldPoint {
            point: p - w.n * (0.5 * s),
            separation: s,
            id: 0x100 * (f as u32 + 1) + id,
        };
        m.count += 1;
    }
    if m.count == 0 { None } else { Some(m) }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::Quat;

    fn ray(o: Vec3, t: Vec3) -> RayInput {
        RayInput {
            origin: o,
            translation: t,
            max_fraction: 1.0,
        }
    }

    #[test]
    fn ray_enters_a_cylinder_side_and_cap_where_the_closed_form_says() {
        let c = Cylinder {
            center: Vec3::ZERO,
            rotation: Quat::IDENTITY,
            half_height: 1.0,
            radius: 0.5,
        };
        let hit = ray_cast_cylinder(
            &c,
            &Transform::IDENTITY,
            &ray(Vec3::new(-2.0, 0.3, 0.0), Vec3::new(4.0, 0.0, 0.0)),
        )
        .unwrap();
        assert!((hit.fraction - 1.5 / 4.0).abs() < 1e-6);
        assert!((hit.normal - Vec3::new(-1.0, 0.0, 0.0)).length() < 1e-6);
        let hit = ray_cast_cylinder(
            &c,
            &Transform::IDENTITY,
            &ray(Vec3::new(0.2, 3.0, 0.1), Vec3::new(0.0, -4.0, 0.0)),
        )
        .unwrap();
        assert!((hit.fraction - 0.5).abs() < 1e-6);
        assert_eq!(hit.normal, Vec3::Y);
        // From inside: no entry.
        assert!(
            ray_cast_cylinder(
                &c,
                &Transform::IDENTITY,
                &ray(Vec3::ZERO, Vec3::new(4.0, 0.0, 0.0))
            )
            .is_none()
        );
    }

    #[test]
    fn a_box_face_carries_a_lying_cylinder_on_its_exact_rim() {
        use crate::collide::SatCache;
        use crate::geometry::cylinder::CylinderHull;
        use crate::geometry::hull::BoxHull;
        let ground = BoxHull::new(Vec3::new(5.0, 1.0, 5.0), Vec3::ZERO, Quat::IDENTITY);
        let c = Cylinder::default();
        let prism = CylinderHull::new(&c);
        // Lying along z with a prism vertex at the bottom, 1 cm into the box's top.
        let xf_c = Transform::new(
            Vec3::new(0.3, 1.49, 0.0),
            Quat::from_axis_angle(Vec3::X, 0.5 * crate::math::PI),
        );
        let mut cache = SatCache::default();
        let m0 = super::super::collide_hulls(
            &prism.view(),
            &xf_c,
            &ground.view(),
            &Transform::IDENTITY,
            0.02,
            &mut cache,
        );
        let m =
            refine_cylinder_on_hull_face(&c, &xf_c, &ground.view(), &Transform::IDENTITY, m0, 0.02);
        assert_eq!(m.count, 2);
        assert!((m.normal + Vec3::Y).length() < 1e-6);
        for p in &m.points[..2] {
            assert!((p.separation + 0.01).abs() < 1e-5, "{p:?}");
            // The +y face is box face 3.
            assert!(p.id == 0x400 || p.id == 0x404, "{p:?}");
        }
    }

    #[test]
    fn plane_holds_a_flat_cylinder_on_four_points_and_a_lying_one_on_two() {
        let ground = PlaneShape::default();
        let c = Cylinder::default();
        let standing = Transform::new(Vec3::new(0.0, 0.49, 0.0), Quat::IDENTITY);
        let m = collide_plane_and_cylinder(&ground, &Transform::IDENTITY, &c, &standing, 0.02);
        assert_eq!(m.count, 4);
        for p in &m.points {
            assert!((p.separation + 0.01).abs() < 1e-6);
            assert!(p.id < 4);
        }
        let lying = Transform::new(
            Vec3::new(0.0, 0.49, 0.0),
            Quat::from_axis_angle(Vec3::X, 0.5 * crate::math::PI),
        );
        let m = collide_plane_and_cylinder(&ground, &Transform::IDENTITY, &c, &lying, 0.02);
        assert_eq!(m.count, 2);
        assert_eq!((m.points[0].id, m.points[1].id), (0, 4));
        assert!((m.points[0].separation + 0.01).abs() < 1e-5);
    }
}
