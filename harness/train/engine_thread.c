/* engine_thread.c — real backend of engine.h: a communication thread with a FIFO of
 * posted buckets; in device mode each bucket's fence, recorded at post, is waited for by the thread.
 * The queue is a ring of jobs (each bucket's reduction is posted once per step and, with full
 * sharding, its parameters' gather twice, so 3·nbuckets slots suffice); nothing is allocated per step. */
#include "engine.h"
#include "shard_step.h"
#include "compute.h"
#include "devmem.h"
#include "watchdog.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct engine {
    ddl_ctx *ctx;
    char *grads;              /* flat gradient buffer */
    ddl_dtype dtype;
    size_t esize;
    const bucket_plan *plan;
    kern_fence **fences;      /* [nbuckets] device mode (engine_use_fences), else NULL */
    pthread_t thread;
    pthread_mutex_t lock;
    pthread_cond_t posted;    /* the thread waits for work */
    pthread_cond_t drained;   /* the step waits for completion */
    int *queue;               /* [3 nbuckets] posted, not yet started: b, or -(b + 1) for b's gather */
    int qlen;                 /* its slots: a reduction and two gathers (forward, backward) per bucket */
    float **gdst;             /* [nbuckets] where each bucket's gather lands (engine_post_gather) */
    char **rbuf;              /* [nbuckets] where each bucket is reduced (engine_set_bucket_buf; NULL: grads) */
    int *rdone;               /* [nbuckets] bucket reduced this step (engine_wait_bucket) */
    int *gposted, *gdone;     /* [nbuckets] gathers of each bucket posted and done this step */
    int head, tail, queued;   /* FIFO state */
    int done;                 /* buckets finished this step */
    int posted_n;             /* buckets posted this step */
    int stop;                 /* ask the thread to exit */
    int rc;                   /* first error */
    char err[256];            /* its message */
    engine_stats stats;       /* this step */
    int sharded, ranks;       /* engine_set_shard */
};

int engine_thread_level(void) { return MPI_THREAD_SERIALIZED; }
int engine_default_poll_us(void) { return 50; }

static void run_bucket(engine *e, int b)
{
    const bucket *bk = &e->plan->buckets[b];
    char note[64];
    snprintf(note, sizeof note, "bucket %d (%.1f MB)", b, (double)(bk->count * e->esize) / 1e6);
    watchdog_note(note); /* the step's watchdog names the bucket in flight */
    /* the bucket's gradients are complete on the compute stream (a no-op off the GPU) */
    int frc = e->fences && kern_fence_wait(e->fences[b]);
    double t0 = MPI_Wtime();
    char *buf = e->rbuf[b] ? e->rbuf[b] : e->grads + bk->offset * e->esize;
    int rc = frc ? -1 : shard_bucket_reduce(e->ctx, buf, bk->count, e->dtype, e->sharded, e->ranks);
    double t1 = MPI_Wtime();
    watchdog_note(NULL);
    pthread_mutex_lock(&e->lock);
    if (rc && !e->rc) {
        e->rc = rc;
        snprintf(e->err, sizeof e->err, "bucket %d (%zu bytes): %s", b, bk->count * e->esize,
                 frc ? kern_dev_last_error() : ddl_last_error());
    }
    if (e->stats.buckets == 0) e->stats.first_start = t0;
    e->stats.last_end = t1;
    e->stats.busy_s += t1 - t0;
    e->stats.buckets++;
    e->done++, e->rdone[b] = 1;
    pthread_cond_broadcast(&e->drained);
    pthread_mutex_unlock(&e->lock);
}

