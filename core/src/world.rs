//! The world: every pool, the step, and the calls that read and change it.

use crate::alloc::{FixedVec, HostAllocator, WorldAlloc};
use crate::body::{Body, BodyType};
use crate::broad_phase::BroadPhase;
use crate::broad_phase::pair_set::PairSet;
use crate::contact::Contact;
use crate::content::MeshSlot;
use crate::error::{Error, Result};
use crate::events::{BodyMoveEvent, ContactHitEvent};
use crate::id::{BodyId, HullId, ShapeId};
use crate::joint::{Joint, JointBreakEvent};
use crate::limits::{MAX_GRAVITY, MAX_SETTING, check_nonneg, check_vec_abs};
use crate::math::{DVec3, GRID_STEP, POSITION_LIMIT, Vec3};
use crate::profile::{Profile, Timer};
use crate::shape::{HullSlot, Shape};
use crate::solver::SolverScratch;
use crate::solver::awake::AwakeSet;
use crate::task::{TaskHooks, Tasks};
use core::sync::atomic::{AtomicU32, Ordering};

/// Everything needed to create a world: settings and the capacities that fix its memory.
/// Change the fields you need and keep `..Default::default()` for the rest.
#[derive(Clone, Copy, Debug)]
pub struct WorldDef {
    /// Gravity, m/s².
    pub gravity: Vec3,
    /// Approach speed above which restitution applies, m/s (default 1).
    pub restitution_threshold: f32,
    /// Contact stiffness, Hz (default 30; capped at a quarter of the substep rate).
    pub contact_hertz: f32,
    /// Contact damping ratio (default 10).
    pub contact_damping_ratio: f32,
    /// Fastest speed at which overlapping shapes are pushed apart, m/s (default 3).
    pub contact_push_max_speed: f32,
    /// Damping ratio of rigid joint rows (default 2); their stiffness is twice the contact
    /// hertz, as Box2D v3's joint softness.
    pub joint_damping_ratio: f32,
    /// Speed limit of any body, m/s (default 400).
    pub max_linear_speed: f32,
    /// Whether bodies may sleep.
    pub enable_sleep: bool,
    /// Most bodies alive at once.
    pub body_capacity: u32,
    /// Most shapes alive at once.
    pub shape_capacity: u32,
    /// Most contacts (shape pairs with overlapping enlarged bounds) at once.
    pub contact_capacity: u32,
    /// Most new pairs the broad phase keeps in one step (lowest shape indices win).
    pub pair_capacity: u32,
    /// Most convex hulls alive at once.
    pub hull_capacity: u32,
    /// Most joints alive at once.
    pub joint_capacity: u32,
    /// Most triangle meshes and height fields alive at once.
    pub mesh_capacity: u32,
    /// Content budget in bytes: what meshes and height fields may take together (their
    /// content and what is rebuilt from it; see `geometry::mesh::mesh_content_bytes` and
    /// `geometry::height_field::height_field_content_bytes`). Taken from the allocator
    /// as content is created, never more than this; `content_usage()` reports it.
    pub content_capacity: u64,
    /// Most contact begin (and, separately, end, hit, sensor begin, sensor end and joint
    /// break) events kept per step.
    pub event_capacity: u32,
    /// Most (sensor, shape) overlaps at once.
    pub sensor_capacity: u32,
    /// Approach speed above which touching contacts of shapes with hit events report a
    /// hit, m/s (default 1).
    pub hit_event_threshold: f32,
    /// Host memory hooks; `None` uses Rust's global allocator.
    pub allocator: Option<HostAllocator>,
    /// Host task system; `None` runs every stage on the calling thread.
    pub task_hooks: Option<TaskHooks>,
}

impl Default for WorldDef {
    fn default() -> WorldDef {
        WorldDef {
            gravity: Vec3::new(0.0, -10.0, 0.0),
            restitution_threshold: 1.0,
            contact_hertz: 30.0,
            contact_damping_ratio: 10.0,
            contact_push_max_speed: 3.0,
            joint_damping_ratio: 2.0,
            max_linear_speed: 400.0,
            enable_sleep: true,
            body_capacity: 1024,
            shape_capacity: 1024,
            contact_capacity: 4096,
            pair_capacity: 4096,
            hull_capacity: 32,
            joint_capacity: 1024,
            mesh_capacity: 16,
            content_capacity: 64 << 20,
            event_capacity: 1024,
            sensor_capacity: 1024,
            hit_event_threshold: 1.0,
            allocator: None,
            task_hooks: None,
        }
    }
}

