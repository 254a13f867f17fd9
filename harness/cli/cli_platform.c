/* cli_platform.c — `ddlbench platform`: write the SMPI platform of a preset and its hostfile, or
 * export a preset as an editable platform file.
 *   ddlbench platform --platform minsky --nodes 64 (old spelling: --preset) [--gpus-per-node N] [-o DIR]
 *   ddlbench platform --export NAME [-o FILE]     (no -o: standard output)
 * writes DIR/platform.xml, DIR/hostfile (one simulated host per GPU, node-major) and DIR/smpi.cfg (the
 * SMPI factor options of a calibrated platform file, empty otherwise; simlaunch.sh applies it), and
 * DIR/sim.env (the machine itself, so a simulated program given no --platform uses the same links, and a
 * file's copy cost by working set and per-call overhead; simlaunch.sh exports them): all
 * checked before anything is written, all written to temporary files, and renamed into place only when
 * all are complete (outfile.h), so a failure leaves no half set. --platform FILE reads a platform file
 * (platform_file.h; `ddlbench calibrate --network` writes one). Needs no MPI launch. */
#include "cli.h"
#include "cli_rows.h"
#include "opts.h"
#include "outfile.h"
#include "platform.h"
#include "platform_file.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static const opt_row out_row = { .name = "-o", .type = OPT_STRING, .unit = "DIR",
                                 .help = "where platform.xml, hostfile, smpi.cfg and sim.env go (default .);\n"
                                         "with --export, the file to write (default: standard output)" };
static const opt_row export_row = { .name = "--export", .type = OPT_STRING, .min = 1, .unit = "NAME",
                                    .help = "write preset NAME (or a platform file) as an editable platform file" };

static const opt_row show_row = { .name = "--show", .type = OPT_FLAG,
                                  .help = "print the resolved links of --platform (at --nodes where given), one line:\n"
                                          "GPU link per GPU, NICs x each = per node, leaves; writes nothing" };

#define PLATFORM_SETS(po, dir, ex, show) { { platform_rows, PLATFORM_ROWS, (po) }, OPTS_ONE(&out_row, (dir)), \
                                           OPTS_ONE(&export_row, (ex)), OPTS_ONE(&show_row, (show)) }

static void usage(FILE *f)
{
    platform_opts o;
    const char *dir, *ex;
    int show;
    char line[300];
    const opts_set sets[] = PLATFORM_SETS(&o, &dir, &ex, &show);
    fprintf(f, "usage: ddlbench platform --platform NAME|FILE --nodes N [--gpus-per-node N] [-o DIR]\n"
               "       ddlbench platform --export NAME [-o FILE]   a preset as an editable platform file\n"
               "       custom links: --platform custom --intra-bw BW --intra-lat T --inter-bw BW --inter-lat T\n"
               "       FILE: a platform file (a path with '/' or ending in .platform), e.g. from\n"
               "       `ddlbench calibrate --network`; writes DIR/platform.xml, DIR/hostfile, DIR/smpi.cfg,\n"
               "       DIR/sim.env\n"
               "       (BW: bytes/s with k/M/G/T, or 100Gbit; T: 5us, 1ms, ...)\n");
    opts_usage(f, sets, (int)(sizeof sets / sizeof sets[0]));
    fprintf(f, "presets:\n");
    for (int i = 0; i < platform_preset_count() - 1; i++) { /* custom last: it has no numbers */
        platform_describe(platform_preset(i), line, sizeof line);
        fprintf(f, "  %-9s %s\n            %s\n", platform_preset(i)->name, platform_preset_help(i), line);
    }
    fprintf(f, "  %-9s %s\n", "custom", platform_preset_help(platform_preset_count() - 1));
}

