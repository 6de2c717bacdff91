//! Height fields: a grid of heights (content), some cells of which may be holes, laid out
//! in the shape's frame from the origin along +x and +z.
//!
//! Sample `(x, z)` sits at `(x·scale.x, height·scale.y, z·scale.z)`. Cell `(x, z)` spans
//! samples `x..=x+1` by `z..=z+1` and is split along the diagonal from `(x, z)` to
//! `(x+1, z+1)` into triangle `2·(z·(count_x − 1) + x)` (the half towards −x, +z) and the
//! next (towards +x, −z), both facing +y. Edge flags are rebuilt from the heights as for
//! meshes (flat and valley edges inactive, edges along holes and the border active). No
//! tree: a box maps straight to a range of cells, visited in index order.

#[cfg(test)]
use super::mesh::ray_triangle;
use super::mesh::{MAX_MESH_EXTENT, Triangle, edge_is_active, ray_touches_box, ray_triangle_sided};
use crate::alloc::{FixedVec, WorldAlloc};
use crate::collide::ray::{RayHit, RayInput};
use crate::error::{Error, Result};
use crate::math::{Aabb, Vec3, abs, max, min};

/// Most samples along one side of a height field.
pub const MAX_HEIGHT_FIELD_SIDE: u32 = 4096;

/// What a height field is made from.
#[derive(Clone, Copy, Debug)]
pub struct HeightFieldDef<'a> {
    /// Samples along x (at least 2).
    pub count_x: u32,
    /// Samples along z (at least 2).
    pub count_z: u32,
    /// `count_x · count_z` heights, row by row: sample `(x, z)` is `heights[z·count_x + x]`.
    pub heights: &'a [f32],
    /// Either empty (no holes) or one flag per cell, `(count_x − 1)·(count_z − 1)` of them,
    /// row by row: a hole has no triangles.
    pub holes: &'a [bool],
    /// Sample spacing along x and z, and the factor applied to heights (each > 0).
    pub scale: Vec3,
}

/// Content bytes a height field takes from the world's content budget: 4 per sample, a
/// hole bit per cell when it has holes, and its edge flags (1 byte a triangle).
pub fn height_field_content_bytes(count_x: u32, count_z: u32, has_holes: bool) -> u64 {
    let cells = (count_x as u64 - 1) * (count_z as u64 - 1);
    let holes = if has_holes { cells.div_ceil(8) } else { 0 };
    4 * count_x as u64 * count_z as u64 + holes + 2 * cells
}

/// Checks a height field def as `create_height_field` takes it.
pub(crate) fn validate_height_field(def: &HeightFieldDef) -> Result<()> {
    for (name, n) in [
        ("height field count_x", def.count_x),
        ("height field count_z", def.count_z),
    ] {
        if !(2..=MAX_HEIGHT_FIELD_SIDE).contains(&n) {
            return Err(Error::Argument {
                name,
                value: n as f64,
                expected: "within [2, 4096]",
            });
        }
    }
    let samples = def.count_x as usize * def.count_z as usize;
    if def.heights.len() != samples {
        return Err(Error::Argument {
            name: "height field heights length",
            value: def.heights.len() as f64,
            expected: "count_x · count_z",
        });
    }
    let cells = (def.count_x as usize - 1) * (def.count_z as usize - 1);
    if !def.holes.is_empty() && def.holes.len() != cells {
        return Err(Error::Argument {
            name: "height field holes length",
            value: def.holes.len() as f64,
            expected: "0 or (count_x − 1)·(count_z − 1)",
        });
    }
    for i in 0..3 {
        let s = def.scale.get(i);
        if !(s.is_finite() && s > 0.0 && s <= MAX_MESH_EXTENT) {
            return Err(Error::Argument {
                name: "height field scale",
                value: s as f64,
                expected: "each component finite and within (0, 1e6]",
            });
        }
    }
    for extent in [
        def.scale.x * (def.count_x - 1) as f32,
        def.scale.z * (def.count_z - 1) as f32,
    ] {
        if extent.is_nan() || extent > MAX_MESH_EXTENT {
            return Err(Error::Argument {
                name: "height field size (scale × cells)",
                value: extent as f64,
                expected: "within 1e6 of the body origin",
            });
        }
    }
    for (i, &h) in def.heights.iter().enumerate() {
        let y = h * def.scale.y;
        if !(h.is_finite() && y.is_finite() && y.abs() <= MAX_MESH_EXTENT) {
            return Err(Error::Argument {
                name: "height field height (its index)",
                value: i as f64,
                expected: "finite and within ±1e6 once scaled",
            });
        }
    }
    Ok(())
}

