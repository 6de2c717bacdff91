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
//! - this file: the joint record every kind shares ([`JointDef`], the kept `Joint`, its
//!   impulses and body-list edges) and [`JointKind`]'s dispatch of each operation to the
//!   kind (check, setters);
//! - one file per kind (`spherical.rs`, `revolute.rs`, `prismatic.rs`, `weld.rs`,
//!   `distance.rs`, `cone_twist.rs`, `six_dof.rs`, `wheel.rs`): its settings, their checks,
//!   setters and encoding, and its rows (prepare, warm start, solve, reaction);
//! - `axis_drive.rs`: the limit, motor and spring of the revolute, prismatic and wheel
//!   joints — their checks, setters, encoding and rows, written once for the three;
//! - `checks.rs`: the range, frame and threshold checks the kinds build on;
//! - `encoding.rs`: the kind tag, frames, defs and impulses as bytes;
//! - `lifecycle.rs` and `setters.rs`: the checks and work of the joint calls on
//!   [`World`](crate::World) (validate, apply; the API layer, `crate::api`, records them);
//! - `solver.rs`: preparing joints each step and the passes over all of them, reactions
//!   and breaking; `rows.rs` and `blocks.rs`: the rows and three-row blocks the kinds
//!   share.
//!
//! State: each joint's def and settings (as changed by setters), its accumulated impulses
//! (warm start), its last reaction and its broken flag; the pool's generations and free
//! list. Each body's joint list is derived (rebuilt at restore, see `crate::edge`) and
//! never walked in an order that shapes a result.

mod axis_drive;
mod blocks;
mod checks;
mod cone_twist;
mod distance;
mod encoding;
mod lifecycle;
mod prismatic;
mod revolute;
mod rows;
mod setters;
mod six_dof;
pub(crate) mod solver;
mod spherical;
mod weld;
mod wheel;
pub(crate) mod wide;
mod wide_atan;
mod wide_rows;

pub(crate) use checks::check_decoded;
pub use cone_twist::ConeTwistJoint;
pub use distance::DistanceJoint;
pub(crate) use encoding::{
    decode_impulses, decode_kind, decode_transform, encode_impulses, encode_kind, encode_transform,
};
pub use prismatic::PrismaticJoint;
pub use revolute::RevoluteJoint;
pub use six_dof::{AxisMode, SixDofAxis, SixDofJoint};
pub use weld::WeldJoint;
pub use wheel::WheelJoint;

use crate::body::{Body, NONE};
use crate::edge::{Edge, Linked, PairFilter};
use crate::error::Result;
use crate::id::{BodyId, JointId};
use crate::math::{Transform, Vec3};
use axis_drive::{DriveSetting, Driven};
use checks::no_setting;

/// Largest anchor offset, limit translation or length a joint accepts, m.
pub const MAX_JOINT_LENGTH: f32 = 1.0e6;

