/* mem_sim.c — simulation backend of mem.h: big buffers come from SMPI_SHARED_MALLOC, which maps
 * every simulated rank's buffer allocated at the same call site onto the same physical pages, so
 * 256 ranks x 100 MB need one 100 MB copy. Contents are meaningless (ranks overwrite each other):
 * results cannot be validated in simulation. Sizes are rounded to 64 bytes as in mem_host.c.
 * Each SMPI_SHARED_MALLOC maps and populates every page of its size and its free unmaps them (a third
 * of a launch's CPU time when every configuration did it): freed buffers are kept per rank
 * (mem_pool.h; globals are per rank under SMPI) and reused by the next configuration. */
#include "mem.h"
#include "mem_pool.h"

#include <smpi/smpi.h>
#include <sys/mman.h>

static void *shared_alloc(size_t bytes) { return SMPI_SHARED_MALLOC(bytes); }
static void shared_release(void *p) { SMPI_SHARED_FREE(p); }

static mem_pool pool = { shared_alloc, shared_release, { { NULL, 0, 0 } }, 0 };

void *kern_buf_alloc(size_t bytes)
{
    size_t rounded = (bytes + 63) & ~(size_t)63;
    if (rounded < bytes) return NULL;
    return mem_pool_get(&pool, rounded ? rounded : 64);
}

void kern_buf_free(void *p) { mem_pool_put(&pool, p); }

void *kern_operand_alloc(size_t bytes)
{
    void *p = mmap(NULL, bytes ? bytes : 64, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    return p == MAP_FAILED ? NULL : p;
}

void kern_operand_free(void *p, size_t bytes)
{
    if (p) munmap(p, bytes ? bytes : 64);
}
