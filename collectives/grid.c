/* grid.c — the ddl grid: parse "4x16x4" and per-dimension patterns "ring,rhd,ring", or derive a grid
 * from ranks per node (d1 = ranks in a node; node counts above 8 split into two near-square levels,
 * e.g. 256 ranks at 4 per node = 4x8x8), all rings; or, for ddl-pipe (coll_grid_derive_rhd), a grid
 * that pays few latencies across the nodes: the node's ranks, then the node count's power-of-two
 * factor on rhd (log2 steps), then its odd factor on a ring (24 nodes x 8 = 8:rhd x 8:rhd x 3:ring).
 * Pure functions; tests/test_grid.c covers them. */
#include "coll.h"
#include "partition.h"

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

/* rhd on every power-of-two level; across nodes N = 2^k * m (m odd): 2^k on rhd, then m on a ring, so
 * a non-power-of-two node count pays 2(m-1) ring steps, not 2(N-1). One node: coll_grid_derive's. */
void coll_grid_derive_rhd(int p, int rpn, coll_shape *sh)
{
    int nodes = (rpn > 0 && p % rpn == 0) ? p / rpn : 1, two = 1, k = 0;
    if (nodes == 1) {
        coll_grid_derive(p, rpn, sh->dims, &sh->ndims);
        for (int i = 0; i < sh->ndims; i++) sh->patterns[i] = COLL_PAT_RING;
        return;
    }
    while (nodes % (2 * two) == 0) two *= 2;
    if (rpn > 1) sh->dims[k] = rpn, sh->patterns[k++] = coll_is_pow2(rpn) ? COLL_PAT_RHD : COLL_PAT_RING;
    if (two > 1) sh->dims[k] = two, sh->patterns[k++] = COLL_PAT_RHD;
    if (nodes / two > 1) sh->dims[k] = nodes / two, sh->patterns[k++] = COLL_PAT_RING;
    sh->ndims = k;
}
