//! Face contact between two hulls: the incident face clipped against the side planes of
//! the reference face (Sutherland–Hodgman on fixed stack buffers), then reduced to at
//! most four points.
//!
//! Feature ids: each clipped vertex is the crossing of two lines, the polygon edge it
//! arrives on and the one it leaves on; each line is an incident half-edge `h` (code `h`)
//! or a side of the reference face, i.e. reference half-edge `h` (code `0x200 | h`). The id
//! packs `flip << 31 | reference face << 20 | arriving code << 10 | leaving code`, so the
//! same crossing gets the same id from step to step. The fallback point is
//! `flip << 31 | 1 << 29 | reference face << 20 | incident vertex`.

use super::Manifold;
use crate::geometry::hull::{HullView, MAX_HULL_VERTICES};
use crate::math::{Quat, Transform, Vec3};

/// Room for a polygon clipped against every side: a convex polygon gains at most one
/// vertex per side, and a face has at most `MAX_HULL_VERTICES` of either.
const CLIP_CAPACITY: usize = 2 * MAX_HULL_VERTICES;
/// The buffers for faces with at most this many sides between them (two quads: 8), which
/// are most: clearing 2 × 128 vertices would cost more than clipping boxes.
const SMALL_CLIP_CAPACITY: usize = 16;

/// Marks a feature code as a side of the reference face.
const REFERENCE_SIDE: u16 = 0x200;
/// A feature code's bits.
const FEATURE_MASK: u32 = 0x3FF;

/// A vertex of the polygon being clipped: where the line `arrive` (the edge before it)
/// meets the line `leave` (the edge after it).
#[derive(Clone, Copy, Default)]
struct ClipVertex {
    p: Vec3,
    separation: f32,
    arrive: u16,
    leave: u16,
}

/// The manifold of a face contact, reference face `ref_face` of `reference` against the
/// most anti-parallel face of `incident`, computed in the reference hull's frame.
/// `inc_vertices` are the incident hull's vertices in that frame, `inc_to_ref` the
/// rotation from the incident frame to it, and `xf_ref` maps it into the common frame.
/// `flip` says the reference hull is B, so the normal is turned to run from A to B.
///
/// `None` when no part of the incident face lies over the reference face; see
/// [`deepest_vertex_contact`] for what to do then.
#[allow(clippy::too_many_arguments)]
#[inline(never)]
pub(crate) fn face_contact(
    reference: &HullView,
    ref_face: usize,
    incident: &HullView,
    inc_vertices: &[Vec3],
    inc_to_ref: Quat,
    xf_ref: &Transform,
    flip: bool,
    speculative_distance: f32,
) -> Option<Manifold> {
    let n = reference.planes[ref_face].normal;

    // The incident face: the most anti-parallel to the reference normal.
    let target = inc_to_ref.inv_rotate(n);
    let mut inc_face = 0;
    let mut lowest = f32::MAX;
    for (i, p) in incident.planes.iter().enumerate() {
        let d = p.normal.dot(target);
        if d < lowest {
            lowest = d;
            inc_face = i;
        }
    }

    // Box-sized faces (most contacts) clip in small buffers. A face of a hull with `e`
    // half-edges has at most `e / 4` sides (each of its corners has an edge of its own
    // off the face), so small hulls need not walk their faces to know.
    let small_hulls = incident.edges.len() + reference.edges.len() <= 4 * SMALL_CLIP_CAPACITY;
    let sides = if small_hulls {
        SMALL_CLIP_CAPACITY
    } else {
        face_sides(incident, inc_face) + face_sides(reference, ref_face)
    };
    let clip = Clip {
        reference,
        ref_face,
        incident,
        inc_face,
        inc_vertices,
        xf_ref,
        flip,
        speculative_distance,
    };
    if sides <= SMALL_CLIP_CAPACITY {
        clip.run::<SMALL_CLIP_CAPACITY>()
    } else {
        clip.run::<CLIP_CAPACITY>()
    }
}

/// The number of sides of a face (at most the number of half-edges, if `next` is broken).
#[inline]
fn face_sides(hull: &HullView, face: usize) -> usize {
    let start = hull.face_edges[face] as usize;
    let mut e = start;
    let mut sides = 0;
    for _ in 0..hull.edges.len() {
        sides += 1;
        e = hull.edges[e].next as usize;
        if e == start {
            break;
        }
    }
    sides
}

