//! A scene built into Rapier 0.36 and stepped with its minimal loop.

use crate::Engine;
use crate::scenes::{BodyDesc, BodyKind, Characters, Geometry, JointDesc, JointShape, Rain, Scene};
use maul3d::math::DVec3;
use rapier3d::control::{
    CharacterAutostep, CharacterLength, DynamicRayCastVehicleController,
    KinematicCharacterController, WheelTuning,
};
use rapier3d::prelude::*;

/// A body to put back at its start: handle, position, linear and angular velocity.
type Start = (RigidBodyHandle, Vector, Vector, Vector);

/// Rapier's sets and pipeline for one scene.
pub struct RapierEngine {
    gravity: Vector,
    params: IntegrationParameters,
    pipeline: PhysicsPipeline,
    islands: IslandManager,
    broad_phase: DefaultBroadPhase,
    narrow_phase: NarrowPhase,
    bodies: RigidBodySet,
    colliders: ColliderSet,
    impulse_joints: ImpulseJointSet,
    multibody_joints: MultibodyJointSet,
    soft_bodies: SoftBodySet,
    ccd: CCDSolver,
    /// Handles in creation order, so the checksum sums in a fixed order.
    handles: Vec<RigidBodyHandle>,
    hulls: Vec<SharedShape>,
    meshes: Vec<SharedShape>,
    /// Height fields and where each sits in its body (parry's is centred on its origin).
    height_fields: Vec<(SharedShape, Vector)>,
    /// Every this many steps, these bodies go back to their start (pose, velocities).
    relaunch: Option<(usize, Vec<Start>)>,
    /// The rain's groups (one a cell, row by row: its bones once made) and how many
    /// spawns there were.
    rain: Option<(Rain, Vec<Vec<RigidBodyHandle>>, usize)>,
    /// The scene's vehicles, each updated before every step.
    vehicles: Vec<DynamicRayCastVehicleController>,
    /// The scene's characters and how they move, if any.
    characters: Option<CharacterCrowd>,
    steps: usize,
}

/// Characters moved by one controller before every step.
struct CharacterCrowd {
    desc: Characters,
    controller: KinematicCharacterController,
    shape: SharedShape,
    /// Each character's kinematic body (position-based) and vertical speed.
    bodies: Vec<(RigidBodyHandle, f32)>,
}

fn to_rapier(v: maul3d::math::Vec3) -> Vector {
    Vector::new(v.x, v.y, v.z)
}

/// The rotation taking unit vector `from` to unit vector `to` (not opposite).
fn rotation_between(from: Vector, to: Vector) -> Rotation {
    let c = from.cross(to);
    Rotation::from_xyzw(c.x, c.y, c.z, 1.0 + from.dot(to)).normalize()
}

fn to_vector(p: DVec3) -> Vector {
    Vector::new(p.x as f32, p.y as f32, p.z as f32)
}

/// Inserts a body and its colliders at `origin + desc.position`.
fn insert_body(
    bodies: &mut RigidBodySet,
    colliders: &mut ColliderSet,
    (hulls, meshes, height_fields): (&[SharedShape], &[SharedShape], &[(SharedShape, Vector)]),
    desc: &BodyDesc,
    origin: DVec3,
    can_sleep: bool,
) -> RigidBodyHandle {
    let builder = match desc.kind {
        BodyKind::Static => RigidBodyBuilder::fixed(),
        BodyKind::Kinematic => RigidBodyBuilder::kinematic_velocity_based(),
        BodyKind::Dynamic => RigidBodyBuilder::dynamic(),
    };
    let r = desc.rotation;
    let pose = Pose::from_parts(
        to_vector(origin + desc.position),
        Rotation::from_xyzw(r.x, r.y, r.z, r.w),
    );
    let body = builder
        .pose(pose)
        .linear_damping(desc.linear_damping)
        .linvel(to_rapier(desc.linear_velocity))
        .angvel(to_rapier(desc.angular_velocity))
        .can_sleep(can_sleep)
        .build();
    let handle = bodies.insert(body);
    for shape in &desc.shapes {
        let mut offset = Vector::ZERO;
        let geometry = match shape.geometry {
            Geometry::Box { half } => SharedShape::cuboid(half.x, half.y, half.z),
            Geometry::Hull { index } => hulls[index].clone(),
            Geometry::Mesh { index } | Geometry::Voxels { index } => meshes[index].clone(),
            Geometry::HeightField { index } => {
                offset = height_fields[index].1;
                height_fields[index].0.clone()
            }
            Geometry::Sphere { radius } => SharedShape::ball(radius),
            Geometry::Capsule { a, b, radius } => {
                SharedShape::capsule(to_rapier(a), to_rapier(b), radius)
            }
        };
        let groups = InteractionGroups::new(
            Group::from_bits_truncate(shape.filter.category),
            Group::from_bits_truncate(shape.filter.mask),
            InteractionTestMode::And,
        );
        let collider = ColliderBuilder::new(geometry)
            .translation(offset)
            .density(shape.density)
            .friction(shape.friction)
            .collision_groups(groups)
            .build();
        colliders.insert_with_parent(collider, handle, bodies);
    }
    handle
}

