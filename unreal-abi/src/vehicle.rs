//! Vehicles: a dynamic chassis body on ray- or shape-cast wheels, with an engine, a
//! transmission and anti-roll bars. Create, destroy, the driver's input and the gear, and
//! what the last step left (speed, engine, gear, each wheel's state).

use crate::boundary::{Refusal, api_on, non_null, read, write};
use crate::types::*;
use engine::{SuspensionSpring, VehicleId, WheelCast, World};

/// Most wheels of one vehicle (`m3VehicleDef.wheels`).
pub const M3_MAX_WHEELS: usize = 8;
/// Most forward gears of a transmission (`m3TransmissionDef.gears`).
pub const M3_MAX_GEARS: usize = 8;
/// Most anti-roll bars of one vehicle (`m3VehicleDef.antiRollBars`).
pub const M3_MAX_ANTI_ROLL_BARS: usize = 4;

const _: () = assert!(M3_MAX_WHEELS == engine::MAX_WHEELS);
const _: () = assert!(M3_MAX_GEARS == engine::MAX_GEARS);
const _: () = assert!(M3_MAX_ANTI_ROLL_BARS == engine::MAX_ANTI_ROLL_BARS);

/// How a wheel finds the ground (`m3WheelDef.cast`).
pub type m3WheelCast = i32;
/// A ray from the attachment point along the suspension, `maxLength + radius` long.
pub const m3_wheelCastRay: m3WheelCast = 0;
/// A sphere of the wheel's radius swept along the suspension.
pub const m3_wheelCastSphere: m3WheelCast = 1;
/// A cylinder of the wheel's radius and width, its axis on the axle, swept along the
/// suspension.
pub const m3_wheelCastCylinder: m3WheelCast = 2;

/// How a suspension spring is given (`m3WheelDef.springMode`).
pub type m3SpringMode = i32;
/// By frequency (`hertz`, > 0) and damping ratio (`dampingRatio`, ≥ 0) of the chassis'
/// share of mass on the wheel.
pub const m3_springFrequency: m3SpringMode = 0;
/// By stiffness (`stiffness`, N/m, > 0) and damping (`damping`, N·s/m, ≥ 0).
pub const m3_springStiffness: m3SpringMode = 1;

/// A tyre's friction against slip: piecewise linear from 0 at no slip up to `peak` at
/// `peakSlip`, down to `sliding` at `slidingSlip`, then flat; times the ground's friction.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct m3SlipCurve {
    /// The slip (ratio, or angle in radians) of the most grip (> 0).
    pub peakSlip: f32,
    /// The friction coefficient there (≥ 0).
    pub peak: f32,
    /// The slip from which the tyre slides (> `peakSlip`).
    pub slidingSlip: f32,
    /// The sliding friction coefficient (≥ 0).
    pub sliding: f32,
}

/// One wheel, in the chassis' body frame. Start from `m3DefaultWheelDef()`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct m3WheelDef {
    /// Where the suspension is attached.
    pub position: m3Vec3,
    /// The direction the suspension extends in (towards the ground; normalised).
    pub suspensionDirection: m3Vec3,
    /// Shortest suspension length (m, ≥ 0): the bump stop.
    pub minLength: f32,
    /// Longest suspension length (m, > `minLength`): the wheel hangs here off the ground.
    pub maxLength: f32,
    /// Length at which the spring exerts no force (m, ≥ `minLength`).
    pub restLength: f32,
    /// `m3_springFrequency` (reads `hertz`, `dampingRatio`) or `m3_springStiffness`
    /// (reads `stiffness`, `damping`).
    pub springMode: m3SpringMode,
    /// Spring frequency, Hz (frequency mode; default 1.5).
    pub hertz: f32,
    /// Damping ratio, 1 critical (frequency mode; default 0.5).
    pub dampingRatio: f32,
    /// Spring stiffness, N/m (stiffness mode).
    pub stiffness: f32,
    /// Damping, N·s/m (stiffness mode).
    pub damping: f32,
    /// Wheel radius (m, > 0).
    pub radius: f32,
    /// Wheel width (m, > 0; the cylinder cast's thickness).
    pub width: f32,
    /// Moment of inertia about the axle (kg·m², > 0).
    pub inertia: f32,
    /// Steering angle at full steering input (rad, within [0, 1.5]).
    pub maxSteerAngle: f32,
    /// Brake torque at full brake input (N·m, ≥ 0).
    pub brakeTorque: f32,
    /// Handbrake torque at full handbrake input (N·m, ≥ 0).
    pub handbrakeTorque: f32,
    /// Whether the engine drives this wheel (the drive torque is split evenly).
    pub driven: bool,
    /// Friction against the slip ratio along the wheel.
    pub longitudinal: m3SlipCurve,
    /// Friction against the slip angle (rad) across the wheel.
    pub lateral: m3SlipCurve,
    /// `m3_wheelCastRay`, `m3_wheelCastSphere` or `m3_wheelCastCylinder`.
    pub cast: m3WheelCast,
}

