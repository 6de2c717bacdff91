//! The op table, op by op: a session that makes every recorded call once, whose tape
//! must hold every kind of the table (so a new op without a round trip here fails), and
//! whose every prefix replays to the hash the recorder had after that call.

use super::ops::OPS;
use super::{TAPE_HEADER_SIZE, journal_record_ends};
use crate::area::{AreaGravity, AreaMode, AreaSettings};
use crate::body::{BodyDef, BodyType, MotionLocks};
use crate::combine::CombineRule;
use crate::content::VoxelGridDef;
use crate::def::WorldDef;
use crate::explosion::ExplosionDef;
use crate::geometry::height_field::HeightFieldDef;
use crate::geometry::{Capsule, Cylinder, PlaneShape, Sphere};
use crate::id::{BodyId, JointId, ShapeId};
use crate::joint::{
    ConeTwistJoint, DistanceJoint, JointDef, JointKind, RevoluteJoint, SixDofAxis, SixDofJoint,
    WeldJoint,
};
use crate::math::{DVec3, Quat, Transform, Vec3};
use crate::shape::{Filter, ShapeDef};
use crate::world::World;

fn def() -> WorldDef {
    WorldDef {
        body_capacity: 32,
        shape_capacity: 32,
        contact_capacity: 512,
        pair_capacity: 512,
        hull_capacity: 2,
        mesh_capacity: 4,
        joint_capacity: 16,
        ..Default::default()
    }
}

fn snapshot(w: &World) -> std::vec::Vec<u8> {
    let mut buf = std::vec![0u8; w.snapshot_size()];
    w.snapshot(&mut buf).unwrap();
    buf
}

fn twin(snap: &[u8]) -> World {
    let mut w = World::new(&World::def_from_snapshot(snap).unwrap()).unwrap();
    w.restore(snap).unwrap();
    w
}

/// A session being recorded, with the world's hash after each recorded call.
struct Session {
    w: World,
    after: std::vec::Vec<u64>,
}

impl Session {
    /// Makes one call that records one record, and keeps the hash after it.
    fn call<T>(&mut self, f: impl FnOnce(&mut World) -> T) -> T {
        let r = f(&mut self.w);
        self.after.push(self.w.hash());
        r
    }
}

/// Bodies and every kind of shape; returns the dynamic bodies and two of their shapes.
fn bodies_and_shapes(s: &mut Session) -> (std::vec::Vec<BodyId>, ShapeId, ShapeId) {
    let sd = ShapeDef::default();
    let ground = s.call(|w| w.create_body(&BodyDef::default())).unwrap();
    s.call(|w| w.create_box_shape(ground, &sd, Vec3::new(10.0, 0.5, 10.0)))
        .unwrap();
    let dynamic = |p: DVec3| BodyDef {
        body_type: BodyType::Dynamic,
        position: p,
        ..Default::default()
    };
    let b: std::vec::Vec<_> = (0..6)
        .map(|i| {
            s.call(|w| w.create_body(&dynamic(DVec3::new(i as f64 * 1.5 - 4.0, 2.0, 0.0))))
                .unwrap()
        })
        .collect();
    let sphere = Sphere {
        center: Vec3::ZERO,
        radius: 0.4,
    };
    let s0 = s
        .call(|w| w.create_sphere_shape(b[0], &sd, &sphere))
        .unwrap();
    let capsule = Capsule {
        center1: Vec3::new(0.0, -0.3, 0.0),
        center2: Vec3::new(0.0, 0.3, 0.0),
        radius: 0.2,
    };
    s.call(|w| w.create_capsule_shape(b[1], &sd, &capsule))
        .unwrap();
    let cylinder = Cylinder {
        center: Vec3::ZERO,
        rotation: Quat::IDENTITY,
        half_height: 0.3,
        radius: 0.3,
    };
    s.call(|w| w.create_cylinder_shape(b[2], &sd, &cylinder))
        .unwrap();
    let points = [
        Vec3::new(-0.3, -0.3, -0.3),
        Vec3::new(0.3, -0.3, -0.3),
        Vec3::new(0.0, 0.3, -0.3),
        Vec3::new(0.0, 0.0, 0.3),
    ];
    let hull = s.call(|w| w.create_hull(&points)).unwrap();
    s.call(|w| w.create_hull_shape(b[3], &sd, hull)).unwrap();
    let spare = s.call(|w| w.create_hull(&points)).unwrap();
    s.call(|w| w.destroy_hull(spare)).unwrap();
    let s4 = s
        .call(|w| w.create_box_shape(b[4], &sd, Vec3::splat(0.3)))
        .unwrap();
    s.call(|w| w.create_box_shape(b[5], &sd, Vec3::splat(0.3)))
        .unwrap();
    let ray = crate::RayShape {
        origin: Vec3::new(0.0, -0.3, 0.0),
        direction: Vec3::new(0.0, -2.0, 0.0),
        length: 0.5,
        slide_on_slope: true,
    };
    s.call(|w| w.create_ray_shape(b[5], &sd, &ray)).unwrap();
    let plane = s.call(|w| w.create_body(&BodyDef::default())).unwrap();
    s.call(|w| w.create_plane_shape(plane, &sd, &PlaneShape::default()))
        .unwrap();
    (b, s0, s4)
}

