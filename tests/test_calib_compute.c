/* test_calib_compute.c — the device profile `ddlbench calibrate` measures (harness/calib/calib_compute.c):
 * every rate positive and finite, fp16 = fp32 on the CPU, the size-dependent reduction cost at 64 KiB ..
 * 64 MiB by 4x whose last point is the one-size figure, and a header naming what each figure is the
 * median of. About 3 s (the measurements themselves). */
#include "calib_compute.h"
#include "test.h"

#include <math.h>
#include <string.h>

int main(void)
{
    profile pr;
    char header[1024];
    memset(&pr, 0, sizeof pr);
    CHECK(calib_compute_profile(&pr) == 0, "the measurements run");
    CHECK(pr.gemm_gflops_fp32 > 0 && isfinite(pr.gemm_gflops_fp32), "GEMM rate %g GFLOP/s", pr.gemm_gflops_fp32);
    CHECK(pr.gemm_gflops_fp16 == pr.gemm_gflops_fp32, "fp16 = fp32 on the CPU");
    CHECK(pr.reduce_ns_per_byte > 0 && isfinite(pr.reduce_ns_per_byte), "reduction %g ns/B", pr.reduce_ns_per_byte);
    CHECK(pr.mem_gbps > 0 && isfinite(pr.mem_gbps) && pr.sgd_gbps > 0 && isfinite(pr.sgd_gbps),
          "memory %g, SGD %g GB/s", pr.mem_gbps, pr.sgd_gbps);
    CHECK(pr.reduce_points == 6, "6 reduction sizes (%d)", pr.reduce_points);
    for (int i = 0; i < pr.reduce_points && pr.reduce_points == 6; i++)
        CHECK(pr.reduce_bytes[i] == ((size_t)64 << 10) << (2 * i) && pr.reduce_ns[i] > 0,
              "size %d: %zu B at %g ns/B", i, pr.reduce_bytes[i], pr.reduce_ns[i]);
    CHECK(pr.reduce_points == 6 && pr.reduce_ns[5] == pr.reduce_ns_per_byte, "64 MiB: the one-size figure");
    calib_compute_header(header, sizeof header);
    CHECK(strstr(header, "median of 7 single-precision 1024x1024x1024 GEMMs") && strstr(header, "sgd_gbps:") &&
              strstr(header, "of 64 MiB vectors"), "header: %s", header);
    return TEST_REPORT();
}
