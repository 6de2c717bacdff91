//! Capacities and growth: a world's pools are sized at creation and grow only between
//! steps, through [`World::grow`] (in the API layer, `crate::api`, recorded in the
//! journal), never inside a step (a step never allocates). Capacities are not state: ids
//! are handed out from each pool's free list (last freed first) and then its high-water
//! mark, whatever the capacity, and the hash leaves the capacities out, so a world grown
//! at some point and one created large give the same ids, hashes and bits — as long as no
//! pool overflowed. [`World::growth_needed`] is how a front end keeps that so: asked
//! before each step, it names the capacities that hold the next step with room to spare.

use crate::alloc::FixedVec;
use crate::def::{WorldDef, check_def};
use crate::error::{Error, Result};
use crate::world::World;

/// Most slots of any pool (as `WorldDef`'s checks).
const MAX_CAPACITY: u32 = 1 << 24;
/// Most content bytes (as `WorldDef`'s checks).
const MAX_CONTENT: u64 = 1 << 40;

/// A world's capacities: [`WorldDef`]'s capacity fields, which fix its memory (see there
/// for each). Read them with [`World::capacities`]; enlarge them with [`World::grow`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Capacities {
    /// Most bodies alive at once.
    pub body_capacity: u32,
    /// Most shapes alive at once.
    pub shape_capacity: u32,
    /// Most contacts at once.
    pub contact_capacity: u32,
    /// Most new pairs the broad phase keeps in one step.
    pub pair_capacity: u32,
    /// Most convex hulls alive at once.
    pub hull_capacity: u32,
    /// Most joints alive at once.
    pub joint_capacity: u32,
    /// Most triangle meshes, height fields and voxel grids alive at once.
    pub mesh_capacity: u32,
    /// Content budget in bytes.
    pub content_capacity: u64,
    /// Most events of each kind kept per step.
    pub event_capacity: u32,
    /// Most (sensor, shape) overlaps at once.
    pub sensor_capacity: u32,
}

impl WorldDef {
    /// The def's capacities.
    pub fn capacities(&self) -> Capacities {
        Capacities {
            body_capacity: self.body_capacity,
            shape_capacity: self.shape_capacity,
            contact_capacity: self.contact_capacity,
            pair_capacity: self.pair_capacity,
            hull_capacity: self.hull_capacity,
            joint_capacity: self.joint_capacity,
            mesh_capacity: self.mesh_capacity,
            content_capacity: self.content_capacity,
            event_capacity: self.event_capacity,
            sensor_capacity: self.sensor_capacity,
        }
    }

    /// The def with `c`'s capacities (settings, hooks and allocator unchanged).
    pub fn with_capacities(&self, c: &Capacities) -> WorldDef {
        WorldDef {
            body_capacity: c.body_capacity,
            shape_capacity: c.shape_capacity,
            contact_capacity: c.contact_capacity,
            pair_capacity: c.pair_capacity,
            hull_capacity: c.hull_capacity,
            joint_capacity: c.joint_capacity,
            mesh_capacity: c.mesh_capacity,
            content_capacity: c.content_capacity,
            event_capacity: c.event_capacity,
            sensor_capacity: c.sensor_capacity,
            ..*self
        }
    }
}

/// `capacity`, doubled until `used` takes at most three quarters of it (at most `max`).
fn roomy(used: u64, capacity: u64, max: u64) -> u64 {
    let mut c = capacity.max(1);
    while used.saturating_mul(4) > c.saturating_mul(3) && c < max {
        c = (c * 2).min(max);
    }
    c
}

/// Copies `src` into the empty `dst` (as much as fits: all of it when `dst` is larger).
fn copy_events<T: Copy>(dst: &mut FixedVec<T>, src: &[T]) {
    dst.clear();
    for &x in src {
        if !dst.push(x) {
            break;
        }
    }
}

impl World {
    /// The world's capacities now (as created, or as grown since).
    pub fn capacities(&self) -> Capacities {
        self.def.capacities()
    }

