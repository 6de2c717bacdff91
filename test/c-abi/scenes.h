#ifndef M3_TEST_SCENES_H
#define M3_TEST_SCENES_H
/* The determinism suite's thirteen scenes (test/determinism/src/lib.rs), built and stepped
 * through the m3 C ABI, printing per-step hashes in the format of test/hashes.txt.
 *
 *   (scenes.c: scenes [--workers N] [--odd-fp]; cpp_scenes.cpp: through maul3d.hpp)
 *
 * --workers N  steps with a pthread task system of N workers (enqueueTask/finishTask).
 * --odd-fp     runs every library call with the thread (and the workers) rounding upward
 *              with flush-to-zero and denormals-are-zero, and checks each call hands the
 *              mode back unchanged. Inputs are computed in the default mode.
 *
 * The few inputs the Rust scenes compute in arithmetic (a friction, an angle, a weight,
 * the cylinders' sizes and positions, the meshes' vertices and heights, the voxel grids'
 * origins) go through volatile temporaries, so a host build with -ffast-math cannot
 * reassociate or contract them: what is tested is that the library's results do not
 * depend on the host's flags. Rotations come from the library's own math exports. */
#include "common.h"

#include <float.h>
#include <stdlib.h>
#include <string.h>

#define SCENE_COUNT 13
static const char *const SCENES[SCENE_COUNT] = {
    "pyramid", "pile_sleep", "far_shift", "churn",      "rollback", "joints", "cylinders",
    "meshes",  "voxels",     "characters", "vehicles", "water",    "soft"};
#define STEPS 300

static m3WorldId world;

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

static m3BodyId dynamic(m3DVec3 p, m3Quat q)
{
    m3BodyDef def = m3DefaultBodyDef();
    def.type = m3_dynamicBody;
    def.position = p;
    def.rotation = q;
    m3BodyId id;
    CALL(m3Body_Create(world, &def, &id));
    return id;
}

static void box(m3BodyId b, const m3ShapeDef *def, float hx, float hy, float hz)
{
    m3Box x = {{hx, hy, hz}, {0.0f, 0.0f, 0.0f}, {0.0f, 0.0f, 0.0f, 1.0f}};
    m3ShapeId s;
    CALL(m3CreateBoxShape(b, def, &x, &s));
}

static void ground(m3DVec3 at)
{
    m3BodyDef def = m3DefaultBodyDef();
    def.position = dv(at.x, at.y - 1.0, at.z);
    m3BodyId g;
    CALL(m3Body_Create(world, &def, &g));
    m3ShapeDef sd = m3DefaultShapeDef();
    box(g, &sd, 60.0f, 1.0f, 60.0f);
}

static void pyramid(int levels, m3DVec3 at)
{
    m3ShapeDef sd = m3DefaultShapeDef();
    for (int i = 0; i < levels; ++i) {
        for (int j = i; j < levels; ++j) {
            double x = (double)(i + 1) * 0.5 + (double)(j - i) - 0.5 * (double)levels;
            m3BodyId b = dynamic(dv(at.x + x, at.y + 0.5 + (double)i, at.z), IDENTITY);
            box(b, &sd, 0.5f, 0.5f, 0.5f);
        }
    }
}

static void pile(m3DVec3 at, int n)
{
    const m3Vec3 points[6] = {{-0.45f, -0.3f, -0.4f}, {0.5f, -0.3f, -0.35f},
                              {0.05f, -0.35f, 0.5f},  {0.1f, 0.45f, 0.05f},
                              {0.3f, 0.2f, 0.3f},     {-0.25f, 0.15f, -0.3f}};
    m3HullId hull;
    CALL(m3World_CreateHull(world, points, 6, &hull));
    m3Vec3 axis;
    VALUE(axis, m3Normalize(v3(0.3f, 1.0f, 0.2f)));
    for (int i = 0; i < n; ++i) {
        m3DVec3 p = dv(at.x + (double)(i % 4) * 0.875 - 1.25,
                       at.y + 1.0 + (double)(i / 4) * 0.875,
                       at.z + (double)((i / 2) % 3) * 0.625 - 0.625);
        volatile float angle = (float)i * 0.61f;
        m3Quat q;
        VALUE(q, m3MakeQuatFromAxisAngle(axis, angle));
        m3BodyId b = dynamic(p, q);
        m3ShapeDef def = m3DefaultShapeDef();
        def.restitution = i % 5 == 0 ? 0.4f : 0.0f;
        volatile float f = 0.05f * (float)(i % 6);
        def.friction = 0.4f + f;
        m3ShapeId s;
        switch (i % 4) {
        case 0:
            box(b, &def, 0.4f, 0.3f, 0.25f);
            break;
        case 1: {
            m3Sphere sp = {{0.0f, 0.0f, 0.0f}, 0.35f};
            CALL(m3CreateSphereShape(b, &def, &sp, &s));
            break;
        }
        case 2: {
            m3Capsule c = {{-0.3f, 0.0f, 0.0f}, {0.3f, 0.0f, 0.0f}, 0.22f};
            CALL(m3CreateCapsuleShape(b, &def, &c, &s));
            break;
        }
        default:
            CALL(m3CreateHullShape(b, &def, hull, &s));
        }
    }
}

static m3JointId joint_at(m3BodyId a, m3BodyId b, m3DVec3 anchor, m3Quat rotation,
                          m3JointDef def)
{
    CALL(m3World_GetJointFramesAt(world, a, b, anchor, rotation, &def.localFrameA,
                                  &def.localFrameB));
    def.bodyA = a;
    def.bodyB = b;
    m3JointId j;
    CALL(m3Joint_Create(world, &def, &j));
    return j;
}

static m3BodyId capsule(m3DVec3 p, m3Vec3 half, float radius, int group)
{
    m3BodyId b = dynamic(p, IDENTITY);
    m3ShapeDef def = m3DefaultShapeDef();
    def.filter.groupIndex = group;
    m3Capsule c = {{-half.x, -half.y, -half.z}, half, radius};
    m3ShapeId s;
    CALL(m3CreateCapsuleShape(b, &def, &c, &s));
    return b;
}

static m3JointDef cone(float swing, float twist)
{
    m3JointDef d = m3DefaultJointDef(m3_coneTwistJoint);
    d.coneTwist.swingLimit = swing;
    d.coneTwist.twistLower = -twist;
    d.coneTwist.twistUpper = twist;
    d.coneTwist.maxFrictionTorque = 0.5f;
    return d;
}

