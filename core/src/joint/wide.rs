//! Joints eight at a time: the warm start, solve and relax passes of spherical joints
//! here, of cone-twist and revolute joints in `wide_rows.rs`, each lane computing exactly
//! what the kind's file computes for its joint (the same operations in the same order,
//! compare-and-select for every branch), so the lanes change speed only.
//!
//! A colour's joints share no dynamic body, so they may be solved in any grouping: each
//! of those kinds goes eight to a group of its own, the other kinds (and revolute joints
//! with a spring or a soft limit) one at a time as before. A group the lanes refuse —
//! a point matrix needing the masked inverse in some lane (an axis locked in both
//! bodies), a cone-twist's half-turn swing — is solved one joint at a time instead,
//! before anything is written.

use super::solver::{JointConstraint, Pass, States};
use super::{Joint, JointImpulses, wide_rows};
use crate::body::NONE;
use crate::limits::{MAX_IMPULSE, MAX_VELOCITY};
use crate::solver::contact_solver::{READ_ONLY, gather};
pub(super) use crate::solver::lanes::each;
use crate::solver::lanes::{F4x2, Lanes, MAX_WIDTH, P4x2, Q, SolverLanes, V3};

/// A 3×3 matrix of lanes, by columns (as `Mat3`).
#[derive(Clone, Copy)]
pub(super) struct M3<L> {
    pub cx: V3<L>,
    pub cy: V3<L>,
    pub cz: V3<L>,
}

impl<L: Lanes> M3<L> {
    /// `Mat3::mul_vec`, term for term.
    #[inline(always)]
    pub(super) fn mul_vec(&self, v: V3<L>) -> V3<L> {
        V3 {
            x: self.cx.x * v.x + self.cy.x * v.y + self.cz.x * v.z,
            y: self.cx.y * v.x + self.cy.y * v.y + self.cz.y * v.z,
            z: self.cx.z * v.x + self.cy.z * v.y + self.cz.z * v.z,
        }
    }
}

/// `math::clamp(x, -bound, bound)` lane by lane: a NaN passes, as it does there.
#[inline(always)]
pub(super) fn clamp<L: Lanes>(x: L, bound: f32) -> L {
    let (lo, hi) = (L::splat(-bound), L::splat(bound));
    L::select_gt(lo, x, lo, L::select_gt(x, hi, hi, x))
}

#[inline(always)]
pub(super) fn clamp_v<L: Lanes>(v: V3<L>, bound: f32) -> V3<L> {
    V3 {
        x: clamp(v.x, bound),
        y: clamp(v.y, bound),
        z: clamp(v.z, bound),
    }
}

/// One where `x` is finite, zero where it is infinite or NaN (`x - x` is zero exactly
/// for finite `x`, NaN otherwise).
#[inline(always)]
pub(super) fn finite<L: Lanes>(x: L) -> L {
    let one = L::splat(1.0);
    #[allow(clippy::eq_op)] // x − x is the point: zero or NaN
    let d = x - x;
    L::select_gt(one, d, one, L::default())
}

/// Lanes where both masks are one.
#[inline(always)]
pub(super) fn and<L: Lanes>(a: L, b: L) -> L {
    L::select_gt(a, L::default(), b, L::default())
}

/// Up to eight joints in lanes, what every kind reads of their prepared constraints.
pub(super) struct Group<L> {
    /// How many lanes hold a joint.
    pub n: usize,
    /// Solver index of each lane's bodies (`NONE` when it does not move, `READ_ONLY` set
    /// when the joint must not write it), as the contact solver's `gather` reads them.
    index_a: [u32; MAX_WIDTH],
    index_b: [u32; MAX_WIDTH],
    pub ma: V3<L>,
    pub mb: V3<L>,
    pub ia: M3<L>,
    pub ib: M3<L>,
    /// The anchors relative to each centre of mass at the start of the step.
    pa: V3<L>,
    pb: V3<L>,
    delta_center: V3<L>,
    /// The joint frames' axes at the start of the step.
    pub fqa: Q<L>,
    pub fqb: Q<L>,
    /// The world's joint softness: bias rate, mass scale, impulse scale.
    pub soft: [L; 3],
}

