// Maul3DDebugLines.cpp: engine debug-draw shapes -> world-placed wireframe lines in
// Unreal units. Display only, never fed back into the simulation: the circle points and
// offsets are plain float/double arithmetic here (fast-math may change their last bits,
// which no one sees); rotations use the library's m3RotateVector, and the final
// m -> cm and axis swap is Units::PositionToUnreal.
#include "Core/Maul3DDebugLines.h"

#include <cmath>

namespace Maul3DCore {
namespace {

m3Vec3 Add(m3Vec3 A, m3Vec3 B) { return m3Vec3{A.x + B.x, A.y + B.y, A.z + B.z}; }
m3Vec3 Scale(m3Vec3 A, float S) { return m3Vec3{A.x * S, A.y * S, A.z * S}; }
m3Vec3 Cross(m3Vec3 A, m3Vec3 B)
{
    return m3Vec3{A.y * B.z - A.z * B.y, A.z * B.x - A.x * B.z, A.x * B.y - A.y * B.x};
}
float Dot(m3Vec3 A, m3Vec3 B) { return A.x * B.x + A.y * B.y + A.z * B.z; }

// Two unit vectors perpendicular to the unit Axis and to each other.
void Perpendiculars(m3Vec3 Axis, m3Vec3* U, m3Vec3* V)
{
    const m3Vec3 Helper = std::fabs(Axis.x) < 0.57f ? m3Vec3{1.0f, 0.0f, 0.0f} : m3Vec3{0.0f, 1.0f, 0.0f};
    *U = m3Normalize(Cross(Axis, Helper));
    *V = Cross(Axis, *U);
}

// Places body-frame points in the world and appends the lines between them.
class FPlacer {
public:
    FPlacer(m3DVec3 InPosition, m3Quat InRotation, std::vector<FLine>& InOut)
        : Position(InPosition), Rotation(InRotation), Out(InOut)
    {
    }

    FVec3d Place(m3Vec3 Local) const
    {
        const m3Vec3 R = m3RotateVector(Rotation, Local);
        return Units::PositionToUnreal(m3DVec3{Position.x + R.x, Position.y + R.y, Position.z + R.z});
    }

    void Line(m3Vec3 A, m3Vec3 B) { Out.push_back(FLine{Place(A), Place(B)}); }

    // The arc Center + Radius (cos t U + sin t V), t from First to Last circle segments
    // (DebugCircleSegments per full turn).
    void Arc(m3Vec3 Center, m3Vec3 U, m3Vec3 V, float Radius, int32_t First, int32_t Last)
    {
        FVec3d Previous = Place(CirclePoint(Center, U, V, Radius, First));
        for (int32_t I = First + 1; I <= Last; ++I) {
            const FVec3d Next = Place(CirclePoint(Center, U, V, Radius, I));
            Out.push_back(FLine{Previous, Next});
            Previous = Next;
        }
    }

    void Circle(m3Vec3 Center, m3Vec3 U, m3Vec3 V, float Radius) { Arc(Center, U, V, Radius, 0, DebugCircleSegments); }

private:
    static m3Vec3 CirclePoint(m3Vec3 Center, m3Vec3 U, m3Vec3 V, float Radius, int32_t Segment)
    {
        const double T = 6.283185307179586 * double(Segment) / double(DebugCircleSegments);
        return Add(Center, Add(Scale(U, Radius * float(std::cos(T))), Scale(V, Radius * float(std::sin(T)))));
    }

