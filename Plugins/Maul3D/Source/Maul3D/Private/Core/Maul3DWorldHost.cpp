// Maul3DWorldHost.cpp: one engine world for a game world, in Unreal units.
#include "Core/Maul3DWorldHost.h"

#include <utility>

namespace Maul3DCore {

m3Result FWorldHost::Create(const FWorldSettings& Settings, ITaskLauncher* Launcher)
{
    Destroy();
    if (Settings.Threads > 1 && Launcher == nullptr) return m3_errorArgument;
    FFixedStepSettings Tick;
    Tick.TickHz = Settings.TickHz;
    Tick.MaxStepsPerFrame = Settings.MaxStepsPerFrame;
    if (!Accumulator.SetSettings(Tick)) return m3_errorArgument;
    m3Result R = Units::TickSeconds(Settings.TickHz, &StepLength);
    if (R != m3_success) return R;
    m3WorldDef Def = m3DefaultWorldDef();
    R = Units::GravityToEngine(Settings.GravityCmPerS2, &Def.gravity);
    if (R != m3_success) return R;
    Def.bodyCapacity = Settings.BodyCapacity;
    Def.shapeCapacity = Settings.ShapeCapacity;
    Def.contactCapacity = Settings.ContactCapacity;
    Def.jointCapacity = Settings.JointCapacity;
    Def.hullCapacity = Settings.HullCapacity;
    Def.meshCapacity = Settings.MeshCapacity;
    Def.characterCapacity = Settings.CharacterCapacity;
    Def.vehicleCapacity = Settings.VehicleCapacity;
    Def.waterCapacity = Settings.WaterCapacity;
    Def.softBodyCapacity = Settings.SoftBodyCapacity;
    Def.softParticleCapacity = Settings.SoftParticleCapacity;
    if (Settings.Threads > 1) {
        Router = std::make_unique<FTaskRouter>(*Launcher);
        Router->Install(Def);
    }
    World = m3::World(Def);
    if (!World.IsValid()) {
        Router.reset();
        return World.CreateResult();
    }
    Current = Settings;
    Gravity = Def.gravity;
    return m3_success;
}

void FWorldHost::Destroy()
{
    const std::vector<IStepListener*> Told = std::move(Listeners);
    Listeners.clear();
    for (IStepListener* Listener : Told) Listener->OnWorldDestroyed();
    World.Reset();
    Router.reset();
    Recording = false;
    JournalStart.clear();
    Tape.clear();
    Accumulator.Reset();
}

m3Result FWorldHost::Step(uint32_t Steps)
{
    for (uint32_t I = 0; I < Steps; ++I) {
        for (IStepListener* Listener : Listeners) Listener->PreStep(StepLength);
        const m3Result R = World.Step(StepLength, Current.Substeps);
        if (R != m3_success) return R;
    }
    return m3_success;
}

m3Result FWorldHost::Tick(int64_t FrameNanoseconds, uint32_t* StepsRun)
{
    const uint32_t Steps = Accumulator.Advance(FrameNanoseconds);
    if (StepsRun != nullptr) *StepsRun = Steps;
    return Step(Steps);
}

void FWorldHost::AddStepListener(IStepListener* Listener)
{
    if (Listener == nullptr) return;
    for (IStepListener* L : Listeners) {
        if (L == Listener) return;
    }
    Listeners.push_back(Listener);
}

void FWorldHost::RemoveStepListener(IStepListener* Listener)
{
    for (size_t I = 0; I < Listeners.size(); ++I) {
        if (Listeners[I] == Listener) {
            Listeners.erase(Listeners.begin() + std::ptrdiff_t(I));
            return;
        }
    }
}

uint64_t FWorldHost::StepCount() const
{
    uint64_t N = 0;
    return m3World_GetStepCount(World.Id(), &N) == m3_success ? N : 0;
}

m3Result FWorldHost::Snapshot(std::vector<uint8_t>& Out) const
{
    int64_t Size = 0;
    m3Result R = World.SnapshotSize(&Size);
    if (R != m3_success) return R;
    Out.resize(size_t(Size));
    int64_t Written = 0;
    R = World.Snapshot(Out.data(), Size, &Written);
    if (R == m3_success) Out.resize(size_t(Written));
    return R;
}

m3Result FWorldHost::Restore(const uint8_t* Bytes, int64_t Length) { return World.Restore(Bytes, Length); }

m3Result FWorldHost::StartJournal(int64_t CapacityBytes)
{
    if (Recording) return m3_errorState;
    if (CapacityBytes < 16) return m3_errorArgument;
    m3Result R = Snapshot(JournalStart);
    if (R != m3_success) return R;
    Tape.assign(size_t(CapacityBytes), 0);
    R = World.StartJournal(Tape.data(), CapacityBytes);
    if (R != m3_success) {
        Tape.clear();
        JournalStart.clear();
        return R;
    }
    Recording = true;
    return m3_success;
}

m3Result FWorldHost::StopJournal(std::vector<uint8_t>& ReplayOut)
{
    if (!Recording) return m3_errorState;
    int64_t Length = 0;
    m3Result R = World.StopJournal(&Length);
    Recording = false;
    if (R != m3_success) return R;
    const int64_t Size = m3GetEncodedReplaySize(int64_t(JournalStart.size()), Length);
    if (Size < 0) return m3_errorState;
    ReplayOut.resize(size_t(Size));
    int64_t Written = 0;
    R = m3EncodeReplay(JournalStart.data(), int64_t(JournalStart.size()), Tape.data(), Length, World.Hash(),
                       ReplayOut.data(), Size, &Written);
    if (R == m3_success) ReplayOut.resize(size_t(Written));
    Tape.clear();
    JournalStart.clear();
    return R;
}

m3Result FWorldHost::GetTransform(m3BodyId Body, FVec3d* PositionCm, FQuatd* Rotation) const
{
    if (PositionCm == nullptr || Rotation == nullptr) return m3_errorArgument;
    m3DVec3 P;
    m3Quat Q;
    m3Result R = m3Body_GetPosition(Body, &P);
    if (R == m3_success) R = m3Body_GetRotation(Body, &Q);
    if (R != m3_success) return R;
    *PositionCm = Units::PositionToUnreal(P);
    *Rotation = Units::QuatToUnreal(Q);
    return m3_success;
}

m3Result FWorldHost::GetLinearVelocity(m3BodyId Body, FVec3d* CmPerSecond) const
{
    if (CmPerSecond == nullptr) return m3_errorArgument;
    m3Vec3 V;
    const m3Result R = m3Body_GetLinearVelocity(Body, &V);
    if (R == m3_success) *CmPerSecond = Units::VectorToUnreal(V);
    return R;
}

m3Result FWorldHost::SetTransform(m3BodyId Body, const FVec3d& PositionCm, const FQuatd& Rotation)
{
    m3DVec3 P;
    m3Quat Q;
    m3Result R = Units::PositionToEngine(PositionCm, &P);
    if (R == m3_success) R = Units::QuatToEngine(Rotation, &Q);
    return R == m3_success ? m3Body_SetTransform(Body, P, Q) : R;
}

m3Result FWorldHost::SetLinearVelocity(m3BodyId Body, const FVec3d& CmPerSecond)
{
    m3Vec3 V;
    const m3Result R = Units::VectorToEngine(CmPerSecond, &V);
    return R == m3_success ? m3Body_SetLinearVelocity(Body, V) : R;
}

m3Result FWorldHost::SetAngularVelocity(m3BodyId Body, const FVec3d& RadPerSecond)
{
    m3Vec3 V;
    const m3Result R = Units::AngularVelocityToEngine(RadPerSecond, &V);
    return R == m3_success ? m3Body_SetAngularVelocity(Body, V) : R;
}

m3Result FWorldHost::AddImpulse(m3BodyId Body, const FVec3d& Impulse)
{
    m3Vec3 V;
    const m3Result R = Units::VectorToEngine(Impulse, &V);
    return R == m3_success ? m3Body_ApplyLinearImpulseToCenter(Body, V) : R;
}

m3Result FWorldHost::AddImpulseAtLocation(m3BodyId Body, const FVec3d& Impulse, const FVec3d& LocationCm)
{
    m3Vec3 V;
    m3DVec3 P;
    m3Result R = Units::VectorToEngine(Impulse, &V);
    if (R == m3_success) R = Units::PositionToEngine(LocationCm, &P);
    return R == m3_success ? m3Body_ApplyLinearImpulse(Body, V, P) : R;
}

m3Result FWorldHost::AddForce(m3BodyId Body, const FVec3d& Force)
{
    m3Vec3 V;
    const m3Result R = Units::VectorToEngine(Force, &V);
    return R == m3_success ? m3Body_ApplyForceToCenter(Body, V) : R;
}

m3Result FWorldHost::AddForceAtLocation(m3BodyId Body, const FVec3d& Force, const FVec3d& LocationCm)
{
    m3Vec3 V;
    m3DVec3 P;
    m3Result R = Units::VectorToEngine(Force, &V);
    if (R == m3_success) R = Units::PositionToEngine(LocationCm, &P);
    return R == m3_success ? m3Body_ApplyForce(Body, V, P) : R;
}

m3Result FWorldHost::AddTorque(m3BodyId Body, const FVec3d& Torque)
{
    m3Vec3 V;
    const m3Result R = Units::TorqueToEngine(Torque, &V);
    return R == m3_success ? m3Body_ApplyTorque(Body, V) : R;
}

namespace {

void FillHit(FRayHit* Hit, bool bHit, m3BodyId Body, m3ShapeId Shape, m3DVec3 Point, m3Vec3 Normal, float Fraction)
{
    Hit->bHit = bHit;
    if (!bHit) return;
    Hit->Body = Body;
    Hit->Shape = Shape;
    Hit->Point = Units::PositionToUnreal(Point);
    // A unit normal: the axis map without the cm scale.
    Hit->Normal = Units::AngularVelocityToUnreal(m3Vec3{-Normal.x, -Normal.y, -Normal.z});
    Hit->Fraction = Fraction;
}

}  // namespace

m3Result FWorldHost::RayCast(const FVec3d& StartCm, const FVec3d& EndCm, FRayHit* Hit, m3QueryFilter Filter) const
{
    if (Hit == nullptr) return m3_errorArgument;
    m3DVec3 Origin;
    m3Vec3 Translation;
    m3Result R = Units::SegmentToEngine(StartCm, EndCm, &Origin, &Translation);
    if (R != m3_success) return R;
    m3RayResult Res{};
    R = m3World_CastRayClosest(World.Id(), Origin, Translation, Filter, &Res);
    if (R == m3_success) FillHit(Hit, Res.hit, Res.body, Res.shape, Res.point, Res.normal, Res.fraction);
    return R;
}

static m3Result Overlap(m3WorldId World, const m3QueryShape& Shape, m3DVec3 Position, m3Quat Rotation,
                        m3QueryFilter Filter, std::vector<m3ShapeId>& Out)
{
    Out.assign(64, m3ShapeId{});
    int32_t Count = 0;
    m3Result R = m3World_OverlapShape(World, &Shape, Position, Rotation, Filter, Out.data(), 64, &Count);
    if (R == m3_success && Count > 64) {
        Out.assign(size_t(Count), m3ShapeId{});
        R = m3World_OverlapShape(World, &Shape, Position, Rotation, Filter, Out.data(), Count, &Count);
    }
    Out.resize(R == m3_success ? size_t(Count) : 0);
    return R;
}

m3Result FWorldHost::OverlapSphere(const FVec3d& CenterCm, double RadiusCm, std::vector<m3ShapeId>& Out,
                                   m3QueryFilter Filter) const
{
    m3QueryShape Shape{};
    Shape.type = m3_sphereShape;
    m3DVec3 P;
    m3Result R = Units::PositionToEngine(CenterCm, &P);
    if (R == m3_success) R = Units::LengthToEngine(RadiusCm, &Shape.sphere.radius);
    if (R != m3_success) return R;
    return Overlap(World.Id(), Shape, P, m3Quat{0.0f, 0.0f, 0.0f, 1.0f}, Filter, Out);
}

m3Result FWorldHost::OverlapBox(const FVec3d& CenterCm, const FQuatd& Rotation, const FVec3d& HalfExtentCm,
                                std::vector<m3ShapeId>& Out, m3QueryFilter Filter) const
{
    m3QueryShape Shape{};
    Shape.type = m3_boxShape;
    m3DVec3 P;
    m3Result R = Units::PositionToEngine(CenterCm, &P);
    // The box's own rotation goes in its frame: the element conversion with an identity
    // transform gives its half extents in engine axes.
    FTransformd Local;
    Local.Rotation = Rotation;
    if (R == m3_success) R = Units::BoxToEngine(Local, HalfExtentCm, &Shape.box);
    if (R != m3_success) return R;
    const m3Quat Q = Shape.box.rotation;
    Shape.box.rotation = m3Quat{0.0f, 0.0f, 0.0f, 1.0f};
    return Overlap(World.Id(), Shape, P, Q, Filter, Out);
}

m3Result FWorldHost::SweepSphere(const FVec3d& StartCm, const FVec3d& EndCm, double RadiusCm, FRayHit* Hit,
                                 m3QueryFilter Filter) const
{
    if (Hit == nullptr) return m3_errorArgument;
    m3QueryShape Shape{};
    Shape.type = m3_sphereShape;
    m3DVec3 Origin;
    m3Vec3 Translation;
    m3Result R = Units::SegmentToEngine(StartCm, EndCm, &Origin, &Translation);
    if (R == m3_success) R = Units::LengthToEngine(RadiusCm, &Shape.sphere.radius);
    if (R != m3_success) return R;
    m3ShapeCastResult Res{};
    R = m3World_CastShape(World.Id(), &Shape, Origin, m3Quat{0.0f, 0.0f, 0.0f, 1.0f}, Translation, Filter, &Res);
    if (R == m3_success) FillHit(Hit, Res.hit, Res.body, Res.shape, Res.point, Res.normal, Res.fraction);
    return R;
}

namespace {

// What one Draw call passes through m3World_Draw: the sink and a line buffer reused
// from shape to shape.
struct FDrawContext {
    IDebugDrawSink* Sink;
    std::vector<FLine> Lines;
};

void DrawShapeThunk(m3ShapeId, m3BodyId Body, m3DVec3 Position, m3Quat Rotation, const m3DebugShape* Geometry,
                    bool Awake, void* Context)
{
    FDrawContext& C = *static_cast<FDrawContext*>(Context);
    C.Lines.clear();
    AppendShapeLines(Position, Rotation, *Geometry, C.Lines);
    C.Sink->DrawShape(Body, C.Lines, Awake);
}

void DrawContactThunk(m3DVec3 Point, m3Vec3 Normal, float, float, void* Context)
{
    static_cast<FDrawContext*>(Context)->Sink->DrawContact(
        Units::PositionToUnreal(Point), Units::AngularVelocityToUnreal(m3Vec3{-Normal.x, -Normal.y, -Normal.z}));
}

}  // namespace

m3Result FWorldHost::Draw(IDebugDrawSink& Sink, bool bShapes, bool bContacts)
{
    m3DebugDraw D{};
    D.shapeFcn = &DrawShapeThunk;
    D.contactFcn = &DrawContactThunk;
    D.drawShapes = bShapes;
    D.drawContacts = bContacts;
    FDrawContext Context{&Sink, {}};
    D.context = &Context;
    return m3World_Draw(World.Id(), &D);
}

}  // namespace Maul3DCore
