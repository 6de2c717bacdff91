//! `Maul3DRollback`: a node that keeps a ring of snapshots of one space, one per tick,
//! restores any of them and resimulates from it, stepping with `Maul3D.step_space`.
//!
//! Ticks: the snapshot of tick `t` is the world before tick `t`'s inputs are applied and
//! its step taken (the state after `t` steps from tick 0). `resimulate(to, input)` runs,
//! for each `t` from the current tick to `to - 1`: `input.call(t)`, one step, then
//! `capture(t + 1)`; so advancing one ordinary tick is `resimulate(tick + 1, input)`.

use godot::classes::{Engine, INode, Node, ProjectSettings};
use godot::prelude::*;

use crate::singleton::{
    report, restore, set_block_signals, step_space, with_state, with_state_mut,
};

/// One captured tick: its number, the world's snapshot, the world's hash then.
struct Slot {
    tick: i64,
    snapshot: Vec<u8>,
    hash: i64,
}

/// Rollback for netcode: keeps a ring of snapshots of one space, one per tick, restores
/// any of them and resimulates from it, stepping with `Maul3D.step_space`.
///
/// The snapshot of tick `t` is the world before tick `t`'s inputs are applied and its step
/// taken (the state after `t` steps from tick 0). `resimulate(to, input)` runs, for each
/// `t` from the current tick to `to - 1`: `input.call(t)`, one step, then `capture(t + 1)`;
/// so advancing one ordinary tick is `resimulate(tick + 1, input)`. By default the node
/// puts its space in manual step mode (`manual_step`), so only `resimulate` steps it, and
/// blocks signals while rolling back (`emit_signals`).
#[derive(GodotClass)]
#[class(base = Node)]
pub struct Maul3DRollback {
    /// The space it rolls back: unset (an invalid RID) means the space of the `World3D`
    /// of the node's viewport.
    #[var]
    space: Rid,
    /// How many ticks the ring keeps (a rollback reaches back `capacity - 1` ticks).
    /// Setting it clears the ring.
    #[var(get = get_capacity, set = set_capacity)]
    capacity: i64,
    /// The step length; 0: 1 / `physics/common/physics_ticks_per_second`.
    #[var]
    delta: f64,
    /// Whether `rollback_to` and `resimulate` let nodes emit signals (Area3D entries,
    /// contact-monitor signals, sleeping changes); false (the default) blocks them, the
    /// node states still follow (see `Maul3D.set_space_block_signals`).
    #[var]
    emit_signals: bool,
    /// Whether the node puts its space in manual step mode when it enters the tree (and
    /// back to Godot's automatic step when it leaves), so that only `resimulate` steps it.
    #[var]
    manual_step: bool,
    /// The tick the world is at: the last one captured or rolled back to; -1 before any.
    current_tick: i64,
    ring: Vec<Option<Slot>>,
    base: Base<Node>,
}

#[godot_api]
impl INode for Maul3DRollback {
    fn init(base: Base<Node>) -> Self {
        Self {
            space: Rid::Invalid,
            capacity: 64,
            delta: 0.0,
            emit_signals: false,
            manual_step: true,
            current_tick: -1,
            ring: (0..64).map(|_| None).collect(),
            base,
        }
    }

    fn enter_tree(&mut self) {
        if self.manual_step {
            let space = self.space_rid();
            let r = with_state_mut(|st| {
                st.spaces
                    .get_mut(&space.to_u64())
                    .map(|s| s.manual_step = true)
                    .ok_or_else(|| format!("{space} is not a Maul3D space"))
            });
            report("Maul3DRollback (manual_step)", r);
        }
    }

    fn exit_tree(&mut self) {
        if self.manual_step {
            let space = self.space_rid();
            // The space may be gone with its world already: nothing to put back then.
            let _ = with_state_mut(|st| {
                if let Some(s) = st.spaces.get_mut(&space.to_u64()) {
                    s.manual_step = false;
                }
                Ok(())
            });
        }
    }
}

#[godot_api]
impl Maul3DRollback {
    /// How many ticks the ring keeps.
    #[func]
    fn get_capacity(&self) -> i64 {
        self.capacity
    }

    /// Sets how many ticks the ring keeps (2 to 65536) and clears the ring; out of range:
    /// an error, nothing changes.
    #[func]
    fn set_capacity(&mut self, capacity: i64) {
        if !(2..=65536).contains(&capacity) {
            godot_error!("Maul3DRollback.capacity: {capacity} is not in [2, 65536]");
            return;
        }
        self.capacity = capacity;
        self.ring = (0..capacity).map(|_| None).collect();
    }

    /// The space this node works on (its `space`, or its viewport's world's space).
    #[func]
    pub fn get_target_space(&self) -> Rid {
        self.space_rid()
    }

    /// The tick the world is at (the last captured or rolled back to); -1 before any.
    #[func]
    pub fn get_current_tick(&self) -> i64 {
        self.current_tick
    }

    /// The oldest tick the ring holds (-1 when empty): `rollback_to` reaches back to it,
    /// and a body freed at a tick after it cannot be rolled back correctly (README).
    #[func]
    pub fn get_oldest_tick(&self) -> i64 {
        self.ring
            .iter()
            .flatten()
            .map(|s| s.tick)
            .min()
            .unwrap_or(-1)
    }

    /// Whether the ring holds tick `tick`.
    #[func]
    pub fn has_tick(&self, tick: i64) -> bool {
        self.slot(tick).is_some()
    }

