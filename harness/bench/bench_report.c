/* bench_report.c — the rank-0 output of the collective benchmark (bench_allreduce.c runs the sweep):
 * the table on stdout and the CSV text kept in memory, written whole with --csv/--json at the end
 * (results.h), so a killed run leaves no file. */
#include "bench_run.h"
#include "devmem.h"
#include "meta.h"
#include "results.h"

#include <stdlib.h>

void bench_print_header(const ar_state *s)
{
    const bench_allreduce_opts *o = s->o;
    char desc[256];
    printf("# ddlbench %s: %d ranks, %s %s, warm-up %ld, iterations %ld, check %s\n", o->cmd, s->size,
           ddl_dtype_name(o->dtype), op_name(o), o->warmup, o->iters, o->check ? "on" : "off");
    for (int a = 0; a < o->nalgos; a++) {
        ddl_ctx_describe(s->ctx[a], desc, sizeof desc);
        printf("# %s%s%s: %s\n", o->label ? o->label : o->algos[a], o->label ? " = " : "",
               o->label ? o->algos[a] : "", desc);
    }
    if (o->device) printf("# buffers: device memory of %s; copy column: device-to-device copy\n", kern_dev_name());
    if (o->coll != BENCH_ALLREDUCE)
        printf("# size_B: the whole vector (nccl-tests); count = p x %s, the elements in all\n",
               o->coll == BENCH_REDUCE_SCATTER ? "recvcount" : "sendcount");
    printf("# time: max over ranks per iteration, then median (min, p99) over iterations; "
           "busbw = algbw*%s/p\n"
           "# roofline: copy = memcpy GB/s of the same bytes on every rank at once (median of %ld); "
           "bus/copy = busbw/copy\n#\n", o->coll == BENCH_ALLREDUCE ? "2(p-1)" : "(p-1)", o->copy_reps);
    printf("# %10s %10s %8s %4s %-22s %5s %10s %10s %10s %7s %7s %7s %8s %7s\n", "size_B", "count", "type",
           "op", "algo", "place", "time_us", "min_us", "p99_us", "algbw", "busbw", "copy", "bus/copy",
           "#wrong");
    printf("# %10s %10s %8s %4s %-22s %5s %10s %10s %10s %7s %7s %7s %8s %7s\n", "(B)", "(elems)", "", "", "",
           "", "(median)", "", "", "(GB/s)", "(GB/s)", "(GB/s)", "", "");
    fflush(stdout);
}

/* --per-rank: the spread line under the table row, the summary columns of the CSV row, then one CSV
 * row per rank (its own median, min, p99; the columns that have no per-rank value read NA). */
static void emit_ranks(ar_state *s, const ar_row *r)
{
    const bench_allreduce_opts *o = s->o;
    bench_ranks br;
    double *med = malloc((size_t)s->size * sizeof *med);
    for (int k = 0; med && k < s->size; k++) med[k] = r->ranks[3 * k];
    int nomem = !med || bench_rank_spread(med, s->size, &br);
    free(med);
    if (nomem) {
        fprintf(stderr, "%s: out of memory for the per-rank summary\n", o->cmd);
        if (s->csv) fputs(",all,NA,NA,NA,NA\n", s->csv);
        return;
    }
    printf("#   ranks' own medians: median %.1f us, MAD %.1f us, slowest rank %d (%+.1f us); stragglers:",
           br.median * 1e6, br.mad * 1e6, br.slowest, br.lag * 1e6);
    for (int k = 0; k < s->size; k++)
        if (br.judged && bench_rank_straggler(&br, r->ranks[3 * k])) printf(" %d", k);
    printf("%s\n", br.stragglers ? "" : bench_stragglers_none(&br));
    if (!s->csv) return;
    char cell[16];
    fprintf(s->csv, ",all,%d,%.3f,%.3f,%s\n", br.slowest, br.lag * 1e6, br.mad * 1e6,
            bench_stragglers_cell(&br, br.stragglers, cell));
    for (int k = 0; k < s->size; k++) {
        const double *t = r->ranks + 3 * k;
        double alg = gbps(r->bytes, t[0]);
        fprintf(s->csv, "%zu,%zu,%s,%s,%s,%s,%d,%ld,%.3f,%.3f,%.3f,%.4f,%.4f,NA,NA,NA,%d,NA,%.3f,NA,%s\n", r->bytes,
                r->count, ddl_dtype_name(o->dtype), op_name(o), r->algo, r->place, s->size, o->iters, t[0] * 1e6,
                t[1] * 1e6, t[2] * 1e6, alg, alg * bus_factor(o, s->size), k, (t[0] - br.median) * 1e6,
                bench_stragglers_cell(&br, bench_rank_straggler(&br, t[0]), cell));
    }
}

