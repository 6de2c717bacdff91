//! Mass properties of shapes: closed forms for spheres, capsules and boxes, exact
//! polyhedron integrals for hulls. Inertia is about the centre of mass, in body axes.
//!
//! Hull integrals run in `f64` (only `+ - * /`, so still the same bits everywhere): the
//! second moments of a fan of tetrahedra cancel heavily when shifted to the centre of
//! mass, and `f32` would lose the 1e-5 accuracy on long or off-centre hulls.

use super::hull::HullView;
use super::{Capsule, MassData, Sphere};
use crate::math::{DVec3, Mat3, PI, Quat, Vec3};

/// Mass data of a solid sphere of the given density.
pub fn sphere_mass(s: &Sphere, density: f32) -> MassData {
    let r = s.radius;
    let r2 = r * r;
    let mass = density * (4.0 / 3.0) * PI * r2 * r;
    let i = 0.4 * mass * r2;
    MassData {
        mass,
        center: s.center,
        inertia: Mat3::diagonal(Vec3::splat(i)),
    }
}

/// Mass data of a solid capsule (a cylinder and two hemispherical caps) of the given
/// density, exact for any segment direction.
pub fn capsule_mass(c: &Capsule, density: f32) -> MassData {
    let r = c.radius;
    let r2 = r * r;
    let (axis, length) = (c.center2 - c.center1).normalize_and_length();
    let cylinder = density * PI * r2 * length;
    let ball = density * (4.0 / 3.0) * PI * r2 * r;
    // About the axis: a cylinder's m r²/2 and a ball's 2/5 m r².
    let axial = 0.5 * cylinder * r2 + 0.4 * ball * r2;
    // Across the axis: the cylinder's m (r²/4 + L²/12), and each hemisphere's own
    // 83/320 m r² moved by L/2 + 3r/8 to the centre, which sums to m (2/5 r² + L²/4 + 3/8 L r).
    let l2 = length * length;
    let across =
        cylinder * (0.25 * r2 + l2 / 12.0) + ball * (0.4 * r2 + 0.25 * l2 + 0.375 * length * r);
    // I = across · 1 + (axial − across) · a aᵀ; a zero axis (a sphere) leaves it isotropic.
    let k = axial - across;
    let a = axis;
    let inertia = Mat3::from_cols(
        Vec3::new(across + k * a.x * a.x, k * a.x * a.y, k * a.x * a.z),
        Vec3::new(k * a.y * a.x, across + k * a.y * a.y, k * a.y * a.z),
        Vec3::new(k * a.z * a.x, k * a.z * a.y, across + k * a.z * a.z),
    );
    MassData {
        mass: cylinder + ball,
        center: (c.center1 + c.center2) * 0.5,
        inertia,
    }
}

/// Mass data of a solid box of half-extents `half`, centred at `center` and rotated by
/// `rotation` in the body frame.
pub fn box_mass(half: Vec3, center: Vec3, rotation: Quat, density: f32) -> MassData {
    let mass = density * 8.0 * half.x * half.y * half.z;
    let (x2, y2, z2) = (half.x * half.x, half.y * half.y, half.z * half.z);
    let k = mass / 3.0;
    let local = Mat3::diagonal(Vec3::new(k * (y2 + z2), k * (x2 + z2), k * (x2 + y2)));
    MassData {
        mass,
        center,
        inertia: local.rotate_tensor(rotation),
    }
}

/// Volume, first moment and second moment (`∫ x xᵀ dV`, symmetric: xx, yy, zz, xy, xz,
/// yz) of a hull, all relative to `reference`.
struct Integrals {
    reference: DVec3,
    volume: f64,
    first: DVec3,
    second: [f64; 6],
}

