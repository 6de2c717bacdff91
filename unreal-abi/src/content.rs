//! Content: triangle meshes and height fields, shared by any number of mesh shapes
//! (`m3CreateMeshShape`) the way hulls are, drawing their bytes from the world's content
//! budget (`m3WorldDef.contentCapacity`, `meshCapacity` slots).
//!
//! The host's arrays are read in place for the call (the engine copies what it keeps):
//! `m3Vec3` is the engine's `Vec3` (three `f32`s, `#[repr(C)]`) and a triangle is three
//! consecutive `uint32_t` indices, so no scratch memory is taken.

use crate::boundary::{api_on, read, write};
use crate::types::*;

/// What a height field is made from (for `m3World_CreateHeightField`). Start from
/// `m3DefaultHeightFieldDef()`.
///
/// Sample `(x, z)` sits at `(x·scale.x, heights[z·countX + x]·scale.y, z·scale.z)` in the
/// shape's frame. Cell `(x, z)` spans samples `x..=x+1` by `z..=z+1` and is split along
/// the diagonal from `(x, z)` to `(x+1, z+1)` into triangle `2·(z·(countX − 1) + x)` (the
/// half towards −x, +z) and the next, both facing +y.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct m3HeightFieldDef {
    /// Samples along x (within [2, 4096]).
    pub countX: i32,
    /// Samples along z (within [2, 4096]).
    pub countZ: i32,
    /// `countX · countZ` heights, row by row: sample `(x, z)` is `heights[z·countX + x]`.
    pub heights: *const f32,
    /// How many `heights` holds (must be `countX · countZ`).
    pub heightCount: i32,
    /// Null with `holeCount` 0 (no holes), or one flag per cell, row by row: a hole has
    /// no triangles.
    pub holes: *const bool,
    /// 0, or `(countX − 1)·(countZ − 1)`.
    pub holeCount: i32,
    /// Sample spacing along x and z, and the factor applied to heights (each within
    /// (0, 1e6]).
    pub scale: m3Vec3,
}

fn default_height_field_def() -> m3HeightFieldDef {
    m3HeightFieldDef {
        countX: 0,
        countZ: 0,
        heights: core::ptr::null(),
        heightCount: 0,
        holes: core::ptr::null(),
        holeCount: 0,
        scale: m3Vec3 {
            x: 1.0,
            y: 1.0,
            z: 1.0,
        },
    }
}

/// The default height field def: no samples yet, no holes, scale 1.
#[unsafe(no_mangle)]
pub extern "C" fn m3DefaultHeightFieldDef() -> m3HeightFieldDef {
    crate::boundary::value(
        "m3DefaultHeightFieldDef",
        default_height_field_def(),
        default_height_field_def,
    )
}

/// Builds a triangle mesh from `vertexCount` vertices (shape frame) and `triangleCount`
/// triangles, three vertex indices each in `indices` (counter-clockwise seen from the
/// front), for any number of mesh shapes on static or kinematic bodies. Refused with
/// `m3_errorArgument`, changing nothing, for fewer than 3 or more than 2^24 vertices, no
/// triangles or more than 2^24, a vertex that is not finite or beyond ±1e6, an index past
/// the vertex count or a degenerate triangle; with `m3_errorCapacity` when the content
/// budget (`contentCapacity`: 12 bytes a vertex, 17 a triangle, 32 a tree node) or the
/// mesh pool (`meshCapacity`) is full.
///
/// # Safety
/// - `vertices` points to `vertexCount` readable `m3Vec3` items, aligned, for the
///   duration of the call (null only with `vertexCount` 0).
/// - `indices` points to `3 · triangleCount` readable `u32` items, aligned, for the
///   duration of the call (null only with `triangleCount` 0).
/// - `meshId` points to one writable `m3MeshId`, aligned for its type, for the duration
///   of the call (null is refused with `m3_errorArgument`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m3World_CreateMesh(
    worldId: m3WorldId,
    vertices: *const m3Vec3,
    vertexCount: i32,
    indices: *const u32,
    triangleCount: i32,
    meshId: *mut m3MeshId,
) -> m3Result {
    api_on("m3World_CreateMesh", worldId, || {
        let o = out("meshId", meshId)?;
        let nv = count_arg("vertexCount", vertexCount)?;
        let nt = count_arg("triangleCount", triangleCount)?;
        // SAFETY: the host promises `vertexCount` vertices; `m3Vec3` and `Vec3` are both
        // three `f32`s, `#[repr(C)]`.
        let v = unsafe { slice("vertices", vertices as *const engine::math::Vec3, nv) }?;
        // SAFETY: the host promises `3 · triangleCount` indices; `[u32; 3]` is three
        // `u32`s with `u32`'s alignment and no padding.
        let t = unsafe { slice("indices", indices as *const [u32; 3], nt) }?;
        let id = write(worldId, |e| {
            let m = e.world.create_mesh(v, t)?;
            Ok(m3MeshId::from_core(m, e.id))
        })?;
        // SAFETY: checked non-null.
        unsafe { put(o, id) };
        Ok(())
    })
}

