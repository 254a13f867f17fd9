/* allreduce_auto.c — picks, per message size and topology, the fastest of the algorithms the
 * registry marks DDL_ALGO_AUTO (ring, rhd, ddl with its grid and per-dimension patterns, nccl-ring,
 * nccl-tree), and nvls (COLL_ALGO_SWITCH) where the machine's switches reduce, in its model or simulated, as
 * PowerAI DDL's exploration mode kept the best pattern per dimension (Cho et al. 2017).
 *
 * Setup enumerates candidates: each such row's configurations (its `candidates`, e.g. ddl's grids
 * and patterns; else the plain algorithm), in registry order. For each size class (powers of two,
 * 1 KiB .. 1 GiB) it asks the cost model (ddl_config.cost: e.g. ddl_machine_cost, or the harness's
 * platform model) for every candidate and keeps the cheapest; only the winners get a context.
 * Without a cost model the built-in rule is: rhd below 64 KiB (latency: 2 lg p steps), else ddl on
 * ranks per node x nodes with rings when ranks are node-major on several nodes, else ring.
 * Cost: the chosen algorithm's; ddl_auto_choose (ddl.h) answers the choice on a ddl_machine with the
 * library's own model, and auto's registry cost prices that choice, so no caller re-enumerates. Memory: one context (a
 * communicator set and scratch) per distinct
 * winner. A call picks the class nearest its size: allocation-free.
 * Reduce-scatter and allgather (n = p·count elements in all) use the class of n and the same
 * choice restricted to candidates that have them (ring, rhd, ddl do; nccl-tree not): each candidate's halves are its
 * allreduce's two halves, so the cost model that ranks the allreduce of n ranks them alike (ddl's
 * block permutation and rhd's fold, a count-sized step each, aside), and no second model is needed. */
#include "coll.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NCLASS 21          /* 2^10 .. 2^30 bytes */
#define MAX_CAND 96

typedef struct candidate {
    int algo;              /* registry index */
    char grid[48];         /* algorithms with DDL_ALGO_GRID; "" = none */
    char patterns[48];
} candidate;

typedef struct auto_state {
    int nc;                        /* candidates */
    candidate cand[MAX_CAND];
    int pick[NCLASS];              /* winning candidate per size class */
    int rsag[NCLASS];              /* the same among candidates with reduce-scatter and allgather; -1 none */
    ddl_ctx *sub[MAX_CAND];        /* contexts of the winners (NULL for the others) */
} auto_state;

static void add(auto_state *s, int algo, const coll_shape *sh)
{
    if (s->nc == MAX_CAND) return;
    candidate *c = &s->cand[s->nc++];
    c->algo = algo;
    c->grid[0] = c->patterns[0] = '\0';
    for (int i = 0; i < sh->ndims; i++) {
        size_t g = strlen(c->grid), p = strlen(c->patterns);
        snprintf(c->grid + g, sizeof c->grid - g, "%s%d", i ? "x" : "", sh->dims[i]);
        snprintf(c->patterns + p, sizeof c->patterns - p, "%s%s", i ? "," : "",
                 coll_pattern_name(sh->patterns[i]));
    }
}

/* The candidates on p ranks, rpn a node; sw: the machine's switches reduce (COLL_ALGO_SWITCH rows too). */
static void enumerate(auto_state *s, int p, int rpn, int sw)
{
    coll_shape sh[MAX_CAND];
    for (int a = 0; a < ddl_algo_count(); a++) {
        const coll_algo *row = coll_algo_get(a);
        int n = 1;
        if (!(row->flags & DDL_ALGO_AUTO) && !(sw && (row->flags & COLL_ALGO_SWITCH))) continue;
        if (row->candidates) n = row->candidates(p, rpn, sh, MAX_CAND - s->nc);
        else sh[0].ndims = 0;
        for (int i = 0; i < n; i++) add(s, a, &sh[i]);
    }
}

static int find(const auto_state *s, const char *algo, const char *grid, const char *patterns)
{
    for (int c = 0; c < s->nc; c++)
        if (!strcmp(coll_algo_get(s->cand[c].algo)->name, algo) && !strcmp(s->cand[c].grid, grid) &&
            !strcmp(s->cand[c].patterns, patterns))
            return c;
    return -1;
}

/* The rule without a cost model (file header); a candidate it names that is missing: the first. */
static int builtin_pick(const auto_state *s, int p, int rpn, double bytes)
{
    char grid[48];
    int c;
    if (bytes < 65536) {
        c = find(s, "rhd", "", "");
    } else if (rpn > 1 && p > rpn) {
        snprintf(grid, sizeof grid, "%dx%d", rpn, p / rpn);
        c = find(s, "ddl", grid, "ring,ring");
    } else {
        c = find(s, "ring", "", "");
    }
    return c < 0 ? 0 : c;
}

static int capable(const auto_state *s, int c)
{
    const coll_algo *row = coll_algo_get(s->cand[c].algo);
    return row->reduce_scatter && row->allgather;
}

