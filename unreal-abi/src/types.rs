//! Plain C types: results, ids, vectors, and their conversions to the engine's.
//!
//! Enumerations that hosts write into defs are `int32_t` typedefs with named constants,
//! not C enums: a Rust enum read from a value outside its variants would be undefined
//! behaviour, an integer is checked and refused with `m3_errorArgument`.

use crate::boundary::Refusal;
use engine::math::{DAabb, DVec3, Mat3, Quat, Transform, Vec3};

/// What a call did: `m3_success`, or why it was refused (nothing changed).
/// `m3GetLastErrorMessage` names the value and the bound.
///
/// One rule for numbers: a non-finite input (NaN, +/-infinity) is always
/// `m3_errorArgument`, whatever it stands for, positions and shifts included;
/// `m3_errorOutOfBounds` is only for a finite position, point or shift past the coordinate
/// limits (and a body that moved past them).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum m3Result {
    /// Done.
    m3_success = 0,
    /// An argument is not finite (NaN or an infinity, for any argument) or outside its
    /// range, or a pointer is null.
    m3_errorArgument = 1,
    /// A fixed capacity is full, a buffer is too small or the allocator refused.
    m3_errorCapacity = 2,
    /// The call is not valid now (a journal already runs, the world is poisoned, …).
    m3_errorState = 3,
    /// Called from host code the world is running (a task, a callback, the allocator),
    /// or while another thread reads or changes the world.
    m3_errorBusy = 4,
    /// Damaged data: a snapshot, tape or replay container that does not check.
    m3_errorFormat = 5,
    /// Data, or a header, from another version.
    m3_errorVersion = 6,
    /// A finite position, point or shift beyond the coordinate limits (a non-finite one is
    /// `m3_errorArgument`).
    m3_errorOutOfBounds = 7,
    /// A null, stale or foreign id.
    m3_errorInvalidId = 8,
}

/// A world: a slot of the library's table of worlds. Zero is null.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct m3WorldId {
    /// Slot plus one; 0 is null.
    pub index: u16,
    /// Bumped each time the slot is reused.
    pub generation: u16,
}

/// What every object id has: its parts, for messages that name it.
pub(crate) trait ObjectId: Copy {
    /// The world it names.
    fn world(self) -> m3WorldId;
    /// Its index and generation.
    fn slot(self) -> (u32, u32);
    /// Whether it is the null id (all zero).
    fn is_null(self) -> bool {
        self.slot() == (0, 0) && self.world() == m3WorldId::default()
    }
}

// cbindgen does not expand macros: the id structs are written out, their conversions
// come from this macro.
macro_rules! object_id {
    ($name:ident, $core:ident) => {
        impl ObjectId for $name {
            fn world(self) -> m3WorldId {
                self.world
            }
            fn slot(self) -> (u32, u32) {
                (self.index, self.generation)
            }
        }

        impl $name {
            /// The engine's id, carrying the world's tag.
            pub(crate) fn to_core(self, tag: u32) -> engine::$core {
                engine::$core {
                    index: self.index,
                    generation: self.generation,
                    world: tag,
                }
            }

            /// This ABI's id for an engine id of world `world` (null stays null).
            pub(crate) fn from_core(id: engine::$core, world: m3WorldId) -> $name {
                if id.is_null() {
                    return $name::default();
                }
                $name {
                    index: id.index,
                    generation: id.generation,
                    world,
                }
            }
        }
    };
}

/// A rigid body. Zero is null.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct m3BodyId {
    /// Slot plus one; 0 is null.
    pub index: u32,
    /// Bumped each time the slot is reused.
    pub generation: u32,
    /// The world it belongs to.
    pub world: m3WorldId,
}
object_id!(m3BodyId, BodyId);

/// A shape attached to a body. Zero is null.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct m3ShapeId {
    /// Slot plus one; 0 is null.
    pub index: u32,
    /// Bumped each time the slot is reused.
    pub generation: u32,
    /// The world it belongs to.
    pub world: m3WorldId,
}
object_id!(m3ShapeId, ShapeId);

