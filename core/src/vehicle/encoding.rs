//! Vehicle encoding shared by the journal's fields (defs and input as given) and the
//! state (settings, input, wheel spin, gear, engine speed): field by field, little-endian.
//! Decoding checks formats here; ranges are checked as the calls check them.

use super::{
    AntiRollBar, EngineDef, MAX_ANTI_ROLL_BARS, MAX_GEARS, MAX_WHEELS, SlipCurve, SuspensionSpring,
    TransmissionDef, Vehicle, VehicleDef, VehicleInput, WheelCast, WheelDef,
};
use crate::codec::{Dec, Enc, Sink, check};
use crate::error::{Error, Result};
use crate::field::Field;
use crate::id::BodyId;
use crate::limits::MAX_VELOCITY;

fn encode_curve<S: Sink>(e: &mut Enc<S>, c: &SlipCurve) {
    e.f32(c.peak_slip);
    e.f32(c.peak);
    e.f32(c.sliding_slip);
    e.f32(c.sliding);
}

fn decode_curve(d: &mut Dec) -> Result<SlipCurve> {
    Ok(SlipCurve {
        peak_slip: d.f32()?,
        peak: d.f32()?,
        sliding_slip: d.f32()?,
        sliding: d.f32()?,
    })
}

fn encode_wheel<S: Sink>(e: &mut Enc<S>, w: &WheelDef) {
    e.vec3(w.position);
    e.vec3(w.suspension_direction);
    e.f32(w.min_length);
    e.f32(w.max_length);
    e.f32(w.rest_length);
    match w.spring {
        SuspensionSpring::Stiffness { stiffness, damping } => {
            e.u8(0);
            e.f32(stiffness);
            e.f32(damping);
        }
        SuspensionSpring::Frequency {
            hertz,
            damping_ratio,
        } => {
            e.u8(1);
            e.f32(hertz);
            e.f32(damping_ratio);
        }
    }
    e.f32(w.radius);
    e.f32(w.width);
    e.f32(w.inertia);
    e.f32(w.max_steer_angle);
    e.f32(w.brake_torque);
    e.f32(w.handbrake_torque);
    e.bool(w.driven);
    encode_curve(e, &w.longitudinal);
    encode_curve(e, &w.lateral);
    e.u8(w.cast as u8);
}

fn decode_wheel(d: &mut Dec) -> Result<WheelDef> {
    let position = d.vec3()?;
    let suspension_direction = d.vec3()?;
    let min_length = d.f32()?;
    let max_length = d.f32()?;
    let rest_length = d.f32()?;
    let spring = match d.u8()? {
        0 => SuspensionSpring::Stiffness {
            stiffness: d.f32()?,
            damping: d.f32()?,
        },
        1 => SuspensionSpring::Frequency {
            hertz: d.f32()?,
            damping_ratio: d.f32()?,
        },
        _ => return Err(Error::Format("unknown suspension spring kind")),
    };
    Ok(WheelDef {
        position,
        suspension_direction,
        min_length,
        max_length,
        rest_length,
        spring,
        radius: d.f32()?,
        width: d.f32()?,
        inertia: d.f32()?,
        max_steer_angle: d.f32()?,
        brake_torque: d.f32()?,
        handbrake_torque: d.f32()?,
        driven: d.bool()?,
        longitudinal: decode_curve(d)?,
        lateral: decode_curve(d)?,
        cast: match d.u8()? {
            0 => WheelCast::Ray,
            1 => WheelCast::Sphere,
            2 => WheelCast::Cylinder,
            _ => return Err(Error::Format("unknown wheel cast kind")),
        },
    })
}

/// The def's settings but the chassis: the used wheels, gears and bars only.
fn encode_settings<S: Sink>(e: &mut Enc<S>, def: &VehicleDef) {
    e.vec3(def.up);
    e.vec3(def.forward);
    e.u32(def.wheel_count);
    for w in def.used_wheels() {
        encode_wheel(e, w);
    }
    let en = &def.engine;
    e.f32(en.max_torque);
    e.f32(en.min_rpm);
    e.f32(en.max_rpm);
    for &f in &en.torque_curve {
        e.f32(f);
    }
    let t = &def.transmission;
    e.u32(t.gear_count);
    for &g in &t.gears[..(t.gear_count as usize).min(MAX_GEARS)] {
        e.f32(g);
    }
    e.f32(t.reverse_ratio);
    e.f32(t.differential_ratio);
    e.bool(t.automatic);
    e.f32(t.shift_up_rpm);
    e.f32(t.shift_down_rpm);
    e.u32(def.anti_roll_bar_count);
    for b in &def.anti_roll_bars[..(def.anti_roll_bar_count as usize).min(MAX_ANTI_ROLL_BARS)] {
        e.u32(b.left);
        e.u32(b.right);
        e.f32(b.stiffness);
    }
    e.u64(def.cast_mask);
}

