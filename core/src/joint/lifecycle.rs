//! The joint calls on [`World`] that create, destroy and read joints, and what creating
//! and destroying do to the pool, the body lists and the contacts between the bodies.
//! Creating and destroying validate and apply here; the public calls (`crate::api`)
//! record them.

use super::checks::{self, FRAME_A, FRAME_B, no_setting};
use super::{Joint, JointBreakEvent, JointDef, JointKind, revolute};
use crate::body::NONE;
use crate::contact::Contact;
use crate::edge;
use crate::error::{Error, Result};
use crate::id::{BodyId, JointId};
use crate::math::{DVec3, Quat, Transform, Vec3};
use crate::world::World;

impl World {
    pub(crate) fn joint_slot(&self, id: JointId) -> Result<usize> {
        self.joints.live_slot("joint", id.parts(), self.tag)
    }

    pub(crate) fn joint_id(&self, slot: u32) -> JointId {
        JointId {
            index: slot + 1,
            generation: self.joints[slot as usize].generation,
            world: self.tag,
        }
    }

    /// [`World::create_joint`] without its record (the API layer, `crate::api`, records it).
    pub(crate) fn create_joint_unrecorded(&mut self, def: &JointDef) -> Result<JointId> {
        let a = self.body_slot(def.body_a)?;
        let b = self.body_slot(def.body_b)?;
        if a == b {
            return Err(Error::Argument {
                name: "body_b",
                value: def.body_b.index as f64,
                expected: "a body other than body_a",
            });
        }
        let frame_a = checks::frame(&FRAME_A, def.local_frame_a)?;
        let frame_b = checks::frame(&FRAME_B, def.local_frame_b)?;
        checks::threshold("break_force", def.break_force)?;
        checks::threshold("break_torque", def.break_torque)?;
        def.kind.check()?;
        let slot = self
            .joints
            .take(
                |j| j.generation,
                |g| Joint {
                    generation: g.wrapping_add(1).max(1),
                    alive: true,
                    body_a: a as u32,
                    body_b: b as u32,
                    frame_a,
                    frame_b,
                    collide_connected: def.collide_connected,
                    break_force: def.break_force,
                    break_torque: def.break_torque,
                    kind: def.kind,
                    user_data: def.user_data,
                    ..Joint::dead(0)
                },
            )
            .ok_or(Error::Capacity {
                what: "joint_capacity",
                capacity: self.def.joint_capacity as u64,
            })?;
        self.link_joint(slot);
        self.joints.count += 1;
        if !def.collide_connected {
            self.destroy_contacts_between(a as u32, b as u32);
        }
        self.wake_body(a as u32);
        self.wake_body(b as u32);
        let id = self.joint_id(slot);
        Ok(id)
    }

    /// [`World::destroy_joint`] without its record (the API layer, `crate::api`, records it).
    pub(crate) fn destroy_joint_unrecorded(&mut self, id: JointId) -> Result<()> {
        let slot = self.joint_slot(id)? as u32;
        let (a, b) = {
            let j = &self.joints[slot as usize];
            (j.body_a, j.body_b)
        };
        self.free_joint(slot, true);
        self.wake_body(a);
        self.wake_body(b);
        Ok(())
    }

    /// Frees a joint slot; with `repair` and a joint that kept its bodies apart, asks the
    /// broad phase to look for their pairs again.
    fn free_joint(&mut self, slot: u32, repair: bool) {
        let j = &self.joints[slot as usize];
        let (a, b) = (j.body_a, j.body_b);
        let filtered = !j.collide_connected && !j.broken;
        self.unlink_joint(slot);
        let generation = self.joints[slot as usize].generation;
        self.joints[slot as usize] = Joint::dead(generation);
        let ok = self.joints.free.push(slot);
        debug_assert!(ok);
        self.joints.count -= 1;
        if repair && filtered {
            self.refind_pairs(a, b);
        }
    }

