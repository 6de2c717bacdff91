//! Bodies: the record of a Godot body or area (`Obj`), the `maul3d` body that mirrors it
//! while it is in a space (made, rebuilt and removed from the record), and the body
//! calls: mode, parameters, state, mass, damping, materials, filters and locks.

use std::collections::{BTreeSet, VecDeque};

use godot::classes::physics_server_3d::{BodyDampMode, BodyMode, BodyParameter, BodyState};
use godot::prelude::*;
use maul3d::math::max;
use maul3d::math::{Mat3, Vec3};
use maul3d::{
    BodyDef, BodyId, BodyType, Filter, HullId, MassData, MeshId, MotionLocks, ShapeId, World,
};

use super::shapes::{Made, create_core_shape, shape_def};
use super::{AreaParams, KinematicTarget, Records, ReportedContact, ShapeSlot};
use crate::conv::{basis_near, dv, gbasis, gtransform, gv, split_basis, v3, var_f32};
use crate::errors::{OrReport, error_once, report_create_error, site};

/// Above this speed, m/s, a kinematic body's new transform is a teleport, not a motion.
const MAX_KINEMATIC_SPEED: f32 = 100.0;

/// A body or area in its world: its `maul3d` body, per Godot shape index the `maul3d`
/// shape (none when disabled or not representable) and hull made for it, and the meshes
/// made for its concave polygon and height map shapes.
#[derive(Clone)]
pub(crate) struct CoreObj {
    pub body: BodyId,
    pub shapes: Vec<(Option<ShapeId>, Option<HullId>)>,
    pub meshes: Vec<MeshId>,
}

/// A body or an area.
pub(crate) struct Obj {
    pub is_area: bool,
    pub space: Option<u64>,
    pub mode: BodyMode,
    pub shapes: Vec<ShapeSlot>,
    pub instance_id: u64,
    pub layer: u32,
    pub mask: u32,
    pub priority: f32,
    pub user_flags: u32,
    /// Godot's transform of the object, scale included.
    pub transform: Transform3D,
    /// What `transform`'s basis has beyond its rotation, in the rotated frame (scale, a
    /// mirror, a shear: [`split_basis`]): the `maul3d` body takes the rotation and every
    /// shape is made with this baked in, as Godot's servers collide a body's shapes under
    /// its whole transform. The identity when the object is not scaled.
    pub scale: Basis,
    pub linear_velocity: Vector3,
    pub angular_velocity: Vector3,
    pub sleeping: bool,
    pub can_sleep: bool,
    pub bounce: f32,
    pub friction: f32,
    pub mass: f32,
    /// Zero: from the shapes.
    pub inertia: Vector3,
    pub custom_center: Option<Vector3>,
    pub gravity_scale: f32,
    pub linear_damp_mode: BodyDampMode,
    pub angular_damp_mode: BodyDampMode,
    pub linear_damp: f32,
    pub angular_damp: f32,
    pub ccd: bool,
    pub locks: u32,
    pub omit_force_integration: bool,
    pub constant_force: Vector3,
    pub constant_torque: Vector3,
    /// Constant forces applied at points, as force and torque about the centre of mass are
    /// recomputed each step from these.
    pub state_sync: Option<Callable>,
    pub force_integration: Option<(Callable, Variant)>,
    pub max_contacts: i32,
    pub contacts_depth_threshold: f32,
    pub contacts: Vec<ReportedContact>,
    pub exceptions: BTreeSet<u64>,
    pub ray_pickable: bool,
    // Areas.
    pub area: AreaParams,
    pub monitorable: bool,
    pub monitor: Option<Callable>,
    pub area_monitor: Option<Callable>,
    /// What an area last reported inside it: (object, its shape, area shape).
    pub reported: BTreeSet<(u64, i32, i32)>,
    /// The other areas an area with an area-monitor callback last reported inside it.
    pub reported_areas: BTreeSet<(u64, i32, i32)>,
    pub core: Option<CoreObj>,
    /// The last [`PAST_BODIES`] `maul3d` bodies this object was made as (the newest last,
    /// the current one among them), each with the Godot-side values it was made from: a
    /// restore that brings back an earlier body of the object (made before a rebuild: a
    /// mode change, shapes added or removed, a new scale) re-attaches the object to it
    /// with the shape slots and scale it had then (`Records::restore`).
    pub past: VecDeque<PastBody>,
}

