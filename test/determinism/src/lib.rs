//! The determinism program's scenes and driver, shared by the `maul3d-hashes` binary and
//! the tests: the same calls, in the same order, on every target of the hash matrix.

pub mod tasks;

use maul3d::math::{DVec3, Quat, Vec3};
use maul3d::{
    BodyDef, BodyId, BodyType, Capsule, ConeTwistJoint, Cylinder, Filter, JointDef, JointId,
    JointKind, PlaneShape, RevoluteJoint, ShapeDef, Sphere, WeldJoint, World, WorldDef,
};

/// Names of the scenes, in order; `test/hashes.txt` holds their per-step hashes.
pub const SCENES: [&str; 13] = [
    "pyramid",
    "pile_sleep",
    "far_shift",
    "churn",
    "rollback",
    "joints",
    "cylinders",
    "meshes",
    "voxels",
    "characters",
    "vehicles",
    "water",
    "soft",
];
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
        character_capacity: 8,
        vehicle_capacity: 4,
        water_capacity: 2,
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

/// A bumpy triangle-mesh floor, a height field with a hole next to it, a kinematic mesh
/// platform turning above them, and a mixed pile falling on all three.
fn meshes_scene(w: &mut World) {
    let n = 24u32;
    let mut v = Vec::new();
    for z in 0..=n {
        for x in 0..=n {
            let y = ((x * 7 + z * 5) % 6) as f32 * 0.05;
            v.push(Vec3::new(x as f32 * 0.5 - 6.0, y, z as f32 * 0.5 - 6.0));
        }
    }
    let mut t = Vec::new();
    for z in 0..n {
        for x in 0..n {
            let (a, b) = (z * (n + 1) + x, z * (n + 1) + x + 1);
            let (c, d) = (a + n + 1, b + n + 1);
            t.push([a, c, d]);
            t.push([a, d, b]);
        }
    }
    let mesh = w.create_mesh(&v, &t).unwrap();
    let floor = w.create_body(&BodyDef::default()).unwrap();
    w.create_mesh_shape(floor, &ShapeDef::default(), mesh)
        .unwrap();
    let heights: Vec<f32> = (0..17 * 17).map(|i| ((i * 5) % 7) as f32 * 0.04).collect();
    let mut holes = vec![false; 16 * 16];
    holes[16 * 8 + 8] = true;
    let hf = w
        .create_height_field(&maul3d::HeightFieldDef {
            count_x: 17,
            count_z: 17,
            heights: &heights,
            holes: &holes,
            scale: Vec3::new(0.5, 1.0, 0.5),
        })
        .unwrap();
    let field = w
        .create_body(&BodyDef {
            position: DVec3::new(6.0, -0.25, -4.0),
            ..Default::default()
        })
        .unwrap();
    w.create_mesh_shape(field, &ShapeDef::default(), hf)
        .unwrap();
    let plate = w
        .create_mesh(
            &[
                Vec3::new(-1.5, 0.0, -1.5),
                Vec3::new(1.5, 0.0, -1.5),
                Vec3::new(1.5, 0.0, 1.5),
                Vec3::new(-1.5, 0.0, 1.5),
            ],
            &[[0, 2, 1], [0, 3, 2]],
        )
        .unwrap();
    let platform = w
        .create_body(&BodyDef {
            body_type: BodyType::Kinematic,
            position: DVec3::new(-2.0, 2.0, 0.0),
            angular_velocity: Vec3::new(0.0, 0.6, 0.0),
            ..Default::default()
        })
        .unwrap();
    w.create_mesh_shape(platform, &ShapeDef::default(), plate)
        .unwrap();
    pile(w, DVec3::new(-2.0, 2.5, 0.0), 16);
    pile(w, DVec3::new(2.0, 0.5, -1.0), 24);
    pile(w, DVec3::new(9.0, 0.5, 0.0), 16);
    // Cylinders on the bumps, standing and lying.
    for i in 0..6 {
        let b = dynamic(
            w,
            DVec3::new(-5.0 + i as f64 * 1.25, 1.5, 3.5),
            Quat::from_axis_angle(Vec3::X, if i % 2 == 0 { 0.0 } else { 1.5 }),
        );
        w.create_cylinder_shape(
            b,
            &ShapeDef::default(),
            &maul3d::Cylinder {
                half_height: 0.3,
                radius: 0.35,
                ..Default::default()
            },
        )
        .unwrap();
    }
}

/// A joint of `kind` between `a` and `b` with its frame at world point `anchor`, axes
/// `rotation`.
fn joint_at(
    w: &mut World,
    a: BodyId,
    b: BodyId,
    anchor: DVec3,
    rotation: Quat,
    kind: JointKind,
) -> JointId {
    let (fa, fb) = w.joint_frames_at(a, b, anchor, rotation).unwrap();
    w.create_joint(&JointDef {
        body_a: a,
        body_b: b,
        local_frame_a: fa,
        local_frame_b: fb,
        kind,
        ..Default::default()
    })
    .unwrap()
}

