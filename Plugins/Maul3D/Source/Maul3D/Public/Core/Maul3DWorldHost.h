// Maul3DWorldHost.h: one engine world per game world, in Unreal units. Creates it from
// settings, steps it at the fixed tick, snapshots / restores / hashes it, records
// journals and saves replay containers, applies impulses and forces, runs ray and shape
// queries, and forwards debug draw. All conversions go through Maul3DUnits.
#pragma once

#include "Core/Maul3DDebugLines.h"
#include "Core/Maul3DFixedStep.h"
#include "Core/Maul3DTaskRouter.h"
#include "Core/Maul3DUnits.h"
#include "maul3d.hpp"

#include <cstdint>
#include <memory>
#include <vector>

namespace Maul3DCore {

struct FWorldSettings {
    int32_t BodyCapacity = 4096;
    int32_t ShapeCapacity = 8192;
    int32_t ContactCapacity = 32768;
    int32_t JointCapacity = 1024;
    int32_t HullCapacity = 1024;
    int32_t MeshCapacity = 256;
    int32_t CharacterCapacity = 64;
    int32_t VehicleCapacity = 32;
    int32_t WaterCapacity = 16;
    int32_t SoftBodyCapacity = 16;
    int32_t SoftParticleCapacity = 4096;
    uint32_t TickHz = 60;
    uint32_t MaxStepsPerFrame = 4;
    int32_t Substeps = 4;
    FVec3d GravityCmPerS2{0.0, 0.0, -980.0};
    // Host worker tasks for a step (0 or 1: the stepping thread alone; a launcher needed
    // above 1).
    uint32_t Threads = 0;
};

// Whether two body ids name the same body (slot, generation and world): how the glue
// finds the component of a query hit.
inline bool SameBody(m3BodyId A, m3BodyId B)
{
    return A.index == B.index && A.generation == B.generation && A.world.index == B.world.index &&
           A.world.generation == B.world.generation;
}

struct FRayHit {
    bool bHit = false;
    m3BodyId Body{};
    m3ShapeId Shape{};
    FVec3d Point;   // cm
    FVec3d Normal;  // Unreal axes, unit
    float Fraction = 0.0f;
};

// Debug draw in Unreal units: the host gets each shape (or mesh triangle) as wireframe
// lines already placed in the world (cm, Unreal axes; see Maul3DDebugLines.h).
class IDebugDrawSink {
public:
    virtual ~IDebugDrawSink() = default;
    virtual void DrawShape(m3BodyId Body, const std::vector<FLine>& LinesCm, bool bAwake) = 0;
    virtual void DrawContact(const FVec3d& PointCm, const FVec3d& Normal) { (void)PointCm; (void)Normal; }
};

// Told before each fixed step (characters move here, so a move happens once per step at
// the step's length, whatever the frame rate). Listeners run in the order they were added.
class IStepListener {
public:
    virtual ~IStepListener() = default;
    virtual void PreStep(float StepSeconds) = 0;
    // The world is being destroyed (its ids die with it): forget it; no longer a listener.
    virtual void OnWorldDestroyed() {}
};

class FWorldHost {
public:
    FWorldHost() = default;
    FWorldHost(const FWorldHost&) = delete;
    FWorldHost& operator=(const FWorldHost&) = delete;

    // Creates the world (a running one is destroyed first). Launcher may be null (then
    // Threads must be 0 or 1); it must outlive the world.
    m3Result Create(const FWorldSettings& Settings, ITaskLauncher* Launcher = nullptr);
    void Destroy();
    bool IsValid() const { return World.IsValid(); }
    m3WorldId Id() const { return World.Id(); }
    m3::World& Raw() { return World; }
    const FWorldSettings& Settings() const { return Current; }
    FFixedStep& Clock() { return Accumulator; }

    // Runs Steps fixed steps (manual StepPhysics(N); works while paused).
    m3Result Step(uint32_t Steps = 1);
    // A frame: the accumulator decides how many steps run; returns them in StepsRun.
    m3Result Tick(int64_t FrameNanoseconds, uint32_t* StepsRun = nullptr);
    uint64_t StepCount() const;
    // The fixed step's length, s (the library's 1 / TickHz).
    float StepSeconds() const { return StepLength; }
    // The world's gravity in the engine's units (m/s^2, engine axes).
    m3Vec3 EngineGravity() const { return Gravity; }

