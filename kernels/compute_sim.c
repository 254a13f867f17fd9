/* compute_sim.c — simulation backend of compute.h: a virtual compute clock per simulated rank.
 * Issued work extends the clock; waiting advances the rank's simulated time with sg_actor_sleep_for
 * (smpi_execute would scale by smpi/host-speed and drop durations under smpi/cpu-threshold).
 * Communication meanwhile advances MPI_Wtime on its own, so compute and communication overlap. */
#include "compute.h"

#include <mpi.h>
#include <simgrid/actor.h>

static double clock_end; /* simulated time at which the issued work ends (SMPI privatises globals) */

void kern_compute_begin(void)
{
    double now = MPI_Wtime();
    if (clock_end < now) clock_end = now;
}

void kern_compute_issue(double seconds)
{
    if (seconds > 0) clock_end += seconds;
}

double kern_compute_mark(void) { return clock_end; }

void kern_compute_wait_until(double t)
{
    double wait = t - MPI_Wtime();
    if (wait > 0) sg_actor_sleep_for(wait);
}

int kern_simulated(void) { return 1; }

/* Spans on the virtual clock (what the step measured with marks before); fences: the engine waits
 * for a bucket's mark itself (engine_sim.c), so they are no-ops here. */
kern_span kern_span_open(void) { kern_span s = { clock_end, -1 }; return s; }
double kern_span_close(kern_span s, int kind) { (void)kind; return clock_end - s.t0; }
int kern_span_collect(double *gemm_s, double *other_s) { (void)gemm_s, (void)other_s; return 0; }

int kern_fence_create(kern_fence **f) { *f = NULL; return 0; }
void kern_fence_free(kern_fence *f) { (void)f; }
int kern_fence_record(kern_fence *f) { (void)f; return 0; }
int kern_fence_wait(kern_fence *f) { (void)f; return 0; }
