// Maul3DVehicleHost.cpp: a vehicle in Unreal units.
#include "Core/Maul3DVehicleHost.h"

namespace Maul3DCore {
namespace {

float Clamp(float V, float Lo, float Hi)
{
    if (!(V >= Lo)) return Lo;  // NaN too
    if (V > Hi) return Hi;
    return V;
}

m3Result BuildWheel(const FWheelSettings& S, m3WheelDef* Out)
{
    m3WheelDef W = m3DefaultWheelDef();
    m3Result R = Units::VectorToEngine(S.PositionCm, &W.position);
    if (R == m3_success) R = Units::DirectionToEngine(S.SuspensionDirection, &W.suspensionDirection);
    if (R == m3_success) R = Units::LengthToEngine(S.MinLengthCm, &W.minLength);
    if (R == m3_success) R = Units::LengthToEngine(S.MaxLengthCm, &W.maxLength);
    if (R == m3_success) R = Units::LengthToEngine(S.RestLengthCm, &W.restLength);
    if (R == m3_success) R = Units::LengthToEngine(S.RadiusCm, &W.radius);
    if (R == m3_success) R = Units::LengthToEngine(S.WidthCm, &W.width);
    if (R != m3_success) return R;
    W.springMode = m3_springFrequency;
    W.hertz = S.SpringHertz;
    W.dampingRatio = S.DampingRatio;
    W.inertia = S.InertiaKgM2;
    W.maxSteerAngle = Units::DegreesToRadians(S.MaxSteerDegrees);
    W.brakeTorque = S.BrakeTorqueNm;
    W.handbrakeTorque = S.HandbrakeTorqueNm;
    W.driven = S.bDriven;
    W.cast = static_cast<m3WheelCast>(S.Cast);
    *Out = W;
    return m3_success;
}

}  // namespace

m3Result BuildVehicleDef(m3BodyId Chassis, const FVehicleSettings& Settings, m3VehicleDef* Out)
{
    if (Out == nullptr) return m3_errorArgument;
    if (Settings.Wheels.empty() || Settings.Wheels.size() > size_t(M3_MAX_WHEELS)) return m3_errorArgument;
    m3VehicleDef Def = m3DefaultVehicleDef();
    Def.chassis = Chassis;
    // UE's vehicle axes: forward +X, up +Z.
    m3Result R = Units::DirectionToEngine(FVec3d{0.0, 0.0, 1.0}, &Def.up);
    if (R == m3_success) R = Units::DirectionToEngine(FVec3d{1.0, 0.0, 0.0}, &Def.forward);
    for (size_t I = 0; R == m3_success && I < Settings.Wheels.size(); ++I) {
        R = BuildWheel(Settings.Wheels[I], &Def.wheels[I]);
    }
    if (R != m3_success) return R;
    Def.wheelCount = int32_t(Settings.Wheels.size());
    Def.engine.maxTorque = Settings.MaxTorqueNm;
    Def.engine.minRpm = Settings.MinRpm;
    Def.engine.maxRpm = Settings.MaxRpm;
    Def.transmission.automatic = Settings.bAutomatic;
    Def.castMask = Settings.CastMask;
    *Out = Def;
    return m3_success;
}

m3VehicleInput ToEngineInput(const FVehicleInput& Input)
{
    m3VehicleInput In{};
    In.throttle = Clamp(Input.Throttle, -1.0f, 1.0f);
    In.steering = -Clamp(Input.Steering, -1.0f, 1.0f);
    In.brake = Clamp(Input.Brake, 0.0f, 1.0f);
    In.handbrake = Clamp(Input.Handbrake, 0.0f, 1.0f);
    return In;
}

m3Result FVehicleHost::Create(FWorldHost& Host, m3BodyId Chassis, const FVehicleSettings& Settings)
{
    Destroy();
    m3VehicleDef Def{};
    m3Result R = BuildVehicleDef(Chassis, Settings, &Def);
    if (R == m3_success) R = m3World_CreateVehicle(Host.Id(), &Def, &Vehicle);
    if (R != m3_success) {
        Vehicle = m3VehicleId{};
        return R;
    }
    Wheels.clear();
    for (int32_t I = 0; I < Def.wheelCount; ++I) {
        Wheels.push_back(FWheelFrame{Def.wheels[I].position, m3Normalize(Def.wheels[I].suspensionDirection)});
    }
    Up = Def.up;
    // The axle, up x forward (the engine's right-handed cross product of two unit axes;
    // for drawing only): a positive spin about it rolls the wheel forward.
    Axle = m3Vec3{Up.y * Def.forward.z - Up.z * Def.forward.y, Up.z * Def.forward.x - Up.x * Def.forward.z,
                  Up.x * Def.forward.y - Up.y * Def.forward.x};
    Input = FVehicleInput{};
    return m3_success;
}

void FVehicleHost::Destroy()
{
    if (IsValid()) m3Vehicle_Destroy(Vehicle);  // a stale id (chassis or world gone) is refused, harmlessly
    Vehicle = m3VehicleId{};
    Wheels.clear();
}

m3Result FVehicleHost::SetInput(const FVehicleInput& In)
{
    Input = In;
    return m3Vehicle_SetInput(Vehicle, ToEngineInput(In));
}

m3Result FVehicleHost::SetThrottle(float Value)
{
    FVehicleInput In = Input;
    In.Throttle = Value;
    return SetInput(In);
}

m3Result FVehicleHost::SetSteering(float Value)
{
    FVehicleInput In = Input;
    In.Steering = Value;
    return SetInput(In);
}

m3Result FVehicleHost::SetBrake(float Value)
{
    FVehicleInput In = Input;
    In.Brake = Value;
    return SetInput(In);
}

m3Result FVehicleHost::SetHandbrake(float Value)
{
    FVehicleInput In = Input;
    In.Handbrake = Value;
    return SetInput(In);
}

double FVehicleHost::GetForwardSpeedCm() const
{
    float Speed = 0.0f;
    if (m3Vehicle_GetForwardSpeed(Vehicle, &Speed) != m3_success) return 0.0;
    return Units::LengthToUnreal(Speed);
}

float FVehicleHost::GetEngineRpm() const
{
    float Rpm = 0.0f;
    m3Vehicle_GetEngineRpm(Vehicle, &Rpm);
    return Rpm;
}

int32_t FVehicleHost::GetGear() const
{
    int32_t Gear = 0;
    m3Vehicle_GetGear(Vehicle, &Gear);
    return Gear;
}

m3Result FVehicleHost::GetWheelVisual(int32_t Wheel, FWheelVisual* Out) const
{
    if (Out == nullptr || Wheel < 0 || Wheel >= WheelCount()) return m3_errorArgument;
    m3WheelState S{};
    const m3Result R = m3Vehicle_GetWheelState(Vehicle, Wheel, &S);
    if (R != m3_success) return R;
    // Drawing only (nothing here goes back into the simulation): the wheel's centre is its
    // attachment moved along the suspension by its length; its rotation the steering about
    // up, then the spin about the axle (the library's quaternion maths).
    const FWheelFrame& F = Wheels[size_t(Wheel)];
    const m3Vec3 Centre{F.Position.x + F.Direction.x * S.suspensionLength,
                        F.Position.y + F.Direction.y * S.suspensionLength,
                        F.Position.z + F.Direction.z * S.suspensionLength};
    const m3Quat Steer = m3MakeQuatFromAxisAngle(Up, S.steerAngle);
    const m3Quat Spin = m3MakeQuatFromAxisAngle(Axle, S.rotation);
    Out->LocationCm = Units::VectorToUnreal(Centre);
    Out->Rotation = Units::QuatToUnreal(m3MulQuat(Steer, Spin));
    Out->SuspensionLengthCm = Units::LengthToUnreal(S.suspensionLength);
    Out->SteerDegrees = -S.steerAngle * 57.29577951308232f;
    Out->SpinRadians = S.rotation;
    Out->bInContact = S.inContact;
    Out->ContactPointCm = S.inContact ? Units::PositionToUnreal(S.point) : FVec3d{};
    return m3_success;
}

}  // namespace Maul3DCore
