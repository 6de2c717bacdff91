//! Voxel chunks: a 16³ grid of one-byte materials (0 = empty), edited at run time, and the
//! axis-aligned boxes merged from its content that collision works with.
//!
//! Voxel `(x, y, z)` occupies `[x, x+1) · size × [y, y+1) · size × [z, z+1) · size` in the
//! chunk frame (the shape frame), so the chunk spans `[0, 16 · size]` on each axis.
//!
//! The voxels and the size are content, hence state: [`VoxelChunk::encode`] gives the bytes
//! a world hashes and snapshots. The merged boxes (and the voxel-to-box map and the solid
//! bounds) are recomputed from content alone by [`VoxelChunk::rebuild_boxes`], a fixed
//! greedy scan that gives the same list every time, so they are never state. Their order
//! is the order the scan finds them in, and a box's index in that list is its child index
//! for contacts. Edits mark the boxes stale until the next rebuild; reading boxes while
//! they are stale is a bug the debug build asserts on (the ray cast reads the voxels and
//! is exact either way).
//!
//! Every array is fixed-size inside the chunk: nothing allocates after create. The worst
//! case for the box list is every voxel its own box (a full chunk whose neighbours all
//! differ in material: 4096 boxes); a 3D checkerboard of solid and empty gives 2048.

use crate::collide::ray::RayInput;
use crate::error::{Error, Result};
use crate::math::{Aabb, Transform, Vec3, max};

/// Voxels along each edge of a chunk.
pub const CHUNK: usize = 16;
/// Voxels in a chunk.
pub const CHUNK_VOXELS: usize = CHUNK * CHUNK * CHUNK;
/// Most merged boxes a chunk can need: one per voxel.
pub const MAX_VOXEL_BOXES: usize = CHUNK_VOXELS;
/// Smallest and largest voxel edge, metres. The upper bound keeps a chunk (16 voxels)
/// within 1.6e5 m of its origin; the lower keeps merged boxes from being degenerate.
pub const MIN_VOXEL_SIZE: f32 = 1.0e-3;
/// See [`MIN_VOXEL_SIZE`].
pub const MAX_VOXEL_SIZE: f32 = 1.0e4;
/// Length of [`VoxelChunk::encode`]'s output: the size as little-endian `f32` bits, then
/// the 4096 materials in x-fastest order.
pub const VOXEL_ENCODED_LEN: usize = 4 + CHUNK_VOXELS;

/// `voxel_to_box` entry of a voxel no box covers (an empty one).
const NO_BOX: u16 = u16::MAX;

/// Index of voxel `(x, y, z)` in the content: x fastest, then y, then z.
#[inline(always)]
pub const fn voxel_index(x: usize, y: usize, z: usize) -> usize {
    x + CHUNK * (y + CHUNK * z)
}

/// A merged box: the voxels `min[i] <= v[i] < max[i]`, all of one material. `min` and
/// `max` are corners in voxel units (`max` within 1..=16), not inclusive voxel indices.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct VoxelBox {
    /// Lower corner, voxel units.
    pub min: [u8; 3],
    /// Upper corner, voxel units (one past the last voxel).
    pub max: [u8; 3],
    /// The material of every voxel in the box (never 0).
    pub material: u8,
}

/// Where a ray enters a chunk's solid voxels.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct VoxelRayHit {
    /// `t` of the entry point `origin + t · translation`, in `[0, max_fraction]`.
    pub fraction: f32,
    /// The entry point, in the common frame.
    pub point: Vec3,
    /// The entered face's outward unit normal (a chunk axis), in the common frame.
    pub normal: Vec3,
    /// The voxel entered.
    pub voxel: [u8; 3],
}

/// A 16³ voxel grid with its merged boxes. About 40 KiB (4 KiB of it content): keep it in
/// a world's content arrays (or a `Box`), not on a task thread's stack, and refill it in
/// place with [`reset`](Self::reset) or [`decode_into`](Self::decode_into).
#[derive(Clone, Debug)]
pub struct VoxelChunk {
    /// Content (state): one material per voxel, x fastest.
    voxels: [u8; CHUNK_VOXELS],
    /// Content (state): edge of one voxel, metres.
    size: f32,
    /// Derived from content: merged boxes in scan order.
    boxes: [VoxelBox; MAX_VOXEL_BOXES],
    box_count: u16,
    /// Derived: the box covering each voxel, or `NO_BOX`.
    voxel_to_box: [u16; CHUNK_VOXELS],
    /// Derived: corners of the solid content, voxel units (meaningful when boxes exist).
    solid_min: [u8; 3],
    solid_max: [u8; 3],
    /// Edited since the last rebuild: the derived fields do not match the content.
    stale: bool,
}

/// Names for the coordinates of each argument, so an error says which one broke.
const VOXEL_NAMES: [&str; 3] = ["voxel.x", "voxel.y", "voxel.z"];
const MIN_NAMES: [&str; 3] = ["min.x", "min.y", "min.z"];
const MAX_NAMES: [&str; 3] = ["max.x", "max.y", "max.z"];
const WITHIN_CHUNK: &str = "an integer within [0, 15]";

fn check_size(size: f32) -> Result<()> {
    crate::error::check_range(
        "voxel size",
        size,
        MIN_VOXEL_SIZE,
        MAX_VOXEL_SIZE,
        "finite and within [1e-3, 1e4] m",
    )
}

