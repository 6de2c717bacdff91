//! Step and reports: stepping every active space, and what a step reports back to the
//! records (bodies that moved, area events, the contacts a reporting body has).

use std::collections::BTreeMap;

use godot::classes::physics_server_3d::BodyMode;
use godot::prelude::*;
use maul3d::math::Vec3;
use maul3d::{BodyId, BodyType, ContactData};

use super::bodies::wake_sleepers_touching;
use super::{Obj, Records, Space};
use crate::conv::{gdv, gv, v3};
use crate::errors::{OrReport, error_once, site};
use crate::settings::substeps;

/// One contact point a body reports (bodies with `max_contacts_reported` > 0), in
/// Godot's terms (see `report_points`).
#[derive(Clone, Copy)]
pub(crate) struct ReportedContact {
    /// The point on the body's surface, global.
    pub local_position: Vector3,
    /// From the collider toward the body.
    pub local_normal: Vector3,
    pub local_shape: i32,
    /// The body's velocity at the point.
    pub local_velocity: Vector3,
    /// The impulse the contact gave the body over the step (normal and friction).
    pub impulse: Vector3,
    pub collider: u64,
    pub collider_id: u64,
    pub collider_shape: i32,
    pub collider_position: Vector3,
    pub collider_velocity: Vector3,
}

impl Records {
    /// Steps every active space by `dt` (Godot's automatic step; spaces in manual step
    /// mode are left to `Maul3D.step_space`), then reads back what moved and what areas
    /// saw.
    pub fn step(&mut self, dt: f32) {
        let spaces: Vec<u64> = self
            .spaces
            .iter()
            .filter(|(_, s)| s.active && !s.manual_step)
            .map(|(r, _)| *r)
            .collect();
        for space in spaces {
            self.step_space(space, dt);
        }
    }

    /// One step of one space by `dt`, then what moved and what areas saw is read back
    /// and queued for the space's flush. Unknown spaces are ignored.
    pub fn step_space(&mut self, space: u64, dt: f32) {
        let substeps = substeps();
        if !self.spaces.contains_key(&space) {
            return;
        }
        self.apply_constant_forces(space);
        self.move_kinematic_bodies(space, dt);
        // The step moves the soft bodies off their rest places.
        self.soft_stepped(space);
        let s = self.spaces.get_mut(&space).expect("space exists");
        s.last_step = dt;
        super::growth::grow_before_step(&mut s.world);
        if let Err(e) = s.world.step(dt, substeps) {
            error_once("step", &format!("step failed: {e}"));
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
                // Areas seen by areas are `monitor_areas`' to report.
                if self.objs.get(&other).is_some_and(|o| o.is_area) {
                    continue;
                }
                area_events.push((area, status, other, other_shape, area_shape));
            }
        }
        s.moved = moved;
        s.area_events = area_events;
        let moved = s.moved.clone();
        for rid in moved {
            self.pull(rid);
        }
        let reporting: Vec<u64> = self.spaces[&space]
            .watch
            .reporters
            .iter()
            .copied()
            .filter(|r| {
                self.objs
                    .get(r)
                    .is_some_and(|o| o.space == Some(space) && o.max_contacts > 0)
            })
            .collect();
        for rid in reporting {
            self.collect_contacts(rid, substeps);
        }
        self.monitor_areas(space);
    }

    /// Before a step of length `dt`: each kinematic body Godot moved by transform since
    /// the last step gets the velocity that takes it to its target in this step (Godot
    /// Physics and Jolt do the same, and keep it until the next step: it is the
    /// platform's velocity `move_and_slide` rides and a motion test reports); every other
    /// kinematic body stops (it kept the last step's velocity until now). Kinematic
    /// bodies get no velocity any other way here (Godot's `LINEAR_VELOCITY` does not
    /// move them), so stopping them is read from their records, not remembered: a
    /// restored snapshot stops the same way.
    fn move_kinematic_bodies(&mut self, space: u64, dt: f32) {
        let Some(s) = self.spaces.get_mut(&space) else {
            return;
        };
        let targets = std::mem::take(&mut s.kinematic_targets);
        let w = &mut s.world;
        // Only the kinematic bodies that may have a velocity (`Watch::kinematic`), in RID
        // order; each is stopped unless moved again, and then drops out of the set.
        let watched = std::mem::take(&mut s.watch.kinematic);
        for &rid in &watched {
            let Some(o) = self.objs.get(&rid) else {
                continue;
            };
            let Some(core) = &o.core else { continue };
            if o.space != Some(space) || o.is_area || o.mode != BodyMode::KINEMATIC {
                continue;
            }
            let b = core.body;
            if targets.contains_key(&b) {
                continue;
            }
            let moving = w.body_linear_velocity(b).is_ok_and(|v| v != Vec3::ZERO)
                || w.body_angular_velocity(b).is_ok_and(|v| v != Vec3::ZERO);
            if moving {
                w.set_body_velocity(b, Vec3::ZERO, Vec3::ZERO)
                    .or_report(site!("step: stopping a kinematic body not moved since"));
            }
        }
        let mut moving = watched;
        moving.clear();
        for (b, t) in targets {
            // A body freed, rebuilt or made non-kinematic since Godot moved it: no target.
            if w.body_type(b).ok() != Some(BodyType::Kinematic) {
                continue;
            }
            if let Ok(rid) = w.body_user_data(b) {
                moving.insert(rid);
            }
            if w.set_body_target_transform(b, t.position, t.rotation, dt)
                .or_report(site!("body_set_state(TRANSFORM): moving to the target"))
                .is_some()
            {
                wake_sleepers_touching(w, b);
            }
        }
        // Moved now: stopped at the next step unless moved again.
        s.watch.kinematic = moving;
    }

    fn apply_constant_forces(&mut self, space: u64) {
        let Some(watch) = self.spaces.get(&space).map(|s| &s.watch) else {
            return;
        };
        let pushed: Vec<(BodyId, Vec3, Vec3)> = watch
            .forced
            .iter()
            .filter_map(|r| self.objs.get(r))
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

    /// The contacts a reporting body has after the step, point by point, read from the
    /// core's contact data (what the solver used: Godot's impulse is the solver's).
    /// `substeps`: the step's, since the core's impulses are one substep's.
    fn collect_contacts(&mut self, rid: u64, substeps: u32) {
        let Some(o) = self.objs.get(&rid) else {
            return;
        };
        let mut found = Vec::new();
        if let (Some(space), Some(core)) = (o.space.and_then(|s| self.spaces.get(&s)), &o.core) {
            let w = &space.world;
            let site = site!("body contact report (contact_monitor)");
            let capacity = w.body_contact_capacity(core.body).or_report(site);
            let mut data = vec![ContactData::default(); capacity.unwrap_or(0)];
            let n = w.body_contact_data(core.body, &mut data).or_report(site);
            let max = o.max_contacts.max(0) as usize;
            // The first `max` points, in the core's order (Godot keeps the deepest).
            for c in &data[..n.unwrap_or(0).min(data.len())] {
                let room = max.saturating_sub(found.len());
                let points = report_points(space, &self.objs, core.body, c, substeps);
                found.extend(points.into_iter().take(room));
            }
        }
        if let Some(o) = self.objs.get_mut(&rid) {
            o.contacts = found;
        }
    }
}