/* One size class's winner on p ranks, rpn per node: the cheapest by the cost model (ties: the simpler,
 * earlier one), else the built-in rule's; rsag: among the candidates with reduce-scatter and allgather
 * only (-1: none). */
static int choose(const auto_state *s, int p, int rpn, ddl_cost_fn cost, void *arg, double bytes, int rsag)
{
    int pick = builtin_pick(s, p, rpn, bytes);
    double best = INFINITY;
    if (rsag && !capable(s, pick)) { /* the rule's pick lacks them: the first that has them */
        pick = -1;
        for (int c = s->nc - 1; c >= 0; c--)
            if (capable(s, c)) pick = c;
    }
    for (int c = 0; cost && c < s->nc; c++) {
        const candidate *cd = &s->cand[c];
        if (rsag && !capable(s, c)) continue;
        double t = cost(arg, coll_algo_get(cd->algo)->name, cd->grid[0] ? cd->grid : NULL,
                        cd->patterns[0] ? cd->patterns : NULL, (size_t)bytes);
        if (t >= 0 && t < best * 0.999) { best = t; pick = c; }
    }
    return pick;
}

/* The machine's switches reduce (NVLink SHARP in a node of several ranks, IB SHARP across nodes). */
static int switches(const ddl_machine *m)
{
    return m && ((m->nvls_bw > 0 && m->ranks_per_node > 1) || (m->sharp_bw > 0 && m->ranks > m->ranks_per_node));
}

static int make_sub(ddl_ctx *ctx, const ddl_config *cfg, const candidate *c, ddl_ctx **out)
{
    ddl_config sc = DDL_CONFIG_INIT;
    sc.algo = coll_algo_get(c->algo)->name;
    sc.grid = c->grid[0] ? c->grid : NULL;
    sc.patterns = c->patterns[0] ? c->patterns : NULL;
    sc.ranks_per_node = ctx->ranks_per_node > 0 ? ctx->ranks_per_node : 0;
    sc.segment_bytes = ctx->segment_bytes;
    sc.poll_us = cfg->poll_us ? cfg->poll_us : ctx->poll_us;
    sc.device = cfg->device;
    sc.pipeline_depth = ctx->depth;
    sc.net_segment_bytes = ctx->net_bytes; /* 0: the default, which is off when ours is */
    sc.machine = cfg->machine;
    return ddl_ctx_create(ctx->comm, &sc, out);
}

static int auto_setup(ddl_ctx *ctx, const ddl_config *cfg)
{
    auto_state *s = calloc(1, sizeof *s);
    int rc = s ? coll_test_fail(ctx->comm, "setup", DDL_ERR_ARG) : coll_fail(DDL_ERR_NOMEM, "auto: out of memory");
    if ((rc = coll_agree(ctx->comm, rc))) { /* before the sub-contexts' collective creation */
        free(s);
        return rc;
    }
    ctx->algo_state = s;
    /* nvls: host buffers only (its setup refuses device ones) */
    enumerate(s, ctx->size, ctx->ranks_per_node, coll_simulated() && !cfg->device && switches(cfg->machine));
    if (!s->nc) return coll_fail(DDL_ERR_ALGO, "auto: no registered algorithm to choose from");
    /* rank 0 chooses, the others take its choices: every rank must create the same sub-contexts in the
     * same order, and 2 x 21 classes x every candidate's cost on each of 256 simulated ranks took 23 s
     * of CPU per launch (one process runs them all under SMPI; docs/BENCHMARKS.md, issue 48) */
    for (int k = 0; ctx->rank == 0 && k < NCLASS; k++) {
        s->pick[k] = choose(s, ctx->size, ctx->ranks_per_node, cfg->cost, cfg->cost_arg, ldexp(1.0, 10 + k), 0);
        s->rsag[k] = choose(s, ctx->size, ctx->ranks_per_node, cfg->cost, cfg->cost_arg, ldexp(1.0, 10 + k), 1);
    }
    COLL_MPI(MPI_Bcast(s->pick, NCLASS, MPI_INT, 0, ctx->comm));
    COLL_MPI(MPI_Bcast(s->rsag, NCLASS, MPI_INT, 0, ctx->comm));
    for (int k = 0; k < 2 * NCLASS; k++) {
        const int c = k < NCLASS ? s->pick[k] : s->rsag[k - NCLASS];
        if (c >= 0 && !s->sub[c] && (rc = make_sub(ctx, cfg, &s->cand[c], &s->sub[c]))) return rc;
    }
    return 0;
}

static void auto_teardown(ddl_ctx *ctx)
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

