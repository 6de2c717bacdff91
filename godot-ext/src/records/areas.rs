//! Areas: Godot's area parameters (an area's own and a space's default area), as the
//! core's area settings on the sensor shapes, and what areas overlap, read from the
//! core's sensors (which detect other areas' shapes for areas monitoring areas).

use std::collections::BTreeSet;

use godot::classes::physics_server_3d::{AreaParameter, AreaSpaceOverrideMode};
use godot::prelude::*;
use maul3d::math::max;
use maul3d::{AreaGravity, AreaMode, AreaSettings, ShapeId};

use super::{Obj, Records};
use crate::conv::{v3, var_f32};
use crate::errors::{OrReport, error_once, site, warn_once};

/// What an area sets: Godot's area parameters.
#[derive(Clone)]
pub(crate) struct AreaParams {
    pub gravity_mode: AreaSpaceOverrideMode,
    pub gravity: f32,
    pub gravity_vector: Vector3,
    pub gravity_is_point: bool,
    pub gravity_point_unit_distance: f32,
    pub linear_damp_mode: AreaSpaceOverrideMode,
    pub linear_damp: f32,
    pub angular_damp_mode: AreaSpaceOverrideMode,
    pub angular_damp: f32,
    pub priority: i32,
}

impl Default for AreaParams {
    fn default() -> AreaParams {
        AreaParams {
            gravity_mode: AreaSpaceOverrideMode::DISABLED,
            gravity: 9.8,
            gravity_vector: Vector3::new(0.0, -1.0, 0.0),
            gravity_is_point: false,
            gravity_point_unit_distance: 0.0,
            linear_damp_mode: AreaSpaceOverrideMode::DISABLED,
            linear_damp: 0.1,
            angular_damp_mode: AreaSpaceOverrideMode::DISABLED,
            angular_damp: 0.1,
            priority: 0,
        }
    }
}

impl Records {
    /// An area's override settings on each of its sensor shapes.
    pub fn apply_area(&mut self, rid: u64) {
        let Some(o) = self.objs.get(&rid) else {
            return;
        };
        if !o.is_area {
            return;
        }
        let Some(core) = o.core.as_ref() else {
            return;
        };
        let a = &o.area;
        let mode = |m: AreaSpaceOverrideMode| match m {
            AreaSpaceOverrideMode::COMBINE => AreaMode::Combine,
            AreaSpaceOverrideMode::COMBINE_REPLACE => AreaMode::CombineReplace,
            AreaSpaceOverrideMode::REPLACE => AreaMode::Replace,
            AreaSpaceOverrideMode::REPLACE_COMBINE => AreaMode::ReplaceCombine,
            _ => AreaMode::Disabled,
        };
        let settings = AreaSettings {
            priority: a.priority,
            gravity_mode: mode(a.gravity_mode),
            gravity: if a.gravity_is_point {
                AreaGravity::Point {
                    center: v3(a.gravity_vector),
                    strength: a.gravity,
                    unit_distance: a.gravity_point_unit_distance,
                }
            } else {
                AreaGravity::Directional(v3(a.gravity_vector * a.gravity))
            },
            linear_damping_mode: mode(a.linear_damp_mode),
            linear_damping: max(a.linear_damp, 0.0),
            angular_damping_mode: mode(a.angular_damp_mode),
            angular_damping: max(a.angular_damp, 0.0),
        };
        let any = settings.gravity_mode != AreaMode::Disabled
            || settings.linear_damping_mode != AreaMode::Disabled
            || settings.angular_damping_mode != AreaMode::Disabled;
        let ids: Vec<ShapeId> = core.shapes.iter().filter_map(|(s, _)| *s).collect();
        let Some(w) = o
            .space
            .and_then(|s| self.spaces.get_mut(&s))
            .map(|s| &mut s.world)
        else {
            return;
        };
        for id in ids {
            if let Err(e) = w.set_shape_area(id, any.then_some(settings)) {
                error_once("area", &format!("area settings refused: {e}"));
            }
        }
    }

