//! Ids: small `Copy` values with an index and a generation, checked on every call, so a
//! stale id is an error, never a dangling reference.
//!
//! `index` is the slot plus one, so an all-zero id is null. Tapes and snapshots store ids
//! as (index, generation) with no world part, so a twin world accepts them; in memory an
//! id also carries the tag of the world that made it, and another world refuses it.

macro_rules! define_id {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[repr(C)]
        pub struct $name {
            /// Slot plus one; 0 is null.
            pub index: u32,
            /// Bumped each time the slot is reused.
            pub generation: u32,
            /// Tag of the world that made the id (not simulation state).
            pub world: u32,
        }

        impl $name {
            /// The null id.
            pub const NULL: $name = $name { index: 0, generation: 0, world: 0 };

            /// Whether this is the null id.
            #[inline]
            pub fn is_null(self) -> bool {
                self.index == 0
            }

            /// (index, generation, world), as a pool checks them.
            #[inline]
            #[allow(dead_code)]
            pub(crate) fn parts(self) -> (u32, u32, u32) {
                (self.index, self.generation, self.world)
            }
        }
    };
}

define_id!(
    /// A rigid body.
    BodyId
);
define_id!(
    /// A shape attached to a body.
    ShapeId
);
define_id!(
    /// A convex hull shared by any number of hull shapes.
    HullId
);
define_id!(
    /// A triangle mesh or height field (content shared by any number of shapes).
    MeshId
);
define_id!(
    /// A joint between two bodies.
    JointId
);
define_id!(
    /// A character: a kinematic capsule mover (`crate::character`).
    CharacterId
);
define_id!(
    /// A vehicle: a chassis body on ray- or shape-cast wheels (`crate::vehicle`).
    VehicleId
);
define_id!(
    /// A water volume: a box region of fluid with a surface (`crate::water`).
    WaterVolumeId
);
define_id!(
    /// A soft body: cloth or a volume of particles (`crate::soft`).
    SoftBodyId
);
