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
use crate::task::Slots;

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

/// Lane-wise `if a > b { x } else { y }`.
#[inline(always)]
pub(super) fn sel<L: Lanes>(a: L, b: L, x: L, y: L) -> L {
    L::select_gt(a, b, x, y)
}

/// `x` where `mask` is one, `y` where it is zero.
#[inline(always)]
pub(super) fn choose<L: Lanes>(mask: L, x: L, y: L) -> L {
    L::select_gt(mask, L::default(), x, y)
}

/// Lanes where both masks are one.
#[inline(always)]
pub(super) fn and<L: Lanes>(a: L, b: L) -> L {
    L::select_gt(a, L::default(), b, L::default())
}

/// Up to eight joints of one colour and kind (`class`), at positions `first..first + n`
/// of the step's joints, with what every pass reads of them kept in lanes (once a step:
/// `fill` from their constraints, or a spherical group's joint by joint,
/// `put_spherical_lane`, its constraints written nowhere else) in `rows(class)` rows of
/// the step's rows from `rows` on, so a pass loads each number of eight joints at once
/// instead of gathering it joint by joint, and a spherical group's passes stream only the
/// rows they read.
#[derive(Clone, Copy, Debug)]
#[repr(C)]
pub(crate) struct JointGroup {
    pub first: u32,
    pub n: u8,
    pub class: u8,
    /// Where the group's rows begin in the step's rows.
    pub rows: u32,
    /// Solver index of each lane's bodies (`NONE` when it does not move, `READ_ONLY` set
    /// when the joint must not write it), as the contact solver's `gather` reads them.
    index_a: [u32; MAX_WIDTH],
    index_b: [u32; MAX_WIDTH],
}

/// One number of a group's eight joints, lane by lane (lanes past `n` repeat lane 0's),
/// aligned so that a row is one load within one cache line.
#[derive(Clone, Copy, Debug)]
#[repr(C, align(32))]
pub(crate) struct Row([f32; MAX_WIDTH]);

impl Row {
    pub(crate) const ZERO: Row = Row([0.0; MAX_WIDTH]);
}

/// A group's rows: the constraints' inverse masses and inertias (`ma`, `mb`, `ia`, `ib`:
/// rows 0–23), the anchors (`pa`, `pb`: 24–29), the centres' offset (30–32), the pivot's
/// softness and whether it is the joint's own (one or zero; 33–36), then the impulses
/// the group's passes keep in its rows (`impulse_numbers`; read back by
/// `lane_impulses`): a spherical group has only those and its joints' linear impulses
/// (37–39); the other kinds have all thirteen (37–49), the frames' axes (`fqa`, `fqb`:
/// 50–57), the world's joint softness (58–60) and the kind's own numbers
/// (`kind_numbers`, 61 on).
const PA: usize = 24;
const PB: usize = 27;
const DELTA: usize = 30;
const PIVOT: usize = 33;
pub(super) const IMPULSE: usize = 37;
/// The impulses kept in rows, from `IMPULSE` on: linear, angular, the first axis's five
/// parts, the second's lower and upper (`impulse_numbers`).
const IMPULSE_ROWS: usize = 13;
pub(super) const IMPULSE_ANGULAR: usize = IMPULSE + 3;
pub(super) const IMPULSE_AXIS0: usize = IMPULSE + 6;
pub(super) const IMPULSE_AXIS1: usize = IMPULSE + 11;
/// A spherical group keeps only its linear impulses.
const SPHERICAL_IMPULSES: usize = 3;
const SPHERICAL_ROWS: usize = IMPULSE + SPHERICAL_IMPULSES;
const FQA: usize = IMPULSE + IMPULSE_ROWS;
const FQB: usize = FQA + 4;
const SOFT: usize = FQB + 4;
/// Where the kind's own numbers begin, and how many there are.
const KIND: usize = SOFT + 3;
pub(super) const KIND_FLOATS: usize = 13;
const ROWS: usize = KIND + KIND_FLOATS;
/// How many numbers `fill` reads of a constraint (`record`'s 44, the pivot's 4).
const NUMBERS: usize = 48;

/// The row of each of the 48 numbers `fill` reads of a constraint, in `record`'s order
/// (`ma`, `mb`, `ia`, `ib`, `frame_a`'s point and rotation, `frame_b`'s, `delta_center`,
/// `soft`) and then the pivot's four.
const ROW_OF: [usize; NUMBERS] = {
    let mut at = [0; NUMBERS];
    let mut m = 0;
    while m < NUMBERS {
        at[m] = match m {
            0..24 => m,
            24..27 => PA + (m - 24),
            27..31 => FQA + (m - 27),
            31..34 => PB + (m - 31),
            34..38 => FQB + (m - 34),
            38..41 => DELTA + (m - 38),
            41..44 => SOFT + (m - 41),
            _ => PIVOT + (m - 44),
        };
        m += 1;
    }
    at
};

/// The inverse of `ROW_OF`: which of the 48 numbers each row below `KIND` holds (none
/// for the impulse rows).
const NUMBER_OF: [usize; KIND] = {
    let mut of = [usize::MAX; KIND];
    let mut m = 0;
    while m < NUMBERS {
        of[ROW_OF[m]] = m;
        m += 1;
    }
    of
};

/// How many rows a group of class `class` keeps.
pub(crate) fn rows(class: u8) -> usize {
    if class == SPHERICAL {
        SPHERICAL_ROWS
    } else {
        ROWS
    }
}

