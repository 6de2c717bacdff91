//! Per-body contact data: the touching contacts the solver used in the last step, read
//! back with their manifolds and impulses (Box2D v3's `b2Body_GetContactData`,
//! `b2Shape_GetContactData`, `b2Body_GetContactCapacity`).
//!
//! The front ends build their contact reports from this (Godot's
//! `PhysicsDirectBodyState3D` contacts, the C ABI's `m3Body_GetContactData`) instead of
//! re-running shape queries after the step: what they report is what the solver pushed
//! with.
//!
//! Reading changes nothing (no state, no hash, no journal record) and never allocates.
//! The contacts come in a fixed order, by (shape A, shape B, child) slot, which is state:
//! the same in a world restored from a snapshot, whatever history built the (derived)
//! body contact lists the walk reads.

use crate::body::NONE;
use crate::contact::{CONTACT_DISABLED, CONTACT_TOUCHING, Contact};
use crate::edge;
use crate::error::Result;
use crate::id::{BodyId, ShapeId};
use crate::math::{DVec3, Vec3};
use crate::world::World;

/// The `child` of a contact between two whole shapes.
pub const NO_CHILD: u32 = u32::MAX;

/// One point of a contact manifold, as the solver left it after the last step.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ContactManifoldPoint {
    /// The point, relative to the world origin: where the narrow phase last put it
    /// (midway between the surfaces), carried along with body A's centre of mass since.
    /// Two boxes or hulls keep their manifold (points, anchors, normal) while their bodies
    /// move less than 5 cm and turn less than 10° relative to each other, measuring only
    /// its separations again each step (Box3D's contact recycling), so theirs may be a
    /// few steps old.
    pub point: DVec3,
    /// The point relative to body A's centre of mass, world orientation.
    pub anchor_a: Vec3,
    /// The point relative to body B's centre of mass, world orientation.
    pub anchor_b: Vec3,
    /// Separation along the normal when the manifold was computed (negative: overlap).
    pub separation: f32,
    /// The accumulated normal impulse (N·s), the one the next step warm-starts with.
    /// The solver applies it once per substep, so over a step of `n` substeps a steady
    /// contact pushed with `n` times this (a box of mass `m` at rest under gravity `g`:
    /// its points' impulses sum to `m·g·dt/n`). The exact total over the substeps
    /// (Box2D 3.1's `totalNormalImpulse`) is not kept by the solver.
    pub normal_impulse: f32,
    /// The accumulated friction impulse (N·s per substep, like `normal_impulse`): a world
    /// vector in the tangent plane, applied to B (and its opposite to A).
    pub tangent_impulse: Vec3,
    /// The largest normal impulse one solver iteration applied in the last step: above
    /// zero for a speculative point that acted, though it ends the step at zero.
    pub max_normal_impulse: f32,
    /// Feature id: the same for the same pair of features from step to step.
    pub id: u32,
    // Box2D's `normalVelocity` (the approach speed before the solve) is not kept; a hit
    // event reports it for a contact that begins touching.
}

/// A contact manifold: up to four points sharing one normal.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ContactManifold {
    /// Unit normal from shape A to shape B, world orientation.
    pub normal: Vec3,
    /// The accumulated rolling-resistance impulse (zero without rolling resistance).
    pub rolling_impulse: Vec3,
    /// The points; only the first `point_count` are used.
    pub points: [ContactManifoldPoint; 4],
    /// Number of points, 1 to 4 for a touching contact.
    pub point_count: u32,
}

impl ContactManifold {
    /// The points in use.
    pub fn points(&self) -> &[ContactManifoldPoint] {
        &self.points[..(self.point_count as usize).min(self.points.len())]
    }
}

/// A touching contact of two shapes and its manifold.
///
/// A pair with a mesh, height field or voxel grid (always shape A) touches through one
/// contact per triangle or merged voxel box: each is its own `ContactData`, with `child`
/// naming the triangle or box, and the same two shapes.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ContactData {
    /// Shape A: the one of higher kind (mesh > hull/box > capsule > sphere; the lower
    /// slot of equal kinds).
    pub shape_a: ShapeId,
    /// Shape B.
    pub shape_b: ShapeId,
    /// The triangle (mesh, height field) or merged voxel box of shape A this contact is
    /// for; [`NO_CHILD`] for a contact of two whole shapes.
    pub child: u32,
    /// The manifold the solver used, with its impulses.
    pub manifold: ContactManifold,
}

