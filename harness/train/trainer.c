/* trainer.c — the training step (see trainer.h).
 * Buffers: params and grads (flat, bucket order, from bucket.h), the im2col input X and its gradient
 * dX (largest K×N over layers), the output Y / its gradient dY (largest M×N). Inputs stay constant
 * and outputs are write-only, so values neither grow nor underflow over steps.
 * Times: trainer_stream_time() is when the work issued so far completes — MPI_Wtime on a CPU, the virtual
 * compute clock under simulation — so the same code measures both.
 * Device mode (step_config.device, the CUDA build): the same step on device buffers through the
 * step_mem seam (step_mem.h). GEMMs and kernels are queued on the compute stream with no drain per
 * GEMM: each is a span (compute.h) timed by a CUDA event pair, summed at the end of backward; a bucket
 * is posted with a fence recorded after its last gradient, and the communication thread waits for
 * that fence alone, so buckets move while later GEMMs run. The stream is drained only at the step's
 * phase boundaries (start, end of backward, update). --jitter there: per-GEMM durations are known
 * only at the end of backward, so the rank's stretch of its GEMM time is spun then, at once.
 * bf16/fp16: the GEMM inputs (weights, im2col X, dY) are 2-byte copies made once at setup; the
 * per-step float32->half cast of the weights (6 bytes per parameter) is not performed.
 * Full mode (step_config.full): step_full.c runs the network's data flow on its own activations (the
 * synthetic X, dX, Y and their 2-byte copies are then not allocated) through the trainer's GEMM
 * (gemm_cb); with bf16/fp16 the activations are 2-byte and only the weights' 2-byte copy is made here.
 * The optimizer (step_config.optim) is SGD (full mode with momentum: the velocity buffer, one more
 * parameter-sized operand, or a shard of it under --shard; trainer_shard.c, which also runs full
 * sharding's gathers), Adam or LAMB (m and v: two such operands; trainer_optim.c). */
#include "trainer.h"
#include "wire.h"
#include "trainer_priv.h"

#include "bucket.h"
#include "engine.h"
#include "compute.h"
#include "counters.h"
#include "devmem.h"
#include "gemm.h"
#include "guard.h"
#include "half.h"
#include "layers.h"
#include "perf_layer.h"
#include "sim.h"
#include "step_full.h"
#include "schedule.h"
#include "shard_mem.h"
#include "step_mem.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* struct trainer: trainer_priv.h */

double trainer_stream_time(void)
{
    double m = kern_compute_mark();
    return m >= 0 ? m : MPI_Wtime();
}

/* The known gradient of element i in check mode: small integers, exact in float32 sums. */
static float check_value(int rank, size_t i, int step) { return (float)((rank * 3 + (int)(i % 29) + step) % 17 - 8); }

/* c16: C holds 2-byte elements of the GEMM's input type (full mode's bf16/fp16 activations). */
static int gemm_beta(trainer *t, const model_gemm *g, const void *a, const void *b, void *c, float beta, int c16)
{
    kern_span sp = kern_span_open();
    counters_begin();
    int lda = g->transa ? g->m : g->k, ldb = g->transb ? g->k : g->n;
    int rc = c16 ? kern_gemm_ex_c(t->cfg.precision, g->transa, g->transb, g->m, g->n, g->k, 1.0f, a, lda, b, ldb, beta,
                                  c, g->n)
                 : kern_gemm_ex(t->cfg.precision, g->transa, g->transb, g->m, g->n, g->k, 1.0f, a, lda, b, ldb, beta,
                                (float *)c, g->n);
    counters_end();
    double d = kern_span_close(sp, KERN_SPAN_GEMM); /* 0 on the GPU: its events are read at the end of backward */
    t->gemm_s += d + trainer_jitter_wait(t, d);
    if (rc) /* on the device the backend's detail is in kern_dev_last_error() (kernels/gemm.h) */
        snprintf(t->err, sizeof t->err, "%s (m=%d n=%d k=%d)%s%s", kern_gemm_strerror(rc), g->m, g->n, g->k,
                 t->cfg.device ? ": " : "", t->cfg.device ? kern_dev_last_error() : "");
    return rc;
}