/// A contact between two shapes began (they touch) or ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ContactEvent {
    /// Shape A of the contact.
    pub shape_a: ShapeId,
    /// Shape B of the contact.
    pub shape_b: ShapeId,
}

/// What the last step did and dropped. Counters observe; they are not state.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counters {
    /// Bodies alive.
    pub body_count: u32,
    /// Shapes alive.
    pub shape_count: u32,
    /// Contacts alive.
    pub contact_count: u32,
    /// Contacts with at least one manifold point.
    pub touching_contact_count: u32,
    /// Contacts the last step's narrow phase visited: those of moving bodies. Contacts
    /// between bodies at rest (asleep, static) are skipped, so this does not grow with
    /// the bodies asleep.
    pub contacts_visited: u32,
    /// Bodies in the last step's solver (awake, moving).
    pub awake_body_count: u32,
    /// Islands among the last step's awake dynamic bodies.
    pub island_count: u32,
    /// Graph colours in use in the last step (the overflow colour counts as one).
    pub color_count: u32,
    /// Constraints that fell into the overflow colour in the last step.
    pub overflow_constraints: u32,
    /// Hulls alive.
    pub hull_count: u32,
    /// Meshes and height fields alive.
    pub mesh_count: u32,
    /// New pairs the broad phase dropped for `pair_capacity` in the last step.
    pub dropped_pairs: u32,
    /// New contacts dropped for `contact_capacity` in the last step.
    pub dropped_contacts: u32,
    /// Contact begin events dropped for `event_capacity` in the last step.
    pub dropped_begin_events: u32,
    /// Contact end events dropped for `event_capacity` in the last step.
    pub dropped_end_events: u32,
    /// Height of the movable-shape tree.
    pub tree_height: u32,
    /// Sensor overlaps dropped for `sensor_capacity` in the last step.
    pub dropped_sensor_pairs: u32,
    /// Sensor begin events dropped for `event_capacity` in the last step.
    pub dropped_sensor_begin_events: u32,
    /// Sensor end events dropped for `event_capacity` in the last step.
    pub dropped_sensor_end_events: u32,
    /// Contact hit events dropped for `event_capacity` in the last step.
    pub dropped_hit_events: u32,
    /// Joints alive.
    pub joint_count: u32,
    /// Joint break events dropped for `event_capacity` in the last step.
    pub dropped_joint_break_events: u32,
    /// How often in the last step a cap (the world's `max_linear_speed`,
    /// `limits::MAX_ANGULAR_SPEED`) bound a dynamic body's speed, counted per body per
    /// substep stage; 0 in a scene that never reaches them.
    pub speed_caps: u32,
    /// Times in the last step the cap of a quarter turn per substep cut a body's angular
    /// velocity (per body, per substep).
    pub rotation_clamps: u32,
    /// Time-of-impact queries continuous collision ran in the last step.
    pub toi_queries: u32,
    /// Their outer iterations (separating axes tried), at most
    /// [`MAX_TOI_ITERATIONS`](crate::collide::cast::MAX_TOI_ITERATIONS) a query.
    pub toi_iterations: u32,
    /// Their separation evaluations (deepest-point pushes and root-finder steps), at most
    /// [`MAX_TOI_EVALUATIONS`](crate::collide::cast::MAX_TOI_EVALUATIONS) a query.
    pub toi_root_iterations: u32,
    /// Fast-body and bullet sweeps that reached
    /// [`MAX_SWEEP_CANDIDATES`](crate::MAX_SWEEP_CANDIDATES) in the
    /// last step: candidates past the limit (later along the path, then higher shape
    /// slot, then higher triangle index) were not examined.
    pub dropped_ccd_sweeps: u32,
}

/// Process-wide source of world tags, so ids from one world are refused by another.
/// Only ids carry the tag: it never enters a computation, the hash or a snapshot.
static NEXT_WORLD_TAG: AtomicU32 = AtomicU32::new(1);

