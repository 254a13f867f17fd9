/* cli_calibrate_net.c — `ddlbench calibrate --network`: measure the MPI links of this launch and write
 * them as a platform file (platform_file.h) that the simulator, the α-β-γ model and `auto` read.
 *   mpirun -np N ddlbench calibrate --network [-o FILE] [--name NAME] [-b MIN] [-e MAX] [--timeout S]
 * Levels: ranks are grouped into nodes by MPI_COMM_TYPE_SHARED (or DDL_RANKS_PER_NODE, as libddl
 * does, so one machine can emulate nodes); intra = two ranks of node 0, inter = rank 0 and the first
 * rank of node 1 (only with >= 2 nodes). Two sweeps per level, sizes MIN..MAX by 4x:
 *   ping-pong  the pair alone, one-way time = round trip / 2 (the record: the link unloaded; between
 *              nodes up to NET_PP_INTER_MAX: it gives the latency);
 *   exchange   every rank at once with a partner at that level (MPI_Sendrecv; intra: rank ^ 1 in
 *              the node, inter: the same local rank on node ^ 1), max over ranks per iteration —
 *              the load an allreduce puts on the links, so the platform's links come from it.
 *              Between real nodes (detected, not DDL_RANKS_PER_NODE) the message goes as libddl
 *              sends it there: pieces of the network segment (DDL_NET_SEGMENT_BYTES, default
 *              DDL_NET_SEGMENT_DEFAULT), two in flight, every one eager (collectives/nodes.c); one
 *              whole rendezvous message each way measures the protocol's stall, not the link.
 * With >= 2 ranks a node, two more (issue 26): the copy cost by working set (ws_copy_ns: a vector of
 * 64 KiB..64 MiB exchanged in libddl's 256 KiB pieces, ns per byte; checked against the exchange
 * sweep where both are one message, measured again if the load changed) and the per-call overhead
 * (call_overhead: a burst of 32 small messages against one): calib_copy.c. Between real
 * nodes, one more: the exchange sent as one message each way (MPI's own collectives), less the same in
 * pieces (whole_ns): calib_whole.c. The sweeps: calib_sweep.c.
 * Each figure is the median over iterations, then over --rounds, robustly (calib_net.h).
 * Fit (fit.h): t = α + n·β by relative least squares,
 * piecewise where that explains the points clearly better, outliers left out (the residuals per
 * segment printed; an RMS above NET_RMS_LIMIT says so); intra_lat = α of the ping-pong, intra_bw =
 * 1/β of the exchange; inter_lat the same, inter_bw = k/β (k ranks of a node share its NIC in the
 * platform model; more ranks on a machine than it has cores: both latencies = the exchanges' α).
 * SMPI's factors are global, so they come from one level: inter when measured, else intra. A peer that never answers:
 * the watchdog ends the job after --timeout with one line. */
#include "cli.h"
#include "calib_net.h"
#include "ddl.h"
#include "fit.h"
#include "guard.h"
#include "outfile.h"
#include "opts.h"
#include "platform_file.h"
#include "watchdog.h"
#include "rank.h"

#include <mpi.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#define NET_RMS_LIMIT 25.0 /* %: a fit worse than this is reported as unreliable */

