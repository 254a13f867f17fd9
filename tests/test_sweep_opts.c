/* test_sweep_opts.c — the sweep's options as rows of the option table (harness/common/sweep_opts.c):
 * defaults accepted, each range's edges, the make spellings (NODES=0 names NODES), the rules across
 * options (sweep_check), the defaults by backend; the messages tests/bad_inputs_scripts.sh sees. */
#include "sweep_opts.h"
#include "test.h"

#include <string.h>

/* Parses "sweep-check WORDS..." (a NULL-terminated list), fills the defaults, takes the platform's 4
 * GPUs per node where none was given (cli_sweep_resolve on minsky) and checks. The status. */
static int parse(sweep_params *p, const char *const *words, char *err, size_t errlen)
{
    char *argv[16] = { "sweep-check" };
    int argc = 1;
    const opts_set sets[] = { { sweep_rows, sweep_nrows, p }, { sweep_check_rows, sweep_check_nrows, p } };
    opts_parser ps = { sets, 2, NULL, 0, 0, { 0 } };
    for (; words && words[argc - 1] && argc < 16; argc++) argv[argc] = (char *)words[argc - 1];
    sweep_defaults(p);
    if (opts_parse(&ps, argc, argv, err, errlen)) return 2;
    sweep_fill(p);
    for (int i = 1; i < argc; i++) p->make |= !strcmp(argv[i], "--make");
    if (!p->n_gpn) p->n_gpn = 4;
    return sweep_check(p, err, errlen);
}

/* opt val (as --opt val, or VAR=val when opt has no dashes): the status, and the message when want. */
static void try(const char *opt, const char *val, int make, int want_rc, const char *want)
{
    sweep_params p;
    char err[600] = "", word[300];
    const char *w[4] = { NULL };
    int k = 0;
    if (make) w[k++] = "--make";
    if (opt && opt[0] != '-') snprintf(word, sizeof word, "%s=%s", opt, val), w[k++] = word;
    else if (opt) w[k++] = opt, w[k++] = val;
    int rc = parse(&p, w, err, sizeof err);
    CHECK(rc == want_rc, "%s %s: rc %d, want %d (%s)", opt ? opt : "defaults", val ? val : "", rc, want_rc, err);
    if (want) CHECK(!strcmp(err, want), "%s %s: \"%s\", want \"%s\"", opt, val, err, want);
    CHECK(!strchr(err, '\n'), "one line");
}

