/* Rollback-aware journals through the C ABI: restoring a snapshot the running journal
 * took rewinds the tape in the host's buffer; any other snapshot while a journal runs is
 * m3_errorState naming the journal. 50 random rollbacks of 1-8 steps during a recording
 * leave the tape of a session that made only the surviving calls, byte for byte, and it
 * replays to the world's hash. */
#include "common.h"

#include <string.h>

#define MAX_BODIES 48
#define MAX_FRAMES 4096
#define MAX_CALLS 65536
#define TAPE_BYTES (1 << 22)

/* A ground box and six boxes. */
static m3WorldId make_world(void)
{
    m3WorldDef def = m3DefaultWorldDef();
    def.bodyCapacity = 64;
    def.shapeCapacity = 64;
    m3WorldId w;
    CALL(m3World_Create(&def, &w));
    m3BodyDef bd = m3DefaultBodyDef();
    bd.position.y = -1.0;
    m3BodyId ground;
    CALL(m3Body_Create(w, &bd, &ground));
    m3ShapeDef sd = m3DefaultShapeDef();
    m3Box gb = {{20.0f, 1.0f, 20.0f}, {0.0f, 0.0f, 0.0f}, {0.0f, 0.0f, 0.0f, 1.0f}};
    m3ShapeId s;
    CALL(m3CreateBoxShape(ground, &sd, &gb, &s));
    for (int i = 0; i < 6; ++i) {
        bd = m3DefaultBodyDef();
        bd.type = m3_dynamicBody;
        bd.position.x = 0.9 * (double)(i % 3) - 0.9;
        bd.position.y = 0.5 + (double)(i / 3);
        m3BodyId b;
        CALL(m3Body_Create(w, &bd, &b));
        m3Box bx = {{0.4f, 0.4f, 0.4f}, {0.0f, 0.0f, 0.0f}, {0.0f, 0.0f, 0.0f, 1.0f}};
        CALL(m3CreateBoxShape(b, &sd, &bx, &s));
    }
    return w;
}

static uint64_t rng = 0x5eed;
static uint64_t next(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}
static float unit(void) { return (float)(next() >> 40) / 16777216.0f * 2.0f - 1.0f; }

/* One call of a session; bodies by slot and generation, so another world can make it. */
typedef enum { SPAWN, IMPULSE, VELOCITY, DESTROY, GRAVITY, STEP } Kind;
typedef struct {
    Kind kind;
    uint32_t index, generation;
    m3Vec3 v;
    int n;
} Call;

/* The bodies a session made (and has not destroyed): what calls pick from. */
typedef struct {
    int count;
    uint32_t index[MAX_BODIES], generation[MAX_BODIES];
} Bodies;

static void make(m3WorldId w, const Call *c, Bodies *bodies)
{
    m3BodyId b = {c->index, c->generation, w};
    /* A refused call is part of the session too: no tape records it. */
    switch (c->kind) {
    case SPAWN: {
        m3BodyDef bd = m3DefaultBodyDef();
        bd.type = m3_dynamicBody;
        bd.position.x = (double)c->v.x;
        bd.position.y = 3.0;
        m3BodyId made;
        if (m3Body_Create(w, &bd, &made) == m3_success) {
            m3ShapeDef sd = m3DefaultShapeDef();
            m3Box bx = {{c->v.y, c->v.y, c->v.y}, {0.0f, 0.0f, 0.0f}, {0.0f, 0.0f, 0.0f, 1.0f}};
            m3ShapeId s;
            (void)m3CreateBoxShape(made, &sd, &bx, &s);
            if (bodies && bodies->count < MAX_BODIES) {
                bodies->index[bodies->count] = made.index;
                bodies->generation[bodies->count++] = made.generation;
            }
        }
        break;
    }
    case IMPULSE:
        (void)m3Body_ApplyLinearImpulseToCenter(b, c->v);
        break;
    case VELOCITY:
        (void)m3Body_SetLinearVelocity(b, c->v);
        break;
    case DESTROY:
        (void)m3Body_Destroy(b);
        if (bodies) {
            for (int i = 0; i < bodies->count; ++i) {
                if (bodies->index[i] == c->index && bodies->generation[i] == c->generation) {
                    bodies->index[i] = bodies->index[bodies->count - 1];
                    bodies->generation[i] = bodies->generation[--bodies->count];
                    break;
                }
            }
        }
        break;
    case GRAVITY:
        (void)m3World_SetGravity(w, c->v);
        break;
    case STEP:
        CALL(m3World_Step(w, 1.0f / 60.0f, c->n));
        break;
    }
}

