//! Joints against closed forms and what a game expects of them.

#![allow(clippy::disallowed_methods)] // measuring results in tests, not simulating

mod common;
use common::*;
use maul3d::math::{DVec3, PI, Quat, Vec3};
use maul3d::{
    AxisMode, BodyDef, BodyId, BodyType, ConeTwistJoint, DistanceJoint, Error, JointDef, JointKind,
    PrismaticJoint, RevoluteJoint, ShapeDef, SixDofAxis, SixDofJoint, Sphere, WeldJoint,
    WheelJoint, World, WorldDef,
};

fn static_body(w: &mut World, p: DVec3) -> BodyId {
    w.create_body(&BodyDef {
        position: p,
        ..Default::default()
    })
    .unwrap()
}

fn sphere_body(w: &mut World, p: DVec3, radius: f32) -> BodyId {
    let b = w
        .create_body(&BodyDef {
            body_type: BodyType::Dynamic,
            position: p,
            ..Default::default()
        })
        .unwrap();
    w.create_sphere_shape(
        b,
        &ShapeDef::default(),
        &Sphere {
            center: Vec3::ZERO,
            radius,
        },
    )
    .unwrap();
    b
}

fn box_body(w: &mut World, p: DVec3, half: Vec3) -> BodyId {
    dynamic_box(w, p, half, &ShapeDef::default())
}

fn mass(w: &World, b: BodyId) -> f32 {
    w.body_mass_data(b).unwrap().mass
}

/// Times at which `x` crosses 0 upwards, linearly interpolated.
fn upward_crossings(xs: &[f64], dt: f64) -> Vec<f64> {
    let mut out = Vec::new();
    for i in 1..xs.len() {
        if xs[i - 1] < 0.0 && xs[i] >= 0.0 {
            let f = -xs[i - 1] / (xs[i] - xs[i - 1]);
            out.push((i as f64 - 1.0 + f) * dt);
        }
    }
    out
}

#[test]
fn a_pendulum_swings_within_one_percent_of_two_pi_root_l_over_g() {
    for kind in [
        JointKind::Spherical,
        JointKind::Revolute(RevoluteJoint::default()),
    ] {
        let mut w = world(false);
        let (l, r, theta) = (1.0f64, 0.05f32, 0.05f64);
        let pivot = DVec3::new(0.0, 5.0, 0.0);
        let top = static_body(&mut w, pivot);
        let bob = sphere_body(
            &mut w,
            DVec3::new(l * theta.sin(), 5.0 - l * theta.cos(), 0.0),
            r,
        );
        joint_at(&mut w, top, bob, pivot, Quat::IDENTITY, kind);
        let mut xs = Vec::new();
        for _ in 0..600 {
            w.step(DT, SUBSTEPS).unwrap();
            xs.push(w.body_position(bob).unwrap().x);
        }
        let t = upward_crossings(&xs, DT as f64);
        assert!(t.len() >= 4, "crossings {t:?}");
        let period = (t[t.len() - 1] - t[0]) / (t.len() - 1) as f64;
        // A solid sphere on a massless rod: I = m (L² + 2/5 r²).
        let rr = r as f64 * r as f64;
        let expected = 2.0 * std::f64::consts::PI * ((l * l + 0.4 * rr) / (10.0 * l)).sqrt();
        let err = (period - expected).abs() / expected;
        assert!(err < 0.01, "{kind:?}: period {period}, expected {expected}");
        // The rod keeps its length.
        let d = w.body_position(bob).unwrap() - pivot;
        let len = (d.x * d.x + d.y * d.y + d.z * d.z).sqrt();
        assert!((len - l).abs() < 1e-3, "length {len}");
    }
}

#[test]
fn a_twenty_link_chain_stretches_less_than_one_percent() {
    let mut w = world(false);
    let top = DVec3::new(0.0, 12.0, 0.0);
    let (_, links) = hanging_chain(&mut w, top, 20);
    // A little sideways kick so the chain swings, then let it settle.
    w.apply_linear_impulse_to_center(links[19], Vec3::new(0.5, 0.0, 0.0))
        .unwrap();
    step_n(&mut w, 300);
    let last = links[19];
    let end = w.body_position(last).unwrap()
        + w.body_rotation(last)
            .unwrap()
            .rotate(Vec3::new(0.0, -0.25, 0.0))
            .to_f64();
    let d = end - top;
    let len = (d.x * d.x + d.y * d.y + d.z * d.z).sqrt();
    assert!(len < 10.0 * 1.01, "chain of 10 m is {len} m long");
    assert!(len > 9.5, "chain of 10 m is {len} m long");
}