/* Bucket b's parameters allgathered in place (engine_post_gather). */
static void run_gather(engine *e, int b)
{
    const bucket *bk = &e->plan->buckets[b];
    size_t c = e->ranks > 1 ? bk->count / (size_t)e->ranks : 0;
    double t0 = MPI_Wtime();
    int rc = c ? ddl_allgather(e->ctx, DDL_IN_PLACE, e->gdst[b], c, DDL_FLOAT32) : 0;
    double t1 = MPI_Wtime();
    pthread_mutex_lock(&e->lock);
    if (rc && !e->rc) {
        e->rc = rc;
        snprintf(e->err, sizeof e->err, "gather of bucket %d (%zu bytes): %s", b, c * 4, ddl_last_error());
    }
    if (c) e->stats.busy_s += t1 - t0;
    e->gdone[b]++;
    pthread_cond_broadcast(&e->drained);
    pthread_mutex_unlock(&e->lock);
}

static void *engine_main(void *arg)
{
    engine *e = arg;
    pthread_mutex_lock(&e->lock);
    for (;;) {
        while (!e->queued && !e->stop) pthread_cond_wait(&e->posted, &e->lock);
        if (e->stop) break;
        int b = e->queue[e->head];
        e->head = (e->head + 1) % e->qlen;
        e->queued--;
        int failed = e->rc != 0;
        pthread_mutex_unlock(&e->lock);
        if (!failed) {
            if (b >= 0) run_bucket(e, b);
            else run_gather(e, -b - 1);
        } else { /* after a failure, skip: the step reports the first error */
            pthread_mutex_lock(&e->lock);
            if (b >= 0) e->done++, e->rdone[b] = 1;
            else e->gdone[-b - 1]++;
            pthread_cond_broadcast(&e->drained);
            pthread_mutex_unlock(&e->lock);
        }
        pthread_mutex_lock(&e->lock);
    }
    pthread_mutex_unlock(&e->lock);
    return NULL;
}

int engine_create(ddl_ctx *ctx, void *grads, ddl_dtype dtype, const bucket_plan *plan, engine **out)
{
    engine *e = calloc(1, sizeof *e);
    *out = NULL;
    if (!e) return -1;
    e->ctx = ctx;
    e->grads = grads;
    e->dtype = dtype;
    e->esize = ddl_dtype_size(dtype);
    e->plan = plan;
    e->qlen = 3 * plan->nbuckets;
    e->queue = calloc((size_t)e->qlen, sizeof *e->queue);
    e->gposted = calloc((size_t)plan->nbuckets, sizeof *e->gposted);
    e->gdone = calloc((size_t)plan->nbuckets, sizeof *e->gdone);
    e->gdst = calloc((size_t)plan->nbuckets, sizeof *e->gdst);
    e->rbuf = calloc((size_t)plan->nbuckets, sizeof *e->rbuf);
    e->rdone = calloc((size_t)plan->nbuckets, sizeof *e->rdone);
    if (!e->queue || !e->gposted || !e->gdone || !e->gdst || !e->rbuf || !e->rdone) {
        free(e->queue), free(e->gposted), free(e->gdone), free(e->gdst), free(e->rbuf), free(e->rdone);
        free(e);
        return -1;
    }
    pthread_mutex_init(&e->lock, NULL);
    pthread_cond_init(&e->posted, NULL);
    pthread_cond_init(&e->drained, NULL);
    if (pthread_create(&e->thread, NULL, engine_main, e)) {
        free(e->queue), free(e->gposted), free(e->gdone), free(e->gdst), free(e->rbuf), free(e->rdone);
        free(e);
        return -1;
    }
    *out = e;
    return 0;
}

int engine_use_fences(engine *e)
{
    kern_fence **f = calloc((size_t)e->plan->nbuckets, sizeof *f);
    int rc = f ? 0 : -1;
    for (int b = 0; !rc && b < e->plan->nbuckets; b++) rc = kern_fence_create(&f[b]);
    pthread_mutex_lock(&e->lock);
    e->fences = f;
    pthread_mutex_unlock(&e->lock);
    return rc;
}

