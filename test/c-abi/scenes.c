/* Prints the per-step hashes of the determinism scenes through the C ABI; see scenes.h. */
#include "pool.h"
#include "scenes.h"

int main(int argc, char **argv)
{
    int workers = 0;
    for (int i = 1; i < argc; ++i) {
        if (strcmp(argv[i], "--workers") == 0 && i + 1 < argc)
            workers = atoi(argv[++i]);
        else if (strcmp(argv[i], "--odd-fp") == 0)
            m3t_odd = 1;
        else {
            fprintf(stderr, "usage: scenes [--workers N] [--odd-fp]\n");
            return 2;
        }
    }
    static m3tPool pool;
    m3WorldDef base = m3DefaultWorldDef();
    if (workers > 0) {
        CHECK(workers <= M3T_MAX_WORKERS);
        m3t_pool_start(&pool, workers, m3t_odd);
        base.enqueueTask = m3t_enqueue;
        base.finishTask = m3t_finish;
        base.userTaskContext = &pool;
        base.workerCount = workers;
    }
    for (int scene = 0; scene < SCENE_COUNT; ++scene) {
        m3WorldDef def = scene_def(scene, &base);
        CALL(m3World_Create(&def, &world));
        populate(scene);
        for (int s = 0; s < STEPS; ++s) {
            before_step(scene, s);
            CALL(m3World_Step(world, 1.0f / 60.0f, 4));
            uint64_t h;
            VALUE(h, m3World_Hash(world));
            printf("%s %d %016llx\n", SCENES[scene], s + 1, (unsigned long long)h);
        }
        CALL(m3World_Destroy(world));
    }
    if (workers > 0) {
        if (pool.piecesRun == 0) {
            fprintf(stderr, "FAIL: the task system never ran a piece\n");
            return 1;
        }
        m3t_pool_stop(&pool);
        fprintf(stderr, "scenes: %d workers ran %llu pieces\n", workers,
                (unsigned long long)pool.piecesRun);
    }
    return 0;
}