impl<L: Lanes> Group<L> {
    #[inline(always)]
    pub(super) fn new(cs: &[JointConstraint], pick: &[u32; MAX_WIDTH], n: usize) -> Group<L> {
        let c = |i: usize| &cs[pick[if i < n { i } else { 0 }] as usize];
        let index = |k: u32, write: bool| {
            if k == NONE || write { k } else { k | READ_ONLY }
        };
        // The constraint's numbers as eleven four-float records, each turned into lanes
        // at once (`Lanes::transpose`), in the order `record` lays them out.
        let r = |k: usize| L::transpose(each(|i| record(c(i), k)));
        let (r0, r1, r2, r3) = (r(0), r(1), r(2), r(3));
        let (r4, r5, r6, r7) = (r(4), r(5), r(6), r(7));
        let (r8, r9, r10) = (r(8), r(9), r(10));
        let v3 = |x: L, y: L, z: L| V3 { x, y, z };
        Group {
            n,
            index_a: each(|i| {
                if i < n {
                    index(c(i).index_a, c(i).write_a)
                } else {
                    NONE
                }
            }),
            index_b: each(|i| {
                if i < n {
                    index(c(i).index_b, c(i).write_b)
                } else {
                    NONE
                }
            }),
            ma: v3(r0[0], r0[1], r0[2]),
            mb: v3(r0[3], r1[0], r1[1]),
            ia: M3 {
                cx: v3(r1[2], r1[3], r2[0]),
                cy: v3(r2[1], r2[2], r2[3]),
                cz: v3(r3[0], r3[1], r3[2]),
            },
            ib: M3 {
                cx: v3(r3[3], r4[0], r4[1]),
                cy: v3(r4[2], r4[3], r5[0]),
                cz: v3(r5[1], r5[2], r5[3]),
            },
            pa: v3(r6[0], r6[1], r6[2]),
            fqa: Q {
                v: v3(r6[3], r7[0], r7[1]),
                w: r7[2],
            },
            pb: v3(r7[3], r8[0], r8[1]),
            fqb: Q {
                v: v3(r8[2], r8[3], r9[0]),
                w: r9[1],
            },
            delta_center: v3(r9[2], r9[3], r10[0]),
            soft: [r10[1], r10[2], r10[3]],
        }
    }
}

/// Where the 44 floats a group reads of a constraint begin: its inverse masses and
/// inertias, its frames, its centres' offset and its softness, one after another with no
/// gap (checked here at compile time), read as eleven four-float records.
const RECORDS: usize = core::mem::offset_of!(JointConstraint, ma);
const _: () = {
    use core::mem::{offset_of, size_of};
    type C = JointConstraint;
    assert!(offset_of!(C, mb) == RECORDS + 12);
    assert!(offset_of!(C, ia) == RECORDS + 24);
    assert!(offset_of!(C, ib) == RECORDS + 60);
    assert!(offset_of!(C, frame_a) == RECORDS + 96);
    assert!(offset_of!(C, frame_b) == RECORDS + 124);
    assert!(offset_of!(C, delta_center) == RECORDS + 152);
    assert!(offset_of!(C, soft) == RECORDS + 164);
    assert!(size_of::<crate::solver::contact_solver::Softness>() == 12);
    assert!(size_of::<crate::math::Transform>() == 28 && size_of::<crate::math::Mat3>() == 36);
};

