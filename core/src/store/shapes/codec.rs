//! The shape pool's part of the state encoding (encode, decode, and what is rebuilt from
//! it after a restore: box hulls, mass, body shape lists, broad-phase proxies), and the
//! geometry encoding the journal shares.

use crate::alloc::FixedVec;
use crate::body::{Body, NONE};
use crate::broad_phase::BroadPhase;
use crate::codec::{Dec, Enc, Sink, check, decode_free_list, put_slot};
use crate::content::MeshSlot;
use crate::error::{Error, Result};
use crate::geometry::hull::BoxHull;
use crate::geometry::{Capsule, Cylinder, PlaneShape, Sphere};
use crate::limits::{MAX_DENSITY, MAX_MATERIAL, check_nonneg};
use crate::math::Vec3;
use crate::shape::{BoxShape, Filter, HullSlot, RayShape, Shape, ShapeGeometry};
use crate::snapshot::is_live;

/// A shape's geometry: a kind byte, then its fields (hulls and meshes by slot).
pub(crate) fn encode_geometry<S: Sink>(e: &mut Enc<S>, g: &ShapeGeometry) {
    match g {
        ShapeGeometry::Sphere(s) => {
            e.u8(0);
            e.vec3(s.center);
            e.f32(s.radius);
        }
        ShapeGeometry::Capsule(c) => {
            e.u8(1);
            e.vec3(c.center1);
            e.vec3(c.center2);
            e.f32(c.radius);
        }
        ShapeGeometry::Box(b) => {
            e.u8(2);
            e.vec3(b.half);
            e.vec3(b.center);
            e.quat(b.rotation);
        }
        ShapeGeometry::Hull(h) => {
            e.u8(3);
            e.u32(*h);
        }
        ShapeGeometry::Cylinder(c) => {
            e.u8(4);
            e.vec3(c.center);
            e.quat(c.rotation);
            e.f32(c.half_height);
            e.f32(c.radius);
        }
        ShapeGeometry::Plane(p) => {
            e.u8(5);
            e.vec3(p.normal);
            e.f32(p.offset);
        }
        // Kind 6 only in worlds that hold a ray shape: every other world's bytes are as
        // before rays existed.
        ShapeGeometry::Ray(r) => {
            e.u8(6);
            e.vec3(r.origin);
            e.vec3(r.direction);
            e.f32(r.length);
            e.bool(r.slide_on_slope);
        }
        ShapeGeometry::Mesh(m) => {
            e.u8(8);
            e.u32(*m);
        }
    }
}

/// Every shape slot (generation, alive; a live shape's body, geometry, material, filter,
/// flags, area and broad-phase bounds), then the free list. Box hulls, mass and proxies
/// are derived.
pub(crate) fn encode_shapes<S: Sink>(e: &mut Enc<S>, shapes: &[Shape], free: &[u32]) {
    e.u32(shapes.len() as u32);
    for s in shapes.iter() {
        e.u32(s.generation);
        e.bool(s.alive);
        if !s.alive {
            continue;
        }
        e.u32(s.body);
        encode_geometry(e, &s.geometry);
        e.f32(s.density);
        e.f32(s.friction);
        e.f32(s.restitution);
        e.f32(s.rolling_resistance);
        e.u64(s.filter.category_bits);
        e.u64(s.filter.mask_bits);
        e.i32(s.filter.group_index);
        e.bool(s.enable_contact_events);
        // Bit 0: a sensor; bit 1: it detects sensors; bit 2: rough; bit 3: absorbent; bit
        // 4: two-sided (bits 1–4 are 0 in every world that has none such, so their bytes
        // and hashes are those of a plain flag).
        e.u8(s.is_sensor as u8
            | (s.detects_sensors as u8) << 1
            | (s.rough as u8) << 2
            | (s.absorbent as u8) << 3
            | (s.two_sided as u8) << 4);
        e.bool(s.enable_sensor_events);
        e.bool(s.enable_hit_events);
        e.bool(s.enable_pre_solve);
        crate::field::encode_area(e, &s.area);
        e.daabb(&s.fat_aabb);
        e.bool(s.enlarged);
    }
    e.free_list(free);
}

