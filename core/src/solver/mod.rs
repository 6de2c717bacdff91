//! The soft-step solver (Box2D v3 / Box3D), run once per step.
//!
//! Per step: gather the awake set, colour the constraint graph, prepare contacts and
//! joints. Per substep: integrate velocities, warm start, solve with bias, integrate
//! positions, relax without bias — joints before contacts in each pass (`crate::joint`).
//! After the substeps: joint reactions and breaking, restitution, store impulses, write
//! bodies back and update bounds, then islands and sleep.
//!
//! Nothing here is kept from one step to the next except through the world's state: the
//! awake set is rebuilt in body slot order and the colours are recomputed from the
//! touching contacts in contact slot order, so a restored world colours exactly alike.

pub(crate) mod awake;
pub(crate) mod constraint_graph;
pub(crate) mod contact_solver;
pub(crate) mod continuous;
pub(crate) mod island;
pub(crate) mod lanes;

use crate::alloc::{FixedVec, WorldAlloc};
use crate::area::{Fold, gravity_at};
use crate::body::{Body, BodyType, NONE};
use crate::error::Result;
use crate::joint::solver::JointConstraint;
use crate::math::{DAabb, Mat3, Quat, Vec3, round_vec_to_grid, sqrt};
use crate::profile::Timer;
use crate::task::{MAX_PLAN, Slots, Stage, StagePlan, StageRef};
use crate::world::{AABB_MARGIN, World};
use constraint_graph::{COLOR_COUNT, OVERFLOW, color_constraints};
use contact_solver::{Batch, Constraints, LaneInput, PrepareContext, Softness, single, wide};
use core::sync::atomic::{AtomicU32, Ordering};
pub use lanes::SolverLanes;

/// Contacts prepared and solved at once in a colour.
const WIDE: usize = <lanes::F4x2 as lanes::Lanes>::WIDTH;

/// What the substeps read and write for each awake body: one cache line, four 16-byte
/// rows (velocity, angular velocity, displacement, rotation) that the contact solver
/// loads whole and transposes into lanes.
#[derive(Clone, Copy, Debug, Default)]
#[repr(C, align(64))]
pub(crate) struct BodyState {
    pub v: Vec3,
    pad_v: f32,
    pub w: Vec3,
    pad_w: f32,
    /// Displacement of the centre of mass during this step.
    pub dp: Vec3,
    pad_dp: f32,
    /// Rotation during this step.
    pub dq: Quat,
}

impl BodyState {
    /// A body moving at `v`, `w` that has not moved yet this step.
    pub(crate) const fn new(v: Vec3, w: Vec3) -> BodyState {
        BodyState {
            v,
            pad_v: 0.0,
            w,
            pad_w: 0.0,
            dp: Vec3::ZERO,
            pad_dp: 0.0,
            dq: Quat::IDENTITY,
        }
    }

    #[inline(always)]
    pub(crate) fn v_row(&self) -> [f32; 4] {
        [self.v.x, self.v.y, self.v.z, self.pad_v]
    }

    #[inline(always)]
    pub(crate) fn w_row(&self) -> [f32; 4] {
        [self.w.x, self.w.y, self.w.z, self.pad_w]
    }

    #[inline(always)]
    pub(crate) fn dp_row(&self) -> [f32; 4] {
        [self.dp.x, self.dp.y, self.dp.z, self.pad_dp]
    }

    /// Sets the velocity from a row (the fourth float is padding).
    #[inline(always)]
    pub(crate) fn set_v_row(&mut self, r: [f32; 4]) {
        self.v = Vec3::new(r[0], r[1], r[2]);
        self.pad_v = r[3];
    }

    /// Sets the angular velocity from a row (the fourth float is padding).
    #[inline(always)]
    pub(crate) fn set_w_row(&mut self, r: [f32; 4]) {
        self.w = Vec3::new(r[0], r[1], r[2]);
        self.pad_w = r[3];
    }

    #[inline(always)]
    pub(crate) fn dq_row(&self) -> [f32; 4] {
        [self.dq.x, self.dq.y, self.dq.z, self.dq.w]
    }
}

/// Per-step constants of an awake body.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct BodyParams {
    pub body: u32,
    pub dynamic: bool,
    pub inv_mass: Vec3,
    pub inv_inertia: Mat3,
    /// Acceleration from gravity and the host's force.
    pub linear_accel: Vec3,
    /// Angular acceleration from the host's torque.
    pub angular_accel: Vec3,
    /// Box2D's implicit damping over one substep `h`, `1 / (1 + h c)`, linear and
    /// angular (the same every substep: made once a step).
    pub linear_damping: f32,
    pub angular_damping: f32,
    pub linear_mask: Vec3,
    pub angular_mask: Vec3,
    pub max_extent: f32,
}

pub(crate) struct SolverScratch {
    pub states: FixedVec<BodyState>,
    pub params: FixedVec<BodyParams>,
    /// Body slot → solver index, or NONE.
    pub solver_index: FixedVec<u32>,
    /// The solver's bodies by index (ascending slots): the last step's, whose indices
    /// the next clears, and the next step's being written (swapped after).
    pub solver_bodies: FixedVec<u32>,
    pub solver_bodies_next: FixedVec<u32>,
    /// Per word of the awake bits, the solver index of its first body.
    pub word_starts: FixedVec<u32>,
    pub constraints: Constraints,
    /// Touching contacts of the awake set in colour order (colour starts below).
    pub constraint_contact: FixedVec<u32>,
    pub color_starts: [u32; COLOR_COUNT + 1],
    /// Where each colour's wide constraints start (the overflow's range is empty).
    pub wide_starts: [u32; COLOR_COUNT + 1],
    /// Solve every colour one constraint at a time (the reference path; same bits).
    pub one_at_a_time: bool,
    /// The lanes the wide batch is prepared and solved in (resolved: never `Auto`; not
    /// state, every choice gives the same bits).
    pub lanes: SolverLanes,
    /// Touching contacts in slot order, and their colours.
    pub touching: FixedVec<u32>,
    pub touching_color: FixedVec<u8>,
    /// Per contact, two solver bodies read ahead in parallel: of the awake set's
    /// contacts, the dynamic ones for the colouring (`constraint_graph::color_constraints`);
    /// of the constraints, both, for the islands (`island::update_sleep`).
    pub contact_bodies: FixedVec<[u32; 2]>,
    /// Per solver body, the colours holding it, one bit each.
    pub body_colors: FixedVec<u32>,
    /// Union-find parents over solver indices.
    pub parent: FixedVec<u32>,
    /// Per solver body, its sleep timer as finalize left it; then, at each island's root,
    /// the island's shortest (`island::update_sleep`).
    pub island_sleep: FixedVec<f32>,
    /// Work list for waking and sleeping islands.
    pub stack: FixedVec<u32>,
    /// (body, priority, area sensor) for each area a body overlaps, sorted per step.
    pub area_links: FixedVec<(u32, i32, u32)>,
    /// Where each awake body started the step (continuous collision).
    pub ccd_start: FixedVec<(crate::math::DVec3, Quat)>,
    /// Per awake body, the first of its shapes that left its fat box this step and that
    /// shape's proxy (see [`grown_proxy`]), or `[NONE; 2]` (`finalize_bodies`).
    pub grown: FixedVec<[u32; 2]>,
    /// Per awake body, whether continuous collision sweeps it this step, and in which
    /// pass: [`continuous::SWEPT_BULLET`] for a dynamic bullet, [`continuous::SWEPT`]
    /// for another body that moved far for its size, else zero (`finalize_bodies`, read
    /// by `World::solve_continuous`).
    pub fast: FixedVec<u8>,
    /// Per awake body, its sweep in continuous collision's parallel pass.
    pub sweeps: FixedVec<continuous::SweepResult>,
    /// Per colour, the lanes read for the group being filled (see `prepare_contacts`).
    pub pending: FixedVec<LaneInput>,
    /// The joints of the solver's dynamic bodies, ascending (each once): the joints a step
    /// visits, so sleeping jointed bodies cost nothing.
    pub joint_slots: FixedVec<u32>,
    /// This step's acting joints in joint slot order, and where each one's constraint
    /// is in `joint_constraints`.
    pub joint_acting: FixedVec<u32>,
    pub joint_position: FixedVec<u32>,
    /// Per joint the colouring visits, what it needs of the joint, read ahead in parallel.
    pub joint_read: FixedVec<crate::joint::solver::JointRead>,
    /// The reads the layout above was last made from (with every slot read: `dense`),
    /// and how many joints it visited; `None` when it was not. The colouring is a
    /// function of the reads alone, so when this step's are the same it is not made
    /// again (not state: a new scratch makes it afresh, to the same layout).
    pub joint_read_before: FixedVec<crate::joint::solver::JointRead>,
    pub joint_visited_before: Option<u32>,
    /// The inverse: the joint slot at each position, and the group (index in
    /// `joint_groups`) whose lanes hold it, `NONE` for joints solved one at a time.
    pub joint_slot_at: FixedVec<u32>,
    pub joint_group_of: FixedVec<u32>,
    /// Per position, whether the joint breaks this step (`finish_joints`).
    pub joint_breaks: FixedVec<bool>,
    /// What each constraint's joint adds to its bodies' inertia this step.
    pub joint_tension: FixedVec<[crate::joint::solver::Tension; 2]>,
    /// This step's joints in colour order (joint slot order within a colour), and their
    /// impulses during the step.
    pub joint_constraints: FixedVec<JointConstraint>,
    /// Where each joint colour, its joints solved one at a time and its groups start.
    pub joint_layout: crate::joint::solver::JointLayout,
    /// The joints solved in lanes, eight or fewer of a kind to a group.
    pub joint_groups: FixedVec<crate::joint::wide::JointGroup>,
    /// The groups' rows (`JointGroup::rows` on, as many as its class keeps).
    pub joint_rows: FixedVec<crate::joint::wide::Row>,
    pub joint_impulses: FixedVec<crate::joint::JointImpulses>,
    /// Per solver body, the world inverse inertia the joint rows use this step: the
    /// body's own with the inertia joint tension adds (`crate::joint::solver::tension_terms`).
    pub joint_inv_inertia: FixedVec<Mat3>,
}

