/* calib_net.h — the network calibration behind `ddlbench calibrate --network` (harness/cli/
 * cli_calibrate_net.c parses, calls and prints): the options and the measuring state; where the ranks
 * sit (calib_nodes.c); the sweeps (calib_sweep.c, calib_copy.c, calib_whole.c); the fits, the latency
 * rule, the platform and its SMPI factors (calib_fit.c, pure functions of the measured times). */
#ifndef HARN_CALIB_NET_H
#define HARN_CALIB_NET_H

#include "fit.h"

#include <stddef.h>

#define NET_MAX_SIZES 32
#define NET_MAX_ROUNDS 9
#define NET_TIMEOUT_S 30   /* per size, + 1 s per 10 MB: only a hang gets there */
#define NET_BYTES_PER_SIZE ((size_t)256 << 20) /* iterations shrink so a size moves at most this */
#define NET_DISAGREE 2.0   /* rounds of a size whose slowest / fastest exceeds this are repeated */
#define NET_WS_MIN ((size_t)64 << 10)  /* the working-set sweep: 64 KiB .. 64 MiB, 4x apart */
#define NET_WS_MAX ((size_t)64 << 20)
#define NET_WS_TRIES 3     /* working-set sweeps until one agrees with the exchange sweep */
#define NET_WS_SEGMENT ((size_t)256 << 10) /* its pieces: libddl's host segment on one node */
#define NET_SKEW_BYTES ((size_t)64) /* the inter exchange's barrier skew: measured at this size, */
#define NET_SKEW_REPS 16            /* alone against this many back to back */
#define NET_BURST 32       /* messages per burst of the overhead sweep */
#define NET_POLL_US 50     /* the pause the poll-slack sweep asks for: the trainer's default --poll-us */
#define NET_POLL_SLEEPS 101
#define NET_FAULT_BYTES ((size_t)64 << 20) /* the fresh-page sweep's mapping: above glibc's 32 MiB threshold */
#define NET_FAULT_ROUNDS 5
#define NET_WHOLE_MAX ((size_t)4 << 20)    /* the whole-message sweep: sizes above the piece up to this */
#define NET_WHOLE_BYTES ((size_t)16 << 20) /* its iterations shrink so a size moves at most this */
#define NET_PP_INTER_MAX ((size_t)1 << 20) /* the inter ping-pong's largest size: it gives the latency */
#define NET_FINE_MAX ((size_t)1 << 20)     /* the sweeps' sizes: 2x apart up to this, 4x apart above */

typedef struct net_opts {
    const char *path, *name;
    size_t min_bytes, max_bytes;
    long iters, rounds, timeout_s;
} net_opts;

typedef struct net_state {
    const net_opts *o;
    int rank, size, rpn, nodes;
    int here;                  /* the most ranks of the job on one machine (one kernel: boot_id) */
    int over;                  /* here > the machine's cores (real runs only) */
    char *sbuf, *rbuf;
    double *t, *tmax;
    size_t piece;              /* inter-node exchange: messages of at most this (0: whole) */
    double skew, floor;        /* inter exchange: the barrier's skew (-1: not measured yet); the
                                  back-to-back exchange of NET_SKEW_BYTES, the least figure kept */
    long step;                 /* DDL_FAULT_INJECT counter */
    int repeated;              /* sizes whose rounds disagreed and were repeated (rank 0 reports) */
    size_t budget;             /* bytes a size moves at most (0: NET_BYTES_PER_SIZE) */
} net_state;

enum { LV_INTRA, LV_INTER };
enum { SW_PINGPONG, SW_EXCHANGE, SW_WS, SW_BURST, SW_COPY, SW_WHOLE };

/* One sweep of one level and kind over the sizes n[0..count): t[i] (s; SW_WS: s per byte of a
 * working set n[i] exchanged in NET_WS_SEGMENT pieces; SW_COPY: s per byte of an n[i]-byte memcpy on
 * every rank at once; SW_BURST: s per message of a burst, n unused
 * beyond count = 1; SW_WHOLE: the inter exchange sent as one message each way, s). Rounds as --help
 * states: the median of R round medians; where the rounds of a
 * size disagree by more than NET_DISAGREE, up to R more rounds and the fastest of all of them.
 * Rank 0 prints the rows. Collective over MPI_COMM_WORLD. */
