/* test_fidelity.c — the statistics of `make fidelity` (harness/sim/fidelity.c) on synthetic inputs:
 * repeated runs merged (median of medians, odd and even counts; min of mins), real and simulated runs
 * joined (out-of-place only, train steps in us, a point without a simulated one left out, NA for a
 * fastest time of 0), the report's groups and the 15/35 pass rule at its edges, the profile's and
 * the probes' medians, and inputs that are not what was expected refused with one line. No MPI. */
#include "fidelity.h"
#include "test.h"

#include <math.h>

#define AR_HDR "size_B,algo,placement,ranks,time_us_median,time_us_min\n"
#define TR_HDR "ranks,algo,bucket_MB,step_ms_median,step_ms_min\n"

static fidelity_text txt(const char *name, const char *s) { return (fidelity_text){ name, s, strlen(s) }; }
static int has(const char *t, const char *s) { return t && strstr(t, s) != NULL; }

static void check_merge(void)
{
    fidelity_text r[4] = { txt("r1", "# run 1\n" AR_HDR "1024,ring,out,2,10,9\n4096,ring,out,2,40,38\n"),
                           txt("r2", AR_HDR "1024,ring,out,2,30,7\n4096,ring,out,2,44,39\n"),
                           txt("r3", AR_HDR "1024,ring,out,2,20,8\n"),
                           txt("r4", "x,y\n1,2\n") };
    char *out = NULL, err[300] = "";
    CHECK(fidelity_merge(r, 3, &out, err, sizeof err) == 0, "merge: %s", err);
    CHECK(has(out, "size_B,algo,placement,ranks,time_us_median,time_us_min,runs\n1024,ring,out,2,20,7,3\n"
                   "4096,ring,out,2,42,38,2\n"), "odd and even medians, min of mins: %s", out ? out : "");
    free(out), out = NULL;
    CHECK(fidelity_merge(r, 4, &out, err, sizeof err) == 2 && !out && has(err, "r4: no size_B column") &&
          !strchr(err, '\n'), "not an allreduce CSV: %s", err);
}

static void check_join(void)
{
    fidelity_text in[4] = {
        txt("ar", AR_HDR "1024,ring,out,2,100,80\n1024,ring,in,2,1,1\n4096,ring,out,2,200,0\n"
                  "8192,ring,out,2,300,300\n"),
        txt("as", AR_HDR "1024,ring,out,2,110,110\n4096,ring,out,2,150,150\n1024,ring,in,2,99,99\n"),
        txt("tr", TR_HDR "2,ring,25,200,150\n"), txt("ts", TR_HDR "2,ring,25,150,150\n")
    };
    char *out = NULL, err[300] = "";
    CHECK(fidelity_join("1node", in, &out, err, sizeof err) == 0, "join: %s", err);
    CHECK(!strcmp(out ? out : "", "allreduce,1node,2,ring,1024,100.000,110.000,10.00,80.000,37.50\n"
                                  "allreduce,1node,2,ring,4096,200.000,150.000,-25.00,0.000,NA\n"
                                  "train,1node,2,ring,resnet50-b2-32px-bucket25,200000.000,150000.000,-25.00,"
                                  "150000.000,0.00\n"),
          "points: %s", out ? out : "");
    free(out), out = NULL;
    in[2] = txt("tr", "ranks,algo\n2,ring\n");
    CHECK(fidelity_join("1node", in, &out, err, sizeof err) == 2 && has(err, "tr: no bucket_MB column"), "%s", err);
}