static int gemm(trainer *t, const model_gemm *g, const char *a, const char *b, float *c)
{
    return gemm_beta(t, g, a, b, c, 0.0f, 0);
}

static int gemm_cb(void *arg, const model_gemm *g, const void *a, const void *b, void *c, float beta, int c16)
{
    return gemm_beta(arg, g, a, b, c, beta, c16);
}

/* Tensor ti's gradient (gradient sharding: in its bucket's slot). */
static float *grad_at(const trainer *t, int ti)
{
    return t->garena ? t->garena + t->goff[ti] : t->grads + t->plan.tensor_offset[ti];
}

/* Tensor ti's GEMM input (full sharding: where its bucket was gathered). */
static const char *weights(const trainer *t, int ti)
{
    return t->in_w + (t->gather ? t->cur_off[ti] : t->plan.tensor_offset[ti]) * t->es;
}

static int gather_cb(void *arg, int l) { return trainer_gather_layer(arg, l); }

/* Full mode: the kernels of the buffers' side and the network's data flow (step_full.h). */
static int make_full(trainer *t)
{
    kern_precision p = t->cfg.precision;
    int storage = p == KERN_PREC_BF16 ? KERN_STORE_BF16 : p == KERN_PREC_FP16 ? KERN_STORE_F16 : KERN_STORE_F32;
    t->ops = t->cfg.device ? kern_layers_device_as(storage) : storage == KERN_STORE_F32 ? &kern_layers_host : NULL;
    if (!t->ops) {
        snprintf(t->err, sizeof t->err, "--compute full: no %s kernels for %s activations in this build",
                 t->cfg.device ? "device" : "host", kern_precision_name(p));
        return 1;
    }
    step_full_io io = { t->m, t->ops, t->mem, t->real, t->gather ? t->arena : t->params,
                        t->garena ? t->garena : t->grads, t->plan.tensor_offset, t->es == 2 ? t->wh : NULL, storage,
                        gemm_cb, t, t->priced ? NULL : gather_cb, t->gather ? t->cur_off : NULL,
                        t->garena ? t->goff : NULL };
    return step_full_create(&io, &t->full, t->err, sizeof t->err);
}

const float *trainer_params(const trainer *t, size_t *count)
{
    *count = t->plan.total;
    return t->pshard ? t->whole : t->params;
}

