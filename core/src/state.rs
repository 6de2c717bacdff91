//! The canonical encoding of a world's state, and what is built on it: the hash, the
//! snapshot, restore and compare.
//!
//! One encoding, field by field, little-endian, no `usize`, no padding, serves both the
//! hash and the snapshot. It holds everything that shapes the future — settings and
//! capacities, step count, origin, every id pool with its generations and free list,
//! bodies, shapes, hull points, contacts with their manifolds, impulses and SAT caches,
//! joints with their settings, impulses, last reactions and broken flags, the broad
//! phase's fat bounds and move buffer, sleep timers — and nothing that can be recomputed
//! from it (mass, inertia, hull topology, trees, body shape, contact and joint lists,
//! islands, colours) or that only observes (events, counters, profile). Host data (user
//! data) follows the state in a snapshot but is not hashed, and so does the journal
//! section (which journal ran and where its tape stood: `crate::journal`).
//!
//! The hash is FNV-1a, 64-bit (offset basis 0xcbf29ce484222325, prime 0x100000001b3),
//! over the encoded bytes: fixed and documented, never std's hasher.

use crate::body::{Body, BodyDef, BodyType, MotionLocks, NONE};
use crate::collide::SatCache;
use crate::contact::{CONTACT_EVENTS, CONTACT_TOUCHING, Contact, ContactEdge, ContactPoint};
use crate::content::{MeshData, MeshSlot};
use crate::error::{Error, Result};
use crate::geometry::height_field::HeightFieldDef;
use crate::geometry::hull::{BoxHull, Hull, MAX_HULL_POINTS};
use crate::geometry::{Capsule, MassData, Sphere};
use crate::id::BodyId;
use crate::joint::{
    Joint, decode_impulses, decode_kind, decode_transform, encode_impulses, encode_kind,
    encode_transform,
};
use crate::math::{DAabb, DVec3, Mat3, POSITION_LIMIT, Quat, Vec3};
use crate::shape::{BoxShape, Filter, HullSlot, Shape, ShapeGeometry};
use crate::world::{Fnv, World, WorldDef};

/// Layout revision of snapshots: bumped on any change to the encoding (7: the journal
/// section at the end of the payload).
pub const SNAPSHOT_REVISION: u32 = 7;
/// The oldest revision `restore` still reads: 6, the same state without the journal
/// section (read as taken with no journal running).
const OLDEST_READ_REVISION: u32 = 6;
const MAGIC: [u8; 8] = *b"M3SNAPSH";
/// Bytes before the payload: magic, revision, header size, payload size, checksum.
pub const SNAPSHOT_HEADER_SIZE: usize = 32;

/// Where encoded bytes go.
pub(crate) trait Sink {
    fn put(&mut self, bytes: &[u8]);
}

impl Sink for Fnv {
    #[inline]
    fn put(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.byte(b);
        }
    }
}

/// Counts bytes.
pub(crate) struct Count(pub(crate) usize);

impl Sink for Count {
    fn put(&mut self, bytes: &[u8]) {
        self.0 += bytes.len();
    }
}

/// Writes into a host buffer already checked to be large enough; also hashes.
struct Out<'a> {
    buf: &'a mut [u8],
    pos: usize,
    fnv: Fnv,
}

impl Sink for Out<'_> {
    fn put(&mut self, bytes: &[u8]) {
        self.buf[self.pos..self.pos + bytes.len()].copy_from_slice(bytes);
        self.pos += bytes.len();
        self.fnv.put(bytes);
    }
}

/// Field-by-field writer.
pub(crate) struct Enc<'a, S: Sink>(pub &'a mut S);

impl<S: Sink> Enc<'_, S> {
    pub(crate) fn u8(&mut self, v: u8) {
        self.0.put(&[v]);
    }
    pub(crate) fn bool(&mut self, v: bool) {
        self.u8(v as u8);
    }
    pub(crate) fn u16(&mut self, v: u16) {
        self.0.put(&v.to_le_bytes());
    }
    pub(crate) fn u32(&mut self, v: u32) {
        self.0.put(&v.to_le_bytes());
    }
    pub(crate) fn i32(&mut self, v: i32) {
        self.0.put(&v.to_le_bytes());
    }
    pub(crate) fn u64(&mut self, v: u64) {
        self.0.put(&v.to_le_bytes());
    }
    pub(crate) fn i64(&mut self, v: i64) {
        self.0.put(&v.to_le_bytes());
    }
    pub(crate) fn f32(&mut self, v: f32) {
        self.u32(v.to_bits());
    }
    pub(crate) fn f64(&mut self, v: f64) {
        self.u64(v.to_bits());
    }
    pub(crate) fn vec3(&mut self, v: Vec3) {
        self.f32(v.x);
        self.f32(v.y);
        self.f32(v.z);
    }
    pub(crate) fn dvec3(&mut self, v: DVec3) {
        self.f64(v.x);
        self.f64(v.y);
        self.f64(v.z);
    }
    pub(crate) fn quat(&mut self, q: Quat) {
        self.f32(q.x);
        self.f32(q.y);
        self.f32(q.z);
        self.f32(q.w);
    }
    pub(crate) fn mat3(&mut self, m: &Mat3) {
        self.vec3(m.cx);
        self.vec3(m.cy);
        self.vec3(m.cz);
    }
    pub(crate) fn daabb(&mut self, a: &DAabb) {
        self.dvec3(a.lower);
        self.dvec3(a.upper);
    }
    pub(crate) fn free_list(&mut self, free: &[u32]) {
        self.u32(free.len() as u32);
        for &f in free {
            self.u32(f);
        }
    }
}

fn encode_def<S: Sink>(e: &mut Enc<S>, d: &WorldDef) {
    e.u32(d.body_capacity);
    e.u32(d.shape_capacity);
    e.u32(d.contact_capacity);
    e.u32(d.pair_capacity);
    e.u32(d.hull_capacity);
    e.u32(d.event_capacity);
    e.u32(d.sensor_capacity);
    e.u32(d.joint_capacity);
    e.u32(d.mesh_capacity);
    e.u64(d.content_capacity);
    e.vec3(d.gravity);
    e.f32(d.restitution_threshold);
    e.f32(d.contact_hertz);
    e.f32(d.contact_damping_ratio);
    e.f32(d.contact_push_max_speed);
    e.f32(d.max_linear_speed);
    e.f32(d.joint_damping_ratio);
    e.bool(d.enable_sleep);
    e.f32(d.hit_event_threshold);
}

pub(crate) fn encode_geometry<S: Sink>(e: &mut Enc<S>, g: &ShapeGeometry) {
    match g {
        ShapeGeometry::Sphere(s) => {
            e.u8(0);
            e.vec3(s.center);
            e.f32(s.radius);
        }
        ShapeGeometry::Capsule(c) => {
            e.u8(1);
            e.vec3(c.center1);
            e.vec3(c.center2);
            e.f32(c.radius);
        }
        ShapeGeometry::Box(b) => {
            e.u8(2);
            e.vec3(b.half);
            e.vec3(b.center);
            e.quat(b.rotation);
        }
        ShapeGeometry::Hull(h) => {
            e.u8(3);
            e.u32(*h);
        }
        ShapeGeometry::Cylinder(c) => {
            e.u8(4);
            e.vec3(c.center);
            e.quat(c.rotation);
            e.f32(c.half_height);
            e.f32(c.radius);
        }
        ShapeGeometry::Plane(p) => {
            e.u8(5);
            e.vec3(p.normal);
            e.f32(p.offset);
        }
        ShapeGeometry::Mesh(m) => {
            e.u8(8);
            e.u32(*m);
        }
    }
}

