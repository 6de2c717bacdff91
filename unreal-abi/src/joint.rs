//! Joints: the eight kinds, create, destroy, getters and setters.
//!
//! `m3JointDef` holds the common fields and one struct per kind; `type` says which one is
//! read. `m3DefaultJointDef(type)` fills every kind's defaults.

use crate::boundary::{Refusal, api_on, non_null, read, write};
use crate::types::*;
use engine::joint::AxisMode;
use engine::{JointId, JointKind, World};

/// Joint kinds.
pub type m3JointType = i32;
/// Keeps two points together; rotation free.
pub const m3_sphericalJoint: m3JointType = 0;
/// A hinge about the frame's z axis.
pub const m3_revoluteJoint: m3JointType = 1;
/// A slider along the frame's x axis.
pub const m3_prismaticJoint: m3JointType = 2;
/// Holds the frames together (optionally soft).
pub const m3_weldJoint: m3JointType = 3;
/// Keeps the anchors within a length range (optionally a spring).
pub const m3_distanceJoint: m3JointType = 4;
/// A ragdoll joint: swing cone about x and twist limits.
pub const m3_coneTwistJoint: m3JointType = 5;
/// Six axes, each free, limited or locked, with springs and motors.
pub const m3_sixDofJoint: m3JointType = 6;
/// A vehicle wheel: suspension along y, spin about x.
pub const m3_wheelJoint: m3JointType = 7;

/// A revolute joint's settings.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct m3RevoluteJoint {
    /// Angle limits on.
    pub enableLimit: bool,
    /// Lowest angle, radians.
    pub lower: f32,
    /// Highest angle, radians.
    pub upper: f32,
    /// Motor on.
    pub enableMotor: bool,
    /// Motor speed, rad/s.
    pub motorSpeed: f32,
    /// Motor torque limit, N·m.
    pub maxMotorTorque: f32,
    /// Spring towards angle 0 on.
    pub enableSpring: bool,
    /// Spring stiffness, Hz.
    pub hertz: f32,
    /// Spring damping ratio.
    pub dampingRatio: f32,
}

/// A prismatic joint's settings.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct m3PrismaticJoint {
    /// Translation limits on.
    pub enableLimit: bool,
    /// Lowest translation, m.
    pub lower: f32,
    /// Highest translation, m.
    pub upper: f32,
    /// Motor on.
    pub enableMotor: bool,
    /// Motor speed, m/s.
    pub motorSpeed: f32,
    /// Motor force limit, N.
    pub maxMotorForce: f32,
    /// Spring towards translation 0 on.
    pub enableSpring: bool,
    /// Spring stiffness, Hz.
    pub hertz: f32,
    /// Spring damping ratio.
    pub dampingRatio: f32,
}

/// A weld joint's settings (0 Hz: rigid).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct m3WeldJoint {
    /// Linear stiffness, Hz.
    pub linearHertz: f32,
    /// Angular stiffness, Hz.
    pub angularHertz: f32,
    /// Damping ratio.
    pub dampingRatio: f32,
}

/// A distance joint's settings.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct m3DistanceJoint {
    /// Rest length, m.
    pub length: f32,
    /// Shortest length, m.
    pub minLength: f32,
    /// Longest length, m.
    pub maxLength: f32,
    /// Spring on.
    pub enableSpring: bool,
    /// Spring stiffness, Hz.
    pub hertz: f32,
    /// Spring damping ratio.
    pub dampingRatio: f32,
}

/// A cone-twist joint's settings.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct m3ConeTwistJoint {
    /// Swing cone half-angle, radians.
    pub swingLimit: f32,
    /// Lowest twist, radians.
    pub twistLower: f32,
    /// Highest twist, radians.
    pub twistUpper: f32,
    /// Friction torque, N·m.
    pub maxFrictionTorque: f32,
}

/// A six-dof axis mode.
pub type m3AxisMode = i32;
/// The axis moves freely.
pub const m3_axisFree: m3AxisMode = 0;
/// The axis moves within `[lower, upper]`.
pub const m3_axisLimited: m3AxisMode = 1;
/// The axis is locked.
pub const m3_axisLocked: m3AxisMode = 2;

