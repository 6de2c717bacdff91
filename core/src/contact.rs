//! Contacts: one per shape pair whose enlarged bounds overlap, persistent from step to
//! step, holding the manifold and the impulses that warm-start the solver.

use crate::body::{Body, BodyType, NONE};
use crate::broad_phase::pair_set::pair_key;
use crate::collide::manifold::{
    collide_capsule_and_sphere, collide_capsules, collide_hull_and_capsule,
    collide_hull_and_sphere, collide_hulls, collide_spheres,
};
use crate::collide::ray::{RayHit, RayInput};
use crate::collide::ray_shape::{RayShape, collide_ray, flipped};
use crate::collide::triangle::{Convex, collide_triangle};
use crate::collide::{Manifold, SatCache};
use crate::content::{Child, MeshData, MeshSlot, mesh_data};
use crate::edge::{self, Edge, Linked};
use crate::events::ContactEvent;
use crate::geometry::PlaneShape;
use crate::geometry::bounds::bounds_in_frame;
use crate::geometry::cylinder::CylinderHull;
use crate::geometry::hull::HullView;
use crate::math::{Aabb, Quat, Transform, Vec3, max, min};
use crate::shape::{HullSlot, Shape, ShapeGeometry};
use crate::store::contacts::ContactStore;
use crate::store::content::ContentStore;
use crate::task::{Slots, Tasks};
use crate::world::{SPECULATIVE_DISTANCE, World};

/// A contact point as the contact keeps it between steps.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct ContactPoint {
    /// State: the point relative to body A's centre of mass, world orientation.
    pub anchor_a: Vec3,
    /// State: the point relative to body B's centre of mass, world orientation.
    pub anchor_b: Vec3,
    /// State: separation when the manifold was computed (negative: overlap).
    pub separation: f32,
    /// State: accumulated normal impulse (warm start).
    pub normal_impulse: f32,
    /// State: accumulated friction impulse, a world vector in the tangent plane
    /// (projected onto the new tangents when the normal turns).
    pub tangent_impulse: Vec3,
    /// Observes: the largest normal impulse of the last step.
    pub max_normal_impulse: f32,
    /// State: feature id matching points from step to step.
    pub id: u32,
    /// State: `separation` as the narrow phase computed it, which a recycled manifold's
    /// separation is measured from (see [`Recycle`]).
    pub base_separation: f32,
}

/// Contact flags.
pub(crate) const CONTACT_TOUCHING: u8 = 1;
/// Either shape wants begin/end events.
pub(crate) const CONTACT_EVENTS: u8 = 2;
/// The pre-solve callback disabled the contact for this step (not state).
pub(crate) const CONTACT_DISABLED: u8 = 4;
/// State: the manifold may be recycled (`Contact::recycle` holds the poses it was
/// computed at).
pub(crate) const CONTACT_RECYCLABLE: u8 = 8;

/// How far the bodies of a touching contact may move relative to each other (the
/// farthest any point of B moves in A's frame) and still keep its manifold: Box3D's
/// contact recycling distance, ten linear slops. Not touching, the speculative distance
/// at most: the shapes were farther apart than that, so they still do not touch.
pub(crate) const RECYCLE_DISTANCE: f32 = 10.0 * crate::world::LINEAR_SLOP;
/// Box3D's bound on how far each body may turn in the world and keep a recycled
/// manifold (whose normal and anchors are in world orientation): cos²(θ/2) of 10°.
pub(crate) const RECYCLE_COS2_HALF_ANGLE: f32 = 0.992_403_9;

/// The poses a contact's manifold was computed at (state, behind `CONTACT_RECYCLABLE`),
/// after Box3D's contact recycling (itself after the persistent manifolds of PhysX):
/// while neither body has turned more than 10° in the world and no point of B has moved
/// more than `RECYCLE_DISTANCE` in A's frame, the step keeps the manifold (its normal,
/// anchors, ids and impulses) and only measures each point's separation again from the
/// bodies' motion since: `base_separation + n · (Δc + R_B a_B − R_A a_A)`, as a substep
/// does. Contacts of two boxes or hulls recycle: theirs are the manifolds the costly
/// separating-axis search and clipping make, and they do not roll. Other convex pairs (a
/// mesh's triangle too) recycle only while apart: a rolling ball's or cylinder's contact
/// point moves with its turn, which a kept manifold would lag (a cylinder rolling down a
/// slope would gain speed in bumps), while pairs that do not touch stay apart (they
/// were at least the speculative distance apart and moved less than that).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct Recycle {
    /// Each body's world rotation then.
    pub rotation_a: Quat,
    pub rotation_b: Quat,
    /// B's centre of mass relative to A's, in A's frame.
    pub center: Vec3,
    /// B's rotation in A's frame.
    pub rotation: Quat,
}

/// Per-step outcome of the narrow phase (not state: written and read in one step).
pub(crate) const UPDATE_STARTED_TOUCHING: u8 = 1;
pub(crate) const UPDATE_STOPPED_TOUCHING: u8 = 2;
pub(crate) const UPDATE_DISJOINT: u8 = 4;
/// The `update` bits in an outcome (`ContactStore::outcomes`).
const OUTCOME_UPDATE: u8 = 7;
/// Outcome: the contact is alive.
const OUTCOME_ALIVE: u8 = 8;
/// Outcome: the contact touches.
const OUTCOME_TOUCHING: u8 = 16;
/// Outcome: the contact's manifold was recycled, not computed again.
const OUTCOME_RECYCLED: u8 = 32;

/// An edge of a body's contact list.
pub(crate) type ContactEdge = Edge;

/// A persistent contact between two shapes. Laid out as the default layout had it
/// (largest first) but with the flags beside the shapes and bodies, so a scan of the pool
/// reads what it tests of a slot (alive, bodies, flags) from one place.
#[derive(Clone, Debug)]
#[repr(C)]
pub(crate) struct Contact {
    /// State: manifold points and their impulses.
    pub points: [ContactPoint; 4],
    /// Body contact lists (not state).
    pub edges: [ContactEdge; 2],
    /// State: shape A, the one of higher kind (hull/box > capsule > sphere), or the lower
    /// slot for equal kinds.
    pub shape_a: u32,
    pub shape_b: u32,
    /// Bodies of the shapes (derived, cached).
    pub body_a: u32,
    pub body_b: u32,
    pub alive: bool,
    /// State: `CONTACT_TOUCHING`; `CONTACT_EVENTS` is derived from the shapes.
    pub flags: u8,
    /// Per-step narrow-phase outcome (not state).
    pub update: u8,
    pub point_count: u8,
    /// State: the manifold normal from A to B, world orientation.
    pub normal: Vec3,
    /// State: accumulated rolling-resistance impulse.
    pub rolling_impulse: Vec3,
    /// State: last separating or touching axis of two hulls.
    pub cache: SatCache,
    /// State (with `CONTACT_RECYCLABLE`): the poses the manifold was computed at.
    pub recycle: Recycle,
    /// State: for a child contact (one triangle of a mesh against a convex shape), the
    /// triangle's index; `NONE` for a contact of two whole shapes.
    pub child: u32,
    /// State: a child's parent contact (the pair of whole shapes), else `NONE`.
    pub parent: u32,
    /// A parent's children that touch (derived: recounted at restore).
    pub child_touching: u32,
}

