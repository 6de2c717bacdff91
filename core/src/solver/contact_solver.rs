//! Soft contact constraints (Box2D v3's contact solver, in 3D), eight at a time.
//!
//! Each contact has a normal row and two friction rows per manifold point, plus rolling
//! resistance. (Friction at the manifold's centroid with a twist row, as Bepu does, cut
//! the rows from 12 to 7 but let a ten-box tower rock itself over: per-point friction
//! damps the rocking that sequential normal rows start.)
//!
//! The constraints of one graph colour share no dynamic body, so they are solved eight at
//! a time in `F4x2` lanes (two SSE groups of four, interleaved to hide the latency of a
//! row's chain); the overflow colour, whose constraints may share bodies, is solved one at
//! a time in `F1` lanes. Both run the same generic code, so a lane computes exactly what
//! the one-at-a-time path computes (tested). Preparing is generic too: eight contacts are
//! prepared at once, lane by lane the same operations as one.
//!
//! Every row of a contact shares one frame, `(t1, t2, n)`, so the rows work in it: the
//! lever arms, the inverse inertias and the summed inverse mass are stored in frame
//! coordinates once per step, each pass turns the two bodies' velocities into the frame
//! once, and then a normal row's Jacobian is two products per body and a friction row's
//! four. What a constraint changes goes back to world coordinates once, as a change added
//! to each body's velocity (a body the rows leave alone keeps its bits).
//!
//! The passes stream the constraints (about 500 bytes a contact) three times a substep and
//! are bound by memory about as much as by arithmetic, so what is cheap to recompute is
//! not stored (`t2`, the normal rows' angular response), the warm start's data comes first
//! in each constraint, and what only restitution and storing read lives apart.
//!
//! Separation is tracked within the step from each body's own displacement of the anchor
//! (`dp + dq·r − r`), so a static or far-away body contributes exactly nothing and large
//! lever arms never cancel against each other. Along the normal that is
//! `n·(dq r − r) = (dqᵀ n − n)·r`: one vector per body and constraint, whose terms are all
//! of the order of the rotation, then one dot product per point. The relax pass measures
//! it; the next substep's solve pass, before which nothing moves, reuses it.

use super::lanes::{
    F1, F4x2, Lanes, MAX_WIDTH, P4x2, Q, SolverLanes, Sym3, V3, Wide8, clamp_lanes, prefetch,
};
use super::{BodyParams, BodyState};
use crate::alloc::{FixedVec, WorldAlloc};
use crate::body::NONE;
use crate::combine::{CombineRule, mix_friction, mix_restitution};
use crate::contact::{Contact, ContactPoint};
use crate::error::Result;
use crate::limits::{MAX_IMPULSE, MAX_VELOCITY};
use crate::math::{Mat3, Vec3, max};
use crate::shape::Shape;
use crate::task::Slots;

/// Set in a lane's body index when the body is kinematic: the rows read its velocity
/// but never write it (its mass is infinite), so two lanes may share it.
pub(crate) const READ_ONLY: u32 = 1 << 31;

/// Soft-constraint coefficients (see `make_soft`).
#[derive(Clone, Copy, Debug, Default)]
#[repr(C)]
pub(crate) struct Softness {
    pub bias_rate: f32,
    pub mass_scale: f32,
    pub impulse_scale: f32,
}

/// What the warm start reads of a manifold point of up to four contacts, in the contact
/// frame `(t1, t2, n)`.
#[derive(Clone, Copy, Debug, Default)]
#[repr(C)]
pub(crate) struct WarmPoint<L> {
    /// The point relative to each body's centre of mass.
    pub ra: V3<L>,
    pub rb: V3<L>,
    pub normal_impulse: L,
    pub tangent_impulse1: L,
    pub tangent_impulse2: L,
}

/// The rest of a manifold point, which the solve and relax passes read too.
#[derive(Clone, Copy, Debug, Default)]
#[repr(C)]
pub(crate) struct WidePoint<L> {
    pub separation: L,
    /// The current separation: set by each relax pass for the next substep's solve pass,
    /// which runs before the bodies move again (and is `separation` for the first).
    pub current_separation: L,
    pub normal_mass: L,
    pub max_normal_impulse: L,
    pub tangent_mass1: L,
    pub tangent_mass2: L,
}

/// Up to `L::WIDTH` contacts prepared for the substeps. Laid out so that what the warm
/// start reads comes first, in one run: the pass is bound by memory, and a run streams
/// where a scatter of lines does not.
#[derive(Clone, Copy, Debug, Default)]
#[repr(C)]
pub(crate) struct WideConstraint<L> {
    /// Solver index of each lane's bodies: `NONE` for a static body, `READ_ONLY` set for
    /// a kinematic one.
    pub index_a: [u32; MAX_WIDTH],
    pub index_b: [u32; MAX_WIDTH],
    /// The most points of any lane (a lane with fewer has massless points past its own).
    pub point_count: u32,
    /// Slot in the batch's rolling-resistance array, or `NONE`.
    pub rolling: u32,
    /// The contact frame in world coordinates, `(t1, n × t1, n)` (see `frame`).
    pub tangent1: V3<L>,
    pub normal: V3<L>,
    /// Inverse masses per world axis (zero on a locked axis), for the velocity update.
    pub inv_mass_a: V3<L>,
    pub inv_mass_b: V3<L>,
    /// Inverse inertias in the frame.
    pub inv_i_a: Sym3<L>,
    pub inv_i_b: Sym3<L>,
    pub warm: [WarmPoint<L>; 4],
    /// `Rᵀ (M_a⁻¹ + M_b⁻¹) R`: how an impulse changes the relative linear velocity.
    pub mass_sum: Sym3<L>,
    pub friction: L,
    pub bias_rate: L,
    pub mass_scale: L,
    pub impulse_scale: L,
    pub points: [WidePoint<L>; 4],
}

impl<L: Lanes> WideConstraint<L> {
    /// The contact frame `(t1, t2, n)`; `t2 = n × t1` costs less to recompute than to read.
    #[inline(always)]
    pub(crate) fn frame(&self) -> (V3<L>, V3<L>, V3<L>) {
        (self.tangent1, self.normal.cross(self.tangent1), self.normal)
    }
}

/// What only restitution and storing the impulses read, apart from the hot data.
#[derive(Clone, Copy, Debug, Default)]
#[repr(C)]
pub(crate) struct WideAux<L> {
    /// Contact slot of each lane (`NONE` for an empty lane).
    pub contact: [u32; MAX_WIDTH],
    pub has_restitution: bool,
    pub restitution: L,
    /// Normal approach speed of each point when the step began.
    pub relative_velocity: [L; 4],
}

/// Rolling resistance of a constraint with any rolling lane, in the contact frame.
#[derive(Clone, Copy, Debug, Default)]
#[repr(C)]
pub(crate) struct WideRolling<L> {
    pub resistance: L,
    /// `(I_a⁻¹ + I_b⁻¹)⁻¹`.
    pub mass: Sym3<L>,
    pub impulse: V3<L>,
}

