//! A scene built into Maul3D through its public API, as a game would call it.
//!
//! Behind the `maul3d-side` feature until the World API lands in `core`.

use crate::Engine;
use crate::scenes::{
    BodyDesc, BodyKind, Characters, Geometry, JointDesc, JointShape, Rain, Scene, VehicleDesc,
};
use maul3d::math::{DVec3, Quat, Transform, Vec3};
use maul3d::{
    BodyDef, BodyId, BodyType, ConeTwistJoint, Filter, HullId, JointDef, JointKind, MeshId,
    RevoluteJoint, ShapeDef, World, WorldDef,
};

/// A body to put back at its start: id, position, linear and angular velocity.
type Start = (BodyId, DVec3, Vec3, Vec3);

/// A Maul3D world holding one scene.
pub struct Maul3dEngine {
    world: World,
    dt: f32,
    substeps: u32,
    /// Ids in creation order, so the checksum sums in a fixed order.
    bodies: Vec<BodyId>,
    /// The rain's groups (one a cell, row by row: its bones once made) and how many
    /// spawns there were.
    rain: Option<(Rain, Vec<Vec<BodyId>>, usize)>,
    hulls: Vec<HullId>,
    meshes: Vec<MeshId>,
    height_fields: Vec<MeshId>,
    /// Every this many steps, these bodies go back to their start (pose, velocities).
    relaunch: Option<(usize, Vec<Start>)>,
    steps: usize,
    /// Untimed steps before the timed ones: not profiled either.
    warmup: usize,
    /// Sum of every step's profile (all steps but the first), and how many.
    profile: maul3d::Profile,
    profiled_steps: u32,
    /// Time-of-impact queries and iterations over the profiled steps.
    toi: (u64, u64),
    /// Contacts recycled and contacts visited, summed over the profiled steps.
    recycled: (u64, u64),
    /// Pairs and contacts the world dropped at its capacities over every step: a scene
    /// that drops any runs short of contacts, so its time is not a fair figure.
    dropped: (u64, u64),
    /// The scene's vehicles and their chassis.
    vehicles: Vec<(maul3d::VehicleId, BodyId)>,
    /// The scene's characters, each with its vertical speed, and how they move.
    characters: Option<(Characters, Vec<(maul3d::CharacterId, f32)>)>,
    gravity: f32,
}

/// A scene vehicle in Maul3D's terms: the scene's constant drive force per driven wheel
/// becomes a flat engine torque in a fixed first gear of ratio 1 (wheel torque = force ×
/// radius), the steering angle the steered wheels' largest, reached at full input.
fn vehicle_def(chassis: BodyId, desc: &VehicleDesc) -> maul3d::VehicleDef {
    let mut def = maul3d::VehicleDef {
        chassis,
        up: desc.up,
        forward: desc.forward,
        ..Default::default()
    };
    let driven = desc.wheels.iter().filter(|w| w.driven).count().max(1) as f32;
    let radius = desc.wheels.first().map_or(0.4, |w| w.radius);
    def.engine = maul3d::EngineDef {
        max_torque: desc.engine_force * radius * driven,
        torque_curve: [1.0, 1.0, 1.0],
        ..Default::default()
    };
    def.transmission.automatic = false;
    def.transmission.gears[0] = 1.0;
    def.transmission.differential_ratio = 1.0;
    for w in &desc.wheels {
        def.add_wheel(maul3d::WheelDef {
            position: w.attach,
            suspension_direction: w.direction,
            min_length: w.rest_length - w.max_travel,
            max_length: w.rest_length + w.max_travel,
            rest_length: w.rest_length,
            spring: maul3d::SuspensionSpring::Stiffness {
                stiffness: w.stiffness,
                damping: 0.5 * (w.damping_compression + w.damping_relaxation),
            },
            radius: w.radius,
            max_steer_angle: if w.steered { desc.steering.abs() } else { 0.0 },
            driven: w.driven,
            ..Default::default()
        });
    }
    def
}

