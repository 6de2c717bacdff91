//! Ray casts against single shapes: spheres, capsules and convex hulls (boxes included).
//!
//! Each function takes the shape in its own frame, a transform placing it in a common
//! frame, and the ray in that common frame. The ray is `origin + t · translation` for
//! `t` in `[0, max_fraction]`; the hit's `fraction` is that `t`.
//!
//! A ray that starts inside a shape reports no hit, as in Box2D: a ray cast finds where a
//! ray enters a surface, and a ray that is already in has no entry. (A ray starting
//! exactly on a sphere or capsule surface and heading in hits at fraction 0; one starting
//! exactly on a hull face counts as inside.) A zero translation never hits, and the output
//! is finite for finite input: a result that would not be is dropped as a miss.

use super::hull_fits;
use crate::geometry::hull::HullView;
use crate::geometry::{Capsule, Sphere};
use crate::math::{Transform, Vec3, sqrt};

/// A ray: from `origin` along `translation`, as far as `max_fraction` of it.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct RayInput {
    /// Start point, in the common frame.
    pub origin: Vec3,
    /// Direction and length: the ray reaches `origin + translation` at fraction 1.
    pub translation: Vec3,
    /// The largest fraction of `translation` to test (1 for the full segment).
    pub max_fraction: f32,
}

/// Where a ray enters a shape.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct RayHit {
    /// `t` of the entry point `origin + t · translation`, in `[0, max_fraction]`.
    pub fraction: f32,
    /// The entry point, in the common frame.
    pub point: Vec3,
    /// The shape's outward unit normal at the entry point, in the common frame.
    pub normal: Vec3,
}

impl RayHit {
    /// The hit if every field is finite, else `None`: overflowing input misses rather
    /// than returning NaN.
    #[inline]
    fn checked(self) -> Option<RayHit> {
        if self.fraction.is_finite() && self.point.is_valid() && self.normal.is_valid() {
            Some(self)
        } else {
            None
        }
    }
}

/// The ray against a sphere of `radius` about `center`, all in the common frame.
///
/// Works on the closest approach of the line to the centre rather than the quadratic's
/// roots, which keeps the hit accurate for a small sphere far along a long ray.
fn ray_cast_ball(center: Vec3, radius: f32, input: &RayInput) -> Option<RayHit> {
    let (d, length) = input.translation.normalize_and_length();
    if length == 0.0 {
        return None;
    }
    let s = input.origin - center;
    // Distance along the unit direction to the closest approach, and its square distance.
    let t = -s.dot(d);
    let c = s.mul_add(t, d);
    let cc = c.dot(c);
    let rr = radius * radius;
    if cc > rr {
        return None;
    }
    let h = sqrt(rr - cc);
    let distance = t - h;
    // Negative: the origin is inside (or the sphere is behind).
    if distance < 0.0 || distance > input.max_fraction * length {
        return None;
    }
    let fraction = distance / length;
    let point = input.origin.mul_add(fraction, input.translation);
    // A zero-radius sphere hit through its centre has no direction to the hit point.
    let (n, len) = (s.mul_add(distance, d)).normalize_and_length();
    let normal = if len == 0.0 { -d } else { n };
    RayHit {
        fraction,
        point,
        normal,
    }
    .checked()
}

/// The first point where the ray enters the sphere `s` placed by `xf`.
///
/// ```
/// use maul3d::collide::ray::{RayInput, ray_cast_sphere};
/// use maul3d::geometry::Sphere;
/// use maul3d::math::{Transform, Vec3};
///
/// let ball = Sphere { center: Vec3::ZERO, radius: 1.0 };
/// let ray = RayInput { origin: Vec3::new(-4.0, 0.0, 0.0), translation: Vec3::new(8.0, 0.0, 0.0), max_fraction: 1.0 };
/// let hit = ray_cast_sphere(&ball, &Transform::IDENTITY, &ray).unwrap();
/// assert_eq!(hit.fraction, 0.375);
/// assert_eq!(hit.normal, Vec3::new(-1.0, 0.0, 0.0));
/// ```
pub fn ray_cast_sphere(s: &Sphere, xf: &Transform, input: &RayInput) -> Option<RayHit> {
    ray_cast_ball(xf.apply(s.center), s.radius, input)
}

