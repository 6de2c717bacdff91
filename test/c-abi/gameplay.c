/* Characters, vehicles and water volumes through the m3 C ABI, against measured figures:
 *
 *   character  walks 2 m/s along a floor and up a 0.3 m step, grounded on the floor and
 *              on the step's top (the step's body), a skin above it
 *   vehicle    a 1200 kg car on four 40 kN/m springs rests at m·g/(4k) compression
 *              (within 1 %), sleeps, then drives forward at half throttle
 *   water      a box of density 500 floats at half its height (within 1 %); the buoyancy
 *              query says half its volume is under
 *   refusals   bad input of each call refused with its code and a message, the world's
 *              hash unchanged
 *   snapshot   a world holding all three: restored mid-run it continues on the same
 *              hashes, in place and in a fresh world built from the snapshot's def
 *
 * Printed figures are what the report quotes. */
#include "common.h"

#include <math.h>
#include <string.h>

#define DT (1.0f / 60.0f)
#define SUBSTEPS 4

static m3DVec3 dv(double x, double y, double z)
{
    m3DVec3 v = {x, y, z};
    return v;
}
static m3Vec3 v3(float x, float y, float z)
{
    m3Vec3 v = {x, y, z};
    return v;
}
static const m3Quat IDENTITY = {0.0f, 0.0f, 0.0f, 1.0f};

static m3WorldId new_world(void)
{
    m3WorldDef def = m3DefaultWorldDef();
    def.bodyCapacity = 64;
    def.shapeCapacity = 64;
    def.contactCapacity = 1024;
    def.pairCapacity = 1024;
    def.characterCapacity = 4;
    def.vehicleCapacity = 4;
    def.waterCapacity = 4;
    m3WorldId w;
    CALL(m3World_Create(&def, &w));
    return w;
}

static m3BodyId body(m3WorldId w, m3BodyType type, m3DVec3 p)
{
    m3BodyDef def = m3DefaultBodyDef();
    def.type = type;
    def.position = p;
    m3BodyId b;
    CALL(m3Body_Create(w, &def, &b));
    return b;
}

static void box(m3BodyId b, float density, float friction, m3Vec3 half, m3Vec3 center)
{
    m3ShapeDef sd = m3DefaultShapeDef();
    sd.density = density;
    sd.friction = friction;
    m3Box x = {half, center, IDENTITY};
    m3ShapeId s;
    CALL(m3CreateBoxShape(b, &sd, &x, &s));
}

/* A floor whose top is y = 0. */
static m3BodyId floor_body(m3WorldId w)
{
    m3BodyId g = body(w, m3_staticBody, dv(0.0, -1.0, 0.0));
    box(g, 1000.0f, 1.0f, v3(200.0f, 1.0f, 200.0f), v3(0, 0, 0));
    return g;
}

static void steps(m3WorldId w, int n)
{
    for (int i = 0; i < n; ++i)
        CALL(m3World_Step(w, DT, SUBSTEPS));
}

static uint64_t hash(m3WorldId w)
{
    uint64_t h;
    CALL(m3World_GetHash(w, &h));
    return h;
}

/* ---- characters ---- */

/* A game's frame: vertical speed kept in the air with gravity added, zeroed on the
 * ground; the wanted level velocity; the move; the step. */
static void frame(m3WorldId w, m3CharacterId c, float *vy, float vx)
{
    m3CharacterGround g;
    CALL(m3Character_GetGround(c, &g));
    if (g.state == m3_onGround)
        *vy = 0.0f;
    *vy -= 9.81f * DT;
    CALL(m3Character_Move(c, v3(vx, *vy, 0.0f), DT));
    CALL(m3World_Step(w, DT, SUBSTEPS));
}

static m3CharacterId new_character(m3WorldId w, m3DVec3 at)
{
    m3CharacterDef def = m3DefaultCharacterDef();
    def.position = at;
    m3CharacterId c;
    CALL(m3World_CreateCharacter(w, &def, &c));
    return c;
}

/* A step 0.3 m high from x = 2 to x = 8. */
static m3BodyId step_body(m3WorldId w)
{
    m3BodyId s = body(w, m3_staticBody, dv(5.0, 0.0, 0.0));
    box(s, 1000.0f, 0.6f, v3(3.0f, 0.15f, 3.0f), v3(0.0f, 0.15f, 0.0f));
    return s;
}

