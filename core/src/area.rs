//! Override regions ("areas", Godot's Area3D space overrides): a sensor shape that sets or
//! adds gravity and damping for the bodies overlapping it.
//!
//! The bodies an area acts on in a step are those its sensor overlapped at the end of the
//! previous step (the sensor overlap list, which is state), so a restored world applies
//! the same overrides. For each body the areas are taken highest priority first (ties: the
//! lower sensor shape slot first), as Godot does:
//! - `Combine` adds the area's value and goes on to lower priorities,
//! - `CombineReplace` adds it and stops,
//! - `Replace` replaces what was gathered and stops,
//! - `ReplaceCombine` replaces what was gathered and goes on;
//!
//! if nothing stopped, the world's gravity (or the body's damping) is added at the end.

use crate::math::{DVec3, Vec3, sqrt};

/// How an area's value joins the others.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum AreaMode {
    /// The area does not touch this quantity.
    #[default]
    Disabled = 0,
    /// Add, go on.
    Combine = 1,
    /// Add, stop.
    CombineReplace = 2,
    /// Replace, stop.
    Replace = 3,
    /// Replace, go on.
    ReplaceCombine = 4,
}

impl AreaMode {
    pub(crate) fn from_u8(v: u8) -> Option<AreaMode> {
        Some(match v {
            0 => AreaMode::Disabled,
            1 => AreaMode::Combine,
            2 => AreaMode::CombineReplace,
            3 => AreaMode::Replace,
            4 => AreaMode::ReplaceCombine,
            _ => return None,
        })
    }
}

/// An area's gravity.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum AreaGravity {
    /// A fixed acceleration, m/s².
    Directional(Vec3),
    /// Towards a point of the sensor's body (body frame): `strength` m/s² at
    /// `unit_distance`, falling off with the square of the distance beyond it; with
    /// `unit_distance` 0, `strength` everywhere.
    Point {
        /// The point, in the sensor body's frame.
        center: Vec3,
        /// Acceleration at `unit_distance`, m/s².
        strength: f32,
        /// Distance at which the acceleration is `strength`; 0 for no falloff.
        unit_distance: f32,
    },
}

/// What an area overrides.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AreaSettings {
    /// Higher priorities are applied first.
    pub priority: i32,
    /// How the gravity joins.
    pub gravity_mode: AreaMode,
    /// The gravity.
    pub gravity: AreaGravity,
    /// How the linear damping joins.
    pub linear_damping_mode: AreaMode,
    /// Linear damping, 1/s.
    pub linear_damping: f32,
    /// How the angular damping joins.
    pub angular_damping_mode: AreaMode,
    /// Angular damping, 1/s.
    pub angular_damping: f32,
}

impl Default for AreaSettings {
    fn default() -> AreaSettings {
        AreaSettings {
            priority: 0,
            gravity_mode: AreaMode::Disabled,
            gravity: AreaGravity::Directional(Vec3::ZERO),
            linear_damping_mode: AreaMode::Disabled,
            linear_damping: 0.0,
            angular_damping_mode: AreaMode::Disabled,
            angular_damping: 0.0,
        }
    }
}

/// Folds one quantity over areas in priority order.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Fold<T> {
    pub value: T,
    pub stopped: bool,
}

impl<T: Copy + core::ops::Add<Output = T>> Fold<T> {
    pub(crate) fn new(zero: T) -> Fold<T> {
        Fold {
            value: zero,
            stopped: false,
        }
    }

    pub(crate) fn apply(&mut self, mode: AreaMode, v: T) {
        if self.stopped {
            return;
        }
        match mode {
            AreaMode::Disabled => {}
            AreaMode::Combine => self.value = self.value + v,
            AreaMode::CombineReplace => {
                self.value = self.value + v;
                self.stopped = true;
            }
            AreaMode::Replace => {
                self.value = v;
                self.stopped = true;
            }
            AreaMode::ReplaceCombine => self.value = v,
        }
    }

    /// The default joins at the end unless an area stopped the fold.
    pub(crate) fn finish(self, default: T) -> T {
        if self.stopped {
            self.value
        } else {
            self.value + default
        }
    }
}

/// An area's gravity at a body's centre of mass.
pub(crate) fn gravity_at(
    g: &AreaGravity,
    area_origin: DVec3,
    area_rotation: crate::math::Quat,
    at: DVec3,
) -> Vec3 {
    match *g {
        AreaGravity::Directional(v) => v,
        AreaGravity::Point {
            center,
            strength,
            unit_distance,
        } => {
            // Relative to the area's point: an exact f64 difference, then f32.
            let c = area_origin + area_rotation.rotate(center).to_f64();
            let d: Vec3 = (c - at).to_f32();
            let r2 = d.length_squared();
            if r2 <= 1e-12 {
                return Vec3::ZERO;
            }
            let r = sqrt(r2);
            let magnitude = if unit_distance > 0.0 {
                let u = unit_distance / r;
                strength * u * u
            } else {
                strength
            };
            d * (magnitude / r)
        }
    }
}