/// The engine.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct m3EngineDef {
    /// Torque at full throttle at the curve's peak (N·m, ≥ 0).
    pub maxTorque: f32,
    /// Idle speed (rpm, ≥ 0).
    pub minRpm: f32,
    /// Rev limit (rpm, > `minRpm`): no torque above.
    pub maxRpm: f32,
    /// The fraction of `maxTorque` (each within [0, 1]) at 0, ½ and all of `maxRpm`,
    /// linear between.
    pub torqueCurve: [f32; 3],
}

/// The transmission.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct m3TransmissionDef {
    /// Forward gear ratios (each > 0), the first `gearCount` used.
    pub gears: [f32; M3_MAX_GEARS],
    /// How many forward gears (1 to `M3_MAX_GEARS`).
    pub gearCount: i32,
    /// Reverse ratio (> 0).
    pub reverseRatio: f32,
    /// Differential ratio (> 0), times every gear's.
    pub differentialRatio: f32,
    /// Shifts by itself (up above `shiftUpRpm`, down below `shiftDownRpm`, into reverse
    /// when asked to go back while nearly still); off: the gear stays where
    /// `m3Vehicle_SetGear` put it.
    pub automatic: bool,
    /// Engine speed to shift up at (rpm).
    pub shiftUpRpm: f32,
    /// Engine speed to shift down at (rpm, < `shiftUpRpm`).
    pub shiftDownRpm: f32,
}

/// An anti-roll bar between two wheels.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct m3AntiRollBar {
    /// One wheel's index.
    pub left: i32,
    /// The other's.
    pub right: i32,
    /// N/m (≥ 0).
    pub stiffness: f32,
}

/// A vehicle: a chassis and its wheels, engine, transmission and anti-roll bars. Start from
/// `m3DefaultVehicleDef()`, set the chassis, and fill `wheels` (from `m3DefaultWheelDef()`)
/// and `wheelCount`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct m3VehicleDef {
    /// The chassis: a live dynamic body of the world.
    pub chassis: m3BodyId,
    /// Up in the chassis' body frame (normalised).
    pub up: m3Vec3,
    /// Forward in the chassis' body frame (normalised; perpendicular to `up`). Positive
    /// steering turns about `up`.
    pub forward: m3Vec3,
    /// The wheels, the first `wheelCount` used, in the order they act in.
    pub wheels: [m3WheelDef; M3_MAX_WHEELS],
    /// How many wheels (1 to `M3_MAX_WHEELS`).
    pub wheelCount: i32,
    /// The engine.
    pub engine: m3EngineDef,
    /// The transmission.
    pub transmission: m3TransmissionDef,
    /// Anti-roll bars, the first `antiRollBarCount` used.
    pub antiRollBars: [m3AntiRollBar; M3_MAX_ANTI_ROLL_BARS],
    /// How many anti-roll bars (0 to `M3_MAX_ANTI_ROLL_BARS`).
    pub antiRollBarCount: i32,
    /// Which shapes the wheels see (besides never the chassis'): their category bits.
    pub castMask: u64,
}

