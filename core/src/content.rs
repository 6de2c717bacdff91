//! Content: triangle meshes and height fields, shared by any number of shapes the way
//! hulls are, drawing their memory from the world's content budget
//! (`WorldDef::content_capacity`, bytes).
//!
//! What a mesh or height field was made from (vertices and triangles; heights, holes and
//! scale) is state: it is in the hash, the snapshot and the journal. What is rebuilt from
//! it (a mesh's tree, edge flags) is not: it is built at create, restore and replay from
//! the content alone, the same bits everywhere.
//!
//! Both kinds present their triangles the same way (a *child source*: triangle `i` by
//! index, every triangle under a box in a fixed order, the closest triangle along a ray),
//! so contacts, queries and continuous collision see them through one interface.
//!
//! Voxel chunks are meant to slot in as another variant whose children are merged boxes:
//! the parent/child contacts (`contact.rs`: `find_children`, `child_key`, the pair events
//! counted over children, destruction in slot order) take any child source as they are;
//! only the per-child manifold (`update_contact` calls `collide_triangle` for a triangle)
//! and the proxy of a child for casts (`for_each_proxy`) need a box case.

use crate::body::BodyType;
use crate::collide::distance::ShapeProxy;
use crate::collide::ray::{RayHit, RayInput};
use crate::error::{Error, Result};
use crate::geometry::height_field::{
    HeightField, HeightFieldDef, height_field_content_bytes, validate_height_field,
};
use crate::geometry::mesh::{TriMesh, Triangle, mesh_content_bytes, validate_mesh};
use crate::id::{BodyId, MeshId, ShapeId};
use crate::journal::{enc_mesh, kind};
use crate::math::{Aabb, Vec3};
use crate::shape::{ShapeDef, ShapeGeometry};
use crate::world::{World, alloc_slot};

/// The triangles of a mesh or a height field.
pub(crate) enum MeshData {
    /// A triangle mesh with its tree.
    Mesh(TriMesh),
    /// A height field.
    HeightField(HeightField),
}

impl MeshData {
    /// Triangle `i` in the shape's frame, or `None` (past the end, a hole).
    #[inline]
    pub(crate) fn triangle(&self, i: u32) -> Option<Triangle> {
        match self {
            MeshData::Mesh(m) => m.triangle(i),
            MeshData::HeightField(h) => h.triangle(i),
        }
    }

    /// Calls `f(i)` for every triangle whose bounds overlap `aabb` (shape frame), in an
    /// order fixed by the content, until `f` returns false.
    #[inline]
    pub(crate) fn query(&self, aabb: &Aabb, f: impl FnMut(u32) -> bool) {
        match self {
            MeshData::Mesh(m) => m.query(aabb, f),
            MeshData::HeightField(h) => h.query(aabb, f),
        }
    }

    /// The closest triangle along a ray (shape frame), with its index.
    #[inline]
    pub(crate) fn ray_cast(&self, input: &RayInput) -> Option<(RayHit, u32)> {
        match self {
            MeshData::Mesh(m) => m.ray_cast(input),
            MeshData::HeightField(h) => h.ray_cast(input),
        }
    }

    /// Bounds of every triangle, shape frame.
    #[inline]
    pub(crate) fn bounds(&self) -> Aabb {
        match self {
            MeshData::Mesh(m) => m.bounds,
            MeshData::HeightField(h) => h.bounds,
        }
    }

    /// Bytes taken from the content budget.
    pub(crate) fn content_bytes(&self) -> u64 {
        match self {
            MeshData::Mesh(m) => m.content_bytes(),
            MeshData::HeightField(h) => h.content_bytes(),
        }
    }

    /// Triangle indices run below this (holes included).
    pub(crate) fn child_count(&self) -> u32 {
        match self {
            MeshData::Mesh(m) => m.triangles.len() as u32,
            MeshData::HeightField(h) => h.triangle_count(),
        }
    }
}

/// A slot of the mesh pool (meshes and height fields share it and `MeshId`).
#[derive(Default)]
pub(crate) struct MeshSlot {
    pub generation: u32,
    pub alive: bool,
    /// Shapes using it (derived).
    pub ref_count: u32,
    /// Content, and what is rebuilt from it; `None` in a free slot.
    pub data: Option<MeshData>,
}

impl MeshSlot {
    /// The data of a live slot (every shape's slot is live).
    #[inline]
    pub(crate) fn get(&self) -> Option<&MeshData> {
        self.data.as_ref()
    }
}

/// The mesh data of slot `i`, if live.
#[inline]
pub(crate) fn mesh_data(meshes: &[MeshSlot], i: u32) -> Option<&MeshData> {
    meshes.get(i as usize).and_then(|m| m.get())
}

