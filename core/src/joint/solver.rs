//! Solving joints: preparing them each step, the warm start / solve / relax passes over
//! all joints (each kind's rows are in its own file, built from `rows.rs` and
//! `blocks.rs`), and after the substeps reactions and breaking.
//!
//! As Box2D v3: each joint keeps its anchors relative to the centres of mass in world
//! orientation at the start of the step (`frame_a`, `frame_b`) and the difference of the
//! centres (`delta_center`); a substep measures the current error from each body's own
//! motion within the step (`dp`, `dq`), so large coordinates never cancel. Rigid rows are
//! soft with the world's joint softness in the solve pass and stiff, without bias, in the
//! relax pass; springs keep their own softness in both; a limit not yet reached is
//! speculative (it allows the motion that closes the gap in one substep, no more).
//! The point constraint's effective mass is computed for the current anchors in every
//! pass, and joints under tension add the implicit part of their geometric stiffness to
//! their bodies' inertia as the rows see it (`tension_terms`), so a chain of light
//! links holding a heavy weight neither rings nor gains energy.
//!
//! Bounded by construction, whatever the input: every accumulated impulse stays within
//! `MAX_IMPULSE` and every velocity a row writes within `MAX_VELOCITY` (the ranges calls
//! and snapshots accept), and the inverses give zero rather than infinity, so even a joint
//! torn apart by absurd settings cannot overflow into NaN.
//!
//! Joints are coloured as contacts are (in joint slot order, no two joints of a colour
//! sharing a dynamic body) and solved colour by colour before the contact colours, each
//! colour's joints spread over the host's workers; the overflow's one after another. The
//! order is a pure function of state, so any thread count gives the same bits.

use super::{Joint, JointBreakEvent, JointImpulses, JointKind};
use super::{cone_twist, distance, prismatic, revolute, six_dof, spherical, weld, wheel};
use crate::body::{Body, NONE};
use crate::math::{Mat3, Transform, Vec3};
use crate::solver::constraint_graph::{COLOR_COUNT, OVERFLOW};
use crate::solver::contact_solver::Softness;
use crate::solver::{BodyState, SolverScratch};
use crate::task::Slots;
use crate::world::World;

pub(super) const SPHERICAL: u8 = 0;

/// Body states of the awake set, as the substep loop shares them.
pub(crate) type States<'a> = Slots<'a, BodyState>;

/// A body that does not move this step (static, asleep, disabled): it reads as still
/// and takes nothing.
const FIXED: BodyState = BodyState::new(Vec3::ZERO, Vec3::ZERO);

/// One joint prepared for the substeps (not state: rebuilt every step). What every kind
/// reads comes first, so a spherical joint's passes read only the first four cache lines;
/// the kind's own settings stay in the joint, its impulses in `SolverScratch::joint_impulses`.
#[derive(Clone, Copy, Debug, Default)]
#[repr(C)]
pub(crate) struct JointConstraint {
    /// Joint slot.
    pub slot: u32,
    /// Solver index of each body, `NONE` when it does not move this step.
    pub index_a: u32,
    pub index_b: u32,
    /// Whether the body takes impulses (dynamic and awake); kinematic bodies are read.
    pub write_a: bool,
    pub write_b: bool,
    /// The kind (`JointKind::tag`), so spherical joints never read their joint.
    pub kind: u8,
    /// Inverse masses per world axis (zero on a locked axis) and world inverse inertias.
    pub ma: Vec3,
    pub mb: Vec3,
    pub ia: Mat3,
    pub ib: Mat3,
    /// Each joint frame at the start of the step: the anchor relative to the body's
    /// centre of mass and the frame's axes, both in world orientation.
    pub frame_a: Transform,
    pub frame_b: Transform,
    /// Centre of mass of B minus that of A at the start of the step.
    pub delta_center: Vec3,
    /// The world's joint softness for rigid rows.
    pub soft: Softness,
    /// The point rows' softness of a spherical or revolute joint with an own pivot
    /// softness (`own_pivot`: then soft in both passes); otherwise `soft`.
    pub pivot: Softness,
    pub own_pivot: bool,
    /// `(I_a⁻¹ + I_b⁻¹)⁻¹`, for kinds with a three-row angular block.
    pub angular_mass: Mat3,
    /// Spring softness per axis (the kind's file says which).
    pub springs: [Softness; 6],
}

/// Where this step's joints lie in `joint_constraints`, colour by colour (the last the
/// overflow). Within a colour (but the overflow, which keeps slot order) they come by how
/// they are solved: the spherical, cone-twist and revolute ones in lanes, then those one
/// at a time from `single_starts` on; the groups of a colour's joints in lanes start at
/// `group_starts` in `joint_groups`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct JointLayout {
    pub color_starts: [u32; COLOR_COUNT + 1],
    pub single_starts: [u32; COLOR_COUNT],
    pub group_starts: [u32; COLOR_COUNT + 1],
}

impl JointLayout {
    pub(crate) const EMPTY: JointLayout = JointLayout {
        color_starts: [0; COLOR_COUNT + 1],
        single_starts: [0; COLOR_COUNT],
        group_starts: [0; COLOR_COUNT + 1],
    };
}

/// The joint stages of the substeps: each colour's groups in lanes, then its joints one
/// at a time; the overflow's (or all, without lanes) one after another.
pub(crate) struct JointPasses<'a> {
    constraints: &'a [JointConstraint],
    impulses: Slots<'a, JointImpulses>,
    groups: &'a [super::wide::JointGroup],
    rows: Slots<'a, super::wide::Row>,
    layout: JointLayout,
    joints: &'a [Joint],
    /// `None`: every joint one at a time.
    lanes: Option<crate::solver::lanes::SolverLanes>,
    solve: Pass,
    relax: Pass,
}

impl<'a> JointPasses<'a> {
    pub(crate) fn new(
        constraints: &'a [JointConstraint],
        impulses: &'a mut [JointImpulses],
        (groups, rows): (&'a [super::wide::JointGroup], &'a mut [super::wide::Row]),
        layout: JointLayout,
        joints: &'a [Joint],
        lanes: Option<crate::solver::lanes::SolverLanes>,
        h: f32,
    ) -> JointPasses<'a> {
        let solve = Pass {
            h,
            inv_h: 1.0 / h,
            use_bias: true,
        };
        JointPasses {
            constraints,
            impulses: Slots::new(impulses),
            groups,
            rows: Slots::new(rows),
            layout,
            joints,
            lanes,
            solve,
            relax: Pass {
                use_bias: false,
                ..solve
            },
        }
    }

    /// The items of each colour's joint stage: its groups, then its joints one at a time.
    pub(crate) fn items(&self) -> [u32; COLOR_COUNT] {
        let l = &self.layout;
        core::array::from_fn(|c| {
            if c == OVERFLOW || self.lanes.is_none() {
                l.color_starts[c + 1] - l.color_starts[c]
            } else {
                (l.group_starts[c + 1] - l.group_starts[c])
                    + (l.color_starts[c + 1] - l.single_starts[c])
            }
        })
    }

    /// Items `items` of colour `color`'s stage of a warm start (`warm`), solve (`solve`)
    /// or relax pass.
    pub(crate) fn run(
        &self,
        warm: bool,
        solve: bool,
        color: u8,
        items: core::ops::Range<usize>,
        states: &States,
    ) {
        let (c, l) = (color as usize, &self.layout);
        let pass = if solve { &self.solve } else { &self.relax };
        let one_by_one = |range: core::ops::Range<usize>| {
            // SAFETY: each joint is in one block of the stage, and the colour's joints
            // share no dynamic body (the overflow's run in one block).
            let impulses = unsafe { self.impulses.slice(range.clone()) };
            let cs = &self.constraints[range];
            if warm {
                warm_start_joints(cs, impulses, self.joints, states);
            } else {
                solve_joints(cs, impulses, self.joints, states, pass);
            }
        };
        let Some(lanes) = self.lanes.filter(|_| c != OVERFLOW) else {
            let a = l.color_starts[c] as usize;
            one_by_one(a + items.start..a + items.end);
            return;
        };
        let g = l.group_starts[c] as usize;
        let ng = l.group_starts[c + 1] as usize - g;
        if items.start < ng {
            let groups = super::wide::Groups {
                heads: &self.groups[g + items.start..g + items.end.min(ng)],
                rows: &self.rows,
            };
            let (cs, imp, js) = (self.constraints, &self.impulses, self.joints);
            if warm {
                super::wide::warm_start_groups(lanes, groups, cs, imp, js, states);
            } else {
                super::wide::solve_groups(lanes, groups, cs, imp, js, states, pass);
            }
        }
        if items.end > ng {
            let a = l.single_starts[c] as usize;
            one_by_one(a + items.start.max(ng) - ng..a + items.end - ng);
        }
    }
}

