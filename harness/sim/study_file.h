/* study_file.h — the catalogue of published scaling studies that `ddlbench study` predicts: one
 * entry a file, harness/sim/studies/NAME.study, read in the order of their names.
 *
 * An entry is one published efficiency figure and what is known of the run behind it, each fact
 * with its source (docs/SOURCES.md); what no source gives is an unknown, written as alternatives
 * "a|b", and the prediction's band spans every combination of them. Format: the one key = value
 * grammar (common/kv.h): key = value lines, "# comment" lines and blank lines; a value is the rest of
 * its line (no trailing comment); lines of printable UTF-8, at most 1000 bytes; the last newline
 * optional; files read by textfile.h:
 *   label = Facebook ResNet-50 (Goyal) 89%    what was published, 1..95 characters     (required)
 *   model = resnet50                          a model name or file (ddlbench model)       (required)
 *   batch = 32                                images per GPU, 1..65536; 32|64: unknown    (this or
 *                                             global_batch required)
 *   global_batch = 3200                       strong scaling (MLPerf): images a step over all `gpus`
 *                                             (gbatch.h: floor per GPU, below the GPUs refused)  (optional)
 *   baseline_global_batch = 3200              the baseline run's own global batch over `baseline`
 *                                             GPUs (default global_batch)        (optional, with it)
 *   grad_dtype = fp16                         the gradients on the wire: fp32 | fp16 | bf16 (wire.h;
 *                                             default fp32)                                (optional)
 *   optimizer = lamb                          sgd | adam | lamb (shard_mem.h; default sgd) (optional)
 *   shard = optimizer                         none | optimizer | gradients | full: sharded data
 *                                             parallelism (perf_step.h; default none)      (optional)
 *   fused_at_scale = 2                        the scaled run's network, where its config runs another
 *                                             than the baseline's: the profile's fused setting 1..3
 *                                             (profile.h; profiles with the compute model only) (optional)
 *   bn_held = 0|1                             the profile's bn_held for every run of the entry (profile.h);
 *                                             0|1: unknown, a corner each, each pinned on its own (optional)
 *   step_fixed_us = 160|260                   a fixed cost every step pays after its compute and
 *                                             communication (framework, optimizer work no layer prices),
 *                                             us in [0, 1e6]; a|b: a range; pinned runs pinned with it (optional)
 *   step_fixed_source = LARS norms ... (§17)  where it is from (required with step_fixed_us)
 *   cuda_graphs = off                         the run's step launched as a CUDA graph or not: the profile's
 *                                             graphs (kernel costs) for every run of the entry (optional)
 *   cuda_graphs_at_scale = off                the same for the scaled run alone, where its config differs
 *                                             from the baseline run's (after cuda_graphs) (optional)
 *   optimizer_shard = 8                       with shard = none: the gradients allreduced over all ranks,
 *                                             the optimizer's update over 1/k of the parameters on every
 *                                             run, one GPU's too (apex DistributedFusedLAMB's group of a
 *                                             node under full_ar), 1..PLATFORM_MAX_HOSTS; step_fixed_us
 *                                             is then the group's allgather, paid by runs of more than
 *                                             k GPUs only (one group's is the allreduce's) (optional)
 *   graph_kernel_us = 3.1|4.4                 each kernel's fixed cost under a CUDA graph, us in [0, 1e6],
 *                                             for every run of the entry in place of the profile's
 *                                             graph_kernel_us; a|b: a measured range, a corner each, each
 *                                             pinned on its own (compute-model profiles only) (optional)
 *   graph_kernel_source = ... (§16)           where it is from (required with graph_kernel_us)
 *   kernel_us = 4.6|15.3                      each kernel's fixed cost without a graph, us in [0, 1e6], in place
 *                                             of the profile's kernel_us for every run of the entry; a|b: a
 *                                             corner each, as graph_kernel_us (compute-model profiles only)
 *                                             (optional)
 *   kernel_source = ... (§18)                 where it is from (required with kernel_us)
 *   kernels_at_scale = 70                     kernels the scaled run launches a step that the baseline run
 *                                             does not (its own input path), each at the corner's kernel cost
 *                                             (kernel_us, or graph_kernel_us under a graph), 1..1e6 (optional)
 *   kernels_at_scale_source = ... (§18)       where they are counted (required with kernels_at_scale)
 *   kernels_scaled = off                      the kernels' fixed costs (kernel_us, graph_kernel_us: the profile's
 *                                             or the entry's) divided by the single-GPU figure's compute scale
 *                                             with the rates (on, the default) or the us as given (off: where
 *                                             that scale is the work a sample, packing or precision, not the
 *                                             launches; sim/study.h) (optional)
 *   image_size = 299                          the images' side, 32..1024 (default 224)    (optional)
 *   gpus = 256                                the published scale, 1..PLATFORM_MAX_HOSTS  (required)
 *   baseline = 8                              N0: the GPUs the figure is relative to, 1..gpus (required)
 *   published = 89                            the figure, % in (0, 100]                   (required)
 *   source = §2                               where it is from (docs/SOURCES.md)          (required)
 *   algo = ddl                                the allreduce, in ddlbench's terms; a|b or a|b|c:
 *                                             which one ran is unknown (NCCL's own pick: ring, tree
 *                                             or, where the run had SHARP, nvls)         (required)
 *   patterns = ring,rhd                       ddl's per-dimension patterns on a (GPUs per node) x
 *                                             (nodes) grid                                (optional)
 *   platforms = minsky2017-1port|minsky2017-2port   platform files of the study's platform folder,
 *                                             or presets where no such file (dgxh100; study.h's
 *                                             study_platform_path), 1..4 alternatives    (required)
 *   overlap = off|on                          the allreduce after backward (off) or in DDP-style
 *                                             buckets during it (on); 1 or 2 alternatives (required)
 *   bucket_mb = 64                            the framework's bucket (fusion) cap of the overlapped
 *                                             corners, MiB 1..1024 (default: study --bucket-mb) (optional)
 *   hours = 0.8333                            the run's published wall time, h > 0        (optional)
 *   hours_source = 50 min, the DDL abstract (§1)   where that time is from (required with hours)
 *   single_gpu_img_s = 130.9                  a published single-GPU training rate, images/s, of
 *                                             this model and framework: the entry's compute is the
 *                                             profile's, scaled to it (sim/study.c)      (optional)
 *   single_gpu_backward_ms = 120              or the published backward pass of one GPU, ms (optional)
 *   single_gpu_batch = 64                     the batch of that figure   (required with either)
 *   single_gpu_source = §13 (README, Sep 2017)   where it is from        (required with either)
 *   cycle_ms = 5                              the framework cycles (Horovod): it sleeps cycle_ms,
 *                                             then fuses the gradients ready on every rank into
 *                                             allreduces of up to bucket_mb (framework.h)  (optional)
 *   jitter_pct = 0.2                          stragglers: each rank's GEMMs (1 + x) times as long,
 *                                             x = jitter_pct/100 x Exp(1) (trainer.h)     (optional)
 *   jitter_source = a measurement              where it is from       (required with jitter_pct)
 *   overlap_from = 60                         partial overlap on the overlapped corners: no allreduce
 *                                             before this % of the gradients is ready (framework.h) (optional)
 *   overlap_source = the framework's code      where it is from     (required with overlap_from)
 *   epoch_examples = 1281167                  the published throughput is this many examples over an epoch's
 *                                             time (fit.py): the efficiency in its units (study_terms.h),
 *                                             at least the GPUs                           (optional)
 *   epoch_steps = carry                       the scaled run's steps an epoch: fill (ceil(floor(N/W)/B)) or
 *                                             carry (the surplus carried; two readings)   (with epoch_examples)
 *   baseline_epoch_steps = fill               the baseline run's (default epoch_steps)   (optional)
 *   epochs = 52                               the epochs the published median is over, 1..1000 (with carry)
 *   epoch_source = fit.py, dali.py (§17)      where they are from          (required with epoch_examples)
 *   horovod_sync_bytes = 24                   Horovod's per-cycle bit vector (a bit a tensor + 3), bytes,
 *                                             MPI-allreduced over every rank before each step's allreduce:
 *                                             priced as the platform's mpi row             (optional)
 *   horovod_sync_source = response_cache.cc   where it is from       (required with horovod_sync_bytes)
 *   gpu_spread_pct = 1|2                      GPU-to-GPU speed spread: the standard deviation of each GPU's compute
 *                                             time, % in [0, 50]: the scaled run waits for its slowest GPU
 *                                             (study_terms.h); a|b: a corner each                    (optional)
 *   gpu_spread_source = a measurement         where it is from          (required with gpu_spread_pct)
 * A malformed line, an unknown or repeated key, a missing one, a number out of range, or a
 * baseline above the scale: one line naming the file, the line and the key (exit 2 in the CLI). */