/// One face contact's inputs, chosen reference and incident faces included.
struct Clip<'a, 'b> {
    reference: &'a HullView<'b>,
    ref_face: usize,
    incident: &'a HullView<'b>,
    inc_face: usize,
    inc_vertices: &'a [Vec3],
    xf_ref: &'a Transform,
    flip: bool,
    speculative_distance: f32,
}

impl Clip<'_, '_> {
    /// The contact, clipping in buffers of `CAP` vertices; `None` if nothing is left.
    fn run<const CAP: usize>(&self) -> Option<Manifold> {
        let Clip {
            reference,
            ref_face,
            incident,
            inc_face,
            inc_vertices,
            xf_ref,
            flip,
            speculative_distance,
        } = *self;
        let plane = reference.planes[ref_face];
        let n = plane.normal;

        // The incident polygon, in the reference frame.
        let mut buffers = [[ClipVertex::default(); CAP]; 2];
        let mut count = 0;
        {
            let poly = &mut buffers[0];
            let start = incident.face_edges[inc_face] as usize;
            let mut e = start;
            let steps = Ord::min(incident.edges.len(), CAP);
            for _ in 0..steps {
                let he = incident.edges[e];
                poly[count] = ClipVertex {
                    p: inc_vertices[he.origin as usize],
                    separation: 0.0,
                    arrive: 0,
                    leave: e as u16,
                };
                count += 1;
                e = he.next as usize;
                if e == start {
                    break;
                }
            }
            // Each vertex arrives on the edge its predecessor leaves on (no division
            // per vertex: this runs for every face contact).
            if count > 0 {
                poly[0].arrive = poly[count - 1].leave;
                for k in 1..count {
                    poly[k].arrive = poly[k - 1].leave;
                }
            }
        }

        // Clip against the sides of the reference face.
        let mut current = 0;
        let start = reference.face_edges[ref_face] as usize;
        let mut e = start;
        for _ in 0..reference.edges.len() {
            let next = reference.edges[e].next as usize;
            let v0 = reference.vertices[reference.edges[e].origin as usize];
            let v1 = reference.vertices[reference.edges[next].origin as usize];
            // Points out of a counter-clockwise face; its length does not matter.
            let side = (v1 - v0).cross(n);
            let offset = side.dot(v0);
            let [b0, b1] = &mut buffers;
            let (src, dst) = if current == 0 { (b0, b1) } else { (b1, b0) };
            count = clip_polygon(&src[..count], dst, side, offset, REFERENCE_SIDE | e as u16);
            current ^= 1;
            if count == 0 || next == start {
                break;
            }
            e = next;
        }

        let normal = if flip {
            -xf_ref.q.rotate(n)
        } else {
            xf_ref.q.rotate(n)
        };
        let mut m = Manifold {
            normal,
            ..Manifold::default()
        };
        let base = (flip as u32) << 31 | (ref_face as u32 & 0x7F) << 20;

        if count == 0 {
            return None;
        }

        // Keep the points within the speculative distance of the reference plane.
        let poly = &mut buffers[current];
        let mut kept = 0;
        for k in 0..count {
            let v = poly[k];
            let separation = n.dot(v.p) - plane.offset;
            if separation < speculative_distance {
                poly[kept] = ClipVertex { separation, ..v };
                kept += 1;
            }
        }
        let poly = &poly[..kept];
        let order = if kept > 4 {
            reduce(poly, n)
        } else {
            [0, 1, 2, 3]
        };
        for &i in &order[..Ord::min(kept, 4)] {
            let v = poly[i];
            // Midway between the incident point and the reference plane below it.
            let p = v.p.mul_sub(0.5 * v.separation, n);
            let id =
                base | (v.arrive as u32 & FEATURE_MASK) << 10 | (v.leave as u32 & FEATURE_MASK);
            m.push(xf_ref, p, v.separation, id);
        }
        Some(m)
    }
}

