//! Shapes: Godot's shape resources (`shape_create`, `shape_set_data`) as geometry, the
//! core shape (and the hull or mesh made for it alone) that one makes on a body, and
//! shapes as query probes.

use godot::classes::physics_server_3d::ShapeType;
use godot::prelude::*;
use maul3d::math::{DVec3, Quat, Vec3};
use maul3d::math::{abs, max};
use maul3d::{
    BodyId, BodyType, BoxShape, Capsule, Cylinder, HullId, MeshId, PlaneShape, ShapeDef, ShapeId,
    Sphere, World,
};

use super::{Obj, Records};
use crate::conv::{SCALE_TOLERANCE, split_basis, v3, var_f32};
use crate::errors::{OrReport, report_create_error, site, warn_once};
use crate::mesh::{Concave, HeightMap, MeshContent};

/// A Godot shape resource.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Geometry {
    /// Not given data yet, or a kind the core does not have yet.
    None,
    Sphere(f32),
    Box(Vec3),
    /// Radius and total height (Godot's convention, along y).
    Capsule(f32, f32),
    Convex(Vec<Vec3>),
    /// Radius and total height (Godot's convention, along y).
    Cylinder(f32, f32),
    /// World boundary: unit normal and distance (Godot's `Plane`); below it is solid.
    Plane(Vec3, f32),
    /// Concave polygon: a core mesh per use.
    Concave(Concave),
    /// Height map: a core mesh per use.
    HeightMap(HeightMap),
    /// Separation ray: length and `slide_on_slope`. No core shape: the motion test
    /// (`body_test_motion`, so `move_and_slide`) takes the body's rays.
    SeparationRay(f32, bool),
}

pub(crate) struct GShape {
    pub ty: ShapeType,
    pub data: Variant,
    pub geometry: Geometry,
    pub margin: f32,
    pub bias: f32,
}

impl GShape {
    /// A ConcavePolygonShape3D without `backface_collision`: rays pass its back faces.
    pub fn is_one_sided_concave(&self) -> bool {
        matches!(&self.geometry, Geometry::Concave(c) if !c.backface_collision)
    }

    fn new(ty: ShapeType) -> GShape {
        GShape {
            ty,
            data: Variant::nil(),
            geometry: Geometry::None,
            margin: 0.04,
            bias: 0.0,
        }
    }
}

/// The feature a shape type still needs from the core, if any.
pub(crate) fn missing_shape_feature(ty: ShapeType) -> Option<&'static str> {
    match ty {
        ShapeType::SOFT_BODY => Some("soft bodies"),
        ShapeType::CUSTOM => Some("custom shapes"),
        _ => None,
    }
}

#[derive(Clone, PartialEq)]
pub(crate) struct ShapeSlot {
    pub shape: u64,
    pub transform: Transform3D,
    pub disabled: bool,
}

/// A body's friction and bounce as the core takes them: Godot passes
/// `PhysicsMaterial.computed_friction()` and `computed_bounce()`, negative for a rough or
/// absorbent material; the core holds the magnitude and the flag. Returns (friction,
/// rough, restitution, absorbent).
pub(crate) fn material(o: &Obj) -> (f32, bool, f32, bool) {
    let (f, b) = (o.friction, o.bounce);
    (abs(f), f < 0.0, abs(b), b < 0.0)
}

pub(super) fn shape_def(o: &Obj, rid: u64, index: usize) -> ShapeDef {
    let (friction, rough, restitution, absorbent) = material(o);
    ShapeDef {
        density: 1.0,
        friction,
        rough,
        restitution,
        absorbent,
        filter: o.filter(),
        is_sensor: o.is_area,
        enable_sensor_events: true,
        enable_pre_solve: !o.exceptions.is_empty(),
        // Not read back: a shape's object and index come from `Space::shape_owners`. The
        // value is the one earlier versions packed there (RID << 8 | index, which wrapped
        // at 256 shapes), kept so a Godot world's snapshots and hashes stay bit-identical.
        user_data: (rid << 8) | (index as u64 & 0xff),
        ..ShapeDef::default()
    }
}

