//! What game engines build characters and triggers on: contact-point queries ("rest
//! info") and the motion test (Godot's `body_test_motion`, the core of `move_and_slide`).
//! Read-only.

use crate::collide::cast::{SHAPE_CAST_TARGET, shape_cast};
use crate::collide::distance::distance;
use crate::collide::{Manifold, SatCache};
use crate::contact::collide_with_hulls;
use crate::error::Result;
use crate::geometry::hull::HullView;
use crate::id::{BodyId, ShapeId};
use crate::math::{Aabb, DAabb, DVec3, Quat, Transform, Vec3};
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
    (probe, probe_hull): (&Shape, Option<HullView>),
    position: DVec3,
    rotation: Quat,
    slot: u32,
    margin: f32,
) -> Manifold {
    let other = &w.shapes[slot as usize];
    let (xf_p, xf_o) = probe_frames(w, other, position, rotation);
    let mut cache = SatCache::default();
    if probe.geometry.kind() >= other.geometry.kind() {
        // Normal from the probe to the other: turn it around.
        let mut m = collide_with_hulls(
            (probe, probe_hull),
            &xf_p,
            (other, None),
            &xf_o,
            &w.content.hulls,
            &w.content.meshes,
            margin,
            &mut cache,
        );
        m.normal = -m.normal;
        m
    } else {
        collide_with_hulls(
            (other, None),
            &xf_o,
            (probe, probe_hull),
            &xf_p,
            &w.content.hulls,
            &w.content.meshes,
            margin,
            &mut cache,
        )
    }
}

/// [`probe_manifold`] where only what lies in `region` (a box of the world) can be met:
/// a mesh tests only its triangles there, other shapes as [`probe_manifold`] does.
pub(crate) fn probe_manifold_within(
    w: &World,
    (probe, probe_hull): (&Shape, Option<HullView>),
    position: DVec3,
    rotation: Quat,
    slot: u32,
    margin: f32,
    region: &DAabb,
) -> Manifold {
    let other = &w.shapes[slot as usize];
    if !matches!(other.geometry, crate::shape::ShapeGeometry::Mesh(_)) {
        return probe_manifold(w, (probe, probe_hull), position, rotation, slot, margin);
    }
    let (xf_p, xf_o) = probe_frames(w, other, position, rotation);
    crate::contact::collide_mesh_within(
        other,
        &xf_o,
        (probe, probe_hull),
        &xf_p,
        &w.content.hulls,
        &w.content.meshes,
        margin,
        Some(&Aabb::new(
            (region.lower - position).to_f32(),
            (region.upper - position).to_f32(),
        )),
    )
}

