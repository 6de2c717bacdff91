//! Explosions: a radial impulse on every dynamic shape near a point.
//!
//! A shape within `radius` of the centre (by its closest point) gets the full impulse, one
//! within `radius + falloff` a linearly smaller one. The impulse is `impulse_per_area`
//! times the shape's area projected onto the plane facing the blast, pushes along the
//! line from the centre to the shape's closest point, and acts at that point. Shapes are
//! visited in slot order, so a body with several shapes adds them up in a fixed order.

use crate::body::BodyType;
use crate::error::Result;
use crate::geometry::hull::HullView;
use crate::math::{DAabb, DVec3, PI, Vec3, clamp};
use crate::shape::{Shape, ShapeGeometry};
use crate::world::World;

/// An explosion.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ExplosionDef {
    /// The centre, relative to the world origin.
    pub position: DVec3,
    /// Shapes this close get the full impulse, m.
    pub radius: f32,
    /// Beyond the radius the impulse falls linearly to zero over this distance, m.
    pub falloff: f32,
    /// Impulse per square metre of area facing the blast, N·s/m².
    pub impulse_per_area: f32,
    /// Shapes whose category is in this mask are pushed.
    pub mask_bits: u64,
}

impl Default for ExplosionDef {
    fn default() -> ExplosionDef {
        ExplosionDef {
            position: DVec3::ZERO,
            radius: 1.0,
            falloff: 1.0,
            impulse_per_area: 1.0,
            mask_bits: u64::MAX,
        }
    }
}

/// Closest point of a convex hull to `p` (all in the hull's frame), and whether `p` is
/// inside.
fn hull_closest(h: &HullView, p: Vec3) -> (Vec3, bool) {
    if h.planes.iter().all(|pl| pl.distance(p) <= 0.0) {
        return (p, true);
    }
    let mut best = (h.vertices[0], f32::MAX);
    let mut consider = |q: Vec3| {
        let d = (q - p).length_squared();
        if d < best.1 {
            best = (q, d);
        }
    };
    // Faces the point is above, when its projection falls inside the face.
    for (f, pl) in h.planes.iter().enumerate() {
        let dist = pl.distance(p);
        if dist <= 0.0 {
            continue;
        }
        let q = p - pl.normal * dist;
        let start = h.face_edges[f] as usize;
        let mut e = start;
        let mut inside = true;
        loop {
            let edge = &h.edges[e];
            let a = h.vertices[edge.origin as usize];
            let b = h.vertices[h.edges[edge.next as usize].origin as usize];
            // Inside the face: left of every counter-clockwise edge seen from outside.
            if (b - a).cross(q - a).dot(pl.normal) < 0.0 {
                inside = false;
                break;
            }
            e = edge.next as usize;
            if e == start {
                break;
            }
        }
        if inside {
            consider(q);
        }
    }
    // Edges (their ends cover the vertices).
    for e in (0..h.edges.len()).step_by(2) {
        let a = h.vertices[h.edges[e].origin as usize];
        let b = h.vertices[h.edges[e ^ 1].origin as usize];
        let d = b - a;
        let l2 = d.length_squared();
        let t = if l2 > 0.0 {
            clamp((p - a).dot(d) / l2, 0.0, 1.0)
        } else {
            0.0
        };
        consider(a + d * t);
    }
    (best.0, false)
}

/// Area of a hull projected onto a plane of normal `d` (unit): half the sum over faces of
/// |n·d| times the face's area.
fn hull_projected_area(h: &HullView, d: Vec3) -> f32 {
    let mut sum = 0.0;
    for (f, pl) in h.planes.iter().enumerate() {
        let start = h.face_edges[f] as usize;
        let a = h.vertices[h.edges[start].origin as usize];
        let mut e = h.edges[start].next as usize;
        let mut twice = Vec3::ZERO;
        loop {
            let b = h.vertices[h.edges[e].origin as usize];
            let next = h.edges[e].next as usize;
            if next == start {
                break;
            }
            let c = h.vertices[h.edges[next].origin as usize];
            twice += (b - a).cross(c - a);
            e = next;
        }
        sum += pl.normal.dot(d).abs() * 0.5 * twice.length();
    }
    0.5 * sum
}

