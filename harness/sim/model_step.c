/* model_step.c — the α-β-γ pricer of the one step schedule (model_step.h, schedule.h). */
#include "model_step.h"

#include "bucket.h"
#include "model_bytes.h"
#include "model_cost.h"
#include "schedule.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct pricer {
    const model *m;
    const platform *pf;
    const char *algo;
    const step_inputs *in;
    const bucket_plan *plan;
    double rate, bw;        /* flop/s, bytes/s */
    double clock;           /* the compute clock */
    double end, busy;       /* the last allreduce's end; their summed time */
    double gemm, mem;       /* compute seconds in GEMMs and in memory-bound kernels */
    int buckets;
    char *err;
    size_t errlen;
} pricer;

static double gemm_s(const pricer *p, const model_layer *L, int g)
{
    const model_gemm *x = &L->gemm[g];
    return (L->kind == MODEL_CONV || L->kind == MODEL_FC) ? 2.0 * x->m * x->n * x->k / p->rate : 0;
}

/* Seconds of compute: GEMMs, and with --compute full the layer's memory-bound bytes. */
static void charge(pricer *p, double gemm, double bytes)
{
    p->gemm += gemm;
    p->mem += bytes / p->bw;
    p->clock += gemm + bytes / p->bw;
}

static double m_now(void *a) { return ((pricer *)a)->clock; }

static int m_forward(void *a)
{
    pricer *p = a;
    for (int l = 0; l < model_layer_count(p->m); l++)
        charge(p, gemm_s(p, model_layer_at(p->m, l), MODEL_FWD), p->in->full ? model_mem_bytes(p->m, l, MODEL_FWD) : 0);
    return 0;
}

static int m_backward(void *a, int l)
{
    pricer *p = a;
    const model_layer *L = model_layer_at(p->m, l);
    double g = gemm_s(p, L, MODEL_BWD_WEIGHT) + (L->data_grad_needed ? gemm_s(p, L, MODEL_BWD_DATA) : 0);
    charge(p, g, p->in->full ? model_mem_bytes(p->m, l, 1) : 0);
    return 0;
}

/* Bucket b's allreduce starts at max(now, the previous one's end) and lasts model_cost of its bytes
 * (auto: the library's own choice, ddl_auto_choose); nothing on one rank. */
static int m_post(void *a, int b)
{
    pricer *p = a;
    double s = 0, start = p->clock > p->end ? p->clock : p->end;
    cost_opts o = { p->in->grid, p->in->patterns, p->in->gamma };
    if (platform_ranks(p->pf) > 1 &&
        model_cost(p->pf, p->algo, 4.0 * (double)p->plan->buckets[b].count, &o, &s, p->err, p->errlen))
        return 2;
    p->end = start + s;
    p->busy += s;
    p->buckets++;
    return 0;
}

static int m_drain(void *a, double *comm_end, double *busy_s, int *buckets)
{
    pricer *p = a;
    *comm_end = p->end, *busy_s = p->busy, *buckets = p->buckets;
    if (p->end > p->clock) p->clock = p->end;
    return 0;
}

/* SGD: with momentum, model_sgd_bytes (full); plain, 12 bytes per parameter (gemm) — at mem_gbps. */
static int m_update(void *a)
{
    pricer *p = a;
    p->clock += (p->in->full ? model_sgd_bytes(p->m) : 12.0 * (double)p->plan->total) / p->bw;
    return 0;
}

static const sched_pricer model_pricer = { m_now, m_forward, m_backward, NULL, m_post, NULL, m_drain, m_update };

static int check_inputs(const step_inputs *in, char *err, size_t errlen)
{
    if (!(in->gemm_gflops > 0) || isinf(in->gemm_gflops)) return snprintf(err, errlen, "GEMM rate: expected a finite rate > 0"), 2;
    if (!(in->mem_gbps > 0) || isinf(in->mem_gbps)) return snprintf(err, errlen, "memory rate: expected a finite rate > 0"), 2;
    if (!(in->gamma >= 0) || isinf(in->gamma)) return snprintf(err, errlen, "reduction cost: expected a finite value >= 0"), 2;
    return 0;
}

int model_step(const model *m, const platform *pf, const char *algo, const step_inputs *in, step_prediction *out,
               char *err, size_t errlen)
{
    int nt = model_tensor_count(m), rc;
    size_t *counts = malloc((size_t)nt * sizeof *counts);
    bucket_plan plan = { 0 };
    sched_times st;
    memset(out, 0, sizeof *out);
    if ((rc = check_inputs(in, err, errlen))) goto out;
    rc = 1;
    if (!counts) goto nomem;
    for (int i = 0; i < nt; i++) counts[i] = (size_t)model_tensor_at(m, i)->numel;
    if (bucket_plan_make(counts, nt, 4, in->bucket_bytes, in->first_bucket_bytes, &plan)) goto nomem;
    pricer p = { m, pf, algo, in, &plan, in->gemm_gflops * 1e9, in->mem_gbps * 1e9, 0, 0, 0, 0, 0, 0, err, errlen };
    if ((rc = sched_step(m, &plan, &model_pricer, &p, &st))) goto out;
    out->step_s = st.step_s;
    out->forward_s = st.forward_s;
    out->compute_s = st.compute_s;
    out->gemm_s = p.gemm;
    out->nongemm_s = p.mem;
    out->comm_s = st.comm_s;
    out->exposed_s = st.exposed_s;
    out->sgd_s = st.sgd_s;
    out->buckets = plan.nbuckets;
    goto out;
nomem:
    snprintf(err, errlen, "out of memory");
out:
    free(counts);
    bucket_plan_free(&plan);
    return rc;
}
