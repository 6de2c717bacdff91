//! The step's first stage: each vehicle's wheels cast along their suspensions, then the
//! suspension, anti-roll, drivetrain, brake and tyre impulses on the chassis.
//!
//! The tyres are solved as velocity constraints between the wheel rim and the ground
//! (as Jolt's wheel constraints), a few Gauss-Seidel passes over the wheels in their fixed
//! order on a copy of the chassis velocity: the longitudinal one couples the wheel's spin
//! to the chassis, the lateral one removes sliding across the wheel, the brake one holds
//! the spin; each is bounded by its slip curve's friction times the wheel's load this step.
//! The suspension is an explicit spring and damper (its impulse is the load). Nothing here
//! allocates: every per-wheel number lives in a fixed array on the stack. As in the joint
//! rows, every force stays within `MAX_FORCE`, every impulse within `MAX_IMPULSE` and every
//! velocity the passes write within `MAX_VELOCITY`, so a wheel far out on a heavy chassis
//! (a lever arm of 1e6 m) cannot overflow the next product to infinity.

use super::{MAX_WHEELS, Vehicle, WheelCast, WheelContact};
use crate::body::{BodyType, NONE};
use crate::geometry::{Cylinder, Sphere};
use crate::limits::{MAX_FORCE, MAX_IMPULSE, MAX_VELOCITY, clamp_abs};
use crate::math::{DAabb, DVec3, Quat, Vec3, abs, atan2, clamp, max, min};
use crate::query::{QueryShape, RAY_REGION_MARGIN};
use crate::world::World;

/// Gauss-Seidel passes over the wheels' friction and brake constraints.
const ITERATIONS: usize = 8;
/// rad/s per rpm.
const RPM_TO_RAD: f32 = core::f32::consts::PI / 30.0;

/// One wheel's numbers for this step.
#[derive(Clone, Copy, Default)]
struct Work {
    contact: bool,
    length: f32,
    point: DVec3,
    /// Contact point relative to the chassis' centre of mass.
    r: Vec3,
    normal: Vec3,
    ground: u32,
    ground_dynamic: bool,
    /// Ground velocity at the contact point.
    ground_velocity: Vec3,
    /// Ground shape's friction.
    friction: f32,
    long: Vec3,
    lat: Vec3,
    /// Suspension and anti-roll force along the normal (N; may pull with anti-roll).
    force: f32,
    /// The bump stop's impulse.
    bump: f32,
    /// Normal impulse (the load times dt, ≥ 0): what friction is bounded by.
    load: f32,
    long_max: f32,
    lat_max: f32,
    long_sum: f32,
    lat_sum: f32,
    brake_max: f32,
    brake_sum: f32,
    long_slip: f32,
    lat_slip: f32,
    /// The longitudinal and lateral constraints' effective masses (the inverses of their
    /// inverse effective masses; fixed through the passes).
    m_long: f32,
    m_lat: f32,
    /// The wheel's inverse inertia, and its rim's spin per unit impulse.
    inv_inertia: f32,
    spin_per_impulse: f32,
    /// Each friction row's Jacobian, fixed through the passes: the lever arm crossed with
    /// the row's direction (`(ω × r)·d = ω·(r × d)`), what a unit impulse along the row
    /// turns the chassis by, and the ground's speed along the row.
    r_long: Vec3,
    r_lat: Vec3,
    turn_long: Vec3,
    turn_lat: Vec3,
    ground_long: f32,
    ground_lat: f32,
}

/// The inverse effective mass of the chassis at `r` along `dir`.
fn inv_effective_mass(inv_m: f32, inv_i: &crate::math::Mat3, r: Vec3, dir: Vec3) -> f32 {
    let rn = r.cross(dir);
    inv_m + rn.dot(inv_i.mul_vec(rn))
}

/// The chassis velocities each impulse leaves, within `MAX_VELOCITY` (as a joint row's),
/// so the next lever-arm product stays finite however far out a wheel sits.
fn bounded(lin: Vec3, ang: Vec3) -> (Vec3, Vec3) {
    (clamp_abs(lin, MAX_VELOCITY), clamp_abs(ang, MAX_VELOCITY))
}

