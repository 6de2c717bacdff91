//! The calls a case makes, as plain data: a case is a world config and a list of ops, so a
//! failing case can be cut down op by op and printed as Rust that builds the same list.
//!
//! Objects are named by *picks*, not ids: the interpreter resolves a pick against the ids
//! the case has created so far (see [`crate::exec`]), so any sub-list of ops still runs.
//! Every value is stored as given (NaN and infinities included): `F`, `D` and the
//! `Debug` impls print them as Rust expressions.

use core::fmt;

/// An `f32` that prints as a Rust expression (`F(1.5)`, `F(f32::NAN)`).
#[derive(Clone, Copy, PartialEq)]
pub struct F(pub f32);

/// An `f64` that prints as a Rust expression.
#[derive(Clone, Copy, PartialEq)]
pub struct D(pub f64);

impl fmt::Debug for F {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let v = self.0;
        if v.is_nan() {
            write!(f, "F(f32::NAN)")
        } else if v == f32::INFINITY {
            write!(f, "F(f32::INFINITY)")
        } else if v == f32::NEG_INFINITY {
            write!(f, "F(f32::NEG_INFINITY)")
        } else {
            // Debug is the shortest text that reads back to the same bits.
            write!(f, "F({v:?})")
        }
    }
}

impl fmt::Debug for D {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let v = self.0;
        if v.is_nan() {
            write!(f, "D(f64::NAN)")
        } else if v == f64::INFINITY {
            write!(f, "D(f64::INFINITY)")
        } else if v == f64::NEG_INFINITY {
            write!(f, "D(f64::NEG_INFINITY)")
        } else {
            write!(f, "D({v:?})")
        }
    }
}

/// A vector of `f32`.
pub type V3 = [F; 3];
/// A vector of `f64`.
pub type DV3 = [D; 3];
/// A quaternion (x, y, z, w), passed as given (not normalised).
pub type Q = [F; 4];

/// A pick: which object of a kind a call names. Resolved by the interpreter:
/// `NULL_PICK` is the null id, `FOREIGN_PICK` an id of another world, a pick with
/// `ANY_PICK` set names any id the case ever made (live or destroyed, so often stale),
/// any other a live one (`pick % live count`).
pub type Pick = u32;
/// The null id.
pub const NULL_PICK: Pick = u32::MAX;
/// An id carrying another world's tag.
pub const FOREIGN_PICK: Pick = u32::MAX - 1;
/// Bit set: any id ever made (live or stale).
pub const ANY_PICK: Pick = 1 << 31;
/// The last id of the kind the case made (live or not): "the body just created".
pub const LAST_PICK: Pick = ANY_PICK - 1;

/// The world a case runs in.
#[derive(Clone, Debug, PartialEq)]
pub struct WorldConfig {
    /// Gravity.
    pub gravity: V3,
    /// `WorldDef::restitution_threshold`.
    pub restitution_threshold: F,
    /// `WorldDef::contact_hertz`.
    pub contact_hertz: F,
    /// `WorldDef::contact_damping_ratio`.
    pub contact_damping_ratio: F,
    /// `WorldDef::contact_push_max_speed`.
    pub contact_push_max_speed: F,
    /// `WorldDef::joint_damping_ratio`.
    pub joint_damping_ratio: F,
    /// `WorldDef::max_linear_speed`.
    pub max_linear_speed: F,
    /// `WorldDef::hit_event_threshold`.
    pub hit_event_threshold: F,
    /// `WorldDef::enable_sleep`.
    pub enable_sleep: bool,
    /// Capacities: bodies, shapes, contacts, pairs, hulls, joints, meshes, events, sensors.
    pub capacities: [u32; 9],
    /// `WorldDef::content_capacity`, bytes.
    pub content_capacity: u64,
    /// 0: no task hooks; n: inline hooks with n workers that run the pieces in reverse.
    pub task_workers: u32,
    /// Capacities: characters, vehicles, water volumes.
    pub more_capacities: [u32; 3],
}

/// Character settings.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CharSetD {
    /// Steepest walkable slope, radians.
    pub max_slope_angle: F,
    /// Step height.
    pub step_height: F,
    /// Skin.
    pub skin: F,
    /// Strength.
    pub max_strength: F,
    /// Snap distance.
    pub snap_to_ground: F,
    /// Mass.
    pub mass: F,
}

