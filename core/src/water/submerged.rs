//! The part of a shape below a water surface: its volume and centroid (the centre of
//! buoyancy). Spheres by the spherical cap's closed form; boxes and convex hulls exactly,
//! by clipping each face against the surface and summing signed tetrahedra; cylinders and
//! capsules through polyhedra of [`SIDES`] sides whose radii are stretched so that the
//! whole polyhedron has the exact volume (a part of it is then within a fraction of a per
//! cent of the round shape's).
//!
//! Every tetrahedron has its apex on the surface plane, so the cap the plane cuts out of
//! the solid adds nothing and needs no polygon of its own: only the clipped faces are
//! summed. Everything is in one frame (the body's position, world axes), in `f32`.

use crate::geometry::hull::{Hull, MAX_HULL_VERTICES};
use crate::math::{PI, Quat, Vec3, sin_cos};

/// Sides of the polygons that stand in for a cylinder's and a capsule's circles.
pub(crate) const SIDES: usize = 32;
/// Latitude bands of each capsule half-sphere.
const BANDS: usize = 8;
/// Room for one clipped face: a hull face has at most every vertex, and clipping a convex
/// polygon by a plane adds at most one.
const MAX_POLY: usize = MAX_HULL_VERTICES + 2;

/// The fluid side of a surface: points `p` with `normal · p < height` (`normal` unit,
/// pointing out of the water).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Surface {
    pub normal: Vec3,
    pub height: f32,
}

impl Surface {
    /// Signed height of `p` above the surface.
    #[inline(always)]
    fn above(&self, p: Vec3) -> f32 {
        self.normal.dot(p) - self.height
    }

    /// The point of the plane nearest the frame's origin: every tetrahedron's apex.
    #[inline(always)]
    fn apex(&self) -> Vec3 {
        self.normal * self.height
    }
}

/// A submerged volume and its first moment (volume × centroid).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct Submerged {
    pub volume: f32,
    pub moment: Vec3,
}

impl Submerged {
    pub(crate) fn add(&mut self, o: Submerged) {
        self.volume += o.volume;
        self.moment += o.moment;
    }

    /// The centre of buoyancy (the origin when nothing is submerged, or too little for
    /// `1 / volume` to be finite: a subnormal volume).
    pub(crate) fn centroid(&self) -> Vec3 {
        let inv = 1.0 / self.volume;
        if self.volume > 0.0 && inv.is_finite() {
            self.moment * inv
        } else {
            Vec3::ZERO
        }
    }

    /// Adds the tetrahedron `p a b c` (signed: positive when `a b c` turn counter-clockwise
    /// seen from outside, `p` inside).
    #[inline(always)]
    fn tetrahedron(&mut self, p: Vec3, a: Vec3, b: Vec3, c: Vec3) {
        let v = (a - p).dot((b - p).cross(c - p)) * (1.0 / 6.0);
        self.volume += v;
        self.moment += (p + a + b + c) * (v * 0.25);
    }

    /// Adds the part of the face `poly` (counter-clockwise seen from outside) below the
    /// surface, as tetrahedra with their apex on the surface.
    fn face(&mut self, poly: &[Vec3], s: &Surface) {
        let n = poly.len();
        let mut out = [Vec3::ZERO; MAX_POLY];
        let mut m = 0;
        for i in 0..n {
            let a = poly[i];
            let b = poly[if i + 1 == n { 0 } else { i + 1 }];
            let da = s.above(a);
            let db = s.above(b);
            if da <= 0.0 && m < MAX_POLY {
                out[m] = a;
                m += 1;
            }
            if ((da < 0.0 && db > 0.0) || (da > 0.0 && db < 0.0)) && m < MAX_POLY {
                let t = da / (da - db);
                out[m] = a + (b - a) * t;
                m += 1;
            }
        }
        if m < 3 {
            return;
        }
        let apex = s.apex();
        for k in 1..m - 1 {
            self.tetrahedron(apex, out[0], out[k], out[k + 1]);
        }
    }
}

