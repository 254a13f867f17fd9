/* cli_study_out.c — what `ddlbench study` prints and writes (cli_study.h); the figures: the study
 * engine (harness/sim/study.h). */
#include "cli_study.h"

#include "csv.h"
#include "outfile.h"
#include "workload.h"

#include <stdio.h>
#include <string.h>

/* "time to train (90 epochs x 1281167 images of ImageNet-1K): 55 min at the band's low end (92.5%), ..." */
void study_ttt_line(const study_opts *o, const figure *fig, const corner *c, int n, char *buf, size_t len)
{
    const workload *w = workload_of(fig->model);
    double h[3], lo, hi;
    char t[3][32];
    if (study_band_hours(&o->run, fig, c, n, h)) {
        snprintf(buf, len, "time to train: no workload for %s", fig->model);
        return;
    }
    study_band(c, n, &lo, &hi);
    for (int k = 0; k < 3; k++) workload_fmt_time(h[k], t[k], (int)sizeof t[k]);
    snprintf(buf, len, "time to train (%d epochs x %ld images of %s, %s; %s): %s at the band's low end (%.1f%%), "
                       "%s at its high end (%.1f%%), %s at the centre; published: %s",
             w->epochs, w->images, w->dataset, w->epochs_note, WORKLOAD_ASSUMPTIONS, t[0], lo, t[1], hi, t[2],
             fig->time_source);
}

void study_print_corners(FILE *f, int md, const study_opts *o, const figure *fig, const corner *c, int n)
{
    if (md)
        fprintf(
            f,
            "| platform | overlap | batch | allreduces | step at %d GPUs (ms) | step at %d GPUs (ms) | exposed comm "
            "(ms) | efficiency vs %d GPUs | vs 1 GPU | cycles cost (points) | stragglers cost (points) | "
            "partial overlap cost (points) |\n|---|---|---|---|---|---|---|---|---|---|---|---|\n",
            fig->baseline, study_scale(&o->run, fig), fig->baseline);
    char cn[96];
    for (int i = 0; i < n; i++)
        fprintf(f, md ? "| %s | %s | %d | %d | %.1f | %.1f | %.1f | %.1f%% | %.1f%% | %.1f | %.1f | %.1f |\n"
                      : "  %-18s %-4s %5d %4d %10.1f %10.1f %10.1f %7.1f %7.1f %5.1f %5.1f %5.1f\n",
                study_corner_name(&c[i], cn, sizeof cn), c[i].overlap ? "on" : "off", c[i].batch, c[i].full.allreduces,
                c[i].base.step_s * 1e3, c[i].full.step_s * 1e3, c[i].full.exposed_s * 1e3, c[i].eff, c[i].eff1,
                c[i].share[0], c[i].share[1], c[i].share[2]);
}

/* "effects: Horovod's cycles of 5 ms (fused up to 64 MiB); stragglers 0.2% (source)" or "effects: none (ideal)" */
const char *study_effects_desc(const figure *fig, char *buf, size_t len)
{
    int at = snprintf(buf, len, "effects:");
    if (fig->cycle_ms > 0 && at >= 0 && (size_t)at < len)
        at += snprintf(buf + at, len - (size_t)at, " Horovod's cycles of %g ms, fused up to the %d MiB cap, on the "
                       "overlapped corners;", fig->cycle_ms, fig->bucket_mb);
    if (fig->jitter_pct > 0 && at >= 0 && (size_t)at < len)
        at += snprintf(buf + at, len - (size_t)at, " stragglers, %g%% mean extra GEMM time per rank and step (%s);",
                       fig->jitter_pct, fig->jitter_source);
    if (fig->overlap_from_pct > 0 && at >= 0 && (size_t)at < len)
        at += snprintf(buf + at, len - (size_t)at,
                       " partial overlap, nothing enqueued before %g%% of the gradients are "
                       "ready, on the overlapped corners (%s);",
                       fig->overlap_from_pct, fig->overlap_source);
    if (!(fig->cycle_ms > 0) && !(fig->jitter_pct > 0) && !(fig->overlap_from_pct > 0) && at >= 0 && (size_t)at < len)
        snprintf(buf + at, len - (size_t)at, " none (ideal: buckets as they complete, no stragglers)");
    else if (at > 0 && (size_t)at <= len && buf[at - 1] == ';') buf[at - 1] = '\0';
    return buf;
}

