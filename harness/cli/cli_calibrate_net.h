/* cli_calibrate_net.h — what `ddlbench calibrate --network`'s two files share: the options and the
 * measuring state (cli_calibrate_net.c: options, fit, file; cli_calibrate_sweep.c: the sweeps). */
#ifndef HARN_CLI_CALIBRATE_NET_H
#define HARN_CLI_CALIBRATE_NET_H

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
 * beyond count = 1; SW_WHOLE: the inter exchange sent as one message each way, s). Rounds as --help states: the median of R round medians; where the rounds of a
 * size disagree by more than NET_DISAGREE, up to R more rounds and the fastest of all of them.
 * Rank 0 prints the rows. Collective over MPI_COMM_WORLD. */
void net_sweep(net_state *s, int level, int kind, const double *n, int count, double *t);
double net_median(double *v, long k);
/* Seconds a nanosleep of NET_POLL_US takes beyond it (>= 0; the slowest rank's median). Collective. */
double net_poll_slack(void);
/* What fresh pages cost beyond writing warm memory, ns per byte (>= 0; the slowest rank's median of
 * NET_FAULT_ROUNDS, every rank at once). Collective; < 0 when the mapping failed on some rank. */
double net_fault_cost(void);
/* The copy costs by working set (exchange and plain copy: ws_copy, copy) and the per-call overhead
 * into fit, from the intra level (>= 2 ranks a node; nothing otherwise); tx: the exchange sweep's
 * times at sizes n[0..count), to check the working-set sweep against (cli_calibrate_copy.c). */
struct platform_fit;
void net_copy_costs(net_state *s, const double *n, int count, const double *tx, struct platform_fit *fit);
/* The whole-message cost between real nodes (whole_ns into fit): the inter exchange of the sizes
 * n[i] above the piece (up to NET_WHOLE_MAX) sent as one message each way, less tx[i] (the exchange
 * sweep's, in pieces), ns per byte; nothing without real nodes (cli_calibrate_whole.c). */
void net_whole_cost(net_state *s, const double *n, int count, const double *tx, struct platform_fit *fit);

#endif
