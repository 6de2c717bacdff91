#include "Maul3DBodyComponent.h"

#include "Components/BoxComponent.h"
#include "Components/CapsuleComponent.h"
#include "Components/SphereComponent.h"
#include "Components/StaticMeshComponent.h"
#include "Engine/StaticMesh.h"
#include "Engine/World.h"
#include "GameFramework/Actor.h"
#include "Interface_CollisionDataProvider.h"
#include "Maul3DConvert.h"
#include "Maul3DLog.h"
#include "Maul3DWaterVolumeComponent.h"
#include "Maul3DWorldSubsystem.h"
#include "PhysicsEngine/AggregateGeom.h"
#include "PhysicsEngine/BodySetup.h"

using Maul3DGlue::ToCore;

namespace {

// A component's transform relative to the body (the actor's root): identity (with the
// root's scale) for the root itself; else its relative transform composed up the attach
// chain to the root by the library (Units::Compose: no float maths here). A component
// whose chain does not reach the root is skipped.
bool LocalOf(const USceneComponent* Component, const USceneComponent* Root, Maul3DCore::FTransformd& Out)
{
    if (Component == Root) {
        Out = Maul3DCore::FTransformd{};
        Out.Scale = ToCore(Component->GetComponentTransform().GetScale3D());
        return true;
    }
    Maul3DCore::FTransformd Local = ToCore(Component->GetRelativeTransform());
    for (const USceneComponent* Parent = Component->GetAttachParent(); Parent != Root;
         Parent = Parent->GetAttachParent()) {
        if (Parent == nullptr) {
            UE_LOG(LogMaul3D, Warning, TEXT("Maul3D: a collision component not under the actor's root is skipped"));
            return false;
        }
        if (Maul3DCore::Units::Compose(Local, ToCore(Parent->GetRelativeTransform()), &Local) != m3_success) {
            UE_LOG(LogMaul3D, Warning, TEXT("Maul3D: a collision component's transform is refused: %hs"),
                   m3GetLastErrorMessage());
            return false;
        }
    }
    Out = Local;
    return true;
}

m3BodyType ToBodyType(EMaul3DBodyType Type)
{
    switch (Type) {
    case EMaul3DBodyType::Static: return m3_staticBody;
    case EMaul3DBodyType::Kinematic: return m3_kinematicBody;
    default: return m3_dynamicBody;
    }
}

// A static mesh's simple collision, each element at its own transform in the mesh,
// composed with the mesh component's transform in the body by the library
// (Units::Compose), so an element's offset scales and turns with the component.
// FKBoxElem keeps full lengths and FKSphylElem its cylinder length: they pass as they are
// and the library derives half extents and half heights (no maths here).
// An element's transform in the body; false (logged) when the library refuses it.
bool Place(const FTransform& Element, const Maul3DCore::FTransformd& ComponentLocal, Maul3DCore::FTransformd& Out)
{
    if (Maul3DCore::Units::Compose(ToCore(Element), ComponentLocal, &Out) == m3_success) {
        return true;
    }
    UE_LOG(LogMaul3D, Warning, TEXT("Maul3D: a collision element's transform is refused: %hs"), m3GetLastErrorMessage());
    return false;
}

void AddMeshSimpleCollision(const FKAggregateGeom& Geom, const Maul3DCore::FTransformd& ComponentLocal,
                            Maul3DCore::FBodyDesc& Desc)
{
    for (const FKBoxElem& Box : Geom.BoxElems) {
        Maul3DCore::FBoxElem Elem;
        if (!Place(Box.GetTransform(), ComponentLocal, Elem.Local)) continue;
        Elem.Size = Maul3DCore::FVec3d{Box.X, Box.Y, Box.Z};
        Desc.Boxes.push_back(Elem);
    }
    for (const FKSphereElem& Sphere : Geom.SphereElems) {
        Maul3DCore::FSphereElem Elem;
        if (!Place(Sphere.GetTransform(), ComponentLocal, Elem.Local)) continue;
        Elem.Radius = Sphere.Radius;
        Desc.Spheres.push_back(Elem);
    }
    for (const FKSphylElem& Sphyl : Geom.SphylElems) {
        Maul3DCore::FCapsuleElem Elem;
        if (!Place(Sphyl.GetTransform(), ComponentLocal, Elem.Local)) continue;
        Elem.Radius = Sphyl.Radius;
        Elem.CylinderLength = Sphyl.Length;
        Desc.Capsules.push_back(Elem);
    }
    for (const FKConvexElem& Convex : Geom.ConvexElems) {
        Maul3DCore::FConvexElem Elem;
        if (!Place(Convex.GetTransform(), ComponentLocal, Elem.Local)) continue;
        for (const FVector& Point : Convex.VertexData) {
            Elem.Points.push_back(ToCore(Point));
        }
        Desc.Convexes.push_back(Elem);
    }
}

}  // namespace

