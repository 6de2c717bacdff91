/* The rest of the C surface against closed forms and clear physical expectations:
 * events, queries, the motion test, explosions, areas, debug draw, every joint kind and
 * its setters, counters, memory, profile, origin shift, the host math, cylinders and
 * planes (rays, mass, resting height, getters, queries, debug draw, refusals), meshes
 * and height fields (rays, resting height, getters, content bytes, debug draw triangle by
 * triangle, refusals), a body's shapes and a shape's content, per-body contact data
 * (points, separations, impulses against the weight; the shape variant; refusals), calls
 * that change nothing on a journal's tape, waking what a kinematic platform touches, the floating-point setting the pre-solve
 * callback runs in (x87 control word and MXCSR on x86), and task hooks left alone by
 * small worlds. */
#include "common.h"

#include <math.h>
#include <stddef.h>
#include <string.h>

static m3WorldId w;
static m3ShapeDef sd;

static m3BodyId body(int type, double x, double y, double z)
{
    m3BodyDef d = m3DefaultBodyDef();
    d.type = type;
    d.position.x = x;
    d.position.y = y;
    d.position.z = z;
    m3BodyId b;
    CALL(m3Body_Create(w, &d, &b));
    return b;
}

static m3ShapeId ball(m3BodyId b, float r)
{
    m3Sphere s = {{0.0f, 0.0f, 0.0f}, r};
    m3ShapeId id;
    CALL(m3CreateSphereShape(b, &sd, &s, &id));
    return id;
}

static int drawn_shapes, drawn_joints, drawn_cylinders, drawn_planes, drawn_triangles;
static float drawn_area;
static void draw_shape(m3ShapeId shape, m3BodyId b, m3DVec3 p, m3Quat q, const m3DebugShape *g,
                       bool awake, void *context)
{
    (void)shape;
    (void)b;
    (void)p;
    (void)q;
    (void)awake;
    (void)context;
    CHECK(g->type >= m3_sphereShape && g->type <= m3_meshShape);
    if (g->type == m3_hullShape)
        CHECK(g->hullVertexCount >= 4 && g->hullFaceCount >= 4);
    if (g->type == m3_cylinderShape) {
        CHECK(g->cylinder.halfHeight > 0.0f && g->cylinder.radius > 0.0f);
        drawn_cylinders++;
    }
    if (g->type == m3_planeShape) {
        CHECK(g->plane.normal.y == 1.0f && g->plane.offset == 1.0f);
        drawn_planes++;
    }
    if (g->type == m3_meshShape) {
        /* Twice the area, from the cross product; counter-clockwise from above: +y. */
        const m3Vec3 *t = g->triangle;
        float ux = t[1].x - t[0].x, uz = t[1].z - t[0].z;
        float vx = t[2].x - t[0].x, vz = t[2].z - t[0].z;
        drawn_area += 0.5f * (uz * vx - ux * vz);
        drawn_triangles++;
    }
    drawn_shapes++;
}
static void draw_joint(m3JointId j, m3DVec3 pa, m3Quat qa, m3DVec3 pb, m3Quat qb, bool broken,
                       void *context)
{
    (void)j;
    (void)pa;
    (void)qa;
    (void)pb;
    (void)qb;
    (void)broken;
    (void)context;
    drawn_joints++;
}

static int near(double a, double b, double tol) { return fabs(a - b) <= tol; }

/* Cylinders and planes, in a world of their own: a floor plane y = 1, a static cylinder
 * lying along x, a dynamic one standing on the floor. */
static void cylinders_and_planes(void)
{
    m3WorldDef def = m3DefaultWorldDef();
    def.bodyCapacity = 8;
    def.shapeCapacity = 8;
    CALL(m3World_Create(&def, &w));
    m3ShapeDef plain = m3DefaultShapeDef();
    m3QueryFilter qf = m3DefaultQueryFilter();
    const m3Quat identity = {0.0f, 0.0f, 0.0f, 1.0f};

    /* A non-unit normal is normalised: the solid is y <= 1. */
    m3BodyId fixed = body(m3_staticBody, 0.0, 0.0, 0.0);
    m3Plane floorPlane = {{0.0f, 2.0f, 0.0f}, 1.0f};
    m3ShapeId floorShape;
    CALL(m3CreatePlaneShape(fixed, &plain, &floorPlane, &floorShape));
    int st = -1;
    CALL(m3Shape_GetType(floorShape, &st));
    CHECK(st == m3_planeShape);
    m3Plane gotPlane;
    CALL(m3Shape_GetPlane(floorShape, &gotPlane));
    CHECK(gotPlane.normal.x == 0.0f && gotPlane.normal.y == 1.0f && gotPlane.normal.z == 0.0f &&
          gotPlane.offset == 1.0f);

    /* Radius 0.5, half-height 1, centred at (5, 3, 0) with its axis turned onto -x. */
    m3BodyId post = body(m3_staticBody, 5.0, 3.0, 0.0);
    m3Cylinder lying = {{0.0f, 0.0f, 0.0f}, identity, 1.0f, 0.5f};
    lying.rotation = m3MakeQuatFromAxisAngle((m3Vec3){0.0f, 0.0f, 1.0f}, 1.5707964f);
    m3ShapeId postShape;
    CALL(m3CreateCylinderShape(post, &plain, &lying, &postShape));
    CALL(m3Shape_GetType(postShape, &st));
    CHECK(st == m3_cylinderShape);
    m3Cylinder gotCylinder;
    CALL(m3Shape_GetCylinder(postShape, &gotCylinder));
    CHECK(gotCylinder.halfHeight == 1.0f && gotCylinder.radius == 0.5f);
    CHECK(m3Shape_GetPlane(postShape, &gotPlane) == m3_errorArgument);
    CHECK(m3Shape_GetCylinder(floorShape, &gotCylinder) == m3_errorArgument);

    /* A ray across the axis from z = -10 over 20 m meets the side at z = -0.5: fraction
     * 9.5 / 20, normal -z. One along the axis from x = 10 over 10 m meets the cap at x = 6:
     * fraction 0.4, normal +x. */
    m3RayResult ray;
    CALL(m3World_CastRayClosest(w, (m3DVec3){5.25, 3.0, -10.0}, (m3Vec3){0.0f, 0.0f, 20.0f}, qf,
                                &ray));
    CHECK(ray.hit && ray.shape.index == postShape.index && near(ray.fraction, 0.475, 1e-6));
    CHECK(near(ray.point.z, -0.5, 1e-5) && near(ray.normal.z, -1.0, 1e-6));
    CALL(m3World_CastRayClosest(w, (m3DVec3){10.0, 3.1, 0.2}, (m3Vec3){-10.0f, 0.0f, 0.0f}, qf,
                                &ray));
    CHECK(ray.hit && ray.shape.index == postShape.index && near(ray.fraction, 0.4, 1e-6));
    CHECK(near(ray.normal.x, 1.0, 1e-6));
    /* Past the rim (|y - 3| > 0.5) the ray misses the cylinder and meets nothing. */
    CALL(m3World_CastRayClosest(w, (m3DVec3){5.0, 3.6, -10.0}, (m3Vec3){0.0f, 0.0f, 20.0f}, qf,
                                &ray));
    CHECK(!ray.hit);
    /* Straight down from y = 5 over 8 m: the plane y = 1 at half the way, normal +y. Far
     * from the body (x = 300) it is just as exact. A ray starting in the solid has no
     * entry. */
    CALL(m3World_CastRayClosest(w, (m3DVec3){300.0, 5.0, -40.0}, (m3Vec3){0.0f, -8.0f, 0.0f},
                                qf, &ray));
    CHECK(ray.hit && ray.shape.index == floorShape.index && ray.fraction == 0.5f);
    CHECK(ray.point.y == 1.0 && ray.normal.y == 1.0f);
    CALL(m3World_CastRayClosest(w, (m3DVec3){300.0, 0.5, -40.0}, (m3Vec3){0.0f, -8.0f, 0.0f},
                                qf, &ray));
    CHECK(!ray.hit);
    /* With hitFromInside the ray starting in the solid hits it at its origin, fraction 0,
     * with a zero normal; the default options are the plain cast's. */
    m3RayOptions inside = m3DefaultRayOptions();
    CHECK(!inside.hitFromInside && inside.hitBackFaces);
    CALL(m3World_CastRayClosestEx(w, (m3DVec3){300.0, 0.5, -40.0},
                                  (m3Vec3){0.0f, -8.0f, 0.0f}, qf, inside, &ray));
    CHECK(!ray.hit);
    inside.hitFromInside = true;
    CALL(m3World_CastRayClosestEx(w, (m3DVec3){300.0, 0.5, -40.0},
                                  (m3Vec3){0.0f, -8.0f, 0.0f}, qf, inside, &ray));
    CHECK(ray.hit && ray.shape.index == floorShape.index && ray.fraction == 0.0f);
    CHECK(ray.point.y == 0.5 && ray.normal.x == 0.0f && ray.normal.y == 0.0f &&
          ray.normal.z == 0.0f);
    m3RayResult rays[2];
    int rayCount = -1;
    CALL(m3World_CastRayEx(w, (m3DVec3){300.0, 0.5, -40.0}, (m3Vec3){0.0f, -8.0f, 0.0f}, qf,
                           inside, rays, 2, &rayCount));
    CHECK(rayCount == 1 && rays[0].fraction == 0.0f);

    /* Mass: density 1000 × π r² × 2h, with r = 0.4, h = 0.5: 502.65 kg; inertia about the
     * axis m r² / 2, across it m (3 r² + (2h)²) / 12. */
    m3BodyId can = body(m3_dynamicBody, -3.0, 1.6, 0.0);
    m3Cylinder standing = {{0.0f, 0.0f, 0.0f}, identity, 0.5f, 0.4f};
    m3ShapeId canShape;
    CALL(m3CreateCylinderShape(can, &plain, &standing, &canShape));
    m3MassData md;
    CALL(m3Body_GetMassData(can, &md));
    const double pi = 3.14159265358979323846, m = 1000.0 * pi * 0.16 * 1.0;
    CHECK(near(md.mass, m, 1e-3 * m));
    CHECK(near(md.inertia.cy.y, 0.5 * m * 0.16, 1e-3 * m));
    CHECK(near(md.inertia.cx.x, m * (3.0 * 0.16 + 1.0) / 12.0, 1e-3 * m));

    /* Dropped 0.1 m onto the floor it stands on its cap: centre at 1 + h. */
    for (int i = 0; i < 120; ++i)
        CALL(m3World_Step(w, 1.0f / 60.0f, 4));
    m3DVec3 p;
    CALL(m3Body_GetPosition(can, &p));
    CHECK(near(p.y, 1.5, 0.01) && near(p.x, -3.0, 1e-3) && near(p.z, 0.0, 1e-3));

    /* A cylinder as a query shape: one sunk in the floor overlaps it; a plane is no query
     * shape. */
    m3QueryShape probe;
    memset(&probe, 0, sizeof probe);
    probe.type = m3_cylinderShape;
    probe.cylinder = standing;
    m3ShapeId found[8];
    int32_t n = 0;
    CALL(m3World_OverlapShape(w, &probe, (m3DVec3){20.0, 1.4, 0.0}, identity, qf, found, 8, &n));
    CHECK(n == 1 && found[0].index == floorShape.index);
    CALL(m3World_OverlapShape(w, &probe, (m3DVec3){20.0, 1.6, 0.0}, identity, qf, found, 8, &n));
    CHECK(n == 0);
    probe.type = m3_planeShape;
    CHECK(m3World_OverlapShape(w, &probe, (m3DVec3){20.0, 1.4, 0.0}, identity, qf, found, 8,
                               &n) == m3_errorArgument);

    /* Debug draw hands both over with their geometry. */
    m3DebugDraw dd = m3DefaultDebugDraw();
    dd.shapeFcn = draw_shape;
    drawn_shapes = 0;
    CALL(m3World_Draw(w, &dd));
    CHECK(drawn_shapes == 3 && drawn_cylinders == 2 && drawn_planes == 1);

    /* Refusals change nothing: a plane on a dynamic body (a state error: it needs a
     * static one), a static body holding a plane turned dynamic, a cylinder of radius
     * 0 (an argument error). */
    const uint64_t h = m3World_Hash(w);
    m3ShapeId refused;
    CHECK(m3CreatePlaneShape(can, &plain, &floorPlane, &refused) == m3_errorState);
    CHECK(m3World_Hash(w) == h);
    CHECK(m3Body_SetType(fixed, m3_dynamicBody) == m3_errorState);
    CHECK(m3World_Hash(w) == h);
    m3Cylinder flat = standing;
    flat.radius = 0.0f;
    CHECK(m3CreateCylinderShape(can, &plain, &flat, &refused) == m3_errorArgument);
    CHECK(m3World_Hash(w) == h);
    CALL(m3World_Destroy(w));
}

