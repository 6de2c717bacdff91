// Maul3DCharacterHost.cpp: a character in Unreal units, moved once per fixed step.
#include "Core/Maul3DCharacterHost.h"

namespace Maul3DCore {

m3Result BuildCharacterMoveSettings(const FCharacterSettings& Settings, m3CharacterSettings* Out)
{
    if (Out == nullptr) return m3_errorArgument;
    m3CharacterSettings S = m3DefaultCharacterDef().settings;
    m3Result R = Units::LengthToEngine(Settings.StepHeightCm, &S.stepHeight);
    if (R == m3_success) R = Units::LengthToEngine(Settings.SkinCm, &S.skin);
    if (R == m3_success) R = Units::LengthToEngine(Settings.SnapToGroundCm, &S.snapToGround);
    if (R != m3_success) return R;
    S.maxSlopeAngle = Units::DegreesToRadians(Settings.MaxSlopeDegrees);
    S.maxStrength = Settings.MaxPushForceNewtons;
    S.mass = Settings.MassKg;
    *Out = S;
    return m3_success;
}

m3Result BuildCharacterDef(const FCharacterSettings& Settings, m3CharacterDef* Out)
{
    if (Out == nullptr) return m3_errorArgument;
    m3CharacterDef Def = m3DefaultCharacterDef();
    m3Result R = Units::PositionToEngine(Settings.Location, &Def.position);
    // The capsule as UCapsuleComponent gives it (along its Z, half height with the caps):
    // the library's capsule conversion, whose segment ends are the cylinder's half height
    // along the engine's up.
    m3Capsule Capsule{};
    if (R == m3_success) R = Units::CapsuleToEngine(FTransformd{}, Settings.RadiusCm, Settings.HalfHeightCm, &Capsule);
    if (R == m3_success) R = Units::DirectionToEngine(FVec3d{0.0, 0.0, 1.0}, &Def.up);
    if (R == m3_success) R = BuildCharacterMoveSettings(Settings, &Def.settings);
    if (R != m3_success) return R;
    Def.radius = Capsule.radius;
    Def.halfHeight = Capsule.center2.y < 0.0f ? -Capsule.center2.y : Capsule.center2.y;
    Def.filter = Settings.Filter;
    *Out = Def;
    return m3_success;
}

m3Result FCharacterHost::Create(FWorldHost& InHost, const FCharacterSettings& Settings, bool bTickWithHost)
{
    Destroy();
    m3CharacterDef Def{};
    m3Result R = BuildCharacterDef(Settings, &Def);
    if (R == m3_success) R = m3World_CreateCharacter(InHost.Id(), &Def, &Character);
    if (R != m3_success) {
        Character = m3CharacterId{};
        return Last = R;
    }
    Host = &InHost;
    bGravity = Settings.bUseGravity;
    // The speed gravity adds per step, along the engine's up (one multiplication, here,
    // never fused with the per-step addition in Move).
    GravityStep = InHost.EngineGravity().y * InHost.StepSeconds();
    Desired = FVec3d{};
    bJumpQueued = false;
    if (bTickWithHost) {
        InHost.AddStepListener(this);
        bListening = true;
    }
    return Last = m3_success;
}

void FCharacterHost::Destroy()
{
    if (Host != nullptr && bListening) Host->RemoveStepListener(this);
    bListening = false;
    if (IsValid()) m3Character_Destroy(Character);  // a stale id (world gone) is refused, harmlessly
    Character = m3CharacterId{};
    Host = nullptr;
}

m3BodyId FCharacterHost::BodyId() const
{
    m3BodyId Body{};
    m3Character_GetBody(Character, &Body);
    return Body;
}

bool FCharacterHost::Jump(double SpeedCmPerSecond)
{
    if (!IsValid() || GetGround() != EGround::OnGround) return false;
    float Speed = 0.0f;
    if (Units::LengthToEngine(SpeedCmPerSecond, &Speed) != m3_success) return false;
    JumpSpeed = Speed;
    bJumpQueued = true;
    return true;
}

m3Result FCharacterHost::Move()
{
    if (!IsValid() || Host == nullptr) return Last = m3_errorState;
    m3Vec3 V{};
    m3Result R = Units::VectorToEngine(Desired, &V);
    if (R != m3_success) return Last = R;
    if (bGravity) {
        m3CharacterGround Ground{};
        R = m3Character_GetGround(Character, &Ground);
        if (R != m3_success) return Last = R;
        if (bJumpQueued) {
            V.y = JumpSpeed;
            bJumpQueued = false;
        } else if (Ground.state == m3_onGround) {
            V.y = 0.0f;
        } else {
            // Off walkable ground: the vertical speed the last move made (zero after a
            // ceiling) plus one step of gravity.
            m3Vec3 Previous{};
            R = m3Character_GetVelocity(Character, &Previous);
            if (R != m3_success) return Last = R;
            V.y = Previous.y + GravityStep;
        }
    }
    return Last = m3Character_Move(Character, V, Host->StepSeconds());
}

void FCharacterHost::PreStep(float) { Move(); }

void FCharacterHost::OnWorldDestroyed()
{
    bListening = false;
    Character = m3CharacterId{};
    Host = nullptr;
}

FVec3d FCharacterHost::GetLocation() const
{
    m3DVec3 P{};
    if (m3Character_GetPosition(Character, &P) != m3_success) return FVec3d{};
    return Units::PositionToUnreal(P);
}

FVec3d FCharacterHost::GetVelocity() const
{
    m3Vec3 V{};
    if (m3Character_GetVelocity(Character, &V) != m3_success) return FVec3d{};
    return Units::VectorToUnreal(V);
}

EGround FCharacterHost::GetGround() const
{
    m3CharacterGround G{};
    if (m3Character_GetGround(Character, &G) != m3_success) return EGround::InAir;
    return static_cast<EGround>(G.state);
}

FVec3d FCharacterHost::GetGroundNormal() const
{
    m3CharacterGround G{};
    if (m3Character_GetGround(Character, &G) != m3_success) return FVec3d{};
    return Units::DirectionToUnreal(G.normal);
}

m3Result FCharacterHost::SetLocation(const FVec3d& Cm)
{
    m3DVec3 P{};
    const m3Result R = Units::PositionToEngine(Cm, &P);
    return Last = (R == m3_success ? m3Character_SetPosition(Character, P) : R);
}

m3Result FCharacterHost::SetSettings(const FCharacterSettings& Settings)
{
    m3CharacterSettings S{};
    m3Result R = BuildCharacterMoveSettings(Settings, &S);
    if (R == m3_success) R = m3Character_SetSettings(Character, S);
    if (R == m3_success) bGravity = Settings.bUseGravity;
    return Last = R;
}

}  // namespace Maul3DCore
