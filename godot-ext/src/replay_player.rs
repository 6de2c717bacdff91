//! `Maul3DReplayPlayer`: a replay file opened for playing, in GDScript — a thin layer over
//! `maul3d::ReplayPlayer`, which does the seeking, keyframes, verification and comparison.
//! This file only translates: errors to `get_last_error()`, hashes to hex strings, bodies
//! and shapes (the core's debug draw) to dictionaries of Godot types.

use godot::classes::FileAccess;
use godot::prelude::*;
use maul3d::math::{DVec3, Quat, Vec3};
use maul3d::{
    BodyId, BodyType, DebugDraw, DebugDrawOptions, DebugGeometry, Parting, ReplayPlayer, ShapeId,
    World,
};

use crate::conv::{gbasis, gtransform, gv};

/// A Maul3D replay file (`.m3replay`, as `Maul3D.save_replay`, `Maul3DRecorder` and
/// `m3replay record` write it) opened for playing: seek to any step, read the bodies and
/// shapes of the world there, verify the recording, compare it with another.
///
/// Step 0 is the recording's starting state; step `S` is the world after its `S`-th
/// step. Seeking replays the recorded calls from the nearest keyframe (a snapshot kept
/// every `get_keyframe_every()` steps as the player passes them), so it gives the state the
/// recording had, bit for bit: `hash_at_current()` equals what `m3replay hashes` prints
/// for that step. It needs no physics server and works in the editor.
///
/// Every method that can fail returns false (or an empty value) and leaves the engine's
/// message in `get_last_error()`; a call that succeeds clears it.
#[derive(GodotClass)]
#[class(init, tool, base = RefCounted)]
pub struct Maul3DReplayPlayer {
    player: Option<ReplayPlayer>,
    last_error: String,
    base: Base<RefCounted>,
}

/// The slot of a body id (its index minus one), as `get_bodies` and `get_shapes` name it.
fn slot(id: BodyId) -> i64 {
    i64::from(id.index) - 1
}

fn hex(hash: u64) -> String {
    format!("{hash:016x}")
}

fn type_name(t: BodyType) -> &'static str {
    match t {
        BodyType::Static => "static",
        BodyType::Kinematic => "kinematic",
        BodyType::Dynamic => "dynamic",
    }
}

/// A rotation taking +Y (`axis_y`) or +Z to `dir` (a unit vector), for the shapes Godot
/// draws along an axis (capsules and cylinders along Y, separation rays along Z).
fn basis_along(dir: Vector3, axis_y: bool) -> Basis {
    let helper = if dir.x.abs() < 0.9 {
        Vector3::RIGHT
    } else {
        Vector3::UP
    };
    let a = dir.cross(helper).normalized();
    let b = dir.cross(a);
    if axis_y {
        Basis::from_cols(b, dir, a)
    } else {
        Basis::from_cols(a, b, dir)
    }
}

fn local(center: Vec3, rotation: Quat) -> Transform3D {
    Transform3D::new(gbasis(rotation), gv(center))
}

/// Collects the core's debug draw as dictionaries.
struct Collect {
    shapes: Vec<(ShapeId, VarDictionary)>,
    /// The triangles of the mesh shape being described (one `shape` call per triangle),
    /// while the last entry of `shapes` is that mesh.
    triangles: PackedVector3Array,
    mesh_open: bool,
    contacts: Vec<VarDictionary>,
}

impl Collect {
    fn end_mesh(&mut self) {
        if std::mem::take(&mut self.mesh_open)
            && let Some((_, d)) = self.shapes.last_mut()
        {
            d.set(
                "triangles",
                &std::mem::take(&mut self.triangles).to_variant(),
            );
        }
    }
}

