//! Shapes: the geometry attached to bodies, with their material and collision filter.

use crate::body::{BodyType, NONE};
use crate::broad_phase::{STATIC_TREE, tree_for};
pub use crate::collide::ray_shape::RayShape;
use crate::error::{Error, Result};
use crate::geometry::cylinder::{self, CylinderHull, PLANE_EXTENT};
use crate::geometry::hull::MAX_HULL_POINTS;
use crate::geometry::hull::{BoxHull, Hull};
use crate::geometry::{Capsule, Cylinder, MassData, PlaneShape, Sphere, bounds, mass};
use crate::id::{BodyId, HullId, ShapeId};
use crate::limits::{MAX_DENSITY, MAX_MATERIAL, check_nonneg};
use crate::math::{Aabb, DAabb, Quat, Transform, Vec3, max};
use crate::world::{AABB_MARGIN, World};

/// Which shapes may collide: two shapes collide when each one's category is in the
/// other's mask, unless they share a non-zero group (positive: always collide, negative:
/// never), as in Box2D.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Filter {
    /// The categories this shape belongs to.
    pub category_bits: u64,
    /// The categories this shape collides with.
    pub mask_bits: u64,
    /// Group override; 0 for none.
    pub group_index: i32,
}

impl Default for Filter {
    fn default() -> Filter {
        Filter {
            category_bits: 1,
            mask_bits: u64::MAX,
            group_index: 0,
        }
    }
}

impl Filter {
    /// Whether shapes with these filters collide.
    #[inline]
    pub fn should_collide(&self, other: &Filter) -> bool {
        if self.group_index == other.group_index && self.group_index != 0 {
            return self.group_index > 0;
        }
        (self.mask_bits & other.category_bits) != 0 && (self.category_bits & other.mask_bits) != 0
    }
}

/// Material and filter of a shape. Change the fields you need and keep
/// `..Default::default()` for the rest.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ShapeDef {
    /// Density, kg/m³ (≥ 0).
    pub density: f32,
    /// Coulomb friction (≥ 0); a contact combines the two by the world's friction rule
    /// (default √(μa·μb); see [`crate::CombineRule`]).
    pub friction: f32,
    /// Restitution (≥ 0); a contact combines the two by the world's restitution rule
    /// (default the larger).
    pub restitution: f32,
    /// This shape's friction wins over a shape's that is not rough, whatever the rule (the
    /// larger of two rough shapes'): Godot's `PhysicsMaterial.rough`.
    pub rough: bool,
    /// This shape's restitution counts negative in the combine (a sum subtracts it; the
    /// contact's is never below 0): Godot's `PhysicsMaterial.absorbent`.
    pub absorbent: bool,
    /// A triangle-mesh shape whose triangles collide from both sides: a convex shape
    /// whose centroid lies behind a triangle is pushed out through its back face (Godot's
    /// `ConcavePolygonShape3D.backface_collision`). Off: triangles are one-sided, and
    /// what reaches them from behind passes through. Height fields, voxel grids and
    /// convex shapes ignore it.
    pub two_sided: bool,
    /// Rolling resistance (≥ 0); a contact uses the larger of the two.
    pub rolling_resistance: f32,
    /// Collision filter.
    pub filter: Filter,
    /// Whether contacts of this shape report begin/end events.
    pub enable_contact_events: bool,
    /// A sensor detects the shapes it overlaps (sensor begin/end events) and never
    /// collides.
    pub is_sensor: bool,
    /// Whether sensors detect this shape.
    pub enable_sensor_events: bool,
    /// Whether contacts of this shape report hits (approach faster than the world's
    /// `hit_event_threshold`).
    pub enable_hit_events: bool,
    /// Whether the world's pre-solve callback is asked about this shape's contacts.
    pub enable_pre_solve: bool,
    /// Host data: stored, never hashed.
    pub user_data: u64,
}

impl Default for ShapeDef {
    fn default() -> ShapeDef {
        ShapeDef {
            density: 1000.0,
            friction: 0.6,
            restitution: 0.0,
            rough: false,
            absorbent: false,
            two_sided: false,
            rolling_resistance: 0.0,
            filter: Filter::default(),
            enable_contact_events: true,
            is_sensor: false,
            enable_sensor_events: true,
            enable_hit_events: false,
            enable_pre_solve: false,
            user_data: 0,
        }
    }
}

/// A box: half-extents, centre and rotation in the body frame.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BoxShape {
    /// Half-extents (each > 0).
    pub half: Vec3,
    /// Centre in the body frame.
    pub center: Vec3,
    /// Rotation in the body frame.
    pub rotation: Quat,
}

/// The geometry of a shape.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ShapeGeometry {
    /// A sphere.
    Sphere(Sphere),
    /// A capsule.
    Capsule(Capsule),
    /// A box.
    Box(BoxShape),
    /// A convex hull, shared through its id's slot.
    Hull(u32),
    /// A triangle mesh or height field, shared through its id's slot (static and
    /// kinematic bodies only).
    Mesh(u32),
    /// A cylinder.
    Cylinder(Cylinder),
    /// A plane bounding a solid half-space (static bodies only).
    Plane(PlaneShape),
    /// A ray that separates its body along its direction (see [`RayShape`]).
    Ray(RayShape),
}

/// Kinds in the order that decides which shape of a contact is A (lower kind first),
/// as Box2D orders its manifold functions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum ShapeKind {
    /// Sphere.
    Sphere = 0,
    /// Capsule.
    Capsule = 1,
    /// Box.
    Box = 2,
    /// Convex hull.
    Hull = 3,
    /// Triangle mesh or height field (always shape A: collided per triangle).
    Mesh = 8,
    /// Cylinder.
    Cylinder = 4,
    /// Plane (half-space).
    Plane = 5,
    /// Ray (A against every kind but a mesh).
    Ray = 6,
}