/* Ray shapes (Godot's SeparationRayShape3D), in a world of their own: a box with a
 * downward ray of length 1 from its bottom face rests 1 m above a plane floor; the
 * getters; a zero direction is refused and changes nothing; queries do not see rays. */
static void ray_shapes(void)
{
    m3WorldDef def = m3DefaultWorldDef();
    def.bodyCapacity = 8;
    def.shapeCapacity = 8;
    CALL(m3World_Create(&def, &w));
    m3ShapeDef plain = m3DefaultShapeDef();
    m3BodyId fixed = body(m3_staticBody, 0.0, 0.0, 0.0);
    m3Plane floorPlane = {{0.0f, 1.0f, 0.0f}, 0.0f};
    m3ShapeId floorShape;
    CALL(m3CreatePlaneShape(fixed, &plain, &floorPlane, &floorShape));
    m3BodyId crate = body(m3_dynamicBody, 0.0, 3.0, 0.0);
    m3Box half = {{0.5f, 0.5f, 0.5f}, {0.0f, 0.0f, 0.0f}, {0.0f, 0.0f, 0.0f, 1.0f}};
    m3ShapeId boxShape, rayShape;
    CALL(m3CreateBoxShape(crate, &plain, &half, &boxShape));
    /* A non-unit direction is normalised. */
    m3Ray down = {{0.0f, -0.5f, 0.0f}, {0.0f, -3.0f, 0.0f}, 1.0f, false};
    CALL(m3CreateRayShape(crate, &plain, &down, &rayShape));
    int st = -1;
    CALL(m3Shape_GetType(rayShape, &st));
    CHECK(st == m3_rayShape);
    m3Ray got;
    CALL(m3Shape_GetRay(rayShape, &got));
    CHECK(got.direction.y == -1.0f && got.length == 1.0f && !got.slideOnSlope);
    CHECK(m3Shape_GetRay(boxShape, &got) == m3_errorArgument);
    for (int i = 0; i < 240; ++i) {
        CALL(m3World_Step(w, 1.0f / 60.0f, 4));
    }
    m3DVec3 p;
    CALL(m3Body_GetPosition(crate, &p));
    CHECK(near(p.y, 1.5, 0.01));
    /* A ray across the segment below the box meets the floor only. */
    m3RayResult hit;
    CALL(m3World_CastRayClosest(w, (m3DVec3){-1.0, 0.5, 0.0}, (m3Vec3){2.0f, 0.0f, 0.0f},
                                m3DefaultQueryFilter(), &hit));
    CHECK(!hit.hit);
    uint64_t h = m3World_Hash(w);
    m3Ray flat = down;
    flat.direction.y = 0.0f;
    m3ShapeId refused;
    CHECK(m3CreateRayShape(crate, &plain, &flat, &refused) == m3_errorArgument);
    CHECK(m3World_Hash(w) == h);
    CALL(m3World_Destroy(w));
}

/* Meshes and height fields, in a world of their own with a content budget of 200 bytes:
 * a flat two-triangle floor y = 1 (10 × 10 m, content 12·4 + 17·2 + 32·1 = 114 bytes),
 * a 3 × 3-sample height field sloping up along x with a hole in its last cell (4·9 + 2·4
 * + 1 = 45 bytes), and a ball. */
static void meshes_and_height_fields(void)
{
    m3WorldDef def = m3DefaultWorldDef();
    CHECK(def.meshCapacity == 16 && def.contentCapacity == 64 << 20);
    def.bodyCapacity = 8;
    def.shapeCapacity = 8;
    def.contentCapacity = 200;
    CALL(m3World_Create(&def, &w));
    m3ShapeDef plain = m3DefaultShapeDef();
    m3QueryFilter qf = m3DefaultQueryFilter();
    m3MemoryUsage before, after;
    CALL(m3World_GetMemoryUsage(w, &before));
    CHECK(before.contentBytes == 0);

    const m3Vec3 corners[4] = {
        {-5.0f, 0.0f, -5.0f}, {5.0f, 0.0f, -5.0f}, {5.0f, 0.0f, 5.0f}, {-5.0f, 0.0f, 5.0f}};
    const uint32_t quad[6] = {0, 2, 1, 0, 3, 2};
    m3MeshId floorMesh;
    CALL(m3World_CreateMesh(w, corners, 4, quad, 2, &floorMesh));
    CALL(m3World_GetMemoryUsage(w, &after));
    CHECK(after.contentBytes == 114 && after.totalBytes == before.totalBytes + 114);
    int32_t n = 0;
    CALL(m3Mesh_GetTriangleCount(floorMesh, &n));
    CHECK(n == 2);
    m3BodyId floorBody = body(m3_staticBody, 0.0, 1.0, 0.0);
    m3ShapeId floorShape;
    CALL(m3CreateMeshShape(floorBody, &plain, floorMesh, &floorShape));
    int st = -1;
    CALL(m3Shape_GetType(floorShape, &st));
    CHECK(st == m3_meshShape);
    m3MeshId got;
    CALL(m3Shape_GetMesh(floorShape, &got));
    CHECK(got.index == floorMesh.index && got.generation == floorMesh.generation &&
          got.world.index == w.index);
    m3Sphere notSphere;
    CHECK(m3Shape_GetSphere(floorShape, &notSphere) == m3_errorArgument);

    /* A ray down from y = 5 over 8 m meets the floor at y = 1: fraction 0.5, normal +y. */
    m3RayResult ray;
    CALL(m3World_CastRayClosest(w, (m3DVec3){1.0, 5.0, 0.5}, (m3Vec3){0.0f, -8.0f, 0.0f}, qf,
                                &ray));
    CHECK(ray.hit && ray.shape.index == floorShape.index && near(ray.fraction, 0.5, 1e-6));
    CHECK(near(ray.point.y, 1.0, 1e-6) && ray.normal.x == 0.0f && ray.normal.y == 1.0f &&
          ray.normal.z == 0.0f);

    /* Samples 2 m apart, heights 0.5·x: the surface is y = 0.25·x (local), a plane of
     * normal (−0.25, 1, 0)/√1.0625; cell (1, 1) is a hole. Placed at (10, 0, 0). */
    const float heights[9] = {0.0f, 0.5f, 1.0f, 0.0f, 0.5f, 1.0f, 0.0f, 0.5f, 1.0f};
    const bool holes[4] = {false, false, false, true};
    m3HeightFieldDef hd = m3DefaultHeightFieldDef();
    CHECK(hd.scale.x == 1.0f && hd.holes == NULL && hd.holeCount == 0);
    hd.countX = 3;
    hd.countZ = 3;
    hd.heights = heights;
    hd.heightCount = 9;
    hd.holes = holes;
    hd.holeCount = 4;
    hd.scale = (m3Vec3){2.0f, 1.0f, 2.0f};
    m3MeshId field;
    CALL(m3World_CreateHeightField(w, &hd, &field));
    CALL(m3World_GetMemoryUsage(w, &before));
    CHECK(before.contentBytes == 114 + 45 && before.totalBytes == after.totalBytes + 45);
    CALL(m3Mesh_GetTriangleCount(field, &n));
    CHECK(n == 8);
    m3BodyId fieldBody = body(m3_staticBody, 10.0, 0.0, 0.0);
    m3ShapeId fieldShape;
    CALL(m3CreateMeshShape(fieldBody, &plain, field, &fieldShape));
    /* Down from y = 5 over 10 m at local (1.2, 1.4): the surface at y = 0.3, fraction 0.47. */
    CALL(m3World_CastRayClosest(w, (m3DVec3){11.2, 5.0, 1.4}, (m3Vec3){0.0f, -10.0f, 0.0f}, qf,
                                &ray));
    const double len = sqrt(1.0625);
    CHECK(ray.hit && ray.shape.index == fieldShape.index && near(ray.fraction, 0.47, 1e-6));
    CHECK(near(ray.point.y, 0.3, 1e-5) && near(ray.normal.x, -0.25 / len, 1e-6) &&
          near(ray.normal.y, 1.0 / len, 1e-6) && near(ray.normal.z, 0.0, 1e-6));
    /* Through the hole, nothing. */
    CALL(m3World_CastRayClosest(w, (m3DVec3){13.0, 5.0, 3.0}, (m3Vec3){0.0f, -10.0f, 0.0f}, qf,
                                &ray));
    CHECK(!ray.hit);

    m3MeshId ids[4];
    CALL(m3World_GetMeshIds(w, ids, 4, &n));
    CHECK(n == 2 && ids[0].index == floorMesh.index && ids[1].index == field.index);
    m3Counters c;
    CALL(m3World_GetCounters(w, &c));
    CHECK(c.meshCount == 2);

    /* A ball dropped on the floor rests on it: centre at 1 + r. */
    m3BodyId dropped = body(m3_dynamicBody, 0.0, 3.0, 0.0);
    ball(dropped, 0.5f);
    for (int i = 0; i < 120; ++i)
        CALL(m3World_Step(w, 1.0f / 60.0f, 4));
    m3DVec3 p;
    CALL(m3Body_GetPosition(dropped, &p));
    CHECK(near(p.y, 1.5, 0.02) && near(p.x, 0.0, 1e-3));

    /* Debug draw: each triangle on its own call: 2 of the floor (100 m²), 6 of the field
     * (3 cells of 2 × 2 m seen from above). */
    m3DebugDraw dd = m3DefaultDebugDraw();
    dd.shapeFcn = draw_shape;
    drawn_shapes = drawn_triangles = 0;
    drawn_area = 0.0f;
    CALL(m3World_Draw(w, &dd));
    CHECK(drawn_triangles == 8 && drawn_shapes == 9 && near(drawn_area, 112.0, 1e-4));

    /* Refusals change nothing. */
    const uint64_t h = m3World_Hash(w);
    m3MeshId refused;
    m3ShapeId refusedShape;
    m3Vec3 bad[4] = {corners[0], corners[1], corners[2], corners[3]};
    bad[2].y = NAN;
    CHECK(m3World_CreateMesh(w, bad, 4, quad, 2, &refused) == m3_errorArgument);
    const uint32_t far[6] = {0, 2, 1, 0, 4, 2};
    CHECK(m3World_CreateMesh(w, corners, 4, far, 2, &refused) == m3_errorArgument);
    const uint32_t flat[3] = {0, 1, 1};
    CHECK(m3World_CreateMesh(w, corners, 4, flat, 1, &refused) == m3_errorArgument);
    CHECK(m3World_CreateMesh(w, corners, -4, quad, 2, &refused) == m3_errorArgument);
    CHECK(m3World_CreateMesh(w, NULL, 4, quad, 2, &refused) == m3_errorArgument);
    CHECK(m3World_CreateMesh(w, corners, 4, quad, 2, NULL) == m3_errorArgument);
    hd.heightCount = 8;
    CHECK(m3World_CreateHeightField(w, &hd, &refused) == m3_errorArgument);
    hd.heightCount = 9;
    CHECK(m3CreateMeshShape(dropped, &plain, floorMesh, &refusedShape) == m3_errorArgument);
    m3ShapeDef sensor = plain;
    sensor.isSensor = true;
    CHECK(m3CreateMeshShape(floorBody, &sensor, floorMesh, &refusedShape) == m3_errorState);
    CHECK(m3Body_SetType(floorBody, m3_dynamicBody) == m3_errorArgument);
    /* 114 more bytes do not fit in the 41 left. */
    CHECK(m3World_CreateMesh(w, corners, 4, quad, 2, &refused) == m3_errorCapacity);
    CHECK(m3World_DestroyMesh(floorMesh) == m3_errorState);
    CHECK(m3World_Hash(w) == h);
    CALL(m3World_GetMemoryUsage(w, &after));
    CHECK(after.contentBytes == 159);

    /* Destroyed, the floor's bytes come back and its id goes stale. */
    CALL(m3Shape_Destroy(floorShape));
    CALL(m3World_DestroyMesh(floorMesh));
    CALL(m3World_GetMemoryUsage(w, &after));
    CHECK(after.contentBytes == 45);
    CHECK(m3Mesh_GetTriangleCount(floorMesh, &n) == m3_errorInvalidId);
    CHECK(m3World_DestroyMesh(floorMesh) == m3_errorInvalidId);
    CALL(m3World_Destroy(w));
}

