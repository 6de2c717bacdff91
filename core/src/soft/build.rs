//! What is rebuilt from a soft body's content, settings and pins: its ranges in the
//! store's arrays, its edges and bends (sorted, coloured), whether it is closed, its rest
//! volume, its particles' inverse masses and long-range anchors. Built at create and
//! destroy, when pins, attachments or settings change, and at restore — from state
//! alone, in a fixed order, so the same bits everywhere.

use crate::body::NONE;
use crate::error::{Error, Result};
use crate::math::Vec3;
use crate::soft::COLOURS;
use crate::store::soft::{Bend, Edge, SoftStore};

/// The dihedral angle of two triangles sharing the edge `x0`–`x1`, with opposite
/// vertices `xa` and `xb`: 0 when flat, in (−π, π]. The sign follows the gradients of
/// [`dihedral_gradients`].
pub(crate) fn dihedral_angle(x0: Vec3, x1: Vec3, xa: Vec3, xb: Vec3) -> f32 {
    let e = x1 - x0;
    let n1 = e.cross(xa - x0);
    let n2 = (xb - x0).cross(e);
    let (ue, len) = e.normalize_and_length();
    if len <= 0.0 {
        return 0.0;
    }
    crate::math::atan2(n2.cross(n1).dot(ue), n1.dot(n2))
}

/// The gradients of [`dihedral_angle`] with respect to `x0`, `x1`, `xa`, `xb` (Bridson,
/// Marino and Fedkiw 2003), or `None` for a degenerate pair (a zero-length edge or a
/// triangle of no area).
#[cfg(test)]
pub(crate) fn dihedral_gradients(x0: Vec3, x1: Vec3, xa: Vec3, xb: Vec3) -> Option<[Vec3; 4]> {
    dihedral(x0, x1, xa, xb).map(|(_, g)| g)
}

/// [`dihedral_angle`] and [`dihedral_gradients`] in one, sharing their products (the
/// same bits as each alone).
pub(crate) fn dihedral(x0: Vec3, x1: Vec3, xa: Vec3, xb: Vec3) -> Option<(f32, [Vec3; 4])> {
    let e = x1 - x0;
    let n1 = e.cross(xa - x0);
    let n2 = (xb - x0).cross(e);
    let (l1, l2) = (n1.length_squared(), n2.length_squared());
    let (ue, len) = e.normalize_and_length();
    if !(len > 1.0e-12 && l1 > 1.0e-20 && l2 > 1.0e-20) {
        return None;
    }
    let angle = crate::math::atan2(n2.cross(n1).dot(ue), n1.dot(n2));
    let m1 = n1 * (1.0 / l1);
    let m2 = n2 * (1.0 / l2);
    let ga = m1 * len;
    let gb = m2 * len;
    let g0 = m1 * (xa - x1).dot(ue) + m2 * (xb - x1).dot(ue);
    let g1 = -(m1 * (xa - x0).dot(ue) + m2 * (xb - x0).dot(ue));
    Some((angle, [g0, g1, ga, gb]))
}

/// The signed volume a triangle list encloses (`x(i)`: vertex `i`), times six.
pub(crate) fn volume6(triangles: &[[u32; 3]], x: impl Fn(u32) -> Vec3) -> f32 {
    let mut v = 0.0f32;
    for t in triangles {
        v += x(t[0]).cross(x(t[1])).dot(x(t[2]));
    }
    v
}

/// Adds a triangle's three edges to a build list as `[low, high, opposite, 0]`.
pub(crate) fn push_edges(build: &mut crate::alloc::FixedVec<[u32; 4]>, t: [u32; 3]) {
    for k in 0..3 {
        let (a, c, o) = (t[k], t[(k + 1) % 3], t[(k + 2) % 3]);
        let ok = build.push([a.min(c), a.max(c), o, 0]);
        debug_assert!(ok, "two triangles per particle, three edges each");
    }
}

/// Sorts a build list and counts its distinct edges and those with exactly two triangles
/// (the bends).
pub(crate) fn count_edges(build: &mut crate::alloc::FixedVec<[u32; 4]>) -> (usize, usize) {
    // A total order on the whole entry: the same result whatever the sort.
    build.sort_unstable();
    let (mut edges, mut bends) = (0, 0);
    let mut i = 0;
    while i < build.len() {
        let mut j = i + 1;
        while j < build.len() && build[j][..2] == build[i][..2] {
            j += 1;
        }
        edges += 1;
        if j - i == 2 {
            bends += 1;
        }
        i = j;
    }
    (edges, bends)
}

