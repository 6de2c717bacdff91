//! The awake set (Box3D's awake solver set): which body slots move in a step, kept from
//! call to call so that a step visits the moving bodies and their contacts only, and
//! 10,000 sleeping bodies cost it next to nothing.
//!
//! It is derived state: a bit per body slot that mirrors `Body::is_moving`, updated by
//! [`World::sync_awake`] wherever a body's `alive`, `enabled`, `awake` or type changes,
//! and rebuilt from the bodies after a restore ([`World::rebuild_awake_set`]), so a
//! restored world's set equals the live one's. The set is read word by word, so its
//! bodies (and the contacts gathered from them) come out in ascending slot order — the
//! order every stage used when it scanned all slots, which keeps every hash.
//!
//! Alongside: the touching contacts between two bodies that do not move (the contacts a
//! step skips, counted so the touching counter stays exact), the kinematic bodies that
//! are asleep (their mesh pairs still look for new triangles), and a bound on how far a
//! resting body could reach in a step (so the pre-step bounds check scans the moving
//! bodies only, unless a resting one could be near the coordinate limit).

use crate::alloc::{FixedVec, WorldAlloc};
use crate::body::{Body, BodyType};
use crate::contact::{CONTACT_TOUCHING, Contact};
use crate::edge;
use crate::error::Result;
use crate::task::{Slots, Tasks};
use crate::world::World;

/// Room for rounding in the resting bodies' reach bound (m): far more than the f64
/// rounding of sums below 2^23, so the bound never cuts below the exact check.
const REACH_ROUNDING: f64 = 1.0;

/// The moving bodies, and what a step needs to skip the others.
pub(crate) struct AwakeSet {
    /// Bit `i`: body slot `i` moves in a step (`Body::is_moving`).
    moving: FixedVec<u64>,
    moving_count: u32,
    /// Bumped whenever a body starts or stops moving: a gathered contact list stays
    /// valid while it holds (destroyed contacts aside: readers skip dead slots).
    moving_changes: u32,
    /// Bit `i`: body slot `i` is an enabled kinematic body that is asleep.
    idle_kinematic: FixedVec<u64>,
    idle_kinematic_count: u32,
    /// Touching contacts whose two bodies both do not move.
    resting_touching: u32,
    /// For every enabled, non-static body that does not move: at least its
    /// `Body::reach_at_rest`, and at
    /// least its speed (kinematic) — grown as bodies come to rest, recomputed by a full
    /// scan; `INFINITY` when unknown.
    rest_reach: f64,
    rest_speed: f32,
    /// Scratch: contact slots of the bodies visited, one bit each, cleared as read.
    contact_bits: FixedVec<u64>,
    /// The contacts gathered for the stage running now, ascending.
    pub(crate) contacts: FixedVec<u32>,
}

impl AwakeSet {
    pub(crate) fn new(
        body_capacity: usize,
        contact_capacity: usize,
        alloc: WorldAlloc,
    ) -> Result<AwakeSet> {
        let body_words = body_capacity.div_ceil(64);
        let contact_words = contact_capacity.div_ceil(64);
        Ok(AwakeSet {
            moving: FixedVec::filled(body_words, 0, alloc, "body_capacity")?,
            moving_count: 0,
            moving_changes: 0,
            idle_kinematic: FixedVec::filled(body_words, 0, alloc, "body_capacity")?,
            idle_kinematic_count: 0,
            resting_touching: 0,
            rest_reach: 0.0,
            rest_speed: 0.0,
            contact_bits: FixedVec::filled(contact_words, 0, alloc, "contact_capacity")?,
            contacts: FixedVec::with_capacity(contact_capacity, alloc, "contact_capacity")?,
        })
    }

    pub(crate) fn memory_usage(&self) -> usize {
        (self.moving.capacity() + self.idle_kinematic.capacity() + self.contact_bits.capacity()) * 8
            + self.contacts.capacity() * 4
    }

    /// Whether body slot `slot` moves in a step.
    #[inline(always)]
    pub(crate) fn is_moving(&self, slot: u32) -> bool {
        self.moving[slot as usize >> 6] & (1u64 << (slot & 63)) != 0
    }