    m3DVec3 Position;
    m3Quat Rotation;
    std::vector<FLine>& Out;
};

constexpr m3Vec3 AxisX{1.0f, 0.0f, 0.0f};
constexpr m3Vec3 AxisY{0.0f, 1.0f, 0.0f};
constexpr m3Vec3 AxisZ{0.0f, 0.0f, 1.0f};

void Sphere(FPlacer& P, m3Vec3 Center, float Radius)
{
    P.Circle(Center, AxisX, AxisY, Radius);
    P.Circle(Center, AxisY, AxisZ, Radius);
    P.Circle(Center, AxisZ, AxisX, Radius);
}

void Capsule(FPlacer& P, const m3Capsule& C)
{
    const m3Vec3 Segment{C.center2.x - C.center1.x, C.center2.y - C.center1.y, C.center2.z - C.center1.z};
    if (Dot(Segment, Segment) < 1e-12f) {
        Sphere(P, C.center1, C.radius);
        return;
    }
    const m3Vec3 Axis = m3Normalize(Segment);
    m3Vec3 U, V;
    Perpendiculars(Axis, &U, &V);
    const float R = C.radius;
    P.Circle(C.center1, U, V, R);
    P.Circle(C.center2, U, V, R);
    const m3Vec3 Sides[4] = {U, V, Scale(U, -1.0f), Scale(V, -1.0f)};
    for (const m3Vec3& D : Sides) P.Line(Add(C.center1, Scale(D, R)), Add(C.center2, Scale(D, R)));
    // Each cap: two half circles bulging away from the segment.
    const int32_t Half = DebugCircleSegments / 2;
    P.Arc(C.center2, U, Axis, R, 0, Half);
    P.Arc(C.center2, V, Axis, R, 0, Half);
    const m3Vec3 Back = Scale(Axis, -1.0f);
    P.Arc(C.center1, U, Back, R, 0, Half);
    P.Arc(C.center1, V, Back, R, 0, Half);
}

void Cylinder(FPlacer& P, const m3Cylinder& C)
{
    const m3Vec3 U = m3RotateVector(C.rotation, AxisX);
    const m3Vec3 Axis = m3RotateVector(C.rotation, AxisY);
    const m3Vec3 V = m3RotateVector(C.rotation, AxisZ);
    const m3Vec3 Top = Add(C.center, Scale(Axis, C.halfHeight));
    const m3Vec3 Bottom = Add(C.center, Scale(Axis, -C.halfHeight));
    P.Circle(Top, U, V, C.radius);
    P.Circle(Bottom, U, V, C.radius);
    const m3Vec3 Sides[4] = {U, V, Scale(U, -1.0f), Scale(V, -1.0f)};
    for (const m3Vec3& D : Sides) P.Line(Add(Bottom, Scale(D, C.radius)), Add(Top, Scale(D, C.radius)));
}

void Box(FPlacer& P, const m3Box& B)
{
    m3Vec3 Corners[8];
    for (int I = 0; I < 8; ++I) {
        const m3Vec3 Local{I & 1 ? B.halfExtents.x : -B.halfExtents.x, I & 2 ? B.halfExtents.y : -B.halfExtents.y,
                           I & 4 ? B.halfExtents.z : -B.halfExtents.z};
        Corners[I] = Add(B.center, m3RotateVector(B.rotation, Local));
    }
    // Corner I and I with one more bit set differ along one axis: the 12 edges.
    for (int I = 0; I < 8; ++I)
        for (int Bit = 1; Bit < 8; Bit <<= 1)
            if ((I & Bit) == 0) P.Line(Corners[I], Corners[I | Bit]);
}

void Hull(FPlacer& P, const m3DebugShape& G)
{
    if (!G.hullVertices || !G.hullFaceVertices || !G.hullFaceStarts || G.hullFaceCount <= 0) return;
    // Checked whole first, so that a malformed hull draws nothing rather than a part.
    for (int32_t F = 0; F < G.hullFaceCount; ++F) {
        if (G.hullFaceStarts[F] > G.hullFaceStarts[F + 1]) return;
        for (int32_t K = G.hullFaceStarts[F]; K < G.hullFaceStarts[F + 1]; ++K)
            if (G.hullFaceVertices[K] >= G.hullVertexCount) return;
    }
    for (int32_t F = 0; F < G.hullFaceCount; ++F) {
        const int32_t Start = G.hullFaceStarts[F];
        const int32_t End = G.hullFaceStarts[F + 1];
        for (int32_t K = Start; K < End; ++K) {
            const int32_t A = G.hullFaceVertices[K];
            const int32_t B = G.hullFaceVertices[K + 1 < End ? K + 1 : Start];
            // A closed hull's faces run counter-clockwise, so each edge comes once each
            // way: drawing only the A < B direction draws it once.
            if (A < B) P.Line(G.hullVertices[A], G.hullVertices[B]);
        }
    }
}

void Plane(FPlacer& P, const m3Plane& Pl, float HalfSize)
{
    const m3Vec3 N = m3Normalize(Pl.normal);
    const m3Vec3 Center = Scale(N, Pl.offset);
    m3Vec3 U, V;
    Perpendiculars(N, &U, &V);
    const m3Vec3 Su = Scale(U, HalfSize), Sv = Scale(V, HalfSize);
    const m3Vec3 Corners[4] = {Add(Center, Add(Su, Sv)), Add(Center, Add(Scale(Su, -1.0f), Sv)),
                               Add(Center, Add(Scale(Su, -1.0f), Scale(Sv, -1.0f))),
                               Add(Center, Add(Su, Scale(Sv, -1.0f)))};
    for (int I = 0; I < 4; ++I) P.Line(Corners[I], Corners[(I + 1) % 4]);
    P.Line(Center, Add(Center, Scale(N, HalfSize * 0.25f)));
}

}  // namespace

void AppendShapeLines(m3DVec3 BodyPosition, m3Quat BodyRotation, const m3DebugShape& Geometry,
                      std::vector<FLine>& Out, float PlaneHalfSizeM)
{
    FPlacer P(BodyPosition, BodyRotation, Out);
    switch (Geometry.type) {
    case m3_sphereShape:
        Sphere(P, Geometry.sphere.center, Geometry.sphere.radius);
        break;
    case m3_capsuleShape:
        Capsule(P, Geometry.capsule);
        break;
    case m3_boxShape:
        Box(P, Geometry.box);
        break;
    case m3_hullShape:
        Hull(P, Geometry);
        break;
    case m3_cylinderShape:
        Cylinder(P, Geometry.cylinder);
        break;
    case m3_planeShape:
        Plane(P, Geometry.plane, PlaneHalfSizeM);
        break;
    case m3_meshShape:
        for (int I = 0; I < 3; ++I) P.Line(Geometry.triangle[I], Geometry.triangle[(I + 1) % 3]);
        break;
    case m3_rayShape:
        AppendRayLines(BodyPosition, BodyRotation, Geometry.ray, Out);
        break;
    default:
        break;
    }
}

void AppendRayLines(m3DVec3 BodyPosition, m3Quat BodyRotation, const m3Ray& Ray, std::vector<FLine>& Out)
{
    FPlacer P(BodyPosition, BodyRotation, Out);
    P.Line(Ray.origin, Add(Ray.origin, Scale(m3Normalize(Ray.direction), Ray.length)));
}

}  // namespace Maul3DCore
