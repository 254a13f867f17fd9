/* limit.c — the largest GPU count keeping a per-GPU efficiency (limit.h). */
#include "limit.h"
#include "gbatch.h"
#include "model.h"
#include "perf_step.h"
#include "platform.h"

#include <stdio.h>

const char *limit_case_name(int c)
{
    static const char *const names[LIMIT_CASES] = { "as is", "NIC bw x0.5", "NIC bw x2", "step x0.5", "step x2" };
    return c >= 0 && c < LIMIT_CASES ? names[c] : "?";
}

/* Per-GPU images/s of algo on n nodes under case c (*rate); *b the per-GPU batch. 0, or 1/2 with err. */
static int point(const limit_in *in, const char *algo, int c, int n, double *rate, char *err, size_t errlen)
{
    platform pf;
    model *m = NULL;
    step_prediction s;
    long b = in->batch;
    if (platform_init_partial(&pf, in->preset, n, in->gpus_per_node, err, errlen)) return 2;
    if (in->global_batch &&
        gbatch_split(in->global_batch, platform_ranks(&pf), 65536, "--global-batch", &b, NULL, err, errlen))
        return 2;
    pf.nic_bw *= c == LIMIT_NIC_HALF ? 0.5 : c == LIMIT_NIC_DOUBLE ? 2 : 1;
    double k = c == LIMIT_STEP_HALF ? 2 : c == LIMIT_STEP_DOUBLE ? 0.5 : 1; /* compute rates: step x 1/k */
    step_inputs si = { .gemm_gflops = in->pr->gemm_gflops_fp32 * k, .gamma = in->pr->reduce_ns_per_byte * 1e-9,
                       .mem_gbps = in->pr->mem_gbps * k, .full = 1, .bucket_bytes = in->bucket_bytes,
                       .first_bucket_bytes = (size_t)1 << 20, .sgd_gbps = in->pr->sgd_gbps * k,
                       .grad_bytes = in->grad_bytes };
    int rc = model_create(in->model, (int)b, (int)in->image, &m, err, errlen) ? 2 : 0;
    if (!rc) rc = perf_step(m, &pf, algo, &si, &s, err, errlen);
    model_free(m);
    if (!rc) *rate = (double)b / s.step_s;
    return rc;
}

int limit_largest(const limit_in *in, const char *algo, int c, limit_out *out, char *err, size_t errlen)
{
    double base, r;
    int rc = point(in, algo, c, 1, &base, err, errlen);
    platform pf;
    if (rc || platform_init_partial(&pf, in->preset, 1, in->gpus_per_node, err, errlen)) return rc ? rc : 2;
    int g = pf.gpus_per_node;
    *out = (limit_out){ g, 100, 1, g };
    for (int n = 2; n <= in->max_nodes && (!in->global_batch || (long)n * g <= in->global_batch); n *= 2) {
        if ((rc = point(in, algo, c, n, &r, err, errlen))) return rc;
        double e = 100 * r / base;
        out->tried = n * g;
        if (e >= in->pct) out->gpus = n * g, out->eff = e, out->beyond = 1;
        else out->beyond = 0;
    }
    return 0;
}
