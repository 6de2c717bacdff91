//! The soft body store: the soft body pool, and the arrays their particles, rest shapes and
//! triangles (state and content) and their constraints (derived) live in, each soft body's
//! range after the one before it in slot order. Every array is reserved at world creation
//! from `soft_particle_capacity`: particles and rest positions one per particle, triangles
//! two, edges and bends three (a closed mesh has fewer than three edges per vertex).

pub(crate) mod codec;

use crate::alloc::{FixedVec, WorldAlloc};
use crate::body::NONE;
use crate::error::{Error, Result};
use crate::math::{DAabb, Vec3};
use crate::soft::{Particle, SoftBody};
use crate::store::pool::{Pool, slotted};

slotted!(SoftBody);

/// Triangles per particle of capacity.
pub(crate) const TRIANGLES_PER_PARTICLE: usize = 2;
/// Edges (and bends) per particle of capacity.
pub(crate) const EDGES_PER_PARTICLE: usize = 3;

/// A distance constraint (derived): particles `a < b` (store indices), rest length, and
/// the colour it is solved in.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct Edge {
    pub(crate) a: u32,
    pub(crate) b: u32,
    pub(crate) rest: f32,
    pub(crate) colour: u32,
}

/// A dihedral bend (derived): the shared edge `p[0]`, `p[1]` and the two opposite
/// particles `p[2]`, `p[3]` (store indices), the rest angle, the colour.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct Bend {
    pub(crate) p: [u32; 4],
    pub(crate) rest: f32,
    pub(crate) colour: u32,
}

/// A contact plane a particle found this step (scratch): `normal · x ≥ offset` in the
/// soft body's local frame of the step, against `body` (or `NONE`), with the body's
/// velocity at the contact and the reaction impulse summed over the substeps.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Plane {
    pub(crate) normal: Vec3,
    pub(crate) offset: f32,
    pub(crate) body: u32,
    /// The body's inverse mass along the normal at the contact (0 unless dynamic).
    pub(crate) inv_mass: f32,
    pub(crate) velocity: Vec3,
    pub(crate) friction: f32,
    pub(crate) impulse: Vec3,
    /// The body the particle is attached to (or `NONE`), the attachment point in the
    /// local frame, the body's inverse mass there, the reaction summed.
    pub(crate) attach_body: u32,
    pub(crate) attach_target: Vec3,
    pub(crate) attach_inv_mass: f32,
    pub(crate) attach_impulse: Vec3,
}

impl Default for Plane {
    fn default() -> Plane {
        Plane {
            normal: Vec3::ZERO,
            offset: 0.0,
            body: NONE,
            inv_mass: 0.0,
            velocity: Vec3::ZERO,
            friction: 0.0,
            impulse: Vec3::ZERO,
            attach_body: NONE,
            attach_target: Vec3::ZERO,
            attach_inv_mass: 0.0,
            attach_impulse: Vec3::ZERO,
        }
    }
}

/// Soft bodies and their arrays.
pub(crate) struct SoftStore {
    pub(crate) pool: Pool<SoftBody>,
    /// State: every soft body's particles.
    pub(crate) particles: FixedVec<Particle>,
    /// Content: rest positions (the soft body's frame as created), one per particle.
    pub(crate) rest: FixedVec<Vec3>,
    /// Content: triangles, indices within their soft body.
    pub(crate) triangles: FixedVec<[u32; 3]>,
    /// Derived: constraints, each soft body's sorted by colour.
    pub(crate) edges: FixedVec<Edge>,
    pub(crate) bends: FixedVec<Bend>,
    /// Derived: each particle's inverse mass (0 pinned).
    pub(crate) inv_mass: FixedVec<f32>,
    /// Derived: each particle's long-range anchor (store index or `NONE`) and the longest
    /// distance it may be from it.
    pub(crate) anchors: FixedVec<(u32, f32)>,
    /// Scratch of the step: local positions, positions at the start of the substep,
    /// contact planes, colour marks and build lists, the candidate shapes, an order.
    pub(crate) x: FixedVec<Vec3>,
    pub(crate) prev: FixedVec<Vec3>,
    pub(crate) grad: FixedVec<Vec3>,
    pub(crate) planes: FixedVec<Plane>,
    pub(crate) marks: FixedVec<u32>,
    pub(crate) build: FixedVec<[u32; 4]>,
    pub(crate) shapes: FixedVec<u32>,
    pub(crate) order: FixedVec<u32>,
}
crate::store::store_derefs_to_pool!(SoftStore, SoftBody);

/// Candidate shapes one soft body keeps per step (more are counted and left out).
pub(crate) const SHAPES_PER_SOFT_BODY: usize = 256;

