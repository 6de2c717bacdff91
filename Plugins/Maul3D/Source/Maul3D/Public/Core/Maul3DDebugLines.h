// Maul3DDebugLines.h: one engine debug-draw shape (m3DebugShape, in its body's frame)
// -> wireframe lines placed in the world, in Unreal units (cm, Unreal axes), for
// maul3d.Draw and the replay tab. Display only: nothing computed here is ever fed back
// into the simulation, so the float arithmetic (circle points, offsets) may differ
// between builds (fast-math) without harm.
#pragma once

#include "Core/Maul3DUnits.h"
#include "maul3d.h"

#include <cstdint>
#include <vector>

namespace Maul3DCore {

// A line segment in Unreal units.
struct FLine {
    FVec3d Start;
    FVec3d End;
};

// Segments per full circle (spheres, capsules, cylinders); a multiple of 4 so that the
// capsule's half-circle arcs and side lines meet circle points.
constexpr int32_t DebugCircleSegments = 16;
// Half the side of the square drawn for a plane (metres, engine units).
constexpr float DebugPlaneHalfSizeM = 10.0f;

// Appends the lines of Geometry (the engine's description, body frame, metres) placed at
// the body's pose (engine frame) to Out:
// - sphere: 3 great circles around its centre;
// - capsule: a circle at each segment end, 4 side lines, 2 half-circle arcs per cap;
// - cylinder: a circle at each end, 4 side lines;
// - box (voxel grids draw as boxes too): its 12 edges;
// - hull: every edge once (face loops, each shared edge drawn by one of its faces);
// - mesh / height-field triangle: its 3 edges;
// - ray shape: the segment from its origin along its direction for its length;
// - plane: a square of side 2 * PlaneHalfSizeM around the point of the plane nearest the
//   body origin, plus its normal (PlaneHalfSizeM / 4 long) from that point.
// Unknown kinds and malformed hulls (index out of range, null arrays) append nothing.
void AppendShapeLines(m3DVec3 BodyPosition, m3Quat BodyRotation, const m3DebugShape& Geometry,
                      std::vector<FLine>& Out, float PlaneHalfSizeM = DebugPlaneHalfSizeM);

// A ray shape (as debug draw or m3Shape_GetRay gives it): the segment from its origin
// along its direction for its length.
void AppendRayLines(m3DVec3 BodyPosition, m3Quat BodyRotation, const m3Ray& Ray, std::vector<FLine>& Out);

}  // namespace Maul3DCore