/// A mesh's or height field's content.
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

fn encode_cache<S: Sink>(e: &mut Enc<S>, c: &SatCache) {
    e.u8(c.kind);
    e.u16(c.index_a);
    e.u16(c.index_b);
    e.u32(c.separation_bits);
}

/// The canonical state encoding (without host data).
pub(crate) fn encode_state<S: Sink>(w: &World, e: &mut Enc<S>) {
    encode_def(e, &w.def);
    e.u64(w.step_index);
    for o in w.origin {
        e.i64(o);
    }
    // Revision 6 stored here the body whose bounds had left ±2^22, which blocked every
    // later step; the step now checks before it runs and nothing is stored (always 0).
    e.u8(0);

    e.u32(w.hulls.len() as u32);
    for h in w.hulls.iter() {
        e.u32(h.generation);
        e.bool(h.alive);
        if h.alive {
            e.u32(h.point_count);
            for p in &h.points[..h.point_count as usize] {
                e.vec3(*p);
            }
        }
    }
    e.free_list(&w.hull_free);

    e.u32(w.meshes.len() as u32);
    for m in w.meshes.iter() {
        e.u32(m.generation);
        match m.get() {
            Some(data) if m.alive => {
                e.bool(true);
                encode_mesh_data(e, data);
            }
            _ => e.bool(false),
        }
    }
    e.free_list(&w.mesh_free);

    e.u32(w.bodies.len() as u32);
    for b in w.bodies.iter() {
        e.u32(b.generation);
        e.bool(b.alive);
        if !b.alive {
            continue;
        }
        e.u8(b.body_type as u8);
        e.bool(b.enabled);
        e.bool(b.awake);
        e.bool(b.enable_sleep);
        e.bool(b.bullet);
        e.u8(b.locks.bits());
        e.bool(b.custom_integrator);
        e.dvec3(b.position);
        e.quat(b.rotation);
        e.vec3(b.linear_velocity);
        e.vec3(b.angular_velocity);
        e.vec3(b.force);
        e.vec3(b.torque);
        e.f32(b.linear_damping);
        e.f32(b.angular_damping);
        e.f32(b.gravity_scale);
        e.f32(b.sleep_threshold);
        e.f32(b.sleep_time);
        match &b.mass_override {
            Some(m) => {
                e.u8(1);
                e.f32(m.mass);
                e.vec3(m.center);
                e.mat3(&m.inertia);
            }
            None => e.u8(0),
        }
    }
    e.free_list(&w.body_free);

    e.u32(w.shapes.len() as u32);
    for s in w.shapes.iter() {
        e.u32(s.generation);
        e.bool(s.alive);
        if !s.alive {
            continue;
        }
        e.u32(s.body);
        encode_geometry(e, &s.geometry);
        e.f32(s.density);
        e.f32(s.friction);
        e.f32(s.restitution);
        e.f32(s.rolling_resistance);
        e.u64(s.filter.category_bits);
        e.u64(s.filter.mask_bits);
        e.i32(s.filter.group_index);
        e.bool(s.enable_contact_events);
        e.bool(s.is_sensor);
        e.bool(s.enable_sensor_events);
        e.bool(s.enable_hit_events);
        e.bool(s.enable_pre_solve);
        crate::journal::encode_area(e, &s.area);
        e.daabb(&s.fat_aabb);
        e.bool(s.enlarged);
    }
    e.free_list(&w.shape_free);

    e.u32(w.contacts.len() as u32);
    for c in w.contacts.iter() {
        e.bool(c.alive);
        if !c.alive {
            continue;
        }
        e.u32(c.shape_a);
        e.u32(c.shape_b);
        e.u32(c.child);
        e.u32(c.parent);
        e.bool(c.flags & CONTACT_TOUCHING != 0);
        e.vec3(c.normal);
        e.u8(c.point_count);
        for p in &c.points[..c.point_count as usize] {
            e.vec3(p.anchor_a);
            e.vec3(p.anchor_b);
            e.f32(p.separation);
            e.f32(p.normal_impulse);
            e.vec3(p.tangent_impulse);
            e.u32(p.id);
        }
        e.vec3(c.rolling_impulse);
        encode_cache(e, &c.cache);
    }
    e.free_list(&w.contact_free);

    e.u32(w.sensor_pairs.len() as u32);
    for &k in w.sensor_pairs.iter() {
        e.u64(k);
    }
    e.u32(w.joints.len() as u32);
    for j in w.joints.iter() {
        e.u32(j.generation);
        e.bool(j.alive);
        if !j.alive {
            continue;
        }
        e.u32(j.body_a);
        e.u32(j.body_b);
        encode_transform(e, &j.frame_a);
        encode_transform(e, &j.frame_b);
        e.bool(j.collide_connected);
        e.f32(j.break_force);
        e.f32(j.break_torque);
        encode_kind(e, &j.kind);
        e.bool(j.broken);
        encode_impulses(e, &j.kind, &j.impulses);
        e.vec3(j.reaction_force);
        e.vec3(j.reaction_torque);
    }
    e.free_list(&w.joint_free);
}

fn encode_host_data<S: Sink>(w: &World, e: &mut Enc<S>) {
    for b in w.bodies.iter().filter(|b| b.alive) {
        e.u64(b.user_data);
    }
    for s in w.shapes.iter().filter(|s| s.alive) {
        e.u64(s.user_data);
    }
    for j in w.joints.iter().filter(|j| j.alive) {
        e.u64(j.user_data);
    }
}

/// Reads the encoding back; every read is bounds-checked and every value validated, so no
/// input can panic it.
pub(crate) struct Dec<'a> {
    pub(crate) buf: &'a [u8],
    pub(crate) pos: usize,
}

const DAMAGED: Error = Error::Format("snapshot payload is cut short or inconsistent");

impl Dec<'_> {
    pub(crate) fn take<const N: usize>(&mut self) -> Result<[u8; N]> {
        let end = self.pos.checked_add(N).ok_or(DAMAGED)?;
        let s = self.buf.get(self.pos..end).ok_or(DAMAGED)?;
        self.pos = end;
        let mut a = [0u8; N];
        a.copy_from_slice(s);
        Ok(a)
    }
    pub(crate) fn u8(&mut self) -> Result<u8> {
        Ok(self.take::<1>()?[0])
    }
    pub(crate) fn bool(&mut self) -> Result<bool> {
        match self.u8()? {
            0 => Ok(false),
            1 => Ok(true),
            _ => Err(Error::Format("a flag is neither 0 nor 1")),
        }
    }
    pub(crate) fn u16(&mut self) -> Result<u16> {
        Ok(u16::from_le_bytes(self.take()?))
    }
    pub(crate) fn u32(&mut self) -> Result<u32> {
        Ok(u32::from_le_bytes(self.take()?))
    }
    pub(crate) fn i32(&mut self) -> Result<i32> {
        Ok(i32::from_le_bytes(self.take()?))
    }
    pub(crate) fn u64(&mut self) -> Result<u64> {
        Ok(u64::from_le_bytes(self.take()?))
    }
    pub(crate) fn i64(&mut self) -> Result<i64> {
        Ok(i64::from_le_bytes(self.take()?))
    }
    pub(crate) fn f32(&mut self) -> Result<f32> {
        let v = f32::from_bits(self.u32()?);
        if v.is_finite() {
            Ok(v)
        } else {
            Err(Error::Format("a number is not finite"))
        }
    }
    pub(crate) fn f64(&mut self) -> Result<f64> {
        let v = f64::from_bits(self.u64()?);
        if v.is_finite() {
            Ok(v)
        } else {
            Err(Error::Format("a number is not finite"))
        }
    }
    pub(crate) fn vec3(&mut self) -> Result<Vec3> {
        Ok(Vec3::new(self.f32()?, self.f32()?, self.f32()?))
    }
    pub(crate) fn dvec3(&mut self) -> Result<DVec3> {
        Ok(DVec3::new(self.f64()?, self.f64()?, self.f64()?))
    }
    pub(crate) fn quat(&mut self) -> Result<Quat> {
        Ok(Quat::new(
            self.f32()?,
            self.f32()?,
            self.f32()?,
            self.f32()?,
        ))
    }
    pub(crate) fn mat3(&mut self) -> Result<Mat3> {
        Ok(Mat3::from_cols(self.vec3()?, self.vec3()?, self.vec3()?))
    }
    pub(crate) fn daabb(&mut self) -> Result<DAabb> {
        Ok(DAabb::new(self.dvec3()?, self.dvec3()?))
    }
}