/// Sums the tetrahedra from the vertex average to a fan of triangles over every face,
/// in face order then loop order. Stops at the first broken loop or bad index (never
/// panics on a malformed view), returning what it summed.
fn hull_integrals(h: &HullView) -> Integrals {
    let mut reference = DVec3::ZERO;
    for v in h.vertices {
        reference = reference + v.to_f64();
    }
    if !h.vertices.is_empty() {
        let inv = 1.0 / h.vertices.len() as f64;
        reference = DVec3::new(reference.x * inv, reference.y * inv, reference.z * inv);
    }
    let mut out = Integrals {
        reference,
        volume: 0.0,
        first: DVec3::ZERO,
        second: [0.0; 6],
    };
    let vertex = |e: usize| -> Option<DVec3> {
        let edge = h.edges.get(e)?;
        Some(h.vertices.get(edge.origin as usize)?.to_f64() - reference)
    };
    let next = |e: usize| -> Option<usize> { Some(h.edges.get(e)?.next as usize) };
    for &start in h.face_edges {
        let start = start as usize;
        let Some(a) = vertex(start) else { return out };
        let Some(mut e) = next(start) else { return out };
        let mut steps = 0;
        loop {
            let Some(e2) = next(e) else { return out };
            if e2 == start {
                break;
            }
            steps += 1;
            if steps > h.edges.len() {
                return out;
            }
            let (Some(b), Some(c)) = (vertex(e), vertex(e2)) else {
                return out;
            };
            add_tetrahedron(&mut out, a, b, c);
            e = e2;
        }
    }
    out
}

/// Adds the tetrahedron (reference, a, b, c), with `a b c` counter-clockwise from outside.
fn add_tetrahedron(out: &mut Integrals, a: DVec3, b: DVec3, c: DVec3) {
    // det = a · (b × c) = 6 × signed volume.
    let det = a.x * (b.y * c.z - b.z * c.y)
        + a.y * (b.z * c.x - b.x * c.z)
        + a.z * (b.x * c.y - b.y * c.x);
    let volume = det / 6.0;
    let s = a + b + c;
    out.volume += volume;
    let k1 = volume / 4.0;
    out.first = out.first + DVec3::new(s.x * k1, s.y * k1, s.z * k1);
    // ∫ x xᵀ over the tetrahedron = det/120 (a aᵀ + b bᵀ + c cᵀ + s sᵀ).
    let k2 = det / 120.0;
    let m = |i: usize, j: usize| -> f64 {
        a.get(i) * a.get(j) + b.get(i) * b.get(j) + c.get(i) * c.get(j) + s.get(i) * s.get(j)
    };
    out.second[0] += k2 * m(0, 0);
    out.second[1] += k2 * m(1, 1);
    out.second[2] += k2 * m(2, 2);
    out.second[3] += k2 * m(0, 1);
    out.second[4] += k2 * m(0, 2);
    out.second[5] += k2 * m(1, 2);
}

/// Volume and centroid of a hull's solid. A hull without positive volume gives zero and
/// the vertex average.
pub fn hull_volume_and_centroid(h: &HullView) -> (f32, Vec3) {
    let g = hull_integrals(h);
    if !(g.volume > 0.0 && g.volume.is_finite()) {
        return (0.0, g.reference.to_f32());
    }
    let inv = 1.0 / g.volume;
    let c = DVec3::new(g.first.x * inv, g.first.y * inv, g.first.z * inv);
    (g.volume as f32, (g.reference + c).to_f32())
}