    /// The moving body slots, ascending.
    pub(crate) fn iter(&self) -> impl Iterator<Item = u32> + '_ {
        bits(&self.moving)
    }

    /// The moving bits, 64 body slots a word (bit `i` of word `w`: slot `64 w + i`).
    pub(crate) fn moving_words(&self) -> &[u64] {
        &self.moving
    }

    /// A number that changes whenever a body starts or stops moving.
    pub(crate) fn moving_changes(&self) -> u32 {
        self.moving_changes
    }

    /// Touching contacts of two bodies that do not move.
    pub(crate) fn resting_touching(&self) -> u32 {
        self.resting_touching
    }

    /// Marks the resting bodies' reach unknown (their positions all changed), so the next
    /// bounds check scans every body and measures it again.
    pub(crate) fn forget_rest_reach(&mut self) {
        self.rest_reach = f64::INFINITY;
    }

    /// Brings slot `slot`'s bits in line with its body's flags. A body that starts or
    /// stops moving moves its touching contacts to a resting partner out of or into the
    /// resting count (by the partners' bits, so the order bodies are synced in does not
    /// matter).
    pub(crate) fn sync(&mut self, slot: u32, bodies: &[Body], contacts: &[Contact]) {
        let b = &bodies[slot as usize];
        let moving = b.is_moving();
        let (w, bit) = (slot as usize >> 6, 1u64 << (slot & 63));
        if moving != (self.moving[w] & bit != 0) {
            self.moving[w] ^= bit;
            self.moving_changes = self.moving_changes.wrapping_add(1);
            if moving {
                self.moving_count += 1;
            } else {
                self.moving_count -= 1;
            }
            for n in edge::walk(contacts, bodies, slot) {
                if contacts[n.slot as usize].flags & CONTACT_TOUCHING != 0
                    && !self.is_moving(n.other)
                {
                    if moving {
                        self.resting_touching -= 1;
                    } else {
                        self.resting_touching += 1;
                    }
                }
            }
        }
        let idle = idle_kinematic(b);
        if idle != (self.idle_kinematic[w] & bit != 0) {
            self.idle_kinematic[w] ^= bit;
            if idle {
                self.idle_kinematic_count += 1;
            } else {
                self.idle_kinematic_count -= 1;
            }
        }
        if resting(b) {
            let (reach, speed) = rest_reach(b);
            self.rest_reach = crate::math::max_f64(self.rest_reach, reach);
            self.rest_speed = crate::math::max(self.rest_speed, speed);
        }
    }

    /// A contact is about to go (or stop touching outside a step's narrow phase): out of
    /// the resting count if it was in it.
    pub(crate) fn contact_leaving(&mut self, c: &Contact) {
        if c.alive
            && c.flags & CONTACT_TOUCHING != 0
            && !self.is_moving(c.body_a)
            && !self.is_moving(c.body_b)
        {
            self.resting_touching -= 1;
        }
    }

    /// Recomputes everything from the bodies and contacts.
    fn rebuild(&mut self, bodies: &[Body], contacts: &[Contact]) {
        self.moving_changes = self.moving_changes.wrapping_add(1);
        self.moving.fill(0);
        self.idle_kinematic.fill(0);
        self.moving_count = 0;
        self.idle_kinematic_count = 0;
        for (i, b) in bodies.iter().enumerate() {
            let (w, bit) = (i >> 6, 1u64 << (i & 63));
            if b.is_moving() {
                self.moving[w] |= bit;
                self.moving_count += 1;
            }
            if idle_kinematic(b) {
                self.idle_kinematic[w] |= bit;
                self.idle_kinematic_count += 1;
            }
        }
        self.resting_touching = self.count_resting_touching(contacts);
        self.measure_rest_reach(bodies);
    }

    fn count_resting_touching(&self, contacts: &[Contact]) -> u32 {
        let resting = |c: &&Contact| {
            c.alive
                && c.flags & CONTACT_TOUCHING != 0
                && !self.is_moving(c.body_a)
                && !self.is_moving(c.body_b)
        };
        contacts.iter().filter(resting).count() as u32
    }

    /// The resting bodies' reach bound, measured exactly.
    fn measure_rest_reach(&mut self, bodies: &[Body]) {
        self.rest_reach = 0.0;
        self.rest_speed = 0.0;
        for b in bodies.iter().filter(|b| resting(b)) {
            let (reach, speed) = rest_reach(b);
            self.rest_reach = crate::math::max_f64(self.rest_reach, reach);
            self.rest_speed = crate::math::max(self.rest_speed, speed);
        }
    }

    /// Whether no resting body could reach `limit` in a step of `dt` with dynamic bodies
    /// capped at `max_speed` (false: one might, or the bound is unknown).
    pub(crate) fn rest_within(&self, dt: f32, max_speed: f32, limit: f64) -> bool {
        let speed = crate::math::max(self.rest_speed, max_speed) as f64;
        self.rest_reach + speed * dt as f64 + REACH_ROUNDING < limit
    }

    /// Whether the set is what the bodies and contacts say (a debug check).
    fn matches(&self, bodies: &[Body], contacts: &[Contact]) -> bool {
        let bits_ok = bodies.iter().enumerate().all(|(i, b)| {
            let (w, bit) = (i >> 6, 1u64 << (i & 63));
            (self.moving[w] & bit != 0) == b.is_moving()
                && (self.idle_kinematic[w] & bit != 0) == idle_kinematic(b)
        });
        let counts_ok = self.moving_count == bodies.iter().filter(|b| b.is_moving()).count() as u32
            && self.idle_kinematic_count
                == bodies.iter().filter(|b| idle_kinematic(b)).count() as u32;
        let reach_ok = bodies.iter().filter(|b| resting(b)).all(|b| {
            let (reach, speed) = rest_reach(b);
            reach <= self.rest_reach && speed <= self.rest_speed
        });
        bits_ok
            && counts_ok
            && reach_ok
            && self.resting_touching == self.count_resting_touching(contacts)
    }

    /// Gathers into `contacts`, ascending, every contact of the moving bodies (with
    /// `more`: also of the idle kinematic bodies and of `extra_bodies`).
    fn gather_contacts(
        &mut self,
        bodies: &[Body],
        contacts: &[Contact],
        more: bool,
        extra_bodies: impl Iterator<Item = u32>,
        tasks: &mut Tasks,
    ) {
        let mark = |bits: &mut [u64], body: u32| {
            for n in edge::walk(contacts, bodies, body) {
                let c = n.slot;
                bits[c as usize >> 6] |= 1u64 << (c & 63);
            }
        };
        let words = contacts.len().div_ceil(64);
        // When most bodies move, reading the contact slots in order finds the same
        // contacts without walking each body's list through memory: each word of the
        // bit set from its 64 slots, through the task hooks.
        if self.moving_count as usize * 2 >= bodies.len() {
            let bits = Slots::new(&mut self.contact_bits[..words]);
            let moving = &self.moving;
            let moves = |b: u32| moving[b as usize >> 6] & (1u64 << (b & 63)) != 0;
            tasks.for_each(words, 16, &|w, _| {
                let end = (64 * w + 64).min(contacts.len());
                let mut word = 0u64;
                for (slot, c) in contacts[64 * w..end].iter().enumerate() {
                    if c.alive && (moves(c.body_a) || moves(c.body_b)) {
                        word |= 1u64 << slot;
                    }
                }
                // SAFETY: each word is one item.
                *unsafe { bits.get(w) } = word;
            });
            if more {
                self.mark_more_contacts(bodies, extra_bodies, &mark);
            }
        } else {
            self.mark_contacts(bodies, more, extra_bodies, &mark);
        }
        self.contacts.clear();
        for w in 0..words {
            let word = core::mem::take(&mut self.contact_bits[w]);
            for c in Bits::new(word, w) {
                let ok = self.contacts.push(c);
                debug_assert!(ok);
            }
        }
    }

    /// Sets the bits of the contacts of the moving bodies (and with `more`, of the idle
    /// kinematic bodies and `extra_bodies`), walking each body's contact list.
    fn mark_contacts(
        &mut self,
        bodies: &[Body],
        more: bool,
        extra_bodies: impl Iterator<Item = u32>,
        mark: &impl Fn(&mut [u64], u32),
    ) {
        let used = bodies.len().div_ceil(64);
        for (w, &word) in self.moving[..used].iter().enumerate() {
            for slot in Bits::new(word, w) {
                mark(&mut self.contact_bits, slot);
            }
        }
        if more {
            self.mark_more_contacts(bodies, extra_bodies, &mark);
        }
    }

    /// Sets the bits of the contacts of the idle kinematic bodies and `extra_bodies`.
    fn mark_more_contacts(
        &mut self,
        bodies: &[Body],
        extra_bodies: impl Iterator<Item = u32>,
        mark: &impl Fn(&mut [u64], u32),
    ) {
        let used = bodies.len().div_ceil(64);
        if self.idle_kinematic_count > 0 {
            for (w, &word) in self.idle_kinematic[..used].iter().enumerate() {
                for slot in Bits::new(word, w) {
                    mark(&mut self.contact_bits, slot);
                }
            }
        }
        for body in extra_bodies {
            mark(&mut self.contact_bits, body);
        }
    }
}

