/* schedule.c — the training step's schedule (schedule.h). */
#include "schedule.h"

#include <string.h>

/* Layer l's backward, then its tensors highest first, posting each bucket its tensor completes. */
static int backward_layer(const model *m, const bucket_plan *plan, const sched_pricer *p, void *arg, int l)
{
    const model_layer *L = model_layer_at(m, l);
    int rc = p->backward(arg, l);
    for (int i = L->ntensors - 1; i >= 0 && !rc; i--) {
        int ti = L->tensor0 + i, b = plan->tensor_bucket[ti];
        if (p->gradient) rc = p->gradient(arg, ti);
        if (!rc && plan->buckets[b].lowest_tensor == ti) rc = p->post(arg, b);
    }
    return rc;
}

int sched_step(const model *m, const bucket_plan *plan, const sched_pricer *p, void *arg, sched_times *out)
{
    double comm_end = 0, busy = 0;
    int nb = 0, rc;
    memset(out, 0, sizeof *out);
    const double t0 = p->now(arg);
    if ((rc = p->forward(arg))) return rc;
    const double t_fwd = p->now(arg);
    for (int l = model_layer_count(m) - 1; l >= 0; l--)
        if ((rc = backward_layer(m, plan, p, arg, l))) return rc;
    double t_bwd = p->now(arg);
    if (p->end_backward && (rc = p->end_backward(arg, &t_bwd))) return rc;
    if ((rc = p->drain(arg, &t_bwd, &comm_end, &busy, &nb))) return rc;
    const double t_sgd = p->now(arg);
    if ((rc = p->update(arg))) return rc;
    const double t_end = p->now(arg);
    out->step_s = t_end - t0;
    out->forward_s = t_fwd - t0;
    out->compute_s = t_bwd - t0;
    out->exposed_s = comm_end > t_bwd ? comm_end - t_bwd : 0;
    out->sgd_s = t_end - t_sgd;
    out->comm_s = busy;
    out->buckets = nb;
    return 0;
}

int sched_layer_gemms(const model_layer *L, int backward, int which[2])
{
    if (L->kind != MODEL_CONV && L->kind != MODEL_FC) return 0;
    if (!backward) return which[0] = MODEL_FWD, 1;
    which[0] = MODEL_BWD_WEIGHT, which[1] = MODEL_BWD_DATA;
    return L->data_grad_needed ? 2 : 1;
}

int sched_gemms(const model *m, int (*fn)(void *arg, int layer, int which), void *arg)
{
    int n = model_layer_count(m), rc = 0;
    for (int step = 0; step < 2 * n && !rc; step++) { /* forward 0 … L-1, then backward L-1 … 0 */
        int l = step < n ? step : 2 * n - 1 - step, which[2];
        int k = sched_layer_gemms(model_layer_at(m, l), step >= n, which);
        for (int j = 0; j < k && !rc; j++) rc = fn(arg, l, which[j]);
    }
    return rc;
}
