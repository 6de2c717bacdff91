//! The soft bodies' stage of the step (see the module docs of `crate::soft`).

use super::build::{dihedral, volume6};
use crate::alloc::FixedVec;
use crate::body::{BodyType, NONE};
use crate::geometry::Sphere;
use crate::math::{DAabb, DVec3, Vec3, round_vec_to_grid};
use crate::shape::{ShapeGeometry, probe_shape};
use crate::soft::{COLOURS, SoftBody};
use crate::store::soft::{Plane, SHAPES_PER_SOFT_BODY};
use crate::task::{Slots, Tasks};
use crate::world::World;

/// How far inside ±2^22 a particle is kept.
const PARTICLE_LIMIT: f64 = 4_000_000.0;
/// The share of each edge's stretching velocity each substep takes out (after the
/// velocities are taken from the moves; moving or turning as a whole is not damped, nor
/// are the positions the constraints reach). Undamped, a stiff closed shell with dihedral
/// bends at more than one substep grew a vibration from round-off (a floating UV sphere,
/// edge compliance 1.4e-5, reached 11.8 m/s in 10 s) and a pressure ball resting on a
/// floor with friction rolled away; at 1 the shell stays still and the ball settles.
/// (XPBD constraint damping in the position solve, Macklin et al. 2016, removes it too,
/// but it halves each substep's correction, so a ball under pressure swelled by 7 %.)
const EDGE_DAMPING: f32 = 1.0;

/// Wraps an angle difference into (−π, π].
fn wrap(a: f32) -> f32 {
    let pi = crate::math::PI;
    if a > pi {
        a - 2.0 * pi
    } else if a <= -pi {
        a + 2.0 * pi
    } else {
        a
    }
}

impl World {
    /// Steps every soft body, in slot order.
    pub(crate) fn step_soft_bodies(&mut self, dt: f32) {
        for slot in 0..self.soft.pool.len() {
            if self.soft.pool[slot].alive {
                self.step_soft_body(slot, dt);
            }
        }
    }

    fn step_soft_body(&mut self, slot: usize, dt: f32) {
        let b = self.soft.pool[slot];
        let first = b.first_particle as usize;
        let range = first..first + b.particle_count as usize;
        // The local frame's origin: the first particle (on the grid, so every local
        // position is the same whatever the world origin).
        let reference = self.soft.particles[first].position;
        for i in range.clone() {
            self.soft.x[i] = (self.soft.particles[i].position - reference).to_f32();
        }
        self.find_soft_planes(slot, reference, dt);

        let s = b.settings;
        let h = dt / s.substeps as f32;
        let inv_h = 1.0 / h;
        let gravity = self.def.gravity * s.gravity_scale;
        let damp = 1.0 / (1.0 + s.damping * h);
        let max_speed = self.def.max_linear_speed;
        let edge_alpha = s.edge_compliance * inv_h * inv_h;
        let bend_alpha = s.bend_compliance * inv_h * inv_h;
        let volume_alpha = s.volume_compliance * inv_h * inv_h;
        let tris = b.first_triangle as usize..(b.first_triangle + b.triangle_count) as usize;

        let sub = Sub {
            range: range.clone(),
            tris,
            first,
            h,
            inv_h,
            gravity,
            damp,
            edge_alpha,
            bend_alpha,
            volume_alpha,
            max_speed,
        };
        for _ in 0..s.substeps {
            self.soft.forces(&b, &sub);
            self.soft.predict(&b, &sub);
            self.soft.solve_edges_and_bends(&b, &sub, &mut self.tasks);
            self.soft.solve_volume(&b, &sub);
            self.soft.solve_limits(&b, &sub);
            self.soft.solve_planes(&b, &sub, &mut self.tasks);
            self.soft.take_velocities(&b, &sub);
            self.soft.damp_edges(&b, &mut self.tasks);
            self.soft.cap_velocities(&sub);
        }

        // Back to the world frame, on the grid, within the coordinate range.
        for i in range.clone() {
            let p = reference + round_vec_to_grid(self.soft.x[i]);
            let clamp = |v: f64| {
                crate::math::max_f64(-PARTICLE_LIMIT, crate::math::min_f64(v, PARTICLE_LIMIT))
            };
            let q = &mut self.soft.particles[i];
            if !q.pinned {
                q.position = DVec3::new(clamp(p.x), clamp(p.y), clamp(p.z));
            }
        }
        // The reactions on dynamic bodies, in particle order.
        for i in range {
            let pl = self.soft.planes[i];
            let at = self.soft.particles[i].position;
            for (body, impulse) in [(pl.body, pl.impulse), (pl.attach_body, pl.attach_impulse)] {
                if body == NONE || impulse == Vec3::ZERO || !impulse.is_valid() {
                    continue;
                }
                let bd = &self.bodies[body as usize];
                if bd.alive && bd.body_type == BodyType::Dynamic {
                    let impulse = crate::limits::clamp_abs(impulse, crate::limits::MAX_IMPULSE);
                    self.apply_impulse_quietly(body, impulse, at);
                    // Within the world's speed caps, as the solver leaves every body.
                    let bd = &mut self.bodies[body as usize];
                    crate::solver::cap_speed(&mut bd.linear_velocity, max_speed);
                    crate::solver::cap_speed(
                        &mut bd.angular_velocity,
                        crate::limits::MAX_ANGULAR_SPEED,
                    );
                }
            }
        }
    }

