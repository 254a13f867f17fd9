/* test_scaling.c — the scaling table (harness/common/scaling.c): the efficiency against 1 GPU and 1
 * node (exact small numbers), missing baselines (NA), one row, --per-rank rows, a *-model.csv's rows
 * and provenance, old raw CSVs without nongemm_ms, the file order, and malformed raw CSVs refused with
 * one line. No MPI. */
#include "scaling.h"
#include "test.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define HDR "model,batch,image_size,ranks,algo,bucket_MB,buckets,step_ms_median,step_ms_min,step_ms_max,compute_ms," \
            "gemm_ms,nongemm_ms,comm_ms,exposed_ms,sgd_ms,other_ms,other_pct,images_per_s,wrong\n"
#define ROW(g, algo, ips) "resnet50,32,224," #g "," algo ",25,5,1,1,1,1,1,0,1,1,1,0,0.000," #ips ",0\n"
#define OUT_HDR                                                                                                        \
    "backend,platform,model,batch,image_size,gpus,nodes,gpus_per_node,algo,bucket_MB,buckets,"                         \
    "step_ms_median,step_ms_min,step_ms_max,compute_ms,gemm_ms,nongemm_ms,comm_ms,exposed_ms,sgd_ms,other_ms,"         \
    "other_pct,images_per_s,eff_vs_1gpu,eff_vs_1node,wrong,papi_gemm_GFLOPps,papi_gemm_ipc," SCALING_EXTRA        \
    ",eff_vs_smallest\n"
#define TAIL ",0,NA,NA,NA,NA,NA,NA,NA,NA,NA,NA,NA," /* eff_vs_smallest follows */

static char *merge(const scaling_file *f, int n, long G, int *rc, char *err)
{
    scaling_setup s = { G, "sim", "minsky", "# run: t\n" };
    char *out = NULL;
    size_t len = 0;
    *rc = scaling_merge(f, n, &s, &out, &len, err, 300);
    if (!*rc && strlen(out) != len) *rc = -1;
    return out;
}

static int has(const char *text, const char *line) { return text && strstr(text, line) != NULL; }

static void check_efficiency(void)
{
    CHECK(scaling_efficiency(300, 4, 1, 100) == 0.75, "300 at 4 vs 100 at 1");
    CHECK(scaling_efficiency(600, 8, 4, 400) == 0.75, "600 at 8 vs 400 at 4");
    CHECK(scaling_efficiency(100, 1, 1, 100) == 1, "the baseline itself");
    CHECK(isnan(scaling_efficiency(1, 2, 1, 0)) && isnan(scaling_efficiency(1, 2, 1, NAN)), "no baseline: NAN");
}