/// Meshes, height fields and voxel grids.
fn content(s: &mut Session) {
    let sd = ShapeDef::default();
    let vertices = [
        Vec3::new(-2.0, 0.0, -2.0),
        Vec3::new(2.0, 0.0, -2.0),
        Vec3::new(0.0, 0.0, 2.0),
    ];
    let mesh = s.call(|w| w.create_mesh(&vertices, &[[0, 2, 1]])).unwrap();
    let floor = s
        .call(|w| {
            w.create_body(&BodyDef {
                position: DVec3::new(20.0, 0.0, 0.0),
                ..Default::default()
            })
        })
        .unwrap();
    s.call(|w| w.create_mesh_shape(floor, &sd, mesh)).unwrap();
    let heights = [0.0, 0.1, 0.2, 0.3];
    let field = s
        .call(|w| {
            w.create_height_field(&HeightFieldDef {
                count_x: 2,
                count_z: 2,
                heights: &heights,
                holes: &[true],
                scale: Vec3::new(1.0, 1.0, 1.0),
            })
        })
        .unwrap();
    s.call(|w| w.destroy_mesh(field)).unwrap();
    let mut data = [0u8; 4096];
    data[..16].fill(1);
    let grid = s
        .call(|w| {
            w.create_voxel_grid(&VoxelGridDef {
                voxel_size: 0.5,
                data: &data,
                origin: Vec3::new(0.0, 0.0, 30.0),
            })
        })
        .unwrap();
    s.call(|w| w.set_voxel(grid, [1, 1, 1], 2)).unwrap();
    s.call(|w| w.fill_voxels(grid, [0, 2, 0], [3, 3, 3], 1))
        .unwrap();
}

