//! Per-body contact data: a body's touching contacts read back as the solver left them
//! (manifold points, separations, impulses), by body and by shape, in an order that
//! survives a snapshot, changing nothing.

mod common;

use common::{DT, SUBSTEPS, dynamic_box, ground, step_n, world};
use maul3d::math::{DVec3, Quat, Vec3};
use maul3d::{
    BodyDef, BodyId, BodyType, ContactData, Error, NO_CHILD, ShapeDef, ShapeId, Sphere, World,
};

fn contacts_of(w: &World, body: BodyId) -> Vec<ContactData> {
    let cap = w.body_contact_capacity(body).unwrap();
    let mut out = vec![ContactData::default(); cap];
    let n = w.body_contact_data(body, &mut out).unwrap();
    assert!(n <= cap, "{n} touching contacts within a capacity of {cap}");
    out.truncate(n);
    out
}

/// The normal impulses of a contact's points, summed.
fn pushed(c: &ContactData) -> f32 {
    c.manifold.points().iter().map(|p| p.normal_impulse).sum()
}

fn weight_per_substep(w: &World, body: BodyId) -> f32 {
    let mass = w.body_mass_data(body).unwrap().mass;
    mass * -w.gravity().y * DT / SUBSTEPS as f32
}

#[test]
fn a_box_resting_on_the_ground_reports_four_points_carrying_its_weight() {
    let mut w = world(false);
    let g = ground(&mut w, 0.6);
    let b = dynamic_box(
        &mut w,
        DVec3::new(0.0, 0.6, 0.0),
        Vec3::new(0.5, 0.5, 0.5),
        &ShapeDef::default(),
    );
    step_n(&mut w, 120);
    let contacts = contacts_of(&w, b);
    assert_eq!(contacts.len(), 1);
    let c = &contacts[0];
    let ground_shape = w.body_shapes(g).unwrap().next().unwrap();
    let box_shape = w.body_shapes(b).unwrap().next().unwrap();
    // The ground was created first: equal kinds put the lower slot first.
    assert_eq!((c.shape_a, c.shape_b), (ground_shape, box_shape));
    assert_eq!(c.child, NO_CHILD);
    let m = &c.manifold;
    assert_eq!(m.points().len(), 4);
    assert!(
        (m.normal - Vec3::new(0.0, 1.0, 0.0)).length() < 1e-4,
        "{:?}",
        m.normal
    );
    let sum = pushed(c);
    let weight = weight_per_substep(&w, b);
    // The accumulated impulse is one substep's: over the step the solver applied it
    // SUBSTEPS times, m·g·dt in all.
    assert!(
        (sum - weight).abs() < 0.01 * weight,
        "the points carry the weight of one substep: {sum} vs {weight}"
    );
    for p in m.points() {
        assert!(p.separation.abs() < 0.005, "separation {}", p.separation);
        // The ground's top face is at y = 0, the box's corners at x, z = ±0.5.
        assert!(p.point.y.abs() < 0.005, "{:?}", p.point);
        assert!((p.point.x.abs() - 0.5).abs() < 0.005, "{:?}", p.point);
        assert!((p.point.z.abs() - 0.5).abs() < 0.005, "{:?}", p.point);
        // The anchors name the same point from each body's centre of mass, as they did
        // when the manifold was computed: two boxes keep theirs while B moves less than
        // 5 cm relative to A (the box settled a few millimetres since).
        let com_b = w.body_center_of_mass(b).unwrap();
        let from_b = com_b + p.anchor_b.to_f64();
        assert!(
            (from_b - p.point).to_f32().length() < 0.05,
            "{from_b:?} vs {:?}",
            p.point
        );
        assert!(p.tangent_impulse.dot(m.normal).abs() < 1e-4);
        assert!(p.tangent_impulse.length() <= 0.6 * p.normal_impulse + 1e-3);
    }
    // Friction holds nothing up: the tangent impulses cancel.
    let friction = m
        .points()
        .iter()
        .fold(Vec3::ZERO, |t, p| t + p.tangent_impulse);
    assert!(friction.length() < 0.01 * weight, "{friction:?}");
    // The ground reports the same contact.
    assert_eq!(contacts_of(&w, g), contacts);
}

/// A static quad mesh of two triangles at y = 0, 4 m on a side: triangle 0 covers
/// z > x, triangle 1 z < x.
fn quad_mesh(w: &mut World) -> (BodyId, ShapeId) {
    let v = [
        Vec3::new(-2.0, 0.0, -2.0),
        Vec3::new(2.0, 0.0, -2.0),
        Vec3::new(-2.0, 0.0, 2.0),
        Vec3::new(2.0, 0.0, 2.0),
    ];
    let mesh = w.create_mesh(&v, &[[0, 2, 3], [0, 3, 1]]).unwrap();
    let body = w.create_body(&BodyDef::default()).unwrap();
    let shape = w
        .create_mesh_shape(body, &ShapeDef::default(), mesh)
        .unwrap();
    (body, shape)
}

