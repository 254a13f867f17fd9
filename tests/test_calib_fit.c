/* test_calib_fit.c — the network calibration's decisions on synthetic sweeps (harness/calib/calib_fit.c),
 * without MPI: the latency rule (the ping-pong's alpha, or the exchange's where the ranks outnumber the
 * machine's cores; inter at least intra), the platform built from the exchange (intra_bw = 1/beta,
 * nic_bw = k/beta with k ranks a node), one rank a node (the inter exchange sets both levels), the
 * inter ping-pong's sizes capped at NET_PP_INTER_MAX, and SMPI factors only for a piecewise fit. */
#include "calib_net.h"
#include "fit.h"
#include "platform.h"
#include "platform_file.h"
#include "test.h"

#include <math.h>
#include <string.h>

static int close_to(double a, double b, double rel) { return fabs(a - b) <= rel * fabs(b); }

/* t = alpha + n / bw over the sizes n[0..count) */
static void line(double *t, const double *n, int count, double alpha, double bw)
{
    for (int i = 0; i < count; i++) t[i] = alpha + n[i] / bw;
}

int main(void)
{
    static double t[2][2][NET_MAX_SIZES];
    double n[NET_MAX_SIZES], lin, lx;
    int count = 0;
    net_opts o = { "x.platform", "synthetic", 64, (size_t)16 << 20, 20, 3, 30 };
    net_state s;
    fit_model m[2][2];
    platform pf;
    platform_fit fit;
    for (size_t b = 64; b <= ((size_t)16 << 20); b *= b < NET_FINE_MAX ? 2 : 4) n[count++] = (double)b;
    int pp = net_sweep_sizes(LV_INTER, SW_PINGPONG, n, count);
    CHECK(pp < count && n[pp - 1] == (double)NET_PP_INTER_MAX,
          "the inter ping-pong stops at NET_PP_INTER_MAX (%d of %d sizes)", pp, count);
    CHECK(net_sweep_sizes(LV_INTER, SW_EXCHANGE, n, count) == count &&
              net_sweep_sizes(LV_INTRA, SW_PINGPONG, n, count) == count, "the other sweeps run every size");
    CHECK(net_sweep_sizes(LV_INTER, SW_PINGPONG, n + count - 3, 3) == FIT_MIN_SEGMENT,
          "but at least FIT_MIN_SEGMENT sizes");

    /* 2 nodes x 4 ranks: ping-pong 1 us / 5 us, exchange 3 us / 9 us; 10 GB/s in a node, 1 GB/s between */
    memset(&s, 0, sizeof s);
    s.o = &o, s.size = 8, s.rpn = 4, s.nodes = 2, s.here = 4;
    line(t[LV_INTRA][SW_PINGPONG], n, count, 1e-6, 10e9), line(t[LV_INTRA][SW_EXCHANGE], n, count, 3e-6, 10e9);
    line(t[LV_INTER][SW_PINGPONG], n, count, 5e-6, 1e9), line(t[LV_INTER][SW_EXCHANGE], n, count, 9e-6, 1e9);
    CHECK(net_fit_levels(&s, n, count, t, m) == 0, "straight lines fit");
    net_latency_rule(&s, m, &lin, &lx);
    CHECK(close_to(lin, 1e-6, 1e-6) && close_to(lx, 5e-6, 1e-6), "latency: the ping-pong's alpha (%g, %g)", lin, lx);
    net_platform_build(&s, m, count, &pf, &fit);
    CHECK(!strcmp(pf.name, "synthetic") && pf.nodes == 1 && pf.gpus_per_node == 4, "name and shape (%s, %d)", pf.name,
          pf.gpus_per_node);
    CHECK(close_to(pf.intra_lat, 1e-6, 1e-6) && close_to(pf.inter_lat, 5e-6, 1e-6), "the platform takes the rule");
    CHECK(close_to(pf.intra_bw, 10e9, 1e-6) && close_to(pf.nic_bw, 4 * 1e9, 1e-6),
          "links from the exchange: intra %g, nic %g = 4 ranks x 1/beta", pf.intra_bw, pf.nic_bw);
    CHECK(fit.points[0] == count && fit.points[1] == count && fit.rms_pct[0] < 1e-6 && fit.rms_pct[1] < 1e-6,
          "fit record: %d/%d points, rms %g/%g", fit.points[0], fit.points[1], fit.rms_pct[0], fit.rms_pct[1]);
    CHECK(!fit.lat_factor[0] && !fit.bw_factor[0], "one line: no SMPI factors (%s)", fit.bw_factor);

    /* more ranks than cores: the exchange's alpha at every level */
    s.over = 1, s.here = 8;
    net_latency_rule(&s, m, &lin, &lx);
    CHECK(close_to(lin, 3e-6, 1e-6) && close_to(lx, 9e-6, 1e-6), "oversubscribed: the exchange's alpha (%g, %g)", lin,
          lx);
    /* inter never below intra: an inter ping-pong faster than the intra one takes the intra latency */
    s.over = 0;
    line(t[LV_INTER][SW_PINGPONG], n, count, 0.5e-6, 1e9);
    CHECK(net_fit_levels(&s, n, count, t, m) == 0, "refit");
    net_latency_rule(&s, m, &lin, &lx);
    CHECK(close_to(lx, lin, 1e-9) && close_to(lin, 1e-6, 1e-6), "inter at least intra (%g >= %g)", lx, lin);

    /* one rank a node: the inter exchange is both levels' link */
    memset(&s, 0, sizeof s);
    s.o = &o, s.size = 2, s.rpn = 1, s.nodes = 2, s.here = 1;
    CHECK(net_fit_levels(&s, n, count, t, m) == 0, "one rank a node fits");
    net_platform_build(&s, m, count, &pf, &fit);
    CHECK(close_to(pf.intra_bw, 1e9, 1e-6) && close_to(pf.nic_bw, 1e9, 1e-6) && fit.points[0] == 0,
          "one rank a node: intra = inter exchange (%g, %g), no intra points", pf.intra_bw, pf.nic_bw);
    CHECK(close_to(pf.intra_lat, 0.5e-6, 1e-6), "latency from the inter ping-pong (%g)", pf.intra_lat);

    /* one node, two regimes in the exchange: SMPI factors from the piecewise fit, "SIZE:F;..." from 0 */
    memset(&s, 0, sizeof s);
    s.o = &o, s.size = 2, s.rpn = 2, s.nodes = 1, s.here = 2;
    line(t[LV_INTRA][SW_PINGPONG], n, count, 1e-6, 2e9);
    for (int i = 0; i < count; i++)
        t[LV_INTRA][SW_EXCHANGE][i] = n[i] < 65536 ? 1e-6 + n[i] / 2e9 : 20e-6 + n[i] / 10e9;
    CHECK(net_fit_levels(&s, n, count, t, m) == 0 && m[LV_INTRA][SW_EXCHANGE].nseg >= 2, "two regimes: piecewise (%d)",
          m[LV_INTRA][SW_EXCHANGE].nseg);
    net_platform_build(&s, m, count, &pf, &fit);
    CHECK(!strncmp(fit.lat_factor, "0:", 2) && !strncmp(fit.bw_factor, "0:", 2) && strchr(fit.bw_factor, ';'),
          "SMPI factors from 0 (%s / %s)", fit.lat_factor, fit.bw_factor);
    CHECK(close_to(pf.inter_lat, pf.intra_lat, 1e-9) && close_to(pf.nic_bw, pf.intra_bw, 1e-9) && fit.points[1] == 0,
          "one node: inter = intra");
    char h[1024];
    net_fit_header(&s, n, count, m, h, sizeof h);
    CHECK(strstr(h, "intra exchange:") && strstr(h, "(piecewise: SMPI factors)") && strstr(h, "one node:"),
          "the file's header names the fits: %s", h);

    /* times that fall with size: no fit */
    for (int i = 0; i < count; i++) t[LV_INTRA][SW_EXCHANGE][i] = 1e-3 / (i + 1);
    CHECK(net_fit_levels(&s, n, count, t, m) == 1, "no positive bandwidth: 1");
    return TEST_REPORT();
}