/// The constraints of one width, in solve order.
///
/// The arrays keep their length from step to step and `count` says how many are this
/// step's: preparing overwrites each slot in place rather than clearing and pushing
/// kilobyte-sized values.
pub(crate) struct Batch<L> {
    pub constraints: FixedVec<WideConstraint<L>>,
    pub aux: FixedVec<WideAux<L>>,
    pub rolling: FixedVec<WideRolling<L>>,
    pub count: usize,
}

impl<L: Lanes> Batch<L> {
    pub(crate) fn new(capacity: usize, alloc: WorldAlloc) -> Result<Batch<L>> {
        Ok(Batch {
            constraints: FixedVec::with_capacity(capacity, alloc, "contact_capacity")?,
            aux: FixedVec::with_capacity(capacity, alloc, "contact_capacity")?,
            rolling: FixedVec::filled(capacity, WideRolling::default(), alloc, "contact_capacity")?,
            count: 0,
        })
    }

    pub(crate) fn memory_usage(&self) -> usize {
        use core::mem::size_of;
        self.constraints.capacity() * size_of::<WideConstraint<L>>()
            + self.aux.capacity() * size_of::<WideAux<L>>()
            + self.rolling.capacity() * size_of::<WideRolling<L>>()
    }

    /// Starts a step with room for `count` constraints.
    pub(crate) fn begin(&mut self, count: usize) {
        if self.constraints.len() < count {
            self.constraints.resize(count, WideConstraint::default());
            self.aux.resize(count, WideAux::default());
        }
        self.count = count;
    }
}

/// What `prepare` reads about the world.
pub(crate) struct PrepareContext<'a> {
    pub contacts: &'a [Contact],
    pub shapes: &'a [Shape],
    pub solver_index: &'a [u32],
    pub params: &'a [BodyParams],
    pub states: &'a [BodyState],
    pub soft: Softness,
    pub static_soft: Softness,
    pub friction_rule: CombineRule,
    pub restitution_rule: CombineRule,
}

const STATIC_STATE: BodyState = BodyState::new(Vec3::ZERO, Vec3::ZERO);

#[inline(always)]
fn symmetric(m: &Mat3) -> [f32; 6] {
    // Symmetric by construction (R I⁻¹ Rᵀ); average the off-diagonal pairs so the
    // stored matrix is exactly symmetric whatever the rounding.
    [
        m.cx.x,
        m.cy.y,
        m.cz.z,
        0.5 * (m.cy.x + m.cx.y),
        0.5 * (m.cz.x + m.cx.z),
        0.5 * (m.cz.y + m.cy.z),
    ]
}

/// `(t1·v, t2·v, n·v)`.
#[inline(always)]
fn to_frame<L: Lanes>(t1: V3<L>, t2: V3<L>, n: V3<L>, v: V3<L>) -> V3<L> {
    V3 {
        x: t1.dot(v),
        y: t2.dot(v),
        z: n.dot(v),
    }
}

/// `t1 f.x + t2 f.y + n f.z`.
#[inline(always)]
fn from_frame<L: Lanes>(t1: V3<L>, t2: V3<L>, n: V3<L>, f: V3<L>) -> V3<L> {
    t1.scale(f.x).add(t2.scale(f.y)).add(n.scale(f.z))
}

const NO_POINT: ContactPoint = ContactPoint {
    anchor_a: Vec3::ZERO,
    anchor_b: Vec3::ZERO,
    separation: 0.0,
    normal_impulse: 0.0,
    tangent_impulse: Vec3::ZERO,
    max_normal_impulse: 0.0,
    id: 0,
    base_separation: 0.0,
};

/// One lane's inputs, read from the world once (the wide arithmetic then loads them
/// from here lane by lane).
#[derive(Clone, Copy)]
pub(crate) struct LaneInput {
    slot: u32,
    index_a: u32,
    index_b: u32,
    normal: Vec3,
    tangent: Vec3,
    inv_mass_a: Vec3,
    inv_mass_b: Vec3,
    inv_i_a: [f32; 6],
    inv_i_b: [f32; 6],
    va: Vec3,
    wa: Vec3,
    vb: Vec3,
    wb: Vec3,
    friction: f32,
    restitution: f32,
    resistance: f32,
    soft: Softness,
    point_count: usize,
    /// Zero past `point_count`.
    points: [ContactPoint; 4],
    rolling_mass: [f32; 6],
    rolling_impulse: Vec3,
}

impl LaneInput {
    /// An empty lane: both bodies static, no points.
    pub(crate) const EMPTY: LaneInput = LaneInput {
        slot: NONE,
        index_a: NONE,
        index_b: NONE,
        normal: Vec3::Z,
        tangent: Vec3::X,
        inv_mass_a: Vec3::ZERO,
        inv_mass_b: Vec3::ZERO,
        inv_i_a: [0.0; 6],
        inv_i_b: [0.0; 6],
        va: Vec3::ZERO,
        wa: Vec3::ZERO,
        vb: Vec3::ZERO,
        wb: Vec3::ZERO,
        friction: 0.0,
        restitution: 0.0,
        resistance: 0.0,
        soft: Softness {
            bias_rate: 0.0,
            mass_scale: 0.0,
            impulse_scale: 0.0,
        },
        point_count: 0,
        points: [NO_POINT; 4],
        rolling_mass: [0.0; 6],
        rolling_impulse: Vec3::ZERO,
    };

    /// Asks the cache for what [`LaneInput::read`] of `slot` will touch behind the contact
    /// itself (which must be cached by now: this reads its bodies and shapes): each body's
    /// parameters and state, and each shape's material. A hint; no result depends on it.
    #[inline(always)]
    pub(crate) fn prefetch_behind(ctx: &PrepareContext, slot: u32) {
        let Some(c) = ctx.contacts.get(slot as usize) else {
            return;
        };
        for body in [c.body_a, c.body_b] {
            if let Some(&k) = ctx.solver_index.get(body as usize) {
                if k != NONE {
                    prefetch(ctx.params.as_ptr().wrapping_add(k as usize));
                    prefetch(ctx.states.as_ptr().wrapping_add(k as usize));
                }
            }
        }
        for shape in [c.shape_a, c.shape_b] {
            let at = ctx
                .shapes
                .as_ptr()
                .wrapping_add(shape as usize)
                .cast::<u8>();
            prefetch(at.wrapping_add(core::mem::offset_of!(Shape, friction)));
        }
    }

