/* sim_rates.c — storage of the injected rates (sim.h); compiled in both builds. */
#include "sim.h"

#include <math.h>

static double gemm_gflops, reduce_ns, mem_gbps; /* SMPI privatises globals: one copy per simulated rank */
static int red_n;                               /* the size-dependent reduction cost: points */
static size_t red_bytes[KERN_SIM_REDUCE_POINTS];
static double red_ns[KERN_SIM_REDUCE_POINTS];

int kern_sim_set_rates(double gemm_gflops_fp32, double reduce_ns_per_byte)
{
    if (!(gemm_gflops_fp32 > 0) || !isfinite(gemm_gflops_fp32) || !(reduce_ns_per_byte >= 0) ||
        !isfinite(reduce_ns_per_byte))
        return -1;
    gemm_gflops = gemm_gflops_fp32;
    reduce_ns = reduce_ns_per_byte;
    return 0;
}

double kern_sim_gemm_gflops(void) { return gemm_gflops; }

int kern_sim_set_mem_gbps(double gbps)
{
    if (!(gbps > 0) || !isfinite(gbps)) return -1;
    mem_gbps = gbps;
    return 0;
}

double kern_sim_mem_gbps(void) { return mem_gbps; }

int kern_sim_set_reduce_table(int n, const size_t *bytes, const double *ns_per_byte)
{
    if (n < 0 || n > KERN_SIM_REDUCE_POINTS || (n && (!bytes || !ns_per_byte))) return -1;
    for (int i = 0; i < n; i++)
        if (!bytes[i] || (i && bytes[i] <= bytes[i - 1]) || !(ns_per_byte[i] >= 0) || !isfinite(ns_per_byte[i]))
            return -1;
    for (int i = 0; i < n; i++) red_bytes[i] = bytes[i], red_ns[i] = ns_per_byte[i];
    red_n = n;
    return 0;
}

double kern_sim_reduce_interp(int n, const size_t *sizes, const double *ns, double flat, size_t bytes)
{
    if (n <= 0) return flat;
    if (bytes <= sizes[0]) return ns[0];
    if (bytes >= sizes[n - 1]) return ns[n - 1];
    int i = 1;
    while (sizes[i] < bytes) i++;
    double f = log((double)bytes / (double)sizes[i - 1]) / log((double)sizes[i] / (double)sizes[i - 1]);
    return ns[i - 1] + f * (ns[i] - ns[i - 1]);
}

double kern_sim_reduce_cost(size_t bytes)
{
    return kern_sim_reduce_interp(red_n, red_bytes, red_ns, reduce_ns, bytes);
}
