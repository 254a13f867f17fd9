/* bucket.h — gradient buckets (PyTorch DDP / Horovod tensor fusion).
 * Gradients live in one flat buffer laid out in backward order (the last layer's tensors first), so a
 * bucket is one contiguous range. Walking tensors from last to first, a bucket closes once it holds at
 * least its cap (the first bucket has its own, smaller cap, as DDP's 1 MB first bucket). A cap of 0
 * means one bucket for everything, whatever the first cap (allreduce after the whole backward, no overlap). */
#ifndef HARN_BUCKET_H
#define HARN_BUCKET_H

#include <stddef.h>

typedef struct bucket {
    size_t offset;     /* first element in the flat gradient buffer */
    size_t count;      /* elements */
    int lowest_tensor; /* forward index of its earliest tensor: produced last, completes the bucket */
} bucket;

typedef struct bucket_plan {
    int ntensors;
    int nbuckets;
    size_t total;          /* elements in all tensors */
    size_t *tensor_offset; /* [ntensors] offset of tensor t (forward index) in the flat buffer */
    int *tensor_bucket;    /* [ntensors] bucket holding tensor t */
    bucket *buckets;       /* [nbuckets] in the order backward completes them */
} bucket_plan;

/* counts: elements per tensor in forward order. cap_bytes 0 = one bucket. Returns 0 or -1 (no memory
 * or bad arguments). */
int bucket_plan_make(const size_t *counts, int ntensors, size_t esize, size_t cap_bytes,
                     size_t first_cap_bytes, bucket_plan *out);
void bucket_plan_free(bucket_plan *plan);

#endif
