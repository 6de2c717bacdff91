/* Soft bodies through the m3 C ABI, against measured figures:
 *
 *   cloth      a 16 x 16 cloth pinned at two corners hangs and settles: the pins stay
 *              put, no particle below y_pin - 1.1 x its rest distance to the nearer pin,
 *              the lowest well below the pins, all but still after 10 s
 *   buffers    the positions buffers (doubles, and floats around an origin) hold what
 *              the per-particle getters give, bit for bit; a short buffer gets its
 *              prefix and the full count, nothing past it
 *   balls      a volume ball and a pressure ball rest on a box floor keeping their
 *              volume (within 5 %), their bottom on the floor
 *   attach     a cloth corner attached to a dynamic box holds it up; detached, the box
 *              falls
 *   refusals   bad input of each call refused with its code and a message naming the
 *              value, the world's hash unchanged
 *   ignore     a cloth that ignores a static box falls through it onto the floor, one
 *              that does not rests on it; the list reads back, survives a snapshot; a
 *              ninth body, bad and foreign ids refused, the hash unchanged
 *   snapshot   a world with a cloth on a box and a ball: restored mid-run it continues on
 *              the same hashes, in place and in a fresh world built from the snapshot's
 *              def
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
    def.contactCapacity = 256;
    def.pairCapacity = 256;
    def.softBodyCapacity = 4;
    def.softParticleCapacity = 2048;
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

static void box(m3BodyId b, float density, m3Vec3 half)
{
    m3ShapeDef sd = m3DefaultShapeDef();
    sd.density = density;
    m3Box x = {half, {0.0f, 0.0f, 0.0f}, IDENTITY};
    m3ShapeId s;
    CALL(m3CreateBoxShape(b, &sd, &x, &s));
}

/* A floor whose top is y = 0. */
static void floor_body(m3WorldId w)
{
    m3BodyId g = body(w, m3_staticBody, dv(0.0, -1.0, 0.0));
    box(g, 1000.0f, v3(20.0f, 1.0f, 20.0f));
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

/* ---- meshes ---- */

#define MAX_V 1024
#define MAX_T 2048

/* A square cloth of n x n vertices, `size` wide, in its frame's xz plane (vertex i + n j
 * at x = i, z = j), two triangles per cell: the core tests' grid. */
static void grid(int n, float size, m3Vec3 *v, int32_t *nv, uint32_t *t, int32_t *nt)
{
    const float step = size / (float)(n - 1);
    *nv = 0;
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < n; ++i)
            v[(*nv)++] = v3((float)i * step - 0.5f * size, 0.0f, (float)j * step - 0.5f * size);
    *nt = 0;
    for (int j = 0; j < n - 1; ++j) {
        for (int i = 0; i < n - 1; ++i) {
            uint32_t a = (uint32_t)(i + n * j), b = a + 1, c = a + (uint32_t)n, d = c + 1;
            uint32_t *p = t + 3 * *nt;
            p[0] = a, p[1] = c, p[2] = b;
            p[3] = b, p[4] = c, p[5] = d;
            *nt += 2;
        }
    }
}

/* A closed ball: an octahedron subdivided `levels` times, its new vertices pushed out to
 * the unit sphere with the library's m3Normalize, then scaled by `radius`; outward
 * wound. The core tests' ball, vertex for vertex. */
static uint32_t edge_a[MAX_T], edge_b[MAX_T], edge_mid[MAX_T];
static int edge_n;
static uint32_t midpoint(uint32_t a, uint32_t b, m3Vec3 *v, int32_t *nv)
{
    uint32_t lo = a < b ? a : b, hi = a < b ? b : a;
    for (int k = 0; k < edge_n; ++k)
        if (edge_a[k] == lo && edge_b[k] == hi)
            return edge_mid[k];
    volatile float x = (v[a].x + v[b].x) * 0.5f;
    volatile float y = (v[a].y + v[b].y) * 0.5f;
    volatile float z = (v[a].z + v[b].z) * 0.5f;
    VALUE(v[*nv], m3Normalize(v3(x, y, z)));
    edge_a[edge_n] = lo, edge_b[edge_n] = hi, edge_mid[edge_n] = (uint32_t)*nv;
    edge_n++;
    return (uint32_t)(*nv)++;
}

static void ball(float radius, int levels, m3Vec3 *v, int32_t *nv, uint32_t *t, int32_t *nt)
{
    static const m3Vec3 corners[6] = {{1, 0, 0}, {-1, 0, 0}, {0, 1, 0},
                                      {0, -1, 0}, {0, 0, 1}, {0, 0, -1}};
    static const uint32_t faces[24] = {0, 2, 4, 2, 1, 4, 1, 3, 4, 3, 0, 4,
                                       2, 0, 5, 1, 2, 5, 3, 1, 5, 0, 3, 5};
    static uint32_t next[3 * MAX_T];
    memcpy(v, corners, sizeof corners);
    *nv = 6;
    memcpy(t, faces, sizeof faces);
    *nt = 8;
    for (int l = 0; l < levels; ++l) {
        edge_n = 0;
        int32_t m = 0;
        for (int32_t k = 0; k < *nt; ++k) {
            uint32_t a = t[3 * k], b = t[3 * k + 1], c = t[3 * k + 2];
            uint32_t ab = midpoint(a, b, v, nv);
            uint32_t bc = midpoint(b, c, v, nv);
            uint32_t ca = midpoint(c, a, v, nv);
            const uint32_t four[12] = {a, ab, ca, ab, b, bc, ca, bc, c, ab, bc, ca};
            memcpy(next + 3 * m, four, sizeof four);
            m += 4;
        }
        memcpy(t, next, (size_t)m * 3 * sizeof *t);
        *nt = m;
    }
    for (int32_t k = 0; k < *nv; ++k)
        v[k] = v3(v[k].x * radius, v[k].y * radius, v[k].z * radius);
}