/// How many earlier bodies of an object its record remembers for a restore.
pub(crate) const PAST_BODIES: usize = 16;

/// One body an object was made as, with the record's Godot-side values at that time.
#[derive(Clone)]
pub(crate) struct PastBody {
    pub core: CoreObj,
    pub slots: Vec<ShapeSlot>,
    pub scale: Basis,
}

impl Obj {
    pub fn new(is_area: bool) -> Obj {
        Obj {
            is_area,
            space: None,
            mode: if is_area {
                BodyMode::STATIC
            } else {
                BodyMode::RIGID
            },
            shapes: Vec::new(),
            instance_id: 0,
            layer: 1,
            mask: 1,
            priority: 1.0,
            user_flags: 0,
            transform: Transform3D::IDENTITY,
            scale: Basis::IDENTITY,
            linear_velocity: Vector3::ZERO,
            angular_velocity: Vector3::ZERO,
            sleeping: false,
            can_sleep: true,
            bounce: 0.0,
            friction: 1.0,
            mass: 1.0,
            inertia: Vector3::ZERO,
            custom_center: None,
            gravity_scale: 1.0,
            linear_damp_mode: BodyDampMode::COMBINE,
            angular_damp_mode: BodyDampMode::COMBINE,
            linear_damp: 0.0,
            angular_damp: 0.0,
            ccd: false,
            locks: 0,
            omit_force_integration: false,
            constant_force: Vector3::ZERO,
            constant_torque: Vector3::ZERO,
            state_sync: None,
            force_integration: None,
            max_contacts: 0,
            contacts_depth_threshold: 0.0,
            contacts: Vec::new(),
            exceptions: BTreeSet::new(),
            ray_pickable: true,
            area: AreaParams::default(),
            monitorable: false,
            monitor: None,
            area_monitor: None,
            reported: BTreeSet::new(),
            reported_areas: BTreeSet::new(),
            core: None,
            past: VecDeque::new(),
        }
    }

    /// The rotation of the object's transform (its basis without `scale`).
    pub fn rotation(&self) -> Basis {
        if self.scale == Basis::IDENTITY {
            self.transform.basis
        } else {
            gbasis(split_basis(self.transform.basis).0)
        }
    }

    /// A shape slot's transform in the `maul3d` body's frame: the object's scale applied
    /// to the slot's transform.
    pub fn shape_transform(&self, slot: &ShapeSlot) -> Transform3D {
        if self.scale == Basis::IDENTITY {
            slot.transform
        } else {
            Transform3D::new(self.scale, Vector3::ZERO) * slot.transform
        }
    }

    pub fn body_type(&self) -> BodyType {
        if self.is_area {
            return BodyType::Static;
        }
        match self.mode {
            BodyMode::STATIC => BodyType::Static,
            BodyMode::KINEMATIC => BodyType::Kinematic,
            _ => BodyType::Dynamic,
        }
    }

    pub fn is_dynamic(&self) -> bool {
        self.body_type() == BodyType::Dynamic
    }

    pub fn motion_locks(&self) -> MotionLocks {
        let l = self.locks;
        let all_angular = !self.is_area && self.mode == BodyMode::RIGID_LINEAR;
        MotionLocks {
            linear_x: l & 1 != 0,
            linear_y: l & 2 != 0,
            linear_z: l & 4 != 0,
            angular_x: all_angular || l & 8 != 0,
            angular_y: all_angular || l & 16 != 0,
            angular_z: all_angular || l & 32 != 0,
        }
    }