impl ShapeGeometry {
    /// The kind.
    pub fn kind(&self) -> ShapeKind {
        match self {
            ShapeGeometry::Sphere(_) => ShapeKind::Sphere,
            ShapeGeometry::Capsule(_) => ShapeKind::Capsule,
            ShapeGeometry::Box(_) => ShapeKind::Box,
            ShapeGeometry::Hull(_) => ShapeKind::Hull,
            ShapeGeometry::Mesh(_) => ShapeKind::Mesh,
            ShapeGeometry::Cylinder(_) => ShapeKind::Cylinder,
            ShapeGeometry::Plane(_) => ShapeKind::Plane,
            ShapeGeometry::Ray(_) => ShapeKind::Ray,
        }
    }
}

/// A shape as the world keeps it.
#[derive(Clone, Debug)]
pub(crate) struct Shape {
    /// State: generation and liveness of the slot.
    pub generation: u32,
    pub alive: bool,
    /// State: owning body slot.
    pub body: u32,
    /// Next shape of the same body, ascending slot order (derived).
    pub next_in_body: u32,
    /// State: geometry (content).
    pub geometry: ShapeGeometry,
    /// Derived from the geometry: a box as a hull.
    pub box_hull: BoxHull,
    /// Derived from the content: a mesh's bounds in the body frame.
    pub mesh_bounds: Aabb,
    /// Derived: mass properties at this shape's density.
    pub mass_data: MassData,
    pub density: f32,
    pub friction: f32,
    pub restitution: f32,
    /// State: see [`ShapeDef::rough`] (bit 2 of the sensor byte).
    pub rough: bool,
    /// State: see [`ShapeDef::absorbent`] (bit 3 of the sensor byte).
    pub absorbent: bool,
    /// State: see [`ShapeDef::two_sided`] (bit 4 of the sensor byte).
    pub two_sided: bool,
    pub rolling_resistance: f32,
    pub filter: Filter,
    pub enable_contact_events: bool,
    pub is_sensor: bool,
    pub enable_sensor_events: bool,
    /// State: this sensor also detects sensor shapes (encoded in bit 1 of the sensor byte).
    pub detects_sensors: bool,
    pub enable_hit_events: bool,
    pub enable_pre_solve: bool,
    /// State: the override region this sensor is, if any.
    pub area: Option<crate::area::AreaSettings>,
    /// Host data, not state.
    pub user_data: u64,
    /// State: enlarged bounds; a pair begins when these overlap.
    pub fat_aabb: DAabb,
    /// State: bounds grew out of `fat_aabb` this step (the move buffer).
    pub enlarged: bool,
    /// Within a step only: finalize gave it new fat bounds (not state).
    pub grew: bool,
    /// Tree proxy (not state: trees are rebuilt after a restore).
    pub proxy: u32,
    /// Which tree the proxy is in: 0 static, 1 movable.
    pub tree: u8,
}

impl Shape {
    /// Whether the shape is a ray: it acts in the simulation's contacts only (queries,
    /// motion tests, explosions and continuous collision leave it out).
    #[inline]
    pub(crate) fn is_ray(&self) -> bool {
        matches!(self.geometry, ShapeGeometry::Ray(_))
    }
}

/// A hull slot: the input points are content (state), the hull is rebuilt from them.
#[derive(Clone, Debug)]
pub(crate) struct HullSlot {
    pub generation: u32,
    pub alive: bool,
    /// Shapes using this hull (derived).
    pub ref_count: u32,
    /// State: the points given at create.
    pub point_count: u32,
    pub points: [Vec3; crate::geometry::hull::MAX_HULL_POINTS],
    /// Derived: the hull built from the points.
    pub hull: Hull,
}

impl Default for HullSlot {
    fn default() -> HullSlot {
        HullSlot {
            generation: 0,
            alive: false,
            ref_count: 0,
            point_count: 0,
            points: [Vec3::ZERO; crate::geometry::hull::MAX_HULL_POINTS],
            hull: Hull::default(),
        }
    }
}

/// Mass properties of a shape at its density.
pub(crate) fn compute_mass(
    geometry: &ShapeGeometry,
    box_hull: &BoxHull,
    hulls: &[HullSlot],
    density: f32,
) -> MassData {
    let _ = box_hull;
    match geometry {
        ShapeGeometry::Sphere(s) => mass::sphere_mass(s, density),
        ShapeGeometry::Capsule(c) => mass::capsule_mass(c, density),
        ShapeGeometry::Box(b) => mass::box_mass(b.half, b.center, b.rotation, density),
        ShapeGeometry::Hull(h) => mass::hull_mass(&hulls[*h as usize].hull.view(), density),
        // Meshes go on static and kinematic bodies only: no mass.
        ShapeGeometry::Mesh(_) => MassData::default(),
        ShapeGeometry::Cylinder(c) => cylinder::cylinder_mass(c, density),
        ShapeGeometry::Plane(_) => MassData::default(),
        // A ray has no volume: it adds no mass.
        ShapeGeometry::Ray(_) => MassData::default(),
    }
}

/// Bounds of a shape relative to its body origin, for a body rotated by `q`.
#[inline]
pub(crate) fn local_aabb(shape: &Shape, hulls: &[HullSlot], q: Quat) -> Aabb {
    let xf = Transform::new(Vec3::ZERO, q);
    match &shape.geometry {
        ShapeGeometry::Sphere(s) => bounds::sphere_aabb(s, &xf),
        ShapeGeometry::Capsule(c) => bounds::capsule_aabb(c, &xf),
        ShapeGeometry::Box(_) => bounds::box_aabb(&shape.box_hull, &xf),
        ShapeGeometry::Hull(h) => bounds::hull_aabb(&hulls[*h as usize].hull.view(), &xf),
        ShapeGeometry::Mesh(_) => bounds::rotated_aabb(&shape.mesh_bounds, q),
        ShapeGeometry::Cylinder(c) => cylinder::cylinder_aabb(c, &xf),
        ShapeGeometry::Plane(p) => cylinder::plane_aabb(p, q),
        ShapeGeometry::Ray(r) => {
            let (a, b) = (q.rotate(r.origin), q.rotate(r.tip()));
            Aabb::new(a.min(b), a.max(b))
        }
    }
}