/// A sphere of `radius` centred at `center`: the spherical cap below the surface, exact.
/// A cap of height h holds π h² (3r − h) / 3, its centroid 3 (2r − h)² / (4 (3r − h))
/// from the sphere's centre.
pub(crate) fn sphere(center: Vec3, radius: f32, s: &Surface) -> Submerged {
    let depth = -s.above(center);
    let h = crate::math::clamp(radius + depth, 0.0, 2.0 * radius);
    if h <= 0.0 {
        return Submerged::default();
    }
    let k = 3.0 * radius - h;
    let volume = PI * h * h * k * (1.0 / 3.0);
    let e = 2.0 * radius - h;
    let offset = 3.0 * e * e / (4.0 * k);
    let c = center - s.normal * offset;
    Submerged {
        volume,
        moment: c * volume,
    }
}

/// Corner `i` of the unit box: bit 0 +x, bit 1 +y, bit 2 +z.
const BOX_FACES: [[usize; 4]; 6] = [
    [1, 3, 7, 5],
    [0, 4, 6, 2],
    [2, 6, 7, 3],
    [0, 1, 5, 4],
    [4, 5, 7, 6],
    [0, 2, 3, 1],
];

/// A box of half-extents `half`, its frame placed by `rotation` and `center`: exact.
pub(crate) fn cuboid(half: Vec3, rotation: Quat, center: Vec3, s: &Surface) -> Submerged {
    let mut corners = [Vec3::ZERO; 8];
    let mut lowest = f32::MAX;
    let mut highest = f32::MIN;
    for (i, c) in corners.iter_mut().enumerate() {
        let sx = if i & 1 != 0 { half.x } else { -half.x };
        let sy = if i & 2 != 0 { half.y } else { -half.y };
        let sz = if i & 4 != 0 { half.z } else { -half.z };
        *c = center + rotation.rotate(Vec3::new(sx, sy, sz));
        let d = s.above(*c);
        lowest = crate::math::min(lowest, d);
        highest = crate::math::max(highest, d);
    }
    if lowest >= 0.0 {
        return Submerged::default();
    }
    if highest <= 0.0 {
        let volume = 8.0 * half.x * half.y * half.z;
        return Submerged {
            volume,
            moment: center * volume,
        };
    }
    let mut acc = Submerged::default();
    for f in &BOX_FACES {
        acc.face(
            &[corners[f[0]], corners[f[1]], corners[f[2]], corners[f[3]]],
            s,
        );
    }
    acc
}

/// A convex hull (body frame) placed by `rotation` (the body's): exact.
pub(crate) fn hull(h: &Hull, rotation: Quat, s: &Surface) -> Submerged {
    let nv = h.vertex_count as usize;
    let mut lowest = f32::MAX;
    let mut highest = f32::MIN;
    for v in &h.vertices[..nv] {
        let d = s.above(rotation.rotate(*v));
        lowest = crate::math::min(lowest, d);
        highest = crate::math::max(highest, d);
    }
    if lowest >= 0.0 || nv < 4 {
        return Submerged::default();
    }
    // Fully under: the whole solid, apex at its centroid.
    let whole = highest <= 0.0;
    let mut acc = Submerged::default();
    let centroid = rotation.rotate(h.centroid);
    let mut poly = [Vec3::ZERO; MAX_POLY];
    for f in 0..h.face_count as usize {
        let start = h.face_edges[f];
        let mut e = start;
        let mut m = 0;
        loop {
            let edge = &h.edges[e as usize];
            poly[m] = rotation.rotate(h.vertices[edge.origin as usize]);
            m += 1;
            e = edge.next;
            if e == start || m == MAX_HULL_VERTICES {
                break;
            }
        }
        if whole {
            for k in 1..m.saturating_sub(1) {
                acc.tetrahedron(centroid, poly[0], poly[k], poly[k + 1]);
            }
        } else {
            acc.face(&poly[..m], s);
        }
    }
    acc
}

