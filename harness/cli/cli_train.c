/* cli_train.c — `ddlbench train`: synthetic data-parallel training steps of a ResNet under MPI; this file
 * parses, calls the training runner (harness/train/runner.h) and prints.
 * Each algorithm (-a list) x bucket size (--bucket-mb list) is a configuration; they run interleaved in
 * --rounds rounds (A B A B: each round every configuration's warm-up and timed steps once, rounds.h).
 * Per step the figures are those of the rank whose step was longest; the table shows, over rounds x
 * steps, the median step, its spread (min, max, IQR) and the median step's own breakdown (it adds
 * up), each row against the fastest (significant or not), then the time to train (workload.h). --csv
 * and --json write the same rows (cli_train_out.c: temporary files, renamed). */
#include "cli.h"
#include "cli_rows.h"
#include "cli_train.h"
#include "compute.h"
#include "device_pick.h"
#include "parse.h"
#include "profile.h"
#include "sgd.h"
#include "sim.h"
#include "engine.h"
#include "gbatch.h"
#include "wire.h"
#include "counters.h"
#include "devmem.h"
#include "gemm.h"
#include "meta.h"
#include "trainer.h"
#include "guard.h"
#include "opts.h"
#include "outfile.h"
#include "platform.h"
#include "watchdog.h"
#include "rank.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A context's description, where the runner gives one (rank 0). */
static void context_line(const train_runner *r, const char *desc, void *arg)
{
    (void)r, (void)arg;
    printf("# %s\n", desc);
}

/* After every configuration's round: rank 0 prints the round's median steps (with --rounds > 1). */
static void round_line(const train_runner *r, int round, void *arg)
{
    (void)arg;
    if (r->rank != 0 || r->o->rounds < 2) return;
    printf("# round %d of %ld, median step:", round + 1, r->o->rounds);
    for (int k = 0; k < r->nconf; k++)
        printf(" %s/%ld %.2f ms%s", r->rows[k].algo, r->rows[k].bucket_mb, r->rows[k].round_med[round] * 1e3,
               k + 1 < r->nconf ? "," : "\n");
    fflush(stdout);
}

/* The network at o's per-GPU batch, and (real CPU runs) its memory checked. 0, or 2 with err. */
static int build_model(const train_opts *o, model **m, char *err, size_t errlen)
{
    if (model_create(o->model, (int)o->batch, (int)o->image, m, err, errlen)) return 2;
    /* simulated operands take address space only (mem.h) */
    if (!o->device && !kern_simulated() &&
        guard_mem_check(guard_model_bytes(*m, o->full), o->global_batch ? "--global-batch x --image-size"
                        : "--batch x --image-size", "a smaller batch or image", err, errlen))
        return 2;
    return 0;
}

/* --global-batch, once the ranks are known (gbatch.h): the per-GPU batch, the network, the provenance
 * line. Every rank computes the same split; rank 0 says what is wrong. 0, or 2 with err (rank 0). */
static int global_batch(train_runner *r, model **m, char *err, size_t errlen)
{
    train_opts *o = r->o;
    char line[200];
    int rc = gbatch_split(o->global_batch, r->size, CLI_BATCH_MAX, "--global-batch", &o->batch, NULL, err, errlen);
    if (!rc) rc = build_model(o, m, err, errlen);
    if (rc) {
        if (r->rank) *err = '\0';
        return 2;
    }
    r->m = *m;
    gbatch_describe(o->global_batch, r->size, line, sizeof line);
    meta_add(&r->meta, "global_batch", line);
    if (r->rank == 0) printf("# %s (strong scaling)\n", line);
    return 0;
}