/// Record `k` (below 11) of a constraint's 44 floats from `ma` on: `[ma.x, ma.y, ma.z,
/// mb.x]`, `[mb.y, mb.z, ia.cx.x, ia.cx.y]`, … `[delta_center.z, soft.bias_rate,
/// soft.mass_scale, soft.impulse_scale]` (the fields' declared order: all `repr(C)`).
#[inline(always)]
fn record(c: &JointConstraint, k: usize) -> [f32; 4] {
    debug_assert!(k < 11);
    // SAFETY: the 176 bytes from `RECORDS` on lie within the constraint and are `f32`
    // fields only (the layout is checked above); the pointer comes from the reference
    // to the whole constraint, and an unaligned read needs no alignment.
    unsafe {
        let p = (c as *const JointConstraint as *const u8).add(RECORDS + 16 * k);
        core::ptr::read_unaligned(p as *const [f32; 4])
    }
}

/// A lane's body as the rows see it.
pub(super) struct Bodies<L> {
    pub va: V3<L>,
    pub wa: V3<L>,
    pub vb: V3<L>,
    pub wb: V3<L>,
    /// The bodies' rotations since the step began.
    pub dqa: Q<L>,
    pub dqb: Q<L>,
    ra: V3<L>,
    rb: V3<L>,
    /// `(b.dp − a.dp) + (rb − ra) + delta_center`: B's anchor minus A's now.
    separation: V3<L>,
}

impl<L: Lanes> Bodies<L> {
    #[inline(always)]
    pub(super) fn new(states: &States, g: &Group<L>) -> Bodies<L> {
        let a = gather::<L>(states, &g.index_a);
        let b = gather::<L>(states, &g.index_b);
        let (ra, rb) = (rotate(&a.dq, g.pa), rotate(&b.dq, g.pb));
        Bodies {
            separation: b.dp.sub(a.dp).add(rb.sub(ra)).add(g.delta_center),
            va: a.v,
            wa: a.w,
            vb: b.v,
            wb: b.w,
            dqa: a.dq,
            dqb: b.dq,
            ra,
            rb,
        }
    }

    /// `apply_point`: the impulse `l` at the anchors (B gets `+l`), velocities bounded.
    #[inline(always)]
    pub(super) fn apply(&mut self, g: &Group<L>, l: V3<L>) {
        self.va = clamp_v(self.va.sub(g.ma.mul_elements(l)), MAX_VELOCITY);
        self.wa = clamp_v(self.wa.sub(g.ia.mul_vec(self.ra.cross(l))), MAX_VELOCITY);
        self.vb = clamp_v(self.vb.add(g.mb.mul_elements(l)), MAX_VELOCITY);
        self.wb = clamp_v(self.wb.add(g.ib.mul_vec(self.rb.cross(l))), MAX_VELOCITY);
    }

    /// Writes the velocities of the lanes' written bodies.
    #[inline(always)]
    pub(super) fn store(&self, states: &States, g: &Group<L>) {
        let (va, wa) = (self.va.lanes(), self.wa.lanes());
        let (vb, wb) = (self.vb.lanes(), self.wb.lanes());
        for i in 0..g.n {
            for (k, v, w) in [(g.index_a[i], va[i], wa[i]), (g.index_b[i], vb[i], wb[i])] {
                if k & READ_ONLY == 0 {
                    // SAFETY: a joint pass runs one colour's joints, which share no
                    // written body, and no contact stage meanwhile.
                    let s = unsafe { states.get(k as usize) };
                    s.v = v;
                    s.w = w;
                }
            }
        }
    }
}

/// `Quat::rotate`, term for term.
#[inline(always)]
pub(super) fn rotate<L: Lanes>(q: &Q<L>, v: V3<L>) -> V3<L> {
    let t = q.v.cross(v).scale(L::splat(2.0));
    v.add(t.scale(q.w)).add(q.v.cross(t))
}

/// `lever_mass`: `[r]ᵀ A [r]`'s upper triangle `[xx, xy, xz, yy, yz, zz]`.
#[inline(always)]
fn lever_mass<L: Lanes>(a: &M3<L>, r: V3<L>) -> [L; 6] {
    let ax = a.cy.scale(r.z).sub(a.cz.scale(r.y));
    let ay = a.cz.scale(r.x).sub(a.cx.scale(r.z));
    let az = a.cx.scale(r.y).sub(a.cy.scale(r.x));
    [
        r.z * ax.y - r.y * ax.z,
        r.z * ay.y - r.y * ay.z,
        r.z * az.y - r.y * az.z,
        r.x * ay.z - r.z * ay.x,
        r.x * az.z - r.z * az.x,
        r.y * az.x - r.x * az.y,
    ]
}

