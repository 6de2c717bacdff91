//! Water volumes: box regions of fluid whose top face is the water surface. Each step,
//! before the solver, every water volume pushes the awake dynamic bodies in it up by the
//! weight of the fluid their shapes displace (at the centre of buoyancy, so a boat rights
//! itself) and drags them towards its current ([`WaterVolumeDef`] defines the forces).
//!
//! A volume's settings are its whole state; what it does to a body is computed each step
//! from the bodies' state alone.

pub(crate) mod encoding;
pub(crate) mod submerged;

use crate::body::{BodyType, NONE};
use crate::error::{Error, Result};
use crate::id::{BodyId, WaterVolumeId};
use crate::limits::{MAX_DENSITY, MAX_FORCE, MAX_SETTING, MAX_VELOCITY, clamp_abs};
use crate::math::{Aabb, DAabb, DVec3, Quat, Vec3};
use crate::shape::{Filter, Shape, ShapeGeometry};
use crate::world::World;
use submerged::{Submerged, Surface};

/// A water volume: an oriented box of fluid. Its top face (local +y) is the surface; the
/// shapes of dynamic bodies whose centre lies within the box's sides and above its
/// bottom float by the part of them below the surface (a shape sticking out of the sides
/// counts whole, one whose centre is outside not at all).
///
/// Per body and step, with `f` the submerged fraction (submerged volume over the volume of
/// the body's shapes this water acts on, at most 1), `V` the submerged volume, `g` the
/// world's gravity, `m` the body's mass and `I` its world inertia about its centre of mass:
///
/// - buoyancy `−density · V · g` at the centre of buoyancy (force and torque);
/// - linear drag `−m · min(linear_drag · f, 1/dt) · (v − flow)` at the centre of mass;
/// - angular drag `−min(angular_drag · f, 1/dt) · I · ω`.
///
/// The `1/dt` caps keep a drag from overshooting (it can at most bring the body to the
/// flow's velocity in one step). A body sinking at terminal speed moves at
/// `|g| · (1 − density · V / m) / linear_drag` (fully under).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WaterVolumeDef {
    /// Centre of the box, world space (within ±2^21 on create; rounded to the 2^-32 grid
    /// so that a shift of the origin moves it exactly, as bodies' positions).
    pub center: DVec3,
    /// Rotation of the box; the surface's normal is `rotation · +y`.
    pub rotation: Quat,
    /// Half-extents of the box (each in (0, 1e6]); the surface is `half_extents.y` above
    /// the centre.
    pub half_extents: Vec3,
    /// Fluid density, kg/m³ (in [0, 1e5]; default 1000, water).
    pub density: f32,
    /// Linear drag rate, 1/s (in [0, 1e6]; default 1): the fraction of the velocity
    /// relative to the flow a fully submerged body loses per second.
    pub linear_drag: f32,
    /// Angular drag rate, 1/s (in [0, 1e6]; default 1).
    pub angular_drag: f32,
    /// The current, m/s (each component within ±1e5).
    pub flow: Vec3,
    /// Which shapes the water acts on: those whose filter collides with this one.
    pub filter: Filter,
}

impl Default for WaterVolumeDef {
    fn default() -> WaterVolumeDef {
        WaterVolumeDef {
            center: DVec3::new(0.0, 0.0, 0.0),
            rotation: Quat::IDENTITY,
            half_extents: Vec3::new(10.0, 5.0, 10.0),
            density: 1000.0,
            linear_drag: 1.0,
            angular_drag: 1.0,
            flow: Vec3::ZERO,
            filter: Filter::default(),
        }
    }
}

impl WaterVolumeDef {
    /// Checks every field; returns the def with its rotation normalized.
    pub(crate) fn checked(&self) -> Result<WaterVolumeDef> {
        let center = crate::body::check_position("water center", self.center)?;
        let q =
            crate::error::check_rotation("water rotation", "water rotation norm²", self.rotation)?;
        for i in 0..3 {
            crate::error::check_range(
                "water half_extents",
                self.half_extents.get(i),
                f32::MIN_POSITIVE,
                MAX_SETTING,
                "within (0, 1e6]",
            )?;
        }
        crate::error::check_range(
            "water density",
            self.density,
            0.0,
            MAX_DENSITY,
            "within [0, 1e5]",
        )?;
        crate::error::check_range(
            "water linear_drag",
            self.linear_drag,
            0.0,
            MAX_SETTING,
            "within [0, 1e6]",
        )?;
        crate::error::check_range(
            "water angular_drag",
            self.angular_drag,
            0.0,
            MAX_SETTING,
            "within [0, 1e6]",
        )?;
        crate::limits::check_vec_abs(
            "water flow",
            self.flow,
            MAX_VELOCITY,
            "finite and within ±1e5 (each component)",
        )?;
        let mut def = *self;
        def.rotation = q;
        def.center = center;
        Ok(def)
    }

