#include "SMaul3DReplayTab.h"

#include "DesktopPlatformModule.h"
#include "Editor.h"
#include "Maul3DConvert.h"
#include "Maul3DDebugDraw.h"
#include "Misc/FileHelper.h"
#include "Widgets/Input/SButton.h"
#include "Widgets/Input/SEditableTextBox.h"
#include "Widgets/Input/SSlider.h"
#include "Widgets/Input/SSpinBox.h"
#include "Widgets/SBoxPanel.h"
#include "Widgets/Text/STextBlock.h"
#include "Widgets/Views/STableRow.h"

#include <vector>

#define LOCTEXT_NAMESPACE "Maul3DReplay"

namespace {

FText Vec(const Maul3DCore::FVec3d& V)
{
    return FText::FromString(FString::Printf(TEXT("(%.1f, %.1f, %.1f)"), V.X, V.Y, V.Z));
}

class SMaul3DReplayRow : public SMultiColumnTableRow<FMaul3DReplayRowPtr> {
public:
    SLATE_BEGIN_ARGS(SMaul3DReplayRow) {}
    SLATE_END_ARGS()

    void Construct(const FArguments& InArgs, const TSharedRef<STableViewBase>& Owner, FMaul3DReplayRowPtr InRow)
    {
        (void)InArgs;
        Row = InRow;
        SMultiColumnTableRow<FMaul3DReplayRowPtr>::Construct(FSuperRowType::FArguments(), Owner);
    }

    virtual TSharedRef<SWidget> GenerateWidgetForColumn(const FName& Column) override
    {
        const Maul3DCore::FScrubBody& B = Row->Body;
        FText Text;
        if (Column == FName(TEXT("Slot"))) {
            Text = FText::AsNumber(Row->bDiff ? Row->Diff.Slot : B.Slot);
        } else if (Column == FName(TEXT("Type"))) {
            Text = FText::AsNumber(B.Type);
        } else if (Column == FName(TEXT("Position"))) {
            Text = Row->bDiff ? FText::FromString(FString::Printf(TEXT("diff %.3f cm"), Row->Diff.PositionErrorCm))
                              : Vec(B.Position);
        } else if (Column == FName(TEXT("Rotation"))) {
            Text = FText::FromString(FString::Printf(TEXT("(%.3f, %.3f, %.3f, %.3f)"), B.Rotation.X, B.Rotation.Y,
                                                     B.Rotation.Z, B.Rotation.W));
        } else if (Column == FName(TEXT("Linear"))) {
            Text = Vec(B.LinearVelocity);
        } else if (Column == FName(TEXT("Angular"))) {
            Text = Vec(B.AngularVelocity);
        } else {
            Text = FText::FromString(B.bSleeping ? TEXT("yes") : TEXT("no"));
        }
        return SNew(STextBlock).Text(Text);
    }

private:
    FMaul3DReplayRowPtr Row;
};

}  // namespace