    /// Reads lane data of the contact in `slot` into `self`, which must hold `EMPTY`.
    #[inline(always)]
    pub(crate) fn read(&mut self, ctx: &PrepareContext, slot: u32) {
        let c = &ctx.contacts[slot as usize];
        self.slot = slot;
        let body = |b: u32| {
            let k = ctx.solver_index[b as usize];
            if k == NONE {
                return (NONE, None);
            }
            let p = &ctx.params[k as usize];
            let index = if p.dynamic { k } else { k | READ_ONLY };
            (index, Some((p, &ctx.states[k as usize])))
        };
        let (index_a, a) = body(c.body_a);
        let (index_b, b) = body(c.body_b);
        let inv_mass =
            |b: Option<(&BodyParams, &BodyState)>| b.map_or(Vec3::ZERO, |b| b.0.inv_mass);
        let inertia =
            |b: Option<(&BodyParams, &BodyState)>| b.map_or(Mat3::ZERO, |b| b.0.inv_inertia);
        let (sa, sb) = (
            &ctx.shapes[c.shape_a as usize],
            &ctx.shapes[c.shape_b as usize],
        );
        let (ma, mb) = (inv_mass(a), inv_mass(b));
        let resistance = max(sa.rolling_resistance, sb.rolling_resistance);
        let count = c.point_count as usize;
        self.index_a = index_a;
        self.index_b = index_b;
        self.normal = c.normal;
        self.tangent = c.normal.perpendicular();
        self.inv_mass_a = ma;
        self.inv_mass_b = mb;
        self.inv_i_a = symmetric(&inertia(a));
        self.inv_i_b = symmetric(&inertia(b));
        if let Some((_, s)) = a {
            (self.va, self.wa) = (s.v, s.w);
        }
        if let Some((_, s)) = b {
            (self.vb, self.wb) = (s.v, s.w);
        }
        self.friction = mix_friction(
            ctx.friction_rule,
            sa.friction,
            sa.rough,
            sb.friction,
            sb.rough,
        );
        self.restitution = mix_restitution(
            ctx.restitution_rule,
            sa.restitution,
            sa.absorbent,
            sb.restitution,
            sb.absorbent,
        );
        self.resistance = resistance;
        self.soft = if ma == Vec3::ZERO || mb == Vec3::ZERO {
            ctx.static_soft
        } else {
            ctx.soft
        };
        self.point_count = count;
        self.points[..count].copy_from_slice(&c.points[..count]);
        if resistance > 0.0 {
            self.rolling_mass = symmetric(&(inertia(a) + inertia(b)).inverse());
            self.rolling_impulse = c.rolling_impulse;
        }
    }
}

/// Prepares the contacts read into `lane` (its first `L::WIDTH` entries; `EMPTY` past the
/// last contact) into constraint `k`, `c` and `aux`, and their rolling resistance, if any
/// lane has some, into `rolling` (the constraint's own entry). Writes everything the
/// passes read; reads nothing of what `c` held.
#[inline(always)]
fn prepare_lanes<L: Lanes>(
    lane: &[LaneInput; MAX_WIDTH],
    k: usize,
    c: &mut WideConstraint<L>,
    aux: &mut WideAux<L>,
    rolling: &mut WideRolling<L>,
) {
    let n = V3::<L>::from_fn(|i| lane[i].normal);
    let t1 = V3::<L>::from_fn(|i| lane[i].tangent);
    let t2 = n.cross(t1);
    let ma = V3::<L>::from_fn(|i| lane[i].inv_mass_a);
    let mb = V3::<L>::from_fn(|i| lane[i].inv_mass_b);
    let ia = Sym3::<L>::from_fn(|i| lane[i].inv_i_a).in_frame(t1, t2, n);
    let ib = Sym3::<L>::from_fn(|i| lane[i].inv_i_b).in_frame(t1, t2, n);
    let m = ma.add(mb);
    let (m1, m2, m3) = (m.mul_elements(t1), m.mul_elements(t2), m.mul_elements(n));
    let mass_sum = Sym3 {
        xx: t1.dot(m1),
        yy: t2.dot(m2),
        zz: n.dot(m3),
        xy: t1.dot(m2),
        xz: t1.dot(m3),
        yz: t2.dot(m3),
    };

    c.index_a = core::array::from_fn(|i| lane[i].index_a);
    c.index_b = core::array::from_fn(|i| lane[i].index_b);
    c.tangent1 = t1;
    c.normal = n;
    c.inv_mass_a = ma;
    c.inv_mass_b = mb;
    c.mass_sum = mass_sum;
    c.inv_i_a = ia;
    c.inv_i_b = ib;
    c.friction = L::from_fn(|i| lane[i].friction);
    c.bias_rate = L::from_fn(|i| lane[i].soft.bias_rate);
    c.mass_scale = L::from_fn(|i| lane[i].soft.mass_scale);
    c.impulse_scale = L::from_fn(|i| lane[i].soft.impulse_scale);
    aux.contact = core::array::from_fn(|i| if i < L::WIDTH { lane[i].slot } else { NONE });
    aux.restitution = L::from_fn(|i| lane[i].restitution);
    aux.has_restitution = lane.iter().any(|l| l.restitution > 0.0);

    // The approach speeds only matter to restitution.
    let velocities = aux.has_restitution.then(|| {
        (
            V3::<L>::from_fn(|i| lane[i].va),
            V3::<L>::from_fn(|i| lane[i].wa),
            V3::<L>::from_fn(|i| lane[i].vb),
            V3::<L>::from_fn(|i| lane[i].wb),
        )
    });
    let count = lane
        .iter()
        .fold(0, |a, l| if l.point_count > a { l.point_count } else { a });
    c.point_count = count as u32;
    let zero = L::default();
    let one = L::splat(1.0);
    for j in 0..count {
        let present = L::from_fn(|i| if j < lane[i].point_count { 1.0 } else { 0.0 });
        let anchor_a = V3::<L>::from_fn(|i| lane[i].points[j].anchor_a);
        let anchor_b = V3::<L>::from_fn(|i| lane[i].points[j].anchor_b);
        let tangent = V3::<L>::from_fn(|i| lane[i].points[j].tangent_impulse);
        let ra = to_frame(t1, t2, n, anchor_a);
        let rb = to_frame(t1, t2, n, anchor_b);
        // I⁻¹ (r × n) with r × n = (r.y, −r.x, 0) in the frame.
        let ka = V3 {
            x: ia.xx * ra.y - ia.xy * ra.x,
            y: ia.xy * ra.y - ia.yy * ra.x,
            z: ia.xz * ra.y - ia.yz * ra.x,
        };
        let kb = V3 {
            x: ib.xx * rb.y - ib.xy * rb.x,
            y: ib.xy * rb.y - ib.yy * rb.x,
            z: ib.xz * rb.y - ib.yz * rb.x,
        };
        let kn = mass_sum.zz + (ra.y * ka.x - ra.x * ka.y) + (rb.y * kb.x - rb.x * kb.y);
        // (r × t1)ᵀ I⁻¹ (r × t1) with r × t1 = (0, r.z, −r.y).
        let k1 = |i: &Sym3<L>, r: V3<L>| {
            r.z * (i.yy * r.z - i.yz * r.y) - r.y * (i.yz * r.z - i.zz * r.y)
        };
        // (r × t2)ᵀ I⁻¹ (r × t2) with r × t2 = (−r.z, 0, r.x).
        let k2 = |i: &Sym3<L>, r: V3<L>| {
            r.x * (i.zz * r.x - i.xz * r.z) - r.z * (i.xz * r.x - i.xx * r.z)
        };
        let kt1 = mass_sum.xx + k1(&ia, ra) + k1(&ib, rb);
        let kt2 = mass_sum.yy + k2(&ia, ra) + k2(&ib, rb);
        let inverse = |k: L| L::select_gt(k, zero, one.div(k), zero) * present;
        let w = &mut c.warm[j];
        w.ra = ra;
        w.rb = rb;
        w.normal_impulse = L::from_fn(|i| lane[i].points[j].normal_impulse);
        w.tangent_impulse1 = tangent.dot(t1);
        w.tangent_impulse2 = tangent.dot(t2);
        let p = &mut c.points[j];
        p.separation = L::from_fn(|i| lane[i].points[j].separation);
        p.current_separation = p.separation;
        p.normal_mass = inverse(kn);
        p.max_normal_impulse = zero;
        p.tangent_mass1 = inverse(kt1);
        p.tangent_mass2 = inverse(kt2);
        aux.relative_velocity[j] = velocities.map_or(zero, |(va, wa, vb, wb)| {
            n.dot(vb.add(wb.cross(anchor_b)).sub(va.add(wa.cross(anchor_a))))
        });
    }

    c.rolling = NONE;
    if lane.iter().any(|l| l.resistance > 0.0) {
        let mass = Sym3::<L>::from_fn(|i| lane[i].rolling_mass);
        let impulse = V3::<L>::from_fn(|i| lane[i].rolling_impulse);
        *rolling = WideRolling {
            resistance: L::from_fn(|i| lane[i].resistance),
            mass: mass.in_frame(t1, t2, n),
            impulse: to_frame(t1, t2, n, impulse),
        };
        c.rolling = k as u32;
    }
}