/// Solver constants, Box2D v3's values in metres.
pub(crate) const LINEAR_SLOP: f32 = 0.005;
/// Contacts are kept up to this far apart, so fast approaches are caught in time.
pub(crate) const SPECULATIVE_DISTANCE: f32 = 4.0 * LINEAR_SLOP;
/// Enlarged bounds grow by this much, so resting shapes do not churn the broad phase.
pub(crate) const AABB_MARGIN: f32 = 0.1;
/// Room the pre-step bounds check adds to a body's reach: the fat margin plus room for
/// rounding the grid positions and bounds outward.
pub(crate) const BOUNDS_SLACK: f64 = AABB_MARGIN as f64 + 1.0;
/// A body must stay slow this long before its island sleeps.
pub(crate) const TIME_TO_SLEEP: f32 = 0.5;

/// A physics world. All memory is taken at `new`; a step never allocates.
pub struct World {
    pub(crate) tag: u32,
    pub(crate) def: WorldDef,
    pub(crate) alloc: WorldAlloc,
    /// The pre-solve callback (host code, not state).
    pub(crate) pre_solve: Option<crate::presolve::PreSolve>,
    /// Pairs the pre-solve callback disabled in this step (for the journal), sorted.
    pub(crate) presolve_disabled: FixedVec<u64>,
    /// During a replayed step: the recorded disabled pairs, applied instead of the callback.
    pub(crate) presolve_replay: FixedVec<u64>,
    pub(crate) presolve_replaying: bool,
    /// The API layer's recorder (`crate::api`): the journal, if one was started (not
    /// state).
    pub(crate) recorder: crate::api::Recorder,
    /// State: steps taken.
    pub(crate) step_index: u64,
    /// State: world origin in 2^-32 units per axis.
    pub(crate) origin: [i64; 3],
    pub(crate) bodies: FixedVec<Body>,
    /// State: free body slots, used last-in first-out.
    pub(crate) body_free: FixedVec<u32>,
    pub(crate) shapes: FixedVec<Shape>,
    pub(crate) shape_free: FixedVec<u32>,
    pub(crate) hulls: FixedVec<HullSlot>,
    pub(crate) hull_free: FixedVec<u32>,
    /// Meshes and height fields (content: state; trees: rebuilt).
    pub(crate) meshes: FixedVec<MeshSlot>,
    pub(crate) mesh_free: FixedVec<u32>,
    /// Bytes of `content_capacity` in use (derived from the content).
    pub(crate) content_used: u64,
    pub(crate) mesh_count: u32,
    /// Scratch for contact slots gathered to create or destroy in order (not state).
    pub(crate) contact_scratch: FixedVec<u32>,
    pub(crate) contacts: FixedVec<Contact>,
    pub(crate) contact_free: FixedVec<u32>,
    pub(crate) joints: FixedVec<Joint>,
    /// State: free joint slots, used last-in first-out.
    pub(crate) joint_free: FixedVec<u32>,
    /// Scratch for destroying a body's joints in slot order (not state).
    pub(crate) joint_scratch: FixedVec<u32>,
    pub(crate) joint_break_events: FixedVec<JointBreakEvent>,
    pub(crate) pair_set: PairSet,
    pub(crate) broad: BroadPhase,
    /// Scratch for restore: one word per slot of every pool (not state).
    pub(crate) restore_info: FixedVec<u64>,
    pub(crate) solver: SolverScratch,
    /// The moving bodies (derived: rebuilt from the bodies at restore).
    pub(crate) awake: AwakeSet,
    pub(crate) tasks: Tasks,
    pub(crate) begin_events: FixedVec<ContactEvent>,
    /// State: sorted (sensor << 32 | visitor) overlaps at the end of the last step.
    pub(crate) sensor_pairs: FixedVec<u64>,
    pub(crate) sensor_scratch: FixedVec<u64>,
    pub(crate) sensor_begin_events: FixedVec<crate::sensor::SensorEvent>,
    pub(crate) sensor_end_events: FixedVec<crate::sensor::SensorEvent>,
    pub(crate) hit_events: FixedVec<crate::events::ContactHitEvent>,
    pub(crate) move_events: FixedVec<crate::events::BodyMoveEvent>,
    pub(crate) end_events: FixedVec<ContactEvent>,
    pub(crate) counters: Counters,
    pub(crate) profile: Profile,
    /// A body whose bounds left ±2^22 in the last step: the next step refuses.
    pub(crate) body_count: u32,
    pub(crate) shape_count: u32,
    pub(crate) contact_count: u32,
    pub(crate) hull_count: u32,
    pub(crate) joint_count: u32,
}

