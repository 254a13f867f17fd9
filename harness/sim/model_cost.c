/* model_cost.c — the α-β-γ model (model_cost.h). Each communication step is priced by walking every
 * rank's partner in that step: the step's level (inside a node or across), the number of a node's
 * GPUs sending off-node at once (they share its NIC), and the slowest message. A flat algorithm is
 * one "dimension" of stride 1 over all p ranks; ddl runs one per grid dimension. The grid and
 * pattern parsers are the library's own (collectives/grid.c), so model and run agree on the grid. */
#include "model_cost.h"
#include "coll.h"
#include "partition.h"

#include <stdlib.h>
#include <string.h>

typedef struct dim {
    int s, d;      /* stride and size: ranks r and r + s·j (same other coordinates) share the dimension */
} dim;

typedef struct step {
    int kind;      /* STEP_* */
    int arg;       /* mask (halving / doubling) */
    int r;         /* fold: extra ranks of the dimension (d - 2^k) */
} step;

enum { STEP_RING, STEP_FOLD, STEP_HALVE };

/* Partner coordinate of coordinate c in the dimension for this step, or -1 if c sends nothing. */
static int partner(const step *st, const dim *dm, int c)
{
    int v;
    switch (st->kind) {
    case STEP_RING: return (c + 1) % dm->d;
    case STEP_FOLD: return (c < 2 * st->r && c % 2 == 0) ? c + 1 : -1;
    default:
        v = coll_fold_vrank(c, st->r);
        return v < 0 ? -1 : coll_fold_real(v ^ st->arg, st->r);
    }
}

/* Seconds of one step in which every sending rank sends `bytes`; -1 if out of memory. */
static double step_time(const platform *pf, const dim *dm, const step *st, double bytes)
{
    const int p = platform_ranks(pf), g = pf->gpus_per_node;
    int *off = calloc((size_t)pf->nodes, sizeof *off);
    double worst = 0;
    if (!off) return -1;
    for (int pass = 0; pass < 2; pass++)
        for (int r = 0; r < p; r++) {
            int c = (r / dm->s) % dm->d, pc = partner(st, dm, c);
            if (pc < 0) continue;
            int peer = r + dm->s * (pc - c);
            if (peer / g == r / g) {
                if (pass) {
                    double t = pf->intra_lat + bytes / pf->intra_bw;
                    if (t > worst) worst = t;
                }
            } else if (!pass) {
                off[r / g]++;
            } else {
                double beta = off[r / g] / pf->nic_bw > 1 / pf->intra_bw ? off[r / g] / pf->nic_bw
                                                                        : 1 / pf->intra_bw;
                double t = pf->inter_lat + bytes * beta;
                if (t > worst) worst = t;
            }
        }
    free(off);
    return worst;
}

/* Reduce-scatter + allgather of n bytes over one dimension with a pattern; adds reduced bytes to
 * *reduced. Returns seconds, or -1 if out of memory. */
static double dim_time(const platform *pf, const dim *dm, int pattern, double n, double *reduced)
{
    double t = 0, x;
    const int d = dm->d, q = coll_pow2_floor(d), r = d - q;
    if (d == 1) return 0;
    if (pattern == COLL_PAT_RING) {
        step st = { STEP_RING, 0, 0 };
        if ((x = step_time(pf, dm, &st, n / d)) < 0) return -1;
        *reduced += n * (d - 1) / d;
        return 2.0 * (d - 1) * x;
    }
    if (r > 0) { /* fold and unfold: n bytes each way between the first 2r ranks */
        step st = { STEP_FOLD, 0, r };
        if ((x = step_time(pf, dm, &st, n)) < 0) return -1;
        t += 2 * x;
        *reduced += n;
    }
    for (int mask = q / 2; mask >= 1; mask /= 2) { /* halving, and its doubling mirror */
        step st = { STEP_HALVE, mask, r };
        if ((x = step_time(pf, dm, &st, n * mask / q)) < 0) return -1;
        t += 2 * x;
    }
    *reduced += n * (q - 1) / q;
    return t;
}

/* Recursive doubling (Open MPI's choice for small messages): lg q exchanges of all n bytes. */
static double rdb_time(const platform *pf, double n, double gamma)
{
    const int p = platform_ranks(pf), q = coll_pow2_floor(p), r = p - q;
    dim dm = { 1, p };
    double t = 0, x;
    if (p == 1) return 0;
    if (r > 0) {
        step st = { STEP_FOLD, 0, r };
        if ((x = step_time(pf, &dm, &st, n)) < 0) return -1;
        t += 2 * x + n * gamma;
    }
    for (int mask = 1; mask < q; mask *= 2) {
        step st = { STEP_HALVE, mask, r };
        if ((x = step_time(pf, &dm, &st, n)) < 0) return -1;
        t += x + n * gamma;
    }
    return t;
}

static int grid_of(const platform *pf, const cost_opts *o, int *dims, int *nd, int *pats, char *err,
                   size_t errlen)
{
    const int p = platform_ranks(pf);
    long prod = 1;
    if (o && o->grid) {
        if (coll_grid_parse(o->grid, dims, nd)) {
            snprintf(err, errlen, "%s", ddl_last_error());
            return 2;
        }
    } else {
        coll_grid_derive(p, pf->gpus_per_node, dims, nd);
    }
    for (int i = 0; i < *nd; i++) prod *= dims[i];
    if (prod != p) {
        snprintf(err, errlen, "--grid: product %ld does not match %d ranks", prod, p);
        return 2;
    }
    if (coll_patterns_parse(o ? o->patterns : NULL, *nd, pats)) {
        snprintf(err, errlen, "%s", ddl_last_error());
        return 2;
    }
    return 0;
}

int model_cost(const platform *pf, const char *algo, double n, const cost_opts *o, double *seconds,
               char *err, size_t errlen)
{
    const int p = platform_ranks(pf);
    const double gamma = o ? o->gamma : 0;
    double t = 0, reduced = 0, x;
    dim flat = { 1, p };
    if (!algo || !(n >= 0)) {
        snprintf(err, errlen, "model: expected an algorithm and bytes >= 0");
        return 2;
    }
    if (!strcmp(algo, "ring") || !strcmp(algo, "rhd")) {
        t = dim_time(pf, &flat, strcmp(algo, "ring") ? COLL_PAT_RHD : COLL_PAT_RING, n, &reduced);
    } else if (!strcmp(algo, "mpi")) {
        t = n < 10000 ? rdb_time(pf, n, gamma) : dim_time(pf, &flat, COLL_PAT_RING, n, &reduced);
    } else if (!strcmp(algo, "ddl")) {
        int dims[DDL_MAX_DIMS], pats[DDL_MAX_DIMS], nd;
        if (grid_of(pf, o, dims, &nd, pats, err, errlen)) return 2;
        double chunk = n;
        int stride = 1;
        for (int i = 0; i < nd && t >= 0; i++) {
            dim dm = { stride, dims[i] };
            x = dim_time(pf, &dm, pats[i], chunk, &reduced);
            t = x < 0 ? -1 : t + x;
            stride *= dims[i];
            chunk /= dims[i];
        }
    } else {
        snprintf(err, errlen, "--algo: expected ring, rhd, ddl or mpi, got \"%.32s\"", algo);
        return 2;
    }
    if (t < 0) {
        snprintf(err, errlen, "model: out of memory");
        return 2;
    }
    *seconds = t + reduced * gamma;
    return 0;
}
