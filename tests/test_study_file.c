/* test_study_file.c — study entries (study_file.h): the shipped catalogue reads back as the study
 * figures it holds; alternatives, optional keys, CRLF and a missing last newline; every bad input
 * names the file and the line (or the key), and a baseline above the scale is refused; the compute,
 * framework and straggler keys, each with the keys it needs; the optimizer and sharding keys. */
#include "study_file.h"
#include "shard_mem.h"
#include "study_terms.h"
#include "test.h"

#include <stdio.h>
#include <string.h>

#define GOOD "label = L 90%\nmodel = resnet50\nbatch = 32\ngpus = 256\nbaseline = 8\npublished = 90\n" \
             "source = §2\nalgo = ddl\nplatforms = a|b\noverlap = off|on\n"

/* GOOD without its batch: strong-scaling entries give global_batch instead */
#define NOBATCH "label = L\nmodel = resnet50\ngpus = 64\nbaseline = 8\npublished = 60\nsource = s\nalgo = ring\n" \
                "platforms = a\noverlap = on\n"

static int parse(const char *text, study_entry *e, char *err, size_t len)
{
    return study_file_parse(text, strlen(text), "x/t.study", e, err, len);
}

int main(void)
{
    study_entry e, cat[STUDY_MAX_ENTRIES];
    char err[800];
    int n = 0;
    CHECK(study_catalogue("harness/sim/studies", cat, STUDY_MAX_ENTRIES, &n, err, sizeof err) == 0 && n >= 3,
          "the shipped catalogue: %s", err);
    CHECK(!strcmp(cat[0].name, "01-ddl-resnet50") && cat[0].published == 95 && cat[0].baseline == 4 &&
              cat[0].nplatforms == 2 && cat[0].noverlaps == 2 && !strcmp(cat[0].platforms[1], "minsky2017-2port"),
          "entry 1: DDL ResNet-50 95%% against 4 GPUs, 2 platforms, overlap off|on");
    CHECK(!strcmp(cat[2].patterns, "ring,rhd") && cat[2].baseline == 8 && cat[2].nplatforms == 1,
          "entry 3: Goyal, ring,rhd, against one 8-GPU server");
    CHECK(parse(GOOD, &e, err, sizeof err) == 0 && e.gpus == 256 && e.overlaps[1] == 1 && !strcmp(e.name, "t") &&
              e.published_hours == 0 && !e.patterns[0] && e.image_size == 224, "a minimal entry: %s", err);
    CHECK(parse(GOOD "batch = 64|32\nbucket_mb = 64\n", &e, err, sizeof err) == 2, "batch twice refused");
    CHECK(parse("label = L\nmodel = m\nbatch = 64|32\nbucket_mb = 64\ngpus = 512\nbaseline = 1\npublished = 90\n"
                "source = s\nalgo = ring\nplatforms = a\noverlap = on\n",
                &e, err, sizeof err) == 0 &&
              e.nbatches == 2 && e.batches[0] == 64 && e.batches[1] == 32 && e.batch == 64 && e.bucket_mb == 64 &&
              e.noverlaps == 1,
          "batch alternatives and a bucket cap: %s", err);
    CHECK(parse("# c\r\n" GOOD "hours = 1.5\r\nhours_source = x\r\npatterns = ring,rhd", &e, err, sizeof err) == 0 &&
              e.published_hours == 1.5 && !strcmp(e.patterns, "ring,rhd") && !strcmp(e.time_source, "x"),
          "CRLF, optional keys, no last newline: %s", err);
    CHECK(parse(GOOD "single_gpu_img_s = 130.9\nsingle_gpu_batch = 64\nsingle_gpu_source = s\ncycle_ms = 5\n"
                     "jitter_pct = 0.2\njitter_source = j\n", &e, err, sizeof err) == 0 && e.single_img_s == 130.9 &&
              e.single_batch == 64 && !strcmp(e.single_source, "s") && e.cycle_ms == 5 && e.jitter_pct == 0.2 &&
              !strcmp(e.jitter_source, "j") && e.single_backward_ms == 0,
          "a published single-GPU rate, Horovod's cycle, stragglers: %s", err);
    CHECK(parse(GOOD "overlap_from = 60\noverlap_source = o\n", &e, err, sizeof err) == 0 && e.overlap_from_pct == 60 &&
              !strcmp(e.overlap_source, "o"), "partial overlap with its source: %s", err);
    CHECK(parse(GOOD "single_gpu_backward_ms = 120\nsingle_gpu_batch = 32\nsingle_gpu_source = s\n", &e, err,
                sizeof err) == 0 && e.single_backward_ms == 120 && e.single_img_s == 0,
          "a published backward pass: %s", err);
    static const struct { const char *text, *want; } bad[] = {
        { GOOD "single_gpu_img_s = 130\n", "expected all three or none" },
        { GOOD "single_gpu_batch = 64\nsingle_gpu_source = s\n", "expected all three or none" },
        { GOOD "single_gpu_img_s = 1\nsingle_gpu_backward_ms = 2\nsingle_gpu_batch = 1\nsingle_gpu_source = s\n",
          ":12: single_gpu_backward_ms: single_gpu_img_s is given too" },
        { GOOD "jitter_pct = 1\n", "jitter_pct and jitter_source" },
        { GOOD "overlap_from = 50\n", "overlap_from and overlap_source" },
        { "overlap_from = 101\n", ":1: overlap_from: expected a number in (0, 100]" },
        { "jitter_pct = 101\n", ":1: jitter_pct: expected a number in (0, 100]" },
        { "cycle_ms = 0\n", ":1: cycle_ms: expected a number in (0, 1000]" },
        { "single_gpu_img_s = -3\n", ":1: single_gpu_img_s" },
        { GOOD "baseline = 4\n", ":11: key \"baseline\" given twice" },
        { "label = L\nmodel = m\nbatch = 32\ngpus = 4\nbaseline = 8\npublished = 90\nsource = s\nalgo = ddl\n"
          "platforms = a\noverlap = on\n", ":5: baseline: 8 GPUs, above the scale of 4" },
        { GOOD "colour = red\n", ":11: unknown key \"colour\"" },
        { GOOD "nonsense\n", ":11: expected \"key = value\"" },
        { "label = L\n", "missing key \"model\"" },
        { GOOD "hours = 2\n", "hours and hours_source" },
        { "label = L\nmodel = m\nbatch = 0\n", ":3: batch: expected one or two (a|b) whole numbers 1..65536" },
        { "batch = 32|32\n", ":1: batch" },
        { "batch = 32|64|128\n", ":1: batch" },
        { "bucket_mb = 0\n", ":1: bucket_mb: expected a whole number 1..1024" },
        { "image_size = 2000\n", ":1: image_size: expected a whole number 1..1024" },
        { "label = L\nmodel = m\nbatch = 1e9\n", ":3: batch" },
        { "published = 101\n", ":1: published: expected a number in (0, 100]" },
        { "published = nan\n", ":1: published" },
        { "platforms = a||b\n", ":1: platforms" },
        { "platforms = a|b|c|d|e\n", ":1: platforms" },
        { "platforms = a b\n", ":1: platforms" },
        { "overlap = on|on\n", ":1: overlap" },
        { "overlap = maybe\n", ":1: overlap" },
        { "label = \n", ":1: label: expected 1..95 characters" },
        { "label = a\033[2Jb\n", ":1: byte 10 is a NUL, a control character" },
        { NOBATCH, "missing key \"batch\" (images per GPU) or \"global_batch\"" },
        { NOBATCH "global_batch = 63\n", ":10: global_batch: global batch 63 is below the 64 GPUs" },
        { NOBATCH "global_batch = 3200\nbaseline_global_batch = 7\n", ":11: baseline_global_batch: global batch 7 "
                                                                      "is below the 8 GPUs" },
        { NOBATCH "baseline_global_batch = 3200\n", ":10: baseline_global_batch: expected global_batch too" },
        { GOOD "global_batch = 3200\n", ":3: batch: global_batch is given too; expected one of the two" },
        { NOBATCH "global_batch = 0\n", ":10: global_batch: expected a whole number 1..16777216" },
        { GOOD "grad_dtype = fp8\n", ":11: grad_dtype: expected fp32, fp16 or bf16, got \"fp8\"" },
        { GOOD "optimizer = adamw\n", ":11: optimizer: expected sgd, adam or lamb, got \"adamw\"" },
        { GOOD "shard = zero1\n", ":11: shard: expected none, optimizer, gradients or full, got \"zero1\"" },
        { GOOD "shard = full\nshard = none\n", ":12: key \"shard\" given twice" },
        { GOOD "fused_at_scale = 4\n", ":11: fused_at_scale: expected a whole number 1..3, got \"4\"" },
        { GOOD "fused_at_scale = 2|3\n", ":11: fused_at_scale: expected a whole number 1..3" },
        { GOOD "bn_held = 1|1\n", ":11: bn_held: expected 0, 1 or 0|1 (profile.h's bn_held), got \"1|1\"" },
        { GOOD "bn_held = yes\n", ":11: bn_held: expected 0, 1 or 0|1" },
        { GOOD "step_fixed_us = 100\n", "step_fixed_us and step_fixed_source: expected both or neither" },
        { GOOD "cuda_graphs = 0\n", ":11: cuda_graphs: expected on or off, got \"0\"" },
        { GOOD "step_fixed_us = -1\nstep_fixed_source = s\n", ":11: step_fixed_us: expected one or two (a|b) numbers" },
        { GOOD "step_fixed_us = 5|5\nstep_fixed_source = s\n", ":11: step_fixed_us: expected one or two (a|b)" },
        { GOOD "cuda_graphs_at_scale = yes\n", ":11: cuda_graphs_at_scale: expected on or off, got \"yes\"" },
        { GOOD "graph_kernel_us = 4\n", "graph_kernel_us and graph_kernel_source: expected both or neither" },
        { GOOD "graph_kernel_us = x\ngraph_kernel_source = s\n", ":11: graph_kernel_us: expected one or two (a|b)" },
        { GOOD "graph_kernel_us = 3|3\ngraph_kernel_source = s\n", ":11: graph_kernel_us: expected one or two" },
        { GOOD "graph_kernel_us = 1|2|3\ngraph_kernel_source = s\n", ":11: graph_kernel_us: expected one or two" },
        { GOOD "graph_kernel_us = 2e6\ngraph_kernel_source = s\n", ":11: graph_kernel_us: expected one or two" },
        { GOOD "kernel_us = 15\n", "kernel_us and kernel_source: expected both or neither" },
        { GOOD "kernel_us = 9|9\nkernel_source = s\n", ":11: kernel_us: expected one or two (a|b)" },
        { GOOD "kernel_us = -1\nkernel_source = s\n", ":11: kernel_us: expected one or two (a|b)" },
        { GOOD "kernels_at_scale = 60\n", "kernels_at_scale and kernels_at_scale_source: expected both or neither" },
        { GOOD "kernels_at_scale = 0\nkernels_at_scale_source = s\n", ":11: kernels_at_scale: expected a whole" },
        { GOOD "kernels_at_scale = 2.5\nkernels_at_scale_source = s\n", ":11: kernels_at_scale: expected a whole" },
        { GOOD "kernels_scaled = no\n", ":11: kernels_scaled: expected on or off" },
        { GOOD "optimizer_shard = 0\n", ":11: optimizer_shard: expected a whole number 1..65536, got \"0\"" },
        { GOOD "optimizer_shard = 8|16\n", ":11: optimizer_shard: expected a whole number" },
        { GOOD "shard = optimizer\noptimizer_shard = 8\n", ":12: optimizer_shard: shard = optimizer is given too; "
                                                          "expected shard = none" },
    };
    CHECK(parse(NOBATCH "global_batch = 3200\n", &e, err, sizeof err) == 0 && e.batch == 50 && e.nbatches == 1 &&
              e.batches[0] == 50 && e.base_batch == 400 && e.baseline_global_batch == 3200,
          "strong scaling: 3200 over 64 GPUs is 50 each, over the 8 of the baseline 400: %s", err);
    CHECK(parse(NOBATCH "global_batch = 20480\nbaseline_global_batch = 3200\n", &e, err, sizeof err) == 0 &&
              e.batch == 320 && e.base_batch == 400, "the baseline run's own global batch: %s", err);
    CHECK(parse(GOOD "step_fixed_us = 160|260\nstep_fixed_source = a sum\n", &e, err, sizeof err) == 0 &&
              e.nfixed == 2 && e.fixed_us[0] == 160 && e.fixed_us[1] == 260 && !strcmp(e.fixed_source, "a sum") &&
              e.nalgos == 1 && !strcmp(e.algos[0], "ddl") && !strcmp(e.algo, "ddl"),
          "step_fixed_us 160|260 with its source; one algorithm (%s)", err);
    CHECK(parse(GOOD "graph_kernel_us = 3.1|4.4\ngraph_kernel_source = a table\n", &e, err, sizeof err) == 0 &&
              e.ngk == 2 && e.gk_us[0] == 3.1 && e.gk_us[1] == 4.4 && !strcmp(e.gk_source, "a table") &&
              parse(GOOD, &e, err, sizeof err) == 0 && !e.ngk, "graph_kernel_us 3.1|4.4; none by default (%s)", err);
    CHECK(parse(GOOD "kernel_us = 4.6|15.3\nkernel_source = tables\n", &e, err, sizeof err) == 0 && e.nk == 2 &&
              e.k_us[0] == 4.6 && e.k_us[1] == 15.3 && !strcmp(e.k_source, "tables") && !e.ngk &&
              parse(GOOD, &e, err, sizeof err) == 0 && !e.nk, "kernel_us 4.6|15.3, graph_kernel_us apart (%s)", err);
    CHECK(parse(GOOD "kernels_at_scale = 60\nkernels_at_scale_source = counted\n", &e, err, sizeof err) == 0 &&
              e.extra_kernels == 60 && !strcmp(e.xk_source, "counted") && parse(GOOD, &e, err, sizeof err) == 0 &&
              !e.extra_kernels, "kernels_at_scale 60 with its source; none by default (%s)", err);
    CHECK(parse(GOOD "kernels_scaled = off\n", &e, err, sizeof err) == 0 && e.kscaled_set && !e.kscaled &&
              parse(GOOD, &e, err, sizeof err) == 0 && !e.kscaled_set, "kernels_scaled off; unset by default (%s)",
          err);
    CHECK(parse(GOOD "cuda_graphs = off\n", &e, err, sizeof err) == 0 && e.graphs_set && !e.graphs &&
              parse(GOOD, &e, err, sizeof err) == 0 && !e.graphs_set, "cuda_graphs off; unset by default (%s)", err);
    CHECK(parse(GOOD "cuda_graphs = on\ncuda_graphs_at_scale = off\noptimizer_shard = 8\n", &e, err, sizeof err) == 0 &&
              e.graphs_set && e.graphs && e.graphs_at_set && !e.graphs_at && e.optim_shard == 8 &&
              parse(GOOD, &e, err, sizeof err) == 0 && !e.graphs_at_set && !e.optim_shard,
          "cuda_graphs on, cuda_graphs_at_scale off, optimizer_shard 8; unset by default (%s)", err);
    static const char two[] = "label = L 90%\nmodel = resnet50\nbatch = 32\ngpus = 256\nbaseline = 8\n"
                              "published = 90\nsource = s\nalgo = nccl-ring|nccl-tree\nplatforms = a\noverlap = off\n";
    CHECK(parse(two, &e, err, sizeof err) == 0 && e.nalgos == 2 && !strcmp(e.algo, "nccl-ring") &&
              !strcmp(e.algos[1], "nccl-tree"), "algo nccl-ring|nccl-tree: two alternatives, the first as algo (%s)",
          err);
    { /* where the run had SHARP: NCCL's ring, tree or CollNet (nvls), three at most, all different */
        char t3[512];
        const char *bad3[] = { "nccl-ring|nccl-tree|nvls|ring", "nccl-ring|nccl-tree|nccl-ring", "nvls|nvls" };
        snprintf(t3, sizeof t3, "%.*snccl-ring|nccl-tree|nvls%s", (int)(strstr(two, "nccl-ring") - two), two,
                 strstr(two, "\nplatforms"));
        CHECK(parse(t3, &e, err, sizeof err) == 0 && e.nalgos == 3 && !strcmp(e.algos[2], "nvls") &&
                  !strcmp(e.algo, "nccl-ring"), "algo nccl-ring|nccl-tree|nvls: three alternatives (%s)", err);
        for (size_t i = 0; i < sizeof bad3 / sizeof bad3[0]; i++) {
            snprintf(t3, sizeof t3, "%.*s%s%s", (int)(strstr(two, "nccl-ring") - two), two, bad3[i],
                     strstr(two, "\nplatforms"));
            CHECK(parse(t3, &e, err, sizeof err) == 2 && strstr(err, "algo: expected 1..3 different"),
                  "algo = %s refused: %s", bad3[i], err);
        }
    }
    CHECK(parse(GOOD "fused_at_scale = 2\nbn_held = 1|0\n", &e, err, sizeof err) == 0 && e.fused_at_scale == 2 &&
              e.nheld == 2 && e.held_alts[0] == 1 && e.held_alts[1] == 0 && parse(GOOD, &e, err, sizeof err) == 0 &&
              e.nheld == 0 && e.fused_at_scale == 0,
          "fused_at_scale 2, bn_held 1|0; neither by default (%s)", err);
    CHECK(parse(GOOD "grad_dtype = fp16\n", &e, err, sizeof err) == 0 && e.grad_bytes == 2 &&
              parse(GOOD, &e, err, sizeof err) == 0 && e.grad_bytes == 0, "grad_dtype fp16: 2 bytes (%s)", err);
    CHECK(parse(GOOD "optimizer = lamb\nshard = optimizer\n", &e, err, sizeof err) == 0 && e.optim == OPTIM_LAMB &&
              e.shard == SHARD_OPTIMIZER && parse(GOOD "shard = full\n", &e, err, sizeof err) == 0 &&
              e.shard == SHARD_FULL && e.optim == OPTIM_SGD && parse(GOOD, &e, err, sizeof err) == 0 &&
              e.shard == SHARD_NONE, "optimizer lamb and shard optimizer; the defaults sgd and none (%s)", err);
    { /* the epoch's padded last step and Horovod's coordination (study_terms.h): each key with the keys it needs */
#define EPOCH "epoch_examples = 1281167\nepoch_source = fit.py\n"
        static const struct { const char *text, *want; } bad_terms[] = {
            { GOOD "epoch_steps = fill\n", ":11: epoch_steps: expected epoch_examples too" },
            { GOOD "epochs = 52\n", ":11: epochs: expected epoch_examples too" },
            { GOOD "epoch_examples = 1281167\n", "epoch_examples: expected epoch_steps and epoch_source too" },
            { GOOD EPOCH "epoch_steps = pad\n", ":13: epoch_steps: expected fill or carry, got \"pad\"" },
            { GOOD EPOCH "epoch_steps = carry\n", "epochs: expected it with carry" },
            { GOOD EPOCH "epoch_steps = fill\nbaseline_epoch_steps = carry\n", "epochs: expected it with carry" },
            { GOOD EPOCH "epoch_steps = fill\nepochs = 3\n", "epochs: expected it only with carry" },
            { GOOD "epoch_examples = 255\nepoch_source = s\nepoch_steps = fill\n",
              ":11: epoch_examples: 255, below the 256 GPUs" },
            { GOOD EPOCH "epoch_steps = carry\nepochs = 1001\n", ":14: epochs: expected a whole number 1..1000" },
            { GOOD "horovod_sync_bytes = 24\n", "horovod_sync_bytes and horovod_sync_source: expected both" },
            { GOOD "horovod_sync_bytes = 0\nhorovod_sync_source = s\n", ":11: horovod_sync_bytes: expected a whole" },
            { GOOD "gpu_spread_pct = 2\n", "gpu_spread_pct and gpu_spread_source: expected both or neither" },
            { GOOD "gpu_spread_pct = 2|2\ngpu_spread_source = s\n", ":11: gpu_spread_pct: expected one or two" },
            { GOOD "gpu_spread_pct = 51\ngpu_spread_source = s\n", ":11: gpu_spread_pct: expected one or two" },
            { GOOD "gpu_spread_pct = -1\ngpu_spread_source = s\n", ":11: gpu_spread_pct: expected one or two" },
        };
        for (size_t i = 0; i < sizeof bad_terms / sizeof bad_terms[0]; i++)
            CHECK(parse(bad_terms[i].text, &e, err, sizeof err) == 2 && strstr(err, bad_terms[i].want) &&
                      !strncmp(err, "x/t.study", 9), "bad_terms[%zu]: want \"%s\" in \"%s\"", i, bad_terms[i].want,
                  err);
        CHECK(parse(GOOD EPOCH "epoch_steps = carry\nbaseline_epoch_steps = fill\nepochs = 52\n"
                    "horovod_sync_bytes = 24\nhorovod_sync_source = h\n", &e, err, sizeof err) == 0 &&
                  e.epoch_examples == 1281167 &&
                  e.epoch_steps == EPOCH_CARRY && e.base_epoch_steps == EPOCH_FILL && e.epochs == 52 &&
                  !strcmp(e.epoch_source, "fit.py") && e.sync_bytes == 24 && !strcmp(e.sync_source, "h"),
              "the epoch keys and Horovod's coordination: %s", err);
        CHECK(parse(GOOD "gpu_spread_pct = 1|2.5\ngpu_spread_source = m\n", &e, err, sizeof err) == 0 &&
                  e.nspread == 2 &&
                  e.spread_pct[0] == 1 && e.spread_pct[1] == 2.5 && !strcmp(e.spread_source, "m") &&
                  parse(GOOD, &e, err, sizeof err) == 0 && !e.nspread,
              "gpu_spread_pct 1|2.5; none by default (%s)", err);
        CHECK(parse(GOOD EPOCH "epoch_steps = fill\n", &e, err, sizeof err) == 0 && e.base_epoch_steps == EPOCH_FILL &&
                  parse(GOOD, &e, err, sizeof err) == 0 && !e.epoch_examples && !e.sync_bytes,
              "baseline_epoch_steps defaults to epoch_steps; none by default (%s)", err);
#undef EPOCH
        int mlperf = 0; /* the shipped ResNet entries: v1.0 fill on both runs, v3.0's scaled runs carry */
        for (int i = 0; i < n; i++)
            if (!strcmp(cat[i].model, "resnet50") && cat[i].global_batch) {
                int v30 = !strncmp(cat[i].name + 2, "-mlperf30", 9), v10 = !strncmp(cat[i].name + 2, "-mlperf10", 9);
                mlperf++;
                int units = v30 || v10 ? cat[i].epoch_examples == 1281167 : !cat[i].epoch_examples;
                CHECK(cat[i].sync_bytes == 24 && units &&
                          (!v30 || (cat[i].epoch_steps == EPOCH_CARRY && cat[i].base_epoch_steps == EPOCH_FILL &&
                                    cat[i].epochs > 0)) &&
                          (!v10 || (cat[i].epoch_steps == EPOCH_FILL && cat[i].base_epoch_steps == EPOCH_FILL)),
                      "%s: Horovod's 24-byte coordination; the epoch's units as its round's iterators", cat[i].name);
            }
        CHECK(mlperf == 6, "the catalogue's MLPerf ResNet entries: %d, expected 6", mlperf);
    }
    int bert = 0;
    for (int i = 0; i < n; i++)
        if (!strcmp(cat[i].model, "bert-large")) {
            bert++;
            CHECK(cat[i].optim == OPTIM_LAMB && cat[i].shard == SHARD_NONE && cat[i].optim_shard == 8 &&
                      cat[i].grad_bytes == 2 && cat[i].global_batch && cat[i].single_img_s > 0 && cat[i].nalgos >= 2 &&
                      cat[i].nfixed == 2,
                  "%s: MLPerf BERT's DistributedFusedLAMB (full_ar, a node's shard), fp16, strong scaling, the "
                  "1-node rate, NCCL's ring or tree, the NVLink allgather's range", cat[i].name);
        }
    CHECK(bert == 2, "the catalogue's MLPerf BERT entries: %d, expected 2 (v2.0 A100, v3.0 H100)", bert);
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        CHECK(parse(bad[i].text, &e, err, sizeof err) == 2 && strstr(err, bad[i].want) &&
                  !strncmp(err, "x/t.study", 9) && !strchr(err, '\n') && !strchr(err, '\033'),
              "bad[%zu]: want \"%s\" in \"%s\"", i, bad[i].want, err);
    CHECK(study_file_parse("label = a\0b\n", 12, "x/t.study", &e, err, sizeof err) == 2 && strstr(err, ":1: byte 10"),
          "a NUL: %s", err);
    CHECK(study_catalogue("tests", cat, STUDY_MAX_ENTRIES, &n, err, sizeof err) == 2 && strstr(err, "no .study files"),
          "a folder without entries: %s", err);
    CHECK(study_catalogue("/nonexistent", cat, STUDY_MAX_ENTRIES, &n, err, sizeof err) == 2, "a missing folder");
    CHECK(study_catalogue("harness/sim/studies", cat, 1, &n, err, sizeof err) == 2 && strstr(err, "more than 1"),
          "more entries than room: %s", err);
    return TEST_REPORT();
}
