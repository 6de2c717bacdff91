//! Joints: Godot's joints (kind, bodies, frames, parameters and flags by number) and the
//! `maul3d` joint each makes while its bodies are in one space.

use std::collections::BTreeMap;

use godot::prelude::*;
use maul3d::math::max;
use maul3d::{BodyDef, BodyId};

use super::Records;
use crate::conv::{quat, v3};
use crate::errors::{OrReport, error_once, report_create_error, site};

/// The kinds of Godot joint the server makes.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum GJointKind {
    None,
    Pin,
    Hinge,
    Slider,
    ConeTwist,
    SixDof,
}

/// A Godot joint: its kind, bodies (B may be none: pinned to the world), frames in each
/// body, Godot's parameters and flags by number, and the `maul3d` joint made from them.
pub(crate) struct GJoint {
    pub kind: GJointKind,
    pub body_a: u64,
    pub body_b: u64,
    pub frame_a: Transform3D,
    pub frame_b: Transform3D,
    /// Parameters (per axis for 6-DOF: axis * 100 + param).
    pub params: BTreeMap<i32, f32>,
    pub flags: BTreeMap<i32, bool>,
    pub disable_collisions: bool,
    pub priority: i32,
    pub core: Option<(u64, maul3d::JointId)>,
}

impl GJoint {
    pub fn new() -> GJoint {
        GJoint {
            kind: GJointKind::None,
            body_a: 0,
            body_b: 0,
            frame_a: Transform3D::IDENTITY,
            frame_b: Transform3D::IDENTITY,
            params: BTreeMap::new(),
            flags: BTreeMap::new(),
            disable_collisions: true,
            priority: 1,
            core: None,
        }
    }

    pub fn param(&self, key: i32, default: f32) -> f32 {
        self.params.get(&key).copied().unwrap_or(default)
    }

    pub fn flag(&self, key: i32, default: bool) -> bool {
        self.flags.get(&key).copied().unwrap_or(default)
    }