static void character_walks_up_a_step(void)
{
    m3WorldId w = new_world();
    m3BodyId fl = floor_body(w);
    m3BodyId st = step_body(w);
    m3CharacterId c = new_character(w, dv(0.0, 1.0, 0.0));
    m3CharacterSettings s;
    CALL(m3Character_GetSettings(c, &s));
    CHECK(fabsf(s.stepHeight - 0.3f) < 1e-6f && fabsf(s.skin - 0.02f) < 1e-6f);
    float vy = 0.0f;
    for (int i = 0; i < 60; ++i)
        frame(w, c, &vy, 0.0f);
    m3DVec3 p;
    m3CharacterGround g;
    CALL(m3Character_GetPosition(c, &p));
    CALL(m3Character_GetGround(c, &g));
    double floor_gap = p.y - 0.9;
    printf("character: settled with its bottom %.4f m above the floor, ground state %d, "
           "normal y %.4f\n",
           floor_gap, (int)g.state, (double)g.normal.y);
    CHECK(g.state == m3_onGround);
    CHECK(memcmp(&g.body, &fl, sizeof fl) == 0);
    CHECK(floor_gap >= 0.0 && floor_gap < 0.04);
    CHECK(g.normal.y > 0.999f);
    m3BodyId inner;
    CALL(m3Character_GetBody(c, &inner));
    m3DVec3 bp;
    CALL(m3Body_GetPosition(inner, &bp));
    CHECK(fabs(bp.y - p.y) < 1e-6 && fabs(bp.x - p.x) < 1e-6);

    /* Walk 2 m/s towards +x for 3 s: onto the step at x = 2. */
    int air = 0;
    double top = -1.0;
    for (int i = 0; i < 180; ++i) {
        frame(w, c, &vy, 2.0f);
        CALL(m3Character_GetGround(c, &g));
        if (g.state != m3_onGround)
            air++;
        CALL(m3Character_GetPosition(c, &p));
        if (p.y - 0.9 > top)
            top = p.y - 0.9;
    }
    m3Vec3 v;
    CALL(m3Character_GetVelocity(c, &v));
    CALL(m3Character_GetGround(c, &g));
    double gap = p.y - 0.9 - 0.3;
    printf("character: walked to x %.3f, bottom %.4f m above the 0.3 m step (highest %.4f), "
           "%d of 180 frames off the ground, velocity (%.3f, %.3f, %.3f)\n",
           p.x, gap, top, air, (double)v.x, (double)v.y, (double)v.z);
    CHECK(p.x > 5.0 && p.x < 6.5);
    CHECK(g.state == m3_onGround);
    CHECK(memcmp(&g.body, &st, sizeof st) == 0);
    CHECK(gap >= 0.0 && gap < 0.04);
    CHECK(air <= 3);
    CHECK(fabsf(v.x - 2.0f) < 0.01f);

    /* Placed in the air, it is airborne until a move finds ground. */
    CALL(m3Character_SetPosition(c, dv(-3.0, 2.0, 0.0)));
    CALL(m3Character_GetGround(c, &g));
    CHECK(g.state == m3_inAir && g.body.index == 0);
    m3CharacterId ids[4];
    int32_t n = 0;
    CALL(m3World_GetCharacterIds(w, ids, 4, &n));
    CHECK(n == 1 && memcmp(&ids[0], &c, sizeof c) == 0);
    CALL(m3Character_Destroy(c));
    CALL(m3World_GetCharacterIds(w, NULL, 0, &n));
    CHECK(n == 0);
    CALL(m3World_Destroy(w));
}

/* ---- vehicles ---- */

#define CAR_MASS 1200.0f
#define CAR_K 40000.0f

