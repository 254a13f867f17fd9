/* calib_fit.c — from the sweeps of `ddlbench calibrate --network` to a platform (calib_net.h): fit
 * every level (fit.h), decide the latency rule, build the platform and its SMPI factors, and the
 * file's header lines. Pure functions of the measured times: no MPI, nothing printed. */
#include "calib_net.h"
#include "fit.h"
#include "platform.h"
#include "platform_file.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* The sizes a sweep runs: all of n[0..count), but the inter ping-pong's up to NET_PP_INTER_MAX (at
 * least FIT_MIN_SEGMENT): it gives the pair's latency, and its largest sizes took half a minute at
 * 500 Mbit/s in `make fidelity` without changing the platform (the links come from the exchange). */
int net_sweep_sizes(int level, int kind, const double *n, int count)
{
    int k = 0;
    if (level != LV_INTER || kind != SW_PINGPONG) return count;
    while (k < count && n[k] <= (double)NET_PP_INTER_MAX) k++;
    return k < FIT_MIN_SEGMENT ? (count < FIT_MIN_SEGMENT ? count : FIT_MIN_SEGMENT) : k;
}

int net_fit_levels(const net_state *s, const double *n, int count, double t[2][2][NET_MAX_SIZES],
                   fit_model m[2][2])
{
    int levels = s->nodes >= 2 ? 2 : 1, first = s->rpn >= 2 ? LV_INTRA : LV_INTER;
    for (int l = first; l < levels; l++)
        for (int k = 0; k < 2; k++)
            if (fit_model_make(n, t[l][k], net_sweep_sizes(l, k, n, count), &m[l][k])) return 1;
    for (int k = 0; k < 2 && levels == 2 && s->piece; k++) /* between real nodes a sweep's message is */
        for (int i = 1; i < m[LV_INTER][k].nseg; i++)      /* one piece up to the piece size, then */
            m[LV_INTER][k].at[i] = n[m[LV_INTER][k].first[i]]; /* several: a segment from its first size */
    if (first == LV_INTER) m[LV_INTRA][SW_EXCHANGE] = m[LV_INTER][SW_EXCHANGE]; /* one rank per node */
    return 0;
}

/* latency from the ping-pong: an exchange's slowest rank also waits out the barrier's skew (about
 * one α, on a real machine and in SMPI alike), so its α would count that twice. With more ranks
 * on a machine than it has cores (real runs only; the emulated cluster's nodes are one machine),
 * a message waits for its receiver to be scheduled, which the pair alone does not see and every
 * rank at once does, step after step as an allreduce's steps do: then the exchange's α at every
 * level (a real ring step matches the exchange's α, not half of it: docs/BENCHMARKS.md, "Notes moved
 * from code comments"; issue 26) */
void net_latency_rule(const net_state *s, const fit_model m[2][2], double *intra_lat, double *inter_lat)
{
    int levels = s->nodes >= 2 ? 2 : 1, first = s->rpn >= 2 ? LV_INTRA : LV_INTER, over = s->over;
    double a_in = over ? m[first][SW_EXCHANGE].alpha : m[first][SW_PINGPONG].alpha;
    double a_x = m[levels - 1][over ? SW_EXCHANGE : SW_PINGPONG].alpha;
    *intra_lat = a_in;
    *inter_lat = a_x > a_in ? a_x : a_in;
}

void net_smpi_factors(const fit_model *x, platform_fit *fit)
{
    for (int i = 0, ul = 0, ub = 0; i < x->nseg && x->nseg > 1; i++) { /* first[0] = 0: the lists start at 0 */
        ul += snprintf(fit->lat_factor + ul, sizeof fit->lat_factor - (size_t)ul, "%s%.0f:%.4g", i ? ";" : "",
                       x->at[i], x->lat_f[i]);
        ub += snprintf(fit->bw_factor + ub, sizeof fit->bw_factor - (size_t)ub, "%s%.0f:%.4g", i ? ";" : "",
                       x->at[i], x->bw_f[i]);
    }
}

void net_platform_build(const net_state *s, const fit_model m[2][2], int count, platform *pf, platform_fit *fit)
{
    int levels = s->nodes >= 2 ? 2 : 1, first = s->rpn >= 2 ? LV_INTRA : LV_INTER;
    const fit_model *in = &m[LV_INTRA][SW_EXCHANGE], *x = &m[levels - 1][SW_EXCHANGE];
    memset(pf, 0, sizeof *pf);
    memset(fit, 0, sizeof *fit);
    snprintf(pf->name, sizeof pf->name, "%s", s->o->name);
    pf->nodes = 1, pf->gpus_per_node = s->rpn;
    net_latency_rule(s, m, &pf->intra_lat, &pf->inter_lat);
    pf->intra_bw = 1 / in->beta;
    pf->nic_bw = levels == 2 ? s->rpn / x->beta : pf->intra_bw;
    fit->rms_pct[0] = in->rms_pct, fit->rms_pct[1] = levels == 2 ? x->rms_pct : 0;
    fit->points[0] = first == LV_INTRA ? count : 0, fit->points[1] = levels == 2 ? count : 0;
    net_smpi_factors(x, fit);
}

void net_fit_header(const net_state *s, const double *n, int count, const fit_model m[2][2], char *header,
                    size_t hlen)
{
    int levels = s->nodes >= 2 ? 2 : 1, first = s->rpn >= 2 ? LV_INTRA : LV_INTER, used = 0;
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    for (int l = first; l < levels; l++)
        for (int k = 0; k < 2; k++) {
            const fit_model *f = &m[l][k];
            used += snprintf(header + used, hlen - (size_t)used,
                             "%s %s: alpha %.4g s, beta %.4g s/B (%.4g GB/s), rms %.2f%% over %d sizes%s\n",
                             l ? "inter" : "intra", k ? "exchange" : "ping-pong", f->alpha, f->beta,
                             1e-9 / f->beta, f->rms_pct, net_sweep_sizes(l, k, n, count),
                             f->nseg > 1 ? " (piecewise: SMPI factors)" : "");
        }
    if (s->over)
        used += snprintf(header + used, hlen - (size_t)used,
                         "%d ranks on a machine of %ld cores: latency = the exchange's alpha\n", s->here, cores);
    if (levels == 1)
        snprintf(header + used, hlen - (size_t)used, "one node: no inter-node level measured; inter = intra");
}
