/* compute.h — the compute stream's clock: how the step's GEMMs overlap with communication.
 * Real CPU build (compute_host.c): GEMMs run synchronously on the calling thread, so every point of
 * the stream is already reached: begin and fence do nothing.
 * Simulation build (compute_sim.c): GEMMs are not executed; each one issues its injected time onto
 * a virtual compute clock that runs independently of the rank's communication (as a GPU's compute
 * stream does). kern_compute_fence blocks the rank (in simulated time) until the clock is reached:
 * the moment the gradients issued so far exist. */
#ifndef KERN_COMPUTE_H
#define KERN_COMPUTE_H

/* The stream cannot start work before now (call after a barrier or at the start of a step). */
void kern_compute_begin(void);
/* Add work of the given duration to the stream (simulation backends only). */
void kern_compute_issue(double seconds);
/* Block until all work issued so far is done. */
void kern_compute_fence(void);

#endif
