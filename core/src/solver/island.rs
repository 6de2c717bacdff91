//! Islands and sleep.
//!
//! Islands are recomputed every step from state alone — union-find over the awake
//! dynamic bodies joined by touching contacts and acting joints (a joint to a static or
//! kinematic body links nothing), roots chosen by lowest solver index — rather
//! than kept as persistent, incrementally merged and split structures. So there is no
//! island id or split candidate to snapshot: a restored world finds the same islands.
//! A body's sleep timer is state. An island sleeps when every body in it has been slower
//! than its threshold for `TIME_TO_SLEEP`; it wakes whole, by a touch, a command or a
//! waking neighbour, through contacts and joints alike.

use crate::body::{BodyType, NONE};
use crate::contact::{CONTACT_TOUCHING, Contact};
use crate::edge;
use crate::joint::Joint;
use crate::math::{Vec3, min};
use crate::task::Slots;
use crate::world::{TIME_TO_SLEEP, World};

fn find(parent: &mut [u32], mut i: u32) -> u32 {
    while parent[i as usize] != i {
        // Path halving.
        let p = parent[i as usize];
        parent[i as usize] = parent[p as usize];
        i = parent[i as usize];
    }
    i
}

/// Puts islands to sleep (finalize advanced the sleep timers).
pub(crate) fn update_sleep(world: &mut World) {
    let s = &mut world.solver;
    let n = s.states.len();
    if n == 0 {
        world.counters.island_count = 0;
        return;
    }
    if !world.def.enable_sleep {
        // Islands only decide who sleeps: with sleep off they are not found (it cost
        // 3 % of a step in large_pyramid).
        world.counters.island_count = 0;
        return;
    }
    for k in 0..n {
        s.parent[k] = k as u32;
    }
    // The bodies of each touching constraint, read from the scattered contacts in
    // parallel (each entry its own); `NONE` twice for one that no longer touches.
    let m = s.constraint_contact.len();
    s.contact_bodies.resize(m, [NONE; 2]);
    {
        let out = Slots::new(&mut s.contact_bodies[..m]);
        let (contacts, list, index) = (&world.contacts, &s.constraint_contact, &s.solver_index);
        world.tasks.for_each(m, 256, &|k, _| {
            let contact = &contacts[list[k] as usize];
            let touching = contact.flags & CONTACT_TOUCHING != 0;
            // SAFETY: each entry is one item.
            *unsafe { out.get(k) } = if touching {
                [
                    index[contact.body_a as usize],
                    index[contact.body_b as usize],
                ]
            } else {
                [NONE; 2]
            };
        });
    }
    // Union over touching contacts and this step's acting joints between two awake
    // dynamic bodies; a body touching or joined to a moving kinematic body stays awake
    // (the platform would pass through it otherwise). The union's roots are the lowest
    // index of each island whatever the order, so contacts and joints go in any order.
    let contact_pairs = s.contact_bodies[..m]
        .iter()
        .filter(|&&[ia, ib]| ia != NONE || ib != NONE)
        .map(|&[ia, ib]| (ia, ib));
    let joint_pairs = s.joint_slot_at.iter().filter_map(|&slot| {
        let j = &world.joints[slot as usize];
        j.acts().then_some((
            s.solver_index[j.body_a as usize],
            s.solver_index[j.body_b as usize],
        ))
    });
    for (ia, ib) in contact_pairs.chain(joint_pairs) {
        let dyn_a = ia != NONE && s.params[ia as usize].dynamic;
        let dyn_b = ib != NONE && s.params[ib as usize].dynamic;
        if dyn_a && dyn_b {
            let ra = find(&mut s.parent, ia);
            let rb = find(&mut s.parent, ib);
            if ra != rb {
                // Lower index becomes the root: the result does not depend on order.
                let (lo, hi) = if ra < rb { (ra, rb) } else { (rb, ra) };
                s.parent[hi as usize] = lo;
            }
        } else {
            for (i, other) in [(ia, ib), (ib, ia)] {
                let dynamic = i != NONE && s.params[i as usize].dynamic;
                if dynamic && other != NONE && !s.params[other as usize].dynamic {
                    let st = &s.states[other as usize];
                    if st.v != Vec3::ZERO || st.w != Vec3::ZERO {
                        world.bodies[s.params[i as usize].body as usize].sleep_time = 0.0;
                        s.island_sleep[i as usize] = 0.0;
                    }
                }
            }
        }
    }
    // Shortest timer per island, gathered at its root: a root's entry holds its own
    // timer already, and the others' entries are read before any is a target.
    let mut islands = 0;
    for k in 0..n {
        if !s.params[k].dynamic {
            continue;
        }
        let r = find(&mut s.parent, k as u32) as usize;
        if r == k {
            islands += 1;
        } else {
            s.island_sleep[r] = min(s.island_sleep[r], s.island_sleep[k]);
        }
    }
    world.counters.island_count = islands;
    for k in 0..n {
        if !s.params[k].dynamic {
            continue;
        }
        let r = find(&mut s.parent, k as u32) as usize;
        if s.island_sleep[r] >= TIME_TO_SLEEP {
            let slot = s.params[k].body;
            let b = &mut world.bodies[slot as usize];
            b.awake = false;
            b.linear_velocity = Vec3::ZERO;
            b.angular_velocity = Vec3::ZERO;
            world.awake.sync(slot, &world.bodies, &world.contacts);
        }
    }
}