/// A character def.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CharD {
    /// Capsule centre.
    pub position: DV3,
    /// Up.
    pub up: V3,
    /// Radius.
    pub radius: F,
    /// Half height.
    pub half_height: F,
    /// Filter category and mask bits.
    pub filter: (u64, u64),
    /// Settings.
    pub settings: CharSetD,
}

/// A wheel def (spread to the wheel positions of a vehicle, see `exec::vehicle_def`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WheelD {
    /// Half the track and half the wheelbase: where the wheels sit.
    pub spread: [F; 2],
    /// Height of the attachment points in the chassis frame.
    pub height: F,
    /// Suspension direction.
    pub direction: V3,
    /// Min, max, rest length.
    pub lengths: [F; 3],
    /// Spring: frequency (Hz, damping ratio) when `frequency`, else (stiffness, damping).
    pub frequency: bool,
    /// The spring's two numbers.
    pub spring: [F; 2],
    /// Radius, width, inertia.
    pub radius: F,
    /// Width.
    pub width: F,
    /// Inertia.
    pub inertia: F,
    /// Max steer angle (front wheels).
    pub steer: F,
    /// Brake and handbrake torque.
    pub brakes: [F; 2],
    /// Slip curves: peak slip, peak, sliding slip, sliding (longitudinal; lateral the same
    /// scaled).
    pub curve: [F; 4],
    /// 0 ray, 1 sphere, 2 cylinder.
    pub cast: u8,
}

/// A vehicle def.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct VehicleD {
    /// The chassis body.
    pub chassis: Pick,
    /// Wheel count (may be out of range).
    pub wheels: u32,
    /// The wheels.
    pub wheel: WheelD,
    /// Up and forward in the chassis frame.
    pub axes: (V3, V3),
    /// Engine max torque, min rpm, max rpm.
    pub engine: [F; 3],
    /// Gear count (may be out of range), first gear ratio.
    pub gears: (u32, F),
    /// Automatic transmission.
    pub automatic: bool,
    /// Anti-roll bars: count (may be out of range), stiffness, and a right index offset
    /// (0 makes left == right: refused).
    pub anti_roll: (u32, F, u32),
    /// Which drive: 0 rear, 1 front, 2 all.
    pub drive: u8,
}

/// A water volume def.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WaterD {
    /// Centre.
    pub center: DV3,
    /// Rotation.
    pub rotation: Q,
    /// Half extents.
    pub half: V3,
    /// Density.
    pub density: F,
    /// Linear and angular drag.
    pub drag: [F; 2],
    /// Current.
    pub flow: V3,
    /// Filter mask bits.
    pub mask: u64,
}

/// A soft body def: a cloth of `n` × `n` vertices (`kind` 0), a closed ball (1: a
/// subdivided octahedron, `n` levels, at most 2), or `n` random triangles over `n + 2`
/// vertices with indices that may be out of range or repeated (2).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SoftD {
    /// Which mesh.
    pub kind: u8,
    /// Its size parameter.
    pub n: u32,
    /// Its extent, m.
    pub size: F,
    /// Where its frame is.
    pub position: DV3,
    /// Its frame's rotation.
    pub rotation: Q,
    /// Mass, edge/bend/volume compliance, volume scale, pressure, damping, drag,
    /// friction, particle radius, gravity scale, long-range stretch.
    pub settings: [F; 12],
    /// Substeps.
    pub substeps: u32,
    /// Self-collision.
    pub self_collision: bool,
    /// Filter mask bits.
    pub mask: u64,
}

/// A body def.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BodyD {
    /// 0 static, 1 kinematic, 2 dynamic.
    pub ty: u8,
    /// Position.
    pub position: DV3,
    /// Rotation.
    pub rotation: Q,
    /// Linear velocity.
    pub linear: V3,
    /// Angular velocity.
    pub angular: V3,
    /// Linear damping.
    pub linear_damping: F,
    /// Angular damping.
    pub angular_damping: F,
    /// Gravity scale.
    pub gravity_scale: F,
    /// Sleep threshold.
    pub sleep_threshold: F,
    /// Bits: 1 enable_sleep, 2 awake, 4 bullet, 8 enabled, 16 custom integrator.
    pub flags: u8,
    /// `MotionLocks::bits`.
    pub locks: u8,
}

