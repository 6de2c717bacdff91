//! `Maul3DCharacterBody3D`: a node that owns one core character (`World::create_character`)
//! in the space of its World3D, moved by `move_and_slide` through the core's mover.

use godot::classes::notify::Node3DNotification;
use godot::classes::{INode3D, Node3D};
use godot::prelude::*;
use maul3d::{CharacterDef, CharacterId, CharacterSettings, Filter, GroundState, World};

use crate::conv::{dv, gdv, gv, v3};
use crate::singleton::{report, with_state, with_state_mut};

/// A kinematic capsule character moved by Maul3D's own character mover, inside Maul3D's
/// determinism promise (Godot's `CharacterBody3D` runs its `move_and_slide` maths in the
/// scene, outside it).
///
/// Entering the tree it makes a character (a capsule of `radius` and `height` along
/// `up_direction`, centred on the node's global position) in the physics space of its
/// World3D; leaving the tree it removes it. `move_and_slide` moves the capsule by
/// `velocity · delta`: it slides along what it meets, walks up steps no higher than
/// `step_height`, sticks to walkable ground within `floor_snap_length`, never climbs
/// ground steeper than `floor_max_angle`, and pushes rigid bodies with at most
/// `max_strength`; then the node's global position follows the capsule. Between moves the
/// character rides the body it stands on (a moving platform) during the step, and the node
/// follows that too. Setting the node's position (or `global_position`) places the
/// character there at its next move (no collision on the way).
///
/// The character is part of the space's state: its hash, snapshots and replays; after
/// `Maul3D.restore` (or a `Maul3DRollback` rollback) the node takes the restored position.
/// A space holds at most `physics/maul3d/character_capacity` characters.
#[derive(GodotClass)]
#[class(base = Node3D)]
pub struct Maul3DCharacterBody3D {
    /// The capsule's radius, m (in (0, 1000]). Changing it remakes the character.
    #[export]
    #[var(set)]
    radius: f32,
    /// The capsule's whole height, m, ends included (at least `2 · radius`). Changing it
    /// remakes the character.
    #[export]
    #[var(set)]
    height: f32,
    /// The character's up (normalised; any nonzero vector): the capsule's axis and what
    /// "floor" means. Changing it remakes the character.
    #[export]
    #[var(set)]
    up_direction: Vector3,
    /// The steepest walkable ground, radians (in [0, π/2]; default 50°). Steeper ground is
    /// slid down and cannot be climbed.
    #[export(range = (0.0, 90.0, radians_as_degrees))]
    #[var(set)]
    floor_max_angle: f32,
    /// The highest step the character walks up, m (default 0.3).
    #[export]
    #[var(set)]
    step_height: f32,
    /// How far down a grounded character walking off a ledge or down a slope is pulled
    /// back to the ground, m (default 0.5).
    #[export]
    #[var(set)]
    floor_snap_length: f32,
    /// The gap kept between the capsule and what it touches, m (in [0.0001, 1]; default
    /// 0.02).
    #[export]
    #[var(set)]
    skin: f32,
    /// The largest force the character pushes rigid bodies with, N (default 100).
    #[export]
    #[var(set)]
    max_strength: f32,
    /// The character's mass for pushing, kg (default 70).
    #[export]
    #[var(set)]
    mass: f32,
    /// The physics layers the character is in (as `CollisionObject3D.collision_layer`).
    /// Changing it remakes the character.
    #[export(flags_3d_physics)]
    #[var(set)]
    collision_layer: u32,
    /// The physics layers the character collides with (as
    /// `CollisionObject3D.collision_mask`). Changing it remakes the character.
    #[export(flags_3d_physics)]
    #[var(set)]
    collision_mask: u32,
    /// The velocity `move_and_slide` moves by, m/s. After a move that ends on the floor,
    /// its part along `up_direction` is dropped when it points down (landing), as
    /// `CharacterBody3D` does; otherwise it is left as given (`get_real_velocity` is what
    /// the character did).
    #[export]
    #[var]
    velocity: Vector3,
    space: Rid,
    id: Option<CharacterId>,
    /// The space's restore count when the node last read its character.
    restores: u64,
    /// The node's global position as last written from the character (a different one
    /// means the node was moved: the character is placed there).
    placed: Vector3,
    base: Base<Node3D>,
}

