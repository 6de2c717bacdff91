//! Shapes and hulls. Each shape kind is one geometry struct, one `m3_*Shape` constant and
//! one `m3Create*Shape` export; a new kind adds those three, an `m3Shape_Get*` reader and
//! a case in `m3Shape_GetType`, `m3DebugShape` (debug draw) and, if it can be a query
//! shape, `m3QueryShape`. A changed struct layout bumps `M3_ABI_VERSION_MINOR`. (A mesh
//! shape's geometry is shared content, `content.rs`, as a hull shape's is its hull.)

use crate::boundary::{api_on, non_null, read, write};
use crate::types::*;
use engine::{ShapeId, World};

/// Shape kinds.
pub type m3ShapeType = i32;
/// A sphere.
pub const m3_sphereShape: m3ShapeType = 0;
/// A capsule.
pub const m3_capsuleShape: m3ShapeType = 1;
/// A box.
pub const m3_boxShape: m3ShapeType = 2;
/// A convex hull.
pub const m3_hullShape: m3ShapeType = 3;
/// A cylinder.
pub const m3_cylinderShape: m3ShapeType = 4;
/// A plane bounding a solid half-space (static bodies only).
pub const m3_planeShape: m3ShapeType = 5;
/// A triangle mesh or height field (`m3World_CreateMesh`, `m3World_CreateHeightField`),
/// or a voxel grid's shape (`m3CreateVoxelShape`); static and kinematic bodies only.
pub const m3_meshShape: m3ShapeType = 6;
/// A ray that separates its body along its direction (Godot's SeparationRayShape3D).
pub const m3_rayShape: m3ShapeType = 7;

/// A sphere in the body frame.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct m3Sphere {
    /// Centre.
    pub center: m3Vec3,
    /// Radius (> 0).
    pub radius: f32,
}

/// A capsule: a segment swept by a radius, in the body frame.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct m3Capsule {
    /// First end of the segment.
    pub center1: m3Vec3,
    /// Second end of the segment.
    pub center2: m3Vec3,
    /// Radius (> 0).
    pub radius: f32,
}

/// A box: half-extents, centre and rotation in the body frame.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct m3Box {
    /// Half-extents (each > 0).
    pub halfExtents: m3Vec3,
    /// Centre.
    pub center: m3Vec3,
    /// Rotation.
    pub rotation: m3Quat,
}

/// A solid cylinder in the body frame: the points within `radius` of its axis and within
/// `halfHeight` of its centre along it. The axis is `rotation · y` (as Godot's
/// CylinderShape3D).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct m3Cylinder {
    /// Centre.
    pub center: m3Vec3,
    /// Rotation; the axis is its y axis.
    pub rotation: m3Quat,
    /// Half the length along the axis (> 0).
    pub halfHeight: f32,
    /// Radius (> 0).
    pub radius: f32,
}

/// A plane in the body frame: the half-space `normal · x <= offset` is solid (as Godot's
/// WorldBoundaryShape3D). Only static bodies take one.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct m3Plane {
    /// Outward normal (normalised at create; length within [1e-3, 1e6]).
    pub normal: m3Vec3,
    /// Offset of the surface along the normal from the body origin (within ±1e6).
    pub offset: f32,
}

/// A ray in the body frame (Godot's SeparationRayShape3D): the segment from `origin`
/// along `direction` for `length` pushes its body out of what it pierces, along the ray
/// (or along the hit surface's normal with `slideOnSlope`), as deep as its tip is past
/// the surface. It adds no mass; queries do not see it.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct m3Ray {
    /// Where the ray starts (within ±1e6).
    pub origin: m3Vec3,
    /// Its direction (normalised at create; length within [1e-3, 1e6]).
    pub direction: m3Vec3,
    /// Its length, m, within [0, 1e6].
    pub length: f32,
    /// Separate along the hit surface's normal rather than the ray.
    pub slideOnSlope: bool,
}

impl From<engine::RayShape> for m3Ray {
    fn from(r: engine::RayShape) -> m3Ray {
        m3Ray {
            origin: r.origin.into(),
            direction: r.direction.into(),
            length: r.length,
            slideOnSlope: r.slide_on_slope,
        }
    }
}
impl From<m3Ray> for engine::RayShape {
    fn from(r: m3Ray) -> engine::RayShape {
        engine::RayShape {
            origin: r.origin.into(),
            direction: r.direction.into(),
            length: r.length,
            slide_on_slope: r.slideOnSlope,
        }
    }
}

impl From<engine::Sphere> for m3Sphere {
    fn from(s: engine::Sphere) -> m3Sphere {
        m3Sphere {
            center: s.center.into(),
            radius: s.radius,
        }
    }
}
impl From<engine::Capsule> for m3Capsule {
    fn from(c: engine::Capsule) -> m3Capsule {
        m3Capsule {
            center1: c.center1.into(),
            center2: c.center2.into(),
            radius: c.radius,
        }
    }
}

impl From<engine::Cylinder> for m3Cylinder {
    fn from(c: engine::Cylinder) -> m3Cylinder {
        m3Cylinder {
            center: c.center.into(),
            rotation: c.rotation.into(),
            halfHeight: c.half_height,
            radius: c.radius,
        }
    }
}
impl From<m3Cylinder> for engine::Cylinder {
    fn from(c: m3Cylinder) -> engine::Cylinder {
        engine::Cylinder {
            center: c.center.into(),
            rotation: c.rotation.into(),
            half_height: c.halfHeight,
            radius: c.radius,
        }
    }
}
impl From<engine::PlaneShape> for m3Plane {
    fn from(p: engine::PlaneShape) -> m3Plane {
        m3Plane {
            normal: p.normal.into(),
            offset: p.offset,
        }
    }
}
impl From<m3Plane> for engine::PlaneShape {
    fn from(p: m3Plane) -> engine::PlaneShape {
        engine::PlaneShape {
            normal: p.normal.into(),
            offset: p.offset,
        }
    }
}