/// The rotation that turns +y onto `a` (a unit vector).
fn y_onto(a: Vec3) -> Quat {
    let c = a.y;
    let axis = Vec3::Y.cross(a);
    let s = axis.length();
    if s < 1.0e-6 {
        if c > 0.0 {
            Quat::IDENTITY
        } else {
            Quat::from_axis_angle(Vec3::X, core::f32::consts::PI)
        }
    } else {
        Quat::from_axis_angle(axis * (1.0 / s), atan2(s, c))
    }
}

/// Vehicles whose tyre passes run side by side (see [`World::step_vehicles`]).
const GROUP: usize = 4;

/// One vehicle between its set-up and its end: the chassis velocity and wheel numbers
/// the tyre passes work on, and what the end needs.
#[derive(Clone, Copy)]
struct Pending {
    slot: usize,
    v: Vehicle,
    work: [Work; MAX_WHEELS],
    n: usize,
    lin: Vec3,
    ang: Vec3,
    inv_m: f32,
    masks: (Vec3, Vec3),
    spring: (Vec3, Vec3),
    driven: u32,
    ratio: f32,
    /// A wheel stands on a dynamic body: its end pushes (and wakes) that body.
    pushes_ground: bool,
}

impl Pending {
    /// Whether this vehicle's set-up read a body that `other`'s end writes: `other`'s
    /// chassis as its own or under a wheel (an end without dynamic ground writes its
    /// chassis alone).
    fn reads_end_of(&self, other: &Pending) -> bool {
        let cs = other.v.chassis;
        self.v.chassis == cs
            || self.work[..self.n]
                .iter()
                .any(|w| w.contact && w.ground == cs)
    }

    /// Wheel `i`'s brake, longitudinal and lateral rows, once.
    fn wheel_pass(&mut self, i: usize) {
        let w = &mut self.work[i];
        if !w.contact {
            return;
        }
        let wd = &self.v.def.wheels[i];
        let st = &mut self.v.wheels[i];
        let (mut lin, mut ang, inv_m) = (self.lin, self.ang, self.inv_m);
        // Brake: the spin towards 0.
        let old = w.brake_sum;
        w.brake_sum = clamp(
            old - st.angular_velocity * wd.inertia,
            -w.brake_max,
            w.brake_max,
        );
        st.angular_velocity += (w.brake_sum - old) * w.inv_inertia;
        // Longitudinal: the rim's speed onto the ground's.
        let along = lin.dot(w.long) + ang.dot(w.r_long) - w.ground_long;
        let s = along - st.angular_velocity * wd.radius;
        let old = w.long_sum;
        w.long_sum = clamp(old - s * w.m_long, -w.long_max, w.long_max);
        let dl = w.long_sum - old;
        (lin, ang) = bounded(lin + w.long * (dl * inv_m), ang + w.turn_long * dl);
        st.angular_velocity = clamp(
            st.angular_velocity - dl * w.spin_per_impulse,
            -MAX_VELOCITY,
            MAX_VELOCITY,
        );
        // Lateral: no sliding across the wheel.
        let s = lin.dot(w.lat) + ang.dot(w.r_lat) - w.ground_lat;
        let old = w.lat_sum;
        w.lat_sum = clamp(old - s * w.m_lat, -w.lat_max, w.lat_max);
        let dt_lat = w.lat_sum - old;
        (self.lin, self.ang) = bounded(lin + w.lat * (dt_lat * inv_m), ang + w.turn_lat * dt_lat);
    }
}

/// The friction and brake constraints of a group of vehicles: a few passes in wheel
/// order for each, the vehicles' passes interleaved (each vehicle's numbers go through
/// exactly the operations of its passes alone; side by side, the processor overlaps
/// their chains of dependent updates).
fn friction_passes(group: &mut [Pending]) {
    for _ in 0..ITERATIONS {
        for i in 0..MAX_WHEELS {
            for p in group.iter_mut() {
                if i < p.n {
                    p.wheel_pass(i);
                }
            }
        }
    }
}