fn capsule(w: &mut World, p: DVec3, half: Vec3, radius: f32, group: i32) -> BodyId {
    let b = dynamic(w, p, Quat::IDENTITY);
    let def = ShapeDef {
        filter: Filter {
            group_index: group,
            ..Default::default()
        },
        ..Default::default()
    };
    w.create_capsule_shape(
        b,
        &def,
        &Capsule {
            center1: -half,
            center2: half,
            radius,
        },
    )
    .unwrap();
    b
}

/// A ragdoll of 14 capsules standing at `at` (feet), its bones in filter group `-group`:
/// cone-twist spine, neck, shoulders and hips, revolute elbows, knees and ankles.
fn ragdoll(w: &mut World, at: DVec3, group: i32) {
    let p = |x: f64, y: f64, z: f64| DVec3::new(at.x + x, at.y + y, at.z + z);
    let g = -group;
    let mut bone = |x: f64, y: f64, half: f32, r: f32| {
        capsule(w, p(x, y, 0.0), Vec3::new(0.0, half, 0.0), r, g)
    };
    let pelvis = bone(0.0, 1.0, 0.05, 0.12);
    let spine = bone(0.0, 1.2, 0.05, 0.11);
    let chest = bone(0.0, 1.42, 0.07, 0.13);
    let head = bone(0.0, 1.72, 0.04, 0.1);
    let arm_l = bone(-0.24, 1.36, 0.1, 0.05);
    let fore_l = bone(-0.24, 1.06, 0.1, 0.045);
    let arm_r = bone(0.24, 1.36, 0.1, 0.05);
    let fore_r = bone(0.24, 1.06, 0.1, 0.045);
    let thigh_l = bone(-0.1, 0.7, 0.14, 0.07);
    let shin_l = bone(-0.1, 0.3, 0.14, 0.055);
    let thigh_r = bone(0.1, 0.7, 0.14, 0.07);
    let shin_r = bone(0.1, 0.3, 0.14, 0.055);
    let foot_l = capsule(w, p(-0.1, 0.05, 0.05), Vec3::new(0.0, 0.0, 0.06), 0.045, g);
    let foot_r = capsule(w, p(0.1, 0.05, 0.05), Vec3::new(0.0, 0.0, 0.06), 0.045, g);
    let quarter = 0.5 * core::f32::consts::PI;
    let down = Quat::from_axis_angle(Vec3::Z, -quarter);
    let up = Quat::from_axis_angle(Vec3::Z, quarter);
    let hinge = Quat::from_axis_angle(Vec3::Y, quarter);
    let cone = |swing: f32, twist: f32| {
        JointKind::ConeTwist(ConeTwistJoint {
            swing_limit: swing,
            twist_lower: -twist,
            twist_upper: twist,
            max_friction_torque: 0.5,
        })
    };
    let knee = |lower: f32, upper: f32| {
        JointKind::Revolute(RevoluteJoint {
            enable_limit: true,
            lower,
            upper,
            enable_motor: true,
            max_motor_torque: 0.5,
            ..Default::default()
        })
    };
    joint_at(w, pelvis, spine, p(0.0, 1.1, 0.0), up, cone(0.4, 0.3));
    joint_at(w, spine, chest, p(0.0, 1.31, 0.0), up, cone(0.4, 0.3));
    joint_at(w, chest, head, p(0.0, 1.6, 0.0), up, cone(0.5, 0.6));
    joint_at(w, chest, arm_l, p(-0.24, 1.5, 0.0), down, cone(1.4, 0.8));
    joint_at(w, chest, arm_r, p(0.24, 1.5, 0.0), down, cone(1.4, 0.8));
    joint_at(w, arm_l, fore_l, p(-0.24, 1.21, 0.0), hinge, knee(0.0, 2.2));
    joint_at(w, arm_r, fore_r, p(0.24, 1.21, 0.0), hinge, knee(0.0, 2.2));
    joint_at(w, pelvis, thigh_l, p(-0.1, 0.88, 0.0), down, cone(1.0, 0.4));
    joint_at(w, pelvis, thigh_r, p(0.1, 0.88, 0.0), down, cone(1.0, 0.4));
    joint_at(
        w,
        thigh_l,
        shin_l,
        p(-0.1, 0.5, 0.0),
        hinge,
        knee(-2.2, 0.0),
    );
    joint_at(w, thigh_r, shin_r, p(0.1, 0.5, 0.0), hinge, knee(-2.2, 0.0));
    joint_at(w, shin_l, foot_l, p(-0.1, 0.1, 0.0), hinge, knee(-0.6, 0.6));
    joint_at(w, shin_r, foot_r, p(0.1, 0.1, 0.0), hinge, knee(-0.6, 0.6));
}

