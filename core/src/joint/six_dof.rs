//! Six-DOF joint: each axis of frame A — translation along x, y, z, rotation about x, y,
//! z — free, limited or locked, with an optional spring (towards 0) and motor.
//!
//! Translations are the anchors' offset along A's axes, rows as the prismatic joint's.
//! Rotations are the XYZ Euler angles of B's frame in A's (`R = Rx Ry Rz`, as Bullet's
//! 6-DOF joint); their rates are `ω·J` for the dual basis `J` of the rate directions (A's
//! x, the intermediate y, B's z), so each angular row moves its own angle only. Near
//! y = ±90° that basis degenerates and the angular rows rest for the substep.
//!
//! When all three axes of a kind are locked, they are solved as one block instead (the
//! point constraint, the three-row angular lock): all locked is a weld.
//!
//! Impulses: `axes[k]` per axis (spring, motor, lower, upper, lock); `linear` and
//! `angular` the blocks. Springs: `springs[k]`.
//!
//! A spring pulls its axis towards `spring_target`, given either as a frequency and
//! damping ratio (`spring_hertz`, `spring_damping_ratio`: the pull scales with the mass the
//! axis moves) or as a stiffness and damping coefficient (`spring_stiffness`,
//! `spring_damping`: N/m and N·s/m, or N·m/rad and N·m·s/rad, Jolt's and Godot's
//! "stiffness and damping" spring, the same force whatever the mass). The stiffness
//! spring's row is Catto's soft constraint in `k`, `c` directly: with `g = h (c + h k)`
//! and the row's inverse mass `K`, `λ = −(g (ċ + k/(c + h k) C) + λ_acc) / (1 + g K)`.
//!
//! Encoding: the target and the stiffness spring were added after the format was fixed;
//! they ride on spare bits of the mode byte (bit 7: the target follows, bit 6: stiffness
//! and damping follow), written only when not 0, so every axis without them encodes to
//! the bytes it always did and no existing world's hash moves. The soft limit
//! (`limit_hertz`, `limit_damping_ratio`: a limited axis's limits give like a one-sided
//! spring once reached, as the revolute's and prismatic's soft limits) came later still,
//! on bit 5 the same way.

use super::MAX_JOINT_LENGTH;
use super::blocks::{angular_mass, solve_angular_lock, solve_point, warm_point};
use super::checks::{angles, damping, force, hertz, range, speed, translations};
use super::rows::{Row, anchors, apply_angular, axis_total, frames, separation, spring_soft};
use super::solver::{JointConstraint, Pass};
use super::{AxisImpulse, Joint, JointImpulses, JointKind};
use crate::codec::{Dec, Enc, Sink};
use crate::error::{Error, Result};
use crate::math::{Mat3, PI, Quat, Vec3, atan2, sqrt};
use crate::solver::BodyState;

/// How one axis of a [`SixDofJoint`] may move.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum AxisMode {
    /// Moves freely (springs and motors still act).
    Free,
    /// Moves within `[lower, upper]` (m, or radians for the angular axes).
    Limited {
        /// Lowest value.
        lower: f32,
        /// Highest value.
        upper: f32,
    },
    /// Held at 0.
    Locked,
}

/// One axis of a [`SixDofJoint`]: its mode, a spring towards 0 and a velocity motor.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SixDofAxis {
    /// Free, limited or locked.
    pub mode: AxisMode,
    /// Spring stiffness, Hz (0: no spring).
    pub spring_hertz: f32,
    /// Spring damping ratio.
    pub spring_damping_ratio: f32,
    /// Target speed of the motor, m/s or rad/s.
    pub motor_speed: f32,
    /// Largest force (N) or torque (N·m) of the motor (0: no motor).
    pub max_motor_force: f32,
    /// Where the spring pulls the axis to (m, or radians), its equilibrium point.
    pub spring_target: f32,
    /// Stiffness of a spring given in force units, N/m (N·m/rad on the angular axes);
    /// with `spring_damping`, instead of `spring_hertz` (keep that 0).
    pub spring_stiffness: f32,
    /// Damping of that spring, N·s/m (N·m·s/rad).
    pub spring_damping: f32,
    /// Stiffness of a limited axis's limits, Hz (0: rigid, the default): once reached, a
    /// limit gives like a one-sided spring and pushes back (not speculative: the axis may
    /// cross it within a substep).
    pub limit_hertz: f32,
    /// Damping ratio of that soft limit.
    pub limit_damping_ratio: f32,
}