impl DebugDraw for Collect {
    fn shape(
        &mut self,
        shape: ShapeId,
        body: BodyId,
        position: DVec3,
        rotation: Quat,
        geometry: &DebugGeometry,
        awake: bool,
    ) {
        if let DebugGeometry::Triangle(v) = geometry
            && self.mesh_open
            && self.shapes.last().is_some_and(|(s, _)| *s == shape)
        {
            self.triangles.extend(v.iter().map(|&p| gv(p)));
            return;
        }
        self.end_mesh();
        let body_frame = gtransform(position, rotation);
        let mut d = vdict! { "body_slot" => slot(body), "sleeping" => !awake };
        let (kind, frame) = match *geometry {
            DebugGeometry::Sphere(s) => {
                d.set("radius", s.radius);
                ("sphere", Transform3D::new(Basis::IDENTITY, gv(s.center)))
            }
            DebugGeometry::Capsule(c) => {
                let (p1, p2) = (gv(c.center1), gv(c.center2));
                let axis = p2 - p1;
                let len = axis.length();
                let dir = if len > 0.0 { axis / len } else { Vector3::UP };
                d.set("radius", c.radius);
                d.set("half_height", len * 0.5);
                (
                    "capsule",
                    Transform3D::new(basis_along(dir, true), (p1 + p2) * 0.5),
                )
            }
            DebugGeometry::Box {
                half,
                center,
                rotation,
            } => {
                d.set("half_extents", gv(half));
                ("box", local(center, rotation))
            }
            DebugGeometry::Cylinder(c) => {
                d.set("radius", c.radius);
                d.set("half_height", c.half_height);
                ("cylinder", local(c.center, c.rotation))
            }
            DebugGeometry::Plane(p) => {
                d.set("normal", gv(p.normal));
                (
                    "plane",
                    Transform3D::new(Basis::IDENTITY, gv(p.normal) * p.offset),
                )
            }
            DebugGeometry::Hull {
                vertices,
                face_vertices,
                face_starts,
            } => {
                // Each face, a convex loop, as a fan of triangles.
                let mut tris = PackedVector3Array::new();
                for f in face_starts.windows(2) {
                    let face = &face_vertices[f[0] as usize..f[1] as usize];
                    for i in 1..face.len().saturating_sub(1) {
                        for &v in &[face[0], face[i], face[i + 1]] {
                            tris.push(gv(vertices[v as usize]));
                        }
                    }
                }
                d.set("triangles", &tris);
                ("hull", Transform3D::IDENTITY)
            }
            DebugGeometry::Ray(r) => {
                d.set("length", r.length);
                (
                    "ray",
                    Transform3D::new(basis_along(gv(r.direction), false), gv(r.origin)),
                )
            }
            DebugGeometry::Triangle(v) => {
                self.triangles.clear();
                self.triangles.extend(v.iter().map(|&p| gv(p)));
                self.mesh_open = true;
                ("mesh", Transform3D::IDENTITY)
            }
        };
        d.set("kind", kind);
        d.set("transform", body_frame * frame);
        self.shapes.push((shape, d));
    }

    fn contact(&mut self, point: DVec3, normal: Vec3, separation: f32, normal_impulse: f32) {
        self.contacts.push(vdict! {
            "point" => crate::conv::gdv(point),
            "normal" => gv(normal),
            "separation" => separation,
            "impulse" => normal_impulse,
        });
    }
}

/// A body's dictionary (see `get_bodies`); None when `id` is no live body.
fn body_dict(world: &World, id: BodyId) -> Option<VarDictionary> {
    let position = world.body_position(id).ok()?;
    let rotation = world.body_rotation(id).ok()?;
    let q = Quaternion::new(rotation.x, rotation.y, rotation.z, rotation.w);
    Some(vdict! {
        "slot" => slot(id),
        "type" => type_name(world.body_type(id).ok()?),
        "position" => crate::conv::gdv(position),
        "rotation" => q,
        "transform" => gtransform(position, rotation),
        "linear_velocity" => gv(world.body_linear_velocity(id).ok()?),
        "angular_velocity" => gv(world.body_angular_velocity(id).ok()?),
        "sleeping" => !world.body_is_awake(id).ok()?,
    })
}

impl Maul3DReplayPlayer {
    /// Records the outcome of a call: clears the last error on success, keeps the message
    /// (and prints nothing: the caller asks `get_last_error`) on failure.
    fn outcome<T>(&mut self, r: Result<T, String>) -> Option<T> {
        match r {
            Ok(v) => {
                self.last_error.clear();
                Some(v)
            }
            Err(e) => {
                self.last_error = e;
                None
            }
        }
    }

    fn loaded(&mut self) -> Result<&mut ReplayPlayer, String> {
        self.player
            .as_mut()
            .ok_or_else(|| "no replay is loaded (load_file or load_bytes first)".to_string())
    }

