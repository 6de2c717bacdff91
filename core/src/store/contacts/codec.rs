//! The contact pool's part of the state encoding: manifolds with their impulses, and the
//! SAT caches (encode, decode, and the pair set, body edges and event flags rebuilt
//! after a restore).

use crate::alloc::FixedVec;
use crate::body::NONE;
use crate::broad_phase::pair_set::pair_key;
use crate::codec::{Dec, Enc, Sink, check, decode_free_list, put_slot};
use crate::collide::SatCache;
use crate::contact::{
    CONTACT_EVENTS, CONTACT_RECYCLABLE, CONTACT_TOUCHING, Contact, ContactEdge, ContactPoint,
    Recycle, child_key,
};
use crate::error::Result;
use crate::math::Quat;
use crate::shape::ShapeGeometry;
use crate::world::World;

fn encode_cache<S: Sink>(e: &mut Enc<S>, c: &SatCache) {
    e.u8(c.kind);
    e.u16(c.index_a);
    e.u16(c.index_b);
    e.u32(c.separation_bits);
}

/// Every contact slot (alive; a live contact's shapes, mesh child and parent, touching
/// and recyclable flags, manifold, rolling impulse, SAT cache and, for a recyclable
/// manifold, the poses it was computed at and its points' base separations), then the
/// free list. Bodies, edges, the
/// pair set and event flags are derived.
pub(crate) fn encode_contacts<S: Sink>(e: &mut Enc<S>, contacts: &[Contact], free: &[u32]) {
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
        // Bit 0 touching, bit 1 recyclable (revision 12; a bool before, which reads the
        // same with bit 1 clear).
        let recyclable = c.flags & CONTACT_RECYCLABLE != 0;
        e.u8((c.flags & CONTACT_TOUCHING != 0) as u8 | (recyclable as u8) << 1);
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
        if recyclable {
            let r = &c.recycle;
            e.quat(r.rotation_a);
            e.quat(r.rotation_b);
            e.vec3(r.center);
            e.quat(r.rotation);
            for p in &c.points[..c.point_count as usize] {
                e.f32(p.base_separation);
            }
        }
    }
    e.free_list(free);
}

/// Reads what `encode_contacts` wrote into the pool (on commit); returns the slot count.
/// `shapes` are the shapes' slot words (see `decode_shapes`); `keys` is scratch for the
/// pair keys, to refuse two contacts for one pair. Each contact's shapes are live, of two
/// bodies and in canonical order; a mesh child's parent is a live contact that is no
/// child, with the same shape B. `recycling`: the snapshot's revision has the base
/// separations and recycling poses (older ones read as computed afresh next step).
#[allow(clippy::too_many_arguments)]
pub(crate) fn decode_contacts(
    d: &mut Dec,
    recycling: bool,
    commit: bool,
    contacts: &mut FixedVec<Contact>,
    free: &mut FixedVec<u32>,
    info: &mut [u64],
    shapes: &[u64],
    keys: &mut FixedVec<u64>,
) -> Result<usize> {
    let len = d.u32()? as usize;
    crate::error::check_fits("contact_capacity", len as u64, info.len() as u64)?;
    keys.clear();
    for (i, word) in info[..len].iter_mut().enumerate() {
        let alive = d.bool()?;
        let mut c = Contact::default();
        if alive {
            let key = decode_contact(d, &mut c, i, len, shapes, recycling)?;
            let ok = keys.push(key);
            debug_assert!(ok);
            // Bit 0 live, bit 1 a child, bits 2..26 its parent, bits 26.. shape B.
            *word = 1 | (c.shape_b as u64) << 26;
            if c.child != NONE {
                *word |= 2 | (c.parent as u64) << 2;
            }
        }
        if commit {
            put_slot(contacts, i, c);
        }
    }
    keys.sort_unstable();
    for k in 1..keys.len() {
        check(keys[k] != keys[k - 1], "two contacts for one shape pair")?;
    }
    for &w in info[..len].iter() {
        if w & 3 == 3 {
            let p = ((w >> 2) & 0xff_ffff) as usize;
            let pw = info[p];
            check(
                pw & 3 == 1 && (pw >> 26) & 0xff_ffff == (w >> 26) & 0xff_ffff,
                "a child contact whose parent is missing",
            )?;
        }
    }
    decode_free_list(d, &mut info[..len], commit, free)?;
    if commit {
        contacts.truncate(len);
    }
    Ok(len)
}

