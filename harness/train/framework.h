/* framework.h — what a training framework puts between a gradient's readiness and its allreduce,
 * written once for every pricer of the step schedule (schedule.h): the simulation engine
 * (engine_sim.c) and the alpha-beta-gamma step (harness/sim/perf_step.c) both turn the step's posted
 * units and their ready times into allreduces here, so the two cannot drift apart.
 *
 * Two ways to launch (docs/SOURCES.md §7, §13; docs/STUDIES.md §4):
 *   buckets (cycle_s = 0: PyTorch DDP, Caffe2/Gloo, DDL): each bucket of the plan (bucket.h) is one
 *     allreduce, enqueued the moment its last gradient is written;
 *   cycles (cycle_s > 0: Horovod up to 0.12): a background loop sleeps cycle_s, then takes the gradients
 *     ready on every rank, fuses them in posting order into allreduces of at most fusion_bytes (a larger
 *     tensor alone: docs/tensor-fusion.md), and enqueues them on the one stream. Horovod 0.12 did not
 *     wait for the stream (a finalizer thread did), so the loop's wake-ups fall at t0 + k x cycle_s, k >= 1,
 *     counted from the step's start. Rank 0's negotiation inside each cycle is not priced (its cost at
 *     128-512 ranks over TCP is not published).
 * Either way the stream runs one allreduce at a time, in enqueue order: it starts at max(its enqueue,
 * the previous one's end) and first pays call_s, a fixed per-call cost (launch, framework bookkeeping).
 * Compute slowed while communication runs (contention > 0): the backward compute that overlaps an
 * allreduce takes 1 + contention times as long (GPU SMs and memory bandwidth taken by the reduction
 * kernels; on CPUs, the progress thread against BLAS; docs/SOURCES.md §13). Priced to first order by
 * fw_slowdown, once for both pricers. Its mirror, communication slowed while compute runs
 * (comm_contention > 0: on CPUs the communication thread shares the cores with BLAS, on GPUs the
 * reduction kernels share the SMs): an allreduce progresses 1 + comm_contention times slower while
 * backward computes, then at its own rate (fw_comm_stretch, once for both pricers).
 * Partial overlap (overlap_from > 0): the framework enqueues no allreduce before that fraction of the
 * step's gradient elements is ready, in posting order (backward's order: the last layers' first), so it
 * overlaps only the rest of backward; what was ready before waits for that moment (0: from the first
 * bucket, the ideal; 1: nothing overlapped, the buckets enqueued when backward ends). Applied to the
 * ready times before buckets or cycles take them (fw_hold), once for both pricers.
 * The ideal framework is all zeros: buckets, no per-call cost, no contention either way, full overlap. */
#ifndef HARN_FRAMEWORK_H
#define HARN_FRAMEWORK_H

#include <stddef.h>

typedef struct framework {
    double cycle_s;      /* 0: buckets; > 0: the loop's fixed sleep before each cycle, s */
    size_t fusion_bytes; /* cycles: the cap of one fused allreduce (0: no cap) */
    double call_s;       /* the fixed cost of every allreduce, s */
    double contention;   /* backward compute overlapping an allreduce takes 1 + this as long (0: none) */
    double comm_contention; /* an allreduce beside backward compute progresses 1 + this times slower (0: none) */
    double overlap_from; /* partial overlap: nothing enqueued before this fraction (0..1) of the gradients is ready */
} framework;

/* One allreduce: posted units [first, first + n), their elements, and when it is enqueued. */
typedef struct fw_group {
    int first, n;
    size_t count;
    double enqueue;
} fw_group;

/* 1 when fw adds nothing to the ideal schedule (buckets, no per-call cost, no contention either way,
 * overlap from the first bucket). */
int fw_ideal(const framework *fw);

/* Partial overlap: the ready time of the unit with which fw->overlap_from of the step's elements
 * (count[0..n), posting order) are ready, before which nothing is enqueued; -INFINITY when overlap_from
 * is 0 (or n is 0). */
double fw_hold(const framework *fw, const double *ready, const size_t *count, int n);

/* The allreduces of one step from its posted units 0..n-1 in posting order: unit i became ready at
 * ready[i] (non-decreasing) with count[i] elements of esize bytes; t0 is the step's start. Fills g
 * (room for n) and returns how many groups, or -1 (ready times decreasing, or a negative count). */
int fw_groups(const framework *fw, double t0, const double *ready, const size_t *count, int n, size_t esize,
              fw_group *g);