/* The calls of one frame: up to three random calls, then a step. */
static int frame(const Bodies *bodies, Call *out)
{
    int n = 0;
    int extra = (int)(next() % 4);
    for (int i = 0; i < extra; ++i) {
        Call c;
        memset(&c, 0, sizeof c);
        c.kind = (Kind)(next() % 5);
        if (bodies->count > 0) {
            int k = (int)(next() % (uint64_t)bodies->count);
            c.index = bodies->index[k];
            c.generation = bodies->generation[k];
        }
        c.v = (m3Vec3){unit() * 2.0f, 0.25f + 0.1f * (float)(next() % 3), unit()};
        if (c.kind == GRAVITY)
            c.v.y = -9.81f;
        out[n++] = c;
    }
    Call step;
    memset(&step, 0, sizeof step);
    step.kind = STEP;
    step.n = 1 + (int)(next() % 4);
    out[n++] = step;
    return n;
}

static uint8_t *snapshot_of(m3WorldId w, int64_t *len)
{
    CALL(m3World_GetSnapshotSize(w, len));
    uint8_t *buf = (uint8_t *)malloc((size_t)*len);
    int64_t written = 0;
    CALL(m3World_Snapshot(w, buf, *len, &written));
    CHECK(written == *len);
    return buf;
}

/* A restore that must be refused: m3_errorState naming the journal, nothing changed. */
static void refused(m3WorldId w, const uint8_t *snap, int64_t len, const char *what)
{
    uint64_t before = m3World_Hash(w);
    m3Result r = m3World_Restore(w, snap, len);
    const char *msg = m3GetLastErrorMessage();
    if (r != m3_errorState || msg == NULL || strstr(msg, "journal") == NULL) {
        fprintf(stderr, "FAIL: restore of %s returned %d (%s)\n", what, (int)r, msg ? msg : "");
        exit(1);
    }
    CHECK(m3World_Hash(w) == before);
}

typedef struct {
    uint8_t *snap;
    int64_t len;
    int calls;
    Bodies bodies;
} Frame;

static Call surviving[MAX_CALLS];
static Frame history[MAX_FRAMES];