static m3JointDef knee(float lower, float upper)
{
    m3JointDef d = m3DefaultJointDef(m3_revoluteJoint);
    d.revolute.enableLimit = true;
    d.revolute.lower = lower;
    d.revolute.upper = upper;
    d.revolute.enableMotor = true;
    d.revolute.maxMotorTorque = 0.5f;
    return d;
}

static m3DVec3 rag_at;
static m3DVec3 P(double x, double y, double z)
{
    return dv(rag_at.x + x, rag_at.y + y, rag_at.z + z);
}

static m3BodyId bone(double x, double y, float half, float r, int g)
{
    return capsule(P(x, y, 0.0), v3(0.0f, half, 0.0f), r, g);
}

static void ragdoll(m3DVec3 at, int group)
{
    rag_at = at;
    int g = -group;
    m3BodyId pelvis = bone(0.0, 1.0, 0.05f, 0.12f, g);
    m3BodyId spine = bone(0.0, 1.2, 0.05f, 0.11f, g);
    m3BodyId chest = bone(0.0, 1.42, 0.07f, 0.13f, g);
    m3BodyId head = bone(0.0, 1.72, 0.04f, 0.1f, g);
    m3BodyId arm_l = bone(-0.24, 1.36, 0.1f, 0.05f, g);
    m3BodyId fore_l = bone(-0.24, 1.06, 0.1f, 0.045f, g);
    m3BodyId arm_r = bone(0.24, 1.36, 0.1f, 0.05f, g);
    m3BodyId fore_r = bone(0.24, 1.06, 0.1f, 0.045f, g);
    m3BodyId thigh_l = bone(-0.1, 0.7, 0.14f, 0.07f, g);
    m3BodyId shin_l = bone(-0.1, 0.3, 0.14f, 0.055f, g);
    m3BodyId thigh_r = bone(0.1, 0.7, 0.14f, 0.07f, g);
    m3BodyId shin_r = bone(0.1, 0.3, 0.14f, 0.055f, g);
    m3BodyId foot_l = capsule(P(-0.1, 0.05, 0.05), v3(0.0f, 0.0f, 0.06f), 0.045f, g);
    m3BodyId foot_r = capsule(P(0.1, 0.05, 0.05), v3(0.0f, 0.0f, 0.06f), 0.045f, g);
    const float quarter = 0.5f * 3.14159265358979323846f;
    m3Quat down, up, hinge;
    VALUE(down, m3MakeQuatFromAxisAngle(v3(0.0f, 0.0f, 1.0f), -quarter));
    VALUE(up, m3MakeQuatFromAxisAngle(v3(0.0f, 0.0f, 1.0f), quarter));
    VALUE(hinge, m3MakeQuatFromAxisAngle(v3(0.0f, 1.0f, 0.0f), quarter));
    joint_at(pelvis, spine, P(0.0, 1.1, 0.0), up, cone(0.4f, 0.3f));
    joint_at(spine, chest, P(0.0, 1.31, 0.0), up, cone(0.4f, 0.3f));
    joint_at(chest, head, P(0.0, 1.6, 0.0), up, cone(0.5f, 0.6f));
    joint_at(chest, arm_l, P(-0.24, 1.5, 0.0), down, cone(1.4f, 0.8f));
    joint_at(chest, arm_r, P(0.24, 1.5, 0.0), down, cone(1.4f, 0.8f));
    joint_at(arm_l, fore_l, P(-0.24, 1.21, 0.0), hinge, knee(0.0f, 2.2f));
    joint_at(arm_r, fore_r, P(0.24, 1.21, 0.0), hinge, knee(0.0f, 2.2f));
    joint_at(pelvis, thigh_l, P(-0.1, 0.88, 0.0), down, cone(1.0f, 0.4f));
    joint_at(pelvis, thigh_r, P(0.1, 0.88, 0.0), down, cone(1.0f, 0.4f));
    joint_at(thigh_l, shin_l, P(-0.1, 0.5, 0.0), hinge, knee(-2.2f, 0.0f));
    joint_at(thigh_r, shin_r, P(0.1, 0.5, 0.0), hinge, knee(-2.2f, 0.0f));
    joint_at(shin_l, foot_l, P(-0.1, 0.1, 0.0), hinge, knee(-0.6f, 0.6f));
    joint_at(shin_r, foot_r, P(0.1, 0.1, 0.0), hinge, knee(-0.6f, 0.6f));
}

static m3BodyId static_body(m3DVec3 p)
{
    m3BodyDef def = m3DefaultBodyDef();
    def.position = p;
    m3BodyId id;
    CALL(m3Body_Create(world, &def, &id));
    return id;
}

static void joints_scene(void)
{
    ground(dv(0.0, 0.0, 0.0));
    pyramid(4, dv(0.0, 0.0, 0.0));
    ragdoll(dv(-0.5, 4.5, 0.0), 1);
    ragdoll(dv(0.75, 6.5, 0.25), 2);
    m3BodyId post = static_body(dv(-6.0, 8.0, 0.0));
    m3BodyId prev = post;
    for (int i = 0; i < 12; ++i) {
        double x = -6.0 + 0.25 + 0.5 * (double)i;
        m3BodyId link = capsule(dv(x, 8.0, 0.0), v3(0.2f, 0.0f, 0.0f), 0.06f, 0);
        m3DVec3 anchor = dv(-6.0 + 0.5 * (double)i, 8.0, 0.0);
        joint_at(prev, link, anchor, IDENTITY, m3DefaultJointDef(m3_sphericalJoint));
        prev = link;
    }
    m3ShapeDef sd = m3DefaultShapeDef();
    m3BodyId paddle = dynamic(dv(5.0, 1.5, 0.0), IDENTITY);
    box(paddle, &sd, 1.0f, 0.1f, 0.3f);
    m3BodyId axle = static_body(dv(5.0, 1.5, 0.0));
    m3JointDef motor = m3DefaultJointDef(m3_revoluteJoint);
    motor.revolute.enableMotor = true;
    motor.revolute.motorSpeed = 1.5f;
    motor.revolute.maxMotorTorque = 200.0f;
    joint_at(axle, paddle, dv(5.0, 1.5, 0.0), IDENTITY, motor);
    m3BodyId hook = static_body(dv(-3.0, 4.0, 3.0));
    m3BodyId held = dynamic(dv(-2.75, 3.5, 3.0), IDENTITY);
    box(held, &sd, 0.25f, 0.25f, 0.25f);
    m3JointId weld =
        joint_at(hook, held, dv(-3.0, 3.75, 3.0), IDENTITY, m3DefaultJointDef(m3_weldJoint));
    m3MassData md;
    CALL(m3Body_GetMassData(held, &md));
    volatile float weight = md.mass * 10.0f;
    volatile float breakForce = 3.0f * weight;
    CALL(m3Joint_SetBreakThresholds(weld, breakForce, FLT_MAX));
}

