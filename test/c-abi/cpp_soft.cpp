// Soft bodies through maul3d.hpp (m3::World, m3::SoftBody): a cloth pinned at two
// corners draped over a box holding a dynamic box on a corner, a volume ball on the floor,
// the positions buffers against the getters, refusals through the wrappers, and a snapshot
// round trip through m3::World.
#include "maul3d.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#define CHECK(cond)                                                                       \
    do {                                                                                  \
        if (!(cond)) {                                                                    \
            std::fprintf(stderr, "%s:%d: check failed: %s (%s)\n", __FILE__, __LINE__,    \
                         #cond, m3::LastError());                                         \
            std::exit(1);                                                                 \
        }                                                                                 \
    } while (0)

static const float DT = 1.0f / 60.0f;
static const m3Quat IDENTITY{0.0f, 0.0f, 0.0f, 1.0f};

static m3BodyId Box(m3::World& w, m3BodyType type, m3DVec3 at, m3Vec3 half, float density)
{
    m3BodyDef bd = m3DefaultBodyDef();
    bd.type = type;
    bd.position = at;
    m3BodyId b{};
    CHECK(w.CreateBody(bd, &b) == m3_success);
    m3ShapeDef sd = m3DefaultShapeDef();
    sd.density = density;
    m3Box x{half, {0.0f, 0.0f, 0.0f}, IDENTITY};
    m3ShapeId s{};
    CHECK(m3CreateBoxShape(b, &sd, &x, &s) == m3_success);
    return b;
}

// An n x n cloth `size` wide in its frame's xz plane, two triangles per cell.
static void Grid(int n, float size, std::vector<m3Vec3>& v, std::vector<uint32_t>& t)
{
    const float step = size / static_cast<float>(n - 1);
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < n; ++i)
            v.push_back({static_cast<float>(i) * step - 0.5f * size, 0.0f,
                         static_cast<float>(j) * step - 0.5f * size});
    for (int j = 0; j < n - 1; ++j) {
        for (int i = 0; i < n - 1; ++i) {
            const uint32_t a = static_cast<uint32_t>(i + n * j), b = a + 1, c = a + static_cast<uint32_t>(n),
                           d = c + 1;
            for (uint32_t k : {a, c, b, b, c, d}) t.push_back(k);
        }
    }
}

// A closed box of 8 corners and 12 outward-wound triangles, `h` half-extent.
static void Cube(float h, std::vector<m3Vec3>& v, std::vector<uint32_t>& t)
{
    for (int k = 0; k < 8; ++k)
        v.push_back({(k & 1) ? h : -h, (k & 2) ? h : -h, (k & 4) ? h : -h});
    const uint32_t faces[36] = {0, 2, 1, 1, 2, 3, 4, 5, 6, 5, 7, 6, 0, 1, 4, 1, 5, 4,
                                2, 6, 3, 3, 6, 7, 0, 4, 2, 2, 4, 6, 1, 3, 5, 3, 7, 5};
    t.assign(faces, faces + 36);
}