/* --export NAME: the platform as a file, to -o FILE (whole or not at all) or standard output. */
static int export_platform(const char *name, const char *path, char *err, size_t errlen)
{
    platform pf;
    platform_fit fit = { 0 }; /* a calibrated file's factors, kept */
    char header[600], line[300];
    if (!strcmp(name, "custom"))
        return snprintf(err, errlen, "--export: custom has no numbers; expected a preset or a platform file"), 2;
    if (platform_lookup(&pf, name, err, errlen)) return 2;
    if (platform_is_file(name) && platform_file_load(name, &pf, &fit, err, errlen)) return 2;
    if (path && outfile_check("-o", path, err, errlen)) return 2;
    platform_describe(&pf, line, sizeof line);
    snprintf(header, sizeof header,
             "%s — exported by `ddlbench platform --export %s`: edit and pass as --platform FILE.\n"
             "%s\nKeys and units: harness/sim/platform_file.h; sources of the presets' numbers: docs/SOURCES.md.",
             pf.name, name, line);
    if (path) return platform_file_write(path, &pf, &fit, header, err, errlen) ? 1 : 0;
    for (const char *h = header; *h;) {
        size_t n = strcspn(h, "\n");
        printf("# %.*s\n", (int)n, h);
        h += n + (h[n] == '\n');
    }
    platform_file_put(stdout, &pf);
    platform_file_put_fit(stdout, &fit);
    return ferror(stdout) ? (snprintf(err, errlen, "writing standard output failed"), 1) : 0;
}

/* --show: the platform's resolved links, one line (at --nodes where given: a leaf over them is shown
 * partly filled, as the sweep's smaller points run it). 0, or 2 with a message. */
static int show_platform(platform_opts *o, const char *dir, char *err, size_t errlen)
{
    platform pf;
    char line[400];
    int rc = dir ? (snprintf(err, errlen, "--show: writes nothing; expected no -o"), 2) : 0;
    if (!rc && o->nodes < 0) rc = platform_lookup(&pf, o->preset ? o->preset : "minsky", err, errlen);
    else if (!rc) o->partial_leaf = 1, rc = platform_from_opts(o, &pf, err, errlen);
    if (!rc && o->nodes < 0 && o->gpus_per_node) rc = (snprintf(err, errlen, "--gpus-per-node: with --nodes"), 2);
    if (rc) {
        fprintf(stderr, "ddlbench platform: %s\n", err);
        return rc;
    }
    platform_describe(&pf, line, sizeof line);
    if (o->nodes < 0) printf("%s: %s\n", pf.name, line);
    else printf("%s, %d nodes: %s\n", pf.name, pf.nodes, line);
    return 0;
}

#define NFILES 4
static const char *const names[NFILES] = { "platform.xml", "hostfile", "smpi.cfg", "sim.env" };

/* DIR/name for every file; 0, or 2 with a message. */
static int paths(const char *dir, char path[NFILES][4096], char *err, size_t errlen)
{
    for (int k = 0; k < NFILES; k++)
        if (snprintf(path[k], sizeof path[k], "%s/%s", dir, names[k]) >= (int)sizeof path[k])
            return snprintf(err, errlen, "-o: path too long"), 2;
    return 0;
}

/* smpi.cfg: the factors of a platform file, empty for a preset (so none lingers from an earlier one). */
static platform_fit cfg_fit;
static int cfg_writer(const platform *pf, FILE *f)
{
    (void)pf;
    return platform_write_smpi_cfg(&cfg_fit, f);
}

/* sim.env: the machine (DDL_SIM_PLATFORM: the preset, or the file's absolute path, and the folder's GPUs
 * per node: platform_env), the copy cost by working set and the per-call overhead (simlaunch.sh exports
 * them). Custom links have no name to give: no machine line. */
static char env_platform[4096];
static int env_writer(const platform *pf, FILE *f)
{
    if (*env_platform) fprintf(f, "DDL_SIM_PLATFORM=%s\nDDL_SIM_GPUS_PER_NODE=%d\n", env_platform, pf->gpus_per_node);
    return platform_write_sim_env(&cfg_fit, f);
}

/* The name sim.env gives the machine: a preset's own, a file's absolute path (the folder may be used
 * from elsewhere), none for custom or a path with control characters (sim.env is one value a line). */
