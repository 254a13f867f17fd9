/* perf_step.c — the α-β-γ pricer of the one step schedule (perf_step.h, schedule.h). */
#include "perf_step.h"

#include "bucket.h"
#include "framework.h"
#include "model_bytes.h"
#include "perf_cost.h"
#include "perf_layer.h"
#include "schedule.h"
#include "shard_mem.h"

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
    layer_price lp;         /* each layer's pass (perf_layer.h) */
    double clock, t0;       /* the compute clock; the step's start */
    int *order, posted;     /* the buckets in posting order, how many */
    double *ready;          /* their ready times */
    size_t *count;          /* their elements */
    fw_group *groups;       /* the allreduces the framework makes of them (framework.h) */
    double *start, *dur;    /* each allreduce's start and duration (contention) */
    double slowed;          /* the compute that contention added */
    double comm_slowed;     /* the allreduce time that comm_contention added */
    double gemm, mem;       /* compute seconds in GEMMs and in memory-bound kernels */
    double stretch;         /* the slowest rank's GEMMs: 1 + jitter x H(ranks) */
    int buckets;
    double ag_free;         /* full shard: when the one communication stream is free (gathers, early reductions) */
    int early;              /* full shard: reductions priced before a later-posted gather, ready[0 .. early) */
    double early_busy;      /* their durations */
    double prev_start;      /* full shard: when the previous layer's compute started (the prefetch point) */
    double gather, wait;    /* allgathers' busy time; compute waiting for them */
    double post_ag;         /* optimizer, gradients: the allgather after the update */
    char *err;
    size_t errlen;
} pricer;

/* Bytes per gradient element on the wire: the input's, else fp32's 4. */
static size_t grad_bytes(const step_inputs *in) { return in->grad_bytes ? in->grad_bytes : 4; }

/* Layer l's pass (perf_layer.h): its GEMMs, stretched by the slowest rank's jitter, and its other kernels. */
static void charge(pricer *p, int l, int backward)
{
    double gemm, mem;
    perf_layer(p->m, l, backward, &p->lp, &gemm, &mem);
    p->gemm += gemm * p->stretch;
    p->mem += mem;
    p->clock += gemm * p->stretch + mem;
}

/* E[max of n Exp(1)] = H(n), the n-th harmonic number: the slowest of n ranks' jitter draws (trainer.h). */
static double harmonic(int n)
{
    double h = 0;
    for (int i = n; i >= 1; i--) h += 1.0 / i;
    return h;
}

static double m_now(void *a) { return ((pricer *)a)->clock; }

/* Reduce-scatter and allgather of `bytes` (the whole buffer) as the halves of the allreduce. */
static int rsag_cost(pricer *p, double bytes, double *rs, double *ag)
{
    cost_opts o = { p->in->grid, p->in->patterns, p->in->gamma }, free_red = o;
    double ar = 0, ar0 = 0;
    free_red.gamma = 0;
    if (perf_cost(p->pf, p->algo, bytes, &o, &ar, p->err, p->errlen) ||
        perf_cost(p->pf, p->algo, bytes, &free_red, &ar0, p->err, p->errlen))
        return 2;
    *ag = ar0 / 2, *rs = ar - ar0 / 2;
    return 0;
}

/* The reduction of the bucket posted i-th, on the one stream from max(its post, the stream's end): the
 * reduce-scatter's cost plus the framework's per-call cost (as m_call, and as engine_sim.c runs it early). */
static int reduce_early(pricer *p, int i)
{
    double rs, ag, s = p->ready[i] > p->ag_free ? p->ready[i] : p->ag_free;
    if (rsag_cost(p, (double)grad_bytes(p->in) * (double)p->count[i], &rs, &ag)) return 2;
    p->ag_free = s + rs + p->in->fw.call_s, p->early_busy += rs + p->in->fw.call_s;
    p->early = i + 1;
    return 0;
}