/// The def's solver settings and gravity within `crate::limits`.
pub(crate) fn check_settings(def: &WorldDef) -> Result<()> {
    check_vec_abs(
        "gravity",
        def.gravity,
        MAX_GRAVITY,
        "finite and within ±1e5 (each component)",
    )?;
    let e = "within [0, 1e6]";
    check_nonneg(
        "restitution_threshold",
        def.restitution_threshold,
        MAX_SETTING,
        e,
    )?;
    check_nonneg("contact_hertz", def.contact_hertz, MAX_SETTING, e)?;
    check_nonneg(
        "contact_damping_ratio",
        def.contact_damping_ratio,
        MAX_SETTING,
        e,
    )?;
    check_nonneg(
        "contact_push_max_speed",
        def.contact_push_max_speed,
        MAX_SETTING,
        e,
    )?;
    check_nonneg(
        "hit_event_threshold",
        def.hit_event_threshold,
        MAX_SETTING,
        e,
    )?;
    check_nonneg(
        "joint_damping_ratio",
        def.joint_damping_ratio,
        MAX_SETTING,
        e,
    )?;
    crate::error::check_range(
        "max_linear_speed",
        def.max_linear_speed,
        1e-3,
        crate::limits::MAX_VELOCITY,
        "within [1e-3, 1e5]",
    )
}

fn check_capacity(name: &'static str, v: u32, max: u32) -> Result<()> {
    if v == 0 || v > max {
        return Err(Error::Argument {
            name,
            value: v as f64,
            expected: "within [1, 2^24]",
        });
    }
    Ok(())
}

