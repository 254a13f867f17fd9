/* cli_advise_sim.c — `ddlbench advise --sim`: the bucket grid through the simulator. For each first-
 * bucket size, one launch of `ddlbench-sim train --bucket-mb CAPS --first-bucket-mb F --compute full`
 * (the full step the model prices; one warm-up and one timed step per cap, the sweep's settings)
 * through the scripts' one launcher, `harness/scripts/launch.sh -b simulated -n RANKS -g GPUS_PER_NODE
 * -p DIR`, on the platform written into a temporary folder DIR; the bucket_MB, exposed_ms and
 * step_ms_median columns of its CSV, read by csv.h's reader, fill the grid. The launches' output is
 * kept in the temporary folder only when one fails (its path is printed). */
#include "cli_advise.h"
#include "csv.h"
#include "textfile.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* The folder of this executable, into dir. */
static int exe_dir(char *dir, size_t len)
{
    ssize_t n = readlink("/proc/self/exe", dir, len - 1);
    if (n <= 0) return -1;
    dir[n] = '\0';
    char *s = strrchr(dir, '/');
    if (s) *s = '\0';
    return 0;
}

static int write_platform(const platform *pf, const char *dir, char *err, size_t errlen)
{
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/platform.xml", dir);
    FILE *x = fopen(path, "w");
    int bad = !x || platform_write_xml(pf, x);
    if (x) bad |= fclose(x) != 0;
    snprintf(path, sizeof path, "%s/hostfile", dir);
    FILE *h = bad ? NULL : fopen(path, "w");
    bad |= !h || platform_write_hostfile(pf, h);
    if (h) bad |= fclose(h) != 0;
    if (bad) snprintf(err, errlen, "cannot write the platform into %s: %s", dir, strerror(errno));
    return bad;
}

/* One launch; 0 when it exited 0. */
static int launch(const advise_opts *o, const platform *pf, const char *script, const char *exe, const char *dir,
                  long first, const char *caps, const char *csv)
{
    char np[16], gpn[16], batch[16], image[16], firstv[16], log[PATH_MAX];
    snprintf(np, sizeof np, "%d", platform_ranks(pf));
    snprintf(gpn, sizeof gpn, "%d", pf->gpus_per_node);
    snprintf(batch, sizeof batch, "%ld", o->batch);
    snprintf(image, sizeof image, "%ld", o->image);
    snprintf(firstv, sizeof firstv, "%ld", first);
    snprintf(log, sizeof log, "%s/first-%ld.log", dir, first);
    fflush(stdout);
    pid_t pid = fork();
    if (pid < 0) return -1;
    if (pid == 0) {
        FILE *f = freopen(log, "w", stdout);
        if (!f || dup2(fileno(stdout), 2) < 0) _exit(127);
        execlp("sh", "sh", script, "-b", "simulated", "-n", np, "-g", gpn, "-p", dir, exe, "train", "--model", o->model,
               "--batch", batch, "--image-size", image, "-a", o->algo, "--bucket-mb", caps, "--first-bucket-mb", firstv,
               "--steps", "1", "--warmup", "1", "--compute", "full", "--profile", o->profile, "--platform", o->preset,
               "--gpus-per-node", gpn, "--csv", csv, (char *)NULL);
        _exit(127);
    }
    int st = 0;
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR) continue;
    return WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : -1;
}

/* Reads bucket_MB, exposed_ms, step_ms_median of every row of csv into the grid column of first f;
 * 0 when every cap has its row. */
static int read_csv(const advise_opts *o, const char *csv, int f, double *exposed, double *step)
{
    char *text = NULL, err[512];
    size_t len = 0;
    csv_doc d = { 0 };
    int got = 0;
    if (!textfile_read(csv, &text, &len, err, sizeof err) && !csv_read(text, len, 0, &d, err, sizeof err)) {
        int cb = csv_col(&d, "bucket_MB"), ce = csv_col(&d, "exposed_ms"), cs = csv_col(&d, "step_ms_median");
        for (int r = 0; cb >= 0 && ce >= 0 && cs >= 0 && r < d.nrows; r++) {
            long mb = strtol(csv_cell(&d, r, cb), NULL, 10);
            for (int c = 0; c < o->ncaps; c++)
                if (o->caps[c] == mb) {
                    exposed[f * o->ncaps + c] = strtod(csv_cell(&d, r, ce), NULL) * 1e-3;
                    step[f * o->ncaps + c] = strtod(csv_cell(&d, r, cs), NULL) * 1e-3;
                    got++;
                }
        }
    }
    csv_free(&d);
    free(text);
    return got >= o->ncaps ? 0 : -1;
}