impl World {
    /// The step's first stage: every live vehicle in slot order, as if one after another.
    ///
    /// A vehicle's set-up (casts, springs, drivetrain) reads its chassis and the bodies
    /// under its wheels; its end writes its chassis and pushes the dynamic bodies under
    /// its wheels. Up to [`GROUP`] vehicles in a row whose set-ups read nothing an
    /// earlier one's end writes are set up, then their tyre passes run side by side, then
    /// they end in slot order: the same bits as one vehicle at a time. A vehicle on a
    /// dynamic body ends its group (its end wakes and pushes bodies a later set-up may
    /// read), as does one whose chassis sleeps (its set-up wakes it).
    pub(crate) fn step_vehicles(&mut self, dt: f32) {
        if self.vehicles.count == 0 {
            // No group to fill: most worlds have no vehicle.
            return;
        }
        #[cfg(test)]
        let width = tests::WIDTH.with(core::cell::Cell::get);
        #[cfg(not(test))]
        let width = GROUP;
        self.step_vehicles_grouped(dt, width);
    }

    /// [`World::step_vehicles`] with groups of at most `width` (1: one at a time). Never
    /// inlined: its group (about 14 KiB) is on the stack only while the vehicles step,
    /// not through the step's deeper stages.
    #[inline(never)]
    fn step_vehicles_grouped(&mut self, dt: f32, width: usize) {
        let empty = Pending {
            slot: 0,
            v: Vehicle::default(),
            work: [Work::default(); MAX_WHEELS],
            n: 0,
            lin: Vec3::ZERO,
            ang: Vec3::ZERO,
            inv_m: 0.0,
            masks: (Vec3::ZERO, Vec3::ZERO),
            spring: (Vec3::ZERO, Vec3::ZERO),
            driven: 0,
            ratio: 0.0,
            pushes_ground: false,
        };
        let mut group = [empty; GROUP];
        let width = width.clamp(1, GROUP);
        let mut count = 0;
        for slot in 0..self.vehicles.len() {
            if !self.vehicles[slot].alive {
                continue;
            }
            if count > 0 && !self.bodies[self.vehicles[slot].chassis as usize].awake {
                // Its set-up may wake bodies: after the group's ends, as one at a time.
                self.end_group(&mut group[..count], dt);
                count = 0;
            }
            if !self.begin_vehicle(slot, dt, &mut group[count]) {
                continue;
            }
            let (done, next) = group.split_at(count);
            if done.iter().any(|g| next[0].reads_end_of(g)) {
                // Set up again after the ends it depends on.
                self.end_group(&mut group[..count], dt);
                count = 0;
                if !self.begin_vehicle(slot, dt, &mut group[0]) {
                    continue;
                }
            }
            count += 1;
            if count == width || group[count - 1].pushes_ground {
                self.end_group(&mut group[..count], dt);
                count = 0;
            }
        }
        self.end_group(&mut group[..count], dt);
    }

    /// The tyre passes of a group set up, then each vehicle's end in slot order.
    fn end_group(&mut self, group: &mut [Pending], dt: f32) {
        friction_passes(group);
        for p in group.iter_mut() {
            self.end_vehicle(p, dt);
        }
    }

