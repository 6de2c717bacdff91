#include "Maul3DBlueprintLibrary.h"

#include "Engine/Engine.h"
#include "Engine/World.h"
#include "HAL/FileManager.h"
#include "Maul3DBodyComponent.h"
#include "Maul3DConvert.h"
#include "Maul3DLog.h"
#include "Maul3DSettings.h"
#include "Maul3DWorldSubsystem.h"
#include "Misc/FileHelper.h"
#include "Misc/Paths.h"

#include <vector>

using Maul3DGlue::ToCore;
using Maul3DGlue::ToUE;

namespace {

bool Ok(m3Result Result, const TCHAR* What)
{
    if (Result != m3_success) {
        UE_LOG(LogMaul3D, Warning, TEXT("Maul3D %s refused: %hs"), What, m3GetLastErrorMessage());
    }
    return Result == m3_success;
}

UMaul3DWorldSubsystem* BodyWorld(const UMaul3DBodyComponent* Body)
{
    return Body && Body->HasBody() ? UMaul3DBlueprintLibrary::Subsystem(Body) : nullptr;
}

}  // namespace

UMaul3DWorldSubsystem* UMaul3DBlueprintLibrary::Subsystem(const UObject* WorldContext)
{
    UWorld* World = GEngine ? GEngine->GetWorldFromContextObject(WorldContext, EGetWorldErrorMode::LogAndReturnNull)
                            : nullptr;
    UMaul3DWorldSubsystem* Physics = World ? World->GetSubsystem<UMaul3DWorldSubsystem>() : nullptr;
    return Physics && Physics->Host().IsValid() ? Physics : nullptr;
}

int64 UMaul3DBlueprintLibrary::GetWorldHash(const UObject* WorldContext)
{
    const UMaul3DWorldSubsystem* Physics = Subsystem(WorldContext);
    return Physics ? Physics->GetWorldHash() : 0;
}

namespace {
// The core's bytes (a snapshot, a replay) as a Blueprint byte array.
void ToArray(const std::vector<uint8_t>& Bytes, TArray<uint8>& Out)
{
    Out.SetNumUninitialized(static_cast<int32>(Bytes.size()));
    std::copy(Bytes.begin(), Bytes.end(), Out.GetData());
}
}  // namespace

bool UMaul3DBlueprintLibrary::SnapshotWorld(const UObject* WorldContext, TArray<uint8>& Snapshot)
{
    UMaul3DWorldSubsystem* Physics = Subsystem(WorldContext);
    std::vector<uint8_t> Bytes;
    if (Physics == nullptr || !Ok(Physics->Host().Snapshot(Bytes), TEXT("snapshot"))) {
        return false;
    }
    ToArray(Bytes, Snapshot);
    return true;
}

bool UMaul3DBlueprintLibrary::RestoreWorld(const UObject* WorldContext, const TArray<uint8>& Snapshot)
{
    UMaul3DWorldSubsystem* Physics = Subsystem(WorldContext);
    return Physics && Ok(Physics->Host().Restore(Snapshot.GetData(), Snapshot.Num()), TEXT("restore"));
}

bool UMaul3DBlueprintLibrary::StartJournal(const UObject* WorldContext)
{
    UMaul3DWorldSubsystem* Physics = Subsystem(WorldContext);
    const int64 Capacity = static_cast<int64>(GetDefault<UMaul3DSettings>()->JournalMiB) << 20;
    return Physics && Ok(Physics->Host().StartJournal(Capacity), TEXT("start journal"));
}

bool UMaul3DBlueprintLibrary::StopJournal(const UObject* WorldContext, TArray<uint8>& Replay)
{
    UMaul3DWorldSubsystem* Physics = Subsystem(WorldContext);
    std::vector<uint8_t> Bytes;
    if (Physics == nullptr || !Ok(Physics->Host().StopJournal(Bytes), TEXT("stop journal"))) {
        return false;
    }
    ToArray(Bytes, Replay);
    return true;
}