pub(crate) fn check(ok: bool, why: &'static str) -> Result<()> {
    if ok { Ok(()) } else { Err(Error::Format(why)) }
}

fn decode_def(d: &mut Dec) -> Result<WorldDef> {
    let def = WorldDef {
        body_capacity: d.u32()?,
        shape_capacity: d.u32()?,
        contact_capacity: d.u32()?,
        pair_capacity: d.u32()?,
        hull_capacity: d.u32()?,
        event_capacity: d.u32()?,
        sensor_capacity: d.u32()?,
        joint_capacity: d.u32()?,
        mesh_capacity: d.u32()?,
        content_capacity: d.u64()?,
        gravity: d.vec3()?,
        restitution_threshold: d.f32()?,
        contact_hertz: d.f32()?,
        contact_damping_ratio: d.f32()?,
        contact_push_max_speed: d.f32()?,
        max_linear_speed: d.f32()?,
        joint_damping_ratio: d.f32()?,
        enable_sleep: d.bool()?,
        hit_event_threshold: d.f32()?,
        ..WorldDef::default()
    };
    Ok(def)
}

pub(crate) fn decode_geometry(d: &mut Dec) -> Result<ShapeGeometry> {
    let size = |v: f32| v > 0.0 && v <= 1.0e6;
    let local = |v: Vec3| v.x.abs() <= 1.0e6 && v.y.abs() <= 1.0e6 && v.z.abs() <= 1.0e6;
    Ok(match d.u8()? {
        0 => {
            let s = Sphere {
                center: d.vec3()?,
                radius: d.f32()?,
            };
            check(size(s.radius) && local(s.center), "sphere out of range")?;
            ShapeGeometry::Sphere(s)
        }
        1 => {
            let c = Capsule {
                center1: d.vec3()?,
                center2: d.vec3()?,
                radius: d.f32()?,
            };
            check(
                size(c.radius) && local(c.center1) && local(c.center2),
                "capsule out of range",
            )?;
            ShapeGeometry::Capsule(c)
        }
        2 => {
            let b = BoxShape {
                half: d.vec3()?,
                center: d.vec3()?,
                rotation: d.quat()?,
            };
            check(
                size(b.half.x) && size(b.half.y) && size(b.half.z) && local(b.center),
                "box out of range",
            )?;
            check(
                b.rotation.is_normalized(1e-3),
                "box rotation is not a unit quaternion",
            )?;
            ShapeGeometry::Box(b)
        }
        3 => ShapeGeometry::Hull(d.u32()?),
        8 => ShapeGeometry::Mesh(d.u32()?),
        4 => {
            let c = crate::geometry::Cylinder {
                center: d.vec3()?,
                rotation: d.quat()?,
                half_height: d.f32()?,
                radius: d.f32()?,
            };
            check(
                size(c.half_height) && size(c.radius) && local(c.center),
                "cylinder out of range",
            )?;
            check(
                c.rotation.is_normalized(1e-3),
                "cylinder rotation is not a unit quaternion",
            )?;
            ShapeGeometry::Cylinder(c)
        }
        5 => {
            let p = crate::geometry::PlaneShape {
                normal: d.vec3()?,
                offset: d.f32()?,
            };
            let n2 = p.normal.dot(p.normal);
            check(
                (n2 - 1.0).abs() <= 1e-3 && p.offset.abs() <= 1.0e6,
                "plane out of range",
            )?;
            ShapeGeometry::Plane(p)
        }
        _ => return Err(Error::Format("unknown shape kind")),
    })
}

/// Reads a free list into `out` (on commit). `info` holds one word per slot of the pool:
/// bit 0 set for live slots; bit 63 marks slots already listed.
fn decode_free_list(
    d: &mut Dec,
    info: &mut [u64],
    commit: bool,
    out: &mut crate::alloc::FixedVec<u32>,
) -> Result<()> {
    let n = d.u32()? as usize;
    check(n <= info.len(), "free list longer than its pool")?;
    if commit {
        out.clear();
    }
    for _ in 0..n {
        let s = d.u32()? as usize;
        check(
            s < info.len() && info[s] & 1 == 0,
            "free list names a live or missing slot",
        )?;
        check(info[s] >> 63 == 0, "free list names a slot twice")?;
        info[s] |= 1 << 63;
        if commit {
            let ok = out.push(s as u32);
            debug_assert!(ok);
        }
    }
    Ok(())
}

/// Stores `item` at slot `i` of a pool being rebuilt in slot order.
fn put<T>(pool: &mut crate::alloc::FixedVec<T>, i: usize, item: T) {
    if i < pool.len() {
        pool[i] = item;
    } else {
        let ok = pool.push(item);
        debug_assert!(ok);
    }
}

/// Snapshot header facts.
struct Header {
    payload: usize,
    revision: u32,
}

/// Checks a snapshot's header and checksum and splits its payload into the state (with
/// host data) and the journal section (revision 7 on; none in revision 6).
pub(crate) fn split_snapshot(
    buf: &[u8],
) -> Result<(&[u8], Option<crate::journal::SnapshotJournal>)> {
    use crate::journal::{SNAPSHOT_JOURNAL_SIZE, SnapshotJournal};
    let h = read_header(buf)?;
    let payload = &buf[SNAPSHOT_HEADER_SIZE..SNAPSHOT_HEADER_SIZE + h.payload];
    if h.revision == OLDEST_READ_REVISION {
        return Ok((payload, None));
    }
    check(
        payload.len() >= SNAPSHOT_JOURNAL_SIZE,
        "snapshot shorter than its journal section",
    )?;
    let (state, section) = payload.split_at(payload.len() - SNAPSHOT_JOURNAL_SIZE);
    Ok((state, SnapshotJournal::decode(section)?))
}