/// Which shapes collide (Box2D's rule): each one's category in the other's mask, unless
/// they share a non-zero group (positive: always, negative: never).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct m3Filter {
    /// Categories this shape belongs to.
    pub categoryBits: u64,
    /// Categories it collides with.
    pub maskBits: u64,
    /// Group override; 0 for none.
    pub groupIndex: i32,
}

impl From<m3Filter> for engine::Filter {
    fn from(f: m3Filter) -> engine::Filter {
        engine::Filter {
            category_bits: f.categoryBits,
            mask_bits: f.maskBits,
            group_index: f.groupIndex,
        }
    }
}

/// Material, filter and flags of a shape. Start from `m3DefaultShapeDef()`.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct m3ShapeDef {
    /// Density, kg/m³.
    pub density: f32,
    /// Coulomb friction.
    pub friction: f32,
    /// Restitution.
    pub restitution: f32,
    /// Rolling resistance.
    pub rollingResistance: f32,
    /// Collision filter.
    pub filter: m3Filter,
    /// Contact begin/end events.
    pub enableContactEvents: bool,
    /// A sensor detects overlaps and never collides.
    pub isSensor: bool,
    /// Whether sensors detect this shape.
    pub enableSensorEvents: bool,
    /// Contact hit events.
    pub enableHitEvents: bool,
    /// Whether the pre-solve callback is asked about this shape's contacts.
    pub enablePreSolve: bool,
    /// Host data: stored, never hashed.
    pub userData: u64,
}

fn default_shape_def() -> m3ShapeDef {
    let d = engine::ShapeDef::default();
    m3ShapeDef {
        density: d.density,
        friction: d.friction,
        restitution: d.restitution,
        rollingResistance: d.rolling_resistance,
        filter: m3Filter {
            categoryBits: d.filter.category_bits,
            maskBits: d.filter.mask_bits,
            groupIndex: d.filter.group_index,
        },
        enableContactEvents: d.enable_contact_events,
        isSensor: d.is_sensor,
        enableSensorEvents: d.enable_sensor_events,
        enableHitEvents: d.enable_hit_events,
        enablePreSolve: d.enable_pre_solve,
        userData: d.user_data,
    }
}

impl From<m3ShapeDef> for engine::ShapeDef {
    fn from(d: m3ShapeDef) -> engine::ShapeDef {
        engine::ShapeDef {
            density: d.density,
            friction: d.friction,
            restitution: d.restitution,
            rolling_resistance: d.rollingResistance,
            filter: d.filter.into(),
            enable_contact_events: d.enableContactEvents,
            is_sensor: d.isSensor,
            enable_sensor_events: d.enableSensorEvents,
            enable_hit_events: d.enableHitEvents,
            enable_pre_solve: d.enablePreSolve,
            user_data: d.userData,
            // Set after creation (`m3Shape_SetRough`, `m3Shape_SetAbsorbent`,
            // `m3Shape_SetTwoSided`), so the C def's layout stays as it was.
            rough: false,
            absorbent: false,
            two_sided: false,
        }
    }
}

/// The default shape def: density 1000, friction 0.6, contact events on.
#[unsafe(no_mangle)]
pub extern "C" fn m3DefaultShapeDef() -> m3ShapeDef {
    crate::boundary::value("m3DefaultShapeDef", default_shape_def(), default_shape_def)
}

/// Creates a shape of geometry `g` (read from the host) on `body`.
fn create<G: Copy>(
    name: &'static str,
    body: m3BodyId,
    def: *const m3ShapeDef,
    geometry: *const G,
    shape: *mut m3ShapeId,
    f: impl FnOnce(&mut World, engine::BodyId, &engine::ShapeDef, G) -> engine::Result<ShapeId>,
) -> m3Result {
    api_on(name, body.world, || {
        let o = out("shapeId", shape)?;
        // SAFETY: the host passes valid values or null.
        let d = unsafe { read_ptr("def", def) }?;
        // SAFETY: as above.
        let g = unsafe { read_ptr("geometry", geometry) }?;
        non_null("bodyId", body)?;
        let id = write(body.world, |e| {
            let s = f(&mut e.world, body.to_core(e.tag), &d.into(), g)?;
            Ok(m3ShapeId::from_core(s, e.id))
        })?;
        // SAFETY: checked non-null.
        unsafe { put(o, id) };
        Ok(())
    })
}

/// Creates a shape on `body` from content of the same world (a hull, a mesh, a voxel
/// grid): `content` is the world the content id names, `what` its name in a refusal.
fn create_from_content(
    name: &'static str,
    body: m3BodyId,
    def: *const m3ShapeDef,
    content: impl ObjectId,
    what: &'static str,
    shape: *mut m3ShapeId,
    f: impl FnOnce(&mut World, engine::BodyId, &engine::ShapeDef, u32) -> engine::Result<ShapeId>,
) -> m3Result {
    api_on(name, body.world, || {
        let o = out("shapeId", shape)?;
        // SAFETY: the host passes a valid def or null.
        let d = unsafe { read_ptr("def", def) }?;
        non_null("bodyId", body)?;
        let id = write(body.world, |e| {
            e.owns(what, content)?;
            let s = f(&mut e.world, body.to_core(e.tag), &d.into(), e.tag)?;
            Ok(m3ShapeId::from_core(s, e.id))
        })?;
        // SAFETY: checked non-null.
        unsafe { put(o, id) };
        Ok(())
    })
}