static m3SoftBodyId create(m3WorldId w, const m3Vec3 *v, int32_t nv, const uint32_t *t,
                           int32_t nt, m3DVec3 at, m3SoftBodySettings s)
{
    m3SoftBodyDef def = m3DefaultSoftBodyDef();
    def.vertices = v;
    def.vertexCount = nv;
    def.indices = t;
    def.triangleCount = nt;
    def.position = at;
    def.settings = s;
    m3SoftBodyId id;
    CALL(m3World_CreateSoftBody(w, &def, &id));
    return id;
}

static m3Vec3 verts[MAX_V];
static uint32_t tris[3 * MAX_T];
static int32_t nverts, ntris;

static m3SoftBodyId cloth(m3WorldId w, int n, float size, m3DVec3 at, m3SoftBodySettings s)
{
    grid(n, size, verts, &nverts, tris, &ntris);
    return create(w, verts, nverts, tris, ntris, at, s);
}

/* ---- a hanging cloth ---- */

#define CLOTH_N 16
#define CLOTH_SIZE 1.5f
#define PIN_Y 3.0

static void cloth_hangs_and_settles(void)
{
    m3WorldId w = new_world();
    m3SoftBodySettings s = m3DefaultSoftBodySettings();
    CHECK(s.substeps == 8 && s.mass == 1.0f && !s.selfCollision);
    CHECK(fabsf(s.longRangeStretch - 1.1f) < 1e-6f && fabsf(s.particleRadius - 0.02f) < 1e-6f);
    s.damping = 1.0f;
    m3SoftBodyId c = cloth(w, CLOTH_N, CLOTH_SIZE, dv(0.0, PIN_Y, 0.0), s);
    const int pins[2] = {0, CLOTH_N - 1};
    for (int k = 0; k < 2; ++k)
        CALL(m3SoftBody_SetParticlePinned(c, pins[k], true));
    bool pinned;
    CALL(m3SoftBody_IsParticlePinned(c, pins[1], &pinned));
    CHECK(pinned);
    CALL(m3SoftBody_IsParticlePinned(c, 1, &pinned));
    CHECK(!pinned);
    int32_t n = 0;
    CALL(m3SoftBody_GetParticleCount(c, &n));
    CHECK(n == CLOTH_N * CLOTH_N);
    static m3DVec3 rest[CLOTH_N * CLOTH_N], now[CLOTH_N * CLOTH_N];
    CALL(m3SoftBody_GetPositions(c, rest, n, &n));
    CHECK(n == CLOTH_N * CLOTH_N);
    steps(w, 900);
    CALL(m3SoftBody_GetPositions(c, now, n, &n));
    for (int k = 0; k < 2; ++k)
        CHECK(memcmp(&now[pins[k]], &rest[pins[k]], sizeof rest[0]) == 0);
    double lowest = 1e9, worst = 1e9;
    float fastest = 0.0f;
    for (int i = 0; i < n; ++i) {
        double d = 1e9;
        for (int k = 0; k < 2; ++k) {
            double dx = rest[i].x - rest[pins[k]].x, dz = rest[i].z - rest[pins[k]].z;
            double e = sqrt(dx * dx + dz * dz);
            d = e < d ? e : d;
        }
        double bound = PIN_Y - 1.1 * d;
        if (d > 0.0 && now[i].y - bound < worst)
            worst = now[i].y - bound;
        if (now[i].y < lowest)
            lowest = now[i].y;
        m3Vec3 vel;
        CALL(m3SoftBody_GetParticleVelocity(c, i, &vel));
        float sp = sqrtf(vel.x * vel.x + vel.y * vel.y + vel.z * vel.z);
        fastest = sp > fastest ? sp : fastest;
    }
    float volume = -1.0f;
    CALL(m3SoftBody_GetVolume(c, &volume));
    m3DAABB b;
    CALL(m3SoftBody_GetBounds(c, &b));
    printf("cloth: 16x16 pinned at two corners, after 15 s the lowest particle at y %.4f "
           "(pins at %.1f), every free particle above its sag bound by at least %.4f m, fastest "
           "%.5f m/s, bounds y [%.4f, %.4f]\n",
           lowest, PIN_Y, worst, (double)fastest, b.lower.y, b.upper.y);
    CHECK(worst >= -1e-3);
    CHECK(lowest < PIN_Y - 0.5 * CLOTH_SIZE);
    CHECK(fastest < 0.05f);
    CHECK(volume == 0.0f); /* an open mesh */
    CHECK(b.lower.y <= lowest - 0.02 + 1e-6 && b.upper.y >= PIN_Y + 0.02 - 1e-6);

    /* The buffers hold what the getters give, bit for bit. */
    static m3Vec3 around[CLOTH_N * CLOTH_N + 1];
    const m3DVec3 origin = dv(0.25, PIN_Y, -0.5);
    CALL(m3SoftBody_GetPositionsFrom(c, origin, around, n, &n));
    CHECK(n == CLOTH_N * CLOTH_N);
    for (int i = 0; i < n; ++i) {
        m3DVec3 p;
        CALL(m3SoftBody_GetParticlePosition(c, i, &p));
        CHECK(memcmp(&p, &now[i], sizeof p) == 0);
        m3Vec3 f = v3((float)(p.x - origin.x), (float)(p.y - origin.y), (float)(p.z - origin.z));
        CHECK(memcmp(&f, &around[i], sizeof f) == 0);
    }
    /* A short buffer: its prefix, the full count, nothing past it. */
    m3Vec3 sentinel = v3(-7.0f, -7.0f, -7.0f);
    for (int i = 0; i < 11; ++i)
        around[i] = sentinel;
    int32_t count = 0;
    CALL(m3SoftBody_GetPositionsFrom(c, origin, around, 10, &count));
    CHECK(count == n);
    CHECK(memcmp(&around[10], &sentinel, sizeof sentinel) == 0);
    CHECK(memcmp(&around[9], &sentinel, sizeof sentinel) != 0);
    CALL(m3SoftBody_GetPositions(c, NULL, 0, &count));
    CHECK(count == n);
    /* The rest mesh comes back as created. */
    static m3Vec3 mv[CLOTH_N * CLOTH_N];
    static uint32_t mt[3 * 2 * (CLOTH_N - 1) * (CLOTH_N - 1)];
    int32_t mnv = 0, mnt = 0;
    CALL(m3SoftBody_GetMesh(c, NULL, 0, &mnv, NULL, 0, &mnt));
    CHECK(mnv == nverts && mnt == ntris);
    CALL(m3SoftBody_GetMesh(c, mv, mnv, &mnv, mt, mnt, &mnt));
    CHECK(memcmp(mv, verts, (size_t)mnv * sizeof *mv) == 0);
    CHECK(memcmp(mt, tris, (size_t)mnt * 3 * sizeof *mt) == 0);
    printf("buffers: %d positions as doubles and as floats around (0.25, 3, -0.5) equal the "
           "per-particle getters bit for bit; a 10-item buffer got 10 and the count %d; the "
           "mesh came back as created (%d vertices, %d triangles)\n",
           n, count, mnv, mnt);

    /* Freed, the pinned corner falls with the rest. */
    CALL(m3SoftBody_SetParticlePinned(c, pins[1], false));
    steps(w, 30);
    m3DVec3 p;
    CALL(m3SoftBody_GetParticlePosition(c, pins[1], &p));
    CHECK(p.y < PIN_Y - 0.1);
    m3SoftBodyId ids[4];
    CALL(m3World_GetSoftBodyIds(w, ids, 4, &count));
    CHECK(count == 1 && memcmp(&ids[0], &c, sizeof c) == 0);
    CALL(m3SoftBody_Destroy(c));
    CALL(m3World_GetSoftBodyIds(w, NULL, 0, &count));
    CHECK(count == 0);
    CALL(m3World_Destroy(w));
}

