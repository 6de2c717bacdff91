//! Soft bodies: Godot's `SoftBody3D` through the server's `soft_body_*` calls. Each soft
//! body RID has a record here (`Soft`); while it has a space and a mesh it is one `maul3d`
//! soft body in that space's world, made from the record and changed through the core's
//! setters (so every change is journaled, snapshotted and hashed with the world).
//!
//! - **Mesh.** `soft_body_set_mesh` reads surface 0 of the mesh (`ARRAY_VERTEX`,
//!   `ARRAY_INDEX`; without indices every three vertices are a triangle). Godot's meshes
//!   repeat a vertex where its UVs or normals part (a `SphereMesh`'s seam and poles), so
//!   render vertices are welded by position into particles, numbered in the order the
//!   triangles first use them, with a map from each render vertex to its particle, as
//!   Godot's Jolt backend does (`jolt_soft_body_3d.cpp`); triangles that weld to fewer
//!   than three particles are left out. Unlike Jolt, which welds exactly equal positions,
//!   vertices within 1e-6 of the mesh's extent weld: a `SphereMesh` puts its seam and its
//!   south pole's ring a few 1e-16 apart (its `sin(TAU)`), and a ball welded exactly would
//!   not be closed, so it would hold no pressure or volume.
//! - **Transform.** `soft_body_set_transform` moves the particles by the transform
//!   (scale dropped), relative to where they are — as Jolt and Godot Physics do it:
//!   `SoftBody3D` sends its global transform once, after its mesh, then makes itself
//!   top-level at the identity and draws the particles in global coordinates. Particles
//!   still at their rest places (made or teleported, not stepped since) move with one
//!   core teleport (`set_soft_body_transform`); otherwise each particle is moved and
//!   stopped. The identity changes nothing (`SoftBody3D` sends one on its first drawn
//!   frame; both engines stop the particles there).
//! - **Parameters** map onto `SoftBodySettings`: `simulation_precision` → `substeps`
//!   (1 to 64), `total_mass` → `mass` (within [10⁻³, 10⁶] kg; 1 kg by default, Godot
//!   Physics' — Jolt's 0 means 1 kg per vertex), `linear_stiffness` k (clamped to [0, 1])
//!   → `edge_compliance` = 1/s with Jolt's stiffness s = max(k³·10⁵, 10⁻⁶),
//!   `pressure_coefficient` → `pressure` (n·R·T, as Jolt's), `damping_coefficient` →
//!   `damping` (1/s), `drag_coefficient` → `drag`; particles of Jolt's default radius
//!   (0.01 m) and friction (1); no bend constraints (`NO_BENDS`: Jolt's Godot backend
//!   makes none either); the core's defaults for the rest (free particles kept
//!   within 1.1 times their rest distance of the nearest pin, no volume constraint, no
//!   self-collision, gravity the world's); a force (point or central) is an impulse
//!   over the space's last step. Layer and mask become the filter as for bodies
//!   (`records::layer_mask_filter`). A value that is not finite is refused (an error,
//!   the record unchanged).
//! - **Rendering.** `soft_body_update_rendering_server` writes each render vertex's
//!   particle position (global) and the normalised sum of its particle's triangle normals,
//!   then the bounds; never past the vertex count of the mesh last given.
//! - **Collision exceptions** (`add_collision_exception_with`) are the core's ignored
//!   bodies (`set_soft_body_ignores_body`, at most `SOFT_BODY_EXCEPTIONS` = 8 per soft
//!   body; one more is an error and stays unapplied): the record keeps the RIDs, and each
//!   that is a body made in the soft body's space is ignored — when added, when the soft
//!   body is made (a space, a mesh), and when the body is made or remade later (the core
//!   drops a destroyed body from the list). Areas are left out (particles do not collide
//!   with them).
//! - **Stored, not simulated**: `shrinking_factor`, `ray_pickable` (the core's queries do
//!   not see soft bodies), `can_sleep` (soft bodies never sleep).
//!
//! After a restore (`Records::soft_after_restore`) each record takes the soft body the
//! restored world holds for it (its current one, or an earlier one it was made as, with
//! the mesh it had then); one made after the snapshot is inert; a soft body no record
//! holds (its RID freed since) is removed. The settings, filter, pins and ignored bodies
//! are read back from the world (an exception whose body is not made in the space stays,
//! to be applied when it is).

use std::collections::{BTreeSet, VecDeque};
use std::sync::Arc;

use godot::classes::physics_server_3d::BodyState;
use godot::classes::rendering_server::ArrayType;
use godot::classes::{PhysicsServer3DRenderingServerHandler, RenderingServer};
use godot::prelude::*;
use maul3d::math::{DVec3, Quat, Vec3, clamp};
use maul3d::{
    BodyId, Error, SOFT_BODY_EXCEPTIONS, SoftBodyDef, SoftBodyId, SoftBodySettings, World,
};

use crate::conv::{dv, gdv, gv, quat, v3};
use crate::errors::{OrReport, error_once, site, warn_once};
use crate::records::{PAST_BODIES, Records, layer_mask_filter};