/// The joints scene: a chain of 12 links swinging from a post, two ragdolls dropped on a
/// small pyramid, a motorised hinge turning a paddle, and a weld that breaks when pulled.
fn joints_scene(w: &mut World) {
    ground(w, DVec3::ZERO);
    pyramid(w, 4, DVec3::new(0.0, 0.0, 0.0));
    ragdoll(w, DVec3::new(-0.5, 4.5, 0.0), 1);
    ragdoll(w, DVec3::new(0.75, 6.5, 0.25), 2);
    let post = w
        .create_body(&BodyDef {
            position: DVec3::new(-6.0, 8.0, 0.0),
            ..Default::default()
        })
        .unwrap();
    let mut prev = post;
    for i in 0..12 {
        // Horizontal at first, so it swings down.
        let x = -6.0 + 0.25 + 0.5 * i as f64;
        let link = capsule(
            w,
            DVec3::new(x, 8.0, 0.0),
            Vec3::new(0.2, 0.0, 0.0),
            0.06,
            0,
        );
        let anchor = DVec3::new(-6.0 + 0.5 * i as f64, 8.0, 0.0);
        joint_at(w, prev, link, anchor, Quat::IDENTITY, JointKind::Spherical);
        prev = link;
    }
    let paddle = dynamic(w, DVec3::new(5.0, 1.5, 0.0), Quat::IDENTITY);
    w.create_box_shape(paddle, &ShapeDef::default(), Vec3::new(1.0, 0.1, 0.3))
        .unwrap();
    let axle = w
        .create_body(&BodyDef {
            position: DVec3::new(5.0, 1.5, 0.0),
            ..Default::default()
        })
        .unwrap();
    joint_at(
        w,
        axle,
        paddle,
        DVec3::new(5.0, 1.5, 0.0),
        Quat::IDENTITY,
        JointKind::Revolute(RevoluteJoint {
            enable_motor: true,
            motor_speed: 1.5,
            max_motor_torque: 200.0,
            ..Default::default()
        }),
    );
    let hook = w
        .create_body(&BodyDef {
            position: DVec3::new(-3.0, 4.0, 3.0),
            ..Default::default()
        })
        .unwrap();
    let held = dynamic(w, DVec3::new(-2.75, 3.5, 3.0), Quat::IDENTITY);
    w.create_box_shape(held, &ShapeDef::default(), Vec3::splat(0.25))
        .unwrap();
    let weld = joint_at(
        w,
        hook,
        held,
        DVec3::new(-3.0, 3.75, 3.0),
        Quat::IDENTITY,
        JointKind::Weld(WeldJoint::default()),
    );
    let weight = w.body_mass_data(held).unwrap().mass * 10.0;
    w.set_joint_break_thresholds(weld, 3.0 * weight, f32::MAX)
        .unwrap();
}

/// Cylinders rolling down a ramp onto a ground plane, stopped by a wall plane, beside
/// stacks of standing cylinders and boxes.
fn cylinders_scene(w: &mut World) {
    let d = ShapeDef::default();
    let fixed = w.create_body(&BodyDef::default()).unwrap();
    w.create_plane_shape(fixed, &d, &PlaneShape::default())
        .unwrap();
    // The wall: x >= 12 is solid.
    w.create_plane_shape(
        fixed,
        &d,
        &PlaneShape {
            normal: Vec3::new(-1.0, 0.0, 0.0),
            offset: -12.0,
        },
    )
    .unwrap();
    let ramp = w
        .create_body(&BodyDef {
            position: DVec3::new(-6.0, 1.2, 0.0),
            rotation: Quat::from_axis_angle(Vec3::Z, -0.3),
            ..Default::default()
        })
        .unwrap();
    w.create_box_shape(ramp, &d, Vec3::new(4.0, 0.2, 3.0))
        .unwrap();
    let lying = Quat::from_axis_angle(Vec3::X, 0.5 * core::f32::consts::PI);
    for k in 0..8 {
        let b = dynamic(
            w,
            DVec3::new(
                -8.5 + 0.9 * (k % 4) as f64,
                3.0 + 0.8 * (k / 4) as f64,
                1.2 * (k % 3) as f64 - 1.2,
            ),
            lying,
        );
        w.create_cylinder_shape(
            b,
            &d,
            &Cylinder {
                center: Vec3::ZERO,
                rotation: Quat::IDENTITY,
                half_height: 0.3 + 0.05 * (k % 3) as f32,
                radius: 0.3,
            },
        )
        .unwrap();
    }
    for column in 0..3 {
        for level in 0..4 {
            let b = dynamic(
                w,
                DVec3::new(4.0 + 1.5 * column as f64, 0.3 + 0.6 * level as f64, -2.0),
                Quat::IDENTITY,
            );
            if (level + column) % 2 == 0 {
                w.create_cylinder_shape(
                    b,
                    &d,
                    &Cylinder {
                        center: Vec3::ZERO,
                        rotation: Quat::IDENTITY,
                        half_height: 0.3,
                        radius: 0.45,
                    },
                )
                .unwrap();
            } else {
                w.create_box_shape(b, &d, Vec3::new(0.4, 0.3, 0.4)).unwrap();
            }
        }
    }
}

/// Four voxel chunks (0.5 m voxels, stepped columns of two materials) tiling one static
/// body, a mixed pile falling on them; the driver digs a pit and raises a wall mid-run.
fn voxels_scene(w: &mut World) {
    let floor = w.create_body(&BodyDef::default()).unwrap();
    for k in 0..4usize {
        let data: Vec<u8> = (0..4096usize)
            .map(|i| {
                let (x, y, z) = (i % 16, (i / 16) % 16, i / 256);
                let height = 2 + (x * 3 + z * 5 + k) % 3;
                if y < height {
                    1 + ((x / 4 + z / 4) % 2) as u8
                } else {
                    0
                }
            })
            .collect();
        let g = w
            .create_voxel_grid(&maul3d::VoxelGridDef {
                voxel_size: 0.5,
                data: &data,
                origin: Vec3::new((k % 2) as f32 * 8.0 - 8.0, -2.0, (k / 2) as f32 * 8.0 - 8.0),
            })
            .unwrap();
        w.create_voxel_shape(floor, &ShapeDef::default(), g)
            .unwrap();
    }
    pile(w, DVec3::new(-2.0, 1.0, -2.0), 24);
    pile(w, DVec3::new(3.0, 1.0, 2.0), 24);
}

