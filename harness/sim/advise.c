/* advise.c — the bucket advice (advise.h): one setting is the one step schedule's α-β-γ pricer. */
#include "advise.h"
#include "perf_step.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int advise_eval(const advise_in *in, size_t cap, size_t first, advise_out *out, char *err, size_t errlen)
{
    step_inputs si = { in->gemm_flops / 1e9, in->gamma, in->mem_gbps, in->full, cap, first, NULL, NULL,
                       { 0, 0, 0, 0, 0, 0 }, 0,         in->sgd_gbps, in->shape, 0, in->shard, in->optim,
                       in->grad_bytes, 0, 0 };
    step_prediction p;
    memset(out, 0, sizeof *out);
    int rc = perf_step(in->m, in->pf, in->algo, &si, &p, err, errlen);
    if (rc) return rc;
    out->cap = cap, out->first = first, out->buckets = p.buckets;
    out->fwd_s = p.forward_s;
    out->bwd_s = p.compute_s - p.forward_s;
    out->comm_s = p.comm_s;
    out->exposed_s = p.exposed_s;
    out->sgd_s = p.sgd_s;
    out->step_s = p.step_s;
    out->gather_wait_s = p.gather_wait_s, out->gather_s = p.gather_s;
    return 0;
}

void advise_rule(char *buf, size_t len)
{
    snprintf(buf, len, "the fewest buckets within %g ms or %g%% (the larger) of the least exposed, then the larger cap",
             ADVISE_TOL_S * 1e3, ADVISE_TOL_REL * 100);
}

int advise_least(const double *exposed, const unsigned char *use, int n)
{
    int least = -1;
    for (int i = 0; i < n; i++)
        if ((!use || use[i]) && (least < 0 || exposed[i] < exposed[least])) least = i;
    return least;
}

int advise_pick(const advise_out *cells, const double *exposed, const unsigned char *use, int n)
{
    int li = advise_least(exposed, use, n), best = -1;
    if (li < 0) return -1;
    double least = exposed[li];
    double tol = least * ADVISE_TOL_REL > ADVISE_TOL_S ? least * ADVISE_TOL_REL : ADVISE_TOL_S;
    for (int i = 0; i < n; i++) {
        if ((use && !use[i]) || exposed[i] > least + tol) continue;
        size_t ci = cells[i].cap ? cells[i].cap : SIZE_MAX,
               cb = best >= 0 && cells[best].cap ? cells[best].cap : SIZE_MAX;
        if (best < 0 || cells[i].buckets < cells[best].buckets || (cells[i].buckets == cells[best].buckets && ci > cb))
            best = i;
    }
    return best;
}
