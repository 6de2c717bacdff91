//! Godot's concave polygon and height map shapes as `maul3d` mesh content.
//!
//! Each use of such a shape on a body becomes one core triangle mesh in that body's frame:
//! the core's mesh shapes have no offset of their own, so the shape's transform (scale,
//! rotation, even a mirror) is applied to the vertices here.
//!
//! A height map becomes a triangle mesh too, not a core height field: the core's height
//! field lies from the body origin along +x and +z and splits each cell along the other
//! diagonal, while Godot's is centred on the shape origin under any shape transform. The
//! mesh keeps Godot's exact triangles (those of Godot Physics and of Jolt in Godot).

use godot::prelude::*;
use maul3d::geometry::mesh::is_degenerate;
use maul3d::math::Vec3;
use std::collections::HashMap;

use crate::conv::{gv, v3};

/// A `ConcavePolygonShape3D`'s data: three vertices per triangle, clockwise seen from the
/// front (Godot's winding, the reverse of the core's).
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Concave {
    pub faces: Vec<Vec3>,
    pub backface_collision: bool,
}

/// A `HeightMapShape3D`'s data: `width × depth` heights, row by row along x, sample
/// `(x, z)` at `(x − (width − 1)/2, height, z − (depth − 1)/2)`; a NaN height is a hole.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct HeightMap {
    pub width: usize,
    pub depth: usize,
    pub heights: Vec<f32>,
}

/// Vertices and counter-clockwise triangles for `World::create_mesh`, and how many of
/// the source's triangles were dropped as degenerate.
pub(crate) struct MeshContent {
    pub vertices: Vec<Vec3>,
    pub triangles: Vec<[u32; 3]>,
    pub degenerate: usize,
}

impl Concave {
    /// Reads Godot's dictionary (`faces`, `backface_collision`).
    pub fn from_data(data: &Variant) -> Option<Concave> {
        let d = data.try_to::<Dictionary<Variant, Variant>>().ok()?;
        let faces = d.get("faces")?.try_to::<PackedVector3Array>().ok()?;
        let backface_collision = d
            .get("backface_collision")
            .and_then(|v| v.try_to::<bool>().ok())
            .unwrap_or(false);
        Some(Concave {
            faces: faces.as_slice().iter().map(|v| v3(*v)).collect(),
            backface_collision,
        })
    }

    /// The mesh in the body's frame. Vertices exactly equal in Godot's data become one
    /// (the first occurrence's index), so triangles that share an edge in the data share
    /// it in the mesh and its internal edges stay smooth. A trailing partial triangle is
    /// ignored, as Godot's own servers refuse it.
    pub fn content(&self, xf: Transform3D) -> MeshContent {
        let mut index: HashMap<[u32; 3], u32> = HashMap::new();
        let mut vertices = Vec::new();
        let mut ids = Vec::with_capacity(self.faces.len());
        for &v in &self.faces {
            // -0.0 and 0.0 are the same point.
            let key = [v.x + 0.0, v.y + 0.0, v.z + 0.0].map(f32::to_bits);
            let i = *index.entry(key).or_insert_with(|| {
                vertices.push(v3(xf * gv(v)));
                vertices.len() as u32 - 1
            });
            ids.push(i);
        }
        let triangles = ids
            .chunks_exact(3)
            .map(|t| godot_front(xf, [t[0], t[1], t[2]]));
        finish(vertices, triangles)
    }
}

impl HeightMap {
    /// Reads Godot's dictionary (`width`, `depth`, `heights`; `min_height` and
    /// `max_height` only bound the heights). `None` unless there are `width · depth`
    /// heights on at least a 2 × 2 grid.
    pub fn from_data(data: &Variant) -> Option<HeightMap> {
        let d = data.try_to::<Dictionary<Variant, Variant>>().ok()?;
        let side = |key: &str| {
            d.get(key)
                .and_then(|v| v.try_to::<i64>().ok())
                .filter(|n| (2..=1 << 16).contains(n))
                .map(|n| n as usize)
        };
        let (width, depth) = (side("width")?, side("depth")?);
        let h = d.get("heights")?;
        let heights: Vec<f32> = if let Ok(a) = h.try_to::<PackedFloat32Array>() {
            a.as_slice().to_vec()
        } else {
            // A double-precision Godot build sends doubles.
            let a = h.try_to::<PackedFloat64Array>().ok()?;
            a.as_slice().iter().map(|&x| x as f32).collect()
        };
        (heights.len() == width * depth).then_some(HeightMap {
            width,
            depth,
            heights,
        })
    }

    /// The mesh in the body's frame: a vertex per sample that is not a hole, and per cell
    /// Godot's two triangles, split along the diagonal from `(x + 1, z)` to `(x, z + 1)`;
    /// a triangle with a hole (a NaN height, or any height that is not finite) at a
    /// corner is left out, as Godot Physics and Jolt leave it out.
    pub fn content(&self, xf: Transform3D) -> MeshContent {
        let (w, d) = (self.width, self.depth);
        let (ox, oz) = ((w - 1) as f32 * 0.5, (d - 1) as f32 * 0.5);
        let mut vertices = Vec::new();
        let mut ids = vec![u32::MAX; w * d];
        for z in 0..d {
            for x in 0..w {
                let h = self.heights[z * w + x];
                if h.is_finite() {
                    let p = Vector3::new(x as f32 - ox, h, z as f32 - oz);
                    ids[z * w + x] = vertices.len() as u32;
                    vertices.push(v3(xf * p));
                }
            }
        }
        let mut triangles = Vec::with_capacity(2 * (w - 1) * (d - 1));
        for z in 0..d - 1 {
            for x in 0..w - 1 {
                let (a, b) = (ids[z * w + x], ids[z * w + x + 1]);
                let (c, e) = (ids[(z + 1) * w + x], ids[(z + 1) * w + x + 1]);
                // Counter-clockwise seen from +y: (x, z), (x, z + 1), (x + 1, z) and
                // (x + 1, z), (x, z + 1), (x + 1, z + 1).
                for t in [[a, c, b], [b, c, e]] {
                    if t.iter().all(|&i| i != u32::MAX) {
                        triangles.push(core_front(xf, t));
                    }
                }
            }
        }
        finish(vertices, triangles)
    }
}

/// A Godot triangle (clockwise from the front) in the core's winding, kept facing the
/// same way under a mirroring transform.
fn godot_front(xf: Transform3D, [a, b, c]: [u32; 3]) -> [u32; 3] {
    core_front(xf, [a, c, b])
}

/// A counter-clockwise triangle, swapped when the transform mirrors.
fn core_front(xf: Transform3D, [a, b, c]: [u32; 3]) -> [u32; 3] {
    if xf.basis.determinant() < 0.0 {
        [a, c, b]
    } else {
        [a, b, c]
    }
}

/// Drops the triangles the core would refuse as degenerate (zero area, or a repeated
/// vertex: imported meshes carry them), counting them.
fn finish(vertices: Vec<Vec3>, triangles: impl IntoIterator<Item = [u32; 3]>) -> MeshContent {
    let mut degenerate = 0;
    let triangles = triangles
        .into_iter()
        .filter(|t| {
            let [a, b, c] = t.map(|i| vertices[i as usize]);
            let bad = is_degenerate(a, b, c);
            degenerate += usize::from(bad);
            !bad
        })
        .collect();
    MeshContent {
        vertices,
        triangles,
        degenerate,
    }
}
