/* A small pthread task system for the m3 task hooks: `workerCount` threads, each with
 * its own worker index; enqueueTask splits the range into pieces the workers take, and
 * finishTask waits for them. The stepping thread only waits, so no two pieces ever share
 * a worker index. In the odd floating-point mode the workers run rounding upward with
 * flush-to-zero, and check that each task hands their mode back unchanged. */
#ifndef M3_TEST_POOL_H
#define M3_TEST_POOL_H

#include "common.h"

#include <pthread.h>
#include <stdint.h>

#define M3T_MAX_WORKERS 8

typedef struct m3tJob {
    m3TaskCallback task;
    void *context;
    uint32_t count, piece, next, pieces, done;
    struct m3tJob *link;
} m3tJob;

typedef struct m3tPool {
    pthread_t threads[M3T_MAX_WORKERS];
    int workerCount;
    pthread_mutex_t lock;
    pthread_cond_t work, finished;
    m3tJob *jobs; /* jobs with pieces left to hand out */
    int stop;
    int odd;
    uint64_t piecesRun;
} m3tPool;

typedef struct {
    m3tPool *pool;
    uint32_t index;
} m3tWorkerArg;

static m3tWorkerArg m3t_args[M3T_MAX_WORKERS];

static void *m3t_worker(void *p)
{
    m3tWorkerArg *arg = (m3tWorkerArg *)p;
    m3tPool *pool = arg->pool;
    if (pool->odd) {
        fesetround(FE_UPWARD);
        m3t_set_ftz(1);
    }
    pthread_mutex_lock(&pool->lock);
    for (;;) {
        while (!pool->stop && pool->jobs == NULL)
            pthread_cond_wait(&pool->work, &pool->lock);
        if (pool->stop)
            break;
        m3tJob *job = pool->jobs;
        uint32_t i = job->next++;
        if (job->next == job->pieces)
            pool->jobs = job->link; /* every piece handed out */
        pthread_mutex_unlock(&pool->lock);
        uint32_t start = i * job->piece;
        uint32_t end = start + job->piece < job->count ? start + job->piece : job->count;
        job->task(start, end, arg->index, job->context);
        if (pool->odd && (fegetround() != FE_UPWARD || m3t_ftz_bits() != M3T_FTZ_ON)) {
            fprintf(stderr, "FAIL: a task changed its worker's floating-point mode\n");
            exit(1);
        }
        pthread_mutex_lock(&pool->lock);
        pool->piecesRun++;
        if (++job->done == job->pieces)
            pthread_cond_broadcast(&pool->finished);
    }
    pthread_mutex_unlock(&pool->lock);
    return NULL;
}

static void m3t_pool_start(m3tPool *pool, int workerCount, int odd)
{
    pool->workerCount = workerCount;
    pool->jobs = NULL;
    pool->stop = 0;
    pool->odd = odd;
    pool->piecesRun = 0;
    pthread_mutex_init(&pool->lock, NULL);
    pthread_cond_init(&pool->work, NULL);
    pthread_cond_init(&pool->finished, NULL);
    for (int i = 0; i < workerCount; ++i) {
        m3t_args[i].pool = pool;
        m3t_args[i].index = (uint32_t)i;
        pthread_attr_t attr;
        pthread_attr_init(&attr);
        pthread_attr_setstacksize(&attr, 256 * 1024);
        pthread_create(&pool->threads[i], &attr, m3t_worker, &m3t_args[i]);
        pthread_attr_destroy(&attr);
    }
}

static void m3t_pool_stop(m3tPool *pool)
{
    pthread_mutex_lock(&pool->lock);
    pool->stop = 1;
    pthread_cond_broadcast(&pool->work);
    pthread_mutex_unlock(&pool->lock);
    for (int i = 0; i < pool->workerCount; ++i)
        pthread_join(pool->threads[i], NULL);
    pthread_mutex_destroy(&pool->lock);
    pthread_cond_destroy(&pool->work);
    pthread_cond_destroy(&pool->finished);
}

static void *m3t_enqueue(m3TaskCallback task, uint32_t itemCount, uint32_t minRange,
                         void *taskContext, void *userContext)
{
    m3tPool *pool = (m3tPool *)userContext;
    if (itemCount == 0)
        return NULL;
    /* About two pieces per worker, none below minRange items. */
    uint32_t want = (uint32_t)pool->workerCount * 2u;
    uint32_t piece = (itemCount + want - 1) / want;
    if (piece < minRange)
        piece = minRange;
    if (piece == 0)
        piece = 1;
    m3tJob *job = (m3tJob *)malloc(sizeof *job);
    job->task = task;
    job->context = taskContext;
    job->count = itemCount;
    job->piece = piece;
    job->next = 0;
    job->pieces = (itemCount + piece - 1) / piece;
    job->done = 0;
    job->link = NULL;
    pthread_mutex_lock(&pool->lock);
    m3tJob **tail = &pool->jobs;
    while (*tail)
        tail = &(*tail)->link;
    *tail = job;
    pthread_cond_broadcast(&pool->work);
    pthread_mutex_unlock(&pool->lock);
    return job;
}

static void m3t_finish(void *userTask, void *userContext)
{
    m3tPool *pool = (m3tPool *)userContext;
    m3tJob *job = (m3tJob *)userTask;
    pthread_mutex_lock(&pool->lock);
    while (job->done < job->pieces)
        pthread_cond_wait(&pool->finished, &pool->lock);
    pthread_mutex_unlock(&pool->lock);
    free(job);
}

#endif
