//! The pre-solve store: the host's pre-solve callback (not state) and the contact pairs
//! it disabled in this step, which the journal records and a replay applies instead.

use crate::alloc::{FixedVec, WorldAlloc};
use crate::error::Result;
use crate::presolve::PreSolve;

/// The pre-solve callback and its decisions.
pub(crate) struct PreSolveStore {
    /// The pre-solve callback (host code, not state).
    pub(crate) callback: Option<PreSolve>,
    /// Pairs the pre-solve callback disabled in this step (for the journal), sorted.
    pub(crate) disabled: FixedVec<u64>,
    /// During a replayed step: the recorded disabled pairs, applied instead of the callback.
    pub(crate) replay: FixedVec<u64>,
    pub(crate) replaying: bool,
    /// Whether a contact may still carry the disabled flag: set when the callback (or a
    /// replay) disables one. Until then the step has no flags to clear.
    pub(crate) flags_set: bool,
}

impl PreSolveStore {
    pub(crate) fn new(contacts: usize, alloc: WorldAlloc) -> Result<PreSolveStore> {
        Ok(PreSolveStore {
            callback: None,
            disabled: FixedVec::with_capacity(contacts, alloc, "contact_capacity")?,
            replay: FixedVec::with_capacity(contacts, alloc, "contact_capacity")?,
            flags_set: false,
            replaying: false,
        })
    }

    pub(crate) fn memory_usage(&self) -> usize {
        (self.disabled.capacity() + self.replay.capacity()) * 8
    }
}