/* Full shard: layer L's parameters allgathered before its compute, issued at the previous layer's
 * compute start (prefetch one ahead) on the communication stream that also reduce-scatters the
 * gradients, in posting order: the reductions posted by then go first. One stream, as FSDP's default
 * (one process group, one NCCL communicator: its collectives serialize, whatever CUDA stream issues
 * them; docs/SOURCES.md §18b) and as engine_sim.c and engine_thread.c run it. */
static int gather_layer(pricer *p, const model_layer *L)
{
    double rs, ag;
    if (p->in->shard != SHARD_FULL || !L->params || platform_ranks(p->pf) < 2) return 0;
    for (int i = p->early; i < p->posted && p->ready[i] <= p->prev_start; i++)
        if (reduce_early(p, i)) return 2;
    if (rsag_cost(p, 4.0 * (double)L->params, &rs, &ag)) return 2;
    double s = p->prev_start > p->ag_free ? p->prev_start : p->ag_free, e = s + ag;
    p->ag_free = e, p->gather += ag;
    if (e > p->clock) p->wait += e - p->clock, p->clock = e;
    p->prev_start = p->clock;
    return 0;
}

static int m_forward(void *a)
{
    pricer *p = a;
    p->t0 = p->prev_start = p->ag_free = p->clock;
    for (int l = 0; l < model_layer_count(p->m); l++) {
        if (gather_layer(p, model_layer_at(p->m, l))) return 2;
        charge(p, l, 0);
    }
    p->prev_start = p->clock; /* backward's first allgather: issued when forward ends */
    return 0;
}

static int m_backward(void *a, int l)
{
    pricer *p = a;
    if (gather_layer(p, model_layer_at(p->m, l))) return 2;
    charge(p, l, 1);
    return 0;
}

/* Bucket b is complete: its ready time, for the framework (framework.h) at drain. */
static int m_post(void *a, int b)
{
    pricer *p = a;
    p->order[p->posted] = b;
    p->count[p->posted] = p->plan->buckets[b].count;
    p->ready[p->posted++] = p->clock;
    return 0;
}

/* The backend under the framework's drain (framework.h): allreduce g costs the per-call cost plus
 * perf_cost of its bytes (auto: the library's own choice, ddl_auto_choose), from the moment the
 * stream may take it. */
static int m_call(void *a, int i, const fw_group *g, double at, double call_s, double *start, double *dur)
{
    pricer *p = a;
    cost_opts o = { p->in->grid, p->in->patterns, p->in->gamma };
    double s = 0;
    (void)i;
    double wire = (double)grad_bytes(p->in) * (double)g->count;
    if (p->in->shard != SHARD_NONE) {
        double ag;
        if (rsag_cost(p, wire, &s, &ag)) return 2;
    } else if (perf_cost(p->pf, p->algo, wire, &o, &s, p->err, p->errlen))
        return 2;
    *start = at, *dur = s + call_s;
    return 0;
}

/* The framework's allreduces (fw_drain; nothing on one rank), then the compute that contention slowed. */
static int m_drain(void *a, double *t_bwd, double *comm_end, double *busy_s, int *buckets)
{
    pricer *p = a;
    int n = platform_ranks(p->pf) > 1 ? p->posted - p->early : 0, full = p->in->shard == SHARD_FULL;
    for (int i = p->early; i < p->posted && full; i++) /* full shard: behind the stream's gathers and reductions */
        if (p->ready[i] < p->ag_free) p->ready[i] = p->ag_free;
    const fw_posts posts = { p->t0, p->clock, p->ready + p->early, p->count + p->early, n, grad_bytes(p->in) };
    const fw_backend be = { m_call, NULL, p };
    fw_drained d;
    int rc = fw_drain(&p->in->fw, &posts, &be, p->groups, p->start, p->dur, &d);
    if (rc < 0) return snprintf(p->err, p->errlen, "buckets posted out of order"), 2;
    if (rc) return rc;
    p->slowed = d.slowed_s, p->comm_slowed = d.comm_slowed_s;
    if (p->in->fw.contention > 0) *t_bwd += d.slowed_s, p->clock += d.slowed_s;
    *comm_end = full && p->ag_free > d.end ? p->ag_free : d.end;
    *busy_s = d.busy_s + p->early_busy, *buckets = d.calls + p->early;
    p->buckets = *buckets;
    if (*comm_end > p->clock) p->clock = *comm_end;
    return 0;
}

