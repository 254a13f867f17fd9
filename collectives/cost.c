/* cost.c — the alpha-beta-gamma model behind ddl_algo_cost (the machine: ddl.h's ddl_machine).
 *
 * Each algorithm file prices itself (its row's cost) from coll_cost_dim: a reduce-scatter +
 * allgather over one "dimension" of d ranks at stride s, ring or halving-doubling. A step of it is
 * priced by walking every rank's partner in that step twice: first counting the messages on each
 * shared link they cross (a socket link, the sender's and the receiver's rail NIC, a leaf's uplink
 * to the spine), then pricing each at its level's latency and its most loaded link's share; the
 * step lasts as long as its slowest message. A flat algorithm is one dimension of stride 1 over all p ranks; ddl runs
 * one per grid
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

static double worse(double a, double b) { return a > b ? a : b; }

/* Where a rank sits on the machine: its node, socket half, rail NIC (node-major index) and leaf. */
typedef struct place { int node, half, nic, leaf; } place;

static int nics_of(const ddl_machine *m) { return m->nics > 1 ? m->nics : 1; }

static place place_of(const ddl_machine *m, int r)
{
    const int g = m->ranks_per_node, l = r % g, R = nics_of(m), rail = l / (g / R);
    place pl = { r / g, m->sockets == 2 ? l / (g / 2) : 0, (r / g) * R + rail, 0 };
    if (m->leaf_nodes > 0) pl.leaf = m->rail_leaves ? (pl.node / m->leaf_nodes) * R + rail : pl.node / m->leaf_nodes;
    return pl;
}

/* Step loads: messages per direction on each socket link (node x 2), NIC (up, down), leaf uplink,
 * and direct link (node x g x g, directed). */
typedef struct loads { int *sock, *nic_up, *nic_down, *leaf_up, *leaf_down, *pair; } loads;

static int loads_alloc(const ddl_machine *m, loads *ld)
{
    const int g = m->ranks_per_node, nodes = m->ranks / g, nn = nodes * nics_of(m);
    const size_t pairs = m->nvlinks ? (size_t)nodes * g * g : 0;
    int *all = calloc((size_t)(2 * nodes + 4 * nn) + pairs, sizeof *all); /* leaves <= NICs */
    if (!all) return coll_fail(DDL_ERR_NOMEM, "cost model: out of memory");
    ld->sock = all, ld->nic_up = all + 2 * nodes, ld->nic_down = ld->nic_up + nn;
    ld->leaf_up = ld->nic_down + nn, ld->leaf_down = ld->leaf_up + nn, ld->pair = ld->leaf_down + nn;
    return 0;
}

/* A message inside a node over direct links (m->nvlinks): its pair's links, or the host. */
static double linked(const ddl_machine *m, const loads *ld, int pass, int a, int b, double bytes)
{
    const int g = m->ranks_per_node, la = a % g, lb = b % g, k = m->nvlinks[la * g + lb];
    int *n = &ld->pair[(size_t)(a / g) * g * g + (size_t)la * g + lb];
    if (!pass) return ++*n, 0; /* the pair's links, or its path through the host: shared by its messages */
    if (!k) return m->host_lat + bytes * worse(1 / m->intra_bw, *n / m->host_bw);
    return m->intra_lat + bytes * worse(1 / m->intra_bw, *n / (k * m->nvlink_bw));
}