FString UMaul3DBlueprintLibrary::SaveReplay(const TArray<uint8>& Replay, const FString& Name)
{
    const FString Dir = FPaths::ProjectSavedDir() / TEXT("Maul3D") / TEXT("Replays");
    const FString Path = Dir / (Name + TEXT(".m3replay"));
    IFileManager::Get().MakeDirectory(*Dir, true);
    if (!FFileHelper::SaveArrayToFile(Replay, *Path)) {
        UE_LOG(LogMaul3D, Warning, TEXT("Maul3D: could not write %s"), *Path);
        return FString();
    }
    return Path;
}

bool UMaul3DBlueprintLibrary::AddImpulse(UMaul3DBodyComponent* Body, FVector Impulse)
{
    UMaul3DWorldSubsystem* Physics = BodyWorld(Body);
    return Physics && Ok(Physics->Host().AddImpulse(Body->GetBodyId(), ToCore(Impulse)), TEXT("impulse"));
}

bool UMaul3DBlueprintLibrary::AddImpulseAtLocation(UMaul3DBodyComponent* Body, FVector Impulse, FVector Location)
{
    UMaul3DWorldSubsystem* Physics = BodyWorld(Body);
    return Physics && Ok(Physics->Host().AddImpulseAtLocation(Body->GetBodyId(), ToCore(Impulse), ToCore(Location)),
                         TEXT("impulse"));
}

bool UMaul3DBlueprintLibrary::AddForce(UMaul3DBodyComponent* Body, FVector Force)
{
    UMaul3DWorldSubsystem* Physics = BodyWorld(Body);
    return Physics && Ok(Physics->Host().AddForce(Body->GetBodyId(), ToCore(Force)), TEXT("force"));
}

bool UMaul3DBlueprintLibrary::AddTorque(UMaul3DBodyComponent* Body, FVector Torque)
{
    UMaul3DWorldSubsystem* Physics = BodyWorld(Body);
    return Physics && Ok(Physics->Host().AddTorque(Body->GetBodyId(), ToCore(Torque)), TEXT("torque"));
}

bool UMaul3DBlueprintLibrary::RayCast(const UObject* WorldContext, FVector Start, FVector End, FVector& HitPoint,
                                      FVector& HitNormal, float& Fraction, UMaul3DBodyComponent*& HitBody)
{
    HitBody = nullptr;
    const UMaul3DWorldSubsystem* Physics = Subsystem(WorldContext);
    Maul3DCore::FRayHit Hit;
    if (Physics == nullptr || !Ok(Physics->Host().RayCast(ToCore(Start), ToCore(End), &Hit), TEXT("ray cast"))) {
        return false;
    }
    HitPoint = ToUE(Hit.Point);
    HitNormal = ToUE(Hit.Normal);
    Fraction = Hit.Fraction;
    if (Hit.bHit) {
        HitBody = Physics->FindBody(Hit.Body);
    }
    return Hit.bHit;
}

bool UMaul3DBlueprintLibrary::SweepSphere(const UObject* WorldContext, FVector Start, FVector End, float Radius,
                                          FVector& HitPoint, FVector& HitNormal, float& Fraction,
                                          UMaul3DBodyComponent*& HitBody)
{
    HitBody = nullptr;
    const UMaul3DWorldSubsystem* Physics = Subsystem(WorldContext);
    Maul3DCore::FRayHit Hit;
    if (Physics == nullptr ||
        !Ok(Physics->Host().SweepSphere(ToCore(Start), ToCore(End), Radius, &Hit), TEXT("sphere sweep"))) {
        return false;
    }
    HitPoint = ToUE(Hit.Point);
    HitNormal = ToUE(Hit.Normal);
    Fraction = Hit.Fraction;
    if (Hit.bHit) {
        HitBody = Physics->FindBody(Hit.Body);
    }
    return Hit.bHit;
}

int32 UMaul3DBlueprintLibrary::OverlapSphere(const UObject* WorldContext, FVector Center, float Radius)
{
    const UMaul3DWorldSubsystem* Physics = Subsystem(WorldContext);
    std::vector<m3ShapeId> Shapes;
    if (Physics == nullptr || !Ok(Physics->Host().OverlapSphere(ToCore(Center), Radius, Shapes), TEXT("overlap"))) {
        return 0;
    }
    return static_cast<int32>(Shapes.size());
}