/// A live contact's fields (slot `i` of `len`); returns its pair key.
fn decode_contact(
    d: &mut Dec,
    c: &mut Contact,
    i: usize,
    len: usize,
    shapes: &[u64],
    recycling: bool,
) -> Result<u64> {
    c.alive = true;
    c.shape_a = d.u32()?;
    c.shape_b = d.u32()?;
    let (sa, sb) = (c.shape_a as usize, c.shape_b as usize);
    check(
        crate::snapshot::is_live(shapes, c.shape_a) && crate::snapshot::is_live(shapes, c.shape_b),
        "contact on a missing shape",
    )?;
    let (ka, kb) = ((shapes[sa] >> 1) & 0x7f, (shapes[sb] >> 1) & 0x7f);
    c.body_a = (shapes[sa] >> 8) as u32;
    c.body_b = (shapes[sb] >> 8) as u32;
    check(c.body_a != c.body_b, "contact between shapes of one body")?;
    c.child = d.u32()?;
    c.parent = d.u32()?;
    // Shape A has the higher kind, or the lower slot for equal kinds.
    check(
        ka > kb || (ka == kb && sa < sb),
        "contact shapes in the wrong order",
    )?;
    let key = if c.child == NONE {
        check(c.parent == NONE, "a contact with a parent but no child")?;
        pair_key(c.shape_a, c.shape_b)
    } else {
        check(
            ka == ShapeGeometry::Mesh(0).kind() as u64
                && (c.parent as usize) < len
                && c.parent as usize != i,
            "a child contact without a mesh parent",
        )?;
        child_key(c.parent, c.child)
    };
    let bits = if recycling { d.u8()? } else { d.bool()? as u8 };
    check(bits <= 3, "unknown contact flags")?;
    if bits & 1 != 0 {
        c.flags |= CONTACT_TOUCHING;
    }
    c.normal = d.vec3()?;
    let n = d.u8()? as usize;
    check(n <= 4, "more than four manifold points")?;
    c.point_count = n as u8;
    for p in &mut c.points[..n] {
        *p = ContactPoint {
            anchor_a: d.vec3()?,
            anchor_b: d.vec3()?,
            separation: d.f32()?,
            normal_impulse: d.f32()?,
            tangent_impulse: d.vec3()?,
            max_normal_impulse: 0.0,
            id: d.u32()?,
            base_separation: 0.0,
        };
        p.base_separation = p.separation;
    }
    c.rolling_impulse = d.vec3()?;
    c.cache = SatCache {
        kind: d.u8()?,
        index_a: d.u16()?,
        index_b: d.u16()?,
        separation_bits: d.u32()?,
    };
    check(c.cache.kind <= 3, "unknown SAT cache kind")?;
    if bits & 2 != 0 {
        // Unit rotations (within what renormalising leaves).
        let unit = |q: Quat| q.is_normalized(1.0e-3);
        let r = Recycle {
            rotation_a: d.quat()?,
            rotation_b: d.quat()?,
            center: d.vec3()?,
            rotation: d.quat()?,
        };
        check(
            unit(r.rotation_a) && unit(r.rotation_b) && unit(r.rotation),
            "a contact's recycling poses are not rotations",
        )?;
        c.recycle = r;
        c.flags |= CONTACT_RECYCLABLE;
        for p in &mut c.points[..n] {
            p.base_separation = d.f32()?;
        }
    }
    Ok(key)
}

/// After the bodies' lists are cleared: the pair set, each live contact's event flag and
/// body edges, and the count of touching children on each mesh parent. Returns how many
/// contacts live.
pub(crate) fn rebuild_contacts(w: &mut World) -> u32 {
    let mut count = 0;
    w.contacts.pair_set.clear();
    for c in 0..w.contacts.len() {
        if !w.contacts[c].alive {
            continue;
        }
        count += 1;
        let (sa, sb) = (w.contacts[c].shape_a, w.contacts[c].shape_b);
        let events = w.shapes[sa as usize].enable_contact_events
            || w.shapes[sb as usize].enable_contact_events;
        let contact = &mut w.contacts[c];
        if events {
            contact.flags |= CONTACT_EVENTS;
        }
        contact.edges = [ContactEdge {
            body: NONE,
            prev: NONE,
            next: NONE,
        }; 2];
        contact.child_touching = 0;
        let key = if contact.child == NONE {
            pair_key(sa, sb)
        } else {
            child_key(contact.parent, contact.child)
        };
        w.contacts.pair_set.insert(key, c as u32);
        w.link_contact(c as u32);
    }
    // Children never report their own events: their parent does, from how many of them
    // touch.
    for c in 0..w.contacts.len() {
        let contact = &w.contacts[c];
        if contact.alive && contact.child != NONE {
            let (p, touching) = (contact.parent, contact.flags & CONTACT_TOUCHING != 0);
            w.contacts[c].flags &= !CONTACT_EVENTS;
            if touching {
                w.contacts[p as usize].child_touching += 1;
            }
        }
    }
    count
}