/// The driver's input.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct m3VehicleInput {
    /// Within [-1, 1]: forward (automatic: backward when negative).
    pub throttle: f32,
    /// Within [-1, 1]: positive turns about the chassis' up axis.
    pub steering: f32,
    /// Within [0, 1].
    pub brake: f32,
    /// Within [0, 1].
    pub handbrake: f32,
}

/// One wheel as of the last step (`m3Vehicle_GetWheelState`). The contact part is
/// derived: after a restore, no contact until the next step.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct m3WheelState {
    /// Suspension length (m; its longest off the ground).
    pub suspensionLength: f32,
    /// Angular velocity about the axle (rad/s, positive rolling forward).
    pub angularVelocity: f32,
    /// Rotation angle about the axle (rad, within [0, 2π)).
    pub rotation: f32,
    /// Steering angle (rad, about the chassis' up axis).
    pub steerAngle: f32,
    /// Whether the wheel touches the ground.
    pub inContact: bool,
    /// The contact point, relative to the world origin.
    pub point: m3DVec3,
    /// The ground's normal there.
    pub normal: m3Vec3,
    /// The ground body (null off the ground).
    pub body: m3BodyId,
    /// Slip ratio along the wheel.
    pub longitudinalSlip: f32,
    /// Slip angle across the wheel (rad).
    pub lateralSlip: f32,
}

fn c_curve(c: engine::SlipCurve) -> m3SlipCurve {
    m3SlipCurve {
        peakSlip: c.peak_slip,
        peak: c.peak,
        slidingSlip: c.sliding_slip,
        sliding: c.sliding,
    }
}

fn engine_curve(c: m3SlipCurve) -> engine::SlipCurve {
    engine::SlipCurve {
        peak_slip: c.peakSlip,
        peak: c.peak,
        sliding_slip: c.slidingSlip,
        sliding: c.sliding,
    }
}

fn c_wheel(w: &engine::WheelDef) -> m3WheelDef {
    let (spring_mode, hertz, damping_ratio, stiffness, damping) = match w.spring {
        SuspensionSpring::Frequency {
            hertz,
            damping_ratio,
        } => (m3_springFrequency, hertz, damping_ratio, 0.0, 0.0),
        SuspensionSpring::Stiffness { stiffness, damping } => {
            (m3_springStiffness, 0.0, 0.0, stiffness, damping)
        }
    };
    m3WheelDef {
        position: w.position.into(),
        suspensionDirection: w.suspension_direction.into(),
        minLength: w.min_length,
        maxLength: w.max_length,
        restLength: w.rest_length,
        springMode: spring_mode,
        hertz,
        dampingRatio: damping_ratio,
        stiffness,
        damping,
        radius: w.radius,
        width: w.width,
        inertia: w.inertia,
        maxSteerAngle: w.max_steer_angle,
        brakeTorque: w.brake_torque,
        handbrakeTorque: w.handbrake_torque,
        driven: w.driven,
        longitudinal: c_curve(w.longitudinal),
        lateral: c_curve(w.lateral),
        cast: match w.cast {
            WheelCast::Ray => m3_wheelCastRay,
            WheelCast::Sphere => m3_wheelCastSphere,
            WheelCast::Cylinder => m3_wheelCastCylinder,
        },
    }
}