/// Every body and shape setter.
fn setters(s: &mut Session, b: &[BodyId], s0: ShapeId, s4: ShapeId) {
    s.call(|w| w.set_body_transform(b[0], DVec3::new(-4.0, 3.0, 0.5), Quat::IDENTITY))
        .unwrap();
    s.call(|w| w.set_body_velocity(b[0], Vec3::new(1.0, 0.0, 0.0), Vec3::ZERO))
        .unwrap();
    s.call(|w| w.apply_force_to_center(b[1], Vec3::new(0.0, 5.0, 0.0)))
        .unwrap();
    s.call(|w| w.apply_force(b[1], Vec3::new(1.0, 0.0, 0.0), DVec3::new(-2.5, 2.2, 0.0)))
        .unwrap();
    s.call(|w| w.apply_torque(b[2], Vec3::new(0.0, 1.0, 0.0)))
        .unwrap();
    s.call(|w| w.apply_linear_impulse(b[2], Vec3::new(0.0, 1.0, 0.0), DVec3::new(-1.0, 2.0, 0.1)))
        .unwrap();
    s.call(|w| w.apply_angular_impulse(b[3], Vec3::new(0.1, 0.0, 0.0)))
        .unwrap();
    s.call(|w| w.set_body_type(b[5], BodyType::Kinematic))
        .unwrap();
    s.call(|w| w.set_body_enabled(b[5], false)).unwrap();
    s.call(|w| w.set_body_awake(b[4], false)).unwrap();
    s.call(|w| w.set_body_sleep_enabled(b[4], false)).unwrap();
    s.call(|w| w.set_body_sleep_threshold(b[3], 0.1)).unwrap();
    s.call(|w| w.set_body_damping(b[3], 0.2, 0.3)).unwrap();
    s.call(|w| w.set_body_gravity_scale(b[2], 0.5)).unwrap();
    s.call(|w| w.set_body_motion_locks(b[1], MotionLocks::FIXED_ROTATION))
        .unwrap();
    s.call(|w| w.set_body_bullet(b[0], true)).unwrap();
    let mass = s.w.body_mass_data(b[0]).unwrap();
    s.call(|w| w.set_body_mass_data(b[0], Some(mass))).unwrap();
    s.call(|w| w.set_body_user_data(b[0], 7)).unwrap();
    s.call(|w| w.set_body_custom_integrator(b[2], true))
        .unwrap();
    s.call(|w| w.wake_bodies_touching(b[4])).unwrap();

    // Shapes.
    s.call(|w| w.set_shape_friction(s0, 0.3)).unwrap();
    s.call(|w| w.set_shape_restitution(s0, 0.2)).unwrap();
    s.call(|w| w.set_shape_rough(s0, true)).unwrap();
    s.call(|w| w.set_shape_absorbent(s4, true)).unwrap();
    s.call(|w| w.set_shape_two_sided(s4, true)).unwrap();
    s.call(|w| w.set_shape_rolling_resistance(s0, 0.05))
        .unwrap();
    s.call(|w| w.set_shape_density(s4, 300.0)).unwrap();
    let filter = Filter {
        group_index: -1,
        ..Default::default()
    };
    s.call(|w| w.set_shape_filter(s4, filter)).unwrap();
    let sensor = ShapeDef {
        is_sensor: true,
        rough: true,
        absorbent: true,
        two_sided: true,
        ..Default::default()
    };
    let area = s
        .call(|w| w.create_box_shape(b[0], &sensor, Vec3::splat(0.5)))
        .unwrap();
    let settings = AreaSettings {
        gravity_mode: AreaMode::Combine,
        gravity: AreaGravity::Directional(Vec3::new(0.0, 2.0, 0.0)),
        ..Default::default()
    };
    s.call(|w| w.set_shape_area(area, Some(settings))).unwrap();
    s.call(|w| w.set_sensor_detects_sensors(area, true))
        .unwrap();
    s.call(|w| w.set_shape_enable_sensor_events(area, false))
        .unwrap();
}

