/* channels.c — nccl-ring's channels as pure functions (allreduce_nccl_ring.c runs them, nccl_ring_cost.c prices them;
 * tests/test_nccl_ring.c checks them): channel c's ring order over p ranks on nodes of g, and the
 * default channel count. The order: nodes in turn, each node's ranks in one run that starts at local
 * rank a = c mod g and goes up on even nodes (a, a+1, .., a-1), down from a-1 on odd ones (a-1, .., a),
 * so the hop from node k to node k+1 leaves and enters at one local index (one rail) and, on every
 * node, channels c < g enter through distinct ranks and leave through distinct ranks. One node (or g
 * not dividing p): the upward rotation alone. */
#include "coll.h"
#include "partition.h"

void coll_channel_order(int p, int g, int c, int *order)
{
    if (g <= 0 || g > p || p % g) g = p;
    const int nodes = p / g, a = c % g;
    for (int k = 0; k < nodes; k++)
        for (int j = 0; j < g; j++)
            order[k * g + j] = k * g + (nodes > 1 && k % 2 ? coll_mod(a - 1 - j, g) : coll_mod(a + j, g));
}

int coll_channels_default(int p, int rpn, int nics)
{
    int c = nics > 1 ? nics : rpn > 0 ? rpn : 1;
    return c > p ? p : c;
}

