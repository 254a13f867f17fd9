/* test_gemm.c — kern_gemm_f32 against a naive triple loop in double: shapes × all four transpose
 * combinations × padded leading dimensions, degenerate sizes (0 and 1), and rejected arguments.
 * Error bound per element: 2·k·eps32·(|alpha|·Σ|a||b| + |beta|·|c|), the classic GEMM bound. */
#include "gemm.h"
#include "test.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static unsigned rng_state = 12345u;
static float rnd(void) /* uniform in [-1, 1) */
{
    rng_state = rng_state * 1664525u + 1013904223u;
    return (float)((rng_state >> 8) * (1.0 / 16777216.0) * 2.0 - 1.0);
}

/* element (r, c) of op(X) where X is stored row-major with leading dimension ld */
static double at(const float *X, int ld, int trans, int r, int c)
{
    return trans ? X[(long)c * ld + r] : X[(long)r * ld + c];
}

/* returns the number of elements outside the bound */
static int run_case(int ta, int tb, int m, int n, int k, float alpha, float beta, int pad)
{
    int arows = ta ? k : m, acols = ta ? m : k, brows = tb ? n : k, bcols = tb ? k : n;
    int lda = (acols > 0 ? acols : 1) + pad, ldb = (bcols > 0 ? bcols : 1) + pad, ldc = (n > 0 ? n : 1) + pad;
    size_t asz = (size_t)(arows ? arows : 1) * lda, bsz = (size_t)(brows ? brows : 1) * ldb;
    size_t csz = (size_t)(m ? m : 1) * ldc;
    float *A = malloc(asz * sizeof *A), *B = malloc(bsz * sizeof *B), *C = malloc(csz * sizeof *C);
    float *C0 = malloc(csz * sizeof *C0);
    int bad = -1;
    if (!A || !B || !C || !C0) goto out;
    for (size_t i = 0; i < asz; i++) A[i] = rnd();
    for (size_t i = 0; i < bsz; i++) B[i] = rnd();
    for (size_t i = 0; i < csz; i++) C0[i] = C[i] = rnd();
    if (kern_gemm_f32(ta, tb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc) != KERN_GEMM_OK) goto out;
    bad = 0;
    for (int i = 0; i < m; i++) {
        for (int j = 0; j < n; j++) {
            double ref = 0, mag = 0;
            for (int p = 0; p < k; p++) {
                double t = at(A, lda, ta, i, p) * at(B, ldb, tb, p, j);
                ref += t;
                mag += fabs(t);
            }
            double c0 = C0[(long)i * ldc + j];
            ref = alpha * ref + beta * c0;
            double tol = 2.0 * (k + 2) * FLT_EPSILON * (fabs(alpha) * mag + fabs(beta * c0)) + 1e-30;
            if (fabs(C[(long)i * ldc + j] - ref) > tol) bad++;
        }
        for (int j = n; j < ldc; j++) /* padding must be untouched */
            if (C[(long)i * ldc + j] != C0[(long)i * ldc + j]) bad++;
    }
out:
    free(A), free(B), free(C), free(C0);
    return bad;
}

static void test_shapes(void)
{
    static const int shapes[][3] = { { 1, 1, 1 }, { 1, 7, 5 }, { 6, 1, 9 }, { 5, 8, 1 }, { 17, 13, 29 },
                                     { 64, 49, 576 }, { 256, 196, 64 }, { 3, 100, 1 }, { 1, 1, 1000 },
                                     { 0, 5, 3 }, { 4, 0, 3 }, { 4, 5, 0 } };
    static const float ab[][2] = { { 1.0f, 0.0f }, { 0.5f, 1.0f }, { -2.0f, 0.25f } };
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++)
        for (int t = 0; t < 4; t++)
            for (int pad = 0; pad <= 3; pad += 3)
                for (size_t c = 0; c < sizeof ab / sizeof ab[0]; c++) {
                    int m = shapes[s][0], n = shapes[s][1], k = shapes[s][2];
                    int bad = run_case(t >> 1, t & 1, m, n, k, ab[c][0], ab[c][1], pad);
                    CHECK(bad == 0, "m=%d n=%d k=%d transa=%d transb=%d pad=%d alpha=%g beta=%g: %d bad elements",
                          m, n, k, t >> 1, t & 1, pad, ab[c][0], ab[c][1], bad);
                }
}

