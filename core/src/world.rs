//! The world: the composition of the stores (`store/`), the broad phase, the solver's
//! scratch and the awake set; its settings and ids. The step's stages live in `step.rs`
//! and the subsystems' files.

use crate::alloc::{FixedVec, WorldAlloc};
use crate::body::BodyType;
use crate::broad_phase::BroadPhase;
use crate::counters::Counters;
use crate::def::{WorldDef, check_def};
use crate::error::{Error, Result};
use crate::events::{BodyMoveEvent, ContactEvent, ContactHitEvent};
use crate::id::{BodyId, HullId, ShapeId};
use crate::limits::{MAX_GRAVITY, check_vec_abs};
use crate::math::{DVec3, GRID_STEP, POSITION_LIMIT, Vec3};
use crate::profile::Profile;
use crate::shape::Shape;
use crate::solver::awake::AwakeSet;
use crate::solver::{SolverLanes, SolverScratch};
use crate::store::bodies::BodyStore;
use crate::store::characters::CharacterStore;
use crate::store::contacts::ContactStore;
use crate::store::content::ContentStore;
use crate::store::joints::JointStore;
use crate::store::pool::Pool;
use crate::store::presolve::PreSolveStore;
use crate::store::sensors::SensorStore;
use crate::store::soft::SoftStore;
use crate::store::vehicles::VehicleStore;
use crate::store::water::WaterStore;
use crate::task::Tasks;
use core::sync::atomic::{AtomicU32, Ordering};

/// Process-wide source of world tags, so ids from one world are refused by another.
/// Only ids carry the tag: it never enters a computation, the hash or a snapshot.
static NEXT_WORLD_TAG: AtomicU32 = AtomicU32::new(1);

/// Solver constants, Box2D v3's values in metres.
pub(crate) const LINEAR_SLOP: f32 = 0.005;
/// Contacts are kept up to this far apart, so fast approaches are caught in time.
pub(crate) const SPECULATIVE_DISTANCE: f32 = 4.0 * LINEAR_SLOP;
/// Enlarged bounds grow by this much, so resting shapes do not churn the broad phase:
/// the speculative distance and Box3D's margin for shapes of 0.4 m and more (0.05 m). At
/// 0.1 m the washer kept 53,600 contacts where Box3D keeps 43,000, a fifth of them
/// never touching; pairs begin 0.14 m apart now instead of 0.2 m. At least the
/// speculative distance, so every pair that close has its contact.
pub(crate) const AABB_MARGIN: f32 = SPECULATIVE_DISTANCE + 0.05;
/// Room the pre-step bounds check adds to a body's reach: the fat margin plus room for
/// rounding the grid positions and bounds outward.
pub(crate) const BOUNDS_SLACK: f64 = AABB_MARGIN as f64 + 1.0;
/// A body must stay slow this long before its island sleeps.
pub(crate) const TIME_TO_SLEEP: f32 = 0.5;

/// A physics world: the composition of its stores. All memory is taken at `new`; a step
/// never allocates.
pub struct World {
    pub(crate) tag: u32,
    pub(crate) def: WorldDef,
    pub(crate) alloc: WorldAlloc,
    /// The API layer's recorder (`crate::api`): the journal, if one was started (not
    /// state).
    pub(crate) recorder: crate::api::Recorder,
    /// State: steps taken.
    pub(crate) step_index: u64,
    /// State: world origin in 2^-32 units per axis.
    pub(crate) origin: [i64; 3],
    pub(crate) bodies: BodyStore,
    pub(crate) shapes: Pool<Shape>,
    pub(crate) content: ContentStore,
    pub(crate) contacts: ContactStore,
    pub(crate) joints: JointStore,
    pub(crate) sensors: SensorStore,
    pub(crate) characters: CharacterStore,
    pub(crate) vehicles: VehicleStore,
    pub(crate) water: WaterStore,
    pub(crate) soft: SoftStore,
    pub(crate) presolve: PreSolveStore,
    pub(crate) broad: BroadPhase,
    /// Scratch for restore: one word per slot of every pool (not state).
    pub(crate) restore_info: FixedVec<u64>,
    pub(crate) solver: SolverScratch,
    /// The moving bodies (derived: rebuilt from the bodies at restore).
    pub(crate) awake: AwakeSet,
    pub(crate) tasks: Tasks,
    pub(crate) counters: Counters,
    pub(crate) profile: Profile,
}