impl Default for SixDofAxis {
    /// A locked axis.
    fn default() -> SixDofAxis {
        SixDofAxis {
            mode: AxisMode::Locked,
            spring_hertz: 0.0,
            spring_damping_ratio: 0.0,
            motor_speed: 0.0,
            max_motor_force: 0.0,
            spring_target: 0.0,
            spring_stiffness: 0.0,
            spring_damping: 0.0,
            limit_hertz: 0.0,
            limit_damping_ratio: 0.0,
        }
    }
}

impl SixDofAxis {
    /// A free axis.
    pub const FREE: SixDofAxis = SixDofAxis {
        mode: AxisMode::Free,
        spring_hertz: 0.0,
        spring_damping_ratio: 0.0,
        motor_speed: 0.0,
        max_motor_force: 0.0,
        spring_target: 0.0,
        spring_stiffness: 0.0,
        spring_damping: 0.0,
        limit_hertz: 0.0,
        limit_damping_ratio: 0.0,
    };

    /// Whether a stiffness spring acts (stiffness or damping above 0).
    fn has_force_spring(&self) -> bool {
        self.spring_stiffness > 0.0 || self.spring_damping > 0.0
    }

    /// Whether a spring of either kind acts.
    fn has_spring(&self) -> bool {
        self.spring_hertz > 0.0 || self.has_force_spring()
    }

    /// Checks axis `i`'s settings (0..3 linear: limits in m; 3..6 angular: radians).
    pub(super) fn check(&self, i: usize) -> Result<()> {
        if let AxisMode::Limited { lower, upper } = self.mode {
            if i < 3 {
                translations(("axes.lower", "axes.upper"), lower, upper)?;
            } else {
                angles(("axes.lower", "axes.upper"), lower, upper)?;
            }
        }
        hertz("axes.spring_hertz", self.spring_hertz)?;
        damping("axes.spring_damping_ratio", self.spring_damping_ratio)?;
        speed("axes.motor_speed", self.motor_speed)?;
        force("axes.max_motor_force", self.max_motor_force)?;
        if i < 3 {
            let m = MAX_JOINT_LENGTH;
            range(
                "axes.spring_target",
                self.spring_target,
                -m,
                m,
                "within [-1e6, 1e6] m",
            )?;
        } else {
            range(
                "axes.spring_target",
                self.spring_target,
                -PI,
                PI,
                "within [-π, π] radians",
            )?;
        }
        force("axes.spring_stiffness", self.spring_stiffness)?;
        force("axes.spring_damping", self.spring_damping)?;
        hertz("axes.limit_hertz", self.limit_hertz)?;
        damping("axes.limit_damping_ratio", self.limit_damping_ratio)?;
        if self.spring_hertz > 0.0 && self.has_force_spring() {
            return Err(Error::Argument {
                name: "axes.spring_stiffness",
                value: if self.spring_stiffness > 0.0 {
                    self.spring_stiffness
                } else {
                    self.spring_damping
                } as f64,
                expected: "0 (with spring_damping) while spring_hertz is above 0: one spring per axis",
            });
        }
        Ok(())
    }

    pub(super) fn encode<S: Sink>(&self, e: &mut Enc<S>) {
        // Bits 6 and 7 of the mode byte: spare until the stiffness spring and the target
        // came (module doc), so an axis without them writes the bytes it always did.
        // `!= 0.0` keeps a -0.0 target out too: it pulls to the same place as 0.
        let has_target = self.spring_target != 0.0;
        let has_force = self.spring_stiffness != 0.0 || self.spring_damping != 0.0;
        let has_soft = self.limit_hertz != 0.0 || self.limit_damping_ratio != 0.0;
        let extra = if has_target { TARGET_BIT } else { 0 }
            | if has_force { FORCE_BIT } else { 0 }
            | if has_soft { SOFT_LIMIT_BIT } else { 0 };
        match self.mode {
            AxisMode::Free => e.u8(extra),
            AxisMode::Limited { lower, upper } => {
                e.u8(1 | extra);
                e.f32(lower);
                e.f32(upper);
            }
            AxisMode::Locked => e.u8(2 | extra),
        }
        e.f32(self.spring_hertz);
        e.f32(self.spring_damping_ratio);
        e.f32(self.motor_speed);
        e.f32(self.max_motor_force);
        if has_target {
            e.f32(self.spring_target);
        }
        if has_force {
            e.f32(self.spring_stiffness);
            e.f32(self.spring_damping);
        }
        if has_soft {
            e.f32(self.limit_hertz);
            e.f32(self.limit_damping_ratio);
        }
    }

