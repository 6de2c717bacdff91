/* The replay player through the C ABI (m3ReplayPlayer_*):
 *   replay DEMO HASHES OTHER STEP DIFFERING
 * DEMO a replay file, HASHES its `m3replay hashes` output ("step hash" lines, step 0
 * optional: matched by step number), OTHER a second recording of the same capacities,
 * STEP and DIFFERING what `m3replay diff DEMO OTHER` prints ("part at step STEP",
 * "DIFFERING bodies differ").
 * Checks: every step's hash by seeking in order, stepping forward and back, seeks in a
 * scrambled order on a player with other keyframes; verify; bodies and debug draw at a
 * step (ids of no table world); damaged copies refused with m3_errorFormat, nothing
 * made; bad arguments refused with m3_errorArgument (or m3_errorInvalidId for ids) and
 * the player unchanged; diff against OTHER and against itself. */
#include "common.h"

#include <stdint.h>
#include <string.h>

static uint8_t *read_file(const char *path, int64_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "FAIL: cannot open %s\n", path);
        exit(1);
    }
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *b = malloc((size_t)n + 1);
    CHECK(b && fread(b, 1, (size_t)n, f) == (size_t)n);
    fclose(f);
    *len = n;
    return b;
}

/* Expected hashes by step; have[s] says whether HASHES has a line for step s. */
static uint64_t *want;
static unsigned char *have;

static void read_hashes(const char *path, uint64_t steps)
{
    FILE *f = fopen(path, "r");
    CHECK(f != NULL);
    want = calloc(steps + 1, sizeof *want);
    have = calloc(steps + 1, 1);
    unsigned long long s, h;
    uint64_t lines = 0;
    while (fscanf(f, "%llu %llx", &s, &h) == 2) {
        CHECK(s <= steps);
        want[s] = h;
        have[s] = 1;
        lines++;
    }
    fclose(f);
    for (uint64_t i = 1; i <= steps; i++) CHECK(have[i]);
    CHECK(lines == steps || lines == steps + 1);
}

static uint64_t hash_of(const m3ReplayPlayer *p)
{
    uint64_t h = 0;
    CALL(m3ReplayPlayer_GetHash(p, &h));
    return h;
}

static uint64_t step_of(const m3ReplayPlayer *p)
{
    uint64_t s = 0;
    CALL(m3ReplayPlayer_GetCurrentStep(p, &s));
    return s;
}