/// What a pass does: the substep and whether rigid rows correct position error.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Pass {
    pub h: f32,
    pub inv_h: f32,
    pub use_bias: bool,
}

#[inline(always)]
fn load(states: &States, k: u32) -> BodyState {
    if k == NONE {
        FIXED
    } else {
        // SAFETY: a joint pass runs one colour's joints (or the overflow's, in one block)
        // and no contact stage meanwhile: no other reference to this body's state is live.
        *unsafe { states.get(k as usize) }
    }
}

#[inline(always)]
fn store(states: &States, k: u32, write: bool, st: &BodyState) {
    if write {
        // SAFETY: as in `load`.
        *unsafe { states.get(k as usize) } = *st;
    }
}

/// Whether the joints are few next to the awake bodies (a ragdoll crowd, a joint grid):
/// then the colouring reads the joint slots in order, which finds the joints of the
/// solver's dynamic bodies already sorted without walking the bodies' lists.
fn dense(joints: &[Joint], s: &SolverScratch) -> bool {
    joints.len() <= 4 * s.params.len()
}

/// Whether `body` is a dynamic body of the solver.
#[inline(always)]
fn in_solver(s: &SolverScratch, body: u32) -> bool {
    let k = s.solver_index[body as usize];
    k != NONE && s.params[k as usize].dynamic
}

/// Gathers the joints of the solver's dynamic bodies into `s.joint_slots`, ascending and
/// each once (a joint between two such bodies is taken from body A's list): the only
/// joints that can act this step, so joints between resting bodies are not visited.
/// Nothing when the joints are `dense`: the colouring reads every slot instead.
fn gather_solver_joints(joints: &[Joint], bodies: &[Body], s: &mut SolverScratch) {
    s.joint_slots.clear();
    if dense(joints, s) {
        return;
    }
    for k in 0..s.params.len() {
        let p = &s.params[k];
        if !p.dynamic {
            continue;
        }
        let body = p.body;
        for n in crate::edge::walk(joints, bodies, body) {
            let j = &joints[n.slot as usize];
            if j.body_a == body || !in_solver(s, j.body_a) {
                let ok = s.joint_slots.push(n.slot);
                debug_assert!(ok, "each joint is gathered once");
            }
        }
    }
    s.joint_slots.sort_unstable();
}

/// The stages of `prepare_joints` (`n` joints, `n_bodies` solver bodies, `groups`
/// groups, the colours' `starts`): the bodies' added inertia cleared; the joints'
/// tension terms (read with the colouring's, `color_joints`) added to the bodies colour
/// by colour (the overflow's in one block); the bodies' inertia with
/// them; the constraints (in position order, written where the next stage and the passes
/// read them), each group's lanes filled once its block has written its constraints (a
/// spherical group's put joint by joint); the lanes of the groups split between two
/// blocks of that stage.
fn prepare_stages(
    n: usize,
    n_bodies: usize,
    groups: usize,
    starts: &[u32; COLOR_COUNT + 1],
    workers: u32,
) -> [crate::task::Stage; PREPARE_STAGES] {
    use crate::task::Stage;
    let mut stages = [Stage::default(); PREPARE_STAGES];
    stages[0] = Stage::split(n_bodies, 64, workers);
    for c in 0..COLOR_COUNT {
        let count = (starts[c + 1] - starts[c]) as usize;
        stages[ADD + c] = if c == OVERFLOW {
            Stage {
                items: count as u32,
                block: count.max(1) as u32,
            }
        } else {
            Stage::split(count, 64, workers)
        };
    }
    stages[INERTIA] = stages[0];
    stages[INERTIA + 1] = Stage::split(n, 16, workers);
    stages[GROUPS] = Stage::split(groups, 64, workers);
    stages
}

/// `prepare_stages`' stages: where the colours' additions, the inertia and the groups
/// split between blocks begin, and how many there are.
const ADD: usize = 1;
const INERTIA: usize = ADD + COLOR_COUNT;
const GROUPS: usize = INERTIA + 2;
const PREPARE_STAGES: usize = GROUPS + 1;

/// [`color_joints`], with the trees' rebuild the narrow phase left (see
/// `World::collide`) beside the joints' reads — one more item whichever worker takes it —
/// when there are workers to share and at least as many joints to read as moved shapes.
fn color_joints_beside_rebuild(world: &mut World, h: f32) -> u32 {
    let s = &mut world.solver;
    let bodies = &world.bodies;
    let workers = world.tasks.hooks.map_or(1, |h| h.worker_count);
    let reads = if dense(&world.joints.pool, s) {
        world.joints.pool.len()
    } else {
        s.joint_slots.len()
    };
    let beside = world.broad.rebuild_deferred && workers > 1 && reads >= world.broad.moved_last;
    if beside {
        world.broad.rebuild_deferred = false;
    }
    let broad = Slots::new(core::slice::from_mut(&mut world.broad));
    // SAFETY: the side item runs once, and nothing else touches the trees while the
    // joints are read.
    let rebuild = || unsafe { broad.get(0) }.rebuild_here();
    color_joints(
        &world.joints.pool,
        bodies,
        s,
        &mut world.tasks,
        h,
        beside.then_some(&rebuild as &(dyn Fn() + Sync)),
    )
}