int main()
{
    m3WorldDef def = m3DefaultWorldDef();
    def.softBodyCapacity = 4;
    def.softParticleCapacity = 1024;
    m3::World w(def);
    CHECK(w.IsValid());
    Box(w, m3_staticBody, {0.0, -1.0, 0.0}, {20.0f, 1.0f, 20.0f}, 1000.0f);
    const m3BodyId table = Box(w, m3_staticBody, {0.0, 0.5, 0.0}, {0.5f, 0.5f, 0.5f}, 1000.0f);

    // A 12 x 12 cloth over the static box, pinned at two corners, a dynamic box on a third.
    std::vector<m3Vec3> cv;
    std::vector<uint32_t> ct;
    Grid(12, 2.0f, cv, ct);
    m3SoftBodySettings cs = m3DefaultSoftBodySettings();
    cs.damping = 0.5f;
    m3Result r = m3_errorState;
    m3::SoftBody cloth = m3::SoftBody::Create(w.Id(), cv.data(), static_cast<int32_t>(cv.size()), ct.data(),
                                              static_cast<int32_t>(ct.size() / 3), {0.0, 1.5, 0.0}, cs, &r);
    CHECK(r == m3_success && cloth && cloth.ParticleCount() == 144);
    CHECK(cloth.SetPinned(0, true) == m3_success && cloth.SetPinned(11, true) == m3_success);
    CHECK(cloth.IsPinned(11) && !cloth.IsPinned(12));
    const m3BodyId weight = Box(w, m3_dynamicBody, {1.0, 1.4, 1.0}, {0.1f, 0.1f, 0.1f}, 500.0f);
    CHECK(cloth.Attach(143, weight, {0.0f, 0.1f, 0.0f}) == m3_success);
    const m3BodyId hung = cloth.AttachedBody(143);
    CHECK(std::memcmp(&hung, &weight, sizeof hung) == 0);

    // A closed cube keeping its volume, dropped beside the box.
    std::vector<m3Vec3> bv;
    std::vector<uint32_t> bt;
    Cube(0.3f, bv, bt);
    m3SoftBodySettings bs = m3DefaultSoftBodySettings();
    bs.volumeScale = 1.0f;
    bs.damping = 0.5f;
    m3::SoftBody cube = m3::SoftBody::Create(w.Id(), bv.data(), 8, bt.data(), 12, {3.0, 1.0, 0.0}, bs, &r);
    CHECK(r == m3_success && cube);
    const float rest = cube.Volume();
    CHECK(std::fabs(rest - 0.216f) < 1e-4f);

    for (int i = 0; i < 300; ++i) CHECK(w.Step(DT, 4) == m3_success);

    // The cloth rests on the box's top (y = 1, a particle radius above) and hangs down its sides.
    std::vector<m3DVec3> p(static_cast<size_t>(cloth.ParticleCount()));
    int32_t n = 0;
    CHECK(cloth.Positions(p.data(), static_cast<int32_t>(p.size()), &n) == m3_success && n == 144);
    double top = -1e9, low = 1e9, onBox = 1e9;
    for (const m3DVec3& q : p) {
        top = q.y > top ? q.y : top;
        low = q.y < low ? q.y : low;
        if (std::fabs(q.x) < 0.5 && std::fabs(q.z) < 0.5) onBox = q.y < onBox ? q.y : onBox;
    }
    std::vector<m3Vec3> f(p.size());
    const m3DVec3 origin{0.0, 1.0, 0.0};
    CHECK(cloth.PositionsFrom(origin, f.data(), n, &n) == m3_success);
    for (int i = 0; i < n; ++i) {
        const m3DVec3 q = cloth.ParticlePosition(i);
        CHECK(std::memcmp(&q, &p[static_cast<size_t>(i)], sizeof q) == 0);
        CHECK(f[static_cast<size_t>(i)].y == static_cast<float>(q.y - 1.0));
    }
    m3DVec3 wp{};
    CHECK(m3Body_GetPosition(weight, &wp) == m3_success);
    const float vol = cube.Volume();
    const m3DAABB cb = cube.Bounds();
    std::printf("cpp_soft: cloth pinned at 1.5: highest particle %.4f, lowest %.4f, lowest over the box's top "
                "(y 1) %.4f; the weight on its corner at y %.3f; the cube keeps %.4f of %.4f m^3, its bounds' "
                "bottom %.4f\n",
                top, low, onBox, wp.y, static_cast<double>(vol), static_cast<double>(rest), cb.lower.y);
    CHECK(top < 1.55 && low < 1.0);
    CHECK(onBox > 1.0 + 0.02 - 0.01 && onBox < 1.1);
    CHECK(wp.y > 0.05 && wp.y < 1.4);
    CHECK(std::fabs(vol - rest) < 0.05f * rest);
    CHECK(cb.lower.y > -0.01 && cb.lower.y < 0.05);

    // Refusals through the wrappers change nothing.
    const uint64_t h = w.Hash();
    CHECK(cloth.SetPinned(144, true) == m3_errorArgument);
    CHECK(cloth.SetParticleVelocity(3, {NAN, 0.0f, 0.0f}) == m3_errorArgument);
    CHECK(cloth.SetParticlePosition(3, {0.0, 1e12, 0.0}) == m3_errorOutOfBounds);
    m3SoftBodySettings bad = cloth.Settings();
    bad.substeps = 0;
    CHECK(cloth.SetSettings(bad) == m3_errorArgument);
    CHECK(cube.SetTransform({0.0, 1.0, 0.0}, m3Quat{0.0f, 0.0f, 0.0f, 0.0f}) == m3_errorArgument);
    CHECK(m3::SoftBody().ApplyImpulse({0.0f, 1.0f, 0.0f}) == m3_errorInvalidId);
    CHECK(m3::SoftBody().ParticleCount() == 0 && m3::SoftBody().Volume() == 0.0f);
    // A collision exception set and cleared leaves the state as it was.
    m3BodyId ignored[M3_SOFT_BODY_EXCEPTIONS];
    CHECK(cube.SetIgnoresBody(table) == m3_success);
    CHECK(cube.IgnoredBodies(ignored, M3_SOFT_BODY_EXCEPTIONS, &n) == m3_success && n == 1);
    CHECK(std::memcmp(&ignored[0], &table, sizeof table) == 0);
    CHECK(w.Hash() != h);
    CHECK(cube.SetIgnoresBody(table, false) == m3_success);
    CHECK(cube.IgnoredBodies(nullptr, 0, &n) == m3_success && n == 0);
    CHECK(m3::SoftBody().SetIgnoresBody(table) == m3_errorInvalidId);
    CHECK(w.Hash() == h);

    // Snapshot, run, restore, run again: the same hashes.
    int64_t size = 0, written = 0;
    CHECK(w.SnapshotSize(&size) == m3_success);
    std::vector<uint8_t> snap(static_cast<size_t>(size));
    CHECK(w.Snapshot(snap.data(), size, &written) == m3_success);
    uint64_t first[60], again[60];
    for (uint64_t* run : {first, again}) {
        CHECK(w.Restore(snap.data(), written) == m3_success);
        CHECK(w.Hash() == h);
        for (int i = 0; i < 60; ++i) {
            if (i == 10) CHECK(cloth.Detach(143) == m3_success);
            if (i == 20) CHECK(cube.ApplyImpulse({0.0f, 3.0f, 0.0f}) == m3_success);
            CHECK(w.Step(DT, 4) == m3_success);
            run[i] = w.Hash();
        }
    }
    CHECK(std::memcmp(first, again, sizeof first) == 0);
    n = 0;
    CHECK(w.SoftBodyIds(nullptr, 0, &n) == m3_success && n == 2);
    CHECK(cube.Destroy() == m3_success && !cube);
    CHECK(w.SoftBodyIds(nullptr, 0, &n) == m3_success && n == 1);
    std::printf("cpp_soft: snapshot round trip of 60 steps on equal hashes; passed\n");
    return 0;
}