/// Enabled, non-static and not moving: a body the step does not move unless woken.
#[inline(always)]
fn resting(b: &Body) -> bool {
    b.alive && b.enabled && b.body_type != BodyType::Static && !b.awake
}

#[inline(always)]
fn idle_kinematic(b: &Body) -> bool {
    resting(b) && b.body_type == BodyType::Kinematic
}

/// A resting body's part of the bounds check (`World::step`'s), without the step's
/// travel: position, centre offset, extent and slack; and its speed if kinematic.
fn rest_reach(b: &Body) -> (f64, f32) {
    let reach = b.reach_at_rest();
    let speed = match b.body_type {
        BodyType::Kinematic => b.linear_velocity.length(),
        _ => 0.0,
    };
    (reach, speed)
}

/// The set bits of `words`, ascending, as slot numbers.
fn bits(words: &[u64]) -> impl Iterator<Item = u32> + '_ {
    words
        .iter()
        .enumerate()
        .flat_map(|(w, &word)| Bits::new(word, w))
}

/// The set bits of one word (word index `w`), ascending.
pub(crate) struct Bits {
    word: u64,
    base: u32,
}

impl Bits {
    #[inline(always)]
    pub(crate) fn new(word: u64, w: usize) -> Bits {
        Bits {
            word,
            base: (w as u32) << 6,
        }
    }
}