    // The set-up in the order the physics needs (casts, springs, drivetrain, the tyre
    // rows' numbers) into `p`, indexing the wheel arrays side by side. False when the
    // vehicle is done (no dynamic, enabled chassis, or one asleep without input).
    #[allow(clippy::too_many_lines, clippy::needless_range_loop)]
    fn begin_vehicle(&mut self, slot: usize, dt: f32, p: &mut Pending) -> bool {
        p.slot = slot;
        p.v = self.vehicles[slot];
        let Pending { v, work, .. } = p;
        let cs = v.chassis;
        {
            let b = &self.bodies[cs as usize];
            if b.body_type != BodyType::Dynamic || !b.enabled {
                v.contacts = [WheelContact::default(); MAX_WHEELS];
                self.vehicles[slot] = *v;
                return false;
            }
            if !b.awake {
                // A sleeping chassis stays bit for bit until something wakes it.
                if v.input.is_idle() {
                    return false;
                }
                self.wake_body(cs);
            }
        }
        let n = v.wheel_count();
        let def = v.def;
        let up_l = def.up.normalize();
        let fwd_l = def.forward.normalize();
        let axle_l = fwd_l.cross(up_l);
        let b = &self.bodies[cs as usize];
        let q = b.rotation;
        let com = b.position + b.center_offset().to_f64();
        let inv_m = b.inv_mass;
        let mass = b.mass;
        let inv_i = b.inv_inertia_local.rotate_tensor(q);
        let mut lin = b.linear_velocity;
        let mut ang = b.angular_velocity;
        let (lin_mask, ang_mask) = (b.locks.linear_mask(), b.locks.angular_mask());
        let chassis_position = b.position;
        let forward_w = q.rotate(fwd_l);
        let speed = lin.dot(forward_w);

        *work = [Work::default(); MAX_WHEELS];
        let accepts = |s: u32| {
            let sh = &self.shapes[s as usize];
            sh.body != cs
                && !sh.is_sensor
                && !sh.is_ray()
                && sh.filter.category_bits & def.cast_mask != 0
        };

        // The ray-cast wheels share one descent of each tree: the leaves under all their
        // rays (each ray then keeps the leaves its own descent would have reached).
        let mut region: Option<DAabb> = None;
        for wd in def.wheels[..n]
            .iter()
            .filter(|wd| wd.cast == WheelCast::Ray)
        {
            let dir = q.rotate(wd.suspension_direction.normalize());
            let attach = chassis_position + q.rotate(wd.position).to_f64();
            let end = attach + (dir * (wd.max_length + wd.radius)).to_f64();
            let ray = DAabb::new(attach, attach).union(&DAabb::new(end, end));
            region = Some(region.map_or(ray, |r| r.union(&ray)));
        }
        let candidates = region.map(|r| {
            let m = DVec3::new(RAY_REGION_MARGIN, RAY_REGION_MARGIN, RAY_REGION_MARGIN);
            self.ray_candidates(&DAabb::new(r.lower - m, r.upper + m))
        });

        // Casts and the suspension.
        for i in 0..n {
            let wd = &def.wheels[i];
            let st = &mut v.wheels[i];
            let w = &mut work[i];
            st.steer_angle = v.input.steering * wd.max_steer_angle;
            let steer = Quat::from_axis_angle(up_l, st.steer_angle);
            let dir = q.rotate(wd.suspension_direction.normalize());
            let attach = chassis_position + q.rotate(wd.position).to_f64();
            let (min_len, max_len) = (wd.min_length, wd.max_length);
            let hit = match wd.cast {
                WheelCast::Ray => {
                    let reach = max_len + wd.radius;
                    match &candidates {
                        Some(c) => self.ray_closest_among(c, attach, dir * reach, &accepts),
                        None => self.ray_closest_where(attach, dir * reach, &accepts),
                    }
                    .map(|(s, h)| {
                        let body = &self.bodies[self.shapes[s as usize].body as usize];
                        let len = h.fraction * reach - wd.radius;
                        (s, body.position + h.point.to_f64(), h.normal, len)
                    })
                }
                WheelCast::Sphere | WheelCast::Cylinder => {
                    let shape = if wd.cast == WheelCast::Sphere {
                        QueryShape::Sphere(Sphere {
                            center: Vec3::ZERO,
                            radius: wd.radius,
                        })
                    } else {
                        QueryShape::Cylinder(Cylinder {
                            center: Vec3::ZERO,
                            rotation: y_onto(axle_l),
                            half_height: 0.5 * wd.width,
                            radius: wd.radius,
                        })
                    };
                    let start = attach + (dir * min_len).to_f64();
                    let travel = max_len - min_len;
                    self.cast_shape_where(&shape, start, q * steer, dir * travel, &accepts)
                        .ok()
                        .flatten()
                        .map(|h| {
                            let s = self.shape_slot_of(h.shape);
                            (s, h.point, h.normal, min_len + h.fraction * travel)
                        })
                }
            };
            let Some((shape, point, normal, len)) = hit.filter(|h| h.3 <= max_len) else {
                st.suspension_length = max_len;
                w.length = max_len;
                continue;
            };
            let len = max(len, min_len);
            let sh = &self.shapes[shape as usize];
            let g = &self.bodies[sh.body as usize];
            w.contact = true;
            w.length = len;
            w.point = point;
            w.normal = normal;
            w.ground = sh.body;
            w.friction = sh.friction;
            w.r = (point - com).to_f32();
            if g.is_moving() {
                let gr = (point - (g.position + g.center_offset().to_f64())).to_f32();
                w.ground_velocity = g.linear_velocity + g.angular_velocity.cross(gr);
                w.ground_dynamic = g.body_type == BodyType::Dynamic;
            }
            let wheel_fwd = q.rotate(steer.rotate(fwd_l));
            w.long = (wheel_fwd - normal * normal.dot(wheel_fwd)).normalize();
            w.lat = normal.cross(w.long);
            st.suspension_length = len;

            // The spring and damper along the ground normal, never pulling.
            let (k, c) = match wd.spring {
                super::SuspensionSpring::Stiffness { stiffness, damping } => (stiffness, damping),
                super::SuspensionSpring::Frequency {
                    hertz,
                    damping_ratio,
                } => {
                    let m = mass / n as f32;
                    let omega = 2.0 * core::f32::consts::PI * hertz;
                    (m * omega * omega, 2.0 * damping_ratio * m * omega)
                }
            };
            let vn = (lin + ang.cross(w.r) - w.ground_velocity).dot(normal);
            w.force = clamp(k * (wd.rest_length - len) - c * vn, 0.0, MAX_FORCE);
            if len <= min_len && vn < 0.0 {
                // The bump stop: the closing speed goes.
                let k = inv_effective_mass(inv_m, &inv_i, w.r, normal);
                w.bump = min(-vn / k, MAX_IMPULSE);
            }
        }

        // Anti-roll bars: the more compressed side up, the other down.
        for bar in &def.anti_roll_bars[..def.anti_roll_bar_count as usize] {
            let (l, r) = (bar.left as usize, bar.right as usize);
            if work[l].contact && work[r].contact {
                let f = bar.stiffness * (work[r].length - work[l].length);
                work[l].force += f;
                work[r].force -= f;
            }
        }
        // The springs act as forces, integrated with gravity in every substep (so a car at
        // rest sinks exactly to m·g/k); the bump stop at once.
        let (mut spring_force, mut spring_torque) = (Vec3::ZERO, Vec3::ZERO);
        for w in work[..n].iter_mut().filter(|w| w.contact) {
            let f = w.normal * clamp(w.force, -MAX_FORCE, MAX_FORCE);
            spring_force += f;
            spring_torque += w.r.cross(f);
            let j = w.normal * w.bump;
            (lin, ang) = bounded(lin + j * inv_m, ang + inv_i.mul_vec(w.r.cross(j)));
            w.load = clamp(w.force * dt + w.bump, 0.0, MAX_IMPULSE);
        }

        // The drivetrain: gear, engine speed from the driven wheels, drive torque.
        let t = &def.transmission;
        let mut throttle = v.input.throttle;
        let mut brake = v.input.brake;
        if t.automatic {
            if throttle < 0.0 && v.gear >= 0 && speed < 1.0 {
                v.gear = -1;
            } else if throttle > 0.0 && v.gear <= 0 && speed > -1.0 {
                v.gear = 1;
            }
            // Throttle against the gear's direction brakes.
            if (throttle < 0.0 && v.gear > 0) || (throttle > 0.0 && v.gear < 0) {
                brake = max(brake, abs(throttle));
                throttle = 0.0;
            }
        }
        let ratio = match v.gear {
            g if g > 0 => t.gears[(g - 1) as usize] * t.differential_ratio,
            g if g < 0 => -t.reverse_ratio * t.differential_ratio,
            _ => 0.0,
        };
        let (mut driven, mut spin) = (0u32, 0.0f32);
        for (wd, st) in def.wheels[..n].iter().zip(&v.wheels[..n]) {
            if wd.driven {
                driven += 1;
                spin += st.angular_velocity;
            }
        }
        let e = &def.engine;
        let rpm = if driven > 0 {
            abs(spin / driven as f32 * ratio) / RPM_TO_RAD
        } else {
            0.0
        };
        let rpm = max(rpm, e.min_rpm);
        let mut torque = 0.0;
        if driven > 0 && ratio != 0.0 && rpm < e.max_rpm {
            let x = rpm / e.max_rpm * 2.0;
            let c = &e.torque_curve;
            let f = if x < 1.0 {
                c[0] + (c[1] - c[0]) * x
            } else {
                c[1] + (c[2] - c[1]) * (x - 1.0)
            };
            torque = abs(throttle) * e.max_torque * f * ratio / driven as f32;
        }

        // Engine torque into the wheels' spin; brakes bound by their torque.
        for i in 0..n {
            let wd = &def.wheels[i];
            let st = &mut v.wheels[i];
            if wd.driven {
                st.angular_velocity += torque * dt / wd.inertia;
            }
            let w = &mut work[i];
            w.brake_max = (brake * wd.brake_torque + v.input.handbrake * wd.handbrake_torque) * dt;
            if !w.contact {
                let stop = min(abs(st.angular_velocity), w.brake_max / wd.inertia);
                st.angular_velocity -= if st.angular_velocity > 0.0 {
                    stop
                } else {
                    -stop
                };
                continue;
            }
            // Slips from the velocities before friction bound what the tyre can take.
            let rel = lin + ang.cross(w.r) - w.ground_velocity;
            let (vl, vt) = (rel.dot(w.long), rel.dot(w.lat));
            let rim = st.angular_velocity * wd.radius;
            let denom = max(max(abs(vl), abs(rim)), 1.0e-3);
            w.long_slip = (rim - vl) / denom;
            w.lat_slip = if abs(vt) < 1.0e-6 {
                0.0
            } else {
                atan2(vt, abs(vl))
            };
            let most = |curve: f32| min(curve * w.friction * w.load, MAX_IMPULSE);
            w.long_max = most(wd.longitudinal.friction(w.long_slip));
            w.lat_max = most(wd.lateral.friction(w.lat_slip));
            // Both inverse effective masses are at least the chassis' inverse mass (1e-24
            // or more), so their inverses are finite.
            let k_long =
                inv_effective_mass(inv_m, &inv_i, w.r, w.long) + wd.radius * wd.radius / wd.inertia;
            w.m_long = 1.0 / k_long;
            w.m_lat = 1.0 / inv_effective_mass(inv_m, &inv_i, w.r, w.lat);
            w.inv_inertia = 1.0 / wd.inertia;
            w.spin_per_impulse = wd.radius / wd.inertia;
            (w.r_long, w.r_lat) = (w.r.cross(w.long), w.r.cross(w.lat));
            (w.turn_long, w.turn_lat) = (inv_i.mul_vec(w.r_long), inv_i.mul_vec(w.r_lat));
            w.ground_long = w.ground_velocity.dot(w.long);
            w.ground_lat = w.ground_velocity.dot(w.lat);
        }

        p.pushes_ground = p.work[..n].iter().any(|w| w.contact && w.ground_dynamic);
        p.n = n;
        (p.lin, p.ang, p.inv_m) = (lin, ang, inv_m);
        p.masks = (lin_mask, ang_mask);
        p.spring = (spring_force, spring_torque);
        (p.driven, p.ratio) = (driven, ratio);
        true
    }

