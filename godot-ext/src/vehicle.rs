//! `Maul3DVehicleBody3D` and `Maul3DVehicleWheel3D`: a rigid body that is the chassis of a
//! core vehicle (`World::create_vehicle`), its wheels the child wheel nodes.

use godot::classes::notify::Node3DNotification;
use godot::classes::{INode3D, IRigidBody3D, Node3D, RigidBody3D};
use godot::prelude::*;
use maul3d::{
    BodyId, SlipCurve, SuspensionSpring, VehicleDef, VehicleId, VehicleInput, WheelDef, World,
};

use crate::conv::v3;
use crate::singleton::{report, with_state, with_state_mut};

/// A wheel of a `Maul3DVehicleBody3D`: a direct child of it, placed where the suspension
/// is attached (its origin), its -Y the direction the suspension extends in and its X the
/// axle, as Godot's `VehicleWheel3D`. Each physics frame the vehicle puts the node where
/// Maul3D's wheel is: down the suspension by its length, turned by the steering and
/// rolled by the wheel's rotation (put a wheel mesh under it). The properties are read
/// when the vehicle is made (when it enters the tree, and again after its body is remade).
#[derive(GodotClass)]
#[class(base = Node3D)]
pub struct Maul3DVehicleWheel3D {
    /// The wheel's radius, m.
    #[export]
    #[var]
    wheel_radius: f32,
    /// The suspension's length at rest (no spring force), m.
    #[export]
    #[var]
    wheel_rest_length: f32,
    /// How far the suspension may compress below and extend beyond `wheel_rest_length`, m.
    #[export]
    #[var]
    suspension_travel: f32,
    /// Spring stiffness per kg of the chassis' mass (N/m per kg, as Godot's): the spring
    /// is `stiffness · M` N/m for a chassis of mass `M`, so on `n` such wheels the chassis
    /// rests `g / (n · stiffness)` below the rest length. Default 40.
    #[export]
    #[var]
    suspension_stiffness: f32,
    /// Damping while the suspension compresses, N·s/m per kg of the chassis' mass.
    /// Maul3D's suspension has one damping: the mean of this and `damping_relaxation`.
    #[export]
    #[var]
    damping_compression: f32,
    /// Damping while the suspension extends, N·s/m per kg of the chassis' mass (see
    /// `damping_compression`).
    #[export]
    #[var]
    damping_relaxation: f32,
    /// The tyre's peak friction coefficient (grip along and across the wheel, times the
    /// ground's friction; sliding grip is 0.8 of it). Default 1.2 (Godot's 10.5 is a
    /// different model's).
    #[export]
    #[var]
    wheel_friction_slip: f32,
    /// Whether the engine drives this wheel (the drive is split evenly among them).
    #[export]
    #[var]
    use_as_traction: bool,
    /// Whether the vehicle's `steering` turns this wheel.
    #[export]
    #[var]
    use_as_steering: bool,
    /// The brake torque at full `brake`, N·m.
    #[export]
    #[var]
    brake: f32,
    /// The brake torque at full `handbrake`, N·m (usually the rear wheels').
    #[export]
    #[var]
    handbrake: f32,
    /// The wheel's place on the chassis when the vehicle was made (the node moves since).
    rest: Option<Transform3D>,
    /// As of the last physics frame.
    contact: bool,
    length: f32,
    spin: f32,
    base: Base<Node3D>,
}

#[godot_api]
impl INode3D for Maul3DVehicleWheel3D {
    fn init(base: Base<Node3D>) -> Self {
        Self {
            wheel_radius: 0.5,
            wheel_rest_length: 0.15,
            suspension_travel: 0.2,
            suspension_stiffness: 40.0,
            damping_compression: 3.0,
            damping_relaxation: 3.0,
            wheel_friction_slip: 1.2,
            use_as_traction: false,
            use_as_steering: false,
            brake: 1500.0,
            handbrake: 0.0,
            rest: None,
            contact: false,
            length: 0.0,
            spin: 0.0,
            base,
        }
    }
}

#[godot_api]
impl Maul3DVehicleWheel3D {
    /// Whether the wheel touched the ground in the last step.
    #[func]
    pub fn is_in_contact(&self) -> bool {
        self.contact
    }

