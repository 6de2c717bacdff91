//! Hull against hull: separating axes with a cached axis, then a face contact (the
//! incident face clipped to the reference face) or an edge contact (one point).

use super::clip::{deepest_vertex_contact, face_contact};
use super::sat::{
    ABS_TOLERANCE, EDGE_REL_TOLERANCE, EdgeQuery, FACE_REL_TOLERANCE, cached_separation,
    edge_pair_query, guess_axis, query_axes, query_axes_pruned, to_frame,
};
use super::segment::closest_between;
use super::{LINEAR_SLOP, Manifold, SatCache, hull_fits, within_reach};
use crate::geometry::hull::{HullView, MAX_HULL_VERTICES};
use crate::math::{Transform, Vec3, max};

/// Hulls of at most this many vertices collide with small buffers.
const SMALL_HULL: usize = 8;

/// Pairs with more half-edge pairs than this (a box against a box has 24 × 24) take the
/// pruned separating-axis test; below, measuring every axis costs less than the bounds.
const PRUNE_ABOVE_HALF_EDGE_PAIRS: usize = 24 * 24;

/// Id flag of an edge contact's point: `1 << 30 | half-edge of A << 9 | half-edge of B`.
const EDGE_ID: u32 = 1 << 30;

/// The manifold of two convex hulls.
///
/// Tests the axis in `cache` first: if it still separates by more than
/// `speculative_distance`, returns no points at once and leaves the cache as it is. If it
/// separates within a linear slop of what the last full test found, the contact is rebuilt
/// on the cached face or edge pair (when that still gives points). Otherwise runs the full
/// separating axis test (faces of A, faces of B, edge pairs pruned on the Gauss map),
/// stopping at the first axis that separates by more than `speculative_distance`; past
/// box-sized pairs it measures only the axes that the points deepest along the cached axis
/// leave able to win, with the same answer (`sat::query_axes_pruned` says why). Faces
/// are preferred over edges and A's faces over B's within small tolerances, so resting
/// hulls keep their reference face. The axis found, with its separation, is written back
/// to `cache`.
///
/// Face contacts clip the incident polygon to the reference face and keep up to four
/// points, deepest first; a point's id packs `flip << 31 | reference face << 20 | the two
/// clipping lines` (10 bits each: an incident half-edge, or `0x200 |` a reference
/// half-edge). Edge contacts give one point between the closest points of the two edges,
/// id `1 << 30 | half-edge of A << 9 | half-edge of B`.
///
/// ```
/// use maul3d::collide::{SatCache, collide_hulls};
/// use maul3d::geometry::hull::BoxHull;
/// use maul3d::math::{Quat, Transform, Vec3};
///
/// let ground = BoxHull::new(Vec3::new(5.0, 0.5, 5.0), Vec3::ZERO, Quat::IDENTITY);
/// let cube = BoxHull::new(Vec3::splat(0.5), Vec3::ZERO, Quat::IDENTITY);
/// let xf_a = Transform::new(Vec3::new(0.0, -0.5, 0.0), Quat::IDENTITY);
/// let xf_b = Transform::new(Vec3::new(0.0, 0.49, 0.0), Quat::IDENTITY);
/// let mut cache = SatCache::default();
/// let m = collide_hulls(&ground.view(), &xf_a, &cube.view(), &xf_b, 0.02, &mut cache);
/// assert_eq!(m.count, 4);
/// assert_eq!(m.normal, Vec3::Y);
/// ```
pub fn collide_hulls(
    a: &HullView,
    xf_a: &Transform,
    b: &HullView,
    xf_b: &Transform,
    speculative_distance: f32,
    cache: &mut SatCache,
) -> Manifold {
    if !hull_fits(a) || !hull_fits(b) {
        return Manifold::default();
    }
    let spec = speculative_distance;
    // B in A's frame, and A in B's.
    let xf = xf_a.inv_mul(xf_b);
    let xf_ba = xf_b.inv_mul(xf_a);

    // Piles are mostly pairs whose bounds overlap but whose shapes stay apart: last step's
    // axis usually still separates, at the cost of one projection.
    let cached = cached_separation(cache, a, b, &xf);
    if let Some(s) = cached {
        if s > spec {
            return Manifold::default();
        }
    }

    // Buffers for the vertices mapped into the other's frame: boxes (most pairs) need
    // eight, and clearing room for the largest hull would cost more than the pair.
    let mut small = [[Vec3::ZERO; SMALL_HULL]; 2];
    let mut large;
    let [vb_buffer, va_buffer]: [&mut [Vec3]; 2] =
        if a.vertices.len() <= SMALL_HULL && b.vertices.len() <= SMALL_HULL {
            let [vb, va] = &mut small;
            [vb, va]
        } else {
            large = [[Vec3::ZERO; MAX_HULL_VERTICES]; 2];
            let [vb, va] = &mut large;
            [vb, va]
        };
    let vb = to_frame(&xf, b.vertices, vb_buffer);

    // Resting contacts: while the cached axis separates within a linear slop of what the
    // full test found, rebuild the contact on the cached features (as Box3D does).
    if let Some(s) = cached {
        let found = f32::from_bits(cache.separation_bits);
        if (s - found).abs() < LINEAR_SLOP {
            let reused = match cache.kind {
                SatCache::FACE_A => {
                    let face = cache.index_a as usize;
                    face_contact(a, face, b, vb, xf.q, xf_a, false, spec)
                }
                SatCache::FACE_B => {
                    let va = to_frame(&xf_ba, a.vertices, va_buffer);
                    let face = cache.index_b as usize;
                    face_contact(b, face, a, va, xf_ba.q, xf_b, true, spec)
                }
                _ => reuse_edges(a, b, vb, &xf, cache, xf_a, spec),
            };
            if let Some(m) = reused {
                if m.count > 0 {
                    return m;
                }
            }
        }
    }

    // Small pairs (boxes) measure every axis; larger ones only those that can win, with
    // the same answer.
    let axes = if a.edges.len() * b.edges.len() <= PRUNE_ABOVE_HALF_EDGE_PAIRS {
        query_axes(a, b, vb, &xf, &xf_ba, va_buffer, spec)
    } else {
        let axis = guess_axis(cache, a, b, &xf);
        query_axes_pruned(a, b, vb, &xf, &xf_ba, va_buffer, axis, spec)
    };
    let face_a = axes.face_a;
    if face_a.separation > spec {
        *cache = face_cache(SatCache::FACE_A, face_a.index, face_a.separation);
        return Manifold::default();
    }
    let va = &va_buffer[..a.vertices.len()];
    let Some(face_b) = axes.face_b else {
        return Manifold::default();
    };
    if face_b.separation > spec {
        *cache = face_cache(SatCache::FACE_B, face_b.index, face_b.separation);
        return Manifold::default();
    }

    let Some(edge) = axes.edge else {
        return Manifold::default();
    };
    let edge_cache = SatCache {
        kind: SatCache::EDGES,
        index_a: edge.index_a as u16,
        index_b: edge.index_b as u16,
        separation_bits: edge.separation.to_bits(),
    };
    if edge.separation > spec {
        *cache = edge_cache;
        return Manifold::default();
    }

    let best_face = max(face_a.separation, face_b.separation);
    if edge.separation > EDGE_REL_TOLERANCE * best_face + ABS_TOLERANCE {
        *cache = edge_cache;
        edge_contact(a, b, vb, &edge, xf_a, spec, false).unwrap_or_default()
    } else if face_b.separation > FACE_REL_TOLERANCE * face_a.separation + ABS_TOLERANCE {
        *cache = face_cache(SatCache::FACE_B, face_b.index, face_b.separation);
        face_contact(b, face_b.index, a, va, xf_ba.q, xf_b, true, spec)
            .unwrap_or_else(|| deepest_vertex_contact(b, face_b.index, va, xf_b, true, spec))
    } else {
        *cache = face_cache(SatCache::FACE_A, face_a.index, face_a.separation);
        face_contact(a, face_a.index, b, vb, xf.q, xf_a, false, spec)
            .unwrap_or_else(|| deepest_vertex_contact(a, face_a.index, vb, xf_a, false, spec))
    }
}

