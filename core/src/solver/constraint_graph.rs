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

/// Empties every colour of the first `bodies` solver bodies.
pub(crate) fn clear_colors(colors: &mut [u32], bodies: usize) {
    colors[..bodies].fill(0);
}

/// Each solver body's colours as bits (the overflow is never marked).
const REAL_COLORS: u32 = (1 << OVERFLOW) - 1;
const _: () = assert!(OVERFLOW < 32, "a body's colours fit a u32");

/// The first colour that holds neither dynamic solver body `da` nor `db` (`NONE` for a
/// body that is not dynamic), which then holds them; the overflow if none does. Each
/// body keeps its colours as bits, so the first free one of both is one lookup.
#[inline(always)]
pub(crate) fn take_color(colors: &mut [u32], da: u32, db: u32) -> usize {
    let used = |d: u32| if d == NONE { 0 } else { colors[d as usize] };
    let free = !(used(da) | used(db)) & REAL_COLORS;
    if free == 0 {
        return OVERFLOW;
    }
    let c = free.trailing_zeros() as usize;
    for d in [da, db] {
        if d != NONE {
            colors[d as usize] |= 1 << c;
        }
    }
    c
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
    clear_colors(&mut s.body_colors, s.states.len());
    let mut counts = [0u32; COLOR_COUNT];
    // The contacts of the moving bodies, ascending (gathered after the narrow phase).
    for (&ci, &[da, db]) in moving.iter().zip(s.contact_bodies.iter()) {
        if da == SKIP {
            continue;
        }
        let color = take_color(&mut s.body_colors, da, db);
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

#[cfg(test)]
mod tests {
    use super::*;

    /// `take_color` gives what colouring by explicit per-colour body sets gives: the first
    /// colour holding neither dynamic body (then holding both), the overflow when all
    /// are taken — over many constraints on few bodies, so bodies fill every colour.
    #[test]
    fn take_color_gives_the_first_colour_free_of_both_bodies() {
        let bodies = 40usize;
        let mut colors = vec![0u32; bodies];
        let mut sets = vec![vec![false; bodies]; OVERFLOW];
        let mut seed = 12345u64;
        let mut next = |m: u64| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) % m
        };
        let mut overflowed = 0;
        for _ in 0..3000 {
            let pick = |r: u64| if r == 0 { NONE } else { (r - 1) as u32 };
            let (da, db) = (pick(next(bodies as u64 + 1)), pick(next(bodies as u64 + 1)));
            let free = |set: &Vec<bool>, d: u32| d == NONE || !set[d as usize];
            let expected = (0..OVERFLOW)
                .find(|&c| free(&sets[c], da) && free(&sets[c], db))
                .unwrap_or(OVERFLOW);
            if expected != OVERFLOW {
                for d in [da, db].into_iter().filter(|&d| d != NONE) {
                    sets[expected][d as usize] = true;
                }
            } else {
                overflowed += 1;
            }
            assert_eq!(take_color(&mut colors, da, db), expected);
        }
        assert!(overflowed > 0, "the bodies never filled every colour");
        clear_colors(&mut colors, bodies);
        assert!(colors.iter().all(|&c| c == 0));
    }
}
