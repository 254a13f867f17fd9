/* engine.h — the communication engine: allreduces gradient buckets while backward runs.
 * The step posts each bucket the moment its last gradient is written; the engine allreduces buckets
 * in posting order (every rank posts the same order, so the collectives match) and the step waits
 * for all of them before the SGD update.
 * Real build (engine_thread.c): one communication thread per rank, the only thread calling MPI
 * between engine_begin_step and engine_wait_all (MPI_THREAD_SERIALIZED suffices). A thread, not
 * non-blocking progress, because our algorithms are blocking sequences of exchanges and a CPU
 * rank's main thread is busy in BLAS with no place to poll; Horovod and DDP do the same.
 * Simulation build (engine_sim.c): SMPI ranks cannot start threads that call MPI; compute
 * there is injected on a virtual compute clock, so the engine runs each allreduce inline once the
 * clock reaches the bucket's ready time — the same schedule a thread would give. */
#ifndef HARN_COMM_ENGINE_H
#define HARN_COMM_ENGINE_H

#include "bucket.h"
#include "ddl.h"
#include "framework.h"

typedef struct engine engine;

typedef struct engine_stats {
    double busy_s;      /* sum of allreduce durations this step */
    double first_start; /* MPI_Wtime when the first allreduce began */
    double last_end;    /* MPI_Wtime when the last allreduce ended */
    int buckets;        /* buckets allreduced */
    double slowed_s;    /* simulation: the extra backward compute that contention costs (framework.h) */
    double comm_slowed_s; /* simulation: the extra allreduce time that comm_contention costs (in busy_s) */
} engine_stats;

/* The MPI thread level the engine needs from MPI_Init_thread. */
int engine_thread_level(void);
/* The ddl_config.poll_us a training run uses unless told otherwise: 50 us for the thread engine
 * (on a CPU run the communication thread shares cores with BLAS, and a spinning MPI_Wait would take
 * a core from the GEMMs), 0 under simulation (no thread). */
int engine_default_poll_us(void);
int engine_create(ddl_ctx *ctx, void *grads, ddl_dtype dtype, const bucket_plan *plan, engine **out);
void engine_begin_step(engine *e);
/* What makes the allreduces of the posted buckets (framework.h; default: the ideal one). The
 * simulation engine takes any; the thread engine only the ideal one (-1 otherwise: a real run pays its
 * own framework's costs, it does not add modelled ones). 0, or -1. */
int engine_set_framework(engine *e, const framework *fw);
/* Sharding (shard_step.h: shard_bucket_reduce): each bucket reduce-scattered, its remainder
 * allreduced, instead of one allreduce; ranks: the communicator's size. sharded: 0 (allreduce), 1
 * (optimizer, gradients), 2 (full: gathers posted too, engine_post_gather). Buckets only (the
 * simulation engine's cycles fuse buckets: -1 with a framework of cycles). 0, or -1. */
int engine_set_shard(engine *e, int sharded, int ranks);
int engine_post(engine *e, int bucket);
/* Full sharding (ZeRO-3 / FSDP): after what was posted before it, bucket's parameters allgathered in
 * place at dst (the bucket's own buffer): its first ranks·c elements, c = count / ranks, rank r's block
 * at dst + r·c (a bucket's remainder is updated alike on every rank: not gathered);
 * engine_wait_gather blocks until the last posted gather of the bucket is done, so the step
 * prefetches: it posts the next bucket's gather, computes, then waits. Under simulation the waits run
 * what was posted, in order, each at max(its post, the previous one's end), on the MPI clock; the
 * caller's compute then starts at the later of its own mark and that end. 0, or non-zero (the first
 * failure's message as engine_wait_all gives it). */
int engine_post_gather(engine *e, int bucket, float *dst);
/* Gradient sharding: bucket b reduced (shard_bucket_reduce) at buf, its own buffer, instead of its place
 * in the gradient buffer (NULL: back to it); engine_wait_bucket blocks until this step's reduction of
 * bucket b is done, so its buffer may be read and reused (under simulation it returns at once: the
 * values are simulated and the reductions run at the drain). 0, or -1 (bad bucket) / the failure. */
int engine_set_bucket_buf(engine *e, int b, void *buf);
int engine_wait_bucket(engine *e, int b, char *err, size_t errlen);
int engine_wait_gather(engine *e, int bucket, char *err, size_t errlen);
/* Device mode (the CUDA build's gradients are written on the compute stream): from now on
 * engine_post records a fence (compute.h) for the bucket and the thread engine waits for that fence
 * alone before allreducing it, never for a drain of the stream. 0, or -1 (kern_dev_last_error).
 * The simulation engine waits for its marks instead: a no-op there. */
int engine_use_fences(engine *e);
/* Waits for every posted allreduce; 0, or non-zero with the first failure's one-line message in err
 * (a failure stays: every later wait returns it). */
int engine_wait_all(engine *e, engine_stats *st, char *err, size_t errlen);
void engine_free(engine *e);

#endif
