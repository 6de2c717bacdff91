// The Unreal plugin's engine-free core (Plugins/Maul3D/Source/Maul3D/*/Core) against the
// real static library: conversions, the fixed-step accumulator, the scrubber on
// test/demo.m3replay, the task router on a std::thread pool, the world host and the body
// builder. Built by test/unreal.sh with -Wall -Wextra -Werror, and again with
// -O2 -ffast-math -mfma (the hashes and conversions must not change).
//
//   core_tests DEMO.m3replay HASHES.txt OTHER.m3replay PART_STEP
#include "Core/Maul3DBodyBuilder.h"
#include "Core/Maul3DCharacterHost.h"
#include "Core/Maul3DDebugLines.h"
#include "Core/Maul3DFixedStep.h"
#include "Core/Maul3DScrubber.h"
#include "Core/Maul3DTaskRouter.h"
#include "Core/Maul3DUnits.h"
#include "Core/Maul3DVehicleHost.h"
#include "Core/Maul3DWaterHost.h"
#include "Core/Maul3DWorldHost.h"

#include <cmath>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <thread>
#include <vector>

using namespace Maul3DCore;

static int Checks = 0;
static int Failures = 0;
#define CHECK(cond, ...)                                                          \
    do {                                                                          \
        ++Checks;                                                                 \
        if (!(cond)) {                                                            \
            ++Failures;                                                           \
            std::fprintf(stderr, "%s:%d: %s failed: ", __FILE__, __LINE__, #cond); \
            std::fprintf(stderr, __VA_ARGS__);                                    \
            std::fprintf(stderr, " (%s)\n", m3GetLastErrorMessage());             \
        }                                                                         \
    } while (0)
#define OK(expr) CHECK((expr) == m3_success, "%s", #expr)

static bool Near(double A, double B, double Tol) { return A - B <= Tol && B - A <= Tol; }

static std::vector<uint8_t> ReadFile(const char* Path)
{
    std::vector<uint8_t> Bytes;
    FILE* F = std::fopen(Path, "rb");
    if (!F) return Bytes;
    uint8_t Buf[65536];
    size_t N;
    while ((N = std::fread(Buf, 1, sizeof Buf, F)) > 0) Bytes.insert(Bytes.end(), Buf, Buf + N);
    std::fclose(F);
    return Bytes;
}

// ---- conversions ----

static void TestConversions()
{
    // Unreal's up is the engine's up, in metres.
    m3DVec3 P;
    OK(Units::PositionToEngine(FVec3d{100.0, 200.0, 300.0}, &P));
    CHECK(P.x == 1.0 && P.y == 3.0 && P.z == 2.0, "(%g, %g, %g)", P.x, P.y, P.z);
    m3Vec3 G;
    OK(Units::GravityToEngine(FVec3d{0.0, 0.0, -980.0}, &G));
    CHECK(G.x == 0.0f && G.y == -9.8f && G.z == 0.0f, "gravity (%g, %g, %g): the engine's down is -Y", G.x, G.y,
          G.z);

    // Exact round trips: engine -> Unreal -> engine for floats (x100 fits a double) and
    // quaternions (swizzle and signs); whole centimetres -> engine -> Unreal.
    uint32_t Seed = 12345;
    auto Rand = [&]() {
        Seed = Seed * 1664525u + 1013904223u;
        return Seed;
    };
    int Exact = 0, Tried = 0;
    for (int I = 0; I < 20000; ++I) {
        const float X = float(int32_t(Rand())) / 65536.0f;
        const float Y = float(int32_t(Rand())) / 1048576.0f;
        const float Z = float(int32_t(Rand() % 100000)) / 7.0f;
        const m3Vec3 V{X, Y, Z};
        m3Vec3 Back;
        OK(Units::VectorToEngine(Units::VectorToUnreal(V), &Back));
        CHECK(std::memcmp(&Back, &V, sizeof V) == 0, "vector (%g, %g, %g) came back (%g, %g, %g)", X, Y, Z, Back.x,
              Back.y, Back.z);
        float Len;
        OK(Units::LengthToEngine(Units::LengthToUnreal(Z < 0 ? -Z : Z), &Len));
        CHECK(Len == (Z < 0 ? -Z : Z), "length %g came back %g", Z, Len);
        m3Vec3 W;
        OK(Units::AngularVelocityToEngine(Units::AngularVelocityToUnreal(V), &W));
        CHECK(std::memcmp(&W, &V, sizeof V) == 0, "angular velocity round trip");
        const m3Quat Q = m3NormalizeQuat(m3Quat{X, Y, Z, 1.0f});
        m3Quat QBack;
        OK(Units::QuatToEngine(Units::QuatToUnreal(Q), &QBack));
        CHECK(std::memcmp(&QBack, &Q, sizeof Q) == 0, "quat round trip");
        const FVec3d Cm{double(int32_t(Rand() % 2000001u) - 1000000), double(int32_t(Rand() % 20001u) - 10000),
                        double(int32_t(Rand() % 200001u) - 100000)};
        m3DVec3 M;
        OK(Units::PositionToEngine(Cm, &M));
        const FVec3d CmBack = Units::PositionToUnreal(M);
        ++Tried;
        if (CmBack.X == Cm.X && CmBack.Y == Cm.Y && CmBack.Z == Cm.Z) ++Exact;
        CHECK(Near(CmBack.X, Cm.X, 1e-9) && Near(CmBack.Y, Cm.Y, 1e-9) && Near(CmBack.Z, Cm.Z, 1e-9),
              "position round trip");
    }
    for (int I = 0; I < 20000; ++I) {
        // Engine positions lie on the 2^-32 m grid; within 16 km, 100 times one fits a
        // double, so the trip through centimetres is exact (further out some metre values
        // have no centimetre value that divides back to them).
        const double Grid = 1.0 / 4294967296.0;
        const m3DVec3 M{double((int64_t(int32_t(Rand())) << 13) + Rand() % 8192) * Grid,
                        double(int64_t(int32_t(Rand())) << 10) * Grid, double(int32_t(Rand()) / 5) * Grid};
        m3DVec3 MBack;
        OK(Units::PositionToEngine(Units::PositionToUnreal(M), &MBack));
        CHECK(std::memcmp(&M, &MBack, sizeof M) == 0, "position (%.17g, %.17g, %.17g) m came back changed", M.x, M.y,
              M.z);
    }
    CHECK(Exact == Tried, "whole-centimetre positions: %d of %d came back exactly", Exact, Tried);

    // A body turned 90 degrees about Unreal's Z: the same physical rotation in the
    // engine. The point (100, 50, 20) cm turned in Unreal lands where the engine's turn
    // of the mapped point lands.
    const double H = 0.70710678118654752440;
    const FQuatd Yaw90{0.0, 0.0, H, H};
    FTransformd Turned;
    Turned.Rotation = Yaw90;
    const FVec3d Point{100.0, 50.0, 20.0};
    m3Vec3 InUnreal, Mapped;
    OK(Units::PointsToEngine(Turned, &Point, 1, &InUnreal));
    OK(Units::PointsToEngine(FTransformd{}, &Point, 1, &Mapped));
    m3Quat QE;
    OK(Units::QuatToEngine(Yaw90, &QE));
    const m3Vec3 InEngine = m3RotateVector(QE, Mapped);
    CHECK(Near(InUnreal.x, InEngine.x, 1e-6) && Near(InUnreal.y, InEngine.y, 1e-6) &&
              Near(InUnreal.z, InEngine.z, 1e-6),
          "turned in Unreal (%g, %g, %g), in the engine (%g, %g, %g)", InUnreal.x, InUnreal.y, InUnreal.z,
          InEngine.x, InEngine.y, InEngine.z);
    // FQuat's +90 about Z takes X (forward) to Y (right): (-0.5, 1, 0.2) m in Unreal
    // axes, engine (x, z, y) = (-0.5, 0.2, 1).
    CHECK(Near(InUnreal.x, -0.5, 1e-6) && Near(InUnreal.y, 0.2, 1e-6) && Near(InUnreal.z, 1.0, 1e-6),
          "(%g, %g, %g)", InUnreal.x, InUnreal.y, InUnreal.z);
    // The engine keeps the rotation as given (a box made with it reads it back).
    const FQuatd Back = Units::QuatToUnreal(QE);
    CHECK(Near(Back.Z, H, 1e-7) && Near(Back.W, H, 1e-7) && Back.X == 0.0 && Back.Y == 0.0, "yaw back");

    // Refusals name the value.
    float F;
    CHECK(Units::TickSeconds(0, &F) == m3_errorArgument, "tick 0 Hz");
    CHECK(std::strstr(m3GetLastErrorMessage(), "10000") != nullptr, "message: %s", m3GetLastErrorMessage());
    m3Quat Q;
    CHECK(Units::QuatToEngine(FQuatd{0.0, 0.0, 0.0, 0.0}, &Q) == m3_errorArgument, "zero quat");
    m3Capsule C;
    CHECK(Units::CapsuleToEngine(FTransformd{}, -1.0, 10.0, &C) == m3_errorArgument, "negative radius");
    CHECK(Units::SphylToEngine(FTransformd{}, 10.0, -1.0, &C) == m3_errorArgument, "negative sphyl length");
    CHECK(std::strstr(m3GetLastErrorMessage(), "sphyl length") != nullptr, "message: %s", m3GetLastErrorMessage());

    // FKBoxElem's full lengths and FKSphylElem's cylinder length pass as UE keeps them:
    // the library halves (the glue does no maths), giving the half forms' shapes bit for bit.
    FTransformd Elem{};
    Elem.Translation = FVec3d{10.0, -20.0, 30.0};
    Elem.Scale = FVec3d{1.0, 2.0, 0.5};
    m3Box FromHalf, FromSize;
    OK(Units::BoxToEngine(Elem, FVec3d{25.0, 12.5, 40.0}, &FromHalf));
    OK(Units::BoxSizeToEngine(Elem, FVec3d{50.0, 25.0, 80.0}, &FromSize));
    CHECK(std::memcmp(&FromHalf, &FromSize, sizeof(m3Box)) == 0, "box from size = box from half extents");
    m3Capsule FromHalfHeight, FromLength;
    OK(Units::CapsuleToEngine(Elem, 15.0, 55.0, &FromHalfHeight));
    OK(Units::SphylToEngine(Elem, 15.0, 80.0, &FromLength));
    CHECK(std::memcmp(&FromHalfHeight, &FromLength, sizeof(m3Capsule)) == 0, "sphyl (length 80) = capsule (half height 55)");
}

// ---- accumulator ----

static void TestAccumulator()
{
    FFixedStep Clock(FFixedStepSettings{60, 4});
    // Uneven frames: 7 ms, 16 ms, 33 ms, ... the steps run are floor(total * 60 / 1e9).
    const int64_t Frames[] = {7000000, 16000000, 33000000, 1000000, 25000000, 16666667, 16666666, 40000000, 3000000};
    int64_t Total = 0;
    uint64_t Steps = 0;
    for (int64_t Ns : Frames) {
        Total += Ns;
        const uint32_t N = Clock.Advance(Ns);
        CHECK(N <= 4, "%u steps in one frame", N);
        Steps += N;
        CHECK(Steps == uint64_t(Total * 60 / 1000000000), "after %lld ns: %llu steps, want %lld", (long long)Total,
              (unsigned long long)Steps, (long long)(Total * 60 / 1000000000));
        const float A = Clock.Alpha();
        CHECK(A >= 0.0f && A < 1.0f, "alpha %g", A);
        const double Want = double(uint64_t(Total) * 60 % 1000000000) / 1e9;
        CHECK(Near(A, Want, 1e-6), "alpha %g, want %g", A, Want);
    }
    // A spike: one second is 60 steps, capped at 4; the rest dropped.
    Clock.Reset();
    const uint64_t DroppedBefore = Clock.DroppedSteps();
    CHECK(Clock.Advance(1000000000) == 4, "spike capped");
    CHECK(Clock.DroppedSteps() - DroppedBefore == 56, "dropped %llu",
          (unsigned long long)(Clock.DroppedSteps() - DroppedBefore));
    CHECK(Clock.Alpha() == 0.0f, "a whole second leaves no fraction at 60 Hz");
    // Paused: nothing runs or accumulates.
    Clock.SetPaused(true);
    CHECK(Clock.Advance(500000000) == 0, "paused");
    Clock.SetPaused(false);
    CHECK(Clock.Advance(16666667) == 1, "one tick after unpausing");
    // Alpha stays in [0, 1) over many random frames, including ones just under a tick.
    uint32_t Seed = 7;
    for (int I = 0; I < 100000; ++I) {
        Seed = Seed * 1664525u + 1013904223u;
        Clock.Advance(int64_t(Seed % 40000000u));
        const float A = Clock.Alpha();
        CHECK(A >= 0.0f && A < 1.0f, "alpha %g", A);
    }
    FFixedStep Tight(FFixedStepSettings{1, 1});
    Tight.Advance(999999999);
    CHECK(Tight.Alpha() < 1.0f, "alpha just under a whole tick is %g", Tight.Alpha());
    CHECK(!Clock.SetSettings(FFixedStepSettings{0, 4}), "0 Hz refused");
    CHECK(Clock.Settings().TickHz == 60, "settings unchanged");
}

// ---- scrubber ----

static void TestScrubber(const char* Demo, const char* HashesPath, const char* Other, uint64_t PartStep)
{
    const std::vector<uint8_t> Bytes = ReadFile(Demo);
    CHECK(!Bytes.empty(), "read %s", Demo);
    std::vector<uint64_t> Want;
    FILE* F = std::fopen(HashesPath, "r");
    CHECK(F != nullptr, "open %s", HashesPath);
    if (!F) return;
    unsigned long long S, H;
    while (std::fscanf(F, "%llu %llx", &S, &H) == 2) {
        CHECK(S == Want.size(), "hash line %llu in order", S);
        Want.push_back(H);
    }
    std::fclose(F);
    FScrubber Scrub;
    OK(Scrub.Open(Bytes.data(), int64_t(Bytes.size()), 16));
    CHECK(Scrub.StepCount() + 1 == Want.size(), "%llu steps, %zu hashes", (unsigned long long)Scrub.StepCount(),
          Want.size());
    const uint64_t Steps = Scrub.StepCount();
    // Index a little per tick, as the tab does, until every keyframe exists.
    for (int I = 0; I < 10000 && Scrub.IndexedThrough() < Steps; ++I) OK(Scrub.Tick(16000000, 64));
    CHECK(Scrub.IndexedThrough() == Steps, "indexed through %llu", (unsigned long long)Scrub.IndexedThrough());
    const uint64_t K = Scrub.KeyframeEvery();
    // Every step, backwards.
    for (uint64_t T = Steps + 1; T-- > 0;) {
        OK(Scrub.Seek(T));
        CHECK(Scrub.CurrentStep() == T && Scrub.Hash() == Want[T], "seek %llu: hash %016llx, want %016llx",
              (unsigned long long)T, (unsigned long long)Scrub.Hash(), (unsigned long long)Want[T]);
        CHECK(Scrub.LastSeekSteps() < K, "seek %llu replayed %llu steps (spacing %llu)", (unsigned long long)T,
              (unsigned long long)Scrub.LastSeekSteps(), (unsigned long long)K);
    }
    // Random order.
    uint32_t Seed = 99;
    for (int I = 0; I < 400; ++I) {
        Seed = Seed * 1664525u + 1013904223u;
        const uint64_t T = (Seed >> 8) % (Steps + 1);
        OK(Scrub.Seek(T));
        CHECK(Scrub.Hash() == Want[T], "random seek %llu", (unsigned long long)T);
    }
    CHECK(Scrub.MaxSeekSteps() <= K, "most steps per seek %llu, spacing %llu", (unsigned long long)Scrub.MaxSeekSteps(),
          (unsigned long long)K);
    // Step back and forward.
    OK(Scrub.Seek(10));
    OK(Scrub.StepBack());
    CHECK(Scrub.Hash() == Want[9], "step back");
    OK(Scrub.StepForward());
    OK(Scrub.StepForward());
    CHECK(Scrub.Hash() == Want[11], "step forward");
    CHECK(Scrub.Seek(Steps + 1) == m3_errorArgument && Scrub.CurrentStep() == 11, "past the end refused");
    // Play at 2x: 60 recorded Hz * 2 over 0.5 s = 60 steps.
    OK(Scrub.Seek(0));
    CHECK(Scrub.SetPlayback(60, 2.0), "playback");
    Scrub.SetPlaying(true);
    for (int I = 0; I < 5; ++I) OK(Scrub.Tick(100000000, 0));
    CHECK(Scrub.CurrentStep() == 60 && Scrub.Hash() == Want[60], "played to %llu",
          (unsigned long long)Scrub.CurrentStep());
    // The bodies at a step, in Unreal units: the library's bodies mapped.
    std::vector<FScrubBody> Bodies;
    OK(Scrub.Bodies(Bodies));
    CHECK(!Bodies.empty() && int32_t(Bodies.size()) == Scrub.Raw().BodyCount(), "%zu bodies", Bodies.size());
    std::vector<m3ReplayBody> Raw(Bodies.size());
    int32_t N = 0;
    OK(Scrub.Raw().Bodies(Raw.data(), int32_t(Raw.size()), &N));
    for (size_t I = 0; I < Bodies.size() && I < Raw.size(); ++I) {
        m3DVec3 Pos;
        OK(Units::PositionToEngine(Bodies[I].Position, &Pos));
        CHECK(std::memcmp(&Pos, &Raw[I].position, sizeof Pos) == 0 && Near(Bodies[I].Position.Z, Raw[I].position.y * 100.0, 1e-9) &&
                  Near(Bodies[I].Position.Y, Raw[I].position.z * 100.0, 1e-9) && Bodies[I].bSleeping == !Raw[I].awake &&
                  Bodies[I].Slot + 1 == Raw[I].id.index,
              "body %zu", I);
    }
    // Verify.
    FScrubVerify V;
    OK(Scrub.Verify(&V));
    CHECK(V.Verified() && V.Replayed == Want.back(), "verify %016llx vs %016llx", (unsigned long long)V.Recorded,
          (unsigned long long)V.Replayed);
    // Diff against a seed-2 recording: the step m3replay diff prints.
    const std::vector<uint8_t> B = ReadFile(Other);
    FScrubber ScrubB;
    OK(ScrubB.Open(B.data(), int64_t(B.size())));
    FScrubDiff D;
    OK(Scrub.Diff(ScrubB, 8, &D));
    CHECK(D.Kind == m3_replaysPart && D.Step == PartStep, "diff parts at %llu (kind %d), m3replay says %llu",
          (unsigned long long)D.Step, D.Kind, (unsigned long long)PartStep);
    CHECK(!D.Rows.empty() && D.Rows.size() <= 8, "%zu rows", D.Rows.size());
    for (size_t I = 1; I < D.Rows.size(); ++I)
        CHECK(D.Rows[I - 1].PositionErrorCm >= D.Rows[I].PositionErrorCm, "rows worst first");
    std::printf("scrubber: %llu steps seeked (keyframe every %llu, at most %llu steps replayed per seek), diff "
                "parts at step %llu\n",
                (unsigned long long)Steps, (unsigned long long)K, (unsigned long long)Scrub.MaxSeekSteps(),
                (unsigned long long)D.Step);
    CHECK(Scrub.Open(Bytes.data(), 7) == m3_errorFormat, "damaged bytes refused");
}

// ---- a scene through the world host ----

// A ground and a pile of Count boxes (in Unreal units).
static void BuildPile(FWorldHost& Host, int Count, std::vector<FBuiltBody>& Out)
{
    FBodyDesc Ground;
    Ground.Type = m3_staticBody;
    Ground.Position = FVec3d{0.0, 0.0, -50.0};
    Ground.Boxes.push_back(FBoxElem{FTransformd{}, FVec3d{5000.0, 5000.0, 50.0}});
    Out.emplace_back();
    OK(BuildBody(Host.Id(), Ground, &Out.back()));
    for (int I = 0; I < Count; ++I) {
        FBodyDesc Box;
        Box.Position = FVec3d{double((I % 8) * 60 - 240), double(((I / 8) % 8) * 60 - 240), double(30 + (I / 64) * 60)};
        Box.Boxes.push_back(FBoxElem{FTransformd{}, FVec3d{25.0, 25.0, 25.0}});
        Out.emplace_back();
        OK(BuildBody(Host.Id(), Box, &Out.back()));
    }
}

class FThreadPool final : public ITaskLauncher {
public:
    explicit FThreadPool(uint32_t N)
    {
        for (uint32_t I = 0; I < N; ++I) Threads.emplace_back([this] { Loop(); });
        Workers = N;
    }
    ~FThreadPool() override
    {
        {
            std::lock_guard<std::mutex> L(M);
            Quit = true;
        }
        Cv.notify_all();
        for (auto& T : Threads) T.join();
    }
    uint32_t WorkerCount() const override { return Workers; }
    void Launch(uint32_t Slot, uint32_t TaskCount, FTaskFn Fn, void* Context) override
    {
        std::lock_guard<std::mutex> L(M);
        Pending[Slot] = TaskCount;
        for (uint32_t I = 0; I < TaskCount; ++I) Queue.push_back(Job{Slot, I, Fn, Context});
        ++Launches;
        Cv.notify_all();
    }
    void Wait(uint32_t Slot) override
    {
        std::unique_lock<std::mutex> L(M);
        Done.wait(L, [&] { return Pending[Slot] == 0; });
    }
    uint64_t Launches = 0;

private:
    struct Job {
        uint32_t Slot, Index;
        FTaskFn Fn;
        void* Context;
    };
    void Loop()
    {
        for (;;) {
            Job J;
            {
                std::unique_lock<std::mutex> L(M);
                Cv.wait(L, [&] { return Quit || !Queue.empty(); });
                if (Queue.empty()) return;
                J = Queue.back();
                Queue.pop_back();
            }
            J.Fn(J.Index, J.Context);
            std::lock_guard<std::mutex> L(M);
            if (--Pending[J.Slot] == 0) Done.notify_all();
        }
    }
    std::vector<std::thread> Threads;
    std::vector<Job> Queue;
    uint32_t Pending[FTaskRouter::MaxInFlight] = {};
    std::mutex M;
    std::condition_variable Cv, Done;
    bool Quit = false;
    uint32_t Workers = 0;
};

static std::vector<uint64_t> RunPile(ITaskLauncher* Launcher, uint32_t Threads, int Steps)
{
    FWorldHost Host;
    FWorldSettings S;
    S.Threads = Threads;
    OK(Host.Create(S, Launcher));
    std::vector<FBuiltBody> Bodies;
    BuildPile(Host, 200, Bodies);
    std::vector<uint64_t> Hashes;
    for (int I = 0; I < Steps; ++I) {
        OK(Host.Step(1));
        Hashes.push_back(Host.Hash());
    }
    return Hashes;
}

static void TestTaskRouter()
{
    const std::vector<uint64_t> One = RunPile(nullptr, 0, 300);
    FThreadPool Pool(4);
    const std::vector<uint64_t> Four = RunPile(&Pool, 4, 300);
    CHECK(One == Four, "hashes differ between one thread and the router on 4 threads");
    CHECK(Pool.Launches > 100, "the router sent %llu launches to the pool", (unsigned long long)Pool.Launches);
    std::printf("task router: 300 steps of a 200-box pile, %llu launches on a 4-thread pool, hashes equal to one "
                "thread (final %016llx)\n",
                (unsigned long long)Pool.Launches, (unsigned long long)One.back());
}

// ---- world host and body builder ----

static void TestWorldHost()
{
    FWorldHost Host;
    OK(Host.Create(FWorldSettings{}));
    std::vector<FBuiltBody> Bodies;
    BuildPile(Host, 0, Bodies);
    // A box of half extent 25 cm dropped from 300 cm rests on the ground's top (Z = 0) at
    // the height the engine computes: its engine y (m) is Unreal Z (cm) / 100.
    FBodyDesc Box;
    Box.Position = FVec3d{0.0, 0.0, 300.0};
    Box.Boxes.push_back(FBoxElem{FTransformd{}, FVec3d{25.0, 25.0, 25.0}});
    FBuiltBody BoxBody;
    OK(BuildBody(Host.Id(), Box, &BoxBody));
    // A capsule standing along Unreal's Z (radius 20, half height 60 with the caps).
    FBodyDesc Capsule;
    Capsule.Position = FVec3d{300.0, 0.0, 200.0};
    Capsule.Capsules.push_back(FCapsuleElem{FTransformd{}, 20.0, 60.0});
    Capsule.AngularDamping = 5.0f;
    FBuiltBody CapsuleBody;
    OK(BuildBody(Host.Id(), Capsule, &CapsuleBody));
    m3Capsule C;
    OK(m3Shape_GetCapsule(CapsuleBody.Shapes[0], &C));
    CHECK(C.center1.x == 0.0f && C.center1.z == 0.0f && Near(C.center1.y, -0.4, 1e-7) && Near(C.center2.y, 0.4, 1e-7) &&
              Near(C.radius, 0.2, 1e-7),
          "capsule segment y %g..%g radius %g", C.center1.y, C.center2.y, C.radius);
    // A convex element: a 40 cm cube's corners, offset 10 cm up in the element frame.
    FBodyDesc Convex;
    Convex.Position = FVec3d{-300.0, 0.0, 150.0};
    FConvexElem Hull;
    Hull.Local.Translation = FVec3d{0.0, 0.0, 10.0};
    for (int I = 0; I < 8; ++I)
        Hull.Points.push_back(FVec3d{I & 1 ? 20.0 : -20.0, I & 2 ? 20.0 : -20.0, I & 4 ? 20.0 : -20.0});
    Convex.Convexes.push_back(Hull);
    FBuiltBody ConvexBody;
    OK(BuildBody(Host.Id(), Convex, &ConvexBody));
    CHECK(ConvexBody.Hulls.size() == 1, "one hull");

    // Snapshot at step 30, run on; restore and run again: the same hashes.
    OK(Host.Step(30));
    std::vector<uint8_t> Snap;
    OK(Host.Snapshot(Snap));
    std::vector<uint64_t> First;
    for (int I = 0; I < 60; ++I) {
        OK(Host.Step(1));
        First.push_back(Host.Hash());
    }
    OK(Host.Restore(Snap));
    std::vector<uint64_t> Again;
    for (int I = 0; I < 60; ++I) {
        OK(Host.Step(1));
        Again.push_back(Host.Hash());
    }
    CHECK(First == Again, "restored world continues equal");

    // Record 200 steps with an impulse and a force, save a replay, verify it.
    OK(Host.StartJournal());
    OK(Host.AddImpulse(BoxBody.Body, FVec3d{0.0, 500.0, 0.0}));
    for (int I = 0; I < 200; ++I) {
        OK(Host.AddForce(ConvexBody.Body, FVec3d{10.0, 0.0, 0.0}));
        OK(Host.Step(1));
    }
    std::vector<uint8_t> Replay;
    OK(Host.StopJournal(Replay));
    FScrubber Scrub;
    OK(Scrub.Open(Replay.data(), int64_t(Replay.size())));
    CHECK(Scrub.StepCount() == 200, "replay of %llu steps", (unsigned long long)Scrub.StepCount());
    FScrubVerify V;
    OK(Scrub.Verify(&V));
    CHECK(V.Verified() && V.Replayed == Host.Hash(), "the recorded replay verifies");

    // Let everything settle, then check resting heights against the engine's own numbers.
    OK(Host.Step(400));
    FVec3d P;
    FQuatd Q;
    OK(Host.GetTransform(BoxBody.Body, &P, &Q));
    m3DVec3 E;
    OK(m3Body_GetPosition(BoxBody.Body, &E));
    m3DVec3 EBack;
    OK(Units::PositionToEngine(P, &EBack));
    CHECK(std::memcmp(&EBack, &E, sizeof E) == 0 && Near(P.Z, E.y * 100.0, 1e-9) && Near(P.X, E.x * 100.0, 1e-9),
          "Unreal position is the engine's mapped");
    CHECK(Near(P.Z, 25.0, 1.0), "the box rests at Z = %g cm (half extent 25)", P.Z);
    OK(Host.GetTransform(CapsuleBody.Body, &P, &Q));
    CHECK(Near(P.Z, 60.0, 1.0), "the standing capsule rests at Z = %g cm (half height 60)", P.Z);
    CHECK(Near(Q.W < 0 ? -Q.W : Q.W, 1.0, 1e-3), "and stays upright (w %g)", Q.W);
    OK(Host.GetTransform(ConvexBody.Body, &P, &Q));
    CHECK(Near(P.Z, 10.0, 1.0), "the convex cube (centre 10 cm above its origin) rests at Z = %g cm", P.Z);

    // A ray straight down from above the box hits its top (Z = 50) with an up normal.
    FRayHit Hit;
    OK(Host.GetTransform(BoxBody.Body, &P, &Q));
    OK(Host.RayCast(FVec3d{P.X, P.Y, 500.0}, FVec3d{P.X, P.Y, -100.0}, &Hit));
    CHECK(Hit.bHit && Near(Hit.Point.Z, P.Z + 25.0, 0.5) && Near(Hit.Normal.Z, 1.0, 1e-4) &&
              SameBody(Hit.Body, BoxBody.Body) && !SameBody(Hit.Body, ConvexBody.Body),
          "ray hit at Z %g normal (%g, %g, %g)", Hit.Point.Z, Hit.Normal.X, Hit.Normal.Y, Hit.Normal.Z);
    std::vector<m3ShapeId> Over;
    OK(Host.OverlapSphere(FVec3d{P.X, P.Y, P.Z}, 10.0, Over));
    CHECK(Over.size() == 1, "%zu shapes overlap a sphere inside the box", Over.size());

    // A mesh floor in Unreal's winding (front face up): a ray from above hits it.
    FBodyDesc Floor;
    Floor.Type = m3_staticBody;
    Floor.Position = FVec3d{0.0, 2000.0, 0.0};
    FTriangleMeshElem Mesh;
    Mesh.Vertices = {FVec3d{-100, -100, 0}, FVec3d{100, -100, 0}, FVec3d{100, 100, 0}, FVec3d{-100, 100, 0}};
    // Counter-clockwise seen from +Z in Unreal's component maths: (b-a) x (c-a) = +Z.
    Mesh.Indices = {0, 1, 2, 0, 2, 3};
    Floor.Meshes.push_back(Mesh);
    FBuiltBody FloorBody;
    OK(BuildBody(Host.Id(), Floor, &FloorBody));
    OK(Host.RayCast(FVec3d{0.0, 2000.0, 100.0}, FVec3d{0.0, 2000.0, -100.0}, &Hit));
    CHECK(Hit.bHit && Near(Hit.Normal.Z, 1.0, 1e-4), "mesh hit %d normal Z %g", Hit.bHit, Hit.Normal.Z);

    // Refusals leave nothing behind.
    FBodyDesc Bad;
    Bad.Boxes.push_back(FBoxElem{FTransformd{}, FVec3d{10.0, 10.0, 10.0}});
    Bad.Spheres.push_back(FSphereElem{FTransformd{}, -5.0});
    const int32_t Before = Host.Raw().BodyCount();
    FBuiltBody BadBody;
    CHECK(BuildBody(Host.Id(), Bad, &BadBody) == m3_errorArgument, "negative radius refused");
    CHECK(Host.Raw().BodyCount() == Before, "no body left behind");
    std::printf("world host: box rests at %g cm, snapshot/restore equal, recorded replay verifies\n", P.Z);
}

// ---- debug lines ----

// What m3World_Draw described, turned into lines by AppendShapeLines: the lines, and per
// shape callback its kind and how many lines it gave.
struct FDrawn {
    std::vector<FLine> Lines;
    std::vector<m3ShapeType> Types;
    std::vector<size_t> Counts;
};

static void CollectShape(m3ShapeId, m3BodyId, m3DVec3 Position, m3Quat Rotation, const m3DebugShape* Geometry, bool,
                         void* Context)
{
    FDrawn& D = *static_cast<FDrawn*>(Context);
    const size_t Before = D.Lines.size();
    AppendShapeLines(Position, Rotation, *Geometry, D.Lines);
    D.Types.push_back(Geometry->type);
    D.Counts.push_back(D.Lines.size() - Before);
}

static FDrawn DrawWorld(m3WorldId World)
{
    FDrawn D;
    m3DebugDraw Draw = m3DefaultDebugDraw();
    Draw.shapeFcn = &CollectShape;
    Draw.drawShapes = true;
    Draw.context = &D;
    OK(m3World_Draw(World, &Draw));
    return D;
}

// A body at engine (2, 3, 4) m turned 90 degrees about the engine's Y (up): body-frame
// (x, y, z) lands at (2 + z, 3 + y, 4 - x), i.e. Unreal cm (200 + 100 z, 400 - 100 x, 300 + 100 y).
static m3BodyId TurnedBody(FWorldHost& Host)
{
    m3BodyDef Def = m3DefaultBodyDef();
    Def.type = m3_staticBody;
    Def.position = m3DVec3{2.0, 3.0, 4.0};
    Def.rotation = m3MakeQuatFromAxisAngle(m3Vec3{0.0f, 1.0f, 0.0f}, 1.5707963267948966f);
    m3BodyId Body{};
    OK(m3Body_Create(Host.Id(), &Def, &Body));
    return Body;
}

static FVec3d TurnedPoint(double X, double Y, double Z) { return FVec3d{200.0 + 100.0 * Z, 400.0 - 100.0 * X, 300.0 + 100.0 * Y}; }

static bool Same(const FVec3d& A, const FVec3d& B, double Tol)
{
    return Near(A.X, B.X, Tol) && Near(A.Y, B.Y, Tol) && Near(A.Z, B.Z, Tol);
}

static double Distance(const FVec3d& A, const FVec3d& B)
{
    return std::sqrt((A.X - B.X) * (A.X - B.X) + (A.Y - B.Y) * (A.Y - B.Y) + (A.Z - B.Z) * (A.Z - B.Z));
}

// Each endpoint is one of Points (within 1e-3 cm); how many endpoints each point got.
static std::vector<int> EndpointUse(const std::vector<FLine>& Lines, const std::vector<FVec3d>& Points, bool* AllOnPoints)
{
    std::vector<int> Use(Points.size(), 0);
    *AllOnPoints = true;
    for (const FLine& L : Lines) {
        for (const FVec3d& E : {L.Start, L.End}) {
            bool Found = false;
            for (size_t I = 0; I < Points.size(); ++I)
                if (Same(E, Points[I], 1e-3)) {
                    ++Use[I];
                    Found = true;
                    break;
                }
            *AllOnPoints = *AllOnPoints && Found;
        }
    }
    return Use;
}

// The world host's sink: what maul3d.Draw hands the glue.
class FLineSink final : public IDebugDrawSink {
public:
    std::vector<FLine> Lines;
    int Shapes = 0;
    void DrawShape(m3BodyId, const std::vector<FLine>& LinesCm, bool) override
    {
        ++Shapes;
        Lines.insert(Lines.end(), LinesCm.begin(), LinesCm.end());
    }
};

static void TestDebugLines()
{
    const m3ShapeDef ShapeDef = m3DefaultShapeDef();

    // A box offset in its turned body: centre (1, 0.5, 0) m, half extents (0.1, 0.2, 0.3)
    // m -> corners at Unreal X = 200 + 100 z in {170, 230}, Y = 400 - 100 x in {290, 310},
    // Z = 300 + 100 y in {330, 370}.
    {
        FWorldHost Host;
        OK(Host.Create(FWorldSettings{}));
        const m3BodyId Body = TurnedBody(Host);
        m3Box Box = m3MakeBox(0.1f, 0.2f, 0.3f);
        Box.center = m3Vec3{1.0f, 0.5f, 0.0f};
        m3ShapeId Shape{};
        OK(m3CreateBoxShape(Body, &ShapeDef, &Box, &Shape));
        const FDrawn D = DrawWorld(Host.Id());
        CHECK(D.Types.size() == 1 && D.Types[0] == m3_boxShape && D.Lines.size() == 12, "box: %zu shapes, %zu lines",
              D.Types.size(), D.Lines.size());
        std::vector<FVec3d> Corners;
        for (int I = 0; I < 8; ++I)
            Corners.push_back(FVec3d{I & 1 ? 230.0 : 170.0, I & 2 ? 310.0 : 290.0, I & 4 ? 370.0 : 330.0});
        bool OnCorners = false;
        const std::vector<int> Use = EndpointUse(D.Lines, Corners, &OnCorners);
        bool ThreeEach = true;
        for (int U : Use) ThreeEach = ThreeEach && U == 3;
        // Edges: the two ends differ along one Unreal axis only (the box is axis-aligned
        // in Unreal once turned), by the full extent along it.
        int AlongX = 0, AlongY = 0, AlongZ = 0;
        for (const FLine& L : D.Lines) {
            const bool X = !Near(L.Start.X, L.End.X, 1e-3), Y = !Near(L.Start.Y, L.End.Y, 1e-3),
                       Z = !Near(L.Start.Z, L.End.Z, 1e-3);
            AlongX += X && !Y && !Z;
            AlongY += Y && !X && !Z;
            AlongZ += Z && !X && !Y;
        }
        CHECK(OnCorners && ThreeEach && AlongX == 4 && AlongY == 4 && AlongZ == 4,
              "box lines: on corners %d, each corner 3 ends %d, edges along X/Y/Z %d/%d/%d", OnCorners, ThreeEach,
              AlongX, AlongY, AlongZ);

        // The world host's path (maul3d.Draw) hands the sink the same lines, bit for bit.
        FLineSink Sink;
        OK(Host.Draw(Sink));
        CHECK(Sink.Shapes == 1 && Sink.Lines.size() == D.Lines.size() &&
                  std::memcmp(Sink.Lines.data(), D.Lines.data(), D.Lines.size() * sizeof(FLine)) == 0,
              "world host draw: %d shapes, %zu lines", Sink.Shapes, Sink.Lines.size());
        std::printf("debug lines: box %zu lines on its corners, world host sink %zu lines\n", D.Lines.size(),
                    Sink.Lines.size());
    }

    // A sphere of radius 0.25 m centred (0, 0, 0.5) in the turned body: every line end 25
    // cm from Unreal (250, 400, 300), spanning 50 cm along each axis.
    {
        FWorldHost Host;
        OK(Host.Create(FWorldSettings{}));
        const m3BodyId Body = TurnedBody(Host);
        const m3Sphere Sphere{m3Vec3{0.0f, 0.0f, 0.5f}, 0.25f};
        m3ShapeId Shape{};
        OK(m3CreateSphereShape(Body, &ShapeDef, &Sphere, &Shape));
        const FDrawn D = DrawWorld(Host.Id());
        const FVec3d Center = TurnedPoint(0.0, 0.0, 0.5);
        double Worst = 0.0;
        FVec3d Lo{1e9, 1e9, 1e9}, Hi{-1e9, -1e9, -1e9};
        for (const FLine& L : D.Lines)
            for (const FVec3d& E : {L.Start, L.End}) {
                const double Off = std::fabs(Distance(E, Center) - 25.0);
                Worst = Off > Worst ? Off : Worst;
                Lo = FVec3d{E.X < Lo.X ? E.X : Lo.X, E.Y < Lo.Y ? E.Y : Lo.Y, E.Z < Lo.Z ? E.Z : Lo.Z};
                Hi = FVec3d{E.X > Hi.X ? E.X : Hi.X, E.Y > Hi.Y ? E.Y : Hi.Y, E.Z > Hi.Z ? E.Z : Hi.Z};
            }
        CHECK(D.Types.size() == 1 && D.Types[0] == m3_sphereShape && D.Lines.size() == 3 * DebugCircleSegments,
              "sphere: %zu lines", D.Lines.size());
        CHECK(Worst < 1e-3, "sphere line ends off the radius by up to %g cm", Worst);
        CHECK(Near(Hi.X - Lo.X, 50.0, 1e-3) && Near(Hi.Y - Lo.Y, 50.0, 1e-3) && Near(Hi.Z - Lo.Z, 50.0, 1e-3) &&
                  Near(Hi.X + Lo.X, 2.0 * Center.X, 1e-3) && Near(Hi.Z + Lo.Z, 2.0 * Center.Z, 1e-3),
              "sphere spans (%g..%g, %g..%g, %g..%g)", Lo.X, Hi.X, Lo.Y, Hi.Y, Lo.Z, Hi.Z);
    }

    // A hull: a 0.4 m cube centred (0.5, 0, 0) in the turned body. Its lines are its 12
    // edges, once each: every end is one of its corners placed by the pose, 40 cm long.
    {
        FWorldHost Host;
        OK(Host.Create(FWorldSettings{}));
        const m3BodyId Body = TurnedBody(Host);
        std::vector<m3Vec3> Points;
        std::vector<FVec3d> Placed;
        for (int I = 0; I < 8; ++I) {
            const float X = I & 1 ? 0.7f : 0.3f, Y = I & 2 ? 0.2f : -0.2f, Z = I & 4 ? 0.2f : -0.2f;
            Points.push_back(m3Vec3{X, Y, Z});
            Placed.push_back(TurnedPoint(X, Y, Z));
        }
        m3HullId Hull{};
        OK(m3World_CreateHull(Host.Id(), Points.data(), int32_t(Points.size()), &Hull));
        m3ShapeId Shape{};
        OK(m3CreateHullShape(Body, &ShapeDef, Hull, &Shape));
        const FDrawn D = DrawWorld(Host.Id());
        bool OnCorners = false;
        const std::vector<int> Use = EndpointUse(D.Lines, Placed, &OnCorners);
        bool ThreeEach = true, Long = true, Unique = true;
        for (int U : Use) ThreeEach = ThreeEach && U == 3;
        for (size_t I = 0; I < D.Lines.size(); ++I) {
            Long = Long && Near(Distance(D.Lines[I].Start, D.Lines[I].End), 40.0, 1e-3);
            for (size_t J = 0; J < I; ++J)
                Unique = Unique && !(Same(D.Lines[I].Start, D.Lines[J].Start, 1e-3) &&
                                     Same(D.Lines[I].End, D.Lines[J].End, 1e-3)) &&
                         !(Same(D.Lines[I].Start, D.Lines[J].End, 1e-3) && Same(D.Lines[I].End, D.Lines[J].Start, 1e-3));
        }
        CHECK(D.Types.size() == 1 && D.Types[0] == m3_hullShape && D.Lines.size() == 12, "hull: %zu lines",
              D.Lines.size());
        CHECK(OnCorners && ThreeEach && Long && Unique, "hull lines: on corners %d, 3 ends each %d, 40 cm %d, unique %d",
              OnCorners, ThreeEach, Long, Unique);
    }

    // A mesh of two triangles on the turned body: one callback per triangle, 3 lines each,
    // a closed loop through its placed vertices.
    {
        FWorldHost Host;
        OK(Host.Create(FWorldSettings{}));
        const m3BodyId Body = TurnedBody(Host);
        const m3Vec3 Vertices[4] = {{0.0f, 0.0f, 0.0f}, {1.0f, 0.0f, 0.0f}, {1.0f, 0.0f, 1.0f}, {0.0f, 0.0f, 1.0f}};
        const uint32_t Indices[6] = {0, 2, 1, 0, 3, 2};
        std::vector<FVec3d> Placed;
        for (const m3Vec3& V : Vertices) Placed.push_back(TurnedPoint(V.x, V.y, V.z));
        m3MeshId Mesh{};
        OK(m3World_CreateMesh(Host.Id(), Vertices, 4, Indices, 2, &Mesh));
        m3ShapeId Shape{};
        OK(m3CreateMeshShape(Body, &ShapeDef, Mesh, &Shape));
        const FDrawn D = DrawWorld(Host.Id());
        bool Loops = D.Lines.size() == 6;
        for (size_t T = 0; Loops && T < 2; ++T)
            for (size_t I = 0; I < 3; ++I)
                Loops = Loops && Same(D.Lines[3 * T + I].End, D.Lines[3 * T + (I + 1) % 3].Start, 1e-9);
        bool OnVertices = false;
        const std::vector<int> Use = EndpointUse(D.Lines, Placed, &OnVertices);
        CHECK(D.Types.size() == 2 && D.Types[0] == m3_meshShape && D.Counts[0] == 3 && D.Counts[1] == 3 && Loops &&
                  OnVertices && Use[0] == 4 && Use[2] == 4 && Use[1] == 2 && Use[3] == 2,
              "mesh: %zu triangles, %zu lines, loops %d, on vertices %d", D.Types.size(), D.Lines.size(), Loops,
              OnVertices);
    }

    // A capsule (segment (0.5, 0, 0)..(0.5, 0.6, 0), radius 0.1) in the turned body: the
    // segment lands on Unreal (200, 350, 300..360); every line end is 10 cm from it. A
    // cylinder (centre (0, 0, 0.5), half height 0.3, radius 0.2, axis the body's Y) around
    // Unreal (250, 400, 300): ends 20 cm from the vertical axis, 30 cm above or below.
    {
        FWorldHost Host;
        OK(Host.Create(FWorldSettings{}));
        const m3BodyId Body = TurnedBody(Host);
        const m3Capsule Capsule{m3Vec3{0.5f, 0.0f, 0.0f}, m3Vec3{0.5f, 0.6f, 0.0f}, 0.1f};
        m3ShapeId Shape{};
        OK(m3CreateCapsuleShape(Body, &ShapeDef, &Capsule, &Shape));
        const m3Cylinder Cylinder{m3Vec3{0.0f, 0.0f, 0.5f}, m3Quat{0.0f, 0.0f, 0.0f, 1.0f}, 0.3f, 0.2f};
        OK(m3CreateCylinderShape(Body, &ShapeDef, &Cylinder, &Shape));
        const FDrawn D = DrawWorld(Host.Id());
        CHECK(D.Types.size() == 2 && D.Types[0] == m3_capsuleShape && D.Types[1] == m3_cylinderShape &&
                  D.Counts[0] == size_t(2 * DebugCircleSegments + 4 + 2 * DebugCircleSegments) &&
                  D.Counts[1] == size_t(2 * DebugCircleSegments + 4),
              "capsule and cylinder: %zu shapes", D.Types.size());
        double CapsuleWorst = 0.0, CylinderWorst = 0.0;
        for (size_t I = 0; I < D.Lines.size(); ++I)
            for (const FVec3d& E : {D.Lines[I].Start, D.Lines[I].End}) {
                if (I < D.Counts[0]) {
                    const double Z = E.Z < 300.0 ? 300.0 : E.Z > 360.0 ? 360.0 : E.Z;
                    const double Off = std::fabs(Distance(E, FVec3d{200.0, 350.0, Z}) - 10.0);
                    CapsuleWorst = Off > CapsuleWorst ? Off : CapsuleWorst;
                } else {
                    const double Radial = std::sqrt((E.X - 250.0) * (E.X - 250.0) + (E.Y - 400.0) * (E.Y - 400.0));
                    const double Off = std::fabs(Radial - 20.0) + std::fabs(std::fabs(E.Z - 300.0) - 30.0);
                    CylinderWorst = Off > CylinderWorst ? Off : CylinderWorst;
                }
            }
        CHECK(CapsuleWorst < 1e-3 && CylinderWorst < 1e-3, "capsule ends off by %g cm, cylinder ends by %g cm",
              CapsuleWorst, CylinderWorst);
    }

    // A plane (normal the body's Y, offset 0.5 m) on the turned body: a square of side 20 m
    // at Unreal Z 350 around (200, 400), and its normal up from there.
    {
        FWorldHost Host;
        OK(Host.Create(FWorldSettings{}));
        const m3BodyId Body = TurnedBody(Host);
        const m3Plane Plane{m3Vec3{0.0f, 1.0f, 0.0f}, 0.5f};
        m3ShapeId Shape{};
        OK(m3CreatePlaneShape(Body, &ShapeDef, &Plane, &Shape));
        const FDrawn D = DrawWorld(Host.Id());
        bool Square = D.Lines.size() == 5;
        for (size_t I = 0; Square && I < 4; ++I)
            for (const FVec3d& E : {D.Lines[I].Start, D.Lines[I].End})
                Square = Square && Near(E.Z, 350.0, 1e-3) && Near(std::fabs(E.X - 200.0), 1000.0, 1e-2) &&
                         Near(std::fabs(E.Y - 400.0), 1000.0, 1e-2);
        CHECK(D.Types.size() == 1 && D.Types[0] == m3_planeShape && Square &&
                  Same(D.Lines[4].Start, FVec3d{200.0, 400.0, 350.0}, 1e-3) &&
                  Same(D.Lines[4].End, FVec3d{200.0, 400.0, 600.0}, 1e-3),
              "plane: %zu lines, square %d", D.Lines.size(), Square);
    }

    // A ray shape: debug draw describes it (m3_rayShape) and its one line is the segment
    // m3Shape_GetRay gives: origin (0, 0.2, 0) along -Y for 0.5 m in the turned body ->
    // Unreal (200, 400, 320) down to Z 270.
    {
        FWorldHost Host;
        OK(Host.Create(FWorldSettings{}));
        const m3BodyId Body = TurnedBody(Host);
        const m3Ray Ray{m3Vec3{0.0f, 0.2f, 0.0f}, m3Vec3{0.0f, -2.0f, 0.0f}, 0.5f, false};
        m3ShapeId Shape{};
        OK(m3CreateRayShape(Body, &ShapeDef, &Ray, &Shape));
        const FDrawn D = DrawWorld(Host.Id());
        m3Ray Got{};
        OK(m3Shape_GetRay(Shape, &Got));
        m3DVec3 Position;
        m3Quat Rotation;
        OK(m3Body_GetPosition(Body, &Position));
        OK(m3Body_GetRotation(Body, &Rotation));
        std::vector<FLine> Lines;
        AppendRayLines(Position, Rotation, Got, Lines);
        CHECK(D.Types.size() == 1 && D.Types[0] == m3_rayShape && D.Lines.size() == 1 && Lines.size() == 1 &&
                  Same(Lines[0].Start, FVec3d{200.0, 400.0, 320.0}, 1e-3) &&
                  Same(Lines[0].End, FVec3d{200.0, 400.0, 270.0}, 1e-3) &&
                  Same(D.Lines[0].Start, Lines[0].Start, 1e-9) && Same(D.Lines[0].End, Lines[0].End, 1e-9),
              "ray: %zu drawn shapes, %zu lines", D.Types.size(), D.Lines.size());
    }

    // A malformed hull (an index past its vertices) draws nothing.
    {
        const m3Vec3 Vertices[3] = {{0.0f, 0.0f, 0.0f}, {1.0f, 0.0f, 0.0f}, {0.0f, 1.0f, 0.0f}};
        const uint8_t Faces[3] = {0, 1, 7};
        const uint16_t Starts[2] = {0, 3};
        m3DebugShape Bad{};
        Bad.type = m3_hullShape;
        Bad.hullVertices = Vertices;
        Bad.hullVertexCount = 3;
        Bad.hullFaceVertices = Faces;
        Bad.hullFaceStarts = Starts;
        Bad.hullFaceCount = 1;
        std::vector<FLine> Lines;
        AppendShapeLines(m3DVec3{0.0, 0.0, 0.0}, m3Quat{0.0f, 0.0f, 0.0f, 1.0f}, Bad, Lines);
        CHECK(Lines.empty(), "malformed hull gave %zu lines", Lines.size());
    }
    std::printf("debug lines: sphere %d, capsule %d, cylinder %d, hull 12, triangle 3, plane 5, ray 1\n",
                3 * DebugCircleSegments, 4 * DebugCircleSegments + 4, 2 * DebugCircleSegments + 4);
}

// ---- components below components: transforms composed by the library ----

static void TestNestedComponents()
{
    // A child 100 cm forward under a parent turned 90 degrees about Z, scaled 2, raised
    // 50 cm: UE's Child * Parent puts it at (0, 200, 50), scale 2, the parent's rotation.
    const double H = 0.70710678118654752;
    FTransformd Child{};
    Child.Translation = FVec3d{100.0, 0.0, 0.0};
    FTransformd Parent{};
    Parent.Translation = FVec3d{0.0, 0.0, 50.0};
    Parent.Rotation = FQuatd{0.0, 0.0, H, H};
    Parent.Scale = FVec3d{2.0, 2.0, 2.0};
    FTransformd C{};
    OK(Units::Compose(Child, Parent, &C));
    CHECK(Near(C.Translation.X, 0.0, 1e-9) && Near(C.Translation.Y, 200.0, 1e-9) && Near(C.Translation.Z, 50.0, 1e-9),
          "composed translation (%g, %g, %g)", C.Translation.X, C.Translation.Y, C.Translation.Z);
    CHECK(C.Scale.X == 2.0 && C.Scale.Y == 2.0 && C.Scale.Z == 2.0, "composed scale");
    CHECK(Near(C.Rotation.Z, H, 1e-12) && Near(C.Rotation.W, H, 1e-12), "composed rotation");
    // Two turns of 45 degrees about Z make the parent's 90.
    const double S = 0.38268343236508977, Co = 0.92387953251128674;
    FTransformd Half{};
    Half.Rotation = FQuatd{0.0, 0.0, S, Co};
    OK(Units::Compose(Half, Half, &C));
    CHECK(Near(C.Rotation.Z, H, 1e-12) && Near(C.Rotation.W, H, 1e-12), "45 + 45 degrees (%g, %g)", C.Rotation.Z,
          C.Rotation.W);
    FTransformd Flat{};
    Flat.Scale = FVec3d{1.0, 0.0, 1.0};
    CHECK(Units::Compose(Child, Flat, &C) == m3_errorArgument, "a zero scale is refused");

    // A static body whose box (half extent 10 cm) sits under a scene component raised 100
    // cm and turned 45 degrees about Z: the box's top is at Z = 110, and its turned corner
    // reaches 14.1 cm along X.
    FWorldHost Host;
    OK(Host.Create(FWorldSettings{}));
    FTransformd Scene{};
    Scene.Translation = FVec3d{0.0, 0.0, 100.0};
    Scene.Rotation = FQuatd{0.0, 0.0, S, Co};
    FTransformd BoxInBody{};
    OK(Units::Compose(FTransformd{}, Scene, &BoxInBody));
    FBodyDesc Desc;
    Desc.Type = m3_staticBody;
    Desc.Boxes.push_back(FBoxElem{BoxInBody, FVec3d{10.0, 10.0, 10.0}});
    FBuiltBody Built;
    OK(BuildBody(Host.Id(), Desc, &Built));
    OK(Host.Step(1));
    FRayHit Hit;
    OK(Host.RayCast(FVec3d{0.0, 0.0, 500.0}, FVec3d{0.0, 0.0, -100.0}, &Hit));
    CHECK(Hit.bHit && Near(Hit.Point.Z, 110.0, 0.01), "the nested box's top at Z %g", Hit.Point.Z);
    OK(Host.RayCast(FVec3d{13.5, 0.0, 500.0}, FVec3d{13.5, 0.0, -100.0}, &Hit));
    CHECK(Hit.bHit, "the turned box reaches X = 13.5 cm (its corner is at 14.1)");
    OK(Host.RayCast(FVec3d{10.0, 10.0, 500.0}, FVec3d{10.0, 10.0, -100.0}, &Hit));
    CHECK(!Hit.bHit, "(10, 10) is outside the turned box (an unturned one holds it)");
    std::printf("nested components: transforms composed by the library, a turned box under a scene component hit "
                "where it is\n");
}


// A static box (UE units): centre and half extents in cm.
static FBuiltBody StaticBox(FWorldHost& Host, const FVec3d& Center, const FVec3d& HalfExtent)
{
    FBodyDesc D;
    D.Type = m3_staticBody;
    D.Position = Center;
    D.Boxes.push_back(FBoxElem{FTransformd{}, HalfExtent});
    FBuiltBody B;
    OK(BuildBody(Host.Id(), D, &B));
    return B;
}

// The C defs built from UE units, read back in UE units.
static void TestGameplayDefs()
{
    FCharacterSettings C;
    C.Location = FVec3d{120.0, -40.0, 90.0};
    m3CharacterDef CD;
    OK(BuildCharacterDef(C, &CD));
    CHECK(CD.position.x == 1.2 && CD.position.y == 0.9 && CD.position.z == -0.4, "character at (%g, %g, %g) m",
          CD.position.x, CD.position.y, CD.position.z);
    const FVec3d CBack = Units::PositionToUnreal(CD.position);
    CHECK(CBack.X == 120.0 && CBack.Y == -40.0 && CBack.Z == 90.0, "character location round trip");
    CHECK(CD.up.x == 0.0f && CD.up.y == 1.0f && CD.up.z == 0.0f, "character up (%g, %g, %g)", CD.up.x, CD.up.y, CD.up.z);
    // UE's capsule (radius 34, half height 88 with the caps) is the engine's radius 0.34 and
    // cylinder half height 0.54.
    CHECK(Near(CD.radius, 0.34, 1e-7) && Near(CD.halfHeight, 0.54, 1e-7), "capsule %g / %g m", CD.radius,
          CD.halfHeight);
    CHECK(Near(Units::LengthToUnreal(CD.radius), 34.0, 1e-4) && Near(Units::LengthToUnreal(CD.halfHeight), 54.0, 1e-4),
          "capsule back %g / %g cm", Units::LengthToUnreal(CD.radius), Units::LengthToUnreal(CD.halfHeight));
    CHECK(Near(Units::LengthToUnreal(CD.settings.stepHeight), 45.0, 1e-4) &&
              Near(Units::LengthToUnreal(CD.settings.skin), 2.0, 1e-5) &&
              Near(Units::LengthToUnreal(CD.settings.snapToGround), 50.0, 1e-4),
          "step %g skin %g snap %g m", CD.settings.stepHeight, CD.settings.skin, CD.settings.snapToGround);
    CHECK(Near(CD.settings.maxSlopeAngle, 0.78129, 1e-5), "slope %g rad", CD.settings.maxSlopeAngle);
    C.RadiusCm = -1.0;
    CHECK(BuildCharacterDef(C, &CD) == m3_errorArgument, "negative radius refused");

    FVehicleSettings V;
    FWheelSettings W;
    W.PositionCm = FVec3d{140.0, 80.0, -20.0};
    W.MaxSteerDegrees = 30.0;
    V.Wheels.push_back(W);
    m3VehicleDef VD;
    m3BodyId NoChassis{};
    OK(BuildVehicleDef(NoChassis, V, &VD));
    const m3WheelDef& WD = VD.wheels[0];
    CHECK(VD.wheelCount == 1 && Near(WD.position.x, 1.4, 1e-7) && Near(WD.position.y, -0.2, 1e-7) &&
              Near(WD.position.z, 0.8, 1e-7),
          "wheel at (%g, %g, %g) m", WD.position.x, WD.position.y, WD.position.z);
    CHECK(WD.suspensionDirection.x == 0.0f && WD.suspensionDirection.y == -1.0f && WD.suspensionDirection.z == 0.0f,
          "suspension down");
    CHECK(VD.up.y == 1.0f && VD.forward.x == 1.0f && VD.forward.y == 0.0f && VD.forward.z == 0.0f,
          "vehicle up +Y, forward +X");
    const FVec3d WBack = Units::VectorToUnreal(WD.position);
    CHECK(Near(WBack.X, 140.0, 1e-4) && Near(WBack.Y, 80.0, 1e-4) && Near(WBack.Z, -20.0, 1e-4), "wheel back");
    CHECK(Near(WD.maxSteerAngle, 0.5235988, 1e-6) && Near(Units::LengthToUnreal(WD.radius), 30.0, 1e-4) &&
              Near(Units::LengthToUnreal(WD.maxLength), 50.0, 1e-4),
          "steer %g rad, radius %g, max length %g m", WD.maxSteerAngle, WD.radius, WD.maxLength);
    const m3VehicleInput In = ToEngineInput(FVehicleInput{2.0f, 0.5f, -1.0f, 0.25f});
    CHECK(In.throttle == 1.0f && In.steering == -0.5f && In.brake == 0.0f && In.handbrake == 0.25f,
          "input clamped, steering flipped");
    V.Wheels.clear();
    CHECK(BuildVehicleDef(NoChassis, V, &VD) == m3_errorArgument, "no wheels refused");

    FWaterSettings Wa;
    Wa.CenterCm = FVec3d{100.0, 200.0, -250.0};
    Wa.HalfExtentCm = FVec3d{1000.0, 800.0, 250.0};
    Wa.FlowCmPerSecond = FVec3d{50.0, 0.0, 0.0};
    m3WaterVolumeDef WaD;
    OK(BuildWaterDef(Wa, &WaD));
    CHECK(WaD.center.x == 1.0 && WaD.center.y == -2.5 && WaD.center.z == 2.0, "water centre (%g, %g, %g)",
          WaD.center.x, WaD.center.y, WaD.center.z);
    CHECK(Near(WaD.halfExtents.x, 10.0, 1e-6) && Near(WaD.halfExtents.y, 2.5, 1e-6) && Near(WaD.halfExtents.z, 8.0, 1e-6),
          "water half extents (%g, %g, %g): UE's Z is the engine's up", WaD.halfExtents.x, WaD.halfExtents.y,
          WaD.halfExtents.z);
    CHECK(Near(WaD.flow.x, 0.5, 1e-7) && WaD.flow.y == 0.0f && WaD.flow.z == 0.0f, "flow");
    CHECK(Near(WaD.rotation.w, 1.0, 1e-7), "unrotated box");
    const FVec3d WaBack = Units::PositionToUnreal(WaD.center);
    CHECK(WaBack.X == 100.0 && WaBack.Y == 200.0 && WaBack.Z == -250.0, "water centre round trip");
    std::printf("gameplay defs: capsule r %.2f h %.2f m, slope %.5f rad, wheel (%.2f, %.2f, %.2f) m, water half (%.1f, %.1f, %.1f) m\n",
                CD.radius, CD.halfHeight, CD.settings.maxSlopeAngle, WD.position.x, WD.position.y, WD.position.z,
                WaD.halfExtents.x, WaD.halfExtents.y, WaD.halfExtents.z);
}

// A character built from UE units walks along UE +X on a floor and up a 30 cm step.
static void TestCharacter()
{
    FWorldHost Host;
    OK(Host.Create(FWorldSettings{}));
    StaticBox(Host, FVec3d{0.0, 0.0, -50.0}, FVec3d{3000.0, 3000.0, 50.0});  // floor, top at Z 0
    StaticBox(Host, FVec3d{650.0, 0.0, 15.0}, FVec3d{250.0, 500.0, 15.0});   // step, top at Z 30, from X 400
    FCharacterSettings S;
    S.Location = FVec3d{0.0, 0.0, 92.0};
    FCharacterHost Walker;
    OK(Walker.Create(Host, S));
    OK(Host.Step(10));
    const FVec3d Start = Walker.GetLocation();
    CHECK(Walker.IsGrounded(), "grounded after settling (state %d)", int(Walker.GetGround()));
    // The capsule's bottom a little over the floor: its 2 cm skin (and the mover's contact
    // tolerance) below the 88 cm half height.
    CHECK(Start.Z > 88.0 && Start.Z < 92.0 && Near(Start.X, 0.0, 1e-6), "stands at Z %.3f (half height 88, skin 2)",
          Start.Z);
    Walker.SetDesiredVelocity(FVec3d{300.0, 0.0, 0.0});
    int NotGrounded = 0;
    int Mismatches = 0;
    double MaxZ = 0.0;
    for (int I = 0; I < 150; ++I) {
        OK(Host.Step(1));
        if (!Walker.IsGrounded()) ++NotGrounded;
        const FVec3d L = Walker.GetLocation();
        m3DVec3 P;
        OK(m3Character_GetPosition(Walker.Id(), &P));
        const FVec3d Want = Units::PositionToUnreal(P);
        if (std::memcmp(&L, &Want, sizeof L) != 0) ++Mismatches;
        if (L.Z > MaxZ) MaxZ = L.Z;
    }
    const FVec3d End = Walker.GetLocation();
    const FVec3d Vel = Walker.GetVelocity();
    CHECK(Mismatches == 0, "%d steps where the UE location is not the core's position converted", Mismatches);
    CHECK(NotGrounded == 0, "off the ground %d of 150 steps", NotGrounded);
    // 150 steps of 5 cm make 750 on the flat; the core's step-up advances 38 cm in the one
    // step that climbs (X 364.7 -> 402.9), so 782.9 here (reported, the core's to fix).
    CHECK(End.X > 700.0 && End.X < 800.0, "walked to X %.3f (2.5 s at 300 cm/s)", End.X);
    CHECK(Near(End.Y, 0.0, 1.0), "stayed on its line (Y %.3f)", End.Y);
    CHECK(End.Z > 118.0 && End.Z < 122.0 && MaxZ < 125.0, "on the step at Z %.3f (30 + 88 + skin), highest %.3f",
          End.Z, MaxZ);
    CHECK(Near(Vel.X, 300.0, 1.0), "velocity X %.3f cm/s", Vel.X);
    m3BodyId Body = Walker.BodyId();
    FVec3d BodyPos;
    FQuatd BodyRot;
    OK(Host.GetTransform(Body, &BodyPos, &BodyRot));
    CHECK(Near(BodyPos.X, End.X, 1e-3) && Near(BodyPos.Z, End.Z, 1e-3), "the inner body is at the capsule");

    // A jump of 420 cm/s peaks near v^2 / 2g = 90 cm above and lands grounded.
    Walker.SetDesiredVelocity(FVec3d{});
    CHECK(Walker.Jump(420.0), "jump from the ground");
    double Peak = End.Z;
    int Airborne = 0;
    for (int I = 0; I < 90; ++I) {
        OK(Host.Step(1));
        const FVec3d L = Walker.GetLocation();
        if (L.Z > Peak) Peak = L.Z;
        if (!Walker.IsGrounded()) ++Airborne;
    }
    CHECK(Near(Peak - End.Z, 90.0, 6.0), "jumped %.3f cm", Peak - End.Z);
    CHECK(Airborne > 40 && Airborne < 60 && Walker.IsGrounded(), "%d steps in the air (about 2 v / g = 51), landed",
          Airborne);
    CHECK(Near(Walker.GetLocation().Z, End.Z, 1.0), "landed at Z %.3f", Walker.GetLocation().Z);
    std::printf("character: stood at Z %.3f, walked to (%.3f, %.3f, %.3f) cm at %.3f cm/s, grounded 150/150, "
                "jumped %.3f cm, %d steps airborne\n",
                Start.Z, End.X, End.Y, End.Z, Vel.X, Peak - End.Z, Airborne);
    Walker.Destroy();
    CHECK(!Walker.IsValid(), "destroyed");
    // A character whose world goes first forgets it (no dangling host, no stale move).
    FCharacterHost Second;
    OK(Second.Create(Host, S));
    Host.Destroy();
    CHECK(!Second.IsValid() && Second.Move() == m3_errorState, "world destroyed under a character");
}
// A 4-wheel vehicle built from UE units: rests on its springs, drives along UE +X when
// throttled, turns right (towards +Y) when steered positive; the wheel visuals follow.
static void TestVehicle()
{
    FWorldHost Host;
    OK(Host.Create(FWorldSettings{}));
    StaticBox(Host, FVec3d{0.0, 0.0, -50.0}, FVec3d{20000.0, 20000.0, 50.0});  // top at Z 0
    FBodyDesc Chassis;
    Chassis.Position = FVec3d{0.0, 0.0, 100.0};
    Chassis.Boxes.push_back(FBoxElem{FTransformd{}, FVec3d{200.0, 90.0, 30.0}});
    Chassis.Material.density = 200.0f;  // 4 x 1.8 x 0.6 m: 864 kg
    FBuiltBody Body;
    OK(BuildBody(Host.Id(), Chassis, &Body));
    FVehicleSettings V;
    for (int I = 0; I < 4; ++I) {
        FWheelSettings W;
        const bool bFront = I < 2;
        W.PositionCm = FVec3d{bFront ? 140.0 : -140.0, (I & 1) ? 80.0 : -80.0, -20.0};
        W.RadiusCm = 35.0;
        W.MaxSteerDegrees = bFront ? 30.0 : 0.0;
        W.bDriven = !bFront;
        W.HandbrakeTorqueNm = bFront ? 0.0f : 3000.0f;
        V.Wheels.push_back(W);
    }
    FVehicleHost Car;
    OK(Car.Create(Host, Body.Body, V));
    CHECK(Car.WheelCount() == 4, "4 wheels");
    OK(Host.Step(1));
    FWheelVisual First;
    OK(Car.GetWheelVisual(0, &First));
    OK(Host.Step(179));
    FVec3d P;
    FQuatd Q;
    OK(Host.GetTransform(Body.Body, &P, &Q));
    FVec3d Vel;
    OK(Host.GetLinearVelocity(Body.Body, &Vel));
    FWheelVisual Rest[4];
    int Touching = 0;
    int Placed = 0;
    for (int I = 0; I < 4; ++I) {
        OK(Car.GetWheelVisual(I, &Rest[I]));
        Touching += Rest[I].bInContact ? 1 : 0;
        // The visual centre is the attachment moved down the suspension by its length.
        if (Near(Rest[I].LocationCm.Z, -20.0 - Rest[I].SuspensionLengthCm, 1e-3) &&
            Near(Rest[I].LocationCm.X, V.Wheels[size_t(I)].PositionCm.X, 1e-3) &&
            Near(Rest[I].LocationCm.Y, V.Wheels[size_t(I)].PositionCm.Y, 1e-3))
            ++Placed;
    }
    // Resting: the wheel's bottom on the ground (chassis Z + wheel Z - radius = 0).
    const double Bottom = P.Z + Rest[0].LocationCm.Z - 35.0;
    CHECK(Touching == 4 && Placed == 4, "%d wheels touching, %d placed on their suspension", Touching, Placed);
    CHECK(Near(Vel.Z, 0.0, 1.0) && Near(P.X, 0.0, 1.0) && Near(P.Y, 0.0, 1.0), "at rest (%.3f, %.3f, %.3f) v %.3f",
          P.X, P.Y, P.Z, Vel.Z);
    CHECK(Near(Bottom, 0.0, 3.0), "a wheel's bottom at Z %.3f", Bottom);
    CHECK(Rest[0].SuspensionLengthCm < 49.0 && Rest[0].SuspensionLengthCm > 5.0 && First.SuspensionLengthCm > Rest[0].SuspensionLengthCm,
          "suspension %.3f cm hanging, %.3f cm resting", First.SuspensionLengthCm, Rest[0].SuspensionLengthCm);
    CHECK(Near(Rest[0].LocationCm.Z - First.LocationCm.Z, First.SuspensionLengthCm - Rest[0].SuspensionLengthCm, 1e-3),
          "the wheel visual rose %.3f cm with the suspension", Rest[0].LocationCm.Z - First.LocationCm.Z);

    // Throttle: along UE +X.
    OK(Car.SetThrottle(1.0f));
    OK(Host.Step(120));
    FVec3d P2;
    OK(Host.GetTransform(Body.Body, &P2, &Q));
    const double Speed = Car.GetForwardSpeedCm();
    FWheelVisual Rear;
    OK(Car.GetWheelVisual(2, &Rear));
    CHECK(P2.X > 200.0 && Near(P2.Y, 0.0, 10.0), "drove to (%.3f, %.3f) cm", P2.X, P2.Y);
    CHECK(Speed > 200.0, "forward speed %.3f cm/s", Speed);
    CHECK(Car.GetGear() >= 1 && Car.GetEngineRpm() > 0.0f, "gear %d, %.0f rpm", Car.GetGear(), Car.GetEngineRpm());
    CHECK(Rear.SpinRadians != Rest[2].SpinRadians, "the rear wheel spun (%.3f rad)", Rear.SpinRadians);
    // Steering right (UE's +1): the front wheels turn to +Y, the car heads towards +Y.
    OK(Car.SetSteering(1.0f));
    OK(Car.SetThrottle(0.5f));
    OK(Host.Step(60));
    FWheelVisual Front;
    OK(Car.GetWheelVisual(0, &Front));
    FVec3d P3;
    OK(Host.GetTransform(Body.Body, &P3, &Q));
    CHECK(Front.SteerDegrees > 25.0f && Front.SteerDegrees < 30.5f, "front wheel steered %.3f degrees", Front.SteerDegrees);
    CHECK(P3.Y > P2.Y + 20.0, "turned right: Y %.3f -> %.3f", P2.Y, P3.Y);
    // The steered wheel's visual rotation turns its forward (UE +X) towards +Y.
    CHECK(Car.GetInput().Steering == 1.0f && Car.GetInput().Throttle == 0.5f, "input held");
    // Brakes stop it.
    OK(Car.SetInput(FVehicleInput{0.0f, 0.0f, 1.0f, 1.0f}));
    OK(Host.Step(240));
    CHECK(Near(Car.GetForwardSpeedCm(), 0.0, 5.0), "braked to %.3f cm/s", Car.GetForwardSpeedCm());
    std::printf("vehicle: rests at Z %.3f (suspension %.3f cm, %.3f after the first step), throttle 2 s: X %.3f at %.3f cm/s, "
                "steered %.3f deg: Y %.3f -> %.3f, braked to %.3f cm/s\n",
                P.Z, Rest[0].SuspensionLengthCm, First.SuspensionLengthCm, P2.X, Speed, Front.SteerDegrees, P2.Y,
                P3.Y, Car.GetForwardSpeedCm());
}

// A box floats in a water component's volume at about half its height. A slab (100 x 100
// x 50 cm): a cube of half the water's density is unstable upright and floats on an edge.
static void TestWater()
{
    FWorldHost Host;
    OK(Host.Create(FWorldSettings{}));
    FWaterSettings W;
    W.CenterCm = FVec3d{0.0, 0.0, -250.0};
    W.HalfExtentCm = FVec3d{1000.0, 1000.0, 250.0};  // surface at Z 0
    // Drag 4/s: at the default 1/s (times the submerged half) it still bobs +-10 cm at 10 s.
    W.LinearDrag = 4.0f;
    W.AngularDrag = 4.0f;
    FWaterHost Water;
    OK(Water.Create(Host, W));
    CHECK(Near(Water.SurfaceZ(), 0.0, 1e-4), "surface at Z %.3f", Water.SurfaceZ());
    FBodyDesc Box;
    Box.Position = FVec3d{0.0, 0.0, 100.0};
    Box.Boxes.push_back(FBoxElem{FTransformd{}, FVec3d{50.0, 50.0, 25.0}});
    Box.Material.density = 500.0f;  // half the water's
    FBuiltBody Body;
    OK(BuildBody(Host.Id(), Box, &Body));
    OK(Host.Step(600));
    FVec3d P;
    FQuatd Q;
    OK(Host.GetTransform(Body.Body, &P, &Q));
    FBuoyancyInfo B;
    OK(Water.GetBuoyancy(Body.Body, &B));
    const FVec3d Half = P;
    CHECK(Near(P.Z, 0.0, 3.0), "floats with its centre at Z %.3f (half of 50 cm under)", P.Z);
    CHECK(Near(B.SubmergedFraction, 0.5, 0.06), "submerged %.3f", B.SubmergedFraction);
    // Denser water lifts it: 1000 -> 2000 kg/m^3, a quarter under.
    OK(Water.SetDensity(2000.0f));
    OK(Host.Step(600));
    OK(Host.GetTransform(Body.Body, &P, &Q));
    CHECK(Near(P.Z, 12.5, 3.0), "in denser water at Z %.3f", P.Z);
    // A current along UE +Y carries it that way.
    OK(Water.SetFlow(FVec3d{0.0, 100.0, 0.0}));
    OK(Host.Step(120));
    FVec3d V;
    OK(Host.GetLinearVelocity(Body.Body, &V));
    // Drag rate 4/s times the submerged quarter: v = 100 (1 - e^-2) = 86 cm/s after 2 s.
    CHECK(V.Y > 75.0 && V.Y < 95.0 && Near(V.X, 0.0, 1.0), "carried at (%.3f, %.3f) cm/s", V.X, V.Y);
    std::printf("water: a 100 x 100 x 50 cm box of 500 kg/m^3 floats at Z %.3f, submerged %.3f; at 2000 kg/m^3 Z %.3f; "
                "carried at %.3f cm/s\n",
                Half.Z, B.SubmergedFraction, P.Z, V.Y);
}
// The host passes the soft body capacities to its world: one soft body of 3 particles
// fits a host that reserves 1 soft body of 3 particles, a second does not.
static void TestWorldHostSoftCapacities()
{
    FWorldSettings Settings;
    Settings.SoftBodyCapacity = 1;
    Settings.SoftParticleCapacity = 3;
    FWorldHost Host;
    OK(Host.Create(Settings));
    const m3Vec3 V[3] = {{0.0f, 0.0f, 0.0f}, {1.0f, 0.0f, 0.0f}, {0.0f, 0.0f, 1.0f}};
    const uint32_t T[3] = {0, 2, 1};
    m3SoftBodyDef Def = m3DefaultSoftBodyDef();
    Def.vertices = V;
    Def.vertexCount = 3;
    Def.indices = T;
    Def.triangleCount = 1;
    m3SoftBodyId Id;
    OK(m3World_CreateSoftBody(Host.Id(), &Def, &Id));
    m3SoftBodyId Second;
    CHECK(m3World_CreateSoftBody(Host.Id(), &Def, &Second) == m3_errorCapacity, "a second soft body past the host's capacity");
}

int main(int argc, char** argv)
{
    if (argc != 5) {
        std::fprintf(stderr, "usage: core_tests DEMO.m3replay HASHES.txt OTHER.m3replay PART_STEP\n");
        return 2;
    }
    TestConversions();
    TestAccumulator();
    TestScrubber(argv[1], argv[2], argv[3], std::strtoull(argv[4], nullptr, 10));
    TestTaskRouter();
    TestWorldHost();
    TestWorldHostSoftCapacities();
    TestDebugLines();
    TestNestedComponents();
    TestGameplayDefs();
    TestCharacter();
    TestVehicle();
    TestWater();
    std::printf("%d checks, %d failed\n", Checks, Failures);
    return Failures == 0 ? 0 : 1;
}
