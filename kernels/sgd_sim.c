/* sgd_sim.c — simulation backend of sgd.h: 12 bytes per element (read w and g, write w) at the
 * device's memory rate, issued on the compute clock; the buffers are not touched. */
#include "compute.h"
#include "sgd.h"

static double rate = 500e9; /* bytes/s until the harness sets the profile's value */

void kern_sgd_f32(float *w, const float *g, float lr, size_t n)
{
    (void)w;
    (void)g;
    (void)lr;
    kern_compute_issue(12.0 * (double)n / rate);
}

void kern_sgd_set_rate(double bytes_per_s)
{
    if (bytes_per_s > 0) rate = bytes_per_s;
}
