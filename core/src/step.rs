//! The step: its checks, then the stages in order — vehicles' wheels and water volumes'
//! forces, pairs, collide, pre-solve, solve, move events and sensors, characters riding
//! their floors, soft bodies in their own substeps — and the bounds check that refuses a step a body could leave
//! the coordinate range in.

use crate::body::{Body, BodyType};
use crate::error::{Error, Result};
use crate::events::BodyMoveEvent;
use crate::math::POSITION_LIMIT;
use crate::profile::Timer;
use crate::world::World;

impl World {
    /// The step's arguments within range and no body able to leave ±2^22 in it.
    pub(crate) fn check_step(&mut self, dt: f32, substeps: u32) -> Result<()> {
        if !(dt.is_finite() && (1e-4..=10.0).contains(&dt)) {
            return Err(Error::Argument {
                name: "dt",
                value: dt as f64,
                expected: "finite and within [1e-4, 10] seconds",
            });
        }
        if !(1..=256).contains(&substeps) {
            return Err(Error::Argument {
                name: "substeps",
                value: substeps as f64,
                expected: "within [1, 256]",
            });
        }
        if let Some((slot, value)) = self.body_that_could_leave_bounds(dt) {
            return Err(Error::BodyOutOfBounds {
                body: self.body_id(slot),
                value,
                bound: POSITION_LIMIT,
            });
        }
        Ok(())
    }

    /// Runs the stages of one step (checked by [`World::check_step`]).
    pub(crate) fn run_step(&mut self, dt: f32, substeps: u32) {
        debug_assert!(
            self.awake_set_matches(),
            "awake set out of step with the bodies"
        );
        let total = Timer::start();
        self.contacts.begin_events.clear();
        self.contacts.end_events.clear();
        self.contacts.hit_events.clear();
        self.bodies.move_events.clear();
        self.counters.dropped_begin_events = 0;
        self.counters.dropped_end_events = 0;
        self.counters.dropped_hit_events = 0;
        self.joints.break_events.clear();
        self.counters.dropped_joint_break_events = 0;
        self.counters.soft_shapes_dropped = 0;
        self.counters.speed_caps = 0;
        self.counters.rotation_clamps = 0;

        // The vehicles' wheels first (SPEC's step order), then the water volumes' buoyancy
        // and drag: forces the solver integrates with gravity.
        self.step_vehicles(dt);
        self.apply_water(dt);

        let t = Timer::start();
        self.update_pairs();
        self.profile.pairs = t.elapsed_ms();

        let t = Timer::start();
        let moving = self.awake.moving_changes();
        self.collide();
        // Bodies a touch woke join: presolve and the solver read these contacts.
        if self.awake.moving_changes() != moving {
            self.gather_moving_contacts();
        }
        self.run_pre_solve();
        self.profile.collide = t.elapsed_ms();

        crate::solver::solve(self, dt, substeps);

        let t = Timer::start();
        self.collect_move_events();
        self.update_sensors();
        self.profile.sensors = t.elapsed_ms();

        // After the move events: the characters ride the floors that moved under them.
        self.ride_characters(dt);

        // Last, the soft bodies in their own substeps, against the rigid shapes where the
        // step left them.
        let t = Timer::start();
        self.step_soft_bodies(dt);
        self.profile.soft = t.elapsed_ms();

        // Wraps rather than overflows: a restored step count may be any u64.
        self.step_index = self.step_index.wrapping_add(1);
        self.profile.step = total.elapsed_ms();
    }

    /// Records a move event for every body the solver moved, in solver order, each
    /// written by whichever worker takes it.
    fn collect_move_events(&mut self) {
        let n = self.solver.params.len();
        if n == 0 {
            return;
        }
        let tag = self.tag;
        let event = |bodies: &crate::store::bodies::BodyStore, k: usize| {
            let bi = self.solver.params[k].body;
            let b = &bodies[bi as usize];
            BodyMoveEvent {
                body: bodies.id(bi, tag),
                position: b.position,
                rotation: b.rotation,
                fell_asleep: !b.awake,
            }
        };
        // One move event per body at most: the buffer holds the body capacity.
        let mut events = core::mem::replace(
            &mut self.bodies.move_events,
            crate::alloc::FixedVec::empty(self.alloc),
        );
        events.resize(n, event(&self.bodies, 0));
        let out = crate::task::Slots::new(&mut events[..n]);
        let bodies = &self.bodies;
        // By blocks of solver bodies, each thread at its own share (as finalize wrote
        // them). SAFETY: each entry is in one block.
        self.tasks.for_blocks(n, 256, &|range| {
            for k in range {
                *unsafe { out.get(k) } = event(bodies, k);
            }
        });
        self.bodies.move_events = events;
    }

    /// The first enabled dynamic or kinematic body (in slot order) whose bounds could
    /// reach ±2^22 during a step of `dt`, with how far out they could reach. A step
    /// moves a body's centre of mass by at most its speed times `dt` — a dynamic body's
    /// speed is capped at `max_linear_speed` through the whole step, a kinematic body
    /// keeps its velocity — and its origin and shapes lie around that centre as
    /// [`Body::reach_at_rest`] counts, so checking this
    /// before the step means no step ever carries a body past the bound, and nothing
    /// about the refusal is stored: the world steps as soon as the body is dealt with.
    /// Sleeping bodies count too (a contact may wake them during the step).
    ///
    /// The moving bodies are checked one by one; the resting ones through the awake set's
    /// bound on their reach, and only when that bound comes near the limit (or is unknown)
    /// are all bodies scanned, in slot order, as the first offender must be named.
    fn body_that_could_leave_bounds(&mut self, dt: f32) -> Option<(u32, f64)> {
        let max_speed = self.def.max_linear_speed;
        if self.awake.rest_within(dt, max_speed, POSITION_LIMIT) {
            // Whether any moving body could, word by word of the awake bits through the
            // task hooks; then, only when one could, the first of them in slot order.
            let words = self.awake.moving_words();
            let bodies = &self.bodies[..];
            let any = core::sync::atomic::AtomicBool::new(false);
            self.tasks.for_each(words.len(), 16, &|w, _| {
                let mut slots = crate::solver::awake::Bits::new(words[w], w);
                if slots.any(|s| reach_past_limit(&bodies[s as usize], max_speed, dt).is_some()) {
                    any.store(true, core::sync::atomic::Ordering::Relaxed);
                }
            });
            if !any.into_inner() {
                return None;
            }
            return self.awake.iter().find_map(|slot| {
                reach_past_limit(&bodies[slot as usize], max_speed, dt).map(|far| (slot, far))
            });
        }
        let found = (self.bodies.iter().enumerate())
            .find_map(|(slot, b)| reach_past_limit(b, max_speed, dt).map(|far| (slot as u32, far)));
        if found.is_none() {
            self.measure_rest_reach();
        }
        found
    }
}

/// How far out an enabled dynamic or kinematic body could reach in a step of `dt` with
/// dynamic bodies capped at `max_speed`, when that is past the coordinate limit.
#[inline(always)]
fn reach_past_limit(b: &Body, max_speed: f32, dt: f32) -> Option<f64> {
    if !b.alive || !b.enabled || b.body_type == BodyType::Static {
        return None;
    }
    let speed = match b.body_type {
        BodyType::Dynamic => max_speed,
        _ => b.linear_velocity.length(),
    };
    let far = b.reach_at_rest() + speed as f64 * dt as f64;
    (far >= POSITION_LIMIT).then_some(far)
}
