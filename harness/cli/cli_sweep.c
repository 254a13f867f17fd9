/* cli_sweep.c — `ddlbench sweep-check`: the scaling sweep's parameters checked against their one set
 * of limits (sweep_params.h) and the registry's algorithm names, before sweep.sh launches anything;
 * and the option parsing `ddlbench merge` shares. No MPI. */
#include "cli.h"
#include "sweep_params.h"

#include <stdio.h>
#include <string.h>

static void usage(FILE *f)
{
    fprintf(f, "usage: ddlbench sweep-check [--make] [sweep options]\n"
               "Checks the options of harness/scripts/sweep.sh (which asks this before any launch) and exits 0\n"
               "in silence, or 2 with one line naming the option (with --make, the make variable: NODES):\n"
               "  --backend sim|mpi|emu|model   --device cpu|gpu (gpu: mpi only)\n"
               "  --nodes N            1..%d (--backend model: 1..%d); at most %d GPUs in all\n"
               "  --gpus-per-node G    1..%d\n"
               "  --models LIST        model:batch pairs, batch 1..%d\n"
               "  --algos LIST         registered algorithms (ddlbench list)\n"
               "  --bucket-mb N        0..%d          -j, --jobs N   1..%d\n"
               "  --sim-ring-max G     0..%d\n"
               "  --rate R, --delay D  emu only (emucluster.sh checks their values)\n"
               "  --train-args \"...\"   none of the options the sweep sets (--csv, --model, --batch, -a, --algo,\n"
               "                       --bucket-mb; under sim also --profile, --platform, --gpus-per-node)\n"
               "  --platform P, --profile P, --command C: taken as given (sweep.sh asks ddlbench model)\n",
            SWEEP_NODES_MAX, SWEEP_NODES_MAX_MODEL, SWEEP_GPUS_MAX, SWEEP_GPN_MAX, SWEEP_BATCH_MAX, SWEEP_BUCKET_MAX,
            SWEEP_JOBS_MAX, SWEEP_GPUS_MAX);
}

int cli_sweep_options(int argc, char **argv, sweep_params *p, const char **dir, char *err, size_t errlen)
{
    sweep_params_defaults(p);
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) return 3;
        if (!strcmp(argv[i], "--make")) { p->make = 1; continue; }
        if (dir && argv[i][0] != '-' && !*dir) { *dir = argv[i]; continue; }
        if (i + 1 == argc && !sweep_params_set(p, argv[i], "")) {
            snprintf(err, errlen, "%s: expected a value after it", argv[i]);
            return 2;
        }
        if (i + 1 == argc || sweep_params_set(p, argv[i], argv[i + 1])) {
            snprintf(err, errlen, "unknown option \"%.200s\" (see --help)", argv[i]);
            return 2;
        }
        i++;
    }
    return 0;
}

int cli_sweep_check_main(int argc, char **argv)
{
    sweep_params p;
    char err[600], buf[4096];
    const char *items[256], *unknown = NULL;
    int n = 0, rc = cli_sweep_options(argc, argv, &p, NULL, err, sizeof err);
    if (rc == 3) { usage(stdout); return 0; }
    if (!rc) rc = sweep_check(&p, err, sizeof err);
    if (!rc && cli_algos_parse(p.algos, buf, sizeof buf, items, 256, &n, &unknown) == 2) {
        snprintf(err, sizeof err, "%s: unknown algorithm \"%.200s\" (see ddlbench list)", sweep_name(&p, "--algos"), unknown);
        rc = 2;
    }
    if (rc) fprintf(stderr, "ddlbench sweep-check: %s\n", err);
    return rc ? 2 : 0;
}
