//! The mover: move and slide of a character's capsule (Box3D's `b3World_CollideMover`,
//! `b3SolvePlanes` and `b3World_CastMover` in one loop), stepping up stairs, sticking to
//! the ground, the slope limit and pushing dynamic bodies. Everything lives on the stack:
//! a move allocates nothing.

use super::{Character, GroundState};
use crate::body::{BodyType, NONE};
use crate::collide::distance::distance;
use crate::math::{DAabb, DVec3, Quat, Transform, Vec3, round_vec_to_grid as grid};
use crate::motion::probe_manifold;
use crate::shape::{Shape, ShapeGeometry, probe_shape};
use crate::world::World;

/// Most contact planes one collide keeps (the rest are dropped, nearest kept first).
const MAX_PLANES: usize = 32;
/// Collide–solve–cast rounds of one slide.
const SLIDE_ITERATIONS: usize = 5;
/// Gauss–Seidel rounds of the plane solver.
const SOLVER_ITERATIONS: usize = 20;

/// A contact plane of the capsule: `separation + normal · delta ≥ skin` after a move by
/// `delta`.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Plane {
    /// From the other shape towards the capsule.
    pub(crate) normal: Vec3,
    pub(crate) separation: f32,
    /// The contact point on the other shape, relative to where the planes were gathered.
    pub(crate) point: Vec3,
    pub(crate) body: u32,
    push: f32,
}

/// A fixed set of planes.
#[derive(Clone, Copy)]
pub(crate) struct Planes {
    pub(crate) items: [Plane; MAX_PLANES],
    pub(crate) count: usize,
}

impl Planes {
    fn new() -> Planes {
        Planes {
            items: [Plane::default(); MAX_PLANES],
            count: 0,
        }
    }

    fn add(&mut self, p: Plane) {
        if self.count < MAX_PLANES {
            self.items[self.count] = p;
            self.count += 1;
        }
    }

    pub(crate) fn all(&self) -> &[Plane] {
        &self.items[..self.count]
    }
}

/// What a move ends on.
pub(crate) struct Ground {
    pub(crate) state: GroundState,
    pub(crate) normal: Vec3,
    pub(crate) body: u32,
    pub(crate) point: Vec3,
}

impl World {
    /// The capsule as a probe shape.
    fn character_probe(c: &Character) -> Shape {
        probe_shape(ShapeGeometry::Capsule(c.capsule()))
    }

    /// Whether the mover of `c` sees shape `slot` (never its own body nor `skip`).
    fn mover_sees(&self, c: &Character, slot: u32, skip: u32) -> bool {
        let s = &self.shapes[slot as usize];
        s.body != c.body
            && s.body != skip
            && !s.is_sensor
            && !s.is_ray()
            && c.filter.should_collide(&s.filter)
    }

    /// The contact planes of the capsule at `at` within `margin` of its surface.
    pub(crate) fn collide_mover(&self, c: &Character, at: DVec3, margin: f32, skip: u32) -> Planes {
        let probe = Self::character_probe(c);
        let local =
            crate::shape::local_aabb(&probe, &self.content.hulls, Quat::IDENTITY).inflate(margin);
        let aabb = DAabb::from_local(at, &local);
        let mut planes = Planes::new();
        self.for_each_shape_in_slot_order(&aabb, |slot| {
            if !self.mover_sees(c, slot, skip) {
                return;
            }
            let body = self.shapes[slot as usize].body;
            let m = probe_manifold(self, (&probe, None), at, Quat::IDENTITY, slot, margin);
            for p in &m.points[..m.count as usize] {
                if p.separation >= margin || !m.normal.is_valid() {
                    continue;
                }
                planes.add(Plane {
                    normal: m.normal,
                    separation: p.separation,
                    point: p.point - m.normal * (0.5 * p.separation),
                    body,
                    push: 0.0,
                });
            }
        });
        planes
    }