/// Directions of the characters' walk: eight unit steps of the compass (exact constants,
/// so a front end rebuilding the scene needs no trigonometry).
const WALK: [(f32, f32); 8] = [
    (1.0, 0.0),
    (0.707_106_77, 0.707_106_77),
    (0.0, 1.0),
    (-0.707_106_77, 0.707_106_77),
    (-1.0, 0.0),
    (-0.707_106_77, -0.707_106_77),
    (0.0, -1.0),
    (0.707_106_77, -0.707_106_77),
];

/// A floor with stairs, a ramp, a turning platform, a lift and boxes to push; six
/// characters walk it (`Driver::before_step` moves them every step).
fn characters_scene(w: &mut World) {
    ground(w, DVec3::ZERO);
    let d = ShapeDef::default();
    // Stairs of 0.25 m along +x from x = 2.
    for k in 0..4 {
        let s = w
            .create_body(&BodyDef {
                position: DVec3::new(2.5 + 0.5 * k as f64, 0.125 * (k + 1) as f64, -4.0),
                ..Default::default()
            })
            .unwrap();
        w.create_box_shape(s, &d, Vec3::new(0.25, 0.125 * (k + 1) as f32, 1.5))
            .unwrap();
    }
    // A 20° ramp.
    let ramp = w
        .create_body(&BodyDef {
            position: DVec3::new(-4.0, 0.5, -4.0),
            rotation: Quat::from_axis_angle(Vec3::Z, 0.35),
            ..Default::default()
        })
        .unwrap();
    w.create_box_shape(ramp, &d, Vec3::new(2.5, 0.2, 1.5))
        .unwrap();
    // A turning platform and a lift.
    let turn = w
        .create_body(&BodyDef {
            body_type: BodyType::Kinematic,
            position: DVec3::new(4.0, 0.25, 4.0),
            angular_velocity: Vec3::new(0.0, 0.8, 0.0),
            ..Default::default()
        })
        .unwrap();
    w.create_box_shape(turn, &d, Vec3::new(2.0, 0.25, 2.0))
        .unwrap();
    let lift = w
        .create_body(&BodyDef {
            body_type: BodyType::Kinematic,
            position: DVec3::new(-4.0, 0.25, 4.0),
            linear_velocity: Vec3::new(0.0, 0.5, 0.0),
            ..Default::default()
        })
        .unwrap();
    w.create_box_shape(lift, &d, Vec3::new(1.5, 0.25, 1.5))
        .unwrap();
    // Boxes to push: a light one and a heavy one.
    for (k, density) in [(0, 20.0), (1, 20_000.0)] {
        let b = dynamic(
            w,
            DVec3::new(0.0, 0.5, -1.0 - 2.0 * k as f64),
            Quat::IDENTITY,
        );
        w.create_box_shape(
            b,
            &ShapeDef {
                density,
                ..Default::default()
            },
            Vec3::splat(0.5),
        )
        .unwrap();
    }
    let places = [
        (1.0, -4.0),
        (-6.5, -4.0),
        (4.0, 4.0),
        (-4.0, 4.0),
        (-2.0, -1.0),
        (2.0, 0.0),
    ];
    for (k, &(x, z)) in places.iter().enumerate() {
        w.create_character(&maul3d::CharacterDef {
            position: DVec3::new(x, 1.0 + 0.125 * k as f64, z),
            settings: maul3d::CharacterSettings {
                max_strength: 300.0,
                ..Default::default()
            },
            ..Default::default()
        })
        .unwrap();
    }
}

/// Moves every character for step `step`: character k walks at 1.5 m/s in direction
/// `WALK[(step / 60 + k) % 8]` (the two on the platforms stand still) and falls at 4 m/s
/// (the mover snaps it to the floor).
fn walk_characters(w: &mut World, step: u32) {
    let ids: Vec<maul3d::CharacterId> = w.character_ids().collect();
    for (k, &c) in ids.iter().enumerate() {
        let (x, z) = WALK[(step as usize / 60 + k) % 8];
        let speed = if k == 2 || k == 3 { 0.0 } else { 1.5 };
        w.move_character(c, Vec3::new(speed * x, -4.0, speed * z), DT)
            .unwrap();
    }
}

