//! Sensors that detect sensors (Godot's areas monitoring areas): off by default, a
//! sensor's flag and the visitor's sensor events decide; the overlaps are state (hash,
//! snapshot, journal) and an area still acts on solid shapes only.

mod common;
use common::*;
use maul3d::math::{DVec3, Quat, Vec3};
use maul3d::{
    AreaGravity, AreaMode, AreaSettings, BodyDef, BodyType, SensorEvent, ShapeDef, ShapeId, Sphere,
    World,
};

fn sensor_def() -> ShapeDef {
    ShapeDef {
        is_sensor: true,
        ..Default::default()
    }
}

/// A static sensor box `a` (half 1 at the origin) and a kinematic sensor ball `b` (radius
/// 0.5) 4 m to its left moving right at 3 m/s (through `a` and out in about 3 s).
fn crossing() -> (World, ShapeId, ShapeId) {
    let mut w = world(false);
    let zone = w.create_body(&BodyDef::default()).unwrap();
    let a = w
        .create_box_shape(zone, &sensor_def(), Vec3::splat(1.0))
        .unwrap();
    let mover = w
        .create_body(&BodyDef {
            body_type: BodyType::Kinematic,
            position: DVec3::new(-4.0, 0.0, 0.0),
            linear_velocity: Vec3::new(3.0, 0.0, 0.0),
            ..Default::default()
        })
        .unwrap();
    let ball = Sphere {
        center: Vec3::ZERO,
        radius: 0.5,
    };
    let b = w.create_sphere_shape(mover, &sensor_def(), &ball).unwrap();
    (w, a, b)
}

/// Every sensor event of `n` steps: (step, begin, event).
fn events(w: &mut World, n: usize) -> Vec<(usize, bool, SensorEvent)> {
    let mut out = Vec::new();
    for i in 0..n {
        w.step(DT, SUBSTEPS).unwrap();
        out.extend(w.sensor_begin_events().iter().map(|e| (i, true, *e)));
        out.extend(w.sensor_end_events().iter().map(|e| (i, false, *e)));
    }
    out
}

#[test]
fn sensors_do_not_detect_sensors_by_default() {
    let (mut w, a, b) = crossing();
    assert!(!w.sensor_detects_sensors(a).unwrap() && w.shape_sensor_events_enabled(b).unwrap());
    assert!(events(&mut w, 200).is_empty());
}

#[test]
fn a_sensor_that_detects_sensors_reports_another_sensor_passing_through_it_once() {
    let (mut w, a, b) = crossing();
    w.set_sensor_detects_sensors(a, true).unwrap();
    let mut out = [ShapeId::NULL; 4];
    let mut inside = 0;
    let mut all = Vec::new();
    for _ in 0..200 {
        all.extend(events(&mut w, 1));
        let n = w.sensor_overlaps(a, &mut out).unwrap();
        inside += n;
        assert!(n == 0 || out[0] == b);
        assert_eq!(
            w.sensor_overlaps(b, &mut out).unwrap(),
            0,
            "b detects nothing"
        );
    }
    let pair = SensorEvent {
        sensor: a,
        visitor: b,
    };
    let kinds: Vec<(bool, SensorEvent)> = all.iter().map(|&(_, k, e)| (k, e)).collect();
    assert_eq!(kinds, [(true, pair), (false, pair)]);
    // 3 m of overlap (2 m box + 1 m ball, strictly) at 3 m/s: about 60 steps.
    assert!((55..=62).contains(&inside), "inside {inside} steps");
}

#[test]
fn a_sensor_with_its_sensor_events_off_is_not_detected_by_sensors() {
    let (mut w, a, b) = crossing();
    w.set_sensor_detects_sensors(a, true).unwrap();
    w.set_shape_enable_sensor_events(b, false).unwrap();
    assert!(events(&mut w, 200).is_empty());
}

#[test]
fn only_a_sensor_can_detect_sensors_and_a_refusal_changes_nothing() {
    let mut w = world(false);
    let g = ground(&mut w, 0.5);
    let solid: Vec<ShapeId> = w.body_shapes(g).unwrap().collect();
    let before = w.hash();
    w.start_journal(1 << 10).unwrap();
    assert!(w.set_sensor_detects_sensors(solid[0], true).is_err());
    assert_eq!(w.stop_journal().unwrap(), maul3d::TAPE_HEADER_SIZE);
    assert_eq!(w.hash(), before);
    assert!(!w.sensor_detects_sensors(solid[0]).unwrap());
}

