// Maul3DScrubber.h: the model of the editor's replay tab over the library's replay
// player (m3::ReplayPlayer, which does the seeking, keyframes, verification and diff in
// Rust): open bytes, seek / step / play at a speed, verify, diff against a second
// recording, and the bodies at the current step in Unreal units.
#pragma once

#include "Core/Maul3DFixedStep.h"
#include "Core/Maul3DUnits.h"
#include "maul3d.hpp"

#include <cstdint>
#include <vector>

namespace Maul3DCore {

// A body at the current step, in Unreal units and axes.
struct FScrubBody {
    uint32_t Slot = 0;  // the id's index minus one
    m3BodyId Id{};
    m3BodyType Type = m3_staticBody;
    FVec3d Position;         // cm
    FQuatd Rotation;
    FVec3d LinearVelocity;   // cm/s
    FVec3d AngularVelocity;  // rad/s
    bool bSleeping = false;
    bool bEnabled = true;
};

struct FScrubVerify {
    uint64_t Recorded = 0;
    uint64_t Replayed = 0;
    bool Verified() const { return Recorded == Replayed; }
};

// One differing body slot, in Unreal units.
struct FScrubDiffRow {
    uint32_t Slot = 0;
    bool bAliveInA = false;
    bool bAliveInB = false;
    double PositionErrorCm = 0.0;  // infinite when alive in one recording only
    float RotationError = 0.0f;    // radians
    float VelocityError = 0.0f;    // the engine's largest velocity difference (m/s or rad/s)
};

struct FScrubDiff {
    m3ReplayPartingKind Kind = m3_replaysAgree;
    uint64_t Step = 0;  // first parting step (m3_replaysPart), else the last common step
    uint64_t HashA = 0;
    uint64_t HashB = 0;
    uint64_t StepsA = 0;
    uint64_t StepsB = 0;
    int32_t Differing = 0;
    std::vector<FScrubDiffRow> Rows;  // worst first
};

class FScrubber {
public:
    // Opens a replay container (the bytes are copied). KeyframeEvery 0: the library's
    // spacing. The scrubber is at step 0 after opening.
    m3Result Open(const uint8_t* Bytes, int64_t Length, uint64_t KeyframeEvery = 0);
    void Close();
    bool IsOpen() const { return Player.IsValid(); }

    uint64_t StepCount() const { return Player.StepCount(); }
    uint64_t CurrentStep() const { return Player.CurrentStep(); }
    uint64_t Hash() const { return Player.Hash(); }
    uint64_t KeyframeEvery() const { return Player.KeyframeEvery(); }
    uint64_t IndexedThrough() const { return Player.IndexedThrough(); }

    // Moves to a step (m3_errorArgument past StepCount(): nothing moves). Stops playback.
    m3Result Seek(uint64_t Step);
    m3Result StepForward();
    m3Result StepBack();

    // Steps the player replayed for the last seek (from the current step or the nearest
    // keyframe), read off the current step, the keyframe spacing and the indexed range;
    // an upper bound when the target lay past IndexedThrough(). And the most so far.
    uint64_t LastSeekSteps() const { return LastSeek; }
    uint64_t MaxSeekSteps() const { return MaxSeek; }

    // Playback: Speed multiplies the recording's tick rate (RecordedHz, default 60);
    // Speed within (0, 64].
    bool SetPlayback(uint32_t RecordedHz, double Speed);
    void SetPlaying(bool bPlay);
    bool IsPlaying() const { return Playing; }

    // Once a frame: advances playback by the frame's time (stops at the end) and indexes
    // ahead at most IndexStepsPerTick steps so later seeks stay short.
    m3Result Tick(int64_t FrameNanoseconds, uint64_t IndexStepsPerTick = 64);

    // Replays the whole recording; Verified() when the final hash matches the recorder's.
    m3Result Verify(FScrubVerify* Out);
    // Where this recording and Other's part; moves both to that step. At most MaxRows rows.
    m3Result Diff(FScrubber& Other, int32_t MaxRows, FScrubDiff* Out);

    // The live bodies at the current step, in slot order.
    m3Result Bodies(std::vector<FScrubBody>& Out) const;
    // The world at the current step to debug-draw callbacks (engine units; convert with
    // Units::PositionToUnreal / QuatToUnreal).
    m3Result Draw(const m3DebugDraw& DrawDef) { return Player.Draw(DrawDef); }

    m3::ReplayPlayer& Raw() { return Player; }

private:
    void NoteSeek(uint64_t From, uint64_t To);

    m3::ReplayPlayer Player;
    FFixedStep Clock;
    uint32_t RecordedHz = 60;
    double Speed = 1.0;
    bool Playing = false;
    uint64_t LastSeek = 0;
    uint64_t MaxSeek = 0;
};

}  // namespace Maul3DCore
