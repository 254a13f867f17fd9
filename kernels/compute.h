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

#endif
