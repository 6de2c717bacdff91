//! How each argument of a recorded call is written and read: the [`Field`] trait and its
//! implementations for every type the journal's op table names (ids, vectors, defs, and
//! the variable-length contents of hulls, meshes, height fields and voxel grids), plus
//! the codecs of area settings, meshes and height fields that the snapshot shares.
//!
//! A field's bytes are fixed by the tape format (`crate::journal`): field by field,
//! little-endian, through [`Enc`]/[`Dec`]. Reading validates the format only (tags,
//! counts against the bytes left); ranges are the called method's to check, so a replay
//! refuses exactly what the original call refused.

use crate::area::{AreaGravity, AreaMode, AreaSettings};
use crate::body::{BodyDef, BodyType, MotionLocks};
use crate::codec::{Dec, Enc, Sink, check};
use crate::content::VoxelGridDef;
use crate::error::{Error, Result};
use crate::explosion::ExplosionDef;
use crate::geometry::MassData;
use crate::geometry::height_field::HeightFieldDef;
use crate::geometry::hull::MAX_HULL_POINTS;
use crate::geometry::voxel::CHUNK_VOXELS;
use crate::id::{
    BodyId, CharacterId, HullId, MeshId, ShapeId, SoftBodyId, VehicleId, WaterVolumeId,
};
use crate::math::{DVec3, Quat, Vec3};
use crate::shape::{Filter, ShapeDef, ShapeGeometry};
use crate::snapshot::{decode_geometry, encode_geometry};

