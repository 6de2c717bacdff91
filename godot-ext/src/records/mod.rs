//! The server's records: Godot's shapes, bodies, areas, joints and spaces by RID, and how
//! each maps onto `maul3d` worlds.
//!
//! A Godot body or area lives apart from any space until Godot gives it one; the server
//! keeps its settings and state here and, while it is in a space, mirrors it as one
//! `maul3d` body (an area as a body of sensor shapes). When the set of shapes changes,
//! the `maul3d` body is rebuilt from the record; settings go through `maul3d`'s setters.
//! Every map is ordered by RID number (RIDs are handed out in call order), so what the
//! worlds receive depends only on the order of Godot's calls.
//!
//! | file | holds |
//! |---|---|
//! | `mod.rs` | `Records` (every map), `Space`, space create/free |
//! | `shapes.rs` | shape resources, core shapes made from them, query probes |
//! | `bodies.rs` | body and area records, their `maul3d` bodies, the body calls |
//! | `areas.rs` | area parameters and settings, area overlaps and area monitoring |
//! | `joints.rs` | Godot joints and the `maul3d` joints made from them |
//! | `step.rs` | stepping the spaces and what a step reports (moves, area events, contacts) |
//! | `persistence.rs` | snapshot, restore, journal, replay, compare |
//! | `exceptions.rs` | collision exceptions through the pre-solve callback |
//! | `extras.rs` | the characters and water volumes of Maul3D's own nodes |
//!
//! Soft bodies keep their records in `Records::softs`, handled in `crate::soft`.

mod areas;
mod bodies;
mod exceptions;
mod extras;
mod growth;
mod joints;
mod persistence;
mod shapes;
mod step;

pub(crate) use areas::AreaParams;
pub(crate) use bodies::{CoreObj, Obj, PAST_BODIES, layer_mask_filter};
pub(crate) use exceptions::{Exceptions, exceptions_pre_solve};
pub(crate) use extras::Extras;
pub(crate) use joints::{GJoint, GJointKind};
pub(crate) use shapes::{EMPTY_PAIR, GShape, ShapeSlot};
pub(crate) use step::ReportedContact;

use std::collections::{BTreeMap, BTreeSet};

use godot::classes::physics_server_3d::{AreaSpaceOverrideMode, SpaceParameter};
use godot::prelude::*;
use maul3d::{BodyId, ShapeId, World};

use crate::errors::error_once;
use crate::settings::space_world_def;

/// One Godot space: its world, its default area's settings, what was queued for
/// `flush_queries`.
pub(crate) struct Space {
    pub world: World,
    pub active: bool,
    pub default_area: AreaParams,
    pub params: BTreeMap<i32, f32>,
    pub direct: Option<Gd<crate::direct::Maul3DSpaceState>>,
    /// Bodies that moved in the last step, in event order.
    pub moved: Vec<u64>,
    /// Area events of the last step: (area, status, other object, other shape, area shape).
    pub area_events: Vec<(u64, i32, u64, i32, i32)>,
    /// The same for areas entering and leaving monitoring areas.
    pub area_area_events: Vec<(u64, i32, u64, i32, i32)>,
    pub last_step: f32,
    /// The static body that joints pinned to the world attach to (made on first use).
    pub anchor: Option<BodyId>,
    /// The snapshot taken when the journal started (the replay's starting point).
    pub journal_start: Option<Vec<u8>>,
    /// Kinematic bodies given a target transform since the last step, with the target
    /// (the last one given wins), by body id (the order the step applies them in): the
    /// step gives each the velocity that reaches it in that step's length (Godot Physics
    /// and Jolt move a kinematic body by transform so).
    pub kinematic_targets: BTreeMap<BodyId, KinematicTarget>,
    /// Collision exceptions, the pre-solve callback's context (boxed: its address is
    /// handed to the world).
    pub exceptions: Box<Exceptions>,
    /// Every core shape of the records' objects in this world: its object's RID and its
    /// Godot shape index there. Queries and events name shapes by it (not by packing the
    /// index into the shape's user data), so a body may have any number of shapes.
    pub shape_owners: BTreeMap<ShapeId, (u64, i32)>,
    /// At most this many debug contact points (`space_set_debug_contacts`; 0: none, as
    /// when "Visible Collision Shapes" is off).
    pub debug_contacts: i32,
    /// Manual step mode (`Maul3D.set_space_manual_step`): Godot's automatic step leaves
    /// the space alone; only `Maul3D.step_space` steps it.
    pub manual_step: bool,
    /// While set (`Maul3D.set_space_block_signals`), the nodes whose callbacks a flush of
    /// this space runs have their signals blocked during the call: they still follow the
    /// state (transforms, overlap and contact lists), but emit nothing.
    pub block_signals: bool,
    /// The objects the step has per-tick work for, so a tick's cost follows them, not
    /// every object of the space (sleeping ones included).
    pub watch: Watch,
    /// The characters and water volumes Maul3D's own nodes made here, by owner.
    pub extras: Extras,
}