/// The volume of a convex hull.
pub(crate) fn hull_volume(h: &Hull) -> f32 {
    let below = Surface {
        normal: Vec3::new(0.0, 1.0, 0.0),
        height: f32::MAX,
    };
    hull(h, Quat::IDENTITY, &below).volume
}

/// Cosine and sine of `k` of `n` turns' parts.
fn circle(k: usize, n: usize) -> (f32, f32) {
    let (s, c) = sin_cos(2.0 * PI * (k % n) as f32 / n as f32);
    (c, s)
}

/// A regular `SIDES`-gon's area over its circumradius squared.
fn polygon_area_factor() -> f32 {
    let (_, s) = circle(1, SIDES);
    0.5 * SIDES as f32 * s
}

/// A cylinder of `half_height` and `radius` along `axis`, with `u`, `w` completing a
/// right-handed frame (`u × axis = w`), centred at `center`: a prism of `SIDES` sides
/// holding the cylinder's volume.
pub(crate) fn cylinder(
    center: Vec3,
    rotation: Quat,
    half_height: f32,
    radius: f32,
    s: &Surface,
) -> Submerged {
    let axis = rotation.rotate(Vec3::new(0.0, 1.0, 0.0));
    let cos = axis.dot(s.normal);
    let reach = half_height * cos.abs()
        + radius * crate::math::sqrt(crate::math::max(0.0, 1.0 - cos * cos));
    let d = s.above(center);
    if d >= reach {
        return Submerged::default();
    }
    let volume = PI * radius * radius * 2.0 * half_height;
    if d <= -reach {
        return Submerged {
            volume,
            moment: center * volume,
        };
    }
    let u = rotation.rotate(Vec3::new(1.0, 0.0, 0.0));
    let w = rotation.rotate(Vec3::new(0.0, 0.0, 1.0));
    let r = radius * crate::math::sqrt(PI / polygon_area_factor());
    let mut bottom = [Vec3::ZERO; SIDES];
    let mut top = [Vec3::ZERO; SIDES];
    for j in 0..SIDES {
        let (c, sn) = circle(j, SIDES);
        let radial = u * (r * c) + w * (r * sn);
        bottom[j] = center - axis * half_height + radial;
        top[j] = center + axis * half_height + radial;
    }
    let mut acc = Submerged::default();
    acc.face(&bottom, s);
    top.reverse();
    acc.face(&top, s);
    top.reverse();
    for j in 0..SIDES {
        let k = if j + 1 == SIDES { 0 } else { j + 1 };
        acc.face(&[bottom[j], top[j], top[k], bottom[k]], s);
    }
    acc
}

