//! Shape casts and time of impact: when a moving convex shape first touches another.
//!
//! [`shape_cast`] moves B in a straight line with A fixed (scene queries, character
//! motion); [`time_of_impact`] moves both along [`Sweep`]s that also rotate (continuous
//! collision of fast bodies and bullets). Both are conservative advancement on the GJK
//! distance of [`super::distance`], after Box2D's `b2ShapeCast` and `b2TimeOfImpact`:
//! every step is taken from a lower bound of the distance, so they never step through a
//! contact, and every loop has a fixed cap.

use super::LINEAR_SLOP;
use super::distance::{CoreDistance, ShapeProxy, SimplexCache, core_distance};
use crate::geometry::hull::MAX_HULL_VERTICES;
use crate::math::{Quat, Transform, Vec3, abs, max, min, sqrt};

/// The gap between the rounded surfaces a shape cast stops at: a quarter of the linear
/// slop, so that a shape moved to the hit stands just clear of what it hit.
pub const SHAPE_CAST_TARGET: f32 = 0.25 * LINEAR_SLOP;

/// How far above [`SHAPE_CAST_TARGET`] a shape cast counts as arrived.
const SHAPE_CAST_TOLERANCE: f32 = 0.25 * SHAPE_CAST_TARGET;

/// Most distance queries one shape cast makes.
const MAX_CAST_ITERATIONS: u32 = 30;

/// The result of [`shape_cast`].
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct CastOutput {
    /// The fraction of `translation_b` at the hit; `max_fraction` (at least 0) when there
    /// is none.
    pub fraction: f32,
    /// The hit point on A's surface, in the common frame (with B at `fraction`). For a
    /// cast that starts touching or overlapped: a point between the two surfaces.
    pub point: Vec3,
    /// A's unit surface normal at the hit, pointing from A towards B, in the common frame.
    /// Zero when there is no hit.
    pub normal: Vec3,
    /// Whether B hits A within `max_fraction` of its translation.
    pub hit: bool,
    /// Distance queries made.
    pub iterations: u32,
}

/// Casts B along `translation_b` (A stays put) and returns the first fraction at which
/// their rounded surfaces come within [`SHAPE_CAST_TARGET`] of each other.
///
/// - The hit's fraction has B's rounded surface between `SHAPE_CAST_TARGET` and 1.25 ×
///   that from A's, so B can be moved there without touching.
/// - A cast that starts within that gap, touching or overlapping, hits at fraction 0
///   with the best normal at hand: the GJK normal while the cores are apart (exact for
///   rounded shapes that overlap by less than their radii), else the last search
///   direction of GJK.
/// - Moving apart, sliding parallel, or not arriving within `max_fraction`: no hit. A
///   zero translation hits only if it starts within the gap.
/// - The loop stops after 30 distance queries; one that has not arrived by then (a
///   grazing approach) reports a hit where it stands, which is still short of any
///   contact: a safe place to stop rather than a tunnel.
///
/// ```
/// use maul3d::collide::cast::{SHAPE_CAST_TARGET, shape_cast};
/// use maul3d::collide::distance::ShapeProxy;
/// use maul3d::geometry::{Sphere, hull::BoxHull};
/// use maul3d::math::{Quat, Transform, Vec3};
///
/// let floor = BoxHull::new(Vec3::new(10.0, 1.0, 10.0), Vec3::ZERO, Quat::IDENTITY);
/// let ball = Sphere { center: Vec3::ZERO, radius: 0.5 };
/// let out = shape_cast(
///     &ShapeProxy::hull(&floor.view()),
///     &Transform::IDENTITY,
///     &ShapeProxy::sphere(&ball),
///     &Transform::new(Vec3::new(0.0, 3.5, 0.0), Quat::IDENTITY),
///     Vec3::new(0.0, -4.0, 0.0),
///     1.0,
/// );
/// assert!(out.hit);
/// assert!((out.fraction - (2.0 - SHAPE_CAST_TARGET) / 4.0).abs() < 1e-4);
/// assert!((out.normal - Vec3::Y).length() < 1e-6);
/// ```
pub fn shape_cast(
    a: &ShapeProxy,
    xf_a: &Transform,
    b: &ShapeProxy,
    xf_b: &Transform,
    translation_b: Vec3,
    max_fraction: f32,
) -> CastOutput {
    let radius = a.radius + b.radius;
    let target = SHAPE_CAST_TARGET;
    let tolerance = SHAPE_CAST_TOLERANCE;
    let miss = |iterations| CastOutput {
        fraction: max(max_fraction, 0.0),
        iterations,
        ..CastOutput::default()
    };

    // Everything in A's frame: B starts at `start` and moves along `delta`.
    let start = xf_a.inv_mul(xf_b);
    let delta = xf_a.q.inv_rotate(translation_b);
    let mut cache = SimplexCache::default();
    let mut alpha = 0.0f32;
    let mut iterations = 0;
    while iterations < MAX_CAST_ITERATIONS {
        let xf = Transform::new(start.p.mul_add(alpha, delta), start.q);
        let core = core_distance(a, b, &xf, &mut cache, f32::MAX);
        iterations += 1;
        let gap = core.distance - radius;
        let n = core.normal;
        if gap < target + tolerance {
            let point = if iterations == 1 {
                // Starts within the gap: a point between the surfaces.
                let ca = core.point_a.mul_add(a.radius, n);
                let cb = core.point_b.mul_sub(b.radius, n);
                (ca + cb) * 0.5
            } else {
                core.point_a.mul_add(a.radius, n)
            };
            return CastOutput {
                fraction: alpha,
                point: xf_a.apply(point),
                normal: xf_a.q.rotate(n),
                hit: true,
                iterations,
            };
        }
        // The gap shrinks no faster than B approaches along the normal: the plane through
        // the closest points, moving with B, is a lower bound (the gap is convex in alpha).
        let approach = delta.dot(n);
        if approach >= 0.0 {
            return miss(iterations);
        }
        alpha += (target - gap) / approach;
        // Also catches NaN from an overflowing input.
        if alpha >= max_fraction || alpha.is_nan() {
            return miss(iterations);
        }
    }
    // Out of iterations while still approaching: stop where it stands, short of contact.
    let xf = Transform::new(start.p.mul_add(alpha, delta), start.q);
    let core = core_distance(a, b, &xf, &mut cache, f32::MAX);
    CastOutput {
        fraction: alpha,
        point: xf_a.apply(core.point_a.mul_add(a.radius, core.normal)),
        normal: xf_a.q.rotate(core.normal),
        hit: true,
        iterations: iterations + 1,
    }
}

/// The motion of a body over a step, for [`time_of_impact`]: its centre of mass moves in
/// a straight line from `c1` to `c2` while its rotation turns from `q1` to `q2`, both in a
/// common frame (near the pair, not the world origin).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Sweep {
    /// The centre of mass in the body frame (the shapes' frame).
    pub local_center: Vec3,
    /// The centre of mass at the start of the step.
    pub c1: Vec3,
    /// The centre of mass at the end of the step.
    pub c2: Vec3,
    /// The rotation at the start of the step.
    pub q1: Quat,
    /// The rotation at the end of the step.
    pub q2: Quat,
}

impl Sweep {
    /// The body frame at fraction `t` of the step (0 is the start, 1 the end).
    ///
    /// The centre of mass is `(1 − t) c1 + t c2`; the rotation is the normalised linear
    /// blend (nlerp) `normalize((1 − t) q1 + t q2)`, with `q2` first negated if needed to
    /// lie on `q1`'s side of the 4-sphere, so the blend takes the shorter way round (over
    /// at most 180°, where nlerp's speed varies but stays monotonic and never degenerates);
    /// the body origin is the centre minus the rotated local centre.
    pub fn transform_at(&self, t: f32) -> Transform {
        let c = self.c1.lerp(self.c2, t);
        let (q1, mut q2) = (self.q1, self.q2);
        if q1.dot(q2) < 0.0 {
            q2 = Quat::new(-q2.x, -q2.y, -q2.z, -q2.w);
        }
        let s = 1.0 - t;
        let q = Quat::new(
            s * q1.x + t * q2.x,
            s * q1.y + t * q2.y,
            s * q1.z + t * q2.z,
            s * q1.w + t * q2.w,
        )
        .normalize();
        Transform::new(c - q.rotate(self.local_center), q)
    }
}