    /// Godot's rule in the core's: Godot collides A and B when either one's mask sees the
    /// other's layer; the core when both do (`A.mask & B.category` and
    /// `B.mask & A.category`). With category = layer | mask << 32 and
    /// mask = mask | layer << 32, each of the core's two tests is exactly Godot's "either"
    /// (the low half checks one direction, the high half the other), so their "and" is it
    /// too. Queries with a Godot mask M use mask M and every category: they test the
    /// object's layer only, as Godot's do.
    pub fn filter(&self) -> Filter {
        layer_mask_filter(self.layer, self.mask)
    }
}

/// Godot's layer and mask as a core filter (see [`Obj::filter`]; soft bodies too).
pub(crate) fn layer_mask_filter(layer: u32, mask: u32) -> Filter {
    let (layer, mask) = (u64::from(layer), u64::from(mask));
    Filter {
        category_bits: layer | mask << 32,
        mask_bits: mask | layer << 32,
        group_index: 0,
    }
}

impl Records {
    pub fn obj_create(&mut self, is_area: bool) -> Rid {
        let rid = self.new_rid();
        self.objs.insert(rid.to_u64(), Obj::new(is_area));
        rid
    }

    /// Reads the world's state of an object back into its record.
    pub(super) fn pull(&mut self, rid: u64) {
        let Some(o) = self.objs.get_mut(&rid) else {
            return;
        };
        let (Some(space), Some(core)) = (o.space, o.core.as_ref()) else {
            return;
        };
        let Some(s) = self.spaces.get(&space) else {
            return;
        };
        let w = &s.world;
        if let (Ok(p), Ok(q)) = (w.body_position(core.body), w.body_rotation(core.body)) {
            o.transform = gtransform(p, q);
            if o.scale != Basis::IDENTITY {
                o.transform.basis = o.transform.basis * o.scale;
            }
        }
        if let Ok(v) = w.body_linear_velocity(core.body) {
            o.linear_velocity = gv(v);
        }
        if let Ok(v) = w.body_angular_velocity(core.body) {
            o.angular_velocity = gv(v);
        }
        if let Ok(a) = w.body_is_awake(core.body) {
            o.sleeping = !a;
        }
    }

    /// Removes an object's `maul3d` body (its record keeps the state).
    pub(super) fn dematerialize(&mut self, rid: u64) {
        self.pull(rid);
        for j in self.joints_of(rid) {
            self.joint_unmake(j);
        }
        let Some(o) = self.objs.get_mut(&rid) else {
            return;
        };
        let Some(core) = o.core.take() else {
            return;
        };
        let Some(s) = o.space.and_then(|sp| self.spaces.get_mut(&sp)) else {
            return;
        };
        for id in core.shapes.iter().filter_map(|(shape, _)| *shape) {
            s.shape_owners.remove(&id);
        }
        let w = &mut s.world;
        w.destroy_body(core.body)
            .or_report(site!("removing a body from its space (destroy_body)"));
        for (_, hull) in core.shapes {
            if let Some(h) = hull {
                w.destroy_hull(h)
                    .or_report(site!("removing a body from its space (destroy_hull)"));
            }
        }
        for m in core.meshes {
            w.destroy_mesh(m)
                .or_report(site!("removing a body from its space (destroy_mesh)"));
        }
    }

