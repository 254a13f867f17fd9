/* runner_config.c — one round of one `ddlbench train` configuration (algorithm x bucket size): a
 * context, a trainer, warm-up and timed steps; per step the figures of the rank whose step was longest
 * (whole: they add up); after the last round the statistics over rounds x steps (rounds.h), the
 * median step's breakdown, and with --per-rank each rank's own medians gathered on rank 0
 * (runner.h; the output: harness/cli/cli_train_out.c). */
#include "runner.h"
#include "counters.h"
#include "engine.h"
#include "guard.h"
#include "shard_mem.h"
#include "trainer.h"
#include "watchdog.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

framework train_framework(const train_opts *o, long bucket_mb)
{
    return (framework){ .cycle_s = o->cycle_ms / 1e3,
                        .fusion_bytes = o->cycle_ms > 0 ? (size_t)bucket_mb << 20 : 0,
                        .call_s = o->call_us / 1e6,
                        .contention = o->contention_pct / 100,
                        .comm_contention = o->comm_contention_pct / 100,
                        .overlap_from = o->overlap_from_pct / 100 };
}

/* The median of v[0..n) (stats.h's convention, through rounds_summarise), its min and max when asked. */
static double median_of(const double *v, size_t n, double *mn, double *mx)
{
    double *w = malloc(n * sizeof *w);
    rounds_stats s = { 0, 0, 0, 0, 0, 0 };
    if (w) rounds_summarise(v, n, w, &s); /* n is small (rounds x steps); out of memory reads 0 */
    free(w);
    if (mn) *mn = s.min;
    if (mx) *mx = s.max;
    return s.median;
}

/* This rank's counts of the timed steps of one round, added to r's. */
static void counter_add(double gemm_s, train_row *r)
{
    counters_totals c;
    counters_take(&c);
    r->cnt_na |= c.flops < 0 || c.ins < 0 || c.cyc < 0;
    r->cnt[0] += c.flops, r->cnt[1] += c.ins, r->cnt[2] += c.cyc, r->cnt[3] += gemm_s;
}

/* GFLOP/s and IPC of the GEMMs over the timed steps: every rank's counts summed over the ranks'
 * GEMM seconds (so a per-rank rate), NA (< 0) when any rank could not count. */