    pub(super) fn decode(d: &mut Dec) -> Result<SixDofAxis> {
        let tag = d.u8()?;
        let mode = match tag & !(TARGET_BIT | FORCE_BIT | SOFT_LIMIT_BIT) {
            0 => AxisMode::Free,
            1 => AxisMode::Limited {
                lower: d.f32()?,
                upper: d.f32()?,
            },
            2 => AxisMode::Locked,
            _ => return Err(Error::Format("unknown joint axis mode")),
        };
        let mut axis = SixDofAxis {
            mode,
            spring_hertz: d.f32()?,
            spring_damping_ratio: d.f32()?,
            motor_speed: d.f32()?,
            max_motor_force: d.f32()?,
            ..SixDofAxis::FREE
        };
        if tag & TARGET_BIT != 0 {
            axis.spring_target = d.f32()?;
        }
        if tag & FORCE_BIT != 0 {
            axis.spring_stiffness = d.f32()?;
            axis.spring_damping = d.f32()?;
        }
        if tag & SOFT_LIMIT_BIT != 0 {
            axis.limit_hertz = d.f32()?;
            axis.limit_damping_ratio = d.f32()?;
        }
        Ok(axis)
    }
}

/// A six-degree-of-freedom joint: each axis of frame A — translation along x, y, z, then
/// rotation about x, y, z — is free, limited or locked, with an optional spring and
/// motor. Rotations are measured as XYZ Euler angles of frame B in frame A (as Bullet's
/// 6-DOF joint), so keep the y angle within ±90°. All axes locked is a weld.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SixDofJoint {
    /// Linear x, y, z, then angular x, y, z.
    pub axes: [SixDofAxis; 6],
}

impl SixDofJoint {
    /// Checks every axis.
    pub(super) fn check(&self) -> Result<()> {
        for (i, a) in self.axes.iter().enumerate() {
            a.check(i)?;
        }
        Ok(())
    }

    /// Checks an axis index and that axis's settings.
    pub(super) fn check_axis(axis: u32, value: &SixDofAxis) -> Result<()> {
        if axis >= 6 {
            return Err(Error::Argument {
                name: "axis",
                value: axis as f64,
                expected: "within [0, 5]",
            });
        }
        value.check(axis as usize)
    }

    /// Checks an axis index and a soft limit's stiffness (Hz) and damping ratio.
    pub(super) fn check_limit_spring(axis: u32, hz: f32, damping_ratio: f32) -> Result<()> {
        if axis >= 6 {
            return Err(Error::Argument {
                name: "axis",
                value: axis as f64,
                expected: "within [0, 5]",
            });
        }
        hertz("limit_hertz", hz)?;
        damping("limit_damping_ratio", damping_ratio)
    }

    /// Sets one axis's soft limit (checked by the caller with `check_limit_spring`).
    pub(super) fn set_limit_spring(&mut self, axis: u32, hz: f32, damping_ratio: f32) {
        let a = &mut self.axes[axis as usize];
        (a.limit_hertz, a.limit_damping_ratio) = (hz, damping_ratio);
    }

    /// Sets one axis (checked by the caller with `check_axis`).
    pub(super) fn set_axis(&mut self, axis: u32, value: SixDofAxis) {
        self.axes[axis as usize] = value;
    }

    pub(super) fn encode<S: Sink>(&self, e: &mut Enc<S>) {
        for a in &self.axes {
            a.encode(e);
        }
    }

    pub(super) fn decode(d: &mut Dec) -> Result<SixDofJoint> {
        let mut axes = [SixDofAxis::default(); 6];
        for a in &mut axes {
            *a = SixDofAxis::decode(d)?;
        }
        Ok(SixDofJoint { axes })
    }
}

const UNIT: [Vec3; 3] = [Vec3::X, Vec3::Y, Vec3::Z];