impl World {
    pub(crate) fn mesh_slot(&self, id: MeshId) -> Result<usize> {
        let bad = Error::InvalidId {
            what: "mesh",
            index: id.index,
            generation: id.generation,
        };
        let slot = id.slot().ok_or(bad)?;
        if id.world != self.tag || slot >= self.meshes.len() {
            return Err(bad);
        }
        let m = &self.meshes[slot];
        if !m.alive || m.generation != id.generation {
            return Err(bad);
        }
        Ok(slot)
    }

    fn check_content_room(&self, bytes: u64) -> Result<()> {
        if self.mesh_free.is_empty() && self.meshes.is_full() {
            return Err(Error::Capacity {
                what: "mesh_capacity",
                capacity: self.def.mesh_capacity as u64,
            });
        }
        if bytes > self.def.content_capacity.saturating_sub(self.content_used) {
            return Err(Error::Capacity {
                what: "content_capacity",
                capacity: self.def.content_capacity,
            });
        }
        Ok(())
    }

    fn insert_mesh(&mut self, data: MeshData) -> Result<MeshId> {
        let bytes = data.content_bytes();
        let mut data = Some(data);
        let slot = alloc_slot(
            &mut self.meshes,
            &mut self.mesh_free,
            |m| m.generation,
            |g| MeshSlot {
                generation: g.wrapping_add(1).max(1),
                alive: true,
                ref_count: 0,
                data: data.take(),
            },
        )
        .ok_or(Error::Capacity {
            what: "mesh_capacity",
            capacity: self.def.mesh_capacity as u64,
        })?;
        self.content_used += bytes;
        self.mesh_count += 1;
        Ok(MeshId {
            index: slot + 1,
            generation: self.meshes[slot as usize].generation,
            world: self.tag,
        })
    }

    /// Creates a triangle mesh from vertices (shape frame) and triangles (three vertex
    /// indices each, counter-clockwise seen from the front), to be shared by any number of
    /// mesh shapes on static or kinematic bodies.
    ///
    /// Refused with an argument error, changing nothing, for fewer than 3 or more than
    /// 2^24 vertices, no triangles or more than 2^24, a vertex that is not finite or beyond
    /// ±1e6, an index past the vertex count, or a degenerate triangle (its smallest height
    /// below 1e-6 of its longest edge); with a capacity error when the content budget
    /// (`content_capacity`, see [`mesh_content_bytes`]) or the mesh pool (`mesh_capacity`)
    /// is full. Its tree and edge flags are built here from the content alone.
    pub fn create_mesh(&mut self, vertices: &[Vec3], triangles: &[[u32; 3]]) -> Result<MeshId> {
        validate_mesh(vertices, triangles)?;
        let bytes = mesh_content_bytes(vertices.len() as u64, triangles.len() as u64);
        self.check_content_room(bytes)?;
        let mesh = TriMesh::build(vertices, triangles, self.alloc)?;
        let id = self.insert_mesh(MeshData::Mesh(mesh))?;
        self.rec(kind::CREATE_MESH, |e| {
            e.u32(vertices.len() as u32);
            for v in vertices {
                e.vec3(*v);
            }
            e.u32(triangles.len() as u32);
            for t in triangles {
                for &i in t {
                    e.u32(i);
                }
            }
            enc_mesh(e, id);
        });
        Ok(id)
    }

    /// Creates a height field (see [`HeightFieldDef`]), shared like a mesh through its
    /// `MeshId`. Refused with an argument error for a side outside [2, 4096] samples,
    /// heights or holes of the wrong length, a height that is not finite or beyond ±1e6
    /// once scaled, or a scale outside (0, 1e6]; with a capacity error when the content
    /// budget or the mesh pool is full.
    pub fn create_height_field(&mut self, def: &HeightFieldDef) -> Result<MeshId> {
        validate_height_field(def)?;
        let any_hole = def.holes.iter().any(|&h| h);
        let bytes = height_field_content_bytes(def.count_x, def.count_z, any_hole);
        self.check_content_room(bytes)?;
        let hf = HeightField::build(def, self.alloc)?;
        let id = self.insert_mesh(MeshData::HeightField(hf))?;
        self.rec(kind::CREATE_HEIGHT_FIELD, |e| {
            crate::journal::encode_height_field(e, def);
            enc_mesh(e, id);
        });
        Ok(id)
    }

    /// Destroys a mesh or height field, giving its bytes back to the content budget;
    /// refused while shapes use it.
    pub fn destroy_mesh(&mut self, id: MeshId) -> Result<()> {
        let slot = self.mesh_slot(id)?;
        if self.meshes[slot].ref_count > 0 {
            return Err(Error::State(
                "the mesh is used by shapes: destroy them first",
            ));
        }
        let bytes = self.meshes[slot].get().map_or(0, |d| d.content_bytes());
        let g = self.meshes[slot].generation;
        self.meshes[slot] = MeshSlot {
            generation: g,
            ..MeshSlot::default()
        };
        let ok = self.mesh_free.push(slot as u32);
        debug_assert!(ok);
        self.mesh_count -= 1;
        self.content_used -= bytes;
        self.rec(kind::DESTROY_MESH, |e| enc_mesh(e, id));
        Ok(())
    }

