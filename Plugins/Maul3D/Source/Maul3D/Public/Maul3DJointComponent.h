// A Maul3D joint between the owner's body and another actor's body, of one of the core's
// joint kinds, anchored at this component's location and rotation. The frames are
// computed by the library (m3World_GetJointFramesAt) from the converted anchor.
#pragma once

#include "CoreMinimal.h"
#include "Components/SceneComponent.h"
#include "maul3d.h"
#include "Maul3DJointComponent.generated.h"

class AActor;

UENUM(BlueprintType)
enum class EMaul3DJointType : uint8 { Spherical, Revolute, Prismatic, Weld, Distance, ConeTwist, SixDof, Wheel };

UCLASS(ClassGroup = (Physics), meta = (BlueprintSpawnableComponent, DisplayName = "Maul3D Joint"))
class MAUL3D_API UMaul3DJointComponent : public USceneComponent {
    GENERATED_BODY()

public:
    UPROPERTY(EditAnywhere, BlueprintReadOnly, Category = "Maul3D")
    EMaul3DJointType JointType = EMaul3DJointType::Spherical;
    // The other body's actor (it needs a Maul3D Body component).
    UPROPERTY(EditAnywhere, BlueprintReadOnly, Category = "Maul3D")
    TObjectPtr<AActor> OtherActor = nullptr;
    UPROPERTY(EditAnywhere, BlueprintReadOnly, Category = "Maul3D")
    bool bCollideConnected = false;

    virtual void BeginPlay() override;
    virtual void EndPlay(EEndPlayReason::Type Reason) override;

    m3JointId GetJointId() const { return Joint; }

private:
    m3JointId Joint{};
};
