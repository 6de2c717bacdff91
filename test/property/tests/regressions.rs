//! Minimised failures of the property test (issue 12). Each is a case that broke a
//! promise when it was found, cut down with
//! `cargo run -p maul3d-property --profile test -- --minimise-seed SEED --class CLASS`;
//! the comment above each says what broke then. They fail until the core bug behind them
//! is fixed, then keep it fixed. `check` runs a case with every check of
//! `maul3d_property::exec` and lists every promise it breaks.
#![allow(clippy::approx_constant, clippy::excessive_precision)]

use maul3d_property::check;
use maul3d_property::ops::JointD::*;
use maul3d_property::ops::Op::*;
use maul3d_property::ops::*;

/// Issue 12 (2): two bodies far apart on a joint reach tens of km/s with max_linear_speed 400.
///
/// Seed 30 (Scene(3), 300 ops), minimised to 5 ops.
/// op 4: SpeedLimit: after step(0.033333335, 4) body BodyId { index: 1, generation: 1 } moves at 62858.14453125 m/s (Vec3 { x: 0.0, y: 0.0, z: 62858.145 }), max_linear_speed 400
#[test]
fn bodies_joined_far_apart_stay_within_the_speed_limit() {
    check(&Case {
        config: WorldConfig {
            gravity: [F(0.0), F(-10.0), F(0.0)],
            restitution_threshold: F(1.0),
            contact_hertz: F(30.0),
            contact_damping_ratio: F(10.0),
            contact_push_max_speed: F(3.0),
            joint_damping_ratio: F(2.0),
            max_linear_speed: F(400.0),
            hit_event_threshold: F(1.0),
            enable_sleep: false,
            capacities: [1024, 1024, 4096, 4096, 16, 1024, 16, 1024, 256],
            content_capacity: 67108864,
            task_workers: 0,
        },
        ops: vec![
            CreateBody {
                def: BodyD {
                    ty: 2,
                    position: [D(-10.085419232212397), D(2097151.0), D(-8.685893318538268)],
                    rotation: [F(0.16810672), F(-0.5478497), F(-0.5481284), F(0.60922587)],
                    linear: [F(-4.9107375), F(-4.793856), F(1.3657696)],
                    angular: [F(-1.1116679), F(1e-30), F(10000.0)],
                    linear_damping: F(0.0),
                    angular_damping: F(0.0),
                    gravity_scale: F(1.0),
                    sleep_threshold: F(0.05),
                    flags: 11,
                    locks: 51,
                },
            },
            CreateBox {
                body: 2147483647,
                def: ShapeD {
                    density: F(100000.0),
                    friction: F(0.92723227),
                    restitution: F(0.0),
                    rolling: F(0.0),
                    category: 1,
                    mask: 18446744073709551615,
                    group: 0,
                    flags: 5,
                },
                half: [F(0.21976452), F(1e-6), F(0.74364823)],
                center: None,
            },
            CreateBody {
                def: BodyD {
                    ty: 2,
                    position: [
                        D(-6.6577020933822855),
                        D(3.3766297178527536),
                        D(10.809709301026),
                    ],
                    rotation: [F(-0.6349489), F(-0.66897935), F(-0.18977083), F(0.33659104)],
                    linear: [F(4.584033), F(-4.4054456), F(-1.7521472)],
                    angular: [F(0.102493025), F(2.9296715), F(0.20245036)],
                    linear_damping: F(0.0),
                    angular_damping: F(0.0),
                    gravity_scale: F(1.0),
                    sleep_threshold: F(0.05),
                    flags: 11,
                    locks: 0,
                },
            },
            CreateJoint {
                spec: JointSpec {
                    a: 283723325,
                    b: 151890442,
                    frame_a: (
                        [F(0.18458527), F(-0.38330588), F(-0.9468191)],
                        [F(0.12879203), F(0.52030975), F(0.36359465), F(0.7618985)],
                    ),
                    frame_b: (
                        [F(0.83196056), F(-0.53821117), F(0.17901146)],
                        [F(-0.049545012), F(-0.07847507), F(0.09431063), F(0.9912076)],
                    ),
                    world_anchor: None,
                    collide: false,
                    break_force: F(3.4028235e38),
                    break_torque: F(3.4028235e38),
                    kind: Spherical,
                },
            },
            Step {
                dt: F(0.033333335),
                substeps: 4,
            },
        ],
    });
}

/// Issue 12 (2): joint-driven bodies step past the velocity range restore accepts, so the world's own snapshot is refused.
///
/// Seed 30 (Scene(3), 300 ops), minimised to 7 ops.
/// op 6: SpeedLimit: after step(0.083225936, 4) body BodyId { index: 2, generation: 1 } moves at 100131.78709753342 m/s (Vec3 { x: -6387.847, y: -88557.47, z: 46294.113 }), max_linear_speed 400
/// op 7: OwnSnapshotRefused: at the end: restore refused the world's own snapshot: damaged data: body velocity, force, damping or threshold out of range; fastest: BodyId { index: 4, generation: 1 } Some(Dynamic) p Some(DVec3 { x: 3258.561749014305, y: 1974.9851490638684, z: 647.641825609142 }) v Vec3 { x: 55150.703, y: 78848.33, z: 45443.24 } w Vec3 { x: -533948.6, y: -530530.0, z: 452411.84 }; B …
#[test]
fn a_world_with_far_apart_joints_restores_its_own_snapshot() {
    check(&Case {
        config: WorldConfig {
            gravity: [F(0.0), F(-10.0), F(0.0)],
            restitution_threshold: F(1.0),
            contact_hertz: F(30.0),
            contact_damping_ratio: F(10.0),
            contact_push_max_speed: F(3.0),
            joint_damping_ratio: F(2.0),
            max_linear_speed: F(400.0),
            hit_event_threshold: F(1.0),
            enable_sleep: false,
            capacities: [1024, 1024, 4096, 4096, 16, 1024, 16, 1024, 256],
            content_capacity: 67108864,
            task_workers: 0,
        },
        ops: vec![
            Pile {
                n: 4,
                kind: 4,
                origin: [
                    D(-14.421607938339626),
                    D(9.74491468889929),
                    D(-14.298745699063355),
                ],
                spacing: F(2.018025),
                size: F(0.44228947),
            },
            CreateBody {
                def: BodyD {
                    ty: 2,
                    position: [D(-5.795693236309887), D(3.974033815121728), D(100000.0)],
                    rotation: [F(0.44534948), F(0.82045174), F(0.018694166), F(0.3580129)],
                    linear: [F(1000.0), F(1000.0), F(10000.0)],
                    angular: [F(-10000.0), F(1.195387), F(-2.3959105)],
                    linear_damping: F(1000000.0),
                    angular_damping: F(0.0),
                    gravity_scale: F(1.0),
                    sleep_threshold: F(0.0),
                    flags: 11,
                    locks: 0,
                },
            },
            Step {
                dt: F(10.0),
                substeps: 8,
            },
            CreateBody {
                def: BodyD {
                    ty: 0,
                    position: [
                        D(-13.086445248572746),
                        D(1.9481182029612143),
                        D(8.690496504833838),
                    ],
                    rotation: [F(0.102493085), F(-0.07488926), F(-0.12537885), F(0.9839547)],
                    linear: [F(0.0), F(0.0), F(0.0)],
                    angular: [F(0.0), F(0.0), F(0.0)],
                    linear_damping: F(0.033316776),
                    angular_damping: F(0.0),
                    gravity_scale: F(1.0),
                    sleep_threshold: F(0.3449135),
                    flags: 10,
                    locks: 0,
                },
            },
            CreateJoint {
                spec: JointSpec {
                    a: 820458435,
                    b: 721787083,
                    frame_a: (
                        [F(0.21162178), F(-0.5868458), F(1000000.0)],
                        [F(0.15038079), F(0.5759325), F(0.32891652), F(0.7331448)],
                    ),
                    frame_b: (
                        [F(0.423003), F(-0.073316835), F(-0.63686246)],
                        [F(0.15279137), F(0.32158774), F(-0.33907548), F(0.8707835)],
                    ),
                    world_anchor: Some([
                        D(-11.441499841423207),
                        D(13.297001355585547),
                        D(1000000.0),
                    ]),
                    collide: false,
                    break_force: F(3.4028235e37),
                    break_torque: F(3.4028235e38),
                    kind: Revolute {
                        limit: false,
                        lower: F(-1e-6),
                        upper: F(0.66973704),
                        motor: true,
                        speed: F(-4.7748995),
                        torque: F(58.74938),
                        spring: false,
                        hertz: F(1e-45),
                        damping: F(-0.0),
                    },
                },
            },
            CreatePlane {
                body: 2147483647,
                def: ShapeD {
                    density: F(422.79898),
                    friction: F(0.626368),
                    restitution: F(0.0),
                    rolling: F(0.0),
                    category: 1,
                    mask: 18446744073709551615,
                    group: 0,
                    flags: 5,
                },
                normal: [F(0.37534982), F(0.84849703), F(0.96889377)],
                offset: F(-1.8538612),
            },
            Step {
                dt: F(0.083225936),
                substeps: 4,
            },
        ],
    });
}

