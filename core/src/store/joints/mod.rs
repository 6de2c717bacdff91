//! The joint store: the joint pool, the break events of the last step and the scratch
//! for destroying a body's joints in slot order.

pub(crate) mod codec;

use crate::alloc::{FixedVec, WorldAlloc};
use crate::error::Result;
use crate::joint::{Joint, JointBreakEvent};
use crate::store::pool::{Pool, slotted};

slotted!(Joint);

/// Joints and their events.
pub(crate) struct JointStore {
    pub(crate) pool: Pool<Joint>,
    /// Scratch for destroying a body's joints in slot order (not state).
    pub(crate) scratch: FixedVec<u32>,
    pub(crate) break_events: FixedVec<JointBreakEvent>,
}
crate::store::store_derefs_to_pool!(JointStore, Joint);

impl JointStore {
    pub(crate) fn new(capacity: usize, events: usize, alloc: WorldAlloc) -> Result<JointStore> {
        Ok(JointStore {
            pool: Pool::new(capacity, alloc, "joint_capacity")?,
            scratch: FixedVec::with_capacity(capacity, alloc, "joint_capacity")?,
            break_events: FixedVec::with_capacity(events, alloc, "event_capacity")?,
        })
    }

    pub(crate) fn memory_usage(&self) -> usize {
        self.pool.memory_usage()
            + self.scratch.capacity() * 4
            + self.break_events.capacity() * core::mem::size_of::<JointBreakEvent>()
    }
}
