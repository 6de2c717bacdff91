//! The sensor store: the (sensor, visitor) overlaps at the end of the last step (state)
//! and the sensor events of the last step.

pub(crate) mod codec;

use crate::alloc::{FixedVec, WorldAlloc};
use crate::error::Result;
use crate::sensor::SensorEvent;

/// Sensor overlaps and their events.
pub(crate) struct SensorStore {
    /// State: sorted (sensor << 32 | visitor) overlaps at the end of the last step.
    pub(crate) pairs: FixedVec<u64>,
    /// The overlaps found by this step, before they replace `pairs` (not state).
    pub(crate) scratch: FixedVec<u64>,
    pub(crate) begin_events: FixedVec<SensorEvent>,
    pub(crate) end_events: FixedVec<SensorEvent>,
}

impl SensorStore {
    pub(crate) fn new(capacity: usize, events: usize, alloc: WorldAlloc) -> Result<SensorStore> {
        Ok(SensorStore {
            pairs: FixedVec::with_capacity(capacity, alloc, "sensor_capacity")?,
            scratch: FixedVec::with_capacity(capacity, alloc, "sensor_capacity")?,
            begin_events: FixedVec::with_capacity(events, alloc, "event_capacity")?,
            end_events: FixedVec::with_capacity(events, alloc, "event_capacity")?,
        })
    }

    pub(crate) fn memory_usage(&self) -> usize {
        self.pairs.bytes()
            + self.scratch.bytes()
            + self.begin_events.bytes()
            + self.end_events.bytes()
    }
}