impl SolverScratch {
    pub(crate) fn new(
        body_capacity: usize,
        contact_capacity: usize,
        sensor_capacity: usize,
        joint_capacity: usize,
        alloc: WorldAlloc,
    ) -> Result<SolverScratch> {
        Ok(SolverScratch {
            area_links: FixedVec::with_capacity(sensor_capacity, alloc, "sensor_capacity")?,
            ccd_start: FixedVec::with_capacity(body_capacity, alloc, "body_capacity")?,
            grown: FixedVec::with_capacity(body_capacity, alloc, "body_capacity")?,
            fast: FixedVec::with_capacity(body_capacity, alloc, "body_capacity")?,
            sweeps: FixedVec::with_capacity(body_capacity, alloc, "body_capacity")?,
            states: FixedVec::with_capacity(body_capacity, alloc, "body_capacity")?,
            params: FixedVec::with_capacity(body_capacity, alloc, "body_capacity")?,
            solver_index: FixedVec::filled(body_capacity, NONE, alloc, "body_capacity")?,
            solver_bodies: FixedVec::with_capacity(body_capacity, alloc, "body_capacity")?,
            solver_bodies_next: FixedVec::with_capacity(body_capacity, alloc, "body_capacity")?,
            word_starts: FixedVec::with_capacity(body_capacity / 64 + 1, alloc, "body_capacity")?,
            constraints: Constraints {
                wide: Batch::new(contact_capacity / WIDE + COLOR_COUNT, alloc)?,
                single: Batch::new(contact_capacity, alloc)?,
            },
            color_starts: [0; COLOR_COUNT + 1],
            wide_starts: [0; COLOR_COUNT + 1],
            one_at_a_time: false,
            lanes: SolverLanes::Auto.resolve(),
            constraint_contact: FixedVec::with_capacity(
                contact_capacity,
                alloc,
                "contact_capacity",
            )?,
            touching: FixedVec::with_capacity(contact_capacity, alloc, "contact_capacity")?,
            touching_color: FixedVec::with_capacity(contact_capacity, alloc, "contact_capacity")?,
            contact_bodies: FixedVec::with_capacity(contact_capacity, alloc, "contact_capacity")?,
            body_colors: FixedVec::filled(body_capacity, 0, alloc, "body_capacity")?,
            parent: FixedVec::filled(body_capacity, 0, alloc, "body_capacity")?,
            island_sleep: FixedVec::filled(body_capacity, 0.0, alloc, "body_capacity")?,
            stack: FixedVec::with_capacity(body_capacity, alloc, "body_capacity")?,
            pending: FixedVec::filled(
                COLOR_COUNT * lanes::MAX_WIDTH,
                LaneInput::EMPTY,
                alloc,
                "contact_capacity",
            )?,
            joint_slots: FixedVec::with_capacity(joint_capacity, alloc, "joint_capacity")?,
            joint_acting: FixedVec::with_capacity(joint_capacity, alloc, "joint_capacity")?,
            joint_position: FixedVec::with_capacity(joint_capacity, alloc, "joint_capacity")?,
            joint_read: FixedVec::with_capacity(joint_capacity, alloc, "joint_capacity")?,
            joint_read_before: FixedVec::with_capacity(joint_capacity, alloc, "joint_capacity")?,
            joint_visited_before: None,
            joint_slot_at: FixedVec::with_capacity(joint_capacity, alloc, "joint_capacity")?,
            joint_group_of: FixedVec::with_capacity(joint_capacity, alloc, "joint_capacity")?,
            joint_breaks: FixedVec::with_capacity(joint_capacity, alloc, "joint_capacity")?,
            joint_tension: FixedVec::with_capacity(joint_capacity, alloc, "joint_capacity")?,
            joint_constraints: FixedVec::with_capacity(joint_capacity, alloc, "joint_capacity")?,
            joint_layout: crate::joint::solver::JointLayout::EMPTY,
            joint_groups: FixedVec::with_capacity(
                crate::joint::wide::group_capacity(joint_capacity),
                alloc,
                "joint_capacity",
            )?,
            joint_rows: FixedVec::with_capacity(
                crate::joint::wide::row_capacity(joint_capacity),
                alloc,
                "joint_capacity",
            )?,
            joint_impulses: FixedVec::with_capacity(joint_capacity, alloc, "joint_capacity")?,
            joint_inv_inertia: FixedVec::filled(body_capacity, Mat3::ZERO, alloc, "body_capacity")?,
        })
    }

    pub(crate) fn memory_usage(&self) -> usize {
        use core::mem::size_of;
        self.states.capacity() * size_of::<BodyState>()
            + self.params.capacity() * size_of::<BodyParams>()
            + self.solver_index.capacity() * 4
            + (self.solver_bodies.capacity() + self.solver_bodies_next.capacity()) * 4
            + self.word_starts.capacity() * 4
            + self.constraints.wide.memory_usage()
            + self.constraints.single.memory_usage()
            + self.constraint_contact.capacity() * 4
            + self.touching.capacity() * 5
            + self.contact_bodies.capacity() * 8
            + self.body_colors.capacity() * 4
            + self.parent.capacity() * 8
            + self.stack.capacity() * 4
            + self.area_links.capacity() * 12
            + self.ccd_start.capacity() * core::mem::size_of::<(crate::math::DVec3, Quat)>()
            + self.grown.capacity() * 8
            + self.fast.capacity()
            + self.sweeps.capacity() * size_of::<continuous::SweepResult>()
            + self.pending.capacity() * size_of::<LaneInput>()
            + self.joint_slots.capacity() * 4
            + self.joint_acting.capacity() * 4
            + self.joint_position.capacity() * 4
            + self.joint_read.capacity() * size_of::<crate::joint::solver::JointRead>()
            + self.joint_read_before.capacity() * size_of::<crate::joint::solver::JointRead>()
            + self.joint_slot_at.capacity() * 4
            + self.joint_group_of.capacity() * 4
            + self.joint_breaks.capacity()
            + self.joint_tension.capacity() * size_of::<[crate::joint::solver::Tension; 2]>()
            + self.joint_constraints.capacity() * size_of::<JointConstraint>()
            + self.joint_impulses.capacity() * size_of::<crate::joint::JointImpulses>()
            + self.joint_groups.capacity() * size_of::<crate::joint::wide::JointGroup>()
            + self.joint_rows.capacity() * size_of::<crate::joint::wide::Row>()
            + self.joint_inv_inertia.capacity() * size_of::<Mat3>()
    }
}