impl World {
    /// Creates a world, reserving all its memory through the def's allocator. A refused
    /// allocation is a capacity error, and everything taken so far is given back.
    pub fn new(def: &WorldDef) -> Result<World> {
        const MAX: u32 = 1 << 24;
        check_settings(def)?;
        check_capacity("body_capacity", def.body_capacity, MAX)?;
        check_capacity("shape_capacity", def.shape_capacity, MAX)?;
        check_capacity("contact_capacity", def.contact_capacity, MAX)?;
        check_capacity("pair_capacity", def.pair_capacity, MAX)?;
        check_capacity("hull_capacity", def.hull_capacity, MAX)?;
        check_capacity("mesh_capacity", def.mesh_capacity, MAX)?;
        if def.content_capacity > 1 << 40 {
            return Err(Error::Argument {
                name: "content_capacity",
                value: def.content_capacity as f64,
                expected: "at most 2^40 bytes",
            });
        }
        check_capacity("joint_capacity", def.joint_capacity, MAX)?;
        check_capacity("event_capacity", def.event_capacity, MAX)?;
        check_capacity("sensor_capacity", def.sensor_capacity, MAX)?;
        if let Some(h) = def.task_hooks {
            check_capacity("task_hooks.worker_count", h.worker_count, 1024)?;
        }

        let alloc = match def.allocator {
            Some(h) => WorldAlloc::Host(h),
            None => WorldAlloc::Global,
        };
        let nb = def.body_capacity as usize;
        let ns = def.shape_capacity as usize;
        let nc = def.contact_capacity as usize;
        let nh = def.hull_capacity as usize;
        let ne = def.event_capacity as usize;
        let nj = def.joint_capacity as usize;
        // Each `?` drops what was made before it, freeing it through the same allocator.
        let bodies = FixedVec::with_capacity(nb, alloc, "body_capacity")?;
        let body_free = FixedVec::with_capacity(nb, alloc, "body_capacity")?;
        let shapes = FixedVec::with_capacity(ns, alloc, "shape_capacity")?;
        let shape_free = FixedVec::with_capacity(ns, alloc, "shape_capacity")?;
        let hulls = FixedVec::with_capacity(nh, alloc, "hull_capacity")?;
        let hull_free = FixedVec::with_capacity(nh, alloc, "hull_capacity")?;
        let nm = def.mesh_capacity as usize;
        let meshes = FixedVec::with_capacity(nm, alloc, "mesh_capacity")?;
        let mesh_free = FixedVec::with_capacity(nm, alloc, "mesh_capacity")?;
        let contacts = FixedVec::with_capacity(nc, alloc, "contact_capacity")?;
        let contact_free = FixedVec::with_capacity(nc, alloc, "contact_capacity")?;
        let joints = FixedVec::with_capacity(nj, alloc, "joint_capacity")?;
        let joint_free = FixedVec::with_capacity(nj, alloc, "joint_capacity")?;
        let joint_scratch = FixedVec::with_capacity(nj, alloc, "joint_capacity")?;
        let joint_break_events = FixedVec::with_capacity(ne, alloc, "event_capacity")?;
        let pair_set = PairSet::new(nc, alloc)?;
        let broad = BroadPhase::new(ns, def.pair_capacity as usize, nc, alloc)?;
        let restore_info =
            FixedVec::filled(nh + nm + nb + ns + nc + nj, 0u64, alloc, "body_capacity")?;
        let solver = SolverScratch::new(nb, nc, def.sensor_capacity as usize, nj, alloc)?;
        let awake = AwakeSet::new(nb, nc, alloc)?;
        let tasks = Tasks::new(def.task_hooks, nb.max(nc).max(ns), alloc)?;
        let begin_events = FixedVec::with_capacity(ne, alloc, "event_capacity")?;
        let nsp = def.sensor_capacity as usize;
        let sensor_pairs = FixedVec::with_capacity(nsp, alloc, "sensor_capacity")?;
        let sensor_scratch = FixedVec::with_capacity(nsp, alloc, "sensor_capacity")?;
        let sensor_begin_events = FixedVec::with_capacity(ne, alloc, "event_capacity")?;
        let sensor_end_events = FixedVec::with_capacity(ne, alloc, "event_capacity")?;
        let hit_events = FixedVec::with_capacity(ne, alloc, "event_capacity")?;
        let move_events = FixedVec::with_capacity(nb, alloc, "body_capacity")?;
        let end_events = FixedVec::with_capacity(ne, alloc, "event_capacity")?;
        Ok(World {
            tag: NEXT_WORLD_TAG.fetch_add(1, Ordering::Relaxed),
            def: *def,
            alloc,
            pre_solve: None,
            presolve_disabled: FixedVec::with_capacity(nc, alloc, "contact_capacity")?,
            presolve_replay: FixedVec::with_capacity(nc, alloc, "contact_capacity")?,
            presolve_replaying: false,
            recorder: None,
            step_index: 0,
            origin: [0; 3],
            bodies,
            body_free,
            shapes,
            shape_free,
            hulls,
            hull_free,
            meshes,
            mesh_free,
            content_used: 0,
            mesh_count: 0,
            contact_scratch: FixedVec::with_capacity(nc, alloc, "contact_capacity")?,
            contacts,
            contact_free,
            joints,
            joint_free,
            joint_scratch,
            joint_break_events,
            pair_set,
            broad,
            restore_info,
            solver,
            awake,
            tasks,
            begin_events,
            sensor_pairs,
            sensor_scratch,
            sensor_begin_events,
            sensor_end_events,
            hit_events,
            move_events,
            end_events,
            counters: Counters::default(),
            profile: Profile::default(),
            body_count: 0,
            shape_count: 0,
            contact_count: 0,
            hull_count: 0,
            joint_count: 0,
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

    /// Counters of the last step.
    pub fn counters(&self) -> Counters {
        let mut c = self.counters;
        c.body_count = self.body_count;
        c.shape_count = self.shape_count;
        c.contact_count = self.contact_count;
        c.hull_count = self.hull_count;
        c.mesh_count = self.mesh_count;
        c.joint_count = self.joint_count;
        c.tree_height = self.broad.movable.height();
        c
    }

    /// Time per stage of the last step. The one output that differs between runs.
    pub fn profile(&self) -> Profile {
        self.profile
    }

    /// Contacts that began touching in the last step, in contact slot order.
    pub fn contact_begin_events(&self) -> &[ContactEvent] {
        &self.begin_events
    }

    /// Contacts that began touching in the last step with an approach faster than
    /// `hit_event_threshold` (shapes with hit events), in contact slot order.
    pub fn contact_hit_events(&self) -> &[ContactHitEvent] {
        &self.hit_events
    }

    /// Bodies the last step moved, in body slot order.
    pub fn body_move_events(&self) -> &[BodyMoveEvent] {
        &self.move_events
    }

    /// Records a move event for every body the solver moved.
    fn collect_move_events(&mut self) {
        for k in 0..self.solver.params.len() {
            let bi = self.solver.params[k].body;
            let b = &self.bodies[bi as usize];
            let ev = BodyMoveEvent {
                body: self.body_id(bi),
                position: b.position,
                rotation: b.rotation,
                fell_asleep: !b.awake,
            };
            let ok = self.move_events.push(ev);
            debug_assert!(ok, "one move event per body at most");
        }
    }

    /// Contacts that stopped touching (or were removed) in the last step.
    pub fn contact_end_events(&self) -> &[ContactEvent] {
        &self.end_events
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
        if !(dt.is_finite() && (1e-4..=10.0).contains(&dt)) {
            return Err(Error::Argument {
                name: "dt",
                value: dt as f64,
                expected: "finite and within [1e-4, 10] seconds",
            });
        }
        if !(1..=256).contains(&substeps) {
            return Err(Error::Argument {
                name: "substeps",
                value: substeps as f64,
                expected: "within [1, 256]",
            });
        }
        if let Some((slot, value)) = self.body_that_could_leave_bounds(dt) {
            return Err(Error::BodyOutOfBounds {
                body: self.body_id(slot),
                value,
                bound: POSITION_LIMIT,
            });
        }
        debug_assert!(
            self.awake_set_matches(),
            "awake set out of step with the bodies"
        );
        let total = Timer::start();
        self.begin_events.clear();
        self.end_events.clear();
        self.hit_events.clear();
        self.move_events.clear();
        self.counters.dropped_begin_events = 0;
        self.counters.dropped_end_events = 0;
        self.counters.dropped_hit_events = 0;
        self.joint_break_events.clear();
        self.counters.dropped_joint_break_events = 0;
        self.counters.speed_caps = 0;
        self.counters.rotation_clamps = 0;

        let t = Timer::start();
        self.update_pairs();
        self.profile.pairs = t.elapsed_ms();

        let t = Timer::start();
        let moving = self.awake.moving_changes();
        self.collide();
        // Bodies a touch woke join: presolve and the solver read these contacts.
        if self.awake.moving_changes() != moving {
            self.gather_moving_contacts();
        }
        self.run_pre_solve();
        self.profile.collide = t.elapsed_ms();

        crate::solver::solve(self, dt, substeps);

        let t = Timer::start();
        self.collect_move_events();
        self.update_sensors();
        self.profile.sensors = t.elapsed_ms();

        // Wraps rather than overflows: a restored step count may be any u64.
        self.step_index = self.step_index.wrapping_add(1);
        self.profile.step = total.elapsed_ms();
        Ok(())
    }

    /// The first enabled dynamic or kinematic body (in slot order) whose bounds could
    /// reach ±2^22 during a step of `dt`, with how far out they could reach. A step
    /// moves a body by at most its speed times `dt` — a dynamic body's speed is capped at
    /// `max_linear_speed` through the whole step, a kinematic body keeps its velocity —
    /// and its shapes lie within `max_extent` of its centre of mass, so checking this
    /// before the step means no step ever carries a body past the bound, and nothing
    /// about the refusal is stored: the world steps as soon as the body is dealt with.
    /// Sleeping bodies count too (a contact may wake them during the step).
    ///
    /// The moving bodies are checked one by one; the resting ones through the awake set's
    /// bound on their reach, and only when that bound comes near the limit (or is unknown)
    /// are all bodies scanned, in slot order, as the first offender must be named.
    fn body_that_could_leave_bounds(&mut self, dt: f32) -> Option<(u32, f64)> {
        let max_speed = self.def.max_linear_speed;
        if self.awake.rest_within(dt, max_speed, POSITION_LIMIT) {
            let bodies = &self.bodies;
            return self.awake.iter().find_map(|slot| {
                self.reach_past_limit(&bodies[slot as usize], dt)
                    .map(|far| (slot, far))
            });
        }
        let found = (self.bodies.iter().enumerate())
            .find_map(|(slot, b)| self.reach_past_limit(b, dt).map(|far| (slot as u32, far)));
        if found.is_none() {
            self.measure_rest_reach();
        }
        found
    }

    /// How far out an enabled dynamic or kinematic body could reach in a step of `dt`,
    /// when that is past the coordinate limit.
    fn reach_past_limit(&self, b: &Body, dt: f32) -> Option<f64> {
        if !b.alive || !b.enabled || b.body_type == BodyType::Static {
            return None;
        }
        let speed = match b.body_type {
            BodyType::Dynamic => self.def.max_linear_speed,
            _ => b.linear_velocity.length(),
        };
        // The centre of mass lies within |local_center| of the body origin.
        let reach = speed as f64 * dt as f64
            + b.local_center.length() as f64
            + b.max_extent as f64
            + BOUNDS_SLACK;
        let far = b.position.max_abs() + reach;
        (far >= POSITION_LIMIT).then_some(far)
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
        self.broad.shift(offset);
        for (o, u) in self.origin.iter_mut().zip(units) {
            *o += u;
        }
        self.awake.forget_rest_reach();
        Ok(())
    }

    // ---- ids ----

    pub(crate) fn body_slot(&self, id: BodyId) -> Result<usize> {
        let bad = Error::InvalidId {
            what: "body",
            index: id.index,
            generation: id.generation,
        };
        let slot = id.slot().ok_or(bad)?;
        if id.world != self.tag || slot >= self.bodies.len() {
            return Err(bad);
        }
        let b = &self.bodies[slot];
        if !b.alive || b.generation != id.generation {
            return Err(bad);
        }
        Ok(slot)
    }

    pub(crate) fn shape_slot(&self, id: ShapeId) -> Result<usize> {
        let bad = Error::InvalidId {
            what: "shape",
            index: id.index,
            generation: id.generation,
        };
        let slot = id.slot().ok_or(bad)?;
        if id.world != self.tag || slot >= self.shapes.len() {
            return Err(bad);
        }
        let s = &self.shapes[slot];
        if !s.alive || s.generation != id.generation {
            return Err(bad);
        }
        Ok(slot)
    }

    pub(crate) fn hull_slot(&self, id: HullId) -> Result<usize> {
        let bad = Error::InvalidId {
            what: "hull",
            index: id.index,
            generation: id.generation,
        };
        let slot = id.slot().ok_or(bad)?;
        if id.world != self.tag || slot >= self.hulls.len() {
            return Err(bad);
        }
        let h = &self.hulls[slot];
        if !h.alive || h.generation != id.generation {
            return Err(bad);
        }
        Ok(slot)
    }

    pub(crate) fn body_id(&self, slot: u32) -> BodyId {
        BodyId {
            index: slot + 1,
            generation: self.bodies[slot as usize].generation,
            world: self.tag,
        }
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
        use core::mem::size_of;
        self.bodies.capacity() * size_of::<Body>()
            + self.body_free.capacity() * 4
            + self.shapes.capacity() * size_of::<Shape>()
            + self.shape_free.capacity() * 4
            + self.hulls.capacity() * size_of::<HullSlot>()
            + self.hull_free.capacity() * 4
            + self.meshes.capacity() * size_of::<MeshSlot>()
            + self.mesh_free.capacity() * 4
            + self.contact_scratch.capacity() * 4
            + self.content_used as usize
            + self.contacts.capacity() * size_of::<Contact>()
            + self.contact_free.capacity() * 4
            + self.joints.capacity() * size_of::<Joint>()
            + (self.joint_free.capacity() + self.joint_scratch.capacity()) * 4
            + self.joint_break_events.capacity() * size_of::<JointBreakEvent>()
            + self.broad.memory_usage()
            + self.restore_info.capacity() * 8
            + (self.presolve_disabled.capacity() + self.presolve_replay.capacity()) * 8
            + self.solver.memory_usage()
            + self.awake.memory_usage()
            + self.tasks.memory_usage()
            + (self.begin_events.capacity() + self.end_events.capacity())
                * size_of::<ContactEvent>()
    }
}

/// Allocates a slot from a pool: the last freed slot first, else a new one at the end.
/// `make` receives the slot's previous generation (0 for a new slot).
pub(crate) fn alloc_slot<T>(
    pool: &mut FixedVec<T>,
    free: &mut FixedVec<u32>,
    generation_of: impl Fn(&T) -> u32,
    make: impl FnOnce(u32) -> T,
) -> Option<u32> {
    if let Some(slot) = free.pop() {
        let old = generation_of(&pool[slot as usize]);
        pool[slot as usize] = make(old);
        return Some(slot);
    }
    if pool.is_full() {
        return None;
    }
    let slot = pool.len() as u32;
    let ok = pool.push(make(0));
    debug_assert!(ok);
    Some(slot)
}