    /// The box's world bounds.
    fn bounds(&self) -> DAabb {
        let q = self.rotation;
        let h = self.half_extents;
        let ext = q.rotate(Vec3::new(h.x, 0.0, 0.0)).abs()
            + q.rotate(Vec3::new(0.0, h.y, 0.0)).abs()
            + q.rotate(Vec3::new(0.0, 0.0, h.z)).abs();
        DAabb::from_local(self.center, &Aabb::new(-ext, ext))
    }
}

/// What a water volume does to one body now: see [`World::water_buoyancy`].
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Buoyancy {
    /// Volume of the body's shapes below the surface, m³.
    pub submerged_volume: f32,
    /// Volume of the body's shapes the water acts on, m³.
    pub total_volume: f32,
    /// Centroid of the submerged part, world space (the body's centre of mass when
    /// nothing is submerged).
    pub center_of_buoyancy: DVec3,
}

/// One water volume slot.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct WaterVolume {
    pub(crate) alive: bool,
    pub(crate) generation: u32,
    /// State: the settings.
    pub(crate) def: WaterVolumeDef,
}

impl WaterVolume {
    /// A free slot of `generation`.
    pub(crate) fn dead(generation: u32) -> WaterVolume {
        WaterVolume {
            alive: false,
            generation,
            def: WaterVolumeDef::default(),
        }
    }
}

/// The surface in the frame at `origin` (world axes), and the box's centre in that frame.
fn surface_at(def: &WaterVolumeDef, origin: DVec3) -> (Surface, Vec3) {
    let center = (def.center - origin).to_f32();
    let normal = def.rotation.rotate(Vec3::new(0.0, 1.0, 0.0));
    let top = center + normal * def.half_extents.y;
    (
        Surface {
            normal,
            height: normal.dot(top),
        },
        center,
    )
}

/// The part of a body's shapes under a water volume, and the volume of the shapes it acts
/// on, in the frame at the body's position (world axes). Shapes in slot order.
fn body_submerged(
    def: &WaterVolumeDef,
    shapes: &[Shape],
    hulls: &[crate::shape::HullSlot],
    position: DVec3,
    rotation: Quat,
    shape_head: u32,
) -> (Submerged, f32) {
    let (surface, center) = surface_at(def, position);
    let h = def.half_extents;
    let mut acc = Submerged::default();
    let mut total = 0.0f32;
    let mut si = shape_head;
    while si != NONE {
        let s = &shapes[si as usize];
        si = s.next_in_body;
        if s.is_sensor || !def.filter.should_collide(&s.filter) {
            continue;
        }
        let (mid, part, volume) = match &s.geometry {
            ShapeGeometry::Sphere(sp) => {
                let c = rotation.rotate(sp.center);
                let r = sp.radius;
                (
                    c,
                    submerged::sphere(c, r, &surface),
                    crate::math::PI * r * r * r * (4.0 / 3.0),
                )
            }
            ShapeGeometry::Box(b) => {
                let c = rotation.rotate(b.center);
                let q = rotation * b.rotation;
                let v = 8.0 * b.half.x * b.half.y * b.half.z;
                (c, submerged::cuboid(b.half, q, c, &surface), v)
            }
            ShapeGeometry::Hull(slot) => {
                let hull = &hulls[*slot as usize].hull;
                (
                    rotation.rotate(hull.centroid),
                    submerged::hull(hull, rotation, &surface),
                    submerged::hull_volume(hull),
                )
            }
            ShapeGeometry::Capsule(c) => {
                let (a, b) = (rotation.rotate(c.center1), rotation.rotate(c.center2));
                let r = c.radius;
                let v = crate::math::PI * r * r * ((b - a).length() + r * (4.0 / 3.0));
                ((a + b) * 0.5, submerged::capsule(a, b, r, &surface), v)
            }
            ShapeGeometry::Cylinder(cy) => {
                let c = rotation.rotate(cy.center);
                let q = rotation * cy.rotation;
                let v = crate::math::PI * cy.radius * cy.radius * 2.0 * cy.half_height;
                (
                    c,
                    submerged::cylinder(c, q, cy.half_height, cy.radius, &surface),
                    v,
                )
            }
            // Meshes, height fields, voxel grids, planes and rays displace no water.
            ShapeGeometry::Mesh(_) | ShapeGeometry::Plane(_) | ShapeGeometry::Ray(_) => {
                continue;
            }
        };
        // Only shapes whose centre is within the box's sides and above its bottom.
        let local = def.rotation.inv_rotate(mid - center);
        if local.x.abs() > h.x || local.z.abs() > h.z || local.y < -h.y {
            continue;
        }
        total += volume;
        acc.add(part);
    }
    (acc, total)
}