/// A convex hull that any number of hull shapes share. Zero is null.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct m3HullId {
    /// Slot plus one; 0 is null.
    pub index: u32,
    /// Bumped each time the slot is reused.
    pub generation: u32,
    /// The world it belongs to.
    pub world: m3WorldId,
}
object_id!(m3HullId, HullId);

/// A triangle mesh or height field that any number of mesh shapes share. Zero is null.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct m3MeshId {
    /// Slot plus one; 0 is null.
    pub index: u32,
    /// Bumped each time the slot is reused.
    pub generation: u32,
    /// The world it belongs to.
    pub world: m3WorldId,
}
object_id!(m3MeshId, MeshId);

/// A voxel grid (one 16³ chunk of materials) that any number of voxel shapes share. Zero
/// is null. It lives in the engine's mesh pool (`mesh_capacity`, `content_capacity`).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct m3VoxelGridId {
    /// Slot plus one; 0 is null.
    pub index: u32,
    /// Bumped each time the slot is reused.
    pub generation: u32,
    /// The world it belongs to.
    pub world: m3WorldId,
}
object_id!(m3VoxelGridId, MeshId);

/// A joint between two bodies. Zero is null.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct m3JointId {
    /// Slot plus one; 0 is null.
    pub index: u32,
    /// Bumped each time the slot is reused.
    pub generation: u32,
    /// The world it belongs to.
    pub world: m3WorldId,
}
object_id!(m3JointId, JointId);

/// A character: a kinematic capsule mover. Zero is null.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct m3CharacterId {
    /// Slot plus one; 0 is null.
    pub index: u32,
    /// Bumped each time the slot is reused.
    pub generation: u32,
    /// The world it belongs to.
    pub world: m3WorldId,
}
object_id!(m3CharacterId, CharacterId);

/// A vehicle: a chassis body on wheels. Zero is null.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct m3VehicleId {
    /// Slot plus one; 0 is null.
    pub index: u32,
    /// Bumped each time the slot is reused.
    pub generation: u32,
    /// The world it belongs to.
    pub world: m3WorldId,
}
object_id!(m3VehicleId, VehicleId);

/// A water volume: a box of fluid whose top face is the surface. Zero is null.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct m3WaterVolumeId {
    /// Slot plus one; 0 is null.
    pub index: u32,
    /// Bumped each time the slot is reused.
    pub generation: u32,
    /// The world it belongs to.
    pub world: m3WorldId,
}
object_id!(m3WaterVolumeId, WaterVolumeId);

/// A soft body: cloth or a volume made of particles. Zero is null.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct m3SoftBodyId {
    /// Slot plus one; 0 is null.
    pub index: u32,
    /// Bumped each time the slot is reused.
    pub generation: u32,
    /// The world it belongs to.
    pub world: m3WorldId,
}
object_id!(m3SoftBodyId, SoftBodyId);

/// A 3-vector of floats.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct m3Vec3 {
    /// x.
    pub x: f32,
    /// y.
    pub y: f32,
    /// z.
    pub z: f32,
}

/// A 3-vector of doubles: positions, relative to the world origin.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct m3DVec3 {
    /// x.
    pub x: f64,
    /// y.
    pub y: f64,
    /// z.
    pub z: f64,
}

/// A rotation as a unit quaternion `x i + y j + z k + w`.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct m3Quat {
    /// i.
    pub x: f32,
    /// j.
    pub y: f32,
    /// k.
    pub z: f32,
    /// Real part.
    pub w: f32,
}

/// A rigid transform in a body's frame: translation, then rotation.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct m3Transform {
    /// Translation.
    pub p: m3Vec3,
    /// Rotation.
    pub q: m3Quat,
}