/// Builds this step's joint constraints: every acting joint with a moving dynamic body,
/// both bodies enabled, coloured in joint slot order as contacts are (no two joints of a
/// colour share a dynamic body) and laid out colour by colour, so each colour's joints
/// can be solved at once on several threads. Then, as one plan through the task hooks:
/// the tension inertia (colour by colour, so no two joints add to one body at once) and
/// each joint's constraint. Zeroes the impulses of parts that are off.
#[inline(never)]
pub(crate) fn prepare_joints(world: &mut World, h: f32, soft: Softness) {
    use crate::task::StagePlan;
    gather_solver_joints(&world.joints.pool, &world.bodies, &mut world.solver);
    world.counters.joints_visited = color_joints_beside_rebuild(world, h);
    let s = &mut world.solver;
    let bodies = &world.bodies;
    let dense = dense(&world.joints.pool, s);
    let n = s.joint_acting.len();
    s.joint_constraints.resize(n, JointConstraint::default());
    s.joint_impulses.resize(n, JointImpulses::default());
    if n == 0 {
        return;
    }
    let workers = world.tasks.hooks.map_or(1, |h| h.worker_count);
    let n_bodies = s.states.len();
    let starts = s.joint_layout.color_starts;
    let stages = prepare_stages(n, n_bodies, s.joint_groups.len(), &starts, workers);
    let block = stages[INERTIA + 1].block as usize;
    let constraints = Slots::new(&mut s.joint_constraints[..n]);
    let impulses = Slots::new(&mut s.joint_impulses[..n]);
    let extra = Slots::new(&mut s.joint_inv_inertia[..n_bodies]);
    let joints = Slots::new(&mut world.joints.pool[..]);
    let groups = Slots::new(&mut s.joint_groups[..]);
    let rows = Slots::new(&mut s.joint_rows[..]);
    let (slot_at, group_of) = (&s.joint_slot_at[..], &s.joint_group_of[..]);
    // The tension terms by the colouring's reads: a joint's slot when the joints are
    // dense, else its place in `joint_slots` (ascending).
    let (tension, read_slots) = (&s.joint_tension[..], &s.joint_slots[..]);
    let terms = |p: usize| {
        let slot = slot_at[p];
        let k = if dense {
            Some(slot as usize)
        } else {
            read_slots.binary_search(&slot).ok()
        };
        k.and_then(|k| tension.get(k))
    };
    let last = |g: usize| {
        // SAFETY: `first` and `n` are not written while the joints are prepared.
        let group = unsafe { &*groups.ptr(g) };
        (group.first + group.n as u32 - 1) as usize
    };
    let whole = |g: usize| {
        // SAFETY: as in `last`.
        let first = unsafe { (*groups.ptr(g)).first } as usize;
        first / block == last(g) / block
    };
    // A spherical group's lanes are put joint by joint (`put_spherical_lane`), not
    // filled from written constraints.
    let spherical = |g: usize| {
        // SAFETY: as in `last`.
        unsafe { (*groups.ptr(g)).class == super::wide::SPHERICAL }
    };
    // SAFETY: the caller has the group alone, and its constraints are written; its
    // joints are read only (no block writes them once their constraints are written).
    let fill = |g: usize| unsafe {
        let group = groups.get(g);
        let first = group.first as usize;
        let cs = constraints.slice(first..first + group.n as usize);
        group.fill(rows.slice(group.range()), cs, |c| {
            &*joints.ptr(c.slot as usize)
        });
    };
    let (solver_index, params) = (&s.solver_index[..], &s.params[..]);
    let one_at_a_time = s.one_at_a_time;
    let run = |which: crate::task::StageRef, items: core::ops::Range<usize>| match which.index {
        0 => {
            for k in items {
                // SAFETY: each body is in one block of the stage.
                *unsafe { extra.get(k) } = Mat3::ZERO;
            }
        }
        i if i < INERTIA => {
            let first = starts[i - ADD] as usize;
            for p in first + items.start..first + items.end {
                for t in terms(p).into_iter().flatten() {
                    if t.body != NONE {
                        // SAFETY: the joints of one colour share no dynamic body, and
                        // the overflow's run in one block.
                        let e = unsafe { extra.get(t.body as usize) };
                        *e = *e + t.stiffness();
                    }
                }
            }
        }
        INERTIA => {
            for k in items {
                // SAFETY: each body is in one block of the stage.
                let e = unsafe { extra.get(k) };
                *e = with_inertia(&params[k].inv_inertia, e);
            }
        }
        GROUPS => {
            for g in items {
                if !whole(g) && !spherical(g) {
                    // SAFETY: each group is in one block of the stage; the constraints
                    // were written in the stage before.
                    fill(g);
                }
            }
        }
        _ => {
            let inv_inertia = &extra;
            // SAFETY: in bounds (a solver body), and no stage writes it now.
            let ii = |k: u32| unsafe { *inv_inertia.ptr(k as usize) };
            let mut own = JointConstraint::default();
            for p in items {
                if let Some(&ahead) = slot_at.get(p + AHEAD) {
                    prefetch_joint(joints.ptr(ahead as usize));
                }
                let slot = slot_at[p] as usize;
                let g = group_of[p];
                // A spherical joint of a group the lanes solve goes straight into its
                // group's lane, with its starting impulse: neither its constraint nor
                // its step's impulses are written (the lanes, `finish_joints` and a
                // refused group's pass read the rows).
                if g != NONE && !one_at_a_time && spherical(g as usize) {
                    // SAFETY: each position (and its joint) is in one block of the stage.
                    let j = unsafe { joints.get(slot) };
                    prepare_joint(
                        &mut own,
                        j,
                        slot,
                        bodies,
                        solver_index,
                        params,
                        &ii,
                        soft,
                        h,
                    );
                    let head = groups.ptr_mut(g as usize);
                    // SAFETY: position `p` is this block's alone, and so is its lane; the
                    // head's `first` and `rows` are not written while joints are prepared.
                    unsafe {
                        let (first, at) = ((*head).first as usize, (*head).rows as usize);
                        let lane = p - first;
                        super::wide::put_spherical_lane(
                            head,
                            rows.ptr_mut(at),
                            lane,
                            &own,
                            j.impulses.linear,
                        );
                    }
                    continue;
                }
                // SAFETY: each position (and its joint) is in one block of the stage.
                let (j, c, i) = unsafe { (joints.get(slot), constraints.get(p), impulses.get(p)) };
                prepare_joint(c, j, slot, bodies, solver_index, params, &ii, soft, h);
                // A spherical joint's rows touch only its linear impulse; the rest stays
                // in the joint.
                if c.kind != SPHERICAL {
                    *i = j.impulses;
                } else {
                    i.linear = j.impulses.linear;
                }
                // A group whose lanes all lie in this block is filled once its last
                // constraint is written (the others in the stage after).
                if g != NONE && p == last(g as usize) && whole(g as usize) && !spherical(g as usize)
                {
                    // SAFETY: the group's positions are all in this block.
                    fill(g as usize);
                }
            }
        }
    };
    let plan = StagePlan {
        body: &[],
        repeats: 0,
        tail: &stages,
    };
    world.tasks.run_plan(&plan, 64, &run);
}

/// How many joints ahead a stage that visits the joints in slot order asks the cache for
/// them: a joint is larger than the hardware prefetcher's stride.
const AHEAD: usize = 8;

/// Asks the cache for the lines of joint `j` a pass over the joints reads: its bodies,
/// frames, last reaction, kind and impulses. A hint no result depends on.
#[inline(always)]
fn prefetch_joint(j: *const Joint) {
    use core::mem::offset_of;
    let p = j.cast::<u8>();
    let at = |offset: usize| crate::solver::lanes::prefetch(p.wrapping_add(offset));
    at(offset_of!(Joint, body_a));
    at(offset_of!(Joint, reaction_force));
    at(offset_of!(Joint, kind));
    let impulses = offset_of!(Joint, impulses);
    for line in 0..core::mem::size_of::<JointImpulses>().div_ceil(64) {
        at(impulses + 64 * line);
    }
}