/// Particle radius, m: Jolt's default `physics/jolt_physics_3d/soft_bodies/point_radius`.
const PARTICLE_RADIUS: f32 = 0.01;
/// Friction of the particles against rigid shapes: Jolt's soft body friction.
const FRICTION: f32 = 1.0;
/// Vertices closer than this times the mesh's extent weld into one particle.
const WELD_TOLERANCE: f32 = 1.0e-6;

/// A soft body's mesh as the core takes it: welded particles (the rest shape, in the
/// mesh's frame), triangles of particle indices (Godot's winding), and the particle of
/// each render vertex.
pub(crate) struct SoftMesh {
    pub vertices: Vec<Vec3>,
    pub triangles: Vec<[u32; 3]>,
    pub render_to_particle: Vec<u32>,
}

/// One soft body a record was made as: its core id and the mesh (and Godot mesh RID) it
/// was made from.
#[derive(Clone)]
pub(crate) struct PastSoft {
    pub id: SoftBodyId,
    pub mesh: Arc<SoftMesh>,
    pub mesh_rid: u64,
}

/// A Godot soft body.
pub(crate) struct Soft {
    pub space: Option<u64>,
    pub instance_id: u64,
    /// The Godot mesh last given (0: none) and what was made of it.
    pub mesh_rid: u64,
    pub mesh: Option<Arc<SoftMesh>>,
    /// Render vertices of the mesh last given (what `update_rendering_server` may write).
    pub render_count: usize,
    pub layer: u32,
    pub mask: u32,
    pub exceptions: BTreeSet<u64>,
    pub ray_pickable: bool,
    pub can_sleep: bool,
    pub precision: i32,
    pub total_mass: f32,
    pub stiffness: f32,
    /// The edge compliance `stiffness` maps to (what the world holds, exactly: a restore
    /// reads it back, and the stiffness shown from it).
    pub compliance: f32,
    pub shrinking: f32,
    pub pressure: f32,
    pub damping: f32,
    pub drag: f32,
    /// Pinned render vertices (Godot's point indices); a particle is pinned while any of
    /// its render vertices is.
    pub pinned: BTreeSet<i32>,
    /// The transform last set (`soft_body_get_state(TRANSFORM)`).
    pub transform: Transform3D,
    /// Where the rest shape is placed (rotation and origin): a soft body made from the
    /// record starts there.
    pub frame: Transform3D,
    /// Whether the particles are still at their rest places in `frame`, at rest (made or
    /// teleported there, not stepped or moved since).
    pub at_rest: bool,
    pub core: Option<SoftBodyId>,
    /// The last [`PAST_BODIES`] soft bodies it was made as (the newest last).
    pub past: VecDeque<PastSoft>,
}

impl Default for Soft {
    /// Godot Physics' defaults (the values `SoftBody3D` shows before it sets its own).
    fn default() -> Soft {
        Soft {
            space: None,
            instance_id: 0,
            mesh_rid: 0,
            mesh: None,
            render_count: 0,
            layer: 1,
            mask: 1,
            exceptions: BTreeSet::new(),
            ray_pickable: true,
            can_sleep: true,
            precision: 5,
            total_mass: 1.0,
            stiffness: 0.5,
            compliance: edge_compliance(0.5),
            shrinking: 0.0,
            pressure: 0.0,
            damping: 0.01,
            drag: 0.0,
            pinned: BTreeSet::new(),
            transform: Transform3D::IDENTITY,
            frame: Transform3D::IDENTITY,
            at_rest: false,
            core: None,
            past: VecDeque::new(),
        }
    }
}

/// Jolt's edge stiffness for Godot's `linear_stiffness` in [0, 1], as a compliance (m/N).
pub(crate) fn edge_compliance(stiffness: f32) -> f32 {
    let k = clamp(stiffness, 0.0, 1.0);
    let s = maul3d::math::max(k * k * k * 1.0e5, 1.0e-6);
    1.0 / s
}

/// The `linear_stiffness` whose compliance is `c` (for a value read back from a world).
fn stiffness_of(c: f32) -> f32 {
    if c <= 0.0 {
        return 1.0;
    }
    let s = 1.0 / (f64::from(c) * 1.0e5);
    // Only what the getter shows (std's cbrt: not on any simulation path): the record
    // keeps the world's exact compliance (`Soft::compliance`).
    clamp(s.cbrt() as f32, 0.0, 1.0)
}

impl Soft {
    /// The core settings of the record's parameters.
    pub fn settings(&self) -> SoftBodySettings {
        SoftBodySettings {
            mass: clamp(self.total_mass, 1.0e-3, 1.0e6),
            substeps: self.precision.clamp(1, maul3d::MAX_SOFT_SUBSTEPS as i32) as u32,
            edge_compliance: self.compliance,
            pressure: clamp(self.pressure, 0.0, 1.0e9),
            damping: clamp(self.damping, 0.0, 1.0e3),
            drag: clamp(self.drag, 0.0, 1.0e3),
            friction: FRICTION,
            particle_radius: PARTICLE_RADIUS,
            bend_compliance: maul3d::NO_BENDS,
            ..SoftBodySettings::default()
        }
    }

    /// The particle of render vertex `index`, when the record has a mesh with it.
    fn particle(&self, index: i32) -> Option<u32> {
        let m = self.mesh.as_ref()?;
        m.render_to_particle
            .get(usize::try_from(index).ok()?)
            .copied()
    }