    /// The `maul3d` joint kind for Godot's parameters. Godot's hinge turns about its
    /// frame's z (as the core's revolute), its slider moves along x (as the prismatic),
    /// its cone twists about x (as the core's cone-twist).
    pub fn core_kind(&self) -> Option<maul3d::JointKind> {
        use maul3d::{
            AxisMode, ConeTwistJoint, JointKind, PrismaticJoint, RevoluteJoint, SixDofAxis,
            SixDofJoint,
        };
        let deg = |d: f32| d.to_radians();
        Some(match self.kind {
            GJointKind::None => return None,
            GJointKind::Pin => JointKind::Spherical,
            GJointKind::Hinge => {
                // HingeJointParam: LIMIT_UPPER 1, LIMIT_LOWER 2, MOTOR_TARGET_VELOCITY 6,
                // MOTOR_MAX_IMPULSE 7; flags USE_LIMIT 0, ENABLE_MOTOR 1.
                // Godot's hinge angle turns the other way round from the core's (A's
                // frame in B's, where the core measures B's in A's): Jolt and Godot
                // Physics hold a [0, 0.5] limit at body angles [−0.5, 0] (B the body,
                // cmp_joint_alone), so the limits and the motor speed are negated.
                let (lower, upper) = (self.param(2, deg(-90.0)), self.param(1, deg(90.0)));
                let limit = self.flag(0, false) && lower <= upper;
                JointKind::Revolute(RevoluteJoint {
                    enable_limit: limit,
                    lower: if limit { -upper } else { 0.0 },
                    upper: if limit { -lower } else { 0.0 },
                    enable_motor: self.flag(1, false),
                    motor_speed: -self.param(6, 0.0),
                    max_motor_torque: max(self.param(7, 1.0), 0.0) * 60.0,
                    // LIMIT_BIAS 3, LIMIT_SOFTNESS 4, LIMIT_RELAXATION 5.
                    ..soft_limit(
                        [self.param(4, 0.9), self.param(3, 0.3), self.param(5, 1.0)],
                        [0.9, 0.3, 1.0],
                    )
                    .map_or(RevoluteJoint::default(), |(hz, zeta)| {
                        RevoluteJoint {
                            limit_hertz: hz,
                            limit_damping_ratio: zeta,
                            ..RevoluteJoint::default()
                        }
                    })
                })
            }
            GJointKind::Slider => {
                // SliderJointParam: LINEAR_LIMIT_UPPER 0, LINEAR_LIMIT_LOWER 1.
                let (lower, upper) = (self.param(1, -1.0), self.param(0, 1.0));
                let limit = lower <= upper;
                // ANGULAR_LIMIT_UPPER 11, ANGULAR_LIMIT_LOWER 12: rotation about the slide
                // axis. Jolt always locks it (and warns the limits are unsupported). Godot
                // Physics holds it at its limits and, inside them, takes
                // ANGULAR_MOTION_SOFTNESS 16 × DAMPING 18 of the relative spin away each
                // tick: at its defaults (1 × 1) all of it, so both engines lock it then.
                // With that product 0 the body turns freely within the limits (B's frame
                // in A's, as the core measures; lower > upper: no limit): Maul3D follows
                // Godot Physics there, as a 6-DOF joint (rigid limits: the soft linear
                // limit is the prismatic's). A product between 0 and 1 (a partial
                // per-tick damper) is not mapped: locked, as at the defaults (README).
                let (ang_lower, ang_upper) = (self.param(12, 0.0), self.param(11, 0.0));
                let spin_kept = self.param(16, 1.0) * self.param(18, 1.0) == 0.0;
                if spin_kept && (ang_lower != 0.0 || ang_upper != 0.0) {
                    let mut axes = [SixDofAxis::default(); 6];
                    axes[0].mode = if limit && lower == upper {
                        AxisMode::Locked
                    } else if limit {
                        AxisMode::Limited { lower, upper }
                    } else {
                        AxisMode::Free
                    };
                    axes[3].mode = if ang_lower < ang_upper {
                        AxisMode::Limited {
                            lower: ang_lower,
                            upper: ang_upper,
                        }
                    } else if ang_lower == ang_upper {
                        AxisMode::Locked
                    } else {
                        AxisMode::Free
                    };
                    return Some(JointKind::SixDof(SixDofJoint { axes }));
                }
                JointKind::Prismatic(PrismaticJoint {
                    enable_limit: limit,
                    lower: if limit { lower } else { 0.0 },
                    upper: if limit { upper } else { 0.0 },
                    // LINEAR_LIMIT_SOFTNESS 2, LINEAR_LIMIT_RESTITUTION 3,
                    // LINEAR_LIMIT_DAMPING 4.
                    ..soft_limit(
                        [self.param(2, 1.0), self.param(3, 0.7), self.param(4, 1.0)],
                        [1.0, 0.7, 1.0],
                    )
                    .map_or(PrismaticJoint::default(), |(hz, zeta)| {
                        PrismaticJoint {
                            limit_hertz: hz,
                            limit_damping_ratio: zeta,
                            ..PrismaticJoint::default()
                        }
                    })
                })
            }
            GJointKind::ConeTwist => {
                // ConeTwistJointParam: SWING_SPAN 0, TWIST_SPAN 1.
                let swing =
                    maul3d::math::clamp(self.param(0, deg(45.0)), 0.0, core::f32::consts::PI);
                let twist =
                    maul3d::math::clamp(self.param(1, deg(180.0)), 0.0, core::f32::consts::PI);
                JointKind::ConeTwist(ConeTwistJoint {
                    swing_limit: swing,
                    twist_lower: -twist,
                    twist_upper: twist,
                    ..ConeTwistJoint::default()
                })
            }
            GJointKind::SixDof => {
                // Per axis: LINEAR_LOWER_LIMIT 0, LINEAR_UPPER_LIMIT 1,
                // ANGULAR_LOWER_LIMIT 10, ANGULAR_UPPER_LIMIT 11; flags ENABLE_LINEAR_LIMIT 0,
                // ENABLE_ANGULAR_LIMIT 1 (Godot's defaults: every axis limited to 0, locked).
                let mut axes = [SixDofAxis::default(); 6];
                for (i, axis) in axes.iter_mut().enumerate() {
                    let a = (i % 3) as i32 * 100;
                    let (lo, hi, flag) = if i < 3 { (0, 1, 0) } else { (10, 11, 1) };
                    let (lower, upper) = (self.param(a + lo, 0.0), self.param(a + hi, 0.0));
                    // Godot's angular axes turn the other way round from the core's (B's
                    // frame in A's): Godot Physics and Jolt both hold a [0, 0.5] limit about
                    // z at body angles [−0.5, 0], and a +1 rad/s motor spins the body at
                    // −1. So angular limits, motor speeds and spring targets are negated.
                    let (lower, upper) = if i < 3 {
                        (lower, upper)
                    } else {
                        (-upper, -lower)
                    };
                    // Motors: LINEAR_MOTOR_TARGET_VELOCITY 5 / FORCE_LIMIT 6 with flag
                    // ENABLE_LINEAR_MOTOR 5; ANGULAR_MOTOR_TARGET_VELOCITY 17 /
                    // FORCE_LIMIT 18 with flag ENABLE_MOTOR 4.
                    let (speed, force, motor_flag) = if i < 3 { (5, 6, 5) } else { (17, 18, 4) };
                    if self.flag(a + motor_flag, false) {
                        let v = self.param(a + speed, 0.0);
                        axis.motor_speed = if i < 3 { v } else { -v };
                        axis.max_motor_force = max(self.param(a + force, 0.0), 0.0);
                    }
                    // Springs: LINEAR_SPRING_STIFFNESS 7 / DAMPING 8 / EQUILIBRIUM_POINT 9
                    // with flag ENABLE_LINEAR_SPRING 3; ANGULAR_SPRING_STIFFNESS 19 /
                    // DAMPING 20 / EQUILIBRIUM_POINT 21 with flag ENABLE_ANGULAR_SPRING 2.
                    // Godot's stiffness and damping are force units (as Jolt's
                    // StiffnessAndDamping spring): the core's stiffness spring, towards the
                    // equilibrium point.
                    let (k, c, eq, spring_flag) =
                        if i < 3 { (7, 8, 9, 3) } else { (19, 20, 21, 2) };
                    if self.flag(a + spring_flag, false) {
                        let big = 1.0e15;
                        axis.spring_stiffness =
                            maul3d::math::clamp(self.param(a + k, 0.0), 0.0, big);
                        axis.spring_damping = maul3d::math::clamp(self.param(a + c, 0.0), 0.0, big);
                        let reach = if i < 3 { 1.0e6 } else { core::f32::consts::PI };
                        // The core measures B's frame in A's (a body joined alone is
                        // B, `joint_make`). Jolt (the engine of Godot's with 6-DOF
                        // springs; Godot Physics has none) pulls the body to
                        // +equilibrium along the axis and to −equilibrium about it.
                        let target = self.param(a + eq, 0.0);
                        let target = if i < 3 { target } else { -target };
                        axis.spring_target = maul3d::math::clamp(target, -reach, reach);
                    }
                    axis.mode = if !self.flag(a + flag, true) {
                        AxisMode::Free
                    } else if lower == upper {
                        AxisMode::Locked
                    } else if lower < upper {
                        AxisMode::Limited { lower, upper }
                    } else {
                        AxisMode::Free
                    };
                    // Limit softness: LINEAR_LIMIT_SOFTNESS 2 / RESTITUTION 3 / DAMPING 4
                    // (Godot Physics' impulse m·s·(r·depth/h − d·v), as the slider's);
                    // ANGULAR_LIMIT_SOFTNESS 12 / DAMPING 13 / RESTITUTION 14 / ERP 16
                    // (its impulse (1 + r)·m·s·(erp·depth/h − d·v)). A soft limit away from
                    // the defaults; rigid at them (Jolt ignores all of these).
                    // ANGULAR_FORCE_LIMIT 15 (a cap on the limit's torque) is not mapped.
                    if matches!(axis.mode, AxisMode::Limited { .. }) {
                        let soft = if i < 3 {
                            soft_limit(
                                [
                                    self.param(a + 2, 0.7),
                                    self.param(a + 3, 0.5),
                                    self.param(a + 4, 1.0),
                                ],
                                [0.7, 0.5, 1.0],
                            )
                        } else {
                            let bounce = 1.0 + max(self.param(a + 14, 0.0), 0.0);
                            soft_limit(
                                [
                                    self.param(a + 12, 0.5) * bounce,
                                    self.param(a + 16, 0.5),
                                    self.param(a + 13, 1.0),
                                ],
                                [0.5, 0.5, 1.0],
                            )
                        };
                        if let Some((hz, zeta)) = soft {
                            axis.limit_hertz = hz;
                            axis.limit_damping_ratio = zeta;
                        }
                    }
                }
                JointKind::SixDof(SixDofJoint { axes })
            }
        })
    }
}

