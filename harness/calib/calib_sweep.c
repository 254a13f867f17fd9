/* calib_sweep.c — the sweeps of `ddlbench calibrate --network` (calib_net.h):
 *   ping-pong  the pair alone, one-way time = round trip / 2;
 *   exchange   every rank at once with a partner at that level, slowest rank per iteration; across
 *              nodes less the barrier's skew (exchange_inter);
 *   ws         the copy cost by working set (issue 26): the exchange of a W-byte vector in
 *              NET_WS_SEGMENT pieces, two in flight, as libddl's pipeline moves it on one node;
 *              s per byte, W = 64 KiB .. -e (memory-bound once W leaves the caches);
 *   copy       the plain copy's cost by working set: a W-byte memcpy on every rank at once (the
 *              whole-buffer copies of a collective, e.g. Open MPI's of the send vector), slowest
 *              rank per iteration, s per byte;
 *   poll       what a nanosleep of NET_POLL_US (a polling wait's pause) takes beyond it (net_poll_slack);
 *   fault      what fresh pages cost beyond warm memory, per byte (net_fault_cost);
 *   burst      the per-call overhead: NET_BURST 8-byte messages posted at once each way, less one
 *              alone, per message (what each further posted message costs beyond the latency);
 *   whole      the inter exchange sent as one message each way (as MPI's own collectives send it),
 *              NET_WHOLE_BYTES a size (calib_whole.c).
 * Each figure is the median over iterations; then over rounds, robustly (net_sweep).
 * The ping-pong, exchange and ws sweeps send data their sender has just written (fresh: rewritten
 * before each iteration, outside the timed part), as an allreduce sends gradients backward has just
 * written: a receiver that copies the message in (Open MPI's single copy) then pulls modified lines
 * from the sender's core, slower than a buffer both cores already share (measured: docs/BENCHMARKS.md,
 * "Notes moved from code comments") — what the sweeps measured before, and so the simulator's
 * collectives ran that much too fast there. */
#ifndef _DEFAULT_SOURCE
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS (sys/mman.h) beside -D_POSIX_C_SOURCE */
#endif
#include "calib_net.h"
#include "guard.h"
#include "stats.h"
#include "watchdog.h"

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

/* The sender's data rewritten (a different value each iteration: every line modified). */
static void fresh(net_state *s, size_t n, long it) { memset(s->sbuf, (int)(it & 0x7f) + 1, n); }