    /// Each particle's closest contact plane among the rigid shapes near it, and its
    /// attachment target, for this step (into the store's planes).
    fn find_soft_planes(&mut self, slot: usize, reference: DVec3, dt: f32) {
        let b = self.soft.pool[slot];
        let s = b.settings;
        let first = b.first_particle as usize;
        let range = first..first + b.particle_count as usize;
        let r = s.particle_radius;
        let travel = Travel::of(
            &self.soft.particles[range.clone()],
            self.def.gravity * s.gravity_scale,
            dt,
            r,
        );
        let bounds = self.soft.bounds(slot);
        let area = travel.around(bounds.lower, bounds.upper);
        let mut found = [0u32; SHAPES_PER_SOFT_BODY];
        let mut n = 0usize;
        let mut dropped = 0u32;
        self.for_each_shape_in_slot_order(&area, |sh| {
            let shape = &self.shapes[sh as usize];
            if shape.is_sensor
                || shape.is_ray()
                || !b.filter.should_collide(&shape.filter)
                || b.ignores(shape.body)
            {
                return;
            }
            if n < found.len() {
                found[n] = sh;
                n += 1;
            } else {
                dropped += 1;
            }
        });
        self.counters.soft_shapes_dropped += dropped;
        let probe = probe_shape(ShapeGeometry::Sphere(Sphere {
            center: Vec3::ZERO,
            radius: r,
        }));
        // Each particle writes only its own plane: the task hooks may spread them over
        // threads with the same bits. The planes and the tasks are moved out while the
        // world is read whole (placeholders in their place allocate nothing).
        let mut planes = core::mem::replace(&mut self.soft.planes, FixedVec::empty(self.alloc));
        let mut tasks = core::mem::replace(&mut self.tasks, Tasks::placeholder(self.alloc));
        {
            let w: &World = self;
            let out = Slots::new(&mut planes[range.clone()]);
            tasks.for_each(range.len(), 16, &|k, _| {
                let i = first + k;
                // SAFETY: for_each hands each index out once.
                unsafe {
                    *out.get(k) = w.soft_plane(i, &b, &found[..n], &probe, &travel, reference)
                };
            });
        }
        self.soft.planes = planes;
        self.tasks = tasks;
    }