fn engine_wheel(i: usize, w: &m3WheelDef) -> Result<engine::WheelDef, Refusal> {
    let spring = match w.springMode {
        m3_springFrequency => SuspensionSpring::Frequency {
            hertz: w.hertz,
            damping_ratio: w.dampingRatio,
        },
        m3_springStiffness => SuspensionSpring::Stiffness {
            stiffness: w.stiffness,
            damping: w.damping,
        },
        m => {
            return Err(crate::refuse!(
                m3_errorArgument,
                "wheels[{i}].springMode = {m} must be within [0, 1] (m3_springFrequency, m3_springStiffness)"
            ));
        }
    };
    let cast = match w.cast {
        m3_wheelCastRay => WheelCast::Ray,
        m3_wheelCastSphere => WheelCast::Sphere,
        m3_wheelCastCylinder => WheelCast::Cylinder,
        c => {
            return Err(crate::refuse!(
                m3_errorArgument,
                "wheels[{i}].cast = {c} must be within [0, 2] (m3_wheelCastRay, m3_wheelCastSphere, m3_wheelCastCylinder)"
            ));
        }
    };
    Ok(engine::WheelDef {
        position: w.position.into(),
        suspension_direction: w.suspensionDirection.into(),
        min_length: w.minLength,
        max_length: w.maxLength,
        rest_length: w.restLength,
        spring,
        radius: w.radius,
        width: w.width,
        inertia: w.inertia,
        max_steer_angle: w.maxSteerAngle,
        brake_torque: w.brakeTorque,
        handbrake_torque: w.handbrakeTorque,
        driven: w.driven,
        longitudinal: engine_curve(w.longitudinal),
        lateral: engine_curve(w.lateral),
        cast,
    })
}

fn default_wheel_def() -> m3WheelDef {
    let mut w = c_wheel(&engine::WheelDef::default());
    // The stiffness fields' defaults, for a host that switches the mode: a 1.5 Hz spring
    // for 400 kg, half damped.
    w.stiffness = 35_000.0;
    w.damping = 3_800.0;
    w
}

fn c_vehicle_def(d: &engine::VehicleDef, world: m3WorldId) -> m3VehicleDef {
    let t = &d.transmission;
    m3VehicleDef {
        chassis: m3BodyId::from_core(d.chassis, world),
        up: d.up.into(),
        forward: d.forward.into(),
        wheels: d.wheels.map(|w| c_wheel(&w)),
        wheelCount: d.wheel_count as i32,
        engine: m3EngineDef {
            maxTorque: d.engine.max_torque,
            minRpm: d.engine.min_rpm,
            maxRpm: d.engine.max_rpm,
            torqueCurve: d.engine.torque_curve,
        },
        transmission: m3TransmissionDef {
            gears: t.gears,
            gearCount: t.gear_count as i32,
            reverseRatio: t.reverse_ratio,
            differentialRatio: t.differential_ratio,
            automatic: t.automatic,
            shiftUpRpm: t.shift_up_rpm,
            shiftDownRpm: t.shift_down_rpm,
        },
        antiRollBars: d.anti_roll_bars.map(|b| m3AntiRollBar {
            left: b.left as i32,
            right: b.right as i32,
            stiffness: b.stiffness,
        }),
        antiRollBarCount: d.anti_roll_bar_count as i32,
        castMask: d.cast_mask,
    }
}

fn default_vehicle_def() -> m3VehicleDef {
    let mut d = c_vehicle_def(&engine::VehicleDef::default(), m3WorldId::default());
    d.wheels = [default_wheel_def(); M3_MAX_WHEELS];
    d
}

/// The default wheel def: hung 0.5 m down (-Y) from the origin, 1.5 Hz half-damped spring,
/// radius 0.3, width 0.2, no steering, brake 1500 N·m, not driven, ray cast.
#[unsafe(no_mangle)]
pub extern "C" fn m3DefaultWheelDef() -> m3WheelDef {
    crate::boundary::value("m3DefaultWheelDef", default_wheel_def(), default_wheel_def)
}

/// The default vehicle def: no chassis, up +Y, forward +Z, every wheel slot the default
/// wheel and `wheelCount` 0, a 500 N·m engine (1000–6000 rpm), five automatic gears, no
/// anti-roll bars, wheels that see every shape.
#[unsafe(no_mangle)]
pub extern "C" fn m3DefaultVehicleDef() -> m3VehicleDef {
    crate::boundary::value(
        "m3DefaultVehicleDef",
        default_vehicle_def(),
        default_vehicle_def,
    )
}

fn index(name: &'static str, v: i32, max: usize) -> Result<u32, Refusal> {
    if v < 0 || v as usize > max {
        return Err(crate::refuse!(
            m3_errorArgument,
            "{name} = {v} must be within [0, {max}]"
        ));
    }
    Ok(v as u32)
}

