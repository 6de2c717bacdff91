// UE types <-> the core's plain structs: field copies only (no arithmetic), so the values
// the library converts are exactly the ones Unreal holds.
#pragma once

#include "CoreMinimal.h"
#include "Core/Maul3DUnits.h"

namespace Maul3DGlue {

inline Maul3DCore::FVec3d ToCore(const FVector& V) { return Maul3DCore::FVec3d{V.X, V.Y, V.Z}; }
inline Maul3DCore::FQuatd ToCore(const FQuat& Q) { return Maul3DCore::FQuatd{Q.X, Q.Y, Q.Z, Q.W}; }
inline Maul3DCore::FTransformd ToCore(const FTransform& T)
{
    return Maul3DCore::FTransformd{ToCore(T.GetLocation()), ToCore(T.GetRotation()), ToCore(T.GetScale3D())};
}
inline FVector ToUE(const Maul3DCore::FVec3d& V) { return FVector(V.X, V.Y, V.Z); }
inline FQuat ToUE(const Maul3DCore::FQuatd& Q) { return FQuat(Q.X, Q.Y, Q.Z, Q.W); }

}  // namespace Maul3DGlue