/// Converts a count into whatever integer type the world def uses for capacities.
fn capacity<T: TryFrom<usize>>(n: usize, what: &str) -> T {
    T::try_from(n).unwrap_or_else(|_| panic!("{what} {n} does not fit the world def"))
}

/// The rotation taking unit vector `from` to unit vector `to` (not opposite).
fn rotation_between(from: Vec3, to: Vec3) -> Quat {
    let c = from.cross(to);
    Quat::new(c.x, c.y, c.z, 1.0 + from.dot(to)).normalize()
}

/// Creates a body and its shapes at `origin + desc.position`.
fn create_body(
    world: &mut World,
    (hulls, meshes, height_fields): (&[HullId], &[MeshId], &[MeshId]),
    desc: &BodyDesc,
    origin: DVec3,
) -> BodyId {
    let body_type = match desc.kind {
        BodyKind::Static => BodyType::Static,
        BodyKind::Kinematic => BodyType::Kinematic,
        BodyKind::Dynamic => BodyType::Dynamic,
    };
    let body = world
        .create_body(&BodyDef {
            body_type,
            position: origin + desc.position,
            rotation: desc.rotation,
            linear_damping: desc.linear_damping,
            ..Default::default()
        })
        .expect("body fits the world");
    for shape in &desc.shapes {
        let def = ShapeDef {
            density: shape.density,
            friction: shape.friction,
            filter: Filter {
                category_bits: shape.filter.category as u64,
                mask_bits: shape.filter.mask as u64,
                group_index: 0,
            },
            ..Default::default()
        };
        match shape.geometry {
            Geometry::Box { half } => world.create_box_shape(body, &def, half),
            Geometry::Hull { index } => world.create_hull_shape(body, &def, hulls[index]),
            Geometry::Mesh { index } => world.create_mesh_shape(body, &def, meshes[index]),
            Geometry::Voxels { index } => world.create_voxel_shape(body, &def, meshes[index]),
            Geometry::HeightField { index } => {
                world.create_mesh_shape(body, &def, height_fields[index])
            }
            Geometry::Sphere { radius } => world.create_sphere_shape(
                body,
                &def,
                &maul3d::Sphere {
                    center: Vec3::ZERO,
                    radius,
                },
            ),
            Geometry::Capsule { a, b, radius } => world.create_capsule_shape(
                body,
                &def,
                &maul3d::Capsule {
                    center1: a,
                    center2: b,
                    radius,
                },
            ),
        }
        .expect("shape fits the world");
    }
    if desc.linear_velocity != Vec3::ZERO || desc.angular_velocity != Vec3::ZERO {
        world
            .set_body_velocity(body, desc.linear_velocity, desc.angular_velocity)
            .expect("velocity is valid");
    }
    body
}

/// Creates a joint between bodies at rest with identity rotations, its frame at
/// `origin + desc.anchor`.
fn create_joint(world: &mut World, a: BodyId, b: BodyId, desc: &JointDesc, origin: DVec3) {
    let anchor = origin + desc.anchor;
    let (rotation, kind) = match desc.kind {
        JointShape::Spherical => (Quat::IDENTITY, JointKind::Spherical),
        JointShape::Cone { swing, twist } => (
            rotation_between(Vec3::X, desc.axis),
            JointKind::ConeTwist(ConeTwistJoint {
                swing_limit: swing,
                twist_lower: -twist,
                twist_upper: twist,
                max_friction_torque: desc.friction,
            }),
        ),
        JointShape::Hinge { lower, upper } => (
            rotation_between(Vec3::Z, desc.axis),
            JointKind::Revolute(RevoluteJoint {
                enable_limit: true,
                lower,
                upper,
                // Friction: a motor held at rest with the friction as its torque.
                enable_motor: desc.friction > 0.0,
                max_motor_torque: desc.friction,
                ..Default::default()
            }),
        ),
    };
    let frame = |body: BodyId| {
        let p = world.body_position(body).expect("body is alive");
        Transform::new((anchor - p).to_f32(), rotation)
    };
    let (local_frame_a, local_frame_b) = (frame(a), frame(b));
    world
        .create_joint(&JointDef {
            body_a: a,
            body_b: b,
            local_frame_a,
            local_frame_b,
            kind,
            ..Default::default()
        })
        .expect("joint fits the world");
}

