// STUB for test/unreal/glue_check.sh — not Unreal's header (see README.md). The Slate and
// editor names the Maul3D replay tab uses. Widget arguments accept any value (they are
// not checked against Slate's); events and bound getters are typed, so a handler with the
// wrong signature fails to compile.
#pragma once
#include "M3StubEngine.h"

class FReply { public: static FReply Handled() { return FReply(); } };
struct FGeometry {};
namespace ESelectInfo { enum Type { OnKeyPress, OnNavigation, OnMouseClick, Direct }; }
namespace ETabRole { enum Type { MajorTab, PanelTab, NomadTab }; }

class SWidget : public std::enable_shared_from_this<SWidget> {
public:
    virtual ~SWidget() = default;
    virtual void Tick(const FGeometry&, const double, const float) {}
};
template <class W> struct TSlateArgs {
    template <class V> W& Any(V&&) { return static_cast<W&>(*this); }
};
#define M3_ARG(Name) template <class... V> FArguments& Name(V&&...) { return *this; }
#define M3_CHILD FArguments& operator[](TSharedRef<SWidget>) { return *this; }
#define SLATE_BEGIN_ARGS(W) public: struct FArguments { FArguments()
#define SLATE_END_ARGS() };
template <class W> struct TDecl {
    template <class... R> explicit TDecl(R&&...) {}
    TSharedRef<W> operator<<=(const typename W::FArguments&) const { return std::make_shared<W>(); }
};
template <class W> struct TAssignDecl {
    TSharedPtr<W>* Out;
    TSharedRef<W> operator<<=(const typename W::FArguments&) const { auto P = std::make_shared<W>(); *Out = P; return P; }
};
#define SNew(W, ...) TDecl<W>(__VA_ARGS__) <<= W::FArguments()
#define SAssignNew(Ptr, W, ...) TAssignDecl<W>{&Ptr} <<= W::FArguments()

struct FSlotStub {
    FSlotStub& AutoHeight() { return *this; }
    FSlotStub& AutoWidth() { return *this; }
    FSlotStub& FillHeight(float) { return *this; }
    FSlotStub& operator[](TSharedRef<SWidget>) { return *this; }
};
class SCompoundWidget : public SWidget {
public:
    struct FChildSlot { FChildSlot& operator[](TSharedRef<SWidget>) { return *this; } } ChildSlot;
};
class SVerticalBox : public SWidget {
public:
    static FSlotStub Slot() { return FSlotStub(); }
    struct FArguments { FArguments& operator+(FSlotStub&) { return *this; } };
};
class SHorizontalBox : public SWidget {
public:
    static FSlotStub Slot() { return FSlotStub(); }
    struct FArguments { FArguments& operator+(FSlotStub&) { return *this; } };
};
class STextBlock : public SWidget {
public:
    struct FArguments {
        FArguments& Text(const FText&) { return *this; }
        template <class U> FArguments& Text(U*, FText (U::*)() const) { return *this; }
    };
};
class SButton : public SWidget {
public:
    struct FArguments {
        M3_ARG(Text)
        template <class U> FArguments& OnClicked(U*, FReply (U::*)()) { return *this; }
    };
};
class SSlider : public SWidget {
public:
    struct FArguments {
        template <class U> FArguments& Value(U*, float (U::*)() const) { return *this; }
        template <class U> FArguments& OnValueChanged(U*, void (U::*)(float)) { return *this; }
    };
};
template <class T> class SSpinBox : public SWidget {
public:
    struct FArguments {
        M3_ARG(MinValue) M3_ARG(MaxValue) M3_ARG(Value)
        template <class U> FArguments& OnValueChanged(U*, void (U::*)(T)) { return *this; }
    };
};
class SEditableTextBox : public SWidget {
public:
    struct FArguments {
        M3_ARG(HintText)
        template <class U> FArguments& OnTextCommitted(U*, void (U::*)(const FText&, ETextCommit::Type)) { return *this; }
    };
};
class SHeaderRow : public SWidget {
public:
    struct FColumn { FColumn& DefaultLabel(const FText&) { return *this; } };
    static FColumn Column(const FName&) { return FColumn(); }
    struct FArguments { FArguments& operator+(FColumn&) { return *this; } };
};
class ITableRow {
public:
    virtual ~ITableRow() = default;
};
class STableViewBase : public SWidget {};
template <class Item> class SListView : public STableViewBase {
public:
    struct FArguments {
        FArguments& ListItemsSource(const TArray<Item>*) { return *this; }
        template <class U> FArguments& OnGenerateRow(U*, TSharedRef<ITableRow> (U::*)(Item, const TSharedRef<STableViewBase>&)) { return *this; }
        template <class U> FArguments& OnSelectionChanged(U*, void (U::*)(Item, ESelectInfo::Type)) { return *this; }
        FArguments& HeaderRow(TSharedRef<SHeaderRow>) { return *this; }
    };
    void RequestListRefresh() {}
};
template <class Item> class SMultiColumnTableRow : public SWidget, public ITableRow {
public:
    using FSuperRowType = SMultiColumnTableRow<Item>;
    struct FArguments {};
    void Construct(const FArguments&, const TSharedRef<STableViewBase>&) {}
    virtual TSharedRef<SWidget> GenerateWidgetForColumn(const FName&) = 0;
};
class SDockTab : public SWidget {
public:
    struct FArguments {
        FArguments& TabRole(ETabRole::Type) { return *this; }
        FArguments& operator[](TSharedRef<SWidget>) { return *this; }
    };
};

// Tabs and menus.
struct FSpawnTabArgs {};
struct FOnSpawnTab {
    static FOnSpawnTab CreateStatic(TSharedRef<SDockTab> (*)(const FSpawnTabArgs&)) { return {}; }
};
struct FWorkspaceItem {};
struct FTabSpawnerEntry {
    FTabSpawnerEntry& SetDisplayName(const FText&) { return *this; }
    FTabSpawnerEntry& SetGroup(TSharedRef<FWorkspaceItem>) { return *this; }
};
class FGlobalTabmanager {
public:
    static TSharedRef<FGlobalTabmanager> Get() { static auto M = std::make_shared<FGlobalTabmanager>(); return M; }
    FTabSpawnerEntry& RegisterNomadTabSpawner(const FName&, const FOnSpawnTab&) { static FTabSpawnerEntry E; return E; }
    bool UnregisterNomadTabSpawner(const FName&) { return true; }
};
struct IWorkspaceMenuStructure {
    TSharedRef<FWorkspaceItem> GetLevelEditorCategory() const { return std::make_shared<FWorkspaceItem>(); }
};
namespace WorkspaceMenu { inline const IWorkspaceMenuStructure& GetMenuStructure() { static IWorkspaceMenuStructure S; return S; } }

// Editor.
class IDesktopPlatform {
public:
    bool OpenFileDialog(const void*, const FString&, const FString&, const FString&, const FString&, uint32, TArray<FString>&) { return false; }
};
struct FDesktopPlatformModule { static IDesktopPlatform* Get() { return nullptr; } };
struct FWorldContext { UWorld* World() const { return nullptr; } };
class UEditorEngine {
public:
    FWorldContext& GetEditorWorldContext() { static FWorldContext C; return C; }
    void MoveViewportCamerasToBox(const FBox&, bool) const {}
};
extern UEditorEngine* GEditor;
