/* nccl_ring_cost.c — nccl-ring's alpha-beta-gamma cost (allreduce_nccl_ring.c runs it): the channels'
 * rings (channels.c's orders) followed through their actual schedule, step by step, channel by channel.
 *
 * The schedule (allreduce_nccl_ring.c's nr_loop): every channel runs its 2(p-1) ring steps on its own
 * (no barrier between channels); a step is one message each way of b = n/(C·p) bytes (its pieces, where
 * the link segment or exchange.c's split cuts it, priced as one message); a reduce-scatter step's
 * block is reduced by the rank as it lands, one channel's block after another (one rank, one CPU), and
 * the channel's next step starts then; an allgather step's block lands in place and the next starts at once.
 * So the channels drift apart: the rank's serial reductions stagger them, and a channel paying its next
 * latency leaves the shared link to the others. Priced as a fluid queue on the representative rank
 * (every rank runs the same schedule):
 *   a  = the step's worst latency (cost.c's flows at 0 bytes);
 *   w1 = one channel's step alone on the links, less a (its worst message, every other channel idle);
 *   L  = all C channels' step at once, less a (cost.c's coll_cost_flows: shared links, rails, the rank's
 *        own link carrying C messages): with k channels transferring, each moves at 1/max(w1, k·L/C) of
 *        its block a second (equal shares of the busiest link, as SimGrid's max-min sharing gives flows
 *        of equal latency, never faster than alone);
 *   δ  = b·γ, the rank's reduction of one channel's block, in MPI_Waitany's order: whatever sends have
 *        completed (free), then the lowest channel's landed receive.
 * A channel's step: a (latency), then its share of the transfer, then (reduce-scatter) its turn at the
 * rank's reduction; above the eager limit its send completes with the transfer and is handled too (the
 * receiver has posted its receive a step ahead, so the transfer starts when the sender posts). With the
 * channels in step (γ = 0 and all starting at 0) this is 2(p-1)·(a + L), the channels-in-lockstep price;
 * staggered, a channel's latency hides under the others' transfers, down to the link's 2(p-1)·L.
 * One channel (C = 1): 2(p-1)·(a + w1) + (p-1)·δ, the ring's model.
 * On DGX H100 (8 rails of 48 GB/s, C = 8) a step moves n/(8p) over each rail: busbw reaches 8 x 48
 * GB/s, against the hierarchical per-node NIC bound 8·48·N/(N-1)·(p-1)/p (N nodes): a ring crosses every
 * node boundary 2(p-1) times, a hierarchical algorithm 2(N-1) (docs/BENCHMARKS.md). */
#include "coll.h"

#include <stdlib.h>

static double worse(double a, double b) { return a > b ? a : b; }

/* SMPI's eager limit (smpi/send-is-detached-thresh, default 65536 bytes: docs/SOURCES.md): a smaller send
 * completes when posted, a larger one with its transfer, and is then one more completion the rank handles. */
#define NRC_EAGER 65536.0

/* A channel's state in the fluid queue. */
typedef struct nrc_chan {
    int step;      /* its current step, 0..steps; done at steps */
    int phase;     /* NRC_LAT (until `until`), NRC_XFER (`left` of its block to move), NRC_WAIT, NRC_DONE */
    int need;      /* NRC_WAIT: completions the rank has still to handle (1: the receive, 2: the send) */
    double until;  /* NRC_LAT: when its latency ends */
    double left;   /* NRC_XFER: fraction of the block still to move */
} nrc_chan;

enum { NRC_LAT, NRC_XFER, NRC_WAIT, NRC_DONE };

/* The schedule's constants (above) and the rank's one server (its reductions). */
typedef struct nrc_run {
    int C, steps, rs, rdv;          /* channels, steps, reducing steps (the first rs), sends complete late */
    double a, w1, L, delta;         /* as in the header */
    int serving;                    /* the channel whose receive the rank reduces, -1: idle */
    double busy;                    /* when that reduction ends */
} nrc_run;

static void nrc_handled(const nrc_run *r, nrc_chan *x, int what, double now)
{
    x->need &= ~what;
    if (x->need) return;
    x->step++, x->phase = x->step == r->steps ? NRC_DONE : NRC_LAT, x->until = now + r->a, x->left = 1;
}

/* The idle rank takes the landed completions as MPI_Waitany returns them, the lowest request first:
 * every channel's sends (they cost nothing), then channel 0's receive, channel 1's, ..: a receive costs
 * a reduction in reduce-scatter steps (the rank busy until it ends). */
static void nrc_serve(nrc_run *r, nrc_chan *ch, double now)
{
    while (r->serving < 0) {
        int best = -1;
        for (int c = 0; c < r->C; c++)
            if (ch[c].phase == NRC_WAIT && (ch[c].need & 2)) nrc_handled(r, &ch[c], 2, now);
        for (int c = 0; c < r->C && best < 0; c++)
            if (ch[c].phase == NRC_WAIT && (ch[c].need & 1)) best = c;
        if (best < 0) return;
        if (ch[best].step < r->rs && r->delta > 0) r->serving = best, r->busy = now + r->delta;
        else nrc_handled(r, &ch[best], 1, now);
    }
}

