//! Two-sided triangle meshes (`ShapeDef::two_sided`, Godot's
//! `ConcavePolygonShape3D.backface_collision`): a one-sided mesh lets what comes from
//! behind through, a two-sided one stops it on its back face, and the flag is state.

#![allow(clippy::disallowed_methods)] // measuring results in tests, not simulating

mod common;

use common::*;
use maul3d::math::{DVec3, Vec3};
use maul3d::{BodyDef, BodyId, BodyType, Capsule, MeshId, ShapeDef, ShapeId, Sphere, World};

/// A 4 m square at y = 0 whose front face points down (two triangles, clockwise seen
/// from above).
fn downward_quad(w: &mut World) -> MeshId {
    let v = [
        Vec3::new(-2.0, 0.0, -2.0),
        Vec3::new(2.0, 0.0, -2.0),
        Vec3::new(2.0, 0.0, 2.0),
        Vec3::new(-2.0, 0.0, 2.0),
    ];
    // (v1 − v0) × (v2 − v0) = x × (x + z) points along −y.
    w.create_mesh(&v, &[[0, 1, 2], [0, 2, 3]]).unwrap()
}

/// A closed 2 m cube centred at (0, 1, 0), faces pointing out.
fn closed_cube(w: &mut World) -> MeshId {
    let mut v = Vec::new();
    for i in 0..8 {
        let c = |bit: u32| if i & bit != 0 { 1.0 } else { -1.0 };
        v.push(Vec3::new(c(1), 1.0 + c(2), c(4)));
    }
    // Each face counter-clockwise seen from outside.
    let quads = [
        [0, 4, 6, 2], // −x
        [1, 3, 7, 5], // +x
        [0, 1, 5, 4], // −y
        [2, 6, 7, 3], // +y
        [0, 2, 3, 1], // −z
        [4, 5, 7, 6], // +z
    ];
    let mut t = Vec::new();
    for q in quads {
        t.push([q[0], q[1], q[2]]);
        t.push([q[0], q[2], q[3]]);
    }
    w.create_mesh(&v, &t).unwrap()
}

fn static_mesh(w: &mut World, mesh: MeshId, two_sided: bool) -> ShapeId {
    let b = w.create_body(&BodyDef::default()).unwrap();
    w.create_mesh_shape(
        b,
        &ShapeDef {
            two_sided,
            ..Default::default()
        },
        mesh,
    )
    .unwrap()
}

fn dropped(w: &mut World, at: DVec3, kind: usize) -> BodyId {
    let b = w
        .create_body(&BodyDef {
            body_type: BodyType::Dynamic,
            position: at,
            ..Default::default()
        })
        .unwrap();
    let def = ShapeDef::default();
    match kind {
        0 => w.create_box_shape(b, &def, Vec3::splat(0.25)),
        1 => w.create_sphere_shape(
            b,
            &def,
            &Sphere {
                center: Vec3::ZERO,
                radius: 0.25,
            },
        ),
        _ => w.create_capsule_shape(
            b,
            &def,
            &Capsule {
                center1: Vec3::new(-0.25, 0.0, 0.0),
                center2: Vec3::new(0.25, 0.0, 0.0),
                radius: 0.25,
            },
        ),
    }
    .unwrap();
    b
}

fn height(w: &World, b: BodyId) -> f64 {
    w.body_position(b).unwrap().y
}

/// A one-sided triangle collides as its prism (0.5 m behind the face): a box met from
/// behind is not held on the back face, though the prism may throw it (pushing
/// one-sided meshes' back faces aside changes `test/hashes.txt`'s meshes scene).
#[test]
fn a_box_dropped_onto_the_back_face_of_a_one_sided_mesh_does_not_rest_on_it() {
    let mut w = world(false);
    let quad = downward_quad(&mut w);
    let s = static_mesh(&mut w, quad, false);
    assert!(!w.shape_two_sided(s).unwrap());
    let b = dropped(&mut w, DVec3::new(0.3, 1.0, -0.2), 0);
    step_n(&mut w, 120);
    let resting =
        (height(&w, b) - 0.25).abs() < 0.05 && w.body_linear_velocity(b).unwrap().length() < 0.1;
    assert!(!resting, "{}", height(&w, b));
}

#[test]
fn boxes_spheres_and_capsules_rest_on_the_back_face_of_a_two_sided_mesh() {
    for kind in 0..3 {
        let mut w = world(false);
        let quad = downward_quad(&mut w);
        let s = static_mesh(&mut w, quad, true);
        assert!(w.shape_two_sided(s).unwrap());
        // Across the diagonal, so both triangles and their shared edge carry it.
        let b = dropped(&mut w, DVec3::new(0.1, 1.0, 0.05), kind);
        step_n(&mut w, 180);
        let y = height(&w, b);
        assert!((y - 0.25).abs() < 0.02, "kind {kind}: {y}");
        assert!(w.body_linear_velocity(b).unwrap().length() < 0.01);
        // Resting flat: no tilt from the inactive diagonal.
        let up = w.body_rotation(b).unwrap().rotate(Vec3::Y);
        assert!(up.y > 0.999, "kind {kind}: {up:?}");
    }
}

