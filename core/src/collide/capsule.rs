//! Capsule against sphere and capsule against capsule.

use super::segment::{closest_between, closest_to_point};
use super::sphere::round_contact;
use super::{LINEAR_SLOP, Manifold, within_reach};
use crate::geometry::{Capsule, Sphere};
use crate::math::{Transform, Vec3, clamp};

/// Capsule axes within this sine squared of parallel (about 2.9°) lie along each other
/// and get two points, so a capsule resting on a capsule does not roll on one point.
const PARALLEL_SIN_SQ: f32 = 0.05 * 0.05;

/// Below this squared length (1 µm squared) a capsule's segment is a point.
const POINT_LENGTH_SQ: f32 = 1.0e-12;

/// A unit direction perpendicular to the unit or zero vector `d`, or `fallback` when
/// `d` is zero.
#[inline]
fn perpendicular_or(d: Vec3, fallback: Vec3) -> Vec3 {
    let n = d.perpendicular();
    if n == Vec3::ZERO { fallback } else { n }
}

/// The manifold of a capsule A and a sphere B: one point, between the sphere's centre and
/// the closest point of the capsule's segment.
///
/// A centre on the segment pushes out perpendicular to it; a zero-length capsule is a
/// sphere.
pub fn collide_capsule_and_sphere(
    a: &Capsule,
    xf_a: &Transform,
    b: &Sphere,
    xf_b: &Transform,
    speculative_distance: f32,
) -> Manifold {
    let xf = xf_a.inv_mul(xf_b);
    let center = xf.apply(b.center);
    let d = a.center2 - a.center1;
    let t = closest_to_point(a.center1, d, center);
    let closest = a.center1.mul_add(t, d);
    let up = xf_a.q.inv_rotate(Vec3::Y);
    let fallback = perpendicular_or(d.normalize(), up);
    match round_contact(
        closest,
        a.radius,
        center,
        b.radius,
        fallback,
        speculative_distance,
    ) {
        Some(c) => Manifold::single(xf_a, c.normal, c.point, c.separation, 0),
        None => Manifold::default(),
    }
}