fn read_header(buf: &[u8]) -> Result<Header> {
    check(
        buf.len() >= SNAPSHOT_HEADER_SIZE,
        "snapshot shorter than its header",
    )?;
    check(buf[0..8] == MAGIC, "not a Maul3D snapshot (bad magic)")?;
    let rev = u32::from_le_bytes([buf[8], buf[9], buf[10], buf[11]]);
    let header_size = u32::from_le_bytes([buf[12], buf[13], buf[14], buf[15]]) as usize;
    let mut p = [0u8; 8];
    p.copy_from_slice(&buf[16..24]);
    let payload = u64::from_le_bytes(p);
    p.copy_from_slice(&buf[24..32]);
    let checksum = u64::from_le_bytes(p);
    if rev != SNAPSHOT_REVISION && rev != OLDEST_READ_REVISION {
        // A revision we do not read; but a flipped bit in the revision field must not
        // pass for a version problem: the checksum covers the payload only, so also
        // require the rest of the header to be consistent.
        if header_size == SNAPSHOT_HEADER_SIZE
            && payload == (buf.len() - SNAPSHOT_HEADER_SIZE) as u64
        {
            let mut f = Fnv::new();
            f.put(&buf[SNAPSHOT_HEADER_SIZE..]);
            if f.finish() == checksum {
                return Err(Error::Version {
                    found: rev,
                    expected: SNAPSHOT_REVISION,
                });
            }
        }
        return Err(Error::Format("snapshot header is damaged"));
    }
    check(
        header_size == SNAPSHOT_HEADER_SIZE,
        "snapshot header size is wrong",
    )?;
    check(
        payload == (buf.len() - SNAPSHOT_HEADER_SIZE) as u64,
        "snapshot length does not match its header",
    )?;
    let mut f = Fnv::new();
    f.put(&buf[SNAPSHOT_HEADER_SIZE..]);
    check(f.finish() == checksum, "snapshot checksum mismatch")?;
    Ok(Header {
        payload: payload as usize,
        revision: rev,
    })
}

/// One row of `World::compare`: a body slot whose state differs between two worlds.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct BodyDiff {
    /// The body slot (an id's index minus one).
    pub slot: u32,
    /// Alive in the first world.
    pub alive_in_a: bool,
    /// Alive in the second world.
    pub alive_in_b: bool,
    /// Distance between the positions (infinite if alive in one world only).
    pub position_error: f64,
    /// Angle between the rotations, radians.
    pub rotation_error: f32,
    /// Length of the linear plus the angular velocity difference.
    pub velocity_error: f32,
}

impl BodyDiff {
    fn worse_than(&self, o: &BodyDiff) -> bool {
        if self.position_error != o.position_error {
            return self.position_error > o.position_error;
        }
        if self.rotation_error != o.rotation_error {
            return self.rotation_error > o.rotation_error;
        }
        if self.velocity_error != o.velocity_error {
            return self.velocity_error > o.velocity_error;
        }
        self.slot < o.slot
    }
}

impl World {
    /// Folds the whole simulation state into 64 bits (FNV-1a over the canonical
    /// encoding). Equal hashes mean equal worlds; user data, events, counters, trees and
    /// the profile are left out.
    pub fn hash(&self) -> u64 {
        let mut f = Fnv::new();
        encode_state(self, &mut Enc(&mut f));
        f.finish()
    }

    /// Bytes `snapshot` needs.
    pub fn snapshot_size(&self) -> usize {
        let mut c = Count(0);
        encode_state(self, &mut Enc(&mut c));
        encode_host_data(self, &mut Enc(&mut c));
        SNAPSHOT_HEADER_SIZE + c.0 + crate::journal::SNAPSHOT_JOURNAL_SIZE
    }

    /// Writes the world's state into `buf` (header with format revision, sizes and a
    /// checksum, then the state, the host's user data and the journal section: which
    /// journal runs and where its tape stands, outside the hashed state); returns the
    /// length written.
    /// A buffer smaller than `snapshot_size()` is refused with a capacity error.
    pub fn snapshot(&self, buf: &mut [u8]) -> Result<usize> {
        let size = self.snapshot_size();
        if buf.len() < size {
            return Err(Error::Argument {
                name: "snapshot buffer length",
                value: buf.len() as f64,
                expected: "at least snapshot_size() bytes",
            });
        }
        let (head, rest) = buf.split_at_mut(SNAPSHOT_HEADER_SIZE);
        let mut out = Out {
            buf: rest,
            pos: 0,
            fnv: Fnv::new(),
        };
        encode_state(self, &mut Enc(&mut out));
        encode_host_data(self, &mut Enc(&mut out));
        crate::journal::SnapshotJournal::encode(self.journal_mark(), &mut Enc(&mut out));
        let payload = out.pos;
        let checksum = out.fnv.finish();
        head[0..8].copy_from_slice(&MAGIC);
        head[8..12].copy_from_slice(&SNAPSHOT_REVISION.to_le_bytes());
        head[12..16].copy_from_slice(&(SNAPSHOT_HEADER_SIZE as u32).to_le_bytes());
        head[16..24].copy_from_slice(&(payload as u64).to_le_bytes());
        head[24..32].copy_from_slice(&checksum.to_le_bytes());
        Ok(SNAPSHOT_HEADER_SIZE + payload)
    }

    /// The def (capacities and settings) a snapshot was taken with, so a verifier in
    /// another process can create the right world. Hooks and allocator are left `None`.
    pub fn def_from_snapshot(buf: &[u8]) -> Result<WorldDef> {
        let (payload, _) = split_snapshot(buf)?;
        let mut d = Dec {
            buf: payload,
            pos: 0,
        };
        decode_def(&mut d)
    }

    /// Brings this world to exactly the state of a snapshot (hash included). The world
    /// must have the snapshot's capacities. A damaged snapshot is refused with a format
    /// error, another revision with a version error; a refused restore changes nothing.
    ///
    /// Rollback-aware journals: while a journal runs, a snapshot that journal took rewinds
    /// its tape to where the snapshot was taken (the tape then holds the history the world
    /// lived); any other snapshot — taken with no journal running, by another journal, or
    /// on a branch the tape has since been rewound past — is refused with a state error
    /// naming the journal. With no journal running, the journal section is ignored.
    pub fn restore(&mut self, buf: &[u8]) -> Result<()> {
        let (payload, mark) = split_snapshot(buf)?;
        // Validate everything first, then commit: nothing changes on a refusal.
        self.decode(payload, false)?;
        let rewind = self.check_journal_restore(mark)?;
        self.decode(payload, true)?;
        self.rebuild_derived();
        if let Some(m) = rewind {
            self.rewind_journal(m);
        }
        Ok(())
    }