/* SGD: with momentum, model_sgd_bytes (full); plain, 12 bytes per parameter (gemm) — at sgd_gbps
 * (else mem_gbps), as the simulator issues it (sgd_sim.c, layers_sim.c); Adam, LAMB: optim_update_bytes.
 * Sharded LAMB adds the allreduce of its per-tensor norms' sums, as the trainer and DistributedFusedLAMB. */
static int m_update(void *a)
{
    pricer *p = a;
    double sgd_gbps = p->in->sgd_gbps > 0 ? p->in->sgd_gbps : p->in->mem_gbps, n = (double)p->plan->total;
    double t = p->in->optim == OPTIM_ADAM   ? 28.0 * n / (sgd_gbps * 1e9) * p->lp.scale
               : p->in->optim == OPTIM_LAMB ? 48.0 * n / (sgd_gbps * 1e9) * p->lp.scale
                                            : perf_layer_sgd(p->m, &p->lp, sgd_gbps);
    int ranks = platform_ranks(p->pf);
    if (p->in->shard == SHARD_NONE && p->in->update_shard > 1) return p->clock += t / p->in->update_shard, 0;
    if (p->in->shard == SHARD_NONE || ranks < 2) return p->clock += t, 0;
    p->clock += t / ranks; /* the rank's shard */
    if (p->in->optim == OPTIM_LAMB) { /* its per-tensor Σw², Σu² allreduced, 16 B a tensor (trainer_optim.c) */
        cost_opts o = { p->in->grid, p->in->patterns, p->in->gamma };
        double s = 0;
        if (perf_cost(p->pf, p->algo, 16.0 * model_tensor_count(p->m), &o, &s, p->err, p->errlen)) return 2;
        p->clock += s;
    }
    double rs, ag;
    if (p->in->shard == SHARD_FULL) return 0; /* kept sharded: gathered layer by layer before use */
    if (rsag_cost(p, 4.0 * n, &rs, &ag)) return 2;
    p->post_ag = ag, p->gather += ag, p->clock += ag;
    return 0;
}

static const sched_pricer perf_pricer = { m_now, m_forward, m_backward, NULL, m_post, NULL, m_drain, m_update };

static int check_inputs(const step_inputs *in, char *err, size_t errlen)
{
    if (!(in->gemm_gflops > 0) || isinf(in->gemm_gflops))
        return snprintf(err, errlen, "GEMM rate: expected a finite rate > 0"), 2;
    if (!(in->mem_gbps > 0) || isinf(in->mem_gbps))
        return snprintf(err, errlen, "memory rate: expected a finite rate > 0"), 2;
    if (!(in->sgd_gbps >= 0) || isinf(in->sgd_gbps))
        return snprintf(err, errlen, "SGD rate: expected a finite rate >= 0"), 2;
    if (!(in->gamma >= 0) || isinf(in->gamma))
        return snprintf(err, errlen, "reduction cost: expected a finite value >= 0"), 2;
    if (!(in->compute_scale >= 0) || isinf(in->compute_scale))
        return snprintf(err, errlen, "compute scale: expected a finite factor >= 0"), 2;
    if (!(in->jitter >= 0) || isinf(in->jitter))
        return snprintf(err, errlen, "jitter: expected a finite fraction >= 0"), 2;
    if (!(in->fw.cycle_s >= 0 && in->fw.call_s >= 0) || isinf(in->fw.cycle_s) || isinf(in->fw.call_s))
        return snprintf(err, errlen, "framework: expected a finite cycle and per-call cost >= 0"), 2;
    if (!(in->fw.contention >= 0) || isinf(in->fw.contention))
        return snprintf(err, errlen, "contention: expected a finite fraction >= 0"), 2;
    if (!(in->fw.comm_contention >= 0) || isinf(in->fw.comm_contention))
        return snprintf(err, errlen, "communication contention: expected a finite fraction >= 0"), 2;
    return 0;
}