/// The probe's and `other`'s frames in the frame of the probe's position.
fn probe_frames(
    w: &World,
    other: &Shape,
    position: DVec3,
    rotation: Quat,
) -> (Transform, Transform) {
    let b = &w.bodies[other.body as usize];
    let xf_p = Transform::new(Vec3::ZERO, rotation);
    let xf_o = Transform::new((b.position - position).to_f32(), b.rotation);
    (xf_p, xf_o)
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
        let rotation =
            crate::error::check_rotation("query rotation", "query rotation norm²", rotation)?;
        let probe = self.query_probe(shape, position, rotation)?;
        let local = probe.local_aabb(self, rotation).inflate(margin);
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
            let b = &self.bodies[s.body as usize];
            // Every piece's points (a convex probe: its own), piece by piece.
            probe.each(|hull| {
                let m =
                    probe_manifold(self, (&probe.shape, hull), position, rotation, slot, margin);
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

/// A motion test: may `body`, placed at `position`/`rotation`, move by `motion`?
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MotionTest {
    /// The body whose shapes move (it never collides with itself).
    pub body: BodyId,
    /// Where the body starts (its origin), relative to the world origin.
    pub position: DVec3,
    /// Its rotation.
    pub rotation: Quat,
    /// The motion to test, m.
    pub motion: Vec3,
    /// Kept between the body and what it stops at, m; contacts this close are reported.
    pub margin: f32,
    /// What the body collides with.
    pub filter: QueryFilter,
}

/// A separation ray of the moving body (Godot's `SeparationRayShape3D`): a segment from
/// `origin` along `direction` of `length`, in the body's frame, that separates the body
/// only along its own direction (a character standing on it: `length` above the floor).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SeparationRay {
    /// Where the ray starts, body frame.
    pub origin: Vec3,
    /// Its direction, body frame (any length above zero; normalised).
    pub direction: Vec3,
    /// Its length, m, in [0, 1e3].
    pub length: f32,
    /// Separate along the surface normal rather than the ray (Godot's `slide_on_slope`);
    /// such a ray also takes part in the cast, like a shape.
    pub slide_on_slope: bool,
}

/// What a motion test takes besides the [`MotionTest`]: bodies to leave out (Godot's
/// `PhysicsTestMotionParameters3D.exclude_bodies` / `exclude_objects`) and the moving
/// body's separation rays.
#[derive(Clone, Copy, Default)]
pub struct MotionOptions<'a> {
    /// Bodies the test ignores (each a live body of this world).
    pub exclude: &'a [BodyId],
    /// Bodies the test ignores, asked per body met (a host's own exclusion set).
    pub exclude_where: Option<&'a dyn Fn(BodyId) -> bool>,
    /// The moving body's separation rays: they push it out of what they pierce at the
    /// start and report contacts at the end.
    pub separation_rays: &'a [SeparationRay],
    /// Whether separation rays also stop the cast (Godot's `collide_separation_ray`:
    /// `move_and_slide` snapping to the floor); a `slide_on_slope` ray always does.
    pub collide_separation_rays: bool,
}

/// One collision a motion test reports.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MotionCollision {
    /// The contact (`normal` points from the collider towards the moving body).
    pub contact: ContactPointPair,
    /// The moving body's shape involved; [`ShapeId::NULL`] for a separation ray (the one
    /// whose tip is `contact.point_on_query`).
    pub local_shape: ShapeId,
}

/// What a motion test found.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct MotionResult {
    /// How far the body may move: the recovery out of initial overlap plus the safe part
    /// of the motion.
    pub travel: Vec3,
    /// The part of the motion left over.
    pub remainder: Vec3,
    /// Fraction of the motion that can be made keeping `margin` from everything.
    pub safe_fraction: f32,
    /// Fraction at which the shapes first touch (1 when they never do).
    pub unsafe_fraction: f32,
    /// Collisions found at the end of the travel (within the margin), deepest first.
    pub collision_count: usize,
}

impl World {
    /// The motion test at the core of `move_and_slide`: first recovers the body out of
    /// any overlap it starts in (up to four pushes along the deepest contact), then casts
    /// its shapes along `motion` (ignoring contacts it starts touching and moves along or
    /// away from, so bodies slide along floors and walls), stops `margin` short of the first
    /// hit, and reports the contacts within the margin there, deepest first, up to
    /// `out.len()`.
    pub fn test_body_motion(
        &self,
        t: &MotionTest,
        out: &mut [MotionCollision],
    ) -> Result<MotionResult> {
        self.motion_test(t, out, false)
    }

    /// The motion test as [`World::test_body_motion`], reporting only what the motion ran
    /// into, as Godot's `body_test_motion` does: with a motion, only the contacts facing
    /// against it (`normal · direction < −1e-3`), most opposed first (ties: deeper first,
    /// then found first), up to `out.len()`; `collision_count` counts those contacts.
    /// With a zero motion every contact is reported, deepest first. `move_and_slide`
    /// slides along collision 0 and takes the deepest floor-like collision as the floor,
    /// so a floor the body merely stands on while it walks into a wall or ramp must not be
    /// reported.
    pub fn test_body_motion_against(
        &self,
        t: &MotionTest,
        out: &mut [MotionCollision],
    ) -> Result<MotionResult> {
        self.motion_test(t, out, true)
    }

