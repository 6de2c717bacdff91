//! # Maul3D
//!
//! A deterministic 3D physics engine: the same calls with the same arguments in the same
//! order give the same bits on every platform, with any number of threads, whatever
//! floating-point mode the host runs in.
//!
//! Callers of the Rust API are in Rust's default floating-point environment (round to
//! nearest, subnormals kept); the C ABI and Godot entries switch to it in their shims.
//!
//! ```
//! use maul3d::{BodyDef, BodyType, ShapeDef, World, WorldDef, math::{DVec3, Vec3}};
//! let mut world = World::new(&WorldDef::default()).unwrap();
//! let ground = world.create_body(&BodyDef::default()).unwrap();
//! world.create_box_shape(ground, &ShapeDef::default(), Vec3::new(50.0, 1.0, 50.0)).unwrap();
//! let body = world
//!     .create_body(&BodyDef { body_type: BodyType::Dynamic, position: DVec3::new(0.0, 4.0, 0.0), ..Default::default() })
//!     .unwrap();
//! world.create_box_shape(body, &ShapeDef::default(), Vec3::new(0.5, 0.5, 0.5)).unwrap();
//! for _ in 0..120 {
//!     world.step(1.0 / 60.0, 4).unwrap();
//! }
//! let y = world.body_position(body).unwrap().y;
//! assert!((y - 1.5).abs() < 0.02);
//! ```

#![warn(missing_docs)]
// No function over 150 lines (issue 13): long stages are split into named parts.
#![warn(clippy::too_many_lines)]

pub mod alloc;
mod api;
mod area;
mod body;
pub mod broad_phase;
pub mod character;
mod codec;
pub mod collide;
mod combine;
mod compare;
mod contact;
mod contact_data;
mod content;
mod counters;
mod debug_draw;
mod def;
mod edge;
pub mod error;
mod events;
mod explosion;
mod field;
pub mod fp;
pub mod geometry;
mod grow;
mod hash;
pub mod id;
pub mod joint;
mod journal;
pub mod limits;
pub mod math;
mod motion;
mod presolve;
mod profile;
mod query;
mod sensor;
mod shape;
mod snapshot;
pub mod soft;
mod solver;
mod step;
mod store;
mod task;
pub mod vehicle;
mod wake;
pub mod water;
mod world;

pub use alloc::HostAllocator;
pub use area::{AreaGravity, AreaMode, AreaSettings};
pub use body::{BodyDef, BodyType, MotionLocks};
pub use character::{CharacterDef, CharacterGround, CharacterSettings, GroundState};
pub use combine::CombineRule;
pub use compare::{BodyDiff, SoftBodyDiff};
pub use contact_data::{ContactData, ContactManifold, ContactManifoldPoint, NO_CHILD};
pub use content::VoxelGridDef;
pub use counters::Counters;
pub use debug_draw::{DebugDraw, DebugDrawOptions, DebugGeometry};
pub use def::WorldDef;
pub use error::{Error, Result};
pub use events::{BodyMoveEvent, ContactEvent, ContactHitEvent};
pub use explosion::ExplosionDef;
pub use geometry::height_field::HeightFieldDef;
pub use geometry::{Capsule, Cylinder, MassData, PlaneShape, Sphere};
pub use grow::Capacities;
pub use id::{
    BodyId, CharacterId, HullId, JointId, MeshId, ShapeId, SoftBodyId, VehicleId, WaterVolumeId,
};
pub use joint::{
    AxisMode, ConeTwistJoint, DistanceJoint, JointBreakEvent, JointDef, JointKind, PrismaticJoint,
    RevoluteJoint, SixDofAxis, SixDofJoint, WeldJoint, WheelJoint,
};
pub use journal::{
    CONTAINER_HEADER_SIZE, CONTAINER_REVISION, JournalInfo, KEYFRAME_BUDGET, KEYFRAME_MIN_EVERY,
    Parting, ReplayPlayer, ReplayView, SNAPSHOT_JOURNAL_SIZE, SnapshotJournal, TAPE_HEADER_SIZE,
    TAPE_MAJOR, TAPE_MINOR, Verdict, decode_replay, describe_journal, encode_replay,
    encoded_replay_size, journal_record_ends, snapshot_journal,
};
pub use motion::{
    ContactPointPair, MotionCollision, MotionOptions, MotionResult, MotionTest, SeparationRay,
};
pub use presolve::{PreSolve, PreSolveContact, PreSolveFn};
pub use profile::Profile;
pub use query::{QueryFilter, QueryHull, QueryShape, RayOptions, RayResult, ShapeCastResult};
pub use sensor::SensorEvent;
pub use shape::{BoxShape, Filter, RayShape, ShapeDef, ShapeGeometry, ShapeKind};
pub use snapshot::{SNAPSHOT_HEADER_SIZE, SNAPSHOT_REVISION};
pub use soft::{MAX_SOFT_SUBSTEPS, NO_BENDS, SOFT_BODY_EXCEPTIONS, SoftBodyDef, SoftBodySettings};
pub use solver::SolverLanes;
pub use solver::continuous::{MAX_SWEEP_CANDIDATES, MAX_SWEEP_PIECES};
pub use task::{TaskFn, TaskHooks};
pub use vehicle::{
    AntiRollBar, EngineDef, MAX_ANTI_ROLL_BARS, MAX_GEARS, MAX_WHEELS, SlipCurve, SuspensionSpring,
    TransmissionDef, VehicleDef, VehicleInput, WheelCast, WheelContact, WheelDef,
};
pub use water::{Buoyancy, WaterVolumeDef};
pub use world::World;