/// Below this squared length (1 µm squared) a capsule's segment is a point.
const POINT_LENGTH_SQ: f32 = 1.0e-12;

/// The first point where the ray enters the capsule `c` placed by `xf`.
///
/// The ray is intersected with the infinite cylinder about the segment; an entry beyond
/// either end is an entry into that end's cap, and a ray starting inside the infinite
/// cylinder beyond an end can only enter through that cap. A ray parallel to the axis
/// and outside the cylinder misses, caps included (they lie within it). A zero-length
/// capsule is a sphere.
pub fn ray_cast_capsule(c: &Capsule, xf: &Transform, input: &RayInput) -> Option<RayHit> {
    let v1 = xf.apply(c.center1);
    let v2 = xf.apply(c.center2);
    let radius = c.radius;
    let e = v2 - v1;
    let ee = e.dot(e);
    if ee <= POINT_LENGTH_SQ {
        return ray_cast_ball(v1, radius, input);
    }
    let capsule_length = sqrt(ee);
    let a = e * (1.0 / capsule_length);

    // The ray's start from the first end, split along and across the axis.
    let q = input.origin - v1;
    let qa = q.dot(a);
    let qp = q.mul_sub(qa, a);
    let rr = radius * radius;
    if qp.dot(qp) < rr {
        if qa < 0.0 {
            return ray_cast_ball(v1, radius, input);
        }
        if qa > capsule_length {
            return ray_cast_ball(v2, radius, input);
        }
        // Inside the capsule.
        return None;
    }

    let (u, ray_length) = input.translation.normalize_and_length();
    if ray_length == 0.0 {
        return None;
    }
    // The direction across the axis; |up| is the sine of the angle to the axis.
    let ua = u.dot(a);
    let up = u.mul_sub(ua, a);
    let upup = up.dot(up);
    // Parallel to the axis (within a sine of about 3e-4) and outside the cylinder: the
    // ray never comes nearer the axis, and the caps lie within the cylinder.
    if upup < 1.0e-7 {
        return None;
    }
    // Closest approach to the axis across it, at distance tc along the unit direction.
    let tc = -qp.dot(up) / upup;
    let closest = qp.mul_add(tc, up);
    let cc = closest.dot(closest);
    if cc > rr {
        return None;
    }
    let h = sqrt((rr - cc) / upup);
    let distance = tc - h;
    if distance < 0.0 {
        // The origin is outside the cylinder, so the cylinder lies behind.
        return None;
    }
    // Where along the axis the ray enters the cylinder.
    let s = qa + distance * ua;
    if s < 0.0 {
        return ray_cast_ball(v1, radius, input);
    }
    if s > capsule_length {
        return ray_cast_ball(v2, radius, input);
    }
    if distance > input.max_fraction * ray_length {
        return None;
    }
    let fraction = distance / ray_length;
    let point = input.origin.mul_add(fraction, input.translation);
    let normal = qp.mul_add(distance, up).normalize();
    RayHit {
        fraction,
        point,
        normal,
    }
    .checked()
}

