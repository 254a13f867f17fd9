/* cli_advise.c — `ddlbench advise`: the bucket cap and first-bucket size with the least exposed
 * communication for a model on a platform and GPU count, from the α-β-γ step schedule (advise.h) and,
 * with --sim, from the simulator (cli_advise_sim.c); printed in the units of PyTorch DDP
 * (bucket_cap_mb, MiB; its first bucket is fixed at 1 MiB) and Horovod (HOROVOD_FUSION_THRESHOLD,
 * bytes; no separate first bucket). No MPI. */
#include "cli.h"
#include "cli_advise.h"
#include "parse.h"
#include "profile.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const long default_caps[] = { 1, 2, 5, 10, 15, 25, 35, 50, 64, 100, 128, 256, 0 };
static const long default_firsts[] = { 0, 1, 2, 5, 10 };

static void usage(FILE *f)
{
    fprintf(f, "usage: ddlbench advise --model M --platform P --gpus N [options]\n"
               "The gradient bucket cap and first-bucket size with the least exposed communication per step\n"
               "(communication still running after the backward pass), over a grid of both, from the\n"
               "alpha-beta-gamma model of the step `ddlbench train` runs (its default full compute: GEMMs at the\n"
               "device profile's rate, the other layer kernels and SGD at its memory rate), buckets as train\n"
               "builds them, one allreduce at a time. Sizes in MiB, as PyTorch DDP's\n"
               "bucket_cap_mb and ddlbench train --bucket-mb; Horovod's HOROVOD_FUSION_THRESHOLD in bytes.\n"
               "  --model M           resnet50 | resnet101 | resnet101-22k\n"
               "  --platform P        machine preset: minsky, bigbasin, h200 (see ddlbench platform --help)\n"
               "  --gpus N            GPUs (ranks); a multiple of the GPUs per node, or fewer than one node\n"
               "  --gpus-per-node G   default: the preset's\n"
               "  --algo A            ring | rhd | ddl | mpi | auto (default ddl; auto = per bucket what the\n"
               "                      library's auto picks, ddl_auto_choose)\n"
               "  --batch B           images per GPU (default 32; 20 for resnet101-22k, as the study)\n"
               "  --image-size N      default 224\n"
               "  --profile P         device profile (default h200 on h200, else p100)\n"
               "  --caps LIST         bucket caps to try, MiB, 0 = one bucket (default 1,2,5,...,256,0)\n"
               "  --firsts LIST       first-bucket caps to try, MiB, 0 = same as the cap (default 0,1,2,5,10)\n"
               "  --sim               also run the grid in the simulator (build/sim/ddlbench-sim; one launch\n"
               "                      per first-bucket size) and advise from its figures\n"
               "  --sim-exe PATH      the simulation binary (default: sim/ddlbench-sim beside this one)\n"
               "Exit status: 0, 1 a simulation failed, 2 bad input.\n");
}

static int bad(const char *opt, const char *v, const char *want)
{
    fprintf(stderr, "ddlbench advise: %s: expected %s, got \"%.64s\"\n", opt, want, v ? v : "(nothing)");
    return 2;
}

static int mib_list(const char *opt, const char *v, char *buf, size_t len, long *out, int *n)
{
    const char *items[ADV_MAX];
    if (parse_list(v, ',', buf, len, items, ADV_MAX, n)) return bad(opt, v, "a comma list of MiB sizes");
    for (int i = 0; i < *n; i++)
        if (parse_int(items[i], 0, 65536, &out[i])) return bad(opt, items[i], "an integer 0..65536 (MiB)");
    return 0;
}