/// Every joint call but destroy; returns the joints.
fn joints(s: &mut Session, b: &[BodyId]) -> std::vec::Vec<JointId> {
    let frame = |x: f32| Transform::new(Vec3::new(x, 0.0, 0.0), Quat::IDENTITY);
    let kinds = [
        JointKind::Revolute(RevoluteJoint::default()),
        JointKind::Distance(DistanceJoint::default()),
        JointKind::ConeTwist(ConeTwistJoint::default()),
        JointKind::Weld(WeldJoint::default()),
        JointKind::SixDof(SixDofJoint::default()),
    ];
    let mut j = std::vec::Vec::new();
    for (k, kind) in kinds.into_iter().enumerate() {
        let joint = JointDef {
            body_a: b[k],
            body_b: b[k + 1],
            local_frame_a: frame(0.75),
            local_frame_b: frame(-0.75),
            kind,
            ..Default::default()
        };
        j.push(s.call(|w| w.create_joint(&joint)).unwrap());
    }
    s.call(|w| w.set_joint_enable_motor(j[0], true)).unwrap();
    s.call(|w| w.set_joint_motor_speed(j[0], 1.0)).unwrap();
    s.call(|w| w.set_joint_max_motor_force(j[0], 5.0)).unwrap();
    s.call(|w| w.set_joint_enable_limit(j[0], true)).unwrap();
    s.call(|w| w.set_joint_limits(j[0], -0.5, 0.5)).unwrap();
    s.call(|w| w.set_joint_limit_spring(j[0], 4.0, 0.3))
        .unwrap();
    // An own pivot softness (spare bit 1 of the joint's flags byte).
    s.call(|w| w.set_joint_pivot_spring(j[0], 2.0, 0.7))
        .unwrap();
    s.call(|w| w.set_joint_enable_spring(j[1], true)).unwrap();
    s.call(|w| w.set_joint_spring(j[1], 2.0, 0.5)).unwrap();
    s.call(|w| w.set_distance_length(j[1], 1.5)).unwrap();
    s.call(|w| w.set_distance_range(j[1], 1.0, 2.0)).unwrap();
    s.call(|w| w.set_joint_break_thresholds(j[2], 1.0e6, 1.0e6))
        .unwrap();
    s.call(|w| w.set_joint_collide_connected(j[2], true))
        .unwrap();
    s.call(|w| w.set_joint_user_data(j[2], 3)).unwrap();
    s.call(|w| w.set_cone_swing_limit(j[2], 0.3)).unwrap();
    s.call(|w| w.set_weld_spring(j[3], 1.0, 1.0, 0.5)).unwrap();
    s.call(|w| w.set_six_dof_axis(j[4], 0, SixDofAxis::FREE))
        .unwrap();
    // The spring's target and stiffness spring (spare bits of the axis's mode byte).
    let sprung = SixDofAxis {
        spring_target: 0.2,
        spring_stiffness: 50.0,
        spring_damping: 1.0,
        ..SixDofAxis::FREE
    };
    s.call(|w| w.set_six_dof_axis(j[4], 1, sprung)).unwrap();
    // A soft limit on a limited axis (spare bit 5 of the axis's mode byte).
    let limited = SixDofAxis {
        mode: crate::AxisMode::Limited {
            lower: -0.5,
            upper: 0.5,
        },
        ..SixDofAxis::FREE
    };
    s.call(|w| w.set_six_dof_axis(j[4], 2, limited)).unwrap();
    s.call(|w| w.set_six_dof_limit_spring(j[4], 2, 3.0, 0.4))
        .unwrap();
    s.call(|w| w.set_joint_damping_ratio(2.0)).unwrap();
    j
}

/// Every character call.
fn characters(s: &mut Session) {
    let def = crate::CharacterDef {
        position: DVec3::new(8.0, 2.0, 0.0),
        ..Default::default()
    };
    let c = s.call(|w| w.create_character(&def)).unwrap();
    let d = s.call(|w| w.create_character(&def)).unwrap();
    s.call(|w| w.move_character(c, Vec3::new(1.0, -2.0, 0.0), 1.0 / 60.0))
        .unwrap();
    s.call(|w| w.set_character_position(d, DVec3::new(12.0, 2.0, 0.0)))
        .unwrap();
    let settings = crate::CharacterSettings {
        step_height: 0.2,
        ..Default::default()
    };
    s.call(|w| w.set_character_settings(c, &settings)).unwrap();
    s.call(|w| w.destroy_character(d)).unwrap();
}

