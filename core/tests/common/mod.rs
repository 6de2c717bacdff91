//! Scene builders shared by the behaviour tests.
#![allow(dead_code)]

use maul3d::math::{DVec3, Quat, Vec3};
use maul3d::{BodyDef, BodyId, BodyType, ShapeDef, World, WorldDef};

pub const DT: f32 = 1.0 / 60.0;
pub const SUBSTEPS: u32 = 4;

pub fn world(enable_sleep: bool) -> World {
    World::new(&WorldDef {
        enable_sleep,
        body_capacity: 512,
        shape_capacity: 512,
        contact_capacity: 4096,
        pair_capacity: 4096,
        ..Default::default()
    })
    .unwrap()
}

/// A static ground box whose top face is at y = 0.
pub fn ground(world: &mut World, friction: f32) -> BodyId {
    let g = world
        .create_body(&BodyDef {
            position: DVec3::new(0.0, -1.0, 0.0),
            ..Default::default()
        })
        .unwrap();
    world
        .create_box_shape(
            g,
            &ShapeDef {
                friction,
                ..Default::default()
            },
            Vec3::new(100.0, 1.0, 100.0),
        )
        .unwrap();
    g
}

pub fn dynamic_box(world: &mut World, position: DVec3, half: Vec3, def: &ShapeDef) -> BodyId {
    let b = world
        .create_body(&BodyDef {
            body_type: BodyType::Dynamic,
            position,
            ..Default::default()
        })
        .unwrap();
    world.create_box_shape(b, def, half).unwrap();
    b
}

/// Box2D's pyramid: `levels` rows of unit cubes, the bottom row resting on y = 0.
pub fn pyramid(world: &mut World, levels: usize, offset: DVec3) -> Vec<BodyId> {
    let h = 0.5f64;
    let mut ids = Vec::new();
    for i in 0..levels {
        let y = (2 * i + 1) as f64 * h;
        for j in i..levels {
            let x = (i + 1) as f64 * h + 2.0 * (j - i) as f64 * h - h * levels as f64;
            ids.push(dynamic_box(
                world,
                DVec3::new(x + offset.x, y + offset.y, offset.z),
                Vec3::new(0.5, 0.5, 0.5),
                &ShapeDef::default(),
            ));
        }
    }
    ids
}

pub fn step_n(world: &mut World, n: usize) {
    for _ in 0..n {
        world.step(DT, SUBSTEPS).unwrap();
    }
}

pub fn rot_about_z(angle: f32) -> Quat {
    Quat::from_axis_angle(Vec3::Z, angle)
}

pub fn horizontal_distance(a: DVec3, b: DVec3) -> f64 {
    let (dx, dz) = (a.x - b.x, a.z - b.z);
    (dx * dx + dz * dz).sqrt()
}

/// A dynamic body with one capsule from `c1` to `c2` (body frame) and a filter group.
pub fn capsule_body(
    world: &mut World,
    position: DVec3,
    c1: Vec3,
    c2: Vec3,
    radius: f32,
    group: i32,
) -> BodyId {
    let b = world
        .create_body(&BodyDef {
            body_type: BodyType::Dynamic,
            position,
            ..Default::default()
        })
        .unwrap();
    world
        .create_capsule_shape(
            b,
            &ShapeDef {
                filter: maul3d::Filter {
                    group_index: group,
                    ..Default::default()
                },
                ..Default::default()
            },
            &maul3d::Capsule {
                center1: c1,
                center2: c2,
                radius,
            },
        )
        .unwrap();
    b
}

/// A joint of `kind` between `a` and `b` whose frame is at world point `anchor` with axes
/// `rotation`.
pub fn joint_at(
    world: &mut World,
    a: BodyId,
    b: BodyId,
    anchor: DVec3,
    rotation: Quat,
    kind: maul3d::JointKind,
) -> maul3d::JointId {
    let (fa, fb) = world.joint_frames_at(a, b, anchor, rotation).unwrap();
    world
        .create_joint(&maul3d::JointDef {
            body_a: a,
            body_b: b,
            local_frame_a: fa,
            local_frame_b: fb,
            kind,
            ..Default::default()
        })
        .unwrap()
}

