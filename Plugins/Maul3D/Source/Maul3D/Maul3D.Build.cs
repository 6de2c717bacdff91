// The Maul3D runtime module: the engine-free core (Public/Core, Private/Core) and the UE
// glue that forwards to it. The library itself comes from the ThirdParty module
// Maul3DLibrary (headers and the per-platform static library).
using UnrealBuildTool;

public class Maul3D : ModuleRules
{
	public Maul3D(ReadOnlyTargetRules Target) : base(Target)
	{
		PCHUsage = PCHUsageMode.UseExplicitOrSharedPCHs;
		CppStandard = CppStandardVersion.Cpp20;
		// The core and the C++ layer over maul3d.h run without exceptions or RTTI.
		bEnableExceptions = false;
		bUseRTTI = false;

		PublicIncludePaths.Add(System.IO.Path.Combine(ModuleDirectory, "Public"));
		PublicIncludePaths.Add(System.IO.Path.Combine(ModuleDirectory, "Public", "Core"));

		PublicDependencyModuleNames.AddRange(new string[]
		{
			"Core",
			"CoreUObject",
			"Engine",
			"DeveloperSettings",
			"PhysicsCore",
			"Maul3DLibrary",
		});
	}
}
