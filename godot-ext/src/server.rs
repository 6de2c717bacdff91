//! `Maul3DPhysicsServer`: Godot's `PhysicsServer3D` interface over `maul3d` worlds.
//!
//! Godot creates every object through the server and names it by a `Rid`; the server
//! keeps one record per RID (ordered maps keyed by the RID's number, handed out in
//! creation order, so nothing here depends on hash or pointer order). Each space is a
//! `maul3d::World`.
//!
//! A method the server does not support yet warns once, naming the feature, and returns
//! a neutral value; `unsupported` is the one place that does it.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Mutex;

use godot::classes::native::*;
use godot::classes::physics_server_3d::*;
use godot::classes::{
    IPhysicsServer3DExtension, PhysicsDirectBodyState3D, PhysicsDirectSpaceState3D,
    PhysicsServer3DExtension, PhysicsServer3DRenderingServerHandler,
};
use godot::meta::conv::RawPtr;
use godot::prelude::*;
use maul3d::{World, WorldDef};

/// Warns once per method that the server does not support it yet.
fn unsupported(method: &'static str, feature: &'static str) {
    static WARNED: Mutex<BTreeSet<&'static str>> = Mutex::new(BTreeSet::new());
    let mut warned = WARNED.lock().unwrap_or_else(|e| e.into_inner());
    if warned.insert(method) {
        godot_warn!("Maul3D: PhysicsServer3D.{method} is not supported yet ({feature}).");
    }
}

/// One Godot space: a world and the parameters Godot set on it.
pub(crate) struct Space {
    pub world: World,
    pub active: bool,
}

#[derive(Default)]
pub(crate) struct State {
    next_rid: u64,
    pub spaces: BTreeMap<u64, Space>,
    /// Areas: only their space for now.
    areas: BTreeMap<u64, Option<u64>>,
    /// Godot pauses physics with `set_active(false)`; a server starts active.
    paused: bool,
}

impl State {
    fn new_rid(&mut self) -> Rid {
        self.next_rid += 1;
        Rid::new(self.next_rid)
    }
}

#[derive(GodotClass)]
#[class(base = PhysicsServer3DExtension, init, tool)]
pub struct Maul3DPhysicsServer {
    pub(crate) st: State,
    base: Base<PhysicsServer3DExtension>,
}

#[godot_api]
impl IPhysicsServer3DExtension for Maul3DPhysicsServer {
    fn world_boundary_shape_create(&mut self) -> Rid {
        unsupported("world_boundary_shape_create", "this method");
        Rid::Invalid
    }

    fn separation_ray_shape_create(&mut self) -> Rid {
        unsupported("separation_ray_shape_create", "this method");
        Rid::Invalid
    }

    fn sphere_shape_create(&mut self) -> Rid {
        unsupported("sphere_shape_create", "this method");
        Rid::Invalid
    }

    fn box_shape_create(&mut self) -> Rid {
        unsupported("box_shape_create", "this method");
        Rid::Invalid
    }

    fn capsule_shape_create(&mut self) -> Rid {
        unsupported("capsule_shape_create", "this method");
        Rid::Invalid
    }

    fn cylinder_shape_create(&mut self) -> Rid {
        unsupported("cylinder_shape_create", "this method");
        Rid::Invalid
    }

    fn convex_polygon_shape_create(&mut self) -> Rid {
        unsupported("convex_polygon_shape_create", "this method");
        Rid::Invalid
    }

    fn concave_polygon_shape_create(&mut self) -> Rid {
        unsupported("concave_polygon_shape_create", "this method");
        Rid::Invalid
    }

    fn heightmap_shape_create(&mut self) -> Rid {
        unsupported("heightmap_shape_create", "this method");
        Rid::Invalid
    }

    fn custom_shape_create(&mut self) -> Rid {
        unsupported("custom_shape_create", "this method");
        Rid::Invalid
    }

    fn shape_set_data(&mut self, _shape: Rid, _data: Variant) {
        unsupported("shape_set_data", "this method");
    }

    fn shape_set_custom_solver_bias(&mut self, _shape: Rid, _bias: f32) {
        unsupported("shape_set_custom_solver_bias", "this method");
    }

    fn shape_set_margin(&mut self, _shape: Rid, _margin: f32) {
        unsupported("shape_set_margin", "this method");
    }