    /// The gravity and damping of a space's default area.
    pub fn apply_default_area(&mut self, space: u64) {
        let Some(s) = self.spaces.get_mut(&space) else {
            return;
        };
        let g = v3(s.default_area.gravity_vector * s.default_area.gravity);
        if let Err(e) = s.world.set_gravity(g) {
            error_once("gravity", &format!("gravity refused: {e}"));
        }
        let users: Vec<u64> = self
            .objs
            .iter()
            .filter(|(_, o)| o.space == Some(space) && !o.is_area)
            .map(|(r, _)| *r)
            .collect();
        for u in users {
            self.apply_damping(u);
        }
    }

    pub fn area_params_mut(&mut self, rid: u64) -> Option<(&mut AreaParams, Option<u64>)> {
        if let Some(s) = self.spaces.get_mut(&rid) {
            return Some((&mut s.default_area, Some(rid)));
        }
        self.objs.get_mut(&rid).map(|o| (&mut o.area, None))
    }

    pub fn area_set_param(&mut self, rid: u64, param: AreaParameter, value: &Variant) {
        let Some((a, space)) = self.area_params_mut(rid) else {
            return;
        };
        let f = var_f32(value);
        let mode = value
            .try_to::<i64>()
            .ok()
            .map(|i| AreaSpaceOverrideMode::from_ord(i as i32));
        match param {
            AreaParameter::GRAVITY_OVERRIDE_MODE => {
                if let Some(m) = mode {
                    a.gravity_mode = m;
                }
            }
            AreaParameter::GRAVITY => a.gravity = f.unwrap_or(a.gravity),
            AreaParameter::GRAVITY_VECTOR => {
                a.gravity_vector = value.try_to::<Vector3>().unwrap_or(a.gravity_vector)
            }
            AreaParameter::GRAVITY_IS_POINT => {
                a.gravity_is_point = value.try_to::<bool>().unwrap_or(false)
            }
            AreaParameter::GRAVITY_POINT_UNIT_DISTANCE => {
                a.gravity_point_unit_distance = f.unwrap_or(0.0)
            }
            AreaParameter::LINEAR_DAMP_OVERRIDE_MODE => {
                if let Some(m) = mode {
                    a.linear_damp_mode = m;
                }
            }
            AreaParameter::LINEAR_DAMP => a.linear_damp = f.unwrap_or(a.linear_damp),
            AreaParameter::ANGULAR_DAMP_OVERRIDE_MODE => {
                if let Some(m) = mode {
                    a.angular_damp_mode = m;
                }
            }
            AreaParameter::ANGULAR_DAMP => a.angular_damp = f.unwrap_or(a.angular_damp),
            AreaParameter::PRIORITY => a.priority = f.unwrap_or(0.0) as i32,
            _ if f.unwrap_or(0.0) == 0.0 => {}
            _ => warn_once(
                "area wind",
                "area wind parameters are not supported yet (core: wind forces)",
            ),
        }
        match space {
            Some(s) => self.apply_default_area(s),
            None => self.apply_area(rid),
        }
    }

    pub fn area_get_param(&self, rid: u64, param: AreaParameter) -> Variant {
        let a = match self.spaces.get(&rid) {
            Some(s) => &s.default_area,
            None => match self.objs.get(&rid) {
                Some(o) => &o.area,
                None => return Variant::nil(),
            },
        };
        match param {
            AreaParameter::GRAVITY_OVERRIDE_MODE => a.gravity_mode.ord().to_variant(),
            AreaParameter::GRAVITY => a.gravity.to_variant(),
            AreaParameter::GRAVITY_VECTOR => a.gravity_vector.to_variant(),
            AreaParameter::GRAVITY_IS_POINT => a.gravity_is_point.to_variant(),
            AreaParameter::GRAVITY_POINT_UNIT_DISTANCE => {
                a.gravity_point_unit_distance.to_variant()
            }
            AreaParameter::LINEAR_DAMP_OVERRIDE_MODE => a.linear_damp_mode.ord().to_variant(),
            AreaParameter::LINEAR_DAMP => a.linear_damp.to_variant(),
            AreaParameter::ANGULAR_DAMP_OVERRIDE_MODE => a.angular_damp_mode.ord().to_variant(),
            AreaParameter::ANGULAR_DAMP => a.angular_damp.to_variant(),
            AreaParameter::PRIORITY => a.priority.to_variant(),
            _ => Variant::nil(),
        }
    }

