// maul3d.hpp: a header-only C++17 layer over maul3d.h.
//
// It compiles under Unreal's settings: no exceptions, no RTTI, no std::span, no
// allocation of its own. It holds no float math: every computation is the library's, so
// host flags (/fp:fast, -ffast-math) cannot change results. Errors stay m3Result values.
//
//   m3::World      RAII owner of a world (destroyed with it); move-only.
//   m3::BodyShapes, m3::ShapeHull, m3::ShapeMesh, m3::ShapeVoxelGrid
//                  a body's shapes and a shape's content, for walking what a world holds.
//   m3::BodyContactData, m3::ShapeContactData (and their capacities)
//                  a body's or shape's touching contacts as the last step's solver left
//                  them: manifold points, separations, impulses.
//   m3::Character, m3::Vehicle, m3::WaterVolume, m3::SoftBody
//                  value wrappers over a character's, vehicle's, water volume's or soft
//                  body's id: its
//                  calls as members, getters returning the value (default when refused;
//                  the Get* forms tell the two apart). Not owners: Destroy() ends the
//                  object, and the world's destruction ends them all.
//   m3::ReplayPlayer
//                  RAII owner of a replay player (a .m3replay file opened for scrubbing:
//                  seek, step, verify, diff, the bodies and debug draw at the current
//                  step); move-only.
//   m3::JobSystemHooks<JobSystem>
//                  turns any job system with "launch N jobs / wait for them" into the
//                  enqueueTask / finishTask pair of m3WorldDef.
#ifndef MAUL3D_HPP
#define MAUL3D_HPP

#include "maul3d.h"

#include <cstddef>
#include <cstdint>
#include <utility>

namespace m3 {

// The message of the last refused call on this thread.
inline const char* LastError() { return m3GetLastErrorMessage(); }

// Owns a world: destroys it when it goes out of scope. Move-only.
class World {
public:
    World() = default;
    explicit World(const m3WorldDef& def) { m_result = m3World_Create(&def, &m_id); }
    ~World() { Reset(); }
    World(const World&) = delete;
    World& operator=(const World&) = delete;
    World(World&& other) noexcept : m_id(other.m_id), m_result(other.m_result) { other.m_id = m3WorldId{0, 0}; }
    World& operator=(World&& other) noexcept
    {
        if (this != &other) {
            Reset();
            m_id = other.m_id;
            m_result = other.m_result;
            other.m_id = m3WorldId{0, 0};
        }
        return *this;
    }

    // Destroys the world now (no-op when empty).
    m3Result Reset()
    {
        m3Result r = m3_success;
        if (m_id.index != 0) {
            r = m3World_Destroy(m_id);
            if (r == m3_success) m_id = m3WorldId{0, 0};
        }
        return r;
    }

    // Whether creating it succeeded; `CreateResult` says why not.
    bool IsValid() const { return m_id.index != 0; }
    explicit operator bool() const { return IsValid(); }
    m3Result CreateResult() const { return m_result; }
    m3WorldId Id() const { return m_id; }

    m3Result Step(float dt, int32_t substeps) { return m3World_Step(m_id, dt, substeps); }
    // 0 when refused, but 0 is also a hash: GetHash tells the two apart.
    uint64_t Hash() const { return m3World_Hash(m_id); }
    m3Result GetHash(uint64_t* hash) const { return m3World_GetHash(m_id, hash); }
    uint64_t MisuseCount() const { return m3World_GetMisuseCount(m_id); }