    /// Whether another pinned render vertex than `except` shares particle `p`.
    fn particle_pinned_elsewhere(&self, p: u32, except: i32) -> bool {
        self.pinned
            .iter()
            .any(|&i| i != except && self.particle(i) == Some(p))
    }
}

/// Welds a surface's vertices into particles (see the module docs): `points` the render
/// vertices, `indices` three a triangle (empty: the vertices in threes).
pub(crate) fn weld(points: &[Vector3], indices: &[i32]) -> Result<SoftMesh, String> {
    let n = points.len();
    if n == 0 {
        return Err("the mesh has no vertices".into());
    }
    let sequential: Vec<i32>;
    let indices = if indices.is_empty() {
        sequential = (0..n as i32).collect();
        &sequential[..]
    } else {
        indices
    };
    if let Some(bad) = indices.iter().find(|&&i| i < 0 || i as usize >= n) {
        return Err(format!(
            "index {bad} is not a vertex of the mesh (it has {n} vertices)"
        ));
    }
    if let Some(p) = points
        .iter()
        .find(|p| !(p.x.is_finite() && p.y.is_finite() && p.z.is_finite()))
    {
        return Err(format!("vertex {p} is not finite"));
    }
    let at: Vec<[f32; 3]> = points.iter().map(|p| [p.x, p.y, p.z]).collect();
    let (mut lo, mut hi) = (at[0], at[0]);
    for p in &at {
        for k in 0..3 {
            lo[k] = maul3d::math::min(lo[k], p[k]);
            hi[k] = maul3d::math::max(hi[k], p[k]);
        }
    }
    let mut extent = 0.0f32;
    for k in 0..3 {
        extent = maul3d::math::max(extent, maul3d::math::max(lo[k].abs(), hi[k].abs()));
    }
    let eps = extent * WELD_TOLERANCE;
    // Each render vertex's representative: the representative of the first earlier
    // vertex within `eps` (each axis), found through the vertices sorted along the axis
    // they spread most along (a flat mesh has one axis where all are equal).
    let spread = |k: usize| hi[k] - lo[k];
    let axis = if spread(0) >= spread(1) && spread(0) >= spread(2) {
        0
    } else if spread(1) >= spread(2) {
        1
    } else {
        2
    };
    let key = |i: u32| at[i as usize][axis];
    let mut sorted: Vec<u32> = (0..n as u32).collect();
    sorted.sort_unstable_by(|&a, &b| key(a).total_cmp(&key(b)).then(a.cmp(&b)));
    let mut rep: Vec<u32> = vec![0; n];
    for i in 0..n {
        let p = at[i];
        let first = sorted.partition_point(|&j| key(j) < p[axis] - eps);
        let mut best = i as u32;
        for &j in &sorted[first..] {
            if key(j) > p[axis] + eps {
                break;
            }
            let q = at[j as usize];
            let near = (0..3).all(|k| (q[k] - p[k]).abs() <= eps);
            if (j as usize) < i && near {
                best = best.min(rep[j as usize]);
            }
        }
        rep[i] = best;
    }
    // Particles in the order the triangles first use them (Jolt's order).
    const NONE: u32 = u32::MAX;
    let mut particle_of = vec![NONE; n];
    let mut vertices = Vec::new();
    let mut triangles = Vec::new();
    for t in indices.chunks_exact(3) {
        let mut f = [0u32; 3];
        for (k, &i) in t.iter().enumerate() {
            let r = rep[i as usize] as usize;
            if particle_of[r] == NONE {
                particle_of[r] = vertices.len() as u32;
                vertices.push(v3(points[r]));
            }
            f[k] = particle_of[r];
        }
        if f[0] != f[1] && f[1] != f[2] && f[0] != f[2] {
            triangles.push(f);
        }
    }
    if triangles.is_empty() {
        return Err("the mesh has no triangle with three distinct vertices".into());
    }
    // A render vertex no triangle uses follows its particle, or the first one.
    let render_to_particle = rep
        .iter()
        .map(|&r| match particle_of[r as usize] {
            NONE => 0,
            p => p,
        })
        .collect();
    Ok(SoftMesh {
        vertices,
        triangles,
        render_to_particle,
    })
}

/// The render vertices and indices of surface 0 of mesh `mesh` (an error when it has none).
fn mesh_arrays(mesh: Rid) -> Result<(PackedVector3Array, PackedInt32Array), String> {
    let rs = RenderingServer::singleton();
    if rs.mesh_get_surface_count(mesh) < 1 {
        return Err("the mesh has no surface".into());
    }
    let arrays = rs.mesh_surface_get_arrays(mesh, 0);
    let at = |t: ArrayType| arrays.get(t.ord() as usize).unwrap_or_default();
    let vertices = at(ArrayType::VERTEX)
        .try_to::<PackedVector3Array>()
        .map_err(|_| "surface 0 has no vertex array".to_string())?;
    let indices = at(ArrayType::INDEX)
        .try_to::<PackedInt32Array>()
        .unwrap_or_default();
    Ok((vertices, indices))
}