/// A shape transform's linear part (the body's scale times the shape's own transform) as
/// the core's primitives can take it: a rotation, the length each of the shape's axes is
/// scaled to, and whether those axes stay perpendicular (no shear: a box stays a box).
struct Linear {
    rot: Quat,
    scale: Vector3,
    orthogonal: bool,
}

impl Linear {
    fn of(b: Basis) -> Linear {
        let [x, y, z] = b.to_cols();
        let (lx, ly, lz) = (x.length(), y.length(), z.length());
        let perpendicular =
            |u: Vector3, v: Vector3, lu: f32, lv: f32| u.dot(v).abs() <= SCALE_TOLERANCE * lu * lv;
        Linear {
            rot: split_basis(b).0,
            scale: Vector3::new(lx, ly, lz),
            orthogonal: perpendicular(x, y, lx, ly)
                && perpendicular(y, z, ly, lz)
                && perpendicular(z, x, lz, lx),
        }
    }

    /// Whether `a` and `b` are the same scale within float noise.
    fn same(a: f32, b: f32) -> bool {
        (a - b).abs() <= SCALE_TOLERANCE * max(a.abs(), b.abs())
    }

    fn is_uniform(&self) -> bool {
        let s = self.scale;
        self.orthogonal && Linear::same(s.x, s.y) && Linear::same(s.y, s.z)
    }
}

/// Warns once per shape kind that a non-uniform scale (or a shear) was approximated.
fn warn_scale(kind: &str, approximation: &str) {
    warn_once(
        &format!("non-uniform scale {kind}"),
        &format!(
            "a {kind} shape cannot take a non-uniform scale (the body's and the shape's scale together, or a shear); it is made {approximation}, as Jolt Physics does. Scale it uniformly and size the shape resource instead."
        ),
    );
}

impl Records {
    pub fn shape_create(&mut self, ty: ShapeType) -> Rid {
        let rid = self.new_rid();
        self.shapes.insert(rid.to_u64(), GShape::new(ty));
        rid
    }

    /// The enabled separation ray shapes of object `rid` as the core's motion test takes
    /// them (Godot's ray runs along the shape's +Z for `length`), in the body's frame,
    /// with their Godot shape indices.
    pub fn separation_rays(&self, rid: u64) -> (Vec<maul3d::SeparationRay>, Vec<i32>) {
        let (mut rays, mut indices) = (Vec::new(), Vec::new());
        let Some(o) = self.objs.get(&rid) else {
            return (rays, indices);
        };
        for (i, slot) in o.shapes.iter().enumerate() {
            let Some(Geometry::SeparationRay(length, slide)) =
                self.shapes.get(&slot.shape).map(|g| &g.geometry)
            else {
                continue;
            };
            if slot.disabled {
                continue;
            }
            let t = o.shape_transform(slot);
            // The basis's z column: the ray's direction and its scale.
            let z = v3(t.basis.col_c());
            let scale = z.length();
            if scale <= 0.0 || length.is_nan() || *length < 0.0 {
                continue;
            }
            rays.push(maul3d::SeparationRay {
                origin: v3(t.origin),
                direction: z * (1.0 / scale),
                length: *length * scale,
                slide_on_slope: *slide,
            });
            indices.push(i as i32);
        }
        (rays, indices)
    }