/// A cache entry for a face axis.
#[inline]
fn face_cache(kind: u8, index: usize, separation: f32) -> SatCache {
    let index = index as u16;
    let (index_a, index_b) = if kind == SatCache::FACE_A {
        (index, 0)
    } else {
        (0, index)
    };
    SatCache {
        kind,
        index_a,
        index_b,
        separation_bits: separation.to_bits(),
    }
}

/// The edge contact of the cached edge pair, if the pair still forms a face of the
/// Minkowski difference, its separation is within a linear slop of the cached one, and its
/// closest points lie inside both edges; otherwise `None`.
fn reuse_edges(
    a: &HullView,
    b: &HullView,
    vb: &[Vec3],
    xf: &Transform,
    cache: &SatCache,
    xf_a: &Transform,
    speculative_distance: f32,
) -> Option<Manifold> {
    let (i, j) = (cache.index_a as usize, cache.index_b as usize);
    let edge = edge_pair_query(a, b, vb, xf.q, i, j)?;
    if (edge.separation - f32::from_bits(cache.separation_bits)).abs() >= LINEAR_SLOP {
        return None;
    }
    edge_contact(a, b, vb, &edge, xf_a, speculative_distance, true)
}

/// One point midway between the closest points of the two edges of `edge`; `vb` holds
/// B's vertices in A's frame. With `inside`, `None` unless the closest points lie strictly
/// inside both edges (the cached features no longer touch otherwise).
fn edge_contact(
    a: &HullView,
    b: &HullView,
    vb: &[Vec3],
    edge: &EdgeQuery,
    xf_a: &Transform,
    speculative_distance: f32,
    inside: bool,
) -> Option<Manifold> {
    let (i, j) = (edge.index_a, edge.index_b);
    let pa = a.vertices[a.edges[i].origin as usize];
    let ea = a.vertices[a.edges[i ^ 1].origin as usize] - pa;
    let pb = vb[b.edges[j].origin as usize];
    let eb = vb[b.edges[j ^ 1].origin as usize] - pb;
    let (s, t) = closest_between(pa, ea, pb, eb);
    let interior = s > 0.0 && s < 1.0 && t > 0.0 && t < 1.0;
    if inside && !interior {
        return None;
    }
    let point = (pa.mul_add(s, ea) + pb.mul_add(t, eb)) * 0.5;
    let separation = edge.separation;
    if !within_reach(separation, speculative_distance) {
        return Some(Manifold {
            normal: xf_a.q.rotate(edge.normal),
            ..Manifold::default()
        });
    }
    let id = EDGE_ID | (i as u32) << 9 | j as u32;
    Some(Manifold::single(xf_a, edge.normal, point, separation, id))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::collide::test_hulls::{TestHull, check_conventions};
    use crate::geometry::hull::BoxHull;
    use crate::math::{Quat, sqrt};
    use core::f32::consts::{FRAC_1_SQRT_2, FRAC_PI_4, PI};

    const SPEC: f32 = 0.02;
    const GOLDEN: u64 = 0xd8511adc8dfc91ec;

    fn cube(half: f32) -> BoxHull {
        BoxHull::new(Vec3::splat(half), Vec3::ZERO, Quat::IDENTITY)
    }

    fn ground() -> BoxHull {
        BoxHull::new(Vec3::new(2.0, 0.5, 2.0), Vec3::ZERO, Quat::IDENTITY)
    }

    /// The ground's frame: its top face at y = 0.
    fn ground_xf() -> Transform {
        at(0.0, -0.5, 0.0)
    }

    fn at(x: f32, y: f32, z: f32) -> Transform {
        Transform::new(Vec3::new(x, y, z), Quat::IDENTITY)
    }

    fn posed(x: f32, y: f32, z: f32, axis: Vec3, angle: f32) -> Transform {
        Transform::new(Vec3::new(x, y, z), Quat::from_axis_angle(axis, angle))
    }

    fn collide(a: &HullView, xa: &Transform, b: &HullView, xb: &Transform) -> (Manifold, SatCache) {
        let mut cache = SatCache::default();
        let m = collide_hulls(a, xa, b, xb, SPEC, &mut cache);
        (m, cache)
    }

    fn near(a: Vec3, b: Vec3) -> bool {
        (a - b).length() < 1e-5
    }

    fn has_point(m: &Manifold, p: Vec3) -> bool {
        m.points[..m.count as usize]
            .iter()
            .any(|q| near(q.point, p))
    }

    fn bits(m: &Manifold) -> Vec<u32> {
        let mut v = vec![
            m.count,
            m.normal.x.to_bits(),
            m.normal.y.to_bits(),
            m.normal.z.to_bits(),
        ];
        for p in &m.points {
            v.extend([
                p.point.x.to_bits(),
                p.point.y.to_bits(),
                p.point.z.to_bits(),
            ]);
            v.extend([p.separation.to_bits(), p.id]);
        }
        v
    }

    #[test]
    fn hull_tables_follow_the_conventions_the_manifolds_rely_on() {
        let b = BoxHull::new(
            Vec3::new(0.5, 1.0, 2.0),
            Vec3::ONE,
            Quat::from_axis_angle(Vec3::X, 0.3),
        );
        check_conventions(&b.view());
        check_conventions(&TestHull::tetrahedron(1.0).view());
        check_conventions(&TestHull::prism(16, 1.0, 0.5).view());
        check_conventions(&TestHull::prism(3, 0.5, 1.0).view());
    }

    #[test]
    fn box_resting_on_a_bigger_box_touches_at_its_four_bottom_corners() {
        let (g, c) = (ground(), cube(0.5));
        let (m, cache) = collide(&g.view(), &ground_xf(), &c.view(), &at(0.1, 0.49, -0.2));
        assert_eq!(m.count, 4);
        assert_eq!(m.normal, Vec3::Y);
        for p in &m.points {
            assert!((p.separation + 0.01).abs() < 1e-5);
        }
        for (sx, sz) in [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)] {
            assert!(has_point(
                &m,
                Vec3::new(0.1 + 0.5 * sx, -0.005, -0.2 + 0.5 * sz)
            ));
        }
        // Reference: A's +y face (index 3).
        assert_eq!((cache.kind, cache.index_a), (SatCache::FACE_A, 3));
    }

    #[test]
    fn box_turned_45_degrees_on_a_bigger_box_touches_at_its_four_corners() {
        let (g, c) = (ground(), cube(0.5));
        let xb = posed(0.1, 0.49, -0.2, Vec3::Y, FRAC_PI_4);
        let (m, _) = collide(&g.view(), &ground_xf(), &c.view(), &xb);
        assert_eq!(m.count, 4);
        assert!(near(m.normal, Vec3::Y));
        let r = FRAC_1_SQRT_2;
        for (dx, dz) in [(r, 0.0), (-r, 0.0), (0.0, r), (0.0, -r)] {
            assert!(has_point(&m, Vec3::new(0.1 + dx, -0.005, -0.2 + dz)));
        }
    }

    #[test]
    fn equal_boxes_turned_45_degrees_keep_four_corners_of_the_clipped_octagon() {
        let c = cube(0.5);
        let xb = posed(0.0, 0.99, 0.0, Vec3::Y, FRAC_PI_4);
        let (m, _) = collide(&c.view(), &at(0.0, 0.0, 0.0), &c.view(), &xb);
        assert_eq!(m.count, 4);
        assert!(near(m.normal, Vec3::Y));
        let pts = &m.points[..4];
        for p in pts {
            assert!((p.separation + 0.01).abs() < 1e-5);
            let (x, y, z) = (p.point.x.abs(), p.point.y, p.point.z.abs());
            assert!((y - 0.495).abs() < 1e-5);
            // A corner of the octagon: on the square's rim and on the diamond's rim.
            assert!((x - 0.5).abs() < 1e-5 || (z - 0.5).abs() < 1e-5);
            assert!((x + z - FRAC_1_SQRT_2).abs() < 1e-5);
        }
        for i in 0..4 {
            for j in i + 1..4 {
                assert!((pts[i].point - pts[j].point).length() > 0.25);
                assert_ne!(pts[i].id, pts[j].id);
            }
        }
    }

    #[test]
    fn boxes_crossed_on_their_edges_touch_at_one_point() {
        let c = cube(0.5);
        let top = FRAC_1_SQRT_2;
        // A's top is an edge along x; B's bottom an edge along z, 0.01 into A's.
        let xa = posed(0.0, 0.0, 0.0, Vec3::X, FRAC_PI_4);
        let xb = posed(0.1, 2.0 * top - 0.01, 0.05, Vec3::Z, FRAC_PI_4);
        let (m, cache) = collide(&c.view(), &xa, &c.view(), &xb);
        assert_eq!(m.count, 1);
        assert!(near(m.normal, Vec3::Y));
        assert!((m.points[0].separation + 0.01).abs() < 1e-5);
        assert!(near(m.points[0].point, Vec3::new(0.1, top - 0.005, 0.0)));
        assert_eq!(m.points[0].id & EDGE_ID, EDGE_ID);
        assert_eq!(cache.kind, SatCache::EDGES);
    }

    #[test]
    fn boxes_apart_beyond_the_speculative_distance_give_no_points() {
        let c = cube(0.5);
        let (m, cache) = collide(
            &c.view(),
            &at(0.0, 0.0, 0.0),
            &c.view(),
            &at(0.0, 1.03, 0.0),
        );
        assert_eq!(m.count, 0);
        assert_eq!((cache.kind, cache.index_a), (SatCache::FACE_A, 3));
    }

    #[test]
    fn boxes_within_the_speculative_distance_give_points_with_positive_separation() {
        let c = cube(0.5);
        let (m, _) = collide(
            &c.view(),
            &at(0.0, 0.0, 0.0),
            &c.view(),
            &at(0.0, 1.01, 0.0),
        );
        assert_eq!(m.count, 4);
        for p in &m.points {
            assert!((p.separation - 0.01).abs() < 1e-5);
            assert!((p.point.y - 0.505).abs() < 1e-5);
        }
    }

    #[test]
    fn feature_ids_stay_the_same_when_a_box_moves_a_tiny_amount() {
        let (g, c) = (ground(), cube(0.5));
        let (m1, _) = collide(&g.view(), &ground_xf(), &c.view(), &at(0.1, 0.49, -0.2));
        let moved = Transform::new(
            Vec3::new(0.1001, 0.4899, -0.19995),
            Quat::from_axis_angle(Vec3::new(0.6, 0.0, 0.8), 1e-4),
        );
        let (m2, _) = collide(&g.view(), &ground_xf(), &c.view(), &moved);
        assert_eq!(m1.count, 4);
        assert_eq!(m2.count, 4);
        for i in 0..4 {
            assert_eq!(m1.points[i].id, m2.points[i].id);
        }
        let ids: Vec<u32> = m1.points.iter().map(|p| p.id).collect();
        for i in 0..4 {
            assert!(!ids[i + 1..].contains(&ids[i]));
        }

        let e = cube(0.5);
        let xa = posed(0.0, 0.0, 0.0, Vec3::X, FRAC_PI_4);
        let (m1, _) = collide(
            &e.view(),
            &xa,
            &e.view(),
            &posed(0.1, 1.4042, 0.05, Vec3::Z, FRAC_PI_4),
        );
        let (m2, _) = collide(
            &e.view(),
            &xa,
            &e.view(),
            &posed(0.1002, 1.4041, 0.0499, Vec3::Z, FRAC_PI_4 + 1e-4),
        );
        assert_eq!((m1.count, m2.count), (1, 1));
        assert_eq!(m1.points[0].id, m2.points[0].id);
    }

    #[test]
    fn equal_boxes_resting_and_jittering_keep_one_reference_face() {
        let c = cube(0.5);
        let v = c.view();
        let mut cache = SatCache::default();
        for k in 0..64 {
            // A fixed pseudo-random walk of small tilts and shifts.
            let f = |m: u32| ((k * m + 7) % 13) as f32 / 6.0 - 1.0;
            let q = Quat::from_axis_angle(Vec3::X, 0.002 * f(5))
                * Quat::from_axis_angle(Vec3::Z, 0.002 * f(11));
            let xb = Transform::new(Vec3::new(0.01 * f(3), 0.995 + 0.002 * f(7), 0.01 * f(9)), q);
            let m = collide_hulls(&v, &at(0.0, 0.0, 0.0), &v, &xb, SPEC, &mut cache);
            assert!(m.count >= 3, "step {k}: {} points", m.count);
            assert!(m.normal.y > 0.999);
            assert_eq!(
                (cache.kind, cache.index_a),
                (SatCache::FACE_A, 3),
                "step {k}"
            );
            for p in &m.points[..m.count as usize] {
                // Not flipped, and A's +y face as the reference.
                assert_eq!(p.id >> 20, 3, "step {k}");
            }
        }
    }

    #[test]
    fn a_separating_call_caches_its_axis_and_the_next_call_keeps_it() {
        let c = cube(0.5);
        let v = c.view();
        let mut cache = SatCache::default();
        let xb = at(0.0, 1.03, 0.0);
        let m = collide_hulls(&v, &at(0.0, 0.0, 0.0), &v, &xb, SPEC, &mut cache);
        assert_eq!(m.count, 0);
        let first = cache;
        assert_eq!((first.kind, first.index_a), (SatCache::FACE_A, 3));
        let m = collide_hulls(&v, &at(0.0, 0.0, 0.0), &v, &xb, SPEC, &mut cache);
        assert_eq!(m.count, 0);
        assert_eq!(cache, first);

        // Edge axes too: crossed edges 0.1 apart.
        let xa = posed(0.0, 0.0, 0.0, Vec3::X, FRAC_PI_4);
        let xb = posed(0.0, sqrt(2.0) + 0.1, 0.0, Vec3::Z, FRAC_PI_4);
        let mut cache = SatCache::default();
        let m = collide_hulls(&v, &xa, &v, &xb, SPEC, &mut cache);
        assert_eq!(m.count, 0);
        assert_eq!(cache.kind, SatCache::EDGES);
        let first = cache;
        let s = cached_separation(&cache, &v, &v, &xa.inv_mul(&xb)).unwrap();
        assert!((s - 0.1).abs() < 1e-5);
        let m = collide_hulls(&v, &xa, &v, &xb, SPEC, &mut cache);
        assert_eq!(m.count, 0);
        assert_eq!(cache, first);
    }

    #[test]
    fn a_cached_axis_that_still_separates_skips_the_full_test() {
        let c = cube(0.5);
        let v = c.view();
        // The full test would stop at A's +y face (3); the cache holds +x (5), which
        // separates too, so it must come back untouched.
        let mut cache = SatCache {
            kind: SatCache::FACE_A,
            index_a: 5,
            index_b: 0,
            ..SatCache::default()
        };
        let m = collide_hulls(
            &v,
            &at(0.0, 0.0, 0.0),
            &v,
            &at(3.0, 3.0, 0.0),
            SPEC,
            &mut cache,
        );
        assert_eq!(m.count, 0);
        assert_eq!((cache.kind, cache.index_a), (SatCache::FACE_A, 5));
        let mut fresh = SatCache::default();
        collide_hulls(
            &v,
            &at(0.0, 0.0, 0.0),
            &v,
            &at(3.0, 3.0, 0.0),
            SPEC,
            &mut fresh,
        );
        assert_eq!((fresh.kind, fresh.index_a), (SatCache::FACE_A, 3));
    }

    /// Collides along `poses` once with a cache kept from call to call and once with a
    /// fresh cache each time; returns both runs.
    fn with_and_without_cache(
        a: &HullView,
        xa: &Transform,
        b: &HullView,
        poses: &[Transform],
    ) -> (Vec<Vec<u32>>, Vec<Vec<u32>>) {
        let mut cache = SatCache::default();
        let kept = poses
            .iter()
            .map(|xb| bits(&collide_hulls(a, xa, b, xb, SPEC, &mut cache)))
            .collect();
        let fresh = poses
            .iter()
            .map(|xb| bits(&collide(a, xa, b, xb).0))
            .collect();
        (kept, fresh)
    }

    #[test]
    fn a_resting_contact_rebuilt_on_cached_features_matches_the_full_test() {
        let (g, c) = (ground(), cube(0.5));
        let poses: Vec<Transform> = (0..20)
            .map(|k| {
                let t = k as f32 * 1e-3;
                Transform::new(
                    Vec3::new(0.1 + t, 0.49 - 0.1 * t, -0.2),
                    Quat::from_axis_angle(Vec3::Y, 10.0 * t),
                )
            })
            .collect();
        let (kept, fresh) = with_and_without_cache(&g.view(), &ground_xf(), &c.view(), &poses);
        assert_eq!(kept, fresh);

        let e = cube(0.5);
        let xa = posed(0.0, 0.0, 0.0, Vec3::X, FRAC_PI_4);
        let poses: Vec<Transform> = (0..20)
            .map(|k| {
                let t = k as f32 * 1e-3;
                posed(0.1 + t, 1.4042 - 0.1 * t, 0.05, Vec3::Z, FRAC_PI_4 + t)
            })
            .collect();
        let (kept, fresh) = with_and_without_cache(&e.view(), &xa, &e.view(), &poses);
        assert_eq!(kept, fresh);
    }

    #[test]
    fn a_box_slid_off_its_support_drops_the_cached_face() {
        let (g, c) = (ground(), cube(0.5));
        // Resting on top, then beside the ground at the same height: the cached top face
        // still measures the same separation, but nothing of the box is over it.
        let poses = [at(1.2, 0.49, 0.0), at(2.505, 0.49, 0.0)];
        let (kept, fresh) = with_and_without_cache(&g.view(), &ground_xf(), &c.view(), &poses);
        assert_eq!(kept, fresh);
        let mut cache = SatCache::default();
        collide_hulls(
            &g.view(),
            &ground_xf(),
            &c.view(),
            &poses[0],
            SPEC,
            &mut cache,
        );
        let m = collide_hulls(
            &g.view(),
            &ground_xf(),
            &c.view(),
            &poses[1],
            SPEC,
            &mut cache,
        );
        assert!(near(m.normal, Vec3::X));
        assert_eq!((cache.kind, cache.index_a), (SatCache::FACE_A, 5));
    }

    #[test]
    fn a_contact_that_drifts_beyond_the_slop_runs_the_full_test() {
        let (g, c) = (ground(), cube(0.5));
        // Tipping onto an edge: the corner sinks further than the linear slop.
        let poses = [
            at(0.0, 0.49, 0.0),
            posed(0.0, 0.49, 0.0, Vec3::Z, 0.05),
            posed(0.0, 0.49, 0.0, Vec3::Z, 0.6),
        ];
        let (kept, fresh) = with_and_without_cache(&g.view(), &ground_xf(), &c.view(), &poses);
        assert_eq!(kept, fresh);
        // Crossed edges sliding apart along one edge until they no longer cross.
        let e = cube(0.5);
        let xa = posed(0.0, 0.0, 0.0, Vec3::X, FRAC_PI_4);
        let poses = [
            posed(0.1, 1.4042, 0.05, Vec3::Z, FRAC_PI_4),
            posed(0.6, 1.4042, 0.05, Vec3::Z, FRAC_PI_4),
        ];
        let (kept, fresh) = with_and_without_cache(&e.view(), &xa, &e.view(), &poses);
        assert_eq!(kept, fresh);
    }

    #[test]
    fn a_stale_cache_is_ignored_and_overwritten() {
        let (g, c) = (ground(), cube(0.5));
        for stale in [
            SatCache {
                kind: SatCache::FACE_A,
                index_a: 200,
                index_b: 0,
                ..SatCache::default()
            },
            SatCache {
                kind: SatCache::FACE_B,
                index_a: 0,
                index_b: 99,
                ..SatCache::default()
            },
            SatCache {
                kind: SatCache::EDGES,
                index_a: 500,
                index_b: 3,
                ..SatCache::default()
            },
            SatCache {
                kind: 77,
                index_a: 1,
                index_b: 1,
                ..SatCache::default()
            },
        ] {
            let mut cache = stale;
            let m = collide_hulls(
                &g.view(),
                &ground_xf(),
                &c.view(),
                &at(0.0, 0.49, 0.0),
                SPEC,
                &mut cache,
            );
            assert_eq!(m.count, 4);
            assert_eq!((cache.kind, cache.index_a), (SatCache::FACE_A, 3));
        }
    }

    #[test]
    fn tilted_box_on_its_edge_uses_the_lower_box_face_with_the_normal_from_a_to_b() {
        let (g, c) = (ground(), cube(0.5));
        let (s, co) = (0.5, 0.866_025_4);
        let low = 0.5 * s + 0.5 * co;
        let xa = posed(0.0, low - 0.01, 0.0, Vec3::Z, PI / 6.0);
        let (m, cache) = collide(&c.view(), &xa, &g.view(), &ground_xf());
        assert_eq!(cache.kind, SatCache::FACE_B);
        assert_eq!(m.count, 2);
        assert!(near(m.normal, -Vec3::Y));
        let x = -0.5 * co + 0.5 * s;
        for z in [-0.5, 0.5] {
            assert!(has_point(&m, Vec3::new(x, -0.005, z)));
        }
        for p in &m.points[..2] {
            assert!((p.separation + 0.01).abs() < 1e-5);
            assert_eq!(p.id >> 31, 1);
        }
    }

    #[test]
    fn tetrahedron_standing_on_a_box_touches_at_its_three_base_corners() {
        let (g, t) = (ground(), TestHull::tetrahedron(1.0));
        let base = 1.0 / 3.0;
        let (m, _) = collide(
            &g.view(),
            &ground_xf(),
            &t.view(),
            &at(0.0, base - 0.01, 0.0),
        );
        assert_eq!(m.count, 3);
        assert!(near(m.normal, Vec3::Y));
        for &v in &t.vertices[1..] {
            assert!(has_point(&m, Vec3::new(v.x, -0.005, v.z)));
        }
    }

    #[test]
    fn box_on_a_tetrahedron_apex_touches_at_one_point() {
        let (t, c) = (TestHull::tetrahedron(1.0), cube(0.5));
        let (m, _) = collide(
            &t.view(),
            &at(0.0, 0.0, 0.0),
            &c.view(),
            &at(0.05, 1.49, -0.05),
        );
        assert_eq!(m.count, 1);
        assert!(near(m.normal, Vec3::Y));
        assert!((m.points[0].separation + 0.01).abs() < 1e-5);
        assert!(near(m.points[0].point, Vec3::new(0.0, 0.995, 0.0)));
    }

    #[test]
    fn many_sided_prism_on_a_box_keeps_four_points_deepest_first() {
        let (g, p) = (ground(), TestHull::prism(16, 1.0, 0.5));
        // Tilted 0.01 rad about x: the rim at z = +1 sinks deepest.
        let xb = posed(0.0, 0.495, 0.0, Vec3::X, 0.01);
        let (m, _) = collide(&g.view(), &ground_xf(), &p.view(), &xb);
        assert_eq!(m.count, 4);
        assert!(near(m.normal, Vec3::Y));
        let pts = &m.points[..4];
        let deepest = pts[0].separation;
        for q in &pts[1..] {
            assert!(q.separation >= deepest);
        }
        assert!((pts[0].point.z - 1.0).abs() < 0.01);
        assert!((deepest + 0.015).abs() < 1e-3);
        // Then the farthest from it, across the rim.
        assert!((pts[1].point.z + 1.0).abs() < 0.01);
        // Then the sides, spanning the polygon.
        assert!((pts[2].point.x.abs() - 1.0).abs() < 0.01);
        assert!((pts[3].point.x.abs() - 1.0).abs() < 0.01);
        assert!(pts[2].point.x * pts[3].point.x < 0.0);
    }

    #[test]
    fn degenerate_and_exactly_touching_hulls_give_finite_manifolds() {
        let (c, dot) = (cube(0.5), cube(0.0));
        let (m, _) = collide(&c.view(), &at(0.0, 0.0, 0.0), &c.view(), &at(0.0, 1.0, 0.0));
        assert_eq!(m.count, 4);
        for p in &m.points {
            assert_eq!(p.separation, 0.0);
        }
        for xb in [
            at(0.0, 0.5, 0.0),
            at(0.0, 0.2, 0.1),
            at(0.0, 0.0, 0.0),
            at(0.5, 0.5, 0.5),
        ] {
            let (m, _) = collide(&c.view(), &at(0.0, 0.0, 0.0), &dot.view(), &xb);
            assert!(m.count >= 1);
            assert!(bits_are_finite(&m));
            let (m, _) = collide(&dot.view(), &at(0.0, 0.0, 0.0), &dot.view(), &xb);
            assert!(bits_are_finite(&m));
        }
        let (m, _) = collide(&c.view(), &at(0.0, 0.0, 0.0), &c.view(), &at(0.0, 0.0, 0.0));
        assert!(m.count >= 1 && bits_are_finite(&m));
    }

    fn bits_are_finite(m: &Manifold) -> bool {
        m.normal.is_valid()
            && m.points
                .iter()
                .all(|p| p.point.is_valid() && p.separation.is_finite())
    }

    #[test]
    fn the_same_input_gives_the_same_bits() {
        let (g, c, p, t) = (
            ground(),
            cube(0.5),
            TestHull::prism(16, 1.0, 0.5),
            TestHull::tetrahedron(0.7),
        );
        let q = Quat::from_axis_angle(Vec3::new(0.48, 0.6, 0.64), 0.37);
        let cases: [(HullView, Transform, HullView, Transform); 5] = [
            (
                g.view(),
                ground_xf(),
                c.view(),
                Transform::new(Vec3::new(0.1, 0.47, 0.2), q),
            ),
            (
                c.view(),
                posed(0.0, 0.0, 0.0, Vec3::X, FRAC_PI_4),
                c.view(),
                posed(0.1, 1.4, 0.05, Vec3::Z, FRAC_PI_4),
            ),
            (
                p.view(),
                Transform::new(Vec3::ZERO, q),
                c.view(),
                at(0.3, 1.0, -0.2),
            ),
            (
                t.view(),
                at(0.0, 0.0, 0.0),
                p.view(),
                Transform::new(Vec3::new(0.2, 0.9, 0.1), q),
            ),
            (
                c.view(),
                at(0.0, 0.0, 0.0),
                t.view(),
                Transform::new(Vec3::new(0.3, 0.75, 0.0), q),
            ),
        ];
        for (a, xa, b, xb) in &cases {
            let (m1, c1) = collide(a, xa, b, xb);
            let (m2, c2) = collide(a, xa, b, xb);
            assert!(m1.count > 0);
            assert_eq!(bits(&m1), bits(&m2));
            assert_eq!(c1, c2);
        }
    }

    /// A fixed linear congruential sequence in [-1, 1): the same numbers on every target.
    struct Lcg(u64);

    impl Lcg {
        fn next(&mut self) -> f32 {
            self.0 = self
                .0
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            ((self.0 >> 40) as f32 / (1u64 << 24) as f32) * 2.0 - 1.0
        }

        fn vec(&mut self, scale: f32) -> Vec3 {
            Vec3::new(self.next(), self.next(), self.next()) * scale
        }

        fn pose(&mut self, scale: f32) -> Transform {
            let q = Quat::new(self.next(), self.next(), self.next(), self.next()).normalize();
            Transform::new(self.vec(scale), q)
        }
    }

    fn assert_sane(m: &Manifold, what: &str) {
        assert!(m.count <= 4, "{what}");
        if m.count > 0 {
            assert!((m.normal.length() - 1.0).abs() < 1e-4, "{what}: {m:?}");
        }
        for p in &m.points[..m.count as usize] {
            assert!(
                p.point.is_valid() && p.separation.is_finite(),
                "{what}: {m:?}"
            );
            assert!(p.separation < SPEC, "{what}: {m:?}");
        }
    }

    #[test]
    fn random_poses_and_degenerate_shapes_give_sane_manifolds() {
        use crate::collide::{
            collide_capsule_and_sphere, collide_capsules, collide_hull_and_capsule,
            collide_hull_and_sphere, collide_spheres,
        };
        use crate::geometry::{Capsule, Sphere};
        let hulls = [
            TestHull::prism(16, 0.8, 0.4),
            TestHull::prism(3, 0.6, 0.6),
            TestHull::tetrahedron(0.9),
        ];
        let boxes = [
            cube(0.5),
            cube(0.0),
            BoxHull::new(Vec3::new(1.0, 0.1, 0.4), Vec3::ONE, Quat::IDENTITY),
        ];
        let mut views: Vec<HullView> = hulls.iter().map(|h| h.view()).collect();
        views.extend(boxes.iter().map(|b| b.view()));
        let mut rng = Lcg(7);
        let mut caches = vec![SatCache::default(); views.len() * views.len()];
        let mut touching = 0;
        for step in 0..3000 {
            let (ia, ib) = (step % views.len(), (step / views.len()) % views.len());
            let (xa, xb) = (rng.pose(0.2), rng.pose(1.2));
            let cache = &mut caches[ia * views.len() + ib];
            let m = collide_hulls(&views[ia], &xa, &views[ib], &xb, SPEC, cache);
            assert_sane(&m, &format!("hulls {ia} {ib} step {step}"));
            touching += (m.count > 0) as u32;
            let radius = if step % 5 == 0 {
                0.0
            } else {
                0.3 * (rng.next() + 1.0)
            };
            let half = if step % 7 == 0 {
                Vec3::ZERO
            } else {
                rng.vec(0.6)
            };
            let s = Sphere {
                center: rng.vec(0.1),
                radius,
            };
            let k = Capsule {
                center1: -half,
                center2: half,
                radius,
            };
            assert_sane(
                &collide_hull_and_sphere(&views[ia], &xa, &s, &xb, SPEC),
                "hull sphere",
            );
            assert_sane(
                &collide_hull_and_capsule(&views[ia], &xa, &k, &xb, SPEC),
                "hull capsule",
            );
            assert_sane(&collide_capsules(&k, &xa, &k, &xb, SPEC), "capsules");
            assert_sane(
                &collide_capsule_and_sphere(&k, &xa, &s, &xb, SPEC),
                "capsule sphere",
            );
            assert_sane(&collide_spheres(&s, &xa, &s, &xb, SPEC), "spheres");
        }
        // The poses are close enough that many pairs touch.
        assert!(touching > 500, "{touching}");
    }

    /// FNV-1a over the bits of every manifold of a fixed sequence of random pairs, all pair
    /// kinds, with caches kept from call to call.
    fn golden_hash() -> u64 {
        use crate::collide::{
            collide_capsule_and_sphere, collide_capsules, collide_hull_and_capsule,
            collide_hull_and_sphere, collide_spheres,
        };
        use crate::geometry::{Capsule, Sphere};
        let hulls = [TestHull::prism(16, 0.8, 0.4), TestHull::tetrahedron(0.9)];
        let boxes = [
            cube(0.5),
            BoxHull::new(Vec3::new(1.0, 0.1, 0.4), Vec3::ONE, Quat::IDENTITY),
        ];
        let mut views: Vec<HullView> = hulls.iter().map(|h| h.view()).collect();
        views.extend(boxes.iter().map(|b| b.view()));
        let mut rng = Lcg(11);
        let mut caches = vec![SatCache::default(); views.len() * views.len()];
        let mut hash = 0xcbf2_9ce4_8422_2325u64;
        let mut fold = |m: &Manifold| {
            for word in bits(m) {
                for byte in word.to_le_bytes() {
                    hash = (hash ^ byte as u64).wrapping_mul(0x0100_0000_01b3);
                }
            }
        };
        for step in 0..2000 {
            let (ia, ib) = (step % views.len(), (step / views.len()) % views.len());
            let (xa, xb) = (rng.pose(0.2), rng.pose(1.0));
            let cache = &mut caches[ia * views.len() + ib];
            fold(&collide_hulls(
                &views[ia], &xa, &views[ib], &xb, SPEC, cache,
            ));
            let half = rng.vec(0.6);
            let s = Sphere {
                center: rng.vec(0.1),
                radius: 0.4,
            };
            let k = Capsule {
                center1: -half,
                center2: half,
                radius: 0.3,
            };
            fold(&collide_hull_and_sphere(&views[ia], &xa, &s, &xb, SPEC));
            fold(&collide_hull_and_capsule(&views[ia], &xa, &k, &xb, SPEC));
            fold(&collide_capsules(&k, &xa, &k, &xb, SPEC));
            fold(&collide_capsule_and_sphere(&k, &xa, &s, &xb, SPEC));
            fold(&collide_spheres(&s, &xa, &s, &xb, SPEC));
        }
        hash
    }

    #[test]
    fn manifold_bits_match_the_golden_hash_on_every_target() {
        // Recorded on x86_64; a change here means a change of results, on purpose or not.
        assert_eq!(golden_hash(), GOLDEN);
    }

    /// Every pair kind once, with the largest hulls the tables allow (32-gon prisms, 64
    /// vertices, faces of 32 sides clipped against 32 sides).
    pub(crate) fn run_every_pair_kind(p: &TestHull) {
        use crate::collide::{
            collide_capsule_and_sphere, collide_capsules, collide_hull_and_capsule,
            collide_hull_and_sphere, collide_spheres,
        };
        use crate::geometry::{Capsule, Sphere};
        let v = p.view();
        let o = at(0.0, 0.0, 0.0);
        let mut cache = SatCache::default();
        let cap_on_cap = posed(0.1, 0.99, 0.0, Vec3::Y, 0.05);
        let m = collide_hulls(&v, &o, &v, &cap_on_cap, SPEC, &mut cache);
        assert_eq!(m.count, 4);
        let tilted = Transform::new(
            Vec3::new(0.1, 1.5, 0.0),
            Quat::from_axis_angle(Vec3::new(0.0, 0.6, 0.8), 0.9),
        );
        let m = collide_hulls(&v, &o, &v, &tilted, SPEC, &mut SatCache::default());
        assert!(m.normal.is_valid());
        let s = Sphere {
            center: Vec3::ZERO,
            radius: 0.5,
        };
        let k = Capsule {
            center1: -Vec3::X,
            center2: Vec3::X,
            radius: 0.5,
        };
        let m = collide_hull_and_sphere(&v, &o, &s, &at(0.0, 0.99, 0.0), SPEC);
        assert_eq!(m.count, 1);
        let m = collide_hull_and_capsule(&v, &o, &k, &at(1.5, 0.99, 0.0), SPEC);
        assert_eq!(m.count, 2);
        let m = collide_hull_and_capsule(&v, &o, &k, &posed(1.3, 0.8, 0.0, Vec3::Z, 0.7), SPEC);
        assert!(m.count > 0);
        let m = collide_capsules(&k, &o, &k, &at(0.5, 0.99, 0.0), SPEC);
        assert_eq!(m.count, 2);
        let m = collide_capsule_and_sphere(&k, &o, &s, &at(0.5, 0.99, 0.0), SPEC);
        assert_eq!(m.count, 1);
        let m = collide_spheres(&s, &o, &s, &at(0.0, 0.99, 0.0), SPEC);
        assert_eq!(m.count, 1);
    }

    #[test]
    #[cfg_attr(target_family = "wasm", ignore = "wasm32-wasip1 has no threads")]
    fn every_pair_kind_fits_in_a_64_kib_thread() {
        // Built outside the thread: only the collision calls run on the small stack.
        let p = TestHull::prism(32, 1.0, 0.5);
        std::thread::Builder::new()
            .stack_size(64 * 1024)
            .spawn(move || run_every_pair_kind(&p))
            .unwrap()
            .join()
            .unwrap();
    }
}
