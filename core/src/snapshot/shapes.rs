//! The shape pool's and the hull pool's parts of the state encoding, and the geometry
//! encoding the journal shares.

use crate::codec::{Enc, Sink};
use crate::shape::{HullSlot, Shape, ShapeGeometry};

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
        ShapeGeometry::Mesh(m) => {
            e.u8(8);
            e.u32(*m);
        }
    }
}

/// Every hull slot (generation, alive; a live hull's points), then the free list. The
/// topology is derived.
pub(super) fn encode_hulls<S: Sink>(e: &mut Enc<S>, hulls: &[HullSlot], free: &[u32]) {
    e.u32(hulls.len() as u32);
    for h in hulls.iter() {
        e.u32(h.generation);
        e.bool(h.alive);
        if h.alive {
            e.u32(h.point_count);
            for p in &h.points[..h.point_count as usize] {
                e.vec3(*p);
            }
        }
    }
    e.free_list(free);
}

/// Every shape slot (generation, alive; a live shape's body, geometry, material, filter,
/// flags, area and broad-phase bounds), then the free list. Box hulls, mass and proxies
/// are derived.
pub(super) fn encode_shapes<S: Sink>(e: &mut Enc<S>, shapes: &[Shape], free: &[u32]) {
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
        e.bool(s.is_sensor);
        e.bool(s.enable_sensor_events);
        e.bool(s.enable_hit_events);
        e.bool(s.enable_pre_solve);
        crate::journal::encode_area(e, &s.area);
        e.daabb(&s.fat_aabb);
        e.bool(s.enlarged);
    }
    e.free_list(free);
}
