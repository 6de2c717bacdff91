//! World bounds of shapes under a transform, bounds seen from a turned frame, and a
//! hull's reach from a point.

use super::hull::{BoxHull, HullView};
use super::{Capsule, Sphere};
use crate::math::{Aabb, Mat3, Quat, Transform, Vec3, max};

/// Bounds of a sphere placed by `xf`.
pub fn sphere_aabb(s: &Sphere, xf: &Transform) -> Aabb {
    let c = xf.apply(s.center);
    let r = Vec3::splat(s.radius);
    Aabb::new(c - r, c + r)
}

/// Bounds of a capsule placed by `xf`: both segment ends, grown by the radius.
pub fn capsule_aabb(c: &Capsule, xf: &Transform) -> Aabb {
    let a = xf.apply(c.center1);
    let b = xf.apply(c.center2);
    let r = Vec3::splat(c.radius);
    Aabb::new(a.min(b) - r, a.max(b) + r)
}

/// Bounds of a hull placed by `xf`, from every transformed vertex. An empty view gives
/// the point `xf.p`.
pub fn hull_aabb(h: &HullView, xf: &Transform) -> Aabb {
    let Some(first) = h.vertices.first() else {
        return Aabb::new(xf.p, xf.p);
    };
    // One matrix for all vertices: 15 operations each instead of a quaternion rotation.
    let r = Mat3::from_quat(xf.q);
    let v = r.mul_vec(*first);
    let mut bounds = Aabb::new(v, v);
    for &p in &h.vertices[1..] {
        let v = r.mul_vec(p);
        bounds.lower = bounds.lower.min(v);
        bounds.upper = bounds.upper.max(v);
    }
    Aabb::new(bounds.lower + xf.p, bounds.upper + xf.p)
}

/// Bounds of a box hull placed by `xf`: centre plus the absolute rotation matrix times the
/// half-extents (exact in real arithmetic, a few roundings instead of eight rotations).
pub fn box_aabb(b: &BoxHull, xf: &Transform) -> Aabb {
    let r = Mat3::from_quat(xf.q);
    let c = r.mul_vec(b.center) + xf.p;
    // The box's own axes in the shape frame, scaled by the half-extents, are the edge
    // vectors from the centre to three faces: v[1]-v[0] etc. are full edges.
    let ex = (b.vertices[1] - b.vertices[0]) * 0.5;
    let ey = (b.vertices[3] - b.vertices[0]) * 0.5;
    let ez = (b.vertices[4] - b.vertices[0]) * 0.5;
    let (ax, ay, az) = (r.mul_vec(ex), r.mul_vec(ey), r.mul_vec(ez));
    let e = ax.abs() + ay.abs() + az.abs();
    Aabb::new(c - e, c + e)
}

/// Bounds of a box rotated by `q` about the frame's origin.
pub(crate) fn rotated_aabb(b: &Aabb, q: Quat) -> Aabb {
    let m = Mat3::from_quat(q);
    let c = m.mul_vec(b.center());
    let h = b.extents();
    let e = (m.cx * h.x).abs() + (m.cy * h.y).abs() + (m.cz * h.z).abs();
    Aabb::new(c - e, c + e)
}

/// The bounds `b` (relative to `origin`, world orientation) in the frame of a body at
/// `origin` turned by `q`.
#[inline]
pub(crate) fn bounds_in_frame(b: &Aabb, q: Quat) -> Aabb {
    rotated_aabb(b, q.conjugate())
}

/// The largest distance from `center` to a vertex of the hull: how far any point of it
/// reaches, for sleep and continuous collision.
pub fn hull_max_extent(h: &HullView, center: Vec3) -> f32 {
    let mut d2 = 0.0f32;
    for &v in h.vertices {
        d2 = max(d2, (v - center).length_squared());
    }
    crate::math::sqrt(d2)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: Vec3, b: Vec3) -> bool {
        (a - b).length() < 1e-5
    }

    #[test]
    fn sphere_bounds_follow_the_transformed_centre() {
        let s = Sphere {
            center: Vec3::new(1.0, 0.0, 0.0),
            radius: 0.5,
        };
        let q = Quat::from_axis_angle(Vec3::Z, core::f32::consts::FRAC_PI_2);
        let xf = Transform::new(Vec3::new(0.0, 0.0, 3.0), q);
        let b = sphere_aabb(&s, &xf);
        assert!(close(b.lower, Vec3::new(-0.5, 0.5, 2.5)));
        assert!(close(b.upper, Vec3::new(0.5, 1.5, 3.5)));
    }

    #[test]
    fn capsule_bounds_hold_both_caps() {
        let c = Capsule {
            center1: Vec3::new(-1.0, 0.0, 0.0),
            center2: Vec3::new(1.0, 0.0, 0.0),
            radius: 0.25,
        };
        let q = Quat::from_axis_angle(Vec3::Z, core::f32::consts::FRAC_PI_2);
        let b = capsule_aabb(&c, &Transform::new(Vec3::new(2.0, 0.0, 0.0), q));
        assert!(close(b.lower, Vec3::new(1.75, -1.25, -0.25)));
        assert!(close(b.upper, Vec3::new(2.25, 1.25, 0.25)));
    }

    #[test]
    fn rotated_box_bounds_match_the_absolute_rotation_trick() {
        let half = Vec3::new(1.0, 2.0, 0.5);
        let q = Quat::from_axis_angle(Vec3::new(1.0, 2.0, 3.0).normalize(), 0.7);
        let b = BoxHull::new(half, Vec3::new(0.5, 0.0, -1.0), Quat::IDENTITY);
        let xf = Transform::new(Vec3::new(3.0, -2.0, 1.0), q);
        let bounds = box_aabb(&b, &xf);
        // |R| half around the transformed centre.
        let r = crate::math::Mat3::from_quat(q);
        let e = Vec3::new(
            r.cx.x.abs() * half.x + r.cy.x.abs() * half.y + r.cz.x.abs() * half.z,
            r.cx.y.abs() * half.x + r.cy.y.abs() * half.y + r.cz.y.abs() * half.z,
            r.cx.z.abs() * half.x + r.cy.z.abs() * half.y + r.cz.z.abs() * half.z,
        );
        let c = xf.apply(b.center);
        assert!(close(bounds.lower, c - e));
        assert!(close(bounds.upper, c + e));
    }

    #[test]
    fn hull_bounds_and_reach_come_from_the_vertices() {
        let b = BoxHull::new(Vec3::new(1.0, 2.0, 3.0), Vec3::ZERO, Quat::IDENTITY);
        let h = b.view();
        let bounds = hull_aabb(
            &h,
            &Transform::new(Vec3::new(1.0, 1.0, 1.0), Quat::IDENTITY),
        );
        assert!(close(bounds.lower, Vec3::new(0.0, -1.0, -2.0)));
        assert!(close(bounds.upper, Vec3::new(2.0, 3.0, 4.0)));
        let reach = hull_max_extent(&h, Vec3::ZERO);
        assert!((reach - 14.0f32.sqrt()).abs() < 1e-6);
        let reach = hull_max_extent(&h, Vec3::new(1.0, 0.0, 0.0));
        assert!((reach - 17.0f32.sqrt()).abs() < 1e-6);
    }
}
