/* runner.c — the training run of `ddlbench train` (runner.h): the profile's rates, MPI, the cost hook,
 * the watchdog, the device, the provenance, and the configurations' rounds interleaved (A B A B: each
 * round every configuration's warm-up and timed steps once, rounds.h), then each row's statistics. */
#include "runner.h"
#include "compute.h"
#include "counters.h"
#include "device_pick.h"
#include "devmem.h"
#include "engine.h"
#include "perf_layer.h"
#include "profile.h"
#include "rank.h"
#include "sgd.h"
#include "sim.h"
#include "watchdog.h"

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static train_row rows_store[MAX_LIST * MAX_LIST]; /* 256 rows of ~400 bytes: not on the stack */

int train_runner_profile(train_opts *o, char *err, size_t errlen)
{
    static profile pr; /* the run's profile, for the trainer's layer pricer (o->shape) */
    char why[600];
    if (!o->profile && o->images_per_s) return snprintf(err, errlen, "--images-per-s: needs a --profile to scale"), 2;
    if (!o->profile) return 0; /* the simulation backends' rates; the real build stores and ignores them */
    if (profile_load(o->profile, &pr, why, sizeof why)) return snprintf(err, errlen, "--profile: %s", why), 2;
    int rc = train_pin_compute(o, &pr, err, errlen); /* --images-per-s: o->compute_scale */
    if (rc) return rc;
    double k = o->compute_scale > 0 ? o->compute_scale : 1; /* SGD pinned with the layers */
    kern_sim_set_rates(profile_gemm_gflops(&pr), pr.reduce_ns_per_byte); /* the precision's rate */
    kern_sim_set_reduce_table(pr.reduce_points, pr.reduce_bytes, pr.reduce_ns); /* sorted, checked */
    kern_sim_set_mem_gbps(pr.mem_gbps); /* the layer kernels and SGD: bytes at the memory rate */
    kern_sgd_set_rate(profile_sgd_gbps(&pr) * 1e9 / k); /* SGD: its own rate where the profile has one */
    kern_sim_set_sgd_gbps(k == 1 ? pr.sgd_gbps : profile_sgd_gbps(&pr) / k);
    o->gamma = pr.reduce_ns_per_byte * 1e-9;
    o->shape = &pr;
    return 0;
}

/* 1 when the options ask for a framework the simulation and the model price (framework.h). */
static int fw_asked(const train_opts *o)
{
    return o->cycle_ms > 0 || o->call_us > 0 || o->contention_pct > 0 || o->comm_contention_pct > 0 ||
           o->overlap_from_pct > 0;
}

/* The provenance lines of the run's options (meta.h). */
static void describe(train_runner *r)
{
    const train_opts *o = r->o;
    r->no_counters = o->device ? snprintf(r->why, sizeof r->why, "the GEMMs run on the GPU") > 0
                               : counters_open(r->why, sizeof r->why);
    if (o->device) meta_add(&r->meta, "gemm_precision", kern_precision_name(o->precision));
    meta_add(&r->meta, "compute", r->compute);
    if (o->jitter_pct > 0) {
        char jdesc[160];
        snprintf(jdesc, sizeof jdesc, "%g%% mean extra GEMM time, x = %g x Exp(1) per rank and step, seed %ld",
                 o->jitter_pct, o->jitter_pct / 100, o->seed);
        meta_add(&r->meta, "jitter", jdesc);
    }
    if (fw_asked(o)) {
        framework fw = train_framework(o, o->bucket_mb[0]);
        char fdesc[400];
        fw_describe(&fw, fdesc, sizeof fdesc);
        if (o->cycle_ms > 0 && o->nbuckets > 1) /* the caps are the rows' --bucket-mb */
            snprintf(fdesc, sizeof fdesc, "cycles of %g ms (Horovod), the ready gradients fused up to each row's "
                     "--bucket-mb%s%s%s%s", o->cycle_ms, o->call_us > 0 ? "; a per-call cost (--call-us)" : "",
                     o->contention_pct > 0 ? "; compute slowed beside an allreduce (--contention)" : "",
                     o->comm_contention_pct > 0 ? "; allreduces slowed beside compute (--comm-contention)" : "",
                     o->overlap_from_pct > 0 ? "; partial overlap (--overlap-from)" : "");
        meta_add(&r->meta, "framework", fdesc);
    }
    char cdesc[240];
    snprintf(cdesc, sizeof cdesc, "%s%s", r->no_counters ? "unavailable: " : "PAPI on the main thread's GEMMs", r->why);
    meta_add(&r->meta, "counters", cdesc);
}

