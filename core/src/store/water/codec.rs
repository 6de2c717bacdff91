//! The water volume pool's part of the state encoding: encode, decode, rebuild.

use crate::codec::{Dec, Enc, Sink};
use crate::error::Result;
use crate::field::Field;
use crate::store::pool::{decode_slots, encode_slots};
use crate::store::water::WaterStore;
use crate::water::{WaterVolume, WaterVolumeDef};

/// Every water volume slot (a live one's settings), then the free list.
pub(crate) fn encode<S: Sink>(e: &mut Enc<S>, store: &WaterStore) {
    encode_slots(e, store, &store.free, |e, item| {
        WaterVolumeDef::put(&item.def, e)
    });
}

/// Reads what `encode` wrote (checked) into the pool on commit; returns the slot count.
/// `bodies`: the bodies' slot words (see `decode_bodies`).
pub(crate) fn decode(
    d: &mut Dec,
    commit: bool,
    store: &mut WaterStore,
    info: &mut [u64],
    _bodies: &[u64],
) -> Result<usize> {
    decode_slots(
        d,
        commit,
        store.pool.slots_and_free(),
        info,
        "water_capacity",
        WaterVolume::dead,
        |d, item| {
            item.def = crate::water::encoding::decode_stored(d)?;
            item.alive = true;
            Ok(())
        },
    )
}

/// After the bodies are rebuilt: what is derived from each live water volume (nothing but
/// the count). Returns how many live.
pub(crate) fn rebuild(w: &mut crate::world::World) -> u32 {
    w.water.iter().filter(|x| x.alive).count() as u32
}