/// Three cars on a floor with a row of bumps: one drives straight, one turns, one brakes
/// hard at step 150; a box sits in the straight car's way (`Driver::before_step` sets the
/// inputs).
fn vehicles_scene(w: &mut World) {
    let g = w
        .create_body(&BodyDef {
            position: DVec3::new(0.0, -1.0, 0.0),
            ..Default::default()
        })
        .unwrap();
    let floor = ShapeDef {
        friction: 1.0,
        ..Default::default()
    };
    w.create_box_shape(g, &floor, Vec3::new(60.0, 1.0, 60.0))
        .unwrap();
    // Bumps across the turning car's path: capsules lying along x.
    for k in 0..4 {
        let b = w
            .create_body(&BodyDef {
                position: DVec3::new(-6.0, 0.0, 4.0 + 3.0 * k as f64),
                ..Default::default()
            })
            .unwrap();
        w.create_capsule_shape(
            b,
            &floor,
            &Capsule {
                center1: Vec3::new(-3.0, 0.0, 0.0),
                center2: Vec3::new(3.0, 0.0, 0.0),
                radius: 0.12,
            },
        )
        .unwrap();
    }
    let crate_box = dynamic(w, DVec3::new(6.0, 0.5, 14.0), Quat::IDENTITY);
    w.create_box_shape(
        crate_box,
        &ShapeDef {
            density: 50.0,
            ..Default::default()
        },
        Vec3::splat(0.5),
    )
    .unwrap();
    let half = Vec3::new(0.9, 0.3, 2.0);
    for (k, x) in [6.0, -6.0, 0.0].into_iter().enumerate() {
        let c = dynamic(w, DVec3::new(x, 1.0, -6.0), Quat::IDENTITY);
        w.create_box_shape(
            c,
            &ShapeDef {
                density: 1200.0 / (8.0 * half.x * half.y * half.z),
                ..Default::default()
            },
            half,
        )
        .unwrap();
        let mut def = maul3d::VehicleDef {
            chassis: c,
            ..Default::default()
        };
        def.transmission.automatic = true;
        for (wx, wz) in [(-0.8, 1.3), (0.8, 1.3), (-0.8, -1.3), (0.8, -1.3)] {
            let front = wz > 0.0;
            def.add_wheel(maul3d::WheelDef {
                position: Vec3::new(wx, -0.1, wz),
                min_length: 0.05,
                max_length: 0.5,
                rest_length: 0.5,
                spring: maul3d::SuspensionSpring::Stiffness {
                    stiffness: 30_000.0,
                    damping: 4000.0,
                },
                radius: 0.35,
                max_steer_angle: if front { 0.5 } else { 0.0 },
                brake_torque: 5000.0,
                handbrake_torque: if front { 0.0 } else { 4000.0 },
                driven: !front,
                cast: if k == 1 {
                    maul3d::WheelCast::Cylinder
                } else {
                    maul3d::WheelCast::Ray
                },
                ..Default::default()
            });
        }
        w.create_vehicle(&def).unwrap();
    }
}

/// The cars' inputs for step `step`: car 0 straight at half throttle, car 1 turning
/// over the bumps, car 2 full throttle then braking hard from step 150 (and the handbrake
/// from step 200).
fn drive_vehicles(w: &mut World, step: u32) {
    let ids: Vec<maul3d::VehicleId> = w.vehicle_ids().collect();
    let input = |throttle, steering, brake, handbrake| maul3d::VehicleInput {
        throttle,
        steering,
        brake,
        handbrake,
    };
    if step == 0 {
        w.set_vehicle_input(ids[0], input(0.5, 0.0, 0.0, 0.0))
            .unwrap();
        w.set_vehicle_input(ids[1], input(0.4, -0.6, 0.0, 0.0))
            .unwrap();
        w.set_vehicle_input(ids[2], input(1.0, 0.0, 0.0, 0.0))
            .unwrap();
    }
    if step == 150 {
        w.set_vehicle_input(ids[2], input(0.0, 0.0, 1.0, 0.0))
            .unwrap();
    }
    if step == 200 {
        w.set_vehicle_input(ids[2], input(0.0, 0.25, 0.0, 1.0))
            .unwrap();
    }
}

/// A pool with a current: boxes, spheres, capsules, cylinders and hulls of densities from
/// 300 to 1500 kg/m³ dropped in; the current turns at step 150 and the water gets denser
/// at step 220.
fn water_scene(w: &mut World) {
    ground(w, DVec3::ZERO);
    w.create_water_volume(&maul3d::WaterVolumeDef {
        center: DVec3::new(0.0, 1.5, 0.0),
        half_extents: Vec3::new(8.0, 1.5, 8.0),
        linear_drag: 0.8,
        angular_drag: 1.5,
        flow: Vec3::new(0.5, 0.0, 0.25),
        ..Default::default()
    })
    .unwrap();
    let hull = w
        .create_hull(&[
            Vec3::new(-0.6, -0.2, -0.4),
            Vec3::new(0.6, -0.2, -0.4),
            Vec3::new(0.6, -0.2, 0.4),
            Vec3::new(-0.6, -0.2, 0.4),
            Vec3::new(-0.8, 0.2, -0.5),
            Vec3::new(0.8, 0.2, -0.5),
            Vec3::new(0.8, 0.2, 0.5),
            Vec3::new(-0.8, 0.2, 0.5),
        ])
        .unwrap();
    for i in 0..20 {
        let p = DVec3::new(
            (i % 5) as f64 * 2.0 - 4.0,
            4.0 + (i / 5) as f64 * 1.25,
            ((i * 3) % 4) as f64 * 1.5 - 2.25,
        );
        let b = dynamic(
            w,
            p,
            Quat::from_axis_angle(Vec3::new(1.0, 0.4, 0.2).normalize(), i as f32 * 0.37),
        );
        let def = ShapeDef {
            density: 300.0 + 60.0 * i as f32,
            ..Default::default()
        };
        match i % 5 {
            0 => w
                .create_box_shape(b, &def, Vec3::new(0.5, 0.3, 0.4))
                .map(|_| ()),
            1 => w
                .create_sphere_shape(
                    b,
                    &def,
                    &Sphere {
                        center: Vec3::ZERO,
                        radius: 0.4,
                    },
                )
                .map(|_| ()),
            2 => w
                .create_capsule_shape(
                    b,
                    &def,
                    &Capsule {
                        center1: Vec3::new(0.0, -0.3, 0.0),
                        center2: Vec3::new(0.0, 0.3, 0.0),
                        radius: 0.25,
                    },
                )
                .map(|_| ()),
            3 => w
                .create_cylinder_shape(
                    b,
                    &def,
                    &Cylinder {
                        center: Vec3::ZERO,
                        rotation: Quat::IDENTITY,
                        half_height: 0.3,
                        radius: 0.35,
                    },
                )
                .map(|_| ()),
            _ => w.create_hull_shape(b, &def, hull).map(|_| ()),
        }
        .unwrap();
    }
}