/// A rotation and its matrix in `f64` (rows), for moving particles by a transform.
fn rows(q: Quat) -> [[f64; 3]; 3] {
    let c = |v: Vec3| q.rotate(v);
    let (x, y, z) = (c(Vec3::X), c(Vec3::Y), c(Vec3::Z));
    [
        [f64::from(x.x), f64::from(y.x), f64::from(z.x)],
        [f64::from(x.y), f64::from(y.y), f64::from(z.y)],
        [f64::from(x.z), f64::from(y.z), f64::from(z.z)],
    ]
}

/// Reports a refused create: a full pool names its project setting.
fn report_create(e: &Error) {
    let text = e.to_string();
    if let Error::Capacity { what, .. } = e
        && what.starts_with("soft_")
    {
        let setting = what.split(' ').next().unwrap_or(what);
        error_once(
            setting,
            &format!(
                "a space is full ({text}); the soft body stays inert. Raise the project setting physics/maul3d/{setting} (fixed when a space is made)."
            ),
        );
    } else {
        error_once(
            "soft body create",
            &format!("creating a soft body failed: {text}"),
        );
    }
}

impl Records {
    pub fn soft_create(&mut self) -> Rid {
        let rid = self.new_rid();
        self.softs.insert(rid.to_u64(), Soft::default());
        rid
    }

    /// The world and core id of a made soft body.
    fn soft_core(&mut self, rid: u64) -> Option<(&mut World, SoftBodyId)> {
        let s = self.softs.get(&rid)?;
        let (space, id) = (s.space?, s.core?);
        Some((&mut self.spaces.get_mut(&space)?.world, id))
    }

    /// The same, read only.
    fn soft_core_ref(&self, rid: u64) -> Option<(&World, SoftBodyId)> {
        let s = self.softs.get(&rid)?;
        Some((&self.spaces.get(&s.space?)?.world, s.core?))
    }

    /// Makes the core soft body of a record that has a space and a mesh.
    fn soft_materialize(&mut self, rid: u64) {
        let Some(s) = self.softs.get(&rid) else {
            return;
        };
        let (Some(space), Some(mesh)) = (s.space, s.mesh.clone()) else {
            return;
        };
        if s.core.is_some() {
            return;
        }
        let ignored: Vec<BodyId> = s
            .exceptions
            .iter()
            .filter_map(|&o| self.exception_body(space, o))
            .collect();
        let Some(sp) = self.spaces.get_mut(&space) else {
            return;
        };
        let w = &mut sp.world;
        let def = SoftBodyDef {
            vertices: &mesh.vertices,
            triangles: &mesh.triangles,
            position: dv(s.frame.origin),
            rotation: quat(s.frame.basis),
            settings: s.settings(),
            filter: layer_mask_filter(s.layer, s.mask),
        };
        let id = match w.create_soft_body(&def) {
            Ok(id) => id,
            Err(e) => {
                report_create(&e);
                return;
            }
        };
        let mut pins: Vec<u32> = s.pinned.iter().filter_map(|&i| s.particle(i)).collect();
        pins.sort_unstable();
        pins.dedup();
        for p in pins {
            w.set_soft_particle_pinned(id, p, true)
                .or_report(site!("soft_body_pin_point"));
        }
        for b in ignored {
            w.set_soft_body_ignores_body(id, b, true)
                .or_report(site!("soft_body_add_collision_exception"));
        }
        let s = self.softs.get_mut(&rid).expect("soft body exists");
        if s.past.len() == PAST_BODIES {
            s.past.pop_front();
        }
        s.past.push_back(PastSoft {
            id,
            mesh,
            mesh_rid: s.mesh_rid,
        });
        s.core = Some(id);
        s.at_rest = true;
    }

    /// Removes a record's core soft body (the record keeps its settings and frame).
    fn soft_dematerialize(&mut self, rid: u64) {
        let Some(s) = self.softs.get_mut(&rid) else {
            return;
        };
        let Some(id) = s.core.take() else {
            return;
        };
        if let Some(w) = s.space.and_then(|sp| self.spaces.get_mut(&sp)) {
            w.world
                .destroy_soft_body(id)
                .or_report(site!("removing a soft body (destroy_soft_body)"));
        }
    }

    pub fn soft_free(&mut self, rid: u64) {
        self.soft_dematerialize(rid);
        self.softs.remove(&rid);
    }

    pub fn soft_set_space(&mut self, rid: u64, space: Option<u64>) {
        let space = space.filter(|s| self.spaces.contains_key(s));
        if self.softs.get(&rid).is_none_or(|s| s.space == space) {
            return;
        }
        self.soft_dematerialize(rid);
        if let Some(s) = self.softs.get_mut(&rid) {
            s.space = space;
        }
        self.soft_materialize(rid);
    }

    pub fn soft_space(&self, rid: u64) -> Rid {
        self.softs
            .get(&rid)
            .and_then(|s| s.space)
            .map_or(Rid::Invalid, Rid::new)
    }

