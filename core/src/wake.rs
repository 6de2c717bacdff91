//! Waking what a body touches: [`World::wake_bodies_touching`], Box2D's
//! `b2Body_WakeTouching`. The core keeps a sleeping island asleep when a kinematic body it
//! rests on is given a velocity (setting a velocity wakes that body only, as in Box2D), so
//! a host that moves a platform calls this to wake what rests on it.

use crate::body::{BodyType, NONE};
use crate::contact::Contact;
use crate::error::Result;
use crate::id::BodyId;
use crate::world::World;

impl World {
    /// [`World::wake_bodies_touching`] without its record (the API layer, `crate::api`, records it).
    pub(crate) fn wake_bodies_touching_unrecorded(&mut self, id: BodyId) -> Result<()> {
        let slot = self.body_slot(id)? as u32;
        let mut key = crate::edge::first::<Contact>(&self.bodies, slot);
        while key != NONE {
            let n = crate::edge::step(&self.contacts, key);
            let other = &self.bodies[n.other as usize];
            if other.body_type == BodyType::Dynamic && !other.awake {
                self.wake_island(n.other);
            }
            key = n.next;
        }
        Ok(())
    }
}