/* A voxel floor: a box rests on it, a hole dug under it between steps lets it fall, and
   bad grids and edits are refused with the hash unchanged. */
static void voxels(void)
{
    m3WorldDef def = m3DefaultWorldDef();
    def.bodyCapacity = 8;
    def.shapeCapacity = 8;
    CALL(m3World_Create(&def, &w));
    m3ShapeDef plain = m3DefaultShapeDef();
    static uint8_t data[4096];
    for (int i = 0; i < 4096; ++i) {
        data[i] = (uint8_t)(((i / 16) % 16) < 2 ? 1 : 0); /* two layers: top at y = 1 */
    }
    m3VoxelGridId grid;
    m3Vec3 origin = {-4.0f, 0.0f, -4.0f};
    CALL(m3World_CreateVoxelGrid(w, 0.5f, origin, data, 4096, &grid));
    m3VoxelGridId refusedGrid;
    uint64_t h = m3World_Hash(w);
    CHECK(m3World_CreateVoxelGrid(w, 0.5f, origin, data, 100, &refusedGrid) == m3_errorArgument);
    CHECK(m3World_CreateVoxelGrid(w, 0.0f, origin, data, 4096, &refusedGrid) == m3_errorArgument);
    CHECK(m3World_Hash(w) == h);
    m3BodyId fixed = body(m3_staticBody, 0.0, 0.0, 0.0);
    m3ShapeId floorShape;
    CALL(m3CreateVoxelShape(fixed, &plain, grid, &floorShape));
    int st = -1;
    CALL(m3Shape_GetType(floorShape, &st));
    CHECK(st == m3_meshShape);
    /* The shape gives its grid back (a mesh id names the same slot). */
    m3VoxelGridId gridBack;
    CALL(m3Shape_GetVoxelGrid(floorShape, &gridBack));
    CHECK(gridBack.index == grid.index && gridBack.generation == grid.generation &&
          gridBack.world.index == grid.world.index);
    m3MeshId asMesh;
    CALL(m3Shape_GetMesh(floorShape, &asMesh));
    CHECK(asMesh.index == grid.index);
    m3BodyId box = body(m3_dynamicBody, 0.1, 1.6, 0.1);
    m3ShapeId boxShape;
    m3Box half = m3MakeBox(0.25f, 0.25f, 0.25f);
    CALL(m3CreateBoxShape(box, &plain, &half, &boxShape));
    CHECK(m3Shape_GetVoxelGrid(boxShape, &gridBack) == m3_errorArgument);
    m3ShapeId refused;
    CHECK(m3CreateVoxelShape(box, &plain, grid, &refused) == m3_errorArgument);
    for (int i = 0; i < 90; ++i) {
        CALL(m3World_Step(w, 1.0f / 60.0f, 4));
    }
    m3DVec3 p;
    CALL(m3Body_GetPosition(box, &p));
    CHECK(near(p.y, 1.25, 0.01));
    h = m3World_Hash(w);
    CHECK(m3VoxelGrid_SetVoxel(grid, 16, 0, 0, 1) == m3_errorArgument);
    CHECK(m3VoxelGrid_FillVoxels(grid, 4, 0, 4, 3, 1, 11, 0) == m3_errorArgument);
    CHECK(m3World_Hash(w) == h);
    /* Voxels 6..9 on x and z span [-1, 1): dig both layers out under the box. */
    CALL(m3VoxelGrid_FillVoxels(grid, 6, 0, 6, 9, 1, 9, 0));
    CALL(m3VoxelGrid_ClearVoxel(grid, 0, 0, 0));
    CALL(m3VoxelGrid_SetVoxel(grid, 15, 2, 15, 3));
    uint8_t m = 9;
    CALL(m3VoxelGrid_GetVoxel(grid, 7, 1, 7, &m));
    CHECK(m == 0);
    CALL(m3VoxelGrid_GetVoxel(grid, 15, 2, 15, &m));
    CHECK(m == 3);
    for (int i = 0; i < 60; ++i) {
        CALL(m3World_Step(w, 1.0f / 60.0f, 4));
    }
    CALL(m3Body_GetPosition(box, &p));
    CHECK(p.y < -1.0);
    CHECK(m3VoxelGrid_Destroy(grid) == m3_errorState);
    CALL(m3World_Destroy(w));
}

/* A body's shapes and the world's bodies, as a host walks them. */
static int same_shape(m3ShapeId a, m3ShapeId b)
{
    return a.index == b.index && a.generation == b.generation && a.world.index == b.world.index &&
           a.world.generation == b.world.generation;
}

/* Two contact data records are the same field by field (the structs have padding, whose
 * bytes are unspecified, so no memcmp of whole records). */
static int same_contact(const m3ContactData *a, const m3ContactData *b)
{
    const m3ContactManifold *ma = &a->manifold, *mb = &b->manifold;
    if (!same_shape(a->shapeA, b->shapeA) || !same_shape(a->shapeB, b->shapeB) || a->child != b->child ||
        ma->pointCount != mb->pointCount || memcmp(&ma->normal, &mb->normal, sizeof ma->normal) != 0 ||
        memcmp(&ma->rollingImpulse, &mb->rollingImpulse, sizeof ma->rollingImpulse) != 0)
        return 0;
    for (int i = 0; i < ma->pointCount && i < 4; ++i) {
        /* Every field up to and including `id`: no padding among them. */
        size_t used = offsetof(m3ContactManifoldPoint, id) + sizeof(uint32_t);
        if (memcmp(&ma->points[i], &mb->points[i], used) != 0)
            return 0;
    }
    return 1;
}

static void shape_and_body_lists(void)
{
    m3WorldDef def = m3DefaultWorldDef();
    def.bodyCapacity = 8;
    def.shapeCapacity = 8;
    CALL(m3World_Create(&def, &w));
    m3ShapeDef plain = m3DefaultShapeDef();
    m3BodyId a = body(m3_dynamicBody, 0.0, 1.0, 0.0);
    m3BodyId b = body(m3_staticBody, 5.0, 0.0, 0.0);
    m3BodyId c = body(m3_dynamicBody, 9.0, 1.0, 0.0);
    m3ShapeId s[3];
    m3Sphere sp = {{0.0f, 0.0f, 0.0f}, 0.5f};
    m3Box bx = m3MakeBox(0.5f, 0.25f, 0.5f);
    m3Capsule cp = {{0.0f, -0.5f, 0.0f}, {0.0f, 0.5f, 0.0f}, 0.25f};
    CALL(m3CreateSphereShape(a, &plain, &sp, &s[0]));
    CALL(m3CreateBoxShape(a, &plain, &bx, &s[1]));
    CALL(m3CreateCapsuleShape(a, &plain, &cp, &s[2]));
    m3ShapeId got[4];
    int32_t n = -1;
    /* Count only, then fill: in shape slot order, the order they were made in. */
    CALL(m3Body_GetShapes(a, NULL, 0, &n));
    CHECK(n == 3);
    CALL(m3Body_GetShapes(a, got, 4, &n));
    CHECK(n == 3 && same_shape(got[0], s[0]) && same_shape(got[1], s[1]) &&
          same_shape(got[2], s[2]));
    /* A short array gets the first ones and the full count. */
    memset(got, 0, sizeof got);
    CALL(m3Body_GetShapes(a, got, 1, &n));
    CHECK(n == 3 && same_shape(got[0], s[0]) && got[1].index == 0);
    CALL(m3Shape_Destroy(s[1]));
    CALL(m3Body_GetShapes(a, got, 4, &n));
    CHECK(n == 2 && same_shape(got[0], s[0]) && same_shape(got[1], s[2]));
    CALL(m3Body_GetShapes(b, got, 4, &n));
    CHECK(n == 0);
    CHECK(m3Body_GetShapes(a, NULL, 2, &n) == m3_errorArgument);
    CHECK(m3Body_GetShapes(a, got, -1, &n) == m3_errorArgument);
    m3BodyId null_body;
    memset(&null_body, 0, sizeof null_body);
    CHECK(m3Body_GetShapes(null_body, got, 4, &n) == m3_errorInvalidId);
    /* The live bodies: count, then fill; a destroyed one drops out. */
    m3BodyId ids[4];
    CALL(m3World_GetBodyIds(w, NULL, 0, &n));
    CHECK(n == 3);
    CALL(m3Body_Destroy(b));
    CALL(m3World_GetBodyIds(w, ids, 4, &n));
    CHECK(n == 2 && ids[0].index == a.index && ids[1].index == c.index);
    CHECK(m3Body_GetShapes(b, got, 4, &n) == m3_errorInvalidId);
    CALL(m3World_Destroy(w));
}

