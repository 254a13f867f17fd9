/* test_perf_step.c — the modelled training step (perf_step.h) against its parts computed here:
 * GEMM time from the layer table, SGD at the memory rate, non-GEMM time with --compute full, one allreduce per bucket
 * from perf_cost, the overlap
 * rule (a single bucket after backward is all exposed), and bad input. */
#include "bucket.h"
#include "perf_cost.h"
#include "perf_step.h"
#include "shard_mem.h"
#include "test.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static char merr[512]; /* model_create's message */

static int near(double a, double b) { return fabs(a - b) <= 1e-12 + 1e-9 * fabs(b); }

static double gemm_seconds(const model *m, double gflops)
{
    double t = 0;
    for (int l = 0; l < model_layer_count(m); l++) {
        const model_layer *L = model_layer_at(m, l);
        if (L->kind != MODEL_CONV && L->kind != MODEL_FC) continue;
        for (int g = 0; g < MODEL_GEMM_COUNT; g++) {
            if (g == MODEL_BWD_DATA && !L->data_grad_needed) continue;
            t += 2.0 * L->gemm[g].m * L->gemm[g].n * L->gemm[g].k / (gflops * 1e9);
        }
    }
    return t;
}

/* Sharding (perf_step.h): reduce-scatter + allgather of one bucket = its allreduce; the update on
 * 1/p of the parameters; full: every layer's allgather twice (forward, backward), waiting counted in
 * compute, on the reductions' stream; Adam's 28 B a parameter; an algorithm without reduce-scatter refused. */
static void test_shard(const model *m, const platform *pf, const step_inputs *base)
{
    char err[256];
    step_inputs none = *base, sh = *base;
    step_prediction a, b;
    none.bucket_bytes = sh.bucket_bytes = 0; /* one bucket */
    sh.shard = SHARD_OPTIMIZER;
    int p = platform_ranks(pf);
    double n = 4.0 * (double)model_param_count(m), ar, ar0;
    cost_opts o = { NULL, NULL, base->gamma }, o0 = { NULL, NULL, 0 };
    perf_cost(pf, "ring", n, &o, &ar, err, sizeof err), perf_cost(pf, "ring", n, &o0, &ar0, err, sizeof err);
    CHECK(perf_step(m, pf, "ring", &none, &a, err, sizeof err) == 0 &&
              perf_step(m, pf, "ring", &sh, &b, err, sizeof err) == 0, "shard optimizer: %s", err);
    CHECK(near(b.comm_s + b.gather_s, a.comm_s) && near(a.comm_s, ar) && near(b.gather_s, ar0 / 2),
          "one bucket: reduce-scatter %.9g + allgather %.9g = allreduce %.9g", b.comm_s, b.gather_s, a.comm_s);
    CHECK(near(b.sgd_s, a.sgd_s / p + b.gather_s) && near(b.step_s, b.compute_s + b.exposed_s + b.sgd_s),
          "the update on 1/%d and the allgather: %.9g vs %.9g", p, b.sgd_s, a.sgd_s);
    sh.shard = SHARD_FULL;
    double ag = 0;
    for (int l = 0; l < model_layer_count(m); l++) {
        const model_layer *L = model_layer_at(m, l);
        double t = 0;
        if (L->params) perf_cost(pf, "ring", 4.0 * (double)L->params, &o0, &t, err, sizeof err), ag += t;
    }
    CHECK(perf_step(m, pf, "ring", &sh, &b, err, sizeof err) == 0 && near(b.gather_s, ag) && b.gather_wait_s >= 0 &&
              near(b.compute_s, a.compute_s + b.gather_wait_s) && near(b.sgd_s, a.sgd_s / p),
          "full: allgathers %.9g, expected %.9g (2 x half an allreduce per layer); wait %.9g", b.gather_s, ag,
          b.gather_wait_s);
    step_inputs fast = sh; /* communication-bound: the gathers and the reductions share one stream (FSDP's
                              one communicator), so the step holds all of their time, none of it overlapped */
    fast.gemm_gflops *= 1e4, fast.mem_gbps *= 1e4, fast.bucket_bytes = 1 << 20;
    CHECK(perf_step(m, pf, "ring", &fast, &b, err, sizeof err) == 0 && b.buckets > 1 && b.exposed_s > 0 &&
              b.comm_s > b.gather_s && b.comm_s <= b.step_s * (1 + 1e-9),
          "full, communication-bound: one stream's busy time %.9g s within the step %.9g s (%s)", b.comm_s, b.step_s,
          err);
    sh.shard = SHARD_NONE, sh.optim = OPTIM_ADAM;
    CHECK(perf_step(m, pf, "ring", &sh, &b, err, sizeof err) == 0 &&
              near(b.sgd_s, 28.0 * (double)model_param_count(m) / (base->mem_gbps * 1e9)),
          "adam: 28 B a parameter");
    sh.optim = OPTIM_LAMB, sh.update_shard = 8; /* apex's full_ar: the allreduce, then a node group's shard */
    CHECK(perf_step(m, pf, "nccl-tree", &sh, &b, err, sizeof err) == 0 &&
              near(b.sgd_s, 48.0 * (double)model_param_count(m) / (base->mem_gbps * 1e9) / 8) &&
              perf_step(m, pf, "ring", &sh, &b, err, sizeof err) == 0 && near(b.comm_s, a.comm_s),
          "update_shard 8 with shard none: the allreduce (nccl-tree too), LAMB's 48 B on 1/8: %s", err);
    step_prediction g, w;
    sh.fixed_s = 1e-3; /* the group's allgather: paid by runs wider than the group only */
    CHECK(perf_step(m, pf, "ring", &sh, &g, err, sizeof err) == 0 && near(g.step_s, b.step_s + 1e-3),
          "update_shard 8 on %d ranks: fixed_s paid (%s)", p, err);
    sh.update_shard = p, sh.fixed_s = 0;
    CHECK(perf_step(m, pf, "ring", &sh, &w, err, sizeof err) == 0, "update_shard %d: %s", p, err);
    sh.fixed_s = 1e-3;
    CHECK(perf_step(m, pf, "ring", &sh, &g, err, sizeof err) == 0 && near(g.step_s, w.step_s),
          "update_shard %d on %d ranks, one group: fixed_s not paid (%g vs %g s)", p, p, g.step_s, w.step_s);
    sh.fixed_s = 0;
    sh.update_shard = 0;
    sh.shard = SHARD_GRADIENTS;
    CHECK(perf_step(m, pf, "nccl-tree", &sh, &b, err, sizeof err) == 2 && strstr(err, "--shard gradients"),
          "nccl-tree refused: %s", err);
}