/// Farthest point of a shape from `center` (body frame).
pub(crate) fn shape_extent(shape: &Shape, hulls: &[HullSlot], center: Vec3) -> f32 {
    match &shape.geometry {
        ShapeGeometry::Sphere(s) => (s.center - center).length() + s.radius,
        ShapeGeometry::Capsule(c) => {
            max((c.center1 - center).length(), (c.center2 - center).length()) + c.radius
        }
        ShapeGeometry::Box(_) => bounds::hull_max_extent(&shape.box_hull.view(), center),
        ShapeGeometry::Hull(h) => bounds::hull_max_extent(&hulls[*h as usize].hull.view(), center),
        ShapeGeometry::Mesh(_) => {
            let b = &shape.mesh_bounds;
            let far = (b.lower - center).abs().max((b.upper - center).abs());
            far.length()
        }
        ShapeGeometry::Cylinder(c) => cylinder::cylinder_max_extent(c, center),
        // Only static bodies hold planes, and they are never swept.
        ShapeGeometry::Plane(_) => 0.0,
        ShapeGeometry::Ray(r) => max((r.origin - center).length(), (r.tip() - center).length()),
    }
}

/// The centre of a shape's volume in its body's frame.
pub(crate) fn shape_centroid(shape: &Shape, hulls: &[HullSlot]) -> Vec3 {
    match &shape.geometry {
        ShapeGeometry::Sphere(s) => s.center,
        ShapeGeometry::Capsule(c) => (c.center1 + c.center2) * 0.5,
        ShapeGeometry::Box(b) => b.center,
        ShapeGeometry::Hull(h) => hulls[*h as usize].hull.view().centroid,
        ShapeGeometry::Mesh(_) => shape.mesh_bounds.center(),
        ShapeGeometry::Cylinder(c) => c.center,
        ShapeGeometry::Plane(p) => p.normal * p.offset,
        ShapeGeometry::Ray(r) => (r.origin + r.tip()) * 0.5,
    }
}

/// How thin a shape is: the radius of the largest ball it surely contains (a fast-motion
/// threshold for continuous collision).
pub(crate) fn shape_min_extent(shape: &Shape, hulls: &[HullSlot]) -> f32 {
    let hull_inner = |h: &crate::geometry::hull::HullView| {
        let mut m = f32::MAX;
        for pl in h.planes {
            m = crate::math::min(m, -pl.distance(h.centroid));
        }
        crate::math::max(m, 0.0)
    };
    match &shape.geometry {
        ShapeGeometry::Sphere(s) => s.radius,
        ShapeGeometry::Capsule(c) => c.radius,
        ShapeGeometry::Box(b) => crate::math::min(b.half.x, crate::math::min(b.half.y, b.half.z)),
        ShapeGeometry::Hull(h) => hull_inner(&hulls[*h as usize].hull.view()),
        // Surfaces without volume.
        ShapeGeometry::Mesh(_) => 0.0,
        ShapeGeometry::Cylinder(c) => crate::math::min(c.radius, c.half_height),
        ShapeGeometry::Plane(_) => PLANE_EXTENT,
        // Never swept (continuous collision leaves rays out).
        ShapeGeometry::Ray(_) => 0.0,
    }
}

/// The shape as a point set with a radius, for distance, cast and time of impact.
pub(crate) fn shape_proxy(
    shape: &Shape,
    hulls: &[HullSlot],
) -> crate::collide::distance::ShapeProxy {
    use crate::collide::distance::ShapeProxy;
    match &shape.geometry {
        ShapeGeometry::Sphere(s) => ShapeProxy::sphere(s),
        ShapeGeometry::Capsule(c) => ShapeProxy::capsule(c),
        ShapeGeometry::Box(_) => ShapeProxy::hull(&shape.box_hull.view()),
        ShapeGeometry::Hull(h) => ShapeProxy::hull(&hulls[*h as usize].hull.view()),
        // Not convex: callers go through its triangles (`content`); a point at its
        // bounds' centre stands in for anything that asks the whole shape.
        ShapeGeometry::Mesh(_) => ShapeProxy::from_points(&[shape.mesh_bounds.center()], 0.0),
        ShapeGeometry::Cylinder(c) => ShapeProxy::hull(&CylinderHull::new(c).view()),
        ShapeGeometry::Plane(p) => {
            ShapeProxy::from_points(&cylinder::plane_slab(p, Vec3::ZERO, 1.0), 0.0)
        }
        // The segment (for sensors, which see a ray as its segment).
        ShapeGeometry::Ray(r) => ShapeProxy::from_points(&[r.origin, r.tip()], 0.0),
    }
}

/// The shape as a point set for distance, cast and time of impact against shapes within
/// `extent` of `near` (the shape's body frame): a plane becomes a slab of that size under
/// `near` (see `plane_slab`), any other shape its own proxy.
pub(crate) fn shape_proxy_near(
    shape: &Shape,
    hulls: &[HullSlot],
    near: Vec3,
    extent: f32,
) -> crate::collide::distance::ShapeProxy {
    use crate::collide::distance::ShapeProxy;
    match &shape.geometry {
        ShapeGeometry::Plane(p) => {
            let extent = crate::math::min(crate::math::max(extent, 1.0), PLANE_EXTENT);
            ShapeProxy::from_points(&cylinder::plane_slab(p, near, extent), 0.0)
        }
        _ => shape_proxy(shape, hulls),
    }
}

/// Where a query over `region` (world bounds) sits in the frame of a body at `position`
/// rotated by `rotation`, and how far it reaches: the `near` and `extent` of
/// [`shape_proxy_near`].
pub(crate) fn region_near(
    region: &DAabb,
    position: crate::math::DVec3,
    rotation: Quat,
) -> (Vec3, f32) {
    let h = (region.upper - region.lower).to_f32() * 0.5;
    let near = rotation.inv_rotate((region.lower - position).to_f32() + h);
    let reach = h.x + h.y + h.z + 1.0;
    (near, reach)
}