const char *study_verdict(double lo, double hi, double pub, char *buf, size_t len)
{
    double centre = (lo + hi) / 2;
    snprintf(buf, len, "band %.1f-%.1f%%, centre %.1f%%; published %.0f%% %s the band, %+.1f points from the centre",
             lo, hi, centre, pub, study_inside(lo, hi, pub) ? "inside" : "OUTSIDE", pub - centre);
    return buf;
}

const char *study_verdict_of(const study_opts *o, int k, double lo, double hi, char *buf, size_t len)
{
    char stem[64];
    if (o->compared[k]) return study_verdict(lo, hi, o->figs[k].published, buf, len);
    profile_stem(o->profile, stem, sizeof stem);
    snprintf(buf, len, "band %.1f-%.1f%%, centre %.1f%%; published %.0f%% on %s GPUs: not compared with profile %s "
             "(another GPU)", lo, hi, (lo + hi) / 2, o->figs[k].published, o->gpu[k], stem);
    return buf;
}

const char *study_compute_desc(const study_opts *o, int k, char *buf, size_t len)
{
    const figure *fg = &o->figs[k];
    if (!fg->single_batch) snprintf(buf, len, "compute: the profile's");
    else if (fg->single_img_s > 0)
        snprintf(buf, len, "compute: the profile's rates x%.2f, to the published single GPU's %g images/s at batch %d "
                 "(%s)", o->compute_scale[k], fg->single_img_s, fg->single_batch, fg->single_source);
    else
        snprintf(buf, len, "compute: the profile's rates x%.2f, to the published single GPU's backward pass of %g ms "
                 "at batch %d (%s)", o->compute_scale[k], fg->single_backward_ms, fg->single_batch, fg->single_source);
    size_t at = strlen(buf);
    if (fg->single_batch && (fg->nheld || fg->nfixed || fg->graphs_set || fg->ngk || fg->nk) &&
        at < len) /* study.c's variant */
        snprintf(buf + at, len - at, "; the scale for the profile as it is, each corner with another bn_held, "
                 "cuda_graphs, step_fixed_us, graph_kernel_us or kernel_us pinned again");
    return buf;
}

/* "Points lost (of 100), over the corners: 21.3-25.0 compute at 50 a GPU (vs 400), 2.9-7.6 exposed
 * communication; at the band's low end 25.0 + 7.6, at its high end 21.3 + 2.9" (study_points_lost); entries with
 * Horovod's coordination or the epoch's units (study_points_terms) say its share of the communication and add the
 * epoch's padded last step as a third term. */
const char *study_lost_line(const figure *fig, const corner *c, int n, char *buf, size_t len)
{
    double v[4][2], x[4], end[2][3] = { { 0 } };
    int l = 0, h = 0, at;
    for (int k = 0; k < 4; k++) v[k][0] = 1e9, v[k][1] = -1e9;
    for (int i = 0; i < n; i++) { /* compute, communication, epoch, coordination */
        study_points_lost(fig, &c[i], &x[0], &x[1]), study_points_terms(fig, &c[i], &x[2], &x[3]);
        for (int k = 0; k < 4; k++)
            v[k][0] = x[k] < v[k][0] ? x[k] : v[k][0], v[k][1] = x[k] > v[k][1] ? x[k] : v[k][1];
        l = c[i].eff < c[l].eff ? i : l, h = c[i].eff > c[h].eff ? i : h;
    }
    for (int e = 0; n > 0 && e < 2; e++) {
        const corner *ce = &c[e ? h : l];
        study_points_lost(fig, ce, &end[e][0], &end[e][1]), study_points_terms(fig, ce, &end[e][2], &x[3]);
    }
    at = snprintf(buf, len, "Points lost (of 100), over the corners: %.1f-%.1f compute and per-step work at %d a GPU "
                  "(vs %d), %.1f-%.1f exposed communication", v[0][0], v[0][1], n > 0 ? c[0].batch : 0, fig->base_batch,
                  v[1][0], v[1][1]);
    if (fig->sync_bytes && at >= 0 && (size_t)at < len)
        at += snprintf(buf + at, len - (size_t)at, " (%.2f-%.2f of it Horovod's coordination)", v[3][0], v[3][1]);
    if (fig->epoch_examples && at >= 0 && (size_t)at < len)
        at += snprintf(buf + at, len - (size_t)at, ", %.2f-%.2f the epoch's padded last step", v[2][0], v[2][1]);
    for (int e = 0; e < 2 && at >= 0 && (size_t)at < len; e++) {
        at += snprintf(buf + at, len - (size_t)at, e ? ", at its high end %.1f + %.1f" : "; at the band's low end "
                       "%.1f + %.1f", end[e][0], end[e][1]);
        if (fig->epoch_examples && at >= 0 && (size_t)at < len)
            at += snprintf(buf + at, len - (size_t)at, " + %.1f", end[e][2]);
    }
    return buf;
}

