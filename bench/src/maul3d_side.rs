//! A scene built into Maul3D through its public API, as a game would call it.
//!
//! Behind the `maul3d-side` feature until the World API lands in `core`.

use crate::Engine;
use crate::scenes::{BodyKind, Geometry, Scene};
use maul3d::math::Vec3;
use maul3d::{BodyDef, BodyId, BodyType, ShapeDef, World, WorldDef};

/// A Maul3D world holding one scene.
pub struct Maul3dEngine {
    world: World,
    dt: f32,
    substeps: u32,
    /// Ids in creation order, so the checksum sums in a fixed order.
    bodies: Vec<BodyId>,
    /// Sum of every step's profile (all steps but the first), and how many.
    profile: maul3d::Profile,
    profiled_steps: u32,
}

/// Converts a count into whatever integer type the world def uses for capacities.
fn capacity<T: TryFrom<usize>>(n: usize, what: &str) -> T {
    T::try_from(n).unwrap_or_else(|_| panic!("{what} {n} does not fit the world def"))
}

impl Engine for Maul3dEngine {
    fn build(scene: &Scene) -> Self {
        let shapes = scene.shape_count();
        // Fixed capacities: contacts per shape in a settled pile stay under 8 (Box3D gives
        // the washer 60,000 for 8,000 cubes); broad-phase pairs also count near misses.
        let def = WorldDef {
            gravity: scene.gravity,
            enable_sleep: scene.enable_sleep,
            body_capacity: capacity(scene.bodies.len(), "body count"),
            shape_capacity: capacity(shapes, "shape count"),
            contact_capacity: capacity(8 * shapes + 1024, "contact capacity"),
            pair_capacity: capacity(16 * shapes + 1024, "pair capacity"),
            hull_capacity: capacity(scene.hulls.len().max(1), "hull count"),
            ..Default::default()
        };
        let mut world = World::new(&def).expect("world def is valid");

        let hulls: Vec<_> = scene
            .hulls
            .iter()
            .map(|points| world.create_hull(points).expect("scene hull is valid"))
            .collect();

        let mut bodies = Vec::with_capacity(scene.bodies.len());
        for desc in &scene.bodies {
            let body_type = match desc.kind {
                BodyKind::Static => BodyType::Static,
                BodyKind::Kinematic => BodyType::Kinematic,
                BodyKind::Dynamic => BodyType::Dynamic,
            };
            let body = world
                .create_body(&BodyDef {
                    body_type,
                    position: desc.position,
                    ..Default::default()
                })
                .expect("body fits the world");
            for shape in &desc.shapes {
                let def = ShapeDef {
                    density: shape.density,
                    friction: shape.friction,
                    ..Default::default()
                };
                match shape.geometry {
                    Geometry::Box { half } => world.create_box_shape(body, &def, half),
                    Geometry::Hull { index } => world.create_hull_shape(body, &def, hulls[index]),
                }
                .expect("shape fits the world");
            }
            if desc.linear_velocity != Vec3::ZERO || desc.angular_velocity != Vec3::ZERO {
                world
                    .set_body_velocity(body, desc.linear_velocity, desc.angular_velocity)
                    .expect("velocity is valid");
            }
            bodies.push(body);
        }

        Maul3dEngine {
            world,
            dt: scene.dt,
            substeps: scene.substeps,
            bodies,
            profile: maul3d::Profile::default(),
            profiled_steps: 0,
        }
    }

    fn step(&mut self) {
        self.world
            .step(self.dt, self.substeps)
            .expect("step succeeds");
        if self.world.step_count() > 1 {
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
            self.profiled_steps += 1;
        }
    }

    fn profile_summary(&self) -> Option<String> {
        let n = self.profiled_steps.max(1) as f64;
        let p = &self.profile;
        let c = self.world.counters();
        Some(format!(
            "step {:.2} = pairs {:.2} + collide {:.2} + prepare {:.2} + solve {:.2} + restitution {:.2} + finalize {:.2} + sleep {:.2} ms; contacts {} touching {} colours {} overflow {}",
            p.step / n,
            p.pairs / n,
            p.collide / n,
            p.prepare / n,
            p.solve / n,
            p.restitution / n,
            p.finalize / n,
            p.sleep / n,
            c.contact_count,
            c.touching_contact_count,
            c.color_count,
            c.overflow_constraints
        ))
    }

    fn body_count(&self) -> usize {
        self.bodies.len()
    }

    fn checksum(&self) -> f64 {
        self.bodies
            .iter()
            .map(|&b| self.world.body_position(b).expect("body is alive").y)
            .sum()
    }
}
