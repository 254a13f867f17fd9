/* bench_allreduce.c — the sweep of `ddlbench allreduce`, `reduce-scatter` and `allgather` (options:
 * cli_allreduce.c; o->coll says which collective). Sizes are the whole vector (for reduce-scatter and
 * allgather p·count elements, count per rank, as nccl-tests); busbw is algbw·2(p-1)/p for the
 * allreduce and algbw·(p-1)/p for the other two (nccl-tests' factors: the bytes a rank must move
 * over its link, relative to the size). The CSV schema is the same for the three (results/README.md).
 *
 * Setup, once: the two buffers at the largest size (mem.h), one ddl context per algorithm, the
 * per-iteration time arrays. Per size: the memcpy roofline, then per algorithm and placement
 *   warm-up + timed iterations:  restore input ─ MPI_Barrier ─ t0 ─ ddl_allreduce (or the other) ─ t1
 * (the restore — the input copied back for in-place, the output poisoned for out-of-place — keeps
 * every iteration's data exact and both placements equally warm; it is outside the timed region).
 * After the loop: MPI_Allreduce(MAX) of the times, then rank 0 sorts them; the last iteration's
 * result is checked element by element and the wrong counts are summed over ranks. Rank 0 keeps the
 * CSV rows in memory and writes the file whole at the end (outfile.h), so a killed run leaves none.
 * The watchdog (--timeout) covers the setup, the test data and roofline, and every iteration.
 * --device gpu (CUDA build): ddl_allreduce moves device twins of the two buffers (ddl_config.device = 1);
 * the host buffers hold the test data, copied in before and out for the checks (outside the timing);
 * restores and the roofline are device copies (D2D), synchronised before the barrier.
 * --per-rank: each rank also summarises its own times (median, min, p99), gathered on rank 0, which
 * prints the spread and writes one row per rank (bench_rank_spread, bench.h).
 * Rank 0 keeps the CSV text in memory and writes --csv and --json whole at the end (bench_report.c). */
#include "bench.h"
#include "compute.h"
#include "bench_allreduce.h"
#include "cost_hook.h"
#include "bench_run.h"
#include "device_pick.h"
#include "mem.h"
#include "devmem.h"
#include "guard.h"
#include "rank.h"
#include "watchdog.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* dst <- src, or every byte = fill when src is NULL, in the buffers ddl_allreduce moves; complete on return. */
static int buf_set(const ar_state *s, void *dst, const void *src, int fill, size_t bytes)
{
    if (!s->o->device) {
        if (src) memcpy(dst, src, bytes);
        else memset(dst, fill, bytes);
        return 0;
    }
    return (src ? kern_dev_copy(dst, src, bytes, NULL) : kern_dev_memset(dst, fill, bytes, NULL)) ||
           kern_stream_sync(NULL);
}


/* Test data for a size of `count` elements in all (reduce-scatter and allgather: p·per). */
static void fill(const ar_state *s, size_t count)
{
    const bench_allreduce_opts *o = s->o;
    const size_t per = count / (size_t)s->size;
    if (o->coll == BENCH_REDUCE_SCATTER) bench_fill_at(o->dtype, s->sbuf, count, s->rank, 0);
    else if (o->coll == BENCH_ALLGATHER) bench_fill_at(o->dtype, s->sbuf, per, s->rank, (size_t)s->rank * per);
    else bench_fill(o->dtype, s->sbuf, count, s->rank);
}

/* Before each iteration: the receive buffer poisoned, or holding the input in place (allgather: this
 * rank's contribution in its slot). */
static int restore(const ar_state *s, int in_place, size_t count)
{
    const size_t es = ddl_dtype_size(s->o->dtype), bytes = count * es, per = count / (size_t)s->size * es;
    if (s->o->coll == BENCH_ALLGATHER && in_place)
        return buf_set(s, s->dr, NULL, 0xff, bytes) || buf_set(s, (char *)s->dr + (size_t)s->rank * per, s->ds, 0, per);
    return buf_set(s, s->dr, in_place ? s->ds : NULL, 0xff, bytes);
}

static int run_coll(const ar_state *s, int a, int in_place, size_t count)
{
    const bench_allreduce_opts *o = s->o;
    const void *send = in_place ? DDL_IN_PLACE : s->ds;
    const size_t per = count / (size_t)s->size;
    if (o->coll == BENCH_REDUCE_SCATTER) return ddl_reduce_scatter(s->ctx[a], send, s->dr, per, o->dtype, o->op);
    if (o->coll == BENCH_ALLGATHER) return ddl_allgather(s->ctx[a], send, s->dr, per, o->dtype);
    return ddl_allreduce(s->ctx[a], send, s->dr, count, o->dtype, o->op);
}