/// A height field: content and what is rebuilt from it.
pub(crate) struct HeightField {
    /// Content: samples along x and z.
    pub count_x: u32,
    pub count_z: u32,
    /// Content: spacing and height scale.
    pub scale: Vec3,
    /// Content: heights, row by row.
    pub heights: FixedVec<f32>,
    /// Content: one bit per cell (bit `i & 7` of byte `i >> 3`), empty without holes.
    pub holes: FixedVec<u8>,
    /// Derived: active edge bits per triangle.
    pub edge_flags: FixedVec<u8>,
    /// Derived: bounds.
    pub bounds: Aabb,
}

impl HeightField {
    /// Builds a height field from a validated def, taking memory from `alloc`.
    pub(crate) fn build(def: &HeightFieldDef, alloc: WorldAlloc) -> Result<HeightField> {
        let what = "content_capacity";
        let mut heights = FixedVec::with_capacity(def.heights.len(), alloc, what)?;
        for &h in def.heights {
            let ok = heights.push(h);
            debug_assert!(ok);
        }
        let cells = (def.count_x as usize - 1) * (def.count_z as usize - 1);
        let any_hole = def.holes.iter().any(|&h| h);
        let mut holes =
            FixedVec::with_capacity(if any_hole { cells.div_ceil(8) } else { 0 }, alloc, what)?;
        if any_hole {
            holes.resize(cells.div_ceil(8), 0);
            for (i, &h) in def.holes.iter().enumerate() {
                if h {
                    holes[i >> 3] |= 1 << (i & 7);
                }
            }
        }
        let edge_flags = FixedVec::filled(2 * cells, 0b111u8, alloc, what)?;
        let mut hf = HeightField {
            count_x: def.count_x,
            count_z: def.count_z,
            scale: def.scale,
            heights,
            holes,
            edge_flags,
            bounds: Aabb::default(),
        };
        let (mut lo, mut hi) = (f32::MAX, -f32::MAX);
        for &h in hf.heights.iter() {
            let y = h * hf.scale.y;
            lo = min(lo, y);
            hi = max(hi, y);
        }
        hf.bounds = Aabb::new(
            Vec3::new(0.0, lo, 0.0),
            Vec3::new(
                (hf.count_x - 1) as f32 * hf.scale.x,
                hi,
                (hf.count_z - 1) as f32 * hf.scale.z,
            ),
        );
        hf.build_edge_flags();
        Ok(hf)
    }

    /// Content bytes (see [`height_field_content_bytes`]).
    pub(crate) fn content_bytes(&self) -> u64 {
        height_field_content_bytes(self.count_x, self.count_z, !self.holes.is_empty())
    }

    /// Cells along x and z.
    #[inline]
    fn cells(&self) -> (u32, u32) {
        (self.count_x - 1, self.count_z - 1)
    }

    /// The number of triangles (holes included).
    #[inline]
    pub(crate) fn triangle_count(&self) -> u32 {
        let (cx, cz) = self.cells();
        2 * cx * cz
    }

    /// Whether cell `i` is a hole.
    #[inline]
    pub(crate) fn is_hole(&self, cell: u32) -> bool {
        self.holes
            .get((cell >> 3) as usize)
            .is_some_and(|b| b & (1 << (cell & 7)) != 0)
    }