/// `point_solve` for every lane; `None` when a lane of the first `n` needs the masked
/// inverse (a zero diagonal), which the lanes do not compute.
#[inline(always)]
fn point_solve<L: Lanes>(g: &Group<L>, b: &Bodies<L>, rhs: V3<L>) -> Option<V3<L>> {
    let zero = L::default();
    let one = L::splat(1.0);
    let m = g.ma.add(g.mb);
    let (sa, sb) = (lever_mass(&g.ia, b.ra), lever_mass(&g.ib, b.rb));
    let k = [
        m.x + sa[0] + sb[0],
        sa[1] + sb[1],
        sa[2] + sb[2],
        m.y + sa[3] + sb[3],
        sa[4] + sb[4],
        m.z + sa[5] + sb[5],
    ];
    let positive = |x: L| L::select_gt(x, zero, one, zero);
    let regular = and(positive(k[0]), and(positive(k[3]), positive(k[5])));
    if regular.to_array()[..g.n].contains(&0.0) {
        return None;
    }
    let s = k[0].max(k[3].max(k[5]));
    let inv_s = one.div(s);
    let (a, bb, cc, d, e, f) = (
        k[0] * inv_s,
        k[1] * inv_s,
        k[2] * inv_s,
        k[3] * inv_s,
        k[4] * inv_s,
        k[5] * inv_s,
    );
    let c11 = d * f - e * e;
    let c12 = cc * e - bb * f;
    let c13 = bb * e - cc * d;
    let c22 = a * f - cc * cc;
    let c23 = bb * cc - a * e;
    let c33 = a * d - bb * bb;
    let det = a * c11 + bb * c12 + cc * c13;
    let inv = inv_s.div(det);
    let x = V3 {
        x: (c11 * rhs.x + c12 * rhs.y + c13 * rhs.z) * inv,
        y: (c12 * rhs.x + c22 * rhs.y + c23 * rhs.z) * inv,
        z: (c13 * rhs.x + c23 * rhs.y + c33 * rhs.z) * inv,
    };
    // Zero where `s` is not finite, the determinant is not positive (or NaN), or the
    // result is not finite: the scalar path's early returns.
    let ok = and(finite(s), positive(det));
    let ok = and(ok, and(finite(x.x), and(finite(x.y), finite(x.z))));
    Some(V3::select_gt(ok, zero, x, V3::default()))
}

/// `solve_pivot`'s softness for the group: `[bias rate, mass scale, impulse scale]` and
/// where the bias is on — the world's softness in the solve pass, or the joint's own
/// pivot softness in both passes (off: rigid, no bias).
#[inline(always)]
pub(super) fn pivot_soft<L: Lanes>(
    cs: &[JointConstraint],
    pick: &[u32; MAX_WIDTH],
    n: usize,
    p: &Pass,
) -> ([L; 3], L) {
    let c = |i: usize| &cs[pick[if i < n { i } else { 0 }] as usize];
    let biased = |i: usize| p.use_bias || c(i).own_pivot;
    let pick_if = |i: usize, on: f32, off: f32| if biased(i) { on } else { off };
    let soft = [
        L::from_fn(|i| c(i).pivot.bias_rate),
        L::from_fn(|i| pick_if(i, c(i).pivot.mass_scale, 1.0)),
        L::from_fn(|i| pick_if(i, c(i).pivot.impulse_scale, 0.0)),
    ];
    (soft, L::from_fn(|i| pick_if(i, 1.0, 0.0)))
}

