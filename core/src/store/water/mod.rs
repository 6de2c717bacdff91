//! The water volume store: the water volume pool.

pub(crate) mod codec;

use crate::alloc::WorldAlloc;
use crate::error::Result;
use crate::store::pool::{Pool, slotted};
use crate::water::WaterVolume;

slotted!(WaterVolume);

/// The water volumes.
pub(crate) struct WaterStore {
    pub(crate) pool: Pool<WaterVolume>,
}
crate::store::store_derefs_to_pool!(WaterStore, WaterVolume);

impl WaterStore {
    pub(crate) fn new(capacity: usize, alloc: WorldAlloc) -> Result<WaterStore> {
        Ok(WaterStore {
            pool: Pool::new(capacity, alloc, "water_capacity")?,
        })
    }

    pub(crate) fn memory_usage(&self) -> usize {
        self.pool.memory_usage()
    }
}