/// One argument of a recorded call: how the writer takes it (`In`), how it is written,
/// and how a replay reads it back (ids get the replaying world's tag).
pub(crate) trait Field: Sized {
    /// What the typed writer takes: the value itself, or a borrow of it.
    type In<'a>;
    /// Writes the argument.
    fn put<S: Sink>(v: Self::In<'_>, e: &mut Enc<S>);
    /// Reads what `put` wrote (format checks only).
    fn get(d: &mut Dec, tag: u32) -> Result<Self>;
}

macro_rules! plain_fields {
    ($($t:ty => $put:ident, $get:ident;)*) => {$(
        impl Field for $t {
            type In<'a> = $t;
            fn put<S: Sink>(v: $t, e: &mut Enc<S>) {
                e.$put(v);
            }
            fn get(d: &mut Dec, _: u32) -> Result<$t> {
                d.$get()
            }
        }
    )*};
}

plain_fields! {
    bool => bool, bool;
    u8 => u8, u8;
    u32 => u32, u32;
    u64 => u64, u64;
    f32 => f32, f32;
    Vec3 => vec3, vec3;
    DVec3 => dvec3, dvec3;
    Quat => quat, quat;
}

macro_rules! id_fields {
    ($($t:ident),*) => {$(
        impl Field for $t {
            type In<'a> = $t;
            fn put<S: Sink>(id: $t, e: &mut Enc<S>) {
                e.u32(id.index);
                e.u32(id.generation);
            }
            fn get(d: &mut Dec, tag: u32) -> Result<$t> {
                Ok($t {
                    index: d.u32()?,
                    generation: d.u32()?,
                    world: tag,
                })
            }
        }
    )*};
}

id_fields!(
    BodyId,
    ShapeId,
    HullId,
    MeshId,
    CharacterId,
    VehicleId,
    WaterVolumeId,
    SoftBodyId
);

/// Writes a body id (index and generation).
pub(crate) fn enc_body<S: Sink>(e: &mut Enc<S>, id: BodyId) {
    BodyId::put(id, e);
}

/// A voxel coordinate or box corner: three i32.
impl Field for [i32; 3] {
    type In<'a> = [i32; 3];
    fn put<S: Sink>(v: [i32; 3], e: &mut Enc<S>) {
        for c in v {
            e.i32(c);
        }
    }
    fn get(d: &mut Dec, _: u32) -> Result<[i32; 3]> {
        Ok([d.i32()?, d.i32()?, d.i32()?])
    }
}

impl Field for BodyType {
    type In<'a> = BodyType;
    fn put<S: Sink>(t: BodyType, e: &mut Enc<S>) {
        e.u8(t as u8);
    }
    fn get(d: &mut Dec, _: u32) -> Result<BodyType> {
        Ok(match d.u8()? {
            0 => BodyType::Static,
            1 => BodyType::Kinematic,
            2 => BodyType::Dynamic,
            _ => return Err(Error::Format("unknown body type")),
        })
    }
}

impl Field for crate::combine::CombineRule {
    type In<'a> = crate::combine::CombineRule;
    fn put<S: Sink>(r: crate::combine::CombineRule, e: &mut Enc<S>) {
        e.u8(r as u8);
    }
    fn get(d: &mut Dec, _: u32) -> Result<crate::combine::CombineRule> {
        crate::combine::CombineRule::from_u8(d.u8()?).ok_or(Error::Format("unknown combine rule"))
    }
}

impl Field for crate::grow::Capacities {
    type In<'a> = &'a crate::grow::Capacities;
    fn put<S: Sink>(c: &crate::grow::Capacities, e: &mut Enc<S>) {
        e.u32(c.body_capacity);
        e.u32(c.shape_capacity);
        e.u32(c.contact_capacity);
        e.u32(c.pair_capacity);
        e.u32(c.hull_capacity);
        e.u32(c.joint_capacity);
        e.u32(c.mesh_capacity);
        e.u64(c.content_capacity);
        e.u32(c.event_capacity);
        e.u32(c.sensor_capacity);
    }
    fn get(d: &mut Dec, _: u32) -> Result<crate::grow::Capacities> {
        Ok(crate::grow::Capacities {
            body_capacity: d.u32()?,
            shape_capacity: d.u32()?,
            contact_capacity: d.u32()?,
            pair_capacity: d.u32()?,
            hull_capacity: d.u32()?,
            joint_capacity: d.u32()?,
            mesh_capacity: d.u32()?,
            content_capacity: d.u64()?,
            event_capacity: d.u32()?,
            sensor_capacity: d.u32()?,
        })
    }
}

impl Field for MotionLocks {
    type In<'a> = MotionLocks;
    fn put<S: Sink>(l: MotionLocks, e: &mut Enc<S>) {
        e.u8(l.bits());
    }
    fn get(d: &mut Dec, _: u32) -> Result<MotionLocks> {
        let bits = d.u8()?;
        check(bits < 64, "unknown motion lock bits")?;
        Ok(MotionLocks::from_bits(bits))
    }
}

impl Field for Option<MassData> {
    type In<'a> = Option<MassData>;
    fn put<S: Sink>(m: Option<MassData>, e: &mut Enc<S>) {
        match m {
            Some(m) => {
                e.bool(true);
                e.f32(m.mass);
                e.vec3(m.center);
                e.mat3(&m.inertia);
            }
            None => e.bool(false),
        }
    }
    fn get(d: &mut Dec, _: u32) -> Result<Option<MassData>> {
        Ok(if d.bool()? {
            Some(MassData {
                mass: d.f32()?,
                center: d.vec3()?,
                inertia: d.mat3()?,
            })
        } else {
            None
        })
    }
}

impl Field for Filter {
    type In<'a> = Filter;
    fn put<S: Sink>(f: Filter, e: &mut Enc<S>) {
        e.u64(f.category_bits);
        e.u64(f.mask_bits);
        e.i32(f.group_index);
    }
    fn get(d: &mut Dec, _: u32) -> Result<Filter> {
        Ok(Filter {
            category_bits: d.u64()?,
            mask_bits: d.u64()?,
            group_index: d.i32()?,
        })
    }
}

impl Field for Option<AreaSettings> {
    type In<'a> = &'a Option<AreaSettings>;
    fn put<S: Sink>(a: &Option<AreaSettings>, e: &mut Enc<S>) {
        encode_area(e, a);
    }
    fn get(d: &mut Dec, _: u32) -> Result<Option<AreaSettings>> {
        decode_area(d)
    }
}

/// Writes an area's settings (or none), field by field.
pub(crate) fn encode_area<S: Sink>(e: &mut Enc<S>, a: &Option<AreaSettings>) {
    let Some(a) = a else {
        e.bool(false);
        return;
    };
    e.bool(true);
    e.i32(a.priority);
    e.u8(a.gravity_mode as u8);
    match a.gravity {
        AreaGravity::Directional(g) => {
            e.u8(0);
            e.vec3(g);
        }
        AreaGravity::Point {
            center,
            strength,
            unit_distance,
        } => {
            e.u8(1);
            e.vec3(center);
            e.f32(strength);
            e.f32(unit_distance);
        }
    }
    e.u8(a.linear_damping_mode as u8);
    e.f32(a.linear_damping);
    e.u8(a.angular_damping_mode as u8);
    e.f32(a.angular_damping);
}

/// Reads what `encode_area` wrote, validating it.
pub(crate) fn decode_area(d: &mut Dec) -> Result<Option<AreaSettings>> {
    if !d.bool()? {
        return Ok(None);
    }
    let mode = |v: u8| AreaMode::from_u8(v).ok_or(Error::Format("unknown area mode"));
    let priority = d.i32()?;
    let gravity_mode = mode(d.u8()?)?;
    let gravity = match d.u8()? {
        0 => AreaGravity::Directional(d.vec3()?),
        1 => AreaGravity::Point {
            center: d.vec3()?,
            strength: d.f32()?,
            unit_distance: d.f32()?,
        },
        _ => return Err(Error::Format("unknown area gravity kind")),
    };
    let a = AreaSettings {
        priority,
        gravity_mode,
        gravity,
        linear_damping_mode: mode(d.u8()?)?,
        linear_damping: d.f32()?,
        angular_damping_mode: mode(d.u8()?)?,
        angular_damping: d.f32()?,
    };
    crate::shape::check_area(&a).map_err(|_| Error::Format("area settings out of range"))?;
    Ok(Some(a))
}

impl Field for BodyDef {
    type In<'a> = &'a BodyDef;
    fn put<S: Sink>(d: &BodyDef, e: &mut Enc<S>) {
        e.u8(d.body_type as u8);
        e.dvec3(d.position);
        e.quat(d.rotation);
        e.vec3(d.linear_velocity);
        e.vec3(d.angular_velocity);
        e.f32(d.linear_damping);
        e.f32(d.angular_damping);
        e.f32(d.gravity_scale);
        e.f32(d.sleep_threshold);
        e.bool(d.enable_sleep);
        e.bool(d.is_awake);
        e.bool(d.is_bullet);
        e.bool(d.is_enabled);
        e.u8(d.motion_locks.bits());
        e.bool(d.custom_integrator);
        e.u64(d.user_data);
    }
    fn get(d: &mut Dec, tag: u32) -> Result<BodyDef> {
        Ok(BodyDef {
            body_type: BodyType::get(d, tag)?,
            position: d.dvec3()?,
            rotation: d.quat()?,
            linear_velocity: d.vec3()?,
            angular_velocity: d.vec3()?,
            linear_damping: d.f32()?,
            angular_damping: d.f32()?,
            gravity_scale: d.f32()?,
            sleep_threshold: d.f32()?,
            enable_sleep: d.bool()?,
            is_awake: d.bool()?,
            is_bullet: d.bool()?,
            is_enabled: d.bool()?,
            motion_locks: MotionLocks::get(d, tag)?,
            custom_integrator: d.bool()?,
            user_data: d.u64()?,
        })
    }
}

impl Field for ShapeDef {
    type In<'a> = &'a ShapeDef;
    fn put<S: Sink>(d: &ShapeDef, e: &mut Enc<S>) {
        e.f32(d.density);
        e.f32(d.friction);
        e.f32(d.restitution);
        e.f32(d.rolling_resistance);
        Filter::put(d.filter, e);
        e.bool(d.enable_contact_events);
        // Bit 0: a sensor; bit 2: rough; bit 3: absorbent; bit 4: two-sided (as the shape's
        // state byte; 0 or 1 in every tape without such shapes).
        e.u8(d.is_sensor as u8
            | (d.rough as u8) << 2
            | (d.absorbent as u8) << 3
            | (d.two_sided as u8) << 4);
        e.bool(d.enable_sensor_events);
        e.bool(d.enable_hit_events);
        e.bool(d.enable_pre_solve);
        e.u64(d.user_data);
    }
    fn get(d: &mut Dec, tag: u32) -> Result<ShapeDef> {
        let density = d.f32()?;
        let friction = d.f32()?;
        let restitution = d.f32()?;
        let rolling_resistance = d.f32()?;
        let filter = Filter::get(d, tag)?;
        let enable_contact_events = d.bool()?;
        let flags = d.u8()?;
        check(
            flags & !0b1_1101 == 0,
            "a shape def's sensor byte has bits other than 0, 2, 3 and 4",
        )?;
        Ok(ShapeDef {
            density,
            friction,
            restitution,
            rough: flags & 4 == 4,
            absorbent: flags & 8 == 8,
            two_sided: flags & 16 == 16,
            rolling_resistance,
            filter,
            enable_contact_events,
            is_sensor: flags & 1 == 1,
            enable_sensor_events: d.bool()?,
            enable_hit_events: d.bool()?,
            enable_pre_solve: d.bool()?,
            user_data: d.u64()?,
        })
    }
}

/// What a shape's create record holds of its geometry: the geometry itself (tag 0), or
/// the shared hull (1) or mesh (2) by id.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum ShapeContent {
    /// A geometry the shape owns.
    Geometry(ShapeGeometry),
    /// A shared hull.
    Hull(HullId),
    /// A shared mesh, height field or voxel grid.
    Mesh(MeshId),
}

