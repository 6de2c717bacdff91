//! Hull against sphere, and the point queries on a hull that the capsule manifold shares.

use super::segment::closest_to_point;
use super::{Manifold, hull_fits, within_reach};
use crate::geometry::Sphere;
use crate::geometry::hull::{HullView, MAX_HULL_FACES};
use crate::math::{Transform, Vec3};

/// Whether `p`, projected along the face normal, falls inside face `face` (its boundary
/// counts as inside). Walks the face's half-edges; a broken `next` loop ends after as many
/// steps as there are half-edges.
#[inline]
pub(crate) fn face_contains(hull: &HullView, face: usize, p: Vec3) -> bool {
    let n = hull.planes[face].normal;
    let start = hull.face_edges[face] as usize;
    let mut e = start;
    let mut v0 = hull.vertices[hull.edges[e].origin as usize];
    for _ in 0..hull.edges.len() {
        let next = hull.edges[e].next as usize;
        let v1 = hull.vertices[hull.edges[next].origin as usize];
        // (v1 - v0) × n points out of a counter-clockwise face.
        if (v1 - v0).cross(n).dot(p - v0) > 0.0 {
            return false;
        }
        if next == start {
            break;
        }
        e = next;
        v0 = v1;
    }
    true
}

/// The manifold of a hull A and a sphere B: one point (id 0).
///
/// With the centre outside, the normal runs from the closest point of the hull to the
/// centre; with it inside (or exactly on the surface), the normal is that of the face the
/// centre is least deep below.
///
/// ```
/// use maul3d::collide::collide_hull_and_sphere;
/// use maul3d::geometry::{Sphere, hull::BoxHull};
/// use maul3d::math::{Quat, Transform, Vec3};
///
/// let ground = BoxHull::new(Vec3::new(5.0, 1.0, 5.0), Vec3::ZERO, Quat::IDENTITY);
/// let ball = Sphere { center: Vec3::ZERO, radius: 0.5 };
/// let xf_b = Transform::new(Vec3::new(0.0, 1.25, 0.0), Quat::IDENTITY);
/// let m = collide_hull_and_sphere(&ground.view(), &Transform::IDENTITY, &ball, &xf_b, 0.02);
/// assert_eq!(m.count, 1);
/// assert_eq!(m.normal, Vec3::Y);
/// assert_eq!(m.points[0].separation, -0.25);
/// ```
pub fn collide_hull_and_sphere(
    a: &HullView,
    xf_a: &Transform,
    b: &Sphere,
    xf_b: &Transform,
    speculative_distance: f32,
) -> Manifold {
    if !hull_fits(a) {
        return Manifold::default();
    }
    let xf = xf_a.inv_mul(xf_b);
    let c = xf.apply(b.center);
    let r = b.radius;

    let mut heights = [0.0f32; MAX_HULL_FACES];
    let mut face = 0;
    let mut face_height = -f32::MAX;
    for (i, plane) in a.planes.iter().enumerate() {
        let h = plane.distance(c);
        heights[i] = h;
        if h > face_height {
            face_height = h;
            face = i;
        }
    }
    // The hull lies below every face plane, so the distance is at least face_height.
    if !within_reach(face_height - r, speculative_distance) {
        return Manifold::default();
    }

    let face_normal = a.planes[face].normal;
    let (normal, surface, distance) = if face_height <= 0.0 || face_contains(a, face, c) {
        // Inside, or straight above a face: the face plane gives the distance.
        (
            face_normal,
            c.mul_sub(face_height, face_normal),
            face_height,
        )
    } else {
        // Outside beyond a face's rim: the closest point is on an edge (or its end) of a
        // face the centre is above.
        let faces = &heights[..a.planes.len()];
        let (z, d2) = closest_on_rims(a, faces, c);
        let (n, distance) = (c - z).normalize_and_length();
        if distance == 0.0 || d2 == f32::MAX {
            (
                face_normal,
                c.mul_sub(face_height, face_normal),
                face_height,
            )
        } else {
            (n, z, distance)
        }
    };
    let separation = distance - r;
    if !within_reach(separation, speculative_distance) {
        return Manifold::default();
    }
    let point = surface.mul_add(0.5 * separation, normal);
    Manifold::single(xf_a, normal, point, separation, 0)
}

