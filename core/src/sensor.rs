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

use crate::body::Body;
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
    /// The sensor stage: every sensor's overlaps recomputed, begin/end against last
    /// step's.
    pub(crate) fn update_sensors(&mut self) {
        let tag = self.tag;
        self.sensors.update(
            &self.shapes,
            &self.bodies,
            &self.content,
            &self.broad,
            &mut self.counters,
            tag,
        );
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