/// The most groups `joints` joints can take: eight to a group but at most one group
/// part-filled per colour and kind.
pub(crate) fn group_capacity(joints: usize) -> usize {
    use crate::solver::constraint_graph::COLOR_COUNT;
    joints / MAX_WIDTH + COLOR_COUNT * 3
}

/// The most rows the groups of `joints` joints can take.
pub(crate) fn row_capacity(joints: usize) -> usize {
    group_capacity(joints) * ROWS
}

impl JointGroup {
    pub(crate) const EMPTY: JointGroup = JointGroup {
        first: 0,
        n: 0,
        class: ONE_AT_A_TIME,
        rows: 0,
        index_a: [NONE; MAX_WIDTH],
        index_b: [NONE; MAX_WIDTH],
    };

    /// The group of the `n` (1 to 8) joints of class `class` from constraint `first` on,
    /// its rows from `rows` on, still to be filled.
    pub(crate) fn head(first: usize, n: usize, class: u8, rows: usize) -> JointGroup {
        debug_assert!((1..=MAX_WIDTH).contains(&n) && class != ONE_AT_A_TIME);
        JointGroup {
            first: first as u32,
            n: n as u8,
            class,
            rows: rows as u32,
            ..JointGroup::EMPTY
        }
    }

    /// Where the group's rows lie in the step's rows.
    #[inline(always)]
    pub(crate) fn range(&self) -> core::ops::Range<usize> {
        self.rows as usize..self.rows as usize + rows(self.class)
    }

    /// The lanes from the group's prepared constraints `cs` (`first..first + n`) into its
    /// rows `rows` (`range`'s): each four-float record of the eight turned into four
    /// lanes at once; then the impulses the rows keep, from the joints (`joint(c)`:
    /// constraint `c`'s joint), which hold the step's starting impulses; and, for the
    /// kinds that have them, the joints' own numbers.
    pub(crate) fn fill<'j>(
        &mut self,
        rows: &mut [Row],
        cs: &[JointConstraint],
        joint: impl Fn(&JointConstraint) -> &'j Joint,
    ) {
        let n = self.n as usize;
        debug_assert_eq!(cs.len(), n);
        debug_assert_eq!(rows.len(), self::rows(self.class));
        let c = |i: usize| &cs[if i < n { i } else { 0 }];
        let index =
            |i: usize, k: u32, write: bool| if i >= n { NONE } else { lane_index(k, write) };
        self.index_a = each(|i| index(i, c(i).index_a, c(i).write_a));
        self.index_b = each(|i| index(i, c(i).index_b, c(i).write_b));
        let spherical = self.class == SPHERICAL;
        // Transposed in `record`'s order, then laid out in the rows' whole rows at once.
        let mut numbers = [Row::ZERO; NUMBERS];
        for k in 0..NUMBERS / 4 {
            let records = each(|i| record(c(i), k));
            for (m, column) in F4x2::transpose(records).into_iter().enumerate() {
                numbers[4 * k + m] = Row(column.to_array());
            }
        }
        for (row, number) in rows[..IMPULSE].iter_mut().zip(NUMBER_OF) {
            *row = numbers[number];
        }
        set_impulses(rows, self.class, n, |i| &joint(c(i)).impulses);
        if !spherical {
            for (row, &number) in rows[FQA..KIND].iter_mut().zip(&NUMBER_OF[FQA..]) {
                *row = numbers[number];
            }
            for i in 0..MAX_WIDTH {
                let c = c(i);
                let numbers = wide_rows::kind_numbers(c, joint(c));
                for (r, x) in numbers.into_iter().enumerate() {
                    rows[KIND + r].0[i] = x;
                }
            }
        }
    }
}

/// The solver index a group's lane keeps for a body: `k` with `READ_ONLY` set when the
/// joint must not write it (`NONE` stays `NONE`), as the contact solver's `gather` reads.
#[inline(always)]
fn lane_index(k: u32, write: bool) -> u32 {
    if k == NONE || write { k } else { k | READ_ONLY }
}

/// The index and whether the joint writes the body, from a lane's `lane_index`.
fn lane_body(k: u32) -> (u32, bool) {
    if k == NONE {
        (NONE, false)
    } else {
        (k & !READ_ONLY, k & READ_ONLY == 0)
    }
}

/// The 48 numbers `fill` reads of constraint `c`, in `ROW_OF`'s order, one joint's.
#[inline(always)]
fn numbers(c: &JointConstraint) -> [f32; NUMBERS] {
    let mut x = [0.0; NUMBERS];
    for k in 0..NUMBERS / 4 {
        x[4 * k..4 * k + 4].copy_from_slice(&record(c, k));
    }
    x
}