/// Mass data of a solid hull of the given density, from exact polyhedron integrals
/// (the divergence theorem over a tetrahedral fan), shifted to the centre of mass by the
/// parallel-axis theorem. A hull without positive volume gets zero mass and inertia.
pub fn hull_mass(h: &HullView, density: f32) -> MassData {
    let g = hull_integrals(h);
    if !(g.volume > 0.0 && g.volume.is_finite()) {
        return MassData {
            mass: 0.0,
            center: g.reference.to_f32(),
            inertia: Mat3::ZERO,
        };
    }
    let inv = 1.0 / g.volume;
    let d = DVec3::new(g.first.x * inv, g.first.y * inv, g.first.z * inv);
    // Second moment about the centre of mass: C − V d dᵀ.
    let v = g.volume;
    let xx = g.second[0] - v * d.x * d.x;
    let yy = g.second[1] - v * d.y * d.y;
    let zz = g.second[2] - v * d.z * d.z;
    let xy = g.second[3] - v * d.x * d.y;
    let xz = g.second[4] - v * d.x * d.z;
    let yz = g.second[5] - v * d.y * d.z;
    // Inertia = ρ (tr(C) 1 − C).
    let rho = density as f64;
    let ixx = (rho * (yy + zz)) as f32;
    let iyy = (rho * (xx + zz)) as f32;
    let izz = (rho * (xx + yy)) as f32;
    let ixy = (-rho * xy) as f32;
    let ixz = (-rho * xz) as f32;
    let iyz = (-rho * yz) as f32;
    MassData {
        mass: (rho * v) as f32,
        center: (g.reference + d).to_f32(),
        inertia: Mat3::from_cols(
            Vec3::new(ixx, ixy, ixz),
            Vec3::new(ixy, iyy, iyz),
            Vec3::new(ixz, iyz, izz),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::hull::{BoxHull, Hull};
    use crate::geometry::quickhull::build_hull;
    use crate::math::{cos, max_f64, sin};

    const PI64: f64 = core::f64::consts::PI;

    /// The rotation matrix of `q` in f64, rows then columns.
    fn rotation(q: Quat) -> [[f64; 3]; 3] {
        let (x, y, z, w) = (q.x as f64, q.y as f64, q.z as f64, q.w as f64);
        [
            [
                1.0 - 2.0 * (y * y + z * z),
                2.0 * (x * y - w * z),
                2.0 * (x * z + w * y),
            ],
            [
                2.0 * (x * y + w * z),
                1.0 - 2.0 * (x * x + z * z),
                2.0 * (y * z - w * x),
            ],
            [
                2.0 * (x * z - w * y),
                2.0 * (y * z + w * x),
                1.0 - 2.0 * (x * x + y * y),
            ],
        ]
    }

    /// `R diag(d) Rᵀ`.
    fn rotate_diagonal(r: [[f64; 3]; 3], d: [f64; 3]) -> [[f64; 3]; 3] {
        let mut m = [[0.0; 3]; 3];
        for i in 0..3 {
            for j in 0..3 {
                for k in 0..3 {
                    m[i][j] += r[i][k] * d[k] * r[j][k];
                }
            }
        }
        m
    }

    fn entry(m: &Mat3, i: usize, j: usize) -> f64 {
        [m.cx, m.cy, m.cz][j].get(i) as f64
    }

    fn assert_scalar(got: f32, want: f64, what: &str) {
        let err = (got as f64 - want).abs() / want.abs();
        assert!(err <= 1e-5, "{what}: {got} vs {want} (relative {err:e})");
    }

    fn assert_vec(got: Vec3, want: [f64; 3], scale: f64, what: &str) {
        for (i, w) in want.iter().enumerate() {
            let err = (got.get(i) as f64 - w).abs() / scale;
            assert!(
                err <= 1e-5,
                "{what}[{i}]: {} vs {w} (relative {err:e})",
                got.get(i)
            );
        }
    }

    /// Every entry within 1e-5 of the largest entry of `want`.
    fn assert_tensor(got: &Mat3, want: [[f64; 3]; 3], what: &str) {
        let mut scale = 0.0f64;
        for row in &want {
            for &x in row {
                scale = max_f64(scale, x.abs());
            }
        }
        for (i, row) in want.iter().enumerate() {
            for (j, &w) in row.iter().enumerate() {
                let err = (entry(got, i, j) - w).abs() / scale;
                assert!(
                    err <= 1e-5,
                    "{what}[{i}][{j}]: {} vs {w} (relative {err:e})",
                    entry(got, i, j)
                );
            }
        }
    }

    fn box_reference(half: [f64; 3], q: Quat, density: f64) -> (f64, [[f64; 3]; 3]) {
        let [x, y, z] = half;
        let m = density * 8.0 * x * y * z;
        let d = [
            m * (y * y + z * z) / 3.0,
            m * (x * x + z * z) / 3.0,
            m * (x * x + y * y) / 3.0,
        ];
        (m, rotate_diagonal(rotation(q), d))
    }

    #[test]
    fn sphere_mass_matches_the_closed_form() {
        let s = Sphere {
            center: Vec3::new(1.0, -2.0, 3.0),
            radius: 0.7,
        };
        let md = sphere_mass(&s, 2.5);
        let r = 0.7f32 as f64;
        let m = 2.5 * 4.0 / 3.0 * PI64 * r * r * r;
        assert_scalar(md.mass, m, "mass");
        assert_eq!(md.center, s.center);
        let i = 0.4 * m * r * r;
        assert_tensor(
            &md.inertia,
            [[i, 0.0, 0.0], [0.0, i, 0.0], [0.0, 0.0, i]],
            "inertia",
        );
    }

    /// Capsule inertia from its parts: a cylinder and two hemispheres, each about its
    /// own centre of mass (83/320 m r² across) moved to the capsule's centre.
    fn capsule_reference(r: f64, length: f64, density: f64) -> (f64, f64, f64) {
        let cylinder = density * PI64 * r * r * length;
        let hemi = density * 2.0 / 3.0 * PI64 * r * r * r;
        let axial = cylinder * r * r / 2.0 + 2.0 * (0.4 * hemi * r * r);
        let offset = length / 2.0 + 3.0 * r / 8.0;
        let across = cylinder * (r * r / 4.0 + length * length / 12.0)
            + 2.0 * (hemi * 83.0 / 320.0 * r * r + hemi * offset * offset);
        (cylinder + 2.0 * hemi, axial, across)
    }

    #[test]
    fn capsule_mass_matches_the_closed_form_along_x_y_and_a_tilted_axis() {
        let (r, length, density) = (0.4f32, 1.5f32, 3.0f32);
        let center = Vec3::new(0.5, -1.0, 2.0);
        let tilted = Quat::from_axis_angle(Vec3::new(1.0, 2.0, -0.5).normalize(), 0.8);
        let cases = [
            (Quat::IDENTITY, "x"),
            (
                Quat::from_axis_angle(Vec3::Z, core::f32::consts::FRAC_PI_2),
                "y",
            ),
            (tilted, "tilted"),
        ];
        let (m, axial, across) = capsule_reference(r as f64, length as f64, density as f64);
        for (q, what) in cases {
            let axis = q.rotate(Vec3::X) * (0.5 * length);
            let c = Capsule {
                center1: center - axis,
                center2: center + axis,
                radius: r,
            };
            let md = capsule_mass(&c, density);
            assert_scalar(md.mass, m, what);
            assert_vec(md.center, [0.5, -1.0, 2.0], 2.0, what);
            let want = rotate_diagonal(rotation(q), [axial, across, across]);
            assert_tensor(&md.inertia, want, what);
        }
    }

    #[test]
    fn capsule_with_no_length_is_a_sphere() {
        let c = Capsule {
            center1: Vec3::ONE,
            center2: Vec3::ONE,
            radius: 0.5,
        };
        let s = sphere_mass(
            &Sphere {
                center: Vec3::ONE,
                radius: 0.5,
            },
            2.0,
        );
        let md = capsule_mass(&c, 2.0);
        assert_scalar(md.mass, s.mass as f64, "mass");
        assert_tensor(
            &md.inertia,
            [
                [entry(&s.inertia, 0, 0), 0.0, 0.0],
                [0.0, entry(&s.inertia, 1, 1), 0.0],
                [0.0, 0.0, entry(&s.inertia, 2, 2)],
            ],
            "inertia",
        );
    }

    #[test]
    fn box_mass_with_offset_centre_and_rotation_matches_the_closed_form() {
        let half = Vec3::new(0.5, 1.25, 2.0);
        let center = Vec3::new(3.0, -1.0, 0.25);
        let q = Quat::from_axis_angle(Vec3::new(-1.0, 0.5, 2.0).normalize(), 1.3);
        let md = box_mass(half, center, q, 1.5);
        let (m, want) = box_reference([0.5, 1.25, 2.0], q, 1.5);
        assert_scalar(md.mass, m, "mass");
        assert_eq!(md.center, center);
        assert_tensor(&md.inertia, want, "inertia");
    }

    #[test]
    fn hull_of_box_corners_has_the_box_mass() {
        let half = Vec3::new(0.5, 1.25, 2.0);
        let center = Vec3::new(3.0, -1.0, 0.25);
        let q = Quat::from_axis_angle(Vec3::new(-1.0, 0.5, 2.0).normalize(), 1.3);
        let b = BoxHull::new(half, center, q);
        let mut h = Hull::default();
        build_hull(&b.vertices, &mut h).unwrap();
        let (m, want) = box_reference([0.5, 1.25, 2.0], q, 1.5);
        for (view, what) in [(h.view(), "built hull"), (b.view(), "box hull")] {
            let md = hull_mass(&view, 1.5);
            assert_scalar(md.mass, m, what);
            assert_vec(md.center, [3.0, -1.0, 0.25], 2.0, what);
            assert_tensor(&md.inertia, want, what);
            let (volume, centroid) = hull_volume_and_centroid(&view);
            assert_scalar(volume, 8.0 * 0.5 * 1.25 * 2.0, what);
            assert_vec(centroid, [3.0, -1.0, 0.25], 2.0, what);
        }
        assert_vec(h.centroid, [3.0, -1.0, 0.25], 2.0, "stored centroid");
    }

    #[test]
    fn hull_of_a_regular_tetrahedron_matches_the_closed_form() {
        // Alternate cube corners: edge a = 2√2 s, volume a³/(6√2), inertia m a²/20 · 1.
        let s = 0.75f32;
        let offset = Vec3::new(-2.0, 1.0, 4.0);
        let pts = [
            Vec3::new(s, s, s) + offset,
            Vec3::new(s, -s, -s) + offset,
            Vec3::new(-s, s, -s) + offset,
            Vec3::new(-s, -s, s) + offset,
        ];
        let mut h = Hull::default();
        build_hull(&pts, &mut h).unwrap();
        assert_eq!((h.vertex_count, h.face_count, h.edge_count), (4, 4, 12));
        let a = 2.0 * 2.0f64.sqrt() * s as f64;
        let m = 2.0 * a * a * a / (6.0 * 2.0f64.sqrt());
        let i = m * a * a / 20.0;
        let md = hull_mass(&h.view(), 2.0);
        assert_scalar(md.mass, m, "mass");
        assert_vec(md.center, [-2.0, 1.0, 4.0], 4.0, "center");
        assert_tensor(
            &md.inertia,
            [[i, 0.0, 0.0], [0.0, i, 0.0], [0.0, 0.0, i]],
            "inertia",
        );
    }

    #[test]
    fn hull_of_an_octahedron_matches_the_closed_form() {
        // |x| + |y| + |z| ≤ s: volume 4 s³/3, inertia m s²/5 · 1.
        let s = 1.5f32;
        let offset = Vec3::new(3.0, -2.0, 1.0);
        let mut pts = [Vec3::ZERO; 6];
        for (i, p) in pts.iter_mut().enumerate() {
            let sign = if i % 2 == 0 { s } else { -s };
            let axis = [Vec3::X, Vec3::Y, Vec3::Z][i / 2];
            *p = axis * sign + offset;
        }
        let mut h = Hull::default();
        build_hull(&pts, &mut h).unwrap();
        assert_eq!((h.vertex_count, h.face_count, h.edge_count), (6, 8, 24));
        let s = s as f64;
        let m = 0.5 * 4.0 * s * s * s / 3.0;
        let i = m * s * s / 5.0;
        let md = hull_mass(&h.view(), 0.5);
        assert_scalar(md.mass, m, "mass");
        assert_vec(md.center, [3.0, -2.0, 1.0], 3.0, "center");
        assert_tensor(
            &md.inertia,
            [[i, 0.0, 0.0], [0.0, i, 0.0], [0.0, 0.0, i]],
            "inertia",
        );
    }

    #[test]
    fn cylinder_hull_volume_matches_the_prism_of_its_points() {
        const N: usize = 30;
        let (r, half_height) = (1.25f32, 0.8f32);
        let mut pts = [Vec3::ZERO; 2 * N + 4];
        for i in 0..N {
            let a = 2.0 * crate::math::PI * i as f32 / N as f32;
            let (x, y) = (r * cos(a), r * sin(a));
            pts[2 * i] = Vec3::new(x, y, -half_height);
            pts[2 * i + 1] = Vec3::new(x, y, half_height);
        }
        // Interior points the hull must drop.
        pts[2 * N] = Vec3::ZERO;
        pts[2 * N + 1] = Vec3::new(0.5, 0.1, 0.2);
        pts[2 * N + 2] = Vec3::new(-0.3, 0.6, -0.7);
        pts[2 * N + 3] = Vec3::new(0.0, -1.0, 0.79);
        let mut h = Hull::default();
        build_hull(&pts, &mut h).unwrap();
        assert_eq!(h.vertex_count as usize, 2 * N);
        assert_eq!(h.face_count as usize, N + 2);
        // The prism's volume from its own points: shoelace area times height.
        let mut area2 = 0.0f64;
        for i in 0..N {
            let (p, q) = (pts[2 * i], pts[2 * ((i + 1) % N)]);
            area2 += p.x as f64 * q.y as f64 - q.x as f64 * p.y as f64;
        }
        let prism = 0.5 * area2 * 2.0 * half_height as f64;
        let (volume, centroid) = hull_volume_and_centroid(&h.view());
        assert_scalar(volume, prism, "volume");
        assert!(centroid.length() < 1e-6);
        // And close to the true cylinder (a 30-gon keeps 99.3% of the disc).
        let cylinder = PI64 * (r * r) as f64 * 2.0 * half_height as f64;
        assert!((volume as f64 / cylinder - 1.0).abs() < 0.01);
        // The hull's inertia agrees with the prism's, a regular polygon's polar moment
        // being (area / 6) r² (2 + cos(2π/N)) in the plane.
        let md = hull_mass(&h.view(), 1.0);
        let (rr, hh) = ((r * r) as f64, half_height as f64);
        let c = libm::cos(2.0 * PI64 / N as f64);
        let in_plane = prism * rr * (2.0 + c) / 12.0;
        let along = prism * (2.0 * hh) * (2.0 * hh) / 12.0;
        assert_tensor(
            &md.inertia,
            [
                [in_plane + along, 0.0, 0.0],
                [0.0, in_plane + along, 0.0],
                [0.0, 0.0, 2.0 * in_plane],
            ],
            "inertia",
        );
    }

    #[test]
    fn malformed_hull_views_give_zero_mass_without_panicking() {
        let b = BoxHull::new(Vec3::ONE, Vec3::ZERO, Quat::IDENTITY);
        let v = b.view();
        let mut edges = [crate::geometry::hull::HalfEdge::default(); 24];
        edges.copy_from_slice(v.edges);
        edges[3].next = 500;
        edges[7].origin = 99;
        let bad = HullView { edges: &edges, ..v };
        let md = hull_mass(&bad, 1.0);
        assert!(md.mass.is_finite() && md.inertia.is_valid());
        let empty = HullView {
            vertices: &[],
            planes: &[],
            face_edges: &[],
            edges: &[],
            centroid: Vec3::ZERO,
        };
        assert_eq!(hull_mass(&empty, 1.0).mass, 0.0);
        assert_eq!(hull_volume_and_centroid(&empty), (0.0, Vec3::ZERO));
    }
}
