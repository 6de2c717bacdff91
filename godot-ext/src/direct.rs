//! Direct state objects: `PhysicsDirectBodyState3D` (what a body's state-sync and
//! force-integration callbacks receive) and `PhysicsDirectSpaceState3D` (queries).
//!
//! Each holds the server and a RID and reads or writes through the server's records, so
//! what it says is always the world's current state. They are called back while the
//! server is inside `flush_queries` (which releases its own borrow first) or from
//! scripts between ticks.

use std::sync::{Arc, Mutex};

use godot::classes::native::{
    PhysicsServer3DExtensionRayResult, PhysicsServer3DExtensionShapeRestInfo,
    PhysicsServer3DExtensionShapeResult,
};
use godot::classes::{
    IPhysicsDirectBodyState3DExtension, IPhysicsDirectSpaceState3DExtension, Object,
    PhysicsDirectBodyState3DExtension, PhysicsDirectSpaceState3D,
    PhysicsDirectSpaceState3DExtension,
};
use godot::meta::conv::RawPtr;
use godot::prelude::*;
use maul3d::math::Vec3;
use maul3d::math::max;

use crate::Maul3DPhysicsServer;
use crate::conv::{dv, gdv, gv, v3};
use crate::records::{GShape, Obj, Records, ReportedContact};
use crate::tracked::Epoch;

/// A body's state as Maul3D hands it to `_integrate_forces` and
/// `PhysicsServer3D.body_get_direct_state` (Godot's `PhysicsDirectBodyState3D`); made by
/// the Maul3D server, never by scripts.
#[derive(GodotClass)]
#[class(base = PhysicsDirectBodyState3DExtension, no_init, tool)]
pub struct Maul3DBodyState {
    server: Gd<Maul3DPhysicsServer>,
    body: Rid,
    /// The server's records epoch (`Tracked`): `snap` holds while it has not moved.
    epoch: Epoch,
    /// The body's state filled by the server before the state-sync callbacks
    /// (`Maul3DPhysicsServer::flush_spaces`), so their reads do not lock the server.
    snap: SnapSlot,
    base: Base<PhysicsDirectBodyState3DExtension>,
}

/// Where the server puts a body state's `BodySnap` (shared with the state object).
pub(crate) type SnapSlot = Arc<Mutex<Option<BodySnap>>>;

/// What a body state's getters read, taken from the records at one epoch: each field is
/// the same function of the records the live getter computes, so reading the snapshot
/// or the records gives the same bits while the epoch has not moved.
#[derive(Clone)]
pub(crate) struct BodySnap {
    epoch: u64,
    transform: Transform3D,
    linear_velocity: Vector3,
    angular_velocity: Vector3,
    sleeping: bool,
    total_gravity: Vector3,
    total_linear_damp: f32,
    total_angular_damp: f32,
    center_of_mass: Vector3,
    center_of_mass_local: Vector3,
    inverse_mass: f32,
    inverse_inertia: Vector3,
    inverse_inertia_tensor: Basis,
    constant_force: Vector3,
    constant_torque: Vector3,
    layer: u32,
    mask: u32,
    step: f32,
    contacts: Vec<ReportedContact>,
}

impl BodySnap {
    /// Object `o`'s state now, the records being at `epoch`.
    pub fn of(st: &Records, o: &Obj, epoch: u64) -> BodySnap {
        type S = Maul3DBodyState;
        BodySnap {
            epoch,
            transform: o.transform,
            linear_velocity: o.linear_velocity,
            angular_velocity: o.angular_velocity,
            sleeping: o.sleeping,
            total_gravity: S::space_gravity(st, o),
            total_linear_damp: S::total_linear_damp(st, o),
            total_angular_damp: S::total_angular_damp(st, o),
            center_of_mass: S::center_of_mass(st, o),
            center_of_mass_local: S::local_center(st, o),
            inverse_mass: S::inverse_mass(st, o),
            inverse_inertia: S::inverse_inertia(st, o),
            inverse_inertia_tensor: S::inverse_inertia_tensor(st, o),
            constant_force: o.constant_force,
            constant_torque: o.constant_torque,
            layer: o.layer,
            mask: o.mask,
            step: S::step(st, o),
            contacts: o.contacts.clone(),
        }
    }
}