    // Pre-step listeners (not owned; remove before destroying one).
    void AddStepListener(IStepListener* Listener);
    void RemoveStepListener(IStepListener* Listener);
    uint64_t Hash() const { return World.Hash(); }

    m3Result Snapshot(std::vector<uint8_t>& Out) const;
    m3Result Restore(const uint8_t* Bytes, int64_t Length);
    m3Result Restore(const std::vector<uint8_t>& Bytes) { return Restore(Bytes.data(), int64_t(Bytes.size())); }

    // Journal: records every change from now (snapshot of the start taken here) into a
    // tape of at most CapacityBytes.
    m3Result StartJournal(int64_t CapacityBytes = int64_t(64) << 20);
    bool IsRecording() const { return Recording; }
    // Stops it and writes a replay container (start snapshot, tape, final hash) to Out.
    m3Result StopJournal(std::vector<uint8_t>& ReplayOut);

    // Body transform and velocities in Unreal units.
    m3Result GetTransform(m3BodyId Body, FVec3d* PositionCm, FQuatd* Rotation) const;
    m3Result GetLinearVelocity(m3BodyId Body, FVec3d* CmPerSecond) const;
    m3Result SetTransform(m3BodyId Body, const FVec3d& PositionCm, const FQuatd& Rotation);
    m3Result SetLinearVelocity(m3BodyId Body, const FVec3d& CmPerSecond);
    m3Result SetAngularVelocity(m3BodyId Body, const FVec3d& RadPerSecond);
    // Impulse kg cm/s, force kg cm/s^2 (Unreal's units), torque kg cm^2/s^2.
    m3Result AddImpulse(m3BodyId Body, const FVec3d& Impulse);
    m3Result AddImpulseAtLocation(m3BodyId Body, const FVec3d& Impulse, const FVec3d& LocationCm);
    m3Result AddForce(m3BodyId Body, const FVec3d& Force);
    m3Result AddForceAtLocation(m3BodyId Body, const FVec3d& Force, const FVec3d& LocationCm);
    m3Result AddTorque(m3BodyId Body, const FVec3d& Torque);

    // The closest hit on the segment Start..End (cm).
    m3Result RayCast(const FVec3d& StartCm, const FVec3d& EndCm, FRayHit* Hit,
                     m3QueryFilter Filter = m3QueryFilter{~0ull, ~0ull, false}) const;
    // The bodies whose shapes overlap a sphere / box (cm; box half extents along its axes).
    m3Result OverlapSphere(const FVec3d& CenterCm, double RadiusCm, std::vector<m3ShapeId>& Out,
                           m3QueryFilter Filter = m3QueryFilter{~0ull, ~0ull, false}) const;
    m3Result OverlapBox(const FVec3d& CenterCm, const FQuatd& Rotation, const FVec3d& HalfExtentCm,
                        std::vector<m3ShapeId>& Out,
                        m3QueryFilter Filter = m3QueryFilter{~0ull, ~0ull, false}) const;
    // Sweeps a sphere from Start to End: the first hit.
    m3Result SweepSphere(const FVec3d& StartCm, const FVec3d& EndCm, double RadiusCm, FRayHit* Hit,
                         m3QueryFilter Filter = m3QueryFilter{~0ull, ~0ull, false}) const;

    // Debug draw (maul3d.Draw): shapes and contacts to the sink.
    m3Result Draw(IDebugDrawSink& Sink, bool bShapes = true, bool bContacts = false);

private:
    FWorldSettings Current;
    m3::World World;
    std::unique_ptr<FTaskRouter> Router;
    FFixedStep Accumulator;
    float StepLength = 1.0f / 60.0f;
    m3Vec3 Gravity{0.0f, -9.8f, 0.0f};
    std::vector<IStepListener*> Listeners;
    bool Recording = false;
    std::vector<uint8_t> JournalStart;
    std::vector<uint8_t> Tape;
};

}  // namespace Maul3DCore