/* A value, or na where it was not measured (copy in simulation, wrong without -c 1: nccl-tests' N/A). */
static const char *cell(char *buf, size_t len, const char *fmt, double v, int measured, const char *na)
{
    if (!measured) return na;
    snprintf(buf, len, fmt, v);
    return buf;
}

void bench_emit_row(ar_state *s, const ar_row *r)
{
    const bench_allreduce_opts *o = s->o;
    double alg = gbps(r->bytes, r->st.median), bus = alg * bus_factor(o, s->size);
    int copied = r->copy_GBps > 0, checked = r->wrong >= 0;
    double ratio = copied ? bus / r->copy_GBps : 0.0;
    char c1[32], c2[32], c3[32], v1[32], v2[32], v3[32];
    printf("  %10zu %10zu %8s %4s %-22s %5s %10.1f %10.1f %10.1f %7.3f %7.3f %7s %8s %7s\n", r->bytes, r->count,
           ddl_dtype_name(o->dtype), op_name(o), r->algo, r->place, r->st.median * 1e6, r->st.min * 1e6,
           r->st.p99 * 1e6, alg, bus, cell(c1, sizeof c1, "%.3f", r->copy_GBps, copied, "N/A"),
           cell(c2, sizeof c2, "%.3f", ratio, copied, "N/A"),
           cell(c3, sizeof c3, "%.0f", (double)r->wrong, checked, "N/A"));
    if (bench_noisy(&r->st)) /* the rule: bench.h, allreduce --help */
        printf("#   noisy: p99 %.1fx and min %.2fx the median (beyond %gx): runs may differ as much; rerun, more -n\n",
               r->st.p99 / r->st.median, r->st.min / r->st.median, BENCH_NOISY_P99);
    fflush(stdout);
    if (s->csv)
        fprintf(s->csv, "%zu,%zu,%s,%s,%s,%s,%d,%ld,%.3f,%.3f,%.3f,%.4f,%.4f,%s,%s,%s%s", r->bytes, r->count,
                ddl_dtype_name(o->dtype), op_name(o), r->algo, r->place, s->size, o->iters, r->st.median * 1e6,
                r->st.min * 1e6, r->st.p99 * 1e6, alg, bus, cell(v1, sizeof v1, "%.4f", r->copy_GBps, copied, "NA"),
                cell(v2, sizeof v2, "%.4f", ratio, copied, "NA"),
                cell(v3, sizeof v3, "%.0f", (double)r->wrong, checked, "NA"), r->ranks ? "" : "\n");
    if (r->ranks) emit_ranks(s, r);
    if (checked) s->wrong_total += r->wrong;
}

int bench_open_csv(ar_state *s)
{
    if (s->rank != 0 || (!s->o->csv && !s->o->json)) return 0;
    if (!(s->csv = open_memstream(&s->csv_text, &s->csv_len))) {
        fprintf(stderr, "%s: out of memory for the CSV text\n", s->o->cmd);
        return 1;
    }
    if (s->o->meta) meta_write(s->csv, s->o->meta);
    fprintf(s->csv, "size_B,count,type,op,algo,placement,ranks,iters,time_us_median,time_us_min,time_us_p99,"
                    "algbw_GBps,busbw_GBps,copy_GBps,busbw_over_copy,wrong%s\n",
            s->o->per_rank ? ",rank,slowest_rank,lag_us,mad_us,stragglers" : "");
    return 0;
}

/* Ends the CSV text; writes --csv and --json (each whole) only when the whole run succeeded. */
int bench_close_csv(ar_state *s, int ok)
{
    char err[300];
    if (!s->csv) return 0;
    int bad = fclose(s->csv) != 0;
    s->csv = NULL;
    if (!ok) return 1;
    if (bad) snprintf(err, sizeof err, "out of memory for the CSV text");
    if (bad || results_write(s->o->csv, s->o->json, s->o->cmd, s->csv_text, s->csv_len, err, sizeof err)) {
        fprintf(stderr, "%s: %s\n", s->o->cmd, err);
        return 1;
    }
    return 0;
}
