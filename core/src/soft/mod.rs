//! Soft bodies: cloth and volumes as particles joined by constraints, solved with XPBD
//! (extended position-based dynamics) in substeps of their own after the rigid step.
//!
//! A soft body is made from a triangle mesh: its vertices become particles, its edges
//! distance constraints, each edge two triangles share a dihedral bend constraint, and a
//! closed mesh (every edge shared by exactly two triangles) keeps its volume and may hold
//! gas at a pressure. Pinned particles stay where they are put (their inverse mass is 0);
//! a particle attached to a rigid body is pulled to a point of that body and pulls back
//! (two-way, so a flag pulls its pole); each free particle is kept within its rest
//! distance of the nearest pinned one (a long-range attachment, which stops a hanging
//! cloth from stretching under its own weight). Particles are spheres of the soft body's
//! particle radius and collide with every rigid shape kind, with friction, pushing dynamic
//! bodies back; self-collision (particle against particle) is optional.
//!
//! What is state: the mesh (rest positions and triangles: content, as a hull's points),
//! the settings and filter, and per particle its position (f64, on the 2^-32 grid, so a
//! shift of the origin moves it exactly), velocity, pin and attachment. What is rebuilt
//! from it and never state: the constraint lists, their colours, rest lengths and
//! angles, rest volume, inverse masses and long-range anchors (at create, on a pin change
//! and at restore), and every per-step scratch buffer.
//!
//! The step (`solve.rs`), per soft body in slot order: the particles go into a local `f32`
//! frame at the grid-rounded centre of their bounds; each finds its closest contact plane
//! among the rigid shapes near it (once per step, speculative within the distance it can
//! travel); then `substeps` times: gravity, damping, pressure and drag into the
//! velocities, positions predicted, then the constraints projected in a fixed order —
//! edges and bends colour by colour (no two constraints of a colour share a particle, so
//! the task hooks may spread a colour over threads and the bits stay those of one
//! thread), volume, long-range attachments, rigid attachments, self-collision, contact
//! planes with friction — and velocities taken from the moves. The reactions on dynamic
//! bodies (contacts and attachments) are summed per particle and applied after the
//! substeps, in particle order.

pub(crate) mod build;
pub(crate) mod encoding;
pub(crate) mod solve;

use crate::body::NONE;
use crate::error::{Error, Result};
use crate::id::{BodyId, SoftBodyId};
use crate::limits::{MAX_IMPULSE, MAX_SETTING, MAX_VELOCITY, check_vec_abs};
use crate::math::{DAabb, DVec3, Quat, Vec3};
use crate::shape::Filter;
use crate::world::World;

/// Most substeps a soft body takes per world step.
pub const MAX_SOFT_SUBSTEPS: u32 = 64;
/// Most rigid bodies one soft body ignores ([`World::set_soft_body_ignores_body`]): a
/// fixed list in its slot, so the step reads it without a lookup structure.
pub const SOFT_BODY_EXCEPTIONS: usize = 8;
/// Edge and bend colours solved in parallel; constraints that find no free colour among
/// them go to one more colour, solved in order on one thread.
pub(crate) const COLOURS: usize = 24;