#[test]
fn a_hinge_motor_reaches_its_target_speed() {
    let mut w = world(false);
    let base = static_body(&mut w, DVec3::new(0.0, 2.0, 0.0));
    let wheel = box_body(&mut w, DVec3::new(0.0, 2.0, 0.0), Vec3::new(0.5, 0.1, 0.1));
    let j = joint_at(
        &mut w,
        base,
        wheel,
        DVec3::new(0.0, 2.0, 0.0),
        Quat::IDENTITY,
        JointKind::Revolute(RevoluteJoint {
            enable_motor: true,
            motor_speed: 3.0,
            max_motor_torque: 500.0,
            ..Default::default()
        }),
    );
    step_n(&mut w, 60);
    let wz = w.body_angular_velocity(wheel).unwrap().z;
    assert!((wz - 3.0).abs() < 0.03, "spins at {wz} rad/s");
    // Motor torque is bounded: a weak motor only accelerates.
    w.set_joint_max_motor_force(j, 0.01).unwrap();
    w.set_joint_motor_speed(j, -3.0).unwrap();
    step_n(&mut w, 10);
    let wz = w.body_angular_velocity(wheel).unwrap().z;
    assert!(wz > 2.5, "a weak motor cannot reverse it at once: {wz}");
}

#[test]
fn revolute_and_prismatic_limits_hold_under_a_tenfold_overload() {
    // An arm hinged at the origin, pushed down past its lower limit by gravity and a
    // torque ten times that of its weight.
    let mut w = world(false);
    let base = static_body(&mut w, DVec3::new(0.0, 3.0, 0.0));
    let arm = box_body(
        &mut w,
        DVec3::new(0.5, 3.0, 0.0),
        Vec3::new(0.5, 0.05, 0.05),
    );
    let j = joint_at(
        &mut w,
        base,
        arm,
        DVec3::new(0.0, 3.0, 0.0),
        Quat::IDENTITY,
        JointKind::Revolute(RevoluteJoint {
            enable_limit: true,
            lower: -0.5,
            upper: 0.5,
            ..Default::default()
        }),
    );
    let weight_torque = mass(&w, arm) * 10.0 * 0.5;
    let mut lowest = 0.0f32;
    for _ in 0..240 {
        w.apply_torque(arm, Vec3::new(0.0, 0.0, -10.0 * weight_torque))
            .unwrap();
        w.step(DT, SUBSTEPS).unwrap();
        lowest = lowest.min(w.revolute_angle(j).unwrap());
    }
    assert!(
        lowest > -0.5 - 1.0f32.to_radians(),
        "angle went to {lowest}"
    );
    assert!(lowest < -0.49, "the limit is reached: {lowest}");

    // A slider along −y (frame x points down), pulled past its upper limit.
    let mut w = world(false);
    let base = static_body(&mut w, DVec3::new(0.0, 3.0, 0.0));
    let slider = box_body(&mut w, DVec3::new(0.0, 3.0, 0.0), Vec3::splat(0.2));
    let j = joint_at(
        &mut w,
        base,
        slider,
        DVec3::new(0.0, 3.0, 0.0),
        Quat::from_axis_angle(Vec3::Z, -0.5 * PI),
        JointKind::Prismatic(PrismaticJoint {
            enable_limit: true,
            lower: -0.5,
            upper: 0.5,
            ..Default::default()
        }),
    );
    let weight = mass(&w, slider) * 10.0;
    let mut farthest = 0.0f32;
    for _ in 0..240 {
        w.apply_force_to_center(slider, Vec3::new(0.0, -10.0 * weight, 0.0))
            .unwrap();
        w.step(DT, SUBSTEPS).unwrap();
        farthest = farthest.max(w.prismatic_translation(j).unwrap());
    }
    assert!(farthest < 0.5 + 0.01, "slid to {farthest}");
    assert!(farthest > 0.49, "the limit is reached: {farthest}");
    let p = w.body_position(slider).unwrap();
    assert!(
        p.x.abs() < 1e-3 && p.z.abs() < 1e-3,
        "stays on its axis: {p:?}"
    );
}