#[godot_api]
impl INode3D for Maul3DCharacterBody3D {
    fn init(base: Base<Node3D>) -> Self {
        let s = CharacterSettings::default();
        Self {
            radius: 0.3,
            height: 1.8,
            up_direction: Vector3::UP,
            floor_max_angle: s.max_slope_angle,
            step_height: s.step_height,
            floor_snap_length: s.snap_to_ground,
            skin: s.skin,
            max_strength: s.max_strength,
            mass: s.mass,
            collision_layer: 1,
            collision_mask: 1,
            velocity: Vector3::ZERO,
            space: Rid::Invalid,
            id: None,
            restores: 0,
            placed: Vector3::ZERO,
            base,
        }
    }

    // Notifications, not the virtuals: a script extending the node overrides those.
    fn on_notification(&mut self, what: Node3DNotification) {
        match what {
            Node3DNotification::ENTER_TREE => {
                self.base_mut().set_physics_process_internal(true);
                self.make();
            }
            Node3DNotification::EXIT_TREE => self.unmake(),
            Node3DNotification::INTERNAL_PHYSICS_PROCESS => {
                self.sync();
            }
            _ => {}
        }
    }
}

#[godot_api]
impl Maul3DCharacterBody3D {
    /// Moves the character by `velocity` for one physics tick
    /// (`get_physics_process_delta_time()`), as `CharacterBody3D.move_and_slide`; see
    /// `move_for`. True when the move was made.
    #[func]
    pub fn move_and_slide(&mut self) -> bool {
        let dt = self.base().get_physics_process_delta_time();
        self.move_for(dt)
    }

    /// Moves the character by `velocity · delta` through Maul3D's mover (slide, step up,
    /// snap to the floor, push rigid bodies), then puts the node where the character
    /// ended. False (with an error, nothing moved) when the node has no character (not in
    /// the tree, or inert after a restore to before it was made) or `velocity` or `delta`
    /// is out of range (within ±1e4 m/s, [0, 10] s).
    #[func]
    pub fn move_for(&mut self, delta: f64) -> bool {
        let Some(id) = self.sync() else {
            godot_error!("Maul3DCharacterBody3D.move_for: the node has no character");
            return false;
        };
        let (space, owner, v) = (self.space.to_u64(), self.owner(), self.velocity);
        let r = with_state_mut(|st| {
            let (w, _) = st.character_world(space, owner, id)?;
            w.move_character(id, v3(v), delta as f32)
                .map_err(|e| e.to_string())?;
            Ok((w.character_position(id), w.character_ground(id)))
        });
        let Some((p, ground)) = report("Maul3DCharacterBody3D.move_for", r) else {
            return false;
        };
        if let Ok(p) = p {
            self.show(gdv(p));
        }
        if let Ok(g) = ground
            && g.state == GroundState::OnGround
        {
            let up = self.up();
            let along = self.velocity.dot(up);
            if along < 0.0 {
                self.velocity -= up * along;
            }
        }
        true
    }

    /// Places the character at `position` (global; no collision on the way, the next move
    /// resolves any overlap) and the node with it; it is in the air until its next move.
    #[func]
    pub fn teleport(&mut self, position: Vector3) {
        self.base_mut().set_global_position(position);
        self.sync();
    }

    /// Re-reads the character's position from the space now (done by every call and each
    /// physics frame anyway: after a step the character may have ridden a platform, after
    /// `Maul3D.restore` it is where the snapshot had it).
    #[func]
    pub fn sync_from_space(&mut self) {
        self.sync();
    }

    /// Whether the last move ended on walkable ground (no steeper than `floor_max_angle`).
    #[func]
    pub fn is_on_floor(&mut self) -> bool {
        self.ground()
            .is_some_and(|g| g.state == GroundState::OnGround)
    }

    /// Whether the last move ended touching ground too steep to stand on (it slides).
    #[func]
    pub fn is_on_steep_ground(&mut self) -> bool {
        self.ground()
            .is_some_and(|g| g.state == GroundState::OnSteepGround)
    }

    /// The normal of the ground the character touches (zero in the air).
    #[func]
    pub fn get_floor_normal(&mut self) -> Vector3 {
        self.ground().map_or(Vector3::ZERO, |g| gv(g.normal))
    }