impl Iterator for Bits {
    type Item = u32;
    #[inline(always)]
    fn next(&mut self) -> Option<u32> {
        if self.word == 0 {
            return None;
        }
        let t = self.word.trailing_zeros();
        self.word &= self.word - 1;
        Some(self.base + t)
    }
}

impl World {
    /// Brings the awake set in line with body `slot`'s flags: call after changing its
    /// `alive`, `enabled`, `awake` or type (and after moving or reshaping a body that
    /// stays asleep, so the resting reach covers it).
    pub(crate) fn sync_awake(&mut self, slot: u32) {
        self.awake.sync(slot, &self.bodies, &self.contacts);
    }

    /// Rebuilds the awake set from the bodies and contacts (after a restore).
    pub(crate) fn rebuild_awake_set(&mut self) {
        self.awake.rebuild(&self.bodies, &self.contacts);
    }

    /// Whether the awake set is what the bodies say (debug checks and tests).
    pub(crate) fn awake_set_matches(&self) -> bool {
        self.awake.matches(&self.bodies, &self.contacts)
    }

    /// Gathers the contacts of the moving bodies, ascending, into `awake.contacts`.
    pub(crate) fn gather_moving_contacts(&mut self) {
        self.awake.gather_contacts(
            &self.bodies,
            &self.contacts,
            false,
            core::iter::empty(),
            &mut self.tasks,
        );
    }

    /// Gathers, ascending, the contacts that may gain triangle children this step: those
    /// of the moving bodies, of the idle kinematic bodies and of the shapes in the move
    /// buffer (see `find_children`).
    pub(crate) fn gather_child_candidates(&mut self) {
        let (shapes, moved) = (&self.shapes, &self.broad.moved);
        let extra = moved
            .iter()
            .filter_map(|&s| shapes.get(s as usize))
            .filter(|s| s.alive && s.enlarged)
            .map(|s| s.body);
        self.awake
            .gather_contacts(&self.bodies, &self.contacts, true, extra, &mut self.tasks);
    }