    pub fn shape_set_data(&mut self, shape: u64, data: Variant) {
        let Some(s) = self.shapes.get_mut(&shape) else {
            return;
        };
        let geometry = match s.ty {
            ShapeType::SPHERE => var_f32(&data).map_or(Geometry::None, Geometry::Sphere),
            ShapeType::BOX => data
                .try_to::<Vector3>()
                .map_or(Geometry::None, |h| Geometry::Box(v3(h))),
            ShapeType::CAPSULE => match data.try_to::<Dictionary<Variant, Variant>>() {
                Ok(d) => {
                    let r = d.get("radius").as_ref().and_then(var_f32);
                    let h = d.get("height").as_ref().and_then(var_f32);
                    match (r, h) {
                        (Some(r), Some(h)) => Geometry::Capsule(r, h),
                        _ => Geometry::None,
                    }
                }
                Err(_) => Geometry::None,
            },
            ShapeType::CYLINDER => match data.try_to::<Dictionary<Variant, Variant>>() {
                Ok(d) => {
                    let r = d.get("radius").as_ref().and_then(var_f32);
                    let h = d.get("height").as_ref().and_then(var_f32);
                    match (r, h) {
                        (Some(r), Some(h)) => Geometry::Cylinder(r, h),
                        _ => Geometry::None,
                    }
                }
                Err(_) => Geometry::None,
            },
            ShapeType::WORLD_BOUNDARY => data
                .try_to::<godot::builtin::Plane>()
                .map_or(Geometry::None, |p| Geometry::Plane(v3(p.normal), p.d)),
            ShapeType::CONVEX_POLYGON => data
                .try_to::<PackedVector3Array>()
                .map_or(Geometry::None, |p| {
                    Geometry::Convex(p.as_slice().iter().map(|v| v3(*v)).collect())
                }),
            ShapeType::CONCAVE_POLYGON => {
                Concave::from_data(&data).map_or(Geometry::None, Geometry::Concave)
            }
            ShapeType::HEIGHTMAP => {
                HeightMap::from_data(&data).map_or(Geometry::None, Geometry::HeightMap)
            }
            ShapeType::SEPARATION_RAY => match data.try_to::<Dictionary<Variant, Variant>>() {
                Ok(d) => {
                    let length = d.get("length").as_ref().and_then(var_f32);
                    let slide = d
                        .get("slide_on_slope")
                        .and_then(|v| v.try_to::<bool>().ok())
                        .unwrap_or(false);
                    length.map_or(Geometry::None, |l| Geometry::SeparationRay(l, slide))
                }
                Err(_) => Geometry::None,
            },
            ty => {
                if let Some(feature) = missing_shape_feature(ty) {
                    warn_once(
                        feature,
                        &format!(
                            "{feature} are not supported yet; such shapes collide with nothing"
                        ),
                    );
                }
                Geometry::None
            }
        };
        s.data = data;
        s.geometry = geometry;
        for u in self.shape_users_of(shape) {
            self.rebuild(u);
        }
    }
}

/// What one Godot shape made in the world: the core shape, and the hull or mesh made
/// for it alone.
#[derive(Default)]
pub(super) struct Made {
    pub shape: Option<ShapeId>,
    pub hull: Option<HullId>,
    pub mesh: Option<MeshId>,
}