// The scan's fields lie within 16 bytes of each other.
const _: () = {
    use core::mem::{offset_of, size_of};
    assert!(offset_of!(Contact, point_count) + 1 - offset_of!(Contact, body_a) <= 16);
    assert!(size_of::<Contact>() == 376);
};

impl Default for Contact {
    fn default() -> Contact {
        Contact {
            alive: false,
            shape_a: NONE,
            shape_b: NONE,
            body_a: NONE,
            body_b: NONE,
            flags: 0,
            update: 0,
            normal: Vec3::ZERO,
            points: [ContactPoint::default(); 4],
            point_count: 0,
            rolling_impulse: Vec3::ZERO,
            cache: SatCache::default(),
            recycle: Recycle::default(),
            edges: [Edge::UNLINKED; 2],
            child: NONE,
            parent: NONE,
            child_touching: 0,
        }
    }
}

impl Linked for Contact {
    #[inline(always)]
    fn edges(&self) -> &[Edge; 2] {
        &self.edges
    }
    #[inline(always)]
    fn edges_mut(&mut self) -> &mut [Edge; 2] {
        &mut self.edges
    }
    #[inline(always)]
    fn list(body: &Body) -> (u32, u32) {
        (body.contact_head, body.contact_count)
    }
    #[inline(always)]
    fn list_mut(body: &mut Body) -> (&mut u32, &mut u32) {
        (&mut body.contact_head, &mut body.contact_count)
    }
}

/// The pair-set key of child `child` of parent contact `parent` (apart from every shape
/// pair key, whose shape slots stay below 2^24).
#[inline(always)]
pub(crate) fn child_key(parent: u32, child: u32) -> u64 {
    (1 << 63) | ((parent as u64) << 32) | child as u64
}

/// Whether a shape collides per child (triangles), through child contacts.
#[inline(always)]
pub(crate) fn has_children(shape: &Shape) -> bool {
    matches!(shape.geometry, ShapeGeometry::Mesh(_))
}

/// The convex shape as the triangle collider takes it; `None` for a mesh.
pub(crate) fn convex_of<'a>(shape: &'a Shape, hulls: &'a [HullSlot]) -> Option<Convex<'a>> {
    match &shape.geometry {
        ShapeGeometry::Sphere(s) => Some(Convex::Sphere(s)),
        ShapeGeometry::Capsule(c) => Some(Convex::Capsule(c)),
        _ => hull_view(shape, hulls).map(Convex::Hull),
    }
}

/// A convex shape's enlarged bounds in a mesh body's frame.
pub(crate) fn fat_in_mesh_frame(convex: &Shape, mesh_body: &Body) -> Aabb {
    let f = &convex.fat_aabb;
    let rel = Aabb::new(
        (f.lower - mesh_body.position).to_f32(),
        (f.upper - mesh_body.position).to_f32(),
    );
    bounds_in_frame(&rel, mesh_body.rotation)
}

/// The manifold of a mesh (A) against a convex shape (B) as one manifold: the deepest of
/// its triangles' manifolds (ties: the first in the content's order). For queries and
/// sensors, which ask about whole shapes; contacts use one child per triangle.
#[allow(clippy::too_many_arguments)]
fn collide_mesh(
    data: &MeshData,
    two_sided: bool,
    xf_a: &Transform,
    shape_b: &Shape,
    given_b: Option<HullView>,
    xf_b: &Transform,
    hulls: &[HullSlot],
    speculative: f32,
    region: Option<&Aabb>,
) -> Manifold {
    // The region in the mesh's frame (a box holding it) narrows the query; each child is
    // then tested against the region itself, in the common frame.
    let region_local =
        region.map(|r| bounds_in_frame(&Aabb::new(r.lower - xf_a.p, r.upper - xf_a.p), xf_a.q));
    if let ShapeGeometry::Ray(r) = &shape_b.geometry {
        return flipped(collide_ray(r, xf_b, speculative, |input| {
            ray_cast_content(data, xf_a, input)
        }));
    }
    let cylinder;
    let convex = match (&shape_b.geometry, given_b) {
        (_, Some(h)) => Some(Convex::Hull(h)),
        // A cylinder collides as its prism, built here on the stack.
        (ShapeGeometry::Cylinder(c), None) => {
            cylinder = CylinderHull::new(c);
            Some(Convex::Hull(cylinder.view()))
        }
        _ => convex_of(shape_b, hulls),
    };
    let Some(convex) = convex else {
        return Manifold::default();
    };
    let rel = xf_a.inv_mul(xf_b);
    let local = match given_b {
        Some(h) => crate::geometry::bounds::hull_aabb(&h, &Transform::new(Vec3::ZERO, rel.q)),
        None => crate::shape::local_aabb(shape_b, hulls, rel.q),
    };
    let mut bounds = Aabb::new(local.lower + rel.p, local.upper + rel.p).inflate(speculative);
    if let Some(r) = region_local {
        bounds = Aabb::new(bounds.lower.max(r.lower), bounds.upper.min(r.upper));
        let e = bounds.upper - bounds.lower;
        if !(e.x >= 0.0 && e.y >= 0.0 && e.z >= 0.0) {
            return Manifold::default();
        }
    }
    let centroid = rel.apply(convex.centroid());
    let mut best = Manifold::default();
    let mut deepest = f32::MAX;
    data.query(&bounds, |i| {
        let Some(mut child) = data.child(i) else {
            return true;
        };
        if let Some(r) = region {
            let inside = child.with_points(|pts| {
                let first = xf_a.apply(pts[0]);
                let mut b = Aabb::new(first, first);
                for &p in &pts[1..] {
                    let q = xf_a.apply(p);
                    b = Aabb::new(b.lower.min(q), b.upper.max(q));
                }
                b.overlaps(r)
            });
            if !inside {
                return true;
            }
        }
        if two_sided {
            child = data.two_sided_facing(i, child, centroid).unwrap_or(child);
        }
        let mut cache = SatCache::default();
        let m = collide_child(&child, xf_a, &convex, xf_b, speculative, &mut cache);
        for p in &m.points[..m.count as usize] {
            if p.separation < deepest {
                deepest = p.separation;
                best = m;
            }
        }
        true
    });
    best
}

/// [`collide_with_hulls`] of a mesh A against convex B; with a `region` (a box in the
/// common frame), only the children whose bounds meet it are tested: for probes whose
/// contact distance is long in one direction only (a soft body's particle falling a long
/// way).
#[allow(clippy::too_many_arguments)]
pub(crate) fn collide_mesh_within(
    shape_a: &Shape,
    xf_a: &Transform,
    (shape_b, given_b): (&Shape, Option<HullView>),
    xf_b: &Transform,
    hulls: &[HullSlot],
    meshes: &[MeshSlot],
    speculative: f32,
    region: Option<&Aabb>,
) -> Manifold {
    let ShapeGeometry::Mesh(m) = shape_a.geometry else {
        return Manifold::default();
    };
    match mesh_data(meshes, m) {
        Some(data) => collide_mesh(
            data,
            shape_a.two_sided,
            xf_a,
            shape_b,
            given_b,
            xf_b,
            hulls,
            speculative,
            region,
        ),
        None => Manifold::default(),
    }
}

