/* compute.h — the compute stream's clock: how the step's GEMMs overlap with communication.
 * Real CPU build (compute_host.c): GEMMs run synchronously on the calling thread, so issued work is
 * always complete: kern_compute_mark returns -1 ("now") and the waits return at once.
 * Simulation build (compute_sim.c): GEMMs are not executed; each issues its injected duration onto a
 * virtual compute clock that runs independently of the rank's communication (as a GPU's compute
 * stream does). Times are in the simulated MPI_Wtime clock. */
#ifndef KERN_COMPUTE_H
#define KERN_COMPUTE_H

/* The stream cannot start work before now (call at the start of a step). */
void kern_compute_begin(void);
/* Add work of the given duration to the stream (simulation backends call this). */
void kern_compute_issue(double seconds);
/* When the work issued so far completes, in MPI_Wtime's clock; -1 if it already has (real CPU). */
double kern_compute_mark(void);
/* Block the caller until time t (a mark); no-op for t < 0 or t in the past. */
void kern_compute_wait_until(double t);
/* 1 in the simulation build (compute is injected, operands are address space only), else 0: the one
 * place where code asks which build it is in, answered by the backend the build links. */
int kern_simulated(void);

/* Spans: the duration of the compute work issued between kern_span_open and kern_span_close, added
 * up by kind. CPU and simulation: close returns the duration at once (the calling thread's or the
 * virtual clock's), and kern_span_collect adds nothing. CUDA: close records an event pair and
 * returns 0; kern_span_collect (after a mark, i.e. a drain) adds every pair's elapsed time since the
 * last collect to *gemm_s / *other_s (either may be NULL: discard). Spans do not nest. */
enum { KERN_SPAN_GEMM = 0, KERN_SPAN_OTHER = 1 };
typedef struct kern_span { double t0; int ev; } kern_span;
kern_span kern_span_open(void);
double kern_span_close(kern_span s, int kind);
int kern_span_collect(double *gemm_s, double *other_s); /* 0, or -1 (CUDA: kern_dev_last_error) */

/* Fences: a point in the compute stream's issue order. kern_fence_record marks the work issued so
 * far; kern_fence_wait (any thread) blocks until that work has completed. CPU and simulation: the
 * work is done (or virtually timed) when issued, so create gives NULL and record / wait return 0. */
typedef struct kern_fence kern_fence;
int kern_fence_create(kern_fence **f);
void kern_fence_free(kern_fence *f);
int kern_fence_record(kern_fence *f);
int kern_fence_wait(kern_fence *f);

#endif
