//! The server's records: Godot's shapes, bodies, areas and spaces by RID, and how each
//! maps onto `maul3d` worlds.
//!
//! A Godot body or area lives apart from any space until Godot gives it one; the server
//! keeps its settings and state here and, while it is in a space, mirrors it as one
//! `maul3d` body (an area as a body of sensor shapes). When the set of shapes changes,
//! the `maul3d` body is rebuilt from the record; settings go through `maul3d`'s setters.
//! Every map is ordered by RID number (RIDs are handed out in call order), so what the
//! worlds receive depends only on the order of Godot's calls.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Mutex;

use godot::classes::ProjectSettings;
use godot::classes::physics_server_3d::{
    AreaParameter, AreaSpaceOverrideMode, BodyDampMode, BodyMode, BodyParameter, BodyState,
    ShapeType, SpaceParameter,
};
use godot::prelude::*;
use maul3d::math::max;
use maul3d::math::{DVec3, Mat3, Quat, Vec3};
use maul3d::{
    AreaGravity, AreaMode, AreaSettings, BodyDef, BodyId, BodyType, BoxShape, Capsule, Cylinder,
    Filter, HullId, MassData, MeshId, MotionLocks, PlaneShape, ShapeDef, ShapeId, Sphere, World,
    WorldDef,
};

use crate::conv::{dv, gtransform, gv, quat, v3};
use crate::mesh::{Concave, HeightMap, MeshContent};

/// Warns once per key (a feature or a method name).
pub(crate) fn warn_once(key: &str, message: &str) {
    static WARNED: Mutex<BTreeSet<String>> = Mutex::new(BTreeSet::new());
    let mut warned = WARNED.lock().unwrap_or_else(|e| e.into_inner());
    if warned.insert(key.to_string()) {
        godot_warn!("Maul3D: {message}");
    }
}

/// Above this speed, m/s, a kinematic body's new transform is a teleport, not a motion.
const MAX_KINEMATIC_SPEED: f32 = 100.0;

/// Reports an error once per key.
pub(crate) fn error_once(key: &str, message: &str) {
    static REPORTED: Mutex<BTreeSet<String>> = Mutex::new(BTreeSet::new());
    let mut reported = REPORTED.lock().unwrap_or_else(|e| e.into_inner());
    if reported.insert(key.to_string()) {
        godot_error!("Maul3D: {message}");
    }
}

pub(crate) fn var_f32(v: &Variant) -> Option<f32> {
    v.try_to::<f64>()
        .ok()
        .or_else(|| v.try_to::<i64>().ok().map(|i| i as f64))
        .map(|x| x as f32)
}

/// Project settings read when a space is created: `physics/maul3d/<name>` and its default.
/// Defaults take about 10 MB per space (measured with `World::memory_usage`; every
/// World3D has a space, the editor makes several). `content_capacity` is a budget in
/// bytes, not memory taken up front: a mesh takes its bytes when it is made.
pub(crate) const CAPACITY_SETTINGS: [(&str, i64); 10] = [
    ("body_capacity", 1024),
    ("shape_capacity", 2048),
    ("contact_capacity", 4096),
    ("pair_capacity", 4096),
    ("hull_capacity", 256),
    ("joint_capacity", 512),
    ("event_capacity", 1024),
    ("sensor_capacity", 512),
    ("mesh_capacity", 1024),
    ("content_capacity", 256 << 20),
];

pub(crate) fn setting_i64(name: &str, default: i64) -> i64 {
    let path = format!("physics/maul3d/{name}");
    let ps = ProjectSettings::singleton();
    if ps.has_setting(&path) {
        ps.get_setting(&path).try_to::<i64>().unwrap_or(default)
    } else {
        default
    }
}

/// Declares the `physics/maul3d/*` project settings with their defaults (so the editor
/// lists them); a project's own values are kept.
pub(crate) fn register_settings() {
    let mut ps = ProjectSettings::singleton();
    let mut declare = |name: &str, default: Variant| {
        let path = format!("physics/maul3d/{name}");
        if !ps.has_setting(&path) {
            ps.set_setting(&path, &default);
        }
        ps.set_initial_value(&path, &default);
    };
    for (name, default) in CAPACITY_SETTINGS {
        declare(name, default.to_variant());
    }
    declare("substeps", 4.to_variant());
    declare("use_worker_thread_pool", true.to_variant());
    declare("worker_pool_min_items", 256.to_variant());
}

/// `physics/maul3d/<name>` as a bool.
pub(crate) fn setting_bool(name: &str, default: bool) -> bool {
    global_bool_or(&format!("physics/maul3d/{name}"), default)
}

/// A project setting as a bool (false when absent).
pub(crate) fn global_bool(path: &str) -> bool {
    global_bool_or(path, false)
}

fn global_bool_or(path: &str, default: bool) -> bool {
    let ps = ProjectSettings::singleton();
    if ps.has_setting(path) {
        ps.get_setting(path).try_to::<bool>().unwrap_or(default)
    } else {
        default
    }
}

/// The world description of a new space, capacities from project settings.
pub(crate) fn space_world_def() -> WorldDef {
    let cap = |name: &str, default: i64| setting_i64(name, default).clamp(1, 1 << 24) as u32;
    let c = CAPACITY_SETTINGS;
    WorldDef {
        gravity: Vec3::new(0.0, -9.8, 0.0),
        body_capacity: cap(c[0].0, c[0].1),
        shape_capacity: cap(c[1].0, c[1].1),
        contact_capacity: cap(c[2].0, c[2].1),
        pair_capacity: cap(c[3].0, c[3].1),
        hull_capacity: cap(c[4].0, c[4].1),
        joint_capacity: cap(c[5].0, c[5].1),
        event_capacity: cap(c[6].0, c[6].1),
        sensor_capacity: cap(c[7].0, c[7].1),
        mesh_capacity: cap(c[8].0, c[8].1),
        content_capacity: setting_i64(c[9].0, c[9].1).clamp(1, 1 << 40) as u64,
        task_hooks: crate::tasks::hooks(),
        ..WorldDef::default()
    }
}

/// Substeps per physics tick (`physics/maul3d/substeps`, default 4).
pub(crate) fn substeps() -> u32 {
    setting_i64("substeps", 4).clamp(1, 64) as u32
}

/// The setting that bounds what a failed create ran out of.
fn capacity_setting(e: &maul3d::Error) -> Option<&'static str> {
    let text = e.to_string();
    for (name, _) in CAPACITY_SETTINGS {
        let what = name.trim_end_matches("_capacity");
        if text.contains("capacity") && text.contains(what) {
            return Some(name);
        }
    }
    None
}

fn report_create_error(what: &str, e: &maul3d::Error) {
    match capacity_setting(e) {
        Some(setting) => error_once(
            setting,
            &format!(
                "a space is full ({e}); the {what} stays inert. Raise the project setting physics/maul3d/{setting}."
            ),
        ),
        None => error_once(what, &format!("creating a {what} failed: {e}")),
    }
}

/// A Godot shape resource.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Geometry {
    /// Not given data yet, or a kind the core does not have yet.
    None,
    Sphere(f32),
    Box(Vec3),
    /// Radius and total height (Godot's convention, along y).
    Capsule(f32, f32),
    Convex(Vec<Vec3>),
    /// Radius and total height (Godot's convention, along y).
    Cylinder(f32, f32),
    /// World boundary: unit normal and distance (Godot's `Plane`); below it is solid.
    Plane(Vec3, f32),
    /// Concave polygon: a core mesh per use.
    Concave(Concave),
    /// Height map: a core mesh per use.
    HeightMap(HeightMap),
}

pub(crate) struct GShape {
    pub ty: ShapeType,
    pub data: Variant,
    pub geometry: Geometry,
    pub margin: f32,
    pub bias: f32,
}

impl GShape {
    fn new(ty: ShapeType) -> GShape {
        GShape {
            ty,
            data: Variant::nil(),
            geometry: Geometry::None,
            margin: 0.04,
            bias: 0.0,
        }
    }
}

/// The feature a shape type still needs from the core, if any.
pub(crate) fn missing_shape_feature(ty: ShapeType) -> Option<&'static str> {
    match ty {
        ShapeType::SEPARATION_RAY => Some("separation ray shapes"),
        ShapeType::SOFT_BODY => Some("soft bodies"),
        ShapeType::CUSTOM => Some("custom shapes"),
        _ => None,
    }
}