#ifndef HARN_STUDY_FILE_H
#define HARN_STUDY_FILE_H

#include <stddef.h>

#define STUDY_MAX_ALTS 4
#define STUDY_MAX_ALGOS 3 /* algo's alternatives: NCCL's ring, tree and CollNet over SHARP */
#define STUDY_MAX_ENTRIES 32

typedef struct study_entry {
    char name[64];                          /* the file's name without .study */
    char label[96], model[256], algo[32], patterns[64], source[200], time_source[200];
    int batch, gpus, baseline;             /* batch: the first of batches */
    int batches[2], nbatches;              /* per-GPU batch alternatives, in the order given */
    int bucket_mb;                         /* 0: study --bucket-mb */
    int image_size;                        /* pixels a side (224 unless given) */
    double published, published_hours;     /* %; h (0: none published) */
    char platforms[STUDY_MAX_ALTS][64];
    int nplatforms;
    int overlaps[2], noverlaps;            /* 0 = off, 1 = on, in the order given */
    double single_img_s;                   /* published single-GPU images/s at single_batch (0: none) */
    double single_backward_ms;             /* or its published backward pass, ms (0: none) */
    int single_batch;                      /* the batch of either */
    char single_source[200];               /* where it is from */
    double cycle_ms;                       /* the framework's fixed wait before each cycle (0: none) */
    double jitter_pct;                     /* stragglers: trainer.h's mean Exp draw, % (0: none) */
    char jitter_source[200];               /* the measurement it is from */
    double overlap_from_pct;               /* partial overlap of the overlapped corners, % (0: from the first) */
    char overlap_source[200];              /* where it is from */
    int global_batch;                      /* strong scaling: images a step over gpus (0: weak, batch) */
    int baseline_global_batch;             /* the baseline run's, over baseline GPUs (default global_batch) */
    int base_batch;                        /* its per-GPU batch (0: batch, weak scaling) */
    int grad_bytes;                        /* grad_dtype's bytes an element on the wire (wire.h; 0: fp32's 4) */
    int optim, shard;                      /* OPTIM_*, SHARD_* (shard_mem.h; 0: SGD, unsharded) */
    int fused_at_scale;                    /* the scaled run's profile fused setting (0: the profile's) */
    int held_alts[2], nheld;               /* the profile's bn_held alternatives (nheld 0: the profile's) */
    char algos[STUDY_MAX_ALGOS][32];       /* algo's alternatives (algo: the first) */
    int nalgos;
    double fixed_us[2];                    /* a fixed cost a step, us: alternatives (nfixed 0: none) */
    int nfixed;
    char fixed_source[200];                /* where it is from */
    int graphs, graphs_set;                /* cuda_graphs: the profile's graphs for the entry's runs, if set */
    int graphs_at, graphs_at_set;          /* cuda_graphs_at_scale: the scaled run's alone, if set */
    int optim_shard;                       /* optimizer_shard: the update over 1/k of the parameters (0: shard's) */
    double gk_us[2];                       /* graph_kernel_us: the profile's, alternatives (ngk 0: the profile's) */
    int ngk;
    char gk_source[200];                   /* where it is from */
    double k_us[2];                        /* kernel_us: the same launched one by one (nk 0: the profile's) */
    int nk;
    char k_source[200];                    /* where it is from */
    int extra_kernels;                     /* kernels_at_scale: the scaled run's own kernels a step (0: none) */
    char xk_source[200];                   /* where they are counted */
    int kscaled, kscaled_set;              /* kernels_scaled: the kernels' costs scaled with the rates, if set */
    int epoch_examples;                    /* the published throughput is this over an epoch's time (0: per step) */
    int epoch_steps, base_epoch_steps;     /* each run's iterator, EPOCH_* (study_terms.h; 0: not given) */
    int epochs;                            /* the epochs the published median is over (carry) */
    char epoch_source[200];                /* where they are from */
    int sync_bytes;                        /* Horovod's per-cycle bit vector, bytes (0: no coordination priced) */
    char sync_source[200];                 /* where it is from */
    double spread_pct[2];                  /* gpu_spread_pct: each GPU's persistent speed spread, % (nspread 0: none) */
    int nspread;
    char spread_source[200];               /* where it is from */
} study_entry;

/* Parse text[0..len) (name: the file, for messages and e->name). 0, or 2 with err. */
int study_file_parse(const char *text, size_t len, const char *name, study_entry *e, char *err, size_t errlen);

/* Every .study file of dir, sorted by name, into out[0..max). 0 and *n, or 2 with err (a folder without
 * entries, an unreadable or malformed file, more than max). */
int study_catalogue(const char *dir, study_entry *out, int max, int *n, char *err, size_t errlen);

#endif