/* Wrong elements of the result (res, a host copy). */
static long check_result(const ar_state *s, size_t count, const void *res)
{
    const bench_allreduce_opts *o = s->o;
    const size_t per = count / (size_t)s->size, es = ddl_dtype_size(o->dtype);
    long wrong = 0;
    if (o->coll == BENCH_REDUCE_SCATTER)
        return (long)bench_check_reduced_at(o->dtype, o->op, res, per, s->size, (size_t)s->rank * per);
    if (o->coll == BENCH_ALLREDUCE) return (long)bench_check_result(o->dtype, o->op, res, count, s->size);
    for (int r = 0; r < s->size; r++)
        wrong +=
            (long)bench_check_input_at(o->dtype, (const char *)res + (size_t)r * per * es, per, r, (size_t)r * per);
    return wrong;
}

/* Wrong elements of the send buffer (in, a host copy), which must be untouched. */
static long check_input(const ar_state *s, size_t count, const void *in)
{
    const bench_allreduce_opts *o = s->o;
    const size_t per = count / (size_t)s->size;
    if (o->coll == BENCH_REDUCE_SCATTER) return (long)bench_check_input_at(o->dtype, in, count, s->rank, 0);
    if (o->coll == BENCH_ALLGATHER)
        return (long)bench_check_input_at(o->dtype, in, per, s->rank, (size_t)s->rank * per);
    return (long)bench_check_input(o->dtype, in, count, s->rank);
}

