/* engine_sim.c — simulation backend of engine.h. SMPI ranks cannot run a second thread
 * that calls MPI, and they need not: compute is a virtual clock (kernels/compute.h). A post records
 * the bucket's ready time (the clock's mark); engine_wait_all then allreduces the buckets in order,
 * each starting at max(its ready time, the end of the previous allreduce) — the schedule a
 * communication thread produces, without the thread. */
#include "engine.h"
#include "compute.h"

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
    int rc;                   /* first error */
    char err[256];            /* its message */
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
    if (!e->order || !e->ready) {
        engine_free(e);
        return -1;
    }
    *out = e;
    return 0;
}

void engine_begin_step(engine *e) { e->posted_n = 0; }
int engine_use_fences(engine *e) { (void)e; return 0; }

int engine_post(engine *e, int b)
{
    if (b < 0 || b >= e->plan->nbuckets || e->posted_n >= e->plan->nbuckets) return -1;
    e->order[e->posted_n] = b;
    e->ready[e->posted_n++] = kern_compute_mark();
    return 0;
}

int engine_wait_all(engine *e, engine_stats *st)
{
    engine_stats s;
    memset(&s, 0, sizeof s);
    for (int i = 0; i < e->posted_n && !e->rc; i++) {
        const bucket *bk = &e->plan->buckets[e->order[i]];
        kern_compute_wait_until(e->ready[i]);
        double t0 = MPI_Wtime();
        int rc = ddl_allreduce(e->ctx, DDL_IN_PLACE, e->grads + bk->offset * e->esize, bk->count, e->dtype, DDL_SUM);
        double t1 = MPI_Wtime();
        if (rc) {
            e->rc = rc;
            snprintf(e->err, sizeof e->err, "bucket %d (%zu bytes): %s", e->order[i], bk->count * e->esize,
                     ddl_last_error());
        }
        if (i == 0) s.first_start = t0;
        s.last_end = t1;
        s.busy_s += t1 - t0;
        s.buckets++;
    }
    e->posted_n = 0;
    if (st) *st = s;
    return e->rc;
}

const char *engine_error(const engine *e) { return e->rc ? e->err : "no error"; }

void engine_free(engine *e)
{
    if (!e) return;
    free(e->order);
    free(e->ready);
    free(e);
}