impl SoftStore {
    /// Refuses a new mesh whose edges or bends would not fit beside the others'.
    pub(crate) fn check_constraint_room(&mut self, triangles: &[[u32; 3]]) -> Result<()> {
        self.build.clear();
        for t in triangles {
            push_edges(&mut self.build, *t);
        }
        let (edges, bends) = count_edges(&mut self.build);
        if edges > self.edges.capacity() - self.edges.len()
            || bends > self.bends.capacity() - self.bends.len()
        {
            return Err(Error::Capacity {
                what: "soft_particle_capacity (three edges per particle)",
                capacity: self.edges.capacity() as u64,
            });
        }
        Ok(())
    }

    /// Rebuilds every soft body's ranges and derived data, in slot order.
    pub(crate) fn rebuild(&mut self) {
        self.edges.clear();
        self.bends.clear();
        let (mut p, mut t) = (0u32, 0u32);
        for slot in 0..self.pool.len() {
            if !self.pool[slot].alive {
                continue;
            }
            let b = &mut self.pool[slot];
            b.first_particle = p;
            b.first_triangle = t;
            p += b.particle_count;
            t += b.triangle_count;
            self.build_constraints(slot);
            self.rebuild_body(slot);
        }
        for pl in self.planes.iter_mut() {
            *pl = Default::default();
        }
    }

    /// Builds one soft body's edges and bends (appended) and its volume facts.
    fn build_constraints(&mut self, slot: usize) {
        let b = self.pool[slot];
        let (fp, ft) = (b.first_particle as usize, b.first_triangle as usize);
        let tris = ft..ft + b.triangle_count as usize;
        // `list_edges` needs the triangles apart from `self`: they are copied through the
        // build list's own pass (no allocation): walk them by index.
        self.build.clear();
        for ti in tris.clone() {
            push_edges(&mut self.build, self.triangles[ti]);
        }
        self.build.sort_unstable();
        let rest = |s: &SoftStore, i: u32| s.rest[fp + i as usize];
        let first_edge = self.edges.len();
        let first_bend = self.bends.len();
        let mut closed = true;
        let mut i = 0;
        while i < self.build.len() {
            let mut j = i + 1;
            while j < self.build.len() && self.build[j][..2] == self.build[i][..2] {
                j += 1;
            }
            let [a, c, o, _] = self.build[i];
            let length = (rest(self, c) - rest(self, a)).length();
            let ok = self.edges.push(Edge {
                a: fp as u32 + a,
                b: fp as u32 + c,
                rest: length,
                colour: 0,
            });
            debug_assert!(ok, "edge room checked at create");
            // A bend needs two different opposite vertices (two triangles on the same
            // three vertices make none).
            if j - i == 2 && self.build[i + 1][2] != o {
                let o2 = self.build[i + 1][2];
                let angle =
                    dihedral_angle(rest(self, a), rest(self, c), rest(self, o), rest(self, o2));
                let ok = self.bends.push(Bend {
                    p: [fp as u32 + a, fp as u32 + c, fp as u32 + o, fp as u32 + o2],
                    rest: angle,
                    colour: 0,
                });
                debug_assert!(ok);
            } else {
                closed = false;
            }
            i = j;
        }
        let rest_volume =
            volume6(&self.triangles[tris], |k| self.rest[fp + k as usize]) * (1.0 / 6.0);
        let edge_colours = self.colour_edges(first_edge);
        let bend_colours = self.colour_bends(first_bend);
        let b = &mut self.pool[slot];
        b.closed = closed;
        b.rest_volume = rest_volume;
        b.edge_colours = edge_colours;
        b.bend_colours = bend_colours;
    }

    /// Colours the edges from `first` to the end of the list (each takes the lowest
    /// colour neither of its particles has yet, or the last colour when all are taken),
    /// sorts them by colour (then particles: a total order) and returns the colour starts.
    fn colour_edges(&mut self, first: usize) -> [u32; COLOURS + 2] {
        let mut counts = [0u32; COLOURS + 1];
        for k in first..self.edges.len() {
            let e = self.edges[k];
            self.marks[e.a as usize] = 0;
            self.marks[e.b as usize] = 0;
        }
        for k in first..self.edges.len() {
            let e = self.edges[k];
            let c = pick(&mut self.marks, &[e.a, e.b]);
            self.edges[k].colour = c;
            counts[c as usize] += 1;
        }
        self.edges[first..].sort_unstable_by_key(|e| (e.colour, e.a, e.b));
        starts(first, &counts)
    }

    /// As [`SoftStore::colour_edges`], for the bends.
    fn colour_bends(&mut self, first: usize) -> [u32; COLOURS + 2] {
        let mut counts = [0u32; COLOURS + 1];
        for k in first..self.bends.len() {
            for p in self.bends[k].p {
                self.marks[p as usize] = 0;
            }
        }
        for k in first..self.bends.len() {
            let b = self.bends[k];
            let c = pick(&mut self.marks, &b.p);
            self.bends[k].colour = c;
            counts[c as usize] += 1;
        }
        self.bends[first..].sort_unstable_by_key(|b| (b.colour, b.p));
        starts(first, &counts)
    }