/// Picks this step's acting joints from `s.joint_slots` (ascending; every slot when the
/// joints are `dense`) and colours them in that order: `joint_acting` (slots),
/// `joint_position` (where each one's constraint goes), `joint_layout` and the groups'
/// heads (`joint_groups`). Returns how many joints of the solver's bodies it visited.
fn color_joints(
    joints: &[Joint],
    bodies: &[Body],
    s: &mut SolverScratch,
    tasks: &mut crate::task::Tasks,
    h: f32,
    side: Option<&(dyn Fn() + Sync)>,
) -> u32 {
    use crate::solver::constraint_graph::{COLOR_COUNT, clear_colors, take_color};
    let dense = dense(joints, s);
    let count = if dense {
        joints.len()
    } else {
        s.joint_slots.len()
    };
    // Each joint read (one or more scattered cache lines) in parallel, each entry its
    // own; the colouring, greedy in slot order, then runs over the compact entries.
    // With each acting joint's tension terms (`prepare_joints` adds them to the bodies),
    // by the same index.
    s.joint_read.resize(count, JointRead::UNSEEN);
    s.joint_tension.resize(count, [Tension::NONE; 2]);
    // Whether any read differs from the one the layout was last made from (compared as
    // each is made, so no pass of its own).
    let before = match s.joint_visited_before {
        Some(_) if dense && s.joint_read_before.len() == count => &s.joint_read_before[..],
        _ => &[],
    };
    let changed = core::sync::atomic::AtomicBool::new(before.is_empty());
    {
        let out = crate::task::Slots::new(&mut s.joint_read[..count]);
        let tension = crate::task::Slots::new(&mut s.joint_tension[..count]);
        let (slots, index, params) = (&s.joint_slots, &s.solver_index, &s.params);
        tasks.for_each_beside(count, 256, side, &|k, _| {
            let slot = if dense { k as u32 } else { slots[k] };
            let j = &joints[slot as usize];
            let read = read_joint(j, bodies, index, params, dense);
            // SAFETY: each entry is one item.
            *unsafe { tension.get(k) } = if read.state == JointRead::ACTS {
                tension_terms(j, bodies, index, params, h)
            } else {
                [Tension::NONE; 2]
            };
            if before.get(k).is_some_and(|b| *b != read)
                && !changed.load(core::sync::atomic::Ordering::Relaxed)
            {
                changed.store(true, core::sync::atomic::Ordering::Relaxed);
            }
            // SAFETY: as above.
            *unsafe { out.get(k) } = read;
        });
    }
    // The same reads as the layout was last made from: the same layout (the greedy
    // colouring and everything after it read nothing else).
    if !changed.into_inner()
        && let Some(visited) = s.joint_visited_before
    {
        return visited;
    }
    s.joint_visited_before = None;
    s.joint_acting.clear();
    s.joint_position.clear();
    clear_colors(&mut s.body_colors, s.states.len());
    let mut counts = [[0u32; RANKS]; COLOR_COUNT];
    let mut visited = 0;
    for k in 0..count {
        let read = s.joint_read[k];
        if read.state == JointRead::NOT_SEEN {
            continue;
        }
        visited += 1;
        if read.state != JointRead::ACTS {
            continue;
        }
        let slot = if dense { k as u32 } else { s.joint_slots[k] };
        let color = take_color(&mut s.body_colors, read.da, read.db);
        let rank = rank(color, read.class);
        counts[color][rank] += 1;
        // The colour and rank for now; the position once the runs' sizes are known.
        let ok = s.joint_acting.push(slot) && s.joint_position.push((color * RANKS + rank) as u32);
        debug_assert!(ok, "joints gathered hold joint_capacity");
    }
    let mut starts = [[0u32; RANKS]; COLOR_COUNT];
    let mut sum = 0;
    for c in 0..COLOR_COUNT {
        s.joint_layout.color_starts[c] = sum;
        for r in 0..RANKS {
            starts[c][r] = sum;
            sum += counts[c][r];
        }
        s.joint_layout.single_starts[c] = starts[c][RANKS - 1];
    }
    s.joint_layout.color_starts[COLOR_COUNT] = sum;
    // Each colour's runs of a kind the lanes solve, eight to a group.
    s.joint_groups.clear();
    let mut rows = 0;
    for c in 0..COLOR_COUNT {
        s.joint_layout.group_starts[c] = s.joint_groups.len() as u32;
        for r in 0..RANKS - 1 {
            let (mut first, end) = (
                starts[c][r] as usize,
                (starts[c][r] + counts[c][r]) as usize,
            );
            while first < end {
                let n = (end - first).min(crate::solver::lanes::MAX_WIDTH);
                let class = LANE_CLASSES[r];
                let head = super::wide::JointGroup::head(first, n, class, rows);
                let ok = s.joint_groups.push(head);
                debug_assert!(ok, "groups hold group_capacity(joint_capacity)");
                rows += super::wide::rows(class);
                first += n;
            }
        }
    }
    s.joint_layout.group_starts[COLOR_COUNT] = s.joint_groups.len() as u32;
    s.joint_rows.resize(rows, super::wide::Row::ZERO);
    let n = s.joint_acting.len();
    s.joint_slot_at.resize(n, NONE);
    s.joint_group_of.resize(n, NONE);
    s.joint_group_of.fill(NONE);
    for (k, p) in s.joint_position.iter_mut().enumerate() {
        let (c, r) = (*p as usize / RANKS, *p as usize % RANKS);
        *p = starts[c][r];
        starts[c][r] += 1;
        s.joint_slot_at[*p as usize] = s.joint_acting[k];
    }
    for (g, group) in s.joint_groups.iter().enumerate() {
        let first = group.first as usize;
        s.joint_group_of[first..first + group.n as usize].fill(g as u32);
    }
    if dense {
        // Keep the reads (the next step reads into the other buffer).
        s.joint_read.truncate(count);
        core::mem::swap(&mut s.joint_read, &mut s.joint_read_before);
        s.joint_visited_before = Some(visited);
    }
    visited
}

/// What the colouring needs of one joint, read ahead (see `color_joints`).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct JointRead {
    /// Its dynamic solver bodies (`NONE` for one that is not).
    da: u32,
    db: u32,
    /// How the lanes solve it (`wide::class`).
    class: u8,
    /// [`JointRead::ACTS`], [`JointRead::VISITED`] (a joint of the solver's bodies that
    /// does not act this step) or [`JointRead::NOT_SEEN`] (not one of theirs).
    state: u8,
}

impl JointRead {
    const NOT_SEEN: u8 = 0;
    const VISITED: u8 = 1;
    const ACTS: u8 = 2;
    const UNSEEN: JointRead = JointRead {
        da: NONE,
        db: NONE,
        class: 0,
        state: JointRead::NOT_SEEN,
    };
}

/// Joint `j` for the colouring: acting this step with a dynamic solver body, both bodies
/// enabled, or why not.
fn read_joint(
    j: &Joint,
    bodies: &[Body],
    solver_index: &[u32],
    params: &[crate::solver::BodyParams],
    dense: bool,
) -> JointRead {
    // Dense, every slot is read: a free one, or a joint of none of the solver's dynamic
    // bodies, is not the step's to visit.
    if dense && !j.alive {
        return JointRead::UNSEEN;
    }
    use crate::solver::constraint_graph::dynamic_index;
    let (ka, kb) = (
        solver_index[j.body_a as usize],
        solver_index[j.body_b as usize],
    );
    let (da, db) = (dynamic_index(params, ka), dynamic_index(params, kb));
    if dense && da == NONE && db == NONE {
        return JointRead::UNSEEN;
    }
    let visited = JointRead {
        state: JointRead::VISITED,
        ..JointRead::UNSEEN
    };
    if !j.acts() {
        return visited;
    }
    // A body in the solver is enabled (it moves); others are read to see.
    let enabled = |k: u32, body: u32| k != NONE || bodies[body as usize].enabled;
    if !enabled(ka, j.body_a) || !enabled(kb, j.body_b) {
        return visited;
    }
    if da == NONE && db == NONE {
        return visited;
    }
    JointRead {
        da,
        db,
        class: super::wide::class(&j.kind),
        state: JointRead::ACTS,
    }
}

/// Joints of a colour come by how they are solved: the classes the lanes solve in this
/// order, then those one at a time (all of the overflow's, which keep slot order).
const LANE_CLASSES: [u8; 3] = [
    super::wide::SPHERICAL,
    super::wide::CONE_TWIST,
    super::wide::REVOLUTE,
];
const RANKS: usize = LANE_CLASSES.len() + 1;

