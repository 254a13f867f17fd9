/* reduce_sim.c — simulation backend of reduce.h: touches no data (under SMPI_SHARED_MALLOC the
 * contents are meaningless) and advances the calling rank's simulated clock by
 * n x element size x reduce_ns_per_byte (sim.h, from the device profile): γ of the α-β-γ model. */
#include "reduce.h"
#include "sim.h"

#include <simgrid/actor.h>

void kern_reduce(kern_dtype dt, kern_op op, void *out, const void *a, const void *b, size_t n)
{
    (void)op;
    (void)out;
    (void)a;
    (void)b;
    double seconds = (double)n * (double)kern_dtype_size(dt) * kern_sim_reduce_ns_per_byte() * 1e-9;
    /* not smpi_execute: it scales by smpi/host-speed (20 kflop/s by default, not the platform's
     * host speed) and drops durations under smpi/cpu-threshold (1 us) — both silently wrong here */
    if (seconds > 0) sg_actor_sleep_for(seconds);
}