impl Field for ShapeContent {
    type In<'a> = &'a ShapeContent;
    fn put<S: Sink>(c: &ShapeContent, e: &mut Enc<S>) {
        match *c {
            ShapeContent::Geometry(g) => {
                e.u8(0);
                encode_geometry(e, &g);
            }
            ShapeContent::Hull(h) => {
                e.u8(1);
                HullId::put(h, e);
            }
            ShapeContent::Mesh(m) => {
                e.u8(2);
                MeshId::put(m, e);
            }
        }
    }
    fn get(d: &mut Dec, tag: u32) -> Result<ShapeContent> {
        Ok(match d.u8()? {
            0 => ShapeContent::Geometry(decode_geometry(d)?),
            1 => ShapeContent::Hull(HullId::get(d, tag)?),
            2 => ShapeContent::Mesh(MeshId::get(d, tag)?),
            _ => return Err(Error::Format("unknown shape content tag")),
        })
    }
}

/// A hull's points: a count (1 to `MAX_HULL_POINTS`) and the points.
pub(crate) struct HullPoints(pub(crate) std::vec::Vec<Vec3>);

impl Field for HullPoints {
    type In<'a> = &'a [Vec3];
    fn put<S: Sink>(points: &[Vec3], e: &mut Enc<S>) {
        e.u32(points.len() as u32);
        for p in points {
            e.vec3(*p);
        }
    }
    fn get(d: &mut Dec, _: u32) -> Result<HullPoints> {
        let n = d.u32()? as usize;
        check(
            (1..=MAX_HULL_POINTS).contains(&n),
            "hull point count out of range",
        )?;
        let mut pts = std::vec::Vec::with_capacity(n);
        for _ in 0..n {
            pts.push(d.vec3()?);
        }
        Ok(HullPoints(pts))
    }
}

