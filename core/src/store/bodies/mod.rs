//! The body store: the body pool and the move events of the last step.

pub(crate) mod codec;

use crate::alloc::{FixedVec, WorldAlloc};
use crate::body::Body;
use crate::error::Result;
use crate::events::BodyMoveEvent;
use crate::id::BodyId;
use crate::store::pool::{Pool, slotted};

slotted!(Body);

/// Bodies and what the last step reported about them.
pub(crate) struct BodyStore {
    pub(crate) pool: Pool<Body>,
    /// Bodies the last step moved, in body slot order (not state).
    pub(crate) move_events: FixedVec<BodyMoveEvent>,
}
crate::store::store_derefs_to_pool!(BodyStore, Body);

impl BodyStore {
    pub(crate) fn new(capacity: usize, alloc: WorldAlloc) -> Result<BodyStore> {
        Ok(BodyStore {
            pool: Pool::new(capacity, alloc, "body_capacity")?,
            move_events: FixedVec::with_capacity(capacity, alloc, "body_capacity")?,
        })
    }

    /// The slot of a live body, checked (see [`Pool::live_slot`]).
    pub(crate) fn slot(&self, id: BodyId, tag: u32) -> Result<usize> {
        self.pool.live_slot("body", id.parts(), tag)
    }

    /// The id of the body in `slot`.
    pub(crate) fn id(&self, slot: u32, tag: u32) -> BodyId {
        BodyId {
            index: slot + 1,
            generation: self.pool[slot as usize].generation,
            world: tag,
        }
    }

    pub(crate) fn memory_usage(&self) -> usize {
        self.pool.memory_usage() + self.move_events.bytes()
    }
}