    fn open(&mut self, name: &str, bytes: &[u8]) -> bool {
        self.player = None;
        let r = ReplayPlayer::open(bytes).map_err(|e| format!("{name}: {e}"));
        match self.outcome(r) {
            Some(p) => {
                self.player = Some(p);
                true
            }
            None => false,
        }
    }
}

#[godot_api]
impl Maul3DReplayPlayer {
    /// Opens a replay file (`res://`, `user://` or an absolute path) at step 0. False when
    /// it cannot be read or is refused (damaged, another format version), with the reason
    /// in `get_last_error()`; no replay is loaded then.
    #[func]
    pub fn load_file(&mut self, path: GString) -> bool {
        let bytes = FileAccess::get_file_as_bytes(&path);
        if bytes.is_empty() {
            let err = FileAccess::get_open_error();
            self.player = None;
            let why = if err == godot::global::Error::OK {
                "the file is empty".to_string()
            } else {
                format!("cannot read it ({err:?})")
            };
            self.outcome::<()>(Err(format!("{path}: {why}")));
            return false;
        }
        self.open(&path.to_string(), bytes.as_slice())
    }

    /// Opens a replay held in memory at step 0 (see `load_file`).
    #[func]
    pub fn load_bytes(&mut self, bytes: PackedByteArray) -> bool {
        self.open("replay bytes", bytes.as_slice())
    }

    /// The message of the last call that failed; "" when the last call succeeded.
    #[func]
    pub fn get_last_error(&self) -> GString {
        GString::from(self.last_error.as_str())
    }

    /// Whether a replay is loaded.
    #[func]
    pub fn is_loaded(&self) -> bool {
        self.player.is_some()
    }

    /// The recording's number of steps: the player's steps are 0 to this (0 when nothing
    /// is loaded).
    #[func]
    pub fn get_step_count(&self) -> i64 {
        self.player.as_ref().map_or(0, |p| p.step_count() as i64)
    }

    /// The step whose state the player holds.
    #[func]
    pub fn get_current_step(&self) -> i64 {
        self.player.as_ref().map_or(0, |p| p.current_step() as i64)
    }

    /// Brings the world to `step` (0 to `get_step_count()`). False for a step out of that
    /// range or when nothing is loaded.
    #[func]
    pub fn seek(&mut self, step: i64) -> bool {
        let r = self.loaded().and_then(|p| {
            let last = p.step_count();
            let s = u64::try_from(step)
                .ok()
                .filter(|&s| s <= last)
                .ok_or_else(|| format!("seek: step {step} is not in [0, {last}]"))?;
            p.seek(s).map_err(|e| format!("seek {step}: {e}"))
        });
        self.outcome(r).is_some()
    }

    /// One step forward; false at the last step (the player stays there; not an error).
    #[func]
    pub fn step_forward(&mut self) -> bool {
        let r = self
            .loaded()
            .and_then(|p| p.step_forward().map_err(|e| format!("step_forward: {e}")));
        self.outcome(r).unwrap_or(false)
    }

    /// One step back; false at step 0 (not an error).
    #[func]
    pub fn step_back(&mut self) -> bool {
        let r = self
            .loaded()
            .and_then(|p| p.step_back().map_err(|e| format!("step_back: {e}")));
        self.outcome(r).unwrap_or(false)
    }

    /// Takes keyframes ahead without moving the shown step: walks a second world at most
    /// `max_steps` steps on from the furthest keyframe. True once every keyframe exists
    /// (then any seek replays at most `get_keyframe_every() - 1` steps); false while there
    /// is more to do, or on an error (see `get_last_error()`). A viewer calls it a little
    /// every frame so that scrubbing a long recording never waits on a long replay.
    #[func]
    pub fn index_ahead(&mut self, max_steps: i64) -> bool {
        let r = self.loaded().and_then(|p| {
            let n = u64::try_from(max_steps)
                .ok()
                .filter(|&n| n >= 1)
                .ok_or_else(|| format!("index_ahead: max_steps {max_steps} is not at least 1"))?;
            p.index_ahead(n).map_err(|e| format!("index_ahead: {e}"))
        });
        self.outcome(r).unwrap_or(false)
    }

    /// The step up to which keyframes are complete (`get_step_count()` once indexed).
    #[func]
    pub fn get_indexed_through(&self) -> i64 {
        self.player
            .as_ref()
            .map_or(0, |p| p.indexed_through() as i64)
    }