/// One axis of a six-dof joint (0–2 linear x, y, z; 3–5 angular x, y, z).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct m3SixDofAxis {
    /// `m3_axisFree`, `m3_axisLimited` or `m3_axisLocked`.
    pub mode: m3AxisMode,
    /// Lower limit (limited mode).
    pub lower: f32,
    /// Upper limit (limited mode).
    pub upper: f32,
    /// Spring stiffness, Hz (0: none).
    pub springHertz: f32,
    /// Spring damping ratio.
    pub springDampingRatio: f32,
    /// Motor speed.
    pub motorSpeed: f32,
    /// Motor force or torque limit (0: no motor).
    pub maxMotorForce: f32,
    /// Where the spring pulls the axis to (m, or radians): its equilibrium point.
    pub springTarget: f32,
    /// Stiffness of a spring in force units, N/m (N·m/rad on the angular axes), used
    /// instead of `springHertz` (keep that 0); the same force on any mass.
    pub springStiffness: f32,
    /// Damping of that spring, N·s/m (N·m·s/rad).
    pub springDamping: f32,
}

/// A six-dof joint's settings.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct m3SixDofJoint {
    /// Linear x, y, z then angular x, y, z.
    pub axes: [m3SixDofAxis; 6],
}

/// A wheel joint's settings.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct m3WheelJoint {
    /// Suspension spring on.
    pub enableSpring: bool,
    /// Suspension stiffness, Hz.
    pub hertz: f32,
    /// Suspension damping ratio.
    pub dampingRatio: f32,
    /// Suspension travel limits on.
    pub enableLimit: bool,
    /// Lowest travel, m.
    pub lower: f32,
    /// Highest travel, m.
    pub upper: f32,
    /// Spin motor on.
    pub enableMotor: bool,
    /// Motor speed, rad/s.
    pub motorSpeed: f32,
    /// Motor torque limit, N·m.
    pub maxMotorTorque: f32,
}

/// Everything needed to create a joint. `type` says which kind's struct is read.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct m3JointDef {
    /// The kind.
    pub r#type: m3JointType,
    /// First body.
    pub bodyA: m3BodyId,
    /// Second body.
    pub bodyB: m3BodyId,
    /// The joint frame in body A.
    pub localFrameA: m3Transform,
    /// The joint frame in body B.
    pub localFrameB: m3Transform,
    /// Whether the two bodies collide with each other.
    pub collideConnected: bool,
    /// Reaction force above which the joint breaks, N (FLT_MAX: never).
    pub breakForce: f32,
    /// Reaction torque above which it breaks, N·m.
    pub breakTorque: f32,
    /// Host data: stored, never hashed.
    pub userData: u64,
    /// Read when `type` is `m3_revoluteJoint`.
    pub revolute: m3RevoluteJoint,
    /// Read when `type` is `m3_prismaticJoint`.
    pub prismatic: m3PrismaticJoint,
    /// Read when `type` is `m3_weldJoint`.
    pub weld: m3WeldJoint,
    /// Read when `type` is `m3_distanceJoint`.
    pub distance: m3DistanceJoint,
    /// Read when `type` is `m3_coneTwistJoint`.
    pub coneTwist: m3ConeTwistJoint,
    /// Read when `type` is `m3_sixDofJoint`.
    pub sixDof: m3SixDofJoint,
    /// Read when `type` is `m3_wheelJoint`.
    pub wheel: m3WheelJoint,
}

fn c_axis(a: engine::SixDofAxis) -> m3SixDofAxis {
    let (mode, lower, upper) = match a.mode {
        AxisMode::Free => (m3_axisFree, 0.0, 0.0),
        AxisMode::Limited { lower, upper } => (m3_axisLimited, lower, upper),
        AxisMode::Locked => (m3_axisLocked, 0.0, 0.0),
    };
    m3SixDofAxis {
        mode,
        lower,
        upper,
        springHertz: a.spring_hertz,
        springDampingRatio: a.spring_damping_ratio,
        motorSpeed: a.motor_speed,
        maxMotorForce: a.max_motor_force,
        springTarget: a.spring_target,
        springStiffness: a.spring_stiffness,
        springDamping: a.spring_damping,
    }
}

fn engine_axis(i: usize, a: &m3SixDofAxis) -> Result<engine::SixDofAxis, Refusal> {
    let mode = match a.mode {
        m3_axisFree => AxisMode::Free,
        m3_axisLimited => AxisMode::Limited {
            lower: a.lower,
            upper: a.upper,
        },
        m3_axisLocked => AxisMode::Locked,
        m => {
            return Err(crate::refuse!(
                m3_errorArgument,
                "sixDof.axes[{i}].mode = {m} must be within [0, 2] (m3_axisFree, m3_axisLimited, m3_axisLocked)"
            ));
        }
    };
    Ok(engine::SixDofAxis {
        mode,
        spring_hertz: a.springHertz,
        spring_damping_ratio: a.springDampingRatio,
        motor_speed: a.motorSpeed,
        max_motor_force: a.maxMotorForce,
        spring_target: a.springTarget,
        spring_stiffness: a.springStiffness,
        spring_damping: a.springDamping,
        // Rigid limits; m3Joint_SetSixDofLimitSpring makes them soft.
        limit_hertz: 0.0,
        limit_damping_ratio: 0.0,
    })
}