/// `solve_point` in lanes: the rows' softness `[bias rate, mass scale, impulse scale]`
/// (the mass scale one and the impulse scale zero where the bias is off), the bias on
/// where `apply` is one; the kept impulse `old` in, the new one out, the velocities in
/// `b` changed. `None` (nothing changed) when a lane needs the masked inverse.
#[inline(always)]
pub(super) fn point<L: Lanes>(
    g: &Group<L>,
    b: &mut Bodies<L>,
    [rate, ms, is]: [L; 3],
    apply: L,
    old: V3<L>,
) -> Option<V3<L>> {
    let cdot = b.vb.add(b.wb.cross(b.rb)).sub(b.va).sub(b.wa.cross(b.ra));
    let bias = V3::select_gt(apply, L::default(), b.separation.scale(rate), V3::default());
    let x = point_solve(g, b, cdot.add(bias))?;
    let new = clamp_v(old.sub(x.scale(ms)).sub(old.scale(is)), MAX_IMPULSE);
    b.apply(g, new.sub(old));
    Some(new)
}

/// The kept impulses of the group's joints, lanes past `n` zero.
#[inline(always)]
fn impulses_of<L: Lanes>(impulses: &[JointImpulses], pick: &[u32; MAX_WIDTH], n: usize) -> V3<L> {
    V3::from_fn(|i| {
        if i < n {
            impulses[pick[i] as usize].linear
        } else {
            crate::math::Vec3::ZERO
        }
    })
}

#[inline(always)]
fn warm_group<L: Lanes>(
    states: &States,
    cs: &[JointConstraint],
    impulses: &[JointImpulses],
    pick: &[u32; MAX_WIDTH],
    n: usize,
) {
    let g = Group::<L>::new(cs, pick, n);
    let mut b = Bodies::new(states, &g);
    b.apply(&g, impulses_of(impulses, pick, n));
    b.store(states, &g);
}

/// `solve_pivot` for the group; false (nothing written) when a lane needs the masked
/// inverse.
#[inline(always)]
fn solve_group<L: Lanes>(
    states: &States,
    cs: &[JointConstraint],
    impulses: &mut [JointImpulses],
    pick: &[u32; MAX_WIDTH],
    n: usize,
    p: &Pass,
) -> bool {
    let g = Group::<L>::new(cs, pick, n);
    let mut b = Bodies::new(states, &g);
    let (soft, apply) = pivot_soft::<L>(cs, pick, n, p);
    let old = impulses_of::<L>(impulses, pick, n);
    let Some(new) = point(&g, &mut b, soft, apply, old) else {
        return false;
    };
    b.store(states, &g);
    let new = new.lanes();
    for i in 0..n {
        impulses[pick[i] as usize].linear = new[i];
    }
    true
}

/// Joints solved one at a time beside the lanes.
pub(crate) const ONE_AT_A_TIME: u8 = 0;
/// The kinds the lanes solve, each in groups of its own.
const SPHERICAL: u8 = 1;
const CONE_TWIST: u8 = 2;
const REVOLUTE: u8 = 3;
const CLASSES: usize = 3;

/// How a joint of kind `kind` is solved within its colour: in groups of its kind, or one
/// at a time (the kinds the lanes do not compute; a revolute joint with a spring or a
/// soft limit).
pub(crate) fn class(kind: &super::JointKind) -> u8 {
    use super::JointKind;
    match kind {
        JointKind::Spherical => SPHERICAL,
        JointKind::ConeTwist(_) => CONE_TWIST,
        JointKind::Revolute(r) if !(r.enable_spring && r.hertz > 0.0) => {
            if r.enable_limit && r.limit_hertz > 0.0 {
                ONE_AT_A_TIME
            } else {
                REVOLUTE
            }
        }
        _ => ONE_AT_A_TIME,
    }
}

