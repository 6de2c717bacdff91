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

#[test]
fn the_soft_bodies_drape_drag_bounce_and_keep_their_volume() {
    use maul3d::math::DVec3;
    let sphere = DVec3::new(0.0, 1.0, 0.0);
    let positions = |w: &World, id| {
        let n = w.soft_body_particle_count(id).unwrap() as usize;
        let mut q = vec![DVec3::ZERO; n];
        w.soft_body_positions(id, &mut q).unwrap();
        q
    };
    let (mut over, mut inside) = (f64::MAX, f64::MAX);
    let (mut dragged, mut gap) = (0.0, f64::MAX);
    let (mut ball_y0, mut ball_rise) = (0.0, 0.0);
    let (mut rest_volume, mut worst_volume) = (0.0f32, 0.0f32);
    let mut pin = DVec3::ZERO;
    let mut touching = [0; 2];
    let mut counts = Vec::new();
    run("soft", 300, |w, s| {
        let ids: Vec<_> = w.soft_body_ids().collect();
        counts.push(ids.len());
        let cloth = positions(w, ids[0]);
        let closest = cloth
            .iter()
            .map(|q| (*q - sphere).to_f32().length() as f64)
            .fold(f64::MAX, f64::min);
        // Over the sphere until its filter lets it through at step 260.
        if s < 260 {
            over = over.min(closest);
        } else {
            inside = inside.min(closest);
        }
        let centre = |q: Vec<DVec3>| q.iter().map(|x| x.y).sum::<f64>() / q.len() as f64;
        if s == 99 {
            ball_y0 = centre(positions(w, ids[1]));
        }
        if (100..120).contains(&s) {
            ball_rise = f64::max(ball_rise, centre(positions(w, ids[1])) - ball_y0);
        }
        // The volume ball is the third soft body but from 180 to the rollback at 220.
        if !(180..220).contains(&s) {
            let v = w.soft_body_volume(ids[2]).unwrap();
            if s == 0 {
                rest_volume = v;
            }
            worst_volume = worst_volume.max(((v - rest_volume) / rest_volume).abs());
        }
        if s == 149 {
            // The corner holds the box at its attachment point and has dragged it towards
            // the pins (it started at x = z = 1).
            let (b, local) = w.soft_particle_attachment(ids[0], 143).unwrap().unwrap();
            let p = w.body_position(b).unwrap();
            let q = w.body_rotation(b).unwrap();
            let at = p + q.rotate(local).to_f64();
            gap = (cloth[143] - at).to_f32().length() as f64;
            dragged = 2.0 - p.x - p.z;
        }
        if s == 259 || s == 299 {
            let mut planes = vec![None; cloth.len()];
            w.soft_particle_contacts(ids[0], &mut planes).unwrap();
            touching[(s == 299) as usize] = planes.iter().filter(|p| p.is_some()).count();
        }
        if s == 299 {
            pin = cloth[0];
        }
    });
    let at = |k: usize| counts[k];
    println!(
        "cloth over the sphere: closest particle centre {over:.4} m from its centre (radius \
         0.5 + 0.02), after its filter opened {inside:.4}; cloth particles touching a shape \
         before and after {touching:?}; box dragged {dragged:.3} m towards \
         the pins, corner {gap:.4} m from its attachment point; pressure ball rose \
         {ball_rise:.3} m after its push; volume ball within {:.2} % of its volume; pin at \
         {pin:?}; soft bodies at steps 1, 180, 181, 220, 221, 300: {:?}",
        100.0 * worst_volume,
        [at(0), at(179), at(180), at(219), at(220), at(299)]
    );
    assert!(over >= 0.5 + 0.02 - 0.01, "into the sphere: {over}");
    assert!(
        inside < 0.5,
        "the cloth did not pass into the sphere: {inside}"
    );
    assert!(touching[0] > 0 && touching[1] == 0, "{touching:?}");
    assert!(gap < 0.05 && dragged > 0.3, "{gap} {dragged}");
    assert!(
        ball_rise > 0.2,
        "the pressure ball did not jump: {ball_rise}"
    );
    assert!(worst_volume < 0.05, "{worst_volume}");
    assert_eq!(pin, DVec3::new(-0.75, 2.0, -1.0), "the moved pin");
    assert_eq!([at(0), at(179), at(180), at(219), at(220), at(299)], [3; 6]);
}