/// Creates a sphere shape on a body.
///
/// # Safety
/// - `def` points to one readable `m3ShapeDef`, aligned for its type, for the duration
///   of the call (null is refused with `m3_errorArgument`).
/// - `sphere` points to one readable `m3Sphere`, aligned for its type, for the duration
///   of the call (null is refused with `m3_errorArgument`).
/// - `shapeId` points to one writable `m3ShapeId`, aligned for its type, for the
///   duration of the call (null is refused with `m3_errorArgument`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m3CreateSphereShape(
    bodyId: m3BodyId,
    def: *const m3ShapeDef,
    sphere: *const m3Sphere,
    shapeId: *mut m3ShapeId,
) -> m3Result {
    create(
        "m3CreateSphereShape",
        bodyId,
        def,
        sphere,
        shapeId,
        |w, b, d, s| {
            w.create_sphere_shape(
                b,
                d,
                &engine::Sphere {
                    center: s.center.into(),
                    radius: s.radius,
                },
            )
        },
    )
}

/// Creates a capsule shape on a body.
///
/// # Safety
/// - `def` points to one readable `m3ShapeDef`, aligned for its type, for the duration
///   of the call (null is refused with `m3_errorArgument`).
/// - `capsule` points to one readable `m3Capsule`, aligned for its type, for the
///   duration of the call (null is refused with `m3_errorArgument`).
/// - `shapeId` points to one writable `m3ShapeId`, aligned for its type, for the
///   duration of the call (null is refused with `m3_errorArgument`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m3CreateCapsuleShape(
    bodyId: m3BodyId,
    def: *const m3ShapeDef,
    capsule: *const m3Capsule,
    shapeId: *mut m3ShapeId,
) -> m3Result {
    create(
        "m3CreateCapsuleShape",
        bodyId,
        def,
        capsule,
        shapeId,
        |w, b, d, c| {
            w.create_capsule_shape(
                b,
                d,
                &engine::Capsule {
                    center1: c.center1.into(),
                    center2: c.center2.into(),
                    radius: c.radius,
                },
            )
        },
    )
}

/// A box of half-extents `hx, hy, hz` centred on the body origin (for `m3CreateBoxShape`).
#[unsafe(no_mangle)]
pub extern "C" fn m3MakeBox(hx: f32, hy: f32, hz: f32) -> m3Box {
    let b = |hx, hy, hz| m3Box {
        halfExtents: m3Vec3 {
            x: hx,
            y: hy,
            z: hz,
        },
        center: m3Vec3::default(),
        rotation: IDENTITY_QUAT,
    };
    crate::boundary::value("m3MakeBox", b(0.0, 0.0, 0.0), || b(hx, hy, hz))
}

/// Creates a box shape on a body.
///
/// # Safety
/// - `def` points to one readable `m3ShapeDef`, aligned for its type, for the duration
///   of the call (null is refused with `m3_errorArgument`).
/// - `box` points to one readable `m3Box`, aligned for its type, for the duration of
///   the call (null is refused with `m3_errorArgument`).
/// - `shapeId` points to one writable `m3ShapeId`, aligned for its type, for the
///   duration of the call (null is refused with `m3_errorArgument`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m3CreateBoxShape(
    bodyId: m3BodyId,
    def: *const m3ShapeDef,
    r#box: *const m3Box,
    shapeId: *mut m3ShapeId,
) -> m3Result {
    create(
        "m3CreateBoxShape",
        bodyId,
        def,
        r#box,
        shapeId,
        |w, b, d, x| {
            w.create_offset_box_shape(
                b,
                d,
                x.halfExtents.into(),
                x.center.into(),
                x.rotation.into(),
            )
        },
    )
}

/// Creates a cylinder shape on a body: `halfHeight` and `radius` within (0, 1e6], centre
/// within ±1e6 of the body origin, a rotation of non-zero norm (normalised).
///
/// # Safety
/// - `def` points to one readable `m3ShapeDef`, aligned for its type, for the duration
///   of the call (null is refused with `m3_errorArgument`).
/// - `cylinder` points to one readable `m3Cylinder`, aligned for its type, for the
///   duration of the call (null is refused with `m3_errorArgument`).
/// - `shapeId` points to one writable `m3ShapeId`, aligned for its type, for the
///   duration of the call (null is refused with `m3_errorArgument`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m3CreateCylinderShape(
    bodyId: m3BodyId,
    def: *const m3ShapeDef,
    cylinder: *const m3Cylinder,
    shapeId: *mut m3ShapeId,
) -> m3Result {
    create(
        "m3CreateCylinderShape",
        bodyId,
        def,
        cylinder,
        shapeId,
        |w, b, d, c| w.create_cylinder_shape(b, d, &c.into()),
    )
}

/// Creates a plane shape on a static body (`m3_errorState` on a dynamic or kinematic
/// one, whose type then cannot change while it holds the plane).
///
/// # Safety
/// - `def` points to one readable `m3ShapeDef`, aligned for its type, for the duration
///   of the call (null is refused with `m3_errorArgument`).
/// - `plane` points to one readable `m3Plane`, aligned for its type, for the duration
///   of the call (null is refused with `m3_errorArgument`).
/// - `shapeId` points to one writable `m3ShapeId`, aligned for its type, for the
///   duration of the call (null is refused with `m3_errorArgument`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m3CreatePlaneShape(
    bodyId: m3BodyId,
    def: *const m3ShapeDef,
    plane: *const m3Plane,
    shapeId: *mut m3ShapeId,
) -> m3Result {
    create(
        "m3CreatePlaneShape",
        bodyId,
        def,
        plane,
        shapeId,
        |w, b, d, p| w.create_plane_shape(b, d, &p.into()),
    )
}