int trainer_create(const model *m, ddl_ctx *ctx, const step_config *cfg, trainer **out, char *err, size_t errlen)
{
    trainer *t = calloc(1, sizeof *t);
    size_t *counts = NULL;
    int nt = model_tensor_count(m), rc = 1;
    *out = NULL;
    if (!t || !(counts = malloc((size_t)nt * sizeof *counts))) {
        snprintf(err, errlen, "out of memory");
        goto out;
    }
    t->m = m;
    t->ctx = ctx;
    t->cfg = *cfg;
    t->mem = cfg->device ? &step_mem_device : &step_mem_host;
    t->priced = kern_simulated() && cfg->shape && (perf_layer_shaped(cfg->shape) || cfg->compute_scale > 0);
    if (t->priced)
        perf_layer_make(profile_gemm_gflops(cfg->shape), cfg->shape->mem_gbps, cfg->full, cfg->shape,
                        cfg->compute_scale, &t->lp);
    kern_sim_set_layer_priced(t->priced); /* the kernels silent: each layer's time issued here */
    t->real = !kern_simulated(); /* real buffers get values (simulated ones are shared) */
    MPI_Comm_rank(MPI_COMM_WORLD, &t->rank);
    MPI_Comm_size(MPI_COMM_WORLD, &t->size);
    for (int i = 0; i < nt; i++) counts[i] = (size_t)model_tensor_at(m, i)->numel;
    size_t wb = wire_bytes(cfg->grad_dtype); /* the caps count the bytes the allreduces move */
    if (cfg->device && wb != 4) {
        snprintf(err, errlen, "--grad-dtype %s: device buffers are cast on the host only; expected fp32 with --device "
                 "gpu", wire_name(cfg->grad_dtype));
        goto out;
    }
    if (cfg->fw.cycle_s > 0 ? bucket_plan_make(counts, nt, wb, 1, 1, &t->plan) /* cycles: each tensor posted alone */
                            : bucket_plan_make(counts, nt, wb, cfg->bucket_bytes, cfg->first_bucket_bytes, &t->plan)) {
        snprintf(err, errlen, "cannot plan gradient buckets");
        goto out;
    }
    if (trainer_alloc_buffers(t) || (cfg->full && make_full(t)) ||
        (wb != 4 && !(t->wire = t->mem->alloc_grad(t->plan.total * wb))) ||
        engine_create(ctx, t->wire ? t->wire : t->grads ? (void *)t->grads : (void *)t->garena,
                      t->wire ? cfg->grad_dtype : DDL_FLOAT32, &t->plan, &t->eng) ||
        (cfg->device && engine_use_fences(t->eng))) {
        snprintf(err, errlen, "%s",
                 t->err[0] ? t->err
                 : t->eng  ? kern_dev_last_error()
                           : "cannot start the communication engine");
        goto out;
    }
    if (cfg->optim != OPTIM_SGD && cfg->device) {
        snprintf(err, errlen, "--optimizer %s: host buffers only; expected --device cpu", optim_name(cfg->optim));
        goto out;
    }
    /* before the shard: the simulated engine's sharding refuses the framework's cycles (fused buckets) */
    if (engine_set_framework(t->eng, &cfg->fw)) {
        snprintf(err, errlen, "Horovod cycles and per-call costs are modelled by the simulation and the model only; a "
                 "real run pays its own framework's");
        goto out;
    }
    if (cfg->shard && (cfg->device || cfg->check ||
                       engine_set_shard(t->eng, cfg->shard == SHARD_FULL ? 2 : 1, t->size) ||
                       trainer_gslots_engine(t))) {
        snprintf(err, errlen, "--shard: needs host buffers, no --check and gradient buckets (not cycles)");
        goto out;
    }
    *out = t;
    t = NULL;
    rc = 0;
out:
    free(counts);
    trainer_free(t);
    return rc;
}

/* Layer-priced simulation (perf_layer.h): layer l's pass issued on the compute clock, the GEMMs with the
 * rank's jitter, as perf_step.c prices it. */
static void priced_pass(trainer *t, int l, int backward)
{
    double g, b;
    if (!t->priced) return;
    perf_layer(t->m, l, backward, &t->lp, &g, &b);
    kern_compute_issue(g);
    t->gemm_s += g + trainer_jitter_wait(t, g);
    kern_compute_issue(b);
    t->nongemm_s += b;
}

static int forward(trainer *t)
{
    if (trainer_gather_begin(t, 0)) return 1;
    for (int l = 0; l < model_layer_count(t->m) && t->priced; l++) { /* full sharding: gathers between layers */
        if (trainer_gather_layer(t, l)) return 1;
        priced_pass(t, l, 0);
    }
    if (t->full) {
        char why[256];
        int rc = step_full_forward(t->full, &t->nongemm_s, why, sizeof why);
        if (rc && !t->err[0]) snprintf(t->err, sizeof t->err, "%s", why); /* else the GEMM's own message */
        return rc;
    }
    for (int l = 0; l < model_layer_count(t->m); l++) {
        const model_layer *L = model_layer_at(t->m, l);
        if (trainer_gather_layer(t, l)) return 1;
        if (L->kind != MODEL_CONV && L->kind != MODEL_FC) continue;
        if (gemm(t, &L->gemm[MODEL_FWD], weights(t, L->tensor0), t->in_x, t->y)) return 1;
    }
    return 0;
}