/// A vehicle on `chassis` (destroyed with it later), its input and gear, and one made and
/// destroyed.
fn vehicles(s: &mut Session, chassis: BodyId) {
    let mut def = crate::VehicleDef {
        chassis,
        ..Default::default()
    };
    for x in [-0.3, 0.3] {
        def.add_wheel(crate::WheelDef {
            position: Vec3::new(x, 0.0, 0.0),
            driven: true,
            max_steer_angle: 0.3,
            ..Default::default()
        });
    }
    let v = s.call(|w| w.create_vehicle(&def)).unwrap();
    let input = crate::VehicleInput {
        throttle: 0.5,
        steering: -0.2,
        brake: 0.1,
        handbrake: 0.0,
    };
    s.call(|w| w.set_vehicle_input(v, input)).unwrap();
    s.call(|w| w.set_vehicle_gear(v, -1)).unwrap();
    let other = s.call(|w| w.create_vehicle(&def)).unwrap();
    s.call(|w| w.destroy_vehicle(other)).unwrap();
}

/// Makes every recorded call at least once; returns the world's hash after each
/// recorded call, in tape order.
fn every_call(w: World) -> (World, std::vec::Vec<u64>) {
    let mut s = Session {
        w,
        after: std::vec::Vec::new(),
    };
    let (b, s0, s4) = bodies_and_shapes(&mut s);
    vehicles(&mut s, b[5]);
    content(&mut s);
    setters(&mut s, &b, s0, s4);
    let j = joints(&mut s, &b);
    let wv = s
        .call(|w| w.create_water_volume(&crate::WaterVolumeDef::default()))
        .unwrap();
    s.call(|w| w.set_water_volume(wv, &crate::WaterVolumeDef::default()))
        .unwrap();
    s.call(|w| w.set_water_density(wv, 900.0)).unwrap();
    s.call(|w| w.set_water_drag(wv, 2.0, 0.5)).unwrap();
    s.call(|w| w.set_water_flow(wv, Vec3::new(0.5, 0.0, 0.0)))
        .unwrap();
    s.call(|w| {
        w.set_water_region(
            wv,
            DVec3::new(0.0, -4.0, 0.0),
            Quat::IDENTITY,
            Vec3::new(9.0, 4.0, 9.0),
        )
    })
    .unwrap();
    s.call(|w| w.destroy_water_volume(wv)).unwrap();
    soft_bodies(&mut s, b[5]);
    characters(&mut s);
    s.call(|w| w.set_gravity(Vec3::new(0.0, -9.0, 0.1)))
        .unwrap();
    s.call(|w| w.enable_sleep(false));
    s.call(|w| w.set_combine_rules(CombineRule::Min, CombineRule::ClampedSum));
    s.call(|w| w.step(1.0 / 60.0, 4)).unwrap();
    s.call(|w| {
        let c = w.capacities();
        w.grow(&crate::Capacities {
            body_capacity: c.body_capacity * 2,
            contact_capacity: c.contact_capacity + 7,
            ..c
        })
    })
    .unwrap();
    s.call(|w| {
        w.explode(&ExplosionDef {
            position: DVec3::new(-1.0, 1.0, 0.0),
            radius: 3.0,
            ..Default::default()
        })
    })
    .unwrap();
    s.call(|w| w.shift_origin(DVec3::new(1.0, 0.0, -1.0)))
        .unwrap();
    s.call(|w| w.step(1.0 / 60.0, 4)).unwrap();
    s.call(|w| w.destroy_joint(j[4])).unwrap();
    s.call(|w| w.destroy_shape(s4)).unwrap();
    s.call(|w| w.destroy_body(b[5])).unwrap();
    (s.w, s.after)
}

