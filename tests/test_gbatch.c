/* test_gbatch.c — the global-batch rule of harness/common/gbatch.c: floor per GPU, the remainder
 * dropped and said, a global batch below the GPU count refused, outputs untouched on refusal. */
#include "gbatch.h"
#include "test.h"

#include <string.h>

static void splits(void)
{
    static const struct { long n, p, per, dropped; } ok[] = {
        { 3264, 8, 408, 0 }, { 3264, 16, 204, 0 }, { 34560, 768, 45, 0 }, { 20480, 512, 40, 0 },
        { 32256, 768, 42, 0 }, { 3200, 64, 50, 0 }, { 3264, 128, 25, 64 }, { 7, 7, 1, 0 }, { 13, 4, 3, 1 },
        { 1, 1, 1, 0 }, { GBATCH_MAX, 1, GBATCH_MAX, 0 },
    };
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        long per = -1, dropped = -1;
        char err[200] = "";
        int rc = gbatch_split(ok[i].n, ok[i].p, 0, "--global-batch", &per, &dropped, err, sizeof err);
        CHECK(rc == 0 && per == ok[i].per && dropped == ok[i].dropped && per * ok[i].p + dropped == ok[i].n,
              "%ld over %ld: rc %d per %ld dropped %ld (%s)", ok[i].n, ok[i].p, rc, per, dropped, err);
    }
}

static void refusals(void)
{
    static const struct { long n, p, max; const char *says; } bad[] = {
        { 4, 8, 0, "below the 8 GPUs" }, { 0, 1, 0, "1..16777216" }, { -5, 2, 0, "1..16777216" },
        { GBATCH_MAX + 1, 1, 0, "1..16777216" }, { 10, 0, 0, "positive GPU count" },
        { 65537 * 2L, 2, 65536, "at most 65536" },
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        long per = -1, dropped = -1;
        char err[200] = "";
        int rc = gbatch_split(bad[i].n, bad[i].p, bad[i].max, "GLOBAL_BATCH", &per, &dropped, err, sizeof err);
        CHECK(rc == 2 && per == -1 && dropped == -1 && strstr(err, bad[i].says) && !strncmp(err, "GLOBAL_BATCH: ", 14)
              && !strchr(err, '\n'), "%ld over %ld: rc %d, err \"%s\"", bad[i].n, bad[i].p, rc, err);
    }
    long per = -1;
    CHECK(gbatch_split(8, 8, 0, "x", &per, NULL, (char[64]){ 0 }, 64) == 0 && per == 1, "dropped may be NULL");
}

static void words(void)
{
    char b[200];
    CHECK(!strcmp(gbatch_describe(3264, 16, b, sizeof b), "global batch 3264 over 16 GPUs: 204 per GPU"), "%s", b);
    gbatch_describe(3264, 128, b, sizeof b);
    CHECK(strstr(b, "25 per GPU, 64 images dropped") && strstr(b, "3200 a step"), "%s", b);
}

int main(void)
{
    splits();
    refusals();
    words();
    return TEST_REPORT();
}
