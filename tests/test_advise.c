/* test_advise.c — `ddlbench advise`'s settings (harness/sim/advise.c, the one step schedule's model
 * pricer): with GEMMs only, backward time is the backward GEMMs at the rate; the full step's is longer; one bucket
 * exposes exactly one allreduce of every gradient; bucketing
 * exposes less; auto exposes no more than ddl; bucket counts follow train's plan; the pick's tolerance
 * and tie-breaks, the least exposed setting, the rule in words; a bad algorithm is refused. No MPI needed. */
#include "advise.h"
#include "bucket.h"
#include "gemm.h"
#include "test.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static char merr[512]; /* model_create's message */

static double bwd_by_hand(const model *m, double rate)
{
    double t = 0;
    for (int l = 0; l < model_layer_count(m); l++) {
        const model_layer *L = model_layer_at(m, l);
        if (L->kind != MODEL_CONV && L->kind != MODEL_FC) continue;
        const model_gemm *w = &L->gemm[MODEL_BWD_WEIGHT], *d = &L->gemm[MODEL_BWD_DATA];
        t += kern_gemm_flops(w->m, w->n, w->k) / rate +
             (L->data_grad_needed ? kern_gemm_flops(d->m, d->n, d->k) / rate : 0);
    }
    return t;
}

static void check_pick(void)
{
    advise_out c[4] = { { .cap = 1 << 20, .buckets = 30 },
                        { .cap = 5 << 20, .buckets = 10 },
                        { .cap = 25 << 20, .buckets = 4 },
                        { .cap = 0, .buckets = 1 } };
    double ex[4] = { 1.00e-3, 1.05e-3, 1.20e-3, 20e-3 }; /* 1.05 is within 10% of 1.00; 1.20 is not */
    CHECK(advise_pick(c, ex, NULL, 4) == 1, "near tie goes to fewer buckets: %d", advise_pick(c, ex, NULL, 4));
    unsigned char use[4] = { 0, 0, 1, 1 };
    CHECK(advise_pick(c, ex, use, 4) == 2, "restricted to the usable cells");
    double tiny[4] = { 10e-6, 50e-6, 105e-6, 300e-6 }; /* absolute tolerance 100 us */
    CHECK(advise_pick(c, tiny, NULL, 4) == 2, "0.1 ms tolerance: %d", advise_pick(c, tiny, NULL, 4));
    unsigned char none[4] = { 0 };
    CHECK(advise_pick(c, ex, none, 4) == -1, "nothing usable");
    CHECK(advise_least(ex, NULL, 4) == 0 && advise_least(ex, use, 4) == 2 && advise_least(ex, none, 4) == -1,
          "the least exposed");
    double tie[4] = { 2e-3, 1e-3, 1e-3, 3e-3 };
    CHECK(advise_least(tie, NULL, 4) == 1, "the least exposed: the first on ties");
    char rule[200];
    advise_rule(rule, sizeof rule); /* the words say what ADVISE_TOL_S and ADVISE_TOL_REL do */
    CHECK(strstr(rule, "0.1 ms") && strstr(rule, "10%") && strstr(rule, "fewest buckets"), "rule: %s", rule);
}

