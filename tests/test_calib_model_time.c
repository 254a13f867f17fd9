/* test_calib_model_time.c — `model --time`'s GEMM timings (harness/calib/calib_model_time.c) without argv:
 * the shared buffers hold the largest operands of every layer; hot and cold (--cold) timings give every
 * conv and FC layer a positive forward and backward time and the other layers none. ResNet-50 at batch 1,
 * image 32, one repetition (about a second). */
#include "calib_model_time.h"
#include "test.h"

#include <stdlib.h>

static char merr[512]; /* model_create's message */

int main(void)
{
    model *m = NULL;
    char err[300];
    size_t nw, nx, ny, mw = 1, mx = 1, my = 1;
    CHECK(model_create("resnet50", 1, 32, &m, merr, sizeof merr) == 0, "resnet50: %s", merr);
    if (!m) return TEST_REPORT();
    int nl = model_layer_count(m);
    for (int i = 0; i < nl; i++) {
        const model_gemm *g = &model_layer_at(m, i)->gemm[MODEL_FWD];
        size_t M = (size_t)g->m, N = (size_t)g->n, K = (size_t)g->k;
        mw = M * K > mw ? M * K : mw, mx = K * N > mx ? K * N : mx, my = M * N > my ? M * N : my;
    }
    model_time_buf_sizes(m, &nw, &nx, &ny);
    CHECK(nw == mw && nx == mx && ny == my && nw > 1, "buffers: %zu %zu %zu floats", nw, nx, ny);
    double *ms = calloc(2 * (size_t)nl, sizeof *ms);
    for (int cold = 0; cold < 2 && ms; cold++) {
        int gemms = 0, bad = 0;
        CHECK(model_time_layers(m, 1, cold, ms, err, sizeof err) == 0, "%s: %s", cold ? "cold" : "hot", err);
        for (int i = 0; i < nl; i++) {
            const model_layer *l = model_layer_at(m, i);
            int has = l->kind == MODEL_CONV || l->kind == MODEL_FC;
            gemms += has;
            bad += has ? !(ms[2 * i] > 0 && ms[2 * i + 1] > 0) : (ms[2 * i] != 0 || ms[2 * i + 1] != 0);
        }
        CHECK(gemms == 54 && bad == 0, "%s: %d GEMM layers (53 conv + 1 FC), %d with a wrong time",
              cold ? "cold" : "hot", gemms, bad);
    }
    free(ms);
    model_free(m);
    return TEST_REPORT();
}
