//! The axis drive: the limit, motor and spring on one joint axis, shared by the revolute
//! joint (the angle about z), the prismatic joint (the translation along x) and the wheel
//! joint (the suspension along y; its motor spins the axle about z). Owns what the three
//! do alike: the checks of the settings, the setters, the encoding and the solver rows.
//!
//! Each kind keeps its public settings struct (the crate's API: the revolute and wheel
//! joints call the motor's bound `max_motor_torque`, the prismatic joint
//! `max_motor_force`; the wheel's spring is on by default) and says with a [`DriveSpec`]
//! how its drive is bounded and laid out — limits in radians or metres, and the order of
//! the three parts on the wire and in its checks (the wheel writes its spring first). The
//! kind converts to and from an [`AxisDrive`] by value ([`Driven`], implemented by the
//! `driven!` macro in the kind's file); the rest is here, once.

use super::AxisImpulse;
use super::checks::{damping, force, hertz, speed};
use super::rows::{Row, spring_soft};
use super::solver::{JointConstraint, Pass};
use crate::codec::{Dec, Enc, Sink};
use crate::error::Result;
use crate::solver::BodyState;

/// Bit 1 of the limit's switch byte: the soft limit's two numbers follow the limit's.
const SOFT_LIMIT_BIT: u8 = 2;

/// A limit, a motor and a spring on one axis, as the kinds' settings hold them.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(super) struct AxisDrive {
    pub enable_limit: bool,
    pub lower: f32,
    pub upper: f32,
    pub enable_motor: bool,
    pub motor_speed: f32,
    /// The motor's largest torque (revolute, wheel) or force (prismatic).
    pub max_motor_force: f32,
    pub enable_spring: bool,
    pub hertz: f32,
    pub damping_ratio: f32,
    /// A soft limit's stiffness, Hz (0: rigid, with the joint softness).
    pub limit_hertz: f32,
    /// A soft limit's damping ratio.
    pub limit_damping_ratio: f32,
}

/// The three parts of a drive, each a switch and two numbers.
#[derive(Clone, Copy, Debug)]
pub(super) enum Part {
    /// `enable_limit`, `lower`, `upper`.
    Limit,
    /// `enable_motor`, `motor_speed`, the motor's bound.
    Motor,
    /// `enable_spring`, `hertz`, `damping_ratio`.
    Spring,
}

/// The checks of a kind's limits: `checks::angles` or `checks::translations`.
pub(super) type LimitCheck = fn((&'static str, &'static str), f32, f32) -> Result<()>;

/// How a kind bounds and lays out its drive.
pub(super) struct DriveSpec {
    /// Checks the limits (radians or metres).
    pub limits: LimitCheck,
    /// The name a refusal gives the motor's bound.
    pub max_name: &'static str,
    /// The parts in wire order, which is also the order of the checks.
    pub order: [Part; 3],
    /// Whether the kind keeps a soft limit (`limit_hertz`, `limit_damping_ratio`).
    pub soft_limit: bool,
}

/// A kind whose settings are an axis drive; `driven!` implements it.
pub(super) trait Driven: Copy {
    /// How the kind bounds and lays out its drive.
    const SPEC: DriveSpec;

    /// The settings as a drive.
    fn drive(&self) -> AxisDrive;

    /// Settings from a drive.
    fn from_drive(d: AxisDrive) -> Self;

    /// Checks every setting, in the kind's order.
    fn check(&self) -> Result<()> {
        self.drive().check(&Self::SPEC)
    }

    /// Changes one setting (its kind-free bounds checked by the caller, see
    /// [`DriveSetting::check`]); the limits are checked here.
    fn set(&mut self, s: DriveSetting) -> Result<()> {
        let mut d = self.drive();
        d.set(&Self::SPEC, s)?;
        *self = Self::from_drive(d);
        Ok(())
    }

    fn encode<S: Sink>(&self, e: &mut Enc<S>) {
        self.drive().encode(&Self::SPEC, e);
    }

    fn decode(d: &mut Dec) -> Result<Self> {
        AxisDrive::decode(&Self::SPEC, d).map(Self::from_drive)
    }
}