/// Creates a ray shape on a body (see `m3Ray`).
///
/// # Safety
/// - `def` points to one readable `m3ShapeDef`, aligned for its type, for the duration
///   of the call (null is refused with `m3_errorArgument`).
/// - `ray` points to one readable `m3Ray`, aligned for its type, for the duration of the
///   call (null is refused with `m3_errorArgument`).
/// - `shapeId` points to one writable `m3ShapeId`, aligned for its type, for the
///   duration of the call (null is refused with `m3_errorArgument`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m3CreateRayShape(
    bodyId: m3BodyId,
    def: *const m3ShapeDef,
    ray: *const m3Ray,
    shapeId: *mut m3ShapeId,
) -> m3Result {
    create(
        "m3CreateRayShape",
        bodyId,
        def,
        ray,
        shapeId,
        |w, b, d, r| w.create_ray_shape(b, d, &r.into()),
    )
}

/// Builds a convex hull from 3 to 64 points (body frame) that any number of hull shapes
/// share. Flat (coplanar) points give a thin hull: the corners of their outline (at most
/// 32) moved 2.5 mm to each side of their plane. Collinear or coincident input is refused.
///
/// # Safety
/// - `points` points to `count` readable `m3Vec3` items, aligned, for the duration of
///   the call (null only with `count` 0).
/// - `hullId` points to one writable `m3HullId`, aligned for its type, for the duration
///   of the call (null is refused with `m3_errorArgument`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m3World_CreateHull(
    worldId: m3WorldId,
    points: *const m3Vec3,
    count: i32,
    hullId: *mut m3HullId,
) -> m3Result {
    api_on("m3World_CreateHull", worldId, || {
        let o = out("hullId", hullId)?;
        let n = count_arg("count", count)?;
        if n > 64 {
            return Err(crate::refuse!(
                m3_errorArgument,
                "count = {n} must be within [3, 64] hull points"
            ));
        }
        // SAFETY: the host promises `count` points.
        let pts = unsafe { slice("points", points, n) }?;
        let mut buf = [engine::math::Vec3::ZERO; 64];
        for (d, s) in buf.iter_mut().zip(pts) {
            *d = (*s).into();
        }
        let id = write(worldId, |e| {
            let h = e.world.create_hull(&buf[..n])?;
            Ok(m3HullId::from_core(h, e.id))
        })?;
        // SAFETY: checked non-null.
        unsafe { put(o, id) };
        Ok(())
    })
}

/// Destroys a hull no shape uses any more.
#[unsafe(no_mangle)]
pub extern "C" fn m3Hull_Destroy(hullId: m3HullId) -> m3Result {
    api_on("m3Hull_Destroy", hullId.world, || {
        write(hullId.world, |e| {
            Ok(e.world.destroy_hull(hullId.to_core(e.tag))?)
        })
    })
}

/// Creates a hull shape on a body from a hull of the same world.
///
/// # Safety
/// - `def` points to one readable `m3ShapeDef`, aligned for its type, for the duration
///   of the call (null is refused with `m3_errorArgument`).
/// - `shapeId` points to one writable `m3ShapeId`, aligned for its type, for the
///   duration of the call (null is refused with `m3_errorArgument`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m3CreateHullShape(
    bodyId: m3BodyId,
    def: *const m3ShapeDef,
    hullId: m3HullId,
    shapeId: *mut m3ShapeId,
) -> m3Result {
    create_from_content(
        "m3CreateHullShape",
        bodyId,
        def,
        hullId,
        "hullId",
        shapeId,
        |w, b, d, tag| w.create_hull_shape(b, d, hullId.to_core(tag)),
    )
}

/// Creates a shape of a mesh or height field of the same world on a static or kinematic
/// body; it adds no mass. A dynamic body is refused with `m3_errorArgument` (and so is
/// turning a body with such a shape dynamic), a sensor def with `m3_errorState`.
///
/// # Safety
/// - `def` points to one readable `m3ShapeDef`, aligned for its type, for the duration
///   of the call (null is refused with `m3_errorArgument`).
/// - `shapeId` points to one writable `m3ShapeId`, aligned for its type, for the
///   duration of the call (null is refused with `m3_errorArgument`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m3CreateMeshShape(
    bodyId: m3BodyId,
    def: *const m3ShapeDef,
    meshId: m3MeshId,
    shapeId: *mut m3ShapeId,
) -> m3Result {
    create_from_content(
        "m3CreateMeshShape",
        bodyId,
        def,
        meshId,
        "meshId",
        shapeId,
        |w, b, d, tag| w.create_mesh_shape(b, d, meshId.to_core(tag)),
    )
}

/// Voxels along each edge of a voxel grid; a grid holds `16³ = 4096` materials.
pub const M3_VOXEL_CHUNK: i32 = 16;

/// Creates a voxel grid: one 16³ chunk of one-byte materials (0 = empty; voxel
/// `(x, y, z)` at `data[x + 16·y + 256·z]`, `count` must be 4096) of edge `voxelSize`
/// (within [1e-3, 1e4] m) whose corner sits at `origin` in the shape frame, so many grids
/// with their own origins tile one static body. It draws from the world's content budget
/// and mesh pool (`m3WorldDef.contentCapacity`, `meshCapacity`).
///
/// # Safety
/// - `data` points to `count` readable bytes (any alignment) for the duration of the
///   call.
/// - `gridId` points to one writable `m3VoxelGridId`, aligned for its type, for the
///   duration of the call (null is refused with `m3_errorArgument`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m3World_CreateVoxelGrid(
    worldId: m3WorldId,
    voxelSize: f32,
    origin: m3Vec3,
    data: *const u8,
    count: i32,
    gridId: *mut m3VoxelGridId,
) -> m3Result {
    api_on("m3World_CreateVoxelGrid", worldId, || {
        let o = out("gridId", gridId)?;
        let n = count_arg("count", count)?;
        // SAFETY: the host promises `count` bytes.
        let bytes = unsafe { slice("data", data, n) }?;
        let id = write(worldId, |e| {
            let g = e.world.create_voxel_grid(&engine::VoxelGridDef {
                voxel_size: voxelSize,
                data: bytes,
                origin: origin.into(),
            })?;
            Ok(m3VoxelGridId::from_core(g, e.id))
        })?;
        // SAFETY: checked non-null.
        unsafe { put(o, id) };
        Ok(())
    })
}