/// How a soft body behaves: its mass, stiffness, volume, damping, collision.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SoftBodySettings {
    /// Total mass, kg, spread evenly over the particles (in [1e-6, 1e6]; default 1).
    pub mass: f32,
    /// Substeps per world step (1 to 64; default 8): the soft body's own `dt / substeps`.
    pub substeps: u32,
    /// Compliance of the edges (XPBD: the inverse of stiffness, m/N; 0 is rigid; in
    /// [0, 1e6]; default 0).
    pub edge_compliance: f32,
    /// Compliance of the dihedral bends, rad/(N·m) (in [0, 1e6]; default 1; at
    /// [`NO_BENDS`], 1e6, the bends are not solved at all, as Jolt's `EBendType::None`).
    /// Bends act on the angle between the two triangles of each inner edge.
    pub bend_compliance: f32,
    /// Compliance of the volume constraint of a closed mesh, m³/N (in [0, 1e6]; default 0).
    pub volume_compliance: f32,
    /// The volume a closed mesh keeps, as a multiple of its rest volume (in [0, 10];
    /// default 0: no volume constraint).
    pub volume_scale: f32,
    /// Gas in a closed mesh: n·R·T, Pa·m³ (in [0, 1e9]; default 0). The pressure is this
    /// over the current volume; it pushes each triangle along its outward normal.
    pub pressure: f32,
    /// Linear damping of the particles' velocities, 1/s (in [0, 1e3]; default 0.1).
    pub damping: f32,
    /// Aerodynamic drag: each triangle loses `drag · area · v_n` of force along its normal
    /// for a normal velocity `v_n`, N·s/m³ (in [0, 1e3]; default 0).
    pub drag: f32,
    /// Friction against rigid shapes (in [0, 1e3]; default 0.5).
    pub friction: f32,
    /// Radius of each particle's sphere for collision, m (in [1e-4, 10]; default 0.02).
    pub particle_radius: f32,
    /// Gravity scale (within ±1e3; default 1).
    pub gravity_scale: f32,
    /// How far a free particle may stretch away from its nearest pinned particle, as a
    /// multiple of their rest distance (in [1, 1e3]; default 1.1; 0 turns it off).
    pub long_range_stretch: f32,
    /// Whether particles collide with the other particles of the same soft body (those
    /// further apart at rest than four radii). Off by default.
    pub self_collision: bool,
}

/// The bend compliance at which a soft body's bends are not solved (the bound of
/// `bend_compliance`): a cloth without bending stiffness, at a third of the cost.
pub const NO_BENDS: f32 = 1.0e6;

impl Default for SoftBodySettings {
    fn default() -> SoftBodySettings {
        SoftBodySettings {
            mass: 1.0,
            substeps: 8,
            edge_compliance: 0.0,
            bend_compliance: 1.0,
            volume_compliance: 0.0,
            volume_scale: 0.0,
            pressure: 0.0,
            damping: 0.1,
            drag: 0.0,
            friction: 0.5,
            particle_radius: 0.02,
            gravity_scale: 1.0,
            long_range_stretch: 1.1,
            self_collision: false,
        }
    }
}

/// A soft body to create: its mesh in its own frame, where that frame is, its settings.
#[derive(Clone, Copy, Debug)]
pub struct SoftBodyDef<'a> {
    /// The rest shape: one particle per vertex (at most `soft_particle_capacity`), in the
    /// soft body's frame. Each component within ±1e5.
    pub vertices: &'a [Vec3],
    /// Triangles as vertex indices (each index below the vertex count, no index twice in
    /// one triangle). Their edges are the distance constraints; wind them consistently so
    /// a closed mesh's volume has one sign.
    pub triangles: &'a [[u32; 3]],
    /// Where the frame's origin is, relative to the world origin (within ±2^21).
    pub position: DVec3,
    /// The frame's rotation.
    pub rotation: Quat,
    /// Its settings.
    pub settings: SoftBodySettings,
    /// Which rigid shapes its particles collide with.
    pub filter: Filter,
}

impl Default for SoftBodyDef<'_> {
    fn default() -> Self {
        SoftBodyDef {
            vertices: &[],
            triangles: &[],
            position: DVec3::ZERO,
            rotation: Quat::IDENTITY,
            settings: SoftBodySettings::default(),
            filter: Filter::default(),
        }
    }
}

