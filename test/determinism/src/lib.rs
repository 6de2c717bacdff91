//! The determinism program's scenes and driver, shared by the `maul3d-hashes` binary and
//! the tests: the same calls, in the same order, on every target of the hash matrix.

pub mod tasks;

use maul3d::math::{DVec3, Quat, Vec3};
use maul3d::{BodyDef, BodyId, BodyType, Capsule, ShapeDef, Sphere, World, WorldDef};

/// Names of the scenes, in order; `test/hashes.txt` holds their per-step hashes.
pub const SCENES: [&str; 5] = ["pyramid", "pile_sleep", "far_shift", "churn", "rollback"];
/// Steps per scene.
pub const STEPS: u32 = 300;
const DT: f32 = 1.0 / 60.0;

/// The def every scene uses (capacities), with the caller's hooks.
pub fn def(enable_sleep: bool) -> WorldDef {
    WorldDef {
        enable_sleep,
        body_capacity: 512,
        shape_capacity: 512,
        contact_capacity: 4096,
        pair_capacity: 4096,
        hull_capacity: 8,
        event_capacity: 256,
        ..Default::default()
    }
}

fn dynamic(w: &mut World, p: DVec3, q: Quat) -> BodyId {
    w.create_body(&BodyDef {
        body_type: BodyType::Dynamic,
        position: p,
        rotation: q,
        ..Default::default()
    })
    .unwrap()
}

fn ground(w: &mut World, at: DVec3) {
    let g = w
        .create_body(&BodyDef {
            position: DVec3::new(at.x, at.y - 1.0, at.z),
            ..Default::default()
        })
        .unwrap();
    w.create_box_shape(g, &ShapeDef::default(), Vec3::new(60.0, 1.0, 60.0))
        .unwrap();
}

fn pyramid(w: &mut World, levels: usize, at: DVec3) {
    for i in 0..levels {
        for j in i..levels {
            let x = (i + 1) as f64 * 0.5 + (j - i) as f64 - 0.5 * levels as f64;
            let b = dynamic(
                w,
                DVec3::new(at.x + x, at.y + 0.5 + i as f64, at.z),
                Quat::IDENTITY,
            );
            w.create_box_shape(b, &ShapeDef::default(), Vec3::splat(0.5))
                .unwrap();
        }
    }
}

/// A mixed pile of boxes, spheres, capsules and hulls above `at`.
fn pile(w: &mut World, at: DVec3, n: usize) {
    let hull = w
        .create_hull(&[
            Vec3::new(-0.45, -0.3, -0.4),
            Vec3::new(0.5, -0.3, -0.35),
            Vec3::new(0.05, -0.35, 0.5),
            Vec3::new(0.1, 0.45, 0.05),
            Vec3::new(0.3, 0.2, 0.3),
            Vec3::new(-0.25, 0.15, -0.3),
        ])
        .unwrap();
    for i in 0..n {
        // Local offsets on the 2^-32 grid (multiples of 1/8), so any `at` adds exactly.
        let p = DVec3::new(
            at.x + (i % 4) as f64 * 0.875 - 1.25,
            at.y + 1.0 + (i / 4) as f64 * 0.875,
            at.z + ((i / 2) % 3) as f64 * 0.625 - 0.625,
        );
        let b = dynamic(
            w,
            p,
            Quat::from_axis_angle(Vec3::new(0.3, 1.0, 0.2).normalize(), i as f32 * 0.61),
        );
        let def = ShapeDef {
            restitution: if i % 5 == 0 { 0.4 } else { 0.0 },
            friction: 0.4 + 0.05 * (i % 6) as f32,
            ..Default::default()
        };
        match i % 4 {
            0 => w
                .create_box_shape(b, &def, Vec3::new(0.4, 0.3, 0.25))
                .map(|_| ()),
            1 => w
                .create_sphere_shape(
                    b,
                    &def,
                    &Sphere {
                        center: Vec3::ZERO,
                        radius: 0.35,
                    },
                )
                .map(|_| ()),
            2 => w
                .create_capsule_shape(
                    b,
                    &def,
                    &Capsule {
                        center1: Vec3::new(-0.3, 0.0, 0.0),
                        center2: Vec3::new(0.3, 0.0, 0.0),
                        radius: 0.22,
                    },
                )
                .map(|_| ()),
            _ => w.create_hull_shape(b, &def, hull).map(|_| ()),
        }
        .unwrap();
    }
}

/// A scene and what it does between steps.
pub struct Driver {
    scene: usize,
    snapshot: Vec<u8>,
}

