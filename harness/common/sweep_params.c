/* sweep_params.c — the scaling sweep's parameters and limits (see sweep_params.h). The messages are
 * those sweep.sh printed before the checks moved here (tests/bad_inputs.sh asserts them). */
#include "sweep_params.h"
#include "parse.h"

#include <stdio.h>
#include <string.h>

typedef struct sweep_opt { const char *opt, *var; size_t at; } sweep_opt; /* at: offset of the field */

#define AT(f) offsetof(sweep_params, f)
static const sweep_opt opts[] = {
    { "--backend", "BACKEND", AT(backend) }, { "--nodes", "NODES", AT(nodes) },
    { "--gpus-per-node", "GPUS_PER_NODE", AT(gpus_per_node) }, { "--models", "MODELS", AT(models) },
    { "--algos", "ALGOS", AT(algos) }, { "--bucket-mb", "BUCKET_MB", AT(bucket_mb) },
    { "--platform", "PLATFORM", AT(platform) }, { "--profile", "PROFILE", AT(profile) },
    { "--rate", "RATE", AT(rate) }, { "--delay", "DELAY", AT(delay) },
    { "--train-args", "TRAIN_ARGS", AT(train_args) }, { "--jobs", "JOBS", AT(jobs) },
    { "--sim-ring-max", "--sim-ring-max", AT(ring_max) }, { "--device", "DEVICE", AT(device) },
    { "--command", "--command", AT(command) },
};

void sweep_params_defaults(sweep_params *p)
{
    *p = (sweep_params){ .backend = "sim", .nodes = "2", .gpus_per_node = "", .models = "resnet50:32,resnet101-22k:20",
                         .algos = "mpi,ring,rhd,ddl,auto", .bucket_mb = "25", .platform = "", .profile = "",
                         .rate = "none", .delay = "none", .train_args = "", .jobs = "1", .ring_max = "256",
                         .device = "cpu", .command = "" };
}

int sweep_params_set(sweep_params *p, const char *opt, const char *val)
{
    if (!strcmp(opt, "-j")) opt = "--jobs";
    for (size_t i = 0; i < sizeof opts / sizeof opts[0]; i++)
        if (!strcmp(opt, opts[i].opt)) {
            *(const char **)((char *)p + opts[i].at) = val;
            return 0;
        }
    return -1;
}

const char *sweep_name(const sweep_params *p, const char *opt)
{
    for (size_t i = 0; p->make && i < sizeof opts / sizeof opts[0]; i++)
        if (!strcmp(opt, opts[i].opt)) return opts[i].var;
    return opt;
}

static int bad(const sweep_params *p, const char *opt, char *err, size_t errlen, const char *what, const char *got)
{
    snprintf(err, errlen, "%s: %s%.200s%s", sweep_name(p, opt), what, got ? got : "", got ? "\"" : "");
    return 2;
}

/* A count as sweep.sh took it: decimal digits, no leading zero, at most 9 of them, in min..max.
 * what: "" or " batch of resnet50", after the option's name in the message. */
static int count(const sweep_params *p, const char *opt, const char *what, const char *s, long min, long max,
                 long *out, char *err, size_t errlen)
{
    long v = 0;
    size_t k = strspn(s, "0123456789");
    if (!*s || s[k] || (s[0] == '0' && s[1]) || k > 9 || parse_int(s, min, max, &v)) {
        snprintf(err, errlen, "%s%.200s: expected an integer in %ld..%ld, got \"%.200s\"", sweep_name(p, opt), what, min,
                 max, s);
        return 2;
    }
    *out = v;
    return 0;
}

static int is_list(const char *s) /* a comma list without empty items */
{
    size_t n = strlen(s);
    return n && s[0] != ',' && s[n - 1] != ',' && !strstr(s, ",,");
}

static int check_models(const sweep_params *p, char *err, size_t errlen)
{
    if (!is_list(p->models))
        return bad(p, "--models", err, errlen, "expected a comma list of model:batch like resnet50:32, got \"", p->models);
    char buf[4096], name[300];
    snprintf(buf, sizeof buf, "%s", p->models);
    for (char *save = NULL, *mb = strtok_r(buf, ",", &save); mb; mb = strtok_r(NULL, ",", &save)) {
        char *colon = strchr(mb, ':');
        long batch;
        if (!colon || colon == mb) return bad(p, "--models", err, errlen, "expected model:batch like resnet50:32, got \"", mb);
        *colon = '\0';
        snprintf(name, sizeof name, " batch of %.200s", mb);
        if (count(p, "--models", name, colon + 1, 1, SWEEP_BATCH_MAX, &batch, err, errlen)) return 2;
    }
    return 0;
}