fn rank(color: usize, class: u8) -> usize {
    match LANE_CLASSES.iter().position(|&c| c == class) {
        Some(r) if color != OVERFLOW => r,
        _ => RANKS - 1,
    }
}

/// One acting joint's constraint for this step.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn prepare_joint(
    c: &mut JointConstraint,
    j: &mut Joint,
    slot: usize,
    bodies: &[Body],
    solver_index: &[u32],
    params: &[crate::solver::BodyParams],
    joint_inv_inertia: &dyn Fn(u32) -> Mat3,
    soft: Softness,
    h: f32,
) {
    let (ba, bb) = (&bodies[j.body_a as usize], &bodies[j.body_b as usize]);
    let (ka, kb) = (
        solver_index[j.body_a as usize],
        solver_index[j.body_b as usize],
    );
    let write_a = ka != NONE && params[ka as usize].dynamic;
    let write_b = kb != NONE && params[kb as usize].dynamic;
    let (ma, ia) = if write_a {
        (params[ka as usize].inv_mass, joint_inv_inertia(ka))
    } else {
        (Vec3::ZERO, Mat3::ZERO)
    };
    let (mb, ib) = if write_b {
        (params[kb as usize].inv_mass, joint_inv_inertia(kb))
    } else {
        (Vec3::ZERO, Mat3::ZERO)
    };
    let frame = |b: &crate::body::Body, f: &Transform| {
        Transform::new(b.rotation.rotate(f.p - b.local_center), b.rotation * f.q)
    };
    c.slot = slot as u32;
    (c.index_a, c.index_b) = (ka, kb);
    (c.write_a, c.write_b) = (write_a, write_b);
    c.kind = j.kind.tag();
    (c.ma, c.mb, c.ia, c.ib) = (ma, mb, ia, ib);
    (c.frame_a, c.frame_b) = (frame(ba, &j.frame_a), frame(bb, &j.frame_b));
    c.delta_center = (bb.position - ba.position).to_f32() + bb.center_offset() - ba.center_offset();
    c.soft = soft;
    c.pivot = if j.pivot_hertz > 0.0 {
        super::rows::spring_soft(j.pivot_hertz, j.pivot_damping_ratio, h)
    } else {
        soft
    };
    c.own_pivot = j.pivot_hertz > 0.0;
    // A spherical joint reads neither (and the lanes never): left as they were.
    if c.kind != SPHERICAL {
        c.springs = [Softness::default(); 6];
        c.angular_mass = Mat3::ZERO;
    }
    match &j.kind {
        JointKind::Spherical => {}
        JointKind::Revolute(_) => revolute::prepare(c, j, h),
        JointKind::Prismatic(_) => prismatic::prepare(c, j, h),
        JointKind::Weld(_) => weld::prepare(c, j, h),
        JointKind::Distance(_) => distance::prepare(c, j, h),
        JointKind::ConeTwist(_) => cone_twist::prepare(c, j, h),
        JointKind::SixDof(_) => six_dof::prepare(c, j, h),
        JointKind::Wheel(_) => wheel::prepare(c, j, h),
    }
}

/// The geometric stiffness of joint tension, made implicit (after Andrews, Erleben and
/// Ferguson, "Geometric stiffness for real-time constrained multibody dynamics", 2017).
///
/// A joint pulling a body with force `f` at lever `r` from its centre of mass turns it
/// back towards the line of pull: about the axes across `r`, the torque `r × f` grows
/// with the angle at `f·r` N·m/rad. The rows apply that torque with the lever of the
/// substep's start, so the stiffness is explicit, and a light body on a lever under a
/// heavy load — a link of a chain holding a weight 100 or 1000 times its own — rings at
/// `ω = √(f·r / I)`, unstable once `ω h > 2`: each substep it gains energy (a 200-link
/// chain at 1000:1 and 4 substeps reached 13,000 m/s). Adding `h² (f·r)` to the body's
/// inertia across `r`, as the joints see it, is the implicit treatment: `ω h < 1`
/// whatever the load. It costs a little damping of the fast turning of loaded bodies,
/// nothing along the lever (spin about a rope's axis is free) and nothing when the
/// joint pushes rather than pulls or pulls across the lever (`f·r ≤ 0`: a spinning top's
/// precession is untouched). The force is the joint's last reaction (state), so a
/// restored world adds the same.
///
/// What a joint's tension adds to one body's inertia: `c (E − u uᵀ)`, for solver body
/// `body` (`NONE`: nothing).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Tension {
    body: u32,
    c: f32,
    u: Vec3,
}

impl Tension {
    pub(crate) const NONE: Tension = Tension {
        body: NONE,
        c: 0.0,
        u: Vec3::ZERO,
    };

    fn stiffness(&self) -> Mat3 {
        let (c, u) = (self.c, self.u);
        Mat3::IDENTITY.scale(c) - Mat3::from_cols(u * u.x, u * u.y, u * u.z).scale(c)
    }
}

/// Joint `j`'s `h² (f·r) (E − r̂ r̂ᵀ)` for each of its dynamic solver bodies (added to
/// their inertia colour by colour, in joint slot order within a body's colour).
fn tension_terms(
    j: &Joint,
    bodies: &[Body],
    solver_index: &[u32],
    params: &[crate::solver::BodyParams],
    h: f32,
) -> [Tension; 2] {
    let mut terms = [Tension::NONE; 2];
    if j.reaction_force == Vec3::ZERO {
        return terms;
    }
    // The force on B; A takes its opposite.
    let f = j.reaction_force;
    let ends = [(j.body_a, &j.frame_a, -1.0), (j.body_b, &j.frame_b, 1.0)];
    for (term, (body, frame, sign)) in terms.iter_mut().zip(ends) {
        let k = solver_index[body as usize];
        if k == NONE || !params[k as usize].dynamic {
            continue;
        }
        let b = &bodies[body as usize];
        let r = b.rotation.rotate(frame.p - b.local_center);
        let pull = sign * f.dot(r);
        // Only a pull along the lever stiffens (an anchor at the centre of mass has
        // none); E − r̂ r̂ᵀ leaves spin about the lever free.
        let u = r.normalize();
        let stiffens = pull > 0.0 && u != Vec3::ZERO;
        if !stiffens {
            continue;
        }
        let c = h * h * pull;
        let t = Tension { body: k, c, u };
        // A product too large for f32 adds nothing rather than infinity.
        if t.stiffness().is_valid() {
            *term = t;
        }
    }
    terms
}

/// A world inverse inertia `A` with `G` (symmetric, positive semi-definite) added to the
/// inertia: `(A⁻¹ + G)⁻¹ = (E + A G)⁻¹ A`, which needs no inverse of `A` (singular on
/// locked axes). `E + A G` is invertible (its eigenvalues are at least 1).
///
/// The exact result `R` lies between zero and `A` (`0 ≤ R ≤ A` as quadratic forms), so
/// its diagonal is within `[0, A_ii]` and `R_ij² ≤ A_ii A_jj`. In `f32` the inverse's
/// determinant cancels once `A G` reaches about 1e6 along some axes while staying near
/// zero along the lever (a link pulled hard at a long substep: 4 substeps of 2.5 s), and
/// the result comes out with entries of 1e32 and either sign, which a warm start then
/// multiplies by its impulse into infinity and NaN. Such a result breaks those bounds:
/// it is made again in `f64` (`with_inertia_f64`). A result within them is kept as
/// `f32` made it, so worlds that never met the cancellation keep their bits.
fn with_inertia(inv_inertia: &Mat3, extra: &Mat3) -> Mat3 {
    if *extra == Mat3::ZERO {
        return *inv_inertia;
    }
    let m = Mat3::IDENTITY + inv_inertia.mul_mat(extra);
    let r = m.inverse().mul_mat(inv_inertia);
    // Symmetric in exact arithmetic; kept exactly so.
    let sym = (r + r.transpose()).scale(0.5);
    if within_inertia(&sym, inv_inertia) {
        return sym;
    }
    with_inertia_f64(inv_inertia, extra)
}

