// Maul3DUnits.cpp: field copies around the library's m3Unreal_* conversions (no float
// arithmetic here: Unreal's fast-math settings cannot change a result).
#include "Core/Maul3DUnits.h"

namespace Maul3DCore {
namespace {

m3UnrealVector ToC(const FVec3d& V) { return m3UnrealVector{V.X, V.Y, V.Z}; }
FVec3d FromC(const m3UnrealVector& V) { return FVec3d{V.x, V.y, V.z}; }
m3UnrealQuat ToC(const FQuatd& Q) { return m3UnrealQuat{Q.X, Q.Y, Q.Z, Q.W}; }
m3UnrealTransform ToC(const FTransformd& T)
{
    return m3UnrealTransform{ToC(T.Translation), ToC(T.Rotation), ToC(T.Scale)};
}

}  // namespace

namespace Units {

m3Result PositionToEngine(const FVec3d& Cm, m3DVec3* Out) { return m3Unreal_PositionToEngine(ToC(Cm), Out); }

FVec3d PositionToUnreal(const m3DVec3& M)
{
    m3UnrealVector V{0.0, 0.0, 0.0};
    m3Unreal_PositionToUnreal(M, &V);
    return FromC(V);
}

m3Result VectorToEngine(const FVec3d& Cm, m3Vec3* Out) { return m3Unreal_VectorToEngine(ToC(Cm), Out); }

FVec3d VectorToUnreal(const m3Vec3& M)
{
    m3UnrealVector V{0.0, 0.0, 0.0};
    m3Unreal_VectorToUnreal(M, &V);
    return FromC(V);
}

m3Result SegmentToEngine(const FVec3d& StartCm, const FVec3d& EndCm, m3DVec3* Origin, m3Vec3* Translation)
{
    return m3Unreal_SegmentToEngine(ToC(StartCm), ToC(EndCm), Origin, Translation);
}

m3Result AngularVelocityToEngine(const FVec3d& RadPerSecond, m3Vec3* Out)
{
    return m3Unreal_AngularVelocityToEngine(ToC(RadPerSecond), Out);
}

FVec3d AngularVelocityToUnreal(const m3Vec3& RadPerSecond)
{
    m3UnrealVector V{0.0, 0.0, 0.0};
    m3Unreal_AngularVelocityToUnreal(RadPerSecond, &V);
    return FromC(V);
}

m3Result TorqueToEngine(const FVec3d& Unreal, m3Vec3* Out) { return m3Unreal_TorqueToEngine(ToC(Unreal), Out); }

m3Result QuatToEngine(const FQuatd& Q, m3Quat* Out) { return m3Unreal_QuatToEngine(ToC(Q), Out); }

FQuatd QuatToUnreal(const m3Quat& Q)
{
    m3UnrealQuat R{0.0, 0.0, 0.0, 1.0};
    m3Unreal_QuatToUnreal(Q, &R);
    return FQuatd{R.x, R.y, R.z, R.w};
}

m3Result DirectionToEngine(const FVec3d& Direction, m3Vec3* Out)
{
    return m3Unreal_AngularVelocityToEngine(m3UnrealVector{-Direction.X, -Direction.Y, -Direction.Z}, Out);
}

FVec3d DirectionToUnreal(const m3Vec3& Direction)
{
    return AngularVelocityToUnreal(m3Vec3{-Direction.x, -Direction.y, -Direction.z});
}

float DegreesToRadians(double Degrees)
{
    constexpr double RadiansPerDegree = 3.14159265358979323846 / 180.0;
    return static_cast<float>(Degrees * RadiansPerDegree);
}

m3Result LengthToEngine(double Cm, float* Out) { return m3Unreal_LengthToEngine(Cm, Out); }

double LengthToUnreal(float M)
{
    double Cm = 0.0;
    m3Unreal_LengthToUnreal(M, &Cm);
    return Cm;
}

m3Result TickSeconds(uint32_t TickHz, float* Out) { return m3Unreal_TickSeconds(TickHz, Out); }

m3Result SphereToEngine(const FTransformd& Local, double RadiusCm, m3Sphere* Out)
{
    return m3Unreal_SphereToEngine(ToC(Local), RadiusCm, Out);
}

m3Result BoxToEngine(const FTransformd& Local, const FVec3d& HalfExtentCm, m3Box* Out)
{
    return m3Unreal_BoxToEngine(ToC(Local), ToC(HalfExtentCm), Out);
}

m3Result Compose(const FTransformd& Child, const FTransformd& Parent, FTransformd* Out)
{
    m3UnrealTransform T{};
    const m3Result R = m3Unreal_ComposeTransforms(ToC(Child), ToC(Parent), &T);
    if (R == m3_success) {
        *Out = FTransformd{FromC(T.translation), FQuatd{T.rotation.x, T.rotation.y, T.rotation.z, T.rotation.w},
                           FromC(T.scale)};
    }
    return R;
}

m3Result BoxSizeToEngine(const FTransformd& Local, const FVec3d& SizeCm, m3Box* Out)
{
    return m3Unreal_BoxSizeToEngine(ToC(Local), ToC(SizeCm), Out);
}

m3Result SphylToEngine(const FTransformd& Local, double RadiusCm, double LengthCm, m3Capsule* Out)
{
    return m3Unreal_SphylToEngine(ToC(Local), RadiusCm, LengthCm, Out);
}

m3Result CapsuleToEngine(const FTransformd& Local, double RadiusCm, double HalfHeightCm, m3Capsule* Out)
{
    return m3Unreal_CapsuleToEngine(ToC(Local), RadiusCm, HalfHeightCm, Out);
}

m3Result PointsToEngine(const FTransformd& Local, const FVec3d* Points, int32_t Count, m3Vec3* Out)
{
    static_assert(sizeof(FVec3d) == sizeof(m3UnrealVector), "FVec3d is three doubles, as m3UnrealVector");
    static_assert(alignof(FVec3d) == alignof(m3UnrealVector), "FVec3d is three doubles, as m3UnrealVector");
    // FVec3d and m3UnrealVector are both three doubles (standard layout), so the array
    // passes as it is.
    return m3Unreal_PointsToEngine(ToC(Local), reinterpret_cast<const m3UnrealVector*>(Points), Count, Out);
}

}  // namespace Units
}  // namespace Maul3DCore
