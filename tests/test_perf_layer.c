/* test_perf_layer.c — harness/sim/perf_layer.c, the one pricer of a layer's pass that the model
 * (perf_step.c) and the simulation (trainer.c) share: without the compute-model keys it is the linear
 * price of before, bit for bit; fp16 halves the memory-bound bytes; fused drops batch norm, ReLU and
 * im2col; a kernel cost makes small batches dearer per image; --images-per-s pins the one-GPU step to
 * the rate given; the pin's parser refuses what is not R@B. */
#include "model.h"
#include "model_bytes.h"
#include "perf_layer.h"
#include "test.h"

#include <math.h>

/* The one-GPU step's seconds per image (compute_only: SGD, a cost per step, left out). */
static double step_per_image(const char *name, int batch, const layer_price *lp, int compute_only)
{
    model *m = NULL;
    char err[200];
    if (model_create(name, batch, 224, &m, err, sizeof err)) return -1;
    double t = (perf_layer_step(m, lp, 2000) - (compute_only ? perf_layer_sgd(m, lp, 2000) : 0)) / batch;
    model_free(m);
    return t;
}

int main(void)
{
    model *m = NULL;
    char err[300];
    CHECK(model_create("resnet50", 8, 224, &m, err, sizeof err) == MODEL_OK, "resnet50: %s", err);
    if (!m) return TEST_REPORT();
    layer_price lin, half, fused, shaped;
    profile p = { .gemm_gflops_fp32 = 1000, .gemm_gflops_fp16 = 2000, .mem_gbps = 500 };
    perf_layer_make(1000, 500, 1, NULL, 0, &lin);
    CHECK(!perf_layer_shaped(&p) && !perf_layer_shaped(NULL), "no compute-model key: not shaped");
    int bad = 0, conv = -1;
    for (int l = 0; l < model_layer_count(m); l++) {
        const model_layer *L = model_layer_at(m, l);
        double g, b, want_g = 0;
        if (L->kind == MODEL_CONV && conv < 0 && l > 0) conv = l;
        perf_layer(m, l, 0, &lin, &g, &b);
        if (L->kind == MODEL_CONV || L->kind == MODEL_FC)
            want_g = 2.0 * L->gemm[MODEL_FWD].m * L->gemm[MODEL_FWD].n * L->gemm[MODEL_FWD].k / 1e12;
        bad += g != want_g || b != model_mem_bytes(m, l, MODEL_FWD) / 500e9;
    }
    CHECK(bad == 0, "linear: 2mnk / rate and bytes / rate exactly (%d layers differ)", bad);
    p.precision = PROFILE_FP16;
    perf_layer_make(2000, 500, 1, &p, 1, &half);
    CHECK(perf_layer_shaped(&p) && half.k.elem == 2 && half.act == 0.5, "fp16: 2-byte operands and activations");
    double g1, b1, g2, b2, g3, b3;
    perf_layer(m, conv + 1, 1, &lin, &g1, &b1); /* the batch norm after a conv */
    perf_layer(m, conv + 1, 1, &half, &g2, &b2);
    CHECK(b1 > 0 && fabs(b2 - b1 / 2) <= 1e-15 * b1, "fp16 halves a batch norm's bytes: %g vs %g", b2, b1);
    p.fused = 1;
    perf_layer_make(2000, 500, 1, &p, 1, &fused);
    perf_layer(m, conv + 1, 1, &fused, &g3, &b3);
    CHECK(b3 == 0 && g3 == 0, "fused: the batch norm's pass vanishes, got %g s", b3);
    perf_layer(m, conv, 0, &fused, &g3, &b3);
    CHECK(g3 > 0, "fused: the conv's GEMM stays");
    perf_layer_make(2000, 500, 0, &p, 1, &fused);
    perf_layer(m, conv + 1, 1, &fused, &g3, &b3);
    CHECK(b3 == 0, "--compute gemm: no memory-bound kernels");
    { /* batch norm apart (fused 2): its bytes stay, the ReLU joins it, im2col vanishes; bn_held: 2 of its 3
       * forward passes, 3 of its 5 backward; NormConv (3): forward as fused, backward as apart */
        double k[MODEL_MEM_KINDS] = { 0 }, fb, bb, fh, bh, cg, cb, nf, nb;
        p.fused = PROFILE_BN_APART;
        perf_layer_make(2000, 500, 1, &p, 1, &fused);
        perf_layer(m, conv + 1, 0, &fused, &g3, &fb);
        perf_layer(m, conv + 1, 1, &fused, &g3, &bb);
        model_mem_bytes_kinds(m, conv + 1, MODEL_FWD, k);
        CHECK(k[MODEL_MEM_BN] > 0 && k[MODEL_MEM_RELU] > 0 && fabs(fb - k[MODEL_MEM_BN] / 2 / 500e9) <= 1e-12 * fb,
              "bn apart: the batch norm's bytes at fp16 and no ReLU pass: %g vs %g s", fb, k[MODEL_MEM_BN] / 1e12);
        perf_layer(m, conv, 0, &fused, &cg, &cb);
        CHECK(cg > 0 && cb == 0, "bn apart: the conv's GEMM, no im2col (%g s)", cb);
        p.bn_held = 1;
        perf_layer_make(2000, 500, 1, &p, 1, &fused);
        perf_layer(m, conv + 1, 0, &fused, &g3, &fh);
        perf_layer(m, conv + 1, 1, &fused, &g3, &bh);
        CHECK(fabs(fh - fb * 2 / 3) <= 1e-12 * fb && fabs(bh - bb * 3 / 5) <= 1e-12 * bb,
              "bn held: 2/3 of the forward bytes (%g of %g), 3/5 of the backward (%g of %g)", fh, fb, bh, bb);
        p.fused = PROFILE_NORMCONV, p.bn_held = 0;
        perf_layer_make(2000, 500, 1, &p, 1, &fused);
        perf_layer(m, conv + 1, 0, &fused, &g3, &nf);
        perf_layer(m, conv + 1, 1, &fused, &g3, &nb);
        CHECK(nf == 0 && nb == bb, "normconv: no batch norm pass forward, the whole one backward (%g, %g of %g)", nf,
              nb, bb);
        p.fused = 1;
    }
    model_free(m);

    /* kernel costs and tiles: a small batch runs slower per image, the linear model does not */
    p = (profile){ .gemm_gflops_fp16 = 850000, .mem_gbps = 2300, .precision = PROFILE_FP16, .fused = 1,
                   .graphs = 1, .graph_kernel_us = 1.5, .sms = 132, .gemm_tile = 128 };
    perf_layer_make(850000, 2300, 1, &p, 1, &shaped);
    perf_layer_make(850000, 2300, 1, NULL, 1, &lin);
    double s16 = step_per_image("resnet50", 16, &shaped, 1), s256 = step_per_image("resnet50", 256, &shaped, 1);
    double l16 = step_per_image("resnet50", 16, &lin, 1), l256 = step_per_image("resnet50", 256, &lin, 1);
    CHECK(s16 > 1.05 * s256, "shaped: batch 16 dearer per image than 256: %g vs %g s", s16, s256);
    CHECK(fabs(l16 - l256) <= 1e-9 * l256, "linear: the same per image at any batch: %g vs %g s", l16, l256);
    { /* the networks at a small and a large batch: NormConv's backward batch norm and the forward one apart
       * are bytes in proportion to the batch (plus a kernel each), so per image they cost the same at 50 and
       * at 400 to within the kernels' fixed cost, and apart costs more than NormConv, which costs more than
       * the ideal fusion */
        layer_price nc, ap, id;
        profile q = p;
        q.fused = PROFILE_NORMCONV, perf_layer_make(850000, 2300, 1, &q, 1, &nc);
        q.fused = PROFILE_BN_APART, perf_layer_make(850000, 2300, 1, &q, 1, &ap);
        q.fused = PROFILE_FUSED, perf_layer_make(850000, 2300, 1, &q, 1, &id);
        double n50 = step_per_image("resnet50", 50, &nc, 1), n400 = step_per_image("resnet50", 400, &nc, 1);
        double a50 = step_per_image("resnet50", 50, &ap, 1), a400 = step_per_image("resnet50", 400, &ap, 1);
        double i50 = step_per_image("resnet50", 50, &id, 1), i400 = step_per_image("resnet50", 400, &id, 1);
        CHECK(a50 > n50 && n50 > i50 && a400 > n400 && n400 > i400, "apart > normconv > fused per image: %g %g %g",
              a50, n50, i50);
        CHECK(fabs((a50 - n50) - (a400 - n400)) <= 0.05 * (a400 - n400) && a50 - n50 >= a400 - n400,
              "the forward batch norm apart: %g s an image at 50, %g at 400", a50 - n50, a400 - n400);
    }

    /* perf_layer_pass: forward + backward + SGD is the step; its kernel count, unfused, is every GEMM layer's
     * kernel plus one per kind of memory-bound work the layer does in the pass (counted here from the model) */
    {
        profile q = { .gemm_gflops_fp32 = 1000, .mem_gbps = 500, .kernel_us = 4 };
        layer_price un;
        model *r = NULL;
        int kf = -1, kb = -1, want_f = 0;
        perf_layer_make(1000, 500, 1, &q, 1, &un);
        CHECK(model_create("resnet50", 2, 224, &r, err, sizeof err) == MODEL_OK, "resnet50: %s", err);
        for (int l = 0; r && l < model_layer_count(r); l++) {
            double k[MODEL_MEM_KINDS] = { 0 };
            const model_layer *L = model_layer_at(r, l);
            model_mem_bytes_kinds(r, l, MODEL_FWD, k);
            want_f += L->gemm_reps > 0 && L->gemm[MODEL_FWD].m > 0;
            for (int j = 0; j < MODEL_MEM_KINDS; j++) want_f += k[j] > 0;
        }
        double tf = r ? perf_layer_pass(r, &un, 0, &kf) : 0, tb = r ? perf_layer_pass(r, &un, 1, &kb) : 0;
        double st = r ? perf_layer_step(r, &un, 2000) : 0, sg = r ? perf_layer_sgd(r, &un, 2000) : 0;
        CHECK(r && fabs(tf + tb + sg - st) <= 1e-12 * st, "forward + backward + SGD = the step: %g + %g + %g vs %g",
              tf, tb, sg, st);
        CHECK(kf == want_f && want_f > 100 && kb > kf, "unfused forward kernels %d (want %d), backward %d", kf, want_f,
              kb);
        un.scale = 2;
        CHECK(r && fabs(perf_layer_pass(r, &un, 0, NULL) - 2 * tf) <= 1e-12 * tf, "the pass x scale");
        model_free(r);
    }

    /* study.c's kscale: rates x k and kernel costs / k make every layer's time 1/k of itself */
    {
        profile q = p;
        layer_price ks;
        q.gemm_gflops_fp16 *= 2, q.mem_gbps *= 2, q.graph_kernel_us /= 2;
        perf_layer_make(q.gemm_gflops_fp16, q.mem_gbps, 1, &q, 1, &ks);
        double a = step_per_image("resnet50", 32, &shaped, 1), b2x = step_per_image("resnet50", 32, &ks, 1);
        CHECK(fabs(b2x * 2 - a) <= 1e-9 * a, "rates x2, kernel cost / 2: half the time, %g vs %g", b2x, a);
    }

    /* --images-per-s: the pinned one-GPU step at batch B is B / R */
    double scale = 0;
    CHECK(perf_layer_pin_scale("resnet50", 224, 7008, 400, &shaped, 2000, &scale, err, sizeof err) == 0 && scale > 0,
          "pin: %s", err);
    shaped.scale = scale;
    double pinned = step_per_image("resnet50", 400, &shaped, 0);
    CHECK(fabs(pinned * 7008 - 1) < 1e-9, "pinned: 400 images at 7008/s, got %g s a image", pinned);
    CHECK(perf_layer_pin_scale("resnet9", 224, 7008, 400, &shaped, 2000, &scale, err, sizeof err) == 2,
          "pin: an unknown model refused");

    double r;
    long b;
    CHECK(perf_layer_pin_parse("7008@400", &r, &b, err, sizeof err) == 0 && r == 7008 && b == 400, "7008@400");
    CHECK(perf_layer_pin_parse("1.5e3@8", &r, &b, err, sizeof err) == 0 && r == 1500 && b == 8, "1.5e3@8");
    static const char *const no[] = { "0@400", "-1@400", "7008", "7008@", "@400", "7008@0", "7008@4x", "x@4",
                                      "nan@4", "inf@4", "7008@-4", "7008@ 4", "", "0x10@4", "7008@400@2" };
    for (size_t i = 0; i < sizeof no / sizeof no[0]; i++)
        CHECK(perf_layer_pin_parse(no[i], &r, &b, err, sizeof err) == 2 && strstr(err, "expected R@B"),
              "\"%s\" refused: %s", no[i], err);
    CHECK(perf_layer_pin_parse(NULL, &r, &b, err, sizeof err) == 2, "NULL refused");
    return TEST_REPORT();
}