    /// Sample `(x, z)` in the shape's frame.
    #[inline]
    pub(crate) fn point(&self, x: u32, z: u32) -> Vec3 {
        let h = self.heights[(z * self.count_x + x) as usize];
        Vec3::new(
            x as f32 * self.scale.x,
            h * self.scale.y,
            z as f32 * self.scale.z,
        )
    }

    /// The vertices of triangle `i`, if it exists (not past the end, not in a hole).
    #[inline]
    fn vertices(&self, i: u32) -> Option<[Vec3; 3]> {
        let (cx, cz) = self.cells();
        let cell = i / 2;
        if cell >= cx * cz || self.is_hole(cell) {
            return None;
        }
        let (x, z) = (cell % cx, cell / cx);
        let p00 = self.point(x, z);
        let p11 = self.point(x + 1, z + 1);
        Some(if i & 1 == 0 {
            [p00, self.point(x, z + 1), p11]
        } else {
            [p00, p11, self.point(x + 1, z)]
        })
    }

    /// Triangle `i`, or `None` past the end or in a hole.
    #[inline]
    pub(crate) fn triangle(&self, i: u32) -> Option<Triangle> {
        Some(Triangle {
            v: self.vertices(i)?,
            active: *self.edge_flags.get(i as usize)?,
        })
    }

    /// The triangle across edge `k` of triangle `i` and that triangle's edge, if any.
    fn neighbour(&self, i: u32, k: u32) -> Option<(u32, u32)> {
        let (cx, cz) = self.cells();
        let cell = i / 2;
        let (x, z) = (cell % cx, cell / cx);
        let (n, nk) = match (i & 1, k) {
            // First half: left side, top side, diagonal.
            (0, 0) if x > 0 => (2 * (cell - 1) + 1, 1),
            (0, 1) if z + 1 < cz => (2 * (cell + cx) + 1, 2),
            (0, 2) => (i + 1, 0),
            // Second half: diagonal, right side, bottom side.
            (1, 0) => (i - 1, 2),
            (1, 1) if x + 1 < cx => (2 * (cell + 1), 0),
            (1, 2) if z > 0 => (2 * (cell - cx), 1),
            _ => return None,
        };
        self.vertices(n).map(|_| (n, nk))
    }

    fn build_edge_flags(&mut self) {
        for i in 0..self.triangle_count() {
            let Some(v) = self.vertices(i) else { continue };
            let n = (v[1] - v[0]).cross(v[2] - v[0]).normalize();
            let mut flags = 0b111u8;
            for k in 0..3 {
                let Some((j, jk)) = self.neighbour(i, k) else {
                    continue;
                };
                let Some(w) = self.vertices(j) else { continue };
                let m = (w[1] - w[0]).cross(w[2] - w[0]).normalize();
                let c = w[(jk as usize + 2) % 3];
                if !edge_is_active(n, m, v[k as usize], c) {
                    flags &= !(1 << k);
                }
            }
            self.edge_flags[i as usize] = flags;
        }
    }

    /// The cell range `[x0, x1] × [z0, z1]` under `aabb`, or `None` if it misses.
    fn cell_range(&self, aabb: &Aabb) -> Option<(u32, u32, u32, u32)> {
        if !self.bounds.overlaps(aabb) {
            return None;
        }
        let (cx, cz) = self.cells();
        let range = |lo: f32, hi: f32, s: f32, n: u32| -> (u32, u32) {
            // `as` saturates far or infinite bounds to the i64 range; step off it saturating.
            let a = ((lo / s) as i64).saturating_sub(1);
            let b = ((hi / s) as i64).saturating_add(1);
            let clamp = |v: i64| v.clamp(0, n as i64 - 1) as u32;
            (clamp(a), clamp(b))
        };
        let (x0, x1) = range(aabb.lower.x, aabb.upper.x, self.scale.x, cx);
        let (z0, z1) = range(aabb.lower.z, aabb.upper.z, self.scale.z, cz);
        Some((x0, x1, z0, z1))
    }