    /// The capacities this world should grow to before its next step, or `None` when it
    /// has room: each pool's live count (for contacts, the live contacts plus the pairs the
    /// next step will begin — the broad phase's move buffer is searched here, as the step
    /// will search it; for pairs, those new pairs) must stay within three quarters of its
    /// capacity, and each one that does not is doubled until it does. Content, sensor
    /// overlaps and the last step's events are judged the same way. A front end that grows
    /// to this before every step never has a pair or contact dropped for lack of room
    /// (triangle-mesh children excepted: they are found during the step; the quarter
    /// kept free is their room). Reads only; allocates nothing.
    pub fn growth_needed(&self) -> Option<Capacities> {
        let c = self.capacities();
        let max = MAX_CAPACITY as u64;
        let pool = |used: u32, cap: u32| roomy(used as u64, cap as u64, max) as u32;
        let new_pairs = self.broad.count_new_pairs(
            &self.shapes,
            &self.bodies,
            &self.contacts.pair_set,
            |a, b| crate::edge::kept_apart(&self.joints, &self.bodies, a, b),
        );
        let events = self
            .contacts
            .begin_events
            .len()
            .max(self.contacts.end_events.len())
            .max(self.contacts.hit_events.len())
            .max(self.sensors.begin_events.len())
            .max(self.sensors.end_events.len())
            .max(self.joints.break_events.len()) as u32;
        let want = Capacities {
            body_capacity: pool(self.bodies.count, c.body_capacity),
            shape_capacity: pool(self.shapes.count, c.shape_capacity),
            contact_capacity: pool(
                self.contacts.count.saturating_add(new_pairs),
                c.contact_capacity,
            ),
            pair_capacity: pool(new_pairs, c.pair_capacity),
            hull_capacity: pool(self.content.hulls.count, c.hull_capacity),
            joint_capacity: pool(self.joints.count, c.joint_capacity),
            mesh_capacity: pool(self.content.meshes.count, c.mesh_capacity),
            content_capacity: roomy(self.content.used, c.content_capacity, MAX_CONTENT),
            event_capacity: pool(events, c.event_capacity),
            sensor_capacity: pool(self.sensors.pairs.len() as u32, c.sensor_capacity),
        };
        (want != c).then_some(want)
    }

    /// Checks `c` as [`World::grow`] takes it: no capacity below the world's own, each
    /// within `WorldDef`'s bounds.
    pub(crate) fn check_growth(&self, c: &Capacities) -> Result<WorldDef> {
        let now = self.capacities();
        let pairs: [(&'static str, u64, u64); 10] = [
            (
                "body_capacity",
                c.body_capacity as u64,
                now.body_capacity as u64,
            ),
            (
                "shape_capacity",
                c.shape_capacity as u64,
                now.shape_capacity as u64,
            ),
            (
                "contact_capacity",
                c.contact_capacity as u64,
                now.contact_capacity as u64,
            ),
            (
                "pair_capacity",
                c.pair_capacity as u64,
                now.pair_capacity as u64,
            ),
            (
                "hull_capacity",
                c.hull_capacity as u64,
                now.hull_capacity as u64,
            ),
            (
                "joint_capacity",
                c.joint_capacity as u64,
                now.joint_capacity as u64,
            ),
            (
                "mesh_capacity",
                c.mesh_capacity as u64,
                now.mesh_capacity as u64,
            ),
            ("content_capacity", c.content_capacity, now.content_capacity),
            (
                "event_capacity",
                c.event_capacity as u64,
                now.event_capacity as u64,
            ),
            (
                "sensor_capacity",
                c.sensor_capacity as u64,
                now.sensor_capacity as u64,
            ),
        ];
        for (name, new, old) in pairs {
            if new < old {
                return Err(Error::Argument {
                    name,
                    value: new as f64,
                    expected: "at least the world's current capacity (a world never shrinks)",
                });
            }
        }
        let def = self.def.with_capacities(c);
        check_def(&def)?;
        Ok(def)
    }

    /// [`World::grow`] without its record (the API layer, `crate::api`, records it).
    /// Builds the grown world whole (every buffer through the world's allocator), moves
    /// the state into it through the snapshot encoding, then replaces this one; a refused
    /// allocation changes nothing.
    pub(crate) fn grow_unrecorded(&mut self, c: &Capacities) -> Result<()> {
        let def = self.check_growth(c)?;
        if *c == self.capacities() {
            return Ok(());
        }
        let mut grown = World::new(&def)?;
        // The state (with host data) through the snapshot encoding, in a buffer taken from
        // the world's allocator.
        let size = self.snapshot_size_with(0);
        let mut buf = FixedVec::filled(size, 0u8, self.alloc, "snapshot buffer")?;
        self.write_snapshot(&mut buf, &[])?;
        grown.take_state(&buf[crate::snapshot::SNAPSHOT_HEADER_SIZE..])?;
        drop(buf);
        // What is not state goes along: the id tag (ids stay valid), the host's callback
        // and fp setting, the last step's counters, profile and events. (The API layer
        // carries the journal across.)
        grown.tag = self.tag;
        grown.presolve.callback = self.presolve.callback.take();
        grown.tasks.host_fp = self.tasks.host_fp;
        grown.solver.one_at_a_time = self.solver.one_at_a_time;
        grown.solver.lanes = self.solver.lanes;
        grown.counters = self.counters;
        grown.profile = self.profile;
        copy_events(
            &mut grown.contacts.begin_events,
            &self.contacts.begin_events,
        );
        copy_events(&mut grown.contacts.end_events, &self.contacts.end_events);
        copy_events(&mut grown.contacts.hit_events, &self.contacts.hit_events);
        copy_events(&mut grown.sensors.begin_events, &self.sensors.begin_events);
        copy_events(&mut grown.sensors.end_events, &self.sensors.end_events);
        copy_events(&mut grown.joints.break_events, &self.joints.break_events);
        copy_events(&mut grown.bodies.move_events, &self.bodies.move_events);
        *self = grown;
        Ok(())
    }
}