    /// The velocity of the ground body at the character's contact point (a moving
    /// platform's; zero in the air), as `CharacterBody3D.get_platform_velocity`.
    #[func]
    pub fn get_platform_velocity(&mut self) -> Vector3 {
        self.ground().map_or(Vector3::ZERO, |g| gv(g.velocity))
    }

    /// The RID of the physics body the character stands on (an invalid RID in the air or
    /// on a body no Godot node owns).
    #[func]
    pub fn get_floor_rid(&mut self) -> Rid {
        let Some(g) = self.ground() else {
            return Rid::Invalid;
        };
        let space = self.space.to_u64();
        with_state(|st| {
            let (w, _) = st.extras(space)?;
            Ok(w.body_user_data(g.body).unwrap_or(0))
        })
        .map_or(Rid::Invalid, |r| {
            if r == 0 { Rid::Invalid } else { Rid::new(r) }
        })
    }

    /// What the last move did: the displacement over its `delta`, m/s (steps up and
    /// slides included).
    #[func]
    pub fn get_real_velocity(&mut self) -> Vector3 {
        self.read(|w, id| w.character_velocity(id).ok().map(gv))
            .unwrap_or(Vector3::ZERO)
    }

    /// Whether the node has a character in its space now.
    #[func]
    pub fn has_character(&self) -> bool {
        self.id.is_some()
    }

    /// Sets `radius` (remakes the character).
    #[func]
    pub fn set_radius(&mut self, radius: f32) {
        self.radius = radius;
        self.remake();
    }

    /// Sets `height` (remakes the character).
    #[func]
    pub fn set_height(&mut self, height: f32) {
        self.height = height;
        self.remake();
    }

    /// Sets `up_direction` (remakes the character).
    #[func]
    pub fn set_up_direction(&mut self, up: Vector3) {
        self.up_direction = up;
        self.remake();
    }

    /// Sets `collision_layer` (remakes the character).
    #[func]
    pub fn set_collision_layer(&mut self, layer: u32) {
        self.collision_layer = layer;
        self.remake();
    }

    /// Sets `collision_mask` (remakes the character).
    #[func]
    pub fn set_collision_mask(&mut self, mask: u32) {
        self.collision_mask = mask;
        self.remake();
    }

    /// Sets `floor_max_angle` (refused with an error outside [0, π/2]).
    #[func]
    pub fn set_floor_max_angle(&mut self, angle: f32) {
        let old = std::mem::replace(&mut self.floor_max_angle, angle);
        if !self.push_settings("floor_max_angle") {
            self.floor_max_angle = old;
        }
    }

    /// Sets `step_height` (refused with an error outside [0, 1000]).
    #[func]
    pub fn set_step_height(&mut self, height: f32) {
        let old = std::mem::replace(&mut self.step_height, height);
        if !self.push_settings("step_height") {
            self.step_height = old;
        }
    }

    /// Sets `floor_snap_length` (refused with an error outside [0, 1000]).
    #[func]
    pub fn set_floor_snap_length(&mut self, length: f32) {
        let old = std::mem::replace(&mut self.floor_snap_length, length);
        if !self.push_settings("floor_snap_length") {
            self.floor_snap_length = old;
        }
    }

    /// Sets `skin` (refused with an error outside [0.0001, 1]).
    #[func]
    pub fn set_skin(&mut self, skin: f32) {
        let old = std::mem::replace(&mut self.skin, skin);
        if !self.push_settings("skin") {
            self.skin = old;
        }
    }

    /// Sets `max_strength` (refused with an error outside [0, 1e9]).
    #[func]
    pub fn set_max_strength(&mut self, strength: f32) {
        let old = std::mem::replace(&mut self.max_strength, strength);
        if !self.push_settings("max_strength") {
            self.max_strength = old;
        }
    }

    /// Sets `mass` (refused with an error outside [0.001, 1e9]).
    #[func]
    pub fn set_mass(&mut self, mass: f32) {
        let old = std::mem::replace(&mut self.mass, mass);
        if !self.push_settings("mass") {
            self.mass = old;
        }
    }
}

impl Maul3DCharacterBody3D {
    fn owner(&self) -> u64 {
        self.base().instance_id().to_i64() as u64
    }

    fn up(&self) -> Vector3 {
        let u = self.up_direction;
        if u.length_squared() > 0.0 && u.is_finite() {
            u.normalized()
        } else {
            Vector3::UP
        }
    }

