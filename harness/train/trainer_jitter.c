/* trainer_jitter.c — the jitter of `train --jitter` (trainer.h): each rank's draw per step, a function
 * of (seed, rank, step) alone (splitmix64, Steele et al., OOPSLA'14), and the extra GEMM time it owes,
 * spun on a CPU or issued on the simulation's compute clock. */
#include "trainer_priv.h"

#include "compute.h"
#include "sim.h"

#include <math.h>
#include <stdint.h>

static uint64_t splitmix64(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

double trainer_jitter_draw(unsigned long seed, int rank, int step)
{
    uint64_t h =
        splitmix64(splitmix64(splitmix64((uint64_t)seed) ^ (uint64_t)(uint32_t)rank) ^ (uint64_t)(uint32_t)step);
    double u = ((double)(h >> 11) + 1.0) / 9007199254740992.0; /* (0, 1] */
    return -log(u);
}

double trainer_jitter_wait(const trainer *t, double d)
{
    double extra = t->stretch * d;
    if (!(extra > 0)) return 0;
    if (kern_simulated()) {
        kern_compute_issue(extra);
        return extra;
    }
    double end = MPI_Wtime() + extra;
    while (MPI_Wtime() < end) {}
    return extra;
}
