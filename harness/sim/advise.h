/* advise.h — bucket advice from the α-β-γ model: each setting (bucket cap, first-bucket cap) is one
 * step of the one step schedule (harness/train/schedule.h) with the model's pricer (perf_step.h),
 * the same step `ddlbench train` runs and the simulation of `advise --sim` measures: forward, backward
 * layer by layer (GEMMs, and with full compute the memory-bound kernels), buckets as train plans
 * them, one allreduce at a time (auto: the library's own choice), then SGD.
 * Exposed communication = the last allreduce's end - the end of backward (>= 0). */
#ifndef HARN_ADVISE_H
#define HARN_ADVISE_H

#include "model.h"
#include "perf_cost.h"
#include "profile.h"

#include <stddef.h>

typedef struct advise_in {
    const model *m;
    const platform *pf;
    const char *algo;     /* any algorithm with a cost model; auto = the library's choice per bucket */
    double gemm_flops;    /* fp32 GEMM rate, flop/s (profile) */
    double gamma;         /* s per byte reduced (profile) */
    double mem_gbps;      /* memory-bound kernels and SGD, 1e9 B/s (profile) */
    int full;             /* 1: the full step (train's default, and what --sim runs); 0: GEMMs only */
    double sgd_gbps;      /* SGD's own rate, 1e9 B/s (profile's sgd_gbps; 0: mem_gbps) */
    const profile *shape; /* optional: the profile's compute-model keys (perf_step.h; gemm_flops is then the
                             precision's rate); NULL: the linear model */
    int shard, optim;     /* sharding and optimizer (perf_step.h, shard_mem.h); 0, 0: DDP and SGD */
    size_t grad_bytes;    /* bytes per gradient element on the wire (wire.h; 0: fp32's 4) */
} advise_in;

typedef struct advise_out {
    size_t cap, first;    /* bytes (0 = one bucket / first = cap) */
    int buckets;
    double fwd_s, bwd_s;  /* compute */
    double comm_s;        /* sum of the allreduces */
    double exposed_s;     /* communication after the end of backward */
    double sgd_s;         /* the update (perf_step.h) */
    double step_s;        /* fwd + bwd + exposed + sgd */
    double gather_wait_s; /* full sharding: compute waiting for allgathers (in fwd_s, bwd_s) */
    double gather_s;      /* sharding: the allgathers (optimizer, gradients: after the update, in sgd_s) */
} advise_out;

/* One setting. 0, or 2 (bad algorithm, grid, rates) / 1 (out of memory) with a message. */
int advise_eval(const advise_in *in, size_t cap, size_t first, advise_out *out, char *err, size_t errlen);
/* The advice among n settings (those with use[i] != 0; use NULL = all), given their exposed
 * communication (exposed[i], seconds: the model's or a simulation's): of the settings within
 * ADVISE_TOL_S or ADVISE_TOL_REL of the least exposed, the one with the fewest buckets, then the larger
 * cap. Why the tolerance: the model charges each allreduce its α per step but none of a framework's
 * per-bucket cost (hook, launch, tens of µs), so exposed times this close are a tie that fewer, larger
 * buckets win. Returns its index, or -1 when none is eligible. */
#define ADVISE_TOL_S 100e-6
#define ADVISE_TOL_REL 0.10
int advise_pick(const advise_out *cells, const double *exposed, const unsigned char *use, int n);
/* The rule advise_pick applies, in words, from ADVISE_TOL_S and ADVISE_TOL_REL, into buf (for --help and
 * the advice line): "the fewest buckets within 0.1 ms or 10% (the larger) of the least exposed, then the larger cap".
 * */
void advise_rule(char *buf, size_t len);
/* The setting with the least exposed communication (first on ties), among use (NULL = all); -1 if none. */
int advise_least(const double *exposed, const unsigned char *use, int n);

#endif