#[test]
fn every_op_of_the_table_round_trips_to_the_recorded_hash() {
    let mut w = World::new(&def()).unwrap();
    let start = snapshot(&w);
    w.start_journal(1 << 20).unwrap();
    let (mut w, after) = every_call(w);
    w.stop_journal().unwrap();
    let tape = w.journal_tape().to_vec();

    // Every record of the tape, with the kind it holds.
    let mut records = std::vec::Vec::new();
    let mut begin = TAPE_HEADER_SIZE;
    journal_record_ends(&tape, |end, _| {
        records.push((u16::from_le_bytes([tape[begin + 4], tape[begin + 5]]), end));
        begin = end;
    })
    .unwrap();
    assert_eq!(records.len(), after.len(), "one record per accepted call");

    // The session covers the whole table, and the table names each kind once.
    let mut table: std::vec::Vec<u16> = OPS.iter().map(|&(k, _)| k).collect();
    table.sort_unstable();
    let unique = table.len();
    table.dedup();
    assert_eq!(table.len(), unique, "a kind number is used twice");
    for &(kind, name) in OPS {
        assert!(
            records.iter().any(|&(k, _)| k == kind),
            "op {name} (kind {kind}) is not exercised"
        );
    }

    // Each prefix replays to the hash the recorder had after that call.
    for (&(kind, end), &hash) in records.iter().zip(&after) {
        let mut t = twin(&start);
        t.replay_journal(&tape[..end]).unwrap();
        assert_eq!(t.hash(), hash, "after a record of kind {kind}");
    }
    let mut t = twin(&start);
    t.replay_journal(&tape).unwrap();
    assert_eq!(t.hash(), w.hash());
}

/// Every soft body call.
fn soft_bodies(s: &mut Session, body: crate::BodyId) {
    let v = [
        Vec3::new(0.0, 0.0, 0.0),
        Vec3::new(1.0, 0.0, 0.0),
        Vec3::new(0.0, 0.0, 1.0),
        Vec3::new(1.0, 0.0, 1.0),
    ];
    let t = [[0u32, 2, 1], [1, 2, 3]];
    let def = crate::SoftBodyDef {
        vertices: &v,
        triangles: &t,
        position: DVec3::new(0.0, 4.0, 0.0),
        ..Default::default()
    };
    let id = s.call(|w| w.create_soft_body(&def)).unwrap();
    let settings = crate::SoftBodySettings {
        pressure: 10.0,
        ..Default::default()
    };
    s.call(|w| w.set_soft_body_settings(id, &settings)).unwrap();
    s.call(|w| w.set_soft_body_filter(id, crate::Filter::default()))
        .unwrap();
    s.call(|w| w.set_soft_particle_pinned(id, 0, true)).unwrap();
    s.call(|w| w.set_soft_particle_position(id, 0, DVec3::new(0.0, 4.5, 0.0)))
        .unwrap();
    s.call(|w| w.set_soft_particle_velocity(id, 1, Vec3::new(0.0, 1.0, 0.0)))
        .unwrap();
    s.call(|w| w.apply_soft_particle_impulse(id, 2, Vec3::new(0.1, 0.0, 0.0)))
        .unwrap();
    s.call(|w| w.apply_soft_body_impulse(id, Vec3::new(0.0, 0.5, 0.0)))
        .unwrap();
    s.call(|w| w.attach_soft_particle(id, 3, Some(body), Vec3::ZERO))
        .unwrap();
    s.call(|w| w.set_soft_body_ignores_body(id, body, true))
        .unwrap();
    s.call(|w| w.step(1.0 / 60.0, 2)).unwrap();
    s.call(|w| w.set_soft_body_ignores_body(id, body, false))
        .unwrap();
    s.call(|w| w.attach_soft_particle(id, 3, None, Vec3::ZERO))
        .unwrap();
    s.call(|w| {
        w.set_soft_body_transform(id, DVec3::new(0.0, 5.0, 0.0), crate::math::Quat::IDENTITY)
    })
    .unwrap();
    s.call(|w| w.destroy_soft_body(id)).unwrap();
}