fn check_local_point(name: &'static str, v: Vec3) -> Result<()> {
    for i in 0..3 {
        let c = v.get(i);
        if !c.is_finite() || c.abs() > 1.0e6 {
            return Err(Error::Argument {
                name,
                value: c as f64,
                expected: "finite and within ±1e6 of the body origin",
            });
        }
    }
    Ok(())
}

/// `q` normalised, unless it is already unit to within 1e-6 in squared norm: then as
/// given, so that a replay, which passes the stored (normalised) value back in, stores the
/// same bits (normalising twice can move the last bit).
pub(crate) fn settle_quat(q: Quat) -> Quat {
    if (q.length_squared() - 1.0).abs() <= 1.0e-6 {
        q
    } else {
        q.normalize()
    }
}

/// `v` normalised, unless already unit to within 1e-6 in squared length (see
/// [`settle_quat`]).
pub(crate) fn settle_unit(v: Vec3) -> Vec3 {
    if (v.length_squared() - 1.0).abs() <= 1.0e-6 {
        v
    } else {
        v.normalize()
    }
}

fn check_size(name: &'static str, v: f32) -> Result<()> {
    if !(v.is_finite() && v > 0.0 && v <= 1.0e6) {
        return Err(Error::Argument {
            name,
            value: v as f64,
            expected: "finite and within (0, 1e6]",
        });
    }
    Ok(())
}

fn check_shape_def(def: &ShapeDef) -> Result<()> {
    let ok = |name: &'static str, v: f32| check_nonneg(name, v, MAX_MATERIAL, "within [0, 1e3]");
    check_nonneg("density", def.density, MAX_DENSITY, "within [0, 1e5] kg/m³")?;
    ok("friction", def.friction)?;
    ok("restitution", def.restitution)?;
    ok("rolling_resistance", def.rolling_resistance)?;
    Ok(())
}

impl World {
    /// [`World::create_sphere_shape`] without its record (the API layer, `crate::api`, records it).
    pub(crate) fn create_sphere_shape_unrecorded(
        &mut self,
        body: BodyId,
        def: &ShapeDef,
        sphere: &Sphere,
    ) -> Result<ShapeId> {
        check_local_point("sphere.center", sphere.center)?;
        check_size("sphere.radius", sphere.radius)?;
        self.create_shape(body, def, ShapeGeometry::Sphere(*sphere))
    }

    /// [`World::create_capsule_shape`] without its record (the API layer, `crate::api`, records it).
    pub(crate) fn create_capsule_shape_unrecorded(
        &mut self,
        body: BodyId,
        def: &ShapeDef,
        capsule: &Capsule,
    ) -> Result<ShapeId> {
        check_local_point("capsule.center1", capsule.center1)?;
        check_local_point("capsule.center2", capsule.center2)?;
        check_size("capsule.radius", capsule.radius)?;
        self.create_shape(body, def, ShapeGeometry::Capsule(*capsule))
    }

    /// [`World::create_offset_box_shape`] without its record (the API layer, `crate::api`, records it).
    pub(crate) fn create_offset_box_shape_unrecorded(
        &mut self,
        body: BodyId,
        def: &ShapeDef,
        half: Vec3,
        center: Vec3,
        rotation: Quat,
    ) -> Result<ShapeId> {
        check_size("half.x", half.x)?;
        check_size("half.y", half.y)?;
        check_size("half.z", half.z)?;
        check_local_point("center", center)?;
        let n2 = rotation.length_squared();
        if !(rotation.is_valid() && n2 > 1e-6 && n2.is_finite()) {
            return Err(Error::Argument {
                name: "rotation norm²",
                value: n2 as f64,
                expected: "finite and above 1e-6 (a rotation quaternion)",
            });
        }
        let b = BoxShape {
            half,
            center,
            rotation: settle_quat(rotation),
        };
        self.create_shape(body, def, ShapeGeometry::Box(b))
    }

    /// [`World::create_hull`] without its record (the API layer, `crate::api`, records it).
    pub(crate) fn create_hull_unrecorded(&mut self, points: &[Vec3]) -> Result<HullId> {
        if points.len() > MAX_HULL_POINTS {
            return Err(Error::Argument {
                name: "hull point count",
                value: points.len() as f64,
                expected: "at most 64",
            });
        }
        for p in points {
            check_local_point("hull point", *p)?;
        }
        if self.content.hulls.free.is_empty() && self.content.hulls.is_full() {
            return Err(Error::Capacity {
                what: "hull_capacity",
                capacity: self.def.hull_capacity as u64,
            });
        }
        let mut built = crate::geometry::hull::Hull::default();
        crate::geometry::quickhull::build_hull(points, &mut built)?;
        let slot = self
            .content
            .hulls
            .take(
                |h| h.generation,
                |g| {
                    let mut h = HullSlot {
                        generation: g.wrapping_add(1).max(1),
                        alive: true,
                        ref_count: 0,
                        point_count: points.len() as u32,
                        points: [Vec3::ZERO; MAX_HULL_POINTS],
                        hull: built,
                    };
                    h.points[..points.len()].copy_from_slice(points);
                    h
                },
            )
            .ok_or(Error::Capacity {
                what: "hull_capacity",
                capacity: self.def.hull_capacity as u64,
            })?;
        self.content.hulls.count += 1;
        let id = HullId {
            index: slot + 1,
            generation: self.content.hulls[slot as usize].generation,
            world: self.tag,
        };
        Ok(id)
    }

    /// [`World::destroy_hull`] without its record (the API layer, `crate::api`, records it).
    pub(crate) fn destroy_hull_unrecorded(&mut self, id: HullId) -> Result<()> {
        let slot = self.hull_slot(id)?;
        if self.content.hulls[slot].ref_count > 0 {
            return Err(Error::State(
                "the hull is used by shapes: destroy them first",
            ));
        }
        let g = self.content.hulls[slot].generation;
        self.content.hulls[slot] = HullSlot {
            generation: g,
            ..HullSlot::default()
        };
        let ok = self.content.hulls.free.push(slot as u32);
        debug_assert!(ok);
        self.content.hulls.count -= 1;
        Ok(())
    }