/// The manifold of one child (A: a triangle, or a merged voxel box collided as a box
/// shape) against convex B; `convex` is B as the triangle collider takes it.
#[allow(clippy::too_many_arguments)]
fn collide_child(
    child: &Child,
    xf_a: &Transform,
    convex: &Convex,
    xf_b: &Transform,
    speculative: f32,
    cache: &mut SatCache,
) -> Manifold {
    match child {
        Child::Triangle(tri) => collide_triangle(tri, xf_a, convex, xf_b, speculative, cache),
        Child::Box { half, center } => {
            let bh =
                crate::geometry::hull::BoxHull::new(*half, *center, crate::math::Quat::IDENTITY);
            let ha = bh.view();
            match convex {
                Convex::Hull(hb) => collide_hulls(&ha, xf_a, hb, xf_b, speculative, cache),
                Convex::Capsule(c) => collide_hull_and_capsule(&ha, xf_a, c, xf_b, speculative),
                Convex::Sphere(sp) => collide_hull_and_sphere(&ha, xf_a, sp, xf_b, speculative),
            }
        }
    }
}

/// Keeps a merged voxel box from catching what slides across the seams between boxes
/// and chunks: a point whose normal leads (along any axis it has a real component on)
/// out of a face of the box that the point lies at (within half a voxel) into a solid
/// voxel is dropped, since that voxel's own box gives the true contact. The voxel looked
/// at is the one just outside the face, next to the point. `solid(q)` answers for a
/// point in the shape frame.
fn drop_internal_voxel_points(
    m: &mut Manifold,
    half: Vec3,
    center: Vec3,
    size: f32,
    xf_a: &Transform,
    solid: impl Fn(Vec3) -> bool,
) {
    if m.count == 0 {
        return;
    }
    let n = xf_a.q.inv_rotate(m.normal);
    // Half a voxel: inside the box on the other axes, and out past the face.
    let inset = 0.5 * size;
    let lower = center - half;
    let upper = center + half;
    let mut kept = 0usize;
    for k in 0..m.count as usize {
        let p = xf_a.apply_inv(m.points[k].point);
        let mut internal = false;
        for i in 0..3 {
            let c = n.get(i);
            // Only the faces the point is at: a tilted normal in the middle of a wide
            // face says nothing about what lies past the box's far sides.
            let face = if c > 0.0 { upper.get(i) } else { lower.get(i) };
            if c.abs() < 0.05 || (p.get(i) - face).abs() > inset {
                continue;
            }
            let mut q = [0.0f32; 3];
            for (j, v) in q.iter_mut().enumerate() {
                *v = if j != i {
                    min(max(p.get(j), lower.get(j) + inset), upper.get(j) - inset)
                } else if c > 0.0 {
                    upper.get(j) + inset
                } else {
                    lower.get(j) - inset
                };
            }
            if solid(Vec3::new(q[0], q[1], q[2])) {
                internal = true;
                break;
            }
        }
        if !internal {
            m.points[kept] = m.points[k];
            kept += 1;
        }
    }
    m.count = kept as u32;
}

/// Orders a pair so shape A has the higher kind (ties: lower slot first).
#[inline]
pub(crate) fn order_pair(shapes: &[Shape], s1: u32, s2: u32) -> (u32, u32) {
    let k1 = shapes[s1 as usize].geometry.kind();
    let k2 = shapes[s2 as usize].geometry.kind();
    if k1 > k2 || (k1 == k2 && s1 < s2) {
        (s1, s2)
    } else {
        (s2, s1)
    }
}

fn hull_view<'a>(shape: &'a Shape, hulls: &'a [HullSlot]) -> Option<HullView<'a>> {
    match shape.geometry {
        ShapeGeometry::Box(_) => Some(shape.box_hull.view()),
        ShapeGeometry::Hull(h) => Some(hulls[h as usize].hull.view()),
        _ => None,
    }
}

/// Computes the manifold of two shapes given their transforms in a common frame. A mesh
/// (always A) gives its deepest triangle's manifold.
#[allow(clippy::too_many_arguments)]
pub(crate) fn collide(
    shape_a: &Shape,
    xf_a: &Transform,
    shape_b: &Shape,
    xf_b: &Transform,
    hulls: &[HullSlot],
    meshes: &[MeshSlot],
    speculative: f32,
    cache: &mut SatCache,
) -> Manifold {
    collide_with_hulls(
        (shape_a, None),
        xf_a,
        (shape_b, None),
        xf_b,
        hulls,
        meshes,
        speculative,
        cache,
    )
}

/// [`collide`] where a shape's hull may be given instead of looked up in `hulls` (a
/// query's hull probe, which lives outside the world's content).
#[allow(clippy::too_many_arguments)]
pub(crate) fn collide_with_hulls(
    (shape_a, given_a): (&Shape, Option<HullView>),
    xf_a: &Transform,
    (shape_b, given_b): (&Shape, Option<HullView>),
    xf_b: &Transform,
    hulls: &[HullSlot],
    meshes: &[MeshSlot],
    speculative: f32,
    cache: &mut SatCache,
) -> Manifold {
    if let ShapeGeometry::Mesh(_) = shape_a.geometry {
        let b = (shape_b, given_b);
        return collide_mesh_within(shape_a, xf_a, b, xf_b, hulls, meshes, speculative, None);
    }
    let ga = &shape_a.geometry;
    let gb = &shape_b.geometry;
    if let ShapeGeometry::Ray(r) = ga {
        return collide_ray_and_shape(r, xf_a, shape_b, given_b, xf_b, hulls, meshes, speculative);
    }
    if let ShapeGeometry::Plane(p) = ga {
        return collide_plane(p, xf_a, shape_b, given_b, xf_b, hulls, speculative);
    }
    // A cylinder collides as its prism, built here on the stack.
    let prism_a;
    let prism_b;
    let ha = match ga {
        ShapeGeometry::Cylinder(c) => {
            prism_a = CylinderHull::new(c);
            Some(prism_a.view())
        }
        _ => given_a.or_else(|| hull_view(shape_a, hulls)),
    };
    let hb = match gb {
        ShapeGeometry::Cylinder(c) => {
            prism_b = CylinderHull::new(c);
            Some(prism_b.view())
        }
        _ => given_b.or_else(|| hull_view(shape_b, hulls)),
    };
    if let Some(ha) = ha {
        if let Some(hb) = hb {
            let m = collide_hulls(&ha, xf_a, &hb, xf_b, speculative, cache);
            use crate::collide::cylinder_plane as cp;
            match (ga, gb) {
                (ShapeGeometry::Cylinder(a), ShapeGeometry::Cylinder(b)) => {
                    return cp::refine_cylinders((a, xf_a, &ha), (b, xf_b, &hb), m, speculative);
                }
                (ShapeGeometry::Cylinder(a), _) => {
                    return cp::refine_cylinder_on_hull_face(a, xf_a, &hb, xf_b, m, speculative);
                }
                _ => {}
            }
            return m;
        }
        return match gb {
            ShapeGeometry::Capsule(c) => collide_hull_and_capsule(&ha, xf_a, c, xf_b, speculative),
            ShapeGeometry::Sphere(s) => collide_hull_and_sphere(&ha, xf_a, s, xf_b, speculative),
            _ => Manifold::default(),
        };
    }
    match (ga, gb) {
        (ShapeGeometry::Capsule(a), ShapeGeometry::Capsule(b)) => {
            collide_capsules(a, xf_a, b, xf_b, speculative)
        }
        (ShapeGeometry::Capsule(a), ShapeGeometry::Sphere(b)) => {
            collide_capsule_and_sphere(a, xf_a, b, xf_b, speculative)
        }
        (ShapeGeometry::Sphere(a), ShapeGeometry::Sphere(b)) => {
            collide_spheres(a, xf_a, b, xf_b, speculative)
        }
        _ => Manifold::default(),
    }
}