/// Mode-byte bit: the spring's target follows the axis's other numbers.
const TARGET_BIT: u8 = 0x80;
/// Mode-byte bit: the stiffness spring's stiffness and damping follow.
const FORCE_BIT: u8 = 0x40;
/// Mode-byte bit: the soft limit's stiffness and damping ratio follow.
const SOFT_LIMIT_BIT: u8 = 0x20;

fn all_locked(axes: &[SixDofAxis]) -> bool {
    axes.iter().all(|a| a.mode == AxisMode::Locked)
}

pub(super) fn prepare(c: &mut JointConstraint, j: &mut Joint, h: f32) {
    let JointKind::SixDof(k) = j.kind else {
        return;
    };
    let i = &mut j.impulses;
    for (n, (ax, imp)) in k.axes.iter().zip(i.axes.iter_mut()).enumerate() {
        if ax.spring_hertz > 0.0 {
            c.springs[n] = spring_soft(ax.spring_hertz, ax.spring_damping_ratio, h);
        } else if !ax.has_spring() {
            imp.spring = 0.0;
        }
        if ax.max_motor_force <= 0.0 {
            imp.motor = 0.0;
        }
        if !matches!(ax.mode, AxisMode::Limited { .. }) {
            imp.lower = 0.0;
            imp.upper = 0.0;
        }
        if ax.mode != AxisMode::Locked {
            imp.lock = 0.0;
        }
    }
    if all_locked(&k.axes[..3]) {
        for imp in &mut i.axes[..3] {
            imp.lock = 0.0;
        }
    } else {
        i.linear = Vec3::ZERO;
    }
    if all_locked(&k.axes[3..]) {
        c.angular_mass = angular_mass(c);
        for imp in &mut i.axes[3..] {
            imp.lock = 0.0;
        }
    } else {
        i.angular = Vec3::ZERO;
    }
}

/// The Euler angles of B's frame in A's and the world axes `J` whose rows measure their
/// rates; `None` near y = ±90°.
fn angular_axes(qa: Quat, qb: Quat) -> Option<([Vec3; 3], [f32; 3])> {
    let r = Mat3::from_quat(qa.conjugate() * qb);
    // R = Rx Ry Rz: R02 = sin y, R12 = −cos y sin x, R22 = cos y cos x, R01 = −cos y sin z,
    // R00 = cos y cos z (row, column; columns are cx, cy, cz).
    let (r00, r01, r02, r12, r22) = (r.cx.x, r.cy.x, r.cz.x, r.cz.y, r.cz.z);
    let cy = sqrt(r12 * r12 + r22 * r22);
    if cy < 1.0e-3 {
        return None;
    }
    let angles = [atan2(-r12, r22), atan2(r02, cy), atan2(-r01, r00)];
    // Rates: ω = ẋ d0 + ẏ d1 + ż d2 with d0 = A's x, d2 = B's z, d1 = (d2 × d0) / cos y.
    let d0 = qa.rotate(Vec3::X);
    let d2 = qb.rotate(Vec3::Z);
    let inv = 1.0 / cy;
    let d1 = d2.cross(d0) * inv;
    let j = [d1.cross(d2) * inv, d1, d0.cross(d1) * inv];
    Some((j, angles))
}

/// One axis's spring, motor and limit or lock, on `row` whose value is `value`.
#[allow(clippy::too_many_arguments)]
fn axis_rows(
    c: &JointConstraint,
    n: usize,
    ax: &SixDofAxis,
    row: &Row,
    value: f32,
    imp: &mut AxisImpulse,
    a: &mut BodyState,
    b: &mut BodyState,
    p: &Pass,
) {
    if ax.spring_hertz > 0.0 {
        row.spring(
            c,
            a,
            b,
            value - ax.spring_target,
            &c.springs[n],
            &mut imp.spring,
        );
    } else if ax.has_force_spring() {
        let (k, damp) = (ax.spring_stiffness, ax.spring_damping);
        row.force_spring(
            c,
            a,
            b,
            value - ax.spring_target,
            k,
            damp,
            p.h,
            &mut imp.spring,
        );
    }
    if ax.max_motor_force > 0.0 {
        let max = ax.max_motor_force * p.h;
        row.motor(c, a, b, ax.motor_speed, max, &mut imp.motor);
    }
    match ax.mode {
        AxisMode::Free => {}
        AxisMode::Limited { lower, upper } if ax.limit_hertz > 0.0 => {
            let soft = spring_soft(ax.limit_hertz, ax.limit_damping_ratio, p.h);
            row.soft_lower(c, a, b, value - lower, &soft, &mut imp.lower);
            row.soft_upper(c, a, b, upper - value, &soft, &mut imp.upper);
        }
        AxisMode::Limited { lower, upper } => {
            row.lower(c, a, b, value - lower, p, &mut imp.lower);
            row.upper(c, a, b, upper - value, p, &mut imp.upper);
        }
        AxisMode::Locked => row.lock(c, a, b, value, p, &mut imp.lock),
    }
}

