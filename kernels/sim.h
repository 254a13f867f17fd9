/* sim.h — the rates the simulation backends inject instead of computing: a GEMM takes
 * flops / (gemm_gflops x 1e9) seconds (gemm_sim.c), a reduction bytes x reduce_ns_per_byte
 * nanoseconds (reduce_sim.c), a memory-bound kernel bytes / (mem_gbps x 1e9) seconds (layers_sim.c,
 * sgd_sim.c). The harness sets them from the device profile (harness/sim/profile.h) on every rank
 * before the first kernel call; the real build stores them and ignores them, so the harness calls
 * the setter unconditionally. Under SMPI each simulated rank has its own copy. */
#ifndef KERN_SIM_H
#define KERN_SIM_H

#include <stddef.h>

/* gemm_gflops must be > 0, reduce_ns_per_byte >= 0; returns 0, or -1 (rates unchanged). */
int kern_sim_set_rates(double gemm_gflops_fp32, double reduce_ns_per_byte);
double kern_sim_gemm_gflops(void);       /* 0 until set */
/* The memory-bound kernels (layers_sim.c, sgd_sim.c) take bytes / (mem_gbps x 1e9) seconds.
 * mem_gbps must be > 0; returns 0, or -1 (unchanged). */
int kern_sim_set_mem_gbps(double mem_gbps);
double kern_sim_mem_gbps(void);           /* 0 until set: the layer kernels then fail */
/* SGD's own rate (the profile's optional sgd_gbps): layers_sim.c charges the momentum update at it
 * where > 0, else at mem_gbps. Returns 0, or -1 (unchanged) for a negative or non-finite rate. */
int kern_sim_set_sgd_gbps(double gbps);
double kern_sim_sgd_gbps(void);

/* Layer-priced compute (harness/sim/perf_layer.h): when on, the GEMMs (gemm_sim.c) and the layer kernels
 * but SGD (layers_sim.c) issue nothing, and the trainer issues each layer's priced time itself. */
void kern_sim_set_layer_priced(int on);
int kern_sim_layer_priced(void);

/* The size-dependent reduction cost (profile keys reduce_ns_per_byte_at_SIZE): n points (0 = none,
 * at most KERN_SIM_REDUCE_POINTS) of (vector bytes, ns per byte), bytes increasing. Returns 0, or -1
 * (unchanged) for bad input. */
#define KERN_SIM_REDUCE_POINTS 8
int kern_sim_set_reduce_table(int n, const size_t *bytes, const double *ns_per_byte);
/* ns per byte of one input vector when the reduced vector is `bytes` bytes: with a table, linear in
 * log(size) between its points, the end points' values beyond them; without one, reduce_ns_per_byte
 * (reduce_sim.c passes the allreduce's vector size: kern_reduce_set_working_set, reduce.h). */
double kern_sim_reduce_cost(size_t bytes);
/* The same on a given table (pure; kern_sim_reduce_cost uses it): n points, flat = the value for n = 0. */
double kern_sim_reduce_interp(int n, const size_t *sizes, const double *ns, double flat, size_t bytes);

/* The copy cost by working set (issue 26): on one node MPI's transfers and the whole-buffer copies
 * run through shared memory at the rate of the collective's working set (its vector), not of one
 * segment: n points (0 = none, at most KERN_SIM_WS_POINTS) of (working-set bytes, ns per byte; looked
 * up at what the call touches, both vectors out of place, as kern_reduce_set_working_set is given),
 * bytes strictly increasing; from a calibrated platform's ws_copy_ns (calibrate --network) through
 * DDL_SIM_WS_COPY (simlaunch.sh). Returns 0, or -1 (unchanged) for bad input. */
#define KERN_SIM_WS_POINTS 12
int kern_sim_set_ws_table(int n, const size_t *bytes, const double *ns_per_byte);
/* ns per byte copied when the working set is `bytes` (linear in log(size) between the points, the end
 * points' values beyond them; 0 without a table). */
double kern_sim_ws_cost(size_t bytes);
/* The plain copy's cost by working set (a memcpy on every rank of a node at once; calibrate --network's
 * copy sweep, platform key copy_ns, DDL_SIM_COPY): the same kind of table, which kern_copy charges;
 * without one, kern_sim_copy_cost is kern_sim_ws_cost (platform files from before it). */
int kern_sim_set_copy_table(int n, const size_t *bytes, const double *ns_per_byte);
double kern_sim_copy_cost(size_t bytes);
/* "SIZE:NS;SIZE:NS..." (SIZE a whole number of bytes, strictly increasing; NS >= 0, decimal) into at
 * most max points. Returns the count (>= 1), or -1 with why (a short phrase) for a malformed or
 * non-monotonic list. bytes and ns NULL: a check only. Pure: the platform file's parser checks the
 * same text with it. */
int kern_sim_ws_parse(const char *s, int max, size_t *bytes, double *ns, const char **why);
/* The per-call software overhead (issue 26): seconds charged for each message the pipeline posts
 * (send or receive), fitted by calibrate --network from its burst sweep (call_overhead), through
 * DDL_SIM_CALL_OVERHEAD. >= 0; returns 0, or -1 (unchanged). */
int kern_sim_set_call_overhead(double seconds);
/* The collective's vector bytes now (reduce_sim.c; simulation build only). */
size_t kern_sim_working_set(void);
double kern_sim_call_overhead(void);
/* What a polling wait's nanosleep takes beyond what it asks for (timer slack and the scheduler's
 * granularity), fitted by calibrate --network (poll_slack), through DDL_SIM_POLL_SLACK: seconds >= 0;
 * returns 0, or -1 (unchanged). kern_poll_pause (mem.h) adds it to each simulated pause. */
int kern_sim_set_poll_slack(double seconds);
double kern_sim_poll_slack(void);
/* What fresh pages cost beyond writing warm memory, ns per byte (page faults and the kernel's zeroing:
 * a large malloc that glibc maps anew on every call), fitted by calibrate --network (fault_ns), through
 * DDL_SIM_FAULT: >= 0; returns 0, or -1 (unchanged). kern_fresh_pages (mem.h) charges it. */
int kern_sim_set_fault_cost(double ns_per_byte);
double kern_sim_fault_cost(void);
/* What a message sent whole between nodes costs beyond the same bytes in libddl's eager pieces, ns
 * per byte by message size (MPI's own collectives send whole messages: above the transport's eager
 * limit a rendezvous, whose acknowledgement can wait behind other ranks' data on a shared NIC),
 * fitted by calibrate --network (whole_ns), through DDL_SIM_WHOLE: the same kind of table as
 * kern_sim_set_ws_table's, looked up at the message's bytes (0 without one). kern_whole_message
 * (mem.h) charges it. */
int kern_sim_set_whole_table(int n, const size_t *bytes, const double *ns_per_byte);
double kern_sim_whole_cost(size_t bytes);

#endif