    fn shape_get_margin(&self, _shape: Rid) -> f32 {
        unsupported("shape_get_margin", "this method");
        0.0
    }

    fn shape_get_type(&self, _shape: Rid) -> ShapeType {
        unsupported("shape_get_type", "this method");
        ShapeType::CUSTOM
    }

    fn shape_get_data(&self, _shape: Rid) -> Variant {
        unsupported("shape_get_data", "this method");
        Variant::nil()
    }

    fn shape_get_custom_solver_bias(&self, _shape: Rid) -> f32 {
        unsupported("shape_get_custom_solver_bias", "this method");
        0.0
    }

    fn space_create(&mut self) -> Rid {
        match World::new(&WorldDef::default()) {
            Ok(world) => {
                let rid = self.st.new_rid();
                self.st.spaces.insert(
                    rid.to_u64(),
                    Space {
                        world,
                        active: false,
                    },
                );
                rid
            }
            Err(e) => {
                godot_error!("Maul3D: space_create failed: {e}");
                Rid::Invalid
            }
        }
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

    fn space_set_param(&mut self, _space: Rid, _param: SpaceParameter, _value: f32) {
        unsupported("space_set_param", "this method");
    }

    fn space_get_param(&self, _space: Rid, _param: SpaceParameter) -> f32 {
        unsupported("space_get_param", "this method");
        0.0
    }

    fn space_get_direct_state(&mut self, _space: Rid) -> Option<Gd<PhysicsDirectSpaceState3D>> {
        unsupported("space_get_direct_state", "this method");
        None
    }

    fn space_set_debug_contacts(&mut self, _space: Rid, _max_contacts: i32) {
        unsupported("space_set_debug_contacts", "this method");
    }

    fn space_get_contacts(&self, _space: Rid) -> PackedVector3Array {
        unsupported("space_get_contacts", "this method");
        PackedVector3Array::new()
    }

    fn space_get_contact_count(&self, _space: Rid) -> i32 {
        unsupported("space_get_contact_count", "this method");
        0
    }

    fn area_create(&mut self) -> Rid {
        let rid = self.st.new_rid();
        self.st.areas.insert(rid.to_u64(), None);
        rid
    }

    fn area_set_space(&mut self, area: Rid, space: Rid) {
        if let Some(a) = self.st.areas.get_mut(&area.to_u64()) {
            *a = space.to_valid_u64();
        }
    }

    fn area_get_space(&self, area: Rid) -> Rid {
        self.st
            .areas
            .get(&area.to_u64())
            .copied()
            .flatten()
            .map_or(Rid::Invalid, Rid::new)
    }

    fn area_add_shape(
        &mut self,
        _area: Rid,
        _shape: Rid,
        _transform: Transform3D,
        _disabled: bool,
    ) {
        unsupported("area_add_shape", "this method");
    }

    fn area_set_shape(&mut self, _area: Rid, _shape_idx: i32, _shape: Rid) {
        unsupported("area_set_shape", "this method");
    }

    fn area_set_shape_transform(&mut self, _area: Rid, _shape_idx: i32, _transform: Transform3D) {
        unsupported("area_set_shape_transform", "this method");
    }

    fn area_set_shape_disabled(&mut self, _area: Rid, _shape_idx: i32, _disabled: bool) {
        unsupported("area_set_shape_disabled", "this method");
    }

    fn area_get_shape_count(&self, _area: Rid) -> i32 {
        unsupported("area_get_shape_count", "this method");
        0
    }

    fn area_get_shape(&self, _area: Rid, _shape_idx: i32) -> Rid {
        unsupported("area_get_shape", "this method");
        Rid::Invalid
    }

    fn area_get_shape_transform(&self, _area: Rid, _shape_idx: i32) -> Transform3D {
        unsupported("area_get_shape_transform", "this method");
        Transform3D::IDENTITY
    }

    fn area_remove_shape(&mut self, _area: Rid, _shape_idx: i32) {
        unsupported("area_remove_shape", "this method");
    }

    fn area_clear_shapes(&mut self, _area: Rid) {
        unsupported("area_clear_shapes", "this method");
    }

    fn area_attach_object_instance_id(&mut self, _area: Rid, _id: u64) {
        unsupported("area_attach_object_instance_id", "this method");
    }

    fn area_get_object_instance_id(&self, _area: Rid) -> u64 {
        unsupported("area_get_object_instance_id", "this method");
        0
    }

    fn area_set_param(&mut self, _area: Rid, _param: AreaParameter, _value: Variant) {
        unsupported("area_set_param", "this method");
    }

    fn area_set_transform(&mut self, _area: Rid, _transform: Transform3D) {
        unsupported("area_set_transform", "this method");
    }

    fn area_get_param(&self, _area: Rid, _param: AreaParameter) -> Variant {
        unsupported("area_get_param", "this method");
        Variant::nil()
    }

    fn area_get_transform(&self, _area: Rid) -> Transform3D {
        unsupported("area_get_transform", "this method");
        Transform3D::IDENTITY
    }

    fn area_set_collision_layer(&mut self, _area: Rid, _layer: u32) {
        unsupported("area_set_collision_layer", "this method");
    }

    fn area_get_collision_layer(&self, _area: Rid) -> u32 {
        unsupported("area_get_collision_layer", "this method");
        0
    }

    fn area_set_collision_mask(&mut self, _area: Rid, _mask: u32) {
        unsupported("area_set_collision_mask", "this method");
    }

    fn area_get_collision_mask(&self, _area: Rid) -> u32 {
        unsupported("area_get_collision_mask", "this method");
        0
    }

    fn area_set_monitorable(&mut self, _area: Rid, _monitorable: bool) {
        unsupported("area_set_monitorable", "this method");
    }

    fn area_set_ray_pickable(&mut self, _area: Rid, _enable: bool) {
        unsupported("area_set_ray_pickable", "this method");
    }

    fn area_set_monitor_callback(&mut self, _area: Rid, _callback: Callable) {
        unsupported("area_set_monitor_callback", "this method");
    }

    fn area_set_area_monitor_callback(&mut self, _area: Rid, _callback: Callable) {
        unsupported("area_set_area_monitor_callback", "this method");
    }

    fn body_create(&mut self) -> Rid {
        unsupported("body_create", "this method");
        Rid::Invalid
    }

    fn body_set_space(&mut self, _body: Rid, _space: Rid) {
        unsupported("body_set_space", "this method");
    }

    fn body_get_space(&self, _body: Rid) -> Rid {
        unsupported("body_get_space", "this method");
        Rid::Invalid
    }

    fn body_set_mode(&mut self, _body: Rid, _mode: BodyMode) {
        unsupported("body_set_mode", "this method");
    }

    fn body_get_mode(&self, _body: Rid) -> BodyMode {
        unsupported("body_get_mode", "this method");
        BodyMode::STATIC
    }

    fn body_add_shape(
        &mut self,
        _body: Rid,
        _shape: Rid,
        _transform: Transform3D,
        _disabled: bool,
    ) {
        unsupported("body_add_shape", "this method");
    }

    fn body_set_shape(&mut self, _body: Rid, _shape_idx: i32, _shape: Rid) {
        unsupported("body_set_shape", "this method");
    }

    fn body_set_shape_transform(&mut self, _body: Rid, _shape_idx: i32, _transform: Transform3D) {
        unsupported("body_set_shape_transform", "this method");
    }

    fn body_set_shape_disabled(&mut self, _body: Rid, _shape_idx: i32, _disabled: bool) {
        unsupported("body_set_shape_disabled", "this method");
    }

    fn body_get_shape_count(&self, _body: Rid) -> i32 {
        unsupported("body_get_shape_count", "this method");
        0
    }

    fn body_get_shape(&self, _body: Rid, _shape_idx: i32) -> Rid {
        unsupported("body_get_shape", "this method");
        Rid::Invalid
    }

    fn body_get_shape_transform(&self, _body: Rid, _shape_idx: i32) -> Transform3D {
        unsupported("body_get_shape_transform", "this method");
        Transform3D::IDENTITY
    }

    fn body_remove_shape(&mut self, _body: Rid, _shape_idx: i32) {
        unsupported("body_remove_shape", "this method");
    }

    fn body_clear_shapes(&mut self, _body: Rid) {
        unsupported("body_clear_shapes", "this method");
    }

    fn body_attach_object_instance_id(&mut self, _body: Rid, _id: u64) {
        unsupported("body_attach_object_instance_id", "this method");
    }

    fn body_get_object_instance_id(&self, _body: Rid) -> u64 {
        unsupported("body_get_object_instance_id", "this method");
        0
    }

    fn body_set_enable_continuous_collision_detection(&mut self, _body: Rid, _enable: bool) {
        unsupported(
            "body_set_enable_continuous_collision_detection",
            "this method",
        );
    }

    fn body_is_continuous_collision_detection_enabled(&self, _body: Rid) -> bool {
        unsupported(
            "body_is_continuous_collision_detection_enabled",
            "this method",
        );
        false
    }

    fn body_set_collision_layer(&mut self, _body: Rid, _layer: u32) {
        unsupported("body_set_collision_layer", "this method");
    }

    fn body_get_collision_layer(&self, _body: Rid) -> u32 {
        unsupported("body_get_collision_layer", "this method");
        0
    }

    fn body_set_collision_mask(&mut self, _body: Rid, _mask: u32) {
        unsupported("body_set_collision_mask", "this method");
    }

    fn body_get_collision_mask(&self, _body: Rid) -> u32 {
        unsupported("body_get_collision_mask", "this method");
        0
    }

    fn body_set_collision_priority(&mut self, _body: Rid, _priority: f32) {
        unsupported("body_set_collision_priority", "this method");
    }

    fn body_get_collision_priority(&self, _body: Rid) -> f32 {
        unsupported("body_get_collision_priority", "this method");
        0.0
    }

    fn body_set_user_flags(&mut self, _body: Rid, _flags: u32) {
        unsupported("body_set_user_flags", "this method");
    }

    fn body_get_user_flags(&self, _body: Rid) -> u32 {
        unsupported("body_get_user_flags", "this method");
        0
    }

    fn body_set_param(&mut self, _body: Rid, _param: BodyParameter, _value: Variant) {
        unsupported("body_set_param", "this method");
    }

    fn body_get_param(&self, _body: Rid, _param: BodyParameter) -> Variant {
        unsupported("body_get_param", "this method");
        Variant::nil()
    }

    fn body_reset_mass_properties(&mut self, _body: Rid) {
        unsupported("body_reset_mass_properties", "this method");
    }

    fn body_set_state(&mut self, _body: Rid, _state: BodyState, _value: Variant) {
        unsupported("body_set_state", "this method");
    }

    fn body_get_state(&self, _body: Rid, _state: BodyState) -> Variant {
        unsupported("body_get_state", "this method");
        Variant::nil()
    }

    fn body_apply_central_impulse(&mut self, _body: Rid, _impulse: Vector3) {
        unsupported("body_apply_central_impulse", "this method");
    }

    fn body_apply_impulse(&mut self, _body: Rid, _impulse: Vector3, _position: Vector3) {
        unsupported("body_apply_impulse", "this method");
    }

    fn body_apply_torque_impulse(&mut self, _body: Rid, _impulse: Vector3) {
        unsupported("body_apply_torque_impulse", "this method");
    }

    fn body_apply_central_force(&mut self, _body: Rid, _force: Vector3) {
        unsupported("body_apply_central_force", "this method");
    }

    fn body_apply_force(&mut self, _body: Rid, _force: Vector3, _position: Vector3) {
        unsupported("body_apply_force", "this method");
    }

    fn body_apply_torque(&mut self, _body: Rid, _torque: Vector3) {
        unsupported("body_apply_torque", "this method");
    }

    fn body_add_constant_central_force(&mut self, _body: Rid, _force: Vector3) {
        unsupported("body_add_constant_central_force", "this method");
    }

    fn body_add_constant_force(&mut self, _body: Rid, _force: Vector3, _position: Vector3) {
        unsupported("body_add_constant_force", "this method");
    }

    fn body_add_constant_torque(&mut self, _body: Rid, _torque: Vector3) {
        unsupported("body_add_constant_torque", "this method");
    }

    fn body_set_constant_force(&mut self, _body: Rid, _force: Vector3) {
        unsupported("body_set_constant_force", "this method");
    }

    fn body_get_constant_force(&self, _body: Rid) -> Vector3 {
        unsupported("body_get_constant_force", "this method");
        Vector3::ZERO
    }

    fn body_set_constant_torque(&mut self, _body: Rid, _torque: Vector3) {
        unsupported("body_set_constant_torque", "this method");
    }

    fn body_get_constant_torque(&self, _body: Rid) -> Vector3 {
        unsupported("body_get_constant_torque", "this method");
        Vector3::ZERO
    }

    fn body_set_axis_velocity(&mut self, _body: Rid, _axis_velocity: Vector3) {
        unsupported("body_set_axis_velocity", "this method");
    }

    fn body_set_axis_lock(&mut self, _body: Rid, _axis: BodyAxis, _lock: bool) {
        unsupported("body_set_axis_lock", "this method");
    }

    fn body_is_axis_locked(&self, _body: Rid, _axis: BodyAxis) -> bool {
        unsupported("body_is_axis_locked", "this method");
        false
    }

    fn body_add_collision_exception(&mut self, _body: Rid, _excepted_body: Rid) {
        unsupported("body_add_collision_exception", "this method");
    }

    fn body_remove_collision_exception(&mut self, _body: Rid, _excepted_body: Rid) {
        unsupported("body_remove_collision_exception", "this method");
    }

    fn body_get_collision_exceptions(&self, _body: Rid) -> Array<Rid> {
        unsupported("body_get_collision_exceptions", "this method");
        Array::new()
    }

    fn body_set_max_contacts_reported(&mut self, _body: Rid, _amount: i32) {
        unsupported("body_set_max_contacts_reported", "this method");
    }

    fn body_get_max_contacts_reported(&self, _body: Rid) -> i32 {
        unsupported("body_get_max_contacts_reported", "this method");
        0
    }

    fn body_set_contacts_reported_depth_threshold(&mut self, _body: Rid, _threshold: f32) {
        unsupported("body_set_contacts_reported_depth_threshold", "this method");
    }

    fn body_get_contacts_reported_depth_threshold(&self, _body: Rid) -> f32 {
        unsupported("body_get_contacts_reported_depth_threshold", "this method");
        0.0
    }

    fn body_set_omit_force_integration(&mut self, _body: Rid, _enable: bool) {
        unsupported("body_set_omit_force_integration", "this method");
    }

    fn body_is_omitting_force_integration(&self, _body: Rid) -> bool {
        unsupported("body_is_omitting_force_integration", "this method");
        false
    }

    fn body_set_state_sync_callback(&mut self, _body: Rid, _callable: Callable) {
        unsupported("body_set_state_sync_callback", "this method");
    }

    fn body_set_force_integration_callback(
        &mut self,
        _body: Rid,
        _callable: Callable,
        _userdata: Variant,
    ) {
        unsupported("body_set_force_integration_callback", "this method");
    }

    fn body_set_ray_pickable(&mut self, _body: Rid, _enable: bool) {
        unsupported("body_set_ray_pickable", "this method");
    }

    unsafe fn body_test_motion_rawptr(
        &self,
        _body: Rid,
        _from: Transform3D,
        _motion: Vector3,
        _margin: f32,
        _max_collisions: i32,
        _collide_separation_ray: bool,
        _recovery_as_collision: bool,
        _result: RawPtr<*mut PhysicsServer3DExtensionMotionResult>,
    ) -> bool {
        unsupported("body_test_motion_rawptr", "this method");
        false
    }

    fn body_get_direct_state(&mut self, _body: Rid) -> Option<Gd<PhysicsDirectBodyState3D>> {
        unsupported("body_get_direct_state", "this method");
        None
    }

    fn soft_body_create(&mut self) -> Rid {
        unsupported("soft_body_create", "soft bodies");
        Rid::Invalid
    }

    fn soft_body_update_rendering_server(
        &mut self,
        _body: Rid,
        _rendering_server_handler: Option<Gd<PhysicsServer3DRenderingServerHandler>>,
    ) {
        unsupported("soft_body_update_rendering_server", "soft bodies");
    }

    fn soft_body_set_space(&mut self, _body: Rid, _space: Rid) {
        unsupported("soft_body_set_space", "soft bodies");
    }

    fn soft_body_get_space(&self, _body: Rid) -> Rid {
        unsupported("soft_body_get_space", "soft bodies");
        Rid::Invalid
    }

    fn soft_body_set_ray_pickable(&mut self, _body: Rid, _enable: bool) {
        unsupported("soft_body_set_ray_pickable", "soft bodies");
    }

    fn soft_body_set_collision_layer(&mut self, _body: Rid, _layer: u32) {
        unsupported("soft_body_set_collision_layer", "soft bodies");
    }

    fn soft_body_get_collision_layer(&self, _body: Rid) -> u32 {
        unsupported("soft_body_get_collision_layer", "soft bodies");
        0
    }

    fn soft_body_set_collision_mask(&mut self, _body: Rid, _mask: u32) {
        unsupported("soft_body_set_collision_mask", "soft bodies");
    }

    fn soft_body_get_collision_mask(&self, _body: Rid) -> u32 {
        unsupported("soft_body_get_collision_mask", "soft bodies");
        0
    }

    fn soft_body_add_collision_exception(&mut self, _body: Rid, _body_b: Rid) {
        unsupported("soft_body_add_collision_exception", "soft bodies");
    }

    fn soft_body_remove_collision_exception(&mut self, _body: Rid, _body_b: Rid) {
        unsupported("soft_body_remove_collision_exception", "soft bodies");
    }

    fn soft_body_get_collision_exceptions(&self, _body: Rid) -> Array<Rid> {
        unsupported("soft_body_get_collision_exceptions", "soft bodies");
        Array::new()
    }

    fn soft_body_set_state(&mut self, _body: Rid, _state: BodyState, _variant: Variant) {
        unsupported("soft_body_set_state", "soft bodies");
    }

    fn soft_body_get_state(&self, _body: Rid, _state: BodyState) -> Variant {
        unsupported("soft_body_get_state", "soft bodies");
        Variant::nil()
    }

    fn soft_body_set_transform(&mut self, _body: Rid, _transform: Transform3D) {
        unsupported("soft_body_set_transform", "soft bodies");
    }

    fn soft_body_set_simulation_precision(&mut self, _body: Rid, _simulation_precision: i32) {
        unsupported("soft_body_set_simulation_precision", "soft bodies");
    }

    fn soft_body_get_simulation_precision(&self, _body: Rid) -> i32 {
        unsupported("soft_body_get_simulation_precision", "soft bodies");
        0
    }

    fn soft_body_set_total_mass(&mut self, _body: Rid, _total_mass: f32) {
        unsupported("soft_body_set_total_mass", "soft bodies");
    }

    fn soft_body_get_total_mass(&self, _body: Rid) -> f32 {
        unsupported("soft_body_get_total_mass", "soft bodies");
        0.0
    }

    fn soft_body_set_linear_stiffness(&mut self, _body: Rid, _linear_stiffness: f32) {
        unsupported("soft_body_set_linear_stiffness", "soft bodies");
    }

    fn soft_body_get_linear_stiffness(&self, _body: Rid) -> f32 {
        unsupported("soft_body_get_linear_stiffness", "soft bodies");
        0.0
    }

    fn soft_body_set_shrinking_factor(&mut self, _body: Rid, _shrinking_factor: f32) {
        unsupported("soft_body_set_shrinking_factor", "soft bodies");
    }

    fn soft_body_get_shrinking_factor(&self, _body: Rid) -> f32 {
        unsupported("soft_body_get_shrinking_factor", "soft bodies");
        0.0
    }

    fn soft_body_set_pressure_coefficient(&mut self, _body: Rid, _pressure_coefficient: f32) {
        unsupported("soft_body_set_pressure_coefficient", "soft bodies");
    }

    fn soft_body_get_pressure_coefficient(&self, _body: Rid) -> f32 {
        unsupported("soft_body_get_pressure_coefficient", "soft bodies");
        0.0
    }

    fn soft_body_set_damping_coefficient(&mut self, _body: Rid, _damping_coefficient: f32) {
        unsupported("soft_body_set_damping_coefficient", "soft bodies");
    }

    fn soft_body_get_damping_coefficient(&self, _body: Rid) -> f32 {
        unsupported("soft_body_get_damping_coefficient", "soft bodies");
        0.0
    }

    fn soft_body_set_drag_coefficient(&mut self, _body: Rid, _drag_coefficient: f32) {
        unsupported("soft_body_set_drag_coefficient", "soft bodies");
    }

    fn soft_body_get_drag_coefficient(&self, _body: Rid) -> f32 {
        unsupported("soft_body_get_drag_coefficient", "soft bodies");
        0.0
    }

    fn soft_body_set_mesh(&mut self, _body: Rid, _mesh: Rid) {
        unsupported("soft_body_set_mesh", "soft bodies");
    }

    fn soft_body_get_bounds(&self, _body: Rid) -> Aabb {
        unsupported("soft_body_get_bounds", "soft bodies");
        Aabb::default()
    }

    fn soft_body_move_point(&mut self, _body: Rid, _point_index: i32, _global_position: Vector3) {
        unsupported("soft_body_move_point", "soft bodies");
    }

    fn soft_body_get_point_global_position(&self, _body: Rid, _point_index: i32) -> Vector3 {
        unsupported("soft_body_get_point_global_position", "soft bodies");
        Vector3::ZERO
    }

    fn soft_body_remove_all_pinned_points(&mut self, _body: Rid) {
        unsupported("soft_body_remove_all_pinned_points", "soft bodies");
    }

    fn soft_body_pin_point(&mut self, _body: Rid, _point_index: i32, _pin: bool) {
        unsupported("soft_body_pin_point", "soft bodies");
    }

    fn soft_body_is_point_pinned(&self, _body: Rid, _point_index: i32) -> bool {
        unsupported("soft_body_is_point_pinned", "soft bodies");
        false
    }

    fn soft_body_apply_point_impulse(&mut self, _body: Rid, _point_index: i32, _impulse: Vector3) {
        unsupported("soft_body_apply_point_impulse", "soft bodies");
    }

    fn soft_body_apply_point_force(&mut self, _body: Rid, _point_index: i32, _force: Vector3) {
        unsupported("soft_body_apply_point_force", "soft bodies");
    }

    fn soft_body_apply_central_impulse(&mut self, _body: Rid, _impulse: Vector3) {
        unsupported("soft_body_apply_central_impulse", "soft bodies");
    }

    fn soft_body_apply_central_force(&mut self, _body: Rid, _force: Vector3) {
        unsupported("soft_body_apply_central_force", "soft bodies");
    }

    fn joint_create(&mut self) -> Rid {
        unsupported("joint_create", "this method");
        Rid::Invalid
    }

    fn joint_clear(&mut self, _joint: Rid) {
        unsupported("joint_clear", "this method");
    }

    fn joint_make_pin(
        &mut self,
        _joint: Rid,
        _body_a: Rid,
        _local_a: Vector3,
        _body_b: Rid,
        _local_b: Vector3,
    ) {
        unsupported("joint_make_pin", "this method");
    }

    fn pin_joint_set_param(&mut self, _joint: Rid, _param: PinJointParam, _value: f32) {
        unsupported("pin_joint_set_param", "this method");
    }

    fn pin_joint_get_param(&self, _joint: Rid, _param: PinJointParam) -> f32 {
        unsupported("pin_joint_get_param", "this method");
        0.0
    }

    fn pin_joint_set_local_a(&mut self, _joint: Rid, _local_a: Vector3) {
        unsupported("pin_joint_set_local_a", "this method");
    }

    fn pin_joint_get_local_a(&self, _joint: Rid) -> Vector3 {
        unsupported("pin_joint_get_local_a", "this method");
        Vector3::ZERO
    }

    fn pin_joint_set_local_b(&mut self, _joint: Rid, _local_b: Vector3) {
        unsupported("pin_joint_set_local_b", "this method");
    }

    fn pin_joint_get_local_b(&self, _joint: Rid) -> Vector3 {
        unsupported("pin_joint_get_local_b", "this method");
        Vector3::ZERO
    }

    fn joint_make_hinge(
        &mut self,
        _joint: Rid,
        _body_a: Rid,
        _hinge_a: Transform3D,
        _body_b: Rid,
        _hinge_b: Transform3D,
    ) {
        unsupported("joint_make_hinge", "this method");
    }

    fn joint_make_hinge_simple(
        &mut self,
        _joint: Rid,
        _body_a: Rid,
        _pivot_a: Vector3,
        _axis_a: Vector3,
        _body_b: Rid,
        _pivot_b: Vector3,
        _axis_b: Vector3,
    ) {
        unsupported("joint_make_hinge_simple", "this method");
    }

    fn hinge_joint_set_param(&mut self, _joint: Rid, _param: HingeJointParam, _value: f32) {
        unsupported("hinge_joint_set_param", "this method");
    }

    fn hinge_joint_get_param(&self, _joint: Rid, _param: HingeJointParam) -> f32 {
        unsupported("hinge_joint_get_param", "this method");
        0.0
    }

    fn hinge_joint_set_flag(&mut self, _joint: Rid, _flag: HingeJointFlag, _enabled: bool) {
        unsupported("hinge_joint_set_flag", "this method");
    }

    fn hinge_joint_get_flag(&self, _joint: Rid, _flag: HingeJointFlag) -> bool {
        unsupported("hinge_joint_get_flag", "this method");
        false
    }

    fn joint_make_slider(
        &mut self,
        _joint: Rid,
        _body_a: Rid,
        _local_ref_a: Transform3D,
        _body_b: Rid,
        _local_ref_b: Transform3D,
    ) {
        unsupported("joint_make_slider", "this method");
    }

    fn slider_joint_set_param(&mut self, _joint: Rid, _param: SliderJointParam, _value: f32) {
        unsupported("slider_joint_set_param", "this method");
    }

    fn slider_joint_get_param(&self, _joint: Rid, _param: SliderJointParam) -> f32 {
        unsupported("slider_joint_get_param", "this method");
        0.0
    }

    fn joint_make_cone_twist(
        &mut self,
        _joint: Rid,
        _body_a: Rid,
        _local_ref_a: Transform3D,
        _body_b: Rid,
        _local_ref_b: Transform3D,
    ) {
        unsupported("joint_make_cone_twist", "this method");
    }

    fn cone_twist_joint_set_param(
        &mut self,
        _joint: Rid,
        _param: ConeTwistJointParam,
        _value: f32,
    ) {
        unsupported("cone_twist_joint_set_param", "this method");
    }

    fn cone_twist_joint_get_param(&self, _joint: Rid, _param: ConeTwistJointParam) -> f32 {
        unsupported("cone_twist_joint_get_param", "this method");
        0.0
    }

    fn joint_make_generic_6dof(
        &mut self,
        _joint: Rid,
        _body_a: Rid,
        _local_ref_a: Transform3D,
        _body_b: Rid,
        _local_ref_b: Transform3D,
    ) {
        unsupported("joint_make_generic_6dof", "this method");
    }

    fn generic_6dof_joint_set_param(
        &mut self,
        _joint: Rid,
        _axis: Vector3Axis,
        _param: G6dofJointAxisParam,
        _value: f32,
    ) {
        unsupported("generic_6dof_joint_set_param", "this method");
    }

    fn generic_6dof_joint_get_param(
        &self,
        _joint: Rid,
        _axis: Vector3Axis,
        _param: G6dofJointAxisParam,
    ) -> f32 {
        unsupported("generic_6dof_joint_get_param", "this method");
        0.0
    }

    fn generic_6dof_joint_set_flag(
        &mut self,
        _joint: Rid,
        _axis: Vector3Axis,
        _flag: G6dofJointAxisFlag,
        _enable: bool,
    ) {
        unsupported("generic_6dof_joint_set_flag", "this method");
    }

    fn generic_6dof_joint_get_flag(
        &self,
        _joint: Rid,
        _axis: Vector3Axis,
        _flag: G6dofJointAxisFlag,
    ) -> bool {
        unsupported("generic_6dof_joint_get_flag", "this method");
        false
    }

    fn joint_get_type(&self, _joint: Rid) -> JointType {
        unsupported("joint_get_type", "this method");
        JointType::MAX
    }

    fn joint_set_solver_priority(&mut self, _joint: Rid, _priority: i32) {
        unsupported("joint_set_solver_priority", "this method");
    }

    fn joint_get_solver_priority(&self, _joint: Rid) -> i32 {
        unsupported("joint_get_solver_priority", "this method");
        0
    }

    fn joint_disable_collisions_between_bodies(&mut self, _joint: Rid, _disable: bool) {
        unsupported("joint_disable_collisions_between_bodies", "this method");
    }

    fn joint_is_disabled_collisions_between_bodies(&self, _joint: Rid) -> bool {
        unsupported("joint_is_disabled_collisions_between_bodies", "this method");
        false
    }

    fn free_rid(&mut self, rid: Rid) {
        let id = rid.to_u64();
        self.st.spaces.remove(&id);
        self.st.areas.remove(&id);
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
        for space in self.st.spaces.values_mut().filter(|s| s.active) {
            if let Err(e) = space.world.step(step, 4) {
                godot_error!("Maul3D: step failed: {e}");
            }
        }
    }

    fn sync(&mut self) {}

    fn flush_queries(&mut self) {}

    fn end_sync(&mut self) {}

    fn finish(&mut self) {
        crate::singleton::set_server_active(false);
    }

    fn is_flushing_queries(&self) -> bool {
        false
    }

    fn get_process_info(&mut self, _process_info: ProcessInfo) -> i32 {
        unsupported("get_process_info", "this method");
        0
    }
}