/// One soft body slot. Its particles, rest positions and triangles lie in the store's
/// arrays, the soft bodies' ranges one after another in slot order.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct SoftBody {
    pub(crate) alive: bool,
    pub(crate) generation: u32,
    /// State.
    pub(crate) settings: SoftBodySettings,
    /// State.
    pub(crate) filter: Filter,
    /// State: the body slots its particles do not collide with, the first
    /// `ignored_count`, in ascending order (the same set gives the same state whatever
    /// order it was built in). Each names a live body: destroying a body takes it off
    /// every list, so a body that later takes the slot is not ignored.
    pub(crate) ignored: [u32; SOFT_BODY_EXCEPTIONS],
    pub(crate) ignored_count: u32,
    /// Content: how many particles (vertices) and triangles.
    pub(crate) particle_count: u32,
    pub(crate) triangle_count: u32,
    /// Derived: where its particles and triangles start in the store's arrays.
    pub(crate) first_particle: u32,
    pub(crate) first_triangle: u32,
    /// Derived: its edges, `edge_colours[c]..edge_colours[c + 1]` colour `c` (absolute
    /// indices into the store's edges); the same for bends.
    pub(crate) edge_colours: [u32; COLOURS + 2],
    pub(crate) bend_colours: [u32; COLOURS + 2],
    /// Derived: whether every edge has exactly two triangles, and the rest volume.
    pub(crate) closed: bool,
    pub(crate) rest_volume: f32,
}

impl SoftBody {
    /// The body slots it ignores, ascending.
    pub(crate) fn ignored(&self) -> &[u32] {
        &self.ignored[..self.ignored_count as usize]
    }

    /// Whether its particles ignore body `slot`.
    pub(crate) fn ignores(&self, slot: u32) -> bool {
        self.ignored().contains(&slot)
    }
}

/// A particle's state.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct Particle {
    /// Relative to the world origin, on the 2^-32 grid.
    pub(crate) position: DVec3,
    pub(crate) velocity: Vec3,
    /// Held where it is: moved only by calls.
    pub(crate) pinned: bool,
    /// The body slot it is attached to, or `NONE`.
    pub(crate) body: u32,
    /// The attachment point in that body's frame.
    pub(crate) local: Vec3,
}

impl Particle {
    pub(crate) fn free(position: DVec3) -> Particle {
        Particle {
            position,
            velocity: Vec3::ZERO,
            pinned: false,
            body: NONE,
            local: Vec3::ZERO,
        }
    }
}

/// Checks every setting as every entry does.
pub(crate) fn check_settings(s: &SoftBodySettings) -> Result<()> {
    use crate::error::check_range;
    check_range(
        "soft mass",
        s.mass,
        crate::limits::MIN_MASS,
        1.0e6,
        "within [1e-6, 1e6] kg",
    )?;
    if !(1..=MAX_SOFT_SUBSTEPS).contains(&s.substeps) {
        return Err(Error::Argument {
            name: "soft substeps",
            value: s.substeps as f64,
            expected: "within [1, 64]",
        });
    }
    let c = "within [0, 1e6]";
    check_range(
        "soft edge_compliance",
        s.edge_compliance,
        0.0,
        MAX_SETTING,
        c,
    )?;
    check_range(
        "soft bend_compliance",
        s.bend_compliance,
        0.0,
        MAX_SETTING,
        c,
    )?;
    check_range(
        "soft volume_compliance",
        s.volume_compliance,
        0.0,
        MAX_SETTING,
        c,
    )?;
    check_range(
        "soft volume_scale",
        s.volume_scale,
        0.0,
        10.0,
        "within [0, 10]",
    )?;
    check_range("soft pressure", s.pressure, 0.0, 1.0e9, "within [0, 1e9]")?;
    check_range("soft damping", s.damping, 0.0, 1.0e3, "within [0, 1e3]")?;
    check_range("soft drag", s.drag, 0.0, 1.0e3, "within [0, 1e3]")?;
    check_range("soft friction", s.friction, 0.0, 1.0e3, "within [0, 1e3]")?;
    check_range(
        "soft particle_radius",
        s.particle_radius,
        1.0e-4,
        10.0,
        "within [1e-4, 10] m",
    )?;
    check_range(
        "soft gravity_scale",
        s.gravity_scale,
        -1.0e3,
        1.0e3,
        "within ±1e3",
    )?;
    if s.long_range_stretch != 0.0 {
        check_range(
            "soft long_range_stretch",
            s.long_range_stretch,
            1.0,
            1.0e3,
            "0 (off) or within [1, 1e3]",
        )?;
    }
    Ok(())
}

