/* cli_train_out.c — what `ddlbench train` writes (cli_train.h): the table rows, each row against the
 * fastest (rounds.h's rule), the per-rank spread (--per-rank: stragglers by their own compute time, see
 * below), the projected time to train (labelled a projection away from the study's image size), and
 * the CSV text kept in memory and written whole as --csv and --json (results.h).
 * Why compute time for stragglers: a synchronous step ends for every rank when the last allreduce
 * does, so the ranks' step times agree whatever one rank does; a slow rank shows as longer compute
 * (forward and backward to the last gradient) while its peers wait in exposed communication. */
#include "cli_train.h"
#include "bench.h"
#include "results.h"
#include "workload.h"
#include "compute.h"
#include "perf_layer.h"
#include "shard_mem.h"

#include <stdlib.h>

static const char *const csv_header =
    "model,batch,image_size,ranks,algo,bucket_MB,buckets,step_ms_median,step_ms_min,step_ms_max,"
    "compute_ms,gemm_ms,nongemm_ms,comm_ms,exposed_ms,sgd_ms,other_ms,other_pct,images_per_s,wrong,"
    "papi_gemm_GFLOPps,papi_gemm_ipc,dataset,epochs,dataset_images,time_to_train_h,gpu_hours,"
    "rounds,samples,step_ms_q1,step_ms_q3,step_ms_iqr,vs_best_pct,significant";

/* The study's image side: time to train at another is a projection of this configuration only. */
#define STUDY_IMAGE 224

void train_compare_rows(train_row *rows, int n, int nrounds)
{
    int best = 0;
    for (int i = 1; i < n; i++)
        if (rows[i].step.median < rows[best].step.median) best = i;
    for (int i = 0; i < n; i++) {
        const train_row *b = &rows[best];
        rows[i].vs_best = rows[i].step.median / b->step.median - 1;
        rows[i].sig = n < 2       ? TRAIN_ALONE
                      : i == best ? TRAIN_BEST
                                  : rounds_differ(&rows[i].step, &b->step, rows[i].round_med, b->round_med, nrounds);
    }
}

void train_compare_exact(train_row *rows, int n)
{
    int best = 0;
    for (int i = 1; i < n; i++)
        if (rows[i].med[F_STEP] < rows[best].med[F_STEP]) best = i;
    for (int i = 0; i < n; i++) {
        rows[i].vs_best = rows[i].med[F_STEP] / rows[best].med[F_STEP] - 1;
        rows[i].sig = n < 2 ? TRAIN_ALONE : i == best ? TRAIN_BEST : ROUNDS_DIFFER; /* no noise: no mark */
    }
}

/* The vs_best cell: best, +x.x%, +x.x%(ns), +x.x%(NA), - alone. */
static void vs_best_cell(const train_row *r, char *out, size_t len)
{
    if (r->sig == TRAIN_ALONE) snprintf(out, len, "-");
    else if (r->sig == TRAIN_BEST) snprintf(out, len, "best");
    else
        snprintf(out, len, "%+.1f%%%s", 100 * r->vs_best,
                 r->sig == ROUNDS_SAME ? "(ns)"
                 : r->sig == ROUNDS_NA ? "(NA)"
                                       : "");
}

const char *train_effects_line(const train_opts *o, char *buf, size_t len)
{
    size_t at = 0;
#define ADD(...) (at < len ? (at += (size_t)snprintf(buf + at, len - at, __VA_ARGS__)) : at)
    buf[0] = '\0';
    if (o->jitter_pct > 0) ADD("; jitter %g%% (Exp, seed %ld)", o->jitter_pct, o->seed);
    if (o->cycle_ms > 0) ADD("; Horovod cycles of %g ms, --bucket-mb the fusion cap", o->cycle_ms);
    if (o->call_us > 0) ADD("; %g us a call", o->call_us);
    if (o->contention_pct > 0) ADD("; compute %g%% slower beside an allreduce", o->contention_pct);
    if (o->comm_contention_pct > 0) ADD("; allreduces %g%% slower beside compute", o->comm_contention_pct);
    if (o->overlap_from_pct > 0) ADD("; overlap from %g%% of the gradients", o->overlap_from_pct);
#undef ADD
    return buf;
}

