//! The shape calls that change a world: shapes of every kind created on a body and
//! destroyed, shared convex hulls, and a shape's material, density, filter and area.
//! Each checks and applies through `shape.rs`'s `*_unrecorded` function, then records
//! itself; every shape kind is recorded as one `create_shape` record (body, def, content,
//! id), `create_box_shape` as the offset box it makes.

use crate::error::Result;
use crate::field::ShapeContent;
use crate::geometry::{Capsule, Cylinder, PlaneShape, Sphere};
use crate::id::{BodyId, HullId, ShapeId};
use crate::math::{Quat, Vec3};
use crate::shape::{Filter, RayShape, ShapeDef, ShapeGeometry};
use crate::world::World;

impl World {
    /// Creates a sphere shape on a body.
    pub fn create_sphere_shape(
        &mut self,
        body: BodyId,
        def: &ShapeDef,
        sphere: &Sphere,
    ) -> Result<ShapeId> {
        let id = self.create_sphere_shape_unrecorded(body, def, sphere)?;
        self.record_shape(body, def, id);
        Ok(id)
    }

    /// Creates a capsule shape on a body.
    pub fn create_capsule_shape(
        &mut self,
        body: BodyId,
        def: &ShapeDef,
        capsule: &Capsule,
    ) -> Result<ShapeId> {
        let id = self.create_capsule_shape_unrecorded(body, def, capsule)?;
        self.record_shape(body, def, id);
        Ok(id)
    }

    /// Creates a box of half-extents `half` centred on the body origin.
    pub fn create_box_shape(
        &mut self,
        body: BodyId,
        def: &ShapeDef,
        half: Vec3,
    ) -> Result<ShapeId> {
        self.create_offset_box_shape(body, def, half, Vec3::ZERO, Quat::IDENTITY)
    }

    /// Creates a box of half-extents `half`, centred at `center` and rotated by `rotation`
    /// in the body frame.
    pub fn create_offset_box_shape(
        &mut self,
        body: BodyId,
        def: &ShapeDef,
        half: Vec3,
        center: Vec3,
        rotation: Quat,
    ) -> Result<ShapeId> {
        let id = self.create_offset_box_shape_unrecorded(body, def, half, center, rotation)?;
        self.record_shape(body, def, id);
        Ok(id)
    }

    /// Builds a convex hull from points (body frame) that any number of hull shapes can
    /// share. Flat points (coplanar: a quad, a floor tile, three points) give a thin hull:
    /// the corners of their outline moved 2.5 mm (or 4 build tolerances, if more) to each
    /// side of their plane, as in [`crate::geometry::quickhull::build_hull`]. Refused for
    /// fewer than 3 or more than 64 points, non-finite, coincident or collinear input, a
    /// flat outline of more than 32 corners, or a full hull pool.
    pub fn create_hull(&mut self, points: &[Vec3]) -> Result<HullId> {
        let id = self.create_hull_unrecorded(points)?;
        self.rec(|j| j.create_hull(points, id));
        Ok(id)
    }

    /// Destroys a hull; refused while shapes use it.
    pub fn destroy_hull(&mut self, id: HullId) -> Result<()> {
        self.destroy_hull_unrecorded(id)?;
        self.rec(|j| j.destroy_hull(id));
        Ok(())
    }

    /// Creates a cylinder shape on a body: `half_height` and `radius` within (0, 1e6],
    /// centre within ±1e6 of the body origin, axis along `rotation · y`.
    pub fn create_cylinder_shape(
        &mut self,
        body: BodyId,
        def: &ShapeDef,
        cylinder: &Cylinder,
    ) -> Result<ShapeId> {
        let id = self.create_cylinder_shape_unrecorded(body, def, cylinder)?;
        self.record_shape(body, def, id);
        Ok(id)
    }

    /// Creates a plane shape on a static body: the half-space `normal · x <= offset` of
    /// the body frame is solid. `normal` must be finite with length in [1e-3, 1e6] (it is
    /// normalised), `offset` within ±1e6. Refused on a dynamic or kinematic body.
    pub fn create_plane_shape(
        &mut self,
        body: BodyId,
        def: &ShapeDef,
        plane: &PlaneShape,
    ) -> Result<ShapeId> {
        let id = self.create_plane_shape_unrecorded(body, def, plane)?;
        self.record_shape(body, def, id);
        Ok(id)
    }

    /// Creates a ray shape on a body (Godot's `SeparationRayShape3D`): the segment from
    /// `origin` along `direction` for `length` (body frame) pushes its body out of what it
    /// pierces, along the ray (or along the hit surface's normal with `slide_on_slope`),
    /// as deep as its tip is past the surface. It adds no mass; ray casts, shape queries,
    /// motion tests and explosions do not see it. `direction` must be finite with length
    /// in [1e-3, 1e6] (it is normalised), `length` within [0, 1e6], `origin` within ±1e6.
    pub fn create_ray_shape(
        &mut self,
        body: BodyId,
        def: &ShapeDef,
        ray: &RayShape,
    ) -> Result<ShapeId> {
        let id = self.create_ray_shape_unrecorded(body, def, ray)?;
        self.record_shape(body, def, id);
        Ok(id)
    }

    /// Creates a hull shape on a body.
    pub fn create_hull_shape(
        &mut self,
        body: BodyId,
        def: &ShapeDef,
        hull: HullId,
    ) -> Result<ShapeId> {
        let id = self.create_hull_shape_unrecorded(body, def, hull)?;
        self.record_shape(body, def, id);
        Ok(id)
    }

