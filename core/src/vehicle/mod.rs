//! Vehicles: a dynamic chassis body on ray- or shape-cast wheels (as Jolt's
//! `WheeledVehicleController` and Bullet/Rapier's ray-cast vehicle). Each step, before the
//! broad phase, every wheel is cast along its suspension; the suspension's spring and
//! damper push the chassis up, the engine drives the wheels through the transmission, the
//! brakes hold them, and the tyres' longitudinal and lateral friction (bounded by slip
//! curves times the load) couple wheel and chassis to the ground. Everything becomes
//! impulses on the chassis (and equal and opposite ones on a dynamic ground body) that the
//! solver then integrates with gravity and the contacts.
//!
//! Files: this one holds the defs, the slot and the checks; `lifecycle.rs` creates,
//! destroys, sets and reads; `stage.rs` is the step stage; `encoding.rs` the journal fields
//! and the state encoding.

mod encoding;
mod lifecycle;
mod stage;

pub(crate) use encoding::{decode_vehicle, encode_vehicle};

use crate::error::{Error, Result};
use crate::id::BodyId;
use crate::math::Vec3;

/// Most wheels of one vehicle.
pub const MAX_WHEELS: usize = 8;
/// Most forward gears of a transmission.
pub const MAX_GEARS: usize = 8;
/// Most anti-roll bars of one vehicle.
pub const MAX_ANTI_ROLL_BARS: usize = 4;

/// How a wheel finds the ground.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum WheelCast {
    /// A ray from the attachment point along the suspension, `max_length + radius` long.
    #[default]
    Ray,
    /// A sphere of the wheel's radius swept along the suspension (sees edges and steps a
    /// ray misses).
    Sphere,
    /// A cylinder of the wheel's radius and width, its axis on the axle, swept along the
    /// suspension.
    Cylinder,
}

/// The suspension spring.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum SuspensionSpring {
    /// Stiffness (N/m, > 0) and damping (N·s/m, ≥ 0).
    Stiffness {
        /// N/m.
        stiffness: f32,
        /// N·s/m.
        damping: f32,
    },
    /// Frequency (Hz, > 0) and damping ratio (≥ 0) of the chassis' share of mass on this
    /// wheel (the chassis mass over the wheel count, at the time of the step).
    Frequency {
        /// Hz.
        hertz: f32,
        /// 1 is critical damping.
        damping_ratio: f32,
    },
}

impl Default for SuspensionSpring {
    fn default() -> SuspensionSpring {
        SuspensionSpring::Frequency {
            hertz: 1.5,
            damping_ratio: 0.5,
        }
    }
}

/// A tyre's friction against slip: a piecewise-linear curve from 0 at no slip up to
/// `peak` at `peak_slip`, down to `sliding` at `sliding_slip`, then flat. The friction
/// coefficient it gives is multiplied by the ground shape's friction.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SlipCurve {
    /// The slip (ratio, or angle in radians) of the most grip (> 0).
    pub peak_slip: f32,
    /// The friction coefficient there (≥ 0).
    pub peak: f32,
    /// The slip from which the tyre slides (> `peak_slip`).
    pub sliding_slip: f32,
    /// The sliding friction coefficient (≥ 0).
    pub sliding: f32,
}

impl SlipCurve {
    /// The friction coefficient at `slip` (its magnitude).
    pub fn friction(&self, slip: f32) -> f32 {
        let s = crate::math::abs(slip);
        if s <= self.peak_slip {
            self.peak * (s / self.peak_slip)
        } else if s >= self.sliding_slip {
            self.sliding
        } else {
            let t = (s - self.peak_slip) / (self.sliding_slip - self.peak_slip);
            self.peak + (self.sliding - self.peak) * t
        }
    }
}