/// The warm start of one colour's joints (see `solver::warm_start_joints`), the kinds
/// the lanes compute in groups of eight.
#[inline(never)]
pub(crate) fn warm_start_joints(
    lanes: SolverLanes,
    cs: &[JointConstraint],
    impulses: &[JointImpulses],
    joints: &[Joint],
    states: &States,
) {
    match lanes {
        SolverLanes::Scalar => warm_lanes::<Generic<P4x2>>(cs, impulses, joints, states),
        #[cfg(any(
            target_arch = "x86_64",
            all(target_arch = "x86", target_feature = "sse2")
        ))]
        SolverLanes::Eight => warm_lanes::<avx::Avx>(cs, impulses, joints, states),
        _ => warm_lanes::<Generic<F4x2>>(cs, impulses, joints, states),
    }
}

/// The solve or relax pass over one colour's joints (see `solver::solve_joints`), the
/// kinds the lanes compute in groups of eight.
#[inline(never)]
pub(crate) fn solve_joints(
    lanes: SolverLanes,
    cs: &[JointConstraint],
    impulses: &mut [JointImpulses],
    joints: &[Joint],
    states: &States,
    p: &Pass,
) {
    match lanes {
        SolverLanes::Scalar => solve_lanes::<Generic<P4x2>>(cs, impulses, joints, states, p),
        #[cfg(any(
            target_arch = "x86_64",
            all(target_arch = "x86", target_feature = "sse2")
        ))]
        SolverLanes::Eight => solve_lanes::<avx::Avx>(cs, impulses, joints, states, p),
        _ => solve_lanes::<Generic<F4x2>>(cs, impulses, joints, states, p),
    }
}

/// The group passes of one lane type, each kind's its own function, so the stack holds
/// one kind's lanes at a time (a step fits the 48 KiB SPEC.md promises). Each returns
/// false (nothing written) when the lanes refuse the group.
trait GroupPasses {
    fn spherical_warm(
        s: &States,
        cs: &[JointConstraint],
        i: &[JointImpulses],
        pick: &Pick,
        n: usize,
    );
    fn cone_warm(
        s: &States,
        cs: &[JointConstraint],
        i: &[JointImpulses],
        j: &[Joint],
        pick: &Pick,
        n: usize,
    ) -> bool;
    fn hinge_warm(s: &States, cs: &[JointConstraint], i: &[JointImpulses], pick: &Pick, n: usize);
    fn spherical_solve(
        s: &States,
        cs: &[JointConstraint],
        i: &mut [JointImpulses],
        pick: &Pick,
        n: usize,
        p: &Pass,
    ) -> bool;
    fn cone_solve(
        s: &States,
        cs: &[JointConstraint],
        i: &mut [JointImpulses],
        j: &[Joint],
        pick: &Pick,
        n: usize,
        p: &Pass,
    ) -> bool;
    fn hinge_solve(
        s: &States,
        cs: &[JointConstraint],
        i: &mut [JointImpulses],
        j: &[Joint],
        pick: &Pick,
        n: usize,
        p: &Pass,
    ) -> bool;
}

type Pick = [u32; MAX_WIDTH];

/// The group passes in lanes `L` (no target feature to turn on).
struct Generic<L>(core::marker::PhantomData<L>);

impl<L: Lanes> GroupPasses for Generic<L> {
    #[inline(never)]
    fn spherical_warm(
        s: &States,
        cs: &[JointConstraint],
        i: &[JointImpulses],
        pick: &Pick,
        n: usize,
    ) {
        warm_group::<L>(s, cs, i, pick, n)
    }
    #[inline(never)]
    fn cone_warm(
        s: &States,
        cs: &[JointConstraint],
        i: &[JointImpulses],
        j: &[Joint],
        pick: &Pick,
        n: usize,
    ) -> bool {
        wide_rows::cone_warm::<L>(s, cs, i, j, pick, n)
    }
    #[inline(never)]
    fn hinge_warm(s: &States, cs: &[JointConstraint], i: &[JointImpulses], pick: &Pick, n: usize) {
        wide_rows::hinge_warm::<L>(s, cs, i, pick, n)
    }
    #[inline(never)]
    fn spherical_solve(
        s: &States,
        cs: &[JointConstraint],
        i: &mut [JointImpulses],
        pick: &Pick,
        n: usize,
        p: &Pass,
    ) -> bool {
        solve_group::<L>(s, cs, i, pick, n, p)
    }
    #[inline(never)]
    fn cone_solve(
        s: &States,
        cs: &[JointConstraint],
        i: &mut [JointImpulses],
        j: &[Joint],
        pick: &Pick,
        n: usize,
        p: &Pass,
    ) -> bool {
        wide_rows::cone_solve::<L>(s, cs, i, j, pick, n, p)
    }
    #[inline(never)]
    fn hinge_solve(
        s: &States,
        cs: &[JointConstraint],
        i: &mut [JointImpulses],
        j: &[Joint],
        pick: &Pick,
        n: usize,
        p: &Pass,
    ) -> bool {
        wide_rows::hinge_solve::<L>(s, cs, i, j, pick, n, p)
    }
}

