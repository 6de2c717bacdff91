// Maul3DTaskRouter.cpp: the engine's task hooks over a host launcher.
#include "Core/Maul3DTaskRouter.h"

namespace Maul3DCore {

void FTaskRouter::Install(m3WorldDef& Def)
{
    Def.enqueueTask = &FTaskRouter::Enqueue;
    Def.finishTask = &FTaskRouter::Finish;
    Def.userTaskContext = this;
    uint32_t Workers = Launcher.WorkerCount();
    if (Workers < 1) Workers = 1;
    if (Workers > 1024) Workers = 1024;
    Def.workerCount = int32_t(Workers);
}

void* FTaskRouter::Enqueue(m3TaskCallback Task, uint32_t ItemCount, uint32_t MinRange, void* TaskContext,
                           void* UserContext)
{
    auto* Self = static_cast<FTaskRouter*>(UserContext);
    uint32_t SlotIndex = MaxInFlight;
    for (uint32_t I = 0; I < MaxInFlight; ++I) {
        if (!Self->Launches[I].Busy) {
            SlotIndex = I;
            break;
        }
    }
    uint32_t Workers = Self->Launcher.WorkerCount();
    if (Workers > 1024) Workers = 1024;
    if (SlotIndex == MaxInFlight || ItemCount == 0 || Workers <= 1) {
        ++Self->Inlined;
        Task(0, ItemCount, 0, TaskContext);
        return nullptr;
    }
    FLaunch& L = Self->Launches[SlotIndex];
    // Pieces: about two per worker, at least MinRange items each.
    const uint32_t Want = Workers * 2;
    uint32_t Piece = (ItemCount + Want - 1) / Want;
    if (Piece < MinRange) Piece = MinRange;
    if (Piece == 0) Piece = 1;
    const uint32_t Pieces = (ItemCount + Piece - 1) / Piece;
    L.Task = Task;
    L.TaskContext = TaskContext;
    L.ItemCount = ItemCount;
    L.Piece = Piece;
    L.Next.store(0, std::memory_order_relaxed);
    L.Busy = true;
    ++Self->Launched;
    // One host task per worker index (no more than there are pieces): each pulls pieces.
    Self->Launcher.Launch(SlotIndex, Pieces < Workers ? Pieces : Workers, &FTaskRouter::RunTask, &L);
    // The handle is the slot plus one (null means "ran inline").
    return reinterpret_cast<void*>(uintptr_t(SlotIndex) + 1);
}

void FTaskRouter::RunTask(uint32_t TaskIndex, void* Context)
{
    auto* L = static_cast<FLaunch*>(Context);
    for (;;) {
        const uint32_t P = L->Next.fetch_add(1, std::memory_order_relaxed);
        const uint64_t Start = uint64_t(P) * L->Piece;
        if (Start >= L->ItemCount) return;
        const uint64_t End = Start + L->Piece < L->ItemCount ? Start + L->Piece : L->ItemCount;
        L->Task(uint32_t(Start), uint32_t(End), TaskIndex, L->TaskContext);
    }
}

void FTaskRouter::Finish(void* UserTask, void* UserContext)
{
    auto* Self = static_cast<FTaskRouter*>(UserContext);
    const uint32_t SlotIndex = uint32_t(reinterpret_cast<uintptr_t>(UserTask) - 1);
    if (SlotIndex >= MaxInFlight) return;
    Self->Launcher.Wait(SlotIndex);
    Self->Launches[SlotIndex].Busy = false;
}

}  // namespace Maul3DCore