/// One wheel, in the chassis' body frame.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WheelDef {
    /// Where the suspension is attached (the wheel centre at full compression + `min_length`).
    pub position: Vec3,
    /// The direction the suspension extends in (towards the ground; normalized on create).
    pub suspension_direction: Vec3,
    /// Shortest suspension length (m, ≥ 0): the bump stop.
    pub min_length: f32,
    /// Longest suspension length (m, > `min_length`): the wheel hangs here off the ground.
    pub max_length: f32,
    /// Length at which the spring exerts no force (m, ≥ `min_length`).
    pub rest_length: f32,
    /// The spring and damper.
    pub spring: SuspensionSpring,
    /// Wheel radius (m, > 0).
    pub radius: f32,
    /// Wheel width (m, > 0; the cylinder cast's thickness).
    pub width: f32,
    /// Moment of inertia about the axle (kg·m², > 0).
    pub inertia: f32,
    /// Steering angle at full steering input (rad, within [0, 1.5]).
    pub max_steer_angle: f32,
    /// Brake torque at full brake input (N·m, ≥ 0).
    pub brake_torque: f32,
    /// Handbrake torque at full handbrake input (N·m, ≥ 0; usually on the rear wheels).
    pub handbrake_torque: f32,
    /// Whether the engine drives this wheel (the drive torque is split evenly among them).
    pub driven: bool,
    /// Friction against the slip ratio `(ω·r − v) / |v|` along the wheel.
    pub longitudinal: SlipCurve,
    /// Friction against the slip angle (rad) across the wheel.
    pub lateral: SlipCurve,
    /// How the wheel finds the ground.
    pub cast: WheelCast,
}

impl Default for WheelDef {
    fn default() -> WheelDef {
        WheelDef {
            position: Vec3::ZERO,
            suspension_direction: Vec3::new(0.0, -1.0, 0.0),
            min_length: 0.05,
            max_length: 0.5,
            rest_length: 0.5,
            spring: SuspensionSpring::default(),
            radius: 0.3,
            width: 0.2,
            inertia: 0.9,
            max_steer_angle: 0.0,
            brake_torque: 1500.0,
            handbrake_torque: 0.0,
            driven: false,
            longitudinal: SlipCurve {
                peak_slip: 0.06,
                peak: 1.2,
                sliding_slip: 0.2,
                sliding: 1.0,
            },
            lateral: SlipCurve {
                peak_slip: 0.1,
                peak: 1.2,
                sliding_slip: 0.35,
                sliding: 1.0,
            },
            cast: WheelCast::Ray,
        }
    }
}

/// The engine.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EngineDef {
    /// Torque at full throttle at the curve's peak (N·m, ≥ 0).
    pub max_torque: f32,
    /// Idle speed (rpm, ≥ 0): the engine never turns slower.
    pub min_rpm: f32,
    /// Rev limit (rpm, > `min_rpm`): no torque above.
    pub max_rpm: f32,
    /// The torque curve: the fraction of `max_torque` (each within [0, 1]) at 0, ½ and
    /// all of `max_rpm`, linear between.
    pub torque_curve: [f32; 3],
}

impl Default for EngineDef {
    fn default() -> EngineDef {
        EngineDef {
            max_torque: 500.0,
            min_rpm: 1000.0,
            max_rpm: 6000.0,
            torque_curve: [0.8, 1.0, 0.8],
        }
    }
}

/// The transmission: gear ratios, a differential, and an automatic or fixed choice of gear.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TransmissionDef {
    /// Forward gear ratios (each > 0), the first `gear_count` used.
    pub gears: [f32; MAX_GEARS],
    /// How many forward gears (1 to [`MAX_GEARS`]).
    pub gear_count: u32,
    /// Reverse ratio (> 0; the direction is reversed for it).
    pub reverse_ratio: f32,
    /// Differential ratio (> 0), times every gear's.
    pub differential_ratio: f32,
    /// Shifts by itself: up above `shift_up_rpm`, down below `shift_down_rpm`, into
    /// reverse when asked to go back while (nearly) still. Off: the gear stays where
    /// [`crate::World::set_vehicle_gear`] put it.
    pub automatic: bool,
    /// Engine speed to shift up at (rpm).
    pub shift_up_rpm: f32,
    /// Engine speed to shift down at (rpm, < `shift_up_rpm`).
    pub shift_down_rpm: f32,
}

