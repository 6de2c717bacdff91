// Maul3DBodyBuilder.cpp: a body and its shapes from plain element descriptions.
#include "Core/Maul3DBodyBuilder.h"

namespace Maul3DCore {
namespace {

// Whether a scale mirrors (an odd number of negative components): then a mesh's winding
// flips once more. Sign tests only, no arithmetic.
bool Mirrors(const FVec3d& S) { return ((S.X < 0.0) != (S.Y < 0.0)) != (S.Z < 0.0); }

m3Result Fail(FBuiltBody& Built, m3Result R)
{
    DestroyBuilt(Built);
    return R;
}

}  // namespace

m3Result BuildBody(m3WorldId World, const FBodyDesc& Desc, FBuiltBody* Out)
{
    if (Out == nullptr) return m3_errorArgument;
    *Out = FBuiltBody{};
    m3BodyDef Def = m3DefaultBodyDef();
    Def.type = Desc.Type;
    m3Result R = Units::PositionToEngine(Desc.Position, &Def.position);
    if (R == m3_success) R = Units::QuatToEngine(Desc.Rotation, &Def.rotation);
    if (R == m3_success) R = Units::VectorToEngine(Desc.LinearVelocity, &Def.linearVelocity);
    if (R == m3_success) R = Units::AngularVelocityToEngine(Desc.AngularVelocity, &Def.angularVelocity);
    if (R != m3_success) return R;
    Def.linearDamping = Desc.LinearDamping;
    Def.angularDamping = Desc.AngularDamping;
    Def.gravityScale = Desc.GravityScale;
    Def.enableSleep = Desc.bEnableSleep;
    Def.isBullet = Desc.bBullet;
    Def.userData = Desc.UserData;
    R = m3Body_Create(World, &Def, &Out->Body);
    if (R != m3_success) return R;

    const m3ShapeDef& Mat = Desc.Material;
    auto Keep = [&](m3Result Made, m3ShapeId Shape) {
        if (Made == m3_success) Out->Shapes.push_back(Shape);
        return Made;
    };
    for (const FBoxElem& E : Desc.Boxes) {
        m3Box Box;
        m3ShapeId Shape{};
        const bool Half = E.HalfExtent.X != 0.0 || E.HalfExtent.Y != 0.0 || E.HalfExtent.Z != 0.0;
        R = Half ? Units::BoxToEngine(E.Local, E.HalfExtent, &Box) : Units::BoxSizeToEngine(E.Local, E.Size, &Box);
        if (R == m3_success) R = Keep(m3CreateBoxShape(Out->Body, &Mat, &Box, &Shape), Shape);
        if (R != m3_success) return Fail(*Out, R);
    }
    for (const FSphereElem& E : Desc.Spheres) {
        m3Sphere Sphere;
        m3ShapeId Shape{};
        R = Units::SphereToEngine(E.Local, E.Radius, &Sphere);
        if (R == m3_success) R = Keep(m3CreateSphereShape(Out->Body, &Mat, &Sphere, &Shape), Shape);
        if (R != m3_success) return Fail(*Out, R);
    }
    for (const FCapsuleElem& E : Desc.Capsules) {
        m3Capsule Capsule;
        m3ShapeId Shape{};
        R = E.HalfHeight != 0.0 ? Units::CapsuleToEngine(E.Local, E.Radius, E.HalfHeight, &Capsule)
                                : Units::SphylToEngine(E.Local, E.Radius, E.CylinderLength, &Capsule);
        if (R == m3_success) R = Keep(m3CreateCapsuleShape(Out->Body, &Mat, &Capsule, &Shape), Shape);
        if (R != m3_success) return Fail(*Out, R);
    }
    for (const FConvexElem& E : Desc.Convexes) {
        if (E.Points.size() > 64) return Fail(*Out, m3_errorArgument);
        m3Vec3 Points[64];
        m3HullId Hull{};
        m3ShapeId Shape{};
        const int32_t N = int32_t(E.Points.size());
        R = Units::PointsToEngine(E.Local, E.Points.data(), N, Points);
        if (R == m3_success) R = m3World_CreateHull(World, Points, N, &Hull);
        if (R == m3_success) Out->Hulls.push_back(Hull);
        if (R == m3_success) R = Keep(m3CreateHullShape(Out->Body, &Mat, Hull, &Shape), Shape);
        if (R != m3_success) return Fail(*Out, R);
    }
    for (const FTriangleMeshElem& E : Desc.Meshes) {
        if (E.Indices.size() % 3 != 0 || E.Vertices.size() > size_t(INT32_MAX) ||
            E.Indices.size() / 3 > size_t(INT32_MAX)) {
            return Fail(*Out, m3_errorArgument);
        }
        std::vector<m3Vec3> Vertices(E.Vertices.size());
        const int32_t N = int32_t(E.Vertices.size());
        R = Units::PointsToEngine(E.Local, E.Vertices.data(), N, Vertices.data());
        if (R != m3_success) return Fail(*Out, R);
        // The axis swap mirrors, so the same front face needs the other winding (and a
        // mirroring scale flips it back).
        std::vector<uint32_t> Indices(E.Indices);
        if (!Mirrors(E.Local.Scale)) {
            for (size_t T = 0; T + 2 < Indices.size(); T += 3) {
                const uint32_t Swap = Indices[T + 1];
                Indices[T + 1] = Indices[T + 2];
                Indices[T + 2] = Swap;
            }
        }
        m3MeshId Mesh{};
        m3ShapeId Shape{};
        R = m3World_CreateMesh(World, Vertices.data(), N, Indices.data(), int32_t(Indices.size() / 3), &Mesh);
        if (R == m3_success) Out->Meshes.push_back(Mesh);
        if (R == m3_success) R = Keep(m3CreateMeshShape(Out->Body, &Mat, Mesh, &Shape), Shape);
        if (R != m3_success) return Fail(*Out, R);
    }
    return m3_success;
}

m3Result DestroyBuilt(FBuiltBody& Built)
{
    m3Result First = m3_success;
    auto Note = [&](m3Result R) {
        if (First == m3_success) First = R;
    };
    if (Built.Body.index != 0) Note(m3Body_Destroy(Built.Body));
    for (m3HullId H : Built.Hulls) Note(m3Hull_Destroy(H));
    for (m3MeshId M : Built.Meshes) Note(m3World_DestroyMesh(M));
    Built = FBuiltBody{};
    return First;
}

}  // namespace Maul3DCore
