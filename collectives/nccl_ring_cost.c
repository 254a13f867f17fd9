/* nccl_ring_cost.c — nccl-ring's alpha-beta-gamma cost (allreduce_nccl_ring.c runs it): the channels'
 * rings (channels.c's orders) priced as one set of flows per step.
 *
 * Per channel ring on n/C bytes, all channels at once (cost.c's coll_cost_flows):
 *   x = α + n/(C·p)·β_step, β_step the worst of the step's C·p messages: a rank's own link carries
 *   its C messages (C·n/(C·p) = n/p bytes, as the flat ring's one), a rail carries one channel's
 *   message where the flat ring's one rail carries all n/p;
 *   (p-1)·(max(x, n/p·γ) + x) for C > 1: a rank reduces one channel's segment while the other
 *   channels' segments move, so the reductions hide under the transfers (or these under them);
 *   2(p-1)·x + n(p-1)/p·γ for C = 1, as the ring's model.
 * On DGX H100 (8 rails of 50 GB/s, C = 8) the step moves n/(8p) over each rail: busbw reaches 8 x 50
 * = 400 GB/s, against the hierarchical per-node NIC bound 400·N/(N-1)·(p-1)/p (N nodes): a ring
 * crosses every node boundary 2(p-1) times, a hierarchical algorithm 2(N-1) (docs/BENCHMARKS.md). */
#include "coll.h"

#include <stdlib.h>

static double worse(double a, double b) { return a > b ? a : b; }

/* Every channel's step at once: each rank sends n/(C·p) to its successor in every channel. With several
 * channels a rank reduces one channel's segment while the others' move, so a reduce-scatter step lasts
 * the longer of its transfer and its reductions; one channel pays both, as the ring's model does. */
int coll_nccl_ring_cost(const ddl_machine *m, const coll_shape *sh, double bytes, double *seconds)
{
    const int p = m->ranks, C = coll_channels_default(p, m->ranks_per_node, m->nics);
    int *src, *dst, *o, rc;
    double x = 0, red;
    (void)sh;
    *seconds = 0;
    if (p == 1) return 0;
    if (!(src = malloc(3 * (size_t)C * (size_t)p * sizeof *src)))
        return coll_fail(DDL_ERR_NOMEM, "cost model: out of memory");
    dst = src + (size_t)C * p, o = dst + (size_t)C * p;
    for (int c = 0; c < C; c++) {
        coll_channel_order(p, m->ranks_per_node, c, o);
        for (int v = 0; v < p; v++) src[c * p + v] = o[v], dst[c * p + v] = o[(v + 1) % p];
    }
    rc = coll_cost_flows(m, C * p, src, dst, bytes / ((double)C * p), &x);
    free(src);
    if (rc) return rc;
    red = bytes / p * m->gamma; /* a rank reduces n/p bytes a reduce-scatter step, C messages of n/(C·p) */
    *seconds = C > 1 ? (p - 1) * (worse(x, red) + x) : 2.0 * (p - 1) * x + (p - 1) * red;
    return 0;
}
