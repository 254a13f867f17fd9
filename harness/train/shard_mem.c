/* shard_mem.c — per-rank bytes under sharded data parallelism (see shard_mem.h). */
#include "shard_mem.h"

#include <string.h>

const char *shard_mode_name(int mode)
{
    static const char *const names[SHARD_MODES] = { "none", "optimizer", "gradients", "full" };
    return mode >= 0 && mode < SHARD_MODES ? names[mode] : "?";
}

const char *optim_name(int optim)
{
    static const char *const names[OPTIM_KINDS] = { "sgd", "adam", "lamb" };
    return optim >= 0 && optim < OPTIM_KINDS ? names[optim] : "?";
}

double param_bytes(int prec) { return prec == PREC_MIXED ? 2 : 4; }

double optim_state_bytes(int optim, int prec)
{
    double k = optim == OPTIM_SGD ? 4 : 8; /* momentum; or Adam's and LAMB's m and v */
    return k + (prec == PREC_MIXED ? 4 : 0); /* the fp32 master copy */
}

double optim_update_bytes(int optim)
{
    return optim == OPTIM_ADAM ? 28 : optim == OPTIM_LAMB ? 48 : 20; /* see shard_mem.h */
}

int shard_mem(long long params, long long max_pair, int mode, int optim, int prec, int group, shard_bytes *out)
{
    memset(out, 0, sizeof *out);
    if (group < 1 || mode < 0 || mode >= SHARD_MODES || optim < 0 || optim >= OPTIM_KINDS || params < 0) return -1;
    double whole = (double)params, shard = (double)((params + group - 1) / group), b = param_bytes(prec);
    out->state = optim_state_bytes(optim, prec) * (mode >= SHARD_OPTIMIZER ? shard : whole);
    out->grads = b * (mode >= SHARD_GRADIENTS ? shard : whole);
    out->params = b * (mode >= SHARD_FULL ? shard : whole);
    out->total = out->params + out->grads + out->state;
    out->gathered = mode == SHARD_FULL ? b * (double)max_pair : 0;
    return 0;
}