    /// Particle `i`'s closest contact plane among the shapes `found` (within `reach`) and
    /// its attachment target.
    fn soft_plane(
        &self,
        i: usize,
        b: &SoftBody,
        found: &[u32],
        probe: &crate::shape::Shape,
        travel: &Travel,
        reference: DVec3,
    ) -> Plane {
        let s = b.settings;
        let r = s.particle_radius;
        let reach = travel.reach;
        let p = self.soft.particles[i];
        let x0 = self.soft.x[i];
        let mut best = Plane::default();
        let mut best_sep = f32::MAX;
        let mine = travel.around(p.position, p.position);
        for &sh in found {
            let shape = &self.shapes[sh as usize];
            if !shape.fat_aabb.overlaps(&mine) {
                continue;
            }
            let m = crate::motion::probe_manifold_within(
                self,
                (probe, None),
                p.position,
                crate::math::Quat::IDENTITY,
                sh,
                reach - r,
                &mine,
            );
            if m.count == 0 || !m.normal.is_valid() {
                continue;
            }
            let mut sep = f32::MAX;
            for q in &m.points[..m.count as usize] {
                sep = crate::math::min(sep, q.separation);
            }
            if sep >= best_sep || sep >= reach - r {
                continue;
            }
            best_sep = sep;
            let body = shape.body;
            let bd = &self.bodies[body as usize];
            let arm = (p.position - bd.position).to_f32() - bd.center_offset();
            let velocity = bd.linear_velocity + bd.angular_velocity.cross(arm);
            let inv_mass = if bd.body_type == BodyType::Dynamic {
                let rn = arm.cross(m.normal);
                let ii = bd.inv_inertia_local.rotate_tensor(bd.rotation);
                bd.inv_mass + rn.dot(ii.mul_vec(rn))
            } else {
                0.0
            };
            best = Plane {
                normal: m.normal,
                offset: m.normal.dot(x0) - sep,
                body,
                inv_mass,
                velocity,
                friction: crate::math::sqrt(s.friction * shape.friction),
                impulse: Vec3::ZERO,
                ..best
            };
        }
        // The attachment's target: the body's point, after the rigid step.
        if p.body != NONE {
            let bd = &self.bodies[p.body as usize];
            let point = bd.position + round_vec_to_grid(bd.rotation.rotate(p.local));
            let arm = (point - bd.position).to_f32() - bd.center_offset();
            best.attach_body = p.body;
            best.attach_target = (point - reference).to_f32();
            best.attach_inv_mass = if bd.body_type == BodyType::Dynamic {
                // Along the worst direction: the linear part plus the largest lever.
                let ii = bd.inv_inertia_local.rotate_tensor(bd.rotation);
                let l2 = arm.length_squared();
                bd.inv_mass + l2 * crate::math::max(ii.cx.x, crate::math::max(ii.cy.y, ii.cz.z))
            } else {
                0.0
            };
        }
        best
    }
}

/// Where a soft body's particles may go in one step, for the search for their contact
/// planes. A particle's velocity stays within the box of all the particles' velocities
/// (the constraints share momentum among them), gravity adds to it and damping only
/// slows it, so over the step it moves, per component, between the least and the most
/// of 0, `v·dt` and `(v + g·dt)·dt` over that box. Searching that box around each particle
/// (a column under a falling cloth) instead of a cube as wide as the farthest move keeps
/// the search to the shapes a particle can reach: under strong gravity and a long step
/// the cube spanned kilometres of a height field.
pub(crate) struct Travel {
    /// The move's box, grown by the particle radius.
    lower: Vec3,
    upper: Vec3,
    /// The farthest a particle may move (at most 1e4 m), plus the radius: the contact
    /// distance the search keeps a plane within.
    pub(crate) reach: f32,
}

impl Travel {
    fn of(particles: &[crate::soft::Particle], gravity: Vec3, dt: f32, radius: f32) -> Travel {
        let (mut low, mut high) = (Vec3::ZERO, Vec3::ZERO);
        let mut fastest = 0.0f32;
        for q in particles {
            low = low.min(q.velocity);
            high = high.max(q.velocity);
            fastest = crate::math::max(fastest, q.velocity.length());
        }
        let pull = gravity * dt;
        let far = 1.0e4;
        let limit = |v: Vec3| v.max(Vec3::splat(-far)).min(Vec3::splat(far));
        let lower = limit(low.min(low + pull) * dt) - Vec3::splat(radius);
        let upper = limit(high.max(high + pull) * dt) + Vec3::splat(radius);
        // The farthest corner, or the fastest particle's speed with gravity's, whichever is
        // less.
        let corner = lower.abs().max(upper.abs()).length();
        let speed = crate::math::min((fastest + gravity.length() * dt) * dt, far) + radius;
        Travel {
            lower,
            upper,
            reach: crate::math::min(corner, speed),
        }
    }