/// A mesh's content: vertices and triangles, each with its count first.
pub(crate) struct MeshContent {
    pub(crate) vertices: std::vec::Vec<Vec3>,
    pub(crate) triangles: std::vec::Vec<[u32; 3]>,
}

impl Field for MeshContent {
    type In<'a> = (&'a [Vec3], &'a [[u32; 3]]);
    fn put<S: Sink>((vertices, triangles): (&[Vec3], &[[u32; 3]]), e: &mut Enc<S>) {
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
    }
    fn get(d: &mut Dec, _: u32) -> Result<MeshContent> {
        let mut m = MeshContent {
            vertices: std::vec::Vec::new(),
            triangles: std::vec::Vec::new(),
        };
        decode_mesh(d, &mut m.vertices, &mut m.triangles)?;
        Ok(m)
    }
}

/// Reads a mesh's content (vertex and triangle counts first), checking the counts
/// against what the buffer holds before reserving anything.
pub(crate) fn decode_mesh(
    d: &mut Dec,
    vertices: &mut std::vec::Vec<Vec3>,
    triangles: &mut std::vec::Vec<[u32; 3]>,
) -> Result<()> {
    use crate::geometry::mesh::{MAX_MESH_TRIANGLES, MAX_MESH_VERTICES};
    let nv = d.u32()? as usize;
    check(
        nv <= MAX_MESH_VERTICES && d.buf.len() - d.pos >= 12 * nv,
        "mesh vertex count out of range",
    )?;
    vertices.clear();
    for _ in 0..nv {
        vertices.push(d.vec3()?);
    }
    let nt = d.u32()? as usize;
    check(
        nt <= MAX_MESH_TRIANGLES && d.buf.len() - d.pos >= 12 * nt,
        "mesh triangle count out of range",
    )?;
    triangles.clear();
    for _ in 0..nt {
        triangles.push([d.u32()?, d.u32()?, d.u32()?]);
    }
    Ok(())
}