    /// The suspension's length after the last step, m (`wheel_rest_length +
    /// suspension_travel` off the ground).
    #[func]
    pub fn get_suspension_length(&self) -> f32 {
        self.length
    }

    /// The wheel's spin after the last step, rad/s (positive rolls forward).
    #[func]
    pub fn get_angular_velocity(&self) -> f32 {
        self.spin
    }
}

impl Maul3DVehicleWheel3D {
    /// The core wheel of this node, `rest` its place in the chassis frame, `mass` the
    /// chassis'.
    fn def(&self, rest: Transform3D, mass: f32, steer: f32) -> WheelDef {
        let down = -(rest.basis.col_b()).normalized();
        let rest_len = self.wheel_rest_length;
        let travel = self.suspension_travel;
        let grip = |d: SlipCurve| SlipCurve {
            peak: self.wheel_friction_slip,
            sliding: self.wheel_friction_slip * 0.8,
            ..d
        };
        let d = WheelDef::default();
        WheelDef {
            position: v3(rest.origin),
            suspension_direction: v3(down),
            min_length: maul3d::math::max(rest_len - travel, 0.0),
            max_length: rest_len + travel,
            rest_length: rest_len,
            spring: SuspensionSpring::Stiffness {
                stiffness: self.suspension_stiffness * mass,
                damping: 0.5 * (self.damping_compression + self.damping_relaxation) * mass,
            },
            radius: self.wheel_radius,
            max_steer_angle: if self.use_as_steering { steer } else { 0.0 },
            brake_torque: self.brake,
            handbrake_torque: self.handbrake,
            driven: self.use_as_traction,
            longitudinal: grip(d.longitudinal),
            lateral: grip(d.lateral),
            ..d
        }
    }
}

/// A car (or any wheeled vehicle) simulated by Maul3D's vehicle model, inside its
/// determinism promise (Godot's `VehicleBody3D` computes its raycast wheels in the scene,
/// outside it): a `RigidBody3D` chassis on the `Maul3DVehicleWheel3D` children, driven by
/// `engine_force`, `steering`, `brake` and `handbrake`.
///
/// The chassis' forward is its +Z, its up +Y (as `VehicleBody3D`). Maul3D models an
/// engine (`engine_torque`, 1000 to 6000 rpm) through an automatic 5-speed gearbox to the
/// traction wheels; `engine_force / max_engine_force` is the throttle (within [-1, 1];
/// negative reverses once stopped). `steering` is the steering wheels' angle (radians, at
/// most `max_steer_angle`; positive turns left). The vehicle is made when the node is
/// ready (from the wheels' properties and places then, and the body's mass: give it a
/// car's mass), and again whenever Maul3D remakes the body (its shapes or mode changed),
/// or after a restore to a snapshot from before it. Each physics frame the input goes to
/// Maul3D and the wheel nodes follow their wheels. A space holds at most
/// `physics/maul3d/vehicle_capacity` vehicles.
#[derive(GodotClass)]
#[class(base = RigidBody3D)]
pub struct Maul3DVehicleBody3D {
    /// The drive: `engine_force / max_engine_force` is the throttle, within [-1, 1].
    #[export]
    #[var(set)]
    engine_force: f32,
    /// The `engine_force` of full throttle.
    #[export]
    #[var(set)]
    max_engine_force: f32,
    /// The engine's peak torque, N·m (read when the vehicle is made).
    #[export]
    #[var]
    engine_torque: f32,
    /// The steering wheels' angle, radians (positive: left), within ±`max_steer_angle`.
    #[export]
    #[var(set)]
    steering: f32,
    /// The steering wheels' largest angle, radians (read when the vehicle is made).
    #[export]
    #[var]
    max_steer_angle: f32,
    /// Braking, within [0, 1]: the fraction of each wheel's `brake` torque.
    #[export]
    #[var(set)]
    brake: f32,
    /// The handbrake, within [0, 1]: the fraction of each wheel's `handbrake` torque.
    #[export]
    #[var(set)]
    handbrake: f32,
    id: Option<VehicleId>,
    space: Rid,
    base: Base<RigidBody3D>,
}

#[godot_api]
impl IRigidBody3D for Maul3DVehicleBody3D {
    fn init(base: Base<RigidBody3D>) -> Self {
        Self {
            engine_force: 0.0,
            max_engine_force: 1000.0,
            engine_torque: 500.0,
            steering: 0.0,
            max_steer_angle: 0.6,
            brake: 0.0,
            handbrake: 0.0,
            id: None,
            space: Rid::Invalid,
            base,
        }
    }