/// The velocity motors' gain that makes them joint friction (stiff up to the friction).
const FRICTION_FACTOR: f32 = 1.0e4;

/// Inserts a joint between two bodies at rest with identity rotations (contacts between
/// them off, as Maul3D's `collide_connected` false).
fn insert_joint(
    bodies: &RigidBodySet,
    joints: &mut ImpulseJointSet,
    a: RigidBodyHandle,
    b: RigidBodyHandle,
    desc: &JointDesc,
    origin: DVec3,
) {
    let anchor = to_vector(origin + desc.anchor);
    let (pa, pb) = (bodies[a].translation(), bodies[b].translation());
    let axis = to_rapier(desc.axis);
    let joint: GenericJoint = match desc.kind {
        JointShape::Spherical => SphericalJointBuilder::new()
            .local_anchor1(anchor - pa)
            .local_anchor2(anchor - pb)
            .contacts_enabled(false)
            .build()
            .into(),
        JointShape::Cone { swing, twist } => {
            // Twist about the frame's x axis, swing limited about y and z.
            let q = rotation_between(Vector::X, axis);
            let mut b = SphericalJointBuilder::new()
                .local_frame1(Pose::from_parts(anchor - pa, q))
                .local_frame2(Pose::from_parts(anchor - pb, q))
                .limits(JointAxis::AngX, [-twist, twist])
                .limits(JointAxis::AngY, [-swing, swing])
                .limits(JointAxis::AngZ, [-swing, swing])
                .contacts_enabled(false);
            if desc.friction > 0.0 {
                // Friction: each axis's motor held at rest, its force the friction.
                for a in [JointAxis::AngX, JointAxis::AngY, JointAxis::AngZ] {
                    b = b
                        .motor_velocity(a, 0.0, FRICTION_FACTOR)
                        .motor_max_force(a, desc.friction);
                }
            }
            b.build().into()
        }
        JointShape::Hinge { lower, upper } => {
            let mut b = RevoluteJointBuilder::new(axis)
                .local_anchor1(anchor - pa)
                .local_anchor2(anchor - pb)
                .limits([lower, upper])
                .contacts_enabled(false);
            if desc.friction > 0.0 {
                b = b
                    .motor_velocity(0.0, FRICTION_FACTOR)
                    .motor_max_force(desc.friction);
            }
            b.build().into()
        }
    };
    joints.insert(a, b, joint, true);
}

/// A vehicle controller for `desc`, its wheels tuned as described (Rapier's spring and
/// damper coefficients are per kg of chassis, its `friction_slip` the tyre friction).
fn vehicle(
    bodies: &RigidBodySet,
    chassis: RigidBodyHandle,
    desc: &crate::scenes::VehicleDesc,
) -> DynamicRayCastVehicleController {
    let mass = bodies[chassis].mass();
    let mut vehicle = DynamicRayCastVehicleController::new(chassis);
    let axis = |v: maul3d::math::Vec3| {
        [v.x, v.y, v.z]
            .iter()
            .position(|c| c.abs() > 0.5)
            .expect("a chassis axis is a coordinate axis")
    };
    vehicle.index_forward_axis = axis(desc.forward);
    vehicle.index_up_axis = axis(desc.up);
    for w in &desc.wheels {
        let tuning = WheelTuning {
            suspension_stiffness: w.stiffness / mass,
            suspension_compression: w.damping_compression / mass,
            suspension_damping: w.damping_relaxation / mass,
            max_suspension_travel: w.max_travel,
            side_friction_stiffness: 1.0,
            friction_slip: w.friction,
            max_suspension_force: w.max_force,
        };
        let wheel = vehicle.add_wheel(
            to_rapier(w.attach),
            to_rapier(w.direction),
            to_rapier(w.axle),
            w.rest_length,
            w.radius,
            &tuning,
        );
        wheel.steering = if w.steered { desc.steering } else { 0.0 };
        wheel.engine_force = if w.driven { desc.engine_force } else { 0.0 };
    }
    vehicle
}

