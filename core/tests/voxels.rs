//! Voxel grids: creation and its refusals, the content budget, contacts per merged box,
//! rays, edits between steps (journaled, waking what rests on the grid), and the state
//! they are (snapshot, rollback, threads).

#![allow(clippy::disallowed_methods)] // measuring results in tests, not simulating

mod common;
#[path = "../../test/determinism/src/tasks.rs"]
mod tasks;

use common::*;
use maul3d::geometry::voxel::VoxelChunk;
use maul3d::math::{DVec3, Quat, Vec3};
use maul3d::{
    BodyDef, BodyId, BodyType, DebugDraw, DebugDrawOptions, DebugGeometry, Error, MeshId,
    QueryFilter, QueryShape, ShapeDef, ShapeId, Sphere, VoxelGridDef, World, WorldDef,
};

const N: usize = 16;

/// 4096 materials with voxel `(x, y, z)` set to `f(x, y, z)`.
fn voxels(f: impl Fn(usize, usize, usize) -> u8) -> Vec<u8> {
    let mut d = vec![0u8; N * N * N];
    for z in 0..N {
        for y in 0..N {
            for x in 0..N {
                d[x + N * (y + N * z)] = f(x, y, z);
            }
        }
    }
    d
}

/// The bottom `layers` of voxels solid (material 1).
fn slab(layers: usize) -> Vec<u8> {
    voxels(|_, y, _| (y < layers) as u8)
}

fn voxel_world() -> World {
    World::new(&WorldDef {
        body_capacity: 512,
        shape_capacity: 512,
        contact_capacity: 16384,
        pair_capacity: 4096,
        mesh_capacity: 64,
        ..Default::default()
    })
    .unwrap()
}

/// A static body at the origin with one voxel shape per chunk of `chunks` (each
/// `(data, origin)`), voxels of `size`.
fn terrain(w: &mut World, size: f32, chunks: &[(Vec<u8>, Vec3)], friction: f32) -> Vec<MeshId> {
    let body = w.create_body(&BodyDef::default()).unwrap();
    let mut ids = Vec::new();
    for (data, origin) in chunks {
        let id = w
            .create_voxel_grid(&VoxelGridDef {
                voxel_size: size,
                data,
                origin: *origin,
            })
            .unwrap();
        w.create_voxel_shape(
            body,
            &ShapeDef {
                friction,
                ..Default::default()
            },
            id,
        )
        .unwrap();
        ids.push(id);
    }
    ids
}

/// A `nx × nz` tiling of chunks of voxels of `size` with the bottom `layers` solid, the
/// top surface at y = 0 and the tiling centred on the origin.
fn flat_terrain(w: &mut World, size: f32, nx: usize, nz: usize, layers: usize) -> Vec<MeshId> {
    let edge = N as f32 * size;
    let mut chunks = Vec::new();
    for k in 0..nz {
        for i in 0..nx {
            chunks.push((
                slab(layers),
                Vec3::new(
                    (i as f32 - nx as f32 * 0.5) * edge,
                    -(layers as f32) * size,
                    (k as f32 - nz as f32 * 0.5) * edge,
                ),
            ));
        }
    }
    terrain(w, size, &chunks, 0.6)
}

fn dynamic(w: &mut World, at: DVec3) -> BodyId {
    w.create_body(&BodyDef {
        body_type: BodyType::Dynamic,
        position: at,
        ..Default::default()
    })
    .unwrap()
}

fn cube(w: &mut World, at: DVec3, half: f32) -> BodyId {
    let b = dynamic(w, at);
    w.create_box_shape(b, &ShapeDef::default(), Vec3::splat(half))
        .unwrap();
    b
}