/// What a joint constrains, with the settings of its kind.
// Six axes of settings make the 6-DOF variant the largest; boxing it would allocate (a
// step never does) and lose `Copy`, and joints are few.
#[allow(clippy::large_enum_variant)]
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

    /// Checks every setting of the kind.
    pub(crate) fn check(&self) -> Result<()> {
        match self {
            JointKind::Spherical => Ok(()),
            JointKind::Revolute(r) => r.check(),
            JointKind::Prismatic(p) => p.check(),
            JointKind::Weld(w) => w.check(),
            JointKind::Distance(d) => d.check(),
            JointKind::ConeTwist(c) => c.check(),
            JointKind::SixDof(s) => s.check(),
            JointKind::Wheel(w) => w.check(),
        }
    }

    /// Changes one limit, motor or spring setting: the value's kind-free bounds are checked
    /// first (so a bad value is refused as such on any joint), then the kind's own (limits
    /// are angles or metres by kind); a kind without the setting is refused by name.
    fn set_drive(&mut self, s: DriveSetting) -> Result<()> {
        s.check()?;
        match (self, s) {
            (JointKind::Revolute(r), s) => r.set(s),
            (JointKind::Prismatic(p), s) => p.set(s),
            (JointKind::Wheel(w), s) => w.set(s),
            (JointKind::ConeTwist(c), DriveSetting::MaxMotorForce(max)) => {
                c.set_max_motor_force(max);
                Ok(())
            }
            (JointKind::ConeTwist(c), DriveSetting::Limits(lower, upper)) => {
                c.set_limits(lower, upper)
            }
            (JointKind::Distance(d), DriveSetting::EnableSpring(enable)) => {
                d.set_enable_spring(enable);
                Ok(())
            }
            (JointKind::Distance(d), DriveSetting::Spring(hz, damping_ratio)) => {
                d.set_spring(hz, damping_ratio);
                Ok(())
            }
            (_, s) => Err(no_setting(s.missing())),
        }
    }

    pub(crate) fn set_weld_spring(&mut self, linear: f32, angular: f32, zeta: f32) -> Result<()> {
        WeldJoint::check_spring(linear, angular, zeta)?;
        let JointKind::Weld(w) = self else {
            return Err(no_setting("set_weld_spring needs a weld joint"));
        };
        w.set_spring(linear, angular, zeta);
        Ok(())
    }

    pub(crate) fn set_distance_length(&mut self, length: f32) -> Result<()> {
        DistanceJoint::check_length(length)?;
        let JointKind::Distance(d) = self else {
            return Err(no_setting("set_distance_length needs a distance joint"));
        };
        d.set_length(length);
        Ok(())
    }

    pub(crate) fn set_distance_range(&mut self, min_length: f32, max_length: f32) -> Result<()> {
        DistanceJoint::check_range(min_length, max_length)?;
        let JointKind::Distance(d) = self else {
            return Err(no_setting("set_distance_range needs a distance joint"));
        };
        d.set_range(min_length, max_length);
        Ok(())
    }

    pub(crate) fn set_cone_swing_limit(&mut self, swing_limit: f32) -> Result<()> {
        ConeTwistJoint::check_swing_limit(swing_limit)?;
        let JointKind::ConeTwist(c) = self else {
            return Err(no_setting("set_cone_swing_limit needs a cone-twist joint"));
        };
        c.set_swing_limit(swing_limit);
        Ok(())
    }

    pub(crate) fn set_six_dof_axis(&mut self, axis: u32, value: SixDofAxis) -> Result<()> {
        SixDofJoint::check_axis(axis, &value)?;
        let JointKind::SixDof(s) = self else {
            return Err(no_setting("set_six_dof_axis needs a six-DOF joint"));
        };
        s.set_axis(axis, value);
        Ok(())
    }

    pub(crate) fn set_six_dof_limit_spring(
        &mut self,
        axis: u32,
        hz: f32,
        damping_ratio: f32,
    ) -> Result<()> {
        SixDofJoint::check_limit_spring(axis, hz, damping_ratio)?;
        let JointKind::SixDof(s) = self else {
            return Err(no_setting("set_six_dof_limit_spring needs a six-DOF joint"));
        };
        s.set_limit_spring(axis, hz, damping_ratio);
        Ok(())
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
    /// A spherical or revolute joint's own pivot softness: stiffness, Hz (0: the world's
    /// joint softness, rigid in the relax pass), and damping ratio. Above 0 Hz the point
    /// rows are a spring-damper in both passes (Box2D's soft constraint), so the pivot
    /// closes a gap like a damped spring of this frequency.
    pub pivot_hertz: f32,
    pub pivot_damping_ratio: f32,
    pub broken: bool,
    pub impulses: JointImpulses,
    /// Reaction force and torque on body B in the last step the joint was solved.
    pub reaction_force: Vec3,
    pub reaction_torque: Vec3,
    pub user_data: u64,
    pub edges: [Edge; 2],
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
            pivot_hertz: 0.0,
            pivot_damping_ratio: 1.0,
            broken: false,
            impulses: JointImpulses::default(),
            reaction_force: Vec3::ZERO,
            reaction_torque: Vec3::ZERO,
            user_data: 0,
            edges: [Edge::UNLINKED; 2],
        }
    }

    /// Whether the joint acts (alive and not broken).
    #[inline]
    pub(crate) fn acts(&self) -> bool {
        self.alive && !self.broken
    }
}

impl Linked for Joint {
    #[inline(always)]
    fn edges(&self) -> &[Edge; 2] {
        &self.edges
    }
    #[inline(always)]
    fn edges_mut(&mut self) -> &mut [Edge; 2] {
        &mut self.edges
    }
    #[inline(always)]
    fn list(body: &Body) -> (u32, u32) {
        (body.joint_head, body.joint_count)
    }
    #[inline(always)]
    fn list_mut(body: &mut Body) -> (&mut u32, &mut u32) {
        (&mut body.joint_head, &mut body.joint_count)
    }
}

impl PairFilter for Joint {
    /// An acting joint with `collide_connected` off.
    #[inline(always)]
    fn keeps_apart(&self) -> bool {
        !self.collide_connected && !self.broken
    }
}