static void rollbacks(void)
{
    m3WorldId w = make_world();
    int64_t startLen = 0;
    uint8_t *start = snapshot_of(w, &startLen);
    uint8_t *tape = (uint8_t *)malloc(TAPE_BYTES);
    CALL(m3World_StartJournal(w, tape, TAPE_BYTES));
    Bodies bodies = {0, {0}, {0}};
    int frames = 0, calls = 0, count = 0, rolled = 0;
    while (rolled < 50) {
        if (frames >= 8 && next() % 10 == 0) {
            int back = 1 + (int)(next() % 8); /* 1-8 steps */
            int to = frames - back;
            int64_t nowLen = 0;
            uint8_t *now = snapshot_of(w, &nowLen);
            CALL(m3World_Restore(w, history[to].snap, history[to].len));
            calls = history[to].calls;
            bodies = history[to].bodies;
            /* The world just left lies on a branch the tape was rewound past. */
            refused(w, now, nowLen, "a snapshot from a rewound branch");
            if (back > 1)
                refused(w, history[frames - 1].snap, history[frames - 1].len,
                        "an abandoned frame's snapshot");
            free(now);
            for (int f = to; f < frames; ++f)
                free(history[f].snap);
            frames = to;
            rolled++;
        }
        CHECK(frames < MAX_FRAMES && calls + 4 < MAX_CALLS);
        history[frames].snap = snapshot_of(w, &history[frames].len);
        history[frames].calls = calls;
        history[frames].bodies = bodies;
        frames++;
        Call batch[4];
        int n = frame(&bodies, batch);
        for (int i = 0; i < n; ++i) {
            make(w, &batch[i], &bodies);
            surviving[calls++] = batch[i];
        }
        count++;
    }
    int64_t tapeLen = 0;
    CALL(m3World_StopJournal(w, &tapeLen));

    /* A session that made only the surviving calls: the same tape, byte for byte. */
    m3WorldId straight = make_world();
    uint8_t *straightTape = (uint8_t *)malloc(TAPE_BYTES);
    CALL(m3World_StartJournal(straight, straightTape, TAPE_BYTES));
    for (int i = 0; i < calls; ++i)
        make(straight, &surviving[i], NULL);
    int64_t straightLen = 0;
    CALL(m3World_StopJournal(straight, &straightLen));
    CHECK(straightLen == tapeLen);
    CHECK(memcmp(straightTape, tape, (size_t)tapeLen) == 0);
    CHECK(m3World_Hash(straight) == m3World_Hash(w));

    /* The replay verifies with the world's hash. */
    int64_t size = m3GetEncodedReplaySize(startLen, tapeLen);
    uint8_t *container = (uint8_t *)malloc((size_t)size);
    int64_t written = 0;
    CALL(m3EncodeReplay(start, startLen, tape, tapeLen, m3World_Hash(w), container, size,
                        &written));
    m3ReplayView view;
    CALL(m3DecodeReplay(container, written, &view));
    m3WorldDef def;
    CALL(m3DefFromSnapshot(view.snapshot, view.snapshotSize, &def));
    m3WorldId verifier;
    CALL(m3World_Create(&def, &verifier));
    CALL(m3World_Restore(verifier, view.snapshot, view.snapshotSize));
    CALL(m3World_ReplayJournal(verifier, view.tape, view.tapeSize));
    CHECK(m3World_Hash(verifier) == view.finalHash);
    printf("rollback: %d frames made, 50 rollbacks dropped %d, %d frames (%d calls) survive; "
           "tape of %lld bytes equal to the straight session's, replay verified\n",
           count, count - frames, frames, calls, (long long)tapeLen);

    for (int f = 0; f < frames; ++f)
        free(history[f].snap);
    CALL(m3World_Destroy(verifier));
    CALL(m3World_Destroy(straight));
    CALL(m3World_Destroy(w));
    free(container);
    free(straightTape);
    free(tape);
    free(start);
}

/* The other snapshots a running journal refuses, and a journal's snapshot with none
 * running. */
static void refusals(void)
{
    m3WorldId w = make_world();
    int64_t beforeLen = 0;
    uint8_t *before = snapshot_of(w, &beforeLen);
    uint8_t *tape = (uint8_t *)malloc(1 << 16);
    CALL(m3World_StartJournal(w, tape, 1 << 16));
    int64_t firstLen = 0;
    uint8_t *first = snapshot_of(w, &firstLen);
    CALL(m3World_Step(w, 1.0f / 60.0f, 4));
    uint64_t stepped = m3World_Hash(w);
    int64_t midLen = 0;
    uint8_t *mid = snapshot_of(w, &midLen);
    refused(w, before, beforeLen, "a snapshot taken before the journal started");

    /* Another journal of the same world, on the same state and tape offset. */
    int64_t len = 0;
    CALL(m3World_StopJournal(w, &len));
    CALL(m3World_Restore(w, before, beforeLen)); /* no journal runs: just restores */
    CALL(m3World_StartJournal(w, tape, 1 << 16));
    refused(w, first, firstLen, "a snapshot of the world's previous journal");
    CALL(m3World_StopJournal(w, &len));
    CHECK(len == 16);

    /* With no journal running, a journal's snapshot just restores, here and elsewhere. */
    CALL(m3World_Restore(w, mid, midLen));
    CHECK(m3World_Hash(w) == stepped);
    m3WorldId other = make_world();
    CALL(m3World_Restore(other, mid, midLen));
    CHECK(m3World_Hash(other) == stepped);
    printf("rollback: refused a snapshot from before the journal and one from another "
           "journal; restored a journal's snapshot with none running\n");
    CALL(m3World_Destroy(other));
    CALL(m3World_Destroy(w));
    free(mid);
    free(first);
    free(before);
    free(tape);
}

int main(void)
{
    rollbacks();
    refusals();
    return 0;
}