#[derive(Clone)]
pub(crate) struct ShapeSlot {
    pub shape: u64,
    pub transform: Transform3D,
    pub disabled: bool,
}

/// A body or area in its world: its `maul3d` body, per Godot shape index the `maul3d`
/// shape (none when disabled or not representable) and hull made for it, and the meshes
/// made for its concave polygon and height map shapes.
pub(crate) struct CoreObj {
    pub body: BodyId,
    pub shapes: Vec<(Option<ShapeId>, Option<HullId>)>,
    pub meshes: Vec<MeshId>,
}

/// One contact a body reports (bodies with `max_contacts_reported` > 0).
#[derive(Clone, Copy)]
pub(crate) struct ReportedContact {
    pub local_position: Vector3,
    pub local_normal: Vector3,
    pub local_shape: i32,
    pub collider: u64,
    pub collider_id: u64,
    pub collider_shape: i32,
    pub collider_position: Vector3,
    pub collider_velocity: Vector3,
}

/// What an area sets: Godot's area parameters.
#[derive(Clone)]
pub(crate) struct AreaParams {
    pub gravity_mode: AreaSpaceOverrideMode,
    pub gravity: f32,
    pub gravity_vector: Vector3,
    pub gravity_is_point: bool,
    pub gravity_point_unit_distance: f32,
    pub linear_damp_mode: AreaSpaceOverrideMode,
    pub linear_damp: f32,
    pub angular_damp_mode: AreaSpaceOverrideMode,
    pub angular_damp: f32,
    pub priority: i32,
}

impl Default for AreaParams {
    fn default() -> AreaParams {
        AreaParams {
            gravity_mode: AreaSpaceOverrideMode::DISABLED,
            gravity: 9.8,
            gravity_vector: Vector3::new(0.0, -1.0, 0.0),
            gravity_is_point: false,
            gravity_point_unit_distance: 0.0,
            linear_damp_mode: AreaSpaceOverrideMode::DISABLED,
            linear_damp: 0.1,
            angular_damp_mode: AreaSpaceOverrideMode::DISABLED,
            angular_damp: 0.1,
            priority: 0,
        }
    }
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
    pub transform: Transform3D,
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
        let (layer, mask) = (u64::from(self.layer), u64::from(self.mask));
        Filter {
            category_bits: layer | mask << 32,
            mask_bits: mask | layer << 32,
            group_index: 0,
        }
    }
}

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
    /// Kinematic bodies given a target transform since the last step (they stop after
    /// the step that takes them there, as Godot's kinematic bodies do).
    pub kinematic_targets: Vec<BodyId>,
    /// Collision exceptions, the pre-solve callback's context (boxed: its address is
    /// handed to the world).
    pub exceptions: Box<Exceptions>,
}

#[derive(Default)]
pub(crate) struct State {
    next_rid: u64,
    pub spaces: BTreeMap<u64, Space>,
    pub shapes: BTreeMap<u64, GShape>,
    pub objs: BTreeMap<u64, Obj>,
    pub joints: BTreeMap<u64, GJoint>,
    /// Godot pauses physics with `set_active(false)`; a server starts active.
    pub paused: bool,
    pub flushing: bool,
}

fn shape_def(o: &Obj, rid: u64, index: usize) -> ShapeDef {
    ShapeDef {
        density: 1.0,
        friction: max(o.friction, 0.0),
        restitution: max(o.bounce, 0.0),
        filter: o.filter(),
        is_sensor: o.is_area,
        enable_sensor_events: true,
        enable_pre_solve: !o.exceptions.is_empty(),
        user_data: (rid << 8) | (index as u64 & 0xff),
        ..ShapeDef::default()
    }
}

/// Splits a shape transform into rotation and per-axis scale.
fn rotation_scale(b: Basis) -> (Quat, Vector3) {
    (quat(b), b.get_scale().abs())
}

impl State {
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
                        kinematic_targets: Vec::new(),
                        exceptions,
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

    // ----- shapes -----

    pub fn shape_create(&mut self, ty: ShapeType) -> Rid {
        let rid = self.new_rid();
        self.shapes.insert(rid.to_u64(), GShape::new(ty));
        rid
    }

    pub fn shape_set_data(&mut self, shape: u64, data: Variant) {
        let Some(s) = self.shapes.get_mut(&shape) else {
            return;
        };
        let geometry = match s.ty {
            ShapeType::SPHERE => var_f32(&data).map_or(Geometry::None, Geometry::Sphere),
            ShapeType::BOX => data
                .try_to::<Vector3>()
                .map_or(Geometry::None, |h| Geometry::Box(v3(h))),
            ShapeType::CAPSULE => match data.try_to::<Dictionary<Variant, Variant>>() {
                Ok(d) => {
                    let r = d.get("radius").as_ref().and_then(var_f32);
                    let h = d.get("height").as_ref().and_then(var_f32);
                    match (r, h) {
                        (Some(r), Some(h)) => Geometry::Capsule(r, h),
                        _ => Geometry::None,
                    }
                }
                Err(_) => Geometry::None,
            },
            ShapeType::CYLINDER => match data.try_to::<Dictionary<Variant, Variant>>() {
                Ok(d) => {
                    let r = d.get("radius").as_ref().and_then(var_f32);
                    let h = d.get("height").as_ref().and_then(var_f32);
                    match (r, h) {
                        (Some(r), Some(h)) => Geometry::Cylinder(r, h),
                        _ => Geometry::None,
                    }
                }
                Err(_) => Geometry::None,
            },
            ShapeType::WORLD_BOUNDARY => data
                .try_to::<godot::builtin::Plane>()
                .map_or(Geometry::None, |p| Geometry::Plane(v3(p.normal), p.d)),
            ShapeType::CONVEX_POLYGON => data
                .try_to::<PackedVector3Array>()
                .map_or(Geometry::None, |p| {
                    Geometry::Convex(p.as_slice().iter().map(|v| v3(*v)).collect())
                }),
            ShapeType::CONCAVE_POLYGON => {
                Concave::from_data(&data).map_or(Geometry::None, Geometry::Concave)
            }
            ShapeType::HEIGHTMAP => {
                HeightMap::from_data(&data).map_or(Geometry::None, Geometry::HeightMap)
            }
            ty => {
                if let Some(feature) = missing_shape_feature(ty) {
                    warn_once(
                        feature,
                        &format!(
                            "{feature} are not supported yet; such shapes collide with nothing"
                        ),
                    );
                }
                Geometry::None
            }
        };
        s.data = data;
        s.geometry = geometry;
        let users: Vec<u64> = self
            .objs
            .iter()
            .filter(|(_, o)| o.shapes.iter().any(|sl| sl.shape == shape))
            .map(|(r, _)| *r)
            .collect();
        for u in users {
            self.rebuild(u);
        }
    }

    // ----- bodies and areas -----

    pub fn obj_create(&mut self, is_area: bool) -> Rid {
        let rid = self.new_rid();
        self.objs.insert(rid.to_u64(), Obj::new(is_area));
        rid
    }

    /// Reads the world's state of an object back into its record.
    fn pull(&mut self, rid: u64) {
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
    fn dematerialize(&mut self, rid: u64) {
        self.pull(rid);
        let joints: Vec<u64> = self
            .joints
            .iter()
            .filter(|(_, j)| j.body_a == rid || j.body_b == rid)
            .map(|(r, _)| *r)
            .collect();
        for j in joints {
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
        let _ = s.world.destroy_body(core.body);
        for (_, hull) in core.shapes {
            if let Some(h) = hull {
                let _ = s.world.destroy_hull(h);
            }
        }
        for m in core.meshes {
            let _ = s.world.destroy_mesh(m);
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
            rotation: quat(o.transform.basis),
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
                    Some(gs) => {
                        create_core_shape(w, body, &shape_def(o, rid, i), gs, slot.transform)
                    }
                    None => Made::default(),
                }
            };
            shapes.push((made.shape, made.hull));
            meshes.extend(made.mesh);
        }
        let o = self.objs.get_mut(&rid).expect("object exists");
        o.core = Some(CoreObj {
            body,
            shapes,
            meshes,
        });
        self.apply_area(rid);
        self.apply_mass(rid);
        self.apply_damping(rid);
        self.remake_joints_of(rid);
        self.refresh_exceptions(space);
    }