static int name_check(const char *v, char *want, size_t wantlen)
{
    size_t n = strlen(v); /* what platform files accept (platform_file.h) */
    if (n && n <= 63 && strspn(v, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._-") == n) return 0;
    snprintf(want, wantlen, "1..63 of [A-Za-z0-9._-]");
    return 1;
}

static const opt_row rows[] = {
    { .name = "-o", .type = OPT_STRING, .unit = "FILE", .off = offsetof(net_opts, path),
      .help = "platform file to write (default harness/sim/platforms/local.platform)" },
    { .name = "--name", .type = OPT_STRING, .unit = "NAME", .off = offsetof(net_opts, name), .check = name_check,
      .help = "its preset name (default local)" },
    { .name = "--min-bytes", .alias = "-b", .type = OPT_SIZE, .min = 1, .max = 1 << 30,
      .off = offsetof(net_opts, min_bytes),
      .help = "smallest message size (default 64); sizes 2x apart up to 1M, 4x apart above" },
    { .name = "--max-bytes", .alias = "-e", .type = OPT_SIZE, .min = 1, .max = 1 << 30,
      .off = offsetof(net_opts, max_bytes),
      .help = "largest message size (default 16M)" },
    { .name = "--iters", .alias = "-n", .type = OPT_LONG, .min = 3, .max = 100000, .off = offsetof(net_opts, iters),
      .help = "iterations per size and round (default 20; fewer above 12 MB)" },
    { .name = "--rounds", .type = OPT_LONG, .min = 1, .max = NET_MAX_ROUNDS, .unit = "R",
      .off = offsetof(net_opts, rounds),
      .help = "sweeps over all sizes; each size's figure is the median of its R round medians\n"
              "(default 3: a burst of load on a shared machine spoils a round, not a size)" },
    { .name = "--timeout", .type = OPT_LONG, .min = 0, .max = 1000000, .unit = "S",
      .off = offsetof(net_opts, timeout_s),
      .expect = "seconds 0..1000000",
      .help = "watchdog per size: a peer that does not answer in S s (+1 s per 10 MB) ends\n"
              "the job with one line, exit 2 (default 30; 0 = off)" },
};

static void usage(void)
{
    const opts_set sets[] = { OPTS_SET(rows, NULL) };
    printf("usage: mpirun -np N ddlbench calibrate network [options]   (N >= 2; nodes of equal size;\n"
           "       old spelling: calibrate --network)\n");
    opts_usage(stdout, sets, 1);
    printf("Fits t = alpha + n*beta per level (intra-node; inter-node with >= 2 nodes) from ping-pong and\n"
           "pairwise-exchange sweeps; the exchange fit (all ranks at once) sets the links, with SMPI\n"
           "lat/bw factors when a two-segment fit explains the points clearly better; residuals printed\n"
           "per segment and written. Between real nodes the exchange goes in pieces of DDL_NET_SEGMENT_BYTES\n"
           "(default %u), two in flight, as libddl sends there; otherwise one message each way. Between\n"
           "real nodes also the same exchange as one message each way, as MPI's own collectives send it\n"
           "(sizes above the piece up to %zu MiB, at most %zu MiB moved a size): what that costs beyond\n"
           "the pieces (whole_ns, ns/B by message size), charged by the simulated `mpi`.\n"
           "With >= 2 ranks a node also: the copy cost by working set (ws_copy_ns: vectors of 64 KiB..64 MiB\n"
           "exchanged in %zu KiB pieces, ns/B; copy_ns: a memcpy on every rank at once, ns/B at the bytes\n"
           "it touches, 2x the vector) and the per-call overhead (call_overhead: a burst of %d\n"
           "8-byte messages against one, per message); the simulator charges both (kernels/sim.h).\n"
           "Every sweep sends data its sender has just rewritten, as an allreduce sends fresh gradients.\n"
           "The inter-node exchange is taken less the barrier's skew: %zu B alone after a barrier less %d\n"
           "back to back, per exchange (each size keeps at least the latter).\n"
           "More ranks on one machine (one kernel) than it has cores: latency = the exchange's alpha.\n"
           "The inter-node ping-pong stops at %zu MiB (it gives the latency; the links come from the exchange).\n"
           "Always: the poll slack (poll_slack: what a nanosleep of %d us takes beyond it, the median of\n"
           "%d on every rank at once, the slowest rank's), added to each simulated pause of a polling wait;\n"
           "and the fresh-page cost (fault_ns: %zu MiB mapped, written and unmapped less writing warm memory,\n"
           "ns/B, the slowest rank's median of %d), charged for the simulated `mpi`'s temporaries that glibc\n"
           "maps anew on every call.\n"
           "Noise: each figure is the median over iterations, then the median of the R round medians;\n"
           "where a size's rounds disagree by more than %.3gx (slowest / fastest), up to R more rounds\n"
           "are run for it and the fastest round's median is kept (load only adds time). Where a fit's RMS\n"
           "is above %.0f%%, it leaves out points slower than the next larger size that the fit without them\n"
           "misses by > %.0f%% and > %.0fx the others' median"
           "\n(at most %d, the worst first); an RMS above %.0f%% after that says so in one line. A working-set\n"
           "figure above both its neighbours by more than the same factor is replaced by the larger one; a\n"
           "working-set sweep slower than the exchange sweep by more than it where both are one message (64\n"
           "and 256 KiB) is measured again (up to %d times), else left out with one line.\n"
           "Use the file as --platform FILE (platform, model, train, advise), PLATFORM=FILE (make run).\n",
           DDL_NET_SEGMENT_DEFAULT, NET_WHOLE_MAX >> 20, NET_WHOLE_BYTES >> 20, NET_WS_SEGMENT >> 10, NET_BURST,
           NET_SKEW_BYTES, NET_SKEW_REPS, NET_PP_INTER_MAX >> 20, NET_POLL_US, NET_POLL_SLEEPS, NET_FAULT_BYTES >> 20,
           NET_FAULT_ROUNDS, NET_DISAGREE, FIT_OUTLIER_FIT_PCT, FIT_OUTLIER_MIN_PCT, FIT_OUTLIER_RATIO,
           FIT_MAX_OUTLIERS, NET_RMS_LIMIT, NET_WS_TRIES);
}

/* 0 ok, 1 help printed, 2 bad input (message in err). argv[1] is the mode word (network, --network). */
static int parse(int argc, char **argv, net_opts *o, char *err, size_t errlen)
{
    *o = (net_opts){ "harness/sim/platforms/local.platform", "local", 64, (size_t)16 << 20, 20, 3, NET_TIMEOUT_S };
    const opts_set sets[] = { OPTS_SET(rows, o) };
    opts_parser p = { sets, 1, NULL, 0, 0, { 0 } };
    int rc = opts_parse(&p, argc - 1, argv + 1, err, errlen);
    if (rc == OPTS_HELP) usage();
    if (rc) return rc;
    if (o->max_bytes < o->min_bytes * 4 * (FIT_MIN_SEGMENT - 1))
        return snprintf(err, errlen, "-b/-e: expected at least %d sizes 4x apart (e >= b x %d)", FIT_MIN_SEGMENT,
                        4 * (FIT_MIN_SEGMENT - 1)), 2;
    return 0;
}


static void print_fit(const char *what, const fit_model *m, const double *n, const double *t, int count)
{
    printf("# %-16s alpha %8.3f us  beta %9.4f ns/B (%7.3f GB/s)  rms %5.1f%%", what, m->alpha * 1e6, m->beta * 1e9,
           1e-9 / m->beta, m->rms_pct);
    if (m->nseg > 1) printf("  (one line: rms %.1f%%)", m->whole.rms_pct);
    putchar('\n');
    for (int i = 0; i < m->nseg; i++)
        printf("#   from %10.0f B (fit from %.0f B): alpha %8.3f us, %7.3f GB/s -> SMPI lat x%.4g, bw x%.4g; residual "
               "rms %.1f%%\n",
               m->at[i], n[m->first[i]], m->seg[i].alpha * 1e6, 1e-9 / m->seg[i].beta, m->lat_f[i], m->bw_f[i],
               fit_segment_rms(m, n, t, count, i));
    for (int i = 0; i < m->outliers; i++)
        printf("#   left out: %.0f B (%.4g us, off the fit by %.0f%%)\n", n[m->outlier[i]], t[m->outlier[i]] * 1e6,
               100 * (fit_model_predict(m, n, n[m->outlier[i]]) - t[m->outlier[i]]) / t[m->outlier[i]]);
    if (m->rms_pct > NET_RMS_LIMIT)
        fprintf(stderr,
                "ddlbench calibrate: %s fit: rms %.1f%% is above the %.0f%% limit: the timings are too noisy to trust "
                "(a loaded machine?)\n",
                what, m->rms_pct, NET_RMS_LIMIT);
}

/* Print every level's fits (exchange: the links; ping-pong: printed), as net_fit_levels made them. */
static void print_fits(const net_state *s, const double *n, int count, double t[2][2][NET_MAX_SIZES],
                       const fit_model m[2][2])
{
    int levels = s->nodes >= 2 ? 2 : 1, first = s->rpn >= 2 ? LV_INTRA : LV_INTER;
    for (int l = first; l < levels; l++)
        for (int k = 0; k < 2; k++)
            print_fit(k ? (l ? "inter exchange" : "intra exchange") : (l ? "inter ping-pong" : "intra ping-pong"),
                      &m[l][k], n, t[l][k], net_sweep_sizes(l, k, n, count));
}

static int measure_and_write(net_state *s, const double *n, int count)
{
    static double t[2][2][NET_MAX_SIZES];
    fit_model m[2][2];
    char header[2048], err[300];
    platform pf;
    platform_fit fit;
    int used =
        snprintf(header, sizeof header,
                 "%s — measured by `ddlbench calibrate --network` on %d ranks, %d node(s) x %d.\n"
                 "Latency: ping-pong alpha; bandwidth and SMPI factors: the exchange sweep (every rank at once).\n",
                 s->o->name, s->size, s->nodes, s->rpn);
    if (s->rank == 0)
        printf("# ddlbench calibrate --network: %d ranks = %d node(s) x %d; median over iterations, then rounds\n"
               "# level kind           bytes      time_us  rounds: min_us       max_us\n",
               s->size, s->nodes, s->rpn);
    for (int l = LV_INTRA; l <= LV_INTER; l++) {
        if ((l == LV_INTRA && s->rpn < 2) || (l == LV_INTER && s->nodes < 2)) continue;
        net_sweep(s, l, SW_PINGPONG, n, net_sweep_sizes(l, SW_PINGPONG, n, count), t[l][SW_PINGPONG]);
        net_sweep(s, l, SW_EXCHANGE, n, count, t[l][SW_EXCHANGE]);
    }
    if (net_fit_levels(s, n, count, t, m)) {
        if (s->rank == 0)
            fprintf(stderr, "ddlbench calibrate: no fit with a positive bandwidth term (times fall with size?)\n");
        return 1;
    }
    net_platform_build(s, m, count, &pf, &fit);
    if (s->rank == 0) print_fits(s, n, count, t, m);
    net_fit_header(s, n, count, m, header + used, sizeof header - (size_t)used);
    net_copy_costs(s, n, count, t[LV_INTRA][SW_EXCHANGE], &fit);
    net_whole_cost(s, n, count, t[LV_INTER][SW_EXCHANGE], &fit);
    fit.poll_slack = net_poll_slack();
    if (s->rank == 0)
        printf("# poll slack: a nanosleep of %d us takes %.3g us more\n", NET_POLL_US, fit.poll_slack * 1e6);
    fit.fault_ns = net_fault_cost();
    if (s->rank == 0 && fit.fault_ns >= 0)
        printf("# fresh pages: %.4g ns per byte beyond writing warm memory (%zu MiB mapped, written, unmapped)\n",
               fit.fault_ns, NET_FAULT_BYTES >> 20);
    else if (s->rank == 0)
        printf("# fresh pages: not measured (a %zu MiB mapping failed)\n", NET_FAULT_BYTES >> 20);
    if (fit.fault_ns < 0) fit.fault_ns = 0;
    if (s->rank == 0 && s->repeated)
        printf("# %d figures' rounds disagreed by more than %.3gx: repeated, the fastest round kept\n", s->repeated,
               NET_DISAGREE);
    if (s->rank != 0) return 0;
    if (platform_file_write(s->o->path, &pf, &fit, header, err, sizeof err)) {
        fprintf(stderr, "ddlbench calibrate: %s\n", err);
        return 1;
    }
    printf("%s: intra %.3g us + 1/(%.4g GB/s), inter %.3g us + %d/(%.4g GB/s)%s%s\n", s->o->path, pf.intra_lat * 1e6,
           pf.intra_bw / 1e9, pf.inter_lat * 1e6, s->rpn, pf.nic_bw / 1e9, fit.bw_factor[0] ? ", SMPI bw-factor " : "",
           fit.bw_factor);
    return 0;
}

int cli_calibrate_network(int argc, char **argv)
{
    net_opts o;
    net_state s;
    char err[700];
    double n[NET_MAX_SIZES];
    int count = 0, rc = parse(argc, argv, &o, err, sizeof err);
    if (rc == 2) fprintf(stderr, "ddlbench calibrate: %s\n", err);
    if (rc) return rc == 1 ? 0 : rc;
    if (guard_fault_init(err, sizeof err) || outfile_check("-o", o.path, err, sizeof err)) {
        fprintf(stderr, "ddlbench calibrate: %s\n", err);
        return 2;
    }
    /* 2x apart where the lines of the piecewise fit meet (a 2-rank allreduce of 4^k bytes sends 4^k / 2) */
    for (size_t b = o.min_bytes; b <= o.max_bytes && count < NET_MAX_SIZES; b *= b < NET_FINE_MAX ? 2 : 4)
        n[count++] = (double)b;
    MPI_Init(&argc, &argv);
    rank_release_stderr(); /* from here a failing rank says why itself (rank.h) */
    err[0] = '\0';
    if ((rc = net_state_open(&s, &o, n, count, err, sizeof err))) {
        if (*err) fprintf(stderr, "ddlbench calibrate: %s\n", err); /* rank 0, or the failing rank */
        goto out;
    }
    watchdog_exit_status(2); /* a peer that does not answer: one line, exit 2 */
    if (o.timeout_s && watchdog_start("ddlbench calibrate")) {
        fprintf(stderr, "ddlbench calibrate: rank %d: cannot start the watchdog thread\n", s.rank);
        rc = 1;
        goto out;
    }
    rc = measure_and_write(&s, n, count);
    MPI_Bcast(&rc, 1, MPI_INT, 0, MPI_COMM_WORLD);
out:
    watchdog_stop();
    net_state_close(&s);
    MPI_Finalize();
    return rc;
}