/// The manifold of a plane A and any other shape B.
fn collide_plane(
    p: &PlaneShape,
    xf_a: &Transform,
    shape_b: &Shape,
    given_b: Option<HullView>,
    xf_b: &Transform,
    hulls: &[HullSlot],
    speculative: f32,
) -> Manifold {
    use crate::collide::cylinder_plane as cp;
    match &shape_b.geometry {
        ShapeGeometry::Sphere(s) => cp::collide_plane_and_sphere(p, xf_a, s, xf_b, speculative),
        ShapeGeometry::Capsule(c) => cp::collide_plane_and_capsule(p, xf_a, c, xf_b, speculative),
        ShapeGeometry::Cylinder(c) => cp::collide_plane_and_cylinder(p, xf_a, c, xf_b, speculative),
        ShapeGeometry::Box(_) | ShapeGeometry::Hull(_) => {
            match given_b.or_else(|| hull_view(shape_b, hulls)) {
                Some(h) => cp::collide_plane_and_hull(p, xf_a, &h, xf_b, speculative),
                None => Manifold::default(),
            }
        }
        ShapeGeometry::Plane(_) | ShapeGeometry::Mesh(_) | ShapeGeometry::Ray(_) => {
            Manifold::default()
        }
    }
}

/// The manifold of ray A and any other shape B as one manifold (a mesh B: its closest
/// triangle facing the ray); see `crate::collide::ray_shape`.
#[allow(clippy::too_many_arguments)]
fn collide_ray_and_shape(
    r: &RayShape,
    xf_a: &Transform,
    shape_b: &Shape,
    given_b: Option<HullView>,
    xf_b: &Transform,
    hulls: &[HullSlot],
    meshes: &[MeshSlot],
    speculative: f32,
) -> Manifold {
    use crate::collide::cylinder_plane::{ray_cast_cylinder, ray_cast_plane};
    use crate::collide::ray::{ray_cast_capsule, ray_cast_hull, ray_cast_sphere};
    collide_ray(r, xf_a, speculative, |input| match &shape_b.geometry {
        ShapeGeometry::Sphere(s) => ray_cast_sphere(s, xf_b, input),
        ShapeGeometry::Capsule(c) => ray_cast_capsule(c, xf_b, input),
        ShapeGeometry::Box(_) | ShapeGeometry::Hull(_) => {
            ray_cast_hull(&given_b.or_else(|| hull_view(shape_b, hulls))?, xf_b, input)
        }
        ShapeGeometry::Cylinder(c) => ray_cast_cylinder(c, xf_b, input),
        ShapeGeometry::Plane(p) => ray_cast_plane(p, xf_b, input),
        ShapeGeometry::Mesh(m) => ray_cast_content(mesh_data(meshes, *m)?, xf_b, input),
        ShapeGeometry::Ray(_) => None,
    })
}

/// The first triangle (or voxel) facing the ray, of content placed by `xf`; ray and hit
/// in the common frame.
fn ray_cast_content(data: &MeshData, xf: &Transform, input: &RayInput) -> Option<RayHit> {
    let local = RayInput {
        origin: xf.apply_inv(input.origin),
        translation: xf.q.inv_rotate(input.translation),
        max_fraction: input.max_fraction,
    };
    let (hit, _) = data.ray_cast_sided(&local, true)?;
    Some(RayHit {
        fraction: hit.fraction,
        point: xf.apply(hit.point),
        normal: xf.q.rotate(hit.normal),
    })
}

/// The manifold of mesh child A (a triangle, one-sided as Godot's and Jolt's concave
/// shapes are to rays, or a voxel box) placed by `xf_a` and ray B placed by `xf_b`.
fn collide_child_and_ray(
    child: &Child,
    xf_a: &Transform,
    r: &RayShape,
    xf_b: &Transform,
    speculative: f32,
) -> Manifold {
    flipped(collide_ray(r, xf_b, speculative, |input| match child {
        Child::Triangle(tri) => {
            let local = RayInput {
                origin: xf_a.apply_inv(input.origin),
                translation: xf_a.q.inv_rotate(input.translation),
                max_fraction: input.max_fraction,
            };
            let hit = crate::geometry::mesh::ray_triangle_sided(tri, &local, true)?;
            Some(RayHit {
                fraction: hit.fraction,
                point: xf_a.apply(hit.point),
                normal: xf_a.q.rotate(hit.normal),
            })
        }
        Child::Box { half, center } => {
            let bh =
                crate::geometry::hull::BoxHull::new(*half, *center, crate::math::Quat::IDENTITY);
            crate::collide::ray::ray_cast_hull(&bh.view(), xf_a, input)
        }
    }))
}

