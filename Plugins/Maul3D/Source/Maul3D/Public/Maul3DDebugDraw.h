// Debug drawing of the core's shapes into a UWorld (maul3d.Draw, the replay tab): each
// shape as the wireframe lines the engine-free core places in the world
// (Core/Maul3DDebugLines.h), contacts as points. Drawing only; nothing here feeds the
// simulation.
#pragma once

#include "CoreMinimal.h"
#include "Core/Maul3DDebugLines.h"
#include "Core/Maul3DWorldHost.h"

#include <vector>

class UWorld;

namespace Maul3DGlue {

// Lines in Unreal units (green when awake, grey asleep).
MAUL3D_API void DrawLines(const UWorld* World, const std::vector<Maul3DCore::FLine>& LinesCm, bool bAwake,
                          float LifeTime);

// The sink the world host draws through.
class MAUL3D_API FWorldDrawSink final : public Maul3DCore::IDebugDrawSink {
public:
    FWorldDrawSink(const UWorld* InWorld, float InLifeTime) : World(InWorld), LifeTime(InLifeTime) {}
    void DrawShape(m3BodyId Body, const std::vector<Maul3DCore::FLine>& LinesCm, bool bAwake) override;
    void DrawContact(const Maul3DCore::FVec3d& PointCm, const Maul3DCore::FVec3d& Normal) override;

private:
    const UWorld* World;
    float LifeTime;
};

// An m3DebugDraw whose callbacks convert to Unreal units and draw into World (for
// m3::ReplayPlayer::Draw, which speaks engine units). World must outlive the call.
MAUL3D_API m3DebugDraw MakeEngineDebugDraw(const UWorld* World);

}  // namespace Maul3DGlue