impl Space {
    /// The world's touching contact points for Godot's debug view (`space_get_contacts`):
    /// both surface points of every manifold point that touches, as Godot Physics and
    /// Jolt give them (two per point), read from the core's contact data; at most
    /// `debug_contacts` of them.
    pub fn debug_contact_points(&self) -> Vec<Vector3> {
        let max = self.debug_contacts.max(0) as usize;
        if max == 0 {
            return Vec::new();
        }
        let mut data = vec![ContactData::default(); self.world.contact_data_capacity()];
        let n = self.world.contact_data(&mut data).min(data.len());
        let mut out = Vec::new();
        for c in &data[..n] {
            let m = &c.manifold;
            for p in m.points().iter().filter(|p| touches(p)) {
                let mid = gdv(p.point);
                let half = gv(m.normal) * (0.5 * p.separation);
                for q in [mid - half, mid + half] {
                    if out.len() < max {
                        out.push(q);
                    }
                }
            }
        }
        out
    }
}

/// Whether a manifold point is one Godot reports: touching, or a speculative point the
/// solver pushed on.
fn touches(p: &maul3d::ContactManifoldPoint) -> bool {
    p.separation <= 0.0 || p.max_normal_impulse > 0.0 || p.normal_impulse > 0.0
}

/// The points of one touching contact of `body`, as Godot reports them to it: positions
/// global (Godot 4's `get_contact_local_position`), the normal from the collider toward
/// the body, the impulse the contact gave the body over the step. A speculative point
/// (apart, and the solver never pushed on it) is left out: Godot reports contacts that
/// touch.
fn report_points(
    space: &Space,
    objs: &BTreeMap<u64, Obj>,
    body: BodyId,
    c: &ContactData,
    substeps: u32,
) -> Vec<ReportedContact> {
    let w = &space.world;
    let self_is_a = w.shape_body(c.shape_a).is_ok_and(|b| b == body);
    let (own, other) = if self_is_a {
        (c.shape_a, c.shape_b)
    } else {
        (c.shape_b, c.shape_a)
    };
    let (other_rid, other_shape) = space.shape_owner(other);
    let velocity = |b: BodyId| {
        let v = w.body_linear_velocity(b).unwrap_or_default();
        (v, w.body_angular_velocity(b).unwrap_or_default())
    };
    let (v_self, w_self) = velocity(body);
    let (v_other, w_other) = w.shape_body(other).map(velocity).unwrap_or_default();
    // The core's normal runs from A to B; its impulses act on B (their opposite on A).
    let m = &c.manifold;
    let sign = if self_is_a { -1.0 } else { 1.0 };
    let normal = gv(m.normal) * sign;
    let steps = substeps as f32;
    m.points()
        .iter()
        .filter(|p| touches(p))
        .map(|p| {
            let (anchor_self, anchor_other) = if self_is_a {
                (p.anchor_a, p.anchor_b)
            } else {
                (p.anchor_b, p.anchor_a)
            };
            // The point lies midway between the surfaces: each body's surface point is
            // half the separation from it along the normal.
            let mid = gdv(p.point);
            let half = normal * (0.5 * p.separation);
            // One substep's accumulated impulse, applied at each of the step's substeps.
            let impulse = (normal * p.normal_impulse + gv(p.tangent_impulse) * sign) * steps;
            ReportedContact {
                local_position: mid + half,
                local_normal: normal,
                local_shape: space.shape_owner(own).1,
                local_velocity: gv(v_self + w_self.cross(anchor_self)),
                impulse,
                collider: other_rid,
                collider_id: objs.get(&other_rid).map_or(0, |o| o.instance_id),
                collider_shape: other_shape,
                collider_position: mid - half,
                collider_velocity: gv(v_other + w_other.cross(anchor_other)),
            }
        })
        .collect()
}