/* The message from a to b: pass 0 counts it on the links it crosses, pass 1 returns its seconds. */
static double message(const ddl_machine *m, const loads *ld, int pass, int ra, int rb, double bytes)
{
    const place a = place_of(m, ra), b = place_of(m, rb);
    const double nic = m->nic_bw / nics_of(m), oversub = m->oversub > 1 ? m->oversub : 1;
    const int spine = m->leaf_nodes > 0 && a.leaf != b.leaf;
    if (a.node == b.node) {
        if (m->nvlinks) return linked(m, ld, pass, ra, rb, bytes);
        if (a.half == b.half) return pass ? m->intra_lat + bytes / m->intra_bw : 0;
        if (!pass) return ld->sock[2 * a.node + a.half]++, 0;
        return (m->socket_lat > 0 ? m->socket_lat : m->intra_lat) +
               bytes * worse(1 / m->intra_bw, ld->sock[2 * a.node + a.half] / m->socket_bw);
    }
    if (!pass) {
        ld->nic_up[a.nic]++, ld->nic_down[b.nic]++;
        if (spine) ld->leaf_up[a.leaf]++, ld->leaf_down[b.leaf]++;
        return 0;
    }
    double beta = worse(1 / m->intra_bw, worse(ld->nic_up[a.nic], ld->nic_down[b.nic]) / nic);
    if (spine) { /* a leaf's uplink: its nodes' NICs (of its rail) / oversub */
        double up = m->leaf_nodes * (m->rail_leaves ? nic : m->nic_bw) / oversub;
        beta = worse(beta, worse(ld->leaf_up[a.leaf], ld->leaf_down[b.leaf]) / up);
    }
    return (spine && m->spine_lat > 0 ? m->spine_lat : m->inter_lat) + bytes * beta;
}

