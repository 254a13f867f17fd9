/* test_grid.c — grid strings, pattern lists, derived grids. */
#include "coll.h"
#include "test.h"

#include <string.h>

static int grid_is(const char *s, int n, const int *want)
{
    int dims[DDL_MAX_DIMS], nd = 0;
    if (coll_grid_parse(s, dims, &nd)) return 0;
    return nd == n && memcmp(dims, want, (size_t)n * sizeof(int)) == 0;
}

static void test_parse(void)
{
    int d[DDL_MAX_DIMS], nd;
    CHECK(grid_is("4x16x4", 3, (int[]){ 4, 16, 4 }), "4x16x4");
    CHECK(grid_is("8", 1, (int[]){ 8 }), "8");
    CHECK(grid_is("2X3", 2, (int[]){ 2, 3 }), "2X3");
    const char *bad[] = { "", "x4", "4x", "4xx4", "0x4", "-4", "4x16x4 ", "abc", "4x1x1x1x1x1x1x1x1",
                          "99999999999x2", "4,4" };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        CHECK(coll_grid_parse(bad[i], d, &nd) == DDL_ERR_GRID, "grid \"%s\" must be refused", bad[i]);
    CHECK(coll_grid_parse(NULL, d, &nd) == DDL_ERR_GRID, "NULL grid refused");
}

static void test_patterns(void)
{
    int pat[DDL_MAX_DIMS];
    CHECK(coll_patterns_parse(NULL, 3, pat) == 0 && pat[0] == COLL_PAT_RING && pat[2] == COLL_PAT_RING,
          "default ring");
    CHECK(coll_patterns_parse("rhd", 3, pat) == 0 && pat[1] == COLL_PAT_RHD && pat[2] == COLL_PAT_RHD,
          "one pattern for all");
    CHECK(coll_patterns_parse("ring,rhd", 2, pat) == 0 && pat[0] == COLL_PAT_RING && pat[1] == COLL_PAT_RHD,
          "ring,rhd");
    CHECK(coll_patterns_parse("ring,rhd", 3, pat) == DDL_ERR_GRID, "two patterns for three dims");
    CHECK(coll_patterns_parse("ring,tree", 2, pat) == DDL_ERR_GRID, "unknown pattern");
    CHECK(coll_patterns_parse("ring,", 2, pat) == DDL_ERR_GRID, "empty pattern");
    const char *eight = "ring,rhd,ring,rhd,ring,rhd,ring,rhd";
    CHECK(coll_patterns_parse(eight, 8, pat) == 0 && pat[7] == COLL_PAT_RHD, "eight patterns for eight dims");
    /* nothing after the 8th item may be dropped (it once was: the parser stopped at 8) */
    const char *over[] = { "ring,rhd,ring,rhd,ring,rhd,ring,rhd,ring", "ring,rhd,ring,rhd,ring,rhd,ring,rhd,",
                           "ring,rhd,ring,rhd,ring,rhd,ring,rhd,junk", "ring,rhd,ring,rhd,ring,rhd,ring,rhdx",
                           ",ring", "ring,,rhd", "RING", " ring" };
    for (size_t i = 0; i < sizeof over / sizeof over[0]; i++)
        CHECK(coll_patterns_parse(over[i], 8, pat) == DDL_ERR_GRID, "patterns \"%s\" must be refused", over[i]);
}

static void test_derive(void)
{
    struct { int p, rpn, n, dims[4]; } cases[] = {
        { 256, 4, 3, { 4, 8, 8 } }, { 64, 4, 3, { 4, 4, 4 } }, { 8, 4, 2, { 4, 2 } }, { 4, 4, 1, { 4 } },
        { 1, 1, 1, { 1 } }, { 12, 5, 1, { 12 } }, { 6, 1, 1, { 6 } }, { 48, 1, 2, { 8, 6 } },
        { 128, 4, 3, { 4, 8, 4 } },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int d[DDL_MAX_DIMS], nd;
        coll_grid_derive(cases[i].p, cases[i].rpn, d, &nd);
        int ok = nd == cases[i].n, prod = 1;
        for (int k = 0; k < nd; k++) { ok &= k < 4 && d[k] == cases[i].dims[k]; prod *= d[k]; }
        CHECK(ok && prod == cases[i].p, "derive p=%d rpn=%d", cases[i].p, cases[i].rpn);
    }
}

/* ddl-pipe's grid: rhd on power-of-two levels, a node count's odd factor on a ring after its power of two. */
static void test_derive_rhd(void)
{
    enum { G = COLL_PAT_RING, H = COLL_PAT_RHD };
    struct { int p, rpn, n, dims[4], pats[4]; } cases[] = {
        { 128, 8, 2, { 8, 16 }, { H, H } },    { 256, 8, 2, { 8, 32 }, { H, H } },
        { 192, 8, 3, { 8, 8, 3 }, { H, H, G } }, { 12, 4, 2, { 4, 3 }, { H, G } },
        { 8, 8, 1, { 8 }, { G } },             { 6, 1, 2, { 2, 3 }, { H, G } },
        { 18, 6, 2, { 6, 3 }, { G, G } },      { 12, 5, 1, { 12 }, { G } },
        { 7, 1, 1, { 7 }, { G } },             { 40, 4, 3, { 4, 2, 5 }, { H, H, G } },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        coll_shape sh;
        coll_grid_derive_rhd(cases[i].p, cases[i].rpn, &sh);
        int ok = sh.ndims == cases[i].n, prod = 1;
        for (int k = 0; k < sh.ndims; k++) {
            ok &= k < 4 && sh.dims[k] == cases[i].dims[k] && sh.patterns[k] == cases[i].pats[k];
            prod *= sh.dims[k];
        }
        CHECK(ok && prod == cases[i].p, "derive rhd p=%d rpn=%d", cases[i].p, cases[i].rpn);
    }
}

int main(void)
{
    test_parse();
    test_patterns();
    test_derive();
    test_derive_rhd();
    return TEST_REPORT();
}