/// Box2D's soft constraint coefficients for stiffness `hertz`, damping ratio `zeta` and
/// substep `h`.
pub(crate) fn make_soft(hertz: f32, zeta: f32, h: f32) -> Softness {
    if hertz == 0.0 {
        return Softness {
            bias_rate: 0.0,
            mass_scale: 1.0,
            impulse_scale: 0.0,
        };
    }
    let omega = 2.0 * crate::math::PI * hertz;
    let a1 = 2.0 * zeta + h * omega;
    if a1 == 0.0 {
        // A stiffness so small (and no damping) that h·ω underflowed: the limit of the
        // coefficients as ω → 0, a row that applies nothing (ω / a1 would be ∞ · 0 = NaN).
        return Softness {
            bias_rate: 0.0,
            mass_scale: 0.0,
            impulse_scale: 1.0,
        };
    }
    let a2 = h * omega * a1;
    let a3 = 1.0 / (1.0 + a2);
    Softness {
        bias_rate: omega / a1,
        mass_scale: a2 * a3,
        impulse_scale: a3,
    }
}

/// Runs the solver stages of one step.
pub(crate) fn solve(world: &mut World, dt: f32, substeps: u32) {
    let t = Timer::start();
    let h = dt / substeps as f32;
    let inv_h = 1.0 / h;
    let inv_dt = 1.0 / dt;
    gather_awake_set(world, h);
    color_constraints(world);
    let def = world.def;
    let contact_hertz = crate::math::min(def.contact_hertz, 0.25 * substeps as f32 * inv_dt);
    let soft = make_soft(contact_hertz, def.contact_damping_ratio, h);
    let static_soft = make_soft(2.0 * contact_hertz, def.contact_damping_ratio, h);
    prepare_contacts(world, soft, static_soft);
    // Box2D v3's joint softness: twice the contact stiffness, and as Box2D's later
    // versions no more than a quarter of the substep rate: stiffer, a chain of light
    // links rings faster than the substeps resolve and gains energy (a 200-link chain at
    // 2 substeps, 60 Hz joints: speeds over 700 m/s; at 30 Hz it swings calmly).
    let joint_hertz = crate::math::min(2.0 * contact_hertz, 0.25 * substeps as f32 * inv_dt);
    let joint_soft = make_soft(joint_hertz, def.joint_damping_ratio, h);
    crate::joint::solver::prepare_joints(world, h, joint_soft);
    // The trees' rebuild, if neither the narrow phase nor the joints ran it beside their
    // work: before finalize enlarges the moved proxies again.
    if world.broad.rebuild_deferred {
        world.rebuild_trees();
    }
    world.profile.prepare = t.elapsed_ms();

    // How often a cap bound a body's speed this step: a sum, the same at any split.
    let speed_caps = AtomicU32::new(0);
    solve_substeps(world, h, substeps, &speed_caps);

    let t = Timer::start();
    crate::joint::solver::finish_joints(world, inv_h);
    world.profile.restitution += t.elapsed_ms();

    let t = Timer::start();
    finalize_bodies(world, dt, def.max_linear_speed, &speed_caps);
    world.counters.speed_caps = speed_caps.into_inner();
    world.solve_continuous();
    world.profile.finalize = t.elapsed_ms();

    let t = Timer::start();
    island::update_sleep(world);
    world.profile.sleep = t.elapsed_ms();
}

/// What a stage of the solver's plan does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Work {
    IntegrateVelocities,
    IntegratePositions,
    /// Joints of one colour (the overflow's in one block).
    Joints(Phase, u8),
    /// Wide constraints of one colour.
    Color(Phase, u8),
    /// The one-at-a-time constraints (overflow), serially (one block).
    Single(Phase),
    StoreWide,
    StoreSingle,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    WarmStart,
    Solve,
    Relax,
    Restitution,
}

/// A plan's stage list being built: what each stage does and its blocks.
struct PlanList {
    work: [Work; MAX_PLAN],
    stages: [Stage; MAX_PLAN],
    len: usize,
}

impl PlanList {
    fn new() -> PlanList {
        PlanList {
            work: [Work::StoreSingle; MAX_PLAN],
            stages: [Stage::default(); MAX_PLAN],
            len: 0,
        }
    }

    /// Adds a stage unless it has no items.
    fn push(&mut self, work: Work, stage: Stage) {
        if stage.items > 0 {
            self.work[self.len] = work;
            self.stages[self.len] = stage;
            self.len += 1;
        }
    }
}

/// The solver's two plans: one substep's stages (repeated), and restitution with the
/// impulses' store after them.
fn build_plans(
    wide_starts: &[u32; COLOR_COUNT + 1],
    joint_items: &[u32; COLOR_COUNT],
    n_bodies: usize,
    wn: usize,
    sn: usize,
    workers: u32,
) -> (PlanList, PlanList) {
    let bodies = Stage::split(n_bodies, 64, workers);
    let one = |n: usize| Stage {
        items: (n > 0) as u32,
        block: 1,
    };
    let colors = |list: &mut PlanList, phase: Phase| {
        for color in 0..COLOR_COUNT {
            let n = (wide_starts[color + 1] - wide_starts[color]) as usize;
            list.push(Work::Color(phase, color as u8), Stage::split(n, 4, workers));
        }
    };
    let joints = |list: &mut PlanList, phase: Phase| {
        for (color, &n) in joint_items.iter().enumerate() {
            let n = n as usize;
            let stage = if color == OVERFLOW {
                one(n)
            } else {
                Stage::split(n, 1, workers)
            };
            list.push(Work::Joints(phase, color as u8), stage);
        }
    };
    let mut body = PlanList::new();
    body.push(Work::IntegrateVelocities, bodies);
    for phase in [Phase::WarmStart, Phase::Solve] {
        joints(&mut body, phase);
        colors(&mut body, phase);
        body.push(Work::Single(phase), one(sn));
    }
    body.push(Work::IntegratePositions, bodies);
    joints(&mut body, Phase::Relax);
    colors(&mut body, Phase::Relax);
    body.push(Work::Single(Phase::Relax), one(sn));
    let mut tail = PlanList::new();
    colors(&mut tail, Phase::Restitution);
    tail.push(Work::Single(Phase::Restitution), one(sn));
    tail.push(Work::StoreWide, Stage::split(wn, 8, workers));
    tail.push(Work::StoreSingle, one(sn));

    (body, tail)
}