/// How a [`time_of_impact`] query ended.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ToiState {
    /// The shapes come within the target separation at `fraction`.
    Hit,
    /// The shapes stay apart over the whole sweep; `fraction` is `t_max`.
    #[default]
    Separated,
    /// The cores overlap where the search stands (from the start, or after the root finder
    /// ran out): no time of impact; `fraction` is 0.
    Overlapped,
    /// The iteration caps ran out; `fraction` is the last safe time found.
    Failed,
}

/// The result of [`time_of_impact`].
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ToiOutput {
    /// How the query ended.
    pub state: ToiState,
    /// The fraction of the sweeps reached (see [`ToiState`]).
    pub fraction: f32,
    /// Work done, for counters and tests: outer iterations (separating axes tried, each
    /// with at most two distance queries), at most [`MAX_TOI_ITERATIONS`].
    pub iterations: u32,
    /// Work done: separation evaluations on the axes (push-backs and root-finder steps
    /// together), at most [`MAX_TOI_EVALUATIONS`].
    pub root_iterations: u32,
}

/// Most separating axes (outer iterations) one time of impact tries: Box2D's 20, and
/// more room for the certified steps a fast turn can need. Each costs two distance
/// queries at most.
pub const MAX_TOI_ITERATIONS: u32 = 64;
/// Most root-finder steps on one axis (Box2D's 50).
pub const MAX_ROOT_ITERATIONS: u32 = 50;
/// Most separation evaluations (deepest-point searches and root-finder steps together)
/// one time of impact makes over all its axes. Past it the query ends
/// [`ToiState::Failed`] at the last safe time, so one query's work is bounded by this
/// and [`MAX_TOI_ITERATIONS`] whatever the shapes and motion.
pub const MAX_TOI_EVALUATIONS: u32 = 1000;

/// Most deepest-point pushes on one axis: one per vertex either side could offer
/// (Box3D's `proxyA.count + proxyB.count`).
fn push_back_limit(a: &ShapeProxy, b: &ShapeProxy) -> u32 {
    let n = a.used().len() + b.used().len();
    (if n > MAX_HULL_VERTICES {
        MAX_HULL_VERTICES
    } else {
        n
    }) as u32
}

/// Which axis a separating function measures along.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum AxisKind {
    /// A direction fixed in the common frame: the closest points were a vertex each.
    Points,
    /// A plane fixed in A: A's closest feature is an edge or a face.
    FaceA,
    /// A plane fixed in B: B's closest feature is an edge or a face, A's a vertex.
    FaceB,
}

/// A lower bound of the distance between the cores along one axis as the sweeps advance
/// (Box2D's `b2SeparationFunction`). Along a fixed direction the projections' gap is a
/// lower bound; for a face kind the plane supports its own shape at all times, since it
/// turns with it, so the other shape's deepest point below it is one too.
struct SeparationFunction<'a> {
    a: &'a ShapeProxy,
    b: &'a ShapeProxy,
    sweep_a: &'a Sweep,
    sweep_b: &'a Sweep,
    kind: AxisKind,
    /// The plane's point, in its body's frame (face kinds).
    local_point: Vec3,
    /// Points: the unit axis in the common frame, from A to B. Face kinds: the unit
    /// normal in its body's frame, pointing towards the other shape.
    axis: Vec3,
}

impl<'a> SeparationFunction<'a> {
    /// The function for the closest features GJK found at the sweeps' poses `(xf_a,
    /// xf_b)`: their indices in `cache`, the points and normal (in A's frame) in `core`.
    fn new(
        cache: &SimplexCache,
        core: &CoreDistance,
        a: &'a ShapeProxy,
        sweep_a: &'a Sweep,
        b: &'a ShapeProxy,
        sweep_b: &'a Sweep,
        (xf_a, xf_b): &(Transform, Transform),
    ) -> SeparationFunction<'a> {
        let count = (cache.count as usize).min(4);
        let distinct = |indices: &[u8]| {
            let mut n = 0;
            for (k, &i) in indices.iter().enumerate() {
                if !indices[..k].contains(&i) {
                    n += 1;
                }
            }
            n
        };
        let unique_a = distinct(&cache.index_a[..count]);
        let unique_b = distinct(&cache.index_b[..count]);
        let mut f = SeparationFunction {
            a,
            b,
            sweep_a,
            sweep_b,
            kind: AxisKind::Points,
            local_point: Vec3::ZERO,
            axis: Vec3::ZERO,
        };
        let normal = core.normal;
        if unique_a <= 1 && unique_b <= 1 {
            f.axis = xf_a.q.rotate(normal);
        } else if unique_a <= 1 {
            // B's edge or face, with the normal fixed in B, pointing at A.
            f.kind = AxisKind::FaceB;
            let world_point = xf_a.apply(core.point_b);
            f.local_point = xf_b.apply_inv(world_point);
            f.axis = xf_b.q.inv_rotate(xf_a.q.rotate(-normal));
        } else {
            f.kind = AxisKind::FaceA;
            f.local_point = core.point_a;
            f.axis = normal;
        }
        f
    }

    /// The deepest pair of points along the axis at `t`, and their separation.
    fn find_min_separation(&self, t: f32) -> (f32, usize, usize) {
        let xf_a = self.sweep_a.transform_at(t);
        let xf_b = self.sweep_b.transform_at(t);
        match self.kind {
            AxisKind::Points => {
                let n = self.axis;
                let ia = self.a.support(xf_a.q.inv_rotate(n));
                let ib = self.b.support(xf_b.q.inv_rotate(-n));
                (self.evaluate_at(&xf_a, &xf_b, ia, ib), ia, ib)
            }
            AxisKind::FaceA => {
                let n = xf_a.q.rotate(self.axis);
                let ib = self.b.support(xf_b.q.inv_rotate(-n));
                (self.evaluate_at(&xf_a, &xf_b, 0, ib), 0, ib)
            }
            AxisKind::FaceB => {
                let n = xf_b.q.rotate(self.axis);
                let ia = self.a.support(xf_a.q.inv_rotate(-n));
                (self.evaluate_at(&xf_a, &xf_b, ia, 0), ia, 0)
            }
        }
    }

    /// The separation of the given points along the axis at `t`.
    fn evaluate(&self, ia: usize, ib: usize, t: f32) -> f32 {
        let xf_a = self.sweep_a.transform_at(t);
        let xf_b = self.sweep_b.transform_at(t);
        self.evaluate_at(&xf_a, &xf_b, ia, ib)
    }

    fn evaluate_at(&self, xf_a: &Transform, xf_b: &Transform, ia: usize, ib: usize) -> f32 {
        match self.kind {
            AxisKind::Points => {
                let pa = xf_a.apply(self.a.used()[ia]);
                let pb = xf_b.apply(self.b.used()[ib]);
                (pb - pa).dot(self.axis)
            }
            AxisKind::FaceA => {
                let n = xf_a.q.rotate(self.axis);
                let p = xf_a.apply(self.local_point);
                let pb = xf_b.apply(self.b.used()[ib]);
                (pb - p).dot(n)
            }
            AxisKind::FaceB => {
                let n = xf_b.q.rotate(self.axis);
                let p = xf_b.apply(self.local_point);
                let pa = xf_a.apply(self.a.used()[ia]);
                (pa - p).dot(n)
            }
        }
    }
}

/// What the search along one separating axis proposes (Box2D's inner loops).
enum AxisResult {
    /// Apart along the axis at `t_max`.
    Separated,
    /// The axis reaches the target at this time: advance to it.
    Advance(f32),
    /// Touching within the tolerance at `t1`.
    Hit,
    /// The root finder left `t1` too deep.
    Failed,
}

