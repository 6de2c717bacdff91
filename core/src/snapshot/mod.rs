//! Snapshots: the canonical encoding of a world's state, and the snapshot, restore and
//! def-from-snapshot built on it (their public calls are in the API layer, `crate::api`,
//! which closes a snapshot with the journal's section). The hash (`crate::hash`) folds the
//! same encoding.
//!
//! One encoding, field by field, little-endian, no `usize`, no padding (`crate::codec`),
//! serves both the hash and the snapshot. It holds everything that shapes the future —
//! settings and capacities, step count, origin, every id pool with its generations and
//! free list, bodies, shapes, hull points, contacts with their manifolds, impulses and SAT
//! caches, joints with their settings, impulses, last reactions and broken flags, the
//! broad phase's fat bounds and move buffer, sleep timers — and nothing that can be
//! recomputed from it (mass, inertia, hull topology, trees, body shape, contact and joint
//! lists, islands, colours) or that only observes (events, counters, profile). Host data
//! (user data) follows the state in a snapshot but is not hashed, and so does the journal
//! section (which journal ran and where its tape stood: `crate::journal`).
//!
//! Each store's part — its encoding, its checked decoding and what is rebuilt from it —
//! is a file of its own here, named for the store; this file holds the header, the order
//! of the stores and the restore sequence.
//!
//! A snapshot is a 32-byte header (magic `M3SNAPSH`, revision u32, header size u32,
//! payload size u64, FNV-1a-64 checksum of the payload u64), then the payload: the state,
//! the host data, the journal section.

use crate::codec::{Count, Dec, Enc, Fnv, Sink, check};
use crate::def::WorldDef;
use crate::error::{Error, Result};
use crate::world::World;

mod host;
mod settings;

use crate::store::bodies::codec as bodies;
use crate::store::characters::codec as characters;
use crate::store::contacts::codec as contacts;
use crate::store::content::codec as content;
use crate::store::joints::codec as joints;
use crate::store::sensors::codec as sensors;
use crate::store::shapes::codec as shapes;
use crate::store::soft::codec as soft;
use crate::store::vehicles::codec as vehicles;
use crate::store::water::codec as water;

use settings::decode_def;
pub(crate) use shapes::{decode_geometry, encode_geometry};

/// Layout revision of snapshots: bumped on any change to the encoding (7: the journal
/// section at the end of the payload; 8: the capacities at the head of the payload left
/// the hashed state and a restore takes any world that holds the snapshot — the bytes
/// are laid out as in 7, so 7 reads as 8; 9: the character, vehicle and water
/// capacities in the payload head, with whether the state holds their stores — 8 reads as
/// 9 with default capacities and none; 10: the soft body capacities, and a bit for the
/// soft body store — 9 reads as 10 with default soft capacities and no soft bodies; 11:
/// the bodies each soft body ignores, in the soft body store behind a third bit of the
/// stores byte (set only when one is ignored), and before that byte the bound on them,
/// `SOFT_BODY_EXCEPTIONS` — 10 reads as 11 with no body ignored; 12: a contact's
/// touching bool became a flags byte whose bit 1 marks a recyclable manifold, followed
/// after the SAT cache by the poses it was computed at and its points' base separations
/// — 11 reads as 12 with no manifold recyclable, so the bytes are the same).
pub const SNAPSHOT_REVISION: u32 = 12;
/// The first revision with the contacts' recycling state.
const REVISION_RECYCLE: u32 = 12;
/// The first revision with the character, vehicle and water stores.
const REVISION_EXTRAS: u32 = 9;
/// The first revision with the soft body store.
const REVISION_SOFT: u32 = 10;
/// The first revision with the soft bodies' ignored bodies.
const REVISION_SOFT_EXCEPTIONS: u32 = 11;
/// Revision 8, read as 9 (see `SNAPSHOT_REVISION`).
const REVISION_8: u32 = 8;
/// Revision 7, read as 8 (the same layout).
const REVISION_7: u32 = 7;
/// The oldest revision `restore` still reads: 6, the same state without the journal
/// section (read as taken with no journal running).
const OLDEST_READ_REVISION: u32 = 6;
const MAGIC: [u8; 8] = *b"M3SNAPSH";
/// Bytes before the payload: magic, revision, header size, payload size, checksum.
pub const SNAPSHOT_HEADER_SIZE: usize = 32;

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

