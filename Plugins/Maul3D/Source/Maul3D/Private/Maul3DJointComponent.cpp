#include "Maul3DJointComponent.h"

#include "Engine/World.h"
#include "GameFramework/Actor.h"
#include "Maul3DBodyComponent.h"
#include "Maul3DConvert.h"
#include "Maul3DLog.h"
#include "Maul3DWorldSubsystem.h"

static m3JointType ToJointType(EMaul3DJointType Type)
{
    switch (Type) {
    case EMaul3DJointType::Revolute: return m3_revoluteJoint;
    case EMaul3DJointType::Prismatic: return m3_prismaticJoint;
    case EMaul3DJointType::Weld: return m3_weldJoint;
    case EMaul3DJointType::Distance: return m3_distanceJoint;
    case EMaul3DJointType::ConeTwist: return m3_coneTwistJoint;
    case EMaul3DJointType::SixDof: return m3_sixDofJoint;
    case EMaul3DJointType::Wheel: return m3_wheelJoint;
    default: return m3_sphericalJoint;
    }
}

void UMaul3DJointComponent::BeginPlay()
{
    Super::BeginPlay();
    UMaul3DWorldSubsystem* Physics = GetWorld() ? GetWorld()->GetSubsystem<UMaul3DWorldSubsystem>() : nullptr;
    const UMaul3DBodyComponent* A = GetOwner() ? GetOwner()->FindComponentByClass<UMaul3DBodyComponent>() : nullptr;
    const UMaul3DBodyComponent* B = OtherActor ? OtherActor->FindComponentByClass<UMaul3DBodyComponent>() : nullptr;
    if (Physics == nullptr || A == nullptr || B == nullptr || !A->HasBody() || !B->HasBody()) {
        UE_LOG(LogMaul3D, Warning, TEXT("Maul3D joint: both actors need a built Maul3D Body"));
        return;
    }
    const FTransform Anchor = GetComponentTransform();
    m3DVec3 Position;
    m3Quat Rotation;
    if (Maul3DCore::Units::PositionToEngine(Maul3DGlue::ToCore(Anchor.GetLocation()), &Position) != m3_success ||
        Maul3DCore::Units::QuatToEngine(Maul3DGlue::ToCore(Anchor.GetRotation()), &Rotation) != m3_success) {
        UE_LOG(LogMaul3D, Warning, TEXT("Maul3D joint: anchor refused: %hs"), m3GetLastErrorMessage());
        return;
    }
    m3JointDef Def = m3DefaultJointDef(ToJointType(JointType));
    Def.collideConnected = bCollideConnected;
    m3::World& World = Physics->Host().Raw();
    if (World.JointFramesAt(A->GetBodyId(), B->GetBodyId(), Position, Rotation, &Def) != m3_success ||
        World.CreateJoint(Def, &Joint) != m3_success) {
        UE_LOG(LogMaul3D, Warning, TEXT("Maul3D joint not created: %hs"), m3GetLastErrorMessage());
    }
}

void UMaul3DJointComponent::EndPlay(EEndPlayReason::Type Reason)
{
    if (Joint.index != 0) {
        m3Joint_Destroy(Joint);  // refused harmlessly when the world or a body is gone
        Joint = m3JointId{};
    }
    Super::EndPlay(Reason);
}
