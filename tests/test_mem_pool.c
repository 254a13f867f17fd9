/* test_mem_pool.c — the keep-list of kernels/mem_pool.h over a counting malloc: a freed buffer is
 * reused by the next request it fits (and not by one less than half its size), the smallest fit wins,
 * at most MEM_POOL_KEEP freed buffers stay, untracked buffers pass through, and draining releases
 * every kept buffer (the counts balance: nothing leaks, nothing is released twice). */
#include "mem_pool.h"
#include "test.h"

#include <stdlib.h>

static int allocs, releases;
static void *count_alloc(size_t bytes) { allocs++; return malloc(bytes); }
static void count_release(void *p) { releases++; free(p); }
static mem_pool fresh(void) { return (mem_pool){ count_alloc, count_release, { { NULL, 0, 0 } }, 0 }; }

/* configurations in turn, as one ddlbench train launch runs them: scratch, gradients, free both */
static void configurations(void)
{
    mem_pool m = fresh();
    allocs = releases = 0;
    void *first_grads = NULL;
    for (int c = 0; c < 5; c++) {
        void *s1 = mem_pool_get(&m, 512 << 10), *s2 = mem_pool_get(&m, 512 << 10); /* auto: two contexts */
        void *g = mem_pool_get(&m, 100 << 20);
        CHECK(s1 && s2 && g && s1 != s2, "configuration %d: three distinct buffers", c);
        if (c == 0) first_grads = g;
        CHECK(g == first_grads, "configuration %d: the gradients reuse the first buffer", c);
        mem_pool_put(&m, s1), mem_pool_put(&m, g), mem_pool_put(&m, s2);
    }
    CHECK(allocs == 3, "5 configurations: 3 allocations, got %d", allocs);
    CHECK(m.reused == 12, "12 requests served from kept buffers, got %ld", m.reused);
    mem_pool_drain(&m);
    CHECK(releases == 3, "drain releases the 3 kept buffers, got %d", releases);
}

static void fits(void)
{
    mem_pool m = fresh();
    allocs = releases = 0;
    void *big = mem_pool_get(&m, 1000), *mid = mem_pool_get(&m, 600);
    mem_pool_put(&m, big), mem_pool_put(&m, mid);
    CHECK(mem_pool_get(&m, 500) == mid, "smallest fit: 500 bytes take the 600-byte buffer");
    mem_pool_put(&m, mid);
    void *small = mem_pool_get(&m, 100);
    CHECK(small != big && small != mid && allocs == 3, "100 bytes never take a kept buffer of 600 or more");
    CHECK(mem_pool_get(&m, 300) == mid, "300 bytes take the 600-byte buffer (at most twice the request)");
    CHECK(mem_pool_get(&m, 1000) == big, "an exact fit is reused");
    void *over = mem_pool_get(&m, 1001);
    CHECK(over && allocs == 4, "a request larger than every kept buffer is allocated");
    mem_pool_put(&m, over), mem_pool_put(&m, small), mem_pool_put(&m, mid), mem_pool_put(&m, big);
    mem_pool_put(&m, NULL);
    CHECK(releases == 0, "4 kept buffers (MEM_POOL_KEEP): none released, got %d", releases);
    mem_pool_drain(&m);
    CHECK(releases == 4 && allocs == releases, "drain: every buffer released once (%d of %d)", releases, allocs);
}

static void keep_limit(void)
{
    mem_pool m = fresh();
    allocs = releases = 0;
    void *p[MEM_POOL_KEEP + 2];
    for (int i = 0; i < MEM_POOL_KEEP + 2; i++) p[i] = mem_pool_get(&m, (size_t)(i + 1) << 12);
    for (int i = 0; i < MEM_POOL_KEEP + 2; i++) mem_pool_put(&m, p[i]);
    CHECK(releases == 2, "%d freed, %d kept: 2 released, got %d", MEM_POOL_KEEP + 2, MEM_POOL_KEEP, releases);
    CHECK(mem_pool_get(&m, (size_t)(MEM_POOL_KEEP + 2) << 12) == p[MEM_POOL_KEEP + 1], "the largest is kept");
    CHECK(allocs == MEM_POOL_KEEP + 2, "no new allocation for the largest");
    mem_pool_put(&m, p[MEM_POOL_KEEP + 1]);
    mem_pool_drain(&m);
    CHECK(releases == allocs, "balanced: %d released of %d", releases, allocs);
}

static void untracked(void)
{
    mem_pool m = fresh();
    allocs = releases = 0;
    void *p[MEM_POOL_SLOTS + 3];
    for (int i = 0; i < MEM_POOL_SLOTS + 3; i++) p[i] = mem_pool_get(&m, 64);
    CHECK(allocs == MEM_POOL_SLOTS + 3, "every live request allocates");
    for (int i = MEM_POOL_SLOTS; i < MEM_POOL_SLOTS + 3; i++) mem_pool_put(&m, p[i]);
    CHECK(releases == 3, "the 3 untracked buffers are released at once, got %d", releases);
    for (int i = 0; i < MEM_POOL_SLOTS; i++) mem_pool_put(&m, p[i]);
    mem_pool_drain(&m);
    CHECK(releases == allocs, "balanced: %d released of %d", releases, allocs);
}

static int fail_alloc_calls;
static void *no_memory(size_t bytes) { (void)bytes; fail_alloc_calls++; return NULL; }

static void out_of_memory(void)
{
    mem_pool m = { no_memory, count_release, { { NULL, 0, 0 } }, 0 };
    CHECK(mem_pool_get(&m, 64) == NULL && fail_alloc_calls == 1, "a failed allocation returns NULL");
    CHECK(m.slot[0].p == NULL, "and takes no slot");
}

int main(void)
{
    configurations();
    fits();
    keep_limit();
    untracked();
    out_of_memory();
    return TEST_REPORT();
}
