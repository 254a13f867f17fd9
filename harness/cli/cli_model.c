/* cli_model.c — `ddlbench model`: the layer table of a network (tensors, parameters, im2col GEMM
 * shapes, GFLOP of forward and backward at a batch, and the bytes the step's other kernels move:
 * batch norm, ReLU, residual adds, pooling, im2col/col2im, FC bias; model_bytes.h) and its totals;
 * with --profile, the time a device profile gives each part. Needs no MPI launch.
 *
 * One subcommand, three modes (the first word; dispatch in cli_model_main):
 *   the layer table (this file)       ddlbench model [layers] --model resnet50 [--batch 32] [--image-size 224]
 *   a built-in model description      ddlbench model text --model vgg16   (a start for a --model FILE)
 *   one allreduce's α-β-γ cost        ddlbench model cost --algo ring,ddl ...  (cli_cost.c; old: model --algo)
 *   a training step on the model      ddlbench model train ...                (cli_model_train.c; old: --train)
 *   per-rank memory under sharding    ddlbench model memory --shard ...       (cli_model_memory.c) */
#include "cli.h"
#include "gemm.h"
#include "guard.h"
#include "model.h"
#include "model_bytes.h"
#include "cli_rows.h"
#include "calib_model_time.h"
#include "opts.h"
#include "perf_layer.h"
#include "profile.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct model_opts {
    const char *model; /* --model */
    long batch;        /* --batch */
    long image_size;   /* --image-size */
    int time;          /* --time: run every GEMM with the linked backend */
    long reps;         /* --reps: timed runs per GEMM (median) */
    int cold;          /* --cold: the core's own caches flushed before each timed run */
    int reps_given;    /* --reps was typed (it needs --time) */
    const char *profile; /* --profile: predicted GEMM and memory-bound time per step */
} model_opts;

static const opt_row rows[] = {
    { .name = "--time", .type = OPT_FLAG, .off = offsetof(model_opts, time),
      .help = "also run every GEMM with the linked backend and print the median ms\n"
              "of forward and backward per layer and the step" },
    { .name = "--reps", .type = OPT_LONG, .min = 1, .max = 1000, .off = offsetof(model_opts, reps),
      .help = "runs per GEMM for --time, after one warm-up (default 3)" },
    { .name = "--cold", .type = OPT_FLAG, .off = offsetof(model_opts, cold),
      .help = "with --time: time the GEMMs as a step runs them, each layer on its own\n"
              "weights, forward in layer order then backward in reverse, --reps passes\n"
              "(median per GEMM), so a layer's weights come from wherever the rest of\n"
              "the step left them (default: each GEMM repeated on one shared buffer)" },
};

#define MODEL_SETS(o)                                                                                  \
    { OPTS_ONE(&cli_row_model, &(o)->model), OPTS_ONE(&cli_row_batch, &(o)->batch),                    \
      OPTS_ONE(&cli_row_image, &(o)->image_size), OPTS_SET(rows, (o)), OPTS_ONE(&cli_row_profile, &(o)->profile) }

static void usage(FILE *f)
{
    model_opts o;
    const opts_set sets[] = MODEL_SETS(&o);
    fprintf(f, "usage: ddlbench model [layers] [--model NAME] [--batch N] [--image-size S] [--time] [--profile P]\n"
               "       ddlbench model text [--model NAME]  the built-in network's model description (docs/MODELS.md)\n"
               "       ddlbench model train ...   a whole training step on the alpha-beta-gamma model, train's CSV\n"
               "       ddlbench model cost ...    the alpha-beta-gamma cost of one allreduce\n"
               "       ddlbench model memory ...  per-rank memory of parameters, gradients and optimizer state\n"
               "  (old spellings: model --train ..., model --algo LIST ...; ddlbench model train --help)\n"
               "  Prints the layers of a network: trainable tensors, parameters, and the GEMMs of each conv/FC\n"
               "  in the im2col view (M = out channels, N = batch x H_out x W_out, K = in channels x kh x kw),\n"
               "  then the totals. Backward = data gradient (all but the stem conv) + weight gradient, each of\n"
               "  M x N x K; GFLOP = 2 x MACs. MACs per image count conv + FC multiply-adds only.\n"
               "  fwd_MB/bwd_MB: bytes moved by the layer's other kernels in the full step (batch norm, ReLU,\n"
               "  residual add at a block's end, pooling, im2col/col2im, FC bias; 1 MB = 1e6 B).\n"
               "  GEMM backend of --time: %s. --profile: the step's GEMM time at the profile's\n"
               "  gemm_gflops_fp32 and memory-bound time at its mem_gbps, and their shares (a profile with the\n"
               "  compute-model keys, h100-amp: each layer's roofline, as model train prices it, and each pass's\n"
               "  time and kernel count, predicted_fwd_ms).\n",
               kern_gemm_backend());
    opts_usage(f, sets, (int)(sizeof sets / sizeof sets[0]));
}