/// The core's own pivot softness (Hz, damping ratio 1) for a pin's `bias` and `damping`
/// or a hinge's `bias` (its damping is 1); `None` (the world's joint softness, today's
/// behaviour) at Godot's defaults 0.3 and 1, or where Godot Physics corrects at least
/// as much per tick as there (the world's softness is stiffer still). Godot Physics
/// sets the pivot's closing speed, per solver iteration, to
/// `(b·depth/h − d·v)` in velocity units: with `d` in (0, 2] its 16 iterations settle at
/// `v = b·depth/(d·h)`, so each tick closes the fraction `f = b/d` of the gap, an
/// exponential decay at rate `−ln(1 − f)/h`. The core's critically damped pivot of
/// `ω = 1.55·(−ln(1 − f))/h` closes a gap to 1/30 in the same time
/// (`(1 + ωt)e^{−ωt} = 1/30` at `ωt ≈ 5.25`, `ln 30 ≈ 3.40`), at Godot's default tick
/// `h` = 1/60 s; `−ln(1 − f) ≈ f + f²/2 + f³/3` below 0.3.
fn pivot_spring(bias: f32, damping: f32) -> Option<(f32, f32)> {
    if bias == 0.3 && damping == 1.0 {
        return None;
    }
    let d = maul3d::math::clamp(damping, 0.0, 2.0);
    if !(d > 0.0 && bias >= 0.0) {
        // No damping lets Godot Physics' 16 iterations pile the correction up: stiff,
        // the world's softness (and a negative or NaN bias is no softness at all).
        return None;
    }
    let f = bias / d;
    if f >= 0.3 {
        return None;
    }
    let rate = (f + f * f / 2.0 + f * f * f / 3.0) * 60.0;
    let hz = max(1.55 * rate / core::f32::consts::TAU, 1.0e-3);
    Some((hz, 1.0))
}