static long iters_for(const net_state *s, size_t n)
{
    long k = (long)((s->budget ? s->budget : NET_BYTES_PER_SIZE) / n);
    return k < 3 ? 3 : k < s->o->iters ? k : s->o->iters;
}
/* Median one-way seconds of n bytes between ranks a and b (others idle); valid on every rank. */
static double pingpong(net_state *s, int a, int b, size_t n)
{
    long k = iters_for(s, n);
    int me = s->rank == a ? 0 : s->rank == b ? 1 : -1, peer = me == 0 ? b : a;
    double med = 0;
    MPI_Barrier(MPI_COMM_WORLD);
    if (me == 1) fresh(s, n, -1); /* b rewrites its data after each reply, untimed, for the next one */
    for (long it = -1; me >= 0 && it < k; it++) { /* it = -1: warm-up */
        if (me == 0) fresh(s, n, it);
        double t0 = MPI_Wtime();
        if (me == 0) {
            MPI_Send(s->sbuf, (int)n, MPI_BYTE, peer, 7, MPI_COMM_WORLD);
            MPI_Recv(s->rbuf, (int)n, MPI_BYTE, peer, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else {
            MPI_Recv(s->rbuf, (int)n, MPI_BYTE, peer, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Send(s->sbuf, (int)n, MPI_BYTE, peer, 7, MPI_COMM_WORLD);
            fresh(s, n, it + 1);
        }
        if (it >= 0) s->t[it] = (MPI_Wtime() - t0) / 2;
    }
    if (me == 0) med = stats_median(s->t, (size_t)k);
    MPI_Bcast(&med, 1, MPI_DOUBLE, a, MPI_COMM_WORLD);
    return med;
}


/* n bytes each way with partner in pieces of at most `piece`, two in flight each way. */
static void exchange_pieces(char *sb, char *rb, int partner, size_t n, size_t piece)
{
    MPI_Request rq[4] = { MPI_REQUEST_NULL, MPI_REQUEST_NULL, MPI_REQUEST_NULL, MPI_REQUEST_NULL };
    for (size_t off = 0, j = 0; off < n; off += piece, j++) {
        int w = (int)(j % 2) * 2, len = (int)(n - off < piece ? n - off : piece);
        MPI_Waitall(2, &rq[w], MPI_STATUSES_IGNORE);
        MPI_Irecv(rb + off, len, MPI_BYTE, partner, 9, MPI_COMM_WORLD, &rq[w]);
        MPI_Isend(sb + off, len, MPI_BYTE, partner, 9, MPI_COMM_WORLD, &rq[w + 1]);
    }
    MPI_Waitall(4, rq, MPI_STATUSES_IGNORE);
}

/* Median over iterations of the slowest rank's exchange of n bytes with partner (-1: idle); reps of
 * them back to back in each timed iteration (from consecutive freshly written slices), per exchange. */
static double exchange(net_state *s, int level, int partner, size_t n, int reps)
{
    long k = iters_for(s, n);
    for (long it = -1; it < k; it++) {
        if (partner >= 0) fresh(s, n * (size_t)reps, it);
        MPI_Barrier(MPI_COMM_WORLD);
        double t0 = MPI_Wtime();
        for (int r = 0; r < reps && partner >= 0; r++) {
            char *sb = s->sbuf + (size_t)r * n, *rb = s->rbuf + (size_t)r * n;
            if (level == LV_INTER && s->piece && n > s->piece) exchange_pieces(sb, rb, partner, n, s->piece);
            else MPI_Sendrecv(sb, (int)n, MPI_BYTE, partner, 9, rb, (int)n, MPI_BYTE, partner, 9, MPI_COMM_WORLD,
                              MPI_STATUS_IGNORE);
        }
        if (it >= 0) s->t[it] = (MPI_Wtime() - t0) / reps;
    }
    MPI_Allreduce(s->t, s->tmax, (int)k, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    return stats_median(s->tmax, (size_t)k);
}

/* The inter-node exchange without the barrier's skew: an exchange timed alone after a barrier also
 * waits for a partner that left the barrier later (a network hop apart), which a collective's steps,
 * following each other, do not; the simulator would charge it at every step. The skew, measured once
 * (the first time): the smallest exchange alone less the same exchange NET_SKEW_REPS times back to
 * back, per exchange, >= 0 (s->skew); each size's figure is then its own less the skew, at least the
 * back-to-back one. Intra-node it stays in: there it is the wait for a peer's core, which every step
 * of an oversubscribed allreduce pays (taken off, 4 ranks on 2 cores simulated 1 KiB 80% fast). */
static double exchange_inter(net_state *s, int partner, size_t n)
{
    if (s->skew < 0) {
        double alone = exchange(s, LV_INTER, partner, NET_SKEW_BYTES, 1);
        s->floor = exchange(s, LV_INTER, partner, NET_SKEW_BYTES, NET_SKEW_REPS);
        s->skew = alone > s->floor ? alone - s->floor : 0;
        if (s->rank == 0)
            printf("# inter exchange: the barrier's skew %.3g us (%zu B alone %.3g, %d back to back %.3g each), taken "
                   "off every size\n", s->skew * 1e6, NET_SKEW_BYTES, alone * 1e6, NET_SKEW_REPS, s->floor * 1e6);
    }
    double t = exchange(s, LV_INTER, partner, n, 1) - s->skew;
    return t > s->floor ? t : s->floor;
}

/* Median over iterations of the slowest rank's memcpy of n bytes, every rank at once, per byte. */
static double copy(net_state *s, size_t n)
{
    long k = iters_for(s, n);
    for (long it = -1; it < k; it++) {
        MPI_Barrier(MPI_COMM_WORLD);
        double t0 = MPI_Wtime();
        memcpy(s->rbuf, s->sbuf, n);
        if (it >= 0) s->t[it] = MPI_Wtime() - t0;
    }
    MPI_Allreduce(s->t, s->tmax, (int)k, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    return stats_median(s->tmax, (size_t)k) / (double)n;
}

/* What a polling wait's nanosleep of NET_POLL_US takes beyond it: the median over NET_POLL_SLEEPS on
 * every rank at once (the communication threads of a node sleep together), the slowest rank's. */
double net_poll_slack(void)
{
    double t[NET_POLL_SLEEPS], mine, worst;
    struct timespec pause = { 0, 1000L * NET_POLL_US };
    MPI_Barrier(MPI_COMM_WORLD);
    for (int i = 0; i < NET_POLL_SLEEPS; i++) {
        double t0 = MPI_Wtime();
        nanosleep(&pause, NULL);
        t[i] = MPI_Wtime() - t0 - NET_POLL_US * 1e-6;
    }
    mine = stats_median(t, (size_t)NET_POLL_SLEEPS);
    MPI_Allreduce(&mine, &worst, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    return worst > 0 ? worst : 0;
}

/* Seconds to write n bytes into p, a page at a time (what a receive into fresh memory does to it). */
static double touch(char *p, size_t n)
{
    double t0 = MPI_Wtime();
    memset(p, 1, n);
    return MPI_Wtime() - t0;
}

/* Fresh pages beyond warm memory: mmap NET_FAULT_BYTES, write them, munmap (what glibc's malloc and
 * free do with a temporary above its largest mmap threshold), less writing a buffer already mapped
 * and written; every rank at once, ns per byte, the slowest rank's median over NET_FAULT_ROUNDS. */
double net_fault_cost(void)
{
    double t[NET_FAULT_ROUNDS], mine, worst;
    int bad = 0, anybad = 0;
    char *warm = mmap(NULL, NET_FAULT_BYTES, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    bad = warm == MAP_FAILED;
    if (!bad) touch(warm, NET_FAULT_BYTES);
    MPI_Barrier(MPI_COMM_WORLD);
    for (int r = 0; !bad && r < NET_FAULT_ROUNDS; r++) {
        double t0 = MPI_Wtime(), w;
        char *p = mmap(NULL, NET_FAULT_BYTES, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if ((bad = p == MAP_FAILED)) break;
        touch(p, NET_FAULT_BYTES);
        munmap(p, NET_FAULT_BYTES);
        t[r] = MPI_Wtime() - t0;
        w = touch(warm, NET_FAULT_BYTES);
        t[r] = t[r] > w ? (t[r] - w) * 1e9 / (double)NET_FAULT_BYTES : 0;
    }
    if (warm != MAP_FAILED) munmap(warm, NET_FAULT_BYTES);
    MPI_Allreduce(&bad, &anybad, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    mine = anybad ? 0 : stats_median(t, (size_t)NET_FAULT_ROUNDS);
    MPI_Allreduce(&mine, &worst, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    return anybad ? -1 : worst;
}

/* Seconds per message of a burst of NET_BURST 8-byte messages from a to b (Isend / Irecv all, then
 * a 0-byte acknowledgement), less a burst of one: the median over iterations; valid on every rank. */
static double burst(net_state *s, int a, int b)
{
    long k = s->o->iters;
    int me = s->rank == a ? 0 : s->rank == b ? 1 : -1, peer = me == 0 ? b : a;
    MPI_Request rq[NET_BURST];
    double med = 0;
    MPI_Barrier(MPI_COMM_WORLD);
    for (long it = -1; me >= 0 && it < k; it++)
        for (int m = NET_BURST; m >= 1; m -= NET_BURST - 1) { /* the burst, then one message */
            double t0 = MPI_Wtime();
            for (int j = 0; j < m; j++)
                if (me == 0) MPI_Isend(s->sbuf + 8 * j, 8, MPI_BYTE, peer, 11, MPI_COMM_WORLD, &rq[j]);
                else MPI_Irecv(s->rbuf + 8 * j, 8, MPI_BYTE, peer, 11, MPI_COMM_WORLD, &rq[j]);
            MPI_Waitall(m, rq, MPI_STATUSES_IGNORE);
            if (me == 0) MPI_Recv(NULL, 0, MPI_BYTE, peer, 12, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            else MPI_Send(NULL, 0, MPI_BYTE, peer, 12, MPI_COMM_WORLD);
            if (it < 0) continue;
            if (m == NET_BURST) s->t[it] = MPI_Wtime() - t0;
            else s->t[it] = (s->t[it] - (MPI_Wtime() - t0)) / (NET_BURST - 1);
        }
    if (me == 0) med = stats_median(s->t, (size_t)k);
    MPI_Bcast(&med, 1, MPI_DOUBLE, a, MPI_COMM_WORLD);
    return med > 0 ? med : 0;
}

/* One figure of one kind at one size. */
static double measure(net_state *s, int level, int kind, int partner, size_t bytes)
{
    int b = level == LV_INTRA ? 1 : s->rpn;
    if (kind == SW_PINGPONG) return pingpong(s, 0, b, bytes);
    if (kind == SW_BURST) return burst(s, 0, b);
    if (kind == SW_EXCHANGE)
        return level == LV_INTER ? exchange_inter(s, partner, bytes) : exchange(s, level, partner, bytes, 1);
    if (kind == SW_COPY) return copy(s, bytes);
    if (kind == SW_WHOLE) { /* one message each way, fewer bytes a size */
        size_t piece = s->piece;
        s->piece = 0, s->budget = NET_WHOLE_BYTES;
        double t = exchange_inter(s, partner, bytes);
        s->piece = piece, s->budget = 0;
        return t;
    }
    size_t piece = s->piece; /* SW_WS: the vector in the pipeline's pieces, per byte */
    s->piece = NET_WS_SEGMENT;
    double t = exchange(s, LV_INTER, partner, bytes, 1) / (double)bytes; /* LV_INTER: the pieces' path */
    s->piece = piece;
    return t;
}

/* R rounds over all sizes (a burst of load hits a round, not a size), then the sizes whose rounds
 * disagree by more than NET_DISAGREE again, up to R more rounds each (every rank decides alike:
 * the figures are the same on every rank). */
void net_sweep(net_state *s, int level, int kind, const double *n, int count, double *t)
{
    static const char *const lv[] = { "intra", "inter" }, *const kd[] = { "ping-pong", "exchange", "ws-copy",
                                                                          "burst",     "copy",     "whole" };
    const double unit = kind == SW_WS || kind == SW_COPY ? 1e9 : 1e6; /* printed: ns per byte, else us */
    int local = s->rank % s->rpn, node = s->rank / s->rpn, partner = -1, R = (int)s->o->rounds, got[NET_MAX_SIZES];
    double r[2 * NET_MAX_ROUNDS][NET_MAX_SIZES], v[2 * NET_MAX_ROUNDS];
    if (level == LV_INTRA && (local ^ 1) < s->rpn) partner = s->rank ^ 1;
    if (level == LV_INTER && (node ^ 1) < s->nodes) partner = (node ^ 1) * s->rpn + local;
    for (int i = 0; i < count; i++) got[i] = 0;
    for (int k = 0; k < 2 * R; k++)
        for (int i = 0; i < count; i++) {
            char what[WATCHDOG_DESC];
            size_t bytes = (size_t)n[i];
            if (got[i] < k) continue; /* settled in an earlier round */
            if (k >= R) { /* more rounds only while this size's rounds disagree */
                double lo = r[0][i], hi = r[0][i];
                for (int j = 1; j < k; j++) lo = r[j][i] < lo ? r[j][i] : lo, hi = r[j][i] > hi ? r[j][i] : hi;
                if (!(hi > NET_DISAGREE * lo)) continue;
                if (k == R) s->repeated++;
            }
            snprintf(what, sizeof what, "calibrate --network %s %s, %zu bytes (a peer that does not answer?)",
                     lv[level], kd[kind], bytes);
            watchdog_arm(s->o->timeout_s ? (double)s->o->timeout_s + (double)bytes / 10e6 : 0, what);
            guard_fault_point(s->rank, s->step++);
            r[k][i] = measure(s, level, kind, partner, bytes);
            got[i] = k + 1;
            watchdog_disarm();
        }
    for (int i = 0; i < count; i++) {
        int m = got[i];
        for (int k = 0; k < m; k++) v[k] = r[k][i];
        t[i] = m > R ? (stats_sort(v, (size_t)m), v[0]) : stats_median(v, (size_t)m); /* sorted: the fastest round's */
        if (s->rank == 0)
            printf("  %-5s %-9s %10.0f %12.4g %12.4g %12.4g%s\n", lv[level], kd[kind], n[i],
                   t[i] * unit, v[0] * unit, v[m - 1] * unit, m > R ? "  (rounds disagreed: repeated)" : "");
    }
}