/// The substeps (integrate velocities, warm start, solve, integrate positions, relax),
/// then restitution and the impulses stored back on the contacts: one plan of stages run
/// through the task hooks (each worker one long task that meets the others at the
/// stages' ends), joints before contacts in each pass, colours in order. Not inlined:
/// its stage lists stay off the stack of the continuous sweep that follows.
#[inline(never)]
fn solve_substeps(world: &mut World, h: f32, substeps: u32, speed_caps: &AtomicU32) {
    let inv_h = 1.0 / h;
    let def = world.def;
    let t = Timer::start();
    let max_rotation = 0.25 * crate::math::PI;
    let push_max = def.contact_push_max_speed;
    let max_speed = def.max_linear_speed;
    let threshold = def.restitution_threshold;
    use Ordering::Relaxed;
    let tasks = &mut world.tasks;
    let workers = tasks.hooks.map_or(1, |h| h.worker_count);
    let s = &mut world.solver;
    let lanes = s.lanes;
    let one_at_a_time = s.one_at_a_time;
    let wide_starts = s.wide_starts;
    let n_bodies = s.states.len();
    let params = &s.params;
    let c = &mut s.constraints;
    let (wn, sn) = (c.wide.count, c.single.count);
    let wide = Slots::new(&mut c.wide.constraints[..wn]);
    let wide_aux = &c.wide.aux[..wn];
    let wide_rolling = Slots::new(&mut c.wide.rolling[..]);
    let single = Slots::new(&mut c.single.constraints[..sn]);
    let single_aux = &c.single.aux[..sn];
    let single_rolling = Slots::new(&mut c.single.rolling[..]);
    let states = Slots::new(&mut s.states[..]);
    let joints = &world.joints[..];
    let contacts = Slots::new(&mut world.contacts[..]);

    let joint_passes = crate::joint::solver::JointPasses::new(
        &s.joint_constraints,
        &mut s.joint_impulses,
        (&s.joint_groups, &mut s.joint_rows),
        s.joint_layout,
        joints,
        (!one_at_a_time).then_some(lanes),
        h,
    );
    let joint_items = joint_passes.items();
    let (body, tail) = build_plans(&wide_starts, &joint_items, n_bodies, wn, sn, workers);
    // Counters, not state: a sum is the same whatever the order of the adds.
    let rotation_clamps = AtomicU32::new(0);
    let run = |which: StageRef, items: core::ops::Range<usize>| {
        let work = if which.repeat == StageRef::TAIL {
            tail.work[which.index]
        } else {
            body.work[which.index]
        };
        match work {
            Work::IntegrateVelocities => {
                // SAFETY: each body is in one block of the stage.
                let sts = unsafe { states.slice(items.clone()) };
                for (st, p) in sts.iter_mut().zip(&params[items]) {
                    if integrate_velocity(st, p, h, max_speed) {
                        speed_caps.fetch_add(1, Relaxed);
                    }
                }
            }
            Work::IntegratePositions => {
                // SAFETY: each body is in one block of the stage.
                let sts = unsafe { states.slice(items.clone()) };
                for (st, p) in sts.iter_mut().zip(&params[items]) {
                    let (capped, turned) = integrate_position(st, p, h, max_rotation, max_speed);
                    if capped {
                        speed_caps.fetch_add(1, Relaxed);
                    }
                    if turned {
                        rotation_clamps.fetch_add(1, Relaxed);
                    }
                }
            }
            Work::Joints(phase, color) => joint_passes.run(
                phase == Phase::WarmStart,
                phase == Phase::Solve,
                color,
                items,
                &states,
            ),
            Work::Color(phase, color) => {
                let a = wide_starts[color as usize] as usize;
                let range = a + items.start..a + items.end;
                // SAFETY: the colour's constraints share no dynamic body, and each is in
                // one block of the stage.
                let cs = unsafe { wide.slice(range.clone()) };
                let r = &wide_rolling;
                match phase {
                    Phase::WarmStart => wide::warm_start(lanes, &states, cs, r),
                    Phase::Solve => wide::solve::<true>(lanes, &states, cs, r, inv_h, push_max),
                    Phase::Relax => wide::solve::<false>(lanes, &states, cs, r, inv_h, push_max),
                    Phase::Restitution => {
                        wide::apply_restitution(lanes, &states, cs, &wide_aux[range], threshold)
                    }
                }
            }
            Work::Single(phase) => {
                // SAFETY: the stage's one block; no other stage runs meanwhile.
                let cs = unsafe { single.slice(0..sn) };
                let r = &single_rolling;
                match phase {
                    Phase::WarmStart => single::warm_start(&states, cs, r),
                    Phase::Solve => single::solve::<true>(&states, cs, r, inv_h, push_max),
                    Phase::Relax => single::solve::<false>(&states, cs, r, inv_h, push_max),
                    Phase::Restitution => {
                        single::apply_restitution(&states, cs, single_aux, threshold)
                    }
                }
            }
            Work::StoreWide => {
                // SAFETY: each constraint is in one block of the stage, and writes only
                // its own contacts.
                let cs = unsafe { wide.slice(items.clone()) };
                wide::store_impulses(lanes, &contacts, cs, &wide_aux[items], &wide_rolling);
            }
            Work::StoreSingle => {
                // SAFETY: the stage's one block.
                let cs = unsafe { single.slice(0..sn) };
                single::store_impulses(&contacts, cs, single_aux, &single_rolling);
            }
        }
    };
    // Two plans, so the profile keeps the substeps' time apart from the rest.
    let substeps_plan = StagePlan {
        body: &body.stages[..body.len],
        repeats: substeps,
        tail: &[],
    };
    tasks.run_plan(&substeps_plan, 32, &run);
    let solve_ms = t.elapsed_ms();
    let t = Timer::start();
    let tail_plan = StagePlan {
        body: &[],
        repeats: 0,
        tail: &tail.stages[..tail.len],
    };
    tasks.run_plan(&tail_plan, 32, &run);
    world.profile.solve = solve_ms;
    world.profile.restitution = t.elapsed_ms();
    world.counters.rotation_clamps = rotation_clamps.into_inner();
}

/// Collects the awake moving bodies in slot order (the awake set's) and their per-step
/// constants.
#[inline(never)]
fn gather_awake_set(world: &mut World, h: f32) {
    let gravity = world.def.gravity;
    let s = &mut world.solver;
    // The areas each body overlapped at the end of the last step: by body, then highest
    // priority first, then sensor slot.
    let links = &mut s.area_links;
    links.clear();
    for &key in world.sensors.pairs.iter() {
        let (sensor, visitor) = ((key >> 32) as u32, key as u32);
        let solid = !world.shapes[visitor as usize].is_sensor;
        if let Some(a) = world.shapes[sensor as usize]
            .area
            .as_ref()
            .filter(|_| solid)
        {
            let ok = links.push((world.shapes[visitor as usize].body, a.priority, sensor));
            debug_assert!(ok);
        }
    }
    links.sort_unstable_by_key(|x| (x.0, -(x.1 as i64), x.2));
    // Each awake body's index, in slot order: where each word of the awake bits starts.
    let words = world.awake.moving_words();
    s.word_starts.clear();
    let mut n = 0;
    for &word in words {
        let ok = s.word_starts.push(n);
        debug_assert!(ok, "a start per word of the awake bits");
        n += word.count_ones();
    }
    let n = n as usize;
    // The entries the last step left are reused: each is made whole below.
    s.states.resize(n, BodyState::default());
    s.params.resize(n, BodyParams::default());
    s.solver_bodies_next.resize(n, NONE);
    // Where each body starts the step, for continuous collision.
    s.ccd_start
        .resize(n, (crate::math::DVec3::ZERO, Quat::IDENTITY));
    let bodies = &world.bodies;
    {
        // By runs of words, each over its own slots: the last step's indices of those
        // slots cleared (only the last step's solver bodies can hold one), then each
        // awake body's index, and — without areas — its constants from itself alone.
        let areas = !links.is_empty();
        let (before, word_starts) = (&s.solver_bodies[..], &s.word_starts[..]);
        let index = Slots::new(&mut s.solver_index[..]);
        let next = Slots::new(&mut s.solver_bodies_next[..n]);
        let states = Slots::new(&mut s.states[..]);
        let params = Slots::new(&mut s.params[..]);
        let starts = Slots::new(&mut s.ccd_start[..n]);
        world.tasks.for_blocks(words.len(), 4, &|range| {
            for w in range {
                let (lo, hi) = ((w as u32) << 6, ((w as u32) << 6) + 64);
                let from = before.partition_point(|&b| b < lo);
                for &slot in before[from..].iter().take_while(|&&b| b < hi) {
                    // SAFETY: slot `slot` is in word `w`, handed out once.
                    *unsafe { index.get(slot as usize) } = NONE;
                }
                let slots = crate::solver::awake::Bits::new(words[w], w);
                for (k, slot) in (word_starts[w] as usize..).zip(slots) {
                    // SAFETY: slot `slot` is in word `w`, and index `k` is one of the word's
                    // bodies: each handed out once.
                    unsafe {
                        *index.get(slot as usize) = k as u32;
                        *next.get(k) = slot;
                        let p = params.get(k);
                        p.body = slot;
                        if !areas {
                            let b = &bodies[slot as usize];
                            *starts.get(k) = (b.position, b.rotation);
                            let folds =
                                (Fold::new(Vec3::ZERO), Fold::new(0.0f32), Fold::new(0.0f32));
                            (*states.get(k), *p) = solver_body(b, slot, gravity, folds, h);
                        }
                    }
                }
            }
        });
    }
    core::mem::swap(&mut s.solver_bodies, &mut s.solver_bodies_next);
    if !links.is_empty() {
        let mut cursor = 0;
        for k in 0..s.params.len() {
            let i = s.params[k].body as usize;
            let b = &bodies[i];
            // Areas over this body (each sensor once, though several shapes may
            // overlap it).
            while cursor < links.len() && (links[cursor].0 as usize) < i {
                cursor += 1;
            }
            let mut g = Fold::new(Vec3::ZERO);
            let mut ld = Fold::new(0.0f32);
            let mut ad = Fold::new(0.0f32);
            let com = b.position + b.center_offset().to_f64();
            let mut last_sensor = NONE;
            while cursor < links.len() && links[cursor].0 as usize == i {
                let sensor = links[cursor].2;
                cursor += 1;
                if sensor == last_sensor {
                    continue;
                }
                last_sensor = sensor;
                let shape = &world.shapes[sensor as usize];
                let Some(a) = &shape.area else { continue };
                let owner = &world.bodies[shape.body as usize];
                g.apply(
                    a.gravity_mode,
                    gravity_at(&a.gravity, owner.position, owner.rotation, com),
                );
                ld.apply(a.linear_damping_mode, a.linear_damping);
                ad.apply(a.angular_damping_mode, a.angular_damping);
            }
            s.ccd_start[k] = (b.position, b.rotation);
            (s.states[k], s.params[k]) = solver_body(b, i as u32, gravity, (g, ld, ad), h);
        }
    }
    world.counters.awake_body_count = s.states.len() as u32;
}