    m3Result CreateBody(const m3BodyDef& def, m3BodyId* id) { return m3Body_Create(m_id, &def, id); }
    m3Result CreateHull(const m3Vec3* points, int32_t count, m3HullId* id)
    {
        return m3World_CreateHull(m_id, points, count, id);
    }
    // `indices`: three per triangle.
    m3Result CreateMesh(const m3Vec3* vertices, int32_t vertexCount, const uint32_t* indices,
                        int32_t triangleCount, m3MeshId* id)
    {
        return m3World_CreateMesh(m_id, vertices, vertexCount, indices, triangleCount, id);
    }
    m3Result CreateHeightField(const m3HeightFieldDef& def, m3MeshId* id)
    {
        return m3World_CreateHeightField(m_id, &def, id);
    }
    // `data`: `count` (4096) materials, voxel (x, y, z) at `data[x + 16*y + 256*z]`.
    m3Result CreateVoxelGrid(float voxelSize, m3Vec3 origin, const uint8_t* data, int32_t count,
                             m3VoxelGridId* id)
    {
        return m3World_CreateVoxelGrid(m_id, voxelSize, origin, data, count, id);
    }
    // Meshes, height fields and voxel grids, in slot order (they share the mesh pool).
    m3Result MeshIds(m3MeshId* ids, int32_t capacity, int32_t* count) const
    {
        return m3World_GetMeshIds(m_id, ids, capacity, count);
    }
    m3Result CreateJoint(const m3JointDef& def, m3JointId* id) { return m3Joint_Create(m_id, &def, id); }
    m3Result JointFramesAt(m3BodyId a, m3BodyId b, m3DVec3 anchor, m3Quat rotation, m3JointDef* def)
    {
        def->bodyA = a;
        def->bodyB = b;
        return m3World_GetJointFramesAt(m_id, a, b, anchor, rotation, &def->localFrameA, &def->localFrameB);
    }
    // The live bodies in slot order (capacity 0 and null ids: only count them).
    m3Result BodyIds(m3BodyId* ids, int32_t capacity, int32_t* count) const
    {
        return m3World_GetBodyIds(m_id, ids, capacity, count);
    }
    // How many bodies live (0 when refused).
    int32_t BodyCount() const
    {
        int32_t n = 0;
        return m3World_GetBodyIds(m_id, nullptr, 0, &n) == m3_success ? n : 0;
    }
    m3Result JointIds(m3JointId* ids, int32_t capacity, int32_t* count) const
    {
        return m3World_GetJointIds(m_id, ids, capacity, count);
    }
    m3Result CreateCharacter(const m3CharacterDef& def, m3CharacterId* id)
    {
        return m3World_CreateCharacter(m_id, &def, id);
    }
    m3Result CreateVehicle(const m3VehicleDef& def, m3VehicleId* id) { return m3World_CreateVehicle(m_id, &def, id); }
    m3Result CreateWaterVolume(const m3WaterVolumeDef& def, m3WaterVolumeId* id)
    {
        return m3World_CreateWaterVolume(m_id, &def, id);
    }
    // The live characters, vehicles and water volumes in slot order (capacity 0 and null
    // ids: only count them).
    m3Result CharacterIds(m3CharacterId* ids, int32_t capacity, int32_t* count) const
    {
        return m3World_GetCharacterIds(m_id, ids, capacity, count);
    }
    m3Result VehicleIds(m3VehicleId* ids, int32_t capacity, int32_t* count) const
    {
        return m3World_GetVehicleIds(m_id, ids, capacity, count);
    }
    m3Result WaterVolumeIds(m3WaterVolumeId* ids, int32_t capacity, int32_t* count) const
    {
        return m3World_GetWaterVolumeIds(m_id, ids, capacity, count);
    }
    m3Result CreateSoftBody(const m3SoftBodyDef& def, m3SoftBodyId* id) { return m3World_CreateSoftBody(m_id, &def, id); }
    // The live soft bodies in slot order (capacity 0 and null ids: only count them).
    m3Result SoftBodyIds(m3SoftBodyId* ids, int32_t capacity, int32_t* count) const
    {
        return m3World_GetSoftBodyIds(m_id, ids, capacity, count);
    }
    m3Result ShiftOrigin(m3DVec3 offset) { return m3World_ShiftOrigin(m_id, offset); }
    m3Result SnapshotSize(int64_t* size) const { return m3World_GetSnapshotSize(m_id, size); }
    m3Result Snapshot(uint8_t* buffer, int64_t capacity, int64_t* written) const
    {
        return m3World_Snapshot(m_id, buffer, capacity, written);
    }
    m3Result Restore(const uint8_t* snapshot, int64_t length) { return m3World_Restore(m_id, snapshot, length); }
    m3Result Capacities(m3Capacities* capacities) const { return m3World_GetCapacities(m_id, capacities); }
    m3Result GrowthNeeded(m3Capacities* capacities, bool* needed) const
    {
        return m3World_GrowthNeeded(m_id, capacities, needed);
    }
    m3Result Grow(const m3Capacities& capacities) { return m3World_Grow(m_id, &capacities); }
    m3Result StartJournal(uint8_t* buffer, int64_t capacity) { return m3World_StartJournal(m_id, buffer, capacity); }
    m3Result StopJournal(int64_t* bytes) { return m3World_StopJournal(m_id, bytes); }
    m3Result ReplayJournal(const uint8_t* tape, int64_t length) { return m3World_ReplayJournal(m_id, tape, length); }

private:
    m3WorldId m_id{0, 0};
    m3Result m_result = m3_errorState;
};

// A body's shapes in slot order: up to `capacity` into `ids`, how many into `count`
// (capacity 0 and null ids: only count them).
inline m3Result BodyShapes(m3BodyId body, m3ShapeId* ids, int32_t capacity, int32_t* count)
{
    return m3Body_GetShapes(body, ids, capacity, count);
}
// How many shapes a body has (0 when refused).
inline int32_t BodyShapeCount(m3BodyId body)
{
    int32_t n = 0;
    return m3Body_GetShapes(body, nullptr, 0, &n) == m3_success ? n : 0;
}
// The content a shape uses: its hull, its mesh or height field, its voxel grid
// (m3_errorArgument for a shape of another kind).
inline m3Result ShapeHull(m3ShapeId shape, m3HullId* hull) { return m3Shape_GetHull(shape, hull); }
inline m3Result ShapeMesh(m3ShapeId shape, m3MeshId* mesh) { return m3Shape_GetMesh(shape, mesh); }
inline m3Result ShapeVoxelGrid(m3ShapeId shape, m3VoxelGridId* grid)
{
    return m3Shape_GetVoxelGrid(shape, grid);
}

// A body's touching contacts as the last step's solver left them, by (shape A, shape B,
// child) slot: up to `capacity` into `data`, how many into `count` (capacity 0 and null
// data: only count them).
inline m3Result BodyContactData(m3BodyId body, m3ContactData* data, int32_t capacity, int32_t* count)
{
    return m3Body_GetContactData(body, data, capacity, count);
}
// How many contacts a body has, touching or not: room enough for BodyContactData (0 when
// refused).
inline int32_t BodyContactCapacity(m3BodyId body)
{
    int32_t n = 0;
    return m3Body_GetContactCapacity(body, &n) == m3_success ? n : 0;
}
// Every touching contact of a world, as BodyContactData gives one body's.
inline m3Result WorldContactData(m3WorldId world, m3ContactData* data, int32_t capacity, int32_t* count)
{
    return m3World_GetContactData(world, data, capacity, count);
}
// How many contacts a world has, touching or not (0 when refused).
inline int32_t WorldContactCapacity(m3WorldId world)
{
    int32_t n = 0;
    return m3World_GetContactCapacity(world, &n) == m3_success ? n : 0;
}
// A shape's touching contacts, as BodyContactData gives its body's.
inline m3Result ShapeContactData(m3ShapeId shape, m3ContactData* data, int32_t capacity, int32_t* count)
{
    return m3Shape_GetContactData(shape, data, capacity, count);
}
// How many contacts a shape has, touching or not (0 when refused).
inline int32_t ShapeContactCapacity(m3ShapeId shape)
{
    int32_t n = 0;
    return m3Shape_GetContactCapacity(shape, &n) == m3_success ? n : 0;
}

// A character by id (a value: copying it copies the id). Getters return the value, or a
// zero value when refused; the Get* forms return the m3Result.
class Character {
public:
    Character() = default;
    explicit Character(m3CharacterId id) : m_id(id) {}
    // Creates one in `world`; `result` (may be null) says why it is empty.
    static Character Create(m3WorldId world, const m3CharacterDef& def, m3Result* result = nullptr)
    {
        m3CharacterId id{};
        m3Result r = m3World_CreateCharacter(world, &def, &id);
        if (result != nullptr) *result = r;
        return Character(r == m3_success ? id : m3CharacterId{});
    }
    m3CharacterId Id() const { return m_id; }
    bool IsValid() const { return m_id.index != 0; }
    explicit operator bool() const { return IsValid(); }