static m3ShapeId cylinder(m3BodyId b, const m3ShapeDef *def, float halfHeight, float radius)
{
    m3Cylinder c = {{0.0f, 0.0f, 0.0f}, {0.0f, 0.0f, 0.0f, 1.0f}, halfHeight, radius};
    m3ShapeId s;
    CALL(m3CreateCylinderShape(b, def, &c, &s));
    return s;
}

/* Cylinders rolling down a ramp onto a ground plane, stopped by a wall plane, beside
 * stacks of standing cylinders and boxes. */
static void cylinders_scene(void)
{
    m3ShapeDef sd = m3DefaultShapeDef();
    m3BodyId fixed = static_body(dv(0.0, 0.0, 0.0));
    m3Plane ground_plane = {{0.0f, 1.0f, 0.0f}, 0.0f};
    m3ShapeId s;
    CALL(m3CreatePlaneShape(fixed, &sd, &ground_plane, &s));
    /* The wall: x >= 12 is solid. */
    m3Plane wall = {{-1.0f, 0.0f, 0.0f}, -12.0f};
    CALL(m3CreatePlaneShape(fixed, &sd, &wall, &s));
    m3BodyDef rd = m3DefaultBodyDef();
    rd.position = dv(-6.0, 1.2, 0.0);
    VALUE(rd.rotation, m3MakeQuatFromAxisAngle(v3(0.0f, 0.0f, 1.0f), -0.3f));
    m3BodyId ramp;
    CALL(m3Body_Create(world, &rd, &ramp));
    box(ramp, &sd, 4.0f, 0.2f, 3.0f);
    m3Quat lying;
    VALUE(lying, m3MakeQuatFromAxisAngle(v3(1.0f, 0.0f, 0.0f), 0.5f * 3.14159265358979323846f));
    for (int k = 0; k < 8; ++k) {
        volatile double x = 0.9 * (double)(k % 4);
        volatile double y = 0.8 * (double)(k / 4);
        volatile double z = 1.2 * (double)(k % 3);
        m3BodyId b = dynamic(dv(-8.5 + x, 3.0 + y, z - 1.2), lying);
        volatile float extra = 0.05f * (float)(k % 3);
        cylinder(b, &sd, 0.3f + extra, 0.3f);
    }
    for (int column = 0; column < 3; ++column) {
        for (int level = 0; level < 4; ++level) {
            volatile double x = 1.5 * (double)column;
            volatile double y = 0.6 * (double)level;
            m3BodyId b = dynamic(dv(4.0 + x, 0.3 + y, -2.0), IDENTITY);
            if ((level + column) % 2 == 0)
                cylinder(b, &sd, 0.3f, 0.45f);
            else
                box(b, &sd, 0.4f, 0.3f, 0.4f);
        }
    }
}

/* A bumpy triangle-mesh floor, a height field with a hole next to it, a kinematic mesh
 * platform turning above them, and a mixed pile falling on all three. */
static void meshes_scene(void)
{
    enum { N = 24 };
    m3Vec3 v[(N + 1) * (N + 1)];
    for (int z = 0; z <= N; ++z) {
        for (int x = 0; x <= N; ++x) {
            volatile float y = (float)((x * 7 + z * 5) % 6) * 0.05f;
            volatile float px = (float)x * 0.5f;
            volatile float pz = (float)z * 0.5f;
            v[z * (N + 1) + x] = v3(px - 6.0f, y, pz - 6.0f);
        }
    }
    uint32_t t[N * N * 6];
    int k = 0;
    for (uint32_t z = 0; z < N; ++z) {
        for (uint32_t x = 0; x < N; ++x) {
            uint32_t a = z * (N + 1) + x, b = a + 1;
            uint32_t c = a + N + 1, d = b + N + 1;
            const uint32_t tri[6] = {a, c, d, a, d, b};
            for (int i = 0; i < 6; ++i)
                t[k++] = tri[i];
        }
    }
    m3ShapeDef sd = m3DefaultShapeDef();
    m3MeshId mesh;
    CALL(m3World_CreateMesh(world, v, (N + 1) * (N + 1), t, N * N * 2, &mesh));
    m3BodyId floor_body = static_body(dv(0.0, 0.0, 0.0));
    m3ShapeId s;
    CALL(m3CreateMeshShape(floor_body, &sd, mesh, &s));

    float heights[17 * 17];
    for (int i = 0; i < 17 * 17; ++i) {
        volatile float h = (float)((i * 5) % 7) * 0.04f;
        heights[i] = h;
    }
    bool holes[16 * 16];
    memset(holes, 0, sizeof holes);
    holes[16 * 8 + 8] = true;
    m3HeightFieldDef hd = m3DefaultHeightFieldDef();
    hd.countX = 17;
    hd.countZ = 17;
    hd.heights = heights;
    hd.heightCount = 17 * 17;
    hd.holes = holes;
    hd.holeCount = 16 * 16;
    hd.scale = v3(0.5f, 1.0f, 0.5f);
    m3MeshId hf;
    CALL(m3World_CreateHeightField(world, &hd, &hf));
    m3BodyId field = static_body(dv(6.0, -0.25, -4.0));
    CALL(m3CreateMeshShape(field, &sd, hf, &s));

    const m3Vec3 corners[4] = {
        {-1.5f, 0.0f, -1.5f}, {1.5f, 0.0f, -1.5f}, {1.5f, 0.0f, 1.5f}, {-1.5f, 0.0f, 1.5f}};
    const uint32_t plate_indices[6] = {0, 2, 1, 0, 3, 2};
    m3MeshId plate;
    CALL(m3World_CreateMesh(world, corners, 4, plate_indices, 2, &plate));
    m3BodyDef pd = m3DefaultBodyDef();
    pd.type = m3_kinematicBody;
    pd.position = dv(-2.0, 2.0, 0.0);
    pd.angularVelocity = v3(0.0f, 0.6f, 0.0f);
    m3BodyId platform;
    CALL(m3Body_Create(world, &pd, &platform));
    CALL(m3CreateMeshShape(platform, &sd, plate, &s));

    pile(dv(-2.0, 2.5, 0.0), 16);
    pile(dv(2.0, 0.5, -1.0), 24);
    pile(dv(9.0, 0.5, 0.0), 16);
    /* Cylinders on the bumps, standing and lying. */
    for (int i = 0; i < 6; ++i) {
        volatile double x = 1.25 * (double)i;
        m3Quat q;
        VALUE(q, m3MakeQuatFromAxisAngle(v3(1.0f, 0.0f, 0.0f), i % 2 == 0 ? 0.0f : 1.5f));
        m3BodyId b = dynamic(dv(-5.0 + x, 1.5, 3.5), q);
        cylinder(b, &sd, 0.3f, 0.35f);
    }
}

