/* profile.h — device profiles: what one GPU (or CPU) computes per second, for the simulation backends
 * (gemm_sim.c, reduce_sim.c) and the analytic model (perf_cost.c).
 *
 * A profile is a small key=value text file (harness/sim/profiles/p100.profile, h200.profile; `ddlbench
 * calibrate` writes one for this machine). Lines follow the one key = value grammar (common/kv.h):
 * blank, "# comment", or "key = value" with an optional trailing "# comment". Every key below must appear exactly once;
 * values are decimal
 * numbers in a finite range (gemm rates 0.001..1e8 GFLOP/s, mem_gbps 0.001..1e6 GB/s, reduction cost
 * 0..1e6 ns/B; no hexadecimal, inf or nan), so no step is priced 0 or inf. Anything
 * else — an unknown key, a duplicate, a missing key, a non-number, a negative, a NUL byte, a line
 * longer than 1000 bytes, or a last line without its newline (a truncated file) — is an error naming
 * the file and line.
 * Optional, any number up to PROFILE_REDUCE_POINTS: "reduce_ns_per_byte_at_SIZE = X" (SIZE as
 * parse_size reads it: 64K, 1M; each SIZE once): the reduction cost when the allreduce's vector is
 * SIZE bytes (in cache below the cache sizes, streaming above). The simulator interpolates between
 * them (kernels/sim.h); a profile without them charges reduce_ns_per_byte at every size.
 * Optional, once: "sgd_gbps = X" (0.001..1e6): the SGD update's streaming rate (weights, gradients
 * and momentum, bytes as layers.h counts them); without it SGD runs at mem_gbps, as before. */
#ifndef HARN_PROFILE_H
#define HARN_PROFILE_H

#include <stddef.h>

#define PROFILE_REDUCE_POINTS 8
#define PROFILE_RATE_MIN 1e-3          /* GFLOP/s and GB/s: 1 MFLOP/s, 1 MB/s */
#define PROFILE_GFLOPS_MAX 1e8         /* 100 PFLOP/s a GPU */
#define PROFILE_GBPS_MAX 1e6           /* 1 PB/s a GPU */
#define PROFILE_NS_PER_BYTE_MAX 1e6    /* 1 ms a byte */
#define PROFILE_REDUCE_KEY "reduce_ns_per_byte_at_"

typedef struct profile {
    double gemm_gflops_fp32;    /* effective single-precision GEMM rate, 1e9 flop/s */
    double gemm_gflops_fp16;    /* effective half-precision (tensor core) GEMM rate, 1e9 flop/s */
    double reduce_ns_per_byte;  /* element-wise sum cost, ns per byte of one input vector (γ) */
    double mem_gbps;            /* memory-bound kernels (batch norm, ReLU, pooling, im2col, SGD):
                                   bytes they move per second, 1e9 B/s (kernels/layers.h) */
    int reduce_points;          /* optional size-dependent reduction cost: how many (0 = none) */
    size_t reduce_bytes[PROFILE_REDUCE_POINTS];     /* vector sizes, increasing */
    double reduce_ns[PROFILE_REDUCE_POINTS];        /* ns per byte at each size */
    double sgd_gbps;            /* optional: SGD's own rate, 1e9 B/s (0 = mem_gbps; profile_sgd_gbps) */
    int precision;              /* optional: PROFILE_FP32 (default), PROFILE_FP16, PROFILE_BF16 */
    double fused;               /* optional: PROFILE_UNFUSED (0), PROFILE_FUSED (1) or PROFILE_BN_APART (2) */
    double graphs;              /* optional: 0 or 1 (whole numbers, checked) */
    double kernel_us;           /* optional: each kernel's fixed cost, us (0: none) */
    double graph_kernel_us;     /* optional: the same under a CUDA graph (with graphs = 1) */
    double sms, gemm_tile;      /* optional: SMs and tile edge, whole numbers (sms 0: no tile model) */
    double bn_held;             /* optional: 0 or 1, batch-norm kernels of their own (fused 2, 3) hold each tensor
                                   on chip between statistics and normalisation (below) */
} profile;

enum { PROFILE_FP32, PROFILE_FP16, PROFILE_BF16 };
/* fused: 0 every layer's memory-bound kernels apart; 1 convolution + batch norm + ReLU one kernel forward and
 * backward (an ideal: no library fuses the backward); 2 convolutions implicit (no im2col) and batch norm +
 * ReLU (+ the residual add) one kernel of their own per layer and pass (MXNet's --fuse-bn-relu and
 * --fuse-bn-add-relu without NormConv: MLPerf's resnet-v1b-fl network); 3 NormConv as cuDNN's fused-ops API
 * runs it (CUDNN_FUSED_SCALE_BIAS_ACTIVATION_CONV_BNSTATS: the batch norm's statistics in the convolution's
 * epilogue, its normalisation and ReLU in the next convolution's prologue, so forward they vanish; backward,
 * dReLU + the batch norm's backward a kernel of their own, as fused = 2: MLPerf's resnet-v1b-stats-fl and
 * -mainloop-fl networks). A batch-norm kernel of its own reads x twice forward, x and dy twice backward
 * (kernels/layers.h: 3 and 5 passes); with bn_held = 1 it holds them on chip in between (persistent NHWC
 * kernels, NVIDIA/apex apex/contrib/csrc/groupbn): 2 and 3 passes. */
enum { PROFILE_UNFUSED, PROFILE_FUSED, PROFILE_BN_APART, PROFILE_NORMCONV, PROFILE_FUSED_MAX = PROFILE_NORMCONV };
/* "unfused", "conv+bn+relu fused", "bn+relu kernels apart", "normconv (bn backward apart)" and ", held" with
 * bn_held. */
const char *profile_fused_name(const profile *pr);
/* "fp32", "fp16", "bf16". */
const char *profile_precision_name(int precision);
/* The GEMM rate of the profile's precision, 1e9 flop/s: gemm_gflops_fp16 for fp16 and bf16. */
double profile_gemm_gflops(const profile *pr);
/* Each kernel's fixed cost, s: graph_kernel_us with graphs, else kernel_us. */
double profile_kernel_s(const profile *pr);

/* The rate SGD runs at: sgd_gbps where the profile has it, else mem_gbps. */
double profile_sgd_gbps(const profile *pr);

/* Parse text[0..len) (a file's contents; name is used in messages). 0, or 2 with err set. */
int profile_parse(const char *text, size_t len, const char *name, profile *out, char *err, size_t errlen);
/* Load a profile: a path, or a bare name ("p100") looked up as $DDL_PROFILE_DIR/NAME.profile, else
 * harness/sim/profiles/NAME.profile. 0, or 2 with err set. */
int profile_load(const char *name_or_path, profile *out, char *err, size_t errlen);
/* Write a profile (header comment lines first, each prefixed "# ") whole (outfile.h: path.tmp renamed
 * onto path, symbolic links followed, a FIFO or device written through). 0, or 1 with err set. */
int profile_write(const char *path, const profile *pr, const char *header, char *err, size_t errlen);

#endif