/// A capsule of `radius` around the segment `c1`–`c2`: a polyhedron of `SIDES` sides and
/// `BANDS` latitude bands per half-sphere holding the capsule's volume.
pub(crate) fn capsule(c1: Vec3, c2: Vec3, radius: f32, s: &Surface) -> Submerged {
    let lowest = crate::math::min(s.above(c1), s.above(c2)) - radius;
    if lowest >= 0.0 {
        return Submerged::default();
    }
    let (axis, length) = (c2 - c1).normalize_and_length();
    let volume = PI * radius * radius * (length + radius * (4.0 / 3.0));
    let highest = crate::math::max(s.above(c1), s.above(c2)) + radius;
    if highest <= 0.0 {
        return Submerged {
            volume,
            moment: (c1 + c2) * (0.5 * volume),
        };
    }
    let axis = if length > 0.0 {
        axis
    } else {
        Vec3::new(0.0, 1.0, 0.0)
    };
    // Rings from the pole below c1 to the pole above c2: (sin, cos) of each latitude.
    const RINGS: usize = 2 * BANDS + 2;
    let mut lat = [(0.0f32, 0.0f32); RINGS];
    for (k, l) in lat.iter_mut().enumerate() {
        let i = if k <= BANDS { k } else { k - 1 };
        let phi = -0.5 * PI + PI * i as f32 / (2 * BANDS) as f32;
        *l = sin_cos(phi);
    }
    // The polyhedron's volume at the true radius, then the stretch of the radial
    // coordinates (volume goes with its square) that makes it exact.
    let a = polygon_area_factor();
    let mut poly_volume = a * length * radius * radius;
    for k in 0..RINGS - 1 {
        if k == BANDS {
            continue;
        }
        let (s0, c0) = lat[k];
        let (s1, c1r) = lat[k + 1];
        let (r0, r1) = (radius * c0, radius * c1r);
        poly_volume += radius * (s1 - s0) * (1.0 / 3.0) * a * (r0 * r0 + r1 * r1 + r0 * r1);
    }
    let stretch = crate::math::sqrt(volume / poly_volume);
    let u = axis.perpendicular().normalize();
    let w = u.cross(axis);
    let mut around = [(0.0f32, 0.0f32); SIDES];
    for (j, x) in around.iter_mut().enumerate() {
        *x = circle(j, SIDES);
    }
    let point = |k: usize, j: usize| {
        let (sp, cp) = lat[k];
        let base = if k <= BANDS { c1 } else { c2 };
        let (c, sn) = around[j % SIDES];
        let r = radius * cp * stretch;
        base + axis * (radius * sp) + u * (r * c) + w * (r * sn)
    };
    let mut acc = Submerged::default();
    for k in 0..RINGS - 1 {
        for j in 0..SIDES {
            acc.face(
                &[
                    point(k, j),
                    point(k + 1, j),
                    point(k + 1, j + 1),
                    point(k, j + 1),
                ],
                s,
            );
        }
    }
    acc
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::quickhull;

    fn flat(height: f32) -> Surface {
        Surface {
            normal: Vec3::new(0.0, 1.0, 0.0),
            height,
        }
    }

    fn near(a: f32, b: f32, rel: f32) -> bool {
        (a - b).abs() <= rel * crate::math::max(b.abs(), 1e-6)
    }

    #[test]
    fn half_submerged_box_holds_half_its_volume_centred_below() {
        let half = Vec3::new(1.0, 0.5, 2.0);
        let s = cuboid(half, Quat::IDENTITY, Vec3::ZERO, &flat(0.0));
        println!(
            "half box: {} (exact 4), centroid {:?}",
            s.volume,
            s.centroid()
        );
        assert!(near(s.volume, 4.0, 1e-5));
        assert!(near(s.centroid().y, -0.25, 1e-5));
        assert!(s.centroid().x.abs() < 1e-5 && s.centroid().z.abs() < 1e-5);
        // Turned 45° about z with the surface through the centre: still half.
        let q = Quat::from_axis_angle(Vec3::new(0.0, 0.0, 1.0), PI / 4.0);
        let t = cuboid(half, q, Vec3::ZERO, &flat(0.0));
        assert!(near(t.volume, 4.0, 1e-5), "{}", t.volume);
        assert_eq!(cuboid(half, q, Vec3::ZERO, &flat(-5.0)).volume, 0.0);
        assert!(near(
            cuboid(half, q, Vec3::ZERO, &flat(5.0)).volume,
            8.0,
            1e-6
        ));
    }

    #[test]
    fn sphere_caps_match_the_closed_form() {
        for &(h, expect) in &[(0.5f32, 0.0f32), (0.0, 0.0), (-0.5, 0.0)] {
            let _ = expect;
            let s = sphere(Vec3::ZERO, 1.0, &flat(h));
            let cap = 1.0 + h;
            let v = PI * cap * cap * (3.0 - cap) / 3.0;
            println!("sphere cap at {h}: {} (closed form {v})", s.volume);
            assert!(near(s.volume, v, 1e-6));
        }
        let half = sphere(Vec3::ZERO, 1.0, &flat(0.0));
        assert!(near(half.centroid().y, -3.0 / 8.0, 1e-6));
        assert_eq!(sphere(Vec3::ZERO, 1.0, &flat(-2.0)).volume, 0.0);
    }

    fn box_hull(half: Vec3) -> Hull {
        let mut pts = [Vec3::ZERO; 8];
        for (i, p) in pts.iter_mut().enumerate() {
            *p = Vec3::new(
                if i & 1 != 0 { half.x } else { -half.x },
                if i & 2 != 0 { half.y } else { -half.y },
                if i & 4 != 0 { half.z } else { -half.z },
            );
        }
        let mut h = Hull::default();
        quickhull::build_hull(&pts, &mut h).expect("a box hull");
        h
    }

    #[test]
    fn a_hull_at_an_angle_matches_the_box_formula() {
        let half = Vec3::new(0.7, 0.4, 1.1);
        let h = box_hull(half);
        assert!(near(hull_volume(&h), 8.0 * 0.7 * 0.4 * 1.1, 1e-5));
        let q = Quat::from_axis_angle(Vec3::new(1.0, 2.0, 0.5).normalize(), 0.8);
        for &height in &[-0.6f32, -0.2, 0.0, 0.3, 0.9] {
            let a = hull(&h, q, &flat(height));
            let b = cuboid(half, q, Vec3::ZERO, &flat(height));
            println!(
                "tilted hull at {height}: {} box {} centroids {:?} {:?}",
                a.volume,
                b.volume,
                a.centroid(),
                b.centroid()
            );
            assert!(near(a.volume, b.volume, 1e-4));
            assert!((a.centroid() - b.centroid()).length() < 1e-4);
        }
    }

    #[test]
    fn round_shapes_polyhedra_stay_within_a_per_cent() {
        // A cylinder standing: the submerged part is a disc times the depth.
        let (r, hh) = (0.5f32, 1.0f32);
        for &height in &[-0.5f32, 0.0, 0.7] {
            let c = cylinder(Vec3::ZERO, Quat::IDENTITY, hh, r, &flat(height));
            let exact = PI * r * r * (height + hh);
            println!("standing cylinder at {height}: {} exact {exact}", c.volume);
            assert!(near(c.volume, exact, 1e-4));
        }
        // Lying on its side, half under: half the volume.
        let q = Quat::from_axis_angle(Vec3::new(1.0, 0.0, 0.0), PI / 2.0);
        let c = cylinder(Vec3::ZERO, q, hh, r, &flat(0.0));
        let whole = PI * r * r * 2.0 * hh;
        assert!(near(c.volume, 0.5 * whole, 0.01), "{}", c.volume);
        // Lying, a quarter radius under: circular segment times the length.
        let c = cylinder(Vec3::ZERO, q, hh, r, &flat(-0.25));
        let d = 0.25f32;
        let seg = r * r * crate::math::acos(d / r) - d * (r * r - d * d).sqrt();
        println!(
            "lying cylinder segment: {} exact {}",
            c.volume,
            seg * 2.0 * hh
        );
        assert!(near(c.volume, seg * 2.0 * hh, 0.01));
        // A capsule standing: a cap, a disc-times-depth, a cap.
        let (c1, c2) = (Vec3::new(0.0, -0.5, 0.0), Vec3::new(0.0, 0.5, 0.0));
        for &height in &[-0.8f32, -0.5, 0.0, 0.4, 0.9] {
            let got = capsule(c1, c2, r, &flat(height)).volume;
            let lower = sphere(c1, r, &flat(height)).volume;
            let lower = crate::math::min(lower, 2.0 / 3.0 * PI * r * r * r);
            let mid = PI * r * r * crate::math::clamp(height + 0.5, 0.0, 1.0);
            let upper = if height > 0.5 {
                sphere(c2, r, &flat(height)).volume - 2.0 / 3.0 * PI * r * r * r
            } else {
                0.0
            };
            let exact = lower + mid + upper;
            // Within a per cent of the whole capsule (a thin cap's own error is larger).
            let whole = PI * r * r * (1.0 + r * 4.0 / 3.0);
            println!("standing capsule at {height}: {got} exact {exact} (of {whole})");
            assert!((got - exact).abs() < 0.01 * whole);
        }
    }
}
