//! The world's hash: FNV-1a, 64-bit (offset basis 0xcbf29ce484222325, prime
//! 0x100000001b3; `crate::codec::Fnv`), over the canonical state encoding
//! (`crate::snapshot::encode_state`): fixed and documented, never std's hasher. Equal
//! hashes mean equal worlds; `test/hashes.txt` holds the hashes every platform must print.

use crate::codec::{Enc, Fnv};
use crate::snapshot::encode_state;
use crate::world::World;

impl World {
    /// Folds the whole simulation state into 64 bits (FNV-1a over the canonical
    /// encoding). Equal hashes mean equal worlds; user data, events, counters, trees and
    /// the profile are left out.
    pub fn hash(&self) -> u64 {
        let mut f = Fnv::new();
        encode_state(self, &mut Enc(&mut f));
        f.finish()
    }
}