impl Maul3DBodyState {
    pub fn create(
        server: Gd<Maul3DPhysicsServer>,
        body: Rid,
        epoch: Epoch,
    ) -> (Gd<Maul3DBodyState>, SnapSlot) {
        let snap = SnapSlot::default();
        let slot = snap.clone();
        let state = Gd::from_init_fn(|base| Maul3DBodyState {
            server,
            body,
            epoch,
            snap,
            base,
        });
        (state, slot)
    }

    fn read<R: Default>(&self, f: impl FnOnce(&Records, &Obj) -> R) -> R {
        let s = self.server.bind();
        match s.st.objs.get(&self.body.to_u64()) {
            Some(o) => f(&s.st, o),
            None => R::default(),
        }
    }

    /// `cached` of the snapshot while it holds (no lock on the server), else `live` of
    /// the records.
    fn get<R: Default>(
        &self,
        cached: impl FnOnce(&BodySnap) -> R,
        live: impl FnOnce(&Records, &Obj) -> R,
    ) -> R {
        if let Ok(g) = self.snap.lock()
            && let Some(s) = g.as_ref()
            && s.epoch == self.epoch.now()
        {
            return cached(s);
        }
        self.read(live)
    }

    /// A change to this body through its state. It changes this body's record and world
    /// body only, so only this state's snapshot is dropped (the others still hold: the
    /// epoch is left alone, and the state-sync callbacks of the other bodies keep reading
    /// theirs).
    fn write(&mut self, f: impl FnOnce(&mut Records, u64)) {
        if let Ok(mut g) = self.snap.lock() {
            *g = None;
        }
        let mut s = self.server.bind_mut();
        f(s.st.untracked(), self.body.to_u64());
    }

    fn contact<R: Default>(&self, i: i32, f: impl Fn(&ReportedContact) -> R) -> R {
        let i = i as usize;
        self.get(
            |s| s.contacts.get(i).map(&f).unwrap_or_default(),
            |_, o| o.contacts.get(i).map(&f).unwrap_or_default(),
        )
    }

    fn space_gravity(st: &Records, o: &Obj) -> Vector3 {
        o.space
            .and_then(|s| st.spaces.get(&s))
            .map_or(Vector3::ZERO, |s| gv(s.world.gravity()))
            * o.gravity_scale
    }

    fn total_linear_damp(st: &Records, o: &Obj) -> f32 {
        o.linear_damp
            + o.space
                .and_then(|s| st.spaces.get(&s))
                .map_or(0.0, |s| s.default_area.linear_damp)
    }

    fn total_angular_damp(st: &Records, o: &Obj) -> f32 {
        o.angular_damp
            + o.space
                .and_then(|s| st.spaces.get(&s))
                .map_or(0.0, |s| s.default_area.angular_damp)
    }

    fn center_of_mass(st: &Records, o: &Obj) -> Vector3 {
        o.rotation() * Self::local_center(st, o)
    }

    fn inverse_mass(_: &Records, o: &Obj) -> f32 {
        if o.is_dynamic() {
            1.0 / max(o.mass, 1e-6)
        } else {
            0.0
        }
    }

    fn inverse_inertia(st: &Records, o: &Obj) -> Vector3 {
        let i = Self::inertia(st, o);
        Vector3::new(inv(i.x), inv(i.y), inv(i.z))
    }

    fn inverse_inertia_tensor(st: &Records, o: &Obj) -> Basis {
        let i = Self::inertia(st, o);
        let b = o.rotation();
        b * Basis::from_scale(Vector3::new(inv(i.x), inv(i.y), inv(i.z))) * b.transposed()
    }

    fn step(st: &Records, o: &Obj) -> f32 {
        o.space
            .and_then(|s| st.spaces.get(&s))
            .map_or(1.0 / 60.0, |s| s.last_step)
    }

    fn impulse(
        &mut self,
        f: impl FnOnce(&mut maul3d::World, maul3d::BodyId) -> maul3d::Result<()>,
    ) {
        self.write(|st, rid| st.with_body(rid, f));
    }
}