impl SoftStore {
    pub(crate) fn new(bodies: usize, particles: usize, alloc: WorldAlloc) -> Result<SoftStore> {
        let what = "soft_particle_capacity";
        let n = particles;
        Ok(SoftStore {
            pool: Pool::new(bodies, alloc, "soft_body_capacity")?,
            particles: FixedVec::with_capacity(n, alloc, what)?,
            rest: FixedVec::with_capacity(n, alloc, what)?,
            triangles: FixedVec::with_capacity(n * TRIANGLES_PER_PARTICLE, alloc, what)?,
            edges: FixedVec::with_capacity(n * EDGES_PER_PARTICLE, alloc, what)?,
            bends: FixedVec::with_capacity(n * EDGES_PER_PARTICLE, alloc, what)?,
            inv_mass: FixedVec::filled(n, 0.0, alloc, what)?,
            anchors: FixedVec::filled(n, (NONE, 0.0), alloc, what)?,
            x: FixedVec::filled(n, Vec3::ZERO, alloc, what)?,
            prev: FixedVec::filled(n, Vec3::ZERO, alloc, what)?,
            grad: FixedVec::filled(n, Vec3::ZERO, alloc, what)?,
            planes: FixedVec::filled(n, Plane::default(), alloc, what)?,
            marks: FixedVec::filled(n, 0, alloc, what)?,
            build: FixedVec::with_capacity(n * TRIANGLES_PER_PARTICLE * 3, alloc, what)?,
            shapes: FixedVec::with_capacity(
                if n > 0 { SHAPES_PER_SOFT_BODY } else { 0 },
                alloc,
                what,
            )?,
            order: FixedVec::filled(n * 2, 0, alloc, what)?,
        })
    }

    pub(crate) fn memory_usage(&self) -> usize {
        self.pool.memory_usage()
            + self.particles.bytes()
            + self.rest.bytes()
            + self.triangles.bytes()
            + self.edges.bytes()
            + self.bends.bytes()
            + self.inv_mass.bytes()
            + self.anchors.bytes()
            + self.x.bytes()
            + self.prev.bytes()
            + self.grad.bytes()
            + self.planes.bytes()
            + self.marks.bytes()
            + self.build.bytes()
            + self.shapes.bytes()
            + self.order.bytes()
    }

    /// Whether a mesh of `vertices` and `triangles` fits beside the soft bodies there are
    /// (and a slot is free).
    pub(crate) fn check_room(
        &self,
        vertices: usize,
        triangles: usize,
        capacity: u32,
    ) -> Result<()> {
        if self.pool.free.is_empty() && self.pool.len() >= capacity as usize {
            return Err(Error::Capacity {
                what: "soft_body_capacity",
                capacity: capacity as u64,
            });
        }
        let room = self.particles.capacity();
        if vertices > room - self.particles.len() {
            return Err(Error::Capacity {
                what: "soft_particle_capacity",
                capacity: room as u64,
            });
        }
        if triangles > self.triangles.capacity() - self.triangles.len() {
            return Err(Error::Capacity {
                what: "soft_particle_capacity (two triangles per particle)",
                capacity: self.triangles.capacity() as u64,
            });
        }
        // Edges: at most three per triangle; the exact count is known once they are
        // built, and a mesh with more than fit is refused there (see `build`).
        Ok(())
    }

    /// Where slot `slot`'s ranges start: after every live soft body in a lower slot.
    fn starts(&self, slot: usize) -> (usize, usize) {
        let (mut p, mut t) = (0, 0);
        for b in self.pool[..slot].iter().filter(|b| b.alive) {
            p += b.particle_count as usize;
            t += b.triangle_count as usize;
        }
        (p, t)
    }

    /// Puts a new soft body's content and particles (`particle(rest)`) at its place in
    /// the arrays (room checked).
    pub(crate) fn insert_content(
        &mut self,
        slot: usize,
        vertices: &[Vec3],
        triangles: &[[u32; 3]],
        particle: impl Fn(Vec3) -> Particle,
    ) {
        let (p, t) = self.starts(slot);
        for (k, v) in vertices.iter().enumerate() {
            let ok = self.particles.insert(p + k, particle(*v)) && self.rest.insert(p + k, *v);
            debug_assert!(ok);
        }
        for (k, tri) in triangles.iter().enumerate() {
            let ok = self.triangles.insert(t + k, *tri);
            debug_assert!(ok);
        }
    }

    /// Takes a soft body's content and particles out of the arrays.
    pub(crate) fn remove_content(&mut self, slot: usize) {
        let (p, t) = self.starts(slot);
        let b = self.pool[slot];
        for _ in 0..b.particle_count {
            self.particles.remove_ordered(p);
            self.rest.remove_ordered(p);
        }
        for _ in 0..b.triangle_count {
            self.triangles.remove_ordered(t);
        }
    }

    /// A particle's inverse mass (0 pinned).
    pub(crate) fn particle_inv_mass(&self, slot: usize, i: usize) -> f32 {
        let b = &self.pool[slot];
        if self.particles[i].pinned {
            0.0
        } else {
            b.particle_count as f32 / b.settings.mass
        }
    }

    /// The box around a soft body's particles, grown by their radius.
    pub(crate) fn bounds(&self, slot: usize) -> DAabb {
        let b = &self.pool[slot];
        let first = b.first_particle as usize;
        let ps = &self.particles[first..first + b.particle_count as usize];
        let mut lo = [f64::MAX; 3];
        let mut hi = [f64::MIN; 3];
        for p in ps {
            for i in 0..3 {
                let v = p.position.get(i);
                lo[i] = crate::math::min_f64(lo[i], v);
                hi[i] = crate::math::max_f64(hi[i], v);
            }
        }
        // On the grid, so the box moves exactly with a shift of the origin.
        let r = crate::math::ceil_to_grid(b.settings.particle_radius as f64);
        let lo = crate::math::DVec3::new(lo[0], lo[1], lo[2]);
        let hi = crate::math::DVec3::new(hi[0], hi[1], hi[2]);
        let grow = crate::math::DVec3::new(r, r, r);
        DAabb::new(lo - grow, hi + grow)
    }
}