    /// Calls `f(triangle index)` for every triangle whose bounds overlap `aabb`, in
    /// ascending index order, until `f` returns false.
    pub(crate) fn query(&self, aabb: &Aabb, mut f: impl FnMut(u32) -> bool) {
        let Some((x0, x1, z0, z1)) = self.cell_range(aabb) else {
            return;
        };
        let (cx, _) = self.cells();
        for z in z0..=z1 {
            for x in x0..=x1 {
                let cell = z * cx + x;
                for i in [2 * cell, 2 * cell + 1] {
                    let Some(v) = self.vertices(i) else { continue };
                    let b = Aabb::new(v[0].min(v[1]).min(v[2]), v[0].max(v[1]).max(v[2]));
                    if b.overlaps(aabb) && !f(i) {
                        return;
                    }
                }
            }
        }
    }

    /// The closest triangle the ray enters (ties: the lower index), with its index. Walks
    /// the rows the ray crosses and, in each, the cells under its span there.
    #[cfg(test)]
    pub(crate) fn ray_cast(&self, input: &RayInput) -> Option<(RayHit, u32)> {
        self.ray_cast_sided(input, false)
    }

    /// As [`Self::ray_cast`]; with `front_only`, triangles met from below are passed through.
    pub(crate) fn ray_cast_sided(
        &self,
        input: &RayInput,
        front_only: bool,
    ) -> Option<(RayHit, u32)> {
        let d = input.translation;
        let inv = Vec3::new(inv(d.x), inv(d.y), inv(d.z));
        if !ray_touches_box(input.origin, d, inv, input.max_fraction, &self.bounds) {
            return None;
        }
        let end = input.origin.mul_add(input.max_fraction, d);
        let seg = Aabb::new(input.origin.min(end), input.origin.max(end));
        let (x0, x1, z0, z1) = self.cell_range(&seg)?;
        let (cx, _) = self.cells();
        let mut best: Option<(RayHit, u32)> = None;
        // The rows the ray's z span crosses, and in each the columns its x span over that
        // row crosses: a triangle lies within its cell, so no other can be hit. Each span
        // is widened past rounding (see `span_cells`), the x span also by what the row's
        // z bounds' rounding moves it when the ray runs nearly along x.
        let (rz0, rz1) = span_cells(seg.lower.z, seg.upper.z, self.scale.z, 0.0);
        let (z0, z1) = (max_u32(z0, rz0), min_u32(z1, rz1));
        let x_per_t = abs(d.x) / self.scale.x;
        for z in z0..=z1 {
            let (l, h, t_slack) = if d.z != 0.0 {
                // The ray's x span over this row.
                let (za, zb) = (z as f32 * self.scale.z, (z + 1) as f32 * self.scale.z);
                let (t1, t2) = ((za - input.origin.z) * inv.z, (zb - input.origin.z) * inv.z);
                let (ta, tb) = (max(min(t1, t2), 0.0), min(max(t1, t2), input.max_fraction));
                if ta > tb + 1.0e-5 {
                    continue;
                }
                let (xa, xb) = (input.origin.x + ta * d.x, input.origin.x + tb * d.x);
                let rounding = 4.0 * f32::EPSILON * (abs(za) + abs(zb) + abs(input.origin.z));
                (min(xa, xb), max(xa, xb), 1.0e-5 + rounding * abs(inv.z))
            } else {
                (seg.lower.x, seg.upper.x, 0.0)
            };
            let (a, b) = span_cells(l, h, self.scale.x, x_per_t * t_slack);
            let (lo_x, hi_x) = (max_u32(x0, a), min_u32(x1, b));
            if lo_x > hi_x {
                continue;
            }
            for x in lo_x..=hi_x {
                let cell = z * cx + x;
                for i in [2 * cell, 2 * cell + 1] {
                    let Some(t) = self.triangle(i) else { continue };
                    let Some(hit) = ray_triangle_sided(&t, input, front_only) else {
                        continue;
                    };
                    let better = match best {
                        None => true,
                        Some((h, j)) => {
                            hit.fraction < h.fraction || (hit.fraction == h.fraction && i < j)
                        }
                    };
                    if better {
                        best = Some((hit, i));
                    }
                }
            }
        }
        best
    }
}

