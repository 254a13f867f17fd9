/* test_sweep_plan.c — the sweep's launches (harness/common/sweep_plan.c): the GPU counts (powers of
 * two of nodes, NODES itself, 1 not repeated), the cost weights sweep.sh computed (exact integers),
 * the ring taken from the model above --sim-ring-max, the starting order, the duration words. */
#include "sweep_plan.h"
#include "test.h"

#include <string.h>

static sweep_params params(const char *backend, long nodes, long gpn, const char *algos, const char *train_args)
{
    sweep_params p;
    sweep_defaults(&p);
    p.backend = backend, p.algos = algos, p.train_args = train_args, p.models = "resnet50:32,resnet101-22k:20";
    p.n_nodes = nodes, p.n_gpn = gpn, p.n_ring_max = 256, p.n_jobs = 1;
    return p;
}

int main(void)
{
    long c[SWEEP_MAX_COUNTS];
    int n = sweep_counts(5, 3, c, SWEEP_MAX_COUNTS);
    CHECK(n == 5 && c[0] == 1 && c[1] == 3 && c[2] == 6 && c[3] == 12 && c[4] == 15, "5 nodes of 3: %d counts", n);
    n = sweep_counts(1, 1, c, SWEEP_MAX_COUNTS);
    CHECK(n == 1 && c[0] == 1, "1 x 1: the baseline only (%d)", n);
    n = sweep_counts(4096, 4, c, SWEEP_MAX_COUNTS);
    CHECK(n == 14 && c[13] == 16384, "4096 nodes: %d counts", n);

    sweep_params p = params("sim", 2, 4, "mpi,ring,rhd,ddl,auto", "--steps 1 --warmup 0");
    /* (steps + warmup) * buckets*20 * (5 (g + 4) + 2 g^2 / 64) / 100 */
    CHECK(sweep_weight(&p, 5, 8) == 1 * 100 * (5 * 12 + 2 * 64 / 64) / 100, "8 GPUs: %lld", sweep_weight(&p, 5, 8));
    CHECK(sweep_weight(&p, 0, 8) == sweep_weight(&p, 5, 8), "unknown buckets count as 5");
    p.train_args = "";
    CHECK(sweep_weight(&p, 5, 1) == 12 * 100 * 25 / 100, "defaults 10 + 2 steps: %lld", sweep_weight(&p, 5, 1));
    p.train_args = "--steps=3";
    CHECK(sweep_weight(&p, 5, 1) == 300, "--steps=3 is not --steps 3: the defaults");
    CHECK(!sweep_ring_modelled(&p, 256) && sweep_ring_modelled(&p, 512), "the ring modelled above 256");
    CHECK(sweep_weight(&p, 5, 512) == 12 * 100 * (4 * 516 + 1 * 512 * 512 / 64) / 100, "512: the ring's cost gone");
    p.algos = "ddl,rhd";
    CHECK(!sweep_ring_modelled(&p, 512), "no ring, nothing modelled");
    sweep_params m = params("model", 16384, 4, "ddl,auto", "");
    CHECK(sweep_weight(&m, 5, 65536) == 2 * 65, "model: O(g): %lld", sweep_weight(&m, 5, 65536));

    sweep_launch l[64];
    int nb[2] = { 5, 8 };
    p = params("sim", 4, 4, "ring,ddl", "");
    CHECK(sweep_plan(&p, nb, l, 64, &n) == 0 && n == 8, "plan: %d launches", n);
    CHECK(l[0].first == 0 && l[1].first == 0 && l[0].weight >= l[1].weight, "the baselines first, larger first");
    int sorted = 1;
    for (int i = 3; i < n; i++) sorted &= l[i - 1].weight >= l[i].weight;
    CHECK(sorted && l[2].gpus == 16 && !strcmp(l[2].model, "resnet101-22k"), "then the most expensive: %s %ld",
          l[2].model, l[2].gpus);
    CHECK(sweep_plan(&p, nb, l, 7, &n) == 2, "over max: refused");

    char h[40];
    sweep_human(119, h, sizeof h);
    CHECK(!strcmp(h, "119 s"), "%s", h);
    sweep_human(150, h, sizeof h);
    CHECK(!strcmp(h, "3 min"), "%s", h);
    sweep_human(1339560, h, sizeof h);
    CHECK(!strcmp(h, "372.1 h"), "%s", h);
    return TEST_REPORT();
}