    /// The points the hull was created from.
    pub fn hull_points(&self, id: HullId) -> Result<&[Vec3]> {
        let slot = self.hull_slot(id)?;
        let h = &self.content.hulls[slot];
        Ok(&h.points[..h.point_count as usize])
    }

    /// The hull's vertices (after welding and removing interior points).
    pub fn hull_vertices(&self, id: HullId) -> Result<&[Vec3]> {
        let slot = self.hull_slot(id)?;
        Ok(self.content.hulls[slot].hull.view().vertices)
    }

    /// [`World::create_cylinder_shape`] without its record (the API layer, `crate::api`, records it).
    pub(crate) fn create_cylinder_shape_unrecorded(
        &mut self,
        body: BodyId,
        def: &ShapeDef,
        cylinder: &Cylinder,
    ) -> Result<ShapeId> {
        check_local_point("cylinder.center", cylinder.center)?;
        check_size("cylinder.half_height", cylinder.half_height)?;
        check_size("cylinder.radius", cylinder.radius)?;
        let n2 = cylinder.rotation.length_squared();
        if !(cylinder.rotation.is_valid() && n2 > 1e-6 && n2.is_finite()) {
            return Err(Error::Argument {
                name: "cylinder.rotation norm²",
                value: n2 as f64,
                expected: "finite and above 1e-6 (a rotation quaternion)",
            });
        }
        let c = Cylinder {
            rotation: settle_quat(cylinder.rotation),
            ..*cylinder
        };
        self.create_shape(body, def, ShapeGeometry::Cylinder(c))
    }

    /// [`World::create_plane_shape`] without its record (the API layer, `crate::api`, records it).
    pub(crate) fn create_plane_shape_unrecorded(
        &mut self,
        body: BodyId,
        def: &ShapeDef,
        plane: &PlaneShape,
    ) -> Result<ShapeId> {
        let slot = self.body_slot(body)?;
        if self.bodies[slot].body_type != BodyType::Static {
            return Err(Error::State("a plane shape needs a static body"));
        }
        check_local_point("plane.normal", plane.normal)?;
        let len = plane.normal.length();
        if len.is_nan() || len < 1.0e-3 {
            return Err(Error::Argument {
                name: "plane.normal length",
                value: len as f64,
                expected: "within [1e-3, 1e6]",
            });
        }
        if !(plane.offset.is_finite() && plane.offset.abs() <= 1.0e6) {
            return Err(Error::Argument {
                name: "plane.offset",
                value: plane.offset as f64,
                expected: "finite and within ±1e6",
            });
        }
        let p = PlaneShape {
            normal: settle_unit(plane.normal),
            offset: plane.offset,
        };
        self.create_shape(body, def, ShapeGeometry::Plane(p))
    }

    /// [`World::create_ray_shape`] without its record (the API layer, `crate::api`, records it).
    pub(crate) fn create_ray_shape_unrecorded(
        &mut self,
        body: BodyId,
        def: &ShapeDef,
        ray: &RayShape,
    ) -> Result<ShapeId> {
        check_local_point("ray.origin", ray.origin)?;
        check_local_point("ray.direction", ray.direction)?;
        let len = ray.direction.length();
        if len.is_nan() || len < 1.0e-3 {
            return Err(Error::Argument {
                name: "ray.direction length",
                value: len as f64,
                expected: "within [1e-3, 1e6]",
            });
        }
        if !(ray.length.is_finite() && ray.length >= 0.0 && ray.length <= 1.0e6) {
            return Err(Error::Argument {
                name: "ray.length",
                value: ray.length as f64,
                expected: "finite and within [0, 1e6]",
            });
        }
        let r = RayShape {
            direction: settle_unit(ray.direction),
            ..*ray
        };
        self.create_shape(body, def, ShapeGeometry::Ray(r))
    }

    /// Whether any shape of the body (slot) is a plane.
    pub(crate) fn body_has_plane(&self, body: u32) -> bool {
        let mut s = self.bodies[body as usize].shape_head;
        while s != NONE {
            if matches!(self.shapes[s as usize].geometry, ShapeGeometry::Plane(_)) {
                return true;
            }
            s = self.shapes[s as usize].next_in_body;
        }
        false
    }

    /// [`World::create_hull_shape`] without its record (the API layer, `crate::api`, records it).
    pub(crate) fn create_hull_shape_unrecorded(
        &mut self,
        body: BodyId,
        def: &ShapeDef,
        hull: HullId,
    ) -> Result<ShapeId> {
        let h = self.hull_slot(hull)?;
        self.create_shape(body, def, ShapeGeometry::Hull(h as u32))
    }