/// Implements [`Driven`] for a kind whose settings are the drive's fields, the motor's
/// bound named `$max` (the name its checks give it), its limits checked by `$limits`, its
/// parts in the order given (`Limit`, `Motor`, `Spring`).
macro_rules! driven {
    ($kind:ident, $max:ident, limits: $limits:path, order: [$($part:ident),+]) => {
        driven!(@ $kind, $max, $limits, [$($part),+], false, |_k| (0.0, 0.0), |_k, _d| {});
    };
    ($kind:ident, $max:ident, limits: $limits:path, order: [$($part:ident),+], soft_limit) => {
        driven!(@ $kind, $max, $limits, [$($part),+], true,
            |k: &$kind| (k.limit_hertz, k.limit_damping_ratio),
            |k: &mut $kind, d: &$crate::joint::axis_drive::AxisDrive| {
                k.limit_hertz = d.limit_hertz;
                k.limit_damping_ratio = d.limit_damping_ratio;
            });
    };
    (@ $kind:ident, $max:ident, $limits:path, [$($part:ident),+], $soft:expr, $get:expr,
        $put:expr) => {
        impl $crate::joint::axis_drive::Driven for $kind {
            const SPEC: $crate::joint::axis_drive::DriveSpec =
                $crate::joint::axis_drive::DriveSpec {
                    limits: $limits,
                    max_name: stringify!($max),
                    order: [$($crate::joint::axis_drive::Part::$part),+],
                    soft_limit: $soft,
                };

            #[allow(clippy::redundant_closure_call)]
            fn drive(&self) -> $crate::joint::axis_drive::AxisDrive {
                let (limit_hertz, limit_damping_ratio) = ($get)(self);
                $crate::joint::axis_drive::AxisDrive {
                    limit_hertz,
                    limit_damping_ratio,
                    enable_limit: self.enable_limit,
                    lower: self.lower,
                    upper: self.upper,
                    enable_motor: self.enable_motor,
                    motor_speed: self.motor_speed,
                    max_motor_force: self.$max,
                    enable_spring: self.enable_spring,
                    hertz: self.hertz,
                    damping_ratio: self.damping_ratio,
                }
            }

            #[allow(clippy::redundant_closure_call, clippy::needless_update)]
            fn from_drive(d: $crate::joint::axis_drive::AxisDrive) -> $kind {
                #[allow(unused_mut)]
                let mut k = $kind {
                    enable_limit: d.enable_limit,
                    lower: d.lower,
                    upper: d.upper,
                    enable_motor: d.enable_motor,
                    motor_speed: d.motor_speed,
                    $max: d.max_motor_force,
                    enable_spring: d.enable_spring,
                    hertz: d.hertz,
                    damping_ratio: d.damping_ratio,
                    ..Default::default()
                };
                ($put)(&mut k, &d);
                k
            }
        }
    };
}
pub(super) use driven;

/// One setting of a drive, as a `World::set_joint_*` call changes it.
#[derive(Clone, Copy, Debug)]
pub(super) enum DriveSetting {
    EnableLimit(bool),
    /// Lower and upper limit.
    Limits(f32, f32),
    EnableMotor(bool),
    MotorSpeed(f32),
    /// The motor's largest torque or force (a cone-twist joint's friction).
    MaxMotorForce(f32),
    EnableSpring(bool),
    /// Stiffness, Hz, and damping ratio (a distance joint's spring too).
    Spring(f32, f32),
    /// A soft limit's stiffness, Hz (0: rigid), and damping ratio.
    LimitSpring(f32, f32),
}

impl DriveSetting {
    /// Checks the bounds that do not depend on the kind, so that a bad value is refused as
    /// such on any joint; limits are angles or metres by kind, checked by the kind.
    pub(super) fn check(self) -> Result<()> {
        match self {
            DriveSetting::MotorSpeed(v) => speed("motor_speed", v),
            DriveSetting::MaxMotorForce(v) => force("max_motor_force", v),
            DriveSetting::Spring(hz, zeta) => {
                hertz("hertz", hz)?;
                damping("damping_ratio", zeta)
            }
            DriveSetting::LimitSpring(hz, zeta) => {
                hertz("limit_hertz", hz)?;
                damping("limit_damping_ratio", zeta)
            }
            _ => Ok(()),
        }
    }

