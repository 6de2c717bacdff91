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

use super::solver::{
    JointConstraint, Pass, Row, anchors, angular_mass, apply_angular, axis_total, frames,
    separation, solve_angular_lock, solve_point, spring_soft, warm_point,
};
use super::{AxisMode, Joint, JointImpulses, JointKind, SixDofAxis, SixDofJoint};
use crate::math::{Mat3, Quat, Vec3, atan2, sqrt};
use crate::solver::BodyState;

const UNIT: [Vec3; 3] = [Vec3::X, Vec3::Y, Vec3::Z];

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
        } else {
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
    imp: &mut super::AxisImpulse,
    a: &mut BodyState,
    b: &mut BodyState,
    p: &Pass,
) {
    if ax.spring_hertz > 0.0 {
        row.spring(c, a, b, value, &c.springs[n], &mut imp.spring);
    }
    if ax.max_motor_force > 0.0 {
        let max = ax.max_motor_force * p.h;
        row.motor(c, a, b, ax.motor_speed, max, &mut imp.motor);
    }
    match ax.mode {
        AxisMode::Free => {}
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
