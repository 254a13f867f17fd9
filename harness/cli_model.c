/* cli_model.c — `ddlbench model`: the layer table of a network (tensors, parameters, im2col GEMM
 * shapes, GFLOP of forward and backward at a batch) and its totals. Needs no MPI launch.
 *
 * One subcommand, two reports (dispatch in cli_model_main):
 *   the layer table (this file)            ddlbench model --model resnet50 [--batch 32] [--image-size 224]
 *   the analytic α-β-γ cost model (to come) ddlbench model --algo ...   → add its branch at DISPATCH */
#include "cli.h"
#include "gemm.h"
#include "model.h"
#include "parse.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>

typedef struct model_opts {
    const char *model; /* --model */
    long batch;        /* --batch */
    long image_size;   /* --image-size */
} model_opts;

static void usage(FILE *f)
{
    fprintf(f, "usage: ddlbench model [--model NAME] [--batch N] [--image-size S]\n"
               "  Prints the layers of a network: trainable tensors, parameters, and the GEMMs of each conv/FC\n"
               "  in the im2col view (M = out channels, N = batch x H_out x W_out, K = in channels x kh x kw),\n"
               "  then the totals. Backward = data gradient (all but the stem conv) + weight gradient, each of\n"
               "  M x N x K; GFLOP = 2 x MACs. MACs per image count conv + FC multiply-adds only.\n"
               "  --model NAME      %s (default resnet50)\n"
               "  --batch N         images per step, >= 1 (default 32)\n"
               "  --image-size S    square input side in pixels, >= 32 (default 224)\n"
               "  --help            this text\n",
               model_names());
}

/* "--opt value" or "--opt=value": returns the value and advances *i, or NULL if argv[*i] is not opt. */
static const char *opt_value(int argc, char **argv, int *i, const char *opt, int *missing)
{
    size_t n = strlen(opt);
    if (strncmp(argv[*i], opt, n)) return NULL;
    if (argv[*i][n] == '=') return argv[*i] + n + 1;
    if (argv[*i][n] != '\0') return NULL;
    if (*i + 1 >= argc) {
        *missing = 1;
        return NULL;
    }
    return argv[++*i];
}

/* Returns 0 ok, 1 help printed, 2 bad input (message printed). */
static int parse_opts(int argc, char **argv, model_opts *o)
{
    for (int i = 1; i < argc; i++) {
        int missing = 0;
        const char *v;
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            usage(stdout);
            return 1;
        } else if ((v = opt_value(argc, argv, &i, "--model", &missing))) {
            o->model = v;
        } else if ((v = opt_value(argc, argv, &i, "--batch", &missing))) {
            if (parse_int(v, 1, INT_MAX, &o->batch)) {
                fprintf(stderr, "ddlbench model: --batch: expected an integer in [1, %d], got \"%s\"\n", INT_MAX, v);
                return 2;
            }
        } else if ((v = opt_value(argc, argv, &i, "--image-size", &missing))) {
            if (parse_int(v, 1, INT_MAX, &o->image_size)) {
                fprintf(stderr, "ddlbench model: --image-size: expected a positive integer (pixels), got \"%s\"\n", v);
                return 2;
            }
        } else {
            if (missing) fprintf(stderr, "ddlbench model: %s: expected a value after it\n", argv[i]);
            else fprintf(stderr, "ddlbench model: unknown option \"%s\"; expected --model, --batch, --image-size or --help\n", argv[i]);
            return 2;
        }
    }
    return 0;
}

static void tensor_suffixes(const model *m, const model_layer *l, char *buf, size_t len)
{
    size_t used = 0, prefix = strlen(l->name) + 1;
    buf[0] = '\0';
    if (l->ntensors == 0) snprintf(buf, len, "-");
    for (int t = 0; t < l->ntensors && used < len; t++)
        used += (size_t)snprintf(buf + used, len - used, "%s%s", t ? "," : "",
                                 model_tensor_at(m, l->tensor0 + t)->name + prefix);
}

static double gflop(const model_gemm *g) { return kern_gemm_flops(g->m, g->n, g->k) / 1e9; }

static void print_table(const model *m, double *fwd_total, double *bwd_total)
{
    static const char *kinds[] = { "conv", "bn", "fc", "pool" };
    printf("# ddlbench model: %s, batch %d, image %dx%d\n", model_name(m), model_batch(m), model_image_size(m),
           model_image_size(m));
    printf("# %3s  %-24s %-4s %-12s %10s %-14s %6s %9s %6s %10s %10s\n", "idx", "layer", "kind", "tensor(s)",
           "params", "output_CxHxW", "fwd_M", "fwd_N", "fwd_K", "fwd_GFLOP", "bwd_GFLOP");
    *fwd_total = *bwd_total = 0;
    for (int i = 0; i < model_layer_count(m); i++) {
        const model_layer *l = model_layer_at(m, i);
        char tens[32], shape[32];
        tensor_suffixes(m, l, tens, sizeof tens);
        snprintf(shape, sizeof shape, "%dx%dx%d", l->out_c, l->out_h, l->out_w);
        printf("  %3d  %-24s %-4s %-12s %10lld %-14s", i, l->name, kinds[l->kind], tens, l->params, shape);
        if (l->kind == MODEL_CONV || l->kind == MODEL_FC) {
            const model_gemm *g = l->gemm;
            double f = gflop(&g[MODEL_FWD]);
            double b = gflop(&g[MODEL_BWD_WEIGHT]) + (l->data_grad_needed ? gflop(&g[MODEL_BWD_DATA]) : 0);
            printf(" %6d %9d %6d %10.4f %10.4f\n", g[MODEL_FWD].m, g[MODEL_FWD].n, g[MODEL_FWD].k, f, b);
            *fwd_total += f, *bwd_total += b;
        } else {
            printf(" %6s %9s %6s %10s %10s\n", "-", "-", "-", "-", "-");
        }
    }
}

static int layer_table(const model_opts *o)
{
    model *m = NULL;
    double fwd, bwd;
    if (model_build(o->model, (int)o->batch, (int)o->image_size, &m)) {
        fprintf(stderr, "ddlbench model: %s\n", model_last_error());
        return 2;
    }
    print_table(m, &fwd, &bwd);
    printf("# totals\n");
    printf("# parameters                %lld\n", model_param_count(m));
    printf("# tensors                   %d\n", model_tensor_count(m));
    printf("# largest_tensor            %lld\n", model_max_tensor(m));
    printf("# fp32_gradient_MB          %.1f\n", model_param_count(m) * 4.0 / 1e6);
    printf("# fwd_GMACs_per_image       %.3f\n", model_fwd_macs(m) / 1e9);
    printf("# fwd_GFLOP_per_step        %.2f\n", fwd);
    printf("# bwd_GFLOP_per_step        %.2f\n", bwd);
    printf("# train_GFLOP_per_step      %.2f  (%.3f x forward)\n", fwd + bwd, (fwd + bwd) / fwd);
    model_free(m);
    return 0;
}

int cli_model_main(int argc, char **argv)
{
    model_opts o = { "resnet50", 32, 224 };
    /* DISPATCH: `--algo` selects the analytic cost model (cli_cost.c); everything below is the layer table. */
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "--algo")) return cli_model_cost(argc, argv);
    int rc = parse_opts(argc, argv, &o);
    if (rc) return rc == 1 ? 0 : rc;
    return layer_table(&o);
}