impl Maul3dEngine {
    /// Every `relaunch` period (not before the first step), the bodies back at their start.
    fn relaunch(&mut self) {
        let Some((period, starts)) = &self.relaunch else {
            return;
        };
        if self.steps == 0 || !self.steps.is_multiple_of(*period) {
            return;
        }
        for &(b, p, v, w) in starts {
            self.world
                .set_body_transform(b, p, Quat::IDENTITY)
                .expect("body is alive");
            self.world
                .set_body_velocity(b, v, w)
                .expect("velocity is valid");
        }
    }

    /// The rain's calls before a step: at a spawn, a column's groups made (again).
    fn rain(&mut self) {
        let Some((rain, groups, spawned)) = self.rain.as_mut() else {
            return;
        };
        if !rain.spawns(self.steps) {
            return;
        }
        let (column, remake) = rain.column(*spawned);
        *spawned += 1;
        for row in 0..rain.cells {
            let group = &mut groups[row * rain.cells + column];
            if remake {
                // Destroying a body destroys its joints.
                for b in group.drain(..) {
                    self.world.destroy_body(b).expect("body is alive");
                }
            }
            for r in 0..rain.group_size {
                let origin = rain.origin(row, column, r);
                let bones: Vec<BodyId> = rain
                    .ragdoll
                    .bones
                    .iter()
                    .map(|b| {
                        let content = (&self.hulls[..], &self.meshes[..], &self.height_fields[..]);
                        create_body(&mut self.world, content, b, origin)
                    })
                    .collect();
                for j in &rain.ragdoll.joints {
                    create_joint(&mut self.world, bones[j.body_a], bones[j.body_b], j, origin);
                }
                group.extend(bones);
            }
        }
    }
}

impl Maul3dEngine {
    /// Every character's move before the step (the scene's rule: gravity gathers in the
    /// vertical speed until a move ends grounded).
    fn walk(&mut self) {
        let Some((desc, crowd)) = self.characters.as_mut() else {
            return;
        };
        let dt = self.dt;
        for (i, (id, vy)) in crowd.iter_mut().enumerate() {
            let v = desc.velocity(i, self.steps, dt);
            *vy += self.gravity * dt;
            self.world
                .move_character(*id, Vec3::new(v.x, *vy, v.z), dt)
                .expect("move succeeds");
            let ground = self.world.character_ground(*id).expect("live character");
            if ground.state == maul3d::GroundState::OnGround {
                *vy = 0.0;
            }
        }
    }
}

/// The task hooks worlds built from now on get (`None`: one thread).
static TASK_HOOKS: std::sync::Mutex<Option<maul3d::TaskHooks>> = std::sync::Mutex::new(None);

/// Sets the task hooks of the worlds [`Engine::build`] makes from now on (a
/// [`crate::pool::Pool`]'s, or `None` for one thread); the hooks' pool must outlive them.
pub fn set_task_hooks(hooks: Option<maul3d::TaskHooks>) {
    *TASK_HOOKS.lock().expect("hooks lock") = hooks;
}

/// The solver lanes worlds built from now on are forced to (`None`: as dispatched).
static SOLVER_LANES: std::sync::Mutex<Option<maul3d::SolverLanes>> = std::sync::Mutex::new(None);

/// Forces the contact solver's lanes of the worlds [`Engine::build`] makes from now on
/// (`--lanes`); returns the lanes they will solve in, or the world's refusal.
pub fn set_solver_lanes(lanes: maul3d::SolverLanes) -> Result<maul3d::SolverLanes, String> {
    let mut probe = World::new(&WorldDef::default()).map_err(|e| e.to_string())?;
    probe.set_solver_lanes(lanes).map_err(|e| e.to_string())?;
    *SOLVER_LANES.lock().expect("lanes lock") = Some(lanes);
    Ok(probe.solver_lanes())
}

