#include "Maul3DWaterVolumeComponent.h"

#include "Engine/World.h"
#include "Maul3DBodyComponent.h"
#include "Maul3DConvert.h"
#include "Maul3DLog.h"
#include "Maul3DWorldSubsystem.h"

using Maul3DGlue::ToCore;

Maul3DCore::FWaterSettings UMaul3DWaterVolumeComponent::Settings() const
{
    // Field copies only: the library scales the extent and converts.
    const FTransform World = GetComponentTransform();
    Maul3DCore::FWaterSettings S;
    S.CenterCm = ToCore(World.GetLocation());
    S.Rotation = ToCore(World.GetRotation());
    S.Scale = ToCore(World.GetScale3D());
    S.HalfExtentCm = ToCore(GetUnscaledBoxExtent());
    S.Density = Density;
    S.LinearDrag = LinearDrag;
    S.AngularDrag = AngularDrag;
    S.FlowCmPerSecond = ToCore(Flow);
    return S;
}

void UMaul3DWaterVolumeComponent::BeginPlay()
{
    Super::BeginPlay();
    UWorld* World = GetWorld();
    UMaul3DWorldSubsystem* Physics = World ? World->GetSubsystem<UMaul3DWorldSubsystem>() : nullptr;
    if (Physics == nullptr || !Physics->Host().IsValid()) {
        return;
    }
    if (Water.Create(Physics->Host(), Settings()) != m3_success) {
        UE_LOG(LogMaul3D, Warning, TEXT("Maul3D water volume not created: %hs"), m3GetLastErrorMessage());
    }
}

void UMaul3DWaterVolumeComponent::EndPlay(EEndPlayReason::Type Reason)
{
    Water.Destroy();
    Super::EndPlay(Reason);
}

void UMaul3DWaterVolumeComponent::SetDensity(float KgPerM3)
{
    if (Water.SetDensity(KgPerM3) == m3_success) {
        Density = KgPerM3;
    }
}

void UMaul3DWaterVolumeComponent::SetDrag(float Linear, float Angular)
{
    if (Water.SetDrag(Linear, Angular) == m3_success) {
        LinearDrag = Linear;
        AngularDrag = Angular;
    }
}

void UMaul3DWaterVolumeComponent::SetFlow(FVector CmPerSecond)
{
    if (Water.SetFlow(ToCore(CmPerSecond)) == m3_success) {
        Flow = CmPerSecond;
    }
}

bool UMaul3DWaterVolumeComponent::UpdateVolume() { return Water.SetSettings(Settings()) == m3_success; }

float UMaul3DWaterVolumeComponent::GetSubmergedFraction(const UMaul3DBodyComponent* Body) const
{
    Maul3DCore::FBuoyancyInfo Info;
    if (Body == nullptr || !Body->HasBody() || Water.GetBuoyancy(Body->GetBodyId(), &Info) != m3_success) {
        return 0.f;
    }
    return static_cast<float>(Info.SubmergedFraction);
}
