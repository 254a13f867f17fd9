/* cli_platform.c — `ddlbench platform`: write the SMPI platform of a preset and its hostfile.
 *   ddlbench platform --preset minsky --nodes 64 [--gpus-per-node N] [-o DIR]
 * writes DIR/platform.xml, DIR/hostfile (one simulated host per GPU, node-major) and DIR/smpi.cfg (the
 * SMPI factor options of a calibrated platform file, empty otherwise; simlaunch.sh applies it), each
 * to a temporary file first and renamed into place. --preset FILE reads a platform file
 * (platform_file.h; `ddlbench calibrate --network` writes one). Needs no MPI launch. */
#include "cli.h"
#include "guard.h"
#include "platform.h"
#include "platform_file.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

static void usage(FILE *f)
{
    fprintf(f, "usage: ddlbench platform --preset NAME|FILE --nodes N [--gpus-per-node N] [-o DIR]\n"
               "       custom links: --preset custom --intra-bw BW --intra-lat T --inter-bw BW --inter-lat T\n"
               "       FILE: a platform file (a path with '/' or ending in .platform), e.g. from\n"
               "       `ddlbench calibrate --network`; writes DIR/platform.xml, DIR/hostfile, DIR/smpi.cfg\n"
               "       (BW: bytes/s with k/M/G/T, or 100Gbit; T: 5us, 1ms, ...)\npresets:\n");
    for (int i = 0; i < platform_preset_count(); i++)
        fprintf(f, "  %-9s %s\n", platform_preset(i)->name, platform_preset_help(i));
}

/* Write one file through path.tmp + rename. 0, or 1 with a message on stderr. */
static int write_file(const char *dir, const char *name, const platform *pf,
                      int (*fn)(const platform *, FILE *))
{
    char path[4096], tmp[4200];
    FILE *f;
    int rc;
    if (snprintf(path, sizeof path, "%s/%s", dir, name) >= (int)sizeof path) {
        fprintf(stderr, "ddlbench platform: -o: path too long\n");
        return 1;
    }
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    if (!(f = fopen(tmp, "w"))) {
        fprintf(stderr, "ddlbench platform: cannot write %s: %s\n", tmp, strerror(errno));
        return 1;
    }
    rc = fn(pf, f);
    if (fclose(f) || rc || rename(tmp, path)) {
        fprintf(stderr, "ddlbench platform: writing %s failed: %s\n", path, strerror(errno));
        remove(tmp);
        return 1;
    }
    return 0;
}

/* DIR/smpi.cfg: the factors of a platform file, empty for a preset (so none lingers from an earlier one). */
static platform_fit cfg_fit;
static int cfg_writer(const platform *pf, FILE *f)
{
    (void)pf;
    return platform_write_smpi_cfg(&cfg_fit, f);
}

static int write_smpi_cfg(const char *dir, const char *preset)
{
    platform pf;
    char err[300];
    memset(&pf, 0, sizeof pf);
    memset(&cfg_fit, 0, sizeof cfg_fit);
    if (platform_is_file(preset) && platform_file_load(preset, &pf, &cfg_fit, err, sizeof err)) {
        fprintf(stderr, "ddlbench platform: %s\n", err);
        return 1;
    }
    return write_file(dir, "smpi.cfg", &pf, cfg_writer);
}

int cli_platform_main(int argc, char **argv)
{
    platform_opts o = PLATFORM_OPTS_INIT;
    platform pf;
    const char *dir = ".";
    char err[256];
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
        if (!strcmp(argv[i], "-o") && i + 1 < argc && *argv[i + 1]) {
            dir = argv[++i];
            continue;
        }
        fprintf(stderr, "ddlbench platform: unknown or incomplete option \"%s\" (try --help)\n", argv[i]);
        return 2;
    }
    if (platform_from_opts(&o, &pf, err, sizeof err) || guard_out_dir(dir, err, sizeof err)) {
        fprintf(stderr, "ddlbench platform: %s\n", err);
        return 2;
    }
    if (write_file(dir, "platform.xml", &pf, platform_write_xml) ||
        write_file(dir, "hostfile", &pf, platform_write_hostfile) || write_smpi_cfg(dir, o.preset))
        return 1;
    printf("%s/platform.xml %s/hostfile: %s, %d nodes x %d GPUs = %d hosts\n", dir, dir, pf.name, pf.nodes,
           pf.gpus_per_node, platform_ranks(&pf));
    return 0;
}