/// An awake body's state and per-step constants, given the areas' gravity and damping
/// folds over it and the substep `h`.
#[inline(always)]
fn solver_body(
    b: &crate::body::Body,
    slot: u32,
    gravity: Vec3,
    (g, ld, ad): (Fold<Vec3>, Fold<f32>, Fold<f32>),
    h: f32,
) -> (BodyState, BodyParams) {
    debug_assert!(b.is_moving());
    let dynamic = b.body_type == BodyType::Dynamic;
    let lin_mask = b.locks.linear_mask();
    let ang_mask = b.locks.angular_mask();
    let (body_gravity, linear_damping, angular_damping) = if b.custom_integrator {
        // The host integrates gravity and damping itself.
        (Vec3::ZERO, 0.0, 0.0)
    } else {
        (
            g.finish(gravity) * b.gravity_scale,
            ld.finish(b.linear_damping),
            ad.finish(b.angular_damping),
        )
    };
    let (inv_mass, inv_inertia, linear_accel, angular_accel) = if dynamic {
        // World inverse inertia R I⁻¹ Rᵀ, with locked world axes taken out: P I⁻¹ P.
        let ii = b.inv_inertia_local.rotate_tensor(b.rotation);
        let p = Mat3::diagonal(ang_mask);
        let ii = p.mul_mat(&ii).mul_mat(&p);
        let lin = (body_gravity + b.force * b.inv_mass).mul_elements(lin_mask);
        let ang = ii.mul_vec(b.torque);
        (lin_mask * b.inv_mass, ii, lin, ang)
    } else {
        (Vec3::ZERO, Mat3::ZERO, Vec3::ZERO, Vec3::ZERO)
    };
    (
        BodyState::new(b.linear_velocity, b.angular_velocity),
        BodyParams {
            body: slot,
            dynamic,
            inv_mass,
            inv_inertia,
            linear_accel,
            angular_accel,
            linear_damping: 1.0 / (1.0 + h * linear_damping),
            angular_damping: 1.0 / (1.0 + h * angular_damping),
            linear_mask: lin_mask,
            angular_mask: ang_mask,
            max_extent: b.max_extent,
        },
    )
}

/// Advances a body's velocity by one substep; true when a speed limit cut it.
#[inline(never)]
fn integrate_velocity(st: &mut BodyState, p: &BodyParams, h: f32, max_speed: f32) -> bool {
    if !p.dynamic {
        return false;
    }
    // Box2D's implicit damping: v ← (v + h a) / (1 + h c).
    let (ld, ad) = (p.linear_damping, p.angular_damping);
    let mut v = (st.v + p.linear_accel * h) * ld;
    let w = (st.w + p.angular_accel * h) * ad;
    let capped = cap_speed(&mut v, max_speed);
    st.v = v.mul_elements(p.linear_mask);
    // Angular speeds stay within the range calls accept (and snapshots hold).
    let limit = crate::limits::MAX_VELOCITY;
    let capped = capped | (w.abs().max_element() > limit);
    st.w = crate::limits::clamp_abs(w, limit).mul_elements(p.angular_mask);
    capped
}

/// Brings `v` within speed `max` (by its largest component first, so a velocity too large
/// to square comes within range); true if it had to.
#[inline(always)]
pub(crate) fn cap_speed(v: &mut Vec3, max: f32) -> bool {
    let mut capped = false;
    let m = v.abs().max_element();
    if m > max {
        *v *= max / m;
        capped = true;
    }
    let speed2 = v.length_squared();
    if speed2 > max * max {
        *v *= max / sqrt(speed2);
        capped = true;
    }
    capped
}

/// A dynamic body's velocities within the world's caps: linear speed `max_speed`, angular
/// speed `MAX_ANGULAR_SPEED`. The constraint rows of a substep may push past them (they
/// only keep components within `MAX_VELOCITY`); this runs before positions move and on
/// the velocities a step stores, so no body travels or ends a step faster than the caps.
#[inline(always)]
fn cap_body_speeds(st: &mut BodyState, max_speed: f32) -> bool {
    let a = cap_speed(&mut st.v, max_speed);
    let b = cap_speed(&mut st.w, crate::limits::MAX_ANGULAR_SPEED);
    a | b
}

/// Advances a body's position by one substep, a dynamic body's speeds first brought
/// within the caps; returns whether a speed cap acted and whether the rotation cap (a
/// quarter turn per substep) cut its angular velocity.
#[inline(never)]
fn integrate_position(
    st: &mut BodyState,
    p: &BodyParams,
    h: f32,
    max_rotation: f32,
    max_speed: f32,
) -> (bool, bool) {
    let capped = p.dynamic && cap_body_speeds(st, max_speed);
    let mut w = st.w;
    let m = w.abs().max_element();
    let mut clamped = m * h > max_rotation;
    if clamped {
        w *= max_rotation / (h * m);
    }
    // Cap the rotation of one substep so the quaternion update stays accurate.
    let w2 = w.length_squared();
    if w2 * h * h > max_rotation * max_rotation {
        clamped = true;
        w *= max_rotation / (h * sqrt(w2));
    }
    if clamped {
        // The body keeps the angular velocity it turned with: one that turned less than
        // its velocity says would leave the joints a position error to push out, every
        // substep (energy from nowhere).
        st.w = w;
    }
    st.dq = st.dq.integrate(w, h);
    st.dp += st.v * h;
    (capped, clamped)
}

/// How many bodies ahead finalize asks for a body's first shape (the body itself twice
/// as far ahead).
const FINALIZE_AHEAD: usize = 4;

/// Asks the cache for the lines of a body that finalize reads and writes first.
#[inline(always)]
fn prefetch_body(b: *const Body) {
    use core::mem::offset_of;
    let p = b.cast::<u8>();
    for offset in [
        offset_of!(Body, position),
        offset_of!(Body, rotation),
        offset_of!(Body, linear_velocity),
        offset_of!(Body, shape_head),
        offset_of!(Body, sleep_time),
    ] {
        lanes::prefetch(p.wrapping_add(offset));
    }
}

/// Asks the cache for the lines of a shape that finalize's bounds update reads.
#[inline(always)]
fn prefetch_shape_bounds(s: *const crate::shape::Shape) {
    use core::mem::offset_of;
    let p = s.cast::<u8>();
    for offset in [
        offset_of!(crate::shape::Shape, fat_aabb),
        offset_of!(crate::shape::Shape, geometry),
        offset_of!(crate::shape::Shape, next_in_body),
        offset_of!(crate::shape::Shape, proxy),
    ] {
        lanes::prefetch(p.wrapping_add(offset));
    }
}