    /// The world's state hash at the current step: 16 lowercase hex digits, as
    /// `m3replay hashes` prints them ("" when nothing is loaded).
    #[func]
    pub fn hash_at_current(&self) -> GString {
        self.player
            .as_ref()
            .map_or_else(GString::new, |p| hex(p.hash_at_current()).as_str().into())
    }

    /// The hash the recorder stored after its last call (16 hex digits).
    #[func]
    pub fn get_recorded_final_hash(&self) -> GString {
        self.player.as_ref().map_or_else(GString::new, |p| {
            hex(p.recorded_final_hash()).as_str().into()
        })
    }

    /// The player keeps a keyframe every this many steps (0 when nothing is loaded).
    #[func]
    pub fn get_keyframe_every(&self) -> i64 {
        self.player
            .as_ref()
            .map_or(0, |p| p.keyframe_every() as i64)
    }

    /// The live bodies at the current step, in slot order, each a dictionary:
    /// `slot` (int), `type` ("static", "kinematic" or "dynamic"), `position` (Vector3),
    /// `rotation` (Quaternion), `transform` (Transform3D), `linear_velocity`,
    /// `angular_velocity` (Vector3) and `sleeping` (bool).
    #[func]
    pub fn get_bodies(&self) -> Array<VarDictionary> {
        let Some(p) = &self.player else {
            return Array::new();
        };
        let w = p.world();
        w.body_ids().filter_map(|id| body_dict(w, id)).collect()
    }

    /// The body in `slot` at the current step (keys as in `get_bodies`); an empty
    /// dictionary when no live body holds that slot.
    #[func]
    pub fn get_body(&self, slot: i64) -> VarDictionary {
        let Some(p) = &self.player else {
            return VarDictionary::new();
        };
        let w = p.world();
        w.body_ids()
            .find(|&id| self::slot(id) == slot)
            .and_then(|id| body_dict(w, id))
            .unwrap_or_default()
    }

    /// The shapes of the enabled bodies at the current step, for drawing, each a
    /// dictionary: `body_slot` (int), `kind`, `transform` (the shape's frame in the world),
    /// `sleeping` (its body sleeps), and by kind: "sphere" `radius`; "capsule" `radius` and
    /// `half_height` (half the length of its core segment, caps excluded, along the
    /// frame's Y axis); "box" `half_extents`; "cylinder" `radius` and `half_height` (along
    /// Y); "plane" `normal` (the frame's origin lies on the plane; solid behind it);
    /// "hull" and "mesh" `triangles` (3 vertices per triangle, counter-clockwise seen from
    /// outside, in the frame); "ray" `length` (along the frame's +Z axis, as Godot's
    /// SeparationRayShape3D). A voxel grid is described as one "box" per merged box.
    #[func]
    pub fn get_shapes(&self) -> Array<VarDictionary> {
        let Some(p) = &self.player else {
            return Array::new();
        };
        let w = p.world();
        let mut c = Collect {
            shapes: Vec::new(),
            triangles: PackedVector3Array::new(),
            mesh_open: false,
            contacts: Vec::new(),
        };
        w.debug_draw(&DebugDrawOptions::default(), &mut c);
        c.end_mesh();
        c.shapes.into_iter().map(|(_, d)| d).collect()
    }

    /// The touching contact points at the current step: `point` (Vector3, world),
    /// `normal` (Vector3, from the first body to the second), `separation` (float,
    /// negative when overlapping) and `impulse` (float, the normal impulse of the step).
    #[func]
    pub fn get_contacts(&self) -> Array<VarDictionary> {
        let Some(p) = &self.player else {
            return Array::new();
        };
        let mut c = Collect {
            shapes: Vec::new(),
            triangles: PackedVector3Array::new(),
            mesh_open: false,
            contacts: Vec::new(),
        };
        let options = DebugDrawOptions {
            shapes: false,
            contacts: true,
            ..DebugDrawOptions::default()
        };
        p.world().debug_draw(&options, &mut c);
        c.contacts.into_iter().collect()
    }

