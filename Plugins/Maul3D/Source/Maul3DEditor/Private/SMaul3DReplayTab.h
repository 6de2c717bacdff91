// The "Maul3D Replay" tab: a view over the core's FScrubber (open, seek, play, verify,
// diff, bodies). All replay logic is the scrubber's (and the library's player).
#pragma once

#include "CoreMinimal.h"
#include "Core/Maul3DScrubber.h"
#include "Widgets/SCompoundWidget.h"
#include "Widgets/Views/SListView.h"

struct FMaul3DReplayRow {
    Maul3DCore::FScrubBody Body;
    bool bDiff = false;
    Maul3DCore::FScrubDiffRow Diff;
};
using FMaul3DReplayRowPtr = TSharedPtr<FMaul3DReplayRow>;

class SMaul3DReplayTab : public SCompoundWidget {
public:
    SLATE_BEGIN_ARGS(SMaul3DReplayTab) {}
    SLATE_END_ARGS()

    void Construct(const FArguments& InArgs);
    virtual void Tick(const FGeometry& Geometry, const double CurrentTime, const float DeltaTime) override;

private:
    FReply OnOpen();
    FReply OnOpenDiff();
    FReply OnPlayPause();
    FReply OnStepBack();
    FReply OnStepForward();
    FReply OnVerify();
    void OnSliderChanged(float Value);
    void OnSpeedChanged(float Value);
    void OnGoToCommitted(const FText& Text, ETextCommit::Type Commit);
    void OnRowSelected(FMaul3DReplayRowPtr Row, ESelectInfo::Type Info);
    TSharedRef<ITableRow> OnGenerateRow(FMaul3DReplayRowPtr Row, const TSharedRef<STableViewBase>& Owner);
    float GetSliderValue() const;
    FText GetStepText() const;
    FText GetStatusText() const;

    bool LoadFile(const FString& Title, TArray<uint8>& Bytes) const;
    void Refresh();
    void Seek(uint64 Step);

    Maul3DCore::FScrubber Scrubber;
    Maul3DCore::FScrubber Other;
    TArray<FMaul3DReplayRowPtr> Rows;
    TSharedPtr<SListView<FMaul3DReplayRowPtr>> List;
    FString Status;
    float Speed = 1.f;
};
