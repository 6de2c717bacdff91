#include "Maul3DVehicleComponent.h"

#include "Components/SceneComponent.h"
#include "Engine/World.h"
#include "GameFramework/Actor.h"
#include "Maul3DBodyComponent.h"
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

void UMaul3DVehicleComponent::BeginPlay()
{
    Super::BeginPlay();
    if (UMaul3DWorldSubsystem* Physics = PhysicsOf(this)) {
        Physics->RegisterVehicle(this);
    }
    TryCreate();
}

bool UMaul3DVehicleComponent::TryCreate()
{
    if (Vehicle.IsValid()) {
        return true;
    }
    UMaul3DWorldSubsystem* Physics = PhysicsOf(this);
    const AActor* Owner = GetOwner();
    const UMaul3DBodyComponent* Chassis = Owner ? Owner->FindComponentByClass<UMaul3DBodyComponent>() : nullptr;
    if (Physics == nullptr || !Physics->Host().IsValid() || Chassis == nullptr || !Chassis->HasBody()) {
        return false;  // the chassis body is built at its own BeginPlay; tried again after steps
    }
    // Field copies only: the core converts.
    Maul3DCore::FVehicleSettings S;
    for (const FMaul3DWheelSettings& W : Wheels) {
        Maul3DCore::FWheelSettings C;
        C.PositionCm = ToCore(W.Location);
        C.SuspensionDirection = ToCore(W.SuspensionDirection);
        C.MinLengthCm = W.MinSuspensionLength;
        C.MaxLengthCm = W.MaxSuspensionLength;
        C.RestLengthCm = W.RestSuspensionLength;
        C.SpringHertz = W.SpringHertz;
        C.DampingRatio = W.DampingRatio;
        C.RadiusCm = W.Radius;
        C.WidthCm = W.Width;
        C.InertiaKgM2 = W.Inertia;
        C.MaxSteerDegrees = W.MaxSteerAngle;
        C.BrakeTorqueNm = W.BrakeTorque;
        C.HandbrakeTorqueNm = W.HandbrakeTorque;
        C.bDriven = W.bDriven;
        C.Cast = static_cast<Maul3DCore::EWheelCast>(W.Cast);
        S.Wheels.push_back(C);
    }
    S.MaxTorqueNm = MaxEngineTorque;
    S.MinRpm = MinRpm;
    S.MaxRpm = MaxRpm;
    S.bAutomatic = bAutomaticTransmission;
    if (Vehicle.Create(Physics->Host(), Chassis->GetBodyId(), S) != m3_success) {
        UE_LOG(LogMaul3D, Warning, TEXT("Maul3D vehicle not created: %hs"), m3GetLastErrorMessage());
        Wheels.Reset();  // not tried again every frame
        return false;
    }
    Vehicle.SetInput(Input);
    return true;
}

void UMaul3DVehicleComponent::EndPlay(EEndPlayReason::Type Reason)
{
    if (UMaul3DWorldSubsystem* Physics = PhysicsOf(this)) {
        Physics->UnregisterVehicle(this);
    }
    Vehicle.Destroy();
    Super::EndPlay(Reason);
}

void UMaul3DVehicleComponent::SetThrottle(float Value)
{
    Input.Throttle = Value;
    Vehicle.SetThrottle(Value);
}

void UMaul3DVehicleComponent::SetSteering(float Value)
{
    Input.Steering = Value;
    Vehicle.SetSteering(Value);
}

void UMaul3DVehicleComponent::SetBrake(float Value)
{
    Input.Brake = Value;
    Vehicle.SetBrake(Value);
}

void UMaul3DVehicleComponent::SetHandbrake(float Value)
{
    Input.Handbrake = Value;
    Vehicle.SetHandbrake(Value);
}

float UMaul3DVehicleComponent::GetForwardSpeed() const { return static_cast<float>(Vehicle.GetForwardSpeedCm()); }
float UMaul3DVehicleComponent::GetEngineRpm() const { return Vehicle.GetEngineRpm(); }
int32 UMaul3DVehicleComponent::GetGear() const { return Vehicle.GetGear(); }

bool UMaul3DVehicleComponent::GetWheelTransform(int32 Wheel, FVector& Location, FQuat& Rotation, bool& bInContact) const
{
    Maul3DCore::FWheelVisual Visual;
    if (Vehicle.GetWheelVisual(Wheel, &Visual) != m3_success) {
        return false;
    }
    Location = Maul3DGlue::ToUE(Visual.LocationCm);
    Rotation = Maul3DGlue::ToUE(Visual.Rotation);
    bInContact = Visual.bInContact;
    return true;
}

void UMaul3DVehicleComponent::SetWheelVisual(int32 Wheel, USceneComponent* Visual)
{
    if (Wheel < 0 || Wheel >= 8) {
        return;
    }
    if (WheelVisuals.Num() <= Wheel) {
        WheelVisuals.SetNum(Wheel + 1);
    }
    WheelVisuals[Wheel] = Visual;
}

void UMaul3DVehicleComponent::OnPhysicsStepped(uint32 Steps, float Alpha)
{
    (void)Alpha;
    if (!TryCreate() || Steps == 0) {
        return;
    }
    for (int32 I = 0; I < WheelVisuals.Num(); ++I) {
        USceneComponent* Visual = WheelVisuals[I];
        FVector Location;
        FQuat Rotation;
        bool bInContact = false;
        if (Visual != nullptr && GetWheelTransform(I, Location, Rotation, bInContact)) {
            Visual->SetRelativeLocationAndRotation(Location, Rotation);
        }
    }
}