/// A square cloth of `n` × `n` vertices `step` apart, centred in its frame's xz plane
/// (vertex `i + n·j` at x = i, z = j), two triangles per cell. The scene's steps are
/// multiples of 2^-4, so every coordinate is exact and the C mirror computes the same
/// bits whatever its compiler flags.
pub fn soft_grid(n: usize, step: f32) -> (Vec<Vec3>, Vec<[u32; 3]>) {
    let half = 0.5 * (n - 1) as f32 * step;
    let mut v = Vec::new();
    for j in 0..n {
        for i in 0..n {
            v.push(Vec3::new(
                i as f32 * step - half,
                0.0,
                j as f32 * step - half,
            ));
        }
    }
    let mut t = Vec::new();
    for j in 0..n - 1 {
        for i in 0..n - 1 {
            let a = (i + n * j) as u32;
            let (b, c, d) = (a + 1, a + n as u32, a + n as u32 + 1);
            t.push([a, c, b]);
            t.push([b, c, d]);
        }
    }
    (v, t)
}

/// A closed ball: an octahedron subdivided `levels` times, each new vertex the normalised
/// midpoint of its edge (in the order the triangles meet the edges), scaled by `radius`;
/// outward wound.
pub fn soft_ball(radius: f32, levels: usize) -> (Vec<Vec3>, Vec<[u32; 3]>) {
    let mut v = vec![
        Vec3::new(1.0, 0.0, 0.0),
        Vec3::new(-1.0, 0.0, 0.0),
        Vec3::new(0.0, 1.0, 0.0),
        Vec3::new(0.0, -1.0, 0.0),
        Vec3::new(0.0, 0.0, 1.0),
        Vec3::new(0.0, 0.0, -1.0),
    ];
    let mut t: Vec<[u32; 3]> = vec![
        [0, 2, 4],
        [2, 1, 4],
        [1, 3, 4],
        [3, 0, 4],
        [2, 0, 5],
        [1, 2, 5],
        [3, 1, 5],
        [0, 3, 5],
    ];
    for _ in 0..levels {
        let mut mids = std::collections::BTreeMap::new();
        let mut mid = |a: u32, b: u32, v: &mut Vec<Vec3>| -> u32 {
            let key = if a < b { (a, b) } else { (b, a) };
            *mids.entry(key).or_insert_with(|| {
                v.push(((v[a as usize] + v[b as usize]) * 0.5).normalize());
                (v.len() - 1) as u32
            })
        };
        let mut next = Vec::new();
        for [a, b, c] in t {
            let ab = mid(a, b, &mut v);
            let bc = mid(b, c, &mut v);
            let ca = mid(c, a, &mut v);
            next.extend([[a, ab, ca], [ab, b, bc], [ca, bc, c], [ab, bc, ca]]);
        }
        t = next;
    }
    (v.into_iter().map(|p| p * radius).collect(), t)
}

fn soft_body(
    w: &mut World,
    (v, t): &(Vec<Vec3>, Vec<[u32; 3]>),
    at: DVec3,
    settings: maul3d::SoftBodySettings,
) -> maul3d::SoftBodyId {
    w.create_soft_body(&maul3d::SoftBodyDef {
        vertices: v,
        triangles: t,
        position: at,
        settings,
        ..Default::default()
    })
    .unwrap()
}

/// The soft scene's pressure ball: gas in rigid edges, colliding with itself.
fn pressure_ball() -> maul3d::SoftBodySettings {
    maul3d::SoftBodySettings {
        pressure: 40.0,
        damping: 0.2,
        self_collision: true,
        ..Default::default()
    }
}

/// The soft scene's volume ball: 2 kg keeping its rest volume.
fn volume_ball() -> maul3d::SoftBodySettings {
    maul3d::SoftBodySettings {
        mass: 2.0,
        volume_scale: 1.0,
        edge_compliance: 1.0e-4,
        damping: 0.5,
        ..Default::default()
    }
}