    /// The fraction of `delta` the capsule at `start` may move before it meets a shape it
    /// is not already touching (shapes within half the skin are the planes' to handle).
    pub(crate) fn cast_mover(&self, c: &Character, start: DVec3, delta: Vec3, skip: u32) -> f32 {
        use crate::collide::cast::shape_cast;
        if delta.length_squared() <= 0.0 {
            return 1.0;
        }
        let probe = Self::character_probe(c);
        let proxy = crate::shape::shape_proxy(&probe, &self.content.hulls);
        let local = crate::shape::local_aabb(&probe, &self.content.hulls, Quat::IDENTITY);
        let swept =
            DAabb::from_local(start, &local).union(&DAabb::from_local(start + grid(delta), &local));
        let xf = Transform::new(Vec3::ZERO, Quat::IDENTITY);
        let near = 0.5 * c.settings.skin;
        let mut best = 1.0f32;
        self.for_each_shape_in_slot_order(&swept, |slot| {
            if !self.mover_sees(c, slot, skip) {
                return;
            }
            let o = &self.shapes[slot as usize];
            let ob = &self.bodies[o.body as usize];
            let xf_o = Transform::new((ob.position - start).to_f32(), ob.rotation);
            self.for_each_proxy(o, &swept, |op| {
                if distance(op, &xf_o, &proxy, &xf).distance < near {
                    return;
                }
                let r = shape_cast(op, &xf_o, &proxy, &xf, delta, best);
                if r.hit && r.fraction < best {
                    best = r.fraction;
                }
            });
        });
        crate::math::clamp(best, 0.0, 1.0)
    }

    /// Adds, for each steep plane facing up, a vertical wall along it: the character may
    /// slide down steep ground but never climb it. `flatten`: every plane becomes its
    /// vertical wall (stepping up moves level; an edge met there blocks like a riser).
    fn shape_planes(c: &Character, planes: &mut Planes, flatten: bool) {
        let cos_max = crate::math::cos(c.settings.max_slope_angle);
        let n = planes.count;
        for i in 0..n {
            let p = planes.items[i];
            let up = p.normal.dot(c.up);
            let wall = p.normal - c.up * up;
            let (w, len) = wall.normalize_and_length();
            if flatten {
                if len > 1.0e-3 {
                    planes.items[i].normal = w;
                } else {
                    planes.items[i].separation = f32::MAX;
                }
            } else if up > 1.0e-3 && up < cos_max && len > 1.0e-3 {
                planes.add(Plane { normal: w, ..p });
            }
        }
    }

    /// The delta closest to `target` that keeps every plane's skin (Box3D's
    /// `b3SolvePlanes`: Gauss–Seidel on the pushes, each at least 0).
    fn solve_planes(c: &Character, target: Vec3, planes: &mut Planes) -> Vec3 {
        let skin = c.settings.skin;
        let mut delta = target;
        for _ in 0..SOLVER_ITERATIONS {
            let mut total = 0.0f32;
            for p in planes.items[..planes.count].iter_mut() {
                if p.separation == f32::MAX {
                    continue;
                }
                let sep = p.separation + p.normal.dot(delta) - skin;
                let old = p.push;
                p.push = crate::math::max(old - sep, 0.0);
                let push = p.push - old;
                delta += p.normal * push;
                total += push.abs();
            }
            if total < 1.0e-5 {
                break;
            }
        }
        delta
    }

    /// Moves the capsule from `start` by `displacement`, sliding along what it meets;
    /// returns where it ends.
    pub(crate) fn slide(
        &self,
        c: &Character,
        start: DVec3,
        displacement: Vec3,
        skip: u32,
    ) -> DVec3 {
        self.slide_with(c, start, displacement, skip, false)
    }

    fn slide_with(
        &self,
        c: &Character,
        start: DVec3,
        displacement: Vec3,
        skip: u32,
        flatten: bool,
    ) -> DVec3 {
        let margin = c.settings.skin + 0.01;
        let target = start + grid(displacement);
        let mut p = start;
        for _ in 0..SLIDE_ITERATIONS {
            let mut planes = self.collide_mover(c, p, margin, skip);
            Self::shape_planes(c, &mut planes, flatten);
            let mut want = (target - p).to_f32();
            if flatten {
                want -= c.up * want.dot(c.up);
            }
            let delta = Self::solve_planes(c, want, &mut planes);
            let f = self.cast_mover(c, p, delta, skip);
            let step = delta * f;
            p = p + grid(step);
            if step.length_squared() < 1.0e-10 {
                break;
            }
        }
        p
    }