/* 0 ok, 1 help printed, 2 bad input (printed). */
static int parse(int argc, char **argv, advise_opts *o)
{
    for (int i = 1; i < argc; i++) {
        const char *opt = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(opt, "-h") || !strcmp(opt, "--help")) return usage(stdout), 1;
        if (!strcmp(opt, "--sim")) { o->sim = 1; continue; }
        if (!v) return bad(opt, NULL, "a value (or an option of --help)");
        i++;
        if (!strcmp(opt, "--model")) o->model = v;
        else if (!strcmp(opt, "--platform")) o->preset = v;
        else if (!strcmp(opt, "--algo")) o->algo = v;
        else if (!strcmp(opt, "--profile")) o->profile = v;
        else if (!strcmp(opt, "--sim-exe")) o->sim_exe = v;
        else if (!strcmp(opt, "--gpus")) { if (parse_int(v, 1, PLATFORM_MAX_HOSTS, &o->gpus)) return bad(opt, v, "an integer 1..65536"); }
        else if (!strcmp(opt, "--gpus-per-node")) { if (parse_int(v, 1, PLATFORM_MAX_GPUS_PER_NODE, &o->gpn)) return bad(opt, v, "an integer 1..64"); }
        else if (!strcmp(opt, "--batch")) { if (parse_int(v, 1, 65536, &o->batch)) return bad(opt, v, "an integer 1..65536"); }
        else if (!strcmp(opt, "--image-size")) { if (parse_int(v, 1, 4096, &o->image)) return bad(opt, v, "an integer 1..4096"); }
        else if (!strcmp(opt, "--caps")) { if (mib_list(opt, v, o->listbuf[0], sizeof o->listbuf[0], o->caps, &o->ncaps)) return 2; }
        else if (!strcmp(opt, "--firsts")) { if (mib_list(opt, v, o->listbuf[1], sizeof o->listbuf[1], o->firsts, &o->nfirsts)) return 2; }
        else return bad("option", opt, "one of those in ddlbench advise --help");
    }
    if (!o->model || !o->preset || !o->gpus) {
        fprintf(stderr, "ddlbench advise: expected --model, --platform and --gpus (see --help)\n");
        return 2;
    }
    if (!strcmp(o->preset, "custom")) return bad("--platform", o->preset, "a preset with its links: minsky, bigbasin or h200");
    static const char *const algos[] = { "ring", "rhd", "ddl", "mpi", "auto" };
    int known = 0;
    for (int k = 0; k < 5; k++) known |= !strcmp(o->algo, algos[k]);
    return known ? 0 : bad("--algo", o->algo, "ring, rhd, ddl, mpi or auto");
}

static void defaults(advise_opts *o)
{
    memset(o, 0, sizeof *o);
    o->algo = "ddl";
    o->image = 224;
    o->ncaps = (int)(sizeof default_caps / sizeof default_caps[0]);
    memcpy(o->caps, default_caps, sizeof default_caps);
    o->nfirsts = (int)(sizeof default_firsts / sizeof default_firsts[0]);
    memcpy(o->firsts, default_firsts, sizeof default_firsts);
}

/* The platform at this GPU count: whole nodes of gpn, or one node of fewer. 0 or 2 (printed). */
static int make_platform(const advise_opts *o, platform *pf)
{
    char err[256];
    if (platform_init(pf, o->preset, 1, (int)o->gpn, err, sizeof err)) return fprintf(stderr, "ddlbench advise: %s\n", err), 2;
    int g = pf->gpus_per_node;
    if (o->gpus % g && o->gpus > g) {
        fprintf(stderr, "ddlbench advise: --gpus: expected a multiple of %d GPUs per node (or fewer than %d), got %ld\n", g, g, o->gpus);
        return 2;
    }
    long nodes = o->gpus < g ? 1 : o->gpus / g;
    if (platform_init(pf, o->preset, (int)nodes, o->gpus < g ? (int)o->gpus : g, err, sizeof err))
        return fprintf(stderr, "ddlbench advise: %s\n", err), 2;
    return 0;
}

static void print_grid(const advise_opts *o, const char *what, const double *exposed)
{
    printf("# %s: exposed communication per step, ms (rows: bucket cap MiB, 0 = one bucket; columns: first bucket MiB, 0 = the cap)\n#  cap\\first", what);
    for (int f = 0; f < o->nfirsts; f++) printf(" %8ld", o->firsts[f]);
    printf("\n");
    for (int c = 0; c < o->ncaps; c++) {
        printf("  %9ld", o->caps[c]);
        for (int f = 0; f < o->nfirsts; f++) printf(" %8.2f", exposed[f * o->ncaps + c] * 1e3);
        printf("\n");
    }
}

/* The advice among the cells whose first bucket is want_first (-1 = any). */
static int best_cell(const advise_opts *o, const advise_out *cells, const double *exposed, long want_first)
{
    unsigned char use[ADV_MAX * ADV_MAX];
    for (int i = 0; i < o->ncaps * o->nfirsts; i++) use[i] = want_first < 0 || o->firsts[i / o->ncaps] == want_first;
    return advise_pick(cells, exposed, use, o->ncaps * o->nfirsts);
}

static void print_advice(const advise_opts *o, const advise_out *cells, const double *exposed, const char *src)
{
    int all = best_cell(o, cells, exposed, -1), ddp = best_cell(o, cells, exposed, 1), hvd = best_cell(o, cells, exposed, 0);
    const advise_out *b = &cells[all];
    printf("best (%s): --bucket-mb %ld --first-bucket-mb %ld: %d buckets, exposed communication %.2f ms per step\n", src,
           o->caps[all % o->ncaps], o->firsts[all / o->ncaps], b->buckets, exposed[all] * 1e3);
    if (ddp >= 0)
        printf("  PyTorch DDP:  DistributedDataParallel(model, bucket_cap_mb=%ld)   (its first bucket is fixed at 1 MiB): "
               "exposed %.2f ms\n", o->caps[ddp % o->ncaps], exposed[ddp] * 1e3);
    if (hvd >= 0 && o->caps[hvd % o->ncaps])
        printf("  Horovod:      HOROVOD_FUSION_THRESHOLD=%ld   (%ld MiB; fusion has no separate first bucket): exposed %.2f ms\n",
               o->caps[hvd % o->ncaps] << 20, o->caps[hvd % o->ncaps], exposed[hvd] * 1e3);
    else if (hvd >= 0)
        printf("  Horovod:      one fused allreduce after backward (no fusion threshold fits; exposed %.2f ms)\n", exposed[hvd] * 1e3);
    else
        printf("  Horovod:      (not advised: --firsts has no 0, and Horovod has no separate first bucket)\n");
    if (ddp < 0) printf("  PyTorch DDP:  (not advised: --firsts has no 1, DDP's fixed first bucket)\n");
}