    /// `soft_body_set_mesh`: the mesh's particles and triangles (see the module docs); an
    /// invalid RID removes the soft body from its world.
    pub fn soft_set_mesh(&mut self, rid: u64, mesh: Rid) {
        let Some(s) = self.softs.get(&rid) else {
            return;
        };
        let mesh_rid = mesh.to_valid_u64().unwrap_or(0);
        if s.mesh_rid == mesh_rid && (mesh_rid == 0 || s.mesh.is_some()) {
            return;
        }
        let made = if mesh_rid == 0 {
            None
        } else {
            match mesh_arrays(mesh).and_then(|(v, i)| {
                let count = v.len();
                weld(v.as_slice(), i.as_slice()).map(|m| (m, count))
            }) {
                Ok(m) => Some(m),
                Err(e) => {
                    error_once(
                        "soft body mesh",
                        &format!("soft_body_set_mesh: {e}; the soft body stays inert"),
                    );
                    None
                }
            }
        };
        self.soft_dematerialize(rid);
        let s = self.softs.get_mut(&rid).expect("soft body exists");
        s.mesh_rid = mesh_rid;
        (s.mesh, s.render_count) = match made {
            Some((m, count)) => (Some(Arc::new(m)), count),
            None => (None, 0),
        };
        self.soft_materialize(rid);
    }

    /// Applies a record's settings to its core soft body.
    fn soft_apply_settings(&mut self, rid: u64, call: &'static crate::errors::Site) {
        let Some(settings) = self.softs.get(&rid).map(Soft::settings) else {
            return;
        };
        if let Some((w, id)) = self.soft_core(rid) {
            w.set_soft_body_settings(id, &settings).or_report(call);
        }
    }

    /// Sets one parameter of a record (refused with an error when not finite), then its
    /// soft body's settings.
    pub fn soft_set_param(
        &mut self,
        rid: u64,
        call: &'static crate::errors::Site,
        value: f32,
        set: impl FnOnce(&mut Soft, f32),
    ) {
        let Some(s) = self.softs.get_mut(&rid) else {
            return;
        };
        if !value.is_finite() {
            error_once(
                call_name(call),
                &format!("{}: {value} is not a finite number", call_name(call)),
            );
            return;
        }
        set(s, value);
        self.soft_apply_settings(rid, call);
    }

    pub fn soft_set_layer_mask(&mut self, rid: u64, layer: Option<u32>, mask: Option<u32>) {
        let Some(s) = self.softs.get_mut(&rid) else {
            return;
        };
        if let Some(l) = layer {
            s.layer = l;
        }
        if let Some(m) = mask {
            s.mask = m;
        }
        let filter = layer_mask_filter(s.layer, s.mask);
        if let Some((w, id)) = self.soft_core(rid) {
            w.set_soft_body_filter(id, filter)
                .or_report(site!("soft_body_set_collision_layer/mask"));
        }
    }

    /// The core body of object `other` when it is a body (not an area) made in `space`.
    fn exception_body(&self, space: u64, other: u64) -> Option<BodyId> {
        let o = self.objs.get(&other)?;
        if o.is_area || o.space != Some(space) {
            return None;
        }
        o.core.as_ref().map(|c| c.body)
    }

    /// `soft_body_add/remove_collision_exception`: the record's set, and the core's list
    /// when both are made in one space.
    pub fn soft_add_exception(&mut self, rid: u64, other: u64, add: bool) {
        let Some(s) = self.softs.get_mut(&rid) else {
            return;
        };
        if add {
            s.exceptions.insert(other);
        } else {
            s.exceptions.remove(&other);
        }
        let Some(body) = s.space.and_then(|space| self.exception_body(space, other)) else {
            return;
        };
        if let Some((w, id)) = self.soft_core(rid) {
            let site = if add {
                site!("soft_body_add_collision_exception")
            } else {
                site!("soft_body_remove_collision_exception")
            };
            w.set_soft_body_ignores_body(id, body, add).or_report(site);
        }
    }

    /// Object `rid`'s body was just made: the soft bodies of its space that hold an
    /// exception with it ignore it (in RID order).
    pub(crate) fn soft_except_made_body(&mut self, rid: u64) {
        let Some(space) = self.objs.get(&rid).and_then(|o| o.space) else {
            return;
        };
        let Some(body) = self.exception_body(space, rid) else {
            return;
        };
        let Some(sp) = self.spaces.get_mut(&space) else {
            return;
        };
        for s in self.softs.values() {
            if let Some(id) = s.core
                && s.space == Some(space)
                && s.exceptions.contains(&rid)
            {
                sp.world
                    .set_soft_body_ignores_body(id, body, true)
                    .or_report(site!("soft_body_add_collision_exception"));
            }
        }
    }