/// A height field's content, owned (what a replay reads back of a [`HeightFieldDef`]).
pub(crate) struct HeightFieldContent {
    count_x: u32,
    count_z: u32,
    scale: Vec3,
    heights: std::vec::Vec<f32>,
    holes: std::vec::Vec<bool>,
}

impl HeightFieldContent {
    /// The def this content was recorded from.
    pub(crate) fn def(&self) -> HeightFieldDef<'_> {
        HeightFieldDef {
            count_x: self.count_x,
            count_z: self.count_z,
            heights: &self.heights,
            holes: &self.holes,
            scale: self.scale,
        }
    }
}

impl Field for HeightFieldContent {
    type In<'a> = &'a HeightFieldDef<'a>;
    fn put<S: Sink>(def: &HeightFieldDef, e: &mut Enc<S>) {
        e.u32(def.count_x);
        e.u32(def.count_z);
        e.vec3(def.scale);
        for &h in def.heights {
            e.f32(h);
        }
        e.bool(!def.holes.is_empty());
        for chunk in def.holes.chunks(8) {
            let mut b = 0u8;
            for (i, &h) in chunk.iter().enumerate() {
                b |= (h as u8) << i;
            }
            e.u8(b);
        }
    }
    fn get(d: &mut Dec, _: u32) -> Result<HeightFieldContent> {
        let (mut heights, mut holes) = (std::vec::Vec::new(), std::vec::Vec::new());
        let (count_x, count_z, scale) = decode_height_field(d, &mut heights, &mut holes)?;
        Ok(HeightFieldContent {
            count_x,
            count_z,
            scale,
            heights,
            holes,
        })
    }
}