/* Four voxel chunks (0.5 m voxels, stepped columns of two materials) tiling one static
 * body, a mixed pile falling on them; before_step digs a pit and raises a wall mid-run. */
static void voxels_scene(void)
{
    m3BodyId floor_body = static_body(dv(0.0, 0.0, 0.0));
    m3ShapeDef sd = m3DefaultShapeDef();
    static uint8_t data[M3_VOXEL_CHUNK * M3_VOXEL_CHUNK * M3_VOXEL_CHUNK];
    for (int k = 0; k < 4; ++k) {
        for (int i = 0; i < (int)sizeof data; ++i) {
            int x = i % 16, y = (i / 16) % 16, z = i / 256;
            int height = 2 + (x * 3 + z * 5 + k) % 3;
            data[i] = y < height ? (uint8_t)(1 + (x / 4 + z / 4) % 2) : 0;
        }
        volatile float ox = (float)(k % 2) * 8.0f;
        volatile float oz = (float)(k / 2) * 8.0f;
        m3VoxelGridId g;
        CALL(m3World_CreateVoxelGrid(world, 0.5f, v3(ox - 8.0f, -2.0f, oz - 8.0f), data,
                                     (int32_t)sizeof data, &g));
        m3ShapeId s;
        CALL(m3CreateVoxelShape(floor_body, &sd, g, &s));
    }
    pile(dv(-2.0, 1.0, -2.0), 24);
    pile(dv(3.0, 1.0, 2.0), 24);
}

/* The directions characters walk in, 45° apart (the Rust driver's WALK). */
static const float WALK[8][2] = {{1.0f, 0.0f},          {0.70710677f, 0.70710677f},
                                 {0.0f, 1.0f},          {-0.70710677f, 0.70710677f},
                                 {-1.0f, 0.0f},         {-0.70710677f, -0.70710677f},
                                 {0.0f, -1.0f},         {0.70710677f, -0.70710677f}};

/* A floor with stairs, a ramp, a turning platform, a lift and boxes to push; six
 * characters walk it (before_step moves them every step). */
static void characters_scene(void)
{
    ground(dv(0.0, 0.0, 0.0));
    m3ShapeDef sd = m3DefaultShapeDef();
    for (int k = 0; k < 4; ++k) {
        m3BodyId s = static_body(dv(2.5 + 0.5 * (double)k, 0.125 * (double)(k + 1), -4.0));
        box(s, &sd, 0.25f, 0.125f * (float)(k + 1), 1.5f);
    }
    m3Quat q;
    VALUE(q, m3MakeQuatFromAxisAngle(v3(0.0f, 0.0f, 1.0f), 0.35f));
    m3BodyDef rd = m3DefaultBodyDef();
    rd.position = dv(-4.0, 0.5, -4.0);
    rd.rotation = q;
    m3BodyId ramp;
    CALL(m3Body_Create(world, &rd, &ramp));
    box(ramp, &sd, 2.5f, 0.2f, 1.5f);
    m3BodyDef kd = m3DefaultBodyDef();
    kd.type = m3_kinematicBody;
    kd.position = dv(4.0, 0.25, 4.0);
    kd.angularVelocity = v3(0.0f, 0.8f, 0.0f);
    m3BodyId turn;
    CALL(m3Body_Create(world, &kd, &turn));
    box(turn, &sd, 2.0f, 0.25f, 2.0f);
    kd = m3DefaultBodyDef();
    kd.type = m3_kinematicBody;
    kd.position = dv(-4.0, 0.25, 4.0);
    kd.linearVelocity = v3(0.0f, 0.5f, 0.0f);
    m3BodyId lift;
    CALL(m3Body_Create(world, &kd, &lift));
    box(lift, &sd, 1.5f, 0.25f, 1.5f);
    const float densities[2] = {20.0f, 20000.0f};
    for (int k = 0; k < 2; ++k) {
        m3BodyId b = dynamic(dv(0.0, 0.5, -1.0 - 2.0 * (double)k), IDENTITY);
        m3ShapeDef bd = m3DefaultShapeDef();
        bd.density = densities[k];
        box(b, &bd, 0.5f, 0.5f, 0.5f);
    }
    const double places[6][2] = {{1.0, -4.0}, {-6.5, -4.0}, {4.0, 4.0},
                                 {-4.0, 4.0}, {-2.0, -1.0}, {2.0, 0.0}};
    for (int k = 0; k < 6; ++k) {
        m3CharacterDef cd = m3DefaultCharacterDef();
        cd.position = dv(places[k][0], 1.0 + 0.125 * (double)k, places[k][1]);
        cd.settings.maxStrength = 300.0f;
        m3CharacterId c;
        CALL(m3World_CreateCharacter(world, &cd, &c));
    }
}

static m3CharacterId chars[8];
static int32_t character_ids(void)
{
    int32_t n = 0;
    CALL(m3World_GetCharacterIds(world, chars, 8, &n));
    CHECK(n <= 8);
    return n;
}

/* Character k walks at 1.5 m/s in direction WALK[(step / 60 + k) % 8] (the two on the
 * platforms stand still) and falls at 4 m/s. */
static void walk_characters(int step)
{
    int32_t n = character_ids();
    for (int32_t k = 0; k < n; ++k) {
        const float *d = WALK[(step / 60 + k) % 8];
        volatile float speed = (k == 2 || k == 3) ? 0.0f : 1.5f;
        volatile float x = d[0], z = d[1];
        volatile float vx = speed * x;
        volatile float vz = speed * z;
        CALL(m3Character_Move(chars[k], v3(vx, -4.0f, vz), 1.0f / 60.0f));
    }
}

