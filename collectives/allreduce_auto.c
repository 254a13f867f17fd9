/* allreduce_auto.c — picks, per message size and topology, the fastest of ring, rhd and ddl (with
 * its grid and per-dimension patterns), as PowerAI DDL's exploration mode kept the best pattern per
 * dimension.
 *
 * Setup enumerates candidates: ring, rhd, and ddl on every grid d1 x rest whose d1 is the ranks of a
 * node and whose rest is the node count as one or two factors (or, on one node, p as two factors),
 * with ring or rhd (power-of-two dimensions only) per dimension. For each size class (powers of two,
 * 1 KiB .. 1 GiB) it asks the cost model (ddl_config.cost: the harness passes the platform's
 * α-β-γ model) for every candidate and keeps the cheapest; only the winners get a context. Without
 * a cost model the built-in rule is: rhd below 64 KiB (latency: 2 lg p steps), else ddl on the
 * derived grid with rings when ranks are node-major on several nodes, else ring.
 * Cost: the chosen algorithm's. Memory: one context (a communicator set and scratch) per distinct
 * winner. A call picks the class nearest its size: allocation-free. */
#include "coll.h"
#include "partition.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NCLASS 21          /* 2^10 .. 2^30 bytes */
#define MAX_CAND 96

typedef struct candidate {
    const char *algo;      /* ring, rhd, ddl */
    char grid[48];         /* ddl only */
    char patterns[48];     /* ddl only */
} candidate;

typedef struct auto_state {
    int nc;                        /* candidates */
    candidate cand[MAX_CAND];
    int pick[NCLASS];              /* winning candidate per size class */
    ddl_ctx *sub[MAX_CAND];        /* contexts of the winners (NULL for the others) */
} auto_state;

static void add(auto_state *s, const char *algo, const int *dims, int nd, int patmask)
{
    if (s->nc == MAX_CAND) return;
    candidate *c = &s->cand[s->nc++];
    c->algo = algo;
    c->grid[0] = c->patterns[0] = '\0';
    for (int i = 0; i < nd; i++) {
        size_t g = strlen(c->grid), p = strlen(c->patterns);
        snprintf(c->grid + g, sizeof c->grid - g, "%s%d", i ? "x" : "", dims[i]);
        snprintf(c->patterns + p, sizeof c->patterns - p, "%s%s", i ? "," : "", (patmask >> i) & 1 ? "rhd" : "ring");
    }
}

/* ddl on dims with every ring/rhd combination (rhd only on power-of-two dimensions). */
static void add_grid(auto_state *s, const int *dims, int nd)
{
    for (int mask = 0; mask < 1 << nd; mask++) {
        int ok = 1;
        for (int i = 0; i < nd; i++) ok &= !((mask >> i) & 1) || coll_is_pow2(dims[i]);
        if (ok) add(s, "ddl", dims, nd, mask);
    }
}

static void enumerate(auto_state *s, int p, int rpn)
{
    int nodes = rpn > 1 && p % rpn == 0 ? p / rpn : 0;
    add(s, "ring", NULL, 0, 0);
    add(s, "rhd", NULL, 0, 0);
    if (nodes > 1) { /* rpn x nodes, rpn x a x nodes/a */
        add_grid(s, (int[]){ rpn, nodes }, 2);
        for (int a = 2; a < nodes; a++)
            if (nodes % a == 0) add_grid(s, (int[]){ rpn, a, nodes / a }, 3);
    } else {         /* one node, or no topology: p as two factors */
        for (int a = 2; a < p; a++)
            if (p % a == 0) add_grid(s, (int[]){ a, p / a }, 2);
    }
}

static int builtin_pick(const auto_state *s, const ddl_ctx *ctx, double bytes)
{
    if (bytes < 65536) return 1;                                          /* rhd */
    if (ctx->ranks_per_node > 1 && ctx->size > ctx->ranks_per_node) return 2; /* ddl rpn x nodes, rings */
    (void)s;
    return 0;                                                             /* ring */
}