/// Velocities and motion of the bodies of every lane.
pub(crate) struct Gathered<L> {
    pub v: V3<L>,
    pub w: V3<L>,
    pub dp: V3<L>,
    pub dq: Q<L>,
}

/// Body states shared by the constraints of one colour, which may run on several threads:
/// no two constraints of a colour share a dynamic body (the colouring's invariant), and
/// read-only (kinematic) bodies are never written, so every state is written by at most
/// one constraint of the stage and read by no other.
pub(crate) type States<'a> = Slots<'a, BodyState>;

#[inline(always)]
fn state_of<'a>(states: &'a States, k: u32) -> &'a BodyState {
    if k == NONE {
        &STATIC_STATE
    } else {
        // SAFETY: see `States`: while this constraint runs no other thread writes body k;
        // k is a solver index of this step (the constraints take them from
        // `solver_index`), below the state count.
        unsafe { states.get_unchecked(k as usize & !(READ_ONLY as usize)) }
    }
}

/// Loads each lane's body state as four 16-byte rows and transposes them into lanes.
#[inline(always)]
pub(crate) fn gather<L: Lanes>(states: &States, index: &[u32; MAX_WIDTH]) -> Gathered<L> {
    let s: [&BodyState; MAX_WIDTH] = core::array::from_fn(|i| {
        if i < L::WIDTH {
            state_of(states, index[i])
        } else {
            &STATIC_STATE
        }
    });
    let [vx, vy, vz, _] = L::transpose(core::array::from_fn(|i| s[i].v_row()));
    let [wx, wy, wz, _] = L::transpose(core::array::from_fn(|i| s[i].w_row()));
    let [px, py, pz, _] = L::transpose(core::array::from_fn(|i| s[i].dp_row()));
    let [qx, qy, qz, qw] = L::transpose(core::array::from_fn(|i| s[i].dq_row()));
    Gathered {
        v: V3 {
            x: vx,
            y: vy,
            z: vz,
        },
        w: V3 {
            x: wx,
            y: wy,
            z: wz,
        },
        dp: V3 {
            x: px,
            y: py,
            z: pz,
        },
        dq: Q {
            v: V3 {
                x: qx,
                y: qy,
                z: qz,
            },
            w: qw,
        },
    }
}

#[inline(always)]
fn gather_velocity<L: Lanes>(states: &States, index: &[u32; MAX_WIDTH]) -> (V3<L>, V3<L>) {
    let s: [&BodyState; MAX_WIDTH] = core::array::from_fn(|i| {
        if i < L::WIDTH {
            state_of(states, index[i])
        } else {
            &STATIC_STATE
        }
    });
    let [vx, vy, vz, _] = L::transpose(core::array::from_fn(|i| s[i].v_row()));
    let [wx, wy, wz, _] = L::transpose(core::array::from_fn(|i| s[i].w_row()));
    (
        V3 {
            x: vx,
            y: vy,
            z: vz,
        },
        V3 {
            x: wx,
            y: wy,
            z: wz,
        },
    )
}

/// Writes the velocities of the lanes whose body is dynamic.
#[inline(always)]
fn scatter<L: Lanes>(states: &States, index: &[u32; MAX_WIDTH], v: &V3<L>, w: &V3<L>) {
    let zero = L::default();
    // Velocities stay within the range calls accept (never reached by sane scenes; it
    // keeps huge lever arms and masses from overflowing the next row into NaN). The
    // world's speed caps apply per body after the rows.
    // Adding +0 turns a -0 into +0 and changes nothing else: a lane of a constraint with
    // fewer points than its neighbours runs their rows with nothing to apply, and adding
    // that nothing can turn -0 into +0 where the constraint alone would not (the
    // one-at-a-time path runs only its own rows). Zeros are written one way, so both
    // paths hand the next constraint the same bits.
    let v = v.clamp(MAX_VELOCITY).add(V3::default());
    let w = w.clamp(MAX_VELOCITY).add(V3::default());
    let rv = L::untranspose([v.x, v.y, v.z, zero]);
    let rw = L::untranspose([w.x, w.y, w.z, zero]);
    for (i, &k) in index.iter().enumerate().take(L::WIDTH) {
        if k & READ_ONLY == 0 {
            // Whole rows, padding included.
            // SAFETY: see `States`: this constraint is the only one touching body k, a
            // solver index of this step (below the state count; `NONE` is read-only).
            let s = unsafe { states.get_unchecked(k as usize) };
            s.set_v_row(rv[i]);
            s.set_w_row(rw[i]);
        }
    }
}

/// Lanes and frame of a constraint, and its bodies' velocities in that frame.
struct Local<L> {
    /// `vb − va` in the frame.
    rel: V3<L>,
    wa: V3<L>,
    wb: V3<L>,
    /// What the rows started from, to hand back only their change.
    wa0: V3<L>,
    wb0: V3<L>,
    /// Linear impulse on body B (and minus it on A), in the frame.
    p: V3<L>,
}

impl<L: Lanes> Local<L> {
    #[inline(always)]
    fn new(c: &WideConstraint<L>, va: V3<L>, wa: V3<L>, vb: V3<L>, wb: V3<L>) -> Local<L> {
        let (t1, t2, n) = c.frame();
        let wa = to_frame(t1, t2, n, wa);
        let wb = to_frame(t1, t2, n, wb);
        Local {
            rel: to_frame(t1, t2, n, vb.sub(va)),
            wa,
            wb,
            wa0: wa,
            wb0: wb,
            p: V3::default(),
        }
    }

    /// Applies normal impulse `applied` at point `w`.
    #[inline(always)]
    fn apply_normal(&mut self, c: &WideConstraint<L>, w: &WarmPoint<L>, applied: L) {
        let (ka, kb) = normal_response(c, w);
        let m = &c.mass_sum;
        self.rel = V3 {
            x: self.rel.x + m.xz * applied,
            y: self.rel.y + m.yz * applied,
            z: self.rel.z + m.zz * applied,
        };
        self.wa = self.wa.sub(ka.scale(applied));
        self.wb = self.wb.add(kb.scale(applied));
        self.p.z = self.p.z + applied;
    }

