//! Joints: constraints between two bodies, solved before the contacts in every substep
//! (Box2D v3 / Box3D's soft step).
//!
//! A joint holds each body to a frame fixed in it (`local_frame_a`, `local_frame_b`: an
//! anchor point and three axes in the body's frame) and constrains how the two frames may
//! move relative to each other: the spherical joint keeps the anchors together, the
//! revolute joint adds a hinge about the frames' z axis, the prismatic joint a slider along
//! x, and so on (see [`JointKind`]). Positional errors are corrected softly, with the
//! world's joint softness (twice the contact stiffness, `WorldDef::joint_damping_ratio`),
//! or with a spring's own stiffness where the joint has one.
//!
//! What lives where:
//! - this file: the defs, validation, the pool and the calls on [`World`];
//! - `solver.rs`: preparing joints each step, the rows every kind is built from, the
//!   warm start / solve / relax passes, reactions and breaking;
//! - one file per kind with its rows.
//!
//! State: each joint's def and settings (as changed by setters), its accumulated impulses
//! (warm start), its last reaction and its broken flag; the pool's generations and free
//! list. Each body's joint list is derived (rebuilt at restore) and never walked in an
//! order that shapes a result.

mod cone_twist;
mod distance;
mod prismatic;
mod revolute;
mod six_dof;
pub(crate) mod solver;
mod spherical;
mod weld;
mod wheel;

use crate::body::NONE;
use crate::codec::{Dec, Enc, Sink, check};
use crate::error::{Error, Result};
use crate::id::{BodyId, JointId};
use crate::journal::{enc_body, kind as rec_kind};
use crate::limits::{MAX_FORCE, MAX_IMPULSE, MAX_SETTING, MAX_VELOCITY};
use crate::math::{DVec3, PI, Quat, Transform, Vec3};
use crate::world::{World, alloc_slot};

/// Largest anchor offset, limit translation or length a joint accepts, m.
pub const MAX_JOINT_LENGTH: f32 = 1.0e6;

/// A revolute (hinge) joint: the anchors coincide and the frames turn only about their
/// common z axis. The angle is that of frame B about frame A's z axis, in `[-π, π]`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RevoluteJoint {
    /// Whether the angle is held within `[lower, upper]`.
    pub enable_limit: bool,
    /// Lowest angle, radians, within `[-π, upper]`.
    pub lower: f32,
    /// Highest angle, radians, within `[lower, π]`.
    pub upper: f32,
    /// Whether the motor drives the angular speed towards `motor_speed`.
    pub enable_motor: bool,
    /// Target angular speed of B relative to A about the axis, rad/s.
    pub motor_speed: f32,
    /// Largest torque the motor applies, N·m (≥ 0).
    pub max_motor_torque: f32,
    /// Whether a spring pulls the angle towards 0.
    pub enable_spring: bool,
    /// Spring stiffness as a frequency, Hz (0: no spring force).
    pub hertz: f32,
    /// Spring damping ratio (1: critical).
    pub damping_ratio: f32,
}

impl Default for RevoluteJoint {
    fn default() -> RevoluteJoint {
        RevoluteJoint {
            enable_limit: false,
            lower: 0.0,
            upper: 0.0,
            enable_motor: false,
            motor_speed: 0.0,
            max_motor_torque: 0.0,
            enable_spring: false,
            hertz: 0.0,
            damping_ratio: 0.0,
        }
    }
}

/// A prismatic (slider) joint: frame B slides along frame A's x axis and does not turn.
/// The translation is the anchors' offset along that axis.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PrismaticJoint {
    /// Whether the translation is held within `[lower, upper]`.
    pub enable_limit: bool,
    /// Lowest translation, m.
    pub lower: f32,
    /// Highest translation, m.
    pub upper: f32,
    /// Whether the motor drives the sliding speed towards `motor_speed`.
    pub enable_motor: bool,
    /// Target speed of B relative to A along the axis, m/s.
    pub motor_speed: f32,
    /// Largest force the motor applies, N (≥ 0).
    pub max_motor_force: f32,
    /// Whether a spring pulls the translation towards 0.
    pub enable_spring: bool,
    /// Spring stiffness as a frequency, Hz (0: no spring force).
    pub hertz: f32,
    /// Spring damping ratio.
    pub damping_ratio: f32,
}

impl Default for PrismaticJoint {
    fn default() -> PrismaticJoint {
        PrismaticJoint {
            enable_limit: false,
            lower: 0.0,
            upper: 0.0,
            enable_motor: false,
            motor_speed: 0.0,
            max_motor_force: 0.0,
            enable_spring: false,
            hertz: 0.0,
            damping_ratio: 0.0,
        }
    }
}

/// A weld joint: the frames are held together, rigidly (0 Hz: the world's joint softness)
/// or by springs.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WeldJoint {
    /// Linear stiffness, Hz; 0 is rigid.
    pub linear_hertz: f32,
    /// Angular stiffness, Hz; 0 is rigid.
    pub angular_hertz: f32,
    /// Damping ratio of both springs.
    pub damping_ratio: f32,
}

impl Default for WeldJoint {
    fn default() -> WeldJoint {
        WeldJoint {
            linear_hertz: 0.0,
            angular_hertz: 0.0,
            damping_ratio: 1.0,
        }
    }
}

/// A distance joint: the anchors' distance stays within `[min_length, max_length]` — a rod
/// when they are equal, a rope when `min_length` is 0 — and with the spring enabled it is
/// also pulled towards `length`. The bodies turn freely about the anchors.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DistanceJoint {
    /// Rest length of the spring, m.
    pub length: f32,
    /// Shortest distance, m.
    pub min_length: f32,
    /// Longest distance, m.
    pub max_length: f32,
    /// Whether a spring pulls the distance towards `length`.
    pub enable_spring: bool,
    /// Spring stiffness as a frequency, Hz (0: no spring force).
    pub hertz: f32,
    /// Spring damping ratio.
    pub damping_ratio: f32,
}

impl Default for DistanceJoint {
    /// A rod of 1 m.
    fn default() -> DistanceJoint {
        DistanceJoint {
            length: 1.0,
            min_length: 1.0,
            max_length: 1.0,
            enable_spring: false,
            hertz: 0.0,
            damping_ratio: 0.0,
        }
    }
}

/// A cone-twist joint (a ragdoll's shoulder or hip): the anchors coincide, frame B's x
/// axis stays within a cone of half-angle `swing_limit` around frame A's x axis, and the
/// twist about x stays within `[twist_lower, twist_upper]`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ConeTwistJoint {
    /// Half-angle of the cone, radians, within `[0, π]` (π: no swing limit).
    pub swing_limit: f32,
    /// Lowest twist, radians, within `[-π, twist_upper]`.
    pub twist_lower: f32,
    /// Highest twist, radians, within `[twist_lower, π]`.
    pub twist_upper: f32,
    /// Friction: the largest torque, N·m, that resists any relative turning (0: none).
    pub max_friction_torque: f32,
}

impl Default for ConeTwistJoint {
    fn default() -> ConeTwistJoint {
        ConeTwistJoint {
            swing_limit: 0.25 * PI,
            twist_lower: -0.25 * PI,
            twist_upper: 0.25 * PI,
            max_friction_torque: 0.0,
        }
    }
}

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
    };
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

/// A wheel joint: frame B slides along frame A's y axis (the suspension, with a spring and
/// optional limits) and spins freely about the frames' z axis (the axle, with a motor);
/// every other motion is locked.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WheelJoint {
    /// Whether the suspension spring acts.
    pub enable_spring: bool,
    /// Suspension stiffness, Hz (0: no spring force).
    pub hertz: f32,
    /// Suspension damping ratio.
    pub damping_ratio: f32,
    /// Whether the suspension travel is held within `[lower, upper]`.
    pub enable_limit: bool,
    /// Lowest suspension translation, m.
    pub lower: f32,
    /// Highest suspension translation, m.
    pub upper: f32,
    /// Whether the motor drives the spin towards `motor_speed`.
    pub enable_motor: bool,
    /// Target spin of B relative to A about the axle, rad/s.
    pub motor_speed: f32,
    /// Largest torque the motor applies, N·m.
    pub max_motor_torque: f32,
}