/// Puts spherical joint `c` (prepared, its starting linear impulse `linear`) into lane
/// `lane` of its group `head`, whose rows begin at `rows`: what `fill` puts there, joint
/// by joint, so a spherical group's constraints need not be written anywhere else. The
/// group's first joint also fills the lanes past its joints, as `fill` does (lane 0's
/// numbers, no impulse, no bodies).
///
/// # Safety
/// `head` points at the group's head and `rows` at its `rows(SPHERICAL)` rows; while this
/// runs nothing else reads or writes lane `lane` of either (for lane 0, the lanes past
/// the group's joints too), and no reference to those rows or to the head's indices
/// lives. Other lanes may be put at once from other threads.
pub(crate) unsafe fn put_spherical_lane(
    head: *mut JointGroup,
    rows: *mut Row,
    lane: usize,
    c: &JointConstraint,
    linear: crate::math::Vec3,
) {
    use core::ptr::addr_of_mut;
    // SAFETY: `first`, `n` and `class` are read only while the joints are prepared.
    let (n, class) = unsafe { ((*head).n as usize, (*head).class) };
    debug_assert!(class == SPHERICAL && lane < n);
    let x = numbers(c);
    let impulse = [linear.x, linear.y, linear.z];
    let (ia, ib) = (
        lane_index(c.index_a, c.write_a),
        lane_index(c.index_b, c.write_b),
    );
    let put = |l: usize, real: bool| {
        // SAFETY: lane `l` of the head and the rows is this call's alone (the contract).
        unsafe {
            if real {
                *addr_of_mut!((*head).index_a[l]) = ia;
                *addr_of_mut!((*head).index_b[l]) = ib;
            }
            for (r, &m) in NUMBER_OF[..IMPULSE].iter().enumerate() {
                *addr_of_mut!((*rows.add(r)).0[l]) = x[m];
            }
            for (r, &v) in impulse.iter().enumerate() {
                *addr_of_mut!((*rows.add(IMPULSE + r)).0[l]) = if real { v } else { 0.0 };
            }
        }
    };
    put(lane, true);
    if lane == 0 {
        for l in n..MAX_WIDTH {
            put(l, false);
        }
    }
}

/// The constraint of the spherical joint at lane `lane` of group `head` (`rows`: its
/// rows), as `put_spherical_lane` took it: everything a spherical joint's passes read
/// one at a time (its frames' axes and the world's softness, which they do not, are
/// left at their defaults).
fn spherical_constraint(head: &JointGroup, rows: &[Row], lane: usize) -> JointConstraint {
    use crate::math::{Mat3, Vec3};
    debug_assert!(head.class == SPHERICAL && lane < head.n as usize);
    let x = |r: usize| rows[r].0[lane];
    let v = |r: usize| Vec3::new(x(r), x(r + 1), x(r + 2));
    let m = |r: usize| Mat3::from_cols(v(r), v(r + 3), v(r + 6));
    let mut c = JointConstraint {
        kind: super::solver::SPHERICAL,
        ma: v(0),
        mb: v(3),
        ia: m(6),
        ib: m(15),
        delta_center: v(DELTA),
        pivot: crate::solver::contact_solver::Softness {
            bias_rate: x(PIVOT),
            mass_scale: x(PIVOT + 1),
            impulse_scale: x(PIVOT + 2),
        },
        own_pivot: x(PIVOT + 3) != 0.0,
        ..JointConstraint::default()
    };
    (c.index_a, c.write_a) = lane_body(head.index_a[lane]);
    (c.index_b, c.write_b) = lane_body(head.index_b[lane]);
    c.frame_a.p = v(PA);
    c.frame_b.p = v(PB);
    c
}

/// How many impulse rows a group of class `class` keeps.
fn impulse_rows(class: u8) -> usize {
    if class == SPHERICAL {
        SPHERICAL_IMPULSES
    } else {
        IMPULSE_ROWS
    }
}

/// The impulses a group keeps in its rows, in their order: linear, angular, the first
/// axis's spring, motor, lower, upper and lock, the second's lower and upper.
fn impulse_numbers(i: &JointImpulses) -> [f32; IMPULSE_ROWS] {
    let (a, b) = (&i.axes[0], &i.axes[1]);
    [
        i.linear.x,
        i.linear.y,
        i.linear.z,
        i.angular.x,
        i.angular.y,
        i.angular.z,
        a.spring,
        a.motor,
        a.lower,
        a.upper,
        a.lock,
        b.lower,
        b.upper,
    ]
}

/// A group's impulse rows (`rows`: the group's; `class` its class) from its `n` joints'
/// `impulses(lane)`: lanes past theirs zero in a spherical group (no lane reads them),
/// lane 0's in the others (as their other numbers).
fn set_impulses<'i>(
    rows: &mut [Row],
    class: u8,
    n: usize,
    impulses: impl Fn(usize) -> &'i JointImpulses,
) {
    for i in 0..MAX_WIDTH {
        let x = if i < n {
            impulse_numbers(impulses(i))
        } else if class == SPHERICAL {
            [0.0; IMPULSE_ROWS]
        } else {
            impulse_numbers(impulses(0))
        };
        for (r, x) in x.into_iter().take(impulse_rows(class)).enumerate() {
            rows[IMPULSE + r].0[i] = x;
        }
    }
}

/// The impulses a group's passes left for its joint in lane `lane` (`rows`: the group's;
/// `class` its class), the parts its rows do not keep from `kept`.
fn lane_impulses(rows: &[Row], class: u8, lane: usize, kept: &JointImpulses) -> JointImpulses {
    let x = |r: usize| rows[IMPULSE + r].0[lane];
    let mut i = *kept;
    i.linear = crate::math::Vec3::new(x(0), x(1), x(2));
    if class != SPHERICAL {
        i.angular = crate::math::Vec3::new(x(3), x(4), x(5));
        let a = &mut i.axes[0];
        (a.spring, a.motor, a.lower, a.upper, a.lock) = (x(6), x(7), x(8), x(9), x(10));
        (i.axes[1].lower, i.axes[1].upper) = (x(11), x(12));
    }
    i
}