    /// [`World::test_body_motion_against`] with [`MotionOptions`]: bodies left out and
    /// separation rays. Refused (nothing computed) when an excluded id is no live body
    /// of this world or a ray is not finite, has a zero direction or a length outside
    /// [0, 1e3].
    pub fn test_body_motion_against_with(
        &self,
        t: &MotionTest,
        options: &MotionOptions,
        out: &mut [MotionCollision],
    ) -> Result<MotionResult> {
        for &b in options.exclude {
            self.body_slot(b)?;
        }
        for r in options.separation_rays {
            crate::limits::check_vec_abs(
                "separation ray origin",
                r.origin,
                1.0e6,
                "finite and within ±1e6",
            )?;
            crate::limits::check_vec_abs(
                "separation ray direction",
                r.direction,
                1.0e6,
                "finite and within ±1e6",
            )?;
            crate::limits::check_nonneg(
                "separation ray length",
                r.length,
                1.0e3,
                "within [0, 1e3]",
            )?;
            if r.direction.dot(r.direction) <= 0.0 {
                return Err(crate::error::Error::Argument {
                    name: "separation ray direction",
                    value: 0.0,
                    expected: "a nonzero vector",
                });
            }
        }
        self.motion_test_with(t, out, true, options)
    }

    /// Both motion tests; `against`: report only contacts facing against the motion.
    fn motion_test(
        &self,
        t: &MotionTest,
        out: &mut [MotionCollision],
        against: bool,
    ) -> Result<MotionResult> {
        self.motion_test_with(t, out, against, &MotionOptions::default())
    }

    fn motion_test_with(
        &self,
        t: &MotionTest,
        out: &mut [MotionCollision],
        against: bool,
        options: &MotionOptions,
    ) -> Result<MotionResult> {
        let slot = self.body_slot(t.body)? as u32;
        crate::limits::check_nonneg("margin", t.margin, 1.0e3, "within [0, 1e3]")?;
        crate::limits::check_vec_abs(
            "motion",
            t.motion,
            1.0e6,
            "finite and within ±1e6 (each component)",
        )?;
        let rotation =
            crate::error::check_rotation("query rotation", "query rotation norm²", t.rotation)?;
        self.query_probe(
            &QueryShape::Sphere(crate::geometry::Sphere {
                center: Vec3::ZERO,
                radius: 1.0,
            }),
            t.position,
            rotation,
        )?;
        let accepts = |other: u32| {
            let s = &self.shapes[other as usize];
            if s.body == slot || s.is_sensor || !t.filter.accepts(s) {
                return false;
            }
            if options.exclude.is_empty() && options.exclude_where.is_none() {
                return true;
            }
            let id = self.body_id(s.body);
            !options.exclude.contains(&id) && !options.exclude_where.is_some_and(|f| f(id))
        };
        let rays = options.separation_rays;
        let recovered = self.motion_recovery(slot, t.position, rotation, &accepts, rays);
        let start = t.position + recovered.to_f64();
        let length = t.motion.length();
        let mut t_touch = self.motion_cast(slot, start, rotation, t.motion, &accepts);
        for r in rays {
            if options.collide_separation_rays || r.slide_on_slope {
                if let Some(f) = self.ray_cast_along(r, start, rotation, t.motion, &accepts) {
                    if f < t_touch {
                        t_touch = f;
                    }
                }
            }
        }
        let safe = if t_touch >= 1.0 {
            1.0
        } else {
            crate::math::max(0.0, t_touch - t.margin / length)
        };
        let end = start + (t.motion * safe).to_f64();
        let order = match against_direction(t.motion) {
            Some(direction) if against => Order::Against(direction),
            _ => Order::Deepest,
        };
        let mut count = self.motion_contacts(slot, end, rotation, t.margin, &accepts, order, out);
        for r in rays {
            if let Some(c) = self.ray_contact(r, end, rotation, t.margin, &accepts) {
                if order.accepts(&c) {
                    count = keep_in_order(out, count, c, order);
                }
            }
        }
        Ok(MotionResult {
            travel: recovered + t.motion * safe,
            remainder: t.motion * (1.0 - safe),
            safe_fraction: safe,
            unsafe_fraction: t_touch,
            collision_count: count,
        })
    }
    /// The motion test's first part: pushes the body out of the overlaps it starts in (up
    /// to four pushes along the deepest contact); returns the push.
    fn motion_recovery(
        &self,
        slot: u32,
        position: DVec3,
        rotation: Quat,
        accepts: &impl Fn(u32) -> bool,
        rays: &[SeparationRay],
    ) -> Vec3 {
        let body = &self.bodies[slot as usize];
        let mut recovered = Vec3::ZERO;
        for _ in 0..4 {
            let at = position + recovered.to_f64();
            let mut deepest: Option<(f32, Vec3)> = None;
            for r in rays {
                if let Some((depth, n)) = self.ray_push(r, at, rotation, accepts) {
                    if depth > 0.0 && deepest.is_none_or(|(d, _)| depth > d) {
                        deepest = Some((depth, n));
                    }
                }
            }
            let mut s = body.shape_head;
            while s != crate::body::NONE {
                let shape = &self.shapes[s as usize];
                // The body's ray shapes take part through `separation_rays` only.
                if !shape.is_sensor && !shape.is_ray() {
                    let aabb = DAabb::from_local(
                        at,
                        &crate::shape::local_aabb(shape, &self.content.hulls, rotation),
                    );
                    self.for_each_shape_in_slot_order(&aabb, |other| {
                        if !accepts(other) {
                            return;
                        }
                        let m = probe_manifold(self, (shape, None), at, rotation, other, 0.0);
                        for p in &m.points[..m.count as usize] {
                            if p.separation < 0.0 && deepest.is_none_or(|(d, _)| -p.separation > d)
                            {
                                deepest = Some((-p.separation, m.normal));
                            }
                        }
                    });
                }
                s = shape.next_in_body;
            }
            match deepest {
                Some((depth, n)) => recovered += n * depth,
                None => break,
            }
        }
        recovered
    }

