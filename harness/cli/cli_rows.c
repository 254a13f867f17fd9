/* cli_rows.c — the shared option rows (cli_rows.h): one definition, one limit per concept. */
#include "cli_rows.h"
#include "gbatch.h"
#include "wire.h"
#include "opts.h"
#include "ddl.h"
#include "perf_layer.h"

#include <stdio.h>

const opt_row cli_row_model = { .name = "--model", .type = OPT_STRING, .unit = "NAME",
                                .help = "the network: resnet50 | resnet101 | resnet101-22k | vgg16 | inception3 |\n"
                                        "gpt2 | bert-large | llama3.2-1b,\n"
                                        "or a model file: a path with a '/' or ending in .txt (docs/MODELS.md)\n"
                                        "(default resnet50 where optional)" };
const opt_row cli_row_batch = { .name = "--batch", .type = OPT_LONG, .min = 1, .max = CLI_BATCH_MAX,
                                .help = "images per GPU per step (default 32)" };
const opt_row cli_row_global_batch = { .name = "--global-batch", .type = OPT_LONG, .min = 1, .max = GBATCH_MAX,
      .help = "strong scaling: N images per step over all GPUs instead of --batch per GPU;\n"
              GBATCH_RULE " (default: off, --batch per GPU)" };
static int grad_dtype(const char *v, void *dst) { return wire_parse(v, dst); }
const opt_row cli_row_grad_dtype = { .name = "--grad-dtype", .type = OPT_CUSTOM, .unit = "T", .parse = grad_dtype,
      .expect = "fp32, fp16 or bf16",
      .help = "the gradients on the wire: fp32 (default), or fp16 | bf16 (mixed precision:\n"
              "each bucket cast to 2 bytes, allreduced and reduced in that type by libddl,\n"
              "cast back to fp32 master weights; bucket caps count wire bytes; compute\n"
              "rates stay the profile's: an fp16 step needs a profile of that GPU's fp16 rates)" };
const opt_row cli_row_image = { .name = "--image-size", .type = OPT_LONG, .min = 1, .max = CLI_IMAGE_MAX,
                                .help = "square image side in pixels, >= 32 (default 224)" };
const opt_row cli_row_first_mb = { .name = "--first-bucket-mb", .type = OPT_LONG, .min = 0, .max = CLI_BUCKET_MB_MAX,
                                   .help = "cap of the first bucket, MiB (default 1, as DDP)" };
const opt_row cli_row_profile = { .name = "--profile", .type = OPT_STRING, .unit = "P",
                                  .help = "device profile: a name (p100, h200, local) or a file" };
static int pin_check(const char *v, char *want, size_t wantlen)
{
    double r;
    long b;
    return perf_layer_pin_parse(v, &r, &b, want, wantlen);
}
const opt_row cli_row_images_per_s = {
    .name = "--images-per-s", .type = OPT_STRING, .unit = "R@B", .check = pin_check,
    .expect = "R@B (a rate R > 0 images/s on one GPU at batch B >= 1, e.g. 7008@400)",
    .help = "pin the compute to a measured single-GPU rate: R images/s at batch B\n"
            "(simulation and model only); every layer's time scales so that one GPU\n"
            "runs batch B at R. The figure is then an input, not a prediction" };
const opt_row cli_row_csv = { .name = "--csv", .type = OPT_STRING, .unit = "FILE",
                              .help = "also write the rows as CSV, whole (checked before the run)" };
const opt_row cli_row_steps = { .name = "--steps", .type = OPT_LONG, .min = 1, .max = 100000,
                                .help = "timed steps (default 10)" };
const opt_row cli_row_warmup = { .name = "--warmup", .type = OPT_LONG, .min = 0, .max = 100000,
                                 .help = "untimed steps first (default 2)" };

const opt_row cli_row_cycle_ms = { .name = "--cycle-ms", .type = OPT_DOUBLE, .min = 0, .max = 1000, .unit = "MS",
      .expect = "milliseconds in 0..1000",
      .help = "Horovod's cycles (framework.h; simulation and model only): every MS ms the\n"
              "gradients ready on all ranks are fused, up to --bucket-mb MiB (0: no cap),\n"
              "into allreduces (Horovod to 0.12: 5 ms, 64 MB; default 0: DDP buckets)" };