    /// `soft_body_set_transform`: the particles moved by `t` (scale dropped) from where
    /// they are (see the module docs).
    pub fn soft_set_transform(&mut self, rid: u64, t: Transform3D) {
        let Some(s) = self.softs.get_mut(&rid) else {
            return;
        };
        s.transform = t;
        let t = t.orthonormalized();
        if t == Transform3D::IDENTITY {
            return;
        }
        // The rest shape's place moves too: a soft body made again (another space, a new
        // mesh) starts where this one was taken.
        let moved = t * s.frame;
        let frame = Transform3D::new(moved.basis.orthonormalized(), moved.origin);
        s.frame = frame;
        if s.core.is_none() {
            return;
        }
        let at_rest = s.at_rest;
        let Some((w, id)) = self.soft_core(rid) else {
            return;
        };
        if at_rest {
            w.set_soft_body_transform(id, dv(frame.origin), quat(frame.basis))
                .or_report(site!("soft_body_set_transform"));
            return;
        }
        let r = rows(quat(t.basis));
        let o = dv(t.origin);
        let count = w.soft_body_particle_count(id).unwrap_or(0);
        let site = site!("soft_body_set_transform");
        for i in 0..count {
            let Some(p) = w.soft_particle_position(id, i).or_report(site) else {
                continue;
            };
            let m = |k: usize| r[k][0] * p.x + r[k][1] * p.y + r[k][2] * p.z;
            let q = DVec3::new(m(0) + o.x, m(1) + o.y, m(2) + o.z);
            w.set_soft_particle_position(id, i, q).or_report(site);
            w.set_soft_particle_velocity(id, i, Vec3::ZERO)
                .or_report(site);
        }
    }

    /// Marks the soft bodies of `space` as moved (after a step).
    pub fn soft_stepped(&mut self, space: u64) {
        for s in self.softs.values_mut() {
            if s.space == Some(space) {
                s.at_rest = false;
            }
        }
    }

    pub fn soft_set_state(&mut self, rid: u64, state: BodyState, value: &Variant) {
        match state {
            BodyState::TRANSFORM => match value.try_to::<Transform3D>() {
                Ok(t) => self.soft_set_transform(rid, t),
                Err(_) => error_once(
                    "soft_body_set_state(TRANSFORM)",
                    "soft_body_set_state(TRANSFORM): the value is not a Transform3D",
                ),
            },
            BodyState::LINEAR_VELOCITY => {
                let Ok(v) = value.try_to::<Vector3>() else {
                    error_once(
                        "soft_body_set_state(LINEAR_VELOCITY)",
                        "soft_body_set_state(LINEAR_VELOCITY): the value is not a Vector3",
                    );
                    return;
                };
                if let Some(s) = self.softs.get_mut(&rid) {
                    s.at_rest = false;
                }
                let Some((w, id)) = self.soft_core(rid) else {
                    return;
                };
                let site = site!("soft_body_set_state(LINEAR_VELOCITY)");
                for i in 0..w.soft_body_particle_count(id).unwrap_or(0) {
                    if w.set_soft_particle_velocity(id, i, v3(v))
                        .or_report(site)
                        .is_none()
                    {
                        break;
                    }
                }
            }
            BodyState::CAN_SLEEP => {
                if let Some(s) = self.softs.get_mut(&rid) {
                    s.can_sleep = value.try_to::<bool>().unwrap_or(true);
                }
            }
            // Soft bodies never sleep: a wish to is kept by nothing.
            BodyState::SLEEPING => {}
            _ => error_once(
                "soft_body_set_state(ANGULAR_VELOCITY)",
                "soft_body_set_state: angular velocity is not supported for soft bodies (as in Godot Physics and Jolt)",
            ),
        }
    }

    pub fn soft_get_state(&self, rid: u64, state: BodyState) -> Variant {
        let Some(s) = self.softs.get(&rid) else {
            return Variant::nil();
        };
        match state {
            BodyState::TRANSFORM => s.transform.to_variant(),
            BodyState::LINEAR_VELOCITY => {
                // The particles' mean velocity (they weigh the same).
                let mut sum = Vector3::ZERO;
                let mut n = 0u32;
                if let Some((w, id)) = self.soft_core_ref(rid) {
                    for i in 0..w.soft_body_particle_count(id).unwrap_or(0) {
                        if let Ok(v) = w.soft_particle_velocity(id, i) {
                            sum += gv(v);
                            n += 1;
                        }
                    }
                }
                if n > 0 {
                    (sum / n as f32).to_variant()
                } else {
                    Vector3::ZERO.to_variant()
                }
            }
            BodyState::ANGULAR_VELOCITY => Vector3::ZERO.to_variant(),
            BodyState::SLEEPING => false.to_variant(),
            BodyState::CAN_SLEEP => s.can_sleep.to_variant(),
            _ => Variant::nil(),
        }
    }

    /// `soft_body_pin_point`: pins or frees render vertex `index` (its particle is pinned
    /// while any of its render vertices is).
    pub fn soft_pin_point(&mut self, rid: u64, index: i32, pin: bool) {
        let Some(s) = self.softs.get_mut(&rid) else {
            return;
        };
        if index < 0 {
            error_once(
                "soft_body_pin_point index",
                &format!("soft_body_pin_point: point index {index} is negative"),
            );
            return;
        }
        let changed = if pin {
            s.pinned.insert(index)
        } else {
            s.pinned.remove(&index)
        };
        if !changed {
            return;
        }
        let Some(p) = s.particle(index) else {
            if s.mesh.is_some() {
                error_once(
                    "soft_body_pin_point range",
                    &format!(
                        "soft_body_pin_point: point index {index} is past the mesh's {} vertices",
                        s.render_count
                    ),
                );
            }
            return;
        };
        if !pin && s.particle_pinned_elsewhere(p, index) {
            return;
        }
        if let Some((w, id)) = self.soft_core(rid) {
            w.set_soft_particle_pinned(id, p, pin)
                .or_report(site!("soft_body_pin_point"));
        }
    }

