//! The content pool's part of the state encoding: triangle meshes, height fields and
//! voxel grids.

use crate::codec::{Enc, Sink};
use crate::content::{MeshData, MeshSlot};

/// A mesh's, height field's or voxel grid's content.
fn encode_mesh_data<S: Sink>(e: &mut Enc<S>, data: &MeshData) {
    match data {
        MeshData::Mesh(m) => {
            e.u8(0);
            e.u32(m.vertices.len() as u32);
            for v in m.vertices.iter() {
                e.vec3(*v);
            }
            e.u32(m.triangles.len() as u32);
            for t in m.triangles.iter() {
                for &i in t {
                    e.u32(i);
                }
            }
        }
        MeshData::HeightField(h) => {
            e.u8(1);
            e.u32(h.count_x);
            e.u32(h.count_z);
            e.vec3(h.scale);
            for &y in h.heights.iter() {
                e.f32(y);
            }
            e.bool(!h.holes.is_empty());
            for &b in h.holes.iter() {
                e.u8(b);
            }
        }
        MeshData::Voxels(v) => {
            e.u8(2);
            e.f32(v.chunk().voxel_size());
            e.vec3(v.origin);
            e.0.put(v.chunk().content_bytes());
        }
    }
}

/// Every content slot (generation, alive; a live slot's content), then the free list.
/// Trees, edge flags and merged boxes are derived.
pub(super) fn encode_meshes<S: Sink>(e: &mut Enc<S>, meshes: &[MeshSlot], free: &[u32]) {
    e.u32(meshes.len() as u32);
    for m in meshes.iter() {
        e.u32(m.generation);
        match m.get() {
            Some(data) if m.alive => {
                e.bool(true);
                encode_mesh_data(e, data);
            }
            _ => e.bool(false),
        }
    }
    e.free_list(free);
}
