// The runtime module and its console commands: maul3d.Record, maul3d.Hash, maul3d.Draw.
#include "CoreMinimal.h"
#include "Engine/World.h"
#include "HAL/IConsoleManager.h"
#include "Maul3DBlueprintLibrary.h"
#include "Maul3DLog.h"
#include "Maul3DWorldSubsystem.h"
#include "Modules/ModuleManager.h"

DEFINE_LOG_CATEGORY(LogMaul3D);

namespace {

UMaul3DWorldSubsystem* Physics(UWorld* World)
{
    UMaul3DWorldSubsystem* Subsystem = World ? World->GetSubsystem<UMaul3DWorldSubsystem>() : nullptr;
    if (Subsystem == nullptr || !Subsystem->Host().IsValid()) {
        UE_LOG(LogMaul3D, Warning, TEXT("Maul3D: this world has no Maul3D world"));
        return nullptr;
    }
    return Subsystem;
}

// maul3d.Record start | stop [name]
void Record(const TArray<FString>& Args, UWorld* World)
{
    if (Physics(World) == nullptr) {
        return;
    }
    if (Args.Num() >= 1 && Args[0] == FString(TEXT("start"))) {
        UMaul3DBlueprintLibrary::StartJournal(World);
        return;
    }
    TArray<uint8> Replay;
    if (!UMaul3DBlueprintLibrary::StopJournal(World, Replay)) {
        return;
    }
    const FString Name = Args.Num() >= 2 ? Args[1] : FDateTime::Now().ToString();
    const FString Path = UMaul3DBlueprintLibrary::SaveReplay(Replay, Name);
    UE_LOG(LogMaul3D, Display, TEXT("Maul3D replay: %s (%d bytes)"), *Path, Replay.Num());
}

void Hash(const TArray<FString>&, UWorld* World)
{
    if (UMaul3DWorldSubsystem* Subsystem = Physics(World)) {
        UE_LOG(LogMaul3D, Display, TEXT("Maul3D step %lld hash %016llx"), static_cast<long long>(Subsystem->GetStepCount()),
               static_cast<unsigned long long>(Subsystem->GetWorldHash()));
    }
}

void Draw(const TArray<FString>& Args, UWorld* World)
{
    if (UMaul3DWorldSubsystem* Subsystem = Physics(World)) {
        Subsystem->SetDebugDraw(Args.Num() >= 1 ? Args[0] == FString(TEXT("1")) : !Subsystem->IsDebugDrawing());
    }
}

FAutoConsoleCommandWithWorldAndArgs RecordCommand(TEXT("maul3d.Record"),
                                                  TEXT("maul3d.Record start | stop [name]: journal to Saved/Maul3D/Replays"),
                                                  FConsoleCommandWithWorldAndArgsDelegate::CreateStatic(&Record));
FAutoConsoleCommandWithWorldAndArgs HashCommand(TEXT("maul3d.Hash"), TEXT("Prints the Maul3D world's step and hash"),
                                                FConsoleCommandWithWorldAndArgsDelegate::CreateStatic(&Hash));
FAutoConsoleCommandWithWorldAndArgs DrawCommand(TEXT("maul3d.Draw"),
                                                TEXT("maul3d.Draw [0|1]: debug draw of shapes and contacts"),
                                                FConsoleCommandWithWorldAndArgsDelegate::CreateStatic(&Draw));

}  // namespace

IMPLEMENT_MODULE(FDefaultModuleImpl, Maul3D)