static void check_report(void)
{
    CHECK(fidelity_passes(15, 35) && !fidelity_passes(15.01, 10) && !fidelity_passes(1, 35.01), "the 15/35 rule");
    fidelity_text p = txt("points.csv", "kind,setup,ranks,algo,size,real_us,sim_us,err_pct,real_min_us,err_min_pct\n"
                                        "allreduce,1node,2,ring,1024,100,110,10.00,90,22.22\n"
                                        "allreduce,1node,2,ring,4096,200,150,-25.00,190,-21.05\n"
                                        "allreduce,1node,2,rdb,1024,100,130,30.00,95,36.84\n"
                                        "allreduce,1node,2,rdb,4096,300,310,3.33,0,NA\n"
                                        "train,emu,4,ring,b0,2000,1700,-15.00,2000,-15.00\n"
                                        "train,emu,4,ring,b25,2000,2700,35.00,2000,35.00\n");
    char *out = NULL, err[300] = "";
    CHECK(fidelity_report(&p, &out, err, sizeof err) == 0, "report: %s", err);
    CHECK(has(out, "#   allreduce 1node 2 ranks            17.5%   30.0%     22.2%  (4 points)\n"),
          "a group's line: %s", out ? out : "");
    CHECK(has(out, "  allreduce 1node      2 ring              1024        100.0        110.0     10.0"
                   "         90.0     22.2\n"),
          "a point's line");
    CHECK(has(out, "fidelity (fastest real iteration): median |error| 22.2%, max 36.8% over 5 points\n"), "fastest");
    CHECK(has(out, "fidelity: median |error| 20.0%, max 35.0% over 6 points; per group (median/max %, * = misses "
                   "15/35): allreduce-1node-2 17.5/30.0*, train-emu-4 25.0/35.0*\n"), "summary line");
    free(out), out = NULL;
    p = txt("p.csv", "kind,setup,ranks,algo,size,real_us,sim_us,err_pct,real_min_us,err_min_pct\n"
                     "train,emu,4,ring,b0,2000,1700,-15.00,2000,-15.00\n");
    CHECK(fidelity_report(&p, &out, err, sizeof err) == 0 && has(out, "train-emu-4 15.0/15.0\n"), "at the rule's edge");
    free(out), out = NULL;
    p = txt("p.csv", "kind,setup,ranks,algo,size,real_us,sim_us,err_pct,real_min_us,err_min_pct\n");
    CHECK(fidelity_report(&p, &out, err, sizeof err) == 0 && has(out, "median |error| NA%, max NA% over 0 points; "),
          "no points: %s", out ? out : err);
    free(out), out = NULL;
    p = txt("p.csv", "kind,setup\n");
    CHECK(fidelity_report(&p, &out, err, sizeof err) == 2 && has(err, "no ranks column"), "%s", err);
}

static void check_calibration(void)
{
    fidelity_text g[2] = { txt("gemm0.txt", "# gemm_train_ms_per_step    20.0  (100.00 GFLOP/s, median of 3)\n"),
                           txt("gemm1.txt", "x\n# gemm_train_ms_per_step    30.0  (110.00 GFLOP/s, (a) of 3)\n") };
    fidelity_text c[2] = { txt("cpu0.profile", "# c\nmem_gbps = 10\ngemm_gflops_fp32 = 9\nreduce_ns_per_byte = 0.5\n"),
                           txt("cpu1.profile", "mem_gbps = 13\nreduce_ns_per_byte = 0.25\nbad line\n") };
    char *out = NULL, err[300] = "";
    CHECK(fidelity_profile(g, 2, c, 2, &out, err, sizeof err) == 0, "profile: %s", err);
    CHECK(has(out, "# local-2: medians of 2") && has(out, "\ngemm_gflops_fp32 = 105\ngemm_gflops_fp16 = 105\n"
                                                          "mem_gbps = 11.5\nreduce_ns_per_byte = 0.375\n"),
          "profile medians (the mean of the two middles): %s", out ? out : "");
    free(out), out = NULL;
    CHECK(fidelity_profile(g, 0, c, 2, &out, err, sizeof err) == 2 && !out, "no GEMM timing");
    fidelity_text b[3] = { txt("beside0.txt", "# gemm_train_ms_per_step 30.0 (1 GFLOP/s)\n"),
                           txt("beside1.txt", "# gemm_train_ms_per_step 40.0 (1 GFLOP/s)\n"),
                           txt("beside2.txt", "# gemm_train_ms_per_step 50.0 (1 GFLOP/s)\n") };
    double pct = -1;
    CHECK(fidelity_contention(g, 2, b, 3, &pct, err, sizeof err) == 0 && fabs(pct - 60) < 1e-9, "contention %g", pct);
    CHECK(fidelity_contention(b, 3, g, 2, &pct, err, sizeof err) == 0 && pct == 0, "faster beside: 0, got %g", pct);
    CHECK(fidelity_contention(g, 2, b, 0, &pct, err, sizeof err) == 2, "nothing beside");
    fidelity_text a = txt("a.csv", AR_HDR "26214400,ring,out,2,900,900\n26214400,ring,in,2,1000,1000\n"),
                  s = txt("s.csv", AR_HDR "26214400,ring,in,2,2500,2500\n"),
                  none = txt("n.csv", AR_HDR "1,ring,out,2,1,1\n");
    CHECK(fidelity_comm_ratio(&a, &s, &pct, err, sizeof err) == 0 && fabs(pct - 150) < 1e-9, "comm ratio %g", pct);
    CHECK(fidelity_comm_ratio(&s, &a, &pct, err, sizeof err) == 0 && pct == 0, "comm ratio, faster beside");
    CHECK(fidelity_comm_ratio(&a, &none, &pct, err, sizeof err) == 2 && has(err, "n.csv: no in-place row"), "%s", err);
}

int main(void)
{
    check_merge();
    check_join();
    check_report();
    check_calibration();
    return TEST_REPORT();
}