void train_print_header(FILE *f, const train_opts *o, int size, const char *jline)
{
    fprintf(f,
            "# ddlbench train: %s batch %ld image %ld, %d ranks, %ld warm-up + %ld timed steps%s x %ld round%s%s, "
            "compute %s\n",
            o->model, o->batch, o->image, size, o->warmup, o->steps, o->check ? ", checking gradients" : "", o->rounds,
            o->rounds > 1 ? "s (interleaved: each round runs every configuration once, in turn)" : "", jline,
            o->full ? "full" : "gemm");
    if (kern_simulated() && o->shape && (perf_layer_shaped(o->shape) || o->compute_scale > 0)) {
        char cm[400];
        fprintf(f, "# compute model: %s\n", train_compute_model(o, o->shape, cm, sizeof cm));
    }
    fprintf(
        f,
        "# times in ms over rounds x steps: the median step, min, max and IQR (q3 - q1); its breakdown is the\n"
        "# median step's own, on the rank whose step was longest: step = gemm + nongemm + exposed + sgd + other\n"
        "# (other: the harness's own time); compute = gemm + nongemm + the harness's time before the last\n"
        "# gradient; comm = allreduce busy time, overlapped or not. vs_best: against the fastest, (ns) = not\n"
        "# significant (within the larger IQR or 0.1%%, or a round ordered them otherwise), (NA) = under %d samples\n"
        "#  algo bucket bkts   step_ms       min       max       iqr   compute      gemm   nongemm      comm   exposed "
        "      sgd     other    vs_best   images/s  wrong\n",
        ROUNDS_MIN_SAMPLES);
}

static void print_na(FILE *f, double v, const char *fmt)
{
    if (v < 0) fputs(",NA", f);
    else fprintf(f, fmt, v);
}

/* The spread of the ranks' own compute medians; 0, or -1 out of memory. */
static int spread(const train_row *r, int size, bench_ranks *br)
{
    double *c = malloc((size_t)size * sizeof *c);
    for (int k = 0; c && k < size; k++) c[k] = r->ranks[k * TR_FIELDS + F_COMPUTE];
    int rc = !c || bench_rank_spread(c, size, br) ? -1 : 0;
    free(c);
    return rc;
}

/* The per-rank columns of the summary row, then one CSV line per rank (its own medians). */
static void print_rank_rows(FILE *f, const train_opts *o, int size, const train_row *r)
{
    bench_ranks br;
    if (spread(r, size, &br)) {
        fputs(",all,NA,NA,NA,NA\n", f);
        return;
    }
    char cell[16];
    fprintf(f, ",all,%d,%.4f,%.4f,%s\n", br.slowest, br.lag * 1e3, br.mad * 1e3,
            bench_stragglers_cell(&br, br.stragglers, cell));
    for (int k = 0; k < size; k++) {
        const double *m = r->ranks + (size_t)k * TR_FIELDS;
        fprintf(f, "%s,%ld,%ld,%d,%s,%ld,%d", o->model, o->batch, o->image, size, r->algo, r->bucket_mb, r->buckets);
        fprintf(f, ",%.4f,%.4f,%.4f", m[F_STEP] * 1e3, m[F_COUNT] * 1e3, m[F_COUNT + 1] * 1e3);
        for (int x = F_COMPUTE; x < F_COUNT; x++) fprintf(f, ",%.4f", m[x] * 1e3);
        fprintf(f, ",%.3f,NA,NA,NA,NA,NA,NA,NA,NA,NA,NA,NA,NA,NA,NA,NA,NA",
                m[F_STEP] > 0 ? 100 * m[F_OTHER] / m[F_STEP] : 0.0);
        fprintf(f, ",%d,NA,%.4f,NA,%s\n", k, (m[F_COMPUTE] - br.median) * 1e3,
                bench_stragglers_cell(&br, bench_rank_straggler(&br, m[F_COMPUTE]), cell));
    }
}