impl Default for WheelJoint {
    fn default() -> WheelJoint {
        WheelJoint {
            enable_spring: true,
            hertz: 1.0,
            damping_ratio: 0.7,
            enable_limit: false,
            lower: 0.0,
            upper: 0.0,
            enable_motor: false,
            motor_speed: 0.0,
            max_motor_torque: 0.0,
        }
    }
}

/// What a joint constrains, with the settings of its kind.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum JointKind {
    /// Ball and socket: the anchors coincide.
    Spherical,
    /// Hinge about the frames' z axis.
    Revolute(RevoluteJoint),
    /// Slider along frame A's x axis.
    Prismatic(PrismaticJoint),
    /// The frames held together.
    Weld(WeldJoint),
    /// Rod, rope or spring between the anchors.
    Distance(DistanceJoint),
    /// Ball with a swing cone and twist limits.
    ConeTwist(ConeTwistJoint),
    /// Per-axis free, limited or locked.
    SixDof(SixDofJoint),
    /// Suspension along y, spin about z.
    Wheel(WheelJoint),
}

impl JointKind {
    pub(crate) fn tag(&self) -> u8 {
        match self {
            JointKind::Spherical => 0,
            JointKind::Revolute(_) => 1,
            JointKind::Prismatic(_) => 2,
            JointKind::Weld(_) => 3,
            JointKind::Distance(_) => 4,
            JointKind::ConeTwist(_) => 5,
            JointKind::SixDof(_) => 6,
            JointKind::Wheel(_) => 7,
        }
    }

    /// Axes of per-axis impulses (spring, motor, limits, lock) the kind keeps.
    pub(crate) fn axis_count(&self) -> usize {
        match self {
            JointKind::Spherical | JointKind::Weld(_) => 0,
            JointKind::Revolute(_) | JointKind::Prismatic(_) | JointKind::Distance(_) => 1,
            JointKind::ConeTwist(_) | JointKind::Wheel(_) => 2,
            JointKind::SixDof(_) => 6,
        }
    }
}

/// Everything needed to create a joint. Change the fields you need and keep
/// `..Default::default()` for the rest.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct JointDef {
    /// The first body.
    pub body_a: BodyId,
    /// The second body (another body than `body_a`).
    pub body_b: BodyId,
    /// The joint frame in body A's frame: anchor point and axes.
    pub local_frame_a: Transform,
    /// The joint frame in body B's frame.
    pub local_frame_b: Transform,
    /// Whether the two bodies' shapes still collide with each other.
    pub collide_connected: bool,
    /// Reaction force, N, above which the joint breaks (`f32::MAX`: never).
    pub break_force: f32,
    /// Reaction torque, N·m, above which the joint breaks (`f32::MAX`: never).
    pub break_torque: f32,
    /// Host data: stored, never hashed.
    pub user_data: u64,
    /// What it constrains.
    pub kind: JointKind,
}

impl Default for JointDef {
    fn default() -> JointDef {
        JointDef {
            body_a: BodyId::NULL,
            body_b: BodyId::NULL,
            local_frame_a: Transform::IDENTITY,
            local_frame_b: Transform::IDENTITY,
            collide_connected: false,
            break_force: f32::MAX,
            break_torque: f32::MAX,
            user_data: 0,
            kind: JointKind::Spherical,
        }
    }
}

/// A joint broke in the last step: its reaction passed its break force or torque.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct JointBreakEvent {
    /// The joint (still alive, marked broken).
    pub joint: JointId,
}

/// Accumulated impulses of one axis (state: they warm-start the next step).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct AxisImpulse {
    pub spring: f32,
    pub motor: f32,
    pub lower: f32,
    pub upper: f32,
    /// A locked single axis (a rod, a locked 6-DOF axis).
    pub lock: f32,
}

/// Accumulated impulses of a joint; what each part means depends on the kind (see the
/// kind's file). `linear` first: a spherical joint's passes read only it.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[repr(C)]
pub(crate) struct JointImpulses {
    pub linear: Vec3,
    pub angular: Vec3,
    pub axes: [AxisImpulse; 6],
}

/// An edge of a body's joint list.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct JointEdge {
    pub body: u32,
    pub prev: u32,
    pub next: u32,
}

const NO_EDGE: JointEdge = JointEdge {
    body: NONE,
    prev: NONE,
    next: NONE,
};

/// A joint as the world keeps it. Everything is state except the edges (derived) and the
/// user data (host data).
#[derive(Clone, Debug)]
pub(crate) struct Joint {
    pub generation: u32,
    pub alive: bool,
    pub body_a: u32,
    pub body_b: u32,
    /// Frames in each body's frame (rotations normalised).
    pub frame_a: Transform,
    pub frame_b: Transform,
    pub collide_connected: bool,
    pub break_force: f32,
    pub break_torque: f32,
    pub kind: JointKind,
    pub broken: bool,
    pub impulses: JointImpulses,
    /// Reaction force and torque on body B in the last step the joint was solved.
    pub reaction_force: Vec3,
    pub reaction_torque: Vec3,
    pub user_data: u64,
    pub edges: [JointEdge; 2],
}

impl Joint {
    pub(crate) fn dead(generation: u32) -> Joint {
        Joint {
            generation,
            alive: false,
            body_a: NONE,
            body_b: NONE,
            frame_a: Transform::IDENTITY,
            frame_b: Transform::IDENTITY,
            collide_connected: false,
            break_force: f32::MAX,
            break_torque: f32::MAX,
            kind: JointKind::Spherical,
            broken: false,
            impulses: JointImpulses::default(),
            reaction_force: Vec3::ZERO,
            reaction_torque: Vec3::ZERO,
            user_data: 0,
            edges: [NO_EDGE; 2],
        }
    }

    /// Whether the joint acts (alive and not broken).
    #[inline]
    pub(crate) fn acts(&self) -> bool {
        self.alive && !self.broken
    }
}

// ---------------------------------------------------------------------------------------
// Validation: every field, errors naming the value and the bound it broke.

fn range(name: &'static str, v: f32, lo: f32, hi: f32, expected: &'static str) -> Result<()> {
    crate::error::check_range(name, v, lo, hi, expected)
}

fn hertz(name: &'static str, v: f32) -> Result<()> {
    range(name, v, 0.0, MAX_SETTING, "within [0, 1e6] Hz")
}

fn damping(name: &'static str, v: f32) -> Result<()> {
    range(name, v, 0.0, MAX_SETTING, "within [0, 1e6]")
}

fn speed(name: &'static str, v: f32) -> Result<()> {
    range(name, v, -MAX_VELOCITY, MAX_VELOCITY, "within [-1e5, 1e5]")
}

fn force(name: &'static str, v: f32) -> Result<()> {
    range(name, v, 0.0, MAX_FORCE, "within [0, 1e15]")
}

/// Angle limits: both within [-π, π], lower ≤ upper.
fn angles(names: (&'static str, &'static str), lower: f32, upper: f32) -> Result<()> {
    range(names.0, lower, -PI, PI, "within [-π, π] radians")?;
    range(names.1, upper, -PI, PI, "within [-π, π] radians")?;
    range(names.1, upper, lower, PI, "at least the lower limit")
}