/// One point at the incident hull's deepest vertex below the reference plane: keeps a
/// grazing contact (nothing of the incident face over the reference face) from being lost.
/// Its id is `flip << 31 | 1 << 29 | reference face << 20 | vertex`.
pub(crate) fn deepest_vertex_contact(
    reference: &HullView,
    ref_face: usize,
    inc_vertices: &[Vec3],
    xf_ref: &Transform,
    flip: bool,
    speculative_distance: f32,
) -> Manifold {
    let plane = reference.planes[ref_face];
    let n = plane.normal;
    let normal = xf_ref.q.rotate(n);
    let mut m = Manifold {
        normal: if flip { -normal } else { normal },
        ..Manifold::default()
    };
    let mut deepest = 0;
    let mut lowest = f32::MAX;
    for (i, v) in inc_vertices.iter().enumerate() {
        let h = n.dot(*v);
        if h < lowest {
            lowest = h;
            deepest = i;
        }
    }
    let separation = lowest - plane.offset;
    if separation < speculative_distance {
        let p = inc_vertices[deepest].mul_sub(0.5 * separation, n);
        let id = (flip as u32) << 31 | 1 << 29 | (ref_face as u32 & 0x7F) << 20 | deepest as u32;
        m.push(xf_ref, p, separation, id);
    }
    m
}

/// Sutherland–Hodgman: the part of `src` where `side · p <= offset`, into `dst`; returns
/// the vertex count. New vertices record `feature` as the line they arrive on or leave on.
#[inline]
fn clip_polygon<const CAP: usize>(
    src: &[ClipVertex],
    dst: &mut [ClipVertex; CAP],
    side: Vec3,
    offset: f32,
    feature: u16,
) -> usize {
    let Some(&last) = src.last() else {
        return 0;
    };
    let mut count = 0;
    let mut push = |v: ClipVertex| {
        if count < CAP {
            dst[count] = v;
            count += 1;
        }
    };
    let mut a = last;
    let mut da = side.dot(a.p) - offset;
    for &b in src {
        let db = side.dot(b.p) - offset;
        if da <= 0.0 {
            if db <= 0.0 {
                push(b);
            } else {
                // Leaving: da - db < 0.
                let t = da / (da - db);
                push(ClipVertex {
                    p: a.p.mul_add(t, b.p - a.p),
                    separation: 0.0,
                    arrive: a.leave,
                    leave: feature,
                });
            }
        } else if db <= 0.0 {
            // Entering: da - db > 0.
            let t = da / (da - db);
            push(ClipVertex {
                p: a.p.mul_add(t, b.p - a.p),
                separation: 0.0,
                arrive: feature,
                leave: b.arrive,
            });
            push(b);
        }
        a = b;
        da = db;
    }
    count
}

/// Four of the points (more than four given) that keep the contact's extent: the deepest,
/// the farthest from it, the one making the largest triangle with those two, and the one
/// adding the most area outside that triangle. Ties go to the lowest index.
fn reduce(poly: &[ClipVertex], n: Vec3) -> [usize; 4] {
    let mut i0 = 0;
    for (i, v) in poly.iter().enumerate() {
        if v.separation < poly[i0].separation {
            i0 = i;
        }
    }
    let p0 = poly[i0].p;

    let mut i1 = usize::MAX;
    let mut best = -1.0f32;
    for (i, v) in poly.iter().enumerate() {
        let d2 = (v.p - p0).length_squared();
        if i != i0 && d2 > best {
            best = d2;
            i1 = i;
        }
    }
    let e01 = poly[i1].p - p0;

    let mut i2 = usize::MAX;
    let mut area2 = 0.0f32;
    let mut best = -1.0f32;
    for (i, v) in poly.iter().enumerate() {
        let area = n.dot(e01.cross(v.p - p0));
        if i != i0 && i != i1 && area.abs() > best {
            best = area.abs();
            area2 = area;
            i2 = i;
        }
    }

    // The triangle wound counter-clockwise about n, so outside each edge is negative.
    let tri = if area2 >= 0.0 {
        [i0, i1, i2]
    } else {
        [i0, i2, i1]
    };
    let mut i3 = usize::MAX;
    let mut best = -f32::MAX;
    for (i, v) in poly.iter().enumerate() {
        if i == i0 || i == i1 || i == i2 {
            continue;
        }
        let mut outside = -f32::MAX;
        for k in 0..3 {
            let pa = poly[tri[k]].p;
            let pb = poly[tri[(k + 1) % 3]].p;
            let area = -n.dot((pb - pa).cross(v.p - pa));
            if area > outside {
                outside = area;
            }
        }
        if outside > best {
            best = outside;
            i3 = i;
        }
    }
    [i0, i1, i2, i3]
}
