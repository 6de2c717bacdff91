//! The stores: one per subsystem, each owning its pool (slots, free list, live count),
//! its scratch, its per-step events and, in `<store>/codec.rs`, its snapshot encoding
//! (encode, decode checked against the stores before it, rebuild). `World` is their composition; a stage borrows the
//! stores it needs.
//!
//! | store | owns |
//! |---|---|
//! | [`pool::Pool`] | slots of one kind, free list, live count, id checks |
//! | [`bodies::BodyStore`] | body pool, move events |
//! | `shapes` (`Pool<Shape>`) | shape pool |
//! | [`content::ContentStore`] | hull pool, mesh/height-field/voxel pool, content bytes |
//! | [`contacts::ContactStore`] | contact pool, pair set, begin/end/hit events, scratch |
//! | [`joints::JointStore`] | joint pool, break events, scratch |
//! | [`sensors::SensorStore`] | sensor overlaps, sensor begin/end events, scratch |
//! | [`characters::CharacterStore`] | character pool |
//! | [`vehicles::VehicleStore`] | vehicle pool |
//! | [`water::WaterStore`] | water volume pool |
//! | [`soft::SoftStore`] | soft body pool, particles, rest shapes, triangles, constraints, scratch |
//! | [`presolve::PreSolveStore`] | the pre-solve callback and the pairs it disabled |

pub(crate) mod bodies;
pub(crate) mod characters;
pub(crate) mod contacts;
pub(crate) mod content;
pub(crate) mod joints;
pub(crate) mod pool;
pub(crate) mod presolve;
pub(crate) mod sensors;
pub(crate) mod shapes;
pub(crate) mod soft;
pub(crate) mod vehicles;
pub(crate) mod water;

/// Derefs a store to its pool, so `store[slot]`, `store.len()`, `store.free` and
/// `store.count` read as on the pool.
macro_rules! store_derefs_to_pool {
    ($store:ty, $t:ty) => {
        impl core::ops::Deref for $store {
            type Target = crate::store::pool::Pool<$t>;
            fn deref(&self) -> &Self::Target {
                &self.pool
            }
        }
        impl core::ops::DerefMut for $store {
            fn deref_mut(&mut self) -> &mut Self::Target {
                &mut self.pool
            }
        }
    };
}
pub(crate) use store_derefs_to_pool;