impl Default for TransmissionDef {
    fn default() -> TransmissionDef {
        let mut gears = [1.0; MAX_GEARS];
        gears[..5].copy_from_slice(&[2.66, 1.78, 1.3, 1.0, 0.74]);
        TransmissionDef {
            gears,
            gear_count: 5,
            reverse_ratio: 2.9,
            differential_ratio: 3.42,
            automatic: true,
            shift_up_rpm: 4000.0,
            shift_down_rpm: 2000.0,
        }
    }
}

/// An anti-roll bar between two wheels (usually left and right of one axle): pushes the
/// more compressed wheel's side up and the other's down, `stiffness` (N/m) times the
/// difference of their suspension lengths.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct AntiRollBar {
    /// One wheel's index.
    pub left: u32,
    /// The other's.
    pub right: u32,
    /// N/m (≥ 0).
    pub stiffness: f32,
}

/// A vehicle: a chassis and its wheels, engine, transmission and anti-roll bars.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct VehicleDef {
    /// The chassis: a live dynamic body.
    pub chassis: BodyId,
    /// Up in the chassis' body frame (normalized on create).
    pub up: Vec3,
    /// Forward in the chassis' body frame (normalized on create; perpendicular to `up`).
    /// Positive steering turns about `up` (to the left for a y-up, z-forward car).
    pub forward: Vec3,
    /// The wheels, the first `wheel_count` used, in a fixed order (the order they act in).
    pub wheels: [WheelDef; MAX_WHEELS],
    /// How many wheels (1 to [`MAX_WHEELS`]).
    pub wheel_count: u32,
    /// The engine.
    pub engine: EngineDef,
    /// The transmission.
    pub transmission: TransmissionDef,
    /// Anti-roll bars, the first `anti_roll_bar_count` used.
    pub anti_roll_bars: [AntiRollBar; MAX_ANTI_ROLL_BARS],
    /// How many anti-roll bars (0 to [`MAX_ANTI_ROLL_BARS`]).
    pub anti_roll_bar_count: u32,
    /// Which shapes the wheels see (besides never the chassis').
    pub cast_mask: u64,
}

impl Default for VehicleDef {
    fn default() -> VehicleDef {
        VehicleDef {
            chassis: BodyId::NULL,
            up: Vec3::new(0.0, 1.0, 0.0),
            forward: Vec3::new(0.0, 0.0, 1.0),
            wheels: [WheelDef::default(); MAX_WHEELS],
            wheel_count: 0,
            engine: EngineDef::default(),
            transmission: TransmissionDef::default(),
            anti_roll_bars: [AntiRollBar::default(); MAX_ANTI_ROLL_BARS],
            anti_roll_bar_count: 0,
            cast_mask: u64::MAX,
        }
    }
}

impl VehicleDef {
    /// Adds a wheel; false (nothing added) when there are [`MAX_WHEELS`] already.
    pub fn add_wheel(&mut self, wheel: WheelDef) -> bool {
        let n = self.wheel_count as usize;
        if n >= MAX_WHEELS {
            return false;
        }
        self.wheels[n] = wheel;
        self.wheel_count += 1;
        true
    }

    /// Adds an anti-roll bar; false (nothing added) when there are
    /// [`MAX_ANTI_ROLL_BARS`] already.
    pub fn add_anti_roll_bar(&mut self, bar: AntiRollBar) -> bool {
        let n = self.anti_roll_bar_count as usize;
        if n >= MAX_ANTI_ROLL_BARS {
            return false;
        }
        self.anti_roll_bars[n] = bar;
        self.anti_roll_bar_count += 1;
        true
    }

    /// The wheels in use (all of them when `wheel_count` is out of range).
    pub fn used_wheels(&self) -> &[WheelDef] {
        &self.wheels[..(self.wheel_count as usize).min(MAX_WHEELS)]
    }
}

/// The driver's input.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct VehicleInput {
    /// Within [-1, 1]: forward (automatic: backward when negative).
    pub throttle: f32,
    /// Within [-1, 1]: positive turns about the chassis' up axis.
    pub steering: f32,
    /// Within [0, 1].
    pub brake: f32,
    /// Within [0, 1].
    pub handbrake: f32,
}

