/* sim.h — the rates the simulation backends inject instead of computing: a GEMM takes
 * flops / (gemm_gflops x 1e9) seconds (gemm_sim.c), a reduction bytes x reduce_ns_per_byte
 * nanoseconds (reduce_sim.c), a memory-bound kernel bytes / (mem_gbps x 1e9) seconds (layers_sim.c,
 * sgd_sim.c). The harness sets them from the device profile (harness/sim/profile.h) on every rank
 * before the first kernel call; the real build stores them and ignores them, so the harness calls
 * the setter unconditionally. Under SMPI each simulated rank has its own copy. */
#ifndef KERN_SIM_H
#define KERN_SIM_H

/* gemm_gflops must be > 0, reduce_ns_per_byte >= 0; returns 0, or -1 (rates unchanged). */
int kern_sim_set_rates(double gemm_gflops_fp32, double reduce_ns_per_byte);
double kern_sim_gemm_gflops(void);       /* 0 until set */
double kern_sim_reduce_ns_per_byte(void); /* 0 until set: reductions are then free */
/* The memory-bound kernels (layers_sim.c, sgd_sim.c) take bytes / (mem_gbps x 1e9) seconds.
 * mem_gbps must be > 0; returns 0, or -1 (unchanged). */
int kern_sim_set_mem_gbps(double mem_gbps);
double kern_sim_mem_gbps(void);           /* 0 until set: the layer kernels then fail */

#endif
