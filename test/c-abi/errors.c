/* Every m3Result error code provoked from C at least once, with the world's hash
 * unchanged after each refusal and the misuse counter counting exactly the programmer
 * errors (not damaged or foreign-version data). Busy is provoked from inside the world's
 * own hooks: the pre-solve callback, the task hooks, the allocator and debug draw; there
 * "unchanged" means the step lands on the bits of a twin whose hooks call nothing. */
#include "common.h"

#include <math.h>
#include <string.h>

static int codes_seen[9];

static void expect(m3Result got, m3Result want, const char *what)
{
    if (got != want) {
        fprintf(stderr, "FAIL: %s returned %d, expected %d (%s)\n", what, (int)got, (int)want,
                m3GetLastErrorMessage());
        exit(1);
    }
    const char *msg = m3GetLastErrorMessage();
    if (want != m3_success && (msg == NULL || msg[0] == '\0')) {
        fprintf(stderr, "FAIL: %s left no error message\n", what);
        exit(1);
    }
    codes_seen[(int)want] = 1;
    printf("  %-58s -> %d: %s\n", what, (int)got, want == m3_success ? "" : msg);
}

/* Requires the last refusal's message to contain `needle` and to stay short. */
static void expect_message(const char *needle)
{
    const char *msg = m3GetLastErrorMessage();
    if (strstr(msg, needle) == NULL || strlen(msg) > 200) {
        fprintf(stderr, "FAIL: message \"%s\" lacks \"%s\" or is too long\n", msg, needle);
        exit(1);
    }
}

/* ---- hooks that call back into the world ---- */

typedef struct {
    m3WorldId world;
    m3BodyId body;
    int probe; /* call into the world from inside the hook */
    int calls;
    m3Result seen;
} Probe;

static void note(Probe *p, m3Result r)
{
    p->calls++;
    if (p->seen == m3_success || r != m3_errorBusy)
        p->seen = r;
}

static bool pre_solve(const m3PreSolveContact *contact, void *context)
{
    (void)contact;
    Probe *p = (Probe *)context;
    if (p->probe) {
        note(p, m3Body_SetLinearVelocity(p->body, (m3Vec3){0.0f, 5.0f, 0.0f}));
        if (m3World_Hash(p->world) != 0)
            note(p, m3_success); /* a read inside a step must be refused too */
    }
    return true;
}

static void *task_enqueue(m3TaskCallback task, uint32_t itemCount, uint32_t minRange,
                          void *taskContext, void *userContext)
{
    (void)minRange;
    Probe *p = (Probe *)userContext;
    if (p->probe) {
        note(p, m3World_Step(p->world, 1.0f / 60.0f, 1));
        note(p, m3World_Destroy(p->world));
    }
    task(0, itemCount, 0, taskContext);
    return NULL;
}

static void task_finish(void *userTask, void *userContext)
{
    (void)userTask;
    (void)userContext;
}

static Probe alloc_probe;
static void *probe_alloc(size_t size, size_t alignment, void *context)
{
    Probe *p = (Probe *)context;
    if (p->probe)
        note(p, m3Body_ApplyForceToCenter(p->body, (m3Vec3){1.0f, 0.0f, 0.0f}));
    void *m = NULL;
    if (alignment < sizeof(void *))
        alignment = sizeof(void *);
    if (posix_memalign(&m, alignment, size ? size : 1) != 0)
        return NULL;
    return m;
}
static void probe_free(void *memory, size_t size, size_t alignment, void *context)
{
    (void)size;
    (void)alignment;
    (void)context;
    free(memory);
}

static void draw_shape(m3ShapeId shape, m3BodyId body, m3DVec3 position, m3Quat rotation,
                       const m3DebugShape *geometry, bool awake, void *context)
{
    (void)shape;
    (void)position;
    (void)rotation;
    (void)geometry;
    (void)awake;
    Probe *p = (Probe *)context;
    note(p, m3Body_Destroy(body));
}