/// The canonical state encoding (without host data), store by store. The order of the
/// stores and of each store's fields is the hash and the snapshot format. The capacities
/// are not in it (a snapshot writes them before it: `encode_payload_head`): they shape no
/// future bits while no pool overflows, and a world grows (`World::grow`) without
/// changing its hash.
pub(crate) fn encode_state<S: Sink>(w: &World, e: &mut Enc<S>) {
    settings::encode_settings(e, &w.def, w.step_index, &w.origin);
    content::encode_hulls(e, &w.content.hulls, &w.content.hulls.free);
    content::encode_meshes(e, &w.content.meshes, &w.content.meshes.free);
    bodies::encode_bodies(e, &w.bodies, &w.bodies.free);
    shapes::encode_shapes(e, &w.shapes, &w.shapes.free);
    contacts::encode_contacts(e, &w.contacts, &w.contacts.free);
    sensors::encode_sensor_pairs(e, &w.sensors.pairs);
    joints::encode_joints(e, &w.joints, &w.joints.free);
    // The stores of characters, vehicles and water volumes, once any of them has held
    // one: a world that never had one encodes (and hashes) as before they existed.
    if has_extras(w) {
        characters::encode(e, &w.characters);
        vehicles::encode(e, &w.vehicles);
        water::encode(e, &w.water);
    }
    // The soft body store the same way: once it has held one.
    if has_soft(w) {
        soft::encode(e, &w.soft, soft::has_exceptions(&w.soft));
    }
}

/// Whether the state holds the soft body store: once its pool has a slot.
fn has_soft(w: &World) -> bool {
    !w.soft.pool.is_empty()
}

/// Whether the state holds the character, vehicle and water stores: once any of their
/// pools has a slot.
fn has_extras(w: &World) -> bool {
    !(w.characters.is_empty() && w.vehicles.is_empty() && w.water.is_empty())
}

/// A snapshot's state: its bytes and the revision they were written in.
#[derive(Clone, Copy)]
pub(crate) struct State<'a> {
    pub(crate) bytes: &'a [u8],
    pub(crate) revision: u32,
}

/// The head of a snapshot's payload, before the state: the capacities, read back by
/// `def_from_snapshot` (not hashed).
fn encode_payload_head<S: Sink>(w: &World, e: &mut Enc<S>) {
    let stores = settings::Stores {
        extras: has_extras(w),
        soft: has_soft(w),
        soft_exceptions: has_soft(w) && soft::has_exceptions(&w.soft),
    };
    settings::encode_capacities(e, &w.def, stores);
}

fn encode_host_data<S: Sink>(w: &World, e: &mut Enc<S>) {
    host::encode_host_data(e, &w.bodies, &w.shapes, &w.joints);
}

/// The restore scratch (one word per slot of every pool), split per pool, zeroed. Each
/// store's decoder leaves in its words what the stores decoded after it check: bit 0 is
/// set for live slots (see each decoder for the other bits); bit 63 marks slots its free
/// list named.
struct SlotInfo<'a> {
    hulls: &'a mut [u64],
    meshes: &'a mut [u64],
    bodies: &'a mut [u64],
    shapes: &'a mut [u64],
    contacts: &'a mut [u64],
    joints: &'a mut [u64],
    characters: &'a mut [u64],
    vehicles: &'a mut [u64],
    water: &'a mut [u64],
    soft: &'a mut [u64],
}