static void check_table(void)
{
    static const char a[] = "# commit: x\n# command: train one\n" HDR ROW(1, "ring", 100) ROW(1, "ddl", 100);
    static const char b[] = "# commit: y\n# command: train four\n" HDR ROW(4, "ring", 300) ROW(4, "ddl", 380);
    static const char c[] = "# command: train eight\n" HDR ROW(8, "ring", 600);
    scaling_file f[] = { { "r/resnet50-1.csv", a, sizeof a - 1 }, { "r/resnet50-4.csv", b, sizeof b - 1 },
                         { "r/resnet50-8.csv", c, sizeof c - 1 } };
    char err[300] = "";
    int rc;
    char *t = merge(f, 3, 4, &rc, err);
    CHECK(rc == 0, "merge: %d %s", rc, err);
    CHECK(has(t, "# run: t\n# launch_command: train eight\n" OUT_HDR), "provenance of the largest file, renamed: %s",
          t);
    CHECK(has(t, "sim,minsky,resnet50,32,224,1,1,1,ring,25,5,1,1,1,1,1,0,1,1,1,0,0.000,100,1.0000,NA" TAIL "1.0000\n"),
          "1 GPU row");
    CHECK(has(t, "sim,minsky,resnet50,32,224,4,1,4,ring,25,5,1,1,1,1,1,0,1,1,1,0,0.000,300,0.7500,1.0000"
          TAIL "0.7500\n"),
          "1 node row");
    CHECK(has(t, "sim,minsky,resnet50,32,224,4,1,4,ddl,25,5,1,1,1,1,1,0,1,1,1,0,0.000,380,0.9500,1.0000"
          TAIL "0.9500\n"),
          "ddl row");
    CHECK(has(t, "sim,minsky,resnet50,32,224,8,2,4,ring,25,5,1,1,1,1,1,0,1,1,1,0,0.000,600,0.7500,1.0000"
          TAIL "0.7500\n"),
          "2 nodes");
    free(t);
    /* without the 1-GPU file: no eff_vs_1gpu; without the 1-node file either: one row, both NA */
    t = merge(f + 1, 2, 4, &rc, err);
    CHECK(rc == 0 && has(t, ",600,NA,1.0000" TAIL "1.0000\n") && has(t, ",300,NA,1.0000" TAIL "1.0000\n"),
          "no 1-GPU baseline: the smallest run is 4 GPUs: %s", t ? t : err);
    free(t);
    t = merge(f + 2, 1, 4, &rc, err);
    CHECK(rc == 0 && has(t, ",8,2,4,ring,") && has(t, ",600,NA,NA" TAIL "1.0000\n"), "one row: %s", t ? t : err);
    free(t);
    /* G = 1: every count is whole nodes; G = 3: 4 GPUs are 1.33333 nodes */
    t = merge(f, 2, 1, &rc, err);
    CHECK(rc == 0 && has(t, ",4,4,1,ring,") && has(t, ",300,0.7500,0.7500" TAIL "0.7500\n"), "G 1: %s", t ? t : err);
    free(t);
    t = merge(f, 2, 3, &rc, err);
    CHECK(rc == 0 && has(t, ",4,1.33333,3,ring,"), "G 3: %s", t ? t : err);
    free(t);
}

/* --per-rank rows (only "all" kept), a *-model.csv (rows "model"; a simulated file of as many GPUs
 * heads the table), a raw CSV from before the full step (no nongemm_ms: 0 inserted), PAPI and extras. */
static void check_kinds(void)
{
    static const char pr[] =
        "# command: sim\n"
        "model,batch,image_size,ranks,rank,algo,bucket_MB,buckets,step_ms_median,step_ms_min,step_ms_max,compute_ms,"
        "gemm_ms,comm_ms,exposed_ms,sgd_ms,other_ms,other_pct,images_per_s,wrong,papi_gemm_GFLOPps,papi_gemm_ipc,lag_"
        "ms\n"
        "resnet50,32,224,2,0,ddl,25,5,1,1,1,1,1,1,1,1,0,0.000,150,0,NA,NA,3\n"
        "resnet50,32,224,2,all,ddl,25,5,2,2,2,2,2,2,2,2,0,0.000,160,0,12.5,1.25,4\n";
    static const char mo[] = "# command: model\n" HDR ROW(2, "ring", 170);
    static const char one[] = HDR ROW(1, "ddl", 100);
    scaling_file f[] = { { "d/r-1.csv", one, sizeof one - 1 }, { "d/r-2-model.csv", mo, sizeof mo - 1 },
                         { "d/r-2.csv", pr, sizeof pr - 1 } };
    char err[300] = "";
    int rc;
    char *t = merge(f, 3, 4, &rc, err);
    CHECK(rc == 0, "merge: %d %s", rc, err);
    CHECK(has(t, "# launch_command: sim\n") && !has(t, "launch_command: model"), "the simulated file heads it: %s", t);
    CHECK(has(t, "\nsim,minsky,resnet50,32,224,2,1,2,ddl,25,5,2,2,2,2,2,0,2,2,2,0,0.000,160,0.8000,NA,0,12.5,1.25,"
                 "NA,NA,NA,NA,NA,NA,4,NA,NA,0.8000\n"), "the all row, nongemm 0, PAPI, lag: %s", t);
    CHECK(!has(t, ",150,"), "a rank's row dropped");
    CHECK(has(t, "\nmodel,minsky,resnet50,32,224,2,1,2,ring,"), "the model file's rows");
    free(t);
}

static void check_order(void)
{
    CHECK(scaling_order("/t/raw/resnet50-2.csv", "/t/raw/resnet50-16.csv") < 0, "2 before 16");
    CHECK(scaling_order("/t/raw/resnet50-16-model.csv", "/t/raw/resnet50-16.csv") < 0, "ties by bytes");
    CHECK(scaling_order("/t/raw/resnet50-16.csv", "/t/raw/resnet101-22k-1.csv") < 0, "22k counts as 22 (sort -n)");
    CHECK(scaling_order("/r/x-sim-8/raw/b-1.csv", "/r/x-sim-8/raw/a-2.csv") > 0, "no number: by bytes");
}