    /// Creates an object's `maul3d` body and shapes from its record.
    fn materialize(&mut self, rid: u64) {
        let Some(o) = self.objs.get(&rid) else {
            return;
        };
        let Some(space) = o.space else {
            return;
        };
        let Some(s) = self.spaces.get_mut(&space) else {
            return;
        };
        let w = &mut s.world;
        let def = BodyDef {
            body_type: o.body_type(),
            position: dv(o.transform.origin),
            rotation: split_basis(o.transform.basis).0,
            linear_velocity: if o.is_dynamic() {
                v3(o.linear_velocity)
            } else {
                Vec3::ZERO
            },
            angular_velocity: if o.is_dynamic() {
                v3(o.angular_velocity)
            } else {
                Vec3::ZERO
            },
            gravity_scale: o.gravity_scale,
            enable_sleep: o.can_sleep,
            is_awake: !o.sleeping,
            is_bullet: o.ccd,
            motion_locks: o.motion_locks(),
            custom_integrator: o.omit_force_integration,
            user_data: rid,
            ..BodyDef::default()
        };
        super::growth::make_room(w, 1, o.shapes.len() as u32, 0);
        let body = match w.create_body(&def) {
            Ok(b) => b,
            Err(e) => {
                report_create_error(if o.is_area { "area" } else { "body" }, &e);
                return;
            }
        };
        let mut shapes = Vec::with_capacity(o.shapes.len());
        let mut meshes = Vec::new();
        for (i, slot) in o.shapes.iter().enumerate() {
            let made = if slot.disabled {
                Made::default()
            } else {
                match self.shapes.get(&slot.shape) {
                    Some(gs) => create_core_shape(
                        w,
                        body,
                        &shape_def(o, rid, i),
                        gs,
                        o.shape_transform(slot),
                    ),
                    None => Made::default(),
                }
            };
            shapes.push((made.shape, made.hull));
            meshes.extend(made.mesh);
        }
        let core = CoreObj {
            body,
            shapes,
            meshes,
        };
        s.own_shapes(rid, &core);
        let o = self.objs.get_mut(&rid).expect("object exists");
        if o.past.len() == PAST_BODIES {
            o.past.pop_front();
        }
        o.past.push_back(PastBody {
            core: core.clone(),
            slots: o.shapes.clone(),
            scale: o.scale,
        });
        o.core = Some(core);
        self.apply_area(rid);
        self.apply_area_monitoring(rid);
        self.apply_mass(rid);
        self.apply_damping(rid);
        self.remake_joints_of(rid);
        self.soft_except_made_body(rid);
        // The tables walk every object: only when this one has exceptions or the space
        // has any (a space without exceptions stays without; creation stays O(1)).
        let has_exceptions = self
            .objs
            .get(&rid)
            .is_some_and(|o| !o.exceptions.is_empty());
        if has_exceptions
            || self
                .spaces
                .get(&space)
                .is_some_and(|s| !s.exceptions.pairs.is_empty())
        {
            self.refresh_exceptions(space);
        }
        self.watch(rid);
    }

    /// Rebuilds an object's `maul3d` body after its shapes or space changed.
    pub fn rebuild(&mut self, rid: u64) {
        self.dematerialize(rid);
        self.materialize(rid);
    }

    pub fn obj_set_space(&mut self, rid: u64, space: Option<u64>) {
        let space = space.filter(|s| self.spaces.contains_key(s));
        if self.objs.get(&rid).is_none_or(|o| o.space == space) {
            return;
        }
        self.dematerialize(rid);
        if let Some(o) = self.objs.get_mut(&rid) {
            o.space = space;
        }
        self.materialize(rid);
        self.watch(rid);
    }

    pub fn obj_add_shape(&mut self, rid: u64, shape: u64, transform: Transform3D, disabled: bool) {
        if let Some(o) = self.objs.get_mut(&rid) {
            o.shapes.push(ShapeSlot {
                shape,
                transform,
                disabled,
            });
            self.shape_users.entry(shape).or_default().insert(rid);
            self.rebuild(rid);
        }
    }

    pub fn obj_edit_shapes(&mut self, rid: u64, edit: impl FnOnce(&mut Vec<ShapeSlot>)) {
        if let Some(o) = self.objs.get_mut(&rid) {
            let before = std::mem::take(&mut o.shapes);
            let mut after = before.clone();
            edit(&mut after);
            if after == before {
                // Nothing changed (a node setting what the record holds, or removing a
                // slot it does not have after a restore): the body stays as it is.
                o.shapes = before;
                return;
            }
            o.shapes = after.clone();
            self.forget_shape_users(rid, &before);
            self.note_shape_users(rid, &after);
            self.rebuild(rid);
        }
    }