/// Reads a height field's content into `heights` and `holes` (cleared first), returning
/// `(count_x, count_z, scale)`; the sizes are checked against the 4096-sample sides.
pub(crate) fn decode_height_field(
    d: &mut Dec,
    heights: &mut std::vec::Vec<f32>,
    holes: &mut std::vec::Vec<bool>,
) -> Result<(u32, u32, Vec3)> {
    use crate::geometry::height_field::MAX_HEIGHT_FIELD_SIDE;
    let (cx, cz) = (d.u32()?, d.u32()?);
    check(
        (2..=MAX_HEIGHT_FIELD_SIDE).contains(&cx) && (2..=MAX_HEIGHT_FIELD_SIDE).contains(&cz),
        "height field size out of range",
    )?;
    let scale = d.vec3()?;
    let n = cx as usize * cz as usize;
    check(
        d.buf.len() - d.pos >= 4 * n,
        "height field heights cut short",
    )?;
    heights.clear();
    for _ in 0..n {
        heights.push(d.f32()?);
    }
    holes.clear();
    if d.bool()? {
        let cells = (cx as usize - 1) * (cz as usize - 1);
        check(
            d.buf.len() - d.pos >= cells.div_ceil(8),
            "height field holes cut short",
        )?;
        for c in 0..cells.div_ceil(8) {
            let b = d.u8()?;
            // Bits past the last cell are 0 (they would not write back).
            let used = (cells - 8 * c).min(8);
            check(
                used == 8 || b >> used == 0,
                "height field hole bits past the last cell",
            )?;
            for i in 0..8 {
                if 8 * c + i < cells {
                    holes.push(b & (1 << i) != 0);
                }
            }
        }
    }
    Ok((cx, cz, scale))
}

/// A voxel grid's def, owned: size, origin and the 4096 materials.
pub(crate) struct VoxelGridContent {
    voxel_size: f32,
    origin: Vec3,
    data: [u8; CHUNK_VOXELS],
}

impl VoxelGridContent {
    /// The def this content was recorded from.
    pub(crate) fn def(&self) -> VoxelGridDef<'_> {
        VoxelGridDef {
            voxel_size: self.voxel_size,
            data: &self.data,
            origin: self.origin,
        }
    }
}

impl Field for VoxelGridContent {
    type In<'a> = &'a VoxelGridDef<'a>;
    fn put<S: Sink>(def: &VoxelGridDef, e: &mut Enc<S>) {
        e.f32(def.voxel_size);
        e.vec3(def.origin);
        e.0.put(def.data);
    }
    fn get(d: &mut Dec, _: u32) -> Result<VoxelGridContent> {
        Ok(VoxelGridContent {
            voxel_size: d.f32()?,
            origin: d.vec3()?,
            data: d.take::<CHUNK_VOXELS>()?,
        })
    }
}

impl Field for ExplosionDef {
    type In<'a> = &'a ExplosionDef;
    fn put<S: Sink>(def: &ExplosionDef, e: &mut Enc<S>) {
        e.dvec3(def.position);
        e.f32(def.radius);
        e.f32(def.falloff);
        e.f32(def.impulse_per_area);
        e.u64(def.mask_bits);
    }
    fn get(d: &mut Dec, _: u32) -> Result<ExplosionDef> {
        Ok(ExplosionDef {
            position: d.dvec3()?,
            radius: d.f32()?,
            falloff: d.f32()?,
            impulse_per_area: d.f32()?,
            mask_bits: d.u64()?,
        })
    }
}

/// The contacts the pre-solve callback disabled in a step: a count and the pair keys,
/// strictly increasing.
pub(crate) struct DisabledContacts(pub(crate) std::vec::Vec<u64>);

impl Field for DisabledContacts {
    type In<'a> = &'a [u64];
    fn put<S: Sink>(keys: &[u64], e: &mut Enc<S>) {
        e.u32(keys.len() as u32);
        for &k in keys {
            e.u64(k);
        }
    }
    fn get(d: &mut Dec, _: u32) -> Result<DisabledContacts> {
        let count = d.u32()? as usize;
        check(
            d.buf.len() - d.pos >= 8 * count,
            "more disabled contacts than the record holds",
        )?;
        let mut keys = std::vec::Vec::with_capacity(count);
        let mut last = None;
        for _ in 0..count {
            let key = d.u64()?;
            check(
                last.is_none_or(|l| key > l),
                "disabled contacts out of order",
            )?;
            last = Some(key);
            keys.push(key);
        }
        Ok(DisabledContacts(keys))
    }
}