/// Destroys a voxel grid no shape uses any more, giving its bytes back.
#[unsafe(no_mangle)]
pub extern "C" fn m3VoxelGrid_Destroy(gridId: m3VoxelGridId) -> m3Result {
    api_on("m3VoxelGrid_Destroy", gridId.world, || {
        write(gridId.world, |e| {
            Ok(e.world.destroy_mesh(gridId.to_core(e.tag))?)
        })
    })
}

/// Creates a shape of a voxel grid of the same world on a static or kinematic body (its
/// type reads `m3_meshShape`). The shape's friction and restitution apply to every
/// material.
///
/// # Safety
/// - `def` points to one readable `m3ShapeDef`, aligned for its type, for the duration
///   of the call (null is refused with `m3_errorArgument`).
/// - `shapeId` points to one writable `m3ShapeId`, aligned for its type, for the
///   duration of the call (null is refused with `m3_errorArgument`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m3CreateVoxelShape(
    bodyId: m3BodyId,
    def: *const m3ShapeDef,
    gridId: m3VoxelGridId,
    shapeId: *mut m3ShapeId,
) -> m3Result {
    create_from_content(
        "m3CreateVoxelShape",
        bodyId,
        def,
        gridId,
        "gridId",
        shapeId,
        |w, b, d, tag| w.create_voxel_shape(b, d, gridId.to_core(tag)),
    )
}

/// Sets voxel `(x, y, z)` (each within [0, 15]) of a grid to `material` (0 empties it),
/// between steps: the grid's boxes are rebuilt, its contacts re-form next step and the
/// bodies touching it wake. Journaled.
#[unsafe(no_mangle)]
pub extern "C" fn m3VoxelGrid_SetVoxel(
    gridId: m3VoxelGridId,
    x: i32,
    y: i32,
    z: i32,
    material: u8,
) -> m3Result {
    api_on("m3VoxelGrid_SetVoxel", gridId.world, || {
        write(gridId.world, |e| {
            Ok(e.world
                .set_voxel(gridId.to_core(e.tag), [x, y, z], material)?)
        })
    })
}

/// Empties voxel `(x, y, z)`: `m3VoxelGrid_SetVoxel` with material 0.
#[unsafe(no_mangle)]
pub extern "C" fn m3VoxelGrid_ClearVoxel(
    gridId: m3VoxelGridId,
    x: i32,
    y: i32,
    z: i32,
) -> m3Result {
    api_on("m3VoxelGrid_ClearVoxel", gridId.world, || {
        write(gridId.world, |e| {
            Ok(e.world.clear_voxel(gridId.to_core(e.tag), [x, y, z])?)
        })
    })
}

/// Sets every voxel of the inclusive box `min..=max` to `material` (0 empties them);
/// refused as `m3VoxelGrid_SetVoxel`, and for a max below its min.
#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments)]
pub extern "C" fn m3VoxelGrid_FillVoxels(
    gridId: m3VoxelGridId,
    minX: i32,
    minY: i32,
    minZ: i32,
    maxX: i32,
    maxY: i32,
    maxZ: i32,
    material: u8,
) -> m3Result {
    api_on("m3VoxelGrid_FillVoxels", gridId.world, || {
        write(gridId.world, |e| {
            Ok(e.world.fill_voxels(
                gridId.to_core(e.tag),
                [minX, minY, minZ],
                [maxX, maxY, maxZ],
                material,
            )?)
        })
    })
}

/// Reads the material of voxel `(x, y, z)` of a grid.
///
/// # Safety
/// `material` points to one writable `u8`, aligned for its type, for the duration of
/// the call (null is refused with `m3_errorArgument`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m3VoxelGrid_GetVoxel(
    gridId: m3VoxelGridId,
    x: i32,
    y: i32,
    z: i32,
    material: *mut u8,
) -> m3Result {
    api_on("m3VoxelGrid_GetVoxel", gridId.world, || {
        let o = out("material", material)?;
        let v = read(gridId.world, |e| {
            Ok(e.world.voxel(gridId.to_core(e.tag), [x, y, z])?)
        })?;
        // SAFETY: checked non-null.
        unsafe { put(o, v) };
        Ok(())
    })
}

/// Runs a change of shape `id`.
fn set(
    name: &'static str,
    id: m3ShapeId,
    f: impl FnOnce(&mut World, ShapeId) -> engine::Result<()>,
) -> m3Result {
    api_on(name, id.world, || {
        non_null("shapeId", id)?;
        write(id.world, |e| Ok(f(&mut e.world, id.to_core(e.tag))?))
    })
}

/// Reads a property of shape `id` into `o`.
fn get<T, C>(
    name: &'static str,
    id: m3ShapeId,
    o: *mut C,
    f: impl FnOnce(&World, ShapeId, m3WorldId) -> engine::Result<T>,
    conv: impl FnOnce(T) -> C,
) -> m3Result {
    api_on(name, id.world, || {
        let o = out("output", o)?;
        non_null("shapeId", id)?;
        let v = read(id.world, |e| Ok(f(&e.world, id.to_core(e.tag), e.id)?))?;
        // SAFETY: checked non-null.
        unsafe { put(o, conv(v)) };
        Ok(())
    })
}