    /// The ground of the capsule at `at`: the most upward-facing contact within the skin.
    pub(crate) fn find_ground(&self, c: &Character, at: DVec3) -> Ground {
        let planes = self.collide_mover(c, at, c.settings.skin * 1.5 + 0.005, NONE);
        let cos_max = crate::math::cos(c.settings.max_slope_angle);
        let mut best: Option<Plane> = None;
        for p in planes.all() {
            // Only contacts on the lower cap hold the character up.
            if p.point.dot(c.up) > -c.half_height {
                continue;
            }
            if best.is_none_or(|b| p.normal.dot(c.up) > b.normal.dot(c.up)) {
                best = Some(*p);
            }
        }
        match best {
            Some(b) if b.normal.dot(c.up) >= cos_max - 1.0e-5 => Ground {
                state: GroundState::OnGround,
                normal: b.normal,
                body: b.body,
                point: b.point,
            },
            Some(b) if b.normal.dot(c.up) > 1.0e-3 => Ground {
                state: GroundState::OnSteepGround,
                normal: b.normal,
                body: b.body,
                point: b.point,
            },
            _ => Ground {
                state: GroundState::InAir,
                normal: Vec3::ZERO,
                body: NONE,
                point: Vec3::ZERO,
            },
        }
    }

    /// One move of character `slot` by `velocity · dt` (checked input): slide, step up,
    /// stick to the ground, push, then the ground and the inner body.
    pub(crate) fn move_character_slot(&mut self, slot: usize, velocity: Vec3, dt: f32) {
        let c = self.characters[slot];
        let start = c.position;
        let displacement = velocity * dt;
        let was_grounded = c.ground == GroundState::OnGround;
        let mut p = self.slide(&c, start, displacement, NONE);

        // Step up: walk the level part of the move again from `step_height` higher and
        // come down on walkable ground; kept when it gets further.
        let vertical = displacement.dot(c.up);
        let level = displacement - c.up * vertical;
        let (dir, level_len) = level.normalize_and_length();
        let made = (p - start).to_f32().dot(dir);
        if was_grounded
            && c.settings.step_height > 0.0
            && level_len > 1.0e-6
            && made < level_len - 1.0e-4
        {
            if let Some(q) = self.step_up(&c, start, level) {
                if (q - start).to_f32().dot(dir) > made + 1.0e-4 {
                    p = q;
                }
            }
        }

        // Stick to the ground: a grounded character not moving up is pulled back down.
        let mut ground = self.find_ground(&c, p);
        if was_grounded
            && ground.state != GroundState::OnGround
            && vertical <= 0.0
            && c.settings.snap_to_ground > 0.0
        {
            let down = c.up * -c.settings.snap_to_ground;
            let f = self.cast_mover(&c, p, down, NONE);
            if f < 1.0 {
                let q = self.slide(&c, p + grid(down * f), Vec3::ZERO, NONE);
                let g = self.find_ground(&c, q);
                if g.state == GroundState::OnGround {
                    p = q;
                    ground = g;
                }
            }
        }

        self.push_bodies(&c, p, velocity, dt);

        let ch = &mut self.characters[slot];
        // A tiny dt makes a huge quotient (an infinite one below about 1e-38): the
        // velocity is kept within the speed bound every velocity of the world keeps.
        let inv_dt = 1.0 / dt;
        ch.velocity = if dt > 0.0 && inv_dt.is_finite() {
            crate::limits::clamp_abs((p - start).to_f32() * inv_dt, crate::limits::MAX_VELOCITY)
        } else {
            Vec3::ZERO
        };
        ch.position = p;
        self.set_character_ground(slot, &ground);
        self.place_character_body(slot);
    }