/// Reads what `encode_settings` wrote (the chassis left null; unused entries default).
fn decode_settings(d: &mut Dec) -> Result<VehicleDef> {
    let mut def = VehicleDef {
        up: d.vec3()?,
        forward: d.vec3()?,
        wheel_count: d.u32()?,
        ..VehicleDef::default()
    };
    check(
        (1..=MAX_WHEELS as u32).contains(&def.wheel_count),
        "a vehicle's wheel count out of range",
    )?;
    for w in def.wheels[..def.wheel_count as usize].iter_mut() {
        *w = decode_wheel(d)?;
    }
    def.engine = EngineDef {
        max_torque: d.f32()?,
        min_rpm: d.f32()?,
        max_rpm: d.f32()?,
        torque_curve: [d.f32()?, d.f32()?, d.f32()?],
    };
    let mut t = TransmissionDef {
        gear_count: d.u32()?,
        ..TransmissionDef::default()
    };
    check(
        (1..=MAX_GEARS as u32).contains(&t.gear_count),
        "a vehicle's gear count out of range",
    )?;
    for g in t.gears[..t.gear_count as usize].iter_mut() {
        *g = d.f32()?;
    }
    t.reverse_ratio = d.f32()?;
    t.differential_ratio = d.f32()?;
    t.automatic = d.bool()?;
    t.shift_up_rpm = d.f32()?;
    t.shift_down_rpm = d.f32()?;
    def.transmission = t;
    def.anti_roll_bar_count = d.u32()?;
    check(
        def.anti_roll_bar_count <= MAX_ANTI_ROLL_BARS as u32,
        "a vehicle's anti-roll bar count out of range",
    )?;
    for b in def.anti_roll_bars[..def.anti_roll_bar_count as usize].iter_mut() {
        *b = AntiRollBar {
            left: d.u32()?,
            right: d.u32()?,
            stiffness: d.f32()?,
        };
    }
    def.cast_mask = d.u64()?;
    Ok(def)
}

/// The def with its unused wheels, gears and bars at their defaults (what a create keeps,
/// so a replayed or restored vehicle holds the same def).
pub(crate) fn trimmed(def: &VehicleDef) -> VehicleDef {
    let base = VehicleDef::default();
    let mut d = *def;
    d.wheels[d.wheel_count as usize..].copy_from_slice(&base.wheels[d.wheel_count as usize..]);
    let g = d.transmission.gear_count as usize;
    d.transmission.gears[g..].copy_from_slice(&base.transmission.gears[g..]);
    let b = d.anti_roll_bar_count as usize;
    d.anti_roll_bars[b..].copy_from_slice(&base.anti_roll_bars[b..]);
    d
}

fn encode_input<S: Sink>(e: &mut Enc<S>, i: &VehicleInput) {
    e.f32(i.throttle);
    e.f32(i.steering);
    e.f32(i.brake);
    e.f32(i.handbrake);
}

fn decode_input(d: &mut Dec) -> Result<VehicleInput> {
    Ok(VehicleInput {
        throttle: d.f32()?,
        steering: d.f32()?,
        brake: d.f32()?,
        handbrake: d.f32()?,
    })
}

impl Field for VehicleDef {
    type In<'a> = &'a VehicleDef;
    fn put<S: Sink>(def: &VehicleDef, e: &mut Enc<S>) {
        BodyId::put(def.chassis, e);
        encode_settings(e, def);
    }
    fn get(d: &mut Dec, tag: u32) -> Result<VehicleDef> {
        let chassis = BodyId::get(d, tag)?;
        Ok(VehicleDef {
            chassis,
            ..decode_settings(d)?
        })
    }
}

impl Field for VehicleInput {
    type In<'a> = VehicleInput;
    fn put<S: Sink>(i: VehicleInput, e: &mut Enc<S>) {
        encode_input(e, &i);
    }
    fn get(d: &mut Dec, _: u32) -> Result<VehicleInput> {
        decode_input(d)
    }
}

/// A live vehicle's state: chassis slot, settings, input, each wheel's spin, rotation,
/// suspension length and steering angle, gear, engine speed. What the wheels last found is
/// derived and not written.
pub(crate) fn encode_vehicle<S: Sink>(e: &mut Enc<S>, v: &Vehicle) {
    e.u32(v.chassis);
    encode_settings(e, &v.def);
    encode_input(e, &v.input);
    for w in &v.wheels[..v.wheel_count()] {
        e.f32(w.angular_velocity);
        e.f32(w.rotation);
        e.f32(w.suspension_length);
        e.f32(w.steer_angle);
    }
    e.i32(v.gear);
    e.f32(v.engine_rpm);
}

/// Reads what `encode_vehicle` wrote into `v`, checked as the calls check their input;
/// `bodies`: the bodies' slot words (the chassis must be live).
pub(crate) fn decode_vehicle(d: &mut Dec, v: &mut Vehicle, bodies: &[u64]) -> Result<()> {
    v.chassis = d.u32()?;
    check(
        crate::snapshot::is_live(bodies, v.chassis),
        "a vehicle on a missing chassis",
    )?;
    v.def = decode_settings(d)?;
    v.def
        .checked()
        .map_err(|_| Error::Format("a vehicle's settings out of range"))?;
    v.input = decode_input(d)?;
    v.input
        .check()
        .map_err(|_| Error::Format("a vehicle's input out of range"))?;
    let two_pi = 2.0 * core::f32::consts::PI;
    for (w, wd) in v.wheels[..v.def.wheel_count as usize]
        .iter_mut()
        .zip(v.def.wheels)
    {
        w.angular_velocity = d.f32()?;
        w.rotation = d.f32()?;
        w.suspension_length = d.f32()?;
        w.steer_angle = d.f32()?;
        check(
            w.angular_velocity.abs() <= MAX_VELOCITY
                && (0.0..two_pi).contains(&w.rotation)
                && (wd.min_length..=wd.max_length).contains(&w.suspension_length)
                && w.steer_angle.abs() <= wd.max_steer_angle,
            "a vehicle's wheel state out of range",
        )?;
    }
    v.gear = d.i32()?;
    v.engine_rpm = d.f32()?;
    check(
        (-1..=v.def.transmission.gear_count as i32).contains(&v.gear)
            && (0.0..=1.0e5).contains(&v.engine_rpm),
        "a vehicle's gear or engine speed out of range",
    )?;
    Ok(())
}