/* OUT/study.csv (pass 0), OUT/report.md (pass 1) and OUT/bands.csv (pass 2: each entry's band, the
 * engine's study_band, for plots/study.gp); 0, or 2 with a message if path is too long. */
int study_out_path(const study_opts *o, int pass, char *path, size_t len)
{
    static const char *const name[STUDY_NOUT] = { "study.csv", "report.md", "bands.csv" };
    if (snprintf(path, len, "%s/%s", o->out, name[pass]) < (int)len) return 0;
    fprintf(stderr, "ddlbench study: --out: path too long\n");
    return 2;
}

/* "32" or "32 or 64": the batches a figure may have run with. */
static const char *batches(const figure *fig, char *buf, size_t len)
{
    if (fig->nbatches == 2) snprintf(buf, len, "%d or %d", fig->batches[0], fig->batches[1]);
    else snprintf(buf, len, "%d", fig->batch);
    return buf;
}

/* "--gpus 256 " when given, for the command lines the outputs quote. */
const char *study_gpus_flag(const study_opts *o, char *buf, size_t len)
{
    if (o->run.gpus) snprintf(buf, len, "--gpus %ld ", o->run.gpus);
    else buf[0] = '\0';
    return buf;
}

/* bands.csv: one row per entry, its band (study_band) and its published figure. */
static void write_bands(FILE *f, const study_opts *o, corner c[][MAX_CORNERS], const int *n)
{
    fprintf(f, "n,entry,lo,hi,centre,published\n");
    for (int k = 0; k < o->nfig; k++) {
        double lo, hi;
        study_band(c[k], n[k], &lo, &hi);
        char name[300];
        csv_format_cell(o->figs[k].name, name, sizeof name);
        fprintf(f, "%d,%s,%.2f,%.2f,%.2f,%.0f\n", k + 1, name, lo, hi, (lo + hi) / 2,
                o->figs[k].published);
    }
}