fn default_joint_def(t: m3JointType) -> m3JointDef {
    let d = engine::JointDef::default();
    let r = engine::RevoluteJoint::default();
    let p = engine::PrismaticJoint::default();
    let w = engine::WeldJoint::default();
    let ds = engine::DistanceJoint::default();
    let c = engine::ConeTwistJoint::default();
    let s = engine::SixDofJoint::default();
    let wh = engine::WheelJoint::default();
    m3JointDef {
        r#type: t,
        bodyA: m3BodyId::default(),
        bodyB: m3BodyId::default(),
        localFrameA: d.local_frame_a.into(),
        localFrameB: d.local_frame_b.into(),
        collideConnected: d.collide_connected,
        breakForce: d.break_force,
        breakTorque: d.break_torque,
        userData: d.user_data,
        revolute: m3RevoluteJoint {
            enableLimit: r.enable_limit,
            lower: r.lower,
            upper: r.upper,
            enableMotor: r.enable_motor,
            motorSpeed: r.motor_speed,
            maxMotorTorque: r.max_motor_torque,
            enableSpring: r.enable_spring,
            hertz: r.hertz,
            dampingRatio: r.damping_ratio,
        },
        prismatic: m3PrismaticJoint {
            enableLimit: p.enable_limit,
            lower: p.lower,
            upper: p.upper,
            enableMotor: p.enable_motor,
            motorSpeed: p.motor_speed,
            maxMotorForce: p.max_motor_force,
            enableSpring: p.enable_spring,
            hertz: p.hertz,
            dampingRatio: p.damping_ratio,
        },
        weld: m3WeldJoint {
            linearHertz: w.linear_hertz,
            angularHertz: w.angular_hertz,
            dampingRatio: w.damping_ratio,
        },
        distance: m3DistanceJoint {
            length: ds.length,
            minLength: ds.min_length,
            maxLength: ds.max_length,
            enableSpring: ds.enable_spring,
            hertz: ds.hertz,
            dampingRatio: ds.damping_ratio,
        },
        coneTwist: m3ConeTwistJoint {
            swingLimit: c.swing_limit,
            twistLower: c.twist_lower,
            twistUpper: c.twist_upper,
            maxFrictionTorque: c.max_friction_torque,
        },
        sixDof: m3SixDofJoint {
            axes: s.axes.map(c_axis),
        },
        wheel: m3WheelJoint {
            enableSpring: wh.enable_spring,
            hertz: wh.hertz,
            dampingRatio: wh.damping_ratio,
            enableLimit: wh.enable_limit,
            lower: wh.lower,
            upper: wh.upper,
            enableMotor: wh.enable_motor,
            motorSpeed: wh.motor_speed,
            maxMotorTorque: wh.max_motor_torque,
        },
    }
}

