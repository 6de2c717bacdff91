//! Hull against capsule.
//!
//! The capsule's segment (its core) is tested against the hull by separating axes: the
//! hull's faces, and the cross products of hull edges with the segment that pass the Gauss
//! map test. While the core is apart from the hull, the exact closest points decide: when
//! a face plane realises the distance the segment is clipped to that face (two points when
//! it lies flat), otherwise one point. Once the core sinks into the hull, the axis of least
//! penetration decides, faces preferred.

use super::hull_sphere::face_contains;
use super::sat::{ABS_TOLERANCE, EDGE_PARALLEL_SIN_SQ, EDGE_REL_TOLERANCE};
use super::segment::closest_between;
use super::{LINEAR_SLOP, Manifold, hull_fits, within_reach};
use crate::geometry::Capsule;
use crate::geometry::hull::{HullView, MAX_HULL_FACES};
use crate::math::{Transform, Vec3, sqrt};

/// A face plane that comes within this of the true distance is the contact face: the
/// closest points lie over that face.
const FACE_TOLERANCE: f32 = 0.1 * LINEAR_SLOP;

/// Clipped ends closer than this are one point.
const SAME_POINT: f32 = 0.1 * LINEAR_SLOP;

/// Id of the one point of a vertex or edge contact. Face contacts use
/// `face << 16 | (clipping half-edge + 1) << 1 | end` (0 for an unclipped end), below this.
const SINGLE_ID: u32 = 1 << 31;

/// The manifold of a hull A and a capsule B.
///
/// A capsule lying on a face gives two points, its segment clipped to the face; one
/// standing on its end, or touching an edge or corner, gives one.
pub fn collide_hull_and_capsule(
    a: &HullView,
    xf_a: &Transform,
    b: &Capsule,
    xf_b: &Transform,
    speculative_distance: f32,
) -> Manifold {
    if !hull_fits(a) {
        return Manifold::default();
    }
    let xf = xf_a.inv_mul(xf_b);
    let p1 = xf.apply(b.center1);
    let p2 = xf.apply(b.center2);
    let d = p2 - p1;
    let r = b.radius;
    // Core separations beyond this leave the surfaces beyond the speculative distance.
    let limit = r + speculative_distance;

    // Face axes: the lower end's height above each face. `highest` keeps the higher end's
    // height for pruning rims in the closest-point search.
    let mut highest = [0.0f32; MAX_HULL_FACES];
    let mut face = 0;
    let mut face_sep = -f32::MAX;
    for (i, plane) in a.planes.iter().enumerate() {
        let h1 = plane.distance(p1);
        let h2 = plane.distance(p2);
        let (low, high) = if h2 < h1 { (h2, h1) } else { (h1, h2) };
        highest[i] = high;
        if low > face_sep {
            face_sep = low;
            face = i;
            if face_sep > limit {
                return Manifold::default();
            }
        }
    }
    let edge = query_segment_edges(a, p1, d, limit);
    if edge.separation > limit {
        return Manifold::default();
    }

    let plane = a.planes[face];
    let low_end = if plane.distance(p2) < plane.distance(p1) {
        p2
    } else {
        p1
    };
    if face_sep > 0.0 || edge.separation > 0.0 {
        // The core is apart from the hull.
        if face_sep > 0.0 && face_contains(a, face, low_end) {
            // The lower end is straight above the face: the face plane is the distance.
            if let Some(m) = clip_to_face(a, face, p1, p2, r, xf_a, speculative_distance) {
                return m;
            }
        }
        let heights = &highest[..a.planes.len()];
        let (zs, zh, d2) = closest_segment_hull(a, p1, p2, heights);
        if d2 == f32::MAX {
            return lowest_end_contact(a, face, low_end, r, xf_a, speculative_distance);
        }
        let distance = sqrt(d2);
        if !within_reach(distance - r, speculative_distance) {
            return Manifold::default();
        }
        if distance <= face_sep + FACE_TOLERANCE {
            if let Some(m) = clip_to_face(a, face, p1, p2, r, xf_a, speculative_distance) {
                if m.count > 0 {
                    return m;
                }
            }
        }
        let (mut normal, distance) = (zs - zh).normalize_and_length();
        if distance == 0.0 {
            normal = if edge.separation > face_sep {
                edge.normal
            } else {
                plane.normal
            };
        }
        let separation = distance - r;
        let point = zh.mul_add(0.5 * separation, normal);
        return Manifold::single(xf_a, normal, point, separation, SINGLE_ID);
    }

    if edge.separation > EDGE_REL_TOLERANCE * face_sep + ABS_TOLERANCE {
        // The core crosses a hull edge, and that edge axis is clearly the shallowest.
        let e = a.edges[edge.index];
        let v0 = a.vertices[e.origin as usize];
        let dir = a.vertices[a.edges[edge.index ^ 1].origin as usize] - v0;
        let (s, _) = closest_between(v0, dir, p1, d);
        let on_edge = v0.mul_add(s, dir);
        let separation = edge.separation - r;
        let point = on_edge.mul_add(0.5 * separation, edge.normal);
        return Manifold::single(xf_a, edge.normal, point, separation, SINGLE_ID);
    }
    match clip_to_face(a, face, p1, p2, r, xf_a, speculative_distance) {
        Some(m) if m.count > 0 => m,
        _ => lowest_end_contact(a, face, low_end, r, xf_a, speculative_distance),
    }
}

