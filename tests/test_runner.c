/* test_runner.c — the training runner (harness/train/runner.c, runner_config.c) without argv, as one
 * MPI process (a singleton MPI_Init): the framework of the options in the model's units, the profile's
 * rates and its refusal, then a whole run of ResNet-50 at batch 1 and image 32 — a grid that the ranks
 * cannot make is an error in the caller's buffer; then 2 algorithms (auto, ring) x 2 rounds:
 * every row made in order, the progress callbacks called once a round and for auto's context, the rows'
 * statistics and the provenance's compute line; --check finds no wrong element. */
#include "profile.h"
#include "runner.h"
#include "test.h"

#include <math.h>
#include <string.h>

static char merr[512]; /* model_create's message */

typedef struct seen {
    int rounds[4], nrounds, contexts;
    char desc[256];
} seen;

static void on_context(const train_runner *r, const char *desc, void *arg)
{
    seen *s = arg;
    (void)r;
    s->contexts++;
    snprintf(s->desc, sizeof s->desc, "%s", desc);
}

static void on_round(const train_runner *r, int round, void *arg)
{
    seen *s = arg;
    (void)r;
    if (s->nrounds < 4) s->rounds[s->nrounds] = round;
    s->nrounds++;
}

int main(int argc, char **argv)
{
    char err[700] = "x";
    train_opts o = { .model = "resnet50", .batch = 1, .image = 32, .steps = 1, .warmup = 0, .rounds = 2,
                     .algos = { "ddl", "ring" }, .nalgos = 2, .bucket_mb = { 25 }, .nbuckets = 1, .first_mb = 1,
                     .grid = "3x3", .timeout_s = 0, .full = 1, .seed = 1, .cycle_ms = 5, .call_us = 20,
                     .contention_pct = 10, .comm_contention_pct = 20, .overlap_from_pct = 60 };
    framework fw = train_framework(&o, 64);
    CHECK(fw.cycle_s == 5e-3 && fw.fusion_bytes == (size_t)64 << 20 && fw.call_s == 20e-6 && fw.contention == 0.1 &&
              fw.comm_contention == 0.2 && fw.overlap_from == 0.6,
          "framework in the model's units: %g s, %zu B, %g s, %g, %g, %g", fw.cycle_s, fw.fusion_bytes, fw.call_s,
          fw.contention, fw.comm_contention, fw.overlap_from);
    o.cycle_ms = 0;
    CHECK(train_framework(&o, 64).fusion_bytes == 0, "no cycles: no fusion cap");
    o.cycle_ms = o.call_us = o.contention_pct = o.comm_contention_pct = o.overlap_from_pct = 0;

    CHECK(train_runner_profile(&o, err, sizeof err) == 0 && o.gamma == 0, "no profile: nothing set");
    o.profile = "nosuch";
    CHECK(train_runner_profile(&o, err, sizeof err) == 2 && !strncmp(err, "--profile: ", 11), "unknown profile: %s",
          err);
    profile pr;
    o.profile = "p100";
    CHECK(profile_load("p100", &pr, err, sizeof err) == 0 && train_runner_profile(&o, err, sizeof err) == 0 &&
              o.gamma == pr.reduce_ns_per_byte * 1e-9, "p100: gamma %g", o.gamma);
    o.profile = NULL;

    model *m = NULL;
    CHECK(model_create(o.model, (int)o.batch, (int)o.image, &m, merr, sizeof merr) == 0, "model: %s", merr);
    if (!m) return TEST_REPORT();
    seen s = { { 0 }, 0, 0, "" };
    const train_progress p = { on_context, on_round, &s };
    train_runner r = { .o = &o, .m = m, .compute = "full: a test" };
    int rc = train_runner_start(&r, &argc, &argv, err, sizeof err);
    CHECK(rc == 0 && !*err && r.rank == 0 && r.size == 1 && r.nconf == 2 && r.samples, "start: %d %s", rc, err);
    CHECK(strstr(r.meta.extra, "# compute: full: a test") && strstr(r.meta.extra, "# counters: "),
          "provenance: %s", r.meta.extra);
    if (rc) goto out;
    rc = train_runner_rounds(&r, &p, err, sizeof err);
    CHECK(rc == 2 && strstr(err, "grid 3x3") && s.nrounds == 0, "a grid the ranks cannot make: %d, %s", rc, err);

    /* the same runner again, the grid gone: auto and ring, each twice */
    o.grid = NULL, o.algos[0] = "auto", o.check = 1;
    rc = train_runner_rounds(&r, &p, err, sizeof err);
    CHECK(rc == 0 && !*err, "two configurations, two rounds: %d %s", rc, err);
    CHECK(s.nrounds == 2 && s.rounds[0] == 0 && s.rounds[1] == 1, "one callback a round (%d)", s.nrounds);
    CHECK(s.contexts == 1 && s.desc[0], "auto's context described once: %s", s.desc);
    CHECK(r.nrows == 2 && !strcmp(r.rows[0].algo, "auto") && !strcmp(r.rows[1].algo, "ring"), "rows in order");
    for (int c = 0; c < r.nrows && !rc; c++) {
        const train_row *w = &r.rows[c];
        CHECK(w->step.median > 0 && w->step_min <= w->step.median && w->step.median <= w->step_max,
              "%s: step %g in [%g, %g]", w->algo, w->step.median, w->step_min, w->step_max);
        CHECK(w->round_med[0] > 0 && w->round_med[1] > 0 && w->buckets >= 1, "%s: both rounds' medians", w->algo);
        CHECK(fabs(w->images_per_s - 1 / w->step.median) < 1e-9 * w->images_per_s, "%s: images/s", w->algo);
        CHECK(w->wrong == 0, "%s: --check finds %ld wrong", w->algo, w->wrong);
        CHECK(w->med[F_COMPUTE] > 0 && w->med[F_STEP] >= w->med[F_COMPUTE], "%s: the breakdown", w->algo);
    }
out:
    train_runner_end(&r);
    model_free(m);
    return TEST_REPORT();
}
