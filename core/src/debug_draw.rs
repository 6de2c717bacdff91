//! Debug draw: the world described shape by shape, contact by contact, to a host's drawing
//! code. Host code, so it runs in the host's floating-point setting.

use crate::collide::ray_shape::RayShape;
use crate::contact::CONTACT_TOUCHING;
use crate::fp;
use crate::geometry::{Capsule, Cylinder, PlaneShape, Sphere};
use crate::id::{BodyId, JointId, ShapeId};
use crate::math::{DAabb, DVec3, Quat, Vec3};
use crate::shape::ShapeGeometry;
use crate::world::World;

/// A shape's geometry in its body's frame, for drawing.
#[derive(Clone, Copy, Debug)]
pub enum DebugGeometry<'a> {
    /// A sphere.
    Sphere(Sphere),
    /// A capsule.
    Capsule(Capsule),
    /// A box: half-extents, centre and rotation in the body frame.
    Box {
        /// Half-extents.
        half: Vec3,
        /// Centre.
        center: Vec3,
        /// Rotation.
        rotation: Quat,
    },
    /// A convex hull: its vertices, and its faces as loops of vertex indices
    /// (`face_starts[f]..face_starts[f + 1]` into `face_vertices`).
    Hull {
        /// Vertices.
        vertices: &'a [Vec3],
        /// Vertex indices of every face, face after face, counter-clockwise from outside.
        face_vertices: &'a [u8],
        /// Where each face starts in `face_vertices`, plus one end.
        face_starts: &'a [u16],
    },
    /// One triangle of a mesh or height field (vertices counter-clockwise seen from the
    /// front): such a shape is described by one `shape` call per triangle, in index order.
    /// (A voxel grid's shape is described by one `Box` call per merged box, in child order.)
    Triangle([Vec3; 3]),
    /// A cylinder (exact; it collides as a 32-sided prism except against planes).
    Cylinder(Cylinder),
    /// A plane: the half-space `normal · x <= offset` of the body frame is solid.
    Plane(PlaneShape),
    /// A ray shape: the segment from `origin` along the unit `direction`, `length` long,
    /// in the body frame.
    Ray(RayShape),
}

/// What to draw.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DebugDrawOptions {
    /// Every shape of every enabled body.
    pub shapes: bool,
    /// Touching contact points with their normals.
    pub contacts: bool,
    /// Shapes' enlarged bounds.
    pub bounds: bool,
    /// Joints: each body's joint frame.
    pub joints: bool,
}

impl Default for DebugDrawOptions {
    fn default() -> DebugDrawOptions {
        DebugDrawOptions {
            shapes: true,
            contacts: false,
            bounds: false,
            joints: false,
        }
    }
}

/// The host's drawing code. Every method has an empty default.
pub trait DebugDraw {
    /// A shape of a body placed at `position`/`rotation` (relative to the world origin).
    fn shape(
        &mut self,
        shape: ShapeId,
        body: BodyId,
        position: DVec3,
        rotation: Quat,
        geometry: &DebugGeometry,
        awake: bool,
    ) {
        let _ = (shape, body, position, rotation, geometry, awake);
    }
    /// A touching contact point, its normal (A to B), separation and normal impulse.
    fn contact(&mut self, point: DVec3, normal: Vec3, separation: f32, normal_impulse: f32) {
        let _ = (point, normal, separation, normal_impulse);
    }
    /// A shape's enlarged bounds.
    fn bounds(&mut self, shape: ShapeId, aabb: &DAabb) {
        let _ = (shape, aabb);
    }
    /// A joint: its frame on body A and on body B in the world (they coincide when the
    /// joint is satisfied), and whether it has broken.
    fn joint(
        &mut self,
        joint: JointId,
        frame_a: (DVec3, Quat),
        frame_b: (DVec3, Quat),
        broken: bool,
    ) {
        let _ = (joint, frame_a, frame_b, broken);
    }
}