/// The broad phase for one block of finalize at a time: a spin lock that lets go when
/// its holder finishes or panics.
struct BroadLock<'a> {
    busy: core::sync::atomic::AtomicBool,
    broad: *mut crate::broad_phase::BroadPhase,
    _life: core::marker::PhantomData<&'a mut crate::broad_phase::BroadPhase>,
}

// SAFETY: the broad phase is reached only through `with`, by one holder at a time.
unsafe impl Sync for BroadLock<'_> {}

impl<'a> BroadLock<'a> {
    fn new(broad: &'a mut crate::broad_phase::BroadPhase) -> BroadLock<'a> {
        BroadLock {
            busy: core::sync::atomic::AtomicBool::new(false),
            broad,
            _life: core::marker::PhantomData,
        }
    }

    fn with(&self, f: impl FnOnce(&mut crate::broad_phase::BroadPhase)) {
        use core::sync::atomic::AtomicBool;
        let mut spins = 0u32;
        while self
            .busy
            .compare_exchange_weak(false, true, Ordering::Acquire, Ordering::Relaxed)
            .is_err()
        {
            spins += 1;
            if spins < 64 {
                core::hint::spin_loop();
            } else {
                std::thread::yield_now();
            }
        }
        struct Release<'b>(&'b AtomicBool);
        impl Drop for Release<'_> {
            fn drop(&mut self) {
                self.0.store(false, Ordering::Release);
            }
        }
        let _release = Release(&self.busy);
        // SAFETY: the lock hands the broad phase to one holder at a time, and nothing
        // else reaches it while the lock lives (it borrows it mutably).
        f(unsafe { &mut *self.broad });
    }
}

/// Writes the substeps' results back into the bodies: positions advance on the 2^-32
/// grid, so a shifted world steps exactly like the unshifted one. Then refreshes bounds
/// and fills the move buffer.
#[inline(never)]
fn finalize_bodies(world: &mut World, dt: f32, max_speed: f32, speed_caps: &AtomicU32) {
    let count = world.solver.states.len();
    world.solver.grown.resize(count, [NONE; 2]);
    world.solver.fast.resize(count, 0);
    {
        // Each body writes itself and its own shapes' bounds: any split, same bits.
        let states = &world.solver.states;
        let params = &world.solver.params;
        let hulls = &world.content.hulls;
        let bodies = Slots::new(&mut world.bodies);
        let shapes = Slots::new(&mut world.shapes);
        let starts = &world.solver.ccd_start;
        let grown = Slots::new(&mut world.solver.grown[..count]);
        let fast = Slots::new(&mut world.solver.fast[..count]);
        let sleep_times = Slots::new(&mut world.solver.island_sleep[..count]);
        let enable_sleep = world.def.enable_sleep;
        let broad = BroadLock::new(&mut world.broad);
        let one = |k: usize| {
            // The bodies (and their shapes) lie scattered through their pools in solver
            // order: ask for a body well ahead, and for its first shape once the body
            // has had time to arrive. Hints only.
            if let Some(p) = params.get(k + 2 * FINALIZE_AHEAD) {
                prefetch_body(bodies.ptr(p.body as usize));
            }
            if let Some(p) = params.get(k + FINALIZE_AHEAD) {
                let b = bodies.ptr(p.body as usize);
                if !b.is_null() {
                    // SAFETY: in bounds (not null); one plain field read through the raw
                    // pointer (another piece may be finalizing that body, but no piece
                    // writes a body's shape list).
                    let head = unsafe { core::ptr::addr_of!((*b).shape_head).read() };
                    let s = shapes.ptr(head as usize);
                    if !s.is_null() {
                        prefetch_shape_bounds(s);
                    }
                }
            }
            let mut st = states[k];
            // Relax and restitution ran after the last position update: the stored
            // velocities keep the caps too.
            if params[k].dynamic && cap_body_speeds(&mut st, max_speed) {
                speed_caps.fetch_add(1, Ordering::Relaxed);
            }
            let bi = params[k].body as usize;
            // SAFETY: every solver body is a distinct body slot.
            let b = unsafe { bodies.get(bi) };
            let q0 = b.rotation;
            let q1 = (st.dq * q0).normalize();
            let c0 = q0.rotate(b.local_center);
            let c1 = q1.rotate(b.local_center);
            // Origin moves by the centre's displacement minus the change of the offset.
            let delta = st.dp + (c0 - c1);
            b.position = b.position + round_vec_to_grid(delta);
            b.rotation = q1;
            b.linear_velocity = st.v;
            b.angular_velocity = st.w;
            b.force = Vec3::ZERO;
            b.torque = Vec3::ZERO;
            let mut shape = b.shape_head;
            let mut first = [NONE; 2];
            while shape != NONE {
                // SAFETY: a shape belongs to one body, and this piece owns that body.
                let s = unsafe { shapes.get(shape as usize) };
                let local = crate::shape::local_aabb(s, hulls, b.rotation);
                let aabb = DAabb::from_local(b.position, &local);
                if !s.fat_aabb.contains(&aabb) {
                    s.fat_aabb = DAabb::from_local(b.position, &local.inflate(AABB_MARGIN));
                    s.grew = true;
                    if first[0] == NONE {
                        first = [shape, grown_proxy(s.proxy, s.tree)];
                    }
                }
                shape = s.next_in_body;
            }
            // SAFETY: each body is one item.
            *unsafe { grown.get(k) } = first;
            let sweep = if !params[k].dynamic {
                0
            } else if b.bullet {
                continuous::SWEPT_BULLET
            } else if continuous::moved_far(starts[k], b) {
                continuous::SWEPT
            } else {
                0
            };
            // SAFETY: each body is one item.
            *unsafe { fast.get(k) } = sweep;
            if params[k].dynamic {
                // The sleep timer, from the speeds the solver left (before the caps).
                let st = &states[k];
                let speed = st.v.length() + params[k].max_extent * st.w.length();
                if !enable_sleep || !b.enable_sleep || speed > b.sleep_threshold {
                    b.sleep_time = 0.0;
                } else {
                    b.sleep_time += dt;
                }
            }
            // SAFETY: each body is one item.
            *unsafe { sleep_times.get(k) } = b.sleep_time;
        };
        let block = |_: crate::task::StageRef, items: core::ops::Range<usize>| {
            for k in items.clone() {
                one(k);
            }
            // Then the block's grown proxies, in the trees (one block at a time) and the
            // move buffer. A tree ends the same whatever order its leaves are enlarged in
            // (each ancestor's box becomes the union of its old box and every new leaf box
            // below it, and every ancestor of an enlarged leaf is marked), and the move
            // buffer is sorted before use, so the blocks may take turns in any order.
            broad.with(|broad| {
                // The work is chasing pointers (a shape's leaf and the leaf's ancestors), so
                // the bodies ahead have their first grown shape's leaf fetched, and nearer
                // ones the leaf's parent and grandparent.
                const AHEAD: usize = 6;
                let end = items.end;
                for k in items {
                    for up in 0..3 {
                        let ahead = k + (3 - up) * AHEAD;
                        if ahead < end {
                            // SAFETY: an entry of this block, written above; read only.
                            let [shape, proxy] = unsafe { *grown.ptr(ahead) };
                            if shape != NONE {
                                let (tree, id) = split_grown_proxy(proxy);
                                broad.tree(tree).prefetch_ancestor(id, up as u32);
                            }
                        }
                    }
                    // SAFETY: each body is one item; its entry was written above.
                    let mut shape = unsafe { grown.get(k) }[0];
                    while shape != NONE {
                        // SAFETY: a shape belongs to one body, and this block owns that
                        // body (its bounds were written above).
                        let s = unsafe { shapes.get(shape as usize) };
                        let next = s.next_in_body;
                        if s.grew {
                            s.grew = false;
                            let fat = s.fat_aabb;
                            // `World::step` refuses a step that could carry a body this far.
                            debug_assert!(
                                crate::math::max_f64(fat.lower.max_abs(), fat.upper.max_abs())
                                    < crate::math::POSITION_LIMIT
                            );
                            if s.proxy != NONE {
                                let ok = broad.tree_mut(s.tree).enlarge_proxy(s.proxy, fat).is_ok();
                                debug_assert!(ok);
                            }
                            if !s.enlarged {
                                s.enlarged = true;
                                let ok = broad.moved.push(shape);
                                debug_assert!(ok, "move buffer holds 2 × shape capacity");
                            }
                        }
                        shape = next;
                    }
                }
            });
        };
        let workers = world.tasks.hooks.map_or(1, |h| h.worker_count);
        let stages = [crate::task::Stage::split(count, 64, workers)];
        let plan = crate::task::StagePlan {
            body: &[],
            repeats: 0,
            tail: &stages,
        };
        world.tasks.run_plan(&plan, 64, &block);
    }
}

