//! The vehicle calls on [`World`] that create, destroy, set and read vehicles (checked and
//! applied here; the public calls in `crate::api` record them).

use super::{MAX_WHEELS, Vehicle, VehicleDef, VehicleInput, WheelContact, WheelState};
use crate::body::BodyType;
use crate::error::{Error, Result};
use crate::id::VehicleId;
use crate::world::World;

impl World {
    pub(crate) fn vehicle_slot(&self, id: VehicleId) -> Result<usize> {
        self.vehicles.live_slot("vehicle", id.parts(), self.tag)
    }

    fn vehicle_id(&self, slot: u32) -> VehicleId {
        VehicleId {
            index: slot + 1,
            generation: self.vehicles[slot as usize].generation,
            world: self.tag,
        }
    }

    fn vehicle(&self, id: VehicleId) -> Result<&Vehicle> {
        Ok(&self.vehicles[self.vehicle_slot(id)?])
    }

    fn wheel(&self, id: VehicleId, wheel: u32) -> Result<(&Vehicle, usize)> {
        let v = self.vehicle(id)?;
        if wheel as usize >= v.wheel_count() {
            return Err(Error::Argument {
                name: "wheel",
                value: wheel as f64,
                expected: "an index below the vehicle's wheel count",
            });
        }
        Ok((v, wheel as usize))
    }

    /// [`World::create_vehicle`] without its record.
    pub(crate) fn create_vehicle_unrecorded(&mut self, def: &VehicleDef) -> Result<VehicleId> {
        let chassis = self.body_slot(def.chassis)?;
        if self.bodies[chassis].body_type != BodyType::Dynamic {
            return Err(Error::Argument {
                name: "chassis",
                value: def.chassis.index as f64,
                expected: "a dynamic body",
            });
        }
        def.checked()?;
        let mut stored = super::encoding::trimmed(def);
        stored.chassis = crate::id::BodyId::NULL;
        let mut wheels = [WheelState::default(); MAX_WHEELS];
        for (s, w) in wheels.iter_mut().zip(def.used_wheels()) {
            s.suspension_length = w.max_length;
        }
        let slot = self
            .vehicles
            .take(
                |v| v.generation,
                |g| Vehicle {
                    alive: true,
                    generation: g.wrapping_add(1).max(1),
                    chassis: chassis as u32,
                    def: stored,
                    wheels,
                    gear: 1,
                    engine_rpm: def.engine.min_rpm,
                    ..Vehicle::dead(0)
                },
            )
            .ok_or(Error::Capacity {
                what: "vehicle_capacity",
                capacity: self.def.vehicle_capacity as u64,
            })?;
        self.vehicles.count += 1;
        self.wake_body(chassis as u32);
        Ok(self.vehicle_id(slot))
    }

    /// [`World::destroy_vehicle`] without its record: the chassis stays, awake.
    pub(crate) fn destroy_vehicle_unrecorded(&mut self, id: VehicleId) -> Result<()> {
        let slot = self.vehicle_slot(id)? as u32;
        let chassis = self.vehicles[slot as usize].chassis;
        self.free_vehicle(slot);
        self.wake_body(chassis);
        Ok(())
    }

    fn free_vehicle(&mut self, slot: u32) {
        let generation = self.vehicles[slot as usize].generation;
        self.vehicles[slot as usize] = Vehicle::dead(generation);
        let ok = self.vehicles.free.push(slot);
        debug_assert!(ok);
        self.vehicles.count -= 1;
    }

    /// Destroys every vehicle on a chassis body being destroyed, in ascending slot order
    /// (the free list is state).
    pub(crate) fn destroy_body_vehicles(&mut self, body: u32) {
        for slot in 0..self.vehicles.len() {
            let v = &self.vehicles[slot];
            if v.alive && v.chassis == body {
                self.free_vehicle(slot as u32);
            }
        }
    }

    /// [`World::set_vehicle_input`] without its record; wakes the chassis for input that
    /// is not idle.
    pub(crate) fn set_vehicle_input_unrecorded(
        &mut self,
        id: VehicleId,
        input: VehicleInput,
    ) -> Result<()> {
        let slot = self.vehicle_slot(id)?;
        input.check()?;
        self.vehicles[slot].input = input;
        if !input.is_idle() {
            self.wake_body(self.vehicles[slot].chassis);
        }
        Ok(())
    }

