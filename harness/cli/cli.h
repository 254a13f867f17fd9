/* cli.h — subcommands of the ddlbench executable. Each returns the process exit status:
 * 0 ok, 1 a run failed (wrong results, MPI error), 2 bad input. */
#ifndef HARN_CLI_H
#define HARN_CLI_H

typedef struct cli_command {
    const char *name;                 /* argv[1] */
    int (*main)(int argc, char **argv);
    const char *help;                 /* one line */
} cli_command;

int cli_list_main(int argc, char **argv);
int cli_model_main(int argc, char **argv);     /* cli_model.c */
int cli_allreduce_main(int argc, char **argv); /* cli_allreduce.c */
int cli_kernels_main(int argc, char **argv);   /* cli_kernels.c */
int cli_train_main(int argc, char **argv);     /* cli_train.c */
int cli_platform_main(int argc, char **argv);  /* cli_platform.c */
int cli_calibrate_main(int argc, char **argv); /* cli_calibrate.c */
int cli_gpucheck_main(int argc, char **argv); /* cli_gpucheck.c */
int cli_model_cost(int argc, char **argv);     /* cli_cost.c: `model --algo` */
int cli_json_main(int argc, char **argv);      /* cli_json.c */
int cli_advise_main(int argc, char **argv);    /* cli_advise.c */

#endif
