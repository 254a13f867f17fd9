/* test_gpucheck.c — gpu-check's pure helpers (harness/calib/calib_contend.c): the launch count
 * that makes a timed batch last about a target time. The device parts run in `make gpu-check`. */
#include "calib_gpu.h"
#include "test.h"

int main(void)
{
    CHECK(gpucheck_batch_count(0.010, 0.001) == 10,
          "gpucheck_batch_count(0.010, 0.001) == 10"); /* 10 ms of 1 ms units */
    CHECK(gpucheck_batch_count(0.010, 0.003) == 4,
          "gpucheck_batch_count(0.010, 0.003) == 4"); /* rounded up: the batch lasts at least the target */
    CHECK(gpucheck_batch_count(0.010, 0.020) == 1,
          "gpucheck_batch_count(0.010, 0.020) == 1"); /* a unit longer than the target: one */
    CHECK(gpucheck_batch_count(0.030, 0.00001) == 900,
          "gpucheck_batch_count(0.030, 0.00001) == 900"); /* capped below CUDA's pending-launch queue */
    CHECK(gpucheck_batch_count(0.010, 0.0) == 1,
          "gpucheck_batch_count(0.010, 0.0) == 1"); /* an unmeasured unit (0 s): one, not a division by 0 */
    CHECK(gpucheck_batch_count(0.010, -1.0) == 1, "gpucheck_batch_count(0.010, -1.0) == 1");
    CHECK(gpucheck_batch_count(0.0, 0.001) == 1, "gpucheck_batch_count(0.0, 0.001) == 1");
    return TEST_REPORT();
}