#[test]
fn sensor_overlaps_of_sensors_survive_snapshot_restore_and_replay_with_the_same_events() {
    let (mut w, a, b) = crossing();
    let flagless = w.hash();
    w.set_sensor_detects_sensors(a, true).unwrap();
    assert_ne!(w.hash(), flagless, "the flag is state");
    step_n(&mut w, 60); // b is inside a now
    let mut out = [ShapeId::NULL; 4];
    assert_eq!(w.sensor_overlaps(a, &mut out).unwrap(), 1);
    let mut snap = vec![0u8; w.snapshot_size()];
    w.snapshot(&mut snap).unwrap();
    w.start_journal(1 << 16).unwrap();
    w.set_shape_enable_sensor_events(b, true).unwrap();
    let original = events(&mut w, 60);
    w.stop_journal().unwrap();
    assert_eq!(original.len(), 1, "b leaves a: {original:?}");

    let mut twin = World::new(&World::def_from_snapshot(&snap).unwrap()).unwrap();
    twin.restore(&snap).unwrap();
    // The same shapes in the twin: ids carry their world's tag.
    let here = |id: ShapeId| ShapeId {
        world: twin.id_tag(),
        ..id
    };
    let (ta, tb) = (here(a), here(b));
    assert!(twin.sensor_detects_sensors(ta).unwrap());
    assert_eq!(
        (twin.sensor_overlaps(ta, &mut out).unwrap(), out[0]),
        (1, tb)
    );
    let mut replayed = World::new(&World::def_from_snapshot(&snap).unwrap()).unwrap();
    replayed.restore(&snap).unwrap();
    twin.set_shape_enable_sensor_events(tb, true).unwrap();
    let untagged = |v: Vec<(usize, bool, SensorEvent)>| -> Vec<_> {
        v.into_iter()
            .map(|(i, k, e)| (i, k, (e.sensor.index, e.sensor.generation), e.visitor.index))
            .collect()
    };
    assert_eq!(untagged(events(&mut twin, 60)), untagged(original));
    assert_eq!(twin.hash(), w.hash());
    replayed.replay_journal(w.journal_tape()).unwrap();
    assert_eq!(replayed.hash(), w.hash());
}

#[test]
fn an_area_that_detects_sensors_still_acts_only_on_bodies_whose_solid_shapes_it_overlaps() {
    // A zero-gravity area around the origin; a dynamic body whose sensor ball sits in it
    // and whose solid ball is 10 m away: the body falls.
    let mut w = world(false);
    let zone = w.create_body(&BodyDef::default()).unwrap();
    let area = w
        .create_box_shape(zone, &sensor_def(), Vec3::splat(2.0))
        .unwrap();
    let settings = AreaSettings {
        gravity_mode: AreaMode::Replace,
        gravity: AreaGravity::Directional(Vec3::ZERO),
        ..Default::default()
    };
    w.set_shape_area(area, Some(settings)).unwrap();
    w.set_sensor_detects_sensors(area, true).unwrap();
    let body = w
        .create_body(&BodyDef {
            body_type: BodyType::Dynamic,
            position: DVec3::ZERO,
            rotation: Quat::IDENTITY,
            ..Default::default()
        })
        .unwrap();
    let ball = |x: f32| Sphere {
        center: Vec3::new(x, 0.0, 0.0),
        radius: 0.3,
    };
    let probe = w
        .create_sphere_shape(body, &sensor_def(), &ball(0.0))
        .unwrap();
    w.create_sphere_shape(body, &ShapeDef::default(), &ball(10.0))
        .unwrap();
    step_n(&mut w, 2);
    let mut out = [ShapeId::NULL; 4];
    assert_eq!(
        (w.sensor_overlaps(area, &mut out).unwrap(), out[0]),
        (1, probe)
    );
    let y0 = w.body_position(body).unwrap().y;
    step_n(&mut w, 10);
    let y1 = w.body_position(body).unwrap().y;
    assert!(y1 < y0 - 0.05, "the body falls: {y0} -> {y1}");
}