int ddl_auto_choose(const ddl_machine *m, double bytes, ddl_choice *out)
{
    int rc;
    if (!out) return coll_fail(DDL_ERR_ARG, "ddl_auto_choose: out is NULL");
    memset(out, 0, sizeof *out);
    if ((rc = coll_machine_check(m, bytes))) return rc;
    auto_state *s = calloc(1, sizeof *s);
    if (!s) return coll_fail(DDL_ERR_NOMEM, "auto: out of memory");
    enumerate(s, m->ranks, m->ranks_per_node, switches(m));
    int c = s->nc ? choose(s, m->ranks, m->ranks_per_node, ddl_machine_cost, (void *)m,
                           ldexp(1.0, 10 + size_class(bytes)), 0) : -1;
    if (c >= 0) {
        snprintf(out->algo, sizeof out->algo, "%s", coll_algo_get(s->cand[c].algo)->name);
        snprintf(out->grid, sizeof out->grid, "%s", s->cand[c].grid);
        snprintf(out->patterns, sizeof out->patterns, "%s", s->cand[c].patterns);
    }
    free(s);
    return c < 0 ? coll_fail(DDL_ERR_ALGO, "auto: no registered algorithm to choose from") : 0;
}

/* auto's own cost: that of its choice (ddl_auto_choose) at these bytes. */
static int auto_cost(const ddl_machine *m, const coll_shape *sh, double bytes, double *seconds)
{
    ddl_choice c;
    int rc = ddl_auto_choose(m, bytes, &c);
    (void)sh;
    return rc ? rc : ddl_algo_cost(c.algo, c.grid[0] ? c.grid : NULL, c.patterns[0] ? c.patterns : NULL, m, bytes,
                                   seconds);
}

static int allreduce_auto(ddl_ctx *ctx, const void *sbuf, void *rbuf, size_t count, kern_dtype dt, kern_op op)
{
    const auto_state *s = ctx->algo_state;
    ddl_ctx *sub = s->sub[s->pick[size_class((double)count * (double)kern_dtype_size(dt))]];
    return coll_algo_get(sub->algo)->run(sub, sbuf, rbuf, count, dt, op);
}

/* The sub-context for a reduce-scatter or allgather of count elements per rank, or NULL (failure set). */
static ddl_ctx *rsag_sub(const ddl_ctx *ctx, size_t count, kern_dtype dt)
{
    const auto_state *s = ctx->algo_state;
    const int c = s->rsag[size_class((double)ctx->size * (double)count * (double)kern_dtype_size(dt))];
    if (c < 0) coll_fail(DDL_ERR_ALGO, "auto: none of its candidates has a reduce-scatter and an allgather");
    return c < 0 ? NULL : s->sub[c];
}

static int reduce_scatter_auto(ddl_ctx *ctx, const void *sbuf, void *rbuf, size_t count, kern_dtype dt, kern_op op)
{
    ddl_ctx *sub = rsag_sub(ctx, count, dt);
    return sub ? coll_algo_get(sub->algo)->reduce_scatter(sub, sbuf, rbuf, count, dt, op) : DDL_ERR_ALGO;
}

static int allgather_auto(ddl_ctx *ctx, const void *sbuf, void *rbuf, size_t count, kern_dtype dt)
{
    ddl_ctx *sub = rsag_sub(ctx, count, dt);
    return sub ? coll_algo_get(sub->algo)->allgather(sub, sbuf, rbuf, count, dt) : DDL_ERR_ALGO;
}

static void human(double bytes, char *out, size_t len)
{
    static const char *const unit[] = { "B", "K", "M", "G" };
    int u = 0;
    while (bytes >= 1024 && u < 3) { bytes /= 1024; u++; }
    snprintf(out, len, "%.0f%s", bytes, unit[u]);
}

static int auto_describe(const ddl_ctx *ctx, char *buf, size_t len)
{
    const auto_state *s = ctx->algo_state;
    size_t used = (size_t)snprintf(buf, len, " choices: ");
    for (int k = 0, end; k < NCLASS && used < len; k = end + 1) {
        char lo[16], hi[16];
        for (end = k; end + 1 < NCLASS && s->pick[end + 1] == s->pick[k]; end++) {}
        const candidate *c = &s->cand[s->pick[k]];
        human(ldexp(1.0, 10 + k), lo, sizeof lo);
        human(ldexp(1.0, 10 + end), hi, sizeof hi);
        used += (size_t)snprintf(buf + used, len - used, "%s%s-%s %s%s%s%s%s", k ? "; " : "", lo, hi,
                                 coll_algo_get(c->algo)->name,
                                 c->grid[0] ? " " : "", c->grid, c->patterns[0] ? " " : "", c->patterns);
    }
    return 0;
}

const coll_algo coll_algo_auto = {
    .name = "auto",
    .help = "per message size, the fastest of ring, rhd, ddl (grid, patterns), nccl-ring and nccl-tree "
            "by the cost model",
    .run = allreduce_auto,
    .setup = auto_setup,
    .teardown = auto_teardown,
    .describe = auto_describe,
    .cost = auto_cost,
    .reduce_scatter = reduce_scatter_auto,
    .allgather = allgather_auto,
};