static void counter_rates(train_row *r)
{
    double sum[4], na = r->cnt_na, any;
    MPI_Allreduce(r->cnt, sum, 4, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(&na, &any, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    r->gflops = !any && sum[3] > 0 ? sum[0] / sum[3] * 1e-9 : -1;
    r->ipc = !any && sum[2] > 0 ? sum[1] / sum[2] : -1;
}

/* --per-rank: this rank's own medians (and step min, max) to rank 0's r->ranks; 0, or 1 out of memory. */
static int gather_ranks(const train_opts *o, double *own, train_row *r, char *err, size_t errlen)
{
    int rank, size, nomem = 0, any;
    size_t n = TRAIN_SAMPLES(o);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    double mine[TR_FIELDS];
    for (int f = 0; f < F_COUNT; f++)
        mine[f] =
            median_of(own + f * n, n, f == F_STEP ? &mine[F_COUNT] : NULL, f == F_STEP ? &mine[F_COUNT + 1] : NULL);
    if (rank == 0 && !(r->ranks = malloc((size_t)size * TR_FIELDS * sizeof *r->ranks))) nomem = 1;
    MPI_Bcast(&nomem, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (nomem) {
        if (rank == 0) snprintf(err, errlen, "out of memory for the per-rank times");
        return 1;
    }
    any = MPI_Gather(mine, TR_FIELDS, MPI_DOUBLE, r->ranks, TR_FIELDS, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    return any != MPI_SUCCESS;
}

/* One step's figures as the row counts them: those of the rank whose step was longest (the lowest
 * such rank), whole, so that they add up as each rank's do; into out[F_COUNT]. Collective. */
static void step_figures(const double *v, int rank, double *out)
{
    struct { double t; int r; } mine = { v[F_STEP], rank }, top;
    MPI_Allreduce(&mine, &top, 1, MPI_DOUBLE_INT, MPI_MAXLOC, MPI_COMM_WORLD);
    memcpy(out, v, F_COUNT * sizeof *out);
    MPI_Bcast(out, F_COUNT, MPI_DOUBLE, top.r, MPI_COMM_WORLD);
}

int train_run_config(const train_opts *o, const model *m, int a, int b, int round, double *samples, train_row *r,
                     char *desc, size_t desclen, char *errbuf, size_t errlen)
{
    ddl_config cfg = DDL_CONFIG_INIT;
    ddl_ctx *ctx = NULL;
    trainer *t = NULL;
    char err[256] = "";
    int rank, size, rc = 1;
    *desc = *errbuf = '\0';
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (round == 0) {
        memset(r, 0, sizeof *r);
        r->algo = o->algos[a];
        r->bucket_mb = o->bucket_mb[b];
    }
    cfg.algo = o->algos[a];
    cfg.grid = o->grid;
    cfg.patterns = o->patterns;
    cfg.poll_us = (int)o->poll_us; /* resolved by harness/cli/cli_train.c: --poll-us, DDL_POLL_US or the default */
    cfg.device = o->device;
    if (o->hook) { /* the platform's links: auto's cost model, and the segments' size (links.c) */
        cfg.cost = cost_hook_fn;
        cfg.cost_arg = o->hook;
        cfg.machine = &o->hook->m;
    }
    char what[WATCHDOG_DESC];
    char rnd[32] = ""; /* the watchdog's words: round 1 says none (as before rounds) */
    if (round) snprintf(rnd, sizeof rnd, " round %d", round + 1);
    snprintf(what, sizeof what, "train %s bucket-mb %ld%s setup", r->algo, r->bucket_mb, rnd);
    watchdog_arm((double)o->timeout_s, what);
    if (ddl_ctx_create(MPI_COMM_WORLD, &cfg, &ctx)) {
        const char *e = ddl_last_error(); /* name what the user typed: --grid or DDL_GRID, ... */
        int g = !strncmp(e, "grid: ", 6), p = !strncmp(e, "patterns: ", 10);
        if (rank == 0 && (g || p))
            snprintf(errbuf, errlen, "%s: %s",
                     g ? (o->grid ? "--grid" : "DDL_GRID") : (o->patterns ? "--patterns" : "DDL_PATTERNS"),
                     e + (g ? 6 : 10));
        else if (rank == 0) snprintf(errbuf, errlen, "%s", e);
        return 2;
    }
    if (rank == 0 && round == 0 &&
        (!strcmp(r->algo, "auto") || (o->device && a == 0 && b == 0))) { /* device=staged|cuda-aware */
        ddl_ctx_describe(ctx, desc, desclen);
    }
    step_config sc = { (size_t)o->bucket_mb[b] << 20, (size_t)o->first_mb << 20, o->check, 1e-6f, o->device,
                       o->precision, o->full, o->jitter_pct / 100, (unsigned long)o->seed,
                       train_framework(o, o->bucket_mb[b]), o->shape, o->compute_scale, o->shard,
                       o->grad_dtype, o->optim };
    int local = trainer_create(m, ctx, &sc, &t, err, sizeof err), any;
    MPI_Allreduce(&local, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (any) {
        if (local) snprintf(errbuf, errlen, "rank %d: %s", rank, err);
        goto out;
    }
    r->buckets = trainer_buckets(t);
    double mem[4];
    trainer_memory(t, &mem[0], &mem[1], &mem[2], &mem[3]);
    MPI_Allreduce(mem, r->mem, 4, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    shard_bytes sb; /* the model's formula for the same sharding, beside what was allocated */
    if (shard_mem(model_param_count(m), 0, o->shard, o->optim, PREC_FP32, size, &sb) == 0)
        r->model_mem[0] = sb.params, r->model_mem[1] = sb.grads, r->model_mem[2] = sb.state;
    if (o->warmup == 0) counters_take(&(counters_totals){ 0 });
    double gemm_s = 0, *base = samples + (size_t)round * (size_t)o->steps;
    size_t n = TRAIN_SAMPLES(o);
    long wrong = 0;
    for (long s = 0; s < o->warmup + o->steps; s++) {
        step_times st;
        char why[256];
        snprintf(what, sizeof what, "train %s bucket-mb %ld%s step %ld", r->algo, r->bucket_mb, rnd, s);
        watchdog_arm((double)o->timeout_s, what);
        guard_fault_point(rank, s);
        MPI_Barrier(MPI_COMM_WORLD);
        local = trainer_run(t, (int)s, &st, why, sizeof why);
        MPI_Allreduce(&local, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
        if (any) {
            if (local) snprintf(errbuf, errlen, "rank %d step %ld: %s", rank, s, why);
            goto out;
        }
        if (o->check) wrong += trainer_verify(t, (int)s);
        double v[F_COUNT] = { st.step_s, st.compute_s, st.gemm_s, st.nongemm_s,
                              st.comm_s, st.exposed_s, st.sgd_s,  st.other_s },
               top[F_COUNT];
        step_figures(v, rank, top);
        if (s >= o->warmup)
            for (int f = 0; f < F_COUNT; f++) {
                base[f * n + (size_t)(s - o->warmup)] = top[f];
                base[(F_COUNT + f) * n + (size_t)(s - o->warmup)] = v[f]; /* this rank's own */
            }
        if (s + 1 == o->warmup) counters_take(&(counters_totals){ 0 }); /* count the timed steps only */
        if (s >= o->warmup) gemm_s += st.gemm_s;
    }
    counter_add(gemm_s, r);
    long sum = 0;
    MPI_Allreduce(&wrong, &sum, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
    r->wrong = o->check ? r->wrong + sum : -1; /* not checked: NA, not 0 (nccl-tests prints N/A) */
    r->round_med[round] = median_of(base, (size_t)o->steps, NULL, NULL);
    rc = 0;
out:
    watchdog_disarm();
    trainer_free(t);
    ddl_ctx_free(ctx);
    return rc;
}

int train_finish_config(const train_opts *o, double *samples, train_row *r, char *err, size_t errlen)
{
    size_t n = TRAIN_SAMPLES(o);
    double *w = malloc(n * sizeof *w);
    *err = '\0';
    if (!w) {
        snprintf(err, errlen, "out of memory for the statistics");
        return 1;
    }
    counter_rates(r);
    rounds_summarise(samples, n, w, &r->step);
    rounds_median_breakdown(samples, F_COUNT, n, F_STEP, w, r->med);
    free(w);
    r->step_min = r->step.min, r->step_max = r->step.max;
    int size;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    r->images_per_s = (double)o->batch * size / r->step.median; /* = r->med[F_STEP] */
    r->sig = ROUNDS_NA, r->vs_best = 0;
    return o->per_rank && gather_ranks(o, samples + F_COUNT * n, r, err, errlen) ? 1 : 0;
}