/// Builds a height field (see `m3HeightFieldDef`), shared like a mesh through its
/// `m3MeshId`. Refused with `m3_errorArgument` for a side outside [2, 4096] samples,
/// heights or holes of the wrong count, a height that is not finite or beyond ±1e6 once
/// scaled, or a scale outside (0, 1e6]; with `m3_errorCapacity` when the content budget
/// (4 bytes a sample, 2 a cell, a bit a cell with holes) or the mesh pool is full.
///
/// # Safety
/// - `def` points to one readable `m3HeightFieldDef`, aligned for its type, for the
///   duration of the call (null is refused with `m3_errorArgument`).
/// - `meshId` points to one writable `m3MeshId`, aligned for its type, for the duration
///   of the call (null is refused with `m3_errorArgument`).
/// - `def->heights` points to `def->heightCount` readable `f32` items and `def->holes`
///   to `def->holeCount` flags, each 0 or 1 (null only with a count of 0), aligned, for
///   the duration of the call.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m3World_CreateHeightField(
    worldId: m3WorldId,
    def: *const m3HeightFieldDef,
    meshId: *mut m3MeshId,
) -> m3Result {
    api_on("m3World_CreateHeightField", worldId, || {
        let o = out("meshId", meshId)?;
        // SAFETY: the host passes a valid def or null.
        let d = unsafe { read_ptr("def", def) }?;
        let count_x = count_arg("countX", d.countX)?;
        let count_z = count_arg("countZ", d.countZ)?;
        let nh = count_arg("heightCount", d.heightCount)?;
        let nholes = count_arg("holeCount", d.holeCount)?;
        // SAFETY: the host promises `heightCount` heights.
        let heights = unsafe { slice("heights", d.heights, nh) }?;
        // SAFETY: the host promises `holeCount` flags.
        let holes = unsafe { slice("holes", d.holes, nholes) }?;
        let id = write(worldId, |e| {
            let m = e.world.create_height_field(&engine::HeightFieldDef {
                // Within i32, so within u32.
                count_x: count_x as u32,
                count_z: count_z as u32,
                heights,
                holes,
                scale: d.scale.into(),
            })?;
            Ok(m3MeshId::from_core(m, e.id))
        })?;
        // SAFETY: checked non-null.
        unsafe { put(o, id) };
        Ok(())
    })
}

/// Destroys a mesh or height field no shape uses any more (`m3_errorState` while one
/// does), giving its bytes back to the content budget.
#[unsafe(no_mangle)]
pub extern "C" fn m3World_DestroyMesh(meshId: m3MeshId) -> m3Result {
    api_on("m3World_DestroyMesh", meshId.world, || {
        write(meshId.world, |e| {
            Ok(e.world.destroy_mesh(meshId.to_core(e.tag))?)
        })
    })
}

