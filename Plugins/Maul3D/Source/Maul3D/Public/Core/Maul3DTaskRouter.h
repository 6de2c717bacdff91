// Maul3DTaskRouter.h: routes the engine's task hooks (m3WorldDef.enqueueTask /
// finishTask) to a host's task system through a small launcher interface.
//
// Worker indices: each launch starts at most WorkerCount() host tasks; task i runs as
// worker i and takes pieces of the stage from a shared counter until none is left. So
// the worker index the engine expects (below workerCount, never two at once) does not
// depend on which host thread runs it. A launch when every slot is busy runs inline on
// the stepping thread (the engine allows a null handle).
#pragma once

#include "maul3d.h"

#include <atomic>
#include <cstdint>

namespace Maul3DCore {

// The host's task system: UE::Tasks::Launch + Wait (or ParallelFor) in the UE glue, a
// std::thread pool in the tests.
class ITaskLauncher {
public:
    using FTaskFn = void (*)(uint32_t TaskIndex, void* Context);
    virtual ~ITaskLauncher() = default;
    // Host tasks a launch may run at once (1 to 1024).
    virtual uint32_t WorkerCount() const = 0;
    // Starts Fn(i, Context) for every i < TaskCount (on any threads, in any order).
    // Slot (< FTaskRouter::MaxInFlight) names the launch for Wait; it is free again after
    // Wait returns, so a launcher can keep fixed storage per slot.
    virtual void Launch(uint32_t Slot, uint32_t TaskCount, FTaskFn Fn, void* Context) = 0;
    // Returns when every task of the slot's launch has run.
    virtual void Wait(uint32_t Slot) = 0;
};

class FTaskRouter {
public:
    static constexpr uint32_t MaxInFlight = 16;

    explicit FTaskRouter(ITaskLauncher& InLauncher) : Launcher(InLauncher) {}
    FTaskRouter(const FTaskRouter&) = delete;
    FTaskRouter& operator=(const FTaskRouter&) = delete;

    // Fills the def's task hooks (the router must outlive the world). One router per
    // world stepped on its own thread; they may share a launcher only if it can run
    // launches of different routers at once (slots are per router).
    void Install(m3WorldDef& Def);

    // Launches routed to the host and launches run inline (every slot busy), since creation.
    uint64_t LaunchCount() const { return Launched; }
    uint64_t InlineCount() const { return Inlined; }

private:
    struct FLaunch {
        m3TaskCallback Task = nullptr;
        void* TaskContext = nullptr;
        uint32_t ItemCount = 0;
        uint32_t Piece = 1;
        std::atomic<uint32_t> Next{0};
        bool Busy = false;
    };
    static void* Enqueue(m3TaskCallback Task, uint32_t ItemCount, uint32_t MinRange, void* TaskContext,
                         void* UserContext);
    static void Finish(void* UserTask, void* UserContext);
    static void RunTask(uint32_t TaskIndex, void* Context);

    ITaskLauncher& Launcher;
    FLaunch Launches[MaxInFlight];
    uint64_t Launched = 0;
    uint64_t Inlined = 0;
};

}  // namespace Maul3DCore