/* Three cars on a floor with a row of bumps: one drives straight, one turns, one brakes
 * hard at step 150; a box sits in the straight car's way. */
static void vehicles_scene(void)
{
    m3BodyId g = static_body(dv(0.0, -1.0, 0.0));
    m3ShapeDef floor = m3DefaultShapeDef();
    floor.friction = 1.0f;
    box(g, &floor, 60.0f, 1.0f, 60.0f);
    for (int k = 0; k < 4; ++k) {
        m3BodyId b = static_body(dv(-6.0, 0.0, 4.0 + 3.0 * (double)k));
        m3Capsule c = {{-3.0f, 0.0f, 0.0f}, {3.0f, 0.0f, 0.0f}, 0.12f};
        m3ShapeId s;
        CALL(m3CreateCapsuleShape(b, &floor, &c, &s));
    }
    m3BodyId crate_box = dynamic(dv(6.0, 0.5, 14.0), IDENTITY);
    m3ShapeDef cd = m3DefaultShapeDef();
    cd.density = 50.0f;
    box(crate_box, &cd, 0.5f, 0.5f, 0.5f);
    volatile float hx = 0.9f, hy = 0.3f, hz = 2.0f;
    volatile float v1 = 8.0f * hx;
    volatile float v2 = v1 * hy;
    volatile float volume = v2 * hz;
    volatile float density = 1200.0f / volume;
    const double xs[3] = {6.0, -6.0, 0.0};
    for (int k = 0; k < 3; ++k) {
        m3BodyId c = dynamic(dv(xs[k], 1.0, -6.0), IDENTITY);
        m3ShapeDef chassis = m3DefaultShapeDef();
        chassis.density = density;
        box(c, &chassis, hx, hy, hz);
        m3VehicleDef def = m3DefaultVehicleDef();
        def.chassis = c;
        def.transmission.automatic = true;
        const float at[4][2] = {{-0.8f, 1.3f}, {0.8f, 1.3f}, {-0.8f, -1.3f}, {0.8f, -1.3f}};
        for (int i = 0; i < 4; ++i) {
            int front = at[i][1] > 0.0f;
            m3WheelDef w = m3DefaultWheelDef();
            w.position = v3(at[i][0], -0.1f, at[i][1]);
            w.minLength = 0.05f;
            w.maxLength = 0.5f;
            w.restLength = 0.5f;
            w.springMode = m3_springStiffness;
            w.stiffness = 30000.0f;
            w.damping = 4000.0f;
            w.radius = 0.35f;
            w.maxSteerAngle = front ? 0.5f : 0.0f;
            w.brakeTorque = 5000.0f;
            w.handbrakeTorque = front ? 0.0f : 4000.0f;
            w.driven = !front;
            w.cast = k == 1 ? m3_wheelCastCylinder : m3_wheelCastRay;
            def.wheels[i] = w;
        }
        def.wheelCount = 4;
        m3VehicleId v;
        CALL(m3World_CreateVehicle(world, &def, &v));
    }
}

static void vehicle_input(m3VehicleId v, float throttle, float steering, float brake,
                          float handbrake)
{
    m3VehicleInput in = {throttle, steering, brake, handbrake};
    CALL(m3Vehicle_SetInput(v, in));
}

/* The cars' inputs for step `step`. */
static void drive_vehicles(int step)
{
    m3VehicleId v[4];
    int32_t n = 0;
    CALL(m3World_GetVehicleIds(world, v, 4, &n));
    CHECK(n == 3);
    if (step == 0) {
        vehicle_input(v[0], 0.5f, 0.0f, 0.0f, 0.0f);
        vehicle_input(v[1], 0.4f, -0.6f, 0.0f, 0.0f);
        vehicle_input(v[2], 1.0f, 0.0f, 0.0f, 0.0f);
    }
    if (step == 150)
        vehicle_input(v[2], 0.0f, 0.0f, 1.0f, 0.0f);
    if (step == 200)
        vehicle_input(v[2], 0.0f, 0.25f, 0.0f, 1.0f);
}

/* A pool with a current: boxes, spheres, capsules, cylinders and hulls of densities from
 * 300 to 1440 kg/m³ dropped in; the current turns at step 150 and the water gets denser
 * at step 220. */
static void water_scene(void)
{
    ground(dv(0.0, 0.0, 0.0));
    m3WaterVolumeDef wd = m3DefaultWaterVolumeDef();
    wd.center = dv(0.0, 1.5, 0.0);
    wd.halfExtents = v3(8.0f, 1.5f, 8.0f);
    wd.linearDrag = 0.8f;
    wd.angularDrag = 1.5f;
    wd.flow = v3(0.5f, 0.0f, 0.25f);
    m3WaterVolumeId water;
    CALL(m3World_CreateWaterVolume(world, &wd, &water));
    const m3Vec3 points[8] = {{-0.6f, -0.2f, -0.4f}, {0.6f, -0.2f, -0.4f}, {0.6f, -0.2f, 0.4f},
                              {-0.6f, -0.2f, 0.4f},  {-0.8f, 0.2f, -0.5f}, {0.8f, 0.2f, -0.5f},
                              {0.8f, 0.2f, 0.5f},    {-0.8f, 0.2f, 0.5f}};
    m3HullId hull;
    CALL(m3World_CreateHull(world, points, 8, &hull));
    m3Vec3 axis;
    VALUE(axis, m3Normalize(v3(1.0f, 0.4f, 0.2f)));
    for (int i = 0; i < 20; ++i) {
        m3DVec3 p = dv((double)(i % 5) * 2.0 - 4.0, 4.0 + (double)(i / 5) * 1.25,
                       (double)((i * 3) % 4) * 1.5 - 2.25);
        volatile float angle = (float)i * 0.37f;
        m3Quat q;
        VALUE(q, m3MakeQuatFromAxisAngle(axis, angle));
        m3BodyId b = dynamic(p, q);
        m3ShapeDef def = m3DefaultShapeDef();
        volatile float extra = 60.0f * (float)i;
        def.density = 300.0f + extra;
        m3ShapeId s;
        switch (i % 5) {
        case 0:
            box(b, &def, 0.5f, 0.3f, 0.4f);
            break;
        case 1: {
            m3Sphere sp = {{0.0f, 0.0f, 0.0f}, 0.4f};
            CALL(m3CreateSphereShape(b, &def, &sp, &s));
            break;
        }
        case 2: {
            m3Capsule c = {{0.0f, -0.3f, 0.0f}, {0.0f, 0.3f, 0.0f}, 0.25f};
            CALL(m3CreateCapsuleShape(b, &def, &c, &s));
            break;
        }
        case 3:
            cylinder(b, &def, 0.3f, 0.35f);
            break;
        default:
            CALL(m3CreateHullShape(b, &def, hull, &s));
        }
    }
}

