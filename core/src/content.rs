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
//!
//! Voxel grids are that third variant ([`MeshData::Voxels`]): they live in the mesh pool
//! (`mesh_capacity`, `MeshId`) and draw [`VoxelChunk::content_size_bytes`] from the content
//! budget each (the whole chunk with its box arrays, so an edit never allocates). Their
//! children are the chunk's merged boxes, in the chunk's scan order; a child collides as
//! a box shape. The voxel size, the origin and the materials are state; the boxes are
//! rebuilt from them at create, after every edit, at restore and at replay. An edit
//! destroys the child contacts of every pair on the grid (box indices change), marks the
//! grid's shapes enlarged so the children are found again next step, and wakes the bodies
//! on the other side. Materials select nothing yet: a voxel shape collides with its
//! shape's friction and restitution whatever the material.

use crate::alloc::FixedVec;
use crate::body::BodyType;
use crate::collide::distance::ShapeProxy;
use crate::collide::ray::{RayHit, RayInput};
use crate::error::{Error, Result};
use crate::geometry::height_field::{
    HeightField, HeightFieldDef, height_field_content_bytes, validate_height_field,
};
use crate::geometry::mesh::{TriMesh, Triangle, mesh_content_bytes, validate_mesh};
use crate::geometry::voxel::{CHUNK, VoxelChunk};
use crate::id::{BodyId, MeshId, ShapeId};
use crate::math::Transform;
use crate::math::{Aabb, Vec3};
use crate::shape::{ShapeDef, ShapeGeometry};
use crate::world::World;

/// The triangles of a mesh or a height field.
pub(crate) enum MeshData {
    /// A triangle mesh with its tree.
    Mesh(TriMesh),
    /// A height field.
    HeightField(HeightField),
    /// A voxel chunk placed in the shape frame.
    Voxels(VoxelGrid),
}

/// A voxel chunk and where its corner sits in the shape frame. The chunk (about 40 KiB)
/// is held in a one-element array from the world's allocator.
pub(crate) struct VoxelGrid {
    pub chunk: FixedVec<VoxelChunk>,
    /// Content: the chunk's corner (voxel (0, 0, 0)'s lower corner), shape frame.
    pub origin: Vec3,
}

impl VoxelGrid {
    pub(crate) fn build(
        size: f32,
        data: &[u8],
        origin: Vec3,
        alloc: crate::alloc::WorldAlloc,
    ) -> Result<Self> {
        let mut chunk = FixedVec::with_capacity(1, alloc, "content_capacity")?;
        let ok = chunk.push(VoxelChunk::new(size, data)?);
        debug_assert!(ok);
        Ok(VoxelGrid { chunk, origin })
    }

    #[inline]
    pub(crate) fn chunk(&self) -> &VoxelChunk {
        &self.chunk[0]
    }

    /// Box `i` as (half-extents, centre) in the shape frame.
    #[inline]
    pub(crate) fn box_of(&self, i: u32) -> Option<(Vec3, Vec3)> {
        let c = self.chunk();
        if i as usize >= c.boxes().len() {
            return None;
        }
        let b = c.box_bounds(i as u16);
        Some((
            (b.upper - b.lower) * 0.5,
            self.origin + (b.lower + b.upper) * 0.5,
        ))
    }

    /// The chunk's whole extent in the shape frame (fixed by content size, not by which
    /// voxels are solid, so an edit never moves a shape's bounds).
    fn extent(&self) -> Aabb {
        let e = CHUNK as f32 * self.chunk().voxel_size();
        Aabb::new(self.origin, self.origin + Vec3::new(e, e, e))
    }
}

/// Whether the point `q` (shape frame of a body's voxel shapes) lies in a solid voxel of
/// grid `own`, or, outside it, of another voxel grid on the same body (`first_shape`:
/// the body's shape list), so the chunks tiling one body read as one grid.
pub(crate) fn voxel_solid_at(
    meshes: &[MeshSlot],
    shapes: &[crate::shape::Shape],
    first_shape: u32,
    own: u32,
    q: Vec3,
) -> bool {
    let in_grid = |m: u32| -> Option<bool> {
        let Some(MeshData::Voxels(g)) = mesh_data(meshes, m) else {
            return None;
        };
        let local = q - g.origin;
        let e = CHUNK as f32 * g.chunk().voxel_size();
        let inside = (0..3).all(|i| local.get(i) >= 0.0 && local.get(i) < e);
        inside.then(|| g.chunk().solid_voxel_at(local).is_some())
    };
    if let Some(solid) = in_grid(own) {
        return solid;
    }
    let mut s = first_shape;
    while s != crate::body::NONE {
        let shape = &shapes[s as usize];
        if let ShapeGeometry::Mesh(m) = shape.geometry {
            if m != own {
                if let Some(solid) = in_grid(m) {
                    return solid;
                }
            }
        }
        s = shape.next_in_body;
    }
    false
}