void net_sweep(net_state *s, int level, int kind, const double *n, int count, double *t);
/* Seconds a nanosleep of NET_POLL_US takes beyond it (>= 0; the slowest rank's median). Collective. */
double net_poll_slack(void);
/* What fresh pages cost beyond writing warm memory, ns per byte (>= 0; the slowest rank's median of
 * NET_FAULT_ROUNDS, every rank at once). Collective; < 0 when the mapping failed on some rank. */
double net_fault_cost(void);
/* The copy costs by working set (exchange and plain copy: ws_copy, copy) and the per-call overhead
 * into fit, from the intra level (>= 2 ranks a node; nothing otherwise); tx: the exchange sweep's
 * times at sizes n[0..count), to check the working-set sweep against (calib_copy.c). */
struct platform_fit;
void net_copy_costs(net_state *s, const double *n, int count, const double *tx, struct platform_fit *fit);
/* The whole-message cost between real nodes (whole_ns into fit): the inter exchange of the sizes
 * n[i] above the piece (up to NET_WHOLE_MAX) sent as one message each way, less tx[i] (the exchange
 * sweep's, in pieces), ns per byte; nothing without real nodes (calib_whole.c). */
void net_whole_cost(net_state *s, const double *n, int count, const double *tx, struct platform_fit *fit);

/* The measuring state of o on MPI_COMM_WORLD (after MPI_Init): rank, size, ranks per node and per
 * machine, whether they outnumber its cores, the send and receive buffers (the largest of the sizes
 * n[0..count), the working-set sweep's and the skew's) and the per-iteration times. Collective. 0, or
 * 2 (bad ranks per node: the message in err on rank 0) or 1 (out of memory: in err on the ranks that
 * failed). net_state_close in every case. */
int net_state_open(net_state *s, const net_opts *o, const double *n, int count, char *err, size_t errlen);
void net_state_close(net_state *s);
/* Ranks per node: DDL_RANKS_PER_NODE, else the MPI_COMM_TYPE_SHARED group (checked node-major and
 * equal); s->piece between real nodes. Sets s->rpn, s->nodes. 0, or 2 with a message. Collective. */
int net_ranks_per_node(net_state *s, char *err, size_t errlen);
/* The most ranks of the job on one machine (one kernel: boot_id); s->rpn without /proc. Collective. */
int net_ranks_per_machine(const net_state *s);

/* The fits (calib_fit.c; fit.h). The sizes the sweep of level and kind runs out of n[0..count): all,
 * but the inter ping-pong's up to NET_PP_INTER_MAX (at least FIT_MIN_SEGMENT). */
struct platform;
int net_sweep_sizes(int level, int kind, const double *n, int count);
/* m[level][kind] for every level measured (s->rpn >= 2: intra; s->nodes >= 2: inter; one rank a node:
 * the intra exchange is the inter one); between real nodes (s->piece) the inter segments start at
 * their first size. t: the sweeps' times at n. 0, or 1 (no fit with a positive bandwidth term). */
int net_fit_levels(const net_state *s, const double *n, int count, double t[2][2][NET_MAX_SIZES],
                   fit_model m[2][2]);
/* The latency rule: the ping-pong's alpha, or the exchange's where the ranks outnumber the machine's
 * cores (s->over); inter at least intra. */
void net_latency_rule(const net_state *s, const fit_model m[2][2], double *intra_lat, double *inter_lat);
/* SMPI's piecewise factors of the fit x ("SIZE:F;..." into fit->lat_factor and fit->bw_factor; none
 * for one segment). */
void net_smpi_factors(const fit_model *x, struct platform_fit *fit);
/* The platform named s->o->name from the fits (links: the exchange; latency: net_latency_rule) and
 * its fit record (RMS, points, SMPI factors of the widest level's exchange); count: sizes swept. */
void net_platform_build(const net_state *s, const fit_model m[2][2], int count, struct platform *pf,
                        struct platform_fit *fit);
/* The platform file's header lines on the fits into header[0..hlen). */
void net_fit_header(const net_state *s, const double *n, int count, const fit_model m[2][2],
                    char *header, size_t hlen);

#endif