/// Destroys a shape (its body's mass is recomputed).
#[unsafe(no_mangle)]
pub extern "C" fn m3Shape_Destroy(shapeId: m3ShapeId) -> m3Result {
    set("m3Shape_Destroy", shapeId, |w, s| w.destroy_shape(s))
}

/// The shape's kind (`m3_*Shape`).
///
/// # Safety
/// `type` points to one writable `m3ShapeType`, aligned for its type, for the duration
/// of the call (null is refused with `m3_errorArgument`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m3Shape_GetType(shapeId: m3ShapeId, r#type: *mut m3ShapeType) -> m3Result {
    get(
        "m3Shape_GetType",
        shapeId,
        r#type,
        |w, s, _| w.shape_geometry(s),
        |g| match g {
            engine::ShapeGeometry::Sphere(_) => m3_sphereShape,
            engine::ShapeGeometry::Capsule(_) => m3_capsuleShape,
            engine::ShapeGeometry::Box(_) => m3_boxShape,
            engine::ShapeGeometry::Hull(_) => m3_hullShape,
            engine::ShapeGeometry::Cylinder(_) => m3_cylinderShape,
            engine::ShapeGeometry::Plane(_) => m3_planeShape,
            engine::ShapeGeometry::Mesh(_) => m3_meshShape,
            engine::ShapeGeometry::Ray(_) => m3_rayShape,
        },
    )
}

/// The body the shape is attached to.
///
/// # Safety
/// `bodyId` points to one writable `m3BodyId`, aligned for its type, for the duration
/// of the call (null is refused with `m3_errorArgument`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m3Shape_GetBody(shapeId: m3ShapeId, bodyId: *mut m3BodyId) -> m3Result {
    get(
        "m3Shape_GetBody",
        shapeId,
        bodyId,
        |w, s, wid| w.shape_body(s).map(|b| m3BodyId::from_core(b, wid)),
        |b| b,
    )
}

/// The shape's enlarged bounds (relative to the world origin).
///
/// # Safety
/// `bounds` points to one writable `m3DAABB`, aligned for its type, for the duration of
/// the call (null is refused with `m3_errorArgument`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m3Shape_GetFatAABB(shapeId: m3ShapeId, bounds: *mut m3DAABB) -> m3Result {
    get(
        "m3Shape_GetFatAABB",
        shapeId,
        bounds,
        |w, s, _| w.shape_fat_aabb(s),
        Into::into,
    )
}

/// The shape's host data.
///
/// # Safety
/// `userData` points to one writable `u64`, aligned for its type, for the duration of
/// the call (null is refused with `m3_errorArgument`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m3Shape_GetUserData(shapeId: m3ShapeId, userData: *mut u64) -> m3Result {
    get(
        "m3Shape_GetUserData",
        shapeId,
        userData,
        |w, s, _| w.shape_user_data(s),
        |v| v,
    )
}

/// Lets a sensor detect the sensor shapes it overlaps too (those with sensor events
/// enabled, filters allowing), from the next step on: their pairs come out of the sensor
/// events and `m3Shape_GetSensorOverlaps` like solid shapes' (Godot's area monitoring
/// areas). Off when a shape is created; an area still acts on solid shapes only.
/// `m3_errorState` for a shape that is no sensor. Journaled.
#[unsafe(no_mangle)]
pub extern "C" fn m3Shape_SetDetectsSensors(shapeId: m3ShapeId, detects: bool) -> m3Result {
    set("m3Shape_SetDetectsSensors", shapeId, |w, s| {
        w.set_sensor_detects_sensors(s, detects)
    })
}

/// Whether a sensor detects sensor shapes too.
///
/// # Safety
/// `detects` points to one writable `bool`, aligned for its type, for the duration of
/// the call (null is refused with `m3_errorArgument`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m3Shape_GetDetectsSensors(
    shapeId: m3ShapeId,
    detects: *mut bool,
) -> m3Result {
    get(
        "m3Shape_GetDetectsSensors",
        shapeId,
        detects,
        |w, s, _| w.sensor_detects_sensors(s),
        |v| v,
    )
}

/// Whether sensors detect this shape (for a sensor shape: sensors that detect sensors),
/// from the next step on (the def's `enableSensorEvents`; Box2D's
/// `b2Shape_EnableSensorEvents`). Journaled.
#[unsafe(no_mangle)]
pub extern "C" fn m3Shape_EnableSensorEvents(shapeId: m3ShapeId, enable: bool) -> m3Result {
    set("m3Shape_EnableSensorEvents", shapeId, |w, s| {
        w.set_shape_enable_sensor_events(s, enable)
    })
}

/// Whether sensors detect this shape.
///
/// # Safety
/// `enabled` points to one writable `bool`, aligned for its type, for the duration of
/// the call (null is refused with `m3_errorArgument`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m3Shape_AreSensorEventsEnabled(
    shapeId: m3ShapeId,
    enabled: *mut bool,
) -> m3Result {
    get(
        "m3Shape_AreSensorEventsEnabled",
        shapeId,
        enabled,
        |w, s, _| w.shape_sensor_events_enabled(s),
        |v| v,
    )
}

/// Makes a shape rough or not: its friction wins over a shape's that is not rough,
/// whatever the world's friction rule (the larger of two rough shapes'), as Godot's
/// `PhysicsMaterial.rough`. Off when a shape is created. Journaled.
#[unsafe(no_mangle)]
pub extern "C" fn m3Shape_SetRough(shapeId: m3ShapeId, rough: bool) -> m3Result {
    set("m3Shape_SetRough", shapeId, |w, s| {
        w.set_shape_rough(s, rough)
    })
}

/// Whether a shape is rough.
///
/// # Safety
/// `rough` points to one writable `bool`, aligned for its type, for the duration of the
/// call (null is refused with `m3_errorArgument`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m3Shape_IsRough(shapeId: m3ShapeId, rough: *mut bool) -> m3Result {
    get(
        "m3Shape_IsRough",
        shapeId,
        rough,
        |w, s, _| w.shape_rough(s),
        |v| v,
    )
}