/// Recomputes a contact's manifold, carrying impulses over by feature id, and sets
/// `update`; or keeps a recyclable one whose bodies moved little (see [`Recycle`]):
/// true then. Reads bodies and shapes, writes only this contact: safe to run for many
/// contacts at once.
pub(crate) fn update_contact(
    contact: &mut Contact,
    shapes: &[Shape],
    bodies: &[Body],
    hulls: &[HullSlot],
    meshes: &[MeshSlot],
    speculative: f32,
) -> bool {
    let sa = &shapes[contact.shape_a as usize];
    let sb = &shapes[contact.shape_b as usize];
    contact.update = 0;
    let disjoint = |contact: &mut Contact| {
        contact.update = UPDATE_DISJOINT;
        if contact.flags & CONTACT_TOUCHING != 0 {
            contact.update |= UPDATE_STOPPED_TOUCHING;
        }
    };
    if !sa.fat_aabb.overlaps(&sb.fat_aabb) {
        disjoint(contact);
        return false;
    }
    let ba = &bodies[contact.body_a as usize];
    let bb = &bodies[contact.body_b as usize];
    if contact.flags & CONTACT_RECYCLABLE != 0 && recycle(contact, ba, bb) {
        return true;
    }
    // A mesh pair's parent only lives while the bounds overlap; its children collide.
    let mut triangle = None;
    if let ShapeGeometry::Mesh(m) = sa.geometry {
        if contact.child == NONE {
            return false;
        }
        let child = mesh_data(meshes, m).and_then(|d| d.child(contact.child));
        let Some(child) = child else {
            disjoint(contact);
            return false;
        };
        if !child.aabb().overlaps(&fat_in_mesh_frame(sb, ba)) {
            disjoint(contact);
            return false;
        }
        triangle = Some(child);
    }

    // The common frame sits at the origin of the body that moves (A, unless A does not
    // move and B does), so the moving body's anchors stay small whatever the coordinates.
    let frame_at_b = ba.body_type == BodyType::Static && bb.body_type != BodyType::Static;
    // Differences of grid positions are exact in f64, so the f32 offset is the same
    // wherever the pair sits.
    let (xf_a, xf_b) = if frame_at_b {
        let d: Vec3 = (ba.position - bb.position).to_f32();
        (
            Transform::new(d, ba.rotation),
            Transform::new(Vec3::ZERO, bb.rotation),
        )
    } else {
        let d: Vec3 = (bb.position - ba.position).to_f32();
        (
            Transform::new(Vec3::ZERO, ba.rotation),
            Transform::new(d, bb.rotation),
        )
    };
    let cylinder;
    let convex = match &sb.geometry {
        // A cylinder against a triangle: its 32-sided prism.
        ShapeGeometry::Cylinder(c) if triangle.is_some() => {
            cylinder = CylinderHull::new(c);
            Some(Convex::Hull(cylinder.view()))
        }
        _ => convex_of(sb, hulls),
    };
    // A two-sided mesh's triangle turned towards the convex shape's centroid (a one-sided
    // triangle collides as its prism, whichever side the shape is on).
    if let (true, Some(child), Some(convex), ShapeGeometry::Mesh(m)) =
        (sa.two_sided, triangle, &convex, sa.geometry)
    {
        if let Some(d) = mesh_data(meshes, m) {
            let centroid = xf_a.inv_mul(&xf_b).apply(convex.centroid());
            triangle = d
                .two_sided_facing(contact.child, child, centroid)
                .or(triangle);
        }
    }
    let manifold = match (&triangle, convex, &sb.geometry) {
        // A ray is B only against a mesh (always A), per child.
        (Some(child), _, ShapeGeometry::Ray(r)) => {
            collide_child_and_ray(child, &xf_a, r, &xf_b, speculative)
        }
        (Some(child), Some(convex), _) => collide_child(
            child,
            &xf_a,
            &convex,
            &xf_b,
            speculative,
            &mut contact.cache,
        ),
        (Some(_), None, _) => Manifold::default(),
        (None, _, _) => collide(
            sa,
            &xf_a,
            sb,
            &xf_b,
            hulls,
            meshes,
            speculative,
            &mut contact.cache,
        ),
    };

    let mut manifold = manifold;
    if let (Some(Child::Box { half, center }), ShapeGeometry::Mesh(m)) = (&triangle, sa.geometry) {
        let size = match mesh_data(meshes, m) {
            Some(MeshData::Voxels(g)) => g.chunk().voxel_size(),
            _ => 0.0,
        };
        drop_internal_voxel_points(&mut manifold, *half, *center, size, &xf_a, |q| {
            crate::content::voxel_solid_at(meshes, shapes, ba.shape_head, m, q)
        });
    }

    // Centres of mass in the common frame.
    let center_a = xf_a.p + ba.center_offset();
    let center_b = xf_b.p + bb.center_offset();

    let old_points = contact.points;
    let old_count = contact.point_count as usize;
    let count = manifold.count as usize;
    let was_touching = contact.flags & CONTACT_TOUCHING != 0;
    contact.normal = manifold.normal;
    for i in 0..count {
        let mp = &manifold.points[i];
        let mut cp = ContactPoint {
            anchor_a: mp.point - center_a,
            anchor_b: mp.point - center_b,
            separation: mp.separation,
            normal_impulse: 0.0,
            tangent_impulse: Vec3::ZERO,
            max_normal_impulse: 0.0,
            id: mp.id,
            base_separation: mp.separation,
        };
        // Warm start from the point with the same feature id (first match wins).
        for old in &old_points[..old_count] {
            if old.id == mp.id {
                cp.normal_impulse = old.normal_impulse;
                cp.tangent_impulse = old.tangent_impulse;
                break;
            }
        }
        contact.points[i] = cp;
    }
    for p in &mut contact.points[count..] {
        *p = ContactPoint::default();
    }
    contact.point_count = count as u8;
    if count == 0 {
        contact.rolling_impulse = Vec3::ZERO;
    }
    remember_poses(contact, sa, sb, ba, bb, triangle.is_some());
    let touching = count > 0;
    if touching && !was_touching {
        contact.flags |= CONTACT_TOUCHING;
        contact.update = UPDATE_STARTED_TOUCHING;
    } else if !touching && was_touching {
        contact.flags &= !CONTACT_TOUCHING;
        contact.update = UPDATE_STOPPED_TOUCHING;
    }
    false
}

/// B's centre of mass relative to A's, in the world frame (differences of grid
/// positions are exact in `f64`, so the result does not depend on where the pair sits).
#[inline]
fn center_delta(ba: &Body, bb: &Body) -> Vec3 {
    (bb.position - ba.position).to_f32() + (bb.center_offset() - ba.center_offset())
}

/// The poses a fresh manifold was computed at, for [`recycle`]: of two boxes or hulls
/// always; of other convex shapes (a mesh's triangle among them, not a ray) only while
/// they do not touch, so a rolling ball or cylinder never keeps a touching manifold.
fn remember_poses(
    contact: &mut Contact,
    sa: &Shape,
    sb: &Shape,
    ba: &Body,
    bb: &Body,
    triangle: bool,
) {
    let polytope = |s: &Shape| matches!(s.geometry, ShapeGeometry::Box(_) | ShapeGeometry::Hull(_));
    let convex = (triangle || !matches!(sa.geometry, ShapeGeometry::Mesh(_)))
        && !matches!(sb.geometry, ShapeGeometry::Ray(_));
    if (polytope(sa) && polytope(sb)) || (convex && contact.point_count == 0) {
        contact.recycle = poses(ba, bb);
        contact.flags |= CONTACT_RECYCLABLE;
    } else {
        contact.flags &= !CONTACT_RECYCLABLE;
    }
}

/// The poses a manifold is computed at, for [`recycle`].
fn poses(ba: &Body, bb: &Body) -> Recycle {
    let qa = ba.rotation;
    Recycle {
        rotation_a: qa,
        rotation_b: bb.rotation,
        center: qa.inv_rotate(center_delta(ba, bb)),
        rotation: qa.conjugate() * bb.rotation,
    }
}

/// Keeps the manifold of `contact` if its bodies have moved little since it was computed
/// (see [`Recycle`]): each point's separation measured again, everything else as it
/// was; `contact.update` stays 0. False when the manifold must be computed afresh.
fn recycle(contact: &mut Contact, ba: &Body, bb: &Body) -> bool {
    let r = &contact.recycle;
    let (qa, qb) = (ba.rotation, bb.rotation);
    let (ca, cb) = (qa.dot(r.rotation_a), qb.dot(r.rotation_b));
    if ca * ca <= RECYCLE_COS2_HALF_ANGLE || cb * cb <= RECYCLE_COS2_HALF_ANGLE {
        return false;
    }
    let tolerance = if contact.point_count > 0 {
        RECYCLE_DISTANCE
    } else {
        min(RECYCLE_DISTANCE, SPECULATIVE_DISTANCE)
    };
    let delta = center_delta(ba, bb);
    let moved = qa.inv_rotate(delta) - r.center;
    let distance2 = moved.length_squared();
    // Written so that NaN computes afresh.
    let near = distance2 < tolerance * tolerance;
    if !near {
        return false;
    }
    // B's turn in A's frame moves its points, all within `max_extent` of its centre, by
    // at most 2 |sin(θ/2)| times that.
    let slack = tolerance - crate::math::sqrt(distance2);
    let turn = r.rotation.conjugate() * (qa.conjugate() * qb);
    let arc2 =
        4.0 * (turn.x * turn.x + turn.y * turn.y + turn.z * turn.z) * bb.max_extent * bb.max_extent;
    let small_turn = arc2 < slack * slack;
    if !small_turn {
        return false;
    }
    let (turn_a, turn_b) = (qa * r.rotation_a.conjugate(), qb * r.rotation_b.conjugate());
    let n = contact.normal;
    for p in &mut contact.points[..contact.point_count as usize] {
        let dp = delta + turn_b.rotate(p.anchor_b) - turn_a.rotate(p.anchor_a);
        p.separation = p.base_separation + n.dot(dp);
    }
    contact.update = 0;
    true
}