/// Whether `r` is finite and within the bounds `0 ≤ r ≤ a` puts on its entries (with a
/// thousandth of slack for rounding).
fn within_inertia(r: &Mat3, a: &Mat3) -> bool {
    const SLACK: f32 = 1.0e-3;
    let (r, a) = (rows(r), rows(a));
    let mut ok = true;
    for i in 0..3 {
        let (rii, aii) = (r[i][i], a[i][i]);
        ok &= rii.is_finite() && rii >= -SLACK * aii && rii <= (1.0 + SLACK) * aii;
        for j in 0..3 {
            let bound = (1.0 + SLACK) * (1.0 + SLACK) * (aii * a[j][j]);
            ok &= r[i][j].is_finite() && r[i][j] * r[i][j] <= bound;
        }
    }
    ok
}

/// A matrix's entries, `m[row][column]`.
fn rows(m: &Mat3) -> [[f32; 3]; 3] {
    let t = m.transpose();
    [t.cx, t.cy, t.cz].map(|v| [v.x, v.y, v.z])
}

/// `with_inertia` in `f64`, where the `f32` inverse cancelled. A product of two `f32` is
/// exact in `f64`, but `G` itself came out of `f32` sums: along the levers' line, where
/// it should be zero, it is only within a few `f32` roundings of its trace, and may be
/// slightly negative, so `E + A G` can be singular. `G` gets `δ E` added, `δ` eight
/// roundings of its trace (then 16 and 256 times that, should `E + A G` still not be
/// positive definite), which makes it positive definite at the cost of a little stiffness
/// about the levers, only in the rare world that needs this path. `G` is first scaled so
/// that `|A| |G|` is at most 1e12 (what the determinant resolves to a part in 1e4;
/// stiffer, a body turns across its levers a millionth as fast either way). Zero when no
/// try gives a result within the bounds.
fn with_inertia_f64(inv_inertia: &Mat3, extra: &Mat3) -> Mat3 {
    type M = [[f64; 3]; 3];
    const REACH: f64 = 1.0e12;
    let wide = |m: &Mat3| rows(m).map(|row| row.map(f64::from));
    let (a, g) = (wide(inv_inertia), wide(extra));
    let max_abs = |m: &M| {
        m.iter()
            .flatten()
            .fold(0.0, |acc: f64, x| if x.abs() > acc { x.abs() } else { acc })
    };
    let reach = max_abs(&a) * max_abs(&g);
    let scale = if reach > REACH { REACH / reach } else { 1.0 };
    let g = g.map(|row| row.map(|x| x * scale));
    let mul = |x: &M, y: &M| {
        let mut p = [[0.0f64; 3]; 3];
        for (i, row) in p.iter_mut().enumerate() {
            for (j, e) in row.iter_mut().enumerate() {
                *e = x[i][0] * y[0][j] + x[i][1] * y[1][j] + x[i][2] * y[2][j];
            }
        }
        p
    };
    let trace = g[0][0] + g[1][1] + g[2][2];
    let mut delta = 8.0 * f64::from(f32::EPSILON) * trace;
    for _ in 0..3 {
        let mut gd = g;
        for (i, row) in gd.iter_mut().enumerate() {
            row[i] += delta;
        }
        let mut m = mul(&a, &gd);
        for (i, row) in m.iter_mut().enumerate() {
            row[i] += 1.0;
        }
        // The inverse by cofactors: row i of the inverse is column i's cofactors over
        // the determinant.
        let cof = |i: usize, j: usize| {
            let (i1, i2, j1, j2) = ((i + 1) % 3, (i + 2) % 3, (j + 1) % 3, (j + 2) % 3);
            m[i1][j1] * m[i2][j2] - m[i1][j2] * m[i2][j1]
        };
        let det = m[0][0] * cof(0, 0) + m[0][1] * cof(0, 1) + m[0][2] * cof(0, 2);
        if det.is_finite() && det > 0.0 {
            let mut inv = [[0.0f64; 3]; 3];
            for (i, row) in inv.iter_mut().enumerate() {
                for (j, e) in row.iter_mut().enumerate() {
                    *e = cof(j, i) / det;
                }
            }
            let r = mul(&inv, &a);
            let at = |i: usize, j: usize| (0.5 * (r[i][j] + r[j][i])) as f32;
            let col = |j: usize| Vec3::new(at(0, j), at(1, j), at(2, j));
            let result = Mat3::from_cols(col(0), col(1), col(2));
            if within_inertia(&result, inv_inertia) {
                return result;
            }
        }
        delta *= 16.0;
    }
    Mat3::ZERO
}

/// Applies the kept impulses of joints `cs` (one colour's, or the overflow's), in order.
pub(crate) fn warm_start_joints(
    cs: &[JointConstraint],
    impulses: &[JointImpulses],
    joints: &[Joint],
    states: &States,
) {
    for (c, i) in cs.iter().zip(impulses) {
        let (mut a, mut b) = (load(states, c.index_a), load(states, c.index_b));
        if c.kind == SPHERICAL {
            spherical::warm_start(c, i, &mut a, &mut b);
        } else {
            match &joints[c.slot as usize].kind {
                JointKind::Spherical => spherical::warm_start(c, i, &mut a, &mut b),
                JointKind::Revolute(_) => revolute::warm_start(c, i, &mut a, &mut b),
                JointKind::Prismatic(_) => prismatic::warm_start(c, i, &mut a, &mut b),
                JointKind::Weld(_) => weld::warm_start(c, i, &mut a, &mut b),
                JointKind::Distance(_) => distance::warm_start(c, i, &mut a, &mut b),
                JointKind::ConeTwist(_) => cone_twist::warm_start(c, i, &mut a, &mut b),
                JointKind::SixDof(k) => six_dof::warm_start(c, k, i, &mut a, &mut b),
                JointKind::Wheel(_) => wheel::warm_start(c, i, &mut a, &mut b),
            }
        }
        store(states, c.index_a, c.write_a, &a);
        store(states, c.index_b, c.write_b, &b);
    }
}

/// The solve pass (`p.use_bias`) or the relax pass over joints `cs`, in order.
pub(crate) fn solve_joints(
    cs: &[JointConstraint],
    impulses: &mut [JointImpulses],
    joints: &[Joint],
    states: &States,
    p: &Pass,
) {
    for (c, i) in cs.iter().zip(impulses.iter_mut()) {
        let (mut a, mut b) = (load(states, c.index_a), load(states, c.index_b));
        if c.kind == SPHERICAL {
            spherical::solve(c, i, &mut a, &mut b, p);
        } else {
            match &joints[c.slot as usize].kind {
                JointKind::Spherical => spherical::solve(c, i, &mut a, &mut b, p),
                JointKind::Revolute(k) => revolute::solve(c, k, i, &mut a, &mut b, p),
                JointKind::Prismatic(k) => prismatic::solve(c, k, i, &mut a, &mut b, p),
                JointKind::Weld(k) => weld::solve(c, k, i, &mut a, &mut b, p),
                JointKind::Distance(k) => distance::solve(c, k, i, &mut a, &mut b, p),
                JointKind::ConeTwist(k) => cone_twist::solve(c, k, i, &mut a, &mut b, p),
                JointKind::SixDof(k) => six_dof::solve(c, k, i, &mut a, &mut b, p),
                JointKind::Wheel(k) => wheel::solve(c, k, i, &mut a, &mut b, p),
            }
        }
        store(states, c.index_a, c.write_a, &a);
        store(states, c.index_b, c.write_b, &b);
    }
}

