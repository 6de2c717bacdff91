// The UE side of the core's task router: Maul3DCore::ITaskLauncher over UE::Tasks.
// The router decides pieces and worker indices; this only starts host tasks and waits.
#pragma once

#include "CoreMinimal.h"
#include "Core/Maul3DTaskRouter.h"
#include "Tasks/Task.h"

class FMaul3DTaskLauncher final : public Maul3DCore::ITaskLauncher {
public:
    // Workers: host tasks one launch may run at once (clamped to [1, 1024] by the caller).
    explicit FMaul3DTaskLauncher(uint32 InWorkers) : Workers(InWorkers) {}

    uint32_t WorkerCount() const override { return Workers; }
    void Launch(uint32_t Slot, uint32_t TaskCount, FTaskFn Fn, void* Context) override;
    void Wait(uint32_t Slot) override;

private:
    uint32 Workers;
    // The tasks of each in-flight launch, kept until Wait.
    TArray<UE::Tasks::FTask> InFlight[Maul3DCore::FTaskRouter::MaxInFlight];
};