    pub fn soft_unpin_all(&mut self, rid: u64) {
        let Some(s) = self.softs.get_mut(&rid) else {
            return;
        };
        let mut particles: Vec<u32> = s.pinned.iter().filter_map(|&i| s.particle(i)).collect();
        particles.sort_unstable();
        particles.dedup();
        s.pinned.clear();
        if let Some((w, id)) = self.soft_core(rid) {
            for p in particles {
                w.set_soft_particle_pinned(id, p, false)
                    .or_report(site!("soft_body_remove_all_pinned_points"));
            }
        }
    }

    pub fn soft_is_pinned(&self, rid: u64, index: i32) -> bool {
        let Some(s) = self.softs.get(&rid) else {
            return false;
        };
        match (self.soft_core_ref(rid), s.particle(index)) {
            (Some((w, id)), Some(p)) => w.soft_particle_pinned(id, p).unwrap_or(false),
            _ => s.pinned.contains(&index),
        }
    }

    /// The particle of render vertex `index` of a made soft body, with its world (an error
    /// once per call site for an index past the mesh).
    fn soft_point(
        &mut self,
        rid: u64,
        index: i32,
        call: &str,
    ) -> Option<(&mut World, SoftBodyId, u32)> {
        let s = self.softs.get_mut(&rid)?;
        let Some(p) = s.particle(index) else {
            if s.mesh.is_some() {
                error_once(
                    call,
                    &format!(
                        "{call}: point index {index} is not a vertex of the mesh ({} vertices)",
                        s.render_count
                    ),
                );
            }
            return None;
        };
        s.at_rest = false;
        let (w, id) = self.soft_core(rid)?;
        Some((w, id, p))
    }

    pub fn soft_move_point(&mut self, rid: u64, index: i32, to: Vector3) {
        if let Some((w, id, p)) = self.soft_point(rid, index, "soft_body_move_point") {
            w.set_soft_particle_position(id, p, dv(to))
                .or_report(site!("soft_body_move_point"));
        }
    }

    pub fn soft_point_position(&self, rid: u64, index: i32) -> Vector3 {
        let Some(s) = self.softs.get(&rid) else {
            return Vector3::ZERO;
        };
        let Some(p) = s.particle(index) else {
            return Vector3::ZERO;
        };
        match self.soft_core_ref(rid) {
            Some((w, id)) => w.soft_particle_position(id, p).map_or(Vector3::ZERO, gdv),
            // Not in a world: where its rest place is.
            None => s
                .mesh
                .as_ref()
                .map_or(Vector3::ZERO, |m| s.frame * gv(m.vertices[p as usize])),
        }
    }

    /// `soft_body_apply_point_impulse`, and `_force` as an impulse over the space's last
    /// step (`dt`, the core has no per-particle force).
    pub fn soft_point_impulse(&mut self, rid: u64, index: i32, impulse: Vector3, force: bool) {
        let dt = self.soft_step_length(rid);
        let (call, scale) = if force {
            ("soft_body_apply_point_force", dt)
        } else {
            ("soft_body_apply_point_impulse", 1.0)
        };
        if let Some((w, id, p)) = self.soft_point(rid, index, call) {
            w.apply_soft_particle_impulse(id, p, v3(impulse * scale))
                .or_report(site!("soft_body_apply_point_impulse/force"));
        }
    }

    /// `soft_body_apply_central_impulse`, and `_force` over the space's last step.
    pub fn soft_central_impulse(&mut self, rid: u64, impulse: Vector3, force: bool) {
        let scale = if force {
            self.soft_step_length(rid)
        } else {
            1.0
        };
        if let Some(s) = self.softs.get_mut(&rid) {
            s.at_rest = false;
        }
        if let Some((w, id)) = self.soft_core(rid) {
            w.apply_soft_body_impulse(id, v3(impulse * scale))
                .or_report(site!("soft_body_apply_central_impulse/force"));
        }
    }

    fn soft_step_length(&self, rid: u64) -> f32 {
        self.softs
            .get(&rid)
            .and_then(|s| self.spaces.get(&s.space?))
            .map_or(1.0 / 60.0, |sp| sp.last_step)
    }

    pub fn soft_bounds(&self, rid: u64) -> Aabb {
        match self
            .soft_core_ref(rid)
            .and_then(|(w, id)| w.soft_body_bounds(id).ok())
        {
            Some(b) => Aabb::new(gdv(b.lower), gdv(b.upper - b.lower)),
            None => Aabb::default(),
        }
    }

