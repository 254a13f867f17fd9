/* mem_pool.h — a rank's keep-list of freed buffers, for a memory backend whose allocation is costly
 * (mem_sim.c: each SMPI_SHARED_MALLOC maps its whole size onto the shared block and populates every
 * page table entry, and the free unmaps them: 256 ranks x 356 MB of gradients cost seconds of kernel
 * time per allocation). A freed buffer is kept and handed to the next request it fits, so a launch's
 * configurations (one ddlbench train launch runs every algorithm in turn) map their gradients once.
 * Pure bookkeeping around the backend's alloc/release; the contents of a reused buffer are whatever
 * was left in it (meaningless under SMPI_SHARED_MALLOC anyway).
 * Reuse: the smallest kept buffer that holds the request and is at most twice its size (so a small
 * scratch never takes the large gradient buffer that the next request needs). At most MEM_POOL_KEEP freed buffers are
 * kept: past
 * that the smallest is released (the largest serve any later request). MEM_POOL_SLOTS buffers are
 * tracked at once (live or kept); beyond that, buffers pass straight through to the backend. */
#ifndef KERN_MEM_POOL_H
#define KERN_MEM_POOL_H

#include <stddef.h>

#define MEM_POOL_SLOTS 16 /* buffers tracked at once, live and kept */
#define MEM_POOL_KEEP 4   /* freed buffers kept for reuse */

typedef struct {
    void *p;      /* the buffer (NULL: slot empty) */
    size_t bytes; /* its size as allocated */
    int live;     /* 1: handed out; 0: freed and kept */
} mem_pool_slot;

typedef struct {
    void *(*alloc)(size_t bytes); /* the backend; NULL on failure */
    void (*release)(void *p);
    mem_pool_slot slot[MEM_POOL_SLOTS];
    long reused; /* requests served from kept buffers (for tests and diagnostics) */
} mem_pool;

/* A buffer of at least `bytes` (a kept one if one fits, else the backend's); NULL on failure. */
void *mem_pool_get(mem_pool *m, size_t bytes);
/* Gives p back: kept for reuse (releasing the smallest kept one past MEM_POOL_KEEP), or released at
 * once when the pool does not track it. NULL is ignored. */
void mem_pool_put(mem_pool *m, void *p);
/* Releases every kept buffer (live ones stay the caller's). */
void mem_pool_drain(mem_pool *m);

#endif
