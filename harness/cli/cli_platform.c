/* cli_platform.c — `ddlbench platform`: write the SMPI platform of a preset and its hostfile.
 *   ddlbench platform --preset minsky --nodes 64 [--gpus-per-node N] [-o DIR]
 * writes DIR/platform.xml and DIR/hostfile (one simulated host per GPU, node-major): both checked
 * before anything is written, both written to temporary files, and renamed into place only when both
 * are complete (outfile.h), so a failure leaves neither half. Needs no MPI launch. */
#include "cli.h"
#include "outfile.h"
#include "platform.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

static void usage(FILE *f)
{
    fprintf(f, "usage: ddlbench platform --preset NAME --nodes N [--gpus-per-node N] [-o DIR]\n"
               "       custom links: --preset custom --intra-bw BW --intra-lat T --inter-bw BW --inter-lat T\n"
               "       (BW: bytes/s with k/M/G/T, or 100Gbit; T: 5us, 1ms, ...)\npresets:\n");
    for (int i = 0; i < platform_preset_count(); i++)
        fprintf(f, "  %-9s %s\n", platform_preset(i)->name, platform_preset_help(i));
}

static const char *const names[2] = { "platform.xml", "hostfile" };

/* DIR/name for both files; 0, or 2 with a message. */
static int paths(const char *dir, char path[2][4096], char *err, size_t errlen)
{
    for (int k = 0; k < 2; k++)
        if (snprintf(path[k], sizeof path[k], "%s/%s", dir, names[k]) >= (int)sizeof path[k])
            return snprintf(err, errlen, "-o: path too long"), 2;
    return 0;
}

/* Both files, written whole or not at all. 0, or 1 with a message. */
static int write_files(char path[2][4096], const platform *pf, char *err, size_t errlen)
{
    int (*const fn[2])(const platform *, FILE *) = { platform_write_xml, platform_write_hostfile };
    outfile f[2];
    int opened = 0, rc = 1;
    for (; opened < 2; opened++) {
        if (outfile_open(&f[opened], path[opened], err, errlen)) goto out;
        if (fn[opened](pf, f[opened].f)) {
            snprintf(err, errlen, "writing \"%.200s\" failed", path[opened]);
            opened++;
            goto out;
        }
    }
    if (outfile_close(&f[0], err, errlen) || outfile_close(&f[1], err, errlen) ||
        outfile_commit(&f[0], err, errlen) || outfile_commit(&f[1], err, errlen))
        goto out;
    rc = 0;
out:
    for (int k = 0; k < opened; k++) outfile_discard(&f[k]);
    return rc;
}

int cli_platform_main(int argc, char **argv)
{
    platform_opts o = PLATFORM_OPTS_INIT;
    platform pf;
    const char *dir = ".";
    char err[700];
    for (int i = 1; i < argc; i++) {
        int rc = platform_opt(argc, argv, &i, &o, err, sizeof err);
        if (rc == 0) continue;
        if (rc == 2) {
            fprintf(stderr, "ddlbench platform: %s\n", err);
            return 2;
        }
        if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
            usage(stdout);
            return 0;
        }
        if (strcmp(argv[i], "-o")) {
            fprintf(stderr, "ddlbench platform: unknown option \"%s\" (try --help)\n", argv[i]);
            return 2;
        }
        if (i + 1 >= argc) {
            fprintf(stderr, "ddlbench platform: -o: expected a directory after it\n");
            return 2;
        }
        dir = argv[++i];
    }
    char path[2][4096];
    if (platform_from_opts(&o, &pf, err, sizeof err) || outfile_check_dir("-o", dir, err, sizeof err) ||
        paths(dir, path, err, sizeof err) || outfile_check("-o", path[0], err, sizeof err) ||
        outfile_check("-o", path[1], err, sizeof err)) {
        fprintf(stderr, "ddlbench platform: %s\n", err);
        return 2;
    }
    if (write_files(path, &pf, err, sizeof err)) {
        fprintf(stderr, "ddlbench platform: %s\n", err);
        return 1;
    }
    printf("%s/platform.xml %s/hostfile: %s, %d nodes x %d GPUs = %d hosts\n", dir, dir, pf.name, pf.nodes,
           pf.gpus_per_node, platform_ranks(&pf));
    return 0;
}
