//! The vehicle pool's part of the state encoding: encode, decode, rebuild.

use crate::codec::{Dec, Enc, Sink};
use crate::error::Result;
use crate::store::pool::{decode_slots, encode_slots};
use crate::store::vehicles::VehicleStore;
use crate::vehicle::Vehicle;

/// Every vehicle slot, then the free list.
pub(crate) fn encode<S: Sink>(e: &mut Enc<S>, store: &VehicleStore) {
    encode_slots(e, store, &store.free, crate::vehicle::encode_vehicle);
}

/// Reads what `encode` wrote (checked) into the pool on commit; returns the slot count.
/// `bodies`: the bodies' slot words (see `decode_bodies`).
pub(crate) fn decode(
    d: &mut Dec,
    commit: bool,
    store: &mut VehicleStore,
    info: &mut [u64],
    bodies: &[u64],
) -> Result<usize> {
    decode_slots(
        d,
        commit,
        store.pool.slots_and_free(),
        info,
        "vehicle_capacity",
        Vehicle::dead,
        |d, item| {
            item.alive = true;
            crate::vehicle::decode_vehicle(d, item, bodies)
        },
    )
}

/// After the bodies are rebuilt: what is derived from each live vehicle. Returns how many
/// live.
pub(crate) fn rebuild(w: &mut crate::world::World) -> u32 {
    w.vehicles.iter().filter(|x| x.alive).count() as u32
}
