//! Sensors: shapes that detect the shapes they overlap, without collision response.
//!
//! At the end of each step every sensor finds the non-sensor shapes of other bodies that
//! overlap it (its filter allowing, their sensor events enabled), and a sensor that
//! detects sensors (Godot's area monitoring areas; off by default) the sensor shapes too
//! (those with sensor events enabled: Godot's monitorable), as a sorted list of (sensor,
//! visitor) pairs. Override regions act on the solid visitors only. That list
//! is state — the next step's begin/end events are the difference between it and the new
//! one — and it also tells override regions which bodies they act on. When the list would
//! pass `sensor_capacity`, the pairs of the lowest shape indices are kept and the rest
//! counted, like every per-step buffer.

use crate::body::{Body, NONE};
use crate::broad_phase::push_keep_lowest;
use crate::collide::SatCache;
use crate::contact::{collide, order_pair};
use crate::content::MeshSlot;
use crate::error::{Error, Result};
use crate::id::ShapeId;
use crate::math::{Transform, Vec3};
use crate::shape::{HullSlot, Shape};
use crate::world::World;

/// A sensor began or stopped overlapping a shape.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SensorEvent {
    /// The sensor shape.
    pub sensor: ShapeId,
    /// The shape that entered or left it.
    pub visitor: ShapeId,
}

/// Whether shapes `a` and `b` overlap (strictly: surfaces touching do not count).
pub(crate) fn shapes_overlap(
    shapes: &[Shape],
    bodies: &[Body],
    hulls: &[HullSlot],
    meshes: &[MeshSlot],
    a: u32,
    b: u32,
) -> bool {
    let (sa, sb) = order_pair(shapes, a, b);
    let shape_a = &shapes[sa as usize];
    let shape_b = &shapes[sb as usize];
    let ba = &bodies[shape_a.body as usize];
    let bb = &bodies[shape_b.body as usize];
    let d: Vec3 = (bb.position - ba.position).to_f32();
    let xf_a = Transform::new(Vec3::ZERO, ba.rotation);
    let xf_b = Transform::new(d, bb.rotation);
    let mut cache = SatCache::default();
    let m = collide(
        shape_a, &xf_a, shape_b, &xf_b, hulls, meshes, 0.0, &mut cache,
    );
    m.points[..m.count as usize]
        .iter()
        .any(|p| p.separation < 0.0)
}

impl World {
    /// Recomputes every sensor's overlaps and reports begin/end against last step's.
    pub(crate) fn update_sensors(&mut self) {
        self.sensors.begin_events.clear();
        self.sensors.end_events.clear();
        self.counters.dropped_sensor_begin_events = 0;
        self.counters.dropped_sensor_end_events = 0;
        self.sensors.scratch.clear();
        let mut heaped = false;
        let mut dropped = 0u32;
        let (shapes, bodies, hulls) = (&self.shapes, &self.bodies, &self.content.hulls);
        let meshes = &self.content.meshes;
        let (statics, movable) = (&self.broad.statics, &self.broad.movable);
        let scratch = &mut self.sensors.scratch;
        for s in 0..shapes.len() {
            let sensor = &shapes[s];
            if !sensor.alive || !sensor.is_sensor || sensor.proxy == NONE {
                continue;
            }
            let fat = sensor.fat_aabb;
            let sensor_body = sensor.body;
            let filter = sensor.filter;
            let detects_sensors = sensor.detects_sensors;
            let mut visit = |_proxy: u32, t: u32| -> bool {
                let other = &shapes[t as usize];
                if t as usize == s
                    || (other.is_sensor && !detects_sensors)
                    || !other.enable_sensor_events
                    || other.body == sensor_body
                    || !filter.should_collide(&other.filter)
                {
                    return true;
                }
                if shapes_overlap(shapes, bodies, hulls, meshes, s as u32, t) {
                    let key = ((s as u64) << 32) | t as u64;
                    if !push_keep_lowest(scratch, key, &mut heaped) {
                        dropped += 1;
                    }
                }
                true
            };
            statics.query(&fat, &mut visit);
            movable.query(&fat, &mut visit);
        }
        self.counters.dropped_sensor_pairs = dropped;
        self.sensors.scratch.sort_unstable();
        // Merge old and new sorted lists: begins are new only, ends old only.
        let (mut i, mut j) = (0, 0);
        let (old_len, new_len) = (self.sensors.pairs.len(), self.sensors.scratch.len());
        while i < old_len || j < new_len {
            let old = if i < old_len {
                self.sensors.pairs[i]
            } else {
                u64::MAX
            };
            let new = if j < new_len {
                self.sensors.scratch[j]
            } else {
                u64::MAX
            };
            if old == new {
                i += 1;
                j += 1;
                continue;
            }
            let (key, begin) = if new < old {
                j += 1;
                (new, true)
            } else {
                i += 1;
                (old, false)
            };
            let ev = SensorEvent {
                sensor: self.shape_id((key >> 32) as u32),
                visitor: self.shape_id(key as u32),
            };
            if begin {
                if !self.sensors.begin_events.push(ev) {
                    self.counters.dropped_sensor_begin_events += 1;
                }
            } else if !self.sensors.end_events.push(ev) {
                self.counters.dropped_sensor_end_events += 1;
            }
        }
        self.sensors.pairs.clear();
        for k in 0..self.sensors.scratch.len() {
            let ok = self.sensors.pairs.push(self.sensors.scratch[k]);
            debug_assert!(ok);
        }
    }