fn hanging_weld(break_factor: f32) -> (World, maul3d::JointId, BodyId) {
    let mut w = world(false);
    let top = static_body(&mut w, DVec3::new(0.0, 4.0, 0.0));
    let b = box_body(&mut w, DVec3::new(0.3, 3.5, 0.0), Vec3::splat(0.25));
    let weight = mass(&w, b) * 10.0;
    let (fa, fb) = w
        .joint_frames_at(top, b, DVec3::new(0.0, 3.75, 0.0), Quat::IDENTITY)
        .unwrap();
    let j = w
        .create_joint(&JointDef {
            body_a: top,
            body_b: b,
            local_frame_a: fa,
            local_frame_b: fb,
            break_force: break_factor * weight,
            kind: JointKind::Weld(WeldJoint::default()),
            ..Default::default()
        })
        .unwrap();
    (w, j, b)
}

#[test]
fn a_weld_breaks_above_its_threshold_and_not_below_with_one_event() {
    let (mut w, j, b) = hanging_weld(1.2);
    let mut events = 0;
    for _ in 0..120 {
        w.step(DT, SUBSTEPS).unwrap();
        events += w.joint_break_events().len();
    }
    assert_eq!(events, 0);
    assert!(!w.joint_is_broken(j).unwrap());
    let f = w.joint_reaction_force(j).unwrap();
    let weight = mass(&w, b) * 10.0;
    assert!(
        (f.y - weight).abs() < 0.01 * weight,
        "reaction {f:?} vs weight {weight}"
    );
    assert!(w.joint_reaction_torque(j).unwrap().length() > 0.0);
    let y = w.body_position(b).unwrap().y;
    assert!((y - 3.5).abs() < 1e-3, "holds at {y}");

    let (mut w, j, b) = hanging_weld(0.8);
    let mut seen = Vec::new();
    for _ in 0..120 {
        w.step(DT, SUBSTEPS).unwrap();
        seen.extend_from_slice(w.joint_break_events());
    }
    assert_eq!(seen.len(), 1, "one event: {seen:?}");
    assert_eq!(seen[0].joint, j);
    assert!(w.joint_is_broken(j).unwrap());
    assert!(w.body_position(b).unwrap().y < 0.0, "the box fell");
    // Raising the threshold does not mend it; destroying it is allowed.
    w.set_joint_break_thresholds(j, f32::MAX, f32::MAX).unwrap();
    assert!(w.joint_is_broken(j).unwrap());
    w.destroy_joint(j).unwrap();
    assert_eq!(w.joint_count(), 0);
}

#[test]
fn a_rope_keeps_its_max_length_and_allows_slack() {
    let mut w = world(false);
    let top = static_body(&mut w, DVec3::new(0.0, 5.0, 0.0));
    let ball = sphere_body(&mut w, DVec3::new(0.0, 4.0, 0.0), 0.1);
    let j = joint_at(
        &mut w,
        top,
        ball,
        DVec3::new(0.0, 5.0, 0.0),
        Quat::IDENTITY,
        JointKind::Distance(DistanceJoint {
            min_length: 0.0,
            max_length: 2.0,
            ..Default::default()
        }),
    );
    // Slack: the ball falls freely while the rope is shorter than 2 m.
    step_n(&mut w, 12);
    let v = w.body_linear_velocity(ball).unwrap();
    assert!((v.y + 2.0).abs() < 0.02, "falls freely: {v:?}");
    let mut longest = 0.0f32;
    for _ in 0..180 {
        w.step(DT, SUBSTEPS).unwrap();
        longest = longest.max(w.distance_length(j).unwrap());
    }
    assert!(longest < 2.01, "stretched to {longest}");
    assert!(longest > 1.99, "taut at {longest}");
    // Thrown up, it rises (the rope does not push).
    w.set_body_linear_velocity(ball, Vec3::new(0.0, 3.0, 0.0))
        .unwrap();
    step_n(&mut w, 10);
    assert!(w.distance_length(j).unwrap() < 1.7);
}

#[test]
fn a_six_dof_joint_with_every_axis_locked_is_a_weld() {
    let build = |kind: JointKind| {
        let mut w = world(false);
        let top = static_body(&mut w, DVec3::new(0.0, 4.0, 0.0));
        let b = box_body(&mut w, DVec3::new(0.6, 3.6, 0.2), Vec3::new(0.3, 0.2, 0.1));
        joint_at(
            &mut w,
            top,
            b,
            DVec3::new(0.0, 4.0, 0.0),
            Quat::IDENTITY,
            kind,
        );
        w.apply_angular_impulse(b, Vec3::new(0.5, 2.0, -1.0))
            .unwrap();
        w.apply_linear_impulse_to_center(b, Vec3::new(3.0, 0.0, 1.0))
            .unwrap();
        step_n(&mut w, 90);
        (w.body_position(b).unwrap(), w.body_rotation(b).unwrap())
    };
    let weld = build(JointKind::Weld(WeldJoint::default()));
    let six = build(JointKind::SixDof(SixDofJoint::default()));
    assert_eq!(weld, six);
    assert!((weld.0.y - 3.6).abs() < 5e-3, "held: {weld:?}");
}

