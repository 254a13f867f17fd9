/* test_nvls.c — the nvls row's model (collectives/nvls_cost.c): without reducing switches it prices the
 * ranks' direct reduce-scatter and allgather (each rank 2(g - 1)/g of the vector each way on its link);
 * an NVSwitch that reduces (nvls_bw) leaves (g + 1)/g each way at nvls_bw; IB SHARP (sharp_bw) takes a
 * rail's bytes across nodes from 2(N - 1)/N to 1; the machine check refuses negative rates. Its run is in
 * test_allreduce's matrix (every registry row). */
#include "coll.h"
#include "test.h"
#include "abg_machine.h"

#include <math.h>

int coll_nvls_cost(const ddl_machine *m, const coll_shape *sh, double bytes, double *seconds);

static double cost(const ddl_machine *m, double bytes)
{
    double t = -1;
    CHECK(coll_nvls_cost(m, NULL, bytes, &t) == 0, "cost of %g bytes", bytes);
    return t;
}

int main(void)
{
    const double n = 1 << 30, g = 8;
    ddl_machine one = abg_machine(8, 8, 3e-6, 370e9, 6e-6, 384e9, 0), sw = one;
    sw.nvls_bw = 382.5e9;
    /* 1 GiB: the bandwidth terms dominate; chunks of 1/4 block, one round of fill */
    const double plain = cost(&one, n), nvls = cost(&sw, n);
    const double want_plain = 2 * (g - 1) * n / g / 370e9, want_nvls = (g + 1) * n / g / 382.5e9;
    CHECK(plain >= want_plain && plain < 1.3 * want_plain, "no switch: %g s, bandwidth term %g", plain, want_plain);
    CHECK(nvls >= want_nvls && nvls < 1.3 * want_nvls, "NVLS: %g s, bandwidth term %g", nvls, want_nvls);
    CHECK(nvls < plain, "the reducing switch is faster: %g < %g", nvls, plain);
    CHECK(cost(&one, 0) == 0 && cost(&sw, 0) == 0, "no bytes, no time");
    ddl_machine solo = abg_machine(1, 1, 3e-6, 370e9, 6e-6, 384e9, 0);
    CHECK(cost(&solo, n) == 0, "one rank: nothing to reduce");
    /* 4 nodes on rails: IB SHARP halves (about) a rail's bytes across nodes */
    ddl_machine four = abg_machine(32, 8, 3e-6, 370e9, 6e-6, 384e9, 0);
    four.nics = 8, four.nvls_bw = 382.5e9;
    ddl_machine sharp = four;
    sharp.sharp_bw = 48e9;
    const double t4 = cost(&four, n), ts = cost(&sharp, n);
    CHECK(ts < t4, "IB SHARP is faster across nodes: %g < %g", ts, t4);
    CHECK(ts > n / g / 48e9, "but not past one pass of a block over its rail: %g", ts);
    sharp.sharp_bw = 1e9;
    CHECK(cost(&sharp, n) > n / g / 1e9, "a slow SHARP tree is the bound: %g", cost(&sharp, n));
    ddl_machine gam = one;
    gam.gamma = 1e-9;
    CHECK(cost(&gam, n) > plain + (g - 1) * n / g * 1e-9 * 0.99, "the owner's reductions are charged");
    /* IB SHARP without NVLS (NCCL's CollNet shape, the -mlperf-sharp platforms): the node's reduce-scatter is
     * still the ranks', so are its reductions, (g - 1)/g of the vector each */
    ddl_machine coll = four, collg;
    coll.nvls_bw = 0, coll.sharp_bw = 48e9, collg = coll, collg.gamma = 1e-9;
    CHECK(cost(&collg, n) > cost(&coll, n) + (g - 1) * n / g * 1e-9 * 0.99,
          "SHARP across, no NVLS: the ranks' in-node reductions are charged (%g s, %g without gamma)",
          cost(&collg, n), cost(&coll, n));
    sw.nvls_bw = -1;
    CHECK(coll_machine_check(&sw, 1) == DDL_ERR_ARG, "a negative nvls_bw is refused");
    sw.nvls_bw = 0, sw.sharp_bw = INFINITY;
    CHECK(coll_machine_check(&sw, 1) == DDL_ERR_ARG, "an infinite sharp_bw is refused");
    return TEST_REPORT();
}