static void env_name(const char *preset)
{
    char cwd[4096] = "";
    env_platform[0] = '\0';
    if (!preset) preset = "minsky";
    if (!strcmp(preset, "custom")) return;
    if (platform_is_file(preset) && *preset != '/' && !getcwd(cwd, sizeof cwd)) return;
    int n = snprintf(env_platform, sizeof env_platform, "%s%s%s", cwd, *cwd ? "/" : "", preset), ok = 1;
    for (const char *c = env_platform; *c && ok; c++) ok = (unsigned char)*c >= 0x20 && *c != 0x7f;
    if (!ok || n >= (int)sizeof env_platform) env_platform[0] = '\0';
}

/* Every file, written whole or not at all. 0, or 1 with a message. */
static int write_files(char path[NFILES][4096], const platform *pf, char *err, size_t errlen)
{
    int (*const fn[NFILES])(const platform *, FILE *) = { platform_write_xml, platform_write_hostfile, cfg_writer,
                                                                      env_writer };
    outfile f[NFILES];
    int opened = 0, rc = 1;
    for (; opened < NFILES; opened++) {
        if (outfile_open(&f[opened], path[opened], err, errlen)) goto out;
        if (fn[opened](pf, f[opened].f)) {
            snprintf(err, errlen, "writing \"%.200s\" failed", path[opened]);
            opened++;
            goto out;
        }
    }
    for (int k = 0; k < NFILES; k++)
        if (outfile_close(&f[k], err, errlen)) goto out;
    for (int k = 0; k < NFILES; k++)
        if (outfile_commit(&f[k], err, errlen)) goto out;
    rc = 0;
out:
    for (int k = 0; k < opened; k++) outfile_discard(&f[k]);
    return rc;
}

int cli_platform_main(int argc, char **argv)
{
    platform_opts o = PLATFORM_OPTS_INIT;
    platform pf;
    const char *dir = NULL, *ex = NULL;
    int show = 0;
    char err[700];
    const opts_set sets[] = PLATFORM_SETS(&o, &dir, &ex, &show);
    opts_parser p = { sets, (int)(sizeof sets / sizeof sets[0]), NULL, 0, 0, { 0 } };
    int prc = opts_parse(&p, argc, argv, err, sizeof err);
    if (prc == OPTS_HELP) usage(stdout);
    if (prc == OPTS_BAD) fprintf(stderr, "ddlbench platform: %s\n", err);
    if (prc) return prc == OPTS_HELP ? 0 : 2;
    if (ex) { /* every platform option would be ignored: refused, naming it */
        int rc = show ? (snprintf(err, sizeof err, "--export: takes only -o FILE; --show would be ignored"), 2) : 0;
        for (int k = 0; k < PLATFORM_ROWS && !rc; k++)
            if (p.given[k])
                rc = 2, snprintf(err, sizeof err, "--export: takes only -o FILE; %s would be ignored",
                                 platform_rows[k].name);
        if (!rc) rc = export_platform(ex, dir, err, sizeof err);
        if (rc) fprintf(stderr, "ddlbench platform: %s\n", err);
        return rc;
    }
    if (show) return show_platform(&o, dir, err, sizeof err);
    if (!dir) dir = ".";
    char path[NFILES][4096];
    memset(&cfg_fit, 0, sizeof cfg_fit);
    int bad = platform_from_opts(&o, &pf, err, sizeof err) || outfile_check_dir("-o", dir, err, sizeof err) ||
              paths(dir, path, err, sizeof err);
    for (int k = 0; k < NFILES && !bad; k++) bad = outfile_check("-o", path[k], err, sizeof err);
    if (!bad && platform_is_file(o.preset)) { /* its SMPI factors, for smpi.cfg */
        platform file;
        bad = platform_file_load(o.preset, &file, &cfg_fit, err, sizeof err);
    }
    if (bad) {
        fprintf(stderr, "ddlbench platform: %s\n", err);
        return 2;
    }
    env_name(o.preset);
    if (write_files(path, &pf, err, sizeof err)) {
        fprintf(stderr, "ddlbench platform: %s\n", err);
        return 1;
    }
    printf("%s/platform.xml %s/hostfile: %s, %d nodes x %d GPUs = %d hosts\n", dir, dir, pf.name, pf.nodes,
           pf.gpus_per_node, platform_ranks(&pf));
    return 0;
}