    /// What the refusal says to a kind without the setting.
    pub(super) fn missing(self) -> &'static str {
        match self {
            DriveSetting::EnableLimit(_) => "this joint kind has no limit switch",
            DriveSetting::Limits(..) => "this joint kind has no limits",
            DriveSetting::EnableMotor(_)
            | DriveSetting::MotorSpeed(_)
            | DriveSetting::MaxMotorForce(_) => "this joint kind has no motor",
            DriveSetting::EnableSpring(_) => "this joint kind has no spring switch",
            DriveSetting::Spring(..) => "this joint kind has no spring (weld: set_weld_spring)",
            DriveSetting::LimitSpring(..) => {
                "this joint kind has no soft limit (revolute and prismatic joints have)"
            }
        }
    }
}

impl AxisDrive {
    /// A part's switch and numbers.
    fn part(&mut self, part: Part) -> (&mut bool, &mut f32, &mut f32) {
        match part {
            Part::Limit => (&mut self.enable_limit, &mut self.lower, &mut self.upper),
            Part::Motor => (
                &mut self.enable_motor,
                &mut self.motor_speed,
                &mut self.max_motor_force,
            ),
            Part::Spring => (
                &mut self.enable_spring,
                &mut self.hertz,
                &mut self.damping_ratio,
            ),
        }
    }

    fn check(&self, spec: &DriveSpec) -> Result<()> {
        for part in spec.order {
            match part {
                Part::Limit => {
                    (spec.limits)(("lower", "upper"), self.lower, self.upper)?;
                    hertz("limit_hertz", self.limit_hertz)?;
                    damping("limit_damping_ratio", self.limit_damping_ratio)?;
                }
                Part::Motor => {
                    speed("motor_speed", self.motor_speed)?;
                    force(spec.max_name, self.max_motor_force)?;
                }
                Part::Spring => {
                    hertz("hertz", self.hertz)?;
                    damping("damping_ratio", self.damping_ratio)?;
                }
            }
        }
        Ok(())
    }

    fn set(&mut self, spec: &DriveSpec, s: DriveSetting) -> Result<()> {
        match s {
            DriveSetting::EnableLimit(on) => self.enable_limit = on,
            DriveSetting::Limits(lower, upper) => {
                (spec.limits)(("lower", "upper"), lower, upper)?;
                (self.lower, self.upper) = (lower, upper);
            }
            DriveSetting::EnableMotor(on) => self.enable_motor = on,
            DriveSetting::MotorSpeed(v) => self.motor_speed = v,
            DriveSetting::MaxMotorForce(v) => self.max_motor_force = v,
            DriveSetting::EnableSpring(on) => self.enable_spring = on,
            DriveSetting::Spring(hz, zeta) => (self.hertz, self.damping_ratio) = (hz, zeta),
            DriveSetting::LimitSpring(hz, zeta) => {
                if !spec.soft_limit {
                    return Err(super::checks::no_setting(s.missing()));
                }
                (self.limit_hertz, self.limit_damping_ratio) = (hz, zeta);
            }
        }
        Ok(())
    }

    /// Each part as its switch and two numbers, in the kind's order. The soft limit came
    /// after the format was fixed: it rides on bit 1 of the limit's switch byte (then its
    /// two numbers follow the limit's), written only when not 0, so a rigid limit encodes
    /// to the bytes it always did and no existing world's hash moves.
    fn encode<S: Sink>(mut self, spec: &DriveSpec, e: &mut Enc<S>) {
        let soft = self.limit_hertz != 0.0 || self.limit_damping_ratio != 0.0;
        let (lh, lz) = (self.limit_hertz, self.limit_damping_ratio);
        for part in spec.order {
            let is_limit = matches!(part, Part::Limit);
            let (on, x, y) = self.part(part);
            if is_limit && soft {
                e.u8(*on as u8 | SOFT_LIMIT_BIT);
            } else {
                e.bool(*on);
            }
            e.f32(*x);
            e.f32(*y);
            if is_limit && soft {
                e.f32(lh);
                e.f32(lz);
            }
        }
    }

