/* bucket.c — plan gradient buckets over a model's tensors (see bucket.h). */
#include "bucket.h"

#include <stdlib.h>
#include <string.h>

int bucket_plan_make(const size_t *counts, int ntensors, size_t esize, size_t cap_bytes,
                     size_t first_cap_bytes, bucket_plan *out)
{
    memset(out, 0, sizeof *out);
    if (ntensors <= 0 || !counts || !esize) return -1;
    out->ntensors = ntensors;
    out->tensor_offset = malloc((size_t)ntensors * sizeof *out->tensor_offset);
    out->tensor_bucket = malloc((size_t)ntensors * sizeof *out->tensor_bucket);
    out->buckets = calloc((size_t)ntensors, sizeof *out->buckets); /* at most one per tensor */
    if (!out->tensor_offset || !out->tensor_bucket || !out->buckets) {
        bucket_plan_free(out);
        return -1;
    }
    size_t off = 0, in_bucket = 0;
    int nb = 0;
    for (int t = ntensors - 1; t >= 0; t--) {
        bucket *b = &out->buckets[nb];
        if (in_bucket == 0) b->offset = off;
        out->tensor_offset[t] = off;
        out->tensor_bucket[t] = nb;
        off += counts[t];
        in_bucket += counts[t] * esize;
        b->count = off - b->offset;
        b->lowest_tensor = t;
        size_t cap = nb == 0 && first_cap_bytes && cap_bytes ? first_cap_bytes : cap_bytes;
        if (cap && in_bucket >= cap && t > 0) {
            nb++;
            in_bucket = 0;
        }
    }
    out->nbuckets = nb + 1;
    out->total = off;
    return 0;
}

void bucket_plan_free(bucket_plan *plan)
{
    free(plan->tensor_offset);
    free(plan->tensor_bucket);
    free(plan->buckets);
    memset(plan, 0, sizeof *plan);
}
