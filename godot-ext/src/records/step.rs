//! Step and reports: stepping every active space, and what a step reports back to the
//! records (bodies that moved, area events, the contacts a reporting body has).

use godot::prelude::*;
use maul3d::BodyId;
use maul3d::math::Vec3;

use super::{EMPTY_PAIR, Records, query_shape_of};
use crate::conv::{gv, v3};
use crate::errors::{OrReport, error_once, site};
use crate::settings::substeps;

/// One contact a body reports (bodies with `max_contacts_reported` > 0).
#[derive(Clone, Copy)]
pub(crate) struct ReportedContact {
    pub local_position: Vector3,
    pub local_normal: Vector3,
    pub local_shape: i32,
    pub collider: u64,
    pub collider_id: u64,
    pub collider_shape: i32,
    pub collider_position: Vector3,
    pub collider_velocity: Vector3,
}

impl Records {
    /// Steps every active space by `dt`, then reads back what moved and what areas saw.
    pub fn step(&mut self, dt: f32) {
        let substeps = substeps();
        let spaces: Vec<u64> = self
            .spaces
            .iter()
            .filter(|(_, s)| s.active)
            .map(|(r, _)| *r)
            .collect();
        for space in spaces {
            self.apply_constant_forces(space);
            let s = self.spaces.get_mut(&space).expect("space exists");
            s.last_step = dt;
            if let Err(e) = s.world.step(dt, substeps) {
                error_once("step", &format!("step failed: {e}"));
            }
            for b in std::mem::take(&mut s.kinematic_targets) {
                // A body freed or rebuilt since Godot moved it is gone: nothing to stop.
                if !s.world.body_is_valid(b) {
                    continue;
                }
                // Reached its target: it stops unless Godot moves it again.
                s.world
                    .set_body_velocity(b, Vec3::ZERO, Vec3::ZERO)
                    .or_report(site!("body_set_state(TRANSFORM): stopping at the target"));
            }
            let moved: Vec<u64> = s
                .world
                .body_move_events()
                .iter()
                .map(|e| s.world.body_user_data(e.body).unwrap_or(0))
                .collect();
            let mut area_events = Vec::new();
            for (events, status) in [
                (s.world.sensor_begin_events(), 0),
                (s.world.sensor_end_events(), 1),
            ] {
                for e in events {
                    let (area, area_shape) = s.shape_owner(e.sensor);
                    let (other, other_shape) = s.shape_owner(e.visitor);
                    area_events.push((area, status, other, other_shape, area_shape));
                }
            }
            s.moved = moved;
            s.area_events = area_events;
            let moved = s.moved.clone();
            for rid in moved {
                self.pull(rid);
            }
            let reporting: Vec<u64> = self
                .objs
                .iter()
                .filter(|(_, o)| o.space == Some(space) && o.max_contacts > 0)
                .map(|(r, _)| *r)
                .collect();
            for rid in reporting {
                self.collect_contacts(rid);
            }
            self.monitor_areas(space);
        }
    }

    fn apply_constant_forces(&mut self, space: u64) {
        let pushed: Vec<(BodyId, Vec3, Vec3)> = self
            .objs
            .values()
            .filter(|o| o.space == Some(space) && o.is_dynamic())
            .filter(|o| o.constant_force != Vector3::ZERO || o.constant_torque != Vector3::ZERO)
            .filter_map(|o| {
                Some((
                    o.core.as_ref()?.body,
                    v3(o.constant_force),
                    v3(o.constant_torque),
                ))
            })
            .collect();
        let Some(w) = self.world_mut(space) else {
            return;
        };
        for (b, f, t) in pushed {
            w.apply_force_to_center(b, f)
                .or_report(site!("body_set_constant_force (applied each step)"));
            w.apply_torque(b, t)
                .or_report(site!("body_set_constant_torque (applied each step)"));
        }
    }

    /// The contacts a reporting body has now: each of its shapes probed against the
    /// world (a query; the core keeps no per-body contact list to read).
    fn collect_contacts(&mut self, rid: u64) {
        let Some(o) = self.objs.get(&rid) else {
            return;
        };
        let mut found = Vec::new();
        if let (Some(space), Some(core)) = (o.space.and_then(|s| self.spaces.get(&s)), &o.core) {
            let w = &space.world;
            let inv = o.transform.affine_inverse();
            // What the body collides with, by the same test as the pair filter.
            let f = o.filter();
            let filter = maul3d::QueryFilter {
                category_bits: f.category_bits,
                mask_bits: f.mask_bits,
                include_sensors: false,
            };
            let mut pairs = [EMPTY_PAIR; 8];
            for (i, (id, hull)) in core.shapes.iter().enumerate() {
                let Some(id) = id else { continue };
                let Some(probe) = query_shape_of(w, *id, *hull) else {
                    continue;
                };
                let (p, q) = match (w.body_position(core.body), w.body_rotation(core.body)) {
                    (Ok(p), Ok(q)) => (p, q),
                    _ => continue,
                };
                let n = w
                    .contact_points(&probe, p, q, 0.01, &filter, Some(core.body), &mut pairs)
                    .unwrap_or(0);
                for c in &pairs[..n.min(pairs.len())] {
                    if found.len() >= o.max_contacts as usize {
                        break;
                    }
                    let other_rid = w.body_user_data(c.body).unwrap_or(0);
                    let other_shape = space.shape_owner(c.shape).1;
                    let other = self.objs.get(&other_rid);
                    found.push(ReportedContact {
                        local_position: inv * crate::conv::gdv(c.point_on_query),
                        local_normal: inv.basis * gv(c.normal),
                        local_shape: i as i32,
                        collider: other_rid,
                        collider_id: other.map_or(0, |o| o.instance_id),
                        collider_shape: other_shape,
                        collider_position: crate::conv::gdv(c.point_on_other),
                        collider_velocity: gv(c.velocity),
                    });
                }
            }
        }
        if let Some(o) = self.objs.get_mut(&rid) {
            o.contacts = found;
        }
    }
}