static void test_beta_zero_clears_nan(void)
{
    float A[2] = { 1, 2 }, B[2] = { 3, 4 }, C[1] = { NAN };
    CHECK(kern_gemm_f32(0, 0, 1, 1, 2, 1.0f, A, 2, B, 1, 0.0f, C, 1) == KERN_GEMM_OK && C[0] == 11.0f,
          "beta=0 must ignore NaN in C, got %g", C[0]);
    C[0] = NAN;
    CHECK(kern_gemm_f32(0, 0, 1, 1, 0, 1.0f, A, 1, B, 1, 0.0f, C, 1) == KERN_GEMM_OK && C[0] == 0.0f,
          "k=0 beta=0 must set C to 0, got %g", C[0]);
}

static void test_bad_args(void)
{
    float A[64], B[64], C[64];
    for (int i = 0; i < 64; i++) A[i] = B[i] = 1.0f, C[i] = 7.0f;
    struct { int ta, tb, m, n, k, lda, ldb, ldc, nullc; const char *what; } cases[] = {
        { 0, 0, -1, 2, 2, 2, 2, 2, 0, "m < 0" },
        { 0, 0, 2, -1, 2, 2, 2, 2, 0, "n < 0" },
        { 0, 0, 2, 2, -3, 2, 2, 2, 0, "k < 0" },
        { 2, 0, 2, 2, 2, 2, 2, 2, 0, "transa = 2" },
        { 0, -1, 2, 2, 2, 2, 2, 2, 0, "transb = -1" },
        { 0, 0, 2, 3, 4, 3, 3, 3, 0, "lda < k" },
        { 1, 0, 5, 3, 4, 4, 3, 3, 0, "transposed lda < m" },
        { 0, 0, 2, 3, 4, 4, 2, 3, 0, "ldb < n" },
        { 0, 1, 2, 3, 4, 4, 3, 3, 0, "transposed ldb < k" },
        { 0, 0, 2, 3, 4, 4, 3, 2, 0, "ldc < n" },
        { 0, 0, 1, 1, 0, 0, 1, 1, 0, "lda = 0" },
        { 0, 0, 2, 2, 2, 2, 2, 2, 1, "C = NULL" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int rc = kern_gemm_f32(cases[i].ta, cases[i].tb, cases[i].m, cases[i].n, cases[i].k, 1.0f, A, cases[i].lda,
                               B, cases[i].ldb, 0.0f, cases[i].nullc ? NULL : C, cases[i].ldc);
        CHECK(rc == KERN_GEMM_EARG, "%s: expected KERN_GEMM_EARG, got %d", cases[i].what, rc);
    }
    int untouched = 1;
    for (int i = 0; i < 64; i++) untouched &= C[i] == 7.0f;
    CHECK(untouched, "C changed by a rejected call");
    CHECK(kern_gemm_f32(0, 0, 2, 2, 2, 1.0f, NULL, 2, B, 2, 0.0f, C, 2) == KERN_GEMM_EARG, "A = NULL accepted");
    CHECK(kern_gemm_f32(0, 0, 0, 0, 0, 1.0f, NULL, 1, NULL, 1, 0.0f, NULL, 1) == KERN_GEMM_OK,
          "empty GEMM with NULL pointers must be a no-op");
    CHECK(strlen(kern_gemm_strerror(KERN_GEMM_EARG)) > 0 && strlen(kern_gemm_strerror(99)) > 0, "strerror");
}

int main(void)
{
    CHECK(kern_gemm_init() == KERN_GEMM_OK, "kern_gemm_init failed");
    CHECK(kern_gemm_backend() != NULL && kern_gemm_backend()[0], "backend string empty");
    CHECK(kern_gemm_flops(2, 3, 4) == 48.0, "flops(2,3,4) = %g, expected 48", kern_gemm_flops(2, 3, 4));
    CHECK(kern_gemm_flops(2048, 1000, 32) == 131072000.0, "flops overflowed");
    test_shapes();
    test_beta_zero_clears_nan();
    test_bad_args();
    printf("# backend: %s\n", kern_gemm_backend());
    return TEST_REPORT();
}