    m3Result Destroy()
    {
        m3Result r = m3Character_Destroy(m_id);
        if (r == m3_success) m_id = m3CharacterId{};
        return r;
    }
    // Moves by velocity · dt (add gravity to velocity while airborne).
    m3Result Move(m3Vec3 velocity, float dt) { return m3Character_Move(m_id, velocity, dt); }
    m3Result SetPosition(m3DVec3 position) { return m3Character_SetPosition(m_id, position); }
    m3Result SetSettings(const m3CharacterSettings& settings) { return m3Character_SetSettings(m_id, settings); }
    m3Result GetSettings(m3CharacterSettings* settings) const { return m3Character_GetSettings(m_id, settings); }
    m3Result GetPosition(m3DVec3* position) const { return m3Character_GetPosition(m_id, position); }
    m3Result GetVelocity(m3Vec3* velocity) const { return m3Character_GetVelocity(m_id, velocity); }
    m3Result GetGround(m3CharacterGround* ground) const { return m3Character_GetGround(m_id, ground); }
    m3Result GetBody(m3BodyId* body) const { return m3Character_GetBody(m_id, body); }

    m3CharacterSettings Settings() const { return Value<m3CharacterSettings>(&m3Character_GetSettings); }
    m3DVec3 Position() const { return Value<m3DVec3>(&m3Character_GetPosition); }
    m3Vec3 Velocity() const { return Value<m3Vec3>(&m3Character_GetVelocity); }
    // The ground; m3_inAir when refused.
    m3CharacterGround Ground() const
    {
        m3CharacterGround g{};
        if (m3Character_GetGround(m_id, &g) != m3_success) {
            g = m3CharacterGround{};
            g.state = m3_inAir;
        }
        return g;
    }
    bool IsGrounded() const { return Ground().state == m3_onGround; }
    m3BodyId Body() const { return Value<m3BodyId>(&m3Character_GetBody); }

private:
    template <typename T>
    T Value(m3Result (*get)(m3CharacterId, T*)) const
    {
        T v{};
        return get(m_id, &v) == m3_success ? v : T{};
    }
    m3CharacterId m_id{};
};

// A vehicle by id (a value), as Character.
class Vehicle {
public:
    Vehicle() = default;
    explicit Vehicle(m3VehicleId id) : m_id(id) {}
    static Vehicle Create(m3WorldId world, const m3VehicleDef& def, m3Result* result = nullptr)
    {
        m3VehicleId id{};
        m3Result r = m3World_CreateVehicle(world, &def, &id);
        if (result != nullptr) *result = r;
        return Vehicle(r == m3_success ? id : m3VehicleId{});
    }
    m3VehicleId Id() const { return m_id; }
    bool IsValid() const { return m_id.index != 0; }
    explicit operator bool() const { return IsValid(); }

