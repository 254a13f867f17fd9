/* limit.h — the answer a cluster owner wants (`ddlbench advise --limit PCT`): for a platform, a model
 * and a batch (a global batch under strong scaling, MLPerf's way, or a per-GPU one), the largest GPU
 * count at which an algorithm keeps at least PCT% per-GPU efficiency against one node, and how that
 * count moves when the NICs' bandwidth or the step's compute halves or doubles.
 * Each point is the α-β-γ step of perf_step.h on whole nodes 1, 2, 4, ... max_nodes; per-GPU
 * efficiency E(n) = (b(n) / step(n)) / (b(1) / step(1)), b the per-GPU batch (gbatch.h's share under
 * strong scaling). "Step time x0.5" prices the compute at twice the profile's rates (GEMM, memory,
 * SGD), x2 at half; "NIC bw" scales the platform's nic_bw. Nothing here prints. */
#ifndef HARN_LIMIT_H
#define HARN_LIMIT_H

#include "profile.h"

#include <stddef.h>

enum { LIMIT_ASIS, LIMIT_NIC_HALF, LIMIT_NIC_DOUBLE, LIMIT_STEP_HALF, LIMIT_STEP_DOUBLE, LIMIT_CASES };

typedef struct limit_in {
    const char *model;         /* a model name or file */
    long image;                /* image side */
    long batch;                /* per-GPU batch (weak scaling), when global_batch is 0 */
    long global_batch;         /* images a step over all GPUs (strong scaling); 0 = off */
    const char *preset;        /* platform preset or file */
    int gpus_per_node;         /* its GPUs per node (0: the platform's) */
    int max_nodes;             /* the largest node count tried */
    const profile *pr;         /* the device rates */
    size_t grad_bytes;         /* bytes per gradient element on the wire (wire.h; 0: 4) */
    size_t bucket_bytes;       /* DDP's bucket cap (0: one bucket) */
    double pct;                /* the efficiency to keep, % in (0, 100] */
} limit_in;

typedef struct limit_out {
    int gpus;                  /* the largest GPU count keeping pct% (at least one node: the baseline) */
    double eff;                /* its efficiency, % */
    int beyond;                /* 1: still >= pct% at the largest count tried (the limit lies beyond it) */
    int tried;                 /* the largest GPU count tried */
} limit_out;

/* The case's name ("as is", "NIC bw x0.5", ...). */
const char *limit_case_name(int c);
/* Algorithm algo (any with a cost model) under case c. 0, or 2 (bad input: unknown algorithm, a global
 * batch below one node's GPUs, a platform that cannot be made) / 1 (out of memory) with err. */
int limit_largest(const limit_in *in, const char *algo, int c, limit_out *out, char *err, size_t errlen);

#endif
