//! `Maul3DWaterVolume3D`: a node that owns one core water volume
//! (`World::create_water_volume`) in the space of its World3D.

use godot::classes::notify::Node3DNotification;
use godot::classes::{INode3D, Node3D};
use godot::prelude::*;
use maul3d::{Filter, WaterVolumeDef, WaterVolumeId};

use crate::conv::{dv, quat, v3};
use crate::singleton::{report, with_state, with_state_mut};

/// A box of water: rigid bodies in it float by the weight of the water they displace and
/// are dragged towards its current, computed by Maul3D each step (inside its determinism
/// promise; Godot's `Area3D` gravity and damping overrides have no buoyancy).
///
/// The box is `size` (local, scaled by the node's global scale), centred on the node and
/// turned with it; its top face is the water surface. Per rigid body and step, with `V` the
/// volume of the body's shapes under the surface and `f` the submerged fraction: buoyancy
/// `density · V · g` up at the centre of the submerged part (so a floating box rights
/// itself), linear drag `mass · linear_damp · f` times the body's velocity relative to
/// `flow_velocity`, angular drag `angular_damp · f` on its spin. A body of density `ρ`
/// floats with the fraction `ρ / density` of its volume under (a box of density 500 in
/// water of 1000: half its height). Bodies whose layer is in `collision_mask` are acted
/// on. Moving or turning the node moves the box. A space holds at most
/// `physics/maul3d/water_capacity` water volumes; the volumes are part of its hash,
/// snapshots and replays.
#[derive(GodotClass)]
#[class(base = Node3D)]
pub struct Maul3DWaterVolume3D {
    /// The box's size, m (each in (0, 2e6]); the surface is `size.y / 2` above the node.
    #[export]
    #[var(set)]
    size: Vector3,
    /// The fluid's density, kg/m³ (in [0, 1e5]; 1000 is water).
    #[export]
    #[var(set)]
    density: f32,
    /// Linear drag rate, 1/s (in [0, 1e6]): the fraction of its velocity relative to the
    /// flow a fully submerged body loses per second.
    #[export]
    #[var(set)]
    linear_damp: f32,
    /// Angular drag rate, 1/s (in [0, 1e6]).
    #[export]
    #[var(set)]
    angular_damp: f32,
    /// The current, m/s (global): submerged bodies are dragged towards it.
    #[export]
    #[var(set)]
    flow_velocity: Vector3,
    /// The physics layers of the bodies the water acts on.
    #[export(flags_3d_physics)]
    #[var(set)]
    collision_mask: u32,
    space: Rid,
    id: Option<WaterVolumeId>,
    base: Base<Node3D>,
}

#[godot_api]
impl INode3D for Maul3DWaterVolume3D {
    fn init(base: Base<Node3D>) -> Self {
        let d = WaterVolumeDef::default();
        Self {
            size: Vector3::new(10.0, 10.0, 10.0),
            density: d.density,
            linear_damp: d.linear_drag,
            angular_damp: d.angular_drag,
            flow_velocity: Vector3::ZERO,
            collision_mask: 1,
            space: Rid::Invalid,
            id: None,
            base,
        }
    }

    // Notifications, not the virtuals: a script extending the node overrides those.
    fn on_notification(&mut self, what: Node3DNotification) {
        match what {
            Node3DNotification::ENTER_TREE => self.enter(),
            Node3DNotification::EXIT_TREE => self.exit(),
            Node3DNotification::TRANSFORM_CHANGED => {
                self.push("transform");
            }
            _ => {}
        }
    }
}

impl Maul3DWaterVolume3D {
    fn enter(&mut self) {
        self.base_mut().set_notify_transform(true);
        let Some(world) = self.base().get_world_3d() else {
            return;
        };
        self.space = world.get_space();
        let (space, owner, def) = (self.space.to_u64(), self.owner(), self.def());
        let r = with_state_mut(|st| st.water_create(space, owner, &def));
        self.id = report("Maul3DWaterVolume3D", r).map(|(id, _)| id);
    }

    fn exit(&mut self) {
        if let Some(id) = self.id.take() {
            let (space, owner) = (self.space.to_u64(), self.owner());
            let _ = with_state_mut(|st| {
                st.water_destroy(space, owner, id);
                Ok(())
            });
        }
    }
}