static m3VehicleDef car_def(m3BodyId chassis)
{
    m3VehicleDef def = m3DefaultVehicleDef();
    def.chassis = chassis;
    def.transmission.automatic = true;
    const float at[4][2] = {{-0.8f, 1.3f}, {0.8f, 1.3f}, {-0.8f, -1.3f}, {0.8f, -1.3f}};
    for (int i = 0; i < 4; ++i) {
        int front = at[i][1] > 0.0f;
        m3WheelDef wd = m3DefaultWheelDef();
        wd.position = v3(at[i][0], -0.1f, at[i][1]);
        wd.minLength = 0.05f;
        wd.maxLength = 0.5f;
        wd.restLength = 0.5f;
        wd.springMode = m3_springStiffness;
        wd.stiffness = CAR_K;
        wd.damping = 4000.0f;
        wd.radius = 0.35f;
        wd.maxSteerAngle = front ? 0.5f : 0.0f;
        wd.brakeTorque = 5000.0f;
        wd.handbrakeTorque = front ? 0.0f : 4000.0f;
        wd.driven = !front;
        def.wheels[i] = wd;
    }
    def.wheelCount = 4;
    def.antiRollBars[0].left = 0;
    def.antiRollBars[0].right = 1;
    def.antiRollBars[0].stiffness = 5000.0f;
    def.antiRollBarCount = 1;
    return def;
}

static m3BodyId car_body(m3WorldId w, m3DVec3 at)
{
    m3BodyId c = body(w, m3_dynamicBody, at);
    volatile float volume = 8.0f * 0.9f * 0.3f * 2.0f;
    box(c, CAR_MASS / volume, 0.6f, v3(0.9f, 0.3f, 2.0f), v3(0, 0, 0));
    return c;
}

static m3VehicleId new_car(m3WorldId w, m3DVec3 at, m3BodyId *chassis)
{
    *chassis = car_body(w, at);
    m3VehicleDef def = car_def(*chassis);
    m3VehicleId v;
    CALL(m3World_CreateVehicle(w, &def, &v));
    return v;
}

static void vehicle_rests_and_drives(void)
{
    m3WorldId w = new_world();
    m3BodyId fl = floor_body(w);
    m3BodyId chassis;
    m3VehicleId v = new_car(w, dv(0.0, 0.9, 0.0), &chassis);
    m3VehicleDef back;
    CALL(m3Vehicle_GetDef(v, &back));
    CHECK(back.wheelCount == 4 && back.antiRollBarCount == 1);
    CHECK(memcmp(&back.chassis, &chassis, sizeof chassis) == 0);
    CHECK(back.wheels[2].springMode == m3_springStiffness && back.wheels[2].driven);
    steps(w, 600);
    bool awake = true;
    CALL(m3Body_IsAwake(chassis, &awake));
    m3MassData md;
    CALL(m3Body_GetMassData(chassis, &md));
    m3Vec3 g;
    CALL(m3World_GetGravity(w, &g));
    float expected = md.mass * -g.y / (4.0f * CAR_K);
    float worst = 0.0f, sum = 0.0f;
    for (int i = 0; i < 4; ++i) {
        m3WheelState s;
        CALL(m3Vehicle_GetWheelState(v, i, &s));
        float compression = 0.5f - s.suspensionLength;
        float err = fabsf(compression - expected) / expected;
        sum += compression;
        if (err > worst)
            worst = err;
        CHECK(s.inContact);
        CHECK(memcmp(&s.body, &fl, sizeof fl) == 0);
        CHECK(s.normal.y > 0.999f);
        CHECK(err < 0.01f);
    }
    printf("vehicle: at rest (asleep %d) with mean compression %.5f m against m*g/(4k) = %.5f m "
           "(worst %.3f %%)\n",
           (int)!awake, (double)(sum / 4.0f),
           (double)expected, (double)worst * 100.0);
    CHECK(!awake);

    m3VehicleInput in = {0.5f, 0.0f, 0.0f, 0.0f};
    CALL(m3Vehicle_SetInput(v, in));
    CALL(m3Body_IsAwake(chassis, &awake));
    CHECK(awake);
    m3VehicleInput got;
    CALL(m3Vehicle_GetInput(v, &got));
    CHECK(memcmp(&got, &in, sizeof in) == 0);
    m3DVec3 start, end;
    CALL(m3Body_GetPosition(chassis, &start));
    steps(w, 300);
    CALL(m3Body_GetPosition(chassis, &end));
    float speed, rpm;
    int32_t gear;
    CALL(m3Vehicle_GetForwardSpeed(v, &speed));
    CALL(m3Vehicle_GetEngineRpm(v, &rpm));
    CALL(m3Vehicle_GetGear(v, &gear));
    m3WheelState rear;
    CALL(m3Vehicle_GetWheelState(v, 2, &rear));
    printf("vehicle: half throttle for 5 s: %.2f m forward, %.2e m sideways, speed %.2f m/s, "
           "gear %d, %.0f rpm, rear wheel %.2f rad/s\n",
           end.z - start.z, fabs(end.x - start.x), (double)speed, (int)gear, (double)rpm,
           (double)rear.angularVelocity);
    CHECK(end.z - start.z > 10.0);
    CHECK(fabs(end.x - start.x) < 0.01);
    CHECK(speed > 5.0f);
    CHECK(gear >= 1 && rpm > 0.0f);
    CHECK(rear.angularVelocity > 0.0f && rear.rotation >= 0.0f && rear.rotation < 6.2832f);

    /* Manual gear: neutral takes effect. */
    CALL(m3Vehicle_SetGear(v, 0));
    CALL(m3Vehicle_GetGear(v, &gear));
    CHECK(gear == 0);
    m3VehicleId ids[4];
    int32_t n = 0;
    CALL(m3World_GetVehicleIds(w, ids, 4, &n));
    CHECK(n == 1 && memcmp(&ids[0], &v, sizeof v) == 0);
    CALL(m3Vehicle_Destroy(v));
    CALL(m3World_GetVehicleIds(w, NULL, 0, &n));
    CHECK(n == 0);
    CALL(m3World_Destroy(w));
}

