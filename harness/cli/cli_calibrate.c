/* cli_calibrate.c — `ddlbench calibrate [-o FILE]` (`--network`: cli_calibrate_net.c): measure this
 * machine's GEMM rate, reduction cost, memory-bound kernel and SGD rates (harness/calib/calib_compute.c)
 * and write them as a device profile (FILE.tmp,
 * then renamed; default harness/sim/profiles/local.profile). Medians of several repetitions. Runs
 * without an MPI launch. OpenBLAS reads OPENBLAS_NUM_THREADS when it is loaded, so if that is not
 * 1 the command re-executes itself once with it set. */
#include "calib_compute.h"
#include "cli.h"
#include "opts.h"
#include "gemm.h"
#include "outfile.h"
#include "guard.h"
#include "profile.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int cli_calibrate_main(int argc, char **argv)
{
    const char *path = "harness/sim/profiles/local.profile";
    char err[700], header[1024];
    profile pr = { 0 };
    /* the mode is the first word: `network` (old spelling --network): the MPI links (an MPI launch) */
    if (argc > 1 && (!strcmp(argv[1], "network") || !strcmp(argv[1], "--network")))
        return cli_calibrate_network(argc, argv);
    const opt_row out_row = { .name = "-o", .type = OPT_STRING, .unit = "FILE",
                              .help = "the device profile to write (default harness/sim/profiles/local.profile)" };
    const opts_set sets[] = { OPTS_ONE(&out_row, &path) };
    opts_parser p = { sets, 1, NULL, 0, 0, { 0 } };
    int rc = opts_parse(&p, argc, argv, err, sizeof err);
    if (rc == OPTS_HELP) {
        printf("usage: ddlbench calibrate [-o FILE]\n"
               "       mpirun -np N ddlbench calibrate network [...]: the MPI links -> a platform file\n"
               "       (ddlbench calibrate network --help; old spelling: calibrate --network)\n");
        opts_usage(stdout, sets, 1);
        printf("  FILE is written whole (FILE.tmp, renamed); a symbolic link is followed, a FIFO or a device\n"
               "  written through; a path that cannot be written is refused before the minutes of measuring.\n");
        return 0;
    }
    for (int i = 2; i < argc && rc; i++) /* the mode typed later than first: say where it goes */
        if (!strcmp(argv[i], "--network"))
            snprintf(err, sizeof err, "--network: expected first (ddlbench calibrate network ...)");
    if (rc) {
        fprintf(stderr, "ddlbench calibrate: %s\n", err);
        return 2;
    }
    if (outfile_check("-o", path, err, sizeof err)) { /* before minutes of measuring */
        fprintf(stderr, "ddlbench calibrate: %s\n", err);
        return 2;
    }
    const char *threads = getenv("OPENBLAS_NUM_THREADS");
    if ((!threads || strcmp(threads, "1")) && !getenv("DDL_CALIBRATE_REEXEC")) {
        setenv("OPENBLAS_NUM_THREADS", "1", 1);
        setenv("DDL_CALIBRATE_REEXEC", "1", 1);
        execv("/proc/self/exe", argv - 1); /* argv[-1] is the executable: main passed argv + 1 */
        fprintf(stderr, "ddlbench calibrate: note: could not re-execute with OPENBLAS_NUM_THREADS=1\n");
    }
    if (calib_compute_profile(&pr)) {
        fprintf(stderr, "ddlbench calibrate: measurement failed (gemm: %s; out of memory?)\n",
                kern_gemm_backend());
        return 1;
    }
    calib_compute_header(header, sizeof header);
    if (profile_write(path, &pr, header, err, sizeof err)) {
        fprintf(stderr, "ddlbench calibrate: %s\n", err);
        return 1;
    }
    printf("%s: gemm_gflops_fp32 = %.4g, reduce_ns_per_byte = %.4g, mem_gbps = %.4g, sgd_gbps = %.4g\n", path,
           pr.gemm_gflops_fp32, pr.reduce_ns_per_byte, pr.mem_gbps, pr.sgd_gbps);
    return 0;
}
