//! The table of every recorded call: its kind number, its fields in tape order (each a
//! [`Field`]) and how a replay makes it again. From the one table the `ops!` macro
//! generates the kind constants, a typed writer per op on [`Journal`] (the public call, in
//! the API layer `crate::api`, records itself with `self.rec(|j| j.set_gravity(gravity))`
//! after it validated and applied), and the replay dispatch, which reads the fields in
//! the same order and calls
//! the same public method, so a replay validates and records exactly as the original and
//! no call can be recorded without being replayable (as Box3D's `recording_ops.inl`
//! generates its writer and reader).
//!
//! A replay step without `=> |w| …` calls the `World` method of the op's name with the
//! fields in order; creates check that the world hands out the recorded id.

use super::Journal;
use crate::area::AreaSettings;
use crate::body::{BodyDef, BodyType, MotionLocks};
use crate::character::{CharacterDef, CharacterSettings};
use crate::codec::{Dec, check};
use crate::combine::CombineRule;
use crate::error::{Error, Result};
use crate::explosion::ExplosionDef;
use crate::field::{
    DisabledContacts, Field, HeightFieldContent, HullPoints, MeshContent, ShapeContent,
    VoxelGridContent,
};
use crate::geometry::MassData;
use crate::grow::Capacities;
use crate::id::{BodyId, CharacterId, HullId, JointId, MeshId, ShapeId, VehicleId};
use crate::joint::{JointDef, SixDofAxis};
use crate::math::{DVec3, Quat, Vec3};
use crate::shape::{BoxShape, Filter, ShapeDef, ShapeGeometry};
use crate::vehicle::{VehicleDef, VehicleInput};
use crate::world::World;

