/* test_schedule.c — the one step schedule (harness/train/schedule.c) with a recording pricer: the
 * order of the calls (forward once, backward from the last layer to the first, each tensor's gradient
 * before the post of the bucket it completes, every bucket posted exactly once and in the plan's
 * order, drain, update), the times it composes from the clock (exposed only past the end of
 * backward; end_backward may move it), a pricer's failure stopping the step with its code, and the
 * step's GEMMs in its order (sched_gemms: forward 0 … L-1, backward L-1 … 0, weight then data gradient). */
#include "bucket.h"
#include "schedule.h"
#include "test.h"

#include <math.h>

static char merr[512]; /* model_create's message */

#define MAXEV 4096

typedef struct rec {
    const model *m;
    const bucket_plan *plan;
    double clock, end, busy, per_layer, per_bucket, sgd, shift;
    int ev[MAXEV], nev, posts, fail_at, bad_order;
    double slow; /* what drain adds to the end of compute */
} rec;

enum { EV_FWD = -1, EV_DRAIN = -2, EV_UPDATE = -3, EV_BWD = 100000, EV_GRAD = 200000, EV_POST = 300000 };

static int log_ev(rec *r, int e)
{
    if (r->nev < MAXEV) r->ev[r->nev++] = e;
    return r->fail_at && r->nev == r->fail_at ? 7 : 0;
}

static double r_now(void *a) { return ((rec *)a)->clock; }
static int r_forward(void *a) { rec *r = a; r->clock += 1; return log_ev(r, EV_FWD); }
static int r_backward(void *a, int l) { rec *r = a; r->clock += r->per_layer; return log_ev(r, EV_BWD + l); }
static int r_gradient(void *a, int t) { return log_ev(a, EV_GRAD + t); }

static int r_post(void *a, int b)
{
    rec *r = a;
    r->bad_order |= b != r->posts++; /* the plan's buckets complete in index order (bucket.h) */
    double start = r->clock > r->end ? r->clock : r->end;
    r->end = start + r->per_bucket;
    r->busy += r->per_bucket;
    return log_ev(r, EV_POST + b);
}

static int r_end_backward(void *a, double *t_bwd) { rec *r = a; r->clock += r->shift; *t_bwd = r->clock; return 0; }

static int r_drain(void *a, double *t_bwd, double *end, double *busy, int *n)
{
    rec *r = a;
    *end = r->end, *busy = r->busy, *n = r->posts;
    *t_bwd += r->slow, r->clock += r->slow; /* contention's slowed compute (framework.h) */
    if (r->end > r->clock) r->clock = r->end;
    return log_ev(r, EV_DRAIN);
}

static int r_update(void *a) { rec *r = a; r->clock += r->sgd; return log_ev(r, EV_UPDATE); }

static const sched_pricer pricer = { r_now, r_forward, r_backward, r_gradient, r_post, NULL, r_drain, r_update };

/* The calls of one step: forward, layers in reverse, gradients before their bucket's post. */
static void check_order(const rec *r)
{
    int i = 0, ok = r->ev[i++] == EV_FWD, layer = model_layer_count(r->m);
    int *seen = calloc((size_t)r->plan->ntensors, sizeof *seen);
    for (; ok && i < r->nev && r->ev[i] >= EV_BWD; i++) {
        int e = r->ev[i];
        if (e < EV_GRAD) ok = e - EV_BWD == --layer;
        else if (e < EV_POST) seen[e - EV_GRAD]++, ok = model_tensor_at(r->m, e - EV_GRAD)->layer == layer;
        else ok = seen[r->plan->buckets[e - EV_POST].lowest_tensor] == 1;
    }
    for (int t = 0; t < r->plan->ntensors; t++) ok &= seen[t] == 1;
    CHECK(ok && layer == 0 && !r->bad_order && r->posts == r->plan->nbuckets, "call order (event %d of %d)", i, r->nev);
    CHECK(i + 2 == r->nev && r->ev[i] == EV_DRAIN && r->ev[i + 1] == EV_UPDATE, "drain, then update, last");
    free(seen);
}

static void plan_of(const model *m, size_t cap, bucket_plan *plan)
{
    size_t counts[512];
    for (int i = 0; i < model_tensor_count(m); i++) counts[i] = (size_t)model_tensor_at(m, i)->numel;
    bucket_plan_make(counts, model_tensor_count(m), 4, cap, 1u << 20, plan);
}

typedef struct gemm_rec {
    int n, layer[1024], which[1024], stop_at;
} gemm_rec;

static int on_gemm(void *a, int l, int which)
{
    gemm_rec *g = a;
    if (g->n < 1024) g->layer[g->n] = l, g->which[g->n] = which;
    return ++g->n == g->stop_at ? 5 : 0;
}