/// A 3×3 matrix by columns.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct m3Mat3 {
    /// First column.
    pub cx: m3Vec3,
    /// Second column.
    pub cy: m3Vec3,
    /// Third column.
    pub cz: m3Vec3,
}

/// An axis-aligned box in world coordinates (relative to the world origin).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct m3DAABB {
    /// Lower corner.
    pub lower: m3DVec3,
    /// Upper corner.
    pub upper: m3DVec3,
}

impl From<m3Vec3> for Vec3 {
    fn from(v: m3Vec3) -> Vec3 {
        Vec3::new(v.x, v.y, v.z)
    }
}
impl From<Vec3> for m3Vec3 {
    fn from(v: Vec3) -> m3Vec3 {
        m3Vec3 {
            x: v.x,
            y: v.y,
            z: v.z,
        }
    }
}
impl From<m3DVec3> for DVec3 {
    fn from(v: m3DVec3) -> DVec3 {
        DVec3::new(v.x, v.y, v.z)
    }
}
impl From<DVec3> for m3DVec3 {
    fn from(v: DVec3) -> m3DVec3 {
        m3DVec3 {
            x: v.x,
            y: v.y,
            z: v.z,
        }
    }
}
impl From<m3Quat> for Quat {
    fn from(q: m3Quat) -> Quat {
        Quat::new(q.x, q.y, q.z, q.w)
    }
}
impl From<Quat> for m3Quat {
    fn from(q: Quat) -> m3Quat {
        m3Quat {
            x: q.x,
            y: q.y,
            z: q.z,
            w: q.w,
        }
    }
}
impl From<m3Transform> for Transform {
    fn from(t: m3Transform) -> Transform {
        Transform::new(t.p.into(), t.q.into())
    }
}
impl From<Transform> for m3Transform {
    fn from(t: Transform) -> m3Transform {
        m3Transform {
            p: t.p.into(),
            q: t.q.into(),
        }
    }
}
impl From<m3Mat3> for Mat3 {
    fn from(m: m3Mat3) -> Mat3 {
        Mat3::from_cols(m.cx.into(), m.cy.into(), m.cz.into())
    }
}
impl From<Mat3> for m3Mat3 {
    fn from(m: Mat3) -> m3Mat3 {
        m3Mat3 {
            cx: m.cx.into(),
            cy: m.cy.into(),
            cz: m.cz.into(),
        }
    }
}
impl From<DAabb> for m3DAABB {
    fn from(b: DAabb) -> m3DAABB {
        m3DAABB {
            lower: b.lower.into(),
            upper: b.upper.into(),
        }
    }
}
impl From<m3DAABB> for DAabb {
    fn from(b: m3DAABB) -> DAabb {
        DAabb::new(b.lower.into(), b.upper.into())
    }
}

pub(crate) const IDENTITY_QUAT: m3Quat = m3Quat {
    x: 0.0,
    y: 0.0,
    z: 0.0,
    w: 1.0,
};

/// A count or capacity from C: non-negative.
pub(crate) fn count_arg(name: &'static str, v: i32) -> Result<usize, Refusal> {
    if v < 0 {
        return Err(crate::refuse!(
            m3_errorArgument,
            "{name} = {v} must be >= 0"
        ));
    }
    Ok(v as usize)
}

/// A byte length from C: non-negative and addressable.
pub(crate) fn byte_len(name: &'static str, v: i64) -> Result<usize, Refusal> {
    if v < 0 || v as u64 > isize::MAX as u64 {
        return Err(crate::refuse!(
            m3_errorArgument,
            "{name} = {v} must be within [0, {}]",
            isize::MAX
        ));
    }
    Ok(v as usize)
}

/// A count for C (saturating at `i32::MAX`, which no capacity reaches).
pub(crate) fn to_i32(n: usize) -> i32 {
    n.min(i32::MAX as usize) as i32
}