impl GJoint {
    /// The own pivot softness of a pin (PinJointParam BIAS 0, DAMPING 1) or hinge
    /// (HingeJointParam BIAS 0) joint; see [`pivot_spring`].
    pub fn pivot_spring(&self) -> Option<(f32, f32)> {
        match self.kind {
            GJointKind::Pin => pivot_spring(self.param(0, 0.3), self.param(1, 1.0)),
            GJointKind::Hinge => pivot_spring(self.param(0, 0.3), 1.0),
            _ => None,
        }
    }
}

/// The core's soft limit (Hz, damping ratio) for a Godot limit's softness `s`, bias `b`
/// (the slider's "restitution", the hinge's limit bias) and damping `d` (the hinge's
/// relaxation); `None` (a rigid limit) at Godot's defaults, as Jolt (which ignores these)
/// and as Godot Physics nearly is there. Otherwise Godot Physics' limit impulse per tick,
/// `m·s·(b·depth/h − d·v)`, read as a spring and damper: `k/m = s·b/h²`, `c/m = s·d/h`, so
/// `ω = √(s·b)/h` and `ζ = d·√s / (2√b)`, at Godot's default tick `h` = 1/60 s.
fn soft_limit([s, b, d]: [f32; 3], defaults: [f32; 3]) -> Option<(f32, f32)> {
    if [s, b, d] == defaults {
        return None;
    }
    let h = 1.0 / 60.0;
    let (s, b, d) = (max(s, 0.0), max(b, 1.0e-6), max(d, 0.0));
    let omega = (s * b).sqrt() / h;
    let hz = maul3d::math::clamp(omega / core::f32::consts::TAU, 0.0, 1.0e6);
    // A zero stiffness would be a rigid limit; keep it just soft.
    let hz = max(hz, 1.0e-3);
    let zeta = maul3d::math::clamp(d * s.sqrt() / (2.0 * b.sqrt()), 0.0, 1.0e6);
    Some((hz, zeta))
}

/// Splits a Godot frame into the core's (translation, rotation without scale).
fn core_frame(t: Transform3D) -> maul3d::math::Transform {
    maul3d::math::Transform::new(v3(t.origin), quat(t.basis))
}

impl Records {
    pub fn joint_create(&mut self) -> Rid {
        let rid = self.new_rid();
        self.joints.insert(rid.to_u64(), GJoint::new());
        rid
    }

    /// Destroys a joint's `maul3d` joint, if it has one.
    pub fn joint_unmake(&mut self, rid: u64) {
        let Some(j) = self.joints.get_mut(&rid) else {
            return;
        };
        if let Some((space, id)) = j.core.take()
            && let Some(s) = self.spaces.get_mut(&space)
        {
            s.world
                .destroy_joint(id)
                .or_report(site!("joint change or free (destroy_joint)"));
        }
    }