impl Engine for Maul3dEngine {
    fn build(scene: &Scene) -> Self {
        // Each character has an inner body with its capsule.
        let crowd = scene.characters.as_ref().map_or(0, |c| c.characters.len());
        let rain_bodies = scene.rain.as_ref().map_or(0, |r| r.max_bodies()) + crowd;
        let shapes = scene.shape_count() + rain_bodies;
        // Fixed capacities: contacts count near misses too (fat bounds that overlap), and
        // the washer's tumbling pile passes 8 per shape (65,352 for its 8,041 shapes
        // dropped up to 40,000 pairs a step), so 16 per shape; the profile line says
        // when a run dropped any.
        let def = WorldDef {
            task_hooks: *TASK_HOOKS.lock().expect("hooks lock"),
            gravity: scene.gravity,
            enable_sleep: scene.enable_sleep,
            body_capacity: capacity(scene.bodies.len() + rain_bodies, "body count"),
            shape_capacity: capacity(shapes, "shape count"),
            // A body on a mesh touches a few triangles, each a contact of its own.
            contact_capacity: capacity(
                16 * shapes
                    + 1024
                    + if scene.meshes.is_empty()
                        && scene.voxels.is_empty()
                        && scene.height_fields.is_empty()
                    {
                        0
                    } else {
                        16 * shapes
                    },
                "contact capacity",
            ),
            mesh_capacity: capacity(
                (scene.meshes.len() + scene.voxels.len() + scene.height_fields.len()).max(1),
                "mesh count",
            ),
            content_capacity: scene
                .meshes
                .iter()
                .map(|m| {
                    maul3d::geometry::mesh::mesh_content_bytes(
                        m.vertices.len() as u64,
                        m.triangles.len() as u64,
                    )
                })
                .sum::<u64>()
                + scene.voxels.len() as u64
                    * maul3d::geometry::voxel::VoxelChunk::content_size_bytes() as u64
                + scene
                    .height_fields
                    .iter()
                    .map(|h| {
                        maul3d::geometry::height_field::height_field_content_bytes(
                            h.count_x, h.count_z, false,
                        )
                    })
                    .sum::<u64>(),
            pair_capacity: capacity(16 * shapes + 1024, "pair capacity"),
            hull_capacity: capacity(scene.hulls.len().max(1), "hull count"),
            joint_capacity: capacity(
                (scene.joints.len() + scene.rain.as_ref().map_or(0, |r| r.max_joints())).max(1),
                "joint count",
            ),
            vehicle_capacity: capacity(scene.vehicles.len(), "vehicle count"),
            character_capacity: capacity(crowd, "character count"),
            ..Default::default()
        };
        let mut world = World::new(&def).expect("world def is valid");
        if let Some(lanes) = *SOLVER_LANES.lock().expect("lanes lock") {
            world
                .set_solver_lanes(lanes)
                .expect("checked by set_solver_lanes");
        }

        let hulls: Vec<_> = scene
            .hulls
            .iter()
            .map(|points| world.create_hull(points).expect("scene hull is valid"))
            .collect();

        let mut meshes: Vec<MeshId> = scene
            .meshes
            .iter()
            .map(|m| {
                world
                    .create_mesh(&m.vertices, &m.triangles)
                    .expect("scene mesh is valid")
            })
            .collect();
        // Voxel chunks after the meshes: the scene's content indices.
        for v in &scene.voxels {
            meshes.push(
                world
                    .create_voxel_grid(&maul3d::VoxelGridDef {
                        voxel_size: v.size,
                        data: &v.data,
                        origin: v.origin,
                    })
                    .expect("scene voxel chunk is valid"),
            );
        }
        let height_fields: Vec<MeshId> = scene
            .height_fields
            .iter()
            .map(|h| {
                world
                    .create_height_field(&maul3d::HeightFieldDef {
                        count_x: h.count_x,
                        count_z: h.count_z,
                        heights: &h.heights,
                        holes: &[],
                        scale: Vec3::new(h.cell, h.height_scale, h.cell),
                    })
                    .expect("scene height field is valid")
            })
            .collect();
        let content = (&hulls[..], &meshes[..], &height_fields[..]);
        let bodies: Vec<BodyId> = scene
            .bodies
            .iter()
            .map(|desc| create_body(&mut world, content, desc, DVec3::ZERO))
            .collect();
        let relaunch = scene.relaunch.map(|period| {
            let dynamic = scene.bodies.iter().zip(&bodies);
            let starts = dynamic
                .filter(|(d, _)| d.kind == BodyKind::Dynamic)
                .map(|(d, &b)| (b, d.position, d.linear_velocity, d.angular_velocity))
                .collect();
            (period, starts)
        });
        for j in &scene.joints {
            create_joint(
                &mut world,
                bodies[j.body_a],
                bodies[j.body_b],
                j,
                DVec3::ZERO,
            );
        }
        let vehicles = scene
            .vehicles
            .iter()
            .map(|v| {
                let chassis = bodies[v.chassis];
                let id = world
                    .create_vehicle(&vehicle_def(chassis, v))
                    .expect("scene vehicle is valid");
                world.set_vehicle_gear(id, 1).expect("first gear");
                let input = maul3d::VehicleInput {
                    throttle: 1.0,
                    steering: if v.steering < 0.0 { -1.0 } else { 1.0 },
                    ..Default::default()
                };
                world.set_vehicle_input(id, input).expect("input");
                (id, chassis)
            })
            .collect();
        let characters = scene.characters.as_ref().map(|c| {
            let s = &c.settings;
            let ids = c
                .characters
                .iter()
                .map(|ch| {
                    let def = maul3d::CharacterDef {
                        position: ch.position,
                        radius: s.radius,
                        half_height: s.half_height,
                        settings: maul3d::CharacterSettings {
                            max_slope_angle: s.max_slope,
                            step_height: s.max_step_height,
                            skin: s.skin,
                            snap_to_ground: s.snap_to_ground,
                            max_strength: 0.0,
                            ..Default::default()
                        },
                        ..Default::default()
                    };
                    let id = world
                        .create_character(&def)
                        .expect("scene character is valid");
                    (id, 0.0)
                })
                .collect();
            (c.clone(), ids)
        });

        Maul3dEngine {
            world,
            vehicles,
            characters,
            gravity: scene.gravity.y,
            dt: scene.dt,
            substeps: scene.substeps,
            bodies,
            rain: scene
                .rain
                .clone()
                .map(|r| (r.clone(), vec![Vec::new(); r.group_count()], 0)),
            hulls,
            meshes,
            height_fields,
            relaunch,
            steps: 0,
            warmup: scene.warmup,
            profile: maul3d::Profile::default(),
            profiled_steps: 0,
            toi: (0, 0),
            recycled: (0, 0),
            dropped: (0, 0),
        }
    }

