/* calib_model_time.h — the GEMM timings of `ddlbench model --time` (cli_model.c).
 * Hot (default): each GEMM 1 + reps times on one shared set of buffers sized for the largest layer.
 * Cold (--cold): as a training step runs them — every layer on its own weights, the weight gradients
 * in their own array, forward in layer order then backward in reverse; one warm-up pass and reps
 * timed passes. Either way the median per GEMM. */
#ifndef HARN_CALIB_MODEL_TIME_H
#define HARN_CALIB_MODEL_TIME_H

#include "model.h"

#include <stddef.h>

/* Floats of the shared buffers: the largest M x K, K x N and M x N over the layers. */
void model_time_buf_sizes(const model *m, size_t *nw, size_t *nx, size_t *ny);

/* Fills ms[2·i] (forward) and ms[2·i+1] (backward: data + weight gradient) for every layer, ms
 * (0 for layers without a GEMM). 0, or 1 with one line in err (allocation, a failed GEMM). */
int model_time_layers(const model *m, long reps, int cold, double *ms, char *err, size_t errlen);

#endif