/// The objects of a space that a step does work for besides the world's own step, each
/// set by RID (the order a walk of every object would find them in, so the world gets
/// the same calls in the same order). Kept by `Records::watch` from the setters;
/// `Records::step` walks these instead of every object.
#[derive(Default)]
pub(crate) struct Watch {
    /// Objects with a constant force or torque (applied each step while dynamic).
    pub forced: BTreeSet<u64>,
    /// Bodies reporting contacts (`max_contacts_reported` > 0).
    pub reporters: BTreeSet<u64>,
    /// Areas with an area-monitor callback.
    pub area_monitors: BTreeSet<u64>,
    /// Kinematic bodies that may have a velocity (given a target in the last step, made,
    /// changed or restored since): every kinematic body with a velocity is here, so the
    /// step stops the ones not moved since; the ones it finds still drop out.
    pub kinematic: BTreeSet<u64>,
}

impl Watch {
    fn forget(&mut self, rid: u64) {
        self.forced.remove(&rid);
        self.reporters.remove(&rid);
        self.area_monitors.remove(&rid);
        self.kinematic.remove(&rid);
    }
}

/// Where a kinematic body moved by transform is to be after the next step.
#[derive(Clone, Copy)]
pub(crate) struct KinematicTarget {
    pub position: maul3d::math::DVec3,
    pub rotation: maul3d::math::Quat,
}

impl Space {
    /// The Godot object and shape index of a core shape; (0, 0), Godot's "none", for a
    /// shape no record holds.
    pub fn shape_owner(&self, id: ShapeId) -> (u64, i32) {
        self.shape_owners.get(&id).copied().unwrap_or((0, 0))
    }

    /// Records the core shapes of an object made in this world.
    pub fn own_shapes(&mut self, rid: u64, core: &CoreObj) {
        for (i, (shape, _)) in core.shapes.iter().enumerate() {
            if let Some(id) = shape {
                self.shape_owners.insert(*id, (rid, i as i32));
            }
        }
    }
}

/// Every record of one server, each map by RID number.
#[derive(Default)]
pub(crate) struct Records {
    next_rid: u64,
    pub spaces: BTreeMap<u64, Space>,
    pub shapes: BTreeMap<u64, GShape>,
    pub objs: BTreeMap<u64, Obj>,
    pub joints: BTreeMap<u64, GJoint>,
    /// Soft bodies (`crate::soft`).
    pub softs: BTreeMap<u64, crate::soft::Soft>,
    /// Which objects use each shape resource (shape RID → object RIDs, in RID order, the
    /// order a walk of `objs` would find them in): a shape's new data or its free reaches
    /// its users without walking every object (creating N bodies stays O(N), not O(N²)).
    /// Kept by `obj_add_shape`, `obj_edit_shapes` and `free`.
    pub shape_users: BTreeMap<u64, BTreeSet<u64>>,
    /// The joints attached to each object (object RID → joint RIDs, in RID order), kept
    /// by `joint_set` and `free`.
    pub body_joints: BTreeMap<u64, BTreeSet<u64>>,
    /// Godot pauses physics with `set_active(false)`; a server starts active.
    pub paused: bool,
    pub flushing: bool,
}

impl Records {
    /// The objects that use shape resource `shape`, in RID order.
    pub fn shape_users_of(&self, shape: u64) -> Vec<u64> {
        self.shape_users
            .get(&shape)
            .map_or_else(Vec::new, |u| u.iter().copied().collect())
    }

    /// Drops object `rid` from the users of the shapes in `slots`.
    pub(super) fn forget_shape_users(&mut self, rid: u64, slots: &[ShapeSlot]) {
        for slot in slots {
            if let Some(users) = self.shape_users.get_mut(&slot.shape) {
                users.remove(&rid);
                if users.is_empty() {
                    self.shape_users.remove(&slot.shape);
                }
            }
        }
    }

    /// Adds object `rid` to the users of the shapes in `slots`.
    pub(super) fn note_shape_users(&mut self, rid: u64, slots: &[ShapeSlot]) {
        for slot in slots {
            self.shape_users.entry(slot.shape).or_default().insert(rid);
        }
    }

    pub fn new_rid(&mut self) -> Rid {
        self.next_rid += 1;
        Rid::new(self.next_rid)
    }