/* memcpy of the same bytes, on every rank at once; median over reps of the slowest rank. */
static double copy_bandwidth(ar_state *s, size_t bytes)
{
    long reps = s->o->copy_reps;
    for (long k = 0; k <= reps; k++) {
        MPI_Barrier(MPI_COMM_WORLD);
        double t0 = MPI_Wtime();
        buf_set(s, s->dr, s->ds, 0, bytes);
        if (k) s->t[k - 1] = MPI_Wtime() - t0; /* k = 0 warms up */
    }
    MPI_Allreduce(s->t, s->tmax, (int)reps, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    bench_stats st;
    bench_summarise(s->tmax, (size_t)reps, &st);
    return gbps(bytes, st.median);
}

/* Watchdog deadlines. An iteration: exactly --timeout S when it is given (the user's bound on a hang);
 * by default 60 s (the first iteration of a size pays lazy connection setup, seconds at hundreds of
 * ranks, and 8 ranks share 2 cores in the tests, where a 64 MB iteration takes under a second) plus
 * 1 s per 10 MB, 10x below 1 GbE TCP (~110 MB/s), the slowest transport we expect, so only a hang
 * fires it. The phases that touch whole buffers (setup, test data, roofline) always get the per-byte
 * allowance on top of S. */
static double phase_timeout(const bench_allreduce_opts *o, size_t bytes)
{
    return o->timeout_s ? (double)o->timeout_s + (double)bytes / 10e6 : 0.0;
}

static double iteration_timeout(const bench_allreduce_opts *o, size_t bytes)
{
    return o->timeout_given ? (double)o->timeout_s : phase_timeout(o, bytes);
}

/* The timed loop of one algorithm and placement; fills row->st and row->wrong (on rank 0). */
static int time_one(ar_state *s, int a, int in_place, size_t count, ar_row *row)
{
    const bench_allreduce_opts *o = s->o;
    const size_t bytes = count * ddl_dtype_size(o->dtype);
    char what[WATCHDOG_DESC];
    int rc = 0;
    for (long it = 0; it < o->warmup + o->iters; it++) {
        if ((rc = restore(s, in_place, count))) {
            fprintf(stderr, "%s: rank %d: %s\n", o->cmd, s->rank, kern_dev_last_error());
            break;
        }
        snprintf(what, sizeof what, "%s %s %s-place iteration %ld, %zu bytes", o->cmd, o->algos[a],
                 in_place ? "in" : "out", it, bytes);
        watchdog_arm(iteration_timeout(o, bytes), what);
        guard_fault_point(s->rank, s->iteration++);
        MPI_Barrier(MPI_COMM_WORLD);
        double t0 = MPI_Wtime();
        rc = run_coll(s, a, in_place, count);
        guard_slow_point(s->rank);
        double t1 = MPI_Wtime();
        if (rc) break;
        if (it >= o->warmup) s->t[it - o->warmup] = t1 - t0;
    }
    snprintf(what, sizeof what, "%s %s %s-place %zu bytes: gathering times", o->cmd, o->algos[a],
             in_place ? "in" : "out", bytes);
    watchdog_arm(phase_timeout(o, bytes), what); /* also checks every element */
    int bad = rc != 0, anybad = 0;
    MPI_Allreduce(&bad, &anybad, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (anybad) {
        fprintf(stderr, "%s: rank %d: %s %zu bytes: %s\n", o->cmd, s->rank, o->algos[a], bytes,
                rc ? ddl_last_error() : "failed on another rank");
        return 1;
    }
    MPI_Allreduce(s->t, s->tmax, (int)o->iters, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    if (o->per_rank) { /* this rank's own times (sorted in place: no longer needed) */
        bench_stats own;
        bench_summarise(s->t, (size_t)o->iters, &own);
        double mine[3] = { own.median, own.min, own.p99 };
        MPI_Gather(mine, 3, MPI_DOUBLE, s->ranks, 3, MPI_DOUBLE, 0, MPI_COMM_WORLD);
        row->ranks = s->ranks;
    }
    long wrong = 0;
    if (o->check) {
        const void *in = s->sbuf; /* device: the result, then the input, copied through rbuf */
        if (o->device && (kern_dev_copy(s->rbuf, s->dr, bytes, NULL) || kern_stream_sync(NULL))) wrong = (long)count;
        wrong += check_result(s, count, s->rbuf);
        if (o->device && !in_place && (kern_dev_copy(s->rbuf, s->ds, bytes, NULL) || kern_stream_sync(NULL)))
            wrong += (long)count;
        if (o->device) in = s->rbuf;
        if (!in_place) wrong += check_input(s, count, in);
    }
    MPI_Reduce(&wrong, &row->wrong, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    if (!o->check) row->wrong = -1; /* not checked: N/A */
    if (s->rank == 0) bench_summarise(s->tmax, (size_t)o->iters, &row->st);
    watchdog_disarm();
    return 0;
}

/* One message size: roofline, then every algorithm out-of-place and in-place (or the one --place names). */
static int run_size(ar_state *s, size_t count)
{
    const bench_allreduce_opts *o = s->o;
    ar_row row = { .count = count, .bytes = count * ddl_dtype_size(o->dtype) };
    char what[WATCHDOG_DESC];
    snprintf(what, sizeof what, "%s %zu bytes: test data and memcpy roofline", o->cmd, row.bytes);
    watchdog_arm(phase_timeout(o, row.bytes) * (double)(o->copy_reps + 2), what);
    fill(s, count);
    if (o->device && buf_set(s, s->ds, s->sbuf, 0, row.bytes)) {
        fprintf(stderr, "%s: rank %d: %s\n", o->cmd, s->rank, kern_dev_last_error());
        return 1;
    }
    row.copy_GBps = kern_simulated() ? 0 : copy_bandwidth(s, row.bytes); /* a simulated memcpy takes no time */
    for (int a = 0; a < o->nalgos; a++)
        for (int ip = o->place == BENCH_PLACE_IN; ip < (o->place == BENCH_PLACE_OUT ? 1 : 2); ip++) {
            if (time_one(s, a, ip, count, &row)) return 1;
            row.algo = o->label ? o->label : o->algos[a];
            row.place = ip ? "in" : "out";
            if (s->rank == 0) bench_emit_row(s, &row);
        }
    return 0;
}

static int setup(ar_state *s)
{
    const bench_allreduce_opts *o = s->o;
    size_t bytes = o->max_bytes, n = (size_t)o->iters > (size_t)o->copy_reps ? (size_t)o->iters : (size_t)o->copy_reps;
    s->sbuf = kern_buf_alloc(bytes);
    s->rbuf = kern_buf_alloc(bytes);
    s->t = malloc(n * sizeof *s->t);
    s->tmax = malloc(n * sizeof *s->tmax);
    if (o->per_rank && s->rank == 0) s->ranks = malloc(3 * (size_t)s->size * sizeof *s->ranks);
    s->ds = o->device ? NULL : s->sbuf, s->dr = o->device ? NULL : s->rbuf;
    int devfail = o->device && (device_pick_local() || kern_dev_alloc(&s->ds, bytes) || kern_dev_alloc(&s->dr, bytes));
    int nomem = !s->sbuf || !s->rbuf || !s->t || !s->tmax || devfail || (o->per_rank && s->rank == 0 && !s->ranks),
        any = 0;
    if (nomem)
        fprintf(stderr, "%s: rank %d: cannot allocate two %sbuffers of %zu bytes%s%s\n", o->cmd, s->rank,
                o->device ? "device " : "", bytes, o->device ? ": " : "", o->device ? kern_dev_last_error() : "");
    MPI_Allreduce(&nomem, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD); /* every rank leaves together */
    if (any) return 1;
    for (int a = 0; a < o->nalgos; a++) {
        ddl_config cfg = DDL_CONFIG_INIT;
        cfg.algo = o->algos[a];
        cfg.device = o->device;
        if (o->hook) { /* --platform: its links size the segments; auto's cost model */
            cfg.machine = &o->hook->m;
            cfg.cost = cost_hook_fn;
            cfg.cost_arg = o->hook;
        }
        int rc = ddl_ctx_create(MPI_COMM_WORLD, &cfg, &s->ctx[a]), worst = 0;
        MPI_Allreduce(&rc, &worst, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
        if (!worst) continue;
        /* a bad configuration (DDL_GRID, DDL_SEGMENT_BYTES, ...) is bad input: exit 2, one line */
        int input = worst == DDL_ERR_ARG || worst == DDL_ERR_GRID || worst == DDL_ERR_TOPO || worst == DDL_ERR_ALGO;
        const char *e = rc ? ddl_last_error() : "context creation failed on another rank";
        int g = !strncmp(e, "grid: ", 6), p = !strncmp(e, "patterns: ", 10); /* only the environment sets them here */
        if (s->rank == 0)
            fprintf(stderr, "%s: %s: %s%s\n", o->cmd, o->algos[a],
                    g   ? "DDL_GRID: "
                    : p ? "DDL_PATTERNS: "
                        : "",
                    e + (g   ? 6
                         : p ? 10
                             : 0));
        return input ? 2 : 1;
    }
    return 0;
}

int bench_allreduce_run(const bench_allreduce_opts *o)
{
    ar_state s = { .o = o };
    int rc = 0, any = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &s.rank);
    MPI_Comm_size(MPI_COMM_WORLD, &s.size);
    watchdog_arm(phase_timeout(o, o->max_bytes), "setup (buffers, contexts)");
    rc = setup(&s);
    MPI_Allreduce(&rc, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    watchdog_disarm();
    if ((rc = any)) goto out;
    rc = bench_open_csv(&s);
    MPI_Bcast(&rc, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (rc) goto out;
    if (s.rank == 0) bench_print_header(&s);
    if (s.size == 1 && !rank_launched() && !kern_simulated()) /* 1 rank: busbw 0 by definition */
        printf("# note: 1 rank, not started by a launcher: nothing is exchanged (busbw 0); run it under\n"
               "#       mpirun -np N (or harness/scripts/mpilaunch.sh N) for N ranks\n");
    for (size_t b = o->min_bytes; b <= o->max_bytes && !rc;
         b = b > o->max_bytes / (size_t)o->factor ? o->max_bytes + 1 : b * (size_t)o->factor) {
        /* reduce-scatter, allgather: whole elements per rank, as nccl-tests rounds */
        size_t count = b / ddl_dtype_size(o->dtype), p = o->coll == BENCH_ALLREDUCE ? 1 : (size_t)s.size;
        if (count / p) rc = run_size(&s, count / p * p);
        else if (s.rank == 0) printf("# %zu bytes: less than one element per rank, skipped\n", b);
    }
    if (s.rank == 0 && s.wrong_total) fprintf(stderr, "%s: %ld wrong elements\n", o->cmd, s.wrong_total);
    if (s.wrong_total) rc = 1;
    if (bench_close_csv(&s, rc == 0)) rc = 1;
    MPI_Bcast(&rc, 1, MPI_INT, 0, MPI_COMM_WORLD);
out:
    for (int a = 0; a < o->nalgos; a++) ddl_ctx_free(s.ctx[a]);
    if (o->device) kern_dev_free(s.ds), kern_dev_free(s.dr);
    kern_buf_free(s.sbuf);
    kern_buf_free(s.rbuf);
    free(s.t);
    free(s.tmax);
    free(s.ranks);
    free(s.csv_text);
    return rc;
}