    /// Destroys every joint of a body being destroyed, in ascending joint slot order (the
    /// free list is state; the body's list order is not), waking the other bodies.
    pub(crate) fn destroy_body_joints(&mut self, body: u32) {
        let scratch = &mut self.joints.scratch;
        scratch.clear();
        for n in edge::walk(&self.joints.pool, &self.bodies, body) {
            let ok = scratch.push(n.slot);
            debug_assert!(ok);
        }
        scratch.sort_unstable();
        for k in 0..self.joints.scratch.len() {
            let slot = self.joints.scratch[k];
            let j = &self.joints[slot as usize];
            let other = if j.body_a == body { j.body_b } else { j.body_a };
            self.free_joint(slot, false);
            self.wake_body(other);
        }
    }

    pub(crate) fn link_joint(&mut self, slot: u32) {
        let ends = {
            let j = &self.joints[slot as usize];
            [j.body_a, j.body_b]
        };
        edge::link(&mut self.joints, &mut self.bodies, slot, ends);
    }

    fn unlink_joint(&mut self, slot: u32) {
        edge::unlink(&mut self.joints, &mut self.bodies, slot);
    }

    /// Destroys the contacts between two bodies in ascending contact slot order.
    pub(super) fn destroy_contacts_between(&mut self, a: u32, b: u32) {
        let (na, nb) = (
            edge::count::<Contact>(&self.bodies, a),
            edge::count::<Contact>(&self.bodies, b),
        );
        let (walk, other) = if na <= nb { (a, b) } else { (b, a) };
        let scratch = &mut self.solver.touching;
        scratch.clear();
        for n in edge::walk(&self.contacts, &self.bodies, walk) {
            if n.other == other {
                let ok = scratch.push(n.slot);
                debug_assert!(ok);
            }
        }
        scratch.sort_unstable();
        for k in 0..self.solver.touching.len() {
            let c = self.solver.touching[k];
            // A mesh pair's children went with it when it came first.
            if self.contacts[c as usize].alive {
                self.destroy_contact(c, false);
            }
        }
    }

    /// Puts the shapes of the body with fewer shapes into the move buffer, so the next
    /// pair search finds the pairs between `a` and `b` (Box2D's `b2Joint_SetCollideConnected`).
    pub(crate) fn refind_pairs(&mut self, a: u32, b: u32) {
        let (ba, bb) = (&self.bodies[a as usize], &self.bodies[b as usize]);
        if !ba.alive || !bb.alive {
            return;
        }
        let body = if ba.shape_count <= bb.shape_count {
            a
        } else {
            b
        };
        let mut s = self.bodies[body as usize].shape_head;
        while s != NONE {
            let shape = &self.shapes[s as usize];
            let next = shape.next_in_body;
            if shape.proxy != NONE {
                self.mark_enlarged(s);
            }
            s = next;
        }
    }

    /// Number of live joints.
    pub fn joint_count(&self) -> u32 {
        self.joints.count
    }