    /// [`World::set_vehicle_gear`] without its record.
    pub(crate) fn set_vehicle_gear_unrecorded(&mut self, id: VehicleId, gear: i32) -> Result<()> {
        let slot = self.vehicle_slot(id)?;
        let n = self.vehicles[slot].def.transmission.gear_count as i32;
        if !(-1..=n).contains(&gear) {
            return Err(Error::Argument {
                name: "gear",
                value: gear as f64,
                expected: "-1 (reverse), 0 (neutral) or a forward gear up to gear_count",
            });
        }
        self.vehicles[slot].gear = gear;
        self.wake_body(self.vehicles[slot].chassis);
        Ok(())
    }

    /// Number of live vehicles.
    pub fn vehicle_count(&self) -> u32 {
        self.vehicles.count
    }

    /// The live vehicles' ids, in slot order.
    pub fn vehicle_ids(&self) -> impl Iterator<Item = VehicleId> + '_ {
        (0..self.vehicles.len() as u32)
            .filter(|&s| self.vehicles[s as usize].alive)
            .map(|s| self.vehicle_id(s))
    }

    /// Whether `id` names a live vehicle of this world.
    pub fn vehicle_is_valid(&self, id: VehicleId) -> bool {
        self.vehicle_slot(id).is_ok()
    }

    /// The vehicle's settings as created (its chassis id current).
    pub fn vehicle_def(&self, id: VehicleId) -> Result<VehicleDef> {
        let v = self.vehicle(id)?;
        Ok(VehicleDef {
            chassis: self.body_id(v.chassis),
            ..v.def
        })
    }

    /// The driver's input last set.
    pub fn vehicle_input(&self, id: VehicleId) -> Result<VehicleInput> {
        Ok(self.vehicle(id)?.input)
    }

    /// The chassis velocity along its forward axis (m/s, negative backwards).
    pub fn vehicle_forward_speed(&self, id: VehicleId) -> Result<f32> {
        let v = self.vehicle(id)?;
        let b = &self.bodies[v.chassis as usize];
        let f = b.rotation.rotate(v.def.forward.normalize());
        Ok(b.linear_velocity.dot(f))
    }

    /// The engine speed (rpm).
    pub fn vehicle_engine_rpm(&self, id: VehicleId) -> Result<f32> {
        Ok(self.vehicle(id)?.engine_rpm)
    }

    /// The gear: -1 reverse, 0 neutral, 1 and up the forward gears.
    pub fn vehicle_gear(&self, id: VehicleId) -> Result<i32> {
        Ok(self.vehicle(id)?.gear)
    }

    /// A wheel's suspension length as of the last step (m; its longest off the ground).
    pub fn wheel_suspension_length(&self, id: VehicleId, wheel: u32) -> Result<f32> {
        let (v, i) = self.wheel(id, wheel)?;
        Ok(v.wheels[i].suspension_length)
    }

    /// A wheel's angular velocity about its axle (rad/s, positive rolling forward).
    pub fn wheel_angular_velocity(&self, id: VehicleId, wheel: u32) -> Result<f32> {
        let (v, i) = self.wheel(id, wheel)?;
        Ok(v.wheels[i].angular_velocity)
    }

    /// A wheel's rotation angle about its axle (rad, within [0, 2π)).
    pub fn wheel_rotation_angle(&self, id: VehicleId, wheel: u32) -> Result<f32> {
        let (v, i) = self.wheel(id, wheel)?;
        Ok(v.wheels[i].rotation)
    }

    /// A wheel's steering angle as of the last step (rad, about the chassis' up axis).
    pub fn wheel_steer_angle(&self, id: VehicleId, wheel: u32) -> Result<f32> {
        let (v, i) = self.wheel(id, wheel)?;
        Ok(v.wheels[i].steer_angle)
    }

    /// What a wheel found in the last step: contact, point, normal, ground body, and its
    /// longitudinal and lateral slip. Derived: after a restore, no contact until the next
    /// step.
    pub fn wheel_contact(&self, id: VehicleId, wheel: u32) -> Result<WheelContact> {
        let (v, i) = self.wheel(id, wheel)?;
        Ok(v.contacts[i])
    }
}