/* The compute of layer l's backward: its GEMMs (gemm mode) or all its kernels (full mode). */
static int backward_compute(trainer *t, const model_layer *L, int l)
{
    priced_pass(t, l, 1);
    if (t->full) {
        char why[256];
        int rc = step_full_backward_layer(t->full, l, &t->nongemm_s, why, sizeof why);
        if (rc && !t->err[0]) snprintf(t->err, sizeof t->err, "%s", why);
        return rc;
    }
    int which[2], n = sched_layer_gemms(L, 1, which); /* the weight gradient, then the data gradient */
    float *dw = grad_at(t, L->tensor0);
    const char *w = weights(t, L->tensor0);
    for (int j = 0; j < n; j++)
        if (which[j] == MODEL_BWD_WEIGHT ? gemm(t, &L->gemm[MODEL_BWD_WEIGHT], t->in_y, t->in_x, dw)
                                         : gemm(t, &L->gemm[MODEL_BWD_DATA], w, t->in_y, t->dx))
            return 1;
    return 0;
}

/* Tensor ti's gradient values: the known ones with --check, else gemm mode's per-channel sums. */
static int write_gradient(trainer *t, int ti)
{
    const model_tensor *T = model_tensor_at(t->m, ti);
    const model_layer *L = model_layer_at(t->m, T->layer);
    size_t off = t->plan.tensor_offset[ti], n = (size_t)T->numel;
    int rc = 0;
    if (t->cfg.check) {
        for (size_t j = 0; j < n; j++) t->host[off + j] = check_value(t->rank, off + j, t->step);
        rc = t->mem->put(t->grads + off, t->host + off, n * 4);
    } else if (!t->full && !(ti == L->tensor0 && L->kind != MODEL_BN) && t->real) {
        rc = t->mem->fill(grad_at(t, ti), n, 0.001f); /* gemm mode: BN scale/shift, FC bias (per-channel sums) */
    }
    if (rc) snprintf(t->err, sizeof t->err, "gradients of tensor %d: %s", ti, kern_dev_last_error());
    return rc ? 1 : 0;
}

/* The trainer as the schedule's pricer (schedule.h): it runs the work and reads the clock. */
static double p_now(void *a) { (void)a; return trainer_stream_time(); }

static int p_forward(void *a)
{
    trainer *t = a;
    if (forward(t)) return 1;
    guard_slow_point(t->rank); /* DDL_FAULT_INJECT=slow:RANK:MS (tests): a straggler's compute */
    if (t->full) step_full_begin_backward(t->full);
    return trainer_gather_begin(t, 1); /* full sharding: the parameters gathered again for backward */
}

static int p_backward(void *a, int l)
{
    trainer *t = a;
    return trainer_gather_layer(t, l) || trainer_gslots_layer(t, l) || backward_compute(t, model_layer_at(t->m, l), l)
               ? 1
               : 0;
}
static int p_gradient(void *a, int ti) { return write_gradient(a, ti); }

static int p_post(void *a, int b)
{
    trainer *t = a;
    if (t->wire && t->real) { /* --grad-dtype: the bucket's fp32 gradients cast to the wire's copy */
        const bucket *bk = &t->plan.buckets[b];
        wire_pack(t->cfg.grad_dtype, t->grads + bk->offset, (char *)t->wire + bk->offset * 2, bk->count);
    }
    if (!engine_post(t->eng, b)) return 0; /* device mode: records the bucket's fence (no drain) */
    snprintf(t->err, sizeof t->err, "cannot post bucket %d: %s", b,
             t->cfg.device ? kern_dev_last_error() : "bad index");
    return 1;
}