/// Box2D's push-back on one axis: finds the latest `t2` in `[t1, t_max]` at which the
/// deepest points along the axis come down to the target, one deepest pair at a time,
/// each by bisection mixed with the secant rule (the sweeps' poses at `t1` given). Counts
/// every separation it evaluates in `evaluations` and stops (as out of pushes) once that
/// reaches `budget`.
fn search_axis(
    f: &SeparationFunction,
    (t1, t_max): (f32, f32),
    (xf_a1, xf_b1): &(Transform, Transform),
    target: f32,
    tolerance: f32,
    evaluations: &mut u32,
    budget: u32,
) -> AxisResult {
    let mut t2 = t_max;
    let pushes = push_back_limit(f.a, f.b);
    for _ in 0..pushes {
        // Two evaluations below before the root finder, which checks for itself.
        if *evaluations + 2 > budget {
            break;
        }
        *evaluations += 2;
        let (mut s2, ia, ib) = f.find_min_separation(t2);
        if s2 > target + tolerance {
            return if t2 == t_max {
                AxisResult::Separated
            } else {
                AxisResult::Advance(t2)
            };
        }
        if s2 > target - tolerance {
            return AxisResult::Advance(t2);
        }
        let mut s1 = f.evaluate_at(xf_a1, xf_b1, ia, ib);
        if s1 < target - tolerance {
            return AxisResult::Failed;
        }
        if s1 <= target + tolerance {
            return AxisResult::Hit;
        }
        // The root of s(t) = target in [t1, t2], bracketed: s1 above, s2 below.
        let (mut a1, mut a2) = (t1, t2);
        for root_iteration in 0..MAX_ROOT_ITERATIONS {
            if *evaluations >= budget {
                break;
            }
            let t = if root_iteration & 1 == 1 {
                // Secant: s1 > target ≥ s2, so the denominator is negative.
                a1 + (target - s1) * (a2 - a1) / (s2 - s1)
            } else {
                0.5 * (a1 + a2)
            };
            *evaluations += 1;
            let s = f.evaluate(ia, ib, t);
            if abs(s - target) < tolerance {
                t2 = t;
                break;
            }
            if s > target {
                a1 = t;
                s1 = s;
            } else {
                a2 = t;
                s2 = s;
            }
        }
    }
    // Out of pushes: t2 is where the last root search stood, not certified deep enough.
    AxisResult::Advance(t2)
}

/// An upper bound of the rotation rate of a sweep, in radians per unit of `t`: for the
/// nlerp of unit quaternions an angle θ apart it peaks at the middle at 4 tan(θ/4),
/// written with cos(θ/2) = |q1·q2| as 4 sin(θ/2) / (1 + cos(θ/2)).
fn rotation_rate_bound(s: &Sweep) -> f32 {
    let (q1, q2) = (s.q1.normalize(), s.q2.normalize());
    let c = abs(q1.dot(q2));
    let c = if c > 1.0 { 1.0 } else { c };
    4.0 * sqrt(1.0 - c * c) / (1.0 + c)
}

/// The farthest any of a proxy's core points lies from the centre of mass.
fn reach(p: &ShapeProxy, center: Vec3) -> f32 {
    let mut r2 = 0.0f32;
    for &v in p.used() {
        r2 = max(r2, (v - center).length_squared());
    }
    sqrt(r2)
}

/// The first fraction of the sweeps, in `[0, t_max]`, at which the cores of `a` and `b`
/// come within a target separation, by conservative advancement with separating-axis
/// root finding (Box2D's `b2TimeOfImpact`).
///
/// The target is that of Box2D: the cores end `max(LINEAR_SLOP, ra + rb − LINEAR_SLOP)`
/// apart (within a quarter of the linear slop), so rounded shapes end overlapping by
/// about one linear slop — the contact solver then sees them touching — and shapes
/// without radius end one linear slop apart. The cores never pass through each other at
/// the reported fraction.
///
/// Box2D's axis search jumps ahead to where a separating axis reaches the target, or
/// declares the sweeps apart when the axis still separates at the end. That is exact for
/// pure translation (the separation along an axis is then concave in time) but a turning
/// body can dip below the target between the two ends and come back up — a bar spinning
/// half a turn past a post. So every jump is certified: the cores' distance changes no
/// faster than a bound `L` of the relative motion (the centres' relative travel plus
/// each body's rotation rate times its reach), so from distances `d1` and `d2` at both
/// ends nothing in between comes closer than `(d1 + d2 − L Δt) / 2`. A jump that cannot
/// be certified advances only as far as the bound allows, `(d1 − target) / L`, and the
/// search goes on from there.
///
/// States: [`ToiState::Hit`] at the time found (0 if they start within the target);
/// [`ToiState::Separated`] with `t_max` if they stay apart; [`ToiState::Overlapped`] with
/// 0 if the cores overlap where the search stands; [`ToiState::Failed`] with the last
/// safe time if the caps run out ([`MAX_TOI_ITERATIONS`] axes or certified steps; on
/// each axis one push per vertex of either shape, [`MAX_ROOT_ITERATIONS`] root steps per
/// push; [`MAX_TOI_EVALUATIONS`] separation evaluations in all), which takes a grazing
/// pass by a fast turn (about 1 in 10,000 random sweeps turning up to half a turn while
/// crossing 6 m past 1 m shapes; none in as many turning under 0.8 rad). The caps bound
/// one query's work whatever the shapes and motion: [`ToiOutput`] says how much it used.
///
/// ```
/// use maul3d::collide::cast::{Sweep, ToiState, time_of_impact};
/// use maul3d::collide::distance::ShapeProxy;
/// use maul3d::geometry::{Sphere, hull::BoxHull};
/// use maul3d::math::{Quat, Vec3};
///
/// // A 5 cm bullet crossing 5 m in one step, towards a 10 cm thick wall 2 m ahead.
/// let wall = BoxHull::new(Vec3::new(0.05, 2.0, 2.0), Vec3::ZERO, Quat::IDENTITY);
/// let bullet = Sphere { center: Vec3::ZERO, radius: 0.05 };
/// let still = Sweep { c1: Vec3::ZERO, c2: Vec3::ZERO, ..Default::default() };
/// let flight = Sweep { c1: Vec3::new(-2.0, 0.0, 0.0), c2: Vec3::new(3.0, 0.0, 0.0), ..Default::default() };
/// let out = time_of_impact(&ShapeProxy::hull(&wall.view()), &still, &ShapeProxy::sphere(&bullet), &flight, 1.0);
/// assert_eq!(out.state, ToiState::Hit);
/// let x = flight.transform_at(out.fraction).p.x;
/// assert!(x < -0.05 && x > -0.11);
/// ```
pub fn time_of_impact(
    a: &ShapeProxy,
    sweep_a: &Sweep,
    b: &ShapeProxy,
    sweep_b: &Sweep,
    t_max: f32,
) -> ToiOutput {
    let target = max(LINEAR_SLOP, a.radius + b.radius - LINEAR_SLOP);
    time_of_impact_to(a, sweep_a, b, sweep_b, t_max, target)
}