    /// [`World::set_sensor_detects_sensors`] without its record (the API layer, `crate::api`, records it).
    pub(crate) fn set_sensor_detects_sensors_unrecorded(
        &mut self,
        id: ShapeId,
        detects: bool,
    ) -> Result<()> {
        let slot = self.shape_slot(id)?;
        if !self.shapes[slot].is_sensor {
            return Err(Error::State(
                "only a sensor shape can detect sensors (set_sensor_detects_sensors)",
            ));
        }
        self.shapes[slot].detects_sensors = detects;
        Ok(())
    }

    /// Whether a sensor detects sensor shapes too.
    pub fn sensor_detects_sensors(&self, id: ShapeId) -> Result<bool> {
        Ok(self.shapes[self.shape_slot(id)?].detects_sensors)
    }

    /// [`World::set_shape_enable_sensor_events`] without its record (the API layer, `crate::api`, records it).
    pub(crate) fn set_shape_enable_sensor_events_unrecorded(
        &mut self,
        id: ShapeId,
        enable: bool,
    ) -> Result<()> {
        let slot = self.shape_slot(id)?;
        self.shapes[slot].enable_sensor_events = enable;
        Ok(())
    }

    /// Whether sensors detect this shape.
    pub fn shape_sensor_events_enabled(&self, id: ShapeId) -> Result<bool> {
        Ok(self.shapes[self.shape_slot(id)?].enable_sensor_events)
    }

    /// Forgets a destroyed shape's sensor overlaps (no events: its id is gone).
    pub(crate) fn forget_sensor_pairs(&mut self, shape: u32) {
        let mut k = 0;
        while k < self.sensors.pairs.len() {
            let key = self.sensors.pairs[k];
            if (key >> 32) as u32 == shape || key as u32 == shape {
                self.sensors.pairs.remove_ordered(k);
            } else {
                k += 1;
            }
        }
    }

    /// Sensors that began overlapping a shape in the last step, in (sensor, visitor) order.
    pub fn sensor_begin_events(&self) -> &[SensorEvent] {
        &self.sensors.begin_events
    }

    /// Sensors that stopped overlapping a shape in the last step.
    pub fn sensor_end_events(&self) -> &[SensorEvent] {
        &self.sensors.end_events
    }

    /// The shapes a sensor overlapped at the end of the last step, ascending.
    pub fn sensor_overlaps(&self, sensor: ShapeId, out: &mut [ShapeId]) -> Result<usize> {
        let s = self.shape_slot(sensor)? as u64;
        let mut n = 0;
        for &key in self.sensors.pairs.iter() {
            if key >> 32 == s {
                if n < out.len() {
                    out[n] = self.shape_id(key as u32);
                }
                n += 1;
            }
        }
        Ok(n)
    }
}