fn engine_vehicle_def(d: &m3VehicleDef) -> Result<engine::VehicleDef, Refusal> {
    let wheel_count = index("def.wheelCount", d.wheelCount, M3_MAX_WHEELS)?;
    if wheel_count == 0 {
        return Err(crate::refuse!(
            m3_errorArgument,
            "def.wheelCount = 0 must be within [1, {M3_MAX_WHEELS}]"
        ));
    }
    let mut wheels = [engine::WheelDef::default(); M3_MAX_WHEELS];
    for (i, w) in d.wheels.iter().enumerate().take(wheel_count as usize) {
        wheels[i] = engine_wheel(i, w)?;
    }
    let bar_count = index(
        "def.antiRollBarCount",
        d.antiRollBarCount,
        M3_MAX_ANTI_ROLL_BARS,
    )?;
    let mut bars = [engine::AntiRollBar::default(); M3_MAX_ANTI_ROLL_BARS];
    for (i, b) in d.antiRollBars.iter().enumerate().take(bar_count as usize) {
        let last = wheel_count as usize - 1;
        let left = bar_wheel(i, "left", b.left, last)?;
        let right = bar_wheel(i, "right", b.right, last)?;
        bars[i] = engine::AntiRollBar {
            left,
            right,
            stiffness: b.stiffness,
        };
    }
    let t = &d.transmission;
    let gear_count = index("def.transmission.gearCount", t.gearCount, M3_MAX_GEARS)?;
    Ok(engine::VehicleDef {
        // Set by the caller, once the world is known.
        chassis: engine::BodyId::NULL,
        up: d.up.into(),
        forward: d.forward.into(),
        wheels,
        wheel_count,
        engine: engine::EngineDef {
            max_torque: d.engine.maxTorque,
            min_rpm: d.engine.minRpm,
            max_rpm: d.engine.maxRpm,
            torque_curve: d.engine.torqueCurve,
        },
        transmission: engine::TransmissionDef {
            gears: t.gears,
            gear_count,
            reverse_ratio: t.reverseRatio,
            differential_ratio: t.differentialRatio,
            automatic: t.automatic,
            shift_up_rpm: t.shiftUpRpm,
            shift_down_rpm: t.shiftDownRpm,
        },
        anti_roll_bars: bars,
        anti_roll_bar_count: bar_count,
        cast_mask: d.castMask,
    })
}

/// An anti-roll bar's wheel index: within the wheels in use.
fn bar_wheel(i: usize, side: &str, v: i32, last: usize) -> Result<u32, Refusal> {
    if v < 0 || v as usize > last {
        return Err(crate::refuse!(
            m3_errorArgument,
            "def.antiRollBars[{i}].{side} = {v} must be a wheel index within [0, {last}]"
        ));
    }
    Ok(v as u32)
}

/// Creates a vehicle on a live dynamic chassis body of the world and wakes it: its wheels
/// act from the next step, in their order. Every field is checked; refused with nothing
/// changed for a bad value (`m3_errorArgument`), a null, stale or foreign chassis
/// (`m3_errorInvalidId`), or a full pool (`m3_errorCapacity`; see `vehicleCapacity`).
/// Destroying the chassis destroys the vehicle.
///
/// # Safety
/// - `def` points to one readable `m3VehicleDef`, aligned for its type, for the duration
///   of the call (null is refused with `m3_errorArgument`).
/// - `vehicleId` points to one writable `m3VehicleId`, aligned for its type, for the
///   duration of the call (null is refused with `m3_errorArgument`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m3World_CreateVehicle(
    worldId: m3WorldId,
    def: *const m3VehicleDef,
    vehicleId: *mut m3VehicleId,
) -> m3Result {
    api_on("m3World_CreateVehicle", worldId, || {
        let o = out("vehicleId", vehicleId)?;
        // SAFETY: the host passes a valid def or null.
        let d = unsafe { read_ptr("def", def) }?;
        let mut ed = engine_vehicle_def(&d)?;
        let id = write(worldId, |e| {
            e.owns("def.chassis", d.chassis)?;
            ed.chassis = d.chassis.to_core(e.tag);
            let v = e.world.create_vehicle(&ed)?;
            Ok(m3VehicleId::from_core(v, e.id))
        })?;
        // SAFETY: checked non-null.
        unsafe { put(o, id) };
        Ok(())
    })
}

