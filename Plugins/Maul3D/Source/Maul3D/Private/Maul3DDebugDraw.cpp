#include "Maul3DDebugDraw.h"

#include "DrawDebugHelpers.h"
#include "Maul3DConvert.h"

namespace Maul3DGlue {

void DrawLines(const UWorld* World, const std::vector<Maul3DCore::FLine>& LinesCm, bool bAwake, float LifeTime)
{
    const FColor Color = bAwake ? FColor::Green : FColor(128, 128, 128);
    for (const Maul3DCore::FLine& Line : LinesCm)
        DrawDebugLine(World, ToUE(Line.Start), ToUE(Line.End), Color, false, LifeTime);
}

void FWorldDrawSink::DrawShape(m3BodyId Body, const std::vector<Maul3DCore::FLine>& LinesCm, bool bAwake)
{
    (void)Body;
    DrawLines(World, LinesCm, bAwake, LifeTime);
}

void FWorldDrawSink::DrawContact(const Maul3DCore::FVec3d& PointCm, const Maul3DCore::FVec3d& Normal)
{
    (void)Normal;
    DrawDebugPoint(World, ToUE(PointCm), 6.f, FColor::Red, false, LifeTime);
}

static void DrawEngineShape(m3ShapeId Shape, m3BodyId Body, m3DVec3 Position, m3Quat Rotation,
                            const m3DebugShape* Geometry, bool bAwake, void* Context)
{
    (void)Shape;
    (void)Body;
    std::vector<Maul3DCore::FLine> Lines;
    Maul3DCore::AppendShapeLines(Position, Rotation, *Geometry, Lines);
    DrawLines(static_cast<const UWorld*>(Context), Lines, bAwake, 0.f);
}

m3DebugDraw MakeEngineDebugDraw(const UWorld* World)
{
    m3DebugDraw Draw = m3DefaultDebugDraw();
    Draw.shapeFcn = &DrawEngineShape;
    Draw.drawShapes = true;
    Draw.context = const_cast<UWorld*>(World);
    return Draw;
}

}  // namespace Maul3DGlue
