//! `Tracked`: the server's records behind a counter of mutable accesses, so a direct
//! body state filled before the state-sync callbacks knows, without locking the server,
//! whether what it holds is still what the records say.
//!
//! Every `&mut` access to the records (any server call that may change state) bumps the
//! epoch; reads do not. A `BodySnap` taken at epoch `e` is the records' truth while the
//! epoch is still `e`.

use std::ops::{Deref, DerefMut};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

/// A counter shared by the server and the direct body states it hands out.
#[derive(Clone, Default)]
pub(crate) struct Epoch(Arc<AtomicU64>);

impl Epoch {
    pub fn now(&self) -> u64 {
        self.0.load(Ordering::SeqCst)
    }

    fn bump(&self) {
        self.0.fetch_add(1, Ordering::SeqCst);
    }
}

/// A value whose every mutable access bumps an epoch.
#[derive(Default)]
pub(crate) struct Tracked<T> {
    inner: T,
    epoch: Epoch,
}

impl<T> Tracked<T> {
    pub fn epoch(&self) -> &Epoch {
        &self.epoch
    }

    /// Mutable access that leaves the epoch alone: only for a change whose caller
    /// accounts for every snapshot it could make stale (a body state writing its own
    /// body drops its own snapshot).
    pub fn untracked(&mut self) -> &mut T {
        &mut self.inner
    }
}

impl<T> Deref for Tracked<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.inner
    }
}

impl<T> DerefMut for Tracked<T> {
    fn deref_mut(&mut self) -> &mut T {
        self.epoch.bump();
        &mut self.inner
    }
}
