/* test_sweep_params.c — the sweep's limits (harness/common/sweep_params.c): defaults accepted, each
 * limit's edges, the messages sweep.sh printed (tests/bad_inputs.sh asserts them), the make names. */
#include "sweep_params.h"
#include "test.h"

#include <string.h>

/* The defaults as cli_sweep_resolve leaves them on the default platform (minsky: 4 GPUs per node). */
static void resolved_defaults(sweep_params *p)
{
    sweep_params_defaults(p);
    sweep_params_set(p, "--gpus-per-node", "4");
}

/* Sets opt to val on the defaults and checks: the status, and err's start when want is not NULL. */
static void try(const char *opt, const char *val, int make, int want_rc, const char *want)
{
    sweep_params p;
    char err[600] = "";
    resolved_defaults(&p);
    p.make = make;
    if (opt) CHECK(sweep_params_set(&p, opt, val) == 0, "%s is a sweep option", opt);
    int rc = sweep_check(&p, err, sizeof err);
    CHECK(rc == want_rc, "%s %s: rc %d, want %d (%s)", opt ? opt : "defaults", val ? val : "", rc, want_rc, err);
    if (want) CHECK(!strcmp(err, want), "%s %s: \"%s\", want \"%s\"", opt, val, err, want);
    CHECK(!strchr(err, '\n'), "one line");
}

int main(void)
{
    sweep_params p;
    sweep_params_defaults(&p);
    CHECK(!*p.gpus_per_node && !*p.profile && !*p.platform, "defaults: GPUs per node and profile are the platform's");
    CHECK(sweep_params_set(&p, "--frobnicate", "1") == -1, "unknown option");
    CHECK(sweep_params_set(&p, "-j", "3") == 0 && !strcmp(p.jobs, "3"), "-j is --jobs");
    try(NULL, NULL, 0, 0, NULL);
    try("--nodes", "4096", 0, 0, NULL);
    try("--nodes", "4097", 0, 2, "--nodes: expected an integer in 1..4096, got \"4097\"");
    try("--nodes", "0", 1, 2, "NODES: expected an integer in 1..4096, got \"0\"");
    try("--nodes", "007", 0, 2, NULL);
    try("--nodes", "99999999999999999999", 1, 2, "NODES: expected an integer in 1..4096, got \"99999999999999999999\"");
    try("--gpus-per-node", "65", 0, 2, "--gpus-per-node: expected an integer in 1..64, got \"65\"");
    try("--bucket-mb", "0", 0, 0, NULL);
    try("--bucket-mb", "-1", 0, 2, NULL);
    try("--jobs", "x", 0, 2, "--jobs: expected an integer in 1..64, got \"x\"");
    try("--sim-ring-max", "-1", 0, 2, NULL);
    try("--backend", "gpu", 0, 2, "--backend: expected sim, mpi, emu or model, got \"gpu\"");
    try("--backend", "", 1, 2, "BACKEND: expected sim, mpi, emu or model, got \"\"");
    try("--rate", "500mbit", 0, 2, "--rate: only with --backend emu (--rate, --delay)");
    try("--device", "gpu", 0, 2, "--device: gpu only with --backend mpi");
    try("--device", "tpu", 0, 2, "--device: expected cpu or gpu, got \"tpu\"");
    try("--models", "resnet50:x", 0, 2, "--models batch of resnet50: expected an integer in 1..65536, got \"x\"");
    try("--models", ":4", 0, 2, "--models: expected model:batch like resnet50:32, got \":4\"");
    try("--models", "a:1,", 1, 2, "MODELS: expected a comma list of model:batch like resnet50:32, got \"a:1,\"");
    try("--algos", "", 1, 2, "ALGOS: expected a comma list of algorithms (see ddlbench list), got \"\"");
    try("--algos", "ring;x", 0, 2, NULL);
    try("--train-args", "--steps 2 --csv x", 0, 2, "--train-args: --csv is set by the sweep; expected other ddlbench train options");
    try("--train-args", "--profile v100", 1, 2, "TRAIN_ARGS: --profile is set by the sweep under simulation (use PROFILE)");
    /* the model backend reaches 65536 nodes; every backend at most 65536 GPUs */
    resolved_defaults(&p);
    sweep_params_set(&p, "--backend", "model"), sweep_params_set(&p, "--nodes", "16384");
    char err[600] = "";
    CHECK(sweep_check(&p, err, sizeof err) == 0 && p.n_nodes == 16384 && p.n_gpn == 4, "model 16384 x 4: %s", err);
    sweep_params_set(&p, "--nodes", "65536");
    CHECK(sweep_check(&p, err, sizeof err) == 2 &&
              !strcmp(err, "--nodes: expected at most 65536 GPUs in all, got 65536 nodes x 4 = 262144"),
          "over 65536 GPUs: %s", err);
    return TEST_REPORT();
}