    /// A vehicle's end, after its tyre passes: spin and engine speed, the chassis' new
    /// velocity, the ground's reaction.
    #[allow(clippy::needless_range_loop)]
    fn end_vehicle(&mut self, p: &mut Pending, dt: f32) {
        let Pending { v, work, n, .. } = p;
        let n = *n;
        let (lin, ang) = (p.lin, p.ang);
        let (lin_mask, ang_mask) = p.masks;
        let (spring_force, spring_torque) = p.spring;
        let (driven, ratio) = (p.driven, p.ratio);
        let cs = v.chassis;
        let def = &v.def;
        let (e, t) = (&def.engine, &def.transmission);
        // Spin and engine speed; the chassis' new velocity; the ground's reaction.
        let two_pi = 2.0 * core::f32::consts::PI;
        let mut spin = 0.0f32;
        for i in 0..n {
            let st = &mut v.wheels[i];
            st.angular_velocity = clamp(st.angular_velocity, -MAX_VELOCITY, MAX_VELOCITY);
            st.rotation = (st.rotation + st.angular_velocity * dt).rem_euclid(two_pi);
            if st.rotation >= two_pi {
                st.rotation = 0.0;
            }
            if def.wheels[i].driven {
                spin += st.angular_velocity;
            }
        }
        v.engine_rpm = if driven > 0 {
            min(
                max(abs(spin / driven as f32 * ratio) / RPM_TO_RAD, e.min_rpm),
                1.0e5,
            )
        } else {
            e.min_rpm
        };
        if t.automatic && v.gear > 0 {
            if v.engine_rpm > t.shift_up_rpm && v.gear < t.gear_count as i32 {
                v.gear += 1;
            } else if v.engine_rpm < t.shift_down_rpm && v.gear > 1 {
                v.gear -= 1;
            }
        }
        {
            let b = &mut self.bodies[cs as usize];
            b.linear_velocity = clamp_abs(lin, MAX_VELOCITY).mul_elements(lin_mask);
            b.angular_velocity = clamp_abs(ang, MAX_VELOCITY).mul_elements(ang_mask);
            b.force = clamp_abs(b.force + spring_force, MAX_FORCE);
            b.torque = clamp_abs(b.torque + spring_torque, MAX_FORCE);
        }
        for i in 0..n {
            let w = work[i];
            v.contacts[i] = if w.contact {
                WheelContact {
                    in_contact: true,
                    point: w.point,
                    normal: w.normal,
                    body: self.body_id(w.ground),
                    longitudinal_slip: w.long_slip,
                    lateral_slip: w.lat_slip,
                }
            } else {
                WheelContact::default()
            };
            if w.contact && w.ground_dynamic && w.ground != NONE {
                let j = w.normal * w.bump + w.long * w.long_sum + w.lat * w.lat_sum;
                self.apply_impulse_quietly(w.ground, -j, w.point);
                let g = &mut self.bodies[w.ground as usize];
                let f = w.normal * -w.force;
                let r = (w.point - g.position).to_f32() - g.center_offset();
                g.force = clamp_abs(g.force + f, MAX_FORCE);
                g.torque = clamp_abs(g.torque + r.cross(f), MAX_FORCE);
            }
        }
        self.vehicles[p.slot] = *v;
    }