/* A world with a ground and a ball resting on it (contacts to pre-solve). */
static m3WorldId make_world(m3WorldDef def, m3BodyId *ball, Probe *pre, int extra)
{
    def.bodyCapacity = 4 + extra;
    def.shapeCapacity = 4 + extra;
    def.preSolveFcn = pre_solve;
    def.preSolveContext = pre;
    m3WorldId w;
    CALL(m3World_Create(&def, &w));
    m3BodyDef bd = m3DefaultBodyDef();
    m3BodyId ground;
    CALL(m3Body_Create(w, &bd, &ground));
    m3ShapeDef sd = m3DefaultShapeDef();
    sd.enablePreSolve = true;
    m3Box gb = {{10.0f, 0.5f, 10.0f}, {0.0f, 0.0f, 0.0f}, {0.0f, 0.0f, 0.0f, 1.0f}};
    m3ShapeId s;
    CALL(m3CreateBoxShape(ground, &sd, &gb, &s));
    bd.type = m3_dynamicBody;
    bd.position.y = 0.98;
    CALL(m3Body_Create(w, &bd, ball));
    m3Sphere sp = {{0.0f, 0.0f, 0.0f}, 0.5f};
    CALL(m3CreateSphereShape(*ball, &sd, &sp, &s));
    /* More balls, so that the step's stages are worth handing to the task hooks. */
    for (int i = 0; i < extra; ++i) {
        m3BodyId b;
        bd.position.x = 1.25 * (double)(i % 8) - 5.0;
        bd.position.y = 2.0 + 1.25 * (double)(i / 8);
        CALL(m3Body_Create(w, &bd, &b));
        CALL(m3CreateSphereShape(b, &sd, &sp, &s));
    }
    return w;
}

int main(void)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    Probe pre = {{0, 0}, {0, 0, {0, 0}}, 0, 0, m3_success};
    m3BodyId ball;
    m3WorldId w = make_world(m3DefaultWorldDef(), &ball, &pre, 0);
    pre.world = w;
    pre.body = ball;
    CALL(m3World_Step(w, 1.0f / 60.0f, 4));
    uint64_t h = m3World_Hash(w);
    uint64_t misuse = m3World_GetMisuseCount(w);
    CHECK(h != 0 && misuse == 0);
    printf("refusals on a world (hash %016llx):\n", (unsigned long long)h);