/* Seconds until every channel is through its steps. Every event ends a phase of at least one channel or
 * the rank's reduction, so the loop ends. */
static double nrc_queue(nrc_run *r, nrc_chan *ch)
{
    double now = 0;
    for (int c = 0; c < r->C; c++) ch[c] = (nrc_chan){ 0, NRC_LAT, 0, r->a, 1 };
    r->serving = -1;
    for (;;) {
        int k = 0, done = 0;
        for (int c = 0; c < r->C; c++) k += ch[c].phase == NRC_XFER, done += ch[c].phase == NRC_DONE;
        if (done == r->C) return now;
        const double per = worse(r->w1, k * r->L / r->C); /* seconds a block takes at this share */
        double next = r->serving >= 0 ? r->busy : -1;
        for (int c = 0; c < r->C; c++) {
            const int ph = ch[c].phase;
            const double t = ph == NRC_XFER ? now + ch[c].left * per : ph == NRC_LAT ? ch[c].until : -1;
            if (t >= 0 && (next < 0 || t < next)) next = t;
        }
        for (int c = 0; c < r->C; c++) {
            nrc_chan *x = &ch[c];
            if (x->phase != NRC_XFER || (x->left = per > 0 ? x->left - (next - now) / per : 0) > 1e-9) continue;
            x->phase = NRC_WAIT, x->need = 1 | (r->rdv ? 2 : 0); /* landed, and (rendezvous) sent */
        }
        now = next;
        for (int c = 0; c < r->C; c++)
            if (ch[c].phase == NRC_LAT && ch[c].until <= now) ch[c].phase = NRC_XFER, ch[c].left = 1;
        if (r->serving >= 0 && r->busy <= now) {
            nrc_chan *x = &ch[r->serving];
            r->serving = -1;
            nrc_handled(r, x, 1, now);
        }
        nrc_serve(r, ch, now);
    }
}

/* Channel c's ring (or every channel's, c < 0) as message lists. */
static int nrc_ring(const ddl_machine *m, int C, int c, int *src, int *dst, int *o)
{
    const int p = m->ranks, first = c < 0 ? 0 : c, last = c < 0 ? C : c + 1;
    int n = 0;
    for (int k = first; k < last; k++) {
        coll_channel_order(p, m->ranks_per_node, k, o);
        for (int v = 0; v < p; v++, n++) src[n] = o[v], dst[n] = o[(v + 1) % p];
    }
    return n;
}

/* a, w1 and L of one step of b bytes a message (cost.c's flows). */
static int nrc_terms(const ddl_machine *m, int C, double b, int *src, int *dst, int *o, double *a, double *w1,
                     double *L)
{
    double x = 0, a1 = 0, x1 = 0, one = 0;
    int n = nrc_ring(m, C, -1, src, dst, o), rc;
    if ((rc = coll_cost_flows(m, n, src, dst, 0, a)) || (rc = coll_cost_flows(m, n, src, dst, b, &x))) return rc;
    *w1 = 0;
    for (int c = 0; c < C; c++) { /* the slowest channel alone */
        n = nrc_ring(m, C, c, src, dst, o);
        if ((rc = coll_cost_flows(m, n, src, dst, 0, &a1)) || (rc = coll_cost_flows(m, n, src, dst, b, &x1))) return rc;
        one = worse(one, x1 - a1);
    }
    *L = x - *a, *w1 = one;
    return 0;
}

int coll_nccl_ring_cost(const ddl_machine *m, const coll_shape *sh, double bytes, double *seconds)
{
    const int p = m->ranks, C = coll_channels_default(p, m->ranks_per_node, m->nics);
    const double b = bytes / ((double)C * p);
    double a = 0, w1 = 0, L = 0;
    int *src, rc;
    nrc_chan *ch;
    (void)sh;
    *seconds = 0;
    if (p == 1) return 0;
    src = malloc(3 * (size_t)C * (size_t)p * sizeof *src);
    ch = malloc((size_t)C * sizeof *ch);
    if (!src || !ch) {
        free(src), free(ch);
        return coll_fail(DDL_ERR_NOMEM, "cost model: out of memory");
    }
    rc = nrc_terms(m, C, b, src, src + (size_t)C * p, src + 2 * (size_t)C * p, &a, &w1, &L);
    if (!rc) {
        nrc_run r = { C, 2 * (p - 1), p - 1, b >= NRC_EAGER, a, w1, L, b * m->gamma, -1, 0 };
        *seconds = nrc_queue(&r, ch);
    }
    free(src);
    free(ch);
    return rc;
}