    pub fn body_set_mode(&mut self, rid: u64, mode: BodyMode) {
        let Some(o) = self.objs.get_mut(&rid) else {
            return;
        };
        if o.mode == mode {
            return;
        }
        o.mode = mode;
        self.rebuild(rid);
        self.watch(rid);
    }

    /// Mass, centre of mass and inertia as Godot sets them: the mass is Godot's
    /// `mass` parameter; the centre and inertia come from the shapes (scaled to that
    /// mass) unless set.
    pub fn apply_mass(&mut self, rid: u64) {
        let Some(o) = self.objs.get(&rid) else {
            return;
        };
        if !o.is_dynamic() {
            return;
        }
        let (mass, inertia, custom_center) = (max(o.mass, 1e-6), o.inertia, o.custom_center);
        let Some((space, body)) = self.core_body(rid) else {
            return;
        };
        let Some(w) = self.world_mut(space) else {
            return;
        };
        w.set_body_mass_data(body, None)
            .or_report(site!("body_set_param(MASS): mass from the shapes"));
        let from_shapes = w.body_mass_data(body).ok();
        // A body with no solid shape (none yet, or only meshes, which the core refuses on
        // rigid bodies) has no inertia from them: it gets mass × identity below.
        let (center, shape_inertia) = match from_shapes {
            Some(m) if m.mass > 0.0 && m.inertia.determinant() > 0.0 => {
                (m.center, m.inertia.scale(mass / m.mass))
            }
            _ => (
                Vec3::ZERO,
                Mat3::from_cols(Vec3::X * mass, Vec3::Y * mass, Vec3::Z * mass),
            ),
        };
        let inertia = if inertia != Vector3::ZERO {
            Mat3::from_cols(
                Vec3::X * max(inertia.x, 1e-6),
                Vec3::Y * max(inertia.y, 1e-6),
                Vec3::Z * max(inertia.z, 1e-6),
            )
        } else {
            shape_inertia
        };
        let data = MassData {
            mass,
            center: custom_center.map_or(center, v3),
            inertia,
        };
        if let Err(e) = w.set_body_mass_data(body, Some(data)) {
            error_once("mass", &format!("mass properties refused: {e}"));
        }
    }

    /// Damping: Godot's body damping combined with (or replacing) the space default.
    pub fn apply_damping(&mut self, rid: u64) {
        let Some(o) = self.objs.get(&rid) else {
            return;
        };
        if o.is_area {
            return;
        }
        let Some(space) = o.space.and_then(|s| self.spaces.get(&s)) else {
            return;
        };
        let combine = |mode: BodyDampMode, own: f32, default: f32| {
            if mode == BodyDampMode::REPLACE {
                own
            } else {
                own + default
            }
        };
        let linear = combine(
            o.linear_damp_mode,
            o.linear_damp,
            space.default_area.linear_damp,
        );
        let angular = combine(
            o.angular_damp_mode,
            o.angular_damp,
            space.default_area.angular_damp,
        );
        if let Some((space, body)) = self.core_body(rid)
            && let Some(w) = self.world_mut(space)
            && let Err(e) = w.set_body_damping(body, max(linear, 0.0), max(angular, 0.0))
        {
            error_once("damping", &format!("damping refused: {e}"));
        }
    }