bool UMaul3DBodyComponent::ExtractDesc(Maul3DCore::FBodyDesc& Desc) const
{
    const AActor* Owner = GetOwner();
    const USceneComponent* Root = Owner ? Owner->GetRootComponent() : nullptr;
    if (Root == nullptr) {
        return false;
    }
    const FTransform World = Root->GetComponentTransform();
    Desc.Type = ToBodyType(BodyType);
    Desc.Position = ToCore(World.GetLocation());
    Desc.Rotation = ToCore(World.GetRotation());
    Desc.Material.density = Density;
    Desc.Material.friction = Friction;
    Desc.Material.restitution = Restitution;

    Maul3DCore::FTransformd Local;
    TArray<UBoxComponent*> Boxes;
    Owner->GetComponents(Boxes);
    for (const UBoxComponent* Box : Boxes) {
        // A water volume's box is water, not collision.
        if (Box->IsA<UMaul3DWaterVolumeComponent>()) {
            continue;
        }
        if (LocalOf(Box, Root, Local)) {
            Desc.Boxes.push_back(Maul3DCore::FBoxElem{Local, ToCore(Box->GetUnscaledBoxExtent())});
        }
    }
    TArray<USphereComponent*> Spheres;
    Owner->GetComponents(Spheres);
    for (const USphereComponent* Sphere : Spheres) {
        if (LocalOf(Sphere, Root, Local)) {
            Desc.Spheres.push_back(Maul3DCore::FSphereElem{Local, Sphere->GetUnscaledSphereRadius()});
        }
    }
    TArray<UCapsuleComponent*> Capsules;
    Owner->GetComponents(Capsules);
    for (const UCapsuleComponent* Capsule : Capsules) {
        if (LocalOf(Capsule, Root, Local)) {
            Desc.Capsules.push_back(Maul3DCore::FCapsuleElem{Local, Capsule->GetUnscaledCapsuleRadius(),
                                                              Capsule->GetUnscaledCapsuleHalfHeight()});
        }
    }
    TArray<UStaticMeshComponent*> Meshes;
    Owner->GetComponents(Meshes);
    for (UStaticMeshComponent* MeshComponent : Meshes) {
        UStaticMesh* Mesh = MeshComponent->GetStaticMesh();
        if (Mesh == nullptr || !LocalOf(MeshComponent, Root, Local)) {
            continue;
        }
        if (bUseComplexCollision) {
            FTriMeshCollisionData Data;
            if (!Mesh->GetPhysicsTriMeshData(&Data, true)) {
                continue;
            }
            Maul3DCore::FTriangleMeshElem Elem;
            Elem.Local = Local;
            for (const FVector3f& Vertex : Data.Vertices) {
                Elem.Vertices.push_back(Maul3DCore::FVec3d{Vertex.X, Vertex.Y, Vertex.Z});
            }
            for (const FTriIndices& Triangle : Data.Indices) {
                Elem.Indices.push_back(static_cast<uint32_t>(Triangle.v0));
                Elem.Indices.push_back(static_cast<uint32_t>(Triangle.v1));
                Elem.Indices.push_back(static_cast<uint32_t>(Triangle.v2));
            }
            Desc.Meshes.push_back(std::move(Elem));
        } else if (const UBodySetup* Setup = Mesh->GetBodySetup()) {
            AddMeshSimpleCollision(Setup->AggGeom, Local, Desc);
        }
    }
    return true;
}

void UMaul3DBodyComponent::BeginPlay()
{
    Super::BeginPlay();
    UMaul3DWorldSubsystem* Physics = GetWorld() ? GetWorld()->GetSubsystem<UMaul3DWorldSubsystem>() : nullptr;
    Maul3DCore::FBodyDesc Desc;
    if (Physics == nullptr || !Physics->Host().IsValid() || !ExtractDesc(Desc)) {
        return;
    }
    if (Maul3DCore::BuildBody(Physics->Host().Id(), Desc, &Built) != m3_success) {
        UE_LOG(LogMaul3D, Warning, TEXT("Maul3D body not built: %hs"), m3GetLastErrorMessage());
        return;
    }
    CurrentPosition = PreviousPosition = Desc.Position;
    CurrentRotation = PreviousRotation = Desc.Rotation;
    Physics->RegisterBody(this);
}

void UMaul3DBodyComponent::EndPlay(EEndPlayReason::Type Reason)
{
    if (UMaul3DWorldSubsystem* Physics = GetWorld() ? GetWorld()->GetSubsystem<UMaul3DWorldSubsystem>() : nullptr) {
        Physics->UnregisterBody(this);
        if (HasBody() && Physics->Host().IsValid()) {
            Maul3DCore::DestroyBuilt(Built);
        }
    }
    Built = Maul3DCore::FBuiltBody{};
    Super::EndPlay(Reason);
}

void UMaul3DBodyComponent::OnPhysicsStepped(uint32 Steps, float Alpha)
{
    UMaul3DWorldSubsystem* Physics = GetWorld() ? GetWorld()->GetSubsystem<UMaul3DWorldSubsystem>() : nullptr;
    if (Physics == nullptr || !HasBody()) {
        return;
    }
    if (Steps > 0) {
        PreviousPosition = CurrentPosition;
        PreviousRotation = CurrentRotation;
        Physics->Host().GetTransform(Built.Body, &CurrentPosition, &CurrentRotation);
    }
    USceneComponent* Root = GetOwner() ? GetOwner()->GetRootComponent() : nullptr;
    if (!bWriteTransform || Root == nullptr) {
        return;
    }
    // Rendering only (never read back into the simulation): UE's own lerp and slerp.
    const FVector Position = FMath::Lerp(Maul3DGlue::ToUE(PreviousPosition), Maul3DGlue::ToUE(CurrentPosition), Alpha);
    const FQuat Rotation = FQuat::Slerp(Maul3DGlue::ToUE(PreviousRotation), Maul3DGlue::ToUE(CurrentRotation), Alpha);
    Root->SetWorldLocationAndRotation(Position, Rotation);
}
