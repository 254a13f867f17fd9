/* compute_host.c — real CPU backend of compute.h: the work is done when the call returns, so a span
 * is the calling thread's elapsed time and fences are no-ops. */
#include "compute.h"

#include <stddef.h>
#include <time.h>

void kern_compute_begin(void) {}
void kern_compute_issue(double seconds) { (void)seconds; }
double kern_compute_mark(void) { return -1.0; }
void kern_compute_wait_until(double t) { (void)t; }
int kern_simulated(void) { return 0; }

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

kern_span kern_span_open(void) { kern_span s = { now(), -1 }; return s; }
double kern_span_close(kern_span s, int kind) { (void)kind; return now() - s.t0; }
int kern_span_collect(double *gemm_s, double *other_s) { (void)gemm_s, (void)other_s; return 0; }

int kern_fence_create(kern_fence **f) { *f = NULL; return 0; }
void kern_fence_free(kern_fence *f) { (void)f; }
int kern_fence_record(kern_fence *f) { (void)f; return 0; }
int kern_fence_wait(kern_fence *f) { (void)f; return 0; }
