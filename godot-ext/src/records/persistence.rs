//! Persistence: a space's snapshot and restore (with the records brought in line after
//! it), its journal, the replay container of a journal, and comparison of two spaces.

use std::collections::{BTreeMap, BTreeSet};

use godot::classes::physics_server_3d::{BodyDampMode, BodyMode};
use maul3d::{BodyId, BodyType, MeshId, World};

use super::{AreaParams, CoreObj, Obj, PAST_BODIES, Records, ShapeSlot, Space};
use crate::errors::{OrReport, site, warn_once};

impl Records {
    pub fn space(&self, space: u64) -> Result<&Space, String> {
        self.spaces
            .get(&space)
            .ok_or_else(|| format!("RID({space}) is not a Maul3D space"))
    }

    pub fn snapshot(&self, space: u64) -> Result<Vec<u8>, String> {
        let w = &self.space(space)?.world;
        let mut buf = vec![0u8; w.snapshot_size()];
        let n = w.snapshot(&mut buf).map_err(|e| e.to_string())?;
        buf.truncate(n);
        Ok(buf)
    }

    /// Restores a space's world from a snapshot, then brings the records in line with it
    /// (README "Rollback in Godot", the rules):
    /// - each object is attached to the body the restored world holds for it (the body
    ///   whose user data is its RID). When that is an earlier body of the object (it was
    ///   rebuilt since the snapshot: a mode change, shapes added or removed, a new scale),
    ///   the record takes back the shape slots and scale it was made from
    ///   ([`Obj::past`](super::Obj)); past its memory, it keeps its slots and takes the
    ///   world's shapes by their index.
    /// - an object without a body in the snapshot (created after it) becomes inert with
    ///   one warning; a body whose Godot object was freed since is removed (no node could
    ///   show it);
    /// - every setting the world holds is read back into the record (mode, layers and
    ///   masks, friction and bounce, damping, gravity scale, mass, locks, sleep and CCD
    ///   flags, custom integrator), then the state, queued for its state-sync callback;
    ///   areas queue exits and entries for what they overlap now against what they last
    ///   reported;
    /// - soft bodies as `crate::soft` says (`Records::soft_after_restore`).
    pub fn restore(&mut self, space: u64, buf: &[u8]) -> Result<(), String> {
        let s = self
            .spaces
            .get_mut(&space)
            .ok_or_else(|| format!("RID({space}) is not a Maul3D space"))?;
        s.world.restore(buf).map_err(|e| e.to_string())?;
        // Kinematic targets given before the restore belong to the state it replaced.
        s.kinematic_targets.clear();
        // Each object's body in the restored world, by its user data (the object's RID).
        let mut by_rid: BTreeMap<u64, BodyId> = BTreeMap::new();
        for b in s.world.body_ids() {
            if Some(b) != s.anchor
                && let Ok(rid) = s.world.body_user_data(b)
            {
                by_rid.entry(rid).or_insert(b);
            }
        }
        let mut inert = 0;
        let mut derived = 0;
        let mut live = BTreeSet::new();
        let mut reslotted: Vec<(u64, Vec<ShapeSlot>, Vec<ShapeSlot>)> = Vec::new();
        for (rid, o) in self.objs.iter_mut().filter(|(_, o)| o.space == Some(space)) {
            let Some(&body) = by_rid.get(rid) else {
                if o.core.take().is_some() {
                    inert += 1;
                }
                continue;
            };
            live.insert(body);
            if o.core.as_ref().is_some_and(|c| c.body == body) {
                continue;
            }
            let w = &s.world;
            let past = o
                .past
                .iter()
                .rev()
                .find(|p| p.core.body == body && core_matches(w, &p.core))
                .cloned();
            if let Some(p) = past {
                let before = std::mem::replace(&mut o.shapes, p.slots);
                reslotted.push((*rid, before, o.shapes.clone()));
                o.scale = p.scale;
                o.core = Some(p.core);
            } else {
                o.core = Some(core_from_world(w, body, o.shapes.len()));
                derived += 1;
            }
        }
        for (rid, before, after) in reslotted {
            self.forget_shape_users(rid, &before);
            self.note_shape_users(rid, &after);
        }
        let s = self.spaces.get_mut(&space).expect("space exists");
        let mut rewatch = Vec::new();
        for (rid, o) in self.objs.iter_mut().filter(|(_, o)| o.space == Some(space)) {
            if let Some(core) = &o.core {
                let core = core.clone();
                settings_from_world(&s.world, &s.default_area, o, &core);
                rewatch.push(*rid);
            }
        }
        // The per-tick sets follow the restored settings; every kinematic body goes in
        // (the restored state may give it a velocity the step must stop).
        for rid in rewatch {
            self.watch(rid);
        }
        let s = self.spaces.get_mut(&space).expect("space exists");
        if derived > 0 {
            warn_once(
                "restore derived",
                &format!(
                    "after a restore, {derived} object(s) went back to a body made more than {PAST_BODIES} rebuilds ago: they keep their shape slots and take the world's shapes by index"
                ),
            );
        }
        s.shape_owners.clear();
        for (rid, o) in self.objs.iter().filter(|(_, o)| o.space == Some(space)) {
            if let Some(core) = &o.core {
                s.own_shapes(*rid, core);
            }
        }
        if inert > 0 {
            warn_once(
                "restore inert",
                &format!(
                    "after a restore, {inert} object(s) created after the snapshot are inert (no body in the restored world)"
                ),
            );
        }
        let anchor = s.anchor.filter(|a| s.world.body_is_valid(*a));
        s.anchor = anchor;
        // The inner bodies of the characters Maul3D's nodes own are theirs, not freed
        // objects' (characters and water volumes no node owns go here).
        live.extend(s.extras.after_restore(&mut s.world));
        let ghosts: Vec<BodyId> = s
            .world
            .body_ids()
            .filter(|b| !live.contains(b) && Some(*b) != anchor)
            .collect();
        if !ghosts.is_empty() {
            warn_once(
                "restore ghosts",
                "after a restore, bodies whose Godot objects were freed since the snapshot are removed",
            );
        }
        for g in ghosts {
            s.world
                .destroy_body(g)
                .or_report(site!("Maul3D.restore: removing a freed object's body"));
        }
        // Meshes no live object holds (made for bodies gone since, or rebuilt since) go.
        let held: BTreeSet<MeshId> = self
            .objs
            .values()
            .filter(|o| o.space == Some(space))
            .filter_map(|o| o.core.as_ref())
            .flat_map(|c| c.meshes.iter().copied())
            .collect();
        let orphans: Vec<MeshId> = s.world.mesh_ids().filter(|m| !held.contains(m)).collect();
        for m in orphans {
            s.world
                .destroy_mesh(m)
                .or_report(site!("Maul3D.restore: removing a mesh no object holds"));
        }
        self.soft_after_restore(space);
        let s = self.spaces.get_mut(&space).expect("space exists");
        for (_, j) in self.joints.iter_mut() {
            if let Some((sp, id)) = j.core
                && sp == space
                && !s.world.joint_is_valid(id)
            {
                j.core = None;
            }
        }
        let rids: Vec<u64> = self
            .objs
            .iter()
            .filter(|(_, o)| o.space == Some(space) && o.core.is_some())
            .map(|(r, _)| *r)
            .collect();
        for rid in &rids {
            self.pull(*rid);
        }
        let mut events = Vec::new();
        for rid in &rids {
            let o = &self.objs[rid];
            if !o.is_area {
                continue;
            }
            let now = self.area_overlaps(*rid);
            for gone in o.reported.difference(&now) {
                events.push((*rid, 1, gone.0, gone.1, gone.2));
            }
            for new in now.difference(&o.reported) {
                events.push((*rid, 0, new.0, new.1, new.2));
            }
        }
        let s = self.spaces.get_mut(&space).expect("space exists");
        s.moved = rids.into_iter().filter(|r| !self.objs[r].is_area).collect();
        s.area_events = events;
        Ok(())
    }