    // Destroys the vehicle (the chassis stays).
    m3Result Destroy()
    {
        m3Result r = m3Vehicle_Destroy(m_id);
        if (r == m3_success) m_id = m3VehicleId{};
        return r;
    }
    m3Result SetInput(const m3VehicleInput& input) { return m3Vehicle_SetInput(m_id, input); }
    m3Result SetInput(float throttle, float steering, float brake = 0.0f, float handbrake = 0.0f)
    {
        return m3Vehicle_SetInput(m_id, m3VehicleInput{throttle, steering, brake, handbrake});
    }
    // -1 reverse, 0 neutral, 1.. forward.
    m3Result SetGear(int32_t gear) { return m3Vehicle_SetGear(m_id, gear); }
    m3Result GetDef(m3VehicleDef* def) const { return m3Vehicle_GetDef(m_id, def); }
    m3Result GetInput(m3VehicleInput* input) const { return m3Vehicle_GetInput(m_id, input); }
    m3Result GetForwardSpeed(float* speed) const { return m3Vehicle_GetForwardSpeed(m_id, speed); }
    m3Result GetEngineRpm(float* rpm) const { return m3Vehicle_GetEngineRpm(m_id, rpm); }
    m3Result GetGear(int32_t* gear) const { return m3Vehicle_GetGear(m_id, gear); }
    m3Result GetWheelState(int32_t wheel, m3WheelState* state) const
    {
        return m3Vehicle_GetWheelState(m_id, wheel, state);
    }

    float ForwardSpeed() const { return Value<float>(&m3Vehicle_GetForwardSpeed); }
    float EngineRpm() const { return Value<float>(&m3Vehicle_GetEngineRpm); }
    int32_t Gear() const { return Value<int32_t>(&m3Vehicle_GetGear); }
    m3VehicleInput Input() const { return Value<m3VehicleInput>(&m3Vehicle_GetInput); }
    m3WheelState Wheel(int32_t wheel) const
    {
        m3WheelState s{};
        return m3Vehicle_GetWheelState(m_id, wheel, &s) == m3_success ? s : m3WheelState{};
    }
    // The chassis body (null when refused).
    m3BodyId Chassis() const
    {
        m3VehicleDef d{};
        return m3Vehicle_GetDef(m_id, &d) == m3_success ? d.chassis : m3BodyId{};
    }

private:
    template <typename T>
    T Value(m3Result (*get)(m3VehicleId, T*)) const
    {
        T v{};
        return get(m_id, &v) == m3_success ? v : T{};
    }
    m3VehicleId m_id{};
};

// A water volume by id (a value), as Character.
class WaterVolume {
public:
    WaterVolume() = default;
    explicit WaterVolume(m3WaterVolumeId id) : m_id(id) {}
    static WaterVolume Create(m3WorldId world, const m3WaterVolumeDef& def, m3Result* result = nullptr)
    {
        m3WaterVolumeId id{};
        m3Result r = m3World_CreateWaterVolume(world, &def, &id);
        if (result != nullptr) *result = r;
        return WaterVolume(r == m3_success ? id : m3WaterVolumeId{});
    }
    m3WaterVolumeId Id() const { return m_id; }
    bool IsValid() const { return m_id.index != 0; }
    explicit operator bool() const { return IsValid(); }

