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

#endif