    /// All live joints, in slot order.
    pub fn joint_ids(&self) -> impl Iterator<Item = JointId> + '_ {
        self.joints
            .iter()
            .enumerate()
            .filter(|(_, j)| j.alive)
            .map(|(i, _)| self.joint_id(i as u32))
    }

    /// Whether `id` names a live joint of this world.
    pub fn joint_is_valid(&self, id: JointId) -> bool {
        self.joint_slot(id).is_ok()
    }

    fn joint(&self, id: JointId) -> Result<&Joint> {
        Ok(&self.joints[self.joint_slot(id)?])
    }

    /// The joint's kind with its current settings.
    pub fn joint_kind(&self, id: JointId) -> Result<JointKind> {
        Ok(self.joint(id)?.kind)
    }

    /// The joint as a def: bodies, frames (rotations normalised), current settings.
    pub fn joint_def(&self, id: JointId) -> Result<JointDef> {
        let j = self.joint(id)?;
        Ok(JointDef {
            body_a: self.body_id(j.body_a),
            body_b: self.body_id(j.body_b),
            local_frame_a: j.frame_a,
            local_frame_b: j.frame_b,
            collide_connected: j.collide_connected,
            break_force: j.break_force,
            break_torque: j.break_torque,
            user_data: j.user_data,
            kind: j.kind,
        })
    }

    /// The joint's two bodies.
    pub fn joint_bodies(&self, id: JointId) -> Result<(BodyId, BodyId)> {
        let j = self.joint(id)?;
        Ok((self.body_id(j.body_a), self.body_id(j.body_b)))
    }

    /// The force the joint applied to body B in the last step it was solved in, N (body A
    /// got the opposite).
    pub fn joint_reaction_force(&self, id: JointId) -> Result<Vec3> {
        Ok(self.joint(id)?.reaction_force)
    }

    /// The torque the joint applied to body B in the last step it was solved in, N·m
    /// (about B's centre of mass, not counting the force's moment).
    pub fn joint_reaction_torque(&self, id: JointId) -> Result<Vec3> {
        Ok(self.joint(id)?.reaction_torque)
    }

    /// Whether the joint broke (it stays alive and inert until destroyed).
    pub fn joint_is_broken(&self, id: JointId) -> Result<bool> {
        Ok(self.joint(id)?.broken)
    }

    /// Whether the joint's bodies collide with each other.
    pub fn joint_collide_connected(&self, id: JointId) -> Result<bool> {
        Ok(self.joint(id)?.collide_connected)
    }

    /// The host's data of the joint.
    pub fn joint_user_data(&self, id: JointId) -> Result<u64> {
        Ok(self.joint(id)?.user_data)
    }

    /// Both frames in world orientation now: rotations, and body B's anchor relative to
    /// body A's (f32, from the exact difference of the body positions).
    fn joint_frames_now(&self, j: &Joint) -> (Quat, Quat, Vec3) {
        let (ba, bb) = (
            &self.bodies[j.body_a as usize],
            &self.bodies[j.body_b as usize],
        );
        let qa = ba.rotation * j.frame_a.q;
        let qb = bb.rotation * j.frame_b.q;
        let d = (bb.position - ba.position).to_f32() + bb.rotation.rotate(j.frame_b.p)
            - ba.rotation.rotate(j.frame_a.p);
        (qa, qb, d)
    }

    /// A revolute joint's angle now: frame B about frame A's z axis, radians in [-π, π].
    pub fn revolute_angle(&self, id: JointId) -> Result<f32> {
        let j = self.joint(id)?;
        if !matches!(j.kind, JointKind::Revolute(_)) {
            return Err(no_setting("revolute_angle needs a revolute joint"));
        }
        let (qa, qb, _) = self.joint_frames_now(j);
        Ok(revolute::angle(qa, qb))
    }

    /// A prismatic joint's translation along frame A's x axis now, or a wheel joint's
    /// suspension translation along y, m.
    pub fn prismatic_translation(&self, id: JointId) -> Result<f32> {
        let j = self.joint(id)?;
        let axis = match j.kind {
            JointKind::Prismatic(_) => Vec3::X,
            JointKind::Wheel(_) => Vec3::Y,
            _ => {
                return Err(no_setting(
                    "prismatic_translation needs a prismatic or wheel joint",
                ));
            }
        };
        let (qa, _, d) = self.joint_frames_now(j);
        Ok(qa.rotate(axis).dot(d))
    }

    /// The distance between the joint's anchors now, m (any kind).
    pub fn distance_length(&self, id: JointId) -> Result<f32> {
        let j = self.joint(id)?;
        let (_, _, d) = self.joint_frames_now(j);
        Ok(d.length())
    }

    /// The local frames of a joint whose frame in the world is `anchor` (relative to the
    /// world origin) with axes `rotation`, for each body as it is now.
    pub fn joint_frames_at(
        &self,
        body_a: BodyId,
        body_b: BodyId,
        anchor: DVec3,
        rotation: Quat,
    ) -> Result<(Transform, Transform)> {
        let (ba, bb) = (
            &self.bodies[self.body_slot(body_a)?],
            &self.bodies[self.body_slot(body_b)?],
        );
        for i in 0..3 {
            if !anchor.get(i).is_finite() {
                return Err(Error::Argument {
                    name: "anchor",
                    value: anchor.get(i),
                    expected: "finite",
                });
            }
        }
        let q = crate::error::check_rotation("rotation", "rotation norm²", rotation)?;
        let frame =
            |p: DVec3, r: Quat| Transform::new(r.inv_rotate((anchor - p).to_f32()), r.inv_mul(q));
        Ok((
            frame(ba.position, ba.rotation),
            frame(bb.position, bb.rotation),
        ))
    }

    /// Joints that broke in the last step, in joint slot order.
    pub fn joint_break_events(&self) -> &[JointBreakEvent] {
        &self.joints.break_events
    }
}