    m3Result Destroy()
    {
        m3Result r = m3WaterVolume_Destroy(m_id);
        if (r == m3_success) m_id = m3WaterVolumeId{};
        return r;
    }
    m3Result SetDef(const m3WaterVolumeDef& def) { return m3WaterVolume_SetDef(m_id, &def); }
    m3Result SetDensity(float density) { return m3WaterVolume_SetDensity(m_id, density); }
    m3Result SetDrag(float linear, float angular) { return m3WaterVolume_SetDrag(m_id, linear, angular); }
    m3Result SetFlow(m3Vec3 flow) { return m3WaterVolume_SetFlow(m_id, flow); }
    m3Result SetRegion(m3DVec3 center, m3Quat rotation, m3Vec3 halfExtents)
    {
        return m3WaterVolume_SetRegion(m_id, center, rotation, halfExtents);
    }
    m3Result GetDef(m3WaterVolumeDef* def) const { return m3WaterVolume_GetDef(m_id, def); }
    m3Result GetBuoyancy(m3BodyId body, m3Buoyancy* buoyancy) const
    {
        return m3WaterVolume_GetBuoyancy(m_id, body, buoyancy);
    }
    // What the water does to `body` now (zero when refused).
    m3Buoyancy Buoyancy(m3BodyId body) const
    {
        m3Buoyancy b{};
        return m3WaterVolume_GetBuoyancy(m_id, body, &b) == m3_success ? b : m3Buoyancy{};
    }

private:
    m3WaterVolumeId m_id{};
};

// A soft body by id (a value), as Character. Particles are indexed 0 to ParticleCount() - 1.
class SoftBody {
public:
    SoftBody() = default;
    explicit SoftBody(m3SoftBodyId id) : m_id(id) {}
    static SoftBody Create(m3WorldId world, const m3SoftBodyDef& def, m3Result* result = nullptr)
    {
        m3SoftBodyId id{};
        m3Result r = m3World_CreateSoftBody(world, &def, &id);
        if (result != nullptr) *result = r;
        return SoftBody(r == m3_success ? id : m3SoftBodyId{});
    }
    // From a mesh (`indices`: three per triangle) at `position` with `settings`.
    static SoftBody Create(m3WorldId world, const m3Vec3* vertices, int32_t vertexCount, const uint32_t* indices,
                           int32_t triangleCount, m3DVec3 position, const m3SoftBodySettings& settings,
                           m3Result* result = nullptr)
    {
        m3SoftBodyDef def = m3DefaultSoftBodyDef();
        def.vertices = vertices;
        def.vertexCount = vertexCount;
        def.indices = indices;
        def.triangleCount = triangleCount;
        def.position = position;
        def.settings = settings;
        return Create(world, def, result);
    }
    m3SoftBodyId Id() const { return m_id; }
    bool IsValid() const { return m_id.index != 0; }
    explicit operator bool() const { return IsValid(); }

