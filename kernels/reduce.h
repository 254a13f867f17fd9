/* reduce.h — element-wise reduction kernels used by every allreduce algorithm.
 * kernels/ knows nothing of MPI. float16/bfloat16 are reduced in float32 arithmetic and rounded
 * back once per call. The real build computes (reduce.c); the simulation build injects the time
 * (reduce_sim.c). */
#ifndef KERN_REDUCE_H
#define KERN_REDUCE_H

#include <stddef.h>

typedef enum { KERN_F32, KERN_F64, KERN_F16, KERN_BF16, KERN_I32, KERN_DTYPE_COUNT } kern_dtype;
typedef enum { KERN_SUM, KERN_MAX, KERN_MIN, KERN_OP_COUNT } kern_op;

/* out[i] = a[i] op b[i] for i < n. out may equal a or b (but must not partly overlap them). */
void kern_reduce(kern_dtype dt, kern_op op, void *out, const void *a, const void *b, size_t n);
/* The allreduce in progress works on a vector of `bytes` bytes (0 = none; collectives/context.c sets
 * it around each allreduce). The simulation prices each reduction at the rate of that size (whether
 * the vector sits in cache), not at its segment's (reduce_sim.c); the real backends ignore it. */
void kern_reduce_set_working_set(size_t bytes);

static inline size_t kern_dtype_size(kern_dtype dt)
{
    static const size_t sizes[KERN_DTYPE_COUNT] = { 4, 8, 2, 2, 4 };
    return (unsigned)dt < KERN_DTYPE_COUNT ? sizes[dt] : 0;
}

#endif