#[godot_api]
impl IPhysicsDirectBodyState3DExtension for Maul3DBodyState {
    fn get_total_gravity(&self) -> Vector3 {
        self.get(|s| s.total_gravity, Self::space_gravity)
    }
    fn get_total_linear_damp(&self) -> f32 {
        self.get(|s| s.total_linear_damp, Self::total_linear_damp)
    }
    fn get_total_angular_damp(&self) -> f32 {
        self.get(|s| s.total_angular_damp, Self::total_angular_damp)
    }
    fn get_center_of_mass(&self) -> Vector3 {
        self.get(|s| s.center_of_mass, Self::center_of_mass)
    }
    fn get_center_of_mass_local(&self) -> Vector3 {
        self.get(|s| s.center_of_mass_local, Self::local_center)
    }
    fn get_principal_inertia_axes(&self) -> Basis {
        Basis::IDENTITY
    }
    fn get_inverse_mass(&self) -> f32 {
        self.get(|s| s.inverse_mass, Self::inverse_mass)
    }
    fn get_inverse_inertia(&self) -> Vector3 {
        self.get(|s| s.inverse_inertia, Self::inverse_inertia)
    }
    fn get_inverse_inertia_tensor(&self) -> Basis {
        self.get(|s| s.inverse_inertia_tensor, Self::inverse_inertia_tensor)
    }
    fn set_linear_velocity(&mut self, velocity: Vector3) {
        self.write(|st, rid| {
            st.body_set_state(
                rid,
                godot::classes::physics_server_3d::BodyState::LINEAR_VELOCITY,
                &velocity.to_variant(),
            )
        });
    }
    fn get_linear_velocity(&self) -> Vector3 {
        self.get(|s| s.linear_velocity, |_, o| o.linear_velocity)
    }
    fn set_angular_velocity(&mut self, velocity: Vector3) {
        self.write(|st, rid| {
            st.body_set_state(
                rid,
                godot::classes::physics_server_3d::BodyState::ANGULAR_VELOCITY,
                &velocity.to_variant(),
            )
        });
    }
    fn get_angular_velocity(&self) -> Vector3 {
        self.get(|s| s.angular_velocity, |_, o| o.angular_velocity)
    }
    fn set_transform(&mut self, transform: Transform3D) {
        self.write(|st, rid| {
            st.body_set_state(
                rid,
                godot::classes::physics_server_3d::BodyState::TRANSFORM,
                &transform.to_variant(),
            )
        });
    }
    fn get_transform(&self) -> Transform3D {
        self.get(|s| s.transform, |_, o| o.transform)
    }
    fn get_velocity_at_local_position(&self, local_position: Vector3) -> Vector3 {
        let (v, w, c) = self.get(
            |s| (s.linear_velocity, s.angular_velocity, s.center_of_mass),
            |st, o| {
                let c = Self::center_of_mass(st, o);
                (o.linear_velocity, o.angular_velocity, c)
            },
        );
        v + w.cross(local_position - c)
    }
    fn apply_central_impulse(&mut self, impulse: Vector3) {
        self.impulse(|w, b| w.apply_linear_impulse_to_center(b, v3(impulse)));
    }
    fn apply_impulse(&mut self, impulse: Vector3, position: Vector3) {
        let origin = self.get_transform().origin;
        self.impulse(|w, b| w.apply_linear_impulse(b, v3(impulse), dv(origin + position)));
    }
    fn apply_torque_impulse(&mut self, impulse: Vector3) {
        self.impulse(|w, b| w.apply_angular_impulse(b, v3(impulse)));
    }
    fn apply_central_force(&mut self, force: Vector3) {
        self.impulse(|w, b| w.apply_force_to_center(b, v3(force)));
    }
    fn apply_force(&mut self, force: Vector3, position: Vector3) {
        let origin = self.get_transform().origin;
        self.impulse(|w, b| w.apply_force(b, v3(force), dv(origin + position)));
    }
    fn apply_torque(&mut self, torque: Vector3) {
        self.impulse(|w, b| w.apply_torque(b, v3(torque)));
    }
    fn add_constant_central_force(&mut self, force: Vector3) {
        self.write(|st, rid| {
            if let Some(o) = st.objs.get_mut(&rid) {
                o.constant_force += force;
            }
            st.watch(rid);
        });
    }
    fn add_constant_force(&mut self, force: Vector3, position: Vector3) {
        self.write(|st, rid| {
            if let Some(o) = st.objs.get_mut(&rid) {
                o.constant_force += force;
                o.constant_torque += position.cross(force);
            }
            st.watch(rid);
        });
    }
    fn add_constant_torque(&mut self, torque: Vector3) {
        self.write(|st, rid| {
            if let Some(o) = st.objs.get_mut(&rid) {
                o.constant_torque += torque;
            }
            st.watch(rid);
        });
    }
    fn set_constant_force(&mut self, force: Vector3) {
        self.write(|st, rid| {
            if let Some(o) = st.objs.get_mut(&rid) {
                o.constant_force = force;
            }
            st.watch(rid);
        });
    }
    fn get_constant_force(&self) -> Vector3 {
        self.get(|s| s.constant_force, |_, o| o.constant_force)
    }
    fn set_constant_torque(&mut self, torque: Vector3) {
        self.write(|st, rid| {
            if let Some(o) = st.objs.get_mut(&rid) {
                o.constant_torque = torque;
            }
            st.watch(rid);
        });
    }
    fn get_constant_torque(&self) -> Vector3 {
        self.get(|s| s.constant_torque, |_, o| o.constant_torque)
    }
    fn set_sleep_state(&mut self, enabled: bool) {
        self.write(|st, rid| {
            st.body_set_state(
                rid,
                godot::classes::physics_server_3d::BodyState::SLEEPING,
                &enabled.to_variant(),
            )
        });
    }
    fn is_sleeping(&self) -> bool {
        self.get(|s| s.sleeping, |_, o| o.sleeping)
    }
    fn set_collision_layer(&mut self, layer: u32) {
        self.write(|st, rid| {
            if let Some(o) = st.objs.get_mut(&rid) {
                o.layer = layer;
            }
            st.update_filter(rid);
        });
    }
    fn get_collision_layer(&self) -> u32 {
        self.get(|s| s.layer, |_, o| o.layer)
    }
    fn set_collision_mask(&mut self, mask: u32) {
        self.write(|st, rid| {
            if let Some(o) = st.objs.get_mut(&rid) {
                o.mask = mask;
            }
            st.update_filter(rid);
        });
    }
    fn get_collision_mask(&self) -> u32 {
        self.get(|s| s.mask, |_, o| o.mask)
    }
    fn get_contact_count(&self) -> i32 {
        self.get(|s| s.contacts.len() as i32, |_, o| o.contacts.len() as i32)
    }
    fn get_contact_local_position(&self, contact_idx: i32) -> Vector3 {
        self.contact(contact_idx, |c| c.local_position)
    }
    fn get_contact_local_normal(&self, contact_idx: i32) -> Vector3 {
        self.contact(contact_idx, |c| c.local_normal)
    }
    fn get_contact_impulse(&self, contact_idx: i32) -> Vector3 {
        self.contact(contact_idx, |c| c.impulse)
    }
    fn get_contact_local_shape(&self, contact_idx: i32) -> i32 {
        self.contact(contact_idx, |c| c.local_shape)
    }
    fn get_contact_local_velocity_at_position(&self, contact_idx: i32) -> Vector3 {
        self.contact(contact_idx, |c| c.local_velocity)
    }
    fn get_contact_collider(&self, contact_idx: i32) -> Rid {
        Rid::new(self.contact(contact_idx, |c| c.collider))
    }
    fn get_contact_collider_position(&self, contact_idx: i32) -> Vector3 {
        self.contact(contact_idx, |c| c.collider_position)
    }
    fn get_contact_collider_id(&self, contact_idx: i32) -> u64 {
        self.contact(contact_idx, |c| c.collider_id)
    }
    fn get_contact_collider_object(&self, contact_idx: i32) -> Option<Gd<Object>> {
        let id = self.get_contact_collider_id(contact_idx);
        InstanceId::try_from_i64(id as i64).and_then(|id| Gd::try_from_instance_id(id).ok())
    }
    fn get_contact_collider_shape(&self, contact_idx: i32) -> i32 {
        self.contact(contact_idx, |c| c.collider_shape)
    }
    fn get_contact_collider_velocity_at_position(&self, contact_idx: i32) -> Vector3 {
        self.contact(contact_idx, |c| c.collider_velocity)
    }
    fn get_step(&self) -> f32 {
        self.get(|s| s.step, Self::step)
    }
    fn integrate_forces(&mut self) {
        // Gravity and damping for one step, as Godot's own body state does it.
        let step = self.get_step();
        let (g, ld, ad) = (
            self.get_total_gravity(),
            self.get_total_linear_damp(),
            self.get_total_angular_damp(),
        );
        let v = (self.get_linear_velocity() + g * step) * max(1.0 - step * ld, 0.0);
        let w = self.get_angular_velocity() * max(1.0 - step * ad, 0.0);
        self.set_linear_velocity(v);
        self.set_angular_velocity(w);
    }
    fn get_space_state(&mut self) -> Gd<PhysicsDirectSpaceState3D> {
        let space = self.read(|_, o| o.space.unwrap_or(0));
        let mut server = self.server.clone();
        let mut s = server.bind_mut();
        s.space_state(Rid::new(space)).upcast()
    }
}

