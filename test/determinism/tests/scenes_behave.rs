//! The characters, vehicles and water scenes of `test/hashes.txt` do what their comments
//! say, so their hashes pin down real behaviour rather than a world standing still.

#![allow(clippy::disallowed_methods)] // measuring results in a test, not simulating

use maul3d::World;
use maul3d_determinism::{Driver, SCENES};

fn run(name: &str, steps: u32, mut look: impl FnMut(&World, u32)) {
    let scene = SCENES.iter().position(|s| *s == name).unwrap();
    let (mut w, mut d) = Driver::build(scene, None);
    for s in 0..steps {
        d.before_step(&mut w, s);
        Driver::step(&mut w);
        look(&w, s);
    }
}

#[test]
fn the_characters_walk_stay_up_and_ride() {
    let mut start = Vec::new();
    let mut lowest = f64::MAX;
    let mut rider_rose = 0.0;
    run("characters", 300, |w, s| {
        let ids: Vec<_> = w.character_ids().collect();
        if s == 0 {
            start = ids
                .iter()
                .map(|&c| w.character_position(c).unwrap())
                .collect();
        }
        for &c in &ids {
            lowest = lowest.min(w.character_position(c).unwrap().y);
        }
        if s == 200 {
            // Character 3 stands on the lift, which rises at 0.5 m/s.
            rider_rose = w.character_position(ids[3]).unwrap().y - start[3].y;
        }
        if s == 100 {
            let walked = (w.character_position(ids[0]).unwrap() - start[0])
                .to_f32()
                .length();
            println!("character 0 walked {walked:.2} m in 100 steps");
            assert!(walked > 1.5, "{walked}");
        }
    });
    println!("lowest centre {lowest:.3} m, rider rose {rider_rose:.2} m");
    // The capsule's centre stands 0.9 m above the floor (radius 0.3, half-height 0.6).
    assert!(lowest > 0.85, "a character sank: {lowest}");
    assert!(rider_rose > 1.5, "the lift's rider rose {rider_rose} m");
}

#[test]
fn the_cars_drive_brake_and_stay_upright() {
    let mut speeds = [0.0f32; 3];
    let mut braked = 0.0;
    let mut upright = 1.0f32;
    run("vehicles", 300, |w, s| {
        let ids: Vec<_> = w.vehicle_ids().collect();
        if s == 119 {
            for (k, &v) in ids.iter().enumerate() {
                speeds[k] = w.vehicle_forward_speed(v).unwrap();
            }
        }
        if s == 299 {
            braked = w.vehicle_forward_speed(ids[2]).unwrap();
        }
        for &v in &ids {
            let chassis = w.vehicle_def(v).unwrap().chassis;
            let q = w.body_rotation(chassis).unwrap();
            upright = upright.min(q.rotate(maul3d::math::Vec3::Y).y);
        }
    });
    println!(
        "speeds at step 120 {speeds:?}, car 2 at the end {braked:.2} m/s, upright {upright:.3}"
    );
    assert!(speeds.iter().all(|&v| v > 2.0), "{speeds:?}");
    assert!(braked.abs() < 0.5 * speeds[2], "car 2 still at {braked}");
    assert!(upright > 0.8, "a car tipped: {upright}");
}

#[test]
fn light_bodies_float_and_heavy_ones_sink() {
    let mut floating = 0;
    let mut sunk = 0;
    run("water", 300, |w, s| {
        if s != 299 {
            return;
        }
        for b in w.body_ids().skip(1) {
            let y = w.body_position(b).unwrap().y;
            if y > 2.5 {
                floating += 1;
            } else if y < 1.0 {
                sunk += 1;
            }
        }
    });
    println!("{floating} floating near the surface (y = 3), {sunk} on the pool floor");
    assert!(floating >= 5, "{floating}");
    assert!(sunk >= 3, "{sunk}");
}