/// The number of triangles of a mesh or height field (a height field's holes counted:
/// `2·(countX − 1)·(countZ − 1)`).
///
/// # Safety
/// `count` points to one writable `i32`, aligned for its type, for the duration of the
/// call (null is refused with `m3_errorArgument`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m3Mesh_GetTriangleCount(meshId: m3MeshId, count: *mut i32) -> m3Result {
    api_on("m3Mesh_GetTriangleCount", meshId.world, || {
        let o = out("count", count)?;
        let n = read(meshId.world, |e| {
            Ok(e.world.mesh_triangle_count(meshId.to_core(e.tag))?)
        })?;
        // SAFETY: checked non-null.
        unsafe { put(o, to_i32(n as usize)) };
        Ok(())
    })
}

/// The ids of the live meshes and height fields, in slot order, as `m3World_GetBodyIds`.
///
/// # Safety
/// - `ids` points to `capacity` writable `m3MeshId` items, aligned, for the duration of
///   the call (they may be uninitialised; null only with `capacity` 0).
/// - `count` points to one writable `i32`, aligned for its type, for the duration of
///   the call (null is refused with `m3_errorArgument`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m3World_GetMeshIds(
    worldId: m3WorldId,
    ids: *mut m3MeshId,
    capacity: i32,
    count: *mut i32,
) -> m3Result {
    api_on("m3World_GetMeshIds", worldId, || {
        let o = out("count", count)?;
        let arr = OutArray::new("ids", ids, capacity)?;
        let n = read(worldId, |e| {
            let mut n = 0;
            for id in e.world.mesh_ids() {
                // SAFETY: within the host's capacity.
                unsafe { arr.set(n, m3MeshId::from_core(id, e.id)) };
                n += 1;
            }
            Ok(n)
        })?;
        // SAFETY: checked non-null.
        unsafe { put(o, to_i32(n)) };
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{m3BodyDef, m3DefaultBodyDef, m3DefaultShapeDef, m3ShapeDef};

    fn new_world() -> m3WorldId {
        let def = crate::m3DefaultWorldDef();
        let mut id = m3WorldId::default();
        // SAFETY: valid pointers.
        let r = unsafe { crate::m3World_CreateVersioned(&def, crate::M3_ABI_VERSION, &mut id) };
        assert_eq!(r, m3Result::m3_success);
        id
    }

    #[test]
    fn a_mesh_read_in_place_is_the_one_the_engine_builds() {
        let w = new_world();
        let v = |x, z| m3Vec3 { x, y: 0.0, z };
        let vertices = [v(-1.0, -1.0), v(1.0, -1.0), v(1.0, 1.0), v(-1.0, 1.0)];
        let indices: [u32; 6] = [0, 2, 1, 0, 3, 2];
        let mut mesh = m3MeshId::default();
        // SAFETY: valid arrays of the counts given.
        let r =
            unsafe { m3World_CreateMesh(w, vertices.as_ptr(), 4, indices.as_ptr(), 2, &mut mesh) };
        assert_eq!(r, m3Result::m3_success);
        let mut n = 0;
        // SAFETY: valid pointer.
        assert_eq!(
            unsafe { m3Mesh_GetTriangleCount(mesh, &mut n) },
            m3Result::m3_success
        );
        assert_eq!(n, 2);
        let bd: m3BodyDef = m3DefaultBodyDef();
        let mut body = m3BodyId::default();
        // SAFETY: valid pointers.
        assert_eq!(
            unsafe { crate::m3Body_Create(w, &bd, &mut body) },
            m3Result::m3_success
        );
        let sd: m3ShapeDef = m3DefaultShapeDef();
        let mut shape = m3ShapeId::default();
        // SAFETY: valid pointers.
        let r = unsafe { crate::m3CreateMeshShape(body, &sd, mesh, &mut shape) };
        assert_eq!(r, m3Result::m3_success);
        let mut back = m3MeshId::default();
        // SAFETY: valid pointer.
        let r = unsafe { crate::m3Shape_GetMesh(shape, &mut back) };
        assert_eq!((r, back), (m3Result::m3_success, mesh));
        // A used mesh stays.
        assert_eq!(m3World_DestroyMesh(mesh), m3Result::m3_errorState);
        assert_eq!(crate::m3World_Destroy(w), m3Result::m3_success);
    }
}