/// The live object with this instance id, if any.
fn object(id: u64) -> Option<Gd<Object>> {
    InstanceId::try_from_i64(id as i64).and_then(|id| Gd::try_from_instance_id(id).ok())
}

fn inv(x: f32) -> f32 {
    if x > 0.0 { 1.0 / x } else { 0.0 }
}

impl Maul3DBodyState {
    fn local_center(st: &Records, o: &Obj) -> Vector3 {
        match (o.space.and_then(|s| st.spaces.get(&s)), &o.core) {
            (Some(s), Some(c)) => s
                .world
                .body_mass_data(c.body)
                .map_or(Vector3::ZERO, |m| gv(m.center)),
            _ => Vector3::ZERO,
        }
    }

    fn inertia(st: &Records, o: &Obj) -> Vector3 {
        match (o.space.and_then(|s| st.spaces.get(&s)), &o.core) {
            (Some(s), Some(c)) if o.is_dynamic() => {
                s.world.body_mass_data(c.body).map_or(Vector3::ZERO, |m| {
                    Vector3::new(m.inertia.cx.x, m.inertia.cy.y, m.inertia.cz.z)
                })
            }
            _ => Vector3::ZERO,
        }
    }
}

/// A space's queries (ray casts, shape casts, overlaps, rest info) as Maul3D answers them
/// (Godot's `PhysicsDirectSpaceState3D`, from `World3D.direct_space_state`); made by the
/// Maul3D server, never by scripts.
#[derive(GodotClass)]
#[class(base = PhysicsDirectSpaceState3DExtension, no_init, tool)]
pub struct Maul3DSpaceState {
    server: Gd<Maul3DPhysicsServer>,
    space: Rid,
    base: Base<PhysicsDirectSpaceState3DExtension>,
}