#[test]
fn bad_grids_and_edits_are_refused_and_change_nothing() {
    let mut w = voxel_world();
    let before = w.hash();
    let data = slab(1);
    for (size, len, name) in [
        (0.0, 4096, "voxel size"),
        (f32::NAN, 4096, "voxel size"),
        (2.0e4, 4096, "voxel size"),
        (0.5, 4095, "voxel data length"),
        (0.5, 0, "voxel data length"),
    ] {
        let long = vec![1u8; len];
        match w.create_voxel_grid(&VoxelGridDef {
            voxel_size: size,
            data: if len == 4096 { &data } else { &long },
            origin: Vec3::ZERO,
        }) {
            Err(Error::Argument { name: n, .. }) => assert_eq!(n, name),
            other => panic!("{name}: {other:?}"),
        }
    }
    match w.create_voxel_grid(&VoxelGridDef {
        voxel_size: 0.5,
        data: &data,
        origin: Vec3::new(0.0, f32::INFINITY, 0.0),
    }) {
        Err(Error::Argument { name, .. }) => assert_eq!(name, "origin.y"),
        other => panic!("{other:?}"),
    }
    assert_eq!(w.hash(), before);
    assert_eq!(w.content_usage(), 0);

    let grid = w
        .create_voxel_grid(&VoxelGridDef {
            voxel_size: 0.5,
            data: &data,
            origin: Vec3::ZERO,
        })
        .unwrap();
    // Shapes of it on static and kinematic bodies only.
    let d = dynamic(&mut w, DVec3::ZERO);
    assert!(matches!(
        w.create_voxel_shape(d, &ShapeDef::default(), grid),
        Err(Error::Argument { .. })
    ));
    // A mesh id is not a grid for voxel calls.
    let mesh = w
        .create_mesh(&[Vec3::ZERO, Vec3::X, Vec3::Z], &[[0, 2, 1]])
        .unwrap();
    assert!(matches!(
        w.set_voxel(mesh, [0, 0, 0], 1),
        Err(Error::State(_))
    ));

    // Edits out of range name the coordinate and the bound, and change nothing.
    let before = w.hash();
    for (r, name) in [
        (w.set_voxel(grid, [16, 0, 0], 1), "voxel.x"),
        (w.clear_voxel(grid, [0, -1, 0]), "voxel.y"),
        (w.fill_voxels(grid, [0, 0, 0], [3, 3, 16], 0), "max.z"),
        (w.fill_voxels(grid, [-2, 0, 0], [3, 3, 3], 0), "min.x"),
        (w.fill_voxels(grid, [4, 0, 0], [3, 3, 3], 0), "max.x"),
    ] {
        match r {
            Err(Error::Argument {
                name: n, expected, ..
            }) => {
                assert_eq!(n, name);
                assert!(!expected.is_empty());
            }
            other => panic!("{name}: {other:?}"),
        }
    }
    assert_eq!(w.hash(), before);
    assert_eq!(w.voxel(grid, [0, 0, 0]).unwrap(), 1);
    assert_eq!(w.voxel_boxes(grid).unwrap().len(), 1);
}

