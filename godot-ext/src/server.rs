//! `Maul3DPhysicsServer`: Godot's `PhysicsServer3D` interface over `maul3d` worlds.
//!
//! Godot creates every object through the server and names it by a `Rid`; the records
//! live in `Records` (records/), ordered by RID number, so nothing here depends on hash
//! or pointer order. Each space is a `maul3d::World`.
//!
//! A method the server does not support yet warns once, naming the feature, and returns
//! a neutral value; `unsupported` is the one place that does it.

use std::collections::BTreeMap;

use godot::classes::native::*;
use godot::classes::physics_server_3d::*;
use godot::classes::{
    IPhysicsServer3DExtension, PhysicsDirectBodyState3D, PhysicsDirectSpaceState3D,
    PhysicsServer3DExtension, PhysicsServer3DRenderingServerHandler,
};
use godot::meta::conv::RawPtr;
use godot::prelude::*;
use maul3d::math::max;

use crate::conv::{dv, gdv, gv, quat, v3};
use crate::direct::{BodySnap, Maul3DBodyState, Maul3DSpaceState, SnapSlot};
use crate::errors::{site, warn_once};
use crate::records::{GJointKind, Records, ShapeSlot};
use crate::tracked::Tracked;

/// Warns once per method that the server does not support it yet.
fn unsupported(method: &'static str, feature: &'static str) {
    warn_once(
        method,
        &format!("PhysicsServer3D.{method} is not supported yet ({feature})."),
    );
}

/// Maul3D, a deterministic 3D physics engine, as Godot's 3D physics server.
///
/// Registered with `PhysicsServer3DManager` as "Maul3D"; a project selects it with the
/// project setting `physics/3d/physics_engine = "Maul3D"` (the `physics/maul3d/*`
/// settings tune it). Every Godot space is one Maul3D world: the same inputs give the same
/// state bit for bit on every machine, which the `Maul3D` singleton's hashes, snapshots
/// and journals, `Maul3DRollback` and `Maul3DRecorder` build on. Scripts do not call this
/// class; they use `PhysicsServer3D` and the physics nodes as with any engine.
#[derive(GodotClass)]
#[class(base = PhysicsServer3DExtension, init, tool)]
pub struct Maul3DPhysicsServer {
    /// Every mutable access bumps its epoch (`Tracked`): body states filled before the
    /// state-sync callbacks read their snapshot while it has not moved.
    pub(crate) st: Tracked<Records>,
    /// Direct body states handed out, by body RID (freed with the body), each with where
    /// its snapshot goes.
    body_states: BTreeMap<u64, (Gd<Maul3DBodyState>, SnapSlot)>,
    base: Base<PhysicsServer3DExtension>,
}

impl Maul3DPhysicsServer {
    pub(crate) fn space_state(&mut self, space: Rid) -> Gd<Maul3DSpaceState> {
        let me = self.to_gd();
        // Untracked: making the query object changes no body's state (a body's
        // `_integrate_forces` asking for it keeps the other snapshots).
        let s = self
            .st
            .untracked()
            .spaces
            .get_mut(&space.to_u64())
            .expect("space_state of a known space");
        s.direct
            .get_or_insert_with(|| Maul3DSpaceState::create(me, space))
            .clone()
    }

    pub(crate) fn body_state(&mut self, body: Rid) -> Gd<Maul3DBodyState> {
        self.body_state_and_slot(body).0
    }

    fn body_state_and_slot(&mut self, body: Rid) -> (Gd<Maul3DBodyState>, SnapSlot) {
        let me = self.to_gd();
        let epoch = self.st.epoch().clone();
        self.body_states
            .entry(body.to_u64())
            .or_insert_with(|| Maul3DBodyState::create(me, body, epoch))
            .clone()
    }

    #[allow(clippy::too_many_arguments)]
    fn make_joint(
        &mut self,
        joint: Rid,
        kind: GJointKind,
        body_a: Rid,
        frame_a: Transform3D,
        body_b: Rid,
        frame_b: Transform3D,
    ) {
        self.st.joint_set(joint.to_u64(), |j| {
            j.kind = kind;
            j.body_a = body_a.to_u64();
            j.body_b = body_b.to_u64();
            j.frame_a = frame_a;
            j.frame_b = frame_b;
            j.params.clear();
            j.flags.clear();
        });
    }

    fn joint_param(&self, joint: Rid, key: i32, default: f32) -> f32 {
        self.st
            .joints
            .get(&joint.to_u64())
            .map_or(default, |j| j.param(key, default))
    }

    fn soft(&self, body: Rid) -> Option<&crate::soft::Soft> {
        self.st.softs.get(&body.to_u64())
    }

    fn obj_space(&self, rid: Rid) -> Rid {
        self.st
            .objs
            .get(&rid.to_u64())
            .and_then(|o| o.space)
            .map_or(Rid::Invalid, Rid::new)
    }

    fn slot<R>(&self, rid: Rid, idx: i32, f: impl FnOnce(&ShapeSlot) -> R) -> Option<R> {
        let o = self.st.objs.get(&rid.to_u64())?;
        o.shapes.get(usize::try_from(idx).ok()?).map(f)
    }

    fn edit_slot(&mut self, rid: Rid, idx: i32, f: impl FnOnce(&mut ShapeSlot)) {
        let Ok(idx) = usize::try_from(idx) else {
            return;
        };
        self.st.obj_edit_shapes(rid.to_u64(), |shapes| {
            if let Some(s) = shapes.get_mut(idx) {
                f(s);
            }
        });
    }

    fn set_shape(&mut self, rid: Rid, idx: i32, shape: Rid) {
        self.edit_slot(rid, idx, |s| s.shape = shape.to_u64());
    }

    fn set_shape_transform(&mut self, rid: Rid, idx: i32, transform: Transform3D) {
        if self.slot(rid, idx, |s| s.transform) == Some(transform) {
            return;
        }
        self.edit_slot(rid, idx, |s| s.transform = transform);
    }

    fn set_shape_disabled(&mut self, rid: Rid, idx: i32, disabled: bool) {
        if self.slot(rid, idx, |s| s.disabled) == Some(disabled) {
            return;
        }
        self.edit_slot(rid, idx, |s| s.disabled = disabled);
    }

    fn shape_count(&self, rid: Rid) -> i32 {
        self.st
            .objs
            .get(&rid.to_u64())
            .map_or(0, |o| o.shapes.len() as i32)
    }

    fn get_shape(&self, rid: Rid, idx: i32) -> Rid {
        self.slot(rid, idx, |s| Rid::new(s.shape))
            .unwrap_or(Rid::Invalid)
    }

    fn get_shape_transform(&self, rid: Rid, idx: i32) -> Transform3D {
        self.slot(rid, idx, |s| s.transform)
            .unwrap_or(Transform3D::IDENTITY)
    }

    fn remove_shape(&mut self, rid: Rid, idx: i32) {
        let Ok(idx) = usize::try_from(idx) else {
            return;
        };
        self.st.obj_edit_shapes(rid.to_u64(), |shapes| {
            if idx < shapes.len() {
                shapes.remove(idx);
            }
        });
    }

    fn set_layer(&mut self, rid: Rid, layer: u32) {
        if let Some(o) = self.st.objs.get_mut(&rid.to_u64()) {
            o.layer = layer;
        }
        self.st.update_filter(rid.to_u64());
    }

    fn set_mask(&mut self, rid: Rid, mask: u32) {
        if let Some(o) = self.st.objs.get_mut(&rid.to_u64()) {
            o.mask = mask;
        }
        self.st.update_filter(rid.to_u64());
    }