    /// (Re)makes a joint's `maul3d` joint from its record, when its bodies are in one
    /// space (a joint without body B is pinned to that space's anchor body).
    pub fn joint_make(&mut self, rid: u64) {
        self.joint_unmake(rid);
        let Some(j) = self.joints.get(&rid) else {
            return;
        };
        let Some(kind) = j.core_kind() else {
            return;
        };
        let Some((space, body_a)) = self.core_body(j.body_a) else {
            return;
        };
        let frame_a = self.body_frame(j.body_a, j.frame_a);
        let (body_b, frame_b) = match self.core_body(j.body_b) {
            Some((sb, b)) if sb == space => (b, self.body_frame(j.body_b, j.frame_b)),
            Some(_) => {
                error_once(
                    "joint spaces",
                    "a joint's bodies are in different spaces; it does nothing",
                );
                return;
            }
            None if j.body_b == 0 => {
                // Pinned to the world: frame B is the joint's world frame.
                let world_frame = self.objs[&j.body_a].transform * j.frame_a;
                match self.anchor(space) {
                    Some(anchor) => (anchor, world_frame),
                    None => return,
                }
            }
            None => return,
        };
        // A joint with one body: Godot's Joint3D node passes the body as A whichever of
        // node_a / node_b names it. Jolt (its default `joints/world_node`, Node A) then
        // measures the body in the world's frame; Godot Physics measures the world in the
        // body's, the mirror image. Maul3D follows Jolt, the default engine of new
        // projects: the world anchor is the core's body A (cmp_joint_alone).
        let j = &self.joints[&rid];
        let pivot = j.pivot_spring();
        let ((body_a, frame_a), (body_b, frame_b)) = if j.body_b == 0 {
            ((body_b, frame_b), (body_a, frame_a))
        } else {
            ((body_a, frame_a), (body_b, frame_b))
        };
        let def = maul3d::JointDef {
            body_a,
            body_b,
            local_frame_a: core_frame(frame_a),
            local_frame_b: core_frame(frame_b),
            collide_connected: !j.disable_collisions,
            user_data: rid,
            kind,
            ..maul3d::JointDef::default()
        };
        let Some(w) = self.world_mut(space) else {
            return;
        };
        super::growth::make_room(w, 0, 0, 1);
        match w.create_joint(&def) {
            Ok(id) => {
                if let Some((hz, zeta)) = pivot
                    && let Err(e) = w.set_joint_pivot_spring(id, hz, zeta)
                {
                    report_create_error("joint", &e);
                }
                if let Some(j) = self.joints.get_mut(&rid) {
                    j.core = Some((space, id));
                }
            }
            Err(e) => report_create_error("joint", &e),
        }
    }

    /// A joint frame Godot gives in a body's (scaled) frame, in its `maul3d` body's frame:
    /// the body's scale applied to it.
    fn body_frame(&self, body: u64, frame: Transform3D) -> Transform3D {
        match self.objs.get(&body) {
            Some(o) if o.scale != Basis::IDENTITY => {
                Transform3D::new(o.scale, Vector3::ZERO) * frame
            }
            _ => frame,
        }
    }

    /// The static body without shapes that world-pinned joints attach to.
    fn anchor(&mut self, space: u64) -> Option<BodyId> {
        let s = self.spaces.get_mut(&space)?;
        if let Some(a) = s.anchor
            && s.world.body_is_valid(a)
        {
            return Some(a);
        }
        super::growth::make_room(&mut s.world, 1, 0, 0);
        match s.world.create_body(&BodyDef::default()) {
            Ok(a) => {
                s.anchor = Some(a);
                Some(a)
            }
            Err(e) => {
                report_create_error("joint anchor body", &e);
                None
            }
        }
    }

    /// Remakes the joints that use a body (after its `maul3d` body was rebuilt).
    pub fn remake_joints_of(&mut self, body: u64) {
        for id in self.joints_of(body) {
            self.joint_make(id);
        }
    }

    /// The joints attached to object `body`, in RID order (from `body_joints`, so making
    /// or freeing a body does not walk every joint).
    pub(super) fn joints_of(&self, body: u64) -> Vec<u64> {
        self.body_joints
            .get(&body)
            .map_or_else(Vec::new, |j| j.iter().copied().collect())
    }

    /// Moves joint `rid` in `body_joints` from bodies `old` to bodies `new` (0: none).
    pub(super) fn index_joint(&mut self, rid: u64, old: [u64; 2], new: [u64; 2]) {
        for b in old {
            if let Some(set) = self.body_joints.get_mut(&b) {
                set.remove(&rid);
                if set.is_empty() {
                    self.body_joints.remove(&b);
                }
            }
        }
        for b in new.into_iter().filter(|b| *b != 0) {
            self.body_joints.entry(b).or_default().insert(rid);
        }
    }

    pub fn joint_set(&mut self, rid: u64, f: impl FnOnce(&mut GJoint)) {
        if let Some(j) = self.joints.get_mut(&rid) {
            let old = [j.body_a, j.body_b];
            f(j);
            let new = [j.body_a, j.body_b];
            if old != new {
                self.index_joint(rid, old, new);
            }
            self.joint_make(rid);
        }
    }
}