    pub fn body_set_param(&mut self, rid: u64, param: BodyParameter, value: &Variant) {
        let Some(o) = self.objs.get_mut(&rid) else {
            return;
        };
        let f = var_f32(value);
        match param {
            // A value the core refuses (reported) leaves the record as it was.
            BodyParameter::BOUNCE => {
                let old = std::mem::replace(&mut o.bounce, f.unwrap_or(0.0));
                if !self.update_materials(rid)
                    && let Some(o) = self.objs.get_mut(&rid)
                {
                    o.bounce = old;
                }
            }
            BodyParameter::FRICTION => {
                let old = std::mem::replace(&mut o.friction, f.unwrap_or(1.0));
                if !self.update_materials(rid)
                    && let Some(o) = self.objs.get_mut(&rid)
                {
                    o.friction = old;
                }
            }
            BodyParameter::MASS => {
                o.mass = f.unwrap_or(1.0);
                self.apply_mass(rid);
            }
            BodyParameter::INERTIA => {
                o.inertia = value.try_to::<Vector3>().unwrap_or(Vector3::ZERO);
                self.apply_mass(rid);
            }
            BodyParameter::CENTER_OF_MASS => {
                o.custom_center = value.try_to::<Vector3>().ok();
                self.apply_mass(rid);
            }
            BodyParameter::GRAVITY_SCALE => {
                o.gravity_scale = f.unwrap_or(1.0);
                let g = o.gravity_scale;
                if let Some((s, b)) = self.core_body(rid)
                    && let Some(w) = self.world_mut(s)
                    && let Err(e) = w.set_body_gravity_scale(b, g)
                {
                    error_once("gravity scale", &format!("gravity scale refused: {e}"));
                }
            }
            BodyParameter::LINEAR_DAMP_MODE => {
                o.linear_damp_mode = BodyDampMode::from_ord(f.unwrap_or(0.0) as i32);
                self.apply_damping(rid);
            }
            BodyParameter::ANGULAR_DAMP_MODE => {
                o.angular_damp_mode = BodyDampMode::from_ord(f.unwrap_or(0.0) as i32);
                self.apply_damping(rid);
            }
            BodyParameter::LINEAR_DAMP => {
                o.linear_damp = f.unwrap_or(0.0);
                self.apply_damping(rid);
            }
            BodyParameter::ANGULAR_DAMP => {
                o.angular_damp = f.unwrap_or(0.0);
                self.apply_damping(rid);
            }
            _ => {}
        }
    }

    pub fn body_get_param(&self, rid: u64, param: BodyParameter) -> Variant {
        let Some(o) = self.objs.get(&rid) else {
            return Variant::nil();
        };
        match param {
            BodyParameter::BOUNCE => o.bounce.to_variant(),
            BodyParameter::FRICTION => o.friction.to_variant(),
            BodyParameter::MASS => o.mass.to_variant(),
            BodyParameter::INERTIA => o.inertia.to_variant(),
            BodyParameter::CENTER_OF_MASS => o.custom_center.unwrap_or(Vector3::ZERO).to_variant(),
            BodyParameter::GRAVITY_SCALE => o.gravity_scale.to_variant(),
            BodyParameter::LINEAR_DAMP_MODE => o.linear_damp_mode.ord().to_variant(),
            BodyParameter::ANGULAR_DAMP_MODE => o.angular_damp_mode.ord().to_variant(),
            BodyParameter::LINEAR_DAMP => o.linear_damp.to_variant(),
            BodyParameter::ANGULAR_DAMP => o.angular_damp.to_variant(),
            _ => Variant::nil(),
        }
    }

    /// Friction and bounce on every shape of the body; false when the core refused them.
    fn update_materials(&mut self, rid: u64) -> bool {
        let Some(o) = self.objs.get(&rid) else {
            return true;
        };
        let (friction, rough, bounce, absorbent) = super::shapes::material(o);
        let ids: Vec<ShapeId> = o
            .core
            .iter()
            .flat_map(|c| c.shapes.iter().filter_map(|(s, _)| *s))
            .collect();
        let Some(w) = o
            .space
            .and_then(|s| self.spaces.get_mut(&s))
            .map(|s| &mut s.world)
        else {
            return true;
        };
        let mut accepted = true;
        for id in ids {
            accepted &= w
                .set_shape_friction(id, friction)
                .or_report(site!("body_set_param(FRICTION)"))
                .is_some();
            accepted &= w
                .set_shape_restitution(id, bounce)
                .or_report(site!("body_set_param(BOUNCE)"))
                .is_some();
            accepted &= w
                .set_shape_rough(id, rough)
                .or_report(site!("body_set_param(FRICTION)"))
                .is_some();
            accepted &= w
                .set_shape_absorbent(id, absorbent)
                .or_report(site!("body_set_param(BOUNCE)"))
                .is_some();
        }
        accepted
    }