macro_rules! ops {
    ($(
        $(#[$doc:meta])*
        $kind:ident = $code:literal: $name:ident($($f:ident: $t:ty),* $(,)?)
            $(=> |$w:ident| $replay:expr)?;
    )*) => {
        /// The record kinds (the tape's `kind u16`).
        pub(super) mod kind {
            $(pub const $kind: u16 = $code;)*
        }

        /// Every op of the table: kind and name.
        #[cfg(test)]
        pub(crate) const OPS: &[(u16, &str)] = &[$(($code, stringify!($name))),*];

        /// The typed writers: one per op, its fields in tape order.
        impl Journal {
            $(
                $(#[$doc])*
                pub(crate) fn $name(&mut self, $($f: <$t as Field>::In<'_>),*) {
                    self.record(kind::$kind, |e| {
                        $(<$t as Field>::put($f, e);)*
                    });
                }
            )*
        }

        impl World {
            /// Makes one recorded call again.
            pub(super) fn replay_one(&mut self, kind: u16, d: &mut Dec) -> Result<()> {
                let tag = self.tag;
                match kind {
                    $(
                        kind::$kind => {
                            $(let $f = <$t as Field>::get(d, tag)?;)*
                            ops!(@replay self, $name, ($($f),*) $(, |$w| $replay)?)
                        }
                    )*
                    _ => Err(Error::Format("unknown record kind")),
                }
            }
        }
    };
    (@replay $s:ident, $name:ident, ($($f:ident),*)) => {
        $s.$name($($f),*)
    };
    (@replay $s:ident, $name:ident, ($($f:ident),*), |$w:ident| $replay:expr) => {{
        let $w = &mut *$s;
        $replay
    }};
}

ops! {
    // Bodies.
    /// `create_body`: the def, then the id it got.
    CREATE_BODY = 1: create_body(def: BodyDef, id: BodyId) =>
        |w| created(w.create_body(&def)?, id);
    DESTROY_BODY = 2: destroy_body(id: BodyId);
    SET_BODY_TRANSFORM = 3: set_body_transform(id: BodyId, position: DVec3, rotation: Quat);
    SET_BODY_VELOCITY = 4: set_body_velocity(id: BodyId, linear: Vec3, angular: Vec3);
    APPLY_FORCE_TO_CENTER = 5: apply_force_to_center(id: BodyId, force: Vec3);
    APPLY_FORCE = 6: apply_force(id: BodyId, force: Vec3, point: DVec3);
    APPLY_TORQUE = 7: apply_torque(id: BodyId, torque: Vec3);
    APPLY_LINEAR_IMPULSE = 8: apply_linear_impulse(id: BodyId, impulse: Vec3, point: DVec3);
    APPLY_ANGULAR_IMPULSE = 9: apply_angular_impulse(id: BodyId, impulse: Vec3);
    SET_BODY_TYPE = 10: set_body_type(id: BodyId, body_type: BodyType);
    SET_BODY_ENABLED = 11: set_body_enabled(id: BodyId, enabled: bool);
    SET_BODY_AWAKE = 12: set_body_awake(id: BodyId, awake: bool);
    SET_BODY_SLEEP_ENABLED = 13: set_body_sleep_enabled(id: BodyId, enable: bool);
    SET_BODY_SLEEP_THRESHOLD = 14: set_body_sleep_threshold(id: BodyId, threshold: f32);
    SET_BODY_DAMPING = 15: set_body_damping(id: BodyId, linear: f32, angular: f32);
    SET_BODY_GRAVITY_SCALE = 16: set_body_gravity_scale(id: BodyId, scale: f32);
    SET_BODY_MOTION_LOCKS = 17: set_body_motion_locks(id: BodyId, locks: MotionLocks);
    SET_BODY_BULLET = 18: set_body_bullet(id: BodyId, bullet: bool);
    SET_BODY_MASS_DATA = 19: set_body_mass_data(id: BodyId, data: Option<MassData>);
    SET_BODY_USER_DATA = 20: set_body_user_data(id: BodyId, data: u64);
    SET_BODY_CUSTOM_INTEGRATOR = 81: set_body_custom_integrator(id: BodyId, custom: bool);
    /// Wakes the sleeping dynamic bodies with a contact with the body.
    WAKE_BODIES_TOUCHING = 89: wake_bodies_touching(id: BodyId);

    // Shapes and hulls.
    /// Every shape kind: body, def, content (tags 0 geometry — sphere, capsule, box,
    /// cylinder, plane; cylinders and planes came with tape minor 3 —, 1 hull by id, 2
    /// mesh by id), then the shape's id.
    CREATE_SHAPE = 30:
        create_shape(body: BodyId, def: ShapeDef, content: ShapeContent, id: ShapeId) =>
        |w| created(replay_create_shape(w, body, &def, content)?, id);
    DESTROY_SHAPE = 31: destroy_shape(id: ShapeId);
    CREATE_HULL = 32: create_hull(points: HullPoints, id: HullId) =>
        |w| created(w.create_hull(&points.0)?, id);
    DESTROY_HULL = 33: destroy_hull(id: HullId);
    SET_SHAPE_FRICTION = 34: set_shape_friction(id: ShapeId, friction: f32);
    SET_SHAPE_RESTITUTION = 35: set_shape_restitution(id: ShapeId, restitution: f32);
    SET_SHAPE_ROLLING_RESISTANCE = 36: set_shape_rolling_resistance(id: ShapeId, rolling: f32);
    SET_SHAPE_DENSITY = 37: set_shape_density(id: ShapeId, density: f32);
    SET_SHAPE_FILTER = 38: set_shape_filter(id: ShapeId, filter: Filter);
    SET_SHAPE_AREA = 80: set_shape_area(id: ShapeId, area: Option<AreaSettings>);
    SET_SENSOR_DETECTS_SENSORS = 90: set_sensor_detects_sensors(id: ShapeId, detects: bool);
    SET_SHAPE_ENABLE_SENSOR_EVENTS = 91:
        set_shape_enable_sensor_events(id: ShapeId, enable: bool);
    SET_SHAPE_ROUGH = 93: set_shape_rough(id: ShapeId, rough: bool);
    SET_SHAPE_ABSORBENT = 94: set_shape_absorbent(id: ShapeId, absorbent: bool);
    SET_SHAPE_TWO_SIDED = 105: set_shape_two_sided(id: ShapeId, two_sided: bool);

    // Explosions and content (meshes, height fields, voxel grids).
    EXPLODE = 82: explode(def: ExplosionDef) => |w| w.explode(&def);
    CREATE_MESH = 83: create_mesh(content: MeshContent, id: MeshId) =>
        |w| created(w.create_mesh(&content.vertices, &content.triangles)?, id);
    DESTROY_MESH = 84: destroy_mesh(id: MeshId);
    CREATE_HEIGHT_FIELD = 85: create_height_field(content: HeightFieldContent, id: MeshId) =>
        |w| created(w.create_height_field(&content.def())?, id);
    CREATE_VOXEL_GRID = 86: create_voxel_grid(content: VoxelGridContent, id: MeshId) =>
        |w| created(w.create_voxel_grid(&content.def())?, id);
    SET_VOXEL = 87: set_voxel(grid: MeshId, voxel: [i32; 3], material: u8);
    FILL_VOXELS = 88: fill_voxels(grid: MeshId, min: [i32; 3], max: [i32; 3], material: u8);

    // The world.
    /// A step, with the contacts the pre-solve callback disabled in it: a replay applies
    /// them instead of calling the callback.
    STEP = 50: step(dt: f32, substeps: u32, disabled: DisabledContacts) =>
        |w| replay_step(w, dt, substeps, &disabled.0);
    SHIFT_ORIGIN = 51: shift_origin(offset: DVec3);
    SET_GRAVITY = 52: set_gravity(gravity: Vec3);
    ENABLE_SLEEP = 53: enable_sleep(enable: bool) => |w| {
        w.enable_sleep(enable);
        Ok(())
    };
    /// A growth of the world's capacities (between steps).
    GROW = 95: grow(capacities: Capacities) => |w| w.grow(&capacities);
    SET_COMBINE_RULES = 92:
        set_combine_rules(friction: CombineRule, restitution: CombineRule) => |w| {
            w.set_combine_rules(friction, restitution);
            Ok(())
        };

    // Joints: 60–79.
    CREATE_JOINT = 60: create_joint(def: JointDef, id: JointId) =>
        |w| created(w.create_joint(&def)?, id);
    DESTROY_JOINT = 61: destroy_joint(id: JointId);
    SET_JOINT_MOTOR_SPEED = 62: set_joint_motor_speed(id: JointId, speed: f32);
    SET_JOINT_MAX_MOTOR_FORCE = 63: set_joint_max_motor_force(id: JointId, max: f32);
    SET_JOINT_ENABLE_MOTOR = 64: set_joint_enable_motor(id: JointId, enable: bool);
    SET_JOINT_ENABLE_LIMIT = 65: set_joint_enable_limit(id: JointId, enable: bool);
    SET_JOINT_LIMITS = 66: set_joint_limits(id: JointId, lower: f32, upper: f32);
    SET_JOINT_ENABLE_SPRING = 67: set_joint_enable_spring(id: JointId, enable: bool);
    SET_JOINT_SPRING = 68: set_joint_spring(id: JointId, hz: f32, damping_ratio: f32);
    SET_JOINT_LIMIT_SPRING = 100:
        set_joint_limit_spring(id: JointId, hz: f32, damping_ratio: f32);
    SET_DISTANCE_LENGTH = 69: set_distance_length(id: JointId, length: f32);
    SET_DISTANCE_RANGE = 70: set_distance_range(id: JointId, min: f32, max: f32);
    SET_JOINT_BREAK_THRESHOLDS = 71:
        set_joint_break_thresholds(id: JointId, force: f32, torque: f32);
    SET_JOINT_COLLIDE_CONNECTED = 72: set_joint_collide_connected(id: JointId, collide: bool);
    SET_JOINT_USER_DATA = 73: set_joint_user_data(id: JointId, data: u64);
    SET_CONE_SWING_LIMIT = 74: set_cone_swing_limit(id: JointId, swing_limit: f32);
    SET_WELD_SPRING = 75:
        set_weld_spring(id: JointId, linear_hz: f32, angular_hz: f32, damping_ratio: f32);
    SET_SIX_DOF_AXIS = 76: set_six_dof_axis(id: JointId, axis: u32, value: SixDofAxis);
    SET_SIX_DOF_LIMIT_SPRING = 101:
        set_six_dof_limit_spring(id: JointId, axis: u32, hz: f32, damping_ratio: f32);
    SET_JOINT_PIVOT_SPRING = 102:
        set_joint_pivot_spring(id: JointId, hz: f32, damping_ratio: f32);
    SET_JOINT_DAMPING_RATIO = 77: set_joint_damping_ratio(ratio: f32);

    // Characters: kinds 120–139 (`api/character.rs`).
    CREATE_CHARACTER = 120: create_character(def: CharacterDef, id: CharacterId) =>
        |w| created(w.create_character(&def)?, id);
    DESTROY_CHARACTER = 121: destroy_character(id: CharacterId);
    MOVE_CHARACTER = 122: move_character(id: CharacterId, velocity: Vec3, dt: f32);
    SET_CHARACTER_POSITION = 123: set_character_position(id: CharacterId, position: DVec3);
    SET_CHARACTER_SETTINGS = 124:
        set_character_settings(id: CharacterId, settings: CharacterSettings) =>
        |w| w.set_character_settings(id, &settings);
    // (end of characters)

    // Vehicles: kinds 140–159 (`api/vehicle.rs`).
    CREATE_VEHICLE = 140: create_vehicle(def: VehicleDef, id: VehicleId) =>
        |w| created(w.create_vehicle(&def)?, id);
    DESTROY_VEHICLE = 141: destroy_vehicle(id: VehicleId);
    SET_VEHICLE_INPUT = 142: set_vehicle_input(id: VehicleId, input: VehicleInput);
    /// The gear plus one (0 reverse, 1 neutral, 2 the first forward gear).
    SET_VEHICLE_GEAR = 143: set_vehicle_gear(id: VehicleId, gear: u32) =>
        |w| w.set_vehicle_gear(id, gear as i32 - 1);
    // (end of vehicles)

    // Water volumes: kinds 160–179 (`api/water.rs`).
    CREATE_WATER_VOLUME = 160:
        create_water_volume(def: crate::water::WaterVolumeDef, id: crate::id::WaterVolumeId) =>
        |w| created(w.create_water_volume(&def)?, id);
    DESTROY_WATER_VOLUME = 161: destroy_water_volume(id: crate::id::WaterVolumeId);
    SET_WATER_VOLUME = 162:
        set_water_volume(id: crate::id::WaterVolumeId, def: crate::water::WaterVolumeDef) =>
        |w| w.set_water_volume(id, &def);
    SET_WATER_DENSITY = 163: set_water_density(id: crate::id::WaterVolumeId, density: f32);
    SET_WATER_DRAG = 164:
        set_water_drag(id: crate::id::WaterVolumeId, linear: f32, angular: f32);
    SET_WATER_FLOW = 165: set_water_flow(id: crate::id::WaterVolumeId, flow: Vec3);
    SET_WATER_REGION = 166: set_water_region(
        id: crate::id::WaterVolumeId,
        center: DVec3,
        rotation: Quat,
        half_extents: Vec3,
    );
    // (end of water volumes)

    // Soft bodies: kinds 180–199 (`api/soft.rs`).
    /// The mesh, where its frame is, the settings and filter, then the id.
    CREATE_SOFT_BODY = 180: create_soft_body(
        content: MeshContent,
        position: DVec3,
        rotation: Quat,
        settings: crate::soft::SoftBodySettings,
        filter: Filter,
        id: crate::id::SoftBodyId,
    ) => |w| {
        let def = crate::soft::SoftBodyDef {
            vertices: &content.vertices,
            triangles: &content.triangles,
            position,
            rotation,
            settings,
            filter,
        };
        created(w.create_soft_body(&def)?, id)
    };
    DESTROY_SOFT_BODY = 181: destroy_soft_body(id: crate::id::SoftBodyId);
    SET_SOFT_BODY_SETTINGS = 182: set_soft_body_settings(
        id: crate::id::SoftBodyId,
        settings: crate::soft::SoftBodySettings,
    ) => |w| w.set_soft_body_settings(id, &settings);
    SET_SOFT_BODY_FILTER = 183: set_soft_body_filter(id: crate::id::SoftBodyId, filter: Filter);
    SET_SOFT_PARTICLE_PINNED = 184:
        set_soft_particle_pinned(id: crate::id::SoftBodyId, index: u32, pinned: bool);
    SET_SOFT_PARTICLE_POSITION = 185:
        set_soft_particle_position(id: crate::id::SoftBodyId, index: u32, position: DVec3);
    SET_SOFT_PARTICLE_VELOCITY = 186:
        set_soft_particle_velocity(id: crate::id::SoftBodyId, index: u32, velocity: Vec3);
    APPLY_SOFT_PARTICLE_IMPULSE = 187:
        apply_soft_particle_impulse(id: crate::id::SoftBodyId, index: u32, impulse: Vec3);
    APPLY_SOFT_BODY_IMPULSE = 188:
        apply_soft_body_impulse(id: crate::id::SoftBodyId, impulse: Vec3);
    SET_SOFT_BODY_TRANSFORM = 189:
        set_soft_body_transform(id: crate::id::SoftBodyId, position: DVec3, rotation: Quat);
    /// The body is `BodyId::NULL` for a detach.
    ATTACH_SOFT_PARTICLE = 190: attach_soft_particle(
        id: crate::id::SoftBodyId,
        index: u32,
        body: BodyId,
        local_point: Vec3,
    ) => |w| w.attach_soft_particle(id, index, (!body.is_null()).then_some(body), local_point);
    SET_SOFT_BODY_IGNORES_BODY = 191:
        set_soft_body_ignores_body(id: crate::id::SoftBodyId, body: BodyId, ignore: bool);
    // (end of soft bodies)
}

/// A create's check: the world handed out the id the tape recorded.
fn created<T: PartialEq>(got: T, recorded: T) -> Result<()> {
    check(got == recorded, "a create did not get its recorded id")
}

/// Creates a recorded shape through the public call its content names.
fn replay_create_shape(
    w: &mut World,
    body: BodyId,
    def: &ShapeDef,
    content: ShapeContent,
) -> Result<ShapeId> {
    Ok(match content {
        ShapeContent::Hull(hull) => w.create_hull_shape(body, def, hull)?,
        ShapeContent::Mesh(mesh) => w.create_mesh_shape(body, def, mesh)?,
        ShapeContent::Geometry(g) => match g {
            ShapeGeometry::Sphere(s) => w.create_sphere_shape(body, def, &s)?,
            ShapeGeometry::Capsule(c) => w.create_capsule_shape(body, def, &c)?,
            ShapeGeometry::Box(BoxShape {
                half,
                center,
                rotation,
            }) => w.create_offset_box_shape(body, def, half, center, rotation)?,
            ShapeGeometry::Hull(_) | ShapeGeometry::Mesh(_) => {
                return Err(Error::Format("shared geometry without its id"));
            }
            ShapeGeometry::Cylinder(c) => w.create_cylinder_shape(body, def, &c)?,
            ShapeGeometry::Plane(p) => w.create_plane_shape(body, def, &p)?,
            ShapeGeometry::Ray(r) => w.create_ray_shape(body, def, &r)?,
        },
    })
}

/// Steps a replaying world, applying the recorded pre-solve decisions instead of calling
/// the callback.
fn replay_step(w: &mut World, dt: f32, substeps: u32, disabled: &[u64]) -> Result<()> {
    check(
        disabled.len() <= w.presolve.replay.capacity(),
        "more disabled contacts than the capacity",
    )?;
    w.presolve.replay.clear();
    for &key in disabled {
        let ok = w.presolve.replay.push(key);
        debug_assert!(ok);
    }
    w.presolve.replaying = true;
    let r = w.step(dt, substeps);
    w.presolve.replaying = false;
    r
}