    /// `vn`: the normal relative velocity at point `p`.
    #[inline(always)]
    fn normal_speed(&self, p: &WarmPoint<L>) -> L {
        let (wa, wb, ra, rb) = (self.wa, self.wb, p.ra, p.rb);
        self.rel.z + ((wb.x * rb.y - wb.y * rb.x) - (wa.x * ra.y - wa.y * ra.x))
    }

    /// Adds the change back to world velocities.
    #[inline(always)]
    fn finish(
        &self,
        c: &WideConstraint<L>,
        va: V3<L>,
        wa: V3<L>,
        vb: V3<L>,
        wb: V3<L>,
    ) -> (V3<L>, V3<L>, V3<L>, V3<L>) {
        let (t1, t2, n) = c.frame();
        let p = from_frame(t1, t2, n, self.p);
        (
            va.sub(c.inv_mass_a.mul_elements(p)),
            wa.add(from_frame(t1, t2, n, self.wa.sub(self.wa0))),
            vb.add(c.inv_mass_b.mul_elements(p)),
            wb.add(from_frame(t1, t2, n, self.wb.sub(self.wb0))),
        )
    }
}

/// `I⁻¹ (r × n)` of each body: the normal row's angular response, with `r × n = (r.y, −r.x,
/// 0)` in the frame. Recomputed in every pass rather than stored: the passes are bound by
/// memory more than by arithmetic, and this is off the rows' chain.
#[inline(always)]
fn normal_response<L: Lanes>(c: &WideConstraint<L>, w: &WarmPoint<L>) -> (V3<L>, V3<L>) {
    let k = |i: &Sym3<L>, r: V3<L>| V3 {
        x: i.xx * r.y - i.xy * r.x,
        y: i.xy * r.y - i.yy * r.x,
        z: i.xz * r.y - i.yz * r.x,
    };
    (k(&c.inv_i_a, w.ra), k(&c.inv_i_b, w.rb))
}

/// `I⁻¹ (r × (d1, d2, 0))` with `r × (d1, d2, 0) = (−r.z d2, r.z d1, r.x d2 − r.y d1)`.
#[inline(always)]
fn tangent_response<L: Lanes>(i: &Sym3<L>, r: V3<L>, d1: L, d2: L) -> V3<L> {
    let (u, v, w) = (r.z * d1, r.z * d2, r.x * d2 - r.y * d1);
    V3 {
        x: (i.xy * u - i.xx * v) + i.xz * w,
        y: (i.yy * u - i.xy * v) + i.yz * w,
        z: (i.yz * u - i.xz * v) + i.zz * w,
    }
}

/// `dqᵀ n − n` in the contact frame (`n = e3`), for the rotation `dq = (q, w)` with `q` in
/// that frame: `−2w (q × n) + 2 q × (q × n)`, each term of the order of the rotation.
#[inline(always)]
fn normal_motion<L: Lanes>(q: V3<L>, w: L) -> V3<L> {
    let two = L::splat(2.0);
    V3 {
        x: two * (q.x * q.z - w * q.y),
        y: two * (q.y * q.z + w * q.x),
        z: L::default() - two * (q.x * q.x + q.y * q.y),
    }
}

/// Applies the impulses kept from the last step.
#[inline(always)]
fn warm_start_lanes<L: Lanes>(
    states: &States,
    constraints: &[WideConstraint<L>],
    rolling: &Slots<WideRolling<L>>,
) {
    for c in constraints {
        let (va, wa) = gather_velocity::<L>(states, &c.index_a);
        let (vb, wb) = gather_velocity::<L>(states, &c.index_b);
        // No row reads another here, so sum the impulses and their moments first.
        let mut p = V3::<L>::default();
        let mut la = V3::<L>::default();
        let mut lb = V3::<L>::default();
        for pt in &c.warm[..c.point_count as usize] {
            let imp = V3 {
                x: pt.tangent_impulse1,
                y: pt.tangent_impulse2,
                z: pt.normal_impulse,
            };
            p = p.add(imp);
            la = la.add(pt.ra.cross(imp));
            lb = lb.add(pt.rb.cross(imp));
        }
        if c.rolling != NONE {
            // SAFETY: each rolling entry belongs to one constraint, run by one thread.
            let r = unsafe { rolling.get(c.rolling as usize) };
            // A lane without rolling resistance adds its zero impulse: at most the sign of
            // a zero changes, and `scatter` writes zeros one way.
            la = la.add(r.impulse);
            lb = lb.add(r.impulse);
        }
        let (t1, t2, n) = c.frame();
        let pw = from_frame(t1, t2, n, p);
        let va = va.sub(c.inv_mass_a.mul_elements(pw));
        let vb = vb.add(c.inv_mass_b.mul_elements(pw));
        let wa = wa.sub(from_frame(t1, t2, n, c.inv_i_a.mul_vec(la)));
        let wb = wb.add(from_frame(t1, t2, n, c.inv_i_b.mul_vec(lb)));
        scatter(states, &c.index_a, &va, &wa);
        scatter(states, &c.index_b, &vb, &wb);
    }
}