    /// The box from `lower` to `upper` grown by the move's box, rounded outward to the
    /// position grid.
    fn around(&self, lower: DVec3, upper: DVec3) -> DAabb {
        let down = |x: f32| -crate::math::ceil_to_grid(-(x as f64));
        let up = |x: f32| crate::math::ceil_to_grid(x as f64);
        DAabb::new(
            lower + DVec3::new(down(self.lower.x), down(self.lower.y), down(self.lower.z)),
            upper + DVec3::new(up(self.upper.x), up(self.upper.y), up(self.upper.z)),
        )
    }
}

impl crate::store::soft::SoftStore {
    /// Pushes apart the particles of one soft body (`first`, `count`) closer than two
    /// radii, leaving out pairs closer than four radii at rest (neighbours). Pairs are
    /// found by sorting along x (ties by index: one order whatever the sort) and sweeping;
    /// each pair is pushed as it is met.
    pub(crate) fn self_collide(&mut self, first: usize, count: usize, radius: f32) {
        let order = &mut self.order[..count];
        for (k, o) in order.iter_mut().enumerate() {
            *o = (first + k) as u32;
        }
        let x = &self.x;
        order
            .sort_unstable_by(|&a, &b| x[a as usize].x.total_cmp(&x[b as usize].x).then(a.cmp(&b)));
        let reach = 2.0 * radius;
        let neighbour2 = (4.0 * radius) * (4.0 * radius);
        for i in 0..count {
            let a = self.order[i] as usize;
            for j in i + 1..count {
                let c = self.order[j] as usize;
                if self.x[c].x - self.x[a].x >= reach {
                    break;
                }
                let (wa, wc) = (self.inv_mass[a], self.inv_mass[c]);
                if wa + wc <= 0.0 || (self.rest[a] - self.rest[c]).length_squared() < neighbour2 {
                    continue;
                }
                let (n, d) = (self.x[c] - self.x[a]).normalize_and_length();
                if d >= reach || d <= 0.0 {
                    continue;
                }
                let dl = (reach - d) / (wa + wc);
                self.x[a] -= n * (wa * dl);
                self.x[c] += n * (wc * dl);
            }
        }
    }
}

/// The numbers of one soft body's substeps.
struct Sub {
    range: core::ops::Range<usize>,
    tris: core::ops::Range<usize>,
    first: usize,
    h: f32,
    inv_h: f32,
    gravity: Vec3,
    damp: f32,
    edge_alpha: f32,
    bend_alpha: f32,
    volume_alpha: f32,
    max_speed: f32,
}

impl crate::store::soft::SoftStore {
    /// Gravity, damping, pressure and drag into the velocities.
    fn forces(&mut self, b: &SoftBody, p: &Sub) {
        let st = self;
        let range = p.range.clone();
        let tris = p.tris.clone();
        let first = p.first;
        let h = p.h;
        let gravity = p.gravity;
        let damp = p.damp;
        let s = b.settings;
        // Forces into velocities.
        for i in range.clone() {
            if st.inv_mass[i] > 0.0 {
                let p = &mut st.particles[i];
                p.velocity = (p.velocity + gravity * h) * damp;
            }
        }
        if b.closed && s.pressure > 0.0 {
            let v6 = volume6(&st.triangles[tris.clone()], |k| st.x[first + k as usize]);
            if crate::math::abs(v6) > 1.0e-12 {
                // Per vertex p·A·n̂/3 = (nRT / V)·n2/6 with n2 twice the area normal.
                let k = s.pressure * 6.0 / v6 * h * (1.0 / 6.0);
                for t in tris.clone() {
                    let tr = st.triangles[t];
                    let (a, c, d) = (
                        first + tr[0] as usize,
                        first + tr[1] as usize,
                        first + tr[2] as usize,
                    );
                    let n2 = (st.x[c] - st.x[a]).cross(st.x[d] - st.x[a]);
                    for q in [a, c, d] {
                        let f = k * st.inv_mass[q];
                        if f.is_finite() {
                            st.particles[q].velocity += n2 * f;
                        }
                    }
                }
            }
        }
        if s.drag > 0.0 {
            for t in tris.clone() {
                let tr = st.triangles[t];
                let (a, c, d) = (
                    first + tr[0] as usize,
                    first + tr[1] as usize,
                    first + tr[2] as usize,
                );
                let (n, area2) = (st.x[c] - st.x[a])
                    .cross(st.x[d] - st.x[a])
                    .normalize_and_length();
                if area2 <= 0.0 {
                    continue;
                }
                let v = (st.particles[a].velocity
                    + st.particles[c].velocity
                    + st.particles[d].velocity)
                    * (1.0 / 3.0);
                let vn = v.dot(n);
                for q in [a, c, d] {
                    // At most the particle's own normal speed is taken away.
                    let f = crate::math::min(
                        s.drag * 0.5 * area2 * h * st.inv_mass[q] * (1.0 / 3.0),
                        1.0,
                    );
                    st.particles[q].velocity -= n * (vn * f);
                }
            }
        }
        // Pressure on a nearly flat ball can be huge: velocities stay within the bound
        // every velocity keeps (and finite).
        for i in range.clone() {
            let v = &mut st.particles[i].velocity;
            *v = crate::limits::clamp_abs(*v, crate::limits::MAX_VELOCITY);
            if !v.is_valid() {
                *v = Vec3::ZERO;
            }
        }
    }

