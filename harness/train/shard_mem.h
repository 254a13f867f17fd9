/* shard_mem.h — each rank's memory for parameters, gradients and optimizer state under sharded data
 * parallelism, as the ZeRO paper (Rajbhandari et al., SC'20, arXiv:1910.02054, Figure 1 and §5)
 * and PyTorch FSDP's docs count it:
 *   none        (DDP)        params P·b, grads P·b, state P·K            every rank all of it
 *   optimizer   (ZeRO-1)     the state sharded: P·K / N
 *   gradients   (ZeRO-2)     state and grads sharded: (P·b + P·K) / N, params whole
 *   full        (ZeRO-3, FSDP FULL_SHARD)  all three sharded: P·(2b + K) / N
 * b = bytes of a parameter and of a gradient (fp32 4; mixed precision 2), K = the optimizer's
 * state bytes per parameter (SGD with momentum: 4; Adam and LAMB: m and v, 8; mixed precision adds
 * the fp32 master copy, 4: ZeRO's K = 12 for mixed-precision Adam). N = the shard group (all ranks,
 * or FSDP's HYBRID_SHARD group). A shard holds ceil(P / N) elements (the flat buffer padded, as
 * FSDP pads). With full sharding the layer in use and the one prefetched are gathered whole:
 * `gathered`, the largest two adjacent layers' parameters at b bytes (transient, not in total). */
#ifndef HARN_SHARD_MEM_H
#define HARN_SHARD_MEM_H

enum { SHARD_NONE, SHARD_OPTIMIZER, SHARD_GRADIENTS, SHARD_FULL, SHARD_MODES };
enum { OPTIM_SGD, OPTIM_ADAM, OPTIM_LAMB, OPTIM_KINDS };
enum { PREC_FP32, PREC_MIXED };

typedef struct shard_bytes {
    double params, grads, state; /* bytes per rank of each */
    double total;                /* their sum */
    double gathered;             /* full shard: the two layers gathered whole at a time; else 0 */
} shard_bytes;

const char *shard_mode_name(int mode);   /* "none", "optimizer", "gradients", "full" */
const char *optim_name(int optim);       /* "sgd", "adam", "lamb" */
double optim_state_bytes(int optim, int prec); /* K: state bytes per parameter */
double param_bytes(int prec);                  /* b: 4 (fp32) or 2 (mixed) */
/* Bytes an fp32 update moves per parameter: SGD with momentum 20 (read w, v, g; write w, v); Adam 28 (read
 * w, g, m, v; write w, m, v); LAMB 48 (Adam's 28 computing the update term u, its norms, then u and the
 * trust ratio applied: as perf_step.c prices them). */
double optim_update_bytes(int optim);
/* Per-rank bytes for `params` parameters sharded `mode` over `group` ranks; max_pair: the largest
 * two adjacent layers' parameters (for `gathered`). 0, or -1 (group < 1, unknown mode). */
int shard_mem(long long params, long long max_pair, int mode, int optim, int prec, int group, shard_bytes *out);

#endif