/// The closest point of a shape to `p` and its area facing direction `d`, all in the body
/// frame.
fn closest_and_area(
    w: &World,
    s: &Shape,
    p: Vec3,
    toward: impl Fn(Vec3) -> Vec3,
) -> (Vec3, Vec3, f32) {
    match &s.geometry {
        ShapeGeometry::Sphere(sp) => {
            let d = (sp.center - p).normalize();
            let d = if d == Vec3::ZERO { Vec3::Y } else { d };
            let q = sp.center - d * sp.radius;
            let q = if (sp.center - p).length() <= sp.radius {
                p
            } else {
                q
            };
            (q, d, PI * sp.radius * sp.radius)
        }
        ShapeGeometry::Capsule(c) => {
            let axis = c.center2 - c.center1;
            let l2 = axis.length_squared();
            let t = if l2 > 0.0 {
                clamp((p - c.center1).dot(axis) / l2, 0.0, 1.0)
            } else {
                0.0
            };
            let core = c.center1 + axis * t;
            let (dir, dist) = (core - p).normalize_and_length();
            let dir = if dist > 0.0 { dir } else { toward(core) };
            let q = if dist <= c.radius {
                p
            } else {
                core - dir * c.radius
            };
            let side = axis.cross(dir).length();
            (q, dir, PI * c.radius * c.radius + 2.0 * c.radius * side)
        }
        // Meshes are on static and kinematic bodies, which explosions leave alone.
        ShapeGeometry::Mesh(_) => (p, Vec3::Y, 0.0),
        ShapeGeometry::Box(_) | ShapeGeometry::Hull(_) => {
            let h = match &s.geometry {
                ShapeGeometry::Hull(h) => w.content.hulls[*h as usize].hull.view(),
                _ => s.box_hull.view(),
            };
            let (q, inside) = hull_closest(&h, p);
            let dir = if inside {
                toward(h.centroid)
            } else {
                (q - p).normalize()
            };
            (q, dir, hull_projected_area(&h, dir))
        }
        ShapeGeometry::Cylinder(c) => {
            // The closest point of the inscribed prism; the exact cylinder's area.
            let prism = crate::geometry::cylinder::CylinderHull::new(c);
            let h = prism.view();
            let (q, inside) = hull_closest(&h, p);
            let dir = if inside {
                toward(h.centroid)
            } else {
                (q - p).normalize()
            };
            (
                q,
                dir,
                crate::geometry::cylinder::cylinder_projected_area(c, dir),
            )
        }
        // Planes sit on static bodies, which explosions do not push.
        ShapeGeometry::Plane(pl) => (p, -pl.normal, 0.0),
        // Never reached: explosions leave rays out (no surface to push on).
        ShapeGeometry::Ray(_) => (p, Vec3::ZERO, 0.0),
    }
}

impl World {
    /// [`World::explode`] without its record (the API layer, `crate::api`, records it).
    pub(crate) fn explode_unrecorded(&mut self, def: &ExplosionDef) -> Result<()> {
        use crate::limits::{MAX_IMPULSE, check_abs, check_nonneg};
        crate::error::check_world_point(
            "explosion position",
            def.position,
            crate::math::POSITION_EXACT_BOUND,
        )?;
        check_nonneg("explosion radius", def.radius, 1.0e6, "within [0, 1e6]")?;
        check_nonneg("explosion falloff", def.falloff, 1.0e6, "within [0, 1e6]")?;
        check_abs(
            "impulse_per_area",
            def.impulse_per_area,
            MAX_IMPULSE,
            "finite and within ±1e12",
        )?;
        let reach = def.radius + def.falloff;
        let r = Vec3::splat(reach);
        let blast = DAabb::from_local(def.position, &crate::math::Aabb::new(-r, r));
        for slot in 0..self.shapes.len() {
            let s = &self.shapes[slot];
            if !s.alive
                || s.is_sensor
                || s.is_ray()
                || s.filter.category_bits & def.mask_bits == 0
                || !s.fat_aabb.overlaps(&blast)
            {
                continue;
            }
            let b = &self.bodies[s.body as usize];
            if b.body_type != BodyType::Dynamic || !b.enabled {
                continue;
            }
            // In the body frame: the centre, the closest point and its direction.
            let p = b.rotation.inv_rotate((def.position - b.position).to_f32());
            let (q, dir, area) = closest_and_area(self, s, p, |c| (c - p).normalize());
            let distance = (q - p).length();
            if distance > reach {
                continue;
            }
            let scale = if distance <= def.radius || def.falloff == 0.0 {
                1.0
            } else {
                1.0 - (distance - def.radius) / def.falloff
            };
            let magnitude = clamp(
                def.impulse_per_area * area * scale,
                -MAX_IMPULSE,
                MAX_IMPULSE,
            );
            if magnitude == 0.0 || dir == Vec3::ZERO {
                continue;
            }
            let world_dir = b.rotation.rotate(dir);
            let point = b.position + b.rotation.rotate(q).to_f64();
            let impulse = world_dir * magnitude;
            let body = s.body;
            self.apply_impulse_quietly(body, impulse, point);
        }
        Ok(())
    }
}