/// One child of content: a triangle, or a merged voxel box.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Child {
    Triangle(Triangle),
    /// Half-extents and centre, shape frame (axis-aligned).
    Box {
        half: Vec3,
        center: Vec3,
    },
}

impl Child {
    /// Bounds in the shape frame.
    #[inline]
    pub(crate) fn aabb(&self) -> Aabb {
        match self {
            Child::Triangle(t) => t.aabb(),
            Child::Box { half, center } => Aabb::new(*center - *half, *center + *half),
        }
    }

    /// The child's corners (a triangle's three, a box's eight) for distance proxies.
    pub(crate) fn with_points<R>(&self, f: impl FnOnce(&[Vec3]) -> R) -> R {
        match self {
            Child::Triangle(t) => f(&t.v),
            Child::Box { half, center } => {
                let mut p = [Vec3::ZERO; 8];
                for (k, q) in p.iter_mut().enumerate() {
                    let s = |bit: usize| if k & bit != 0 { 1.0 } else { -1.0 };
                    *q = *center + Vec3::new(s(1) * half.x, s(2) * half.y, s(4) * half.z);
                }
                f(&p)
            }
        }
    }
}

impl MeshData {
    /// Triangle `i` in the shape's frame, or `None` (past the end, a hole).
    #[inline]
    pub(crate) fn triangle(&self, i: u32) -> Option<Triangle> {
        match self {
            MeshData::Mesh(m) => m.triangle(i),
            MeshData::HeightField(h) => h.triangle(i),
            MeshData::Voxels(_) => None,
        }
    }

    /// Child `i` in the shape's frame, or `None` (past the end, a hole).
    #[inline]
    pub(crate) fn child(&self, i: u32) -> Option<Child> {
        match self {
            MeshData::Voxels(v) => v
                .box_of(i)
                .map(|(half, center)| Child::Box { half, center }),
            _ => self.triangle(i).map(Child::Triangle),
        }
    }

    /// Child `i` of a two-sided shape as it collides with a convex shape whose centroid is
    /// at `c` (shape frame): a triangle-mesh triangle with `c` behind it comes back
    /// flipped (its back face, with the back face's active edges, as the front); `None`
    /// for anything else (used as it is: a height field is one-sided, voxels are solid).
    #[inline]
    pub(crate) fn two_sided_facing(&self, i: u32, child: Child, c: Vec3) -> Option<Child> {
        match (self, child) {
            (MeshData::Mesh(m), Child::Triangle(t)) if t.normal().dot(c - t.v[0]) < 0.0 => Some(
                Child::Triangle(t.flipped(m.back_active(i).unwrap_or(0b111))),
            ),
            _ => None,
        }
    }

    /// Calls `f(i)` for every triangle whose bounds overlap `aabb` (shape frame), in an
    /// order fixed by the content, until `f` returns false.
    #[inline]
    pub(crate) fn query(&self, aabb: &Aabb, f: impl FnMut(u32) -> bool) {
        match self {
            MeshData::Mesh(m) => m.query(aabb, f),
            MeshData::HeightField(h) => h.query(aabb, f),
            MeshData::Voxels(v) => {
                let mut f = f;
                let local = Aabb::new(aabb.lower - v.origin, aabb.upper - v.origin);
                let mut going = true;
                v.chunk().boxes_overlapping(&local, &mut |i, _| {
                    if going {
                        going = f(i as u32);
                    }
                });
            }
        }
    }

