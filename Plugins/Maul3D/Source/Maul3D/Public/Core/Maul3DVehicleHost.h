// Maul3DVehicleHost.h: a vehicle (the core's chassis-on-wheels) in Unreal units. Builds
// the C def from UE-unit wheel settings (positions in the chassis actor's space, cm;
// suspension lengths, radius and width in cm; steering angle in degrees), maps the
// driver's input (UE's convention: steering +1 turns right, towards +Y), and gives each
// wheel's visual transform (suspension travel, steering, spin) in the chassis' space in
// Unreal units. Forward is the chassis' +X, up its +Z (UE's vehicle axes).
#pragma once

#include "Core/Maul3DUnits.h"
#include "Core/Maul3DWorldHost.h"
#include "maul3d.h"

#include <cstdint>
#include <vector>

namespace Maul3DCore {

enum class EWheelCast : int32_t { Ray = 0, Sphere = 1, Cylinder = 2 };

struct FWheelSettings {
    FVec3d PositionCm;                       // suspension attachment, chassis space
    FVec3d SuspensionDirection{0.0, 0.0, -1.0};  // towards the ground, chassis space
    double MinLengthCm = 5.0;                // bump stop
    double MaxLengthCm = 50.0;               // hanging off the ground
    double RestLengthCm = 50.0;              // spring's rest length
    float SpringHertz = 1.5f;                // of the chassis' share of mass
    float DampingRatio = 0.5f;
    double RadiusCm = 30.0;
    double WidthCm = 20.0;
    float InertiaKgM2 = 0.9f;                // about the axle (engine units)
    double MaxSteerDegrees = 0.0;            // at full steering; 0: not steered
    float BrakeTorqueNm = 1500.0f;
    float HandbrakeTorqueNm = 0.0f;
    bool bDriven = false;
    EWheelCast Cast = EWheelCast::Ray;
};

struct FVehicleSettings {
    std::vector<FWheelSettings> Wheels;  // 1 to M3_MAX_WHEELS
    float MaxTorqueNm = 500.0f;
    float MinRpm = 1000.0f;
    float MaxRpm = 6000.0f;
    bool bAutomatic = true;
    // Which shapes the wheels see (their category bits; never the chassis').
    uint64_t CastMask = ~0ull;
};

// The C def for a chassis body from UE-unit settings (nothing created).
m3Result BuildVehicleDef(m3BodyId Chassis, const FVehicleSettings& Settings, m3VehicleDef* Out);

// UE's input (throttle and steering in [-1, 1], brake and handbrake in [0, 1]; out-of-range
// values are clamped) -> the core's (steering's sign flipped: the engine steers positive
// about its up, which is left in UE's left-handed axes).
struct FVehicleInput {
    float Throttle = 0.0f;
    float Steering = 0.0f;
    float Brake = 0.0f;
    float Handbrake = 0.0f;
};
m3VehicleInput ToEngineInput(const FVehicleInput& Input);

// A wheel to draw, in the chassis' space (UE units): its centre (attachment plus the
// suspension travel) and rotation (steering about the chassis' up, then the spin about the
// axle), plus the raw figures.
struct FWheelVisual {
    FVec3d LocationCm;
    FQuatd Rotation;
    double SuspensionLengthCm = 0.0;
    float SteerDegrees = 0.0f;   // UE's sign: positive turned right
    float SpinRadians = 0.0f;    // [0, 2pi), rolling forward increases it
    bool bInContact = false;
    FVec3d ContactPointCm;       // world
};

class FVehicleHost {
public:
    FVehicleHost() = default;
    ~FVehicleHost() { Destroy(); }
    FVehicleHost(const FVehicleHost&) = delete;
    FVehicleHost& operator=(const FVehicleHost&) = delete;

    m3Result Create(FWorldHost& Host, m3BodyId Chassis, const FVehicleSettings& Settings);
    void Destroy();
    bool IsValid() const { return Vehicle.index != 0; }
    m3VehicleId Id() const { return Vehicle; }
    int32_t WheelCount() const { return int32_t(Wheels.size()); }

    // Each setter sends the whole input to the core at once (held there until changed).
    m3Result SetInput(const FVehicleInput& Input);
    m3Result SetThrottle(float Value);
    m3Result SetSteering(float Value);
    m3Result SetBrake(float Value);
    m3Result SetHandbrake(float Value);
    const FVehicleInput& GetInput() const { return Input; }

    double GetForwardSpeedCm() const;  // cm/s along the chassis' forward
    float GetEngineRpm() const;
    int32_t GetGear() const;
    m3Result GetWheelVisual(int32_t Wheel, FWheelVisual* Out) const;

private:
    m3VehicleId Vehicle{};
    FVehicleInput Input;
    // What the visuals need, in the engine's chassis frame.
    struct FWheelFrame {
        m3Vec3 Position;
        m3Vec3 Direction;
    };
    std::vector<FWheelFrame> Wheels;
    m3Vec3 Up{0.0f, 1.0f, 0.0f};
    m3Vec3 Axle{0.0f, 0.0f, -1.0f};  // up x forward: positive spin rolls forward
};

}  // namespace Maul3DCore