impl VehicleInput {
    fn is_idle(&self) -> bool {
        self.throttle == 0.0 && self.steering == 0.0 && self.brake == 0.0 && self.handbrake == 0.0
    }
}

/// What a wheel last found (derived: written by each step, cleared by a restore).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct WheelContact {
    /// Whether the wheel touches the ground.
    pub in_contact: bool,
    /// The contact point, relative to the world origin.
    pub point: crate::math::DVec3,
    /// The ground's normal there.
    pub normal: Vec3,
    /// The ground body.
    pub body: BodyId,
    /// Slip ratio along the wheel.
    pub longitudinal_slip: f32,
    /// Slip angle across the wheel (rad).
    pub lateral_slip: f32,
}

/// A wheel's state: what shapes the next steps.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct WheelState {
    /// Rad/s about the axle (positive rolls forward).
    pub(crate) angular_velocity: f32,
    /// Rad, within [0, 2π).
    pub(crate) rotation: f32,
    /// The suspension length of the last step (max when off the ground).
    pub(crate) suspension_length: f32,
    /// The steering angle of the last step (rad).
    pub(crate) steer_angle: f32,
}

/// One vehicle slot.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Vehicle {
    pub(crate) alive: bool,
    pub(crate) generation: u32,
    /// State: the chassis body's slot.
    pub(crate) chassis: u32,
    /// State: the settings (its `chassis` field unused; normalized axes).
    pub(crate) def: VehicleDef,
    /// State.
    pub(crate) input: VehicleInput,
    /// State: per wheel.
    pub(crate) wheels: [WheelState; MAX_WHEELS],
    /// State: -1 reverse, 0 neutral, 1.. forward gears.
    pub(crate) gear: i32,
    /// State: engine speed (rpm).
    pub(crate) engine_rpm: f32,
    /// Derived: what each wheel last found.
    pub(crate) contacts: [WheelContact; MAX_WHEELS],
}

impl Default for Vehicle {
    fn default() -> Vehicle {
        Vehicle::dead(0)
    }
}

impl Vehicle {
    /// A free slot of `generation`.
    pub(crate) fn dead(generation: u32) -> Vehicle {
        Vehicle {
            alive: false,
            generation,
            chassis: 0,
            def: VehicleDef::default(),
            input: VehicleInput::default(),
            wheels: [WheelState::default(); MAX_WHEELS],
            gear: 0,
            engine_rpm: 0.0,
            contacts: [WheelContact::default(); MAX_WHEELS],
        }
    }

    pub(crate) fn wheel_count(&self) -> usize {
        self.def.wheel_count as usize
    }
}

fn arg(name: &'static str, value: f32, expected: &'static str) -> Error {
    Error::Argument {
        name,
        value: value as f64,
        expected,
    }
}

fn range(name: &'static str, v: f32, lo: f32, hi: f32, expected: &'static str) -> Result<()> {
    crate::error::check_range(name, v, lo, hi, expected)
}

/// A unit-ish direction: finite, length within [1e-3, 1e6] (normalized by the caller).
fn direction(name: &'static str, v: Vec3) -> Result<Vec3> {
    crate::limits::check_vec_abs(name, v, 1.0e6, "finite and within ±1e6 (each component)")?;
    let len = v.length();
    if len.is_nan() || len < 1.0e-3 {
        return Err(arg(name, len, "a direction of length at least 1e-3"));
    }
    Ok(v * (1.0 / len))
}

const BIG: f32 = 1.0e6;
const HUGE: f32 = 1.0e9;

