//! The content store: convex hulls and meshes, height fields and voxel grids (content
//! shared by any number of shapes), and the bytes of `content_capacity` they take.

pub(crate) mod codec;

use crate::alloc::WorldAlloc;
use crate::content::MeshSlot;
use crate::error::Result;
use crate::id::HullId;
use crate::shape::HullSlot;
use crate::store::pool::{Pool, slotted};

slotted!(HullSlot, MeshSlot);

/// Hulls, meshes and the content budget in use.
pub(crate) struct ContentStore {
    pub(crate) hulls: Pool<HullSlot>,
    /// Meshes, height fields and voxel grids (content: state; trees: rebuilt).
    pub(crate) meshes: Pool<MeshSlot>,
    /// Bytes of `content_capacity` in use (derived from the content).
    pub(crate) used: u64,
}

impl ContentStore {
    pub(crate) fn new(hulls: usize, meshes: usize, alloc: WorldAlloc) -> Result<ContentStore> {
        Ok(ContentStore {
            hulls: Pool::new(hulls, alloc, "hull_capacity")?,
            meshes: Pool::new(meshes, alloc, "mesh_capacity")?,
            used: 0,
        })
    }

    /// The slot of a live hull, checked (see [`Pool::live_slot`]).
    pub(crate) fn hull_slot(&self, id: HullId, tag: u32) -> Result<usize> {
        self.hulls.live_slot("hull", id.parts(), tag)
    }

    pub(crate) fn memory_usage(&self) -> usize {
        self.hulls.memory_usage() + self.meshes.memory_usage() + self.used as usize
    }
}
