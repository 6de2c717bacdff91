//! Sphere against sphere, and the one-point contact between two rounded points that the
//! capsule manifolds share.

use super::{Manifold, ManifoldPoint, within_reach};
use crate::geometry::Sphere;
use crate::math::{Transform, Vec3};

/// The manifold of two spheres: at most one point, on the line between the centres.
///
/// Concentric spheres take the common frame's +y as the normal, so the result stays finite.
///
/// ```
/// use maul3d::collide::collide_spheres;
/// use maul3d::geometry::Sphere;
/// use maul3d::math::{Transform, Vec3};
///
/// let s = Sphere { center: Vec3::ZERO, radius: 1.0 };
/// let xf_b = Transform::new(Vec3::new(1.5, 0.0, 0.0), Default::default());
/// let m = collide_spheres(&s, &Transform::IDENTITY, &s, &xf_b, 0.02);
/// assert_eq!(m.count, 1);
/// assert_eq!(m.normal, Vec3::X);
/// assert_eq!(m.points[0].separation, -0.5);
/// ```
pub fn collide_spheres(
    a: &Sphere,
    xf_a: &Transform,
    b: &Sphere,
    xf_b: &Transform,
    speculative_distance: f32,
) -> Manifold {
    // The common frame is near both bodies, so the centres are accurate there.
    let pa = xf_a.apply(a.center);
    let pb = xf_b.apply(b.center);
    match round_contact(pa, a.radius, pb, b.radius, Vec3::Y, speculative_distance) {
        Some(c) => {
            let mut m = Manifold {
                normal: c.normal,
                ..Manifold::default()
            };
            m.points[0] = ManifoldPoint {
                point: c.point,
                separation: c.separation,
                id: 0,
            };
            m.count = 1;
            m
        }
        None => Manifold::default(),
    }
}

/// One contact point with its normal, in whatever frame its inputs were given.
#[derive(Clone, Copy, Debug)]
pub(crate) struct RoundContact {
    pub normal: Vec3,
    pub point: Vec3,
    pub separation: f32,
}

/// The contact between a ball of radius `ra` at `pa` and one of radius `rb` at `pb`;
/// `fallback` (unit) is the normal when the centres coincide. `None` unless the
/// separation is below `speculative_distance`.
#[inline]
pub(crate) fn round_contact(
    pa: Vec3,
    ra: f32,
    pb: Vec3,
    rb: f32,
    fallback: Vec3,
    speculative_distance: f32,
) -> Option<RoundContact> {
    let (mut normal, distance) = (pb - pa).normalize_and_length();
    if distance == 0.0 {
        normal = fallback;
    }
    let separation = distance - ra - rb;
    if !within_reach(separation, speculative_distance) {
        return None;
    }
    // Midway between pa + ra n and pb - rb n.
    let point = pa.mul_add(ra + 0.5 * separation, normal);
    Some(RoundContact {
        normal,
        point,
        separation,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::Quat;

    const SPEC: f32 = 0.02;

    fn at(x: f32, y: f32, z: f32) -> Transform {
        Transform::new(Vec3::new(x, y, z), Quat::IDENTITY)
    }

    #[test]
    fn overlapping_spheres_touch_midway_on_the_line_between_centres() {
        let a = Sphere {
            center: Vec3::ZERO,
            radius: 1.0,
        };
        let b = Sphere {
            center: Vec3::ZERO,
            radius: 0.5,
        };
        let m = collide_spheres(&a, &at(1.0, 2.0, 3.0), &b, &at(1.0, 3.25, 3.0), SPEC);
        assert_eq!(m.count, 1);
        assert_eq!(m.normal, Vec3::Y);
        assert_eq!(m.points[0].separation, -0.25);
        // Surfaces at y = 3.0 and y = 2.75 (in the common frame).
        assert_eq!(m.points[0].point, Vec3::new(1.0, 2.875, 3.0));
        assert_eq!(m.points[0].id, 0);
    }

    #[test]
    fn sphere_centres_off_the_body_origin_are_used() {
        let a = Sphere {
            center: Vec3::new(0.0, 0.0, 1.0),
            radius: 1.0,
        };
        let b = Sphere {
            center: Vec3::new(0.0, 0.0, -1.0),
            radius: 1.0,
        };
        // B's body is turned half a turn about y, so its sphere sits at +1 in z too.
        let xf_b = Transform::new(
            Vec3::new(1.5, 0.0, 0.0),
            Quat::from_axis_angle(Vec3::Y, core::f32::consts::PI),
        );
        let m = collide_spheres(&a, &Transform::IDENTITY, &b, &xf_b, SPEC);
        assert_eq!(m.count, 1);
        assert!((m.normal - Vec3::X).length() < 1e-6);
        assert!((m.points[0].separation + 0.5).abs() < 1e-6);
        assert!((m.points[0].point - Vec3::new(0.75, 0.0, 1.0)).length() < 1e-6);
    }

    #[test]
    fn spheres_apart_keep_a_point_only_within_the_speculative_distance() {
        let s = Sphere {
            center: Vec3::ZERO,
            radius: 0.5,
        };
        let near = collide_spheres(&s, &at(0.0, 0.0, 0.0), &s, &at(1.01, 0.0, 0.0), SPEC);
        assert_eq!(near.count, 1);
        assert!((near.points[0].separation - 0.01).abs() < 1e-6);
        let far = collide_spheres(&s, &at(0.0, 0.0, 0.0), &s, &at(1.03, 0.0, 0.0), SPEC);
        assert_eq!(far.count, 0);
    }

    #[test]
    fn concentric_spheres_push_apart_along_up() {
        let s = Sphere {
            center: Vec3::ZERO,
            radius: 0.5,
        };
        let m = collide_spheres(&s, &at(2.0, 2.0, 2.0), &s, &at(2.0, 2.0, 2.0), SPEC);
        assert_eq!(m.count, 1);
        assert_eq!(m.normal, Vec3::Y);
        assert_eq!(m.points[0].separation, -1.0);
        assert_eq!(m.points[0].point, Vec3::new(2.0, 2.0, 2.0));
    }

    #[test]
    fn zero_radius_spheres_give_a_finite_point() {
        let s = Sphere {
            center: Vec3::ZERO,
            radius: 0.0,
        };
        let m = collide_spheres(&s, &at(0.0, 0.0, 0.0), &s, &at(0.0, 0.0, 0.01), SPEC);
        assert_eq!(m.count, 1);
        assert!((m.normal - Vec3::Z).length() < 1e-6);
        assert!(m.points[0].point.is_valid());
        let m = collide_spheres(&s, &at(0.0, 0.0, 0.0), &s, &at(0.0, 0.0, 0.0), SPEC);
        assert_eq!(m.count, 1);
        assert_eq!(m.points[0].separation, 0.0);
    }
}
