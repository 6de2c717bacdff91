// Maul3DCharacterHost.h: a character (the core's kinematic capsule mover) in Unreal
// units. Builds the C def from UE-unit settings (capsule radius and half height with the
// caps in cm, as UCapsuleComponent's; step height, skin and snap in cm; the steepest
// walkable slope in degrees), moves it once per fixed step from a desired velocity in cm/s
// (UE axes), adds gravity while it is off walkable ground, and gives back its location,
// velocity and ground in Unreal units. All conversions go through Maul3DUnits.
#pragma once

#include "Core/Maul3DUnits.h"
#include "Core/Maul3DWorldHost.h"
#include "maul3d.h"

#include <cstdint>

namespace Maul3DCore {

struct FCharacterSettings {
    FVec3d Location;                // the capsule's centre, cm
    double RadiusCm = 34.0;         // UCapsuleComponent's radius
    double HalfHeightCm = 88.0;     // UCapsuleComponent's half height, caps included
    double StepHeightCm = 45.0;     // UCharacterMovementComponent's MaxStepHeight
    double MaxSlopeDegrees = 44.765;// its walkable floor angle
    double SkinCm = 2.0;            // gap kept to what it touches
    double SnapToGroundCm = 50.0;   // how far down a grounded walker is pulled back
    float MaxPushForceNewtons = 100.0f;  // the most it pushes dynamic bodies with (N)
    float MassKg = 70.0f;
    // Gravity (the world's) while not on walkable ground; off: the desired velocity alone.
    bool bUseGravity = true;
    m3Filter Filter = m3DefaultShapeDef().filter;
};

// The C def from UE-unit settings (nothing created). Refusals name the value.
m3Result BuildCharacterDef(const FCharacterSettings& Settings, m3CharacterDef* Out);
// The movement part alone (for m3Character_SetSettings).
m3Result BuildCharacterMoveSettings(const FCharacterSettings& Settings, m3CharacterSettings* Out);

enum class EGround : int32_t { OnGround = 0, OnSteepGround = 1, InAir = 2 };

class FCharacterHost final : public IStepListener {
public:
    FCharacterHost() = default;
    ~FCharacterHost() override { Destroy(); }
    FCharacterHost(const FCharacterHost&) = delete;
    FCharacterHost& operator=(const FCharacterHost&) = delete;

    // Creates the character in Host's world and moves it before each of Host's steps
    // (bTickWithHost; otherwise call Move yourself once per step).
    m3Result Create(FWorldHost& Host, const FCharacterSettings& Settings, bool bTickWithHost = true);
    void Destroy();
    bool IsValid() const { return Character.index != 0; }
    m3CharacterId Id() const { return Character; }
    m3BodyId BodyId() const;

    // What the character tries to do each step, cm/s in UE axes (held until changed). With
    // gravity on, its Z is ignored: the vertical speed is the character's own (jumps,
    // falling); UE's input vector is planar anyway.
    void SetDesiredVelocity(const FVec3d& CmPerSecond) { Desired = CmPerSecond; }
    const FVec3d& GetDesiredVelocity() const { return Desired; }
    // Leaves the ground upwards at SpeedCm (cm/s) on the next move when it is grounded;
    // false (nothing queued) in the air.
    bool Jump(double SpeedCmPerSecond);

    // One move of the fixed step's length: the desired velocity, plus the vertical speed
    // (last move's, plus gravity's step) off walkable ground.
    m3Result Move();
    void PreStep(float StepSeconds) override;
    void OnWorldDestroyed() override;

    FVec3d GetLocation() const;      // cm, the capsule's centre
    FVec3d GetVelocity() const;      // cm/s, what the last move did
    EGround GetGround() const;
    bool IsGrounded() const { return GetGround() == EGround::OnGround; }
    FVec3d GetGroundNormal() const;  // UE axes (zero in the air)
    m3Result SetLocation(const FVec3d& Cm);
    m3Result SetSettings(const FCharacterSettings& Settings);
    m3Result LastResult() const { return Last; }

private:
    FWorldHost* Host = nullptr;
    m3CharacterId Character{};
    bool bGravity = true;
    bool bListening = false;
    FVec3d Desired;
    float JumpSpeed = 0.0f;  // m/s, queued by Jump
    bool bJumpQueued = false;
    float GravityStep = 0.0f;  // m/s gained per step off the ground (engine up axis)
    m3Result Last = m3_success;
};

}  // namespace Maul3DCore