impl Maul3DSpaceState {
    pub fn create(server: Gd<Maul3DPhysicsServer>, space: Rid) -> Gd<Maul3DSpaceState> {
        Gd::from_init_fn(|base| Maul3DSpaceState {
            server,
            space,
            base,
        })
    }

    fn excluded(&self, rid: u64) -> bool {
        self.base().is_body_excluded_from_query(Rid::new(rid))
    }
}

/// Which objects a query sees, by Godot's rules: `mask` against the object's layer;
/// bodies and/or areas.
struct Seen {
    mask: u32,
    bodies: bool,
    areas: bool,
}

impl Seen {
    fn filter(&self) -> maul3d::QueryFilter {
        maul3d::QueryFilter {
            category_bits: u64::MAX,
            mask_bits: u64::from(self.mask),
            include_sensors: self.areas,
        }
    }

    fn accepts(&self, o: &Obj) -> bool {
        if o.is_area {
            self.areas && o.monitorable
        } else {
            self.bodies
        }
    }
}

#[godot_api]
impl IPhysicsDirectSpaceState3DExtension for Maul3DSpaceState {
    unsafe fn intersect_ray_rawptr(
        &mut self,
        from: Vector3,
        to: Vector3,
        collision_mask: u32,
        collide_with_bodies: bool,
        collide_with_areas: bool,
        hit_from_inside: bool,
        hit_back_faces: bool,
        _pick_ray: bool,
        result: RawPtr<*mut PhysicsServer3DExtensionRayResult>,
    ) -> bool {
        let seen = Seen {
            mask: collision_mask,
            bodies: collide_with_bodies,
            areas: collide_with_areas,
        };
        let server = self.server.clone();
        let s = server.bind();
        let Some(space) = s.st.spaces.get(&self.space.to_u64()) else {
            return false;
        };
        let mut hits = [maul3d::RayResult {
            shape: maul3d::ShapeId::NULL,
            body: maul3d::BodyId::NULL,
            point: maul3d::math::DVec3::ZERO,
            normal: Vec3::ZERO,
            fraction: 0.0,
        }; 64];
        let cast = |back: bool, out: &mut [maul3d::RayResult]| {
            let options = maul3d::RayOptions {
                hit_from_inside,
                hit_back_faces: back,
            };
            let n = space
                .world
                .cast_ray_all_with(dv(from), v3(to - from), &seen.filter(), &options, out)
                .unwrap_or(0);
            n.min(out.len())
        };
        let n = cast(hit_back_faces, &mut hits);
        // A ConcavePolygonShape3D without `backface_collision` is one-sided for rays too
        // (Godot Physics and Jolt never hit its back faces): its hits come from a cast
        // that passes back faces.
        let one_sided = |h: &maul3d::RayResult| {
            let (rid, i) = space.shape_owner(h.shape);
            s.st.objs
                .get(&rid)
                .and_then(|o| o.shapes.get(usize::try_from(i).ok()?))
                .and_then(|slot| s.st.shapes.get(&slot.shape))
                .is_some_and(GShape::is_one_sided_concave)
        };
        let mut front = hits;
        let split = hit_back_faces && hits[..n].iter().any(one_sided);
        let n_front = if split { cast(false, &mut front) } else { 0 };
        let hits_seen = hits[..n]
            .iter()
            .filter(|h| !split || !one_sided(h))
            .chain(front[..n_front].iter().filter(|h| one_sided(h)));
        let mut best: Option<(f32, &maul3d::RayResult, u64)> = None;
        for h in hits_seen {
            let rid = space.world.body_user_data(h.body).unwrap_or(0);
            let Some(o) = s.st.objs.get(&rid) else {
                continue;
            };
            if !seen.accepts(o) || self.excluded(rid) {
                continue;
            }
            if best.is_none_or(|(f, _, _)| h.fraction < f) {
                best = Some((h.fraction, h, rid));
            }
        }
        let Some((_, h, rid)) = best else {
            return false;
        };
        let o = &s.st.objs[&rid];
        // SAFETY: Godot passes a valid result struct for the duration of the call.
        let r = unsafe { &mut *result.ptr() };
        r.position = gdv(h.point);
        r.normal = gv(h.normal);
        r.rid = Rid::new(rid);
        r.collider_id = godot::classes::native::ObjectId { id: o.instance_id };
        if let Some(obj) = object(o.instance_id) {
            // SAFETY: the object is alive (just looked up) for the query's duration.
            unsafe { r.set_collider(obj) };
        }
        r.shape = space.shape_owner(h.shape).1;
        r.face_index = -1;
        true
    }

