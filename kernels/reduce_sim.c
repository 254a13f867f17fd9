/* reduce_sim.c — simulation backend of reduce.h: touches no data (under SMPI_SHARED_MALLOC the
 * contents are meaningless) and advances the calling rank's simulated clock by
 * n x element size x the reduction cost (sim.h, from the device profile): γ of the α-β-γ model, at
 * the rate of the allreduce's vector size when the profile has reduce_ns_per_byte_at_SIZE points (an
 * out-of-place call's vector, or half of an in-place one's: the same bytes touched as the calibration's
 * a += b on SIZE-byte vectors; issue 26, docs/BENCHMARKS.md). */
#include "reduce.h"
#include "sim.h"

#include <simgrid/actor.h>

static size_t working_set; /* SMPI privatises globals: one per simulated rank */

void kern_reduce_set_working_set(size_t bytes) { working_set = bytes; }
size_t kern_sim_working_set(void) { return working_set; }

void kern_reduce(kern_dtype dt, kern_op op, void *out, const void *a, const void *b, size_t n)
{
    (void)op;
    (void)out;
    (void)a;
    (void)b;
    size_t bytes = n * kern_dtype_size(dt);
    /* the profile's points are a += b on SIZE-byte vectors (2 SIZE bytes touched); the working set is
     * the bytes the call touches (both vectors out of place): its half is the comparable size */
    size_t like = working_set / 2;
    double seconds = (double)bytes * kern_sim_reduce_cost(bytes > like ? bytes : like) * 1e-9;
    /* not smpi_execute: it scales by smpi/host-speed (20 kflop/s by default, not the platform's
     * host speed) and drops durations under smpi/cpu-threshold (1 us) — both silently wrong here */
    if (seconds > 0) sg_actor_sleep_for(seconds);
}
