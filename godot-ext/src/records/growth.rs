//! A space's world grows as it fills: the `physics/maul3d/*` capacities are its initial
//! sizes. Creates make room first (doubling a pool about to be full), and each step is
//! preceded by the core's `growth_needed` (room for the pairs and contacts the step will
//! make). Growth is a journaled core call (`World::grow`), so a replay grows at the same
//! point, and capacities are not in the hash: a space that grew steps as one made large.

use crate::errors::error_once;
use maul3d::{Capacities, World};

/// Most slots of any pool (the core's bound).
const MAX: u32 = 1 << 24;

/// `capacity`, doubled until `live + need` fits.
fn doubled(live: u32, need: u32, capacity: u32) -> u32 {
    let want = live.saturating_add(need);
    let mut c = capacity.max(1);
    while c < want && c < MAX {
        c = c.saturating_mul(2).min(MAX);
    }
    c
}

fn grow(w: &mut World, c: Capacities) {
    if c != w.capacities()
        && let Err(e) = w.grow(&c)
    {
        error_once("grow", &format!("the physics space could not grow: {e}"));
    }
}

/// Makes room in `w` for `bodies` more bodies, `shapes` more shapes (each possibly with a
/// hull or mesh of its own) and `joints` more joints, doubling what would overflow.
pub(crate) fn make_room(w: &mut World, bodies: u32, shapes: u32, joints: u32) {
    let n = w.counters();
    let c = w.capacities();
    grow(
        w,
        Capacities {
            body_capacity: doubled(n.body_count, bodies, c.body_capacity),
            shape_capacity: doubled(n.shape_count, shapes, c.shape_capacity),
            hull_capacity: doubled(n.hull_count, shapes, c.hull_capacity),
            mesh_capacity: doubled(n.mesh_count, shapes, c.mesh_capacity),
            joint_capacity: doubled(n.joint_count, joints, c.joint_capacity),
            ..c
        },
    );
}

/// Grows `w` before a step when the core says the step could overflow a pool.
pub(crate) fn grow_before_step(w: &mut World) {
    if let Some(c) = w.growth_needed() {
        grow(w, c);
    }
}
