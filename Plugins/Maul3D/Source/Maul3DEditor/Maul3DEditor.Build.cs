// The Maul3D editor module: the "Maul3D Replay" nomad tab over the core's Scrubber.
using UnrealBuildTool;

public class Maul3DEditor : ModuleRules
{
	public Maul3DEditor(ReadOnlyTargetRules Target) : base(Target)
	{
		PCHUsage = PCHUsageMode.UseExplicitOrSharedPCHs;
		CppStandard = CppStandardVersion.Cpp20;
		bEnableExceptions = false;
		bUseRTTI = false;

		PrivateDependencyModuleNames.AddRange(new string[]
		{
			"Core",
			"CoreUObject",
			"Engine",
			"Slate",
			"SlateCore",
			"InputCore",
			"UnrealEd",
			"LevelEditor",
			"ToolMenus",
			"DesktopPlatform",
			"WorkspaceMenuStructure",
			"Maul3D",
			"Maul3DLibrary",
		});
	}
}
