//! The set of shape pairs that have a contact: answers "is there already a contact for
//! (a, b)?" in O(1). Open addressing with linear probing and backward-shift deletion,
//! fixed capacity. It is only ever asked membership questions, never iterated, so its
//! layout (which depends on history) never shapes a result.

use crate::alloc::{FixedVec, WorldAlloc};
use crate::error::Result;

const EMPTY: u64 = u64::MAX;

/// A fixed-capacity set of pair keys.
pub(crate) struct PairSet {
    keys: FixedVec<u64>,
    values: FixedVec<u32>,
    mask: usize,
    count: usize,
}

/// The key of an unordered shape pair.
#[inline(always)]
pub(crate) fn pair_key(a: u32, b: u32) -> u64 {
    let (lo, hi) = if a < b { (a, b) } else { (b, a) };
    ((lo as u64) << 32) | hi as u64
}

#[inline(always)]
fn mix(x: u64) -> u64 {
    // A fixed 64-bit mix (splitmix64's finaliser): same on every target.
    let mut x = x;
    x ^= x >> 30;
    x = x.wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x ^= x >> 27;
    x = x.wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^= x >> 31;
    x
}

/// Slots in a block: the pairs of one lower shape start in one block of two cache lines.
const BLOCK: u64 = 16;

/// A key's home slot (before masking): the block is chosen by the lower shape alone and
/// the slot within it by the pair. A moved shape's search asks about its pairs one after
/// another, and those whose other shape also moved all have it as the lower shape
/// (the other's own search finds the rest), so its questions land in the same two lines
/// instead of one cache miss each.
#[inline(always)]
fn home(key: u64) -> usize {
    let block = mix(key >> 32) & !(BLOCK - 1);
    let slot = mix(key) & (BLOCK - 1);
    (block | slot) as usize
}

impl PairSet {
    /// Room for `capacity` pairs (the table is at least twice that, a power of two).
    pub(crate) fn new(capacity: usize, alloc: WorldAlloc) -> Result<PairSet> {
        let size = (capacity.max(1) * 2).next_power_of_two();
        Ok(PairSet {
            keys: FixedVec::filled(size, EMPTY, alloc, "contact_capacity")?,
            values: FixedVec::filled(size, 0, alloc, "contact_capacity")?,
            mask: size - 1,
            count: 0,
        })
    }

    /// Bytes taken from the allocator.
    pub(crate) fn memory_usage(&self) -> usize {
        self.keys.bytes() + self.values.bytes()
    }

    /// The value stored for `key`.
    #[inline]
    pub(crate) fn get(&self, key: u64) -> Option<u32> {
        let mut i = home(key) & self.mask;
        loop {
            let k = self.keys[i];
            if k == key {
                return Some(self.values[i]);
            }
            if k == EMPTY {
                return None;
            }
            i = (i + 1) & self.mask;
        }
    }

    /// Asks the cache for the line where a search for `key` begins. A hint only.
    #[inline(always)]
    pub(crate) fn prefetch(&self, key: u64) {
        let i = home(key) & self.mask;
        crate::solver::lanes::prefetch(self.keys.as_ptr().wrapping_add(i));
    }

    /// Whether `key` is in the set.
    #[inline]
    pub(crate) fn contains(&self, key: u64) -> bool {
        self.get(key).is_some()
    }

    /// Adds `key → value`; the caller keeps the count under the capacity.
    pub(crate) fn insert(&mut self, key: u64, value: u32) {
        debug_assert!(self.count * 2 < self.keys.len());
        let mut i = home(key) & self.mask;
        loop {
            let k = self.keys[i];
            if k == EMPTY {
                self.keys[i] = key;
                self.values[i] = value;
                self.count += 1;
                return;
            }
            if k == key {
                self.values[i] = value;
                return;
            }
            i = (i + 1) & self.mask;
        }
    }

    /// Removes every key.
    pub(crate) fn clear(&mut self) {
        for k in self.keys.iter_mut() {
            *k = EMPTY;
        }
        self.count = 0;
    }

    /// Removes `key` if present.
    pub(crate) fn remove(&mut self, key: u64) {
        let mut i = home(key) & self.mask;
        loop {
            let k = self.keys[i];
            if k == EMPTY {
                return;
            }
            if k == key {
                break;
            }
            i = (i + 1) & self.mask;
        }
        // Backward-shift deletion keeps probe chains whole without tombstones.
        let mut hole = i;
        let mut j = i;
        loop {
            j = (j + 1) & self.mask;
            let k = self.keys[j];
            if k == EMPTY {
                break;
            }
            let start = home(k) & self.mask;
            // Move k into the hole if its home is not cyclically in (hole, j].
            let in_range = if hole <= j {
                start > hole && start <= j
            } else {
                start > hole || start <= j
            };
            if !in_range {
                self.keys[hole] = k;
                self.values[hole] = self.values[j];
                hole = j;
            }
        }
        self.keys[hole] = EMPTY;
        self.count -= 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inserts_and_removes_agree_with_a_model() {
        let mut set = PairSet::new(512, WorldAlloc::Global).unwrap();
        let mut model = std::collections::BTreeMap::new();
        let mut s: u32 = 7;
        for step in 0..20_000u32 {
            s = s.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            let a = (s >> 8) % 40;
            let b = (s >> 20) % 40;
            if a == b {
                continue;
            }
            let key = pair_key(a, b);
            if model.contains_key(&key) {
                set.remove(key);
                model.remove(&key);
            } else if model.len() < 512 {
                set.insert(key, step);
                model.insert(key, step);
            }
            for (k, v) in &model {
                assert_eq!(set.get(*k), Some(*v));
            }
        }
        for a in 0..40 {
            for b in 0..40 {
                let key = pair_key(a, b);
                assert_eq!(set.contains(key), model.contains_key(&key));
            }
        }
    }

    /// The pairs of one lower shape share a home block: far more of them than a block
    /// holds spill into the next blocks (and past the table's end), and removing them in
    /// any order keeps every other pair findable.
    #[test]
    fn many_pairs_of_one_shape_spill_past_their_block_and_remove_cleanly() {
        let mut set = PairSet::new(128, WorldAlloc::Global).unwrap();
        let mut model = std::collections::BTreeMap::new();
        for t in 0..100u32 {
            let key = pair_key(7, 1000 + t);
            set.insert(key, t);
            model.insert(key, t);
        }
        for a in 0..20u32 {
            let key = pair_key(a, a + 3000);
            set.insert(key, a);
            model.insert(key, a);
        }
        let mut s: u32 = 11;
        while !model.is_empty() {
            s = s.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            let keys: Vec<u64> = model.keys().copied().collect();
            let key = keys[(s >> 8) as usize % keys.len()];
            set.remove(key);
            model.remove(&key);
            assert!(!set.contains(key));
            for (k, v) in &model {
                assert_eq!(set.get(*k), Some(*v));
            }
        }
        assert_eq!(set.count, 0);
    }
}