fn check_coords(names: &[&'static str; 3], v: [i32; 3]) -> Result<[usize; 3]> {
    let mut out = [0usize; 3];
    for i in 0..3 {
        if !(0..CHUNK as i32).contains(&v[i]) {
            return Err(Error::Argument {
                name: names[i],
                value: v[i] as f64,
                expected: WITHIN_CHUNK,
            });
        }
        out[i] = v[i] as usize;
    }
    Ok(out)
}

fn check_data(data: &[u8]) -> Result<()> {
    if data.len() != CHUNK_VOXELS {
        return Err(Error::Argument {
            name: "voxel data length",
            value: data.len() as f64,
            expected: "exactly 4096 (16³ materials, x fastest, then y, then z)",
        });
    }
    Ok(())
}

impl VoxelChunk {
    /// A chunk of voxels of edge `size` from `data`: 4096 materials, 0 for empty, voxel
    /// `(x, y, z)` at `data[x + 16·y + 256·z]`. The boxes are built before it returns.
    ///
    /// ```
    /// use maul3d::geometry::voxel::{VoxelChunk, CHUNK_VOXELS};
    ///
    /// let mut data = [0u8; CHUNK_VOXELS];
    /// data[..256].fill(3); // the bottom layer, z = 0
    /// let chunk = VoxelChunk::new(0.5, &data).unwrap();
    /// assert_eq!(chunk.boxes().len(), 1);
    /// assert_eq!(chunk.box_bounds(0).upper.z, 0.5);
    /// ```
    pub fn new(size: f32, data: &[u8]) -> Result<VoxelChunk> {
        check_size(size)?;
        check_data(data)?;
        let mut c = VoxelChunk::empty_unchecked(size);
        c.voxels.copy_from_slice(data);
        c.rebuild_boxes();
        Ok(c)
    }

    /// Checks what [`new`](Self::new) would refuse, without building.
    pub fn validate(size: f32, data: &[u8]) -> Result<()> {
        check_size(size)?;
        check_data(data)
    }

    /// An empty chunk of voxels of edge `size`.
    pub fn empty(size: f32) -> Result<VoxelChunk> {
        check_size(size)?;
        Ok(VoxelChunk::empty_unchecked(size))
    }

    fn empty_unchecked(size: f32) -> VoxelChunk {
        VoxelChunk {
            voxels: [0; CHUNK_VOXELS],
            size,
            boxes: [VoxelBox::default(); MAX_VOXEL_BOXES],
            box_count: 0,
            voxel_to_box: [NO_BOX; CHUNK_VOXELS],
            solid_min: [0; 3],
            solid_max: [0; 3],
            stale: false,
        }
    }

    /// Replaces size and content in place (no 40 KiB temporary) and rebuilds the boxes.
    /// Refused input changes nothing.
    pub fn reset(&mut self, size: f32, data: &[u8]) -> Result<()> {
        check_size(size)?;
        check_data(data)?;
        self.size = size;
        self.voxels.copy_from_slice(data);
        self.rebuild_boxes();
        Ok(())
    }

    /// Edge of one voxel, metres.
    #[inline]
    pub fn voxel_size(&self) -> f32 {
        self.size
    }

    /// The content: 4096 materials, x fastest.
    #[inline]
    pub fn content_bytes(&self) -> &[u8; CHUNK_VOXELS] {
        &self.voxels
    }

    /// Memory the chunk takes, content and derived boxes together, for a world's content
    /// budget. The same for every chunk.
    #[inline]
    pub const fn content_size_bytes() -> usize {
        core::mem::size_of::<VoxelChunk>()
    }

    /// Writes the state of the chunk, [`VOXEL_ENCODED_LEN`] bytes: the size as
    /// little-endian `f32` bits, then the content. The boxes are not state.
    pub fn encode(&self, out: &mut impl FnMut(&[u8])) {
        out(&self.size.to_bits().to_le_bytes());
        out(&self.voxels);
    }

    /// Reads what [`encode`](Self::encode) wrote, in place, and rebuilds the boxes.
    /// Refused (a format error, nothing changed) for a wrong length or a size out of range.
    pub fn decode_into(&mut self, bytes: &[u8]) -> Result<()> {
        if bytes.len() != VOXEL_ENCODED_LEN {
            return Err(Error::Format("voxel chunk: length is not 4100 bytes"));
        }
        let size = f32::from_bits(u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]));
        if check_size(size).is_err() {
            return Err(Error::Format("voxel chunk: voxel size out of range"));
        }
        self.reset(size, &bytes[4..])
    }

    /// The material of a voxel (0: empty). Refused for a coordinate outside [0, 15].
    pub fn get(&self, voxel: [i32; 3]) -> Result<u8> {
        let [x, y, z] = check_coords(&VOXEL_NAMES, voxel)?;
        Ok(self.voxels[voxel_index(x, y, z)])
    }

    /// Sets a voxel's material (0 clears it). Marks the boxes stale until
    /// [`rebuild_boxes`](Self::rebuild_boxes). Refused input changes nothing.
    pub fn set(&mut self, voxel: [i32; 3], material: u8) -> Result<()> {
        let [x, y, z] = check_coords(&VOXEL_NAMES, voxel)?;
        self.voxels[voxel_index(x, y, z)] = material;
        self.stale = true;
        Ok(())
    }

    /// Empties a voxel: `set(voxel, 0)`.
    pub fn clear(&mut self, voxel: [i32; 3]) -> Result<()> {
        self.set(voxel, 0)
    }

    /// Sets every voxel with `min[i] <= v[i] <= max[i]` (inclusive) to `material` (0
    /// clears). Each bound within [0, 15] and `min <= max`, else refused, nothing changed.
    pub fn fill_box(&mut self, min: [i32; 3], max: [i32; 3], material: u8) -> Result<()> {
        let lo = check_coords(&MIN_NAMES, min)?;
        let hi = check_coords(&MAX_NAMES, max)?;
        for i in 0..3 {
            if hi[i] < lo[i] {
                return Err(Error::Argument {
                    name: MAX_NAMES[i],
                    value: max[i] as f64,
                    expected: "at least the matching min (bounds are inclusive)",
                });
            }
        }
        for z in lo[2]..=hi[2] {
            for y in lo[1]..=hi[1] {
                let row = voxel_index(0, y, z);
                self.voxels[row + lo[0]..=row + hi[0]].fill(material);
            }
        }
        self.stale = true;
        Ok(())
    }

    /// Whether the content was edited since the boxes were last rebuilt.
    #[inline]
    pub fn boxes_stale(&self) -> bool {
        self.stale
    }

    /// Rebuilds the merged boxes, the voxel-to-box map and the solid bounds from content
    /// alone.
    ///
    /// Greedy and fixed: voxels are scanned in content order (x fastest); the first solid
    /// voxel no box covers yet starts a box, which grows along +x while the next voxel is
    /// solid, uncovered and of the same material, then along +y while the whole next row
    /// is, then along +z while the whole next layer is. The boxes are disjoint, of one
    /// material each, cover exactly the solid voxels, and come in the order found.
    pub fn rebuild_boxes(&mut self) {
        let voxels = &self.voxels;
        let owner = &mut self.voxel_to_box;
        owner.fill(NO_BOX);
        let mut count = 0usize;
        let mut lo = [CHUNK; 3];
        let mut hi = [0usize; 3];
        for start in 0..CHUNK_VOXELS {
            let m = voxels[start];
            if m == 0 || owner[start] != NO_BOX {
                continue;
            }
            let (x0, y0, z0) = (
                start % CHUNK,
                (start / CHUNK) % CHUNK,
                start / (CHUNK * CHUNK),
            );
            let free = |owner: &[u16; CHUNK_VOXELS], i: usize| voxels[i] == m && owner[i] == NO_BOX;
            let row_free = |owner: &[u16; CHUNK_VOXELS], x1: usize, y: usize, z: usize| {
                (x0..x1).all(|x| free(owner, voxel_index(x, y, z)))
            };
            let mut x1 = x0 + 1;
            while x1 < CHUNK && free(owner, voxel_index(x1, y0, z0)) {
                x1 += 1;
            }
            let mut y1 = y0 + 1;
            while y1 < CHUNK && row_free(owner, x1, y1, z0) {
                y1 += 1;
            }
            let mut z1 = z0 + 1;
            while z1 < CHUNK && (y0..y1).all(|y| row_free(owner, x1, y, z1)) {
                z1 += 1;
            }
            for z in z0..z1 {
                for y in y0..y1 {
                    let row = voxel_index(0, y, z);
                    owner[row + x0..row + x1].fill(count as u16);
                }
            }
            self.boxes[count] = VoxelBox {
                min: [x0 as u8, y0 as u8, z0 as u8],
                max: [x1 as u8, y1 as u8, z1 as u8],
                material: m,
            };
            count += 1;
            for (i, (a, b)) in [(x0, x1), (y0, y1), (z0, z1)].into_iter().enumerate() {
                lo[i] = lo[i].min(a);
                hi[i] = hi[i].max(b);
            }
        }
        debug_assert!(count <= MAX_VOXEL_BOXES);
        self.box_count = count as u16;
        self.solid_min = lo.map(|v| v.min(CHUNK) as u8);
        self.solid_max = hi.map(|v| v as u8);
        self.stale = false;
    }

    /// The merged boxes, in child-index order.
    #[inline]
    pub fn boxes(&self) -> &[VoxelBox] {
        debug_assert!(
            !self.stale,
            "voxel boxes read after an edit without a rebuild"
        );
        &self.boxes[..self.box_count as usize]
    }

    /// The index of the box covering a voxel, `None` for an empty voxel or a coordinate
    /// outside [0, 15].
    pub fn box_at(&self, voxel: [i32; 3]) -> Option<u16> {
        debug_assert!(
            !self.stale,
            "voxel boxes read after an edit without a rebuild"
        );
        let [x, y, z] = check_coords(&VOXEL_NAMES, voxel).ok()?;
        let b = self.voxel_to_box[voxel_index(x, y, z)];
        (b != NO_BOX).then_some(b)
    }

    /// Bounds of box `index` in the chunk frame, metres: its corners times the voxel size.
    #[inline]
    pub fn box_bounds(&self, index: u16) -> Aabb {
        let b = &self.boxes()[index as usize];
        self.corner_bounds(b.min, b.max)
    }

    #[inline]
    fn corner_bounds(&self, lo: [u8; 3], hi: [u8; 3]) -> Aabb {
        let s = self.size;
        let v = |c: [u8; 3]| Vec3::new(c[0] as f32 * s, c[1] as f32 * s, c[2] as f32 * s);
        Aabb::new(v(lo), v(hi))
    }

    /// Tight bounds of the solid voxels in the chunk frame, `None` when the chunk is empty.
    pub fn solid_bounds(&self) -> Option<Aabb> {
        (!self.boxes().is_empty()).then(|| self.corner_bounds(self.solid_min, self.solid_max))
    }

    /// Calls `out` with each box whose bounds touch or overlap `aabb` (chunk frame), in
    /// index order. Nothing for an `aabb` with a non-finite or inverted (lower > upper)
    /// bound.
    ///
    /// A small `aabb` walks only the voxels it may touch and collects their boxes in a
    /// 4096-bit set; a large one tests every box. Both test each candidate with the same
    /// exact bounds test, so the choice never changes the result.
    pub fn boxes_overlapping(&self, aabb: &Aabb, out: &mut impl FnMut(u16, &VoxelBox)) {
        let boxes = self.boxes();
        let (l, u) = (aabb.lower, aabb.upper);
        if !(l.is_valid() && u.is_valid()) || l.x > u.x || l.y > u.y || l.z > u.z {
            return;
        }
        // Candidate voxel range per axis, one voxel wider than the division says: a
        // rounded quotient is off by less than one voxel.
        let mut range = [(0usize, 0usize); 3];
        let mut volume = 1usize;
        for (i, r) in range.iter_mut().enumerate() {
            // `as` saturates far or infinite bounds; step off them saturating too.
            let a = ((l.get(i) / self.size) as i32).saturating_sub(1);
            let b = ((u.get(i) / self.size) as i32).saturating_add(1);
            if b < 0 || a >= CHUNK as i32 {
                return;
            }
            let (a, b) = (a.max(0) as usize, b.min(CHUNK as i32 - 1) as usize);
            *r = (a, b);
            volume *= b - a + 1;
        }
        if volume >= boxes.len() {
            for (k, b) in boxes.iter().enumerate() {
                if self.corner_bounds(b.min, b.max).overlaps(aabb) {
                    out(k as u16, b);
                }
            }
            return;
        }
        let mut seen = [0u64; MAX_VOXEL_BOXES / 64];
        for z in range[2].0..=range[2].1 {
            for y in range[1].0..=range[1].1 {
                for x in range[0].0..=range[0].1 {
                    let b = self.voxel_to_box[voxel_index(x, y, z)];
                    if b != NO_BOX {
                        seen[b as usize / 64] |= 1u64 << (b % 64);
                    }
                }
            }
        }
        for (w, &word) in seen.iter().enumerate() {
            let mut bits = word;
            while bits != 0 {
                let k = w * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                let b = &boxes[k];
                if self.corner_bounds(b.min, b.max).overlaps(aabb) {
                    out(k as u16, b);
                }
            }
        }
    }

    /// The solid voxel holding a chunk-frame point (voxels are half-open:
    /// `[x, x+1) · size`), `None` for an empty voxel or a point outside the chunk.
    pub fn solid_voxel_at(&self, p: Vec3) -> Option<[u8; 3]> {
        let mut c = [0u8; 3];
        for (i, ci) in c.iter_mut().enumerate() {
            let v = p.get(i);
            if !(v >= 0.0 && v < CHUNK as f32 * self.size) {
                return None;
            }
            *ci = self.cell_of(v, 1.0) as u8;
        }
        (self.voxels[voxel_index(c[0] as usize, c[1] as usize, c[2] as usize)] != 0).then_some(c)
    }

    /// The cell along one axis holding coordinate `v`, judged against the same plane
    /// products `k · size` the ray walk uses: `k·s <= v < (k+1)·s` when heading up or
    /// standing (`dir >= 0`), `k·s < v <= (k+1)·s` when heading down, so a point on a
    /// plane belongs to the cell the ray goes into. Clamped to [0, 15].
    fn cell_of(&self, v: f32, dir: f32) -> usize {
        let s = self.size;
        let mut k = ((v / s) as i32).clamp(0, CHUNK as i32 - 1);
        let plane = |k: i32| k as f32 * s;
        if dir < 0.0 {
            while k < CHUNK as i32 - 1 && plane(k + 1) < v {
                k += 1;
            }
            while k > 0 && plane(k) >= v {
                k -= 1;
            }
        } else {
            while k < CHUNK as i32 - 1 && plane(k + 1) <= v {
                k += 1;
            }
            while k > 0 && plane(k) > v {
                k -= 1;
            }
        }
        k as usize
    }

    /// The first point where the ray (in the common frame) enters the chunk's solid
    /// voxels, the chunk placed by `xf`.
    ///
    /// An exact voxel walk (Amanatides–Woo) in `f32`: the ray is clipped to the chunk, then
    /// steps cell by cell to whichever voxel plane it crosses next. Each crossing is
    /// computed afresh as `(k · size − origin) / direction` rather than accumulated, so
    /// its error does not grow along the walk; ties go to the lower axis (x, then y, then
    /// z). It reads the voxels, not the boxes, so it is exact even while they are stale.
    ///
    /// As for the other shapes (see `collide::ray`), a ray that starts inside solid
    /// content, or on a solid face heading in, has no entry there: it reports nothing
    /// for the solid it starts in, and hits only where it enters solid again after
    /// passing through an empty voxel. A zero translation never hits; non-finite input
    /// or output misses.
    pub fn ray_cast(&self, xf: &Transform, input: &RayInput) -> Option<VoxelRayHit> {
        let p = xf.apply_inv(input.origin);
        let d = xf.q.inv_rotate(input.translation);
        if !(p.is_valid() && d.is_valid() && input.max_fraction.is_finite()) {
            return None;
        }
        if d.x == 0.0 && d.y == 0.0 && d.z == 0.0 {
            return None;
        }
        let s = self.size;
        let extent = CHUNK as f32 * s;

        // Clip to the chunk. Strict: a ray starting on the chunk's face has no entry
        // plane, like a ray starting on a hull face.
        let mut lower = 0.0f32;
        let mut upper = input.max_fraction;
        let mut entry = 3usize;
        for i in 0..3 {
            let (pi, di) = (p.get(i), d.get(i));
            if di == 0.0 {
                if !(0.0..=extent).contains(&pi) {
                    return None;
                }
                continue;
            }
            let (near, far) = if di > 0.0 {
                (0.0, extent)
            } else {
                (extent, 0.0)
            };
            let t_near = (near - pi) / di;
            let t_far = (far - pi) / di;
            if t_near > lower {
                lower = t_near;
                entry = i;
            }
            if t_far < upper {
                upper = t_far;
            }
        }
        // Finite input keeps every t finite or infinite, never NaN.
        if lower > upper {
            return None;
        }

        // The first cell: on the entry axis the chunk's first layer, elsewhere the cell
        // holding the entry point, biased the way the ray heads.
        let mut cell = [0usize; 3];
        for (i, c) in cell.iter_mut().enumerate() {
            let di = d.get(i);
            *c = if i == entry {
                if di > 0.0 { 0 } else { CHUNK - 1 }
            } else {
                self.cell_of(p.get(i) + lower * di, di)
            };
        }
        let solid = |c: &[usize; 3]| self.voxels[voxel_index(c[0], c[1], c[2])] != 0;
        let hit = |t: f32, axis: usize, c: &[usize; 3]| {
            let fraction = max(t, lower);
            let mut n = Vec3::ZERO;
            let sign = if d.get(axis) > 0.0 { -1.0 } else { 1.0 };
            match axis {
                0 => n.x = sign,
                1 => n.y = sign,
                _ => n.z = sign,
            }
            let h = VoxelRayHit {
                fraction,
                point: input.origin.mul_add(fraction, input.translation),
                normal: xf.q.rotate(n),
                voxel: [c[0] as u8, c[1] as u8, c[2] as u8],
            };
            (h.fraction.is_finite() && h.point.is_valid() && h.normal.is_valid()).then_some(h)
        };
        let mut inside = false;
        if solid(&cell) {
            if entry < 3 {
                return hit(lower, entry, &cell);
            }
            inside = true;
        }

        // Parameter of the next plane crossed on each axis.
        let crossing = |i: usize, c: usize| {
            let di = d.get(i);
            if di > 0.0 {
                ((c + 1) as f32 * s - p.get(i)) / di
            } else if di < 0.0 {
                (c as f32 * s - p.get(i)) / di
            } else {
                f32::INFINITY
            }
        };
        let mut next = [
            crossing(0, cell[0]),
            crossing(1, cell[1]),
            crossing(2, cell[2]),
        ];
        // Each pass moves one axis one cell the way the ray heads: at most 3 · 16 passes.
        loop {
            let mut a = 0;
            if next[1] < next[a] {
                a = 1;
            }
            if next[2] < next[a] {
                a = 2;
            }
            let t = next[a];
            if t > upper {
                return None;
            }
            if d.get(a) > 0.0 {
                if cell[a] == CHUNK - 1 {
                    return None;
                }
                cell[a] += 1;
            } else {
                if cell[a] == 0 {
                    return None;
                }
                cell[a] -= 1;
            }
            next[a] = crossing(a, cell[a]);
            if solid(&cell) {
                if !inside {
                    return hit(t, a, &cell);
                }
            } else {
                inside = false;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::Quat;

    /// A fixed linear congruential sequence: the same numbers on every target.
    struct Lcg(u64);

    impl Lcg {
        fn bits(&mut self) -> u32 {
            self.0 = self
                .0
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (self.0 >> 32) as u32
        }

        /// Uniform in [0, 1).
        fn unit(&mut self) -> f32 {
            (self.bits() >> 8) as f32 / (1u32 << 24) as f32
        }

        fn below(&mut self, n: u32) -> u32 {
            self.bits() % n
        }

        fn vec(&mut self, lo: f32, hi: f32) -> Vec3 {
            let mut c = || lo + (hi - lo) * self.unit();
            Vec3::new(c(), c(), c())
        }
    }

    fn random_data(rng: &mut Lcg, density: f32, materials: u32) -> [u8; CHUNK_VOXELS] {
        let mut data = [0u8; CHUNK_VOXELS];
        for v in data.iter_mut() {
            if rng.unit() < density {
                *v = 1 + rng.below(materials) as u8;
            }
        }
        data
    }

    fn coords(i: usize) -> [usize; 3] {
        [i % CHUNK, (i / CHUNK) % CHUNK, i / (CHUNK * CHUNK)]
    }

    /// Checks voxel by voxel that the boxes cover exactly the solid voxels, each once,
    /// with the voxel's own material; that the map and the solid bounds agree; and that
    /// the boxes come in scan order of their first voxel. Returns the box count.
    fn assert_exact_cover(c: &VoxelChunk) -> usize {
        let mut cover = [0u32; CHUNK_VOXELS];
        let mut last_start = None;
        for (k, b) in c.boxes().iter().enumerate() {
            assert_ne!(b.material, 0, "box {k} is empty");
            let start = voxel_index(b.min[0] as usize, b.min[1] as usize, b.min[2] as usize);
            assert!(last_start < Some(start), "box {k} out of scan order");
            last_start = Some(start);
            for z in b.min[2]..b.max[2] {
                for y in b.min[1]..b.max[1] {
                    for x in b.min[0]..b.max[0] {
                        let i = voxel_index(x as usize, y as usize, z as usize);
                        assert_eq!(c.voxels[i], b.material, "box {k} at {x},{y},{z}");
                        assert_eq!(c.voxel_to_box[i], k as u16);
                        cover[i] += 1;
                    }
                }
            }
        }
        let mut lo = [CHUNK; 3];
        let mut hi = [0; 3];
        for (i, &n) in cover.iter().enumerate() {
            let solid = c.voxels[i] != 0;
            assert_eq!(n, solid as u32, "voxel {:?}", coords(i));
            if !solid {
                assert_eq!(c.voxel_to_box[i], NO_BOX);
            } else {
                let v = coords(i);
                for a in 0..3 {
                    lo[a] = lo[a].min(v[a]);
                    hi[a] = hi[a].max(v[a] + 1);
                }
            }
        }
        match c.solid_bounds() {
            None => assert!(c.voxels.iter().all(|&m| m == 0)),
            Some(b) => {
                let s = c.voxel_size();
                let f =
                    |v: [usize; 3]| Vec3::new(v[0] as f32 * s, v[1] as f32 * s, v[2] as f32 * s);
                assert_eq!(b, Aabb::new(f(lo), f(hi)));
            }
        }
        c.boxes().len()
    }

    #[test]
    fn merged_boxes_cover_exactly_the_solid_voxels_of_random_grids() {
        let mut rng = Lcg(0x5eed);
        let mut counts = Vec::new();
        for density in [0.05, 0.3, 0.6, 0.9, 0.99] {
            for materials in [1, 2, 7] {
                for _ in 0..4 {
                    let data = random_data(&mut rng, density, materials);
                    let c = VoxelChunk::new(0.25, &data).unwrap();
                    counts.push(assert_exact_cover(&c));
                }
            }
        }
        // Merging pays off: denser single-material grids need far fewer boxes than voxels.
        assert!(counts.iter().all(|&n| n <= MAX_VOXEL_BOXES));
    }

    #[test]
    fn a_full_chunk_is_one_box_and_an_empty_one_none() {
        let full = VoxelChunk::new(1.0, &[9u8; CHUNK_VOXELS]).unwrap();
        assert_eq!(
            full.boxes(),
            &[VoxelBox {
                min: [0; 3],
                max: [16; 3],
                material: 9
            }]
        );
        assert_eq!(
            full.solid_bounds(),
            Some(Aabb::new(Vec3::ZERO, Vec3::splat(16.0)))
        );
        let empty = VoxelChunk::empty(1.0).unwrap();
        assert_eq!(empty.boxes().len(), 0);
        assert_eq!(empty.solid_bounds(), None);
        assert_exact_cover(&full);
        assert_exact_cover(&empty);
    }

    #[test]
    fn checkerboards_fill_the_box_capacity_without_overflow() {
        let mut solid = [0u8; CHUNK_VOXELS];
        let mut two = [0u8; CHUNK_VOXELS];
        for (i, (s, t)) in solid.iter_mut().zip(two.iter_mut()).enumerate() {
            let [x, y, z] = coords(i);
            let odd = (x + y + z) % 2 == 1;
            *s = odd as u8;
            *t = 1 + odd as u8;
        }
        let c = VoxelChunk::new(0.5, &solid).unwrap();
        assert_eq!(assert_exact_cover(&c), 2048);
        // Every voxel solid and no neighbour of the same material: the true worst case.
        let c = VoxelChunk::new(0.5, &two).unwrap();
        assert_eq!(assert_exact_cover(&c), MAX_VOXEL_BOXES);
    }

    #[test]
    fn a_single_material_slab_merges_into_few_boxes() {
        let mut c = VoxelChunk::empty(1.0).unwrap();
        c.fill_box([0, 2, 0], [15, 4, 15], 5).unwrap();
        c.rebuild_boxes();
        assert_eq!(assert_exact_cover(&c), 1);
        assert_eq!(
            c.boxes()[0],
            VoxelBox {
                min: [0, 2, 0],
                max: [16, 5, 16],
                material: 5
            }
        );
        // One hole through the slab: the slab around it in 4 boxes (before, the rows
        // beside it, the rest of its layer, after).
        c.fill_box([7, 2, 9], [7, 4, 9], 0).unwrap();
        c.rebuild_boxes();
        assert_eq!(assert_exact_cover(&c), 4);
    }

    #[test]
    fn rebuilding_from_equal_content_gives_identical_box_lists() {
        let mut rng = Lcg(42);
        for _ in 0..10 {
            let data = random_data(&mut rng, 0.7, 3);
            let mut a = VoxelChunk::new(0.1, &data).unwrap();
            let before = a.boxes().to_vec();
            a.rebuild_boxes();
            assert_eq!(a.boxes(), &before[..]);
            let b = VoxelChunk::new(0.1, &data).unwrap();
            assert_eq!(b.boxes(), &before[..]);
            assert_eq!(b.voxel_to_box, a.voxel_to_box);
        }
    }

    #[test]
    fn edits_followed_by_a_rebuild_stay_exact_and_match_a_fresh_build() {
        let mut rng = Lcg(7);
        let data = random_data(&mut rng, 0.5, 3);
        let mut c = VoxelChunk::new(0.5, &data).unwrap();
        let coord = |rng: &mut Lcg| rng.below(16) as i32;
        for round in 0..200 {
            match rng.below(3) {
                0 => {
                    let v = [coord(&mut rng), coord(&mut rng), coord(&mut rng)];
                    let m = rng.below(4) as u8;
                    c.set(v, m).unwrap();
                    assert_eq!(c.get(v).unwrap(), m);
                }
                1 => {
                    let v = [coord(&mut rng), coord(&mut rng), coord(&mut rng)];
                    c.clear(v).unwrap();
                    assert_eq!(c.get(v).unwrap(), 0);
                }
                _ => {
                    let a = [coord(&mut rng), coord(&mut rng), coord(&mut rng)];
                    let b = [coord(&mut rng), coord(&mut rng), coord(&mut rng)];
                    let lo = [a[0].min(b[0]), a[1].min(b[1]), a[2].min(b[2])];
                    let hi = [a[0].max(b[0]), a[1].max(b[1]), a[2].max(b[2])];
                    let m = rng.below(4) as u8;
                    c.fill_box(lo, hi, m).unwrap();
                    for i in 0..CHUNK_VOXELS {
                        let v = coords(i).map(|x| x as i32);
                        if (0..3).all(|k| lo[k] <= v[k] && v[k] <= hi[k]) {
                            assert_eq!(c.voxels[i], m);
                        }
                    }
                }
            }
            assert!(c.boxes_stale());
            if round % 3 == 0 {
                c.rebuild_boxes();
                assert!(!c.boxes_stale());
                assert_exact_cover(&c);
                let fresh = VoxelChunk::new(0.5, c.content_bytes()).unwrap();
                assert_eq!(fresh.boxes(), c.boxes());
            }
        }
    }

    #[test]
    fn refused_edits_change_nothing_and_name_the_bound() {
        let mut rng = Lcg(3);
        let data = random_data(&mut rng, 0.5, 2);
        let mut c = VoxelChunk::new(0.5, &data).unwrap();
        let arg = |name: &'static str, value: f64| Error::Argument {
            name,
            value,
            expected: WITHIN_CHUNK,
        };
        assert_eq!(
            c.fill_box([0, 16, 0], [1, 1, 1], 1),
            Err(arg("min.y", 16.0))
        );
        assert_eq!(
            c.fill_box([0, 0, 0], [1, 1, -1], 1),
            Err(arg("max.z", -1.0))
        );
        let e = c.fill_box([3, 0, 0], [2, 5, 5], 1).unwrap_err();
        assert!(
            matches!(
                e,
                Error::Argument {
                    name: "max.x",
                    value: 2.0,
                    ..
                }
            ),
            "{e}"
        );
        assert_eq!(c.set([-1, 0, 0], 1), Err(arg("voxel.x", -1.0)));
        assert_eq!(c.clear([0, 0, 99]), Err(arg("voxel.z", 99.0)));
        assert_eq!(c.get([0, 16, 0]), Err(arg("voxel.y", 16.0)));
        let msg = c.set([0, 0, 16], 1).unwrap_err().to_string();
        assert!(
            msg.contains("voxel.z = 16") && msg.contains("[0, 15]"),
            "{msg}"
        );
        assert!(!c.boxes_stale());
        assert_eq!(c.content_bytes(), &data);

        let e = c.reset(0.5, &data[..4095]).unwrap_err();
        assert!(matches!(
            e,
            Error::Argument {
                name: "voxel data length",
                value: 4095.0,
                ..
            }
        ));
        for bad in [0.0, -1.0, 1.0e-4, 2.0e4, f32::NAN, f32::INFINITY] {
            let e = c.reset(bad, &data).unwrap_err();
            assert!(
                matches!(
                    e,
                    Error::Argument {
                        name: "voxel size",
                        ..
                    }
                ),
                "{bad}"
            );
            assert!(VoxelChunk::new(bad, &data).is_err());
        }
        assert_eq!(c.voxel_size(), 0.5);
        assert_eq!(c.content_bytes(), &data);
    }

    #[test]
    fn the_encoding_round_trips_and_damaged_bytes_are_refused() {
        let mut rng = Lcg(11);
        let data = random_data(&mut rng, 0.4, 5);
        let a = VoxelChunk::new(0.375, &data).unwrap();
        let mut bytes = Vec::new();
        a.encode(&mut |b: &[u8]| bytes.extend_from_slice(b));
        assert_eq!(bytes.len(), VOXEL_ENCODED_LEN);
        assert_eq!(&bytes[..4], &0.375f32.to_le_bytes());
        let mut b = VoxelChunk::empty(1.0).unwrap();
        b.decode_into(&bytes).unwrap();
        assert_eq!(b.voxel_size(), 0.375);
        assert_eq!(b.content_bytes(), a.content_bytes());
        assert_eq!(b.boxes(), a.boxes());
        assert!(matches!(b.decode_into(&bytes[1..]), Err(Error::Format(_))));
        let mut bad = bytes.clone();
        bad[..4].copy_from_slice(&f32::NAN.to_le_bytes());
        assert!(matches!(b.decode_into(&bad), Err(Error::Format(_))));
        assert_eq!(b.content_bytes(), a.content_bytes());
        assert_eq!(
            VoxelChunk::content_size_bytes(),
            core::mem::size_of::<VoxelChunk>()
        );
    }

    #[test]
    fn boxes_overlapping_takes_far_finite_bounds_without_overflow() {
        // 1e30 / 1e-3 saturates the voxel index cast; the step off it must not overflow.
        let c = VoxelChunk::new(1.0e-3, &[1u8; CHUNK_VOXELS]).unwrap();
        let mut found = 0;
        let far = Aabb::new(Vec3::splat(1.0e30), Vec3::splat(3.0e30));
        c.boxes_overlapping(&far, &mut |_, _| found += 1);
        assert_eq!(found, 0);
        let all = Aabb::new(Vec3::splat(-1.0e30), Vec3::splat(1.0e30));
        c.boxes_overlapping(&all, &mut |_, _| found += 1);
        assert_eq!(found, 1);
    }

    #[test]
    fn boxes_overlapping_gives_exactly_the_overlapping_boxes_in_index_order() {
        let mut rng = Lcg(99);
        let mut small = 0;
        for round in 0..60 {
            let data = random_data(&mut rng, 0.3 + 0.01 * round as f32, 3);
            let c = VoxelChunk::new(0.5, &data).unwrap();
            for _ in 0..20 {
                let centre = rng.vec(-1.0, 9.0);
                let half = rng.vec(0.0, if round % 2 == 0 { 0.8 } else { 5.0 });
                let aabb = Aabb::new(centre - half, centre + half);
                let expected: Vec<u16> = (0..c.boxes().len() as u16)
                    .filter(|&k| c.box_bounds(k).overlaps(&aabb))
                    .collect();
                let mut got = Vec::new();
                c.boxes_overlapping(&aabb, &mut |k, b: &VoxelBox| {
                    assert_eq!(*b, c.boxes()[k as usize]);
                    got.push(k);
                });
                assert_eq!(got, expected, "aabb {aabb:?}");
                small += (expected.len() < 8) as usize;
            }
        }
        assert!(small > 100, "the voxel walk path ran {small} times");
        // Touching counts, as for `Aabb::overlaps`; invalid boxes find nothing.
        let mut c = VoxelChunk::empty(1.0).unwrap();
        c.set([2, 2, 2], 1).unwrap();
        c.rebuild_boxes();
        let mut n = 0;
        let touch = Aabb::new(Vec3::new(3.0, 2.5, 2.5), Vec3::new(4.0, 2.6, 2.6));
        c.boxes_overlapping(&touch, &mut |_, _| n += 1);
        assert_eq!(n, 1);
        let nan = Aabb::new(Vec3::splat(f32::NAN), Vec3::splat(5.0));
        let inverted = Aabb::new(Vec3::splat(5.0), Vec3::splat(0.0));
        c.boxes_overlapping(&nan, &mut |_, _| n += 1);
        c.boxes_overlapping(&inverted, &mut |_, _| n += 1);
        assert_eq!(n, 1);
    }

    fn ray(origin: Vec3, translation: Vec3) -> RayInput {
        RayInput {
            origin,
            translation,
            max_fraction: 1.0,
        }
    }

    fn close(a: f32, b: f32) -> bool {
        (a - b).abs() <= 1.0e-5
    }

    #[test]
    fn axis_aligned_rays_hit_the_known_face() {
        let mut c = VoxelChunk::empty(0.5).unwrap();
        c.fill_box([4, 4, 4], [7, 7, 7], 2).unwrap(); // [2, 4] m on each axis
        let xf = Transform::IDENTITY;
        let cases = [
            (
                Vec3::new(-1.0, 3.0, 3.0),
                Vec3::new(10.0, 0.0, 0.0),
                0.3,
                -Vec3::X,
            ),
            (
                Vec3::new(3.0, 9.0, 3.0),
                Vec3::new(0.0, -10.0, 0.0),
                0.5,
                Vec3::Y,
            ),
            (
                Vec3::new(3.1, 2.9, -6.0),
                Vec3::new(0.0, 0.0, 16.0),
                0.5,
                -Vec3::Z,
            ),
            (
                Vec3::new(5.0, 3.0, 3.0),
                Vec3::new(-4.0, 0.0, 0.0),
                0.25,
                Vec3::X,
            ),
        ];
        for (o, t, fraction, normal) in cases {
            let h = c.ray_cast(&xf, &ray(o, t)).expect("hit");
            assert!(close(h.fraction, fraction), "{o:?}: {h:?}");
            assert_eq!(h.normal, normal);
            assert!((h.point - o.mul_add(fraction, t)).length() < 1e-5);
        }
        // The hit voxel is the face's voxel on the ray's line.
        let h = c.ray_cast(&xf, &ray(cases[0].0, cases[0].1)).unwrap();
        assert_eq!(h.voxel, [4, 6, 6]);
        // Too short, or pointing away: no hit.
        let short = RayInput {
            max_fraction: 0.29,
            ..ray(cases[0].0, cases[0].1)
        };
        assert!(c.ray_cast(&xf, &short).is_none());
        assert!(c.ray_cast(&xf, &ray(cases[0].0, -cases[0].1)).is_none());
        assert!(c.ray_cast(&xf, &ray(cases[0].0, Vec3::ZERO)).is_none());
        // Parallel to two axes but beside the block: miss.
        assert!(
            c.ray_cast(
                &xf,
                &ray(Vec3::new(-1.0, 4.5, 3.0), Vec3::new(10.0, 0.0, 0.0))
            )
            .is_none()
        );
    }

    #[test]
    fn oblique_rays_onto_a_slab_agree_with_the_plane_intersection() {
        // Slab y in [1, 2.5) · 0.25 m... i.e. voxels 1..=2 at size 0.25: top face y = 0.75.
        let mut c = VoxelChunk::empty(0.25).unwrap();
        c.fill_box([0, 1, 0], [15, 2, 15], 1).unwrap();
        let mut rng = Lcg(5);
        for _ in 0..500 {
            let o = Vec3::new(
                0.5 + 3.0 * rng.unit(),
                1.0 + 3.0 * rng.unit(),
                0.5 + 3.0 * rng.unit(),
            );
            let target = Vec3::new(0.2 + 3.6 * rng.unit(), 0.4, 0.2 + 3.6 * rng.unit());
            let t = (target - o) * 1.5;
            // Top face y = 0.75: o.y + f · t.y = 0.75.
            let f = (0.75 - o.y) / t.y;
            let h = c.ray_cast(&Transform::IDENTITY, &ray(o, t)).expect("hit");
            assert!(close(h.fraction, f), "{o:?} {t:?}: {} vs {f}", h.fraction);
            assert_eq!(h.normal, Vec3::Y);
            assert_eq!(h.voxel[1], 2);
        }
        // Rotated and moved with the chunk, the same ray in the common frame hits the same.
        let xf = Transform::new(
            Vec3::new(3.0, -2.0, 1.0),
            Quat::from_axis_angle(Vec3::new(1.0, 2.0, 3.0).normalize(), 0.7),
        );
        let (o, t) = (Vec3::new(1.0, 3.0, 2.0), Vec3::new(0.5, -4.0, 0.25));
        let local = c.ray_cast(&Transform::IDENTITY, &ray(o, t)).unwrap();
        let placed = c.ray_cast(&xf, &ray(xf.apply(o), xf.q.rotate(t))).unwrap();
        assert!(close(local.fraction, placed.fraction));
        assert!((placed.normal - xf.q.rotate(Vec3::Y)).length() < 1e-6);
        assert_eq!(local.voxel, placed.voxel);
    }

    #[test]
    fn a_ray_through_a_hole_passes() {
        let mut c = VoxelChunk::empty(1.0).unwrap();
        c.fill_box([0, 5, 0], [15, 5, 15], 1).unwrap();
        c.clear([8, 5, 3]).unwrap();
        let down = Vec3::new(0.0, -20.0, 0.0);
        assert!(
            c.ray_cast(&Transform::IDENTITY, &ray(Vec3::new(8.5, 12.0, 3.5), down))
                .is_none()
        );
        // Slightly oblique through the same hole, still clear of its walls.
        let o = Vec3::new(8.3, 12.0, 3.5);
        assert!(
            c.ray_cast(&Transform::IDENTITY, &ray(o, Vec3::new(0.2, -20.0, 0.0)))
                .is_none()
        );
        // Beside the hole, the slab's top face at y = 6.
        let h = c
            .ray_cast(&Transform::IDENTITY, &ray(Vec3::new(9.5, 12.0, 3.5), down))
            .unwrap();
        assert!(close(h.fraction, 0.3));
        assert_eq!(h.voxel, [9, 5, 3]);
    }

    #[test]
    fn a_ray_starting_inside_hits_only_where_it_enters_solid_again() {
        let mut c = VoxelChunk::empty(1.0).unwrap();
        c.fill_box([0, 0, 0], [15, 15, 3], 1).unwrap(); // z in [0, 4)
        c.fill_box([0, 0, 8], [15, 15, 9], 2).unwrap(); // z in [8, 10)
        let xf = Transform::IDENTITY;
        let o = Vec3::new(5.5, 5.5, 2.5);
        // Out through z = 4, in again at z = 8.
        let h = c.ray_cast(&xf, &ray(o, Vec3::new(0.0, 0.0, 11.0))).unwrap();
        assert!(close(h.fraction, 5.5 / 11.0));
        assert_eq!(h.normal, -Vec3::Z);
        assert_eq!(h.voxel, [5, 5, 8]);
        // Down, or sideways within the slab: never leaves solid, no entry.
        assert!(
            c.ray_cast(&xf, &ray(o, Vec3::new(0.0, 0.0, -5.0)))
                .is_none()
        );
        assert!(c.ray_cast(&xf, &ray(o, Vec3::new(7.0, 3.0, 0.0))).is_none());
        // A full chunk: inside everywhere.
        let full = VoxelChunk::new(1.0, &[1u8; CHUNK_VOXELS]).unwrap();
        assert!(
            full.ray_cast(&xf, &ray(o, Vec3::new(3.0, -2.0, 30.0)))
                .is_none()
        );
        // On the slab's top face heading in counts as inside (as on a hull face); heading
        // out it is not, and the upper layer is entered.
        let top = Vec3::new(5.5, 5.5, 4.0);
        assert!(
            c.ray_cast(&xf, &ray(top, Vec3::new(0.0, 0.0, -2.0)))
                .is_none()
        );
        let h = c
            .ray_cast(&xf, &ray(top, Vec3::new(0.0, 0.0, 8.0)))
            .unwrap();
        assert!(close(h.fraction, 0.5));
        // On the chunk's outer face heading in: inside too.
        assert!(
            c.ray_cast(&xf, &ray(Vec3::new(0.0, 5.5, 1.5), Vec3::X))
                .is_none()
        );
    }

    /// Entry of a ray into a closed box, in f64 (slab test), with the entry axis.
    fn box_entry(o: Vec3, t: Vec3, lo: Vec3, hi: Vec3) -> Option<(f64, usize, f64)> {
        let (mut near, mut far, mut axis, mut runner) =
            (f64::NEG_INFINITY, f64::INFINITY, 3, f64::NEG_INFINITY);
        for i in 0..3 {
            let (oi, ti) = (o.get(i) as f64, t.get(i) as f64);
            let (l, h) = (lo.get(i) as f64, hi.get(i) as f64);
            if ti == 0.0 {
                if oi < l || oi > h {
                    return None;
                }
                continue;
            }
            let (a, b) = ((l - oi) / ti, (h - oi) / ti);
            let (a, b) = if a < b { (a, b) } else { (b, a) };
            if a > near {
                runner = near;
                near = a;
                axis = i;
            } else if a > runner {
                runner = a;
            }
            far = crate::math::min_f64(far, b);
        }
        (near <= far).then_some((near, axis, runner))
    }

    #[test]
    fn random_rays_agree_with_the_nearest_voxel_entry() {
        let mut rng = Lcg(2024);
        let mut hits = 0;
        for round in 0..40 {
            let size = [0.1, 0.5, 1.0, 3.0][round % 4];
            let data = random_data(&mut rng, 0.02 + 0.01 * (round % 8) as f32, 2);
            let c = VoxelChunk::new(size, &data).unwrap();
            let extent = 16.0 * size;
            for _ in 0..200 {
                let o = rng.vec(-0.5 * extent, 1.5 * extent);
                // Start in an empty voxel (or outside), clear of the voxel planes.
                let q = o * (1.0 / size);
                let near_plane = (0..3).any(|i| {
                    let f = q.get(i) - (q.get(i) as i32) as f32;
                    !(0.001..=0.999).contains(&f)
                });
                if near_plane || c.solid_voxel_at(o).is_some() {
                    continue;
                }
                let t = rng.vec(-2.0 * extent, 2.0 * extent);
                let mut best: Option<(f64, usize, f64)> = None;
                for i in 0..CHUNK_VOXELS {
                    if c.voxels[i] == 0 {
                        continue;
                    }
                    let [x, y, z] = coords(i).map(|v| v as f32);
                    let lo = Vec3::new(x * size, y * size, z * size);
                    let hi = Vec3::new((x + 1.0) * size, (y + 1.0) * size, (z + 1.0) * size);
                    if let Some(e) = box_entry(o, t, lo, hi) {
                        if e.0 >= 0.0 && e.0 <= 1.0 && best.is_none_or(|b| e.0 < b.0) {
                            best = Some(e);
                        }
                    }
                }
                let got = c.ray_cast(&Transform::IDENTITY, &ray(o, t));
                match (best, got) {
                    (None, None) => {}
                    (Some((f, axis, runner)), Some(h)) => {
                        hits += 1;
                        assert!(
                            (h.fraction as f64 - f).abs() <= 1e-5,
                            "{o:?} {t:?}: {h:?} vs {f}"
                        );
                        if f - runner > 1e-4 {
                            assert_eq!(h.normal.get(axis).abs(), 1.0, "{o:?} {t:?}: {h:?}");
                        }
                    }
                    (want, got) => panic!("{o:?} {t:?}: want {want:?}, got {got:?}"),
                }
            }
        }
        assert!(hits > 500, "only {hits} hits");
    }

    #[test]
    fn solid_voxel_at_finds_the_half_open_cell() {
        let mut c = VoxelChunk::empty(0.5).unwrap();
        c.set([1, 2, 3], 4).unwrap();
        assert_eq!(c.solid_voxel_at(Vec3::new(0.5, 1.0, 1.5)), Some([1, 2, 3]));
        assert_eq!(
            c.solid_voxel_at(Vec3::new(0.99, 1.49, 1.99)),
            Some([1, 2, 3])
        );
        assert_eq!(c.solid_voxel_at(Vec3::new(1.0, 1.2, 1.7)), None);
        assert_eq!(c.solid_voxel_at(Vec3::new(-0.1, 1.2, 1.7)), None);
        assert_eq!(c.solid_voxel_at(Vec3::splat(f32::NAN)), None);
    }
}
