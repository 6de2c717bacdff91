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

impl World {
    /// The step's first stage: every live vehicle in slot order.
    pub(crate) fn step_vehicles(&mut self, dt: f32) {
        for slot in 0..self.vehicles.len() {
            if self.vehicles[slot].alive {
                self.step_vehicle(slot, dt);
            }
        }
    }

    // One pass in the order the physics needs (casts, springs, drivetrain, friction),
    // indexing the wheel arrays side by side.
    #[allow(clippy::too_many_lines, clippy::needless_range_loop)]
    fn step_vehicle(&mut self, slot: usize, dt: f32) {
        let mut v: Vehicle = self.vehicles[slot];
        let cs = v.chassis;
        {
            let b = &self.bodies[cs as usize];
            if b.body_type != BodyType::Dynamic || !b.enabled {
                v.contacts = [WheelContact::default(); MAX_WHEELS];
                self.vehicles[slot] = v;
                return;
            }
            if !b.awake {
                // A sleeping chassis stays bit for bit until something wakes it.
                if v.input.is_idle() {
                    return;
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

        let mut work = [Work::default(); MAX_WHEELS];
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

        // The friction and brake constraints, a few passes in wheel order.
        for _ in 0..ITERATIONS {
            for i in 0..n {
                let w = &mut work[i];
                if !w.contact {
                    continue;
                }
                let wd = &def.wheels[i];
                let st = &mut v.wheels[i];
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
                (lin, ang) = bounded(lin + w.lat * (dt_lat * inv_m), ang + w.turn_lat * dt_lat);
            }
        }

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
        self.vehicles[slot] = v;
    }

    /// The slot of a shape id this world just handed out (a query's result).
    fn shape_slot_of(&self, id: crate::id::ShapeId) -> u32 {
        id.index - 1
    }
}
