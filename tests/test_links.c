/* test_links.c — the segment and depth from the links (collectives/links.c): the bandwidth-delay
 * product per level (inside a node only with several ranks per node; between nodes at the slower of
 * the GPU link and the NIC), the segment as the power-of-two multiple of the default that covers twice
 * it (never below the default, at most 16 MiB), and the depth that covers it with that segment. */
#include "coll.h"
#include "test.h"
#include "abg_machine.h"

#include <math.h>

static int near(double a, double b) { return fabs(a - b) <= 1e-9 * fabs(b); }

int main(void)
{
    const size_t K = 1024, M = 1024 * 1024;
    ddl_machine h1 = abg_machine(8, 8, 3e-6, 450e9, 6e-6, 400e9, 0), h4 = h1,
                p = abg_machine(16, 4, 5e-6, 80e9, 6e-6, 12.5e9, 0);
    ddl_machine tcp = abg_machine(4, 2, 1e-6, 20e9, 100e-6, 62.5e6, 0),
                flat = abg_machine(8, 1, 1e-3, 450e9, 1e-6, 1e9, 0);
    h4.ranks = 32;
    CHECK(near(coll_link_bdp(&h1), 1.35e6), "one NVSwitch node: %g", coll_link_bdp(&h1));
    CHECK(near(coll_link_bdp(&h4), 2.4e6), "four nodes: the NIC level, %g", coll_link_bdp(&h4));
    CHECK(near(coll_link_bdp(&flat), 1e3), "one rank per node: no intra level, %g", coll_link_bdp(&flat));
    CHECK(near(coll_link_bdp(&p), 4e5), "P100 node: NVLink's 400 KB over EDR's 75 KB, %g", coll_link_bdp(&p));
    CHECK(coll_link_segment(&h1, 256 * K) == 4 * M, "h200 node: 4 MiB, got %zu", coll_link_segment(&h1, 256 * K));
    CHECK(coll_link_segment(&h4, 256 * K) == 8 * M, "h200 x 4: 8 MiB, got %zu", coll_link_segment(&h4, 256 * K));
    CHECK(coll_link_segment(&p, 256 * K) == 1 * M, "minsky: 1 MiB, got %zu", coll_link_segment(&p, 256 * K));
    CHECK(coll_link_segment(&tcp, 256 * K) == 256 * K, "TCP: the host default stays, got %zu",
          coll_link_segment(&tcp, 256 * K));
    CHECK(coll_link_segment(&h1, 4 * M) == 4 * M, "device default 4 MiB already covers it");
    CHECK(coll_link_segment(&h4, 4 * M) == 8 * M, "device, four nodes: 8 MiB");
    ddl_machine far = abg_machine(8, 1, 0, 40e9, 1e-3, 20e9, 0); /* 20 MB in flight */
    CHECK(coll_link_segment(&far, 256 * K) == 16 * M, "capped at 16 MiB");
    CHECK(coll_link_depth(&far, 16 * M, 2) == 3, "past the cap the depth grows: %d", coll_link_depth(&far, 16 * M, 2));
    CHECK(coll_link_depth(&h4, 8 * M, 2) == 2 && coll_link_depth(&h4, 8 * M, 4) == 4, "the default depth otherwise");
    far.inter_lat = 1;
    CHECK(coll_link_depth(&far, 16 * M, 2) == COLL_MAX_DEPTH, "depth at most %d", COLL_MAX_DEPTH);
    far.nic_bw = INFINITY; far.intra_bw = INFINITY;
    CHECK(coll_link_segment(&far, 256 * K) == 16 * M, "an infinite link: the cap, no endless loop");
    CHECK(coll_machine_check(&h1, 0) == 0 && coll_machine_check(NULL, 0) == DDL_ERR_ARG, "machine check");
    return TEST_REPORT();
}
