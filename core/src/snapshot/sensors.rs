//! The sensors' part of the state encoding: the overlaps at the end of the last step
//! (areas' settings travel with their shapes).

use crate::codec::{Enc, Sink};

/// The sorted `(sensor << 32 | visitor)` overlap keys.
pub(super) fn encode_sensor_pairs<S: Sink>(e: &mut Enc<S>, pairs: &[u64]) {
    e.u32(pairs.len() as u32);
    for &k in pairs.iter() {
        e.u64(k);
    }
}