impl Driver {
    /// Builds scene `scene` into a world with `def` (capacities from `def()`).
    pub fn build(scene: usize, hooks: Option<maul3d::TaskHooks>) -> (World, Driver) {
        let sleep = matches!(scene, 1 | 3 | 4);
        let mut w = World::new(&WorldDef {
            task_hooks: hooks,
            ..def(sleep)
        })
        .unwrap();
        match scene {
            0 => {
                ground(&mut w, DVec3::ZERO);
                pyramid(&mut w, 20, DVec3::ZERO);
            }
            1 => {
                ground(&mut w, DVec3::ZERO);
                pile(&mut w, DVec3::ZERO, 60);
            }
            2 => {
                // Far from the origin, shifted back mid-run.
                let at = DVec3::new(1_048_576.0, -524_288.0, 262_144.0);
                ground(&mut w, at);
                pyramid(&mut w, 8, at);
                pile(&mut w, DVec3::new(at.x + 6.0, at.y, at.z), 24);
            }
            _ => {
                ground(&mut w, DVec3::ZERO);
                pyramid(&mut w, 6, DVec3::new(-8.0, 0.0, 0.0));
                pile(&mut w, DVec3::new(4.0, 0.0, 0.0), 40);
                let k = w
                    .create_body(&BodyDef {
                        body_type: BodyType::Kinematic,
                        position: DVec3::new(0.0, 0.5, 6.0),
                        linear_velocity: Vec3::new(0.0, 0.0, -1.5),
                        angular_velocity: Vec3::new(0.0, 0.7, 0.0),
                        ..Default::default()
                    })
                    .unwrap();
                w.create_box_shape(k, &ShapeDef::default(), Vec3::new(3.0, 0.5, 0.3))
                    .unwrap();
            }
        }
        (
            w,
            Driver {
                scene,
                snapshot: Vec::new(),
            },
        )
    }

    /// The calls made before step `step` (0-based).
    pub fn before_step(&mut self, w: &mut World, step: u32) {
        match self.scene {
            1 if step == 200 => {
                let b = dynamic(w, DVec3::new(0.0, 14.0, 0.0), Quat::IDENTITY);
                w.create_box_shape(
                    b,
                    &ShapeDef {
                        density: 3000.0,
                        ..Default::default()
                    },
                    Vec3::splat(0.5),
                )
                .unwrap();
            }
            2 if step == 150 => {
                w.shift_origin(DVec3::new(1_048_576.0, -524_288.0, 262_144.0))
                    .unwrap();
            }
            3 | 4 => {
                if step % 9 == 4 {
                    let ids: Vec<BodyId> = w.body_ids().collect();
                    if ids.len() > 3 {
                        let victim = ids[2 + (step as usize * 17) % (ids.len() - 2)];
                        if w.body_type(victim).unwrap() == BodyType::Dynamic {
                            w.destroy_body(victim).unwrap();
                        }
                    }
                }
                if step % 6 == 1 {
                    let b = dynamic(
                        w,
                        DVec3::new((step % 7) as f64 - 3.0, 9.0, 0.5),
                        Quat::IDENTITY,
                    );
                    w.create_sphere_shape(
                        b,
                        &ShapeDef {
                            restitution: 0.5,
                            ..Default::default()
                        },
                        &Sphere {
                            center: Vec3::ZERO,
                            radius: 0.3,
                        },
                    )
                    .unwrap();
                }
                if step.is_multiple_of(13) {
                    let ids: Vec<BodyId> = w.body_ids().collect();
                    let b = ids[ids.len() / 2];
                    w.apply_linear_impulse_to_center(b, Vec3::new(0.5, 3.0, -0.5))
                        .unwrap();
                }
                if self.scene == 4 {
                    if step == 100 {
                        self.snapshot = vec![0u8; w.snapshot_size()];
                        w.snapshot(&mut self.snapshot).unwrap();
                    }
                    if step == 200 {
                        w.restore(&self.snapshot).unwrap();
                    }
                }
            }
            _ => {}
        }
    }

    /// Runs `steps` steps, returning the hash after each. `step` runs one step (the
    /// program runs it on a thread with a small stack).
    pub fn run(&mut self, w: &mut World, steps: u32, step: &mut dyn FnMut(&mut World)) -> Vec<u64> {
        (0..steps)
            .map(|s| {
                self.before_step(w, s);
                step(w);
                w.hash()
            })
            .collect()
    }

    /// One step of the scenes' fixed size.
    pub fn step(w: &mut World) {
        w.step(DT, 4).unwrap();
    }
}

/// Per-step hashes of one scene, in the `test/hashes.txt` line format.
pub fn format_lines(scene: usize, hashes: &[u64], out: &mut String) {
    use std::fmt::Write;
    for (i, h) in hashes.iter().enumerate() {
        let _ = writeln!(out, "{} {} {:016x}", SCENES[scene], i + 1, h);
    }
}