/// Creates the core shape for one Godot shape at `transform` in its body.
pub(super) fn create_core_shape(
    w: &mut World,
    body: BodyId,
    def: &ShapeDef,
    gs: &GShape,
    transform: Transform3D,
) -> Made {
    super::growth::make_room(w, 0, 1, 0);
    let lin = Linear::of(transform.basis);
    let (rot, scale) = (lin.rot, lin.scale);
    let center = v3(transform.origin);
    let result = match &gs.geometry {
        Geometry::None => return Made::default(),
        // The ray along the shape's +Z for `length`, scaled as the motion test's rays
        // (`Records::separation_rays`, which motion tests keep taking: the core leaves a
        // body's own ray shapes out of its motion test).
        Geometry::SeparationRay(length, slide) => {
            let z = v3(transform.basis.col_c());
            let scale = z.length();
            if scale.is_nan() || scale <= 0.0 || length.is_nan() || *length < 0.0 {
                return Made::default();
            }
            w.create_ray_shape(
                body,
                def,
                &maul3d::RayShape {
                    origin: center,
                    direction: z * (1.0 / scale),
                    length: *length * scale,
                    slide_on_slope: *slide,
                },
            )
            .map(|s| (Some(s), None))
        }
        Geometry::Concave(c) => {
            // `backface_collision`: the core's two-sided mesh (its triangles push a body
            // out through whichever face its centre is on), as Godot Physics and Jolt.
            let def = ShapeDef {
                two_sided: c.backface_collision,
                ..*def
            };
            return create_mesh_shape(w, body, &def, "concave polygon", || c.content(transform));
        }
        Geometry::HeightMap(h) => {
            return create_mesh_shape(w, body, def, "height map", || h.content(transform));
        }
        Geometry::Sphere(r) => {
            let s = if lin.is_uniform() {
                scale.x
            } else {
                warn_scale("sphere", "a sphere of the mean of its three scales");
                (scale.x + scale.y + scale.z) / 3.0
            };
            w.create_sphere_shape(
                body,
                def,
                &Sphere {
                    center,
                    radius: r * s,
                },
            )
            .map(|s| (Some(s), None))
        }
        Geometry::Box(h) if lin.orthogonal => w
            .create_offset_box_shape(
                body,
                def,
                Vec3::new(h.x * scale.x, h.y * scale.y, h.z * scale.z),
                center,
                rot,
            )
            .map(|s| (Some(s), None)),
        Geometry::Box(h) => {
            // Sheared (a non-uniform body scale over a turned box): the exact solid is
            // the hull of the box's corners under the transform.
            let mut corners = Vec::with_capacity(8);
            for i in 0..8 {
                let sign = |bit: i32| if i & bit == 0 { -1.0 } else { 1.0 };
                let c = Vector3::new(sign(1) * h.x, sign(2) * h.y, sign(4) * h.z);
                corners.push(v3(transform * c));
            }
            create_hull_shape(w, body, def, &corners)
        }
        Geometry::Capsule(r, h) => {
            let s = if lin.is_uniform() {
                scale.x
            } else {
                warn_scale("capsule", "a capsule of the mean of its three scales");
                (scale.x + scale.y + scale.z) / 3.0
            };
            let r = r * s;
            let half = max(h * 0.5 * s - r, 0.0);
            let axis = rot.rotate(Vec3::new(0.0, half, 0.0));
            w.create_capsule_shape(
                body,
                def,
                &Capsule {
                    center1: center - axis,
                    center2: center + axis,
                    radius: r,
                },
            )
            .map(|s| (Some(s), None))
        }
        Geometry::Cylinder(r, h) => {
            let s = if lin.orthogonal && Linear::same(scale.x, scale.z) {
                scale.x
            } else {
                warn_scale(
                    "cylinder",
                    "a cylinder of its height's scale and the mean of its two radial scales",
                );
                (scale.x + scale.z) * 0.5
            };
            w.create_cylinder_shape(
                body,
                def,
                &Cylinder {
                    center,
                    rotation: rot,
                    half_height: h * 0.5 * scale.y,
                    radius: r * s,
                },
            )
            .map(|s| (Some(s), None))
        }
        Geometry::Plane(n, d) => {
            let rotation_only = lin.is_uniform() && Linear::same(scale.x, 1.0);
            // Under a scale the plane n·x = d keeps its point n d (to L n d + c) and its
            // normal goes to L⁻ᵀ n; under a rotation R that is R n and d + (R n)·c.
            let scaled = (!rotation_only)
                .then(|| v3(transform.basis.inverse().transposed() * crate::conv::gv(*n)))
                .filter(|m| m.length() > 0.0 && m.length().is_finite());
            let (normal, offset) = match scaled {
                Some(m) => {
                    let normal = m * (1.0 / m.length());
                    let point = v3(transform * crate::conv::gv(*n * *d));
                    (normal, normal.dot(point))
                }
                None => {
                    let normal = rot.rotate(*n);
                    (normal, d + normal.dot(center))
                }
            };
            w.create_plane_shape(body, def, &PlaneShape { normal, offset })
                .map(|s| (Some(s), None))
        }
        Geometry::Convex(points) => {
            // Any scale, shear or mirror: the points under the whole transform.
            let pts: Vec<Vec3> = points
                .iter()
                .map(|p| v3(transform * crate::conv::gv(*p)))
                .collect();
            create_hull_shape(w, body, def, &pts)
        }
    };
    match result {
        Ok((shape, hull)) => Made {
            shape,
            hull,
            mesh: None,
        },
        Err(e) => {
            report_create_error("shape", &e);
            Made::default()
        }
    }
}

