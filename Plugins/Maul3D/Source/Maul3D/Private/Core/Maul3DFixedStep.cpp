// Maul3DFixedStep.cpp: integer accumulator (nanoseconds * tick rate) of the fixed step.
#include "Core/Maul3DFixedStep.h"

namespace Maul3DCore {
namespace {
constexpr uint64_t NanosPerSecond = 1000000000ull;
// A frame longer than this (ten seconds) counts as this: the spike cap drops it anyway.
constexpr int64_t MaxFrameNanos = int64_t(10) * int64_t(NanosPerSecond);
}  // namespace

bool FFixedStep::SetSettings(const FFixedStepSettings& Settings)
{
    if (Settings.TickHz < 1 || Settings.TickHz > 10000 || Settings.MaxStepsPerFrame < 1 ||
        Settings.MaxStepsPerFrame > 1000) {
        return false;
    }
    // Keep the fraction of a step already accumulated (integer: ns * old Hz -> ns * new Hz).
    const uint64_t Nanos = Accumulated / Current.TickHz;
    Current = Settings;
    Accumulated = Nanos * Current.TickHz;
    if (Accumulated >= NanosPerSecond) Accumulated %= NanosPerSecond;
    return true;
}

uint32_t FFixedStep::Advance(int64_t FrameNanoseconds)
{
    if (Paused) return 0;
    if (FrameNanoseconds < 0) FrameNanoseconds = 0;
    if (FrameNanoseconds > MaxFrameNanos) FrameNanoseconds = MaxFrameNanos;
    Accumulated += uint64_t(FrameNanoseconds) * Current.TickHz;
    const uint64_t Due = Accumulated / NanosPerSecond;
    Accumulated %= NanosPerSecond;
    if (Due > Current.MaxStepsPerFrame) {
        Dropped += Due - Current.MaxStepsPerFrame;
        return Current.MaxStepsPerFrame;
    }
    return uint32_t(Due);
}

uint32_t FFixedStep::AdvanceSeconds(double DeltaSeconds)
{
    // Scheduling only: the rounding of a frame time to whole nanoseconds shapes no
    // simulation input (the steps run with the same dt whatever the frame).
    if (!(DeltaSeconds > 0.0)) return Advance(0);
    if (DeltaSeconds > 10.0) return Advance(MaxFrameNanos);
    return Advance(int64_t(DeltaSeconds * 1e9 + 0.5));
}

float FFixedStep::Alpha() const
{
    // Accumulated < 1e9 always, so this is below 1 (1e9 - 1 over 1e9 rounds to just
    // below 1 in double; the float cast could round up to 1, so clamp).
    const double A = double(Accumulated) / double(NanosPerSecond);
    const float F = float(A);
    return F < 1.0f ? F : 0.99999994f;
}

}  // namespace Maul3DCore