fn ball(w: &mut World, position: DVec3) -> (BodyId, ShapeId) {
    let body = w
        .create_body(&BodyDef {
            body_type: BodyType::Dynamic,
            position,
            ..Default::default()
        })
        .unwrap();
    let sphere = Sphere {
        center: Vec3::ZERO,
        radius: 0.3,
    };
    let shape = w
        .create_sphere_shape(body, &ShapeDef::default(), &sphere)
        .unwrap();
    (body, shape)
}

#[test]
fn a_sphere_on_a_mesh_reports_the_triangle_it_rests_on_as_a_child_contact() {
    let mut w = world(false);
    let (mesh_body, mesh_shape) = quad_mesh(&mut w);
    let (b0, s0) = ball(&mut w, DVec3::new(-1.0, 0.5, 1.0));
    let (b1, s1) = ball(&mut w, DVec3::new(1.0, 0.5, -1.0));
    step_n(&mut w, 90);
    for (body, shape, triangle) in [(b0, s0, 0), (b1, s1, 1)] {
        let contacts = contacts_of(&w, body);
        assert_eq!(contacts.len(), 1, "{contacts:?}");
        let c = &contacts[0];
        // The mesh is always shape A; the triangle is the child.
        assert_eq!(
            (c.shape_a, c.shape_b, c.child),
            (mesh_shape, shape, triangle)
        );
        let m = &c.manifold;
        assert_eq!(m.points().len(), 1);
        assert!((m.normal - Vec3::new(0.0, 1.0, 0.0)).length() < 1e-4);
        let p = &m.points()[0];
        let weight = weight_per_substep(&w, body);
        assert!(
            (p.normal_impulse - weight).abs() < 0.01 * weight,
            "{} vs {weight}",
            p.normal_impulse
        );
        assert!(p.separation.abs() < 0.005, "separation {}", p.separation);
        assert!(p.point.y.abs() < 0.005, "{:?}", p.point);
    }
    // The mesh body reports both children, by (shape A, shape B, child).
    let on_mesh = contacts_of(&w, mesh_body);
    let pairs: Vec<_> = on_mesh.iter().map(|c| (c.shape_b, c.child)).collect();
    assert_eq!(pairs, [(s0, 0), (s1, 1)]);
}

#[test]
fn a_box_across_two_triangles_reports_one_contact_per_triangle() {
    let mut w = world(false);
    let (_, mesh_shape) = quad_mesh(&mut w);
    let b = dynamic_box(
        &mut w,
        DVec3::new(0.0, 0.55, 0.0),
        Vec3::new(0.5, 0.5, 0.5),
        &ShapeDef::default(),
    );
    let box_shape = w.body_shapes(b).unwrap().next().unwrap();
    step_n(&mut w, 90);
    // The box's bottom face straddles the diagonal: each triangle has its own manifold.
    let contacts = contacts_of(&w, b);
    let children: Vec<_> = contacts.iter().map(|c| c.child).collect();
    assert_eq!(children, [0, 1], "{contacts:?}");
    let mut sum = 0.0;
    for c in &contacts {
        assert_eq!((c.shape_a, c.shape_b), (mesh_shape, box_shape));
        assert!((c.manifold.normal - Vec3::new(0.0, 1.0, 0.0)).length() < 1e-4);
        sum += pushed(c);
    }
    let weight = weight_per_substep(&w, b);
    assert!((sum - weight).abs() < 0.01 * weight, "{sum} vs {weight}");
}