/* ---- balls on a floor ---- */

static m3SoftBodySettings ball_settings(void)
{
    m3SoftBodySettings s = m3DefaultSoftBodySettings();
    s.mass = 2.0f;
    s.volumeScale = 1.0f;
    s.edgeCompliance = 1e-4f;
    s.damping = 0.5f;
    return s;
}

/* Rests a ball of radius 0.5 on the floor for 5 s; returns the volume's change. */
static double ball_rests(const char *what, m3SoftBodySettings s)
{
    m3WorldId w = new_world();
    floor_body(w);
    ball(0.5f, 3, verts, &nverts, tris, &ntris);
    CHECK(nverts == 258 && ntris == 512);
    m3SoftBodyId id = create(w, verts, nverts, tris, ntris, dv(0.0, 1.5, 0.0), s);
    float rest;
    CALL(m3SoftBody_GetVolume(id, &rest));
    static m3DVec3 p[258];
    int32_t n;
    double lowest = 1e9;
    for (int k = 0; k < 300; ++k) {
        steps(w, 1);
        CALL(m3SoftBody_GetPositions(id, p, 258, &n));
        for (int i = 0; i < n; ++i)
            lowest = p[i].y < lowest ? p[i].y : lowest;
    }
    float v;
    CALL(m3SoftBody_GetVolume(id, &v));
    double bottom = 1e9;
    for (int i = 0; i < n; ++i)
        bottom = p[i].y < bottom ? p[i].y : bottom;
    double change = ((double)v - (double)rest) / (double)rest;
    printf("%s: rest volume %.5f m^3, resting %.5f m^3 (%+.2f %%), bottom %.4f m, lowest "
           "ever %.4f m\n",
           what, (double)rest, (double)v, 100.0 * change, bottom, lowest);
    CHECK(fabs(change) <= 0.05);
    CHECK(bottom >= 0.0 && bottom < 0.05);
    CHECK(lowest >= -0.01);
    CALL(m3World_Destroy(w));
    return change;
}

static void balls_keep_their_volume(void)
{
    ball_rests("volume ball", ball_settings());
    /* Gas at n R T = 50 Pa m^3 (about 100 Pa at rest) in rigid edges. */
    m3SoftBodySettings s = ball_settings();
    s.volumeScale = 0.0f;
    s.pressure = 50.0f;
    s.edgeCompliance = 0.0f;
    ball_rests("pressure ball", s);
}

/* ---- attached to a body ---- */