static void print_csv_row(FILE *f, const train_opts *o, int size, const train_row *r)
{
    const double *m = r->med;
    const workload *w = workload_of(o->model);
    double h = workload_hours(w, r->images_per_s);
    char wrong[24];
    snprintf(wrong, sizeof wrong, r->wrong < 0 ? "NA" : "%ld", r->wrong);
    fprintf(f, "%s,%ld,%ld,%d,%s,%ld,%d,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f,%.3f,%.2f,%s", o->model,
            o->batch, o->image, size, r->algo, r->bucket_mb, r->buckets, m[F_STEP] * 1e3, r->step_min * 1e3,
            r->step_max * 1e3, m[F_COMPUTE] * 1e3, m[F_GEMM] * 1e3, m[F_NONGEMM] * 1e3, m[F_COMM] * 1e3,
            m[F_EXPOSED] * 1e3, m[F_SGD] * 1e3, m[F_OTHER] * 1e3, 100 * m[F_OTHER] / m[F_STEP], r->images_per_s,
            wrong);
    print_na(f, r->gflops, ",%.3f");
    print_na(f, r->ipc, ",%.3f");
    if (w && h >= 0) fprintf(f, ",%s,%d,%ld,%.4f,%.3f", w->dataset, w->epochs, w->images, h, h * size);
    else fputs(",NA,NA,NA,NA,NA", f);
    fprintf(f, ",%ld,%zu,%.4f,%.4f,%.4f", o->rounds, r->step.n, r->step.q1 * 1e3, r->step.q3 * 1e3,
            (r->step.q3 - r->step.q1) * 1e3);
    if (r->sig == TRAIN_ALONE) fputs(",NA,NA", f);
    else
        fprintf(f, ",%.3f,%s", 100 * r->vs_best,
                r->sig == TRAIN_BEST      ? "best"
                : r->sig == ROUNDS_DIFFER ? "yes"
                : r->sig == ROUNDS_SAME   ? "no"
                                          : "NA");
    if (r->ranks) print_rank_rows(f, o, size, r);
    else fputc('\n', f);
}

void train_print_row(FILE *f, int csv, const train_opts *o, int size, const train_row *r)
{
    const double *m = r->med;
    bench_ranks br;
    if (csv) {
        print_csv_row(f, o, size, r);
        return;
    }
    char wrong[24];
    snprintf(wrong, sizeof wrong, r->wrong < 0 ? "N/A" : "%ld", r->wrong);
    char vs[32];
    vs_best_cell(r, vs, sizeof vs);
    fprintf(f, "%6s %6ld %5d %9.2f %9.2f %9.2f %9.2f %9.2f %9.2f %9.2f %9.2f %9.2f %9.2f %9.2f %10s %10.1f %6s\n",
            r->algo, r->bucket_mb, r->buckets, m[F_STEP] * 1e3, r->step_min * 1e3, r->step_max * 1e3,
            (r->step.q3 - r->step.q1) * 1e3, m[F_COMPUTE] * 1e3, m[F_GEMM] * 1e3, m[F_NONGEMM] * 1e3, m[F_COMM] * 1e3,
            m[F_EXPOSED] * 1e3, m[F_SGD] * 1e3, m[F_OTHER] * 1e3, vs, r->images_per_s, wrong);
    if (o->shard || o->optim) { /* SHARD_*, OPTIM_* (shard_mem.h): what the trainer keeps (trainer_memory) */
        fprintf(f, "#   memory per rank, allocated: parameters %.3f MB (+ %.3f MB gathered), gradients %.3f MB, "
                "optimizer state %.3f MB%s\n", r->mem[0] / 1e6, r->mem[1] / 1e6, r->mem[2] / 1e6, r->mem[3] / 1e6,
                o->optim == OPTIM_ADAM   ? " (Adam's m and v)"
                : o->optim == OPTIM_LAMB ? " (LAMB's m and v, its norms)"
                : o->full                ? " (the SGD velocities)"
                                         : " (gemm mode: plain SGD, none)");
        fprintf(f, "#   memory per rank, the model (ddlbench model memory): parameters %.3f MB, gradients %.3f MB, "
                "optimizer state %.3f MB\n", r->model_mem[0] / 1e6, r->model_mem[1] / 1e6, r->model_mem[2] / 1e6);
    }
    if (!r->ranks || spread(r, size, &br)) return;
    fprintf(f, "#   ranks' own compute: median %.2f ms, MAD %.2f ms, slowest rank %d (%+.2f ms); stragglers:",
            br.median * 1e3, br.mad * 1e3, br.slowest, br.lag * 1e3);
    for (int k = 0; k < size; k++)
        if (br.judged && bench_rank_straggler(&br, r->ranks[(size_t)k * TR_FIELDS + F_COMPUTE])) fprintf(f, " %d", k);
    fprintf(f, "%s\n", br.stragglers ? "" : bench_stragglers_none(&br));
}