/// Reads what `encode_geometry` wrote, each size and offset within 1e6 and rotations unit
/// quaternions. Hull and mesh slots are the caller's to check.
pub(crate) fn decode_geometry(d: &mut Dec) -> Result<ShapeGeometry> {
    let size = |v: f32| v > 0.0 && v <= 1.0e6;
    let local = |v: Vec3| v.x.abs() <= 1.0e6 && v.y.abs() <= 1.0e6 && v.z.abs() <= 1.0e6;
    Ok(match d.u8()? {
        0 => {
            let s = Sphere {
                center: d.vec3()?,
                radius: d.f32()?,
            };
            check(size(s.radius) && local(s.center), "sphere out of range")?;
            ShapeGeometry::Sphere(s)
        }
        1 => {
            let c = Capsule {
                center1: d.vec3()?,
                center2: d.vec3()?,
                radius: d.f32()?,
            };
            check(
                size(c.radius) && local(c.center1) && local(c.center2),
                "capsule out of range",
            )?;
            ShapeGeometry::Capsule(c)
        }
        2 => {
            let b = BoxShape {
                half: d.vec3()?,
                center: d.vec3()?,
                rotation: d.quat()?,
            };
            check(
                size(b.half.x) && size(b.half.y) && size(b.half.z) && local(b.center),
                "box out of range",
            )?;
            check(
                b.rotation.is_normalized(1e-3),
                "box rotation is not a unit quaternion",
            )?;
            ShapeGeometry::Box(b)
        }
        3 => ShapeGeometry::Hull(d.u32()?),
        8 => ShapeGeometry::Mesh(d.u32()?),
        4 => {
            let c = Cylinder {
                center: d.vec3()?,
                rotation: d.quat()?,
                half_height: d.f32()?,
                radius: d.f32()?,
            };
            check(
                size(c.half_height) && size(c.radius) && local(c.center),
                "cylinder out of range",
            )?;
            check(
                c.rotation.is_normalized(1e-3),
                "cylinder rotation is not a unit quaternion",
            )?;
            ShapeGeometry::Cylinder(c)
        }
        5 => {
            let p = PlaneShape {
                normal: d.vec3()?,
                offset: d.f32()?,
            };
            let n2 = p.normal.dot(p.normal);
            check(
                (n2 - 1.0).abs() <= 1e-3 && p.offset.abs() <= 1.0e6,
                "plane out of range",
            )?;
            ShapeGeometry::Plane(p)
        }
        6 => {
            let r = RayShape {
                origin: d.vec3()?,
                direction: d.vec3()?,
                length: d.f32()?,
                slide_on_slope: d.bool()?,
            };
            let n2 = r.direction.dot(r.direction);
            check(
                local(r.origin) && (n2 - 1.0).abs() <= 1e-3 && r.length >= 0.0 && r.length <= 1.0e6,
                "ray out of range",
            )?;
            ShapeGeometry::Ray(r)
        }
        _ => return Err(Error::Format("unknown shape kind")),
    })
}

/// What the shapes decoder checks against: the slot words of bodies, hulls and content
/// decoded before it (each as long as its pool).
pub(crate) struct ShapeRefs<'a> {
    pub bodies: &'a [u64],
    pub hulls: &'a [u64],
    pub meshes: &'a [u64],
}

/// Reads what `encode_shapes` wrote into the pool (on commit); returns the slot count.
/// Leaves in `info` per slot: bit 0 live, bits 1..8 the geometry kind, bits 8..61 the
/// body slot, bit 61 a sensor.
pub(crate) fn decode_shapes(
    d: &mut Dec,
    commit: bool,
    shapes: &mut FixedVec<Shape>,
    free: &mut FixedVec<u32>,
    info: &mut [u64],
    refs: &ShapeRefs,
) -> Result<usize> {
    let len = d.u32()? as usize;
    crate::error::check_fits("shape_capacity", len as u64, info.len() as u64)?;
    for (i, word) in info[..len].iter_mut().enumerate() {
        let generation = d.u32()?;
        let alive = d.bool()?;
        let mut s = crate::shape::blank_shape(generation);
        if alive {
            decode_shape(d, &mut s, refs)?;
            *word = 1
                | (s.geometry.kind() as u64) << 1
                | (s.body as u64) << 8
                | (s.is_sensor as u64) << 61;
        }
        if commit {
            put_slot(shapes, i, s);
        }
    }
    decode_free_list(d, &mut info[..len], commit, free)?;
    if commit {
        shapes.truncate(len);
    }
    Ok(len)
}

