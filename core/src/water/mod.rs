//! Water volumes: box regions of fluid with a surface plane (placeholder: the slot type the store keeps; its settings, state and stage come
//! with the subsystem).

/// One water volume slot.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct WaterVolume {
    pub(crate) alive: bool,
    pub(crate) generation: u32,
}

impl WaterVolume {
    /// A free slot of `generation`.
    pub(crate) fn dead(generation: u32) -> WaterVolume {
        WaterVolume {
            alive: false,
            generation,
        }
    }
}

impl crate::world::World {
    /// Buoyancy and drag of every water volume on the dynamic bodies in it, as forces
    /// for this step (placeholder until buoyancy lands).
    pub(crate) fn apply_water(&mut self, _dt: f32) {}
}
