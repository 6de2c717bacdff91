//! Continuous collision: speculative contacts catch ordinary motion; a body that moved
//! farther in one step than half its thinnest shape (a "fast" body) is swept against
//! static geometry by time of impact, and a bullet against everything, after the step.
//! A body that would have passed through something is moved back to where it first
//! touched, keeping its velocity (the next step's contact does the rest), as Box2D does.
//!
//! Serial, in body slot order: fast bodies first, then bullets, which therefore see the
//! fast bodies where they stopped. Each sweep is relative to the body's own start
//! position, so the result does not depend on where in the world it happens.

use super::SolverScratch;
use crate::body::{BodyType, NONE};
use crate::collide::LINEAR_SLOP;
use crate::collide::cast::{Sweep, ToiOutput, ToiState, time_of_impact, time_of_impact_to};
use crate::collide::distance::ShapeProxy;
use crate::math::{DAabb, DVec3, Quat, Vec3, acos, round_vec_to_grid};
use crate::shape::{local_aabb, shape_centroid, shape_min_extent, shape_proxy};
use crate::world::World;

/// A body's sweep over the step, in the frame of `origin` (a world position on the grid).
fn sweep_of(origin: DVec3, start: (DVec3, Quat), end: (DVec3, Quat), local_center: Vec3) -> Sweep {
    let c1 = (start.0 - origin).to_f32() + start.1.rotate(local_center);
    let c2 = (end.0 - origin).to_f32() + end.1.rotate(local_center);
    Sweep {
        local_center,
        c1,
        c2,
        q1: start.1,
        q2: end.1,
    }
}

/// Time-of-impact work one body's sweep did, for the counters.
#[derive(Default)]
struct ToiWork {
    queries: u32,
    iterations: u32,
    root_iterations: u32,
}

impl ToiWork {
    fn add(&mut self, out: &ToiOutput) {
        self.queries = self.queries.saturating_add(1);
        self.iterations = self.iterations.saturating_add(out.iterations);
        self.root_iterations = self.root_iterations.saturating_add(out.root_iterations);
    }
}

/// Whether two shapes may collide at all (filters, sensors, same body).
fn may_collide(w: &World, a: u32, b: u32) -> bool {
    let (sa, sb) = (&w.shapes[a as usize], &w.shapes[b as usize]);
    sa.alive
        && sb.alive
        && !sa.is_sensor
        && !sb.is_sensor
        && sa.body != sb.body
        && sa.filter.should_collide(&sb.filter)
        && w.bodies_may_collide(sa.body, sb.body)
}

impl World {
    /// Whether contacts between two bodies are allowed (joints that forbid them).
    pub(crate) fn bodies_may_collide(&self, a: u32, b: u32) -> bool {
        !crate::joint::filters(&self.bodies, &self.joints, a, b)
    }

    /// Sweeps fast bodies and bullets after the step.
    pub(crate) fn solve_continuous(&mut self) {
        self.counters.toi_queries = 0;
        self.counters.toi_iterations = 0;
        self.counters.toi_root_iterations = 0;
        let n = self.solver.params.len();
        for pass in 0..2 {
            for k in 0..n {
                let p = &self.solver.params[k];
                if !p.dynamic {
                    continue;
                }
                let bi = p.body;
                let b = &self.bodies[bi as usize];
                let bullet = b.bullet;
                if (pass == 0) == bullet {
                    continue;
                }
                let start = self.solver.ccd_start[k];
                let end = (b.position, b.rotation);
                if !bullet {
                    // Fast: travel (centre plus the farthest point's turn) past half the
                    // thinnest shape.
                    let travel = (end.0 - start.0).to_f32().length();
                    let dq = start.1.conjugate() * end.1;
                    let angle = 2.0 * acos(dq.w.abs());
                    if travel + angle * b.max_extent <= 0.5 * b.min_extent {
                        continue;
                    }
                }
                self.sweep_body(k, bi, start, end, bullet);
            }
        }
    }