/// The order contacts are reported in: shape A, shape B, child (slots and indices are
/// state, so a restored world reports in the same order).
type Key = (u32, u32, u32);

fn key_of(c: &Contact) -> Key {
    // Ids' indices are slots plus one (slots stay below 2^24).
    (c.shape_a + 1, c.shape_b + 1, c.child)
}

fn key_of_data(d: &ContactData) -> Key {
    (d.shape_a.index, d.shape_b.index, d.child)
}

/// Restores the max-heap (by key) below `i` in `heap`.
fn sift_down(heap: &mut [ContactData], mut i: usize) {
    loop {
        let (l, r) = (2 * i + 1, 2 * i + 2);
        let mut top = i;
        for c in [l, r] {
            if c < heap.len() && key_of_data(&heap[c]) > key_of_data(&heap[top]) {
                top = c;
            }
        }
        if top == i {
            return;
        }
        heap.swap(i, top);
        i = top;
    }
}

/// Keeps the `out.len()` contacts of least key among those offered, in key order at
/// `finish`: a max-heap on `out` once it is full, so a short array costs
/// O(n log capacity), never an allocation.
struct Selection<'a> {
    out: &'a mut [ContactData],
    filled: usize,
    seen: usize,
}

impl Selection<'_> {
    fn offer(&mut self, key: Key, make: impl FnOnce() -> ContactData) {
        self.seen += 1;
        let cap = self.out.len();
        if self.filled < cap {
            self.out[self.filled] = make();
            self.filled += 1;
            if self.filled == cap {
                for i in (0..cap / 2).rev() {
                    sift_down(self.out, i);
                }
            }
        } else if cap > 0 && key < key_of_data(&self.out[0]) {
            self.out[0] = make();
            sift_down(self.out, 0);
        }
    }

    fn finish(self) -> usize {
        self.out[..self.filled].sort_unstable_by_key(key_of_data);
        self.seen
    }
}

impl World {
    /// The contact data of contact `c`.
    fn contact_data_of(&self, c: &Contact) -> ContactData {
        let a = &self.bodies[c.body_a as usize];
        let base = a.position + a.center_offset().to_f64();
        let mut manifold = ContactManifold {
            normal: c.normal,
            rolling_impulse: c.rolling_impulse,
            points: [ContactManifoldPoint::default(); 4],
            point_count: c.point_count as u32,
        };
        let points = &c.points[..c.point_count as usize];
        for (out, p) in manifold.points.iter_mut().zip(points) {
            *out = ContactManifoldPoint {
                point: base + p.anchor_a.to_f64(),
                anchor_a: p.anchor_a,
                anchor_b: p.anchor_b,
                separation: p.separation,
                normal_impulse: p.normal_impulse,
                tangent_impulse: p.tangent_impulse,
                max_normal_impulse: p.max_normal_impulse,
                id: p.id,
            };
        }
        ContactData {
            shape_a: self.shape_id(c.shape_a),
            shape_b: self.shape_id(c.shape_b),
            child: if c.child == NONE { NO_CHILD } else { c.child },
            manifold,
        }
    }

    /// Fills `out` with the touching contacts of body slot `body` that `keep` accepts.
    fn touching_contacts(
        &self,
        body: u32,
        keep: impl Fn(&Contact) -> bool,
        out: &mut [ContactData],
    ) -> usize {
        let mut sel = Selection {
            out,
            filled: 0,
            seen: 0,
        };
        for n in edge::walk(&self.contacts, &self.bodies, body) {
            let c = &self.contacts[n.slot as usize];
            // A mesh pair's parent has no points: its children touch. A contact the
            // pre-solve callback disabled took no part in the solve (in Box2D it stops
            // touching).
            let used = c.flags & CONTACT_TOUCHING != 0 && c.flags & CONTACT_DISABLED == 0;
            if !used || c.point_count == 0 || !keep(c) {
                continue;
            }
            sel.offer(key_of(c), || self.contact_data_of(c));
        }
        sel.finish()
    }