/* Returns 0 ok, 1 help printed, 2 bad input (message in err). */
static int parse_opts(int argc, char **argv, model_opts *o, char *err, size_t errlen)
{
    const opts_set sets[] = MODEL_SETS(o);
    opts_parser p = { sets, (int)(sizeof sets / sizeof sets[0]), NULL, 0, 0, { 0 } };
    for (int i = 1; i < argc; i++) /* a mode word typed later than first: say where it goes */
        if (!strcmp(argv[i], "--train") || !strcmp(argv[i], "--algo"))
            return snprintf(err, errlen, "%s: expected first (ddlbench model %s ...)", argv[i],
                            argv[i][2] == 't' ? "train" : "cost --algo LIST"), 2;
    int rc = opts_parse(&p, argc, argv, err, errlen);
    if (rc == OPTS_HELP) usage(stdout);
    if (rc) return rc;
    o->reps_given = opts_given(&p, "--reps") > 0;
    if ((o->reps_given || o->cold) && !o->time) {
        snprintf(err, errlen, "%s: applies to --time only; expected --time too", o->cold ? "--cold" : "--reps");
        return 2;
    }
    return 0;
}

static double gflop(const model_layer *l, int g) { return model_gemm_flops(l, g) / 1e9; }


static void tensor_suffixes(const model *m, const model_layer *l, char *buf, size_t len)
{
    size_t used = 0, prefix = strlen(l->name) + 1;
    buf[0] = '\0';
    if (l->ntensors == 0) snprintf(buf, len, "-");
    for (int t = 0; t < l->ntensors && used < len; t++)
        used += (size_t)snprintf(buf + used, len - used, "%s%s", t ? "," : "",
                                 model_tensor_at(m, l->tensor0 + t)->name + prefix);
}

/* The layer table; ms (optional, from time_layers) adds measured columns. Sums GFLOP and ms. */
static void print_table(const model *m, const double *ms, double tot[6])
{
    static const char *kinds[MODEL_KINDS] = { "conv", "bn", "fc", "pool", "add", "cat", "drop",
                                               "emb", "norm", "attn", "act" };
    if (model_seq_len(m))
        printf("# ddlbench model: %s, batch %d, sequence %d\n", model_name(m), model_batch(m), model_seq_len(m));
    else
        printf("# ddlbench model: %s, batch %d, image %dx%d\n", model_name(m), model_batch(m), model_image_size(m),
               model_image_size(m));
    if (ms) printf("# gemm backend: %s\n", kern_gemm_backend());
    printf("# %3s  %-24s %-4s %-12s %10s %-14s %6s %9s %6s %10s %10s %9s %9s", "idx", "layer", "kind", "tensor(s)",
           "params", "output_CxHxW", "fwd_M", "fwd_N", "fwd_K", "fwd_GFLOP", "bwd_GFLOP", "fwd_MB", "bwd_MB");
    printf(ms ? " %9s %9s %9s\n" : "\n", "fwd_ms", "bwd_ms", "GFLOPs");
    tot[0] = tot[1] = tot[2] = tot[3] = tot[4] = tot[5] = 0;
    for (int i = 0; i < model_layer_count(m); i++) {
        const model_layer *l = model_layer_at(m, i);
        char tens[32], shape[32];
        tensor_suffixes(m, l, tens, sizeof tens);
        snprintf(shape, sizeof shape, "%dx%dx%d", l->out_c, l->out_h, l->out_w);
        double mf = model_mem_bytes(m, i, MODEL_FWD) / 1e6, mb = model_mem_bytes(m, i, 1) / 1e6;
        tot[4] += mf, tot[5] += mb;
        printf("  %3d  %-24s %-4s %-12s %10lld %-14s", i, l->name, kinds[l->kind], tens, l->params, shape);
        if (!l->gemm_reps) {
            printf(" %6s %9s %6s %10s %10s %9.2f %9.2f", "-", "-", "-", "-", "-", mf, mb);
            printf(ms ? " %9s %9s %9s\n" : "\n", "-", "-", "-");
            continue;
        }
        const model_gemm *g = l->gemm;
        double f = gflop(l, MODEL_FWD);
        double b = gflop(l, MODEL_BWD_WEIGHT) + (l->data_grad_needed ? gflop(l, MODEL_BWD_DATA) : 0);
        printf(" %6d %9d %6d %10.4f %10.4f %9.2f %9.2f", g[MODEL_FWD].m, g[MODEL_FWD].n, g[MODEL_FWD].k, f, b, mf, mb);
        if (ms) printf(" %9.3f %9.3f %9.2f", ms[2 * i], ms[2 * i + 1], (f + b) / ((ms[2 * i] + ms[2 * i + 1]) * 1e-3));
        putchar('\n');
        tot[0] += f, tot[1] += b;
        if (ms) tot[2] += ms[2 * i], tot[3] += ms[2 * i + 1];
    }
}

