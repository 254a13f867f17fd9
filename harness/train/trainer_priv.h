/* trainer_priv.h — the trainer's state, shared by trainer.c (the step) and trainer_buffers.c (its
 * buffers); nothing outside harness/train/trainer*.c includes it. */
#ifndef HARN_TRAINER_PRIV_H
#define HARN_TRAINER_PRIV_H

#include "bucket.h"
#include "engine.h"
#include "layers.h"
#include "step_full.h"
#include "step_mem.h"
#include "trainer.h"
#include "perf_layer.h"
#include "shard_mem.h"

/* A run of elements the optimizer updates: parameters at w, gradients at g, state at s (trainer_shard.c). */
typedef struct trainer_range {
    size_t w, g, s, n;
    int tensor;             /* LAMB: the tensor they lie in (ranges split at tensors); else -1 */
    int counted;            /* LAMB: this rank adds them to the tensor's norms (a bucket's remainder,
                               updated by every rank: rank 0 only) */
} trainer_range;

struct trainer {
    const model *m;
    ddl_ctx *ctx;
    step_config cfg;
    int rank, size;
    bucket_plan plan;
    engine *eng;
    const step_mem *mem;    /* host or device buffers and kernels */
    int real;               /* buffers hold data (not simulated operands) */
    float *params, *grads;  /* flat, plan.total elements */
    void *wire;             /* --grad-dtype fp16/bf16: the 2-byte copy the allreduces move (NULL: grads) */
    float *x, *dx, *y;      /* activations (synthetic; gemm mode) */
    step_full *full;        /* full mode: the network's data flow */
    const kern_layer_ops *ops; /* full mode: host, simulated or device kernels */
    float *mom;             /* SGD velocity (full mode) or Adam's and LAMB's m, state_n elements */
    size_t state_n;         /* the optimizer state's elements: plan.total, or sharded the rank's blocks and
                               the buckets' remainders (trainer_shard.c) */
    size_t *state_off;      /* sharded: [nbuckets] where each bucket's state starts; NULL otherwise */
    trainer_range *ranges;  /* what this rank updates: everything, or per bucket its block and remainder */
    int nranges;
    float *mom2;            /* Adam, LAMB: v (mom: m), state_n elements */
    double *norms;          /* LAMB: [2 ntensors] each tensor's Σw², Σu² */
    long optim_step;        /* Adam, LAMB: updates so far (the bias corrections' t) */
    int gather;             /* --shard full on 2+ ranks: parameters gathered before use (trainer_gather.c) */
    float *pshard;          /* then: the rank's parameters (state_n elements, the state's layout); params NULL */
    float *arena;           /* its gathered buckets: nslots slots, slot_n elements (MPI moves it) */
    size_t *slot_at;        /* [nslots + 1] where each slot starts in the arena (the last: slot_n) */
    size_t slot_n;
    int nslots;
    int *gseq[2], gn[2];    /* the buckets in the order forward (0) and backward (1) first need them */
    int *gpos[2];           /* [nbuckets] each bucket's place in gseq (-1: not needed) */
    int *gslot[2];          /* [gn] the slot each place's bucket is gathered into */
    size_t *poff[2];        /* [ntensors] where each tensor's parameters sit in the arena, per pass */
    size_t *cur_off;        /* [ntensors] the pass under way's (step_full's io.poffset; gemm mode's weights) */
    float *whole;           /* trainer_gather_params: every parameter, for tests (made on its first call) */
    float *gshard;          /* gradient sharding (trainer_gslots.c): the rank's summed gradients, state_n */
    float *garena;          /* backward's gradients, ngslots slots (MPI moves it); NULL: grads is whole */
    size_t *gslot_at;       /* [ngslots + 1] where each slot starts in garena */
    int ngslots;
    int *gslot_of, *gprev;  /* [nbuckets] each bucket's slot; the bucket there before it (-1: none) */
    int *gfirst;            /* [nbuckets] the backward step (layer n − 1 − j at step j) first writing it */
    int *gcopied;           /* [nbuckets] its block and remainder copied to gshard this step */
    size_t *goff;           /* [ntensors] where each tensor's gradient sits in garena */
    int gpass, gpost, gwait, gfail; /* the pass under way: gathers posted and waited for so far */
    size_t kn, mn;          /* their sizes in elements (K×N, M×N) */
    float *host;            /* host view of the gradients for --check: grads itself on the host */
    void *wh, *xh, *yh;     /* bf16/fp16 GEMM inputs: weights, X, dY (NULL otherwise) */
    const char *in_w, *in_x, *in_y; /* GEMM inputs: params, x, y or their 2-byte copies */
    size_t es;              /* bytes per GEMM input element */
    double gemm_s, nongemm_s; /* this step's GEMM and other-kernel seconds so far */
    double stretch;         /* this step's jitter draw x: each GEMM takes (1 + x) times as long */
    int step;               /* the step being run (check values) */
    int priced;             /* simulation: each layer's time from perf_layer, the kernels silent (sim.h) */
    layer_price lp;         /* its pricer */
    char err[256];          /* the failing step's message, on its way up through sched_step */
};