const opt_row cli_row_call_us = { .name = "--call-us", .type = OPT_DOUBLE, .min = 0, .max = 1e6, .unit = "US",
      .expect = "microseconds in 0..1000000",
      .help = "a fixed cost of every allreduce call (launch, framework bookkeeping),\n"
              "simulation and model only (default 0)" };

const opt_row cli_row_jitter = { .name = "--jitter", .type = OPT_DOUBLE, .min = 0, .max = 1000, .unit = "PCT",
      .expect = "a percentage in 0..1000",
      .help = "stragglers and noise: every rank's GEMMs in a step take (1 + x) times as\n"
              "long, x = PCT/100 x Exp(1) drawn per rank and step (mean PCT%), seeded;\n"
              "real: the rank spins, simulation: injected compute, model: the slowest\n"
              "rank's expectation, 1 + PCT/100 x H(ranks) (default 0)" };

const opt_row cli_row_contention = { .name = "--contention", .type = OPT_DOUBLE, .min = 0, .max = 1000, .unit = "PCT",
      .expect = "a percentage in 0..1000",
      .help = "compute slowed while communication runs: backward compute beside an\n"
              "allreduce takes (1 + PCT/100) times as long, to first order (framework.h;\n"
              "simulation and model only; measured: 18.9% mean on A100/H100/MI250,\n"
              "docs/SOURCES.md §14; default 0)" };

const opt_row cli_row_comm_contention = { .name = "--comm-contention", .type = OPT_DOUBLE, .min = 0, .max = 1000,
      .unit = "PCT", .expect = "a percentage in 0..1000",
      .help = "communication slowed while compute runs: an allreduce beside backward's\n"
              "compute progresses (1 + PCT/100) times slower, at its own rate after\n"
              "backward ends (framework.h; simulation and model only; make fidelity\n"
              "measures it on one node: N/comm_contention; default 0)" };

const opt_row cli_row_overlap_from = { .name = "--overlap-from", .type = OPT_DOUBLE, .min = 0, .max = 100,
      .unit = "PCT", .expect = "a percentage in 0..100",
      .help = "partial overlap: no allreduce is enqueued before PCT% of the step's\n"
              "gradients are ready (backward's order); those ready earlier wait for that\n"
              "moment, so only the rest of backward is overlapped (framework.h;\n"
              "simulation and model only; 100 = none overlapped; default 0)" };

static const char *const computes[] = { "gemm", "full", NULL };
const opt_row cli_row_compute = { .name = "--compute", .type = OPT_CHOICE, .choices = computes, .unit = "full|gemm",
      .help = "full (default): the whole network on real activations: im2col/col2im,\n"
              "GEMMs, batch norm, ReLU, residual adds, pooling, FC bias, SGD with momentum\n"
              "and weight decay; gemm: the conv/FC GEMMs only on synthetic operands and\n"
              "plain SGD (ddlbench before the full step). Full with bf16/fp16 (GPU):\n"
              "2-byte activations (as autocast), float32 parameters and statistics" };

const char *cli_compute_desc(int full)
{
    return full ? "full: GEMMs, batch norm, ReLU, residual adds, pooling, im2col/col2im, SGD with momentum"
                : "gemm: the conv/FC GEMMs and plain SGD only";
}

int cli_algo_check(const char *v, char *want, size_t wantlen)
{
    const char *best = NULL;
    int bd = 3; /* suggest within two edits, as for options */
    if (ddl_algo_find(v) >= 0) return 0;
    for (int i = 0; i < ddl_algo_count(); i++) {
        int d = opts_distance(v, ddl_algo_name(i));
        if (d < bd) bd = d, best = ddl_algo_name(i);
    }
    if (best) snprintf(want, wantlen, "a registered algorithm (did you mean %s? see ddlbench list)", best);
    else snprintf(want, wantlen, "a registered algorithm (see ddlbench list)");
    return 1;
}
