/* calib_contend.c — part 6 of `ddlbench gpu-check` (calib_gpu.h; the table: harness/cli/
 * cli_gpucheck_contend.c): compute and communication
 * side by side on one GPU, the two non-ideal terms of the step schedule measured on the device
 * (harness/train/framework.c: `--contention`, compute slowed by communication, and `--comm-contention`,
 * communication slowed by compute).
 * Compute: a batch of the largest ResNet-50 GEMM (batch 32, 224x224) on the compute stream. Communication,
 * on a second stream, one of:
 *   reduce  the reduction kernel (float32 sum of two 64 MiB buffers, what an allreduce's reduce step
 *           runs) on every SM it can take (an upper bound), and capped at 32 blocks of 256 threads
 *           (NCCL 2.x's kernels: at most MAXCHANNELS = 32 blocks, one a channel, of up to 512 threads,
 *           src/include/devcomm.h: so about what a collective library takes);
 *   copy    a pinned D2H then H2D copy of 64 MiB (the staged path's traffic: copy engines and HBM only).
 * Each kind alone, then each beside a background of the other sized to outlast it 3 times (issued
 * first), so the timed batch is overlapped from its first kernel to its last. Median of 5 rounds;
 * contention = beside / alone - 1. Times by CUDA events on each stream. */
#include "bench.h"
#include "calib_gpu.h"
#include "devmem.h"
#include "gemm.h"
#include "model.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define ROUNDS GPUCHECK_CONTEND_ROUNDS
#define COMM_BYTES ((size_t)64 << 20)
#define BATCH_S 0.010   /* a timed batch lasts about this long alone */
#define MAX_LAUNCH 900  /* below CUDA's pending-launch queue, so issuing never blocks the host */

struct gpucheck_contend {
    kern_precision prec;
    const model_gemm *g;
    void *A, *B;
    float *C;
    kern_stream *cs;           /* the communication stream */
    void *x, *y, *h;           /* two device buffers, one pinned host buffer, COMM_BYTES each */
    int copy;                  /* 1: D2H + H2D copies, 0: the reduction kernel */
    kern_event *ev[4];         /* gemm start/end, comm start/end */
};
typedef struct gpucheck_contend contend;

/* Launches for a batch of about `target` seconds of units of `one` seconds, in [1, MAX_LAUNCH]. */
int gpucheck_batch_count(double target, double one)
{
    if (!(one > 0)) return 1;
    double n = ceil(target / one);
    return n < 1 ? 1 : n > MAX_LAUNCH ? MAX_LAUNCH : (int)n;
}

static int issue_gemm(const contend *c, int n)
{
    const model_gemm *g = c->g;
    int rc = 0;
    for (int i = 0; !rc && i < n; i++)
        rc = kern_gemm_ex(c->prec, g->transa, g->transb, g->m, g->n, g->k, 1.0f, c->A, g->transa ? g->m : g->k, c->B,
                          g->transb ? g->k : g->n, 0.0f, c->C, g->n);
    return rc;
}

static int issue_comm(const contend *c, int n)
{
    int rc = 0;
    for (int i = 0; !rc && i < n; i++)
        rc = c->copy ? kern_dev_copy(c->h, c->x, COMM_BYTES, c->cs) || kern_dev_copy(c->y, c->h, COMM_BYTES, c->cs)
                     : kern_reduce_device(KERN_F32, KERN_SUM, c->x, c->x, c->y, COMM_BYTES / 4, c->cs);
    return rc;
}

/* ng GEMMs and nc communication units, the background kind issued first (comm_first), each kind
 * timed on its own stream; *tg / *tc: seconds (0 where none was issued). */