    fn origin(&self, rid: Rid) -> Vector3 {
        self.st
            .objs
            .get(&rid.to_u64())
            .map_or(Vector3::ZERO, |o| o.transform.origin)
    }

    /// `body_test_motion`: the core's motion test from `from` along `motion`.
    #[allow(clippy::too_many_arguments)]
    fn test_motion(
        &self,
        body: Rid,
        from: Transform3D,
        motion: Vector3,
        margin: f32,
        max_collisions: i32,
        collide_separation_ray: bool,
        result: Option<&mut PhysicsServer3DExtensionMotionResult>,
    ) -> bool {
        let rid = body.to_u64();
        let Some((space, core)) = self.st.core_body(rid) else {
            if let Some(r) = result {
                r.travel = motion;
                r.remainder = Vector3::ZERO;
                r.collision_safe_fraction = 1.0;
                r.collision_unsafe_fraction = 1.0;
                r.collision_count = 0;
            }
            return false;
        };
        let o = &self.st.objs[&rid];
        let w = &self.st.spaces[&space].world;
        let test = maul3d::MotionTest {
            body: core,
            position: dv(from.origin),
            rotation: quat(from.basis),
            motion: v3(motion),
            margin: max(margin, 0.0),
            filter: maul3d::QueryFilter {
                category_bits: u64::MAX,
                mask_bits: u64::from(o.mask),
                include_sensors: false,
            },
        };
        let mut found = [maul3d::MotionCollision {
            contact: crate::records::EMPTY_PAIR,
            local_shape: maul3d::ShapeId::NULL,
        }; 32];
        let cap = max_collisions.clamp(0, 32) as usize;
        // The body's separation rays (Godot shape index kept to name them), in its frame.
        let (rays, ray_shapes) = self.st.separation_rays(rid);
        // Godot's exclusion sets (PhysicsTestMotionParameters3D.exclude_bodies and
        // exclude_objects) are asked per body the test meets; collision exceptions
        // (add_collision_exception_with) leave bodies out too, as in Godot's engines.
        let base = self.base();
        let exceptions = &self.st.spaces[&space].exceptions.pairs;
        let excluded = |b: maul3d::BodyId| {
            let other = w.body_user_data(b).unwrap_or(0);
            exceptions.contains(&(rid.min(other), rid.max(other)))
                || base.body_test_motion_is_excluding_body(Rid::new(other))
                || self.st.objs.get(&other).is_some_and(|o| {
                    o.instance_id != 0 && base.body_test_motion_is_excluding_object(o.instance_id)
                })
        };
        let options = maul3d::MotionOptions {
            exclude: &[],
            exclude_where: Some(&excluded),
            separation_rays: &rays,
            collide_separation_rays: collide_separation_ray,
        };
        // Godot reports what the motion ran into: the core's motion test against the
        // motion keeps only contacts facing against it, most opposed first.
        // `move_and_slide` slides along collision 0 and takes the deepest floor-like
        // collision as the floor, so a floor the body merely stands on while it walks into
        // a ramp must not be reported (it would slide along the flat floor, into the ramp).
        let r = match w.test_body_motion_against_with(&test, &options, &mut found[..cap]) {
            Ok(r) => r,
            Err(e) => {
                crate::errors::error_once("test motion", &format!("body_test_motion refused: {e}"));
                return false;
            }
        };
        let count = r.collision_count.min(cap);
        if let Some(out) = result {
            out.travel = gv(r.travel);
            out.remainder = gv(r.remainder);
            out.collision_safe_fraction = r.safe_fraction;
            out.collision_unsafe_fraction = r.unsafe_fraction;
            out.collision_depth = 0.0;
            out.collision_count = count as i32;
            for (i, c) in found[..count].iter().enumerate() {
                let other = w.body_user_data(c.contact.body).unwrap_or(0);
                let d = &mut out.collisions[i];
                d.position = gdv(c.contact.point_on_other);
                d.normal = gv(c.contact.normal);
                d.collider_velocity = gv(c.contact.velocity);
                d.collider_angular_velocity = w
                    .body_angular_velocity(c.contact.body)
                    .map_or(Vector3::ZERO, gv);
                d.depth = c.contact.depth;
                out.collision_depth = max(out.collision_depth, c.contact.depth);
                d.local_shape = if c.local_shape == maul3d::ShapeId::NULL {
                    ray_shape_of(
                        &rays,
                        &ray_shapes,
                        &test,
                        r.travel,
                        c.contact.point_on_query,
                    )
                } else {
                    self.st.spaces[&space].shape_owner(c.local_shape).1
                };
                d.collider_id = ObjectId {
                    id: self.st.objs.get(&other).map_or(0, |o| o.instance_id),
                };
                d.collider = Rid::new(other);
                d.collider_shape = self.st.spaces[&space].shape_owner(c.contact.shape).1;
            }
        }
        count > 0
    }

    /// `flush_queries`: the state-sync and force-integration callbacks of the bodies that
    /// moved in the last step (in the world's event order), then the areas' monitor
    /// callbacks. The server's borrow is released while they run, since they call back
    /// into the server.
    pub(crate) fn flush(&mut self) {
        let spaces: Vec<u64> = self.st.spaces.keys().copied().collect();
        self.flush_spaces(&spaces);
    }

    /// `flush` for the given spaces only (`Maul3D.step_space` flushes the space it
    /// stepped). In a space that blocks signals each call runs with its node's signals
    /// blocked (`Object.set_block_signals`), the node's own setting put back after.
    pub(crate) fn flush_spaces(&mut self, spaces: &[u64]) {
        // (callback, arguments, the node to block signals of during the call)
        let mut calls: Vec<(Callable, Array<Variant>, Option<u64>)> = Vec::new();
        // The body states the callbacks get, filled below with what the records hold.
        let mut fills: Vec<(u64, SnapSlot)> = Vec::new();
        for &space in spaces {
            let Some(s) = self.st.spaces.get_mut(&space) else {
                continue;
            };
            let block = s.block_signals;
            let moved = std::mem::take(&mut s.moved);
            let area_events = std::mem::take(&mut s.area_events);
            let area_area_events = std::mem::take(&mut s.area_area_events);
            for rid in moved {
                let Some(o) = self.st.objs.get(&rid) else {
                    continue;
                };
                let (sync, fi) = (o.state_sync.clone(), o.force_integration.clone());
                if sync.is_none() && fi.is_none() {
                    continue;
                }
                let node = block.then_some(o.instance_id);
                let (state, slot) = self.body_state_and_slot(Rid::new(rid));
                fills.push((rid, slot));
                let state = state.to_variant();
                if let Some((cb, udata)) = fi {
                    let mut args: Array<Variant> = Array::new();
                    args.push(&state);
                    if !udata.is_nil() {
                        args.push(&udata);
                    }
                    calls.push((cb, args, node));
                }
                if let Some(cb) = sync {
                    let mut args: Array<Variant> = Array::new();
                    args.push(&state);
                    calls.push((cb, args, node));
                }
            }
            for (area, status, other, other_shape, area_shape) in area_events {
                let Some(a) = self.st.objs.get_mut(&area) else {
                    continue;
                };
                let key = (other, other_shape, area_shape);
                if status == 0 {
                    a.reported.insert(key);
                } else {
                    a.reported.remove(&key);
                }
                let Some(cb) = a.monitor.clone() else {
                    continue;
                };
                let node = block.then_some(a.instance_id);
                let Some(o) = self.st.objs.get(&other) else {
                    continue;
                };
                let mut args: Array<Variant> = Array::new();
                args.push(&status.to_variant());
                args.push(&Rid::new(other).to_variant());
                args.push(&(o.instance_id as i64).to_variant());
                args.push(&other_shape.to_variant());
                args.push(&area_shape.to_variant());
                calls.push((cb, args, node));
            }
            for (area, status, other, other_shape, area_shape) in area_area_events {
                let Some(a) = self.st.objs.get(&area) else {
                    continue;
                };
                let Some(cb) = a.area_monitor.clone() else {
                    continue;
                };
                let node = block.then_some(a.instance_id);
                let Some(o) = self.st.objs.get(&other) else {
                    continue;
                };
                let mut args: Array<Variant> = Array::new();
                args.push(&status.to_variant());
                args.push(&Rid::new(other).to_variant());
                args.push(&(o.instance_id as i64).to_variant());
                args.push(&other_shape.to_variant());
                args.push(&area_shape.to_variant());
                calls.push((cb, args, node));
            }
        }
        self.st.flushing = true;
        // Filled at the epoch the callbacks start at: their reads of these states lock
        // no server until something changes the records (a state's own write drops only
        // its own snapshot).
        let epoch = self.st.epoch().now();
        for (rid, slot) in fills {
            if let Some(o) = self.st.objs.get(&rid)
                && let Ok(mut g) = slot.lock()
            {
                *g = Some(BodySnap::of(&self.st, o, epoch));
            }
        }
        {
            let _guard = self.base_mut();
            for (cb, args, node) in calls {
                if !cb.is_valid() {
                    continue;
                }
                let node = node.filter(|id| *id != 0).and_then(|id| {
                    Gd::<Object>::try_from_instance_id(InstanceId::from_i64(id as i64)).ok()
                });
                match node {
                    Some(mut n) => {
                        let was = n.is_blocking_signals();
                        n.set_block_signals(true);
                        cb.callv(&args);
                        // The callback may have freed its node.
                        if n.is_instance_valid() {
                            n.set_block_signals(was);
                        }
                    }
                    None => {
                        cb.callv(&args);
                    }
                }
            }
        }
        self.st.flushing = false;
    }
}