/* --train-args: no option the sweep sets itself (and under simulation, not the machine's). */
static int check_train_args(const sweep_params *p, char *err, size_t errlen)
{
    static const char *const set[] = { "--csv", "--model", "--batch", "-a", "--algo", "--bucket-mb" };
    static const char *const sim[] = { "--profile", "--platform", "--gpus-per-node" };
    char buf[4096], what[300];
    snprintf(buf, sizeof buf, "%s", p->train_args);
    for (char *save = NULL, *a = strtok_r(buf, " \t\n", &save); a; a = strtok_r(NULL, " \t\n", &save)) {
        for (size_t i = 0; i < sizeof set / sizeof set[0]; i++)
            if (!strcmp(a, set[i])) {
                snprintf(what, sizeof what, "%s is set by the sweep; expected other ddlbench train options", a);
                return bad(p, "--train-args", err, errlen, what, NULL);
            }
        for (size_t i = 0; !strcmp(p->backend, "sim") && i < sizeof sim / sizeof sim[0]; i++)
            if (!strcmp(a, sim[i])) {
                snprintf(what, sizeof what, "%s is set by the sweep under simulation (use %s)", a, sweep_name(p, a));
                return bad(p, "--train-args", err, errlen, what, NULL);
            }
    }
    return 0;
}

static int one_of(const char *s, const char *const *set, size_t n)
{
    for (size_t i = 0; i < n; i++) if (!strcmp(s, set[i])) return 1;
    return 0;
}

int sweep_check(sweep_params *p, char *err, size_t errlen)
{
    static const char *const backends[] = { "sim", "mpi", "emu", "model" };
    int model = !strcmp(p->backend, "model"), mpi = !strcmp(p->backend, "mpi");
    if (!one_of(p->backend, backends, 4))
        return bad(p, "--backend", err, errlen, "expected sim, mpi, emu or model, got \"", p->backend);
    if (strcmp(p->backend, "emu") && (strcmp(p->rate, "none") || strcmp(p->delay, "none")))
        return bad(p, "--rate", err, errlen, "only with --backend emu (--rate, --delay)", NULL);
    if (!strcmp(p->device, "gpu") && !mpi) return bad(p, "--device", err, errlen, "gpu only with --backend mpi", NULL);
    if (strcmp(p->device, "cpu") && strcmp(p->device, "gpu"))
        return bad(p, "--device", err, errlen, "expected cpu or gpu, got \"", p->device);
    if (count(p, "--nodes", "", p->nodes, 1, model ? SWEEP_NODES_MAX_MODEL : SWEEP_NODES_MAX, &p->n_nodes, err, errlen) ||
        count(p, "--gpus-per-node", "", p->gpus_per_node, 1, SWEEP_GPN_MAX, &p->n_gpn, err, errlen) ||
        count(p, "--bucket-mb", "", p->bucket_mb, 0, SWEEP_BUCKET_MAX, &p->n_bucket, err, errlen) ||
        count(p, "--jobs", "", p->jobs, 1, SWEEP_JOBS_MAX, &p->n_jobs, err, errlen) ||
        count(p, "--sim-ring-max", "", p->ring_max, 0, SWEEP_GPUS_MAX, &p->n_ring_max, err, errlen))
        return 2;
    if (p->n_nodes * p->n_gpn > SWEEP_GPUS_MAX) {
        snprintf(err, errlen, "%s: expected at most %d GPUs in all, got %ld nodes x %ld = %ld", sweep_name(p, "--nodes"),
                 SWEEP_GPUS_MAX, p->n_nodes, p->n_gpn, p->n_nodes * p->n_gpn);
        return 2;
    }
    if (check_models(p, err, errlen)) return 2;
    if ((model || !strcmp(p->backend, "sim")) && !strcmp(p->platform, "custom"))
        return bad(p, "--platform", err, errlen, "custom needs link figures the sweep cannot pass; expected minsky, "
                   "bigbasin, h200 or a platform file", NULL);
    if (!is_list(p->algos) || p->algos[strspn(p->algos, "abcdefghijklmnopqrstuvwxyz0123456789,_-")])
        return bad(p, "--algos", err, errlen, "expected a comma list of algorithms (see ddlbench list), got \"", p->algos);
    return check_train_args(p, err, errlen);
}
