// Maul3DWaterHost.h: a water volume (the core's box of fluid whose top face is the
// surface) from a UE box: centre and half extents in cm, rotation in UE axes (the surface
// is the box's +Z face), density kg/m^3, drag rates 1/s, the current in cm/s. All
// conversions go through Maul3DUnits.
#pragma once

#include "Core/Maul3DUnits.h"
#include "Core/Maul3DWorldHost.h"
#include "maul3d.h"

namespace Maul3DCore {

struct FWaterSettings {
    FVec3d CenterCm;
    FQuatd Rotation;
    FVec3d HalfExtentCm{1000.0, 1000.0, 500.0};  // UBoxComponent's unscaled BoxExtent
    FVec3d Scale{1.0, 1.0, 1.0};                 // the component's scale (the library applies it)
    float Density = 1000.0f;                    // kg/m^3 (water)
    float LinearDrag = 1.0f;                    // 1/s
    float AngularDrag = 1.0f;                   // 1/s
    FVec3d FlowCmPerSecond;                     // the current, UE axes
    m3Filter Filter = m3DefaultShapeDef().filter;
};

// The C def from UE-unit settings (nothing created).
m3Result BuildWaterDef(const FWaterSettings& Settings, m3WaterVolumeDef* Out);

struct FBuoyancyInfo {
    double SubmergedFraction = 0.0;  // submerged / total volume of the body's shapes
    float SubmergedVolumeM3 = 0.0f;
    float TotalVolumeM3 = 0.0f;
    FVec3d CenterOfBuoyancyCm;
};

class FWaterHost {
public:
    FWaterHost() = default;
    ~FWaterHost() { Destroy(); }
    FWaterHost(const FWaterHost&) = delete;
    FWaterHost& operator=(const FWaterHost&) = delete;

    m3Result Create(FWorldHost& Host, const FWaterSettings& Settings);
    void Destroy();
    bool IsValid() const { return Water.index != 0; }
    m3WaterVolumeId Id() const { return Water; }

    // The whole def again (moved, resized, other fluid).
    m3Result SetSettings(const FWaterSettings& Settings);
    m3Result SetDensity(float KgPerM3);
    m3Result SetDrag(float Linear, float Angular);
    m3Result SetFlow(const FVec3d& CmPerSecond);
    // The surface's height at the box's centre (UE Z, cm), for an unrotated box.
    double SurfaceZ() const;
    // What the water does to a body where it is now.
    m3Result GetBuoyancy(m3BodyId Body, FBuoyancyInfo* Out) const;

private:
    m3WaterVolumeId Water{};
};

}  // namespace Maul3DCore