    pub fn space_create(&mut self) -> Rid {
        match World::new(&space_world_def()) {
            Ok(mut world) => {
                let exceptions = Box::<Exceptions>::default();
                world.set_pre_solve(Some(maul3d::PreSolve {
                    callback: exceptions_pre_solve,
                    context: &*exceptions as *const Exceptions as *mut core::ffi::c_void,
                }));
                let rid = self.new_rid();
                self.spaces.insert(
                    rid.to_u64(),
                    Space {
                        world,
                        active: false,
                        default_area: AreaParams {
                            gravity_mode: AreaSpaceOverrideMode::REPLACE,
                            ..AreaParams::default()
                        },
                        params: BTreeMap::new(),
                        direct: None,
                        moved: Vec::new(),
                        area_events: Vec::new(),
                        area_area_events: Vec::new(),
                        last_step: 1.0 / 60.0,
                        anchor: None,
                        journal_start: None,
                        kinematic_targets: BTreeMap::new(),
                        exceptions,
                        shape_owners: BTreeMap::new(),
                        debug_contacts: 0,
                        manual_step: false,
                        block_signals: false,
                        watch: Watch::default(),
                        extras: Extras::default(),
                    },
                );
                rid
            }
            Err(e) => {
                error_once("space", &format!("space_create failed: {e}"));
                Rid::Invalid
            }
        }
    }

    pub fn space_set_param(&mut self, space: u64, param: SpaceParameter, value: f32) {
        if let Some(s) = self.spaces.get_mut(&space) {
            s.params.insert(param.ord(), value);
        }
    }

    /// Puts object `rid` in its space's `Watch` sets by what its record says now, and out
    /// of every other space's (call after a setter changes what the step does for it:
    /// constant forces, contact reporting, area monitoring, mode, space; and when it is
    /// made or freed).
    pub fn watch(&mut self, rid: u64) {
        let o = self.objs.get(&rid);
        let home = o.and_then(|o| o.space);
        for (id, s) in self.spaces.iter_mut() {
            if Some(*id) != home {
                s.watch.forget(rid);
            }
        }
        let (Some(o), Some(s)) = (o, home.and_then(|h| self.spaces.get_mut(&h))) else {
            return;
        };
        let w = &mut s.watch;
        let mark = |set: &mut BTreeSet<u64>, on: bool| {
            if on {
                set.insert(rid);
            } else {
                set.remove(&rid);
            }
        };
        let forced = o.constant_force != Vector3::ZERO || o.constant_torque != Vector3::ZERO;
        mark(&mut w.forced, forced);
        mark(&mut w.reporters, o.max_contacts > 0);
        mark(&mut w.area_monitors, o.is_area && o.area_monitor.is_some());
        // Left in when no longer kinematic: the step drops it (it checks the record).
        if !o.is_area && o.mode == godot::classes::physics_server_3d::BodyMode::KINEMATIC {
            w.kinematic.insert(rid);
        }
    }

    pub fn core_body(&self, rid: u64) -> Option<(u64, BodyId)> {
        let o = self.objs.get(&rid)?;
        Some((o.space?, o.core.as_ref()?.body))
    }

    pub fn world_mut(&mut self, space: u64) -> Option<&mut World> {
        self.spaces.get_mut(&space).map(|s| &mut s.world)
    }

    pub fn free(&mut self, rid: u64) {
        if self.joints.contains_key(&rid) {
            self.joint_unmake(rid);
            if let Some(j) = self.joints.remove(&rid) {
                self.index_joint(rid, [j.body_a, j.body_b], [0, 0]);
            }
            return;
        }
        if self.objs.contains_key(&rid) {
            self.dematerialize(rid);
            if let Some(o) = self.objs.remove(&rid) {
                self.forget_shape_users(rid, &o.shapes);
                if let Some(space) = o.space
                    && let Some(s) = self.spaces.get_mut(&space)
                {
                    s.moved.retain(|m| *m != rid);
                    s.watch.forget(rid);
                }
            }
            return;
        }
        if self.softs.contains_key(&rid) {
            self.soft_free(rid);
            return;
        }
        if self.shapes.remove(&rid).is_some() {
            let users: Vec<u64> = self.shape_users_of(rid);
            for u in users {
                self.obj_edit_shapes(u, |shapes| shapes.retain(|s| s.shape != rid));
            }
            return;
        }
        if self.spaces.contains_key(&rid) {
            let users: Vec<u64> = self
                .objs
                .iter()
                .filter(|(_, o)| o.space == Some(rid))
                .map(|(r, _)| *r)
                .collect();
            for u in users {
                self.obj_set_space(u, None);
            }
            let softs: Vec<u64> = self
                .softs
                .iter()
                .filter(|(_, s)| s.space == Some(rid))
                .map(|(r, _)| *r)
                .collect();
            for u in softs {
                self.soft_set_space(u, None);
            }
            if let Some(s) = self.spaces.remove(&rid)
                && let Some(d) = s.direct
            {
                d.free();
            }
        }
    }
}