#[godot_api]
impl IPhysicsServer3DExtension for Maul3DPhysicsServer {
    fn world_boundary_shape_create(&mut self) -> Rid {
        self.st.shape_create(ShapeType::WORLD_BOUNDARY)
    }

    fn separation_ray_shape_create(&mut self) -> Rid {
        self.st.shape_create(ShapeType::SEPARATION_RAY)
    }

    fn sphere_shape_create(&mut self) -> Rid {
        self.st.shape_create(ShapeType::SPHERE)
    }

    fn box_shape_create(&mut self) -> Rid {
        self.st.shape_create(ShapeType::BOX)
    }

    fn capsule_shape_create(&mut self) -> Rid {
        self.st.shape_create(ShapeType::CAPSULE)
    }

    fn cylinder_shape_create(&mut self) -> Rid {
        self.st.shape_create(ShapeType::CYLINDER)
    }

    fn convex_polygon_shape_create(&mut self) -> Rid {
        self.st.shape_create(ShapeType::CONVEX_POLYGON)
    }

    fn concave_polygon_shape_create(&mut self) -> Rid {
        self.st.shape_create(ShapeType::CONCAVE_POLYGON)
    }

    fn heightmap_shape_create(&mut self) -> Rid {
        self.st.shape_create(ShapeType::HEIGHTMAP)
    }

    fn custom_shape_create(&mut self) -> Rid {
        unsupported("custom_shape_create", "custom shapes");
        Rid::Invalid
    }

    fn shape_set_data(&mut self, shape: Rid, data: Variant) {
        self.st.shape_set_data(shape.to_u64(), data);
    }

    fn shape_set_custom_solver_bias(&mut self, shape: Rid, bias: f32) {
        if let Some(s) = self.st.shapes.get_mut(&shape.to_u64()) {
            s.bias = bias;
        }
    }

    fn shape_set_margin(&mut self, shape: Rid, margin: f32) {
        if let Some(s) = self.st.shapes.get_mut(&shape.to_u64()) {
            s.margin = margin;
        }
    }

    fn shape_get_margin(&self, shape: Rid) -> f32 {
        self.st
            .shapes
            .get(&shape.to_u64())
            .map_or(0.0, |s| s.margin)
    }

    fn shape_get_type(&self, shape: Rid) -> ShapeType {
        self.st
            .shapes
            .get(&shape.to_u64())
            .map_or(ShapeType::CUSTOM, |s| s.ty)
    }

    fn shape_get_data(&self, shape: Rid) -> Variant {
        self.st
            .shapes
            .get(&shape.to_u64())
            .map_or(Variant::nil(), |s| s.data.clone())
    }

    fn shape_get_custom_solver_bias(&self, shape: Rid) -> f32 {
        self.st.shapes.get(&shape.to_u64()).map_or(0.0, |s| s.bias)
    }

    fn space_create(&mut self) -> Rid {
        self.st.space_create()
    }

    fn space_set_active(&mut self, space: Rid, active: bool) {
        if let Some(s) = self.st.spaces.get_mut(&space.to_u64()) {
            s.active = active;
        }
    }

    fn space_is_active(&self, space: Rid) -> bool {
        self.st
            .spaces
            .get(&space.to_u64())
            .is_some_and(|s| s.active)
    }

    fn space_set_param(&mut self, space: Rid, param: SpaceParameter, value: f32) {
        self.st.space_set_param(space.to_u64(), param, value);
    }

    fn space_get_param(&self, space: Rid, param: SpaceParameter) -> f32 {
        let id = space.to_u64();
        match self
            .st
            .spaces
            .get(&id)
            .and_then(|s| s.params.get(&param.ord()))
        {
            Some(v) => *v,
            None => crate::settings::default_space_param(param),
        }
    }

    fn space_get_direct_state(&mut self, space: Rid) -> Option<Gd<PhysicsDirectSpaceState3D>> {
        if !self.st.spaces.contains_key(&space.to_u64()) {
            return None;
        }
        Some(self.space_state(space).upcast())
    }

    fn space_set_debug_contacts(&mut self, space: Rid, max_contacts: i32) {
        if let Some(s) = self.st.spaces.get_mut(&space.to_u64()) {
            s.debug_contacts = max_contacts.max(0);
        }
    }

    fn space_get_contacts(&self, space: Rid) -> PackedVector3Array {
        match self.st.spaces.get(&space.to_u64()) {
            Some(s) => s.debug_contact_points().into_iter().collect(),
            None => PackedVector3Array::new(),
        }
    }

    fn space_get_contact_count(&self, space: Rid) -> i32 {
        self.st
            .spaces
            .get(&space.to_u64())
            .map_or(0, |s| s.debug_contact_points().len() as i32)
    }

    fn area_create(&mut self) -> Rid {
        self.st.obj_create(true)
    }

    fn area_set_space(&mut self, area: Rid, space: Rid) {
        self.st.obj_set_space(area.to_u64(), space.to_valid_u64());
    }

    fn area_get_space(&self, area: Rid) -> Rid {
        self.obj_space(area)
    }

    fn area_add_shape(&mut self, area: Rid, shape: Rid, transform: Transform3D, disabled: bool) {
        self.st
            .obj_add_shape(area.to_u64(), shape.to_u64(), transform, disabled);
    }

    fn area_set_shape(&mut self, area: Rid, shape_idx: i32, shape: Rid) {
        self.set_shape(area, shape_idx, shape);
    }

    fn area_set_shape_transform(&mut self, area: Rid, shape_idx: i32, transform: Transform3D) {
        self.set_shape_transform(area, shape_idx, transform);
    }