    pub fn update_filter(&mut self, rid: u64) {
        let Some(o) = self.objs.get(&rid) else {
            return;
        };
        let filter = o.filter();
        let ids: Vec<ShapeId> = o
            .core
            .iter()
            .flat_map(|c| c.shapes.iter().filter_map(|(s, _)| *s))
            .collect();
        let Some(w) = o
            .space
            .and_then(|s| self.spaces.get_mut(&s))
            .map(|s| &mut s.world)
        else {
            return;
        };
        for id in ids {
            w.set_shape_filter(id, filter)
                .or_report(site!("body_set_collision_layer/mask"));
        }
    }

    /// `body_set_state`. A value the core refuses is reported (once per kind of error)
    /// and changes nothing: the record reads the body's state back from the world.
    pub fn body_set_state(&mut self, rid: u64, state: BodyState, value: &Variant) {
        if state == BodyState::TRANSFORM
            && let Ok(t) = value.try_to::<Transform3D>()
            && self.set_scaled_transform(rid, t)
        {
            return;
        }
        self.pull(rid);
        let Some(o) = self.objs.get_mut(&rid) else {
            return;
        };
        let core = o.core.as_ref().map(|c| c.body);
        let mut space = o.space.and_then(|s| self.spaces.get_mut(&s));
        // None: refused by the core (and reported).
        let done: Option<()> = match state {
            BodyState::TRANSFORM => {
                let Ok(t) = value.try_to::<Transform3D>() else {
                    return;
                };
                // The same scale within float noise (a new one was handled above).
                o.transform = t;
                if let (Some(b), Some(s)) = (core, space.as_deref_mut()) {
                    let (p, q) = (dv(t.origin), split_basis(t.basis).0);
                    let dt = s.last_step;
                    // A kinematic body reaches a new transform by velocity over the next
                    // step (so it pushes what it touches, and reports that velocity
                    // until the step after), unless that is a teleport (faster than
                    // MAX_KINEMATIC_SPEED): then it is placed there. The velocity is set
                    // at the step, from its length (`Records::step`); until then the
                    // body keeps the one its last move implied, as under Godot Physics
                    // and Jolt.
                    let far = s.world.body_position(b).is_ok_and(|at| {
                        let d = (p - at).to_f32();
                        d.dot(d) > (MAX_KINEMATIC_SPEED * dt) * (MAX_KINEMATIC_SPEED * dt)
                    });
                    let kinematic = o.mode == BodyMode::KINEMATIC && !o.is_area;
                    if kinematic && !far {
                        s.kinematic_targets.insert(
                            b,
                            KinematicTarget {
                                position: p,
                                rotation: q,
                            },
                        );
                        Some(())
                    } else {
                        s.kinematic_targets.remove(&b);
                        let w = &mut s.world;
                        let r = if kinematic {
                            w.set_body_velocity(b, Vec3::ZERO, Vec3::ZERO)
                                .and_then(|_| w.set_body_transform(b, p, q))
                        } else {
                            w.set_body_transform(b, p, q)
                        };
                        r.or_report(site!("body_set_state(TRANSFORM)"))
                    }
                } else {
                    Some(())
                }
            }
            BodyState::LINEAR_VELOCITY => {
                let Ok(v) = value.try_to::<Vector3>() else {
                    return;
                };
                o.linear_velocity = v;
                match (core, space.map(|s| &mut s.world)) {
                    (Some(b), Some(w)) if o.is_dynamic() => w
                        .set_body_linear_velocity(b, v3(v))
                        .or_report(site!("body_set_state(LINEAR_VELOCITY)")),
                    _ => Some(()),
                }
            }
            BodyState::ANGULAR_VELOCITY => {
                let Ok(v) = value.try_to::<Vector3>() else {
                    return;
                };
                o.angular_velocity = v;
                match (core, space.map(|s| &mut s.world)) {
                    (Some(b), Some(w)) if o.is_dynamic() => w
                        .set_body_angular_velocity(b, v3(v))
                        .or_report(site!("body_set_state(ANGULAR_VELOCITY)")),
                    _ => Some(()),
                }
            }
            BodyState::SLEEPING => {
                let sleeping = value.try_to::<bool>().unwrap_or(false);
                o.sleeping = sleeping;
                match (core, space.map(|s| &mut s.world)) {
                    (Some(b), Some(w)) => w
                        .set_body_awake(b, !sleeping)
                        .or_report(site!("body_set_state(SLEEPING)")),
                    _ => Some(()),
                }
            }
            BodyState::CAN_SLEEP => {
                let can = value.try_to::<bool>().unwrap_or(true);
                let done = match (core, space.map(|s| &mut s.world)) {
                    (Some(b), Some(w)) => w
                        .set_body_sleep_enabled(b, can)
                        .or_report(site!("body_set_state(CAN_SLEEP)")),
                    _ => Some(()),
                };
                if done.is_some() {
                    o.can_sleep = can;
                }
                done
            }
            _ => Some(()),
        };
        if done.is_none() {
            self.pull(rid);
        }
    }