    /// The world's hash when tick `tick` was captured (0, with an error, when the ring
    /// does not hold it).
    #[func]
    pub fn get_tick_hash(&self, tick: i64) -> i64 {
        match self.slot(tick) {
            Some(s) => s.hash,
            None => {
                godot_error!("Maul3DRollback.get_tick_hash: tick {tick} is not in the ring");
                0
            }
        }
    }

    /// Snapshots the world as tick `tick` (replacing what the ring held for the tick
    /// `capacity` before) and makes it the current tick. False (with an error) for a
    /// negative tick or a space that is not Maul3D's.
    #[func]
    pub fn capture(&mut self, tick: i64) -> bool {
        if tick < 0 {
            godot_error!("Maul3DRollback.capture: tick {tick} is negative");
            return false;
        }
        let space = self.space_rid().to_u64();
        let r = with_state(|st| {
            let snapshot = st.snapshot(space)?;
            Ok((snapshot, st.space(space)?.world.hash() as i64))
        });
        let Some((snapshot, hash)) = report("Maul3DRollback.capture", r) else {
            return false;
        };
        let i = self.index(tick);
        self.ring[i] = Some(Slot {
            tick,
            snapshot,
            hash,
        });
        self.current_tick = tick;
        true
    }

    /// Restores the world to tick `tick` from the ring (`Maul3D.restore`: rigid body
    /// nodes move back, areas update; signals as `emit_signals` says), makes it the
    /// current tick and forgets the ticks after it (a future to be resimulated). False
    /// (with an error, nothing changed) when the ring does not hold the tick or the
    /// restore is refused.
    #[func]
    pub fn rollback_to(&mut self, tick: i64) -> bool {
        let Some(slot) = self.slot(tick) else {
            godot_error!(
                "Maul3DRollback.rollback_to: tick {tick} is not in the ring (oldest {}, current {})",
                self.get_oldest_tick(),
                self.current_tick
            );
            return false;
        };
        let snapshot = slot.snapshot.clone();
        let space = self.space_rid();
        let ok = self.with_signals(space, || restore(space, &snapshot));
        if !ok {
            return false;
        }
        for s in self.ring.iter_mut() {
            if s.as_ref().is_some_and(|s| s.tick > tick) {
                *s = None;
            }
        }
        self.current_tick = tick;
        true
    }

    /// Steps the world from the current tick to `to_tick`: for each tick `t` on the way,
    /// `input_callable.call(t)` (the game applies tick `t`'s inputs: forces, velocities,
    /// `move_and_slide`, spawns), one `Maul3D.step_space`, then `capture(t + 1)`.
    /// Signals as `emit_signals` says. An invalid callable applies no inputs. False (with
    /// an error) when no tick is current yet, `to_tick` is behind the current tick, or a
    /// step fails (the ticks before it stay done).
    #[func]
    pub fn resimulate(&mut self, to_tick: i64, input_callable: Callable) -> bool {
        if self.current_tick < 0 {
            godot_error!("Maul3DRollback.resimulate: no tick captured yet (call capture first)");
            return false;
        }
        if to_tick < self.current_tick {
            godot_error!(
                "Maul3DRollback.resimulate: to_tick {to_tick} is behind the current tick {}",
                self.current_tick
            );
            return false;
        }
        let space = self.space_rid();
        let delta = self.step_delta();
        while self.current_tick < to_tick {
            let t = self.current_tick;
            if input_callable.is_valid() {
                // The game's code runs without this node borrowed (it may call back).
                let callable = input_callable.clone();
                let _guard = self.base_mut();
                callable.call(&[t.to_variant()]);
            }
            let stepped = self.with_signals(space, || step_space(space, delta));
            if !stepped || !self.capture(t + 1) {
                return false;
            }
        }
        true
    }
}

impl Maul3DRollback {
    fn space_rid(&self) -> Rid {
        if self.space.is_valid() {
            return self.space;
        }
        self.base()
            .get_viewport()
            .and_then(|v| v.find_world_3d())
            .map(|w| w.get_space())
            .unwrap_or(Rid::Invalid)
    }

    fn step_delta(&self) -> f64 {
        if self.delta > 0.0 {
            return self.delta;
        }
        let tps = Engine::singleton().get_physics_ticks_per_second();
        if tps > 0 {
            return 1.0 / tps as f64;
        }
        let v = ProjectSettings::singleton().get_setting("physics/common/physics_ticks_per_second");
        1.0 / v.try_to::<i64>().unwrap_or(60).max(1) as f64
    }

    fn index(&self, tick: i64) -> usize {
        tick.rem_euclid(self.capacity) as usize
    }

    fn slot(&self, tick: i64) -> Option<&Slot> {
        if tick < 0 {
            return None;
        }
        self.ring[self.index(tick)]
            .as_ref()
            .filter(|s| s.tick == tick)
    }

    /// Runs `f` with the space's signals blocked unless `emit_signals`, the space's own
    /// setting put back after. The node is not borrowed while `f` runs callbacks.
    fn with_signals(&mut self, space: Rid, f: impl FnOnce() -> bool) -> bool {
        let block = !self.emit_signals;
        let before = match set_block_signals(space, block) {
            Ok(b) => b,
            Err(e) => {
                godot_error!("Maul3DRollback: {e}");
                return false;
            }
        };
        let r = {
            let _guard = self.base_mut();
            f()
        };
        let _ = set_block_signals(space, before);
        r
    }
}
