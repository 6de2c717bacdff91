//! Persistence: a space's snapshot and restore (with the records brought in line after
//! it), its journal, the replay container of a journal, and comparison of two spaces.

use std::collections::BTreeSet;

use godot::classes::physics_server_3d::BodyMode;
use maul3d::{BodyId, MeshId, World};

use super::{Records, Space};
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

    /// Restores a space's world from a snapshot, then brings the records in line: an
    /// object whose `maul3d` body is not in the snapshot (created after it) becomes
    /// inert with one warning; a body in the snapshot whose Godot object was freed since
    /// is removed (it has no node to show it); every object's state is read back and
    /// queued for its state-sync callback; areas queue exits and entries for what they
    /// overlap now against what they last reported.
    pub fn restore(&mut self, space: u64, buf: &[u8]) -> Result<(), String> {
        let s = self
            .spaces
            .get_mut(&space)
            .ok_or_else(|| format!("RID({space}) is not a Maul3D space"))?;
        s.world.restore(buf).map_err(|e| e.to_string())?;
        // Kinematic targets given before the restore belong to the state it replaced.
        s.kinematic_targets.clear();
        let mut inert = 0;
        let mut live = BTreeSet::new();
        for (rid, o) in self.objs.iter_mut().filter(|(_, o)| o.space == Some(space)) {
            let Some(core) = &o.core else { continue };
            let ok = s.world.body_is_valid(core.body)
                && s.world.body_user_data(core.body).ok() == Some(*rid);
            if ok {
                live.insert(core.body);
                // The restored state may give it a velocity the step must stop.
                if !o.is_area && o.mode == BodyMode::KINEMATIC {
                    s.watch.kinematic.insert(*rid);
                }
            } else {
                o.core = None;
                inert += 1;
            }
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