/// A live shape's fields.
fn decode_shape(d: &mut Dec, s: &mut Shape, refs: &ShapeRefs) -> Result<()> {
    s.alive = true;
    s.body = d.u32()?;
    check(is_live(refs.bodies, s.body), "shape on a missing body")?;
    s.geometry = decode_geometry(d)?;
    if let ShapeGeometry::Hull(h) = s.geometry {
        check(is_live(refs.hulls, h), "shape on a missing hull")?;
    }
    if let ShapeGeometry::Mesh(m) = s.geometry {
        check(is_live(refs.meshes, m), "shape on a missing mesh")?;
    }
    if let ShapeGeometry::Plane(_) = s.geometry {
        check(
            refs.bodies[s.body as usize] & 2 == 2,
            "plane shape on a body that is not static",
        )?;
    }
    s.density = d.f32()?;
    s.friction = d.f32()?;
    s.restitution = d.f32()?;
    s.rolling_resistance = d.f32()?;
    let ok = |v: f32| check_nonneg("", v, MAX_MATERIAL, "").is_ok();
    check(
        check_nonneg("", s.density, MAX_DENSITY, "").is_ok()
            && ok(s.friction)
            && ok(s.restitution)
            && ok(s.rolling_resistance),
        "shape material out of range",
    )?;
    s.filter = Filter {
        category_bits: d.u64()?,
        mask_bits: d.u64()?,
        group_index: d.i32()?,
    };
    s.enable_contact_events = d.bool()?;
    let sensor = d.u8()?;
    check(
        sensor & 3 != 2 && sensor < 32,
        "a sensor byte is neither 0, 1 nor 3 (with bits 2–4 for rough, absorbent and two-sided)",
    )?;
    s.is_sensor = sensor & 1 == 1;
    s.detects_sensors = sensor & 2 == 2;
    s.rough = sensor & 4 == 4;
    s.absorbent = sensor & 8 == 8;
    s.two_sided = sensor & 16 == 16;
    // As `create_mesh_shape` refuses: a mesh, height field or voxel grid is no sensor.
    check(
        !(s.is_sensor && matches!(s.geometry, ShapeGeometry::Mesh(_))),
        "a mesh, height-field or voxel shape that is a sensor",
    )?;
    s.enable_sensor_events = d.bool()?;
    s.enable_hit_events = d.bool()?;
    s.enable_pre_solve = d.bool()?;
    s.area = crate::field::decode_area(d)?;
    check(
        s.area.is_none() || s.is_sensor,
        "an area that is not a sensor",
    )?;
    s.fat_aabb = d.daabb()?;
    let a = &s.fat_aabb;
    check(
        a.lower.x <= a.upper.x && a.lower.y <= a.upper.y && a.lower.z <= a.upper.z,
        "shape bounds inverted",
    )?;
    s.enlarged = d.bool()?;
    Ok(())
}

/// After the bodies' lists are cleared: each live shape's box hull, mesh bounds and mass,
/// its references on hulls and content, its place in its body's list (ascending slots),
/// its broad-phase proxy (in shape slot order) and the move buffer from the enlarged
/// flags. Returns how many shapes live.
pub(crate) fn rebuild_shapes(
    shapes: &mut [Shape],
    bodies: &mut [Body],
    hulls: &mut [HullSlot],
    meshes: &mut [MeshSlot],
    broad: &mut BroadPhase,
) -> u32 {
    broad.statics.clear();
    broad.movable.clear();
    broad.moved.clear();
    broad.filters = Default::default();
    // Shapes in descending slot order, each prepended: lists end up ascending.
    for s in (0..shapes.len()).rev() {
        if !shapes[s].alive {
            continue;
        }
        let shape = &mut shapes[s];
        shape.box_hull = match shape.geometry {
            ShapeGeometry::Box(b) => BoxHull::new(b.half, b.center, b.rotation),
            _ => BoxHull::default(),
        };
        if let ShapeGeometry::Hull(h) = shape.geometry {
            hulls[h as usize].ref_count += 1;
        }
        shape.mesh_bounds = Default::default();
        if let ShapeGeometry::Mesh(m) = shape.geometry {
            meshes[m as usize].ref_count += 1;
            shape.mesh_bounds =
                crate::content::mesh_data(meshes, m).map_or(Default::default(), |d| d.bounds());
        }
        shape.mass_data =
            crate::shape::compute_mass(&shape.geometry, &shape.box_hull, hulls, shape.density);
        let body = shape.body as usize;
        shape.next_in_body = bodies[body].shape_head;
        bodies[body].shape_head = s as u32;
        bodies[body].shape_count += 1;
    }
    // Proxies in shape slot order (the trees' shape differs from before; nothing depends
    // on it), and the move buffer from the enlarged flags.
    let mut count = 0;
    for (s, shape) in shapes.iter_mut().enumerate() {
        if !shape.alive {
            continue;
        }
        count += 1;
        let body = &bodies[shape.body as usize];
        let tree = crate::broad_phase::tree_for(body.body_type);
        if body.enabled && !shape.is_sensor {
            broad.filters.note(&shape.filter);
        }
        shape.proxy = if body.enabled {
            broad
                .tree_mut(tree)
                .create_proxy(shape.fat_aabb, s as u32)
                .unwrap_or(NONE)
        } else {
            NONE
        };
        shape.tree = tree;
        if shape.enlarged {
            let ok = broad.moved.push(s as u32);
            debug_assert!(ok);
        }
    }
    count
}