    /// Makes the core's sensors do Godot's area-vs-area detection for area `rid`: its
    /// shapes detect sensor shapes while it has an area monitor callback, and sensors
    /// detect its shapes while it is monitorable. Only changes are made (each is a
    /// journaled call).
    pub fn apply_area_monitoring(&mut self, rid: u64) {
        let Some(o) = self.objs.get(&rid).filter(|o| o.is_area) else {
            return;
        };
        let (Some(core), Some(s)) = (&o.core, o.space.and_then(|s| self.spaces.get_mut(&s))) else {
            return;
        };
        let (detects, visible) = (o.area_monitor.is_some(), o.monitorable);
        let w = &mut s.world;
        for id in core.shapes.iter().filter_map(|(s, _)| *s) {
            if w.sensor_detects_sensors(id).is_ok_and(|d| d != detects) {
                w.set_sensor_detects_sensors(id, detects)
                    .or_report(site!("area_set_area_monitor_callback"));
            }
            if w.shape_sensor_events_enabled(id)
                .is_ok_and(|v| v != visible)
            {
                w.set_shape_enable_sensor_events(id, visible)
                    .or_report(site!("area_set_monitorable"));
            }
        }
    }

    /// Areas that monitor other areas, after each step: the core's sensors detect the
    /// monitorable areas' shapes (`apply_area_monitoring`), so each monitoring area reads
    /// the sensor shapes its shapes overlap from the core (`sensor_overlaps`, no limit)
    /// and the difference with what was last reported becomes area_entered/area_exited
    /// events (in RID and shape order). Godot's rule is one way: an area reports another
    /// when its mask sees the other's layer (the core's filter pairs them when either one
    /// sees the other).
    pub(super) fn monitor_areas(&mut self, space: u64) {
        let Some(watch) = self.spaces.get(&space).map(|s| &s.watch) else {
            return;
        };
        let monitors: Vec<u64> = watch
            .area_monitors
            .iter()
            .copied()
            .filter(|r| {
                self.objs.get(r).is_some_and(|o| {
                    o.space == Some(space) && o.is_area && o.area_monitor.is_some()
                })
            })
            .collect();
        let mut events = Vec::new();
        for rid in monitors {
            let now = self.area_overlaps_where(rid, |_, other| other.is_area && other.monitorable);
            let o = self.objs.get_mut(&rid).expect("area exists");
            for gone in o.reported_areas.difference(&now) {
                events.push((rid, 1, gone.0, gone.1, gone.2));
            }
            for new in now.difference(&o.reported_areas) {
                events.push((rid, 0, new.0, new.1, new.2));
            }
            o.reported_areas = now;
        }
        if let Some(s) = self.spaces.get_mut(&space) {
            s.area_area_events = events;
        }
    }

    /// What an area's sensor shapes overlap now that are no areas (the bodies Godot's
    /// monitor callback hears of): (object, its shape, area shape).
    pub(super) fn area_overlaps(&self, area: u64) -> BTreeSet<(u64, i32, i32)> {
        self.area_overlaps_where(area, |_, other| !other.is_area)
    }

    /// What an area's sensor shapes overlap now, among the objects `keep(area, other)`
    /// accepts whose layer the area's mask sees when they are areas: (object, its shape,
    /// area shape).
    fn area_overlaps_where(
        &self,
        area: u64,
        keep: impl Fn(&Obj, &Obj) -> bool,
    ) -> BTreeSet<(u64, i32, i32)> {
        let mut out = BTreeSet::new();
        let Some(o) = self.objs.get(&area) else {
            return out;
        };
        let (Some(core), Some(s)) = (&o.core, o.space.and_then(|s| self.spaces.get(&s))) else {
            return out;
        };
        let mut ids = vec![ShapeId::NULL; 64];
        for (i, (shape, _)) in core.shapes.iter().enumerate() {
            let Some(shape) = shape else { continue };
            let mut n = s.world.sensor_overlaps(*shape, &mut ids).unwrap_or(0);
            if n > ids.len() {
                ids.resize(n, ShapeId::NULL);
                n = s.world.sensor_overlaps(*shape, &mut ids).unwrap_or(0);
            }
            for id in &ids[..n.min(ids.len())] {
                let (other, other_shape) = s.shape_owner(*id);
                let Some(x) = self.objs.get(&other) else {
                    continue;
                };
                if keep(o, x) && (!x.is_area || o.mask & x.layer != 0) {
                    out.insert((other, other_shape, i as i32));
                }
            }
        }
        out
    }
}