/// The best edge axis of the hull against a segment.
struct SegmentEdgeQuery {
    /// Even half-edge index of the hull edge.
    index: usize,
    /// Core separation along the axis.
    separation: f32,
    /// Unit axis, out of the hull.
    normal: Vec3,
}

/// Separation of the segment `p1 + t d` from the hull along each `edge × d` that is a face
/// of their Minkowski difference; stops as soon as one exceeds `limit`.
fn query_segment_edges(a: &HullView, p1: Vec3, d: Vec3, limit: f32) -> SegmentEdgeQuery {
    let mut best = SegmentEdgeQuery {
        index: 0,
        separation: -f32::MAX,
        normal: Vec3::ZERO,
    };
    let dd = d.dot(d);
    for (k, pair) in a.edges.chunks_exact(2).enumerate() {
        let (e, twin) = (pair[0], pair[1]);
        let u = a.planes[e.face as usize].normal;
        let v = a.planes[twin.face as usize].normal;
        // The segment's Gauss map is the great circle normal to d; the edge's arc from u
        // to v crosses it only if u and v lie on opposite sides. A zero d never crosses.
        let crosses = u.dot(d) * v.dot(d) < 0.0;
        if !crosses {
            continue;
        }
        let v0 = a.vertices[e.origin as usize];
        let dir = a.vertices[twin.origin as usize] - v0;
        let n = dir.cross(d);
        let l2 = n.length_squared();
        if l2 < EDGE_PARALLEL_SIN_SQ * dir.dot(dir) * dd {
            continue;
        }
        let mut n = n * (1.0 / sqrt(l2));
        // The crossing lies on the short arc between u and v.
        if n.dot(u + v) < 0.0 {
            n = -n;
        }
        let s = n.dot(p1 - v0);
        if s > best.separation {
            best = SegmentEdgeQuery {
                index: 2 * k,
                separation: s,
                normal: n,
            };
            if s > limit {
                break;
            }
        }
    }
    best
}

/// Closest points `(on segment, on hull, squared distance)` of a segment apart from the
/// hull; the squared distance is `f32::MAX` if no candidate was found. `heights[f]` is
/// the segment's highest point above face `f`: only rims of faces with a positive height
/// can hold the closest point. Ties keep the first candidate (ends, then edges in order).
fn closest_segment_hull(a: &HullView, p1: Vec3, p2: Vec3, heights: &[f32]) -> (Vec3, Vec3, f32) {
    let mut best = (Vec3::ZERO, Vec3::ZERO, f32::MAX);
    // An end straight above a face: the closest point inside a face lies below an end
    // (a segment parallel to the face reaches its rim too, and the edges cover that).
    for end in [p1, p2] {
        let mut face = 0;
        let mut h = -f32::MAX;
        for (i, plane) in a.planes.iter().enumerate() {
            let hi = plane.distance(end);
            if hi > h {
                h = hi;
                face = i;
            }
        }
        if h > 0.0 && h * h < best.2 && face_contains(a, face, end) {
            best = (end, end.mul_sub(h, a.planes[face].normal), h * h);
        }
    }
    let d = p2 - p1;
    for pair in a.edges.chunks_exact(2) {
        let (e, twin) = (pair[0], pair[1]);
        if heights[e.face as usize] <= 0.0 && heights[twin.face as usize] <= 0.0 {
            continue;
        }
        let v0 = a.vertices[e.origin as usize];
        let dir = a.vertices[twin.origin as usize] - v0;
        let (s, t) = closest_between(v0, dir, p1, d);
        let zh = v0.mul_add(s, dir);
        let zs = p1.mul_add(t, d);
        let d2 = (zs - zh).length_squared();
        if d2 < best.2 {
            best = (zs, zh, d2);
        }
    }
    best
}