/// A grown shape's proxy and tree in one word (the tree in the top bit; `NONE` for a
/// shape without a proxy), for [`SolverScratch::grown`].
fn grown_proxy(proxy: u32, tree: u8) -> u32 {
    if proxy == NONE {
        NONE
    } else {
        proxy | (u32::from(tree) << 31)
    }
}

/// The tree and proxy of a [`grown_proxy`] word (`NONE` stays `NONE`).
fn split_grown_proxy(word: u32) -> (u8, u32) {
    if word == NONE {
        (0, NONE)
    } else {
        ((word >> 31) as u8, word & !(1 << 31))
    }
}

/// Builds the step's constraints: each colour in groups of `WIDE` (one at a time in the
/// overflow colour or when `one_at_a_time`), lanes in colour order, groups in colour order.
///
/// The contacts are read in slot order, each into its colour's group being filled, which
/// is prepared once full: a colour's contacts lie scattered through the contact array, and
/// reading them colour by colour stalled on memory. Every group gets the same lanes in the
/// same order either way. Each group writes only its own slot (and appends its rolling
/// data).
fn prepare_contacts(world: &mut World, soft: Softness, static_soft: Softness) {
    let s = &mut world.solver;
    let single_path = |color: usize| color == OVERFLOW || s.one_at_a_time;
    // Where each colour's groups start, and how many of its contacts are still to come.
    let mut next = [0usize; COLOR_COUNT];
    let mut left = [0usize; COLOR_COUNT];
    let (mut wide_count, mut single_count) = (0, 0);
    for color in 0..COLOR_COUNT {
        let n = (s.color_starts[color + 1] - s.color_starts[color]) as usize;
        left[color] = n;
        s.wide_starts[color] = wide_count as u32;
        if single_path(color) {
            next[color] = single_count;
            single_count += n;
        } else {
            next[color] = wide_count;
            wide_count += n.div_ceil(WIDE);
        }
    }
    s.wide_starts[COLOR_COUNT] = wide_count as u32;
    let one_at_a_time = s.one_at_a_time;
    let lanes = s.lanes;
    let c = &mut s.constraints;
    c.wide.begin(wide_count);
    c.single.begin(single_count);
    let ctx = PrepareContext {
        contacts: &world.contacts,
        shapes: &world.shapes,
        solver_index: &s.solver_index,
        params: &s.params,
        states: &s.states,
        soft,
        static_soft,
        friction_rule: world.def.friction_combine,
        restitution_rule: world.def.restitution_combine,
    };
    if world.tasks.hooks.is_some_and(|h| h.worker_count > 1) {
        let firsts = Firsts {
            wide: next,
            color: s.color_starts,
        };
        prepare_in_parallel(
            &mut world.tasks,
            c,
            &ctx,
            &s.constraint_contact,
            &firsts,
            one_at_a_time,
            lanes,
        );
        return;
    }
    let mut filled = [0usize; COLOR_COUNT];
    let touching = &s.touching[..];
    for (i, (&slot, &color)) in touching.iter().zip(s.touching_color.iter()).enumerate() {
        // The touching contacts lie scattered through the contact array, and their bodies
        // through the solver's: ask for a contact well ahead, and for what lies behind it
        // (its bodies and shapes) once it has had time to arrive. Hints only.
        if let Some(&ahead) = touching.get(i + 2 * PREPARE_AHEAD) {
            lanes::prefetch(ctx.contacts.as_ptr().wrapping_add(ahead as usize));
        }
        if let Some(&ahead) = touching.get(i + PREPARE_AHEAD) {
            LaneInput::prefetch_behind(&ctx, ahead);
        }
        let color = color as usize;
        let base = color * lanes::MAX_WIDTH;
        let pending = &mut s.pending[base..base + lanes::MAX_WIDTH];
        pending[filled[color]].read(&ctx, slot);
        filled[color] += 1;
        left[color] -= 1;
        let single = color == OVERFLOW || one_at_a_time;
        if !single && filled[color] < WIDE && left[color] > 0 {
            continue;
        }
        let lane = <&mut [LaneInput; lanes::MAX_WIDTH]>::try_from(pending).unwrap();
        let k = next[color];
        if single {
            let b = &mut c.single;
            let (c, aux, r) = (&mut b.constraints[k], &mut b.aux[k], &mut b.rolling[k]);
            single::prepare(lane, k, c, aux, r);
        } else {
            let b = &mut c.wide;
            let (c, aux, r) = (&mut b.constraints[k], &mut b.aux[k], &mut b.rolling[k]);
            wide::prepare(lanes, lane, k, c, aux, r);
        }
        next[color] += 1;
        lane[..filled[color]].fill(LaneInput::EMPTY);
        filled[color] = 0;
    }
    debug_assert!(left.iter().all(|&n| n == 0));
}

/// How many touching contacts ahead the serial prepare asks for what a contact's lane
/// reads behind it (the contacts themselves twice as far ahead).
const PREPARE_AHEAD: usize = 4;

/// Where each colour's constraints start (in the wide or the single batch, as the colour
/// is solved) and its contacts in `constraint_contact`.
struct Firsts {
    wide: [usize; COLOR_COUNT],
    color: [u32; COLOR_COUNT + 1],
}

/// `prepare_contacts` through the task hooks: each constraint reads its colour's contacts
/// straight from the colour-ordered list (the same lanes in the same order as the serial
/// fill) and writes only its own slots.
fn prepare_in_parallel(
    tasks: &mut crate::task::Tasks,
    c: &mut Constraints,
    ctx: &PrepareContext,
    constraint_contact: &[u32],
    firsts: &Firsts,
    one_at_a_time: bool,
    lanes: SolverLanes,
) {
    let single_path = |color: usize| color == OVERFLOW || one_at_a_time;
    let (wn, sn) = (c.wide.count, c.single.count);
    let wide = Slots::new(&mut c.wide.constraints[..wn]);
    let wide_aux = Slots::new(&mut c.wide.aux[..wn]);
    let wide_rolling = Slots::new(&mut c.wide.rolling[..wn]);
    let single = Slots::new(&mut c.single.constraints[..sn]);
    let single_aux = Slots::new(&mut c.single.aux[..sn]);
    let single_rolling = Slots::new(&mut c.single.rolling[..sn]);
    // The contacts of constraint `item` (wide ones first, then single ones).
    let contacts_of = |item: usize| {
        let (k, is_single) = if item < wn {
            (item, false)
        } else {
            (item - wn, true)
        };
        // The colour whose constraints hold `k`: the last that starts at or before it.
        let mut color = 0;
        for c in 0..COLOR_COUNT {
            let empty = firsts.color[c + 1] == firsts.color[c];
            if single_path(c) == is_single && !empty && firsts.wide[c] <= k {
                color = c;
            }
        }
        let width = if is_single { 1 } else { WIDE };
        let first = firsts.color[color] as usize + (k - firsts.wide[color]) * width;
        let last = (first + width).min(firsts.color[color + 1] as usize);
        (k, is_single, &constraint_contact[first..last])
    };
    tasks.for_each(wn + sn, 8, &|item, _| {
        let (k, is_single, slots) = contacts_of(item);
        // The constraints after this one read contacts scattered through the contact
        // array, and bodies through the solver's: ask for the contacts two ahead, and for
        // the bodies and shapes behind the next one's (hints, no result depends on them),
        // one contact's hints beside each read: asked all at once (112 lines for a full
        // 8-wide lane) they outran the cache's miss buffers, and a worker spent a third
        // longer than the serial fill waiting (many_pyramids: 4.6 against 3.4 ms).
        let ahead = |d: usize| {
            if item + d < wn + sn {
                contacts_of(item + d).2
            } else {
                &[]
            }
        };
        let (far, near) = (ahead(2), ahead(1));
        let mut lane = [LaneInput::EMPTY; lanes::MAX_WIDTH];
        let reads = far.len().max(near.len()).max(slots.len());
        for (l, input) in lane.iter_mut().enumerate().take(reads) {
            if let Some(&slot) = far.get(l) {
                lanes::prefetch(ctx.contacts.as_ptr().wrapping_add(slot as usize));
            }
            if let Some(&slot) = near.get(l) {
                LaneInput::prefetch_behind(ctx, slot);
            }
            if let Some(&slot) = slots.get(l) {
                input.read(ctx, slot);
            }
        }
        // SAFETY: for_each hands each constraint out once; it writes only slot `k`.
        unsafe {
            if is_single {
                let (c, aux, r) = (single.get(k), single_aux.get(k), single_rolling.get(k));
                single::prepare(&lane, k, c, aux, r);
            } else {
                let (c, aux, r) = (wide.get(k), wide_aux.get(k), wide_rolling.get(k));
                wide::prepare(lanes, &lane, k, c, aux, r);
            }
        }
    });
}