    unsafe fn intersect_point_rawptr(
        &mut self,
        position: Vector3,
        collision_mask: u32,
        collide_with_bodies: bool,
        collide_with_areas: bool,
        results: RawPtr<*mut PhysicsServer3DExtensionShapeResult>,
        max_results: i32,
    ) -> i32 {
        let seen = Seen {
            mask: collision_mask,
            bodies: collide_with_bodies,
            areas: collide_with_areas,
        };
        let server = self.server.clone();
        let s = server.bind();
        let Some(space) = s.st.spaces.get(&self.space.to_u64()) else {
            return 0;
        };
        let mut ids = [maul3d::ShapeId::NULL; 256];
        let n = space
            .world
            .overlap_point(dv(position), &seen.filter(), &mut ids)
            .min(ids.len());
        let mut count = 0;
        for id in &ids[..n] {
            if count >= max_results.max(0) as usize {
                break;
            }
            let (rid, shape) = space.shape_owner(*id);
            let Some(o) = s.st.objs.get(&rid) else {
                continue;
            };
            if !seen.accepts(o) || self.excluded(rid) {
                continue;
            }
            // SAFETY: Godot passes an array of `max_results` results.
            let r = unsafe { &mut *results.ptr().add(count) };
            r.rid = Rid::new(rid);
            r.collider_id = godot::classes::native::ObjectId { id: o.instance_id };
            if let Some(obj) = object(o.instance_id) {
                // SAFETY: the object is alive (just looked up) for the query's duration.
                unsafe { r.set_collider(obj) };
            }
            r.shape = shape;
            count += 1;
        }
        count as i32
    }