    fn area_set_shape_disabled(&mut self, area: Rid, shape_idx: i32, disabled: bool) {
        self.set_shape_disabled(area, shape_idx, disabled);
    }

    fn area_get_shape_count(&self, area: Rid) -> i32 {
        self.shape_count(area)
    }

    fn area_get_shape(&self, area: Rid, shape_idx: i32) -> Rid {
        self.get_shape(area, shape_idx)
    }

    fn area_get_shape_transform(&self, area: Rid, shape_idx: i32) -> Transform3D {
        self.get_shape_transform(area, shape_idx)
    }

    fn area_remove_shape(&mut self, area: Rid, shape_idx: i32) {
        self.remove_shape(area, shape_idx);
    }

    fn area_clear_shapes(&mut self, area: Rid) {
        self.st.obj_edit_shapes(area.to_u64(), |s| s.clear());
    }

    fn area_attach_object_instance_id(&mut self, area: Rid, id: u64) {
        if let Some(o) = self.st.objs.get_mut(&area.to_u64()) {
            o.instance_id = id;
        }
    }

    fn area_get_object_instance_id(&self, area: Rid) -> u64 {
        self.st
            .objs
            .get(&area.to_u64())
            .map_or(0, |o| o.instance_id)
    }

    fn area_set_param(&mut self, area: Rid, param: AreaParameter, value: Variant) {
        self.st.area_set_param(area.to_u64(), param, &value);
    }

    fn area_set_transform(&mut self, area: Rid, transform: Transform3D) {
        self.st
            .body_set_state(area.to_u64(), BodyState::TRANSFORM, &transform.to_variant());
    }

    fn area_get_param(&self, area: Rid, param: AreaParameter) -> Variant {
        self.st.area_get_param(area.to_u64(), param)
    }

    fn area_get_transform(&self, area: Rid) -> Transform3D {
        self.st
            .objs
            .get(&area.to_u64())
            .map_or(Transform3D::IDENTITY, |o| o.transform)
    }

    fn area_set_collision_layer(&mut self, area: Rid, layer: u32) {
        self.set_layer(area, layer);
    }

    fn area_get_collision_layer(&self, area: Rid) -> u32 {
        self.st.objs.get(&area.to_u64()).map_or(0, |o| o.layer)
    }

    fn area_set_collision_mask(&mut self, area: Rid, mask: u32) {
        self.set_mask(area, mask);
    }

    fn area_get_collision_mask(&self, area: Rid) -> u32 {
        self.st.objs.get(&area.to_u64()).map_or(0, |o| o.mask)
    }

    fn area_set_monitorable(&mut self, area: Rid, monitorable: bool) {
        if let Some(o) = self.st.objs.get_mut(&area.to_u64()) {
            o.monitorable = monitorable;
        }
        self.st.apply_area_monitoring(area.to_u64());
    }

    fn area_set_ray_pickable(&mut self, area: Rid, enable: bool) {
        if let Some(o) = self.st.objs.get_mut(&area.to_u64()) {
            o.ray_pickable = enable;
        }
    }

    fn area_set_monitor_callback(&mut self, area: Rid, callback: Callable) {
        if let Some(o) = self.st.objs.get_mut(&area.to_u64()) {
            o.monitor = callback.is_valid().then_some(callback);
        }
    }

    fn area_set_area_monitor_callback(&mut self, area: Rid, callback: Callable) {
        if let Some(o) = self.st.objs.get_mut(&area.to_u64()) {
            o.area_monitor = callback.is_valid().then_some(callback);
        }
        self.st.apply_area_monitoring(area.to_u64());
        self.st.watch(area.to_u64());
    }

    fn body_create(&mut self) -> Rid {
        self.st.obj_create(false)
    }

    fn body_set_space(&mut self, body: Rid, space: Rid) {
        self.st.obj_set_space(body.to_u64(), space.to_valid_u64());
    }

    fn body_get_space(&self, body: Rid) -> Rid {
        self.obj_space(body)
    }

    fn body_set_mode(&mut self, body: Rid, mode: BodyMode) {
        self.st.body_set_mode(body.to_u64(), mode);
    }

    fn body_get_mode(&self, body: Rid) -> BodyMode {
        self.st
            .objs
            .get(&body.to_u64())
            .map_or(BodyMode::STATIC, |o| o.mode)
    }

    fn body_add_shape(&mut self, body: Rid, shape: Rid, transform: Transform3D, disabled: bool) {
        self.st
            .obj_add_shape(body.to_u64(), shape.to_u64(), transform, disabled);
    }

    fn body_set_shape(&mut self, body: Rid, shape_idx: i32, shape: Rid) {
        self.set_shape(body, shape_idx, shape);
    }

    fn body_set_shape_transform(&mut self, body: Rid, shape_idx: i32, transform: Transform3D) {
        self.set_shape_transform(body, shape_idx, transform);
    }

    fn body_set_shape_disabled(&mut self, body: Rid, shape_idx: i32, disabled: bool) {
        self.set_shape_disabled(body, shape_idx, disabled);
    }

    fn body_get_shape_count(&self, body: Rid) -> i32 {
        self.shape_count(body)
    }

    fn body_get_shape(&self, body: Rid, shape_idx: i32) -> Rid {
        self.get_shape(body, shape_idx)
    }

    fn body_get_shape_transform(&self, body: Rid, shape_idx: i32) -> Transform3D {
        self.get_shape_transform(body, shape_idx)
    }

    fn body_remove_shape(&mut self, body: Rid, shape_idx: i32) {
        self.remove_shape(body, shape_idx);
    }

    fn body_clear_shapes(&mut self, body: Rid) {
        self.st.obj_edit_shapes(body.to_u64(), |s| s.clear());
    }

    fn body_attach_object_instance_id(&mut self, body: Rid, id: u64) {
        let rid = body.to_u64();
        if let Some(o) = self.st.objs.get_mut(&rid) {
            o.instance_id = id;
        } else if let Some(s) = self.st.softs.get_mut(&rid) {
            // SoftBody3D attaches its node through the body call.
            s.instance_id = id;
        }
    }

    fn body_get_object_instance_id(&self, body: Rid) -> u64 {
        let rid = body.to_u64();
        match self.st.objs.get(&rid) {
            Some(o) => o.instance_id,
            None => self.soft(body).map_or(0, |s| s.instance_id),
        }
    }

    fn body_set_enable_continuous_collision_detection(&mut self, body: Rid, enable: bool) {
        let rid = body.to_u64();
        if let Some(o) = self.st.objs.get_mut(&rid) {
            o.ccd = enable;
        }
        self.st.with_body(rid, |w, b| w.set_body_bullet(b, enable));
    }

    fn body_is_continuous_collision_detection_enabled(&self, body: Rid) -> bool {
        self.st.objs.get(&body.to_u64()).is_some_and(|o| o.ccd)
    }

    fn body_set_collision_layer(&mut self, body: Rid, layer: u32) {
        self.set_layer(body, layer);
    }

    fn body_get_collision_layer(&self, body: Rid) -> u32 {
        self.st.objs.get(&body.to_u64()).map_or(0, |o| o.layer)
    }

    fn body_set_collision_mask(&mut self, body: Rid, mask: u32) {
        self.set_mask(body, mask);
    }

    fn body_get_collision_mask(&self, body: Rid) -> u32 {
        self.st.objs.get(&body.to_u64()).map_or(0, |o| o.mask)
    }

    fn body_set_collision_priority(&mut self, body: Rid, priority: f32) {
        if let Some(o) = self.st.objs.get_mut(&body.to_u64()) {
            o.priority = priority;
        }
    }