int perf_step(const model *m, const platform *pf, const char *algo, const step_inputs *in, step_prediction *out,
               char *err, size_t errlen)
{
    int nt = model_tensor_count(m), rc;
    size_t *counts = malloc((size_t)nt * sizeof *counts);
    bucket_plan plan = { 0 };
    sched_times st;
    pricer p = { 0 };
    memset(out, 0, sizeof *out);
    if ((rc = check_inputs(in, err, errlen))) goto out;
    int ai = ddl_algo_find(algo);
    if (in->shard != SHARD_NONE && (ai < 0 || !(ddl_algo_flags(ai) & DDL_ALGO_RSAG))) {
        snprintf(err, errlen, "--shard %s: %s has no reduce-scatter and allgather; expected an algorithm that has "
                 "(ddlbench list: not nccl-tree)", shard_mode_name(in->shard), algo);
        rc = 2;
        goto out;
    }
    rc = 1;
    if (!counts) goto nomem;
    for (int i = 0; i < nt; i++) counts[i] = (size_t)model_tensor_at(m, i)->numel;
    /* cycles: every tensor posted alone, the framework fuses them (framework.h) */
    if (in->fw.cycle_s > 0 ? bucket_plan_make(counts, nt, grad_bytes(in), 1, 1, &plan)
                           : bucket_plan_make(counts, nt, grad_bytes(in), in->bucket_bytes, in->first_bucket_bytes,
                                              &plan))
        goto nomem;
    size_t nb = (size_t)plan.nbuckets;
    p = (pricer){ .m = m,
                  .pf = pf,
                  .algo = algo,
                  .in = in,
                  .plan = &plan,
                  .order = malloc(nb * sizeof *p.order),
                  .ready = malloc(nb * sizeof *p.ready),
                  .count = malloc(nb * sizeof *p.count),
                  .groups = malloc(nb * sizeof *p.groups),
                  .start = malloc(nb * sizeof *p.start),
                  .dur = malloc(nb * sizeof *p.dur),
                  .err = err,
                  .errlen = errlen,
                  .stretch = 1 + in->jitter * harmonic(platform_ranks(pf)) };
    perf_layer_make(in->gemm_gflops, in->mem_gbps, in->full, in->shape, in->compute_scale, &p.lp);
    if (!p.order || !p.ready || !p.count || !p.groups || !p.start || !p.dur) goto nomem;
    if ((rc = sched_step(m, &plan, &perf_pricer, &p, &st))) goto out;
    int one_group = in->shard == SHARD_NONE && in->update_shard > 1 && platform_ranks(pf) <= in->update_shard;
    out->step_s = st.step_s + (in->fixed_s > 0 && !one_group ? in->fixed_s : 0); /* update_shard: perf_step.h */
    out->forward_s = st.forward_s;
    out->compute_s = st.compute_s;
    /* the slowed compute is the GEMMs' and the kernels' own, in their shares (as trainer.c counts it) */
    out->gemm_s = p.gemm + (p.gemm + p.mem > 0 ? p.slowed * p.gemm / (p.gemm + p.mem) : 0);
    out->nongemm_s = p.mem + (p.gemm + p.mem > 0 ? p.slowed * p.mem / (p.gemm + p.mem) : 0);
    out->comm_s = st.comm_s;
    out->exposed_s = st.exposed_s;
    out->sgd_s = st.sgd_s;
    out->buckets = plan.nbuckets;
    out->allreduces = p.buckets;
    out->slowed_s = p.slowed;
    out->comm_slowed_s = p.comm_slowed;
    out->comm_s += p.gather - p.post_ag; /* full's layer allgathers; the one after the update is in sgd, as trainer.c */
    out->gather_s = p.gather, out->gather_wait_s = p.wait;
    goto out;
nomem:
    snprintf(err, errlen, "out of memory");
out:
    free(p.order), free(p.ready), free(p.count), free(p.groups), free(p.start), free(p.dur);
    free(counts);
    bucket_plan_free(&plan);
    return rc;
}