/// One Gauss-Seidel pass: with `USE_BIAS` the soft push-out (solve), without it the relax
/// pass that removes the push-out's velocity.
#[inline(always)]
fn solve_lanes<L: Lanes, const USE_BIAS: bool>(
    states: &States,
    constraints: &mut [WideConstraint<L>],
    rolling: &Slots<WideRolling<L>>,
    inv_h: f32,
    push_max: f32,
) {
    let zero = L::default();
    let one = L::splat(1.0);
    let inv_h = L::splat(inv_h);
    let neg_push = L::splat(-push_max);
    let max_impulse = L::splat(MAX_IMPULSE);
    for c in constraints.iter_mut() {
        let (va, wa, vb, wb);
        let (t1, t2, n) = c.frame();
        let count = c.point_count as usize;

        // First what does not depend on the velocities: each point's current separation
        // and from it the row's target and softness. The rows' chain then carries only the
        // velocities, in fewer registers.
        let mut bias = [zero; 4];
        let mut mass = [zero; 4];
        let mut keep = [zero; 4];
        if USE_BIAS {
            // The bodies have not moved since the last relax pass measured the separation.
            (va, wa) = gather_velocity::<L>(states, &c.index_a);
            (vb, wb) = gather_velocity::<L>(states, &c.index_b);
            for j in 0..count {
                let p = &c.points[j];
                let s = p.current_separation;
                // Speculative (s > 0): allow the approach that closes the gap this substep.
                let soft = (c.bias_rate * s).max(neg_push);
                bias[j] = L::select_gt(s, zero, s * inv_h, soft);
                mass[j] = p.normal_mass * L::select_gt(s, zero, one, c.mass_scale);
                keep[j] = L::select_gt(s, zero, zero, c.impulse_scale);
            }
        } else {
            // The separation from each body's own motion of the anchor.
            let ga = gather::<L>(states, &c.index_a);
            let gb = gather::<L>(states, &c.index_b);
            (va, wa, vb, wb) = (ga.v, ga.w, gb.v, gb.w);
            let dp = n.dot(gb.dp.sub(ga.dp));
            let sa = normal_motion(to_frame(t1, t2, n, ga.dq.v), ga.dq.w);
            let sb = normal_motion(to_frame(t1, t2, n, gb.dq.v), gb.dq.w);
            for ((p, w), bias) in c.points[..count].iter_mut().zip(&c.warm).zip(&mut bias) {
                let s = (dp + (sb.dot(w.rb) - sa.dot(w.ra))) + p.separation;
                p.current_separation = s;
                *bias = L::select_gt(s, zero, s * inv_h, zero);
            }
        }
        let mut l = Local::new(c, va, wa, vb, wb);

        let m = c.mass_sum;
        for j in 0..count {
            let (p, w) = (&c.points[j], &c.warm[j]);
            let vn = l.normal_speed(w);
            let x = if USE_BIAS {
                mass[j] * (vn + bias[j]) + keep[j] * w.normal_impulse
            } else {
                p.normal_mass * (vn + bias[j])
            };
            let new_impulse = (w.normal_impulse - x).max(zero);
            let new_impulse = L::select_gt(new_impulse, max_impulse, max_impulse, new_impulse);
            let applied = new_impulse - w.normal_impulse;
            c.warm[j].normal_impulse = new_impulse;
            let p = &mut c.points[j];
            p.max_normal_impulse = p.max_normal_impulse.max(applied);
            l.rel.z = l.rel.z + m.zz * applied;
            let (ka, kb) = normal_response(c, &c.warm[j]);
            l.wa = l.wa.sub(ka.scale(applied));
            l.wb = l.wb.add(kb.scale(applied));
            l.p.z = l.p.z + applied;
        }
        // Bounded before the friction rows multiply them by lever arms (see `scatter`).
        l.wa = l.wa.clamp(MAX_VELOCITY);
        l.wb = l.wb.clamp(MAX_VELOCITY);
        // The normal rows read only rel.z: the tangential relative velocity takes their
        // summed impulse at once.
        l.rel.x = l.rel.x + m.xz * l.p.z;
        l.rel.y = l.rel.y + m.yz * l.p.z;

        // Coulomb friction per point: the impulse stays within the cone μ·λn.
        for j in 0..count {
            let (p, w) = (&c.points[j], &c.warm[j]);
            let (ra, rb, wa, wb) = (w.ra, w.rb, l.wa, l.wb);
            let dv1 = l.rel.x + ((wb.y * rb.z - wb.z * rb.y) - (wa.y * ra.z - wa.z * ra.y));
            let dv2 = l.rel.y + ((wb.z * rb.x - wb.x * rb.z) - (wa.z * ra.x - wa.x * ra.z));
            // Held within 1e18 first, so their squares cannot overflow: the cone is at
            // most 1e3 × MAX_IMPULSE, so this only bounds an impulse the cone cuts anyway.
            let l1 = clamp_lanes(w.tangent_impulse1 - p.tangent_mass1 * dv1, 1.0e18);
            let l2 = clamp_lanes(w.tangent_impulse2 - p.tangent_mass2 * dv2, 1.0e18);
            let limit = c.friction * w.normal_impulse;
            let len2 = l1 * l1 + l2 * l2;
            let scale = L::select_gt(len2, limit * limit, limit.div(len2.sqrt()), one);
            let (l1, l2) = (l1 * scale, l2 * scale);
            let d1 = l1 - w.tangent_impulse1;
            let d2 = l2 - w.tangent_impulse2;
            // Only the normal rows read rel.z, and they have all run.
            l.rel.x = l.rel.x + (m.xx * d1 + m.xy * d2);
            l.rel.y = l.rel.y + (m.xy * d1 + m.yy * d2);
            l.p.x = l.p.x + d1;
            l.p.y = l.p.y + d2;
            l.wa = l.wa.sub(tangent_response(&c.inv_i_a, ra, d1, d2));
            l.wb = l.wb.add(tangent_response(&c.inv_i_b, rb, d1, d2));
            let w = &mut c.warm[j];
            w.tangent_impulse1 = l1;
            w.tangent_impulse2 = l2;
        }

        if c.rolling != NONE {
            // SAFETY: each rolling entry belongs to one constraint, run by one thread.
            let r = unsafe { rolling.get(c.rolling as usize) };
            let dw = l.wb.sub(l.wa);
            let old = r.impulse;
            let acc = old.sub(r.mass.mul_vec(dw)).clamp(1.0e18);
            let total = c.warm[..count]
                .iter()
                .fold(zero, |t, w| t + w.normal_impulse);
            let limit = r.resistance * total;
            let len2 = acc.dot(acc);
            let scale = L::select_gt(len2, limit * limit, limit.div(len2.sqrt()), one);
            let acc = acc.scale(scale);
            let d = acc.sub(old);
            // A lane without rolling resistance has no rolling mass and a limit of zero:
            // its impulse and change stay zeros (see warm_start).
            r.impulse = acc;
            l.wa = l.wa.sub(c.inv_i_a.mul_vec(d));
            l.wb = l.wb.add(c.inv_i_b.mul_vec(d));
        }
        let (va, wa, vb, wb) = l.finish(c, va, wa, vb, wb);
        scatter(states, &c.index_a, &va, &wa);
        scatter(states, &c.index_b, &vb, &wb);
    }
}

/// Bounces: for points that approached faster than the threshold, aim for `-e` times the
/// approach speed (Box2D's restitution pass, after the substeps).
#[inline(always)]
fn restitution_lanes<L: Lanes>(
    states: &States,
    constraints: &mut [WideConstraint<L>],
    aux: &[WideAux<L>],
    threshold: f32,
) {
    let zero = L::default();
    let one = L::splat(1.0);
    let neg_threshold = L::splat(-threshold);
    for (c, aux) in constraints.iter_mut().zip(aux) {
        if !aux.has_restitution {
            continue;
        }
        let (va, wa) = gather_velocity::<L>(states, &c.index_a);
        let (vb, wb) = gather_velocity::<L>(states, &c.index_b);
        let mut l = Local::new(c, va, wa, vb, wb);
        let e = aux.restitution;
        for j in 0..c.point_count as usize {
            let (p, w) = (&c.points[j], &c.warm[j]);
            let rv = aux.relative_velocity[j];
            let vn = l.normal_speed(w);
            let x = p.normal_mass * (vn + e * rv);
            let new_impulse = (w.normal_impulse - x).max(zero);
            let max_impulse = L::splat(MAX_IMPULSE);
            let new_impulse = L::select_gt(new_impulse, max_impulse, max_impulse, new_impulse);
            // Only lanes that approached fast, pushed this step and bounce.
            let fast = L::select_gt(neg_threshold, rv, one, zero);
            let pushed = L::select_gt(p.max_normal_impulse, zero, fast, zero);
            let active = L::select_gt(e, zero, pushed, zero);
            let new_impulse = L::select_gt(active, zero, new_impulse, w.normal_impulse);
            let applied = new_impulse - w.normal_impulse;
            c.warm[j].normal_impulse = new_impulse;
            let p = &mut c.points[j];
            // Only the lanes that bounce write, here and in the velocities below: a lane
            // without restitution must come out exactly as on the one-at-a-time path,
            // which skips its constraint (a zero change can still turn -0 into +0).
            let most = p.max_normal_impulse.max(applied);
            p.max_normal_impulse = L::select_gt(e, zero, most, p.max_normal_impulse);
            l.apply_normal(c, &c.warm[j], applied);
        }
        let (va2, wa2, vb2, wb2) = l.finish(c, va, wa, vb, wb);
        let va = V3::select_gt(e, zero, va2, va);
        let wa = V3::select_gt(e, zero, wa2, wa);
        let vb = V3::select_gt(e, zero, vb2, vb);
        let wb = V3::select_gt(e, zero, wb2, wb);
        scatter(states, &c.index_a, &va, &wa);
        scatter(states, &c.index_b, &vb, &wb);
    }
}