/// Issue 12 (3): a sphere of radius 168,384 m spinning at 2,546 rad/s on a static box moves 3.57e6 m in one step while its velocity stays 0.
///
/// Seed 22 (Scene(2), 300 ops), minimised to 5 ops.
/// op 4: Displacement: step(0.033333335, 4) moved body BodyId { index: 2, generation: 1 } 3572547 m (from DVec3 { x: 0.0, y: 168384.00305555458, z: 0.0 } to DVec3 { x: -3572547.0, y: 168383.98842510837, z: 0.0 }), more than 2 × (max_linear_speed 400 + contact_push_max_speed 3) × dt; velocity now Vec3 { x: 0.0, y: -0.6666666, z: 0.0 }, angular Some(Vec3 { x: 0.0, y: 0.0, z: 2546.0 })
#[test]
fn a_huge_spinning_sphere_on_a_box_does_not_teleport() {
    check(&Case {
        config: WorldConfig {
            gravity: [F(0.0), F(-10.0), F(0.0)],
            restitution_threshold: F(1.0),
            contact_hertz: F(30.0),
            contact_damping_ratio: F(10.0),
            contact_push_max_speed: F(3.0),
            joint_damping_ratio: F(2.0),
            max_linear_speed: F(400.0),
            hit_event_threshold: F(1.0),
            enable_sleep: true,
            capacities: [1024, 1024, 4096, 4096, 16, 1024, 16, 1024, 256],
            content_capacity: 16384,
            task_workers: 0,
        },
        ops: vec![
            Ground {
                kind: 0,
                origin: [D(0.0), D(0.0), D(0.0)],
                size: F(1000000.0),
            },
            CreateBody {
                def: BodyD {
                    ty: 2,
                    position: [D(0.0), D(168384.01), D(0.0)],
                    rotation: [F(0.0), F(0.0), F(0.0), F(1.0)],
                    linear: [F(0.0), F(0.0), F(0.0)],
                    angular: [F(0.0), F(0.0), F(2546.0)],
                    linear_damping: F(0.0),
                    angular_damping: F(0.0),
                    gravity_scale: F(1.0),
                    sleep_threshold: F(0.05),
                    flags: 11,
                    locks: 0,
                },
            },
            CreateSphere {
                body: 2147483647,
                def: ShapeD {
                    density: F(100000.0),
                    friction: F(0.6),
                    restitution: F(0.0),
                    rolling: F(0.0),
                    category: 1,
                    mask: 18446744073709551615,
                    group: 0,
                    flags: 5,
                },
                center: [F(0.0), F(0.0), F(0.0)],
                radius: F(168384.0),
            },
            Step {
                dt: F(0.033333335),
                substeps: 4,
            },
            Step {
                dt: F(0.033333335),
                substeps: 4,
            },
        ],
    });
}

