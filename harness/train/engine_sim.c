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
    int *jobs;                /* [3 nbuckets] full sharding: reductions (b) and gathers (-(b + 1)) in post order */
    double *jready;           /* [3 nbuckets] their post times */
    int njobs, jrun;          /* posted, run so far (engine_wait_gather) */
    int base;                 /* reductions run early by engine_wait_gather: order[0 .. base) */
    float **gdst;             /* [nbuckets] where each bucket's gather lands (engine_post_gather) */
    char **rbuf;              /* [nbuckets] where each bucket is reduced (engine_set_bucket_buf; NULL: grads) */
    engine_stats early;       /* their time */
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
    e->jobs = calloc(3 * (size_t)plan->nbuckets, sizeof *e->jobs);
    e->jready = calloc(3 * (size_t)plan->nbuckets, sizeof *e->jready);
    e->gdst = calloc((size_t)plan->nbuckets, sizeof *e->gdst);
    e->rbuf = calloc((size_t)plan->nbuckets, sizeof *e->rbuf);
    if (!e->order || !e->ready || !e->count || !e->groups || !e->agree || !e->start || !e->dur || !e->jobs ||
        !e->jready || !e->gdst || !e->rbuf) {
        engine_free(e);
        return -1;
    }
    *out = e;
    return 0;
}

void engine_begin_step(engine *e)
{
    e->posted_n = e->njobs = e->jrun = e->base = 0, e->t0 = kern_compute_mark();
    memset(&e->early, 0, sizeof e->early);
}

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
    if (e->sharded == 2 && e->njobs < 3 * e->plan->nbuckets) /* full sharding: in the jobs' order too */
        e->jready[e->njobs] = e->ready[e->posted_n - 1], e->jobs[e->njobs++] = b;
    return 0;
}

/* Where bucket b is reduced: its engine_set_bucket_buf buffer, else its place in the gradient buffer. */
static char *bucket_buf(engine *e, int b)
{
    return e->rbuf[b] ? e->rbuf[b] : e->grads + e->plan->buckets[b].offset * e->esize;
}

int engine_set_bucket_buf(engine *e, int b, void *buf)
{
    if (b < 0 || b >= e->plan->nbuckets || (buf && e->fw.cycle_s > 0)) return -1; /* cycles fuse adjacent buckets */
    e->rbuf[b] = buf;
    return 0;
}

/* The reductions run at the drain (or early, engine_wait_gather) on the MPI clock; a simulated buffer
 * holds no values, so nothing waits here: a step stalled for a free gradient buffer is not modelled. */
int engine_wait_bucket(engine *e, int b, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    return b < 0 || b >= e->plan->nbuckets ? -1 : 0;
}

int engine_post_gather(engine *e, int b, float *dst)
{
    if (b < 0 || b >= e->plan->nbuckets || e->njobs >= 3 * e->plan->nbuckets) return -1;
    e->gdst[b] = dst;
    e->jready[e->njobs] = kern_compute_mark(), e->jobs[e->njobs++] = -b - 1;
    return 0;
}

/* Job j at max(its post, now): a reduction (counted in e->early) or a gather. 0, or ddl's code. A
 * reduction run here pays the framework's per-call cost; its contention and partial overlap are the
 * drain's (fw_drain) and apply only to the reductions left for engine_wait_all. */
static int run_job(engine *e, int j)
{
    int b = e->jobs[j] >= 0 ? e->jobs[j] : -e->jobs[j] - 1, rc;
    const bucket *bk = &e->plan->buckets[b];
    kern_compute_wait_until(e->jready[j]);
    double t0 = MPI_Wtime();
    if (e->jobs[j] >= 0) {
        if (e->fw.call_s > 0) kern_compute_wait_until(t0 + e->fw.call_s); /* the framework's per-call cost */
        rc = shard_bucket_reduce(e->ctx, bucket_buf(e, b), bk->count, e->dtype, e->sharded, e->ranks);
        if (!e->early.buckets) e->early.first_start = t0;
        e->early.buckets++, e->base++;
    } else {
        size_t c = e->ranks > 1 ? bk->count / (size_t)e->ranks : 0;
        rc = c ? ddl_allgather(e->ctx, DDL_IN_PLACE, e->gdst[b], c, DDL_FLOAT32) : 0;
    }
    e->early.busy_s += MPI_Wtime() - t0, e->early.last_end = MPI_Wtime();
    if (rc) snprintf(e->err, sizeof e->err, "%s of bucket %d: %s", e->jobs[j] >= 0 ? "reduction" : "gather", b,
                     ddl_last_error());
    return rc;
}

int engine_wait_gather(engine *e, int b, char *err, size_t errlen)
{
    int last = -1;
    for (int j = e->jrun; j < e->njobs; j++)
        if (e->jobs[j] == -b - 1) last = j;
    double mark = kern_compute_mark();
    while (!e->rc && e->jrun <= last) e->rc = run_job(e, e->jrun++);
    kern_compute_wait_until(mark); /* the compute resumes at the later of its mark and the gather's end */
    kern_compute_begin();
    if (e->rc) snprintf(err, errlen, "%s", e->err);
    return e->rc;
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
    const int *order = e->order + e->base; /* the reductions engine_wait_gather has not run */
    (void)i, (void)at;
    for (int j = g->first + 1; j < g->first + g->n; j++) { /* adjacent in the flat buffer (bucket.h) */
        const bucket *prev = &e->plan->buckets[order[j - 1]];
        if (e->plan->buckets[order[j]].offset != prev->offset + prev->count)
            return snprintf(e->err, sizeof e->err, "buckets %d and %d are not adjacent", order[j - 1], order[j]), 1;
    }
    kern_compute_wait_until(g->enqueue);
    double t0 = MPI_Wtime();
    if (call_s > 0) kern_compute_wait_until(t0 + call_s);
    int rc = shard_bucket_reduce(e->ctx, bucket_buf(e, order[g->first]), g->count, e->dtype, e->sharded, e->ranks);
    if (rc)
        return snprintf(e->err, sizeof e->err, "bucket %d (%zu bytes): %s", order[g->first], g->count * e->esize,
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
    int n = e->posted_n - e->base; /* the reductions not run yet */
    for (int i = 0; i < n; i++) e->count[i] = e->plan->buckets[e->order[e->base + i]].count;
    if (!e->rc && (e->rc = agree(e)) == 0) {
        const fw_posts posts = { e->t0, b1, e->ready + e->base, e->count, n, e->esize };
        int rc = fw_drain(&e->fw, &posts, &be, e->groups, e->start, e->dur, &d);
        if (rc < 0) e->rc = 1, snprintf(e->err, sizeof e->err, "buckets posted out of order");
        else if (rc) e->rc = rc;
        else {
            s = (engine_stats){ d.busy_s, d.first_start, d.end, d.calls, d.slowed_s, d.comm_slowed_s };
            if (e->early.busy_s > 0 || e->early.buckets) { /* full sharding: what engine_wait_gather ran */
                s.first_start = e->early.buckets && (!n || e->early.first_start < s.first_start) ? e->early.first_start
                                                                                               : s.first_start;
                s.last_end = n ? s.last_end : e->early.last_end;
                s.busy_s += e->early.busy_s, s.buckets += e->early.buckets;
            }
            if (e->fw.contention > 0) /* the step waits out the compute that the allreduces slowed */
                kern_compute_wait_until(d.end > b1 + d.slowed_s ? d.end : b1 + d.slowed_s);
        }
    }
    e->posted_n = e->njobs = e->jrun = e->base = 0;
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
    free(e->jobs), free(e->jready), free(e->gdst), free(e->rbuf);
    free(e);
}
