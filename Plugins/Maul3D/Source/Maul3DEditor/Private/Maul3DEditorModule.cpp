// The editor module: registers the "Maul3D Replay" nomad tab (Window menu).
#include "CoreMinimal.h"
#include "Framework/Docking/TabManager.h"
#include "Modules/ModuleManager.h"
#include "SMaul3DReplayTab.h"
#include "Widgets/Docking/SDockTab.h"
#include "WorkspaceMenuStructure.h"
#include "WorkspaceMenuStructureModule.h"

static const FName Maul3DReplayTabName(TEXT("Maul3DReplay"));

class FMaul3DEditorModule : public IModuleInterface {
public:
    virtual void StartupModule() override
    {
        FGlobalTabmanager::Get()
            ->RegisterNomadTabSpawner(Maul3DReplayTabName, FOnSpawnTab::CreateStatic(&FMaul3DEditorModule::SpawnTab))
            .SetDisplayName(NSLOCTEXT("Maul3D", "ReplayTab", "Maul3D Replay"))
            .SetGroup(WorkspaceMenu::GetMenuStructure().GetLevelEditorCategory());
    }

    virtual void ShutdownModule() override { FGlobalTabmanager::Get()->UnregisterNomadTabSpawner(Maul3DReplayTabName); }

private:
    static TSharedRef<SDockTab> SpawnTab(const FSpawnTabArgs& Args)
    {
        (void)Args;
        return SNew(SDockTab).TabRole(ETabRole::NomadTab)[SNew(SMaul3DReplayTab)];
    }
};

IMPLEMENT_MODULE(FMaul3DEditorModule, Maul3DEditor)