/// The warm start of joints `pick[..n]` of class `class` in lanes, or one at a time
/// where the lanes refuse the group.
#[inline(always)]
fn warm_class<P: GroupPasses>(
    class: usize,
    cs: &[JointConstraint],
    impulses: &[JointImpulses],
    joints: &[Joint],
    states: &States,
    pick: &Pick,
    n: usize,
) {
    let done = match class as u8 {
        SPHERICAL => {
            P::spherical_warm(states, cs, impulses, pick, n);
            true
        }
        CONE_TWIST => P::cone_warm(states, cs, impulses, joints, pick, n),
        _ => {
            P::hinge_warm(states, cs, impulses, pick, n);
            true
        }
    };
    if !done {
        for &o in &pick[..n] {
            let o = o as usize;
            super::solver::warm_start_joints(&cs[o..o + 1], &impulses[o..o + 1], joints, states);
        }
    }
}

/// The solve or relax pass over joints `pick[..n]` of class `class` in lanes, or one at
/// a time where the lanes refuse the group.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn solve_class<P: GroupPasses>(
    class: usize,
    cs: &[JointConstraint],
    impulses: &mut [JointImpulses],
    joints: &[Joint],
    states: &States,
    pick: &Pick,
    n: usize,
    p: &Pass,
) {
    let done = match class as u8 {
        SPHERICAL => P::spherical_solve(states, cs, impulses, pick, n, p),
        CONE_TWIST => P::cone_solve(states, cs, impulses, joints, pick, n, p),
        _ => P::hinge_solve(states, cs, impulses, joints, pick, n, p),
    };
    if !done {
        for &o in &pick[..n] {
            let o = o as usize;
            super::solver::solve_joints(&cs[o..o + 1], &mut impulses[o..o + 1], joints, states, p);
        }
    }
}

/// A colour's joints sorted into groups as they are met: each class fills its own group
/// of up to eight, handed on when full and at the end; the others are handed on one at a
/// time. A colour's joints share no dynamic body, so any grouping gives the same bits.
/// No closure carries the lane code: closures are functions of their own, which an AVX
/// entry point would not inline.
struct Groups {
    pick: [[u32; MAX_WIDTH]; CLASSES],
    n: [usize; CLASSES],
}

impl Groups {
    fn new() -> Groups {
        Groups {
            pick: [[0; MAX_WIDTH]; CLASSES],
            n: [0; CLASSES],
        }
    }

    /// Joint `k` of class `class` (not one at a time) added; the class whose group is
    /// now full, if it is.
    #[inline(always)]
    fn add(&mut self, class: u8, k: usize) -> Option<usize> {
        let c = class as usize - 1;
        self.pick[c][self.n[c]] = k as u32;
        self.n[c] += 1;
        (self.n[c] == MAX_WIDTH).then_some(c)
    }
}