/* ---- water ---- */

static m3WaterVolumeDef pool_def(void)
{
    /* A 10 x 10 x 10 m pool on the floor: surface at y = 10. */
    m3WaterVolumeDef d = m3DefaultWaterVolumeDef();
    d.center = dv(30.0, 5.0, 0.0);
    d.halfExtents = v3(5.0f, 5.0f, 5.0f);
    d.linearDrag = 4.0f;
    d.angularDrag = 4.0f;
    return d;
}

static void box_floats_at_half_height(void)
{
    m3WorldId w = new_world();
    floor_body(w);
    m3WaterVolumeDef d = pool_def();
    m3WaterVolumeId water;
    CALL(m3World_CreateWaterVolume(w, &d, &water));
    m3BodyId b = body(w, m3_dynamicBody, dv(30.0, 10.3, 0.0));
    box(b, 500.0f, 0.6f, v3(0.5f, 0.5f, 0.5f), v3(0, 0, 0));
    steps(w, 600);
    m3DVec3 p;
    CALL(m3Body_GetPosition(b, &p));
    double depth = 10.5 - p.y;
    m3Buoyancy by;
    CALL(m3WaterVolume_GetBuoyancy(water, b, &by));
    printf("water: a box of density 500 floats %.5f m deep of 1 m (expected 0.5, %.3f %% off); "
           "submerged %.5f of %.5f m^3, centre of buoyancy y %.4f\n",
           depth, fabs(depth - 0.5) / 0.5 * 100.0, (double)by.submergedVolume,
           (double)by.totalVolume, by.centerOfBuoyancy.y);
    CHECK(fabs(depth - 0.5) <= 0.005);
    CHECK(fabsf(by.submergedVolume - 0.5f) <= 0.005f);
    CHECK(fabsf(by.totalVolume - 1.0f) <= 1e-5f);
    CHECK(fabs(by.centerOfBuoyancy.y - (10.0 - depth / 2.0)) < 0.005);

    /* Denser water lifts it; a current carries it. */
    CALL(m3WaterVolume_SetDensity(water, 2000.0f));
    steps(w, 600);
    CALL(m3Body_GetPosition(b, &p));
    double depth2 = 10.5 - p.y;
    printf("water: at density 2000 it floats %.5f m deep (expected 0.25)\n", depth2);
    CHECK(fabs(depth2 - 0.25) <= 0.0025);
    CALL(m3WaterVolume_SetFlow(water, v3(1.0f, 0.0f, 0.0f)));
    CALL(m3WaterVolume_SetDrag(water, 2.0f, 2.0f));
    m3DVec3 before = p;
    steps(w, 60);
    CALL(m3Body_GetPosition(b, &p));
    CHECK(p.x - before.x > 0.2);
    m3WaterVolumeDef back;
    CALL(m3WaterVolume_GetDef(water, &back));
    CHECK(back.density == 2000.0f && back.flow.x == 1.0f && back.linearDrag == 2.0f);
    CALL(m3WaterVolume_SetRegion(water, dv(30.0, 5.0, 0.0), IDENTITY, v3(6.0f, 5.0f, 6.0f)));
    CALL(m3WaterVolume_GetDef(water, &back));
    back.density = 1000.0f;
    CALL(m3WaterVolume_SetDef(water, &back));
    CALL(m3WaterVolume_GetDef(water, &back));
    CHECK(back.density == 1000.0f && back.halfExtents.x == 6.0f);
    m3WaterVolumeId ids[4];
    int32_t n;
    CALL(m3World_GetWaterVolumeIds(w, ids, 4, &n));
    CHECK(n == 1 && memcmp(&ids[0], &water, sizeof water) == 0);
    CALL(m3WaterVolume_Destroy(water));
    CALL(m3World_GetWaterVolumeIds(w, NULL, 0, &n));
    CHECK(n == 0);
    CALL(m3World_Destroy(w));
}

