/* cost.c — the alpha-beta-gamma model behind ddl_algo_cost (the machine: ddl.h's ddl_machine).
 *
 * Each algorithm file prices itself (its row's cost) from coll_cost_dim: a reduce-scatter +
 * allgather over one "dimension" of d ranks at stride s, ring or halving-doubling. A step of it is
 * priced by walking every rank's partner in that step: the step's level (inside a node or across),
 * the number of a node's ranks sending off-node at once (they share its NIC), and the slowest
 * message. A flat algorithm is one dimension of stride 1 over all p ranks; ddl runs one per grid
 * dimension. Segment pipelining inside a step is not modelled (one alpha per step).
 *
 * Also here, because both twins of the `mpi` entry (allreduce_mpi.c, allreduce_mpi_sim.c) use it:
 * coll_mpi_cost, an assumption — Open MPI 4.1's coll/tuned fixed decision for allreduce
 * (ompi_decision.c, docs/SOURCES.md §7): recursive doubling (lg q steps of all n bytes, + the fold;
 * also the price of reduce + bcast, which 4.1 takes below 128 KB at 128+ ranks), the ring (and the
 * segmented ring), or Rabenseifner priced as rhd nearest-first (Open MPI's order). tests/test_cost.c
 * checks the numbers by hand, tests/sim_model.sh against SimGrid; the formulas: docs/SOURCES.md §5. */
#include "coll.h"
#include "partition.h"

#include <math.h>
#include <stdlib.h>

typedef struct step {
    int kind;      /* STEP_* */
    int arg;       /* mask (halving / doubling) */
    int r;         /* fold: extra ranks of the dimension (d - 2^k) */
} step;

enum { STEP_RING, STEP_FOLD, STEP_HALVE };

/* Partner coordinate of coordinate c in a dimension of d for this step, or -1 if c sends nothing. */
static int partner(const step *st, int d, int c)
{
    int v;
    switch (st->kind) {
    case STEP_RING: return (c + 1) % d;
    case STEP_FOLD: return (c < 2 * st->r && c % 2 == 0) ? c + 1 : -1;
    default:
        v = coll_fold_vrank(c, st->r);
        return v < 0 ? -1 : coll_fold_real(v ^ st->arg, st->r);
    }
}

/* Seconds of one step in which every sending rank sends `bytes` to its partner. */
static int step_time(const ddl_machine *m, int s, int d, const step *st, double bytes, double *seconds)
{
    const int p = m->ranks, g = m->ranks_per_node;
    int *off = calloc((size_t)(p / g), sizeof *off); /* per node: ranks sending off-node */
    double worst = 0;
    if (!off) return coll_fail(DDL_ERR_NOMEM, "cost model: out of memory");
    for (int pass = 0; pass < 2; pass++)
        for (int r = 0; r < p; r++) {
            int c = (r / s) % d, pc = partner(st, d, c);
            if (pc < 0) continue;
            int peer = r + s * (pc - c);
            if (peer / g == r / g) {
                if (pass) {
                    double t = m->intra_lat + bytes / m->intra_bw;
                    if (t > worst) worst = t;
                }
            } else if (!pass) {
                off[r / g]++;
            } else {
                double beta = off[r / g] / m->nic_bw > 1 / m->intra_bw ? off[r / g] / m->nic_bw : 1 / m->intra_bw;
                double t = m->inter_lat + bytes * beta;
                if (t > worst) worst = t;
            }
        }
    free(off);
    *seconds = worst;
    return 0;
}

int coll_cost_dim(const ddl_machine *m, int s, int d, int pattern, double n, double *seconds, double *reduced)
{
    const int q = coll_pow2_floor(d), r = d - q;
    double x;
    int rc;
    *seconds = 0;
    if (d == 1) return 0;
    if (pattern == COLL_PAT_RING) { /* 2(d-1) steps of n/d */
        step st = { STEP_RING, 0, 0 };
        if ((rc = step_time(m, s, d, &st, n / d, &x))) return rc;
        *reduced += n * (d - 1) / d;
        *seconds = 2.0 * (d - 1) * x;
        return 0;
    }
    if (r > 0) { /* fold and unfold: n bytes each way between the first 2r ranks */
        step st = { STEP_FOLD, 0, r };
        if ((rc = step_time(m, s, d, &st, n, &x))) return rc;
        *seconds += 2 * x;
        *reduced += n;
    }
    for (int j = 0; (1 << j) < q; j++) { /* halving step j (n / 2^(j+1) bytes), its doubling mirror */
        step st = { STEP_HALVE, coll_rhd_mask(q, j, pattern == COLL_PAT_RHD_NEAR), r };
        if ((rc = step_time(m, s, d, &st, n / (2 << j), &x))) return rc;
        *seconds += 2 * x;
    }
    *reduced += n * (q - 1) / q;
    return 0;
}