impl World {
    /// Wakes the island of a dynamic body: every sleeping body reached through touching
    /// contacts and acting joints. The set woken does not depend on list order.
    pub(crate) fn wake_island(&mut self, body: u32) {
        let b = &self.bodies[body as usize];
        if !b.alive || b.body_type != BodyType::Dynamic {
            return;
        }
        if b.awake {
            self.bodies[body as usize].sleep_time = 0.0;
            return;
        }
        let stack = &mut self.solver.stack;
        stack.clear();
        self.bodies[body as usize].awake = true;
        self.bodies[body as usize].sleep_time = 0.0;
        let ok = stack.push(body);
        debug_assert!(ok);
        while let Some(i) = stack.pop() {
            self.awake.sync(i, &self.bodies, &self.contacts);
            let mut key = edge::first::<Contact>(&self.bodies, i);
            while key != NONE {
                let n = edge::step(&self.contacts, key);
                if self.contacts[n.slot as usize].flags & CONTACT_TOUCHING != 0 {
                    let ob = &mut self.bodies[n.other as usize];
                    if ob.body_type == BodyType::Dynamic && !ob.awake {
                        ob.awake = true;
                        ob.sleep_time = 0.0;
                        let ok = stack.push(n.other);
                        debug_assert!(ok);
                    }
                }
                key = n.next;
            }
            let mut key = edge::first::<Joint>(&self.bodies, i);
            while key != NONE {
                let n = edge::step(&self.joints, key);
                if self.joints[n.slot as usize].acts() {
                    let ob = &mut self.bodies[n.other as usize];
                    if ob.body_type == BodyType::Dynamic && ob.enabled && !ob.awake {
                        ob.awake = true;
                        ob.sleep_time = 0.0;
                        let ok = stack.push(n.other);
                        debug_assert!(ok);
                    }
                }
                key = n.next;
            }
        }
    }

    /// Puts the island of a dynamic body to sleep at once.
    pub(crate) fn sleep_island(&mut self, body: u32) {
        let b = &self.bodies[body as usize];
        if !b.alive || b.body_type != BodyType::Dynamic || !b.awake {
            return;
        }
        let stack = &mut self.solver.stack;
        stack.clear();
        let put_to_sleep = |b: &mut crate::body::Body| {
            b.awake = false;
            b.sleep_time = 0.0;
            b.linear_velocity = Vec3::ZERO;
            b.angular_velocity = Vec3::ZERO;
        };
        put_to_sleep(&mut self.bodies[body as usize]);
        let ok = stack.push(body);
        debug_assert!(ok);
        while let Some(i) = stack.pop() {
            self.awake.sync(i, &self.bodies, &self.contacts);
            let mut key = edge::first::<Contact>(&self.bodies, i);
            while key != NONE {
                let n = edge::step(&self.contacts, key);
                if self.contacts[n.slot as usize].flags & CONTACT_TOUCHING != 0 {
                    let ob = &mut self.bodies[n.other as usize];
                    if ob.body_type == BodyType::Dynamic && ob.awake {
                        put_to_sleep(ob);
                        let ok = stack.push(n.other);
                        debug_assert!(ok);
                    }
                }
                key = n.next;
            }
            let mut key = edge::first::<Joint>(&self.bodies, i);
            while key != NONE {
                let n = edge::step(&self.joints, key);
                if self.joints[n.slot as usize].acts() {
                    let ob = &mut self.bodies[n.other as usize];
                    if ob.body_type == BodyType::Dynamic && ob.enabled && ob.awake {
                        put_to_sleep(ob);
                        let ok = stack.push(n.other);
                        debug_assert!(ok);
                    }
                }
                key = n.next;
            }
        }
    }
}