/// Checks a mesh: vertex count within `capacity` (and not 0), components within ±1e5,
/// indices in range and distinct per triangle, at least one triangle.
pub(crate) fn check_mesh(vertices: &[Vec3], triangles: &[[u32; 3]]) -> Result<()> {
    if vertices.is_empty() || triangles.is_empty() {
        return Err(Error::Argument {
            name: "soft body mesh",
            value: if vertices.is_empty() {
                0.0
            } else {
                triangles.len() as f64
            },
            expected: "at least one vertex and one triangle",
        });
    }
    for v in vertices {
        check_vec_abs(
            "soft vertex",
            *v,
            1.0e5,
            "finite and within ±1e5 (each component)",
        )?;
    }
    let n = vertices.len() as u32;
    for t in triangles {
        for &i in t {
            if i >= n {
                return Err(Error::Argument {
                    name: "soft triangle index",
                    value: i as f64,
                    expected: "below the vertex count",
                });
            }
        }
        if t[0] == t[1] || t[1] == t[2] || t[0] == t[2] {
            return Err(Error::Argument {
                name: "soft triangle index",
                value: t[0] as f64,
                expected: "three different vertices per triangle",
            });
        }
    }
    Ok(())
}

impl World {
    pub(crate) fn soft_slot(&self, id: SoftBodyId) -> Result<usize> {
        self.soft.pool.live_slot("soft body", id.parts(), self.tag)
    }

    pub(crate) fn soft_id(&self, slot: u32) -> SoftBodyId {
        SoftBodyId {
            index: slot + 1,
            generation: self.soft.pool[slot as usize].generation,
            world: self.tag,
        }
    }

    /// A live soft body's slot and particle index, checked.
    fn soft_particle(&self, id: SoftBodyId, index: u32) -> Result<(usize, usize)> {
        let slot = self.soft_slot(id)?;
        let b = &self.soft.pool[slot];
        if index >= b.particle_count {
            return Err(Error::Argument {
                name: "particle index",
                value: index as f64,
                expected: "below the soft body's particle count",
            });
        }
        Ok((slot, (b.first_particle + index) as usize))
    }

    /// [`World::create_soft_body`] without its record.
    pub(crate) fn create_soft_body_unrecorded(&mut self, def: &SoftBodyDef) -> Result<SoftBodyId> {
        check_settings(&def.settings)?;
        check_mesh(def.vertices, def.triangles)?;
        let position = crate::body::check_position("soft body position", def.position)?;
        let rotation = crate::error::check_rotation(
            "soft body rotation",
            "soft body rotation norm²",
            def.rotation,
        )?;
        self.soft.check_room(
            def.vertices.len(),
            def.triangles.len(),
            self.def.soft_body_capacity,
        )?;
        self.soft.check_constraint_room(def.triangles)?;
        // Every particle's place must be within the coordinate range.
        for v in def.vertices {
            let p = position + crate::math::round_vec_to_grid(rotation.rotate(*v));
            crate::error::check_world_point(
                "soft particle position",
                p,
                crate::math::POSITION_LIMIT,
            )?;
        }
        let slot = self
            .soft
            .pool
            .take(
                |x| x.generation,
                |g| SoftBody {
                    alive: true,
                    generation: g.wrapping_add(1).max(1),
                    settings: def.settings,
                    filter: def.filter,
                    particle_count: def.vertices.len() as u32,
                    triangle_count: def.triangles.len() as u32,
                    ..Default::default()
                },
            )
            .ok_or(Error::Capacity {
                what: "soft_body_capacity",
                capacity: self.def.soft_body_capacity as u64,
            })?;
        self.soft.pool.count += 1;
        self.soft
            .insert_content(slot as usize, def.vertices, def.triangles, |v| {
                Particle::free(position + crate::math::round_vec_to_grid(rotation.rotate(v)))
            });
        self.soft.rebuild();
        Ok(self.soft_id(slot))
    }

