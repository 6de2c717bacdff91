// Maul3DFixedStep.h: the fixed-tick accumulator of a game world's physics.
//
// Host-side scheduling only (which frame runs how many steps): frame times accumulate in
// integer nanoseconds times the tick rate, so a step count never depends on float
// rounding or on fast-math. Alpha (for interpolating rendered transforms) is the only
// float it computes, and it shapes no simulation input.
#pragma once

#include <cstdint>

namespace Maul3DCore {

struct FFixedStepSettings {
    // Steps per second (1 to 10000).
    uint32_t TickHz = 60;
    // Most steps one frame runs (1 to 1000); a longer frame (a spike) drops the rest.
    uint32_t MaxStepsPerFrame = 4;
};

class FFixedStep {
public:
    FFixedStep() = default;
    explicit FFixedStep(const FFixedStepSettings& Settings) { SetSettings(Settings); }

    // False (and nothing changes) when a setting is out of range. Keeps the accumulated
    // time as a fraction of the new tick.
    bool SetSettings(const FFixedStepSettings& Settings);
    const FFixedStepSettings& Settings() const { return Current; }

    // Adds a frame's time (nanoseconds, negative counts as 0) and returns how many steps
    // to run now, at most MaxStepsPerFrame. Paused: 0, and the time is not accumulated.
    uint32_t Advance(int64_t FrameNanoseconds);
    // The same for a frame time in seconds (rounded to whole nanoseconds).
    uint32_t AdvanceSeconds(double DeltaSeconds);

    // How far the accumulator is into the next step: [0, 1), for interpolating between
    // the last two steps' transforms.
    float Alpha() const;

    void SetPaused(bool bPaused) { Paused = bPaused; }
    bool IsPaused() const { return Paused; }
    // Forgets the accumulated time.
    void Reset() { Accumulated = 0; }

    // Steps this accumulator has dropped on spikes.
    uint64_t DroppedSteps() const { return Dropped; }

private:
    FFixedStepSettings Current;
    // Nanoseconds * TickHz: a step is due at every 1e9.
    uint64_t Accumulated = 0;
    uint64_t Dropped = 0;
    bool Paused = false;
};

}  // namespace Maul3DCore
