#include "Maul3DTaskLauncher.h"

void FMaul3DTaskLauncher::Launch(uint32_t Slot, uint32_t TaskCount, FTaskFn Fn, void* Context)
{
    check(Slot < Maul3DCore::FTaskRouter::MaxInFlight);
    TArray<UE::Tasks::FTask>& Tasks = InFlight[Slot];
    Tasks.Reset();
    for (uint32 Index = 0; Index < TaskCount; ++Index) {
        Tasks.Add(UE::Tasks::Launch(TEXT("Maul3D"), [Fn, Index, Context]() { Fn(Index, Context); }));
    }
}

void FMaul3DTaskLauncher::Wait(uint32_t Slot)
{
    check(Slot < Maul3DCore::FTaskRouter::MaxInFlight);
    UE::Tasks::Wait(InFlight[Slot]);
    InFlight[Slot].Reset();
}