/// The segment clipped to the prism over face `face`: up to two points, each kept if its
/// separation is below `speculative_distance`. `None` if no part of the segment is over
/// the face.
fn clip_to_face(
    a: &HullView,
    face: usize,
    p1: Vec3,
    p2: Vec3,
    r: f32,
    xf_a: &Transform,
    speculative_distance: f32,
) -> Option<Manifold> {
    let plane = a.planes[face];
    let n = plane.normal;
    // Parameter along the segment and the clipping half-edge + 1 (0: the segment's end).
    let mut lo = (0.0f32, 0u32);
    let mut hi = (1.0f32, 0u32);
    let start = a.face_edges[face] as usize;
    let mut e = start;
    for _ in 0..a.edges.len() {
        let next = a.edges[e].next as usize;
        let v0 = a.vertices[a.edges[e].origin as usize];
        let v1 = a.vertices[a.edges[next].origin as usize];
        let side = (v1 - v0).cross(n);
        let da = side.dot(p1 - v0);
        let db = side.dot(p2 - v0);
        if da > 0.0 && db > 0.0 {
            return None;
        }
        // Signs differ in both branches, so da - db is not zero.
        if da > 0.0 {
            let t = da / (da - db);
            if t > lo.0 {
                lo = (t, e as u32 + 1);
            }
        } else if db > 0.0 {
            let t = da / (da - db);
            if t < hi.0 {
                hi = (t, e as u32 + 1);
            }
        }
        if next == start {
            break;
        }
        e = next;
    }
    if lo.0 > hi.0 {
        return None;
    }
    let d = p2 - p1;
    let span = hi.0 - lo.0;
    let ends = if span * span * d.dot(d) <= SAME_POINT * SAME_POINT {
        1
    } else {
        2
    };
    let mut m = Manifold {
        normal: xf_a.q.rotate(n),
        ..Manifold::default()
    };
    for (k, (t, clip)) in [lo, hi].into_iter().enumerate().take(ends) {
        let q = p1.mul_add(t, d);
        let h = plane.distance(q);
        let separation = h - r;
        if separation < speculative_distance {
            // Midway between the face (h below q) and the capsule's surface (r below q).
            let point = q.mul_sub(0.5 * (h + r), n);
            let id = (face as u32) << 16 | clip << 1 | k as u32;
            m.push(xf_a, point, separation, id);
        }
    }
    Some(m)
}