    /// Positions predicted from the velocities (the substep's start kept).
    fn predict(&mut self, _: &SoftBody, p: &Sub) {
        let st = self;
        let range = p.range.clone();
        let h = p.h;
        // Predict.
        for i in range.clone() {
            st.prev[i] = st.x[i];
            if st.inv_mass[i] > 0.0 {
                st.x[i] += st.particles[i].velocity * h;
            }
        }
    }

    /// Edges and bends, colour by colour. The constraints of a colour share no particle,
    /// so the task hooks may spread a colour over threads: each constraint writes only its
    /// own particles, and the bits are those of the order in the list. The last colour
    /// (constraints no colour had room for) runs in order on this thread.
    fn solve_edges_and_bends(&mut self, b: &SoftBody, p: &Sub, tasks: &mut Tasks) {
        let (edge_alpha, bend_alpha) = (p.edge_alpha, p.bend_alpha);
        for c in 0..=COLOURS {
            let (lo, hi) = (b.edge_colours[c] as usize, b.edge_colours[c + 1] as usize);
            let edges = &self.edges[lo..hi];
            let w = &self.inv_mass[..];
            let xs = Slots::new(&mut self.x[..]);
            let one = |k: usize| {
                let e = edges[k];
                let (a, d) = (e.a as usize, e.b as usize);
                let (wa, wb) = (w[a], w[d]);
                let denom = wa + wb + edge_alpha;
                if denom <= 0.0 {
                    return;
                }
                // SAFETY: `a != d`, and no other constraint of this colour touches either
                // (the colouring), so these are the only references to the two slots.
                let (xa, xd) = unsafe { (xs.get(a), xs.get(d)) };
                let (n, len) = (*xd - *xa).normalize_and_length();
                if len <= 0.0 {
                    return;
                }
                let dl = -(len - e.rest) / denom;
                *xa -= n * (wa * dl);
                *xd += n * (wb * dl);
            };
            run(tasks, c, hi - lo, &one);
        }
        if b.settings.bend_compliance >= crate::soft::NO_BENDS {
            return;
        }
        for c in 0..=COLOURS {
            let (lo, hi) = (b.bend_colours[c] as usize, b.bend_colours[c + 1] as usize);
            let bends = &self.bends[lo..hi];
            let w = &self.inv_mass[..];
            let xs = Slots::new(&mut self.x[..]);
            let one = |k: usize| {
                let bend = bends[k];
                let p = bend.p.map(|q| q as usize);
                // SAFETY: a bend's four particles are distinct (see `build`), and no other
                // bend of this colour touches them.
                let x = unsafe { [xs.get(p[0]), xs.get(p[1]), xs.get(p[2]), xs.get(p[3])] };
                let Some((angle, g)) = dihedral(*x[0], *x[1], *x[2], *x[3]) else {
                    return;
                };
                let wj = p.map(|q| w[q]);
                let mut denom = bend_alpha;
                for j in 0..4 {
                    denom += wj[j] * g[j].length_squared();
                }
                if denom <= 1.0e-20 {
                    return;
                }
                let dl = -wrap(angle - bend.rest) / denom;
                for j in 0..4 {
                    *x[j] += g[j] * (wj[j] * dl);
                }
            };
            run(tasks, c, hi - lo, &one);
        }
    }

