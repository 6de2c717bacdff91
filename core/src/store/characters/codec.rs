//! The character pool's part of the state encoding: encode, decode, rebuild.

use crate::character::Character;
use crate::codec::{Dec, Enc, Sink};
use crate::error::Result;
use crate::store::characters::CharacterStore;
use crate::store::pool::{decode_slots, encode_slots};

/// Every character slot, then the free list.
pub(crate) fn encode<S: Sink>(e: &mut Enc<S>, store: &CharacterStore) {
    encode_slots(
        e,
        store,
        &store.free,
        crate::character::encoding::encode_character,
    );
}

/// Reads what `encode` wrote (checked) into the pool on commit; returns the slot count.
/// `bodies`: the bodies' slot words (see `decode_bodies`).
pub(crate) fn decode(
    d: &mut Dec,
    commit: bool,
    store: &mut CharacterStore,
    info: &mut [u64],
    bodies: &[u64],
) -> Result<usize> {
    decode_slots(
        d,
        commit,
        store.pool.slots_and_free(),
        info,
        "character_capacity",
        Character::dead,
        |d, item| {
            item.alive = true;
            crate::character::encoding::decode_character(d, item, bodies)
        },
    )
}

/// After the bodies are rebuilt: what is derived from each live character. Returns how many
/// live.
pub(crate) fn rebuild(w: &mut crate::world::World) -> u32 {
    w.characters.iter().filter(|x| x.alive).count() as u32
}