    fn sweep_body(
        &mut self,
        k: usize,
        bi: u32,
        start: (DVec3, Quat),
        end: (DVec3, Quat),
        bullet: bool,
    ) {
        let origin = start.0;
        let b = &self.bodies[bi as usize];
        let lc = b.local_center;
        let sweep = sweep_of(origin, start, end, lc);
        // The swept bounds of the body's shapes.
        let mut swept: Option<DAabb> = None;
        let mut s = b.shape_head;
        while s != NONE {
            let shape = &self.shapes[s as usize];
            let a0 = DAabb::from_local(start.0, &local_aabb(shape, &self.hulls, start.1));
            let a1 = DAabb::from_local(end.0, &local_aabb(shape, &self.hulls, end.1));
            let u = a0.union(&a1);
            swept = Some(swept.map_or(u, |x| x.union(&u)));
            s = shape.next_in_body;
        }
        let Some(swept) = swept else { return };
        let mut t_min = 1.0f32;
        let mut work = ToiWork::default();
        let mut s = b.shape_head;
        while s != NONE {
            let shape = &self.shapes[s as usize];
            let next = shape.next_in_body;
            if shape.is_sensor {
                s = next;
                continue;
            }
            let proxy = shape_proxy(shape, &self.hulls);
            let centroid = shape_centroid(shape, &self.hulls);
            let min_extent = shape_min_extent(shape, &self.hulls);
            let mut visit = |_proxy: u32, t: u32| -> bool {
                if !may_collide(self, s, t) {
                    return true;
                }
                let other = &self.shapes[t as usize];
                let ob_slot = other.body;
                let ob = &self.bodies[ob_slot as usize];
                // Static geometry for every fast body; everything for bullets, except
                // other bullets (which sweep themselves).
                let other_sweep = match ob.body_type {
                    BodyType::Static => {
                        let here = (ob.position, ob.rotation);
                        sweep_of(origin, here, here, ob.local_center)
                    }
                    _ if !bullet || ob.bullet => return true,
                    _ => {
                        let j = self.solver.solver_index[ob_slot as usize];
                        let from = if j == NONE {
                            (ob.position, ob.rotation)
                        } else {
                            self.solver.ccd_start[j as usize]
                        };
                        sweep_of(origin, from, (ob.position, ob.rotation), ob.local_center)
                    }
                };
                // A mesh: each triangle under the swept bounds (time of impact against the
                // triangles, in the content's order).
                self.for_each_proxy(other, &swept, |other_proxy| {
                    // Stop a linear slop short of touching: the next step's speculative
                    // contact (rigid while apart) then halts the body where it touches,
                    // where a pose already overlapping would leave it to the soft contact,
                    // which lets a little of a fast approach through.
                    let gap = proxy.radius + other_proxy.radius + LINEAR_SLOP;
                    let mut out =
                        time_of_impact_to(&proxy, &sweep, other_proxy, &other_sweep, t_min, gap);
                    work.add(&out);
                    let at_start = out.state == ToiState::Overlapped
                        || (out.state == ToiState::Hit && out.fraction <= 0.0);
                    if at_start {
                        // Touching already: stopping here would pause the body (Box2D's
                        // observation; the contact holds it). Box2D's fallback instead: a
                        // small sphere at the shape's centre must not pass through.
                        let core = ShapeProxy::from_points(&[centroid], 0.25 * min_extent);
                        out = time_of_impact(&core, &sweep, other_proxy, &other_sweep, t_min);
                        work.add(&out);
                    }
                    if out.state == ToiState::Hit && 0.0 < out.fraction && out.fraction < t_min {
                        t_min = out.fraction;
                    }
                });
                true
            };
            self.broad.statics.query(&swept, &mut visit);
            if bullet {
                self.broad.movable.query(&swept, &mut visit);
            }
            s = next;
        }
        let c = &mut self.counters;
        c.toi_queries = c.toi_queries.saturating_add(work.queries);
        c.toi_iterations = c.toi_iterations.saturating_add(work.iterations);
        c.toi_root_iterations = c.toi_root_iterations.saturating_add(work.root_iterations);
        if t_min >= 1.0 {
            return;
        }
        // Back to the pose of first touch, on the position grid.
        let xf = sweep.transform_at(t_min);
        let body = &mut self.bodies[bi as usize];
        body.position = origin + round_vec_to_grid(xf.p);
        body.rotation = xf.q;
        let _ = k;
        self.refresh_body_bounds(bi, false);
    }
}

/// Start transforms of the awake bodies, kept for continuous collision.
pub(crate) fn record_starts(s: &mut SolverScratch, world_bodies: &[crate::body::Body]) {
    s.ccd_start.clear();
    for p in s.params.iter() {
        let b = &world_bodies[p.body as usize];
        let ok = s.ccd_start.push((b.position, b.rotation));
        debug_assert!(ok);
    }
}