/// The default joint def of kind `type`: every kind's struct holds its defaults, frames
/// are identity, nothing breaks. An unknown `type` is kept, and refused on create.
#[unsafe(no_mangle)]
pub extern "C" fn m3DefaultJointDef(r#type: m3JointType) -> m3JointDef {
    crate::boundary::value(
        "m3DefaultJointDef",
        default_joint_def(m3_sphericalJoint),
        || default_joint_def(r#type),
    )
}

fn engine_kind(d: &m3JointDef) -> Result<JointKind, Refusal> {
    Ok(match d.r#type {
        m3_sphericalJoint => JointKind::Spherical,
        m3_revoluteJoint => {
            let r = &d.revolute;
            JointKind::Revolute(engine::RevoluteJoint {
                enable_limit: r.enableLimit,
                lower: r.lower,
                upper: r.upper,
                enable_motor: r.enableMotor,
                motor_speed: r.motorSpeed,
                max_motor_torque: r.maxMotorTorque,
                enable_spring: r.enableSpring,
                hertz: r.hertz,
                damping_ratio: r.dampingRatio,
                // Rigid limits; m3Joint_SetLimitSpring makes them soft.
                ..Default::default()
            })
        }
        m3_prismaticJoint => {
            let p = &d.prismatic;
            JointKind::Prismatic(engine::PrismaticJoint {
                enable_limit: p.enableLimit,
                lower: p.lower,
                upper: p.upper,
                enable_motor: p.enableMotor,
                motor_speed: p.motorSpeed,
                max_motor_force: p.maxMotorForce,
                enable_spring: p.enableSpring,
                hertz: p.hertz,
                damping_ratio: p.dampingRatio,
                // Rigid limits; m3Joint_SetLimitSpring makes them soft.
                ..Default::default()
            })
        }
        m3_weldJoint => JointKind::Weld(engine::WeldJoint {
            linear_hertz: d.weld.linearHertz,
            angular_hertz: d.weld.angularHertz,
            damping_ratio: d.weld.dampingRatio,
        }),
        m3_distanceJoint => {
            let s = &d.distance;
            JointKind::Distance(engine::DistanceJoint {
                length: s.length,
                min_length: s.minLength,
                max_length: s.maxLength,
                enable_spring: s.enableSpring,
                hertz: s.hertz,
                damping_ratio: s.dampingRatio,
            })
        }
        m3_coneTwistJoint => JointKind::ConeTwist(engine::ConeTwistJoint {
            swing_limit: d.coneTwist.swingLimit,
            twist_lower: d.coneTwist.twistLower,
            twist_upper: d.coneTwist.twistUpper,
            max_friction_torque: d.coneTwist.maxFrictionTorque,
        }),
        m3_sixDofJoint => {
            let mut axes = [engine::SixDofAxis::default(); 6];
            for (i, a) in d.sixDof.axes.iter().enumerate() {
                axes[i] = engine_axis(i, a)?;
            }
            JointKind::SixDof(engine::SixDofJoint { axes })
        }
        m3_wheelJoint => {
            let w = &d.wheel;
            JointKind::Wheel(engine::WheelJoint {
                enable_spring: w.enableSpring,
                hertz: w.hertz,
                damping_ratio: w.dampingRatio,
                enable_limit: w.enableLimit,
                lower: w.lower,
                upper: w.upper,
                enable_motor: w.enableMotor,
                motor_speed: w.motorSpeed,
                max_motor_torque: w.maxMotorTorque,
            })
        }
        t => {
            return Err(crate::refuse!(
                m3_errorArgument,
                "joint type = {t} must be within [0, 7] (m3_sphericalJoint … m3_wheelJoint)"
            ));
        }
    })
}

/// Creates a joint between two bodies of the world.
///
/// # Safety
/// - `def` points to one readable `m3JointDef`, aligned for its type, for the duration
///   of the call (null is refused with `m3_errorArgument`).
/// - `jointId` points to one writable `m3JointId`, aligned for its type, for the
///   duration of the call (null is refused with `m3_errorArgument`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m3Joint_Create(
    worldId: m3WorldId,
    def: *const m3JointDef,
    jointId: *mut m3JointId,
) -> m3Result {
    api_on("m3Joint_Create", worldId, || {
        let o = out("jointId", jointId)?;
        // SAFETY: the host passes a valid def or null.
        let d = unsafe { read_ptr("def", def) }?;
        let kind = engine_kind(&d)?;
        let id = write(worldId, |e| {
            e.owns("def.bodyA", d.bodyA)?;
            e.owns("def.bodyB", d.bodyB)?;
            let ed = engine::JointDef {
                body_a: d.bodyA.to_core(e.tag),
                body_b: d.bodyB.to_core(e.tag),
                local_frame_a: d.localFrameA.into(),
                local_frame_b: d.localFrameB.into(),
                collide_connected: d.collideConnected,
                break_force: d.breakForce,
                break_torque: d.breakTorque,
                user_data: d.userData,
                kind,
            };
            let j = e.world.create_joint(&ed)?;
            Ok(m3JointId::from_core(j, e.id))
        })?;
        // SAFETY: checked non-null.
        unsafe { put(o, id) };
        Ok(())
    })
}

