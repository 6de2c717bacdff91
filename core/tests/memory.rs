//! Memory: a step never allocates, and a refused allocation at create leaks nothing.

#![allow(clippy::disallowed_methods)] // measuring results in tests, not simulating

mod common;
use common::*;
use core::ffi::c_void;
use maul3d::math::{DVec3, Vec3};
use maul3d::{HostAllocator, ShapeDef, World, WorldDef};
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Counts every allocation made on a thread while counting is on: catches a stray `Vec`
/// inside the step even if it bypassed the world's allocator.
struct CountingGlobal;

thread_local! {
    static COUNTING: Cell<bool> = const { Cell::new(false) };
    static GLOBAL_ALLOCS: Cell<usize> = const { Cell::new(0) };
}

// SAFETY: forwards to the system allocator; the counters are thread-local cells.
unsafe impl GlobalAlloc for CountingGlobal {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let _ = COUNTING.try_with(|c| {
            if c.get() {
                GLOBAL_ALLOCS.with(|n| n.set(n.get() + 1));
            }
        });
        // SAFETY: same layout contract as the caller's.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: the block came from System.alloc with this layout.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let _ = COUNTING.try_with(|c| {
            if c.get() {
                GLOBAL_ALLOCS.with(|n| n.set(n.get() + 1));
            }
        });
        // SAFETY: same contract as GlobalAlloc::realloc.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: CountingGlobal = CountingGlobal;

/// The host allocator of the world def: counts calls and live bytes, and refuses after a
/// budget of allocations.
struct HostCounter {
    allocs: AtomicUsize,
    frees: AtomicUsize,
    live_bytes: AtomicUsize,
    budget: AtomicUsize,
}

unsafe extern "C" fn host_alloc(size: usize, align: usize, ctx: *mut c_void) -> *mut c_void {
    // SAFETY: ctx is the &HostCounter the test passed in the def.
    let c = unsafe { &*(ctx as *const HostCounter) };
    if c.budget.load(Ordering::Relaxed) == 0 {
        return core::ptr::null_mut();
    }
    c.budget.fetch_sub(1, Ordering::Relaxed);
    c.allocs.fetch_add(1, Ordering::Relaxed);
    c.live_bytes.fetch_add(size, Ordering::Relaxed);
    // SAFETY: size > 0 (the world never asks for zero bytes through the hook).
    unsafe { System.alloc(Layout::from_size_align(size, align).unwrap()) as *mut c_void }
}

unsafe extern "C" fn host_free(ptr: *mut c_void, size: usize, align: usize, ctx: *mut c_void) {
    // SAFETY: ctx is the &HostCounter the test passed in the def.
    let c = unsafe { &*(ctx as *const HostCounter) };
    c.frees.fetch_add(1, Ordering::Relaxed);
    c.live_bytes.fetch_sub(size, Ordering::Relaxed);
    // SAFETY: the block came from host_alloc with this size and alignment.
    unsafe {
        System.dealloc(
            ptr as *mut u8,
            Layout::from_size_align(size, align).unwrap(),
        )
    }
}

fn counter(budget: usize) -> Box<HostCounter> {
    Box::new(HostCounter {
        allocs: AtomicUsize::new(0),
        frees: AtomicUsize::new(0),
        live_bytes: AtomicUsize::new(0),
        budget: AtomicUsize::new(budget),
    })
}

fn def_with(c: &HostCounter) -> WorldDef {
    WorldDef {
        body_capacity: 256,
        shape_capacity: 256,
        contact_capacity: 2048,
        pair_capacity: 1024,
        event_capacity: 64,
        allocator: Some(HostAllocator {
            alloc: host_alloc,
            free: host_free,
            context: c as *const HostCounter as *mut c_void,
        }),
        ..Default::default()
    }
}