int main(void)
{
    model *m = NULL;
    if (model_create("resnet50", 8, 64, &m, merr, sizeof merr) != MODEL_OK) {
        printf("0 passed, 1 failed\n");
        return 1;
    }
    const double gamma = 5e-12, rate = 1000;
    step_inputs in = {
        rate, gamma, 500, 0, 25u << 20, 1u << 20, NULL, NULL, { 0, 0, 0, 0, 0, 0 }, 0, 0, NULL, 0, 0, 0, 0, 0, 0
    }; /* --compute gemm */
    step_prediction s;
    platform one = { .name = "custom",
                     .nodes = 1,
                     .gpus_per_node = 1,
                     .intra_bw = 10e9,
                     .intra_lat = 1e-6,
                     .nic_bw = 10e9,
                     .inter_lat = 1e-6 },
             four = { .name = "custom",
                      .nodes = 4,
                      .gpus_per_node = 4,
                      .intra_bw = 40e9,
                      .intra_lat = 1e-6,
                      .nic_bw = 10e9,
                      .inter_lat = 5e-6 };
    char err[256];
    const double gemm = gemm_seconds(m, rate), sgd = 12.0 * (double)model_param_count(m) / 500e9;

    /* one rank: GEMMs and SGD only */
    CHECK(perf_step(m, &one, "ring", &in, &s, err, sizeof err) == 0, "1 rank: %s", err);
    CHECK(near(s.gemm_s, gemm) && near(s.compute_s, gemm), "1 rank: gemm %.9g, expected %.9g", s.gemm_s, gemm);
    CHECK(s.comm_s == 0 && s.exposed_s == 0, "1 rank: comm %.3g exposed %.3g", s.comm_s, s.exposed_s);
    CHECK(near(s.step_s, gemm + sgd), "1 rank: step %.9g, expected %.9g", s.step_s, gemm + sgd);

    /* 16 ranks, ring: comm is the sum of perf_cost over the buckets the plan makes */
    size_t *counts = malloc((size_t)model_tensor_count(m) * sizeof *counts);
    bucket_plan plan;
    for (int i = 0; i < model_tensor_count(m); i++) counts[i] = (size_t)model_tensor_at(m, i)->numel;
    CHECK(bucket_plan_make(counts, model_tensor_count(m), 4, in.bucket_bytes, in.first_bucket_bytes, &plan) == 0,
          "plan");
    double comm = 0;
    for (int b = 0; b < plan.nbuckets; b++) {
        cost_opts o = { NULL, NULL, gamma };
        double t;
        perf_cost(&four, "ring", (double)plan.buckets[b].count * 4, &o, &t, err, sizeof err);
        comm += t;
    }
    CHECK(perf_step(m, &four, "ring", &in, &s, err, sizeof err) == 0, "16 ranks ring: %s", err);
    CHECK(s.buckets == plan.nbuckets, "buckets %d, plan %d", s.buckets, plan.nbuckets);
    CHECK(near(s.comm_s, comm), "16 ranks: comm %.9g, expected %.9g", s.comm_s, comm);
    CHECK(s.exposed_s >= 0 && s.exposed_s <= s.comm_s, "exposed %.9g within comm %.9g", s.exposed_s, s.comm_s);
    CHECK(near(s.step_s, gemm + s.exposed_s + sgd), "step = gemm + exposed + sgd");
    { /* a fixed cost a step (a study entry's step_fixed_us): added to the step, nothing else moves */
        step_inputs fx = in;
        step_prediction t;
        fx.fixed_s = 250e-6;
        CHECK(perf_step(m, &four, "ring", &fx, &t, err, sizeof err) == 0 && near(t.step_s, s.step_s + 250e-6) &&
                  t.compute_s == s.compute_s && t.exposed_s == s.exposed_s && t.sgd_s == s.sgd_s,
              "fixed 250 us: step %.9g, expected %.9g (%s)", t.step_s, s.step_s + 250e-6, err);
    }

    /* one bucket (cap 0): its allreduce starts after backward, so all of it is exposed */
    step_inputs whole = in;
    whole.bucket_bytes = 0;
    CHECK(perf_step(m, &four, "ring", &whole, &s, err, sizeof err) == 0 && s.buckets == 1, "one bucket");
    CHECK(near(s.exposed_s, s.comm_s) && s.comm_s > 0, "one bucket: exposed %.9g = comm %.9g", s.exposed_s, s.comm_s);

    /* --compute full: the same GEMMs plus non-GEMM time, all inside compute */
    step_inputs full = in;
    full.full = 1;
    CHECK(perf_step(m, &one, "ring", &full, &s, err, sizeof err) == 0 && near(s.gemm_s, gemm) && s.nongemm_s > 0 &&
              near(s.compute_s, s.gemm_s + s.nongemm_s) && near(s.step_s, s.compute_s + s.sgd_s),
          "full: gemm %.9g nongemm %.9g compute %.9g", s.gemm_s, s.nongemm_s, s.compute_s);

    /* every algorithm prices; auto is never slower than the worst fixed choice */
    const char *algos[] = { "mpi", "ring", "rhd", "ddl", "auto" };
    double worst = 0, t_auto = 0;
    for (int a = 0; a < 5; a++) {
        CHECK(perf_step(m, &four, algos[a], &in, &s, err, sizeof err) == 0 && s.step_s > gemm, "%s: %s", algos[a], err);
        if (a < 4 && s.step_s > worst) worst = s.step_s;
        if (a == 4) t_auto = s.step_s;
    }
    CHECK(t_auto <= worst, "auto %.9g above the worst fixed algorithm %.9g", t_auto, worst);
    CHECK(perf_step(m, &four, "nosuch", &in, &s, err, sizeof err) == 2 && err[0], "unknown algorithm rejected");

    test_shard(m, &four, &in);
    bucket_plan_free(&plan);
    free(counts);
    model_free(m);
    return TEST_REPORT();
}