/// The local frames of a joint whose frame in the world is at `anchor` (relative to the
/// world origin) with axes `rotation`, for each body as it is now.
///
/// # Safety
/// - `localFrameA` points to one writable `m3Transform`, aligned for its type, for the
///   duration of the call (null is refused with `m3_errorArgument`).
/// - `localFrameB` points to one writable `m3Transform`, aligned for its type, for the
///   duration of the call (null is refused with `m3_errorArgument`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m3World_GetJointFramesAt(
    worldId: m3WorldId,
    bodyA: m3BodyId,
    bodyB: m3BodyId,
    anchor: m3DVec3,
    rotation: m3Quat,
    localFrameA: *mut m3Transform,
    localFrameB: *mut m3Transform,
) -> m3Result {
    api_on("m3World_GetJointFramesAt", worldId, || {
        let oa = out("localFrameA", localFrameA)?;
        let ob = out("localFrameB", localFrameB)?;
        let (fa, fb) = read(worldId, |e| {
            e.owns("bodyA", bodyA)?;
            e.owns("bodyB", bodyB)?;
            Ok(e.world.joint_frames_at(
                bodyA.to_core(e.tag),
                bodyB.to_core(e.tag),
                anchor.into(),
                rotation.into(),
            )?)
        })?;
        // SAFETY: checked non-null.
        unsafe {
            put(oa, fa.into());
            put(ob, fb.into());
        }
        Ok(())
    })
}

/// Runs a change of joint `id`.
fn set(
    name: &'static str,
    id: m3JointId,
    f: impl FnOnce(&mut World, JointId) -> engine::Result<()>,
) -> m3Result {
    api_on(name, id.world, || {
        non_null("jointId", id)?;
        write(id.world, |e| Ok(f(&mut e.world, id.to_core(e.tag))?))
    })
}

/// Reads a property of joint `id` into `o`.
fn get<T, C>(
    name: &'static str,
    id: m3JointId,
    o: *mut C,
    f: impl FnOnce(&World, JointId) -> engine::Result<T>,
    conv: impl FnOnce(T) -> C,
) -> m3Result {
    api_on(name, id.world, || {
        let o = out("output", o)?;
        non_null("jointId", id)?;
        let v = read(id.world, |e| Ok(f(&e.world, id.to_core(e.tag))?))?;
        // SAFETY: checked non-null.
        unsafe { put(o, conv(v)) };
        Ok(())
    })
}

fn c_joint_def(d: &engine::JointDef, world: m3WorldId) -> m3JointDef {
    let t = match d.kind {
        JointKind::Spherical => m3_sphericalJoint,
        JointKind::Revolute(_) => m3_revoluteJoint,
        JointKind::Prismatic(_) => m3_prismaticJoint,
        JointKind::Weld(_) => m3_weldJoint,
        JointKind::Distance(_) => m3_distanceJoint,
        JointKind::ConeTwist(_) => m3_coneTwistJoint,
        JointKind::SixDof(_) => m3_sixDofJoint,
        JointKind::Wheel(_) => m3_wheelJoint,
    };
    let mut c = default_joint_def(t);
    c.bodyA = m3BodyId::from_core(d.body_a, world);
    c.bodyB = m3BodyId::from_core(d.body_b, world);
    c.localFrameA = d.local_frame_a.into();
    c.localFrameB = d.local_frame_b.into();
    c.collideConnected = d.collide_connected;
    c.breakForce = d.break_force;
    c.breakTorque = d.break_torque;
    c.userData = d.user_data;
    match d.kind {
        JointKind::Spherical => {}
        JointKind::Revolute(r) => {
            c.revolute = m3RevoluteJoint {
                enableLimit: r.enable_limit,
                lower: r.lower,
                upper: r.upper,
                enableMotor: r.enable_motor,
                motorSpeed: r.motor_speed,
                maxMotorTorque: r.max_motor_torque,
                enableSpring: r.enable_spring,
                hertz: r.hertz,
                dampingRatio: r.damping_ratio,
            }
        }
        JointKind::Prismatic(p) => {
            c.prismatic = m3PrismaticJoint {
                enableLimit: p.enable_limit,
                lower: p.lower,
                upper: p.upper,
                enableMotor: p.enable_motor,
                motorSpeed: p.motor_speed,
                maxMotorForce: p.max_motor_force,
                enableSpring: p.enable_spring,
                hertz: p.hertz,
                dampingRatio: p.damping_ratio,
            }
        }
        JointKind::Weld(w) => {
            c.weld = m3WeldJoint {
                linearHertz: w.linear_hertz,
                angularHertz: w.angular_hertz,
                dampingRatio: w.damping_ratio,
            }
        }
        JointKind::Distance(s) => {
            c.distance = m3DistanceJoint {
                length: s.length,
                minLength: s.min_length,
                maxLength: s.max_length,
                enableSpring: s.enable_spring,
                hertz: s.hertz,
                dampingRatio: s.damping_ratio,
            }
        }
        JointKind::ConeTwist(k) => {
            c.coneTwist = m3ConeTwistJoint {
                swingLimit: k.swing_limit,
                twistLower: k.twist_lower,
                twistUpper: k.twist_upper,
                maxFrictionTorque: k.max_friction_torque,
            }
        }
        JointKind::SixDof(x) => c.sixDof.axes = x.axes.map(c_axis),
        JointKind::Wheel(w) => {
            c.wheel = m3WheelJoint {
                enableSpring: w.enable_spring,
                hertz: w.hertz,
                dampingRatio: w.damping_ratio,
                enableLimit: w.enable_limit,
                lower: w.lower,
                upper: w.upper,
                enableMotor: w.enable_motor,
                motorSpeed: w.motor_speed,
                maxMotorTorque: w.max_motor_torque,
            }
        }
    }
    c
}

