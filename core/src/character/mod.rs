//! Characters: kinematic capsule movers (placeholder: the slot type the store keeps; its settings, state and stage come
//! with the subsystem).

/// One character slot.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Character {
    pub(crate) alive: bool,
    pub(crate) generation: u32,
}

impl Character {
    /// A free slot of `generation`.
    pub(crate) fn dead(generation: u32) -> Character {
        Character {
            alive: false,
            generation,
        }
    }
}

impl crate::world::World {
    /// The step's last stage but soft bodies: each grounded character is carried by the
    /// floor body that moved under it (placeholder until the mover lands).
    pub(crate) fn ride_characters(&mut self, _dt: f32) {}
}