/// Issue 12 (3): a dynamic body with a 1e6 m cylinder (density 0) moves 78 m in one 1/120 s step.
///
/// Seed 1 (Small, 300 ops), minimised to 12 ops.
/// op 11: Displacement: step(0.008333334, 2) moved body BodyId { index: 3, generation: 1 } 78.00660397813951 m (from DVec3 { x: 26.51868940074928, y: 71.63365221116692, z: 52.46346878190525 } to DVec3 { x: -36.63980745594017, y: 37.011070729233325, z: 22.508312455611303 }), more than 2 × (max_linear_speed 726.4888916015625 + contact_push_max_speed 2.8462212085723877) × dt; velocity now Vec3 { x:  …
#[test]
fn a_body_with_a_huge_cylinder_moves_only_as_fast_as_its_speed_allows() {
    check(&Case {
        config: WorldConfig {
            gravity: [F(-0.6506661), F(14.693676), F(4.8507957)],
            restitution_threshold: F(1.6507524),
            contact_hertz: F(109.01372),
            contact_damping_ratio: F(19.128695),
            contact_push_max_speed: F(2.8462212),
            joint_damping_ratio: F(2.8753066),
            max_linear_speed: F(726.4889),
            hit_event_threshold: F(2.9252863),
            enable_sleep: false,
            capacities: [4, 9, 16, 1, 4, 32, 4, 2, 2],
            content_capacity: 67108864,
            task_workers: 0,
        },
        ops: vec![
            CreateBody {
                def: BodyD {
                    ty: 2,
                    position: [
                        D(0.037501101667537284),
                        D(10.744476488221736),
                        D(0.36223744983896466),
                    ],
                    rotation: [F(-0.1925076), F(0.4727854), F(-0.37913212), F(0.7717989)],
                    linear: [F(0.0), F(0.0), F(0.0)],
                    angular: [F(0.0), F(0.0), F(0.0)],
                    linear_damping: F(0.0),
                    angular_damping: F(0.0),
                    gravity_scale: F(1.8030065),
                    sleep_threshold: F(0.05),
                    flags: 15,
                    locks: 6,
                },
            },
            CreateCylinder {
                body: 2147483647,
                def: ShapeD {
                    density: F(2007.494),
                    friction: F(0.6088637),
                    restitution: F(0.0),
                    rolling: F(0.062256716),
                    category: 1,
                    mask: 18446744073709551615,
                    group: 0,
                    flags: 5,
                },
                center: [F(-0.20497167), F(-0.045762673), F(-0.08888906)],
                rotation: [F(0.2544979), F(-0.033609148), F(-0.17073436), F(0.9512892)],
                half_height: F(0.29146326),
                radius: F(0.84341836),
            },
            CreateBody {
                def: BodyD {
                    ty: 1,
                    position: [
                        D(-9.483804746071808),
                        D(1.5765680880530768),
                        D(11.025988188692757),
                    ],
                    rotation: [F(-0.06349235), F(-0.13684876), F(0.08098043), F(0.9852326)],
                    linear: [F(1.1086868), F(-0.45839712), F(-1.3653208)],
                    angular: [F(0.73692054), F(0.34849706), F(2.0363467)],
                    linear_damping: F(0.0),
                    angular_damping: F(0.0),
                    gravity_scale: F(1.0),
                    sleep_threshold: F(0.05),
                    flags: 15,
                    locks: 16,
                },
            },
            CreateBox {
                body: 2147483647,
                def: ShapeD {
                    density: F(1537.3175),
                    friction: F(0.49369577),
                    restitution: F(0.0),
                    rolling: F(0.12741946),
                    category: 1,
                    mask: 1,
                    group: 0,
                    flags: 5,
                },
                half: [F(0.5922395), F(0.6348794), F(0.24911168)],
                center: Some((
                    [F(-0.40088895), F(0.39567795), F(-0.46968612)],
                    [F(0.5811102), F(0.813281), F(-0.02875412), F(0.007632734)],
                )),
            },
            CreateBody {
                def: BodyD {
                    ty: 2,
                    position: [D(-9.93093439265318), D(1e-9), D(-12.652988203526938)],
                    rotation: [F(-0.094168745), F(0.13323137), F(-0.14094295), F(0.9764818)],
                    linear: [F(0.0), F(0.0), F(0.0)],
                    angular: [F(0.0), F(0.0), F(0.0)],
                    linear_damping: F(0.0),
                    angular_damping: F(0.7795398),
                    gravity_scale: F(1.0),
                    sleep_threshold: F(0.05),
                    flags: 11,
                    locks: 0,
                },
            },
            CreateCylinder {
                body: 2147483647,
                def: ShapeD {
                    density: F(0.0),
                    friction: F(0.50839454),
                    restitution: F(100.0),
                    rolling: F(0.0),
                    category: 1,
                    mask: 18446744073709551615,
                    group: 0,
                    flags: 4,
                },
                center: [F(0.005170336), F(0.114900835), F(0.15268387)],
                rotation: [F(0.5236625), F(0.69342095), F(0.49489295), F(-0.005092166)],
                half_height: F(0.64056325),
                radius: F(1000000.0),
            },
            CreateBody {
                def: BodyD {
                    ty: 2,
                    position: [D(-1200000.0), D(1000000.0), D(-1.3251842632236528)],
                    rotation: [F(-0.04294708), F(-0.6066571), F(0.11206155), F(0.785853)],
                    linear: [F(0.0), F(0.0), F(0.0)],
                    angular: [F(0.0), F(0.0), F(0.0)],
                    linear_damping: F(0.0),
                    angular_damping: F(0.0),
                    gravity_scale: F(1.0),
                    sleep_threshold: F(0.05),
                    flags: 11,
                    locks: 0,
                },
            },
            CreateJoint {
                spec: JointSpec {
                    a: 643430880,
                    b: 868543470,
                    frame_a: (
                        [F(-0.7013479), F(-0.21674763), F(-0.8735668)],
                        [F(0.016912766), F(0.5567298), F(0.7652576), F(0.3227177)],
                    ),
                    frame_b: (
                        [F(0.18201193), F(0.33955926), F(0.8344502)],
                        [F(0.059082936), F(-0.49613968), F(-0.10689813), F(0.8596089)],
                    ),
                    world_anchor: None,
                    collide: false,
                    break_force: F(3.4028235e38),
                    break_torque: F(8244.828),
                    kind: Spherical,
                },
            },
            Step {
                dt: F(0.016666668),
                substeps: 4,
            },
            Step {
                dt: F(0.016666668),
                substeps: 4,
            },
            Step {
                dt: F(10.0),
                substeps: 4,
            },
            Step {
                dt: F(0.008333334),
                substeps: 2,
            },
        ],
    });
}

