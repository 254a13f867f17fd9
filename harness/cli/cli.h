/* cli.h — subcommands of the ddlbench executable. Each returns the process exit status:
 * 0 ok, 1 a run failed (wrong results, MPI error), 2 bad input. */
#ifndef HARN_CLI_H
#define HARN_CLI_H

#include <stddef.h>

typedef struct cli_command {
    const char *name;                 /* argv[1] */
    int (*main)(int argc, char **argv);
    const char *help;                 /* one line */
} cli_command;

int cli_list_main(int argc, char **argv);       /* cli_list.c */
/* A comma list of registered algorithm names (cli_list.c): split s into items (pointing into buf),
 * at most max. 0 ok; 1 not a list (empty item, too many); 2 *unknown is not registered. */
int cli_algos_parse(const char *s, char *buf, size_t buflen, const char **items, int max, int *n,
                    const char **unknown);
int cli_model_main(int argc, char **argv);     /* cli_model.c */
int cli_allreduce_main(int argc, char **argv); /* cli_allreduce.c: allreduce, reduce-scatter, allgather */
int cli_kernels_main(int argc, char **argv);   /* cli_kernels.c */
int cli_train_main(int argc, char **argv);     /* cli_train.c */
int cli_platform_main(int argc, char **argv);  /* cli_platform.c */
int cli_calibrate_main(int argc, char **argv); /* cli_calibrate.c */
int cli_calibrate_network(int argc, char **argv); /* cli_calibrate_net.c: `calibrate network` (--network) */
int cli_gpucheck_main(int argc, char **argv); /* cli_gpucheck.c */
int cli_study_main(int argc, char **argv);     /* cli_study.c */
int cli_model_cost(int argc, char **argv);     /* cli_cost.c: `model cost` (or --algo first) */
int cli_model_memory(int argc, char **argv);   /* cli_model_memory.c: `model memory` (sharding) */
int cli_model_train(int argc, char **argv);    /* cli_model_train.c: `model train` (--train) */
int cli_json_main(int argc, char **argv);      /* cli_json.c */
/* A whole regular file into *out (malloc'd, *len bytes; textfile_read, cli_json.c). 0, 1 out of memory, or 2
 * with a message (unreadable, not a regular file, over 256 MiB). */
int cli_read_all(const char *path, char **out, size_t *len, char *err, size_t errlen);
int cli_merge_main(int argc, char **argv);     /* cli_merge.c */
int cli_fidelity_main(int argc, char **argv);  /* cli_fidelity.c */
int cli_efficiency_main(int argc, char **argv); /* cli_efficiency.c */
int cli_catalogue_main(int argc, char **argv);  /* cli_catalogue.c */
int cli_sweep_check_main(int argc, char **argv); /* cli_sweep.c */
/* The sweep's options (the rows of sweep_opts.h, sweep-check's own, NODES=4 words) from argv[1..argc),
 * with their defaults; a word not starting with '-' into *dir when dir is not NULL (cli_sweep.c).
 * 0, 3 --help asked, 4 --usage, or 2 with a message. */
struct sweep_params;
int cli_sweep_options(int argc, char **argv, struct sweep_params *p, const char **dir, char *err, size_t errlen);
/* GPUs per node and profile from the platform where not given; a conflict under sim/model is 2 (cli_sweep.c). */
int cli_sweep_resolve(struct sweep_params *p, char *err, size_t errlen);
int cli_advise_main(int argc, char **argv);    /* cli_advise.c */
int cli_nccl_compare_main(int argc, char **argv); /* cli_nccl_compare.c */

/* gpu-check's tables (cli_gpucheck_step.c, cli_gpucheck_contend.c; the measurements: harness/calib/
 * calib_gpu.h): the ResNet-50 step at `batch` per precision beside PyTorch's images/s; GEMM g beside
 * communication on a second stream, and the mirror, as contention percentages (A, B, C: device
 * buffers large enough for g). 0, or non-zero (message printed). */
int gpucheck_pytorch_step(long batch);
void gpucheck_mpi_done(void); /* MPI_Finalize, where gpucheck_pytorch_step initialised MPI */
struct model_gemm;
int gpucheck_contention(const struct model_gemm *g, void *A, void *B, float *C);

#endif