/// Keeps the step's impulses in the contacts for the next step's warm start.
#[inline(always)]
fn store_lanes<L: Lanes>(
    contacts: &Slots<Contact>,
    constraints: &[WideConstraint<L>],
    aux: &[WideAux<L>],
    rolling: &Slots<WideRolling<L>>,
) {
    for (k, (c, a)) in constraints.iter().zip(aux).enumerate() {
        // The contacts of a colour lie scattered through the contact array: ask for those
        // two constraints ahead, one beside each lane's store (see `prepare_in_parallel`).
        let ahead = aux.get(k + 2).map_or(&[][..], |a| &a.contact[..L::WIDTH]);
        let aux = a;
        let (t1, t2, n) = c.frame();
        // Every impulse kept with its zeros written as +0 (adding +0; see `scatter`): a
        // lane's padding rows may have turned one of its zeros' signs.
        let zero = L::default();
        let mut normal = [[0.0; MAX_WIDTH]; 4];
        let mut most = [[0.0; MAX_WIDTH]; 4];
        let mut tangent = [[Vec3::ZERO; MAX_WIDTH]; 4];
        for j in 0..c.point_count as usize {
            let (p, w) = (&c.points[j], &c.warm[j]);
            normal[j] = (w.normal_impulse + zero).to_array();
            most[j] = (p.max_normal_impulse + zero).to_array();
            tangent[j] = t1
                .scale(w.tangent_impulse1)
                .add(t2.scale(w.tangent_impulse2))
                .add(V3::default())
                .lanes();
        }
        let roll = if c.rolling != NONE {
            // SAFETY: each rolling entry belongs to one constraint, run by one thread.
            let r = unsafe { rolling.get(c.rolling as usize) };
            // A lane without rolling resistance stores +0s, as one alone would.
            from_frame(t1, t2, n, r.impulse).add(V3::default()).lanes()
        } else {
            [Vec3::ZERO; MAX_WIDTH]
        };
        for i in 0..L::WIDTH {
            if let Some(&slot) = ahead.get(i) {
                let p = contacts.ptr(slot as usize);
                if !p.is_null() {
                    prefetch(p);
                }
            }
            let slot = aux.contact[i];
            if slot == NONE {
                continue;
            }
            // SAFETY: each contact is a lane of exactly one constraint.
            let contact = unsafe { contacts.get(slot as usize) };
            for j in 0..contact.point_count as usize {
                let cp = &mut contact.points[j];
                cp.normal_impulse = normal[j][i];
                cp.max_normal_impulse = most[j][i];
                cp.tangent_impulse = tangent[j][i];
            }
            contact.rolling_impulse = roll[i];
        }
    }
}

/// The two batches of a step: colours solved four at a time, and the overflow (or every
/// colour, when the world solves one at a time) solved one at a time.
pub(crate) struct Constraints {
    pub wide: Batch<F4x2>,
    pub single: Batch<F1>,
}

/// Reinterprets constraints written as `F4x2` in another eight-lane type.
#[inline(always)]
fn view<L: Wide8>(c: &[WideConstraint<F4x2>]) -> &[WideConstraint<L>] {
    // SAFETY: every `Wide8` type has `F4x2`'s layout, and `WideConstraint` is `repr(C)`
    // over lanes, lane records (`repr(C)` too) and integers, so both instances lay out
    // alike and every bit pattern of a lane is a valid lane.
    unsafe { core::slice::from_raw_parts(c.as_ptr().cast(), c.len()) }
}

/// As `view`, writable.
#[inline(always)]
fn view_mut<L: Wide8>(c: &mut [WideConstraint<F4x2>]) -> &mut [WideConstraint<L>] {
    // SAFETY: as `view`.
    unsafe { core::slice::from_raw_parts_mut(c.as_mut_ptr().cast(), c.len()) }
}

/// As `view`, for the restitution and storing records.
#[inline(always)]
fn view_aux<L: Wide8>(a: &[WideAux<F4x2>]) -> &[WideAux<L>] {
    // SAFETY: as `view` (`WideAux` is `repr(C)`).
    unsafe { core::slice::from_raw_parts(a.as_ptr().cast(), a.len()) }
}

/// As `view`, for the rolling-resistance slots.
#[inline(always)]
fn view_rolling<'a, L: Wide8>(r: &Slots<'a, WideRolling<F4x2>>) -> Slots<'a, WideRolling<L>> {
    // SAFETY: as `view` (`WideRolling` is `repr(C)`).
    unsafe { r.cast() }
}

/// As `view`, for one constraint being prepared.
#[inline(always)]
fn view_one<'a, L: Wide8>(
    c: &'a mut WideConstraint<F4x2>,
    aux: &'a mut WideAux<F4x2>,
    rolling: &'a mut WideRolling<F4x2>,
) -> (
    &'a mut WideConstraint<L>,
    &'a mut WideAux<L>,
    &'a mut WideRolling<L>,
) {
    // SAFETY: as `view`.
    unsafe {
        (
            &mut *(c as *mut WideConstraint<F4x2>).cast(),
            &mut *(aux as *mut WideAux<F4x2>).cast(),
            &mut *(rolling as *mut WideRolling<F4x2>).cast(),
        )
    }
}

/// The wide batch's passes in the lanes `lanes` asks for (resolved: never `Auto`). Each
/// lane type computes the same bits, so the choice changes speed only.
pub(crate) mod wide {
    use super::*;

    /// Prepares one wide constraint (see `prepare_lanes`). `Eight` prepares in `F4x2`:
    /// building lanes from scattered scalars gains nothing from AVX (it measured slower),
    /// and every lane type writes the same bits.
    #[inline(never)]
    pub(crate) fn prepare(
        lanes: SolverLanes,
        lane: &[LaneInput; MAX_WIDTH],
        k: usize,
        c: &mut WideConstraint<F4x2>,
        aux: &mut WideAux<F4x2>,
        rolling: &mut WideRolling<F4x2>,
    ) {
        match lanes {
            SolverLanes::Scalar => {
                let (c, aux, rolling) = view_one::<P4x2>(c, aux, rolling);
                prepare_lanes(lane, k, c, aux, rolling)
            }
            _ => prepare_lanes(lane, k, c, aux, rolling),
        }
    }