    /// The motion test's second part: casts the body's shapes from `start` along `motion`;
    /// returns the fraction at the first blocking touch (1 when nothing blocks, 0 when a
    /// shape already touching is moved into).
    fn motion_cast(
        &self,
        slot: u32,
        start: DVec3,
        rotation: Quat,
        motion: Vec3,
        accepts: &impl Fn(u32) -> bool,
    ) -> f32 {
        let body = &self.bodies[slot as usize];
        let length = motion.length();
        let mut t_touch = 1.0f32;
        if length > 0.0 {
            let mut s = body.shape_head;
            while s != crate::body::NONE {
                let shape = &self.shapes[s as usize];
                if shape.is_sensor || shape.is_ray() {
                    s = shape.next_in_body;
                    continue;
                }
                let proxy = crate::shape::shape_proxy(shape, &self.content.hulls);
                let local = crate::shape::local_aabb(shape, &self.content.hulls, rotation);
                let a0 = DAabb::from_local(start, &local);
                let a1 = DAabb::from_local(start + motion.to_f64(), &local);
                let swept = a0.union(&a1);
                let xf_body = Transform::new(Vec3::ZERO, rotation);
                self.for_each_shape_in_slot_order(&swept, |other| {
                    if !accepts(other) {
                        return;
                    }
                    let o = &self.shapes[other as usize];
                    let ob = &self.bodies[o.body as usize];
                    let xf_other = Transform::new((ob.position - start).to_f32(), ob.rotation);
                    // A mesh: each triangle under the swept bounds.
                    self.for_each_proxy(o, &swept, |other_proxy| {
                        let d = distance(other_proxy, &xf_other, &proxy, &xf_body);
                        if d.distance < 2.0 * SHAPE_CAST_TARGET {
                            // Touching already: only motion into the other shape is
                            // blocked. Motion along its surface is not, within a rounding
                            // tolerance: `move_and_slide` projects the motion onto the
                            // surface it hit, and that projection's dot product with the
                            // normal is ±1e-8, not 0.
                            if motion.dot(d.normal) < -1.0e-4 * length {
                                t_touch = 0.0;
                            }
                            return;
                        }
                        let c =
                            shape_cast(other_proxy, &xf_other, &proxy, &xf_body, motion, t_touch);
                        if c.hit && c.fraction < t_touch {
                            t_touch = c.fraction;
                        }
                    });
                });
                s = shape.next_in_body;
            }
        }
        t_touch
    }