static void attached_corner_holds_a_box(void)
{
    m3WorldId w = new_world();
    m3SoftBodySettings s = m3DefaultSoftBodySettings();
    s.damping = 1.0f;
    m3SoftBodyId c = cloth(w, 8, 1.0f, dv(0.0, 3.0, 0.0), s);
    CALL(m3SoftBody_SetParticlePinned(c, 0, true));
    CALL(m3SoftBody_SetParticlePinned(c, 7, true));
    /* A 1 kg bar under the two far corners, attached at its top's ends; damped so the
     * pendulum it makes with the cloth settles. */
    m3BodyDef bd = m3DefaultBodyDef();
    bd.type = m3_dynamicBody;
    bd.position = dv(0.0, 2.9, 0.5);
    bd.linearDamping = 1.0f;
    bd.angularDamping = 1.0f;
    m3BodyId b;
    CALL(m3Body_Create(w, &bd, &b));
    box(b, 25.0f, v3(0.5f, 0.1f, 0.1f));
    CALL(m3SoftBody_AttachParticle(c, 56, b, v3(-0.5f, 0.1f, 0.0f)));
    CALL(m3SoftBody_AttachParticle(c, 63, b, v3(0.5f, 0.1f, 0.0f)));
    m3BodyId got;
    m3Vec3 local;
    CALL(m3SoftBody_GetParticleAttachment(c, 63, &got, &local));
    CHECK(memcmp(&got, &b, sizeof b) == 0 && local.x == 0.5f && local.y == 0.1f);
    CALL(m3SoftBody_GetParticleAttachment(c, 62, &got, &local));
    CHECK(got.index == 0 && local.x == 0.0f);
    steps(w, 480);
    m3DVec3 held;
    CALL(m3Body_GetPosition(b, &held));
    CALL(m3SoftBody_AttachParticle(c, 56, (m3BodyId){0, 0, {0, 0}}, v3(0, 0, 0)));
    CALL(m3SoftBody_AttachParticle(c, 63, (m3BodyId){0, 0, {0, 0}}, v3(0, 0, 0)));
    CALL(m3SoftBody_GetParticleAttachment(c, 63, &got, &local));
    CHECK(got.index == 0);
    steps(w, 30);
    m3DVec3 fell;
    CALL(m3Body_GetPosition(b, &fell));
    printf("attach: a 1 kg bar hung from two corners of a 1 m cloth pinned at the other two "
           "hangs under the pins at (y %.4f, z %.4f) after 8 s (started at (2.9, 0.5); the "
           "long-range bound keeps its top above 3 - 1.1 = 1.9, its centre above 1.8); "
           "detached it fell to %.3f in 0.5 s\n",
           held.y, held.z, fell.y);
    CHECK(held.y > 1.8 - 0.01 && held.y < 1.95);
    CHECK(fabs(held.z + 0.5) < 0.1);
    CHECK(fell.y < held.y - 0.8);
    /* Destroying the body detaches what hangs on it. */
    CALL(m3SoftBody_AttachParticle(c, 60, b, v3(0, 0, 0)));
    CALL(m3Body_Destroy(b));
    CALL(m3SoftBody_GetParticleAttachment(c, 60, &got, &local));
    CHECK(got.index == 0);
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
    m3SoftBodySettings s = m3DefaultSoftBodySettings();
    m3SoftBodyId c = cloth(w, 4, 1.0f, dv(0.0, 2.0, 0.0), s);
    CALL(m3SoftBody_SetParticlePinned(c, 0, true));
    m3BodyId dyn = body(w, m3_dynamicBody, dv(3.0, 1.0, 0.0));
    box(dyn, 100.0f, v3(0.2f, 0.2f, 0.2f));
    m3BodyId alien = body(other, m3_dynamicBody, dv(0, 0, 0));
    m3BodyId gone_b = body(w, m3_dynamicBody, dv(5.0, 1.0, 0.0));
    CALL(m3Body_Destroy(gone_b));
    m3SoftBodyId gone = cloth(w, 3, 1.0f, dv(0.0, 4.0, 0.0), s);
    CALL(m3SoftBody_Destroy(gone));
    m3SoftBodyId alien_soft = cloth(other, 3, 1.0f, dv(0.0, 4.0, 0.0), s);
    steps(w, 10);
    const uint64_t h = hash(w);
    const uint64_t misuse = m3World_GetMisuseCount(w);
    const m3SoftBodyId null_s = {0, 0, {0, 0}};
    const float nan = NAN;
    const double far = 1e12;
    grid(4, 1.0f, verts, &nverts, tris, &ntris);

    /* Create. */
    m3SoftBodyDef d = m3DefaultSoftBodyDef();
    d.vertices = verts, d.vertexCount = nverts, d.indices = tris, d.triangleCount = ntris;
    d.position = dv(0.0, 5.0, 0.0);
    m3SoftBodyId id;
    REFUSED(m3World_CreateSoftBody(w, NULL, &id), m3_errorArgument, "def");
    REFUSED(m3World_CreateSoftBody(w, &d, NULL), m3_errorArgument, "softBodyId");
    m3SoftBodyDef bad = m3DefaultSoftBodyDef();
    REFUSED(m3World_CreateSoftBody(w, &bad, &id), m3_errorArgument, "def.vertexCount = 0");
    bad = d;
    bad.vertexCount = -3;
    REFUSED(m3World_CreateSoftBody(w, &bad, &id), m3_errorArgument, "def.vertexCount = -3");
    bad = d;
    bad.vertices = NULL;
    REFUSED(m3World_CreateSoftBody(w, &bad, &id), m3_errorArgument, "def.vertices");
    bad = d;
    bad.indices = NULL;
    REFUSED(m3World_CreateSoftBody(w, &bad, &id), m3_errorArgument, "def.indices");
    bad = d;
    tris[4] = 16;
    REFUSED(m3World_CreateSoftBody(w, &bad, &id), m3_errorArgument, "vertex index 16");
    tris[4] = tris[3];
    REFUSED(m3World_CreateSoftBody(w, &bad, &id), m3_errorArgument, "three different");
    grid(4, 1.0f, verts, &nverts, tris, &ntris);
    verts[5].y = nan;
    REFUSED(m3World_CreateSoftBody(w, &bad, &id), m3_errorArgument, "soft vertex");
    verts[5].y = 2e5f;
    REFUSED(m3World_CreateSoftBody(w, &bad, &id), m3_errorArgument, "soft vertex");
    grid(4, 1.0f, verts, &nverts, tris, &ntris);
    bad.settings.substeps = 0;
    REFUSED(m3World_CreateSoftBody(w, &bad, &id), m3_errorArgument, "def.settings.substeps = 0");
    bad.settings.substeps = 65;
    REFUSED(m3World_CreateSoftBody(w, &bad, &id), m3_errorArgument, "[1, 64]");
    bad = d;
    bad.settings.mass = 0.0f;
    REFUSED(m3World_CreateSoftBody(w, &bad, &id), m3_errorArgument, "soft mass");
    bad = d;
    bad.settings.particleRadius = 0.0f;
    REFUSED(m3World_CreateSoftBody(w, &bad, &id), m3_errorArgument, "particle_radius");
    bad = d;
    bad.settings.longRangeStretch = 0.5f;
    REFUSED(m3World_CreateSoftBody(w, &bad, &id), m3_errorArgument, "long_range_stretch");
    bad = d;
    bad.settings.pressure = nan;
    REFUSED(m3World_CreateSoftBody(w, &bad, &id), m3_errorArgument, "soft pressure");
    bad = d;
    bad.position = dv(far, 0.0, 0.0);
    REFUSED(m3World_CreateSoftBody(w, &bad, &id), m3_errorOutOfBounds, "soft body position");
    bad = d;
    bad.rotation = (m3Quat){0.0f, 0.0f, 0.0f, 0.0f};
    REFUSED(m3World_CreateSoftBody(w, &bad, &id), m3_errorArgument, "rotation");

    /* Particles. */
    REFUSED(m3SoftBody_SetParticlePinned(c, -1, true), m3_errorArgument, "particle index = -1");
    REFUSED(m3SoftBody_SetParticlePinned(c, 16, true), m3_errorArgument, "[0, 16)");
    m3DVec3 p;
    REFUSED(m3SoftBody_GetParticlePosition(c, 99, &p), m3_errorArgument, "particle index = 99");
    REFUSED(m3SoftBody_GetParticlePosition(c, 3, NULL), m3_errorArgument, "output");
    REFUSED(m3SoftBody_SetParticlePosition(c, 3, dv(nan, 0, 0)), m3_errorArgument,
            "particle position");
    REFUSED(m3SoftBody_SetParticlePosition(c, 3, dv(0, far, 0)), m3_errorOutOfBounds,
            "particle position");
    REFUSED(m3SoftBody_SetParticleVelocity(c, 3, v3(0, 1e9f, 0)), m3_errorArgument,
            "particle velocity");
    REFUSED(m3SoftBody_ApplyParticleImpulse(c, 3, v3(nan, 0, 0)), m3_errorArgument, "impulse");
    REFUSED(m3SoftBody_ApplyImpulse(c, v3(0, INFINITY, 0)), m3_errorArgument, "impulse");
    bool pinned;
    REFUSED(m3SoftBody_IsParticlePinned(c, 16, &pinned), m3_errorArgument, "particle index");
    REFUSED(m3SoftBody_IsParticlePinned(c, 0, NULL), m3_errorArgument, "null pointer");
    m3Vec3 vel;
    REFUSED(m3SoftBody_GetParticleVelocity(gone, 0, &vel), m3_errorInvalidId, "soft body");

    /* The whole body. */
    REFUSED(m3SoftBody_SetTransform(c, dv(0, 2, 0), (m3Quat){0, 0, 0, 0}), m3_errorArgument,
            "rotation");
    REFUSED(m3SoftBody_SetTransform(c, dv(0, 0, -far), IDENTITY), m3_errorOutOfBounds,
            "soft body position");
    m3SoftBodySettings bs = s;
    bs.damping = -1.0f;
    REFUSED(m3SoftBody_SetSettings(c, bs), m3_errorArgument, "soft damping");
    bs = s;
    bs.substeps = -2;
    REFUSED(m3SoftBody_SetSettings(c, bs), m3_errorArgument, "settings.substeps = -2");
    bs = s;
    bs.volumeScale = 11.0f;
    REFUSED(m3SoftBody_SetSettings(c, bs), m3_errorArgument, "volume_scale");
    REFUSED(m3SoftBody_GetSettings(c, NULL), m3_errorArgument, "null pointer");

    /* Attachments. */
    REFUSED(m3SoftBody_AttachParticle(c, 5, alien, v3(0, 0, 0)), m3_errorInvalidId, "bodyId");
    REFUSED(m3SoftBody_AttachParticle(c, 5, gone_b, v3(0, 0, 0)), m3_errorInvalidId, "body");
    REFUSED(m3SoftBody_AttachParticle(c, 5, dyn, v3(nan, 0, 0)), m3_errorArgument, "local_point");
    REFUSED(m3SoftBody_AttachParticle(c, 5, dyn, v3(0, 2e6f, 0)), m3_errorArgument,
            "local_point");
    REFUSED(m3SoftBody_AttachParticle(c, -5, dyn, v3(0, 0, 0)), m3_errorArgument,
            "particle index");
    m3BodyId ab;
    REFUSED(m3SoftBody_GetParticleAttachment(c, 5, &ab, NULL), m3_errorArgument, "localPoint");

    /* Buffers. */
    m3DVec3 buf[4];
    m3Vec3 fbuf[4];
    int32_t n;
    REFUSED(m3SoftBody_GetPositions(c, buf, -1, &n), m3_errorArgument, "capacity = -1");
    REFUSED(m3SoftBody_GetPositions(c, NULL, 4, &n), m3_errorArgument, "positions");
    REFUSED(m3SoftBody_GetPositions(c, buf, 4, NULL), m3_errorArgument, "count");
    REFUSED(m3SoftBody_GetPositionsFrom(c, dv(0, far, 0), fbuf, 4, &n), m3_errorOutOfBounds,
            "origin");
    REFUSED(m3SoftBody_GetPositionsFrom(c, dv(nan, 0, 0), fbuf, 4, &n), m3_errorArgument,
            "origin");
    REFUSED(m3SoftBody_GetMesh(c, NULL, 2, &n, NULL, 0, &n), m3_errorArgument, "vertices");
    REFUSED(m3World_GetSoftBodyIds(w, NULL, 2, &n), m3_errorArgument, "ids");
    float vol;
    REFUSED(m3SoftBody_GetVolume(c, NULL), m3_errorArgument, "null pointer");
    REFUSED(m3SoftBody_GetBounds(gone, NULL), m3_errorArgument, "null pointer");

    /* Ids. */
    REFUSED(m3SoftBody_Destroy(gone), m3_errorInvalidId, "soft body");
    REFUSED(m3SoftBody_Destroy(null_s), m3_errorInvalidId, "null");
    REFUSED(m3SoftBody_GetVolume(null_s, &vol), m3_errorInvalidId, "null");
    REFUSED(m3SoftBody_ApplyImpulse(gone, v3(0, 1, 0)), m3_errorInvalidId, "soft body");
    REFUSED(m3SoftBody_SetFilter(gone, m3DefaultShapeDef().filter), m3_errorInvalidId,
            "soft body");
    CHECK(hash(w) == h);
    /* Every refusal on `w` counted as misuse; the two null ids name no world. */
    CHECK(m3World_GetMisuseCount(w) - misuse == (uint64_t)refusals - 2);
    /* Another world's soft body is that world's: a call through it leaves `w` alone. */
    CALL(m3SoftBody_ApplyImpulse(alien_soft, v3(0, 1, 0)));
    CHECK(hash(w) == h);

    /* Full pools and capacities. */
    m3WorldDef small = m3DefaultWorldDef();
    small.softBodyCapacity = 1;
    small.softParticleCapacity = 20;
    m3WorldId f;
    CALL(m3World_Create(&small, &f));
    m3SoftBodyId one = cloth(f, 4, 1.0f, dv(0, 1, 0), s);
    (void)one;
    const uint64_t hf = hash(f);
    grid(4, 1.0f, verts, &nverts, tris, &ntris);
    d.vertices = verts, d.vertexCount = nverts, d.indices = tris, d.triangleCount = ntris;
    REFUSED(m3World_CreateSoftBody(f, &d, &id), m3_errorCapacity, "");
    CHECK(hash(f) == hf);
    CALL(m3World_Destroy(f));
    small.softBodyCapacity = 4;
    CALL(m3World_Create(&small, &f));
    grid(5, 1.0f, verts, &nverts, tris, &ntris);
    d.vertices = verts, d.vertexCount = nverts, d.indices = tris, d.triangleCount = ntris;
    REFUSED(m3World_CreateSoftBody(f, &d, &id), m3_errorCapacity, "");
    CALL(m3World_Destroy(f));
    small = m3DefaultWorldDef();
    small.softBodyCapacity = 0;
    small.softParticleCapacity = 0;
    CALL(m3World_Create(&small, &f));
    grid(4, 1.0f, verts, &nverts, tris, &ntris);
    REFUSED(m3World_CreateSoftBody(f, &d, &id), m3_errorCapacity, "");
    CALL(m3World_Destroy(f));
    small = m3DefaultWorldDef();
    small.softParticleCapacity = -1;
    REFUSED(m3World_Create(&small, &f), m3_errorArgument, "softParticleCapacity = -1");
    small.softParticleCapacity = (1 << 22) + 1;
    REFUSED(m3World_Create(&small, &f), m3_errorArgument, "[0, 2^22]");
    small = m3DefaultWorldDef();
    small.softBodyCapacity = 70000;
    REFUSED(m3World_Create(&small, &f), m3_errorArgument, "softBodyCapacity = 70000");
    printf("refusals: %d bad calls refused with their codes and messages, hashes unchanged\n",
           refusals);
    CALL(m3World_Destroy(other));
    CALL(m3World_Destroy(w));
}