    /// Measures the resting bodies' reach bound again (after a full bounds scan).
    pub(crate) fn measure_rest_reach(&mut self) {
        self.awake.measure_rest_reach(&self.bodies);
    }
}

#[cfg(test)]
mod tests {
    //! The awake set after restore, and what sleepers cost a step (counted, not timed).

    use crate::math::{DVec3, Vec3};
    use crate::{BodyDef, BodyId, BodyType, JointDef, JointKind, ShapeDef, World, WorldDef};

    impl super::AwakeSet {
        /// The parts a restore must reproduce (the reach bound is only an upper bound).
        fn same_set(&self, other: &super::AwakeSet) -> bool {
            self.moving[..] == other.moving[..]
                && self.idle_kinematic[..] == other.idle_kinematic[..]
                && self.moving_count == other.moving_count
                && self.idle_kinematic_count == other.idle_kinematic_count
                && self.resting_touching == other.resting_touching
        }
    }

    const DT: f32 = 1.0 / 60.0;

    fn world() -> World {
        World::new(&WorldDef {
            body_capacity: 2048,
            shape_capacity: 2048,
            contact_capacity: 8192,
            pair_capacity: 8192,
            ..Default::default()
        })
        .unwrap()
    }

    fn ground(w: &mut World) -> BodyId {
        let g = w
            .create_body(&BodyDef {
                position: DVec3::new(0.0, -1.0, 0.0),
                ..Default::default()
            })
            .unwrap();
        w.create_box_shape(g, &ShapeDef::default(), Vec3::new(200.0, 1.0, 200.0))
            .unwrap();
        g
    }

    fn cube(w: &mut World, x: f64, y: f64, z: f64) -> BodyId {
        let b = w
            .create_body(&BodyDef {
                body_type: BodyType::Dynamic,
                position: DVec3::new(x, y, z),
                ..Default::default()
            })
            .unwrap();
        w.create_box_shape(b, &ShapeDef::default(), Vec3::splat(0.5))
            .unwrap();
        b
    }

    fn step(w: &mut World, n: usize) {
        for _ in 0..n {
            w.step(DT, 4).unwrap();
        }
    }

    /// Restores `live`'s snapshot into a new world: the awake set must be the live one's,
    /// and both must step to the same hashes (and keep the same sets) for `steps` steps.
    fn check_restore(live: &mut World, steps: usize) {
        let mut buf = vec![0u8; live.snapshot_size()];
        let n = live.snapshot(&mut buf).unwrap();
        let mut twin = World::new(&World::def_from_snapshot(&buf[..n]).unwrap()).unwrap();
        twin.restore(&buf[..n]).unwrap();
        assert!(twin.awake_set_matches());
        assert!(
            twin.awake.same_set(&live.awake),
            "restored awake set differs"
        );
        assert_eq!(twin.hash(), live.hash());
        for s in 0..steps {
            live.step(DT, 4).unwrap();
            twin.step(DT, 4).unwrap();
            assert_eq!(
                twin.hash(),
                live.hash(),
                "hash differs {s} steps after restore"
            );
            assert!(
                twin.awake.same_set(&live.awake),
                "sets differ {s} steps after restore"
            );
            assert_eq!(
                twin.counters().touching_contact_count,
                live.counters().touching_contact_count
            );
        }
    }

    fn awake(w: &World, b: BodyId) -> bool {
        w.body_is_awake(b).unwrap()
    }

