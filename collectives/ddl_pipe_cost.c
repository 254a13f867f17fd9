/* ddl_pipe_cost.c — ddl-pipe's alpha-beta-gamma cost (allreduce_ddl_pipe.c runs it): ddl's levels
 * (coll_cost_dim, cost.c) on chunks; one chunk walks the levels, the rest pass at the busiest resource's
 * rate, and the split of a chunk's time into latencies and transfer that sizes the window. */
#include "coll.h"

static double worse(double a, double b) { return a > b ? a : b; }

/* ddl's dimensions on x bytes: each level's seconds (RS + AG) into t[i], the reduced bytes into *reduced. */
static int levels(const ddl_machine *m, const coll_shape *sh, double x, double *t, double *reduced)
{
    int stride = 1, rc;
    for (int i = 0; i < sh->ndims; i++) {
        if ((rc = coll_cost_dim(m, stride, sh->dims[i], sh->patterns[i], x, &t[i], reduced))) return rc;
        stride *= sh->dims[i];
        x /= sh->dims[i];
    }
    return 0;
}

/* The levels on x bytes, their latencies (the levels on 0 bytes) apart from their transfers. */
int coll_ddl_pipe_split(const ddl_machine *m, const coll_shape *sh, double x, double *lat, double *xfer)
{
    double t[DDL_MAX_DIMS] = { 0 }, t0[DDL_MAX_DIMS] = { 0 }, reduced = 0, r0 = 0, own = 0;
    int rc = levels(m, sh, x, t, &reduced);
    if (rc || (rc = levels(m, sh, 0, t0, &r0))) return rc;
    *xfer = reduced * m->gamma, *lat = 0;
    for (int i = 0; i < sh->ndims; i++) {
        *xfer = worse(*xfer, t[i] - t0[i]);
        *lat += t0[i];
        own += 2 * x * (sh->dims[i] - 1) / sh->dims[i];
        x /= sh->dims[i];
    }
    *xfer = worse(*xfer, own / m->intra_bw);
    return 0;
}

/* The pipeline's busiest resource on x bytes: a level (its steps over all x), a GPU's own link (every
 * level's bytes through it, per direction: a level of d moves 2x(d-1)/d of its share, reduce-scatter and
 * allgather) or the rank's reductions; *walk: the levels one after another (ddl's time on x). */
static int busiest(const ddl_machine *m, const coll_shape *sh, double x, double *worst, double *walk)
{
    double t[DDL_MAX_DIMS] = { 0 }, reduced = 0, own = 0;
    int rc = levels(m, sh, x, t, &reduced);
    *worst = reduced * m->gamma, *walk = reduced * m->gamma;
    for (int i = 0; !rc && i < sh->ndims; i++) {
        *worst = worse(*worst, t[i]);
        *walk += t[i];
        own += 2 * x * (sh->dims[i] - 1) / sh->dims[i];
        x /= sh->dims[i];
    }
    *worst = worse(*worst, own / m->intra_bw);
    return rc;
}

/* K = ceil(n/c) chunks of c (the link segment, as the context sizes it from ddl_config.machine): one
 * chunk walks the levels (fill and drain), the other n - c bytes pass at the busiest resource's rate;
 * K = 1 is ddl's walk. */
int coll_ddl_pipe_cost(const ddl_machine *m, const coll_shape *sh, double bytes, double *seconds)
{
    const double c = (double)coll_link_segment(m, COLL_DEFAULT_SEGMENT);
    double worst, walk, rest, unused;
    int rc;
    int levels_used = 0;
    for (int i = 0; i < sh->ndims; i++) levels_used += sh->dims[i] > 1;
    if (bytes <= c) return busiest(m, sh, bytes, &unused, seconds);
    if (levels_used < 2) { /* one level: COLL_DP_WINDOW chunks at once, their steps' latencies overlapped */
        double lat = 0, xfer = 0;
        if ((rc = coll_ddl_pipe_split(m, sh, bytes, &lat, &xfer))) return rc;
        *seconds = xfer + lat / COLL_DP_WINDOW;
        return 0;
    }
    if ((rc = busiest(m, sh, c, &unused, &walk)) || (rc = busiest(m, sh, bytes - c, &worst, &rest))) return rc;
    *seconds = walk + worst;
    return 0;
}