impl World {
    /// Creates a world, reserving all its memory through the def's allocator. A refused
    /// allocation is a capacity error, and everything taken so far is given back.
    pub fn new(def: &WorldDef) -> Result<World> {
        check_def(def)?;
        let alloc = match def.allocator {
            Some(h) => WorldAlloc::Host(h),
            None => WorldAlloc::Global,
        };
        let nb = def.body_capacity as usize;
        let ns = def.shape_capacity as usize;
        let nc = def.contact_capacity as usize;
        let nh = def.hull_capacity as usize;
        let nm = def.mesh_capacity as usize;
        let ne = def.event_capacity as usize;
        let nj = def.joint_capacity as usize;
        let nsp = def.sensor_capacity as usize;
        let nch = def.character_capacity as usize;
        let nv = def.vehicle_capacity as usize;
        let nw = def.water_capacity as usize;
        let nsb = def.soft_body_capacity as usize;
        // Each `?` drops what was made before it, freeing it through the same allocator.
        Ok(World {
            tag: NEXT_WORLD_TAG.fetch_add(1, Ordering::Relaxed),
            def: *def,
            alloc,
            recorder: None,
            step_index: 0,
            origin: [0; 3],
            bodies: BodyStore::new(nb, alloc)?,
            shapes: Pool::new(ns, alloc, "shape_capacity")?,
            content: ContentStore::new(nh, nm, alloc)?,
            contacts: ContactStore::new(nc, ne, alloc)?,
            joints: JointStore::new(nj, ne, alloc)?,
            sensors: SensorStore::new(nsp, ne, ns, alloc)?,
            characters: CharacterStore::new(nch, alloc)?,
            vehicles: VehicleStore::new(nv, alloc)?,
            water: WaterStore::new(nw, alloc)?,
            soft: SoftStore::new(nsb, def.soft_particle_capacity as usize, alloc)?,
            presolve: PreSolveStore::new(nc, alloc)?,
            broad: BroadPhase::new(ns, def.pair_capacity as usize, nc, alloc)?,
            restore_info: FixedVec::filled(
                nh + nm + nb + ns + nc + nj + nch + nv + nw + nsb,
                0u64,
                alloc,
                "body_capacity",
            )?,
            solver: SolverScratch::new(nb, nc, nsp, nj, alloc)?,
            awake: AwakeSet::new(nb, nc, alloc)?,
            // The most items of one stage: bodies, contacts, shapes, or the edges of one
            // colour of the soft bodies (three per particle at most).
            tasks: Tasks::new(
                def.task_hooks,
                nb.max(nc)
                    .max(ns)
                    .max(3 * def.soft_particle_capacity as usize),
                alloc,
            )?,
            counters: Counters::default(),
            profile: Profile::default(),
        })
    }

    /// The def this world was made with (settings as changed since).
    pub fn def(&self) -> &WorldDef {
        &self.def
    }

    /// The tag this world's ids carry, so that another world refuses them. Not state: it
    /// depends on how many worlds the process made before, and never enters a computation,
    /// the hash or a snapshot. Front ends that pass ids as their parts (the C ABI) use it
    /// to put an id back together.
    pub fn id_tag(&self) -> u32 {
        self.tag
    }

    /// Steps taken so far.
    pub fn step_count(&self) -> u64 {
        self.step_index
    }

    /// Gravity.
    pub fn gravity(&self) -> Vec3 {
        self.def.gravity
    }

    /// [`World::set_gravity`] without its record (the API layer, `crate::api`, records it).
    pub(crate) fn set_gravity_unrecorded(&mut self, gravity: Vec3) -> Result<()> {
        check_vec_abs(
            "gravity",
            gravity,
            MAX_GRAVITY,
            "finite and within ±1e5 (each component)",
        )?;
        self.def.gravity = gravity;
        Ok(())
    }

    /// The friction and restitution rules of contacts (see [`crate::CombineRule`]).
    pub fn combine_rules(&self) -> (crate::CombineRule, crate::CombineRule) {
        (self.def.friction_combine, self.def.restitution_combine)
    }

    /// [`World::set_combine_rules`] without its record (the API layer, `crate::api`,
    /// records it).
    pub(crate) fn set_combine_rules_unrecorded(
        &mut self,
        friction: crate::CombineRule,
        restitution: crate::CombineRule,
    ) {
        self.def.friction_combine = friction;
        self.def.restitution_combine = restitution;
    }