/// A refused group's pass one joint at a time (`pass`): a group keeps its impulses in its
/// rows (`rows`, of class `class`), so its joints' `impulses` take them first, and the
/// rows take theirs after (a warm start changes none, but a later pass in lanes may
/// follow a refused one within a step).
fn one_at_a_time(
    rows: &mut [Row],
    class: u8,
    impulses: &mut [JointImpulses],
    pass: impl FnOnce(&mut [JointImpulses]),
) {
    for (l, imp) in impulses.iter_mut().enumerate() {
        *imp = lane_impulses(rows, class, l, imp);
    }
    pass(impulses);
    set_impulses(rows, class, impulses.len(), |i| &impulses[i]);
}

/// The impulses the passes left for the joint at lane `lane` of group `head` (`rows`:
/// the step's rows), the parts its rows do not keep from `kept` (the step's).
pub(crate) fn group_impulses(
    rows: &[Row],
    head: &JointGroup,
    lane: usize,
    kept: &JointImpulses,
) -> JointImpulses {
    debug_assert!(lane < head.n as usize);
    lane_impulses(&rows[head.range()], head.class, lane, kept)
}

/// Groups and the step's rows they keep theirs in (a pass hands each group of a colour,
/// and so its rows, to one block).
#[derive(Clone, Copy)]
pub(crate) struct Groups<'a> {
    pub heads: &'a [JointGroup],
    pub rows: &'a Slots<'a, Row>,
}

/// A group and its rows (`rows(class)` of them), as the passes take it: read through
/// `Group`, its impulse rows written back (`set`).
#[derive(Clone, Copy)]
pub(super) struct GroupRef<'a> {
    head: &'a JointGroup,
    rows: *mut Row,
    _rows: core::marker::PhantomData<&'a mut [Row]>,
}

impl<'a> GroupRef<'a> {
    #[inline(always)]
    fn new(head: &'a JointGroup, rows: &'a mut [Row]) -> GroupRef<'a> {
        debug_assert_eq!(rows.len(), self::rows(head.class));
        GroupRef {
            head,
            rows: rows.as_mut_ptr(),
            _rows: core::marker::PhantomData,
        }
    }

    /// Impulse row `k` (`IMPULSE` on) of the group: the passes' one write to its rows.
    #[inline(always)]
    pub(super) fn set<L: Lanes>(self, k: usize, x: L) {
        debug_assert!((IMPULSE..IMPULSE + impulse_rows(self.head.class)).contains(&k));
        // SAFETY: the group's rows are this pass's alone (`Groups`) and no `Group` of
        // them is read meanwhile; `k` is one of its impulse rows, below its row count.
        unsafe { (*self.rows.add(k)).0 = x.to_array() }
    }

    /// Impulse rows `k..k + 3`.
    #[inline(always)]
    pub(super) fn set3<L: Lanes>(self, k: usize, v: V3<L>) {
        self.set(k, v.x);
        self.set(k + 1, v.y);
        self.set(k + 2, v.z);
    }
}

/// Up to eight joints in lanes, what every kind reads of their prepared constraints:
/// each number loaded from the group's lanes where it is used, so the passes keep no
/// copies of them.
#[derive(Clone, Copy)]
pub(super) struct Group<'a, L> {
    hd: &'a JointGroup,
    rows: *const Row,
    _rows: core::marker::PhantomData<&'a [Row]>,
    _lanes: core::marker::PhantomData<L>,
}