/// The cells `[a, b]` along one axis (index range, possibly empty: `a > b`) that the span
/// `[lo, hi]` (the field's frame) can touch: those it lies over, widened by a hundredth of
/// a cell and the quotients' rounding each side, and by `slack` more cells. Saturating:
/// far, infinite or NaN spans give every cell or none, never a wrong one.
fn span_cells(lo: f32, hi: f32, s: f32, slack: f32) -> (u32, u32) {
    let (ql, qh) = (lo / s, hi / s);
    let widen = |q: f32| 0.01 + 1.0e-5 * abs(q) + slack;
    // `as` truncates towards zero and saturates; below zero every start is cell 0.
    let a = (ql - widen(ql)) as i64;
    let b = (qh + widen(qh)) as i64;
    if b < 0 || qh.is_nan() || ql.is_nan() {
        return (1, 0);
    }
    let cell = |v: i64| v.clamp(0, u32::MAX as i64) as u32;
    (cell(a), cell(b))
}

fn max_u32(a: u32, b: u32) -> u32 {
    if a > b { a } else { b }
}

fn min_u32(a: u32, b: u32) -> u32 {
    if a < b { a } else { b }
}

#[inline]
fn inv(x: f32) -> f32 {
    if x == 0.0 {
        if x.is_sign_negative() {
            f32::NEG_INFINITY
        } else {
            f32::INFINITY
        }
    } else {
        1.0 / x
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn field(n: u32, holes: &[bool]) -> HeightField {
        let heights: std::vec::Vec<f32> = (0..n * n)
            .map(|i| ((i % n) as f32 * 0.3).sin_approx())
            .collect();
        HeightField::build(
            &HeightFieldDef {
                count_x: n,
                count_z: n,
                heights: &heights,
                holes,
                scale: Vec3::new(0.5, 2.0, 0.75),
            },
            WorldAlloc::Global,
        )
        .unwrap()
    }

    trait SinApprox {
        fn sin_approx(self) -> f32;
    }
    impl SinApprox for f32 {
        fn sin_approx(self) -> f32 {
            crate::math::sin(self)
        }
    }

    #[test]
    fn triangles_face_up_and_tile_each_cell() {
        let hf = field(6, &[]);
        for i in 0..hf.triangle_count() {
            let t = hf.triangle(i).unwrap();
            assert!(t.normal().y > 0.0);
        }
        // The two halves of a cell share the diagonal.
        let (a, b) = (hf.triangle(0).unwrap(), hf.triangle(1).unwrap());
        assert_eq!(a.v[0], b.v[0]);
        assert_eq!(a.v[2], b.v[1]);
    }

    /// The closest hit over every triangle, lowest index on ties: what `ray_cast_sided`
    /// must find while testing only the cells the ray crosses.
    fn every_triangle(hf: &HeightField, input: &RayInput, front: bool) -> Option<(RayHit, u32)> {
        let mut best: Option<(RayHit, u32)> = None;
        for i in 0..hf.triangle_count() {
            let Some(t) = hf.triangle(i) else { continue };
            if let Some(hit) = ray_triangle_sided(&t, input, front) {
                if best.is_none_or(|(h, _)| hit.fraction < h.fraction) {
                    best = Some((hit, i));
                }
            }
        }
        best
    }

    #[test]
    fn ray_casts_find_what_testing_every_triangle_finds() {
        let hf = field(12, &[]);
        // A fixed pseudo-random walk (no clock, no platform generator).
        let mut seed = 0x9e37_79b9_u32;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 17;
            seed ^= seed << 5;
            seed as f32 / u32::MAX as f32
        };
        let (w, d) = (0.5 * 11.0, 0.75 * 11.0);
        let mut hits = 0;
        for k in 0..4000 {
            // Straight down, nearly down, along x or z (nearly and exactly), any way; and
            // from cell corners and edges, where rounding decides the cell.
            let mut origin = Vec3::new(next() * w, 1.0 + next() * 4.0, next() * d);
            if k % 5 == 0 {
                origin.x = (origin.x / 0.5).floor() * 0.5;
            }
            if k % 7 == 0 {
                origin.z = (origin.z / 0.75).floor() * 0.75;
            }
            let small = 1.0e-7 * (next() - 0.5);
            let translation = match k % 6 {
                0 => Vec3::new(0.0, -6.0, 0.0),
                1 => Vec3::new(small, -6.0, -small),
                2 => Vec3::new(6.0, -2.0 - next(), small),
                3 => Vec3::new(small, -2.0 - next(), -6.0),
                4 => Vec3::new(-6.0, -1.0, 0.0),
                _ => Vec3::new(next() - 0.5, -next(), next() - 0.5) * 12.0,
            };
            let input = RayInput {
                origin,
                translation,
                max_fraction: 0.25 + next(),
            };
            for front in [false, true] {
                let fast = hf.ray_cast_sided(&input, front);
                let every = every_triangle(&hf, &input, front);
                hits += fast.is_some() as u32;
                assert_eq!(
                    fast.map(|(h, i)| (h.fraction.to_bits(), i)),
                    every.map(|(h, i)| (h.fraction.to_bits(), i)),
                    "ray {k} {input:?}"
                );
            }
        }
        assert!(hits > 2000, "too few rays hit the field ({hits})");
    }

    #[test]
    fn neighbours_are_mutual() {
        let hf = field(5, &[]);
        for i in 0..hf.triangle_count() {
            for k in 0..3 {
                if let Some((j, jk)) = hf.neighbour(i, k) {
                    assert_eq!(hf.neighbour(j, jk), Some((i, k)), "{i} {k}");
                    // The shared edge runs the other way round.
                    let (v, w) = (hf.vertices(i).unwrap(), hf.vertices(j).unwrap());
                    assert_eq!(v[k as usize], w[(jk as usize + 1) % 3]);
                    assert_eq!(v[(k as usize + 1) % 3], w[jk as usize]);
                }
            }
        }
    }

    #[test]
    fn holes_have_no_triangles_and_queries_match_brute_force() {
        let mut holes = vec![false; 36];
        holes[7] = true;
        holes[20] = true;
        let hf = field(7, &holes);
        assert!(hf.triangle(14).is_none() && hf.triangle(15).is_none());
        let q = Aabb::new(Vec3::new(0.6, -5.0, 0.4), Vec3::new(2.1, 5.0, 3.3));
        let mut found = std::vec::Vec::new();
        hf.query(&q, |i| {
            found.push(i);
            true
        });
        let brute: std::vec::Vec<u32> = (0..hf.triangle_count())
            .filter(|&i| hf.triangle(i).is_some_and(|t| t.aabb().overlaps(&q)))
            .collect();
        assert_eq!(found, brute);
    }

    #[test]
    fn rays_agree_with_brute_force() {
        let hf = field(9, &[]);
        let mut s = 12345u32;
        let mut r = || {
            s = s.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            (s >> 8) as f32 / 16_777_216.0
        };
        for _ in 0..200 {
            let input = RayInput {
                origin: Vec3::new(r() * 5.0 - 0.5, 3.0 + r(), r() * 7.0 - 0.5),
                translation: Vec3::new(r() * 4.0 - 2.0, -6.0 * r() - 0.1, r() * 4.0 - 2.0),
                max_fraction: 1.0,
            };
            let fast = hf.ray_cast(&input).map(|h| (h.0.fraction, h.1));
            let mut brute: Option<(f32, u32)> = None;
            for i in 0..hf.triangle_count() {
                if let Some(h) = hf.triangle(i).and_then(|t| ray_triangle(&t, &input)) {
                    if brute.is_none_or(|b| h.fraction < b.0) {
                        brute = Some((h.fraction, i));
                    }
                }
            }
            assert_eq!(fast, brute);
        }
    }
}