#[test]
fn a_six_dof_joint_with_one_free_angular_axis_is_a_hinge() {
    // Pendulum arms swinging about z, one on a revolute joint, one on a 6-DOF joint
    // whose only free axis is angular z.
    let run = |kind: JointKind| {
        let mut w = world(false);
        let top = static_body(&mut w, DVec3::new(0.0, 4.0, 0.0));
        let arm = box_body(
            &mut w,
            DVec3::new(0.5, 4.0, 0.0),
            Vec3::new(0.5, 0.05, 0.05),
        );
        joint_at(
            &mut w,
            top,
            arm,
            DVec3::new(0.0, 4.0, 0.0),
            Quat::IDENTITY,
            kind,
        );
        // Something to hold against: a push off the hinge plane.
        w.apply_linear_impulse(arm, Vec3::new(0.0, 0.0, 2.0), DVec3::new(1.0, 4.0, 0.0))
            .unwrap();
        let mut out = Vec::new();
        for _ in 0..90 {
            w.step(DT, SUBSTEPS).unwrap();
            let q = w.body_rotation(arm).unwrap();
            out.push((q.rotate(Vec3::X), q.rotate(Vec3::Z)));
        }
        out
    };
    let hinge = run(JointKind::Revolute(RevoluteJoint::default()));
    let mut axes = [SixDofAxis::default(); 6];
    axes[5] = SixDofAxis::FREE;
    let six = run(JointKind::SixDof(SixDofJoint { axes }));
    for (k, ((xh, zh), (xs, zs))) in hinge.iter().zip(six.iter()).enumerate() {
        let tilt = zs.cross(Vec3::Z).length();
        assert!(tilt < 0.01, "step {k}: 6-DOF axis tilts {tilt}");
        assert!(zh.cross(Vec3::Z).length() < 0.01);
        let angle = |x: Vec3| x.y.atan2(x.x);
        let d = (angle(*xh) - angle(*xs)).abs();
        assert!(
            d < 0.02,
            "step {k}: hinge {} vs 6-DOF {}",
            angle(*xh),
            angle(*xs)
        );
    }
    // It swung a long way.
    let (x, _) = hinge[hinge.len() - 1];
    assert!(x.x < 0.5, "{x:?}");
}

#[test]
fn a_wheel_suspension_settles_at_mg_over_k() {
    let mut w = world(false);
    let chassis = static_body(&mut w, DVec3::new(0.0, 2.0, 0.0));
    let wheel = sphere_body(&mut w, DVec3::new(0.0, 1.5, 0.0), 0.3);
    let hertz = 2.0f32;
    let j = joint_at(
        &mut w,
        chassis,
        wheel,
        DVec3::new(0.0, 1.5, 0.0),
        Quat::IDENTITY,
        JointKind::Wheel(WheelJoint {
            enable_spring: true,
            hertz,
            damping_ratio: 0.7,
            enable_motor: true,
            motor_speed: 4.0,
            max_motor_torque: 100.0,
            ..Default::default()
        }),
    );
    step_n(&mut w, 300);
    let m = mass(&w, wheel);
    let omega = 2.0 * PI * hertz;
    let k = m * omega * omega;
    let expected = m * 10.0 / k;
    let t = -w.prismatic_translation(j).unwrap();
    assert!(
        ((t - expected) / expected).abs() < 0.02,
        "deflection {t}, mg/k = {expected}"
    );
    let p = w.body_position(wheel).unwrap();
    assert!(p.x.abs() < 1e-4 && p.z.abs() < 1e-4, "{p:?}");
    let spin = w.body_angular_velocity(wheel).unwrap();
    assert!((spin.z - 4.0).abs() < 0.05, "spins {spin:?}");
}

/// Swing (angle between the frames' x axes) and twist (about x) of a joint now.
fn swing_twist(w: &World, j: maul3d::JointId) -> (f32, f32) {
    let d = w.joint_def(j).unwrap();
    let qa = w.body_rotation(d.body_a).unwrap() * d.local_frame_a.q;
    let qb = w.body_rotation(d.body_b).unwrap() * d.local_frame_b.q;
    let (xa, xb) = (qa.rotate(Vec3::X), qb.rotate(Vec3::X));
    let swing = xa.cross(xb).length().atan2(xa.dot(xb));
    let r = qa.conjugate() * qb;
    let (x, s) = if r.w < 0.0 { (-r.x, -r.w) } else { (r.x, r.w) };
    (swing, 2.0 * x.atan2(s))
}