/* ---- refusals ---- */

static int refusals = 0;

static void refused(m3Result got, m3Result want, const char *what, const char *needle)
{
    const char *msg = m3GetLastErrorMessage();
    if (got != want) {
        fprintf(stderr, "FAIL: %s returned %d, expected %d (%s)\n", what, (int)got, (int)want,
                msg);
        exit(1);
    }
    if (msg == NULL || strstr(msg, needle) == NULL) {
        fprintf(stderr, "FAIL: %s: message \"%s\" lacks \"%s\"\n", what, msg ? msg : "",
                needle);
        exit(1);
    }
    refusals++;
}
#define REFUSED(call, code, needle) refused((call), (code), #call, (needle))

static void bad_input_is_refused(void)
{
    m3WorldId w = new_world();
    m3WorldId other = new_world();
    floor_body(w);
    step_body(w);
    m3CharacterId c = new_character(w, dv(0.0, 1.0, 0.0));
    m3WaterVolumeDef wd = pool_def();
    m3WaterVolumeId water;
    CALL(m3World_CreateWaterVolume(w, &wd, &water));
    m3BodyId chassis;
    m3VehicleId v = new_car(w, dv(0.0, 0.9, -20.0), &chassis);
    m3BodyId alien = body(other, m3_dynamicBody, dv(0, 0, 0));
    steps(w, 10);
    /* Stale ids of each kind. */
    m3CharacterId gone_c = new_character(w, dv(-5.0, 1.0, 0.0));
    CALL(m3Character_Destroy(gone_c));
    m3WaterVolumeId gone_w;
    CALL(m3World_CreateWaterVolume(w, &wd, &gone_w));
    CALL(m3WaterVolume_Destroy(gone_w));
    m3BodyId spare;
    m3VehicleId gone_v = new_car(w, dv(10.0, 0.9, -20.0), &spare);
    CALL(m3Vehicle_Destroy(gone_v));
    CALL(m3Body_Destroy(spare));
    uint64_t h = hash(w);
    const m3CharacterId null_c = {0, 0, {0, 0}};
    const float nan = NAN;

    /* Characters. */
    m3CharacterDef cd = m3DefaultCharacterDef();
    m3CharacterId cid;
    REFUSED(m3World_CreateCharacter(w, NULL, &cid), m3_errorArgument, "def");
    REFUSED(m3World_CreateCharacter(w, &cd, NULL), m3_errorArgument, "characterId");
    cd.radius = nan;
    REFUSED(m3World_CreateCharacter(w, &cd, &cid), m3_errorArgument, "radius");
    cd = m3DefaultCharacterDef();
    cd.up = v3(0, 0, 0);
    REFUSED(m3World_CreateCharacter(w, &cd, &cid), m3_errorArgument, "up");
    cd = m3DefaultCharacterDef();
    cd.position = dv(1e12, 0.0, 0.0);
    REFUSED(m3World_CreateCharacter(w, &cd, &cid), m3_errorOutOfBounds, "position");
    cd = m3DefaultCharacterDef();
    cd.settings.maxSlopeAngle = 2.0f;
    REFUSED(m3World_CreateCharacter(w, &cd, &cid), m3_errorArgument, "slope");
    REFUSED(m3Character_Move(c, v3(nan, 0, 0), DT), m3_errorArgument, "velocity");
    REFUSED(m3Character_Move(c, v3(2e4f, 0, 0), DT), m3_errorArgument, "1e4");
    REFUSED(m3Character_Move(c, v3(1, 0, 0), -1.0f), m3_errorArgument, "dt");
    REFUSED(m3Character_Move(c, v3(1, 0, 0), 11.0f), m3_errorArgument, "dt");
    REFUSED(m3Character_Move(gone_c, v3(1, 0, 0), DT), m3_errorInvalidId, "");
    REFUSED(m3Character_Move(null_c, v3(1, 0, 0), DT), m3_errorInvalidId, "null");
    REFUSED(m3Character_SetPosition(c, dv(nan, 0, 0)), m3_errorArgument, "position");
    REFUSED(m3Character_SetPosition(c, dv(0, 1e12, 0)), m3_errorOutOfBounds, "position");
    m3CharacterSettings s;
    CALL(m3Character_GetSettings(c, &s));
    s.skin = 0.0f;
    REFUSED(m3Character_SetSettings(c, s), m3_errorArgument, "skin");
    CALL(m3Character_GetSettings(c, &s));
    s.mass = -1.0f;
    REFUSED(m3Character_SetSettings(c, s), m3_errorArgument, "mass");
    REFUSED(m3Character_GetPosition(c, NULL), m3_errorArgument, "null pointer");
    REFUSED(m3Character_GetGround(gone_c, (m3CharacterGround *)&s), m3_errorInvalidId, "");
    REFUSED(m3Character_Destroy(gone_c), m3_errorInvalidId, "");
    REFUSED(m3World_GetCharacterIds(w, NULL, 2, (int32_t *)&s), m3_errorArgument, "ids");

    /* Water volumes. */
    m3WaterVolumeId wid;
    REFUSED(m3World_CreateWaterVolume(w, NULL, &wid), m3_errorArgument, "def");
    m3WaterVolumeDef bad = pool_def();
    bad.density = -1.0f;
    REFUSED(m3World_CreateWaterVolume(w, &bad, &wid), m3_errorArgument, "density");
    REFUSED(m3WaterVolume_SetDef(water, &bad), m3_errorArgument, "density");
    bad = pool_def();
    bad.halfExtents.y = 0.0f;
    REFUSED(m3World_CreateWaterVolume(w, &bad, &wid), m3_errorArgument, "half_extents");
    bad = pool_def();
    bad.rotation.w = 0.0f;
    REFUSED(m3World_CreateWaterVolume(w, &bad, &wid), m3_errorArgument, "rotation");
    bad = pool_def();
    bad.flow.y = 1e9f;
    REFUSED(m3World_CreateWaterVolume(w, &bad, &wid), m3_errorArgument, "flow");
    REFUSED(m3WaterVolume_SetDensity(water, nan), m3_errorArgument, "density");
    REFUSED(m3WaterVolume_SetDrag(water, 1.0f, -2.0f), m3_errorArgument, "angular_drag");
    REFUSED(m3WaterVolume_SetFlow(water, v3(nan, 0, 0)), m3_errorArgument, "flow");
    REFUSED(m3WaterVolume_SetRegion(water, dv(0, 0, 0), IDENTITY, v3(1, -1, 1)),
            m3_errorArgument, "half_extents");
    REFUSED(m3WaterVolume_SetFlow(gone_w, v3(0, 0, 0)), m3_errorInvalidId, "");
    REFUSED(m3WaterVolume_Destroy(gone_w), m3_errorInvalidId, "");
    m3Buoyancy by;
    REFUSED(m3WaterVolume_GetBuoyancy(water, alien, &by), m3_errorInvalidId, "bodyId");
    REFUSED(m3WaterVolume_GetBuoyancy(water, chassis, NULL), m3_errorArgument, "buoyancy");
    REFUSED(m3WaterVolume_GetDef(gone_w, &wd), m3_errorInvalidId, "");

    /* Vehicles. */
    m3VehicleDef vd = car_def(chassis);
    m3VehicleId vid;
    REFUSED(m3World_CreateVehicle(w, NULL, &vid), m3_errorArgument, "def");
    vd.wheelCount = 0;
    REFUSED(m3World_CreateVehicle(w, &vd, &vid), m3_errorArgument, "wheelCount");
    vd.wheelCount = 9;
    REFUSED(m3World_CreateVehicle(w, &vd, &vid), m3_errorArgument, "wheelCount");
    vd.wheelCount = -1;
    REFUSED(m3World_CreateVehicle(w, &vd, &vid), m3_errorArgument, "wheelCount");
    vd = car_def(chassis);
    vd.wheels[1].springMode = 5;
    REFUSED(m3World_CreateVehicle(w, &vd, &vid), m3_errorArgument, "wheels[1].springMode");
    vd = car_def(chassis);
    vd.wheels[3].cast = 7;
    REFUSED(m3World_CreateVehicle(w, &vd, &vid), m3_errorArgument, "wheels[3].cast");
    vd = car_def(chassis);
    vd.antiRollBars[0].right = 4;
    REFUSED(m3World_CreateVehicle(w, &vd, &vid), m3_errorArgument, "antiRollBars[0].right");
    vd = car_def(chassis);
    vd.wheels[0].radius = nan;
    REFUSED(m3World_CreateVehicle(w, &vd, &vid), m3_errorArgument, "radius");
    vd = car_def(chassis);
    vd.transmission.gearCount = 0;
    REFUSED(m3World_CreateVehicle(w, &vd, &vid), m3_errorArgument, "gear");
    vd = car_def(alien);
    REFUSED(m3World_CreateVehicle(w, &vd, &vid), m3_errorInvalidId, "def.chassis");
    vd = car_def(spare);
    REFUSED(m3World_CreateVehicle(w, &vd, &vid), m3_errorInvalidId, "");
    m3VehicleInput in = {2.0f, 0.0f, 0.0f, 0.0f};
    REFUSED(m3Vehicle_SetInput(v, in), m3_errorArgument, "throttle");
    in.throttle = 0.0f;
    in.brake = nan;
    REFUSED(m3Vehicle_SetInput(v, in), m3_errorArgument, "brake");
    REFUSED(m3Vehicle_SetGear(v, 9), m3_errorArgument, "gear");
    REFUSED(m3Vehicle_SetGear(v, -2), m3_errorArgument, "gear");
    m3WheelState ws;
    REFUSED(m3Vehicle_GetWheelState(v, -1, &ws), m3_errorArgument, "wheel");
    REFUSED(m3Vehicle_GetWheelState(v, 4, &ws), m3_errorArgument, "wheel");
    REFUSED(m3Vehicle_GetWheelState(v, 0, NULL), m3_errorArgument, "state");
    REFUSED(m3Vehicle_SetGear(gone_v, 1), m3_errorInvalidId, "");
    REFUSED(m3Vehicle_Destroy(gone_v), m3_errorInvalidId, "");
    CHECK(hash(w) == h);

    /* Full pools. */
    m3WorldDef small = m3DefaultWorldDef();
    small.characterCapacity = 1;
    small.vehicleCapacity = 0;
    small.waterCapacity = 1;
    m3WorldId f;
    CALL(m3World_Create(&small, &f));
    m3CharacterDef one = m3DefaultCharacterDef();
    CALL(m3World_CreateCharacter(f, &one, &cid));
    CALL(m3World_CreateWaterVolume(f, &wd, &wid));
    m3BodyId fc = car_body(f, dv(0, 1, 0));
    uint64_t hf = hash(f);
    REFUSED(m3World_CreateCharacter(f, &one, &cid), m3_errorCapacity, "");
    REFUSED(m3World_CreateWaterVolume(f, &wd, &wid), m3_errorCapacity, "");
    vd = car_def(fc);
    REFUSED(m3World_CreateVehicle(f, &vd, &vid), m3_errorCapacity, "");
    CHECK(hash(f) == hf);
    printf("refusals: %d bad calls refused with their codes and messages, hashes unchanged\n",
           refusals);
    CALL(m3World_Destroy(f));
    CALL(m3World_Destroy(other));
    CALL(m3World_Destroy(w));
}

