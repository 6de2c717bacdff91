//! The sensors' part of the state encoding: the overlaps at the end of the last step
//! (areas' settings travel with their shapes). Nothing of it is derived.

use crate::alloc::FixedVec;
use crate::codec::{Dec, Enc, Sink, check};
use crate::error::Result;

/// The sorted `(sensor << 32 | visitor)` overlap keys.
pub(crate) fn encode_sensor_pairs<S: Sink>(e: &mut Enc<S>, pairs: &[u64]) {
    e.u32(pairs.len() as u32);
    for &k in pairs.iter() {
        e.u64(k);
    }
}

/// Reads what `encode_sensor_pairs` wrote into `pairs` (on commit): at most `capacity`
/// keys, strictly ascending, each a live sensor and another live shape (a sensor visitor
/// when the sensor detected sensors at the last step; the flag may have changed since, so
/// any) (`shapes`: the shapes' slot words, see `decode_shapes`).
pub(crate) fn decode_sensor_pairs(
    d: &mut Dec,
    commit: bool,
    pairs: &mut FixedVec<u64>,
    capacity: usize,
    shapes: &[u64],
) -> Result<()> {
    let n = d.u32()? as usize;
    crate::error::check_fits("sensor_capacity", n as u64, capacity as u64)?;
    if commit {
        pairs.clear();
    }
    let mut last = None;
    for _ in 0..n {
        let key = d.u64()?;
        let (a, b) = ((key >> 32) as usize, (key & 0xffff_ffff) as usize);
        check(
            a < shapes.len()
                && b < shapes.len()
                && a != b
                && shapes[a] & 1 == 1
                && shapes[b] & 1 == 1
                && (shapes[a] >> 61) & 1 == 1,
            "sensor overlap names a missing shape",
        )?;
        check(last.is_none_or(|l| key > l), "sensor overlaps out of order")?;
        last = Some(key);
        if commit {
            let ok = pairs.push(key);
            debug_assert!(ok);
        }
    }
    Ok(())
}