/// A hull of `points` (in the body's frame) of its own and a hull shape of it on `body`.
fn create_hull_shape(
    w: &mut World,
    body: BodyId,
    def: &ShapeDef,
    points: &[Vec3],
) -> maul3d::Result<(Option<ShapeId>, Option<HullId>)> {
    let h = w.create_hull(points)?;
    match w.create_hull_shape(body, def, h) {
        Ok(s) => Ok((Some(s), Some(h))),
        Err(e) => {
            w.destroy_hull(h)
                .or_report(site!("a convex polygon shape refused (destroy_hull)"));
            Err(e)
        }
    }
}

/// A concave polygon or height map as a mesh of its own and a mesh shape on `body`.
/// Static and kinematic bodies only, as in the core (and as Godot means these shapes).
fn create_mesh_shape(
    w: &mut World,
    body: BodyId,
    def: &ShapeDef,
    what: &str,
    content: impl FnOnce() -> MeshContent,
) -> Made {
    if def.is_sensor {
        warn_once(
            "mesh area",
            "concave polygon and height map shapes on areas detect nothing (the core's sensors are convex)",
        );
        return Made::default();
    }
    if w.body_type(body).is_ok_and(|t| t == BodyType::Dynamic) {
        warn_once(
            "mesh rigid",
            "concave polygon and height map shapes on rigid bodies collide with nothing: Maul3D takes them on static and kinematic bodies only (a surface has no volume to give mass)",
        );
        return Made::default();
    }
    let m = content();
    if m.degenerate > 0 {
        warn_once(
            &format!("{what} degenerate"),
            &format!(
                "a {what} shape has {} degenerate triangle(s) (no area); they are left out",
                m.degenerate
            ),
        );
    }
    if m.triangles.is_empty() {
        return Made::default();
    }
    let mesh = match w.create_mesh(&m.vertices, &m.triangles) {
        Ok(mesh) => mesh,
        Err(e) => {
            report_create_error("shape", &e);
            return Made::default();
        }
    };
    match w.create_mesh_shape(body, def, mesh) {
        Ok(shape) => Made {
            shape: Some(shape),
            hull: None,
            mesh: Some(mesh),
        },
        Err(e) => {
            w.destroy_mesh(mesh).or_report(site!(
                "a concave or height map shape refused (destroy_mesh)"
            ));
            report_create_error("shape", &e);
            Made::default()
        }
    }
}

pub(crate) const EMPTY_PAIR: maul3d::ContactPointPair = maul3d::ContactPointPair {
    point_on_query: DVec3::ZERO,
    point_on_other: DVec3::ZERO,
    normal: Vec3::ZERO,
    depth: 0.0,
    shape: ShapeId::NULL,
    body: BodyId::NULL,
    velocity: Vec3::ZERO,
};

/// A Godot shape resource as a query probe: a core query shape, or a hull of its own (a
/// convex polygon) that the query borrows.
pub enum Probe {
    /// A concave polygon or height map: each triangle a flat hull.
    Pieces(Vec<maul3d::QueryHull>),
    /// Spheres, boxes, capsules, cylinders.
    Shape(maul3d::QueryShape<'static>),
    /// A convex polygon: a hull outside the world (no world state changes).
    Hull(Box<maul3d::QueryHull>),
}

impl Probe {
    /// The core's query shape.
    pub fn shape(&self) -> maul3d::QueryShape<'_> {
        match self {
            Probe::Shape(s) => *s,
            Probe::Hull(h) => maul3d::QueryShape::Convex(h),
            Probe::Pieces(p) => maul3d::QueryShape::Pieces(p),
        }
    }
}

/// A concave probe (Godot Physics collides a concave query shape triangle by triangle
/// with what it touches): its triangles as flat hulls; degenerate ones are left out.
fn pieces_probe(m: MeshContent) -> Option<(Probe, Quat)> {
    let pieces: Vec<maul3d::QueryHull> = m
        .triangles
        .iter()
        .filter_map(|t| {
            let p = t.map(|i| m.vertices[i as usize]);
            maul3d::QueryHull::new(&p).ok()
        })
        .take(65_536)
        .collect();
    (!pieces.is_empty()).then_some((Probe::Pieces(pieces), Quat::IDENTITY))
}