void SMaul3DReplayTab::Construct(const FArguments& InArgs)
{
    (void)InArgs;
    ChildSlot
    [
        SNew(SVerticalBox)
        + SVerticalBox::Slot().AutoHeight()
        [
            SNew(SHorizontalBox)
            + SHorizontalBox::Slot().AutoWidth()[SNew(SButton).Text(LOCTEXT("Open", "Open...")).OnClicked(this, &SMaul3DReplayTab::OnOpen)]
            + SHorizontalBox::Slot().AutoWidth()[SNew(SButton).Text(LOCTEXT("Back", "-1")).OnClicked(this, &SMaul3DReplayTab::OnStepBack)]
            + SHorizontalBox::Slot().AutoWidth()[SNew(SButton).Text(LOCTEXT("Play", "Play/Pause")).OnClicked(this, &SMaul3DReplayTab::OnPlayPause)]
            + SHorizontalBox::Slot().AutoWidth()[SNew(SButton).Text(LOCTEXT("Fwd", "+1")).OnClicked(this, &SMaul3DReplayTab::OnStepForward)]
            + SHorizontalBox::Slot().AutoWidth()[SNew(SSpinBox<float>).MinValue(0.05f).MaxValue(64.f).Value(1.f).OnValueChanged(this, &SMaul3DReplayTab::OnSpeedChanged)]
            + SHorizontalBox::Slot().AutoWidth()[SNew(SEditableTextBox).HintText(LOCTEXT("GoTo", "go to step")).OnTextCommitted(this, &SMaul3DReplayTab::OnGoToCommitted)]
            + SHorizontalBox::Slot().AutoWidth()[SNew(SButton).Text(LOCTEXT("Verify", "Verify")).OnClicked(this, &SMaul3DReplayTab::OnVerify)]
            + SHorizontalBox::Slot().AutoWidth()[SNew(SButton).Text(LOCTEXT("Diff", "Diff...")).OnClicked(this, &SMaul3DReplayTab::OnOpenDiff)]
        ]
        + SVerticalBox::Slot().AutoHeight()
        [
            SNew(SSlider).Value(this, &SMaul3DReplayTab::GetSliderValue).OnValueChanged(this, &SMaul3DReplayTab::OnSliderChanged)
        ]
        + SVerticalBox::Slot().AutoHeight()[SNew(STextBlock).Text(this, &SMaul3DReplayTab::GetStepText)]
        + SVerticalBox::Slot().AutoHeight()[SNew(STextBlock).Text(this, &SMaul3DReplayTab::GetStatusText)]
        + SVerticalBox::Slot().FillHeight(1.f)
        [
            SAssignNew(List, SListView<FMaul3DReplayRowPtr>)
            .ListItemsSource(&Rows)
            .OnGenerateRow(this, &SMaul3DReplayTab::OnGenerateRow)
            .OnSelectionChanged(this, &SMaul3DReplayTab::OnRowSelected)
            .HeaderRow(SNew(SHeaderRow)
                + SHeaderRow::Column(TEXT("Slot")).DefaultLabel(LOCTEXT("Slot", "Slot"))
                + SHeaderRow::Column(TEXT("Type")).DefaultLabel(LOCTEXT("Type", "Type"))
                + SHeaderRow::Column(TEXT("Position")).DefaultLabel(LOCTEXT("Position", "Position (cm)"))
                + SHeaderRow::Column(TEXT("Rotation")).DefaultLabel(LOCTEXT("Rotation", "Rotation"))
                + SHeaderRow::Column(TEXT("Linear")).DefaultLabel(LOCTEXT("Linear", "Linear (cm/s)"))
                + SHeaderRow::Column(TEXT("Angular")).DefaultLabel(LOCTEXT("Angular", "Angular (rad/s)"))
                + SHeaderRow::Column(TEXT("Sleeping")).DefaultLabel(LOCTEXT("Sleeping", "Sleeping")))
        ]
    ];
}

void SMaul3DReplayTab::Tick(const FGeometry& Geometry, const double CurrentTime, const float DeltaTime)
{
    SCompoundWidget::Tick(Geometry, CurrentTime, DeltaTime);
    if (!Scrubber.IsOpen()) {
        return;
    }
    const uint64 Before = Scrubber.CurrentStep();
    // The scrubber plays and indexes keyframes ahead (a little per tick).
    Scrubber.Tick(static_cast<int64>(static_cast<double>(DeltaTime) * 1e9));
    if (Scrubber.CurrentStep() != Before) {
        Refresh();
    }
    if (GEditor != nullptr) {
        if (UWorld* World = GEditor->GetEditorWorldContext().World()) {
            Scrubber.Draw(Maul3DGlue::MakeEngineDebugDraw(World));
        }
    }
}

bool SMaul3DReplayTab::LoadFile(const FString& Title, TArray<uint8>& Bytes) const
{
    IDesktopPlatform* Platform = FDesktopPlatformModule::Get();
    TArray<FString> Files;
    if (Platform == nullptr ||
        !Platform->OpenFileDialog(nullptr, Title, FPaths::ProjectSavedDir(), FString(),
                                  TEXT("Maul3D replay (*.m3replay)|*.m3replay"), 0, Files) ||
        Files.Num() == 0) {
        return false;
    }
    return FFileHelper::LoadFileToArray(Bytes, *Files[0]);
}

FReply SMaul3DReplayTab::OnOpen()
{
    TArray<uint8> Bytes;
    if (LoadFile(TEXT("Open a Maul3D replay"), Bytes)) {
        const m3Result Result = Scrubber.Open(Bytes.GetData(), Bytes.Num());
        Status = Result == m3_success ? FString(TEXT("opened")) : FString(m3GetLastErrorMessage());
        Refresh();
    }
    return FReply::Handled();
}

FReply SMaul3DReplayTab::OnOpenDiff()
{
    TArray<uint8> Bytes;
    if (!Scrubber.IsOpen() || !LoadFile(TEXT("Diff against a second replay"), Bytes) ||
        Other.Open(Bytes.GetData(), Bytes.Num()) != m3_success) {
        return FReply::Handled();
    }
    Maul3DCore::FScrubDiff Diff;
    if (Scrubber.Diff(Other, 64, &Diff) != m3_success) {
        Status = FString(m3GetLastErrorMessage());
        return FReply::Handled();
    }
    Status = Diff.Kind == m3_replaysAgree
                 ? FString(TEXT("the replays agree"))
                 : FString::Printf(TEXT("they part at step %llu: %d bodies differ"),
                                   static_cast<unsigned long long>(Diff.Step), Diff.Differing);
    Refresh();
    Rows.Reset();
    for (const Maul3DCore::FScrubDiffRow& DiffRow : Diff.Rows) {
        FMaul3DReplayRowPtr Row = MakeShared<FMaul3DReplayRow>();
        Row->bDiff = true;
        Row->Diff = DiffRow;
        Rows.Add(Row);
    }
    if (List) {
        List->RequestListRefresh();
    }
    return FReply::Handled();
}