static int layer_table(const model_opts *o)
{
    profile prof, *pr = NULL;
    char perr[300], why[512];
    model *m = NULL;
    double tot[6], *ms = NULL;
    int rc = 2;
    if (model_create(o->model, (int)o->batch, (int)o->image_size, &m, why, sizeof why)) {
        fprintf(stderr, "ddlbench model: %s\n", why);
        goto out;
    }
    if (o->profile && profile_load(o->profile, &prof, perr, sizeof perr)) {
        fprintf(stderr, "ddlbench model: %s\n", perr);
        goto out;
    }
    if (o->profile) pr = &prof;
    if (o->time) {
        size_t nw, nx, ny;
        char err[300];
        model_time_buf_sizes(m, &nw, &nx, &ny);
        if (guard_mem_check(4.0 * ((double)nw + (double)nx + (double)ny),
                            "--time (GEMM buffers for --batch x --image-size)", "a smaller --batch or --image-size",
                            err, sizeof err)) {
            fprintf(stderr, "ddlbench model: %s\n", err);
            goto out;
        }
        rc = 1;
        ms = calloc(2 * (size_t)model_layer_count(m), sizeof *ms);
        err[0] = '\0';
        if (!ms || kern_gemm_init() ||
            model_time_layers(m, o->reps, o->cold, ms, err, sizeof err)) { /* kernels/ print nothing */
            if (*err) fprintf(stderr, "ddlbench model: %s\n", err);
            fprintf(stderr, "ddlbench model --time: %s\n", ms ? "the GEMMs failed (the CUDA build's need device "
                                                                 "buffers: see gpu-check)" : "out of memory");
            goto out;
        }
    }
    print_table(m, ms, tot);
    printf("# totals\n");
    printf("# parameters                %lld\n", model_param_count(m));
    printf("# tensors                   %d\n", model_tensor_count(m));
    printf("# largest_tensor            %lld\n", model_max_tensor(m));
    printf("# fp32_gradient_MB          %.1f\n", model_param_count(m) * 4.0 / 1e6);
    printf("# fwd_GMACs_per_image       %.3f\n", model_fwd_macs(m) / 1e9);
    printf("# fwd_GFLOP_per_step        %.2f\n", tot[0]);
    printf("# bwd_GFLOP_per_step        %.2f\n", tot[1]);
    printf("# train_GFLOP_per_step      %.2f  (%.3f x forward)\n", tot[0] + tot[1], (tot[0] + tot[1]) / tot[0]);
    double sgd = model_sgd_bytes(m) / 1e6, mem = tot[4] + tot[5] + sgd;
    printf("# nongemm_fwd_MB_per_step   %.1f\n", tot[4]);
    printf("# nongemm_bwd_MB_per_step   %.1f\n", tot[5]);
    printf("# sgd_momentum_MB_per_step  %.1f\n", sgd);
    printf("# memory_MB_per_step        %.1f  (%.2f FLOP per byte over the step: GEMM FLOPs / these bytes)\n", mem,
           (tot[0] + tot[1]) * 1e9 / (mem * 1e6));
    double kinds[MODEL_MEM_KINDS];
    model_mem_by_kind(m, kinds);
    printf("# memory_MB_by_kind        ");
    for (int k = 0; k < MODEL_MEM_KINDS; k++) /* the kinds of work the network has */
        if (kinds[k] > 0) printf(" %s %.1f", model_mem_kind_name(k), kinds[k] / 1e6);
    putchar('\n');
    printf("# train_full_GB_per_rank    %.2f  (--compute full allocates; --compute gemm: %.2f)\n",
           guard_model_bytes(m, 1) / 1e9, guard_model_bytes(m, 0) / 1e9);
    if (pr) {
        double ts = sgd * 1e6 / (profile_sgd_gbps(pr) * 1e9) * 1e3; /* SGD at its own rate where the profile has one */
        double tg = (tot[0] + tot[1]) / pr->gemm_gflops_fp32 * 1e3,
               tm = (mem - sgd) * 1e6 / (pr->mem_gbps * 1e9) * 1e3 + ts;
        if (perf_layer_shaped(pr)) { /* the per-layer roofline (perf_layer.h), as model train prices it */
            layer_price lp;
            double g, b;
            perf_layer_make(profile_gemm_gflops(pr), pr->mem_gbps, 1, pr, 1, &lp);
            tg = tm = 0;
            for (int pass = 0; pass < 2; pass++)
                for (int l = 0; l < model_layer_count(m); l++) perf_layer(m, l, pass, &lp, &g, &b), tg += g, tm += b;
            tg *= 1e3, tm = tm * 1e3 + ts;
            printf("# compute_model             per-layer roofline: %s, %s, %.3g us a kernel, %.0f SMs "
                   "(model train's)\n",
                   profile_precision_name(pr->precision), profile_fused_name(pr),
                   profile_kernel_s(pr) * 1e6, pr->sms);
            int kf, kb;
            double tf = perf_layer_pass(m, &lp, 0, &kf) * 1e3, tb = perf_layer_pass(m, &lp, 1, &kb) * 1e3;
            printf("# predicted_fwd_ms          %.3f  (%d kernels; backward %.3f ms, %d kernels; %.3f ms of the step's "
                   "%d kernels' fixed cost)\n", tf, kf, tb, kb, (kf + kb) * profile_kernel_s(pr) * 1e3, kf + kb);
        }
        printf("# profile                   %s: gemm_gflops_fp32 %.6g, mem_gbps %.6g, sgd_gbps %.6g\n", o->profile,
               pr->gemm_gflops_fp32, pr->mem_gbps, profile_sgd_gbps(pr));
        printf("# predicted_gemm_ms         %.2f  (%.1f%% of compute)\n", tg, 100 * tg / (tg + tm));
        printf("# predicted_nongemm_ms      %.2f  (%.1f%%; of which SGD %.2f)\n", tm, 100 * tm / (tg + tm), ts);
        printf("# predicted_images_per_s    %.1f  (compute only: %d images / (gemm + nongemm))\n",
               model_batch(m) / ((tg + tm) * 1e-3), model_batch(m));
    }
    if (ms) {
        printf("# gemm_fwd_ms_per_step      %.1f\n", tot[2]);
        printf("# gemm_bwd_ms_per_step      %.1f\n", tot[3]);
        printf("# gemm_train_ms_per_step    %.1f  (%.2f GFLOP/s, %s of %ld%s)\n", tot[2] + tot[3],
               (tot[0] + tot[1]) / ((tot[2] + tot[3]) * 1e-3), o->cold ? "per-GEMM medians scaled to the median pass" :
               "median per GEMM", o->reps, o->cold ? ", cold" : "");
    }
    rc = 0;
out:
    free(ms);
    model_free(m);
    return rc;
}