    /// Decodes the payload; with `commit` false it only validates.
    #[allow(clippy::needless_range_loop)] // slots are indices into several pools at once Both passes run the
    /// same code, so what the dry run accepts the commit applies whole.
    fn decode(&mut self, payload: &[u8], commit: bool) -> Result<()> {
        let mut d = Dec {
            buf: payload,
            pos: 0,
        };
        let def = decode_def(&mut d)?;
        let same = def.body_capacity == self.def.body_capacity
            && def.shape_capacity == self.def.shape_capacity
            && def.contact_capacity == self.def.contact_capacity
            && def.pair_capacity == self.def.pair_capacity
            && def.hull_capacity == self.def.hull_capacity
            && def.event_capacity == self.def.event_capacity
            && def.sensor_capacity == self.def.sensor_capacity
            && def.joint_capacity == self.def.joint_capacity
            && def.mesh_capacity == self.def.mesh_capacity
            && def.content_capacity == self.def.content_capacity;
        if !same {
            return Err(Error::State(
                "restore needs a world with the snapshot's capacities (see def_from_snapshot)",
            ));
        }
        // The settings World::new accepts, and no others.
        crate::world::check_settings(&def)
            .map_err(|_| Error::Format("world settings out of range"))?;
        let step_index = d.u64()?;
        let origin = [d.i64()?, d.i64()?, d.i64()?];
        // Revision 6's out-of-bounds body (see `encode_state`): read and dropped.
        let out_of_bounds = if d.bool()? {
            Some((d.u32()?, d.f64()?))
        } else {
            None
        };

        // One scratch word per slot of every pool (not state; reserved at create).
        let hc = self.def.hull_capacity as usize;
        let mc = self.def.mesh_capacity as usize;
        let bc = self.def.body_capacity as usize;
        let sc = self.def.shape_capacity as usize;
        let cc = self.def.contact_capacity as usize;
        let info = &mut self.restore_info;
        for w in info.iter_mut() {
            *w = 0;
        }
        let (hull_info, rest) = info.split_at_mut(hc);
        let (mesh_info, rest) = rest.split_at_mut(mc);
        let (body_info, rest) = rest.split_at_mut(bc);
        let (shape_info, rest) = rest.split_at_mut(sc);
        let (contact_info, joint_info) = rest.split_at_mut(cc);

        // Hulls: content; the topology is rebuilt (and must build).
        let hull_len = d.u32()? as usize;
        check(hull_len <= hc, "more hull slots than the capacity")?;
        let mut scratch = Hull::default();
        for i in 0..hull_len {
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
                    (4..=MAX_HULL_POINTS).contains(&n),
                    "hull point count out of range",
                )?;
                for p in &mut slot.points[..n] {
                    *p = d.vec3()?;
                }
                slot.point_count = n as u32;
                let target = if commit { &mut slot.hull } else { &mut scratch };
                crate::geometry::quickhull::build_hull(&slot.points[..n], target)
                    .map_err(|_| Error::Format("hull points do not build a hull"))?;
                hull_info[i] = 1;
            }
            if commit {
                put(&mut self.hulls, i, slot);
            }
        }
        decode_free_list(
            &mut d,
            &mut hull_info[..hull_len],
            commit,
            &mut self.hull_free,
        )?;

        // Meshes and height fields: content, validated as the create calls validate it;
        // trees and edge flags are rebuilt (kept when the slot already holds the same
        // content, as after a rollback).
        let mesh_len = d.u32()? as usize;
        check(mesh_len <= mc, "more mesh slots than the capacity")?;
        let mut content_used = 0u64;
        let (mut verts, mut tris) = (std::vec::Vec::new(), std::vec::Vec::new());
        let (mut heights, mut holes) = (std::vec::Vec::new(), std::vec::Vec::new());
        for i in 0..mesh_len {
            let generation = d.u32()?;
            let alive = d.bool()?;
            let mut data = None;
            if alive {
                let kind = d.u8()?;
                let bytes;
                match kind {
                    0 => {
                        crate::journal::decode_mesh(&mut d, &mut verts, &mut tris)?;
                        crate::geometry::mesh::validate_mesh(&verts, &tris)
                            .map_err(|_| Error::Format("mesh content invalid"))?;
                        bytes = crate::geometry::mesh::mesh_content_bytes(
                            verts.len() as u64,
                            tris.len() as u64,
                        );
                        let same = self.meshes.get(i).is_some_and(|m| {
                            m.alive
                                && m.generation == generation
                                && matches!(m.get(), Some(MeshData::Mesh(old))
                                    if *old.vertices == *verts && *old.triangles == *tris)
                        });
                        if commit && !same {
                            data = Some(MeshData::Mesh(crate::geometry::mesh::TriMesh::build(
                                &verts, &tris, self.alloc,
                            )?));
                        }
                    }
                    1 => {
                        let (count_x, count_z, scale) =
                            crate::journal::decode_height_field(&mut d, &mut heights, &mut holes)?;
                        let def = HeightFieldDef {
                            count_x,
                            count_z,
                            heights: &heights,
                            holes: &holes,
                            scale,
                        };
                        crate::geometry::height_field::validate_height_field(&def)
                            .map_err(|_| Error::Format("height field content invalid"))?;
                        bytes = crate::geometry::height_field::height_field_content_bytes(
                            count_x,
                            count_z,
                            holes.iter().any(|&h| h),
                        );
                        check(
                            holes.is_empty() || holes.iter().any(|&h| h),
                            "height field hole bits without a hole",
                        )?;
                        if commit {
                            data = Some(MeshData::HeightField(
                                crate::geometry::height_field::HeightField::build(
                                    &def, self.alloc,
                                )?,
                            ));
                        }
                    }
                    2 => {
                        let size = d.f32()?;
                        let origin = d.vec3()?;
                        let voxels = d.take::<{ crate::geometry::voxel::CHUNK_VOXELS }>()?;
                        crate::geometry::voxel::VoxelChunk::validate(size, &voxels)
                            .map_err(|_| Error::Format("voxel grid content invalid"))?;
                        check(
                            origin.x.abs() <= 1.0e6
                                && origin.y.abs() <= 1.0e6
                                && origin.z.abs() <= 1.0e6,
                            "voxel grid origin beyond 1e6",
                        )?;
                        bytes = crate::geometry::voxel::VoxelChunk::content_size_bytes() as u64;
                        if commit {
                            // A grid already in the slot is refilled in place (no
                            // allocation on rollback); the boxes are rebuilt either way.
                            let reuse =
                                self.meshes.get_mut(i).and_then(|m| match m.data.as_mut() {
                                    Some(MeshData::Voxels(g)) if m.alive => Some(g),
                                    _ => None,
                                });
                            match reuse {
                                Some(g) => {
                                    g.origin = origin;
                                    g.chunk[0].reset(size, &voxels)?;
                                    // Kept: `data` stays `None` like an unchanged mesh.
                                    self.meshes[i].generation = generation;
                                }
                                None => {
                                    data =
                                        Some(MeshData::Voxels(crate::content::VoxelGrid::build(
                                            size, &voxels, origin, self.alloc,
                                        )?));
                                }
                            }
                        }
                    }
                    _ => return Err(Error::Format("unknown mesh kind")),
                }
                content_used += bytes;
                check(
                    content_used <= self.def.content_capacity,
                    "content beyond content_capacity",
                )?;
                mesh_info[i] = 1;
            }
            if commit {
                if alive && data.is_none() {
                    // Same content as the slot holds: keep what was built from it.
                    self.meshes[i].ref_count = 0;
                } else {
                    put(
                        &mut self.meshes,
                        i,
                        MeshSlot {
                            generation,
                            alive,
                            ref_count: 0,
                            data,
                        },
                    );
                }
            }
        }
        decode_free_list(
            &mut d,
            &mut mesh_info[..mesh_len],
            commit,
            &mut self.mesh_free,
        )?;
        if commit {
            self.content_used = content_used;
        }

        // Bodies.
        let body_len = d.u32()? as usize;
        check(body_len <= bc, "more body slots than the capacity")?;
        for i in 0..body_len {
            let generation = d.u32()?;
            let alive = d.bool()?;
            let mut b = Body::from_def(&BodyDef::default(), generation);
            b.alive = alive;
            if alive {
                b.body_type = match d.u8()? {
                    0 => BodyType::Static,
                    1 => BodyType::Kinematic,
                    2 => BodyType::Dynamic,
                    _ => return Err(Error::Format("unknown body type")),
                };
                b.enabled = d.bool()?;
                b.awake = d.bool()?;
                b.enable_sleep = d.bool()?;
                b.bullet = d.bool()?;
                let locks = d.u8()?;
                check(locks < 64, "unknown motion lock bits")?;
                b.locks = MotionLocks::from_bits(locks);
                b.custom_integrator = d.bool()?;
                b.position = d.dvec3()?;
                check(
                    b.position.max_abs() < POSITION_LIMIT,
                    "body position beyond 2^22",
                )?;
                b.rotation = d.quat()?;
                check(
                    b.rotation.is_normalized(1e-3),
                    "body rotation is not a unit quaternion",
                )?;
                b.linear_velocity = d.vec3()?;
                b.angular_velocity = d.vec3()?;
                b.force = d.vec3()?;
                b.torque = d.vec3()?;
                b.linear_damping = d.f32()?;
                b.angular_damping = d.f32()?;
                b.gravity_scale = d.f32()?;
                b.sleep_threshold = d.f32()?;
                b.sleep_time = d.f32()?;
                // The ranges the calls accept (crate::limits), so a restored state steps
                // without overflow like any other.
                use crate::limits::*;
                let in_range = |v: Vec3, bound: f32| check_vec_abs("", v, bound, "").is_ok();
                check(
                    in_range(b.linear_velocity, MAX_VELOCITY)
                        && in_range(b.angular_velocity, MAX_VELOCITY)
                        && in_range(b.force, MAX_FORCE)
                        && in_range(b.torque, MAX_FORCE)
                        && check_nonneg("", b.linear_damping, MAX_SETTING, "").is_ok()
                        && check_nonneg("", b.angular_damping, MAX_SETTING, "").is_ok()
                        && check_abs("", b.gravity_scale, MAX_GRAVITY, "").is_ok()
                        && check_nonneg("", b.sleep_threshold, MAX_SETTING, "").is_ok()
                        && b.sleep_time >= 0.0,
                    "body velocity, force, damping or threshold out of range",
                )?;
                b.mass_override = if d.bool()? {
                    let m = MassData {
                        mass: d.f32()?,
                        center: d.vec3()?,
                        inertia: d.mat3()?,
                    };
                    crate::limits::check_mass_data(&m)
                        .map_err(|_| Error::Format("mass override invalid"))?;
                    Some(m)
                } else {
                    None
                };
                // Bit 1: static (a plane shape needs it).
                body_info[i] = if b.body_type == BodyType::Static {
                    3
                } else {
                    1
                };
            }
            if commit {
                put(&mut self.bodies, i, b);
            }
        }
        decode_free_list(
            &mut d,
            &mut body_info[..body_len],
            commit,
            &mut self.body_free,
        )?;
        if let Some((b, _)) = out_of_bounds {
            check(
                (b as usize) < body_len && body_info[b as usize] & 1 == 1,
                "out-of-bounds body is missing",
            )?;
        }

        // Shapes.
        let shape_len = d.u32()? as usize;
        check(shape_len <= sc, "more shape slots than the capacity")?;
        for i in 0..shape_len {
            let generation = d.u32()?;
            let alive = d.bool()?;
            let mut s = blank_shape(generation);
            if alive {
                s.alive = true;
                s.body = d.u32()?;
                check(
                    (s.body as usize) < body_len && body_info[s.body as usize] & 1 == 1,
                    "shape on a missing body",
                )?;
                s.geometry = decode_geometry(&mut d)?;
                if let ShapeGeometry::Hull(h) = s.geometry {
                    check(
                        (h as usize) < hull_len && hull_info[h as usize] & 1 == 1,
                        "shape on a missing hull",
                    )?;
                }
                if let ShapeGeometry::Mesh(m) = s.geometry {
                    check(
                        (m as usize) < mesh_len && mesh_info[m as usize] & 1 == 1,
                        "shape on a missing mesh",
                    )?;
                    check(!s.is_sensor, "a mesh shape that is a sensor")?;
                }
                if let ShapeGeometry::Plane(_) = s.geometry {
                    check(
                        body_info[s.body as usize] & 2 == 2,
                        "plane shape on a body that is not static",
                    )?;
                }
                s.density = d.f32()?;
                s.friction = d.f32()?;
                s.restitution = d.f32()?;
                s.rolling_resistance = d.f32()?;
                {
                    use crate::limits::*;
                    let ok = |v: f32| check_nonneg("", v, MAX_MATERIAL, "").is_ok();
                    check(
                        check_nonneg("", s.density, MAX_DENSITY, "").is_ok()
                            && ok(s.friction)
                            && ok(s.restitution)
                            && ok(s.rolling_resistance),
                        "shape material out of range",
                    )?;
                }
                s.filter = Filter {
                    category_bits: d.u64()?,
                    mask_bits: d.u64()?,
                    group_index: d.i32()?,
                };
                s.enable_contact_events = d.bool()?;
                s.is_sensor = d.bool()?;
                s.enable_sensor_events = d.bool()?;
                s.enable_hit_events = d.bool()?;
                s.enable_pre_solve = d.bool()?;
                s.area = crate::journal::decode_area(&mut d)?;
                check(
                    s.area.is_none() || s.is_sensor,
                    "an area that is not a sensor",
                )?;
                s.fat_aabb = d.daabb()?;
                let a = &s.fat_aabb;
                check(
                    a.lower.x <= a.upper.x && a.lower.y <= a.upper.y && a.lower.z <= a.upper.z,
                    "shape bounds inverted",
                )?;
                s.enlarged = d.bool()?;
                shape_info[i] = 1
                    | (s.geometry.kind() as u64) << 1
                    | (s.body as u64) << 8
                    | (s.is_sensor as u64) << 61;
            }
            if commit {
                put(&mut self.shapes, i, s);
            }
        }
        decode_free_list(
            &mut d,
            &mut shape_info[..shape_len],
            commit,
            &mut self.shape_free,
        )?;

        // Contacts.
        let contact_len = d.u32()? as usize;
        check(
            contact_len <= contact_info.len(),
            "more contact slots than the capacity",
        )?;
        let keys = &mut self.broad.restore_keys;
        keys.clear();
        for i in 0..contact_len {
            let alive = d.bool()?;
            let mut c = Contact::default();
            if alive {
                c.alive = true;
                c.shape_a = d.u32()?;
                c.shape_b = d.u32()?;
                let (sa, sb) = (c.shape_a as usize, c.shape_b as usize);
                check(
                    sa < shape_len
                        && sb < shape_len
                        && shape_info[sa] & 1 == 1
                        && shape_info[sb] & 1 == 1,
                    "contact on a missing shape",
                )?;
                let (ka, kb) = ((shape_info[sa] >> 1) & 0x7f, (shape_info[sb] >> 1) & 0x7f);
                c.body_a = (shape_info[sa] >> 8) as u32;
                c.body_b = (shape_info[sb] >> 8) as u32;
                check(c.body_a != c.body_b, "contact between shapes of one body")?;
                c.child = d.u32()?;
                c.parent = d.u32()?;
                // Shape A has the higher kind, or the lower slot for equal kinds.
                check(
                    ka > kb || (ka == kb && sa < sb),
                    "contact shapes in the wrong order",
                )?;
                let key = if c.child == NONE {
                    check(c.parent == NONE, "a contact with a parent but no child")?;
                    crate::broad_phase::pair_set::pair_key(c.shape_a, c.shape_b)
                } else {
                    check(
                        ka == ShapeGeometry::Mesh(0).kind() as u64
                            && (c.parent as usize) < contact_len
                            && c.parent as usize != i,
                        "a child contact without a mesh parent",
                    )?;
                    crate::contact::child_key(c.parent, c.child)
                };
                let ok = keys.push(key);
                debug_assert!(ok);
                if d.bool()? {
                    c.flags |= CONTACT_TOUCHING;
                }
                c.normal = d.vec3()?;
                let n = d.u8()? as usize;
                check(n <= 4, "more than four manifold points")?;
                c.point_count = n as u8;
                for p in &mut c.points[..n] {
                    *p = ContactPoint {
                        anchor_a: d.vec3()?,
                        anchor_b: d.vec3()?,
                        separation: d.f32()?,
                        normal_impulse: d.f32()?,
                        tangent_impulse: d.vec3()?,
                        max_normal_impulse: 0.0,
                        id: d.u32()?,
                    };
                }
                c.rolling_impulse = d.vec3()?;
                c.cache = SatCache {
                    kind: d.u8()?,
                    index_a: d.u16()?,
                    index_b: d.u16()?,
                    separation_bits: d.u32()?,
                };
                check(c.cache.kind <= 3, "unknown SAT cache kind")?;
                contact_info[i] = 1 | (c.shape_b as u64) << 26;
                if c.child != NONE {
                    contact_info[i] |= 2 | (c.parent as u64) << 2;
                }
            }
            if commit {
                put(&mut self.contacts, i, c);
            }
        }
        keys.sort_unstable();
        for k in 1..keys.len() {
            check(keys[k] != keys[k - 1], "two contacts for one shape pair")?;
        }
        // A child's parent is a live contact that is no child, with the same shape B.
        for i in 0..contact_len {
            let w = contact_info[i];
            if w & 3 == 3 {
                let p = ((w >> 2) & 0xff_ffff) as usize;
                let pw = contact_info[p];
                check(
                    pw & 3 == 1 && (pw >> 26) & 0xff_ffff == (w >> 26) & 0xff_ffff,
                    "a child contact whose parent is missing",
                )?;
            }
        }
        decode_free_list(
            &mut d,
            &mut contact_info[..contact_len],
            commit,
            &mut self.contact_free,
        )?;

        // Sensor overlaps: sorted, each a live sensor and a live non-sensor shape.
        let n = d.u32()? as usize;
        check(
            n <= self.def.sensor_capacity as usize,
            "more sensor overlaps than the capacity",
        )?;
        if commit {
            self.sensor_pairs.clear();
        }
        let mut last = None;
        for _ in 0..n {
            let key = d.u64()?;
            let (a, b) = ((key >> 32) as usize, (key & 0xffff_ffff) as usize);
            check(
                a < shape_len
                    && b < shape_len
                    && a != b
                    && shape_info[a] & 1 == 1
                    && shape_info[b] & 1 == 1
                    && (shape_info[a] >> 61) & 1 == 1
                    && (shape_info[b] >> 61) & 1 == 0,
                "sensor overlap names a missing shape",
            )?;
            check(last.is_none_or(|l| key > l), "sensor overlaps out of order")?;
            last = Some(key);
            if commit {
                let ok = self.sensor_pairs.push(key);
                debug_assert!(ok);
            }
        }

        // Host data: user data of live bodies, then of live shapes.
        // Joints.
        let joint_len = d.u32()? as usize;
        check(
            joint_len <= joint_info.len(),
            "more joint slots than the capacity",
        )?;
        for i in 0..joint_len {
            let generation = d.u32()?;
            let alive = d.bool()?;
            let mut j = Joint::dead(generation);
            if alive {
                j.alive = true;
                j.body_a = d.u32()?;
                j.body_b = d.u32()?;
                let live = |b: u32| (b as usize) < body_len && body_info[b as usize] & 1 == 1;
                check(
                    live(j.body_a) && live(j.body_b) && j.body_a != j.body_b,
                    "joint on a missing body, or on one body twice",
                )?;
                j.frame_a = decode_transform(&mut d)?;
                j.frame_b = decode_transform(&mut d)?;
                j.collide_connected = d.bool()?;
                j.break_force = d.f32()?;
                j.break_torque = d.f32()?;
                j.kind = decode_kind(&mut d)?;
                j.broken = d.bool()?;
                j.impulses = decode_impulses(&mut d, &j.kind)?;
                j.reaction_force = d.vec3()?;
                j.reaction_torque = d.vec3()?;
                crate::joint::check_decoded(&j)?;
                joint_info[i] = 1;
            }
            if commit {
                put(&mut self.joints, i, j);
            }
        }
        decode_free_list(
            &mut d,
            &mut joint_info[..joint_len],
            commit,
            &mut self.joint_free,
        )?;

        // Host data: user data of live bodies, then of live shapes, then of live joints.
        for i in 0..body_len {
            if body_info[i] & 1 == 1 {
                let v = d.u64()?;
                if commit {
                    self.bodies[i].user_data = v;
                }
            }
        }
        for i in 0..shape_len {
            if shape_info[i] & 1 == 1 {
                let v = d.u64()?;
                if commit {
                    self.shapes[i].user_data = v;
                }
            }
        }
        for i in 0..joint_len {
            if joint_info[i] & 1 == 1 {
                let v = d.u64()?;
                if commit {
                    self.joints[i].user_data = v;
                }
            }
        }
        check(d.pos == d.buf.len(), "bytes after the end of the snapshot")?;

        if commit {
            self.hulls.truncate(hull_len);
            self.meshes.truncate(mesh_len);
            self.bodies.truncate(body_len);
            self.shapes.truncate(shape_len);
            self.contacts.truncate(contact_len);
            self.joints.truncate(joint_len);
            let allocator = self.def.allocator;
            let task_hooks = self.def.task_hooks;
            self.def = WorldDef {
                allocator,
                task_hooks,
                ..def
            };
            self.step_index = step_index;
            self.origin = origin;
        }
        Ok(())
    }

    /// Rebuilds what is recomputed from state: hull topology (done while decoding), box
    /// hulls, mass, lists, the pair set, trees and the move buffer.
    fn rebuild_derived(&mut self) {
        for h in self.hulls.iter_mut() {
            h.ref_count = 0;
        }
        for m in self.meshes.iter_mut() {
            m.ref_count = 0;
        }
        for b in self.bodies.iter_mut() {
            b.shape_head = NONE;
            b.shape_count = 0;
            b.contact_head = NONE;
            b.contact_count = 0;
            b.joint_head = NONE;
            b.joint_count = 0;
        }
        self.broad.statics.clear();
        self.broad.movable.clear();
        self.broad.moved.clear();
        // Shapes in descending slot order, each prepended: lists end up ascending.
        for s in (0..self.shapes.len()).rev() {
            if !self.shapes[s].alive {
                continue;
            }
            let shape = &mut self.shapes[s];
            shape.box_hull = match shape.geometry {
                ShapeGeometry::Box(b) => BoxHull::new(b.half, b.center, b.rotation),
                _ => BoxHull::default(),
            };
            if let ShapeGeometry::Hull(h) = shape.geometry {
                self.hulls[h as usize].ref_count += 1;
            }
            shape.mesh_bounds = Default::default();
            if let ShapeGeometry::Mesh(m) = shape.geometry {
                self.meshes[m as usize].ref_count += 1;
                shape.mesh_bounds = crate::content::mesh_data(&self.meshes, m)
                    .map_or(Default::default(), |d| d.bounds());
            }
            shape.mass_data = crate::shape::compute_mass(
                &shape.geometry,
                &shape.box_hull,
                &self.hulls,
                shape.density,
            );
            let body = shape.body as usize;
            shape.next_in_body = self.bodies[body].shape_head;
            self.bodies[body].shape_head = s as u32;
            self.bodies[body].shape_count += 1;
        }
        // Proxies in shape slot order (the trees' shape differs from before; nothing
        // depends on it), and the move buffer from the enlarged flags.
        for s in 0..self.shapes.len() {
            let shape = &self.shapes[s];
            if !shape.alive {
                continue;
            }
            let body = &self.bodies[shape.body as usize];
            let tree = crate::broad_phase::tree_for(body.body_type);
            let proxy = if body.enabled {
                let fat = shape.fat_aabb;
                self.broad
                    .tree_mut(tree)
                    .create_proxy(fat, s as u32)
                    .unwrap_or(NONE)
            } else {
                NONE
            };
            let enlarged = self.shapes[s].enlarged;
            let shape = &mut self.shapes[s];
            shape.proxy = proxy;
            shape.tree = tree;
            if enlarged {
                let ok = self.broad.moved.push(s as u32);
                debug_assert!(ok);
            }
        }
        let mut counts = (0u32, 0u32, 0u32, 0u32);
        for b in 0..self.bodies.len() {
            if self.bodies[b].alive {
                counts.0 += 1;
                self.update_body_mass(b as u32);
            }
        }
        counts.1 = self.shapes.iter().filter(|s| s.alive).count() as u32;
        counts.3 = self.hulls.iter().filter(|h| h.alive).count() as u32;
        self.mesh_count = self.meshes.iter().filter(|m| m.alive).count() as u32;
        self.pair_set.clear();
        for c in 0..self.contacts.len() {
            if !self.contacts[c].alive {
                continue;
            }
            counts.2 += 1;
            let (sa, sb) = (self.contacts[c].shape_a, self.contacts[c].shape_b);
            let events = self.shapes[sa as usize].enable_contact_events
                || self.shapes[sb as usize].enable_contact_events;
            if events {
                self.contacts[c].flags |= CONTACT_EVENTS;
            }
            self.contacts[c].edges = [ContactEdge {
                body: NONE,
                prev: NONE,
                next: NONE,
            }; 2];
            self.contacts[c].child_touching = 0;
            let key = if self.contacts[c].child == NONE {
                crate::broad_phase::pair_set::pair_key(sa, sb)
            } else {
                crate::contact::child_key(self.contacts[c].parent, self.contacts[c].child)
            };
            self.pair_set.insert(key, c as u32);
            self.link_contact(c as u32);
        }
        // Children never report their own events: their parent does, from how many of
        // them touch.
        for c in 0..self.contacts.len() {
            let contact = &self.contacts[c];
            if contact.alive && contact.child != NONE {
                let (p, touching) = (contact.parent, contact.flags & CONTACT_TOUCHING != 0);
                self.contacts[c].flags &= !CONTACT_EVENTS;
                if touching {
                    self.contacts[p as usize].child_touching += 1;
                }
            }
        }
        let mut joints = 0;
        for j in 0..self.joints.len() {
            if self.joints[j].alive {
                joints += 1;
                self.link_joint(j as u32);
            }
        }
        self.joint_count = joints;
        self.body_count = counts.0;
        self.shape_count = counts.1;
        self.contact_count = counts.2;
        self.hull_count = counts.3;
        self.begin_events.clear();
        self.end_events.clear();
        self.joint_break_events.clear();
        self.rebuild_awake_set();
        self.counters = Default::default();
    }

    /// Lists the body slots whose state differs between two worlds, worst first (by
    /// position, then rotation, then velocity error), including bodies alive in only one
    /// of them. Fills up to `rows.len()` rows and returns how many slots differ.
    pub fn compare(a: &World, b: &World, rows: &mut [BodyDiff]) -> usize {
        let n = a.bodies.len().max(b.bodies.len());
        let mut count = 0;
        let mut filled = 0;
        for slot in 0..n {
            let ba = a.bodies.get(slot).filter(|x| x.alive);
            let bb = b.bodies.get(slot).filter(|x| x.alive);
            let diff = match (ba, bb) {
                (None, None) => continue,
                (Some(x), Some(y)) => {
                    let same = x.position == y.position
                        && x.rotation == y.rotation
                        && x.linear_velocity == y.linear_velocity
                        && x.angular_velocity == y.angular_velocity
                        && x.awake == y.awake
                        && x.generation == y.generation;
                    if same {
                        continue;
                    }
                    let dp = x.position - y.position;
                    let dot = x.rotation.x * y.rotation.x
                        + x.rotation.y * y.rotation.y
                        + x.rotation.z * y.rotation.z
                        + x.rotation.w * y.rotation.w;
                    BodyDiff {
                        slot: slot as u32,
                        alive_in_a: true,
                        alive_in_b: true,
                        position_error: (dp.x * dp.x + dp.y * dp.y + dp.z * dp.z).sqrt(),
                        rotation_error: 2.0 * crate::math::acos(dot.abs()),
                        velocity_error: (x.linear_velocity - y.linear_velocity).length()
                            + (x.angular_velocity - y.angular_velocity).length(),
                    }
                }
                (x, y) => BodyDiff {
                    slot: slot as u32,
                    alive_in_a: x.is_some(),
                    alive_in_b: y.is_some(),
                    position_error: f64::INFINITY,
                    rotation_error: f32::INFINITY,
                    velocity_error: f32::INFINITY,
                },
            };
            count += 1;
            // Keep the worst rows, sorted, by insertion.
            let mut i = filled;
            if filled < rows.len() {
                filled += 1;
            } else if rows.is_empty() || !diff.worse_than(&rows[rows.len() - 1]) {
                continue;
            } else {
                i = rows.len() - 1;
            }
            while i > 0 && diff.worse_than(&rows[i - 1]) {
                rows[i] = rows[i - 1];
                i -= 1;
            }
            rows[i] = diff;
        }
        count
    }

    /// The id a body slot has in this world, if alive (for rows of `compare`).
    pub fn body_id_at(&self, slot: u32) -> Option<BodyId> {
        self.bodies
            .get(slot as usize)
            .filter(|b| b.alive)
            .map(|_| self.body_id(slot))
    }
}

fn blank_shape(generation: u32) -> Shape {
    Shape {
        generation,
        alive: false,
        body: NONE,
        next_in_body: NONE,
        geometry: ShapeGeometry::Sphere(Sphere::default()),
        box_hull: BoxHull::default(),
        mesh_bounds: Default::default(),
        mass_data: MassData::default(),
        density: 0.0,
        friction: 0.0,
        restitution: 0.0,
        rolling_resistance: 0.0,
        filter: Filter::default(),
        enable_contact_events: false,
        is_sensor: false,
        enable_sensor_events: false,
        enable_hit_events: false,
        enable_pre_solve: false,
        area: None,
        user_data: 0,
        fat_aabb: DAabb::default(),
        enlarged: false,
        grew: false,
        proxy: NONE,
        tree: 0,
    }
}

/// A shape that is only a geometry (for queries): no body, no proxy.
pub(crate) fn probe_shape(geometry: ShapeGeometry) -> Shape {
    let mut s = blank_shape(0);
    s.alive = true;
    s.box_hull = match geometry {
        ShapeGeometry::Box(b) => BoxHull::new(b.half, b.center, b.rotation),
        _ => BoxHull::default(),
    };
    s.geometry = geometry;
    s
}