    fn step(&mut self) {
        self.rain();
        self.relaunch();
        self.walk();
        self.steps += 1;
        self.world
            .step(self.dt, self.substeps)
            .expect("step succeeds");
        let c = self.world.counters();
        self.dropped.0 += c.dropped_pairs as u64;
        self.dropped.1 += c.dropped_contacts as u64;
        if self.world.step_count() > 1 + self.warmup as u64 {
            let p = self.world.profile();
            let s = &mut self.profile;
            s.step += p.step;
            s.pairs += p.pairs;
            s.collide += p.collide;
            s.prepare += p.prepare;
            s.solve += p.solve;
            s.restitution += p.restitution;
            s.finalize += p.finalize;
            s.sleep += p.sleep;
            s.sensors += p.sensors;
            s.soft += p.soft;
            self.profiled_steps += 1;
            let c = self.world.counters();
            self.toi.0 += c.toi_queries as u64;
            self.toi.1 += c.toi_iterations as u64;
            self.recycled.0 += c.recycled_contacts as u64;
            self.recycled.1 += c.contacts_visited as u64;
        }
    }

    fn profile_summary(&self) -> Option<String> {
        let n = self.profiled_steps.max(1) as f64;
        let p = &self.profile;
        let c = self.world.counters();
        Some(format!(
            "step {:.2} = pairs {:.2} + collide {:.2} + prepare {:.2} + solve {:.2} + restitution {:.2} + finalize {:.2} + sleep {:.2} + events {:.2} + other {:.2} ms; awake {} contacts {} touching {} colours {} overflow {}; recycled {:.0} of {:.0} contacts a step; time of impact per step: {:.0} queries, {:.0} iterations{}",
            p.step / n,
            p.pairs / n,
            p.collide / n,
            p.prepare / n,
            p.solve / n,
            p.restitution / n,
            p.finalize / n,
            p.sleep / n,
            (p.sensors + p.soft) / n,
            (p.step
                - (p.pairs
                    + p.collide
                    + p.prepare
                    + p.solve
                    + p.restitution
                    + p.finalize
                    + p.sleep
                    + p.sensors
                    + p.soft))
                / n,
            c.awake_body_count,
            c.contact_count,
            c.touching_contact_count,
            c.color_count,
            c.overflow_constraints,
            self.recycled.0 as f64 / n,
            self.recycled.1 as f64 / n,
            self.toi.0 as f64 / n,
            self.toi.1 as f64 / n,
            if self.dropped == (0, 0) {
                String::new()
            } else {
                format!(
                    "; CAPACITY SHORT: dropped {} pairs and {} contacts over the run",
                    self.dropped.0, self.dropped.1
                )
            }
        ))
    }