/// The point closest to `p` on the edges of faces that `p` is above (`heights[f] > 0`),
/// and its squared distance; `f32::MAX` when there is none. Ties keep the lowest edge.
#[inline]
pub(crate) fn closest_on_rims(hull: &HullView, heights: &[f32], p: Vec3) -> (Vec3, f32) {
    let mut best = (Vec3::ZERO, f32::MAX);
    for pair in hull.edges.chunks_exact(2) {
        let (e, twin) = (pair[0], pair[1]);
        if heights[e.face as usize] <= 0.0 && heights[twin.face as usize] <= 0.0 {
            continue;
        }
        let v0 = hull.vertices[e.origin as usize];
        let d = hull.vertices[twin.origin as usize] - v0;
        let z = v0.mul_add(closest_to_point(v0, d, p), d);
        let d2 = (p - z).length_squared();
        if d2 < best.1 {
            best = (z, d2);
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::hull::BoxHull;
    use crate::math::{Quat, sqrt};

    const SPEC: f32 = 0.02;

    fn near(a: Vec3, b: Vec3) -> bool {
        (a - b).length() < 1e-5
    }

    fn unit_box() -> BoxHull {
        BoxHull::new(Vec3::ONE, Vec3::ZERO, Quat::IDENTITY)
    }

    fn ball(radius: f32) -> Sphere {
        Sphere {
            center: Vec3::ZERO,
            radius,
        }
    }

    fn at(x: f32, y: f32, z: f32) -> Transform {
        Transform::new(Vec3::new(x, y, z), Quat::IDENTITY)
    }

    #[test]
    fn sphere_above_a_face_touches_along_the_face_normal() {
        let h = unit_box();
        let m = collide_hull_and_sphere(
            &h.view(),
            &at(0.0, 0.0, 0.0),
            &ball(0.5),
            &at(0.0, 1.4, 0.3),
            SPEC,
        );
        assert_eq!(m.count, 1);
        assert_eq!(m.normal, Vec3::Y);
        assert!((m.points[0].separation + 0.1).abs() < 1e-6);
        assert!(near(m.points[0].point, Vec3::new(0.0, 0.95, 0.3)));
    }

    #[test]
    fn sphere_beyond_an_edge_touches_the_edge() {
        let h = unit_box();
        let m = collide_hull_and_sphere(
            &h.view(),
            &at(0.0, 0.0, 0.0),
            &ball(0.6),
            &at(1.3, 1.4, 0.2),
            SPEC,
        );
        assert_eq!(m.count, 1);
        assert!(near(m.normal, Vec3::new(0.6, 0.8, 0.0)));
        assert!((m.points[0].separation + 0.1).abs() < 1e-6);
        // The edge point (1, 1, 0.2) moved half the separation along the normal.
        assert!(near(m.points[0].point, Vec3::new(0.97, 0.96, 0.2)));
    }

    #[test]
    fn sphere_beyond_a_corner_touches_the_corner() {
        let h = unit_box();
        let m = collide_hull_and_sphere(
            &h.view(),
            &at(0.0, 0.0, 0.0),
            &ball(0.4),
            &at(1.2, 1.2, 1.2),
            SPEC,
        );
        assert_eq!(m.count, 1);
        let k = 1.0 / sqrt(3.0);
        assert!(near(m.normal, Vec3::new(k, k, k)));
        let sep = 0.2 * sqrt(3.0) - 0.4;
        assert!((m.points[0].separation - sep).abs() < 1e-6);
        assert!(near(
            m.points[0].point,
            Vec3::ONE + Vec3::new(k, k, k) * (0.5 * sep)
        ));
    }

    #[test]
    fn sphere_centre_inside_pushes_out_through_the_nearest_face() {
        let h = unit_box();
        let m = collide_hull_and_sphere(
            &h.view(),
            &at(0.0, 0.0, 0.0),
            &ball(0.5),
            &at(0.0, 0.8, 0.1),
            SPEC,
        );
        assert_eq!(m.count, 1);
        assert_eq!(m.normal, Vec3::Y);
        assert!((m.points[0].separation + 0.7).abs() < 1e-6);
        // Surfaces at y = 1 (hull) and y = 0.3 (sphere).
        assert!(near(m.points[0].point, Vec3::new(0.0, 0.65, 0.1)));
    }

    #[test]
    fn sphere_centre_on_a_face_gives_a_finite_contact() {
        let h = unit_box();
        let m = collide_hull_and_sphere(
            &h.view(),
            &at(0.0, 0.0, 0.0),
            &ball(0.5),
            &at(0.0, 1.0, 0.0),
            SPEC,
        );
        assert_eq!(m.count, 1);
        assert_eq!(m.normal, Vec3::Y);
        assert_eq!(m.points[0].separation, -0.5);
        let m = collide_hull_and_sphere(
            &h.view(),
            &at(0.0, 0.0, 0.0),
            &ball(0.0),
            &at(1.0, 1.0, 1.0),
            SPEC,
        );
        assert_eq!(m.count, 1);
        assert!(m.normal.is_valid() && (m.normal.length() - 1.0).abs() < 1e-6);
    }

    #[test]
    fn turned_hull_reports_in_the_common_frame() {
        // The box turned 45° about z, lifted by 2: its top is an edge along z at y = 2 + √2.
        let h = unit_box();
        let xf_a = Transform::new(
            Vec3::new(0.0, 2.0, 0.0),
            Quat::from_axis_angle(Vec3::Z, core::f32::consts::FRAC_PI_4),
        );
        let top = 2.0 + sqrt(2.0);
        let m =
            collide_hull_and_sphere(&h.view(), &xf_a, &ball(0.5), &at(0.0, top + 0.4, 0.3), SPEC);
        assert_eq!(m.count, 1);
        assert!(near(m.normal, Vec3::Y));
        assert!((m.points[0].separation + 0.1).abs() < 1e-5);
        assert!(near(m.points[0].point, Vec3::new(0.0, top - 0.05, 0.3)));
    }

    #[test]
    fn sphere_beyond_the_speculative_distance_gives_no_point() {
        let h = unit_box();
        let v = h.view();
        let m = collide_hull_and_sphere(
            &v,
            &at(0.0, 0.0, 0.0),
            &ball(0.5),
            &at(0.0, 1.53, 0.0),
            SPEC,
        );
        assert_eq!(m.count, 0);
        let m = collide_hull_and_sphere(
            &v,
            &at(0.0, 0.0, 0.0),
            &ball(0.5),
            &at(1.3, 1.45, 0.0),
            SPEC,
        );
        assert_eq!(m.count, 0);
        let m = collide_hull_and_sphere(
            &v,
            &at(0.0, 0.0, 0.0),
            &ball(0.5),
            &at(0.0, 1.51, 0.0),
            SPEC,
        );
        assert_eq!(m.count, 1);
        assert!((m.points[0].separation - 0.01).abs() < 1e-6);
    }
}
