//! The vehicle calls that change a world (validate → apply → record): vehicles created
//! and destroyed, the driver's input and the gear. Each checks and applies through
//! `vehicle/lifecycle.rs`'s `*_unrecorded` function, then records itself.

use crate::error::Result;
use crate::id::VehicleId;
use crate::vehicle::{VehicleDef, VehicleInput};
use crate::world::World;

impl World {
    /// Creates a vehicle on a live dynamic chassis body and wakes it: its wheels act from
    /// the next step, in their order. Every field is checked (finite, in range, the
    /// chassis live and dynamic); refused with nothing changed for a bad value or a full
    /// pool (`vehicle_capacity`). Destroying the chassis destroys the vehicle.
    pub fn create_vehicle(&mut self, def: &VehicleDef) -> Result<VehicleId> {
        let id = self.create_vehicle_unrecorded(def)?;
        self.rec(|j| j.create_vehicle(def, id));
        Ok(id)
    }

    /// Destroys a vehicle (the chassis stays, awake).
    pub fn destroy_vehicle(&mut self, id: VehicleId) -> Result<()> {
        self.destroy_vehicle_unrecorded(id)?;
        self.rec(|j| j.destroy_vehicle(id));
        Ok(())
    }

    /// Sets the driver's input (throttle and steering within [-1, 1], brake and handbrake
    /// within [0, 1]); input that is not all zero wakes the chassis.
    pub fn set_vehicle_input(&mut self, id: VehicleId, input: VehicleInput) -> Result<()> {
        self.set_vehicle_input_unrecorded(id, input)?;
        self.rec(|j| j.set_vehicle_input(id, input));
        Ok(())
    }

    /// Puts the transmission in a gear: -1 reverse, 0 neutral, 1 to `gear_count` forward.
    /// An automatic transmission shifts on from there.
    pub fn set_vehicle_gear(&mut self, id: VehicleId, gear: i32) -> Result<()> {
        self.set_vehicle_gear_unrecorded(id, gear)?;
        self.rec(|j| j.set_vehicle_gear(id, (gear + 1) as u32));
        Ok(())
    }
}