    /// The closest triangle along a ray (shape frame), with its index; with `front_only`,
    /// mesh and height-field triangles met from behind are passed through (voxels are
    /// solid: every face is a front face).
    pub(crate) fn ray_cast_sided(
        &self,
        input: &RayInput,
        front_only: bool,
    ) -> Option<(RayHit, u32)> {
        match self {
            MeshData::Mesh(m) => m.ray_cast_sided(input, front_only),
            MeshData::HeightField(h) => h.ray_cast_sided(input, front_only),
            MeshData::Voxels(v) => {
                let c = v.chunk();
                let hit = c.ray_cast(
                    &Transform::new(v.origin, crate::math::Quat::IDENTITY),
                    input,
                )?;
                let b = c.box_at(hit.voxel.map(|x| x as i32))?;
                Some((
                    RayHit {
                        fraction: hit.fraction,
                        point: hit.point,
                        normal: hit.normal,
                    },
                    b as u32,
                ))
            }
        }
    }

    /// Bounds of every triangle, shape frame.
    #[inline]
    pub(crate) fn bounds(&self) -> Aabb {
        match self {
            MeshData::Mesh(m) => m.bounds,
            MeshData::HeightField(h) => h.bounds,
            MeshData::Voxels(v) => v.extent(),
        }
    }

    /// Bytes taken from the content budget.
    pub(crate) fn content_bytes(&self) -> u64 {
        match self {
            MeshData::Mesh(m) => m.content_bytes(),
            MeshData::HeightField(h) => h.content_bytes(),
            MeshData::Voxels(_) => VoxelChunk::content_size_bytes() as u64,
        }
    }