    /// The slot of a shape id this world just handed out (a query's result).
    fn shape_slot_of(&self, id: crate::id::ShapeId) -> u32 {
        id.index - 1
    }
}

#[cfg(test)]
mod tests {
    use crate::math::{DVec3, Vec3};
    use crate::{
        BodyDef, BodyId, BodyType, ShapeDef, SuspensionSpring, VehicleDef, VehicleId, VehicleInput,
        WheelDef, World, WorldDef,
    };
    use core::cell::Cell;

    std::thread_local! {
        /// The group width the steps of this thread's worlds use.
        pub(super) static WIDTH: Cell<usize> = const { Cell::new(super::GROUP) };
    }

    /// A four-wheel car's settings on `chassis`, its wheels `dx` either side.
    fn car_def(chassis: BodyId, dx: f32) -> VehicleDef {
        let mut def = VehicleDef {
            chassis,
            ..Default::default()
        };
        def.transmission.automatic = true;
        for (x, z) in [(-dx, 1.3), (dx, 1.3), (-dx, -1.3), (dx, -1.3)] {
            def.add_wheel(WheelDef {
                position: Vec3::new(x, -0.1, z),
                min_length: 0.05,
                max_length: 0.5,
                rest_length: 0.5,
                spring: SuspensionSpring::Stiffness {
                    stiffness: 40_000.0,
                    damping: 4000.0,
                },
                radius: 0.35,
                max_steer_angle: if z > 0.0 { 0.5 } else { 0.0 },
                brake_torque: 5000.0,
                driven: z < 0.0,
                ..Default::default()
            });
        }
        def
    }