/// The linear rows now: one per axis of A, and the anchors' offset.
fn linear_rows(c: &JointConstraint, a: &BodyState, b: &BodyState) -> ([Row; 3], [f32; 3]) {
    let (qa, _) = frames(c, a, b);
    let (ra, rb) = anchors(c, a, b);
    let d = separation(c, a, b, ra, rb);
    let axes = UNIT.map(|e| qa.rotate(e));
    (
        axes.map(|n| Row::linear(n, d + ra, rb)),
        axes.map(|n| n.dot(d)),
    )
}

pub(super) fn warm_start(
    c: &JointConstraint,
    k: &SixDofJoint,
    i: &JointImpulses,
    a: &mut BodyState,
    b: &mut BodyState,
) {
    let (qa, qb) = frames(c, a, b);
    if all_locked(&k.axes[3..]) {
        apply_angular(c, a, b, i.angular);
    } else if let Some((j, _)) = angular_axes(qa, qb) {
        for (jn, imp) in j.iter().zip(&i.axes[3..]) {
            Row::angular(*jn).apply(c, a, b, axis_total(imp));
        }
    }
    if all_locked(&k.axes[..3]) {
        warm_point(c, a, b, i.linear);
    } else {
        let (rows, _) = linear_rows(c, a, b);
        for (row, imp) in rows.iter().zip(&i.axes[..3]) {
            row.apply(c, a, b, axis_total(imp));
        }
    }
}

pub(super) fn solve(
    c: &JointConstraint,
    k: &SixDofJoint,
    i: &mut JointImpulses,
    a: &mut BodyState,
    b: &mut BodyState,
    p: &Pass,
) {
    let (qa, qb) = frames(c, a, b);
    if all_locked(&k.axes[3..]) {
        solve_angular_lock(c, a, b, qa, qb, &c.soft, p.use_bias, &mut i.angular);
    } else if let Some((j, angles)) = angular_axes(qa, qb) {
        for n in 0..3 {
            let row = Row::angular(j[n]);
            let ax = &k.axes[3 + n];
            axis_rows(c, 3 + n, ax, &row, angles[n], &mut i.axes[3 + n], a, b, p);
        }
    }
    if all_locked(&k.axes[..3]) {
        solve_point(c, a, b, &c.soft, p.use_bias, &mut i.linear);
    } else {
        let (rows, values) = linear_rows(c, a, b);
        for n in 0..3 {
            axis_rows(
                c,
                n,
                &k.axes[n],
                &rows[n],
                values[n],
                &mut i.axes[n],
                a,
                b,
                p,
            );
        }
    }
}

pub(super) fn reaction(
    c: &JointConstraint,
    k: &SixDofJoint,
    i: &JointImpulses,
    a: &BodyState,
    b: &BodyState,
) -> (Vec3, Vec3) {
    let (qa, qb) = frames(c, a, b);
    let force = if all_locked(&k.axes[..3]) {
        i.linear
    } else {
        let mut f = Vec3::ZERO;
        for (n, e) in UNIT.iter().enumerate() {
            f += qa.rotate(*e) * axis_total(&i.axes[n]);
        }
        f
    };
    let torque = if all_locked(&k.axes[3..]) {
        i.angular
    } else if let Some((j, _)) = angular_axes(qa, qb) {
        let mut t = Vec3::ZERO;
        for (n, jn) in j.iter().enumerate() {
            t += *jn * axis_total(&i.axes[3 + n]);
        }
        t
    } else {
        Vec3::ZERO
    };
    (force, torque)
}
