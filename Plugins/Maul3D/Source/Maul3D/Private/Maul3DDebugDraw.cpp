#include "Maul3DDebugDraw.h"

#include "DrawDebugHelpers.h"
#include "Maul3DConvert.h"

namespace Maul3DGlue {

void DrawShape(const UWorld* World, const Maul3DCore::FVec3d& PositionCm, const Maul3DCore::FQuatd& Rotation,
               const m3DebugShape& Geometry, bool bAwake, float LifeTime)
{
    using Maul3DCore::Units::LengthToUnreal;
    const FColor Color = bAwake ? FColor::Green : FColor(128, 128, 128);
    const FVector Center = ToUE(PositionCm);
    switch (Geometry.type) {
    case m3_sphereShape:
        DrawDebugSphere(World, Center, LengthToUnreal(Geometry.sphere.radius), 12, Color, false, LifeTime);
        break;
    case m3_capsuleShape:
        DrawDebugSphere(World, Center, LengthToUnreal(Geometry.capsule.radius), 12, Color, false, LifeTime);
        break;
    case m3_boxShape: {
        // The engine's (x, y, z) half extents are Unreal's (x, z, y): a swizzle.
        const m3Vec3& H = Geometry.box.halfExtents;
        const FVector Extent(LengthToUnreal(H.x), LengthToUnreal(H.z), LengthToUnreal(H.y));
        DrawDebugBox(World, Center, Extent, ToUE(Rotation), Color, false, LifeTime);
        break;
    }
    default:
        DrawDebugPoint(World, Center, 8.f, Color, false, LifeTime);
        break;
    }
}

void FWorldDrawSink::DrawShape(m3BodyId Body, const Maul3DCore::FVec3d& PositionCm, const Maul3DCore::FQuatd& Rotation,
                               const m3DebugShape& EngineGeometry, bool bAwake)
{
    (void)Body;
    Maul3DGlue::DrawShape(World, PositionCm, Rotation, EngineGeometry, bAwake, LifeTime);
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
    DrawShape(static_cast<const UWorld*>(Context), Maul3DCore::Units::PositionToUnreal(Position),
              Maul3DCore::Units::QuatToUnreal(Rotation), *Geometry, bAwake, 0.f);
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