    pub(crate) fn create_shape(
        &mut self,
        body: BodyId,
        def: &ShapeDef,
        geometry: ShapeGeometry,
    ) -> Result<ShapeId> {
        let bslot = self.body_slot(body)? as u32;
        check_shape_def(def)?;
        let box_hull = match geometry {
            ShapeGeometry::Box(b) => BoxHull::new(b.half, b.center, b.rotation),
            _ => BoxHull::default(),
        };
        let mass_data = compute_mass(&geometry, &box_hull, &self.content.hulls, def.density);
        let mesh_bounds = match geometry {
            ShapeGeometry::Mesh(m) => crate::content::mesh_data(&self.content.meshes, m)
                .map_or(Aabb::default(), |d| d.bounds()),
            _ => Aabb::default(),
        };
        let slot = self
            .shapes
            .take(
                |s| s.generation,
                |g| Shape {
                    generation: g.wrapping_add(1).max(1),
                    alive: true,
                    body: bslot,
                    next_in_body: NONE,
                    geometry,
                    box_hull,
                    mesh_bounds,
                    mass_data,
                    density: def.density,
                    friction: def.friction,
                    restitution: def.restitution,
                    rough: def.rough,
                    absorbent: def.absorbent,
                    two_sided: def.two_sided,
                    rolling_resistance: def.rolling_resistance,
                    filter: def.filter,
                    enable_contact_events: def.enable_contact_events,
                    is_sensor: def.is_sensor,
                    enable_sensor_events: def.enable_sensor_events,
                    detects_sensors: false,
                    enable_hit_events: def.enable_hit_events,
                    enable_pre_solve: def.enable_pre_solve,
                    area: None,
                    user_data: def.user_data,
                    fat_aabb: DAabb::default(),
                    enlarged: false,
                    grew: false,
                    proxy: NONE,
                    tree: STATIC_TREE,
                },
            )
            .ok_or(Error::Capacity {
                what: "shape_capacity",
                capacity: self.def.shape_capacity as u64,
            })?;
        if let ShapeGeometry::Hull(h) = geometry {
            self.content.hulls[h as usize].ref_count += 1;
        }
        if let ShapeGeometry::Mesh(m) = geometry {
            self.content.meshes[m as usize].ref_count += 1;
        }
        self.shapes.count += 1;
        if def.is_sensor {
            self.sensors.add_shape(slot);
        }
        // Insert in ascending slot order so the body's shape order is a function of state.
        let head = self.bodies[bslot as usize].shape_head;
        if head == NONE || head > slot {
            self.shapes[slot as usize].next_in_body = head;
            self.bodies[bslot as usize].shape_head = slot;
        } else {
            let mut prev = head;
            loop {
                let next = self.shapes[prev as usize].next_in_body;
                if next == NONE || next > slot {
                    self.shapes[slot as usize].next_in_body = next;
                    self.shapes[prev as usize].next_in_body = slot;
                    break;
                }
                prev = next;
            }
        }
        self.bodies[bslot as usize].shape_count += 1;
        if self.bodies[bslot as usize].enabled {
            self.create_proxy(slot);
        }
        self.update_body_mass(bslot);
        self.wake_body(bslot);
        let id = self.shape_id(slot);
        Ok(id)
    }

    /// [`World::destroy_shape`] without its record (the API layer, `crate::api`, records it).
    pub(crate) fn destroy_shape_unrecorded(&mut self, id: ShapeId) -> Result<()> {
        let slot = self.shape_slot(id)? as u32;
        let body = self.shapes[slot as usize].body;
        if self.body_is_character(body) {
            return Err(Error::State(
                "the shape is a character's capsule: destroy_character removes it",
            ));
        }
        self.destroy_body_contacts(body, Some(slot), true);
        // Unlink from the body's list.
        let head = self.bodies[body as usize].shape_head;
        if head == slot {
            self.bodies[body as usize].shape_head = self.shapes[slot as usize].next_in_body;
        } else {
            let mut prev = head;
            while prev != NONE {
                let next = self.shapes[prev as usize].next_in_body;
                if next == slot {
                    self.shapes[prev as usize].next_in_body =
                        self.shapes[slot as usize].next_in_body;
                    break;
                }
                prev = next;
            }
        }
        self.bodies[body as usize].shape_count -= 1;
        self.free_shape(slot);
        self.update_body_mass(body);
        self.wake_body(body);
        Ok(())
    }

    /// Frees a shape slot (contacts already gone, body list handled by the caller).
    pub(crate) fn free_shape(&mut self, slot: u32) {
        self.destroy_proxy(slot);
        self.forget_sensor_pairs(slot);
        if self.shapes[slot as usize].is_sensor {
            self.sensors.remove_shape(slot);
        }
        if let ShapeGeometry::Hull(h) = self.shapes[slot as usize].geometry {
            self.content.hulls[h as usize].ref_count -= 1;
        }
        if let ShapeGeometry::Mesh(m) = self.shapes[slot as usize].geometry {
            self.content.meshes[m as usize].ref_count -= 1;
        }
        let s = &mut self.shapes[slot as usize];
        s.alive = false;
        s.enlarged = false;
        s.next_in_body = NONE;
        let ok = self.shapes.free.push(slot);
        debug_assert!(ok);
        self.shapes.count -= 1;
    }

    fn shape_world_aabb(&self, slot: u32) -> (DAabb, Aabb) {
        let s = &self.shapes[slot as usize];
        let b = &self.bodies[s.body as usize];
        let local = local_aabb(s, &self.content.hulls, b.rotation);
        (DAabb::from_local(b.position, &local), local)
    }

    fn create_proxy(&mut self, slot: u32) {
        let body = self.shapes[slot as usize].body;
        let body_type = self.bodies[body as usize].body_type;
        let position = self.bodies[body as usize].position;
        let (_, local) = self.shape_world_aabb(slot);
        let margin = if body_type == BodyType::Static {
            0.0
        } else {
            AABB_MARGIN
        };
        let fat = DAabb::from_local(position, &local.inflate(margin));
        let tree = tree_for(body_type);
        // The tree holds one proxy per shape slot, so it cannot be full here.
        let proxy = self
            .broad
            .tree_mut(tree)
            .create_proxy(fat, slot)
            .unwrap_or(NONE);
        let s = &mut self.shapes[slot as usize];
        s.fat_aabb = fat;
        s.proxy = proxy;
        s.tree = tree;
        if !s.is_sensor {
            self.broad.filters.note(&s.filter);
        }
        self.mark_enlarged(slot);
    }

    fn destroy_proxy(&mut self, slot: u32) {
        let s = &self.shapes[slot as usize];
        if s.proxy != NONE {
            let (tree, proxy) = (s.tree, s.proxy);
            let ok = self.broad.tree_mut(tree).destroy_proxy(proxy).is_ok();
            debug_assert!(ok);
            self.shapes[slot as usize].proxy = NONE;
        }
    }

