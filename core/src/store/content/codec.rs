//! The content store's part of the state encoding: convex hulls (their topology rebuilt
//! from the points), triangle meshes, height fields and voxel grids (encode, decode, and
//! their reference counts rebuilt after a restore).

use crate::alloc::{FixedVec, WorldAlloc};
use crate::codec::{Dec, Enc, Sink, check, decode_free_list, put_slot};
use crate::content::{MeshData, MeshSlot, VoxelGrid};
use crate::error::{Error, Result};
use crate::geometry::height_field::{
    HeightField, HeightFieldDef, height_field_content_bytes, validate_height_field,
};
use crate::geometry::hull::{Hull, MAX_HULL_POINTS};
use crate::geometry::mesh::{TriMesh, mesh_content_bytes, validate_mesh};
use crate::geometry::voxel::{CHUNK_VOXELS, VoxelChunk};
use crate::math::Vec3;
use crate::shape::HullSlot;

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
pub(crate) fn encode_meshes<S: Sink>(e: &mut Enc<S>, meshes: &[MeshSlot], free: &[u32]) {
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

/// Host-side buffers for content being read, grown once per restore.
#[derive(Default)]
struct Scratch {
    vertices: std::vec::Vec<Vec3>,
    triangles: std::vec::Vec<[u32; 3]>,
    heights: std::vec::Vec<f32>,
    holes: std::vec::Vec<bool>,
}

/// Bytes of `content_capacity` one live slot takes, and (on commit) its new content:
/// `None` when the slot keeps what it holds, as after a rollback.
type Decoded = (u64, Option<MeshData>);

/// Reads what `encode_meshes` wrote, validated as the create calls validate it, into the
/// pool (on commit); returns the slot count and the content bytes in use. Trees and edge
/// flags are rebuilt here (kept when the slot already holds the same content). Leaves in
/// `info` bit 0 for live slots.
pub(crate) fn decode_meshes(
    d: &mut Dec,
    commit: bool,
    meshes: &mut FixedVec<MeshSlot>,
    free: &mut FixedVec<u32>,
    info: &mut [u64],
    content_capacity: u64,
    alloc: WorldAlloc,
) -> Result<(usize, u64)> {
    let len = d.u32()? as usize;
    crate::error::check_fits("mesh_capacity", len as u64, info.len() as u64)?;
    let mut content_used = 0u64;
    let mut scratch = Scratch::default();
    for (i, word) in info[..len].iter_mut().enumerate() {
        let generation = d.u32()?;
        let alive = d.bool()?;
        let mut data = None;
        if alive {
            let bytes;
            (bytes, data) = match d.u8()? {
                0 => decode_tri_mesh(d, commit, meshes.get(i), generation, alloc, &mut scratch)?,
                1 => decode_height_field(d, commit, alloc, &mut scratch)?,
                2 => decode_voxels(d, commit, meshes.get_mut(i), generation, alloc)?,
                _ => return Err(Error::Format("unknown mesh kind")),
            };
            content_used += bytes;
            crate::error::check_fits("content_capacity", content_used, content_capacity)?;
            *word = 1;
        }
        if commit {
            if alive && data.is_none() {
                // Same content as the slot holds: keep what was built from it.
                meshes[i].ref_count = 0;
            } else {
                let slot = MeshSlot {
                    generation,
                    alive,
                    ref_count: 0,
                    data,
                };
                put_slot(meshes, i, slot);
            }
        }
    }
    decode_free_list(d, &mut info[..len], commit, free)?;
    if commit {
        meshes.truncate(len);
    }
    Ok((len, content_used))
}

fn decode_tri_mesh(
    d: &mut Dec,
    commit: bool,
    old: Option<&MeshSlot>,
    generation: u32,
    alloc: WorldAlloc,
    scratch: &mut Scratch,
) -> Result<Decoded> {
    let (verts, tris) = (&mut scratch.vertices, &mut scratch.triangles);
    crate::field::decode_mesh(d, verts, tris)?;
    validate_mesh(verts, tris).map_err(|_| Error::Format("mesh content invalid"))?;
    let bytes = mesh_content_bytes(verts.len() as u64, tris.len() as u64);
    let same = old.is_some_and(|m| {
        m.alive
            && m.generation == generation
            && matches!(m.get(), Some(MeshData::Mesh(old))
                if *old.vertices == **verts && *old.triangles == **tris)
    });
    let mut data = None;
    if commit && !same {
        data = Some(MeshData::Mesh(TriMesh::build(verts, tris, alloc)?));
    }
    Ok((bytes, data))
}

fn decode_height_field(
    d: &mut Dec,
    commit: bool,
    alloc: WorldAlloc,
    scratch: &mut Scratch,
) -> Result<Decoded> {
    let (count_x, count_z, scale) =
        crate::field::decode_height_field(d, &mut scratch.heights, &mut scratch.holes)?;
    let (heights, holes) = (&scratch.heights[..], &scratch.holes[..]);
    let def = HeightFieldDef {
        count_x,
        count_z,
        heights,
        holes,
        scale,
    };
    validate_height_field(&def).map_err(|_| Error::Format("height field content invalid"))?;
    let bytes = height_field_content_bytes(count_x, count_z, holes.iter().any(|&h| h));
    check(
        holes.is_empty() || holes.iter().any(|&h| h),
        "height field hole bits without a hole",
    )?;
    let mut data = None;
    if commit {
        data = Some(MeshData::HeightField(HeightField::build(&def, alloc)?));
    }
    Ok((bytes, data))
}

fn decode_voxels(
    d: &mut Dec,
    commit: bool,
    slot: Option<&mut MeshSlot>,
    generation: u32,
    alloc: WorldAlloc,
) -> Result<Decoded> {
    let size = d.f32()?;
    let origin = d.vec3()?;
    let voxels = d.take::<{ CHUNK_VOXELS }>()?;
    VoxelChunk::validate(size, &voxels).map_err(|_| Error::Format("voxel grid content invalid"))?;
    check(
        origin.x.abs() <= 1.0e6 && origin.y.abs() <= 1.0e6 && origin.z.abs() <= 1.0e6,
        "voxel grid origin beyond 1e6",
    )?;
    let bytes = VoxelChunk::content_size_bytes() as u64;
    if !commit {
        return Ok((bytes, None));
    }
    // A grid already in the slot is refilled in place (no allocation on rollback); the
    // boxes are rebuilt either way.
    if let Some(m) = slot {
        if let (true, Some(MeshData::Voxels(g))) = (m.alive, m.data.as_mut()) {
            g.origin = origin;
            g.chunk[0].reset(size, &voxels)?;
            // Kept: no new content, like an unchanged mesh.
            m.generation = generation;
            return Ok((bytes, None));
        }
    }
    let grid = VoxelGrid::build(size, &voxels, origin, alloc)?;
    Ok((bytes, Some(MeshData::Voxels(grid))))
}

/// Content reference counts from zero (the shapes count them); returns how many slots
/// live.
pub(crate) fn rebuild_meshes(meshes: &mut [MeshSlot]) -> u32 {
    for m in meshes.iter_mut() {
        m.ref_count = 0;
    }
    meshes.iter().filter(|m| m.alive).count() as u32
}

/// Every hull slot (generation, alive; a live hull's points), then the free list. The
/// topology is derived.
pub(crate) fn encode_hulls<S: Sink>(e: &mut Enc<S>, hulls: &[HullSlot], free: &[u32]) {
    e.u32(hulls.len() as u32);
    for h in hulls.iter() {
        e.u32(h.generation);
        e.bool(h.alive);
        if h.alive {
            e.u32(h.point_count);
            for p in &h.points[..h.point_count as usize] {
                e.vec3(*p);
            }
        }
    }
    e.free_list(free);
}

/// Reads what `encode_hulls` wrote into the pool (on commit); returns the slot count.
/// The topology is rebuilt here (and must build). Leaves in `info` bit 0 for live slots.
pub(crate) fn decode_hulls(
    d: &mut Dec,
    commit: bool,
    hulls: &mut FixedVec<HullSlot>,
    free: &mut FixedVec<u32>,
    info: &mut [u64],
) -> Result<usize> {
    let len = d.u32()? as usize;
    crate::error::check_fits("hull_capacity", len as u64, info.len() as u64)?;
    let mut scratch = Hull::default();
    for (i, word) in info[..len].iter_mut().enumerate() {
        let generation = d.u32()?;
        let alive = d.bool()?;
        let mut slot = HullSlot {
            generation,
            alive,
            ..HullSlot::default()
        };
        if alive {
            let n = d.u32()? as usize;
            check(
                (3..=MAX_HULL_POINTS).contains(&n),
                "hull point count out of range",
            )?;
            for p in &mut slot.points[..n] {
                *p = d.vec3()?;
            }
            slot.point_count = n as u32;
            let target = if commit { &mut slot.hull } else { &mut scratch };
            crate::geometry::quickhull::build_hull(&slot.points[..n], target)
                .map_err(|_| Error::Format("hull points do not build a hull"))?;
            *word = 1;
        }
        if commit {
            put_slot(hulls, i, slot);
        }
    }
    decode_free_list(d, &mut info[..len], commit, free)?;
    if commit {
        hulls.truncate(len);
    }
    Ok(len)
}

/// Hulls' reference counts from zero (the shapes count them); returns how many live.
pub(crate) fn rebuild_hulls(hulls: &mut [HullSlot]) -> u32 {
    for h in hulls.iter_mut() {
        h.ref_count = 0;
    }
    hulls.iter().filter(|h| h.alive).count() as u32
}