    /// [`World::enable_sleep`] without its record (the API layer, `crate::api`, records it).
    pub(crate) fn enable_sleep_unrecorded(&mut self, enable: bool) {
        self.def.enable_sleep = enable;
        if !enable {
            for i in 0..self.bodies.len() {
                let b = &mut self.bodies[i];
                if b.alive && b.body_type == BodyType::Dynamic && !b.awake {
                    b.awake = true;
                    b.sleep_time = 0.0;
                    self.sync_awake(i as u32);
                }
            }
        }
    }

    /// Solves every constraint one at a time instead of four at a time in each graph
    /// colour. The results are the same bits (that is what it exists to test); it is
    /// slower.
    #[doc(hidden)]
    pub fn set_solve_one_at_a_time(&mut self, one_at_a_time: bool) {
        self.solver.one_at_a_time = one_at_a_time;
    }

    /// Chooses the lanes the contact solver runs its colours in: `Auto` (the default) is
    /// the widest this CPU runs. Every path computes the same bits, so this changes speed
    /// only; it is not state (snapshots, hashes and journals ignore it). `Eight` on a CPU
    /// without AVX2 is refused with an argument error and nothing changes.
    pub fn set_solver_lanes(&mut self, lanes: SolverLanes) -> Result<()> {
        if lanes == SolverLanes::Eight && !SolverLanes::eight_available() {
            return Err(Error::Argument {
                name: "lanes",
                value: 8.0,
                expected: "a lane width this CPU runs (8 needs AVX2; 4 or scalar run anywhere)",
            });
        }
        self.solver.lanes = lanes.resolve();
        Ok(())
    }

    /// The lanes the contact solver runs in (never `Auto`: what it resolved to).
    pub fn solver_lanes(&self) -> SolverLanes {
        self.solver.lanes
    }

    /// Counters of the last step.
    pub fn counters(&self) -> Counters {
        let mut c = self.counters;
        c.body_count = self.bodies.count;
        c.shape_count = self.shapes.count;
        c.contact_count = self.contacts.count;
        c.hull_count = self.content.hulls.count;
        c.mesh_count = self.content.meshes.count;
        c.joint_count = self.joints.count;
        c.tree_height = self.broad.movable.height();
        c
    }

    /// Time per stage of the last step. The one output that differs between runs.
    pub fn profile(&self) -> Profile {
        self.profile
    }

    /// Contacts that began touching in the last step, in contact slot order.
    pub fn contact_begin_events(&self) -> &[ContactEvent] {
        &self.contacts.begin_events
    }

    /// Contacts that began touching in the last step with an approach faster than
    /// `hit_event_threshold` (shapes with hit events), in contact slot order.
    pub fn contact_hit_events(&self) -> &[ContactHitEvent] {
        &self.contacts.hit_events
    }

    /// Bodies the last step moved, in body slot order.
    pub fn body_move_events(&self) -> &[BodyMoveEvent] {
        &self.bodies.move_events
    }

    /// Contacts that stopped touching (or were removed) in the last step.
    pub fn contact_end_events(&self) -> &[ContactEvent] {
        &self.contacts.end_events
    }

    /// The world origin: a host coordinate is `origin + position`.
    pub fn origin(&self) -> DVec3 {
        DVec3::new(
            self.origin[0] as f64 * GRID_STEP,
            self.origin[1] as f64 * GRID_STEP,
            self.origin[2] as f64 * GRID_STEP,
        )
    }

    /// [`World::step`] without its record (the API layer, `crate::api`, records it).
    pub(crate) fn step_unrecorded(&mut self, dt: f32, substeps: u32) -> Result<()> {
        self.check_step(dt, substeps)?;
        self.run_step(dt, substeps);
        Ok(())
    }