    unsafe fn intersect_shape_rawptr(
        &mut self,
        shape_rid: Rid,
        transform: Transform3D,
        _motion: Vector3,
        _margin: f32,
        collision_mask: u32,
        collide_with_bodies: bool,
        collide_with_areas: bool,
        result_count: RawPtr<*mut PhysicsServer3DExtensionShapeResult>,
        max_results: i32,
    ) -> i32 {
        let seen = Seen {
            mask: collision_mask,
            bodies: collide_with_bodies,
            areas: collide_with_areas,
        };
        let server = self.server.clone();
        let s = server.bind();
        let Some(space) = s.st.spaces.get(&self.space.to_u64()) else {
            return 0;
        };
        let Some((probe, rotation)) = s.st.query_probe(shape_rid.to_u64(), transform.basis) else {
            return 0;
        };
        let mut ids = [maul3d::ShapeId::NULL; 256];
        let n = match space.world.overlap_shape(
            &probe.shape(),
            dv(transform.origin),
            rotation,
            &seen.filter(),
            &mut ids,
        ) {
            Ok(n) => n.min(ids.len()),
            Err(_) => return 0,
        };
        let mut count = 0;
        for id in &ids[..n] {
            if count >= max_results.max(0) as usize {
                break;
            }
            let (rid, shape) = space.shape_owner(*id);
            let Some(o) = s.st.objs.get(&rid) else {
                continue;
            };
            if !seen.accepts(o) || self.excluded(rid) {
                continue;
            }
            // SAFETY: Godot passes an array of `max_results` results.
            let r = unsafe { &mut *result_count.ptr().add(count) };
            r.rid = Rid::new(rid);
            r.collider_id = godot::classes::native::ObjectId { id: o.instance_id };
            if let Some(obj) = object(o.instance_id) {
                // SAFETY: the object is alive (just looked up) for the query's duration.
                unsafe { r.set_collider(obj) };
            }
            r.shape = shape;
            count += 1;
        }
        count as i32
    }

    unsafe fn cast_motion_rawptr(
        &mut self,
        shape_rid: Rid,
        transform: Transform3D,
        motion: Vector3,
        _margin: f32,
        collision_mask: u32,
        collide_with_bodies: bool,
        collide_with_areas: bool,
        closest_safe: RawPtr<*mut f64>,
        closest_unsafe: RawPtr<*mut f64>,
        _info: RawPtr<*mut PhysicsServer3DExtensionShapeRestInfo>,
    ) -> bool {
        let seen = Seen {
            mask: collision_mask,
            bodies: collide_with_bodies,
            areas: collide_with_areas,
        };
        let server = self.server.clone();
        let s = server.bind();
        let Some(space) = s.st.spaces.get(&self.space.to_u64()) else {
            return false;
        };
        let Some((probe, rotation)) = s.st.query_probe(shape_rid.to_u64(), transform.basis) else {
            return false;
        };
        let hit = space.world.cast_shape(
            &probe.shape(),
            dv(transform.origin),
            rotation,
            v3(motion),
            &seen.filter(),
        );
        let fraction = match hit {
            Ok(Some(h)) => f64::from(h.fraction),
            Ok(None) => 1.0,
            Err(_) => return false,
        };
        // SAFETY: Godot passes valid out pointers for the duration of the call. They
        // point at `real_t` (f32 in a single-precision Godot), whatever the binding's
        // signature says: writing an f64 there is misaligned and overruns the value.
        unsafe {
            *(closest_safe.ptr() as *mut godot::builtin::real) = fraction as godot::builtin::real;
            *(closest_unsafe.ptr() as *mut godot::builtin::real) = fraction as godot::builtin::real;
        }
        true
    }

