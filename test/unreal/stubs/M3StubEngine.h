// STUB for test/unreal/glue_check.sh — not Unreal's header (see README.md). The engine
// names the Maul3D runtime glue uses: subsystems, settings, components, collision data,
// tasks, console, debug draw, files, modules, automation tests.
#pragma once
#include "M3StubCore.h"
#include <functional>

class FSubsystemCollectionBase {};
class UWorldSubsystem : public UObject {
public:
    virtual void Initialize(FSubsystemCollectionBase&) {}
    virtual void Deinitialize() {}
    virtual bool ShouldCreateSubsystem(UObject*) const { return true; }
};
class UTickableWorldSubsystem : public UWorldSubsystem {
public:
    virtual void Tick(float) {}
    virtual TStatId GetStatId() const { return TStatId(); }
};
class UDeveloperSettings : public UObject {};
class UBlueprintFunctionLibrary : public UObject {};

class AActor;
class UWorld : public UObject {
public:
    template <typename T> T* GetSubsystem() const { return nullptr; }
};
namespace EEndPlayReason { enum Type : int32 { Destroyed, LevelTransition, EndPlayInEditor, RemovedFromWorld, Quit }; }
class UActorComponent : public UObject {
public:
    virtual void BeginPlay() {}
    virtual void EndPlay(EEndPlayReason::Type Reason) { (void)Reason; }
    AActor* GetOwner() const { return nullptr; }
    struct FPrimaryTick { bool bCanEverTick = false; } PrimaryComponentTick;
};
class USceneComponent : public UActorComponent {
public:
    FTransform GetComponentTransform() const { return FTransform(); }
    FTransform GetRelativeTransform() const { return FTransform(); }
    USceneComponent* GetAttachParent() const { return nullptr; }
    void SetWorldLocationAndRotation(const FVector&, const FQuat&) {}
    void SetRelativeLocationAndRotation(const FVector&, const FQuat&) {}
};
class UPrimitiveComponent : public USceneComponent {};
class UBoxComponent : public UPrimitiveComponent {
public:
    FVector GetUnscaledBoxExtent() const { return FVector(); }
};
class USphereComponent : public UPrimitiveComponent {
public:
    float GetUnscaledSphereRadius() const { return 0; }
};
class UCapsuleComponent : public UPrimitiveComponent {
public:
    float GetUnscaledCapsuleHalfHeight() const { return 0; }
    float GetUnscaledCapsuleRadius() const { return 0; }
};
struct FKShapeElem {
    FTransform GetTransform() const { return FTransform(); }
};
struct FKBoxElem : FKShapeElem { FVector Center; FRotator Rotation; double X = 0, Y = 0, Z = 0; };
struct FKSphereElem : FKShapeElem { FVector Center; double Radius = 0; };
struct FKSphylElem : FKShapeElem { FVector Center; FRotator Rotation; double Radius = 0, Length = 0; };
struct FKConvexElem : FKShapeElem { TArray<FVector> VertexData; };
struct FKAggregateGeom {
    TArray<FKBoxElem> BoxElems;
    TArray<FKSphereElem> SphereElems;
    TArray<FKSphylElem> SphylElems;
    TArray<FKConvexElem> ConvexElems;
};
class UBodySetup : public UObject {
public:
    FKAggregateGeom AggGeom;
};
struct FTriIndices { int32 v0 = 0, v1 = 0, v2 = 0; };
struct FTriMeshCollisionData {
    TArray<FVector3f> Vertices;
    TArray<FTriIndices> Indices;
};
class UStaticMesh : public UObject {
public:
    UBodySetup* GetBodySetup() const { return nullptr; }
    bool GetPhysicsTriMeshData(FTriMeshCollisionData*, bool) { return false; }
};
class UStaticMeshComponent : public UPrimitiveComponent {
public:
    UStaticMesh* GetStaticMesh() const { return nullptr; }
};
class AActor : public UObject {
public:
    USceneComponent* GetRootComponent() const { return nullptr; }
    template <typename T> void GetComponents(TArray<T*>&) const {}
    template <typename T> T* FindComponentByClass() const { return nullptr; }
};

// Tasks.
namespace UE::Tasks {
class FTask {
public:
    bool Wait() const { return true; }
};
template <typename F> FTask Launch(const TCHAR*, F&&) { return FTask(); }
inline bool Wait(const TArray<FTask>&) { return true; }
}  // namespace UE::Tasks

// Console commands.
struct IConsoleObject {};
struct FConsoleCommandWithWorldAndArgsDelegate {
    static FConsoleCommandWithWorldAndArgsDelegate CreateStatic(void (*)(const TArray<FString>&, UWorld*)) { return {}; }
};
class FAutoConsoleCommandWithWorldAndArgs {
public:
    FAutoConsoleCommandWithWorldAndArgs(const TCHAR*, const TCHAR*, const FConsoleCommandWithWorldAndArgsDelegate&) {}
};

// Debug draw.
inline void DrawDebugLine(const UWorld*, const FVector&, const FVector&, const FColor&, bool = false, float = -1.f, uint8 = 0, float = 0.f) {}
inline void DrawDebugPoint(const UWorld*, const FVector&, float, const FColor&, bool = false, float = -1.f, uint8 = 0) {}
inline void DrawDebugSphere(const UWorld*, const FVector&, float, int32, const FColor&, bool = false, float = -1.f, uint8 = 0, float = 0.f) {}
inline void DrawDebugBox(const UWorld*, const FVector&, const FVector&, const FQuat&, const FColor&, bool = false, float = -1.f, uint8 = 0, float = 0.f) {}
inline void FlushPersistentDebugLines(const UWorld*) {}

// Files.
struct FPaths {
    static FString ProjectSavedDir() { return FString(); }
    static FString GetPath(const FString&) { return FString(); }
};
struct FFileHelper {
    static bool SaveArrayToFile(const TArray<uint8>&, const TCHAR*) { return true; }
    static bool LoadFileToArray(TArray<uint8>&, const TCHAR*) { return true; }
};
class IFileManager {
public:
    static IFileManager& Get() { static IFileManager m; return m; }
    bool MakeDirectory(const TCHAR*, bool = false) { return true; }
};
struct FDateTime {
    static FDateTime Now() { return {}; }
    FString ToString() const { return FString(); }
};

// Modules.
class IModuleInterface {
public:
    virtual ~IModuleInterface() = default;
    virtual void StartupModule() {}
    virtual void ShutdownModule() {}
};
class FDefaultModuleImpl : public IModuleInterface {};
#define IMPLEMENT_MODULE(Impl, Name) \
    IModuleInterface* InitializeModule##Name() { return new Impl(); }

// Automation tests.
namespace EAutomationTestFlags { enum Type : uint32 { EditorContext = 1, ClientContext = 2, EngineFilter = 4, ProductFilter = 8 }; }
class FAutomationTestBase {
public:
    virtual ~FAutomationTestBase() = default;
    bool TestTrue(const TCHAR*, bool v) { return v; }
    bool TestFalse(const TCHAR*, bool v) { return !v; }
    template <typename A, typename B> bool TestEqual(const TCHAR*, const A& a, const B& b) { return a == b; }
    void AddError(const FString&) {}
    void AddInfo(const FString&) {}
};
#define IMPLEMENT_SIMPLE_AUTOMATION_TEST(Class, PrettyName, Flags) \
    class Class : public FAutomationTestBase {                     \
    public:                                                        \
        bool RunTest(const FString& Parameters);                   \
    };