int train_runner_start(train_runner *r, int *argc, char ***argv, char *err, size_t errlen)
{
    train_opts *o = r->o;
    int provided;
    r->rows = rows_store, r->nrows = 0, r->samples = NULL, r->why[0] = '\0';
    r->nconf = o->nalgos * o->nbuckets;
    *err = '\0';
    memset(rows_store, 0, sizeof rows_store);
    MPI_Init_thread(argc, argv, engine_thread_level(), &provided);
    rank_release_stderr(); /* from here a failing rank says why itself (rank.h) */
    MPI_Comm_rank(MPI_COMM_WORLD, &r->rank);
    MPI_Comm_size(MPI_COMM_WORLD, &r->size);
    if (o->cost_platform) {
        char herr[256];
        if (cost_hook_init(&r->hook, o->cost_platform, r->size, o->cost_gpn ? (int)o->cost_gpn : 1, o->gamma, herr,
                           sizeof herr)) {
            if (r->rank == 0) snprintf(err, errlen, "%s", herr);
            return 2;
        }
        o->hook = &r->hook;
    }
    if (provided < engine_thread_level()) {
        if (r->rank == 0) snprintf(err, errlen, "the MPI library gives thread level %d, need %d", provided,
                                   engine_thread_level());
        return 1;
    }
    if (o->timeout_s && watchdog_start("ddlbench train")) {
        snprintf(err, errlen, "rank %d: cannot start the watchdog thread", r->rank);
        return 1;
    }
    int no_dev = o->device && device_pick_local(), any_no_dev = 0;
    MPI_Allreduce(&no_dev, &any_no_dev, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (any_no_dev) {
        if (no_dev) snprintf(err, errlen, "rank %d: cannot select a CUDA device: %s", r->rank, kern_dev_last_error());
        return 1;
    }
    meta_collect(MPI_COMM_WORLD, *argc, *argv, o->device ? kern_dev_name() : NULL, &r->meta);
    if (kern_simulated())
        snprintf(r->meta.device, sizeof r->meta.device, "simulated: profile %s", o->profile ? o->profile : "none");
    if (kern_simulated() && o->shape && (perf_layer_shaped(o->shape) || o->compute_scale > 0)) {
        char cm[400];
        meta_add(&r->meta, "compute_model", train_compute_model(o, o->shape, cm, sizeof cm));
    }
    describe(r);
    if (!(r->samples = malloc((size_t)r->nconf * TRAIN_STRIDE(o) * sizeof *r->samples))) {
        if (r->rank == 0)
            snprintf(err, errlen, "out of memory for %d configurations x %ld rounds x %ld steps", r->nconf, o->rounds,
                     o->steps);
        return 1;
    }
    return 0;
}

int train_runner_rounds(train_runner *r, const train_progress *p, char *err, size_t errlen)
{
    const train_opts *o = r->o;
    char desc[1024];
    int rc = 0, nconf = r->nconf;
    *err = '\0';
    for (int i = 0; i < (int)o->rounds * nconf && !rc; i++) {
        int round, c;
        rounds_order(i, nconf, &round, &c);
        double *samples = r->samples + (size_t)c * TRAIN_STRIDE(o);
        rc = train_run_config(o, r->m, c / o->nbuckets, c % o->nbuckets, round, samples, &r->rows[c], desc, sizeof desc,
                              err, errlen);
        if (*desc && p && p->context) p->context(r, desc, p->arg);
        r->nrows = r->nrows > c + 1 ? r->nrows : c + 1;
        if (!rc && r->rows[c].wrong > 0) {
            if (r->rank == 0) snprintf(err, errlen, "%s bucket %ld MB: %ld gradient elements wrong (--check)",
                                       r->rows[c].algo, r->rows[c].bucket_mb, r->rows[c].wrong);
            rc = 1;
        }
        if (!rc && c == nconf - 1 && p && p->round_done) p->round_done(r, round, p->arg);
    }
    for (int c = 0; c < nconf && !rc; c++)
        rc = train_finish_config(o, r->samples + (size_t)c * TRAIN_STRIDE(o), &r->rows[c], err, errlen);
    return rc;
}

void train_runner_end(train_runner *r)
{
    for (int i = 0; i < r->nrows; i++) free(r->rows[i].ranks);
    watchdog_stop();
    counters_close();
    free(r->samples);
    r->samples = NULL, r->nrows = 0;
    MPI_Finalize();
}