/* ---- snapshot and restore with all three ---- */

typedef struct {
    m3WorldId w;
    m3CharacterId c;
    m3VehicleId v;
    float vy;
} Scene;

static void drive_frame(Scene *s, int i)
{
    m3VehicleInput in = {0.6f, i % 120 < 60 ? 0.3f : -0.3f, 0.0f, 0.0f};
    CALL(m3Vehicle_SetInput(s->v, in));
    frame(s->w, s->c, &s->vy, i % 90 < 45 ? 2.0f : -1.0f);
}

static void run(Scene *s, int from, int n, uint64_t *hashes)
{
    for (int i = 0; i < n; ++i) {
        drive_frame(s, from + i);
        hashes[i] = hash(s->w);
    }
}

static void snapshot_round_trip(void)
{
    Scene s = {new_world(), {0, 0, {0, 0}}, {0, 0, {0, 0}}, 0.0f};
    floor_body(s.w);
    step_body(s.w);
    s.c = new_character(s.w, dv(0.0, 1.0, 0.0));
    m3WaterVolumeDef wd = pool_def();
    m3WaterVolumeId water;
    CALL(m3World_CreateWaterVolume(s.w, &wd, &water));
    m3BodyId b = body(s.w, m3_dynamicBody, dv(30.0, 11.0, 0.0));
    box(b, 500.0f, 0.6f, v3(0.5f, 0.5f, 0.5f), v3(0, 0, 0));
    m3BodyId chassis;
    s.v = new_car(s.w, dv(0.0, 0.9, -40.0), &chassis);
    uint64_t warm[90];
    run(&s, 0, 90, warm);

    int64_t size;
    CALL(m3World_GetSnapshotSize(s.w, &size));
    uint8_t *snap = (uint8_t *)malloc((size_t)size);
    CHECK(snap != NULL);
    int64_t written;
    CALL(m3World_Snapshot(s.w, snap, size, &written));
    uint64_t h0 = hash(s.w);
    float vy0 = s.vy;
    enum { N = 120 };
    uint64_t first[N], again[N], twin[N];
    run(&s, 90, N, first);

    /* Rolled back in place. */
    CALL(m3World_Restore(s.w, snap, written));
    CHECK(hash(s.w) == h0);
    s.vy = vy0;
    run(&s, 90, N, again);
    CHECK(memcmp(first, again, sizeof first) == 0);

    /* A fresh world from the snapshot's def: its objects by their id lists. */
    m3WorldDef def;
    CALL(m3DefFromSnapshot(snap, written, &def));
    CHECK(def.characterCapacity == 4 && def.vehicleCapacity == 4 && def.waterCapacity == 4);
    Scene t = {{0, 0}, {0, 0, {0, 0}}, {0, 0, {0, 0}}, vy0};
    CALL(m3World_Create(&def, &t.w));
    CALL(m3World_Restore(t.w, snap, written));
    CHECK(hash(t.w) == h0);
    int32_t n;
    CALL(m3World_GetCharacterIds(t.w, &t.c, 1, &n));
    CHECK(n == 1);
    CALL(m3World_GetVehicleIds(t.w, &t.v, 1, &n));
    CHECK(n == 1);
    CALL(m3World_GetWaterVolumeIds(t.w, NULL, 0, &n));
    CHECK(n == 1);
    run(&t, 90, N, twin);
    CHECK(memcmp(first, twin, sizeof first) == 0);
    printf("snapshot: %lld bytes at step 90 with a character, a vehicle and a water volume; "
           "%d steps after restore (in place and in a fresh world) on equal hashes, last "
           "%016llx\n",
           (long long)written, N, (unsigned long long)first[N - 1]);
    free(snap);
    CALL(m3World_Destroy(t.w));
    CALL(m3World_Destroy(s.w));
}

int main(void)
{
    character_walks_up_a_step();
    vehicle_rests_and_drives();
    box_floats_at_half_height();
    bad_input_is_refused();
    snapshot_round_trip();
    printf("gameplay: characters, vehicles and water volumes through the C ABI passed\n");
    return 0;
}