    fn body_get_collision_priority(&self, body: Rid) -> f32 {
        self.st.objs.get(&body.to_u64()).map_or(1.0, |o| o.priority)
    }

    fn body_set_user_flags(&mut self, body: Rid, flags: u32) {
        if let Some(o) = self.st.objs.get_mut(&body.to_u64()) {
            o.user_flags = flags;
        }
    }

    fn body_get_user_flags(&self, body: Rid) -> u32 {
        self.st.objs.get(&body.to_u64()).map_or(0, |o| o.user_flags)
    }

    fn body_set_param(&mut self, body: Rid, param: BodyParameter, value: Variant) {
        self.st.body_set_param(body.to_u64(), param, &value);
    }

    fn body_get_param(&self, body: Rid, param: BodyParameter) -> Variant {
        self.st.body_get_param(body.to_u64(), param)
    }

    fn body_reset_mass_properties(&mut self, body: Rid) {
        let rid = body.to_u64();
        if let Some(o) = self.st.objs.get_mut(&rid) {
            o.inertia = Vector3::ZERO;
            o.custom_center = None;
        }
        self.st.apply_mass(rid);
    }

    fn body_set_state(&mut self, body: Rid, state: BodyState, value: Variant) {
        self.st.body_set_state(body.to_u64(), state, &value);
    }

    fn body_get_state(&self, body: Rid, state: BodyState) -> Variant {
        self.st.body_get_state(body.to_u64(), state)
    }

    fn body_apply_central_impulse(&mut self, body: Rid, impulse: Vector3) {
        self.st.with_body(body.to_u64(), |w, b| {
            w.apply_linear_impulse_to_center(b, v3(impulse))
        });
    }

    fn body_apply_impulse(&mut self, body: Rid, impulse: Vector3, position: Vector3) {
        let origin = self.origin(body);
        self.st.with_body(body.to_u64(), |w, b| {
            w.apply_linear_impulse(b, v3(impulse), dv(origin + position))
        });
    }

    fn body_apply_torque_impulse(&mut self, body: Rid, impulse: Vector3) {
        self.st.with_body(body.to_u64(), |w, b| {
            w.apply_angular_impulse(b, v3(impulse))
        });
    }

    fn body_apply_central_force(&mut self, body: Rid, force: Vector3) {
        self.st
            .with_body(body.to_u64(), |w, b| w.apply_force_to_center(b, v3(force)));
    }

    fn body_apply_force(&mut self, body: Rid, force: Vector3, position: Vector3) {
        let origin = self.origin(body);
        self.st.with_body(body.to_u64(), |w, b| {
            w.apply_force(b, v3(force), dv(origin + position))
        });
    }

    fn body_apply_torque(&mut self, body: Rid, torque: Vector3) {
        self.st
            .with_body(body.to_u64(), |w, b| w.apply_torque(b, v3(torque)));
    }

    fn body_add_constant_central_force(&mut self, body: Rid, force: Vector3) {
        if let Some(o) = self.st.objs.get_mut(&body.to_u64()) {
            o.constant_force += force;
        }
        self.st.watch(body.to_u64());
    }

    fn body_add_constant_force(&mut self, body: Rid, force: Vector3, position: Vector3) {
        if let Some(o) = self.st.objs.get_mut(&body.to_u64()) {
            o.constant_force += force;
            o.constant_torque += position.cross(force);
        }
        self.st.watch(body.to_u64());
    }

    fn body_add_constant_torque(&mut self, body: Rid, torque: Vector3) {
        if let Some(o) = self.st.objs.get_mut(&body.to_u64()) {
            o.constant_torque += torque;
        }
        self.st.watch(body.to_u64());
    }

    fn body_set_constant_force(&mut self, body: Rid, force: Vector3) {
        if let Some(o) = self.st.objs.get_mut(&body.to_u64()) {
            o.constant_force = force;
        }
        self.st.watch(body.to_u64());
    }

    fn body_get_constant_force(&self, body: Rid) -> Vector3 {
        self.st
            .objs
            .get(&body.to_u64())
            .map_or(Vector3::ZERO, |o| o.constant_force)
    }

    fn body_set_constant_torque(&mut self, body: Rid, torque: Vector3) {
        if let Some(o) = self.st.objs.get_mut(&body.to_u64()) {
            o.constant_torque = torque;
        }
        self.st.watch(body.to_u64());
    }

    fn body_get_constant_torque(&self, body: Rid) -> Vector3 {
        self.st
            .objs
            .get(&body.to_u64())
            .map_or(Vector3::ZERO, |o| o.constant_torque)
    }

    fn body_set_axis_velocity(&mut self, body: Rid, axis_velocity: Vector3) {
        let rid = body.to_u64();
        let Some(o) = self.st.objs.get(&rid) else {
            return;
        };
        let axis = axis_velocity.try_normalized().unwrap_or(Vector3::ZERO);
        let mut v = o.linear_velocity;
        v -= axis * axis.dot(v);
        v += axis_velocity;
        self.st
            .body_set_state(rid, BodyState::LINEAR_VELOCITY, &v.to_variant());
    }

    fn body_set_axis_lock(&mut self, body: Rid, axis: BodyAxis, lock: bool) {
        let rid = body.to_u64();
        if let Some(o) = self.st.objs.get_mut(&rid) {
            let bit = axis.ord() as u32;
            if lock {
                o.locks |= bit;
            } else {
                o.locks &= !bit;
            }
        }
        self.st.body_set_locks(rid);
    }

    fn body_is_axis_locked(&self, body: Rid, axis: BodyAxis) -> bool {
        self.st
            .objs
            .get(&body.to_u64())
            .is_some_and(|o| o.locks & axis.ord() as u32 != 0)
    }

    fn body_add_collision_exception(&mut self, body: Rid, excepted_body: Rid) {
        let rid = body.to_u64();
        if let Some(o) = self.st.objs.get_mut(&rid)
            && o.exceptions.insert(excepted_body.to_u64())
        {
            // Rebuilt so its shapes ask the pre-solve callback; that refreshes the tables.
            self.st.rebuild(rid);
        }
    }

    fn body_remove_collision_exception(&mut self, body: Rid, excepted_body: Rid) {
        let rid = body.to_u64();
        if let Some(o) = self.st.objs.get_mut(&rid)
            && o.exceptions.remove(&excepted_body.to_u64())
        {
            self.st.rebuild(rid);
        }
    }

    fn body_get_collision_exceptions(&self, body: Rid) -> Array<Rid> {
        let mut out = Array::new();
        if let Some(o) = self.st.objs.get(&body.to_u64()) {
            for e in &o.exceptions {
                out.push(Rid::new(*e));
            }
        }
        out
    }

    fn body_set_max_contacts_reported(&mut self, body: Rid, amount: i32) {
        if let Some(o) = self.st.objs.get_mut(&body.to_u64()) {
            o.max_contacts = amount.max(0);
            if amount <= 0 {
                o.contacts.clear();
            }
        }
        self.st.watch(body.to_u64());
    }

    fn body_get_max_contacts_reported(&self, body: Rid) -> i32 {
        self.st
            .objs
            .get(&body.to_u64())
            .map_or(0, |o| o.max_contacts)
    }

    fn body_set_contacts_reported_depth_threshold(&mut self, body: Rid, threshold: f32) {
        if let Some(o) = self.st.objs.get_mut(&body.to_u64()) {
            o.contacts_depth_threshold = threshold;
        }
    }

