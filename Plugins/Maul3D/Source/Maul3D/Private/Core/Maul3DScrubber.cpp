// Maul3DScrubber.cpp: the replay tab's model over m3::ReplayPlayer.
#include "Core/Maul3DScrubber.h"

namespace Maul3DCore {

m3Result FScrubber::Open(const uint8_t* Bytes, int64_t Length, uint64_t KeyframeEvery)
{
    Close();
    Player = KeyframeEvery == 0 ? m3::ReplayPlayer(Bytes, Length) : m3::ReplayPlayer(Bytes, Length, KeyframeEvery);
    return Player.IsValid() ? m3_success : Player.OpenResult();
}

void FScrubber::Close()
{
    Player.Reset();
    Playing = false;
    LastSeek = 0;
    MaxSeek = 0;
    Clock.Reset();
}

void FScrubber::NoteSeek(uint64_t From, uint64_t To)
{
    // The player continues from the current step when it lies between the target's
    // keyframe and the target, else restores the keyframe at or before the target. Every
    // keyframe up to IndexedThrough() exists, so that keyframe is known exactly there;
    // past it the spacing gives an upper bound.
    const uint64_t K = Player.KeyframeEvery() ? Player.KeyframeEvery() : 1;
    const uint64_t Indexed = Player.IndexedThrough();
    const uint64_t Known = (To < Indexed ? To : Indexed) / K * K;
    const uint64_t Keyframe = To / K * K;
    uint64_t Steps;
    if (From <= To && From >= Keyframe) {
        Steps = To - From;
    } else {
        Steps = To - Known;
        if (From <= To && To - From < Steps && From >= Known) Steps = To - From;
    }
    LastSeek = Steps;
    if (Steps > MaxSeek) MaxSeek = Steps;
}

m3Result FScrubber::Seek(uint64_t Step)
{
    Playing = false;
    const uint64_t From = Player.CurrentStep();
    const m3Result R = Player.Seek(Step);
    if (R == m3_success) NoteSeek(From, Step);
    return R;
}

m3Result FScrubber::StepForward()
{
    bool Moved = false;
    return Player.StepForward(&Moved);
}

m3Result FScrubber::StepBack()
{
    Playing = false;
    bool Moved = false;
    return Player.StepBack(&Moved);
}

bool FScrubber::SetPlayback(uint32_t InRecordedHz, double InSpeed)
{
    if (!(InSpeed > 0.0) || InSpeed > 64.0 || InRecordedHz < 1 || InRecordedHz > 10000) return false;
    // Playback at Speed x RecordedHz steps per second: the clock runs at the recorded
    // rate and frame times are scaled by Speed (host scheduling, no simulation input).
    FFixedStepSettings S;
    S.TickHz = InRecordedHz;
    S.MaxStepsPerFrame = 1000;
    if (!Clock.SetSettings(S)) return false;
    RecordedHz = InRecordedHz;
    Speed = InSpeed;
    return true;
}

void FScrubber::SetPlaying(bool bPlay)
{
    Playing = bPlay && IsOpen();
    Clock.Reset();
}

m3Result FScrubber::Tick(int64_t FrameNanoseconds, uint64_t IndexStepsPerTick)
{
    if (!IsOpen()) return m3_errorState;
    if (Playing) {
        if (Clock.Settings().TickHz != RecordedHz) SetPlayback(RecordedHz, Speed);
        const double Scaled = double(FrameNanoseconds) * Speed;
        uint32_t Steps = Clock.Advance(Scaled > 0.0 ? int64_t(Scaled) : 0);
        while (Steps-- > 0) {
            bool Moved = false;
            const m3Result R = Player.StepForward(&Moved);
            if (R != m3_success) return R;
            if (!Moved) {
                Playing = false;
                break;
            }
        }
    }
    if (IndexStepsPerTick > 0 && Player.IndexedThrough() < Player.StepCount()) {
        bool Done = false;
        return Player.IndexAhead(IndexStepsPerTick, &Done);
    }
    return m3_success;
}

m3Result FScrubber::Verify(FScrubVerify* Out)
{
    if (Out == nullptr) return m3_errorArgument;
    Playing = false;
    return Player.Verify(&Out->Recorded, &Out->Replayed);
}

m3Result FScrubber::Diff(FScrubber& Other, int32_t MaxRows, FScrubDiff* Out)
{
    if (Out == nullptr || MaxRows < 0) return m3_errorArgument;
    Playing = false;
    Other.Playing = false;
    std::vector<m3BodyDiff> Rows(size_t(MaxRows > 0 ? MaxRows : 1));
    m3ReplayParting P{};
    const m3Result R = Player.Diff(Other.Player, Rows.data(), MaxRows, &P);
    if (R != m3_success) return R;
    Out->Kind = P.kind;
    Out->Step = P.step;
    Out->HashA = P.hashA;
    Out->HashB = P.hashB;
    Out->StepsA = P.stepsA;
    Out->StepsB = P.stepsB;
    Out->Differing = P.differing;
    Out->Rows.clear();
    for (int32_t I = 0; I < P.rowCount; ++I) {
        const m3BodyDiff& D = Rows[size_t(I)];
        FScrubDiffRow Row;
        Row.Slot = D.slot;
        Row.bAliveInA = D.aliveInA;
        Row.bAliveInB = D.aliveInB;
        // Display only: metres to centimetres through the library (exact for finite).
        Row.PositionErrorCm = D.positionError;
        if (D.aliveInA && D.aliveInB) {
            const FVec3d E = Units::PositionToUnreal(m3DVec3{D.positionError, 0.0, 0.0});
            Row.PositionErrorCm = E.X;
        }
        Row.RotationError = D.rotationError;
        Row.VelocityError = D.velocityError;
        Out->Rows.push_back(Row);
    }
    return m3_success;
}

m3Result FScrubber::Bodies(std::vector<FScrubBody>& Out) const
{
    Out.clear();
    int32_t Count = 0;
    m3Result R = Player.Bodies(nullptr, 0, &Count);
    if (R != m3_success) return R;
    std::vector<m3ReplayBody> Raw(static_cast<size_t>(Count));
    R = Player.Bodies(Raw.data(), Count, &Count);
    if (R != m3_success) return R;
    Out.reserve(size_t(Count));
    for (int32_t I = 0; I < Count; ++I) {
        const m3ReplayBody& B = Raw[size_t(I)];
        FScrubBody S;
        S.Slot = B.id.index - 1;
        S.Id = B.id;
        S.Type = B.type;
        S.Position = Units::PositionToUnreal(B.position);
        S.Rotation = Units::QuatToUnreal(B.rotation);
        S.LinearVelocity = Units::VectorToUnreal(B.linearVelocity);
        S.AngularVelocity = Units::AngularVelocityToUnreal(B.angularVelocity);
        S.bSleeping = !B.awake;
        S.bEnabled = B.enabled;
        Out.push_back(S);
    }
    return m3_success;
}

}  // namespace Maul3DCore