/* Per-body contact data: a box resting on the ground reports one contact of four points
 * whose normal impulses carry one substep's weight (m g dt / substeps); a ball on a mesh
 * reports the triangle under it as the contact's child; the shape variant; short arrays
 * and refusals; reading changes no hash. */
static void contact_data(void)
{
    m3WorldDef def = m3DefaultWorldDef();
    def.bodyCapacity = 8;
    def.shapeCapacity = 8;
    CALL(m3World_Create(&def, &w));
    m3ShapeDef plain = m3DefaultShapeDef();
    m3BodyId ground = body(m3_staticBody, 0.0, -0.5, 0.0);
    m3Box gb = m3MakeBox(3.0f, 0.5f, 3.0f);
    m3ShapeId groundShape;
    CALL(m3CreateBoxShape(ground, &plain, &gb, &groundShape));
    m3BodyId crate = body(m3_dynamicBody, 0.0, 0.6, 0.0);
    m3Box cb = m3MakeBox(0.5f, 0.5f, 0.5f);
    m3ShapeId crateShape;
    CALL(m3CreateBoxShape(crate, &plain, &cb, &crateShape));
    /* A ball on a quad mesh (triangle 0: z < x, triangle 1: z > x) at x = 10. */
    const m3Vec3 corners[4] = {
        {8.0f, 0.0f, -2.0f}, {12.0f, 0.0f, -2.0f}, {12.0f, 0.0f, 2.0f}, {8.0f, 0.0f, 2.0f}};
    const uint32_t quad[6] = {0, 2, 1, 0, 3, 2};
    m3MeshId mesh;
    CALL(m3World_CreateMesh(w, corners, 4, quad, 2, &mesh));
    m3BodyId floor = body(m3_staticBody, 0.0, 0.0, 0.0);
    m3ShapeId floorShape;
    CALL(m3CreateMeshShape(floor, &plain, mesh, &floorShape));
    m3BodyId marble = body(m3_dynamicBody, 9.0, 0.5, 1.0);
    m3ShapeId marbleShape = ball(marble, 0.3f);
    const int substeps = 4;
    const float dt = 1.0f / 60.0f;
    for (int i = 0; i < 120; ++i) {
        CALL(m3World_Step(w, dt, substeps));
    }
    m3Vec3 g;
    CALL(m3World_GetGravity(w, &g));

    int32_t cap = -1, n = -1;
    CALL(m3Body_GetContactCapacity(crate, &cap));
    CHECK(cap == 1);
    m3ContactData cd[4];
    memset(cd, 0, sizeof cd);
    CALL(m3Body_GetContactData(crate, cd, 4, &n));
    CHECK(n == 1 && same_shape(cd[0].shapeA, groundShape) && same_shape(cd[0].shapeB, crateShape));
    CHECK(cd[0].child == M3_NO_CHILD && cd[0].manifold.pointCount == 4);
    CHECK(near(cd[0].manifold.normal.y, 1.0, 1e-4));
    m3MassData md;
    CALL(m3Body_GetMassData(crate, &md));
    double weight = md.mass * -g.y * dt / substeps, sum = 0.0;
    for (int i = 0; i < 4; ++i) {
        const m3ContactManifoldPoint *p = &cd[0].manifold.points[i];
        sum += p->normalImpulse;
        CHECK(fabs(p->separation) < 0.005f && near(p->point.y, 0.0, 0.005));
        CHECK(near(fabs(p->point.x), 0.5, 0.005) && near(fabs(p->point.z), 0.5, 0.005));
    }
    CHECK(near(sum, weight, 0.01 * weight));
    /* The shape variant gives the same; the ground's shape has the crate's contact. */
    m3ContactData one;
    CALL(m3Shape_GetContactCapacity(crateShape, &cap));
    CHECK(cap == 1);
    CALL(m3Shape_GetContactData(crateShape, &one, 1, &n));
    CHECK(n == 1 && same_contact(&one, &cd[0]));
    CALL(m3Shape_GetContactData(groundShape, &one, 1, &n));
    CHECK(n == 1 && same_contact(&one, &cd[0]));

    /* The world's contacts: the crate's and the marble's, once each, in slot order. */
    m3ContactData all[4];
    CALL(m3World_GetContactCapacity(w, &cap));
    CHECK(cap >= 2);
    CALL(m3World_GetContactData(w, all, 4, &n));
    CHECK(n == 2 && same_shape(all[0].shapeA, groundShape) && same_shape(all[0].shapeB, crateShape));
    CHECK(all[0].manifold.pointCount == 4 && all[0].manifold.points[3].normalImpulse == cd[0].manifold.points[3].normalImpulse);
    CHECK(same_shape(all[1].shapeB, marbleShape) && all[1].child == 1);
    CHECK(m3World_GetContactData(w, NULL, 1, &n) == m3_errorArgument);
    CHECK(m3World_GetContactCapacity(w, NULL) == m3_errorArgument);

    /* The ball touches triangle 1 of the mesh, the mesh being shape A. */
    CALL(m3Body_GetContactData(marble, cd, 4, &n));
    CHECK(n == 1 && same_shape(cd[0].shapeA, floorShape) && same_shape(cd[0].shapeB, marbleShape));
    CHECK(cd[0].child == 1 && cd[0].manifold.pointCount == 1);
    CALL(m3Body_GetMassData(marble, &md));
    weight = md.mass * -g.y * dt / substeps;
    CHECK(near(cd[0].manifold.points[0].normalImpulse, weight, 0.01 * weight));

    /* Count only; refusals change nothing and write nothing. */
    uint64_t before = 0, after = 0;
    CALL(m3World_GetHash(w, &before));
    CALL(m3Body_GetContactData(crate, NULL, 0, &n));
    CHECK(n == 1);
    n = -7;
    CHECK(m3Body_GetContactData(crate, NULL, 2, &n) == m3_errorArgument && n == -7);
    CHECK(m3Body_GetContactData(crate, cd, -1, &n) == m3_errorArgument && n == -7);
    CHECK(m3Body_GetContactData(crate, cd, 4, NULL) == m3_errorArgument);
    CHECK(m3Body_GetContactCapacity(crate, NULL) == m3_errorArgument);
    CHECK(m3Shape_GetContactData(crateShape, NULL, 1, &n) == m3_errorArgument);
    CHECK(m3Shape_GetContactCapacity(crateShape, NULL) == m3_errorArgument);
    m3BodyId nullBody;
    m3ShapeId nullShape;
    memset(&nullBody, 0, sizeof nullBody);
    memset(&nullShape, 0, sizeof nullShape);
    CHECK(m3Body_GetContactData(nullBody, cd, 4, &n) == m3_errorInvalidId && n == -7);
    CHECK(m3Body_GetContactCapacity(nullBody, &cap) == m3_errorInvalidId);
    CHECK(m3Shape_GetContactData(nullShape, cd, 4, &n) == m3_errorInvalidId);
    CHECK(m3Shape_GetContactCapacity(nullShape, &cap) == m3_errorInvalidId);
    CALL(m3World_GetHash(w, &after));
    CHECK(before == after);
    CALL(m3Body_Destroy(marble));
    CHECK(m3Body_GetContactData(marble, cd, 4, &n) == m3_errorInvalidId);
    CHECK(m3Shape_GetContactData(marbleShape, cd, 4, &n) == m3_errorInvalidId);
    CALL(m3World_Destroy(w));
}

/* A box asleep on a kinematic platform: a velocity on the platform leaves it asleep,
 * m3Body_WakeTouching wakes it (Box2D's b2Body_WakeTouching); a stale id is refused. */
static void wake_touching(void)
{
    m3WorldDef def = m3DefaultWorldDef();
    def.bodyCapacity = 8;
    def.shapeCapacity = 8;
    def.enableSleep = true;
    CALL(m3World_Create(&def, &w));
    m3ShapeDef plain = m3DefaultShapeDef();
    m3BodyId platform = body(m3_kinematicBody, 0.0, -0.25, 0.0);
    m3Box pb = m3MakeBox(2.0f, 0.25f, 2.0f);
    m3ShapeId platformShape;
    CALL(m3CreateBoxShape(platform, &plain, &pb, &platformShape));
    m3BodyId crate = body(m3_dynamicBody, 0.0, 0.25, 0.0);
    m3Box cb = m3MakeBox(0.25f, 0.25f, 0.25f);
    m3ShapeId crateShape;
    CALL(m3CreateBoxShape(crate, &plain, &cb, &crateShape));
    bool awake = true;
    for (int i = 0; i < 600 && awake; ++i) {
        CALL(m3World_Step(w, 1.0f / 60.0f, 4));
        CALL(m3Body_IsAwake(crate, &awake));
    }
    CHECK(!awake);
    CALL(m3Body_SetLinearVelocity(platform, (m3Vec3){1.0f, 0.0f, 0.0f}));
    CALL(m3Body_IsAwake(crate, &awake));
    CHECK(!awake);
    CALL(m3Body_WakeTouching(platform));
    CALL(m3Body_IsAwake(crate, &awake));
    CHECK(awake);
    m3BodyId gone = body(m3_staticBody, 5.0, 0.0, 0.0);
    CALL(m3Body_Destroy(gone));
    CHECK(m3Body_WakeTouching(gone) == m3_errorInvalidId);
    CALL(m3World_Destroy(w));
}

