/* sgd.h — the optimizer step that ends a training step: w -= lr · g over the flat parameters.
 * Real build (sgd.c): a vectorised loop (two reads, one write per element). Simulation build
 * (sgd_sim.c): the same bytes at the device's memory rate are issued on the compute clock. */
#ifndef KERN_SGD_H
#define KERN_SGD_H

#include <stddef.h>

void kern_sgd_f32(float *w, const float *g, float lr, size_t n);
/* Simulation only: device memory bandwidth in bytes/s used to time kern_sgd_f32 (ignored for real). */
void kern_sgd_set_rate(double bytes_per_s);

#endif