/* ---- snapshot and restore ---- */

/* ---- collision exceptions ---- */

/* The highest and lowest particle of a soft body. */
static void y_range(m3SoftBodyId c, double *low, double *high)
{
    static m3DVec3 p[MAX_V];
    int32_t n;
    CALL(m3SoftBody_GetPositions(c, p, MAX_V, &n));
    *low = 1e9, *high = -1e9;
    for (int i = 0; i < n; ++i) {
        if (p[i].y < *low) *low = p[i].y;
        if (p[i].y > *high) *high = p[i].y;
    }
}

static void ignored_box_lets_a_cloth_through(void)
{
    m3WorldId w = new_world();
    m3WorldId other = new_world();
    floor_body(w);
    /* Two static boxes whose tops are at y = 1, a cloth above each. */
    m3BodyId a = body(w, m3_staticBody, dv(-2.0, 0.5, 0.0));
    box(a, 1000.0f, v3(0.7f, 0.5f, 0.7f));
    m3BodyId b = body(w, m3_staticBody, dv(2.0, 0.5, 0.0));
    box(b, 1000.0f, v3(0.7f, 0.5f, 0.7f));
    m3SoftBodySettings s = m3DefaultSoftBodySettings();
    m3SoftBodyId through = cloth(w, 10, 1.0f, dv(-2.0, 1.4, 0.0), s);
    m3SoftBodyId resting = cloth(w, 10, 1.0f, dv(2.0, 1.4, 0.0), s);
    CALL(m3SoftBody_SetIgnoresBody(through, a, true));
    CALL(m3SoftBody_SetIgnoresBody(through, a, true)); /* twice: the same */
    CALL(m3SoftBody_SetIgnoresBody(resting, a, false)); /* not listed: nothing */
    m3BodyId got[M3_SOFT_BODY_EXCEPTIONS];
    int32_t n;
    CALL(m3SoftBody_GetIgnoredBodies(through, got, M3_SOFT_BODY_EXCEPTIONS, &n));
    CHECK(n == 1 && memcmp(&got[0], &a, sizeof a) == 0);
    CALL(m3SoftBody_GetIgnoredBodies(resting, NULL, 0, &n));
    CHECK(n == 0);
    steps(w, 150);
    double low_t, high_t, low_r, high_r;
    y_range(through, &low_t, &high_t);
    y_range(resting, &low_r, &high_r);
    printf("ignore: after 2.5 s the cloth ignoring its box (top at 1) lies at y in [%.3f, "
           "%.3f] (on the floor, top at 0), the other at [%.3f, %.3f] (on its box)\n",
           low_t, high_t, low_r, high_r);
    CHECK(low_t > 0.0 && high_t < 0.1);
    CHECK(low_r > 1.0 && high_r < 1.1);

    /* Kept by a snapshot: a fresh world restored from it lists the box. */
    int64_t size, written;
    CALL(m3World_GetSnapshotSize(w, &size));
    uint8_t *snap = (uint8_t *)malloc((size_t)size);
    CHECK(snap != NULL);
    CALL(m3World_Snapshot(w, snap, size, &written));
    m3WorldDef def;
    CALL(m3DefFromSnapshot(snap, written, &def));
    m3WorldId t;
    CALL(m3World_Create(&def, &t));
    CALL(m3World_Restore(t, snap, written));
    CHECK(hash(t) == hash(w));
    m3SoftBodyId ids[2];
    CALL(m3World_GetSoftBodyIds(t, ids, 2, &n));
    CHECK(n == 2);
    CALL(m3SoftBody_GetIgnoredBodies(ids[0], got, M3_SOFT_BODY_EXCEPTIONS, &n));
    CHECK(n == 1 && got[0].index == a.index && got[0].generation == a.generation);
    free(snap);
    CALL(m3World_Destroy(t));

    /* Refusals, nothing changed. */
    m3BodyId more[M3_SOFT_BODY_EXCEPTIONS];
    for (int k = 0; k < M3_SOFT_BODY_EXCEPTIONS; ++k) {
        more[k] = body(w, m3_staticBody, dv(-6.0 - 3.0 * k, 0.5, 6.0));
        box(more[k], 1000.0f, v3(0.5f, 0.5f, 0.5f));
    }
    for (int k = 0; k < M3_SOFT_BODY_EXCEPTIONS - 1; ++k)
        CALL(m3SoftBody_SetIgnoresBody(through, more[k], true));
    m3BodyId gone_b = body(w, m3_staticBody, dv(9.0, 1.0, 9.0));
    CALL(m3Body_Destroy(gone_b));
    m3SoftBodyId gone = cloth(w, 3, 1.0f, dv(0.0, 6.0, 0.0), s);
    CALL(m3SoftBody_Destroy(gone));
    m3BodyId alien = body(other, m3_staticBody, dv(0, 0, 0));
    const m3BodyId null_b = {0, 0, {0, 0}};
    const uint64_t h = hash(w);
    REFUSED(m3SoftBody_SetIgnoresBody(through, more[M3_SOFT_BODY_EXCEPTIONS - 1], true),
            m3_errorCapacity, "SOFT_BODY_EXCEPTIONS");
    REFUSED(m3SoftBody_SetIgnoresBody(through, null_b, true), m3_errorInvalidId, "null id");
    REFUSED(m3SoftBody_SetIgnoresBody(through, alien, true), m3_errorInvalidId,
            "belongs to world");
    REFUSED(m3SoftBody_SetIgnoresBody(through, gone_b, true), m3_errorInvalidId, "stale");
    REFUSED(m3SoftBody_SetIgnoresBody(gone, a, true), m3_errorInvalidId, "stale");
    REFUSED(m3SoftBody_GetIgnoredBodies(through, got, M3_SOFT_BODY_EXCEPTIONS, NULL),
            m3_errorArgument, "count");
    REFUSED(m3SoftBody_GetIgnoredBodies(through, NULL, 4, &n), m3_errorArgument, "ids");
    CHECK(hash(w) == h);
    /* A short buffer: its prefix and the whole count. */
    m3BodyId two[2];
    CALL(m3SoftBody_GetIgnoredBodies(through, two, 2, &n));
    CHECK(n == M3_SOFT_BODY_EXCEPTIONS && memcmp(&two[0], &a, sizeof a) == 0);
    CALL(m3World_Destroy(other));
    CALL(m3World_Destroy(w));
}