    /// Records a shape just created: its body, def, content (a shared hull or mesh by its
    /// id, else the geometry) and id.
    pub(super) fn record_shape(&mut self, body: BodyId, def: &ShapeDef, id: ShapeId) {
        let Ok(geometry) = self.shape_geometry(id) else {
            debug_assert!(false, "a shape just created is live");
            return;
        };
        let content = match geometry {
            ShapeGeometry::Hull(h) => ShapeContent::Hull(HullId {
                index: h + 1,
                generation: self.content.hulls[h as usize].generation,
                world: self.tag,
            }),
            ShapeGeometry::Mesh(m) => ShapeContent::Mesh(crate::id::MeshId {
                index: m + 1,
                generation: self.content.meshes[m as usize].generation,
                world: self.tag,
            }),
            _ => ShapeContent::Geometry(geometry),
        };
        self.rec(|j| j.create_shape(body, def, &content, id));
    }

    /// Destroys a shape and its contacts; the body's mass is recomputed.
    pub fn destroy_shape(&mut self, id: ShapeId) -> Result<()> {
        self.destroy_shape_unrecorded(id)?;
        self.rec(|j| j.destroy_shape(id));
        Ok(())
    }

    /// Lets a sensor detect the sensor shapes it overlaps too (those whose sensor events
    /// are enabled, its filter allowing), as it detects solid shapes, from the next step
    /// on: Godot's area monitoring other areas. Off when a shape is created. Refused with a
    /// state error for a shape that is no sensor. Journaled.
    pub fn set_sensor_detects_sensors(&mut self, id: ShapeId, detects: bool) -> Result<()> {
        self.set_sensor_detects_sensors_unrecorded(id, detects)?;
        self.rec(|j| j.set_sensor_detects_sensors(id, detects));
        Ok(())
    }

    /// Whether sensors detect this shape (a sensor shape: sensors that detect sensors),
    /// from the next step on: Box2D's `b2Shape_EnableSensorEvents`, Godot's monitorable
    /// for an area's shapes. Journaled.
    pub fn set_shape_enable_sensor_events(&mut self, id: ShapeId, enable: bool) -> Result<()> {
        self.set_shape_enable_sensor_events_unrecorded(id, enable)?;
        self.rec(|j| j.set_shape_enable_sensor_events(id, enable));
        Ok(())
    }

    /// Sets friction (≥ 0); contacts pick it up in the next step.
    pub fn set_shape_friction(&mut self, id: ShapeId, friction: f32) -> Result<()> {
        self.set_shape_friction_unrecorded(id, friction)?;
        self.rec(|j| j.set_shape_friction(id, friction));
        Ok(())
    }

    /// Sets restitution (≥ 0).
    pub fn set_shape_restitution(&mut self, id: ShapeId, restitution: f32) -> Result<()> {
        self.set_shape_restitution_unrecorded(id, restitution)?;
        self.rec(|j| j.set_shape_restitution(id, restitution));
        Ok(())
    }

    /// Makes the shape rough or not (see [`crate::ShapeDef::rough`]); contacts pick it up
    /// in the next step. Journaled.
    pub fn set_shape_rough(&mut self, id: ShapeId, rough: bool) -> Result<()> {
        self.set_shape_rough_unrecorded(id, rough)?;
        self.rec(|j| j.set_shape_rough(id, rough));
        Ok(())
    }

    /// Makes a triangle-mesh shape two-sided or not (see [`crate::ShapeDef::two_sided`]);
    /// contacts pick it up in the next step. Journaled.
    pub fn set_shape_two_sided(&mut self, id: ShapeId, two_sided: bool) -> Result<()> {
        self.set_shape_two_sided_unrecorded(id, two_sided)?;
        self.rec(|j| j.set_shape_two_sided(id, two_sided));
        Ok(())
    }

    /// Makes the shape absorbent or not (see [`crate::ShapeDef::absorbent`]); contacts pick
    /// it up in the next step. Journaled.
    pub fn set_shape_absorbent(&mut self, id: ShapeId, absorbent: bool) -> Result<()> {
        self.set_shape_absorbent_unrecorded(id, absorbent)?;
        self.rec(|j| j.set_shape_absorbent(id, absorbent));
        Ok(())
    }

    /// Sets rolling resistance (≥ 0).
    pub fn set_shape_rolling_resistance(&mut self, id: ShapeId, value: f32) -> Result<()> {
        self.set_shape_rolling_resistance_unrecorded(id, value)?;
        self.rec(|j| j.set_shape_rolling_resistance(id, value));
        Ok(())
    }

    /// Sets density (≥ 0) and recomputes the body's mass.
    pub fn set_shape_density(&mut self, id: ShapeId, density: f32) -> Result<()> {
        self.set_shape_density_unrecorded(id, density)?;
        self.rec(|j| j.set_shape_density(id, density));
        Ok(())
    }

    /// Sets the collision filter; existing contacts that the new filter forbids end in the
    /// next pair search.
    pub fn set_shape_filter(&mut self, id: ShapeId, filter: Filter) -> Result<()> {
        self.set_shape_filter_unrecorded(id, filter)?;
        self.rec(|j| j.set_shape_filter(id, filter));
        Ok(())
    }

    /// Makes a sensor shape an override region (area) that sets or adds gravity and
    /// damping for the bodies it overlaps, or with `None` a plain sensor again.
    pub fn set_shape_area(
        &mut self,
        id: ShapeId,
        area: Option<crate::area::AreaSettings>,
    ) -> Result<()> {
        self.set_shape_area_unrecorded(id, area)?;
        self.rec(|j| j.set_shape_area(id, &area));
        Ok(())
    }
}
