/* test_nccl_ring.c — nccl-ring's channel orders (coll_channel_order) and default channel count, and its
 * cost (coll_cost_flows) by hand: every channel's ring visits every rank once and each node's ranks in
 * one run; on each node the channels (c < g) enter through distinct ranks and leave through distinct
 * ranks; a hop between nodes stays on one rail (leaves node k and enters node k+1 at the same local
 * index), but for the hop back to node 0 on an odd node count. The correctness matrix
 * (test_allreduce, test_collectives) runs the algorithm itself. */
#include "coll.h"
#include "test.h"
#include "abg_machine.h"

#include <math.h>
#include <stdlib.h>

static int near(double a, double b) { return fabs(a - b) <= 1e-9 * fabs(b); }

/* Checks channel c's ring on p ranks, nodes of g; returns it in o. */
static void check_ring(int p, int g, int c, int *o)
{
    int *seen = calloc((size_t)p, sizeof *seen), ok = 1, contiguous = 1;
    coll_channel_order(p, g, c, o);
    for (int i = 0; i < p; i++) ok &= o[i] >= 0 && o[i] < p && !seen[o[i]]++;
    CHECK(ok, "p=%d g=%d channel %d: every rank once", p, g, c);
    for (int i = 0; ok && i < p; i++) contiguous &= o[i] / g == i / g;
    CHECK(contiguous, "p=%d g=%d channel %d: each node's ranks in one run, nodes in order", p, g, c);
    free(seen);
}

static void test_orders(void)
{
    static const int cases[][2] = { { 1, 1 }, { 2, 1 }, { 2, 2 }, { 4, 4 }, { 8, 8 }, { 8, 2 }, { 12, 4 }, { 16, 4 },
                                    { 16, 8 }, { 24, 8 }, { 32, 8 }, { 6, 3 }, { 128, 8 }, { 12, 3 } };
    for (size_t t = 0; t < sizeof cases / sizeof cases[0]; t++) {
        const int p = cases[t][0], g = cases[t][1], nodes = p / g, C = g;
        int *o = malloc((size_t)C * (size_t)p * sizeof *o), distinct = 1, rail = 1;
        for (int c = 0; c < C; c++) check_ring(p, g, c, o + (size_t)c * p);
        for (int k = 0; k < nodes; k++)
            for (int c = 0; c < C; c++)
                for (int d = 0; d < c; d++) {
                    const int *a = o + (size_t)c * p + k * g, *b = o + (size_t)d * p + k * g;
                    distinct &= a[0] != b[0] && a[g - 1] != b[g - 1];
                }
        CHECK(distinct, "p=%d g=%d: on every node, the channels enter and leave through distinct ranks", p, g);
        for (int c = 0; c < C && nodes > 1; c++)
            for (int k = 0; k + 1 < nodes + (nodes % 2 == 0); k++) {
                const int *r = o + (size_t)c * p, out = r[k * g + g - 1] % g, in = r[((k + 1) % nodes) * g] % g;
                rail &= out == in;
            }
        CHECK(rail, "p=%d g=%d: every hop between nodes (but back to node 0 on an odd count) on one rail", p, g);
        free(o);
    }
    int o[12], want[8] = { 1, 2, 3, 0, 4, 7, 6, 5 }, same = 1;
    coll_channel_order(8, 4, 1, o);
    for (int i = 0; i < 8; i++) same &= o[i] == want[i];
    CHECK(same, "g=4, 2 nodes, channel 1: 1 2 3 0 | 4 7 6 5 (the file's diagram)");
    coll_channel_order(12, 5, 2, o); /* 5 does not divide 12: one node of 12, the rotation */
    CHECK(o[0] == 2 && o[9] == 11 && o[10] == 0 && o[11] == 1, "g not dividing p: one node, rotated by c");
    coll_channel_order(8, 4, 5, o); /* c >= g: the rails again (5 mod 4) */
    CHECK(o[0] == 1 && o[3] == 0, "channel 5 of 4-rank nodes repeats channel 1");
}