    fn settings(&self) -> CharacterSettings {
        CharacterSettings {
            max_slope_angle: self.floor_max_angle,
            step_height: self.step_height,
            skin: self.skin,
            max_strength: self.max_strength,
            snap_to_ground: self.floor_snap_length,
            mass: self.mass,
        }
    }

    fn def(&self) -> CharacterDef {
        let (layer, mask) = (
            u64::from(self.collision_layer),
            u64::from(self.collision_mask),
        );
        CharacterDef {
            position: dv(self.base().get_global_position()),
            up: v3(self.up_direction),
            radius: self.radius,
            half_height: maul3d::math::max(self.height * 0.5 - self.radius, 0.0),
            // Godot's layer rule in the core's (see `Obj::filter`).
            filter: Filter {
                category_bits: layer | mask << 32,
                mask_bits: mask | layer << 32,
                group_index: 0,
            },
            settings: self.settings(),
        }
    }

    fn make(&mut self) {
        let Some(world) = self.base().get_world_3d() else {
            return;
        };
        self.space = world.get_space();
        let (space, owner, def) = (self.space.to_u64(), self.owner(), self.def());
        let r = with_state_mut(|st| st.character_create(space, owner, &def));
        if let Some((id, restores)) = report("Maul3DCharacterBody3D", r) {
            self.id = Some(id);
            self.restores = restores;
            self.placed = self.base().get_global_position();
        }
    }

    fn unmake(&mut self) {
        if let Some(id) = self.id.take() {
            let (space, owner) = (self.space.to_u64(), self.owner());
            let _ = with_state_mut(|st| {
                st.character_destroy(space, owner, id);
                Ok(())
            });
        }
    }

    /// Makes the character again from the properties (a creation-time one changed), at
    /// the node's position.
    fn remake(&mut self) {
        if self.id.is_some() {
            self.sync();
            self.unmake();
            self.make();
        }
    }

    /// Gives the character the settings of the properties; false (with an error) when
    /// refused.
    fn push_settings(&mut self, what: &str) -> bool {
        let Some(id) = self.id else {
            return true;
        };
        let (space, owner, settings) = (self.space.to_u64(), self.owner(), self.settings());
        let r = with_state_mut(|st| {
            let (w, _) = st.character_world(space, owner, id)?;
            w.set_character_settings(id, &settings)
                .map_err(|e| e.to_string())
        });
        report(&format!("Maul3DCharacterBody3D.{what}"), r).is_some()
    }

    /// Puts the node at `p` and remembers where it was put.
    fn show(&mut self, p: Vector3) {
        self.base_mut().set_global_position(p);
        self.placed = self.base().get_global_position();
    }

    /// Brings node and character together: after a restore the node takes the
    /// character's position; a node moved since it was last put places the character
    /// there; otherwise the node follows the character (which may have ridden a platform).
    /// The character's id, if the node has one that is still in its space.
    fn sync(&mut self) -> Option<CharacterId> {
        let id = self.id?;
        let (space, owner) = (self.space.to_u64(), self.owner());
        let node = self.base().get_global_position();
        let (seen, placed) = (self.restores, self.placed);
        let r = with_state_mut(|st| {
            let (w, restores) = st.character_world(space, owner, id)?;
            if restores == seen && node != placed {
                w.set_character_position(id, dv(node))
                    .map_err(|e| e.to_string())?;
            }
            Ok((
                restores,
                w.character_position(id).map_err(|e| e.to_string())?,
            ))
        });
        match r {
            Ok((restores, p)) => {
                self.restores = restores;
                self.show(gdv(p));
                Some(id)
            }
            Err(e) => {
                // Gone in a restore (made after the snapshot): inert from now on.
                godot_warn!("Maul3DCharacterBody3D: {e}");
                self.id = None;
                None
            }
        }
    }

    fn read<R>(&mut self, f: impl FnOnce(&World, CharacterId) -> Option<R>) -> Option<R> {
        let id = self.sync()?;
        let space = self.space.to_u64();
        with_state(|st| Ok(f(st.extras(space)?.0, id)))
            .ok()
            .flatten()
    }

    fn ground(&mut self) -> Option<maul3d::CharacterGround> {
        self.read(|w, id| w.character_ground(id).ok())
    }
}