/// Makes a shape absorbent or not: its restitution counts negative when a contact
/// combines the two (the clamped sum and the average subtract it; the result is never
/// below 0), as Godot's `PhysicsMaterial.absorbent`. Off when a shape is created.
/// Journaled.
#[unsafe(no_mangle)]
pub extern "C" fn m3Shape_SetAbsorbent(shapeId: m3ShapeId, absorbent: bool) -> m3Result {
    set("m3Shape_SetAbsorbent", shapeId, |w, s| {
        w.set_shape_absorbent(s, absorbent)
    })
}

/// Whether a shape is absorbent.
///
/// # Safety
/// `absorbent` points to one writable `bool`, aligned for its type, for the duration of
/// the call (null is refused with `m3_errorArgument`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m3Shape_IsAbsorbent(shapeId: m3ShapeId, absorbent: *mut bool) -> m3Result {
    get(
        "m3Shape_IsAbsorbent",
        shapeId,
        absorbent,
        |w, s, _| w.shape_absorbent(s),
        |v| v,
    )
}

/// Makes a triangle-mesh shape two-sided or not: a convex shape whose centroid lies
/// behind one of its triangles is pushed out through the back face (Godot's
/// `ConcavePolygonShape3D.backface_collision`); one-sided, what reaches a triangle from
/// behind is not held by it. Height fields, voxel grids and convex shapes ignore it. Off
/// when a shape is created. Journaled.
#[unsafe(no_mangle)]
pub extern "C" fn m3Shape_SetTwoSided(shapeId: m3ShapeId, twoSided: bool) -> m3Result {
    set("m3Shape_SetTwoSided", shapeId, |w, s| {
        w.set_shape_two_sided(s, twoSided)
    })
}

/// Whether a shape is two-sided.
///
/// # Safety
/// `twoSided` points to one writable `bool`, aligned for its type, for the duration of
/// the call (null is refused with `m3_errorArgument`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m3Shape_IsTwoSided(shapeId: m3ShapeId, twoSided: *mut bool) -> m3Result {
    get(
        "m3Shape_IsTwoSided",
        shapeId,
        twoSided,
        |w, s, _| w.shape_two_sided(s),
        |v| v,
    )
}

/// Sets friction.
#[unsafe(no_mangle)]
pub extern "C" fn m3Shape_SetFriction(shapeId: m3ShapeId, friction: f32) -> m3Result {
    set("m3Shape_SetFriction", shapeId, |w, s| {
        w.set_shape_friction(s, friction)
    })
}

/// Sets restitution.
#[unsafe(no_mangle)]
pub extern "C" fn m3Shape_SetRestitution(shapeId: m3ShapeId, restitution: f32) -> m3Result {
    set("m3Shape_SetRestitution", shapeId, |w, s| {
        w.set_shape_restitution(s, restitution)
    })
}

/// Sets rolling resistance.
#[unsafe(no_mangle)]
pub extern "C" fn m3Shape_SetRollingResistance(shapeId: m3ShapeId, value: f32) -> m3Result {
    set("m3Shape_SetRollingResistance", shapeId, |w, s| {
        w.set_shape_rolling_resistance(s, value)
    })
}

/// Sets density (the body's mass is recomputed).
#[unsafe(no_mangle)]
pub extern "C" fn m3Shape_SetDensity(shapeId: m3ShapeId, density: f32) -> m3Result {
    set("m3Shape_SetDensity", shapeId, |w, s| {
        w.set_shape_density(s, density)
    })
}

/// Sets the collision filter.
#[unsafe(no_mangle)]
pub extern "C" fn m3Shape_SetFilter(shapeId: m3ShapeId, filter: m3Filter) -> m3Result {
    set("m3Shape_SetFilter", shapeId, |w, s| {
        w.set_shape_filter(s, filter.into())
    })
}

/// Reads the shape's geometry if it is of the kind `want` names.
fn geometry<C>(
    name: &'static str,
    shapeId: m3ShapeId,
    o: *mut C,
    want: &'static str,
    pick: impl FnOnce(engine::ShapeGeometry) -> Option<C>,
) -> m3Result {
    api_on(name, shapeId.world, || {
        let o = out("output", o)?;
        non_null("shapeId", shapeId)?;
        let g = read(shapeId.world, |e| {
            Ok(e.world.shape_geometry(shapeId.to_core(e.tag))?)
        })?;
        let kind = g.kind();
        let Some(v) = pick(g) else {
            return Err(crate::refuse!(
                m3_errorArgument,
                "shape kind = {} ({kind:?}) is not a {want}",
                kind as u8
            ));
        };
        // SAFETY: checked non-null.
        unsafe { put(o, v) };
        Ok(())
    })
}

/// A sphere shape's geometry (`m3_errorArgument` for another kind).
///
/// # Safety
/// `sphere` points to one writable `m3Sphere`, aligned for its type, for the duration
/// of the call (null is refused with `m3_errorArgument`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m3Shape_GetSphere(shapeId: m3ShapeId, sphere: *mut m3Sphere) -> m3Result {
    geometry(
        "m3Shape_GetSphere",
        shapeId,
        sphere,
        "sphere",
        |g| match g {
            engine::ShapeGeometry::Sphere(s) => Some(s.into()),
            _ => None,
        },
    )
}

/// A capsule shape's geometry (`m3_errorArgument` for another kind).
///
/// # Safety
/// `capsule` points to one writable `m3Capsule`, aligned for its type, for the duration
/// of the call (null is refused with `m3_errorArgument`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m3Shape_GetCapsule(
    shapeId: m3ShapeId,
    capsule: *mut m3Capsule,
) -> m3Result {
    geometry(
        "m3Shape_GetCapsule",
        shapeId,
        capsule,
        "capsule",
        |g| match g {
            engine::ShapeGeometry::Capsule(c) => Some(c.into()),
            _ => None,
        },
    )
}