#[test]
fn shape_contact_data_reports_that_shapes_contacts_only() {
    let mut w = world(false);
    let g = ground(&mut w, 0.6);
    let ground_shape = w.body_shapes(g).unwrap().next().unwrap();
    let body = w
        .create_body(&BodyDef {
            body_type: BodyType::Dynamic,
            position: DVec3::new(0.0, 0.55, 0.0),
            ..Default::default()
        })
        .unwrap();
    let half = Vec3::new(0.5, 0.5, 0.5);
    let def = ShapeDef::default();
    let left = w
        .create_offset_box_shape(body, &def, half, Vec3::new(-1.0, 0.0, 0.0), Quat::IDENTITY)
        .unwrap();
    let right = w
        .create_offset_box_shape(body, &def, half, Vec3::new(1.0, 0.0, 0.0), Quat::IDENTITY)
        .unwrap();
    step_n(&mut w, 60);
    let all = contacts_of(&w, body);
    let shapes: Vec<_> = all.iter().map(|c| (c.shape_a, c.shape_b)).collect();
    assert_eq!(shapes, [(ground_shape, left), (ground_shape, right)]);
    for (shape, expected) in [(left, &all[0]), (right, &all[1])] {
        let cap = w.shape_contact_capacity(shape).unwrap();
        assert_eq!(cap, 1);
        let mut out = [ContactData::default(); 2];
        assert_eq!(w.shape_contact_data(shape, &mut out).unwrap(), 1);
        assert_eq!(&out[0], expected);
    }
    // The ground's shape has both.
    let mut out = [ContactData::default(); 4];
    assert_eq!(w.shape_contact_capacity(ground_shape).unwrap(), 2);
    assert_eq!(w.shape_contact_data(ground_shape, &mut out).unwrap(), 2);
    assert_eq!(&out[..2], &all[..]);
    // Both boxes carry half the weight each.
    let weight = weight_per_substep(&w, body);
    for c in &all {
        let sum = pushed(c);
        assert!(
            (sum - 0.5 * weight).abs() < 0.02 * weight,
            "{sum} vs {weight}/2"
        );
    }
}

/// A ground and `n` boxes side by side, resting.
fn row_of_boxes(w: &mut World, n: usize) -> (BodyId, Vec<BodyId>) {
    let g = ground(w, 0.6);
    let boxes = (0..n)
        .map(|i| {
            let p = DVec3::new(2.0 * i as f64, 0.6, 0.0);
            dynamic_box(w, p, Vec3::new(0.5, 0.5, 0.5), &ShapeDef::default())
        })
        .collect();
    step_n(w, 60);
    (g, boxes)
}

#[test]
fn a_short_array_gets_the_first_contacts_and_the_count_of_all() {
    let mut w = world(false);
    let (g, _) = row_of_boxes(&mut w, 9);
    let all = contacts_of(&w, g);
    assert_eq!(all.len(), 9);
    for cap in 0..=10 {
        let mut out = vec![ContactData::default(); cap];
        assert_eq!(w.body_contact_data(g, &mut out).unwrap(), 9);
        let n = cap.min(9);
        assert_eq!(&out[..n], &all[..n], "capacity {cap}");
        assert!(out[n..].iter().all(|c| *c == ContactData::default()));
    }
}

#[test]
fn a_body_without_touching_contacts_reports_none() {
    let mut w = world(false);
    ground(&mut w, 0.6);
    let b = dynamic_box(
        &mut w,
        DVec3::new(0.0, 5.0, 0.0),
        Vec3::new(0.5, 0.5, 0.5),
        &ShapeDef::default(),
    );
    step_n(&mut w, 1);
    let mut out = [ContactData::default(); 4];
    assert_eq!(w.body_contact_data(b, &mut out).unwrap(), 0);
    assert_eq!(out, [ContactData::default(); 4]);
}

#[test]
fn stale_null_and_foreign_ids_are_refused_and_nothing_is_written() {
    let mut w = world(false);
    let (g, boxes) = row_of_boxes(&mut w, 3);
    let shape = w.body_shapes(boxes[0]).unwrap().next().unwrap();
    w.destroy_body(boxes[0]).unwrap();
    // The same index and generation, made by another world.
    let mut other = World::new(&Default::default()).unwrap();
    let foreign_body = BodyId {
        world: other.create_body(&BodyDef::default()).unwrap().world,
        ..g
    };
    let foreign_shape = ShapeId {
        world: foreign_body.world,
        ..shape
    };
    let mut out = [ContactData::default(); 4];
    for body in [boxes[0], BodyId::NULL, foreign_body] {
        for r in [
            w.body_contact_data(body, &mut out),
            w.body_contact_capacity(body),
        ] {
            assert!(
                matches!(r, Err(Error::InvalidId { what: "body", .. })),
                "{r:?}"
            );
        }
    }
    for s in [shape, ShapeId::NULL, foreign_shape] {
        for r in [
            w.shape_contact_data(s, &mut out),
            w.shape_contact_capacity(s),
        ] {
            assert!(
                matches!(r, Err(Error::InvalidId { what: "shape", .. })),
                "{r:?}"
            );
        }
    }
    assert_eq!(out, [ContactData::default(); 4]);
}

fn read_everything(w: &World) {
    let mut out = [ContactData::default(); 8];
    for b in w.body_ids().collect::<Vec<_>>() {
        w.body_contact_capacity(b).unwrap();
        w.body_contact_data(b, &mut out).unwrap();
        for s in w.body_shapes(b).unwrap() {
            w.shape_contact_capacity(s).unwrap();
            w.shape_contact_data(s, &mut out).unwrap();
        }
    }
}

