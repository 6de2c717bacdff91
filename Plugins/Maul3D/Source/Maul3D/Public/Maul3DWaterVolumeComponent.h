// A Maul3D water volume (Core/Maul3DWaterHost.h): a box component whose box is the water,
// its top face (+Z) the surface; at BeginPlay its world location, rotation, scale and
// unscaled extent become the core's volume (the library scales and converts). Dynamic
// bodies in it float by their density against the water's and are dragged towards the
// current. A Maul3D Body on the same actor skips this box.
#pragma once

#include "CoreMinimal.h"
#include "Components/BoxComponent.h"
#include "Core/Maul3DWaterHost.h"
#include "Maul3DWaterVolumeComponent.generated.h"

class UMaul3DBodyComponent;

UCLASS(ClassGroup = (Physics), meta = (BlueprintSpawnableComponent, DisplayName = "Maul3D Water Volume"))
class MAUL3D_API UMaul3DWaterVolumeComponent : public UBoxComponent {
    GENERATED_BODY()

public:
    // kg/m^3 (the engine's unit; water 1000).
    UPROPERTY(EditAnywhere, BlueprintReadOnly, Category = "Maul3D")
    float Density = 1000.f;
    // 1/s.
    UPROPERTY(EditAnywhere, BlueprintReadOnly, Category = "Maul3D")
    float LinearDrag = 1.f;
    UPROPERTY(EditAnywhere, BlueprintReadOnly, Category = "Maul3D")
    float AngularDrag = 1.f;
    // The current, cm/s, world axes.
    UPROPERTY(EditAnywhere, BlueprintReadOnly, Category = "Maul3D")
    FVector Flow = FVector(0.0, 0.0, 0.0);

    virtual void BeginPlay() override;
    virtual void EndPlay(EEndPlayReason::Type Reason) override;

    UFUNCTION(BlueprintCallable, Category = "Maul3D|Water")
    void SetDensity(float KgPerM3);
    UFUNCTION(BlueprintCallable, Category = "Maul3D|Water")
    void SetDrag(float Linear, float Angular);
    UFUNCTION(BlueprintCallable, Category = "Maul3D|Water")
    void SetFlow(FVector CmPerSecond);
    // The volume again from the component's current transform and extent (after moving it).
    UFUNCTION(BlueprintCallable, Category = "Maul3D|Water")
    bool UpdateVolume();
    // The submerged fraction (0..1) of a body component's shapes the water acts on.
    UFUNCTION(BlueprintPure, Category = "Maul3D|Water")
    float GetSubmergedFraction(const UMaul3DBodyComponent* Body) const;

    Maul3DCore::FWaterHost& Host() { return Water; }

private:
    Maul3DCore::FWaterSettings Settings() const;

    Maul3DCore::FWaterHost Water;
};