    /// A soft body's inverse masses and long-range anchors, from its settings and pins.
    pub(crate) fn rebuild_body(&mut self, slot: usize) {
        let b = self.pool[slot];
        let first = b.first_particle as usize;
        let range = first..first + b.particle_count as usize;
        let w = b.particle_count as f32 / b.settings.mass;
        for i in range.clone() {
            self.inv_mass[i] = if self.particles[i].pinned { 0.0 } else { w };
            self.anchors[i] = (NONE, 0.0);
        }
        let stretch = b.settings.long_range_stretch;
        if stretch <= 0.0 || !self.particles[range.clone()].iter().any(|p| p.pinned) {
            return;
        }
        for i in range.clone() {
            if self.particles[i].pinned {
                continue;
            }
            let mut best = (NONE, f32::MAX);
            for k in range.clone() {
                if !self.particles[k].pinned {
                    continue;
                }
                let d = (self.rest[i] - self.rest[k]).length();
                if d < best.1 {
                    best = (k as u32, d);
                }
            }
            if best.0 != NONE {
                self.anchors[i] = (best.0, best.1 * stretch);
            }
        }
    }
}

/// The lowest colour none of `ps` has (marking it on them), or `COLOURS` (the colour
/// solved in order) when all are taken.
fn pick(marks: &mut [u32], ps: &[u32]) -> u32 {
    let mut used = 0u32;
    for &p in ps {
        used |= marks[p as usize];
    }
    let c = (!used).trailing_zeros().min(COLOURS as u32);
    if c < COLOURS as u32 {
        for &p in ps {
            marks[p as usize] |= 1 << c;
        }
    }
    c
}

/// Colour starts from counts: colour `c` is `starts[c]..starts[c + 1]`.
fn starts(first: usize, counts: &[u32; COLOURS + 1]) -> [u32; COLOURS + 2] {
    let mut s = [0u32; COLOURS + 2];
    s[0] = first as u32;
    for c in 0..=COLOURS {
        s[c + 1] = s[c] + counts[c];
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The gradients match the angle's finite differences, for folds both ways.
    #[test]
    fn dihedral_gradients_are_the_angles_derivatives() {
        let cases = [
            // Nearly flat, folded slightly either way (a sphere's or a cloth's bends).
            [
                Vec3::new(0.0, 0.0, 0.0),
                Vec3::new(1.0, 0.0, 0.0),
                Vec3::new(0.5, 0.1, 1.0),
                Vec3::new(0.4, 0.1, -1.0),
            ],
            [
                Vec3::new(0.0, 0.0, 0.0),
                Vec3::new(1.0, 0.0, 0.0),
                Vec3::new(0.5, -0.1, 1.0),
                Vec3::new(0.4, -0.1, -1.0),
            ],
            [
                Vec3::new(0.0, 0.0, 0.0),
                Vec3::new(0.0, 0.0, 1.0),
                Vec3::new(1.0, 0.05, 0.5),
                Vec3::new(-1.0, 0.2, 0.4),
            ],
            [
                Vec3::new(0.0, 0.0, 0.0),
                Vec3::new(1.0, 0.0, 0.0),
                Vec3::new(0.3, 1.0, 0.2),
                Vec3::new(0.6, -1.0, 0.3),
            ],
            [
                Vec3::new(0.0, 0.0, 0.0),
                Vec3::new(1.0, 0.2, 0.0),
                Vec3::new(0.4, 0.8, -0.5),
                Vec3::new(0.5, -0.9, -0.4),
            ],
            [
                Vec3::new(0.1, 0.0, 0.0),
                Vec3::new(0.9, 0.1, 0.1),
                Vec3::new(0.5, 0.0, 1.0),
                Vec3::new(0.5, 0.0, -1.0),
            ],
        ];
        for x in cases {
            let g = dihedral_gradients(x[0], x[1], x[2], x[3]).unwrap();
            let eps = 1.0e-3;
            for k in 0..4 {
                for axis in 0..3 {
                    let mut d = [0.0f32; 3];
                    d[axis] = eps;
                    let d = Vec3::new(d[0], d[1], d[2]);
                    let (mut a, mut b) = (x, x);
                    a[k] += d;
                    b[k] -= d;
                    let fd = (dihedral_angle(a[0], a[1], a[2], a[3])
                        - dihedral_angle(b[0], b[1], b[2], b[3]))
                        / (2.0 * eps);
                    let an = g[k].get(axis);
                    assert!(
                        (fd - an).abs() < 2.0e-2,
                        "vertex {k} axis {axis}: {fd} vs {an} at {x:?}"
                    );
                }
            }
        }
    }
}