void engine_begin_step(engine *e)
{
    pthread_mutex_lock(&e->lock);
    memset(&e->stats, 0, sizeof e->stats);
    e->done = e->posted_n = 0;
    for (int b = 0; b < e->plan->nbuckets; b++) e->gposted[b] = e->gdone[b] = e->rdone[b] = 0;
    pthread_mutex_unlock(&e->lock);
}

int engine_set_framework(engine *e, const framework *fw)
{
    (void)e;
    return fw_ideal(fw) ? 0 : -1;
}

int engine_set_shard(engine *e, int sharded, int ranks)
{
    e->sharded = sharded, e->ranks = ranks;
    return 0;
}

int engine_post(engine *e, int b)
{
    if (b < 0 || b >= e->plan->nbuckets) return -1;
    if (e->fences && kern_fence_record(e->fences[b])) return -1; /* the bucket's gradients, in stream order */
    pthread_mutex_lock(&e->lock);
    e->queue[e->tail] = b;
    e->tail = (e->tail + 1) % e->qlen;
    e->queued++;
    e->posted_n++;
    pthread_cond_signal(&e->posted);
    pthread_mutex_unlock(&e->lock);
    return 0;
}

int engine_post_gather(engine *e, int b, float *dst)
{
    if (b < 0 || b >= e->plan->nbuckets) return -1;
    pthread_mutex_lock(&e->lock);
    int full = e->queued >= e->qlen;
    if (!full) {
        e->gdst[b] = dst;
        e->queue[e->tail] = -b - 1;
        e->tail = (e->tail + 1) % e->qlen;
        e->queued++;
        e->gposted[b]++;
        pthread_cond_signal(&e->posted);
    }
    pthread_mutex_unlock(&e->lock);
    return full ? -1 : 0;
}

int engine_wait_gather(engine *e, int b, char *err, size_t errlen)
{
    if (b < 0 || b >= e->plan->nbuckets) return -1;
    pthread_mutex_lock(&e->lock);
    while (e->gdone[b] < e->gposted[b]) pthread_cond_wait(&e->drained, &e->lock);
    int rc = e->rc;
    if (rc) snprintf(err, errlen, "%s", e->err);
    pthread_mutex_unlock(&e->lock);
    return rc;
}

int engine_set_bucket_buf(engine *e, int b, void *buf)
{
    if (b < 0 || b >= e->plan->nbuckets) return -1;
    e->rbuf[b] = buf;
    return 0;
}

int engine_wait_bucket(engine *e, int b, char *err, size_t errlen)
{
    if (b < 0 || b >= e->plan->nbuckets) return -1;
    pthread_mutex_lock(&e->lock);
    while (!e->rdone[b]) pthread_cond_wait(&e->drained, &e->lock);
    int rc = e->rc;
    if (rc) snprintf(err, errlen, "%s", e->err);
    pthread_mutex_unlock(&e->lock);
    return rc;
}

int engine_wait_all(engine *e, engine_stats *st, char *err, size_t errlen)
{
    pthread_mutex_lock(&e->lock);
    while (e->done < e->posted_n) pthread_cond_wait(&e->drained, &e->lock);
    if (st) *st = e->stats;
    int rc = e->rc;
    if (rc) snprintf(err, errlen, "%s", e->err);
    pthread_mutex_unlock(&e->lock);
    return rc;
}

void engine_free(engine *e)
{
    if (!e) return;
    pthread_mutex_lock(&e->lock);
    e->stop = 1;
    pthread_cond_signal(&e->posted);
    pthread_mutex_unlock(&e->lock);
    pthread_join(e->thread, NULL);
    pthread_mutex_destroy(&e->lock);
    pthread_cond_destroy(&e->posted);
    pthread_cond_destroy(&e->drained);
    for (int b = 0; e->fences && b < e->plan->nbuckets; b++) kern_fence_free(e->fences[b]);
    free(e->fences);
    free(e->queue), free(e->gposted), free(e->gdone), free(e->gdst), free(e->rbuf), free(e->rdone);
    free(e);
}