void train_print_comparison(FILE *f, const train_opts *o, const train_row *rows, int n)
{
    int best = -1;
    for (int i = 0; i < n; i++)
        if (rows[i].sig == TRAIN_BEST) best = i;
    if (best < 0) return;
    const train_row *b = &rows[best];
    fprintf(f, "# against the fastest, %s %ld MB (median %.2f ms, IQR %.2f ms over %zu steps in %ld round%s):\n",
            b->algo, b->bucket_mb, b->step.median * 1e3, (b->step.q3 - b->step.q1) * 1e3, b->step.n, o->rounds,
            o->rounds > 1 ? "s" : "");
    for (int i = 0; i < n; i++) {
        const train_row *r = &rows[i];
        if (i == best) continue;
        double d = (r->step.median - b->step.median) * 1e3, iq = (r->step.q3 - r->step.q1) * 1e3,
               ib = (b->step.q3 - b->step.q1) * 1e3;
        double spread = iq > ib ? iq : ib;
        fprintf(f, "#   %s %ld MB vs %s %ld MB: %+.2f ms (%+.1f%%): ", r->algo, r->bucket_mb, b->algo, b->bucket_mb, d,
                100 * r->vs_best);
        if (r->sig == ROUNDS_NA)
            fprintf(f, "not assessed (under %d timed steps%s)\n", ROUNDS_MIN_SAMPLES,
                    kern_simulated() ? "; a simulated step repeats exactly, so the difference is exact"
                                     : "; run more --steps");
        else if (r->sig == ROUNDS_DIFFER)
            fprintf(f, "significant (beyond the larger IQR, %.2f ms%s)\n", spread,
                    o->rounds > 1 ? ", and so in every round" : "");
        else if (d <= ROUNDS_FLOOR * b->step.median * 1e3)
            fprintf(f, "not significant (under %g%% of the step)\n", ROUNDS_FLOOR * 100);
        else if (d <= spread)
            fprintf(f, "not significant (within the larger IQR, %.2f ms)\n", spread);
        else
            fprintf(f, "not significant (beyond the larger IQR, %.2f ms, but a round ordered them the other way)\n",
                    spread);
    }
}

void train_print_time_to_train(FILE *f, const train_opts *o, int size, const train_row *rows, int n)
{
    const workload *w = workload_of(o->model);
    char t[32], st[32];
    if (!w || !n) return;
    int study = o->image == STUDY_IMAGE; /* the study's figure is for its image size only */
    workload_fmt_time(w->study_hours, st, sizeof st);
    if (study)
        fprintf(f, "# time to train: %s, %d epochs of %s (%ld images; epochs %s); %s\n", o->model, w->epochs,
                w->dataset, w->images, w->epochs_note, WORKLOAD_ASSUMPTIONS);
    else
        fprintf(f,
                "# time to train, a projection of this configuration only (image %ld, not the study's %d: not "
                "comparable with\n"
                "# the study's time): %s, %d epochs of %s (%ld images; epochs %s); %s\n",
                o->image, STUDY_IMAGE, o->model, w->epochs, w->dataset, w->images, w->epochs_note,
                WORKLOAD_ASSUMPTIONS);
    for (int i = 0; i < n; i++) {
        double h = workload_hours(w, rows[i].images_per_s);
        workload_fmt_time(h, t, sizeof t);
        fprintf(f, "#   %-6s bucket %4ld MB: %9.1f images/s on %d GPUs -> %s, %.1f GPU-hours", rows[i].algo,
                rows[i].bucket_mb, rows[i].images_per_s, size, t, h * size);
        if (w->study_hours > 0 && study) fprintf(f, "   (study: %s on %d GPUs)", st, w->study_gpus);
        else if (!study) fprintf(f, "   (projection at image %ld)", o->image);
        fputc('\n', f);
    }
}

int train_write_results(const run_meta *meta, const train_opts *o, int size, const train_row *rows, int n)
{
    char *text = NULL, err[300];
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f) {
        fprintf(stderr, "ddlbench train: out of memory for the CSV text\n");
        return 1;
    }
    meta_write(f, meta);
    fprintf(f, "%s%s\n", csv_header, o->per_rank ? ",rank,slowest_rank,lag_ms,mad_ms,stragglers" : "");
    for (int i = 0; i < n; i++) train_print_row(f, 1, o, size, &rows[i]);
    int rc = fclose(f) ? (snprintf(err, sizeof err, "out of memory for the CSV text"), 1)
                       : results_write(o->csv, o->json, "train", text, len, err, sizeof err);
    if (rc) fprintf(stderr, "ddlbench train: %s\n", err);
    free(text);
    return rc ? 1 : 0;
}
