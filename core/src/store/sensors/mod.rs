//! The sensor store: the sensor shapes (their slots, ascending), the (sensor, visitor)
//! overlaps at the end of the last step (state) and the sensor events of the last step.

pub(crate) mod codec;

use crate::alloc::{FixedVec, WorldAlloc};
use crate::body::{Body, NONE};
use crate::broad_phase::{BroadPhase, push_keep_lowest};
use crate::counters::Counters;
use crate::error::Result;
use crate::id::ShapeId;
use crate::sensor::{SensorEvent, shapes_overlap};
use crate::shape::Shape;
use crate::store::content::ContentStore;

/// Sensor overlaps and their events.
pub(crate) struct SensorStore {
    /// State: sorted (sensor << 32 | visitor) overlaps at the end of the last step.
    pub(crate) pairs: FixedVec<u64>,
    /// The overlaps found by this step, before they replace `pairs` (not state).
    pub(crate) scratch: FixedVec<u64>,
    pub(crate) begin_events: FixedVec<SensorEvent>,
    pub(crate) end_events: FixedVec<SensorEvent>,
    /// The live sensor shapes' slots, ascending (derived: kept as shapes come and go,
    /// rebuilt at restore), so the sensor stage walks sensors, not every shape.
    pub(crate) shapes: FixedVec<u32>,
}

impl SensorStore {
    pub(crate) fn new(
        capacity: usize,
        events: usize,
        shapes: usize,
        alloc: WorldAlloc,
    ) -> Result<SensorStore> {
        Ok(SensorStore {
            shapes: FixedVec::with_capacity(shapes, alloc, "shape_capacity")?,
            pairs: FixedVec::with_capacity(capacity, alloc, "sensor_capacity")?,
            scratch: FixedVec::with_capacity(capacity, alloc, "sensor_capacity")?,
            begin_events: FixedVec::with_capacity(events, alloc, "event_capacity")?,
            end_events: FixedVec::with_capacity(events, alloc, "event_capacity")?,
        })
    }

    pub(crate) fn memory_usage(&self) -> usize {
        self.pairs.bytes()
            + self.scratch.bytes()
            + self.shapes.bytes()
            + self.begin_events.bytes()
            + self.end_events.bytes()
    }

    /// A sensor shape came to life in `slot`: kept in ascending order.
    pub(crate) fn add_shape(&mut self, slot: u32) {
        let at = self.shapes.partition_point(|&s| s < slot);
        let ok = self.shapes.insert(at, slot);
        debug_assert!(ok, "one entry per shape slot at most");
    }

    /// The sensor shape in `slot` is gone.
    pub(crate) fn remove_shape(&mut self, slot: u32) {
        if let Ok(at) = self.shapes.binary_search(&slot) {
            self.shapes.remove_ordered(at);
        }
    }

    /// Whether the sensor list holds exactly the live sensor shapes, ascending (checked
    /// every step in debug builds).
    pub(crate) fn lists_every_sensor(&self, shapes: &[Shape]) -> bool {
        let mut listed = self.shapes.iter().copied();
        let live = (0..shapes.len() as u32).filter(|&s| {
            let s = &shapes[s as usize];
            s.alive && s.is_sensor
        });
        live.eq(&mut listed) && listed.next().is_none()
    }

    /// The sensor list rebuilt from the shapes (after a restore).
    pub(crate) fn rebuild_shapes(&mut self, shapes: &[Shape]) {
        self.shapes.clear();
        for (slot, s) in shapes.iter().enumerate() {
            if s.alive && s.is_sensor {
                let ok = self.shapes.push(slot as u32);
                debug_assert!(ok);
            }
        }
    }

