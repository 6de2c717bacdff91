//! The bench's thread pool is a correct host for the task hooks: a world stepped on it
//! (2 and 3 threads) gives the single thread's hash at every step, with every piece run
//! once (the core checks its items are all claimed; a lost or doubled piece would change
//! the bits or hang).

use maul3d::math::{DVec3, Vec3};
use maul3d::{BodyDef, BodyType, ShapeDef, World, WorldDef};
use maul3d_bench::pool::Pool;

fn hashes(hooks: Option<maul3d::TaskHooks>) -> Vec<u64> {
    let mut w = World::new(&WorldDef {
        task_hooks: hooks,
        body_capacity: 1100,
        shape_capacity: 1100,
        contact_capacity: 8192,
        pair_capacity: 8192,
        ..Default::default()
    })
    .unwrap();
    let ground = w.create_body(&BodyDef::default()).unwrap();
    w.create_box_shape(ground, &ShapeDef::default(), Vec3::new(40.0, 0.5, 40.0))
        .unwrap();
    for k in 0..1000 {
        let b = w
            .create_body(&BodyDef {
                body_type: BodyType::Dynamic,
                position: DVec3::new(
                    (k % 10) as f64 * 1.1 - 5.0,
                    1.0 + (k / 100) as f64 * 1.05,
                    ((k / 10) % 10) as f64 * 1.1 - 5.0,
                ),
                ..Default::default()
            })
            .unwrap();
        w.create_box_shape(b, &ShapeDef::default(), Vec3::new(0.5, 0.5, 0.5))
            .unwrap();
    }
    (0..60)
        .map(|_| {
            w.step(1.0 / 60.0, 4).unwrap();
            w.hash()
        })
        .collect()
}

#[test]
fn a_world_on_the_pool_steps_to_the_single_threaded_hashes() {
    let one = hashes(None);
    for threads in [2, 3] {
        let pool = Pool::new(threads);
        assert_eq!(hashes(Some(pool.hooks())), one, "{threads} threads");
        assert!(
            pool.pieces_run_by_workers() > 0,
            "{threads} threads: the workers ran no piece"
        );
    }
}
