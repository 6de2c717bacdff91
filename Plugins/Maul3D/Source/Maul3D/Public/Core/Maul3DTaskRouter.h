// Maul3DTaskRouter.h: routes the engine's task hooks (m3WorldDef.enqueueTask /
// finishTask) to a host's task system through a small launcher interface.
//
// Worker indices: each launch starts at most WorkerCount() host tasks; task i runs as
// worker i and takes pieces of the stage from a shared counter until none is left. So
// the worker index the engine expects (below workerCount, never two at once) does not
// depend on which host thread runs it. A launch when every slot is busy runs inline on
// the stepping thread (the engine allows a null handle).
#pragma once

#include "maul3d.hpp"

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

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

// The engine's task hooks over a host launcher, through maul3d.hpp's m3::JobSystemHooks
// (which splits each stage into pieces and keeps its launches in fixed storage). What
// m3::JobSystemHooks asks of a job system that UE::Tasks does not give is a worker index
// per job (below the worker count, never two at once): FWorkerJobs supplies it by starting
// at most WorkerCount() host tasks per launch, host task i running as worker i and taking
// jobs from a shared counter until none is left.
class FTaskRouter {
public:
    static constexpr uint32_t MaxInFlight = 16;

    explicit FTaskRouter(ITaskLauncher& InLauncher) : Jobs(InLauncher), Hooks(Jobs) {}
    FTaskRouter(const FTaskRouter&) = delete;
    FTaskRouter& operator=(const FTaskRouter&) = delete;

    // Fills the def's task hooks (the router must outlive the world). One router per
    // world stepped on its own thread; they may share a launcher only if it can run
    // launches of different routers at once (slots are per router).
    void Install(m3WorldDef& Def) { Hooks.Install(&Def); }

    // Launches routed to the host since creation.
    uint64_t LaunchCount() const { return Jobs.Launched; }

    // The job system m3::JobSystemHooks drives (see above).
    class FWorkerJobs {
    public:
        explicit FWorkerJobs(ITaskLauncher& InLauncher) : Launcher(InLauncher) {}
        uint32_t WorkerCount() const;
        // Runs Job(j, worker) for every j < JobCount; returns the slot to Wait on.
        template <typename Fn>
        uint32_t Launch(uint32_t JobCount, Fn Job)
        {
            static_assert(sizeof(Fn) <= sizeof(FSlot::Job), "a job fits its slot");
            static_assert(std::is_trivially_copyable_v<Fn>, "jobs are plain values");
            uint32_t SlotIndex = 0;
            while (SlotIndex < MaxInFlight && Slots[SlotIndex].Busy) ++SlotIndex;
            // m3::JobSystemHooks frees a slot (Wait) before it reuses one of its own, and
            // both keep MaxInFlight, so a slot is always free here.
            FSlot& S = Slots[SlotIndex];
            std::memcpy(S.Job, &Job, sizeof(Fn));
            S.Call = [](const void* Stored, uint32_t J, uint32_t Worker) {
                Fn F;
                std::memcpy(&F, Stored, sizeof(Fn));
                F(J, Worker);
            };
            S.JobCount = JobCount;
            S.Next.store(0, std::memory_order_relaxed);
            S.Busy = true;
            ++Launched;
            const uint32_t Workers = WorkerCount();
            Launcher.Launch(SlotIndex, JobCount < Workers ? JobCount : Workers, &FWorkerJobs::RunTask, &S);
            return SlotIndex;
        }
        void Wait(uint32_t SlotIndex);

        uint64_t Launched = 0;

    private:
        struct FSlot {
            alignas(std::max_align_t) unsigned char Job[32] = {};
            void (*Call)(const void* Stored, uint32_t Job, uint32_t Worker) = nullptr;
            uint32_t JobCount = 0;
            std::atomic<uint32_t> Next{0};
            bool Busy = false;
        };
        static void RunTask(uint32_t TaskIndex, void* Context);

        ITaskLauncher& Launcher;
        FSlot Slots[MaxInFlight];
    };

private:
    FWorkerJobs Jobs;
    m3::JobSystemHooks<FWorkerJobs, int(MaxInFlight)> Hooks;
};

}  // namespace Maul3DCore