    /// Rebuilds an object's `maul3d` body after its shapes or space changed.
    pub fn rebuild(&mut self, rid: u64) {
        self.dematerialize(rid);
        self.materialize(rid);
    }

    pub fn core_body(&self, rid: u64) -> Option<(u64, BodyId)> {
        let o = self.objs.get(&rid)?;
        Some((o.space?, o.core.as_ref()?.body))
    }

    pub fn world_mut(&mut self, space: u64) -> Option<&mut World> {
        self.spaces.get_mut(&space).map(|s| &mut s.world)
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
    }

    pub fn obj_add_shape(&mut self, rid: u64, shape: u64, transform: Transform3D, disabled: bool) {
        if let Some(o) = self.objs.get_mut(&rid) {
            o.shapes.push(ShapeSlot {
                shape,
                transform,
                disabled,
            });
            self.rebuild(rid);
        }
    }

    pub fn obj_edit_shapes(&mut self, rid: u64, edit: impl FnOnce(&mut Vec<ShapeSlot>)) {
        if let Some(o) = self.objs.get_mut(&rid) {
            edit(&mut o.shapes);
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
        let _ = w.set_body_mass_data(body, None);
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

    /// An area's override settings on each of its sensor shapes.
    pub fn apply_area(&mut self, rid: u64) {
        let Some(o) = self.objs.get(&rid) else {
            return;
        };
        if !o.is_area {
            return;
        }
        let Some(core) = o.core.as_ref() else {
            return;
        };
        let a = &o.area;
        let mode = |m: AreaSpaceOverrideMode| match m {
            AreaSpaceOverrideMode::COMBINE => AreaMode::Combine,
            AreaSpaceOverrideMode::COMBINE_REPLACE => AreaMode::CombineReplace,
            AreaSpaceOverrideMode::REPLACE => AreaMode::Replace,
            AreaSpaceOverrideMode::REPLACE_COMBINE => AreaMode::ReplaceCombine,
            _ => AreaMode::Disabled,
        };
        let settings = AreaSettings {
            priority: a.priority,
            gravity_mode: mode(a.gravity_mode),
            gravity: if a.gravity_is_point {
                AreaGravity::Point {
                    center: v3(a.gravity_vector),
                    strength: a.gravity,
                    unit_distance: a.gravity_point_unit_distance,
                }
            } else {
                AreaGravity::Directional(v3(a.gravity_vector * a.gravity))
            },
            linear_damping_mode: mode(a.linear_damp_mode),
            linear_damping: max(a.linear_damp, 0.0),
            angular_damping_mode: mode(a.angular_damp_mode),
            angular_damping: max(a.angular_damp, 0.0),
        };
        let any = settings.gravity_mode != AreaMode::Disabled
            || settings.linear_damping_mode != AreaMode::Disabled
            || settings.angular_damping_mode != AreaMode::Disabled;
        let ids: Vec<ShapeId> = core.shapes.iter().filter_map(|(s, _)| *s).collect();
        let Some(w) = o
            .space
            .and_then(|s| self.spaces.get_mut(&s))
            .map(|s| &mut s.world)
        else {
            return;
        };
        for id in ids {
            if let Err(e) = w.set_shape_area(id, any.then_some(settings)) {
                error_once("area", &format!("area settings refused: {e}"));
            }
        }
    }

    /// The gravity and damping of a space's default area.
    pub fn apply_default_area(&mut self, space: u64) {
        let Some(s) = self.spaces.get_mut(&space) else {
            return;
        };
        let g = v3(s.default_area.gravity_vector * s.default_area.gravity);
        if let Err(e) = s.world.set_gravity(g) {
            error_once("gravity", &format!("gravity refused: {e}"));
        }
        let users: Vec<u64> = self
            .objs
            .iter()
            .filter(|(_, o)| o.space == Some(space) && !o.is_area)
            .map(|(r, _)| *r)
            .collect();
        for u in users {
            self.apply_damping(u);
        }
    }

    pub fn area_params_mut(&mut self, rid: u64) -> Option<(&mut AreaParams, Option<u64>)> {
        if let Some(s) = self.spaces.get_mut(&rid) {
            return Some((&mut s.default_area, Some(rid)));
        }
        self.objs.get_mut(&rid).map(|o| (&mut o.area, None))
    }

    pub fn area_set_param(&mut self, rid: u64, param: AreaParameter, value: &Variant) {
        let Some((a, space)) = self.area_params_mut(rid) else {
            return;
        };
        let f = var_f32(value);
        let mode = value
            .try_to::<i64>()
            .ok()
            .map(|i| AreaSpaceOverrideMode::from_ord(i as i32));
        match param {
            AreaParameter::GRAVITY_OVERRIDE_MODE => {
                if let Some(m) = mode {
                    a.gravity_mode = m;
                }
            }
            AreaParameter::GRAVITY => a.gravity = f.unwrap_or(a.gravity),
            AreaParameter::GRAVITY_VECTOR => {
                a.gravity_vector = value.try_to::<Vector3>().unwrap_or(a.gravity_vector)
            }
            AreaParameter::GRAVITY_IS_POINT => {
                a.gravity_is_point = value.try_to::<bool>().unwrap_or(false)
            }
            AreaParameter::GRAVITY_POINT_UNIT_DISTANCE => {
                a.gravity_point_unit_distance = f.unwrap_or(0.0)
            }
            AreaParameter::LINEAR_DAMP_OVERRIDE_MODE => {
                if let Some(m) = mode {
                    a.linear_damp_mode = m;
                }
            }
            AreaParameter::LINEAR_DAMP => a.linear_damp = f.unwrap_or(a.linear_damp),
            AreaParameter::ANGULAR_DAMP_OVERRIDE_MODE => {
                if let Some(m) = mode {
                    a.angular_damp_mode = m;
                }
            }
            AreaParameter::ANGULAR_DAMP => a.angular_damp = f.unwrap_or(a.angular_damp),
            AreaParameter::PRIORITY => a.priority = f.unwrap_or(0.0) as i32,
            _ if f.unwrap_or(0.0) == 0.0 => {}
            _ => warn_once(
                "area wind",
                "area wind parameters are not supported yet (core: wind forces)",
            ),
        }
        match space {
            Some(s) => self.apply_default_area(s),
            None => self.apply_area(rid),
        }
    }

    pub fn area_get_param(&self, rid: u64, param: AreaParameter) -> Variant {
        let a = match self.spaces.get(&rid) {
            Some(s) => &s.default_area,
            None => match self.objs.get(&rid) {
                Some(o) => &o.area,
                None => return Variant::nil(),
            },
        };
        match param {
            AreaParameter::GRAVITY_OVERRIDE_MODE => a.gravity_mode.ord().to_variant(),
            AreaParameter::GRAVITY => a.gravity.to_variant(),
            AreaParameter::GRAVITY_VECTOR => a.gravity_vector.to_variant(),
            AreaParameter::GRAVITY_IS_POINT => a.gravity_is_point.to_variant(),
            AreaParameter::GRAVITY_POINT_UNIT_DISTANCE => {
                a.gravity_point_unit_distance.to_variant()
            }
            AreaParameter::LINEAR_DAMP_OVERRIDE_MODE => a.linear_damp_mode.ord().to_variant(),
            AreaParameter::LINEAR_DAMP => a.linear_damp.to_variant(),
            AreaParameter::ANGULAR_DAMP_OVERRIDE_MODE => a.angular_damp_mode.ord().to_variant(),
            AreaParameter::ANGULAR_DAMP => a.angular_damp.to_variant(),
            AreaParameter::PRIORITY => a.priority.to_variant(),
            _ => Variant::nil(),
        }
    }

    pub fn body_set_param(&mut self, rid: u64, param: BodyParameter, value: &Variant) {
        let Some(o) = self.objs.get_mut(&rid) else {
            return;
        };
        let f = var_f32(value);
        match param {
            BodyParameter::BOUNCE => {
                o.bounce = f.unwrap_or(0.0);
                self.update_materials(rid);
            }
            BodyParameter::FRICTION => {
                o.friction = f.unwrap_or(1.0);
                self.update_materials(rid);
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

    fn update_materials(&mut self, rid: u64) {
        let Some(o) = self.objs.get(&rid) else {
            return;
        };
        let (friction, bounce) = (max(o.friction, 0.0), max(o.bounce, 0.0));
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
            let _ = w.set_shape_friction(id, friction);
            let _ = w.set_shape_restitution(id, bounce);
        }
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
            let _ = w.set_shape_filter(id, filter);
        }
    }

    pub fn body_set_state(&mut self, rid: u64, state: BodyState, value: &Variant) {
        self.pull(rid);
        let Some(o) = self.objs.get_mut(&rid) else {
            return;
        };
        let core = o.core.as_ref().map(|c| c.body);
        let shape_ids: Vec<ShapeId> = o
            .core
            .iter()
            .flat_map(|c| c.shapes.iter().filter_map(|(s, _)| *s))
            .collect();
        let space = o.space.and_then(|s| self.spaces.get_mut(&s));
        let mut targets = None;
        let w = space.map(|s| {
            targets = Some(&mut s.kinematic_targets);
            (s.last_step, &mut s.world)
        });
        match state {
            BodyState::TRANSFORM => {
                let Ok(t) = value.try_to::<Transform3D>() else {
                    return;
                };
                o.transform = t;
                if let (Some(b), Some((dt, w))) = (core, w) {
                    let (p, q) = (dv(t.origin), quat(t.basis));
                    // A kinematic body reaches a new transform by velocity over one tick
                    // (so it pushes what it touches), unless that is a teleport (faster
                    // than MAX_KINEMATIC_SPEED): then it is placed there.
                    let far = w.body_position(b).is_ok_and(|at| {
                        let d = (p - at).to_f32();
                        d.dot(d) > (MAX_KINEMATIC_SPEED * dt) * (MAX_KINEMATIC_SPEED * dt)
                    });
                    let kinematic = o.mode == BodyMode::KINEMATIC && !o.is_area;
                    let r = if kinematic && !far {
                        if let Some(t) = targets {
                            t.push(b);
                        }
                        w.set_body_target_transform(b, p, q, dt)
                            .inspect(|_| wake_sleepers_touching(w, b, &shape_ids))
                    } else if kinematic {
                        w.set_body_velocity(b, Vec3::ZERO, Vec3::ZERO)
                            .and_then(|_| w.set_body_transform(b, p, q))
                    } else {
                        w.set_body_transform(b, p, q)
                    };
                    if let Err(e) = r {
                        error_once("transform", &format!("transform refused: {e}"));
                    }
                }
            }
            BodyState::LINEAR_VELOCITY => {
                let Ok(v) = value.try_to::<Vector3>() else {
                    return;
                };
                o.linear_velocity = v;
                if let (Some(b), Some((_, w))) = (core, w)
                    && o.is_dynamic()
                {
                    let _ = w.set_body_linear_velocity(b, v3(v));
                }
            }
            BodyState::ANGULAR_VELOCITY => {
                let Ok(v) = value.try_to::<Vector3>() else {
                    return;
                };
                o.angular_velocity = v;
                if let (Some(b), Some((_, w))) = (core, w)
                    && o.is_dynamic()
                {
                    let _ = w.set_body_angular_velocity(b, v3(v));
                }
            }
            BodyState::SLEEPING => {
                let sleeping = value.try_to::<bool>().unwrap_or(false);
                o.sleeping = sleeping;
                if let (Some(b), Some((_, w))) = (core, w) {
                    let _ = w.set_body_awake(b, !sleeping);
                }
            }
            BodyState::CAN_SLEEP => {
                let can = value.try_to::<bool>().unwrap_or(true);
                o.can_sleep = can;
                if let (Some(b), Some((_, w))) = (core, w) {
                    let _ = w.set_body_sleep_enabled(b, can);
                }
            }
            _ => {}
        }
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

    pub fn free(&mut self, rid: u64) {
        if self.joints.contains_key(&rid) {
            self.joint_unmake(rid);
            self.joints.remove(&rid);
            return;
        }
        if self.objs.contains_key(&rid) {
            self.dematerialize(rid);
            if let Some(o) = self.objs.remove(&rid)
                && let Some(space) = o.space
                && let Some(s) = self.spaces.get_mut(&space)
            {
                s.moved.retain(|m| *m != rid);
            }
            return;
        }
        if self.shapes.remove(&rid).is_some() {
            let users: Vec<u64> = self
                .objs
                .iter()
                .filter(|(_, o)| o.shapes.iter().any(|s| s.shape == rid))
                .map(|(r, _)| *r)
                .collect();
            for u in users {
                self.obj_edit_shapes(u, |shapes| shapes.retain(|s| s.shape != rid));
            }
            return;
        }
        if let Some(s) = self.spaces.get(&rid) {
            let _ = s;
            let users: Vec<u64> = self
                .objs
                .iter()
                .filter(|(_, o)| o.space == Some(rid))
                .map(|(r, _)| *r)
                .collect();
            for u in users {
                self.obj_set_space(u, None);
            }
            if let Some(s) = self.spaces.remove(&rid)
                && let Some(d) = s.direct
            {
                d.free();
            }
        }
    }

    /// Steps every active space by `dt`, then reads back what moved and what areas saw.
    pub fn step(&mut self, dt: f32) {
        let substeps = substeps();
        let spaces: Vec<u64> = self
            .spaces
            .iter()
            .filter(|(_, s)| s.active)
            .map(|(r, _)| *r)
            .collect();
        for space in spaces {
            self.apply_constant_forces(space);
            let s = self.spaces.get_mut(&space).expect("space exists");
            s.last_step = dt;
            if let Err(e) = s.world.step(dt, substeps) {
                error_once("step", &format!("step failed: {e}"));
            }
            for b in std::mem::take(&mut s.kinematic_targets) {
                // Reached its target: it stops unless Godot moves it again.
                let _ = s.world.set_body_velocity(b, Vec3::ZERO, Vec3::ZERO);
            }
            let moved: Vec<u64> = s
                .world
                .body_move_events()
                .iter()
                .map(|e| s.world.body_user_data(e.body).unwrap_or(0))
                .collect();
            let mut area_events = Vec::new();
            for (events, status) in [
                (s.world.sensor_begin_events(), 0),
                (s.world.sensor_end_events(), 1),
            ] {
                for e in events {
                    let a = s.world.shape_user_data(e.sensor).unwrap_or(0);
                    let v = s.world.shape_user_data(e.visitor).unwrap_or(0);
                    area_events.push((
                        a >> 8,
                        status,
                        v >> 8,
                        (v & 0xff) as i32,
                        (a & 0xff) as i32,
                    ));
                }
            }
            s.moved = moved;
            s.area_events = area_events;
            let moved = s.moved.clone();
            for rid in moved {
                self.pull(rid);
            }
            let reporting: Vec<u64> = self
                .objs
                .iter()
                .filter(|(_, o)| o.space == Some(space) && o.max_contacts > 0)
                .map(|(r, _)| *r)
                .collect();
            for rid in reporting {
                self.collect_contacts(rid);
            }
            self.monitor_areas(space);
        }
    }

    /// Areas that monitor other areas: the core's sensors see only solid shapes, so each
    /// such area's shapes are probed against sensor shapes after the step (in RID and
    /// shape order) and the difference with what was last reported becomes
    /// area_entered/area_exited events. A monitored area must be monitorable and have a
    /// layer the monitoring area's mask sees. Convex polygon areas are not probes yet.
    fn monitor_areas(&mut self, space: u64) {
        let monitors: Vec<u64> = self
            .objs
            .iter()
            .filter(|(_, o)| o.space == Some(space) && o.is_area && o.area_monitor.is_some())
            .map(|(r, _)| *r)
            .collect();
        let mut events = Vec::new();
        for rid in monitors {
            let o = &self.objs[&rid];
            let mut now = BTreeSet::new();
            if let (Some(core), Some(s)) = (&o.core, self.spaces.get(&space)) {
                let w = &s.world;
                let filter = maul3d::QueryFilter {
                    category_bits: u64::MAX,
                    mask_bits: u64::from(o.mask),
                    include_sensors: true,
                };
                let (Ok(p), Ok(q)) = (w.body_position(core.body), w.body_rotation(core.body))
                else {
                    continue;
                };
                let mut ids = [ShapeId::NULL; 64];
                for (i, (id, hull)) in core.shapes.iter().enumerate() {
                    let Some(probe) = id.and_then(|id| query_shape_of(w, id, *hull)) else {
                        continue;
                    };
                    let n = w
                        .overlap_shape(&probe, p, q, &filter, &mut ids)
                        .unwrap_or(0)
                        .min(ids.len());
                    for other in &ids[..n] {
                        let data = w.shape_user_data(*other).unwrap_or(0);
                        let other_rid = data >> 8;
                        if other_rid != rid
                            && self
                                .objs
                                .get(&other_rid)
                                .is_some_and(|x| x.is_area && x.monitorable)
                        {
                            now.insert((other_rid, (data & 0xff) as i32, i as i32));
                        }
                    }
                }
            }
            let o = self.objs.get_mut(&rid).expect("area exists");
            for gone in o.reported_areas.difference(&now) {
                events.push((rid, 1, gone.0, gone.1, gone.2));
            }
            for new in now.difference(&o.reported_areas) {
                events.push((rid, 0, new.0, new.1, new.2));
            }
            o.reported_areas = now;
        }
        if let Some(s) = self.spaces.get_mut(&space) {
            s.area_area_events = events;
        }
    }

    fn apply_constant_forces(&mut self, space: u64) {
        let pushed: Vec<(BodyId, Vec3, Vec3)> = self
            .objs
            .values()
            .filter(|o| o.space == Some(space) && o.is_dynamic())
            .filter(|o| o.constant_force != Vector3::ZERO || o.constant_torque != Vector3::ZERO)
            .filter_map(|o| {
                Some((
                    o.core.as_ref()?.body,
                    v3(o.constant_force),
                    v3(o.constant_torque),
                ))
            })
            .collect();
        let Some(w) = self.world_mut(space) else {
            return;
        };
        for (b, f, t) in pushed {
            let _ = w.apply_force_to_center(b, f);
            let _ = w.apply_torque(b, t);
        }
    }

    /// The contacts a reporting body has now: each of its shapes probed against the
    /// world (a query; the core keeps no per-body contact list to read).
    fn collect_contacts(&mut self, rid: u64) {
        let Some(o) = self.objs.get(&rid) else {
            return;
        };
        let mut found = Vec::new();
        if let (Some(space), Some(core)) = (o.space.and_then(|s| self.spaces.get(&s)), &o.core) {
            let w = &space.world;
            let inv = o.transform.affine_inverse();
            // What the body collides with, by the same test as the pair filter.
            let f = o.filter();
            let filter = maul3d::QueryFilter {
                category_bits: f.category_bits,
                mask_bits: f.mask_bits,
                include_sensors: false,
            };
            let mut pairs = [EMPTY_PAIR; 8];
            for (i, (id, hull)) in core.shapes.iter().enumerate() {
                let Some(id) = id else { continue };
                let Some(probe) = query_shape_of(w, *id, *hull) else {
                    continue;
                };
                let (p, q) = match (w.body_position(core.body), w.body_rotation(core.body)) {
                    (Ok(p), Ok(q)) => (p, q),
                    _ => continue,
                };
                let n = w
                    .contact_points(&probe, p, q, 0.01, &filter, Some(core.body), &mut pairs)
                    .unwrap_or(0);
                for c in &pairs[..n.min(pairs.len())] {
                    if found.len() >= o.max_contacts as usize {
                        break;
                    }
                    let other_rid = w.body_user_data(c.body).unwrap_or(0);
                    let other_shape = (w.shape_user_data(c.shape).unwrap_or(0) & 0xff) as i32;
                    let other = self.objs.get(&other_rid);
                    found.push(ReportedContact {
                        local_position: inv * crate::conv::gdv(c.point_on_query),
                        local_normal: inv.basis * gv(c.normal),
                        local_shape: i as i32,
                        collider: other_rid,
                        collider_id: other.map_or(0, |o| o.instance_id),
                        collider_shape: other_shape,
                        collider_position: crate::conv::gdv(c.point_on_other),
                        collider_velocity: gv(c.velocity),
                    });
                }
            }
        }
        if let Some(o) = self.objs.get_mut(&rid) {
            o.contacts = found;
        }
    }
}

/// Wakes the sleeping dynamic bodies near a kinematic body that starts moving (the core
/// keeps a sleeping island asleep when a kinematic body it rests on gets a velocity, so
/// a platform would move out from under the box on it): every dynamic body with a shape in
/// the kinematic body's fat bounds, in shape slot order.
fn wake_sleepers_touching(w: &mut World, body: BodyId, shapes: &[ShapeId]) {
    let moving = w.body_linear_velocity(body).is_ok_and(|v| v.dot(v) > 0.0)
        || w.body_angular_velocity(body).is_ok_and(|v| v.dot(v) > 0.0);
    if !moving {
        return;
    }
    let mut ids = [ShapeId::NULL; 64];
    let mut bounds: Option<maul3d::math::DAabb> = None;
    for &id in shapes {
        if let Ok(b) = w.shape_fat_aabb(id) {
            bounds = Some(bounds.map_or(b, |a| a.union(&b)));
        }
    }
    let Some(bounds) = bounds else {
        return;
    };
    let everything = maul3d::QueryFilter {
        category_bits: u64::MAX,
        mask_bits: u64::MAX,
        include_sensors: false,
    };
    let n = w
        .overlap_aabb(&bounds, &everything, &mut ids)
        .min(ids.len());
    for id in &ids[..n] {
        let Ok(other) = w.shape_body(*id) else {
            continue;
        };
        if other != body
            && w.body_type(other).is_ok_and(|t| t == BodyType::Dynamic)
            && w.body_is_awake(other).is_ok_and(|a| !a)
        {
            let _ = w.set_body_awake(other, true);
        }
    }
}

/// A core shape as a query probe in its body's frame (a hull by the id made for it).
pub(crate) fn query_shape_of(
    w: &World,
    id: ShapeId,
    hull: Option<HullId>,
) -> Option<maul3d::QueryShape> {
    use maul3d::{QueryShape, ShapeGeometry};
    Some(match w.shape_geometry(id).ok()? {
        ShapeGeometry::Sphere(s) => QueryShape::Sphere(s),
        ShapeGeometry::Capsule(c) => QueryShape::Capsule(c),
        ShapeGeometry::Box(b) => QueryShape::Box(b),
        ShapeGeometry::Hull(_) => QueryShape::Hull(hull?),
        ShapeGeometry::Cylinder(c) => QueryShape::Cylinder(c),
        // A half-space is not a query probe, nor is a surface of triangles.
        ShapeGeometry::Plane(_) | ShapeGeometry::Mesh(_) => return None,
    })
}

/// What one Godot shape made in the world: the core shape, and the hull or mesh made
/// for it alone.
#[derive(Default)]
struct Made {
    shape: Option<ShapeId>,
    hull: Option<HullId>,
    mesh: Option<MeshId>,
}

/// Creates the core shape for one Godot shape at `transform` in its body.
fn create_core_shape(
    w: &mut World,
    body: BodyId,
    def: &ShapeDef,
    gs: &GShape,
    transform: Transform3D,
) -> Made {
    let (rot, scale) = rotation_scale(transform.basis);
    let center = v3(transform.origin);
    let s_max = max(max(scale.x, scale.y), scale.z);
    let result = match &gs.geometry {
        Geometry::None => return Made::default(),
        Geometry::Concave(c) => {
            if c.backface_collision {
                warn_once(
                    "concave backface",
                    "concave polygon shapes with backface_collision collide through their front faces only (core triangles are one-sided; rays see both sides)",
                );
            }
            return create_mesh_shape(w, body, def, "concave polygon", || c.content(transform));
        }
        Geometry::HeightMap(h) => {
            return create_mesh_shape(w, body, def, "height map", || h.content(transform));
        }
        Geometry::Sphere(r) => w
            .create_sphere_shape(
                body,
                def,
                &Sphere {
                    center,
                    radius: r * s_max,
                },
            )
            .map(|s| (Some(s), None)),
        Geometry::Box(h) => w
            .create_offset_box_shape(
                body,
                def,
                Vec3::new(h.x * scale.x, h.y * scale.y, h.z * scale.z),
                center,
                rot,
            )
            .map(|s| (Some(s), None)),
        Geometry::Capsule(r, h) => {
            let r = r * max(scale.x, scale.z);
            let half = max(h * 0.5 * scale.y - r, 0.0);
            let axis = rot.rotate(Vec3::new(0.0, half, 0.0));
            w.create_capsule_shape(
                body,
                def,
                &Capsule {
                    center1: center - axis,
                    center2: center + axis,
                    radius: r,
                },
            )
            .map(|s| (Some(s), None))
        }
        Geometry::Cylinder(r, h) => w
            .create_cylinder_shape(
                body,
                def,
                &Cylinder {
                    center,
                    rotation: rot,
                    half_height: h * 0.5 * scale.y,
                    radius: r * max(scale.x, scale.z),
                },
            )
            .map(|s| (Some(s), None)),
        Geometry::Plane(n, d) => {
            // n·x = d in the shape's frame is (R n)·y = d + (R n)·c in the body's.
            let normal = rot.rotate(*n);
            w.create_plane_shape(
                body,
                def,
                &PlaneShape {
                    normal,
                    offset: d + normal.dot(center),
                },
            )
            .map(|s| (Some(s), None))
        }
        Geometry::Convex(points) => {
            let pts: Vec<Vec3> = points
                .iter()
                .map(|p| v3(transform * crate::conv::gv(*p)))
                .collect();
            match w.create_hull(&pts) {
                Ok(h) => match w.create_hull_shape(body, def, h) {
                    Ok(s) => Ok((Some(s), Some(h))),
                    Err(e) => {
                        let _ = w.destroy_hull(h);
                        Err(e)
                    }
                },
                Err(e) => Err(e),
            }
        }
    };
    match result {
        Ok((shape, hull)) => Made {
            shape,
            hull,
            mesh: None,
        },
        Err(e) => {
            report_create_error("shape", &e);
            Made::default()
        }
    }
}

/// A concave polygon or height map as a mesh of its own and a mesh shape on `body`.
/// Static and kinematic bodies only, as in the core (and as Godot means these shapes).
fn create_mesh_shape(
    w: &mut World,
    body: BodyId,
    def: &ShapeDef,
    what: &str,
    content: impl FnOnce() -> MeshContent,
) -> Made {
    if def.is_sensor {
        warn_once(
            "mesh area",
            "concave polygon and height map shapes on areas detect nothing (the core's sensors are convex)",
        );
        return Made::default();
    }
    if w.body_type(body).is_ok_and(|t| t == BodyType::Dynamic) {
        warn_once(
            "mesh rigid",
            "concave polygon and height map shapes on rigid bodies collide with nothing: Maul3D takes them on static and kinematic bodies only (a surface has no volume to give mass)",
        );
        return Made::default();
    }
    let m = content();
    if m.degenerate > 0 {
        warn_once(
            &format!("{what} degenerate"),
            &format!(
                "a {what} shape has {} degenerate triangle(s) (no area); they are left out",
                m.degenerate
            ),
        );
    }
    if m.triangles.is_empty() {
        return Made::default();
    }
    let mesh = match w.create_mesh(&m.vertices, &m.triangles) {
        Ok(mesh) => mesh,
        Err(e) => {
            report_create_error("shape", &e);
            return Made::default();
        }
    };
    match w.create_mesh_shape(body, def, mesh) {
        Ok(shape) => Made {
            shape: Some(shape),
            hull: None,
            mesh: Some(mesh),
        },
        Err(e) => {
            let _ = w.destroy_mesh(mesh);
            report_create_error("shape", &e);
            Made::default()
        }
    }
}

/// Space parameters Godot reads through `space_get_param` default to Godot's own.
pub(crate) fn default_space_param(param: SpaceParameter) -> f32 {
    match param {
        SpaceParameter::CONTACT_RECYCLE_RADIUS => 0.01,
        SpaceParameter::CONTACT_MAX_SEPARATION => 0.05,
        SpaceParameter::CONTACT_MAX_ALLOWED_PENETRATION => 0.01,
        SpaceParameter::CONTACT_DEFAULT_BIAS => 0.8,
        SpaceParameter::BODY_LINEAR_VELOCITY_SLEEP_THRESHOLD => 0.1,
        SpaceParameter::BODY_ANGULAR_VELOCITY_SLEEP_THRESHOLD => 8.0f32.to_radians(),
        SpaceParameter::BODY_TIME_TO_SLEEP => 0.5,
        SpaceParameter::SOLVER_ITERATIONS => 4.0,
        _ => 0.0,
    }
}

pub(crate) const EMPTY_PAIR: maul3d::ContactPointPair = maul3d::ContactPointPair {
    point_on_query: DVec3::ZERO,
    point_on_other: DVec3::ZERO,
    normal: Vec3::ZERO,
    depth: 0.0,
    shape: ShapeId::NULL,
    body: BodyId::NULL,
    velocity: Vec3::ZERO,
};

impl State {
    /// A Godot shape resource as a query probe (spheres, boxes and capsules; convex
    /// polygons need a hull in the world and are not query shapes yet).
    pub fn query_probe(&self, shape: u64) -> Option<maul3d::QueryShape> {
        use maul3d::QueryShape;
        let gs = self.shapes.get(&shape)?;
        Some(match &gs.geometry {
            Geometry::Sphere(r) => QueryShape::Sphere(Sphere {
                center: Vec3::ZERO,
                radius: *r,
            }),
            Geometry::Box(h) => QueryShape::Box(BoxShape {
                half: *h,
                center: Vec3::ZERO,
                rotation: Quat::IDENTITY,
            }),
            Geometry::Capsule(r, h) => {
                let half = max(h * 0.5 - r, 0.0);
                QueryShape::Capsule(Capsule {
                    center1: Vec3::new(0.0, -half, 0.0),
                    center2: Vec3::new(0.0, half, 0.0),
                    radius: *r,
                })
            }
            Geometry::Cylinder(r, h) => QueryShape::Cylinder(Cylinder {
                center: Vec3::ZERO,
                rotation: Quat::IDENTITY,
                half_height: h * 0.5,
                radius: *r,
            }),
            Geometry::Plane(..) => {
                warn_once(
                    "plane query",
                    "world boundary shapes cannot be query shapes (a half-space); the query finds nothing",
                );
                return None;
            }
            Geometry::Concave(_) | Geometry::HeightMap(_) => {
                warn_once(
                    "mesh query",
                    "concave polygon and height map shapes cannot be query shapes (surfaces, not solids); the query finds nothing",
                );
                return None;
            }
            Geometry::Convex(_) => {
                warn_once(
                    "convex query",
                    "convex polygon shapes cannot be query shapes yet (core: hull query probes); the query finds nothing",
                );
                return None;
            }
            Geometry::None => return None,
        })
    }
}

/// The kinds of Godot joint the server makes.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum GJointKind {
    None,
    Pin,
    Hinge,
    Slider,
    ConeTwist,
    SixDof,
}

/// A Godot joint: its kind, bodies (B may be none: pinned to the world), frames in each
/// body, Godot's parameters and flags by number, and the `maul3d` joint made from them.
pub(crate) struct GJoint {
    pub kind: GJointKind,
    pub body_a: u64,
    pub body_b: u64,
    pub frame_a: Transform3D,
    pub frame_b: Transform3D,
    /// Parameters (per axis for 6-DOF: axis * 100 + param).
    pub params: BTreeMap<i32, f32>,
    pub flags: BTreeMap<i32, bool>,
    pub disable_collisions: bool,
    pub priority: i32,
    pub core: Option<(u64, maul3d::JointId)>,
}

impl GJoint {
    pub fn new() -> GJoint {
        GJoint {
            kind: GJointKind::None,
            body_a: 0,
            body_b: 0,
            frame_a: Transform3D::IDENTITY,
            frame_b: Transform3D::IDENTITY,
            params: BTreeMap::new(),
            flags: BTreeMap::new(),
            disable_collisions: true,
            priority: 1,
            core: None,
        }
    }

    pub fn param(&self, key: i32, default: f32) -> f32 {
        self.params.get(&key).copied().unwrap_or(default)
    }

    pub fn flag(&self, key: i32, default: bool) -> bool {
        self.flags.get(&key).copied().unwrap_or(default)
    }

    /// The `maul3d` joint kind for Godot's parameters. Godot's hinge turns about its
    /// frame's z (as the core's revolute), its slider moves along x (as the prismatic),
    /// its cone twists about x (as the core's cone-twist).
    pub fn core_kind(&self) -> Option<maul3d::JointKind> {
        use maul3d::{
            AxisMode, ConeTwistJoint, JointKind, PrismaticJoint, RevoluteJoint, SixDofAxis,
            SixDofJoint,
        };
        let deg = |d: f32| d.to_radians();
        Some(match self.kind {
            GJointKind::None => return None,
            GJointKind::Pin => JointKind::Spherical,
            GJointKind::Hinge => {
                // HingeJointParam: LIMIT_UPPER 1, LIMIT_LOWER 2, MOTOR_TARGET_VELOCITY 6,
                // MOTOR_MAX_IMPULSE 7; flags USE_LIMIT 0, ENABLE_MOTOR 1.
                let (lower, upper) = (self.param(2, deg(-90.0)), self.param(1, deg(90.0)));
                let limit = self.flag(0, false) && lower <= upper;
                JointKind::Revolute(RevoluteJoint {
                    enable_limit: limit,
                    lower: if limit { lower } else { 0.0 },
                    upper: if limit { upper } else { 0.0 },
                    enable_motor: self.flag(1, false),
                    motor_speed: self.param(6, 0.0),
                    max_motor_torque: max(self.param(7, 1.0), 0.0) * 60.0,
                    ..RevoluteJoint::default()
                })
            }
            GJointKind::Slider => {
                // SliderJointParam: LINEAR_LIMIT_UPPER 0, LINEAR_LIMIT_LOWER 1.
                let (lower, upper) = (self.param(1, -1.0), self.param(0, 1.0));
                let limit = lower <= upper;
                JointKind::Prismatic(PrismaticJoint {
                    enable_limit: limit,
                    lower: if limit { lower } else { 0.0 },
                    upper: if limit { upper } else { 0.0 },
                    ..PrismaticJoint::default()
                })
            }
            GJointKind::ConeTwist => {
                // ConeTwistJointParam: SWING_SPAN 0, TWIST_SPAN 1.
                let swing =
                    maul3d::math::clamp(self.param(0, deg(45.0)), 0.0, core::f32::consts::PI);
                let twist =
                    maul3d::math::clamp(self.param(1, deg(180.0)), 0.0, core::f32::consts::PI);
                JointKind::ConeTwist(ConeTwistJoint {
                    swing_limit: swing,
                    twist_lower: -twist,
                    twist_upper: twist,
                    ..ConeTwistJoint::default()
                })
            }
            GJointKind::SixDof => {
                // Per axis: LINEAR_LOWER_LIMIT 0, LINEAR_UPPER_LIMIT 1,
                // ANGULAR_LOWER_LIMIT 10, ANGULAR_UPPER_LIMIT 11; flags ENABLE_LINEAR_LIMIT 0,
                // ENABLE_ANGULAR_LIMIT 1 (Godot's defaults: every axis limited to 0, locked).
                let mut axes = [SixDofAxis::default(); 6];
                for (i, axis) in axes.iter_mut().enumerate() {
                    let a = (i % 3) as i32 * 100;
                    let (lo, hi, flag) = if i < 3 { (0, 1, 0) } else { (10, 11, 1) };
                    let (lower, upper) = (self.param(a + lo, 0.0), self.param(a + hi, 0.0));
                    // Motors: LINEAR_MOTOR_TARGET_VELOCITY 5 / FORCE_LIMIT 6 with flag
                    // ENABLE_LINEAR_MOTOR 5; ANGULAR_MOTOR_TARGET_VELOCITY 17 /
                    // FORCE_LIMIT 18 with flag ENABLE_MOTOR 4.
                    let (speed, force, motor_flag) = if i < 3 { (5, 6, 5) } else { (17, 18, 4) };
                    if self.flag(a + motor_flag, false) {
                        axis.motor_speed = self.param(a + speed, 0.0);
                        axis.max_motor_force = max(self.param(a + force, 0.0), 0.0);
                    }
                    axis.mode = if !self.flag(a + flag, true) {
                        AxisMode::Free
                    } else if lower == upper {
                        AxisMode::Locked
                    } else if lower < upper {
                        AxisMode::Limited { lower, upper }
                    } else {
                        AxisMode::Free
                    };
                }
                JointKind::SixDof(SixDofJoint { axes })
            }
        })
    }
}

/// Splits a Godot frame into the core's (translation, rotation without scale).
fn core_frame(t: Transform3D) -> maul3d::math::Transform {
    maul3d::math::Transform::new(v3(t.origin), quat(t.basis))
}

impl State {
    pub fn joint_create(&mut self) -> Rid {
        let rid = self.new_rid();
        self.joints.insert(rid.to_u64(), GJoint::new());
        rid
    }

    /// Destroys a joint's `maul3d` joint, if it has one.
    pub fn joint_unmake(&mut self, rid: u64) {
        let Some(j) = self.joints.get_mut(&rid) else {
            return;
        };
        if let Some((space, id)) = j.core.take()
            && let Some(s) = self.spaces.get_mut(&space)
        {
            let _ = s.world.destroy_joint(id);
        }
    }

    /// (Re)makes a joint's `maul3d` joint from its record, when its bodies are in one
    /// space (a joint without body B is pinned to that space's anchor body).
    pub fn joint_make(&mut self, rid: u64) {
        self.joint_unmake(rid);
        let Some(j) = self.joints.get(&rid) else {
            return;
        };
        let Some(kind) = j.core_kind() else {
            return;
        };
        let Some((space, body_a)) = self.core_body(j.body_a) else {
            return;
        };
        let (body_b, frame_b) = match self.core_body(j.body_b) {
            Some((sb, b)) if sb == space => (b, j.frame_b),
            Some(_) => {
                error_once(
                    "joint spaces",
                    "a joint's bodies are in different spaces; it does nothing",
                );
                return;
            }
            None if j.body_b == 0 => {
                // Pinned to the world: frame B is the joint's world frame.
                let world_frame = self.objs[&j.body_a].transform * j.frame_a;
                match self.anchor(space) {
                    Some(anchor) => (anchor, world_frame),
                    None => return,
                }
            }
            None => return,
        };
        let j = &self.joints[&rid];
        let def = maul3d::JointDef {
            body_a,
            body_b,
            local_frame_a: core_frame(j.frame_a),
            local_frame_b: core_frame(frame_b),
            collide_connected: !j.disable_collisions,
            user_data: rid,
            kind,
            ..maul3d::JointDef::default()
        };
        let Some(w) = self.world_mut(space) else {
            return;
        };
        match w.create_joint(&def) {
            Ok(id) => {
                if let Some(j) = self.joints.get_mut(&rid) {
                    j.core = Some((space, id));
                }
            }
            Err(e) => report_create_error("joint", &e),
        }
    }

    /// The static body without shapes that world-pinned joints attach to.
    fn anchor(&mut self, space: u64) -> Option<BodyId> {
        let s = self.spaces.get_mut(&space)?;
        if let Some(a) = s.anchor
            && s.world.body_is_valid(a)
        {
            return Some(a);
        }
        match s.world.create_body(&BodyDef::default()) {
            Ok(a) => {
                s.anchor = Some(a);
                Some(a)
            }
            Err(e) => {
                report_create_error("joint anchor body", &e);
                None
            }
        }
    }

    /// Remakes the joints that use a body (after its `maul3d` body was rebuilt).
    pub fn remake_joints_of(&mut self, body: u64) {
        let ids: Vec<u64> = self
            .joints
            .iter()
            .filter(|(_, j)| j.body_a == body || j.body_b == body)
            .map(|(r, _)| *r)
            .collect();
        for id in ids {
            self.joint_make(id);
        }
    }

    pub fn joint_set(&mut self, rid: u64, f: impl FnOnce(&mut GJoint)) {
        if let Some(j) = self.joints.get_mut(&rid) {
            f(j);
            self.joint_make(rid);
        }
    }
}

/// Determinism: snapshots, restore, journal, replays, comparison.
impl State {
    pub fn space(&self, space: u64) -> Result<&Space, String> {
        self.spaces
            .get(&space)
            .ok_or_else(|| format!("RID({space}) is not a Maul3D space"))
    }

    pub fn snapshot(&self, space: u64) -> Result<Vec<u8>, String> {
        let w = &self.space(space)?.world;
        let mut buf = vec![0u8; w.snapshot_size()];
        let n = w.snapshot(&mut buf).map_err(|e| e.to_string())?;
        buf.truncate(n);
        Ok(buf)
    }

    /// Restores a space's world from a snapshot, then brings the records in line: an
    /// object whose `maul3d` body is not in the snapshot (created after it) becomes
    /// inert with one warning; a body in the snapshot whose Godot object was freed since
    /// is removed (it has no node to show it); every object's state is read back and
    /// queued for its state-sync callback; areas queue exits and entries for what they
    /// overlap now against what they last reported.
    pub fn restore(&mut self, space: u64, buf: &[u8]) -> Result<(), String> {
        let s = self
            .spaces
            .get_mut(&space)
            .ok_or_else(|| format!("RID({space}) is not a Maul3D space"))?;
        s.world.restore(buf).map_err(|e| e.to_string())?;
        let mut inert = 0;
        let mut live = BTreeSet::new();
        for (rid, o) in self.objs.iter_mut().filter(|(_, o)| o.space == Some(space)) {
            let Some(core) = &o.core else { continue };
            let ok = s.world.body_is_valid(core.body)
                && s.world.body_user_data(core.body).ok() == Some(*rid);
            if ok {
                live.insert(core.body);
            } else {
                o.core = None;
                inert += 1;
            }
        }
        if inert > 0 {
            warn_once(
                "restore inert",
                &format!(
                    "after a restore, {inert} object(s) created after the snapshot are inert (no body in the restored world)"
                ),
            );
        }
        let anchor = s.anchor.filter(|a| s.world.body_is_valid(*a));
        s.anchor = anchor;
        let ghosts: Vec<BodyId> = s
            .world
            .body_ids()
            .filter(|b| !live.contains(b) && Some(*b) != anchor)
            .collect();
        if !ghosts.is_empty() {
            warn_once(
                "restore ghosts",
                "after a restore, bodies whose Godot objects were freed since the snapshot are removed",
            );
        }
        for g in ghosts {
            let _ = s.world.destroy_body(g);
        }
        // Meshes no live object holds (made for bodies gone since, or rebuilt since) go.
        let held: BTreeSet<MeshId> = self
            .objs
            .values()
            .filter(|o| o.space == Some(space))
            .filter_map(|o| o.core.as_ref())
            .flat_map(|c| c.meshes.iter().copied())
            .collect();
        let orphans: Vec<MeshId> = s.world.mesh_ids().filter(|m| !held.contains(m)).collect();
        for m in orphans {
            let _ = s.world.destroy_mesh(m);
        }
        for (_, j) in self.joints.iter_mut() {
            if let Some((sp, id)) = j.core
                && sp == space
                && !s.world.joint_is_valid(id)
            {
                j.core = None;
            }
        }
        let rids: Vec<u64> = self
            .objs
            .iter()
            .filter(|(_, o)| o.space == Some(space) && o.core.is_some())
            .map(|(r, _)| *r)
            .collect();
        for rid in &rids {
            self.pull(*rid);
        }
        let mut events = Vec::new();
        for rid in &rids {
            let o = &self.objs[rid];
            if !o.is_area {
                continue;
            }
            let now = self.area_overlaps(*rid);
            for gone in o.reported.difference(&now) {
                events.push((*rid, 1, gone.0, gone.1, gone.2));
            }
            for new in now.difference(&o.reported) {
                events.push((*rid, 0, new.0, new.1, new.2));
            }
        }
        let s = self.spaces.get_mut(&space).expect("space exists");
        s.moved = rids.into_iter().filter(|r| !self.objs[r].is_area).collect();
        s.area_events = events;
        Ok(())
    }

    /// What an area's sensor shapes overlap now: (object, its shape, area shape).
    fn area_overlaps(&self, area: u64) -> BTreeSet<(u64, i32, i32)> {
        let mut out = BTreeSet::new();
        let Some(o) = self.objs.get(&area) else {
            return out;
        };
        let (Some(core), Some(s)) = (&o.core, o.space.and_then(|s| self.spaces.get(&s))) else {
            return out;
        };
        let mut ids = [ShapeId::NULL; 256];
        for (i, (shape, _)) in core.shapes.iter().enumerate() {
            let Some(shape) = shape else { continue };
            let n = s.world.sensor_overlaps(*shape, &mut ids).unwrap_or(0);
            for id in &ids[..n.min(ids.len())] {
                let data = s.world.shape_user_data(*id).unwrap_or(0);
                out.insert((data >> 8, (data & 0xff) as i32, i as i32));
            }
        }
        out
    }

    pub fn start_journal(&mut self, space: u64, capacity: usize) -> Result<(), String> {
        let start = self.snapshot(space)?;
        let s = self.spaces.get_mut(&space).expect("space exists");
        s.world.start_journal(capacity).map_err(|e| e.to_string())?;
        s.journal_start = Some(start);
        Ok(())
    }

    pub fn stop_journal(&mut self, space: u64) -> Result<usize, String> {
        let s = self
            .spaces
            .get_mut(&space)
            .ok_or_else(|| format!("RID({space}) is not a Maul3D space"))?;
        s.world.stop_journal().map_err(|e| e.to_string())
    }

    /// The replay container of the last journal: its starting snapshot, the tape and the
    /// world's hash now.
    pub fn replay(&self, space: u64) -> Result<Vec<u8>, String> {
        let s = self.space(space)?;
        if s.world.journal_running() {
            return Err("stop the journal before saving its replay".into());
        }
        let start = s
            .journal_start
            .as_ref()
            .ok_or("no journal was recorded in this space")?;
        let tape = s.world.journal_tape();
        let mut out = vec![0u8; maul3d::encoded_replay_size(start.len(), tape.len())];
        let n = maul3d::encode_replay(start, tape, s.world.hash(), &mut out)
            .map_err(|e| e.to_string())?;
        out.truncate(n);
        Ok(out)
    }

    /// Body slots whose state differs between two spaces' worlds.
    pub fn compare(&self, a: u64, b: u64) -> Result<usize, String> {
        let (wa, wb) = (&self.space(a)?.world, &self.space(b)?.world);
        let mut rows = [maul3d::BodyDiff::default(); 1];
        Ok(World::compare(wa, wb, &mut rows))
    }
}

/// Collision exceptions (`add_collision_exception_with`), applied through the core's
/// pre-solve callback: a touching contact between two excepted bodies is disabled each
/// step (the decisions go into the journal, so replays keep them). Shapes of bodies with
/// exceptions are created with `enable_pre_solve`.
#[derive(Default)]
pub(crate) struct Exceptions {
    /// Shape → its body's RID, for the shapes of every body in an exception.
    pub shape_owner: BTreeMap<ShapeId, u64>,
    /// Body RID pairs (lower first) that must not collide.
    pub pairs: BTreeSet<(u64, u64)>,
}

/// The pre-solve callback: false (disable) for a contact between excepted bodies.
///
/// # Safety
/// `context` is the space's `Exceptions` (boxed, alive as long as the world) and
/// `contact` a valid contact, as the core guarantees.
pub(crate) unsafe extern "C" fn exceptions_pre_solve(
    contact: *const maul3d::PreSolveContact,
    context: *mut core::ffi::c_void,
) -> bool {
    // SAFETY: see above.
    let (c, ex) = unsafe { (&*contact, &*(context as *const Exceptions)) };
    match (
        ex.shape_owner.get(&c.shape_a),
        ex.shape_owner.get(&c.shape_b),
    ) {
        (Some(&a), Some(&b)) => !ex.pairs.contains(&(a.min(b), a.max(b))),
        _ => true,
    }
}

impl State {
    /// Recomputes a space's exception tables from the records.
    pub fn refresh_exceptions(&mut self, space: u64) {
        let Some(s) = self.spaces.get(&space) else {
            return;
        };
        let mut pairs = BTreeSet::new();
        for (rid, o) in self.objs.iter().filter(|(_, o)| o.space == Some(space)) {
            for other in &o.exceptions {
                pairs.insert(((*rid).min(*other), (*rid).max(*other)));
            }
        }
        if pairs.is_empty() && s.exceptions.pairs.is_empty() {
            return;
        }
        let mut shape_owner = BTreeMap::new();
        for &(a, b) in &pairs {
            for rid in [a, b] {
                if let Some(core) = self.objs.get(&rid).and_then(|o| o.core.as_ref()) {
                    for id in core.shapes.iter().filter_map(|(s, _)| *s) {
                        shape_owner.insert(id, rid);
                    }
                }
            }
        }
        let s = self.spaces.get_mut(&space).expect("space exists");
        s.exceptions.pairs = pairs;
        s.exceptions.shape_owner = shape_owner;
    }
}