/* Seconds of one step in which every sending rank sends `bytes` to its partner. */
static int step_time(const ddl_machine *m, int s, int d, const step *st, double bytes, double *seconds)
{
    loads ld = { 0 };
    double worst = 0;
    int rc = loads_alloc(m, &ld);
    if (rc) return rc;
    for (int pass = 0; pass < 2; pass++)
        for (int r = 0; r < m->ranks; r++) {
            int c = (r / s) % d, pc = partner(st, d, c);
            if (pc < 0) continue;
            worst = worse(worst, message(m, &ld, pass, r, r + s * (pc - c), bytes));
        }
    free(ld.sock);
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

int coll_mpi_sharp(const ddl_machine *m) { return m && m->sharp_bw > 0 && m->ranks > m->ranks_per_node; }

int coll_nvls_cost(const ddl_machine *m, const coll_shape *sh, double bytes, double *seconds);

/* Open MPI's pick's time (below), or with SHARP the cheaper of it and nvls's (allreduce_mpi_sim.c's header). */
static int ompi_cost(const ddl_machine *m, double bytes, double *seconds);

int coll_mpi_cost(const ddl_machine *m, const coll_shape *sh, double bytes, double *seconds)
{
    double t_sharp;
    int rc = ompi_cost(m, bytes, seconds);
    if (rc || !coll_mpi_sharp(m) || (rc = coll_nvls_cost(m, sh, bytes, &t_sharp))) return rc;
    if (t_sharp < *seconds) *seconds = t_sharp;
    return 0;
}

int coll_mpi_uses_sharp(const ddl_machine *m, double bytes)
{
    double t_ompi, t_sharp;
    return coll_mpi_sharp(m) && !ompi_cost(m, bytes, &t_ompi) && !coll_nvls_cost(m, NULL, bytes, &t_sharp) &&
           t_sharp < t_ompi;
}

static int ompi_cost(const ddl_machine *m, double bytes, double *seconds)
{
    double reduced = 0;
    int rc, alg = coll_ompi_allreduce_pick(m->ranks, bytes);
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
    if ((m->sockets != 0 && m->sockets != 1 && m->sockets != 2) || (m->sockets == 2 && m->ranks_per_node % 2) ||
        (m->sockets == 2 && !(m->socket_bw > 0)))
        return coll_fail(DDL_ERR_ARG, "machine: expected sockets 0, 1 or 2 (2: an even ranks_per_node, socket_bw > 0)");
    if (m->nics < 0 || (m->nics > 1 && m->ranks_per_node % m->nics))
        return coll_fail(DDL_ERR_ARG, "machine: expected nics dividing ranks_per_node %d, got %d", m->ranks_per_node,
                         m->nics);
    if (m->leaf_nodes < 0 || (m->rail_leaves && m->leaf_nodes < 1) || !(m->oversub == 0 || m->oversub >= 1) ||
        isinf(m->oversub) || !(m->socket_lat >= 0 && m->spine_lat >= 0) || isinf(m->socket_lat) || isinf(m->spine_lat))
        return coll_fail(DDL_ERR_ARG, "machine: expected leaf_nodes >= 0 (>= 1 with rail_leaves), oversub 0 or >= 1 "
                                      "and finite latencies >= 0");
    if (m->nvlinks && (m->sockets == 2 || !(m->nvlink_bw > 0 && m->host_bw > 0 && m->host_lat >= 0) ||
                       isinf(m->host_lat)))
        return coll_fail(DDL_ERR_ARG,
                         "machine: nvlinks: expected nvlink_bw and host_bw > 0, host_lat >= 0, one socket");
    if (!(m->nvls_bw >= 0 && m->sharp_bw >= 0) || isinf(m->nvls_bw) || isinf(m->sharp_bw))
        return coll_fail(DDL_ERR_ARG, "machine: expected nvls_bw and sharp_bw >= 0 (0: no reducing switch), finite");
    if (!(bytes >= 0) || isinf(bytes)) return coll_fail(DDL_ERR_ARG, "cost: expected bytes >= 0, got %g", bytes);
    return 0;
}

/* The grid and patterns of an algorithm with DDL_ALGO_GRID, as its setup would resolve them. */
static int shape_of(const coll_algo *a, const ddl_machine *m, const char *grid, const char *patterns,
                    coll_shape *sh)
{
    const int own = !(grid && *grid) && a->derive; /* the row's own grid and, unless given, patterns */
    long prod = 1;
    int rc;
    if (grid && *grid) {
        if ((rc = coll_grid_parse(grid, sh->dims, &sh->ndims))) return rc;
    } else if (own) {
        a->derive(m->ranks, m->ranks_per_node, sh);
    } else {
        coll_grid_derive(m->ranks, m->ranks_per_node, sh->dims, &sh->ndims);
    }
    for (int i = 0; i < sh->ndims; i++) prod *= sh->dims[i];
    if (prod != m->ranks)
        return coll_fail(DDL_ERR_GRID, "grid: product %ld does not match %d ranks", prod, m->ranks);
    return own && !(patterns && *patterns) ? 0 : coll_patterns_parse(patterns, sh->ndims, sh->patterns);
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
    if ((a->flags & DDL_ALGO_GRID) && (rc = shape_of(a, m, grid, patterns, &sh))) return rc;
    return a->cost(m, &sh, bytes, seconds);
}

double ddl_machine_cost(void *machine, const char *algo, const char *grid, const char *patterns, size_t bytes)
{
    double t;
    return ddl_algo_cost(algo, grid, patterns, machine, (double)bytes, &t) ? -1.0 : t;
}

/* One step of several concurrent flows (nccl-ring's channels): n messages of `bytes` each, message i
 * from rank src[i] to rank dst[i], all at once. Each is priced as coll_cost_dim's steps price theirs
 * (the shared links it crosses, counted over all n), and also by its ranks' own links: a rank that
 * sends k messages at once (or receives k) gives each 1/k of its link (intra_bw), as the simulated
 * GPU's private link does. With one message per rank, as in every other step, that term is the 1/intra_bw
 * message() already takes. Seconds of the slowest message; 0 or DDL_ERR_NOMEM. */
int coll_cost_flows(const ddl_machine *m, int n, const int *src, const int *dst, double bytes, double *seconds)
{
    loads ld = { 0 };
    int *out = calloc(2 * (size_t)m->ranks, sizeof *out), *in = out + m->ranks, rc = out ? loads_alloc(m, &ld) : 0;
    double worst = 0;
    if (!out || rc) {
        free(out);
        return rc ? rc : coll_fail(DDL_ERR_NOMEM, "cost model: out of memory");
    }
    for (int i = 0; i < n; i++) out[src[i]]++, in[dst[i]]++, message(m, &ld, 0, src[i], dst[i], bytes);
    for (int i = 0; i < n; i++) {
        double k = worse(out[src[i]], in[dst[i]]);
        double own = message(m, &ld, 1, src[i], dst[i], 0) + bytes * k / m->intra_bw;
        worst = worse(worst, worse(message(m, &ld, 1, src[i], dst[i], bytes), own));
    }
    free(ld.sock);
    free(out);
    *seconds = worst;
    return 0;
}