/// A shape def.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ShapeD {
    /// Density.
    pub density: F,
    /// Friction.
    pub friction: F,
    /// Restitution.
    pub restitution: F,
    /// Rolling resistance.
    pub rolling: F,
    /// Filter category bits.
    pub category: u64,
    /// Filter mask bits.
    pub mask: u64,
    /// Filter group.
    pub group: i32,
    /// Bits: 1 contact events, 2 sensor, 4 sensor events, 8 hit events, 16 pre-solve.
    pub flags: u8,
}

/// A mass override.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MassD {
    /// Mass.
    pub mass: F,
    /// Centre of mass, body frame.
    pub center: V3,
    /// Inertia, columns x, y, z.
    pub inertia: [F; 9],
}

/// Convex hull points, generated from a few numbers (see `exec::hull_points`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HullSpec {
    /// Number of points.
    pub n: u32,
    /// Scale per axis.
    pub scale: V3,
    /// Jitter seed.
    pub seed: u32,
    /// 0 none; 1 coplanar; 2 a NaN point; 3 65 points; 4 all coincident; 5 a point beyond 1e6.
    pub bad: u8,
}

/// A triangle mesh: a wavy grid of `nx × nz` vertices.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MeshSpec {
    /// Vertices along x.
    pub nx: u32,
    /// Vertices along z.
    pub nz: u32,
    /// Cell size.
    pub cell: F,
    /// Wave amplitude.
    pub amp: F,
    /// Offset of the grid in the shape frame.
    pub offset: V3,
    /// 0 none; 1 a degenerate triangle; 2 an index past the end; 3 a NaN vertex; 4 no
    /// triangles; 5 a vertex beyond 1e6.
    pub bad: u8,
}

/// A height field: `nx × nz` wavy samples.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HeightD {
    /// Samples along x.
    pub nx: u32,
    /// Samples along z.
    pub nz: u32,
    /// Spacing x, height factor, spacing z.
    pub scale: V3,
    /// Wave amplitude (before the height factor).
    pub amp: F,
    /// Every `holes`-th cell is a hole (0: no holes).
    pub holes: u32,
    /// 0 none; 1 heights of the wrong length; 2 a NaN height; 3 holes of the wrong length.
    pub bad: u8,
}

/// Area settings.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AreaD {
    /// Priority.
    pub priority: i32,
    /// Gravity mode (0..5).
    pub gravity_mode: u8,
    /// Point gravity (else directional).
    pub point: bool,
    /// Directional gravity, or the point's centre.
    pub gravity: V3,
    /// Point gravity strength.
    pub strength: F,
    /// Point gravity unit distance.
    pub unit_distance: F,
    /// Linear damping mode.
    pub linear_mode: u8,
    /// Linear damping.
    pub linear_damping: F,
    /// Angular damping mode.
    pub angular_mode: u8,
    /// Angular damping.
    pub angular_damping: F,
}

/// One axis of a six-DOF joint.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AxisD {
    /// 0 free, 1 limited, 2 locked.
    pub mode: u8,
    /// Lower limit.
    pub lower: F,
    /// Upper limit.
    pub upper: F,
    /// Spring frequency.
    pub hertz: F,
    /// Spring damping ratio.
    pub damping: F,
    /// Motor speed.
    pub speed: F,
    /// Motor force.
    pub force: F,
}

/// A joint kind with its settings.
#[derive(Clone, Copy, Debug, PartialEq)]
#[allow(missing_docs)]
pub enum JointD {
    Spherical,
    Revolute {
        limit: bool,
        lower: F,
        upper: F,
        motor: bool,
        speed: F,
        torque: F,
        spring: bool,
        hertz: F,
        damping: F,
    },
    Prismatic {
        limit: bool,
        lower: F,
        upper: F,
        motor: bool,
        speed: F,
        force: F,
        spring: bool,
        hertz: F,
        damping: F,
    },
    Weld {
        linear_hertz: F,
        angular_hertz: F,
        damping: F,
    },
    Distance {
        length: F,
        min: F,
        max: F,
        spring: bool,
        hertz: F,
        damping: F,
    },
    ConeTwist {
        swing: F,
        twist_lower: F,
        twist_upper: F,
        friction: F,
    },
    SixDof {
        axes: [AxisD; 6],
    },
    Wheel {
        spring: bool,
        hertz: F,
        damping: F,
        limit: bool,
        lower: F,
        upper: F,
        motor: bool,
        speed: F,
        torque: F,
    },
}