impl RapierEngine {
    /// Every vehicle's suspension, tyre and engine impulses before the step, each ray
    /// ignoring its own chassis.
    fn drive(&mut self) {
        let dt = self.params.dt;
        for vehicle in &mut self.vehicles {
            let queries = self.broad_phase.as_query_pipeline_mut(
                self.narrow_phase.query_dispatcher(),
                &mut self.bodies,
                &mut self.colliders,
                QueryFilter::default().exclude_rigid_body(vehicle.chassis),
            );
            vehicle.update_vehicle(dt, queries);
        }
    }

    /// Every character's move before the step, against the world as it stands.
    fn walk(&mut self) {
        let Some(crowd) = self.characters.as_mut() else {
            return;
        };
        let dt = self.params.dt;
        let g = self.gravity.y;
        for (i, (handle, vy)) in crowd.bodies.iter_mut().enumerate() {
            let v = crowd.desc.velocity(i, self.steps, dt);
            *vy += g * dt;
            let pose = *self.bodies[*handle].position();
            let queries = self.broad_phase.as_query_pipeline(
                self.narrow_phase.query_dispatcher(),
                &self.bodies,
                &self.colliders,
                QueryFilter::default().exclude_rigid_body(*handle),
            );
            let moved = crowd.controller.move_shape(
                dt,
                &queries,
                &*crowd.shape,
                &pose,
                Vector::new(v.x, *vy, v.z) * dt,
                |_| {},
            );
            if moved.grounded {
                *vy = 0.0;
            }
            self.bodies[*handle]
                .set_next_kinematic_translation(pose.translation + moved.translation);
        }
    }

    /// Every `relaunch` period (not before the first step), the bodies back at their start.
    fn relaunch(&mut self) {
        let Some((period, starts)) = &self.relaunch else {
            return;
        };
        if self.steps == 0 || !self.steps.is_multiple_of(*period) {
            return;
        }
        for &(h, p, v, w) in starts {
            let body = &mut self.bodies[h];
            body.set_translation(p, true);
            body.set_rotation(Rotation::IDENTITY, true);
            body.set_linvel(v, true);
            body.set_angvel(w, true);
        }
    }

    /// The rain's calls before a step (as the Maul3D side's).
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
                for h in group.drain(..) {
                    self.bodies.remove(
                        h,
                        &mut self.islands,
                        &mut self.colliders,
                        &mut self.impulse_joints,
                        &mut self.multibody_joints,
                        &mut self.soft_bodies,
                        true,
                    );
                }
            }
            for r in 0..rain.group_size {
                let origin = rain.origin(row, column, r);
                let bones: Vec<RigidBodyHandle> = rain
                    .ragdoll
                    .bones
                    .iter()
                    .map(|b| {
                        insert_body(
                            &mut self.bodies,
                            &mut self.colliders,
                            (&self.hulls, &self.meshes, &self.height_fields),
                            b,
                            origin,
                            true,
                        )
                    })
                    .collect();
                for j in &rain.ragdoll.joints {
                    let (a, b) = (bones[j.body_a], bones[j.body_b]);
                    insert_joint(&self.bodies, &mut self.impulse_joints, a, b, j, origin);
                }
                group.extend(bones);
            }
        }
    }
}

