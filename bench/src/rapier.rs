//! A scene built into Rapier 0.36 and stepped with its minimal loop.

use crate::Engine;
use crate::scenes::{BodyKind, Geometry, Scene};
use rapier3d::prelude::*;

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
}

fn to_rapier(v: maul3d::math::Vec3) -> Vector {
    Vector::new(v.x, v.y, v.z)
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

        let mut bodies = RigidBodySet::new();
        let mut colliders = ColliderSet::new();
        let mut handles = Vec::with_capacity(scene.bodies.len());
        for desc in &scene.bodies {
            let builder = match desc.kind {
                BodyKind::Static => RigidBodyBuilder::fixed(),
                BodyKind::Kinematic => RigidBodyBuilder::kinematic_velocity_based(),
                BodyKind::Dynamic => RigidBodyBuilder::dynamic(),
            };
            let p = desc.position;
            let body = builder
                .translation(Vector::new(p.x as f32, p.y as f32, p.z as f32))
                .linvel(to_rapier(desc.linear_velocity))
                .angvel(to_rapier(desc.angular_velocity))
                .can_sleep(scene.enable_sleep)
                .build();
            let handle = bodies.insert(body);
            for shape in &desc.shapes {
                let geometry = match shape.geometry {
                    Geometry::Box { half } => SharedShape::cuboid(half.x, half.y, half.z),
                    Geometry::Hull { index } => hulls[index].clone(),
                };
                let collider = ColliderBuilder::new(geometry)
                    .density(shape.density)
                    .friction(shape.friction)
                    .build();
                colliders.insert_with_parent(collider, handle, &mut bodies);
            }
            handles.push(handle);
        }

        RapierEngine {
            gravity: to_rapier(scene.gravity),
            params,
            pipeline: PhysicsPipeline::new(),
            islands: IslandManager::new(),
            broad_phase: DefaultBroadPhase::new(),
            narrow_phase: NarrowPhase::new(),
            bodies,
            colliders,
            impulse_joints: ImpulseJointSet::new(),
            multibody_joints: MultibodyJointSet::new(),
            soft_bodies: SoftBodySet::new(),
            ccd: CCDSolver::new(),
            handles,
        }
    }

    fn step(&mut self) {
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

    fn checksum(&self) -> f64 {
        self.handles
            .iter()
            .map(|&h| self.bodies[h].translation().y as f64)
            .sum()
    }
}