/// Runs a change of vehicle `id`.
fn set(
    name: &'static str,
    id: m3VehicleId,
    f: impl FnOnce(&mut World, VehicleId) -> engine::Result<()>,
) -> m3Result {
    api_on(name, id.world, || {
        non_null("vehicleId", id)?;
        write(id.world, |e| Ok(f(&mut e.world, id.to_core(e.tag))?))
    })
}

/// Reads a property of vehicle `id` into `o`.
fn get<T, C>(
    name: &'static str,
    id: m3VehicleId,
    o: *mut C,
    f: impl FnOnce(&World, VehicleId) -> engine::Result<T>,
    conv: impl FnOnce(T, m3WorldId) -> C,
) -> m3Result {
    api_on(name, id.world, || {
        let o = out("output", o)?;
        non_null("vehicleId", id)?;
        let v = read(id.world, |e| Ok(f(&e.world, id.to_core(e.tag))?))?;
        // SAFETY: checked non-null.
        unsafe { put(o, conv(v, id.world)) };
        Ok(())
    })
}

/// Destroys a vehicle (the chassis stays, awake).
#[unsafe(no_mangle)]
pub extern "C" fn m3Vehicle_Destroy(vehicleId: m3VehicleId) -> m3Result {
    set("m3Vehicle_Destroy", vehicleId, |w, v| w.destroy_vehicle(v))
}

/// Sets the driver's input (throttle and steering within [-1, 1], brake and handbrake
/// within [0, 1]); input that is not all zero wakes the chassis.
#[unsafe(no_mangle)]
pub extern "C" fn m3Vehicle_SetInput(vehicleId: m3VehicleId, input: m3VehicleInput) -> m3Result {
    set("m3Vehicle_SetInput", vehicleId, |w, v| {
        w.set_vehicle_input(
            v,
            engine::VehicleInput {
                throttle: input.throttle,
                steering: input.steering,
                brake: input.brake,
                handbrake: input.handbrake,
            },
        )
    })
}

/// Puts the transmission in a gear: -1 reverse, 0 neutral, 1 to `gearCount` forward. An
/// automatic transmission shifts on from there.
#[unsafe(no_mangle)]
pub extern "C" fn m3Vehicle_SetGear(vehicleId: m3VehicleId, gear: i32) -> m3Result {
    set("m3Vehicle_SetGear", vehicleId, |w, v| {
        w.set_vehicle_gear(v, gear)
    })
}

/// The driver's input last set.
///
/// # Safety
/// `input` points to one writable `m3VehicleInput`, aligned for its type, for the
/// duration of the call (null is refused with `m3_errorArgument`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m3Vehicle_GetInput(
    vehicleId: m3VehicleId,
    input: *mut m3VehicleInput,
) -> m3Result {
    get(
        "m3Vehicle_GetInput",
        vehicleId,
        input,
        |w, v| w.vehicle_input(v),
        |i, _| m3VehicleInput {
            throttle: i.throttle,
            steering: i.steering,
            brake: i.brake,
            handbrake: i.handbrake,
        },
    )
}

/// The vehicle's settings as created (its chassis id current, its axes normalised).
///
/// # Safety
/// `def` points to one writable `m3VehicleDef`, aligned for its type, for the duration of
/// the call (null is refused with `m3_errorArgument`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m3Vehicle_GetDef(
    vehicleId: m3VehicleId,
    def: *mut m3VehicleDef,
) -> m3Result {
    get(
        "m3Vehicle_GetDef",
        vehicleId,
        def,
        |w, v| w.vehicle_def(v),
        |d, world| c_vehicle_def(&d, world),
    )
}