/* Every buffer of the step (trainer_buffers.c): parameters, gradients, the synthetic activations (gemm
 * mode) or the velocities (full mode), the host view for --check and the 2-byte GEMM inputs, filled.
 * 0, or 1 with t->err. trainer_free releases them. */
int trainer_alloc_buffers(trainer *t);

/* trainer_shard.c: the optimizer state's layout (before trainer_alloc_buffers) and the update;
 * trainer_gather.c, full sharding's gathers: the plan (its slots and arena), a pass begun (its first
 * bucket's gather posted), layer l's buckets waited for (the next one's gather posted: the prefetch).
 * 0, or 1 with t->err. */
int trainer_state_layout(trainer *t);
int trainer_update(trainer *t);
/* trainer_gslots.c: gradient sharding's shard and slots: wanted (--shard gradients|full on 2+ ranks, fp32
 * on the wire), planned and allocated (after the state layout), the engine told each bucket's slot,
 * layer l's backward about to write (the slots it reuses waited for and copied out), the drain's copies.
 * 0, or 1 (with t->err from trainer_gslots_layer). */
int trainer_gslots_wanted(const trainer *t);
int trainer_gslots_plan(trainer *t);
int trainer_gslots_engine(trainer *t);
int trainer_gslots_layer(trainer *t, int l);
void trainer_gslots_drain(trainer *t);
void trainer_gslots_free(trainer *t);
/* Range r's summed gradients: in the rank's gradient shard, or the flat gradients. */
static inline float *trainer_gp(const trainer *t, const trainer_range *r)
{
    return t->gshard ? t->gshard + r->s : t->grads + r->g;
}
/* Range r's parameters: in the rank's shard (full sharding) or the flat parameters. */
static inline float *trainer_wp(const trainer *t, const trainer_range *r)
{
    return t->pshard ? t->pshard + r->s : t->params + r->w;
}
/* trainer_optim.c: Adam or LAMB over t->ranges (LAMB's norms allreduced when sharded). 0, or 1. */
int trainer_optim_update(trainer *t);
int trainer_gather_plan(trainer *t);
void trainer_stage(trainer *t, int b, float *dst); /* bucket b's block and remainder from pshard into dst */
void trainer_gather_free(trainer *t);
int trainer_gather_begin(trainer *t, int backward);
int trainer_gather_layer(trainer *t, int l);
float *trainer_gather_buf(trainer *t); /* where gathers land: params (real), grads (simulated values) */
void trainer_shard_free(trainer *t);
double trainer_stream_time(void);     /* when the compute issued so far completes (trainer.c) */
/* The jitter (trainer_jitter.c) of GEMMs that took d seconds: stretch·d more, spun (real) or issued
 * (simulation); returns it. */
double trainer_jitter_wait(const trainer *t, double d);
#endif
