//! A pool: the slots of one kind of object, its free list (last freed, first reused) and
//! its live count. Every store keeps its objects in one; ids name a slot and its
//! generation, and [`Pool::live_slot`] is the one place that checks them.

use crate::alloc::{FixedVec, WorldAlloc};
use crate::error::{Error, Result};
use core::ops::{Deref, DerefMut};

/// An object that lives in a pool slot: alive or free, with the generation ids carry.
pub(crate) trait Slotted {
    /// Whether the slot holds a live object.
    fn is_alive(&self) -> bool;
    /// The slot's generation, bumped each time it is reused.
    fn generation(&self) -> u32;
}

/// The slots of one kind of object. Reads and writes of the slots go through `Deref` to
/// the slot vector; taking and freeing slots through [`Pool::take`] and the free list.
pub(crate) struct Pool<T> {
    items: FixedVec<T>,
    /// State: free slots, used last-in first-out.
    pub(crate) free: FixedVec<u32>,
    /// Live objects (derived: recounted at restore).
    pub(crate) count: u32,
}

impl<T> Pool<T> {
    /// A pool of `capacity` slots taken from `alloc`; `what` names the capacity in the
    /// error when the allocation is refused.
    pub(crate) fn new(capacity: usize, alloc: WorldAlloc, what: &'static str) -> Result<Pool<T>> {
        Ok(Pool {
            items: FixedVec::with_capacity(capacity, alloc, what)?,
            free: FixedVec::with_capacity(capacity, alloc, what)?,
            count: 0,
        })
    }

    /// Takes a slot: the last freed slot first, else a new one at the end; `None` when the
    /// pool is full. `make` receives the slot's previous generation (0 for a new slot).
    pub(crate) fn take(
        &mut self,
        generation_of: impl Fn(&T) -> u32,
        make: impl FnOnce(u32) -> T,
    ) -> Option<u32> {
        if let Some(slot) = self.free.pop() {
            let old = generation_of(&self.items[slot as usize]);
            self.items[slot as usize] = make(old);
            return Some(slot);
        }
        if self.items.is_full() {
            return None;
        }
        let slot = self.items.len() as u32;
        let ok = self.items.push(make(0));
        debug_assert!(ok);
        Some(slot)
    }

    /// The slots and the free list, borrowed apart (restore fills both).
    pub(crate) fn slots_and_free(&mut self) -> (&mut FixedVec<T>, &mut FixedVec<u32>) {
        (&mut self.items, &mut self.free)
    }

    /// Bytes the pool took from its allocator.
    pub(crate) fn memory_usage(&self) -> usize {
        self.items.capacity() * core::mem::size_of::<T>() + self.free.capacity() * 4
    }
}

impl<T: Slotted> Pool<T> {
    /// The slot an id names, checked: a null id, another world's id (`world` is not
    /// `tag`), a slot past the pool, a free slot or an old generation is
    /// [`Error::InvalidId`] naming `what`.
    pub(crate) fn live_slot(
        &self,
        what: &'static str,
        (index, generation, world): (u32, u32, u32),
        tag: u32,
    ) -> Result<usize> {
        let bad = Error::InvalidId {
            what,
            index,
            generation,
        };
        let slot = (index as usize).checked_sub(1).ok_or(bad)?;
        if world != tag || slot >= self.items.len() {
            return Err(bad);
        }
        let item = &self.items[slot];
        if !item.is_alive() || item.generation() != generation {
            return Err(bad);
        }
        Ok(slot)
    }
}

impl<T> Deref for Pool<T> {
    type Target = FixedVec<T>;
    fn deref(&self) -> &FixedVec<T> {
        &self.items
    }
}

impl<T> DerefMut for Pool<T> {
    fn deref_mut(&mut self) -> &mut FixedVec<T> {
        &mut self.items
    }
}

/// Implements [`Slotted`] for a slot type with `alive` and `generation` fields.
macro_rules! slotted {
    ($($t:ty),*) => {$(
        impl crate::store::pool::Slotted for $t {
            fn is_alive(&self) -> bool {
                self.alive
            }
            fn generation(&self) -> u32 {
                self.generation
            }
        }
    )*};
}
pub(crate) use slotted;

/// Every slot of a pool (its generation, whether alive, and for a live one what `live`
/// writes), then the free list: the encoding the stores of characters, vehicles and water
/// volumes share.
pub(crate) fn encode_slots<T: Slotted, S: crate::codec::Sink>(
    e: &mut crate::codec::Enc<S>,
    items: &[T],
    free: &[u32],
    mut live: impl FnMut(&mut crate::codec::Enc<S>, &T),
) {
    e.u32(items.len() as u32);
    for item in items {
        e.u32(item.generation());
        e.bool(item.is_alive());
        if item.is_alive() {
            live(e, item);
        }
    }
    e.free_list(free);
}

/// Reads what [`encode_slots`] wrote into the pool (on commit), checking it fits the pool
/// (`what` names its capacity); `dead(generation)` makes a free slot, `live` reads a live
/// one's fields into it (and checks them). Leaves bit 0 set in `info` for live slots;
/// returns the slot count.
pub(crate) fn decode_slots<T>(
    d: &mut crate::codec::Dec,
    commit: bool,
    (items, free): (&mut FixedVec<T>, &mut FixedVec<u32>),
    info: &mut [u64],
    what: &'static str,
    dead: impl Fn(u32) -> T,
    mut live: impl FnMut(&mut crate::codec::Dec, &mut T) -> Result<()>,
) -> Result<usize> {
    let len = d.u32()? as usize;
    crate::error::check_fits(what, len as u64, info.len() as u64)?;
    for (i, word) in info[..len].iter_mut().enumerate() {
        let generation = d.u32()?;
        let mut item = dead(generation);
        if d.bool()? {
            live(d, &mut item)?;
            *word = 1;
        }
        if commit {
            crate::codec::put_slot(items, i, item);
        }
    }
    crate::codec::decode_free_list(d, &mut info[..len], commit, free)?;
    if commit {
        items.truncate(len);
    }
    Ok(len)
}