/* Combine rules and rough/absorbent: a ball of bounce 0.5 on ground of bounce 0.2 comes back
 * at 0.5 of its speed by default (the larger), 0.7 with Godot's clamped sum and 0.3 when the
 * ground is absorbent; bad rules are refused and change nothing. */
static float rebound_speed(m3CombineRule restitution, bool absorbent)
{
    m3WorldDef def = m3DefaultWorldDef();
    def.bodyCapacity = 4;
    def.shapeCapacity = 4;
    CALL(m3World_Create(&def, &w));
    m3CombineRule f = -1, r = -1;
    CALL(m3World_GetCombineRules(w, &f, &r));
    CHECK(f == m3_combineGeometric && r == m3_combineMax);
    CHECK(m3World_SetCombineRules(w, 6, m3_combineMax) == m3_errorArgument);
    CHECK(m3World_SetCombineRules(w, m3_combineMin, -1) == m3_errorArgument);
    CALL(m3World_SetCombineRules(w, m3_combineMin, restitution));
    CALL(m3World_GetCombineRules(w, &f, &r));
    CHECK(f == m3_combineMin && r == restitution);
    m3ShapeDef ground = m3DefaultShapeDef();
    ground.restitution = 0.2f;
    m3BodyId floor = body(m3_staticBody, 0.0, -0.5, 0.0);
    m3Box fb = m3MakeBox(5.0f, 0.5f, 5.0f);
    m3ShapeId floorShape;
    CALL(m3CreateBoxShape(floor, &ground, &fb, &floorShape));
    bool flag = true;
    CALL(m3Shape_IsAbsorbent(floorShape, &flag));
    CHECK(!flag);
    CALL(m3Shape_SetAbsorbent(floorShape, absorbent));
    CALL(m3Shape_IsAbsorbent(floorShape, &flag));
    CHECK(flag == absorbent);
    CALL(m3Shape_IsRough(floorShape, &flag));
    CHECK(!flag);
    CALL(m3Shape_SetRough(floorShape, true));
    CALL(m3Shape_IsRough(floorShape, &flag));
    CHECK(flag);
    m3ShapeDef bouncy = m3DefaultShapeDef();
    bouncy.restitution = 0.5f;
    m3BodyId ball = body(m3_dynamicBody, 0.0, 3.0, 0.0);
    m3Sphere s = {{0.0f, 0.0f, 0.0f}, 0.5f};
    m3ShapeId ballShape;
    CALL(m3CreateSphereShape(ball, &bouncy, &s, &ballShape));
    float down = 0.0f, up = 0.0f;
    for (int i = 0; i < 120 && up <= 0.0f; ++i) {
        m3Vec3 v;
        CALL(m3Body_GetLinearVelocity(ball, &v));
        if (v.y < down)
            down = v.y;
        CALL(m3World_Step(w, 1.0f / 60.0f, 4));
        CALL(m3Body_GetLinearVelocity(ball, &v));
        if (v.y > 0.0f)
            up = v.y;
    }
    CALL(m3World_Destroy(w));
    return up / -down;
}

static void combine_rules(void)
{
    CHECK(near(rebound_speed(m3_combineMax, false), 0.5, 0.05));
    CHECK(near(rebound_speed(m3_combineClampedSum, false), 0.7, 0.05));
    CHECK(near(rebound_speed(m3_combineClampedSum, true), 0.3, 0.05));
}

/* A two-sided mesh: a box dropped onto the back face of a quad whose face points down
 * rests on it; one-sided, it is not held there. */
static double box_on_downward_quad(bool twoSided)
{
    m3WorldDef def = m3DefaultWorldDef();
    def.bodyCapacity = 4;
    def.shapeCapacity = 4;
    CALL(m3World_Create(&def, &w));
    const m3Vec3 corners[4] = {
        {-2.0f, 0.0f, -2.0f}, {2.0f, 0.0f, -2.0f}, {2.0f, 0.0f, 2.0f}, {-2.0f, 0.0f, 2.0f}};
    const uint32_t quad[6] = {0, 1, 2, 0, 2, 3};
    m3MeshId mesh;
    CALL(m3World_CreateMesh(w, corners, 4, quad, 2, &mesh));
    m3ShapeDef plain = m3DefaultShapeDef();
    m3BodyId floor = body(m3_staticBody, 0.0, 0.0, 0.0);
    m3ShapeId floorShape;
    CALL(m3CreateMeshShape(floor, &plain, mesh, &floorShape));
    bool flag = true;
    CALL(m3Shape_IsTwoSided(floorShape, &flag));
    CHECK(!flag);
    CHECK(m3Shape_IsTwoSided(floorShape, NULL) == m3_errorArgument);
    CALL(m3Shape_SetTwoSided(floorShape, twoSided));
    CALL(m3Shape_IsTwoSided(floorShape, &flag));
    CHECK(flag == twoSided);
    m3BodyId crate = body(m3_dynamicBody, 0.1, 1.0, 0.05);
    m3Box cb = m3MakeBox(0.25f, 0.25f, 0.25f);
    m3ShapeId crateShape;
    CALL(m3CreateBoxShape(crate, &plain, &cb, &crateShape));
    for (int i = 0; i < 180; ++i)
        CALL(m3World_Step(w, 1.0f / 60.0f, 4));
    m3DVec3 p;
    CALL(m3Body_GetPosition(crate, &p));
    CALL(m3World_Destroy(w));
    return p.y;
}

static void two_sided_meshes(void)
{
    CHECK(near(box_on_downward_quad(true), 0.25, 0.02));
    CHECK(!near(box_on_downward_quad(false), 0.25, 0.05));
}

/* Calls that change nothing are still on a journal's tape: one record each. */
static void journal_records_calls_that_change_nothing(void)
{
    m3WorldDef def = m3DefaultWorldDef();
    CALL(m3World_Create(&def, &w));
    m3BodyId fixed = body(m3_staticBody, 0.0, 0.0, 0.0);
    m3BodyId moving = body(m3_dynamicBody, 0.0, 3.0, 0.0);
    ball(moving, 0.5f);
    const uint64_t h = m3World_Hash(w);
    static uint8_t tape[4096];
    CALL(m3World_StartJournal(w, tape, sizeof tape));
    CALL(m3Body_SetType(moving, m3_dynamicBody));
    CALL(m3Body_SetType(fixed, m3_staticBody));
    CALL(m3Body_SetEnabled(moving, true));
    CALL(m3Body_ApplyForceToCenter(fixed, (m3Vec3){0.0f, 10.0f, 0.0f}));
    CALL(m3Body_ApplyLinearImpulseToCenter(fixed, (m3Vec3){0.0f, 10.0f, 0.0f}));
    CALL(m3Body_SetLinearVelocity(fixed, (m3Vec3){1.0f, 0.0f, 0.0f}));
    int64_t len = 0;
    CALL(m3World_StopJournal(w, &len));
    m3JournalInfo info;
    CALL(m3DescribeJournal(tape, len, &info));
    CHECK(info.records == 6 && info.steps == 0);
    CHECK(m3World_Hash(w) == h);
    CALL(m3World_Destroy(w));
}

#if defined(__x86_64__) || defined(__i386__)
/* What the pre-solve callback finds: the x87 control word and MXCSR, every call. */
typedef struct {
    int calls;
    int wrong;
    unsigned short x87;
    unsigned mxcsr;
} FpSeen;

static unsigned short x87_control(void)
{
    unsigned short cw;
    __asm__ volatile("fnstcw %0" : "=m"(cw));
    return cw;
}

static void set_x87_control(unsigned short cw) { __asm__ volatile("fldcw %0" : : "m"(cw)); }

/* The control bits only: MXCSR's low six bits are sticky exception flags. */
#define MXCSR_CONTROL 0xFFC0u
/* The x87 control word's exception masks, precision and rounding control. */
#define X87_CONTROL 0x0F3Fu

static bool fp_pre_solve(const m3PreSolveContact *contact, void *context)
{
    (void)contact;
    FpSeen *seen = (FpSeen *)context;
    seen->calls++;
    seen->x87 = x87_control();
    seen->mxcsr = _mm_getcsr();
    /* The library's setting: round to nearest, all masked, 64-bit precision; no FTZ/DAZ. */
    if ((seen->x87 & X87_CONTROL) != 0x033Fu || (seen->mxcsr & MXCSR_CONTROL) != 0x1F80u)
        seen->wrong++;
    return true;
}

static void pre_solve_runs_in_the_library_fp_setting(void)
{
    m3WorldDef def = m3DefaultWorldDef();
    FpSeen seen = {0, 0, 0, 0};
    def.preSolveFcn = fp_pre_solve;
    def.preSolveContext = &seen;
    CALL(m3World_Create(&def, &w));
    m3ShapeDef pre = m3DefaultShapeDef();
    pre.enablePreSolve = true;
    m3BodyId floor_body = body(m3_staticBody, 0.0, -0.5, 0.0);
    m3Box fb = m3MakeBox(5.0f, 0.5f, 5.0f);
    m3ShapeId s;
    CALL(m3CreateBoxShape(floor_body, &pre, &fb, &s));
    m3BodyId b = body(m3_dynamicBody, 0.0, 0.49, 0.0);
    m3Sphere sp = {{0.0f, 0.0f, 0.0f}, 0.5f};
    CALL(m3CreateSphereShape(b, &pre, &sp, &s));
    /* The host rounds upward in both units, the x87 at 24-bit precision, and flushes
     * subnormals in SSE. */
    const unsigned short host_x87 = (unsigned short)((x87_control() & ~0x0F00u) | 0x0800u);
    const unsigned host_mxcsr = (_mm_getcsr() & ~0x6000u) | 0x4000u | M3T_FTZ_DAZ;
    const unsigned short saved_x87 = x87_control();
    const unsigned saved_mxcsr = _mm_getcsr();
    set_x87_control(host_x87);
    _mm_setcsr(host_mxcsr);
    m3Result r = m3World_Step(w, 1.0f / 60.0f, 4);
    if (r == m3_success)
        r = m3World_Step(w, 1.0f / 60.0f, 4);
    const unsigned short after_x87 = x87_control();
    const unsigned after_mxcsr = _mm_getcsr();
    set_x87_control(saved_x87);
    _mm_setcsr(saved_mxcsr);
    CHECK(r == m3_success);
    if (seen.calls == 0 || seen.wrong != 0) {
        fprintf(stderr, "pre-solve saw x87 %04x, MXCSR %08x (%d of %d calls wrong)\n", seen.x87,
                seen.mxcsr, seen.wrong, seen.calls);
        exit(1);
    }
    CHECK((after_x87 & X87_CONTROL) == (host_x87 & X87_CONTROL));
    CHECK((after_mxcsr & MXCSR_CONTROL) == (host_mxcsr & MXCSR_CONTROL));
    CALL(m3World_Destroy(w));
}
#endif

