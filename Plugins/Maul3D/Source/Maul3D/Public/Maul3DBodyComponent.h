// A Maul3D body built from its actor's collision: box, sphere and capsule components and
// each static mesh's simple collision (boxes, spheres, capsules, convex elements) or
// complex collision (triangle mesh). Extraction copies UE's values into the core's
// FBodyDesc; the core converts and builds. After each frame's steps it writes the body's
// transform, interpolated by the subsystem's alpha, back to the actor.
#pragma once

#include "CoreMinimal.h"
#include "Components/ActorComponent.h"
#include "Core/Maul3DBodyBuilder.h"
#include "Maul3DBodyComponent.generated.h"

UENUM(BlueprintType)
enum class EMaul3DBodyType : uint8 { Static, Kinematic, Dynamic };

UCLASS(ClassGroup = (Physics), meta = (BlueprintSpawnableComponent, DisplayName = "Maul3D Body"))
class MAUL3D_API UMaul3DBodyComponent : public UActorComponent {
    GENERATED_BODY()

public:
    UPROPERTY(EditAnywhere, BlueprintReadOnly, Category = "Maul3D")
    EMaul3DBodyType BodyType = EMaul3DBodyType::Dynamic;
    // kg/m^3 (the engine's unit).
    UPROPERTY(EditAnywhere, BlueprintReadOnly, Category = "Maul3D")
    float Density = 1000.f;
    UPROPERTY(EditAnywhere, BlueprintReadOnly, Category = "Maul3D")
    float Friction = 0.6f;
    UPROPERTY(EditAnywhere, BlueprintReadOnly, Category = "Maul3D")
    float Restitution = 0.f;
    // Static meshes give their triangle mesh instead of their simple collision (static and
    // kinematic bodies only).
    UPROPERTY(EditAnywhere, BlueprintReadOnly, Category = "Maul3D")
    bool bUseComplexCollision = false;
    // Write the body's transform back to the actor each frame.
    UPROPERTY(EditAnywhere, BlueprintReadOnly, Category = "Maul3D")
    bool bWriteTransform = true;

    virtual void BeginPlay() override;
    virtual void EndPlay(EEndPlayReason::Type Reason) override;

    // The collision of the owner as the core's description (public for tests and tools).
    bool ExtractDesc(Maul3DCore::FBodyDesc& Out) const;

    m3BodyId GetBodyId() const { return Built.Body; }
    bool HasBody() const { return Built.Body.index != 0; }

    // Called by the subsystem after a frame's steps.
    void OnPhysicsStepped(uint32 Steps, float Alpha);

private:
    Maul3DCore::FBuiltBody Built;
    // The last two steps' transforms (Unreal units), for interpolation.
    Maul3DCore::FVec3d PreviousPosition, CurrentPosition;
    Maul3DCore::FQuatd PreviousRotation, CurrentRotation;
};
