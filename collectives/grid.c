/* grid.c — the ddl grid: parse "4x16x4" and per-dimension patterns "ring,rhd,ring", or derive a grid
 * from ranks per node (d1 = ranks in a node; node counts above 8 split into two near-square levels,
 * e.g. 256 ranks at 4 per node = 4x8x8). Pure functions; tests/test_grid.c covers them. */
#include "coll.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static const char *const pattern_names[COLL_PAT_COUNT] = { "ring", "rhd" };

const char *coll_pattern_name(int pat)
{
    return pat >= 0 && pat < COLL_PAT_COUNT ? pattern_names[pat] : "?";
}

int coll_grid_parse(const char *s, int *dims, int *ndims)
{
    int k = 0;
    const char *p = s;
    if (!s || !*s) return coll_fail(DDL_ERR_GRID, "grid: expected dimensions like 4x16x4, got \"\"");
    for (;;) {
        char *end;
        if (*p < '0' || *p > '9') break;
        errno = 0;
        long d = strtol(p, &end, 10);
        if (errno || d < 1 || d > 1 << 20)
            return coll_fail(DDL_ERR_GRID, "grid: dimension out of range in \"%.64s\"", s);
        if (k == DDL_MAX_DIMS)
            return coll_fail(DDL_ERR_GRID, "grid: more than %d dimensions in \"%.64s\"", DDL_MAX_DIMS, s);
        dims[k++] = (int)d;
        p = end;
        if (*p == '\0') { *ndims = k; return 0; }
        if (*p != 'x' && *p != 'X') break;
        p++;
    }
    return coll_fail(DDL_ERR_GRID, "grid: expected dimensions like 4x16x4, got \"%.64s\"", s);
}

int coll_patterns_parse(const char *s, int ndims, int *patterns)
{
    int k = 0;
    if (!s || !*s) {
        for (int i = 0; i < ndims; i++) patterns[i] = COLL_PAT_RING;
        return 0;
    }
    const char *p = s;
    for (;;) {
        size_t len = strcspn(p, ",");
        if (k == DDL_MAX_DIMS) /* a 9th item, or text after the 8th: never dropped silently */
            return coll_fail(DDL_ERR_GRID, "patterns: more than %d in \"%.64s\"", DDL_MAX_DIMS, s);
        int pat = -1;
        for (int j = 0; j < COLL_PAT_COUNT; j++)
            if (len == strlen(pattern_names[j]) && strncmp(p, pattern_names[j], len) == 0) pat = j;
        if (pat < 0)
            return coll_fail(DDL_ERR_GRID, "patterns: expected ring or rhd per dimension, got \"%.64s\"", s);
        patterns[k++] = pat;
        if (p[len] == '\0') break;
        p += len + 1;
    }
    if (k == 1)
        for (int i = 1; i < ndims; i++) patterns[i] = patterns[0];
    else if (k != ndims)
        return coll_fail(DDL_ERR_GRID, "patterns: %d given for a grid of %d dimensions", k, ndims);
    return 0;
}

void coll_grid_derive(int p, int rpn, int *dims, int *ndims)
{
    int k = 0, nodes = (rpn > 0 && p % rpn == 0) ? p / rpn : 1;
    if (nodes == 1) rpn = p;
    if (rpn > 1) dims[k++] = rpn;
    if (nodes > 8) {
        int a = 1;
        for (int d = 1; d * d <= nodes; d++)
            if (nodes % d == 0) a = d;
        if (nodes / a > 1) dims[k++] = nodes / a;
        if (a > 1) dims[k++] = a;
    } else if (nodes > 1) {
        dims[k++] = nodes;
    }
    if (k == 0) dims[k++] = 1;
    *ndims = k;
}