    fn body_get_contacts_reported_depth_threshold(&self, body: Rid) -> f32 {
        self.st
            .objs
            .get(&body.to_u64())
            .map_or(0.0, |o| o.contacts_depth_threshold)
    }

    fn body_set_omit_force_integration(&mut self, body: Rid, enable: bool) {
        let rid = body.to_u64();
        if let Some(o) = self.st.objs.get_mut(&rid) {
            o.omit_force_integration = enable;
        }
        self.st
            .with_body(rid, |w, b| w.set_body_custom_integrator(b, enable));
    }

    fn body_is_omitting_force_integration(&self, body: Rid) -> bool {
        self.st
            .objs
            .get(&body.to_u64())
            .is_some_and(|o| o.omit_force_integration)
    }

    fn body_set_state_sync_callback(&mut self, body: Rid, callable: Callable) {
        if let Some(o) = self.st.objs.get_mut(&body.to_u64()) {
            o.state_sync = callable.is_valid().then_some(callable);
        }
    }

    fn body_set_force_integration_callback(
        &mut self,
        body: Rid,
        callable: Callable,
        userdata: Variant,
    ) {
        if let Some(o) = self.st.objs.get_mut(&body.to_u64()) {
            o.force_integration = callable.is_valid().then_some((callable, userdata));
        }
    }

    fn body_set_ray_pickable(&mut self, body: Rid, enable: bool) {
        if let Some(o) = self.st.objs.get_mut(&body.to_u64()) {
            o.ray_pickable = enable;
        }
    }

    unsafe fn body_test_motion_rawptr(
        &self,
        body: Rid,
        from: Transform3D,
        motion: Vector3,
        margin: f32,
        max_collisions: i32,
        collide_separation_ray: bool,
        _recovery_as_collision: bool,
        result: RawPtr<*mut PhysicsServer3DExtensionMotionResult>,
    ) -> bool {
        // SAFETY: Godot passes a valid result struct (or null) for the call's duration.
        let result = unsafe { result.ptr().as_mut() };
        self.test_motion(
            body,
            from,
            motion,
            margin,
            max_collisions,
            collide_separation_ray,
            result,
        )
    }

    fn body_get_direct_state(&mut self, body: Rid) -> Option<Gd<PhysicsDirectBodyState3D>> {
        if !self.st.objs.contains_key(&body.to_u64()) {
            return None;
        }
        Some(self.body_state(body).upcast())
    }

    // Soft bodies: records and their core soft bodies in `crate::soft`.

    fn soft_body_create(&mut self) -> Rid {
        self.st.soft_create()
    }

    fn soft_body_update_rendering_server(
        &mut self,
        body: Rid,
        rendering_server_handler: Option<Gd<PhysicsServer3DRenderingServerHandler>>,
    ) {
        // Reads only: no epoch bump for the body states handed out.
        if let Some(mut h) = rendering_server_handler {
            self.st.soft_render(body.to_u64(), &mut h);
        }
    }

    fn soft_body_set_space(&mut self, body: Rid, space: Rid) {
        self.st.soft_set_space(body.to_u64(), space.to_valid_u64());
    }

    fn soft_body_get_space(&self, body: Rid) -> Rid {
        self.st.soft_space(body.to_u64())
    }

    fn soft_body_set_ray_pickable(&mut self, body: Rid, enable: bool) {
        if let Some(s) = self.st.softs.get_mut(&body.to_u64()) {
            s.ray_pickable = enable;
        }
    }

    fn soft_body_set_collision_layer(&mut self, body: Rid, layer: u32) {
        self.st
            .soft_set_layer_mask(body.to_u64(), Some(layer), None);
    }

    fn soft_body_get_collision_layer(&self, body: Rid) -> u32 {
        self.soft(body).map_or(0, |s| s.layer)
    }

    fn soft_body_set_collision_mask(&mut self, body: Rid, mask: u32) {
        self.st.soft_set_layer_mask(body.to_u64(), None, Some(mask));
    }

    fn soft_body_get_collision_mask(&self, body: Rid) -> u32 {
        self.soft(body).map_or(0, |s| s.mask)
    }

    fn soft_body_add_collision_exception(&mut self, body: Rid, body_b: Rid) {
        self.st
            .soft_add_exception(body.to_u64(), body_b.to_u64(), true);
    }

    fn soft_body_remove_collision_exception(&mut self, body: Rid, body_b: Rid) {
        self.st
            .soft_add_exception(body.to_u64(), body_b.to_u64(), false);
    }

    fn soft_body_get_collision_exceptions(&self, body: Rid) -> Array<Rid> {
        let mut out = Array::new();
        if let Some(s) = self.soft(body) {
            for e in &s.exceptions {
                out.push(Rid::new(*e));
            }
        }
        out
    }

    fn soft_body_set_state(&mut self, body: Rid, state: BodyState, variant: Variant) {
        self.st.soft_set_state(body.to_u64(), state, &variant);
    }

    fn soft_body_get_state(&self, body: Rid, state: BodyState) -> Variant {
        self.st.soft_get_state(body.to_u64(), state)
    }

    fn soft_body_set_transform(&mut self, body: Rid, transform: Transform3D) {
        self.st.soft_set_transform(body.to_u64(), transform);
    }

    fn soft_body_set_simulation_precision(&mut self, body: Rid, simulation_precision: i32) {
        let v = simulation_precision.max(0);
        self.st.soft_set_param(
            body.to_u64(),
            site!("soft_body_set_simulation_precision"),
            v as f32,
            |s, _| s.precision = v,
        );
    }

    fn soft_body_get_simulation_precision(&self, body: Rid) -> i32 {
        self.soft(body).map_or(0, |s| s.precision)
    }

    fn soft_body_set_total_mass(&mut self, body: Rid, total_mass: f32) {
        self.st.soft_set_param(
            body.to_u64(),
            site!("soft_body_set_total_mass"),
            total_mass,
            |s, v| s.total_mass = max(v, 0.0),
        );
    }

    fn soft_body_get_total_mass(&self, body: Rid) -> f32 {
        self.soft(body).map_or(0.0, |s| s.total_mass)
    }

    fn soft_body_set_linear_stiffness(&mut self, body: Rid, linear_stiffness: f32) {
        self.st.soft_set_param(
            body.to_u64(),
            site!("soft_body_set_linear_stiffness"),
            linear_stiffness,
            |s, v| {
                s.stiffness = maul3d::math::clamp(v, 0.0, 1.0);
                s.compliance = crate::soft::edge_compliance(s.stiffness);
            },
        );
    }

    fn soft_body_get_linear_stiffness(&self, body: Rid) -> f32 {
        self.soft(body).map_or(0.0, |s| s.stiffness)
    }

    fn soft_body_set_shrinking_factor(&mut self, body: Rid, shrinking_factor: f32) {
        if let Some(s) = self.st.softs.get_mut(&body.to_u64()) {
            s.shrinking = shrinking_factor;
        }
        if shrinking_factor != 0.0 {
            unsupported(
                "soft_body_set_shrinking_factor",
                "a soft body's shrinking factor: stored only",
            );
        }
    }

    fn soft_body_get_shrinking_factor(&self, body: Rid) -> f32 {
        self.soft(body).map_or(0.0, |s| s.shrinking)
    }

    fn soft_body_set_pressure_coefficient(&mut self, body: Rid, pressure_coefficient: f32) {
        self.st.soft_set_param(
            body.to_u64(),
            site!("soft_body_set_pressure_coefficient"),
            pressure_coefficient,
            |s, v| s.pressure = max(v, 0.0),
        );
    }

    fn soft_body_get_pressure_coefficient(&self, body: Rid) -> f32 {
        self.soft(body).map_or(0.0, |s| s.pressure)
    }

