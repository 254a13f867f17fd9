/* test_cost.c — the α-β-γ model on cases computed by hand (docs/SOURCES.md §5), flat and two-level (through the
 * harness's
 * platform adapter, perf_cost.h), and libddl's public entry to it (ddl_algo_cost, ddl_machine). */
#include "perf_cost.h"
#include "test.h"
#include "abg_machine.h"

#include <math.h>
#include <string.h>

static int near(double a, double b) { return fabs(a - b) <= 1e-9 + 1e-9 * fabs(b); }

static double cost(const platform *pf, const char *algo, double n, const char *grid, double gamma)
{
    cost_opts o = { grid, NULL, gamma };
    char err[256];
    double t = -1;
    if (perf_cost(pf, algo, n, &o, &t, err, sizeof err)) return -1;
    return t;
}

/* Today's fields by hand: a ring over 2 nodes x 2 ranks leaves each node by one rail NIC, so rails
 * halve its bandwidth between nodes; leaves oversubscribed 4:1 quarter it across the spine; the
 * X-bus of two sockets carries a 4-rank ring's two crossing hops. */
static void today(void)
{
    const double n = 1 << 20;
    double t, legacy;
    ddl_machine m = abg_machine(4, 2, 0, 1e10, 0, 2e9, 0), rails = m;
    rails.nics = 2; /* 1e9 each */
    CHECK(ddl_algo_cost("ring", NULL, NULL, &m, n, &legacy) == 0 && near(legacy, 6 * n / 4 / 2e9),
          "ring, one NIC of 2 GB/s per node: %.9g", legacy);
    CHECK(ddl_algo_cost("ring", NULL, NULL, &rails, n, &t) == 0 && near(t, 6 * n / 4 / 1e9),
          "ring on two rails of 1 GB/s: one rail's bandwidth: %.9g", t);
    ddl_machine tree = abg_machine(4, 1, 0, 1e10, 2e-6, 1e9, 0);
    tree.leaf_nodes = 2, tree.oversub = 4, tree.spine_lat = 5e-6; /* uplink 2 x 1 GB/s / 4 */
    CHECK(ddl_algo_cost("ring", NULL, NULL, &tree, n, &t) == 0 && near(t, 6 * (5e-6 + n / 4 / 0.5e9)),
          "ring across leaves at 4:1: the uplink's 0.5 GB/s and the spine's latency: %.9g", t);
    tree.rail_leaves = 1, tree.oversub = 1;
    CHECK(ddl_algo_cost("ring", NULL, NULL, &tree, n, &t) == 0 && near(t, 6 * (5e-6 + n / 4 / 1e9)),
          "rail leaves, non-blocking: the NIC's 1 GB/s: %.9g", t);
    ddl_machine sock = abg_machine(4, 4, 1e-6, 1e10, 1e-6, 1e9, 0);
    sock.sockets = 2, sock.socket_bw = 2e9, sock.socket_lat = 3e-6;
    CHECK(ddl_algo_cost("ring", NULL, NULL, &sock, n, &t) == 0 && near(t, 6 * (3e-6 + n / 4 / 2e9)),
          "ring over two sockets: its crossing hops at the X-bus's 2 GB/s: %.9g", t);
    sock.nics = 3;
    CHECK(ddl_algo_cost("ring", NULL, NULL, &sock, n, &t) == DDL_ERR_ARG, "3 NICs on 4 ranks per node: refused");
    /* direct links 0-1, 1-2 (two), 2-3, none 3-0: the ring's 3 -> 0 hop goes through the host */
    static const unsigned char links[16] = { 0, 1, 0, 0, 1, 0, 2, 0, 0, 2, 0, 1, 0, 0, 1, 0 };
    ddl_machine mesh = abg_machine(4, 4, 1e-6, 1e12, 1e-6, 1e9, 0);
    mesh.nvlinks = links, mesh.nvlink_bw = 1e9, mesh.host_bw = 0.5e9, mesh.host_lat = 4e-6;
    CHECK(ddl_algo_cost("ring", NULL, NULL, &mesh, n, &t) == 0 && near(t, 6 * (4e-6 + n / 4 / 0.5e9)),
          "ring over a mesh: its unlinked hop through the host paces every step: %.9g", t);
    mesh.host_bw = 4e9; /* now the single links are the slowest: 1 GB/s */
    CHECK(ddl_algo_cost("ring", NULL, NULL, &mesh, n, &t) == 0 && near(t, 6 * (1e-6 + n / 4 / 1e9)),
          "... and with a fast host, its single links: %.9g", t);
    mesh.sockets = 2, mesh.socket_bw = 1e9;
    CHECK(ddl_algo_cost("ring", NULL, NULL, &mesh, n, &t) == DDL_ERR_ARG, "links and two sockets: refused");
}