    /// Keeps what the character stands on: its state, normal, body, and the character's
    /// centre in the body's frame for riding.
    pub(crate) fn set_character_ground(&mut self, slot: usize, g: &Ground) {
        let c = self.characters[slot];
        let (mut local, mut velocity, mut body) = (Vec3::ZERO, Vec3::ZERO, NONE);
        if g.state != GroundState::InAir && g.body != NONE {
            let b = &self.bodies[g.body as usize];
            body = g.body;
            local = b.rotation.inv_rotate((c.position - b.position).to_f32());
            let r = (c.position - b.position).to_f32() + g.point - b.center_offset();
            velocity = crate::limits::clamp_abs(
                b.linear_velocity + b.angular_velocity.cross(r),
                crate::limits::MAX_VELOCITY,
            );
        }
        let ch = &mut self.characters[slot];
        ch.ground = g.state;
        ch.ground_normal = g.normal;
        ch.ground_body = body;
        ch.ground_local = local;
        ch.ground_velocity = velocity;
    }

    /// The step-up attempt: up, level, down; `None` unless it lands on walkable ground.
    fn step_up(&self, c: &Character, start: DVec3, level: Vec3) -> Option<DVec3> {
        let lift = c.up * c.settings.step_height;
        let f = self.cast_mover(c, start, lift, NONE);
        let raised = start + grid(lift * f);
        let drop = c.up * -(c.settings.step_height * f + c.settings.skin);
        let land = |level: Vec3| -> Option<(DVec3, Ground)> {
            let across = self.slide_with(c, raised, level, NONE, true);
            let g = self.cast_mover(c, across, drop, NONE);
            if g >= 1.0 {
                return None;
            }
            let landed = self.slide(c, across + grid(drop * g), Vec3::ZERO, NONE);
            Some((landed, self.find_ground(c, landed)))
        };
        let (landed, ground) = land(level)?;
        if ground.state == GroundState::OnGround {
            return Some(landed);
        }
        // Come down on the step's edge: the capsule's round bottom sits on it as on a
        // slope. Go on until the lowest point is over the step (Jolt's step-forward test).
        let (dir, _) = level.normalize_and_length();
        let ahead = ground.point.dot(dir);
        if ground.state != GroundState::OnSteepGround
            || ahead <= 0.0
            || ground.normal.dot(dir) >= 0.0
        {
            return None;
        }
        let (landed, ground) = land(level + dir * (ahead + 0.01))?;
        (ground.state == GroundState::OnGround).then_some(landed)
    }

    /// Pushes the dynamic bodies the capsule touches at `at` and moves into, each once,
    /// with at most `max_strength · dt` (the impulse that would stop the approach, with
    /// the character's mass against the body's).
    fn push_bodies(&mut self, c: &Character, at: DVec3, velocity: Vec3, dt: f32) {
        if c.settings.max_strength <= 0.0 || dt <= 0.0 {
            return;
        }
        let planes = self.collide_mover(c, at, c.settings.skin + 0.005, NONE);
        let limit = c.settings.max_strength * dt;
        let all = planes.all();
        for (i, p) in all.iter().enumerate() {
            if all[..i].iter().any(|q| q.body == p.body) {
                continue;
            }
            let b = &self.bodies[p.body as usize];
            if b.body_type != BodyType::Dynamic || b.inv_mass <= 0.0 {
                continue;
            }
            // From the character into the body.
            let n = -p.normal;
            let point = at + grid(p.point);
            let r = (point - b.position).to_f32() - b.center_offset();
            let ii = b.inv_inertia_local.rotate_tensor(b.rotation);
            let rn = r.cross(n);
            let k = 1.0 / c.settings.mass + b.inv_mass + rn.dot(ii.mul_vec(rn));
            let vb = b.linear_velocity + b.angular_velocity.cross(r);
            let vn = (vb - velocity).dot(n);
            if vn >= 0.0 || k <= 0.0 {
                continue;
            }
            let impulse = crate::math::min(-vn / k, limit);
            self.apply_impulse_quietly(p.body, n * impulse, point);
        }
    }
}