    m3Result Destroy()
    {
        m3Result r = m3SoftBody_Destroy(m_id);
        if (r == m3_success) m_id = m3SoftBodyId{};
        return r;
    }
    m3Result SetSettings(const m3SoftBodySettings& settings) { return m3SoftBody_SetSettings(m_id, settings); }
    m3Result GetSettings(m3SoftBodySettings* settings) const { return m3SoftBody_GetSettings(m_id, settings); }
    m3Result SetFilter(m3Filter filter) { return m3SoftBody_SetFilter(m_id, filter); }
    m3Result GetFilter(m3Filter* filter) const { return m3SoftBody_GetFilter(m_id, filter); }
    m3Result SetPinned(int32_t index, bool pinned) { return m3SoftBody_SetParticlePinned(m_id, index, pinned); }
    m3Result GetPinned(int32_t index, bool* pinned) const { return m3SoftBody_IsParticlePinned(m_id, index, pinned); }
    m3Result SetParticlePosition(int32_t index, m3DVec3 position)
    {
        return m3SoftBody_SetParticlePosition(m_id, index, position);
    }
    m3Result GetParticlePosition(int32_t index, m3DVec3* position) const
    {
        return m3SoftBody_GetParticlePosition(m_id, index, position);
    }
    m3Result SetParticleVelocity(int32_t index, m3Vec3 velocity)
    {
        return m3SoftBody_SetParticleVelocity(m_id, index, velocity);
    }
    m3Result GetParticleVelocity(int32_t index, m3Vec3* velocity) const
    {
        return m3SoftBody_GetParticleVelocity(m_id, index, velocity);
    }
    m3Result ApplyParticleImpulse(int32_t index, m3Vec3 impulse)
    {
        return m3SoftBody_ApplyParticleImpulse(m_id, index, impulse);
    }
    m3Result ApplyImpulse(m3Vec3 impulse) { return m3SoftBody_ApplyImpulse(m_id, impulse); }
    // Teleports every particle to its rest place in the frame, velocities zero.
    m3Result SetTransform(m3DVec3 position, m3Quat rotation) { return m3SoftBody_SetTransform(m_id, position, rotation); }
    // Attaches particle `index` to `localPoint` of `body` (pulling both ways); Detach frees it.
    m3Result Attach(int32_t index, m3BodyId body, m3Vec3 localPoint)
    {
        return m3SoftBody_AttachParticle(m_id, index, body, localPoint);
    }
    m3Result Detach(int32_t index) { return m3SoftBody_AttachParticle(m_id, index, m3BodyId{}, m3Vec3{}); }
    m3Result GetAttachment(int32_t index, m3BodyId* body, m3Vec3* localPoint) const
    {
        return m3SoftBody_GetParticleAttachment(m_id, index, body, localPoint);
    }
    // Its particles pass through `body`'s shapes (a collision exception), or collide again;
    // at most M3_SOFT_BODY_EXCEPTIONS bodies per soft body.
    m3Result SetIgnoresBody(m3BodyId body, bool ignore = true) { return m3SoftBody_SetIgnoresBody(m_id, body, ignore); }
    // The bodies it ignores, in slot order: up to `capacity`, how many into `count`.
    m3Result IgnoredBodies(m3BodyId* bodies, int32_t capacity, int32_t* count) const
    {
        return m3SoftBody_GetIgnoredBodies(m_id, bodies, capacity, count);
    }
    // Positions relative to the world origin, or as floats relative to `origin` (what a
    // renderer wants): up to `capacity`, the particle count into `count`.
    m3Result Positions(m3DVec3* positions, int32_t capacity, int32_t* count) const
    {
        return m3SoftBody_GetPositions(m_id, positions, capacity, count);
    }
    m3Result PositionsFrom(m3DVec3 origin, m3Vec3* positions, int32_t capacity, int32_t* count) const
    {
        return m3SoftBody_GetPositionsFrom(m_id, origin, positions, capacity, count);
    }
    // The rest mesh as created (capacities 0 and null arrays: only count).
    m3Result Mesh(m3Vec3* vertices, int32_t vertexCapacity, int32_t* vertexCount, uint32_t* indices,
                  int32_t triangleCapacity, int32_t* triangleCount) const
    {
        return m3SoftBody_GetMesh(m_id, vertices, vertexCapacity, vertexCount, indices, triangleCapacity,
                                  triangleCount);
    }
    m3Result GetBounds(m3DAABB* bounds) const { return m3SoftBody_GetBounds(m_id, bounds); }
    m3Result GetVolume(float* volume) const { return m3SoftBody_GetVolume(m_id, volume); }

    m3SoftBodySettings Settings() const
    {
        m3SoftBodySettings s{};
        return m3SoftBody_GetSettings(m_id, &s) == m3_success ? s : m3SoftBodySettings{};
    }
    // How many particles (0 when refused).
    int32_t ParticleCount() const { return Value<int32_t>(&m3SoftBody_GetParticleCount); }
    bool IsPinned(int32_t index) const
    {
        bool p = false;
        return m3SoftBody_IsParticlePinned(m_id, index, &p) == m3_success && p;
    }
    m3DVec3 ParticlePosition(int32_t index) const
    {
        m3DVec3 p{};
        return m3SoftBody_GetParticlePosition(m_id, index, &p) == m3_success ? p : m3DVec3{};
    }
    m3Vec3 ParticleVelocity(int32_t index) const
    {
        m3Vec3 v{};
        return m3SoftBody_GetParticleVelocity(m_id, index, &v) == m3_success ? v : m3Vec3{};
    }
    // The body particle `index` hangs on (null when free or refused).
    m3BodyId AttachedBody(int32_t index) const
    {
        m3BodyId b{};
        m3Vec3 p{};
        return m3SoftBody_GetParticleAttachment(m_id, index, &b, &p) == m3_success ? b : m3BodyId{};
    }
    m3DAABB Bounds() const { return Value<m3DAABB>(&m3SoftBody_GetBounds); }
    // The enclosed volume, m³ (0 for an open mesh, and when refused).
    float Volume() const { return Value<float>(&m3SoftBody_GetVolume); }

private:
    template <typename T>
    T Value(m3Result (*get)(m3SoftBodyId, T*)) const
    {
        T v{};
        return get(m_id, &v) == m3_success ? v : T{};
    }
    m3SoftBodyId m_id{};
};

// Owns a replay player (m3ReplayPlayer_*): a replay container opened for scrubbing, its
// world at one step, keyframes for fast seeks. Destroys it when it goes out of scope.
// Move-only. The bytes are copied when it opens. Its world is the player's alone: the
// reads (bodies, debug draw) are the player's own calls, and the ids they give carry the
// null world id (m3Body_* refuses them).
class ReplayPlayer {
public:
    ReplayPlayer() = default;
    // Opens a container with the library's keyframe spacing.
    ReplayPlayer(const uint8_t* bytes, int64_t length) { m_result = m3ReplayPlayer_Open(bytes, length, &m_player); }
    // Opens a container keeping a keyframe every `keyframeEvery` steps (at least 1).
    ReplayPlayer(const uint8_t* bytes, int64_t length, uint64_t keyframeEvery)
    {
        m_result = m3ReplayPlayer_OpenWith(bytes, length, keyframeEvery, &m_player);
    }
    ~ReplayPlayer() { Reset(); }
    ReplayPlayer(const ReplayPlayer&) = delete;
    ReplayPlayer& operator=(const ReplayPlayer&) = delete;
    ReplayPlayer(ReplayPlayer&& other) noexcept : m_player(other.m_player), m_result(other.m_result)
    {
        other.m_player = nullptr;
    }
    ReplayPlayer& operator=(ReplayPlayer&& other) noexcept
    {
        if (this != &other) {
            Reset();
            m_player = other.m_player;
            m_result = other.m_result;
            other.m_player = nullptr;
        }
        return *this;
    }

