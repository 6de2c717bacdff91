//! fast_capsules compares like work: both engines stop the capsules (fired at 100 to
//! 290 m/s, up to 4.8 m a step, at a height field whose swell lies within y ∈ [−1, 1])
//! on the surface, Rapier with its continuous collision switched on for them
//! (`Scene::rapier_ccd`), as Maul3D sweeps every fast body against static geometry.
//! (Rapier's height-field contacts push a capsule found below a triangle back up, so
//! without its sweeps it keeps them too, while doing less work than the scene measures.)

use maul3d_bench::Engine;
use maul3d_bench::maul3d_side::Maul3dEngine;
use maul3d_bench::rapier::RapierEngine;
use maul3d_bench::scenes::fast_capsules;

/// The capsules' mean height after 29 steps (the last before they are fired again; the
/// static field's body is at height 0 and adds nothing).
fn mean_height<E: Engine>(scene: &maul3d_bench::scenes::Scene) -> f64 {
    let mut engine = E::build(scene);
    for _ in 0..29 {
        engine.step();
    }
    engine.checksum() / 20.0
}

#[test]
fn both_engines_stop_the_fast_capsules_on_the_height_field() {
    let scene = fast_capsules();
    assert!(scene.rapier_ccd);
    for (name, y) in [
        ("maul3d", mean_height::<Maul3dEngine>(&scene)),
        ("rapier", mean_height::<RapierEngine>(&scene)),
    ] {
        assert!(y > -1.5, "{name}: mean height {y}");
    }
}
