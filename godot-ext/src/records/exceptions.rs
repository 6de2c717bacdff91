//! Collision exceptions (`add_collision_exception_with`), applied through the core's
//! pre-solve callback.

use std::collections::{BTreeMap, BTreeSet};

use maul3d::ShapeId;

use super::Records;

/// Collision exceptions (`add_collision_exception_with`), applied through the core's
/// pre-solve callback: a touching contact between two excepted bodies is disabled each
/// step (the decisions go into the journal, so replays keep them). Shapes of bodies with
/// exceptions are created with `enable_pre_solve`.
#[derive(Default)]
pub(crate) struct Exceptions {
    /// Shape → its body's RID, for the shapes of every body in an exception.
    pub shape_owner: BTreeMap<ShapeId, u64>,
    /// Body RID pairs (lower first) that must not collide.
    pub pairs: BTreeSet<(u64, u64)>,
}

/// The pre-solve callback: false (disable) for a contact between excepted bodies.
///
/// # Safety
/// `context` is the space's `Exceptions` (boxed, alive as long as the world) and
/// `contact` a valid contact, as the core guarantees.
pub(crate) unsafe extern "C" fn exceptions_pre_solve(
    contact: *const maul3d::PreSolveContact,
    context: *mut core::ffi::c_void,
) -> bool {
    // SAFETY: see above.
    let (c, ex) = unsafe { (&*contact, &*(context as *const Exceptions)) };
    match (
        ex.shape_owner.get(&c.shape_a),
        ex.shape_owner.get(&c.shape_b),
    ) {
        (Some(&a), Some(&b)) => !ex.pairs.contains(&(a.min(b), a.max(b))),
        _ => true,
    }
}

impl Records {
    /// Recomputes a space's exception tables from the records.
    pub fn refresh_exceptions(&mut self, space: u64) {
        let Some(s) = self.spaces.get(&space) else {
            return;
        };
        let mut pairs = BTreeSet::new();
        for (rid, o) in self.objs.iter().filter(|(_, o)| o.space == Some(space)) {
            for other in &o.exceptions {
                pairs.insert(((*rid).min(*other), (*rid).max(*other)));
            }
        }
        if pairs.is_empty() && s.exceptions.pairs.is_empty() {
            return;
        }
        let mut shape_owner = BTreeMap::new();
        for &(a, b) in &pairs {
            for rid in [a, b] {
                if let Some(core) = self.objs.get(&rid).and_then(|o| o.core.as_ref()) {
                    for id in core.shapes.iter().filter_map(|(s, _)| *s) {
                        shape_owner.insert(id, rid);
                    }
                }
            }
        }
        let s = self.spaces.get_mut(&space).expect("space exists");
        s.exceptions.pairs = pairs;
        s.exceptions.shape_owner = shape_owner;
    }
}