impl World {
    /// Describes the world to `draw`: shapes, contacts and bounds as `options` asks.
    pub fn debug_draw(&self, options: &DebugDrawOptions, draw: &mut dyn DebugDraw) {
        let host = self.tasks.host_fp;
        if options.shapes || options.bounds {
            for (slot, shape) in self.shapes.iter().enumerate() {
                if !shape.alive {
                    continue;
                }
                let body = &self.bodies[shape.body as usize];
                if !body.enabled {
                    continue;
                }
                let (sid, bid) = (self.shape_id(slot as u32), self.body_id(shape.body));
                if options.shapes {
                    let mut face_vertices = [0u8; crate::geometry::hull::MAX_HULL_HALF_EDGES];
                    let mut face_starts = [0u16; crate::geometry::hull::MAX_HULL_FACES + 1];
                    if let ShapeGeometry::Mesh(m) = shape.geometry {
                        let Some(data) = crate::content::mesh_data(&self.content.meshes, m) else {
                            continue;
                        };
                        for i in 0..data.child_count() {
                            // A voxel grid draws each merged box, a mesh each triangle.
                            let geometry = match data.child(i) {
                                Some(crate::content::Child::Triangle(t)) => {
                                    DebugGeometry::Triangle(t.v)
                                }
                                Some(crate::content::Child::Box { half, center }) => {
                                    DebugGeometry::Box {
                                        half,
                                        center,
                                        rotation: crate::math::Quat::IDENTITY,
                                    }
                                }
                                None => continue,
                            };
                            fp::call_host(host, || {
                                draw.shape(
                                    sid,
                                    bid,
                                    body.position,
                                    body.rotation,
                                    &geometry,
                                    body.awake,
                                )
                            });
                        }
                        if options.bounds {
                            fp::call_host(host, || draw.bounds(sid, &shape.fat_aabb));
                        }
                        continue;
                    }
                    let geometry = match shape.geometry {
                        ShapeGeometry::Sphere(s) => DebugGeometry::Sphere(s),
                        ShapeGeometry::Capsule(c) => DebugGeometry::Capsule(c),
                        ShapeGeometry::Box(b) => DebugGeometry::Box {
                            half: b.half,
                            center: b.center,
                            rotation: b.rotation,
                        },
                        ShapeGeometry::Hull(h) => {
                            let v = self.content.hulls[h as usize].hull.view();
                            let mut n = 0;
                            for (f, &start) in v.face_edges.iter().enumerate() {
                                face_starts[f] = n as u16;
                                let mut e = start as usize;
                                loop {
                                    face_vertices[n] = v.edges[e].origin;
                                    n += 1;
                                    e = v.edges[e].next as usize;
                                    if e == start as usize || n >= face_vertices.len() {
                                        break;
                                    }
                                }
                            }
                            face_starts[v.face_edges.len()] = n as u16;
                            DebugGeometry::Hull {
                                vertices: v.vertices,
                                face_vertices: &face_vertices[..n],
                                face_starts: &face_starts[..v.face_edges.len() + 1],
                            }
                        }
                        ShapeGeometry::Mesh(_) => continue,
                        ShapeGeometry::Cylinder(c) => DebugGeometry::Cylinder(c),
                        ShapeGeometry::Plane(p) => DebugGeometry::Plane(p),
                        ShapeGeometry::Ray(r) => DebugGeometry::Ray(r),
                    };
                    fp::call_host(host, || {
                        draw.shape(
                            sid,
                            bid,
                            body.position,
                            body.rotation,
                            &geometry,
                            body.awake,
                        )
                    });
                }
                if options.bounds {
                    fp::call_host(host, || draw.bounds(sid, &shape.fat_aabb));
                }
            }
        }
        if options.contacts {
            for c in self.contacts.iter() {
                if !c.alive || c.flags & CONTACT_TOUCHING == 0 {
                    continue;
                }
                let a = &self.bodies[c.body_a as usize];
                let base = a.position + a.center_offset().to_f64();
                for p in &c.points[..c.point_count as usize] {
                    let point = base + p.anchor_a.to_f64();
                    fp::call_host(host, || {
                        draw.contact(point, c.normal, p.separation, p.normal_impulse)
                    });
                }
            }
        }
        if options.joints {
            for (slot, j) in self.joints.iter().enumerate() {
                if !j.alive {
                    continue;
                }
                let frame = |body: u32, f: &crate::math::Transform| {
                    let b = &self.bodies[body as usize];
                    (
                        b.position + b.rotation.rotate(f.p).to_f64(),
                        b.rotation * f.q,
                    )
                };
                let (fa, fb) = (frame(j.body_a, &j.frame_a), frame(j.body_b, &j.frame_b));
                let id = self.joint_id(slot as u32);
                fp::call_host(host, || draw.joint(id, fa, fb, j.broken));
            }
        }
    }
}