#[cfg(test)]
mod timing {
    //! Stage timings of the solver on the large pyramid (5,050 boxes; with
    //! `MAUL3D_TIMING_MANY` set, 196 pyramids of 55 boxes as many_pyramids), each the
    //! fastest of many repetitions so that a busy machine's preemptions drop out; the
    //! contacts' prepare also through hooks that run every piece inline (the parallel
    //! path's own cost on one thread). Not a test of behaviour: run by hand with
    //! `cargo test --release -p maul3d --lib solver_stage_timings -- --ignored --nocapture`.
    #![allow(clippy::disallowed_methods)] // measuring, not simulating

    use super::*;
    use crate::math::DVec3;
    use crate::{BodyDef, ShapeDef, WorldDef};

    fn fastest(reps: usize, mut f: impl FnMut()) -> f64 {
        let mut best = f64::MAX;
        for _ in 0..reps {
            let t = std::time::Instant::now();
            f();
            best = best.min(t.elapsed().as_secs_f64() * 1000.0);
        }
        best
    }

    #[test]
    #[ignore]
    fn solver_stage_timings() {
        let mut world = World::new(&WorldDef {
            enable_sleep: false,
            body_capacity: 11000,
            shape_capacity: 11000,
            contact_capacity: 8 * 11000 + 1024,
            pair_capacity: 16 * 11000 + 1024,
            ..Default::default()
        })
        .unwrap();
        let ground = world
            .create_body(&BodyDef {
                position: DVec3::new(0.0, -1.0, 0.0),
                ..Default::default()
            })
            .unwrap();
        world
            .create_box_shape(ground, &ShapeDef::default(), Vec3::new(400.0, 1.0, 400.0))
            .unwrap();
        let shape = ShapeDef {
            density: 100.0,
            ..Default::default()
        };
        let many = std::env::var_os("MAUL3D_TIMING_MANY").is_some();
        let (grid, base) = if many { (14, 10) } else { (1, 100) };
        for r in 0..grid {
            for q in 0..grid {
                for i in 0..base {
                    for j in i..base {
                        let x = (i as f64 + 1.0) * 0.5 + (j - i) as f64 - 50.0 + 12.0 * q as f64;
                        let b = world
                            .create_body(&BodyDef {
                                body_type: BodyType::Dynamic,
                                position: DVec3::new(x, (2 * i + 1) as f64 * 0.5, 3.0 * r as f64),
                                ..Default::default()
                            })
                            .unwrap();
                        world.create_box_shape(b, &shape, Vec3::splat(0.5)).unwrap();
                    }
                }
            }
        }
        let (dt, substeps) = (1.0 / 60.0, 4u32);
        for _ in 0..30 {
            world.step(dt, substeps).unwrap();
        }
        let h = dt / substeps as f32;
        let def = world.def;
        let contact_hertz = crate::math::min(def.contact_hertz, 0.25 * substeps as f32 / dt);
        let soft = make_soft(contact_hertz, def.contact_damping_ratio, h);
        let static_soft = make_soft(2.0 * contact_hertz, def.contact_damping_ratio, h);
        let (inv_h, push, speed) = (1.0 / h, def.contact_push_max_speed, def.max_linear_speed);
        let reps = 40;
        let gather = fastest(reps, || gather_awake_set(&mut world, h));
        let color = fastest(reps, || color_constraints(&mut world));
        let prepare = fastest(reps, || prepare_contacts(&mut world, soft, static_soft));
        // The parallel prepare's own cost, its pieces run inline on this thread.
        unsafe extern "C" fn inline(
            task: crate::task::TaskFn,
            count: u32,
            _min_range: u32,
            context: *mut core::ffi::c_void,
            _user: *mut core::ffi::c_void,
        ) -> *mut core::ffi::c_void {
            // SAFETY: the hook's contract: the whole range once.
            unsafe { task(0, count, 0, context) };
            core::ptr::null_mut()
        }
        unsafe extern "C" fn finish(_: *mut core::ffi::c_void, _: *mut core::ffi::c_void) {}
        let serial_tasks = core::mem::replace(
            &mut world.tasks,
            crate::task::Tasks::new(
                Some(crate::task::TaskHooks {
                    enqueue_task: inline,
                    finish_task: finish,
                    user_context: core::ptr::null_mut(),
                    worker_count: 2,
                }),
                world.def.contact_capacity as usize,
                crate::alloc::WorldAlloc::Global,
            )
            .unwrap(),
        );
        color_constraints(&mut world);
        let prepare_inline = fastest(reps, || prepare_contacts(&mut world, soft, static_soft));
        world.tasks = serial_tasks;
        color_constraints(&mut world);
        let s = &mut world.solver;
        let c = &mut s.constraints;
        let n = c.wide.count;
        let wide = &mut c.wide.constraints[..n];
        let aux = &c.wide.aux[..n];
        let rolling = Slots::new(&mut c.wide.rolling[..]);
        let params = &s.params;
        let states_vec = &mut s.states;
        let integrate = fastest(reps, || {
            for (st, p) in states_vec.iter_mut().zip(params.iter()) {
                integrate_velocity(st, p, h, speed);
            }
        }) + fastest(reps, || {
            for (st, p) in states_vec.iter_mut().zip(params.iter()) {
                integrate_position(st, p, h, 0.25 * crate::math::PI, speed);
            }
        });
        let states = Slots::new(&mut states_vec[..]);
        let lanes = s.lanes;
        let warm = fastest(reps, || wide::warm_start(lanes, &states, wide, &rolling));
        let solve = fastest(reps, || {
            wide::solve::<true>(lanes, &states, wide, &rolling, inv_h, push)
        });
        let relax = fastest(reps, || {
            wide::solve::<false>(lanes, &states, wide, &rolling, inv_h, push)
        });
        let restitution = fastest(reps, || {
            wide::apply_restitution(lanes, &states, wide, aux, def.restitution_threshold)
        });
        let contacts = Slots::new(&mut world.contacts[..]);
        let store = fastest(reps, || {
            wide::store_impulses(lanes, &contacts, wide, aux, &rolling)
        });
        let k = substeps as f64;
        let step =
            gather + color + prepare + k * (integrate + warm + solve + relax) + restitution + store;
        println!(
            "fastest of {reps}, ms: gather {gather:.3} colour {color:.3} prepare {prepare:.3} \
             (through inline hooks {prepare_inline:.3}) \
             | per substep: integrate {integrate:.3} warm {warm:.3} solve {solve:.3} \
             relax {relax:.3} | restitution {restitution:.3} store {store:.3} \
             | per step {step:.2} ({} constraints)",
            wide.len()
        );
    }
}