static m3WaterVolumeId first_water(void)
{
    m3WaterVolumeId w;
    int32_t n = 0;
    CALL(m3World_GetWaterVolumeIds(world, &w, 1, &n));
    CHECK(n == 1);
    return w;
}

/* ---- the soft scene ---- */

/* A square cloth of n x n vertices `step` apart, centred in its frame's xz plane, two
 * triangles per cell (the Rust driver's soft_grid; its steps are multiples of 2^-4, so
 * every coordinate is exact whatever the compiler's flags). */
static m3Vec3 soft_v[256];
static uint32_t soft_t[3 * 512];
static int32_t soft_nv, soft_nt;
static void soft_grid(int n, float step)
{
    const float half = 0.5f * (float)(n - 1) * step;
    soft_nv = 0;
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < n; ++i)
            soft_v[soft_nv++] = v3((float)i * step - half, 0.0f, (float)j * step - half);
    soft_nt = 0;
    for (int j = 0; j < n - 1; ++j) {
        for (int i = 0; i < n - 1; ++i) {
            uint32_t a = (uint32_t)(i + n * j), b = a + 1, c = a + (uint32_t)n, d = c + 1;
            uint32_t *t = soft_t + 3 * soft_nt;
            t[0] = a, t[1] = c, t[2] = b, t[3] = b, t[4] = c, t[5] = d;
            soft_nt += 2;
        }
    }
}

/* A closed ball: an octahedron subdivided `levels` times, each new vertex the library's
 * m3Normalize of its edge's midpoint (in the order the triangles meet the edges), scaled
 * by `radius` (the Rust driver's soft_ball). Sums and products go through volatiles. */
static uint32_t soft_edge[3 * 512][3];
static int soft_edges;
static uint32_t soft_mid(uint32_t a, uint32_t b)
{
    uint32_t lo = a < b ? a : b, hi = a < b ? b : a;
    for (int k = 0; k < soft_edges; ++k)
        if (soft_edge[k][0] == lo && soft_edge[k][1] == hi)
            return soft_edge[k][2];
    volatile float sx = soft_v[a].x + soft_v[b].x, sy = soft_v[a].y + soft_v[b].y,
                   sz = soft_v[a].z + soft_v[b].z;
    volatile float mx = sx * 0.5f, my = sy * 0.5f, mz = sz * 0.5f;
    VALUE(soft_v[soft_nv], m3Normalize(v3(mx, my, mz)));
    soft_edge[soft_edges][0] = lo, soft_edge[soft_edges][1] = hi;
    soft_edge[soft_edges][2] = (uint32_t)soft_nv;
    soft_edges++;
    return (uint32_t)soft_nv++;
}

static void soft_ball(float radius, int levels)
{
    static const m3Vec3 corners[6] = {{1, 0, 0}, {-1, 0, 0}, {0, 1, 0},
                                      {0, -1, 0}, {0, 0, 1}, {0, 0, -1}};
    static const uint32_t faces[24] = {0, 2, 4, 2, 1, 4, 1, 3, 4, 3, 0, 4,
                                       2, 0, 5, 1, 2, 5, 3, 1, 5, 0, 3, 5};
    static uint32_t next[3 * 512];
    memcpy(soft_v, corners, sizeof corners);
    soft_nv = 6;
    memcpy(soft_t, faces, sizeof faces);
    soft_nt = 8;
    for (int l = 0; l < levels; ++l) {
        soft_edges = 0;
        int32_t m = 0;
        for (int32_t k = 0; k < soft_nt; ++k) {
            uint32_t a = soft_t[3 * k], b = soft_t[3 * k + 1], c = soft_t[3 * k + 2];
            uint32_t ab = soft_mid(a, b);
            uint32_t bc = soft_mid(b, c);
            uint32_t ca = soft_mid(c, a);
            const uint32_t four[12] = {a, ab, ca, ab, b, bc, ca, bc, c, ab, bc, ca};
            memcpy(next + 3 * m, four, sizeof four);
            m += 4;
        }
        memcpy(soft_t, next, (size_t)m * 3 * sizeof *soft_t);
        soft_nt = m;
    }
    for (int32_t k = 0; k < soft_nv; ++k) {
        volatile float x = soft_v[k].x * radius, y = soft_v[k].y * radius,
                       z = soft_v[k].z * radius;
        soft_v[k] = v3(x, y, z);
    }
}

/* Creates a soft body from soft_v / soft_t. */
static m3SoftBodyId soft_body(m3DVec3 at, m3SoftBodySettings settings)
{
    m3SoftBodyDef def = m3DefaultSoftBodyDef();
    def.vertices = soft_v;
    def.vertexCount = soft_nv;
    def.indices = soft_t;
    def.triangleCount = soft_nt;
    def.position = at;
    def.settings = settings;
    m3SoftBodyId id;
    CALL(m3World_CreateSoftBody(world, &def, &id));
    return id;
}

static m3SoftBodySettings pressure_ball(void)
{
    m3SoftBodySettings s = m3DefaultSoftBodySettings();
    s.pressure = 40.0f;
    s.damping = 0.2f;
    s.selfCollision = true;
    return s;
}

static m3SoftBodySettings volume_ball(void)
{
    m3SoftBodySettings s = m3DefaultSoftBodySettings();
    s.mass = 2.0f;
    s.volumeScale = 1.0f;
    s.edgeCompliance = 1.0e-4f;
    s.damping = 0.5f;
    return s;
}

/* A 12 x 12 cloth pinned at two corners over a static sphere, its third corner attached
 * to a dynamic box; a pressure ball with self-collision and a volume ball. */