    pub fn start_journal(&mut self, space: u64, capacity: usize) -> Result<(), String> {
        let start = self.snapshot(space)?;
        let s = self.spaces.get_mut(&space).expect("space exists");
        s.world.start_journal(capacity).map_err(|e| e.to_string())?;
        s.journal_start = Some(start);
        Ok(())
    }

    pub fn stop_journal(&mut self, space: u64) -> Result<usize, String> {
        let s = self
            .spaces
            .get_mut(&space)
            .ok_or_else(|| format!("RID({space}) is not a Maul3D space"))?;
        s.world.stop_journal().map_err(|e| e.to_string())
    }

    /// The replay container of the last journal: its starting snapshot, the tape and the
    /// world's hash now.
    pub fn replay(&self, space: u64) -> Result<Vec<u8>, String> {
        let s = self.space(space)?;
        if s.world.journal_running() {
            return Err("stop the journal before saving its replay".into());
        }
        let start = s
            .journal_start
            .as_ref()
            .ok_or("no journal was recorded in this space")?;
        let tape = s.world.journal_tape();
        let mut out = vec![0u8; maul3d::encoded_replay_size(start.len(), tape.len())];
        let n = maul3d::encode_replay(start, tape, s.world.hash(), &mut out)
            .map_err(|e| e.to_string())?;
        out.truncate(n);
        Ok(out)
    }

    /// Body slots whose state differs between two spaces' worlds.
    pub fn compare(&self, a: u64, b: u64) -> Result<usize, String> {
        let (wa, wb) = (&self.space(a)?.world, &self.space(b)?.world);
        let mut rows = [maul3d::BodyDiff::default(); 1];
        Ok(World::compare(wa, wb, &mut rows))
    }
}

/// Whether a remembered core is what the world holds: every shape of it on its body, and
/// no other.
fn core_matches(w: &World, core: &CoreObj) -> bool {
    let ids: Vec<_> = core.shapes.iter().filter_map(|(s, _)| *s).collect();
    ids.iter().all(|s| w.shape_body(*s).ok() == Some(core.body))
        && w.body_shapes(core.body)
            .is_ok_and(|it| it.count() == ids.len())
}