/// Issue 12 (1): restore is not bit for bit: the restored twin's first step differs from the live world's (no contacts; a sensor plane's overlaps).
///
/// Seed 67 (Medium, 300 ops), minimised to 29 ops.
/// op 28: TwinDiverged: step(0.016666668, 1): live 0xffdee8766c43dafe != restored twin 0xa6fdf71dfddd31f4; 0 bodies differ []; contacts 0 vs 0, touching 0 vs 0
#[test]
fn a_restored_world_with_a_sensor_plane_steps_bit_for_bit() {
    check(&Case {
        config: WorldConfig {
            gravity: [F(0.0), F(-10.0), F(0.0)],
            restitution_threshold: F(0.0980324),
            contact_hertz: F(37.104958),
            contact_damping_ratio: F(1.6071413),
            contact_push_max_speed: F(4.3820615),
            joint_damping_ratio: F(2.4633334),
            max_linear_speed: F(835.77136),
            hit_event_threshold: F(4.987175),
            enable_sleep: true,
            capacities: [256, 256, 512, 128, 4, 32, 8, 256, 64],
            content_capacity: 1048576,
            task_workers: 0,
        },
        ops: vec![
            Ground {
                kind: 3,
                origin: [D(0.0), D(-1.5016119263263663), D(0.0)],
                size: F(20.0),
            },
            CreateBody {
                def: BodyD {
                    ty: 2,
                    position: [
                        D(-5.7906788004765595),
                        D(3.2114701637314704),
                        D(-9.720859254765532),
                    ],
                    rotation: [F(-0.051682778), F(0.0010005527), F(0.0133072), F(0.9985744)],
                    linear: [F(0.0), F(0.0), F(0.0)],
                    angular: [F(0.0), F(0.0), F(0.0)],
                    linear_damping: F(0.0),
                    angular_damping: F(0.0),
                    gravity_scale: F(1.6232059),
                    sleep_threshold: F(0.13385719),
                    flags: 11,
                    locks: 0,
                },
            },
            CreateBody {
                def: BodyD {
                    ty: 0,
                    position: [
                        D(4.452700998534937),
                        D(11.650739226790595),
                        D(2.533986592765263),
                    ],
                    rotation: [F(-0.48565683), F(0.41601652), F(0.09546764), F(0.76285887)],
                    linear: [F(4.106035), F(2.0281894), F(2.909237)],
                    angular: [F(50000.0), F(-2.3843353), F(-0.78062147)],
                    linear_damping: F(1e-30),
                    angular_damping: F(0.37954304),
                    gravity_scale: F(1.0),
                    sleep_threshold: F(0.1292325),
                    flags: 11,
                    locks: 10,
                },
            },
            CreateBody {
                def: BodyD {
                    ty: 1,
                    position: [
                        D(-7.1800563221711124),
                        D(11.951614130261254),
                        D(1.9854960311745344),
                    ],
                    rotation: [F(0.38684452), F(-0.36319196), F(0.513078), F(0.67468053)],
                    linear: [F(0.0), F(0.0), F(0.0)],
                    angular: [F(0.0), F(0.0), F(0.0)],
                    linear_damping: F(0.0),
                    angular_damping: F(0.0),
                    gravity_scale: F(1.0),
                    sleep_threshold: F(0.4580609),
                    flags: 11,
                    locks: 0,
                },
            },
            CreateBody {
                def: BodyD {
                    ty: 0,
                    position: [D(-2097151.0), D(8.61799858375726), D(2097151.9999999995)],
                    rotation: [F(0.011523016), F(-0.17582047), F(0.24543174), F(0.95326686)],
                    linear: [F(4.20888), F(4.4097905), F(3.9223316)],
                    angular: [F(0.4721775), F(-1.9210426), F(1e-30)],
                    linear_damping: F(0.0),
                    angular_damping: F(-0.0),
                    gravity_scale: F(1.0),
                    sleep_threshold: F(0.05),
                    flags: 15,
                    locks: 0,
                },
            },
            CreateBody {
                def: BodyD {
                    ty: 1,
                    position: [
                        D(-2.0063215552389106),
                        D(10.229351292144115),
                        D(6.118730713849548),
                    ],
                    rotation: [F(0.15294868), F(0.6806202), F(-0.6571224), F(0.28557482)],
                    linear: [F(0.0), F(0.0), F(0.0)],
                    angular: [F(0.0), F(0.0), F(0.0)],
                    linear_damping: F(0.58297783),
                    angular_damping: F(0.0),
                    gravity_scale: F(99999.99),
                    sleep_threshold: F(0.41340002),
                    flags: 9,
                    locks: 0,
                },
            },
            CreateBody {
                def: BodyD {
                    ty: 0,
                    position: [
                        D(-3.52877563506617),
                        D(10.255070728215467),
                        D(9.007528825957571),
                    ],
                    rotation: [F(-0.07608474), F(0.037545506), F(0.08545738), F(0.99272275)],
                    linear: [F(0.0), F(0.0), F(0.0)],
                    angular: [F(0.0), F(0.0), F(0.0)],
                    linear_damping: F(0.0),
                    angular_damping: F(0.0),
                    gravity_scale: F(1.0),
                    sleep_threshold: F(0.05),
                    flags: 1,
                    locks: 0,
                },
            },
            CreateSphere {
                body: 2147483647,
                def: ShapeD {
                    density: F(2328.8384),
                    friction: F(0.6792748),
                    restitution: F(0.57809114),
                    rolling: F(0.0),
                    category: 18446744073709551615,
                    mask: 18446744073709551615,
                    group: 0,
                    flags: 5,
                },
                center: [F(-0.18839288), F(0.16429406), F(0.04606906)],
                radius: F(0.6441791),
            },
            CreateBody {
                def: BodyD {
                    ty: 2,
                    position: [
                        D(4.999699636423408),
                        D(10.554045802747721),
                        D(0.8931780383008476),
                    ],
                    rotation: [F(-0.031525448), F(0.011220492), F(0.10770488), F(0.9936196)],
                    linear: [F(0.0), F(0.0), F(0.0)],
                    angular: [F(0.0), F(0.0), F(0.0)],
                    linear_damping: F(0.0),
                    angular_damping: F(0.0),
                    gravity_scale: F(1.0),
                    sleep_threshold: F(0.05),
                    flags: 11,
                    locks: 0,
                },
            },
            CreateBody {
                def: BodyD {
                    ty: 0,
                    position: [
                        D(10.826753484944458),
                        D(9.834266782145772),
                        D(-12.130472746467548),
                    ],
                    rotation: [F(-0.89188194), F(-0.28334728), F(0.32597575), F(0.13416642)],
                    linear: [F(0.0), F(0.0), F(0.0)],
                    angular: [F(0.0), F(0.0), F(0.0)],
                    linear_damping: F(0.0),
                    angular_damping: F(0.0),
                    gravity_scale: F(1.0),
                    sleep_threshold: F(0.05),
                    flags: 11,
                    locks: 0,
                },
            },
            CreateBody {
                def: BodyD {
                    ty: 2,
                    position: [
                        D(-13.654455931586849),
                        D(7.485009225089684),
                        D(-10.996549836484338),
                    ],
                    rotation: [F(0.05129506), F(-0.032231607), F(-0.02021302), F(0.9979586)],
                    linear: [F(0.0), F(0.0), F(0.0)],
                    angular: [F(0.0), F(0.0), F(0.0)],
                    linear_damping: F(0.5136265),
                    angular_damping: F(0.0),
                    gravity_scale: F(1.0),
                    sleep_threshold: F(0.05),
                    flags: 11,
                    locks: 0,
                },
            },
            CreateBody {
                def: BodyD {
                    ty: 0,
                    position: [
                        D(6.553585390934533),
                        D(9.634670138303887),
                        D(6.502595625544135),
                    ],
                    rotation: [F(-0.5655023), F(0.7892704), F(-0.018504212), F(0.23857325)],
                    linear: [F(0.0), F(0.0), F(0.0)],
                    angular: [F(0.0), F(0.0), F(0.0)],
                    linear_damping: F(0.21351701),
                    angular_damping: F(0.0),
                    gravity_scale: F(1.0),
                    sleep_threshold: F(0.05),
                    flags: 15,
                    locks: 0,
                },
            },
            CreateBody {
                def: BodyD {
                    ty: 2,
                    position: [
                        D(11.28980667810103),
                        D(3.8532621453515348),
                        D(12.585007000958807),
                    ],
                    rotation: [F(-0.61324376), F(0.5536889), F(0.50469154), F(0.25029397)],
                    linear: [F(0.0), F(0.0), F(0.0)],
                    angular: [F(0.0), F(0.0), F(0.0)],
                    linear_damping: F(0.21246974),
                    angular_damping: F(0.0),
                    gravity_scale: F(0.39351833),
                    sleep_threshold: F(0.05),
                    flags: 11,
                    locks: 0,
                },
            },
            CreateBody {
                def: BodyD {
                    ty: 2,
                    position: [
                        D(7.479380583220806),
                        D(8.168836566082474),
                        D(-11.218420363945587),
                    ],
                    rotation: [
                        F(-0.91044426),
                        F(-0.40308356),
                        F(0.09141189),
                        F(-0.016088432),
                    ],
                    linear: [F(0.0), F(0.0), F(0.0)],
                    angular: [F(0.0), F(0.0), F(0.0)],
                    linear_damping: F(0.6902005),
                    angular_damping: F(0.0),
                    gravity_scale: F(1.0),
                    sleep_threshold: F(0.05),
                    flags: 11,
                    locks: 0,
                },
            },
            DestroyBody { body: 380099650 },
            CreateBody {
                def: BodyD {
                    ty: 0,
                    position: [
                        D(2.051438674421906),
                        D(14.928150586389037),
                        D(-13.083218222791851),
                    ],
                    rotation: [
                        F(0.0008683035),
                        F(0.00067403144),
                        F(-4.0639192e-5),
                        F(8.894417e-6),
                    ],
                    linear: [F(0.0), F(0.0), F(0.0)],
                    angular: [F(0.0), F(0.0), F(0.0)],
                    linear_damping: F(0.0),
                    angular_damping: F(0.54700446),
                    gravity_scale: F(1.0),
                    sleep_threshold: F(0.05),
                    flags: 11,
                    locks: 0,
                },
            },
            Pile {
                n: 9,
                kind: 4,
                origin: [
                    D(13.675296811215098),
                    D(8.11798071814271),
                    D(3.7563551137675617),
                ],
                spacing: F(1.4001178),
                size: F(0.36812744),
            },
            Pile {
                n: 2,
                kind: 3,
                origin: [
                    D(-10.374082413778549),
                    D(3.8119093471359426),
                    D(-7.563697185048236),
                ],
                spacing: F(2.1803422),
                size: F(0.34466475),
            },
            CreateBody {
                def: BodyD {
                    ty: 1,
                    position: [
                        D(7.077834491869556),
                        D(11.256516263931916),
                        D(-6.296880650913572),
                    ],
                    rotation: [F(-0.6466593), F(0.3537787), F(-0.6757616), F(-0.0043216054)],
                    linear: [F(4.0270724), F(4.0318103), F(-4.1982965)],
                    angular: [F(1.2775805), F(-2.6694477), F(1.6631444)],
                    linear_damping: F(0.34383032),
                    angular_damping: F(0.0),
                    gravity_scale: F(1.0),
                    sleep_threshold: F(0.05),
                    flags: 3,
                    locks: 0,
                },
            },
            CreateBody {
                def: BodyD {
                    ty: 2,
                    position: [
                        D(0.9677221911178879),
                        D(14.86523046288388),
                        D(11.386322713786363),
                    ],
                    rotation: [F(0.40533772), F(0.36225095), F(0.76471037), F(0.34596774)],
                    linear: [F(0.0), F(0.0), F(0.0)],
                    angular: [F(0.0), F(0.0), F(0.0)],
                    linear_damping: F(0.0),
                    angular_damping: F(0.3001289),
                    gravity_scale: F(1.0),
                    sleep_threshold: F(0.05),
                    flags: 11,
                    locks: 0,
                },
            },
            CreateBody {
                def: BodyD {
                    ty: 0,
                    position: [
                        D(9.525691329850801),
                        D(13.54609771471234),
                        D(-6.151185899954539),
                    ],
                    rotation: [F(0.41269043), F(0.88761044), F(0.0010465805), F(0.20453122)],
                    linear: [F(4.4690733), F(-3.9580019), F(3.8030844)],
                    angular: [F(-1.1365358), F(-2.836053), F(-1.688283)],
                    linear_damping: F(0.96253365),
                    angular_damping: F(0.0),
                    gravity_scale: F(1.0),
                    sleep_threshold: F(0.05),
                    flags: 31,
                    locks: 0,
                },
            },
            Pile {
                n: 13,
                kind: 1,
                origin: [
                    D(8.524931244277862),
                    D(7.170626891516361),
                    D(1.9942522966301297),
                ],
                spacing: F(2.2449675),
                size: F(0.2519239),
            },
            CreateBody {
                def: BodyD {
                    ty: 2,
                    position: [
                        D(-3.166143386671237),
                        D(14.818394876074024),
                        D(-13.27082206361846),
                    ],
                    rotation: [
                        F(-0.093921036),
                        F(0.16776215),
                        F(-0.085948594),
                        F(0.97757226),
                    ],
                    linear: [F(0.0), F(0.0), F(0.0)],
                    angular: [F(0.0), F(0.0), F(0.0)],
                    linear_damping: F(0.32998377),
                    angular_damping: F(0.0),
                    gravity_scale: F(1.0),
                    sleep_threshold: F(0.44836557),
                    flags: 11,
                    locks: 0,
                },
            },
            CreateBody {
                def: BodyD {
                    ty: 2,
                    position: [
                        D(-8.312976679498783),
                        D(2.0072477060883016),
                        D(-5.718335612901313),
                    ],
                    rotation: [F(0.13284135), F(-0.08051141), F(0.20823126), F(0.965666)],
                    linear: [F(0.0), F(0.0), F(0.0)],
                    angular: [F(0.0), F(0.0), F(0.0)],
                    linear_damping: F(0.79987526),
                    angular_damping: F(0.0),
                    gravity_scale: F(1.0),
                    sleep_threshold: F(0.05),
                    flags: 11,
                    locks: 0,
                },
            },
            CreateBody {
                def: BodyD {
                    ty: 2,
                    position: [
                        D(-14.589276729622526),
                        D(13.000505475309557),
                        D(13.567746572548188),
                    ],
                    rotation: [F(-0.08502653), F(0.38661072), F(-0.34522337), F(0.8509544)],
                    linear: [F(0.0), F(0.0), F(0.0)],
                    angular: [F(0.0), F(0.0), F(0.0)],
                    linear_damping: F(0.0),
                    angular_damping: F(0.87235636),
                    gravity_scale: F(0.3660987),
                    sleep_threshold: F(0.38978875),
                    flags: 13,
                    locks: 51,
                },
            },
            SetBodyType {
                body: 495456025,
                ty: 2,
            },
            CreateBody {
                def: BodyD {
                    ty: 0,
                    position: [
                        D(-6.010250238215493),
                        D(10.001007621782556),
                        D(-3.724571056438407),
                    ],
                    rotation: [F(0.3596684), F(0.11337327), F(0.4036759), F(0.83356524)],
                    linear: [F(-1.5950844), F(-4.8176394), F(4.312956)],
                    angular: [F(-0.26840296), F(2.6431496), F(-0.70964456)],
                    linear_damping: F(0.0),
                    angular_damping: F(0.0),
                    gravity_scale: F(1.0),
                    sleep_threshold: F(0.05),
                    flags: 15,
                    locks: 0,
                },
            },
            CreatePlane {
                body: 2147483647,
                def: ShapeD {
                    density: F(1166.2906),
                    friction: F(0.6294831),
                    restitution: F(0.0),
                    rolling: F(0.0),
                    category: 1,
                    mask: 18446744073709551615,
                    group: 0,
                    flags: 7,
                },
                normal: [F(0.59034985), F(0.34905016), F(-0.4457214)],
                offset: F(-0.22715688),
            },
            Step {
                dt: F(0.016666668),
                substeps: 1,
            },
        ],
    });
}