    /// [`World::destroy_soft_body`] without its record.
    pub(crate) fn destroy_soft_body_unrecorded(&mut self, id: SoftBodyId) -> Result<()> {
        let slot = self.soft_slot(id)?;
        self.soft.remove_content(slot);
        let generation = self.soft.pool[slot].generation;
        self.soft.pool[slot] = SoftBody {
            generation,
            ..Default::default()
        };
        let ok = self.soft.pool.free.push(slot as u32);
        debug_assert!(ok);
        self.soft.pool.count -= 1;
        self.soft.rebuild();
        Ok(())
    }

    /// [`World::set_soft_body_settings`] without its record.
    pub(crate) fn set_soft_body_settings_unrecorded(
        &mut self,
        id: SoftBodyId,
        settings: &SoftBodySettings,
    ) -> Result<()> {
        let slot = self.soft_slot(id)?;
        check_settings(settings)?;
        self.soft.pool[slot].settings = *settings;
        self.soft.rebuild_body(slot);
        Ok(())
    }

    /// [`World::set_soft_body_filter`] without its record.
    pub(crate) fn set_soft_body_filter_unrecorded(
        &mut self,
        id: SoftBodyId,
        filter: Filter,
    ) -> Result<()> {
        let slot = self.soft_slot(id)?;
        self.soft.pool[slot].filter = filter;
        Ok(())
    }

    /// [`World::set_soft_body_ignores_body`] without its record.
    pub(crate) fn set_soft_body_ignores_body_unrecorded(
        &mut self,
        id: SoftBodyId,
        body: BodyId,
        ignore: bool,
    ) -> Result<()> {
        let slot = self.soft_slot(id)?;
        let body = self.body_slot(body)? as u32;
        let b = &mut self.soft.pool[slot];
        let n = b.ignored_count as usize;
        match (b.ignored[..n].binary_search(&body), ignore) {
            (Ok(_), true) | (Err(_), false) => {}
            (Err(at), true) => {
                if n == SOFT_BODY_EXCEPTIONS {
                    return Err(Error::Capacity {
                        what: "SOFT_BODY_EXCEPTIONS (bodies one soft body ignores)",
                        capacity: SOFT_BODY_EXCEPTIONS as u64,
                    });
                }
                b.ignored.copy_within(at..n, at + 1);
                b.ignored[at] = body;
                b.ignored_count += 1;
            }
            (Ok(at), false) => {
                b.ignored.copy_within(at + 1..n, at);
                b.ignored[n - 1] = 0;
                b.ignored_count -= 1;
            }
        }
        Ok(())
    }

    /// Takes body `slot` off every soft body's ignore list (the body is being destroyed).
    pub(crate) fn forget_soft_ignored_body(&mut self, slot: u32) {
        for b in self.soft.pool.iter_mut().filter(|b| b.alive) {
            let n = b.ignored_count as usize;
            if let Ok(at) = b.ignored[..n].binary_search(&slot) {
                b.ignored.copy_within(at + 1..n, at);
                b.ignored[n - 1] = 0;
                b.ignored_count -= 1;
            }
        }
    }

    /// [`World::set_soft_particle_pinned`] without its record.
    pub(crate) fn set_soft_particle_pinned_unrecorded(
        &mut self,
        id: SoftBodyId,
        index: u32,
        pinned: bool,
    ) -> Result<()> {
        let (slot, i) = self.soft_particle(id, index)?;
        let p = &mut self.soft.particles[i];
        p.pinned = pinned;
        p.velocity = Vec3::ZERO;
        self.soft.rebuild_body(slot);
        Ok(())
    }