    fn dynamic_box(w: &mut World, at: DVec3, half: Vec3, mass: f32) -> BodyId {
        let b = w
            .create_body(&BodyDef {
                position: at,
                body_type: BodyType::Dynamic,
                ..Default::default()
            })
            .unwrap();
        let density = mass / (8.0 * half.x * half.y * half.z);
        w.create_box_shape(
            b,
            &ShapeDef {
                density,
                ..Default::default()
            },
            half,
        )
        .unwrap();
        b
    }

    /// Cars as users stack them: one on another's roof, one on a dynamic platform, two
    /// vehicles on one chassis, and a row that falls asleep idle before one is driven.
    /// Returns the world, its vehicles in slot order, the platform and two chassis.
    fn scene() -> (World, Vec<VehicleId>, [BodyId; 3]) {
        let mut w = World::new(&WorldDef {
            body_capacity: 32,
            shape_capacity: 32,
            contact_capacity: 512,
            pair_capacity: 512,
            vehicle_capacity: 16,
            ..Default::default()
        })
        .unwrap();
        let g = w
            .create_body(&BodyDef {
                position: DVec3::new(0.0, -1.0, 0.0),
                ..Default::default()
            })
            .unwrap();
        w.create_box_shape(g, &ShapeDef::default(), Vec3::new(200.0, 1.0, 200.0))
            .unwrap();
        let half = Vec3::new(0.9, 0.3, 2.0);
        let mut cars = Vec::new();
        // B, and C on B's roof (C's set-up reads B's chassis, which B's end writes).
        let b = dynamic_box(&mut w, DVec3::new(0.0, 0.8, 0.0), half, 1200.0);
        cars.push(w.create_vehicle(&car_def(b, 0.8)).unwrap());
        let c = dynamic_box(&mut w, DVec3::new(0.0, 1.9, 0.0), half, 300.0);
        cars.push(w.create_vehicle(&car_def(c, 0.8)).unwrap());
        // A and A2 on a dynamic platform (A's end pushes and wakes the platform, whose
        // velocity A2's set-up reads).
        let platform = dynamic_box(
            &mut w,
            DVec3::new(20.0, 0.25, 0.0),
            Vec3::new(3.0, 0.25, 6.0),
            2000.0,
        );
        for z in [-3.0, 3.0] {
            let a = dynamic_box(&mut w, DVec3::new(20.0, 1.3, z), half, 1200.0);
            cars.push(w.create_vehicle(&car_def(a, 0.8)).unwrap());
        }
        // Two vehicles on one chassis.
        let d = dynamic_box(&mut w, DVec3::new(-20.0, 0.8, 0.0), half, 1200.0);
        cars.push(w.create_vehicle(&car_def(d, 0.8)).unwrap());
        cars.push(w.create_vehicle(&car_def(d, 0.6)).unwrap());
        // A row of six.
        for k in 0..6 {
            let e = dynamic_box(
                &mut w,
                DVec3::new(40.0 + 5.0 * k as f64, 0.8, 0.0),
                half,
                1200.0,
            );
            cars.push(w.create_vehicle(&car_def(e, 0.8)).unwrap());
        }
        (w, cars, [platform, b, c])
    }