#[cfg(test)]
mod tests {
    use crate::body::BodyDef;
    use crate::codec::{Fnv, Sink};
    use crate::def::WorldDef;
    use crate::error::Error;
    use crate::math::Vec3;
    use crate::shape::ShapeDef;
    use crate::snapshot::SNAPSHOT_HEADER_SIZE;
    use crate::world::World;

    /// A world with one mesh shape on a static body, its contact-event and sensor-event
    /// flags (the shape fields just before and just after `is_sensor`) as given.
    fn mesh_world(enable_contact_events: bool, enable_sensor_events: bool) -> World {
        let mut w = World::new(&WorldDef::default()).unwrap();
        let body = w.create_body(&BodyDef::default()).unwrap();
        let v = [Vec3::ZERO, Vec3::X, Vec3::Z];
        let mesh = w.create_mesh(&v, &[[0, 2, 1]]).unwrap();
        let def = ShapeDef {
            enable_contact_events,
            enable_sensor_events,
            ..Default::default()
        };
        w.create_mesh_shape(body, &def, mesh).unwrap();
        w
    }

    fn snapshot(w: &World) -> Vec<u8> {
        let mut buf = vec![0u8; w.snapshot_size()];
        let n = w.snapshot(&mut buf).unwrap();
        buf.truncate(n);
        buf
    }

    /// Payload bytes at which two snapshots of the same layout differ.
    fn differing(a: &[u8], b: &[u8]) -> Vec<usize> {
        (SNAPSHOT_HEADER_SIZE..a.len())
            .filter(|&i| a[i] != b[i])
            .collect()
    }

    /// Shape creation refuses a mesh, height-field or voxel shape that is a sensor; a
    /// snapshot that holds one (hand-edited, checksum patched) is refused by restore as a
    /// format error naming it, and the world restored into is left as it was.
    #[test]
    fn restore_refuses_a_mesh_shape_that_is_a_sensor() {
        let plain = snapshot(&mesh_world(false, false));
        // The sensor flag's byte lies between the two flags around it.
        let before = differing(&plain, &snapshot(&mesh_world(true, false)));
        let after = differing(&plain, &snapshot(&mesh_world(false, true)));
        assert_eq!(before.len(), 1, "{before:?}");
        assert_eq!(after, [before[0] + 2]);
        let at = before[0] + 1;
        assert_eq!(plain[at], 0, "not a sensor");
        let mut bad = plain.clone();
        bad[at] = 1;
        let mut sum = Fnv::new();
        sum.put(&bad[SNAPSHOT_HEADER_SIZE..]);
        bad[24..32].copy_from_slice(&sum.finish().to_le_bytes());

        let mut w = mesh_world(false, false);
        w.step(1.0 / 60.0, 4).unwrap();
        let hash = w.hash();
        assert!(
            matches!(w.restore(&bad), Err(Error::Format(why)) if why.contains("sensor")),
            "{:?}",
            w.restore(&bad)
        );
        assert_eq!(w.hash(), hash);
        // The snapshot as taken restores.
        w.restore(&plain).unwrap();
    }
}
