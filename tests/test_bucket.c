/* test_bucket.c — bucket plans: contiguous, cover every tensor once, respect caps, backward order. */
#include "bucket.h"
#include "test.h"

static void check_plan(const size_t *counts, int n, size_t cap, size_t first, int want_buckets)
{
    bucket_plan p;
    int rc = bucket_plan_make(counts, n, 4, cap, first, &p);
    CHECK(rc == 0, "plan n=%d cap=%zu", n, cap);
    if (rc) return;
    size_t total = 0, next = 0;
    int ok = 1;
    for (int t = n - 1; t >= 0; t--) { /* backward order is buffer order */
        ok &= p.tensor_offset[t] == next;
        next += counts[t];
        total += counts[t];
    }
    CHECK(ok && p.total == total, "tensors contiguous in backward order (cap %zu)", cap);
    next = 0;
    for (int b = 0; b < p.nbuckets; b++) {
        const bucket *bk = &p.buckets[b];
        ok &= bk->offset == next && bk->count > 0;
        next += bk->count;
        /* every tensor in the bucket maps back to it, and the bucket closes at its lowest tensor */
        for (int t = 0; t < n; t++)
            if (p.tensor_bucket[t] == b) ok &= t >= bk->lowest_tensor && p.tensor_offset[t] >= bk->offset &&
                                               p.tensor_offset[t] + counts[t] <= bk->offset + bk->count;
        size_t bytes = bk->count * 4, c = b == 0 && first ? first : cap;
        if (cap && b < p.nbuckets - 1) ok &= bytes >= c && bytes - counts[bk->lowest_tensor] * 4 < c;
    }
    CHECK(ok && next == total, "buckets contiguous, cover all, caps respected (cap %zu)", cap);
    if (want_buckets)
        CHECK(p.nbuckets == want_buckets, "cap %zu: %d buckets, expected %d", cap, p.nbuckets, want_buckets);
    bucket_plan_free(&p);
}

int main(void)
{
    const size_t counts[] = { 100, 3, 3, 250, 1, 1, 1000, 7, 7, 50 };
    const int n = (int)(sizeof counts / sizeof counts[0]);
    check_plan(counts, n, 0, 0, 1);           /* one bucket */
    check_plan(counts, n, 0, 400, 1);         /* cap 0: one bucket whatever the first cap */
    check_plan(counts, n, 4, 0, n);           /* every tensor its own bucket */
    check_plan(counts, n, 1000, 0, 0);
    check_plan(counts, n, 4000, 200, 0);      /* small first bucket */
    check_plan(counts, n, 1u << 30, 0, 1);    /* cap above total */
    bucket_plan p;
    CHECK(bucket_plan_make(counts, 0, 4, 0, 0, &p) == -1, "no tensors refused");
    CHECK(bucket_plan_make(counts, n, 0, 0, 0, &p) == -1, "zero element size refused");
    return TEST_REPORT();
}