static void test_default(void)
{
    CHECK(coll_channels_default(16, 8, 8) == 8, "8 NICs: 8 channels");
    CHECK(coll_channels_default(16, 8, 4) == 4, "4 NICs: 4 channels");
    CHECK(coll_channels_default(16, 8, 0) == 8, "no NIC count: one per local rank");
    CHECK(coll_channels_default(16, 8, 1) == 8, "one NIC: one per local rank");
    CHECK(coll_channels_default(2, 8, 8) == 2, "at most p");
    CHECK(coll_channels_default(4, 0, 0) == 1, "no topology: one channel");
    CHECK(coll_channels_default(8, 1, 0) == 1, "one rank per node: one channel");
}

/* The cost by hand: 4 nodes of 8 GPUs, 8 rails of 50 GB/s, NVSwitch 450 GB/s. */
static void test_cost(void)
{
    ddl_machine m = abg_machine(32, 8, 3e-6, 450e9, 6e-6, 400e9, 0), one = m;
    const double n = 1 << 30;
    double t = 0, ring = 0;
#define COST(mach, algo, out) (ddl_algo_cost(algo, NULL, NULL, &(mach), n, &(out)) == 0)
    m.nics = 8, one.nics = 8, one.ranks = 8;
    CHECK(COST(m, "nccl-ring", t), "priced");
    /* 62 steps; a step's slowest message crosses a rail: 6 us + n/(8·32) at 50 GB/s (the rank's own link
     * carries 8 such messages at 450 GB/s: 3 us + 8·n/256/450e9, less) */
    CHECK(near(t, 62 * (6e-6 + n / 256 / 50e9)), "4 nodes: 62 x (6 us + n/256 / 50 GB/s), got %g", t);
    CHECK(COST(m, "ring", ring) && near(ring, 62 * (6e-6 + n / 32 / 50e9)),
          "the flat ring: one rail carries n/32 a step, got %g", ring);
    CHECK(COST(one, "nccl-ring", t) && COST(one, "ring", ring) &&
              near(t, ring) && near(t, 14 * (3e-6 + n / 8 / 450e9)),
          "one node: each rank's link carries its 8 channels' n/64 each, as the ring's n/8: %g %g", t, ring);
    m.gamma = 1e-11; /* a step's reductions (n/32 at 100 GB/s) outlast its transfer: they set the step */
    CHECK(COST(m, "nccl-ring", t) && near(t, 31 * (n / 32 * 1e-11 + 6e-6 + n / 256 / 50e9)),
          "gamma: a reduce-scatter step lasts its reductions, an allgather step its transfer, got %g", t);
    m.gamma = 1e-13; /* reductions under the transfers */
    CHECK(COST(m, "nccl-ring", t) && near(t, 62 * (6e-6 + n / 256 / 50e9)),
          "gamma: hidden under the other channels' transfers, got %g", t);
    setenv("DDL_CHANNELS", "5", 1); /* the model prices the machine's default, whatever the environment says */
    CHECK(COST(m, "nccl-ring", t) && near(t, 62 * (6e-6 + n / 256 / 50e9)), "env ignored");
    unsetenv("DDL_CHANNELS");
    m.nics = 1, m.ranks_per_node = 1, m.gamma = 1e-11; /* one rank per node, one NIC: one channel, the ring's cost */
    CHECK(COST(m, "nccl-ring", t) && COST(m, "ring", ring) &&
              near(t, ring), "one channel: the ring's model, %g vs %g", t, ring);
    m.nics = 8, m.ranks_per_node = 8;
    m.gamma = 0, m.leaf_nodes = 4, m.rail_leaves = 1, m.spine_lat = 7e-6;
    CHECK(COST(m, "nccl-ring", t) && near(t, 62 * (6e-6 + n / 256 / 50e9)),
          "rail-aligned leaves: no hop crosses the spine (4 nodes, even), got %g", t);
    m.ranks = 24; /* 3 nodes: the hop back to node 0 changes rail, across the spine */
    CHECK(COST(m, "nccl-ring", t) && near(t, 46 * (7e-6 + n / 192 / 50e9)),
          "3 nodes: the hop back crosses the spine, got %g", t);
}

int main(void)
{
    test_orders();
    test_default();
    test_cost();
    return TEST_REPORT();
}
