//! The soft body pool's part of the state encoding: encode, decode, rebuild.
//!
//! Each live slot: settings, filter, the bodies it ignores (only in a state where some
//! soft body ignores one: see `crate::snapshot`'s stores byte), particle and
//! triangle counts, the rest vertices and triangles (content), then each particle's
//! position, velocity, pin and attachment. Nothing derived (ranges, constraints, colours,
//! masses, anchors) is encoded.

use crate::body::NONE;
use crate::codec::{Dec, Enc, Sink};
use crate::error::{Error, Result};
use crate::field::Field;
use crate::shape::Filter;
use crate::soft::build::{count_edges, push_edges};
use crate::soft::{Particle, SOFT_BODY_EXCEPTIONS, SoftBody, SoftBodySettings, check_settings};
use crate::store::pool::{decode_slots, encode_slots};
use crate::store::soft::SoftStore;

fn check(ok: bool, what: &'static str) -> Result<()> {
    if ok { Ok(()) } else { Err(Error::Format(what)) }
}

/// Whether any soft body ignores a body: only then does the state hold the lists, so a
/// world that never set one encodes (and hashes) as before they existed.
pub(crate) fn has_exceptions(store: &SoftStore) -> bool {
    store.pool.iter().any(|b| b.alive && b.ignored_count > 0)
}

/// Every soft body slot (a live one's settings, ignored bodies when `exceptions`, content
/// and particles), then the free list.
pub(crate) fn encode<S: Sink>(e: &mut Enc<S>, store: &SoftStore, exceptions: bool) {
    encode_slots(e, &store.pool, &store.pool.free, |e, b| {
        SoftBodySettings::put(&b.settings, e);
        Filter::put(b.filter, e);
        if exceptions {
            e.u8(b.ignored_count as u8);
            for &s in b.ignored() {
                e.u32(s);
            }
        }
        e.u32(b.particle_count);
        e.u32(b.triangle_count);
        let p = b.first_particle as usize..(b.first_particle + b.particle_count) as usize;
        let t = b.first_triangle as usize..(b.first_triangle + b.triangle_count) as usize;
        for v in &store.rest[p.clone()] {
            e.vec3(*v);
        }
        for tri in &store.triangles[t] {
            for &i in tri {
                e.u32(i);
            }
        }
        for q in &store.particles[p] {
            e.dvec3(q.position);
            e.vec3(q.velocity);
            e.bool(q.pinned);
            e.u32(q.body);
            e.vec3(q.local);
        }
    });
}