int main(void)
{
    sweep_params p;
    char err[600] = "";
    sweep_defaults(&p);
    CHECK(!p.n_gpn && !*p.profile && !*p.platform, "defaults: GPUs per node and profile are the platform's");
    CHECK(p.n_nodes == 2 && p.n_bucket == 25 && p.n_ring_max == 64 && !strcmp(p.algos, "mpi,ring,rhd,ddl,auto") &&
              !strcmp(p.backend, "sim") && !strcmp(p.rate, "none") && !strcmp(p.device, "cpu"),
          "the rows' defaults");
    CHECK(!p.models && !p.train_args, "models and train options: by backend, after the parse");
    const char *cpu[] = { "--backend", "mpi", NULL }, *sim[] = { NULL }, *gpu[] = { "DEVICE=gpu", "BACKEND=mpi", NULL };
    CHECK(parse(&p, cpu, err, sizeof err) == 0 && !strcmp(p.models, "resnet50:8") && p.n_jobs == 1 &&
              !strcmp(p.train_args, "--image-size 64 --steps 5 --warmup 1"), "mpi on CPUs: ResNet-50 at 64x64, 1 job");
    CHECK(parse(&p, sim, err, sizeof err) == 0 && !strcmp(p.models, "resnet50:32,resnet101-22k:20") &&
              !strcmp(p.train_args, "--steps 1 --warmup 0") && p.n_jobs >= 1, "sim: the study's models, one step");
    CHECK(parse(&p, gpu, err, sizeof err) == 0 && !strcmp(p.models, "resnet50:32,resnet101-22k:20") &&
              !strcmp(p.precision, "tf32"), "mpi on GPUs (make spellings): the study's batches, tf32");
    /* strong scaling: at least one image per GPU at the largest point (2 nodes x 4), at most a GPU's batch at 1 */
    try("GLOBAL_BATCH", "8", 1, 0, NULL);
    try("GLOBAL_BATCH", "7", 1, 2, "GLOBAL_BATCH: global batch 7 is below the 8 GPUs; expected at least one image "
                                   "per GPU (8 or more)");
    try("--global-batch", "65537", 0, 2, "--global-batch: global batch 65537 over 1 GPUs is 65537 images per GPU; "
                                         "expected at most 65536");
    try("--global-batch", "-1", 0, 2, NULL);
    try("--train-args", "--global-batch 8", 0, 2, NULL);
    const char *j[] = { "-j", "3", NULL }, *unknown[] = { "--frobnicate", "1", NULL };
    CHECK(parse(&p, j, err, sizeof err) == 0 && p.n_jobs == 3, "-j is --jobs");
    CHECK(parse(&p, unknown, err, sizeof err) == 2 && strstr(err, "unknown option \"--frobnicate\""), "unknown: %s",
          err);
    CHECK(!strcmp(sweep_name(&p, "--nodes"), "--nodes"), "without --make, the option");
    p.make = 1;
    CHECK(!strcmp(sweep_name(&p, "--nodes"), "NODES") && !strcmp(sweep_name(&p, "--sim-ring-max"), "--sim-ring-max"),
          "with --make, the make variable where there is one");
    try(NULL, NULL, 0, 0, NULL);
    try("--nodes", "4096", 0, 0, NULL);
    try("--nodes", "4097", 0, 2, "--nodes: expected an integer in 1..4096, got \"4097\"");
    try("NODES", "0", 0, 2, "NODES: expected an integer in 1..4096 (--backend model: 1..65536), got \"0\"");
    /* 007 is 7: sweep.sh reads the resolved value (printed in decimal), never the typed text */
    const char *z[] = { "--nodes", "007", NULL };
    CHECK(parse(&p, z, err, sizeof err) == 0 && p.n_nodes == 7, "--nodes 007: 7");
    try("NODES", "99999999999999999999", 0, 2,
        "NODES: expected an integer in 1..4096 (--backend model: 1..65536), got \"99999999999999999999\"");
    try("--gpus-per-node", "65", 0, 2, "--gpus-per-node: expected an integer in 1..64, got \"65\"");
    try("--bucket-mb", "0", 0, 0, NULL);
    try("--bucket-mb", "-1", 0, 2, NULL);
    try("--jobs", "x", 0, 2, "--jobs: expected an integer in 1..64, got \"x\"");
    try("--sim-ring-max", "-1", 0, 2, NULL);
    try("--backend", "gpu", 0, 2, "--backend: expected sim, mpi, emu or model, got \"gpu\"");
    try("BACKEND", "", 0, 2, "BACKEND: expected sim, mpi, emu or model, got \"\"");
    try("--rate", "500mbit", 0, 2, "--rate: only with --backend emu (--rate, --delay)");
    try("RATE", "500mbit", 1, 2, "RATE: only with --backend emu (--rate, --delay)");
    try("--device", "gpu", 0, 2, "--device: gpu only with --backend mpi");
    try("--device", "tpu", 0, 2, "--device: expected cpu or gpu, got \"tpu\"");
    try("--precision", "fp8", 0, 2, "--precision: expected fp32, tf32, bf16 or fp16, got \"fp8\"");
    try("--models", "resnet50:x", 0, 2, "--models: expected a batch in 1..65536 for resnet50, got \"resnet50:x\"");
    try("--models", "resnet50:65537", 0, 2, NULL);
    try("--models", "resnet50:032", 0, 2, NULL);
    try("--models", ":4", 0, 2, "--models: expected a comma list of model:batch like resnet50:32, got \":4\"");
    try("MODELS", "a:1,", 0, 2, "MODELS: expected a comma list of model:batch like resnet50:32, got \"a:1,\"");
    try("ALGOS", "", 0, 2, "ALGOS: expected a comma list of algorithms (see ddlbench list), got \"\"");
    try("--algos", "ring;x", 0, 2, NULL);
    try("--train-args", "--steps 2 --csv x", 0, 2,
        "--train-args: expected train options the sweep does not set (--csv is its own), got \"--steps 2 --csv x\"");
    try("--train-args", "--steps 2 --json=/tmp/x", 0, 2, NULL); /* an output in the --opt=value form */
    try("--train-args", "--csvx 1", 0, 0, NULL);                 /* a name that only starts like one */
    try("TRAIN_ARGS", "--profile v100", 1, 2,
        "TRAIN_ARGS: --profile is set by the sweep under simulation (use PROFILE)");
    try("--add-train-args", "--platform=x", 0, 2, NULL);
    try("FORCE", "yes", 0, 2, "FORCE: expected 1 or nothing, got \"yes\"");
    /* a value's check reads all of it, not its first 4 KiB */
    static char longv[6000];
    memset(longv, ' ', sizeof longv - 10), memcpy(longv + sizeof longv - 10, "--csv x", 8);
    try("--train-args", longv, 0, 2, NULL);
    /* the model backend reaches 65536 nodes; every backend at most 65536 GPUs */
    const char *m1[] = { "--backend", "model", "--nodes", "16384", NULL };
    const char *m2[] = { "--backend", "model", "NODES=65536", NULL };
    CHECK(parse(&p, m1, err, sizeof err) == 0 && p.n_nodes == 16384 && p.n_gpn == 4, "model 16384 x 4: %s", err);
    CHECK(parse(&p, m2, err, sizeof err) == 2 &&
              !strcmp(err, "--nodes: expected at most 65536 GPUs in all, got 65536 nodes x 4 = 262144"),
          "over 65536 GPUs: %s", err);
    return TEST_REPORT();
}