/// The joint as a def: bodies, frames, current settings of its kind.
///
/// # Safety
/// `def` points to one writable `m3JointDef`, aligned for its type, for the duration of
/// the call (null is refused with `m3_errorArgument`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m3Joint_GetDef(jointId: m3JointId, def: *mut m3JointDef) -> m3Result {
    get(
        "m3Joint_GetDef",
        jointId,
        def,
        |w, j| w.joint_def(j),
        |d| c_joint_def(&d, jointId.world),
    )
}

/// Destroys a joint.
#[unsafe(no_mangle)]
pub extern "C" fn m3Joint_Destroy(jointId: m3JointId) -> m3Result {
    set("m3Joint_Destroy", jointId, |w, j| w.destroy_joint(j))
}

/// The joint's kind.
///
/// # Safety
/// `type` points to one writable `m3JointType`, aligned for its type, for the duration
/// of the call (null is refused with `m3_errorArgument`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m3Joint_GetType(jointId: m3JointId, r#type: *mut m3JointType) -> m3Result {
    get(
        "m3Joint_GetType",
        jointId,
        r#type,
        |w, j| w.joint_kind(j),
        |k| match k {
            JointKind::Spherical => m3_sphericalJoint,
            JointKind::Revolute(_) => m3_revoluteJoint,
            JointKind::Prismatic(_) => m3_prismaticJoint,
            JointKind::Weld(_) => m3_weldJoint,
            JointKind::Distance(_) => m3_distanceJoint,
            JointKind::ConeTwist(_) => m3_coneTwistJoint,
            JointKind::SixDof(_) => m3_sixDofJoint,
            JointKind::Wheel(_) => m3_wheelJoint,
        },
    )
}

/// The reaction force of the last step, N.
///
/// # Safety
/// `force` points to one writable `m3Vec3`, aligned for its type, for the duration of
/// the call (null is refused with `m3_errorArgument`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m3Joint_GetReactionForce(
    jointId: m3JointId,
    force: *mut m3Vec3,
) -> m3Result {
    get(
        "m3Joint_GetReactionForce",
        jointId,
        force,
        |w, j| w.joint_reaction_force(j),
        Into::into,
    )
}

/// The reaction torque of the last step, N·m.
///
/// # Safety
/// `torque` points to one writable `m3Vec3`, aligned for its type, for the duration of
/// the call (null is refused with `m3_errorArgument`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m3Joint_GetReactionTorque(
    jointId: m3JointId,
    torque: *mut m3Vec3,
) -> m3Result {
    get(
        "m3Joint_GetReactionTorque",
        jointId,
        torque,
        |w, j| w.joint_reaction_torque(j),
        Into::into,
    )
}

/// Whether the joint broke.
///
/// # Safety
/// `broken` points to one writable `bool`, aligned for its type, for the duration of
/// the call (null is refused with `m3_errorArgument`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m3Joint_IsBroken(jointId: m3JointId, broken: *mut bool) -> m3Result {
    get(
        "m3Joint_IsBroken",
        jointId,
        broken,
        |w, j| w.joint_is_broken(j),
        |b| b,
    )
}

/// A revolute joint's angle, radians.
///
/// # Safety
/// `angle` points to one writable `f32`, aligned for its type, for the duration of the
/// call (null is refused with `m3_errorArgument`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m3Joint_GetRevoluteAngle(jointId: m3JointId, angle: *mut f32) -> m3Result {
    get(
        "m3Joint_GetRevoluteAngle",
        jointId,
        angle,
        |w, j| w.revolute_angle(j),
        |a| a,
    )
}

