//! The pre-solve callback: the host may disable a touching contact for one step.
//!
//! It runs serially, in contact slot order, in the library's floating-point setting (its
//! answer decides contacts). Its decisions — the shape pairs it disabled — go into the
//! step's journal record, and a replay applies them instead of calling the callback, so a
//! session with a pre-solve callback replays to the same bits.

use crate::broad_phase::pair_set::pair_key;
use crate::contact::{CONTACT_DISABLED, CONTACT_TOUCHING};
use crate::id::ShapeId;
use crate::math::{DVec3, Vec3};
use crate::world::World;
use core::ffi::c_void;

/// What the pre-solve callback sees of a touching contact.
#[derive(Clone, Copy, Debug, PartialEq)]
#[repr(C)]
pub struct PreSolveContact {
    /// Shape A.
    pub shape_a: ShapeId,
    /// Shape B.
    pub shape_b: ShapeId,
    /// Normal from A to B.
    pub normal: Vec3,
    /// Number of points used.
    pub point_count: u32,
    /// The points, relative to the world origin.
    pub points: [DVec3; 4],
    /// Their separations (negative: overlap).
    pub separations: [f32; 4],
}

/// Returns false to disable the contact for this step.
pub type PreSolveFn =
    unsafe extern "C" fn(contact: *const PreSolveContact, context: *mut c_void) -> bool;

/// A pre-solve callback and its context.
#[derive(Clone, Copy, Debug)]
pub struct PreSolve {
    /// Called for each touching contact of a shape with `enable_pre_solve`.
    pub callback: PreSolveFn,
    /// Passed back to the callback.
    pub context: *mut c_void,
}

// SAFETY: the host promises the callback may be called from the thread that steps the
// world; the library never dereferences the context.
unsafe impl Send for PreSolve {}
// SAFETY: as above.
unsafe impl Sync for PreSolve {}

impl World {
    /// Sets (or clears) the pre-solve callback. Not state: a replay applies the recorded
    /// decisions instead.
    pub fn set_pre_solve(&mut self, pre_solve: Option<PreSolve>) {
        self.presolve.callback = pre_solve;
    }

    /// Asks the callback (or, replaying, the tape) about each touching contact of a shape
    /// with pre-solve enabled; remembers the disabled pairs for the journal.
    pub(crate) fn run_pre_solve(&mut self) {
        self.presolve.disabled.clear();
        let replaying = self.presolve.replaying;
        // Only the contacts of moving bodies (`awake.contacts`, gathered after the narrow
        // phase) are solved, so only theirs are asked and cleared; a flag left on a resting
        // contact is cleared here before it is solved again.
        if !replaying && self.presolve.callback.is_none() {
            if !self.presolve.flags_set {
                return;
            }
            for &c in self.awake.contacts.iter() {
                self.contacts[c as usize].flags &= !CONTACT_DISABLED;
            }
            return;
        }
        for k in 0..self.awake.contacts.len() {
            let c = self.awake.contacts[k] as usize;
            self.contacts[c].flags &= !CONTACT_DISABLED;
            let contact = &self.contacts[c];
            if !contact.alive {
                continue;
            }
            if contact.flags & CONTACT_TOUCHING == 0 || contact.point_count == 0 {
                continue;
            }
            let (sa, sb) = (
                &self.shapes[contact.shape_a as usize],
                &self.shapes[contact.shape_b as usize],
            );
            if !(sa.enable_pre_solve || sb.enable_pre_solve) {
                continue;
            }
            let (ba, bb) = (
                &self.bodies[contact.body_a as usize],
                &self.bodies[contact.body_b as usize],
            );
            if !(ba.is_moving() || bb.is_moving()) {
                continue;
            }
            // A mesh pair's triangle contacts are asked one by one, so each is keyed on
            // its own (parent contact slot and triangle: state, the same in a replay).
            let key = if contact.child == crate::body::NONE {
                pair_key(contact.shape_a, contact.shape_b)
            } else {
                crate::contact::child_key(contact.parent, contact.child)
            };
            let disable = if replaying {
                self.presolve.replay.binary_search(&key).is_ok()
            } else {
                let pre = self.presolve.callback.expect("checked above");
                let mut view = PreSolveContact {
                    shape_a: self.shape_id(contact.shape_a),
                    shape_b: self.shape_id(contact.shape_b),
                    normal: contact.normal,
                    point_count: contact.point_count as u32,
                    points: [DVec3::ZERO; 4],
                    separations: [0.0; 4],
                };
                // Anchors are relative to each body's centre of mass: use A's.
                let base = ba.position + ba.center_offset().to_f64();
                for (j, p) in contact.points[..contact.point_count as usize]
                    .iter()
                    .enumerate()
                {
                    view.points[j] = base + p.anchor_a.to_f64();
                    view.separations[j] = p.separation;
                }
                // SAFETY: calling the host's callback with a pointer to a view that lives
                // across the call, as its contract says.
                !unsafe { (pre.callback)(&view, pre.context) }
            };
            if disable {
                self.contacts[c].flags |= CONTACT_DISABLED;
                self.presolve.flags_set = true;
                let ok = self.presolve.disabled.push(key);
                debug_assert!(ok);
            }
        }
        self.presolve.disabled.sort_unstable();
    }
}
