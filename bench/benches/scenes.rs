//! Criterion benches: per scene and engine (Maul3D on one thread and on two), the time of a
//! batch of steps once the scene has started moving. Kept short (few samples, flat sampling) so a whole run stays in minutes;
//! the binary's full-length run is the figure to quote.

use criterion::measurement::WallTime;
use criterion::{BenchmarkGroup, Criterion, SamplingMode, criterion_group, criterion_main};
use maul3d_bench::Engine;
use maul3d_bench::rapier::RapierEngine;
use maul3d_bench::scenes::{Scene, SceneName};
use std::time::Duration;

/// Steps run before measuring, so pairs exist and bodies are in contact.
const WARM_UP_STEPS: usize = 20;
/// Steps in one measured iteration.
const BATCH: usize = 10;

fn bench_engine<E: Engine>(group: &mut BenchmarkGroup<'_, WallTime>, id: &str, scene: &Scene) {
    let mut engine = E::build(scene);
    for _ in 0..WARM_UP_STEPS {
        engine.step();
    }
    group.bench_function(id, |b| {
        b.iter(|| {
            for _ in 0..BATCH {
                engine.step();
            }
        })
    });
}

fn scenes(c: &mut Criterion) {
    for name in SceneName::ALL {
        let Ok(scene) = name.build() else {
            continue;
        };
        let mut group = c.benchmark_group(name.as_str());
        group
            .sample_size(10)
            .sampling_mode(SamplingMode::Flat)
            .warm_up_time(Duration::from_millis(500))
            .measurement_time(Duration::from_secs(3));
        #[cfg(feature = "maul3d-side")]
        if name.missing_feature().is_none() {
            use maul3d_bench::maul3d_side::{Maul3dEngine, set_task_hooks};
            bench_engine::<Maul3dEngine>(&mut group, "maul3d", &scene);
            // The same on two threads: a persistent pool behind the task hooks, as a game
            // keeps its job system.
            let pool = maul3d_bench::pool::Pool::new(2);
            set_task_hooks(Some(pool.hooks()));
            bench_engine::<Maul3dEngine>(&mut group, "maul3d-2-threads", &scene);
            set_task_hooks(None);
        }
        bench_engine::<RapierEngine>(&mut group, "rapier", &scene);
        group.finish();
    }
}

criterion_group!(benches, scenes);
criterion_main!(benches);
