// Project Settings > Plugins > Maul3D: the world every game world gets. Read once when a
// game world starts (UMaul3DWorldSubsystem::Initialize); the values are handed to the
// core unchanged, which validates them (an out-of-range value is logged with its bound).
#pragma once

#include "CoreMinimal.h"
#include "Engine/DeveloperSettings.h"
#include "Maul3DSettings.generated.h"

UCLASS(config = Game, defaultconfig, meta = (DisplayName = "Maul3D"))
class MAUL3D_API UMaul3DSettings : public UDeveloperSettings {
    GENERATED_BODY()

public:
    // Fixed physics steps per second.
    UPROPERTY(config, EditAnywhere, Category = "Step", meta = (ClampMin = 1, ClampMax = 10000))
    int32 TickHz = 60;
    // Solver substeps per step.
    UPROPERTY(config, EditAnywhere, Category = "Step", meta = (ClampMin = 1, ClampMax = 64))
    int32 Substeps = 4;
    // Most steps one frame runs; a longer frame (a hitch) drops the rest.
    UPROPERTY(config, EditAnywhere, Category = "Step", meta = (ClampMin = 1, ClampMax = 1000))
    int32 MaxStepsPerFrame = 4;
    // Gravity in cm/s^2, Unreal axes (converted to the engine's by the library).
    UPROPERTY(config, EditAnywhere, Category = "World")
    FVector Gravity = FVector(0.0, 0.0, -980.0);
    // Worker tasks a step may use (1: step on the game thread only).
    UPROPERTY(config, EditAnywhere, Category = "World", meta = (ClampMin = 1, ClampMax = 1024))
    int32 Threads = 4;

    // Capacities: the world's pools are allocated once, at these sizes.
    UPROPERTY(config, EditAnywhere, Category = "Capacities", meta = (ClampMin = 1))
    int32 BodyCapacity = 4096;
    UPROPERTY(config, EditAnywhere, Category = "Capacities", meta = (ClampMin = 1))
    int32 ShapeCapacity = 8192;
    UPROPERTY(config, EditAnywhere, Category = "Capacities", meta = (ClampMin = 1))
    int32 ContactCapacity = 32768;
    UPROPERTY(config, EditAnywhere, Category = "Capacities", meta = (ClampMin = 1))
    int32 JointCapacity = 1024;
    UPROPERTY(config, EditAnywhere, Category = "Capacities", meta = (ClampMin = 1))
    int32 HullCapacity = 256;
    UPROPERTY(config, EditAnywhere, Category = "Capacities", meta = (ClampMin = 1))
    int32 MeshCapacity = 64;
    // Characters, vehicles and water volumes (Maul3D Character / Vehicle / Water Volume).
    UPROPERTY(config, EditAnywhere, Category = "Capacities", meta = (ClampMin = 0))
    int32 CharacterCapacity = 64;
    UPROPERTY(config, EditAnywhere, Category = "Capacities", meta = (ClampMin = 0))
    int32 VehicleCapacity = 32;
    UPROPERTY(config, EditAnywhere, Category = "Capacities", meta = (ClampMin = 0))
    int32 WaterCapacity = 16;
    // Soft bodies, and their particles (mesh vertices) all together.
    UPROPERTY(config, EditAnywhere, Category = "Capacities", meta = (ClampMin = 0, ClampMax = 65536))
    int32 SoftBodyCapacity = 16;
    UPROPERTY(config, EditAnywhere, Category = "Capacities", meta = (ClampMin = 0, ClampMax = 4194304))
    int32 SoftParticleCapacity = 4096;
    // Journal buffer for maul3d.Record / StartJournal, in MiB.
    UPROPERTY(config, EditAnywhere, Category = "Replays", meta = (ClampMin = 1, ClampMax = 4096))
    int32 JournalMiB = 64;
};