static void soft_scene(void)
{
    ground(dv(0.0, 0.0, 0.0));
    m3BodyId s = static_body(dv(0.0, 1.0, 0.0));
    m3ShapeDef sd = m3DefaultShapeDef();
    m3Sphere sp = {{0.0f, 0.0f, 0.0f}, 0.5f};
    m3ShapeId shape;
    CALL(m3CreateSphereShape(s, &sd, &sp, &shape));
    soft_grid(12, 0.1875f);
    m3SoftBodySettings cs = m3DefaultSoftBodySettings();
    cs.damping = 0.5f;
    m3SoftBodyId cloth = soft_body(dv(0.0, 2.0, 0.0), cs);
    CALL(m3SoftBody_SetParticlePinned(cloth, 0, true));
    CALL(m3SoftBody_SetParticlePinned(cloth, 11, true));
    m3BodyId b = dynamic(dv(1.0, 1.8, 1.0), IDENTITY);
    m3ShapeDef bd = m3DefaultShapeDef();
    bd.density = 50.0f;
    box(b, &bd, 0.15f, 0.15f, 0.15f);
    CALL(m3SoftBody_AttachParticle(cloth, 143, b, v3(0.0f, 0.15f, 0.0f)));
    soft_ball(0.4f, 2);
    soft_body(dv(-3.0, 1.5, 0.0), pressure_ball());
    soft_body(dv(3.0, 1.0, 0.0), volume_ball());
}

static m3SoftBodyId softs[4];
static int32_t soft_ids(void)
{
    int32_t n = 0;
    CALL(m3World_GetSoftBodyIds(world, softs, 4, &n));
    CHECK(n <= 4);
    return n;
}

/* The soft scene's calls before step `step` (the Rust driver's soft_calls). */
static void soft_calls(int step);

/* The def every scene uses, over the caller's (hooks). */
static m3WorldDef scene_def(int scene, const m3WorldDef *base)
{
    m3WorldDef def = *base;
    def.enableSleep = scene == 1 || scene == 3 || scene == 4 || scene == 5 || scene == 6 ||
                      scene == 7 || scene == 8 || scene == 10 || scene == 11;
    def.bodyCapacity = 512;
    def.shapeCapacity = 512;
    def.contactCapacity = 4096;
    def.pairCapacity = 4096;
    def.hullCapacity = 8;
    def.eventCapacity = 256;
    def.characterCapacity = 8;
    def.vehicleCapacity = 4;
    def.waterCapacity = 2;
    return def;
}

/* Builds scene `scene` into `world`. */
static void populate(int scene)
{
    switch (scene) {
    case 0:
        ground(dv(0.0, 0.0, 0.0));
        pyramid(20, dv(0.0, 0.0, 0.0));
        break;
    case 1:
        ground(dv(0.0, 0.0, 0.0));
        pile(dv(0.0, 0.0, 0.0), 60);
        break;
    case 2: {
        m3DVec3 at = dv(1048576.0, -524288.0, 262144.0);
        ground(at);
        pyramid(8, at);
        pile(dv(at.x + 6.0, at.y, at.z), 24);
        break;
    }
    case 5:
        joints_scene();
        break;
    case 6:
        cylinders_scene();
        break;
    case 7:
        meshes_scene();
        break;
    case 8:
        voxels_scene();
        break;
    case 9:
        characters_scene();
        break;
    case 10:
        vehicles_scene();
        break;
    case 11:
        water_scene();
        break;
    case 12:
        soft_scene();
        break;
    default: {
        ground(dv(0.0, 0.0, 0.0));
        pyramid(6, dv(-8.0, 0.0, 0.0));
        pile(dv(4.0, 0.0, 0.0), 40);
        m3BodyDef k = m3DefaultBodyDef();
        k.type = m3_kinematicBody;
        k.position = dv(0.0, 0.5, 6.0);
        k.linearVelocity = v3(0.0f, 0.0f, -1.5f);
        k.angularVelocity = v3(0.0f, 0.7f, 0.0f);
        m3BodyId kb;
        CALL(m3Body_Create(world, &k, &kb));
        m3ShapeDef sd = m3DefaultShapeDef();
        box(kb, &sd, 3.0f, 0.5f, 0.3f);
    }
    }
}

static m3BodyId ids[1024];
static int32_t body_ids(void)
{
    int32_t n = 0;
    CALL(m3World_GetBodyIds(world, ids, 1024, &n));
    CHECK(n <= 1024);
    return n;
}

/* The live meshes' ids as voxel grid ids (grids share the mesh pool and its ids), in
 * slot order, as the Rust driver's `mesh_ids()`. */
static m3VoxelGridId grids[8];
static int32_t grid_ids(void)
{
    m3MeshId meshes[8];
    int32_t n = 0;
    CALL(m3World_GetMeshIds(world, meshes, 8, &n));
    CHECK(n <= 8);
    for (int32_t i = 0; i < n; ++i) {
        m3VoxelGridId g = {meshes[i].index, meshes[i].generation, meshes[i].world};
        grids[i] = g;
    }
    return n;
}

static uint8_t *snapshot;
static int64_t snapshot_len;

static void take_snapshot(void)
{
    CALL(m3World_GetSnapshotSize(world, &snapshot_len));
    snapshot = (uint8_t *)malloc((size_t)snapshot_len);
    CHECK(snapshot != NULL);
    int64_t written = 0;
    CALL(m3World_Snapshot(world, snapshot, snapshot_len, &written));
    CHECK(written == snapshot_len);
}