impl Engine for RapierEngine {
    fn build(scene: &Scene) -> Self {
        let params = IntegrationParameters {
            dt: scene.dt,
            // Rapier's solver iterations are substeps (each integrates dt / n and runs one
            // PGS and one stabilisation pass), so 4 iterations match Box3D's 4 substeps.
            num_solver_iterations: scene.substeps as usize,
            ..IntegrationParameters::default()
        };

        // Convex hulls are computed once and shared (Arc) by every collider naming them.
        let hulls: Vec<SharedShape> = scene
            .hulls
            .iter()
            .map(|points| {
                let points: Vec<Vector> = points.iter().map(|&p| to_rapier(p)).collect();
                SharedShape::convex_hull(&points).expect("scene hull points are not degenerate")
            })
            .collect();

        // Triangle meshes with Rapier's internal-edge fix (its smooth contacts across
        // internal edges, as Maul3D's active edges).
        let meshes: Vec<SharedShape> = scene
            .meshes
            .iter()
            .map(|m| {
                let vertices: Vec<Vector> = m.vertices.iter().map(|&p| to_rapier(p)).collect();
                SharedShape::trimesh_with_flags(
                    vertices,
                    m.triangles.clone(),
                    TriMeshFlags::FIX_INTERNAL_EDGES,
                )
                .expect("scene mesh is valid")
            })
            .chain(scene.voxels.iter().map(|v| {
                // Parry's voxel `k` spans [k, k + 1)·size, as Maul3D's: the chunk's solid
                // voxels on the global grid, one collider per chunk like Maul3D's shapes.
                let base = [
                    (v.origin.x / v.size) as i32,
                    (v.origin.y / v.size) as i32,
                    (v.origin.z / v.size) as i32,
                ];
                let keys: Vec<IVector> = (0..4096usize)
                    .filter(|&i| v.data[i] != 0)
                    .map(|i| {
                        IVector::new(
                            base[0] + (i % 16) as i32,
                            base[1] + ((i / 16) % 16) as i32,
                            base[2] + (i / 256) as i32,
                        )
                    })
                    .collect();
                SharedShape::voxels(Vector::splat(v.size), &keys)
            }))
            .collect();
        // Parry's height field spans its scale centred on its origin, rows along z and
        // columns along x (column-major): shifted by half its size, its sample (0, 0) sits
        // at the body origin as Maul3D's. (Parry splits each cell along the other
        // diagonal; the swell is gentle enough for that not to matter.)
        let height_fields: Vec<(SharedShape, Vector)> = scene
            .height_fields
            .iter()
            .map(|h| {
                let (nx, nz) = (h.count_x as usize, h.count_z as usize);
                let mut data = vec![0.0; nx * nz];
                for z in 0..nz {
                    for x in 0..nx {
                        data[z + x * nz] = h.heights[z * nx + x];
                    }
                }
                let size = Vector::new(
                    (nx - 1) as f32 * h.cell,
                    h.height_scale,
                    (nz - 1) as f32 * h.cell,
                );
                let shape = SharedShape::heightfield(
                    rapier3d::parry::utils::Array2::new(nz, nx, data),
                    size,
                );
                (shape, Vector::new(0.5 * size.x, 0.0, 0.5 * size.z))
            })
            .collect();
        let mut bodies = RigidBodySet::new();
        let mut colliders = ColliderSet::new();
        let handles: Vec<RigidBodyHandle> = scene
            .bodies
            .iter()
            .map(|desc| {
                let handle = insert_body(
                    &mut bodies,
                    &mut colliders,
                    (&hulls, &meshes, &height_fields),
                    desc,
                    DVec3::ZERO,
                    scene.enable_sleep,
                );
                if scene.rapier_ccd && desc.kind == BodyKind::Dynamic {
                    bodies[handle].enable_ccd(true);
                }
                handle
            })
            .collect();
        let vehicles = scene
            .vehicles
            .iter()
            .map(|v| vehicle(&bodies, handles[v.chassis], v))
            .collect();
        let mut handles = handles;
        let characters = scene.characters.as_ref().map(|c| {
            let s = &c.settings;
            let shape = SharedShape::capsule_y(s.half_height, s.radius);
            let crowd: Vec<(RigidBodyHandle, f32)> = c
                .characters
                .iter()
                .map(|ch| {
                    let body = RigidBodyBuilder::kinematic_position_based()
                        .translation(to_vector(ch.position))
                        .build();
                    let h = bodies.insert(body);
                    colliders.insert_with_parent(
                        ColliderBuilder::new(shape.clone()).build(),
                        h,
                        &mut bodies,
                    );
                    (h, 0.0)
                })
                .collect();
            handles.extend(crowd.iter().map(|&(h, _)| h));
            let controller = KinematicCharacterController {
                up: Vector::Y,
                offset: CharacterLength::Absolute(s.skin),
                slide: true,
                autostep: Some(CharacterAutostep {
                    max_height: CharacterLength::Absolute(s.max_step_height),
                    min_width: CharacterLength::Absolute(s.min_step_width),
                    include_dynamic_bodies: false,
                }),
                max_slope_climb_angle: s.max_slope,
                min_slope_slide_angle: s.max_slope,
                snap_to_ground: Some(CharacterLength::Absolute(s.snap_to_ground)),
                ..KinematicCharacterController::default()
            };
            CharacterCrowd {
                desc: c.clone(),
                controller,
                shape,
                bodies: crowd,
            }
        });
        let mut impulse_joints = ImpulseJointSet::new();
        for j in &scene.joints {
            let (a, b) = (handles[j.body_a], handles[j.body_b]);
            insert_joint(&bodies, &mut impulse_joints, a, b, j, DVec3::ZERO);
        }

        let relaunch: Option<(usize, Vec<Start>)> = scene.relaunch.map(|period| {
            let starts = scene
                .bodies
                .iter()
                .zip(&handles)
                .filter(|(d, _)| d.kind == BodyKind::Dynamic)
                .map(|(d, &h)| {
                    let p = to_vector(d.position);
                    (
                        h,
                        p,
                        to_rapier(d.linear_velocity),
                        to_rapier(d.angular_velocity),
                    )
                })
                .collect();
            (period, starts)
        });
        RapierEngine {
            gravity: to_rapier(scene.gravity),
            params,
            pipeline: PhysicsPipeline::new(),
            islands: IslandManager::new(),
            broad_phase: DefaultBroadPhase::new(),
            narrow_phase: NarrowPhase::new(),
            bodies,
            colliders,
            impulse_joints,
            multibody_joints: MultibodyJointSet::new(),
            soft_bodies: SoftBodySet::new(),
            ccd: CCDSolver::new(),
            handles,
            hulls,
            meshes,
            height_fields,
            relaunch,
            rain: scene
                .rain
                .clone()
                .map(|r| (r.clone(), vec![Vec::new(); r.group_count()], 0)),
            vehicles,
            characters,
            steps: 0,
        }
    }