    /// Replays the whole recording (every step, then any calls after the last one) and
    /// compares the end state's hash with the one the recorder stored: `ok` (bool, they
    /// match), `recorded` and `replayed` (16 hex digits), `error` ("" or why it could not
    /// replay). Leaves the player at the last step.
    #[func]
    pub fn verify(&mut self) -> VarDictionary {
        let r = self
            .loaded()
            .and_then(|p| p.verify().map_err(|e| format!("verify: {e}")));
        match self.outcome(r) {
            Some(v) => {
                if !v.matches() {
                    self.last_error = format!(
                        "verify: the replay ends on {} but the recorder stored {}",
                        hex(v.replayed),
                        hex(v.recorded)
                    );
                }
                vdict! {
                    "ok" => v.matches(),
                    "recorded" => hex(v.recorded),
                    "replayed" => hex(v.replayed),
                    "error" => "",
                }
            }
            None => vdict! {
                "ok" => false,
                "recorded" => &self.get_recorded_final_hash(),
                "replayed" => "",
                "error" => self.last_error.as_str(),
            },
        }
    }

    /// Compares this recording with `other`'s step by step from the start. `result`:
    /// "agree" (same hash at every step, same length), "length" (same hash at every step
    /// both have; one goes on longer), "part" (they part at `step`), "error" (not
    /// comparable: nothing loaded, different world capacities; `error` says why). Also:
    /// `step` (the parting step, or the last shared step), `hash_a` and `hash_b` (there),
    /// `differing` (body slots that differ there), `steps_a`, `steps_b`, and `bodies`: at
    /// most `max_rows` differing bodies, worst first, each `slot`, `alive_in_a`,
    /// `alive_in_b`, `position_error`, `rotation_error` (radians) and `velocity_error`.
    /// Both players are left at `step`.
    #[func]
    pub fn diff(
        &mut self,
        mut other: Gd<Maul3DReplayPlayer>,
        #[opt(default = 16)] max_rows: i64,
    ) -> VarDictionary {
        let mut out = vdict! {
            "result" => "error", "step" => 0, "hash_a" => "", "hash_b" => "",
            "differing" => 0, "steps_a" => self.get_step_count(), "steps_b" => 0,
            "error" => "", "bodies" => &Array::<VarDictionary>::new(),
        };
        if other.instance_id() == self.base().instance_id() {
            self.outcome::<()>(Err(
                "diff: the other player is this one (load the second recording into another Maul3DReplayPlayer)".into(),
            ));
            out.set("error", self.last_error.as_str());
            return out;
        }
        let rows = match usize::try_from(max_rows) {
            Ok(n) if n <= 65536 => n,
            _ => {
                self.outcome::<()>(Err(format!(
                    "diff: max_rows {max_rows} is not in [0, 65536]"
                )));
                out.set("error", self.last_error.as_str());
                return out;
            }
        };
        let mut o = other.bind_mut();
        out.set("steps_b", o.get_step_count());
        let r = match (self.player.as_mut(), o.player.as_mut()) {
            (Some(a), Some(b)) => ReplayPlayer::diff(a, b, rows)
                .map(|p| {
                    (
                        p,
                        a.current_step(),
                        a.hash_at_current(),
                        b.hash_at_current(),
                    )
                })
                .map_err(|e| format!("diff: {e}")),
            (None, _) => Err("diff: this player has no replay loaded".into()),
            (_, None) => Err("diff: the other player has no replay loaded".into()),
        };
        drop(o);
        let Some((parting, at, ha, hb)) = self.outcome(r) else {
            out.set("error", self.last_error.as_str());
            return out;
        };
        out.set("step", at as i64);
        out.set("hash_a", hex(ha));
        out.set("hash_b", hex(hb));
        match parting {
            Parting::Agree { .. } => out.set("result", "agree"),
            Parting::Length { .. } => out.set("result", "length"),
            Parting::At {
                differing, rows, ..
            } => {
                out.set("result", "part");
                out.set("differing", differing as i64);
                let bodies: Array<VarDictionary> = rows
                    .iter()
                    .map(|r| {
                        vdict! {
                            "slot" => i64::from(r.slot),
                            "alive_in_a" => r.alive_in_a,
                            "alive_in_b" => r.alive_in_b,
                            "position_error" => r.position_error,
                            "rotation_error" => r.rotation_error,
                            "velocity_error" => r.velocity_error,
                        }
                    })
                    .collect();
                out.set("bodies", &bodies);
            }
        }
        out
    }
}