    pub(crate) fn add_body_proxies(&mut self, body: u32) {
        let mut s = self.bodies[body as usize].shape_head;
        while s != NONE {
            self.create_proxy(s);
            s = self.shapes[s as usize].next_in_body;
        }
    }

    pub(crate) fn remove_body_proxies(&mut self, body: u32) {
        let mut s = self.bodies[body as usize].shape_head;
        while s != NONE {
            self.destroy_proxy(s);
            s = self.shapes[s as usize].next_in_body;
        }
    }

    /// After a teleport: new fat bounds for every shape, in the move buffer.
    pub(crate) fn refresh_body_bounds(&mut self, body: u32, force: bool) {
        let body_type = self.bodies[body as usize].body_type;
        let position = self.bodies[body as usize].position;
        let margin = if body_type == BodyType::Static {
            0.0
        } else {
            AABB_MARGIN
        };
        let mut s = self.bodies[body as usize].shape_head;
        while s != NONE {
            let (aabb, local) = self.shape_world_aabb(s);
            let shape = &self.shapes[s as usize];
            let next = shape.next_in_body;
            if force || !shape.fat_aabb.contains(&aabb) {
                let fat = DAabb::from_local(position, &local.inflate(margin));
                let (tree, proxy) = (shape.tree, shape.proxy);
                self.shapes[s as usize].fat_aabb = fat;
                if proxy != NONE {
                    let ok = self.broad.tree_mut(tree).move_proxy(proxy, fat).is_ok();
                    debug_assert!(ok);
                    self.mark_enlarged(s);
                }
            }
            s = next;
        }
    }

    /// The shape's body.
    pub fn shape_body(&self, id: ShapeId) -> Result<BodyId> {
        let slot = self.shape_slot(id)?;
        Ok(self.body_id(self.shapes[slot].body))
    }

    /// The shapes of a body, in shape slot order (the order of its shape list).
    pub fn body_shapes(&self, id: BodyId) -> Result<impl Iterator<Item = ShapeId> + '_> {
        let mut s = self.bodies[self.body_slot(id)?].shape_head;
        Ok(core::iter::from_fn(move || {
            if s == NONE {
                return None;
            }
            let slot = s;
            s = self.shapes[slot as usize].next_in_body;
            Some(self.shape_id(slot))
        }))
    }

    /// The hull a hull shape uses (an argument error for another kind:
    /// `shape_geometry` gives a hull as its slot, which a host cannot name).
    pub fn shape_hull(&self, shape: ShapeId) -> Result<HullId> {
        let g = self.shape_geometry(shape)?;
        let ShapeGeometry::Hull(h) = g else {
            return Err(Error::Argument {
                name: "shape kind",
                value: g.kind() as u8 as f64,
                expected: "a hull shape (3)",
            });
        };
        Ok(HullId {
            index: h + 1,
            generation: self.content.hulls[h as usize].generation,
            world: self.tag,
        })
    }

    /// The shape's geometry (a hull as its slot).
    pub fn shape_geometry(&self, id: ShapeId) -> Result<ShapeGeometry> {
        Ok(self.shapes[self.shape_slot(id)?].geometry)
    }

    /// [`World::set_shape_friction`] without its record (the API layer, `crate::api`, records it).
    pub(crate) fn set_shape_friction_unrecorded(
        &mut self,
        id: ShapeId,
        friction: f32,
    ) -> Result<()> {
        let slot = self.shape_slot(id)?;
        check_nonneg("friction", friction, MAX_MATERIAL, "within [0, 1e3]")?;
        self.shapes[slot].friction = friction;
        Ok(())
    }

    /// [`World::set_shape_restitution`] without its record (the API layer, `crate::api`, records it).
    pub(crate) fn set_shape_restitution_unrecorded(
        &mut self,
        id: ShapeId,
        restitution: f32,
    ) -> Result<()> {
        let slot = self.shape_slot(id)?;
        check_nonneg("restitution", restitution, MAX_MATERIAL, "within [0, 1e3]")?;
        self.shapes[slot].restitution = restitution;
        Ok(())
    }

    /// [`World::set_shape_rough`] without its record (the API layer, `crate::api`, records it).
    pub(crate) fn set_shape_rough_unrecorded(&mut self, id: ShapeId, rough: bool) -> Result<()> {
        let slot = self.shape_slot(id)?;
        self.shapes[slot].rough = rough;
        Ok(())
    }

    /// [`World::set_shape_absorbent`] without its record (the API layer, `crate::api`, records it).
    pub(crate) fn set_shape_absorbent_unrecorded(
        &mut self,
        id: ShapeId,
        absorbent: bool,
    ) -> Result<()> {
        let slot = self.shape_slot(id)?;
        self.shapes[slot].absorbent = absorbent;
        Ok(())
    }

    /// [`World::set_shape_two_sided`] without its record (the API layer, `crate::api`,
    /// records it).
    pub(crate) fn set_shape_two_sided_unrecorded(
        &mut self,
        id: ShapeId,
        two_sided: bool,
    ) -> Result<()> {
        let slot = self.shape_slot(id)?;
        self.shapes[slot].two_sided = two_sided;
        Ok(())
    }

    /// Whether the shape's triangles collide from both sides (see
    /// [`ShapeDef::two_sided`]).
    pub fn shape_two_sided(&self, id: ShapeId) -> Result<bool> {
        Ok(self.shapes[self.shape_slot(id)?].two_sided)
    }

    /// Whether the shape is rough (see [`ShapeDef::rough`]).
    pub fn shape_rough(&self, id: ShapeId) -> Result<bool> {
        Ok(self.shapes[self.shape_slot(id)?].rough)
    }

    /// Whether the shape is absorbent (see [`ShapeDef::absorbent`]).
    pub fn shape_absorbent(&self, id: ShapeId) -> Result<bool> {
        Ok(self.shapes[self.shape_slot(id)?].absorbent)
    }

    /// The shape's collision filter.
    pub fn shape_filter(&self, id: ShapeId) -> Result<Filter> {
        Ok(self.shapes[self.shape_slot(id)?].filter)
    }

    /// The shape's friction coefficient.
    pub fn shape_friction(&self, id: ShapeId) -> Result<f32> {
        Ok(self.shapes[self.shape_slot(id)?].friction)
    }

    /// The shape's restitution.
    pub fn shape_restitution(&self, id: ShapeId) -> Result<f32> {
        Ok(self.shapes[self.shape_slot(id)?].restitution)
    }

    /// [`World::set_shape_rolling_resistance`] without its record (the API layer, `crate::api`, records it).
    pub(crate) fn set_shape_rolling_resistance_unrecorded(
        &mut self,
        id: ShapeId,
        value: f32,
    ) -> Result<()> {
        let slot = self.shape_slot(id)?;
        check_nonneg("rolling_resistance", value, MAX_MATERIAL, "within [0, 1e3]")?;
        self.shapes[slot].rolling_resistance = value;
        Ok(())
    }

    /// [`World::set_shape_density`] without its record (the API layer, `crate::api`, records it).
    pub(crate) fn set_shape_density_unrecorded(&mut self, id: ShapeId, density: f32) -> Result<()> {
        let slot = self.shape_slot(id)?;
        check_nonneg("density", density, MAX_DENSITY, "within [0, 1e5] kg/m³")?;
        let s = &self.shapes[slot];
        let md = compute_mass(&s.geometry, &s.box_hull, &self.content.hulls, density);
        let body = s.body;
        self.shapes[slot].density = density;
        self.shapes[slot].mass_data = md;
        self.update_body_mass(body);
        self.wake_body(body);
        Ok(())
    }

    /// [`World::set_shape_filter`] without its record (the API layer, `crate::api`, records it).
    pub(crate) fn set_shape_filter_unrecorded(
        &mut self,
        id: ShapeId,
        filter: Filter,
    ) -> Result<()> {
        let slot = self.shape_slot(id)?;
        let body = self.shapes[slot].body;
        self.shapes[slot].filter = filter;
        if !self.shapes[slot].is_sensor {
            self.broad.filters.note(&filter);
        }
        self.destroy_body_contacts(body, Some(slot as u32), true);
        if self.shapes[slot].proxy != NONE {
            self.mark_enlarged(slot as u32);
        }
        self.wake_body(body);
        Ok(())
    }

    /// [`World::set_shape_area`] without its record (the API layer, `crate::api`, records it).
    pub(crate) fn set_shape_area_unrecorded(
        &mut self,
        id: ShapeId,
        area: Option<crate::area::AreaSettings>,
    ) -> Result<()> {
        let slot = self.shape_slot(id)?;
        if !self.shapes[slot].is_sensor {
            return Err(Error::State("only a sensor shape can be an area"));
        }
        if let Some(a) = &area {
            check_area(a)?;
        }
        self.shapes[slot].area = area;
        Ok(())
    }

    /// The host's data of the shape.
    pub fn shape_user_data(&self, id: ShapeId) -> Result<u64> {
        Ok(self.shapes[self.shape_slot(id)?].user_data)
    }

    /// The shape's enlarged bounds (world, relative to the origin).
    pub fn shape_fat_aabb(&self, id: ShapeId) -> Result<DAabb> {
        Ok(self.shapes[self.shape_slot(id)?].fat_aabb)
    }
}