static int make_sub(ddl_ctx *ctx, const ddl_config *cfg, const candidate *c, ddl_ctx **out)
{
    ddl_config sc = DDL_CONFIG_INIT;
    sc.algo = c->algo;
    sc.grid = c->grid[0] ? c->grid : NULL;
    sc.patterns = c->patterns[0] ? c->patterns : NULL;
    sc.ranks_per_node = ctx->ranks_per_node > 0 ? ctx->ranks_per_node : 0;
    sc.segment_bytes = ctx->segment_bytes;
    sc.poll_us = cfg->poll_us ? cfg->poll_us : ctx->poll_us;
    sc.device = cfg->device;
    sc.pipeline_depth = ctx->depth;
    return ddl_ctx_create(ctx->comm, &sc, out);
}

int coll_auto_setup(ddl_ctx *ctx, const ddl_config *cfg)
{
    auto_state *s = calloc(1, sizeof *s);
    int rc = s ? coll_test_fail(ctx->comm, "setup", DDL_ERR_ARG) : coll_fail(DDL_ERR_NOMEM, "auto: out of memory");
    if ((rc = coll_agree(ctx->comm, rc))) { /* before the sub-contexts' collective creation */
        free(s);
        return rc;
    }
    ctx->algo_state = s;
    enumerate(s, ctx->size, ctx->ranks_per_node);
    for (int k = 0; k < NCLASS; k++) {
        double bytes = ldexp(1.0, 10 + k), best = INFINITY;
        s->pick[k] = builtin_pick(s, ctx, bytes);
        for (int c = 0; cfg->cost && c < s->nc; c++) {
            const candidate *cd = &s->cand[c];
            double t = cfg->cost(cfg->cost_arg, cd->algo, cd->grid[0] ? cd->grid : NULL,
                                 cd->patterns[0] ? cd->patterns : NULL, (size_t)bytes);
            if (t >= 0 && t < best * 0.999) { best = t; s->pick[k] = c; } /* ties: the simpler, earlier one */
        }
    }
    /* rank 0's choices everywhere: every rank must create the same sub-contexts in the same order */
    COLL_MPI(MPI_Bcast(s->pick, NCLASS, MPI_INT, 0, ctx->comm));
    for (int k = 0; k < NCLASS; k++)
        if (!s->sub[s->pick[k]] && (rc = make_sub(ctx, cfg, &s->cand[s->pick[k]], &s->sub[s->pick[k]])))
            return rc;
    return 0;
}

void coll_auto_teardown(ddl_ctx *ctx)
{
    auto_state *s = ctx->algo_state;
    if (!s) return;
    for (int c = 0; c < MAX_CAND; c++) ddl_ctx_free(s->sub[c]);
    free(s);
    ctx->algo_state = NULL;
}

static int size_class(double bytes)
{
    int k = bytes > 0 ? (int)lround(log2(bytes)) - 10 : 0;
    return k < 0 ? 0 : k >= NCLASS ? NCLASS - 1 : k;
}

int coll_allreduce_auto(ddl_ctx *ctx, const void *sbuf, void *rbuf, size_t count, kern_dtype dt, kern_op op)
{
    const auto_state *s = ctx->algo_state;
    ddl_ctx *sub = s->sub[s->pick[size_class((double)count * (double)kern_dtype_size(dt))]];
    return coll_algo_get(sub->algo)->run(sub, sbuf, rbuf, count, dt, op);
}

static void human(double bytes, char *out, size_t len)
{
    static const char *const unit[] = { "B", "K", "M", "G" };
    int u = 0;
    while (bytes >= 1024 && u < 3) { bytes /= 1024; u++; }
    snprintf(out, len, "%.0f%s", bytes, unit[u]);
}

int coll_auto_describe(const ddl_ctx *ctx, char *buf, size_t len)
{
    const auto_state *s = ctx->algo_state;
    size_t used = 0;
    buf[0] = '\0';
    for (int k = 0, end; k < NCLASS && used < len; k = end + 1) {
        char lo[16], hi[16];
        for (end = k; end + 1 < NCLASS && s->pick[end + 1] == s->pick[k]; end++) {}
        const candidate *c = &s->cand[s->pick[k]];
        human(ldexp(1.0, 10 + k), lo, sizeof lo);
        human(ldexp(1.0, 10 + end), hi, sizeof hi);
        used += (size_t)snprintf(buf + used, len - used, "%s%s-%s %s%s%s%s%s", k ? "; " : "", lo, hi, c->algo,
                                 c->grid[0] ? " " : "", c->grid, c->patterns[0] ? " " : "", c->patterns);
    }
    return 0;
}