fn check_curve(
    slip: &'static str,
    peak: &'static str,
    sliding_slip: &'static str,
    sliding: &'static str,
    c: &SlipCurve,
) -> Result<()> {
    range(slip, c.peak_slip, 1.0e-4, 100.0, "within [1e-4, 100]")?;
    range(peak, c.peak, 0.0, 100.0, "within [0, 100]")?;
    range(sliding, c.sliding, 0.0, 100.0, "within [0, 100]")?;
    range(
        sliding_slip,
        c.sliding_slip,
        0.0,
        1000.0,
        "within [0, 1000]",
    )?;
    if c.sliding_slip <= c.peak_slip {
        return Err(arg(sliding_slip, c.sliding_slip, "greater than peak_slip"));
    }
    Ok(())
}

impl WheelDef {
    /// Checks every field; returns the wheel with its suspension direction normalized.
    fn checked(&self) -> Result<WheelDef> {
        let mut w = *self;
        crate::limits::check_vec_abs(
            "wheel.position",
            w.position,
            BIG,
            "finite and within ±1e6 (each component)",
        )?;
        w.suspension_direction = direction("wheel.suspension_direction", w.suspension_direction)?;
        range(
            "wheel.min_length",
            w.min_length,
            0.0,
            100.0,
            "within [0, 100] m",
        )?;
        range(
            "wheel.max_length",
            w.max_length,
            0.0,
            100.0,
            "within [0, 100] m",
        )?;
        if w.max_length <= w.min_length {
            return Err(arg(
                "wheel.max_length",
                w.max_length,
                "greater than min_length",
            ));
        }
        range(
            "wheel.rest_length",
            w.rest_length,
            0.0,
            1000.0,
            "within [0, 1000] m",
        )?;
        if w.rest_length < w.min_length {
            return Err(arg(
                "wheel.rest_length",
                w.rest_length,
                "at least min_length",
            ));
        }
        match w.spring {
            SuspensionSpring::Stiffness { stiffness, damping } => {
                range(
                    "wheel.spring.stiffness",
                    stiffness,
                    1.0e-3,
                    HUGE,
                    "within [1e-3, 1e9] N/m",
                )?;
                range(
                    "wheel.spring.damping",
                    damping,
                    0.0,
                    HUGE,
                    "within [0, 1e9] N·s/m",
                )?;
            }
            SuspensionSpring::Frequency {
                hertz,
                damping_ratio,
            } => {
                range(
                    "wheel.spring.hertz",
                    hertz,
                    1.0e-3,
                    1000.0,
                    "within [1e-3, 1000] Hz",
                )?;
                range(
                    "wheel.spring.damping_ratio",
                    damping_ratio,
                    0.0,
                    100.0,
                    "within [0, 100]",
                )?;
            }
        }
        range(
            "wheel.radius",
            w.radius,
            1.0e-3,
            100.0,
            "within [1e-3, 100] m",
        )?;
        range(
            "wheel.width",
            w.width,
            1.0e-3,
            100.0,
            "within [1e-3, 100] m",
        )?;
        range(
            "wheel.inertia",
            w.inertia,
            1.0e-4,
            HUGE,
            "within [1e-4, 1e9] kg·m²",
        )?;
        range(
            "wheel.max_steer_angle",
            w.max_steer_angle,
            0.0,
            1.5,
            "within [0, 1.5] rad",
        )?;
        range(
            "wheel.brake_torque",
            w.brake_torque,
            0.0,
            HUGE,
            "within [0, 1e9] N·m",
        )?;
        range(
            "wheel.handbrake_torque",
            w.handbrake_torque,
            0.0,
            HUGE,
            "within [0, 1e9] N·m",
        )?;
        check_curve(
            "wheel.longitudinal.peak_slip",
            "wheel.longitudinal.peak",
            "wheel.longitudinal.sliding_slip",
            "wheel.longitudinal.sliding",
            &w.longitudinal,
        )?;
        check_curve(
            "wheel.lateral.peak_slip",
            "wheel.lateral.peak",
            "wheel.lateral.sliding_slip",
            "wheel.lateral.sliding",
            &w.lateral,
        )?;
        Ok(w)
    }
}