/* Removes what the launches wrote into dir (platform, CSVs, logs) and dir itself. */
static void remove_files(const advise_opts *o, const char *dir)
{
    char p[PATH_MAX];
    static const char *const fixed[] = { "platform.xml", "hostfile", "ddlbench-sim" };
    for (int i = 0; i < 3; i++) snprintf(p, sizeof p, "%s/%s", dir, fixed[i]), remove(p);
    for (int f = 0; f < o->nfirsts; f++) {
        snprintf(p, sizeof p, "%s/first-%ld.csv", dir, o->firsts[f]);
        remove(p);
        snprintf(p, sizeof p, "%s/first-%ld.log", dir, o->firsts[f]);
        remove(p);
    }
    rmdir(dir);
}

/* The simulation binary and launch.sh into exe and script (PATH_MAX each). 0, or 2 with a message. */
static int sim_paths(const advise_opts *o, char *exe, char *script, char *err, size_t errlen)
{
    char here[PATH_MAX];
    if (exe_dir(here, sizeof here)) return snprintf(err, errlen, "cannot find this executable's folder"), 2;
    snprintf(exe, PATH_MAX, "%s", o->sim_exe ? o->sim_exe : "");
    if (!o->sim_exe) snprintf(exe, PATH_MAX, "%.4000s/sim/ddlbench-sim", here);
    snprintf(script, PATH_MAX, "%.4000s/../harness/scripts/launch.sh", here);
    struct stat st;
    if (access(exe, X_OK)) return snprintf(err, errlen, "%.200s: not found (make sim, or --sim-exe PATH)", exe), 2;
    if (stat(exe, &st) || !S_ISREG(st.st_mode))
        return snprintf(err, errlen, "--sim-exe: \"%.200s\": not a regular file; expected the simulation binary "
                        "(build/sim/ddlbench-sim)", exe), 2;
    if (access(script, R_OK)) snprintf(script, PATH_MAX, "harness/scripts/launch.sh");
    if (access(script, R_OK))
        return snprintf(err, errlen, "harness/scripts/launch.sh not found (run from the repository)"), 2;
    return 0;
}

int advise_sim_check(const advise_opts *o, char *err, size_t errlen)
{
    char exe[PATH_MAX], script[PATH_MAX];
    return sim_paths(o, exe, script, err, errlen);
}

int advise_sim_grid(const advise_opts *o, const platform *pf, double *exposed, double *step, char *err, size_t errlen)
{
    char dir[] = "/tmp/ddlbench-advise-XXXXXX", exe[PATH_MAX], script[PATH_MAX], caps[256] = "", csv[PATH_MAX];
    if (sim_paths(o, exe, script, err, errlen)) return 2;
    for (int c = 0; c < o->ncaps; c++)
        snprintf(caps + strlen(caps), sizeof caps - strlen(caps), "%s%ld", c ? "," : "", o->caps[c]);
    if (!mkdtemp(dir)) return snprintf(err, errlen, "cannot create a temporary folder: %s", strerror(errno)), 1;
    if (write_platform(pf, dir, err, errlen)) return 1;
    /* smpirun is a shell script that splits a path with blanks: the binary is launched through a link of
     * a plain name in the temporary folder, to the absolute path of the real one */
    char target[8200], cwd[PATH_MAX], link_path[PATH_MAX];
    if (exe[0] == '/') snprintf(target, sizeof target, "%s", exe);
    else if (getcwd(cwd, sizeof cwd)) snprintf(target, sizeof target, "%.4000s/%.4000s", cwd, exe);
    else return snprintf(err, errlen, "cannot find the working folder: %s", strerror(errno)), 1;
    snprintf(link_path, sizeof link_path, "%s/ddlbench-sim", dir);
    if (symlink(target, link_path)) return snprintf(err, errlen, "cannot link the simulation binary into %s: %s", dir,
                                                    strerror(errno)), 1;
    snprintf(exe, PATH_MAX, "%s", link_path);
    for (int f = 0; f < o->nfirsts; f++) {
        snprintf(csv, sizeof csv, "%s/first-%ld.csv", dir, o->firsts[f]);
        fprintf(stderr, "# advise --sim: %d simulated GPUs, first bucket %ld MiB, caps %s ...\n", platform_ranks(pf),
                o->firsts[f], caps);
        if (launch(o, pf, script, exe, dir, o->firsts[f], caps, csv) || read_csv(o, csv, f, exposed, step)) {
            snprintf(err, errlen, "the simulation with first bucket %ld MiB failed; its output: %s/first-%ld.log",
                     o->firsts[f], dir, o->firsts[f]);
            return 1;
        }
    }
    remove_files(o, dir);
    return 0;
}