    /// Reads what `encode` wrote (format checks only; ranges are checked by the caller).
    fn decode(spec: &DriveSpec, d: &mut Dec) -> Result<AxisDrive> {
        let mut k = AxisDrive::default();
        for part in spec.order {
            let is_limit = matches!(part, Part::Limit);
            let (on, x, y) = k.part(part);
            let soft = if is_limit {
                let b = d.u8()?;
                if b & !(1 | SOFT_LIMIT_BIT) != 0 {
                    return Err(crate::error::Error::Format("a flag is neither 0 nor 1"));
                }
                *on = b & 1 != 0;
                b & SOFT_LIMIT_BIT != 0
            } else {
                *on = d.bool()?;
                false
            };
            *x = d.f32()?;
            *y = d.f32()?;
            if soft {
                k.limit_hertz = d.f32()?;
                k.limit_damping_ratio = d.f32()?;
            }
        }
        Ok(k)
    }

    fn spring_on(&self) -> bool {
        self.enable_spring && self.hertz > 0.0
    }

    /// Prepares the spring's softness (`springs[0]`) and zeroes the kept impulses of the
    /// parts that are off: the spring and the limits on `axes[0]`, the motor on
    /// `axes[motor_axis]`.
    pub(super) fn prepare(
        &self,
        c: &mut JointConstraint,
        axes: &mut [AxisImpulse; 6],
        motor_axis: usize,
        h: f32,
    ) {
        if self.spring_on() {
            c.springs[0] = spring_soft(self.hertz, self.damping_ratio, h);
        } else {
            axes[0].spring = 0.0;
        }
        if !self.enable_limit {
            axes[0].lower = 0.0;
            axes[0].upper = 0.0;
        } else if self.limit_hertz > 0.0 {
            c.springs[1] = spring_soft(self.limit_hertz, self.limit_damping_ratio, h);
        }
        if !self.enable_motor {
            axes[motor_axis].motor = 0.0;
        }
    }

    /// The spring, motor and limit rows of one axis whose value (angle or translation) is
    /// `axis.1`, in Box2D's order: the spring first, the limits last.
    pub(super) fn solve(
        &self,
        axis: (&Row, f32),
        c: &JointConstraint,
        a: &mut BodyState,
        b: &mut BodyState,
        p: &Pass,
        ax: &mut AxisImpulse,
    ) {
        self.spring(axis, c, a, b, &mut ax.spring);
        self.motor(axis.0, c, a, b, p, &mut ax.motor);
        self.limits(axis, c, a, b, p, ax);
    }

    /// The spring towards value 0 (softness `springs[0]`).
    pub(super) fn spring(
        &self,
        (row, value): (&Row, f32),
        c: &JointConstraint,
        a: &mut BodyState,
        b: &mut BodyState,
        impulse: &mut f32,
    ) {
        if self.spring_on() {
            row.spring(c, a, b, value, &c.springs[0], impulse);
        }
    }

    /// The motor towards `motor_speed`, its impulse per substep within the bound.
    pub(super) fn motor(
        &self,
        row: &Row,
        c: &JointConstraint,
        a: &mut BodyState,
        b: &mut BodyState,
        p: &Pass,
        impulse: &mut f32,
    ) {
        if self.enable_motor {
            let max = self.max_motor_force * p.h;
            row.motor(c, a, b, self.motor_speed, max, impulse);
        }
    }

    /// The lower and upper limits on the value.
    pub(super) fn limits(
        &self,
        (row, value): (&Row, f32),
        c: &JointConstraint,
        a: &mut BodyState,
        b: &mut BodyState,
        p: &Pass,
        ax: &mut AxisImpulse,
    ) {
        if self.enable_limit && self.limit_hertz > 0.0 {
            let soft = &c.springs[1];
            row.soft_lower(c, a, b, value - self.lower, soft, &mut ax.lower);
            row.soft_upper(c, a, b, self.upper - value, soft, &mut ax.upper);
        } else if self.enable_limit {
            row.lower(c, a, b, value - self.lower, p, &mut ax.lower);
            row.upper(c, a, b, self.upper - value, p, &mut ax.upper);
        }
    }
}
