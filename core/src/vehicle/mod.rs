//! Vehicles: a chassis body on ray- or shape-cast wheels (placeholder: the slot type the store keeps; its settings, state and stage come
//! with the subsystem).

/// One vehicle slot.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Vehicle {
    pub(crate) alive: bool,
    pub(crate) generation: u32,
}

impl Vehicle {
    /// A free slot of `generation`.
    pub(crate) fn dead(generation: u32) -> Vehicle {
        Vehicle {
            alive: false,
            generation,
        }
    }
}

impl crate::world::World {
    /// The step's first stage: each vehicle's wheels cast, suspension and tyre forces on
    /// the chassis (placeholder until the wheels land).
    pub(crate) fn step_vehicles(&mut self, _dt: f32) {}
}