    /// The motion test's last part: the contacts within `margin` where the travel ends
    /// that `order` accepts, in its order, up to `out.len()`; returns how many were found
    /// (may exceed it).
    #[allow(clippy::too_many_arguments)]
    fn motion_contacts(
        &self,
        slot: u32,
        end: DVec3,
        rotation: Quat,
        margin: f32,
        accepts: &impl Fn(u32) -> bool,
        order: Order,
        out: &mut [MotionCollision],
    ) -> usize {
        let body = &self.bodies[slot as usize];
        let reach = crate::math::max(margin, 2.0 * SHAPE_CAST_TARGET) + margin;
        let mut count = 0usize;
        let mut s = body.shape_head;
        while s != crate::body::NONE {
            let shape = &self.shapes[s as usize];
            if !shape.is_sensor && !shape.is_ray() {
                let local =
                    crate::shape::local_aabb(shape, &self.content.hulls, rotation).inflate(reach);
                let aabb = DAabb::from_local(end, &local);
                let local_shape = self.shape_id(s);
                self.for_each_shape_in_slot_order(&aabb, |other| {
                    if !accepts(other) {
                        return;
                    }
                    let o = &self.shapes[other as usize];
                    let ob = &self.bodies[o.body as usize];
                    let m = probe_manifold(self, (shape, None), end, rotation, other, reach);
                    for p in &m.points[..m.count as usize] {
                        let half = m.normal * (0.5 * p.separation);
                        let on_other = p.point - half;
                        let r = (end - ob.position).to_f32() + on_other - ob.center_offset();
                        let c = MotionCollision {
                            contact: ContactPointPair {
                                point_on_query: end + (p.point + half).to_f64(),
                                point_on_other: end + on_other.to_f64(),
                                normal: m.normal,
                                depth: -p.separation,
                                shape: self.shape_id(other),
                                body: self.body_id(o.body),
                                velocity: ob.linear_velocity + ob.angular_velocity.cross(r),
                            },
                            local_shape,
                        };
                        if order.accepts(&c) {
                            count = keep_in_order(out, count, c, order);
                        }
                    }
                });
            }
            s = shape.next_in_body;
        }
        count
    }
}

impl World {
    /// A separation ray of a body at `at`/`rotation` in world terms: its origin, unit
    /// direction and the translation to its tip.
    fn ray_in_world(r: &SeparationRay, at: DVec3, rotation: Quat) -> (DVec3, Vec3, Vec3) {
        let d = rotation.rotate(r.direction);
        let unit = d * (1.0 / crate::math::sqrt(d.dot(d)));
        (
            at + rotation.rotate(r.origin).to_f64(),
            unit,
            unit * r.length,
        )
    }

    /// What the ray pierces at `at` (the first hit along it, within `reach` past its
    /// tip): the depth of its tip past the surface (negative: short of it), the push's
    /// direction (against the ray; the surface normal for `slide_on_slope`, the depth
    /// measured along it), the hit slot and point.
    fn ray_hit(
        &self,
        r: &SeparationRay,
        at: DVec3,
        rotation: Quat,
        reach: f32,
        accepts: &impl Fn(u32) -> bool,
    ) -> Option<(f32, Vec3, u32, DVec3)> {
        let (origin, unit, _) = Self::ray_in_world(r, at, rotation);
        let total = r.length + reach;
        if total <= 0.0 {
            return None;
        }
        let (slot, hit) = self.ray_closest_where(origin, unit * total, accepts)?;
        let b = &self.bodies[self.shapes[slot as usize].body as usize];
        let depth = r.length - hit.fraction * total;
        let point = b.position + hit.point.to_f64();
        if r.slide_on_slope {
            let along = -unit.dot(hit.normal);
            Some((depth * along, hit.normal, slot, point))
        } else {
            Some((depth, -unit, slot, point))
        }
    }

    /// The recovery push of a separation ray at `at`: depth and direction.
    fn ray_push(
        &self,
        r: &SeparationRay,
        at: DVec3,
        rotation: Quat,
        accepts: &impl Fn(u32) -> bool,
    ) -> Option<(f32, Vec3)> {
        self.ray_hit(r, at, rotation, 0.0, accepts)
            .map(|(d, n, _, _)| (d, n))
    }