/// The manifold of two capsules.
///
/// Segments within about 3° of parallel whose extents overlap (a capsule lying on a
/// capsule) give two points: B's segment clipped to A's extent, ids 0x01/0x02 for B's
/// ends and 0x10/0x20 for A's ends doing the clipping. Otherwise one point (id 0) between
/// the closest points of the two segments.
pub fn collide_capsules(
    a: &Capsule,
    xf_a: &Transform,
    b: &Capsule,
    xf_b: &Transform,
    speculative_distance: f32,
) -> Manifold {
    let xf = xf_a.inv_mul(xf_b);
    let p1 = a.center1;
    let d1 = a.center2 - a.center1;
    let q1 = xf.apply(b.center1);
    let q2 = xf.apply(b.center2);
    let d2 = q2 - q1;
    let radius = a.radius + b.radius;

    let (s, t) = closest_between(p1, d1, q1, d2);
    let ca = p1.mul_add(s, d1);
    let cb = q1.mul_add(t, d2);
    let (mut normal, distance) = (cb - ca).normalize_and_length();
    if distance == 0.0 {
        // The segments cross: push along their common perpendicular, towards B.
        let up = xf_a.q.inv_rotate(Vec3::Y);
        normal = d1.cross(d2).normalize();
        if normal == Vec3::ZERO {
            normal = perpendicular_or(d1.normalize(), perpendicular_or(d2.normalize(), up));
        }
        let towards_b = (q1 + q2) * 0.5 - (p1 + a.center2) * 0.5;
        if normal.dot(towards_b) < 0.0 {
            normal = -normal;
        }
    }
    let separation = distance - radius;
    if !within_reach(separation, speculative_distance) {
        return Manifold::default();
    }

    let aa = d1.dot(d1);
    let ee = d2.dot(d2);
    if aa > POINT_LENGTH_SQ
        && ee > POINT_LENGTH_SQ
        && d1.cross(d2).length_squared() <= PARALLEL_SIN_SQ * aa * ee
    {
        // Where B's ends fall along A, as fractions of A's segment.
        let u1 = (q1 - p1).dot(d1) / aa;
        let u2 = (q2 - p1).dot(d1) / aa;
        let du = u2 - u1;
        if du != 0.0 {
            // B's parameters where it crosses A's ends, entering first.
            let at0 = -u1 / du;
            let at1 = (1.0 - u1) / du;
            let (enter, enter_end, exit, exit_end) = if du > 0.0 {
                (at0, 1u32, at1, 2u32)
            } else {
                (at1, 2u32, at0, 1u32)
            };
            let (t_lo, id_lo) = if enter > 0.0 {
                (enter, enter_end << 4)
            } else {
                (0.0, 1)
            };
            let (t_hi, id_hi) = if exit < 1.0 {
                (exit, exit_end << 4)
            } else {
                (1.0, 2)
            };
            let overlap = t_hi - t_lo;
            if overlap > 0.0 && overlap * overlap * ee > LINEAR_SLOP * LINEAR_SLOP {
                let mut m = Manifold {
                    normal: xf_a.q.rotate(normal),
                    ..Manifold::default()
                };
                for (tb, id) in [(t_lo, id_lo), (t_hi, id_hi)] {
                    let q = q1.mul_add(tb, d2);
                    let u = clamp((q - p1).dot(d1) / aa, 0.0, 1.0);
                    let sep = (q - p1.mul_add(u, d1)).dot(normal) - radius;
                    if sep < speculative_distance {
                        // Midway between q - rb n (B's surface) and A's surface below it.
                        let point = q.mul_sub(b.radius + 0.5 * sep, normal);
                        m.push(xf_a, point, sep, id);
                    }
                }
                return m;
            }
        }
    }

    let point = ca.mul_add(a.radius + 0.5 * separation, normal);
    Manifold::single(xf_a, normal, point, separation, 0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::Quat;

    const SPEC: f32 = 0.02;

    fn near(a: Vec3, b: Vec3) -> bool {
        (a - b).length() < 1e-5
    }

    fn capsule_x(half: f32, radius: f32) -> Capsule {
        Capsule {
            center1: Vec3::new(-half, 0.0, 0.0),
            center2: Vec3::new(half, 0.0, 0.0),
            radius,
        }
    }

    fn at(x: f32, y: f32, z: f32) -> Transform {
        Transform::new(Vec3::new(x, y, z), Quat::IDENTITY)
    }

    #[test]
    fn sphere_over_the_middle_of_a_capsule_touches_straight_above_its_axis() {
        let a = capsule_x(1.0, 0.5);
        let b = Sphere {
            center: Vec3::ZERO,
            radius: 0.5,
        };
        let m = collide_capsule_and_sphere(&a, &at(0.0, 0.0, 0.0), &b, &at(0.3, 0.9, 0.0), SPEC);
        assert_eq!(m.count, 1);
        assert!(near(m.normal, Vec3::Y));
        assert!((m.points[0].separation + 0.1).abs() < 1e-6);
        assert!(near(m.points[0].point, Vec3::new(0.3, 0.45, 0.0)));
    }

    #[test]
    fn sphere_beyond_a_capsule_end_touches_the_end_cap() {
        let a = capsule_x(1.0, 0.5);
        let b = Sphere {
            center: Vec3::ZERO,
            radius: 0.4,
        };
        let m = collide_capsule_and_sphere(&a, &at(0.0, 0.0, 0.0), &b, &at(1.8, 0.0, 0.0), SPEC);
        assert_eq!(m.count, 1);
        assert!(near(m.normal, Vec3::X));
        assert!((m.points[0].separation + 0.1).abs() < 1e-6);
        assert!(near(m.points[0].point, Vec3::new(1.45, 0.0, 0.0)));
    }

    #[test]
    fn capsule_turned_by_its_transform_is_collided_in_the_common_frame() {
        // A along x in its frame, turned a quarter about z: along y in the common frame.
        let a = capsule_x(1.0, 0.5);
        let xf_a = Transform::new(
            Vec3::new(5.0, 0.0, 0.0),
            Quat::from_axis_angle(Vec3::Z, core::f32::consts::FRAC_PI_2),
        );
        let b = Sphere {
            center: Vec3::ZERO,
            radius: 0.5,
        };
        let m = collide_capsule_and_sphere(&a, &xf_a, &b, &at(5.9, 0.5, 0.0), SPEC);
        assert_eq!(m.count, 1);
        assert!(near(m.normal, Vec3::X));
        assert!((m.points[0].separation + 0.1).abs() < 1e-5);
        assert!(near(m.points[0].point, Vec3::new(5.45, 0.5, 0.0)));
    }

    #[test]
    fn sphere_centred_on_the_axis_pushes_out_perpendicular() {
        let a = capsule_x(1.0, 0.5);
        let b = Sphere {
            center: Vec3::ZERO,
            radius: 0.25,
        };
        let m = collide_capsule_and_sphere(&a, &at(0.0, 0.0, 0.0), &b, &at(0.2, 0.0, 0.0), SPEC);
        assert_eq!(m.count, 1);
        assert!((m.normal.length() - 1.0).abs() < 1e-6);
        assert_eq!(m.normal.x, 0.0);
        assert_eq!(m.points[0].separation, -0.75);
    }

    #[test]
    fn zero_length_capsule_collides_like_a_sphere() {
        let a = Capsule {
            center1: Vec3::ZERO,
            center2: Vec3::ZERO,
            radius: 0.5,
        };
        let b = Sphere {
            center: Vec3::ZERO,
            radius: 0.5,
        };
        let m = collide_capsule_and_sphere(&a, &at(0.0, 0.0, 0.0), &b, &at(0.0, 0.0, 0.9), SPEC);
        assert_eq!(m.count, 1);
        assert!(near(m.normal, Vec3::Z));
        assert!((m.points[0].separation + 0.1).abs() < 1e-6);
        let m = collide_capsule_and_sphere(&a, &at(0.0, 0.0, 0.0), &b, &at(0.0, 0.0, 0.0), SPEC);
        assert_eq!(m.count, 1);
        assert_eq!(m.normal, Vec3::Y);
        let m = collide_capsules(&a, &at(0.0, 0.0, 0.0), &a, &at(0.0, 0.0, 0.0), SPEC);
        assert_eq!(m.count, 1);
        assert!(m.normal.is_valid() && m.points[0].point.is_valid());
    }

    #[test]
    fn crossed_capsules_touch_at_one_point_between_their_axes() {
        let a = capsule_x(1.0, 0.5);
        let b = Capsule {
            center1: Vec3::new(0.0, 0.0, -1.0),
            center2: Vec3::new(0.0, 0.0, 1.0),
            radius: 0.5,
        };
        let m = collide_capsules(&a, &at(0.0, 0.0, 0.0), &b, &at(0.2, 0.9, 0.1), SPEC);
        assert_eq!(m.count, 1);
        assert!(near(m.normal, Vec3::Y));
        assert!((m.points[0].separation + 0.1).abs() < 1e-6);
        assert!(near(m.points[0].point, Vec3::new(0.2, 0.45, 0.0)));
        assert_eq!(m.points[0].id, 0);
    }

    #[test]
    fn capsule_lying_along_a_capsule_touches_at_both_ends_of_the_overlap() {
        let a = capsule_x(1.0, 0.5);
        let b = capsule_x(1.5, 0.5);
        // B spans x in [0, 3]; the overlap with A is [0, 1].
        let m = collide_capsules(&a, &at(0.0, 0.0, 0.0), &b, &at(1.5, 0.95, 0.0), SPEC);
        assert_eq!(m.count, 2);
        assert!(near(m.normal, Vec3::Y));
        let p = m.points;
        assert!(near(p[0].point, Vec3::new(0.0, 0.475, 0.0)));
        assert!(near(p[1].point, Vec3::new(1.0, 0.475, 0.0)));
        for q in &p[..2] {
            assert!((q.separation + 0.05).abs() < 1e-6);
        }
        // B's first end, then A's second end clipping B.
        assert_eq!((p[0].id, p[1].id), (0x01, 0x20));
    }

    #[test]
    fn capsule_lying_within_a_longer_capsule_keeps_its_own_ends() {
        let a = capsule_x(2.0, 0.5);
        let b = Capsule {
            center1: Vec3::new(0.5, 0.0, 0.0),
            center2: Vec3::new(-0.5, 0.0, 0.0),
            radius: 0.25,
        };
        let m = collide_capsules(&a, &at(0.0, 0.0, 0.0), &b, &at(0.0, 0.0, -0.7), SPEC);
        assert_eq!(m.count, 2);
        assert!(near(m.normal, -Vec3::Z));
        assert!(near(m.points[0].point, Vec3::new(0.5, 0.0, -0.475)));
        assert!(near(m.points[1].point, Vec3::new(-0.5, 0.0, -0.475)));
        assert_eq!((m.points[0].id, m.points[1].id), (0x01, 0x02));
    }

    #[test]
    fn parallel_capsules_end_to_end_touch_at_one_point() {
        let a = capsule_x(1.0, 0.5);
        let m = collide_capsules(&a, &at(0.0, 0.0, 0.0), &a, &at(2.9, 0.0, 0.0), SPEC);
        assert_eq!(m.count, 1);
        assert!(near(m.normal, Vec3::X));
        assert!((m.points[0].separation + 0.1).abs() < 1e-5);
    }

    #[test]
    fn capsules_on_one_axis_push_apart_sideways_without_nan() {
        let a = capsule_x(1.0, 0.5);
        let m = collide_capsules(&a, &at(0.0, 0.0, 0.0), &a, &at(0.5, 0.0, 0.0), SPEC);
        assert!(m.count >= 1);
        assert!((m.normal.length() - 1.0).abs() < 1e-6);
        assert_eq!(m.normal.x, 0.0);
        for p in &m.points[..m.count as usize] {
            assert!(p.point.is_valid());
            assert_eq!(p.separation, -1.0);
        }
    }

    #[test]
    fn capsules_apart_beyond_the_speculative_distance_give_no_points() {
        let a = capsule_x(1.0, 0.5);
        let m = collide_capsules(&a, &at(0.0, 0.0, 0.0), &a, &at(0.0, 1.03, 0.0), SPEC);
        assert_eq!(m.count, 0);
        let m = collide_capsules(&a, &at(0.0, 0.0, 0.0), &a, &at(0.0, 1.01, 0.0), SPEC);
        assert_eq!(m.count, 2);
        assert!(m.points[0].separation > 0.0);
    }
}