    fn soft_body_set_damping_coefficient(&mut self, body: Rid, damping_coefficient: f32) {
        self.st.soft_set_param(
            body.to_u64(),
            site!("soft_body_set_damping_coefficient"),
            damping_coefficient,
            |s, v| s.damping = max(v, 0.0),
        );
    }

    fn soft_body_get_damping_coefficient(&self, body: Rid) -> f32 {
        self.soft(body).map_or(0.0, |s| s.damping)
    }

    fn soft_body_set_drag_coefficient(&mut self, body: Rid, drag_coefficient: f32) {
        self.st.soft_set_param(
            body.to_u64(),
            site!("soft_body_set_drag_coefficient"),
            drag_coefficient,
            |s, v| s.drag = max(v, 0.0),
        );
    }

    fn soft_body_get_drag_coefficient(&self, body: Rid) -> f32 {
        self.soft(body).map_or(0.0, |s| s.drag)
    }

    fn soft_body_set_mesh(&mut self, body: Rid, mesh: Rid) {
        self.st.soft_set_mesh(body.to_u64(), mesh);
    }

    fn soft_body_get_bounds(&self, body: Rid) -> Aabb {
        self.st.soft_bounds(body.to_u64())
    }

    fn soft_body_move_point(&mut self, body: Rid, point_index: i32, global_position: Vector3) {
        self.st
            .soft_move_point(body.to_u64(), point_index, global_position);
    }

    fn soft_body_get_point_global_position(&self, body: Rid, point_index: i32) -> Vector3 {
        self.st.soft_point_position(body.to_u64(), point_index)
    }

    fn soft_body_remove_all_pinned_points(&mut self, body: Rid) {
        self.st.soft_unpin_all(body.to_u64());
    }

    fn soft_body_pin_point(&mut self, body: Rid, point_index: i32, pin: bool) {
        self.st.soft_pin_point(body.to_u64(), point_index, pin);
    }

    fn soft_body_is_point_pinned(&self, body: Rid, point_index: i32) -> bool {
        self.st.soft_is_pinned(body.to_u64(), point_index)
    }

    fn soft_body_apply_point_impulse(&mut self, body: Rid, point_index: i32, impulse: Vector3) {
        self.st
            .soft_point_impulse(body.to_u64(), point_index, impulse, false);
    }

    fn soft_body_apply_point_force(&mut self, body: Rid, point_index: i32, force: Vector3) {
        self.st
            .soft_point_impulse(body.to_u64(), point_index, force, true);
    }

    fn soft_body_apply_central_impulse(&mut self, body: Rid, impulse: Vector3) {
        self.st.soft_central_impulse(body.to_u64(), impulse, false);
    }

    fn soft_body_apply_central_force(&mut self, body: Rid, force: Vector3) {
        self.st.soft_central_impulse(body.to_u64(), force, true);
    }

    fn joint_create(&mut self) -> Rid {
        self.st.joint_create()
    }

    fn joint_clear(&mut self, joint: Rid) {
        self.st.joint_set(joint.to_u64(), |j| {
            j.kind = GJointKind::None;
            j.params.clear();
            j.flags.clear();
        });
    }

    fn joint_make_pin(
        &mut self,
        joint: Rid,
        body_a: Rid,
        local_a: Vector3,
        body_b: Rid,
        local_b: Vector3,
    ) {
        self.make_joint(
            joint,
            GJointKind::Pin,
            body_a,
            Transform3D::new(Basis::IDENTITY, local_a),
            body_b,
            Transform3D::new(Basis::IDENTITY, local_b),
        );
    }

    fn pin_joint_set_param(&mut self, joint: Rid, param: PinJointParam, value: f32) {
        // Bias and damping away from Godot's defaults give the pivot its own softness
        // (records/joints.rs `pivot_spring`); the impulse clamp is stored only.
        self.st.joint_set(joint.to_u64(), |j| {
            j.params.insert(param.ord(), value);
        });
    }

    fn pin_joint_get_param(&self, joint: Rid, param: PinJointParam) -> f32 {
        // Godot's defaults: BIAS 0.3, DAMPING 1, IMPULSE_CLAMP 0.
        let default = match param.ord() {
            0 => 0.3,
            1 => 1.0,
            _ => 0.0,
        };
        self.joint_param(joint, param.ord(), default)
    }

    fn pin_joint_set_local_a(&mut self, joint: Rid, local_a: Vector3) {
        self.st
            .joint_set(joint.to_u64(), |j| j.frame_a.origin = local_a);
    }

    fn pin_joint_get_local_a(&self, joint: Rid) -> Vector3 {
        self.st
            .joints
            .get(&joint.to_u64())
            .map_or(Vector3::ZERO, |j| j.frame_a.origin)
    }

    fn pin_joint_set_local_b(&mut self, joint: Rid, local_b: Vector3) {
        self.st
            .joint_set(joint.to_u64(), |j| j.frame_b.origin = local_b);
    }

    fn pin_joint_get_local_b(&self, joint: Rid) -> Vector3 {
        self.st
            .joints
            .get(&joint.to_u64())
            .map_or(Vector3::ZERO, |j| j.frame_b.origin)
    }

    fn joint_make_hinge(
        &mut self,
        joint: Rid,
        body_a: Rid,
        hinge_a: Transform3D,
        body_b: Rid,
        hinge_b: Transform3D,
    ) {
        self.make_joint(joint, GJointKind::Hinge, body_a, hinge_a, body_b, hinge_b);
    }

    fn joint_make_hinge_simple(
        &mut self,
        joint: Rid,
        body_a: Rid,
        pivot_a: Vector3,
        axis_a: Vector3,
        body_b: Rid,
        pivot_b: Vector3,
        axis_b: Vector3,
    ) {
        let frame = |pivot: Vector3, axis: Vector3| {
            let z = axis.try_normalized().unwrap_or(Vector3::BACK);
            let helper = if z.x.abs() < 0.9 {
                Vector3::RIGHT
            } else {
                Vector3::UP
            };
            let x = helper.cross(z).normalized();
            let y = z.cross(x);
            Transform3D::new(Basis::from_cols(x, y, z), pivot)
        };
        self.make_joint(
            joint,
            GJointKind::Hinge,
            body_a,
            frame(pivot_a, axis_a),
            body_b,
            frame(pivot_b, axis_b),
        );
    }

    fn hinge_joint_set_param(&mut self, joint: Rid, param: HingeJointParam, value: f32) {
        self.st.joint_set(joint.to_u64(), |j| {
            j.params.insert(param.ord(), value);
        });
    }

    fn hinge_joint_get_param(&self, joint: Rid, param: HingeJointParam) -> f32 {
        let default = match param.ord() {
            0 | 3 => 0.3,
            4 => 0.9,
            5 => 1.0,
            1 => 90f32.to_radians(),
            2 => -90f32.to_radians(),
            7 => 1.0,
            _ => 0.0,
        };
        self.joint_param(joint, param.ord(), default)
    }

    fn hinge_joint_set_flag(&mut self, joint: Rid, flag: HingeJointFlag, enabled: bool) {
        self.st.joint_set(joint.to_u64(), |j| {
            j.flags.insert(flag.ord(), enabled);
        });
    }

    fn hinge_joint_get_flag(&self, joint: Rid, flag: HingeJointFlag) -> bool {
        self.st
            .joints
            .get(&joint.to_u64())
            .is_some_and(|j| j.flag(flag.ord(), false))
    }