    #[test]
    fn restored_world_has_the_live_awake_set_and_steps_to_the_same_hashes() {
        let mut w = world();
        ground(&mut w);
        // Separate cubes, a stack of three, and two cubes joined by a ball joint.
        let singles: Vec<BodyId> = (0..6)
            .map(|i| cube(&mut w, 3.0 * i as f64, 0.5, 0.0))
            .collect();
        let stack: Vec<BodyId> = (0..3)
            .map(|i| cube(&mut w, 0.0, 0.5 + i as f64, 6.0))
            .collect();
        let (ja, jb) = (cube(&mut w, 10.0, 0.5, 6.0), cube(&mut w, 12.0, 0.5, 6.0));
        let (fa, fb) = w
            .joint_frames_at(
                ja,
                jb,
                DVec3::new(11.0, 0.5, 6.0),
                crate::math::Quat::IDENTITY,
            )
            .unwrap();
        w.create_joint(&JointDef {
            body_a: ja,
            body_b: jb,
            local_frame_a: fa,
            local_frame_b: fb,
            kind: JointKind::Spherical,
            ..Default::default()
        })
        .unwrap();
        // A kinematic body created asleep: resting, and its velocity counts in the reach.
        w.create_body(&BodyDef {
            body_type: BodyType::Kinematic,
            position: DVec3::new(-20.0, 5.0, 0.0),
            linear_velocity: Vec3::new(1.0, 0.0, 0.0),
            is_awake: false,
            ..Default::default()
        })
        .unwrap();
        check_restore(&mut w, 5);
        step(&mut w, 90);
        assert!(
            singles.iter().chain(&stack).all(|&b| !awake(&w, b)),
            "all asleep"
        );
        assert_eq!(w.counters().awake_body_count, 0);
        check_restore(&mut w, 3);

        // Woken by an impulse.
        w.apply_linear_impulse_to_center(singles[1], Vec3::new(0.0, 3000.0, 0.0))
            .unwrap();
        assert!(awake(&w, singles[1]));
        check_restore(&mut w, 10);

        // Woken by a touch: a cube dropped onto the sleeping stack.
        let dropped = cube(&mut w, 0.0, 5.0, 6.0);
        let mut woke = false;
        for _ in 0..60 {
            step(&mut w, 1);
            woke |= awake(&w, stack[2]);
        }
        assert!(woke, "the falling cube woke the stack");
        check_restore(&mut w, 10);

        // Woken through a joint: a push on one end wakes the other.
        step(&mut w, 120);
        assert!(!awake(&w, ja) && !awake(&w, jb));
        w.apply_linear_impulse_to_center(ja, Vec3::new(0.0, 2000.0, 0.0))
            .unwrap();
        assert!(awake(&w, jb), "the joint woke its other body");
        check_restore(&mut w, 10);

        // Put to sleep by a call, destroyed asleep, disabled asleep.
        step(&mut w, 120);
        w.set_body_awake(dropped, false).unwrap();
        w.destroy_body(singles[3]).unwrap();
        w.set_body_enabled(singles[4], false).unwrap();
        assert!(w.awake_set_matches());
        check_restore(&mut w, 10);
        w.set_body_enabled(singles[4], true).unwrap();
        check_restore(&mut w, 10);
    }

    /// The awake world of `sleepers_test`: 10 cubes falling onto the ground beside
    /// `sleepers` cubes asleep on it.
    fn crowd(sleepers: usize) -> World {
        let mut w = world();
        ground(&mut w);
        for i in 0..sleepers {
            cube(
                &mut w,
                -100.0 + 2.0 * (i % 40) as f64,
                0.5,
                -10.0 - 2.0 * (i / 40) as f64,
            );
        }
        step(&mut w, 40);
        assert_eq!(w.counters().awake_body_count, 0, "the crowd is asleep");
        for i in 0..10 {
            cube(&mut w, 2.0 * i as f64, 3.0, 10.0);
        }
        w
    }

    #[test]
    fn sleeping_bodies_add_no_visits_to_a_step() {
        let mut quiet = crowd(0);
        let mut crowded = crowd(600);
        for s in 0..60 {
            quiet.step(DT, 4).unwrap();
            crowded.step(DT, 4).unwrap();
            let (q, c) = (quiet.counters(), crowded.counters());
            assert_eq!(c.awake_body_count, q.awake_body_count, "step {s}");
            assert_eq!(c.contacts_visited, q.contacts_visited, "step {s}");
            // The sleepers' contacts are skipped, not forgotten.
            assert_eq!(
                c.touching_contact_count,
                q.touching_contact_count + 600,
                "step {s}"
            );
        }
        assert_eq!(crowded.counters().awake_body_count, 10);
        assert_eq!(crowded.counters().contacts_visited, 10);
        // The moving bodies are the awake set: what the body stages walk.
        assert_eq!(crowded.awake.iter().count(), 10);
        assert_eq!(crowded.awake.iter().count(), quiet.awake.iter().count());
    }