/// A joint def.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct JointSpec {
    /// Body A.
    pub a: Pick,
    /// Body B.
    pub b: Pick,
    /// Frame in A: anchor and rotation.
    pub frame_a: (V3, Q),
    /// Frame in B.
    pub frame_b: (V3, Q),
    /// Build both frames with `joint_frames_at` from the world anchor `anchor` instead.
    pub world_anchor: Option<DV3>,
    /// Collide connected.
    pub collide: bool,
    /// Break force.
    pub break_force: F,
    /// Break torque.
    pub break_torque: F,
    /// Kind.
    pub kind: JointD,
}

/// A call (or a few calls building a scene, or a check).
#[derive(Clone, Debug, PartialEq)]
#[allow(missing_docs)]
pub enum Op {
    // ---- world ----
    Step {
        dt: F,
        substeps: u32,
    },
    SetGravity {
        g: V3,
    },
    EnableSleep {
        on: bool,
    },
    ShiftOrigin {
        offset: DV3,
    },
    SetJointDampingRatio {
        ratio: F,
    },
    SolveOneAtATime {
        on: bool,
    },
    SetPreSolve {
        on: bool,
    },
    Explode {
        position: DV3,
        radius: F,
        falloff: F,
        impulse_per_area: F,
        mask: u64,
    },
    // ---- state ----
    /// Snapshot the live world into harness slot `slot` (0..4).
    Save {
        slot: u8,
    },
    /// Restore the snapshot in `slot` into the live world (a rollback).
    Restore {
        slot: u8,
    },
    /// Restore the snapshot in `slot` with one bit flipped: must be refused.
    RestoreDamaged {
        slot: u8,
        byte: u32,
        bit: u8,
    },
    StartJournal {
        capacity: u32,
    },
    StopJournal,
    /// Replay the last stopped tape into the live world (mostly refused: all or nothing).
    ReplayLastTape,
    // ---- bodies ----
    CreateBody {
        def: BodyD,
    },
    DestroyBody {
        body: Pick,
    },
    SetTransform {
        body: Pick,
        position: DV3,
        rotation: Q,
    },
    SetVelocity {
        body: Pick,
        linear: V3,
        angular: V3,
    },
    SetLinearVelocity {
        body: Pick,
        v: V3,
    },
    SetAngularVelocity {
        body: Pick,
        w: V3,
    },
    SetTargetTransform {
        body: Pick,
        position: DV3,
        rotation: Q,
        time_step: F,
    },
    ApplyForceToCenter {
        body: Pick,
        force: V3,
    },
    ApplyForce {
        body: Pick,
        force: V3,
        point: DV3,
    },
    ApplyTorque {
        body: Pick,
        torque: V3,
    },
    ApplyLinearImpulse {
        body: Pick,
        impulse: V3,
        point: DV3,
    },
    ApplyLinearImpulseToCenter {
        body: Pick,
        impulse: V3,
    },
    ApplyAngularImpulse {
        body: Pick,
        impulse: V3,
    },
    SetBodyType {
        body: Pick,
        ty: u8,
    },
    SetBodyEnabled {
        body: Pick,
        on: bool,
    },
    SetBodyAwake {
        body: Pick,
        on: bool,
    },
    SetBodySleepEnabled {
        body: Pick,
        on: bool,
    },
    SetBodySleepThreshold {
        body: Pick,
        v: F,
    },
    SetBodyDamping {
        body: Pick,
        linear: F,
        angular: F,
    },
    SetBodyGravityScale {
        body: Pick,
        scale: F,
    },
    SetBodyMotionLocks {
        body: Pick,
        bits: u8,
    },
    SetBodyCustomIntegrator {
        body: Pick,
        on: bool,
    },
    SetBodyBullet {
        body: Pick,
        on: bool,
    },
    SetBodyMassData {
        body: Pick,
        data: Option<MassD>,
    },
    SetBodyUserData {
        body: Pick,
        data: u64,
    },
    // ---- shapes ----
    CreateSphere {
        body: Pick,
        def: ShapeD,
        center: V3,
        radius: F,
    },
    CreateCapsule {
        body: Pick,
        def: ShapeD,
        c1: V3,
        c2: V3,
        radius: F,
    },
    /// `create_box_shape` when `center` is `None`, else `create_offset_box_shape`.
    CreateBox {
        body: Pick,
        def: ShapeD,
        half: V3,
        center: Option<(V3, Q)>,
    },
    CreateCylinder {
        body: Pick,
        def: ShapeD,
        center: V3,
        rotation: Q,
        half_height: F,
        radius: F,
    },
    CreatePlane {
        body: Pick,
        def: ShapeD,
        normal: V3,
        offset: F,
    },
    CreateHull {
        spec: HullSpec,
    },
    CreateHullShape {
        body: Pick,
        def: ShapeD,
        hull: Pick,
    },
    DestroyHull {
        hull: Pick,
    },
    CreateMesh {
        spec: MeshSpec,
    },
    CreateHeightField {
        spec: HeightD,
    },
    /// A voxel grid: `pattern` fills its 16³ voxels (see `exec::voxel_data`).
    CreateVoxelGrid {
        size: F,
        origin: V3,
        pattern: u8,
        bad_length: bool,
    },
    /// `create_mesh_shape`, or `create_voxel_shape` when `voxel`.
    CreateMeshShape {
        body: Pick,
        def: ShapeD,
        mesh: Pick,
        voxel: bool,
    },
    SetVoxel {
        grid: Pick,
        at: [i32; 3],
        material: u8,
    },
    FillVoxels {
        grid: Pick,
        min: [i32; 3],
        max: [i32; 3],
        material: u8,
    },
    ClearVoxel {
        grid: Pick,
        at: [i32; 3],
    },
    DestroyMesh {
        mesh: Pick,
    },
    DestroyShape {
        shape: Pick,
    },
    SetShapeFriction {
        shape: Pick,
        v: F,
    },
    SetShapeRestitution {
        shape: Pick,
        v: F,
    },
    SetShapeRollingResistance {
        shape: Pick,
        v: F,
    },
    SetShapeDensity {
        shape: Pick,
        v: F,
    },
    SetShapeFilter {
        shape: Pick,
        category: u64,
        mask: u64,
        group: i32,
    },
    SetShapeArea {
        shape: Pick,
        area: Option<AreaD>,
    },
    // ---- joints ----
    CreateJoint {
        spec: JointSpec,
    },
    DestroyJoint {
        joint: Pick,
    },
    SetJointEnableMotor {
        joint: Pick,
        on: bool,
    },
    SetJointMotorSpeed {
        joint: Pick,
        v: F,
    },
    SetJointMaxMotorForce {
        joint: Pick,
        v: F,
    },
    SetJointEnableLimit {
        joint: Pick,
        on: bool,
    },
    SetJointLimits {
        joint: Pick,
        lower: F,
        upper: F,
    },
    SetJointEnableSpring {
        joint: Pick,
        on: bool,
    },
    SetJointSpring {
        joint: Pick,
        hertz: F,
        damping: F,
    },
    SetWeldSpring {
        joint: Pick,
        linear_hertz: F,
        angular_hertz: F,
        damping: F,
    },
    SetDistanceLength {
        joint: Pick,
        v: F,
    },
    SetDistanceRange {
        joint: Pick,
        min: F,
        max: F,
    },
    SetConeSwingLimit {
        joint: Pick,
        v: F,
    },
    SetSixDofAxis {
        joint: Pick,
        axis: u32,
        value: AxisD,
    },
    SetJointBreakThresholds {
        joint: Pick,
        force: F,
        torque: F,
    },
    SetJointCollideConnected {
        joint: Pick,
        on: bool,
    },
    SetJointUserData {
        joint: Pick,
        data: u64,
    },
    // ---- characters ----
    CreateCharacter {
        def: CharD,
    },
    DestroyCharacter {
        character: Pick,
    },
    MoveCharacter {
        character: Pick,
        velocity: V3,
        dt: F,
    },
    SetCharacterPosition {
        character: Pick,
        position: DV3,
    },
    SetCharacterSettings {
        character: Pick,
        settings: CharSetD,
    },
    /// A body call on a character's inner body: 0 destroy, 1 make dynamic, 2 add a
    /// sphere, 3 teleport, 4 set its velocity, 5 disable (each refused or harmless).
    PokeCharacterBody {
        character: Pick,
        kind: u8,
    },
    // ---- vehicles ----
    CreateVehicle {
        def: VehicleD,
    },
    DestroyVehicle {
        vehicle: Pick,
    },
    SetVehicleInput {
        vehicle: Pick,
        throttle: F,
        steering: F,
        brake: F,
        handbrake: F,
    },
    SetVehicleGear {
        vehicle: Pick,
        gear: i32,
    },
    /// Destroys the chassis body of a vehicle (the vehicle goes with it).
    DestroyChassis {
        vehicle: Pick,
    },
    // ---- water ----
    CreateWater {
        def: WaterD,
    },
    DestroyWater {
        water: Pick,
    },
    SetWater {
        water: Pick,
        def: WaterD,
    },
    SetWaterDensity {
        water: Pick,
        v: F,
    },
    SetWaterDrag {
        water: Pick,
        linear: F,
        angular: F,
    },
    SetWaterFlow {
        water: Pick,
        flow: V3,
    },
    SetWaterRegion {
        water: Pick,
        center: DV3,
        rotation: Q,
        half: V3,
    },
    // ---- soft bodies ----
    CreateSoft {
        def: SoftD,
    },
    DestroySoft {
        soft: Pick,
    },
    SetSoftSettings {
        soft: Pick,
        def: SoftD,
    },
    SetSoftFilter {
        soft: Pick,
        mask: u64,
    },
    PinSoft {
        soft: Pick,
        index: u32,
        pinned: bool,
    },
    MoveSoftPoint {
        soft: Pick,
        index: u32,
        position: DV3,
    },
    /// `index` `u32::MAX`: the whole soft body.
    SoftImpulse {
        soft: Pick,
        index: u32,
        impulse: V3,
    },
    SetSoftVelocity {
        soft: Pick,
        index: u32,
        velocity: V3,
    },
    /// `body` `NULL_PICK`: a detach.
    AttachSoft {
        soft: Pick,
        index: u32,
        body: Pick,
        local: V3,
    },
    SetSoftTransform {
        soft: Pick,
        position: DV3,
        rotation: Q,
    },
    SetSoftIgnoresBody {
        soft: Pick,
        body: Pick,
        ignore: bool,
    },
    // ---- queries (must not change the hash) ----
    /// `kind` selects the query (see `exec::query`); `at`, `dir`, `size` and `pick` are
    /// its inputs.
    Query {
        kind: u8,
        at: DV3,
        dir: V3,
        size: F,
        pick: Pick,
    },
    // ---- scenes: many calls at once ----
    /// `n` dynamic bodies in a grid (a pile), each with one shape of `kind` (0 sphere, 1
    /// box, 2 capsule, 3 cylinder, 4 hull) of size `size`, `spacing` apart, above `origin`.
    Pile {
        n: u32,
        kind: u8,
        origin: DV3,
        spacing: F,
        size: F,
    },
    /// A chain of `n` spheres hanging sideways from a static anchor on spherical joints,
    /// each link `link` long; the last link weighs `ratio` times the others.
    Chain {
        n: u32,
        ratio: F,
        link: F,
        origin: DV3,
    },
    /// `n` fast bullet capsules shot down at `speed` onto whatever is below `origin`.
    Bullets {
        n: u32,
        speed: F,
        origin: DV3,
    },
    /// A static ground: 0 box, 1 plane, 2 mesh, 3 height field, 4 voxel grid; `size` its
    /// half-width.
    Ground {
        kind: u8,
        origin: DV3,
        size: F,
    },
    // ---- checks over several steps ----
    /// Steps `steps` times and holds the mechanical energy of the dynamic bodies (world
    /// gravity, no energy sources) within `slack` of its start plus what it had to
    /// begin with: a chain must not gain energy.
    CheckEnergy {
        steps: u32,
        dt: F,
        substeps: u32,
        slack: F,
    },
}

/// A case: a world and the calls made on it.
#[derive(Clone, Debug, PartialEq)]
pub struct Case {
    /// The world.
    pub config: WorldConfig,
    /// The calls.
    pub ops: Vec<Op>,
}
