// Maul3DBodyBuilder.h: builds an engine body and its shapes from plain descriptions
// that the UE glue extracts from components (box, sphere and capsule components; a static
// mesh's simple collision: boxes, spheres, capsules, convex elements; or its complex
// collision as a triangle mesh). Everything is in Unreal units and axes and goes through
// Maul3DUnits (the library converts; no float maths here).
#pragma once

#include "Core/Maul3DUnits.h"
#include "maul3d.h"

#include <cstdint>
#include <vector>

namespace Maul3DCore {

// A box: half extents (UBoxComponent's BoxExtent) in HalfExtent, or full lengths
// (FKBoxElem's X, Y, Z) in Size with HalfExtent left zero; the library halves them.
struct FBoxElem {
    FTransformd Local;  // relative to the body, scale included
    FVec3d HalfExtent;  // cm, along the element's X, Y, Z
    FVec3d Size{};      // cm, full lengths, used when HalfExtent is zero
};

struct FSphereElem {
    FTransformd Local;
    double Radius = 0.0;  // cm
};

// Along the element's Z; HalfHeight includes the caps (UCapsuleComponent's
// CapsuleHalfHeight). For an FKSphylElem set CylinderLength (its Length) and leave
// HalfHeight zero: the library computes Length / 2 + Radius.
struct FCapsuleElem {
    FTransformd Local;
    double Radius = 0.0;
    double HalfHeight = 0.0;
    double CylinderLength = 0.0;
};

// A convex element: its points (3 to 64) in the element's frame, cm.
struct FConvexElem {
    FTransformd Local;
    std::vector<FVec3d> Points;
};

// A triangle mesh (complex collision): vertices in the element's frame, cm; three
// indices per triangle, wound as Unreal winds its front faces (the builder reverses the
// order, since the axis swap mirrors). Only static and kinematic bodies take one.
struct FTriangleMeshElem {
    FTransformd Local;
    std::vector<FVec3d> Vertices;
    std::vector<uint32_t> Indices;
};

struct FBodyDesc {
    m3BodyType Type = m3_dynamicBody;
    FVec3d Position;  // cm, world
    FQuatd Rotation;
    FVec3d LinearVelocity;   // cm/s
    FVec3d AngularVelocity;  // rad/s, Unreal axes
    float LinearDamping = 0.0f;
    float AngularDamping = 0.0f;
    float GravityScale = 1.0f;
    bool bEnableSleep = true;
    bool bBullet = false;
    uint64_t UserData = 0;
    // Material and filter of every shape (density in kg/m^3, the engine's unit).
    m3ShapeDef Material = m3DefaultShapeDef();

    std::vector<FBoxElem> Boxes;
    std::vector<FSphereElem> Spheres;
    std::vector<FCapsuleElem> Capsules;
    std::vector<FConvexElem> Convexes;
    std::vector<FTriangleMeshElem> Meshes;
};

// What BuildBody made: destroy the body first, then its hulls and meshes (DestroyBuilt).
struct FBuiltBody {
    m3BodyId Body{};
    std::vector<m3ShapeId> Shapes;
    std::vector<m3HullId> Hulls;
    std::vector<m3MeshId> Meshes;
};

// Creates the body and its shapes (boxes, spheres, capsules, convexes, meshes, in that
// order). On a refusal nothing stays in the world and the result says why
// (m3GetLastErrorMessage has the message).
m3Result BuildBody(m3WorldId World, const FBodyDesc& Desc, FBuiltBody* Out);

// Destroys what BuildBody made (the body, then its hulls and meshes).
m3Result DestroyBuilt(FBuiltBody& Built);

}  // namespace Maul3DCore