    fn body_count(&self) -> usize {
        self.world.body_count() as usize
    }

    fn report(&self) -> Option<String> {
        if !self.vehicles.is_empty() {
            let n = self.vehicles.len();
            let speeds = || {
                (self.vehicles.iter())
                    .map(|&(_, b)| self.world.body_linear_velocity(b).unwrap().length())
            };
            let mean = speeds().map(|v| v as f64).sum::<f64>() / n as f64;
            let slowest = speeds().fold(f32::INFINITY, maul3d::math::min);
            let stopped = speeds().filter(|&v| v < 1.0).count();
            let upright = (self.vehicles.iter())
                .filter(|&&(_, b)| {
                    let q = self.world.body_rotation(b).unwrap();
                    q.rotate(Vec3::Y).y > 0.5
                })
                .count();
            return Some(format!(
                "mean speed {mean:.2} m/s, slowest {slowest:.2} m/s, {stopped} under 1 m/s, {upright} of {n} upright"
            ));
        }
        let (desc, crowd) = self.characters.as_ref()?;
        let s = &desc.settings;
        let feet = || {
            crowd.iter().map(|&(c, _)| {
                self.world.character_position(c).unwrap().y as f32 - s.half_height - s.radius
            })
        };
        let lowest = feet().fold(f32::INFINITY, maul3d::math::min);
        let mean = feet().map(|y| y as f64).sum::<f64>() / crowd.len() as f64;
        let from_start = (desc.characters.iter().zip(crowd))
            .map(|(d, &(c, _))| {
                let p = self.world.character_position(c).unwrap();
                let (dx, dz) = (p.x - d.position.x, p.z - d.position.z);
                (dx * dx + dz * dz).sqrt()
            })
            .sum::<f64>()
            / crowd.len() as f64;
        Some(format!(
            "lowest feet {lowest:.3} m, mean feet {mean:.3} m, mean distance from start {from_start:.2} m"
        ))
    }

    fn checksum(&self) -> f64 {
        let rain = self
            .rain
            .iter()
            .flat_map(|(_, groups, _)| groups.iter().flatten());
        // Characters after the scene's bodies, as Rapier's side counts their bodies.
        let characters = self.characters.iter().flat_map(|(_, c)| c.iter());
        let inner = characters.map(|&(c, _)| self.world.character_body(c).expect("live"));
        self.bodies
            .iter()
            .copied()
            .chain(rain.copied())
            .chain(inner)
            .map(|b| self.world.body_position(b).expect("body is alive").y)
            .sum()
    }
}