#[godot_api]
impl Maul3DWaterVolume3D {
    /// The volume of a body's shapes under this water's surface now, m³ (0 for a body
    /// outside it, not in its space, or unknown).
    #[func]
    pub fn get_submerged_volume(&self, body: Rid) -> f32 {
        let Some(id) = self.id else { return 0.0 };
        let space = self.space.to_u64();
        with_state(|st| {
            let Some((sp, b)) = st.core_body(body.to_u64()) else {
                return Ok(0.0);
            };
            if sp != space {
                return Ok(0.0);
            }
            let (w, _) = st.extras(space)?;
            Ok(w.water_buoyancy(id, b).map_or(0.0, |b| b.submerged_volume))
        })
        .unwrap_or(0.0)
    }

    /// Whether the node has a water volume in its space now.
    #[func]
    pub fn has_water_volume(&self) -> bool {
        self.id.is_some()
    }

    /// Sets `size` (refused with an error when a side is not in (0, 2e6]).
    #[func]
    pub fn set_size(&mut self, size: Vector3) {
        let old = std::mem::replace(&mut self.size, size);
        if !self.push("size") {
            self.size = old;
        }
    }

    /// Sets `density` (refused with an error outside [0, 1e5]).
    #[func]
    pub fn set_density(&mut self, density: f32) {
        let old = std::mem::replace(&mut self.density, density);
        if !self.push("density") {
            self.density = old;
        }
    }

    /// Sets `linear_damp` (refused with an error outside [0, 1e6]).
    #[func]
    pub fn set_linear_damp(&mut self, damp: f32) {
        let old = std::mem::replace(&mut self.linear_damp, damp);
        if !self.push("linear_damp") {
            self.linear_damp = old;
        }
    }

    /// Sets `angular_damp` (refused with an error outside [0, 1e6]).
    #[func]
    pub fn set_angular_damp(&mut self, damp: f32) {
        let old = std::mem::replace(&mut self.angular_damp, damp);
        if !self.push("angular_damp") {
            self.angular_damp = old;
        }
    }

    /// Sets `flow_velocity` (refused with an error beyond ±1e5 m/s).
    #[func]
    pub fn set_flow_velocity(&mut self, flow: Vector3) {
        let old = std::mem::replace(&mut self.flow_velocity, flow);
        if !self.push("flow_velocity") {
            self.flow_velocity = old;
        }
    }

    /// Sets `collision_mask`.
    #[func]
    pub fn set_collision_mask(&mut self, mask: u32) {
        let old = std::mem::replace(&mut self.collision_mask, mask);
        if !self.push("collision_mask") {
            self.collision_mask = old;
        }
    }
}

impl Maul3DWaterVolume3D {
    fn owner(&self) -> u64 {
        self.base().instance_id().to_i64() as u64
    }

    fn def(&self) -> WaterVolumeDef {
        let (t, s) = if self.base().is_inside_tree() {
            let t = self.base().get_global_transform();
            (t, t.basis.get_scale())
        } else {
            (Transform3D::IDENTITY, Vector3::ONE)
        };
        let mask = u64::from(self.collision_mask);
        WaterVolumeDef {
            center: dv(t.origin),
            rotation: quat(t.basis),
            half_extents: v3(self.size * s.abs() * 0.5),
            density: self.density,
            linear_drag: self.linear_damp,
            angular_drag: self.angular_damp,
            flow: v3(self.flow_velocity),
            // In no layer, seeing the mask's (Godot's rule in the core's: `Obj::filter`).
            filter: Filter {
                category_bits: mask << 32,
                mask_bits: mask,
                group_index: 0,
            },
        }
    }

    /// Gives the water volume the node's settings and place; false (with an error) when
    /// refused.
    fn push(&mut self, what: &str) -> bool {
        let Some(id) = self.id else {
            return true;
        };
        let (space, owner, def) = (self.space.to_u64(), self.owner(), self.def());
        let r = with_state_mut(|st| {
            let w = st.water_world(space, owner, id)?;
            if w.water_volume(id).is_ok_and(|d| d == def) {
                return Ok(());
            }
            w.set_water_volume(id, &def).map_err(|e| e.to_string())
        });
        report(&format!("Maul3DWaterVolume3D.{what}"), r).is_some()
    }
}
