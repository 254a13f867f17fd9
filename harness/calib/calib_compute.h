/* calib_compute.h — this machine's compute rates as a device profile (profile.h), measured by
 * calib_compute.c for `ddlbench calibrate` (harness/cli/cli_calibrate.c parses, calls, writes). */
#ifndef HARN_CALIB_COMPUTE_H
#define HARN_CALIB_COMPUTE_H

#include "profile.h"

#include <stddef.h>

/* The GEMM rate, the reduction cost (one size and by size), the memory-bound kernels' and SGD's rates
 * into pr (fp16 = fp32: no half-precision GEMM on the CPU). 0, or 1 when a measurement failed (an
 * allocation, the GEMM backend). Minutes; single-threaded BLAS is the caller's to arrange. */
int calib_compute_profile(profile *pr);
/* The profile file's header lines: what each figure is the median of. */
void calib_compute_header(char *header, size_t len);

#endif
