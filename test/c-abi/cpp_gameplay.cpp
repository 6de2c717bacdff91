// Characters, vehicles and water volumes through maul3d.hpp (m3::World, m3::Character,
// m3::Vehicle, m3::WaterVolume): a walk on a floor, a car driving, a floating box, a
// refusal through the wrappers, and a snapshot round trip through m3::World.
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
    sd.friction = 1.0f;
    m3Box x{half, {0.0f, 0.0f, 0.0f}, IDENTITY};
    m3ShapeId s{};
    CHECK(m3CreateBoxShape(b, &sd, &x, &s) == m3_success);
    return b;
}

int main()
{
    m3WorldDef def = m3DefaultWorldDef();
    def.characterCapacity = 2;
    def.vehicleCapacity = 2;
    def.waterCapacity = 2;
    m3::World w(def);
    CHECK(w.IsValid());
    Box(w, m3_staticBody, {0.0, -1.0, 0.0}, {200.0f, 1.0f, 200.0f}, 1000.0f);

    // A character walking 2 m/s along the floor.
    m3CharacterDef cd = m3DefaultCharacterDef();
    cd.position = {0.0, 1.0, 0.0};
    m3Result r = m3_errorState;
    m3::Character c = m3::Character::Create(w.Id(), cd, &r);
    CHECK(r == m3_success && c);

    // A car on four wheels, rear-driven.
    m3BodyId chassis = Box(w, m3_dynamicBody, {0.0, 0.9, -40.0}, {0.9f, 0.3f, 2.0f}, 1200.0f / 4.32f);
    m3VehicleDef vd = m3DefaultVehicleDef();
    vd.chassis = chassis;
    const float at[4][2] = {{-0.8f, 1.3f}, {0.8f, 1.3f}, {-0.8f, -1.3f}, {0.8f, -1.3f}};
    for (int i = 0; i < 4; ++i) {
        m3WheelDef wd = m3DefaultWheelDef();
        wd.position = {at[i][0], -0.1f, at[i][1]};
        wd.springMode = m3_springStiffness;
        wd.stiffness = 40000.0f;
        wd.damping = 4000.0f;
        wd.radius = 0.35f;
        wd.brakeTorque = 5000.0f;
        wd.driven = at[i][1] < 0.0f;
        vd.wheels[i] = wd;
    }
    vd.wheelCount = 4;
    m3::Vehicle v = m3::Vehicle::Create(w.Id(), vd, &r);
    CHECK(r == m3_success && v);
    const m3BodyId ch = v.Chassis();
    CHECK(std::memcmp(&chassis, &ch, sizeof chassis) == 0);

    // A pool with a floating box.
    m3WaterVolumeDef pd = m3DefaultWaterVolumeDef();
    pd.center = {30.0, 5.0, 0.0};
    pd.halfExtents = {5.0f, 5.0f, 5.0f};
    pd.linearDrag = 4.0f;
    pd.angularDrag = 4.0f;
    m3::WaterVolume pool = m3::WaterVolume::Create(w.Id(), pd, &r);
    CHECK(r == m3_success && pool);
    m3BodyId floater = Box(w, m3_dynamicBody, {30.0, 10.3, 0.0}, {0.5f, 0.5f, 0.5f}, 500.0f);

    float vy = 0.0f;
    for (int i = 0; i < 600; ++i) {
        if (c.IsGrounded()) vy = 0.0f;
        vy -= 9.81f * DT;
        CHECK(c.Move({i < 120 ? 2.0f : 0.0f, vy, 0.0f}, DT) == m3_success);
        if (i == 60) CHECK(v.SetInput(0.5f, 0.0f) == m3_success);
        CHECK(w.Step(DT, 4) == m3_success);
    }
    const m3DVec3 p = c.Position();
    const m3CharacterGround g = c.Ground();
    m3DVec3 fp{};
    CHECK(m3Body_GetPosition(floater, &fp) == m3_success);
    const m3Buoyancy b = pool.Buoyancy(floater);
    std::printf("cpp_gameplay: character at x %.3f, %.4f m above the floor, grounded %d; car at "
                "%.2f m/s in gear %d; box %.4f m deep (buoyancy says %.4f m^3 under)\n",
                p.x, p.y - 0.9, (int)(g.state == m3_onGround), (double)v.ForwardSpeed(), (int)v.Gear(),
                10.5 - fp.y, (double)b.submergedVolume);
    CHECK(std::fabs(p.x - 4.0) < 0.05 && g.state == m3_onGround);
    CHECK(v.ForwardSpeed() > 5.0f && v.Wheel(2).inContact);
    CHECK(std::fabs(10.5 - fp.y - 0.5) <= 0.005);

    // A refusal through the wrappers changes nothing.
    const uint64_t h = w.Hash();
    CHECK(c.Move({NAN, 0.0f, 0.0f}, DT) == m3_errorArgument);
    CHECK(v.SetInput(3.0f, 0.0f) == m3_errorArgument);
    CHECK(pool.SetDensity(-1.0f) == m3_errorArgument);
    CHECK(v.Wheel(7).suspensionLength == 0.0f);
    CHECK(w.Hash() == h);

    // Snapshot, run, restore, run again: the same hashes.
    int64_t size = 0, written = 0;
    CHECK(w.SnapshotSize(&size) == m3_success);
    std::vector<uint8_t> snap((size_t)size);
    CHECK(w.Snapshot(snap.data(), size, &written) == m3_success);
    uint64_t first[60], again[60];
    for (uint64_t* run : {first, again}) {
        CHECK(w.Restore(snap.data(), written) == m3_success);
        CHECK(w.Hash() == h);
        for (int i = 0; i < 60; ++i) {
            CHECK(c.Move({-1.0f, -1.0f, 0.0f}, DT) == m3_success);
            CHECK(v.SetInput(0.3f, 0.2f) == m3_success);
            CHECK(w.Step(DT, 4) == m3_success);
            run[i] = w.Hash();
        }
    }
    CHECK(std::memcmp(first, again, sizeof first) == 0);
    int32_t n = 0;
    CHECK(w.CharacterIds(nullptr, 0, &n) == m3_success && n == 1);
    CHECK(w.VehicleIds(nullptr, 0, &n) == m3_success && n == 1);
    CHECK(w.WaterVolumeIds(nullptr, 0, &n) == m3_success && n == 1);
    CHECK(v.Destroy() == m3_success && !v);
    CHECK(pool.Destroy() == m3_success && c.Destroy() == m3_success);
    std::printf("cpp_gameplay: snapshot round trip of 60 steps on equal hashes; passed\n");
    return 0;
}