/// The chassis velocity along its forward axis (m/s, negative backwards).
///
/// # Safety
/// `speed` points to one writable `f32`, aligned for its type, for the duration of the
/// call (null is refused with `m3_errorArgument`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m3Vehicle_GetForwardSpeed(
    vehicleId: m3VehicleId,
    speed: *mut f32,
) -> m3Result {
    get(
        "m3Vehicle_GetForwardSpeed",
        vehicleId,
        speed,
        |w, v| w.vehicle_forward_speed(v),
        |s, _| s,
    )
}

/// The engine speed (rpm).
///
/// # Safety
/// `rpm` points to one writable `f32`, aligned for its type, for the duration of the call
/// (null is refused with `m3_errorArgument`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m3Vehicle_GetEngineRpm(vehicleId: m3VehicleId, rpm: *mut f32) -> m3Result {
    get(
        "m3Vehicle_GetEngineRpm",
        vehicleId,
        rpm,
        |w, v| w.vehicle_engine_rpm(v),
        |s, _| s,
    )
}

/// The gear: -1 reverse, 0 neutral, 1 and up the forward gears.
///
/// # Safety
/// `gear` points to one writable `i32`, aligned for its type, for the duration of the
/// call (null is refused with `m3_errorArgument`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m3Vehicle_GetGear(vehicleId: m3VehicleId, gear: *mut i32) -> m3Result {
    get(
        "m3Vehicle_GetGear",
        vehicleId,
        gear,
        |w, v| w.vehicle_gear(v),
        |g, _| g,
    )
}

/// Wheel `wheel` (0 to `wheelCount` − 1) as of the last step: suspension length, angular
/// velocity, rotation, steering angle, and what it touched.
///
/// # Safety
/// `state` points to one writable `m3WheelState`, aligned for its type, for the duration
/// of the call (null is refused with `m3_errorArgument`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m3Vehicle_GetWheelState(
    vehicleId: m3VehicleId,
    wheel: i32,
    state: *mut m3WheelState,
) -> m3Result {
    api_on("m3Vehicle_GetWheelState", vehicleId.world, || {
        let o = out("state", state)?;
        non_null("vehicleId", vehicleId)?;
        let w = index("wheel", wheel, M3_MAX_WHEELS - 1)?;
        let s = read(vehicleId.world, |e| {
            let v = vehicleId.to_core(e.tag);
            let c = e.world.wheel_contact(v, w)?;
            Ok(m3WheelState {
                suspensionLength: e.world.wheel_suspension_length(v, w)?,
                angularVelocity: e.world.wheel_angular_velocity(v, w)?,
                rotation: e.world.wheel_rotation_angle(v, w)?,
                steerAngle: e.world.wheel_steer_angle(v, w)?,
                inContact: c.in_contact,
                point: c.point.into(),
                normal: c.normal.into(),
                body: m3BodyId::from_core(c.body, e.id),
                longitudinalSlip: c.longitudinal_slip,
                lateralSlip: c.lateral_slip,
            })
        })?;
        // SAFETY: checked non-null.
        unsafe { put(o, s) };
        Ok(())
    })
}

/// The ids of the live vehicles, in slot order, as `m3World_GetBodyIds`.
///
/// # Safety
/// - `ids` points to `capacity` writable `m3VehicleId` items, aligned, for the duration
///   of the call (they may be uninitialised; null only with `capacity` 0).
/// - `count` points to one writable `i32`, aligned for its type, for the duration of the
///   call (null is refused with `m3_errorArgument`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m3World_GetVehicleIds(
    worldId: m3WorldId,
    ids: *mut m3VehicleId,
    capacity: i32,
    count: *mut i32,
) -> m3Result {
    api_on("m3World_GetVehicleIds", worldId, || {
        let o = out("count", count)?;
        let arr = OutArray::new("ids", ids, capacity)?;
        let n = read(worldId, |e| {
            let mut n = 0;
            for id in e.world.vehicle_ids() {
                // SAFETY: within the host's capacity.
                unsafe { arr.set(n, m3VehicleId::from_core(id, e.id)) };
                n += 1;
            }
            Ok(n)
        })?;
        // SAFETY: checked non-null.
        unsafe { put(o, to_i32(n)) };
        Ok(())
    })
}
