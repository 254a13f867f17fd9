/* mem_pool.c — the keep-list of mem_pool.h: a linear scan of MEM_POOL_SLOTS entries per call (a
 * launch allocates a handful of buffers per configuration). */
#include "mem_pool.h"

/* index of the smallest kept buffer holding `bytes` and at most twice as large, or -1 (a small
 * scratch buffer never takes the gradients' buffer that the next request needs) */
static int best_fit(const mem_pool *m, size_t bytes)
{
    int best = -1;
    for (int i = 0; i < MEM_POOL_SLOTS; i++) {
        const mem_pool_slot *s = &m->slot[i];
        if (s->p && !s->live && s->bytes >= bytes && s->bytes / 2 <= bytes &&
            (best < 0 || s->bytes < m->slot[best].bytes))
            best = i;
    }
    return best;
}

void *mem_pool_get(mem_pool *m, size_t bytes)
{
    int i = best_fit(m, bytes);
    if (i >= 0) {
        m->slot[i].live = 1;
        m->reused++;
        return m->slot[i].p;
    }
    void *p = m->alloc(bytes);
    if (!p) return NULL;
    for (i = 0; i < MEM_POOL_SLOTS && m->slot[i].p; i++) {}
    if (i < MEM_POOL_SLOTS) m->slot[i] = (mem_pool_slot){ p, bytes, 1 };
    return p; /* untracked when every slot is taken: mem_pool_put releases it */
}

void mem_pool_put(mem_pool *m, void *p)
{
    if (!p) return;
    int i, kept = 0, smallest = -1;
    for (i = 0; i < MEM_POOL_SLOTS && m->slot[i].p != p; i++) {}
    if (i == MEM_POOL_SLOTS) {
        m->release(p);
        return;
    }
    m->slot[i].live = 0;
    for (i = 0; i < MEM_POOL_SLOTS; i++) {
        const mem_pool_slot *s = &m->slot[i];
        if (!s->p || s->live) continue;
        kept++;
        if (smallest < 0 || s->bytes < m->slot[smallest].bytes) smallest = i;
    }
    if (kept > MEM_POOL_KEEP) {
        m->release(m->slot[smallest].p);
        m->slot[smallest] = (mem_pool_slot){ NULL, 0, 0 };
    }
}

void mem_pool_drain(mem_pool *m)
{
    for (int i = 0; i < MEM_POOL_SLOTS; i++) {
        if (!m->slot[i].p || m->slot[i].live) continue;
        m->release(m->slot[i].p);
        m->slot[i] = (mem_pool_slot){ NULL, 0, 0 };
    }
}