/* A frame: every 30 frames a push on the ball (the second soft body), found by the id
 * list as a fresh world finds it. */
static void run(m3WorldId w, int from, int n, uint64_t *hashes)
{
    for (int i = 0; i < n; ++i) {
        if ((from + i) % 30 == 0) {
            m3SoftBodyId ids[2];
            int32_t k;
            CALL(m3World_GetSoftBodyIds(w, ids, 2, &k));
            CHECK(k == 2);
            CALL(m3SoftBody_ApplyImpulse(ids[1], v3(0.5f, 2.0f, 0.0f)));
            CALL(m3SoftBody_ApplyParticleImpulse(ids[0], 10, v3(0.0f, 0.0f, 0.05f)));
        }
        steps(w, 1);
        hashes[i] = hash(w);
    }
}

static void snapshot_round_trip(void)
{
    m3WorldId w = new_world();
    floor_body(w);
    m3SoftBodySettings s = m3DefaultSoftBodySettings();
    s.damping = 0.5f;
    m3SoftBodyId c = cloth(w, 10, 1.2f, dv(-1.0, 2.5, 0.0), s);
    CALL(m3SoftBody_SetParticlePinned(c, 0, true));
    CALL(m3SoftBody_SetParticlePinned(c, 9, true));
    m3BodyId b = body(w, m3_dynamicBody, dv(-1.0, 1.8, 0.6));
    box(b, 200.0f, v3(0.15f, 0.15f, 0.15f));
    CALL(m3SoftBody_AttachParticle(c, 95, b, v3(0.0f, 0.15f, 0.0f)));
    ball(0.4f, 2, verts, &nverts, tris, &ntris);
    m3SoftBodySettings bs = ball_settings();
    bs.volumeScale = 0.0f;
    bs.pressure = 80.0f;
    bs.selfCollision = true;
    create(w, verts, nverts, tris, ntris, dv(1.0, 1.0, 0.0), bs);
    uint64_t warm[60];
    run(w, 0, 60, warm);

    int64_t size;
    CALL(m3World_GetSnapshotSize(w, &size));
    uint8_t *snap = (uint8_t *)malloc((size_t)size);
    CHECK(snap != NULL);
    int64_t written;
    CALL(m3World_Snapshot(w, snap, size, &written));
    const uint64_t h0 = hash(w);
    enum { N = 120 };
    uint64_t first[N], again[N], twin[N];
    run(w, 60, N, first);
    CHECK(first[N - 1] != h0);

    /* Rolled back in place. */
    CALL(m3World_Restore(w, snap, written));
    CHECK(hash(w) == h0);
    run(w, 60, N, again);
    CHECK(memcmp(first, again, sizeof first) == 0);

    /* A fresh world from the snapshot's def. */
    m3WorldDef def;
    CALL(m3DefFromSnapshot(snap, written, &def));
    CHECK(def.softBodyCapacity == 4 && def.softParticleCapacity == 2048);
    m3WorldId t;
    CALL(m3World_Create(&def, &t));
    CALL(m3World_Restore(t, snap, written));
    CHECK(hash(t) == h0);
    run(t, 60, N, twin);
    CHECK(memcmp(first, twin, sizeof first) == 0);
    /* A world without room for them refuses the snapshot, changing nothing. */
    m3WorldDef none = m3DefaultWorldDef();
    none.softBodyCapacity = 0;
    m3WorldId z;
    CALL(m3World_Create(&none, &z));
    const uint64_t hz = hash(z);
    m3Result r = m3World_Restore(z, snap, written);
    CHECK(r == m3_errorCapacity && hash(z) == hz);
    printf("snapshot: %lld bytes at step 60 with a pinned cloth holding a box and a "
           "self-colliding pressure ball; %d steps after restore (in place and in a fresh "
           "world) on equal hashes, last %016llx; a world of softBodyCapacity 0 refuses it "
           "(%d)\n",
           (long long)written, N, (unsigned long long)first[N - 1], (int)r);
    free(snap);
    CALL(m3World_Destroy(z));
    CALL(m3World_Destroy(t));
    CALL(m3World_Destroy(w));
}

int main(void)
{
    cloth_hangs_and_settles();
    balls_keep_their_volume();
    attached_corner_holds_a_box();
    bad_input_is_refused();
    ignored_box_lets_a_cloth_through();
    snapshot_round_trip();
    printf("soft: soft bodies through the C ABI passed\n");
    return 0;
}
