// Maul3DUnits.h: Unreal units and axes <-> the engine's, for the engine-free core.
//
// Unreal: centimetres, Z up, left-handed (X forward, Y right, Z up).
// Engine: metres, Y up, right-handed. engine = (X, Z, Y) * 0.01: swapping Y and Z is a
// reflection, so it also turns the left-handed frame into a right-handed one, and
// Unreal's up (+Z) becomes the engine's up (+Y).
//
// Unreal compiles with fast-math-like settings, so nothing here computes in floating
// point: every scale, rotation and shape conversion is the library's (m3Unreal_*,
// computed in Rust with the same bits everywhere); this header only copies fields.
// Quaternions are Unreal's FQuat components (X, Y, Z, W) and angular velocities the
// axis * radians/s vector in Unreal's axes, both as FQuat's own maths reads them.
#pragma once

#include "maul3d.h"

#include <cstdint>

namespace Maul3DCore {

// A position, direction or extent in Unreal units (as UE's FVector, doubles).
struct FVec3d {
    double X = 0.0;
    double Y = 0.0;
    double Z = 0.0;
};

// A rotation in Unreal's axes (as UE's FQuat).
struct FQuatd {
    double X = 0.0;
    double Y = 0.0;
    double Z = 0.0;
    double W = 1.0;
};

// A transform in Unreal units (as UE's FTransform: scale, then rotation, then translation).
struct FTransformd {
    FVec3d Translation;
    FQuatd Rotation;
    FVec3d Scale{1.0, 1.0, 1.0};
};

namespace Units {

// Positions: cm (Unreal) <-> m relative to the world origin (engine).
m3Result PositionToEngine(const FVec3d& Cm, m3DVec3* Out);
FVec3d PositionToUnreal(const m3DVec3& M);

// Linear vectors (offsets, velocities, accelerations, forces, impulses: anything per cm):
// cm-based -> m-based.
m3Result VectorToEngine(const FVec3d& Cm, m3Vec3* Out);
FVec3d VectorToUnreal(const m3Vec3& M);

// A segment Start..End (cm) -> its start (m) and translation (m), as ray and shape casts
// take them (the subtraction is the library's).
m3Result SegmentToEngine(const FVec3d& StartCm, const FVec3d& EndCm, m3DVec3* Origin, m3Vec3* Translation);

// Angular velocity (rad/s, axial vector): axes only.
m3Result AngularVelocityToEngine(const FVec3d& RadPerSecond, m3Vec3* Out);
FVec3d AngularVelocityToUnreal(const m3Vec3& RadPerSecond);

// Torque and angular impulse (kg cm^2/s^2, kg cm^2/s): axes and cm^2 -> m^2.
m3Result TorqueToEngine(const FVec3d& Unreal, m3Vec3* Out);

// Rotations (normalised by the library; a zero or non-finite quaternion is refused).
m3Result QuatToEngine(const FQuatd& Q, m3Quat* Out);
FQuatd QuatToUnreal(const m3Quat& Q);

// Directions (unit or not, no scale): Unreal axes <-> engine axes, the axis swap alone (the
// library's axial-vector map with the sign flipped back).
m3Result DirectionToEngine(const FVec3d& Direction, m3Vec3* Out);
FVec3d DirectionToUnreal(const m3Vec3& Direction);

// An angle in degrees (UE's rotator and settings unit) -> radians: one multiplication by
// a constant the compiler folds, a single IEEE operation that fast-math leaves as it is.
float DegreesToRadians(double Degrees);

// Lengths: cm <-> m.
m3Result LengthToEngine(double Cm, float* Out);
double LengthToUnreal(float M);

// Gravity in cm/s^2 (Unreal's default (0, 0, -980)) -> m/s^2.
inline m3Result GravityToEngine(const FVec3d& CmPerS2, m3Vec3* Out) { return VectorToEngine(CmPerS2, Out); }

// The fixed step in seconds for a tick rate (Hz within [1, 10000]), as the library
// divides it (the same float everywhere).
m3Result TickSeconds(uint32_t TickHz, float* Out);

// Shapes: an element's transform relative to its body (scale included) and its size,
// in Unreal units -> the engine's shape in the body frame.
m3Result SphereToEngine(const FTransformd& Local, double RadiusCm, m3Sphere* Out);
// Half extents along the element's X, Y, Z.
m3Result BoxToEngine(const FTransformd& Local, const FVec3d& HalfExtentCm, m3Box* Out);
// A transform below another (UE's `Child * Parent`: the child's, then the parent's), as
// the library computes it: walking a component's attach chain up to the body's root
// gives the component's transform in the body, with no float maths in C++.
m3Result Compose(const FTransformd& Child, const FTransformd& Parent, FTransformd* Out);
// The same from full lengths (FKBoxElem's X, Y, Z): the library halves them.
m3Result BoxSizeToEngine(const FTransformd& Local, const FVec3d& SizeCm, m3Box* Out);
// A capsule along the element's Z; HalfHeight includes the caps (as UCapsuleComponent's
// and FKSphylElem's radius + half length).
m3Result CapsuleToEngine(const FTransformd& Local, double RadiusCm, double HalfHeightCm, m3Capsule* Out);
// An FKSphylElem (radius and cylinder length along its Z): the library computes the half
// height with the caps.
m3Result SphylToEngine(const FTransformd& Local, double RadiusCm, double LengthCm, m3Capsule* Out);
// Points (convex elements, mesh vertices) through the element's transform.
m3Result PointsToEngine(const FTransformd& Local, const FVec3d* Points, int32_t Count, m3Vec3* Out);

}  // namespace Units
}  // namespace Maul3DCore
