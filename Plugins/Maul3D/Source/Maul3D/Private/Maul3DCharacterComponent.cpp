#include "Maul3DCharacterComponent.h"

#include "Components/CapsuleComponent.h"
#include "Engine/World.h"
#include "GameFramework/Actor.h"
#include "Maul3DConvert.h"
#include "Maul3DLog.h"
#include "Maul3DWorldSubsystem.h"

using Maul3DGlue::ToCore;

namespace {

UMaul3DWorldSubsystem* PhysicsOf(const UActorComponent* Component)
{
    UWorld* World = Component->GetWorld();
    return World ? World->GetSubsystem<UMaul3DWorldSubsystem>() : nullptr;
}

}  // namespace

void UMaul3DCharacterComponent::BeginPlay()
{
    Super::BeginPlay();
    UMaul3DWorldSubsystem* Physics = PhysicsOf(this);
    const AActor* Owner = GetOwner();
    USceneComponent* Root = Owner ? Owner->GetRootComponent() : nullptr;
    if (Physics == nullptr || !Physics->Host().IsValid() || Root == nullptr) {
        return;
    }
    // Field copies only: the core converts.
    Maul3DCore::FCharacterSettings S;
    S.Location = ToCore(Root->GetComponentTransform().GetLocation());
    S.RadiusCm = CapsuleRadius;
    S.HalfHeightCm = CapsuleHalfHeight;
    if (const UCapsuleComponent* Capsule = Owner->FindComponentByClass<UCapsuleComponent>()) {
        if (static_cast<const USceneComponent*>(Capsule) == Root) {
            S.RadiusCm = Capsule->GetUnscaledCapsuleRadius();
            S.HalfHeightCm = Capsule->GetUnscaledCapsuleHalfHeight();
        }
    }
    S.StepHeightCm = MaxStepHeight;
    S.MaxSlopeDegrees = WalkableFloorAngle;
    S.SnapToGroundCm = SnapToGround;
    S.SkinCm = Skin;
    S.MaxPushForceNewtons = MaxPushForce;
    S.MassKg = Mass;
    S.bUseGravity = bUseGravity;
    if (Character.Create(Physics->Host(), S) != m3_success) {
        UE_LOG(LogMaul3D, Warning, TEXT("Maul3D character not created: %hs"), m3GetLastErrorMessage());
        return;
    }
    CurrentLocation = PreviousLocation = Character.GetLocation();
    Physics->RegisterCharacter(this);
}

void UMaul3DCharacterComponent::EndPlay(EEndPlayReason::Type Reason)
{
    if (UMaul3DWorldSubsystem* Physics = PhysicsOf(this)) {
        Physics->UnregisterCharacter(this);
    }
    Character.Destroy();
    Super::EndPlay(Reason);
}

void UMaul3DCharacterComponent::AddInputVector(FVector WorldDirection, float Scale)
{
    // Unreal's own maths on input (as UE's movement components do): repeatable as far as
    // Unreal makes it; SetDesiredVelocity takes data as it is.
    PendingInput += WorldDirection * Scale;
    bHasInput = true;
    Character.SetDesiredVelocity(ToCore(PendingInput.GetClampedToMaxSize(1.0) * MaxWalkSpeed));
}

void UMaul3DCharacterComponent::SetDesiredVelocity(FVector CmPerSecond)
{
    PendingInput = FVector(0.0, 0.0, 0.0);
    bHasInput = false;
    Character.SetDesiredVelocity(ToCore(CmPerSecond));
}

bool UMaul3DCharacterComponent::Jump() { return Character.Jump(JumpSpeed); }

bool UMaul3DCharacterComponent::Teleport(FVector Location)
{
    if (Character.SetLocation(ToCore(Location)) != m3_success) {
        return false;
    }
    CurrentLocation = PreviousLocation = Character.GetLocation();
    return true;
}

FVector UMaul3DCharacterComponent::GetVelocity() const { return Maul3DGlue::ToUE(Character.GetVelocity()); }
FVector UMaul3DCharacterComponent::GetCharacterLocation() const { return Maul3DGlue::ToUE(Character.GetLocation()); }
bool UMaul3DCharacterComponent::IsGrounded() const { return Character.IsGrounded(); }
bool UMaul3DCharacterComponent::IsFalling() const { return Character.GetGround() == Maul3DCore::EGround::InAir; }
FVector UMaul3DCharacterComponent::GetGroundNormal() const { return Maul3DGlue::ToUE(Character.GetGroundNormal()); }

void UMaul3DCharacterComponent::OnPhysicsStepped(uint32 Steps, float Alpha)
{
    if (!Character.IsValid()) {
        return;
    }
    if (Steps > 0) {
        PreviousLocation = CurrentLocation;
        CurrentLocation = Character.GetLocation();
        // Input vectors are consumed by the steps that ran.
        if (bHasInput) {
            PendingInput = FVector(0.0, 0.0, 0.0);
            bHasInput = false;
            Character.SetDesiredVelocity(Maul3DCore::FVec3d{});
        }
    }
    USceneComponent* Root = GetOwner() ? GetOwner()->GetRootComponent() : nullptr;
    if (!bWriteTransform || Root == nullptr) {
        return;
    }
    // Rendering only: UE's lerp between the last two steps.
    const FVector Location = FMath::Lerp(Maul3DGlue::ToUE(PreviousLocation), Maul3DGlue::ToUE(CurrentLocation), Alpha);
    Root->SetWorldLocationAndRotation(Location, Root->GetComponentTransform().GetRotation());
}
