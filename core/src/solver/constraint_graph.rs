//! The constraint graph: colours the touching contacts of the awake set so that no two
//! constraints of one colour share a dynamic body, and orders the step's constraint slots
//! by colour (Box3D's `constraint_graph.c`).
//!
//! The colours are recomputed every step from the touching contacts in contact slot order
//! (nothing is kept between steps), so a restored world colours exactly alike.

use crate::body::NONE;
use crate::contact::CONTACT_TOUCHING;
use crate::task::Slots;
use crate::world::World;

/// Graph colours; the last one is the overflow, solved after the others.
pub(crate) const COLOR_COUNT: usize = 24;
pub(crate) const OVERFLOW: usize = COLOR_COUNT - 1;

/// The dynamic solver bodies of contact `ci` (`NONE` for one that is not dynamic), or
/// `[SKIP; 2]` when the contact is not solved this step: dead, not touching, disabled,
/// without points, or between two bodies outside the solver.
fn solved_bodies(
    contacts: &[crate::contact::Contact],
    solver_index: &[u32],
    params: &[super::BodyParams],
    ci: u32,
) -> [u32; 2] {
    let contact = &contacts[ci as usize];
    if !contact.alive
        || contact.flags & CONTACT_TOUCHING == 0
        || contact.flags & crate::contact::CONTACT_DISABLED != 0
        || contact.point_count == 0
    {
        return [SKIP; 2];
    }
    let ia = solver_index[contact.body_a as usize];
    let ib = solver_index[contact.body_b as usize];
    if ia == NONE && ib == NONE {
        return [SKIP; 2];
    }
    // Only dynamic bodies take a colour: static and kinematic ones are read-only.
    [dynamic_index(params, ia), dynamic_index(params, ib)]
}

/// Solver index `k` if it names a dynamic solver body, else `NONE` (the colouring's view
/// of a body: only dynamic ones take a colour).
#[inline(always)]
pub(crate) fn dynamic_index(params: &[super::BodyParams], k: u32) -> u32 {
    if k != NONE && params[k as usize].dynamic {
        k
    } else {
        NONE
    }
}

/// Empties every colour of the first `bodies` solver bodies (`words` words a colour).
pub(crate) fn clear_colors(bits: &mut [u64], words: usize, bodies: usize) {
    let used_words = bodies.div_ceil(64);
    for c in 0..COLOR_COUNT {
        for w in &mut bits[c * words..c * words + used_words] {
            *w = 0;
        }
    }
}

/// The first colour that holds neither dynamic solver body `da` nor `db` (`NONE` for a
/// body that is not dynamic), which then holds them; the overflow if none does.
pub(crate) fn take_color(bits: &mut [u64], words: usize, da: u32, db: u32) -> usize {
    for c in 0..OVERFLOW {
        let base = c * words;
        let free_a = da == NONE || bits[base + (da as usize >> 6)] & (1u64 << (da & 63)) == 0;
        let free_b = db == NONE || bits[base + (db as usize >> 6)] & (1u64 << (db & 63)) == 0;
        if free_a && free_b {
            if da != NONE {
                bits[base + (da as usize >> 6)] |= 1u64 << (da & 63);
            }
            if db != NONE {
                bits[base + (db as usize >> 6)] |= 1u64 << (db & 63);
            }
            return c;
        }
    }
    OVERFLOW
}

/// In [`SolverScratch::contact_bodies`]: the contact is not solved this step.
const SKIP: u32 = NONE - 1;

/// Colours the touching contacts of the awake set so that no two constraints of one
/// colour share a dynamic body; orders the constraint slots by colour.
///
/// Reading the contacts (one cache line or more each, scattered) is done for all of them
/// in parallel first, each writing only its own entry; the colouring itself, greedy in
/// contact order, then runs serially over those compact entries.
#[inline(never)]
pub(crate) fn color_constraints(world: &mut World) {
    let s = &mut world.solver;
    let moving = &world.awake.contacts;
    let n = moving.len();
    s.contact_bodies.resize(n, [SKIP; 2]);
    {
        let input = Slots::new(&mut s.contact_bodies[..n]);
        let (contacts, solver_index, params) = (&world.contacts, &s.solver_index, &s.params);
        world.tasks.for_each(n, 256, &|k, _| {
            // SAFETY: each entry is one item.
            *unsafe { input.get(k) } = solved_bodies(contacts, solver_index, params, moving[k]);
        });
    }
    s.touching.clear();
    s.touching_color.clear();
    let words = s.color_words;
    clear_colors(&mut s.color_bits, words, s.states.len());
    let mut counts = [0u32; COLOR_COUNT];
    // The contacts of the moving bodies, ascending (gathered after the narrow phase).
    for (&ci, &[da, db]) in moving.iter().zip(s.contact_bodies.iter()) {
        if da == SKIP {
            continue;
        }
        let color = take_color(&mut s.color_bits, words, da, db);
        counts[color] += 1;
        let ok = s.touching.push(ci) && s.touching_color.push(color as u8);
        debug_assert!(ok);
    }
    let mut starts = [0u32; COLOR_COUNT];
    let mut sum = 0;
    let mut used = 0;
    for c in 0..COLOR_COUNT {
        starts[c] = sum;
        sum += counts[c];
        if counts[c] > 0 {
            used += 1;
        }
    }
    world.counters.color_count = used;
    world.counters.overflow_constraints = counts[OVERFLOW];
    s.constraint_contact.clear();
    s.constraint_contact.resize(sum as usize, NONE);
    s.color_starts[..COLOR_COUNT].copy_from_slice(&starts);
    s.color_starts[COLOR_COUNT] = sum;
    for k in 0..s.touching.len() {
        let c = s.touching_color[k] as usize;
        s.constraint_contact[starts[c] as usize] = s.touching[k];
        starts[c] += 1;
    }
}