    /// `pairs` pairs of cubes joined by a spherical joint, side by side on the ground.
    fn joined_pairs(w: &mut World, pairs: usize, z: f64) {
        use crate::math::{Quat, Transform};
        for i in 0..pairs {
            let (x, z) = (-90.0 + 3.0 * (i % 50) as f64, z - 2.0 * (i / 50) as f64);
            let a = cube(w, x, 0.5, z);
            let b = cube(w, x + 1.5, 0.5, z);
            w.create_joint(&JointDef {
                body_a: a,
                body_b: b,
                local_frame_a: Transform::new(Vec3::new(0.75, 0.0, 0.0), Quat::IDENTITY),
                local_frame_b: Transform::new(Vec3::new(-0.75, 0.0, 0.0), Quat::IDENTITY),
                kind: JointKind::Spherical,
                ..Default::default()
            })
            .unwrap();
        }
    }

    #[test]
    fn sleeping_jointed_bodies_add_no_joint_visits_to_a_step() {
        let mut quiet = world();
        let mut crowded = world();
        for (w, sleepers) in [(&mut quiet, 0), (&mut crowded, 300)] {
            ground(w);
            joined_pairs(w, sleepers, -10.0);
            step(w, 120);
            assert_eq!(w.counters().awake_body_count, 0, "the pairs are asleep");
            // Five pairs dropped beside them: they and only they are visited.
            joined_pairs(w, 5, 10.0);
            w.step(DT, 4).unwrap();
            assert_eq!(w.counters().joint_count, sleepers as u32 + 5);
        }
        for s in 0..30 {
            let (q, c) = (quiet.counters(), crowded.counters());
            assert_eq!(q.joints_visited, 5, "step {s}");
            assert_eq!(c.joints_visited, q.joints_visited, "step {s}");
            assert_eq!(c.awake_body_count, q.awake_body_count, "step {s}");
            quiet.step(DT, 4).unwrap();
            crowded.step(DT, 4).unwrap();
        }
    }

    #[test]
    fn a_sleeping_body_that_could_reach_the_limit_still_refuses_the_step() {
        use crate::Error;
        for body_type in [BodyType::Dynamic, BodyType::Kinematic] {
            let mut w = World::new(&WorldDef {
                max_linear_speed: 100_000.0,
                ..Default::default()
            })
            .unwrap();
            // Slot 0 asleep out at 2^21 m, slot 1 awake near the origin.
            let far = w
                .create_body(&BodyDef {
                    body_type,
                    position: DVec3::new(2_097_150.0, 0.0, 0.0),
                    linear_velocity: Vec3::new(100_000.0, 0.0, 0.0),
                    gravity_scale: 0.0,
                    is_awake: false,
                    ..Default::default()
                })
                .unwrap();
            w.create_box_shape(far, &ShapeDef::default(), Vec3::ONE)
                .unwrap();
            // (A shape wakes a dynamic body.)
            w.set_body_awake(far, false).unwrap();
            let near = cube(&mut w, 0.0, 0.5, 0.0);
            w.step(DT, 4).unwrap();
            assert!(!awake(&w, far));
            // Past 2^21: a ten-second step could carry it past 2^22 if a touch woke it.
            w.shift_origin(DVec3::new(-2_000_000.0, 0.0, 0.0)).unwrap();
            w.step(DT, 4).unwrap();
            let h = w.hash();
            let e = w.step(10.0, 1).unwrap_err();
            assert!(
                matches!(e, Error::BodyOutOfBounds { body, .. } if body == far),
                "{e}"
            );
            assert_eq!(w.hash(), h);
            assert!(awake(&w, near) && !awake(&w, far));
            w.destroy_body(far).unwrap();
            w.step(10.0, 1).unwrap();
        }
    }
}
