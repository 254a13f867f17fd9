/* test_study_terms.c — the two per-step terms of study_terms.h by hand: the epoch's padded last step under
 * DALI's FILL (every epoch ceil(floor(N/W)/B) steps) and MXNet's RateMatchInputIterator (the surplus carried:
 * its median epoch over an odd and an even count, and its mean), MLPerf's own step counts (401 of 3,200,
 * 63 of 20,480, 40 of 32,256), bad inputs refused; Horovod's coordination as recursive doubling's latency
 * rounds in a node, across a leaf and across the spine, with and without folded extra ranks; the slowest GPU's
 * expected place among n (a normal order statistic against its tables) and the scaled run's factor. */
#include "study_terms.h"
#include "test.h"

#include <math.h>
#include <string.h>

static int near(double a, double b) { return fabs(a - b) <= 1e-12 * fabs(b); }

int main(void)
{
    double r[EPOCH_READINGS], t = -1;
    int mode = 0;
    char err[200] = "";
    CHECK(!epoch_mode_parse("fill", &mode) && mode == EPOCH_FILL && !epoch_mode_parse("carry", &mode) &&
              mode == EPOCH_CARRY && epoch_mode_parse("Fill", &mode) == -1 && epoch_mode_parse("", &mode) == -1,
          "fill and carry, nothing else");
    CHECK(!strcmp(epoch_mode_name(EPOCH_FILL), "fill") && !strcmp(epoch_mode_name(EPOCH_CARRY), "carry"), "names");
    /* 10 examples, 1 GPU, 4 a step: fill pads to 3 steps (12 images) every epoch */
    CHECK(epoch_ratio(10, 1, 4, EPOCH_FILL, 0, r) == 1 && near(r[0], 10.0 / 12) && r[1] == r[0], "fill: 10/12");
    /* 10 over 2 GPUs at 2: floor(10/2) = 5 a rank, 3 steps of 4 */
    CHECK(epoch_ratio(10, 2, 2, EPOCH_FILL, 0, r) == 1 && near(r[0], 10.0 / 12), "fill over 2 GPUs: 10/12");
    /* carry, 10 at 4 a step: epochs of 3 (surplus 2), 2 (0), 3 steps; median of 1/steps 1/3, mean 8/3 steps */
    CHECK(epoch_ratio(10, 1, 4, EPOCH_CARRY, 3, r) == 2 && near(r[0], 10.0 / 3 / 4) && near(r[1], 10 / (8.0 / 3 * 4)),
          "carry over 3 epochs: %g %g", r[0], r[1]);
    /* an even count: the median of 1/3 and 1/2 */
    CHECK(epoch_ratio(10, 1, 4, EPOCH_CARRY, 2, r) == 2 && near(r[0], 10 * (1.0 / 3 + 0.5) / 2 / 4) &&
              near(r[1], 10.0 / (2.5 * 4)), "carry over 2 epochs: %g %g", r[0], r[1]);
    /* MLPerf v3.0: 1 node 401 steps of 8 x 400; 64 nodes 63 (the majority of 52 epochs) of 512 x 40; 96 nodes 40 of
     * 768 x 42; 8 nodes 400 (the majority of 37) of 64 x 50 */
    CHECK(epoch_ratio(1281167, 8, 400, EPOCH_FILL, 0, r) == 1 && near(r[0], 1281167.0 / (401 * 3200.0)), "1 node");
    CHECK(epoch_ratio(1281167, 512, 40, EPOCH_CARRY, 52, r) == 2 && near(r[0], 1281167.0 / (63 * 20480.0)) &&
              r[1] > r[0] && fabs(r[1] - 1) < 1e-3, "64 nodes: %g, mean %g", r[0], r[1]);
    CHECK(epoch_ratio(1281167, 768, 42, EPOCH_CARRY, 58, r) == 2 && near(r[0], 1281167.0 / (40 * 32256.0)), "96 nodes");
    CHECK(epoch_ratio(1281167, 64, 50, EPOCH_CARRY, 37, r) == 2 && near(r[0], 1281167.0 / (400 * 3200.0)) && r[0] > 1,
          "8 nodes: the shorter epochs the majority: %g", r[0]);
    CHECK(epoch_ratio(3, 4, 1, EPOCH_FILL, 0, r) == -1 && epoch_ratio(10, 1, 4, EPOCH_CARRY, 0, r) == -1 &&
              epoch_ratio(10, 1, 4, 0, 3, r) == -1 && epoch_ratio(10, 1, 0, EPOCH_FILL, 0, r) == -1 &&
              epoch_ratio(10, 1, 4, EPOCH_CARRY, EPOCH_MAX_EPOCHS + 1, r) == -1,
          "fewer examples than GPUs, no epochs, no iterator, no batch, too many epochs: refused");

    /* the slowest of n standard normals: 0, 1/sqrt(pi), and the tables' 1.42360, 1.53875 (n = 8, 10) */
    CHECK(spread_max_mean(1) == 0 && fabs(spread_max_mean(2) - 0.5641896) < 1e-6 &&
              fabs(spread_max_mean(8) - 1.4236003) < 1e-6 && fabs(spread_max_mean(10) - 1.5387527) < 1e-6,
          "E[max]: %.7f %.7f %.7f", spread_max_mean(2), spread_max_mean(8), spread_max_mean(10));
    CHECK(spread_max_mean(512) > 3.0 && spread_max_mean(512) < 3.1 && spread_max_mean(768) > spread_max_mean(512),
          "512 and 768 GPUs: %.4f %.4f", spread_max_mean(512), spread_max_mean(768));
    CHECK(spread_factor(2, 8, 8) == 1 && spread_factor(2, 1, 8) == 1 && spread_factor(0, 512, 8) == 1 &&
              fabs(spread_factor(2, 512, 8) - (1 + 0.02 * spread_max_mean(512)) / (1 + 0.02 * spread_max_mean(8))) <
                  1e-12 && spread_factor(2, 512, 8) > 1.03,
          "the scaled run against its baseline's own slowest: %g", spread_factor(2, 512, 8));

    platform pf;
    memset(&pf, 0, sizeof pf);
    pf.gpus_per_node = 8, pf.intra_lat = 3e-6, pf.inter_lat = 6e-6, pf.leaf_nodes = 2, pf.spine_lat = 7e-6;
    pf.nodes = 1;
    CHECK(!sync_seconds(&pf, 24, &t, err, sizeof err) && near(t, 9e-6), "8 ranks: 3 rounds in the node: %g", t);
    pf.nodes = 4; /* 32 ranks: 3 rounds in a node, 1 across the leaf, 1 across the spine */
    CHECK(!sync_seconds(&pf, 24, &t, err, sizeof err) && near(t, 22e-6), "32 ranks: %g", t);
    pf.nodes = 3; /* 24 = 16 + 8: the fold in a node twice, then 3, 3, 6 (leaf), 7 (spine) */
    CHECK(!sync_seconds(&pf, 24, &t, err, sizeof err) && near(t, 25e-6), "24 ranks, folded: %g", t);
    pf.nodes = 1, pf.gpus_per_node = 1;
    CHECK(!sync_seconds(&pf, 24, &t, err, sizeof err) && t == 0, "one rank: nothing to agree on");
    CHECK(sync_seconds(&pf, 0, &t, err, sizeof err) == 2 && strstr(err, "horovod_sync_bytes"), "0 bytes: %s", err);
    return TEST_REPORT();
}