#[test]
fn a_cone_twist_joint_holds_its_swing_and_twist_limits() {
    let mut w = world(false);
    let top = static_body(&mut w, DVec3::new(0.0, 4.0, 0.0));
    // A capsule along x from the anchor; the cone is around the horizontal x axis, so
    // gravity swings it down against the limit while a torque twists it.
    let arm = capsule_body(
        &mut w,
        DVec3::new(0.5, 4.0, 0.0),
        Vec3::new(-0.4, 0.0, 0.0),
        Vec3::new(0.4, 0.0, 0.0),
        0.08,
        0,
    );
    let (swing_limit, twist) = (0.5f32, 0.3f32);
    let j = joint_at(
        &mut w,
        top,
        arm,
        DVec3::new(0.0, 4.0, 0.0),
        Quat::IDENTITY,
        JointKind::ConeTwist(ConeTwistJoint {
            swing_limit,
            twist_lower: -twist,
            twist_upper: twist,
            max_friction_torque: 0.0,
        }),
    );
    let m = mass(&w, arm);
    let (mut max_swing, mut max_twist) = (0.0f32, 0.0f32);
    for k in 0..240 {
        let sign = if k < 120 { 1.0 } else { -1.0 };
        w.apply_torque(arm, Vec3::new(sign * m * 0.2, 0.0, 0.0))
            .unwrap();
        w.step(DT, SUBSTEPS).unwrap();
        let (s, t) = swing_twist(&w, j);
        max_swing = max_swing.max(s);
        max_twist = max_twist.max(t.abs());
    }
    let tol = 1.0f32.to_radians();
    assert!(max_swing < swing_limit + tol, "swing {max_swing}");
    assert!(max_swing > swing_limit - tol, "swing reached {max_swing}");
    assert!(max_twist < twist + tol, "twist {max_twist}");
    assert!(max_twist > twist - tol, "twist reached {max_twist}");
    let d = w.distance_length(j).unwrap();
    assert!(d < 1e-3, "anchors apart by {d}");
}

#[test]
fn ragdolls_settle_without_jitter_and_fall_asleep() {
    // Sleep off first, so "settled" is measured, not granted by sleep.
    let mut w = World::new(&WorldDef {
        body_capacity: 64,
        shape_capacity: 64,
        enable_sleep: false,
        ..Default::default()
    })
    .unwrap();
    ground(&mut w, 0.6);
    let mut bones = ragdoll(&mut w, DVec3::new(0.0, 0.5, 0.0), 1);
    bones.extend(ragdoll(&mut w, DVec3::new(1.5, 1.0, 0.3), 2));
    w.apply_angular_impulse(bones[2], Vec3::new(2.0, 0.0, 1.0))
        .unwrap();
    let fastest = |w: &World| {
        bones
            .iter()
            .map(|&b| w.body_linear_velocity(b).unwrap().length())
            .fold(0.0f32, f32::max)
    };
    step_n(&mut w, 60);
    assert!(fastest(&w) > 0.5, "the ragdolls were falling");
    step_n(&mut w, 180);
    for _ in 0..120 {
        let v = fastest(&w);
        assert!(v < 0.05, "a bone still moves at {v} m/s after 4 s");
        w.step(DT, SUBSTEPS).unwrap();
    }
    for &b in &bones {
        let y = w.body_position(b).unwrap().y;
        assert!(y > 0.0 && y < 1.0, "bones lie on the ground: {y}");
    }
    // With sleep on, the whole of each ragdoll falls asleep.
    w.enable_sleep(true);
    let mut asleep = false;
    for _ in 0..120 {
        w.step(DT, SUBSTEPS).unwrap();
        if bones.iter().all(|&b| !w.body_is_awake(b).unwrap()) {
            asleep = true;
            break;
        }
    }
    assert!(asleep, "the ragdolls never fell asleep");
    // Waking one bone wakes its whole ragdoll (joints link islands), not the other.
    w.set_body_awake(bones[0], true).unwrap();
    assert!(bones[..14].iter().all(|&b| w.body_is_awake(b).unwrap()));
    assert!(bones[14..].iter().all(|&b| !w.body_is_awake(b).unwrap()));
}

