/* calib_gpu.h — gpu-check's device measurements (harness/cli/cli_gpucheck*.c print them): the layer
 * kernels' memory rate and the trainer's step (calib_gpu.c), compute beside communication on two
 * streams (calib_contend.c). Without a device every call fails (kernels/devmem_none.c). */
#ifndef HARN_CALIB_GPU_H
#define HARN_CALIB_GPU_H

#include "ddl.h"
#include "devmem.h"
#include "gemm.h"

#define GPUCHECK_REPS 5          /* GEMM and memory timings: the median of */
#define GPUCHECK_STEP_WARMUP 2   /* steps before the timed ones */
#define GPUCHECK_STEP_REPS 5     /* timed steps: the median */
#define GPUCHECK_CONTEND_ROUNDS 5 /* contention rounds: the median */

struct model;
struct model_gemm;

/* Median seconds of GPUCHECK_REPS runs of GEMM g at precision p on device buffers A, B, C (after a warm-up).
 * 0, or non-zero. */
int gpucheck_time_gemm(kern_precision p, const struct model_gemm *g, void *A, void *B, float *C, double *sec);
/* cuBLAS at p against a float64 CPU reference (192x160x1024, values in [-1, 1)): the max over C of
 * |C - R| / sum |a||b| into *err. 0, or non-zero. */
int gpucheck_check_precision(kern_precision p, double *err);
/* The bound on that error: the GEMM's own input rounding (tf32: 2^-11) plus float32 accumulation. */
double gpucheck_bound(kern_precision p);
/* The reduction kernel (float32 sum, 256 MB: GB/s counting 3 bytes moved per byte, and ns per byte)
 * and a D2D copy of as much (GB/s), medians of GPUCHECK_REPS. 0, or non-zero. */
int gpucheck_time_memory(double *reduce_gbs, double *copy_gbs, double *ns_per_byte);
/* The memory-bound layer kernels' rate (batch norm + ReLU forward and backward, 256 MiB; GB/s).
 * 0, or non-zero. */
int gpucheck_mem_rate(double *gbps);
/* Median images/s of the trainer's step of m on ctx at prec, gemm only (full 0) or full; the median
 * GEMM and other time into *gemm_ms, *other_ms. < 0 on failure with one line in why. */
double gpucheck_step_rate(const struct model *m, ddl_ctx *ctx, kern_precision prec, int full, double *gemm_ms,
                          double *other_ms, char *why, size_t whylen);

/* Launches for a batch of about `target` seconds of `one`-second units, within [1, 900]. */
int gpucheck_batch_count(double target, double one);
/* Compute beside communication: GEMM g (A, B, C: device buffers large enough for it) on the compute
 * stream, a second stream with two 64 MiB device buffers and a pinned host one. */
typedef struct gpucheck_contend gpucheck_contend;
/* *c is set even on failure (close it). 0, or non-zero. */
int gpucheck_contend_open(gpucheck_contend **c, const struct model_gemm *g, void *A, void *B, float *C);
/* One kind (copy 1: D2H + H2D copies; 0: the reduction kernel on at most `blocks` blocks, 0 = every SM)
 * at prec: *pg = GEMMs slowed beside communication, *pc = communication slowed beside GEMMs (%), the
 * median of GPUCHECK_CONTEND_ROUNDS; *ms_g, *ms_c: one unit of each alone (ms). 0, or non-zero. */
int gpucheck_contend_measure(gpucheck_contend *c, int copy, unsigned blocks, kern_precision prec, double *pg,
                             double *pc, double *ms_g, double *ms_c);
void gpucheck_contend_close(gpucheck_contend *c); /* NULL: nothing; lifts the reduction kernel's cap */

#endif
