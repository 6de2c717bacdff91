//! The snapshot calls: a snapshot closes with the journal's section (which journal runs
//! and where its tape stands, outside the hashed state), and a restore rewinds a running
//! journal's tape to it. The state itself is written and read by `crate::snapshot`; the
//! section by `crate::journal`. A restore is not recorded: the tape it rewinds then holds
//! the history the restored world lived.

use crate::def::WorldDef;
#[cfg(doc)]
use crate::error::Error;
use crate::error::Result;
use crate::journal::{SNAPSHOT_JOURNAL_SIZE, SnapshotJournal, split_snapshot};
use crate::world::World;

impl World {
    /// Bytes `snapshot` needs.
    pub fn snapshot_size(&self) -> usize {
        self.snapshot_size_with(SNAPSHOT_JOURNAL_SIZE)
    }

    /// Writes the world's state into `buf` (header with format revision, sizes and a
    /// checksum, then the state, the host's user data and the journal section: which
    /// journal runs and where its tape stands, outside the hashed state); returns the
    /// length written.
    /// A buffer smaller than `snapshot_size()` is refused with a capacity error.
    pub fn snapshot(&self, buf: &mut [u8]) -> Result<usize> {
        let section = SnapshotJournal::section(self.journal_mark());
        self.write_snapshot(buf, &section)
    }

    /// The def (capacities and settings) a snapshot was taken with, so a verifier in
    /// another process can create the right world. Hooks and allocator are left `None`.
    pub fn def_from_snapshot(buf: &[u8]) -> Result<WorldDef> {
        let (payload, _) = split_snapshot(buf)?;
        World::def_from_state(payload)
    }

    /// Brings this world to exactly the state of a snapshot (hash included). The world
    /// keeps its own capacities, which must hold the snapshot (each pool's slots, the
    /// content bytes, the sensor overlaps): [`Error::TooSmall`] names the first that does
    /// not; a world grown since the snapshot was taken takes it. A damaged snapshot is refused with a format
    /// error, another revision with a version error; a refused restore changes nothing.
    ///
    /// Rollback-aware journals: while a journal runs, a snapshot that journal took rewinds
    /// its tape to where the snapshot was taken (the tape then holds the history the world
    /// lived); any other snapshot — taken with no journal running, by another journal, or
    /// on a branch the tape has since been rewound past — is refused with a state error
    /// naming the journal. With no journal running, the journal section is ignored.
    pub fn restore(&mut self, buf: &[u8]) -> Result<()> {
        let (payload, mark) = split_snapshot(buf)?;
        // Validate everything first, then commit: nothing changes on a refusal.
        self.check_snapshot_state(payload)?;
        let rewind = self.check_journal_restore(mark)?;
        self.restore_snapshot_state(payload)?;
        if let Some(m) = rewind {
            self.rewind_journal(m);
            // The rewound tape's world has the snapshot's capacities; this one keeps its
            // own (a rollback across a growth), so the tape grows its world to them here.
            let taken = World::def_from_state(payload)?.capacities();
            if taken != self.capacities() {
                let now = self.capacities();
                self.rec(|j| j.grow(&now));
            }
        }
        Ok(())
    }
}