    // Destroys the player now (no-op when empty; m3_errorBusy from its drawing functions).
    m3Result Reset()
    {
        m3Result r = m3_success;
        if (m_player != nullptr) {
            r = m3ReplayPlayer_Destroy(m_player);
            if (r == m3_success) m_player = nullptr;
        }
        return r;
    }

    // Whether opening succeeded; `OpenResult` says why not (m3_errorFormat: damaged).
    bool IsValid() const { return m_player != nullptr; }
    explicit operator bool() const { return IsValid(); }
    m3Result OpenResult() const { return m_result; }
    m3ReplayPlayer* Handle() const { return m_player; }

    // Steps on the tape: the player's steps are 0 to StepCount() (0 when empty).
    uint64_t StepCount() const { return U64(m3ReplayPlayer_GetStepCount); }
    // The step whose state the world holds (0 when empty).
    uint64_t CurrentStep() const { return U64(m3ReplayPlayer_GetCurrentStep); }
    // The world's hash at the current step; 0 when refused, but 0 is also a hash: GetHash
    // tells the two apart.
    uint64_t Hash() const { return U64(m3ReplayPlayer_GetHash); }
    m3Result GetHash(uint64_t* hash) const { return m3ReplayPlayer_GetHash(m_player, hash); }
    // The hash the recorder stored after its last call.
    uint64_t RecordedFinalHash() const { return U64(m3ReplayPlayer_GetRecordedFinalHash); }
    uint64_t KeyframeEvery() const { return U64(m3ReplayPlayer_GetKeyframeEvery); }
    // The step up to which keyframes are complete (StepCount() once indexed).
    uint64_t IndexedThrough() const { return U64(m3ReplayPlayer_GetIndexedThrough); }
    // Takes keyframes ahead (at most `maxSteps` steps of a second world) without moving
    // the current step; `done` is true once every keyframe exists. Call it a little every
    // frame in a viewer.
    m3Result IndexAhead(uint64_t maxSteps, bool* done)
    {
        return m3ReplayPlayer_IndexAhead(m_player, maxSteps, done);
    }

    // Brings the world to `step` (m3_errorArgument past StepCount(): nothing moves).
    m3Result Seek(uint64_t step) { return m3ReplayPlayer_Seek(m_player, step); }
    // One step forward or back; `moved` is false at the end or at step 0.
    m3Result StepForward(bool* moved) { return m3ReplayPlayer_StepForward(m_player, moved); }
    m3Result StepBack(bool* moved) { return m3ReplayPlayer_StepBack(m_player, moved); }
    // Replays the whole recording; the recording verifies when the two hashes are equal.
    m3Result Verify(uint64_t* recorded, uint64_t* replayed)
    {
        return m3ReplayPlayer_Verify(m_player, recorded, replayed);
    }
    // Where this recording and `other` part, and the worst differing bodies there (up to
    // `capacity` rows); moves both players to that step.
    m3Result Diff(ReplayPlayer& other, m3BodyDiff* rows, int32_t capacity, m3ReplayParting* parting)
    {
        return m3ReplayPlayer_Diff(m_player, other.m_player, rows, capacity, parting);
    }

    // The live bodies at the current step in slot order (capacity 0 and null bodies: only
    // count them).
    m3Result Bodies(m3ReplayBody* bodies, int32_t capacity, int32_t* count) const
    {
        return m3ReplayPlayer_GetBodies(m_player, bodies, capacity, count);
    }
    // How many bodies live at the current step (0 when refused).
    int32_t BodyCount() const
    {
        int32_t n = 0;
        return m3ReplayPlayer_GetBodies(m_player, nullptr, 0, &n) == m3_success ? n : 0;
    }
    // One body at the current step, by an id the player gave.
    m3Result Body(m3BodyId id, m3ReplayBody* body) const { return m3ReplayPlayer_GetBody(m_player, id, body); }
    // The world at the current step, to the host's drawing functions.
    m3Result Draw(const m3DebugDraw& draw) { return m3ReplayPlayer_Draw(m_player, &draw); }

private:
    uint64_t U64(m3Result (*get)(const m3ReplayPlayer*, uint64_t*)) const
    {
        uint64_t v = 0;
        return m_player != nullptr && get(m_player, &v) == m3_success ? v : 0;
    }

