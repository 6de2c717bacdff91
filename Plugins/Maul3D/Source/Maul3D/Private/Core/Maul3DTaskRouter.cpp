// Maul3DTaskRouter.cpp: the job system m3::JobSystemHooks drives, over a host launcher.
#include "Core/Maul3DTaskRouter.h"

namespace Maul3DCore {

uint32_t FTaskRouter::FWorkerJobs::WorkerCount() const
{
    const uint32_t Workers = Launcher.WorkerCount();
    return Workers < 1 ? 1 : (Workers > 1024 ? 1024 : Workers);
}

void FTaskRouter::FWorkerJobs::RunTask(uint32_t TaskIndex, void* Context)
{
    // Host task i is worker i: whichever thread runs it, the engine sees a worker index
    // below the worker count that no other task of the launch uses.
    auto* S = static_cast<FSlot*>(Context);
    for (;;) {
        const uint32_t J = S->Next.fetch_add(1, std::memory_order_relaxed);
        if (J >= S->JobCount) return;
        S->Call(S->Job, J, TaskIndex);
    }
}

void FTaskRouter::FWorkerJobs::Wait(uint32_t SlotIndex)
{
    Launcher.Wait(SlotIndex);
    Slots[SlotIndex].Busy = false;
}

}  // namespace Maul3DCore
