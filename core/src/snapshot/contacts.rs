//! The contact pool's part of the state encoding: manifolds with their impulses, and the
//! SAT caches.

use crate::codec::{Enc, Sink};
use crate::collide::SatCache;
use crate::contact::{CONTACT_TOUCHING, Contact};

fn encode_cache<S: Sink>(e: &mut Enc<S>, c: &SatCache) {
    e.u8(c.kind);
    e.u16(c.index_a);
    e.u16(c.index_b);
    e.u32(c.separation_bits);
}

/// Every contact slot (alive; a live contact's shapes, mesh child and parent, touching
/// flag, manifold, rolling impulse and SAT cache), then the free list. Bodies, edges, the
/// pair set and event flags are derived.
pub(super) fn encode_contacts<S: Sink>(e: &mut Enc<S>, contacts: &[Contact], free: &[u32]) {
    e.u32(contacts.len() as u32);
    for c in contacts.iter() {
        e.bool(c.alive);
        if !c.alive {
            continue;
        }
        e.u32(c.shape_a);
        e.u32(c.shape_b);
        e.u32(c.child);
        e.u32(c.parent);
        e.bool(c.flags & CONTACT_TOUCHING != 0);
        e.vec3(c.normal);
        e.u8(c.point_count);
        for p in &c.points[..c.point_count as usize] {
            e.vec3(p.anchor_a);
            e.vec3(p.anchor_b);
            e.f32(p.separation);
            e.f32(p.normal_impulse);
            e.vec3(p.tangent_impulse);
            e.u32(p.id);
        }
        e.vec3(c.rolling_impulse);
        encode_cache(e, &c.cache);
    }
    e.free_list(free);
}
