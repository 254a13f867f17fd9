/* engine_sim.c — simulation backend of engine.h. SMPI ranks cannot run a second thread
 * that calls MPI, and they need not: compute is a virtual clock (kernels/compute.h). A post records
 * the bucket's ready time (the clock's mark); engine_wait_all then allreduces the buckets in order,
 * each starting at max(its ready time, the end of the previous allreduce) — the schedule a
 * communication thread produces, without the thread. The framework (framework.h) makes the allreduces
 * of the posted buckets: one each, or Horovod's cycles, which fuse what every rank has ready. With
 * comm_contention, each allreduce that ran beside backward's compute is then waited out to its slowed
 * length (fw_comm_stretch); with contention, the step then waits out the compute that the allreduces
 * slowed (fw_slowdown). */
#include "engine.h"
#include "shard_step.h"
#include "compute.h"
#include "framework.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct engine {
    ddl_ctx *ctx;
    char *grads;              /* flat gradient buffer */
    ddl_dtype dtype;
    size_t esize;
    const bucket_plan *plan;
    int *order;               /* [nbuckets] posted buckets */
    double *ready;            /* [nbuckets] their ready times */
    int posted_n;             /* posted this step */
    framework fw;             /* buckets or cycles; the per-call cost */
    double t0;                /* the step's start on the compute clock */
    size_t *count;            /* [nbuckets] the posted buckets' elements */
    fw_group *groups;         /* [nbuckets] the allreduces made of them */
    double *agree;            /* [nbuckets + 1] t0 and ready times, the maximum over ranks */
    double *start, *dur;      /* [nbuckets] each allreduce's start and duration (contention) */
    int rc;                   /* first error */
    char err[256];            /* its message */
    int sharded, ranks;       /* engine_set_shard */
};

int engine_thread_level(void) { return MPI_THREAD_SINGLE; }
int engine_default_poll_us(void) { return 0; }

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
    e->order = calloc((size_t)plan->nbuckets, sizeof *e->order);
    e->ready = calloc((size_t)plan->nbuckets, sizeof *e->ready);
    e->count = calloc((size_t)plan->nbuckets, sizeof *e->count);
    e->groups = calloc((size_t)plan->nbuckets, sizeof *e->groups);
    e->agree = calloc((size_t)plan->nbuckets + 1, sizeof *e->agree);
    e->start = calloc((size_t)plan->nbuckets, sizeof *e->start);
    e->dur = calloc((size_t)plan->nbuckets, sizeof *e->dur);
    if (!e->order || !e->ready || !e->count || !e->groups || !e->agree || !e->start || !e->dur) {
        engine_free(e);
        return -1;
    }
    *out = e;
    return 0;
}

void engine_begin_step(engine *e) { e->posted_n = 0, e->t0 = kern_compute_mark(); }

int engine_set_framework(engine *e, const framework *fw)
{
    e->fw = *fw;
    return 0;
}
int engine_use_fences(engine *e) { (void)e; return 0; }

int engine_set_shard(engine *e, int sharded, int ranks)
{
    if (sharded && e->fw.cycle_s > 0) return -1; /* cycles fuse buckets: a shard per bucket needs buckets */
    e->sharded = sharded, e->ranks = ranks;
    return 0;
}

int engine_post(engine *e, int b)
{
    if (b < 0 || b >= e->plan->nbuckets || e->posted_n >= e->plan->nbuckets) return -1;
    e->order[e->posted_n] = b;
    e->ready[e->posted_n++] = kern_compute_mark();
    return 0;
}

/* Cycles: every rank takes the same tensors at the same wake-ups, as Horovod's coordinator makes them, so
 * the ready times are the latest over the ranks (one small allreduce, which SMPI charges). 0, or 1. */
static int agree(engine *e)
{
    int n = e->posted_n, size;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (e->fw.cycle_s <= 0 || size < 2) return 0;
    e->agree[0] = e->t0;
    memcpy(e->agree + 1, e->ready, (size_t)n * sizeof *e->ready);
    if (MPI_Allreduce(MPI_IN_PLACE, e->agree, n + 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD) != MPI_SUCCESS)
        return snprintf(e->err, sizeof e->err, "cycles: the ranks' ready times could not be agreed"), 1;
    e->t0 = e->agree[0];
    memcpy(e->ready, e->agree + 1, (size_t)n * sizeof *e->ready);
    return 0;
}

/* The backend under the framework's drain (framework.h): allreduce g, once the clock reaches its
 * enqueue (the stream is free by then: the previous one ran inline), after the per-call cost. */
static int e_call(void *a, int i, const fw_group *g, double at, double call_s, double *start, double *dur)
{
    engine *e = a;
    const bucket *bk = &e->plan->buckets[e->order[g->first]];
    (void)i, (void)at;
    for (int j = g->first + 1; j < g->first + g->n; j++) /* adjacent in the flat buffer (bucket.h) */
        if (e->plan->buckets[e->order[j]].offset != e->plan->buckets[e->order[j - 1]].offset +
                                                     e->plan->buckets[e->order[j - 1]].count)
            return snprintf(e->err, sizeof e->err, "buckets %d and %d are not adjacent", e->order[j - 1], e->order[j]),
                   1;
    kern_compute_wait_until(g->enqueue);
    double t0 = MPI_Wtime();
    if (call_s > 0) kern_compute_wait_until(t0 + call_s);
    int rc = shard_bucket_reduce(e->ctx, e->grads + bk->offset * e->esize, g->count, e->dtype, e->sharded, e->ranks);
    if (rc)
        return snprintf(e->err, sizeof e->err, "bucket %d (%zu bytes): %s", e->order[g->first], g->count * e->esize,
                        ddl_last_error()), rc;
    *start = t0, *dur = MPI_Wtime() - t0;
    return 0;
}

/* An allreduce slowed beside backward's compute: the rest of it waited out. */
static void e_hold(void *a, double t) { (void)a, kern_compute_wait_until(t); }

int engine_wait_all(engine *e, engine_stats *st, char *err, size_t errlen)
{
    engine_stats s;
    fw_drained d;
    const double b1 = kern_compute_mark(); /* the end of backward */
    const fw_backend be = { e_call, e_hold, e };
    memset(&s, 0, sizeof s);
    for (int i = 0; i < e->posted_n; i++) e->count[i] = e->plan->buckets[e->order[i]].count;
    if (!e->rc && (e->rc = agree(e)) == 0) {
        const fw_posts posts = { e->t0, b1, e->ready, e->count, e->posted_n, e->esize };
        int rc = fw_drain(&e->fw, &posts, &be, e->groups, e->start, e->dur, &d);
        if (rc < 0) e->rc = 1, snprintf(e->err, sizeof e->err, "buckets posted out of order");
        else if (rc) e->rc = rc;
        else {
            s = (engine_stats){ d.busy_s, d.first_start, d.end, d.calls, d.slowed_s, d.comm_slowed_s };
            if (e->fw.contention > 0) /* the step waits out the compute that the allreduces slowed */
                kern_compute_wait_until(d.end > b1 + d.slowed_s ? d.end : b1 + d.slowed_s);
        }
    }
    e->posted_n = 0;
    if (st) *st = s;
    if (e->rc) snprintf(err, errlen, "%s", e->err);
    return e->rc;
}

void engine_free(engine *e)
{
    if (!e) return;
    free(e->order);
    free(e->ready);
    free(e->count);
    free(e->groups);
    free(e->agree);
    free(e->start);
    free(e->dur);
    free(e);
}