    fn joint_make_slider(
        &mut self,
        joint: Rid,
        body_a: Rid,
        local_ref_a: Transform3D,
        body_b: Rid,
        local_ref_b: Transform3D,
    ) {
        self.make_joint(
            joint,
            GJointKind::Slider,
            body_a,
            local_ref_a,
            body_b,
            local_ref_b,
        );
    }

    fn slider_joint_set_param(&mut self, joint: Rid, param: SliderJointParam, value: f32) {
        // The linear limits (0, 1) and their softness, restitution and damping (2, 3, 4: a
        // soft limit, `records::joints::soft_limit`) map to the core's prismatic joint;
        // Godot sets every parameter when it makes the joint, so the rest are stored
        // silently (README).
        self.st.joint_set(joint.to_u64(), |j| {
            j.params.insert(param.ord(), value);
        });
    }

    fn slider_joint_get_param(&self, joint: Rid, param: SliderJointParam) -> f32 {
        let default = match param.ord() {
            0 => 1.0,
            1 => -1.0,
            _ => 0.0,
        };
        self.joint_param(joint, param.ord(), default)
    }

    fn joint_make_cone_twist(
        &mut self,
        joint: Rid,
        body_a: Rid,
        local_ref_a: Transform3D,
        body_b: Rid,
        local_ref_b: Transform3D,
    ) {
        self.make_joint(
            joint,
            GJointKind::ConeTwist,
            body_a,
            local_ref_a,
            body_b,
            local_ref_b,
        );
    }

    fn cone_twist_joint_set_param(&mut self, joint: Rid, param: ConeTwistJointParam, value: f32) {
        self.st.joint_set(joint.to_u64(), |j| {
            j.params.insert(param.ord(), value);
        });
    }

    fn cone_twist_joint_get_param(&self, joint: Rid, param: ConeTwistJointParam) -> f32 {
        let default = match param.ord() {
            0 => 45f32.to_radians(),
            1 => 180f32.to_radians(),
            _ => 0.0,
        };
        self.joint_param(joint, param.ord(), default)
    }

    fn joint_make_generic_6dof(
        &mut self,
        joint: Rid,
        body_a: Rid,
        local_ref_a: Transform3D,
        body_b: Rid,
        local_ref_b: Transform3D,
    ) {
        self.make_joint(
            joint,
            GJointKind::SixDof,
            body_a,
            local_ref_a,
            body_b,
            local_ref_b,
        );
    }

    fn generic_6dof_joint_set_param(
        &mut self,
        joint: Rid,
        axis: Vector3Axis,
        param: G6dofJointAxisParam,
        value: f32,
    ) {
        let p = param.ord();
        let key = axis.ord() * 100 + p;
        self.st.joint_set(joint.to_u64(), |j| {
            j.params.insert(key, value);
        });
    }

    fn generic_6dof_joint_get_param(
        &self,
        joint: Rid,
        axis: Vector3Axis,
        param: G6dofJointAxisParam,
    ) -> f32 {
        self.joint_param(joint, axis.ord() * 100 + param.ord(), 0.0)
    }

    fn generic_6dof_joint_set_flag(
        &mut self,
        joint: Rid,
        axis: Vector3Axis,
        flag: G6dofJointAxisFlag,
        enable: bool,
    ) {
        let key = axis.ord() * 100 + flag.ord();
        self.st.joint_set(joint.to_u64(), |j| {
            j.flags.insert(key, enable);
        });
    }

    fn generic_6dof_joint_get_flag(
        &self,
        joint: Rid,
        axis: Vector3Axis,
        flag: G6dofJointAxisFlag,
    ) -> bool {
        let key = axis.ord() * 100 + flag.ord();
        self.st
            .joints
            .get(&joint.to_u64())
            .is_some_and(|j| j.flag(key, flag.ord() <= 1))
    }

    fn joint_get_type(&self, joint: Rid) -> JointType {
        match self.st.joints.get(&joint.to_u64()).map(|j| j.kind) {
            Some(GJointKind::Pin) => JointType::PIN,
            Some(GJointKind::Hinge) => JointType::HINGE,
            Some(GJointKind::Slider) => JointType::SLIDER,
            Some(GJointKind::ConeTwist) => JointType::CONE_TWIST,
            Some(GJointKind::SixDof) => JointType::TYPE_6DOF,
            _ => JointType::MAX,
        }
    }

    fn joint_set_solver_priority(&mut self, joint: Rid, priority: i32) {
        if let Some(j) = self.st.joints.get_mut(&joint.to_u64()) {
            j.priority = priority;
        }
    }

    fn joint_get_solver_priority(&self, joint: Rid) -> i32 {
        self.st
            .joints
            .get(&joint.to_u64())
            .map_or(1, |j| j.priority)
    }

    fn joint_disable_collisions_between_bodies(&mut self, joint: Rid, disable: bool) {
        self.st
            .joint_set(joint.to_u64(), |j| j.disable_collisions = disable);
    }

    fn joint_is_disabled_collisions_between_bodies(&self, joint: Rid) -> bool {
        self.st
            .joints
            .get(&joint.to_u64())
            .is_some_and(|j| j.disable_collisions)
    }

    fn free_rid(&mut self, rid: Rid) {
        let id = rid.to_u64();
        if let Some((d, _)) = self.body_states.remove(&id) {
            d.free();
        }
        self.st.free(id);
    }

    fn set_active(&mut self, active: bool) {
        self.st.paused = !active;
    }

    fn init_ext(&mut self) {
        crate::singleton::set_server_active(true);
    }

    fn step(&mut self, step: f32) {
        if self.st.paused {
            return;
        }
        self.st.step(step);
    }

    fn sync(&mut self) {}

    fn flush_queries(&mut self) {
        if self.st.paused {
            return;
        }
        self.flush();
    }

    fn end_sync(&mut self) {}

    fn finish(&mut self) {
        crate::singleton::set_server_active(false);
        for (_, (d, _)) in std::mem::take(&mut self.body_states) {
            d.free();
        }
        for s in self.st.spaces.values_mut() {
            if let Some(d) = s.direct.take() {
                d.free();
            }
        }
    }

    fn is_flushing_queries(&self) -> bool {
        self.st.flushing
    }

    fn get_process_info(&mut self, process_info: ProcessInfo) -> i32 {
        let spaces = self.st.spaces.values();
        match process_info {
            ProcessInfo::ACTIVE_OBJECTS => spaces
                .map(|s| s.world.counters().awake_body_count as i32)
                .sum(),
            ProcessInfo::COLLISION_PAIRS => spaces
                .map(|s| s.world.counters().touching_contact_count as i32)
                .sum(),
            ProcessInfo::ISLAND_COUNT => {
                spaces.map(|s| s.world.counters().island_count as i32).sum()
            }
            _ => 0,
        }
    }
}

/// The Godot shape index of the separation ray whose tip is `tip` (the one nearest it)
/// for a motion test `test` that ended at its travel.
fn ray_shape_of(
    rays: &[maul3d::SeparationRay],
    shapes: &[i32],
    test: &maul3d::MotionTest,
    travel: maul3d::math::Vec3,
    tip: maul3d::math::DVec3,
) -> i32 {
    let mut best = (f64::INFINITY, shapes.first().copied().unwrap_or(0));
    for (r, &i) in rays.iter().zip(shapes) {
        let d = test.rotation.rotate(r.direction);
        let unit = d * (1.0 / maul3d::math::sqrt(d.dot(d)));
        let local = test.rotation.rotate(r.origin) + unit * r.length;
        let off = (tip - test.position).to_f32() - travel - local;
        let dist = f64::from(off.dot(off));
        if dist < best.0 {
            best = (dist, i);
        }
    }
    best.1
}