impl<'a> SlotInfo<'a> {
    fn split(info: &'a mut [u64], def: &WorldDef) -> SlotInfo<'a> {
        for w in info.iter_mut() {
            *w = 0;
        }
        let (hulls, rest) = info.split_at_mut(def.hull_capacity as usize);
        let (meshes, rest) = rest.split_at_mut(def.mesh_capacity as usize);
        let (bodies, rest) = rest.split_at_mut(def.body_capacity as usize);
        let (shapes, rest) = rest.split_at_mut(def.shape_capacity as usize);
        let (contacts, rest) = rest.split_at_mut(def.contact_capacity as usize);
        let (joints, rest) = rest.split_at_mut(def.joint_capacity as usize);
        let (characters, rest) = rest.split_at_mut(def.character_capacity as usize);
        let (vehicles, rest) = rest.split_at_mut(def.vehicle_capacity as usize);
        let (water, soft) = rest.split_at_mut(def.water_capacity as usize);
        SlotInfo {
            hulls,
            meshes,
            bodies,
            shapes,
            contacts,
            joints,
            characters,
            vehicles,
            water,
            soft,
        }
    }
}

/// Whether slot words (as long as their pool) name `slot` live.
pub(crate) fn is_live(info: &[u64], slot: u32) -> bool {
    info.get(slot as usize).is_some_and(|w| w & 1 == 1)
}

/// Snapshot header facts.
struct Header {
    payload: usize,
    revision: u32,
}

/// Checks a snapshot's header and checksum and splits its payload into the state (with
/// host data) and the closing section of `section` bytes, the journal's (revision 7 on;
/// none in revision 6), which the API layer reads (`crate::api`).
pub(crate) fn split_snapshot(buf: &[u8], section: usize) -> Result<(State<'_>, Option<&[u8]>)> {
    let h = read_header(buf)?;
    let payload = &buf[SNAPSHOT_HEADER_SIZE..SNAPSHOT_HEADER_SIZE + h.payload];
    if h.revision == OLDEST_READ_REVISION {
        let state = State {
            bytes: payload,
            revision: h.revision,
        };
        return Ok((state, None));
    }
    check(
        payload.len() >= section,
        "snapshot shorter than its journal section",
    )?;
    let (state, section) = payload.split_at(payload.len() - section);
    let state = State {
        bytes: state,
        revision: h.revision,
    };
    Ok((state, Some(section)))
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
    if rev != SNAPSHOT_REVISION
        && rev != REVISION_SOFT_EXCEPTIONS
        && rev != REVISION_SOFT
        && rev != REVISION_EXTRAS
        && rev != REVISION_8
        && rev != REVISION_7
        && rev != OLDEST_READ_REVISION
    {
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

impl World {
    /// Bytes of a snapshot closed by a section of `section` bytes.
    pub(crate) fn snapshot_size_with(&self, section: usize) -> usize {
        let mut c = Count(0);
        encode_payload_head(self, &mut Enc(&mut c));
        encode_state(self, &mut Enc(&mut c));
        encode_host_data(self, &mut Enc(&mut c));
        SNAPSHOT_HEADER_SIZE + c.0 + section
    }

    /// Writes a snapshot closed by `section` (the journal's, from [`World::snapshot`] in
    /// `crate::api`) into `buf`; returns the length written.
    pub(crate) fn write_snapshot(&self, buf: &mut [u8], section: &[u8]) -> Result<usize> {
        let size = self.snapshot_size_with(section.len());
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
        encode_payload_head(self, &mut Enc(&mut out));
        encode_state(self, &mut Enc(&mut out));
        encode_host_data(self, &mut Enc(&mut out));
        out.put(section);
        let payload = out.pos;
        let checksum = out.fnv.finish();
        head[0..8].copy_from_slice(&MAGIC);
        head[8..12].copy_from_slice(&SNAPSHOT_REVISION.to_le_bytes());
        head[12..16].copy_from_slice(&(SNAPSHOT_HEADER_SIZE as u32).to_le_bytes());
        head[16..24].copy_from_slice(&(payload as u64).to_le_bytes());
        head[24..32].copy_from_slice(&checksum.to_le_bytes());
        Ok(SNAPSHOT_HEADER_SIZE + payload)
    }

    /// The def a snapshot's state was taken with (for [`World::def_from_snapshot`]).
    pub(crate) fn def_from_state(state: State) -> Result<WorldDef> {
        let mut d = Dec {
            buf: state.bytes,
            pos: 0,
        };
        Ok(decode_def(&mut d, state.revision)?.0)
    }

    /// Checks a snapshot's state against this world, changing nothing (the first half of
    /// [`World::restore`]).
    pub(crate) fn check_snapshot_state(&mut self, state: State) -> Result<()> {
        self.decode(state, false)
    }

    /// Brings this world to a snapshot's state that `check_snapshot_state` accepted.
    pub(crate) fn restore_snapshot_state(&mut self, state: State) -> Result<()> {
        self.decode(state, true)?;
        self.rebuild_derived();
        Ok(())
    }

    /// Takes the state of a payload written by `write_snapshot` (a world growing moves
    /// its state into the grown one this way).
    pub(crate) fn take_state(&mut self, payload: &[u8]) -> Result<()> {
        let state = State {
            bytes: payload,
            revision: SNAPSHOT_REVISION,
        };
        self.decode(state, true)?;
        self.rebuild_derived();
        Ok(())
    }

    /// Decodes the payload, store by store in encoding order; with `commit` false it only
    /// validates. Both passes run the same code, so what the dry run accepts the commit
    /// applies whole. Each store is checked against the stores decoded before it through
    /// their slot words (`restore_info`: scratch, one word per slot of every pool).
    fn decode(&mut self, state: State, commit: bool) -> Result<()> {
        let mut d = Dec {
            buf: state.bytes,
            pos: 0,
        };
        let head = settings::decode_settings(&mut d, state.revision)?;
        let info = SlotInfo::split(&mut self.restore_info, &self.def);

        let (hulls_slots, hulls_free) = self.content.hulls.slots_and_free();
        let n = content::decode_hulls(&mut d, commit, hulls_slots, hulls_free, info.hulls)?;
        own_capacity(n as u64, head.def.hull_capacity as u64)?;
        let hulls = &info.hulls[..n];
        let (meshes_slots, meshes_free) = self.content.meshes.slots_and_free();
        let (n, content_used) = content::decode_meshes(
            &mut d,
            commit,
            meshes_slots,
            meshes_free,
            info.meshes,
            self.def.content_capacity,
            self.alloc,
        )?;
        own_capacity(n as u64, head.def.mesh_capacity as u64)?;
        own_capacity(content_used, head.def.content_capacity)?;
        let meshes = &info.meshes[..n];
        let (bodies_slots, bodies_free) = self.bodies.slots_and_free();
        let n = bodies::decode_bodies(&mut d, commit, bodies_slots, bodies_free, info.bodies)?;
        own_capacity(n as u64, head.def.body_capacity as u64)?;
        let bodies = &info.bodies[..n];
        if let Some(b) = head.out_of_bounds {
            check(is_live(bodies, b), "out-of-bounds body is missing")?;
        }
        let refs = shapes::ShapeRefs {
            bodies,
            hulls,
            meshes,
        };
        let (shapes_slots, shapes_free) = self.shapes.slots_and_free();
        let n = shapes::decode_shapes(
            &mut d,
            commit,
            shapes_slots,
            shapes_free,
            info.shapes,
            &refs,
        )?;
        own_capacity(n as u64, head.def.shape_capacity as u64)?;
        let shapes = &info.shapes[..n];
        let (contacts_slots, contacts_free) = self.contacts.slots_and_free();
        let n = contacts::decode_contacts(
            &mut d,
            state.revision >= REVISION_RECYCLE,
            commit,
            contacts_slots,
            contacts_free,
            info.contacts,
            shapes,
            &mut self.broad.restore_keys,
        )?;
        own_capacity(n as u64, head.def.contact_capacity as u64)?;
        // Within the world's capacity and the snapshot's own.
        let sensor_capacity = self.def.sensor_capacity.min(head.def.sensor_capacity) as usize;
        sensors::decode_sensor_pairs(
            &mut d,
            commit,
            &mut self.sensors.pairs,
            sensor_capacity,
            shapes,
        )?;
        let (joints_slots, joints_free) = self.joints.slots_and_free();
        let n = joints::decode_joints(
            &mut d,
            commit,
            joints_slots,
            joints_free,
            info.joints,
            bodies,
        )?;
        own_capacity(n as u64, head.def.joint_capacity as u64)?;
        let joints = &info.joints[..n];
        if head.stores.extras {
            let nc = characters::decode(
                &mut d,
                commit,
                &mut self.characters,
                info.characters,
                bodies,
            )?;
            own_capacity(nc as u64, head.def.character_capacity as u64)?;
            let nv = vehicles::decode(&mut d, commit, &mut self.vehicles, info.vehicles, bodies)?;
            own_capacity(nv as u64, head.def.vehicle_capacity as u64)?;
            let nw = water::decode(&mut d, commit, &mut self.water, info.water, bodies)?;
            own_capacity(nw as u64, head.def.water_capacity as u64)?;
            // A state holds these stores only once one of them has a slot (`has_extras`):
            // marked but empty is not a state any world writes.
            check(
                !(nc == 0 && nv == 0 && nw == 0),
                "the character, vehicle and water stores are marked but empty",
            )?;
        } else if commit {
            self.characters.slots_and_free().0.clear();
            self.characters.free.clear();
            self.vehicles.slots_and_free().0.clear();
            self.vehicles.free.clear();
            self.water.slots_and_free().0.clear();
            self.water.free.clear();
        }
        if head.stores.soft {
            let lists = head.stores.soft_exceptions;
            let counts = soft::decode(&mut d, commit, &mut self.soft, info.soft, bodies, lists)?;
            own_soft_capacity(&counts, &head.def)?;
            check(counts.slots > 0, "the soft body store is marked but empty")?;
        } else if commit {
            self.soft.pool.slots_and_free().0.clear();
            self.soft.pool.free.clear();
            self.soft.particles.clear();
            self.soft.rest.clear();
            self.soft.triangles.clear();
        }
        host::decode_host_data(
            &mut d,
            commit,
            (&mut self.bodies, bodies),
            (&mut self.shapes, shapes),
            (&mut self.joints, joints),
        )?;
        check(d.pos == d.buf.len(), "bytes after the end of the snapshot")?;

        if commit {
            self.content.used = content_used;
            // The settings are the snapshot's; the capacities, hooks and allocator stay
            // this world's (they are not state).
            let current = self.def;
            self.def = WorldDef {
                allocator: current.allocator,
                task_hooks: current.task_hooks,
                body_capacity: current.body_capacity,
                shape_capacity: current.shape_capacity,
                contact_capacity: current.contact_capacity,
                pair_capacity: current.pair_capacity,
                hull_capacity: current.hull_capacity,
                joint_capacity: current.joint_capacity,
                mesh_capacity: current.mesh_capacity,
                content_capacity: current.content_capacity,
                event_capacity: current.event_capacity,
                sensor_capacity: current.sensor_capacity,
                character_capacity: current.character_capacity,
                vehicle_capacity: current.vehicle_capacity,
                water_capacity: current.water_capacity,
                soft_body_capacity: current.soft_body_capacity,
                soft_particle_capacity: current.soft_particle_capacity,
                ..head.def
            };
            self.step_index = head.step_index;
            self.origin = head.origin;
        }
        Ok(())
    }

    /// Rebuilds what is recomputed from the decoded state, store by store: hull topology
    /// and content trees (done while decoding), reference counts, box hulls, mass, body
    /// lists, broad-phase proxies and move buffer, the pair set, contact and joint edges.
    /// A derived structure a store gains is rebuilt here, after the stores it is built
    /// from.
    fn rebuild_derived(&mut self) {
        // Bodies' lists first: shapes, contacts and joints link themselves in.
        bodies::clear_body_lists(&mut self.bodies);
        self.content.hulls.count = content::rebuild_hulls(&mut self.content.hulls);
        self.content.meshes.count = content::rebuild_meshes(&mut self.content.meshes);
        self.shapes.count = shapes::rebuild_shapes(
            &mut self.shapes,
            &mut self.bodies,
            &mut self.content.hulls,
            &mut self.content.meshes,
            &mut self.broad,
        );
        self.sensors.rebuild_shapes(&self.shapes);
        // Mass needs the bodies' shape lists.
        self.bodies.count = bodies::rebuild_bodies(self);
        self.contacts.count = contacts::rebuild_contacts(self);
        self.joints.count = joints::rebuild_joints(self);
        self.characters.count = characters::rebuild(self);
        self.vehicles.count = vehicles::rebuild(self);
        self.water.count = water::rebuild(self);
        self.soft.pool.count = soft::rebuild(self);
        // What is built across stores (from the bodies, contacts and joints above) is
        // rebuilt here.
        self.rebuild_awake_set();
        // Nothing observed survives a restore.
        self.contacts.begin_events.clear();
        self.contacts.end_events.clear();
        self.joints.break_events.clear();
        self.counters = Default::default();
    }
}

/// The soft bodies within the snapshot's own soft body capacity, and their particles,
/// triangles, edges and bends within what its particle capacity reserves (else a world of
/// its own def could not hold them).
fn own_soft_capacity(counts: &soft::SoftCounts, def: &WorldDef) -> Result<()> {
    own_capacity(counts.slots as u64, def.soft_body_capacity as u64)?;
    check(
        counts.fit(def.soft_particle_capacity as usize),
        "a snapshot holds more than the capacities it records",
    )
}

/// A snapshot's pools fit the capacities it records (what `def_from_snapshot` gives), so a
/// world made from its own def restores it whenever a larger one does.
fn own_capacity(used: u64, capacity: u64) -> Result<()> {
    check(
        used <= capacity,
        "a snapshot holds more than the capacities it records",
    )
}
