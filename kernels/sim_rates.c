/* sim_rates.c — storage of the injected rates (sim.h); compiled in both builds. */
#include "sim.h"

#include <math.h>

static double gemm_gflops, reduce_ns, mem_gbps; /* SMPI privatises globals: one copy per simulated rank */

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
double kern_sim_reduce_ns_per_byte(void) { return reduce_ns; }

int kern_sim_set_mem_gbps(double gbps)
{
    if (!(gbps > 0) || !isfinite(gbps)) return -1;
    mem_gbps = gbps;
    return 0;
}

double kern_sim_mem_gbps(void) { return mem_gbps; }