/// `set_solve_one_at_a_time(true)` must give the four-wide solver's bits (a pile with one rolling-resistance sphere): it does not.
///
/// Seed 21 (Large, 300 ops), minimised to 4 ops.
/// op 3: LanesChangedBits: step(0.016666668, 8): solving one constraint at a time gives other bits than four at a time: 0xdd62d687c7598b5c vs 0x2f6f01e1d734725c; 0 bodies differ []
#[test]
fn solving_one_constraint_at_a_time_gives_the_same_bits() {
    check(&Case {
        config: WorldConfig {
            gravity: [F(0.0), F(-10.0), F(0.0)],
            restitution_threshold: F(1.0),
            contact_hertz: F(30.0),
            contact_damping_ratio: F(10.0),
            contact_push_max_speed: F(3.0),
            joint_damping_ratio: F(2.0),
            max_linear_speed: F(400.0),
            hit_event_threshold: F(1.0),
            enable_sleep: true,
            capacities: [1024, 1024, 8192, 8192, 32, 1024, 16, 1024, 1024],
            content_capacity: 67108864,
            task_workers: 0,
        },
        ops: vec![
            Pile {
                n: 171,
                kind: 1,
                origin: [D(-14.574697005998836), D(1.0), D(-5.514408632836869)],
                spacing: F(1.2),
                size: F(0.4),
            },
            CreateSphere {
                body: 2147483647,
                def: ShapeD {
                    density: F(2224.4548),
                    friction: F(0.76516736),
                    restitution: F(0.0),
                    rolling: F(0.1009872),
                    category: 1,
                    mask: 18446744073709551615,
                    group: 0,
                    flags: 12,
                },
                center: [F(0.0), F(0.0), F(0.0)],
                radius: F(0.95477736),
            },
            SolveOneAtATime { on: true },
            Step {
                dt: F(0.016666668),
                substeps: 8,
            },
        ],
    });
}

