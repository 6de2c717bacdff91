// Unreal automation tests (Session Frontend > Automation, "Maul3D."), for those who have
// the engine: CI here does not compile the glue against Unreal. They drive the core's
// FWorldHost in Unreal units, as the subsystem does.
#include "CoreMinimal.h"
#include "Core/Maul3DBodyBuilder.h"
#include "Core/Maul3DScrubber.h"
#include "Core/Maul3DWorldHost.h"
#include "Misc/AutomationTest.h"

#include <vector>

#if WITH_DEV_AUTOMATION_TESTS

namespace {

// A 1 m ground box at z = -50 cm (top at 0) and a 20 cm box dropped from 100 cm.
bool MakeScene(Maul3DCore::FWorldHost& Host, m3BodyId* Falling)
{
    if (Host.Create(Maul3DCore::FWorldSettings{}) != m3_success) {
        return false;
    }
    Maul3DCore::FBodyDesc Ground;
    Ground.Type = m3_staticBody;
    Ground.Position = Maul3DCore::FVec3d{0.0, 0.0, -50.0};
    Ground.Boxes.push_back(Maul3DCore::FBoxElem{Maul3DCore::FTransformd{}, Maul3DCore::FVec3d{500.0, 500.0, 50.0}});
    Maul3DCore::FBodyDesc Box;
    Box.Position = Maul3DCore::FVec3d{0.0, 0.0, 100.0};
    Box.Boxes.push_back(Maul3DCore::FBoxElem{Maul3DCore::FTransformd{}, Maul3DCore::FVec3d{10.0, 10.0, 10.0}});
    Maul3DCore::FBuiltBody BuiltGround, BuiltBox;
    if (Maul3DCore::BuildBody(Host.Id(), Ground, &BuiltGround) != m3_success ||
        Maul3DCore::BuildBody(Host.Id(), Box, &BuiltBox) != m3_success) {
        return false;
    }
    *Falling = BuiltBox.Body;
    return true;
}

}  // namespace

IMPLEMENT_SIMPLE_AUTOMATION_TEST(FMaul3DBoxFallsAndRests, "Maul3D.BoxFallsAndRests",
                                 EAutomationTestFlags::EditorContext | EAutomationTestFlags::EngineFilter)
bool FMaul3DBoxFallsAndRests::RunTest(const FString& Parameters)
{
    (void)Parameters;
    Maul3DCore::FWorldHost Host;
    m3BodyId Box{};
    if (!TestTrue(TEXT("scene built"), MakeScene(Host, &Box))) {
        return false;
    }
    TestEqual(TEXT("300 steps"), static_cast<int32>(Host.Step(300)), static_cast<int32>(m3_success));
    Maul3DCore::FVec3d Position;
    Maul3DCore::FQuatd Rotation;
    TestEqual(TEXT("transform read"), static_cast<int32>(Host.GetTransform(Box, &Position, &Rotation)),
              static_cast<int32>(m3_success));
    // Resting on the ground: its centre one half extent (10 cm) above the top, within the
    // solver's slop.
    TestTrue(TEXT("rests on the ground"), Position.Z > 8.0 && Position.Z < 11.0);
    return true;
}

IMPLEMENT_SIMPLE_AUTOMATION_TEST(FMaul3DSnapshotContinuesEqual, "Maul3D.SnapshotRestoreContinuesEqual",
                                 EAutomationTestFlags::EditorContext | EAutomationTestFlags::EngineFilter)
bool FMaul3DSnapshotContinuesEqual::RunTest(const FString& Parameters)
{
    (void)Parameters;
    Maul3DCore::FWorldHost Host;
    m3BodyId Box{};
    if (!TestTrue(TEXT("scene built"), MakeScene(Host, &Box))) {
        return false;
    }
    Host.Step(20);
    std::vector<uint8_t> Snapshot;
    TestEqual(TEXT("snapshot"), static_cast<int32>(Host.Snapshot(Snapshot)), static_cast<int32>(m3_success));
    Host.Step(60);
    const uint64 Straight = Host.Hash();
    TestEqual(TEXT("restore"), static_cast<int32>(Host.Restore(Snapshot)), static_cast<int32>(m3_success));
    Host.Step(60);
    TestEqual(TEXT("restored world continues bit for bit"), Host.Hash(), Straight);
    return true;
}

IMPLEMENT_SIMPLE_AUTOMATION_TEST(FMaul3DRecordedReplayVerifies, "Maul3D.RecordedReplayVerifies",
                                 EAutomationTestFlags::EditorContext | EAutomationTestFlags::EngineFilter)
bool FMaul3DRecordedReplayVerifies::RunTest(const FString& Parameters)
{
    (void)Parameters;
    Maul3DCore::FWorldHost Host;
    m3BodyId Box{};
    if (!TestTrue(TEXT("scene built"), MakeScene(Host, &Box))) {
        return false;
    }
    TestEqual(TEXT("journal starts"), static_cast<int32>(Host.StartJournal()), static_cast<int32>(m3_success));
    Host.AddImpulse(Box, Maul3DCore::FVec3d{100.0, 0.0, 0.0});
    Host.Step(120);
    std::vector<uint8_t> Replay;
    TestEqual(TEXT("journal stops"), static_cast<int32>(Host.StopJournal(Replay)), static_cast<int32>(m3_success));
    Maul3DCore::FScrubber Scrubber;
    TestEqual(TEXT("replay opens"), static_cast<int32>(Scrubber.Open(Replay.data(), static_cast<int64>(Replay.size()))),
              static_cast<int32>(m3_success));
    Maul3DCore::FScrubVerify Verify;
    TestEqual(TEXT("verify runs"), static_cast<int32>(Scrubber.Verify(&Verify)), static_cast<int32>(m3_success));
    TestTrue(TEXT("replay verifies"), Verify.Verified());
    TestEqual(TEXT("replayed to the live world's hash"), Verify.Replayed, Host.Hash());
    return true;
}

#endif  // WITH_DEV_AUTOMATION_TESTS
