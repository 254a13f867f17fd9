/* test_profile.c — the device-profile parser accepts the shipped profiles and a well-formed text,
 * rejects malformed ones with a message naming the problem, and round-trips through profile_write. */
#include "profile.h"
#include "test.h"

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
    static const struct { const char *text; const char *expect; } bad[] = {
        { "", "empty" },
        { "gemm_gflops_fp32 = 3925\ngemm_gflops_fp16 = 7850\n", "missing key \"reduce_ns_per_byte\"" },
        { GOOD "bogus = 1\n", "unknown key" },
        { "gemm_gflops_fp32 = 1\ngemm_gflops_fp16 = 1\nreduce_ns_per_byte = 0\n", "missing key \"mem_gbps\"" },
        { "gemm_gflops_fp32 = 1\ngemm_gflops_fp16 = 1\nreduce_ns_per_byte = 0\nmem_gbps = 0\n", "> 0" },
        { GOOD "gemm_gflops_fp32 = 1\n", "given twice" },
        { "gemm_gflops_fp32 = fast\ngemm_gflops_fp16 = 7850\nreduce_ns_per_byte = 0\n", "decimal number" },
        { "gemm_gflops_fp32 = 12abc\ngemm_gflops_fp16 = 7850\nreduce_ns_per_byte = 0\n", "decimal number" },
        { "gemm_gflops_fp32 = -5\ngemm_gflops_fp16 = 7850\nreduce_ns_per_byte = 0\n", "> 0" },
        { "gemm_gflops_fp32 = 0\ngemm_gflops_fp16 = 7850\nreduce_ns_per_byte = 0\n", "> 0" },
        { "gemm_gflops_fp32 = 1\ngemm_gflops_fp16 = 7850\nreduce_ns_per_byte = -0.1\n", ">= 0" },
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
    };
    const int nbad = (int)(sizeof bad / sizeof bad[0]);

    CHECK(profile_parse(GOOD, strlen(GOOD), "t", &pr, err, sizeof err) == 0 && pr.gemm_gflops_fp32 == 3925 &&
              pr.gemm_gflops_fp16 == 7850 && pr.reduce_ns_per_byte == 0.005 && pr.mem_gbps == 549, "good: %s", err);
    {
        const char *t = "# comment\n\n  gemm_gflops_fp16=2 # trailing\r\n\treduce_ns_per_byte = 0\nmem_gbps=1.5\ngemm_gflops_fp32 = 1e3\n";
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

    CHECK(profile_load("harness/sim/profiles/p100.profile", &pr, err, sizeof err) == 0 && pr.gemm_gflops_fp32 > 3000 &&
              pr.gemm_gflops_fp32 < 10600 && pr.mem_gbps > 0 && pr.mem_gbps <= 732, "p100 (below its peaks): %s", err);
    CHECK(profile_load("h200", &pr, err, sizeof err) == 0 && pr.gemm_gflops_fp32 > 10000 && pr.mem_gbps <= 4800,
          "h200 by name: %s", err);
    CHECK(profile_load("nosuch", &pr, err, sizeof err) == 2 && strstr(err, "cannot open"), "missing file");
    CHECK(profile_load("", &pr, err, sizeof err) == 2, "empty name");

    {
        char path[] = "/tmp/test_profile_XXXXXX";
        int fd = mkstemp(path);
        profile w = { 123.5, 247, 0.0125, 4321.5 }, r;
        CHECK(fd >= 0, "mkstemp");
        if (fd >= 0) close(fd);
        CHECK(profile_write(path, &w, "line one\nline two", err, sizeof err) == 0, "write: %s", err);
        CHECK(profile_load(path, &r, err, sizeof err) == 0 && r.gemm_gflops_fp32 == 123.5 && r.gemm_gflops_fp16 == 247 &&
                  r.reduce_ns_per_byte == 0.0125 && r.mem_gbps == 4321.5, "round trip: %s", err);
        remove(path);
    }
    return TEST_REPORT();
}
