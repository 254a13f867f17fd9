/* mem.h — large buffers (gradients, activations): the simulation seam for memory.
 * Real build (mem_host.c): page-aligned host memory. Simulation build (mem_sim.c):
 * SMPI_SHARED_MALLOC, so 256 simulated ranks share one copy (contents are then meaningless).
 * Returns NULL on failure; bytes == 0 gives a valid pointer that kern_buf_free accepts. */
#ifndef KERN_MEM_H
#define KERN_MEM_H

#include <stddef.h>

void *kern_buf_alloc(size_t bytes);
void kern_buf_free(void *p);

/* Operands that only compute kernels (GEMM, SGD) read or write: activations, weights. Real build:
 * as kern_buf_alloc. Simulation: those kernels are injected and touch nothing, so this is address
 * space without memory (PROT_NONE): no shared-malloc mapping to build for 256 ranks, and any touch
 * faults at once instead of silently computing on shared garbage. */
void *kern_operand_alloc(size_t bytes);
void kern_operand_free(void *p, size_t bytes);

/* The copies of a collective, priced under simulation (issue 26; host build: memcpy, nothing):
 * kern_copy      a whole-buffer copy (the q = 1 step, a rank's own block, Open MPI's copy of the send
 *                vector under the simulated `mpi`): memcpy; simulated, also bytes x the plain copy's
 *                cost at the working set (kern_sim_copy_cost at what the collective touches,
 *                kern_reduce_set_working_set: reduce.h);
 * kern_landed    a segment MPI wrote into a landing slot or in place: simulated, bytes x what the
 *                working set costs beyond a segment alone (SMPI's link already prices that);
 * kern_posted    one message posted (send or receive): simulated, the per-call overhead;
 * kern_poll_pause the pause between two tests of a polling wait (coll_waitall, poll_us > 0): nanosleep
 *                of us microseconds; simulated, us plus the machine's measured oversleep (the
 *                platform's poll_slack: what a nanosleep takes beyond what it asks for);
 * kern_fresh_pages bytes of memory written for the first time since they were mapped (a temporary
 *                that glibc's malloc maps anew on every call: above its 32 MiB largest mmap threshold):
 *                host build, nothing (the real call pays its own faults); simulated, bytes x the
 *                platform's fault_ns (sim.h);
 * kern_whole_message a message of `bytes` sent whole to another node, as MPI's own collectives send
 *                it (the simulated `mpi`): host build, nothing; simulated, bytes x the platform's
 *                whole_ns at that size (sim.h: the rendezvous beyond eager pieces);
 * kern_moves_posted 1 where posted messages move without their ranks (the simulator's links: SMPI),
 *                0 where a rank moves them inside its MPI calls (host build: on one node, MPI's
 *                shared-memory copies; exchange.c posts its receives accordingly under polling). */
void kern_copy(void *dst, const void *src, size_t bytes);
void kern_landed(size_t bytes);
void kern_posted(void);
void kern_poll_pause(long us);
void kern_fresh_pages(size_t bytes);
void kern_whole_message(size_t bytes);
int kern_moves_posted(void);

#endif