/// A 12 × 12 cloth (2.06 m) pinned at two corners over a static sphere, its third corner attached to
/// a dynamic box; a pressure ball with self-collision and a volume ball dropped on the
/// floor. `Driver::before_step` frees a pin, moves the other, pushes the balls, changes
/// settings, snapshots at 150, destroys the volume ball and makes a small cloth at 180,
/// rolls back at 220 and then turns the pressure ball into a new cloth, teleports the
/// volume ball, and at 260 lets the big cloth through every shape.
fn soft_scene(w: &mut World) {
    ground(w, DVec3::ZERO);
    let s = w
        .create_body(&BodyDef {
            position: DVec3::new(0.0, 1.0, 0.0),
            ..Default::default()
        })
        .unwrap();
    w.create_sphere_shape(
        s,
        &ShapeDef::default(),
        &Sphere {
            center: Vec3::ZERO,
            radius: 0.5,
        },
    )
    .unwrap();
    let cloth = soft_body(
        w,
        &soft_grid(12, 0.1875),
        DVec3::new(0.0, 2.0, 0.0),
        maul3d::SoftBodySettings {
            damping: 0.5,
            ..Default::default()
        },
    );
    w.set_soft_particle_pinned(cloth, 0, true).unwrap();
    w.set_soft_particle_pinned(cloth, 11, true).unwrap();
    let b = dynamic(w, DVec3::new(1.0, 1.8, 1.0), Quat::IDENTITY);
    w.create_box_shape(
        b,
        &ShapeDef {
            density: 50.0,
            ..Default::default()
        },
        Vec3::splat(0.15),
    )
    .unwrap();
    w.attach_soft_particle(cloth, 143, Some(b), Vec3::new(0.0, 0.15, 0.0))
        .unwrap();
    let ball = soft_ball(0.4, 2);
    soft_body(w, &ball, DVec3::new(-3.0, 1.5, 0.0), pressure_ball());
    soft_body(w, &ball, DVec3::new(3.0, 1.0, 0.0), volume_ball());
}

/// The soft scene's calls before step `step`.
fn soft_calls(w: &mut World, step: u32, snapshot: &mut Vec<u8>) {
    let ids: Vec<maul3d::SoftBodyId> = w.soft_body_ids().collect();
    match step {
        60 => w.set_soft_particle_pinned(ids[0], 11, false).unwrap(),
        90 => w
            .set_soft_particle_position(ids[0], 0, DVec3::new(-0.75, 2.0, -1.0))
            .unwrap(),
        100 => {
            w.apply_soft_body_impulse(ids[1], Vec3::new(1.0, 4.0, 0.0))
                .unwrap();
            w.apply_soft_particle_impulse(ids[2], 0, Vec3::new(0.0, 0.0, 0.5))
                .unwrap();
        }
        120 => {
            w.set_soft_particle_velocity(ids[0], 70, Vec3::new(0.0, 2.0, 0.0))
                .unwrap();
            let settings = maul3d::SoftBodySettings {
                friction: 0.9,
                substeps: 6,
                ..volume_ball()
            };
            w.set_soft_body_settings(ids[2], &settings).unwrap();
        }
        150 => {
            *snapshot = vec![0u8; w.snapshot_size()];
            w.snapshot(snapshot).unwrap();
        }
        180 => {
            // A soft body gone and one made; the box let go.
            w.destroy_soft_body(ids[2]).unwrap();
            let small = soft_body(
                w,
                &soft_grid(6, 0.1875),
                DVec3::new(3.0, 2.5, 0.0),
                maul3d::SoftBodySettings::default(),
            );
            w.set_soft_particle_pinned(small, 0, true).unwrap();
            w.attach_soft_particle(ids[0], 143, None, Vec3::ZERO)
                .unwrap();
        }
        220 => {
            // A rollback to step 150, then the pressure ball gone for a self-colliding
            // cloth, the volume ball teleported.
            w.restore(snapshot).unwrap();
            let ids: Vec<maul3d::SoftBodyId> = w.soft_body_ids().collect();
            w.destroy_soft_body(ids[1]).unwrap();
            soft_body(
                w,
                &soft_grid(6, 0.1875),
                DVec3::new(-3.0, 2.0, 0.0),
                maul3d::SoftBodySettings {
                    self_collision: true,
                    bend_compliance: 10.0,
                    ..Default::default()
                },
            );
            w.set_soft_body_transform(
                ids[2],
                DVec3::new(3.0, 1.5, 0.5),
                Quat::from_axis_angle(Vec3::Y, 0.5),
            )
            .unwrap();
        }
        260 => w
            .set_soft_body_filter(
                ids[0],
                Filter {
                    category_bits: 1,
                    mask_bits: 0,
                    group_index: 0,
                },
            )
            .unwrap(),
        _ => {}
    }
}

/// A scene and what it does between steps.
pub struct Driver {
    scene: usize,
    snapshot: Vec<u8>,
}

/// The solver lanes every world this program makes is forced to (0: left as dispatched;
/// 1 scalar, 4 four-wide, 8 eight-wide): `--lanes N` sets it, so the hash matrix runs a
/// cell with each path forced.
static FORCED_LANES: std::sync::atomic::AtomicU8 = std::sync::atomic::AtomicU8::new(0);