    /// [`World::set_soft_particle_position`] without its record.
    pub(crate) fn set_soft_particle_position_unrecorded(
        &mut self,
        id: SoftBodyId,
        index: u32,
        position: DVec3,
    ) -> Result<()> {
        let (_, i) = self.soft_particle(id, index)?;
        let position = crate::body::check_position("particle position", position)?;
        self.soft.particles[i].position = position;
        Ok(())
    }

    /// [`World::set_soft_particle_velocity`] without its record.
    pub(crate) fn set_soft_particle_velocity_unrecorded(
        &mut self,
        id: SoftBodyId,
        index: u32,
        velocity: Vec3,
    ) -> Result<()> {
        let (_, i) = self.soft_particle(id, index)?;
        check_vec_abs(
            "particle velocity",
            velocity,
            MAX_VELOCITY,
            "finite and within ±1e5 (each component)",
        )?;
        let p = &mut self.soft.particles[i];
        if !p.pinned {
            p.velocity = velocity;
        }
        Ok(())
    }

    /// [`World::apply_soft_particle_impulse`] without its record.
    pub(crate) fn apply_soft_particle_impulse_unrecorded(
        &mut self,
        id: SoftBodyId,
        index: u32,
        impulse: Vec3,
    ) -> Result<()> {
        let (slot, i) = self.soft_particle(id, index)?;
        check_vec_abs(
            "impulse",
            impulse,
            MAX_IMPULSE,
            "finite and within ±1e12 (each component)",
        )?;
        let w = self.soft.particle_inv_mass(slot, i);
        let p = &mut self.soft.particles[i];
        p.velocity = crate::limits::clamp_abs(p.velocity + impulse * w, MAX_VELOCITY);
        Ok(())
    }

    /// [`World::apply_soft_body_impulse`] without its record.
    pub(crate) fn apply_soft_body_impulse_unrecorded(
        &mut self,
        id: SoftBodyId,
        impulse: Vec3,
    ) -> Result<()> {
        let slot = self.soft_slot(id)?;
        check_vec_abs(
            "impulse",
            impulse,
            MAX_IMPULSE,
            "finite and within ±1e12 (each component)",
        )?;
        let b = self.soft.pool[slot];
        let dv = impulse * (1.0 / b.settings.mass);
        let range = b.first_particle as usize..(b.first_particle + b.particle_count) as usize;
        for p in &mut self.soft.particles[range] {
            if !p.pinned {
                p.velocity = crate::limits::clamp_abs(p.velocity + dv, MAX_VELOCITY);
            }
        }
        Ok(())
    }

    /// [`World::set_soft_body_transform`] without its record.
    pub(crate) fn set_soft_body_transform_unrecorded(
        &mut self,
        id: SoftBodyId,
        position: DVec3,
        rotation: Quat,
    ) -> Result<()> {
        let slot = self.soft_slot(id)?;
        let position = crate::body::check_position("soft body position", position)?;
        let rotation = crate::error::check_rotation(
            "soft body rotation",
            "soft body rotation norm²",
            rotation,
        )?;
        let b = self.soft.pool[slot];
        let range = b.first_particle as usize..(b.first_particle + b.particle_count) as usize;
        for i in range.clone() {
            let p = position + crate::math::round_vec_to_grid(rotation.rotate(self.soft.rest[i]));
            crate::error::check_world_point(
                "soft particle position",
                p,
                crate::math::POSITION_LIMIT,
            )?;
        }
        for i in range {
            let p = &mut self.soft.particles[i];
            p.position =
                position + crate::math::round_vec_to_grid(rotation.rotate(self.soft.rest[i]));
            p.velocity = Vec3::ZERO;
        }
        Ok(())
    }