/// Reads what `encode` wrote (checked: settings, ignored bodies live, ascending and at
/// least one when `exceptions`, mesh, particles within range, attached bodies live,
/// everything within this world's arrays) into the store on commit; returns the slot
/// count. `bodies`: the bodies' slot words (see `decode_bodies`).
pub(crate) fn decode(
    d: &mut Dec,
    commit: bool,
    store: &mut SoftStore,
    info: &mut [u64],
    bodies: &[u64],
    exceptions: bool,
) -> Result<SoftCounts> {
    if commit {
        store.particles.clear();
        store.rest.clear();
        store.triangles.clear();
    }
    let (mut particles, mut triangles, mut edges, mut bends) = (0usize, 0usize, 0usize, 0usize);
    let SoftStore {
        pool,
        particles: ps,
        rest,
        triangles: ts,
        build,
        edges: edge_list,
        bends: bend_list,
        ..
    } = store;
    let (particle_room, triangle_room) = (ps.capacity(), ts.capacity());
    let (edge_room, bend_room) = (edge_list.capacity(), bend_list.capacity());
    let mut any_ignored = false;
    let n = decode_slots(
        d,
        commit,
        pool.slots_and_free(),
        info,
        "soft_body_capacity",
        |generation| SoftBody {
            generation,
            ..Default::default()
        },
        |d, b| {
            b.settings = SoftBodySettings::get(d, 0)?;
            check_settings(&b.settings)
                .map_err(|_| Error::Format("soft body settings out of range"))?;
            b.filter = Filter::get(d, 0)?;
            if exceptions {
                decode_ignored(d, b, bodies)?;
                any_ignored |= b.ignored_count > 0;
            }
            b.particle_count = d.u32()?;
            b.triangle_count = d.u32()?;
            let (n, nt) = (b.particle_count as usize, b.triangle_count as usize);
            check(
                n > 0 && nt > 0,
                "a soft body without particles or triangles",
            )?;
            particles += n;
            triangles += nt;
            crate::error::check_fits(
                "soft_particle_capacity",
                particles as u64,
                particle_room as u64,
            )?;
            crate::error::check_fits(
                "soft_particle_capacity (triangles)",
                triangles as u64,
                triangle_room as u64,
            )?;
            for _ in 0..n {
                let v = d.vec3()?;
                crate::limits::check_vec_abs("soft vertex", v, 1.0e5, "")
                    .map_err(|_| Error::Format("a soft body's rest vertex is out of range"))?;
                if commit {
                    let ok = rest.push(v);
                    debug_assert!(ok);
                }
            }
            build.clear();
            for _ in 0..nt {
                let t = [d.u32()?, d.u32()?, d.u32()?];
                check(
                    t.iter().all(|&i| (i as usize) < n)
                        && t[0] != t[1]
                        && t[1] != t[2]
                        && t[0] != t[2],
                    "a soft body's triangle is not three of its vertices",
                )?;
                push_edges(build, t);
                if commit {
                    let ok = ts.push(t);
                    debug_assert!(ok);
                }
            }
            let (e, bn) = count_edges(build);
            edges += e;
            bends += bn;
            crate::error::check_fits(
                "soft_particle_capacity (edges)",
                edges as u64,
                edge_room as u64,
            )?;
            crate::error::check_fits(
                "soft_particle_capacity (bends)",
                bends as u64,
                bend_room as u64,
            )?;
            for _ in 0..n {
                let q = Particle {
                    position: d.dvec3()?,
                    velocity: d.vec3()?,
                    pinned: d.bool()?,
                    body: d.u32()?,
                    local: d.vec3()?,
                };
                crate::error::check_world_point(
                    "particle",
                    q.position,
                    crate::math::POSITION_LIMIT,
                )
                .map_err(|_| Error::Format("a particle's position is out of range"))?;
                crate::limits::check_vec_abs(
                    "particle",
                    q.velocity,
                    crate::limits::MAX_VELOCITY,
                    "",
                )
                .map_err(|_| Error::Format("a particle's velocity is out of range"))?;
                crate::limits::check_vec_abs("particle", q.local, 1.0e6, "")
                    .map_err(|_| Error::Format("a particle's attachment point is out of range"))?;
                check(
                    q.body == NONE || crate::snapshot::is_live(bodies, q.body),
                    "a particle is attached to no live body",
                )?;
                check(
                    !q.pinned || q.velocity == crate::math::Vec3::ZERO,
                    "a pinned particle moves",
                )?;
                if commit {
                    let ok = ps.push(q);
                    debug_assert!(ok);
                }
            }
            b.alive = true;
            Ok(())
        },
    )?;
    // A state holds the lists only when one is not empty (`has_exceptions`).
    check(
        !exceptions || any_ignored,
        "the soft bodies' ignored bodies are marked but none is",
    )?;
    Ok(SoftCounts {
        slots: n,
        particles,
        triangles,
        edges,
        bends,
    })
}

/// What a decoded soft body store holds: its slots, and the particles, triangles, edges
/// and bends of all its soft bodies.
pub(crate) struct SoftCounts {
    pub(crate) slots: usize,
    pub(crate) particles: usize,
    pub(crate) triangles: usize,
    pub(crate) edges: usize,
    pub(crate) bends: usize,
}

impl SoftCounts {
    /// Whether a world made with `soft_particle_capacity = capacity` holds them (the
    /// arrays `SoftStore::new` reserves from it).
    pub(crate) fn fit(&self, capacity: usize) -> bool {
        use super::{EDGES_PER_PARTICLE, TRIANGLES_PER_PARTICLE};
        self.particles <= capacity
            && self.triangles <= capacity * TRIANGLES_PER_PARTICLE
            && self.edges <= capacity * EDGES_PER_PARTICLE
            && self.bends <= capacity * EDGES_PER_PARTICLE
    }
}

/// Reads a soft body's ignored bodies (checked: at most `SOFT_BODY_EXCEPTIONS`, each a
/// live body, ascending).
fn decode_ignored(d: &mut Dec, b: &mut SoftBody, bodies: &[u64]) -> Result<()> {
    let n = d.u8()? as usize;
    check(
        n <= SOFT_BODY_EXCEPTIONS,
        "a soft body ignores more than SOFT_BODY_EXCEPTIONS bodies",
    )?;
    for k in 0..n {
        let s = d.u32()?;
        check(
            crate::snapshot::is_live(bodies, s),
            "a soft body ignores no live body",
        )?;
        check(
            k == 0 || b.ignored[k - 1] < s,
            "a soft body's ignored bodies are not in ascending order",
        )?;
        b.ignored[k] = s;
    }
    b.ignored_count = n as u32;
    Ok(())
}

/// After the bodies are rebuilt: the soft bodies' ranges and derived data. Returns how
/// many live.
pub(crate) fn rebuild(w: &mut crate::world::World) -> u32 {
    w.soft.rebuild();
    w.soft.pool.iter().filter(|b| b.alive).count() as u32
}