    /// Triangle indices run below this (holes included).
    pub(crate) fn child_count(&self) -> u32 {
        match self {
            MeshData::Mesh(m) => m.triangles.len() as u32,
            MeshData::HeightField(h) => h.triangle_count(),
            MeshData::Voxels(v) => v.chunk().boxes().len() as u32,
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

/// A voxel grid: one chunk of 16³ voxels.
#[derive(Clone, Copy, Debug)]
pub struct VoxelGridDef<'a> {
    /// Edge of one voxel, metres, within [1e-3, 1e4].
    pub voxel_size: f32,
    /// 4096 materials (0 = empty), voxel `(x, y, z)` at `data[x + 16·y + 256·z]`.
    pub data: &'a [u8],
    /// The chunk's corner in the shape frame: voxel `(x, y, z)` spans
    /// `origin + [x, x+1)·size × …`. Chunks with different origins tile one body.
    pub origin: Vec3,
}

fn check_origin(o: Vec3) -> Result<()> {
    for (i, name) in ["origin.x", "origin.y", "origin.z"].into_iter().enumerate() {
        crate::error::check_range(name, o.get(i), -1.0e6, 1.0e6, "finite and within ±1e6 m")?;
    }
    Ok(())
}

impl World {
    pub(crate) fn mesh_slot(&self, id: MeshId) -> Result<usize> {
        self.content.meshes.live_slot("mesh", id.parts(), self.tag)
    }

    fn check_content_room(&self, bytes: u64) -> Result<()> {
        if self.content.meshes.free.is_empty() && self.content.meshes.is_full() {
            return Err(Error::Capacity {
                what: "mesh_capacity",
                capacity: self.def.mesh_capacity as u64,
            });
        }
        if bytes > self.def.content_capacity.saturating_sub(self.content.used) {
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
        let slot = self
            .content
            .meshes
            .take(
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
        self.content.used += bytes;
        self.content.meshes.count += 1;
        Ok(MeshId {
            index: slot + 1,
            generation: self.content.meshes[slot as usize].generation,
            world: self.tag,
        })
    }

    /// [`World::create_mesh`] without its record (the API layer, `crate::api`, records it).
    pub(crate) fn create_mesh_unrecorded(
        &mut self,
        vertices: &[Vec3],
        triangles: &[[u32; 3]],
    ) -> Result<MeshId> {
        validate_mesh(vertices, triangles)?;
        let bytes = mesh_content_bytes(vertices.len() as u64, triangles.len() as u64);
        self.check_content_room(bytes)?;
        let mesh = TriMesh::build(vertices, triangles, self.alloc)?;
        let id = self.insert_mesh(MeshData::Mesh(mesh))?;
        Ok(id)
    }

    /// [`World::create_height_field`] without its record (the API layer, `crate::api`, records it).
    pub(crate) fn create_height_field_unrecorded(
        &mut self,
        def: &HeightFieldDef,
    ) -> Result<MeshId> {
        validate_height_field(def)?;
        let any_hole = def.holes.iter().any(|&h| h);
        let bytes = height_field_content_bytes(def.count_x, def.count_z, any_hole);
        self.check_content_room(bytes)?;
        let hf = HeightField::build(def, self.alloc)?;
        let id = self.insert_mesh(MeshData::HeightField(hf))?;
        Ok(id)
    }

    /// [`World::create_voxel_grid`] without its record (the API layer, `crate::api`, records it).
    pub(crate) fn create_voxel_grid_unrecorded(&mut self, def: &VoxelGridDef) -> Result<MeshId> {
        check_origin(def.origin)?;
        // Validates size and data before anything is taken.
        crate::geometry::voxel::VoxelChunk::validate(def.voxel_size, def.data)?;
        self.check_content_room(VoxelChunk::content_size_bytes() as u64)?;
        let grid = VoxelGrid::build(def.voxel_size, def.data, def.origin, self.alloc)?;
        let id = self.insert_mesh(MeshData::Voxels(grid))?;
        Ok(id)
    }

    pub(crate) fn voxel_grid_slot(&self, id: MeshId) -> Result<usize> {
        let slot = self.mesh_slot(id)?;
        match self.content.meshes[slot].get() {
            Some(MeshData::Voxels(_)) => Ok(slot),
            _ => Err(Error::State(
                "the mesh id names a mesh or height field, not a voxel grid",
            )),
        }
    }

    fn voxel_grid_mut(&mut self, slot: usize) -> &mut VoxelChunk {
        match self.content.meshes[slot].data.as_mut() {
            Some(MeshData::Voxels(v)) => &mut v.chunk[0],
            _ => unreachable!("checked by voxel_grid_slot"),
        }
    }

    /// [`World::set_voxel`] without its record (the API layer, `crate::api`, records it).
    pub(crate) fn set_voxel_unrecorded(
        &mut self,
        grid: MeshId,
        voxel: [i32; 3],
        material: u8,
    ) -> Result<()> {
        let slot = self.voxel_grid_slot(grid)?;
        let chunk = self.voxel_grid_mut(slot);
        chunk.set(voxel, material)?;
        chunk.rebuild_boxes();
        self.voxel_grid_edited(slot as u32);
        Ok(())
    }

    /// [`World::fill_voxels`] without its record (the API layer, `crate::api`, records it).
    pub(crate) fn fill_voxels_unrecorded(
        &mut self,
        grid: MeshId,
        min: [i32; 3],
        max: [i32; 3],
        material: u8,
    ) -> Result<()> {
        let slot = self.voxel_grid_slot(grid)?;
        let chunk = self.voxel_grid_mut(slot);
        chunk.fill_box(min, max, material)?;
        chunk.rebuild_boxes();
        self.voxel_grid_edited(slot as u32);
        Ok(())
    }

    /// The material of one voxel of a grid.
    pub fn voxel(&self, grid: MeshId, voxel: [i32; 3]) -> Result<u8> {
        let slot = self.voxel_grid_slot(grid)?;
        match self.content.meshes[slot].get() {
            Some(MeshData::Voxels(v)) => v.chunk().get(voxel),
            _ => unreachable!("checked by voxel_grid_slot"),
        }
    }

    /// The merged boxes of a grid (voxel units, in child order), as rebuilt from content.
    pub fn voxel_boxes(&self, grid: MeshId) -> Result<&[crate::geometry::voxel::VoxelBox]> {
        let slot = self.voxel_grid_slot(grid)?;
        match self.content.meshes[slot].get() {
            Some(MeshData::Voxels(v)) => Ok(v.chunk().boxes()),
            _ => unreachable!("checked by voxel_grid_slot"),
        }
    }

    /// After an edit of grid `slot`: every pair on it (in contact slot order) loses its
    /// children, which end as contacts do (events included) and form again next step
    /// from the new boxes; the body on the other side wakes.
    fn voxel_grid_edited(&mut self, slot: u32) {
        let geometry = ShapeGeometry::Mesh(slot);
        for c in 0..self.contacts.len() {
            let contact = &self.contacts[c];
            if !contact.alive
                || contact.child != crate::body::NONE
                || self.shapes[contact.shape_a as usize].geometry != geometry
            {
                continue;
            }
            let other = contact.body_b;
            self.destroy_children_with_events(c as u32);
            self.wake_body(other);
        }
        for s in 0..self.shapes.len() {
            if self.shapes[s].alive && self.shapes[s].geometry == geometry {
                self.mark_enlarged(s as u32);
            }
        }
    }

    /// [`World::destroy_mesh`] without its record (the API layer, `crate::api`, records it).
    pub(crate) fn destroy_mesh_unrecorded(&mut self, id: MeshId) -> Result<()> {
        let slot = self.mesh_slot(id)?;
        if self.content.meshes[slot].ref_count > 0 {
            return Err(Error::State(
                "the mesh is used by shapes: destroy them first",
            ));
        }
        let bytes = self.content.meshes[slot]
            .get()
            .map_or(0, |d| d.content_bytes());
        let g = self.content.meshes[slot].generation;
        self.content.meshes[slot] = MeshSlot {
            generation: g,
            ..MeshSlot::default()
        };
        let ok = self.content.meshes.free.push(slot as u32);
        debug_assert!(ok);
        self.content.meshes.count -= 1;
        self.content.used -= bytes;
        Ok(())
    }

    /// [`World::create_mesh_shape`] without its record (the API layer, `crate::api`, records it).
    pub(crate) fn create_mesh_shape_unrecorded(
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
        self.content.used
    }

    /// All live meshes and height fields, in slot order.
    pub fn mesh_ids(&self) -> impl Iterator<Item = MeshId> + '_ {
        self.content
            .meshes
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
        Ok(self.content.meshes[slot]
            .get()
            .map_or(0, |d| d.child_count()))
    }

    /// The mesh or height field a mesh shape uses (an argument error for another kind:
    /// `shape_geometry` gives a mesh as its slot, which a host cannot name).
    pub fn shape_mesh(&self, shape: ShapeId) -> Result<MeshId> {
        let g = self.shape_geometry(shape)?;
        let ShapeGeometry::Mesh(m) = g else {
            return Err(Error::Argument {
                name: "shape kind",
                value: g.kind() as u8 as f64,
                expected: "a mesh, height-field or voxel shape",
            });
        };
        Ok(MeshId {
            index: m + 1,
            generation: self.content.meshes[m as usize].generation,
            world: self.tag,
        })
    }

    /// The voxel grid a voxel shape uses (an argument error for another kind, a mesh or
    /// height-field shape included).
    pub fn shape_voxel_grid(&self, shape: ShapeId) -> Result<MeshId> {
        let g = self.shape_geometry(shape)?;
        if let ShapeGeometry::Mesh(m) = g {
            if let Some(MeshData::Voxels(_)) = self.content.meshes[m as usize].get() {
                return self.shape_mesh(shape);
            }
        }
        Err(Error::Argument {
            name: "shape kind",
            value: g.kind() as u8 as f64,
            expected: "a voxel shape (mesh and height-field shapes share its kind)",
        })
    }

    /// Everything rebuilt from a mesh's content (tree nodes, triangle order, edge flags)
    /// as bytes, for tests that two worlds built the same tree. Empty for height fields.
    #[doc(hidden)]
    pub fn mesh_tree_bytes(&self, id: MeshId) -> Result<std::vec::Vec<u8>> {
        let slot = self.mesh_slot(id)?;
        let mut out = std::vec::Vec::new();
        if let Some(MeshData::Mesh(m)) = self.content.meshes[slot].get() {
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
            f(&crate::shape::shape_proxy_near(
                s,
                &self.content.hulls,
                near,
                reach,
            ));
            return;
        };
        let Some(data) = mesh_data(&self.content.meshes, m) else {
            return;
        };
        let body = &self.bodies[s.body as usize];
        let local = crate::geometry::bounds::bounds_in_frame(
            &Aabb::new(
                (bounds.lower - body.position).to_f32(),
                (bounds.upper - body.position).to_f32(),
            ),
            body.rotation,
        );
        data.query(&local, |i| {
            if let Some(c) = data.child(i) {
                c.with_points(|p| f(&ShapeProxy::from_points(p, 0.0)));
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