/// [`time_of_impact`] to a chosen separation of the cores (at least a linear slop).
pub(crate) fn time_of_impact_to(
    a: &ShapeProxy,
    sweep_a: &Sweep,
    b: &ShapeProxy,
    sweep_b: &Sweep,
    t_max: f32,
    target: f32,
) -> ToiOutput {
    let target = max(LINEAR_SLOP, target);
    let tolerance = 0.25 * LINEAR_SLOP;

    // How fast the cores can close, per unit of t: the centres' relative travel, and how
    // fast turning moves any core point about its centre.
    let travel = (sweep_b.c2 - sweep_b.c1) - (sweep_a.c2 - sweep_a.c1);
    let turn_bound = rotation_rate_bound(sweep_a) * reach(a, sweep_a.local_center)
        + rotation_rate_bound(sweep_b) * reach(b, sweep_b.local_center);
    let speed_bound = travel.length() + turn_bound;

    // Both sweeps' poses at t (each computed once per time the search stands at).
    let poses = |t: f32| (sweep_a.transform_at(t), sweep_b.transform_at(t));

    // The cores' separation along a fixed unit axis: B's lowest point less A's highest.
    let axis_separation = |n: Vec3, (xf_a, xf_b): &(Transform, Transform)| {
        let ia = a.support(xf_a.q.inv_rotate(n));
        let ib = b.support(xf_b.q.inv_rotate(-n));
        (xf_b.apply(b.used()[ib]) - xf_a.apply(a.used()[ia])).dot(n)
    };

    let core_at = |(xf_a, xf_b): &(Transform, Transform), cache: &mut SimplexCache| {
        core_distance(a, b, &xf_a.inv_mul(xf_b), cache, f32::MAX)
    };

    let mut t1 = 0.0f32;
    let mut x1 = poses(t1);
    let mut cache = SimplexCache::default();
    let mut core = core_at(&x1, &mut cache);
    let mut evaluations = 0u32;
    let mut iterations = 0u32;
    let out = |state: ToiState, fraction: f32, iterations: u32, evaluations: u32| ToiOutput {
        state,
        fraction,
        iterations,
        root_iterations: evaluations,
    };
    while iterations < MAX_TOI_ITERATIONS {
        // The cores overlap: no time of impact to find (Box2D gives up here too).
        if core.distance <= 0.0 {
            return out(ToiState::Overlapped, 0.0, iterations, evaluations);
        }
        if core.distance < target + tolerance {
            return out(ToiState::Hit, t1, iterations, evaluations);
        }
        if evaluations >= MAX_TOI_EVALUATIONS {
            break;
        }
        iterations += 1;

        let f = SeparationFunction::new(&cache, &core, a, sweep_a, b, sweep_b, &x1);
        let (times, budget) = ((t1, t_max), MAX_TOI_EVALUATIONS);
        let t2 = match search_axis(&f, times, &x1, target, tolerance, &mut evaluations, budget) {
            AxisResult::Hit => return out(ToiState::Hit, t1, iterations, evaluations),
            AxisResult::Failed => return out(ToiState::Failed, t1, iterations, evaluations),
            AxisResult::Separated => t_max,
            AxisResult::Advance(t2) => t2,
        };

        // Certify the jump from t1 to t2 (see above). Along the normal n0 at t1, fixed in
        // the common frame, each pair of points' separation is linear in t from the
        // centres' travel plus a part from turning that changes no faster than
        // `turn_bound`: so it falls no faster than `closing`, and between the ends it
        // dips at most `turn_bound Δt` below the lower end (the linear parts' minimum
        // is concave). Whole-distance bounds with `speed_bound` back this up.
        let d1 = core.distance;
        let n0 = x1.0.q.rotate(core.normal);
        let s1 = axis_separation(n0, &x1);
        let closing = turn_bound - travel.dot(n0);
        let axis_step = if closing > 0.0 {
            (s1 - target) / closing
        } else {
            f32::MAX
        };
        let safe_step = max(axis_step, (d1 - target) / speed_bound);
        let dt = t2 - t1;
        let mut next_cache = cache;
        let x2 = poses(t2);
        let next = core_at(&x2, &mut next_cache);
        let certified = dt <= safe_step
            || min(s1, axis_separation(n0, &x2)) - turn_bound * dt >= target
            || 0.5 * (d1 + next.distance - speed_bound * dt) >= target;
        if certified {
            if t2 >= t_max && next.distance > target + tolerance {
                return out(ToiState::Separated, t_max, iterations, evaluations);
            }
            t1 = t2;
            x1 = x2;
            cache = next_cache;
            core = next;
        } else {
            // Only as far as the motion bounds allow: short of t2, so short of t_max, and
            // positive since d1 is above the target.
            t1 += safe_step;
            x1 = poses(t1);
            core = core_at(&x1, &mut cache);
        }
    }
    out(ToiState::Failed, t1, iterations, evaluations)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::collide::distance::tests::{
        Features, Lcg, brute_distance, capsule_features, hull_features, random_hull,
        sphere_features,
    };
    use crate::collide::distance::{distance, overlaps};
    use crate::geometry::hull::{BoxHull, Hull};
    use crate::geometry::{Capsule, Sphere};

    fn near(a: Vec3, b: Vec3, tol: f32) -> bool {
        (a - b).length() <= tol
    }

    fn sphere(r: f32) -> ShapeProxy {
        ShapeProxy::sphere(&Sphere {
            center: Vec3::ZERO,
            radius: r,
        })
    }

    fn axis(i: usize) -> Vec3 {
        let mut v = Vec3::ZERO;
        match i % 3 {
            0 => v.x = 1.0,
            1 => v.y = 1.0,
            _ => v.z = 1.0,
        }
        if i >= 3 { -v } else { v }
    }

    #[test]
    fn sphere_cast_at_a_rotated_box_face_stops_at_the_closed_form_fraction() {
        let mut rng = Lcg(21);
        let half = Vec3::new(1.0, 0.5, 2.0);
        let b = BoxHull::new(half, Vec3::ZERO, Quat::IDENTITY);
        let box_proxy = ShapeProxy::hull(&b.view());
        for k in 0..120 {
            let xf_a = rng.pose(3.0);
            let r = 0.05 + 0.5 * rng.next().abs();
            let face = k % 6;
            let n = axis(face);
            let extent = n.dot(half).abs();
            // Start above the face's middle region, come in at a slant, land on the face.
            let tangent_room = half - n.abs().mul_elements(half);
            let start_gap = 0.01 + 2.0 * rng.next().abs();
            let lateral = rng.vec(0.3).mul_elements(tangent_room);
            let c0 = n * (extent + r + start_gap) + lateral;
            let slide = rng.vec(0.2).mul_elements(tangent_room);
            let length = 1.5 * (start_gap + 0.2);
            let dir = (slide - n).normalize();
            let translation = dir * length;
            let closing = -dir.dot(n) * length;
            let expected = (start_gap - SHAPE_CAST_TARGET) / closing;
            let xf_b = Transform::new(xf_a.apply(c0), rng.rotation());
            let out = shape_cast(
                &box_proxy,
                &xf_a,
                &sphere(r),
                &xf_b,
                xf_a.q.rotate(translation),
                1.0,
            );
            assert!(out.hit, "{k}: {out:?}");
            assert!(
                (out.fraction - expected).abs() < 1e-4,
                "{k}: {out:?} vs {expected}"
            );
            assert!(near(out.normal, xf_a.q.rotate(n), 1e-4), "{k}: {out:?}");
            let on_face = xf_a.apply_inv(out.point);
            assert!((on_face.dot(n) - extent).abs() < 1e-4, "{k}: {on_face:?}");
        }
    }

    #[test]
    fn sphere_cast_past_a_box_corner_stops_at_the_closed_form_fraction() {
        // The centre passes the corner at a distance b: the rounded gap shrinks along a
        // hyperbola, not a line, so the advancement takes several steps.
        let half = Vec3::new(0.5, 0.7, 0.9);
        let b = BoxHull::new(half, Vec3::ZERO, Quat::IDENTITY);
        let xf_a = Transform::new(
            Vec3::new(1.0, -2.0, 0.5),
            Quat::from_axis_angle(Vec3::new(0.3, 1.0, -0.2).normalize(), 1.3),
        );
        let u = Vec3::new(1.0, 1.0, 1.0).normalize();
        // Off the diagonal but within the corner's Voronoi region all the way in.
        let side = Vec3::new(1.0, 1.0, -2.0).normalize();
        for (k, &(r, offset)) in [(0.2f32, 0.02f32), (0.5, 0.1), (0.1, 0.0), (0.3, 0.1)]
            .iter()
            .enumerate()
        {
            let start = 2.0;
            let c0 = half + u * start + side * offset;
            let length = 3.0;
            let reach = r + SHAPE_CAST_TARGET;
            let expected = (start - (reach * reach - offset * offset).sqrt()) / length;
            let out = shape_cast(
                &ShapeProxy::hull(&b.view()),
                &xf_a,
                &sphere(r),
                &Transform::new(xf_a.apply(c0), Quat::IDENTITY),
                xf_a.q.rotate(-u * length),
                1.0,
            );
            assert!(out.hit);
            // Between the target and the target plus the tolerance, in fraction terms.
            let slack = SHAPE_CAST_TOLERANCE / length;
            assert!(
                out.fraction <= expected + 1e-5 && out.fraction > expected - slack - 1e-5,
                "{k}: {out:?} vs {expected}"
            );
            assert!(near(xf_a.apply_inv(out.point), half, 1e-4), "{k}: {out:?}");
        }
    }

    fn floor() -> BoxHull {
        BoxHull::new(
            Vec3::new(10.0, 1.0, 10.0),
            Vec3::new(0.0, -1.0, 0.0),
            Quat::IDENTITY,
        )
    }

    #[test]
    fn capsule_cast_along_a_wall_slides_freely_and_lands_where_closed_forms_say() {
        let wall = floor();
        let wall_proxy = ShapeProxy::hull(&wall.view());
        // The floor's top is the plane y = 0, seen from a tilted frame.
        let xf_a = Transform::new(
            Vec3::new(0.5, 1.0, -2.0),
            Quat::from_axis_angle(Vec3::new(1.0, 0.0, 1.0).normalize(), 0.4),
        );
        let up = xf_a.q.rotate(Vec3::Y);
        let pill = Capsule {
            center1: Vec3::new(-0.5, 0.0, 0.0),
            center2: Vec3::new(0.5, 0.0, 0.0),
            radius: 0.2,
        };
        let proxy = ShapeProxy::capsule(&pill);
        let lying = |height: f32, q: Quat| {
            Transform::new(xf_a.apply(Vec3::new(0.0, height, 0.0)), xf_a.q * q)
        };
        // Lying 1 cm above the floor and sliding along it: never closer, no hit.
        let out = shape_cast(
            &wall_proxy,
            &xf_a,
            &proxy,
            &lying(0.21, Quat::IDENTITY),
            xf_a.q.rotate(Vec3::new(5.0, 0.0, 3.0)),
            1.0,
        );
        assert!(!out.hit, "{out:?}");
        assert_eq!(out.fraction, 1.0);
        // Sliding and sinking: lands when the 1 cm gap has closed to the target.
        let out = shape_cast(
            &wall_proxy,
            &xf_a,
            &proxy,
            &lying(0.21, Quat::IDENTITY),
            xf_a.q.rotate(Vec3::new(4.0, -0.5, 1.0)),
            1.0,
        );
        assert!(out.hit);
        assert!(
            (out.fraction - (0.01 - SHAPE_CAST_TARGET) / 0.5).abs() < 1e-4,
            "{out:?}"
        );
        assert!(near(out.normal, up, 1e-5));
        // Tilted by 30° and dropped: the lower end lands first.
        let tilt = Quat::from_axis_angle(Vec3::Z, core::f32::consts::FRAC_PI_6);
        let low_end = 0.5 * crate::math::sin(core::f32::consts::FRAC_PI_6);
        let out = shape_cast(
            &wall_proxy,
            &xf_a,
            &proxy,
            &lying(2.0, tilt),
            xf_a.q.rotate(Vec3::new(0.0, -3.0, 0.0)),
            1.0,
        );
        let expected = (2.0 - low_end - 0.2 - SHAPE_CAST_TARGET) / 3.0;
        assert!(out.hit);
        assert!(
            (out.fraction - expected).abs() < 1e-4,
            "{out:?} vs {expected}"
        );
        let landing = xf_a.apply_inv(out.point);
        assert!(
            (landing.x + 0.5 * crate::math::cos(core::f32::consts::FRAC_PI_6)).abs() < 1e-3,
            "{landing:?}"
        );
    }

    #[test]
    fn casts_that_start_touching_or_overlapped_hit_at_fraction_zero() {
        let wall = floor();
        let wall_proxy = ShapeProxy::hull(&wall.view());
        let xf_a = Transform::IDENTITY;
        let down = Vec3::new(0.0, -1.0, 0.0);
        // Rounded overlap, cores apart: the exact normal.
        for height in [0.4f32, 0.5, 0.5 + SHAPE_CAST_TARGET] {
            let xf_b = Transform::new(Vec3::new(1.0, height, 0.0), Quat::IDENTITY);
            for translation in [down, -down, Vec3::ZERO] {
                let out = shape_cast(&wall_proxy, &xf_a, &sphere(0.5), &xf_b, translation, 1.0);
                assert!(out.hit && out.fraction == 0.0, "{out:?}");
                assert!(near(out.normal, Vec3::Y, 1e-6), "{out:?}");
                assert!(out.point.is_valid());
            }
        }
        // Cores overlapping: fraction 0 and some unit normal.
        let cube = BoxHull::new(Vec3::splat(0.5), Vec3::ZERO, Quat::IDENTITY);
        let xf_b = Transform::new(Vec3::new(0.3, -0.2, 0.1), Quat::IDENTITY);
        let out = shape_cast(
            &wall_proxy,
            &xf_a,
            &ShapeProxy::hull(&cube.view()),
            &xf_b,
            down,
            1.0,
        );
        assert!(out.hit && out.fraction == 0.0, "{out:?}");
        assert!((out.normal.length() - 1.0).abs() < 1e-5 && out.point.is_valid());
    }

    #[test]
    fn casts_that_move_away_pass_by_or_stop_short_miss() {
        let wall = floor();
        let wall_proxy = ShapeProxy::hull(&wall.view());
        let xf_a = Transform::IDENTITY;
        let xf_b = Transform::new(Vec3::new(0.0, 2.0, 0.0), Quat::IDENTITY);
        let cases = [
            (Vec3::new(0.0, 1.0, 0.0), 1.0),
            (Vec3::new(0.0, -3.0, 0.0), 0.49),
            (Vec3::new(30.0, -1.0, 0.0), 1.0),
            (Vec3::ZERO, 1.0),
        ];
        for (translation, max_fraction) in cases {
            let out = shape_cast(
                &wall_proxy,
                &xf_a,
                &sphere(0.5),
                &xf_b,
                translation,
                max_fraction,
            );
            assert!(!out.hit, "{translation:?}: {out:?}");
            assert_eq!(out.fraction, max_fraction);
            assert_eq!(out.normal, Vec3::ZERO);
        }
    }

    #[test]
    fn hull_casts_stop_where_dense_sampling_first_comes_within_the_target() {
        let mut rng = Lcg(22);
        let mut hits = 0;
        for k in 0..80 {
            let ha = random_hull(&mut rng, 6 + k % 30, 1.0);
            let hb = random_hull(&mut rng, 6 + (k * 3) % 30, 0.6);
            let (va, vb) = (ha.view(), hb.view());
            let (pa, pb) = (ShapeProxy::hull(&va), ShapeProxy::hull(&vb));
            let xf_a = rng.pose(2.0);
            let dir = rng.unit();
            let xf_b = Transform::new(xf_a.p + dir * 3.5, rng.rotation());
            let translation = -dir * 4.0 + rng.vec(1.5);
            let out = shape_cast(&pa, &xf_a, &pb, &xf_b, translation, 1.0);
            let fa = hull_features(&va, &xf_a);
            let at = |t: f32| {
                let moved = Transform::new(xf_b.p + translation * t, xf_b.q);
                hull_features(&vb, &moved)
            };
            // The first sampled fraction within the target, if any.
            let steps = 2000;
            let mut first = None;
            for i in 0..=steps {
                let t = i as f32 / steps as f32;
                let fb = at(t);
                let moved = Transform::new(xf_b.p + translation * t, xf_b.q);
                let apart = !overlaps(&pa, &xf_a, &pb, &moved)
                    && brute_distance(&fa, &fb) > SHAPE_CAST_TARGET as f64;
                if !apart {
                    first = Some(t);
                    break;
                }
            }
            match first {
                Some(t) => {
                    hits += 1;
                    assert!(out.hit, "{k}: {out:?}");
                    // Never later than the first sample within the target, and standing
                    // between the target and its tolerance.
                    assert!(out.fraction <= t + 1e-5, "{k}: {out:?} vs {t}");
                    let gap = brute_distance(&fa, &at(out.fraction));
                    assert!(
                        gap > SHAPE_CAST_TARGET as f64 - 1e-5
                            && gap < (SHAPE_CAST_TARGET + SHAPE_CAST_TOLERANCE) as f64 + 1e-5,
                        "{k}: {gap}"
                    );
                }
                None => {
                    // Within half a sampling step of grazing, either answer is right.
                    if out.hit {
                        let gap = brute_distance(&fa, &at(out.fraction));
                        assert!(gap < 0.01, "{k}: {out:?} at gap {gap}");
                    }
                }
            }
        }
        assert!(hits > 40, "{hits}");
    }

    #[test]
    fn the_same_cast_gives_the_same_bits() {
        let mut rng = Lcg(23);
        for k in 0..40 {
            let ha = random_hull(&mut rng, 6 + k, 1.0);
            let pa = ShapeProxy::hull(&ha.view());
            let pb = ShapeProxy::capsule(&Capsule {
                center1: rng.vec(0.5),
                center2: rng.vec(0.5),
                radius: 0.1,
            });
            let xf_a = rng.pose(1.0);
            let xf_b = Transform::new(xf_a.p + rng.unit() * 3.0, rng.rotation());
            let translation = (xf_a.p - xf_b.p) * 1.2 + rng.vec(0.5);
            let o1 = shape_cast(&pa, &xf_a, &pb, &xf_b, translation, 1.0);
            let o2 = shape_cast(&pa, &xf_a, &pb, &xf_b, translation, 1.0);
            let bits = |o: &CastOutput| {
                [
                    o.fraction, o.point.x, o.point.y, o.point.z, o.normal.x, o.normal.y, o.normal.z,
                ]
                .map(f32::to_bits)
            };
            assert_eq!(bits(&o1), bits(&o2));
            assert_eq!((o1.hit, o1.iterations), (o2.hit, o2.iterations));
        }
    }

    fn still(at: Vec3) -> Sweep {
        Sweep {
            local_center: Vec3::ZERO,
            c1: at,
            c2: at,
            q1: Quat::IDENTITY,
            q2: Quat::IDENTITY,
        }
    }

    #[test]
    fn sweep_transforms_blend_the_centre_and_rotation_and_keep_the_local_centre_on_path() {
        let s = Sweep {
            local_center: Vec3::new(0.5, 0.0, 0.0),
            c1: Vec3::new(1.0, 0.0, 0.0),
            c2: Vec3::new(3.0, 2.0, 0.0),
            q1: Quat::IDENTITY,
            q2: Quat::from_axis_angle(Vec3::Z, core::f32::consts::FRAC_PI_2),
        };
        let start = s.transform_at(0.0);
        assert!(near(start.p, Vec3::new(0.5, 0.0, 0.0), 1e-6));
        let end = s.transform_at(1.0);
        assert!(near(end.apply(s.local_center), s.c2, 1e-6));
        assert!(near(end.q.rotate(Vec3::X), Vec3::Y, 1e-6));
        let mid = s.transform_at(0.5);
        assert!(near(
            mid.apply(s.local_center),
            Vec3::new(2.0, 1.0, 0.0),
            1e-6
        ));
        let half_turn = Quat::from_axis_angle(Vec3::Z, core::f32::consts::FRAC_PI_4);
        assert!(near(mid.q.rotate(Vec3::X), half_turn.rotate(Vec3::X), 1e-6));
        // q2 on the far side of the 4-sphere: the same rotation, the same path.
        let flipped = Sweep {
            q2: Quat::new(-s.q2.x, -s.q2.y, -s.q2.z, -s.q2.w),
            ..s
        };
        let m2 = flipped.transform_at(0.5);
        assert!(near(m2.q.rotate(Vec3::X), half_turn.rotate(Vec3::X), 1e-6));
    }

    #[test]
    fn a_fast_small_sphere_stops_before_a_thin_wall() {
        // 300 m/s over 1/60 s is 5 m per step; the wall is 10 cm thick.
        let wall = BoxHull::new(Vec3::new(0.05, 2.0, 2.0), Vec3::ZERO, Quat::IDENTITY);
        let wall_proxy = ShapeProxy::hull(&wall.view());
        let travel = 300.0 / 60.0;
        for (k, &(r, start, lateral)) in [
            (0.05f32, -2.0f32, 0.0f32),
            (0.01, -0.3, 0.5),
            (0.1, -4.9, -1.0),
            (0.003, -1.0, 0.2),
            (0.05, -0.2, 0.0),
        ]
        .iter()
        .enumerate()
        {
            let bullet = sphere(r);
            let flight = Sweep {
                local_center: Vec3::ZERO,
                c1: Vec3::new(start, lateral, 0.0),
                c2: Vec3::new(start + travel, lateral, 0.1),
                q1: Quat::IDENTITY,
                q2: Quat::from_axis_angle(Vec3::X, 2.0),
            };
            let out = time_of_impact(&wall_proxy, &still(Vec3::ZERO), &bullet, &flight, 1.0);
            assert_eq!(out.state, ToiState::Hit, "{k}: {out:?}");
            let x = flight.transform_at(out.fraction).p.x;
            // Before the wall's face, its core within the target of Box2D's rule.
            let target = max(LINEAR_SLOP, r - LINEAR_SLOP);
            let core_gap = -0.05 - x;
            assert!(x < -0.05, "{k}: centre at {x}");
            assert!(
                (core_gap - target).abs() <= 0.25 * LINEAR_SLOP + 1e-5,
                "{k}: core gap {core_gap} vs {target}"
            );
        }
    }

    #[test]
    fn a_rotating_long_box_sweeping_into_a_post_stops_at_the_closed_form_angle() {
        // A 4 m bar spins a quarter turn about z in one step; a vertical post of radius
        // 0.1 stands 1.5 m out along y. The bar's leading face (y = +0.1 in its frame)
        // reaches the post's axis at distance 0.1 + core target when 1.5 cos θ = 0.1 + d.
        let bar = BoxHull::new(Vec3::new(2.0, 0.1, 0.1), Vec3::ZERO, Quat::IDENTITY);
        let bar_proxy = ShapeProxy::hull(&bar.view());
        let post = ShapeProxy::capsule(&Capsule {
            center1: Vec3::new(0.0, 1.5, -1.0),
            center2: Vec3::new(0.0, 1.5, 1.0),
            radius: 0.1,
        });
        let quarter = Quat::from_axis_angle(Vec3::Z, core::f32::consts::FRAC_PI_2);
        let spin = Sweep {
            local_center: Vec3::ZERO,
            c1: Vec3::ZERO,
            c2: Vec3::ZERO,
            q1: Quat::IDENTITY,
            q2: quarter,
        };
        // Without continuous collision the bar would end the step through the post.
        let end = spin.transform_at(1.0);
        assert!(overlaps(&bar_proxy, &end, &post, &Transform::IDENTITY));

        let out = time_of_impact(&bar_proxy, &spin, &post, &still(Vec3::ZERO), 1.0);
        assert_eq!(out.state, ToiState::Hit, "{out:?}");
        let target = max(LINEAR_SLOP, 0.1 - LINEAR_SLOP);
        let angle = |t: f32| {
            let q = spin.transform_at(t).q;
            2.0 * crate::math::atan2(q.z, q.w)
        };
        let theta = angle(out.fraction);
        let gap = 1.5 * crate::math::cos(theta) - 0.1;
        assert!(
            (gap - target).abs() <= 0.25 * LINEAR_SLOP + 1e-5,
            "θ {theta}: gap {gap}"
        );
        let xf = spin.transform_at(out.fraction);
        let d = distance(&bar_proxy, &xf, &post, &Transform::IDENTITY);
        assert!(
            (d.distance + 0.1 - target).abs() <= 0.25 * LINEAR_SLOP + 1e-5,
            "{d:?}"
        );
        // An eighth of a turn the other way keeps both arms clear of the post.
        let back = Sweep {
            q2: Quat::from_axis_angle(Vec3::Z, -core::f32::consts::FRAC_PI_4),
            ..spin
        };
        let out = time_of_impact(&bar_proxy, &back, &post, &still(Vec3::ZERO), 1.0);
        assert_eq!(out.state, ToiState::Separated);
    }

    #[test]
    fn separated_sweeps_return_separated_at_t_max() {
        let cube = BoxHull::new(Vec3::splat(0.5), Vec3::ZERO, Quat::IDENTITY);
        let cube = ShapeProxy::hull(&cube.view());
        let ball = sphere(0.3);
        // Passing each other 1 m apart, one tumbling.
        let a = Sweep {
            local_center: Vec3::new(0.1, 0.0, 0.0),
            c1: Vec3::new(-5.0, 0.0, 0.0),
            c2: Vec3::new(5.0, 0.0, 0.0),
            q1: Quat::IDENTITY,
            q2: Quat::from_axis_angle(Vec3::new(1.0, 1.0, 0.0).normalize(), 3.0),
        };
        let b = Sweep {
            local_center: Vec3::ZERO,
            c1: Vec3::new(5.0, 1.0 + 0.3 + 0.87, 0.0),
            c2: Vec3::new(-5.0, 1.0 + 0.3 + 0.87, 0.0),
            q1: Quat::IDENTITY,
            q2: Quat::IDENTITY,
        };
        for t_max in [1.0f32, 0.5] {
            let out = time_of_impact(&cube, &a, &ball, &b, t_max);
            assert_eq!(out.state, ToiState::Separated, "{out:?}");
            assert_eq!(out.fraction, t_max);
        }
        // Moving together, side by side.
        let c = Sweep {
            c1: a.c1 + Vec3::new(0.0, 0.0, 2.0),
            c2: a.c2 + Vec3::new(0.0, 0.0, 2.0),
            ..a
        };
        let out = time_of_impact(&cube, &a, &cube, &c, 1.0);
        assert_eq!(out.state, ToiState::Separated, "{out:?}");
        // Headed for each other but stopping short by t_max.
        let head_on = Sweep {
            c1: Vec3::new(5.0, 0.0, 0.0),
            c2: Vec3::new(-5.0, 0.0, 0.0),
            ..still(Vec3::ZERO)
        };
        let out = time_of_impact(&cube, &still(Vec3::ZERO), &ball, &head_on, 0.3);
        assert_eq!(out.state, ToiState::Separated, "{out:?}");
        assert_eq!(out.fraction, 0.3);
    }

    #[test]
    fn sweeps_that_start_overlapped_or_touching_report_it_at_fraction_zero() {
        let cube = BoxHull::new(Vec3::splat(0.5), Vec3::ZERO, Quat::IDENTITY);
        let cube = ShapeProxy::hull(&cube.view());
        let moving = Sweep {
            c1: Vec3::new(0.2, 0.3, 0.0),
            c2: Vec3::new(5.0, 0.3, 0.0),
            ..still(Vec3::ZERO)
        };
        let out = time_of_impact(&cube, &still(Vec3::ZERO), &cube, &moving, 1.0);
        assert_eq!(out.state, ToiState::Overlapped);
        assert_eq!(out.fraction, 0.0);
        // A sphere already sunk 1 cm into the cube (cores apart): a hit right away.
        let sunk = Sweep {
            c1: Vec3::new(0.0, 0.79, 0.0),
            c2: Vec3::new(0.0, -3.0, 0.0),
            ..still(Vec3::ZERO)
        };
        let out = time_of_impact(&cube, &still(Vec3::ZERO), &sphere(0.3), &sunk, 1.0);
        assert_eq!(out.state, ToiState::Hit);
        assert_eq!(out.fraction, 0.0);
    }

    /// The core's features (radius left out) of a proxy of `hull`, or of a sphere or
    /// capsule's points.
    fn core_features(p: &ShapeProxy, hull: Option<&Hull>, xf: &Transform) -> Features {
        match hull {
            Some(h) => hull_features(&h.view(), xf),
            None if p.count == 1 => sphere_features(
                &Sphere {
                    center: p.points[0],
                    radius: 0.0,
                },
                xf,
            ),
            None => capsule_features(
                &Capsule {
                    center1: p.points[0],
                    center2: p.points[1],
                    radius: 0.0,
                },
                xf,
            ),
        }
    }

    #[test]
    fn random_sweeps_never_report_a_time_past_first_contact() {
        // Half the sweeps turn less than 0.8 rad (a step's worth), half anything up to a
        // half turn, while crossing 6 m past shapes 1 m across.
        let mut rng = Lcg(24);
        let (mut hits, mut separated, mut failed) = (0, 0, 0);
        for k in 0..200 {
            let hull_a = random_hull(&mut rng, 5 + k % 20, 0.8);
            let hull_b = random_hull(&mut rng, 5 + (k * 7) % 20, 0.5);
            let cap = Capsule {
                center1: rng.vec(0.4),
                center2: rng.vec(0.4),
                radius: 0.05 + 0.2 * rng.next().abs(),
            };
            let ball = Sphere {
                center: rng.vec(0.2),
                radius: 0.05 + 0.3 * rng.next().abs(),
            };
            let (pa, pb) = match k % 3 {
                0 => (
                    ShapeProxy::hull(&hull_a.view()),
                    ShapeProxy::hull(&hull_b.view()),
                ),
                1 => (ShapeProxy::hull(&hull_a.view()), ShapeProxy::capsule(&cap)),
                _ => (ShapeProxy::capsule(&cap), ShapeProxy::sphere(&ball)),
            };
            let sweep = |rng: &mut Lcg, from: Vec3, to: Vec3| {
                let q1 = rng.rotation();
                let q2 = if k % 2 == 0 {
                    q1 * Quat::from_axis_angle(rng.unit(), 0.8 * rng.next())
                } else {
                    rng.rotation()
                };
                Sweep {
                    local_center: rng.vec(0.1),
                    c1: from,
                    c2: to,
                    q1,
                    q2,
                }
            };
            let (from, to) = (rng.vec(0.5), rng.vec(0.5));
            let a = sweep(&mut rng, from, to);
            let dir = rng.unit();
            let to = -dir * 3.0 + rng.vec(1.5);
            let b = sweep(&mut rng, dir * 3.0, to);
            let out = time_of_impact(&pa, &a, &pb, &b, 1.0);
            let target = max(LINEAR_SLOP, pa.radius + pb.radius - LINEAR_SLOP) as f64;
            let core_gap = |t: f32| {
                let (xa, xb) = (a.transform_at(t), b.transform_at(t));
                let ha = if k % 3 != 2 { Some(&hull_a) } else { None };
                let hb = if k % 3 == 0 { Some(&hull_b) } else { None };
                let (fa, fb) = (core_features(&pa, ha, &xa), core_features(&pb, hb, &xb));
                // Overlapping cores count as -1.
                if overlaps(
                    &ShapeProxy { radius: 0.0, ..pa },
                    &xa,
                    &ShapeProxy { radius: 0.0, ..pb },
                    &xb,
                ) {
                    -1.0
                } else {
                    brute_distance(&fa, &fb)
                }
            };
            let tol = 0.25 * LINEAR_SLOP as f64 + 1e-5;
            let end = match out.state {
                ToiState::Hit => {
                    hits += 1;
                    let gap = core_gap(out.fraction);
                    assert!(
                        out.fraction == 0.0 || (gap - target).abs() <= tol,
                        "{k}: {out:?} gap {gap} target {target}"
                    );
                    out.fraction
                }
                ToiState::Separated => {
                    separated += 1;
                    1.0
                }
                ToiState::Failed => {
                    // Out of iterations: the time given must still be safe.
                    failed += 1;
                    out.fraction
                }
                ToiState::Overlapped => panic!("{k}: {out:?}"),
            };
            // Nothing before the reported time comes closer than the target.
            let start_gap = core_gap(0.0);
            if start_gap > target + tol {
                for i in 0..=400 {
                    let t = end * i as f32 / 400.0;
                    let gap = core_gap(t);
                    assert!(gap >= target - tol, "{k}: {out:?}: gap {gap} at {t}");
                }
            }
        }
        assert!(
            hits > 60 && separated > 30 && failed <= 2,
            "{hits} hits, {separated} separated, {failed} failed"
        );
    }

    #[test]
    fn time_of_impact_gives_the_same_bits_twice() {
        let mut rng = Lcg(25);
        for k in 0..40 {
            let ha = random_hull(&mut rng, 6 + k, 0.7);
            let hb = random_hull(&mut rng, 6 + (2 * k) % 40, 0.4);
            let (pa, pb) = (ShapeProxy::hull(&ha.view()), ShapeProxy::hull(&hb.view()));
            let a = Sweep {
                local_center: rng.vec(0.1),
                c1: rng.vec(0.5),
                c2: rng.vec(0.5),
                q1: rng.rotation(),
                q2: rng.rotation(),
            };
            let dir = rng.unit();
            let b = Sweep {
                local_center: rng.vec(0.1),
                c1: dir * 3.0,
                c2: -dir * 3.0,
                q1: rng.rotation(),
                q2: rng.rotation(),
            };
            let o1 = time_of_impact(&pa, &a, &pb, &b, 1.0);
            let o2 = time_of_impact(&pa, &a, &pb, &b, 1.0);
            assert_eq!(o1.state, o2.state);
            assert_eq!(o1.fraction.to_bits(), o2.fraction.to_bits());
        }
    }

    #[test]
    fn degenerate_shapes_and_motions_give_finite_results() {
        let point = ShapeProxy::default();
        let dot = ShapeProxy::capsule(&Capsule {
            center1: Vec3::ONE,
            center2: Vec3::ONE,
            radius: 0.0,
        });
        let flat = ShapeProxy::from_points(
            &[Vec3::ZERO, Vec3::X, Vec3::Z, Vec3::new(1.0, 0.0, 1.0)],
            0.0,
        );
        let ball = sphere(0.25);
        let shapes = [point, dot, flat, ball];
        let sweeps = [
            still(Vec3::ZERO),
            still(Vec3::new(0.5, 1.0, 0.5)),
            Sweep {
                c1: Vec3::new(0.5, 3.0, 0.5),
                c2: Vec3::new(0.5, -3.0, 0.5),
                ..still(Vec3::ZERO)
            },
            Sweep {
                local_center: Vec3::new(0.5, 0.0, 0.0),
                c1: Vec3::new(0.0, 0.5, 0.0),
                c2: Vec3::new(0.0, 0.5, 0.0),
                q1: Quat::IDENTITY,
                q2: Quat::new(0.0, 0.0, 0.0, -1.0),
            },
        ];
        for a in &shapes {
            for b in &shapes {
                for sa in &sweeps {
                    for sb in &sweeps {
                        for t_max in [0.0f32, 0.5, 1.0] {
                            let out = time_of_impact(a, sa, b, sb, t_max);
                            assert!(out.fraction.is_finite() && out.fraction <= t_max);
                            assert!(out.fraction >= 0.0);
                        }
                        let (xa, xb) = (sa.transform_at(0.0), sb.transform_at(0.0));
                        for translation in [Vec3::ZERO, Vec3::new(0.0, -2.0, 0.0)] {
                            let out = shape_cast(a, &xa, b, &xb, translation, 1.0);
                            assert!(out.fraction.is_finite() && out.point.is_valid());
                            assert!(out.normal.is_valid());
                        }
                    }
                }
            }
        }
    }

    #[test]
    #[cfg_attr(target_family = "wasm", ignore = "wasm32-wasip1 has no threads")]
    fn every_query_runs_on_a_16_kib_thread() {
        // Shapes built outside: only the queries run on the small stack (the thread's own
        // start-up takes a little of it too).
        let ha = random_hull(&mut Lcg(26), 64, 1.0);
        let hb = random_hull(&mut Lcg(27), 64, 1.0);
        let (pa, pb) = (ShapeProxy::hull(&ha.view()), ShapeProxy::hull(&hb.view()));
        let handle = std::thread::Builder::new()
            .stack_size(16 * 1024)
            .spawn(move || {
                let xa = Transform::IDENTITY;
                let xb = Transform::new(Vec3::new(3.0, 0.5, 0.0), Quat::IDENTITY);
                let d = distance(&pa, &xa, &pb, &xb);
                let o = overlaps(&pa, &xa, &pb, &xb);
                let c = shape_cast(&pa, &xa, &pb, &xb, Vec3::new(-4.0, 0.0, 0.0), 1.0);
                let sweep = Sweep {
                    c1: Vec3::new(3.0, 0.5, 0.0),
                    c2: Vec3::new(-3.0, 0.5, 0.0),
                    q2: Quat::from_axis_angle(Vec3::Y, 1.0),
                    ..still(Vec3::ZERO)
                };
                let t = time_of_impact(&pa, &still(Vec3::ZERO), &pb, &sweep, 1.0);
                (d.distance > 0.0, o, c.hit, t.state)
            })
            .unwrap();
        assert_eq!(handle.join().unwrap(), (true, false, true, ToiState::Hit));
    }

    #[test]
    fn huge_spinning_hulls_past_a_triangle_stay_within_the_work_caps_and_stop_short() {
        // 64-point hulls up to 10 km across, turning up to 3 rad while crossing a 1 m
        // triangle: the grazing cases the caps exist for. Every query stays within them,
        // and every time it reports leaves the cores a target's worth apart.
        let mut rng = Lcg(5);
        let (mut capped, mut failed) = (0, 0);
        for k in 0..600 {
            let scale = [1.0f32, 100.0, 1.0e4][k % 3];
            let hull = random_hull(&mut rng, 64, 0.8 * scale);
            let tri = [rng.vec(1.0), rng.vec(1.0), rng.vec(1.0)];
            let pa = ShapeProxy::from_points(&tri, 0.0);
            let pb = ShapeProxy::hull(&hull.view());
            let q1 = rng.rotation();
            let q2 = q1 * Quat::from_axis_angle(rng.unit(), 3.0 * rng.next().abs());
            let dir = rng.unit();
            let b = Sweep {
                local_center: Vec3::ZERO,
                c1: dir * (0.8 * scale + 0.5 + rng.next().abs()),
                c2: -dir * 0.5 * scale + rng.vec(0.5 * scale),
                q1,
                q2,
            };
            let a = still(Vec3::ZERO);
            let out = time_of_impact(&pa, &a, &pb, &b, 1.0);
            assert!(out.iterations <= MAX_TOI_ITERATIONS, "{k}: {out:?}");
            assert!(out.root_iterations <= MAX_TOI_EVALUATIONS, "{k}: {out:?}");
            capped += (out.root_iterations + MAX_ROOT_ITERATIONS >= MAX_TOI_EVALUATIONS) as u32;
            failed += (out.state == ToiState::Failed) as u32;
            if out.state != ToiState::Overlapped {
                let xf = a
                    .transform_at(out.fraction)
                    .inv_mul(&b.transform_at(out.fraction));
                let d = core_distance(&pa, &pb, &xf, &mut SimplexCache::default(), f32::MAX);
                // The target less the tolerance, less rounding at the hull's size.
                let floor = 0.75 * LINEAR_SLOP - 1.0e-6 * scale;
                assert!(d.distance >= floor, "{k}: {out:?} leaves {}", d.distance);
            }
        }
        assert!(capped > 0 && failed > 0, "{capped} capped, {failed} failed");
    }
}