/// Translation limits: both within ±1e6 m, lower ≤ upper.
fn translations(names: (&'static str, &'static str), lower: f32, upper: f32) -> Result<()> {
    let m = MAX_JOINT_LENGTH;
    range(names.0, lower, -m, m, "within [-1e6, 1e6] m")?;
    range(names.1, upper, -m, m, "within [-1e6, 1e6] m")?;
    range(names.1, upper, lower, m, "at least the lower limit")
}

fn distance_range(min: f32, max: f32) -> Result<()> {
    let m = MAX_JOINT_LENGTH;
    range("min_length", min, 0.0, m, "within [0, 1e6] m")?;
    range("max_length", max, 0.0, m, "within [0, 1e6] m")?;
    range("max_length", max, min, m, "at least min_length")
}

fn check_axis(i: usize, a: &SixDofAxis) -> Result<()> {
    if let AxisMode::Limited { lower, upper } = a.mode {
        if i < 3 {
            translations(("axes.lower", "axes.upper"), lower, upper)?;
        } else {
            angles(("axes.lower", "axes.upper"), lower, upper)?;
        }
    }
    hertz("axes.spring_hertz", a.spring_hertz)?;
    damping("axes.spring_damping_ratio", a.spring_damping_ratio)?;
    speed("axes.motor_speed", a.motor_speed)?;
    force("axes.max_motor_force", a.max_motor_force)
}

/// Checks every setting of a kind.
pub(crate) fn check_kind(kind: &JointKind) -> Result<()> {
    match kind {
        JointKind::Spherical => Ok(()),
        JointKind::Revolute(r) => {
            angles(("lower", "upper"), r.lower, r.upper)?;
            speed("motor_speed", r.motor_speed)?;
            force("max_motor_torque", r.max_motor_torque)?;
            hertz("hertz", r.hertz)?;
            damping("damping_ratio", r.damping_ratio)
        }
        JointKind::Prismatic(p) => {
            translations(("lower", "upper"), p.lower, p.upper)?;
            speed("motor_speed", p.motor_speed)?;
            force("max_motor_force", p.max_motor_force)?;
            hertz("hertz", p.hertz)?;
            damping("damping_ratio", p.damping_ratio)
        }
        JointKind::Weld(w) => {
            hertz("linear_hertz", w.linear_hertz)?;
            hertz("angular_hertz", w.angular_hertz)?;
            damping("damping_ratio", w.damping_ratio)
        }
        JointKind::Distance(d) => {
            range(
                "length",
                d.length,
                0.0,
                MAX_JOINT_LENGTH,
                "within [0, 1e6] m",
            )?;
            distance_range(d.min_length, d.max_length)?;
            hertz("hertz", d.hertz)?;
            damping("damping_ratio", d.damping_ratio)
        }
        JointKind::ConeTwist(c) => {
            range(
                "swing_limit",
                c.swing_limit,
                0.0,
                PI,
                "within [0, π] radians",
            )?;
            angles(("twist_lower", "twist_upper"), c.twist_lower, c.twist_upper)?;
            force("max_friction_torque", c.max_friction_torque)
        }
        JointKind::SixDof(s) => {
            for (i, a) in s.axes.iter().enumerate() {
                check_axis(i, a)?;
            }
            Ok(())
        }
        JointKind::Wheel(w) => {
            hertz("hertz", w.hertz)?;
            damping("damping_ratio", w.damping_ratio)?;
            translations(("lower", "upper"), w.lower, w.upper)?;
            speed("motor_speed", w.motor_speed)?;
            force("max_motor_torque", w.max_motor_torque)
        }
    }
}

fn check_threshold(name: &'static str, v: f32) -> Result<()> {
    range(
        name,
        v,
        0.0,
        f32::MAX,
        "within [0, f32::MAX] (f32::MAX: unbreakable)",
    )
}

/// What a refusal calls the parts of a local frame: its anchor, its rotation and the
/// rotation's norm².
struct FrameNames {
    anchor: &'static str,
    rotation: &'static str,
    norm: &'static str,
}

const FRAME_A: FrameNames = FrameNames {
    anchor: "local_frame_a anchor",
    rotation: "local_frame_a rotation",
    norm: "local_frame_a rotation norm²",
};
const FRAME_B: FrameNames = FrameNames {
    anchor: "local_frame_b anchor",
    rotation: "local_frame_b rotation",
    norm: "local_frame_b rotation norm²",
};

/// Checks a frame and returns it with its rotation normalised.
fn check_frame(names: &FrameNames, f: Transform) -> Result<Transform> {
    let m = MAX_JOINT_LENGTH;
    for i in 0..3 {
        range(
            names.anchor,
            f.p.get(i),
            -m,
            m,
            "finite and within ±1e6 m of the body origin (each component)",
        )?;
    }
    let q = f.q;
    if let Some(c) = [q.x, q.y, q.z, q.w].into_iter().find(|c| !c.is_finite()) {
        return Err(Error::Argument {
            name: names.rotation,
            value: c as f64,
            expected: "finite (each component)",
        });
    }
    let n2 = q.length_squared();
    if !(n2 > 1e-6 && n2.is_finite()) {
        return Err(Error::Argument {
            name: names.norm,
            value: n2 as f64,
            expected: "finite and above 1e-6 (a rotation quaternion)",
        });
    }
    Ok(Transform::new(f.p, q.normalize()))
}

// ---------------------------------------------------------------------------------------
// Encoding, shared by the journal (defs as given) and the state (settings as kept).

fn encode_axis<S: Sink>(e: &mut Enc<S>, a: &SixDofAxis) {
    match a.mode {
        AxisMode::Free => e.u8(0),
        AxisMode::Limited { lower, upper } => {
            e.u8(1);
            e.f32(lower);
            e.f32(upper);
        }
        AxisMode::Locked => e.u8(2),
    }
    e.f32(a.spring_hertz);
    e.f32(a.spring_damping_ratio);
    e.f32(a.motor_speed);
    e.f32(a.max_motor_force);
}

fn decode_axis(d: &mut Dec) -> Result<SixDofAxis> {
    let mode = match d.u8()? {
        0 => AxisMode::Free,
        1 => AxisMode::Limited {
            lower: d.f32()?,
            upper: d.f32()?,
        },
        2 => AxisMode::Locked,
        _ => return Err(Error::Format("unknown joint axis mode")),
    };
    Ok(SixDofAxis {
        mode,
        spring_hertz: d.f32()?,
        spring_damping_ratio: d.f32()?,
        motor_speed: d.f32()?,
        max_motor_force: d.f32()?,
    })
}

/// Writes a kind's tag and settings.
pub(crate) fn encode_kind<S: Sink>(e: &mut Enc<S>, k: &JointKind) {
    e.u8(k.tag());
    match k {
        JointKind::Spherical => {}
        JointKind::Revolute(r) => {
            e.bool(r.enable_limit);
            e.f32(r.lower);
            e.f32(r.upper);
            e.bool(r.enable_motor);
            e.f32(r.motor_speed);
            e.f32(r.max_motor_torque);
            e.bool(r.enable_spring);
            e.f32(r.hertz);
            e.f32(r.damping_ratio);
        }
        JointKind::Prismatic(p) => {
            e.bool(p.enable_limit);
            e.f32(p.lower);
            e.f32(p.upper);
            e.bool(p.enable_motor);
            e.f32(p.motor_speed);
            e.f32(p.max_motor_force);
            e.bool(p.enable_spring);
            e.f32(p.hertz);
            e.f32(p.damping_ratio);
        }
        JointKind::Weld(w) => {
            e.f32(w.linear_hertz);
            e.f32(w.angular_hertz);
            e.f32(w.damping_ratio);
        }
        JointKind::Distance(d) => {
            e.f32(d.length);
            e.f32(d.min_length);
            e.f32(d.max_length);
            e.bool(d.enable_spring);
            e.f32(d.hertz);
            e.f32(d.damping_ratio);
        }
        JointKind::ConeTwist(c) => {
            e.f32(c.swing_limit);
            e.f32(c.twist_lower);
            e.f32(c.twist_upper);
            e.f32(c.max_friction_torque);
        }
        JointKind::SixDof(s) => {
            for a in &s.axes {
                encode_axis(e, a);
            }
        }
        JointKind::Wheel(w) => {
            e.bool(w.enable_spring);
            e.f32(w.hertz);
            e.f32(w.damping_ratio);
            e.bool(w.enable_limit);
            e.f32(w.lower);
            e.f32(w.upper);
            e.bool(w.enable_motor);
            e.f32(w.motor_speed);
            e.f32(w.max_motor_torque);
        }
    }
}