    /// The inputs of step `step`: the row's first three idle until step 300 (they fall
    /// asleep; then the first is driven, its set-up waking it), the rest driven.
    fn drive(w: &mut World, cars: &[VehicleId], step: u32) {
        for (k, &v) in cars.iter().enumerate() {
            let idle = (6..9).contains(&k) && (step < 300 || k > 6);
            let input = if idle {
                VehicleInput::default()
            } else {
                VehicleInput {
                    throttle: 0.2 + 0.05 * k as f32,
                    steering: if (step / 60 + k as u32) % 2 == 0 {
                        0.3
                    } else {
                        -0.2
                    },
                    brake: if step % 97 < 10 { 0.5 } else { 0.0 },
                    handbrake: 0.0,
                }
            };
            w.set_vehicle_input(v, input)
                .unwrap_or_else(|e| panic!("step {step} car {k}: {e}"));
        }
    }

    #[test]
    fn vehicles_set_up_side_by_side_give_the_bits_of_one_at_a_time() {
        let (mut grouped, cars, [platform, b, c]) = scene();
        let (mut single, single_cars, _) = scene();
        let (mut on_roof, mut on_platform, mut slept) = (0, 0, false);
        for step in 0..420 {
            drive(&mut grouped, &cars, step);
            drive(&mut single, &single_cars, step);
            WIDTH.with(|w| w.set(super::GROUP));
            grouped.step(1.0 / 60.0, 4).unwrap();
            WIDTH.with(|w| w.set(1));
            single.step(1.0 / 60.0, 4).unwrap();
            assert_eq!(grouped.hash(), single.hash(), "step {step}");
            let ground = |k: usize| grouped.wheel_contact(cars[k], 0).unwrap().body;
            on_roof += u32::from(ground(1) == b);
            on_platform += u32::from(ground(2) == platform && ground(3) == platform);
            let e0 = grouped.vehicle_def(cars[6]).unwrap().chassis;
            slept |= step == 299 && !grouped.body_is_awake(e0).unwrap();
        }
        WIDTH.with(|w| w.set(super::GROUP));
        // The cases the grouping must keep apart really happened.
        assert!(on_roof > 30, "C stood on B's roof in {on_roof} steps");
        assert!(
            on_platform > 30,
            "A and A2 stood on the platform in {on_platform} steps"
        );
        assert!(slept, "the idle row fell asleep before it was driven");
        assert!(
            grouped
                .body_is_awake(grouped.vehicle_def(cars[6]).unwrap().chassis)
                .unwrap()
        );
        let _ = c;
    }
}