/// A box shape's geometry (`m3_errorArgument` for another kind).
///
/// # Safety
/// `box` points to one writable `m3Box`, aligned for its type, for the duration of the
/// call (null is refused with `m3_errorArgument`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m3Shape_GetBox(shapeId: m3ShapeId, r#box: *mut m3Box) -> m3Result {
    geometry("m3Shape_GetBox", shapeId, r#box, "box", |g| match g {
        engine::ShapeGeometry::Box(b) => Some(m3Box {
            halfExtents: b.half.into(),
            center: b.center.into(),
            rotation: b.rotation.into(),
        }),
        _ => None,
    })
}

/// A cylinder shape's geometry (`m3_errorArgument` for another kind).
///
/// # Safety
/// `cylinder` points to one writable `m3Cylinder`, aligned for its type, for the
/// duration of the call (null is refused with `m3_errorArgument`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m3Shape_GetCylinder(
    shapeId: m3ShapeId,
    cylinder: *mut m3Cylinder,
) -> m3Result {
    geometry(
        "m3Shape_GetCylinder",
        shapeId,
        cylinder,
        "cylinder",
        |g| match g {
            engine::ShapeGeometry::Cylinder(c) => Some(c.into()),
            _ => None,
        },
    )
}

/// A plane shape's geometry, its normal as stored (unit) (`m3_errorArgument` for another
/// kind).
///
/// # Safety
/// `plane` points to one writable `m3Plane`, aligned for its type, for the duration of
/// the call (null is refused with `m3_errorArgument`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m3Shape_GetPlane(shapeId: m3ShapeId, plane: *mut m3Plane) -> m3Result {
    geometry("m3Shape_GetPlane", shapeId, plane, "plane", |g| match g {
        engine::ShapeGeometry::Plane(p) => Some(p.into()),
        _ => None,
    })
}

/// A ray shape's geometry, its direction as stored (unit) (`m3_errorArgument` for another
/// kind).
///
/// # Safety
/// `ray` points to one writable `m3Ray`, aligned for its type, for the duration of the
/// call (null is refused with `m3_errorArgument`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m3Shape_GetRay(shapeId: m3ShapeId, ray: *mut m3Ray) -> m3Result {
    geometry("m3Shape_GetRay", shapeId, ray, "ray", |g| match g {
        engine::ShapeGeometry::Ray(r) => Some(r.into()),
        _ => None,
    })
}

/// The mesh or height field a mesh shape uses (`m3_errorArgument` for another kind).
///
/// # Safety
/// `meshId` points to one writable `m3MeshId`, aligned for its type, for the duration
/// of the call (null is refused with `m3_errorArgument`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m3Shape_GetMesh(shapeId: m3ShapeId, meshId: *mut m3MeshId) -> m3Result {
    get(
        "m3Shape_GetMesh",
        shapeId,
        meshId,
        |w, s, wid| w.shape_mesh(s).map(|m| m3MeshId::from_core(m, wid)),
        |m| m,
    )
}

/// The hull a hull shape uses (`m3_errorArgument` for another kind).
///
/// # Safety
/// `hullId` points to one writable `m3HullId`, aligned for its type, for the duration
/// of the call (null is refused with `m3_errorArgument`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m3Shape_GetHull(shapeId: m3ShapeId, hullId: *mut m3HullId) -> m3Result {
    get(
        "m3Shape_GetHull",
        shapeId,
        hullId,
        |w, s, wid| w.shape_hull(s).map(|h| m3HullId::from_core(h, wid)),
        |h| h,
    )
}

/// The voxel grid a voxel shape uses (`m3_errorArgument` for another kind, a mesh or
/// height-field shape included: `m3Shape_GetType` says `m3_meshShape` for all three).
///
/// # Safety
/// `gridId` points to one writable `m3VoxelGridId`, aligned for its type, for the
/// duration of the call (null is refused with `m3_errorArgument`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m3Shape_GetVoxelGrid(
    shapeId: m3ShapeId,
    gridId: *mut m3VoxelGridId,
) -> m3Result {
    get(
        "m3Shape_GetVoxelGrid",
        shapeId,
        gridId,
        |w, s, wid| {
            w.shape_voxel_grid(s)
                .map(|g| m3VoxelGridId::from_core(g, wid))
        },
        |g| g,
    )
}

/// A hull's input points (its content, as given to `m3World_CreateHull`): up to
/// `capacity` into `points`, and how many into `count`.
///
/// # Safety
/// - `points` points to `capacity` writable `m3Vec3` items, aligned, for the duration
///   of the call (they may be uninitialised; null only with `capacity` 0).
/// - `count` points to one writable `i32`, aligned for its type, for the duration of
///   the call (null is refused with `m3_errorArgument`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m3Hull_GetPoints(
    hullId: m3HullId,
    points: *mut m3Vec3,
    capacity: i32,
    count: *mut i32,
) -> m3Result {
    api_on("m3Hull_GetPoints", hullId.world, || {
        let o = out("count", count)?;
        let arr = OutArray::new("points", points, capacity)?;
        let n = read(hullId.world, |e| {
            let pts = e.world.hull_points(hullId.to_core(e.tag))?;
            for (i, p) in pts.iter().enumerate().take(arr.capacity()) {
                // SAFETY: within the host's capacity.
                unsafe { arr.set(i, (*p).into()) };
            }
            Ok(pts.len())
        })?;
        // SAFETY: checked non-null.
        unsafe { put(o, to_i32(n)) };
        Ok(())
    })
}