    /// `soft_body_update_rendering_server`: each render vertex's position (global: the
    /// node draws at the identity) and normal (the area-weighted normal of its particle's
    /// triangles), and the bounds.
    pub fn soft_render(&self, rid: u64, handler: &mut Gd<PhysicsServer3DRenderingServerHandler>) {
        let Some(s) = self.softs.get(&rid) else {
            return;
        };
        let (Some((w, id)), Some(mesh)) = (self.soft_core_ref(rid), s.mesh.as_ref()) else {
            return;
        };
        let n = mesh.vertices.len();
        let mut x = vec![Vec3::ZERO; n];
        if w.soft_body_positions_from(id, DVec3::ZERO, &mut x).is_err() {
            return;
        }
        let mut normals = vec![Vec3::ZERO; n];
        for t in &mesh.triangles {
            let [a, b, c] = t.map(|i| i as usize);
            // Godot's winding: (c − a) × (b − a) faces out (as Godot Physics and Jolt).
            let nrm = (x[c] - x[a]).cross(x[b] - x[a]);
            for i in [a, b, c] {
                normals[i] += nrm;
            }
        }
        for v in &mut normals {
            let len = v.length();
            if len > 0.0 {
                *v *= 1.0 / len;
            }
        }
        // Never past the vertices of the mesh the node draws (the handler's buffer).
        let count = mesh.render_to_particle.len().min(s.render_count);
        for (i, &p) in mesh.render_to_particle[..count].iter().enumerate() {
            let p = p as usize;
            handler.set_vertex(i as i32, gv(x[p]));
            handler.set_normal(i as i32, gv(normals[p]));
        }
        handler.set_aabb(self.soft_bounds(rid));
    }

    /// After a restore of `space`: each record takes its soft body in the restored world
    /// (see the module docs), soft bodies no record holds go, and settings, filters and
    /// pins are read back.
    pub fn soft_after_restore(&mut self, space: u64) {
        let Some(sp) = self.spaces.get_mut(&space) else {
            return;
        };
        let w = &mut sp.world;
        let alive = |w: &World, id: SoftBodyId| w.soft_body_particle_count(id).is_ok();
        let mut live = BTreeSet::new();
        let mut inert = 0;
        for s in self.softs.values_mut().filter(|s| s.space == Some(space)) {
            s.at_rest = false;
            if let Some(id) = s.core
                && alive(w, id)
            {
                live.insert(id);
                continue;
            }
            match s.past.iter().rev().find(|p| alive(w, p.id)).cloned() {
                Some(p) => {
                    live.insert(p.id);
                    s.core = Some(p.id);
                    if !s.mesh.as_ref().is_some_and(|m| Arc::ptr_eq(m, &p.mesh)) {
                        s.mesh = Some(p.mesh);
                        s.mesh_rid = p.mesh_rid;
                    }
                }
                None => {
                    if s.core.take().is_some() {
                        inert += 1;
                    }
                }
            }
        }
        if inert > 0 {
            warn_once(
                "restore inert soft",
                "after a restore, soft bodies made after the snapshot are inert (no soft body in the restored world)",
            );
        }
        let ghosts: Vec<SoftBodyId> = w.soft_body_ids().filter(|id| !live.contains(id)).collect();
        for g in ghosts {
            w.destroy_soft_body(g)
                .or_report(site!("Maul3D.restore: removing a freed soft body"));
        }
        for s in self.softs.values_mut().filter(|s| s.space == Some(space)) {
            let Some(id) = s.core else { continue };
            if let Ok(set) = w.soft_body_settings(id)
                && set != s.settings()
            {
                s.precision = set.substeps as i32;
                s.total_mass = set.mass;
                if set.edge_compliance != s.compliance {
                    s.compliance = set.edge_compliance;
                    s.stiffness = stiffness_of(set.edge_compliance);
                }
                s.pressure = set.pressure;
                s.damping = set.damping;
                s.drag = set.drag;
            }
            if let Ok(f) = w.soft_body_filter(id) {
                s.layer = (f.category_bits & 0xffff_ffff) as u32;
                s.mask = (f.mask_bits & 0xffff_ffff) as u32;
            }
            // The ignored bodies by the RID each carries as user data; an exception whose
            // body is not made here is not in the world's list and stays.
            let mut list = [BodyId::NULL; SOFT_BODY_EXCEPTIONS];
            if let Ok(n) = w.soft_body_ignored_bodies(id, &mut list) {
                let listed: BTreeSet<u64> = list[..n as usize]
                    .iter()
                    .filter_map(|&b| w.body_user_data(b).ok())
                    .collect();
                let objs = &self.objs;
                let made_here = |o: u64| {
                    objs.get(&o)
                        .is_some_and(|o| !o.is_area && o.space == Some(space) && o.core.is_some())
                };
                s.exceptions
                    .retain(|&o| listed.contains(&o) || !made_here(o));
                s.exceptions.extend(listed);
            }
            let Some(mesh) = s.mesh.clone() else { continue };
            let pinned = |p: u32| w.soft_particle_pinned(id, p).unwrap_or(false);
            s.pinned.retain(|&i| {
                mesh.render_to_particle
                    .get(i as usize)
                    .is_some_and(|&p| pinned(p))
            });
            // A particle pinned in the world that no pinned render vertex names: its first.
            let mut named: BTreeSet<u32> = s
                .pinned
                .iter()
                .map(|&i| mesh.render_to_particle[i as usize])
                .collect();
            for (i, &p) in mesh.render_to_particle.iter().enumerate() {
                if pinned(p) && named.insert(p) {
                    s.pinned.insert(i as i32);
                }
            }
        }
    }
}

/// The Godot call a site names (for the messages of values refused before the core).
fn call_name(site: &crate::errors::Site) -> &'static str {
    site.call()
}