    unsafe fn collide_shape_rawptr(
        &mut self,
        shape_rid: Rid,
        transform: Transform3D,
        _motion: Vector3,
        margin: f32,
        collision_mask: u32,
        collide_with_bodies: bool,
        collide_with_areas: bool,
        results: RawPtr<*mut std::ffi::c_void>,
        max_results: i32,
        result_count: RawPtr<*mut i32>,
    ) -> bool {
        let seen = Seen {
            mask: collision_mask,
            bodies: collide_with_bodies,
            areas: collide_with_areas,
        };
        let server = self.server.clone();
        let s = server.bind();
        let Some(space) = s.st.spaces.get(&self.space.to_u64()) else {
            return false;
        };
        let Some((probe, rotation)) = s.st.query_probe(shape_rid.to_u64(), transform.basis) else {
            return false;
        };
        let mut pairs = [crate::records::EMPTY_PAIR; 64];
        let n = space
            .world
            .contact_points(
                &probe.shape(),
                dv(transform.origin),
                rotation,
                max(margin, 0.0),
                &seen.filter(),
                None,
                &mut pairs,
            )
            .unwrap_or(0)
            .min(pairs.len());
        let out = results.ptr() as *mut Vector3;
        let mut count = 0usize;
        for c in &pairs[..n] {
            if count >= max_results.max(0) as usize {
                break;
            }
            let rid = space.world.body_user_data(c.body).unwrap_or(0);
            let o = match s.st.objs.get(&rid) {
                Some(o) if seen.accepts(o) && !self.excluded(rid) => o,
                _ => continue,
            };
            // A ConcavePolygonShape3D without `backface_collision` does not collide with a
            // probe whose centre is behind the surface it touches (Godot Physics and Jolt
            // ignore back-facing triangles).
            let (_, i) = space.shape_owner(c.shape);
            let one_sided = usize::try_from(i)
                .ok()
                .and_then(|i| o.shapes.get(i))
                .and_then(|slot| s.st.shapes.get(&slot.shape))
                .is_some_and(GShape::is_one_sided_concave);
            let centre = dv(transform.origin);
            if one_sided && (centre - c.point_on_other).to_f32().dot(c.normal) < 0.0 {
                continue;
            }
            // SAFETY: Godot passes room for `max_results` pairs of points.
            unsafe {
                *out.add(2 * count) = gdv(c.point_on_query);
                *out.add(2 * count + 1) = gdv(c.point_on_other);
            }
            count += 1;
        }
        // SAFETY: a valid out pointer for the duration of the call.
        unsafe { *result_count.ptr() = count as i32 };
        count > 0
    }

    unsafe fn rest_info_rawptr(
        &mut self,
        shape_rid: Rid,
        transform: Transform3D,
        _motion: Vector3,
        margin: f32,
        collision_mask: u32,
        collide_with_bodies: bool,
        collide_with_areas: bool,
        rest_info: RawPtr<*mut PhysicsServer3DExtensionShapeRestInfo>,
    ) -> bool {
        let seen = Seen {
            mask: collision_mask,
            bodies: collide_with_bodies,
            areas: collide_with_areas,
        };
        let server = self.server.clone();
        let s = server.bind();
        let Some(space) = s.st.spaces.get(&self.space.to_u64()) else {
            return false;
        };
        let Some((probe, rotation)) = s.st.query_probe(shape_rid.to_u64(), transform.basis) else {
            return false;
        };
        let hit = space.world.rest_info(
            &probe.shape(),
            dv(transform.origin),
            rotation,
            max(margin, 0.0),
            &seen.filter(),
            None,
        );
        let Ok(Some(c)) = hit else {
            return false;
        };
        let rid = space.world.body_user_data(c.body).unwrap_or(0);
        let Some(o) = s.st.objs.get(&rid) else {
            return false;
        };
        // SAFETY: Godot passes a valid result struct for the duration of the call.
        let r = unsafe { &mut *rest_info.ptr() };
        r.point = gdv(c.point_on_other);
        r.normal = gv(c.normal);
        r.rid = Rid::new(rid);
        r.collider_id = godot::classes::native::ObjectId { id: o.instance_id };
        r.shape = space.shape_owner(c.shape).1;
        r.linear_velocity = gv(c.velocity);
        true
    }

    fn get_closest_point_to_object_volume(&self, _object: Rid, point: Vector3) -> Vector3 {
        crate::errors::warn_once(
            "closest point",
            "get_closest_point_to_object_volume is not supported yet (core: closest point on a body); the point itself is returned",
        );
        point
    }
}
