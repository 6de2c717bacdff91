/* The C snippets of the seeds (shared/seeds/000_*.txt and 002_*.txt), verbatim inside
 * functions that give them the worlds they name, and checks that they behave as the
 * seeds say. */
#include "common.h"

#include <string.h>

/* A small scene: a ground box and a stack of spheres and boxes. */
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
    for (int i = 0; i < 8; ++i) {
        bd = m3DefaultBodyDef();
        bd.type = m3_dynamicBody;
        bd.position.x = 0.125 * (double)(i % 2);
        bd.position.y = 0.5 + 1.25 * (double)i;
        m3BodyId b;
        CALL(m3Body_Create(w, &bd, &b));
        if (i % 2 == 0) {
            m3Sphere sp = {{0.0f, 0.0f, 0.0f}, 0.5f};
            CALL(m3CreateSphereShape(b, &sd, &sp, &s));
        } else {
            m3Box bx = {{0.5f, 0.5f, 0.5f}, {0.0f, 0.0f, 0.0f}, {0.0f, 0.0f, 0.0f, 1.0f}};
            CALL(m3CreateBoxShape(b, &sd, &bx, &s));
        }
    }
    return w;
}

/* Seed 000: hash and compare. */
static void seed_000(m3WorldId worldA, m3WorldId worldB, int expectEqual)
{
    uint64_t hashA = m3World_Hash(worldA);
    uint64_t hashB = m3World_Hash(worldB);
    m3BodyDiff rows[8];
    int32_t differing = 0;
    m3Result result = m3World_Compare(worldA, worldB, rows, 8, &differing);

    CHECK(result == m3_success);
    CHECK(hashA != 0 && hashB != 0);
    if (expectEqual) {
        CHECK(hashA == hashB);
        CHECK(differing == 0);
    } else {
        CHECK(hashA != hashB);
        CHECK(differing > 0);
        /* Worst first. */
        for (int32_t i = 1; i < differing && i < 8; ++i)
            CHECK(rows[i - 1].positionError >= rows[i].positionError);
    }
}

/* Seed 002: journal 60 steps, replay into a twin built the same way. */
static void seed_002(m3WorldId world, m3WorldId twin)
{
    uint8_t tape[4096];
    m3Result result = m3World_StartJournal(world, tape, sizeof tape);
    for (int32_t i = 0; i < 60; ++i)
    {
    (void)m3World_Step(world, 1.0f / 60.0f, 4);
    }
    int64_t tapeBytes = 0;
    if (result == m3_success)
    {
    result = m3World_StopJournal(world, &tapeBytes);
    }

    if (result == m3_success)
    {
    result = m3World_ReplayJournal(twin, tape, tapeBytes);
    }

    CHECK(result == m3_success);
    CHECK(tapeBytes > 16 && tapeBytes <= (int64_t)sizeof tape);
    CHECK(m3World_Hash(twin) == m3World_Hash(world));
    m3JournalInfo info;
    CALL(m3DescribeJournal(tape, tapeBytes, &info));
    CHECK(info.steps == 60);
    CHECK(info.records == 60);

    /* The replay container: snapshot of the twin's start, the tape, the final hash. */
    m3WorldId start = make_world();
    int64_t snapLen = 0;
    CALL(m3World_GetSnapshotSize(start, &snapLen));
    uint8_t *snap = (uint8_t *)malloc((size_t)snapLen);
    int64_t written = 0;
    CALL(m3World_Snapshot(start, snap, snapLen, &written));
    int64_t size = m3GetEncodedReplaySize(snapLen, tapeBytes);
    CHECK(size == 64 + snapLen + tapeBytes);
    uint8_t *container = (uint8_t *)malloc((size_t)size);
    CALL(m3EncodeReplay(snap, snapLen, tape, tapeBytes, m3World_Hash(world), container, size,
                        &written));
    CHECK(written == size);
    m3ReplayView view;
    CALL(m3DecodeReplay(container, size, &view));
    CHECK(view.snapshotSize == snapLen && view.tapeSize == tapeBytes && view.steps == 60);
    /* Verify as a verifier in another process would. */
    m3WorldDef def;
    CALL(m3DefFromSnapshot(view.snapshot, view.snapshotSize, &def));
    CHECK(def.bodyCapacity == 64);
    m3WorldId verifier;
    CALL(m3World_Create(&def, &verifier));
    CALL(m3World_Restore(verifier, view.snapshot, view.snapshotSize));
    CALL(m3World_ReplayJournal(verifier, view.tape, view.tapeSize));
    CHECK(m3World_Hash(verifier) == view.finalHash);
    /* One flipped bit of the container is refused as damaged. */
    container[size / 2] ^= 4;
    CHECK(m3DecodeReplay(container, size, &view) == m3_errorFormat);
    CALL(m3World_Destroy(verifier));
    CALL(m3World_Destroy(start));
    free(container);
    free(snap);
}

int main(void)
{
    m3WorldId a = make_world();
    m3WorldId b = make_world();
    seed_000(a, b, 1);
    for (int i = 0; i < 30; ++i)
        CALL(m3World_Step(a, 1.0f / 60.0f, 4));
    seed_000(a, b, 0);
    CALL(m3World_Destroy(a));
    CALL(m3World_Destroy(b));

    m3WorldId world = make_world();
    m3WorldId twin = make_world();
    seed_002(world, twin);
    CALL(m3World_Destroy(world));
    CALL(m3World_Destroy(twin));
    printf("seeds: 000 (hash, compare) and 002 (journal, replay, container) behave as written\n");
    return 0;
}