#[test]
fn reading_contact_data_changes_no_hash() {
    let mut a = world(false);
    let mut b = world(false);
    row_of_boxes(&mut a, 3);
    row_of_boxes(&mut b, 3);
    let before = a.hash();
    read_everything(&a);
    assert_eq!(a.hash(), before);
    // Read every step in one world only: the two stay bit for bit the same.
    for _ in 0..30 {
        read_everything(&a);
        a.step(DT, SUBSTEPS).unwrap();
        b.step(DT, SUBSTEPS).unwrap();
        assert_eq!(a.hash(), b.hash());
    }
}

/// Contact data with the world tags taken out of the ids, to compare two worlds.
fn untagged(mut cs: Vec<ContactData>) -> Vec<ContactData> {
    for c in &mut cs {
        c.shape_a.world = 0;
        c.shape_b.world = 0;
    }
    cs
}

#[test]
fn a_restored_world_reports_contacts_in_the_same_order() {
    let mut w = world(false);
    let (g, boxes) = row_of_boxes(&mut w, 3);
    // The first box leaves and a new one lands where it was: its contact takes the freed
    // slot, so the ground's contact list (newest first) no longer runs in slot order,
    // while a restored world rebuilds the list from the slots.
    w.destroy_body(boxes[0]).unwrap();
    step_n(&mut w, 1);
    dynamic_box(
        &mut w,
        DVec3::new(0.0, 0.6, 0.0),
        Vec3::new(0.5, 0.5, 0.5),
        &ShapeDef::default(),
    );
    dynamic_box(
        &mut w,
        DVec3::new(6.0, 0.6, 0.0),
        Vec3::new(0.5, 0.5, 0.5),
        &ShapeDef::default(),
    );
    step_n(&mut w, 30);
    let mut snap = vec![0u8; w.snapshot_size()];
    let n = w.snapshot(&mut snap).unwrap();
    snap.truncate(n);
    let mut r = World::new(&World::def_from_snapshot(&snap).unwrap()).unwrap();
    r.restore(&snap).unwrap();
    step_n(&mut w, 1);
    step_n(&mut r, 1);
    assert_eq!(w.hash(), r.hash());
    let g_r = r.body_id_at(g.index - 1).unwrap();
    let here = untagged(contacts_of(&w, g));
    assert_eq!(here.len(), 4);
    assert_eq!(here, untagged(contacts_of(&r, g_r)));
    let order: Vec<_> = here.iter().map(|c| c.shape_b.index).collect();
    let mut sorted = order.clone();
    sorted.sort();
    assert_eq!(order, sorted, "by shape B's slot");
}

/// Pre-solve: disables every contact.
unsafe extern "C" fn disable_all(
    _contact: *const maul3d::PreSolveContact,
    _context: *mut core::ffi::c_void,
) -> bool {
    false
}

#[test]
fn a_contact_the_pre_solve_callback_disabled_is_left_out() {
    let mut w = world(false);
    ground(&mut w, 0.6);
    let def = ShapeDef {
        enable_pre_solve: true,
        ..Default::default()
    };
    let b = dynamic_box(
        &mut w,
        DVec3::new(0.0, 0.45, 0.0),
        Vec3::new(0.5, 0.5, 0.5),
        &def,
    );
    step_n(&mut w, 1);
    assert_eq!(contacts_of(&w, b).len(), 1);
    w.set_pre_solve(Some(maul3d::PreSolve {
        callback: disable_all,
        context: core::ptr::null_mut(),
    }));
    step_n(&mut w, 1);
    // The pair still overlaps (it has a contact) but the solver skipped it.
    assert_eq!(w.body_contact_capacity(b).unwrap(), 1);
    assert!(contacts_of(&w, b).is_empty());
    w.set_pre_solve(None);
    step_n(&mut w, 1);
    assert_eq!(contacts_of(&w, b).len(), 1);
}

#[test]
fn the_world_contact_data_holds_every_touching_contact_once_in_slot_order() {
    let mut w = world(false);
    let (_, boxes) = row_of_boxes(&mut w, 5);
    step_n(&mut w, 60);
    let cap = w.contact_data_capacity();
    let mut all = vec![ContactData::default(); cap];
    let n = w.contact_data(&mut all);
    all.truncate(n);
    assert_eq!(n, 5, "each box rests on the ground, touching no other box");
    // The same contacts each body reports, once each, in (shape A, shape B, child) order.
    let mut from_bodies: Vec<ContactData> =
        boxes.iter().flat_map(|&b| contacts_of(&w, b)).collect();
    from_bodies.sort_by_key(|c| (c.shape_a.index, c.shape_b.index, c.child));
    assert_eq!(all, from_bodies);
    // A short array: the first ones and the count of all.
    let mut two = [ContactData::default(); 2];
    assert_eq!(w.contact_data(&mut two), 5);
    assert_eq!(two[..], all[..2]);
}
