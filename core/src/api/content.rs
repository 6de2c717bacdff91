//! The content calls that change a world: triangle meshes, height fields and voxel grids
//! created and destroyed, voxel edits, and the shapes that use them. Each checks and
//! applies through `content.rs`'s `*_unrecorded` function, then records itself
//! (`create_voxel_shape` and `clear_voxel` as the call they make).

use crate::content::VoxelGridDef;
use crate::error::Result;
use crate::geometry::height_field::HeightFieldDef;
#[cfg(doc)]
use crate::geometry::{mesh::mesh_content_bytes, voxel::VoxelChunk};
use crate::id::{BodyId, MeshId, ShapeId};
use crate::math::Vec3;
use crate::shape::ShapeDef;
use crate::world::World;

impl World {
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
        let id = self.create_mesh_unrecorded(vertices, triangles)?;
        self.rec(|j| j.create_mesh((vertices, triangles), id));
        Ok(id)
    }

    /// Creates a height field (see [`HeightFieldDef`]), shared like a mesh through its
    /// `MeshId`. Refused with an argument error for a side outside [2, 4096] samples,
    /// heights or holes of the wrong length, a height that is not finite or beyond ±1e6
    /// once scaled, or a scale outside (0, 1e6]; with a capacity error when the content
    /// budget or the mesh pool is full.
    pub fn create_height_field(&mut self, def: &HeightFieldDef) -> Result<MeshId> {
        let id = self.create_height_field_unrecorded(def)?;
        self.rec(|j| j.create_height_field(def, id));
        Ok(id)
    }

    /// Creates a voxel grid: one 16³ chunk of materials (see [`VoxelGridDef`]), shared like
    /// a mesh through its `MeshId` by voxel shapes on static or kinematic bodies. Many
    /// chunks tile one body by giving each its own `origin`.
    ///
    /// Refused with an argument error, changing nothing, for a voxel size outside
    /// [1e-3, 1e4] m, data that is not exactly 4096 bytes, or an origin that is not finite
    /// or beyond ±1e6; with a capacity error when the content budget (`content_capacity`,
    /// [`VoxelChunk::content_size_bytes`] per grid) or the mesh pool (`mesh_capacity`) is
    /// full. Its merged boxes are built here from the content alone.
    pub fn create_voxel_grid(&mut self, def: &VoxelGridDef) -> Result<MeshId> {
        let id = self.create_voxel_grid_unrecorded(def)?;
        self.rec(|j| j.create_voxel_grid(def, id));
        Ok(id)
    }

    /// Creates a shape of a voxel grid on a static or kinematic body (as
    /// [`create_mesh_shape`](Self::create_mesh_shape), which also accepts a grid).
    pub fn create_voxel_shape(
        &mut self,
        body: BodyId,
        def: &ShapeDef,
        grid: MeshId,
    ) -> Result<ShapeId> {
        self.voxel_grid_slot(grid)?;
        self.create_mesh_shape(body, def, grid)
    }

    /// Sets voxel `voxel` (each coordinate within [0, 15]) of a grid to `material`
    /// (0 empties it), between steps. Refused with an argument error naming the coordinate
    /// and the bound, changing nothing. The boxes are rebuilt at once; the grid's child
    /// contacts are destroyed (they form again next step) and the bodies touching the
    /// grid wake.
    pub fn set_voxel(&mut self, grid: MeshId, voxel: [i32; 3], material: u8) -> Result<()> {
        self.set_voxel_unrecorded(grid, voxel, material)?;
        self.rec(|j| j.set_voxel(grid, voxel, material));
        Ok(())
    }

    /// Empties one voxel: [`set_voxel`](Self::set_voxel) with material 0 (and journaled as
    /// that).
    pub fn clear_voxel(&mut self, grid: MeshId, voxel: [i32; 3]) -> Result<()> {
        self.set_voxel(grid, voxel, 0)
    }

    /// Sets every voxel of the inclusive box `min..=max` to `material` (0 empties them);
    /// refused as [`set_voxel`](Self::set_voxel), and for a `max` below its `min`.
    pub fn fill_voxels(
        &mut self,
        grid: MeshId,
        min: [i32; 3],
        max: [i32; 3],
        material: u8,
    ) -> Result<()> {
        self.fill_voxels_unrecorded(grid, min, max, material)?;
        self.rec(|j| j.fill_voxels(grid, min, max, material));
        Ok(())
    }

    /// Destroys a mesh or height field, giving its bytes back to the content budget;
    /// refused while shapes use it.
    pub fn destroy_mesh(&mut self, id: MeshId) -> Result<()> {
        self.destroy_mesh_unrecorded(id)?;
        self.rec(|j| j.destroy_mesh(id));
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
        let id = self.create_mesh_shape_unrecorded(body, def, mesh)?;
        self.record_shape(body, def, id);
        Ok(id)
    }
}
