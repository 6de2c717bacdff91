// A Maul3D vehicle (Core/Maul3DVehicleHost.h) on an actor with a Maul3D Body component,
// whose dynamic body is the chassis. Wheels are set in the actor's space (cm; forward +X,
// up +Z); the driver's input is Blueprint-callable. After each frame's steps, the wheel
// visuals set with SetWheelVisual get their transform relative to the actor (suspension
// travel, steering, spin).
#pragma once

#include "CoreMinimal.h"
#include "Components/ActorComponent.h"
#include "Core/Maul3DVehicleHost.h"
#include "Maul3DVehicleComponent.generated.h"

class USceneComponent;

UENUM(BlueprintType)
enum class EMaul3DWheelCast : uint8 { Ray, Sphere, Cylinder };

USTRUCT(BlueprintType)
struct MAUL3D_API FMaul3DWheelSettings {
    GENERATED_BODY()

public:
    // Suspension attachment in the actor's space, cm.
    UPROPERTY(EditAnywhere, BlueprintReadWrite, Category = "Maul3D")
    FVector Location = FVector(0.0, 0.0, 0.0);
    // Towards the ground, actor space.
    UPROPERTY(EditAnywhere, BlueprintReadWrite, Category = "Maul3D")
    FVector SuspensionDirection = FVector(0.0, 0.0, -1.0);
    // cm.
    UPROPERTY(EditAnywhere, BlueprintReadWrite, Category = "Maul3D")
    float MinSuspensionLength = 5.f;
    UPROPERTY(EditAnywhere, BlueprintReadWrite, Category = "Maul3D")
    float MaxSuspensionLength = 50.f;
    UPROPERTY(EditAnywhere, BlueprintReadWrite, Category = "Maul3D")
    float RestSuspensionLength = 50.f;
    UPROPERTY(EditAnywhere, BlueprintReadWrite, Category = "Maul3D")
    float SpringHertz = 1.5f;
    UPROPERTY(EditAnywhere, BlueprintReadWrite, Category = "Maul3D")
    float DampingRatio = 0.5f;
    // cm.
    UPROPERTY(EditAnywhere, BlueprintReadWrite, Category = "Maul3D")
    float Radius = 30.f;
    UPROPERTY(EditAnywhere, BlueprintReadWrite, Category = "Maul3D")
    float Width = 20.f;
    // kg m^2 about the axle.
    UPROPERTY(EditAnywhere, BlueprintReadWrite, Category = "Maul3D")
    float Inertia = 0.9f;
    // Degrees at full steering (0: not steered).
    UPROPERTY(EditAnywhere, BlueprintReadWrite, Category = "Maul3D")
    float MaxSteerAngle = 0.f;
    // N m.
    UPROPERTY(EditAnywhere, BlueprintReadWrite, Category = "Maul3D")
    float BrakeTorque = 1500.f;
    UPROPERTY(EditAnywhere, BlueprintReadWrite, Category = "Maul3D")
    float HandbrakeTorque = 0.f;
    UPROPERTY(EditAnywhere, BlueprintReadWrite, Category = "Maul3D")
    bool bDriven = false;
    UPROPERTY(EditAnywhere, BlueprintReadWrite, Category = "Maul3D")
    EMaul3DWheelCast Cast = EMaul3DWheelCast::Ray;
};

UCLASS(ClassGroup = (Physics), meta = (BlueprintSpawnableComponent, DisplayName = "Maul3D Vehicle"))
class MAUL3D_API UMaul3DVehicleComponent : public UActorComponent {
    GENERATED_BODY()

public:
    UPROPERTY(EditAnywhere, BlueprintReadOnly, Category = "Maul3D")
    TArray<FMaul3DWheelSettings> Wheels;
    // N m at full throttle.
    UPROPERTY(EditAnywhere, BlueprintReadOnly, Category = "Maul3D|Engine")
    float MaxEngineTorque = 500.f;
    UPROPERTY(EditAnywhere, BlueprintReadOnly, Category = "Maul3D|Engine")
    float MinRpm = 1000.f;
    UPROPERTY(EditAnywhere, BlueprintReadOnly, Category = "Maul3D|Engine")
    float MaxRpm = 6000.f;
    UPROPERTY(EditAnywhere, BlueprintReadOnly, Category = "Maul3D|Engine")
    bool bAutomaticTransmission = true;

    virtual void BeginPlay() override;
    virtual void EndPlay(EEndPlayReason::Type Reason) override;

    // Throttle and steering within [-1, 1] (steering +1 turns right), brake and handbrake
    // within [0, 1]; held until changed.
    UFUNCTION(BlueprintCallable, Category = "Maul3D|Vehicle")
    void SetThrottle(float Value);
    UFUNCTION(BlueprintCallable, Category = "Maul3D|Vehicle")
    void SetSteering(float Value);
    UFUNCTION(BlueprintCallable, Category = "Maul3D|Vehicle")
    void SetBrake(float Value);
    UFUNCTION(BlueprintCallable, Category = "Maul3D|Vehicle")
    void SetHandbrake(float Value);
    // cm/s along the chassis' forward (negative backwards).
    UFUNCTION(BlueprintPure, Category = "Maul3D|Vehicle")
    float GetForwardSpeed() const;
    UFUNCTION(BlueprintPure, Category = "Maul3D|Vehicle")
    float GetEngineRpm() const;
    UFUNCTION(BlueprintPure, Category = "Maul3D|Vehicle")
    int32 GetGear() const;
    // A wheel's transform relative to the actor (cm); false for a bad index or no vehicle.
    UFUNCTION(BlueprintCallable, Category = "Maul3D|Vehicle")
    bool GetWheelTransform(int32 Wheel, FVector& Location, FQuat& Rotation, bool& bInContact) const;
    // A scene component (a wheel mesh attached to the actor's root) placed at wheel Wheel
    // after every frame's steps.
    UFUNCTION(BlueprintCallable, Category = "Maul3D|Vehicle")
    void SetWheelVisual(int32 Wheel, USceneComponent* Visual);

    Maul3DCore::FVehicleHost& Host() { return Vehicle; }
    bool HasVehicle() const { return Vehicle.IsValid(); }

    // Called by the subsystem after a frame's steps.
    void OnPhysicsStepped(uint32 Steps, float Alpha);

private:
    // Creates the vehicle once the chassis body exists (components begin play in any order).
    bool TryCreate();

    Maul3DCore::FVehicleHost Vehicle;
    Maul3DCore::FVehicleInput Input;
    TArray<TObjectPtr<USceneComponent>> WheelVisuals;
};
