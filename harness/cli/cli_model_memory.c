/* cli_model_memory.c — `ddlbench model memory`: each rank's bytes for parameters, gradients and
 * optimizer state of a network (or of --params parameters) under each sharding of data parallelism
 * (shard_mem.h: none = DDP, optimizer = ZeRO-1, gradients = ZeRO-2, full = ZeRO-3 / FSDP), the
 * optimizer and precision given. Needs no MPI launch. */
#include "cli.h"
#include "cli_rows.h"
#include "model.h"
#include "opts.h"
#include "shard_mem.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>

typedef struct mem_opts {
    const char *model;  /* --model */
    double params;      /* --params: a parameter count instead of a model (0: none) */
    long ranks;         /* --ranks */
    long group;         /* --shard-group (0: all ranks) */
    int shard;          /* --shard: SHARD_* or SHARD_MODES (all) */
    int optim;          /* --optimizer */
    int prec;           /* --precision */
} mem_opts;

static const char *const shards[] = { "none", "optimizer", "gradients", "full", "all", NULL };
static const char *const optims[] = { "sgd", "adam", "lamb", NULL };
static const char *const precs[] = { "fp32", "mixed", NULL };

#define O(f) offsetof(mem_opts, f)
static const opt_row rows[] = {
    { .name = "--params", .type = OPT_DOUBLE, .min = 1, .max = 1e15, .off = O(params), .unit = "P",
      .help = "a parameter count instead of --model (e.g. 7.5e9, the ZeRO paper's example)" },
    { .name = "--ranks", .type = OPT_LONG, .min = 1, .max = 1 << 24, .off = O(ranks),
      .help = "data-parallel ranks (default 8)" },
    { .name = "--shard-group", .type = OPT_LONG, .min = 1, .max = 1 << 24, .off = O(group),
      .help = "shard within groups of G ranks, replicated across groups (FSDP's HYBRID_SHARD);\n"
              "G divides --ranks (default: all ranks, one group)" },
    { .name = "--shard", .type = OPT_CHOICE, .choices = shards, .off = O(shard),
      .unit = "none|optimizer|gradients|full|all",
      .help = "the sharding: none (DDP), optimizer (ZeRO-1), gradients (ZeRO-2), full (ZeRO-3,\n"
              "FSDP FULL_SHARD), or all four rows (default)" },
    { .name = "--optimizer", .type = OPT_CHOICE, .choices = optims, .off = O(optim), .unit = "sgd|adam|lamb",
      .help = "state per parameter: sgd (momentum, 4 B), adam and lamb (m and v, 8 B) (default adam)" },
    { .name = "--precision", .type = OPT_CHOICE, .choices = precs, .off = O(prec), .unit = "fp32|mixed",
      .help = "fp32: 4-byte parameters and gradients; mixed (default): 2-byte ones and an fp32\n"
              "master copy in the optimizer state (+4 B)" },
};

static void usage(FILE *f, mem_opts *o)
{
    const opts_set sets[] = { OPTS_ONE(&cli_row_model, &o->model), OPTS_SET(rows, o) };
    fprintf(f, "usage: ddlbench model memory [--model NAME | --params P] [--ranks N] [--shard MODE] [--optimizer O]\n"
               "                             [--precision fp32|mixed] [--shard-group G]\n"
               "  Each rank's memory for parameters, gradients and optimizer state (GB = 1e9 bytes), as the\n"
               "  ZeRO paper (Figure 1) and FSDP count it: what sharding over the group divides. gathered:\n"
               "  with full sharding, the two layers whole at a time (the one in use, the next prefetched).\n");
    opts_usage(f, sets, 2);
}

/* The largest parameters of two adjacent layers that own tensors (FSDP units of one layer). */
static long long max_pair(const model *m)
{
    long long best = 0, prev = 0;
    for (int l = 0; l < model_layer_count(m); l++) {
        long long p = model_layer_at(m, l)->params;
        if (!p) continue;
        if (prev + p > best) best = prev + p;
        prev = p;
    }
    return best;
}

int cli_model_memory(int argc, char **argv)
{
    mem_opts o = { NULL, 0, 8, 0, SHARD_MODES, OPTIM_ADAM, PREC_MIXED };
    const opts_set sets[] = { OPTS_ONE(&cli_row_model, &o.model), OPTS_SET(rows, &o) };
    opts_parser p = { sets, 2, NULL, 0, 0, { 0 } };
    char err[600], why[512];
    model *m = NULL;
    int rc = opts_parse(&p, argc, argv, err, sizeof err);
    if (rc == OPTS_HELP) return usage(stdout, &o), 0;
    if (!rc && o.model && o.params > 0)
        rc = 2, snprintf(err, sizeof err, "--params: a count instead of --model; expected one of them");
    if (!rc && o.group && o.ranks % o.group)
        rc = 2, snprintf(err, sizeof err, "--shard-group %ld: does not divide --ranks %ld; expected a divisor", o.group,
                         o.ranks);
    if (!rc && !o.params && model_create(o.model ? o.model : "resnet50", 1, 224, &m, why, sizeof why))
        rc = 2, snprintf(err, sizeof err, "%s", why);
    if (rc) {
        fprintf(stderr, "ddlbench model memory: %s\n", err);
        return 2;
    }
    long long params = m ? model_param_count(m) : (long long)o.params, pair = m ? max_pair(m) : 0;
    int group = (int)(o.group ? o.group : o.ranks);
    printf("# ddlbench model memory: %s, %lld parameters, %ld ranks, shard group %d, %s, %s (%g B a parameter and a "
           "gradient, optimizer state %g B a parameter)\n",
           m ? model_name(m) : "--params", params, o.ranks, group, optim_name(o.optim), precs[o.prec],
           param_bytes(o.prec), optim_state_bytes(o.optim, o.prec));
    printf("# %-10s %-6s %11s %11s %13s %11s %13s\n", "shard", "zero", "params_GB", "grads_GB", "optimizer_GB",
           "total_GB", "gathered_GB");
    for (int s = 0; s < SHARD_MODES; s++) {
        shard_bytes b;
        if (o.shard != SHARD_MODES && o.shard != s) continue;
        shard_mem(params, pair, s, o.optim, o.prec, group, &b);
        printf("  %-10s %-6d %11.3f %11.3f %13.3f %11.3f %13.3f\n", shard_mode_name(s), s, b.params / 1e9,
               b.grads / 1e9, b.state / 1e9, b.total / 1e9, b.gathered / 1e9);
    }
    model_free(m);
    return 0;
}
