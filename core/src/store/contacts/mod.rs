//! The contact store: the contact pool, the pair set that finds a contact by its shape
//! pair, the contact events of the last step and the scratch for ordered create/destroy.

pub(crate) mod codec;

use crate::alloc::{FixedVec, WorldAlloc};
use crate::broad_phase::pair_set::PairSet;
use crate::contact::Contact;
use crate::error::Result;
use crate::events::ContactEvent;
use crate::events::ContactHitEvent;
use crate::store::pool::Pool;

/// Contacts and their events.
pub(crate) struct ContactStore {
    pub(crate) pool: Pool<Contact>,
    /// Shape pair → contact slot (derived: rebuilt at restore).
    pub(crate) pair_set: PairSet,
    /// Scratch for contact slots gathered to create or destroy in order (not state).
    pub(crate) scratch: FixedVec<u32>,
    /// Per contact of the awake set, what its narrow phase left (`contact::OUTCOME_*`
    /// bits and its `update`), for the serial pass after it (not state).
    pub(crate) outcomes: FixedVec<u8>,
    pub(crate) begin_events: FixedVec<ContactEvent>,
    pub(crate) end_events: FixedVec<ContactEvent>,
    pub(crate) hit_events: FixedVec<ContactHitEvent>,
}
crate::store::store_derefs_to_pool!(ContactStore, Contact);

impl ContactStore {
    pub(crate) fn new(capacity: usize, events: usize, alloc: WorldAlloc) -> Result<ContactStore> {
        Ok(ContactStore {
            pool: Pool::new(capacity, alloc, "contact_capacity")?,
            pair_set: PairSet::new(capacity, alloc)?,
            scratch: FixedVec::with_capacity(capacity, alloc, "contact_capacity")?,
            outcomes: FixedVec::with_capacity(capacity, alloc, "contact_capacity")?,
            begin_events: FixedVec::with_capacity(events, alloc, "event_capacity")?,
            end_events: FixedVec::with_capacity(events, alloc, "event_capacity")?,
            hit_events: FixedVec::with_capacity(events, alloc, "event_capacity")?,
        })
    }

    pub(crate) fn memory_usage(&self) -> usize {
        self.pool.memory_usage()
            + self.pair_set.memory_usage()
            + self.scratch.bytes()
            + self.outcomes.bytes()
            + self.begin_events.bytes()
            + self.end_events.bytes()
            + self.hit_events.bytes()
    }
}
