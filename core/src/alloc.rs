//! Memory: every array of a world comes from the host allocator of its def (or the global
//! allocator), sized by the def's capacities at create, and never grows afterwards.
//!
//! We use `allocator-api2`'s `Vec<T, A>` with our own `WorldAlloc` rather than one arena
//! carved into arrays: each array keeps Rust's ownership and bounds checks, an allocator
//! that refuses surfaces as a capacity error at create, and dropping a half-built world
//! frees exactly what it took.

use crate::error::{Error, Result};
use allocator_api2::alloc::{AllocError, Allocator, Global, Layout};
use core::ffi::c_void;
use core::ptr::NonNull;

/// Host memory hooks: `alloc(size, align, context)` returns memory aligned to `align` or
/// null to refuse; `free(ptr, size, align, context)` gives it back. They run in the
/// host's floating-point setting and may be called from any thread that creates or
/// destroys a world.
#[derive(Clone, Copy, Debug)]
pub struct HostAllocator {
    /// Allocates `size` bytes aligned to `align`; null refuses.
    pub alloc: unsafe extern "C" fn(size: usize, align: usize, context: *mut c_void) -> *mut c_void,
    /// Frees memory from `alloc`, given the same size and alignment.
    pub free:
        unsafe extern "C" fn(ptr: *mut c_void, size: usize, align: usize, context: *mut c_void),
    /// Passed back to both hooks.
    pub context: *mut c_void,
}

// SAFETY: the host promises, by handing these hooks to a world, that they may be called
// from whichever thread creates or destroys that world; the context is theirs to guard.
unsafe impl Send for HostAllocator {}
// SAFETY: as above; the world only calls the hooks, never reads the context.
unsafe impl Sync for HostAllocator {}

/// The allocator a world's arrays draw from.
#[derive(Clone, Copy, Debug, Default)]
pub enum WorldAlloc {
    /// Rust's global allocator.
    #[default]
    Global,
    /// The host's hooks.
    Host(HostAllocator),
}

/// Every array of a world starts on a cache line of its own (64 bytes, or its type's
/// alignment when larger), so no two arrays share a line: threads writing different
/// arrays in a step never contend for one, and where the allocator happens to place a
/// small array does not decide how fast the step runs.
const LINE: usize = 64;

/// `layout` aligned to at least a cache line; the size is unchanged.
#[inline]
fn on_own_line(layout: Layout) -> Layout {
    Layout::from_size_align(layout.size(), layout.align().max(LINE)).unwrap_or(layout)
}

// SAFETY: `Global` forwards to the global allocator; `Host` forwards to hooks the host
// promised are a valid allocator (aligned, non-overlapping blocks, freed by `free`). Both
// ask for (and free with) the same stricter alignment, which satisfies the caller's.
unsafe impl Allocator for WorldAlloc {
    fn allocate(&self, layout: Layout) -> core::result::Result<NonNull<[u8]>, AllocError> {
        let layout = on_own_line(layout);
        match self {
            WorldAlloc::Global => Global.allocate(layout),
            WorldAlloc::Host(h) => {
                if layout.size() == 0 {
                    return Global.allocate(layout);
                }
                // SAFETY: calling the host's allocation hook with a valid layout.
                let p = unsafe { (h.alloc)(layout.size(), layout.align(), h.context) } as *mut u8;
                if p.is_null() || (p as usize) % layout.align() != 0 {
                    if !p.is_null() {
                        // SAFETY: handing back the misaligned block the hook just gave.
                        unsafe {
                            (h.free)(p as *mut c_void, layout.size(), layout.align(), h.context)
                        };
                    }
                    return Err(AllocError);
                }
                // SAFETY: p is non-null (checked above).
                let nn = unsafe { NonNull::new_unchecked(p) };
                Ok(NonNull::slice_from_raw_parts(nn, layout.size()))
            }
        }
    }

    unsafe fn deallocate(&self, ptr: NonNull<u8>, layout: Layout) {
        let layout = on_own_line(layout);
        match self {
            // SAFETY: the block came from Global with this layout.
            WorldAlloc::Global => unsafe { Global.deallocate(ptr, layout) },
            WorldAlloc::Host(h) => {
                if layout.size() == 0 {
                    // SAFETY: zero-sized blocks came from Global (see allocate).
                    unsafe { Global.deallocate(ptr, layout) };
                    return;
                }
                // SAFETY: the block came from the host's hook with this size and alignment.
                unsafe {
                    (h.free)(
                        ptr.as_ptr() as *mut c_void,
                        layout.size(),
                        layout.align(),
                        h.context,
                    )
                }
            }
        }
    }
}