/// A ragdoll of 14 capsule bones standing with its feet at `at`: cone-twist neck,
/// shoulders, hips and spine, revolute elbows, knees and ankles, a little joint friction.
/// Its bones never collide with each other (negative filter group `-group`).
pub fn ragdoll(world: &mut World, at: DVec3, group: i32) -> Vec<BodyId> {
    use maul3d::{ConeTwistJoint, JointKind, RevoluteJoint};
    let g = -group;
    let p = |x: f64, y: f64, z: f64| DVec3::new(at.x + x, at.y + y, at.z + z);
    let up = |h: f32| (Vec3::new(0.0, -h, 0.0), Vec3::new(0.0, h, 0.0));
    let mut bone = |x: f64, y: f64, z: f64, half: f32, r: f32| {
        let (c1, c2) = up(half);
        capsule_body(world, p(x, y, z), c1, c2, r, g)
    };
    let pelvis = bone(0.0, 1.0, 0.0, 0.05, 0.12);
    let spine = bone(0.0, 1.2, 0.0, 0.05, 0.11);
    let chest = bone(0.0, 1.42, 0.0, 0.07, 0.13);
    let head = bone(0.0, 1.72, 0.0, 0.04, 0.1);
    let arm_l = bone(-0.24, 1.36, 0.0, 0.1, 0.05);
    let fore_l = bone(-0.24, 1.06, 0.0, 0.1, 0.045);
    let arm_r = bone(0.24, 1.36, 0.0, 0.1, 0.05);
    let fore_r = bone(0.24, 1.06, 0.0, 0.1, 0.045);
    let thigh_l = bone(-0.1, 0.7, 0.0, 0.14, 0.07);
    let shin_l = bone(-0.1, 0.3, 0.0, 0.14, 0.055);
    let thigh_r = bone(0.1, 0.7, 0.0, 0.14, 0.07);
    let shin_r = bone(0.1, 0.3, 0.0, 0.14, 0.055);
    let foot = |world: &mut World, x: f64| {
        capsule_body(
            world,
            p(x, 0.05, 0.05),
            Vec3::new(0.0, 0.0, -0.06),
            Vec3::new(0.0, 0.0, 0.06),
            0.045,
            g,
        )
    };
    let foot_l = foot(world, -0.1);
    let foot_r = foot(world, 0.1);

    // Cone-twist frames: x along the limb (down for limbs, up for spine and neck).
    let down = Quat::from_axis_angle(Vec3::Z, -0.5 * core::f32::consts::PI);
    let upward = Quat::from_axis_angle(Vec3::Z, 0.5 * core::f32::consts::PI);
    // Revolute frames: hinge (z) along world x.
    let hinge = Quat::from_axis_angle(Vec3::Y, 0.5 * core::f32::consts::PI);
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
            motor_speed: 0.0,
            max_motor_torque: 0.5,
            ..Default::default()
        })
    };
    joint_at(
        world,
        pelvis,
        spine,
        p(0.0, 1.1, 0.0),
        upward,
        cone(0.4, 0.3),
    );
    joint_at(
        world,
        spine,
        chest,
        p(0.0, 1.31, 0.0),
        upward,
        cone(0.4, 0.3),
    );
    joint_at(world, chest, head, p(0.0, 1.6, 0.0), upward, cone(0.5, 0.6));
    joint_at(
        world,
        chest,
        arm_l,
        p(-0.24, 1.5, 0.0),
        down,
        cone(1.4, 0.8),
    );
    joint_at(world, chest, arm_r, p(0.24, 1.5, 0.0), down, cone(1.4, 0.8));
    joint_at(
        world,
        arm_l,
        fore_l,
        p(-0.24, 1.21, 0.0),
        hinge,
        knee(0.0, 2.2),
    );
    joint_at(
        world,
        arm_r,
        fore_r,
        p(0.24, 1.21, 0.0),
        hinge,
        knee(0.0, 2.2),
    );
    joint_at(
        world,
        pelvis,
        thigh_l,
        p(-0.1, 0.88, 0.0),
        down,
        cone(1.0, 0.4),
    );
    joint_at(
        world,
        pelvis,
        thigh_r,
        p(0.1, 0.88, 0.0),
        down,
        cone(1.0, 0.4),
    );
    joint_at(
        world,
        thigh_l,
        shin_l,
        p(-0.1, 0.5, 0.0),
        hinge,
        knee(-2.2, 0.0),
    );
    joint_at(
        world,
        thigh_r,
        shin_r,
        p(0.1, 0.5, 0.0),
        hinge,
        knee(-2.2, 0.0),
    );
    joint_at(
        world,
        shin_l,
        foot_l,
        p(-0.1, 0.1, 0.0),
        hinge,
        knee(-0.6, 0.6),
    );
    joint_at(
        world,
        shin_r,
        foot_r,
        p(0.1, 0.1, 0.0),
        hinge,
        knee(-0.6, 0.6),
    );
    vec![
        pelvis, spine, chest, head, arm_l, fore_l, arm_r, fore_r, thigh_l, shin_l, thigh_r, shin_r,
        foot_l, foot_r,
    ]
}

/// A chain of `links` capsules (0.5 m between joints) hanging straight down from a static
/// body at `top`, joined by spherical joints. Returns the static body and the links.
pub fn hanging_chain(world: &mut World, top: DVec3, links: usize) -> (BodyId, Vec<BodyId>) {
    let anchor = world
        .create_body(&BodyDef {
            position: top,
            ..Default::default()
        })
        .unwrap();
    let mut prev = anchor;
    let mut ids = Vec::new();
    for i in 0..links {
        let y = top.y - 0.25 - 0.5 * i as f64;
        let b = capsule_body(
            world,
            DVec3::new(top.x, y, top.z),
            Vec3::new(0.0, -0.2, 0.0),
            Vec3::new(0.0, 0.2, 0.0),
            0.06,
            0,
        );
        let joint_y = top.y - 0.5 * i as f64;
        joint_at(
            world,
            prev,
            b,
            DVec3::new(top.x, joint_y, top.z),
            Quat::IDENTITY,
            maul3d::JointKind::Spherical,
        );
        ids.push(b);
        prev = b;
    }
    (anchor, ids)
}