/* `ddlbench model text --model NAME`: a built-in network's model description (docs/MODELS.md). */
static int print_text(const char *name)
{
    char *t = model_text(name);
    if (!t) {
        fprintf(stderr, "ddlbench model text: --model \"%s\": %s; expected one of %s\n", name ? name : "",
                model_is_file(name) ? "a file is its own text" : "unknown", model_names());
        return 2;
    }
    fputs(t, stdout);
    free(t);
    return 0;
}

int cli_model_main(int argc, char **argv)
{
    model_opts o = { "resnet50", 32, 224, 0, 3, 0, 0, NULL };
    char err[300];
    /* The mode is the first word: `train` (old spelling --train) the modelled training step
     * (cli_model_train.c), `cost` (or the old `--algo LIST` first) the cost of one allreduce
     * (cli_cost.c); `layers` or none: the layer table. */
    const char *mode = argc > 1 ? argv[1] : "";
    if (!strcmp(mode, "train") || !strcmp(mode, "--train")) return cli_model_train(argc, argv);
    if (!strcmp(mode, "cost") || !strcmp(mode, "--algo")) return cli_model_cost(argc, argv);
    if (!strcmp(mode, "memory")) return cli_model_memory(argc - 1, argv + 1);
    int text = !strcmp(mode, "text");
    if (!strcmp(mode, "layers") || text) argc--, argv++;
    int rc = parse_opts(argc, argv, &o, err, sizeof err);
    if (rc == OPTS_HELP) return 0;
    if (rc) {
        fprintf(stderr, "ddlbench model: %s\n", err);
        return rc;
    }
    return text ? print_text(o.model) : layer_table(&o);
}