/* Task hooks that count: a stage reaches them only past its minRange. */
typedef struct {
    int calls;
    int small;
} TaskCount;

static void *count_enqueue(m3TaskCallback task, uint32_t itemCount, uint32_t minRange,
                           void *taskContext, void *userContext)
{
    TaskCount *t = (TaskCount *)userContext;
    t->calls++;
    if (itemCount <= minRange)
        t->small++;
    task(0, itemCount, 0, taskContext);
    return NULL;
}

static void count_finish(void *userTask, void *userContext)
{
    (void)userTask;
    (void)userContext;
}

static void small_worlds_never_call_the_task_hooks(void)
{
    TaskCount t = {0, 0};
    m3WorldDef def = m3DefaultWorldDef();
    def.enqueueTask = count_enqueue;
    def.finishTask = count_finish;
    def.userTaskContext = &t;
    def.workerCount = 2;
    def.bodyCapacity = 256;
    def.shapeCapacity = 256;
    CALL(m3World_Create(&def, &w));
    m3BodyId g = body(m3_staticBody, 0.0, -0.5, 0.0);
    m3Box gb = m3MakeBox(30.0f, 0.5f, 30.0f);
    m3ShapeId s;
    CALL(m3CreateBoxShape(g, &sd, &gb, &s));
    /* Twelve balls on the ground: 12 bodies, 12 contacts. */
    for (int i = 0; i < 12; ++i)
        ball(body(m3_dynamicBody, 2.0 * (double)(i % 4) - 3.0, 0.6, 2.0 * (double)(i / 4)), 0.5f);
    for (int i = 0; i < 30; ++i)
        CALL(m3World_Step(w, 1.0f / 60.0f, 4));
    CHECK(t.calls == 0);
    /* Two hundred more, in the air: now the stages are worth splitting. */
    for (int i = 0; i < 200; ++i)
        ball(body(m3_dynamicBody, 1.5 * (double)(i % 20) - 15.0, 3.0 + 1.5 * (double)(i / 20),
                  5.0),
             0.5f);
    CALL(m3World_Step(w, 1.0f / 60.0f, 4));
    CHECK(t.calls > 0 && t.small == 0);
    CALL(m3World_Destroy(w));
}

/* The counters of issue 12: speed caps, time-of-impact work; and the coordinate-edge refusal
 * naming the body, after which the world steps again once the body is gone. */
static void trust_counters_and_the_coordinate_edge(void)
{
    m3WorldDef def = m3DefaultWorldDef();
    def.bodyCapacity = 8;
    def.shapeCapacity = 8;
    def.maxLinearSpeed = 2.0f;
    CALL(m3World_Create(&def, &w));
    m3ShapeDef plain = m3DefaultShapeDef();
    sd = plain;
    m3BodyId ground = body(m3_staticBody, 0.0, -0.5, 0.0);
    m3Box gb = {{20.0f, 0.5f, 20.0f}, {0.0f, 0.0f, 0.0f}, {0.0f, 0.0f, 0.0f, 1.0f}};
    m3ShapeId gs;
    CALL(m3CreateBoxShape(ground, &plain, &gb, &gs));
    /* Falling from 10 m reaches the 2 m/s cap in a fifth of a second: the cap acts, and the
     * speed never passes it. */
    m3BodyId faller = body(m3_dynamicBody, 0.0, 10.0, 0.0);
    ball(faller, 0.25f);
    m3Counters c;
    int32_t caps = 0;
    for (int i = 0; i < 30; ++i) {
        CALL(m3World_Step(w, 1.0f / 60.0f, 4));
        CALL(m3World_GetCounters(w, &c));
        caps += c.speedCaps;
        m3Vec3 v;
        CALL(m3Body_GetLinearVelocity(faller, &v));
        CHECK(v.x * v.x + v.y * v.y + v.z * v.z <= 2.0f * 2.0f * 1.0001f);
    }
    CHECK(caps > 0 && c.rotationClamps == 0 && c.droppedCcdSweeps == 0);
    CALL(m3World_Destroy(w));

    /* A bullet fired at a thin wall runs time of impact and stops at the wall. */
    def = m3DefaultWorldDef();
    def.bodyCapacity = 8;
    def.shapeCapacity = 8;
    CALL(m3World_Create(&def, &w));
    m3BodyId wall = body(m3_staticBody, 5.0, 0.0, 0.0);
    m3Box wb = {{0.05f, 2.0f, 2.0f}, {0.0f, 0.0f, 0.0f}, {0.0f, 0.0f, 0.0f, 1.0f}};
    CALL(m3CreateBoxShape(wall, &plain, &wb, &gs));
    m3BodyDef bd = m3DefaultBodyDef();
    bd.type = m3_dynamicBody;
    bd.isBullet = true;
    bd.gravityScale = 0.0f;
    bd.linearVelocity = (m3Vec3){300.0f, 0.0f, 0.0f};
    m3BodyId bullet;
    CALL(m3Body_Create(w, &bd, &bullet));
    ball(bullet, 0.1f);
    CALL(m3World_Step(w, 1.0f / 60.0f, 4));
    CALL(m3World_GetCounters(w, &c));
    CHECK(c.toiQueries > 0 && c.toiIterations >= c.toiQueries && c.speedCaps == 0);
    m3DVec3 p;
    CALL(m3Body_GetPosition(bullet, &p));
    CHECK(p.x < 5.0);

    /* A kinematic body racing at the edge: the step that could carry it past 2^22 m is
     * refused before it runs (the hash unchanged), naming the body; destroyed, the world
     * steps again. */
    bd = m3DefaultBodyDef();
    bd.type = m3_kinematicBody;
    bd.position.x = 2097150.0;
    bd.linearVelocity = (m3Vec3){100000.0f, 0.0f, 0.0f};
    m3BodyId racer;
    CALL(m3Body_Create(w, &bd, &racer));
    ball(racer, 1.0f);
    int refused = 0;
    for (int i = 0; i < 5 && !refused; ++i) {
        uint64_t before = 0, after = 0;
        CALL(m3World_GetHash(w, &before));
        m3Result r = m3World_Step(w, 10.0f, 1);
        if (r != m3_success) {
            CHECK(r == m3_errorOutOfBounds);
            CHECK(strstr(m3GetLastErrorMessage(), "could reach") != NULL);
            char idx[32];
            snprintf(idx, sizeof idx, "index %u,", (unsigned)racer.index);
            CHECK(strstr(m3GetLastErrorMessage(), idx) != NULL);
            CALL(m3World_GetHash(w, &after));
            CHECK(after == before);
            refused = 1;
        }
    }
    CHECK(refused);
    CALL(m3Body_Destroy(racer));
    CALL(m3World_Step(w, 1.0f / 60.0f, 4));
    CALL(m3World_Destroy(w));
}

/* A world grows between steps: a full pool refuses, m3World_GrowthNeeded says so, the
 * grown world takes the create, the hash does not move; a smaller capacity is refused; a
 * snapshot too big for a world is m3_errorCapacity until that world grows. */
static void growth(void)
{
    m3WorldDef def = m3DefaultWorldDef();
    def.bodyCapacity = 2;
    m3WorldId g;
    CALL(m3World_Create(&def, &g));
    m3BodyDef bd = m3DefaultBodyDef();
    m3BodyId b;
    CALL(m3Body_Create(g, &bd, &b));
    CALL(m3Body_Create(g, &bd, &b));
    CHECK(m3Body_Create(g, &bd, &b) == m3_errorCapacity);
    m3Capacities c;
    bool needed = false;
    CALL(m3World_GrowthNeeded(g, &c, &needed));
    CHECK(needed && c.bodyCapacity == 4);
    uint64_t h = m3World_Hash(g);
    CALL(m3World_Grow(g, &c));
    CHECK(m3World_Hash(g) == h);
    CALL(m3Body_Create(g, &bd, &b));
    m3Capacities now;
    CALL(m3World_GetCapacities(g, &now));
    CHECK(now.bodyCapacity == 4 && now.shapeCapacity == def.shapeCapacity);
    now.bodyCapacity = 1;
    CHECK(m3World_Grow(g, &now) == m3_errorArgument);
    /* Three bodies do not fit a world of two until it grows. */
    int64_t n = 0;
    CALL(m3World_GetSnapshotSize(g, &n));
    uint8_t *snap = (uint8_t *)malloc((size_t)n);
    int64_t written = 0;
    CALL(m3World_Snapshot(g, snap, n, &written));
    m3WorldId small;
    CALL(m3World_Create(&def, &small));
    CHECK(m3World_Restore(small, snap, written) == m3_errorCapacity);
    CALL(m3World_Grow(small, &c));
    CALL(m3World_Restore(small, snap, written));
    CHECK(m3World_Hash(small) == m3World_Hash(g));
    free(snap);
    CALL(m3World_Destroy(small));
    CALL(m3World_Destroy(g));
}