    /// The fraction of `motion` at which the ray's tip, moved from `start`, meets a
    /// shape (only when the motion carries the tip ahead: it has a part along the ray).
    fn ray_cast_along(
        &self,
        r: &SeparationRay,
        start: DVec3,
        rotation: Quat,
        motion: Vec3,
        accepts: &impl Fn(u32) -> bool,
    ) -> Option<f32> {
        let (origin, unit, tip) = Self::ray_in_world(r, start, rotation);
        if motion.dot(unit) <= 0.0 {
            return None;
        }
        // The tip on a surface already (as recovery leaves it): moving on is blocked.
        let touch = 2.0 * SHAPE_CAST_TARGET;
        if self
            .ray_hit(r, start, rotation, touch, accepts)
            .is_some_and(|(depth, ..)| depth > -touch)
        {
            return Some(0.0);
        }
        self.ray_closest_where(origin + tip.to_f64(), motion, accepts)
            .map(|(_, hit)| hit.fraction)
    }

    /// The contact a separation ray reports at the end of the travel: what it pierces or
    /// reaches within `margin` past its tip.
    fn ray_contact(
        &self,
        r: &SeparationRay,
        end: DVec3,
        rotation: Quat,
        margin: f32,
        accepts: &impl Fn(u32) -> bool,
    ) -> Option<MotionCollision> {
        let reach = crate::math::max(margin, 2.0 * SHAPE_CAST_TARGET) + margin;
        let (depth, normal, slot, point) = self.ray_hit(r, end, rotation, reach, accepts)?;
        if depth <= -reach {
            return None;
        }
        let (origin, _, tip) = Self::ray_in_world(r, end, rotation);
        let o = &self.shapes[slot as usize];
        let ob = &self.bodies[o.body as usize];
        let rel = (point - ob.position).to_f32() - ob.center_offset();
        Some(MotionCollision {
            contact: ContactPointPair {
                point_on_query: origin + tip.to_f64(),
                point_on_other: point,
                normal,
                depth,
                shape: self.shape_id(slot),
                body: self.body_id(o.body),
                velocity: ob.linear_velocity + ob.angular_velocity.cross(rel),
            },
            local_shape: ShapeId::NULL,
        })
    }
}

/// How the motion test orders (and filters) the collisions it reports.
#[derive(Clone, Copy)]
enum Order {
    /// Every contact, deepest first (ties: found first).
    Deepest,
    /// Only contacts facing against the motion (unit direction), most opposed first (ties:
    /// deeper first, then found first).
    Against(Vec3),
}

/// The threshold below which `normal · direction` counts as facing against the motion
/// (Godot's: a contact the motion merely grazes is not reported).
const AGAINST: f32 = -1.0e-3;

/// The unit direction of a motion, `None` for a zero motion (its squared length 0).
fn against_direction(motion: Vec3) -> Option<Vec3> {
    let sq = motion.dot(motion);
    if sq > 0.0 {
        Some(motion * (1.0 / crate::math::sqrt(sq)))
    } else {
        None
    }
}

impl Order {
    /// Whether `c` is reported at all.
    fn accepts(self, c: &MotionCollision) -> bool {
        match self {
            Order::Deepest => true,
            Order::Against(d) => d.dot(c.contact.normal) < AGAINST,
        }
    }

    /// Whether `a` goes strictly before `b`: a total order on the values reported (no NaN
    /// reaches it: normals are unit vectors and the motion is checked finite), so with
    /// insertion after equals the order is stable, found order breaking the last ties.
    fn before(self, a: &MotionCollision, b: &MotionCollision) -> bool {
        let deeper = a.contact.depth > b.contact.depth;
        match self {
            Order::Deepest => deeper,
            Order::Against(d) => {
                let (ka, kb) = (d.dot(a.contact.normal), d.dot(b.contact.normal));
                ka < kb || (ka == kb && deeper)
            }
        }
    }
}

/// Inserts collision `c`, the `count`-th accepted, into `out` (kept in `order`, the first
/// `out.len()` of all accepted so far); returns the new count (which may exceed
/// `out.len()`). Allocates nothing.
fn keep_in_order(
    out: &mut [MotionCollision],
    count: usize,
    c: MotionCollision,
    order: Order,
) -> usize {
    let kept = count.min(out.len());
    let mut i = if kept < out.len() {
        kept
    } else if kept == 0 || !order.before(&c, &out[kept - 1]) {
        return count + 1;
    } else {
        kept - 1
    };
    while i > 0 && order.before(&c, &out[i - 1]) {
        out[i] = out[i - 1];
        i -= 1;
    }
    out[i] = c;
    count + 1
}