impl World {
    pub(crate) fn water_slot(&self, id: WaterVolumeId) -> Result<usize> {
        self.water.live_slot("water volume", id.parts(), self.tag)
    }

    pub(crate) fn water_id(&self, slot: u32) -> WaterVolumeId {
        WaterVolumeId {
            index: slot + 1,
            generation: self.water[slot as usize].generation,
            world: self.tag,
        }
    }

    /// Wakes the dynamic bodies whose shapes' bounds reach into a water volume's box, in
    /// slot order (a resting body the water now holds must feel it).
    fn wake_bodies_in(&mut self, def: &WaterVolumeDef) {
        let region = def.bounds();
        for bi in 0..self.bodies.len() {
            let b = &self.bodies[bi];
            if !b.alive || !b.enabled || b.awake || b.body_type != BodyType::Dynamic {
                continue;
            }
            let mut si = b.shape_head;
            let mut inside = false;
            while si != NONE {
                let s = &self.shapes[si as usize];
                inside |= s.fat_aabb.overlaps(&region);
                si = s.next_in_body;
            }
            if inside {
                self.wake_body(bi as u32);
            }
        }
    }

    /// [`World::create_water_volume`] without its record.
    pub(crate) fn create_water_volume_unrecorded(
        &mut self,
        def: &WaterVolumeDef,
    ) -> Result<WaterVolumeId> {
        let def = def.checked()?;
        let capacity = self.water.capacity() as u64;
        let slot = self
            .water
            .take(
                |w| w.generation,
                |g| WaterVolume {
                    alive: true,
                    generation: g.wrapping_add(1).max(1),
                    def,
                },
            )
            .ok_or(Error::Capacity {
                what: "water_capacity",
                capacity,
            })?;
        self.water.count += 1;
        self.wake_bodies_in(&def);
        Ok(self.water_id(slot))
    }

    /// [`World::destroy_water_volume`] without its record.
    pub(crate) fn destroy_water_volume_unrecorded(&mut self, id: WaterVolumeId) -> Result<()> {
        let slot = self.water_slot(id)?;
        let def = self.water[slot].def;
        let generation = self.water[slot].generation;
        self.water[slot] = WaterVolume::dead(generation);
        let ok = self.water.free.push(slot as u32);
        debug_assert!(ok, "the free list holds every slot");
        self.water.count -= 1;
        // Floating bodies now fall.
        self.wake_bodies_in(&def);
        Ok(())
    }

    /// [`World::set_water_volume`] without its record.
    pub(crate) fn set_water_volume_unrecorded(
        &mut self,
        id: WaterVolumeId,
        def: &WaterVolumeDef,
    ) -> Result<()> {
        let slot = self.water_slot(id)?;
        let def = def.checked()?;
        let old = self.water[slot].def;
        self.water[slot].def = def;
        self.wake_bodies_in(&old);
        self.wake_bodies_in(&def);
        Ok(())
    }

    /// A water volume's settings (its rotation normalized).
    pub fn water_volume(&self, id: WaterVolumeId) -> Result<WaterVolumeDef> {
        Ok(self.water[self.water_slot(id)?].def)
    }