impl VehicleDef {
    /// Checks every field but the chassis; returns the def with its directions normalized.
    pub(crate) fn checked(&self) -> Result<VehicleDef> {
        let mut d = *self;
        d.up = direction("up", d.up)?;
        d.forward = direction("forward", d.forward)?;
        let cos = d.up.dot(d.forward);
        if cos.is_nan() || crate::math::abs(cos) > 1.0e-3 {
            return Err(arg("forward·up", cos, "within ±1e-3 (perpendicular axes)"));
        }
        if !(1..=MAX_WHEELS as u32).contains(&d.wheel_count) {
            return Err(arg("wheel_count", d.wheel_count as f32, "within [1, 8]"));
        }
        for w in d.wheels[..d.wheel_count as usize].iter_mut() {
            *w = w.checked()?;
        }
        let e = &d.engine;
        range(
            "engine.max_torque",
            e.max_torque,
            0.0,
            HUGE,
            "within [0, 1e9] N·m",
        )?;
        range(
            "engine.min_rpm",
            e.min_rpm,
            0.0,
            1.0e5,
            "within [0, 1e5] rpm",
        )?;
        range(
            "engine.max_rpm",
            e.max_rpm,
            1.0,
            1.0e5,
            "within [1, 1e5] rpm",
        )?;
        if e.max_rpm <= e.min_rpm {
            return Err(arg("engine.max_rpm", e.max_rpm, "greater than min_rpm"));
        }
        for &f in &e.torque_curve {
            range("engine.torque_curve", f, 0.0, 1.0, "within [0, 1]")?;
        }
        let t = &d.transmission;
        if !(1..=MAX_GEARS as u32).contains(&t.gear_count) {
            return Err(arg(
                "transmission.gear_count",
                t.gear_count as f32,
                "within [1, 8]",
            ));
        }
        for &g in &t.gears[..t.gear_count as usize] {
            range(
                "transmission.gears",
                g,
                1.0e-3,
                1000.0,
                "within [1e-3, 1000]",
            )?;
        }
        range(
            "transmission.reverse_ratio",
            t.reverse_ratio,
            1.0e-3,
            1000.0,
            "within [1e-3, 1000]",
        )?;
        range(
            "transmission.differential_ratio",
            t.differential_ratio,
            1.0e-3,
            1000.0,
            "within [1e-3, 1000]",
        )?;
        range(
            "transmission.shift_up_rpm",
            t.shift_up_rpm,
            0.0,
            1.0e5,
            "within [0, 1e5] rpm",
        )?;
        range(
            "transmission.shift_down_rpm",
            t.shift_down_rpm,
            0.0,
            1.0e5,
            "within [0, 1e5] rpm",
        )?;
        if t.shift_down_rpm >= t.shift_up_rpm {
            return Err(arg(
                "transmission.shift_down_rpm",
                t.shift_down_rpm,
                "less than shift_up_rpm",
            ));
        }
        if d.anti_roll_bar_count > MAX_ANTI_ROLL_BARS as u32 {
            return Err(arg(
                "anti_roll_bar_count",
                d.anti_roll_bar_count as f32,
                "within [0, 4]",
            ));
        }
        for b in &d.anti_roll_bars[..d.anti_roll_bar_count as usize] {
            for (name, i) in [
                ("anti_roll_bar.left", b.left),
                ("anti_roll_bar.right", b.right),
            ] {
                if i >= d.wheel_count {
                    return Err(arg(name, i as f32, "a wheel index below wheel_count"));
                }
            }
            if b.left == b.right {
                return Err(arg(
                    "anti_roll_bar.right",
                    b.right as f32,
                    "a wheel other than left",
                ));
            }
            range(
                "anti_roll_bar.stiffness",
                b.stiffness,
                0.0,
                HUGE,
                "within [0, 1e9] N/m",
            )?;
        }
        Ok(d)
    }
}

impl VehicleInput {
    pub(crate) fn check(&self) -> Result<()> {
        range("throttle", self.throttle, -1.0, 1.0, "within [-1, 1]")?;
        range("steering", self.steering, -1.0, 1.0, "within [-1, 1]")?;
        range("brake", self.brake, 0.0, 1.0, "within [0, 1]")?;
        range("handbrake", self.handbrake, 0.0, 1.0, "within [0, 1]")
    }
}