int main(void)
{
    model *m = NULL;
    platform pf;
    char err[256];
    CHECK(model_create("resnet50", 32, 224, &m, merr, sizeof merr) == 0 &&
              platform_init(&pf, "minsky", 16, 4, err, sizeof err) == 0,
          "setup");
    if (!m) return TEST_REPORT();
    /* GEMMs only: backward checked by hand */
    advise_in in = { m, &pf, "ddl", 3925e9, 0.00546e-9, 2000, 0, 0, NULL, 0, 0, 0 };
    advise_out one, b25, b25auto, bad, half1, half25;
    CHECK(advise_eval(&in, 0, 0, &one, err, sizeof err) == 0, "one bucket: %s", err);
    /* fp16 gradients (wire.h): the same compute, half the bytes in one allreduce, half as many 25 MiB buckets */
    advise_in in16 = in;
    in16.grad_bytes = 2;
    CHECK(advise_eval(&in16, 0, 0, &half1, err, sizeof err) == 0 && half1.bwd_s == one.bwd_s &&
              half1.comm_s < 0.6 * one.comm_s && half1.comm_s > 0.4 * one.comm_s,
          "fp16: comm %g s against fp32's %g s", half1.comm_s, one.comm_s);
    CHECK(advise_eval(&in16, 25u << 20, 1u << 20, &half25, err, sizeof err) == 0 &&
              advise_eval(&in, 25u << 20, 1u << 20, &b25, err, sizeof err) == 0 && half25.buckets < b25.buckets &&
              half25.buckets >= b25.buckets / 2, "fp16: %d buckets of 25 MiB, fp32 %d", half25.buckets, b25.buckets);
    double want = bwd_by_hand(m, in.gemm_flops), ar;
    CHECK(fabs(one.bwd_s - want) < 1e-12 * want && one.bwd_s > 0.1, "backward %g s, by hand %g s", one.bwd_s, want);
    cost_opts co = { NULL, NULL, in.gamma };
    perf_cost(&pf, "ddl", 4.0 * (double)model_param_count(m), &co, &ar, err, sizeof err);
    CHECK(one.buckets == 1 && fabs(one.exposed_s - ar) < 1e-12 && fabs(one.comm_s - ar) < 1e-12,
          "one bucket exposes its whole allreduce: %g vs %g", one.exposed_s, ar);
    CHECK(fabs(one.step_s - (one.fwd_s + one.bwd_s + one.exposed_s + one.sgd_s)) < 1e-12, "step = sum of parts");
    CHECK(advise_eval(&in, (size_t)25 << 20, (size_t)1 << 20, &b25, err, sizeof err) == 0, "25 MiB: %s", err);
    advise_in sh = in; /* full sharding: the allgathers' waits reported; the step's parts still add up */
    advise_out fullsh;
    sh.shard = 3, sh.optim = 1; /* SHARD_FULL, OPTIM_ADAM (shard_mem.h) */
    CHECK(advise_eval(&sh, (size_t)25 << 20, (size_t)1 << 20, &fullsh, err, sizeof err) == 0 &&
              fullsh.gather_wait_s >= 0 && fullsh.gather_wait_s < fullsh.fwd_s + fullsh.bwd_s &&
              fabs(fullsh.step_s - (fullsh.fwd_s + fullsh.bwd_s + fullsh.exposed_s + fullsh.sgd_s)) < 1e-12,
          "full sharding: %s", err);
    sh.algo = "nccl-tree";
    CHECK(advise_eval(&sh, (size_t)25 << 20, (size_t)1 << 20, &fullsh, err, sizeof err) == 2, "nccl-tree cannot shard");
    CHECK(b25.exposed_s < one.exposed_s && b25.exposed_s >= 0 && b25.comm_s > b25.exposed_s,
          "buckets hide communication");
    size_t counts[400];
    bucket_plan plan;
    for (int i = 0; i < model_tensor_count(m); i++) counts[i] = (size_t)model_tensor_at(m, i)->numel;
    bucket_plan_make(counts, model_tensor_count(m), 4, (size_t)25 << 20, (size_t)1 << 20, &plan);
    CHECK(b25.buckets == plan.nbuckets, "bucket count %d, plan %d", b25.buckets, plan.nbuckets);
    bucket_plan_free(&plan);
    in.algo = "auto";
    CHECK(advise_eval(&in, (size_t)25 << 20, (size_t)1 << 20, &b25auto, err, sizeof err) == 0 &&
              b25auto.exposed_s <= b25.exposed_s + 1e-15 && b25auto.comm_s <= b25.comm_s + 1e-15,
          "auto exposes no more than ddl");
    advise_out full;
    in.full = 1;
    CHECK(advise_eval(&in, (size_t)25 << 20, (size_t)1 << 20, &full, err, sizeof err) == 0 &&
              full.bwd_s > b25auto.bwd_s && full.fwd_s > b25auto.fwd_s && full.buckets == b25auto.buckets,
          "the full step: longer compute, same buckets");
    in.algo = "nosuch";
    CHECK(advise_eval(&in, (size_t)25 << 20, 0, &bad, err, sizeof err) == 2 && *err, "bad algorithm refused");
    check_pick();
    model_free(m);
    return TEST_REPORT();
}