    m3ReplayPlayer* m_player = nullptr;
    m3Result m_result = m3_errorState;
};

// Adapts a job system to the world's task hooks. `JobSystem` needs two members:
//
//   Handle Launch(uint32_t jobCount, Fn fn)  runs fn(jobIndex, workerIndex) for every
//                                            jobIndex < jobCount, on its threads, with
//                                            workerIndex < WorkerCount() and no index
//                                            used by two jobs at once; returns a handle
//                                            (any copyable type).
//   void Wait(Handle handle)                  returns when all of them have run.
//   uint32_t WorkerCount() const
//
// `Fn` is a plain function object the adapter passes by value; `Handle` must be default
// constructible. Each launch splits the
// library's items into at most `WorkerCount() * piecesPerWorker` ranges of at least
// `minRange` items. The adapter keeps up to `MaxInFlight` launches in fixed storage (no
// allocation); a launch beyond that runs inline on the calling thread as worker 0, which
// the library allows (it then gets a null handle). The library calls the hooks from the
// thread that steps the world, so give each world stepped on its own thread its own
// adapter (they may share the job system).
template <typename JobSystem, int MaxInFlight = 8>
class JobSystemHooks {
public:
    explicit JobSystemHooks(JobSystem& jobs, uint32_t piecesPerWorker = 2)
        : m_jobs(jobs), m_piecesPerWorker(piecesPerWorker ? piecesPerWorker : 1)
    {
    }

    // Fills the def's task hooks with this adapter (which must outlive the world).
    void Install(m3WorldDef* def)
    {
        def->enqueueTask = &JobSystemHooks::Enqueue;
        def->finishTask = &JobSystemHooks::Finish;
        def->userTaskContext = this;
        def->workerCount = static_cast<int32_t>(m_jobs.WorkerCount());
    }

private:
    struct Slot;
    // Runs one piece of a launch: its items [start, end) as the job's worker.
    struct RunPiece {
        Slot* slot;
        void operator()(uint32_t job, uint32_t worker) const;
    };
    using Handle = decltype(std::declval<JobSystem&>().Launch(0u, std::declval<RunPiece>()));
    struct Slot {
        m3TaskCallback task;
        void* taskContext;
        uint32_t count;
        uint32_t piece;
        bool busy;
        Handle handle;
    };

    static void* Enqueue(m3TaskCallback task, uint32_t itemCount, uint32_t minRange, void* taskContext,
                         void* userContext)
    {
        auto* self = static_cast<JobSystemHooks*>(userContext);
        Slot* slot = nullptr;
        for (Slot& l : self->m_launches) {
            if (!l.busy) {
                slot = &l;
                break;
            }
        }
        if (slot == nullptr || itemCount == 0) {
            task(0, itemCount, 0, taskContext);
            return nullptr;
        }
        const uint32_t want = self->m_jobs.WorkerCount() * self->m_piecesPerWorker;
        uint32_t piece = want ? (itemCount + want - 1) / want : itemCount;
        if (piece < minRange) piece = minRange;
        if (piece == 0) piece = 1;
        slot->task = task;
        slot->taskContext = taskContext;
        slot->count = itemCount;
        slot->piece = piece;
        slot->busy = true;
        slot->handle = self->m_jobs.Launch((itemCount + piece - 1) / piece, RunPiece{slot});
        return slot;
    }

    static void Finish(void* userTask, void* userContext)
    {
        auto* self = static_cast<JobSystemHooks*>(userContext);
        auto* slot = static_cast<Slot*>(userTask);
        self->m_jobs.Wait(slot->handle);
        slot->busy = false;
    }

    JobSystem& m_jobs;
    uint32_t m_piecesPerWorker;
    Slot m_launches[MaxInFlight] = {};
};

template <typename JobSystem, int MaxInFlight>
void JobSystemHooks<JobSystem, MaxInFlight>::RunPiece::operator()(uint32_t job, uint32_t worker) const
{
    const uint32_t start = job * slot->piece;
    const uint32_t left = slot->count - start;
    const uint32_t end = start + (left < slot->piece ? left : slot->piece);
    slot->task(start, end, worker, slot->taskContext);
}

}  // namespace m3

#endif
