/* calib_copy.c — the copy costs of `ddlbench calibrate --network` (issue 26; >= 2 ranks a node):
 * the exchange's cost by working set (ws_copy_ns: the ws sweep, checked against the exchange sweep),
 * the plain copy's (copy_ns: the copy sweep) and the per-call overhead (call_overhead: the burst sweep),
 * into the platform fit. The sweeps themselves: calib_sweep.c. */
#include "calib_net.h"
#include "platform_file.h"
#include "sim.h"

#include <math.h>
#include <stdio.h>

/* The working-set sweep against the exchange sweep where both measure the same thing (a vector of one
 * piece is one message each way): the ratio furthest from 1 (> 1: the working-set sweep slower). */
static double ws_offset(const double *w, const double *tw, int nw, const double *n, const double *tx, int count)
{
    double worst = 1;
    for (int i = 0; i < nw && w[i] <= NET_WS_SEGMENT; i++)
        for (int j = 0; j < count; j++)
            if (n[j] == w[i] && tx[j] > 0 && tw[i] > 0) {
                double r = tw[i] * w[i] / tx[j];
                if (fabs(log(r)) > fabs(log(worst))) worst = r;
            }
    return worst;
}

/* A figure above both its neighbours by more than NET_DISAGREE: a burst of load, the larger
 * neighbour kept (said in one line). */
static void despike(const net_state *s, const char *what, const double *w, double *tw, int nw)
{
    for (int i = 1; i + 1 < nw; i++) {
        double hi = tw[i - 1] > tw[i + 1] ? tw[i - 1] : tw[i + 1];
        if (tw[i] > NET_DISAGREE * hi) {
            if (s->rank == 0)
                printf("# %s at %.0f B: %.4g ns/B, above both neighbours by > %.3gx: %.4g kept\n", what, w[i],
                       tw[i] * 1e9, NET_DISAGREE, hi * 1e9);
            tw[i] = hi;
        }
    }
}

/* "SIZE:NS;..." with SIZE = k x the sweep's vector w. The simulator looks both tables up at the bytes
 * a call touches (out of place: its two vectors, 2V). The copy table is keyed by what its memcpy
 * touches (k = 2: source and destination), so a copy of V is priced at the memcpy of V. The exchange
 * table stays keyed by its vector (k = 1): an out-of-place allreduce of V is priced at the exchange of
 * 2V, nearer the 1.5V each way a rank moves at 4 ranks than the exchange of V; keyed by 2W it was
 * measured worse at 1 MiB (docs/BENCHMARKS.md, "Notes moved from code comments"). */
static void table_put(char *dst, size_t len, double k, const double *w, const double *tw, int nw)
{
    int used = 0;
    dst[0] = 0;
    for (int i = 0; i < nw; i++)
        used += snprintf(dst + used, len - (size_t)used, "%s%.0f:%.4g", i ? ";" : "", k * w[i], tw[i] * 1e9);
}

/* The copy cost by working set (64 KiB..NET_WS_MAX) and the per-call overhead into fit (intra level:
 * >= 2 ranks a node). Where both measure one message, a working-set sweep slower than the exchange
 * sweep (tx over n) by NET_DISAGREE saw a loaded machine: measured again, up to NET_WS_TRIES times,
 * else left out (no copy cost) with one line; a slower exchange sweep is said in one line (load
 * only adds time: the faster is the truer). */
void net_copy_costs(net_state *s, const double *n, int count, const double *tx, struct platform_fit *fit)
{
    double w[NET_MAX_SIZES], tw[NET_MAX_SIZES], tc[NET_MAX_SIZES], o, one = 8, off = 1;
    int nw = 0;
    if (s->rpn < 2) return;
    for (size_t b = NET_WS_MIN; b <= NET_WS_MAX && nw < KERN_SIM_WS_POINTS; b *= 4) w[nw++] = (double)b;
    if (s->rank == 0) printf("# intra ws-copy: ns per byte of a vector exchanged in %zu KiB pieces (ns/B, not us)\n",
                             NET_WS_SEGMENT >> 10);
    for (int k = 0; k < NET_WS_TRIES; k++) {
        net_sweep(s, LV_INTRA, SW_WS, w, nw, tw);
        if ((off = ws_offset(w, tw, nw, n, tx, count)) <= NET_DISAGREE) break;
        if (s->rank == 0)
            printf("# ws-copy: %.3gx slower than the exchange sweep where both are one message: again\n", off);
    }
    if (off < 1 / NET_DISAGREE && s->rank == 0)
        fprintf(stderr,
                "ddlbench calibrate: the exchange sweep ran %.3gx slower than the working-set sweep where both are one "
                "message: its figures are suspect (load)\n",
                1 / off);
    if (off > NET_DISAGREE) {
        if (s->rank == 0)
            fprintf(stderr,
                    "ddlbench calibrate: the working-set sweep stayed %.3gx off the exchange sweep (the load changed): "
                    "no ws_copy_ns written\n",
                    off);
        nw = 0;
    }
    despike(s, "ws-copy", w, tw, nw);
    table_put(fit->ws_copy, sizeof fit->ws_copy, 1, w, tw, nw);
    if (nw) { /* the plain copy's, on the same sizes (kern_copy charges it) */
        net_sweep(s, LV_INTRA, SW_COPY, w, nw, tc);
        despike(s, "copy", w, tc, nw);
        table_put(fit->copy, sizeof fit->copy, 2, w, tc, nw);
    }
    net_sweep(s, LV_INTRA, SW_BURST, &one, 1, &o);
    fit->call_overhead = o;
    if (s->rank == 0)
        printf("# copy cost by working set: exchange %s, copy %s ns/B; per-call overhead %.3g us\n",
               nw ? fit->ws_copy : "none", nw ? fit->copy : "none", o * 1e6);
}