#[test]
fn jointed_bodies_collide_only_when_collide_connected() {
    let build = |collide: bool| {
        let mut w = world(false);
        ground(&mut w, 0.6);
        let a = box_body(&mut w, DVec3::new(0.0, 0.5, 0.0), Vec3::splat(0.5));
        let b = box_body(&mut w, DVec3::new(0.6, 0.5, 0.0), Vec3::splat(0.5));
        step_n(&mut w, 2);
        let touching_before = w.counters().touching_contact_count;
        let (fa, fb) = w
            .joint_frames_at(a, b, DVec3::new(0.3, 0.5, 0.0), Quat::IDENTITY)
            .unwrap();
        let j = w
            .create_joint(&JointDef {
                body_a: a,
                body_b: b,
                local_frame_a: fa,
                local_frame_b: fb,
                collide_connected: collide,
                kind: JointKind::Spherical,
                ..Default::default()
            })
            .unwrap();
        step_n(&mut w, 30);
        (w, j, touching_before)
    };
    // The boxes overlap by 0.4 m: apart they are pushed out, joined without collision
    // they are not (the joint holds them, the ground holds both).
    let (mut w, j, before) = build(false);
    assert_eq!(before, 3, "two ground contacts and the pair");
    assert_eq!(w.counters().touching_contact_count, 2);
    w.set_joint_collide_connected(j, true).unwrap();
    step_n(&mut w, 2);
    assert_eq!(w.counters().touching_contact_count, 3);
    w.set_joint_collide_connected(j, false).unwrap();
    assert_eq!(w.counters().contact_count, 2);
    let (w, _, _) = build(true);
    assert_eq!(w.counters().touching_contact_count, 3);
}

#[test]
fn bad_joint_defs_are_refused_naming_the_value() {
    let mut w = world(false);
    let a = static_body(&mut w, DVec3::ZERO);
    let s2 = static_body(&mut w, DVec3::new(1.0, 0.0, 0.0));
    let b = box_body(&mut w, DVec3::new(0.0, 1.0, 0.0), Vec3::splat(0.2));
    let def = |kind| JointDef {
        body_a: a,
        body_b: b,
        kind,
        ..Default::default()
    };
    let name = |r: maul3d::Result<maul3d::JointId>| match r {
        Err(Error::Argument { name, .. }) => name,
        other => panic!("expected an argument error, got {other:?}"),
    };
    assert_eq!(
        name(w.create_joint(&JointDef {
            body_b: a,
            ..def(JointKind::Spherical)
        })),
        "body_b"
    );
    assert_eq!(
        name(w.create_joint(&def(JointKind::Revolute(RevoluteJoint {
            lower: 0.5,
            upper: 0.2,
            ..Default::default()
        })))),
        "upper"
    );
    assert_eq!(
        name(w.create_joint(&def(JointKind::Revolute(RevoluteJoint {
            hertz: f32::NAN,
            ..Default::default()
        })))),
        "hertz"
    );
    assert_eq!(
        name(w.create_joint(&def(JointKind::Distance(DistanceJoint {
            min_length: 2.0,
            max_length: 1.0,
            ..Default::default()
        })))),
        "max_length"
    );
    assert_eq!(
        name(w.create_joint(&def(JointKind::ConeTwist(ConeTwistJoint {
            swing_limit: 4.0,
            ..Default::default()
        })))),
        "swing_limit"
    );
    let mut axes = [SixDofAxis::default(); 6];
    axes[4].mode = AxisMode::Limited {
        lower: -4.0,
        upper: 0.0,
    };
    assert_eq!(
        name(w.create_joint(&def(JointKind::SixDof(SixDofJoint { axes })))),
        "axes.lower"
    );
    assert_eq!(
        name(w.create_joint(&JointDef {
            break_force: -1.0,
            ..def(JointKind::Spherical)
        })),
        "break_force"
    );
    let mut bad_frame = def(JointKind::Spherical);
    bad_frame.local_frame_a.q = Quat::new(0.0, 0.0, 0.0, 0.0);
    assert_eq!(
        name(w.create_joint(&bad_frame)),
        "local_frame_a rotation norm²"
    );
    bad_frame.local_frame_a.q = Quat::IDENTITY;
    bad_frame.local_frame_b.p = Vec3::new(2e6, 0.0, 0.0);
    assert_eq!(name(w.create_joint(&bad_frame)), "local_frame_b anchor");
    assert_eq!(w.joint_count(), 0);
    // Two static bodies: accepted and inert.
    let inert = w
        .create_joint(&JointDef {
            body_a: a,
            body_b: s2,
            ..def(JointKind::Spherical)
        })
        .unwrap();
    step_n(&mut w, 2);
    assert_eq!(w.joint_reaction_force(inert).unwrap(), Vec3::ZERO);
    // Setters on the wrong kind are refused, ids are checked.
    let sph = w.create_joint(&def(JointKind::Spherical)).unwrap();
    assert!(matches!(
        w.set_joint_motor_speed(sph, 1.0),
        Err(Error::State(_))
    ));
    assert!(matches!(
        w.set_joint_limits(sph, 0.0, 1.0),
        Err(Error::State(_))
    ));
    w.destroy_joint(sph).unwrap();
    assert!(matches!(w.destroy_joint(sph), Err(Error::InvalidId { .. })));
    // A full pool is a capacity error.
    let mut small = World::new(&WorldDef {
        joint_capacity: 1,
        ..Default::default()
    })
    .unwrap();
    let a = static_body(&mut small, DVec3::ZERO);
    let b = box_body(&mut small, DVec3::new(0.0, 1.0, 0.0), Vec3::splat(0.2));
    let d = JointDef {
        body_a: a,
        body_b: b,
        ..Default::default()
    };
    small.create_joint(&d).unwrap();
    assert!(matches!(
        small.create_joint(&d),
        Err(Error::Capacity {
            what: "joint_capacity",
            ..
        })
    ));
}