    /// Creates a shape of a mesh or height field on a static or kinematic body. It adds no
    /// mass. A dynamic body is refused (as in Jolt: a mesh has no volume to give it mass
    /// and inertia, and mesh-against-mesh contacts are not computed); so is turning a body
    /// with such a shape dynamic.
    pub fn create_mesh_shape(
        &mut self,
        body: BodyId,
        def: &ShapeDef,
        mesh: MeshId,
    ) -> Result<ShapeId> {
        let b = self.body_slot(body)?;
        let m = self.mesh_slot(mesh)?;
        if self.bodies[b].body_type == BodyType::Dynamic {
            return Err(Error::Argument {
                name: "body type of a mesh or height-field shape",
                value: BodyType::Dynamic as u8 as f64,
                expected: "static (0) or kinematic (1)",
            });
        }
        if def.is_sensor {
            return Err(Error::State("a mesh or height field cannot be a sensor"));
        }
        self.create_shape(body, def, ShapeGeometry::Mesh(m as u32))
    }

    /// Bytes of content (meshes and height fields) taken from `content_capacity`.
    pub fn content_usage(&self) -> u64 {
        self.content_used
    }

    /// All live meshes and height fields, in slot order.
    pub fn mesh_ids(&self) -> impl Iterator<Item = MeshId> + '_ {
        self.meshes
            .iter()
            .enumerate()
            .filter(|(_, m)| m.alive)
            .map(|(i, m)| MeshId {
                index: i as u32 + 1,
                generation: m.generation,
                world: self.tag,
            })
    }

    /// The number of triangles of a mesh or height field (holes counted).
    pub fn mesh_triangle_count(&self, id: MeshId) -> Result<u32> {
        let slot = self.mesh_slot(id)?;
        Ok(self.meshes[slot].get().map_or(0, |d| d.child_count()))
    }

    /// The mesh or height field a mesh shape uses (an argument error for another kind:
    /// `shape_geometry` gives a mesh as its slot, which a host cannot name).
    pub fn shape_mesh(&self, shape: ShapeId) -> Result<MeshId> {
        let g = self.shape_geometry(shape)?;
        let ShapeGeometry::Mesh(m) = g else {
            return Err(Error::Argument {
                name: "shape kind",
                value: g.kind() as u8 as f64,
                expected: "a mesh or height-field shape (8)",
            });
        };
        Ok(MeshId {
            index: m + 1,
            generation: self.meshes[m as usize].generation,
            world: self.tag,
        })
    }

    /// Everything rebuilt from a mesh's content (tree nodes, triangle order, edge flags)
    /// as bytes, for tests that two worlds built the same tree. Empty for height fields.
    #[doc(hidden)]
    pub fn mesh_tree_bytes(&self, id: MeshId) -> Result<std::vec::Vec<u8>> {
        let slot = self.mesh_slot(id)?;
        let mut out = std::vec::Vec::new();
        if let Some(MeshData::Mesh(m)) = self.meshes[slot].get() {
            m.tree_bytes(&mut out);
        }
        Ok(out)
    }

    /// Calls `f` with shape `s` as a point set for distance, casts and time of impact: the
    /// whole shape, or for a mesh each triangle whose bounds meet `bounds` (world), in the
    /// content's order.
    pub(crate) fn for_each_proxy(
        &self,
        s: &crate::shape::Shape,
        bounds: &crate::math::DAabb,
        mut f: impl FnMut(&ShapeProxy),
    ) {
        let ShapeGeometry::Mesh(m) = s.geometry else {
            // A plane is the slab of it near the region.
            let b = &self.bodies[s.body as usize];
            let (near, reach) = crate::shape::region_near(bounds, b.position, b.rotation);
            f(&crate::shape::shape_proxy_near(s, &self.hulls, near, reach));
            return;
        };
        let Some(data) = mesh_data(&self.meshes, m) else {
            return;
        };
        let body = &self.bodies[s.body as usize];
        let local = crate::contact::bounds_in_frame(
            &Aabb::new(
                (bounds.lower - body.position).to_f32(),
                (bounds.upper - body.position).to_f32(),
            ),
            body.rotation,
        );
        data.query(&local, |i| {
            if let Some(t) = data.triangle(i) {
                f(&ShapeProxy::from_points(&t.v, 0.0));
            }
            true
        });
    }

    /// Whether body `slot` holds a mesh or height-field shape.
    pub(crate) fn body_has_mesh(&self, slot: u32) -> bool {
        let mut s = self.bodies[slot as usize].shape_head;
        while s != crate::body::NONE {
            let shape = &self.shapes[s as usize];
            if matches!(shape.geometry, ShapeGeometry::Mesh(_)) {
                return true;
            }
            s = shape.next_in_body;
        }
        false
    }
}
