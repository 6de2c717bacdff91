// Maul3DWaterHost.cpp: a water volume from a UE box.
#include "Core/Maul3DWaterHost.h"

namespace Maul3DCore {

m3Result BuildWaterDef(const FWaterSettings& Settings, m3WaterVolumeDef* Out)
{
    if (Out == nullptr) return m3_errorArgument;
    m3WaterVolumeDef Def = m3DefaultWaterVolumeDef();
    m3Result R = Units::PositionToEngine(Settings.CenterCm, &Def.center);
    // The box's own rotation, scale and half extents: the library's box conversion without
    // the translation (its half extents come out in the engine's axes, the rotation mapped).
    FTransformd Local;
    Local.Rotation = Settings.Rotation;
    Local.Scale = Settings.Scale;
    m3Box Box{};
    if (R == m3_success) R = Units::BoxToEngine(Local, Settings.HalfExtentCm, &Box);
    if (R == m3_success) R = Units::VectorToEngine(Settings.FlowCmPerSecond, &Def.flow);
    if (R != m3_success) return R;
    Def.rotation = Box.rotation;
    Def.halfExtents = Box.halfExtents;
    Def.density = Settings.Density;
    Def.linearDrag = Settings.LinearDrag;
    Def.angularDrag = Settings.AngularDrag;
    Def.filter = Settings.Filter;
    *Out = Def;
    return m3_success;
}

m3Result FWaterHost::Create(FWorldHost& Host, const FWaterSettings& Settings)
{
    Destroy();
    m3WaterVolumeDef Def{};
    m3Result R = BuildWaterDef(Settings, &Def);
    if (R == m3_success) R = m3World_CreateWaterVolume(Host.Id(), &Def, &Water);
    if (R != m3_success) Water = m3WaterVolumeId{};
    return R;
}

void FWaterHost::Destroy()
{
    if (IsValid()) m3WaterVolume_Destroy(Water);  // a stale id (world gone) is refused, harmlessly
    Water = m3WaterVolumeId{};
}

m3Result FWaterHost::SetSettings(const FWaterSettings& Settings)
{
    m3WaterVolumeDef Def{};
    const m3Result R = BuildWaterDef(Settings, &Def);
    return R == m3_success ? m3WaterVolume_SetDef(Water, &Def) : R;
}

m3Result FWaterHost::SetDensity(float KgPerM3) { return m3WaterVolume_SetDensity(Water, KgPerM3); }

m3Result FWaterHost::SetDrag(float Linear, float Angular) { return m3WaterVolume_SetDrag(Water, Linear, Angular); }

m3Result FWaterHost::SetFlow(const FVec3d& CmPerSecond)
{
    m3Vec3 Flow{};
    const m3Result R = Units::VectorToEngine(CmPerSecond, &Flow);
    return R == m3_success ? m3WaterVolume_SetFlow(Water, Flow) : R;
}

double FWaterHost::SurfaceZ() const
{
    m3WaterVolumeDef Def{};
    if (m3WaterVolume_GetDef(Water, &Def) != m3_success) return 0.0;
    // Read-back for display: the centre's height plus the half height, in cm.
    return Units::PositionToUnreal(Def.center).Z + Units::LengthToUnreal(Def.halfExtents.y);
}

m3Result FWaterHost::GetBuoyancy(m3BodyId Body, FBuoyancyInfo* Out) const
{
    if (Out == nullptr) return m3_errorArgument;
    m3Buoyancy B{};
    const m3Result R = m3WaterVolume_GetBuoyancy(Water, Body, &B);
    if (R != m3_success) return R;
    Out->SubmergedVolumeM3 = B.submergedVolume;
    Out->TotalVolumeM3 = B.totalVolume;
    Out->SubmergedFraction = B.totalVolume > 0.0f ? double(B.submergedVolume) / double(B.totalVolume) : 0.0;
    Out->CenterOfBuoyancyCm = Units::PositionToUnreal(B.centerOfBuoyancy);
    return m3_success;
}

}  // namespace Maul3DCore