impl World {
    /// Creates the contact of a new pair; `None` when `contact_capacity` is full.
    pub(crate) fn create_contact(&mut self, s1: u32, s2: u32) -> Option<u32> {
        let (sa, sb) = order_pair(&self.shapes, s1, s2);
        let body_a = self.shapes[sa as usize].body;
        let body_b = self.shapes[sb as usize].body;
        let events = self.shapes[sa as usize].enable_contact_events
            || self.shapes[sb as usize].enable_contact_events;
        let slot = self.contacts.take(
            |_| 0,
            |_| Contact {
                alive: true,
                shape_a: sa,
                shape_b: sb,
                body_a,
                body_b,
                flags: if events { CONTACT_EVENTS } else { 0 },
                ..Contact::default()
            },
        )?;
        self.contacts.pair_set.insert(pair_key(sa, sb), slot);
        self.link_contact(slot);
        self.contacts.count += 1;
        Some(slot)
    }

    /// Creates child `child` (a triangle) of mesh parent contact `parent`; `None` when
    /// `contact_capacity` is full.
    pub(crate) fn create_child_contact(&mut self, parent: u32, child: u32) -> Option<u32> {
        let p = &self.contacts[parent as usize];
        let (shape_a, shape_b, body_a, body_b) = (p.shape_a, p.shape_b, p.body_a, p.body_b);
        let slot = self.contacts.take(
            |_| 0,
            |_| Contact {
                alive: true,
                shape_a,
                shape_b,
                body_a,
                body_b,
                child,
                parent,
                ..Contact::default()
            },
        )?;
        self.contacts
            .pair_set
            .insert(child_key(parent, child), slot);
        self.link_contact(slot);
        self.contacts.count += 1;
        Some(slot)
    }

    /// Finds the triangles that came under the enlarged bounds of a mesh pair this step
    /// and gives each a child contact: parents in slot order, triangles in the content's
    /// order (the tree's, fixed by the content), so the new slots are a function of state.
    /// A pair's triangles change only when one of its shapes got new enlarged bounds, or
    /// when the mesh's body is kinematic (it moves within its bounds).
    pub(crate) fn find_children(&mut self) {
        // Only meshes, height fields and voxels have children.
        if self.content.meshes.count == 0 {
            return;
        }
        // Only contacts that can pass the test below, in slot order (see the gather).
        self.gather_child_candidates();
        for k in 0..self.awake.contacts.len() {
            let c = self.awake.contacts[k] as usize;
            let contact = &self.contacts[c];
            if !contact.alive || contact.child != NONE {
                continue;
            }
            let (sa, sb) = (
                &self.shapes[contact.shape_a as usize],
                &self.shapes[contact.shape_b as usize],
            );
            let ShapeGeometry::Mesh(m) = sa.geometry else {
                continue;
            };
            let mesh_body = &self.bodies[contact.body_a as usize];
            if !(sa.enlarged || sb.enlarged || mesh_body.body_type == BodyType::Kinematic) {
                continue;
            }
            if !sa.fat_aabb.overlaps(&sb.fat_aabb) {
                continue;
            }
            let bounds = fat_in_mesh_frame(sb, mesh_body);
            let Some(data) = mesh_data(&self.content.meshes, m) else {
                continue;
            };
            let scratch = &mut self.contacts.scratch;
            scratch.clear();
            let pair_set = &self.contacts.pair_set;
            let mut full = false;
            data.query(&bounds, |i| {
                if !pair_set.contains(child_key(c as u32, i)) && !scratch.push(i) {
                    full = true;
                }
                !full
            });
            for k in 0..self.contacts.scratch.len() {
                let i = self.contacts.scratch[k];
                if self.create_child_contact(c as u32, i).is_none() {
                    self.counters.dropped_contacts += 1;
                }
            }
            if full {
                self.counters.dropped_contacts += 1;
            }
        }
    }

    pub(crate) fn link_contact(&mut self, c: u32) {
        let ends = {
            let contact = &self.contacts[c as usize];
            [contact.body_a, contact.body_b]
        };
        edge::link(&mut self.contacts, &mut self.bodies, c, ends);
    }

    fn unlink_contact(&mut self, c: u32) {
        edge::unlink(&mut self.contacts, &mut self.bodies, c);
    }

    /// Destroys a contact; reports an end event when it was touching and `events`.
    pub(crate) fn destroy_contact(&mut self, c: u32, events: bool) {
        let contact = &self.contacts[c as usize];
        debug_assert!(contact.alive);
        if !contact.alive {
            return;
        }
        self.awake.contact_leaving(contact);
        let contact = &self.contacts[c as usize];
        let (child, parent) = (contact.child, contact.parent);
        let (touching, child_touching) = (
            contact.flags & CONTACT_TOUCHING != 0,
            contact.child_touching,
        );
        let mesh_parent = child == NONE && has_children(&self.shapes[contact.shape_a as usize]);
        if child != NONE {
            // A child that touched leaves its pair; the pair ends with its last child.
            if touching {
                self.child_stopped_touching(parent, events);
            }
        } else if child_touching > 0 {
            // A mesh pair touches through its children: it ends as a touching contact.
            self.contacts[c as usize].flags |= CONTACT_TOUCHING;
        }
        if mesh_parent {
            self.destroy_children(c);
        }
        let contact = &self.contacts.pool[c as usize];
        if events && contact.flags & CONTACT_TOUCHING != 0 && contact.flags & CONTACT_EVENTS != 0 {
            let ev = ContactEvent {
                shape_a: self.shape_id(contact.shape_a),
                shape_b: self.shape_id(contact.shape_b),
            };
            if !self.contacts.end_events.push(ev) {
                self.counters.dropped_end_events += 1;
            }
        }
        let key = if child == NONE {
            pair_key(contact.shape_a, contact.shape_b)
        } else {
            child_key(parent, child)
        };
        self.contacts.pair_set.remove(key);
        self.unlink_contact(c);
        self.contacts[c as usize] = Contact::default();
        let ok = self.contacts.free.push(c);
        debug_assert!(ok);
        self.contacts.count -= 1;
    }

    /// Destroys the children of mesh parent `parent`, in slot order, without events.
    fn destroy_children(&mut self, parent: u32) {
        let body = self.contacts[parent as usize].body_b;
        let scratch = &mut self.contacts.scratch;
        scratch.clear();
        for n in edge::walk(&self.contacts.pool, &self.bodies, body) {
            let contact = &self.contacts.pool[n.slot as usize];
            if contact.parent == parent && contact.child != NONE {
                let ok = scratch.push(n.slot);
                debug_assert!(ok);
            }
        }
        scratch.sort_unstable();
        for k in 0..self.contacts.scratch.len() {
            let c = self.contacts.scratch[k];
            // Without events, and with the parent's count left as it is (it goes too).
            self.awake.contact_leaving(&self.contacts[c as usize]);
            self.contacts[c as usize].flags &= !CONTACT_TOUCHING;
            self.destroy_contact(c, false);
        }
    }