/// A prismatic joint's translation, m.
///
/// # Safety
/// `translation` points to one writable `f32`, aligned for its type, for the duration
/// of the call (null is refused with `m3_errorArgument`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m3Joint_GetPrismaticTranslation(
    jointId: m3JointId,
    translation: *mut f32,
) -> m3Result {
    get(
        "m3Joint_GetPrismaticTranslation",
        jointId,
        translation,
        |w, j| w.prismatic_translation(j),
        |a| a,
    )
}

/// The distance between the joint's anchors now, m.
///
/// # Safety
/// `length` points to one writable `f32`, aligned for its type, for the duration of the
/// call (null is refused with `m3_errorArgument`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m3Joint_GetDistance(jointId: m3JointId, length: *mut f32) -> m3Result {
    get(
        "m3Joint_GetDistance",
        jointId,
        length,
        |w, j| w.distance_length(j),
        |a| a,
    )
}

/// The joint's host data.
///
/// # Safety
/// `userData` points to one writable `u64`, aligned for its type, for the duration of
/// the call (null is refused with `m3_errorArgument`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m3Joint_GetUserData(jointId: m3JointId, userData: *mut u64) -> m3Result {
    get(
        "m3Joint_GetUserData",
        jointId,
        userData,
        |w, j| w.joint_user_data(j),
        |a| a,
    )
}

/// Sets the joint's host data.
#[unsafe(no_mangle)]
pub extern "C" fn m3Joint_SetUserData(jointId: m3JointId, userData: u64) -> m3Result {
    set("m3Joint_SetUserData", jointId, |w, j| {
        w.set_joint_user_data(j, userData)
    })
}

/// Turns a revolute, prismatic or wheel joint's motor on or off.
#[unsafe(no_mangle)]
pub extern "C" fn m3Joint_EnableMotor(jointId: m3JointId, enable: bool) -> m3Result {
    set("m3Joint_EnableMotor", jointId, |w, j| {
        w.set_joint_enable_motor(j, enable)
    })
}

/// Sets the motor speed.
#[unsafe(no_mangle)]
pub extern "C" fn m3Joint_SetMotorSpeed(jointId: m3JointId, speed: f32) -> m3Result {
    set("m3Joint_SetMotorSpeed", jointId, |w, j| {
        w.set_joint_motor_speed(j, speed)
    })
}

/// Sets the motor's force or torque limit.
#[unsafe(no_mangle)]
pub extern "C" fn m3Joint_SetMaxMotorForce(jointId: m3JointId, max: f32) -> m3Result {
    set("m3Joint_SetMaxMotorForce", jointId, |w, j| {
        w.set_joint_max_motor_force(j, max)
    })
}

/// Turns limits on or off.
#[unsafe(no_mangle)]
pub extern "C" fn m3Joint_EnableLimit(jointId: m3JointId, enable: bool) -> m3Result {
    set("m3Joint_EnableLimit", jointId, |w, j| {
        w.set_joint_enable_limit(j, enable)
    })
}

/// Sets the limits.
#[unsafe(no_mangle)]
pub extern "C" fn m3Joint_SetLimits(jointId: m3JointId, lower: f32, upper: f32) -> m3Result {
    set("m3Joint_SetLimits", jointId, |w, j| {
        w.set_joint_limits(j, lower, upper)
    })
}

/// Turns the spring on or off.
#[unsafe(no_mangle)]
pub extern "C" fn m3Joint_EnableSpring(jointId: m3JointId, enable: bool) -> m3Result {
    set("m3Joint_EnableSpring", jointId, |w, j| {
        w.set_joint_enable_spring(j, enable)
    })
}

/// Sets the spring's stiffness (Hz) and damping ratio.
#[unsafe(no_mangle)]
pub extern "C" fn m3Joint_SetSpring(jointId: m3JointId, hertz: f32, dampingRatio: f32) -> m3Result {
    set("m3Joint_SetSpring", jointId, |w, j| {
        w.set_joint_spring(j, hertz, dampingRatio)
    })
}

/// Makes a revolute or prismatic joint's limits soft: once reached, a limit gives like a
/// spring of `hertz` and `dampingRatio` and pushes back; 0 Hz: rigid (the default).
#[unsafe(no_mangle)]
pub extern "C" fn m3Joint_SetLimitSpring(
    jointId: m3JointId,
    hertz: f32,
    dampingRatio: f32,
) -> m3Result {
    set("m3Joint_SetLimitSpring", jointId, |w, j| {
        w.set_joint_limit_spring(j, hertz, dampingRatio)
    })
}