impl<'a, L: Lanes> Group<'a, L> {
    #[inline(always)]
    pub(super) fn load(g: GroupRef<'a>) -> Group<'a, L> {
        Group {
            hd: g.head,
            rows: g.rows,
            _rows: core::marker::PhantomData,
            _lanes: core::marker::PhantomData,
        }
    }
    #[inline(always)]
    fn f(&self, k: usize) -> L {
        debug_assert!(
            k < rows(self.hd.class),
            "row {k} of a class {} group",
            self.hd.class
        );
        // SAFETY: the group has `rows(class)` rows (`GroupRef::new`), and each kind's
        // passes read only rows of its class: a spherical group's below
        // `SPHERICAL_ROWS`. No row is written while a `Group` of them reads.
        L::load(unsafe { &(*self.rows.add(k)).0 })
    }
    #[inline(always)]
    fn v3(&self, k: usize) -> V3<L> {
        V3 {
            x: self.f(k),
            y: self.f(k + 1),
            z: self.f(k + 2),
        }
    }
    #[inline(always)]
    fn q(&self, k: usize) -> Q<L> {
        Q {
            v: self.v3(k),
            w: self.f(k + 3),
        }
    }
    #[inline(always)]
    fn m3(&self, k: usize) -> M3<L> {
        M3 {
            cx: self.v3(k),
            cy: self.v3(k + 3),
            cz: self.v3(k + 6),
        }
    }
    /// Row `k` (the impulse rows, `IMPULSE` on: the passes read the others by name).
    #[inline(always)]
    pub(super) fn row(&self, k: usize) -> L {
        self.f(k)
    }
    #[inline(always)]
    pub(super) fn row3(&self, k: usize) -> V3<L> {
        self.v3(k)
    }
    /// How many lanes hold a joint.
    #[inline(always)]
    pub(super) fn n(&self) -> usize {
        self.hd.n as usize
    }
    #[inline(always)]
    fn index_a(&self) -> &'a [u32; MAX_WIDTH] {
        &self.hd.index_a
    }
    #[inline(always)]
    fn index_b(&self) -> &'a [u32; MAX_WIDTH] {
        &self.hd.index_b
    }
    /// Inverse masses per world axis and world inverse inertias.
    #[inline(always)]
    pub(super) fn ma(&self) -> V3<L> {
        self.v3(0)
    }
    #[inline(always)]
    pub(super) fn mb(&self) -> V3<L> {
        self.v3(3)
    }
    #[inline(always)]
    pub(super) fn ia(&self) -> M3<L> {
        self.m3(6)
    }
    #[inline(always)]
    pub(super) fn ib(&self) -> M3<L> {
        self.m3(15)
    }
    /// The anchors relative to each centre of mass at the start of the step.
    #[inline(always)]
    fn pa(&self) -> V3<L> {
        self.v3(PA)
    }
    #[inline(always)]
    fn pb(&self) -> V3<L> {
        self.v3(PB)
    }
    /// The joint frames' axes at the start of the step.
    #[inline(always)]
    pub(super) fn fqa(&self) -> Q<L> {
        self.q(FQA)
    }
    #[inline(always)]
    pub(super) fn fqb(&self) -> Q<L> {
        self.q(FQB)
    }
    #[inline(always)]
    fn delta_center(&self) -> V3<L> {
        self.v3(DELTA)
    }
    /// The world's joint softness: bias rate, mass scale, impulse scale.
    #[inline(always)]
    pub(super) fn soft(&self) -> [L; 3] {
        [self.f(SOFT), self.f(SOFT + 1), self.f(SOFT + 2)]
    }
    /// The pivot's softness (`JointConstraint::pivot`).
    #[inline(always)]
    fn pivot(&self) -> [L; 3] {
        [self.f(PIVOT), self.f(PIVOT + 1), self.f(PIVOT + 2)]
    }
    /// One where the pivot's softness is the joint's own (`own_pivot`).
    #[inline(always)]
    fn own_pivot(&self) -> L {
        self.f(PIVOT + 3)
    }
    /// The kind's own number `k` (`wide_rows::kind_numbers`).
    #[inline(always)]
    pub(super) fn kind(&self, k: usize) -> L {
        self.f(KIND + k)
    }
    /// The kind's own numbers `k..k + 9` as a matrix.
    #[inline(always)]
    pub(super) fn kind_m3(&self, k: usize) -> M3<L> {
        self.m3(KIND + k)
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

/// Record `k` (below 12) of the 48 numbers `fill` reads of a constraint: below 11, its
/// 44 floats from `ma` on: `[ma.x, ma.y, ma.z, mb.x]`, `[mb.y, mb.z, ia.cx.x, ia.cx.y]`,
/// … `[delta_center.z, soft.bias_rate, soft.mass_scale, soft.impulse_scale]` (the fields'
/// declared order: all `repr(C)`); record 11 the pivot's softness and whether it is the
/// joint's own (one or zero).
#[inline(always)]
fn record(c: &JointConstraint, k: usize) -> [f32; 4] {
    debug_assert!(k < NUMBERS / 4);
    if k == 11 {
        let p = &c.pivot;
        let own = if c.own_pivot { 1.0 } else { 0.0 };
        return [p.bias_rate, p.mass_scale, p.impulse_scale, own];
    }
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
        let a = gather::<L>(states, g.index_a());
        let b = gather::<L>(states, g.index_b());
        let (ra, rb) = (rotate(&a.dq, g.pa()), rotate(&b.dq, g.pb()));
        Bodies {
            separation: b.dp.sub(a.dp).add(rb.sub(ra)).add(g.delta_center()),
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
        self.va = clamp_v(self.va.sub(g.ma().mul_elements(l)), MAX_VELOCITY);
        self.wa = clamp_v(self.wa.sub(g.ia().mul_vec(self.ra.cross(l))), MAX_VELOCITY);
        self.vb = clamp_v(self.vb.add(g.mb().mul_elements(l)), MAX_VELOCITY);
        self.wb = clamp_v(self.wb.add(g.ib().mul_vec(self.rb.cross(l))), MAX_VELOCITY);
    }

    /// Writes the velocities of the lanes' written bodies (whole rows, padding zero, as
    /// the contact solver writes them).
    #[inline(always)]
    pub(super) fn store(&self, states: &States, g: &Group<L>) {
        let zero = L::default();
        let row = |v: &V3<L>| L::untranspose([v.x, v.y, v.z, zero]);
        let (va, wa, vb, wb) = (row(&self.va), row(&self.wa), row(&self.vb), row(&self.wb));
        let (ia, ib) = (g.index_a(), g.index_b());
        for i in 0..g.n() {
            for (k, v, w) in [(ia[i], va[i], wa[i]), (ib[i], vb[i], wb[i])] {
                if k & READ_ONLY == 0 {
                    // SAFETY: a joint pass runs one colour's joints, which share no
                    // written body, and no contact stage meanwhile; k is a solver index
                    // of this step (`fill` takes it from the constraint), below the
                    // state count.
                    let s = unsafe { states.get_unchecked(k as usize) };
                    s.set_v_row(v);
                    s.set_w_row(w);
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
    let m = g.ma().add(g.mb());
    let (sa, sb) = (lever_mass(&g.ia(), b.ra), lever_mass(&g.ib(), b.rb));
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
    if regular.to_array()[..g.n()].contains(&0.0) {
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
pub(super) fn pivot_soft<L: Lanes>(g: &Group<L>, p: &Pass) -> ([L; 3], L) {
    let [rate, ms, is] = g.pivot();
    if p.use_bias {
        return ([rate, ms, is], L::splat(1.0));
    }
    let own = g.own_pivot();
    let half = L::splat(0.5);
    let ms = L::select_gt(own, half, ms, L::splat(1.0));
    let is = L::select_gt(own, half, is, L::default());
    ([rate, ms, is], own)
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

#[inline(always)]
fn warm_group<L: Lanes>(states: &States, hd: GroupRef) {
    let g = Group::<L>::load(hd);
    let mut b = Bodies::new(states, &g);
    b.apply(&g, g.row3(IMPULSE));
    b.store(states, &g);
}

/// `solve_pivot` for the group; false (nothing written) when a lane needs the masked
/// inverse.
#[inline(always)]
fn solve_group<L: Lanes>(states: &States, hd: GroupRef, p: &Pass) -> bool {
    let g = Group::<L>::load(hd);
    let mut b = Bodies::new(states, &g);
    let (soft, apply) = pivot_soft(&g, p);
    let old = g.row3(IMPULSE);
    let Some(new) = point(&g, &mut b, soft, apply, old) else {
        return false;
    };
    b.store(states, &g);
    hd.set3(IMPULSE, new);
    true
}

/// Joints solved one at a time beside the lanes.
pub(crate) const ONE_AT_A_TIME: u8 = 0;
/// The kinds the lanes solve, each in groups of its own.
pub(crate) const SPHERICAL: u8 = 1;
pub(crate) const CONE_TWIST: u8 = 2;
pub(crate) const REVOLUTE: u8 = 3;

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

/// The warm start of joint groups `groups` of one colour (see
/// `solver::warm_start_joints`); `cs` and `impulses` are the step's.
#[inline(never)]
pub(crate) fn warm_start_groups(
    lanes: SolverLanes,
    groups: Groups,
    cs: &[JointConstraint],
    impulses: &Slots<JointImpulses>,
    joints: &[Joint],
    states: &States,
) {
    match lanes {
        SolverLanes::Scalar => warm_lanes::<Generic<P4x2>>(groups, cs, impulses, joints, states),
        #[cfg(any(
            target_arch = "x86_64",
            all(target_arch = "x86", target_feature = "sse2")
        ))]
        SolverLanes::Eight => warm_lanes::<avx::Avx>(groups, cs, impulses, joints, states),
        _ => warm_lanes::<Generic<F4x2>>(groups, cs, impulses, joints, states),
    }
}

/// The solve or relax pass over joint groups `groups` of one colour (see
/// `solver::solve_joints`); `cs` and `impulses` are the step's.
#[inline(never)]
pub(crate) fn solve_groups(
    lanes: SolverLanes,
    groups: Groups,
    cs: &[JointConstraint],
    impulses: &Slots<JointImpulses>,
    joints: &[Joint],
    states: &States,
    p: &Pass,
) {
    match lanes {
        SolverLanes::Scalar => {
            solve_lanes::<Generic<P4x2>>(groups, cs, impulses, joints, states, p)
        }
        #[cfg(any(
            target_arch = "x86_64",
            all(target_arch = "x86", target_feature = "sse2")
        ))]
        SolverLanes::Eight => solve_lanes::<avx::Avx>(groups, cs, impulses, joints, states, p),
        _ => solve_lanes::<Generic<F4x2>>(groups, cs, impulses, joints, states, p),
    }
}

/// The group passes of one lane type, each kind's its own function, so the stack holds
/// one kind's lanes at a time (a step fits the 48 KiB SPEC.md promises). `cs` and `i`
/// are the group's own constraints and impulses. Each returns false (nothing written)
/// when the lanes refuse the group.
trait GroupPasses {
    fn spherical_warm(s: &States, hd: GroupRef);
    fn cone_warm(s: &States, hd: GroupRef) -> bool;
    fn hinge_warm(s: &States, hd: GroupRef);
    fn spherical_solve(s: &States, hd: GroupRef, p: &Pass) -> bool;
    fn cone_solve(s: &States, hd: GroupRef, p: &Pass) -> bool;
    fn hinge_solve(s: &States, hd: GroupRef, p: &Pass) -> bool;
}

#[inline(always)]
fn cone_warm<L: Lanes>(s: &States, hd: GroupRef) -> bool {
    wide_rows::cone_warm::<L>(s, hd)
}

#[inline(always)]
fn hinge_warm<L: Lanes>(s: &States, hd: GroupRef) {
    wide_rows::hinge_warm::<L>(s, hd)
}

#[inline(always)]
fn cone_solve<L: Lanes>(s: &States, hd: GroupRef, p: &Pass) -> bool {
    wide_rows::cone_solve::<L>(s, hd, p)
}

#[inline(always)]
fn hinge_solve<L: Lanes>(s: &States, hd: GroupRef, p: &Pass) -> bool {
    wide_rows::hinge_solve::<L>(s, hd, p)
}

/// The group passes in lanes `L` (no target feature to turn on).
struct Generic<L>(core::marker::PhantomData<L>);

impl<L: Lanes> GroupPasses for Generic<L> {
    #[inline(never)]
    fn spherical_warm(s: &States, hd: GroupRef) {
        warm_group::<L>(s, hd)
    }
    #[inline(never)]
    fn cone_warm(s: &States, hd: GroupRef) -> bool {
        cone_warm::<L>(s, hd)
    }
    #[inline(never)]
    fn hinge_warm(s: &States, hd: GroupRef) {
        hinge_warm::<L>(s, hd)
    }
    #[inline(never)]
    fn spherical_solve(s: &States, hd: GroupRef, p: &Pass) -> bool {
        solve_group::<L>(s, hd, p)
    }
    #[inline(never)]
    fn cone_solve(s: &States, hd: GroupRef, p: &Pass) -> bool {
        cone_solve::<L>(s, hd, p)
    }
    #[inline(never)]
    fn hinge_solve(s: &States, hd: GroupRef, p: &Pass) -> bool {
        hinge_solve::<L>(s, hd, p)
    }
}

/// The group's constraints and impulses, its own slices of the step's.
#[inline(always)]
#[allow(clippy::mut_from_ref)]
fn slices<'a>(
    hd: &JointGroup,
    cs: &'a [JointConstraint],
    impulses: &'a Slots<JointImpulses>,
) -> (&'a [JointConstraint], &'a mut [JointImpulses]) {
    let range = hd.first as usize..hd.first as usize + hd.n as usize;
    // SAFETY: a joint pass hands each group of a colour to one block, and the groups
    // cover disjoint constraints (`first..first + n`).
    (&cs[range.clone()], unsafe { impulses.slice(range) })
}

#[inline(always)]
fn warm_lanes<P: GroupPasses>(
    groups: Groups,
    cs: &[JointConstraint],
    impulses: &Slots<JointImpulses>,
    joints: &[Joint],
    states: &States,
) {
    for head in groups.heads {
        let (cs, impulses) = slices(head, cs, impulses);
        // SAFETY: the group is this block's alone (`Groups`).
        let rows = unsafe { groups.rows.slice(head.range()) };
        let hd = GroupRef::new(head, rows);
        let done = match head.class {
            SPHERICAL => {
                P::spherical_warm(states, hd);
                true
            }
            CONE_TWIST => P::cone_warm(states, hd),
            _ => {
                P::hinge_warm(states, hd);
                true
            }
        };
        if !done {
            debug_assert!(
                head.class != SPHERICAL,
                "the lanes warm every spherical group"
            );
            // SAFETY: as above; `hd` is not used again.
            let rows = unsafe { groups.rows.slice(head.range()) };
            one_at_a_time(rows, head.class, impulses, |i| {
                super::solver::warm_start_joints(cs, i, joints, states)
            });
        }
    }
}

#[inline(always)]
fn solve_lanes<P: GroupPasses>(
    groups: Groups,
    cs: &[JointConstraint],
    impulses: &Slots<JointImpulses>,
    joints: &[Joint],
    states: &States,
    p: &Pass,
) {
    for head in groups.heads {
        let (cs, impulses) = slices(head, cs, impulses);
        // SAFETY: the group is this block's alone (`Groups`).
        let rows = unsafe { groups.rows.slice(head.range()) };
        let hd = GroupRef::new(head, rows);
        let done = match head.class {
            SPHERICAL => P::spherical_solve(states, hd, p),
            CONE_TWIST => P::cone_solve(states, hd, p),
            _ => P::hinge_solve(states, hd, p),
        };
        if !done {
            // SAFETY: as above; `hd` is not used again.
            let rows = unsafe { groups.rows.slice(head.range()) };
            // A spherical group's constraints are its rows alone (`put_spherical_lane`).
            let mut own = [JointConstraint::default(); MAX_WIDTH];
            let cs = if head.class == SPHERICAL {
                for (lane, c) in own[..head.n as usize].iter_mut().enumerate() {
                    *c = spherical_constraint(head, rows, lane);
                }
                &own[..head.n as usize]
            } else {
                cs
            };
            one_at_a_time(rows, head.class, impulses, |i| {
                super::solver::solve_joints(cs, i, joints, states, p)
            });
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
        spherical_warm(s: &States, hd: GroupRef) = warm_group;
        cone_warm(s: &States, hd: GroupRef) -> bool = super::cone_warm;
        hinge_warm(s: &States, hd: GroupRef) = super::hinge_warm;
        spherical_solve(s: &States, hd: GroupRef, p: &Pass) -> bool = solve_group;
        cone_solve(s: &States, hd: GroupRef, p: &Pass) -> bool = super::cone_solve;
        hinge_solve(s: &States, hd: GroupRef, p: &Pass) -> bool = super::hinge_solve;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::Vec3;

    /// Impulses with every part its own number from `base` on.
    fn numbered(base: f32) -> JointImpulses {
        let mut i = JointImpulses {
            linear: Vec3::new(base, base + 1.0, base + 2.0),
            angular: Vec3::new(base + 3.0, base + 4.0, base + 5.0),
            ..Default::default()
        };
        for (k, a) in i.axes.iter_mut().enumerate() {
            let b = base + 6.0 + 5.0 * k as f32;
            (a.spring, a.motor, a.lower, a.upper, a.lock) = (b, b + 1.0, b + 2.0, b + 3.0, b + 4.0);
        }
        i
    }

    /// Spherical constraint number `l`, every number its own, body B read only when `l`
    /// is odd and static when `l` is 3.
    fn spherical_numbered(l: usize) -> JointConstraint {
        use crate::math::{Mat3, Transform};
        let mut next = 1000.0 * l as f32;
        let mut n = || {
            next += 1.0;
            next
        };
        let mut v = || Vec3::new(n(), n(), n());
        let mut c = JointConstraint {
            kind: super::super::solver::SPHERICAL,
            ma: v(),
            mb: v(),
            ia: Mat3::from_cols(v(), v(), v()),
            ib: Mat3::from_cols(v(), v(), v()),
            frame_a: Transform::new(v(), crate::math::Quat::IDENTITY),
            frame_b: Transform::new(v(), crate::math::Quat::IDENTITY),
            delta_center: v(),
            own_pivot: l % 2 == 0,
            ..JointConstraint::default()
        };
        (c.pivot.bias_rate, c.pivot.mass_scale, c.pivot.impulse_scale) = (n(), n(), n());
        (c.index_a, c.write_a) = (10 + l as u32, true);
        (c.index_b, c.write_b) = match l {
            3 => (NONE, false),
            _ => (20 + l as u32, l % 2 == 0),
        };
        c
    }

    /// A spherical group's lanes put joint by joint, in any order, are the rows and head
    /// `fill` makes of the same constraints (lanes past the joints included); and the
    /// constraint read back from a lane has every number a spherical pass reads.
    #[test]
    fn spherical_lanes_put_one_by_one_are_what_fill_makes() {
        for n in [1, 5, MAX_WIDTH] {
            let cs: Vec<_> = (0..n).map(spherical_numbered).collect();
            let mut joints: Vec<_> = (0..n).map(|_| Joint::dead(0)).collect();
            for (l, j) in joints.iter_mut().enumerate() {
                j.impulses = numbered(-100.0 * (l + 1) as f32);
            }
            let mut filled = JointGroup::head(0, n, SPHERICAL, 0);
            let mut want = vec![Row::ZERO; rows(SPHERICAL)];
            filled.fill(&mut want, &cs, |c| {
                let l = cs.iter().position(|x| core::ptr::eq(x, c)).unwrap();
                &joints[l]
            });
            let mut put = JointGroup::head(0, n, SPHERICAL, 0);
            let mut got = vec![Row([f32::NAN; MAX_WIDTH]); rows(SPHERICAL)];
            for l in (0..n).rev() {
                // SAFETY: the head and rows are this test's alone.
                unsafe {
                    put_spherical_lane(
                        &mut put,
                        got.as_mut_ptr(),
                        l,
                        &cs[l],
                        joints[l].impulses.linear,
                    )
                };
            }
            assert_eq!(
                (put.index_a, put.index_b),
                (filled.index_a, filled.index_b),
                "{n} joints"
            );
            for (r, (g, w)) in got.iter().zip(&want).enumerate() {
                assert_eq!(
                    g.0.map(f32::to_bits),
                    w.0.map(f32::to_bits),
                    "row {r} of {n} joints"
                );
            }
            for (l, c) in cs.iter().enumerate() {
                let back = spherical_constraint(&put, &got, l);
                assert_eq!(
                    (back.kind, back.index_a, back.index_b),
                    (c.kind, c.index_a, c.index_b)
                );
                assert_eq!(
                    (back.write_a, back.write_b, back.own_pivot),
                    (c.write_a, c.write_b, c.own_pivot)
                );
                assert_eq!(
                    (back.ma, back.mb, back.ia, back.ib),
                    (c.ma, c.mb, c.ia, c.ib)
                );
                assert_eq!((back.frame_a.p, back.frame_b.p), (c.frame_a.p, c.frame_b.p));
                assert_eq!(back.delta_center, c.delta_center);
                let soft = |s: &crate::solver::contact_solver::Softness| {
                    [s.bias_rate, s.mass_scale, s.impulse_scale]
                };
                assert_eq!(soft(&back.pivot), soft(&c.pivot), "lane {l} of {n}");
            }
        }
    }

    /// A refused group's joints are solved from the impulses its rows keep, not from the
    /// step's stale ones, and the rows get the results; the parts the rows do not keep
    /// stay the joints' own. Lanes past the joints: zero (spherical) or lane 0's.
    #[test]
    fn a_refused_group_solves_from_its_rows_and_back() {
        for class in [SPHERICAL, CONE_TWIST, REVOLUTE] {
            let n = 5;
            let mut rows = vec![Row::ZERO; rows(class)];
            let now: Vec<_> = (0..n).map(|l| numbered(100.0 * l as f32)).collect();
            set_impulses(&mut rows, class, n, |i| &now[i]);
            // The step's impulses, stale where the rows keep theirs.
            let mut stale: Vec<_> = (0..n).map(|l| numbered(100.0 * l as f32 + 50.0)).collect();
            let kept = impulse_rows(class);
            one_at_a_time(&mut rows, class, &mut stale, |imps| {
                for (l, i) in imps.iter_mut().enumerate() {
                    let (want, was) = (impulse_numbers(&now[l]), numbered(100.0 * l as f32 + 50.0));
                    let got = impulse_numbers(i);
                    assert_eq!(got[..kept], want[..kept], "class {class} lane {l}");
                    assert_eq!(got[kept..], impulse_numbers(&was)[kept..]);
                    assert_eq!(i.axes[2..], was.axes[2..]);
                    *i = numbered(-1000.0 * (l + 1) as f32);
                }
            });
            for l in 0..MAX_WIDTH {
                let want = if l < n {
                    impulse_numbers(&numbered(-1000.0 * (l + 1) as f32))
                } else if class == SPHERICAL {
                    [0.0; IMPULSE_ROWS]
                } else {
                    impulse_numbers(&numbered(-1000.0))
                };
                let got: Vec<f32> = (0..kept).map(|r| rows[IMPULSE + r].0[l]).collect();
                assert_eq!(got[..], want[..kept], "class {class} lane {l}");
            }
            // What the rows hand back is what they were given, the rest from `kept`.
            let base = numbered(7.0);
            let back = lane_impulses(&rows, class, 1, &base);
            assert_eq!(
                impulse_numbers(&back)[..kept],
                impulse_numbers(&stale[1])[..kept]
            );
            assert_eq!(
                impulse_numbers(&back)[kept..],
                impulse_numbers(&base)[kept..]
            );
        }
    }
}