/// After the substeps, in joint slot order: each joint keeps its impulses (state), its
/// reaction (the impulses per substep over the substep), then breaking — a joint whose reaction passes its
/// threshold is marked broken, drops its impulses, lets its bodies collide again and
/// reports one event (up to `event_capacity`; the rest are counted).
pub(crate) fn finish_joints(world: &mut World, inv_h: f32) {
    use crate::task::{Stage, StagePlan};
    let n = world.solver.joint_acting.len();
    if n == 0 {
        return;
    }
    let workers = world.tasks.hooks.map_or(1, |h| h.worker_count);
    let s = &mut world.solver;
    // Each joint's impulses and reaction, in position order over the workers (each joint
    // writes only itself), with whether it breaks; then the breaks in slot order.
    s.joint_breaks.resize(n, false);
    let breaks = Slots::new(&mut s.joint_breaks[..n]);
    let joints = Slots::new(&mut world.joints.pool[..]);
    let (slot_at, cs, impulses, states) = (
        &s.joint_slot_at[..],
        &s.joint_constraints[..],
        &s.joint_impulses[..],
        &s.states[..],
    );
    // A joint of a group the lanes solved has its impulses in the group's rows.
    let (group_of, heads, rows) = (
        &s.joint_group_of[..],
        &s.joint_groups[..],
        &s.joint_rows[..],
    );
    let lanes = !s.one_at_a_time;
    let stages = [Stage::split(n, 64, workers)];
    let any_broke = core::sync::atomic::AtomicBool::new(false);
    let run = |_: crate::task::StageRef, items: core::ops::Range<usize>| {
        for p in items {
            if let Some(&ahead) = slot_at.get(p + AHEAD) {
                prefetch_joint(joints.ptr(ahead as usize));
            }
            // SAFETY: each position, and so its joint, is in one block of the stage.
            let (j, broken) = unsafe { (joints.get(slot_at[p] as usize), breaks.get(p)) };
            let g = group_of[p];
            let kept;
            let imp = match heads.get(g as usize) {
                Some(head) if lanes => {
                    let lane = p - head.first as usize;
                    // A spherical joint takes only its linear impulse (`react`): the
                    // step's impulses were not written for it.
                    let rest = if head.class == super::wide::SPHERICAL {
                        &JointImpulses::default()
                    } else {
                        &impulses[p]
                    };
                    kept = super::wide::group_impulses(rows, head, lane, rest);
                    &kept
                }
                _ => &impulses[p],
            };
            *broken = react(j, &cs[p], imp, states, inv_h);
            if *broken {
                any_broke.store(true, core::sync::atomic::Ordering::Relaxed);
            }
        }
    };
    let plan = StagePlan {
        body: &[],
        repeats: 0,
        tail: &stages,
    };
    world.tasks.run_plan(&plan, 64, &run);
    if !any_broke.into_inner() {
        return;
    }
    for k in 0..n {
        let s = &world.solver;
        let p = s.joint_position[k] as usize;
        if !s.joint_breaks[p] {
            continue;
        }
        let slot = s.joint_slot_at[p];
        let j = &mut world.joints[slot as usize];
        j.broken = true;
        j.impulses = Default::default();
        let (ba, bb, filtered) = (j.body_a, j.body_b, !j.collide_connected);
        let event = JointBreakEvent {
            joint: world.joint_id(slot),
        };
        if !world.joints.break_events.push(event) {
            world.counters.dropped_joint_break_events += 1;
        }
        if filtered {
            world.refind_pairs(ba, bb);
        }
    }
}

