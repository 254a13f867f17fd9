/* test_partition.c — balanced blocks, power-of-two folding, halving-doubling orders. */
#include "partition.h"
#include "test.h"

static void test_blocks(void)
{
    for (size_t n = 0; n < 70; n++)
        for (int q = 1; q <= 17; q++) {
            size_t sum = 0, mn = (size_t)-1, mx = 0;
            int contiguous = 1;
            for (int i = 0; i < q; i++) {
                size_t len = coll_block_len(n, q, i);
                contiguous &= coll_block_off(n, q, i) == sum;
                sum += len;
                mn = len < mn ? len : mn;
                mx = len > mx ? len : mx;
            }
            CHECK(sum == n && contiguous && mx - mn <= 1 && coll_block_off(n, q, q) == n,
                  "blocks n=%zu q=%d: sum %zu, sizes %zu..%zu", n, q, sum, mn, mx);
        }
}

static void test_fold(void)
{
    for (int p = 1; p <= 40; p++) {
        int q = coll_pow2_floor(p), r = p - q, seen[64] = { 0 }, ok = 1;
        CHECK(coll_is_pow2(q) && q <= p && 2 * q > p, "pow2_floor(%d) = %d", p, q);
        for (int rank = 0; rank < p; rank++) {
            int v = coll_fold_vrank(rank, r);
            if (v < 0) { ok &= rank < 2 * r && rank % 2 == 0; continue; }
            ok &= v < q && coll_fold_real(v, r) == rank;
            seen[v]++;
        }
        for (int v = 0; v < q; v++) ok &= seen[v] == 1;
        CHECK(ok, "folding p=%d: every virtual rank once, real(v(rank)) == rank", p);
    }
    CHECK(coll_mod(-1, 5) == 4 && coll_mod(-7, 3) == 2 && coll_mod(4, 4) == 0, "coll_mod");
}

/* Both orders: the final blocks are a permutation (block v farthest first, bit-reverse(v) nearest
 * first); at every step v and its partner hold the same range and keep its two halves. */
static void test_rhd_orders(void)
{
    for (int q = 1; q <= 64; q *= 2)
        for (int near = 0; near < 2; near++) {
            int k = coll_log2(q), seen[64] = { 0 }, ok = (1 << k) == q;
            for (int v = 0; v < q; v++) {
                int lo, hi, rev = 0;
                coll_rhd_range(q, v, near, k, &lo, &hi);
                for (int b = 0; b < k; b++) rev |= ((v >> b) & 1) << (k - 1 - b);
                ok &= hi == lo + 1 && lo == (near ? rev : v);
                seen[lo]++;
                for (int j = 0; j < k; j++) {
                    int m = coll_rhd_mask(q, j, near), plo, phi, mlo, mhi, qlo, qhi;
                    coll_rhd_range(q, v, near, j, &plo, &phi);
                    coll_rhd_range(q, v ^ m, near, j, &qlo, &qhi);
                    ok &= plo == qlo && phi == qhi; /* the same range before step j */
                    coll_rhd_range(q, v, near, j + 1, &mlo, &mhi);
                    coll_rhd_range(q, v ^ m, near, j + 1, &qlo, &qhi);
                    ok &= mhi - mlo == (phi - plo) / 2 && (mlo == qhi || qlo == mhi); /* its two halves */
                }
            }
            for (int b = 0; b < q; b++) ok &= seen[b] == 1;
            CHECK(ok, "rhd order q=%d %s", q, near ? "nearest first" : "farthest first");
        }
    CHECK(coll_rhd_mask(8, 0, 0) == 4 && coll_rhd_mask(8, 2, 0) == 1 && coll_rhd_mask(8, 0, 1) == 1 &&
              coll_rhd_mask(8, 2, 1) == 4, "rhd masks");
}

int main(void)
{
    test_blocks();
    test_fold();
    test_rhd_orders();
    return TEST_REPORT();
}