/// One point under the end of the segment lowest over face `face`: the fallback when
/// clipping finds nothing over the face.
fn lowest_end_contact(
    a: &HullView,
    face: usize,
    end: Vec3,
    r: f32,
    xf_a: &Transform,
    speculative_distance: f32,
) -> Manifold {
    let plane = a.planes[face];
    let h = plane.distance(end);
    let separation = h - r;
    if !within_reach(separation, speculative_distance) {
        return Manifold::default();
    }
    let point = end.mul_sub(0.5 * (h + r), plane.normal);
    Manifold::single(xf_a, plane.normal, point, separation, SINGLE_ID)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::hull::BoxHull;
    use crate::math::Quat;

    const SPEC: f32 = 0.02;

    fn near(a: Vec3, b: Vec3) -> bool {
        (a - b).length() < 1e-5
    }

    fn unit_box() -> BoxHull {
        BoxHull::new(Vec3::ONE, Vec3::ZERO, Quat::IDENTITY)
    }

    fn capsule(c1: Vec3, c2: Vec3, radius: f32) -> Capsule {
        Capsule {
            center1: c1,
            center2: c2,
            radius,
        }
    }

    fn collide(c: &Capsule) -> Manifold {
        let h = unit_box();
        collide_hull_and_capsule(
            &h.view(),
            &Transform::IDENTITY,
            c,
            &Transform::IDENTITY,
            SPEC,
        )
    }

    #[test]
    fn capsule_lying_flat_on_a_face_touches_under_both_ends() {
        let c = capsule(Vec3::new(-0.5, 1.45, 0.2), Vec3::new(0.5, 1.45, 0.2), 0.5);
        let m = collide(&c);
        assert_eq!(m.count, 2);
        assert_eq!(m.normal, Vec3::Y);
        assert!(near(m.points[0].point, Vec3::new(-0.5, 0.975, 0.2)));
        assert!(near(m.points[1].point, Vec3::new(0.5, 0.975, 0.2)));
        for p in &m.points[..2] {
            assert!((p.separation + 0.05).abs() < 1e-6);
        }
        assert_ne!(m.points[0].id, m.points[1].id);
    }

    #[test]
    fn capsule_overhanging_a_face_is_clipped_at_the_rim() {
        let c = capsule(Vec3::new(0.5, 1.45, 0.0), Vec3::new(2.5, 1.45, 0.0), 0.5);
        let m = collide(&c);
        assert_eq!(m.count, 2);
        assert_eq!(m.normal, Vec3::Y);
        assert!(near(m.points[0].point, Vec3::new(0.5, 0.975, 0.0)));
        assert!(near(m.points[1].point, Vec3::new(1.0, 0.975, 0.0)));
        // Both ends overhanging: clipped at both rims.
        let c = capsule(Vec3::new(-2.0, 1.45, 0.0), Vec3::new(2.0, 1.45, 0.0), 0.5);
        let m = collide(&c);
        assert_eq!(m.count, 2);
        assert!(near(m.points[0].point, Vec3::new(-1.0, 0.975, 0.0)));
        assert!(near(m.points[1].point, Vec3::new(1.0, 0.975, 0.0)));
    }

    #[test]
    fn capsule_standing_on_its_end_touches_at_one_point() {
        let c = capsule(Vec3::new(0.2, 1.4, -0.3), Vec3::new(0.2, 3.4, -0.3), 0.5);
        let m = collide(&c);
        assert_eq!(m.count, 1);
        assert_eq!(m.normal, Vec3::Y);
        assert!((m.points[0].separation + 0.1).abs() < 1e-6);
        assert!(near(m.points[0].point, Vec3::new(0.2, 0.95, -0.3)));
    }

    #[test]
    fn capsule_along_a_box_edge_touches_the_edge_at_one_point() {
        let c = capsule(Vec3::new(1.3, 1.4, -0.5), Vec3::new(1.3, 1.4, 0.5), 0.6);
        let m = collide(&c);
        assert_eq!(m.count, 1);
        assert!(near(m.normal, Vec3::new(0.6, 0.8, 0.0)));
        assert!((m.points[0].separation + 0.1).abs() < 1e-6);
        assert!((m.points[0].point.x - 0.97).abs() < 1e-5);
        assert!((m.points[0].point.y - 0.96).abs() < 1e-5);
    }

    #[test]
    fn capsule_with_its_core_sunk_into_a_face_keeps_two_points() {
        let c = capsule(Vec3::new(-0.5, 0.9, 0.0), Vec3::new(0.5, 0.9, 0.0), 0.5);
        let m = collide(&c);
        assert_eq!(m.count, 2);
        assert_eq!(m.normal, Vec3::Y);
        for p in &m.points[..2] {
            assert!((p.separation + 0.6).abs() < 1e-6);
            assert!((p.point.y - 0.7).abs() < 1e-6);
        }
    }

    #[test]
    fn capsule_core_cutting_a_box_edge_pushes_out_along_the_edge_axis() {
        // Across the edge x = y = 1, its core 0.05 inside the box.
        let k = core::f32::consts::FRAC_1_SQRT_2;
        let n = Vec3::new(k, k, 0.0);
        let mid = Vec3::ONE.mul_sub(0.05, n) - Vec3::new(0.0, 0.0, 1.0);
        let along = Vec3::new(k, -k, 0.0);
        let c = capsule(mid - along, mid + along, 0.1);
        let m = collide(&c);
        assert_eq!(m.count, 1);
        assert!(near(m.normal, n));
        assert!((m.points[0].separation + 0.15).abs() < 1e-5);
        assert!(near(
            m.points[0].point,
            Vec3::new(1.0, 1.0, 0.0).mul_sub(0.075, n)
        ));
    }

    #[test]
    fn capsule_beyond_the_speculative_distance_gives_no_points() {
        let c = capsule(Vec3::new(-0.5, 1.53, 0.0), Vec3::new(0.5, 1.53, 0.0), 0.5);
        assert_eq!(collide(&c).count, 0);
        let c = capsule(Vec3::new(1.3, 1.45, -0.5), Vec3::new(1.3, 1.45, 0.5), 0.5);
        assert_eq!(collide(&c).count, 0);
        let c = capsule(Vec3::new(-0.5, 1.51, 0.0), Vec3::new(0.5, 1.51, 0.0), 0.5);
        let m = collide(&c);
        assert_eq!(m.count, 2);
        assert!(m.points[0].separation > 0.0);
    }

    #[test]
    fn tilted_capsule_keeps_only_the_end_within_reach() {
        // One end 0.4 above the face, the other 0.6: only the low end is within reach.
        let c = capsule(Vec3::new(-0.5, 1.4, 0.0), Vec3::new(0.5, 1.6, 0.0), 0.5);
        let m = collide(&c);
        assert_eq!(m.count, 1);
        assert!(near(m.points[0].point, Vec3::new(-0.5, 0.95, 0.0)));
    }

    #[test]
    fn zero_length_capsule_on_a_hull_is_a_sphere() {
        let c = capsule(Vec3::new(0.3, 1.4, 0.0), Vec3::new(0.3, 1.4, 0.0), 0.5);
        let m = collide(&c);
        assert_eq!(m.count, 1);
        assert_eq!(m.normal, Vec3::Y);
        assert!((m.points[0].separation + 0.1).abs() < 1e-6);
        let c = capsule(Vec3::new(1.3, 1.4, 0.0), Vec3::new(1.3, 1.4, 0.0), 0.6);
        let m = collide(&c);
        assert_eq!(m.count, 1);
        assert!(near(m.normal, Vec3::new(0.6, 0.8, 0.0)));
    }
}
