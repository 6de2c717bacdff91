//! Comparing two worlds body by body: what a desync report lists.

use crate::id::BodyId;
use crate::world::World;

/// One row of `World::compare`: a body slot whose state differs between two worlds.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct BodyDiff {
    /// The body slot (an id's index minus one).
    pub slot: u32,
    /// Alive in the first world.
    pub alive_in_a: bool,
    /// Alive in the second world.
    pub alive_in_b: bool,
    /// Distance between the positions (infinite if alive in one world only).
    pub position_error: f64,
    /// Angle between the rotations, radians.
    pub rotation_error: f32,
    /// Length of the linear plus the angular velocity difference.
    pub velocity_error: f32,
}

impl BodyDiff {
    fn worse_than(&self, o: &BodyDiff) -> bool {
        if self.position_error != o.position_error {
            return self.position_error > o.position_error;
        }
        if self.rotation_error != o.rotation_error {
            return self.rotation_error > o.rotation_error;
        }
        if self.velocity_error != o.velocity_error {
            return self.velocity_error > o.velocity_error;
        }
        self.slot < o.slot
    }
}

impl World {
    /// Lists the body slots whose state differs between two worlds, worst first (by
    /// position, then rotation, then velocity error), including bodies alive in only one
    /// of them. Fills up to `rows.len()` rows and returns how many slots differ.
    pub fn compare(a: &World, b: &World, rows: &mut [BodyDiff]) -> usize {
        let n = a.bodies.len().max(b.bodies.len());
        let mut count = 0;
        let mut filled = 0;
        for slot in 0..n {
            let ba = a.bodies.get(slot).filter(|x| x.alive);
            let bb = b.bodies.get(slot).filter(|x| x.alive);
            let diff = match (ba, bb) {
                (None, None) => continue,
                (Some(x), Some(y)) => {
                    let same = x.position == y.position
                        && x.rotation == y.rotation
                        && x.linear_velocity == y.linear_velocity
                        && x.angular_velocity == y.angular_velocity
                        && x.awake == y.awake
                        && x.generation == y.generation;
                    if same {
                        continue;
                    }
                    let dp = x.position - y.position;
                    let dot = x.rotation.x * y.rotation.x
                        + x.rotation.y * y.rotation.y
                        + x.rotation.z * y.rotation.z
                        + x.rotation.w * y.rotation.w;
                    BodyDiff {
                        slot: slot as u32,
                        alive_in_a: true,
                        alive_in_b: true,
                        position_error: (dp.x * dp.x + dp.y * dp.y + dp.z * dp.z).sqrt(),
                        rotation_error: 2.0 * crate::math::acos(dot.abs()),
                        velocity_error: (x.linear_velocity - y.linear_velocity).length()
                            + (x.angular_velocity - y.angular_velocity).length(),
                    }
                }
                (x, y) => BodyDiff {
                    slot: slot as u32,
                    alive_in_a: x.is_some(),
                    alive_in_b: y.is_some(),
                    position_error: f64::INFINITY,
                    rotation_error: f32::INFINITY,
                    velocity_error: f32::INFINITY,
                },
            };
            count += 1;
            // Keep the worst rows, sorted, by insertion.
            let mut i = filled;
            if filled < rows.len() {
                filled += 1;
            } else if rows.is_empty() || !diff.worse_than(&rows[rows.len() - 1]) {
                continue;
            } else {
                i = rows.len() - 1;
            }
            while i > 0 && diff.worse_than(&rows[i - 1]) {
                rows[i] = rows[i - 1];
                i -= 1;
            }
            rows[i] = diff;
        }
        count
    }

    /// The id a body slot has in this world, if alive (for rows of `compare`).
    pub fn body_id_at(&self, slot: u32) -> Option<BodyId> {
        self.bodies
            .get(slot as usize)
            .filter(|b| b.alive)
            .map(|_| self.body_id(slot))
    }
}

/// One row of `World::compare_soft_bodies`: a soft body slot whose state differs.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SoftBodyDiff {
    /// The soft body slot (an id's index minus one).
    pub slot: u32,
    /// Alive in the first world.
    pub alive_in_a: bool,
    /// Alive in the second world.
    pub alive_in_b: bool,
    /// The particle whose position differs most (0 when the meshes differ).
    pub particle: u32,
    /// Its distance between the worlds (infinite if alive in one world only or the
    /// meshes, settings, filters, ignored bodies, pins or attachments differ).
    pub position_error: f64,
    /// The largest velocity difference over the particles.
    pub velocity_error: f32,
}

impl World {
    /// Lists the soft body slots whose state differs between two worlds, in slot order:
    /// the particle that moved apart most and by how much. Fills up to `rows.len()` rows
    /// and returns how many slots differ.
    pub fn compare_soft_bodies(a: &World, b: &World, rows: &mut [SoftBodyDiff]) -> usize {
        let n = a.soft.pool.len().max(b.soft.pool.len());
        let mut count = 0;
        for slot in 0..n {
            let sa = a.soft.pool.get(slot).filter(|x| x.alive);
            let sb = b.soft.pool.get(slot).filter(|x| x.alive);
            let diff = match (sa, sb) {
                (None, None) => continue,
                (Some(x), Some(y)) => {
                    let range = |s: &crate::soft::SoftBody| {
                        let f = s.first_particle as usize;
                        f..f + s.particle_count as usize
                    };
                    let (pa, pb) = (&a.soft.particles[range(x)], &b.soft.particles[range(y)]);
                    let same_content = x.generation == y.generation
                        && x.settings == y.settings
                        && x.filter == y.filter
                        && x.ignored() == y.ignored()
                        && a.soft.rest[range(x)] == b.soft.rest[range(y)]
                        && pa.len() == pb.len()
                        && pa.iter().zip(pb).all(|(p, q)| {
                            p.pinned == q.pinned && p.body == q.body && p.local == q.local
                        });
                    let mut d = SoftBodyDiff {
                        slot: slot as u32,
                        alive_in_a: true,
                        alive_in_b: true,
                        ..Default::default()
                    };
                    if !same_content {
                        d.position_error = f64::INFINITY;
                        d.velocity_error = f32::INFINITY;
                    } else {
                        for (i, (p, q)) in pa.iter().zip(pb).enumerate() {
                            let dp = p.position - q.position;
                            let e = (dp.x * dp.x + dp.y * dp.y + dp.z * dp.z).sqrt();
                            if e > d.position_error {
                                d.position_error = e;
                                d.particle = i as u32;
                            }
                            let dv = (p.velocity - q.velocity).length();
                            if dv > d.velocity_error {
                                d.velocity_error = dv;
                            }
                        }
                        if d.position_error == 0.0 && d.velocity_error == 0.0 {
                            continue;
                        }
                    }
                    d
                }
                (x, y) => SoftBodyDiff {
                    slot: slot as u32,
                    alive_in_a: x.is_some(),
                    alive_in_b: y.is_some(),
                    particle: 0,
                    position_error: f64::INFINITY,
                    velocity_error: f32::INFINITY,
                },
            };
            if let Some(r) = rows.get_mut(count) {
                *r = diff;
            }
            count += 1;
        }
        count
    }
}