/* One of the files, written into f. */
static void write_one(FILE *f, int pass, const study_opts *o, const profile *pr, corner c[][MAX_CORNERS], const int *n)
{
    char v[200], t[800], g[32], bs[32], cd[500];
    if (pass == 2) {
        write_bands(f, o, c, n);
        return;
    }
    if (!pass)
        fprintf(f,
                "# ddlbench study %s--profile %s --bucket-mb %ld\nfigure,model,batch,algo,platform,"
                "overlap,buckets,baseline_gpus,step_base_ms,step_ms,exposed_ms,eff_pct,eff_vs_1gpu_pct,published_pct,"
                "time_to_train_h,published_h,gpus,entry,compute_x,cycles_pts,jitter_pts,overlap_pts,corner,"
                "compute_lost_pts,comm_lost_pts,epoch_lost_pts,sync_lost_pts\n",
                study_gpus_flag(o, g, sizeof g), o->profile, o->run.bucket_mb);
    else
        fprintf(
            f,
            "# Published scaling figures, predicted with bands\n\n`ddlbench study %s--profile %s --bucket-mb %ld` "
            "(`make study`): the alpha-beta-gamma step of harness/sim/perf_step.h for every entry of the catalogue "
            "(%s) on the platform files in %s, GEMM rate %.0f GFLOP/s and reduction cost %.5f ns/B. Every constant "
            "and its source: docs/SOURCES.md. The band of a figure spans its entry's unknowns (overlap off/on; its "
            "platform alternatives, e.g. 1 or 2 EDR ports for the Minsky); its centre is the middle of the band.\n\n",
            study_gpus_flag(o, g, sizeof g), o->profile, o->run.bucket_mb, o->catalogue, o->run.dir,
            pr->gemm_gflops_fp32, pr->reduce_ns_per_byte);
    for (int k = 0; k < o->nfig; k++) {
        const figure *fg = &o->figs[k];
        double lo, hi;
        study_band(c[k], n[k], &lo, &hi);
        if (pass) {
            char al[STUDY_MAX_ALGOS * 32 + STUDY_MAX_ALGOS] = ""; /* the algo alternatives, a|b|c */
            for (int i = 0; i < (fg->nalgos ? fg->nalgos : 1); i++)
                snprintf(al + strlen(al), sizeof al - strlen(al), "%s%s", i ? "|" : "",
                         fg->nalgos ? fg->algos[i] : fg->algo);
            fprintf(f,
                    "## %s\n\n%s, batch %s per GPU, %d GPUs, `%s%s%s` allreduce; published figure relative to %d "
                    "GPU(s) (docs/SOURCES.md %s; entry %s).\n\n",
                    fg->label, fg->model, batches(fg, bs, sizeof bs), study_scale(&o->run, fg), al,
                    *fg->patterns ? " --patterns " : "", fg->patterns, fg->baseline, fg->source, fg->name);
            fprintf(f, "%s.\n\n", study_compute_desc(o, k, cd, sizeof cd));
            fprintf(f, "%s.\n\n", study_effects_desc(fg, cd, sizeof cd));
            study_print_corners(f, 1, o, fg, c[k], n[k]);
            fprintf(f, "\n**%s.**\n\n", study_verdict_of(o, k, lo, hi, v, sizeof v));
            if (fg->global_batch) fprintf(f, "%s.\n\n", study_lost_line(fg, c[k], n[k], t, sizeof t));
            if (fg->published_hours > 0) {
                study_ttt_line(o, fg, c[k], n[k], t, sizeof t);
                fprintf(f, "Projected %s.\n\n", t);
            }
            continue;
        }
        char cl[600], cm[200], ca[200], cp[200], ce[300]; /* text cells quoted as RFC 4180 says (csv.h) */
        csv_format_cell(fg->label, cl, sizeof cl), csv_format_cell(fg->model, cm, sizeof cm);
        csv_format_cell(fg->name, ce, sizeof ce);
        for (int i = 0; i < n[k]; i++) {
            csv_format_cell(c[k][i].algo ? c[k][i].algo : fg->algo, ca, sizeof ca); /* the corner's */
            char h[32] = "NA"; /* no workload for the model: no time to train */
            double hours = workload_hours(workload_of(fg->model),
                                          (double)study_scale(&o->run, fg) * c[k][i].batch / c[k][i].full.step_s);
            if (hours >= 0) snprintf(h, sizeof h, "%.3f", hours);
            char cn[96], cq[200];
            double lc, le, lp, ls;
            csv_format_cell(c[k][i].platform, cp, sizeof cp);
            csv_format_cell(study_corner_name(&c[k][i], cn, sizeof cn), cq, sizeof cq);
            study_points_lost(fg, &c[k][i], &lc, &le), study_points_terms(fg, &c[k][i], &lp, &ls);
            const corner *q = &c[k][i];
            fprintf(f, "%s,%s,%d,%s,%s,%s,%d,%d,%.3f,%.3f,%.3f,%.2f,%.2f,%.0f,%s,%.3f,%d,%s,%.4f,%.2f,%.2f,%.2f,"
                    "%s,%.2f,%.2f,%.2f,%.3f\n", cl, cm, q->batch, ca, cp, q->overlap ? "on" : "off", q->full.allreduces,
                    fg->baseline, q->base.step_s * 1e3, q->full.step_s * 1e3, q->full.exposed_s * 1e3, q->eff, q->eff1,
                    fg->published, h, fg->published_hours, study_scale(&o->run, fg), ce, o->compute_scale[k],
                    q->share[0], q->share[1], q->share[2], cq, lc, le, lp, ls);
        }
    }
}

/* All the files, written whole or not at all (outfile.h). 0, or 1 with a message. */
int study_write_outputs(const study_opts *o, const profile *pr, corner c[][MAX_CORNERS], const int *n)
{
    char path[4096], err[700] = "";
    outfile f[STUDY_NOUT];
    int opened = 0, rc = 1;
    for (; opened < STUDY_NOUT; opened++) {
        if (study_out_path(o, opened, path, sizeof path) || outfile_open(&f[opened], path, err, sizeof err)) goto out;
        write_one(f[opened].f, opened, o, pr, c, n);
    }
    for (int k = 0; k < STUDY_NOUT; k++)
        if (outfile_close(&f[k], err, sizeof err)) goto out;
    for (int k = 0; k < STUDY_NOUT; k++)
        if (outfile_commit(&f[k], err, sizeof err)) goto out;
    rc = 0;
out:
    if (rc && *err) fprintf(stderr, "ddlbench study: %s\n", err);
    for (int k = 0; k < opened; k++) outfile_discard(&f[k]);
    return rc;
}