#[test]
fn grids_draw_from_the_content_budget_and_give_it_back() {
    let bytes = VoxelChunk::content_size_bytes() as u64;
    let mut w = World::new(&WorldDef {
        content_capacity: 2 * bytes + 100,
        ..Default::default()
    })
    .unwrap();
    let memory = w.memory_usage();
    let data = slab(2);
    let def = VoxelGridDef {
        voxel_size: 1.0,
        data: &data,
        origin: Vec3::ZERO,
    };
    let a = w.create_voxel_grid(&def).unwrap();
    w.create_voxel_grid(&def).unwrap();
    assert_eq!(w.content_usage(), 2 * bytes);
    assert_eq!(w.memory_usage(), memory + 2 * bytes as usize);
    let before = w.hash();
    match w.create_voxel_grid(&def) {
        Err(Error::Capacity { what, capacity }) => {
            assert_eq!(what, "content_capacity");
            assert_eq!(capacity, 2 * bytes + 100);
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(w.hash(), before);
    w.destroy_mesh(a).unwrap();
    assert_eq!(w.content_usage(), bytes);
    w.create_voxel_grid(&def).unwrap();
}

#[test]
fn a_box_and_a_sphere_rest_on_a_voxel_floor_at_the_closed_form_height() {
    let mut w = voxel_world();
    flat_terrain(&mut w, 0.5, 1, 1, 2);
    let b = cube(&mut w, DVec3::new(0.3, 1.5, 0.2), 0.25);
    let s = dynamic(&mut w, DVec3::new(-2.0, 1.0, 1.0));
    w.create_sphere_shape(
        s,
        &ShapeDef::default(),
        &Sphere {
            center: Vec3::ZERO,
            radius: 0.4,
        },
    )
    .unwrap();
    step_n(&mut w, 120);
    let y = w.body_position(b).unwrap().y;
    assert!((y - 0.25).abs() < 0.01, "box at {y}");
    let y = w.body_position(s).unwrap().y;
    assert!((y - 0.4).abs() < 0.01, "sphere at {y}");
}

#[test]
fn a_box_slides_across_a_flat_voxel_floor_of_many_chunks_without_jumping() {
    let mut w = World::new(&WorldDef {
        enable_sleep: false,
        contact_capacity: 16384,
        mesh_capacity: 64,
        ..Default::default()
    })
    .unwrap();
    // 6 × 3 chunks of 0.5 m voxels (8 m each): 48 m × 24 m. The top layer alternates
    // material in stripes, so the surface is many boxes meeting edge to edge.
    let edge = 8.0;
    let mut chunks = Vec::new();
    for k in 0..3 {
        for i in 0..6 {
            let data = voxels(|x, y, z| match y {
                0 => 1,
                1 => 1 + ((x / 3 + z / 5) % 2) as u8,
                _ => 0,
            });
            chunks.push((
                data,
                Vec3::new((i as f32 - 3.0) * edge, -1.0, (k as f32 - 1.5) * edge),
            ));
        }
    }
    let grids = terrain(&mut w, 0.5, &chunks, 0.0);
    assert!(w.voxel_boxes(grids[0]).unwrap().len() > 10);
    let b = dynamic(&mut w, DVec3::new(-15.0, 0.25, -4.0));
    w.create_box_shape(
        b,
        &ShapeDef {
            friction: 0.0,
            ..Default::default()
        },
        Vec3::new(0.5, 0.25, 0.5),
    )
    .unwrap();
    step_n(&mut w, 30);
    let rest = w.body_position(b).unwrap().y;
    assert!((rest - 0.25).abs() < 0.01, "rests at {rest}");
    let start = w.body_position(b).unwrap();
    w.set_body_linear_velocity(b, Vec3::new(6.0, 0.0, 1.7))
        .unwrap();
    let mut worst = 0.0f64;
    for _ in 0..250 {
        w.step(DT, SUBSTEPS).unwrap();
        let y = w.body_position(b).unwrap().y;
        worst = worst.max((y - rest).abs());
    }
    let travelled = horizontal_distance(start, w.body_position(b).unwrap());
    println!("slide: travelled {travelled:.3} m, worst vertical departure {worst:.3e} m");
    assert!(travelled > 20.0, "travelled {travelled} m");
    assert!(worst < 1.0e-3, "vertical departure {worst} m");
}

#[test]
fn rays_meet_voxels_where_the_closed_form_says() {
    let mut w = voxel_world();
    // A 0.25 m grid at (10, 0, 0) in a body at (0, 0, 5): a floor two voxels thick and
    // a pillar on voxels x = 8, z = 8 rising to y = 10 voxels.
    let data = voxels(|x, y, z| (y < 2 || (x == 8 && z == 8 && y < 10)) as u8);
    let body = w
        .create_body(&BodyDef {
            position: DVec3::new(0.0, 0.0, 5.0),
            ..Default::default()
        })
        .unwrap();
    let grid = w
        .create_voxel_grid(&VoxelGridDef {
            voxel_size: 0.25,
            data: &data,
            origin: Vec3::new(10.0, 0.0, 0.0),
        })
        .unwrap();
    w.create_voxel_shape(body, &ShapeDef::default(), grid)
        .unwrap();
    let f = QueryFilter::default();
    // Down onto the floor (top at y = 0.5) at world (10.3, ·, 5.7).
    let hit = w
        .cast_ray_closest(DVec3::new(10.3, 4.0, 5.7), Vec3::new(0.0, -8.0, 0.0), &f)
        .unwrap()
        .unwrap();
    assert_eq!(hit.body, body);
    assert!((hit.fraction - 3.5 / 8.0).abs() < 1e-5, "{}", hit.fraction);
    assert!((hit.point.y - 0.5).abs() < 1e-5);
    assert!((hit.normal - Vec3::Y).length() < 1e-5);
    // Down onto the pillar's top (y = 2.5; x, z in [12, 12.25] + body z 5).
    let hit = w
        .cast_ray_closest(DVec3::new(12.1, 4.0, 7.1), Vec3::new(0.0, -8.0, 0.0), &f)
        .unwrap()
        .unwrap();
    assert!((hit.point.y - 2.5).abs() < 1e-5, "{}", hit.point.y);
    // Sideways into the pillar's −x face at x = 12, along a slanted ray.
    let hit = w
        .cast_ray_closest(DVec3::new(11.0, 1.5, 7.0), Vec3::new(2.0, 0.2, 0.2), &f)
        .unwrap()
        .unwrap();
    assert!((hit.fraction - 0.5).abs() < 1e-5, "{}", hit.fraction);
    assert!((hit.point.x - 12.0).abs() < 1e-5);
    assert!((hit.point.y - 1.6).abs() < 1e-5);
    assert!((hit.normal + Vec3::X).length() < 1e-5, "{:?}", hit.normal);
    // Past the chunk: nothing.
    assert!(
        w.cast_ray_closest(DVec3::new(20.0, 4.0, 5.5), Vec3::new(0.0, -8.0, 0.0), &f)
            .unwrap()
            .is_none()
    );
    // A ball of radius 0.2 over the floor: touching from 0.7 down; a cast meets it there.
    let ball = QueryShape::Sphere(Sphere {
        center: Vec3::ZERO,
        radius: 0.2,
    });
    let mut out = [ShapeId::default(); 2];
    for (y, n) in [(0.69, 1), (0.71, 0)] {
        let at = DVec3::new(10.6, y, 5.6);
        assert_eq!(
            w.overlap_shape(&ball, at, Quat::IDENTITY, &f, &mut out)
                .unwrap(),
            n,
            "{y}"
        );
    }
    let cast = w
        .cast_shape(
            &ball,
            DVec3::new(10.6, 4.0, 5.6),
            Quat::IDENTITY,
            Vec3::new(0.0, -8.0, 0.0),
            &f,
        )
        .unwrap()
        .unwrap();
    assert!(
        (cast.fraction - 3.3 / 8.0).abs() < 2e-4,
        "{}",
        cast.fraction
    );
}

/// A two-layer floor of 4 chunks with boxes resting on it; returns the world, the grids
/// and the boxes.
fn dig_scene(def: WorldDef, journal: bool) -> (World, Vec<MeshId>, Vec<BodyId>) {
    let mut w = World::new(&WorldDef {
        body_capacity: 512,
        shape_capacity: 512,
        contact_capacity: 16384,
        pair_capacity: 4096,
        mesh_capacity: 64,
        ..def
    })
    .unwrap();
    if journal {
        w.start_journal(1 << 22).unwrap();
    }
    let grids = flat_terrain(&mut w, 0.5, 2, 2, 2);
    let mut boxes = Vec::new();
    for i in 0..6 {
        let b = cube(
            &mut w,
            DVec3::new(-3.0 + 1.3 * i as f64, 0.3, 1.0 + 0.2 * i as f64),
            0.25,
        );
        boxes.push(b);
    }
    (w, grids, boxes)
}

#[test]
fn digging_a_hole_under_a_resting_box_makes_it_fall_and_the_journal_replays_it() {
    let (mut w, grids, boxes) = dig_scene(WorldDef::default(), true);
    step_n(&mut w, 150);
    // Box 0 sits at (−3, 0.25, 1): in the chunk at origin (−8, −1, 0), voxel x = 10, z = 2.
    let b = boxes[0];
    assert!(!w.body_is_awake(b).unwrap(), "the box should be asleep");
    let rest = w.body_position(b).unwrap().y;
    assert!((rest - 0.25).abs() < 0.01, "{rest}");
    let grid = grids[2];
    assert_eq!(w.voxel(grid, [10, 1, 2]).unwrap(), 1);
    let boxes_before = w.voxel_boxes(grid).unwrap().len();
    // Dig a 2 m × 2 m hole through both layers under it.
    w.fill_voxels(grid, [8, 0, 0], [11, 1, 3], 0).unwrap();
    w.clear_voxel(grid, [12, 1, 4]).unwrap();
    w.set_voxel(grids[3], [0, 1, 0], 2).unwrap();
    assert_eq!(w.voxel(grid, [10, 1, 2]).unwrap(), 0);
    assert_ne!(w.voxel_boxes(grid).unwrap().len(), boxes_before);
    assert!(w.body_is_awake(b).unwrap(), "the edit wakes the box");
    step_n(&mut w, 60);
    let y = w.body_position(b).unwrap().y;
    assert!(y < -2.0, "the box fell through the hole: y = {y}");
    // The others stay where they rest.
    for &o in &boxes[2..] {
        let y = w.body_position(o).unwrap().y;
        assert!((y - 0.25).abs() < 0.01, "{y}");
    }
    w.stop_journal().unwrap();
    let tape = w.journal_tape().to_vec();
    let mut again = voxel_world();
    again.replay_journal(&tape).unwrap();
    assert_eq!(again.hash(), w.hash());
    let replayed = again.mesh_ids().nth(2).unwrap();
    assert_eq!(again.voxel(replayed, [10, 1, 2]).unwrap(), 0);
}

#[test]
fn voxel_content_is_state_and_the_boxes_are_not() {
    let (mut a, grids, _) = dig_scene(WorldDef::default(), false);
    let (b, _, _) = dig_scene(WorldDef::default(), false);
    assert_eq!(a.hash(), b.hash());
    a.set_voxel(grids[0], [5, 5, 5], 3).unwrap();
    assert_ne!(a.hash(), b.hash());
    a.clear_voxel(grids[0], [5, 5, 5]).unwrap();
    // Content back as it was: the same hash, whatever the edit history was.
    assert_eq!(a.hash(), b.hash());
    // Restored: boxes rebuilt from content, the same list.
    let mut snap = vec![0u8; a.snapshot_size()];
    let n = a.snapshot(&mut snap).unwrap();
    let mut c = World::new(&World::def_from_snapshot(&snap[..n]).unwrap()).unwrap();
    c.restore(&snap[..n]).unwrap();
    assert_eq!(c.hash(), a.hash());
    for (g, h) in grids.iter().zip(c.mesh_ids()) {
        assert_eq!(c.voxel_boxes(h).unwrap(), a.voxel_boxes(*g).unwrap());
    }
}

#[test]
fn a_restored_world_with_voxel_edits_continues_bit_for_bit() {
    let (mut w, grids, _) = dig_scene(WorldDef::default(), false);
    step_n(&mut w, 40);
    w.fill_voxels(grids[2], [6, 0, 0], [13, 1, 6], 0).unwrap();
    step_n(&mut w, 5);
    let mut snap = vec![0u8; w.snapshot_size()];
    let n = w.snapshot(&mut snap).unwrap();
    snap.truncate(n);
    let run = |w: &mut World| -> Vec<u64> {
        let first = w.mesh_ids().next().unwrap();
        (0..80)
            .map(|i| {
                if i == 30 {
                    w.fill_voxels(first, [0, 1, 0], [15, 1, 15], 0).unwrap();
                }
                w.step(DT, SUBSTEPS).unwrap();
                w.hash()
            })
            .collect()
    };
    let reference = run(&mut w);
    // Into a fresh world and back into the same one (grids refilled in place).
    let mut fresh = World::new(&World::def_from_snapshot(&snap).unwrap()).unwrap();
    fresh.restore(&snap).unwrap();
    assert_eq!(run(&mut fresh), reference);
    w.restore(&snap).unwrap();
    assert_eq!(run(&mut w), reference);
}

#[test]
fn one_and_four_workers_give_the_same_hashes_with_voxel_edits() {
    let run = |def: WorldDef| -> Vec<u64> {
        let (mut w, grids, _) = dig_scene(def, false);
        for k in 0..10 {
            cube(
                &mut w,
                DVec3::new(
                    -4.0 + 0.9 * k as f64,
                    3.0 + 0.6 * k as f64,
                    -2.0 + 0.4 * k as f64,
                ),
                0.3,
            );
        }
        (0..150)
            .map(|i| {
                if i == 70 {
                    w.fill_voxels(grids[2], [4, 0, 0], [12, 1, 8], 0).unwrap();
                    w.fill_voxels(grids[0], [0, 2, 0], [3, 4, 15], 5).unwrap();
                }
                w.step(DT, SUBSTEPS).unwrap();
                w.hash()
            })
            .collect()
    };
    let reference = run(WorldDef::default());
    for (workers, threaded) in [(1, true), (4, true), (4, false)] {
        let pool = tasks::TestTasks::new(workers, threaded, 0x7e1 + workers as u64);
        let got = run(WorldDef {
            task_hooks: Some(pool.hooks()),
            ..Default::default()
        });
        assert_eq!(got, reference, "{workers} workers (threaded: {threaded})");
    }
}

#[test]
fn debug_draw_gives_each_merged_box() {
    struct Boxes(Vec<(Vec3, Vec3)>);
    impl DebugDraw for Boxes {
        fn shape(
            &mut self,
            _: ShapeId,
            _: BodyId,
            _: DVec3,
            _: Quat,
            geometry: &DebugGeometry,
            _: bool,
        ) {
            if let DebugGeometry::Box { half, center, .. } = geometry {
                self.0.push((*half, *center));
            }
        }
    }
    let mut w = voxel_world();
    // Two materials side by side: two boxes.
    let data = voxels(|x, y, _| if y == 0 { 1 + (x >= 8) as u8 } else { 0 });
    let grid = terrain(&mut w, 1.0, &[(data, Vec3::new(0.0, 5.0, 0.0))], 0.6)[0];
    assert_eq!(w.voxel_boxes(grid).unwrap().len(), 2);
    let mut d = Boxes(Vec::new());
    w.debug_draw(
        &DebugDrawOptions {
            shapes: true,
            ..Default::default()
        },
        &mut d,
    );
    assert_eq!(
        d.0,
        vec![
            (Vec3::new(4.0, 0.5, 8.0), Vec3::new(4.0, 5.5, 8.0)),
            (Vec3::new(4.0, 0.5, 8.0), Vec3::new(12.0, 5.5, 8.0)),
        ]
    );
}

#[test]
fn a_fast_sphere_does_not_pass_through_a_thin_voxel_floor() {
    let mut w = voxel_world();
    flat_terrain(&mut w, 0.25, 1, 1, 1);
    let s = dynamic(&mut w, DVec3::new(0.5, 3.0, 0.5));
    w.create_sphere_shape(
        s,
        &ShapeDef::default(),
        &Sphere {
            center: Vec3::ZERO,
            radius: 0.1,
        },
    )
    .unwrap();
    w.set_body_linear_velocity(s, Vec3::new(0.0, -120.0, 0.0))
        .unwrap();
    step_n(&mut w, 30);
    let y = w.body_position(s).unwrap().y;
    assert!(y > 0.0, "the sphere went through: y = {y}");
}

#[test]
fn contact_points_rest_info_and_motion_tests_see_the_merged_boxes() {
    let mut w = voxel_world();
    // A floor with its top at y = 0 and a wall of voxels x = 12..16 (x >= 2 m) up to 2 m.
    let data = voxels(|x, y, _| (y < 2 || (x >= 12 && y < 6)) as u8);
    terrain(&mut w, 0.5, &[(data, Vec3::new(-4.0, -1.0, -4.0))], 0.6);
    let ball = QueryShape::Sphere(Sphere {
        center: Vec3::ZERO,
        radius: 0.5,
    });
    let f = QueryFilter::default();
    // A ball sunk 0.1 m into the floor away from the wall.
    let none = maul3d::ContactPointPair {
        point_on_query: DVec3::ZERO,
        point_on_other: DVec3::ZERO,
        normal: Vec3::ZERO,
        depth: 0.0,
        shape: Default::default(),
        body: Default::default(),
        velocity: Vec3::ZERO,
    };
    let mut out = [none; 4];
    let n = w
        .contact_points(
            &ball,
            DVec3::new(-1.0, 0.4, 0.3),
            Quat::IDENTITY,
            0.0,
            &f,
            None,
            &mut out,
        )
        .unwrap();
    assert!(n >= 1);
    assert!((out[0].depth - 0.1).abs() < 1e-4, "{}", out[0].depth);
    assert!(
        (out[0].normal - Vec3::Y).length() < 1e-4,
        "{:?}",
        out[0].normal
    );
    let rest = w
        .rest_info(
            &ball,
            DVec3::new(-1.0, 0.52, 0.3),
            Quat::IDENTITY,
            0.05,
            &f,
            None,
        )
        .unwrap()
        .unwrap();
    assert!(
        (rest.point_on_other.y).abs() < 1e-4,
        "{:?}",
        rest.point_on_other
    );
    // A box body moved towards the wall stops `margin` short of its face at x = 2.
    let b = cube(&mut w, DVec3::new(0.0, 0.5, 0.0), 0.25);
    let mut hits = [maul3d::MotionCollision {
        contact: none,
        local_shape: Default::default(),
    }; 4];
    let r = w
        .test_body_motion(
            &maul3d::MotionTest {
                body: b,
                position: DVec3::new(0.0, 0.5, 0.0),
                rotation: Quat::IDENTITY,
                motion: Vec3::new(4.0, 0.0, 0.0),
                margin: 0.01,
                filter: QueryFilter::default(),
            },
            &mut hits,
        )
        .unwrap();
    assert!((r.travel.x - 1.74).abs() < 2e-3, "{:?}", r.travel);
    assert!(r.collision_count >= 1);
    assert!(
        (hits[0].contact.normal + Vec3::X).length() < 1e-3,
        "{:?}",
        hits[0].contact.normal
    );
}