/// Forces the solver lanes of every world made from now on (`--lanes`); refused when the
/// CPU does not run them.
pub fn force_lanes(width: u8) -> Result<maul3d::SolverLanes, String> {
    let lanes = match width {
        1 => maul3d::SolverLanes::Scalar,
        4 => maul3d::SolverLanes::Four,
        8 => maul3d::SolverLanes::Eight,
        _ => return Err(format!("--lanes {width}: expected 1, 4 or 8")),
    };
    // Refused here, as the world would refuse it.
    let mut probe = World::new(&def(false)).map_err(|e| e.to_string())?;
    probe.set_solver_lanes(lanes).map_err(|e| e.to_string())?;
    FORCED_LANES.store(width, std::sync::atomic::Ordering::Relaxed);
    Ok(probe.solver_lanes())
}

/// Applies `force_lanes`'s choice to a new world; returns the lanes it solves in.
pub fn apply_lanes(w: &mut World) -> maul3d::SolverLanes {
    let lanes = match FORCED_LANES.load(std::sync::atomic::Ordering::Relaxed) {
        1 => Some(maul3d::SolverLanes::Scalar),
        4 => Some(maul3d::SolverLanes::Four),
        8 => Some(maul3d::SolverLanes::Eight),
        _ => None,
    };
    if let Some(lanes) = lanes {
        w.set_solver_lanes(lanes).expect("checked by force_lanes");
    }
    w.solver_lanes()
}

impl Driver {
    /// Builds scene `scene` into a world with `def` (capacities from `def()`).
    pub fn build(scene: usize, hooks: Option<maul3d::TaskHooks>) -> (World, Driver) {
        let sleep = matches!(scene, 1 | 3 | 4 | 5 | 6 | 7 | 8 | 10 | 11);
        let mut w = World::new(&WorldDef {
            task_hooks: hooks,
            ..def(sleep)
        })
        .unwrap();
        apply_lanes(&mut w);
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
            5 => joints_scene(&mut w),
            6 => cylinders_scene(&mut w),
            7 => meshes_scene(&mut w),
            8 => voxels_scene(&mut w),
            9 => characters_scene(&mut w),
            10 => vehicles_scene(&mut w),
            11 => water_scene(&mut w),
            12 => soft_scene(&mut w),
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
            5 if step == 150 => {
                // Pull the welded box (the last body) off its hook.
                let b = w.body_ids().last().unwrap();
                let m = w.body_mass_data(b).unwrap().mass;
                w.apply_force_to_center(b, Vec3::new(0.0, -60.0 * m, 0.0))
                    .unwrap();
            }
            5 if step == 220 => {
                // Cut the chain after its sixth link.
                let j = w.joint_ids().nth(26 + 6).unwrap();
                w.destroy_joint(j).unwrap();
            }
            8 if step == 120 => {
                // Dig a pit under the first pile and raise a wall in the next chunk.
                let grids: Vec<maul3d::MeshId> = w.mesh_ids().collect();
                w.fill_voxels(grids[0], [8, 0, 8], [15, 4, 15], 0).unwrap();
                w.fill_voxels(grids[3], [0, 0, 0], [1, 8, 15], 2).unwrap();
                w.set_voxel(grids[1], [3, 6, 3], 1).unwrap();
            }
            8 if step == 200 => {
                let g = w.mesh_ids().nth(2).unwrap();
                w.clear_voxel(g, [12, 1, 2]).unwrap();
            }
            9 => {
                walk_characters(w, step);
                if step == 100 {
                    // Characters 0 and 1 take higher steps and a gentler slope limit.
                    let ids: Vec<maul3d::CharacterId> = w.character_ids().collect();
                    let settings = maul3d::CharacterSettings {
                        step_height: 0.4,
                        max_slope_angle: 0.6,
                        ..w.character_settings(ids[0]).unwrap()
                    };
                    w.set_character_settings(ids[0], &settings).unwrap();
                    w.set_character_settings(ids[1], &settings).unwrap();
                }
                if step == 150 {
                    self.snapshot = vec![0u8; w.snapshot_size()];
                    w.snapshot(&mut self.snapshot).unwrap();
                }
                if step == 220 {
                    // A rollback mid-walk, then a character gone and one placed.
                    w.restore(&self.snapshot).unwrap();
                    let ids: Vec<maul3d::CharacterId> = w.character_ids().collect();
                    w.destroy_character(ids[5]).unwrap();
                    w.set_character_position(ids[4], DVec3::new(-1.0, 2.0, 1.0))
                        .unwrap();
                }
            }
            10 => {
                drive_vehicles(w, step);
                if step == 120 {
                    self.snapshot = vec![0u8; w.snapshot_size()];
                    w.snapshot(&mut self.snapshot).unwrap();
                }
                if step == 180 {
                    // A rollback mid-drive.
                    w.restore(&self.snapshot).unwrap();
                    drive_vehicles(w, 150);
                }
            }
            11 if step == 150 => {
                let id = w.water_volume_ids().next().unwrap();
                w.set_water_flow(id, Vec3::new(-0.5, 0.0, 0.0)).unwrap();
            }
            11 if step == 220 => {
                let id = w.water_volume_ids().next().unwrap();
                w.set_water_density(id, 1200.0).unwrap();
            }
            12 => soft_calls(w, step, &mut self.snapshot),
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
