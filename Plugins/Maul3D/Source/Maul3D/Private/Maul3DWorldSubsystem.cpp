#include "Maul3DWorldSubsystem.h"

#include "Engine/World.h"
#include "Maul3DBodyComponent.h"
#include "Maul3DCharacterComponent.h"
#include "Maul3DConvert.h"
#include "Maul3DDebugDraw.h"
#include "Maul3DLog.h"
#include "Maul3DSettings.h"
#include "Maul3DTaskLauncher.h"
#include "Maul3DVehicleComponent.h"

UMaul3DWorldSubsystem::UMaul3DWorldSubsystem() = default;
UMaul3DWorldSubsystem::~UMaul3DWorldSubsystem() = default;

void UMaul3DWorldSubsystem::Initialize(FSubsystemCollectionBase& Collection)
{
    Super::Initialize(Collection);
    const UMaul3DSettings* Settings = GetDefault<UMaul3DSettings>();
    Maul3DCore::FWorldSettings World;
    World.BodyCapacity = Settings->BodyCapacity;
    World.ShapeCapacity = Settings->ShapeCapacity;
    World.ContactCapacity = Settings->ContactCapacity;
    World.JointCapacity = Settings->JointCapacity;
    World.HullCapacity = Settings->HullCapacity;
    World.MeshCapacity = Settings->MeshCapacity;
    World.CharacterCapacity = Settings->CharacterCapacity;
    World.VehicleCapacity = Settings->VehicleCapacity;
    World.WaterCapacity = Settings->WaterCapacity;
    World.SoftBodyCapacity = Settings->SoftBodyCapacity;
    World.SoftParticleCapacity = Settings->SoftParticleCapacity;
    World.TickHz = static_cast<uint32>(Settings->TickHz);
    World.MaxStepsPerFrame = static_cast<uint32>(Settings->MaxStepsPerFrame);
    World.Substeps = Settings->Substeps;
    World.GravityCmPerS2 = Maul3DGlue::ToCore(Settings->Gravity);
    World.Threads = Settings->Threads > 1 ? static_cast<uint32>(Settings->Threads) : 0u;
    if (World.Threads > 1) {
        Launcher = MakeUnique<FMaul3DTaskLauncher>(World.Threads);
    }
    const m3Result Result = WorldHost.Create(World, Launcher.Get());
    if (Result != m3_success) {
        UE_LOG(LogMaul3D, Error, TEXT("Maul3D world not created: %hs"), m3GetLastErrorMessage());
    }
}

void UMaul3DWorldSubsystem::Deinitialize()
{
    WorldHost.Destroy();
    Launcher.Reset();
    Bodies.Reset();
    Characters.Reset();
    Vehicles.Reset();
    Super::Deinitialize();
}

void UMaul3DWorldSubsystem::Tick(float DeltaTime)
{
    if (!WorldHost.IsValid()) {
        return;
    }
    // Scheduling only: the frame time picks how many fixed steps run, never their length.
    const int64 Nanoseconds = static_cast<int64>(static_cast<double>(DeltaTime) * 1e9);
    uint32_t Steps = 0;
    if (WorldHost.Tick(Nanoseconds, &Steps) != m3_success) {
        UE_LOG(LogMaul3D, Warning, TEXT("Maul3D step refused: %hs"), m3GetLastErrorMessage());
    }
    NotifyStepped(Steps);
    if (bDebugDraw) {
        Maul3DGlue::FWorldDrawSink Sink(GetWorld(), 0.f);
        WorldHost.Draw(Sink, true, true);
    }
}

TStatId UMaul3DWorldSubsystem::GetStatId() const
{
    RETURN_QUICK_DECLARE_CYCLE_STAT(UMaul3DWorldSubsystem, STATGROUP_Tickables);
}

bool UMaul3DWorldSubsystem::StepPhysics(int32 Steps)
{
    if (Steps < 0 || !WorldHost.IsValid()) {
        return false;
    }
    const bool bOk = WorldHost.Step(static_cast<uint32_t>(Steps)) == m3_success;
    NotifyStepped(static_cast<uint32>(Steps));
    return bOk;
}

void UMaul3DWorldSubsystem::SetPaused(bool bPaused) { WorldHost.Clock().SetPaused(bPaused); }
bool UMaul3DWorldSubsystem::IsPaused() const { return const_cast<Maul3DCore::FWorldHost&>(WorldHost).Clock().IsPaused(); }
float UMaul3DWorldSubsystem::GetInterpolationAlpha() const
{
    return const_cast<Maul3DCore::FWorldHost&>(WorldHost).Clock().Alpha();
}
int64 UMaul3DWorldSubsystem::GetWorldHash() const { return static_cast<int64>(WorldHost.Hash()); }
int64 UMaul3DWorldSubsystem::GetStepCount() const { return static_cast<int64>(WorldHost.StepCount()); }

void UMaul3DWorldSubsystem::RegisterBody(UMaul3DBodyComponent* Body) { Bodies.Add(Body); }

UMaul3DBodyComponent* UMaul3DWorldSubsystem::FindBody(m3BodyId Id) const
{
    for (const TWeakObjectPtr<UMaul3DBodyComponent>& Entry : Bodies) {
        UMaul3DBodyComponent* Body = Entry.Get();
        if (Body != nullptr && Maul3DCore::SameBody(Body->GetBodyId(), Id)) {
            return Body;
        }
    }
    return nullptr;
}

void UMaul3DWorldSubsystem::UnregisterBody(UMaul3DBodyComponent* Body)
{
    for (TWeakObjectPtr<UMaul3DBodyComponent>& Entry : Bodies) {
        if (Entry.Get() == Body) {
            Entry = nullptr;
        }
    }
}

namespace {

template <typename T>
void Unregister(TArray<TWeakObjectPtr<T>>& List, T* Item)
{
    for (TWeakObjectPtr<T>& Entry : List) {
        if (Entry.Get() == Item) {
            Entry = nullptr;
        }
    }
}

}  // namespace

void UMaul3DWorldSubsystem::RegisterCharacter(UMaul3DCharacterComponent* Character) { Characters.Add(Character); }
void UMaul3DWorldSubsystem::UnregisterCharacter(UMaul3DCharacterComponent* Character) { Unregister(Characters, Character); }
void UMaul3DWorldSubsystem::RegisterVehicle(UMaul3DVehicleComponent* Vehicle) { Vehicles.Add(Vehicle); }
void UMaul3DWorldSubsystem::UnregisterVehicle(UMaul3DVehicleComponent* Vehicle) { Unregister(Vehicles, Vehicle); }

void UMaul3DWorldSubsystem::NotifyStepped(uint32 Steps)
{
    for (const TWeakObjectPtr<UMaul3DCharacterComponent>& Entry : Characters) {
        if (UMaul3DCharacterComponent* Character = Entry.Get()) {
            Character->OnPhysicsStepped(Steps, GetInterpolationAlpha());
        }
    }
    for (const TWeakObjectPtr<UMaul3DVehicleComponent>& Entry : Vehicles) {
        if (UMaul3DVehicleComponent* Vehicle = Entry.Get()) {
            Vehicle->OnPhysicsStepped(Steps, GetInterpolationAlpha());
        }
    }
    for (const TWeakObjectPtr<UMaul3DBodyComponent>& Entry : Bodies) {
        if (UMaul3DBodyComponent* Body = Entry.Get()) {
            Body->OnPhysicsStepped(Steps, GetInterpolationAlpha());
        }
    }
}