    /// The sensor stage (the step's last): every sensor's overlaps found again — the
    /// shapes of other bodies its fat bounds meet in the trees that its filter and their
    /// sensor events allow and that strictly overlap it — sorted, capped at
    /// `sensor_capacity` (lowest keys kept), and begin/end events for the difference with
    /// last step's. Walks the sensor shapes only, in slot order.
    pub(crate) fn update(
        &mut self,
        shapes: &[Shape],
        bodies: &[Body],
        content: &ContentStore,
        broad: &BroadPhase,
        counters: &mut Counters,
        tag: u32,
    ) {
        debug_assert!(
            self.lists_every_sensor(shapes),
            "sensor list out of step with the shapes"
        );
        self.begin_events.clear();
        self.end_events.clear();
        counters.dropped_sensor_begin_events = 0;
        counters.dropped_sensor_end_events = 0;
        self.scratch.clear();
        let mut heaped = false;
        let mut dropped = 0u32;
        let (hulls, meshes) = (&content.hulls, &content.meshes);
        let scratch = &mut self.scratch;
        for &s in self.shapes.iter() {
            let sensor = &shapes[s as usize];
            if sensor.proxy == NONE {
                continue;
            }
            let (sensor_body, filter) = (sensor.body, sensor.filter);
            let detects_sensors = sensor.detects_sensors;
            let mut visit = |_proxy: u32, t: u32| -> bool {
                let other = &shapes[t as usize];
                if t == s
                    || (other.is_sensor && !detects_sensors)
                    || !other.enable_sensor_events
                    || other.body == sensor_body
                    || !filter.should_collide(&other.filter)
                {
                    return true;
                }
                if shapes_overlap(shapes, bodies, hulls, meshes, s, t) {
                    let key = ((s as u64) << 32) | t as u64;
                    if !push_keep_lowest(scratch, key, &mut heaped) {
                        dropped += 1;
                    }
                }
                true
            };
            broad.statics.query(&sensor.fat_aabb, &mut visit);
            broad.movable.query(&sensor.fat_aabb, &mut visit);
        }
        counters.dropped_sensor_pairs = dropped;
        self.scratch.sort_unstable();
        self.report_changes(shapes, counters, tag);
        self.pairs.clear();
        for k in 0..self.scratch.len() {
            let ok = self.pairs.push(self.scratch[k]);
            debug_assert!(ok);
        }
    }

    /// Begin events for the pairs in `scratch` only, end events for those in `pairs`
    /// only (both sorted), in key order.
    fn report_changes(&mut self, shapes: &[Shape], counters: &mut Counters, tag: u32) {
        let id = |slot: u32| ShapeId {
            index: slot + 1,
            generation: shapes[slot as usize].generation,
            world: tag,
        };
        let (mut i, mut j) = (0, 0);
        let (old_len, new_len) = (self.pairs.len(), self.scratch.len());
        while i < old_len || j < new_len {
            let old = if i < old_len { self.pairs[i] } else { u64::MAX };
            let new = if j < new_len {
                self.scratch[j]
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
                sensor: id((key >> 32) as u32),
                visitor: id(key as u32),
            };
            if begin {
                if !self.begin_events.push(ev) {
                    counters.dropped_sensor_begin_events += 1;
                }
            } else if !self.end_events.push(ev) {
                counters.dropped_sensor_end_events += 1;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    //! The sensor list as shapes come and go and across a restore.

    use crate::math::{DVec3, Vec3};
    use crate::{BodyDef, BodyType, ShapeDef, World, WorldDef};

    #[test]
    fn the_sensor_list_follows_creates_destroys_and_restore() {
        let mut w = World::new(&WorldDef::default()).unwrap();
        let sensor = ShapeDef {
            is_sensor: true,
            ..Default::default()
        };
        let mut shapes = Vec::new();
        for i in 0..8 {
            let b = w
                .create_body(&BodyDef {
                    body_type: BodyType::Static,
                    position: DVec3::new(i as f64 * 3.0, 0.0, 0.0),
                    ..Default::default()
                })
                .unwrap();
            let def = if i % 2 == 0 {
                sensor
            } else {
                ShapeDef::default()
            };
            shapes.push(w.create_box_shape(b, &def, Vec3::ONE).unwrap());
        }
        assert_eq!(&w.sensors.shapes[..], &[0, 2, 4, 6]);
        w.destroy_shape(shapes[2]).unwrap();
        w.destroy_shape(shapes[3]).unwrap();
        assert_eq!(&w.sensors.shapes[..], &[0, 4, 6]);
        // The freed slot 3 is taken first (last in, first out), then 2: a sensor again.
        let b = w.create_body(&BodyDef::default()).unwrap();
        w.create_box_shape(b, &ShapeDef::default(), Vec3::ONE)
            .unwrap();
        w.create_box_shape(b, &sensor, Vec3::ONE).unwrap();
        assert_eq!(&w.sensors.shapes[..], &[0, 2, 4, 6]);
        w.step(1.0 / 60.0, 4).unwrap();
        let mut snap = vec![0; w.snapshot_size()];
        w.snapshot(&mut snap).unwrap();
        let mut twin = World::new(&WorldDef::default()).unwrap();
        twin.restore(&snap).unwrap();
        assert_eq!(&twin.sensors.shapes[..], &w.sensors.shapes[..]);
        assert!(twin.sensors.lists_every_sensor(&twin.shapes));
        w.destroy_body(b).unwrap();
        assert_eq!(&w.sensors.shapes[..], &[0, 4, 6]);
    }
}