impl Records {
    /// A Godot shape resource as a query probe under the linear part `basis` of the
    /// query's transform (every kind but world boundaries, which are half-spaces), with
    /// the rotation to place it at. The basis's scale is baked into the probe as a body's
    /// scale is into its shapes (Godot Physics and Jolt scale a query shape so).
    pub fn query_probe(&self, shape: u64, basis: Basis) -> Option<(Probe, Quat)> {
        use maul3d::QueryShape;
        let gs = self.shapes.get(&shape)?;
        let lin = Linear::of(basis);
        let (rot, scale) = (lin.rot, lin.scale);
        // Kinds without a rotation of their own: the whole linear part in their points.
        let whole = Transform3D::new(basis, Vector3::ZERO);
        let probe = match &gs.geometry {
            Geometry::Sphere(r) => {
                let s = if lin.is_uniform() {
                    scale.x
                } else {
                    warn_scale("sphere", "a sphere of the mean of its three scales");
                    (scale.x + scale.y + scale.z) / 3.0
                };
                QueryShape::Sphere(Sphere {
                    center: Vec3::ZERO,
                    radius: r * s,
                })
            }
            Geometry::Box(h) if lin.orthogonal => QueryShape::Box(BoxShape {
                half: Vec3::new(h.x * scale.x, h.y * scale.y, h.z * scale.z),
                center: Vec3::ZERO,
                rotation: Quat::IDENTITY,
            }),
            Geometry::Box(h) => {
                // Sheared: the hull of the box's corners under the basis.
                let corners: Vec<Vec3> = (0..8)
                    .map(|i| {
                        let sign = |bit: i32| if i & bit == 0 { -1.0 } else { 1.0 };
                        v3(basis * Vector3::new(sign(1) * h.x, sign(2) * h.y, sign(4) * h.z))
                    })
                    .collect();
                return hull_probe(&corners);
            }
            Geometry::Capsule(r, h) => {
                let s = if lin.is_uniform() {
                    scale.x
                } else {
                    warn_scale("capsule", "a capsule of the mean of its three scales");
                    (scale.x + scale.y + scale.z) / 3.0
                };
                let (r, h) = (r * s, h * s);
                let half = max(h * 0.5 - r, 0.0);
                QueryShape::Capsule(Capsule {
                    center1: Vec3::new(0.0, -half, 0.0),
                    center2: Vec3::new(0.0, half, 0.0),
                    radius: r,
                })
            }
            Geometry::Cylinder(r, h) => {
                let s = if lin.orthogonal && Linear::same(scale.x, scale.z) {
                    scale.x
                } else {
                    warn_scale(
                        "cylinder",
                        "a cylinder of its height's scale and the mean of its two radial scales",
                    );
                    (scale.x + scale.z) * 0.5
                };
                QueryShape::Cylinder(Cylinder {
                    center: Vec3::ZERO,
                    rotation: Quat::IDENTITY,
                    half_height: h * 0.5 * scale.y,
                    radius: r * s,
                })
            }
            Geometry::Plane(..) => {
                warn_once(
                    "plane query",
                    "world boundary shapes cannot be query shapes (a half-space); the query finds nothing",
                );
                return None;
            }
            Geometry::Concave(c) => return pieces_probe(c.content(whole)),
            Geometry::HeightMap(h) => return pieces_probe(h.content(whole)),
            Geometry::Convex(points) => {
                let pts: Vec<Vec3> = points
                    .iter()
                    .map(|p| v3(basis * crate::conv::gv(*p)))
                    .collect();
                return hull_probe(&pts);
            }
            Geometry::None | Geometry::SeparationRay(..) => return None,
        };
        Some((Probe::Shape(probe), rot))
    }
}

/// A hull probe of points already under the query's whole linear part (placed unturned).
fn hull_probe(points: &[Vec3]) -> Option<(Probe, Quat)> {
    match maul3d::QueryHull::new(points) {
        Ok(h) => Some((Probe::Hull(Box::new(h)), Quat::IDENTITY)),
        Err(e) => {
            report_create_error("query shape", &e);
            None
        }
    }
}