/* The GPU's event-timed spans (0 elsewhere: already counted), and the jitter they owe. */
static int p_end_backward(void *a, double *t_bwd)
{
    trainer *t = a;
    double g = 0, o = 0;
    if (kern_span_collect(&g, &o)) {
        snprintf(t->err, sizeof t->err, "timing the compute stream: %s", kern_dev_last_error());
        return 1;
    }
    t->gemm_s += g, t->nongemm_s += o;
    if (g > 0 && t->stretch > 0) {
        t->gemm_s += trainer_jitter_wait(t, g);
        *t_bwd = trainer_stream_time();
    }
    return 0;
}

static int p_drain(void *a, double *t_bwd, double *comm_end, double *busy_s, int *buckets)
{
    trainer *t = a;
    engine_stats es;
    char why[sizeof t->err - sizeof "allreduce failed: " + 1]; /* what fits after the prefix */
    if (engine_wait_all(t->eng, &es, why, sizeof why)) {
        snprintf(t->err, sizeof t->err, "allreduce failed: %s", why);
        return 1;
    }
    *comm_end = MPI_Wtime();
    if (t->wire && t->real) wire_unpack(t->cfg.grad_dtype, t->wire, t->grads, t->plan.total); /* sums to fp32 */
    trainer_gslots_drain(t); /* gradient sharding: the blocks still in their slots into the shard */
    *t_bwd += es.slowed_s; /* the compute that contention slowed (engine_sim.c; 0 elsewhere), in the */
    if (t->gemm_s + t->nongemm_s > 0) { /* GEMMs' and the kernels' shares (as perf_step.c counts it) */
        double g = t->gemm_s, o = t->nongemm_s;
        t->gemm_s += es.slowed_s * g / (g + o), t->nongemm_s += es.slowed_s * o / (g + o);
    }
    *busy_s = es.busy_s;
    *buckets = es.buckets;
    kern_compute_begin(); /* the update starts once both the gradients and their sums are there */
    return 0;
}

static int p_update(void *a)
{
    if (trainer_update(a)) return 1;
    kern_compute_wait_until(trainer_stream_time());
    return 0;
}

static const sched_pricer trainer_pricer = { p_now, p_forward, p_backward, p_gradient, p_post, p_end_backward,
                                             p_drain, p_update };

int trainer_run(trainer *t, int step, step_times *st, char *err, size_t errlen)
{
    sched_times s;
    memset(st, 0, sizeof *st);
    t->gemm_s = t->nongemm_s = 0;
    t->err[0] = '\0';
    t->step = step;
    t->stretch = t->cfg.jitter > 0 ? t->cfg.jitter * trainer_jitter_draw(t->cfg.seed, t->rank, step) : 0;
    kern_compute_begin();
    (void)kern_span_collect(NULL, NULL); /* drop spans a failed step may have left */
    engine_begin_step(t->eng);
    if (sched_step(t->m, &t->plan, &trainer_pricer, t, &s)) return snprintf(err, errlen, "%s", t->err), 1;
    st->step_s = s.step_s;
    st->compute_s = s.compute_s;
    st->gemm_s = t->gemm_s;
    st->nongemm_s = t->nongemm_s;
    st->exposed_s = s.exposed_s;
    st->sgd_s = s.sgd_s;
    st->comm_s = s.comm_s;
    st->buckets = s.buckets;
    st->other_s = st->step_s - st->gemm_s - st->nongemm_s - st->exposed_s - st->sgd_s;
    return 0;
}

long trainer_verify(const trainer *t, int step)
{
    long wrong = 0;
    if (t->mem->get(t->host, t->grads, t->plan.total * 4)) return (long)t->plan.total;
    for (size_t i = 0; i < t->plan.total; i++) {
        float want = 0;
        for (int r = 0; r < t->size; r++) want += check_value(r, i, step);
        wrong += t->host[i] != want;
    }
    return wrong;
}

int trainer_buckets(const trainer *t) { return t->plan.nbuckets; }

