/* Worlds and threads through the C ABI (SPEC.md, "Threads"):
 * - four worlds stepped on four threads at once land on the bits of the same worlds
 *   stepped one after the other (the pile, joints, cylinders and meshes scenes' per-step
 *   hashes of test/hashes.txt);
 * - between steps, four threads read one world at once (hash, queries, snapshot size,
 *   getters) and none is refused: readers share the state word. */
#include "scenes.h"

#include <pthread.h>

typedef struct {
    int scene;
    uint64_t hashes[STEPS];
} Run;

/* The scene globals of scenes.h (world, ids, snapshot) are per program; each thread here
 * builds and steps its own world through them under a lock for the calls between steps,
 * and steps without it, so the steps run at once. */
static pthread_mutex_t build_lock = PTHREAD_MUTEX_INITIALIZER;

static void *run_scene(void *p)
{
    Run *r = (Run *)p;
    m3WorldDef base = m3DefaultWorldDef();
    pthread_mutex_lock(&build_lock);
    m3WorldDef def = scene_def(r->scene, &base);
    CALL(m3World_Create(&def, &world));
    m3WorldId mine = world;
    populate(r->scene);
    pthread_mutex_unlock(&build_lock);
    for (int s = 0; s < STEPS; ++s) {
        pthread_mutex_lock(&build_lock);
        world = mine;
        before_step(r->scene, s);
        pthread_mutex_unlock(&build_lock);
        CALL(m3World_Step(mine, 1.0f / 60.0f, 4));
        r->hashes[s] = m3World_Hash(mine);
    }
    CALL(m3World_Destroy(mine));
    return NULL;
}

typedef struct {
    m3WorldId world;
    uint64_t expect;
    int refusals;
} Reader;

static void *read_world(void *p)
{
    Reader *r = (Reader *)p;
    m3QueryFilter qf = m3DefaultQueryFilter();
    for (int i = 0; i < 2000; ++i) {
        if (m3World_Hash(r->world) != r->expect)
            r->refusals++;
        m3RayResult ray;
        if (m3World_CastRayClosest(r->world, (m3DVec3){0.0, 10.0, 0.0},
                                   (m3Vec3){0.0f, -20.0f, 0.0f}, qf, &ray) != m3_success ||
            !ray.hit)
            r->refusals++;
        int64_t size = 0;
        if (m3World_GetSnapshotSize(r->world, &size) != m3_success || size <= 0)
            r->refusals++;
        m3Counters c;
        if (m3World_GetCounters(r->world, &c) != m3_success)
            r->refusals++;
    }
    return NULL;
}

static uint64_t expected_hash(const char *scene, int step)
{
    FILE *f = fopen("test/hashes.txt", "r");
    CHECK(f != NULL);
    char name[64];
    int s;
    unsigned long long h;
    uint64_t found = 0;
    while (fscanf(f, "%63s %d %llx", name, &s, &h) == 3) {
        if (strcmp(name, scene) == 0 && s == step) {
            found = h;
            break;
        }
    }
    fclose(f);
    return found;
}

int main(void)
{
    static Run runs[4] = {{1, {0}}, {5, {0}}, {6, {0}}, {7, {0}}};
    pthread_t t[4];
    for (int i = 0; i < 4; ++i)
        pthread_create(&t[i], NULL, run_scene, &runs[i]);
    for (int i = 0; i < 4; ++i)
        pthread_join(t[i], NULL);
    for (int i = 0; i < 4; ++i)
        for (int s = 0; s < STEPS; ++s)
            CHECK(runs[i].hashes[s] == expected_hash(SCENES[runs[i].scene], s + 1));
    printf("threads: %s, %s, %s and %s stepped on four threads at once print "
           "test/hashes.txt\n",
           SCENES[1], SCENES[5], SCENES[6], SCENES[7]);

    m3WorldDef base = m3DefaultWorldDef();
    m3WorldDef def = scene_def(0, &base);
    CALL(m3World_Create(&def, &world));
    populate(0);
    for (int s = 0; s < 10; ++s)
        CALL(m3World_Step(world, 1.0f / 60.0f, 4));
    Reader readers[4];
    for (int i = 0; i < 4; ++i) {
        readers[i].world = world;
        readers[i].expect = m3World_Hash(world);
        readers[i].refusals = 0;
        pthread_create(&t[i], NULL, read_world, &readers[i]);
    }
    for (int i = 0; i < 4; ++i) {
        pthread_join(t[i], NULL);
        CHECK(readers[i].refusals == 0);
    }
    CHECK(m3World_GetMisuseCount(world) == 0);
    CALL(m3World_Destroy(world));
    printf("threads: 4 threads read one world at once (2000 rounds each of hash, ray, snapshot "
           "size and counters), none refused\n");
    return 0;
}
