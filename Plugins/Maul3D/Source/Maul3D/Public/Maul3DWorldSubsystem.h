// One Maul3D world per game world: created from UMaul3DSettings, stepped at the fixed
// tick by the core's accumulator (FWorldHost::Tick), with pause, the interpolation alpha
// and manual StepPhysics(N). Body components register here to get their transforms.
#pragma once

#include "CoreMinimal.h"
#include "Core/Maul3DWorldHost.h"
#include "Subsystems/WorldSubsystem.h"
#include "Maul3DWorldSubsystem.generated.h"

class FMaul3DTaskLauncher;
class UMaul3DBodyComponent;
class UMaul3DCharacterComponent;
class UMaul3DVehicleComponent;

UCLASS()
class MAUL3D_API UMaul3DWorldSubsystem : public UTickableWorldSubsystem {
    GENERATED_BODY()

public:
    UMaul3DWorldSubsystem();
    ~UMaul3DWorldSubsystem();

    virtual void Initialize(FSubsystemCollectionBase& Collection) override;
    virtual void Deinitialize() override;
    virtual void Tick(float DeltaTime) override;
    virtual TStatId GetStatId() const override;

    // Runs Steps fixed steps now (also while paused): rollback and resimulation.
    UFUNCTION(BlueprintCallable, Category = "Maul3D")
    bool StepPhysics(int32 Steps = 1);
    UFUNCTION(BlueprintCallable, Category = "Maul3D")
    void SetPaused(bool bPaused);
    UFUNCTION(BlueprintPure, Category = "Maul3D")
    bool IsPaused() const;
    // How far the clock is into the next step, [0, 1): body components draw between the
    // last two steps' transforms.
    UFUNCTION(BlueprintPure, Category = "Maul3D")
    float GetInterpolationAlpha() const;
    UFUNCTION(BlueprintPure, Category = "Maul3D")
    int64 GetWorldHash() const;
    UFUNCTION(BlueprintPure, Category = "Maul3D")
    int64 GetStepCount() const;

    // Debug draw every frame (maul3d.Draw).
    void SetDebugDraw(bool bOn) { bDebugDraw = bOn; }
    bool IsDebugDrawing() const { return bDebugDraw; }

    Maul3DCore::FWorldHost& Host() { return WorldHost; }
    const Maul3DCore::FWorldHost& Host() const { return WorldHost; }

    // Body components: told after each frame's steps so they record their transforms.
    void RegisterBody(UMaul3DBodyComponent* Body);
    void UnregisterBody(UMaul3DBodyComponent* Body);
    // Character and vehicle components: told after each frame's steps too (characters
    // move before each step through the core's step listeners).
    void RegisterCharacter(UMaul3DCharacterComponent* Character);
    void UnregisterCharacter(UMaul3DCharacterComponent* Character);
    void RegisterVehicle(UMaul3DVehicleComponent* Vehicle);
    void UnregisterVehicle(UMaul3DVehicleComponent* Vehicle);
    // The registered body component of an engine body (a query hit's), or null.
    UMaul3DBodyComponent* FindBody(m3BodyId Id) const;

private:
    void NotifyStepped(uint32 Steps);

    Maul3DCore::FWorldHost WorldHost;
    TUniquePtr<FMaul3DTaskLauncher> Launcher;
    TArray<TWeakObjectPtr<UMaul3DBodyComponent>> Bodies;
    TArray<TWeakObjectPtr<UMaul3DCharacterComponent>> Characters;
    TArray<TWeakObjectPtr<UMaul3DVehicleComponent>> Vehicles;
    bool bDebugDraw = false;
};