#define REFUSED(call, code, counts)                                                       \
    do {                                                                                  \
        expect((call), (code), #call);                                                    \
        CHECK(m3World_Hash(w) == h);                                                      \
        misuse += (counts);                                                               \
        CHECK(m3World_GetMisuseCount(w) == misuse);                                       \
    } while (0)

    /* Argument: out of range, not finite, null pointers, unknown enumerators. */
    REFUSED(m3World_Step(w, 0.0f, 4), m3_errorArgument, 1);
    REFUSED(m3World_Step(w, 1.0f / 60.0f, 0), m3_errorArgument, 1);
    REFUSED(m3Body_SetLinearVelocity(ball, (m3Vec3){0.0f, 0.0f / 0.0f, 0.0f}), m3_errorArgument,
            1);
    REFUSED(m3Body_Create(w, NULL, &ball), m3_errorArgument, 1);
    REFUSED(m3Body_GetPosition(ball, NULL), m3_errorArgument, 1);
    REFUSED(m3Body_SetType(ball, 7), m3_errorArgument, 1);
    {
        m3JointDef jd = m3DefaultJointDef(42);
        jd.bodyA = ball;
        jd.bodyB = ball;
        m3JointId j;
        REFUSED(m3Joint_Create(w, &jd, &j), m3_errorArgument, 1);
    }
    {
        m3Sphere sp = {{0.0f, 0.0f, 0.0f}, -1.0f};
        m3ShapeDef sd = m3DefaultShapeDef();
        m3ShapeId s;
        REFUSED(m3CreateSphereShape(ball, &sd, &sp, &s), m3_errorArgument, 1);
        m3Cylinder cy = {{0.0f, 0.0f, 0.0f}, {0.0f, 0.0f, 0.0f, 0.0f}, 0.5f, 0.5f};
        REFUSED(m3CreateCylinderShape(ball, &sd, &cy, &s), m3_errorArgument, 1);
        m3QueryShape q;
        memset(&q, 0, sizeof q);
        q.type = m3_planeShape;
        m3ShapeId found[4];
        int32_t n = 0;
        REFUSED(m3World_OverlapShape(w, &q, (m3DVec3){0.0, 0.0, 0.0}, (m3Quat){0, 0, 0, 1},
                                     m3DefaultQueryFilter(), found, 4, &n),
                m3_errorArgument, 1);
    }

    /* Capacity: a full body pool, a snapshot buffer too small, a journal that overflows. */
    {
        m3BodyDef bd = m3DefaultBodyDef();
        m3BodyId b;
        CALL(m3Body_Create(w, &bd, &b));
        CALL(m3Body_Create(w, &bd, &b)); /* 4 of 4 */
        const uint64_t full = m3World_Hash(w);
        expect(m3Body_Create(w, &bd, &b), m3_errorCapacity, "m3Body_Create (pool full)");
        CHECK(m3World_Hash(w) == full);
        misuse += 1;
        CHECK(m3World_GetMisuseCount(w) == misuse);
        CALL(m3Body_Destroy(b));
        h = m3World_Hash(w);
        /* The body ids before and after: the destroyed slot's generation moved on. */
        REFUSED(m3Body_Destroy(b), m3_errorInvalidId, 1);
    }
    uint8_t small[64];
    int64_t written = 0;
    REFUSED(m3World_Snapshot(w, small, sizeof small, &written), m3_errorCapacity, 1);

    /* State: stopping a journal that is not running, starting one twice, a plane on a
     * dynamic body. */
    {
        m3Plane pl = {{0.0f, 1.0f, 0.0f}, 0.0f};
        m3ShapeDef sd = m3DefaultShapeDef();
        m3ShapeId s;
        REFUSED(m3CreatePlaneShape(ball, &sd, &pl, &s), m3_errorState, 1);
    }
    int64_t tapeBytes = 0;
    REFUSED(m3World_StopJournal(w, &tapeBytes), m3_errorState, 1);
    uint8_t tape[4096];
    CALL(m3World_StartJournal(w, tape, sizeof tape));
    REFUSED(m3World_StartJournal(w, tape, sizeof tape), m3_errorState, 1);
    CALL(m3World_StopJournal(w, &tapeBytes));
    CHECK(tapeBytes == 16);

    /* Out of bounds: positions and shifts beyond the coordinate limits. */
    {
        m3BodyDef bd = m3DefaultBodyDef();
        bd.position.x = 4194304.0;
        m3BodyId b;
        REFUSED(m3Body_Create(w, &bd, &b), m3_errorOutOfBounds, 1);
        REFUSED(m3World_ShiftOrigin(w, (m3DVec3){0.0, 16777216.0, 0.0}), m3_errorOutOfBounds, 1);
    }

    /* One rule for numbers: NaN and infinities are argument errors wherever they go,
     * positions, points and shifts included; out of bounds is only a finite position past
     * the coordinate limits. */
    {
        const double bad[3] = {NAN, INFINITY, -INFINITY};
        const m3Quat identity = {0.0f, 0.0f, 0.0f, 1.0f};
        m3QueryFilter filter = m3DefaultQueryFilter();
        m3QueryShape ball_query;
        memset(&ball_query, 0, sizeof ball_query);
        ball_query.type = m3_sphereShape;
        ball_query.sphere.radius = 0.5f;
        m3ShapeId found[4];
        int32_t n = 0;
        m3RayResult ray;
        for (int i = 0; i < 3; ++i) {
            const double v = bad[i];
            const m3DVec3 at = {0.0, v, 0.0};
            printf("  (with %g)\n", v);
            REFUSED(m3World_ShiftOrigin(w, at), m3_errorArgument, 1);
            m3ExplosionDef ex = m3DefaultExplosionDef();
            ex.position = at;
            REFUSED(m3World_Explode(w, &ex), m3_errorArgument, 1);
            m3BodyDef bd = m3DefaultBodyDef();
            bd.position = at;
            m3BodyId b;
            REFUSED(m3Body_Create(w, &bd, &b), m3_errorArgument, 1);
            REFUSED(m3Body_SetTransform(ball, at, identity), m3_errorArgument, 1);
            REFUSED(m3Body_ApplyForce(ball, (m3Vec3){0.0f, 1.0f, 0.0f}, at), m3_errorArgument, 1);
            REFUSED(m3Body_ApplyLinearImpulse(ball, (m3Vec3){0.0f, 1.0f, 0.0f}, at),
                    m3_errorArgument, 1);
            REFUSED(m3World_CastRayClosest(w, at, (m3Vec3){1.0f, 0.0f, 0.0f}, filter, &ray),
                    m3_errorArgument, 1);
            REFUSED(m3World_OverlapShape(w, &ball_query, at, identity, filter, found, 4, &n),
                    m3_errorArgument, 1);
            REFUSED(m3World_OverlapPoint(w, at, filter, found, 4, &n), m3_errorArgument, 1);
            REFUSED(m3World_OverlapAABB(w, (m3DAABB){{0.0, 0.0, 0.0}, at}, filter, found, 4, &n),
                    m3_errorArgument, 1);
            REFUSED(m3Body_SetLinearVelocity(ball, (m3Vec3){(float)v, 0.0f, 0.0f}),
                    m3_errorArgument, 1);
            REFUSED(m3World_SetGravity(w, (m3Vec3){0.0f, (float)v, 0.0f}), m3_errorArgument, 1);
            REFUSED(m3World_Step(w, (float)v, 4), m3_errorArgument, 1);
        }
        const m3DVec3 far = {0.0, 1.0e7, 0.0};
        REFUSED(m3World_ShiftOrigin(w, far), m3_errorOutOfBounds, 1);
        m3ExplosionDef ex = m3DefaultExplosionDef();
        ex.position = far;
        REFUSED(m3World_Explode(w, &ex), m3_errorOutOfBounds, 1);
        REFUSED(m3World_CastRayClosest(w, far, (m3Vec3){1.0f, 0.0f, 0.0f}, filter, &ray),
                m3_errorOutOfBounds, 1);
        REFUSED(m3World_OverlapShape(w, &ball_query, far, identity, filter, found, 4, &n),
                m3_errorOutOfBounds, 1);
        REFUSED(m3Body_ApplyForce(ball, (m3Vec3){0.0f, 1.0f, 0.0f}, far), m3_errorOutOfBounds, 1);
    }

    /* Messages read as English and print numbers short. */
    {
        REFUSED(m3World_ShiftOrigin(w, (m3DVec3){1.0e300, 0.0, 0.0}), m3_errorOutOfBounds, 1);
        expect_message("m3World_ShiftOrigin: offset.x = 1e300 is out of bounds: its magnitude "
                       "must stay below 4194304");
        REFUSED(m3World_ShiftOrigin(w, (m3DVec3){0.0, -INFINITY, 0.0}), m3_errorArgument, 1);
        expect_message("offset.y = -inf must be finite");
        m3JointDef jd = m3DefaultJointDef(m3_revoluteJoint);
        memset(&jd.bodyA, 0, sizeof jd.bodyA);
        jd.bodyB = ball;
        m3JointId j;
        REFUSED(m3Joint_Create(w, &jd, &j), m3_errorInvalidId, 1);
        expect_message("m3Joint_Create: def.bodyA is a null id");
        jd.bodyA = ball;
        memset(&jd.bodyB, 0, sizeof jd.bodyB);
        jd.bodyB.index = 1;
        REFUSED(m3Joint_Create(w, &jd, &j), m3_errorInvalidId, 1);
        expect_message("def.bodyB (index 1, generation 0) names no world");
        m3BodyDef bd = m3DefaultBodyDef();
        m3BodyId other;
        CALL(m3Body_Create(w, &bd, &other));
        h = m3World_Hash(w);
        jd.bodyB = other;
        jd.localFrameA.p.x = 2.0e6f;
        REFUSED(m3Joint_Create(w, &jd, &j), m3_errorArgument, 1);
        expect_message("local_frame_a anchor = 2000000 must be finite and within ±1e6 m of the "
                       "body origin");
        jd.localFrameA.p.x = 0.0f;
        jd.localFrameA.q = (m3Quat){0.0f, 0.0f, 0.0f, 0.0f};
        REFUSED(m3Joint_Create(w, &jd, &j), m3_errorArgument, 1);
        expect_message("local_frame_a rotation norm² = 0 must be finite and above 1e-6");
        CALL(m3Body_Destroy(other));
        h = m3World_Hash(w);
        REFUSED(m3World_SetGravity(w, (m3Vec3){0.0f, -3.0e20f, 0.0f}), m3_errorArgument, 1);
        expect_message("gravity = -3e20 must be finite and within ±1e5 (each component)");
        m3BodyId null_body;
        memset(&null_body, 0, sizeof null_body);
        expect(m3Body_SetType(null_body, m3_staticBody), m3_errorInvalidId,
               "m3Body_SetType (null body id)");
        expect_message("m3Body_SetType: bodyId is a null id");
    }

    /* The hash with its refusal told apart: 0 is a hash like any other. */
    {
        uint64_t got = 0;
        CALL(m3World_GetHash(w, &got));
        CHECK(got == h);
        REFUSED(m3World_GetHash(w, NULL), m3_errorArgument, 1);
        m3WorldDef def = m3DefaultWorldDef();
        m3WorldId gone;
        CALL(m3World_Create(&def, &gone));
        CALL(m3World_Destroy(gone));
        got = 12345;
        expect(m3World_GetHash(gone, &got), m3_errorInvalidId, "m3World_GetHash (destroyed world)");
        CHECK(got == 12345);
    }

    /* Meshes: bad content and a mesh shape on a dynamic body (argument), a mesh past the
     * content budget (capacity, in a world whose budget is 64 bytes). */
    {
        const m3Vec3 corners[4] = {{-1.0f, 0.0f, -1.0f},
                                   {1.0f, 0.0f, -1.0f},
                                   {1.0f, 0.0f, 1.0f},
                                   {-1.0f, 0.0f, 1.0f}};
        const uint32_t quad[6] = {0, 2, 1, 0, 3, 2};
        m3MeshId mesh, refused;
        CALL(m3World_CreateMesh(w, corners, 4, quad, 2, &mesh));
        h = m3World_Hash(w);
        m3Vec3 nan_corners[4] = {corners[0], corners[1], corners[2], corners[3]};
        nan_corners[1].x = 0.0f / 0.0f;
        REFUSED(m3World_CreateMesh(w, nan_corners, 4, quad, 2, &refused), m3_errorArgument, 1);
        const uint32_t past[3] = {0, 2, 4};
        REFUSED(m3World_CreateMesh(w, corners, 4, past, 1, &refused), m3_errorArgument, 1);
        const uint32_t degenerate[3] = {0, 2, 2};
        REFUSED(m3World_CreateMesh(w, corners, 4, degenerate, 1, &refused), m3_errorArgument, 1);
        m3ShapeDef sd = m3DefaultShapeDef();
        m3ShapeId s;
        REFUSED(m3CreateMeshShape(ball, &sd, mesh, &s), m3_errorArgument, 1);
        m3WorldDef def = m3DefaultWorldDef();
        def.contentCapacity = 64;
        m3WorldId small_world;
        CALL(m3World_Create(&def, &small_world));
        const uint64_t hs = m3World_Hash(small_world);
        expect(m3World_CreateMesh(small_world, corners, 4, quad, 2, &refused), m3_errorCapacity,
               "m3World_CreateMesh (114 bytes past contentCapacity 64)");
        CHECK(m3World_Hash(small_world) == hs && m3World_GetMisuseCount(small_world) == 1);
        CALL(m3World_Destroy(small_world));
    }

    /* Invalid id: null, stale, of another world. */
    {
        m3BodyId null_id;
        memset(&null_id, 0, sizeof null_id);
        REFUSED(m3Body_ApplyForceToCenter(null_id, (m3Vec3){0.0f, 1.0f, 0.0f}), m3_errorInvalidId,
                0 /* names no world */);
        m3WorldId gone;
        m3WorldDef def = m3DefaultWorldDef();
        CALL(m3World_Create(&def, &gone));
        CALL(m3World_Destroy(gone));
        expect(m3World_Step(gone, 1.0f / 60.0f, 1), m3_errorInvalidId, "m3World_Step (destroyed world)");
        CHECK(m3World_Hash(gone) == 0);
    }

    /* Format and version: damaged data, data and a header of another version. Not
     * misuse. */
    {
        int64_t n = 0;
        CALL(m3World_GetSnapshotSize(w, &n));
        uint8_t *snap = (uint8_t *)malloc((size_t)n);
        CALL(m3World_Snapshot(w, snap, n, &written));
        snap[n - 3] ^= 0x10;
        REFUSED(m3World_Restore(w, snap, n), m3_errorFormat, 0);
        snap[n - 3] ^= 0x10;
        snap[8] ^= 0x40; /* the format revision */
        REFUSED(m3World_Restore(w, snap, n), m3_errorVersion, 0);
        snap[8] ^= 0x40;
        tape[20] ^= 1;
        REFUSED(m3World_ReplayJournal(w, tape, 15), m3_errorFormat, 0);
        CALL(m3World_Restore(w, snap, n));
        CHECK(m3World_Hash(w) == h);
        free(snap);
        m3WorldDef def = m3DefaultWorldDef();
        m3WorldId other;
        expect(m3World_CreateVersioned(&def, M3_ABI_VERSION + 1, &other), m3_errorVersion,
               "m3World_CreateVersioned (another ABI version)");
        CHECK(m3World_GetMisuseCount(w) == misuse);
    }

    /* Busy: calls from inside the world's hooks, and the step lands where a twin whose
     * hooks call nothing lands. */
    printf("calls from inside hooks:\n");
    {
        Probe twin_pre = {{0, 0}, {0, 0, {0, 0}}, 0, 0, m3_success};
        m3BodyId twin_ball;
        m3WorldId twin = make_world(m3DefaultWorldDef(), &twin_ball, &twin_pre, 0);
        CALL(m3World_Step(twin, 1.0f / 60.0f, 4));
        /* Bring w back to the twin's state: same calls. */
        CALL(m3World_Destroy(w));
        pre.calls = 0;
        w = make_world(m3DefaultWorldDef(), &ball, &pre, 0);
        pre.world = w;
        pre.body = ball;
        CALL(m3World_Step(w, 1.0f / 60.0f, 4));
        CHECK(m3World_Hash(w) == m3World_Hash(twin));
        pre.probe = 1;
        const uint64_t before = m3World_GetMisuseCount(w);
        CALL(m3World_Step(w, 1.0f / 60.0f, 4));
        CALL(m3World_Step(twin, 1.0f / 60.0f, 4));
        CHECK(pre.calls > 0);
        expect(pre.seen, m3_errorBusy, "pre-solve callback: m3Body_SetLinearVelocity, m3World_Hash");
        CHECK(m3World_Hash(w) == m3World_Hash(twin));
        CHECK(m3World_GetMisuseCount(w) > before);
        CALL(m3World_Destroy(twin));
    }
    {
        Probe tasks = {{0, 0}, {0, 0, {0, 0}}, 0, 0, m3_success};
        Probe quiet = {{0, 0}, {0, 0, {0, 0}}, 0, 0, m3_success};
        Probe none1 = {{0, 0}, {0, 0, {0, 0}}, 0, 0, m3_success};
        Probe none2 = {{0, 0}, {0, 0, {0, 0}}, 0, 0, m3_success};
        m3WorldDef def = m3DefaultWorldDef();
        def.enqueueTask = task_enqueue;
        def.finishTask = task_finish;
        /* Two workers: with one the step has nothing to share, and its passes run
           inline without asking the host. */
        def.workerCount = 2;
        def.userTaskContext = &tasks;
        m3BodyId b1, b2;
        m3WorldId t1 = make_world(def, &b1, &none1, 200);
        def.userTaskContext = &quiet;
        m3WorldId t2 = make_world(def, &b2, &none2, 200);
        tasks.world = t1;
        tasks.probe = 1;
        CALL(m3World_Step(t1, 1.0f / 60.0f, 4));
        CALL(m3World_Step(t2, 1.0f / 60.0f, 4));
        CHECK(tasks.calls > 0);
        expect(tasks.seen, m3_errorBusy, "enqueueTask: m3World_Step, m3World_Destroy");
        CHECK(m3World_Hash(t1) == m3World_Hash(t2));
        CHECK(m3World_IsValid(t1));
        CALL(m3World_Destroy(t1));
        CALL(m3World_Destroy(t2));
    }
    {
        m3WorldDef def = m3DefaultWorldDef();
        def.allocFcn = probe_alloc;
        def.freeFcn = probe_free;
        def.allocContext = &alloc_probe;
        Probe none = {{0, 0}, {0, 0, {0, 0}}, 0, 0, m3_success};
        m3BodyId b;
        m3WorldId a = make_world(def, &b, &none, 0);
        const uint64_t ha = m3World_Hash(a);
        alloc_probe.world = a;
        alloc_probe.body = b;
        alloc_probe.probe = 1;
        uint8_t t[256];
        CALL(m3World_StartJournal(a, t, sizeof t)); /* takes the tape from the allocator */
        alloc_probe.probe = 0;
        CHECK(alloc_probe.calls > 0);
        expect(alloc_probe.seen, m3_errorBusy, "allocator: m3Body_ApplyForceToCenter");
        CHECK(m3World_Hash(a) == ha);
        int64_t len = 0;
        CALL(m3World_StopJournal(a, &len));
        CALL(m3World_Destroy(a));
    }
    {
        Probe draw = {{0, 0}, {0, 0, {0, 0}}, 1, 0, m3_success};
        m3DebugDraw dd = m3DefaultDebugDraw();
        dd.shapeFcn = draw_shape;
        dd.context = &draw;
        const uint64_t hw = m3World_Hash(w);
        CALL(m3World_Draw(w, &dd));
        CHECK(draw.calls == 2);
        expect(draw.seen, m3_errorBusy, "debug draw: m3Body_Destroy");
        CHECK(m3World_Hash(w) == hw);
    }
    CALL(m3World_Destroy(w));

    for (int c = 1; c <= 8; ++c) {
        if (!codes_seen[c]) {
            fprintf(stderr, "FAIL: error code %d was never provoked\n", c);
            return 1;
        }
    }
    printf("errors: every error code provoked; hashes unchanged; misuse counted\n");
    return 0;
}