#[test]
fn destroying_a_body_destroys_its_joints_and_wakes_the_others() {
    let mut w = world(true);
    let (anchor, links) = hanging_chain(&mut w, DVec3::new(0.0, 6.0, 0.0), 4);
    assert_eq!(w.joint_count(), 4);
    step_n(&mut w, 120);
    assert!(
        links.iter().all(|&b| !w.body_is_awake(b).unwrap()),
        "asleep"
    );
    w.destroy_body(links[1]).unwrap();
    assert_eq!(w.joint_count(), 2);
    assert!(w.body_is_awake(links[2]).unwrap());
    step_n(&mut w, 30);
    assert!(
        w.body_position(links[3]).unwrap().y < 3.5,
        "the lower links fell"
    );
    w.destroy_body(anchor).unwrap();
    assert_eq!(w.joint_count(), 1);
}

#[test]
fn continuous_collision_skips_bodies_a_joint_keeps_apart() {
    // A fast ball tied by a long rope to a thin wall: with collide_connected off it passes
    // through the wall, with it on the sweep stops it at the wall.
    let run = |collide: bool| {
        let mut w = World::new(&WorldDef {
            gravity: Vec3::ZERO,
            ..Default::default()
        })
        .unwrap();
        let wall = static_body(&mut w, DVec3::ZERO);
        w.create_box_shape(wall, &ShapeDef::default(), Vec3::new(0.05, 2.0, 2.0))
            .unwrap();
        let ball = sphere_body(&mut w, DVec3::new(-2.0, 0.0, 0.0), 0.1);
        let (fa, fb) = w
            .joint_frames_at(wall, ball, DVec3::new(-2.0, 0.0, 0.0), Quat::IDENTITY)
            .unwrap();
        w.create_joint(&JointDef {
            body_a: wall,
            body_b: ball,
            local_frame_a: fa,
            local_frame_b: fb,
            collide_connected: collide,
            kind: JointKind::Distance(DistanceJoint {
                min_length: 0.0,
                max_length: 100.0,
                ..Default::default()
            }),
            ..Default::default()
        })
        .unwrap();
        w.set_body_linear_velocity(ball, Vec3::new(300.0, 0.0, 0.0))
            .unwrap();
        w.step(DT, SUBSTEPS).unwrap();
        w.body_position(ball).unwrap().x
    };
    let through = run(false);
    assert!(through > 2.0, "passed through the wall to {through}");
    let stopped = run(true);
    assert!(stopped < -0.1, "stopped before the wall at {stopped}");
}

