/* test_profile.c — the device-profile parser accepts the shipped profiles and a well-formed text,
 * rejects malformed ones with a message naming the problem, and round-trips through profile_write. */
#include "profile.h"
#include "sim.h"
#include "test.h"

#include <math.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define GOOD "gemm_gflops_fp32 = 3925\ngemm_gflops_fp16 = 7850\nreduce_ns_per_byte = 0.005\nmem_gbps = 549\n"

static int parse(const char *text, size_t len, char *err, size_t errlen)
{
    profile pr;
    return profile_parse(text, len, "t", &pr, err, errlen);
}

int main(void)
{
    profile pr;
    char err[300];
    static const struct { const char *text; const char *expect;
    } bad[] = {
        { "", "empty" },
        { "gemm_gflops_fp32 = 3925\ngemm_gflops_fp16 = 7850\n", "missing key \"reduce_ns_per_byte\"" },
        { GOOD "bogus = 1\n", "unknown key" },
        { "gemm_gflops_fp32 = 1\ngemm_gflops_fp16 = 1\nreduce_ns_per_byte = 0\n", "missing key \"mem_gbps\"" },
        { "gemm_gflops_fp32 = 1\ngemm_gflops_fp16 = 1\nreduce_ns_per_byte = 0\nmem_gbps = 0\n", "in 0.001..1e+06" },
        { GOOD "gemm_gflops_fp32 = 1\n", "given twice" },
        { "gemm_gflops_fp32 = fast\ngemm_gflops_fp16 = 7850\nreduce_ns_per_byte = 0\n", "decimal number" },
        { "gemm_gflops_fp32 = 12abc\ngemm_gflops_fp16 = 7850\nreduce_ns_per_byte = 0\n", "decimal number" },
        { "gemm_gflops_fp32 = -5\ngemm_gflops_fp16 = 7850\nreduce_ns_per_byte = 0\n", "in 0.001..1e+08" },
        { "gemm_gflops_fp32 = 0\ngemm_gflops_fp16 = 7850\nreduce_ns_per_byte = 0\n", "in 0.001..1e+08" },
        { "gemm_gflops_fp32 = 1e300\ngemm_gflops_fp16 = 7850\nreduce_ns_per_byte = 0\n", "in 0.001..1e+08" },
        { "gemm_gflops_fp32 = 1\ngemm_gflops_fp16 = 1e-300\nreduce_ns_per_byte = 0\n", "in 0.001..1e+08" },
        { "gemm_gflops_fp32 = 1\ngemm_gflops_fp16 = 7850\nreduce_ns_per_byte = -0.1\n", "in 0..1e+06" },
        { "gemm_gflops_fp32 = 1\ngemm_gflops_fp16 = 7850\nreduce_ns_per_byte = 1e7\n", "in 0..1e+06" },
        { "gemm_gflops_fp32 = 1\ngemm_gflops_fp16 = 1\nreduce_ns_per_byte = 0\nmem_gbps = 2e6\n", "in 0.001..1e+06" },
        { "gemm_gflops_fp32 = nan\ngemm_gflops_fp16 = 7850\nreduce_ns_per_byte = 0\n", "decimal number" },
        { "gemm_gflops_fp32 = inf\ngemm_gflops_fp16 = 7850\nreduce_ns_per_byte = 0\n", "decimal number" },
        { "gemm_gflops_fp32 = 1 2\ngemm_gflops_fp16 = 7850\nreduce_ns_per_byte = 0\n", "one value" },
        { "gemm_gflops_fp32 3925\ngemm_gflops_fp16 = 7850\nreduce_ns_per_byte = 0\n", "key = value" },
        { "= 3925\n", "key = value" },
        { "gemm_gflops_fp32 =\ngemm_gflops_fp16 = 7850\nreduce_ns_per_byte = 0\n", "decimal number" },
        { "gemm_gflops_fp32 = 3925\ngemm_gflops_fp16 = 7850\nreduce_ns_per_byte = 0.00", "no newline" },
        { "GEMM_GFLOPS_FP32 = 3925\n", "unknown key" },
        { "gemm_gflops_fp32 = +3925\ngemm_gflops_fp16 = 7850\nreduce_ns_per_byte = 0\n", "decimal number" },
        { "gemm_gflops_fp32 = 0x10\ngemm_gflops_fp16 = 7850\nreduce_ns_per_byte = 0\n", "decimal number" },
        { "gemm_gflops_fp32 = 0X1p4\ngemm_gflops_fp16 = 7850\nreduce_ns_per_byte = 0\n", "decimal number" },
        { "gemm_gflops_fp32 = infinity\ngemm_gflops_fp16 = 7850\nreduce_ns_per_byte = 0\n", "decimal number" },
        { "gemm_gflops_fp32 = 1e\ngemm_gflops_fp16 = 7850\nreduce_ns_per_byte = 0\n", "decimal number" },
        { GOOD "reduce_ns_per_byte_at_x = 1\n", "expected a size" },
        { GOOD "reduce_ns_per_byte_at_ = 1\n", "expected a size" },
        { GOOD "reduce_ns_per_byte_at_0 = 1\n", "expected a size" },
        { GOOD "reduce_ns_per_byte_at_64K = -1\n", "in 0..1e+06" },
        { GOOD "reduce_ns_per_byte_at_64K = 1e9\n", "in 0..1e+06" },
        { GOOD "reduce_ns_per_byte_at_64K = fast\n", "decimal number" },
        { GOOD "reduce_ns_per_byte_at_64K = 1\nreduce_ns_per_byte_at_65536 = 2\n", "given twice" },
        { GOOD "reduce_ns_per_byte_at_1K = 1\nreduce_ns_per_byte_at_2K = 1\nreduce_ns_per_byte_at_3K = 1\n"
               "reduce_ns_per_byte_at_4K = 1\nreduce_ns_per_byte_at_5K = 1\nreduce_ns_per_byte_at_6K = 1\n"
               "reduce_ns_per_byte_at_7K = 1\nreduce_ns_per_byte_at_8K = 1\nreduce_ns_per_byte_at_9K = 1\n",
          "more than 8" },
        { GOOD "precision = fp64\n", "expected fp32, fp16 or bf16" },
        { GOOD "precision = fp16\nprecision = bf16\n", "\"precision\" given twice" },
        { GOOD "fused = 4\n", "whole number in 0..3" },
        { GOOD "bn_held = 2\n", "whole number in 0..1" },
        { GOOD "graphs = 0.5\n", "whole number in 0..1" },
        { GOOD "kernel_us = -1\n", "in 0..1e+06" },
        { GOOD "sms = 132.5\ngemm_tile = 128\n", "whole number in 1..1e+06" },
        { GOOD "sms = 0\ngemm_tile = 128\n", "whole number in 1..1e+06" },
        { GOOD "sms = 132\n", "go together" },
        { GOOD "gemm_tile = 128\n", "go together" },
        { GOOD "gemm_tile = 8192\nsms = 1\n", "whole number in 1..4096" },
    };
    const int nbad = (int)(sizeof bad / sizeof bad[0]);
    {
        const char *t = GOOD "precision = bf16\nfused = 1\ngraphs = 1\nkernel_us = 4\ngraph_kernel_us = 1.5\n"
                             "sms = 132\ngemm_tile = 128\n";
        CHECK(profile_parse(t, strlen(t), "t", &pr, err, sizeof err) == 0 && pr.precision == PROFILE_BF16 &&
                  pr.fused == 1 && pr.graphs == 1 && pr.kernel_us == 4 && pr.sms == 132 && pr.gemm_tile == 128,
              "compute-model keys: %s", err);
        CHECK(profile_gemm_gflops(&pr) == 7850 && profile_kernel_s(&pr) == 1.5e-6,
              "bf16 prices at the fp16 rate, graphs at graph_kernel_us: %g %g", profile_gemm_gflops(&pr),
              profile_kernel_s(&pr));
        CHECK(profile_parse(GOOD, strlen(GOOD), "t", &pr, err, sizeof err) == 0 && pr.precision == PROFILE_FP32 &&
                  profile_gemm_gflops(&pr) == 3925 && profile_kernel_s(&pr) == 0 && pr.sms == 0,
              "defaults: fp32, no kernel cost, no tile model");
    }

    CHECK(profile_parse(GOOD, strlen(GOOD), "t", &pr, err, sizeof err) == 0 && pr.gemm_gflops_fp32 == 3925 &&
              pr.gemm_gflops_fp16 == 7850 && pr.reduce_ns_per_byte == 0.005 && pr.mem_gbps == 549, "good: %s", err);
    {
        const char *t = "# comment\n\n  gemm_gflops_fp16=2 # trailing\r\n\treduce_ns_per_byte = "
                        "0\nmem_gbps=1.5\ngemm_gflops_fp32 = 1e3\n";
        CHECK(profile_parse(t, strlen(t), "t", &pr, err, sizeof err) == 0 && pr.gemm_gflops_fp32 == 1000 &&
                  pr.gemm_gflops_fp16 == 2, "comments, spacing, CRLF, any order: %s", err);
    }
    for (int i = 0; i < nbad; i++) {
        err[0] = 0;
        CHECK(parse(bad[i].text, strlen(bad[i].text), err, sizeof err) == 2 && strstr(err, bad[i].expect),
              "bad[%d]: expected \"%s\" in \"%s\"", i, bad[i].expect, err);
    }
    {
        const char bin[] = "gemm_gflops_fp32 = 1\0\x7f\x45LF\n";
        CHECK(parse(bin, sizeof bin - 1, err, sizeof err) == 2 && strstr(err, "NUL"), "binary: %s", err);
        char line[1200];
        memset(line, '#', sizeof line);
        line[sizeof line - 1] = '\n';
        CHECK(parse(line, sizeof line, err, sizeof err) == 2 && strstr(err, "longer"), "long line: %s", err);
    }
    CHECK(nbad + 2 >= 10, "at least 10 malformed profiles");

    /* the size-dependent reduction cost: optional (a profile without it loads, with no points),
     * any order in the file, sorted when read */
    CHECK(profile_parse(GOOD, strlen(GOOD), "t", &pr, err, sizeof err) == 0 && pr.reduce_points == 0, "no table");
    {
        const char *t = GOOD "reduce_ns_per_byte_at_1M = 0.2 # L2\nreduce_ns_per_byte_at_64K = 0.1\n"
                             "reduce_ns_per_byte_at_64MiB = 0.5\n";
        CHECK(profile_parse(t, strlen(t), "t", &pr, err, sizeof err) == 0 && pr.reduce_points == 3 &&
                  pr.reduce_bytes[0] == 65536 && pr.reduce_ns[0] == 0.1 && pr.reduce_bytes[1] == 1 << 20 &&
                  pr.reduce_ns[1] == 0.2 && pr.reduce_bytes[2] == (size_t)64 << 20 && pr.reduce_ns[2] == 0.5,
              "table sorted: %s", err);
        /* interpolation: flat without points; end values beyond the ends; linear in log(size) */
        const size_t *b = pr.reduce_bytes;
        const double *v = pr.reduce_ns;
        CHECK(kern_sim_reduce_interp(0, b, v, 0.7, 12345) == 0.7, "no points: the flat rate");
        CHECK(kern_sim_reduce_interp(3, b, v, 0.7, 1) == 0.1 && kern_sim_reduce_interp(3, b, v, 0.7, 65536) == 0.1,
              "below and at the first point");
        CHECK(kern_sim_reduce_interp(3, b, v, 0.7, (size_t)1 << 30) == 0.5, "beyond the last point");
        CHECK(fabs(kern_sim_reduce_interp(3, b, v, 0.7, 256 << 10) - 0.15) < 1e-12, "256K: half way (log) 64K..1M");
        CHECK(fabs(kern_sim_reduce_interp(3, b, v, 0.7, 8 << 20) - 0.35) < 1e-12, "8M: half way (log) 1M..64M");
        CHECK(kern_sim_set_reduce_table(3, b, v) == 0 && kern_sim_set_rates(1, 0.7) == 0 &&
                  fabs(kern_sim_reduce_cost(8 << 20) - 0.35) < 1e-12, "the table in use");
        size_t unsorted[2] = { 2048, 1024 };
        double two[2] = { 1, 1 }, neg[2] = { 1, -1 };
        CHECK(kern_sim_set_reduce_table(2, unsorted, two) == -1 && kern_sim_set_reduce_table(2, b, neg) == -1 &&
                  kern_sim_set_reduce_table(9, b, v) == -1 && fabs(kern_sim_reduce_cost(8 << 20) - 0.35) < 1e-12,
              "bad tables refused, the old one kept");
        CHECK(kern_sim_set_reduce_table(0, NULL, NULL) == 0 && kern_sim_reduce_cost(8 << 20) == 0.7, "no table: flat");
    }

    CHECK(profile_load("harness/sim/profiles/p100.profile", &pr, err, sizeof err) == 0 && pr.gemm_gflops_fp32 > 3000 &&
              pr.gemm_gflops_fp32 < 10600 && pr.mem_gbps > 0 && pr.mem_gbps <= 732, "p100 (below its peaks): %s", err);
    CHECK(profile_load("h200", &pr, err, sizeof err) == 0 && pr.gemm_gflops_fp32 > 10000 && pr.mem_gbps <= 4800,
          "h200 by name: %s", err);
    CHECK(profile_load("nosuch", &pr, err, sizeof err) == 2 && strstr(err, "no such profile; expected one of") &&
              strstr(err, "p100"),
          "missing: the profiles there listed: %s", err);
    CHECK(profile_load("", &pr, err, sizeof err) == 2, "empty name");

    {
        char path[] = "/tmp/test_profile_XXXXXX";
        int fd = mkstemp(path);
        profile w = { 123.5, 247, 0.0125, 4321.5, 3, { 65536, 1 << 20, 1000 }, { 0.1, 0.2, 0.3 }, 0,
                      PROFILE_FP32, 0, 0, 0, 0, 0, 0, 0 },
                r;
        CHECK(fd >= 0, "mkstemp");
        if (fd >= 0) close(fd);
        CHECK(profile_write(path, &w, "line one\nline two", err, sizeof err) == 0, "write: %s", err);
        CHECK(profile_load(path, &r, err, sizeof err) == 0 && r.gemm_gflops_fp32 == 123.5 &&
                  r.gemm_gflops_fp16 == 247 && r.reduce_ns_per_byte == 0.0125 && r.mem_gbps == 4321.5 &&
                  r.reduce_points == 3 && r.reduce_bytes[0] == 1000 && r.reduce_ns[0] == 0.3 &&
                  r.reduce_bytes[1] == 65536 && r.reduce_bytes[2] == 1 << 20 && r.reduce_ns[2] == 0.2,
              "round trip: %s", err);
        CHECK(r.sgd_gbps == 0 && profile_sgd_gbps(&r) == 4321.5, "no sgd_gbps: none written, SGD at mem_gbps");
        w.sgd_gbps = 22.5;
        CHECK(profile_write(path, &w, NULL, err, sizeof err) == 0 && profile_load(path, &r, err, sizeof err) == 0 &&
                  r.sgd_gbps == 22.5 && profile_sgd_gbps(&r) == 22.5, "sgd_gbps written and read: %s", err);
        w.precision = PROFILE_FP16, w.fused = PROFILE_NORMCONV, w.graphs = 1, w.kernel_us = 4;
        w.graph_kernel_us = 1.5, w.sms = 108, w.gemm_tile = 128, w.bn_held = 1;
        CHECK(profile_write(path, &w, NULL, err, sizeof err) == 0 && profile_load(path, &r, err, sizeof err) == 0 &&
                  r.precision == PROFILE_FP16 && r.fused == PROFILE_NORMCONV && r.graphs == 1 && r.kernel_us == 4 &&
                  r.graph_kernel_us == 1.5 && r.sms == 108 && r.gemm_tile == 128 && r.bn_held == 1,
              "compute-model keys written and read: %s", err);
        remove(path);
    }
    { /* sgd_gbps: optional, once, a rate in range */
        const char *base = "gemm_gflops_fp32 = 1\ngemm_gflops_fp16 = 1\nreduce_ns_per_byte = 0.1\nmem_gbps = 10\n";
        char t[512];
        snprintf(t, sizeof t, "%ssgd_gbps = 0\n", base);
        CHECK(profile_parse(t, strlen(t), "s", &pr, err, sizeof err) == 2 && strstr(err, "sgd_gbps"),
              "sgd_gbps 0 refused: %s", err);
        snprintf(t, sizeof t, "%ssgd_gbps = 20\nsgd_gbps = 21\n", base);
        CHECK(profile_parse(t, strlen(t), "s", &pr, err, sizeof err) == 2 && strstr(err, "twice"),
              "sgd_gbps twice refused: %s", err);
        CHECK(kern_sim_set_sgd_gbps(-1) == -1 && kern_sim_set_sgd_gbps(0) == 0 && kern_sim_set_mem_gbps(10) == 0 &&
                  kern_sim_sgd_gbps() == 10 && kern_sim_set_sgd_gbps(20) == 0 && kern_sim_sgd_gbps() == 20,
              "the simulated SGD rate: its own where set, else mem_gbps");
        kern_sim_set_sgd_gbps(0);
    }
    { /* the copy cost by working set (issue 26): its table's text, its interpolation, none = 0 */
        size_t b[KERN_SIM_WS_POINTS];
        double v[KERN_SIM_WS_POINTS];
        const char *why = NULL;
        CHECK(kern_sim_ws_cost(1 << 20) == 0, "no table: no copy cost");
        CHECK(kern_sim_ws_parse("65536:0.1;1048576:0.3;16777216:0.9", KERN_SIM_WS_POINTS, b, v, &why) == 3 &&
                  b[1] == 1048576 && v[2] == 0.9, "a table read");
        CHECK(kern_sim_set_ws_table(3, b, v) == 0 && kern_sim_ws_cost(262144) > 0.1 && kern_sim_ws_cost(262144) < 0.3 &&
                  kern_sim_ws_cost(1 << 30) == 0.9, "interpolated in log(size), the last point beyond");
        CHECK(kern_sim_ws_parse("65536:0.1;4096:0.3", KERN_SIM_WS_POINTS, b, v, &why) < 0 && strstr(why, "monotonic"),
              "a non-monotonic table refused (%s)", why);
        CHECK(kern_sim_ws_parse("65536:-1", KERN_SIM_WS_POINTS, NULL, NULL, &why) < 0, "a negative cost refused");
        CHECK(kern_sim_ws_parse("0x10:1", KERN_SIM_WS_POINTS, NULL, NULL, &why) < 0, "hexadecimal refused");
        CHECK(kern_sim_ws_parse("", KERN_SIM_WS_POINTS, NULL, NULL, &why) < 0, "an empty table refused");
        CHECK(kern_sim_set_call_overhead(-1) == -1 && kern_sim_set_call_overhead(2e-7) == 0 &&
                  kern_sim_call_overhead() == 2e-7, "the call overhead: >= 0");
        kern_sim_ws_parse("65536:0.1;1048576:0.3;16777216:0.9", KERN_SIM_WS_POINTS, b, v, &why);
        kern_sim_set_ws_table(3, b, v);
        CHECK(kern_sim_copy_cost(1 << 20) == kern_sim_ws_cost(1 << 20), "no copy table: a copy costs the exchange's");
        size_t cb[2] = { 131072, 1 << 24 };
        double cv[2] = { 0.02, 0.07 };
        CHECK(kern_sim_set_copy_table(2, cb, cv) == 0 && kern_sim_copy_cost(131072) == 0.02 &&
                  kern_sim_copy_cost(1 << 30) == 0.07 && kern_sim_ws_cost(1 << 20) == 0.3,
              "a copy table: kern_copy's own, the exchange's unchanged");
        CHECK(kern_sim_set_copy_table(2, (size_t[]){ 1 << 24, 131072 }, cv) == -1 && kern_sim_copy_cost(131072) == 0.02,
              "a non-monotonic copy table refused, the old one kept");
        kern_sim_set_copy_table(0, NULL, NULL);
        CHECK(kern_sim_set_poll_slack(-1e-6) == -1 && kern_sim_poll_slack() == 0 &&
                  kern_sim_set_poll_slack(8e-5) == 0 && kern_sim_poll_slack() == 8e-5,
              "the poll slack: >= 0, a negative one refused");
        kern_sim_set_poll_slack(0);
        CHECK(kern_sim_set_fault_cost(-0.1) == -1 && kern_sim_fault_cost() == 0 && kern_sim_set_fault_cost(0.3) == 0 &&
                  kern_sim_fault_cost() == 0.3, "the fresh-page cost: >= 0, a negative one refused");
        kern_sim_set_fault_cost(0);
        kern_sim_set_ws_table(0, NULL, NULL);
    }
    return TEST_REPORT();
}