    /// [`World::attach_soft_particle`] without its record.
    pub(crate) fn attach_soft_particle_unrecorded(
        &mut self,
        id: SoftBodyId,
        index: u32,
        body: Option<BodyId>,
        local_point: Vec3,
    ) -> Result<()> {
        let (slot, i) = self.soft_particle(id, index)?;
        let body_slot = match body {
            Some(b) => self.body_slot(b)? as u32,
            None => NONE,
        };
        check_vec_abs(
            "local_point",
            local_point,
            1.0e6,
            "finite and within ±1e6 (each component)",
        )?;
        let p = &mut self.soft.particles[i];
        p.body = body_slot;
        p.local = if body_slot == NONE {
            Vec3::ZERO
        } else {
            local_point
        };
        self.soft.rebuild_body(slot);
        Ok(())
    }

    /// Detaches every particle attached to body `slot` (the body is being destroyed).
    pub(crate) fn detach_soft_particles_from(&mut self, slot: u32) {
        let mut touched = false;
        for p in self.soft.particles.iter_mut() {
            if p.body == slot {
                p.body = NONE;
                p.local = Vec3::ZERO;
                touched = true;
            }
        }
        if touched {
            self.soft.rebuild();
        }
    }

    /// All live soft bodies, in slot order.
    pub fn soft_body_ids(&self) -> impl Iterator<Item = SoftBodyId> + '_ {
        (0..self.soft.pool.len() as u32)
            .filter(|&s| self.soft.pool[s as usize].alive)
            .map(|s| self.soft_id(s))
    }

    /// A soft body's settings.
    pub fn soft_body_settings(&self, id: SoftBodyId) -> Result<SoftBodySettings> {
        Ok(self.soft.pool[self.soft_slot(id)?].settings)
    }

    /// A soft body's collision filter.
    pub fn soft_body_filter(&self, id: SoftBodyId) -> Result<Filter> {
        Ok(self.soft.pool[self.soft_slot(id)?].filter)
    }

    /// The rigid bodies a soft body's particles ignore, in slot order, into `out` as many
    /// as fit; returns how many it ignores (at most [`SOFT_BODY_EXCEPTIONS`]).
    pub fn soft_body_ignored_bodies(&self, id: SoftBodyId, out: &mut [BodyId]) -> Result<u32> {
        let b = &self.soft.pool[self.soft_slot(id)?];
        for (o, &s) in out.iter_mut().zip(b.ignored()) {
            *o = self.body_id(s);
        }
        Ok(b.ignored_count)
    }

    /// How many particles (vertices) a soft body has.
    pub fn soft_body_particle_count(&self, id: SoftBodyId) -> Result<u32> {
        Ok(self.soft.pool[self.soft_slot(id)?].particle_count)
    }

    /// A particle's position, relative to the world origin.
    pub fn soft_particle_position(&self, id: SoftBodyId, index: u32) -> Result<DVec3> {
        let (_, i) = self.soft_particle(id, index)?;
        Ok(self.soft.particles[i].position)
    }

    /// A particle's velocity, m/s.
    pub fn soft_particle_velocity(&self, id: SoftBodyId, index: u32) -> Result<Vec3> {
        let (_, i) = self.soft_particle(id, index)?;
        Ok(self.soft.particles[i].velocity)
    }

    /// Whether a particle is pinned.
    pub fn soft_particle_pinned(&self, id: SoftBodyId, index: u32) -> Result<bool> {
        let (_, i) = self.soft_particle(id, index)?;
        Ok(self.soft.particles[i].pinned)
    }

    /// The body a particle is attached to (and the point in its frame), if any.
    pub fn soft_particle_attachment(
        &self,
        id: SoftBodyId,
        index: u32,
    ) -> Result<Option<(BodyId, Vec3)>> {
        let (_, i) = self.soft_particle(id, index)?;
        let p = self.soft.particles[i];
        Ok((p.body != NONE).then(|| (self.body_id(p.body), p.local)))
    }

    /// Writes the positions of a soft body's particles (relative to the world origin) into
    /// `out`, as many as fit; returns the particle count.
    pub fn soft_body_positions(&self, id: SoftBodyId, out: &mut [DVec3]) -> Result<u32> {
        let b = &self.soft.pool[self.soft_slot(id)?];
        let first = b.first_particle as usize;
        for (o, p) in out
            .iter_mut()
            .zip(&self.soft.particles[first..first + b.particle_count as usize])
        {
            *o = p.position;
        }
        Ok(b.particle_count)
    }

    /// Writes the positions of a soft body's particles relative to `origin` (which must be
    /// within ±2^22) as `f32` into `out`, as many as fit; returns the particle count. The
    /// form a renderer wants: the mesh's vertices around a node's position.
    pub fn soft_body_positions_from(
        &self,
        id: SoftBodyId,
        origin: DVec3,
        out: &mut [Vec3],
    ) -> Result<u32> {
        crate::error::check_world_point("origin", origin, crate::math::POSITION_LIMIT)?;
        let b = &self.soft.pool[self.soft_slot(id)?];
        let first = b.first_particle as usize;
        for (o, p) in out
            .iter_mut()
            .zip(&self.soft.particles[first..first + b.particle_count as usize])
        {
            *o = (p.position - origin).to_f32();
        }
        Ok(b.particle_count)
    }

    /// A soft body's rest shape: its vertices (as created) and triangles, as many as fit
    /// in each buffer; returns the counts.
    pub fn soft_body_mesh(
        &self,
        id: SoftBodyId,
        vertices: &mut [Vec3],
        triangles: &mut [[u32; 3]],
    ) -> Result<(u32, u32)> {
        let b = &self.soft.pool[self.soft_slot(id)?];
        let (fp, np) = (b.first_particle as usize, b.particle_count as usize);
        let (ft, nt) = (b.first_triangle as usize, b.triangle_count as usize);
        for (o, v) in vertices.iter_mut().zip(&self.soft.rest[fp..fp + np]) {
            *o = *v;
        }
        for (o, t) in triangles.iter_mut().zip(&self.soft.triangles[ft..ft + nt]) {
            *o = *t;
        }
        Ok((b.particle_count, b.triangle_count))
    }

    /// The box around a soft body's particles (grown by their radius).
    pub fn soft_body_bounds(&self, id: SoftBodyId) -> Result<DAabb> {
        let slot = self.soft_slot(id)?;
        Ok(self.soft.bounds(slot))
    }

    /// The volume a soft body's closed mesh encloses now, m³ (0 for an open mesh).
    pub fn soft_body_volume(&self, id: SoftBodyId) -> Result<f32> {
        let slot = self.soft_slot(id)?;
        let b = &self.soft.pool[slot];
        if !b.closed {
            return Ok(0.0);
        }
        let first = b.first_particle as usize;
        let origin = self.soft.particles[first].position;
        let ft = b.first_triangle as usize;
        let mut v = 0.0f32;
        for t in &self.soft.triangles[ft..ft + b.triangle_count as usize] {
            let x = |k: u32| (self.soft.particles[first + k as usize].position - origin).to_f32();
            v += x(t[0]).cross(x(t[1])).dot(x(t[2]));
        }
        Ok(crate::math::abs(v * (1.0 / 6.0)))
    }

    /// The closest plane each particle found in the last step: `(body, normal)` per
    /// particle with a contact, else `None`, into `out` as many as fit; returns the count.
    /// For tests and debug drawing.
    pub fn soft_particle_contacts(
        &self,
        id: SoftBodyId,
        out: &mut [Option<(BodyId, Vec3)>],
    ) -> Result<u32> {
        let b = &self.soft.pool[self.soft_slot(id)?];
        let first = b.first_particle as usize;
        for (k, o) in out.iter_mut().enumerate().take(b.particle_count as usize) {
            let pl = self.soft.planes[first + k];
            *o = (pl.body != NONE && self.bodies.get(pl.body as usize).is_some_and(|x| x.alive))
                .then(|| (self.body_id(pl.body), pl.normal));
        }
        Ok(b.particle_count)
    }
}