    /// A transform whose scale differs from the object's (beyond float noise): the record
    /// takes it and the `maul3d` body is made again, every shape with the new scale baked
    /// in, at the new transform. False (nothing done) when the scale is the same.
    fn set_scaled_transform(&mut self, rid: u64, t: Transform3D) -> bool {
        let Some(o) = self.objs.get(&rid) else {
            return false;
        };
        let scale = split_basis(t.basis).1;
        if basis_near(scale, o.scale) {
            return false;
        }
        self.dematerialize(rid);
        if let Some(o) = self.objs.get_mut(&rid) {
            o.transform = t;
            o.scale = scale;
        }
        self.materialize(rid);
        true
    }

    pub fn body_get_state(&self, rid: u64, state: BodyState) -> Variant {
        let Some(o) = self.objs.get(&rid) else {
            return Variant::nil();
        };
        match state {
            BodyState::TRANSFORM => o.transform.to_variant(),
            BodyState::LINEAR_VELOCITY => o.linear_velocity.to_variant(),
            BodyState::ANGULAR_VELOCITY => o.angular_velocity.to_variant(),
            BodyState::SLEEPING => o.sleeping.to_variant(),
            BodyState::CAN_SLEEP => o.can_sleep.to_variant(),
            _ => Variant::nil(),
        }
    }

    /// Runs `f` on a body's world and id, then reads its state back.
    pub fn with_body(
        &mut self,
        rid: u64,
        f: impl FnOnce(&mut World, BodyId) -> maul3d::Result<()>,
    ) {
        let Some((space, body)) = self.core_body(rid) else {
            return;
        };
        if let Some(w) = self.world_mut(space)
            && let Err(e) = f(w, body)
        {
            error_once("body call", &format!("a body call was refused: {e}"));
        }
        self.pull(rid);
    }

    pub fn body_set_locks(&mut self, rid: u64) {
        let Some(o) = self.objs.get(&rid) else {
            return;
        };
        let locks = o.motion_locks();
        self.with_body(rid, |w, b| w.set_body_motion_locks(b, locks));
    }
}

/// Wakes the sleeping dynamic bodies touching a kinematic body that starts moving (the
/// core keeps a sleeping island asleep when a kinematic body it rests on gets a velocity,
/// so a platform would move out from under the box on it): the core's
/// `wake_bodies_touching`, journaled.
pub(super) fn wake_sleepers_touching(w: &mut World, body: BodyId) {
    let moving = w.body_linear_velocity(body).is_ok_and(|v| v.dot(v) > 0.0)
        || w.body_angular_velocity(body).is_ok_and(|v| v.dot(v) > 0.0);
    if moving {
        w.wake_bodies_touching(body).or_report(site!(
            "step: waking what a kinematic body moved by transform touches"
        ));
    }
}
