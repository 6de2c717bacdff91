//! The world calls that change a world as a whole: gravity, sleep, the step, the origin
//! shift, and explosions. Each checks and applies through its `*_unrecorded` function
//! (`world.rs`, `explosion.rs`), then records itself; a step records the contacts its
//! pre-solve callback disabled with it.

use crate::combine::CombineRule;
#[cfg(doc)]
use crate::error::Error;
use crate::error::Result;
use crate::explosion::ExplosionDef;
use crate::grow::Capacities;
use crate::math::{DVec3, Vec3};
use crate::world::World;

impl World {
    /// Sets gravity (wakes nothing: sleeping islands stay asleep, as in Box2D).
    pub fn set_gravity(&mut self, gravity: Vec3) -> Result<()> {
        self.set_gravity_unrecorded(gravity)?;
        self.rec(|j| j.set_gravity(gravity));
        Ok(())
    }

    /// Turns sleep on or off for the whole world; turning it off wakes every body.
    pub fn enable_sleep(&mut self, enable: bool) {
        self.enable_sleep_unrecorded(enable);
        self.rec(|j| j.enable_sleep(enable));
    }

    /// Sets how contacts combine their shapes' friction and restitution (see
    /// [`CombineRule`]), from the next step on. Journaled.
    pub fn set_combine_rules(&mut self, friction: CombineRule, restitution: CombineRule) {
        self.set_combine_rules_unrecorded(friction, restitution);
        self.rec(|j| j.set_combine_rules(friction, restitution));
    }

    /// Advances the world by `dt` seconds (1e-4 to 10) in `substeps` substeps (1 to 256).
    /// Refused with nothing changed if an argument is out of range, or if a body could
    /// leave ±2^22 during the step (see [`Error::BodyOutOfBounds`]): the error names the
    /// first such body, and the world steps again once it is moved, slowed (a kinematic
    /// body), disabled, made static or destroyed.
    pub fn step(&mut self, dt: f32, substeps: u32) -> Result<()> {
        self.step_unrecorded(dt, substeps)?;
        self.record_step(dt, substeps);
        Ok(())
    }

    /// Records the step that just ran, with the contacts its pre-solve callback disabled
    /// (a replay applies them instead of calling the callback).
    fn record_step(&mut self, dt: f32, substeps: u32) {
        if let Some(j) = self.recorder.as_mut() {
            j.step(dt, substeps, &self.presolve.disabled);
        }
    }

    /// Moves the world origin by `offset`: every stored position decreases by it and the
    /// origin grows by it, exactly. Components must be multiples of 2^-32 within ±2^22, and
    /// no stored position may leave ±2^22; otherwise refused with nothing changed.
    pub fn shift_origin(&mut self, offset: DVec3) -> Result<()> {
        self.shift_origin_unrecorded(offset)?;
        self.rec(|j| j.shift_origin(offset));
        Ok(())
    }

    /// Enlarges the world's capacities to `capacities`, between steps (the only call that
    /// allocates after `new`: the grown buffers, through the world's allocator). The state,
    /// ids, hash, user data, journal and the last step's events stay as they were;
    /// capacities are not state, so the world steps on exactly as one created this large
    /// would. A capacity below the world's own, or past `WorldDef`'s bounds, is refused
    /// with an argument error; a refused allocation is a capacity error; either way nothing
    /// changes. Equal capacities change nothing. Recorded in the journal, so a replay grows
    /// at the same point. [`World::growth_needed`] says when and how much.
    pub fn grow(&mut self, capacities: &Capacities) -> Result<()> {
        // The grown world replaces this one; the journal goes across.
        let recorder = self.recorder.take();
        let grown = self.grow_unrecorded(capacities);
        self.recorder = recorder;
        grown?;
        self.rec(|j| j.grow(capacities));
        Ok(())
    }

    /// Applies an explosion's impulses now, waking the bodies it pushes. Recorded in the
    /// journal. Each shape's impulse is held within `limits::MAX_IMPULSE`.
    pub fn explode(&mut self, def: &ExplosionDef) -> Result<()> {
        self.explode_unrecorded(def)?;
        self.rec(|j| j.explode(def));
        Ok(())
    }
}