/* Compute slowed while communication runs, to first order: the overlap is taken on the schedule as
 * run without the slowdown, where backward ended at b1 and allreduce i of n (g[i], in stream order)
 * started at start[i] and lasted dur[i]. Backward then ends fw->contention x overlap later (the
 * return value, the extra compute); the allreduces enqueued at or after b1 (the last buckets, the
 * cycles after backward) are enqueued that much later, each starting at the latest of its start, its
 * enqueue and the previous one's end. *comm_end: the stream's new end (b1 + extra when none). With no
 * contention: 0, and *comm_end the unchanged end. The ready times before b1 are not moved (the first
 * order): a slowdown of s on an overlap of x costs s x x, not the compounding of later posts. */
double fw_slowdown(const framework *fw, double b1, const fw_group *g, const double *start, const double *dur, int n,
                   double *comm_end);

/* Communication slowed while compute runs: the duration of an allreduce (its per-call cost included)
 * that started at start and takes dur alone, when backward's compute runs until b1. Before b1 it
 * progresses 1 + fw->comm_contention times slower, after b1 at its own rate: dur x (1 + c) when it
 * ends before b1; (b1 - start) + dur - (b1 - start) / (1 + c) when it outlasts b1; dur when it starts
 * at or after b1, or with no comm_contention. */
double fw_comm_stretch(const framework *fw, double start, double dur, double b1);

/* The backend under the framework (ASTRA-sim's split of one system layer from its network backends):
 * the simulation engine runs each allreduce (engine_sim.c), the alpha-beta-gamma model prices it
 * (perf_step.c). fw_drain decides what and when; the backend only says how long. */
typedef struct fw_backend {
    /* Allreduce i (g) may begin at `at`: its enqueue, or the previous one's end if later. The backend
     * begins it then (or, running on a clock, when it can: *start), pays call_s (the framework's
     * per-call cost) before the collective, and sets *dur, call_s included. 0, or non-zero to stop. */
    int (*call)(void *arg, int i, const fw_group *g, double at, double call_s, double *start, double *dur);
    /* The stream stays busy until t: an allreduce slowed beside compute (fw_comm_stretch). NULL: a
     * pricer, with no clock to advance. */
    void (*hold)(void *arg, double t);
    void *arg;
} fw_backend;

/* The allreduces of one step, drained (fw_drain). */
typedef struct fw_drained {
    int calls;            /* allreduces made and run (up to the failed one) */
    double first_start;   /* the first one's start (0: none) */
    double end;           /* the stream's end: the last one's, moved by contention (0: none) */
    double busy_s;        /* their summed durations, comm_contention's stretch included */
    double slowed_s;      /* the backward compute that contention added (fw_slowdown) */
    double comm_slowed_s; /* the allreduce time that comm_contention added (fw_comm_stretch) */
} fw_drained;

/* The step's posted units, in posting order, for fw_drain. */
typedef struct fw_posts {
    double t0;            /* the step's start (cycles count their wake-ups from it) */
    double b1;            /* the end of backward's compute */
    const double *ready;  /* [n] when each unit was posted (non-decreasing) */
    const size_t *count;  /* [n] its elements */
    int n;
    size_t esize;         /* bytes per element */
} fw_posts;

/* The framework's drain policy, once for every backend: the allreduces of the posted units
 * (fw_groups), run one at a time in enqueue order, each from max(its enqueue, the previous one's end)
 * and paying call_s first (b->call); each stretched by comm_contention beside backward's compute
 * (fw_comm_stretch, the stream held to its slowed end: b->hold); then, with contention, the compute
 * they slowed (fw_slowdown) and the stream's end moved by it. The step resumes at
 * max(out->end, p->b1 + out->slowed_s). g, start and dur: scratch of room p->n (the groups, each
 * one's start and duration, in stream order). Returns 0, -1 (ready times decreasing), or b->call's
 * non-zero return (out then holds the allreduces up to the failed one). */
int fw_drain(const framework *fw, const fw_posts *p, const fw_backend *b, fw_group *g, double *start, double *dur,
             fw_drained *out);

/* "ideal (an allreduce per bucket as it completes)" or "cycles of 5 ms, fused up to 64 MiB; 20 us a call";
 * partial overlap adds "; overlap from 60% of the gradients". */
const char *fw_describe(const framework *fw, char *buf, size_t len);

#endif