#[inline(always)]
fn warm_lanes<P: GroupPasses>(
    cs: &[JointConstraint],
    impulses: &[JointImpulses],
    joints: &[Joint],
    states: &States,
) {
    let mut groups = Groups::new();
    for k in 0..cs.len() {
        let class = cs[k].class;
        if class == ONE_AT_A_TIME {
            super::solver::warm_start_joints(&cs[k..k + 1], &impulses[k..k + 1], joints, states);
        } else if let Some(c) = groups.add(class, k) {
            warm_class::<P>(
                c + 1,
                cs,
                impulses,
                joints,
                states,
                &groups.pick[c],
                MAX_WIDTH,
            );
            groups.n[c] = 0;
        }
    }
    for c in 0..CLASSES {
        if groups.n[c] > 0 {
            warm_class::<P>(
                c + 1,
                cs,
                impulses,
                joints,
                states,
                &groups.pick[c],
                groups.n[c],
            );
        }
    }
}

#[inline(always)]
fn solve_lanes<P: GroupPasses>(
    cs: &[JointConstraint],
    impulses: &mut [JointImpulses],
    joints: &[Joint],
    states: &States,
    p: &Pass,
) {
    let mut groups = Groups::new();
    for k in 0..cs.len() {
        let class = cs[k].class;
        if class == ONE_AT_A_TIME {
            super::solver::solve_joints(&cs[k..k + 1], &mut impulses[k..k + 1], joints, states, p);
        } else if let Some(c) = groups.add(class, k) {
            solve_class::<P>(
                c + 1,
                cs,
                impulses,
                joints,
                states,
                &groups.pick[c],
                MAX_WIDTH,
                p,
            );
            groups.n[c] = 0;
        }
    }
    for c in 0..CLASSES {
        if groups.n[c] > 0 {
            solve_class::<P>(
                c + 1,
                cs,
                impulses,
                joints,
                states,
                &groups.pick[c],
                groups.n[c],
                p,
            );
        }
    }
}

/// The group passes in `F8`, compiled with AVX and AVX2 on (see `contact_solver`'s).
#[cfg(any(
    target_arch = "x86_64",
    all(target_arch = "x86", target_feature = "sse2")
))]
mod avx {
    use super::*;
    use crate::solver::lanes::F8;

    /// `Eight`'s passes: only ever resolved where the CPU has AVX2.
    pub(super) struct Avx;

    macro_rules! avx_passes {
        ($($name:ident($($arg:ident: $ty:ty),*) $(-> $ret:ty)? = $($body:ident)::+;)*) => {
            $(
                #[target_feature(enable = "avx,avx2")]
                #[inline(never)]
                fn $name($($arg: $ty),*) $(-> $ret)? {
                    $($body)::+::<F8>($($arg),*)
                }
            )*
            impl GroupPasses for Avx {
                $(
                    fn $name($($arg: $ty),*) $(-> $ret)? {
                        // SAFETY: `Avx` is only used for `Eight`, which is only ever
                        // resolved where the CPU has AVX2.
                        unsafe { self::$name($($arg),*) }
                    }
                )*
            }
        };
    }

    avx_passes! {
        spherical_warm(s: &States, cs: &[JointConstraint], i: &[JointImpulses], pick: &Pick, n: usize) = warm_group;
        cone_warm(s: &States, cs: &[JointConstraint], i: &[JointImpulses], j: &[Joint], pick: &Pick, n: usize) -> bool = wide_rows::cone_warm;
        hinge_warm(s: &States, cs: &[JointConstraint], i: &[JointImpulses], pick: &Pick, n: usize) = wide_rows::hinge_warm;
        spherical_solve(s: &States, cs: &[JointConstraint], i: &mut [JointImpulses], pick: &Pick, n: usize, p: &Pass) -> bool = solve_group;
        cone_solve(s: &States, cs: &[JointConstraint], i: &mut [JointImpulses], j: &[Joint], pick: &Pick, n: usize, p: &Pass) -> bool = wide_rows::cone_solve;
        hinge_solve(s: &States, cs: &[JointConstraint], i: &mut [JointImpulses], j: &[Joint], pick: &Pick, n: usize, p: &Pass) -> bool = wide_rows::hinge_solve;
    }
}
