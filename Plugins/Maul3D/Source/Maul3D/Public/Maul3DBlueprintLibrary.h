// Blueprint and C++ entry points over the game world's Maul3D world (the subsystem's
// FWorldHost): hash, snapshot/restore, journals and replays, impulses and forces, queries.
// Units: cm, kg, seconds, Unreal axes.
#pragma once

#include "CoreMinimal.h"
#include "Kismet/BlueprintFunctionLibrary.h"
#include "Maul3DBlueprintLibrary.generated.h"

class UMaul3DBodyComponent;
class UMaul3DWorldSubsystem;

UCLASS()
class MAUL3D_API UMaul3DBlueprintLibrary : public UBlueprintFunctionLibrary {
    GENERATED_BODY()

public:
    UFUNCTION(BlueprintPure, Category = "Maul3D", meta = (WorldContext = "WorldContext"))
    static int64 GetWorldHash(const UObject* WorldContext);
    UFUNCTION(BlueprintCallable, Category = "Maul3D", meta = (WorldContext = "WorldContext"))
    static bool SnapshotWorld(const UObject* WorldContext, TArray<uint8>& Snapshot);
    UFUNCTION(BlueprintCallable, Category = "Maul3D", meta = (WorldContext = "WorldContext"))
    static bool RestoreWorld(const UObject* WorldContext, const TArray<uint8>& Snapshot);

    UFUNCTION(BlueprintCallable, Category = "Maul3D", meta = (WorldContext = "WorldContext"))
    static bool StartJournal(const UObject* WorldContext);
    // Stops the journal and writes the replay container to Replay.
    UFUNCTION(BlueprintCallable, Category = "Maul3D", meta = (WorldContext = "WorldContext"))
    static bool StopJournal(const UObject* WorldContext, TArray<uint8>& Replay);
    // Writes replay bytes to Saved/Maul3D/Replays/<Name>.m3replay; returns the path.
    UFUNCTION(BlueprintCallable, Category = "Maul3D")
    static FString SaveReplay(const TArray<uint8>& Replay, const FString& Name);

    UFUNCTION(BlueprintCallable, Category = "Maul3D")
    static bool AddImpulse(UMaul3DBodyComponent* Body, FVector Impulse);
    UFUNCTION(BlueprintCallable, Category = "Maul3D")
    static bool AddImpulseAtLocation(UMaul3DBodyComponent* Body, FVector Impulse, FVector Location);
    UFUNCTION(BlueprintCallable, Category = "Maul3D")
    static bool AddForce(UMaul3DBodyComponent* Body, FVector Force);
    UFUNCTION(BlueprintCallable, Category = "Maul3D")
    static bool AddTorque(UMaul3DBodyComponent* Body, FVector Torque);

    // The closest hit between Start and End; HitBody is the Maul3D Body component of the
    // body hit (null for a body made outside a component).
    UFUNCTION(BlueprintCallable, Category = "Maul3D", meta = (WorldContext = "WorldContext"))
    static bool RayCast(const UObject* WorldContext, FVector Start, FVector End, FVector& HitPoint,
                        FVector& HitNormal, float& Fraction, UMaul3DBodyComponent*& HitBody);
    UFUNCTION(BlueprintCallable, Category = "Maul3D", meta = (WorldContext = "WorldContext"))
    static bool SweepSphere(const UObject* WorldContext, FVector Start, FVector End, float Radius, FVector& HitPoint,
                            FVector& HitNormal, float& Fraction, UMaul3DBodyComponent*& HitBody);
    // How many shapes overlap the sphere.
    UFUNCTION(BlueprintCallable, Category = "Maul3D", meta = (WorldContext = "WorldContext"))
    static int32 OverlapSphere(const UObject* WorldContext, FVector Center, float Radius);

    static UMaul3DWorldSubsystem* Subsystem(const UObject* WorldContext);
};