    /// How many contacts the body has (touching or not): enough room for
    /// [`World::body_contact_data`].
    pub fn body_contact_capacity(&self, body: BodyId) -> Result<usize> {
        let b = self.body_slot(body)?;
        Ok(edge::count::<Contact>(&self.bodies, b as u32) as usize)
    }

    /// How many contacts the shape has (touching or not): enough room for
    /// [`World::shape_contact_data`].
    pub fn shape_contact_capacity(&self, shape: ShapeId) -> Result<usize> {
        let s = self.shape_slot(shape)? as u32;
        let body = self.shapes[s as usize].body;
        Ok(edge::walk(&self.contacts, &self.bodies, body)
            .filter(|n| {
                let c = &self.contacts[n.slot as usize];
                c.shape_a == s || c.shape_b == s
            })
            .count())
    }

    /// The body's touching contacts (manifold point count above zero) as the last step's
    /// solver left them, by (shape A, shape B, child) slot: fills `out` with the first
    /// `out.len()` and returns how many there are (which may exceed `out.len()`). A pair
    /// with a mesh, height field or voxel grid gives one entry per touching triangle or
    /// voxel box (`child`). A contact the pre-solve callback disabled in the last step
    /// is left out: the solver did not use it. Changes nothing; never allocates.
    ///
    /// ```
    /// use maul3d::{BodyDef, BodyType, ContactData, ShapeDef, World, WorldDef, math::{DVec3, Vec3}};
    /// let mut world = World::new(&WorldDef::default()).unwrap();
    /// let ground = world.create_body(&BodyDef::default()).unwrap();
    /// world.create_box_shape(ground, &ShapeDef::default(), Vec3::new(5.0, 1.0, 5.0)).unwrap();
    /// let def = BodyDef { body_type: BodyType::Dynamic, position: DVec3::new(0.0, 1.5, 0.0), ..Default::default() };
    /// let body = world.create_body(&def).unwrap();
    /// world.create_box_shape(body, &ShapeDef::default(), Vec3::new(0.5, 0.5, 0.5)).unwrap();
    /// for _ in 0..30 {
    ///     world.step(1.0 / 60.0, 4).unwrap();
    /// }
    /// let mut contacts = [ContactData::default(); 4];
    /// let n = world.body_contact_data(body, &mut contacts).unwrap();
    /// assert_eq!(n, 1);
    /// assert_eq!(contacts[0].manifold.points().len(), 4);
    /// ```
    pub fn body_contact_data(&self, body: BodyId, out: &mut [ContactData]) -> Result<usize> {
        let b = self.body_slot(body)? as u32;
        Ok(self.touching_contacts(b, |_| true, out))
    }

    /// How many contacts the world has (touching or not): enough room for
    /// [`World::contact_data`].
    pub fn contact_data_capacity(&self) -> usize {
        self.contacts.count as usize
    }

    /// Every touching contact of the world, as [`World::body_contact_data`] gives one
    /// body's, by (shape A, shape B, child) slot: fills `out` with the first `out.len()`
    /// and returns how many there are. What a host's debug view of contacts shows
    /// (Godot's `space_get_contacts`). Changes nothing; never allocates.
    pub fn contact_data(&self, out: &mut [ContactData]) -> usize {
        let mut sel = Selection {
            out,
            filled: 0,
            seen: 0,
        };
        for c in self.contacts.iter() {
            let used =
                c.alive && c.flags & CONTACT_TOUCHING != 0 && c.flags & CONTACT_DISABLED == 0;
            if used && c.point_count > 0 {
                sel.offer(key_of(c), || self.contact_data_of(c));
            }
        }
        sel.finish()
    }

    /// The shape's touching contacts, as [`World::body_contact_data`] gives its body's.
    pub fn shape_contact_data(&self, shape: ShapeId, out: &mut [ContactData]) -> Result<usize> {
        let s = self.shape_slot(shape)? as u32;
        let body = self.shapes[s as usize].body;
        Ok(self.touching_contacts(body, |c| c.shape_a == s || c.shape_b == s, out))
    }
}
