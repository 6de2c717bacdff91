// A Maul3D character: the core's kinematic capsule mover (Core/Maul3DCharacterHost.h) for
// the owner, like a movement component. The capsule is the owner's root
// UCapsuleComponent's (radius, half height with the caps) or, without one, CapsuleRadius
// and CapsuleHalfHeight. Input is consumed once per fixed step: the subsystem's step moves
// the character by the desired velocity (the input vector clamped to length 1, times
// MaxWalkSpeed, or SetDesiredVelocity's), plus gravity off the ground. After each frame's
// steps the owner's root is placed at the capsule's centre, interpolated between the last
// two steps. Do not give the owner a Maul3D Body as well: the character has its own inner
// kinematic body.
#pragma once

#include "CoreMinimal.h"
#include "Components/ActorComponent.h"
#include "Core/Maul3DCharacterHost.h"
#include "Maul3DCharacterComponent.generated.h"

UCLASS(ClassGroup = (Physics), meta = (BlueprintSpawnableComponent, DisplayName = "Maul3D Character"))
class MAUL3D_API UMaul3DCharacterComponent : public UActorComponent {
    GENERATED_BODY()

public:
    // Used when the owner's root is not a capsule component (cm).
    UPROPERTY(EditAnywhere, BlueprintReadOnly, Category = "Maul3D|Capsule")
    float CapsuleRadius = 34.f;
    UPROPERTY(EditAnywhere, BlueprintReadOnly, Category = "Maul3D|Capsule")
    float CapsuleHalfHeight = 88.f;
    // cm/s at full input.
    UPROPERTY(EditAnywhere, BlueprintReadWrite, Category = "Maul3D|Movement")
    float MaxWalkSpeed = 600.f;
    // cm/s upwards.
    UPROPERTY(EditAnywhere, BlueprintReadWrite, Category = "Maul3D|Movement")
    float JumpSpeed = 420.f;
    // cm.
    UPROPERTY(EditAnywhere, BlueprintReadOnly, Category = "Maul3D|Movement")
    float MaxStepHeight = 45.f;
    // Degrees.
    UPROPERTY(EditAnywhere, BlueprintReadOnly, Category = "Maul3D|Movement")
    float WalkableFloorAngle = 44.765f;
    // cm: how far down a walker is held to the ground past ledges and down slopes.
    UPROPERTY(EditAnywhere, BlueprintReadOnly, Category = "Maul3D|Movement")
    float SnapToGround = 50.f;
    // cm kept between the capsule and what it touches.
    UPROPERTY(EditAnywhere, BlueprintReadOnly, Category = "Maul3D|Movement")
    float Skin = 2.f;
    // N: the most the character pushes dynamic bodies with.
    UPROPERTY(EditAnywhere, BlueprintReadOnly, Category = "Maul3D|Movement")
    float MaxPushForce = 100.f;
    UPROPERTY(EditAnywhere, BlueprintReadOnly, Category = "Maul3D|Movement")
    float Mass = 70.f;
    UPROPERTY(EditAnywhere, BlueprintReadOnly, Category = "Maul3D|Movement")
    bool bUseGravity = true;
    // Write the character's location to the owner's root each frame.
    UPROPERTY(EditAnywhere, BlueprintReadOnly, Category = "Maul3D")
    bool bWriteTransform = true;

    virtual void BeginPlay() override;
    virtual void EndPlay(EEndPlayReason::Type Reason) override;

    // Adds to this step's input (world space, UE's AddMovementInput): the sum is clamped to
    // length 1 and scaled by MaxWalkSpeed; consumed by the next fixed step.
    UFUNCTION(BlueprintCallable, Category = "Maul3D|Character")
    void AddInputVector(FVector WorldDirection, float Scale = 1.f);
    // The velocity (cm/s) every step from now, as given (input vectors replace it); for
    // lockstep and replays, feed this from data.
    UFUNCTION(BlueprintCallable, Category = "Maul3D|Character")
    void SetDesiredVelocity(FVector CmPerSecond);
    // Jumps at JumpSpeed on the next step when grounded.
    UFUNCTION(BlueprintCallable, Category = "Maul3D|Character")
    bool Jump();
    UFUNCTION(BlueprintCallable, Category = "Maul3D|Character")
    bool Teleport(FVector Location);
    UFUNCTION(BlueprintPure, Category = "Maul3D|Character")
    FVector GetVelocity() const;
    UFUNCTION(BlueprintPure, Category = "Maul3D|Character")
    FVector GetCharacterLocation() const;
    UFUNCTION(BlueprintPure, Category = "Maul3D|Character")
    bool IsGrounded() const;
    UFUNCTION(BlueprintPure, Category = "Maul3D|Character")
    bool IsFalling() const;
    UFUNCTION(BlueprintPure, Category = "Maul3D|Character")
    FVector GetGroundNormal() const;

    Maul3DCore::FCharacterHost& Host() { return Character; }
    bool HasCharacter() const { return Character.IsValid(); }

    // Called by the subsystem after a frame's steps.
    void OnPhysicsStepped(uint32 Steps, float Alpha);

private:
    Maul3DCore::FCharacterHost Character;
    FVector PendingInput = FVector(0.0, 0.0, 0.0);
    bool bHasInput = false;
    Maul3DCore::FVec3d PreviousLocation, CurrentLocation;
};