    /// Destroys the children of pair `parent` in slot order, with their end events (the
    /// pair's when it touched), leaving the pair to find them again (after a voxel edit).
    pub(crate) fn destroy_children_with_events(&mut self, parent: u32) {
        let body = self.contacts[parent as usize].body_b;
        let scratch = &mut self.contacts.scratch;
        scratch.clear();
        for n in edge::walk(&self.contacts.pool, &self.bodies, body) {
            let contact = &self.contacts.pool[n.slot as usize];
            if contact.parent == parent && contact.child != NONE {
                let ok = scratch.push(n.slot);
                debug_assert!(ok);
            }
        }
        scratch.sort_unstable();
        for k in 0..self.contacts.scratch.len() {
            let c = self.contacts.scratch[k];
            self.destroy_contact(c, true);
        }
    }

    /// One child of `parent` stopped touching: the pair's end event when it was the last.
    fn child_stopped_touching(&mut self, parent: u32, events: bool) {
        let p = &mut self.contacts[parent as usize];
        if !p.alive || p.child_touching == 0 {
            return;
        }
        p.child_touching -= 1;
        if p.child_touching == 0 && events && p.flags & CONTACT_EVENTS != 0 {
            let (sa, sb) = (p.shape_a, p.shape_b);
            let ev = ContactEvent {
                shape_a: self.shape_id(sa),
                shape_b: self.shape_id(sb),
            };
            if !self.contacts.end_events.push(ev) {
                self.counters.dropped_end_events += 1;
            }
        }
    }

    /// Destroys every contact of a body (or only those of one shape), waking the bodies
    /// on the other side.
    pub(crate) fn destroy_body_contacts(
        &mut self,
        body: u32,
        only_shape: Option<u32>,
        wake_others: bool,
    ) {
        // Destroy in ascending slot order, not list order: the free list (state) then
        // comes out the same whatever history built the (non-state) body lists.
        let scratch = &mut self.solver.touching;
        scratch.clear();
        for n in edge::walk(&self.contacts.pool, &self.bodies, body) {
            let contact = &self.contacts.pool[n.slot as usize];
            let matches = match only_shape {
                Some(s) => contact.shape_a == s || contact.shape_b == s,
                None => true,
            };
            if matches {
                let ok = scratch.push(n.slot);
                debug_assert!(ok);
            }
        }
        scratch.sort_unstable();
        for k in 0..self.solver.touching.len() {
            let c = self.solver.touching[k];
            let contact = &self.contacts[c as usize];
            // Children go with their parent.
            if !contact.alive {
                continue;
            }
            let other = if contact.body_a == body {
                contact.body_b
            } else {
                contact.body_a
            };
            let touching = contact.flags & CONTACT_TOUCHING != 0;
            self.destroy_contact(c, false);
            if wake_others && touching {
                self.wake_island(other);
            }
        }
    }

    /// A contact that began touching: a hit event if its shapes ask for one and it
    /// approached faster than the threshold (fastest point, velocities before the solve).
    fn report_hit(&mut self, c: usize, ev: ContactEvent) {
        let contact = &self.contacts[c];
        let (sa, sb) = (
            &self.shapes[contact.shape_a as usize],
            &self.shapes[contact.shape_b as usize],
        );
        if !(sa.enable_hit_events || sb.enable_hit_events) {
            return;
        }
        let (ba, bb) = (
            &self.bodies[contact.body_a as usize],
            &self.bodies[contact.body_b as usize],
        );
        let n = contact.normal;
        let mut best = (0.0f32, 0usize);
        for (j, p) in contact.points[..contact.point_count as usize]
            .iter()
            .enumerate()
        {
            let va = ba.linear_velocity + ba.angular_velocity.cross(p.anchor_a);
            let vb = bb.linear_velocity + bb.angular_velocity.cross(p.anchor_b);
            let approach = -n.dot(vb - va);
            if approach > best.0 {
                best = (approach, j);
            }
        }
        if best.0 <= self.def.hit_event_threshold {
            return;
        }
        let p = &contact.points[best.1];
        let point = ba.position + (ba.center_offset() + p.anchor_a).to_f64();
        let hit = crate::events::ContactHitEvent {
            shape_a: ev.shape_a,
            shape_b: ev.shape_b,
            point,
            normal: n,
            approach_speed: best.0,
        };
        if !self.contacts.hit_events.push(hit) {
            self.counters.dropped_hit_events += 1;
        }
    }

    /// The serial half of a child contact's update: destroys it when disjoint, counts it
    /// in or out of its pair's touching children, and reports the pair's begin (with its
    /// hit) and end when the first child starts or the last stops touching. Returns 1
    /// when it touches.
    fn child_update(&mut self, c: u32, update: u8) -> u32 {
        if update & UPDATE_DISJOINT != 0 {
            self.destroy_contact(c, true);
            return 0;
        }
        self.contacts[c as usize].update = 0;
        let contact = &self.contacts[c as usize];
        let (parent, ba, bb) = (contact.parent, contact.body_a, contact.body_b);
        if update & UPDATE_STARTED_TOUCHING != 0 {
            let p = &mut self.contacts[parent as usize];
            p.child_touching += 1;
            if p.child_touching == 1 {
                let (sa, sb, flags) = (p.shape_a, p.shape_b, p.flags);
                let ev = ContactEvent {
                    shape_a: self.shape_id(sa),
                    shape_b: self.shape_id(sb),
                };
                if flags & CONTACT_EVENTS != 0 && !self.contacts.begin_events.push(ev) {
                    self.counters.dropped_begin_events += 1;
                }
                self.report_hit(c as usize, ev);
            }
            for b in [ba, bb] {
                let body = &self.bodies[b as usize];
                if body.body_type == BodyType::Dynamic && !body.awake {
                    self.wake_island(b);
                }
            }
            return 1;
        }
        if update & UPDATE_STOPPED_TOUCHING != 0 {
            self.child_stopped_touching(parent, true);
            return 0;
        }
        (self.contacts[c as usize].flags & CONTACT_TOUCHING != 0) as u32
    }