/// Reads what `encode_kind` wrote (format checks only; ranges are checked by the caller).
pub(crate) fn decode_kind(d: &mut Dec) -> Result<JointKind> {
    Ok(match d.u8()? {
        0 => JointKind::Spherical,
        1 => JointKind::Revolute(RevoluteJoint {
            enable_limit: d.bool()?,
            lower: d.f32()?,
            upper: d.f32()?,
            enable_motor: d.bool()?,
            motor_speed: d.f32()?,
            max_motor_torque: d.f32()?,
            enable_spring: d.bool()?,
            hertz: d.f32()?,
            damping_ratio: d.f32()?,
        }),
        2 => JointKind::Prismatic(PrismaticJoint {
            enable_limit: d.bool()?,
            lower: d.f32()?,
            upper: d.f32()?,
            enable_motor: d.bool()?,
            motor_speed: d.f32()?,
            max_motor_force: d.f32()?,
            enable_spring: d.bool()?,
            hertz: d.f32()?,
            damping_ratio: d.f32()?,
        }),
        3 => JointKind::Weld(WeldJoint {
            linear_hertz: d.f32()?,
            angular_hertz: d.f32()?,
            damping_ratio: d.f32()?,
        }),
        4 => JointKind::Distance(DistanceJoint {
            length: d.f32()?,
            min_length: d.f32()?,
            max_length: d.f32()?,
            enable_spring: d.bool()?,
            hertz: d.f32()?,
            damping_ratio: d.f32()?,
        }),
        5 => JointKind::ConeTwist(ConeTwistJoint {
            swing_limit: d.f32()?,
            twist_lower: d.f32()?,
            twist_upper: d.f32()?,
            max_friction_torque: d.f32()?,
        }),
        6 => {
            let mut axes = [SixDofAxis::default(); 6];
            for a in &mut axes {
                *a = decode_axis(d)?;
            }
            JointKind::SixDof(SixDofJoint { axes })
        }
        7 => JointKind::Wheel(WheelJoint {
            enable_spring: d.bool()?,
            hertz: d.f32()?,
            damping_ratio: d.f32()?,
            enable_limit: d.bool()?,
            lower: d.f32()?,
            upper: d.f32()?,
            enable_motor: d.bool()?,
            motor_speed: d.f32()?,
            max_motor_torque: d.f32()?,
        }),
        _ => return Err(Error::Format("unknown joint kind")),
    })
}

pub(crate) fn encode_transform<S: Sink>(e: &mut Enc<S>, t: &Transform) {
    e.vec3(t.p);
    e.quat(t.q);
}

pub(crate) fn decode_transform(d: &mut Dec) -> Result<Transform> {
    Ok(Transform::new(d.vec3()?, d.quat()?))
}

/// A joint def field by field (bodies as index and generation).
fn encode_joint_def<S: Sink>(e: &mut Enc<S>, def: &JointDef) {
    enc_body(e, def.body_a);
    enc_body(e, def.body_b);
    encode_transform(e, &def.local_frame_a);
    encode_transform(e, &def.local_frame_b);
    e.bool(def.collide_connected);
    e.f32(def.break_force);
    e.f32(def.break_torque);
    e.u64(def.user_data);
    encode_kind(e, &def.kind);
}

pub(crate) fn enc_joint<S: Sink>(e: &mut Enc<S>, id: JointId) {
    e.u32(id.index);
    e.u32(id.generation);
}

/// Encodes the per-axis impulses a kind keeps.
pub(crate) fn encode_impulses<S: Sink>(e: &mut Enc<S>, kind: &JointKind, i: &JointImpulses) {
    e.vec3(i.linear);
    e.vec3(i.angular);
    for a in &i.axes[..kind.axis_count()] {
        e.f32(a.spring);
        e.f32(a.motor);
        e.f32(a.lower);
        e.f32(a.upper);
        e.f32(a.lock);
    }
}

/// Reads impulses, each within `MAX_IMPULSE` so warm starting cannot overflow.
pub(crate) fn decode_impulses(d: &mut Dec, kind: &JointKind) -> Result<JointImpulses> {
    let ok = |v: f32| v.abs() <= MAX_IMPULSE;
    let okv = |v: Vec3| ok(v.x) && ok(v.y) && ok(v.z);
    let mut i = JointImpulses {
        linear: d.vec3()?,
        angular: d.vec3()?,
        ..Default::default()
    };
    check(
        okv(i.linear) && okv(i.angular),
        "joint impulse out of range",
    )?;
    for a in &mut i.axes[..kind.axis_count()] {
        *a = AxisImpulse {
            spring: d.f32()?,
            motor: d.f32()?,
            lower: d.f32()?,
            upper: d.f32()?,
            lock: d.f32()?,
        };
        check(
            ok(a.spring) && ok(a.motor) && ok(a.lower) && ok(a.upper) && ok(a.lock),
            "joint impulse out of range",
        )?;
    }
    Ok(i)
}

/// Checks a decoded joint's settings like `create_joint` does (a format error here).
pub(crate) fn check_decoded(j: &Joint) -> Result<()> {
    let bad = Error::Format("joint settings out of range");
    let frames_ok = |t: &Transform| {
        check_frame(&FRAME_A, *t).is_ok() && t.q.is_normalized(1e-3) && t.p.is_valid()
    };
    if !(frames_ok(&j.frame_a) && frames_ok(&j.frame_b)) {
        return Err(bad);
    }
    check_threshold("", j.break_force).map_err(|_| bad)?;
    check_threshold("", j.break_torque).map_err(|_| bad)?;
    check_kind(&j.kind).map_err(|_| bad)
}

// ---------------------------------------------------------------------------------------
// The calls.

/// The kind's name for "has no such setting" errors.
fn no_setting(what: &'static str) -> Error {
    Error::State(what)
}

impl World {
    pub(crate) fn joint_slot(&self, id: JointId) -> Result<usize> {
        let bad = Error::InvalidId {
            what: "joint",
            index: id.index,
            generation: id.generation,
        };
        let slot = id.slot().ok_or(bad)?;
        if id.world != self.tag || slot >= self.joints.len() {
            return Err(bad);
        }
        let j = &self.joints[slot];
        if !j.alive || j.generation != id.generation {
            return Err(bad);
        }
        Ok(slot)
    }

    pub(crate) fn joint_id(&self, slot: u32) -> JointId {
        JointId {
            index: slot + 1,
            generation: self.joints[slot as usize].generation,
            world: self.tag,
        }
    }