/// Issue 12 (4): once a body leaves ±2^22 every later step is refused, even after that body is destroyed; and the world's snapshot with the body past 2^22 is refused.
///
/// Seed 46 (Scene(5), 300 ops), minimised to 7 ops.
/// op 4: OwnSnapshotRefused: after the step: restore refused the world's own snapshot: damaged data: body position beyond 2^22; fastest: BodyId { index: 1, generation: 1 } Some(Dynamic) p Some(DVec3 { x: 5000000.0, y: 10.0, z: 0.0 }) v Vec3 { x: 100000.0, y: 0.0, z: 0.0 } w Vec3 { x: 0.0, y: 0.0, z: 0.0 }
/// op 6: SpuriousOutOfBounds: step refused (moving body bounds = 5000001.100000024 is out of bounds: magnitude must stay below 4194304) but no moving body has bounds beyond ±2^22 (0 bodies alive)
#[test]
fn a_world_steps_again_once_the_body_past_the_bounds_is_gone() {
    check(&Case {
        config: WorldConfig {
            gravity: [F(0.0), F(-10.0), F(0.0)],
            restitution_threshold: F(1.0),
            contact_hertz: F(30.0),
            contact_damping_ratio: F(10.0),
            contact_push_max_speed: F(3.0),
            joint_damping_ratio: F(2.0),
            max_linear_speed: F(100000.0),
            hit_event_threshold: F(1.0),
            enable_sleep: true,
            capacities: [1024, 1024, 4096, 4096, 16, 1024, 16, 1024, 256],
            content_capacity: 1048576,
            task_workers: 0,
        },
        ops: vec![
            CreateBody {
                def: BodyD {
                    ty: 2,
                    position: [D(2000000.0), D(10.0), D(0.0)],
                    rotation: [F(0.0), F(0.0), F(0.0), F(1.0)],
                    linear: [F(100000.0), F(0.0), F(0.0)],
                    angular: [F(0.0), F(0.0), F(0.0)],
                    linear_damping: F(0.0),
                    angular_damping: F(0.0),
                    gravity_scale: F(0.0),
                    sleep_threshold: F(0.05),
                    flags: 11,
                    locks: 0,
                },
            },
            CreateSphere {
                body: 2147483647,
                def: ShapeD {
                    density: F(1000.0),
                    friction: F(0.6),
                    restitution: F(0.0),
                    rolling: F(0.0),
                    category: 1,
                    mask: 18446744073709551615,
                    group: 0,
                    flags: 5,
                },
                center: [F(0.0), F(0.0), F(0.0)],
                radius: F(1.0),
            },
            Step {
                dt: F(10.0),
                substeps: 1,
            },
            Step {
                dt: F(10.0),
                substeps: 1,
            },
            Step {
                dt: F(10.0),
                substeps: 1,
            },
            DestroyBody { body: 2147483647 },
            Step {
                dt: F(0.016666668),
                substeps: 4,
            },
        ],
    });
}

/// Issue 12 (8): a restore to a snapshot taken before the running journal is neither refused nor recorded.
///
/// Seed 8 (Small, 300 ops), minimised to 3 ops.
/// op 2: JournalRestoreAccepted: restore of a snapshot taken outside the running journal was accepted (neither refused nor recorded: the tape no longer replays to the world)
#[test]
fn restore_of_a_snapshot_from_before_the_journal_is_refused() {
    check(&Case {
        config: WorldConfig {
            gravity: [F(0.0), F(-10.0), F(0.0)],
            restitution_threshold: F(1.0),
            contact_hertz: F(30.0),
            contact_damping_ratio: F(10.0),
            contact_push_max_speed: F(3.0),
            joint_damping_ratio: F(2.0),
            max_linear_speed: F(400.0),
            hit_event_threshold: F(1.0),
            enable_sleep: true,
            capacities: [16, 16, 8, 32, 2, 8, 16, 1, 1],
            content_capacity: 16384,
            task_workers: 0,
        },
        ops: vec![
            Save { slot: 0 },
            StartJournal { capacity: 16 },
            Restore { slot: 0 },
        ],
    });
}

/// Issue 12 (8): a restore to a snapshot taken during the journal does not rewind the tape, so the tape no longer replays to the world.
///
/// Seed 0 (Small, 300 ops), minimised to 4 ops.
/// op 3: JournalDiverged: the tape replays to 0x93af465d23221c5a, the live world is at 0x6a52fb2fc20dca7d
#[test]
fn restore_during_a_journal_rewinds_the_tape() {
    check(&Case {
        config: WorldConfig {
            gravity: [F(0.0), F(-10.0), F(0.0)],
            restitution_threshold: F(1.0930728),
            contact_hertz: F(12.999577),
            contact_damping_ratio: F(0.0),
            contact_push_max_speed: F(4.3628464),
            joint_damping_ratio: F(4.8791842),
            max_linear_speed: F(0.001),
            hit_event_threshold: F(0.43260574),
            enable_sleep: true,
            capacities: [8, 10, 2, 32, 2, 1, 2, 2, 8],
            content_capacity: 67108864,
            task_workers: 0,
        },
        ops: vec![
            StartJournal { capacity: 4194304 },
            Save { slot: 1 },
            Step {
                dt: F(0.033333335),
                substeps: 1,
            },
            Restore { slot: 1 },
        ],
    });
}