/// Joint `j` takes its impulses `impulses` and its reaction from them (`c` its
/// constraint); whether the reaction passes a threshold (the joint breaks).
#[inline(always)]
fn react(
    j: &mut Joint,
    c: &JointConstraint,
    impulses: &JointImpulses,
    states: &[BodyState],
    inv_h: f32,
) -> bool {
    let get = |i: u32| {
        if i == NONE { FIXED } else { states[i as usize] }
    };
    // A spherical joint's rows touch only its linear impulse (see `prepare_joints`).
    if let JointKind::Spherical = j.kind {
        j.impulses.linear = impulses.linear;
    } else {
        j.impulses = *impulses;
    }
    // The bodies' states only for the kinds that read them (a spherical or weld joint's
    // reaction is its impulses').
    let i = &j.impulses;
    let ab = || (get(c.index_a), get(c.index_b));
    let (force, torque) = match &j.kind {
        JointKind::Spherical => spherical::reaction(i),
        JointKind::Weld(_) => weld::reaction(i),
        JointKind::Revolute(_) => {
            let (a, b) = ab();
            revolute::reaction(c, i, &a, &b)
        }
        JointKind::Prismatic(_) => {
            let (a, b) = ab();
            prismatic::reaction(c, i, &a, &b)
        }
        JointKind::Distance(_) => {
            let (a, b) = ab();
            distance::reaction(c, i, &a, &b)
        }
        JointKind::ConeTwist(_) => {
            let (a, b) = ab();
            cone_twist::reaction(c, i, &a, &b)
        }
        JointKind::SixDof(s) => {
            let (a, b) = ab();
            six_dof::reaction(c, s, i, &a, &b)
        }
        JointKind::Wheel(_) => {
            let (a, b) = ab();
            wheel::reaction(c, i, &a, &b)
        }
    };
    j.reaction_force = force * inv_h;
    j.reaction_torque = torque * inv_h;
    let over = |value: Vec3, threshold: f32| {
        if threshold == f32::MAX {
            return false;
        }
        // |value| scaled by its largest component first, so squaring cannot overflow.
        let m = value.abs().max_element();
        m > 0.0 && m * (value * (1.0 / m)).length() > threshold
    };
    over(j.reaction_force, j.break_force) || over(j.reaction_torque, j.break_torque)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The joint layout of the world's last step: the colouring's every output, as text.
    fn layout(w: &World) -> String {
        let s = &w.solver;
        let groups: Vec<_> = s
            .joint_groups
            .iter()
            .map(|g| (g.first, g.n, g.class, g.rows))
            .collect();
        format!(
            "{:?} {:?} {:?} {:?} {groups:?} {:?} {}",
            &s.joint_acting[..],
            &s.joint_position[..],
            &s.joint_slot_at[..],
            &s.joint_group_of[..],
            s.joint_layout,
            w.counters.joints_visited
        )
    }

    /// Colours the world's joints as its next step would, afresh.
    fn recolor(w: &mut World) -> u32 {
        w.solver.joint_visited_before = None;
        gather_solver_joints(&w.joints.pool, &w.bodies, &mut w.solver);
        color_joints(
            &w.joints.pool,
            &w.bodies,
            &mut w.solver,
            &mut w.tasks,
            1.0 / 240.0,
            None,
        )
    }

    #[test]
    fn a_colouring_kept_from_the_last_step_is_the_one_made_afresh() {
        use crate::math::{DVec3, Quat};
        use crate::{BodyDef, BodyType, JointDef, JointKind, RevoluteJoint, ShapeDef, Sphere};
        let mut w = World::new(&crate::WorldDef::default()).unwrap();
        // Two chains under a static anchor: spherical links, every third a hinge.
        let mut joints = Vec::new();
        for chain in 0..2 {
            let x = 3.0 * chain as f64;
            let mut prev = w
                .create_body(&BodyDef {
                    position: DVec3::new(x, 10.0, 0.0),
                    ..Default::default()
                })
                .unwrap();
            for i in 0..12 {
                let y = 9.75 - 0.5 * i as f64;
                let b = w
                    .create_body(&BodyDef {
                        body_type: BodyType::Dynamic,
                        position: DVec3::new(x, y, 0.0),
                        ..Default::default()
                    })
                    .unwrap();
                let ball = Sphere {
                    center: Vec3::ZERO,
                    radius: 0.1,
                };
                w.create_sphere_shape(b, &ShapeDef::default(), &ball)
                    .unwrap();
                let anchor = DVec3::new(x, y + 0.25, 0.0);
                let (fa, fb) = w.joint_frames_at(prev, b, anchor, Quat::IDENTITY).unwrap();
                let kind = if i % 3 == 2 {
                    JointKind::Revolute(RevoluteJoint::default())
                } else {
                    JointKind::Spherical
                };
                joints.push(
                    w.create_joint(&JointDef {
                        body_a: prev,
                        body_b: b,
                        local_frame_a: fa,
                        local_frame_b: fb,
                        kind,
                        ..Default::default()
                    })
                    .unwrap(),
                );
                prev = b;
            }
        }
        let dt = 1.0 / 60.0;
        let mut hits = 0;
        for step in 0..40 {
            // Change the joints now and then: one destroyed, a motor switched on.
            if step == 15 {
                w.destroy_joint(joints[5]).unwrap();
            }
            if step == 25 {
                w.set_joint_enable_motor(joints[2], true).unwrap();
            }
            // A colouring made afresh swaps the read buffers; one kept does not.
            let before = w.solver.joint_read_before.as_ptr();
            w.step(dt, 4).unwrap();
            let stepped = layout(&w);
            hits += usize::from(w.solver.joint_read_before.as_ptr() == before);
            let visited = recolor(&mut w);
            w.counters.joints_visited = visited;
            assert_eq!(layout(&w), stepped, "step {step}");
        }
        // Most steps kept the colouring (the comparison above checked them); the steps
        // after a change made it afresh.
        assert!((30..40).contains(&hits), "{hits} steps kept the colouring");
    }

    /// Each group keeps its rows one after another in the step's rows: for a spherical
    /// group the 37 its passes read and its 3 impulse rows, for the other kinds all 74
    /// (13 of them impulses).
    #[test]
    fn groups_keep_their_rows_one_after_another_spherical_ones_fewer() {
        let w = {
            use crate::math::{DVec3, Quat};
            use crate::{BodyDef, BodyType, JointDef, JointKind, RevoluteJoint, WorldDef};
            let mut w = World::new(&WorldDef::default()).unwrap();
            let anchor = w.create_body(&BodyDef::default()).unwrap();
            // 21 spherical joints and 10 revolute ones, all on the static anchor: one
            // colour each, by kind, in groups of up to eight.
            for i in 0..31 {
                let b = w
                    .create_body(&BodyDef {
                        body_type: BodyType::Dynamic,
                        position: DVec3::new(i as f64, -1.0, 0.0),
                        ..Default::default()
                    })
                    .unwrap();
                let at = DVec3::new(i as f64, 0.0, 0.0);
                let (fa, fb) = w.joint_frames_at(anchor, b, at, Quat::IDENTITY).unwrap();
                let kind = if i % 3 == 1 {
                    JointKind::Revolute(RevoluteJoint::default())
                } else {
                    JointKind::Spherical
                };
                let def = JointDef {
                    body_a: anchor,
                    body_b: b,
                    local_frame_a: fa,
                    local_frame_b: fb,
                    kind,
                    ..Default::default()
                };
                w.create_joint(&def).unwrap();
            }
            w.step(1.0 / 60.0, 4).unwrap();
            w
        };
        let s = &w.solver;
        let classes: Vec<_> = s.joint_groups.iter().map(|g| (g.class, g.n)).collect();
        use super::super::wide::{REVOLUTE, SPHERICAL};
        let expected = [
            (SPHERICAL, 8),
            (SPHERICAL, 8),
            (SPHERICAL, 5),
            (REVOLUTE, 8),
            (REVOLUTE, 2),
        ];
        assert_eq!(classes, expected);
        let mut at = 0;
        for g in s.joint_groups.iter() {
            assert_eq!(g.rows as usize, at);
            at += if g.class == SPHERICAL { 40 } else { 74 };
        }
        assert_eq!(s.joint_rows.len(), at);
    }

    /// Added inertia across a lever slows turning across it and leaves the turning about
    /// it alone.
    #[test]
    fn tension_inertia_slows_turning_across_the_lever_only() {
        let a = Mat3::diagonal(Vec3::splat(4.0));
        let u = Vec3::X;
        let g = Mat3::IDENTITY.scale(0.75) - Mat3::from_cols(u * u.x, u * u.y, u * u.z).scale(0.75);
        let b = with_inertia(&a, &g);
        // About x: 1 / (1/4) = 4 unchanged; across: 1 / (1/4 + 3/4) = 1.
        assert!((b.mul_vec(Vec3::X) - Vec3::new(4.0, 0.0, 0.0)).length() < 1e-6);
        assert!((b.mul_vec(Vec3::Y) - Vec3::new(0.0, 1.0, 0.0)).length() < 1e-6);
        assert!((b.mul_vec(Vec3::Z) - Vec3::new(0.0, 0.0, 1.0)).length() < 1e-6);
        // A locked axis (zero inverse inertia) stays locked.
        let locked = Mat3::diagonal(Vec3::new(4.0, 0.0, 4.0));
        assert_eq!(with_inertia(&locked, &g).mul_vec(Vec3::Y), Vec3::ZERO);
    }

    /// A link pulled hard by two joints at a 2.5 s substep (property seed 345190): in
    /// `f32` the inverse cancels into entries of ±1e32, which a warm start's impulse turned
    /// into NaN. The result is made in `f64` instead: within `0 ≤ R ≤ A`, free about the
    /// levers and nearly rigid across them, and an impulse at the bound turns it finitely.
    #[test]
    fn tension_inertia_stays_bounded_where_f32_cancels() {
        let a = Mat3::from_cols(
            Vec3::new(19.556955, -4.7683716e-7, 0.0),
            Vec3::new(4.7683716e-7, 19.556955, -1.6543612e-24),
            Vec3::new(1.6543612e-24, -1.6543612e-24, 19.556957),
        );
        let g = Mat3::from_cols(
            Vec3::new(338682.44, -150989.06, -1.9271226e-14),
            Vec3::new(-150989.06, 67312.83, -4.322715e-14),
            Vec3::new(-1.9271226e-14, -4.322715e-14, 405995.3),
        );
        // What f32 alone makes of it.
        let m = Mat3::IDENTITY + a.mul_mat(&g);
        let r = m.inverse().mul_mat(&a);
        assert!(!within_inertia(&(r + r.transpose()).scale(0.5), &a));
        let b = with_inertia(&a, &g);
        assert!(within_inertia(&b, &a), "{b:?}");
        // About G's near-null direction (the levers' common line) the body still turns
        // (that direction's share is only as good as G's f32 rounding allows); across it,
        // and about z, it is about a million times stiffer.
        let e = 1.0e-4;
        let (lever, across) = (
            Vec3::new(0.4069, 0.9135, 0.0),
            Vec3::new(0.9135, -0.4069, 0.0),
        );
        assert!(lever.dot(b.mul_vec(lever)) > 0.02 * 19.556955, "{b:?}");
        assert!(across.dot(b.mul_vec(across)) < e && b.cz.z < e, "{b:?}");
        let turn =
            b.mul_vec(Vec3::new(1.0, 1.0, 0.25).cross(Vec3::splat(crate::limits::MAX_IMPULSE)));
        assert!(turn.is_valid(), "{turn:?}");
    }
}