static int run(const contend *c, int ng, int nc, int comm_first, double *tg, double *tc)
{
    kern_stream *gs = kern_dev_compute_stream();
    int rc = 0;
    *tg = *tc = 0;
    for (int k = 0; k < 2 && !rc; k++) {
        int comm = comm_first ? k == 0 : k == 1;
        if (comm && nc > 0)
            rc = kern_event_record(c->ev[2], c->cs) || issue_comm(c, nc) || kern_event_record(c->ev[3], c->cs);
        else if (!comm && ng > 0)
            rc = kern_event_record(c->ev[0], gs) || issue_gemm(c, ng) || kern_event_record(c->ev[1], gs);
    }
    if (!rc && ng > 0) rc = kern_event_sync(c->ev[1]) || kern_event_elapsed(c->ev[0], c->ev[1], tg);
    if (!rc && nc > 0) rc = kern_event_sync(c->ev[3]) || kern_event_elapsed(c->ev[2], c->ev[3], tc);
    return rc;
}

/* Median contention of both kinds: *pg = GEMMs beside communication, *pc = communication beside GEMMs (%). */
static int measure(const contend *c, double *pg, double *pc, double *ms_g, double *ms_c)
{
    double tg1 = 0, tc1 = 0, t0, g[ROUNDS], m[ROUNDS], ga[ROUNDS], ca[ROUNDS];
    int rc = run(c, 10, 0, 0, &tg1, &t0) || run(c, 10, 0, 0, &tg1, &t0) || run(c, 0, 4, 0, &t0, &tc1) ||
             run(c, 0, 4, 0, &t0, &tc1); /* warm-up, then one unit's time of each */
    if (rc) return rc;
    int ng = gpucheck_batch_count(BATCH_S, tg1 / 10), nc = gpucheck_batch_count(BATCH_S, tc1 / 4);
    for (int r = 0; !rc && r < ROUNDS; r++) {
        double a, b, x, y;
        rc = run(c, ng, 0, 0, &ga[r], &x) || run(c, 0, nc, 0, &y, &ca[r]) ||
             run(c, ng, gpucheck_batch_count(3 * ga[r], ca[r] / nc), 1, &a, &x) || /* GEMMs beside a longer comm */
             run(c, gpucheck_batch_count(3 * ca[r], ga[r] / ng), nc, 0, &y, &b);  /* comm beside longer GEMMs */
        if (!rc) g[r] = a / ga[r], m[r] = b / ca[r];
    }
    if (rc) return rc;
    bench_stats sg, sm, sga, sca;
    bench_summarise(g, ROUNDS, &sg), bench_summarise(m, ROUNDS, &sm);
    bench_summarise(ga, ROUNDS, &sga), bench_summarise(ca, ROUNDS, &sca);
    *pg = 100 * (sg.median - 1), *pc = 100 * (sm.median - 1);
    *ms_g = 1e3 * sga.median / ng, *ms_c = 1e3 * sca.median / nc;
    return 0;
}

int gpucheck_contend_open(gpucheck_contend **out, const model_gemm *g, void *A, void *B, float *C)
{
    contend *c = calloc(1, sizeof *c);
    int rc = !c;
    *out = c;
    if (rc) return rc;
    c->g = g, c->A = A, c->B = B, c->C = C;
    rc = kern_stream_create(&c->cs) || kern_dev_alloc(&c->x, COMM_BYTES) || kern_dev_alloc(&c->y, COMM_BYTES) ||
         kern_dev_host_alloc(&c->h, COMM_BYTES) || kern_dev_memset(c->x, 0, COMM_BYTES, c->cs) ||
         kern_dev_memset(c->y, 0, COMM_BYTES, c->cs) || kern_stream_sync(c->cs);
    for (int i = 0; !rc && i < 4; i++) rc = kern_event_create(&c->ev[i]);
    return rc;
}

int gpucheck_contend_measure(gpucheck_contend *c, int copy, unsigned blocks, kern_precision prec, double *pg,
                             double *pc, double *ms_g, double *ms_c)
{
    int rc;
    c->copy = copy, c->prec = prec;
    if (!(rc = kern_reduce_device_cap(blocks))) rc = measure(c, pg, pc, ms_g, ms_c);
    return rc;
}

void gpucheck_contend_close(gpucheck_contend *c)
{
    kern_reduce_device_cap(0);
    if (!c) return;
    for (int i = 0; i < 4; i++) kern_event_free(c->ev[i]);
    kern_dev_free(c->x), kern_dev_free(c->y), kern_dev_host_free(c->h), kern_stream_free(c->cs);
    free(c);
}