#[test]
fn a_two_sided_mesh_still_stops_what_comes_at_its_front_face() {
    let mut w = world(false);
    let quad = downward_quad(&mut w);
    static_mesh(&mut w, quad, true);
    // Thrown up at the front (lower) face: it bounces off and falls away.
    let b = dropped(&mut w, DVec3::new(0.0, -1.0, 0.0), 0);
    w.set_body_gravity_scale(b, 0.0).unwrap();
    w.set_body_linear_velocity(b, Vec3::new(0.0, 3.0, 0.0))
        .unwrap();
    let mut highest = f64::MIN;
    for _ in 0..60 {
        step_n(&mut w, 1);
        highest = highest.max(height(&w, b));
    }
    assert!(highest < -0.24, "{highest}");
}

#[test]
fn a_fast_box_does_not_tunnel_through_the_back_face_of_a_two_sided_mesh() {
    let mut w = world(false);
    let quad = downward_quad(&mut w);
    static_mesh(&mut w, quad, true);
    let b = dropped(&mut w, DVec3::new(0.2, 3.0, 0.1), 0);
    // 3 m above, 200 m/s down: 3.3 m a step, past the surface in one step.
    w.set_body_linear_velocity(b, Vec3::new(0.0, -200.0, 0.0))
        .unwrap();
    step_n(&mut w, 90);
    let y = height(&w, b);
    assert!((y - 0.25).abs() < 0.05, "{y}");
}

#[test]
fn a_box_inside_a_closed_two_sided_mesh_stays_inside() {
    for two_sided in [false, true] {
        let mut w = world(false);
        let cube = closed_cube(&mut w);
        static_mesh(&mut w, cube, two_sided);
        let b = dropped(&mut w, DVec3::new(0.2, 1.2, -0.1), 0);
        w.set_body_linear_velocity(b, Vec3::new(4.0, 1.0, 2.0))
            .unwrap();
        step_n(&mut w, 240);
        let p = w.body_position(b).unwrap();
        let inside = p.x.abs() < 1.0 && p.z.abs() < 1.0 && p.y > 0.0 && p.y < 2.0;
        assert_eq!(inside, two_sided, "two-sided {two_sided}: {p:?}");
        if two_sided {
            // On the inside of the floor.
            assert!((p.y - 0.25).abs() < 0.02, "{p:?}");
        }
    }
}

#[test]
fn the_two_sided_flag_survives_snapshot_restore_and_replay_and_moves_only_its_world() {
    let build = |two_sided: bool| {
        let mut w = world(false);
        let quad = downward_quad(&mut w);
        let s = static_mesh(&mut w, quad, false);
        if two_sided {
            w.set_shape_two_sided(s, true).unwrap();
        }
        (w, s)
    };
    // A one-sided world hashes as a world that never heard of the flag does, and the
    // flag changes the hash.
    let (plain, _) = build(false);
    let (mut w, s) = build(true);
    assert_ne!(plain.hash(), w.hash());
    w.set_shape_two_sided(s, false).unwrap();
    assert_eq!(plain.hash(), w.hash());
    w.set_shape_two_sided(s, true).unwrap();

    let mut start = vec![0u8; w.snapshot_size()];
    let n = w.snapshot(&mut start).unwrap();
    start.truncate(n);
    w.start_journal(1 << 16).unwrap();
    let b = dropped(&mut w, DVec3::new(0.0, 1.0, 0.0), 0);
    step_n(&mut w, 20);
    w.set_shape_two_sided(s, false).unwrap();
    w.set_shape_two_sided(s, true).unwrap();
    let mut mid = vec![0u8; w.snapshot_size()];
    let n = w.snapshot(&mut mid).unwrap();
    mid.truncate(n);
    let mid_hash = w.hash();
    step_n(&mut w, 60);
    w.stop_journal().unwrap();
    let tape = w.journal_tape().to_vec();
    assert!((height(&w, b) - 0.25).abs() < 0.02);

    // Restore into a fresh world: the same bits, the same steps.
    let end_hash = w.hash();
    let mut other = World::new(&World::def_from_snapshot(&mid).unwrap()).unwrap();
    other.restore(&mid).unwrap();
    assert_eq!(other.hash(), mid_hash);
    step_n(&mut other, 60);
    assert_eq!(other.hash(), end_hash);

    // Cleared, then restored: the flag comes back, and the box rests again.
    w.set_shape_two_sided(s, false).unwrap();
    w.restore(&mid).unwrap();
    assert!(w.shape_two_sided(s).unwrap());
    assert_eq!(w.hash(), mid_hash);
    step_n(&mut w, 60);
    assert_eq!(w.hash(), end_hash);

    // The journal replays to the same bits.
    let mut replayed = World::new(&World::def_from_snapshot(&start).unwrap()).unwrap();
    replayed.restore(&start).unwrap();
    replayed.replay_journal(&tape).unwrap();
    assert_eq!(replayed.hash(), w.hash());
}