    /// The volume of a closed mesh.
    fn solve_volume(&mut self, b: &SoftBody, p: &Sub) {
        let st = self;
        let range = p.range.clone();
        let tris = p.tris.clone();
        let first = p.first;
        let volume_alpha = p.volume_alpha;
        let s = b.settings;
        // Volume.
        if b.closed && s.volume_scale > 0.0 {
            let v6 = volume6(&st.triangles[tris.clone()], |k| st.x[first + k as usize]);
            let target6 = 6.0 * b.rest_volume * s.volume_scale;
            // Gradients: ∂(6V)/∂x_a = x_b × x_c over the triangles at a.
            for i in range.clone() {
                st.grad[i] = Vec3::ZERO;
            }
            for t in tris.clone() {
                let tr = st.triangles[t];
                let q = [
                    first + tr[0] as usize,
                    first + tr[1] as usize,
                    first + tr[2] as usize,
                ];
                st.grad[q[0]] += st.x[q[1]].cross(st.x[q[2]]);
                st.grad[q[1]] += st.x[q[2]].cross(st.x[q[0]]);
                st.grad[q[2]] += st.x[q[0]].cross(st.x[q[1]]);
            }
            let mut denom = volume_alpha * 36.0;
            for i in range.clone() {
                denom += st.inv_mass[i] * st.grad[i].length_squared();
            }
            if denom > 1.0e-20 {
                let dl = -(v6 - target6) / denom;
                for i in range.clone() {
                    let g = st.grad[i];
                    st.x[i] += g * (st.inv_mass[i] * dl);
                }
            }
        }
    }

    /// Long-range anchors, then attachments to bodies.
    fn solve_limits(&mut self, b: &SoftBody, p: &Sub) {
        let st = self;
        let range = p.range.clone();
        let first = p.first;
        let inv_h = p.inv_h;
        let s = b.settings;
        // Long-range attachments: never further from the nearest pin than allowed.
        for i in range.clone() {
            let (anchor, max) = st.anchors[i];
            if anchor == NONE || st.inv_mass[i] <= 0.0 {
                continue;
            }
            let (n, d) = (st.x[i] - st.x[anchor as usize]).normalize_and_length();
            if d > max {
                st.x[i] -= n * (d - max);
            }
        }
        // Attachments to bodies: two-way (the reaction summed for after the substeps).
        for i in range.clone() {
            let pl = st.planes[i];
            if pl.attach_body == NONE {
                continue;
            }
            let w = st.inv_mass[i];
            let denom = w + pl.attach_inv_mass;
            if denom <= 0.0 {
                continue;
            }
            let lambda = (pl.attach_target - st.x[i]) * (1.0 / denom);
            st.x[i] += lambda * w;
            st.planes[i].attach_impulse -= lambda * inv_h;
        }
        if s.self_collision {
            st.self_collide(first, b.particle_count as usize, s.particle_radius);
        }
    }