    /// Narrow phase: updates every contact with a moving body, then, in slot order,
    /// removes disjoint pairs, reports begin/end and wakes islands that are touched.
    pub(crate) fn collide(&mut self) {
        // The contacts of the moving bodies, ascending: the others keep their state (and
        // `update` 0), so skipping them changes nothing but the time.
        self.gather_moving_contacts();
        self.counters.contacts_visited = self.awake.contacts.len() as u32;
        let resting_touching = self.awake.resting_touching();
        // The trees' rebuild (`update_pairs` searched them as finalize left them): beside
        // the contacts' updates, as one more item whichever worker takes it, when there
        // are workers to share and at least as many contacts as moved shapes (each leaf
        // of the rebuild costs less than a contact); else left to the solver's set-up
        // (`crate::joint::solver::prepare_joints`), done before any body moves.
        let workers = self.tasks.hooks.map_or(1, |h| h.worker_count);
        let beside = workers > 1 && self.awake.contacts.len() >= self.broad.moved_last.max(1);
        self.broad.rebuild_deferred = !beside;
        let broad = Slots::new(core::slice::from_mut(&mut self.broad));
        // SAFETY: the side item runs once, and nothing else touches the trees while the
        // contacts update.
        let rebuild = || unsafe { broad.get(0) }.rebuild_here();
        let (family, recycled) = update_moving_contacts(
            &mut self.contacts,
            &self.awake.contacts,
            &self.shapes,
            &self.bodies,
            &self.content,
            &mut self.tasks,
            beside.then_some(&rebuild as &(dyn Fn() + Sync)),
        );
        self.counters.recycled_contacts = recycled;
        // Touching contacts of resting bodies, as they were before any touch below woke one.
        let mut touching = resting_touching;
        // Unless a mesh pair or a triangle child changed (whose ends reach other contacts
        // of the list), what each contact does below is its own, so those that did not
        // change are counted from their outcomes without reading them again.
        let outcomes = !family;
        let n = self.awake.contacts.len();
        for k in 0..n {
            if outcomes {
                let o = self.contacts.outcomes[k];
                if o & OUTCOME_ALIVE == 0 {
                    continue;
                }
                if o & OUTCOME_UPDATE == 0 {
                    touching += u32::from(o & OUTCOME_TOUCHING != 0);
                    continue;
                }
            }
            let c = self.awake.contacts[k] as usize;
            let contact = &self.contacts[c];
            if !contact.alive {
                continue;
            }
            let update = contact.update;
            if update == 0 {
                if contact.flags & CONTACT_TOUCHING != 0 {
                    touching += 1;
                }
                continue;
            }
            if contact.child != NONE {
                touching += self.child_update(c as u32, update);
                continue;
            }
            let events = contact.flags & CONTACT_EVENTS != 0;
            let ev = ContactEvent {
                shape_a: self.shape_id(contact.shape_a),
                shape_b: self.shape_id(contact.shape_b),
            };
            let (ba, bb) = (contact.body_a, contact.body_b);
            if update & UPDATE_DISJOINT != 0 {
                self.destroy_contact(c as u32, true);
                continue;
            }
            self.contacts[c].update = 0;
            if update & UPDATE_STARTED_TOUCHING != 0 {
                touching += 1;
                if events && !self.contacts.begin_events.push(ev) {
                    self.counters.dropped_begin_events += 1;
                }
                self.report_hit(c, ev);
                // A touch wakes a sleeping island on either side.
                for b in [ba, bb] {
                    let body = &self.bodies[b as usize];
                    if body.body_type == BodyType::Dynamic && !body.awake {
                        self.wake_island(b);
                    }
                }
            } else if update & UPDATE_STOPPED_TOUCHING != 0 {
                if events && !self.contacts.end_events.push(ev) {
                    self.counters.dropped_end_events += 1;
                }
            } else if self.contacts[c].flags & CONTACT_TOUCHING != 0 {
                touching += 1;
            }
        }
        self.counters.touching_contact_count = touching;
    }
}

/// Updates the manifolds of the contacts in `list` (those of moving bodies) in parallel;
/// a contact between bodies that are both at rest keeps its state, with `update` 0. Each
/// leaves its outcome in `contacts.outcomes`. Returns whether a mesh pair or a triangle
/// child changed.
/// How many contacts ahead the narrow phase asks for a contact's bodies and shapes (the
/// contact itself twice as far ahead).
const UPDATE_AHEAD: usize = 4;

/// Asks the cache for the lines of two shapes and two bodies that a contact update reads
/// first: the shapes' bounds and geometry, the bodies' flags and placement. A hint.
#[inline(always)]
fn prefetch_pair(shapes: &[Shape], bodies: &[Body], pair: [u32; 2], owners: [u32; 2]) {
    use crate::solver::lanes::prefetch;
    use core::mem::offset_of;
    for s in pair {
        let at = shapes.as_ptr().wrapping_add(s as usize).cast::<u8>();
        prefetch(at.wrapping_add(offset_of!(Shape, fat_aabb)));
        prefetch(at.wrapping_add(offset_of!(Shape, geometry)));
    }
    for b in owners {
        let at = bodies.as_ptr().wrapping_add(b as usize).cast::<u8>();
        // Its pose, centre, extent and flags: one line (see `Body`).
        prefetch(at.wrapping_add(offset_of!(Body, position)));
    }
}

fn update_moving_contacts(
    contacts: &mut ContactStore,
    list: &[u32],
    shapes: &[Shape],
    bodies: &[Body],
    content: &ContentStore,
    tasks: &mut Tasks,
    side: Option<&(dyn Fn() + Sync)>,
) -> (bool, u32) {
    use core::sync::atomic::{AtomicBool, Ordering};
    let (hulls, meshes) = (&content.hulls, &content.meshes);
    contacts.outcomes.resize(list.len(), 0);
    let slots = Slots::new(&mut contacts.pool);
    let outcomes = Slots::new(&mut contacts.outcomes[..list.len()]);
    let family = AtomicBool::new(false);
    // Each contact writes only itself: any split gives the same bits.
    tasks.for_each_beside(list.len(), 64, side, &|k, _worker| {
        // The contacts lie scattered through the pool and their bodies and shapes through
        // theirs: ask for a contact well ahead, and for its bodies and shapes once it has
        // had time to arrive (hints only).
        if let Some(&ahead) = list.get(k + 2 * UPDATE_AHEAD) {
            crate::solver::lanes::prefetch(slots.ptr(ahead as usize));
        }
        if let Some(&ahead) = list.get(k + UPDATE_AHEAD) {
            let c = slots.ptr(ahead as usize);
            if !c.is_null() {
                // SAFETY: in bounds (not null); four plain fields read through the raw
                // pointer, never a reference to the contact (another worker may be
                // updating it), and no update writes a contact's shapes or bodies.
                let (shape_a, shape_b, body_a, body_b) = unsafe {
                    (
                        core::ptr::addr_of!((*c).shape_a).read(),
                        core::ptr::addr_of!((*c).shape_b).read(),
                        core::ptr::addr_of!((*c).body_a).read(),
                        core::ptr::addr_of!((*c).body_b).read(),
                    )
                };
                prefetch_pair(shapes, bodies, [shape_a, shape_b], [body_a, body_b]);
            }
        }
        // SAFETY: for_each hands each item index out once, and the list holds
        // each slot once.
        let contact = unsafe { slots.get(list[k] as usize) };
        // SAFETY: as above.
        let outcome = unsafe { outcomes.get(k) };
        *outcome = 0;
        if !contact.alive {
            return;
        }
        let moving = bodies[contact.body_a as usize].is_moving()
            || bodies[contact.body_b as usize].is_moving();
        // Recycling is counted from the outcomes afterwards: a shared counter bumped per
        // contact bounced its cache line between the workers (nearly every contact of a
        // settled pile recycles).
        let mut recycled = 0;
        if !moving {
            contact.update = 0;
        } else if update_contact(contact, shapes, bodies, hulls, meshes, SPECULATIVE_DISTANCE) {
            recycled = OUTCOME_RECYCLED;
        }
        *outcome = OUTCOME_ALIVE | recycled | contact.update;
        if contact.flags & CONTACT_TOUCHING != 0 {
            *outcome |= OUTCOME_TOUCHING;
        }
        if contact.update != 0
            && (contact.child != NONE || has_children(&shapes[contact.shape_a as usize]))
        {
            family.store(true, Ordering::Relaxed);
        }
    });
    let recycled = contacts.outcomes[..list.len()]
        .iter()
        .map(|&o| u32::from(o & OUTCOME_RECYCLED != 0))
        .sum();
    (family.into_inner(), recycled)
}