int main(void)
{
    m3WorldDef def = m3DefaultWorldDef();
    def.bodyCapacity = 64;
    def.shapeCapacity = 64;
    CALL(m3World_Create(&def, &w));
    sd = m3DefaultShapeDef();
    sd.enableHitEvents = true;

    /* Ground: top face at y = 0. */
    m3BodyId ground = body(m3_staticBody, 0.0, -0.5, 0.0);
    m3Box gb = {{20.0f, 0.5f, 20.0f}, {0.0f, 0.0f, 0.0f}, {0.0f, 0.0f, 0.0f, 1.0f}};
    m3ShapeId groundShape;
    CALL(m3CreateBoxShape(ground, &sd, &gb, &groundShape));

    /* Ray straight down from y = 10 over 20 m: hits the top face at half the way. */
    m3QueryFilter qf = m3DefaultQueryFilter();
    m3RayResult ray;
    CALL(m3World_CastRayClosest(w, (m3DVec3){1.0, 10.0, 2.0}, (m3Vec3){0.0f, -20.0f, 0.0f}, qf,
                                &ray));
    CHECK(ray.hit && near(ray.fraction, 0.5, 1e-6) && near(ray.point.y, 0.0, 1e-6));
    CHECK(near(ray.normal.y, 1.0, 1e-6) && ray.shape.index == groundShape.index);
    CALL(m3World_CastRayClosest(w, (m3DVec3){30.0, 10.0, 0.0}, (m3Vec3){0.0f, -20.0f, 0.0f}, qf,
                                &ray));
    CHECK(!ray.hit);
    int32_t n = 0;
    CALL(m3World_CastRay(w, (m3DVec3){1.0, 10.0, 2.0}, (m3Vec3){0.0f, -20.0f, 0.0f}, qf, NULL, 0,
                         &n));
    CHECK(n == 1);

    /* A ball dropped from 2 m onto the ground: contact begin and hit events, a move. */
    m3BodyId b = body(m3_dynamicBody, 0.0, 2.0, 0.0);
    m3ShapeId bs = ball(b, 0.5f);
    uint64_t sud = 7;
    CALL(m3Shape_GetUserData(bs, &sud));
    CHECK(sud == 0);
    m3ContactEvent begins[8];
    m3ContactHitEvent hits[8];
    int32_t nb = 0, nh = 0, steps = 0;
    int sawBegin = 0, sawHit = 0;
    float hitSpeed = 0.0f;
    for (; steps < 120 && !(sawBegin && sawHit); ++steps) {
        CALL(m3World_Step(w, 1.0f / 60.0f, 4));
        CALL(m3World_GetContactBeginEvents(w, begins, 8, &nb));
        CALL(m3World_GetContactHitEvents(w, hits, 8, &nh));
        sawBegin |= nb > 0;
        if (nh > 0) {
            sawHit = 1;
            hitSpeed = hits[0].approachSpeed;
        }
    }
    CHECK(sawBegin && sawHit);
    /* Falling 1.5 m: sqrt(2 g h) = sqrt(30) = 5.48 m/s, within a step's worth. */
    CHECK(hitSpeed > 4.5f && hitSpeed < 6.0f);
    m3BodyMoveEvent moves[8];
    CALL(m3World_GetBodyMoveEvents(w, moves, 8, &n));
    CHECK(n == 1 && moves[0].body.index == b.index);
    uint64_t stepCount = 0;
    CALL(m3World_GetStepCount(w, &stepCount));
    CHECK(stepCount == (uint64_t)steps);

    /* Overlaps: the point above the ground is in nothing; the ground's inside is. */
    m3ShapeId found[8];
    CALL(m3World_OverlapPoint(w, (m3DVec3){5.0, -0.25, 5.0}, qf, found, 8, &n));
    CHECK(n == 1 && found[0].index == groundShape.index);
    CALL(m3World_OverlapPoint(w, (m3DVec3){5.0, 3.0, 5.0}, qf, found, 8, &n));
    CHECK(n == 0);
    m3DAABB box = {{-1.0, -1.0, -1.0}, {1.0, 3.0, 1.0}};
    CALL(m3World_OverlapAABB(w, box, qf, found, 8, &n));
    CHECK(n == 2);
    m3QueryShape probe;
    memset(&probe, 0, sizeof probe);
    probe.type = m3_sphereShape;
    probe.sphere.radius = 0.25f;
    CALL(m3World_OverlapShape(w, &probe, (m3DVec3){8.0, 0.1, 0.0}, (m3Quat){0, 0, 0, 1}, qf,
                              found, 8, &n));
    CHECK(n == 1 && found[0].index == groundShape.index);
    /* A sphere of radius 0.25 cast down from y = 5 by 10 m meets the ground near 4.75 m. */
    m3ShapeCastResult cast;
    CALL(m3World_CastShape(w, &probe, (m3DVec3){8.0, 5.0, 0.0}, (m3Quat){0, 0, 0, 1},
                           (m3Vec3){0.0f, -10.0f, 0.0f}, qf, &cast));
    CHECK(cast.hit && near(cast.fraction, 0.475, 2e-3));

    /* Contact points and rest info: a sphere of radius 0.25 sunk 0.05 into the ground. */
    m3ContactPoint cps[4];
    m3BodyId none;
    memset(&none, 0, sizeof none);
    CALL(m3World_GetContactPoints(w, &probe, (m3DVec3){8.0, 0.2, 0.0}, (m3Quat){0, 0, 0, 1}, 0.0f,
                                  qf, none, cps, 4, &n));
    CHECK(n == 1 && near(cps[0].depth, 0.05, 1e-5) && near(cps[0].normal.y, 1.0, 1e-5));
    bool restFound = false;
    m3ContactPoint rest;
    CALL(m3World_GetRestInfo(w, &probe, (m3DVec3){8.0, 0.2, 0.0}, (m3Quat){0, 0, 0, 1}, 0.0f, qf,
                             none, &rest, &restFound));
    CHECK(restFound && rest.shape.index == groundShape.index);
    CALL(m3World_GetRestInfo(w, &probe, (m3DVec3){8.0, 0.2, 0.0}, (m3Quat){0, 0, 0, 1}, 0.0f, qf,
                             ground, &rest, &restFound));
    CHECK(!restFound);

    /* Motion test: the ball moved down by 3 m stops on the ground. */
    m3DVec3 pos;
    CALL(m3Body_GetPosition(b, &pos));
    m3MotionTest mt = {b, pos, {0, 0, 0, 1}, {0.0f, -3.0f, 0.0f}, 0.01f, qf};
    m3MotionCollision col[4];
    m3MotionResult mr;
    CALL(m3Body_TestMotion(&mt, col, 4, &mr));
    CHECK(mr.safeFraction < 0.1f && mr.collisionCount >= 1);
    /* Against the motion (Godot's body_test_motion): the ground faces against a fall. */
    m3MotionResult ma;
    CALL(m3Body_TestMotionAgainst(&mt, col, 4, &ma));
    CHECK(ma.collisionCount >= 1 && ma.collisionCount <= mr.collisionCount);
    CHECK(col[0].normal.y > 0.9f && ma.safeFraction == mr.safeFraction);
    /* The Ex call: the ground excluded, the fall is free; a 1 m separation ray pointing
       down from the centre of the ball (radius 0.5) resting on the ground lifts it 0.5 m
       and, snapping, holds it there. */
    m3MotionOptions mo;
    memset(&mo, 0, sizeof mo);
    mo.exclude = &ground;
    mo.excludeCount = 1;
    CALL(m3Body_TestMotionAgainstEx(&mt, &mo, col, 4, &ma));
    CHECK(ma.safeFraction == 1.0f && ma.collisionCount == 0);
    m3SeparationRay sray = {{0.0f, 0.0f, 0.0f}, {0.0f, -1.0f, 0.0f}, 1.0f, false};
    memset(&mo, 0, sizeof mo);
    mo.separationRays = &sray;
    mo.rayCount = 1;
    mo.collideSeparationRays = true;
    CALL(m3Body_TestMotionAgainstEx(&mt, &mo, col, 4, &ma));
    CHECK(ma.collisionCount >= 1 && col[0].localShape.index == 0);
    CHECK(near(ma.travel.y, mr.travel.y + 0.5, 0.02));
    mo.rayCount = 17;
    CHECK(m3Body_TestMotionAgainstEx(&mt, &mo, col, 4, &ma) == m3_errorArgument);
    CHECK(m3Body_TestMotionAgainstEx(&mt, NULL, col, 4, &ma) == m3_errorArgument);

    /* An explosion just under the resting ball throws it up. */
    for (int i = 0; i < 60; ++i)
        CALL(m3World_Step(w, 1.0f / 60.0f, 4));
    m3ExplosionDef ex = m3DefaultExplosionDef();
    ex.position = pos;
    ex.position.y = 0.0;
    ex.radius = 2.0f;
    ex.impulsePerArea = 5000.0f; /* the ball: 524 kg, 0.79 m² across */
    CALL(m3World_Explode(w, &ex));
    CALL(m3World_Step(w, 1.0f / 60.0f, 4));
    m3Vec3 v;
    CALL(m3Body_GetLinearVelocity(b, &v));
    CHECK(v.y > 0.5f);

    /* An area with zero gravity (replace) around a ball at rest in the air: it stays. */
    m3BodyId zoneBody = body(m3_staticBody, 10.0, 5.0, 0.0);
    m3ShapeDef sensorDef = m3DefaultShapeDef();
    sensorDef.isSensor = true;
    m3Sphere zone = {{0.0f, 0.0f, 0.0f}, 2.0f};
    m3ShapeId zoneShape;
    CALL(m3CreateSphereShape(zoneBody, &sensorDef, &zone, &zoneShape));
    m3AreaSettings area;
    memset(&area, 0, sizeof area);
    area.gravityMode = m3_areaReplace;
    CALL(m3Shape_SetArea(zoneShape, &area));
    CHECK(m3Shape_SetArea(groundShape, &area) == m3_errorState);
    m3BodyId floater = body(m3_dynamicBody, 10.0, 5.0, 0.0);
    ball(floater, 0.25f);
    CALL(m3Body_EnableSleep(floater, false));
    m3SensorEvent sev[4];
    int sensed = 0;
    for (int i = 0; i < 30; ++i) {
        CALL(m3World_Step(w, 1.0f / 60.0f, 4));
        CALL(m3World_GetSensorBeginEvents(w, sev, 4, &n));
        sensed |= n > 0;
    }
    CHECK(sensed);
    CALL(m3Shape_GetSensorOverlaps(zoneShape, found, 8, &n));
    CHECK(n == 1);
    /* Inside, nothing accelerates it: its velocity stays what it had on entering. */
    m3Vec3 v1, v2;
    CALL(m3Body_GetLinearVelocity(floater, &v1));
    for (int i = 0; i < 10; ++i)
        CALL(m3World_Step(w, 1.0f / 60.0f, 4));
    CALL(m3Body_GetLinearVelocity(floater, &v2));
    CHECK(v1.y == v2.y && v1.y > -0.5f);

    /* A sensor that detects sensors sees a sensor ball placed in the zone; the zone's
     * gravity still acts on solid shapes only, and a solid shape cannot detect sensors. */
    bool detects = true;
    CALL(m3Shape_GetDetectsSensors(zoneShape, &detects));
    CHECK(!detects);
    CALL(m3Shape_SetDetectsSensors(zoneShape, true));
    CALL(m3Shape_GetDetectsSensors(zoneShape, &detects));
    CHECK(detects);
    CHECK(m3Shape_SetDetectsSensors(groundShape, true) == m3_errorState);
    m3BodyId marker = body(m3_staticBody, 10.0, 5.5, 0.0);
    m3Sphere dot = {{0.0f, 0.0f, 0.0f}, 0.1f};
    m3ShapeId markerShape;
    CALL(m3CreateSphereShape(marker, &sensorDef, &dot, &markerShape));
    bool visible = false;
    CALL(m3Shape_AreSensorEventsEnabled(markerShape, &visible));
    CHECK(visible);
    CALL(m3World_Step(w, 1.0f / 60.0f, 4));
    CALL(m3Shape_GetSensorOverlaps(zoneShape, found, 8, &n));
    CHECK(n == 2);
    CALL(m3Shape_EnableSensorEvents(markerShape, false));
    CALL(m3World_Step(w, 1.0f / 60.0f, 4));
    CALL(m3Shape_GetSensorOverlaps(zoneShape, found, 8, &n));
    CHECK(n == 1);
    CALL(m3World_GetSensorEndEvents(w, sev, 4, &n));
    CHECK(n == 1 && sev[0].visitorShape.index == markerShape.index);

    /* Every joint kind, with its setters; a weld that breaks. */
    m3BodyId anchor = body(m3_staticBody, -10.0, 5.0, 0.0);
    const int kinds[8] = {m3_sphericalJoint, m3_revoluteJoint, m3_prismaticJoint, m3_weldJoint,
                          m3_distanceJoint,  m3_coneTwistJoint, m3_sixDofJoint,   m3_wheelJoint};
    m3JointId joints[8];
    for (int k = 0; k < 8; ++k) {
        m3BodyId bob = body(m3_dynamicBody, -10.0 + 0.5, 5.0 - 0.5 * (double)k, 0.0);
        ball(bob, 0.1f);
        m3JointDef jd = m3DefaultJointDef(kinds[k]);
        CALL(m3World_GetJointFramesAt(w, anchor, bob, (m3DVec3){-10.0, 5.0, 0.0},
                                      (m3Quat){0, 0, 0, 1}, &jd.localFrameA, &jd.localFrameB));
        jd.bodyA = anchor;
        jd.bodyB = bob;
        CALL(m3Joint_Create(w, &jd, &joints[k]));
        int t = -1;
        CALL(m3Joint_GetType(joints[k], &t));
        CHECK(t == kinds[k]);
    }
    CALL(m3Joint_EnableMotor(joints[1], true));
    CALL(m3Joint_SetMotorSpeed(joints[1], 2.0f));
    CALL(m3Joint_SetMaxMotorForce(joints[1], 10.0f));
    CALL(m3Joint_EnableLimit(joints[2], true));
    CALL(m3Joint_SetLimits(joints[2], -0.5f, 0.5f));
    CALL(m3Joint_SetLimitSpring(joints[2], 4.0f, 0.5f));
    CHECK(m3Joint_SetLimitSpring(joints[2], -1.0f, 0.0f) == m3_errorArgument);
    CHECK(m3Joint_SetLimitSpring(joints[7], 4.0f, 0.5f) != m3_success);
    CALL(m3Joint_SetLimitSpring(joints[2], 0.0f, 0.0f)); /* rigid again */
    CALL(m3Joint_EnableSpring(joints[7], true));
    CALL(m3Joint_SetSpring(joints[7], 2.0f, 0.5f));
    CALL(m3Joint_SetWeldSpring(joints[3], 0.0f, 0.0f, 1.0f));
    CALL(m3Joint_SetDistanceRange(joints[4], 0.5f, 2.0f));
    CALL(m3Joint_SetConeSwingLimit(joints[5], 0.5f));
    m3SixDofAxis axis = {m3_axisLimited, -0.1f, 0.1f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f};
    CALL(m3Joint_SetSixDofAxis(joints[6], 1, axis));
    CHECK(m3Joint_SetSixDofAxis(joints[6], 6, axis) == m3_errorArgument);
    CALL(m3Joint_SetSixDofLimitSpring(joints[6], 1, 4.0f, 0.5f));
    CHECK(m3Joint_SetSixDofLimitSpring(joints[6], 6, 4.0f, 0.5f) == m3_errorArgument);
    CHECK(m3Joint_SetSixDofLimitSpring(joints[2], 0, 4.0f, 0.5f) != m3_success);
    CALL(m3Joint_SetSixDofLimitSpring(joints[6], 1, 0.0f, 0.0f)); /* rigid again */
    CHECK(m3Joint_SetConeSwingLimit(joints[1], 0.5f) != m3_success);
    CALL(m3Joint_SetUserData(joints[0], 42));
    uint64_t ud = 0;
    CALL(m3Joint_GetUserData(joints[0], &ud));
    CHECK(ud == 42);
    CALL(m3Joint_SetBreakThresholds(joints[3], 1.0f, 1.0f));
    int broke = 0;
    m3JointBreakEvent breaks[8];
    for (int i = 0; i < 30 && !broke; ++i) {
        CALL(m3World_Step(w, 1.0f / 60.0f, 4));
        CALL(m3World_GetJointBreakEvents(w, breaks, 8, &n));
        broke = n > 0;
    }
    CHECK(broke && breaks[0].joint.index == joints[3].index);
    bool isBroken = false;
    CALL(m3Joint_IsBroken(joints[3], &isBroken));
    CHECK(isBroken);
    m3Vec3 force;
    CALL(m3Joint_GetReactionForce(joints[0], &force));
    CHECK(force.y > 0.0f); /* holds its bob up */
    float dist;
    CALL(m3Joint_GetDistance(joints[0], &dist));
    CHECK(dist < 0.05f);

    /* Getters give back what was set. */
    m3JointDef gotDef;
    CALL(m3Joint_GetDef(joints[1], &gotDef));
    CHECK(gotDef.type == m3_revoluteJoint && gotDef.revolute.enableMotor &&
          gotDef.revolute.motorSpeed == 2.0f && gotDef.revolute.maxMotorTorque == 10.0f);
    CHECK(gotDef.bodyA.index == anchor.index);
    m3Sphere gotSphere;
    CALL(m3Shape_GetSphere(bs, &gotSphere));
    CHECK(gotSphere.radius == 0.5f);
    m3Box gotBox;
    CHECK(m3Shape_GetBox(bs, &gotBox) == m3_errorArgument);
    CALL(m3Shape_GetBox(groundShape, &gotBox));
    CHECK(gotBox.halfExtents.x == 20.0f && gotBox.halfExtents.y == 0.5f);
    const m3Vec3 tetra[4] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    m3HullId hull;
    CALL(m3World_CreateHull(w, tetra, 4, &hull));
    m3Vec3 hp[8];
    CALL(m3Hull_GetPoints(hull, hp, 8, &n));
    CHECK(n == 4 && hp[3].z == 1.0f);
    m3BodyId hb = body(m3_dynamicBody, 12.0, 1.0, 12.0);
    m3ShapeId hs;
    CALL(m3CreateHullShape(hb, &sd, hull, &hs));
    int st = -1;
    CALL(m3Shape_GetType(hs, &st));
    CHECK(st == m3_hullShape);
    m3HullId hullBack;
    CALL(m3Shape_GetHull(hs, &hullBack));
    CHECK(hullBack.index == hull.index && hullBack.generation == hull.generation);
    CHECK(m3Shape_GetHull(groundShape, &hullBack) == m3_errorArgument);
    m3MassData md;
    CALL(m3Body_GetMassData(hb, &md));
    /* A unit right tetrahedron: volume 1/6, density 1000. */
    CHECK(near(md.mass, 1000.0 / 6.0, 1e-2));
    /* Three points are flat: a thin hull 5 mm thick (its outline moved 2.5 mm to each
     * side), the input points kept; collinear points are refused. */
    const m3Vec3 flat[3] = {{0, 0, 0}, {1, 0, 0}, {0, 0, 1}};
    m3HullId flatHull;
    CALL(m3World_CreateHull(w, flat, 3, &flatHull));
    CALL(m3Hull_GetPoints(flatHull, hp, 8, &n));
    CHECK(n == 3 && hp[2].z == 1.0f);
    m3BodyId fb = body(m3_dynamicBody, 14.0, 1.0, 12.0);
    m3ShapeId fs;
    CALL(m3CreateHullShape(fb, &sd, flatHull, &fs));
    CALL(m3Body_GetMassData(fb, &md));
    CHECK(near(md.mass, 1000.0 * 0.5 * 0.005, 1e-3));
    const m3Vec3 line[4] = {{0, 0, 0}, {1, 1, 0}, {2, 2, 0}, {3, 3, 0}};
    m3HullId lineHull;
    CHECK(m3World_CreateHull(w, line, 4, &lineHull) == m3_errorArgument);

    /* Debug draw sees every shape and joint. */
    m3Counters c;
    CALL(m3World_GetCounters(w, &c));
    m3DebugDraw dd = m3DefaultDebugDraw();
    dd.shapeFcn = draw_shape;
    dd.jointFcn = draw_joint;
    dd.drawJoints = true;
    CALL(m3World_Draw(w, &dd));
    CHECK(drawn_shapes == c.shapeCount && drawn_joints == c.jointCount && c.jointCount == 8);

    m3MemoryUsage mem;
    CALL(m3World_GetMemoryUsage(w, &mem));
    CHECK(mem.totalBytes > 0);
    m3Profile prof;
    CALL(m3World_GetProfile(w, &prof));
    CHECK(prof.step >= 0.0);

    /* Origin shift: positions relative to the origin move by -offset, the hash's world
     * does not move. */
    CALL(m3Body_GetPosition(ground, &pos));
    CALL(m3World_ShiftOrigin(w, (m3DVec3){1024.0, 0.0, -512.0}));
    m3DVec3 pos2, origin;
    CALL(m3Body_GetPosition(ground, &pos2));
    CALL(m3World_GetOrigin(w, &origin));
    CHECK(pos2.x == pos.x - 1024.0 && pos2.z == pos.z + 512.0);
    CHECK(origin.x == 1024.0 && origin.z == -512.0);

    /* Host math. */
    CHECK(m3Sqrt(4.0f) == 2.0f && m3Sin(0.0f) == 0.0f && m3Cos(0.0f) == 1.0f);
    m3Quat q = m3MakeQuatFromAxisAngle((m3Vec3){0.0f, 0.0f, 1.0f}, 1.5707964f);
    m3Vec3 r = m3RotateVector(q, (m3Vec3){1.0f, 0.0f, 0.0f});
    CHECK(near(r.y, 1.0, 1e-6) && near(r.x, 0.0, 1e-6));
    m3Vec3 back = m3InvRotateVector(q, r);
    CHECK(near(back.x, 1.0, 1e-6));
    m3Quat qq = m3MulQuat(q, q);
    CHECK(near(qq.z, 1.0, 1e-6));
    CHECK(near(m3Atan2(1.0f, 1.0f), 0.7853982, 1e-6) && near(m3Acos(0.0f), 1.5707964, 1e-6));

    CALL(m3World_Destroy(w));
    cylinders_and_planes();
    ray_shapes();
    meshes_and_height_fields();
    voxels();
    shape_and_body_lists();
    contact_data();
    wake_touching();
    combine_rules();
    two_sided_meshes();
    journal_records_calls_that_change_nothing();
#if defined(__x86_64__) || defined(__i386__)
    pre_solve_runs_in_the_library_fp_setting();
#endif
    small_worlds_never_call_the_task_hooks();
    trust_counters_and_the_coordinate_edge();
    growth();
    printf("surface: events, queries, motion test, explosion, area, joints, draw, counters, "
           "origin shift, host math, cylinders and planes, meshes and height fields, voxels, "
           "shape and body lists, contact data, no-op calls journaled, pre-solve fp setting, task hooks, "
           "speed-cap and time-of-impact counters, the coordinate edge, growth as expected\n");
    return 0;
}