/* A quoted cell (RFC 4180) is read as one cell and written back quoted: the row keeps its width. */
static void check_quotes(void)
{
    static const char raw[] = HDR "\"resnet50,v2\",32,224,1,ring,25,5,1,1,1,1,1,0,1,1,1,0,0.000,100,0\n";
    scaling_file f = { "raw/m-1.csv", raw, sizeof raw - 1 };
    char err[300] = "";
    int rc;
    char *t = merge(&f, 1, 4, &rc, err);
    CHECK(rc == 0 && has(t, "sim,minsky,\"resnet50,v2\",32,224,1,1,1,ring,") && has(t, ",100,1.0000,NA"
          TAIL "1.0000\n"),
          "quoted cell: %s", t ? t : err);
    free(t);
}

/* Weak-scaling efficiency of one run's steps against a baseline run: t0 / t at the same batch. */
static void check_step_efficiency(void)
{
    static const char base[] = "# one GPU\nmodel,algo,bucket_MB,ranks,batch,step_ms_median,step_ms_min,step_ms_max\n"
                               "resnet50,ddl,25,1,32,100,90,110\n";
    static const char run[] = "model,algo,bucket_MB,ranks,batch,step_ms_median,step_ms_min,step_ms_max\n"
                              "resnet50,ddl,25,256,32,125,120,200\n";
    static const char other[] = "model,algo,bucket_MB,ranks,batch,step_ms_median,step_ms_min,step_ms_max\n"
                                "resnet50,ring,25,256,32,125,120,200\n";
    scaling_file b = { "b.csv", base, sizeof base - 1 }, r = { "r.csv", run, sizeof run - 1 };
    scaling_file o = { "o.csv", other, sizeof other - 1 }, h = { "h.csv", "model,ranks\n", 12 };
    char *out = NULL, err[300] = "";
    CHECK(scaling_step_efficiency(&b, &r, &out, err, sizeof err) == 0 &&
          !strcmp(out, SCALING_STEP_HEADER "\n256,100.000,125.000,120.000,200.000,80.00,50.00,83.33\n"),
          "t0 / t on the median, slowest and fastest steps: %s", out ? out : err);
    free(out), out = NULL;
    CHECK(scaling_step_efficiency(&b, &o, &out, err, sizeof err) == 2 && !out &&
          !strncmp(err, "o.csv: line 2: no row", 21), "no baseline row: %s", err);
    CHECK(scaling_step_efficiency(&h, &r, &out, err, sizeof err) == 2 && strstr(err, "h.csv: no model") == NULL &&
          strstr(err, "h.csv: no algo column"), "not a train CSV: %s", err);
}

static void check_refusals(void)
{
    static const char *const bad[] = {
        "",                                              /* nothing */
        "# only: provenance\n",                          /* no header */
        "model,ranks\nresnet50,1\n",                     /* columns missing */
        HDR "resnet50,32,224,1,ring\n",                  /* a short row */
        HDR ROW(x, "ring", 1),                           /* ranks not a number */
        HDR ROW(0, "ring", 1),                           /* ranks 0 */
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        scaling_file f = { "raw/m-1.csv", bad[i], strlen(bad[i]) };
        char err[300] = "";
        int rc;
        char *t = merge(&f, 1, 4, &rc, err);
        CHECK(rc == 2 && !t && !strncmp(err, "raw/m-1.csv: line ", 18) && !strchr(err, '\n'), "bad %zu: rc %d \"%s\"",
              i, rc, err);
        free(t);
    }
    static const char nul[] = "a\0b\n";
    scaling_file f = { "n.csv", nul, sizeof nul - 1 };
    char err[300];
    int rc;
    free(merge(&f, 1, 4, &rc, err));
    CHECK(rc == 2, "a NUL byte");
}

int main(void)
{
    check_efficiency();
    check_table();
    check_kinds();
    check_order();
    check_quotes();
    check_step_efficiency();
    check_refusals();
    return TEST_REPORT();
}