    /// Contact planes, with friction.
    fn solve_planes(&mut self, _: &SoftBody, p: &Sub, tasks: &mut Tasks) {
        let (h, inv_h, first) = (p.h, p.inv_h, p.range.start);
        let (w, prev) = (&self.inv_mass[..], &self.prev[..]);
        let xs = Slots::new(&mut self.x[..]);
        let planes = Slots::new(&mut self.planes[..]);
        // Each particle writes only its own position and plane.
        tasks.for_each(p.range.len(), 256, &|k, _| {
            let i = first + k;
            // SAFETY: item `k` is particle `first + k`, claimed once.
            let (x, pl) = unsafe { (xs.get(i), planes.get(i)) };
            if pl.body == NONE {
                return;
            }
            let w = w[i];
            let denom = w + pl.inv_mass;
            if w <= 0.0 || denom <= 0.0 {
                return;
            }
            let depth = pl.offset - pl.normal.dot(*x);
            if depth <= 0.0 {
                return;
            }
            let dn = depth / denom;
            let mut dx = pl.normal * (w * dn);
            let mut impulse = pl.normal * (-dn * inv_h);
            // Friction: the tangential move relative to the body, limited by μ·depth.
            let rel = (*x + dx - prev[i]) - pl.velocity * h;
            let tangent = rel - pl.normal * rel.dot(pl.normal);
            let (t_dir, t_len) = tangent.normalize_and_length();
            if t_len > 0.0 {
                let limit = pl.friction * depth;
                let take = if t_len <= limit { t_len } else { limit };
                let dt_l = take / denom;
                dx -= t_dir * (w * dt_l);
                impulse += t_dir * (dt_l * inv_h);
            }
            *x += dx;
            // The body's surface gives way as the body would move (it moves only after
            // the substeps), so its share of the depth is not pushed again.
            pl.impulse += impulse;
            pl.offset -= pl.inv_mass * dn;
        });
    }

    /// Velocities from the moves.
    fn take_velocities(&mut self, _: &SoftBody, p: &Sub) {
        let st = self;
        let inv_h = p.inv_h;
        for i in p.range.clone() {
            let p = &mut st.particles[i];
            let mut v = (st.x[i] - st.prev[i]) * inv_h;
            if st.inv_mass[i] <= 0.0 || !v.is_valid() {
                // A pinned particle, or one a degenerate projection sent off: it stays.
                v = Vec3::ZERO;
                st.x[i] = st.prev[i];
            }
            p.velocity = crate::limits::clamp_abs(v, crate::limits::MAX_VELOCITY);
        }
    }

    /// Takes [`EDGE_DAMPING`] of each edge's stretching velocity out, colour by colour
    /// (through the task hooks as the edges' solve), shared by inverse mass so momentum
    /// is kept; a pinned end keeps its zero velocity.
    fn damp_edges(&mut self, b: &SoftBody, tasks: &mut Tasks) {
        for c in 0..=COLOURS {
            let (lo, hi) = (b.edge_colours[c] as usize, b.edge_colours[c + 1] as usize);
            let edges = &self.edges[lo..hi];
            let (w, x) = (&self.inv_mass[..], &self.x[..]);
            let ps = Slots::new(&mut self.particles[..]);
            let one = |k: usize| {
                let e = edges[k];
                let (a, d) = (e.a as usize, e.b as usize);
                let sum = w[a] + w[d];
                if sum <= 0.0 {
                    return;
                }
                // Along the edge `e` (not normalised: its squared length divides once).
                let e = x[d] - x[a];
                let l2 = e.length_squared();
                if l2 <= 1.0e-24 {
                    return;
                }
                // SAFETY: `a != d`, and no other edge of this colour touches either (the
                // colouring), so these are the only references to the two slots.
                let (pa, pd) = unsafe { (ps.get(a), ps.get(d)) };
                let k = EDGE_DAMPING * e.dot(pd.velocity - pa.velocity) / (l2 * sum);
                pa.velocity += e * (w[a] * k);
                pd.velocity -= e * (w[d] * k);
            };
            run(tasks, c, hi - lo, &one);
        }
    }

    /// The velocities within the world's speed cap (after the damping, which moves
    /// velocity between particles).
    fn cap_velocities(&mut self, p: &Sub) {
        for i in p.range.clone() {
            crate::solver::cap_speed(&mut self.particles[i].velocity, p.max_speed);
        }
    }
}

/// Runs `one` over the `count` constraints of colour `c`: through the task hooks for the
/// coloured ones, in order here for the last colour and when there are no hooks (where
/// `one` inlines).
fn run<F: Fn(usize) + Sync>(tasks: &mut Tasks, c: usize, count: usize, one: &F) {
    if c < COLOURS && tasks.hooks.is_some() {
        tasks.for_each(count, 512, &|k, _| one(k));
    } else {
        for k in 0..count {
            one(k);
        }
    }
}