/// Issue 12 (5): creating a joint between a body resting on a triangle mesh and the mesh's body trips `contact.alive` (debug assertions).
///
/// Seed 38 (Scene(4), 300 ops), minimised to 18 ops.
/// op 17: panic: assertion failed: contact.alive at core/src/contact.rs:717: assertion failed: contact.alive at core/src/contact.rs:717
#[test]
fn a_joint_to_the_mesh_a_body_rests_on_keeps_contacts_alive() {
    check(&Case {
        config: WorldConfig {
            gravity: [F(0.0), F(-10.0), F(0.0)],
            restitution_threshold: F(1.0),
            contact_hertz: F(30.0),
            contact_damping_ratio: F(10.0),
            contact_push_max_speed: F(3.0),
            joint_damping_ratio: F(2.0),
            max_linear_speed: F(400.0),
            hit_event_threshold: F(1.0),
            enable_sleep: true,
            capacities: [1024, 1024, 4096, 4096, 16, 1024, 16, 1024, 256],
            content_capacity: 67108864,
            task_workers: 4,
        },
        ops: vec![
            Ground {
                kind: 2,
                origin: [D(0.0), D(0.0), D(0.0)],
                size: F(8.0),
            },
            CreateBody {
                def: BodyD {
                    ty: 2,
                    position: [D(0.3), D(1.0), D(0.2)],
                    rotation: [F(0.0), F(0.0), F(0.0), F(1.0)],
                    linear: [F(0.0), F(0.0), F(0.0)],
                    angular: [F(0.0), F(0.0), F(0.0)],
                    linear_damping: F(0.0),
                    angular_damping: F(0.0),
                    gravity_scale: F(1.0),
                    sleep_threshold: F(0.05),
                    flags: 11,
                    locks: 0,
                },
            },
            CreateBox {
                body: 2147483647,
                def: ShapeD {
                    density: F(1000.0),
                    friction: F(0.6),
                    restitution: F(0.0),
                    rolling: F(0.0),
                    category: 1,
                    mask: 18446744073709551615,
                    group: 0,
                    flags: 5,
                },
                half: [F(0.4), F(0.4), F(0.4)],
                center: None,
            },
            Step {
                dt: F(0.016666668),
                substeps: 4,
            },
            Step {
                dt: F(0.016666668),
                substeps: 4,
            },
            Step {
                dt: F(0.016666668),
                substeps: 4,
            },
            Step {
                dt: F(0.016666668),
                substeps: 4,
            },
            Step {
                dt: F(0.016666668),
                substeps: 4,
            },
            Step {
                dt: F(0.016666668),
                substeps: 4,
            },
            Step {
                dt: F(0.016666668),
                substeps: 4,
            },
            Step {
                dt: F(0.016666668),
                substeps: 4,
            },
            Step {
                dt: F(0.016666668),
                substeps: 4,
            },
            Step {
                dt: F(0.016666668),
                substeps: 4,
            },
            Step {
                dt: F(0.016666668),
                substeps: 4,
            },
            Step {
                dt: F(0.016666668),
                substeps: 4,
            },
            Step {
                dt: F(0.016666668),
                substeps: 4,
            },
            Step {
                dt: F(0.016666668),
                substeps: 4,
            },
            CreateJoint {
                spec: JointSpec {
                    a: 2147483648,
                    b: 2147483647,
                    frame_a: ([F(0.0), F(1.0), F(0.0)], [F(0.0), F(0.0), F(0.0), F(1.0)]),
                    frame_b: ([F(0.0), F(0.0), F(0.0)], [F(0.0), F(0.0), F(0.0), F(1.0)]),
                    world_anchor: None,
                    collide: false,
                    break_force: F(3.4028235e38),
                    break_torque: F(3.4028235e38),
                    kind: Spherical,
                },
            },
        ],
    });
}

/// A refused `replay_journal` cannot restore its own back-out snapshot (the world holds values restore refuses): `restored.is_ok()` fails in `journal.rs` (debug assertions; in release the refused replay changes the hash).
///
/// Seed 166 (Scene(6), 300 ops), minimised to 8 ops.
/// op 5: Displacement: step(0.016753985, 4) moved body BodyId { index: 1, generation: 1 } 9454395.29974285 m (from DVec3 { x: -1000000.0, y: 1400001.0, z: -80886.63723069453 } to DVec3 { x: -2523683.875, y: 1400000.1688405275, z: 9249921.362769306 }), more than 2 × (max_linear_speed 400 + contact_push_max_speed 3) × dt; velocity now Vec3 { x: 0.0, y: -0.16754067, z: 0.0 }, angular Some(Vec3 { x:  …
/// op 7: panic: assertion failed: restored.is_ok() at core/src/journal.rs:350: assertion failed: restored.is_ok() at core/src/journal.rs:350
#[test]
fn a_refused_replay_gives_back_the_world() {
    check(&Case {
        config: WorldConfig {
            gravity: [F(0.0), F(-10.0), F(0.0)],
            restitution_threshold: F(1.0),
            contact_hertz: F(30.0),
            contact_damping_ratio: F(10.0),
            contact_push_max_speed: F(3.0),
            joint_damping_ratio: F(2.0),
            max_linear_speed: F(400.0),
            hit_event_threshold: F(1.0),
            enable_sleep: true,
            capacities: [1024, 1024, 4096, 4096, 16, 1024, 16, 1024, 256],
            content_capacity: 67108864,
            task_workers: 0,
        },
        ops: vec![
            CreateBody {
                def: BodyD {
                    ty: 2,
                    position: [D(-1000000.0), D(1400001.0), D(-80886.6372306945)],
                    rotation: [F(0.0), F(0.0), F(0.0), F(1.0)],
                    linear: [F(0.0), F(0.0), F(0.0)],
                    angular: [F(0.0), F(3000.0), F(0.0)],
                    linear_damping: F(0.0),
                    angular_damping: F(0.0),
                    gravity_scale: F(1.0),
                    sleep_threshold: F(0.05),
                    flags: 11,
                    locks: 0,
                },
            },
            CreateSphere {
                body: 2147483647,
                def: ShapeD {
                    density: F(1000.0),
                    friction: F(0.6),
                    restitution: F(0.0),
                    rolling: F(0.0),
                    category: 1,
                    mask: 18446744073709551615,
                    group: 0,
                    flags: 5,
                },
                center: [F(0.0), F(0.0), F(0.0)],
                radius: F(500000.0),
            },
            CreateBody {
                def: BodyD {
                    ty: 2,
                    position: [D(-250000.0), D(1400001.0), D(41585.38893970201)],
                    rotation: [F(0.0), F(0.0), F(0.0), F(1.0)],
                    linear: [F(0.0), F(-100.0), F(0.0)],
                    angular: [F(0.0), F(0.0), F(0.0)],
                    linear_damping: F(0.0),
                    angular_damping: F(0.0),
                    gravity_scale: F(1.0),
                    sleep_threshold: F(0.05),
                    flags: 11,
                    locks: 0,
                },
            },
            CreateSphere {
                body: 2147483647,
                def: ShapeD {
                    density: F(100000.0),
                    friction: F(0.6),
                    restitution: F(0.0),
                    rolling: F(0.0),
                    category: 1,
                    mask: 18446744073709551615,
                    group: 0,
                    flags: 5,
                },
                center: [F(0.0), F(0.0), F(0.0)],
                radius: F(500000.0),
            },
            StartJournal { capacity: 4194304 },
            Step {
                dt: F(0.016753985),
                substeps: 4,
            },
            StopJournal,
            ReplayLastTape,
        ],
    });
}