    // Notifications, not the virtuals: a script extending the node overrides those.
    fn on_notification(&mut self, what: Node3DNotification) {
        match what {
            Node3DNotification::READY => {
                self.base_mut().set_physics_process_internal(true);
                self.update();
            }
            Node3DNotification::EXIT_TREE => {
                if let Some(id) = self.id.take() {
                    let (space, owner) = (self.space.to_u64(), self.owner());
                    let _ = with_state_mut(|st| {
                        st.vehicle_destroy(space, owner, id);
                        Ok(())
                    });
                }
            }
            Node3DNotification::ENTER_TREE if self.base().is_node_ready() => self.update(),
            Node3DNotification::INTERNAL_PHYSICS_PROCESS => self.update(),
            _ => {}
        }
    }
}

#[godot_api]
impl Maul3DVehicleBody3D {
    /// The chassis' speed along its forward axis (+Z), m/s (negative backwards).
    #[func]
    pub fn get_forward_speed(&self) -> f32 {
        self.read(|w, id| w.vehicle_forward_speed(id).ok())
            .unwrap_or(0.0)
    }

    /// The engine's speed, rpm.
    #[func]
    pub fn get_engine_rpm(&self) -> f32 {
        self.read(|w, id| w.vehicle_engine_rpm(id).ok())
            .unwrap_or(0.0)
    }

    /// The gear: -1 reverse, 0 neutral, 1 and up forward.
    #[func]
    pub fn get_gear(&self) -> i32 {
        self.read(|w, id| w.vehicle_gear(id).ok()).unwrap_or(0)
    }

    /// Whether Maul3D holds the node's vehicle now.
    #[func]
    pub fn has_vehicle(&self) -> bool {
        self.id.is_some()
    }

    /// Sets `engine_force` (the throttle goes to Maul3D now).
    #[func]
    pub fn set_engine_force(&mut self, force: f32) {
        self.engine_force = force;
        self.push_input();
    }

    /// Sets `max_engine_force` (positive).
    #[func]
    pub fn set_max_engine_force(&mut self, force: f32) {
        if force > 0.0 && force.is_finite() {
            self.max_engine_force = force;
            self.push_input();
        } else {
            godot_error!("Maul3DVehicleBody3D.max_engine_force: {force} is not positive");
        }
    }

    /// Sets `steering` (goes to Maul3D now).
    #[func]
    pub fn set_steering(&mut self, angle: f32) {
        self.steering = angle;
        self.push_input();
    }

    /// Sets `brake` (goes to Maul3D now).
    #[func]
    pub fn set_brake(&mut self, brake: f32) {
        self.brake = brake;
        self.push_input();
    }

    /// Sets `handbrake` (goes to Maul3D now).
    #[func]
    pub fn set_handbrake(&mut self, handbrake: f32) {
        self.handbrake = handbrake;
        self.push_input();
    }
}

impl Maul3DVehicleBody3D {
    fn owner(&self) -> u64 {
        self.base().instance_id().to_i64() as u64
    }

    fn wheels(&self) -> Vec<Gd<Maul3DVehicleWheel3D>> {
        self.base()
            .get_children()
            .iter_shared()
            .filter_map(|c| c.try_cast::<Maul3DVehicleWheel3D>().ok())
            .take(maul3d::MAX_WHEELS)
            .collect()
    }

    fn vehicle_input(&self) -> VehicleInput {
        let clamp = |v: f32, lo: f32| {
            if v.is_finite() {
                maul3d::math::clamp(v, lo, 1.0)
            } else {
                0.0
            }
        };
        let steer = if self.max_steer_angle > 0.0 {
            self.steering / self.max_steer_angle
        } else {
            0.0
        };
        VehicleInput {
            throttle: clamp(self.engine_force / self.max_engine_force, -1.0),
            steering: clamp(steer, -1.0),
            brake: clamp(self.brake, 0.0),
            handbrake: clamp(self.handbrake, 0.0),
        }
    }

