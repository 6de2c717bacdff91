//! The vehicle store: the vehicle pool.

pub(crate) mod codec;

use crate::alloc::WorldAlloc;
use crate::error::Result;
use crate::store::pool::{Pool, slotted};
use crate::vehicle::Vehicle;

slotted!(Vehicle);

/// The vehicles.
pub(crate) struct VehicleStore {
    pub(crate) pool: Pool<Vehicle>,
}
crate::store::store_derefs_to_pool!(VehicleStore, Vehicle);

impl VehicleStore {
    pub(crate) fn new(capacity: usize, alloc: WorldAlloc) -> Result<VehicleStore> {
        Ok(VehicleStore {
            pool: Pool::new(capacity, alloc, "vehicle_capacity")?,
        })
    }

    pub(crate) fn memory_usage(&self) -> usize {
        self.pool.memory_usage()
    }
}
