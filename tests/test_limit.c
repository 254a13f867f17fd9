/* test_limit.c — advise --limit's engine (harness/sim/limit.c): the baseline node always counts; a low
 * bar is met at the largest count tried and the scan stops where a global batch leaves no image a GPU;
 * the efficiency reported is the per-GPU images/s ratio of two perf_step points; a global batch below
 * one node's GPUs is refused; the cases change the platform or the rates they name. */
#include "limit.h"
#include "model.h"
#include "perf_step.h"
#include "platform.h"
#include "test.h"

#include <math.h>
#include <string.h>

int main(void)
{
    profile pr;
    char err[400] = "";
    limit_out r;
    CHECK(profile_load("h100", &pr, err, sizeof err) == 0, "h100 profile: %s", err);
    limit_in in = { "resnet50", 224, 0, 256, "dgxh100", 0, 64, &pr, 0, (size_t)25 << 20, 1 };
    CHECK(limit_largest(&in, "ring", LIMIT_ASIS, &r, err, sizeof err) == 0 && r.tried == 256 && r.gpus == 256 &&
              r.beyond == 1, "1%%: met at 256 GPUs, where 256 images leave 1 a GPU (%d of %d; %s)", r.gpus, r.tried,
          err);
    in.pct = 100;
    CHECK(limit_largest(&in, "ring", LIMIT_ASIS, &r, err, sizeof err) == 0 && r.gpus >= 8 && r.eff >= 100,
          "100%%: at least the baseline node (%d, %g%%)", r.gpus, r.eff);
    /* one point by hand: 2 nodes at 16 a GPU against 1 node at 32 a GPU */
    in.pct = 1, in.max_nodes = 2;
    platform p1, p2;
    model *m32 = NULL, *m16 = NULL;
    step_prediction s1, s2;
    step_inputs si = { .gemm_gflops = pr.gemm_gflops_fp32, .gamma = pr.reduce_ns_per_byte * 1e-9,
                       .mem_gbps = pr.mem_gbps, .full = 1, .bucket_bytes = (size_t)25 << 20,
                       .first_bucket_bytes = (size_t)1 << 20, .sgd_gbps = pr.sgd_gbps };
    if (platform_init(&p1, "dgxh100", 1, 0, err, sizeof err) == 0 && platform_init(&p2, "dgxh100", 2, 0, err,
                                                                                      sizeof err) == 0 &&
        model_create("resnet50", 32, 224, &m32, err, sizeof err) == 0 &&
        model_create("resnet50", 16, 224, &m16, err, sizeof err) == 0 &&
        perf_step(m32, &p1, "rhd", &si, &s1, err, sizeof err) == 0 &&
        perf_step(m16, &p2, "rhd", &si, &s2, err, sizeof err) == 0)
        CHECK(limit_largest(&in, "rhd", LIMIT_ASIS, &r, err, sizeof err) == 0 && r.gpus == 16 &&
                  fabs(r.eff - 100 * (16 / s2.step_s) / (32 / s1.step_s)) < 1e-9,
              "the ratio of per-GPU images/s: %g", r.eff);
    else CHECK(0, "points by hand: %s", err);
    model_free(m32), model_free(m16);
    /* the cases: a slower NIC never raises the ring's efficiency at 2 nodes, faster compute lowers it */
    limit_out half, fast;
    CHECK(limit_largest(&in, "ring", LIMIT_ASIS, &r, err, sizeof err) == 0 &&
              limit_largest(&in, "ring", LIMIT_NIC_HALF, &half, err, sizeof err) == 0 &&
              limit_largest(&in, "ring", LIMIT_STEP_HALF, &fast, err, sizeof err) == 0 && half.eff < r.eff &&
              fast.eff < r.eff, "NIC x0.5 %g%%, step x0.5 %g%%, as is %g%%", half.eff, fast.eff, r.eff);
    CHECK(!strcmp(limit_case_name(LIMIT_NIC_DOUBLE), "NIC bw x2") && !strcmp(limit_case_name(99), "?"), "names");
    in.global_batch = 4;
    CHECK(limit_largest(&in, "ring", LIMIT_ASIS, &r, err, sizeof err) == 2 && strstr(err, "below the 8 GPUs"),
          "a global batch below one node: %s", err);
    in.global_batch = 0, in.batch = 32;
    CHECK(limit_largest(&in, "nosuch", LIMIT_ASIS, &r, err, sizeof err) == 2, "an unknown algorithm: %s", err);
    return TEST_REPORT();
}
