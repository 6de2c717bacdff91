//! The character store: the character pool.

pub(crate) mod codec;

use crate::alloc::WorldAlloc;
use crate::character::Character;
use crate::error::Result;
use crate::store::pool::{Pool, slotted};

slotted!(Character);

/// The characters.
pub(crate) struct CharacterStore {
    pub(crate) pool: Pool<Character>,
}
crate::store::store_derefs_to_pool!(CharacterStore, Character);

impl CharacterStore {
    pub(crate) fn new(capacity: usize, alloc: WorldAlloc) -> Result<CharacterStore> {
        Ok(CharacterStore {
            pool: Pool::new(capacity, alloc, "character_capacity")?,
        })
    }

    pub(crate) fn memory_usage(&self) -> usize {
        self.pool.memory_usage()
    }
}