FReply SMaul3DReplayTab::OnPlayPause()
{
    Scrubber.SetPlaying(!Scrubber.IsPlaying());
    return FReply::Handled();
}

FReply SMaul3DReplayTab::OnStepBack()
{
    Scrubber.StepBack();
    Refresh();
    return FReply::Handled();
}

FReply SMaul3DReplayTab::OnStepForward()
{
    Scrubber.StepForward();
    Refresh();
    return FReply::Handled();
}

FReply SMaul3DReplayTab::OnVerify()
{
    Maul3DCore::FScrubVerify Verify;
    if (Scrubber.Verify(&Verify) == m3_success) {
        Status = FString::Printf(TEXT("%s: recorded %016llx, replayed %016llx"),
                                 Verify.Verified() ? TEXT("verified") : TEXT("MISMATCH"),
                                 static_cast<unsigned long long>(Verify.Recorded),
                                 static_cast<unsigned long long>(Verify.Replayed));
    } else {
        Status = FString(m3GetLastErrorMessage());
    }
    Refresh();
    return FReply::Handled();
}

void SMaul3DReplayTab::Seek(uint64 Step)
{
    if (Scrubber.Seek(Step) != m3_success) {
        Status = FString(m3GetLastErrorMessage());
    }
    Refresh();
}

void SMaul3DReplayTab::OnSliderChanged(float Value)
{
    // The slider's [0, 1] to a step: UI only, never simulation input.
    Seek(static_cast<uint64>(static_cast<double>(Value) * static_cast<double>(Scrubber.StepCount()) + 0.5));
}

void SMaul3DReplayTab::OnSpeedChanged(float Value)
{
    Speed = Value;
    Scrubber.SetPlayback(60, Speed);
}

void SMaul3DReplayTab::OnGoToCommitted(const FText& Text, ETextCommit::Type Commit)
{
    if (Commit == ETextCommit::OnEnter) {
        Seek(static_cast<uint64>(FCString::Atoi64(*Text.ToString())));
    }
}

void SMaul3DReplayTab::OnRowSelected(FMaul3DReplayRowPtr Row, ESelectInfo::Type Info)
{
    (void)Info;
    if (!Row || GEditor == nullptr) {
        return;
    }
    // Frames the selected body: a 2 m box around its position at the current step.
    std::vector<Maul3DCore::FScrubBody> Bodies;
    Scrubber.Bodies(Bodies);
    const uint32 Slot = Row->bDiff ? Row->Diff.Slot : Row->Body.Slot;
    for (const Maul3DCore::FScrubBody& Body : Bodies) {
        if (Body.Slot == Slot) {
            const FVector Center = Maul3DGlue::ToUE(Body.Position);
            GEditor->MoveViewportCamerasToBox(FBox(Center - FVector(100, 100, 100), Center + FVector(100, 100, 100)), true);
        }
    }
}

TSharedRef<ITableRow> SMaul3DReplayTab::OnGenerateRow(FMaul3DReplayRowPtr Row, const TSharedRef<STableViewBase>& Owner)
{
    return SNew(SMaul3DReplayRow, Owner, Row);
}

float SMaul3DReplayTab::GetSliderValue() const
{
    const uint64 Steps = Scrubber.StepCount();
    return Steps == 0 ? 0.f : static_cast<float>(static_cast<double>(Scrubber.CurrentStep()) / static_cast<double>(Steps));
}

FText SMaul3DReplayTab::GetStepText() const
{
    return FText::FromString(FString::Printf(TEXT("step %llu / %llu, hash %016llx, last seek %llu steps"),
                                             static_cast<unsigned long long>(Scrubber.CurrentStep()),
                                             static_cast<unsigned long long>(Scrubber.StepCount()),
                                             static_cast<unsigned long long>(Scrubber.Hash()),
                                             static_cast<unsigned long long>(Scrubber.LastSeekSteps())));
}

FText SMaul3DReplayTab::GetStatusText() const { return FText::FromString(Status); }

void SMaul3DReplayTab::Refresh()
{
    Rows.Reset();
    std::vector<Maul3DCore::FScrubBody> Bodies;
    if (Scrubber.IsOpen() && Scrubber.Bodies(Bodies) == m3_success) {
        for (const Maul3DCore::FScrubBody& Body : Bodies) {
            FMaul3DReplayRowPtr Row = MakeShared<FMaul3DReplayRow>();
            Row->Body = Body;
            Rows.Add(Row);
        }
    }
    if (List) {
        List->RequestListRefresh();
    }
}

#undef LOCTEXT_NAMESPACE
