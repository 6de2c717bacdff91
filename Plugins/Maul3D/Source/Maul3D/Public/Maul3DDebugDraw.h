// Debug drawing of the core's shapes into a UWorld (maul3d.Draw, the replay tab): each
// shape as a wire box, sphere or point at its body's transform. Drawing only; nothing
// here feeds the simulation.
#pragma once

#include "CoreMinimal.h"
#include "Core/Maul3DWorldHost.h"

class UWorld;

namespace Maul3DGlue {

// One shape at a body's transform (Unreal units); geometry as the engine describes it.
MAUL3D_API void DrawShape(const UWorld* World, const Maul3DCore::FVec3d& PositionCm, const Maul3DCore::FQuatd& Rotation,
                          const m3DebugShape& Geometry, bool bAwake, float LifeTime);

// The sink the world host draws through.
class MAUL3D_API FWorldDrawSink final : public Maul3DCore::IDebugDrawSink {
public:
    FWorldDrawSink(const UWorld* InWorld, float InLifeTime) : World(InWorld), LifeTime(InLifeTime) {}
    void DrawShape(m3BodyId Body, const Maul3DCore::FVec3d& PositionCm, const Maul3DCore::FQuatd& Rotation,
                   const m3DebugShape& EngineGeometry, bool bAwake) override;
    void DrawContact(const Maul3DCore::FVec3d& PointCm, const Maul3DCore::FVec3d& Normal) override;

private:
    const UWorld* World;
    float LifeTime;
};

// An m3DebugDraw whose callbacks convert to Unreal units and draw into World (for
// m3::ReplayPlayer::Draw, which speaks engine units). World must outlive the call.
MAUL3D_API m3DebugDraw MakeEngineDebugDraw(const UWorld* World);

}  // namespace Maul3DGlue