/* Recursive doubling over all p ranks: lg q exchanges of all n bytes, each reduced (+ the fold). */
static int rdb_time(const ddl_machine *m, double n, double *seconds)
{
    const int p = m->ranks, q = coll_pow2_floor(p), r = p - q;
    double t = 0, x;
    int rc;
    if (r > 0) {
        step st = { STEP_FOLD, 0, r };
        if ((rc = step_time(m, 1, p, &st, n, &x))) return rc;
        t += 2 * x + n * m->gamma;
    }
    for (int mask = 1; mask < q; mask *= 2) {
        step st = { STEP_HALVE, mask, r };
        if ((rc = step_time(m, 1, p, &st, n, &x))) return rc;
        t += x + n * m->gamma;
    }
    *seconds = t;
    return 0;
}

int coll_mpi_cost(const ddl_machine *m, const coll_shape *sh, double bytes, double *seconds)
{
    double reduced = 0;
    int rc, alg = coll_ompi_allreduce_pick(m->ranks, bytes);
    (void)sh;
    if (alg == COLL_OMPI_RDB || alg == COLL_OMPI_NONOVERLAP) return rdb_time(m, bytes, seconds);
    if ((rc = coll_cost_dim(m, 1, m->ranks, alg == COLL_OMPI_RSAG ? COLL_PAT_RHD_NEAR : COLL_PAT_RING, bytes, seconds,
                            &reduced)))
        return rc;
    *seconds += reduced * m->gamma;
    return 0;
}

int coll_machine_check(const ddl_machine *m, double bytes)
{
    if (!m) return coll_fail(DDL_ERR_ARG, "machine: NULL");
    if (m->ranks < 1 || m->ranks_per_node < 1 || m->ranks % m->ranks_per_node)
        return coll_fail(DDL_ERR_ARG, "machine: expected ranks_per_node dividing ranks >= 1, got %d and %d",
                         m->ranks_per_node, m->ranks);
    if (!(m->intra_bw > 0 && m->nic_bw > 0 && m->intra_lat >= 0 && m->inter_lat >= 0 && m->gamma >= 0) ||
        isinf(m->intra_lat) || isinf(m->inter_lat) || isinf(m->gamma))
        return coll_fail(DDL_ERR_ARG, "machine: expected bandwidths > 0, finite latencies and gamma >= 0");
    if (!(bytes >= 0) || isinf(bytes)) return coll_fail(DDL_ERR_ARG, "cost: expected bytes >= 0, got %g", bytes);
    return 0;
}

/* The grid and patterns of an algorithm with DDL_ALGO_GRID, as its setup would resolve them. */
static int shape_of(const ddl_machine *m, const char *grid, const char *patterns, coll_shape *sh)
{
    long prod = 1;
    int rc;
    if (grid && *grid) {
        if ((rc = coll_grid_parse(grid, sh->dims, &sh->ndims))) return rc;
    } else {
        coll_grid_derive(m->ranks, m->ranks_per_node, sh->dims, &sh->ndims);
    }
    for (int i = 0; i < sh->ndims; i++) prod *= sh->dims[i];
    if (prod != m->ranks)
        return coll_fail(DDL_ERR_GRID, "grid: product %ld does not match %d ranks", prod, m->ranks);
    return coll_patterns_parse(patterns, sh->ndims, sh->patterns);
}

int ddl_algo_cost(const char *algo, const char *grid, const char *patterns, const ddl_machine *m, double bytes,
                  double *seconds)
{
    const coll_algo *a = coll_algo_get(coll_algo_find(algo ? algo : ""));
    coll_shape sh = { 0, { 0 }, { 0 } };
    int rc;
    if (!seconds) return coll_fail(DDL_ERR_ARG, "ddl_algo_cost: seconds is NULL");
    if (!a) return coll_fail(DDL_ERR_ALGO, "unknown algorithm \"%.64s\"", algo ? algo : "");
    if (!a->cost) return coll_fail(DDL_ERR_ALGO, "%s: no cost model (not in the alpha-beta-gamma model)", a->name);
    if ((rc = coll_machine_check(m, bytes))) return rc;
    if ((a->flags & DDL_ALGO_GRID) && (rc = shape_of(m, grid, patterns, &sh))) return rc;
    return a->cost(m, &sh, bytes, seconds);
}

double ddl_machine_cost(void *machine, const char *algo, const char *grid, const char *patterns, size_t bytes)
{
    double t;
    return ddl_algo_cost(algo, grid, patterns, machine, (double)bytes, &t) ? -1.0 : t;
}