    fn step(&mut self) {
        self.rain();
        self.relaunch();
        self.drive();
        self.walk();
        self.steps += 1;
        self.pipeline.step(
            self.gravity,
            &self.params,
            &mut self.islands,
            &mut self.broad_phase,
            &mut self.narrow_phase,
            &mut self.bodies,
            &mut self.colliders,
            &mut self.impulse_joints,
            &mut self.multibody_joints,
            &mut self.soft_bodies,
            &mut self.ccd,
            &(),
            &(),
        );
    }

    fn body_count(&self) -> usize {
        self.bodies.len()
    }

    fn report(&self) -> Option<String> {
        if !self.vehicles.is_empty() {
            let n = self.vehicles.len() as f64;
            let chassis = || self.vehicles.iter().map(|v| &self.bodies[v.chassis]);
            let speed: f64 = chassis().map(|b| b.linvel().length() as f64).sum::<f64>() / n;
            let slowest = chassis()
                .map(|b| b.linvel().length())
                .fold(f32::INFINITY, maul3d::math::min);
            let stopped = chassis().filter(|b| b.linvel().length() < 1.0).count();
            let upright = chassis()
                .filter(|b| (b.rotation() * Vector::Y).y > 0.5)
                .count();
            return Some(format!(
                "mean speed {speed:.2} m/s, slowest {slowest:.2} m/s, {stopped} under 1 m/s, {upright} of {n} upright"
            ));
        }
        let crowd = self.characters.as_ref()?;
        let s = &crowd.desc.settings;
        let feet = crowd
            .bodies
            .iter()
            .map(|&(h, _)| self.bodies[h].translation().y - s.half_height - s.radius);
        let lowest = feet.clone().fold(f32::INFINITY, maul3d::math::min);
        let mean = feet.map(|y| y as f64).sum::<f64>() / crowd.bodies.len() as f64;
        let start: f64 = crowd
            .desc
            .characters
            .iter()
            .zip(&crowd.bodies)
            .map(|(c, &(h, _))| {
                let p = self.bodies[h].translation();
                let (dx, dz) = (p.x as f64 - c.position.x, p.z as f64 - c.position.z);
                (dx * dx + dz * dz).sqrt()
            })
            .sum::<f64>()
            / crowd.bodies.len() as f64;
        Some(format!(
            "lowest feet {lowest:.3} m, mean feet {mean:.3} m, mean distance from start {start:.2} m"
        ))
    }

    fn checksum(&self) -> f64 {
        let rain = self
            .rain
            .iter()
            .flat_map(|(_, groups, _)| groups.iter().flatten());
        self.handles
            .iter()
            .chain(rain)
            .map(|&h| self.bodies[h].translation().y as f64)
            .sum()
    }
}