/* sched_gemms: every GEMM once, forward in layer order, then backward in reverse, weight before data. */
static void check_gemms(const model *m)
{
    static gemm_rec g;
    int L = model_layer_count(m), want = 0, nf = 0, ok = 1, i = 0, prev = -1;
    for (int l = 0; l < L; l++) {
        const model_layer *x = model_layer_at(m, l);
        if (x->kind == MODEL_CONV || x->kind == MODEL_FC) nf++, want += 2 + (x->data_grad_needed ? 1 : 0);
    }
    g.n = 0, g.stop_at = 0;
    CHECK(sched_gemms(m, on_gemm, &g) == 0 && g.n == want, "sched_gemms: %d GEMMs (want %d)", g.n, want);
    for (; ok && i < g.n && g.which[i] == MODEL_FWD; prev = g.layer[i++]) ok = g.layer[i] > prev;
    CHECK(ok && i == nf && g.layer[0] == 0, "sched_gemms: the forward GEMMs first, in layer order (%d)", i);
    for (prev = L; ok && i < g.n; i++) {
        const model_layer *x = model_layer_at(m, g.layer[i]);
        if (g.which[i] == MODEL_BWD_WEIGHT) ok = g.layer[i] < prev, prev = g.layer[i];
        else
            ok = g.which[i] == MODEL_BWD_DATA && g.layer[i] == prev && x->data_grad_needed &&
                 g.which[i - 1] == MODEL_BWD_WEIGHT;
    }
    CHECK(ok && prev == 0, "sched_gemms: backward in reverse, each weight gradient before its data gradient (at %d)",
          i);
    int which[2];
    CHECK(sched_layer_gemms(model_layer_at(m, 0), 1, which) == 1 && which[0] == MODEL_BWD_WEIGHT,
          "the first layer needs no data gradient");
    g.n = 0, g.stop_at = 3;
    CHECK(sched_gemms(m, on_gemm, &g) == 5 && g.n == 3, "sched_gemms stops at the callback's failure");
}

int main(void)
{
    model *m = NULL;
    if (model_create("resnet50", 8, 64, &m, merr, sizeof merr) != MODEL_OK) return printf("0 passed, 1 failed\n"), 1;
    const int L = model_layer_count(m);
    bucket_plan plan;
    sched_times st;
    for (int k = 0; k < 3; k++) { /* one bucket, DDP's 25 MiB, small 1 MiB buckets */
        static const size_t caps[] = { 0, 25u << 20, 1u << 20 };
        plan_of(m, caps[k], &plan);
        rec r = { m, &plan, 0, 0, 0, 0.01, 0.002, 0.5, 0, { 0 }, 0, 0, 0, 0, 0 };
        CHECK(sched_step(m, &plan, &pricer, &r, &st) == 0, "step");
        check_order(&r);
        double bwd = 1 + 0.01 * L;
        CHECK(fabs(st.forward_s - 1) < 1e-12 && fabs(st.compute_s - bwd) < 1e-9, "forward %g, compute %g", st.forward_s,
              st.compute_s);
        CHECK(fabs(st.exposed_s - (r.end > bwd ? r.end - bwd : 0)) < 1e-9 && st.buckets == plan.nbuckets &&
                  fabs(st.comm_s - 0.002 * plan.nbuckets) < 1e-12, "exposed %g, buckets %d", st.exposed_s, st.buckets);
        CHECK(fabs(st.sgd_s - 0.5) < 1e-12 && fabs(st.step_s - (st.compute_s + st.exposed_s + st.sgd_s)) < 1e-9,
              "step %g = compute + exposed + sgd", st.step_s);
        if (k == 0) CHECK(fabs(st.exposed_s - 0.002) < 1e-12, "one bucket: its whole allreduce is exposed");
        bucket_plan_free(&plan);
    }
    plan_of(m, 25u << 20, &plan);
    rec r = { m, &plan, 0, 0, 0, 0.01, 0.0, 0.5, 0, { 0 }, 0, 0, 0, 0, 0 };
    CHECK(sched_step(m, &plan, &pricer, &r, &st) == 0 && st.exposed_s == 0, "free allreduces expose nothing");
    sched_pricer p2 = pricer;
    p2.end_backward = r_end_backward;
    rec r2 = { m, &plan, 0, 0, 0, 0.01, 0.002, 0.5, 0.25, { 0 }, 0, 0, 0, 0, 0 };
    CHECK(sched_step(m, &plan, &p2, &r2, &st) == 0 && fabs(st.compute_s - (1.25 + 0.01 * L)) < 1e-9 &&
              st.exposed_s == 0,
          "end_backward moves the end of compute: %g", st.compute_s);
    rec r4 = { m, &plan, 0, 0, 0, 0.01, 0.002, 0.5, 0, { 0 }, 0, 0, 0, 0, 0 };
    r4.slow = 0.125;
    CHECK(sched_step(m, &plan, &pricer, &r4, &st) == 0 && fabs(st.compute_s - (1.125 + 0.01 * L)) < 1e-9 &&
              fabs(st.step_s - (st.compute_s + st.exposed_s + st.sgd_s)) < 1e-9,
          "drain moves the end of compute by the slowed compute: %g", st.compute_s);
    p2 = pricer;
    p2.gradient = NULL;
    rec r3 = { m, &plan, 0, 0, 0, 0.01, 0.002, 0.5, 0, { 0 }, 0, 0, 0, 0, 0 };
    CHECK(sched_step(m, &plan, &p2, &r3, &st) == 0 && r3.posts == plan.nbuckets,
          "no gradient hook: every bucket posted");
    for (int at = 1; at <= 40; at += 13) { /* a failure stops the step with the pricer's code */
        rec rf = { m, &plan, 0, 0, 0, 0.01, 0.002, 0.5, 0, { 0 }, 0, 0, at, 0, 0 };
        CHECK(sched_step(m, &plan, &pricer, &rf, &st) == 7 && rf.nev == at, "failure at call %d stops the step", at);
    }
    bucket_plan_free(&plan);
    check_gemms(m);
    model_free(m);
    return TEST_REPORT();
}