    /// Creates a joint between two distinct live bodies and wakes them. Unless
    /// `collide_connected`, contacts between the two bodies end now and no new ones begin.
    /// A joint between two bodies that cannot move (static or kinematic) is accepted and
    /// inert until one of them becomes dynamic. Refused (nothing changed) for bad values
    /// or a full pool.
    pub fn create_joint(&mut self, def: &JointDef) -> Result<JointId> {
        let a = self.body_slot(def.body_a)?;
        let b = self.body_slot(def.body_b)?;
        if a == b {
            return Err(Error::Argument {
                name: "body_b",
                value: def.body_b.index as f64,
                expected: "a body other than body_a",
            });
        }
        let frame_a = check_frame(&FRAME_A, def.local_frame_a)?;
        let frame_b = check_frame(&FRAME_B, def.local_frame_b)?;
        check_threshold("break_force", def.break_force)?;
        check_threshold("break_torque", def.break_torque)?;
        check_kind(&def.kind)?;
        let slot = alloc_slot(
            &mut self.joints,
            &mut self.joint_free,
            |j| j.generation,
            |g| Joint {
                generation: g.wrapping_add(1).max(1),
                alive: true,
                body_a: a as u32,
                body_b: b as u32,
                frame_a,
                frame_b,
                collide_connected: def.collide_connected,
                break_force: def.break_force,
                break_torque: def.break_torque,
                kind: def.kind,
                user_data: def.user_data,
                ..Joint::dead(0)
            },
        )
        .ok_or(Error::Capacity {
            what: "joint_capacity",
            capacity: self.def.joint_capacity as u64,
        })?;
        self.link_joint(slot);
        self.joint_count += 1;
        if !def.collide_connected {
            self.destroy_contacts_between(a as u32, b as u32);
        }
        self.wake_body(a as u32);
        self.wake_body(b as u32);
        let id = self.joint_id(slot);
        self.rec(rec_kind::CREATE_JOINT, |e| {
            encode_joint_def(e, def);
            enc_joint(e, id);
        });
        Ok(id)
    }

    /// Destroys a joint and wakes its bodies. If the bodies did not collide because of it,
    /// they may collide again from the next step.
    pub fn destroy_joint(&mut self, id: JointId) -> Result<()> {
        let slot = self.joint_slot(id)? as u32;
        let (a, b) = {
            let j = &self.joints[slot as usize];
            (j.body_a, j.body_b)
        };
        self.free_joint(slot, true);
        self.wake_body(a);
        self.wake_body(b);
        self.rec(rec_kind::DESTROY_JOINT, |e| enc_joint(e, id));
        Ok(())
    }

    /// Frees a joint slot; with `repair` and a joint that kept its bodies apart, asks the
    /// broad phase to look for their pairs again.
    fn free_joint(&mut self, slot: u32, repair: bool) {
        let j = &self.joints[slot as usize];
        let (a, b) = (j.body_a, j.body_b);
        let filtered = !j.collide_connected && !j.broken;
        self.unlink_joint(slot);
        let generation = self.joints[slot as usize].generation;
        self.joints[slot as usize] = Joint::dead(generation);
        let ok = self.joint_free.push(slot);
        debug_assert!(ok);
        self.joint_count -= 1;
        if repair && filtered {
            self.refind_pairs(a, b);
        }
    }

    /// Destroys every joint of a body being destroyed, in ascending joint slot order (the
    /// free list is state; the body's list order is not), waking the other bodies.
    pub(crate) fn destroy_body_joints(&mut self, body: u32) {
        let scratch = &mut self.joint_scratch;
        scratch.clear();
        let mut key = self.bodies[body as usize].joint_head;
        while key != NONE {
            let j = &self.joints[(key >> 1) as usize];
            let ok = scratch.push(key >> 1);
            debug_assert!(ok);
            key = j.edges[(key & 1) as usize].next;
        }
        scratch.sort_unstable();
        for k in 0..self.joint_scratch.len() {
            let slot = self.joint_scratch[k];
            let j = &self.joints[slot as usize];
            let other = if j.body_a == body { j.body_b } else { j.body_a };
            self.free_joint(slot, false);
            self.wake_body(other);
        }
    }

    pub(crate) fn link_joint(&mut self, slot: u32) {
        for edge in 0..2 {
            let j = &self.joints[slot as usize];
            let body = if edge == 0 { j.body_a } else { j.body_b };
            let key = (slot << 1) | edge as u32;
            let head = self.bodies[body as usize].joint_head;
            self.joints[slot as usize].edges[edge] = JointEdge {
                body,
                prev: NONE,
                next: head,
            };
            if head != NONE {
                self.joints[(head >> 1) as usize].edges[(head & 1) as usize].prev = key;
            }
            let b = &mut self.bodies[body as usize];
            b.joint_head = key;
            b.joint_count += 1;
        }
    }

    fn unlink_joint(&mut self, slot: u32) {
        for edge in 0..2 {
            let e = self.joints[slot as usize].edges[edge];
            if e.prev != NONE {
                self.joints[(e.prev >> 1) as usize].edges[(e.prev & 1) as usize].next = e.next;
            } else {
                self.bodies[e.body as usize].joint_head = e.next;
            }
            if e.next != NONE {
                self.joints[(e.next >> 1) as usize].edges[(e.next & 1) as usize].prev = e.prev;
            }
            self.bodies[e.body as usize].joint_count -= 1;
        }
    }

    /// Destroys the contacts between two bodies in ascending contact slot order.
    fn destroy_contacts_between(&mut self, a: u32, b: u32) {
        let (walk, other) =
            if self.bodies[a as usize].contact_count <= self.bodies[b as usize].contact_count {
                (a, b)
            } else {
                (b, a)
            };
        let scratch = &mut self.solver.touching;
        scratch.clear();
        let mut key = self.bodies[walk as usize].contact_head;
        while key != NONE {
            let c = &self.contacts[(key >> 1) as usize];
            let edge = (key & 1) as usize;
            if c.edges[edge ^ 1].body == other {
                let ok = scratch.push(key >> 1);
                debug_assert!(ok);
            }
            key = c.edges[edge].next;
        }
        scratch.sort_unstable();
        for k in 0..self.solver.touching.len() {
            let c = self.solver.touching[k];
            // A mesh pair's children went with it when it came first.
            if self.contacts[c as usize].alive {
                self.destroy_contact(c, false);
            }
        }
    }

    /// Puts the shapes of the body with fewer shapes into the move buffer, so the next
    /// pair search finds the pairs between `a` and `b` (Box2D's `b2Joint_SetCollideConnected`).
    pub(crate) fn refind_pairs(&mut self, a: u32, b: u32) {
        let (ba, bb) = (&self.bodies[a as usize], &self.bodies[b as usize]);
        if !ba.alive || !bb.alive {
            return;
        }
        let body = if ba.shape_count <= bb.shape_count {
            a
        } else {
            b
        };
        let mut s = self.bodies[body as usize].shape_head;
        while s != NONE {
            let shape = &self.shapes[s as usize];
            let next = shape.next_in_body;
            if shape.proxy != NONE {
                self.mark_enlarged(s);
            }
            s = next;
        }
    }

    /// Number of live joints.
    pub fn joint_count(&self) -> u32 {
        self.joint_count
    }