/// Issue 12 (3): NaN bounds from a very large spinning sphere (`bad proxy box`, debug assertions; NaN positions in release).
///
/// Seed 78 (Scene(2), 300 ops), minimised to 4 ops.
/// op 3: panic: bad proxy box DAabb { lower: DVec# { x: NaN, y: NaN, z: NaN }, upper: DVec# { x: NaN, y: NaN, z: NaN } } at core/src/broad_phase/tree.rs:273: bad proxy box DAabb { lower: DVec3 { x: NaN, y: NaN, z: NaN }, upper: DVec3 { x: NaN, y: NaN, z: NaN } } at core/src/broad_phase/tree.rs:273
#[test]
fn a_huge_fast_spinning_sphere_keeps_finite_bounds() {
    check(&Case {
        config: WorldConfig {
            gravity: [F(0.0), F(-10.0), F(0.0)],
            restitution_threshold: F(1.0),
            contact_hertz: F(30.0),
            contact_damping_ratio: F(10.0),
            contact_push_max_speed: F(3.0),
            joint_damping_ratio: F(2.0),
            max_linear_speed: F(400.0),
            hit_event_threshold: F(1.0),
            enable_sleep: false,
            capacities: [1024, 1024, 4096, 4096, 16, 1024, 16, 1024, 256],
            content_capacity: 1048576,
            task_workers: 0,
        },
        ops: vec![
            Ground {
                kind: 0,
                origin: [D(0.0), D(0.0), D(0.0)],
                size: F(1000000.0),
            },
            CreateBody {
                def: BodyD {
                    ty: 2,
                    position: [D(0.0), D(1000000.01), D(0.0)],
                    rotation: [F(0.0), F(0.0), F(0.0), F(1.0)],
                    linear: [F(0.0), F(0.0), F(0.0)],
                    angular: [F(0.0), F(0.0), F(100000.0)],
                    linear_damping: F(0.0),
                    angular_damping: F(0.0),
                    gravity_scale: F(1.0),
                    sleep_threshold: F(0.05),
                    flags: 11,
                    locks: 0,
                },
            },
            CreateSphere {
                body: 2147483647,
                def: ShapeD {
                    density: F(100000.0),
                    friction: F(0.6),
                    restitution: F(0.0),
                    rolling: F(0.0),
                    category: 1,
                    mask: 18446744073709551615,
                    group: 0,
                    flags: 5,
                },
                center: [F(0.0), F(0.0), F(0.0)],
                radius: F(1000000.0),
            },
            Step {
                dt: F(0.033333335),
                substeps: 4,
            },
        ],
    });
}

/// Issue 12 (3): NaN positions from very large valid shapes and masses (`bad proxy box`, debug assertions; NaN positions in release).
///
/// Seed 222 (Scene(6), 300 ops), minimised to 5 ops.
/// op 4: panic: bad proxy box DAabb { lower: DVec# { x: NaN, y: NaN, z: NaN }, upper: DVec# { x: NaN, y: NaN, z: NaN } } at core/src/broad_phase/tree.rs:273: bad proxy box DAabb { lower: DVec3 { x: NaN, y: NaN, z: NaN }, upper: DVec3 { x: NaN, y: NaN, z: NaN } } at core/src/broad_phase/tree.rs:273
#[test]
fn giant_shapes_keep_finite_positions() {
    check(&Case {
        config: WorldConfig {
            gravity: [F(0.0), F(-10.0), F(0.0)],
            restitution_threshold: F(1.0),
            contact_hertz: F(30.0),
            contact_damping_ratio: F(10.0),
            contact_push_max_speed: F(3.0),
            joint_damping_ratio: F(2.0),
            max_linear_speed: F(400.0),
            hit_event_threshold: F(1.0),
            enable_sleep: false,
            capacities: [1024, 1024, 4096, 4096, 16, 1024, 16, 1024, 256],
            content_capacity: 1048576,
            task_workers: 2,
        },
        ops: vec![
            Ground {
                kind: 0,
                origin: [D(0.0), D(0.0), D(0.0)],
                size: F(1000000.0),
            },
            CreateBody {
                def: BodyD {
                    ty: 2,
                    position: [D(-490000.0), D(170001.0), D(74984.55340563564)],
                    rotation: [F(0.0), F(0.0), F(0.0), F(1.0)],
                    linear: [F(0.0), F(0.0), F(0.0)],
                    angular: [F(0.0), F(3000.0), F(0.0)],
                    linear_damping: F(0.0),
                    angular_damping: F(0.0),
                    gravity_scale: F(1.0),
                    sleep_threshold: F(0.05),
                    flags: 11,
                    locks: 0,
                },
            },
            CreateBox {
                body: 2147483647,
                def: ShapeD {
                    density: F(1.0),
                    friction: F(0.6),
                    restitution: F(0.5),
                    rolling: F(0.0),
                    category: 1,
                    mask: 18446744073709551615,
                    group: 0,
                    flags: 5,
                },
                half: [F(500000.0), F(250000.0), F(500000.0)],
                center: None,
            },
            CreateSphere {
                body: 2147483647,
                def: ShapeD {
                    density: F(100000.0),
                    friction: F(0.6),
                    restitution: F(0.0),
                    rolling: F(0.0),
                    category: 1,
                    mask: 18446744073709551615,
                    group: 0,
                    flags: 5,
                },
                center: [F(0.0), F(0.0), F(0.0)],
                radius: F(1000000.0),
            },
            Step {
                dt: F(0.033333335),
                substeps: 4,
            },
        ],
    });
}

/// Issue 12 (6): a 200-link chain with a 100:1 end at 4 substeps gains energy without bound.
///
/// Seed 6 (Scene(0), 300 ops), minimised to 2 ops.
/// op 1: SpeedLimit: after step(0.016666668, 4) body BodyId { index: 52, generation: 1 } moves at 5525.2167090697185 m/s (Vec3 { x: 5493.3203, y: 592.83356, z: 0.0 }), max_linear_speed 400
/// op 1: EnergyGrowth: after 85 steps of (0.016666668, 4) the energy is 7.6336e9 J, it started at 2.9354e6 J (allowed 7.3997e5); fastest: BodyId { index: 52, generation: 1 } Some(Dynamic) p Some(DVec3 { x: 19.52564402553253, y: 108.98907433636487, z: 0.0 }) v Vec3 { x: 5493.3203, y: 592.83356, z: 0.0 } w Vec3 { x: 0.0, y: 0.0, z: -100000.0 }; BodyId { index: 53, generation: 1 } Some(Dynamic) p So …
#[test]
fn a_chain_with_a_heavy_end_does_not_gain_energy() {
    check(&Case {
        config: WorldConfig {
            gravity: [F(0.0), F(-10.0), F(0.0)],
            restitution_threshold: F(1.0),
            contact_hertz: F(30.0),
            contact_damping_ratio: F(10.0),
            contact_push_max_speed: F(3.0),
            joint_damping_ratio: F(2.0),
            max_linear_speed: F(400.0),
            hit_event_threshold: F(1.0),
            enable_sleep: true,
            capacities: [1024, 1024, 4096, 4096, 16, 1024, 16, 1024, 256],
            content_capacity: 67108864,
            task_workers: 0,
        },
        ops: vec![
            Chain {
                n: 200,
                ratio: F(100.0),
                link: F(0.5),
                origin: [D(0.0), D(120.0), D(0.0)],
            },
            CheckEnergy {
                steps: 300,
                dt: F(0.016666668),
                substeps: 4,
                slack: F(0.25),
            },
        ],
    });
}