#define REFUSED(code, x)                                                                  \
    do {                                                                                  \
        m3Result r_ = (x);                                                                \
        if (r_ != (code)) {                                                               \
            fprintf(stderr, "%s:%d: %s returned %d, not %s\n", __FILE__, __LINE__, #x,   \
                    (int)r_, #code);                                                      \
            exit(1);                                                                      \
        }                                                                                 \
        CHECK(m3GetLastErrorMessage()[0] != '\0');                                        \
    } while (0)

/* Debug draw: counts shapes, keeps the body ids, and tries to move the player. */
typedef struct {
    m3ReplayPlayer *player;
    int shapes;
    int busy;
    int foreign;
    m3BodyId body;
} DrawSeen;

static void draw_shape(m3ShapeId shape, m3BodyId body, m3DVec3 position, m3Quat rotation,
                       const m3DebugShape *geometry, bool awake, void *context)
{
    (void)position, (void)rotation, (void)geometry, (void)awake;
    DrawSeen *d = context;
    d->shapes++;
    d->body = body;
    if (shape.world.index != 0 || body.world.index != 0 || body.index == 0) d->foreign++;
    if (m3ReplayPlayer_Seek(d->player, 0) == m3_errorBusy) d->busy++;
}

int main(int argc, char **argv)
{
    if (argc != 6) {
        fprintf(stderr, "usage: replay DEMO HASHES OTHER STEP DIFFERING\n");
        return 2;
    }
    int64_t len = 0, other_len = 0;
    uint8_t *file = read_file(argv[1], &len);
    uint8_t *other = read_file(argv[3], &other_len);
    uint64_t part_step = strtoull(argv[4], NULL, 10);
    int part_differing = atoi(argv[5]);

    m3ReplayPlayer *p = NULL;
    CALL(m3ReplayPlayer_Open(file, len, &p));
    CHECK(p != NULL);
    uint64_t steps = 0, every = 0;
    CALL(m3ReplayPlayer_GetStepCount(p, &steps));
    CALL(m3ReplayPlayer_GetKeyframeEvery(p, &every));
    CHECK(steps > 0 && every >= 1);
    read_hashes(argv[2], steps);
    CHECK(step_of(p) == 0);
    uint64_t start_hash = hash_of(p);
    if (have[0]) CHECK(start_hash == want[0]);
    want[0] = start_hash;

    /* Every step by seeking, in order. */
    for (uint64_t s = 0; s <= steps; s++) {
        CALL(m3ReplayPlayer_Seek(p, s));
        CHECK(step_of(p) == s);
        if (hash_of(p) != want[s]) {
            fprintf(stderr, "FAIL: seek %llu: hash %016llx, m3replay %016llx\n",
                    (unsigned long long)s, (unsigned long long)hash_of(p),
                    (unsigned long long)want[s]);
            return 1;
        }
    }
    /* Forward past the end, then back to 0 step by step. */
    bool moved = true;
    CALL(m3ReplayPlayer_StepForward(p, &moved));
    CHECK(!moved && step_of(p) == steps);
    for (uint64_t s = steps; s > 0; s--) {
        CALL(m3ReplayPlayer_StepBack(p, &moved));
        CHECK(moved && step_of(p) == s - 1 && hash_of(p) == want[s - 1]);
    }
    CALL(m3ReplayPlayer_StepBack(p, &moved));
    CHECK(!moved && step_of(p) == 0);
    for (uint64_t s = 1; s <= steps; s++) {
        CALL(m3ReplayPlayer_StepForward(p, &moved));
        CHECK(moved && hash_of(p) == want[s]);
    }

    /* Scrambled seeks, on this player and on a fresh one with other keyframes, indexed
       ahead 10 steps a call first (the current step stays at 0). */
    m3ReplayPlayer *q = NULL;
    CALL(m3ReplayPlayer_OpenWith(file, len, 7, &q));
    CALL(m3ReplayPlayer_GetKeyframeEvery(q, &every));
    CHECK(every == 7);
    uint64_t through = 0;
    CALL(m3ReplayPlayer_GetIndexedThrough(q, &through));
    CHECK(through == 6);
    bool done = false;
    int calls = 0;
    while (!done) {
        CALL(m3ReplayPlayer_IndexAhead(q, 10, &done));
        calls++;
        CHECK(step_of(q) == 0 && hash_of(q) == want[0]);
    }
    CALL(m3ReplayPlayer_GetIndexedThrough(q, &through));
    CHECK(through == steps && calls == (int)((steps + 9) / 10));
    REFUSED(m3_errorArgument, m3ReplayPlayer_IndexAhead(q, 0, &done));
    REFUSED(m3_errorArgument, m3ReplayPlayer_IndexAhead(q, 10, NULL));
    uint32_t lcg = 12345;
    for (int i = 0; i < 400; i++) {
        lcg = lcg * 1664525u + 1013904223u;
        uint64_t s = (lcg >> 8) % (steps + 1);
        CALL(m3ReplayPlayer_Seek(q, s));
        CALL(m3ReplayPlayer_Seek(p, steps - s));
        CHECK(hash_of(q) == want[s] && step_of(q) == s);
        CHECK(hash_of(p) == want[steps - s]);
    }

    /* Verify: the recorded final hash, replayed. */
    uint64_t recorded = 0, replayed = 1, stored = 2;
    CALL(m3ReplayPlayer_Verify(q, &recorded, &replayed));
    CALL(m3ReplayPlayer_GetRecordedFinalHash(q, &stored));
    CHECK(recorded == replayed && recorded == stored);
    CHECK(step_of(q) == steps && hash_of(q) == want[steps]);

    /* Bodies and debug draw at a middle step: the rows agree with GetBody, and their ids
     * name no table world (m3Body_* refuses them). */
    uint64_t mid = steps / 2;
    CALL(m3ReplayPlayer_Seek(p, mid));
    int32_t count = 0, got = 0;
    CALL(m3ReplayPlayer_GetBodies(p, NULL, 0, &count));
    CHECK(count > 0);
    m3ReplayBody *bodies = malloc(sizeof *bodies * (size_t)count);
    CALL(m3ReplayPlayer_GetBodies(p, bodies, count, &got));
    CHECK(got == count);
    int dynamic = 0;
    for (int32_t i = 0; i < count; i++) {
        m3ReplayBody one;
        CALL(m3ReplayPlayer_GetBody(p, bodies[i].id, &one));
        CHECK(memcmp(&one.position, &bodies[i].position, sizeof one.position) == 0);
        CHECK(memcmp(&one.rotation, &bodies[i].rotation, sizeof one.rotation) == 0);
        CHECK(bodies[i].id.world.index == 0 && bodies[i].id.index != 0);
        if (bodies[i].type == m3_dynamicBody) dynamic++;
    }
    CHECK(dynamic > 0);
    m3DVec3 pos;
    REFUSED(m3_errorInvalidId, m3Body_GetPosition(bodies[0].id, &pos));
    DrawSeen seen = {p, 0, 0, 0, {0, 0, {0, 0}}};
    m3DebugDraw draw = m3DefaultDebugDraw();
    draw.shapeFcn = draw_shape;
    draw.context = &seen;
    CALL(m3ReplayPlayer_Draw(p, &draw));
    CHECK(seen.shapes >= count && seen.busy == seen.shapes && seen.foreign == 0);
    CHECK(step_of(p) == mid && hash_of(p) == want[mid]);
    m3ReplayBody drawn;
    CALL(m3ReplayPlayer_GetBody(p, seen.body, &drawn));
    /* The bodies move between two steps some way apart. */
    CALL(m3ReplayPlayer_Seek(p, mid / 2));
    int32_t moved_bodies = 0;
    for (int32_t i = 0; i < count; i++) {
        m3ReplayBody then;
        if (m3ReplayPlayer_GetBody(p, bodies[i].id, &then) != m3_success) continue;
        if (memcmp(&then.position, &bodies[i].position, sizeof then.position) != 0) moved_bodies++;
    }
    CHECK(moved_bodies > 0);

    /* Damaged copies: refused as damaged data, nothing made, *player untouched. */
    uint8_t *bad = malloc((size_t)len);
    int flips = 0;
    for (int64_t at = 0; at < len; at += len / 13 + 1) {
        memcpy(bad, file, (size_t)len);
        bad[at] ^= 0x10;
        m3ReplayPlayer *none = (m3ReplayPlayer *)bad; /* any value: it must stay */
        REFUSED(m3_errorFormat, m3ReplayPlayer_Open(bad, len, &none));
        CHECK(none == (m3ReplayPlayer *)bad);
        REFUSED(m3_errorFormat, m3ReplayPlayer_OpenWith(bad, len, 5, &none));
        flips++;
    }
    REFUSED(m3_errorFormat, m3ReplayPlayer_Open(file, len - 1, &(m3ReplayPlayer *){NULL}));
    REFUSED(m3_errorFormat, m3ReplayPlayer_Open(file, 0, &(m3ReplayPlayer *){NULL}));

    /* Bad arguments: m3_errorArgument (ids: m3_errorInvalidId), the player unchanged. */
    CALL(m3ReplayPlayer_Seek(p, mid));
    uint64_t h_mid = hash_of(p);
    m3ReplayPlayer *none = NULL;
    REFUSED(m3_errorArgument, m3ReplayPlayer_Open(NULL, len, &none));
    REFUSED(m3_errorArgument, m3ReplayPlayer_Open(file, -1, &none));
    REFUSED(m3_errorArgument, m3ReplayPlayer_Open(file, len, NULL));
    REFUSED(m3_errorArgument, m3ReplayPlayer_OpenWith(file, len, 0, &none));
    CHECK(strstr(m3GetLastErrorMessage(), "keyframeEvery = 0") != NULL);
    CHECK(none == NULL);
    REFUSED(m3_errorArgument, m3ReplayPlayer_Seek(p, steps + 1));
    CHECK(strstr(m3GetLastErrorMessage(), "step = ") != NULL);
    REFUSED(m3_errorArgument, m3ReplayPlayer_Seek(p, UINT64_MAX));
    REFUSED(m3_errorArgument, m3ReplayPlayer_Seek(NULL, 0));
    REFUSED(m3_errorArgument, m3ReplayPlayer_StepForward(p, NULL));
    REFUSED(m3_errorArgument, m3ReplayPlayer_StepBack(p, NULL));
    REFUSED(m3_errorArgument, m3ReplayPlayer_StepForward(NULL, &moved));
    REFUSED(m3_errorArgument, m3ReplayPlayer_Verify(p, NULL, &replayed));
    REFUSED(m3_errorArgument, m3ReplayPlayer_Verify(p, &recorded, NULL));
    REFUSED(m3_errorArgument, m3ReplayPlayer_GetHash(p, NULL));
    REFUSED(m3_errorArgument, m3ReplayPlayer_GetHash(NULL, &recorded));
    REFUSED(m3_errorArgument, m3ReplayPlayer_GetStepCount(p, NULL));
    REFUSED(m3_errorArgument, m3ReplayPlayer_GetCurrentStep(p, NULL));
    REFUSED(m3_errorArgument, m3ReplayPlayer_GetRecordedFinalHash(p, NULL));
    REFUSED(m3_errorArgument, m3ReplayPlayer_GetKeyframeEvery(p, NULL));
    REFUSED(m3_errorArgument, m3ReplayPlayer_GetBodies(p, NULL, 4, &count));
    REFUSED(m3_errorArgument, m3ReplayPlayer_GetBodies(p, bodies, -1, &count));
    REFUSED(m3_errorArgument, m3ReplayPlayer_GetBodies(p, bodies, 1, NULL));
    REFUSED(m3_errorArgument, m3ReplayPlayer_GetBody(p, bodies[0].id, NULL));
    REFUSED(m3_errorArgument, m3ReplayPlayer_Draw(p, NULL));
    m3ReplayBody row;
    m3BodyId null_id = {0, 0, {0, 0}};
    REFUSED(m3_errorInvalidId, m3ReplayPlayer_GetBody(p, null_id, &row));
    m3BodyId foreign = bodies[0].id;
    foreign.world.index = 1;
    foreign.world.generation = 1;
    REFUSED(m3_errorInvalidId, m3ReplayPlayer_GetBody(p, foreign, &row));
    m3BodyId stale = bodies[0].id;
    stale.generation += 1000;
    REFUSED(m3_errorInvalidId, m3ReplayPlayer_GetBody(p, stale, &row));
    m3ReplayParting parting;
    m3BodyDiff rows[8];
    REFUSED(m3_errorArgument, m3ReplayPlayer_Diff(p, p, rows, 8, &parting));
    REFUSED(m3_errorArgument, m3ReplayPlayer_Diff(p, NULL, rows, 8, &parting));
    REFUSED(m3_errorArgument, m3ReplayPlayer_Diff(p, q, NULL, 8, &parting));
    REFUSED(m3_errorArgument, m3ReplayPlayer_Diff(p, q, rows, 8, NULL));
    REFUSED(m3_errorArgument, m3ReplayPlayer_Destroy(NULL));
    CHECK(step_of(p) == mid && hash_of(p) == h_mid);

    /* Diff against the other recording: the step and body count m3replay prints. */
    m3ReplayPlayer *b = NULL;
    CALL(m3ReplayPlayer_Open(other, other_len, &b));
    CALL(m3ReplayPlayer_Diff(p, b, rows, 8, &parting));
    CHECK(parting.kind == m3_replaysPart);
    if (parting.step != part_step || parting.differing != part_differing) {
        fprintf(stderr, "FAIL: diff parts at step %llu with %d bodies, m3replay: %llu with %d\n",
                (unsigned long long)parting.step, parting.differing,
                (unsigned long long)part_step, part_differing);
        return 1;
    }
    CHECK(parting.hashA == want[part_step] && parting.hashA != parting.hashB);
    CHECK(parting.stepsA == steps);
    CHECK(parting.rowCount == (parting.differing < 8 ? parting.differing : 8));
    for (int i = 1; i < parting.rowCount; i++) CHECK(rows[i - 1].positionError >= rows[i].positionError);
    CHECK(step_of(p) == part_step);
    /* Counting only (no rows), then the demo against itself in a second player. */
    CALL(m3ReplayPlayer_Diff(p, b, NULL, 0, &parting));
    CHECK(parting.kind == m3_replaysPart && parting.step == part_step && parting.rowCount == 0);
    CALL(m3ReplayPlayer_Diff(q, p, rows, 8, &parting));
    CHECK(parting.kind == m3_replaysAgree && parting.step == steps && parting.differing == 0);
    CHECK(parting.hashA == want[steps] && parting.hashB == want[steps]);

    CALL(m3ReplayPlayer_Destroy(b));
    CALL(m3ReplayPlayer_Destroy(q));
    CALL(m3ReplayPlayer_Destroy(p));
    free(bad);
    free(bodies);
    free(want);
    free(have);
    free(file);
    free(other);
    printf("replay: %llu steps seeked in order, back and forward, 400 scrambled seeks: hashes equal "
           "to m3replay hashes; verify ok; %d bodies read at step %llu; %d damaged copies refused; "
           "diff parts at step %llu with %d differing bodies, as m3replay diff says\n",
           (unsigned long long)steps, count, (unsigned long long)mid, flips,
           (unsigned long long)part_step, part_differing);
    return 0;
}