static void before_step(int scene, int step)
{
    if (scene == 1 && step == 200) {
        m3BodyId b = dynamic(dv(0.0, 14.0, 0.0), IDENTITY);
        m3ShapeDef sd = m3DefaultShapeDef();
        sd.density = 3000.0f;
        box(b, &sd, 0.5f, 0.5f, 0.5f);
    } else if (scene == 5 && step == 150) {
        int32_t n = body_ids();
        m3MassData md;
        CALL(m3Body_GetMassData(ids[n - 1], &md));
        volatile float pull = -60.0f * md.mass;
        CALL(m3Body_ApplyForceToCenter(ids[n - 1], v3(0.0f, pull, 0.0f)));
    } else if (scene == 5 && step == 220) {
        m3JointId joints[256];
        int32_t n = 0;
        CALL(m3World_GetJointIds(world, joints, 256, &n));
        CHECK(n > 32);
        CALL(m3Joint_Destroy(joints[26 + 6]));
    } else if (scene == 8 && step == 120) {
        /* Dig a pit under the first pile and raise a wall in the next chunk. */
        CHECK(grid_ids() == 4);
        CALL(m3VoxelGrid_FillVoxels(grids[0], 8, 0, 8, 15, 4, 15, 0));
        CALL(m3VoxelGrid_FillVoxels(grids[3], 0, 0, 0, 1, 8, 15, 2));
        CALL(m3VoxelGrid_SetVoxel(grids[1], 3, 6, 3, 1));
    } else if (scene == 8 && step == 200) {
        CHECK(grid_ids() > 2);
        CALL(m3VoxelGrid_ClearVoxel(grids[2], 12, 1, 2));
    } else if (scene == 9) {
        walk_characters(step);
        if (step == 100) {
            /* Characters 0 and 1 take higher steps and a gentler slope limit. */
            character_ids();
            m3CharacterSettings cs;
            CALL(m3Character_GetSettings(chars[0], &cs));
            cs.stepHeight = 0.4f;
            cs.maxSlopeAngle = 0.6f;
            CALL(m3Character_SetSettings(chars[0], cs));
            CALL(m3Character_SetSettings(chars[1], cs));
        }
        if (step == 150)
            take_snapshot();
        if (step == 220) {
            /* A rollback mid-walk, then a character gone and one placed. */
            CALL(m3World_Restore(world, snapshot, snapshot_len));
            free(snapshot);
            snapshot = NULL;
            CHECK(character_ids() == 6);
            CALL(m3Character_Destroy(chars[5]));
            CALL(m3Character_SetPosition(chars[4], dv(-1.0, 2.0, 1.0)));
        }
    } else if (scene == 10) {
        drive_vehicles(step);
        if (step == 120)
            take_snapshot();
        if (step == 180) {
            /* A rollback mid-drive. */
            CALL(m3World_Restore(world, snapshot, snapshot_len));
            free(snapshot);
            snapshot = NULL;
            drive_vehicles(150);
        }
    } else if (scene == 11 && step == 150) {
        m3WaterVolumeId w = first_water();
        CALL(m3WaterVolume_SetFlow(w, v3(-0.5f, 0.0f, 0.0f)));
    } else if (scene == 11 && step == 220) {
        m3WaterVolumeId w = first_water();
        CALL(m3WaterVolume_SetDensity(w, 1200.0f));
    } else if (scene == 12) {
        soft_calls(step);
    } else if (scene == 2 && step == 150) {
        CALL(m3World_ShiftOrigin(world, dv(1048576.0, -524288.0, 262144.0)));
    } else if (scene == 3 || scene == 4) {
        if (step % 9 == 4) {
            int32_t n = body_ids();
            if (n > 3) {
                m3BodyId victim = ids[2 + (step * 17) % (n - 2)];
                m3BodyType t;
                CALL(m3Body_GetType(victim, &t));
                if (t == m3_dynamicBody)
                    CALL(m3Body_Destroy(victim));
            }
        }
        if (step % 6 == 1) {
            m3BodyId b = dynamic(dv((double)(step % 7) - 3.0, 9.0, 0.5), IDENTITY);
            m3ShapeDef sd = m3DefaultShapeDef();
            sd.restitution = 0.5f;
            m3Sphere sp = {{0.0f, 0.0f, 0.0f}, 0.3f};
            m3ShapeId s;
            CALL(m3CreateSphereShape(b, &sd, &sp, &s));
        }
        if (step % 13 == 0) {
            int32_t n = body_ids();
            CALL(m3Body_ApplyLinearImpulseToCenter(ids[n / 2], v3(0.5f, 3.0f, -0.5f)));
        }
        if (scene == 4 && step == 100) {
            CALL(m3World_GetSnapshotSize(world, &snapshot_len));
            snapshot = (uint8_t *)malloc((size_t)snapshot_len);
            int64_t written = 0;
            CALL(m3World_Snapshot(world, snapshot, snapshot_len, &written));
            CHECK(written == snapshot_len);
        }
        if (scene == 4 && step == 200) {
            CALL(m3World_Restore(world, snapshot, snapshot_len));
            free(snapshot);
            snapshot = NULL;
        }
    }
}

static void soft_calls(int step)
{
    if (step == 60) {
        soft_ids();
        CALL(m3SoftBody_SetParticlePinned(softs[0], 11, false));
    } else if (step == 90) {
        soft_ids();
        CALL(m3SoftBody_SetParticlePosition(softs[0], 0, dv(-0.75, 2.0, -1.0)));
    } else if (step == 100) {
        CHECK(soft_ids() == 3);
        CALL(m3SoftBody_ApplyImpulse(softs[1], v3(1.0f, 4.0f, 0.0f)));
        CALL(m3SoftBody_ApplyParticleImpulse(softs[2], 0, v3(0.0f, 0.0f, 0.5f)));
    } else if (step == 120) {
        CHECK(soft_ids() == 3);
        CALL(m3SoftBody_SetParticleVelocity(softs[0], 70, v3(0.0f, 2.0f, 0.0f)));
        m3SoftBodySettings s = volume_ball();
        s.friction = 0.9f;
        s.substeps = 6;
        CALL(m3SoftBody_SetSettings(softs[2], s));
    } else if (step == 150) {
        take_snapshot();
    } else if (step == 180) {
        /* A soft body gone and one made; the box let go. */
        CHECK(soft_ids() == 3);
        CALL(m3SoftBody_Destroy(softs[2]));
        soft_grid(6, 0.1875f);
        m3SoftBodyId small = soft_body(dv(3.0, 2.5, 0.0), m3DefaultSoftBodySettings());
        CALL(m3SoftBody_SetParticlePinned(small, 0, true));
        const m3BodyId none = {0, 0, {0, 0}};
        CALL(m3SoftBody_AttachParticle(softs[0], 143, none, v3(0.0f, 0.0f, 0.0f)));
    } else if (step == 220) {
        /* A rollback to step 150, then the pressure ball gone for a self-colliding
         * cloth, the volume ball teleported. */
        CALL(m3World_Restore(world, snapshot, snapshot_len));
        free(snapshot);
        snapshot = NULL;
        CHECK(soft_ids() == 3);
        CALL(m3SoftBody_Destroy(softs[1]));
        soft_grid(6, 0.1875f);
        m3SoftBodySettings s = m3DefaultSoftBodySettings();
        s.selfCollision = true;
        s.bendCompliance = 10.0f;
        soft_body(dv(-3.0, 2.0, 0.0), s);
        m3Quat q;
        VALUE(q, m3MakeQuatFromAxisAngle(v3(0.0f, 1.0f, 0.0f), 0.5f));
        CALL(m3SoftBody_SetTransform(softs[2], dv(3.0, 1.5, 0.5), q));
    } else if (step == 260) {
        soft_ids();
        const m3Filter none = {1, 0, 0};
        CALL(m3SoftBody_SetFilter(softs[0], none));
    }
}

#endif