/// An object's core read from the world, for a body its record no longer remembers: each
/// shape at the Godot index its user data holds (`shape_def`: the index modulo 256), the
/// hull or mesh it uses, at least `slots` entries.
fn core_from_world(w: &World, body: BodyId, slots: usize) -> CoreObj {
    let mut shapes: Vec<(Option<maul3d::ShapeId>, Option<maul3d::HullId>)> =
        vec![(None, None); slots];
    let mut found: Vec<(usize, maul3d::ShapeId)> = w
        .body_shapes(body)
        .map(|it| {
            it.map(|s| (w.shape_user_data(s).map_or(0, |u| (u & 0xff) as usize), s))
                .collect()
        })
        .unwrap_or_default();
    found.sort();
    let mut meshes = Vec::new();
    for (i, s) in found {
        // A second shape at one index (an object of more than 256 slots) goes after the
        // others.
        let i = if shapes.get(i).is_some_and(|e| e.0.is_some()) {
            shapes.len()
        } else {
            i
        };
        if shapes.len() <= i {
            shapes.resize(i + 1, (None, None));
        }
        let hull = w.shape_hull(s).ok();
        if let Ok(m) = w.shape_mesh(s) {
            meshes.push(m);
        }
        shapes[i] = (Some(s), hull);
    }
    CoreObj {
        body,
        shapes,
        meshes,
    }
}

/// Reads back into an object's record every setting its body and shapes hold in the
/// world, where the record's value would not give the world's: mode, layer and mask,
/// friction and bounce, damping, gravity scale, mass, locks, sleep, CCD and custom
/// integrator flags. What the world does not hold (the Godot shape resources, inertia
/// and centre of mass set by hand, damping modes) stays as the record has it.
fn settings_from_world(w: &World, default_area: &AreaParams, o: &mut Obj, core: &CoreObj) {
    let body = core.body;
    if !o.is_area
        && let Ok(ty) = w.body_type(body)
        && ty != o.body_type()
    {
        o.mode = match ty {
            BodyType::Static => BodyMode::STATIC,
            BodyType::Kinematic => BodyMode::KINEMATIC,
            BodyType::Dynamic => BodyMode::RIGID,
        };
    }
    if let Some(first) = core.shapes.iter().find_map(|(s, _)| *s) {
        if let Ok(f) = w.shape_filter(first) {
            o.layer = (f.category_bits & 0xffff_ffff) as u32;
            o.mask = (f.mask_bits & 0xffff_ffff) as u32;
        }
        if !o.is_area
            && let (Ok(f), Ok(rough), Ok(b), Ok(absorbent)) = (
                w.shape_friction(first),
                w.shape_rough(first),
                w.shape_restitution(first),
                w.shape_absorbent(first),
            )
            && super::shapes::material(o) != (f, rough, b, absorbent)
        {
            o.friction = if rough { -f } else { f };
            o.bounce = if absorbent { -b } else { b };
        }
    }
    if let Ok(g) = w.body_gravity_scale(body) {
        o.gravity_scale = g;
    }
    if let Ok(c) = w.body_sleep_enabled(body) {
        o.can_sleep = c;
    }
    if let Ok(c) = w.body_is_bullet(body) {
        o.ccd = c;
    }
    if let Ok(c) = w.body_custom_integrator(body) {
        o.omit_force_integration = c;
    }
    if let Ok(l) = w.body_motion_locks(body)
        && l != o.motion_locks()
    {
        let bit = |on: bool, b: u32| if on { b } else { 0 };
        let angular = if o.mode == BodyMode::RIGID_LINEAR {
            o.locks & (8 | 16 | 32)
        } else {
            bit(l.angular_x, 8) | bit(l.angular_y, 16) | bit(l.angular_z, 32)
        };
        o.locks = bit(l.linear_x, 1) | bit(l.linear_y, 2) | bit(l.linear_z, 4) | angular;
    }
    if o.is_dynamic()
        && let Ok(m) = w.body_mass_data(body)
        && m.mass != maul3d::math::max(o.mass, 1e-6)
    {
        o.mass = m.mass;
    }
    if !o.is_area
        && let Ok((linear, angular)) = w.body_damping(body)
    {
        // The inverse of `apply_damping`'s combination (exact for REPLACE; for COMBINE
        // within float rounding of the space default).
        let own = |mode: BodyDampMode, own: f32, default: f32, world: f32| {
            let combined = if mode == BodyDampMode::REPLACE {
                own
            } else {
                own + default
            };
            if maul3d::math::max(combined, 0.0) == world {
                own
            } else if mode == BodyDampMode::REPLACE {
                world
            } else {
                world - default
            }
        };
        o.linear_damp = own(
            o.linear_damp_mode,
            o.linear_damp,
            default_area.linear_damp,
            linear,
        );
        o.angular_damp = own(
            o.angular_damp_mode,
            o.angular_damp,
            default_area.angular_damp,
            angular,
        );
    }
}