/// The first point where the ray enters the hull `h` placed by `xf`, with the entry
/// face's normal. Works for any [`HullView`], a box's from
/// [`BoxHull::view`](crate::geometry::hull::BoxHull::view) included.
///
/// Clips the ray against every face plane (Box2D's polygon ray cast): the latest plane
/// the ray enters through is the entry face, the earliest it leaves through bounds it. Ties
/// go to the lowest face index. A ray parallel to a face and outside it misses; a hull
/// that is empty or too large for the fixed buffers is never hit.
///
/// ```
/// use maul3d::collide::ray::{RayInput, ray_cast_hull};
/// use maul3d::geometry::hull::BoxHull;
/// use maul3d::math::{Quat, Transform, Vec3};
///
/// let b = BoxHull::new(Vec3::new(1.0, 1.0, 1.0), Vec3::ZERO, Quat::IDENTITY);
/// let ray = RayInput { origin: Vec3::new(0.0, 5.0, 0.0), translation: Vec3::new(0.0, -8.0, 0.0), max_fraction: 1.0 };
/// let hit = ray_cast_hull(&b.view(), &Transform::IDENTITY, &ray).unwrap();
/// assert_eq!(hit.fraction, 0.5);
/// assert_eq!(hit.normal, Vec3::Y);
/// ```
pub fn ray_cast_hull(h: &HullView, xf: &Transform, input: &RayInput) -> Option<RayHit> {
    if !hull_fits(h) {
        return None;
    }
    // The ray in the hull's frame.
    let p = xf.apply_inv(input.origin);
    let d = xf.q.inv_rotate(input.translation);

    let mut lower = 0.0f32;
    let mut upper = input.max_fraction;
    let mut entry = usize::MAX;
    for (i, plane) in h.planes.iter().enumerate() {
        // Positive while p is below the plane.
        let numerator = plane.offset - plane.normal.dot(p);
        let denominator = plane.normal.dot(d);
        if denominator == 0.0 {
            if numerator < 0.0 {
                return None;
            }
        } else {
            let t = numerator / denominator;
            if denominator < 0.0 {
                // Entering through this plane. Strict: ties keep the lower index.
                if t > lower {
                    lower = t;
                    entry = i;
                }
            } else if t < upper {
                upper = t;
            }
        }
        // NaN from an overflowing input fails both tests above, so neither bound is NaN.
        if upper < lower {
            return None;
        }
    }
    if entry == usize::MAX {
        // No entering plane beyond the start: the origin is inside (or on the surface).
        return None;
    }
    RayHit {
        fraction: lower,
        point: input.origin.mul_add(lower, input.translation),
        normal: xf.q.rotate(h.planes[entry].normal),
    }
    .checked()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::collide::test_hulls::TestHull;
    use crate::geometry::hull::{BoxHull, Hull};
    use crate::geometry::quickhull::build_hull;
    use crate::math::Quat;

    fn ray(origin: Vec3, translation: Vec3) -> RayInput {
        RayInput {
            origin,
            translation,
            max_fraction: 1.0,
        }
    }

    fn pose(p: Vec3, axis: Vec3, angle: f32) -> Transform {
        Transform::new(p, Quat::from_axis_angle(axis.normalize(), angle))
    }

    fn near(a: Vec3, b: Vec3, tol: f32) -> bool {
        (a - b).length() <= tol
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

    /// Entry distance of the line `o + s·u` (unit `u`) into a ball, in f64: the smaller
    /// root of the quadratic.
    fn ball_entry(o: Vec3, u: Vec3, c: Vec3, r: f32) -> Option<f64> {
        let (ox, oy, oz) = ((o.x - c.x) as f64, (o.y - c.y) as f64, (o.z - c.z) as f64);
        let (ux, uy, uz) = (u.x as f64, u.y as f64, u.z as f64);
        let b = ox * ux + oy * uy + oz * uz;
        let cc = ox * ox + oy * oy + oz * oz - (r as f64) * (r as f64);
        let disc = b * b - cc;
        if disc < 0.0 {
            return None;
        }
        Some(-b - disc.sqrt())
    }

    #[test]
    fn sphere_hits_agree_with_the_quadratic_roots() {
        let mut rng = Lcg(7);
        let mut hits = 0;
        for _ in 0..500 {
            let s = Sphere {
                center: rng.vec(0.5),
                radius: 0.2 + 0.8 * (rng.next() + 1.0),
            };
            let xf = rng.pose(2.0);
            let origin = rng.vec(6.0);
            let target = xf.apply(s.center) + rng.vec(1.5);
            let translation = (target - origin) * 2.0;
            let input = ray(origin, translation);
            let got = ray_cast_sphere(&s, &xf, &input);
            let (u, len) = translation.normalize_and_length();
            let c = xf.apply(s.center);
            let inside = (origin - c).length() < s.radius;
            match ball_entry(origin, u, c, s.radius) {
                Some(dist) if !inside && dist >= 0.0 && dist <= len as f64 => {
                    let hit = got.expect("a ray through the sphere hits");
                    hits += 1;
                    assert!(((hit.fraction as f64) - dist / len as f64).abs() < 1e-5);
                    let expected_point = origin + translation * (dist / len as f64) as f32;
                    assert!(near(hit.point, expected_point, 1e-4));
                    let n = (hit.point - c) * (1.0 / s.radius);
                    assert!(near(hit.normal, n, 1e-4));
                    assert!((hit.normal.length() - 1.0).abs() < 1e-5);
                }
                _ => assert!(got.is_none(), "{got:?}"),
            }
        }
        assert!(hits > 200, "{hits} hits");
    }

    #[test]
    fn rays_that_pass_a_sphere_or_stop_short_miss() {
        let s = Sphere {
            center: Vec3::ZERO,
            radius: 1.0,
        };
        let xf = Transform::IDENTITY;
        let beside = ray(Vec3::new(-5.0, 1.001, 0.0), Vec3::new(10.0, 0.0, 0.0));
        assert!(ray_cast_sphere(&s, &xf, &beside).is_none());
        let short = RayInput {
            max_fraction: 0.39,
            ..ray(Vec3::new(-5.0, 0.0, 0.0), Vec3::new(10.0, 0.0, 0.0))
        };
        assert!(ray_cast_sphere(&s, &xf, &short).is_none());
        let away = ray(Vec3::new(-5.0, 0.0, 0.0), Vec3::new(-10.0, 0.0, 0.0));
        assert!(ray_cast_sphere(&s, &xf, &away).is_none());
        let still = ray(Vec3::new(-5.0, 0.0, 0.0), Vec3::ZERO);
        assert!(ray_cast_sphere(&s, &xf, &still).is_none());
    }

    #[test]
    fn rays_starting_inside_any_shape_report_no_hit() {
        let xf = pose(Vec3::new(1.0, 2.0, 3.0), Vec3::new(1.0, 1.0, 0.0), 0.6);
        let inside = xf.apply(Vec3::new(0.1, 0.2, -0.1));
        for dir in [Vec3::X, -Vec3::Y, Vec3::new(0.3, 0.4, -2.0)] {
            let r = ray(inside, dir * 10.0);
            let s = Sphere {
                center: Vec3::ZERO,
                radius: 1.0,
            };
            assert!(ray_cast_sphere(&s, &xf, &r).is_none());
            let c = Capsule {
                center1: Vec3::new(-1.0, 0.0, 0.0),
                center2: Vec3::new(1.0, 0.0, 0.0),
                radius: 0.5,
            };
            assert!(ray_cast_capsule(&c, &xf, &r).is_none());
            // Inside the capsule's cap, beyond the segment's end.
            let cap = ray(xf.apply(Vec3::new(1.3, 0.1, 0.0)), dir * 10.0);
            assert!(ray_cast_capsule(&c, &xf, &cap).is_none());
            let b = BoxHull::new(Vec3::new(0.5, 0.5, 0.5), Vec3::ZERO, Quat::IDENTITY);
            assert!(ray_cast_hull(&b.view(), &xf, &r).is_none());
            let t = TestHull::tetrahedron(1.0);
            assert!(ray_cast_hull(&t.view(), &xf, &r).is_none());
        }
    }

    fn capsule_x() -> Capsule {
        Capsule {
            center1: Vec3::new(-1.0, 0.0, 0.0),
            center2: Vec3::new(1.0, 0.0, 0.0),
            radius: 0.5,
        }
    }

    #[test]
    fn capsule_rays_hit_the_cylinder_and_the_caps_where_closed_forms_say() {
        let c = capsule_x();
        let xf = pose(Vec3::new(3.0, -1.0, 2.0), Vec3::new(0.2, 1.0, -0.4), 1.1);
        // (local origin, local translation, expected fraction, local point, local normal)
        let cases = [
            // Straight down onto the cylinder.
            (
                Vec3::new(0.3, 5.0, 0.0),
                Vec3::new(0.0, -10.0, 0.0),
                0.45,
                Vec3::new(0.3, 0.5, 0.0),
                Vec3::Y,
            ),
            // Slanted onto the cylinder from the side: the y-z circle of radius 0.5.
            (
                Vec3::new(-0.5, 0.3, 4.0),
                Vec3::new(1.0, 0.0, -8.0),
                0.45,
                Vec3::new(-0.05, 0.3, 0.4),
                Vec3::new(0.0, 0.6, 0.8),
            ),
            // Along the axis into the +x cap.
            (
                Vec3::new(4.0, 0.0, 0.0),
                Vec3::new(-5.0, 0.0, 0.0),
                0.5,
                Vec3::new(1.5, 0.0, 0.0),
                Vec3::X,
            ),
            // Along the axis, off centre, into the -x cap: x = -1 - sqrt(0.25 - 0.09).
            (
                Vec3::new(-3.0, 0.3, 0.0),
                Vec3::new(2.0, 0.0, 0.0),
                1.0 - 0.2,
                Vec3::new(-1.4, 0.3, 0.0),
                Vec3::new(-0.8, 0.6, 0.0),
            ),
            // Slanted into the +x cap, entering the infinite cylinder beyond the end.
            (
                Vec3::new(2.5, 3.0, 0.0),
                Vec3::new(-2.0, -4.0, 0.0),
                0.0,
                Vec3::ZERO,
                Vec3::ZERO,
            ),
        ];
        for (k, &(o, t, fraction, point, normal)) in cases.iter().enumerate() {
            let input = ray(xf.apply(o), xf.q.rotate(t));
            let hit = ray_cast_capsule(&c, &xf, &input).expect("hit");
            let (fraction, point, normal) = if k == 4 {
                // Closed form against the +x end's ball.
                let (u, len) = t.normalize_and_length();
                let dist = ball_entry(o, u, c.center2, c.radius).unwrap() as f32;
                let p = o + u * dist;
                (dist / len, p, (p - c.center2) * 2.0)
            } else {
                (fraction, point, normal)
            };
            assert!((hit.fraction - fraction).abs() < 1e-5, "case {k}: {hit:?}");
            assert!(near(hit.point, xf.apply(point), 1e-5), "case {k}: {hit:?}");
            assert!(
                near(hit.normal, xf.q.rotate(normal), 1e-5),
                "case {k}: {hit:?}"
            );
        }
    }

    /// Entry distance of the line `o + s·u` (unit `u`) into a capsule, in f64: the first of
    /// the two balls' entries and the side of the cylinder between the ends.
    fn capsule_entry(o: Vec3, u: Vec3, c: &Capsule) -> Option<f64> {
        let f = |v: Vec3| [v.x as f64, v.y as f64, v.z as f64];
        let dot = |a: [f64; 3], b: [f64; 3]| a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
        let (p1, p2, o, u) = (f(c.center1), f(c.center2), f(o), f(u));
        let e = [p2[0] - p1[0], p2[1] - p1[1], p2[2] - p1[2]];
        let len = dot(e, e).sqrt();
        let a = [e[0] / len, e[1] / len, e[2] / len];
        let q = [o[0] - p1[0], o[1] - p1[1], o[2] - p1[2]];
        let (qa, ua) = (dot(q, a), dot(u, a));
        let qp = [q[0] - qa * a[0], q[1] - qa * a[1], q[2] - qa * a[2]];
        let up = [u[0] - ua * a[0], u[1] - ua * a[1], u[2] - ua * a[2]];
        let r = c.radius as f64;
        let (aa, bb, cc) = (dot(up, up), dot(qp, up), dot(qp, qp) - r * r);
        let mut best: Option<f64> = None;
        let disc = bb * bb - aa * cc;
        if aa > 0.0 && disc >= 0.0 {
            let s = (-bb - disc.sqrt()) / aa;
            let axial = qa + s * ua;
            if (0.0..=len).contains(&axial) {
                best = Some(s);
            }
        }
        for end in [c.center1, c.center2] {
            if let Some(s) = ball_entry(
                Vec3::new(o[0] as f32, o[1] as f32, o[2] as f32),
                Vec3::new(u[0] as f32, u[1] as f32, u[2] as f32),
                end,
                c.radius,
            ) {
                best = Some(best.map_or(s, |b: f64| if s < b { s } else { b }));
            }
        }
        best
    }

    #[test]
    fn random_capsule_hits_agree_with_the_pieces_closed_forms() {
        let mut rng = Lcg(3);
        let mut hits = 0;
        for _ in 0..500 {
            let c = Capsule {
                center1: rng.vec(1.0),
                center2: rng.vec(1.0),
                radius: 0.1 + 0.5 * (rng.next() + 1.0),
            };
            let xf = rng.pose(2.0);
            let local_origin = rng.vec(5.0);
            let aim = c.center1.lerp(c.center2, 0.5 * (rng.next() + 1.0)) + rng.vec(0.8);
            let local_translation = (aim - local_origin) * 1.6;
            let inside = {
                let d = c.center2 - c.center1;
                let t = crate::collide::segment::closest_to_point(c.center1, d, local_origin);
                (local_origin - c.center1.mul_add(t, d)).length() <= c.radius
            };
            let input = ray(xf.apply(local_origin), xf.q.rotate(local_translation));
            let got = ray_cast_capsule(&c, &xf, &input);
            let (u, len) = local_translation.normalize_and_length();
            match capsule_entry(local_origin, u, &c) {
                Some(s) if !inside && s >= 0.0 && s <= len as f64 => {
                    let hit = got.expect("hit");
                    hits += 1;
                    assert!(
                        (hit.fraction as f64 - s / len as f64).abs() < 1e-5,
                        "{hit:?}"
                    );
                    let p = xf.apply_inv(hit.point);
                    let d = c.center2 - c.center1;
                    let t = crate::collide::segment::closest_to_point(c.center1, d, p);
                    let axis_point = c.center1.mul_add(t, d);
                    assert!(((p - axis_point).length() - c.radius).abs() < 1e-4);
                    let n = (p - axis_point).normalize();
                    assert!(near(xf.q.inv_rotate(hit.normal), n, 1e-3), "{hit:?}");
                }
                _ => assert!(got.is_none(), "{got:?}"),
            }
        }
        assert!(hits > 150, "{hits} hits");
    }

    #[test]
    fn capsule_rays_that_pass_run_parallel_or_stop_short_miss() {
        let c = capsule_x();
        let xf = pose(Vec3::new(-2.0, 0.5, 1.0), Vec3::Z, 0.3);
        let misses = [
            ray(Vec3::new(0.0, 0.51, -5.0), Vec3::new(0.0, 0.0, 10.0)),
            // Parallel to the axis, just outside the cylinder.
            ray(Vec3::new(-5.0, 0.0, 0.51), Vec3::new(10.0, 0.0, 0.0)),
            // Past the cap's end.
            ray(Vec3::new(1.6, 5.0, 0.0), Vec3::new(0.0, -10.0, 0.0)),
            // Stops short.
            ray(Vec3::new(0.0, 5.0, 0.0), Vec3::new(0.0, -4.4, 0.0)),
            // Points away.
            ray(Vec3::new(0.0, 5.0, 0.0), Vec3::new(0.0, 4.4, 0.0)),
            ray(Vec3::new(0.0, 5.0, 0.0), Vec3::ZERO),
        ];
        for (k, m) in misses.iter().enumerate() {
            let input = ray(xf.apply(m.origin), xf.q.rotate(m.translation));
            assert!(ray_cast_capsule(&c, &xf, &input).is_none(), "case {k}");
        }
        // Parallel along the axis from outside hits the cap.
        let input = ray(
            xf.apply(Vec3::new(-5.0, 0.0, 0.49)),
            xf.q.rotate(Vec3::new(10.0, 0.0, 0.0)),
        );
        assert!(ray_cast_capsule(&c, &xf, &input).is_some());
    }

    #[test]
    fn zero_length_capsules_are_spheres() {
        let c = Capsule {
            center1: Vec3::new(0.5, 0.0, 0.0),
            center2: Vec3::new(0.5, 0.0, 0.0),
            radius: 0.5,
        };
        let input = ray(Vec3::new(0.5, 3.0, 0.0), Vec3::new(0.0, -5.0, 0.0));
        let hit = ray_cast_capsule(&c, &Transform::IDENTITY, &input).unwrap();
        assert!((hit.fraction - 0.5).abs() < 1e-6);
        assert!(near(hit.normal, Vec3::Y, 1e-6));
    }

    /// Slab test in f64 in the box's frame: (entry distance, entry axis and sign).
    fn slab(o: Vec3, d: Vec3, half: Vec3) -> Option<(f64, usize, f64)> {
        let (mut lo, mut hi, mut axis, mut sign) = (0.0f64, f64::MAX, 3, 0.0);
        for i in 0..3 {
            let (oi, di, hi_i) = (o.get(i) as f64, d.get(i) as f64, half.get(i) as f64);
            if di == 0.0 {
                if oi.abs() > hi_i {
                    return None;
                }
                continue;
            }
            let (mut t0, mut t1) = ((-hi_i - oi) / di, (hi_i - oi) / di);
            let mut s = -1.0;
            if t0 > t1 {
                core::mem::swap(&mut t0, &mut t1);
                s = 1.0;
            }
            if t0 > lo {
                lo = t0;
                axis = i;
                sign = s;
            }
            if t1 < hi {
                hi = t1;
            }
        }
        if lo > hi || axis == 3 {
            None
        } else {
            Some((lo, axis, sign))
        }
    }

    #[test]
    fn rotated_box_hits_agree_with_the_slab_test() {
        let mut rng = Lcg(11);
        let mut hits = 0;
        for _ in 0..400 {
            let half = Vec3::new(
                0.3 + rng.next().abs(),
                0.3 + rng.next().abs(),
                0.3 + rng.next().abs(),
            );
            let center = rng.vec(0.5);
            let rotation = Quat::new(rng.next(), rng.next(), rng.next(), rng.next()).normalize();
            let b = BoxHull::new(half, center, rotation);
            let xf = rng.pose(3.0);
            let origin = xf.apply(center) + rng.vec(6.0);
            let translation = (xf.apply(center) + rng.vec(1.5) - origin) * 1.5;
            let got = ray_cast_hull(&b.view(), &xf, &ray(origin, translation));
            // The ray in the box's own axes.
            let box_to_common = Transform::new(center, rotation);
            let o = box_to_common.apply_inv(xf.apply_inv(origin));
            let d = rotation.inv_rotate(xf.q.inv_rotate(translation));
            match slab(o, d, half) {
                Some((t, axis, sign)) if t > 0.0 && t <= 1.0 => {
                    let hit = got.expect("hit");
                    hits += 1;
                    assert!((hit.fraction as f64 - t).abs() < 1e-5, "{hit:?} vs {t}");
                    let mut n = Vec3::ZERO;
                    match axis {
                        0 => n.x = sign as f32,
                        1 => n.y = sign as f32,
                        _ => n.z = sign as f32,
                    }
                    let n = xf.q.rotate(rotation.rotate(n));
                    assert!(near(hit.normal, n, 1e-5), "{hit:?} vs {n:?}");
                    assert!(near(hit.point, origin + translation * t as f32, 1e-4));
                }
                Some((t, _, _)) if t <= 0.0 => assert!(got.is_none(), "inside: {got:?}"),
                _ => assert!(got.is_none(), "{got:?}"),
            }
        }
        assert!(hits > 100, "{hits} hits");
    }

    #[test]
    fn prism_side_faces_are_hit_at_the_apothem() {
        // A hexagonal prism: side faces at the apothem r cos(30°) from the axis.
        let p = TestHull::prism(6, 1.0, 0.5);
        let h = p.view();
        let xf = pose(Vec3::new(0.5, 1.0, -2.0), Vec3::new(1.0, -0.5, 0.2), 2.0);
        let apothem = 0.866_025_4f32;
        for k in 0..6 {
            // Face k lies between corners k and k+1: its normal is at angle (k + ½) 60°.
            let angle = (k as f32 + 0.5) * core::f32::consts::PI / 3.0;
            let n = Vec3::new(crate::math::cos(angle), 0.0, crate::math::sin(angle));
            let origin = n * 4.0 + Vec3::new(0.0, 0.2, 0.0);
            let input = ray(xf.apply(origin), xf.q.rotate(n * -8.0));
            let hit = ray_cast_hull(&h, &xf, &input).expect("hit");
            assert!(
                ((4.0 - apothem) / 8.0 - hit.fraction).abs() < 1e-5,
                "{hit:?}"
            );
            assert!(near(hit.normal, xf.q.rotate(n), 1e-5));
        }
        // Down onto the top face, and past the top edge.
        let input = ray(
            xf.apply(Vec3::new(0.1, 3.0, 0.1)),
            xf.q.rotate(Vec3::new(0.0, -4.0, 0.0)),
        );
        let hit = ray_cast_hull(&h, &xf, &input).unwrap();
        assert!((hit.fraction - 0.625).abs() < 1e-5);
        assert!(near(hit.normal, xf.q.rotate(Vec3::Y), 1e-5));
        let input = ray(
            xf.apply(Vec3::new(1.01, 3.0, 0.0)),
            xf.q.rotate(Vec3::new(0.0, -4.0, 0.0)),
        );
        assert!(ray_cast_hull(&h, &xf, &input).is_none());
    }

    #[test]
    fn random_hull_hits_lie_on_the_entry_face_and_enter_it() {
        let mut rng = Lcg(5);
        let mut hits = 0;
        for _ in 0..60 {
            let mut pts = [Vec3::ZERO; 24];
            for p in pts.iter_mut() {
                *p = rng.vec(1.0);
            }
            let mut hull = Hull::default();
            build_hull(&pts, &mut hull).unwrap();
            let h = hull.view();
            let xf = rng.pose(2.0);
            for _ in 0..20 {
                let origin = xf.apply(rng.vec(5.0));
                let translation = (xf.apply(rng.vec(0.7)) - origin) * 2.0;
                let input = ray(origin, translation);
                let depth = |p: Vec3| {
                    let p = xf.apply_inv(p);
                    h.planes
                        .iter()
                        .map(|pl| pl.distance(p))
                        .fold(-1e9, crate::math::max)
                };
                let Some(hit) = ray_cast_hull(&h, &xf, &input) else {
                    // A miss: the origin is inside, or no sampled point along the ray is.
                    if depth(origin) > 0.0 {
                        for i in 0..=200 {
                            let p = origin + translation * (i as f32 / 200.0);
                            assert!(depth(p) > -1e-4, "missed an inside point");
                        }
                    }
                    continue;
                };
                hits += 1;
                let local = xf.apply_inv(hit.point);
                let n = xf.q.inv_rotate(hit.normal);
                let face = h
                    .planes
                    .iter()
                    .position(|pl| near(pl.normal, n, 1e-6))
                    .unwrap();
                assert!(h.planes[face].distance(local).abs() < 1e-5);
                for pl in h.planes {
                    assert!(pl.distance(local) < 1e-5, "the hit point is outside");
                }
                assert!(hit.normal.dot(translation) < 0.0);
                // A little before the hit the ray is outside.
                let before = xf.apply_inv(origin + translation * (hit.fraction - 1e-3));
                assert!(h.planes.iter().any(|pl| pl.distance(before) > 0.0));
            }
        }
        assert!(hits > 300, "{hits} hits");
    }

    #[test]
    fn degenerate_rays_and_shapes_give_no_nan() {
        let b = BoxHull::new(Vec3::new(1.0, 1.0, 1.0), Vec3::ZERO, Quat::IDENTITY);
        let s = Sphere {
            center: Vec3::ZERO,
            radius: 0.0,
        };
        let c = Capsule {
            center1: Vec3::ZERO,
            center2: Vec3::ZERO,
            radius: 0.0,
        };
        let xf = Transform::IDENTITY;
        let inputs = [
            ray(Vec3::new(-2.0, 0.0, 0.0), Vec3::new(4.0, 0.0, 0.0)),
            ray(Vec3::new(-2.0, 1.0, 1.0), Vec3::new(4.0, 0.0, 0.0)),
            ray(Vec3::new(-2.0, 0.0, 0.0), Vec3::ZERO),
            ray(Vec3::new(-1.0, 0.0, 0.0), Vec3::new(1.0, 0.0, 0.0)),
            ray(Vec3::new(1e30, -1e30, 1e30), Vec3::new(-3e38, 3e38, -3e38)),
            RayInput {
                max_fraction: -1.0,
                ..ray(Vec3::new(-2.0, 0.0, 0.0), Vec3::new(4.0, 0.0, 0.0))
            },
        ];
        for input in &inputs {
            for hit in [
                ray_cast_hull(&b.view(), &xf, input),
                ray_cast_sphere(&s, &xf, input),
                ray_cast_capsule(&c, &xf, input),
            ]
            .into_iter()
            .flatten()
            {
                assert!(hit.fraction.is_finite() && hit.point.is_valid() && hit.normal.is_valid());
                assert!(hit.fraction >= 0.0 && hit.fraction <= input.max_fraction);
            }
        }
        // Through a point sphere's centre: a hit with a usable normal.
        let hit = ray_cast_sphere(&s, &xf, &inputs[0]).unwrap();
        assert!(near(hit.normal, -Vec3::X, 1e-6));
        // Along a box edge (touching two faces' planes) enters the box's surface.
        let hit = ray_cast_hull(&b.view(), &xf, &inputs[1]).unwrap();
        assert_eq!(hit.fraction, 0.25);
    }
}
