/* main.c — the ddlbench executable: one subcommand table; each subcommand parses its own options. */
#include "cli.h"
#include "meta.h"
#include "opts.h"
#include "parse.h"
#include "rank.h"

#include <stdio.h>
#include <string.h>

static const cli_command commands[] = {
    { "list", cli_list_main, "list the registered algorithms (allreduce; reduce-scatter and allgather)" },
    { "model", cli_model_main,
      "layers of ResNet-50/101: tensors, GEMM shapes, GFLOP and non-GEMM bytes per step; model cost, model train: the "
      "alpha-beta-gamma model (no MPI)" },
    { "allreduce", cli_allreduce_main, "allreduce micro-benchmark: sizes x algorithms, busbw, self-checked (mpirun)" },
    { "reduce-scatter", cli_allreduce_main,
      "reduce-scatter micro-benchmark: allreduce's options, busbw (p-1)/p (mpirun)" },
    { "allgather", cli_allreduce_main, "allgather micro-benchmark: allreduce's options, busbw (p-1)/p (mpirun)" },
    { "train", cli_train_main,
      "ResNet training steps (whole network, or GEMMs only) + bucketed allreduce during backward (mpirun)" },
    { "kernels", cli_kernels_main, "float32 sum reduction kernel vs a plain streaming add and memcpy" },
    { "platform", cli_platform_main, "write the SMPI platform.xml and hostfile of a machine preset or platform file" },
    { "calibrate", cli_calibrate_main,
      "GEMM, reduction and memory rates -> device profile; calibrate network (mpirun): MPI links -> platform file" },
    { "study", cli_study_main,
      "the 2017 DDL study at 256 GPUs with bands over its unknowns (closed-form model, no MPI)" },
    { "advise", cli_advise_main, "bucket cap and first bucket with the least exposed communication (model; --sim)" },
    { "json", cli_json_main, "a ddlbench CSV (provenance, header, rows) as one JSON document (scaling.json)" },
    { "merge", cli_merge_main,
      "a scaling sweep's raw/*.csv -> scaling.csv (efficiency vs 1 GPU and 1 node) and scaling.json" },
    { "catalogue", cli_catalogue_main,
      "published scaling figures of the catalogue (harness/sim/studies) as CSV, for the reports" },
    { "efficiency", cli_efficiency_main,
      "weak-scaling efficiency of a train CSV's steps against a baseline train CSV (make jitter)" },
    { "fidelity", cli_fidelity_main,
      "make fidelity's statistics: merge, join, report (15/35 pass rule), profile and contention medians" },
    { "sweep-check", cli_sweep_check_main,
      "check a scaling sweep's parameters (sweep.sh, make run) against their limits" },
    { "nccl-compare", cli_nccl_compare_main,
      "published nccl-tests allreduce runs (harness/sim/nccl) against the model or simulated runs (--sim)" },
    { "gpu-check", cli_gpucheck_main,
      "CUDA build, one GPU: cuBLAS checks and rates, memory GB/s, device profile, step vs PyTorch" },
};

static void usage(FILE *f)
{
    fprintf(f, "usage: ddlbench COMMAND [options]   (ddlbench COMMAND --help for its options)\n"
               "       ddlbench --version           the commit it was built from\n\ncommands:\n");
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        fprintf(f, "  %-14s %s\n", commands[i].name, commands[i].help);
}

/* Every argument is printable text: a control character (a newline in --label would split a CSV
 * row) or a malformed UTF-8 byte (invalid JSON) is refused here, for every subcommand and option at
 * once. The arguments are the same on every rank: only the launcher's rank 0 says so (rank_hold_stderr). */
static int args_are_text(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        long at = parse_text_bad(argv[i]);
        if (at < 0) continue;
        char shown[200];
        const unsigned char b = (unsigned char)argv[i][at];
        const char *opt = i > 1 && argv[i - 1][0] == '-' ? argv[i - 1] : NULL;
        fprintf(stderr, "ddlbench: argument %d%s%s (\"%s\"): byte %ld is %s; expected printable text\n", i,
                opt ? ", the value of " : "", opt ? opt : "", parse_quote(argv[i], shown, sizeof shown), at + 1,
                b < 0x80 || b == 0xC2 ? "a control character" : "not UTF-8");
        return 0;
    }
    return 1;
}

int main(int argc, char **argv)
{
    rank_hold_stderr(); /* ranks other than 0 say nothing before MPI starts (rank.h) */
    if (!args_are_text(argc, argv)) return 2;
    if (argc < 2) {
        fprintf(stderr, "ddlbench: expected a command (try ddlbench --help)\n");
        return 2;
    }
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        usage(stdout);
        return 0;
    }
    if (!strcmp(argv[1], "--version")) {
        printf("ddlbench %s\n", meta_commit());
        return 0;
    }
    if (!strcmp(argv[1], "--list")) return cli_list_main(argc - 1, argv + 1);
    const size_t n = sizeof commands / sizeof commands[0];
    size_t near = 0;
    for (size_t i = 0; i < n; i++) {
        if (!strcmp(argv[1], commands[i].name)) return commands[i].main(argc - 1, argv + 1);
        if (opts_distance(argv[1], commands[i].name) < opts_distance(argv[1], commands[near].name)) near = i;
    }
    char shown[200];
    parse_quote(argv[1], shown, sizeof shown);
    if (opts_distance(argv[1], commands[near].name) <= 2) /* a typo: one or two edits */
        fprintf(stderr, "ddlbench: unknown command \"%s\"; did you mean %s? (try ddlbench --help)\n", shown,
                commands[near].name);
    else fprintf(stderr, "ddlbench: unknown command \"%s\" (try ddlbench --help)\n", shown);
    return 2;
}