#[test]
fn debug_draw_shows_each_joint_frame_and_whether_it_broke() {
    struct Frames(Vec<(maul3d::JointId, DVec3, DVec3, bool)>);
    impl maul3d::DebugDraw for Frames {
        fn joint(
            &mut self,
            joint: maul3d::JointId,
            a: (DVec3, Quat),
            b: (DVec3, Quat),
            broken: bool,
        ) {
            self.0.push((joint, a.0, b.0, broken));
        }
    }
    let options = maul3d::DebugDrawOptions {
        shapes: false,
        joints: true,
        ..Default::default()
    };
    let (mut w, j, _) = hanging_weld(1.2);
    step_n(&mut w, 30);
    let mut f = Frames(Vec::new());
    w.debug_draw(&options, &mut f);
    assert_eq!(f.0.len(), 1);
    let (id, a, b, broken) = f.0[0];
    assert_eq!(id, j);
    assert!(!broken);
    assert!((a - DVec3::new(0.0, 3.75, 0.0)).max_abs() < 1e-6, "{a:?}");
    assert!((a - b).max_abs() < 1e-3, "held together: {a:?} {b:?}");

    let (mut w, _, _) = hanging_weld(0.8);
    step_n(&mut w, 60);
    let mut f = Frames(Vec::new());
    w.debug_draw(&options, &mut f);
    let (_, a, b, broken) = f.0[0];
    assert!(broken);
    assert!((a - b).max_abs() > 1.0, "apart once broken: {a:?} {b:?}");
    // Not asked for, not drawn.
    let mut f = Frames(Vec::new());
    w.debug_draw(&maul3d::DebugDrawOptions::default(), &mut f);
    assert!(f.0.is_empty());
}

/// A chain of `links` spheres hanging from a static body at `pivot`, laid out along +x
/// (released from horizontal: its joints pull hard), awake or put to sleep; its links.
fn sphere_chain(w: &mut World, pivot: DVec3, links: usize, awake: bool) -> Vec<BodyId> {
    let mut prev = static_body(w, pivot);
    let mut out = Vec::new();
    for i in 0..links {
        let center = pivot + DVec3::new(0.25 + 0.5 * i as f64, 0.0, 0.0);
        let b = w
            .create_body(&BodyDef {
                body_type: BodyType::Dynamic,
                position: center,
                ..Default::default()
            })
            .unwrap();
        let shape = ShapeDef {
            density: if i + 1 == links { 50.0 } else { 1.0 },
            filter: maul3d::Filter {
                group_index: -1,
                ..Default::default()
            },
            ..Default::default()
        };
        let sphere = Sphere {
            center: Vec3::ZERO,
            radius: 0.25,
        };
        w.create_sphere_shape(b, &shape, &sphere).unwrap();
        let at = center - DVec3::new(0.25, 0.0, 0.0);
        let (fa, fb) = w.joint_frames_at(prev, b, at, Quat::IDENTITY).unwrap();
        w.create_joint(&JointDef {
            body_a: prev,
            body_b: b,
            local_frame_a: fa,
            local_frame_b: fb,
            kind: JointKind::Spherical,
            ..Default::default()
        })
        .unwrap();
        out.push(b);
        prev = b;
    }
    if !awake {
        // Its island, whole, put to sleep (a joint wakes the bodies it joins).
        w.set_body_awake(out[0], false).unwrap();
    }
    out
}

/// The tension stiffness a chain's joints add to its links' inertia does not depend on
/// how the step finds the joints: among a crowd of sleeping chains (many more joints
/// than awake bodies, so the step gathers the joints from the awake bodies' lists) a
/// swinging chain with a heavy end moves bit for bit as it does alone (where the step
/// reads every joint slot).
#[test]
fn a_loaded_chain_among_sleeping_chains_moves_as_it_does_alone() {
    let world = || {
        World::new(&WorldDef {
            body_capacity: 512,
            shape_capacity: 512,
            joint_capacity: 512,
            ..Default::default()
        })
        .unwrap()
    };
    let run = |crowd: bool| {
        let mut w = world();
        if crowd {
            for c in 0..30 {
                let pivot = DVec3::new(-100.0, 10.0, 3.0 * c as f64);
                sphere_chain(&mut w, pivot, 10, false);
            }
        }
        let links = sphere_chain(&mut w, DVec3::new(0.0, 10.0, 0.0), 10, true);
        let mut poses = Vec::new();
        for _ in 0..90 {
            w.step(DT, 4).unwrap();
            for &b in &links {
                let (p, q) = (w.body_position(b).unwrap(), w.body_rotation(b).unwrap());
                poses.push([p.x, p.y, p.z].map(f64::to_bits));
                poses.push([q.x, q.y, q.z].map(|x| (x as f64).to_bits()));
            }
        }
        (poses, w.counters().awake_body_count)
    };
    let (alone, awake_alone) = run(false);
    let (among, awake_among) = run(true);
    // The crowd slept throughout: only the chain was awake in either world.
    assert_eq!((awake_alone, awake_among), (10, 10));
    assert!(
        alone == among,
        "the chain moved differently among the sleeping chains"
    );
}