/// A vector whose capacity is fixed when it is made: `push` past it returns `false` and
/// never reallocates. The step relies on this to never allocate.
pub struct FixedVec<T> {
    v: allocator_api2::vec::Vec<T, WorldAlloc>,
}

impl<T> FixedVec<T> {
    /// Reserves room for exactly `capacity` items, or refuses with a capacity error
    /// naming `what` when the allocator refuses.
    pub fn with_capacity(capacity: usize, alloc: WorldAlloc, what: &'static str) -> Result<Self> {
        let mut v = allocator_api2::vec::Vec::new_in(alloc);
        v.try_reserve_exact(capacity).map_err(|_| Error::Capacity {
            what,
            capacity: capacity as u64,
        })?;
        Ok(FixedVec { v })
    }

    /// An empty vector of no capacity: allocates nothing (a placeholder while a stage
    /// works on the real one moved out).
    pub fn empty(alloc: WorldAlloc) -> Self {
        FixedVec {
            v: allocator_api2::vec::Vec::new_in(alloc),
        }
    }

    /// Appends `x`, or returns `false` (dropping nothing, changing nothing) when full.
    #[inline(always)]
    #[must_use]
    pub fn push(&mut self, x: T) -> bool {
        if self.v.len() < self.v.capacity() {
            self.v.push(x);
            true
        } else {
            false
        }
    }

    /// The fixed capacity.
    #[inline(always)]
    pub fn capacity(&self) -> usize {
        self.v.capacity()
    }

    /// Bytes taken from the allocator: the capacity times the item size.
    pub fn bytes(&self) -> usize {
        self.v.capacity() * core::mem::size_of::<T>()
    }

    /// Whether another push would fail.
    #[inline(always)]
    pub fn is_full(&self) -> bool {
        self.v.len() == self.v.capacity()
    }

    /// Removes every item, keeping the memory.
    #[inline(always)]
    pub fn clear(&mut self) {
        self.v.clear();
    }

    /// Shortens to `len` items.
    #[inline(always)]
    pub fn truncate(&mut self, len: usize) {
        self.v.truncate(len);
    }

    /// Inserts `x` at `i`, shifting the rest up, or returns `false` (changing nothing)
    /// when full.
    #[must_use]
    pub fn insert(&mut self, i: usize, x: T) -> bool {
        if self.v.len() < self.v.capacity() {
            self.v.insert(i, x);
            true
        } else {
            false
        }
    }

    /// Removes item `i`, shifting the rest down (keeps order).
    pub fn remove_ordered(&mut self, i: usize) -> T {
        self.v.remove(i)
    }

    /// Removes and returns the last item.
    #[inline(always)]
    pub fn pop(&mut self) -> Option<T> {
        self.v.pop()
    }
}

impl<T: Clone> FixedVec<T> {
    /// Removes consecutive repeats (never allocates).
    pub fn dedup(&mut self)
    where
        T: PartialEq,
    {
        self.v.dedup();
    }

    /// Sets the length to `len`, filling new slots with `value`; `len` must not pass the
    /// capacity (checked).
    pub fn resize(&mut self, len: usize, value: T) {
        assert!(len <= self.v.capacity(), "FixedVec::resize past capacity");
        self.v.resize(len, value);
    }

    /// A vector of `capacity` copies of `value`, or a capacity error.
    pub fn filled(
        capacity: usize,
        value: T,
        alloc: WorldAlloc,
        what: &'static str,
    ) -> Result<Self> {
        let mut v = Self::with_capacity(capacity, alloc, what)?;
        v.resize(capacity, value);
        Ok(v)
    }
}

impl<T> core::ops::Deref for FixedVec<T> {
    type Target = [T];
    #[inline(always)]
    fn deref(&self) -> &[T] {
        &self.v
    }
}

impl<T> core::ops::DerefMut for FixedVec<T> {
    #[inline(always)]
    fn deref_mut(&mut self) -> &mut [T] {
        &mut self.v
    }
}

impl<T: core::fmt::Debug> core::fmt::Debug for FixedVec<T> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_list().entries(self.v.iter()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn push_past_capacity_is_refused_without_growing() {
        let mut v = FixedVec::with_capacity(2, WorldAlloc::Global, "test").unwrap();
        assert!(v.push(1));
        assert!(v.push(2));
        assert!(!v.push(3));
        assert_eq!(&v[..], &[1, 2]);
        assert_eq!(v.capacity(), 2);
    }
}