/// `*p`, refusing a null pointer.
///
/// # Safety
/// `p` is null or points to a valid `T`.
pub(crate) unsafe fn read_ptr<T: Copy>(name: &'static str, p: *const T) -> Result<T, Refusal> {
    if p.is_null() {
        return Err(crate::refuse!(
            m3_errorArgument,
            "{name} is a null pointer: it must point to a value"
        ));
    }
    // SAFETY: non-null, and the caller promises it points to a valid T.
    Ok(unsafe { p.read() })
}

/// Checks an output pointer is not null.
pub(crate) fn out<T>(name: &'static str, p: *mut T) -> Result<*mut T, Refusal> {
    if p.is_null() {
        return Err(crate::refuse!(
            m3_errorArgument,
            "{name} is a null pointer: it must point to where the result goes"
        ));
    }
    Ok(p)
}

/// Writes `v` to an output pointer checked by `out`.
///
/// # Safety
/// `p` is non-null and points to writable memory for a `T`.
pub(crate) unsafe fn put<T>(p: *mut T, v: T) {
    // SAFETY: the caller checked `p` with `out` and promises it is writable.
    unsafe { p.write(v) }
}

/// A host array of `n` items, refusing a null pointer unless `n` is 0.
///
/// # Safety
/// `p` points to `n` valid items (or `n` is 0).
pub(crate) unsafe fn slice<'a, T>(
    name: &'static str,
    p: *const T,
    n: usize,
) -> Result<&'a [T], Refusal> {
    if n == 0 {
        return Ok(&[]);
    }
    if p.is_null() {
        return Err(crate::refuse!(
            m3_errorArgument,
            "{name} is a null pointer with {n} items: it must point to them"
        ));
    }
    // SAFETY: non-null; the caller promises `n` valid items.
    Ok(unsafe { core::slice::from_raw_parts(p, n) })
}

/// A host output array: where results go, up to its capacity. Written item by item
/// through the pointer, never read, so the host may pass uninitialised memory.
pub(crate) struct OutArray<T> {
    p: *mut T,
    capacity: usize,
}

impl<T> OutArray<T> {
    /// The array at `p` of `capacity` items; a null `p` is refused unless the capacity
    /// is 0 (the call then only counts).
    pub(crate) fn new(name: &'static str, p: *mut T, capacity: i32) -> Result<Self, Refusal> {
        let capacity = count_arg("capacity", capacity)?;
        if p.is_null() && capacity > 0 {
            return Err(crate::refuse!(
                m3_errorArgument,
                "{name} is a null pointer with capacity {capacity}: it must point to that many items"
            ));
        }
        Ok(OutArray { p, capacity })
    }

    /// The capacity.
    pub(crate) fn capacity(&self) -> usize {
        self.capacity
    }

    /// The first `n` items (at most the capacity) as a slice of `U`, zeroed first, so
    /// the host's memory may have been uninitialised.
    ///
    /// # Safety
    /// The host promised `capacity` writable items at `p`; `U` has `T`'s size and
    /// alignment, and all-zero bytes are a valid `U`.
    pub(crate) unsafe fn zeroed_prefix<'a, U>(&self, n: usize) -> &'a mut [U] {
        debug_assert_eq!(core::mem::size_of::<U>(), core::mem::size_of::<T>());
        debug_assert_eq!(core::mem::align_of::<U>(), core::mem::align_of::<T>());
        let n = n.min(self.capacity);
        if n == 0 {
            return &mut [];
        }
        let p = self.p as *mut U;
        // SAFETY: `n` items within the capacity the host promised; zero bytes are a
        // valid `U`, so the slice is initialised once written.
        unsafe {
            core::ptr::write_bytes(p, 0, n);
            core::slice::from_raw_parts_mut(p, n)
        }
    }

    /// Writes item `i` if it is within the capacity.
    ///
    /// # Safety
    /// The host promised `capacity` writable items at `p`.
    pub(crate) unsafe fn set(&self, i: usize, v: T) {
        if i < self.capacity {
            // SAFETY: within the capacity the host promised.
            unsafe { self.p.add(i).write(v) }
        }
    }
}