static int run(const advise_opts *o, const platform *pf, const advise_in *in, advise_out *cells, double *exposed, double *simx)
{
    char err[256];
    int n = o->ncaps * o->nfirsts;
    for (int i = 0; i < n; i++) {
        int rc = advise_eval(in, (size_t)o->caps[i % o->ncaps] << 20, (size_t)o->firsts[i / o->ncaps] << 20, &cells[i], err, sizeof err);
        if (rc) return fprintf(stderr, "ddlbench advise: %s\n", err), rc;
        exposed[i] = cells[i].exposed_s;
    }
    printf("# ddlbench advise: %s batch %ld (image %ld) on %s, %d GPUs (%d nodes x %d), algorithm %s, profile %s\n",
           o->model, o->batch, o->image, o->preset, platform_ranks(pf), pf->nodes, pf->gpus_per_node, o->algo, o->profile);
    printf("# model: forward %.1f ms, backward %.1f ms (GEMMs at %.0f GFLOP/s, other kernels at %.0f GB/s), SGD %.1f ms, "
           "gradients %.1f MiB\n", cells[0].fwd_s * 1e3, cells[0].bwd_s * 1e3, in->gemm_flops / 1e9, in->mem_gbps, cells[0].sgd_s * 1e3,
           (double)model_param_count(in->m) * 4 / 1048576.0);
    print_grid(o, "alpha-beta-gamma model", exposed);
    print_advice(o, cells, exposed, "model");
    if (!o->sim) return 0;
    double *step = malloc((size_t)n * sizeof *step);
    int rc = step ? advise_sim_grid(o, pf, simx, step, err, sizeof err) : (snprintf(err, sizeof err, "out of memory"), 1);
    free(step);
    if (rc) return fprintf(stderr, "ddlbench advise: --sim: %s\n", err), rc;
    print_grid(o, "simulation (SMPI)", simx);
    print_advice(o, cells, simx, "simulation");
    int m = best_cell(o, cells, exposed, -1);
    printf("the model's choice in the simulation: --bucket-mb %ld --first-bucket-mb %ld: exposed %.2f ms\n",
           o->caps[m % o->ncaps], o->firsts[m / o->ncaps], simx[m] * 1e3);
    return 0;
}

int cli_advise_main(int argc, char **argv)
{
    advise_opts o;
    defaults(&o);
    int rc = parse(argc, argv, &o);
    if (rc) return rc == 1 ? 0 : rc;
    platform pf;
    profile pr;
    model *m = NULL;
    char err[256];
    if ((rc = make_platform(&o, &pf))) return rc;
    if (o.sim && advise_sim_check(&o, err, sizeof err)) return fprintf(stderr, "ddlbench advise: --sim: %s\n", err), 2;
    if (!o.profile) o.profile = strcmp(pf.name, "h200") ? "p100" : "h200";
    if (!o.batch) o.batch = strcmp(o.model, "resnet101-22k") ? 32 : 20;
    if (profile_load(o.profile, &pr, err, sizeof err)) return fprintf(stderr, "ddlbench advise: %s\n", err), 2;
    if (model_build(o.model, (int)o.batch, (int)o.image, &m)) return fprintf(stderr, "ddlbench advise: %s\n", model_last_error()), 2;
    advise_in in = { m, &pf, o.algo, pr.gemm_gflops_fp32 * 1e9, pr.reduce_ns_per_byte * 1e-9, pr.mem_gbps, 1 };
    size_t n = (size_t)o.ncaps * (size_t)o.nfirsts;
    advise_out *cells = malloc(n * sizeof *cells);
    double *exposed = malloc(n * sizeof *exposed), *simx = malloc(n * sizeof *simx);
    if (!cells || !exposed || !simx) {
        fprintf(stderr, "ddlbench advise: out of memory\n");
        rc = 1;
        goto out;
    }
    rc = run(&o, &pf, &in, cells, exposed, simx);
out:
    free(cells);
    free(exposed);
    free(simx);
    model_free(m);
    return rc;
}