/// Gives a spherical or revolute joint's pivot a softness of its own: stiffness `hertz`
/// (0: the world's joint softness, as at creation) and `dampingRatio` (1: critical); the
/// anchors then come together like a damped spring of that frequency. Refused for
/// another kind or values out of range.
#[unsafe(no_mangle)]
pub extern "C" fn m3Joint_SetPivotSpring(
    jointId: m3JointId,
    hertz: f32,
    dampingRatio: f32,
) -> m3Result {
    set("m3Joint_SetPivotSpring", jointId, |w, j| {
        w.set_joint_pivot_spring(j, hertz, dampingRatio)
    })
}

/// Makes a limited six-DOF axis's limits soft (`axis` 0..3 linear x, y, z; 3..6 angular
/// x, y, z): once reached, a limit gives like a spring of `hertz` and `dampingRatio` and
/// pushes back; 0 Hz: rigid (the default). `m3Joint_SetSixDofAxis` makes the axis's limits
/// rigid again.
#[unsafe(no_mangle)]
pub extern "C" fn m3Joint_SetSixDofLimitSpring(
    jointId: m3JointId,
    axis: u32,
    hertz: f32,
    dampingRatio: f32,
) -> m3Result {
    set("m3Joint_SetSixDofLimitSpring", jointId, |w, j| {
        w.set_six_dof_limit_spring(j, axis, hertz, dampingRatio)
    })
}

/// Sets a weld joint's stiffness and damping.
#[unsafe(no_mangle)]
pub extern "C" fn m3Joint_SetWeldSpring(
    jointId: m3JointId,
    linearHertz: f32,
    angularHertz: f32,
    dampingRatio: f32,
) -> m3Result {
    set("m3Joint_SetWeldSpring", jointId, |w, j| {
        w.set_weld_spring(j, linearHertz, angularHertz, dampingRatio)
    })
}

/// Sets a distance joint's rest length.
#[unsafe(no_mangle)]
pub extern "C" fn m3Joint_SetDistanceLength(jointId: m3JointId, length: f32) -> m3Result {
    set("m3Joint_SetDistanceLength", jointId, |w, j| {
        w.set_distance_length(j, length)
    })
}

/// Sets a distance joint's range.
#[unsafe(no_mangle)]
pub extern "C" fn m3Joint_SetDistanceRange(
    jointId: m3JointId,
    minLength: f32,
    maxLength: f32,
) -> m3Result {
    set("m3Joint_SetDistanceRange", jointId, |w, j| {
        w.set_distance_range(j, minLength, maxLength)
    })
}

/// Sets a cone-twist joint's swing cone.
#[unsafe(no_mangle)]
pub extern "C" fn m3Joint_SetConeSwingLimit(jointId: m3JointId, swingLimit: f32) -> m3Result {
    set("m3Joint_SetConeSwingLimit", jointId, |w, j| {
        w.set_cone_swing_limit(j, swingLimit)
    })
}

/// Sets one axis (0 to 5) of a six-dof joint.
#[unsafe(no_mangle)]
pub extern "C" fn m3Joint_SetSixDofAxis(
    jointId: m3JointId,
    axis: i32,
    value: m3SixDofAxis,
) -> m3Result {
    api_on("m3Joint_SetSixDofAxis", jointId.world, || {
        if !(0..6).contains(&axis) {
            return Err(crate::refuse!(
                m3_errorArgument,
                "axis = {axis} must be within [0, 5]"
            ));
        }
        let a = engine_axis(axis as usize, &value)?;
        write(jointId.world, |e| {
            Ok(e.world
                .set_six_dof_axis(jointId.to_core(e.tag), axis as u32, a)?)
        })
    })
}

/// Sets the reaction force (N) and torque (N·m) above which the joint breaks.
#[unsafe(no_mangle)]
pub extern "C" fn m3Joint_SetBreakThresholds(
    jointId: m3JointId,
    breakForce: f32,
    breakTorque: f32,
) -> m3Result {
    set("m3Joint_SetBreakThresholds", jointId, |w, j| {
        w.set_joint_break_thresholds(j, breakForce, breakTorque)
    })
}

/// Lets the joint's bodies collide with each other or not.
#[unsafe(no_mangle)]
pub extern "C" fn m3Joint_SetCollideConnected(jointId: m3JointId, collide: bool) -> m3Result {
    set("m3Joint_SetCollideConnected", jointId, |w, j| {
        w.set_joint_collide_connected(j, collide)
    })
}