int main(void)
{
    today();
    /* flat: every message alpha = 1 us, beta = 1 ns/B (1 GB/s), one GPU per node */
    platform flat = { .name = "custom",
                      .nodes = 8,
                      .gpus_per_node = 1,
                      .intra_bw = 1e9,
                      .intra_lat = 1e-6,
                      .nic_bw = 1e9,
                      .inter_lat = 1e-6 },
             six = flat,
             two = { .name = "custom",
                     .nodes = 2,
                     .gpus_per_node = 4,
                     .intra_bw = 10e9,
                     .intra_lat = 1e-6,
                     .nic_bw = 1e9,
                     .inter_lat = 5e-6 };
    const double n = 8e6, a = 1e-6, b = 1e-9, g = 1e-9;
    double t;
    char err[256];
    six.nodes = 6;

    /* ring: 2(p-1)(a + n/p b) + n(p-1)/p g */
    t = cost(&flat, "ring", n, NULL, g);
    CHECK(near(t, 14 * (a + n / 8 * b) + n * 7 / 8 * g), "ring p=8: %.9g", t);
    /* rhd, p = 8: 2 lg p a + 2n(p-1)/p b + n(p-1)/p g */
    t = cost(&flat, "rhd", n, NULL, g);
    CHECK(near(t, 6 * a + 2 * n * 7 / 8 * b + n * 7 / 8 * g), "rhd p=8: %.9g", t);
    /* rhd, p = 6: q = 4 plus the fold: 2 lg q a + 2n(q-1)/q b + 2a + 2nb, gamma n(q-1)/q + n */
    t = cost(&six, "rhd", n, NULL, g);
    CHECK(near(t, 4 * a + 2 * n * 3 / 4 * b + 2 * a + 2 * n * b + (n * 3 / 4 + n) * g), "rhd p=6: %.9g", t);
    /* ddl 2x4, ring per dimension: 2 sum (d_i - 1)(a + n b / (d1..di)) + n(p-1)/p g */
    t = cost(&flat, "ddl", n, "2x4", g);
    CHECK(near(t, 2 * 1 * (a + n / 2 * b) + 2 * 3 * (a + n / 8 * b) + n * 7 / 8 * g), "ddl 2x4: %.9g", t);
    /* ddl on a flat platform with one dimension is the ring */
    CHECK(near(cost(&flat, "ddl", n, "8", 0), cost(&flat, "ring", n, NULL, 0)), "ddl 8 = ring");
    /* mpi: Open MPI 4.1's fixed decision (collectives/ompi_decision.c), at each row's size boundaries:
     * d = recursive doubling (lg p steps of n bytes; also reduce + bcast), r = ring (and segmented
     * ring), h = Rabenseifner priced as rhd. p = 3 for the first row (ring and rhd cost the same at 2). */
    static const struct { int p; double bytes; char want; } dec[] = {
        { 3, 7, 'r' }, { 3, 8, 'd' }, { 3, 4095, 'd' }, { 3, 4096, 'r' }, { 3, 8191, 'r' }, { 3, 8192, 'd' },
        { 3, 16383, 'd' }, { 3, 16384, 'r' }, { 3, 65536, 'r' }, { 3, 262143, 'r' }, { 3, 262144, 'h' },
        { 4, 15, 'r' }, { 4, 16, 'd' }, { 4, 8191, 'd' }, { 4, 8192, 'h' }, { 4, 1000, 'd' }, { 4, 10000, 'h' },
        { 8, 8191, 'd' }, { 8, 8192, 'h' }, { 8, 8e6, 'h' },
        { 16, 63, 'r' }, { 16, 64, 'd' }, { 16, 4095, 'd' }, { 16, 4096, 'h' },
        { 32, 127, 'r' }, { 32, 128, 'h' },
        { 64, 262143, 'd' }, { 64, 262144, 'h' },
        { 128, 131071, 'd' }, { 128, 262143, 'd' }, { 128, 262144, 'h' },
        { 256, 4095, 'd' }, { 256, 4096, 'h' },
        { 512, 2047, 'd' }, { 512, 16383, 'd' }, { 512, 16384, 'h' },
        { 2048, 2047, 'd' }, { 2048, 2048, 'r' }, { 2048, 4095, 'r' }, { 2048, 4096, 'd' }, { 2048, 16383, 'd' },
        { 2048, 16384, 'h' },
        { 4096, 2047, 'd' }, { 4096, 2048, 'r' }, { 4096, 16383, 'r' }, { 4096, 16384, 'd' }, { 4096, 32767, 'd' },
        { 4096, 32768, 'h' },
    };
    for (size_t i = 0; i < sizeof dec / sizeof dec[0]; i++) {
        platform f = flat;
        double x = dec[i].bytes, want;
        int lg = 0;
        f.nodes = dec[i].p;
        while ((2 << lg) <= f.nodes) lg++;
        if (dec[i].want == 'd') /* lg q steps of all n bytes, + the fold's two when p is not a power of 2 */
            want = (lg + ((1 << lg) < f.nodes ? 2 : 0)) * (a + x * b);
        else
            want = cost(&f, dec[i].want == 'r' ? "ring" : "rhd", x, NULL, 0);
        t = cost(&f, "mpi", x, NULL, 0);
        CHECK(near(t, want), "mpi p=%d %.0f B: %.9g, want %c = %.9g", dec[i].p, x, t, dec[i].want, want);
    }
    /* two-level: Open MPI's Rabenseifner pairs the nearest ranks first, as our rhd on nodes of several
     * ranks: its largest exchanges stay inside a node (rhd-far's cross the NIC) */
    CHECK(near(cost(&two, "mpi", n, NULL, g), cost(&two, "rhd", n, NULL, g)) &&
              cost(&two, "rhd-far", n, NULL, g) > 1.2 * cost(&two, "mpi", n, NULL, g),
          "mpi 2x4, 8 MB = rhd nearest-first, below rhd-far");
    CHECK(cost(&flat, "ring", 0, NULL, 0) > 0, "n = 0 still pays latency");

    /* two-level: 2 nodes x 4 GPUs, GPU link 10 GB/s 1 us, NIC 1 GB/s per node, 5 us across */
    t = cost(&two, "ddl", n, NULL, 0); /* derived grid 4x2 */
    {
        double intra = 6 * (1e-6 + n / 4 / 10e9);
        double inter = 2 * (5e-6 + n / 8 * 4 / 1e9); /* 4 GPUs share the NIC */
        CHECK(near(t, intra + inter), "ddl 4x2 two-level: %.9g vs %.9g", t, intra + inter);
    }
    t = cost(&two, "ring", n, NULL, 0); /* slowest hop: one flow per NIC direction */
    CHECK(near(t, 14 * (5e-6 + n / 8 / 1e9)), "ring two-level: %.9g", t);
    t = cost(&two, "rhd-far", n, NULL, 0); /* mask 4 first: n/2 across, 4 flows per NIC; masks 2, 1 stay in */
    CHECK(near(t, 2 * ((5e-6 + n / 2 * 4 / 1e9) + (1e-6 + n / 4 / 10e9) + (1e-6 + n / 8 / 10e9))),
          "rhd-far two-level: %.9g", t);
    CHECK(t > cost(&two, "ddl", n, NULL, 0), "ddl beats rhd-far when the NIC is the bottleneck");
    t = cost(&two, "rhd", n, NULL, 0); /* nearest first: masks 1, 2 (n/2, n/4) inside, mask 4 (n/8) across */
    CHECK(near(t, 2 * ((1e-6 + n / 2 / 10e9) + (1e-6 + n / 4 / 10e9) + (5e-6 + n / 8 * 4 / 1e9))),
          "rhd two-level: %.9g", t);
    CHECK(t < cost(&two, "rhd-far", n, NULL, 0), "rhd (nearest first) beats rhd-far on two levels");
    CHECK(near(cost(&flat, "rhd", n, NULL, g), cost(&flat, "rhd-far", n, NULL, g)), "one GPU per node: same order");
    CHECK(near(cost(&six, "rhd", n, NULL, g), cost(&six, "rhd-far", n, NULL, g)), "folded, one GPU per node: same");

    {
        cost_opts o = { "3x3", NULL, 0 };
        CHECK(perf_cost(&flat, "ddl", n, &o, &t, err, sizeof err) == 2 && strstr(err, "does not match"),
              "grid mismatch");
        o.grid = "2x4";
        o.patterns = "ring,bogus";
        CHECK(perf_cost(&flat, "ddl", n, &o, &t, err, sizeof err) == 2, "bad pattern");
        o.patterns = "rhd";
        CHECK(perf_cost(&flat, "ddl", n, &o, &t, err, sizeof err) == 0 &&
                  near(t, 2 * (a + n / 2 * b) + 4 * a + 2 * (n / 2) * 3 / 4 * b), "ddl 2x4 rhd: %.9g", t);
        CHECK(perf_cost(&flat, "nosuch", n, &o, &t, err, sizeof err) == 2 && strstr(err, "--algo"), "unknown algo");
        CHECK(perf_cost(&flat, "ring", -1, &o, &t, err, sizeof err) == 2, "negative bytes");
    }
    {   /* the public API directly: same numbers, and its refusals */
        ddl_machine m = abg_machine(8, 1, 1e-6, 1e9, 1e-6, 1e9, 1e-9), bad = m;
        CHECK(ddl_algo_cost("ring", NULL, NULL, &m, n, &t) == 0 && near(t, 14 * (a + n / 8 * b) + n * 7 / 8 * g),
              "ddl_algo_cost ring: %.9g", t);
        t = ddl_machine_cost(&m, "ddl", "2x4", NULL, (size_t)n);
        CHECK(near(t, 2 * (a + n / 2 * b) + 6 * (a + n / 8 * b) + n * 7 / 8 * g), "ddl_machine_cost ddl 2x4: %.9g", t);
        CHECK(ddl_algo_cost("auto", NULL, NULL, &m, n, &t) == 0 && t > 0, "auto is priced as its choice");
        CHECK(ddl_algo_cost("nosuch", NULL, NULL, &m, n, &t) == DDL_ERR_ALGO, "unknown algorithm");
        CHECK(ddl_algo_cost("ddl", "3x3", NULL, &m, n, &t) == DDL_ERR_GRID, "grid mismatch");
        CHECK(ddl_machine_cost(&m, "ddl", "3x3", NULL, 1) < 0, "ddl_machine_cost: -1 when it cannot say");
        bad.ranks_per_node = 3;
        CHECK(ddl_algo_cost("ring", NULL, NULL, &bad, n, &t) == DDL_ERR_ARG, "ranks_per_node not dividing");
        bad = m;
        bad.nic_bw = 0;
        CHECK(ddl_algo_cost("ring", NULL, NULL, &bad, n, &t) == DDL_ERR_ARG, "zero bandwidth");
        CHECK(ddl_algo_cost("ring", NULL, NULL, NULL, n, &t) == DDL_ERR_ARG, "no machine");
        for (int i = 0; i < ddl_algo_count(); i++) /* the flag says whether the model answers */
            CHECK(!(ddl_algo_flags(i) & DDL_ALGO_COST) == !!ddl_algo_cost(ddl_algo_name(i), NULL, NULL, &m, n, &t),
                  "%s: DDL_ALGO_COST vs ddl_algo_cost", ddl_algo_name(i));
    }
    {   /* ddl_auto_choose: auto's pick is the cheapest at its size class, and auto's cost is its pick's */
        static const int shape[][2] = { { 8, 1 }, { 16, 4 }, { 256, 4 }, { 12, 4 } };
        static const double sizes[] = { 1024, 100e3, 4e6, 25e6 };
        for (int i = 0; i < 4; i++)
            for (int k = 0; k < 4; k++) {
                ddl_machine m = abg_machine(shape[i][0], shape[i][1], 2e-6, 20e9, 5e-6, 10e9, 1e-10);
                ddl_choice c;
                double cls = ldexp(1.0, (int)lround(log2(sizes[k]))), tc, ta, tr, th, td;
                int rc = ddl_auto_choose(&m, sizes[k], &c);
                CHECK(rc == 0 && c.algo[0], "ddl_auto_choose %dx%d %g: rc %d", shape[i][0], shape[i][1], sizes[k], rc);
                if (rc) continue;
                rc = ddl_algo_cost(c.algo, c.grid[0] ? c.grid : NULL, c.patterns[0] ? c.patterns : NULL, &m, cls, &tc) |
                     ddl_algo_cost("ring", NULL, NULL, &m, cls, &tr) | ddl_algo_cost("rhd", NULL, NULL, &m, cls, &th) |
                     ddl_algo_cost("ddl", NULL, NULL, &m, cls, &td);
                CHECK(rc == 0 && tc <= tr * 1.001 && tc <= th * 1.001 && tc <= td * 1.001,
                      "auto's pick %s %s %s at %g B is no dearer than ring, rhd, ddl: %g %g %g %g", c.algo, c.grid,
                      c.patterns, cls, tc, tr, th, td);
                rc = ddl_algo_cost("auto", NULL, NULL, &m, sizes[k], &ta) |
                     ddl_algo_cost(c.algo, c.grid[0] ? c.grid : NULL, c.patterns[0] ? c.patterns : NULL, &m, sizes[k],
                                   &tc);
                CHECK(rc == 0 && ta == tc, "ddl_algo_cost(auto) = its pick's cost: %g vs %g", ta, tc);
            }
        ddl_machine m = abg_machine(8, 3, 1e-6, 1e9, 1e-6, 1e9, 0);
        ddl_choice c;
        CHECK(ddl_auto_choose(&m, 1e6, &c) == DDL_ERR_ARG, "ddl_auto_choose: ranks_per_node not dividing");
        CHECK(ddl_auto_choose(NULL, 1e6, &c) == DDL_ERR_ARG, "ddl_auto_choose: no machine");
        m.ranks_per_node = 1;
        CHECK(ddl_auto_choose(&m, 1e6, NULL) == DDL_ERR_ARG, "ddl_auto_choose: no output");
        CHECK(ddl_auto_choose(&m, -1, &c) == DDL_ERR_ARG, "ddl_auto_choose: negative bytes");
    }
    return TEST_REPORT();
}