    /// The live water volumes, by slot.
    pub fn water_volume_ids(&self) -> impl Iterator<Item = WaterVolumeId> + '_ {
        self.water
            .iter()
            .enumerate()
            .filter(|(_, w)| w.alive)
            .map(|(i, _)| self.water_id(i as u32))
    }

    /// What a water volume does to a body's shapes where they are now: the submerged
    /// volume, the volume it acts on and the centre of buoyancy (for any body type). The
    /// step computes the same at the pose the body's velocity predicts for the end of the
    /// step, which damps a bob instead of feeding it.
    pub fn water_buoyancy(&self, water: WaterVolumeId, body: BodyId) -> Result<Buoyancy> {
        let def = &self.water[self.water_slot(water)?].def;
        let b = &self.bodies[self.body_slot(body)?];
        let (sub, total) = body_submerged(
            def,
            &self.shapes,
            &self.content.hulls,
            b.position,
            b.rotation,
            b.shape_head,
        );
        let c = if sub.volume > 0.0 {
            sub.centroid()
        } else {
            b.center_offset()
        };
        Ok(Buoyancy {
            submerged_volume: sub.volume,
            total_volume: total,
            center_of_buoyancy: b.position + c.to_f64(),
        })
    }

    /// Buoyancy and drag of every water volume (slot order) on the awake dynamic bodies in
    /// it, added to their force and torque accumulators for the solver to integrate this
    /// step. Bodies come from the broad phase's tree in its own order, which a restore
    /// changes; so each body is handled once per volume (when the tree reaches its first
    /// shape, in slot order, whose box meets the volume's) and gets one sum, computed over
    /// its shapes in slot order: the result does not depend on the tree.
    pub(crate) fn apply_water(&mut self, dt: f32) {
        let gravity = self.def.gravity;
        for wi in 0..self.water.len() {
            if !self.water[wi].alive {
                continue;
            }
            let def = self.water[wi].def;
            let region = def.bounds();
            let World {
                broad,
                bodies,
                shapes,
                content,
                ..
            } = self;
            let tree = &broad.movable;
            tree.query(&region, |_proxy, slot| {
                let s = &shapes[slot as usize];
                let b = &bodies[s.body as usize];
                if !b.alive || !b.enabled || !b.awake || b.body_type != BodyType::Dynamic {
                    return true;
                }
                // Only at the body's first shape (slot order) that the query reaches.
                let mut first = b.shape_head;
                while first != NONE {
                    let t = &shapes[first as usize];
                    if first == slot
                        || (t.tree == s.tree
                            && tree.is_proxy(t.proxy)
                            && tree.aabb(t.proxy).overlaps(&region))
                    {
                        break;
                    }
                    first = t.next_in_body;
                }
                if first != slot {
                    return true;
                }
                // At the pose the body's velocity brings it to by the end of the step: a
                // force held through the step's substeps from the pose at its start
                // pumps energy into a bobbing body (a floating box's bob grew when the
                // water got denser); from the predicted pose it is damped instead (the
                // submerged volume's spring sees `x + v dt`), by (ω dt)²/2 per step.
                let position = b.position + (b.linear_velocity * dt).to_f64();
                let rotation = b.rotation.integrate(b.angular_velocity, dt);
                let (sub, total) = body_submerged(
                    &def,
                    shapes,
                    &content.hulls,
                    position,
                    rotation,
                    b.shape_head,
                );
                if sub.volume <= 0.0 || total <= 0.0 {
                    return true;
                }
                let b = &mut bodies[s.body as usize];
                let fraction = crate::math::min(sub.volume / total, 1.0);
                let buoyancy = gravity * -(def.density * sub.volume);
                let arm = sub.centroid() - rotation.rotate(b.local_center);
                let inv_dt = if dt > 0.0 { 1.0 / dt } else { 0.0 };
                let kl = crate::math::min(def.linear_drag * fraction, inv_dt);
                let ka = crate::math::min(def.angular_drag * fraction, inv_dt);
                let drag = (b.linear_velocity - def.flow) * -(b.mass * kl);
                let ii = b.inv_inertia_local;
                let spin_drag = if ii.determinant() > 0.0 {
                    let inertia = ii.inverse().rotate_tensor(b.rotation);
                    inertia.mul_vec(b.angular_velocity) * -ka
                } else {
                    Vec3::ZERO
                };
                b.force = clamp_abs(b.force + (buoyancy + drag), MAX_FORCE);
                b.torque = clamp_abs(b.torque + (arm.cross(buoyancy) + spin_drag), MAX_FORCE);
                true
            });
        }
    }
}