    /// [`World::shift_origin`] without its record (the API layer, `crate::api`, records it).
    pub(crate) fn shift_origin_unrecorded(&mut self, offset: DVec3) -> Result<()> {
        let names = ["offset.x", "offset.y", "offset.z"];
        let mut units = [0i64; 3];
        for (i, name) in names.iter().enumerate() {
            let v = offset.get(i);
            if !v.is_finite() {
                return Err(Error::Argument {
                    name,
                    value: v,
                    expected: "finite",
                });
            }
            if v.abs() >= POSITION_LIMIT {
                return Err(Error::OutOfBounds {
                    name,
                    value: v,
                    bound: POSITION_LIMIT,
                });
            }
            if !crate::math::is_on_grid(v) {
                return Err(Error::Argument {
                    name,
                    value: v,
                    expected: "a multiple of 2^-32",
                });
            }
            units[i] = (v * crate::math::GRID_SCALE) as i64;
        }
        for b in self.bodies.iter().filter(|b| b.alive) {
            for i in 0..3 {
                let p = b.position.get(i) - offset.get(i);
                if p.abs() >= POSITION_LIMIT {
                    return Err(Error::OutOfBounds {
                        name: "shifted body position",
                        value: p,
                        bound: POSITION_LIMIT,
                    });
                }
            }
        }
        let points = (self.characters.iter().filter(|c| c.alive))
            .map(|c| ("shifted character position", c.position))
            .chain(
                (self.water.iter().filter(|v| v.alive))
                    .map(|v| ("shifted water center", v.def.center)),
            )
            .chain(
                (self.soft.particles.iter())
                    .map(|p| ("shifted soft particle position", p.position)),
            );
        for (name, point) in points {
            for i in 0..3 {
                let p = point.get(i) - offset.get(i);
                if p.abs() >= POSITION_LIMIT {
                    return Err(Error::OutOfBounds {
                        name,
                        value: p,
                        bound: POSITION_LIMIT,
                    });
                }
            }
        }
        for s in self.shapes.iter().filter(|s| s.alive) {
            let a = s.fat_aabb.shifted(offset);
            if a.lower.max_abs() >= POSITION_LIMIT || a.upper.max_abs() >= POSITION_LIMIT {
                return Err(Error::OutOfBounds {
                    name: "shifted shape bounds",
                    value: if a.lower.max_abs() > a.upper.max_abs() {
                        a.lower.max_abs()
                    } else {
                        a.upper.max_abs()
                    },
                    bound: POSITION_LIMIT,
                });
            }
        }
        for b in self.bodies.iter_mut().filter(|b| b.alive) {
            b.position = b.position - offset;
        }
        for s in self.shapes.iter_mut().filter(|s| s.alive) {
            s.fat_aabb = s.fat_aabb.shifted(offset);
        }
        for c in self.characters.iter_mut().filter(|c| c.alive) {
            c.position = c.position - offset;
        }
        for v in self.water.iter_mut().filter(|v| v.alive) {
            v.def.center = v.def.center - offset;
        }
        for p in self.soft.particles.iter_mut() {
            p.position = p.position - offset;
        }
        self.broad.shift(offset);
        for (o, u) in self.origin.iter_mut().zip(units) {
            *o += u;
        }
        self.awake.forget_rest_reach();
        Ok(())
    }

    // ---- ids ----

    pub(crate) fn body_slot(&self, id: BodyId) -> Result<usize> {
        self.bodies.slot(id, self.tag)
    }

    pub(crate) fn shape_slot(&self, id: ShapeId) -> Result<usize> {
        self.shapes.live_slot("shape", id.parts(), self.tag)
    }

    pub(crate) fn hull_slot(&self, id: HullId) -> Result<usize> {
        self.content.hull_slot(id, self.tag)
    }

    pub(crate) fn body_id(&self, slot: u32) -> BodyId {
        self.bodies.id(slot, self.tag)
    }

    pub(crate) fn shape_id(&self, slot: u32) -> ShapeId {
        ShapeId {
            index: slot + 1,
            generation: self.shapes[slot as usize].generation,
            world: self.tag,
        }
    }

    /// All live bodies, in slot order.
    pub fn body_ids(&self) -> impl Iterator<Item = BodyId> + '_ {
        self.bodies
            .iter()
            .enumerate()
            .filter(|(_, b)| b.alive)
            .map(|(i, _)| self.body_id(i as u32))
    }

    /// Memory the world took from its allocator, in bytes.
    pub fn memory_usage(&self) -> usize {
        self.bodies.memory_usage()
            + self.shapes.memory_usage()
            + self.content.memory_usage()
            + self.contacts.memory_usage()
            + self.joints.memory_usage()
            + self.sensors.memory_usage()
            + self.characters.memory_usage()
            + self.vehicles.memory_usage()
            + self.water.memory_usage()
            + self.soft.memory_usage()
            + self.broad.memory_usage()
            + self.restore_info.bytes()
            + self.presolve.memory_usage()
            + self.solver.memory_usage()
            + self.awake.memory_usage()
            + self.tasks.memory_usage()
    }
}
