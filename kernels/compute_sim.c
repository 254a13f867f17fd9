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