    fn def(&self) -> VehicleDef {
        let mass = self.base().get_mass();
        let mut def = VehicleDef::default();
        def.engine.max_torque = self.engine_torque;
        for mut wheel in self.wheels() {
            let rest = wheel.get_transform();
            let mut w = wheel.bind_mut();
            let rest = *w.rest.get_or_insert(rest);
            def.add_wheel(w.def(rest, mass, self.max_steer_angle));
        }
        def
    }

    /// Makes the vehicle when it is missing or its chassis body was remade, gives it the
    /// input, and puts the wheel nodes where its wheels are.
    fn update(&mut self) {
        let Some(world) = self.base().get_world_3d() else {
            return;
        };
        self.space = world.get_space();
        let rid = self.base().get_rid().to_u64();
        let (space, owner, have) = (self.space.to_u64(), self.owner(), self.id);
        // The def is made only when needed, but it reads nodes: make it first when the
        // vehicle is missing (cheap otherwise).
        let def = if self.id.is_none() || !self.valid(have, rid) {
            Some(self.def())
        } else {
            None
        };
        let r = with_state_mut(|st| {
            st.vehicle_ensure(space, owner, rid, have, |_: &World, _: BodyId| {
                def.unwrap_or_default()
            })
        });
        match r {
            Ok(id) => self.id = Some(id),
            Err(e) => {
                if self.id.take().is_some() || have.is_none() {
                    godot_error!("Maul3DVehicleBody3D: {e}");
                }
                return;
            }
        }
        self.push_input();
        self.place_wheels();
    }

    /// Whether `have` is this node's vehicle on Godot body `rid`'s core body now.
    fn valid(&self, have: Option<VehicleId>, rid: u64) -> bool {
        let (Some(id), space, owner) = (have, self.space.to_u64(), self.owner()) else {
            return false;
        };
        with_state(|st| {
            let Some((_, chassis)) = st.core_body(rid) else {
                return Ok(false);
            };
            let (w, ex) = st.extras(space)?;
            Ok(ex.vehicles.get(&id) == Some(&owner)
                && w.vehicle_def(id).is_ok_and(|d| d.chassis == chassis))
        })
        .unwrap_or(false)
    }

    fn push_input(&mut self) {
        let Some(id) = self.id else { return };
        let (space, owner, input) = (self.space.to_u64(), self.owner(), self.vehicle_input());
        let r = with_state_mut(|st| {
            let w = st.vehicle_world(space, owner, id)?;
            if w.vehicle_input(id).is_ok_and(|i| i == input) {
                return Ok(());
            }
            w.set_vehicle_input(id, input).map_err(|e| e.to_string())
        });
        report("Maul3DVehicleBody3D (input)", r);
    }

    fn place_wheels(&mut self) {
        let Some(id) = self.id else { return };
        let space = self.space.to_u64();
        let wheels = self.wheels();
        let states: Vec<(f32, f32, f32, f32, bool)> = with_state(|st| {
            let (w, _) = st.extras(space)?;
            Ok((0..wheels.len() as u32)
                .map(|i| {
                    (
                        w.wheel_suspension_length(id, i).unwrap_or(0.0),
                        w.wheel_steer_angle(id, i).unwrap_or(0.0),
                        w.wheel_rotation_angle(id, i).unwrap_or(0.0),
                        w.wheel_angular_velocity(id, i).unwrap_or(0.0),
                        w.wheel_contact(id, i).is_ok_and(|c| c.in_contact),
                    )
                })
                .collect())
        })
        .unwrap_or_default();
        for (mut wheel, (length, steer, roll, spin, contact)) in wheels.into_iter().zip(states) {
            let t = {
                let mut w = wheel.bind_mut();
                w.length = length;
                w.spin = spin;
                w.contact = contact;
                let Some(rest) = w.rest else { continue };
                let up = rest.basis.col_b().normalized();
                let basis = Basis::from_axis_angle(up, steer)
                    * rest.basis
                    * Basis::from_axis_angle(Vector3::RIGHT, roll);
                Transform3D::new(basis, rest.origin - up * length)
            };
            wheel.set_transform(t);
        }
    }

    fn read<R>(&self, f: impl FnOnce(&World, VehicleId) -> Option<R>) -> Option<R> {
        let id = self.id?;
        let space = self.space.to_u64();
        with_state(|st| Ok(f(st.extras(space)?.0, id)))
            .ok()
            .flatten()
    }
}