#[test]
fn a_busy_scene_steps_without_a_single_allocation() {
    let c = counter(usize::MAX);
    let mut world = World::new(&def_with(&c)).unwrap();
    ground(&mut world, 0.6);
    let pyr = pyramid(&mut world, 6, DVec3::ZERO);
    let hull = world
        .create_hull(&[
            Vec3::new(-0.4, -0.4, -0.4),
            Vec3::new(0.4, -0.4, -0.4),
            Vec3::new(0.0, -0.4, 0.4),
            Vec3::new(0.0, 0.4, 0.0),
        ])
        .unwrap();
    let mut falling = Vec::new();
    for i in 0..40 {
        let b = dynamic_box(
            &mut world,
            DVec3::new(
                8.0 + (i % 5) as f64,
                2.0 + i as f64 * 0.8,
                (i / 5) as f64 * 0.3,
            ),
            Vec3::new(0.3, 0.3, 0.3),
            &ShapeDef::default(),
        );
        if i % 3 == 0 {
            world
                .create_hull_shape(b, &ShapeDef::default(), hull)
                .unwrap();
        }
        falling.push(b);
    }
    // Joints too: a chain, a ragdoll, and a weld that breaks under a pull at step 200.
    hanging_chain(&mut world, DVec3::new(-8.0, 6.0, 0.0), 8);
    ragdoll(&mut world, DVec3::new(-4.0, 1.0, 0.0), 1);
    let post = world.create_body(&maul3d::BodyDef::default()).unwrap();
    let held = dynamic_box(
        &mut world,
        DVec3::new(-12.0, 3.0, 0.0),
        Vec3::splat(0.3),
        &ShapeDef::default(),
    );
    let weld = joint_at(
        &mut world,
        post,
        held,
        DVec3::new(-12.0, 3.3, 0.0),
        maul3d::math::Quat::IDENTITY,
        maul3d::JointKind::Weld(Default::default()),
    );
    let weight = world.body_mass_data(held).unwrap().mass * 10.0;
    world
        .set_joint_break_thresholds(weld, 3.0 * weight, f32::MAX)
        .unwrap();
    let allocs_before = c.allocs.load(Ordering::Relaxed);
    let mut began = 0;
    let mut ended = 0;
    let mut slept = false;
    let mut woke_again = false;
    for step in 0..600 {
        // Commands between steps: kick bodies so contacts end and begin, islands wake.
        if step % 150 == 149 {
            for b in falling.iter().step_by(7) {
                world
                    .apply_linear_impulse_to_center(*b, Vec3::new(0.0, 3.0, 1.0))
                    .unwrap();
            }
            world
                .set_body_velocity(pyr[0], Vec3::new(0.0, 0.0, 0.5), Vec3::ZERO)
                .unwrap();
            woke_again |= slept;
        }
        if step == 200 {
            world
                .apply_force_to_center(held, Vec3::new(0.0, -10.0 * weight, 0.0))
                .unwrap();
        }
        COUNTING.with(|x| x.set(true));
        world.step(DT, SUBSTEPS).unwrap();
        COUNTING.with(|x| x.set(false));
        began += world.contact_begin_events().len();
        ended += world.contact_end_events().len();
        if world.counters().awake_body_count < (pyr.len() + falling.len()) as u32 {
            slept = true;
        }
    }
    assert_eq!(
        GLOBAL_ALLOCS.with(|n| n.get()),
        0,
        "the step allocated through the global allocator"
    );
    assert_eq!(
        c.allocs.load(Ordering::Relaxed),
        allocs_before,
        "the step allocated through the host allocator"
    );
    assert!(
        began > 50 && ended > 10,
        "the scene was not busy: {began} begins, {ended} ends"
    );
    assert!(
        slept && woke_again,
        "bodies should have slept and been woken"
    );
    assert!(
        world.joint_is_broken(weld).unwrap(),
        "the weld broke in a step"
    );
    drop(world);
    assert_eq!(c.live_bytes.load(Ordering::Relaxed), 0, "memory leaked");
    assert_eq!(
        c.allocs.load(Ordering::Relaxed),
        c.frees.load(Ordering::Relaxed)
    );
}

#[test]
fn a_refusing_allocator_fails_create_with_a_capacity_error_and_leaks_nothing() {
    // Find how many allocations a world takes, then refuse at every point before that.
    let full = counter(usize::MAX);
    let world = World::new(&def_with(&full)).unwrap();
    let needed = full.allocs.load(Ordering::Relaxed);
    drop(world);
    assert!(needed > 5);
    for budget in 0..needed {
        let c = counter(budget);
        let err = World::new(&def_with(&c)).err().expect("create must fail");
        assert!(
            matches!(err, maul3d::Error::Capacity { .. }),
            "budget {budget}: {err}"
        );
        assert_eq!(
            c.live_bytes.load(Ordering::Relaxed),
            0,
            "budget {budget}: leaked"
        );
        assert_eq!(
            c.allocs.load(Ordering::Relaxed),
            c.frees.load(Ordering::Relaxed)
        );
    }
    // And every byte of the world came through the host allocator, and `memory_usage`
    // reports every one of them.
    let c = counter(usize::MAX);
    let world = World::new(&def_with(&c)).unwrap();
    assert_eq!(c.live_bytes.load(Ordering::Relaxed), world.memory_usage());
}