/// Validates an area's settings against `crate::limits`.
pub(crate) fn check_area(a: &crate::area::AreaSettings) -> Result<()> {
    use crate::area::AreaGravity;
    use crate::limits::{MAX_GRAVITY, MAX_SETTING, check_abs, check_nonneg, check_vec_abs};
    match a.gravity {
        AreaGravity::Directional(g) => check_vec_abs(
            "area gravity",
            g,
            MAX_GRAVITY,
            "finite and within ±1e5 (each component)",
        )?,
        AreaGravity::Point {
            center,
            strength,
            unit_distance,
        } => {
            check_vec_abs(
                "area gravity center",
                center,
                1.0e6,
                "finite and within ±1e6 of the body origin",
            )?;
            check_abs(
                "area gravity strength",
                strength,
                MAX_GRAVITY,
                "finite and within ±1e5",
            )?;
            check_nonneg(
                "area unit distance",
                unit_distance,
                1.0e6,
                "within [0, 1e6]",
            )?;
        }
    }
    check_nonneg(
        "area linear damping",
        a.linear_damping,
        MAX_SETTING,
        "within [0, 1e6]",
    )?;
    check_nonneg(
        "area angular damping",
        a.angular_damping,
        MAX_SETTING,
        "within [0, 1e6]",
    )
}

/// A dead shape slot of generation `generation` (what a snapshot's decoder fills in).
pub(crate) fn blank_shape(generation: u32) -> Shape {
    Shape {
        generation,
        alive: false,
        body: NONE,
        next_in_body: NONE,
        geometry: ShapeGeometry::Sphere(Sphere::default()),
        box_hull: BoxHull::default(),
        mesh_bounds: Default::default(),
        mass_data: MassData::default(),
        density: 0.0,
        friction: 0.0,
        restitution: 0.0,
        rough: false,
        absorbent: false,
        two_sided: false,
        rolling_resistance: 0.0,
        filter: Filter::default(),
        enable_contact_events: false,
        is_sensor: false,
        enable_sensor_events: false,
        detects_sensors: false,
        enable_hit_events: false,
        enable_pre_solve: false,
        area: None,
        user_data: 0,
        fat_aabb: DAabb::default(),
        enlarged: false,
        grew: false,
        proxy: NONE,
        tree: 0,
    }
}

/// A shape that is only a geometry (for queries): no body, no proxy.
pub(crate) fn probe_shape(geometry: ShapeGeometry) -> Shape {
    let mut s = blank_shape(0);
    s.alive = true;
    s.box_hull = match geometry {
        ShapeGeometry::Box(b) => BoxHull::new(b.half, b.center, b.rotation),
        _ => BoxHull::default(),
    };
    s.geometry = geometry;
    s
}
