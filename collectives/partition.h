/* partition.h — pure index arithmetic shared by the algorithms (unit-tested in tests/test_partition.c).
 * Blocks are balanced: n elements in q blocks, the first n % q blocks one element longer. */
#ifndef COLL_PARTITION_H
#define COLL_PARTITION_H

#include <stddef.h>

static inline size_t coll_block_off(size_t n, int q, int i)
{
    size_t b = n / (size_t)q, r = n % (size_t)q, ui = (size_t)i;
    return ui * b + (ui < r ? ui : r);
}

static inline size_t coll_block_len(size_t n, int q, int i)
{
    return n / (size_t)q + ((size_t)i < n % (size_t)q ? 1 : 0);
}

/* Largest power of two <= p (p >= 1). */
static inline int coll_pow2_floor(int p)
{
    int k = 1;
    while (k <= p / 2) k *= 2;
    return k;
}

static inline int coll_is_pow2(int p) { return p > 0 && (p & (p - 1)) == 0; }

/* Non-power-of-two folding for p ranks onto p2 = pow2_floor(p), r = p - p2 extra ranks: the first 2r
 * ranks pair up (even sends to odd); odd ones and ranks >= 2r take part as virtual rank v. */
static inline int coll_fold_vrank(int rank, int r)
{
    if (rank < 2 * r) return (rank % 2) ? rank / 2 : -1;
    return rank - r;
}

static inline int coll_fold_real(int v, int r) { return v < r ? 2 * v + 1 : v + r; }

static inline int coll_mod(int a, int q) { return ((a % q) + q) % q; }

static inline int coll_log2(int q)
{
    int k = 0;
    while ((1 << k) < q) k++;
    return k;
}

/* Halving-doubling on q = 2^k ranks: the j-th halving exchange (j = 0 .. k-1) pairs v with v ^ mask,
 * farthest first (mask q/2, q/4, .., 1) or nearest first (1, 2, .., q/2: distance doubling, as Open
 * MPI's reduce-scatter/allgather allreduce). */
static inline int coll_rhd_mask(int q, int j, int near) { return near ? 1 << j : (q >> 1) >> j; }

/* Blocks [lo, hi) of q that v keeps after its first `steps` halving exchanges: at each, the upper
 * half of what it held when v has that step's mask bit, else the lower half. After all k steps v
 * holds one block: block v (farthest first) or block bit-reverse(v) (nearest first). */
static inline void coll_rhd_range(int q, int v, int near, int steps, int *lo, int *hi)
{
    *lo = 0;
    *hi = q;
    for (int j = 0; j < steps; j++) {
        int mid = *lo + (*hi - *lo) / 2;
        if (v & coll_rhd_mask(q, j, near)) *lo = mid;
        else *hi = mid;
    }
}

#endif