#[test]
fn meshes_take_content_from_the_host_allocator_and_steps_on_them_allocate_nothing() {
    let c = counter(usize::MAX);
    let mut world = World::new(&def_with(&c)).unwrap();
    let n = 20u32;
    let mut v = Vec::new();
    for z in 0..=n {
        for x in 0..=n {
            let y = ((x * 3 + z) % 4) as f32 * 0.05;
            v.push(Vec3::new(x as f32 - 10.0, y, z as f32 - 10.0));
        }
    }
    let mut t = Vec::new();
    for z in 0..n {
        for x in 0..n {
            let (a, b) = (z * (n + 1) + x, z * (n + 1) + x + 1);
            t.push([a, a + n + 1, b + n + 1]);
            t.push([a, b + n + 1, b]);
        }
    }
    let live = c.live_bytes.load(Ordering::Relaxed);
    let mesh = world.create_mesh(&v, &t).unwrap();
    // The content and its tree came from the host, and about what the budget counts.
    let taken = c.live_bytes.load(Ordering::Relaxed) - live;
    assert!(taken as u64 >= world.content_usage(), "{taken}");
    let floor = world.create_body(&maul3d::BodyDef::default()).unwrap();
    world
        .create_mesh_shape(floor, &ShapeDef::default(), mesh)
        .unwrap();
    let heights = vec![0.1f32; 9 * 9];
    let hf = world
        .create_height_field(&maul3d::HeightFieldDef {
            count_x: 9,
            count_z: 9,
            heights: &heights,
            holes: &[],
            scale: Vec3::ONE,
        })
        .unwrap();
    let platform = world
        .create_body(&maul3d::BodyDef {
            body_type: maul3d::BodyType::Kinematic,
            position: DVec3::new(-4.0, 3.0, -4.0),
            angular_velocity: Vec3::new(0.0, 0.5, 0.0),
            ..Default::default()
        })
        .unwrap();
    world
        .create_mesh_shape(platform, &ShapeDef::default(), hf)
        .unwrap();
    for i in 0..40 {
        dynamic_box(
            &mut world,
            DVec3::new(
                -6.0 + (i % 8) as f64 * 1.5,
                2.0 + (i / 8) as f64 * 1.5,
                -3.0 + (i % 3) as f64 * 2.0,
            ),
            Vec3::new(0.3, 0.25, 0.3),
            &ShapeDef::default(),
        );
    }
    let allocs_before = c.allocs.load(Ordering::Relaxed);
    COUNTING.with(|x| x.set(true));
    for _ in 0..240 {
        world.step(DT, SUBSTEPS).unwrap();
    }
    COUNTING.with(|x| x.set(false));
    assert!(world.counters().touching_contact_count > 40);
    assert_eq!(c.allocs.load(Ordering::Relaxed), allocs_before);
    assert_eq!(GLOBAL_ALLOCS.with(|n| n.get()), 0);
    drop(world);
    assert_eq!(c.live_bytes.load(Ordering::Relaxed), 0);
}

#[test]
fn voxel_grids_take_content_from_the_host_and_steps_and_edits_on_them_allocate_nothing() {
    let c = counter(usize::MAX);
    let mut world = World::new(&def_with(&c)).unwrap();
    let floor = world.create_body(&maul3d::BodyDef::default()).unwrap();
    let data: Vec<u8> = (0..4096).map(|i| ((i / 16) % 16 < 2) as u8).collect();
    let mut grids = Vec::new();
    for k in 0..4 {
        let live = c.live_bytes.load(Ordering::Relaxed);
        let g = world
            .create_voxel_grid(&maul3d::VoxelGridDef {
                voxel_size: 0.5,
                data: &data,
                origin: Vec3::new((k % 2) as f32 * 8.0 - 8.0, -1.0, (k / 2) as f32 * 8.0 - 8.0),
            })
            .unwrap();
        // The chunk came from the host: what the budget counts for it.
        let taken = c.live_bytes.load(Ordering::Relaxed) - live;
        assert_eq!(
            taken,
            maul3d::geometry::voxel::VoxelChunk::content_size_bytes()
        );
        world
            .create_voxel_shape(floor, &ShapeDef::default(), g)
            .unwrap();
        grids.push(g);
    }
    for i in 0..40 {
        dynamic_box(
            &mut world,
            DVec3::new(
                -6.0 + (i % 8) as f64 * 1.5,
                2.0 + (i / 8) as f64 * 1.5,
                -3.0 + (i % 3) as f64 * 2.0,
            ),
            Vec3::new(0.3, 0.25, 0.3),
            &ShapeDef::default(),
        );
    }
    let allocs_before = c.allocs.load(Ordering::Relaxed);
    COUNTING.with(|x| x.set(true));
    for step in 0..240 {
        if step == 120 {
            world
                .fill_voxels(grids[0], [2, 0, 2], [10, 1, 10], 0)
                .unwrap();
            world.set_voxel(grids[3], [4, 2, 4], 7).unwrap();
        }
        world.step(DT, SUBSTEPS).unwrap();
    }
    COUNTING.with(|x| x.set(false));
    let touching = world.counters().touching_contact_count;
    assert!(touching > 20, "{touching}");
    assert_eq!(c.allocs.load(Ordering::Relaxed), allocs_before);
    assert_eq!(GLOBAL_ALLOCS.with(|n| n.get()), 0);
    drop(world);
    assert_eq!(c.live_bytes.load(Ordering::Relaxed), 0);
}