int cli_train_main(int argc, char **argv)
{
    train_opts o;
    model *m = NULL;
    char ferr[700], jline[256];
    int rc = train_parse_opts(argc, argv, &o, ferr, sizeof ferr);
    if (rc == OPTS_HELP) return 0;
    if (rc) {
        fprintf(stderr, "ddlbench train: %s\n", ferr);
        return rc;
    }
    if (guard_fault_init(ferr, sizeof ferr)) {
        fprintf(stderr, "ddlbench train: %s\n", ferr);
        return 2;
    }
    if ((o.csv && outfile_check("--csv", o.csv, ferr, sizeof ferr)) ||
        (o.json && outfile_check("--json", o.json, ferr, sizeof ferr))) { /* before any work */
        fprintf(stderr, "ddlbench train: %s\n", ferr);
        return 2;
    }
    if (!kern_simulated() && o.images_per_s) {
        fprintf(stderr, "ddlbench train: --images-per-s: pins the simulation's compute (ddlbench-sim) and `model "
                "train`'s; a real run measures its own\n");
        return 2;
    }
    if (!kern_simulated() && train_fw_asked(&o)) {
        fprintf(stderr, "ddlbench train: %s: modelled by the simulation (ddlbench-sim) and `model train` only; a real "
                "run pays its own framework's costs\n",
                o.cycle_ms > 0 ? "--cycle-ms" : o.call_us > 0 ? "--call-us" : o.contention_pct > 0 ? "--contention"
                : o.comm_contention_pct > 0 ? "--comm-contention" : "--overlap-from");
        return 2;
    }
    if ((rc = train_check_device(&o, ferr, sizeof ferr))) {
        fprintf(stderr, "ddlbench train: %s\n", ferr);
        return rc;
    }
    if ((!o.global_batch && build_model(&o, &m, ferr, sizeof ferr)) || train_runner_profile(&o, ferr, sizeof ferr)) {
        fprintf(stderr, "ddlbench train: %s\n", ferr);
        model_free(m);
        return 2;
    }
    train_runner r = { .o = &o, .m = m, .compute = cli_compute_desc(o.full) };
    const train_progress progress = { context_line, round_line, NULL };
    ferr[0] = '\0';
    if ((rc = train_runner_start(&r, &argc, &argv, ferr, sizeof ferr))) goto out;
    if (o.global_batch && (rc = global_batch(&r, &m, ferr, sizeof ferr))) goto out;
    if (o.grad_dtype != DDL_FLOAT32) { /* mixed precision's allreduce (wire.h) */
        char line[160];
        snprintf(line, sizeof line, "%s: each bucket cast from fp32, allreduced and reduced in %s by libddl, the sums "
                 "cast back to fp32", wire_name(o.grad_dtype), wire_name(o.grad_dtype));
        meta_add(&r.meta, "grad_dtype", line);
        if (r.rank == 0) printf("# gradients on the wire: %s\n", line);
    }
    if (r.rank == 0 && r.no_counters)
        printf("# hardware counters unavailable (papi_* CSV columns read NA): %s\n", r.why);
    if (r.rank == 0 && o.device)
        printf("# device: %s; %s GEMMs (%s)\n", kern_dev_name(), kern_precision_name(o.precision), kern_gemm_backend());
    if (r.rank == 0) train_print_header(stdout, &o, r.size, train_effects_line(&o, jline, sizeof jline));
    rc = train_runner_rounds(&r, &progress, ferr, sizeof ferr);
    if (!rc && r.rank == 0) {
        train_compare_rows(r.rows, r.nrows, (int)o.rounds);
        for (int c = 0; c < r.nrows; c++) train_print_row(stdout, 0, &o, r.size, &r.rows[c]);
        train_print_comparison(stdout, &o, r.rows, r.nrows);
        train_print_time_to_train(stdout, &o, r.size, r.rows, r.nrows);
    }
    /* --csv, --json: written only when every configuration succeeded */
    if (r.rank == 0 && (o.csv || o.json) && r.nrows && !rc && train_write_results(&r.meta, &o, r.size, r.rows, r.nrows))
        rc = 1;
out:
    if (*ferr) fprintf(stderr, "ddlbench train: %s\n", ferr); /* rank 0, or the failing rank */
    train_runner_end(&r);
    model_free(m);
    return rc;
}