    /// All live joints, in slot order.
    pub fn joint_ids(&self) -> impl Iterator<Item = JointId> + '_ {
        self.joints
            .iter()
            .enumerate()
            .filter(|(_, j)| j.alive)
            .map(|(i, _)| self.joint_id(i as u32))
    }

    /// Whether `id` names a live joint of this world.
    pub fn joint_is_valid(&self, id: JointId) -> bool {
        self.joint_slot(id).is_ok()
    }

    fn joint(&self, id: JointId) -> Result<&Joint> {
        Ok(&self.joints[self.joint_slot(id)?])
    }

    /// The joint's kind with its current settings.
    pub fn joint_kind(&self, id: JointId) -> Result<JointKind> {
        Ok(self.joint(id)?.kind)
    }

    /// The joint as a def: bodies, frames (rotations normalised), current settings.
    pub fn joint_def(&self, id: JointId) -> Result<JointDef> {
        let j = self.joint(id)?;
        Ok(JointDef {
            body_a: self.body_id(j.body_a),
            body_b: self.body_id(j.body_b),
            local_frame_a: j.frame_a,
            local_frame_b: j.frame_b,
            collide_connected: j.collide_connected,
            break_force: j.break_force,
            break_torque: j.break_torque,
            user_data: j.user_data,
            kind: j.kind,
        })
    }

    /// The joint's two bodies.
    pub fn joint_bodies(&self, id: JointId) -> Result<(BodyId, BodyId)> {
        let j = self.joint(id)?;
        Ok((self.body_id(j.body_a), self.body_id(j.body_b)))
    }

    /// The force the joint applied to body B in the last step it was solved in, N (body A
    /// got the opposite).
    pub fn joint_reaction_force(&self, id: JointId) -> Result<Vec3> {
        Ok(self.joint(id)?.reaction_force)
    }

    /// The torque the joint applied to body B in the last step it was solved in, N·m
    /// (about B's centre of mass, not counting the force's moment).
    pub fn joint_reaction_torque(&self, id: JointId) -> Result<Vec3> {
        Ok(self.joint(id)?.reaction_torque)
    }

    /// Whether the joint broke (it stays alive and inert until destroyed).
    pub fn joint_is_broken(&self, id: JointId) -> Result<bool> {
        Ok(self.joint(id)?.broken)
    }

    /// Whether the joint's bodies collide with each other.
    pub fn joint_collide_connected(&self, id: JointId) -> Result<bool> {
        Ok(self.joint(id)?.collide_connected)
    }

    /// The host's data of the joint.
    pub fn joint_user_data(&self, id: JointId) -> Result<u64> {
        Ok(self.joint(id)?.user_data)
    }

    /// Both frames in world orientation now: rotations, and body B's anchor relative to
    /// body A's (f32, from the exact difference of the body positions).
    fn joint_frames_now(&self, j: &Joint) -> (Quat, Quat, Vec3) {
        let (ba, bb) = (
            &self.bodies[j.body_a as usize],
            &self.bodies[j.body_b as usize],
        );
        let qa = ba.rotation * j.frame_a.q;
        let qb = bb.rotation * j.frame_b.q;
        let d = (bb.position - ba.position).to_f32() + bb.rotation.rotate(j.frame_b.p)
            - ba.rotation.rotate(j.frame_a.p);
        (qa, qb, d)
    }

    /// A revolute joint's angle now: frame B about frame A's z axis, radians in [-π, π].
    pub fn revolute_angle(&self, id: JointId) -> Result<f32> {
        let j = self.joint(id)?;
        if !matches!(j.kind, JointKind::Revolute(_)) {
            return Err(no_setting("revolute_angle needs a revolute joint"));
        }
        let (qa, qb, _) = self.joint_frames_now(j);
        Ok(solver::twist_angle(qa, qb, 2))
    }

    /// A prismatic joint's translation along frame A's x axis now, or a wheel joint's
    /// suspension translation along y, m.
    pub fn prismatic_translation(&self, id: JointId) -> Result<f32> {
        let j = self.joint(id)?;
        let axis = match j.kind {
            JointKind::Prismatic(_) => Vec3::X,
            JointKind::Wheel(_) => Vec3::Y,
            _ => {
                return Err(no_setting(
                    "prismatic_translation needs a prismatic or wheel joint",
                ));
            }
        };
        let (qa, _, d) = self.joint_frames_now(j);
        Ok(qa.rotate(axis).dot(d))
    }

    /// The distance between the joint's anchors now, m (any kind).
    pub fn distance_length(&self, id: JointId) -> Result<f32> {
        let j = self.joint(id)?;
        let (_, _, d) = self.joint_frames_now(j);
        Ok(d.length())
    }

    /// The local frames of a joint whose frame in the world is `anchor` (relative to the
    /// world origin) with axes `rotation`, for each body as it is now.
    pub fn joint_frames_at(
        &self,
        body_a: BodyId,
        body_b: BodyId,
        anchor: DVec3,
        rotation: Quat,
    ) -> Result<(Transform, Transform)> {
        let (ba, bb) = (
            &self.bodies[self.body_slot(body_a)?],
            &self.bodies[self.body_slot(body_b)?],
        );
        for i in 0..3 {
            if !anchor.get(i).is_finite() {
                return Err(Error::Argument {
                    name: "anchor",
                    value: anchor.get(i),
                    expected: "finite",
                });
            }
        }
        if let Some(c) = [rotation.x, rotation.y, rotation.z, rotation.w]
            .into_iter()
            .find(|c| !c.is_finite())
        {
            return Err(Error::Argument {
                name: "rotation",
                value: c as f64,
                expected: "finite (each component)",
            });
        }
        let q = rotation.normalize();
        let frame =
            |p: DVec3, r: Quat| Transform::new(r.inv_rotate((anchor - p).to_f32()), r.inv_mul(q));
        Ok((
            frame(ba.position, ba.rotation),
            frame(bb.position, bb.rotation),
        ))
    }

    /// Joints that broke in the last step, in joint slot order.
    pub fn joint_break_events(&self) -> &[JointBreakEvent] {
        &self.joint_break_events
    }

    /// Changes a joint's kind settings through `f` (which validates before it writes),
    /// wakes both bodies and records the call.
    fn change_joint(
        &mut self,
        id: JointId,
        f: impl FnOnce(&mut JointKind) -> Result<()>,
        record: impl FnOnce(&mut Enc<crate::journal::RecordSink>),
        kind: u16,
    ) -> Result<()> {
        let slot = self.joint_slot(id)?;
        f(&mut self.joints[slot].kind)?;
        self.wake_joint_bodies(slot);
        self.rec(kind, |e| {
            enc_joint(e, id);
            record(e);
        });
        Ok(())
    }

    fn wake_joint_bodies(&mut self, slot: usize) {
        let (a, b) = (self.joints[slot].body_a, self.joints[slot].body_b);
        self.wake_body(a);
        self.wake_body(b);
    }

    /// Turns a revolute, prismatic or wheel joint's motor on or off.
    pub fn set_joint_enable_motor(&mut self, id: JointId, enable: bool) -> Result<()> {
        self.change_joint(
            id,
            |k| {
                match k {
                    JointKind::Revolute(r) => r.enable_motor = enable,
                    JointKind::Prismatic(p) => p.enable_motor = enable,
                    JointKind::Wheel(w) => w.enable_motor = enable,
                    _ => return Err(no_setting("this joint kind has no motor")),
                }
                Ok(())
            },
            |e| e.bool(enable),
            rec_kind::SET_JOINT_ENABLE_MOTOR,
        )
    }

    /// Sets a revolute, prismatic or wheel joint's motor speed (rad/s or m/s).
    pub fn set_joint_motor_speed(&mut self, id: JointId, motor_speed: f32) -> Result<()> {
        self.change_joint(
            id,
            |k| {
                speed("motor_speed", motor_speed)?;
                match k {
                    JointKind::Revolute(r) => r.motor_speed = motor_speed,
                    JointKind::Prismatic(p) => p.motor_speed = motor_speed,
                    JointKind::Wheel(w) => w.motor_speed = motor_speed,
                    _ => return Err(no_setting("this joint kind has no motor")),
                }
                Ok(())
            },
            |e| e.f32(motor_speed),
            rec_kind::SET_JOINT_MOTOR_SPEED,
        )
    }

    /// Sets the largest motor torque (revolute, wheel), motor force (prismatic) or
    /// friction torque (cone-twist).
    pub fn set_joint_max_motor_force(&mut self, id: JointId, max: f32) -> Result<()> {
        self.change_joint(
            id,
            |k| {
                force("max_motor_force", max)?;
                match k {
                    JointKind::Revolute(r) => r.max_motor_torque = max,
                    JointKind::Prismatic(p) => p.max_motor_force = max,
                    JointKind::Wheel(w) => w.max_motor_torque = max,
                    JointKind::ConeTwist(c) => c.max_friction_torque = max,
                    _ => return Err(no_setting("this joint kind has no motor")),
                }
                Ok(())
            },
            |e| e.f32(max),
            rec_kind::SET_JOINT_MAX_MOTOR_FORCE,
        )
    }

    /// Turns a revolute, prismatic or wheel joint's limit on or off.
    pub fn set_joint_enable_limit(&mut self, id: JointId, enable: bool) -> Result<()> {
        self.change_joint(
            id,
            |k| {
                match k {
                    JointKind::Revolute(r) => r.enable_limit = enable,
                    JointKind::Prismatic(p) => p.enable_limit = enable,
                    JointKind::Wheel(w) => w.enable_limit = enable,
                    _ => return Err(no_setting("this joint kind has no limit switch")),
                }
                Ok(())
            },
            |e| e.bool(enable),
            rec_kind::SET_JOINT_ENABLE_LIMIT,
        )
    }

    /// Sets the limits of a revolute (angle), prismatic (translation), wheel (suspension)
    /// or cone-twist (twist) joint.
    pub fn set_joint_limits(&mut self, id: JointId, lower: f32, upper: f32) -> Result<()> {
        self.change_joint(
            id,
            |k| {
                match k {
                    JointKind::Revolute(r) => {
                        angles(("lower", "upper"), lower, upper)?;
                        (r.lower, r.upper) = (lower, upper);
                    }
                    JointKind::Prismatic(p) => {
                        translations(("lower", "upper"), lower, upper)?;
                        (p.lower, p.upper) = (lower, upper);
                    }
                    JointKind::Wheel(w) => {
                        translations(("lower", "upper"), lower, upper)?;
                        (w.lower, w.upper) = (lower, upper);
                    }
                    JointKind::ConeTwist(c) => {
                        angles(("twist_lower", "twist_upper"), lower, upper)?;
                        (c.twist_lower, c.twist_upper) = (lower, upper);
                    }
                    _ => return Err(no_setting("this joint kind has no limits")),
                }
                Ok(())
            },
            |e| {
                e.f32(lower);
                e.f32(upper);
            },
            rec_kind::SET_JOINT_LIMITS,
        )
    }

    /// Turns a revolute, prismatic, wheel or distance joint's spring on or off.
    pub fn set_joint_enable_spring(&mut self, id: JointId, enable: bool) -> Result<()> {
        self.change_joint(
            id,
            |k| {
                match k {
                    JointKind::Revolute(r) => r.enable_spring = enable,
                    JointKind::Prismatic(p) => p.enable_spring = enable,
                    JointKind::Wheel(w) => w.enable_spring = enable,
                    JointKind::Distance(d) => d.enable_spring = enable,
                    _ => return Err(no_setting("this joint kind has no spring switch")),
                }
                Ok(())
            },
            |e| e.bool(enable),
            rec_kind::SET_JOINT_ENABLE_SPRING,
        )
    }

    /// Sets the spring of a revolute, prismatic, wheel or distance joint: stiffness (Hz)
    /// and damping ratio.
    pub fn set_joint_spring(&mut self, id: JointId, hz: f32, damping_ratio: f32) -> Result<()> {
        self.change_joint(
            id,
            |k| {
                hertz("hertz", hz)?;
                damping("damping_ratio", damping_ratio)?;
                match k {
                    JointKind::Revolute(r) => (r.hertz, r.damping_ratio) = (hz, damping_ratio),
                    JointKind::Prismatic(p) => (p.hertz, p.damping_ratio) = (hz, damping_ratio),
                    JointKind::Wheel(w) => (w.hertz, w.damping_ratio) = (hz, damping_ratio),
                    JointKind::Distance(d) => (d.hertz, d.damping_ratio) = (hz, damping_ratio),
                    _ => {
                        return Err(no_setting(
                            "this joint kind has no spring (weld: set_weld_spring)",
                        ));
                    }
                }
                Ok(())
            },
            |e| {
                e.f32(hz);
                e.f32(damping_ratio);
            },
            rec_kind::SET_JOINT_SPRING,
        )
    }

    /// Sets a weld joint's stiffness (0 Hz: rigid) and damping ratio.
    pub fn set_weld_spring(
        &mut self,
        id: JointId,
        linear_hertz: f32,
        angular_hertz: f32,
        damping_ratio: f32,
    ) -> Result<()> {
        self.change_joint(
            id,
            |k| {
                hertz("linear_hertz", linear_hertz)?;
                hertz("angular_hertz", angular_hertz)?;
                damping("damping_ratio", damping_ratio)?;
                let JointKind::Weld(w) = k else {
                    return Err(no_setting("set_weld_spring needs a weld joint"));
                };
                *w = WeldJoint {
                    linear_hertz,
                    angular_hertz,
                    damping_ratio,
                };
                Ok(())
            },
            |e| {
                e.f32(linear_hertz);
                e.f32(angular_hertz);
                e.f32(damping_ratio);
            },
            rec_kind::SET_WELD_SPRING,
        )
    }

    /// Sets a distance joint's spring rest length, m.
    pub fn set_distance_length(&mut self, id: JointId, length: f32) -> Result<()> {
        self.change_joint(
            id,
            |k| {
                range("length", length, 0.0, MAX_JOINT_LENGTH, "within [0, 1e6] m")?;
                let JointKind::Distance(d) = k else {
                    return Err(no_setting("set_distance_length needs a distance joint"));
                };
                d.length = length;
                Ok(())
            },
            |e| e.f32(length),
            rec_kind::SET_DISTANCE_LENGTH,
        )
    }

    /// Sets a distance joint's range `[min_length, max_length]`, m.
    pub fn set_distance_range(
        &mut self,
        id: JointId,
        min_length: f32,
        max_length: f32,
    ) -> Result<()> {
        self.change_joint(
            id,
            |k| {
                distance_range(min_length, max_length)?;
                let JointKind::Distance(d) = k else {
                    return Err(no_setting("set_distance_range needs a distance joint"));
                };
                (d.min_length, d.max_length) = (min_length, max_length);
                Ok(())
            },
            |e| {
                e.f32(min_length);
                e.f32(max_length);
            },
            rec_kind::SET_DISTANCE_RANGE,
        )
    }

    /// Sets a cone-twist joint's swing limit (half-angle of the cone), radians.
    pub fn set_cone_swing_limit(&mut self, id: JointId, swing_limit: f32) -> Result<()> {
        self.change_joint(
            id,
            |k| {
                range("swing_limit", swing_limit, 0.0, PI, "within [0, π] radians")?;
                let JointKind::ConeTwist(c) = k else {
                    return Err(no_setting("set_cone_swing_limit needs a cone-twist joint"));
                };
                c.swing_limit = swing_limit;
                Ok(())
            },
            |e| e.f32(swing_limit),
            rec_kind::SET_CONE_SWING_LIMIT,
        )
    }

    /// Sets one axis of a six-DOF joint: 0..3 linear x, y, z; 3..6 angular x, y, z.
    pub fn set_six_dof_axis(&mut self, id: JointId, axis: u32, value: SixDofAxis) -> Result<()> {
        self.change_joint(
            id,
            |k| {
                if axis >= 6 {
                    return Err(Error::Argument {
                        name: "axis",
                        value: axis as f64,
                        expected: "within [0, 5]",
                    });
                }
                check_axis(axis as usize, &value)?;
                let JointKind::SixDof(s) = k else {
                    return Err(no_setting("set_six_dof_axis needs a six-DOF joint"));
                };
                s.axes[axis as usize] = value;
                Ok(())
            },
            |e| {
                e.u32(axis);
                encode_axis(e, &value);
            },
            rec_kind::SET_SIX_DOF_AXIS,
        )
    }

    /// Sets the reaction force (N) and torque (N·m) above which the joint breaks.
    pub fn set_joint_break_thresholds(
        &mut self,
        id: JointId,
        break_force: f32,
        break_torque: f32,
    ) -> Result<()> {
        let slot = self.joint_slot(id)?;
        check_threshold("break_force", break_force)?;
        check_threshold("break_torque", break_torque)?;
        let j = &mut self.joints[slot];
        (j.break_force, j.break_torque) = (break_force, break_torque);
        self.wake_joint_bodies(slot);
        self.rec(rec_kind::SET_JOINT_BREAK_THRESHOLDS, |e| {
            enc_joint(e, id);
            e.f32(break_force);
            e.f32(break_torque);
        });
        Ok(())
    }

    /// Lets the joint's bodies collide with each other or not. Turned off, their contacts
    /// end now; turned on, the next step looks for their pairs.
    pub fn set_joint_collide_connected(&mut self, id: JointId, collide: bool) -> Result<()> {
        let slot = self.joint_slot(id)?;
        let j = &mut self.joints[slot];
        let (a, b) = (j.body_a, j.body_b);
        if j.collide_connected != collide {
            j.collide_connected = collide;
            if collide {
                self.refind_pairs(a, b);
            } else if self.joints[slot].acts() {
                self.destroy_contacts_between(a, b);
            }
        }
        self.wake_joint_bodies(slot);
        self.rec(rec_kind::SET_JOINT_COLLIDE_CONNECTED, |e| {
            enc_joint(e, id);
            e.bool(collide);
        });
        Ok(())
    }

    /// Sets the host's data of the joint (not state: never hashed).
    pub fn set_joint_user_data(&mut self, id: JointId, data: u64) -> Result<()> {
        let slot = self.joint_slot(id)?;
        self.joints[slot].user_data = data;
        self.rec(rec_kind::SET_JOINT_USER_DATA, |e| {
            enc_joint(e, id);
            e.u64(data);
        });
        Ok(())
    }

    /// Sets the world's joint damping ratio (the softness of rigid joint rows).
    pub fn set_joint_damping_ratio(&mut self, ratio: f32) -> Result<()> {
        damping("joint_damping_ratio", ratio)?;
        self.def.joint_damping_ratio = ratio;
        self.rec(rec_kind::SET_JOINT_DAMPING_RATIO, |e| e.f32(ratio));
        Ok(())
    }

    fn joint_from(&self, d: &mut Dec) -> Result<JointId> {
        Ok(JointId {
            index: d.u32()?,
            generation: d.u32()?,
            world: self.tag,
        })
    }

    fn body_in(&self, d: &mut Dec) -> Result<BodyId> {
        Ok(BodyId {
            index: d.u32()?,
            generation: d.u32()?,
            world: self.tag,
        })
    }

    /// Makes a recorded joint call again (journal kinds 60–79).
    pub(crate) fn replay_joint(&mut self, kind: u16, d: &mut Dec) -> Result<()> {
        use rec_kind::*;
        match kind {
            CREATE_JOINT => {
                let def = JointDef {
                    body_a: self.body_in(d)?,
                    body_b: self.body_in(d)?,
                    local_frame_a: decode_transform(d)?,
                    local_frame_b: decode_transform(d)?,
                    collide_connected: d.bool()?,
                    break_force: d.f32()?,
                    break_torque: d.f32()?,
                    user_data: d.u64()?,
                    kind: decode_kind(d)?,
                };
                let expected = self.joint_from(d)?;
                let got = self.create_joint(&def)?;
                check(got == expected, "a create did not get its recorded id")?;
            }
            DESTROY_JOINT => {
                let id = self.joint_from(d)?;
                self.destroy_joint(id)?;
            }
            SET_JOINT_MOTOR_SPEED => {
                let id = self.joint_from(d)?;
                let v = d.f32()?;
                self.set_joint_motor_speed(id, v)?;
            }
            SET_JOINT_MAX_MOTOR_FORCE => {
                let id = self.joint_from(d)?;
                let v = d.f32()?;
                self.set_joint_max_motor_force(id, v)?;
            }
            SET_JOINT_ENABLE_MOTOR => {
                let id = self.joint_from(d)?;
                let v = d.bool()?;
                self.set_joint_enable_motor(id, v)?;
            }
            SET_JOINT_ENABLE_LIMIT => {
                let id = self.joint_from(d)?;
                let v = d.bool()?;
                self.set_joint_enable_limit(id, v)?;
            }
            SET_JOINT_LIMITS => {
                let id = self.joint_from(d)?;
                let (lo, hi) = (d.f32()?, d.f32()?);
                self.set_joint_limits(id, lo, hi)?;
            }
            SET_JOINT_ENABLE_SPRING => {
                let id = self.joint_from(d)?;
                let v = d.bool()?;
                self.set_joint_enable_spring(id, v)?;
            }
            SET_JOINT_SPRING => {
                let id = self.joint_from(d)?;
                let (h, z) = (d.f32()?, d.f32()?);
                self.set_joint_spring(id, h, z)?;
            }
            SET_DISTANCE_LENGTH => {
                let id = self.joint_from(d)?;
                let v = d.f32()?;
                self.set_distance_length(id, v)?;
            }
            SET_DISTANCE_RANGE => {
                let id = self.joint_from(d)?;
                let (lo, hi) = (d.f32()?, d.f32()?);
                self.set_distance_range(id, lo, hi)?;
            }
            SET_JOINT_BREAK_THRESHOLDS => {
                let id = self.joint_from(d)?;
                let (f, t) = (d.f32()?, d.f32()?);
                self.set_joint_break_thresholds(id, f, t)?;
            }
            SET_JOINT_COLLIDE_CONNECTED => {
                let id = self.joint_from(d)?;
                let v = d.bool()?;
                self.set_joint_collide_connected(id, v)?;
            }
            SET_JOINT_USER_DATA => {
                let id = self.joint_from(d)?;
                let v = d.u64()?;
                self.set_joint_user_data(id, v)?;
            }
            SET_CONE_SWING_LIMIT => {
                let id = self.joint_from(d)?;
                let v = d.f32()?;
                self.set_cone_swing_limit(id, v)?;
            }
            SET_WELD_SPRING => {
                let id = self.joint_from(d)?;
                let (l, a, z) = (d.f32()?, d.f32()?, d.f32()?);
                self.set_weld_spring(id, l, a, z)?;
            }
            SET_SIX_DOF_AXIS => {
                let id = self.joint_from(d)?;
                let axis = d.u32()?;
                let value = decode_axis(d)?;
                self.set_six_dof_axis(id, axis, value)?;
            }
            SET_JOINT_DAMPING_RATIO => {
                let v = d.f32()?;
                self.set_joint_damping_ratio(v)?;
            }
            _ => return Err(Error::Format("unknown record kind")),
        }
        Ok(())
    }
}

/// Whether an acting joint with `collide_connected` off joins bodies `a` and `b` (walks the
/// shorter joint list; the answer does not depend on list order).
#[inline]
pub(crate) fn filters(bodies: &[crate::body::Body], joints: &[Joint], a: u32, b: u32) -> bool {
    let (na, nb) = (
        bodies[a as usize].joint_count,
        bodies[b as usize].joint_count,
    );
    if na == 0 || nb == 0 {
        return false;
    }
    let (walk, other) = if na <= nb { (a, b) } else { (b, a) };
    let mut key = bodies[walk as usize].joint_head;
    while key != NONE {
        let j = &joints[(key >> 1) as usize];
        let edge = (key & 1) as usize;
        if j.edges[edge ^ 1].body == other && !j.collide_connected && !j.broken {
            return true;
        }
        key = j.edges[edge].next;
    }
    false
}