    /// Applies the impulses kept from the last step (see `warm_start_lanes`).
    #[inline(never)]
    pub(crate) fn warm_start(
        lanes: SolverLanes,
        states: &States,
        c: &[WideConstraint<F4x2>],
        rolling: &Slots<WideRolling<F4x2>>,
    ) {
        match lanes {
            SolverLanes::Scalar => {
                warm_start_lanes::<P4x2>(states, view(c), &view_rolling(rolling))
            }
            #[cfg(any(
                target_arch = "x86_64",
                all(target_arch = "x86", target_feature = "sse2")
            ))]
            // SAFETY: `Eight` is only ever resolved where the CPU has AVX2.
            SolverLanes::Eight => unsafe {
                avx::warm_start(states, view(c), &view_rolling(rolling))
            },
            _ => warm_start_lanes(states, c, rolling),
        }
    }

    /// One Gauss-Seidel pass (see `solve_lanes`).
    #[inline(never)]
    pub(crate) fn solve<const USE_BIAS: bool>(
        lanes: SolverLanes,
        states: &States,
        c: &mut [WideConstraint<F4x2>],
        rolling: &Slots<WideRolling<F4x2>>,
        inv_h: f32,
        push_max: f32,
    ) {
        match lanes {
            SolverLanes::Scalar => solve_lanes::<P4x2, USE_BIAS>(
                states,
                view_mut(c),
                &view_rolling(rolling),
                inv_h,
                push_max,
            ),
            #[cfg(any(
                target_arch = "x86_64",
                all(target_arch = "x86", target_feature = "sse2")
            ))]
            // SAFETY: `Eight` is only ever resolved where the CPU has AVX2.
            SolverLanes::Eight => unsafe {
                avx::solve::<USE_BIAS>(states, view_mut(c), &view_rolling(rolling), inv_h, push_max)
            },
            _ => solve_lanes::<F4x2, USE_BIAS>(states, c, rolling, inv_h, push_max),
        }
    }

    /// Bounces (see `restitution_lanes`).
    #[inline(never)]
    pub(crate) fn apply_restitution(
        lanes: SolverLanes,
        states: &States,
        c: &mut [WideConstraint<F4x2>],
        aux: &[WideAux<F4x2>],
        threshold: f32,
    ) {
        match lanes {
            SolverLanes::Scalar => {
                restitution_lanes::<P4x2>(states, view_mut(c), view_aux(aux), threshold)
            }
            #[cfg(any(
                target_arch = "x86_64",
                all(target_arch = "x86", target_feature = "sse2")
            ))]
            // SAFETY: `Eight` is only ever resolved where the CPU has AVX2.
            SolverLanes::Eight => unsafe {
                avx::apply_restitution(states, view_mut(c), view_aux(aux), threshold)
            },
            _ => restitution_lanes(states, c, aux, threshold),
        }
    }

    /// Keeps the step's impulses (see `store_lanes`).
    #[inline(never)]
    pub(crate) fn store_impulses(
        lanes: SolverLanes,
        contacts: &Slots<Contact>,
        c: &[WideConstraint<F4x2>],
        aux: &[WideAux<F4x2>],
        rolling: &Slots<WideRolling<F4x2>>,
    ) {
        match lanes {
            SolverLanes::Scalar => {
                store_lanes::<P4x2>(contacts, view(c), view_aux(aux), &view_rolling(rolling))
            }
            #[cfg(any(
                target_arch = "x86_64",
                all(target_arch = "x86", target_feature = "sse2")
            ))]
            // SAFETY: `Eight` is only ever resolved where the CPU has AVX2.
            SolverLanes::Eight => unsafe {
                avx::store_impulses(contacts, view(c), view_aux(aux), &view_rolling(rolling))
            },
            _ => store_lanes(contacts, c, aux, rolling),
        }
    }
}

/// The passes in `F8`, compiled with AVX and AVX2 on: the generic bodies are
/// `#[inline(always)]`, so they and every lane operation inline into AVX code here.
#[cfg(any(
    target_arch = "x86_64",
    all(target_arch = "x86", target_feature = "sse2")
))]
mod avx {
    use super::*;
    use crate::solver::lanes::F8;

    #[target_feature(enable = "avx,avx2")]
    pub(super) fn warm_start(
        states: &States,
        c: &[WideConstraint<F8>],
        rolling: &Slots<WideRolling<F8>>,
    ) {
        warm_start_lanes(states, c, rolling)
    }

    #[target_feature(enable = "avx,avx2")]
    pub(super) fn solve<const USE_BIAS: bool>(
        states: &States,
        c: &mut [WideConstraint<F8>],
        rolling: &Slots<WideRolling<F8>>,
        inv_h: f32,
        push_max: f32,
    ) {
        solve_lanes::<F8, USE_BIAS>(states, c, rolling, inv_h, push_max)
    }

    #[target_feature(enable = "avx,avx2")]
    pub(super) fn apply_restitution(
        states: &States,
        c: &mut [WideConstraint<F8>],
        aux: &[WideAux<F8>],
        threshold: f32,
    ) {
        restitution_lanes(states, c, aux, threshold)
    }

    #[target_feature(enable = "avx,avx2")]
    pub(super) fn store_impulses(
        contacts: &Slots<Contact>,
        c: &[WideConstraint<F8>],
        aux: &[WideAux<F8>],
        rolling: &Slots<WideRolling<F8>>,
    ) {
        store_lanes(contacts, c, aux, rolling)
    }
}

/// The single batch's passes, one constraint at a time in `F1`.
pub(crate) mod single {
    use super::*;

    #[inline(never)]
    pub(crate) fn prepare(
        lane: &[LaneInput; MAX_WIDTH],
        k: usize,
        c: &mut WideConstraint<F1>,
        aux: &mut WideAux<F1>,
        rolling: &mut WideRolling<F1>,
    ) {
        prepare_lanes(lane, k, c, aux, rolling)
    }

    #[inline(never)]
    pub(crate) fn warm_start(
        states: &States,
        c: &[WideConstraint<F1>],
        rolling: &Slots<WideRolling<F1>>,
    ) {
        warm_start_lanes(states, c, rolling)
    }

    #[inline(never)]
    pub(crate) fn solve<const USE_BIAS: bool>(
        states: &States,
        c: &mut [WideConstraint<F1>],
        rolling: &Slots<WideRolling<F1>>,
        inv_h: f32,
        push_max: f32,
    ) {
        solve_lanes::<F1, USE_BIAS>(states, c, rolling, inv_h, push_max)
    }

    #[inline(never)]
    pub(crate) fn apply_restitution(
        states: &States,
        c: &mut [WideConstraint<F1>],
        aux: &[WideAux<F1>],
        threshold: f32,
    ) {
        restitution_lanes(states, c, aux, threshold)
    }

    #[inline(never)]
    pub(crate) fn store_impulses(
        contacts: &Slots<Contact>,
        c: &[WideConstraint<F1>],
        aux: &[WideAux<F1>],
        rolling: &Slots<WideRolling<F1>>,
    ) {
        store_lanes(contacts, c, aux, rolling)
    }
}
